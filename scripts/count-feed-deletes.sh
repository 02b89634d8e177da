#!/usr/bin/env bash
# Counts the system calls of FileSystem deletes with the change feed off and on (docs/benchmarks/change-feed.md):
# for each durability and kind (delete, prefix, range), a fresh store gets N keys (put-loop), then one process makes
# N deletes under `strace -f -c`; a process making 0 deletes is counted the same way and taken off, so the figures are
# per call. Usage: scripts/count-feed-deletes.sh [N] [OUT_DIR]   (build tests/DataStore.TestHost in Release first)
set -euo pipefail
N=${1:-200}
OUT=${2:-$(mktemp -d)}
HOST="dotnet $(dirname "$0")/../tests/DataStore.TestHost/bin/Release/net10.0/DataStore.TestHost.dll"
CALLS=fsync,fdatasync,syncfs,rename,renameat,renameat2,unlink,unlinkat,openat
count() { # store durability kind n -> "fsync fdatasync syncfs renames unlinks openat" of a delete-loop of n calls
  strace -f -c -e trace=$CALLS -o "$OUT/c.txt" $HOST delete-loop "$1" FileSystem "$2" d "$4" "$3" >/dev/null
  awk -v calls="$CALLS" 'BEGIN { split(calls, c, ","); for (i in c) n[c[i]] = 0 }
    $NF in n { n[$NF] = $4 } END {
    printf "%d %d %d %d %d %d\n", n["fsync"], n["fdatasync"], n["syncfs"], n["rename"] + n["renameat"] + n["renameat2"], n["unlink"] + n["unlinkat"], n["openat"] }' "$OUT/c.txt"
}
echo "| durability | kind | feed | fsync | fdatasync | syncfs | renames | unlinks | openat |  (per call, $N calls less 0)"
for durability in Relaxed Durable; do
  for kind in delete prefix range; do
    for feed in off on; do
      store="$OUT/$durability-$kind-$feed"; empty="$store-0"
      for s in "$store" "$empty"; do
        if [ $feed = on ]; then $HOST feed-create "$s" FileSystem "$durability" >/dev/null; fi
        $HOST put-loop "$s" FileSystem "$durability" d "$N" >/dev/null
      done
      read -r -a full <<<"$(count "$store" "$durability" "$kind" "$N")"
      read -r -a zero <<<"$(count "$empty" "$durability" "$kind" 0)"
      row="| $durability | $kind | $feed |"
      for i in 0 1 2 3 4 5; do row="$row $(python3 -c "print(round(($((full[i])) - $((zero[i]))) / $N, 2))") |"; done
      echo "$row"
    done
  done
done
