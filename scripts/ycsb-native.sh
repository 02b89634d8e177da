#!/usr/bin/env bash
# YCSB A-F from C on the native engines DataStore ships (src/DataStore.Benchmarks/Native/ycsb-native.c), so the suite's
# YcsbBenchmarks numbers can be read against the engine itself (docs/benchmarks/ycsb-native.md). Not part of CI.
#
#   scripts/ycsb-native.sh build                                   # builds $BIN (default /tmp/ycsb-native/ycsb-native)
#   scripts/ycsb-native.sh run OUT_FILE [ENGINES] [-- driver options]   # one engine per process, data under $DATA
#   scripts/ycsb-native.sh run /tmp/native.tsv "lmdb rocksdb" -- -n 100000 -s 3 -w 1 -t 1,4 -l ABCDEF
#
# Engines: sqlite, lmdb (DataStore's Lmdb Relaxed on Linux), lmdb_nosync (raw LMDB's ceiling), rocksdb (DataStore's
# tuning), rocksdb_defaults. Links the natives the packages ship: e_sqlite3 from the SQLite package SQLitePCLRaw uses,
# librocksdb.so from the RocksDB package, and LMDB 1.0.1 from src/DataStore/Lmdb/Native (ADR 0016), with lmdb.h from
# the LightningDB package. Headers for SQLite and RocksDB's C API come from Debian's -dev packages (installed if
# missing); RocksDB's C functions used here are the same in Debian's 7.8 header and the package's 11.12 library.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packages=${NUGET_PACKAGES:-$HOME/.nuget/packages}
bin=${BIN:-/tmp/ycsb-native/ycsb-native}
rid=linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')
version() { sed -n "s/.*Include=\"$1\" Version=\"\([^\"]*\)\".*/\1/p" "$root/Directory.Packages.props"; }

build() {
  if [ ! -f /usr/include/rocksdb/c.h ] || [ ! -f /usr/include/sqlite3.h ]; then
    apt-get update -qq && apt-get install -y -qq librocksdb-dev libsqlite3-dev >/dev/null
  fi
  local sqlite rocksdb lmdb lmdb_h
  sqlite=$(ls -d "$packages"/sqlite/*/runtimes/$rid/native/libe_sqlite3.so | sort -V | tail -1)
  rocksdb="$packages/rocksdb/$(version RocksDB)/runtimes/$rid/native/librocksdb.so"
  lmdb="$root/src/DataStore/Lmdb/Native/$rid/libdatastore-lmdb.so"
  lmdb_h="$packages/lightningdb/$(version LightningDB)/wasm"
  mkdir -p "$(dirname "$bin")"
  for so in "$sqlite" "$rocksdb" "$lmdb"; do # beside the program, under the name and the soname it loads by
    cp "$so" "$(dirname "$bin")/"
    cp "$so" "$(dirname "$bin")/$(objdump -p "$so" | awk '/SONAME/ {print $2}')"
  done
  gcc -O2 -g -Wall -Wextra -std=gnu11 -I"$lmdb_h" -o "$bin" "$root"/src/DataStore.Benchmarks/Native/ycsb-native*.c \
    -L"$(dirname "$bin")" -le_sqlite3 -lrocksdb -l:libdatastore-lmdb.so -Wl,-rpath,"$(dirname "$bin")" -lpthread -lm
  echo "built $bin"
  ldd "$bin" | grep -E 'sqlite|lmdb|rocksdb'
}

run() {
  local out=$1 engines=${2:-sqlite lmdb lmdb_nosync rocksdb}
  shift $(( $# < 2 ? $# : 2 )); [ "${1:-}" = "--" ] && shift
  local data=${DATA:-$(mktemp -d "${TMPDIR:-/tmp}/ycsb-native-data.XXXXXX")}
  for engine in $engines; do
    echo "# $engine start $(date -u '+%F %T UTC') load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
    "$bin" "$engine" "$data/$engine" "$@" | tee -a "$out"
    rm -rf "${data:?}/$engine"
  done
  rmdir "$data" 2>/dev/null || true
}

case "${1:-}" in
  build) build ;;
  run) shift; run "$@" ;;
  *) sed -n '2,13p' "$0"; exit 2 ;;
esac
