#!/usr/bin/env bash
# What the write-ahead-log check (ADR 0023, "Write-ahead log") adds to opening a Sqlite store whose log holds 64 MiB of
# frames begun in this boot (as a crash leaves it). A test-host child writes a few pairs and is killed with kill -9, so
# the log and its record exist; python3's sqlite3 then appends one 64 MiB transaction to that same log and exits
# without closing. Each round copies that store and opens it in a fresh process (test host `hold-open`), with the
# check on, then off (DATASTORE_BOOT_ID names another boot, so the walk is skipped); GNU time gives wall, user and
# system seconds. Usage: scripts/sqlite-wal-open.sh [ROUNDS] (default 9); WORK=dir (default /tmp/ds-wal-open).
# Needs the Release build of tests/DataStore.TestHost, python3 and /usr/bin/time.
set -eu
rounds=${1:-9}
work=${WORK:-/tmp/ds-wal-open}
cd "$(dirname "$0")/.."
host=$PWD/tests/DataStore.TestHost/bin/Release/net10.0/DataStore.TestHost.dll
rm -rf "$work"; mkdir -p "$work"
dotnet "$host" fill-and-hang "$work/store" Sqlite Relaxed x 100 100 > "$work/fill.out" & pid=$!
until grep -q FILLED "$work/fill.out" 2>/dev/null; do sleep 0.2; done
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
python3 - "$work/store/store.sqlite" <<'PY'
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA wal_autocheckpoint=0")
con.execute("PRAGMA cache_size=-400000")
con.execute("BEGIN IMMEDIATE")
con.execute("CREATE TABLE pad(x BLOB)")
blob = os.urandom(4000)
for i in range(16000):
    con.execute("INSERT INTO pad VALUES (?)", (blob,))
con.execute("COMMIT")
os._exit(0)  # no close, so the log stays as written
PY
echo "log: $(stat -c %s "$work/store/store.sqlite-wal") bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  for mode in on off; do
    rm -rf "$work/run"; cp -a "$work/store" "$work/run"; cat "$work/run"/* > /dev/null
    if [ "$mode" = off ]; then export DATASTORE_BOOT_ID=another-boot; else unset DATASTORE_BOOT_ID; fi
    /usr/bin/time -f "$mode %e %U %S" -o "$work/time.txt" dotnet "$host" hold-open "$work/run" Sqlite Relaxed 0 > "$work/out.txt"
    grep -q HOLDING "$work/out.txt"
    cat "$work/time.txt"
  done
done | tee "$work/times.txt"
unset DATASTORE_BOOT_ID
python3 - "$work/times.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.split() and line.split()[0] in ("on", "off")]
for mode in ("on", "off"):
    r = [list(map(float, x[1:])) for x in rows if x[0] == mode]
    print(f"check {mode}: {len(r)} opens, medians: wall {statistics.median(x[0] for x in r):.2f} s, "
          f"user {statistics.median(x[1] for x in r):.2f} s, system {statistics.median(x[2] for x in r):.2f} s")
PY
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
