#!/usr/bin/env bash
# test/fault/tcp_fault_test.sh — the failure tests of fault_test.sh over the
# native TCP transport (transport 'native'): a relay in front of the real
# ClickHouse 18.16 (test/fault/tcp_relay.py) cuts, stalls or corrupts the
# server's answer, or cuts an INSERT's stream; the real server is killed in
# the middle of an INSERT. Each case checks the SQLSTATE, that the backend
# then still works and that the same foreign server connects again; the
# endless streams check that the backend's memory stays bounded and that a
# cancel ends them within 1 s. Prints "N passed, N failed".
# Needs the servers of test/servers.sh (started by test/check.sh).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
eval "$(bash test/servers.sh env)"
RELAY_PORT="${RELAY_PORT:-$(( ${FAULT_PORT:-18129} + 1 ))}"
. test/fault/lib.sh

# views whose names are the relay's markers (a few MB of answer each)
for m in cut stall garbage flip refuse progress badtype; do
	$CH_CLIENT -q "CREATE VIEW IF NOT EXISTS regress.tcp_$m AS
		SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT 2000000" ||
		{ echo "not ok - could not create the view regress.tcp_$m"; exit 1; }
done
$CH_CLIENT -q "DROP TABLE IF EXISTS regress.tcp_insert_cut"
$CH_CLIENT -q "CREATE TABLE regress.tcp_insert_cut (id UInt64) ENGINE = MergeTree ORDER BY id" ||
	{ echo "not ok - could not create regress.tcp_insert_cut"; exit 1; }

python3 test/fault/tcp_relay.py "$RELAY_PORT" "$CH_TCP_PORT" &
rpid=$!
trap 'kill $rpid 2>/dev/null' EXIT
up=""
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$RELAY_PORT) 2>/dev/null && { up=1; break; }; sleep 0.1; done
[ -n "$up" ] || { echo "not ok - the relay did not start on port $RELAY_PORT"; exit 1; }

dropdb --if-exists chfdw_tcp_fault 2>/dev/null; createdb chfdw_tcp_fault
psql -X -q -d chfdw_tcp_fault -v ON_ERROR_STOP=1 -v rport="$RELAY_PORT" -v cport="$CH_TCP_PORT" <<'SQL' || { echo "not ok - setup"; exit 1; }
CREATE EXTENSION clickhouse_fdw;
-- through the relay: lz4 blocks (asked for: the default 'auto' sends none to a
-- loopback host), none, and no receive_timeout
CREATE SERVER relay FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport 'native', port :'rport', dbname 'regress', compression 'lz4', receive_timeout '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER relay;
CREATE SERVER relay_none FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport 'native', port :'rport', dbname 'regress', compression 'none', receive_timeout '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER relay_none;
CREATE SERVER relay_wait FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport 'native', port :'rport', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER relay_wait;
CREATE SERVER real FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport 'native', port :'cport', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER real;
CREATE FOREIGN TABLE tcp_cut (n bigint, s text) SERVER relay;
CREATE FOREIGN TABLE tcp_stall (n bigint, s text) SERVER relay;
CREATE FOREIGN TABLE tcp_flip (n bigint, s text) SERVER relay;
CREATE FOREIGN TABLE tcp_refuse (n bigint, s text) SERVER relay;
CREATE FOREIGN TABLE tcp_garbage (n bigint, s text) SERVER relay;
CREATE FOREIGN TABLE tcp_garbage_none (n bigint, s text) SERVER relay_none OPTIONS (table 'tcp_garbage');
CREATE FOREIGN TABLE tcp_cut_none (n bigint, s text) SERVER relay_none OPTIONS (table 'tcp_cut');
CREATE FOREIGN TABLE tcp_progress (n bigint, s text) SERVER relay_wait;
CREATE FOREIGN TABLE tcp_badtype (n bigint, s text) SERVER relay_none;
CREATE FOREIGN TABLE tcp_stall_wait (n bigint, s text) SERVER relay_wait OPTIONS (table 'tcp_stall');
CREATE FOREIGN TABLE tcp_insert_cut (id bigint) SERVER relay OPTIONS (batch_size '100000');
CREATE FOREIGN TABLE relay_ints (id int) SERVER relay OPTIONS (table 'ints');
CREATE FOREIGN TABLE ints (id int) SERVER real;
CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ' ' || SQLERRM;
END $$;
SQL

# check NAME QUERY EXPECTED-SQLSTATE-REGEX: the error, then the same backend
# reads through the relay again (a new connection) and from the real server
check() {
	local name="$1" q="$2" want="$3" got
	got=$(timeout 30 psql -X -At -d chfdw_tcp_fault -c "SELECT sqlstate_of(\$q\$$q\$q\$)" \
		-c "SELECT count(*) FROM relay_ints" -c "SELECT count(*) FROM ints" 2>&1)
	if [[ "$(echo "$got" | head -1)" =~ ^($want) && "$(echo "$got" | sed -n 2p)" == "3" &&
		"$(echo "$got" | sed -n 3p)" == "3" ]]; then
		ok "$name: $(echo "$got" | head -1 | cut -c1-150)"
	else
		notok "$name: expected $want..., got: $got"
	fi
}
scan() { echo "SELECT sum(n), count(s) FROM (SELECT n, s FROM $1 OFFSET 0) x"; }

got=$(psql -X -At -d chfdw_tcp_fault -c "SELECT count(*) FROM relay_ints" 2>&1)
[[ "$got" == "3" ]] && ok "the relay passes a normal query through" || notok "relay pass-through: $got"
check "server dies mid-block (lz4 blocks)" "$(scan tcp_cut)" "08"
check "server dies mid-block (compression none)" "$(scan tcp_cut_none)" "08"
check "a byte flipped in a compressed block: CityHash128 catches it" "$(scan tcp_flip)" "XX001"
# (what the bytes happen to look like decides which: a malformed stream, a
# checksum, a limit, or an unknown type)
check "random bytes after the first 64 KiB (lz4 blocks)" "$(scan tcp_garbage)" "08P01|XX001|54000|HV004"
check "random bytes after the first 64 KiB (compression none)" "$(scan tcp_garbage_none)" "08P01|XX001|54000|HV004"
# server bytes quoted in our message are escaped, line breaks too: one line
check "a type name with a line break is quoted escaped" "SELECT count(n) FROM (SELECT n FROM tcp_badtype OFFSET 0) x" '[0-9A-Z]{5} malformed ClickHouse type "\(\\x0AString"'
check "server stalls: receive_timeout" "$(scan tcp_stall)" "08"
check "connection closed before the answer" "$(scan tcp_refuse)" "08"

# Endless or stalled streams (test/fault/lib.sh)
hostile chfdw_tcp_fault tcp_garbage_none "$(scan tcp_garbage_none)" error "^(08P01|XX001|54000|HV004) "
hostile chfdw_tcp_fault tcp_progress "$(scan tcp_progress)" cancelled "canceling statement"
hostile chfdw_tcp_fault tcp_stall_wait "$(scan tcp_stall_wait)" cancelled "canceling statement"

# an INSERT whose stream the relay cuts after 64 KiB of its blocks: an error
# that says how much ClickHouse holds, and ClickHouse holds only whole blocks
out=$(timeout 60 psql -X -At -d chfdw_tcp_fault -c "INSERT INTO tcp_insert_cut SELECT g FROM generate_series(1, 1000000) g" 2>&1)
rows=$($CH_CLIENT -q "SELECT count() FROM regress.tcp_insert_cut" 2>&1)
claimed=$(claimed_rows "$out")
if [[ "$out" =~ ERROR ]] && as_claimed "$out" "$rows" "$claimed" 100000; then
	ok "INSERT stream cut by the relay: $rows rows in ClickHouse, as the error said ($claimed certain)"
else
	notok "INSERT stream cut by the relay: ClickHouse holds $rows rows; the error: $out"
fi

# a real ClickHouse killed in the middle of an INSERT ... SELECT over TCP
psql -X -q -d chfdw_tcp_fault -c "SELECT clickhouse_exec('real', 'DROP TABLE IF EXISTS regress.killed_tcp')" \
	-c "SELECT clickhouse_exec('real', 'CREATE TABLE regress.killed_tcp (id UInt64) ENGINE = MergeTree ORDER BY id')" >/dev/null
psql -X -q -d chfdw_tcp_fault -c "CREATE FOREIGN TABLE killed_tcp (id bigint) SERVER real OPTIONS (batch_size '100000')" >/dev/null
out=$(insert_while_killed chfdw_tcp_fault killed_tcp)
claimed=$(claimed_rows "$out")
rows=$($CH_CLIENT -q "SELECT count() FROM regress.killed_tcp" 2>&1)
if [[ "$out" =~ ERROR:\ +.*$ ]] && as_claimed "$out" "$rows" "$claimed" 100000; then
	ok "ClickHouse killed during an INSERT over TCP: $rows rows, as the error said ($claimed certain)"
else
	notok "ClickHouse killed during an INSERT over TCP: ClickHouse holds $rows rows; the error: $out"
fi

# the same backend: its cached TCP connection dies with the server, the next
# query opens a new one without an error
got=$(psql -X -At -d chfdw_tcp_fault 2>&1 <<'SQL'
SELECT count(*) FROM ints;
\! kill -9 $(cat .state/clickhouse.pid); sleep 0.5; bash test/servers.sh start >/dev/null 2>&1
SELECT count(*) FROM ints;
SQL
)
if [[ "$(echo "$got" | tr '\n' ' ')" == "3 3 " ]]; then
	ok "a dead cached TCP connection is replaced transparently"
else
	notok "dead cached TCP connection: $got"
fi

finish
