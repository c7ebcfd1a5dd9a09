#!/usr/bin/env bash
# test/fault/progress.sh -- a long load's progress seen from a second session
# (README, "Loading data (CDC)"): COPY FROM into a foreign table in
# pg_stat_progress_copy (PostgreSQL's own report), and INSERT ... SELECT as
# "COPY FROM" of type "CALLBACK" with the rows ClickHouse committed so far.
# ClickHouse 18.16. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
eval "$(bash test/servers.sh env)"
pass=0; fail=0
ok() { echo "ok - $*"; pass=$((pass+1)); }
notok() { echo "not ok - $*"; fail=$((fail+1)); }
dropdb --if-exists chfdw_progress 2>/dev/null; createdb chfdw_progress
psql -X -q -d chfdw_progress -v ON_ERROR_STOP=1 -v cport="$CH_HTTP_PORT" >/dev/null <<'SQL' || exit 1
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER ch FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'cport', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch;
SELECT clickhouse_exec('ch', 'DROP TABLE IF EXISTS regress.progress');
SELECT clickhouse_exec('ch', 'CREATE TABLE regress.progress (id UInt64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE progress (id bigint) SERVER ch OPTIONS (batch_size '100000');
SQL

watch() {	# watch LOAD-SQL TOTAL: run it, sample pg_stat_progress_copy meanwhile
	local sql="$1" total="$2" pid seen="" row
	psql -X -q -d chfdw_progress -c "$sql" >/tmp/chfdw_progress.$$ 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		row=$(psql -X -At -d chfdw_progress -c "SELECT command, type, tuples_processed, bytes_processed FROM pg_stat_progress_copy WHERE relid = 'progress'::regclass AND pid <> pg_backend_pid()")
		if [[ -n "$row" ]]; then
			IFS='|' read -r cmd typ tup byt <<<"$row"
			if (( tup > 0 && tup < total )); then seen="$row"; fi
		fi
		sleep 0.05
	done
	wait "$pid"
	echo "$seen"
}

seen=$(watch "COPY progress FROM PROGRAM 'seq 1 3000000'" 3000000)
if [[ "$seen" == "COPY FROM|PROGRAM|"* ]]; then
	ok "COPY FROM a program into a foreign table, seen from another session: $seen"
else
	notok "COPY FROM: progress not seen while it ran (last sample: '$seen')"
fi
seen=$(watch "INSERT INTO progress SELECT g FROM generate_series(1, 5000000) g" 5000000)
if [[ "$seen" == "COPY FROM|CALLBACK|"* ]]; then
	ok "INSERT ... SELECT, seen from another session (rows and bytes committed): $seen"
else
	notok "INSERT ... SELECT: progress not seen while it ran (last sample: '$seen'); $(cat /tmp/chfdw_progress.$$)"
fi
n=$(psql -X -At -d chfdw_progress -c "SELECT count(*) FROM progress")
[[ "$n" == "8000000" ]] && ok "both loads complete ($n rows)" || notok "rows after both loads: $n"
rm -f /tmp/chfdw_progress.$$
psql -X -q -d chfdw_progress -c "SELECT clickhouse_exec('ch', 'DROP TABLE regress.progress')" >/dev/null
dropdb chfdw_progress
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
