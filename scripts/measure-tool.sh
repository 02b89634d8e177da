#!/usr/bin/env bash
# Size and start-up time of the `datastore` tool as a user gets it (ADR 0021): packs the tool in each variant,
# installs it with `dotnet tool install --tool-path` from a temporary feed, and times `datastore get` on a one-key
# Sqlite store with hyperfine (median of 20 runs after 3 warm-ups; apt-get install hyperfine). Not part of CI: each
# pack takes minutes on 2 cores, and timings on a shared machine are indicative only.
#
#   scripts/measure-tool.sh [variants...]    variants: portable rid-jit rid (default: all three), aot (slow: native AOT)
#     portable  one framework-dependent package with every platform's natives, JIT (the tool before ADR 0021)
#     rid-jit   the linux-x64 package of the per-platform packs, without ReadyToRun
#     rid       the linux-x64 package as shipped: per-platform, ReadyToRun
#     aot       `dotnet publish -r linux-x64 -p:PublishAot=true` (no RocksDb: RocksDbSharp needs run-time code generation)
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
variants=${*:-"portable rid-jit rid"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stamp=$(date -u +%Y%m%d%H%M%S)

install() { # install NAME VERSION FEED PACKAGE-FILE: installs the tool, prints "download MiB | installed MiB"
    dotnet tool install --tool-path "$work/$1" --add-source "$3" DataStore.Cli --version "$2" >/dev/null
    echo "$(du -m "$4" | cut -f1) | $(du -sm "$work/$1" | cut -f1)"
}

declare -A sizes commands
for variant in $variants; do
    version="0.1.0-measure.$stamp.${variant//-/}"
    feed="$work/feed-$variant"
    case $variant in
        portable)
            dotnet pack src/DataStore.Cli -c Release -o "$feed" -nologo -v quiet -p:Version="$version" \
                -p:ToolPackageRuntimeIdentifiers= -p:RuntimeIdentifiers= -p:PublishReadyToRun=false
            sizes[$variant]=$(install "$variant" "$version" "$feed" "$feed/DataStore.Cli.$version.nupkg")
            commands[$variant]="$work/$variant/datastore" ;;
        rid-jit | rid)
            r2r=$([ "$variant" = rid ] && echo true || echo false)
            dotnet pack src/DataStore.Cli -c Release -o "$feed" -nologo -v quiet -p:Version="$version" \
                -p:ToolPackageRuntimeIdentifiers=linux-x64 -p:RuntimeIdentifiers=linux-x64 -p:PublishReadyToRun="$r2r"
            sizes[$variant]=$(install "$variant" "$version" "$feed" "$feed/DataStore.Cli.linux-x64.$version.nupkg")
            commands[$variant]="$work/$variant/datastore" ;;
        aot)
            dotnet publish src/DataStore.Cli -c Release -r linux-x64 -p:PublishAot=true -p:TreatWarningsAsErrors=false \
                -o "$work/aot" -nologo -v quiet >"$work/aot.log" 2>&1 || { cat "$work/aot.log"; exit 1; }
            rm -f "$work"/aot/*.dbg "$work"/aot/*.pdb "$work"/aot/*.xml
            sizes[$variant]="$(du -sm "$work/aot" | cut -f1) (publish folder) | $(du -sm "$work/aot" | cut -f1)"
            commands[$variant]="$work/aot/DataStore.Cli" ;;
        *) echo "unknown variant $variant"; exit 2 ;;
    esac
done

store="$work/store"
first=${variants%% *}
"${commands[$first]}" put --store "$store" --backend Sqlite skyrim/mods/skyui 5.2
echo "| variant | download MiB | installed MiB | \`datastore get\` median ms | min ms | max ms |"
echo "|---|---:|---:|---:|---:|---:|"
for variant in $variants; do
    test "$("${commands[$variant]}" get --store "$store" skyrim/mods/skyui)" = "5.2"
    hyperfine -N --runs 20 --warmup 3 --export-json "$work/$variant.json" "${commands[$variant]} get --store $store skyrim/mods/skyui" >/dev/null
    timing=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.0f | %.0f | %.0f" % (r["median"]*1000, r["min"]*1000, r["max"]*1000))' "$work/$variant.json")
    echo "| $variant | ${sizes[$variant]} | $timing |"
done
