#!/usr/bin/env bash
# Alternates the native LMDB anchor (../shared/anchors/native) and DataStore's core BenchmarkDotNet suite on
# Lmdb, ROUNDS times each (A B A B ...), under the shared benchmark lock, so the two compare by medians.
# The anchor links the LMDB that DataStore loads on Linux: our own LMDB 1.0.1 build (ADR 0016).
# A documented command, not a CI step:  scripts/compare-native-lmdb.sh [ROUNDS]   (default 3)
# FILTER picks the BenchmarkDotNet suites (default '*CoreBenchmarks*'; '*ScanBenchmarks*' for scans, '*' for both).
# Results: $OUT/native-N/lmdb.txt and $OUT/bdn-N/*.md; then scripts/compare-native-table.py $OUT lmdb
# The anchor copy gets src/DataStore.Benchmarks/Native/anchor-lmdb-crc.patch: an lmdb_crc engine (the lmdb engine plus a
# CRC-32C of each pair copied out, the floor of a checked read, ADR 0014) and RULER_CPU=1 (thread CPU time instead of
# the monotonic clock). ENGINES='lmdb lmdb_crc' runs both each round (default lmdb).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
out=${OUT:-$PWD/BenchmarkDotNet.Artifacts/compare-native-lmdb}
anchor=${ANCHOR:-/tmp/datastore-anchor-lmdb}
mkdir -p "$out"

dotnet build -c Release src/DataStore.Benchmarks >/dev/null
so="$PWD/src/DataStore/Lmdb/Native/linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')/libdatastore-lmdb.so"
if [ ! -x "$anchor/bench" ]; then
  rm -rf "$anchor" && cp -r "${ANCHOR_SRC:-../shared/anchors/native}" "$anchor" && chmod -R u+w "$anchor"
  patch -s -d "$anchor" -p1 < src/DataStore.Benchmarks/Native/anchor-lmdb-crc.patch
  (cd "$anchor" && LMDB_SO="$so" ./build.sh)
fi

# One lock per round (native, then BenchmarkDotNet), so a round is not split by other benchmarks.
export anchor out filter="${FILTER:-*CoreBenchmarks*}" engines="${ENGINES:-lmdb}"
for round in $(seq 1 "$rounds"); do
  flock /tmp/datastore-bench.lock bash -c '
    echo "== round $0: native $(date -u +%T)"
    (cd "$anchor" && OUTDIR="$out/native-$0" ./run.sh -n 100000 $engines >/dev/null 2>&1)
    echo "== round $0: BenchmarkDotNet $(date -u +%T)"
    DATASTORE_BENCH_BACKENDS=Lmdb dotnet run -c Release --no-build --project src/DataStore.Benchmarks -- \
      --filter "$filter" --artifacts "$out/bdn-$0" >"$out/bdn-$0.log" 2>&1' "$round"
done
python3 scripts/compare-native-table.py "$out" lmdb
