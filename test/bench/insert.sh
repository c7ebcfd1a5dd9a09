#!/usr/bin/env bash
# test/bench/insert.sh — INSERT benchmark (prints numbers; not a test).
#
# 1M rows (ROWS) of the `events` schema generated in PostgreSQL, loaded into
# ClickHouse: through the FDW (native/rowbinary x none/lz4/zstd), against the
# cost of the SELECT alone (COPY (SELECT ...) TO '/dev/null'), against
# clickhouse-client inserting the same rows from a Native file, and against
# psql COPY ... TO STDOUT | clickhouse-client INSERT ... FORMAT TSV.
# Before each timed run the tables are emptied and ClickHouse's merges have
# ended (test/bench/lib.sh, settle_merges); the CPU times of PostgreSQL's
# backend and of ClickHouse are printed next to the wall times of the
# default-options rows. Needs the servers of test/servers.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROWS="${ROWS:-1000000}"
REPEAT="${REPEAT:-3}"
eval "$(bash test/servers.sh env)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

$CH_CLIENT --multiquery <<'SQL'
SET allow_experimental_low_cardinality_type = 1;
CREATE DATABASE IF NOT EXISTS bench;
DROP TABLE IF EXISTS bench.ins;
DROP TABLE IF EXISTS bench.ins_calc;
CREATE TABLE bench.ins_calc (id UInt64, ts DateTime, amount Float64, note String) ENGINE = MergeTree ORDER BY id;
CREATE TABLE bench.ins (id UInt64, ts DateTime, user_id UInt32, kind LowCardinality(String), amount Float64, note String, ref Nullable(String), tags Array(UInt16)) ENGINE = MergeTree ORDER BY id;
SQL
dropdb --if-exists chfdw_bench_ins 2>/dev/null; createdb chfdw_bench_ins
psql -X -q -d chfdw_bench_ins -v ch_port="$CH_HTTP_PORT" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER ch FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'bench');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch;
CREATE FOREIGN TABLE ins (id bigint, ts timestamptz, user_id bigint, kind text, amount float8,
  note text, ref text, tags int[]) SERVER ch;
CREATE VIEW src AS
  SELECT g::bigint AS id, to_timestamp(1600000000 + g) AS ts, (g % 100000)::bigint AS user_id,
         'kind' || (g % 50) AS kind, g / 7.0::float8 AS amount,
         substr('abcdefghijklmnopqrstuvwxyz', 1, (g % 27)::int) AS note,
         CASE WHEN g % 3 = 0 THEN NULL ELSE g::text END AS ref,
         ARRAY[(g % 5)::int, (g % 7)::int] AS tags
    FROM generate_series(1, current_setting('bench.rows')::bigint) g;
-- a SELECT that computes a timestamptz, a numeric and a text per row
CREATE FOREIGN TABLE ins_calc (id bigint, ts timestamptz, amount numeric, note text) SERVER ch;
CREATE VIEW src_calc AS
  SELECT g::bigint AS id, to_timestamp(1600000000 + g) + interval '1 hour' AS ts,
         g / 7.0 AS amount, 'note ' || g AS note
    FROM generate_series(1, current_setting('bench.rows')::bigint) g;
SQL

. test/bench/lib.sh
# before each timed run: empty tables, and no merge of the last run still going
before_run() { $CH_CLIENT -q "TRUNCATE TABLE bench.ins"; $CH_CLIENT -q "TRUNCATE TABLE bench.ins_calc"; settle_merges; }
BEST_BEFORE=before_run
pg() { PGOPTIONS="-c bench.rows=$ROWS" psql -X -q -d chfdw_bench_ins "$@"; }

floor=$(best pg -c "COPY (SELECT * FROM src) TO '/dev/null'"); floor_cpu=$(last_cpu); floor_pg=$(last_pg_cpu)
# default options (no compression, insert_format or transport option: HTTP,
# Native blocks, the default request compression)
fdw_default=$(best pg -c "INSERT INTO ins SELECT * FROM src"); default_cpu=$(last_cpu); default_pg=$(last_pg_cpu)
# the computing SELECT, default options
floor_calc=$(best pg -c "COPY (SELECT * FROM src_calc) TO '/dev/null'"); floor_calc_cpu=$(last_cpu); floor_calc_pg=$(last_pg_cpu)
fdw_calc=$(best pg -c "INSERT INTO ins_calc SELECT * FROM src_calc"); calc_cpu=$(last_cpu); calc_pg=$(last_pg_cpu)
declare -A fdw
for fmt in native rowbinary; do
	for comp in none lz4 zstd; do
		pg -c "ALTER SERVER ch OPTIONS (SET compression '$comp')" 2>/dev/null ||
			pg -c "ALTER SERVER ch OPTIONS (ADD compression '$comp')"
		pg -c "ALTER FOREIGN TABLE ins OPTIONS (SET insert_format '$fmt')" 2>/dev/null ||
			pg -c "ALTER FOREIGN TABLE ins OPTIONS (ADD insert_format '$fmt')"
		fdw[$fmt-$comp]=$(best pg -c "INSERT INTO ins SELECT * FROM src")
	done
done
check=$($CH_CLIENT -q "SELECT count(), sum(id), sum(length(note)), countIf(ref IS NULL), sum(arraySum(tags)) FROM bench.ins")
$CH_CLIENT -q "SELECT * FROM bench.ins FORMAT Native" >"$tmp/ins.native"
client=$(best sh -c "$CH_CLIENT -q 'INSERT INTO bench.ins FORMAT Native' < $tmp/ins.native")
pipe=$(best sh -c "PGOPTIONS='-c bench.rows=$ROWS' psql -X -q -d chfdw_bench_ins -c \"COPY (SELECT id, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), user_id, kind, amount, note, ref, '[' || array_to_string(tags, ',') || ']' FROM src) TO STDOUT\" | $CH_CLIENT -q 'INSERT INTO bench.ins FORMAT TSV'")

echo "rows: $ROWS (best of $REPEAT); last FDW load in ClickHouse: count, sum(id), sum(len(note)), NULL refs, sum(tags) = $check"
printf '%-52s %8s s  (CPU: %s)\n' "SELECT alone: COPY (SELECT ...) TO /dev/null" "$floor" "$floor_cpu"
printf '%-52s %8s s  (%.2fx the SELECT alone; CPU: %s, %.2fx the SELECT'"'"'s backend CPU)\n' "FDW INSERT ... SELECT (default options)" "$fdw_default" \
	"$(echo "$fdw_default / $floor" | bc -l)" "$default_cpu" "$(echo "$default_pg / $floor_pg" | bc -l)"
for k in native-none native-lz4 native-zstd rowbinary-none rowbinary-lz4 rowbinary-zstd; do
	printf '%-52s %8s s  (%.2fx the SELECT alone, %.2fx the pipe'"'"'s rows/s)\n' "FDW INSERT ... SELECT ($k)" "${fdw[$k]}" \
		"$(echo "${fdw[$k]} / $floor" | bc -l)" "$(echo "$pipe / ${fdw[$k]}" | bc -l)"
done
printf '%-52s %8s s  (CPU: %s)\n' "computing SELECT alone: COPY (SELECT ...) TO /dev/null" "$floor_calc" "$floor_calc_cpu"
printf '%-52s %8s s  (%.2fx the computing SELECT alone; CPU: %s, %.2fx the SELECT'"'"'s backend CPU)\n' "FDW INSERT ... computing SELECT (default options)" "$fdw_calc" \
	"$(echo "$fdw_calc / $floor_calc" | bc -l)" "$calc_cpu" "$(echo "$calc_pg / $floor_calc_pg" | bc -l)"
printf '%-52s %8s s\n' "clickhouse-client INSERT FORMAT Native < file" "$client"
printf '%-52s %8s s\n' "psql COPY TO STDOUT | clickhouse-client FORMAT TSV" "$pipe"
