#!/usr/bin/env bash
# test/demo.sh — the README's demo: from a fresh Debian 12 machine (as root) to
# rows that came from ClickHouse through PostgreSQL.
#
# Installs the packages (test/setup.sh), builds and installs the extension,
# starts the throwaway servers (test/servers.sh; they keep running afterwards:
# `bash test/servers.sh stop` ends them), creates a sample ClickHouse table,
# the foreign server, user mapping and foreign table, and runs queries in psql.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"

bash test/setup.sh
make -s PG_CONFIG="$PG_CONFIG" >/dev/null
make -s install PG_CONFIG="$PG_CONFIG" >/dev/null
bash test/servers.sh start
eval "$(bash test/servers.sh env)"

echo "== ClickHouse: a sample table demo.events with 100,000 rows"
$CH_CLIENT --multiquery <<'SQL'
CREATE DATABASE IF NOT EXISTS demo;
DROP TABLE IF EXISTS demo.events;
CREATE TABLE demo.events (id UInt64, ts DateTime, user_id UInt32, kind String, amount Float64, ref Nullable(String)) ENGINE = MergeTree ORDER BY id;
INSERT INTO demo.events SELECT number, toDateTime(1700000000 + number * 60), number % 1000, ['click', 'view', 'buy'][number % 3 + 1], round(number / 7, 2), if(number % 5 = 0, NULL, concat('r', toString(number))) FROM system.numbers LIMIT 100000;
SQL

echo "== PostgreSQL: foreign server, user mapping, foreign table, queries"
dropdb --if-exists chfdw_demo 2>/dev/null
createdb chfdw_demo
psql -X -v ON_ERROR_STOP=1 -d chfdw_demo -v ch_port="$CH_HTTP_PORT" <<'SQL'
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER clickhouse FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host '127.0.0.1', port :'ch_port', dbname 'demo');
CREATE USER MAPPING FOR CURRENT_USER SERVER clickhouse OPTIONS (user 'default');
CREATE FOREIGN TABLE events (
  id numeric, ts timestamptz, user_id bigint, kind text, amount double precision, ref text
) SERVER clickhouse;
SET timezone = 'UTC';
\echo 'first rows:'
SELECT * FROM events ORDER BY id LIMIT 5;
\echo 'a report joining the remote rows with a local table:'
CREATE TEMP TABLE kinds (kind text PRIMARY KEY, label text);
INSERT INTO kinds VALUES ('click', 'Clicks'), ('view', 'Page views'), ('buy', 'Purchases');
SELECT k.label, count(*) AS events, round(sum(e.amount)::numeric, 2) AS amount,
       count(e.ref) AS with_ref
  FROM events e JOIN kinds k USING (kind)
 GROUP BY k.label ORDER BY k.label;
EXPLAIN (VERBOSE, COSTS OFF) SELECT kind, amount FROM events WHERE user_id = 7;
SQL
echo "== done (servers are still running: bash test/servers.sh stop)"
