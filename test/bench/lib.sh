# test/bench/lib.sh — what the benchmark scripts share (sourced, not run).
#
#   best CMD...       the least wall time (seconds, %.3f) of REPEAT runs of CMD;
#                     BEST_BEFORE, if set, is a command run before each timed
#                     run and not timed (e.g. a TRUNCATE, or settle_merges).
#                     Each run also measures the CPU time spent meanwhile by
#                     PostgreSQL's backends and workers (those that ended: the
#                     children reaped by the postmaster, as psql -c gives) and by
#                     the ClickHouse server; last_cpu prints the least of each
#                     of the last best call, as "pg 1.23 s, ClickHouse 0.45 s".
#                     On a machine shared with other work the wall time varies
#                     run to run; these CPU times much less.
#   last_cpu          see best
#   last_pg_cpu       the PostgreSQL figure of last_cpu alone (seconds)
#   settle_merges     wait (at most SETTLE_S, 30 s) until ClickHouse runs no
#                     merge (system.merges empty), so that a run does not share
#                     the cores with the merges of the one before
#   ratio A B         A / B as %.2f
#   least [MUL [FMT]] the least of the numbers on stdin (one a line), times
#                     MUL (1), printed with FMT (%.3f)
#
# Needs the environment of test/servers.sh (eval "$(bash test/servers.sh env)")
# and REPEAT (default 3).
REPEAT="${REPEAT:-3}"
BENCH_STATE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)/.state"
BENCH_LAST="$BENCH_STATE/bench_last_cpu"

# utime + stime of the process's reaped children (cutime + cstime), or of
# the process itself, in clock ticks; 0 when it is not there
_children_ticks() { awk '{print $16 + $17}' "/proc/$1/stat" 2>/dev/null || echo 0; }
_self_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
_pm_pid() { head -1 "$BENCH_STATE/pg/data/postmaster.pid" 2>/dev/null | tr -dc '0-9'; }
_ch_pid() { tr -dc '0-9' <"$BENCH_STATE/clickhouse.pid" 2>/dev/null; }
_hz=$(getconf CLK_TCK)

best() {
	local best=999999 pg_best=999999 ch_best=999999 t s e pm ch p0 p1 c0 c1 pg chc
	pm=$(_pm_pid); ch=$(_ch_pid)
	for _ in $(seq "$REPEAT"); do
		if [ -n "${BEST_BEFORE:-}" ]; then $BEST_BEFORE >/dev/null; fi
		p0=$(_children_ticks "$pm"); c0=$(_self_ticks "$ch")
		s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
		sleep 0.2	# the backend exits, and is reaped, after psql has
		p1=$(_children_ticks "$pm"); c1=$(_self_ticks "$ch")
		t=$(echo "$e - $s" | bc -l)
		pg=$(echo "($p1 - $p0) / $_hz" | bc -l); chc=$(echo "($c1 - $c0) / $_hz" | bc -l)
		best=$(echo "if ($t < $best) $t else $best" | bc -l)
		pg_best=$(echo "if ($pg < $pg_best) $pg else $pg_best" | bc -l)
		ch_best=$(echo "if ($chc < $ch_best) $chc else $ch_best" | bc -l)
	done
	printf '%.2f %.2f\n' "$pg_best" "$ch_best" >"$BENCH_LAST"
	printf '%.3f' "$best"
}

last_cpu() { awk '{printf "pg %s s, ClickHouse %s s", $1, $2}' "$BENCH_LAST"; }
last_pg_cpu() { awk '{print $1}' "$BENCH_LAST"; }

settle_merges() {
	local i n
	for i in $(seq $((${SETTLE_S:-30} * 10))); do
		n=$($CH_CLIENT -q "SELECT count() FROM system.merges" 2>/dev/null || echo 0)
		[ "$n" = 0 ] && return 0
		sleep 0.1
	done
	echo "settle_merges: ClickHouse still merges after ${SETTLE_S:-30} s" >&2
}

ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }

least() {
	awk -v mul="${1:-1}" -v fmt="${2:-%.3f}" \
		'$1 ~ /^[0-9.]+$/ { v = $1 * mul; if (!n++ || v < m) m = v } END { if (n) printf fmt, m }'
}
