#!/usr/bin/env bash
# Size and start-up time of the `datastore` tool as a user gets it (ADR 0021): packs the tool in each variant,
# installs it with `dotnet tool install --tool-path` from a temporary feed, and times `datastore get` on a one-pair
# Sqlite, Lmdb and RocksDb store with hyperfine (median of 20 runs after 3 warm-ups, and the mean CPU time, user +
# system; apt-get install hyperfine). Not part of CI: each pack takes minutes on 2 cores (the AOT one about 10), and
# timings on a shared machine are indicative only.
#
#   scripts/measure-tool.sh [variants...]    variants: portable rid-jit rid-r2r rid (default: rid-r2r rid)
#     portable  one framework-dependent package with every platform's natives, JIT (the tool before ADR 0021)
#     rid-jit   the linux-x64 package of the per-platform packs, framework-dependent, without ReadyToRun
#     rid-r2r   the linux-x64 package framework-dependent and ReadyToRun (shipped until native AOT)
#     rid       the linux-x64 package as shipped: native AOT (`dotnet pack` for the primary package, then `-r linux-x64`)
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
variants=${*:-"rid-r2r rid"}
backends="Sqlite Lmdb RocksDb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stamp=$(date -u +%Y%m%d%H%M%S)

install() { # install NAME VERSION FEED PACKAGE-FILE: installs the tool, prints "download MiB | installed MiB"
    dotnet tool install --tool-path "$work/$1" --add-source "$3" DataStore.Cli --version "$2" >/dev/null
    echo "$(du -m "$4" | cut -f1) | $(du -sm "$work/$1" | cut -f1)"
}

declare -A sizes
for variant in $variants; do
    version="0.1.0-measure.$stamp.${variant//-/}"
    feed="$work/feed-$variant"
    started=$SECONDS
    # No symbol packages: NuGet refuses the empty one of the assembly-less primary package.
    one_rid=(-p:ToolPackageRuntimeIdentifiers=linux-x64 -p:RuntimeIdentifiers=linux-x64 -p:PublishAot=false -p:IncludeSymbols=false)
    case $variant in
        portable)
            dotnet pack src/DataStore.Cli -c Release -o "$feed" -nologo -v quiet -p:Version="$version" \
                -p:ToolPackageRuntimeIdentifiers= -p:RuntimeIdentifiers= -p:PublishAot=false -p:PublishReadyToRun=false -p:IncludeSymbols=false
            sizes[$variant]=$(install "$variant" "$version" "$feed" "$feed/DataStore.Cli.$version.nupkg") ;;
        rid-jit | rid-r2r)
            r2r=$([ "$variant" = rid-r2r ] && echo true || echo false)
            dotnet pack src/DataStore.Cli -c Release -o "$feed" -nologo -v quiet -p:Version="$version" "${one_rid[@]}" -p:PublishReadyToRun="$r2r"
            sizes[$variant]=$(install "$variant" "$version" "$feed" "$feed/DataStore.Cli.linux-x64.$version.nupkg") ;;
        rid)
            dotnet pack src/DataStore.Cli -c Release -o "$feed" -nologo -v quiet -p:Version="$version" -p:IncludeSymbols=false
            dotnet pack src/DataStore.Cli -c Release -r linux-x64 -o "$feed" -nologo -v quiet -p:Version="$version" -p:IncludeSymbols=false
            sizes[$variant]=$(install "$variant" "$version" "$feed" "$feed/DataStore.Cli.linux-x64.$version.nupkg") ;;
        *) echo "unknown variant $variant"; exit 2 ;;
    esac
    echo "packed $variant in $((SECONDS - started)) s" >&2
done

first=${variants%% *}
for backend in $backends; do
    "$work/$first/datastore" put --store "$work/store-$backend" --backend "$backend" skyrim/mods/skyui 5.2
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| variant | download MiB | installed MiB | $(for b in $backends; do printf '%s median ms (CPU ms) | ' "$b"; done)"
echo "|---|---:|---:|$(for b in $backends; do printf -- '---:|'; done)"
for variant in $variants; do
    row="| $variant | ${sizes[$variant]} |"
    for backend in $backends; do
        command="$work/$variant/datastore get --store $work/store-$backend skyrim/mods/skyui"
        test "$($command)" = "5.2"
        hyperfine -N --runs 20 --warmup 3 --export-json "$work/$variant-$backend.json" "$command" >/dev/null
        row="$row $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.0f (%.0f) |" % (r["median"]*1000, (r["user"]+r["system"])*1000))' "$work/$variant-$backend.json")"
    done
    echo "$row"
done
