#!/usr/bin/env bash
# test/fuzz/run.sh — build every libFuzzer target (clang, ASan + UBSan), run
# each for FUZZ_SECONDS, then replay the seed corpus, the regressions, the
# inputs the fuzzers found and any crash files with the standalone driver.
#   test/fuzz/run.sh [target...]        default: every target
# env:
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_JOBS     targets run at once (default 1; 2 uses both cores here)
#   FUZZ_FLAGS    extra libFuzzer flags (e.g. "-only_ascii=1")
#   FUZZ_SKIP_KNOWN=1  skip inputs that hit bugs already kept in
#                 test/fuzz/regressions (known_bug() in each target), so a
#                 long campaign finds new ones; also the final replay then
#                 skips them (test/fuzz/replay.sh never does)
#   FUZZ_CC, FUZZ_BUILD  see common.sh
# Outputs under $FUZZ_BUILD (build/fuzz): work/<target> (the grown corpus,
# kept between runs), artifacts/<target> (crash-*, leak-*, timeout-*, oom-*),
# logs/<target>.log. The committed corpus in test/fuzz/corpus is only read.
# A crash: minimise it with
#   build/fuzz/fuzz_<target> -minimize_crash=1 -runs=100000 CRASH
# and save the result as test/fuzz/regressions/<target>/<name>.
# Exits non-zero if a fuzzer found anything or the replay fails.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. test/fuzz/common.sh

FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
FUZZ_JOBS="${FUZZ_JOBS:-1}"
FUZZ_FLAGS="${FUZZ_FLAGS:-}"

if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(fuzz_targets | tr ' ' '\n'); fi
[ -f src/include/ch_compress.h ] || echo "run: src/include/ch_compress.h missing, skipping the decompress target"

dict_for() {
	case "$1" in
	native_reader) echo test/fuzz/dict/native_reader.dict ;;
	type_parser | writer) echo test/fuzz/dict/type_parser.dict ;;
	decompress) echo test/fuzz/dict/decompress.dict ;;
	writer_bulk) ;;				# binary schema and values: no dictionary
	esac
}

fuzz_one() {
	local t="$1" dict
	local work="$FUZZ_BUILD/work/$t" art="$FUZZ_BUILD/artifacts/$t" log="$FUZZ_BUILD/logs/$t.log"
	mkdir -p "$work" "$art" "$FUZZ_BUILD/logs"
	dict=$(dict_for "$t")
	local seeds=("test/fuzz/corpus/$t")
	[ -d "test/fuzz/regressions/$t" ] && seeds+=("test/fuzz/regressions/$t")
	# new inputs go to the first directory (work), the others are only read
	# shellcheck disable=SC2086
	ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
		"$FUZZ_BUILD/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -max_len=65536 -rss_limit_mb=2048 \
		-timeout=30 -print_final_stats=1 -artifact_prefix="$art/" ${dict:+-dict=$dict} $FUZZ_FLAGS \
		"$work" "${seeds[@]}" >"$log" 2>&1
}

summary() {
	local t="$1" log="$FUZZ_BUILD/logs/$1.log" execs cov ft crashes
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	crashes=$(find "$FUZZ_BUILD/artifacts/$t" -type f | wc -l)
	printf '%-14s %12s execs  cov %6s  ft %7s  corpus %6s  findings %s\n' "$t" "${execs:-?}" \
		"${cov:-?}" "${ft:-?}" "$(find "$FUZZ_BUILD/work/$t" -type f | wc -l)" "$crashes"
	[ "$crashes" -eq 0 ]
}

for t in "${targets[@]}"; do
	echo "building fuzz_$t and replay_$t"
	fuzz_build_fuzzer "$t" || { echo "could not build fuzz_$t"; exit 1; }
	fuzz_build_replay "$t" || { echo "could not build replay_$t"; exit 1; }
done

echo "fuzzing ${targets[*]} for ${FUZZ_SECONDS}s each, $FUZZ_JOBS at a time"
running=0
for t in "${targets[@]}"; do
	fuzz_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$FUZZ_JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

failed=()
echo
for t in "${targets[@]}"; do
	summary "$t" || failed+=("$t")
done
echo
for t in "${targets[@]}"; do
	find "$FUZZ_BUILD/artifacts/$t" -type f | sed 's/^/finding: /'
	fuzz_replay "$t" "$FUZZ_BUILD/work/$t" "$FUZZ_BUILD/artifacts/$t" || failed+=("$t (replay)")
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzzing FAILED: ${failed[*]} (logs in $FUZZ_BUILD/logs)"
	exit 1
fi
echo "fuzzing: no findings"
