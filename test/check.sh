#!/usr/bin/env bash
# test/check.sh — run every test of clickhouse_fdw; the README's test command.
#
# Installs what the tests need (test/setup.sh), builds with warnings as
# errors, installs the extension, starts throwaway servers (test/servers.sh),
# runs the unit tests (plain and under ASan/UBSan), pg_regress and pgTAP, stops
# the servers it started, and exits non-zero if anything failed.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cd "$repo"

PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
export PG_CONFIG

failures=()
step() { printf '\n==== %s\n' "$*"; }
run() {		# run NAME CMD...: record a failure instead of stopping
	local name="$1"; shift
	if "$@"; then
		echo "---- $name: ok"
	else
		echo "---- $name: FAILED"
		failures+=("$name")
	fi
}

step "setup"
bash test/setup.sh || { echo "test/setup.sh failed"; exit 1; }

step "build (warnings are errors)"
make -s clean >/dev/null 2>&1 || true
# one compiler per core (the objects are independent; -Werror applies to each)
if ! make -s -j"$(nproc 2>/dev/null || echo 2)" COPT=-Werror PG_CONFIG="$PG_CONFIG" >build.log 2>&1; then
	cat build.log; echo "build failed"; exit 1
fi
if ! make -s install PG_CONFIG="$PG_CONFIG" >>build.log 2>&1; then
	cat build.log; echo "install failed"; exit 1
fi
# the PostgreSQL-free layers must not include PostgreSQL headers
if grep -rlE '#include[[:space:]]*[<"](postgres|fmgr|utils/|access/|nodes/|catalog/|executor/|miscadmin)' \
	src/common src/codec src/transport src/include; then
	echo "PostgreSQL headers in the PostgreSQL-free layers (listed above)"; failures+=("layering")
fi

step "unit tests"
run "unit" make -s unit
step "unit tests under AddressSanitizer + UBSan"
run "unit-asan" make -s unit-asan UNIT_CC=clang

step "fuzz corpus and regressions replayed under ASan + UBSan"
run "fuzz-replay" bash test/fuzz/replay.sh

step "servers"
bash test/servers.sh start || { echo "could not start the test servers"; exit 1; }
trap 'bash "$repo/test/servers.sh" stop' EXIT
eval "$(bash test/servers.sh env)"

step "transport contract: HTTP and native TCP against ClickHouse 18.16 (no PostgreSQL)"
run "contract" make -s contract
run "contract-asan" make -s contract-asan UNIT_CC=clang

step "ClickHouse fixtures"
if ! $CH_CLIENT --multiquery < test/fixtures/ch_regress.sql; then
	echo "could not load test/fixtures/ch_regress.sql"; exit 1
fi

step "pg_regress"
if make -s installcheck PG_CONFIG="$PG_CONFIG"; then
	echo "---- pg_regress: ok"
else
	echo "---- pg_regress: FAILED"; failures+=("pg_regress")
	[ -f regression.diffs ] && head -200 regression.diffs
fi

step "pg_regress over the native TCP transport (the wire suites again, the same expected files)"
if make -s installcheck-native PG_CONFIG="$PG_CONFIG"; then
	echo "---- pg_regress (native): ok"
else
	echo "---- pg_regress (native): FAILED"; failures+=("pg_regress-native")
	[ -f build/native/regression.diffs ] && head -200 build/native/regression.diffs
fi

step "modern engine (ClickHouse 26.5 via the test front test/chdb/front.py)"
if python3 test/chdb/front.py --load test/fixtures/modern_regress.sql; then
	run "front self-check" python3 test/chdb/front.py --check
	if make -s installcheck-modern PG_CONFIG="$PG_CONFIG"; then
		echo "---- pg_regress (modern): ok"
	else
		echo "---- pg_regress (modern): FAILED"; failures+=("pg_regress-modern")
		[ -f build/modern/regression.diffs ] && head -200 build/modern/regression.diffs
	fi
else
	echo "could not load test/fixtures/modern_regress.sql"; failures+=("modern-fixtures")
fi

step "failures: broken streams, stalled and killed servers"
run "fault" bash test/fault/fault_test.sh
run "fault over TCP" bash test/fault/tcp_fault_test.sh
run "cdc re-run" bash test/fault/cdc_rerun.sh
run "load progress" bash test/fault/progress.sh
run "cluster" bash test/cluster_test.sh
run "stats shared" bash test/stats_shared.sh

step "pgTAP"
dropdb --if-exists chfdw_tap && createdb chfdw_tap || { echo "could not create the pgTAP database"; exit 1; }
run "pgtap" pg_prove --failures -d chfdw_tap test/pgtap/*.sql

step "summary"
if [ ${#failures[@]} -gt 0 ]; then
	echo "FAILED: ${failures[*]}"
	exit 1
fi
echo "all test suites passed"
