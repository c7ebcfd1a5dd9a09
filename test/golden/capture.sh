#!/usr/bin/env bash
# Regenerate the server-produced golden files of test/golden/v18_16 from a
# running ClickHouse 18.16 over HTTP. Run by hand (or `make golden-update`);
# normal tests only read the files this writes.
#
#   bash test/golden/capture.sh            all cases
#   bash test/golden/capture.sh NAME...    only these cases
#
# Each case is a hand-written test/golden/v18_16/NAME.sql whose first line
# is "-- ClickHouse 18.16.1, HTTP FORMAT Native" (other .sql files there,
# made some other way, are skipped; naming one of them is an error).
# Further lines that start with "--" are comments, of which these are
# directives:
#   -- params: a=1&b=2      URL parameters (settings) for setup and query
#   -- setup: SQL           a statement run before the query (in order)
#   -- teardown: SQL        a statement run after the query
#   -- expect-http: NNN     expected HTTP status of the query (default 200)
# Every other line is the query, sent verbatim as the POST body. The script
# writes NAME.bin (the response body) and NAME.hex (hexdump -C of it).
#
# Server: CH_HOST / CH_HTTP_PORT from the environment, else from
# `bash test/servers.sh env`. The script fails if the server is down or is
# not 18.16.1, if a status differs from the expected one, or if a body is
# larger than 2 MiB. Files are replaced only after every case succeeded.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$SCRIPT_DIR/../.." && pwd -P)
CASE_DIR="$SCRIPT_DIR/v18_16"
HEADER='-- ClickHouse 18.16.1, HTTP FORMAT Native'
WANT_VERSION=18.16.1
MAX_BYTES=$((2 * 1024 * 1024))

die() { echo "capture.sh: $*" >&2; exit 1; }

command -v curl >/dev/null || die "curl is not installed"
command -v hexdump >/dev/null || die "hexdump is not installed"

if [[ -z "${CH_HTTP_PORT:-}" ]]; then
  eval "$(bash "$REPO/test/servers.sh" env)" || die "could not read the server ports (test/servers.sh env)"
fi
[[ -n "${CH_HTTP_PORT:-}" ]] || die "CH_HTTP_PORT is not set"
URL="http://${CH_HOST:-127.0.0.1}:${CH_HTTP_PORT}/"

# The server must be up and be the version the directory is named after.
version=$(curl -sS --fail --max-time 10 --data-binary 'SELECT version()' "$URL" 2>&1) ||
  die "ClickHouse is not answering at $URL ($version); start it with: bash test/servers.sh start"
[[ "$version" == "$WANT_VERSION" ]] ||
  die "server at $URL is ClickHouse '$version', expected $WANT_VERSION"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run_sql PARAMS SQL: run a statement that must succeed (setup/teardown).
run_sql() {
  local params=$1 sql=$2 code
  code=$(curl -sS --max-time 60 -o "$TMP/stmt.out" -w '%{http_code}' \
    --data-binary "$sql" "$URL?$params") || die "curl failed for: $sql"
  [[ "$code" == 200 ]] || die "HTTP $code for: $sql: $(head -c 500 "$TMP/stmt.out")"
}

capture_case() {
  local sqlfile=$1 name params='' expect=200 query='' line code size
  local -a setup=() teardown=()
  name=$(basename "$sqlfile" .sql)

  IFS= read -r line <"$sqlfile" || true
  [[ "$line" == "$HEADER" ]] || die "$sqlfile: first line must be: $HEADER"
  while IFS= read -r line || [[ -n "$line" ]]; do
    case "$line" in
      '-- params: '*) params=${line#-- params: } ;;
      '-- setup: '*) setup+=("${line#-- setup: }") ;;
      '-- teardown: '*) teardown+=("${line#-- teardown: }") ;;
      '-- expect-http: '*) expect=${line#-- expect-http: } ;;
      --*) ;;
      *) query+="$line"$'\n' ;;
    esac
  done <"$sqlfile"
  [[ -n "${query//[$' \n\t']/}" ]] || die "$sqlfile: no query"

  local s
  for s in ${setup[@]+"${setup[@]}"}; do run_sql "$params" "$s"; done
  code=$(curl -sS --max-time 120 -o "$TMP/$name.bin" -w '%{http_code}' \
    --data-binary "$query" "$URL?$params") || die "$name: curl failed"
  for s in ${teardown[@]+"${teardown[@]}"}; do run_sql "$params" "$s"; done

  [[ "$code" == "$expect" ]] ||
    die "$name: HTTP $code, expected $expect: $(head -c 500 "$TMP/$name.bin")"
  size=$(stat -c %s "$TMP/$name.bin")
  ((size <= MAX_BYTES)) || die "$name: body of $size bytes is larger than $MAX_BYTES"
  hexdump -C "$TMP/$name.bin" >"$TMP/$name.hex"
  printf '%-22s HTTP %s %9d bytes\n' "$name" "$code" "$size"
}

cases=()
if (($# > 0)); then
  for n in "$@"; do
    [[ -f "$CASE_DIR/$n.sql" ]] || die "no such case: $CASE_DIR/$n.sql"
    cases+=("$CASE_DIR/$n.sql")
  done
else
  for f in "$CASE_DIR"/*.sql; do
    [[ -e "$f" ]] || continue
    IFS= read -r first <"$f" || first=
    if [[ "$first" == "$HEADER" ]]; then
      cases+=("$f")
    else
      echo "capture.sh: skipping $(basename "$f"): not an HTTP FORMAT Native case" >&2
    fi
  done
fi
((${#cases[@]} > 0)) || die "no cases in $CASE_DIR"

for f in "${cases[@]}"; do
  capture_case "$f"
done

# Everything succeeded: replace the golden files.
for f in "${cases[@]}"; do
  n=$(basename "$f" .sql)
  mv -f "$TMP/$n.bin" "$CASE_DIR/$n.bin"
  mv -f "$TMP/$n.hex" "$CASE_DIR/$n.hex"
done
echo "capture.sh: wrote ${#cases[@]} cases to $CASE_DIR"
