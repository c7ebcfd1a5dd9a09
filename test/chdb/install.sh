#!/usr/bin/env bash
# test/chdb/install.sh -- fetch the chDB engine library (ClickHouse 26.5 compiled
# as a shared library, no network server) for the test harness in test/chdb/.
#
# Source: the npm package @chdb/lib-linux-x64-gnu (pinned below), which ships
# libchdb.so (~166 MB packed, ~560 MB unpacked). It is fetched with
# `npm pack` (no node_modules, no install scripts) into the git-ignored cache
# <repo>/.state/chdb/ and unpacked there; the download happens once per
# machine: if the library is already unpacked the script only prints its path.
#
# Usage:  bash test/chdb/install.sh          # prints the path of libchdb.so (last line)
#         CHDB_FORCE=1 bash test/chdb/install.sh   # re-download
#
# The only stdout line is the absolute path of libchdb.so, so callers can do
#   LIB=$(bash test/chdb/install.sh)
# Progress goes to stderr.
set -euo pipefail

CHDB_NPM_PACKAGE="@chdb/lib-linux-x64-gnu"
CHDB_NPM_VERSION="26.5.3"       # pinned; ClickHouse engine version 26.5.x
# sha1 of the tarball as published by the registry (npm view ... dist.shasum)
CHDB_NPM_SHASUM="3e52ecb7d894d9ebb1a6a50ac03f64208cc65501"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${CHDB_CACHE_DIR:-$repo/.state/chdb}"
pkgdir="$cache/$CHDB_NPM_VERSION"
lib="$pkgdir/package/libchdb.so"
stamp="$pkgdir/.unpacked"

log() { echo "chdb-install: $*" >&2; }
die() { echo "chdb-install: ERROR: $*" >&2; exit 1; }

log "package $CHDB_NPM_PACKAGE@$CHDB_NPM_VERSION"

if [ "$(uname -m)" != "x86_64" ]; then
    die "this package is for linux x86_64 (glibc); this machine is $(uname -m)"
fi

cached() { [ -z "${CHDB_FORCE:-}" ] && [ -f "$stamp" ] && [ -f "$lib" ]; }
if cached; then
    log "already unpacked (cached); set CHDB_FORCE=1 to download again"
    echo "$lib"
    exit 0
fi

# One installer at a time per cache (parallel test jobs on a fresh machine).
mkdir -p "$cache"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$cache/.lock"
    flock 9
    if cached; then
        log "unpacked by a concurrent run"
        echo "$lib"
        exit 0
    fi
fi

# npm: use what is there; install Debian's npm only if node/npm are missing.
if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        log "npm not found; installing Debian's npm (apt-get install -y npm)"
        apt-get update -qq >&2 || die "apt-get update failed"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >&2 \
            || die "apt-get install npm failed"
    fi
    command -v npm >/dev/null 2>&1 \
        || die "npm is required (apt-get install -y npm) and could not be installed"
fi
log "using npm $(npm --version) / node $(node --version 2>/dev/null || echo '?')"

mkdir -p "$pkgdir"
rm -rf "$pkgdir/package" "$stamp"
tgz="$pkgdir/chdb-lib-linux-x64-gnu-$CHDB_NPM_VERSION.tgz"

if [ ! -f "$tgz" ]; then
    log "downloading with npm pack into $pkgdir (~166 MB, once per machine)"
    tmpdir="$(mktemp -d "$pkgdir/.pack.XXXXXX")"
    trap 'rm -rf "$tmpdir"' EXIT
    ( cd "$tmpdir" && npm pack --loglevel=warn --cache "$tmpdir/npm-cache" "$CHDB_NPM_PACKAGE@$CHDB_NPM_VERSION" >&2 ) \
        || die "npm pack $CHDB_NPM_PACKAGE@$CHDB_NPM_VERSION failed"
    got="$(ls "$tmpdir"/*.tgz 2>/dev/null | head -n1 || true)"
    [ -n "$got" ] && [ -s "$got" ] || die "npm pack produced no tarball"
    mv "$got" "$tgz"
    rm -rf "$tmpdir"
    trap - EXIT
fi

sum="$(sha1sum "$tgz" | awk '{print $1}')"
if [ "$sum" != "$CHDB_NPM_SHASUM" ]; then
    rm -f "$tgz"
    die "tarball sha1 $sum != expected $CHDB_NPM_SHASUM (removed; run again)"
fi

log "unpacking"
tar -xzf "$tgz" -C "$pkgdir" || die "tar failed"
[ -f "$lib" ] || die "libchdb.so not found in the package"
# The tarball is not needed once unpacked (the stamp keeps us from re-fetching).
rm -f "$tgz"

# libchdb.so is self-contained apart from glibc (libc, libm, libdl, librt,
# libpthread); fail now if the dynamic loader cannot resolve something.
if command -v ldd >/dev/null 2>&1; then
    if ldd "$lib" | grep -q 'not found'; then
        ldd "$lib" >&2
        die "libchdb.so has unresolved shared-library dependencies"
    fi
fi

echo "$CHDB_NPM_PACKAGE@$CHDB_NPM_VERSION" > "$stamp"
log "ready"
echo "$lib"
