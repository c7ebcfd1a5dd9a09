#!/usr/bin/env bash
# test/fuzz/replay.sh — build the standalone replay driver of every fuzz
# target under ASan + UBSan and run it over the committed seed corpus
# (test/fuzz/corpus/<target>) and the crash regressions
# (test/fuzz/regressions/<target>). Fast (well under a minute), no libFuzzer
# needed at run time: this is the CI step. Exits non-zero if anything fails.
#   test/fuzz/replay.sh [target...]      default: every target
# env: FUZZ_CC (clang; gcc works too), FUZZ_BUILD (build/fuzz)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. test/fuzz/common.sh
FUZZ_SKIP_KNOWN=0			# the regression inputs must keep failing until fixed

if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(fuzz_targets | tr ' ' '\n'); fi
[ -f src/include/ch_compress.h ] || echo "replay: src/include/ch_compress.h missing, skipping the decompress target"

failed=()
for t in "${targets[@]}"; do
	if ! fuzz_build_replay "$t"; then
		echo "replay: could not build replay_$t"
		failed+=("$t")
		continue
	fi
done
for t in "${targets[@]}"; do
	[ -x "$FUZZ_BUILD/replay_$t" ] || continue
	fuzz_replay "$t" || failed+=("$t")
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz replay FAILED: ${failed[*]}"
	exit 1
fi
echo "fuzz replay: ok"
