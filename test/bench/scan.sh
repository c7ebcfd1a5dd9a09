#!/usr/bin/env bash
# test/bench/scan.sh — scan benchmark (prints numbers; not a test).
#
# Reads the same N rows (default 5,000,000) of an events-like table
#   a) with clickhouse-client (FORMAT Native to /dev/null, and TSV),
#   b) through the FDW (COPY (SELECT * FROM foreign table) TO '/dev/null'),
#   c) through the FDW with aggregates computed by ClickHouse (GROUP BY,
#      top-N over groups, avg of an integer) next to the same query in
#      clickhouse-client,
# and prints the times, the FDW/client ratio and the backend's peak RSS
# (VmHWM) before and after the scan. Needs the servers of test/servers.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROWS="${ROWS:-5000000}"
REPEAT="${REPEAT:-3}"
PAR_WORKERS="${PAR_WORKERS:-2}"	# the parallel_workers of the parallel read
eval "$(bash test/servers.sh env)"

$CH_CLIENT --multiquery <<SQL
CREATE DATABASE IF NOT EXISTS bench;
DROP TABLE IF EXISTS bench.events;
CREATE TABLE bench.events (id UInt64, ts DateTime, user_id UInt32, kind String, amount Float64, note String, ref Nullable(String)) ENGINE = MergeTree ORDER BY id;
INSERT INTO bench.events SELECT number, toDateTime(1600000000 + number), number % 100000, concat('kind', toString(number % 50)), number / 7, substring('abcdefghijklmnopqrstuvwxyz', 1, number % 27), if(number % 3 = 0, NULL, toString(number)) FROM system.numbers LIMIT $ROWS;
SQL

dropdb --if-exists chfdw_bench 2>/dev/null; createdb chfdw_bench
psql -X -q -d chfdw_bench -v ch_port="$CH_HTTP_PORT" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER ch FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'bench', compression 'none');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch;
CREATE FOREIGN TABLE events (id numeric, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER ch;
CREATE FOREIGN TABLE events_i8 (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER ch OPTIONS (table 'events');
SQL

. test/bench/lib.sh
# the INSERT above leaves parts that ClickHouse merges in the background:
# timed reads start after the merges (they took ~0.4 s of a 1.6 s read)
settle_merges
# the foreign tables ANALYZEd as the heap copy below is (VACUUM ANALYZE): the planner then
# knows their size, as it knows the heap's, and weighs the rows PostgreSQL handles
# (JIT-compiled conditions above jit_above_cost, as for the heap scan)
psql -X -q -d chfdw_bench -c "ANALYZE events" -c "ANALYZE events_i8"

ch_native=$(best $CH_CLIENT -q "SELECT * FROM bench.events FORMAT Native")
ch_tsv=$(best $CH_CLIENT -q "SELECT * FROM bench.events FORMAT TSV")
fdw_copy=$(best psql -X -q -d chfdw_bench -c "COPY (SELECT * FROM events) TO '/dev/null'")
fdw_copy_i8=$(best psql -X -q -d chfdw_bench -c "COPY (SELECT * FROM events_i8) TO '/dev/null'")
psql -X -q -d chfdw_bench -c "DROP TABLE IF EXISTS local_events" -c "CREATE TABLE local_events AS SELECT * FROM events_i8" -c "VACUUM ANALYZE local_events"
local_copy=$(best psql -X -q -d chfdw_bench -c "COPY (SELECT * FROM local_events) TO '/dev/null'")
# conditions PostgreSQL must evaluate (not sent to ClickHouse), so every column is read
# (pg_column_size() is never sent, see README "What is sent", and costs PostgreSQL little:
# the FDW's conversion of every value is what is measured)
allcols="WHERE pg_column_size(id) > 0 AND pg_column_size(ts) > 0 AND pg_column_size(user_id) > 0 AND pg_column_size(kind) > 0 AND pg_column_size(amount) > 0 AND pg_column_size(note) > 0 AND (ref IS NULL OR pg_column_size(ref) > 0)"
fdw_read=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_i8 $allcols"); fdw_read_cpu=$(last_cpu)
# the same table never ANALYZEd: the planner assumes 1000 rows (no JIT)
psql -X -q -d chfdw_bench -c "DROP FOREIGN TABLE IF EXISTS events_noan" -c "CREATE FOREIGN TABLE events_noan (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER ch OPTIONS (table 'events')"
fdw_read_noan=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_noan $allcols"); fdw_read_noan_cpu=$(last_cpu)
local_read=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM local_events $allcols"); local_read_cpu=$(last_cpu)
# the same read split into ranges read by two workers and the leader (option
# parallel_workers, off by default; the planner needs the row count: use_remote_estimate),
# and the heap's read without workers
psql -X -q -d chfdw_bench -c "ALTER FOREIGN TABLE events_i8 OPTIONS (ADD parallel_workers '$PAR_WORKERS', ADD use_remote_estimate 'on')"
fdw_read_par=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_i8 $allcols"); fdw_read_par_cpu=$(last_cpu)
psql -X -q -d chfdw_bench -c "ALTER FOREIGN TABLE events_i8 OPTIONS (DROP parallel_workers, DROP use_remote_estimate)"
local_read_serial=$(best psql -X -q -d chfdw_bench -c "SET max_parallel_workers_per_gather = 0" -c "SELECT count(*) FROM local_events $allcols"); local_read_serial_cpu=$(last_cpu)
fdw_agg=$(best psql -X -q -d chfdw_bench -c "SELECT kind, count(*), sum(amount) FROM events GROUP BY kind")
ch_agg=$(best $CH_CLIENT -q "SELECT kind, count(), sum(amount) FROM bench.events GROUP BY kind")
# top-N over groups (ORDER BY an aggregate + LIMIT sent) and avg of an integer
# (exact sum and count from ClickHouse, divided by PostgreSQL)
fdw_topn=$(best psql -X -q -d chfdw_bench -c "SELECT user_id, sum(amount) FROM events GROUP BY user_id ORDER BY sum(amount) DESC LIMIT 10")
ch_topn=$(best $CH_CLIENT -q "SELECT user_id, sum(amount) FROM bench.events GROUP BY user_id ORDER BY sum(amount) DESC LIMIT 10")
fdw_avg=$(best psql -X -q -d chfdw_bench -c "SELECT kind, avg(user_id) FROM events GROUP BY kind")
ch_avg=$(best $CH_CLIENT -q "SELECT kind, avg(user_id) FROM bench.events GROUP BY kind")

# peak RSS of one backend around a full scan
rss=$(psql -X -At -d chfdw_bench <<'SQL'
SELECT pg_backend_pid() AS pid \gset
\setenv PID :pid
\! echo "before $(awk '/VmHWM/ {print $2}' /proc/$PID/status)"
COPY (SELECT * FROM events) TO '/dev/null';
\! echo "after $(awk '/VmHWM/ {print $2}' /proc/$PID/status)"
SQL
)
before=$(echo "$rss" | awk '/^before/ {print $2}')
after=$(echo "$rss" | awk '/^after/ {print $2}')

# the same read with the default compression ('auto': none to this loopback server; lz4 to a
# remote one, frames where the server has them, on 18.16 responses come uncompressed) and with
# HTTP gzip asked for
psql -X -q -d chfdw_bench -c "ALTER SERVER ch OPTIONS (DROP compression)"
fdw_read_lz4=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_i8 $allcols")
# every row and column into tuples, nothing else (EXPLAIN ANALYZE discards them)
fdw_explain=$(best psql -X -q -d chfdw_bench -c "EXPLAIN (ANALYZE, TIMING OFF) SELECT * FROM events")
mode=$(psql -X -At -d chfdw_bench -c "SELECT count(*) FROM events_i8 WHERE id < 0" -c "SELECT response_compression FROM clickhouse_fdw_connections()" | tail -1)
rss_lz4=$(psql -X -At -d chfdw_bench <<'SQL'
SELECT pg_backend_pid() AS pid \gset
\setenv PID :pid
SELECT count(*) FROM events_i8 WHERE id >= 0 AND note IS NOT NULL AND ref IS NULL OR ref IS NOT NULL;
\! awk '/VmHWM/ {print $2}' /proc/$PID/status
SQL
)
psql -X -q -d chfdw_bench -c "ALTER SERVER ch OPTIONS (ADD compression 'gzip')"
fdw_read_gzip=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_i8 $allcols")
psql -X -q -d chfdw_bench -c "ALTER SERVER ch OPTIONS (SET compression 'none')"

# the same reads over transport 'native' with its defaults (auto: none to this loopback
# server), and with LZ4 frames (compression 'lz4', on every version)
psql -X -q -d chfdw_bench -v tcp_port="$CH_TCP_PORT" <<'SQL'
CREATE SERVER chn FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport 'native', port :'tcp_port', dbname 'bench');
CREATE USER MAPPING FOR CURRENT_USER SERVER chn;
CREATE FOREIGN TABLE events_n (id bigint, ts timestamptz, user_id bigint, kind text, amount float8, note text, ref text) SERVER chn OPTIONS (table 'events');
CREATE FOREIGN TABLE ch_one_n (dummy smallint) SERVER chn OPTIONS (database 'system', table 'one');
ANALYZE events_n;
SQL
psql -X -q -d chfdw_bench -c "ALTER SERVER ch OPTIONS (DROP compression)"
fdw_read_http_default=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_i8 $allcols")
psql -X -q -d chfdw_bench -c "ALTER SERVER ch OPTIONS (ADD compression 'none')"
fdw_read_native=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_n $allcols"); fdw_read_native_cpu=$(last_cpu)
psql -X -q -d chfdw_bench -c "ALTER SERVER chn OPTIONS (ADD compression 'lz4')"
fdw_read_native_lz4=$(best psql -X -q -d chfdw_bench -c "SELECT count(*) FROM events_n $allcols"); fdw_read_native_lz4_cpu=$(last_cpu)
psql -X -q -d chfdw_bench -c "ALTER SERVER chn OPTIONS (DROP compression)"
fdw_explain_native=$(best psql -X -q -d chfdw_bench -c "EXPLAIN (ANALYZE, TIMING OFF) SELECT * FROM events_n")
fdw_trivial_native=$(best psql -X -q -d chfdw_bench -c "DO \$\$ DECLARE x int; BEGIN FOR i IN 1..500 LOOP SELECT dummy INTO x FROM ch_one_n; END LOOP; END \$\$")

# fixed cost of a query: a trivial remote query (one row of system.one) 500 times
# on a warm connection, against the same loop over a local one-row table
psql -X -q -d chfdw_bench -c "CREATE FOREIGN TABLE IF NOT EXISTS ch_one (dummy smallint) SERVER ch OPTIONS (database 'system', table 'one')" \
	-c "DROP TABLE IF EXISTS local_one" -c "CREATE TABLE local_one AS SELECT 0::smallint AS dummy"
fdw_trivial=$(best psql -X -q -d chfdw_bench -c "DO \$\$ DECLARE x int; BEGIN FOR i IN 1..500 LOOP SELECT dummy INTO x FROM ch_one; END LOOP; END \$\$")
local_trivial=$(best psql -X -q -d chfdw_bench -c "DO \$\$ DECLARE x int; BEGIN FOR i IN 1..500 LOOP SELECT dummy INTO x FROM local_one; END LOOP; END \$\$")
ch_trivial=$(best $CH_CLIENT -q "SELECT dummy FROM system.one")

echo "rows: $ROWS (best of $REPEAT)"
printf '%-58s %8s s\n' "clickhouse-client SELECT * FORMAT Native > /dev/null" "$ch_native"
printf '%-58s %8s s\n' "clickhouse-client SELECT * FORMAT TSV > /dev/null" "$ch_tsv"
printf '%-58s %8s s  (%.2fx Native client, %.2fx TSV client)\n' "FDW COPY (SELECT * FROM ft) TO /dev/null (id numeric)" "$fdw_copy" \
	"$(echo "$fdw_copy / $ch_native" | bc -l)" "$(echo "$fdw_copy / $ch_tsv" | bc -l)"
printf '%-58s %8s s  (%.2fx Native client, %.2fx TSV client)\n' "FDW COPY (SELECT * FROM ft) TO /dev/null (id bigint)" "$fdw_copy_i8" \
	"$(echo "$fdw_copy_i8 / $ch_native" | bc -l)" "$(echo "$fdw_copy_i8 / $ch_tsv" | bc -l)"
printf '%-58s %8s s  (the floor PostgreSQL itself sets for COPY)\n' "local heap table, same rows, COPY TO /dev/null" "$local_copy"
printf '%-58s %8s s  (%.2fx Native client, %.2fx the heap; CPU: %s)\n' "FDW read all columns, no output (count with filters)" "$fdw_read" \
	"$(echo "$fdw_read / $ch_native" | bc -l)" "$(echo "$fdw_read / $local_read" | bc -l)" "$fdw_read_cpu"
printf '%-58s %8s s  (CPU: %s)\n' "local heap table, the same count with filters" "$local_read" "$local_read_cpu"
printf '%-58s %8s s  (%.2fx the heap; CPU: %s)\n' "FDW the same, the foreign table not ANALYZEd" "$fdw_read_noan" \
	"$(echo "$fdw_read_noan / $local_read" | bc -l)" "$fdw_read_noan_cpu"
printf '%-58s %8s s  (%.2fx the heap, %.2fx the heap without workers; CPU: %s)\n' "FDW the same, parallel_workers $PAR_WORKERS (workers + leader)" "$fdw_read_par" \
	"$(echo "$fdw_read_par / $local_read" | bc -l)" "$(echo "$fdw_read_par / $local_read_serial" | bc -l)" "$fdw_read_par_cpu"
printf '%-58s %8s s  (serial FDW: %.2fx it; CPU: %s)\n' "local heap table, the same count, no parallel workers" "$local_read_serial" \
	"$(echo "$fdw_read / $local_read_serial" | bc -l)" "$local_read_serial_cpu"
printf '%-58s %8s s  (clickhouse-client, same query: %s s)\n' "FDW GROUP BY kind (computed by ClickHouse)" "$fdw_agg" "$ch_agg"
printf '%-58s %8s s  (clickhouse-client, same query: %s s)\n' "FDW top 10 of 100,000 groups (ORDER BY sum LIMIT 10)" "$fdw_topn" "$ch_topn"
printf '%-58s %8s s  (clickhouse-client, same query: %s s)\n' "FDW avg(integer) GROUP BY kind (exact, numeric)" "$fdw_avg" "$ch_avg"
printf '%-58s %8s s  (%.2fx the uncompressed read; response mode: %s)\n' "FDW read all columns, default compression (auto)" "$fdw_read_lz4" "$(echo "$fdw_read_lz4 / $fdw_read" | bc -l)" "$mode"
printf '%-58s %8s s  (%.2fx clickhouse-client Native rows/s)\n' "FDW EXPLAIN (ANALYZE, TIMING OFF) SELECT *, default compr." "$fdw_explain" "$(echo "$ch_native / $fdw_explain" | bc -l)"
printf '%-58s %8s s  (%.2fx the uncompressed read)\n' "FDW read all columns, compression gzip (HTTP gzip)" "$fdw_read_gzip" "$(echo "$fdw_read_gzip / $fdw_read" | bc -l)"
printf '%-58s %8.3f ms (local table: %.3f ms; one clickhouse-client process: %s s)\n' "FDW trivial query on a warm connection, per query" \
	"$(echo "($fdw_trivial - $local_trivial) * 1000 / 500" | bc -l)" "$(echo "$local_trivial * 1000 / 500" | bc -l)" "$ch_trivial"
printf '%-58s %8s s  (%.2fx HTTP with its default compression: %s s; %.2fx the heap; CPU: %s)\n' "FDW read all columns, transport native (defaults)" "$fdw_read_native" "$(echo "$fdw_read_native / $fdw_read_http_default" | bc -l)" "$fdw_read_http_default" "$(echo "$fdw_read_native / $local_read" | bc -l)" "$fdw_read_native_cpu"
printf '%-58s %8s s  (%.2fx the native default; CPU: %s)\n' "FDW read all columns, transport native, compression lz4" "$fdw_read_native_lz4" "$(echo "$fdw_read_native_lz4 / $fdw_read_native" | bc -l)" "$fdw_read_native_lz4_cpu"
printf '%-58s %8s s  (%.2fx clickhouse-client Native rows/s)\n' "FDW EXPLAIN (ANALYZE, TIMING OFF) SELECT *, native" "$fdw_explain_native" "$(echo "$ch_native / $fdw_explain_native" | bc -l)"
printf '%-58s %8.3f ms\n' "FDW trivial query on a warm native connection, per query" \
	"$(echo "($fdw_trivial_native - $local_trivial) * 1000 / 500" | bc -l)"
echo "backend VmHWM: ${before} kB before the scan, ${after} kB after (compression none); $(echo "$rss_lz4" | tail -1) kB after a compressed scan"
