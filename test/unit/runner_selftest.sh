#!/usr/bin/env bash
# test/unit/runner_selftest.sh — the unit runner (test/unit/main.c) must fail
# a test that ran no check (e.g. one that found no input and returned) and a
# run in which no test ran at all. Builds two throwaway runners with cc.
# Run by `make unit`; exits non-zero if the runner would count either as a pass.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
CC=${UNIT_CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/t.c" <<'C'
#include "unit.h"
TEST(checks_nothing) { }
TEST(checks_something) { CHECK(1 + 1 == 2); }
C
$CC -std=gnu11 -Isrc/include -Itest/unit -o "$tmp/run" "$tmp/t.c" test/unit/main.c src/common/ch_common.c || exit 1
out=$("$tmp/run" test/golden 2>&1); rc=$?
fail=0
if [[ $rc -eq 0 || "$out" != *"FAIL checks_nothing: ran no check"* || "$out" != *"1 passed, 1 failed"* ]]; then
	echo "runner selftest: a test without checks was not failed (rc $rc): $out"; fail=1
fi
out=$("$tmp/run" test/golden no_such_test 2>&1); rc=$?
if [[ $rc -eq 0 ]]; then
	echo "runner selftest: a run without tests passed: $out"; fail=1
fi
[[ $fail -eq 0 ]] && echo "runner selftest: ok"
exit $fail
