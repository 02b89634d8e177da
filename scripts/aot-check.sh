#!/usr/bin/env bash
# Publishes tests/DataStore.AotSmoke with native AOT and runs it: it opens a store on every backend and one through
# AddDataStore in a Generic Host, printing one "aot-smoke: ..." line each. Slow (about 15 minutes on 2 cores, most of
# it the native compiler), so it is a documented command, not part of CI. Exits non-zero when a check fails: every
# backend, RocksDb included (its own LibraryImport bindings, ADR 0005), opens, writes, scans and reopens its store.
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

out="$PWD/artifacts/aot"
rm -rf "$out"
# The warnings (IL2xxx/IL3xxx) the publish prints come from packages; DataStore itself builds with
# IsAotCompatible and warnings as errors, so its own code adds none.
dotnet publish tests/DataStore.AotSmoke -c Release -r linux-x64 -o "$out" -nologo -v quiet 2>&1 | grep -E "warning|error" | sort -u || true
test -x # RocksDB's library is found beside the binary (a RID-specific publish copies the package's linux-x64 natives there).
test -f "$out/librocksdb.so" || { echo "aot-check: librocksdb.so is not in the publish folder"; exit 1; }
"$out/DataStore.AotSmoke" || { echo "aot-check: the native AOT publish failed"; exit 1; }
echo "aot-check: published $(du -h "$out/DataStore.AotSmoke" | cut -f1) native binary"
"$out/DataStore.AotSmoke"
