#!/usr/bin/env bash
# test/fault/fault_test.sh — failure tests: a server that dies mid-scan,
# broken streams, a stalled server, a refused request, and a server killed
# for real in the middle of an INSERT. Each case checks the SQLSTATE and
# that the same backend then runs a normal query. Prints "N passed, N failed".
# Needs the servers of test/servers.sh (started by test/check.sh).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
eval "$(bash test/servers.sh env)"
FAULT_PORT="${FAULT_PORT:-18129}"
. test/fault/lib.sh

frames=$(mktemp -d)
cc -O2 -Isrc/include test/fault/make_frames.c src/codec/ch_compress.c src/codec/ch_cityhash.c \
	src/common/ch_common.c -llz4 -lzstd -o "$frames/make_frames" && "$frames/make_frames" "$frames" ||
	{ echo "not ok - could not build the compressed frames of the hostile streams"; exit 1; }
python3 test/fault/fault_server.py "$FAULT_PORT" test/golden/v18_16/multi_block.bin "$frames" &
fpid=$!
trap 'kill $fpid 2>/dev/null; rm -rf "$frames"' EXIT
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$FAULT_PORT) 2>/dev/null && break; sleep 0.1; done

dropdb --if-exists chfdw_fault 2>/dev/null; createdb chfdw_fault
psql -X -q -d chfdw_fault -v ON_ERROR_STOP=1 -v fport="$FAULT_PORT" -v cport="$CH_HTTP_PORT" \
	-v proxy="http://127.0.0.1:$FAULT_PORT" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER faulty FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'fport', compression 'none', receive_timeout '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER faulty;
CREATE SERVER real FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'cport', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER real;
CREATE FOREIGN TABLE cut_mid_block (number numeric) SERVER faulty;
CREATE FOREIGN TABLE cut_at_boundary (v text) SERVER faulty OPTIONS (table 'cut_at_boundary');
CREATE FOREIGN TABLE garbage (v text) SERVER faulty;
CREATE FOREIGN TABLE stall (v text) SERVER faulty;
CREATE FOREIGN TABLE refuse_after (v text) SERVER faulty;
CREATE FOREIGN TABLE ints (id int) SERVER real;
-- hostile servers: HTTP gzip (compression 'gzip') and as 24.3 (compressed frames)
CREATE SERVER faulty_gz FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'fport', compression 'gzip', receive_timeout '5');
CREATE USER MAPPING FOR CURRENT_USER SERVER faulty_gz;
CREATE SERVER faulty24_zstd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'fport', dbname 'v24', compression 'zstd', receive_timeout '5');
CREATE USER MAPPING FOR CURRENT_USER SERVER faulty24_zstd;
CREATE SERVER faulty24_lz4 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'fport', dbname 'v24', compression 'lz4', receive_timeout '5');
CREATE USER MAPPING FOR CURRENT_USER SERVER faulty24_lz4;
CREATE SERVER faulty24_small FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'fport', dbname 'v24', compression 'zstd', max_block_bytes '1048576');
CREATE USER MAPPING FOR CURRENT_USER SERVER faulty24_small;
CREATE FOREIGN TABLE small_limit (v text) SERVER faulty24_small OPTIONS (table 'zstd_bomb');
CREATE FOREIGN TABLE bad_utf8 (v text) SERVER faulty;
CREATE FOREIGN TABLE bad_code_header (v text) SERVER faulty;
-- a server reached only through the proxy of its option (192.0.2.1 is TEST-NET)
CREATE SERVER via_proxy FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host '192.0.2.1', port '9', connect_timeout '2', compression 'none',
           proxy :'proxy');
CREATE USER MAPPING FOR CURRENT_USER SERVER via_proxy;
CREATE FOREIGN TABLE proxied (v text) SERVER via_proxy;
CREATE FOREIGN TABLE dt64_overflow (v timestamptz) SERVER faulty;
CREATE FOREIGN TABLE date32_overflow (v date) SERVER faulty;
CREATE FOREIGN TABLE code_flood (v text) SERVER faulty;
CREATE FOREIGN TABLE zero_flood (v text) SERVER faulty;
CREATE FOREIGN TABLE error_flood (v text) SERVER faulty;
CREATE FOREIGN TABLE type_flood (v text) SERVER faulty;
CREATE FOREIGN TABLE gzip_zeros (v text) SERVER faulty_gz;
CREATE FOREIGN TABLE zstd_bomb (v text) SERVER faulty24_zstd;
CREATE FOREIGN TABLE zstd_zeros (v text) SERVER faulty24_zstd;
CREATE FOREIGN TABLE lz4_bomb (v text) SERVER faulty24_lz4;
CREATE FOREIGN TABLE lz4_zeros (v text) SERVER faulty24_lz4;
-- the SQLSTATE of a statement, and whether the backend then still works
CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ' ' || SQLERRM;
END $$;
SQL

check() {	# check NAME QUERY EXPECTED-SQLSTATE-REGEX
	local name="$1" q="$2" want="$3" got
	got=$(psql -X -At -d chfdw_fault -c "SELECT sqlstate_of(\$q\$$q\$q\$)" -c "SELECT count(*) FROM ints" 2>&1)
	if [[ "$(echo "$got" | head -1)" =~ ^($want) && "$(echo "$got" | tail -1)" == "3" ]]; then
		ok "$name: $(echo "$got" | head -1 | cut -c1-150)"
	else
		notok "$name: expected $want..., got: $got"
	fi
}

check "server dies mid-block" "SELECT count(*) FROM cut_mid_block" "08"
check "HTTP response cut after a whole block" "SELECT * FROM cut_at_boundary" "08"
check "bytes that are not a Native block" "SELECT * FROM garbage" "08P01|54000"
check "server stalls: receive_timeout" "SELECT * FROM stall" "08"
check "connection closed before the answer" "SELECT * FROM refuse_after" "08"
check "an exception text that is not valid UTF-8 is escaped" "SELECT * FROM bad_utf8" \
	"HV000 bad .xFF.xFE bytes, .xE2.x82 cut, .x01 and € ok$"
check "an exception code header that overflows is ignored (the text's code counts)" \
	"SELECT * FROM bad_code_header" "42P01 Table default.x doesn't exist.$"
got=$(psql -X -At -d chfdw_fault -c "SELECT v FROM proxied" 2>&1)
[[ "$got" == "18.16.1" ]] && ok "the proxy option: the request went through the proxy" ||
	notok "the proxy option: $got"
check "DateTime64 ticks that overflow int64 microseconds" "SELECT * FROM dt64_overflow" \
	"22008 timestamp out of range"
check "a Date32 whose day number overflows" "SELECT * FROM date32_overflow" "22008 date out of range"
check "the server option max_block_bytes limits a compressed frame" "SELECT * FROM small_limit" \
	"54000 compressed frame at offset 0 has decompressed_size 1073741824, over the limit of 1048576$"

# Hostile streams (test/fault/lib.sh)
hq() { echo "SELECT count(*) FROM (SELECT v FROM $1 OFFSET 0) s WHERE v IS NOT NULL"; }
hostile chfdw_fault code_flood "$(hq code_flood)" error "^HV000 xxx"
hostile chfdw_fault error_flood "$(hq error_flood)" error "^HV000 yyy"
hostile chfdw_fault zero_flood "$(hq zero_flood)" cancelled "canceling statement"
hostile chfdw_fault gzip_zeros "$(hq gzip_zeros)" cancelled "canceling statement"
hostile chfdw_fault zstd_bomb "$(hq zstd_bomb)" error "^54000 .*decompressed_size"
hostile chfdw_fault lz4_bomb "$(hq lz4_bomb)" error "^54000 .*decompressed_size"
hostile chfdw_fault zstd_zeros "$(hq zstd_zeros)" cancelled "canceling statement"
hostile chfdw_fault lz4_zeros "$(hq lz4_zeros)" cancelled "canceling statement"
hostile chfdw_fault type_flood "$(hq type_flood)" cancelled "canceling statement"
hostile chfdw_fault zstd_zeros "$(hq zstd_zeros)" terminated "" terminate

# a real ClickHouse killed in the middle of an INSERT ... SELECT
psql -X -q -d chfdw_fault -c "SELECT clickhouse_exec('real', 'DROP TABLE IF EXISTS regress.killed')" \
	-c "SELECT clickhouse_exec('real', 'CREATE TABLE regress.killed (id UInt64) ENGINE = MergeTree ORDER BY id')" >/dev/null
psql -X -q -d chfdw_fault -c "CREATE FOREIGN TABLE killed (id bigint) SERVER real OPTIONS (batch_size '100000')" >/dev/null
out=$(insert_while_killed chfdw_fault killed)
claimed=$(claimed_rows "$out")
if echo "$out" | grep -qE "could not (connect|talk)|broken" && [ -n "$claimed" ]; then
	ok "ClickHouse killed during INSERT: the error says $claimed rows were committed"
else
	notok "ClickHouse killed during INSERT: $out"
fi
rows=$($CH_CLIENT -q "SELECT count() FROM regress.killed" 2>&1)
# the block whose answer was lost may or may not be there; the error says so
if as_claimed "$out" "$rows" "$claimed" 100000; then
	ok "only whole blocks arrived, as the error said ($rows rows; $claimed certain)"
else
	notok "after the kill ClickHouse holds $rows rows; the error said ${claimed:-nothing}"
fi
got=$(psql -X -At -d chfdw_fault -c "SELECT count(*) FROM ints" 2>&1)
[[ "$got" == "3" ]] && ok "a new backend reconnects after the restart" || notok "reconnect: $got"

# the same backend: its cached keep-alive connection dies with the server,
# the next query opens a new one without an error
got=$(psql -X -At -d chfdw_fault 2>&1 <<'SQL'
SELECT count(*) FROM ints;
\! kill -9 $(cat .state/clickhouse.pid); sleep 0.5; bash test/servers.sh start >/dev/null 2>&1
SELECT count(*) FROM ints;
SELECT tcp_connects FROM clickhouse_fdw_connections() WHERE server = 'real';
SQL
)
if [[ "$(echo "$got" | tr '\n' ' ')" == "3 3 2 " ]]; then
	ok "a dead cached connection is replaced transparently (2 TCP connections, no error)"
else
	notok "dead cached connection: $got"
fi

finish
