#!/usr/bin/env bash
# Packs DataStore, DataStore.RocksDb, DataStore.Extensions.Diagnostics and the DataStore.Cli tool (linux-x64) into a local feed (artifacts/packages),
# then proves what a user does with them: a clean consumer outside the solution (samples/DataStore.Consumer)
# restores DataStore by version from the feed, builds and runs; `dotnet tool install` installs the
# tool from the feed and it runs. Prints one "package-check: ..." line per step; exits non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

feed="$PWD/artifacts/packages"
# A local pack numbers itself after the source it was built from (0.1.0-local.<commits>.g<commit>[.t<tree>],
# src/Directory.Build.targets): NuGet caches extracted packages by id and version, so re-packing other content
# under one number would be shadowed by an earlier run's copy. Every package of the pack must carry that number.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { echo "package-check: $*"; }

rm -rf "$feed"
# --no-build reuses the Release build of `dotnet test DataStore.sln -c Release` when it ran first.
no_build=${PACKAGE_CHECK_NO_BUILD:-}
for project in DataStore DataStore.RocksDb DataStore.Extensions.Diagnostics; do
  dotnet pack "src/$project" -c Release -o "$feed" $no_build -nologo -v quiet
done
version=$(cd "$feed" && ls DataStore.*.nupkg | sed -n 's/^DataStore\.\([0-9][^a-zA-Z]*-local\..*\)\.nupkg$/\1/p' | head -1)
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+-local\.[0-9]+\.g[0-9a-f]+(\.t[0-9a-f]+)?$ ]] || { echo "package-check: no local version in $(ls "$feed")"; exit 1; }
for project in DataStore DataStore.Extensions.Diagnostics; do
  test -f "$feed/$project.$version.nupkg" && test -f "$feed/$project.$version.snupkg" \
    || { echo "package-check: $project was not packed as $version: $(ls "$feed")"; exit 1; }
done
# DataStore.RocksDb is natives only (ADR 0010): DataStore (which holds the backend) and RocksDB's natives, no assembly.
test -f "$feed/DataStore.RocksDb.$version.nupkg" || { echo "package-check: DataStore.RocksDb was not packed as $version"; exit 1; }
unzip -p "$feed/DataStore.RocksDb.$version.nupkg" DataStore.RocksDb.nuspec | grep -q "<dependency id=\"DataStore\" version=\"$version\"" \
  || { echo "package-check: DataStore.RocksDb $version does not depend on DataStore $version"; exit 1; }
unzip -p "$feed/DataStore.RocksDb.$version.nupkg" DataStore.RocksDb.nuspec | grep -q '<dependency id="RocksDB"' \
  || { echo "package-check: DataStore.RocksDb $version does not bring the RocksDB package's natives"; exit 1; }
if unzip -Z1 "$feed/DataStore.RocksDb.$version.nupkg" | grep -E '\.dll$'; then
  echo "package-check: DataStore.RocksDb $version carries an assembly; the backend's code is DataStore's"; exit 1
fi
step "packed without a version number: every package is $version"
# The tool is packed per platform (ADR 0021): the small primary package that names the platforms (an AOT tool's
# plain pack makes only that one), then this machine's linux-x64 package, native AOT-compiled as it ships.
# No symbol packages here: the primary package has no assemblies, and NuGet refuses an empty symbol package.
dotnet pack src/DataStore.Cli -c Release -o "$feed" -nologo -v quiet -p:IncludeSymbols=false
dotnet pack src/DataStore.Cli -c Release -r linux-x64 -o "$feed" -nologo -v quiet -p:IncludeSymbols=false
test -f "$feed/DataStore.Cli.$version.nupkg" && test -f "$feed/DataStore.Cli.linux-x64.$version.nupkg"
tool_files=$(unzip -Z1 "$feed/DataStore.Cli.linux-x64.$version.nupkg")
if grep -E 'runtimes/' <<<"$tool_files" | grep -v 'runtimes/linux-x64/'; then
  echo "package-check: the linux-x64 tool package carries another platform's files"; exit 1
fi
# Native AOT: one executable and the natives; no managed assembly to JIT, no debug symbols to download.
grep -qx 'tools/any/linux-x64/DataStore.Cli' <<<"$tool_files" && ! grep -qE '\.(dll|dbg|pdb)$' <<<"$tool_files" || {
  echo "package-check: the linux-x64 tool package is not the native AOT build"; exit 1; }
step "packed $(cd "$feed" && ls *.nupkg | tr '\n' ' ')"

packages=$(dotnet nuget locals global-packages --list | sed 's/^global-packages: //')

# A clean consumer: its own Directory.Build.props, no central package management, the local feed.
consumer="$work/consumer"
cp -r samples/DataStore.Consumer "$consumer"
rm -rf "$consumer/bin" "$consumer/obj"
sed -i "s|../../artifacts/packages|$feed|" "$consumer/nuget.config"
(cd "$consumer" && dotnet build -c Release -nologo -v quiet -p:DataStoreVersion="$version" >"$work/build.log") || { cat "$work/build.log"; exit 1; }
output=$(cd "$consumer" && dotnet run -c Release --no-build -- "$work/consumer-store")
echo "$output" | sed 's/^/  /'
grep -q "scanned 3 mods" <<<"$output"
step "consumer restored DataStore $version from the feed, built and ran"
# Without DataStore.RocksDb, Backend = RocksDb is refused before anything is written, naming the package to add.
if output=$(cd "$consumer" && DATASTORE__BACKEND=RocksDb dotnet run -c Release --no-build -- "$work/no-rocksdb-store" 2>&1); then
  echo "$output" | sed 's/^/  /'; echo "package-check: a consumer without DataStore.RocksDb opened a RocksDb store"; exit 1
fi
grep -q "ships in the package DataStore.RocksDb; add a reference to it" <<<"$output" && test ! -e "$work/no-rocksdb-store/datastore.json" \
  || { echo "$output" | sed 's/^/  /'; echo "package-check: a consumer without DataStore.RocksDb did not get the Unavailable error"; exit 1; }
step "consumer without DataStore.RocksDb: Backend = RocksDb is Unavailable, naming the package, nothing written"

# What the restored package holds: docs, README, license, repository metadata, beside the .snupkg symbols.
restored="$packages/datastore/$version"
for file in README.md LICENSE lib/net10.0/DataStore.dll lib/net10.0/DataStore.xml; do
  test -s "$restored/$file" || { echo "package-check: DataStore $version lacks $file"; exit 1; }
done
grep -q '<license type="expression">MIT</license>' "$restored/datastore.nuspec"
grep -q '<repository type="git"' "$restored/datastore.nuspec"
step "DataStore $version carries README.md, LICENSE, XML docs, license and repository metadata"

# The RocksDB package, selected by configuration alone (ADR 0010). A build whose DataStore.RocksDb is
# still a stub says so and this step is skipped; once the backend is available it must open the store.
rocks="$work/consumer-rocksdb"
cp -r samples/DataStore.Consumer "$rocks"
rm -rf "$rocks/bin" "$rocks/obj"
sed -i "s|../../artifacts/packages|$feed|" "$rocks/nuget.config"
(cd "$rocks" && dotnet build -c Release -nologo -v quiet -p:DataStoreVersion="$version" -p:WithRocksDb=true >"$work/build.log") || { cat "$work/build.log"; exit 1; }
if output=$(cd "$rocks" && DATASTORE__BACKEND=RocksDb dotnet run -c Release --no-build -- "$work/rocksdb-store" 2>&1); then
  echo "$output" | sed 's/^/  /'
  grep -q "opened the RocksDb store" <<<"$output" && grep -q "scanned 3 mods" <<<"$output"
  step "consumer with DataStore.RocksDb opened a RocksDb store chosen by DATASTORE__BACKEND"
elif grep -q "^backends available:" <<<"$output" && ! grep -q "^backends available:.*RocksDb" <<<"$output"; then
  step "skipped the RocksDb consumer run: this build's RocksDb backend is not available"
else
  echo "$output" | sed 's/^/  /'
  exit 1
fi

# The tool, installed as a user would, run once against a new store. The feed comes from the consumer's
# nuget.config, whose source mapping keeps DataStore.* to the feed (NuGet refuses --add-source beside a mapping).
(cd "$consumer" && dotnet tool install --tool-path "$work/tools" DataStore.Cli --version "$version" >/dev/null)
datastore="$work/tools/datastore"
"$datastore" put --store "$work/tool-store" --backend Sqlite "skyrim/mods/skyui" "5.2"
test "$("$datastore" get --store "$work/tool-store" "skyrim/mods/skyui")" = "5.2"
"$datastore" info --store "$work/tool-store" | sed 's/^/  /'
# verify starts the installed tool again as its child process (the tool shim, not dotnet DataStore.Cli.dll).
"$datastore" verify --store "$work/tool-store" --quiet | grep -qx 'pairs: 1'
# Every backend from the native AOT tool, RocksDb included (its bindings are DataStore's own, ADR 0005).
for backend in Lmdb RocksDb; do
  "$datastore" put --store "$work/tool-$backend" --backend "$backend" "skyrim/mods/skyui" "5.2"
  test "$("$datastore" get --store "$work/tool-$backend" "skyrim/mods/skyui")" = "5.2"
done
step "dotnet tool install DataStore.Cli $version (linux-x64: native AOT) from the feed; datastore put, get, info and verify ran; Lmdb and RocksDb stores too"
