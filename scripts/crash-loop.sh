#!/usr/bin/env bash
# Runs the test classes suspected of the one-off exit 139 (issue 20 item 7) again and again with .NET crash dumps on,
# and stops at the first run that crashes. Usage: scripts/crash-loop.sh [RUNS] (default 20); DUMPS=dir (default /tmp).
# Each run is filtered (never the whole suite); the summary line of each run goes to stdout, its log to $DUMPS.
set -u
runs=${1:-20}
dumps=${DUMPS:-/tmp}
cd "$(dirname "$0")/.."
dotnet build tests/DataStore.Tests -c Release -v q -nologo || exit 1
export DOTNET_DbgEnableMiniDump=1 DOTNET_DbgMiniDumpType=1 DOTNET_DbgMiniDumpName="$dumps/ds-dump-%p"
filter="FullyQualifiedName~DisposeRace|FullyQualifiedName~LoadContract|FullyQualifiedName~KillRounds|FullyQualifiedName~DataStore.Tests.Sharing|FullyQualifiedName~DataStore.Tests.ChangeFeed"
for run in $(seq 1 "$runs"); do
  log="$dumps/ds-crash-loop-$run.log"
  marker="$dumps/.ds-crash-loop-start"
  touch "$marker"
  start=$(date +%s)
  dotnet test tests/DataStore.Tests -c Release --no-build --filter "$filter" > "$log" 2>&1
  code=$?
  found=$(find "$dumps" -maxdepth 1 -name 'ds-dump-*' -newer "$marker" 2>/dev/null | wc -l)
  echo "run $run: exit $code in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1 /proc/loadavg), $(grep -E '^  (failed|succeeded):' "$log" | tr -s ' ' | tr '\n' ' ')dumps $(ls "$dumps"/ds-dump-* 2>/dev/null | wc -l)"
  if [ "$code" -ne 0 ] || [ "$found" -ne 0 ] || grep -q 'exit code 139\|Test host process crashed' "$log"; then
    echo "run $run did not end cleanly: see $log and $dumps/ds-dump-*" >&2
    exit 1
  fi
done
