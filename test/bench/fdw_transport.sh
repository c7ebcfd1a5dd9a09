#!/usr/bin/env bash
# test/bench/fdw_transport.sh — the FDW over both transports (prints numbers
# and ratios from one run; not a test, no timed asserts). Best of REPEAT:
#   a) a full scan of the 5,000,000-row events table of test/bench/scan.sh,
#      every row and column into tuples (EXPLAIN (ANALYZE, TIMING OFF)
#      SELECT *), over TCP with default options and with compression 'none',
#      over HTTP with default options and with compression 'none', each as a
#      ratio of the rows/s of clickhouse-client ... FORMAT Null;
#   b) a 1,000,000-row INSERT ... SELECT over TCP and over HTTP (default
#      options), each as a ratio of the time of the SELECT alone
#      (COPY (SELECT ...) TO '/dev/null', as test/bench/insert.sh);
#   c) the cancel of a long TCP scan: the time from pg_cancel_backend to the
#      end of the statement, and how long the query then stays in
#      ClickHouse's system.processes.
# Needs the servers of test/servers.sh (CH_TCP_PORT, CH_HTTP_PORT).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROWS="${ROWS:-5000000}"
INSERT_ROWS="${INSERT_ROWS:-1000000}"
REPEAT="${REPEAT:-2}"
eval "$(bash test/servers.sh env)"

have=$($CH_CLIENT --query "SELECT count() FROM bench.events" 2>/dev/null || echo 0)
if [[ "$have" != "$ROWS" ]]; then
	$CH_CLIENT --multiquery <<SQL
CREATE DATABASE IF NOT EXISTS bench;
DROP TABLE IF EXISTS bench.events;
CREATE TABLE bench.events (id UInt64, ts DateTime, user_id UInt32, kind String, amount Float64, note String, ref Nullable(String)) ENGINE = MergeTree ORDER BY id;
INSERT INTO bench.events SELECT number, toDateTime(1600000000 + number), number % 100000, concat('kind', toString(number % 50)), number / 7, substring('abcdefghijklmnopqrstuvwxyz', 1, number % 27), if(number % 3 = 0, NULL, toString(number)) FROM system.numbers LIMIT $ROWS;
SQL
fi
$CH_CLIENT --multiquery <<'SQL'
DROP TABLE IF EXISTS bench.ins_tr;
CREATE TABLE bench.ins_tr (id UInt64, ts DateTime, user_id UInt32, kind String, amount Float64, note String, ref Nullable(String)) ENGINE = MergeTree ORDER BY id;
CREATE VIEW IF NOT EXISTS bench.endless AS SELECT number AS n FROM system.numbers;
SQL

dropdb --if-exists chfdw_bench_tr 2>/dev/null; createdb chfdw_bench_tr
psql -X -q -d chfdw_bench_tr -v tcp="$CH_TCP_PORT" -v http="$CH_HTTP_PORT" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER tcp FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport 'native', port :'tcp', dbname 'bench');
CREATE SERVER tcp_none FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport 'native', port :'tcp', dbname 'bench', compression 'none');
CREATE SERVER http FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'http', dbname 'bench');
CREATE SERVER http_none FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'http', dbname 'bench', compression 'none');
CREATE USER MAPPING FOR CURRENT_USER SERVER tcp;
CREATE USER MAPPING FOR CURRENT_USER SERVER tcp_none;
CREATE USER MAPPING FOR CURRENT_USER SERVER http;
CREATE USER MAPPING FOR CURRENT_USER SERVER http_none;
CREATE FOREIGN TABLE ev_tcp (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER tcp OPTIONS (table 'events');
CREATE FOREIGN TABLE ev_tcp_none (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER tcp_none OPTIONS (table 'events');
CREATE FOREIGN TABLE ev_http (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER http OPTIONS (table 'events');
CREATE FOREIGN TABLE ev_http_none (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER http_none OPTIONS (table 'events');
CREATE FOREIGN TABLE ins_tcp (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER tcp OPTIONS (table 'ins_tr');
CREATE FOREIGN TABLE ins_http (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER http OPTIONS (table 'ins_tr');
CREATE FOREIGN TABLE endless (n bigint) SERVER tcp;
CREATE VIEW src AS
  SELECT g::bigint AS id, to_timestamp(1600000000 + g) AS ts, (g % 100000)::bigint AS user_id,
         'kind' || (g % 50) AS kind, g / 7.0::float8 AS amount,
         substr('abcdefghijklmnopqrstuvwxyz', 1, (g % 27)::int) AS note,
         CASE WHEN g % 3 = 0 THEN NULL ELSE g::text END AS ref
    FROM generate_series(1, current_setting('bench.rows')::bigint) g;
SQL
pg() { PGOPTIONS="-c bench.rows=$INSERT_ROWS" psql -X -q -d chfdw_bench_tr "$@"; }

. test/bench/lib.sh
before_run() { $CH_CLIENT -q "TRUNCATE TABLE bench.ins_tr"; settle_merges; }
BEST_BEFORE=before_run
scan() { pg -c "EXPLAIN (ANALYZE, TIMING OFF) SELECT * FROM $1"; }

client=$(best $CH_CLIENT --query "SELECT * FROM bench.events FORMAT Null")
scan ev_tcp >/dev/null; scan ev_http >/dev/null	# connections and caches warm
tcp=$(best scan ev_tcp)
tcp_none=$(best scan ev_tcp_none)
http=$(best scan ev_http)
http_none=$(best scan ev_http_none)
modes=$(pg -At -c "SELECT count(*) FROM ev_tcp WHERE id < 0" -c "SELECT count(*) FROM ev_tcp_none WHERE id < 0" \
	-c "SELECT count(*) FROM ev_http WHERE id < 0" -c "SELECT count(*) FROM ev_http_none WHERE id < 0" \
	-c "SELECT string_agg(server || ' ' || response_compression, ', ' ORDER BY server) FROM clickhouse_fdw_connections()" | tail -1)

floor=$(best pg -c "COPY (SELECT * FROM src) TO '/dev/null'")
ins_tcp=$(best pg -c "INSERT INTO ins_tcp SELECT * FROM src")
check_tcp=$($CH_CLIENT -q "SELECT count(), sum(id), countIf(ref IS NULL) FROM bench.ins_tr")
ins_http=$(best pg -c "INSERT INTO ins_http SELECT * FROM src")

# cancel: a scan of an endless view, cancelled after 1.5 s
PGAPPNAME=bench_cancel psql -X -q -d chfdw_bench_tr -c "SELECT count(*) FROM (SELECT n FROM endless OFFSET 0) s" \
	>/dev/null 2>&1 &
qpid=$!
sleep 1.5
running=$($CH_CLIENT -q "SELECT count() FROM system.processes WHERE query LIKE '%bench%endless%' AND query NOT LIKE '%system.processes%'")
c0=$(date +%s.%N)
psql -X -q -At -d chfdw_bench_tr -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'bench_cancel'" >/dev/null
wait "$qpid" || true
c1=$(date +%s.%N)
gone=""
for i in $(seq 0 40); do
	left=$($CH_CLIENT -q "SELECT count() FROM system.processes WHERE query LIKE '%bench%endless%' AND query NOT LIKE '%system.processes%'")
	if [[ "$left" == "0" ]]; then gone=$(echo "$(date +%s.%N) - $c1" | bc -l); break; fi
	sleep 0.05
done

ratio() { echo "$1 / $2" | bc -l; }
echo "scan: $ROWS rows, insert: $INSERT_ROWS rows (best of $REPEAT); response compression: $modes"
printf '%-56s %8s s %11.0f rows/s\n' "clickhouse-client SELECT * FORMAT Null" "$client" "$(ratio "$ROWS" "$client")"
for k in tcp tcp_none http http_none; do
	case $k in
		tcp) label="FDW full scan over TCP, default options" ;;
		tcp_none) label="FDW full scan over TCP, compression 'none'" ;;
		http) label="FDW full scan over HTTP, default options" ;;
		http_none) label="FDW full scan over HTTP, compression 'none'" ;;
	esac
	printf '%-56s %8s s %11.0f rows/s  %.2fx the client'"'"'s rows/s\n' "$label" "${!k}" \
		"$(ratio "$ROWS" "${!k}")" "$(ratio "$client" "${!k}")"
done
printf '%-56s %8s\n' "HTTP default vs HTTP compression 'none' (time ratio)" "$(printf '%.2fx' "$(ratio "$http" "$http_none")")"
printf '%-56s %8s s\n' "SELECT alone: COPY (SELECT ...) TO /dev/null" "$floor"
printf '%-56s %8s s  %.2fx the SELECT alone (ClickHouse holds: %s)\n' "FDW INSERT ... SELECT over TCP, default options" "$ins_tcp" \
	"$(ratio "$ins_tcp" "$floor")" "$(echo "$check_tcp" | tr '\t' ' ')"
printf '%-56s %8s s  %.2fx the SELECT alone\n' "FDW INSERT ... SELECT over HTTP, default options" "$ins_http" "$(ratio "$ins_http" "$floor")"
printf '%-56s %8.3f s  (the query was running in ClickHouse: %s; gone from system.processes %s)\n' \
	"cancel of a long TCP scan: pg_cancel_backend to the end" "$(echo "$c1 - $c0" | bc -l)" "$running" \
	"$([ -n "$gone" ] && printf '%.3f s after the statement ended' "$gone" || echo 'NOT within 2 s')"
