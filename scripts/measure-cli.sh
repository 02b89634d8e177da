#!/usr/bin/env bash
# Times the datastore tool's store commands on N keys (9-byte keys, 128-byte values, filled by the test host's
# fill-bench) per backend, each command its own process, with wall time and peak RSS from /usr/bin/time.
# Progress goes to a redirected stderr (plain lines), as in a script. Not part of CI.
#
#   flock /tmp/datastore-bench.lock scripts/measure-cli.sh [keys] [backends...]
#   e.g. scripts/measure-cli.sh 1000000 Sqlite Lmdb RocksDb
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keys=${1:-1000000}
shift || true
backends=${*:-"Sqlite Lmdb RocksDb"}

dotnet build "$root/src/DataStore.Cli" -c Release -v quiet -nologo >/dev/null
dotnet build "$root/tests/DataStore.TestHost" -c Release -v quiet -nologo >/dev/null
tool="$root/src/DataStore.Cli/bin/Release/net10.0/DataStore.Cli"
host="$root/tests/DataStore.TestHost/bin/Release/net10.0/DataStore.TestHost"
work=$(mktemp -d "${TMPDIR:-/tmp}/measure-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT

timed() { # timed NAME command...: runs the command with stdout to NAME.out, leaves "seconds KiB" in NAME
    local name=$1
    shift
    /usr/bin/time -f '%e %M' -o "$work/$name" "$@" >"$work/$name.out" 2>"$work/$name.err"
}

result() { # result NAME: "seconds s, peak MiB"
    awk '{ printf "%s | %.0f", $1, $2 / 1024 }' "$work/$1"
}

echo "| backend | keys | export s | export peak MiB | import s | import peak MiB | export \| import - s | verify s | verify peak MiB | migrate s | migrate peak MiB | same checksum |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for backend in $backends; do
    store="$work/$backend"
    "$host" fill-bench "$store" "$backend" - "$keys" >/dev/null
    timed export "$tool" export --store "$store" "$work/dump"
    timed import "$tool" import --store "$work/$backend-copy" --backend "$backend" "$work/dump"
    start=$(date +%s.%N)
    "$tool" export --quiet --store "$store" 2>/dev/null | "$tool" import --quiet --store "$work/$backend-piped" --backend "$backend" - >"$work/piped.out"
    piped=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
    timed verify "$tool" verify --store "$work/$backend-copy"
    target=Sqlite
    [ "$backend" = Sqlite ] && target=Lmdb
    timed migrate "$tool" migrate --store "$store" --to "$work/$backend-migrated" --to-backend "$target"
    exported=$(grep -o 'checksum [0-9a-f]*' "$work/export.out" | awk '{ print $2 }')
    verified=$(awk '/^checksum:/ { print $2 }' "$work/verify.out")
    piped_sum=$(grep -o 'checksum [0-9a-f]*' "$work/piped.out" | awk '{ print $2 }')
    same=$([ "$exported" = "$verified" ] && [ "$exported" = "$piped_sum" ] && echo yes || echo "NO")
    echo "| $backend | $keys | $(result export) | $(result import) | $piped | $(result verify) | $(result migrate) | $same |"
    rm -rf "$store" "$work/$backend-copy" "$work/$backend-piped" "$work/$backend-migrated" "$work/dump"
done
