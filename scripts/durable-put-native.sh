#!/usr/bin/env bash
# The native ruler for DurablePutBenchmarks (src/DataStore.Benchmarks/Native/durable-put-native.c,
# docs/benchmarks/durable-put-native.md): durable single puts from 1, 8 and 32 threads on the natives the packages ship.
# Not part of CI.
#
#   scripts/durable-put-native.sh build                      # builds $BIN (default /tmp/ycsb-native/durable-put-native)
#   scripts/durable-put-native.sh run OUT_FILE [MODES] [-- puts rounds threads]   # one mode per process, data under $DATA
#   scripts/durable-put-native.sh run /tmp/durable.tsv "sqlite_group lmdb_group rocksdb" -- 4096 3 1,8,32
#
# Modes: sqlite_each, sqlite_group, lmdb_each, lmdb_group, rocksdb. The natives and headers are the ones
# scripts/ycsb-native.sh build places beside its program (it is run first).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packages=${NUGET_PACKAGES:-$HOME/.nuget/packages}
bin=${BIN:-/tmp/ycsb-native/durable-put-native}
version() { sed -n "s/.*Include=\"$1\" Version=\"\([^\"]*\)\".*/\1/p" "$root/Directory.Packages.props"; }

build() {
  local natives
  natives=$(dirname "$bin")
  BIN="$natives/ycsb-native" "$root/scripts/ycsb-native.sh" build >/dev/null
  gcc -O2 -g -Wall -Wextra -std=gnu11 -I"$packages/lightningdb/$(version LightningDB)/wasm" -o "$bin" \
    "$root/src/DataStore.Benchmarks/Native/durable-put-native.c" \
    -L"$natives" -le_sqlite3 -lrocksdb -l:libdatastore-lmdb.so -Wl,-rpath,"$natives" -lpthread
  echo "built $bin"
}

run() { # ycsb-native.sh's runner: one mode per process, in a fresh data directory, with the load average
  local out=$1 modes=${2:-sqlite_each sqlite_group lmdb_each lmdb_group rocksdb}
  shift $(( $# < 2 ? $# : 2 ))
  BIN=$bin "$root/scripts/ycsb-native.sh" run "$out" "$modes" "$@"
}

case "${1:-}" in
  build) build ;;
  run) shift; run "$@" ;;
  *) sed -n '2,11p' "$0"; exit 2 ;;
esac
