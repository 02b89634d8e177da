#!/bin/sh
# How long a FileSystem store's writer waits (issue 23 item 11): an app puts a new key every 10 ms while each
# read-only CLI command runs beside it on a store of KEYS keys, then a load of back-to-back single puts
# (directory splits included). Prints the writer's median, p99 and worst Put per case. The case `mixed` (not in the
# default list) runs a second process of single Puts and 2-key batches on the same store beside the writer: a Relaxed
# batch first syncs the directories its process's Puts changed (one fsync, or one syncfs for several) holding the
# store's write lock. The case `spread` (not in the default list either) makes those Puts in two directories, so each
# batch runs one syncfs holding the lock; it prints its batches' median and worst time.
# Usage (after `dotnet build DataStore.sln -c Release`): tests/DataStore.TestHost/filesystem-writer-stalls.sh [KEYS]
# Knobs: CASES (default "alone count export verify backup load"), WRITER_SECONDS (default 25: make it longer than
# the slowest command, e.g. 300 at 1,000,000 keys, or the writer stops before the command ends), DURABILITY (default
# Relaxed; Durable fills and writes a Durable store).
# Soak at 1,000,000 keys: CASES="backup load" WRITER_SECONDS=400 tests/DataStore.TestHost/filesystem-writer-stalls.sh 1000000
# Where slow Puts' time goes: DATASTORE_FILESYSTEM_TRACE_MS=100 (any threshold) makes the writer log each Put at least
# that slow with its steps (write, fsync, lock wait, scan check, split, pre-image, rename, unlock, sync), and a second
# table counts, per case, which step was the largest in those Puts and how long it took at worst.
set -eu
KEYS=${1:-200000}
CASES=${CASES:-alone count export verify backup load}
WRITER_SECONDS=${WRITER_SECONDS:-25}
DURABILITY=${DURABILITY:-Relaxed}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HOST="$ROOT/tests/DataStore.TestHost/bin/Release/net10.0/DataStore.TestHost.dll"
CLI="$ROOT/src/DataStore.Cli/bin/Release/net10.0/DataStore.Cli.dll"
DIR=$(mktemp -d)
STORE="$DIR/store"
trap 'rm -rf "$DIR"' EXIT
fill_start=$(date +%s)
dotnet "$HOST" fill-bench "$STORE" FileSystem "$DURABILITY" "$KEYS" >/dev/null
echo "filled $KEYS keys in $(( $(date +%s) - fill_start )) s"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$DIR/steps.txt"
: >"$DIR/splits.txt"
echo "| case | command took | puts | median | p99 | worst | puts over 100 ms |"
echo "|---|---|---|---|---|---|---|"
for case in $CASES; do
  interval=10
  [ "$case" = load ] && interval=0
  dotnet "$HOST" worst-put "$STORE" FileSystem "$DURABILITY" "$WRITER_SECONDS" "$interval" >"$DIR/writer.txt" 2>"$DIR/trace.txt" &
  writer=$!
  sleep 3
  start=$(date +%s%N)
  case $case in
    count) dotnet "$CLI" count --store "$STORE" >/dev/null 2>&1 ;;
    export) dotnet "$CLI" export --store "$STORE" "$DIR/dump" >/dev/null 2>&1 ;;
    verify) dotnet "$CLI" verify --store "$STORE" >/dev/null 2>&1 || true ;;
    backup) dotnet "$CLI" backup --store "$STORE" "$DIR/backup" >/dev/null 2>&1 ;;
    mixed) timeout $((WRITER_SECONDS - 5)) dotnet "$HOST" mixed-loop "$STORE" FileSystem "$DURABILITY" 1 100000000 >/dev/null 2>&1 || true ;;
    spread) dotnet "$HOST" spread-loop "$STORE" FileSystem "$DURABILITY" $((WRITER_SECONDS - 5)) | sed 's/^/spread-loop: /' >&2 ;;
  esac
  took=$(( ($(date +%s%N) - start) / 1000000 ))
  wait "$writer"
  sed -n "s/^LOG 82 /$case: /p" "$DIR/trace.txt" >>"$DIR/splits.txt"
  rm -rf "$DIR/dump" "$DIR/backup"
  set -- $(grep PUTS "$DIR/writer.txt")
  # PUTS n median x ms p99 y ms worst z ms over100 k
  printf '| %s | %s ms | %s | %s ms | %s ms | %s ms | %s |\n' "$case" "$took" "$2" "$4" "$7" "${10}" "${13}"
  # Each traced Put: "... took T ms: step ms, step ms, ... (ms per step)"; count the largest step of each.
  sed -n 's/^LOG 80 .* took \([0-9.]*\) ms: \(.*\) (ms per step)$/\2/p' "$DIR/trace.txt" | awk -v c="$case" -F', ' '
    { best = ""; top = -1
      for (i = 1; i <= NF; i++) { n = split($i, w, " "); v = w[n] + 0; name = w[1]; for (j = 2; j < n; j++) name = name " " w[j]
        if (v > top) { top = v; best = name } }
      count[best]++; if (top > worst[best]) worst[best] = top; total++ }
    END { line = ""; for (b in count) line = line sprintf("%s%s %d (worst %.0f ms)", line == "" ? "" : ", ", b, count[b], worst[b])
      if (total > 0) printf "| %s | %d | %s |\n", c, total, line }' >>"$DIR/steps.txt"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -s "$DIR/splits.txt" ]; then
  echo
  echo "Splits prepared beside the writer (event 82):"
  cat "$DIR/splits.txt"
fi
if [ -s "$DIR/steps.txt" ]; then
  echo
  echo "| case | traced puts | largest step in each: count (worst) |"
  echo "|---|---|---|"
  cat "$DIR/steps.txt"
fi
