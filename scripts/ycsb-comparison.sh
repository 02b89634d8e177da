#!/usr/bin/env bash
# The YCSB comparison in one command: every DataStore backend, each engine's hand-written peer, ZoneTree and FASTER,
# workloads A-F from 1 and 4 threads in one sitting, then the summary (operations per second, p50 / p99 per kind of
# operation) and its charts, written by scripts/bench-summary.cs. Not part of CI.
#
#   scripts/ycsb-comparison.sh OUT_DIR [RECORDS] [BenchmarkDotNet options...]
#   scripts/ycsb-comparison.sh docs/benchmarks/ycsb-peers 1000000                     # the real run: hours
#   scripts/ycsb-comparison.sh /tmp/ycsb-quick 100000 --iterationCount 3 --warmupCount 1 --inProcess   # about 25 min here
#   scripts/ycsb-comparison.sh /tmp/ycsb-lmdb 100000 --backends Lmdb,ZoneTree --iterationCount 3 --warmupCount 1 --inProcess
#
# OUT_DIR gets summary.md (with the command, the date and the load average before and after), YcsbBenchmarks.svg,
# YcsbBenchmarks-p99.svg, BenchmarkDotNet's table (YcsbBenchmarks-report.md) and the raw latency CSV.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
  sed -n '2,12p' "$0"
  exit 2
fi
out=$(realpath -m "$1")
records=${2:-1000000}
shift $(( $# < 2 ? $# : 2 ))
artifacts=$(mktemp -d "${TMPDIR:-/tmp}/ycsb-comparison.XXXXXX")
trap 'rm -rf "$artifacts"' EXIT

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%F %H:%M UTC')
# A case that fails (BenchmarkDotNet then exits 1) must not lose the others' results: the summary is written anyway,
# the failed case shows as "-", and the script exits with the benchmark run's status at the end.
status=0
dotnet run -c Release --project "$root/src/DataStore.Benchmarks" -- --filter '*YcsbBenchmarks*' --records "$records" \
  --artifacts "$artifacts" "$@" | tee "$artifacts/log" || status=$?
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
if [ ! -d "$artifacts/results" ]; then
  echo "no results to summarize (the benchmark run exited $status before any case ran)" >&2
  exit "$(( status == 0 ? 1 : status ))"
fi

dotnet run "$root/scripts/bench-summary.cs" -- "$artifacts/results" "$out" "YCSB A-F with ZoneTree and FASTER, $records records ($started)"
cp "$artifacts/results/"*YcsbBenchmarks-report-github.md "$out/YcsbBenchmarks-report.md"
cp "$artifacts/results/YcsbBenchmarks-latency.csv" "$out/"
{
  echo "Command: \`scripts/ycsb-comparison.sh OUT_DIR $records $*\` (started $started, finished $(date -u '+%H:%M UTC')); load average"
  echo "(1, 5, 15 min) $load_before before and $load_after after, on $(nproc) cores."
} >> "$out/summary.md"
if [ "$status" -ne 0 ]; then
  echo "the benchmark run exited $status (see \"Benchmarks with issues\" in its log); the summary has every case that ran" >&2
fi
exit "$status"
