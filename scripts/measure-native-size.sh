#!/usr/bin/env bash
# Measures what DataStore's packages add to an application: publishes a tiny app that references
# DataStore alone, and DataStore plus DataStore.RocksDb, both portable (every RID's natives) and for
# linux-x64, and prints a markdown table of the publish folders' sizes (ADR 0010).
# Needs the local feed: run `dotnet pack -c Release -o artifacts/packages` (or scripts/package-check.sh) first.
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
feed="$PWD/artifacts/packages"
# The version the feed holds (a local pack is 0.1.0-local.N.gHASH), the newest when there are several.
version=$(cd "$feed" && ls DataStore.*.nupkg | sed -n 's/^DataStore\.\([0-9].*\)\.nupkg$/\1/p' | sort -V | tail -1)
[ -n "$version" ] || { echo "measure-native-size: no DataStore package in $feed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

app() { # name, extra package references
  local dir="$work/$1"
  mkdir -p "$dir"
  cp samples/DataStore.Consumer/Directory.Build.props samples/DataStore.Consumer/Directory.Packages.props "$dir/"
  sed "s|../../artifacts/packages|$feed|" samples/DataStore.Consumer/nuget.config >"$dir/nuget.config"
  echo 'using var store = DataStore.KeyValueStore.Open(args[0]); System.Console.WriteLine(store.Backend);' >"$dir/Program.cs"
  cat >"$dir/$1.csproj" <<PROJECT
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup>
  <ItemGroup><PackageReference Include="DataStore" Version="$version" />$2</ItemGroup>
</Project>
PROJECT
}

app Core ''
app WithRocksDb "<PackageReference Include=\"DataStore.RocksDb\" Version=\"$version\" />"
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
size() { du -sb "$1" 2>/dev/null | cut -f1 || echo 0; }

echo "| app | publish | total MB | natives MB (runtimes/ or *.so) |"
echo "|---|---|---|---|"
for name in Core WithRocksDb; do
  for rid in portable linux-x64; do
    out="$work/out-$name-$rid"
    args=(-c Release -o "$out" -nologo -v quiet)
    [ "$rid" != portable ] && args+=(-r "$rid" --self-contained false)
    (cd "$work/$name" && dotnet publish "${args[@]}" >/dev/null)
    if [ "$rid" = portable ]; then natives=$(size "$out/runtimes"); else natives=$(find "$out" -name '*.so' -printf '%s\n' | awk '{s+=$1} END {print s+0}'); fi
    echo "| DataStore$([ "$name" = WithRocksDb ] && echo ' + DataStore.RocksDb') | $rid | $(mb "$(size "$out")") | $(mb "$natives") |"
  done
done
