#!/usr/bin/env bash
# test/cluster_test.sh -- clickhouse_fdw against a ClickHouse 18.16 cluster
# (test/cluster.sh: 2 shards x 2 replicas on loopback, internal_replication
# false): IMPORT of a Distributed table, an INSERT through it that returns
# only once every shard holds the rows, scans and aggregates over it equal to
# a local copy, a replica killed (answers unchanged), a whole shard down (a
# clear error). Starts the cluster from nothing and stops it. Prints
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
eval "$(bash test/servers.sh env)"
pass=0; fail=0
ok() { echo "ok - $*"; pass=$((pass+1)); }
notok() { echo "not ok - $*"; fail=$((fail+1)); }
bash test/cluster.sh start || exit 1
trap 'bash test/cluster.sh stop >/dev/null' EXIT
eval "$(bash test/cluster.sh env)"
read -r -a HP <<<"$CLUSTER_HTTP_PORTS"
node() { curl -s --max-time 20 "http://127.0.0.1:${HP[$(($1 - 1))]}/" --data-binary "$2"; }
for n in 1 2 3 4; do
	node "$n" "DROP DATABASE IF EXISTS cl" >/dev/null
	node "$n" "CREATE DATABASE cl" >/dev/null
	node "$n" "CREATE TABLE cl.events_local (id UInt64, k String, v Float64) ENGINE = MergeTree ORDER BY id" >/dev/null
	node "$n" "CREATE TABLE cl.events AS cl.events_local ENGINE = Distributed($CLUSTER_NAME, cl, events_local, id % 2)" >/dev/null
done

q() { psql -X -At -d chfdw_cluster -v ON_ERROR_STOP=1 "$@" 2>&1; }
dropdb --if-exists chfdw_cluster 2>/dev/null; createdb chfdw_cluster
q -q -v p1="${HP[0]}" <<'SQL' >/dev/null || { echo "setup failed"; exit 1; }
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER cl FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '127.0.0.1', port :'p1', dbname 'cl');
CREATE USER MAPPING FOR CURRENT_USER SERVER cl;
CREATE SCHEMA imported;
IMPORT FOREIGN SCHEMA cl FROM SERVER cl INTO imported;
CREATE TABLE local_events AS
  SELECT g::numeric AS id, 'k' || (g % 7) AS k, g / 3.0::float8 AS v FROM generate_series(1, 200000) g;
SQL
tables=$(q -c "SELECT string_agg(foreign_table_name, ',' ORDER BY foreign_table_name) FROM information_schema.foreign_tables WHERE foreign_table_schema = 'imported'")
[[ "$tables" == "events,events_local" ]] && ok "IMPORT FOREIGN SCHEMA imports the Distributed table and the shard-local one" \
	|| notok "imported: $tables"
node 1 "CREATE TABLE cl.other AS cl.events_local" >/dev/null
node 1 "CREATE TABLE cl.quoted AS cl.events_local ENGINE = Distributed('$CLUSTER_NAME', 'cl', 'other')" >/dev/null
tables=$(q -c "CREATE SCHEMA dist_only" -c "IMPORT FOREIGN SCHEMA cl FROM SERVER cl INTO dist_only OPTIONS (import_shard_tables 'false')" \
	-c "SELECT string_agg(foreign_table_name, ',' ORDER BY foreign_table_name) FROM information_schema.foreign_tables WHERE foreign_table_schema = 'dist_only'" | tail -1)
[[ "$tables" == "events,quoted" ]] && ok "import_shard_tables 'false' skips the tables Distributed tables read ($tables)" \
	|| notok "import_shard_tables 'false' imported: $tables"
node 1 "DROP TABLE cl.quoted" >/dev/null; node 1 "DROP TABLE cl.other" >/dev/null

# an INSERT through the Distributed table: when it returns, every shard (and,
# with internal_replication false, every replica) holds its rows
out=$(q -c "INSERT INTO imported.events SELECT * FROM local_events")
counts=$(for n in 1 2 3 4; do node "$n" "SELECT count() FROM cl.events_local"; done | tr '\n' ' ')
read -r c1 c2 c3 c4 <<<"$counts"
if [[ "$out" == "INSERT 0 200000" && "$c1" == "$c2" && "$c3" == "$c4" && $((c1 + c3)) -eq 200000 && "$c1" -gt 0 ]]; then
	ok "INSERT into the Distributed table returns once every shard has the rows (node counts $counts)"
else
	notok "INSERT through the Distributed table: $out; node counts right after: $counts"
fi

same() {	# same NAME QUERY-ON-FOREIGN QUERY-ON-LOCAL
	local a b
	a=$(q -c "$2"); b=$(q -c "$3")
	if [[ "$a" == "$b" && -n "$a" ]]; then ok "$1 (${a:0:60})"; else notok "$1: foreign '$a' local '$b'"; fi
}
same "count and sums through the Distributed table" \
	"SELECT count(*), sum(id), round(sum(v)::numeric, 3) FROM imported.events" \
	"SELECT count(*), sum(id), round(sum(v)::numeric, 3) FROM local_events"
same "GROUP BY pushed to the Distributed table (ClickHouse merges the shards)" \
	"SELECT k, count(*), min(id), max(id) FROM imported.events GROUP BY k ORDER BY k" \
	"SELECT k, count(*), min(id), max(id) FROM local_events GROUP BY k ORDER BY k"
same "ORDER BY ... LIMIT over shards" \
	"SELECT id FROM imported.events WHERE k = 'k3' ORDER BY id DESC LIMIT 5" \
	"SELECT id FROM local_events WHERE k = 'k3' ORDER BY id DESC LIMIT 5"
plan=$(q -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT k, count(*) FROM imported.events GROUP BY k")
[[ "$plan" == *"Remote SQL: SELECT"*"GROUP BY"* ]] && ok "the aggregate is sent as one remote query" || notok "plan: $plan"

# a replica down: ClickHouse reads its shard from the other replica
bash test/cluster.sh kill 2
same "a replica of shard 1 down: the answers do not change" \
	"SELECT count(*), sum(id) FROM imported.events" "SELECT count(*), sum(id) FROM local_events"
# a whole shard down: a clear error, never a partial answer
bash test/cluster.sh kill 4
bash test/cluster.sh kill 3
out=$(q -c "SELECT count(*) FROM imported.events")
if [[ "$out" == ERROR:* && "$out" == *"All connection tries failed"* ]]; then
	ok "a whole shard down: an error, not a partial count ($(echo "$out" | head -1 | cut -c1-110))"
else
	notok "a whole shard down gave: $out"
fi
out=$(q -c "INSERT INTO imported.events VALUES (1000001, 'new', 0)")
[[ "$out" == ERROR* ]] && ok "INSERT while a shard is down is an error ($(echo "$out" | head -1 | cut -c1-100))" \
	|| notok "INSERT with shard 2 down: $out"
dropdb chfdw_cluster
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
