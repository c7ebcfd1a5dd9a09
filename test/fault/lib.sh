# test/fault/lib.sh — what the failure tests share (sourced by
# test/fault/fault_test.sh and test/fault/tcp_fault_test.sh, from the
# repository's root): the tally, the hostile-stream check, and the check of
# an INSERT's error against what ClickHouse really holds.
pass=0; fail=0
ok() { echo "ok - $*"; pass=$((pass+1)); }
notok() { echo "not ok - $*"; fail=$((fail+1)); }
# the last line of a test script: the tally, and its exit status
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }

# hostile DB TABLE QUERY EXPECTED-END MESSAGE-REGEX [terminate]
# A hostile stream: the backend's peak RSS stays under 64 MB above idle, and
# the query (run through the database's sqlstate_of()) ends by itself with a
# clear error or, for the endless ones, pg_cancel_backend (or
# pg_terminate_backend) ends it within 1 s; the backend then still works.
hostile() {
	local db="$1" t="$2" q="$3" want="$4" re="$5" kill="${6:-}" got ended secs csecs peak works msg
	got=$(python3 test/fault/hostile.py "$db" "SELECT sqlstate_of(\$\$$q\$\$)" 1.5 $kill)
	read -r ended secs csecs peak works < <(python3 -c '
import json, sys
r = json.loads(sys.argv[1])
print(r["ended"], r["seconds"], r["cancel_seconds"], r["peak_mb_above_idle"], r["works_after"])' "$got")
	msg=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["message"])' "$got")
	local how="by itself"
	[[ "$csecs" != "None" ]] && how="${csecs}s after pg_${kill:-cancel}_backend"
	local summary="$t: $ended after ${secs}s ($how), peak RSS +${peak} MB: ${msg:0:140}"
	if [[ "$ended" == "$want" && "$msg" =~ $re && "$works" == "True" ]] &&
		python3 -c 'import sys; sys.exit(not (float(sys.argv[1]) < 64))' "$peak" &&
		{ [[ "$csecs" == "None" ]] || python3 -c 'import sys; sys.exit(not (float(sys.argv[1]) < 1.0))' "$csecs"; }; then
		ok "hostile stream $summary"
	else
		notok "hostile stream $summary (wanted: $want matching /$re/, under 64 MB, cancel under 1 s)"
	fi
}

# claimed_rows ERROR-TEXT: the rows an INSERT's error says were committed
claimed_rows() {
	echo "$1" | sed -n 's/.* with \([0-9][0-9]*\) row(s) of this statement were committed.*/\1/p' | head -1
}

# as_claimed ERROR-TEXT ROWS-IN-CLICKHOUSE CLAIMED BLOCK-ROWS
# True when ClickHouse holds only whole blocks, and exactly what the error
# said was committed, or one block more where it said that block "may or may
# not" have been written.
as_claimed() {
	local out="$1" rows="$2" claimed="$3" block="$4"
	[ -n "$claimed" ] && [[ "$rows" =~ ^[0-9]+$ ]] && (( rows % block == 0 )) &&
		{ [ "$rows" = "$claimed" ] ||
			{ [ "$rows" = "$((claimed + block))" ] && echo "$out" | grep -q "may or may not"; }; }
}

# insert_while_killed DB TABLE: an INSERT ... SELECT of 30,000,000 rows into
# the foreign table TABLE (regress.TABLE) while the real ClickHouse is killed
# (kill -9) as soon as its first block is in the table (at most 600 polls of
# clickhouse-client 50 ms apart, about a minute; then it is killed anyway and
# the checks fail: a fixed 1.5 s delay once came before the first block on a
# loaded machine, and the INSERT only failed to connect); ClickHouse is
# started again after. Prints the statement's output.
insert_while_killed() {
	local db="$1" t="$2" chpid killer out
	chpid=$(cat .state/clickhouse.pid)
	(
		for _ in $(seq 600); do
			n=$($CH_CLIENT -q "SELECT count() FROM regress.$t" 2>/dev/null)
			[ "${n:-0}" -gt 0 ] 2>/dev/null && break
			sleep 0.05
		done
		kill -9 "$chpid"
	) &
	killer=$!
	out=$(timeout 60 psql -X -At -d "$db" -c "INSERT INTO $t SELECT a * 100000 + b FROM generate_series(0, 299) a, generate_series(1, 100000) b" 2>&1)
	wait "$killer"
	bash test/servers.sh start >/dev/null 2>&1
	echo "$out"
}
