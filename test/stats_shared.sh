#!/usr/bin/env bash
# test/stats_shared.sh -- clickhouse_fdw_stats across backends: a throwaway
# PostgreSQL cluster with shared_preload_libraries = 'clickhouse_fdw' (the
# counters then live in shared memory), two backends that work, a third that
# reads the view and resets it. Needs the ClickHouse 18.16 server of
# test/servers.sh. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$(pwd -P)
eval "$(bash test/servers.sh env)"
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
BIN=$("$PG_CONFIG" --bindir)
DIR="$REPO/.state/pg-stats"
PORT=$((PGPORT + 7))
pass=0; fail=0
ok() { echo "ok - $*"; pass=$((pass+1)); }
notok() { echo "not ok - $*"; fail=$((fail+1)); }
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
stop() { as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1; }
trap stop EXIT
stop; rm -rf "$DIR"; mkdir -p "$DIR"; [[ $(id -u) -eq 0 ]] && chown postgres:postgres "$DIR"
as_pg "$BIN/initdb" -D "$DIR/data" -A trust -U postgres --no-sync >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log"; exit 1; }
cat <<CONF | as_pg tee -a "$DIR/data/postgresql.conf" >/dev/null
port = $PORT
listen_addresses = ''
unix_socket_directories = '$DIR'
shared_preload_libraries = 'clickhouse_fdw'
fsync = off
CONF
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w start >/dev/null || { cat "$DIR/log"; exit 1; }
q() { psql -X -At -h "$DIR" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@" 2>&1; }
q -q -v cport="$CH_HTTP_PORT" >/dev/null <<'SQL' || { echo "setup failed"; exit 1; }
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER st FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '127.0.0.1', port :'cport', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER st;
CREATE FOREIGN TABLE st_million (n bigint, s text) SERVER st OPTIONS (table 'million');
SELECT clickhouse_exec('st', 'DROP TABLE IF EXISTS regress.st_shared');
SELECT clickhouse_exec('st', 'CREATE TABLE regress.st_shared (id UInt32) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE st_shared (id int) SERVER st OPTIONS (table 'st_shared', batch_size '1000');
SELECT clickhouse_fdw_stats_reset();
SQL
q -c "SELECT count(*) FROM st_million WHERE n < 5000 AND (n::numeric + 0) >= 0" >/dev/null &
q -c "INSERT INTO st_shared SELECT g FROM generate_series(1, 4000) g" >/dev/null &
wait
row=$(q -c "SELECT scope, rows_sent, inserts, rows_received >= 5000 FROM clickhouse_fdw_stats WHERE server = 'st'")
[[ "$row" == "all backends|4000|4|t" ]] && ok "another backend sees both backends' work: $row" \
	|| notok "the shared view after two backends worked: '$row'"
q -c "SELECT clickhouse_fdw_stats_reset()" >/dev/null
row=$(q -c "SELECT rows_sent + inserts + rows_received + queries FROM clickhouse_fdw_stats WHERE server = 'st'")
[[ "$row" == "0" ]] && ok "a reset is seen by every backend" || notok "after a reset: '$row'"
q -c "SELECT clickhouse_exec('st', 'DROP TABLE regress.st_shared')" >/dev/null
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
