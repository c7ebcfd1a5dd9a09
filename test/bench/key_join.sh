#!/usr/bin/env bash
# test/bench/key_join.sh — key join benchmark (prints numbers and ratios; not a test).
#
# A local table of 1,000 keys (LOCAL_ROWS) joined on its key with a ClickHouse
# MergeTree table of 10M rows (ROWS, loaded with numbers(); ~10 rows per key):
#   - the FDW's "ClickHouse Key Join" (the keys sent in one IN list);
#   - clickhouse-client running the same join with the 1,000 keys inlined in an
#     IN list (the floor: what ClickHouse alone takes);
#   - the plan PostgreSQL picks with clickhouse_fdw.enable_key_join = off (a hash
#     join pulling the whole table, or a parameterized nested loop), cut at
#     TIMEOUT_S seconds by statement_timeout.
# The foreign table is ANALYZEd (a sample), so the planner knows how many rows
# a key matches; without statistics PostgreSQL assumes the join returns the
# whole table and the key join is not chosen.
# The answers (count, sum) of all three are printed and must agree.
# Needs the servers of test/servers.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROWS="${ROWS:-10000000}"
LOCAL_ROWS="${LOCAL_ROWS:-1000}"
REPEAT="${REPEAT:-3}"
TIMEOUT_S="${TIMEOUT_S:-60}"
eval "$(bash test/servers.sh env)"
. test/bench/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

$CH_CLIENT --multiquery <<SQL
CREATE DATABASE IF NOT EXISTS bench;
DROP TABLE IF EXISTS bench.kj_big;
CREATE TABLE bench.kj_big (id UInt64, k UInt32, v Float64, s String) ENGINE = MergeTree ORDER BY id;
INSERT INTO bench.kj_big SELECT number, toUInt32(number * 7919 % 1000000), number / 8, toString(number % 1000) FROM numbers($ROWS);
SQL
dropdb --if-exists chfdw_bench_kj 2>/dev/null; createdb chfdw_bench_kj
pg() { psql -X -q -d chfdw_bench_kj "$@"; }
pg -v ch_port="$CH_HTTP_PORT" -v local_rows="$LOCAL_ROWS" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER ch FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'bench');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch;
CREATE FOREIGN TABLE kj_big (id bigint, k bigint, v float8, s text) SERVER ch
  OPTIONS (table 'kj_big', use_remote_estimate 'true');
-- keys spread over the table's range (each key has ~ROWS/1M rows)
CREATE TABLE kj_local (k bigint PRIMARY KEY, label text);
INSERT INTO kj_local SELECT g * 997 % 1000000, 'label ' || g FROM generate_series(1, :local_rows) g;
ANALYZE kj_local;
-- a sample of ClickHouse's rows (analyze.c): how many rows a key matches
ANALYZE kj_big;
SQL

Q="SELECT count(*), sum(f.v) FROM kj_local l JOIN kj_big f ON f.k = l.k"
keys=$(pg -At -c "SELECT string_agg(k::text, ', ') FROM kj_local")
CQ="SELECT count(), sum(v) FROM bench.kj_big WHERE k IN ($keys)"

# the least query time (ms) of REPEAT runs in one psql session (\timing: the
# round trip of the query on an open connection, planning included)
pg_ms() {
	{ echo '\timing on'; for _ in $(seq "$REPEAT"); do echo "$1;"; done; } |
		pg -At "${@:2}" >"$tmp/out" 2>&1 || true
	grep -o 'Time: [0-9.]*' "$tmp/out" | awk '{print $2}' | sort -n | head -1
}
# the least query time (ms) of REPEAT clickhouse-client runs (--time: the
# query's, not the client's start)
ch_ms() {
	for _ in $(seq "$REPEAT"); do
		$CH_CLIENT --time -q "$1" 2>&1 >"$tmp/out" | tail -1
	done | least 1000 '%.1f'
}

echo "plan with the key join:"
pg -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) $Q" |
	grep -E 'Custom Scan|Batches|Remote Queries|Keys Sent|Remote Rows|Foreign Scan|Remote SQL:' |
	cut -c1-160 | sed 's/^/  /'
fdw=$(pg_ms "$Q"); fdw_ans=$(grep -v Time "$tmp/out" | grep -v Timing | head -1 | tr '|' ' ')
client=$(ch_ms "$CQ"); client_ans=$(tr '\t' ' ' <"$tmp/out")
# the same round trip for a query on the local table alone
floor=$(pg_ms "SELECT count(*) FROM kj_local")

echo "plan without the key join (clickhouse_fdw.enable_key_join = off):"
PGOPTIONS="-c clickhouse_fdw.enable_key_join=off" pg -c "EXPLAIN (COSTS OFF) $Q" | sed 's/^/  /'
off=$(REPEAT=1 PGOPTIONS="-c clickhouse_fdw.enable_key_join=off -c statement_timeout=${TIMEOUT_S}s" pg_ms "$Q")
off_ans=$(grep -v Time "$tmp/out" | grep -v Timing | head -1 | tr '|' ' ')
case "$off_ans" in *"statement timeout"*) off_ans="cut at ${TIMEOUT_S} s (statement_timeout)";; esac

echo
echo "rows: $ROWS in ClickHouse, $LOCAL_ROWS local keys (best of $REPEAT)"
printf '%-52s %9s ms  answer: %s\n' "FDW key join" "$fdw" "$fdw_ans"
printf '%-52s %9s ms  answer: %s\n' "clickhouse-client, the keys inlined (IN list)" "$client" "$client_ans"
printf '%-52s %9s ms  answer: %s\n' "FDW without the key join (one run)" "$off" "$off_ans"
printf '%-52s %9s ms\n' "psql: SELECT count(*) FROM kj_local (the floor)" "$floor"
printf 'ratios: key join / clickhouse-client = %.2fx; without / with the key join = %.1fx\n' \
	"$(echo "$fdw / $client" | bc -l)" "$(echo "$off / $fdw" | bc -l)"
dropdb chfdw_bench_kj
$CH_CLIENT -q "DROP TABLE bench.kj_big"
