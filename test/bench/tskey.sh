#!/usr/bin/env bash
# test/bench/tskey.sh — timestamp columns as sort, group and min/max keys
# (tskey; prints numbers and ratios; not a test).
#
# A ClickHouse MergeTree table of ROWS rows (default 5,000,000) with a
# DateTime in Europe/Berlin (tb) and a DateTime naming no zone (t2, read in
# UTC, the sorting key), both declared timestamp, and 1,000 groups (g); the
# last three queries are (tsfast) WHERE conditions; PostgreSQL's own copy
# of the same rows. Each query runs through the FDW and on the local copy,
# best of REPEAT; the answers are compared (md5 of the rows) and printed
# beside the times. Before tskey every one of these queries read every row
# into PostgreSQL; the FDW_OFF column shows that plan (the same query over a
# subquery PostgreSQL cannot send: OFFSET 0).
# Needs the servers of test/servers.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROWS="${ROWS:-5000000}"
REPEAT="${REPEAT:-3}"
eval "$(bash test/servers.sh env)"
. test/bench/lib.sh

$CH_CLIENT --multiquery <<SQL
CREATE DATABASE IF NOT EXISTS bench;
DROP TABLE IF EXISTS bench.tskey;
CREATE TABLE bench.tskey (id UInt32, g UInt32, tb DateTime('Europe/Berlin'), t2 DateTime) ENGINE = MergeTree ORDER BY t2;
INSERT INTO bench.tskey SELECT number, number % 1000, toDateTime(1600000000 + intDiv(number * 37, 3)),
  toDateTime(1600000000 + intDiv(number * 37, 3)) FROM numbers($ROWS);
SQL
dropdb --if-exists chfdw_bench_tskey 2>/dev/null; createdb chfdw_bench_tskey
pg() { psql -X -q -d chfdw_bench_tskey "$@"; }
pg -v ch_port="$CH_HTTP_PORT" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER ch FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'bench');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch;
CREATE FOREIGN TABLE tskey (id bigint, g bigint, tb timestamp, t2 timestamp) SERVER ch OPTIONS (table 'tskey');
CREATE TABLE tskey_l AS SELECT * FROM tskey;
ANALYZE tskey_l;
SQL

printf '%-55s %9s %9s %9s %8s %8s %s\n' query fdw_s local_s before_s local/fdw before/fdw answers
while IFS= read -r q; do
	[ -n "$q" ] || continue
	lq=${q//tskey /tskey_l }
	oq=${q//FROM tskey /FROM (SELECT * FROM tskey OFFSET 0) tskey }
	f=$(best pg -c "$q"); l=$(best pg -c "$lq"); o=$(best pg -c "$oq")
	a=$(pg -At -c "$q" | md5sum | cut -c1-8); b=$(pg -At -c "$lq" | md5sum | cut -c1-8)
	printf '%-55s %9s %9s %9s %8s %8s %s\n' "$q" "$f" "$l" "$o" "$(ratio "$l" "$f")" "$(ratio "$o" "$f")" \
		"$([ "$a" = "$b" ] && echo same || echo "DIFFER $a $b")"
done <<'Q'
SELECT id, tb FROM tskey ORDER BY tb DESC LIMIT 10
SELECT id, t2 FROM tskey ORDER BY t2 DESC LIMIT 10
SELECT min(tb), max(tb) FROM tskey
SELECT min(t2), max(t2) FROM tskey
SELECT g, max(tb) FROM tskey GROUP BY g ORDER BY g
SELECT g, max(t2) FROM tskey GROUP BY g ORDER BY g
SELECT count(DISTINCT tb) FROM tskey
SELECT count(*) FROM (SELECT tb, count(*) FROM tskey GROUP BY tb) s
SELECT count(*), max(id) FROM tskey WHERE t2 >= '2021-01-01' AND t2 < '2021-01-02'
SELECT count(*), max(id) FROM tskey WHERE tb >= '2021-01-01' AND tb < '2021-01-02'
SELECT id, t2 FROM tskey WHERE t2::date = '2021-06-01' ORDER BY t2 LIMIT 5
Q
dropdb chfdw_bench_tskey
$CH_CLIENT -q "DROP TABLE bench.tskey"
