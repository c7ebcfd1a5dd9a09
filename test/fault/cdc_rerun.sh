#!/usr/bin/env bash
# test/fault/cdc_rerun.sh -- a load killed halfway, then run again as it is
# (README, "Loading data (CDC)"). On the ClickHouse 26.5 engine (its test
# front, a harness, not a server: a second instance with its own data on
# FAULT_PORT + 1, killed with SIGKILL in the middle of an INSERT ... SELECT
# and started again on the same data): with clickhouse_fdw.insert_key the
# re-run leaves every row exactly once; without it the re-run duplicates
# the blocks that were committed. On ClickHouse 18.16 (no deduplication
# tokens) the key is refused with 0A000. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
eval "$(bash test/servers.sh env)"
PORT=$(( ${FAULT_PORT:-18129} + 1 ))
STATE=.state/chdb-front-cdc
pass=0; fail=0
ok() { echo "ok - $*"; pass=$((pass+1)); }
notok() { echo "not ok - $*"; fail=$((fail+1)); }
fpid=
start_front() {
	if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
		echo "port $PORT is in use: a front left over from another run? (choose FAULT_PORT)"; exit 1
	fi
	python3 test/chdb/front.py --port "$PORT" --state "$STATE" --quiet </dev/null >"$STATE.log" 2>&1 &
	fpid=$!
	for _ in $(seq 300); do
		kill -0 "$fpid" 2>/dev/null || break
		[[ "$(curl -s --max-time 1 "http://127.0.0.1:$PORT/ping")" == "Ok." ]] && return 0
		sleep 0.1
	done
	echo "the second front did not start:"; tail -20 "$STATE.log"; exit 1
}
trap '[[ -n "$fpid" ]] && kill -9 $fpid 2>/dev/null' EXIT
rm -rf "$STATE"; mkdir -p "$STATE"
start_front

q() { psql -X -At -d chfdw_cdc "$@" 2>&1; }
dropdb --if-exists chfdw_cdc 2>/dev/null; createdb chfdw_cdc
psql -X -q -d chfdw_cdc -v ON_ERROR_STOP=1 -v port="$PORT" -v cport="$CH_HTTP_PORT" <<'SQL' || exit 1
CREATE EXTENSION clickhouse_fdw;
CREATE SERVER f FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'port', dbname 'default');
CREATE USER MAPPING FOR CURRENT_USER SERVER f;
CREATE FOREIGN TABLE loaded (id bigint) SERVER f OPTIONS (batch_size '50000');
CREATE SERVER old FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'cport', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER old;
SQL
LOAD="INSERT INTO loaded SELECT g FROM generate_series(1, 4000000) g"
counts() { curl -s "http://127.0.0.1:$PORT/" --data-binary "SELECT count(), uniqExact(id) FROM default.loaded FORMAT TSV" | tr '\t' ' '; }

run_case() {	# run_case KEY: load, kill the front mid-load, restart, load again;
	# sets before, after, out, out2 (no subshell: start_front sets fpid)
	local key="$1" set="" killer
	[[ -n "$key" ]] && set="SET clickhouse_fdw.insert_key = '$key';"
	q -c "SELECT clickhouse_exec('f', 'DROP TABLE IF EXISTS default.loaded')" \
	  -c "SELECT clickhouse_exec('f', 'CREATE TABLE default.loaded (id UInt64) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 1000')" >/dev/null
	( for _ in $(seq 400); do
		n=$(curl -s --max-time 1 "http://127.0.0.1:$PORT/" --data-binary "SELECT count() FROM default.loaded FORMAT TSV")
		[[ "${n:-0}" =~ ^[0-9]+$ ]] && (( n >= 1000000 )) && break
		sleep 0.05
	  done; kill -9 "$fpid" ) &
	killer=$!
	out=$(q -c "$set" -c "$LOAD" | tr '\n' ' ')
	wait "$killer"
	start_front
	before=$(counts)
	out2=$(q -c "$set" -c "$LOAD" | tr '\n' ' ')
	after=$(counts)
}

run_case "load-1"
b=${before%% *}
if [[ "$out" == *ERROR* && "$b" -gt 0 && "$b" -lt 4000000 && "$after" == "4000000 4000000" && "$out2" == *"INSERT 0 4000000"* ]]; then
	ok "killed mid-load, re-run with the same insert_key: $b rows before, every row once after ($after)"
else
	notok "re-run with insert_key: before '$before', after '$after', first run: $out, re-run: $out2"
fi
run_case ""
b=${before%% *}; a=${after%% *}
if [[ "$out" == *ERROR* && "$b" -gt 0 && "$a" -eq $((4000000 + b)) && "$after" == *" 4000000" ]]; then
	ok "without a key the re-run duplicates the $b committed rows ($after)"
else
	notok "re-run without a key: before '$before', after '$after', first run: $out"
fi

# ClickHouse 18.16 has no deduplication tokens: the key is refused
out=$(q -c "SELECT clickhouse_exec('old', 'DROP TABLE IF EXISTS regress.cdc_old')" \
	-c "SELECT clickhouse_exec('old', 'CREATE TABLE regress.cdc_old (id UInt64) ENGINE = MergeTree ORDER BY id')" \
	-c "CREATE FOREIGN TABLE cdc_old (id bigint) SERVER old" \
	-c "SET clickhouse_fdw.insert_key = 'k'" -c "INSERT INTO cdc_old VALUES (1)" -c "SELECT count(*) FROM cdc_old")
if [[ "$out" == *"insert_key needs a ClickHouse server with insert_deduplication_token"* && "$(echo "$out" | tail -1)" == "0" ]]; then
	ok "ClickHouse 18.16: insert_key is refused, nothing written"
else
	notok "ClickHouse 18.16 with insert_key: $out"
fi
kill -9 "$fpid" 2>/dev/null; fpid=
dropdb chfdw_cdc
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
