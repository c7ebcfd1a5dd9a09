#!/usr/bin/env bash
# test/cluster_test.sh -- clickhouse_fdw against a ClickHouse 18.16 cluster
# (test/cluster.sh: 2 shards x 2 replicas on loopback, internal_replication
# false): IMPORT of a Distributed table, an INSERT through it that returns
# only once every shard holds the rows, scans and aggregates over it equal to
# a local copy, a replica killed (answers unchanged), a whole shard down (a
# clear error). Host lists (README "Clusters"), over HTTP and native: a dead
# first host, a host stopped between two queries of a session, during a
# query whose rows were arriving (an error, no partial result) and before a
# query's first row (re-sent to the other host), an INSERT while a shard is
# down (the error says what each replica wrote). Starts the cluster from
# nothing and stops it (KEEP_CLUSTER=1: leaves it and the database up, for
# poking at). Prints "N passed, N failed".
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

# ---- host lists (README "Clusters"; src/transport/hosts.c), over HTTP and native
read -r -a TP <<<"$CLUSTER_TCP_PORTS"
dead=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
for n in 1 2; do
	# 5 s: 10 blocks of 500 rows (max_block_size below), 1 ms a row; pad: 0.5 MB a
	# block, so that HTTP responses leave the server's 1 MB buffer as they go
	node "$n" "CREATE VIEW cl.slow AS SELECT number, sleepEachRow(0.001) AS z, '$(printf 'x%.0s' {1..1000})' AS pad FROM system.numbers LIMIT 5000" >/dev/null
	# the same 5 s, one row at the end
	node "$n" "CREATE VIEW cl.slow_sum AS SELECT count() AS c, sum(number) AS s, sum(z) AS zz FROM cl.slow" >/dev/null
done
q -q -v dh="127.0.0.1:$dead, 127.0.0.1:${HP[0]}" -v dt="127.0.0.1:$dead, 127.0.0.1:${TP[0]}" \
	-v th="127.0.0.1:${HP[0]}, 127.0.0.1:${HP[1]}" -v tt="127.0.0.1:${TP[0]}, 127.0.0.1:${TP[1]}" <<'SQL' >/dev/null || { echo "host list setup failed"; exit 1; }
CREATE SERVER cl_dead_http FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host :'dh', dbname 'cl');
CREATE SERVER cl_dead_native FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host :'dt', dbname 'cl', transport 'native');
CREATE SERVER cl_two_http FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host :'th', dbname 'cl', settings 'max_block_size=500');
CREATE SERVER cl_two_native FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host :'tt', dbname 'cl', transport 'native', settings 'max_block_size=500');
CREATE USER MAPPING FOR CURRENT_USER SERVER cl_dead_http;
CREATE USER MAPPING FOR CURRENT_USER SERVER cl_dead_native;
CREATE USER MAPPING FOR CURRENT_USER SERVER cl_two_http;
CREATE USER MAPPING FOR CURRENT_USER SERVER cl_two_native;
CREATE SCHEMA s_dead_http; CREATE SCHEMA s_dead_native; CREATE SCHEMA s_two_http; CREATE SCHEMA s_two_native;
IMPORT FOREIGN SCHEMA cl LIMIT TO (events) FROM SERVER cl_dead_http INTO s_dead_http;
IMPORT FOREIGN SCHEMA cl LIMIT TO (events) FROM SERVER cl_dead_native INTO s_dead_native;
IMPORT FOREIGN SCHEMA cl LIMIT TO (events, slow, slow_sum) FROM SERVER cl_two_http INTO s_two_http;
IMPORT FOREIGN SCHEMA cl LIMIT TO (events, slow, slow_sum) FROM SERVER cl_two_native INTO s_two_native;
SQL
want=$(q -c "SELECT count(*), sum(id) FROM local_events")
ms() { date +%s%N | awk '{ printf "%.0f", $1 / 1e6 }'; }
for t in http native; do
	p=$([[ $t == http ]] && echo "${HP[0]}" || echo "${TP[0]}")
	out=$(q -c "SELECT count(*), sum(id) FROM s_dead_$t.events" \
		-c "SELECT hosts FROM clickhouse_fdw_connections() WHERE server = 'cl_dead_$t'" \
		-c "SELECT failovers FROM clickhouse_fdw_stats WHERE server = 'cl_dead_$t'")
	if [[ "$out" == "$want"$'\n'"127.0.0.1:$p"$'\n'1 ]]; then
		ok "$t: a server whose first host is dead answers through the next (in use 127.0.0.1:$p, 1 failover)"
	else
		notok "$t: dead first host: $(echo "$out" | tr '\n' ' ')"
	fi
	# what trying the dead host costs a new backend (refused on loopback), 5 runs each
	t0=$(ms); for i in 1 2 3 4 5; do q -c "SELECT 1 FROM s_two_$t.events LIMIT 1" >/dev/null; done; t1=$(ms)
	for i in 1 2 3 4 5; do q -c "SELECT 1 FROM s_dead_$t.events LIMIT 1" >/dev/null; done; t2=$(ms)
	echo "# $t: new backend + first query: live first host $(( (t1 - t0) / 5 )) ms, dead first host $(( (t2 - t1) / 5 )) ms"
done

# the entry node stops under a connected session: the next query goes to the other host
out=$(q -c "SELECT count(*), sum(id) FROM s_two_http.events" -c "SELECT count(*), sum(id) FROM s_two_native.events" \
	-c "\! bash test/cluster.sh kill 1" \
	-c "SELECT count(*), sum(id) FROM s_two_http.events" -c "SELECT count(*), sum(id) FROM s_two_native.events" \
	-c "SELECT string_agg(hosts, ' ' ORDER BY server) FROM clickhouse_fdw_connections() WHERE server LIKE 'cl_two_%'")
if [[ "$out" == "$want"$'\n'"$want"$'\n'"$want"$'\n'"$want"$'\n'"127.0.0.1:${HP[1]} 127.0.0.1:${TP[1]}" ]]; then
	ok "a host stopped between two queries of a session: both transports go on with the other host, same answers"
else
	notok "host stopped between queries: $(echo "$out" | tr '\n' ' ')"
fi
bash test/cluster.sh start-node 1

# the entry node stops during a query
slow_want=$(q -c "SELECT count(*), sum(number + 1000) FROM generate_series(0, 4999) number")
sum_want=$(q -c "SELECT count(*), sum(number), 0 FROM generate_series(0, 4999) number")
for t in http native; do
	# rows stream into PostgreSQL (random() keeps the sum local; z, always 0,
	# keeps ClickHouse from dropping the sleep): an error, no partial sum
	tmp=$(mktemp)
	( q -c "SELECT count(*), sum((number + z + length(pad)) * (random() >= 0)::int) FROM s_two_$t.slow" >"$tmp" 2>&1 ) &
	bg=$!; sleep 2; bash test/cluster.sh kill 1; wait $bg
	out=$(cat "$tmp")
	if [[ "$out" == ERROR:* && "$out" != *"$slow_want"* && ( "$out" == *"127.0.0.1:${HP[0]}"* || "$out" == *"127.0.0.1:${TP[0]}"* ) ]]; then
		ok "$t: a host stopped while rows were arriving: an error naming it, no partial result ($(echo "$out" | head -1 | cut -c1-90))"
	else
		notok "$t: host stopped during a streamed query: $(echo "$out" | tr '\n' ' ')"
	fi
	bash test/cluster.sh start-node 1
	# one row at the end: nothing arrived before the stop, so it is re-sent to the other host
	( q -c "SELECT c, s, zz FROM s_two_$t.slow_sum" \
		-c "SELECT hosts FROM clickhouse_fdw_connections() WHERE server = 'cl_two_$t'" >"$tmp" 2>&1 ) &
	bg=$!; sleep 2; bash test/cluster.sh kill 1; wait $bg
	out=$(cat "$tmp")
	p=$([[ $t == http ]] && echo "${HP[1]}" || echo "${TP[1]}")
	if [[ "$out" == "$sum_want"$'\n'"127.0.0.1:$p" ]]; then
		ok "$t: a host stopped before the query's first row: re-sent to the other host, right answer"
	else
		notok "$t: host stopped before the first row: $(echo "$out" | tr '\n' ' ')"
	fi
	bash test/cluster.sh start-node 1
	rm -f "$tmp"
done

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
# nothing is held that the error does not name: ClickHouse's "Insertion
# status" counts the rows sent to each replica (some may not be committed:
# the remote INSERT was not finished), the live node holds at most those
for t in http native; do
	lo=$([[ $t == http ]] && echo 3000000 || echo 4000000)
	out=$(q -c "INSERT INTO s_dead_$t.events SELECT g, 'n', 0 FROM generate_series($((lo + 1)), $((lo + 10))) g")
	said=$(echo "$out" | sed -n "s/^Wrote [0-9]* blocks and \([0-9]*\) rows on shard [0-9]* replica [0-9]*, 127.0.0.1:${TP[0]}.*/\1/p")
	held=$(node 1 "SELECT count() FROM cl.events_local WHERE id > $lo AND id <= $((lo + 10))")
	if [[ "$out" == ERROR:* && "$out" == *"Insertion status"* && -n "$said" && -n "$held" && "$held" -le "$said" &&
		"$out" == *"0 earlier block(s) with 0 row(s) of this statement were committed"* ]]; then
		ok "$t: INSERT through a dead first host while a shard is down: an error that names what each replica was sent ($said rows to node 1, which holds $held)"
	else
		notok "$t: INSERT with a shard down: said '$said' held '$held': $(echo "$out" | tr '\n' ' ' | cut -c1-400)"
	fi
done
[[ -n "${KEEP_CLUSTER:-}" ]] && { trap - EXIT; exit 0; }
dropdb chfdw_cluster
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
