#!/usr/bin/env bash
# test/bench/async.sh — async foreign scan benchmark (prints numbers; not a test).
#
# An Append over 4 foreign partitions on 2 foreign servers whose remote
# queries each take about SLEEP seconds (a ClickHouse view over 5,000 rows
# whose condition has a scalar subquery that sleeps SLEEP s), read
#   a) with async scans (the default: every partition's query starts before
#      any is read),
#   b) serially (async_capable 'false' on both servers),
#   c) one partition alone (the slowest partition),
# and prints the times and the ratios async/slowest (issue target ≤ 1.3)
# and serial/async. Needs the servers of test/servers.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
SLEEP="${SLEEP:-0.5}"
REPEAT="${REPEAT:-3}"
eval "$(bash test/servers.sh env)"

$CH_CLIENT --multiquery <<SQL
CREATE DATABASE IF NOT EXISTS bench;
DROP TABLE IF EXISTS bench.async_t;
CREATE TABLE bench.async_t (id Int64, grp Int32, v Float64) ENGINE = MergeTree ORDER BY id;
INSERT INTO bench.async_t SELECT intDiv(number, 5000) * 100000 + number % 5000, number % 7, number / 3 FROM system.numbers LIMIT 20000;
DROP TABLE IF EXISTS bench.async_v1;
DROP TABLE IF EXISTS bench.async_v2;
DROP TABLE IF EXISTS bench.async_v3;
DROP TABLE IF EXISTS bench.async_v4;
CREATE VIEW bench.async_v1 AS SELECT id, grp, v FROM bench.async_t WHERE id < 100000 AND (SELECT count() FROM (SELECT sleepEachRow($SLEEP / 5) FROM system.numbers LIMIT 5)) > 0;
CREATE VIEW bench.async_v2 AS SELECT id, grp, v FROM bench.async_t WHERE id >= 100000 AND id < 200000 AND (SELECT count() FROM (SELECT sleepEachRow($SLEEP / 5) FROM system.numbers LIMIT 5)) > 0;
CREATE VIEW bench.async_v3 AS SELECT id, grp, v FROM bench.async_t WHERE id >= 200000 AND id < 300000 AND (SELECT count() FROM (SELECT sleepEachRow($SLEEP / 5) FROM system.numbers LIMIT 5)) > 0;
CREATE VIEW bench.async_v4 AS SELECT id, grp, v FROM bench.async_t WHERE id >= 300000 AND (SELECT count() FROM (SELECT sleepEachRow($SLEEP / 5) FROM system.numbers LIMIT 5)) > 0;
SQL

dropdb --if-exists chfdw_bench_async 2>/dev/null; createdb chfdw_bench_async
psql -X -q -d chfdw_bench_async -v ch_port="$CH_HTTP_PORT" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER ch1 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'bench');
CREATE SERVER ch2 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'bench');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch1;
CREATE USER MAPPING FOR CURRENT_USER SERVER ch2;
CREATE TABLE t (id bigint, grp int, v float8) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE t1 PARTITION OF t FOR VALUES FROM (0) TO (100000) SERVER ch1 OPTIONS (table 'async_v1');
CREATE FOREIGN TABLE t2 PARTITION OF t FOR VALUES FROM (100000) TO (200000) SERVER ch1 OPTIONS (table 'async_v2');
CREATE FOREIGN TABLE t3 PARTITION OF t FOR VALUES FROM (200000) TO (300000) SERVER ch2 OPTIONS (table 'async_v3');
CREATE FOREIGN TABLE t4 PARTITION OF t FOR VALUES FROM (300000) TO (400000) SERVER ch2 OPTIONS (table 'async_v4');
CREATE FOREIGN TABLE alone (id bigint, grp int, v float8) SERVER ch2 OPTIONS (table 'async_v4');
SQL

. test/bench/lib.sh

q="SELECT count(*), sum(id), sum(grp) FROM t WHERE (grp::numeric + 0) >= 0"
# the plan must really be async (and serial below): fail loudly otherwise
psql -X -q -d chfdw_bench_async -At -c "EXPLAIN (COSTS OFF) $q" | grep -q 'Async Foreign Scan' ||
	{ echo "async.sh: the plan has no Async Foreign Scan" >&2; exit 1; }
answer_async=$(psql -X -q -d chfdw_bench_async -At -c "$q")
async=$(best psql -X -q -d chfdw_bench_async -c "$q")
slowest=$(best psql -X -q -d chfdw_bench_async -c "SELECT count(*), sum(id), sum(grp) FROM alone WHERE (grp::numeric + 0) >= 0")
psql -X -q -d chfdw_bench_async -c "ALTER SERVER ch1 OPTIONS (ADD async_capable 'false')" \
	-c "ALTER SERVER ch2 OPTIONS (ADD async_capable 'false')"
psql -X -q -d chfdw_bench_async -At -c "EXPLAIN (COSTS OFF) $q" | grep -q 'Async Foreign Scan' &&
	{ echo "async.sh: async_capable 'false' still plans async" >&2; exit 1; }
answer_serial=$(psql -X -q -d chfdw_bench_async -At -c "$q")
serial=$(best psql -X -q -d chfdw_bench_async -c "$q")
[[ "$answer_async" == "$answer_serial" ]] ||
	{ echo "async.sh: answers differ: async $answer_async, serial $answer_serial" >&2; exit 1; }

echo "async foreign scans: 4 partitions on 2 servers, each remote query sleeping ${SLEEP} s (best of $REPEAT)"
printf '  %-34s %8s s\n' "slowest partition alone" "$slowest"
printf '  %-34s %8s s   %.2fx the slowest partition (target <= 1.3)\n' "Append, async (default)" "$async" "$(echo "$async / $slowest" | bc -l)"
printf '  %-34s %8s s   %.2fx the async run\n' "Append, serial (async_capable off)" "$serial" "$(echo "$serial / $async" | bc -l)"
echo "  answers (count, sum(id), sum(grp)): $answer_async (same serially)"
dropdb chfdw_bench_async
