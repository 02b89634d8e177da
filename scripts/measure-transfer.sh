#!/usr/bin/env bash
# Times export and import of N keys (9-byte keys as in the benchmarks, 128-byte values) per backend, each in its
# own process, with wall time and peak RSS from /usr/bin/time. Not part of CI.
#
#   flock /tmp/datastore-bench.lock scripts/measure-transfer.sh [sizes] [backends...]
#   e.g. scripts/measure-transfer.sh "100000 1000000" Sqlite Lmdb RocksDb FileSystem LiteDb
#
# Prints one markdown table row per backend and size. The fill is timed too (for context, not a target).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-"100000 1000000"}
shift || true
backends=${*:-"Sqlite Lmdb RocksDb FileSystem LiteDb"}

dotnet build "$root/tests/DataStore.TestHost" -c Release -v quiet -nologo >/dev/null
host="$root/tests/DataStore.TestHost/bin/Release/net10.0/DataStore.TestHost"
work=$(mktemp -d "${TMPDIR:-/tmp}/measure-transfer.XXXXXX")
trap 'rm -rf "$work"' EXIT

timed() { # timed OUT command...: runs the command, leaves "seconds KiB" in OUT
    local out=$1
    shift
    /usr/bin/time -f '%e %M' -o "$out" "$@" >"$out.stdout"
}

mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

echo "| backend | keys | fill s | dump MiB | export s | export peak RSS MiB | import s | import peak RSS MiB | same checksum |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for backend in $backends; do
    for n in $sizes; do
        source="$work/$backend-$n"
        copy="$work/$backend-$n-copy"
        dump="$work/$backend-$n.dump"
        timed "$work/fill" "$host" fill-bench "$source" "$backend" - "$n"
        timed "$work/export" "$host" export-dump "$source" "$backend" - "$dump"
        timed "$work/import" "$host" import-dump "$copy" "$backend" - "$dump"
        read -r fill_s _ <"$work/fill"
        read -r export_s export_kib <"$work/export"
        read -r import_s import_kib <"$work/import"
        exported=$(awk '{ print $4 }' "$work/export.stdout")
        imported=$(awk '{ print $4 }' "$work/import.stdout")
        same=$([ "$exported" = "$imported" ] && echo yes || echo "NO ($exported vs $imported)")
        echo "| $backend | $n | $fill_s | $(mib $(($(stat -c %s "$dump") / 1024))) | $export_s | $(mib "$export_kib") | $import_s | $(mib "$import_kib") | $same |"
        rm -rf "$source" "$copy" "$dump"
    done
done
