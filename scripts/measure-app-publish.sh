#!/usr/bin/env bash
# What an application that references the DataStore package carries when it publishes for one platform: packs
# DataStore (and DataStore.RocksDb) into a temporary feed, publishes samples/DataStore.Consumer with `dotnet publish -r`
# for linux-x64, win-x64 and osx-arm64 (framework-dependent, and with -p:WithRocksDb=true), and prints each
# publish's native libraries and size, failing when a file of another platform comes along. Not part of CI
# (about 5 minutes on 2 cores); README.md quotes its table.
#
#   scripts/measure-app-publish.sh [rids...]     e.g. scripts/measure-app-publish.sh linux-x64 win-x64 osx-arm64
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
rids=${*:-"linux-x64 win-x64 osx-arm64"}
# The base version, not <Version>: that is "$(DataStoreBaseVersion)", which -p:Version= would pass on unexpanded.
version="$(sed -n 's:.*<DataStoreBaseVersion>\(.*\)</DataStoreBaseVersion>.*:\1:p' src/Directory.Build.props | head -1)-local.$(date -u +%Y%m%d%H%M%S)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dotnet pack src/DataStore -c Release -o "$work/feed" -nologo -v quiet -p:Version="$version"
dotnet pack src/DataStore.RocksDb -c Release -o "$work/feed" -nologo -v quiet -p:Version="$version"
cp -r samples/DataStore.Consumer "$work/app"
rm -rf "$work/app/bin" "$work/app/obj"
sed -i "s|../../artifacts/packages|$work/feed|" "$work/app/nuget.config"

natives() { # natives DIR: the native libraries under DIR (ELF, Mach-O, or PE that is not a .NET assembly), one a line
    (cd "$1" && find . -type f | sed 's|^\./||' | sort | while read -r f; do
        kind=$(file -b "$f")
        if grep -qE '^(ELF|Mach-O|PE32)' <<<"$kind" && ! grep -q 'Mono/.Net assembly' <<<"$kind"; then echo "$f"; fi
    done)
}

foreign() { # foreign RID FILE: true when FILE is built for another platform than RID
    local rid=$1 kind
    kind=$(file -b "$2")
    case $rid in
        linux-x64) ! grep -q 'ELF 64-bit.*x86-64' <<<"$kind" ;;
        win-x64) ! grep -q 'PE32+.*x86-64' <<<"$kind" ;;
        osx-arm64) ! grep -qE 'Mach-O.*(arm64|universal)' <<<"$kind" ;;
        *) false ;;
    esac
}

echo "| app publishes for | with DataStore.RocksDb | size | native libraries | of another platform |"
echo "|---|---|---:|---|---|"
status=0
for rid in $rids; do
    for rocks in false true; do
        out="$work/out-$rid-$rocks"
        (cd "$work/app" && dotnet publish -c Release -r "$rid" --self-contained false -o "$out" -nologo -v quiet \
            -p:DataStoreVersion="$version" -p:WithRocksDb=$rocks >"$work/publish.log") || { cat "$work/publish.log"; exit 1; }
        list=$(natives "$out")
        bad=""
        for f in $list; do foreign "$rid" "$out/$f" && bad="$bad $f"; done
        [ -d "$out/runtimes" ] && bad="$bad runtimes/"
        [ -n "$bad" ] && status=1
        echo "| $rid | $rocks | $(du -sh "$out" | cut -f1) | $(echo $list | sed 's/ /, /g') | ${bad:-none} |"
    done
done
exit $status
