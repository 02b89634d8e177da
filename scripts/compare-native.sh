#!/usr/bin/env bash
# Alternates the native SQLite anchor (../shared/anchors/native, built against the very libe_sqlite3.so the
# NuGet package ships) and DataStore's core BenchmarkDotNet suite, ROUNDS times each (A B A B ...), so the
# two can be compared by medians on one machine in one sitting. A documented command, not a CI step:
#   scripts/compare-native.sh [ROUNDS]      (default 3; about 5 minutes a round on 2 cores)
# Results: $OUT/native-N/sqlite.txt and $OUT/bdn-N/*.md; then scripts/compare-native-table.py $OUT
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
out=${OUT:-$PWD/BenchmarkDotNet.Artifacts/compare-native}
anchor=${ANCHOR:-/tmp/datastore-anchor}
mkdir -p "$out"

dotnet build -c Release src/DataStore.Benchmarks >/dev/null
so=$(find ~/.nuget/packages/sqlite -path '*linux-x64/native/libe_sqlite3.so' | sort | tail -1)
if [ ! -x "$anchor/bench" ]; then
  rm -rf "$anchor" && cp -r ../shared/anchors/native "$anchor" && chmod -R u+w "$anchor"
  (cd "$anchor" && SQLITE_SO="$so" ./build.sh)
fi

for round in $(seq 1 "$rounds"); do
  echo "== round $round: native $(date -u +%T)"
  (cd "$anchor" && OUTDIR="$out/native-$round" ./run.sh -n 100000 sqlite >/dev/null 2>&1)
  echo "== round $round: BenchmarkDotNet $(date -u +%T)"
  dotnet run -c Release --no-build --project src/DataStore.Benchmarks -- --filter '*CoreBenchmarks*' \
    --artifacts "$out/bdn-$round" >"$out/bdn-$round.log" 2>&1
done
python3 scripts/compare-native-table.py "$out"
