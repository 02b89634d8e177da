#!/usr/bin/env bash
# Builds the LMDB native library the Lmdb backend loads on Linux (ADR 0016): LMDB 1.0.1, the version the LightningDB
# package ships for Windows and macOS, compiled in a Debian 11 (bullseye, glibc 2.31) root so that it loads on
# glibc 2.31 and newer. The output is named libdatastore-lmdb.so so it never clashes with a system liblmdb.
#
#   build-lmdb.sh           build linux-x64 and linux-arm64 into ./linux-x64 and ./linux-arm64
#   build-lmdb.sh --check   build into a temporary directory and compare with the committed files (exit 1 if different)
#
# Sources: mdb.c, midl.c, lmdb.h and midl.h of the LMDB_1.0.1 tag, as the LightningDB 0.23.1 package carries them
# in its wasm/ folder (the package's README says they are copied from the tag its natives are built from). Each
# file's SHA-256 is pinned below; a different file stops the build.
# The root: debootstrap --variant=minbase --include=gcc,libc6-dev,gcc-aarch64-linux-gnu,libc6-dev-arm64-cross
# bullseye "$DATASTORE_BUILD_ROOT" http://deb.debian.org/debian (made on first use; needs root and the network).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lightningdb_version=0.23.1
sources="${LMDB_SOURCES:-${NUGET_PACKAGES:-$HOME/.nuget/packages}/lightningdb/$lightningdb_version/wasm}"
root="${DATASTORE_BUILD_ROOT:-$HOME/.cache/datastore/bullseye-root}"
declare -A pinned=(
  [mdb.c]=ea7ff59d8054f0c11464abcb14f8ff106d1dea87d6891a80ccff8f319d6fde4c
  [midl.c]=26a37f2e94e147e7cce4c8875c94d239d528d1b7b6ac6dfa5d73673dd7fd29f6
  [lmdb.h]=6c5a92b0ad225ce1ff47eb68eab467e788a237d82557f9961686917fee1dfc56
  [midl.h]=ff8babe69bb4a90aca5798789264c53de4f9efaee2f8cea3ab617c05d7e842d8
)
# LMDB's own assertions stay on: a damaged page then aborts the process instead of being read as something else.
cflags="-O2 -fPIC -pthread -g0 -W -Wall -Wno-unused-parameter -ffile-prefix-map=/build=. -fno-ident"
ldflags="-shared -Wl,-soname,libdatastore-lmdb.so -Wl,--hash-style=both -Wl,-z,noexecstack -s"

check=0
[ "${1:-}" = "--check" ] && check=1

for file in "${!pinned[@]}"; do
  actual=$(sha256sum "$sources/$file" | cut -d' ' -f1)
  if [ "$actual" != "${pinned[$file]}" ]; then
    echo "build-lmdb.sh: $sources/$file has SHA-256 $actual, expected ${pinned[$file]}" >&2
    exit 1
  fi
done

if [ ! -x "$root/usr/bin/gcc" ]; then
  debootstrap --variant=minbase --include=gcc,libc6-dev,gcc-aarch64-linux-gnu,libc6-dev-arm64-cross \
    bullseye "$root" http://deb.debian.org/debian
fi

rm -rf "$root/build" && mkdir -p "$root/build"
cp "$sources"/{mdb.c,midl.c,lmdb.h,midl.h} "$root/build/"
build() { # compiler, output directory
  chroot "$root" /bin/sh -c "cd /build && $1 $cflags $ldflags -o /build/libdatastore-lmdb.so mdb.c midl.c"
  mkdir -p "$2" && cp "$root/build/libdatastore-lmdb.so" "$2/"
}

out="$here"
[ $check -eq 1 ] && out="$(mktemp -d)"
build gcc "$out/linux-x64"
build aarch64-linux-gnu-gcc "$out/linux-arm64"

status=0
for rid in linux-x64 linux-arm64; do
  glibc=$(objdump -T "$out/$rid/libdatastore-lmdb.so" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
  echo "$rid: $(sha256sum "$out/$rid/libdatastore-lmdb.so" | cut -d' ' -f1)  highest $glibc  $(strings "$out/$rid/libdatastore-lmdb.so" | grep -m1 '^LMDB [0-9]')"
  if [ $check -eq 1 ] && ! cmp -s "$out/$rid/libdatastore-lmdb.so" "$here/$rid/libdatastore-lmdb.so"; then
    echo "$rid: the rebuilt library differs from the committed one" >&2
    status=1
  fi
done
[ $check -eq 1 ] && rm -rf "$out"
exit $status
