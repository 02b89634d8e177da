#!/usr/bin/env bash
# Alternates the native RocksDB anchor (../shared/anchors/native, built against the very librocksdb.so the NuGet
# package RocksDB ships) and DataStore's core BenchmarkDotNet suite on RocksDb, ROUNDS times (A B A B ...), so the
# two compare by medians on one machine in one sitting. A documented command, not a CI step:
#   scripts/compare-native-rocksdb.sh [ROUNDS]     (default 3; about 7 minutes a round on 2 cores)
# Each round runs the anchor's `rocksdb` (8 MiB LRU cache, defaults otherwise) and `rocksdb_bloom` (plus a 10-bit
# bloom filter), then the suite twice: with the anchor's settings (DATASTORE_ROCKSDB_TUNING=anchor) and with
# DataStore's desktop defaults. Each round holds flock /tmp/datastore-bench.lock throughout, so no other benchmark
# runs between the programs it compares.
# Results: $OUT/native-N/*.txt, $OUT/bdn-anchor-N and $OUT/bdn-desktop-N; then scripts/compare-native-rocksdb-table.py $OUT
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
out=${OUT:-$PWD/BenchmarkDotNet.Artifacts/compare-native-rocksdb}
anchor=${ANCHOR:-/tmp/datastore-anchor-rocksdb}
source=${ANCHOR_SOURCE:-../shared/anchors/native}
lock=/tmp/datastore-bench.lock
mkdir -p "$out"

dotnet build -c Release src/DataStore.Benchmarks >/dev/null
so=$(find ~/.nuget/packages/rocksdb -path '*linux-x64/native/librocksdb.so' | sort | tail -1)
if [ ! -x "$anchor/bench" ]; then
  rm -rf "$anchor" && cp -r "$source" "$anchor" && chmod -R u+w "$anchor"
  # The package's library is named librocksdb.so but its SONAME is librocksdb.so.<major>.<minor>: link through a
  # folder that has both names, so the anchor loads exactly that file.
  mkdir -p "$anchor/lib"
  ln -sf "$so" "$anchor/lib/librocksdb.so"
  ln -sf "$so" "$anchor/lib/$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')"
  (cd "$anchor" && ROCKSDB_SO="$anchor/lib/librocksdb.so" ./build.sh)
fi

bdn() { # $1 = tuning (anchor|desktop), $2 = round
  DATASTORE_BENCH_BACKENDS=RocksDb DATASTORE_ROCKSDB_TUNING="$1" \
    dotnet run -c Release --no-build --project src/DataStore.Benchmarks -- --filter '*CoreBenchmarks*' \
    --artifacts "$out/bdn-$1-$2" >"$out/bdn-$1-$2.log" 2>&1
}

round() { # $1 = round
  echo "== round $1: native $(date -u +%T)"
  (cd "$anchor" && OUTDIR="$out/native-$1" ./run.sh -n 100000 rocksdb rocksdb_bloom >/dev/null 2>&1)
  echo "== round $1: BenchmarkDotNet, anchor settings $(date -u +%T)"
  bdn anchor "$1"
  echo "== round $1: BenchmarkDotNet, desktop defaults $(date -u +%T)"
  bdn desktop "$1"
}

for r in $(seq 1 "$rounds"); do
  exec 9>"$lock"
  flock 9
  round "$r"
  flock -u 9
done
python3 scripts/compare-native-rocksdb-table.py "$out"
