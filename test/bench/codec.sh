#!/usr/bin/env bash
# test/bench/codec.sh — build test/bench/codec_bench.c with -O2 against the
# PostgreSQL-free codec and run it: Native encode, RowBinary encode and Native
# decode in ns/row on the events, metrics, dims and dims_hc schemas (prints a
# table; not a test, always exits 0 unless the build fails).
#   test/bench/codec.sh [schema...]
# env: CC (cc), BENCH_ROWS (100000 rows per block), BENCH_BLOCKS (5 blocks per
#      measurement), BENCH_REPEAT (best of 5), BENCH_CFLAGS (extra flags,
#      e.g. "-march=native"), BENCH_PERF=1 (run under `perf record` as well
#      and print the top functions of each phase; needs perf)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

CC="${CC:-cc}"
out=build/bench
mkdir -p "$out"
# shellcheck disable=SC2086
"$CC" -std=gnu11 -O2 -g -fno-omit-frame-pointer ${BENCH_CFLAGS:-} \
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wvla -Wno-unused-parameter -Isrc/include \
	-o "$out/codec_bench" test/bench/codec_bench.c \
	src/common/ch_common.c src/codec/ch_type.c src/codec/ch_writer.c src/codec/ch_writer_bulk.c \
	src/codec/ch_native_reader.c -lm

"$out/codec_bench" "$@"

if [ "${BENCH_PERF:-0}" = 1 ] && command -v perf >/dev/null; then
	for s in "${@:-events metrics dims dims_hc}"; do
		for s1 in $s; do
			echo
			echo "== perf: $s1 (all phases; self time)"
			perf record -q -g -o "$out/perf.$s1.data" "$out/codec_bench" "$s1" >/dev/null 2>&1
			perf report -q -i "$out/perf.$s1.data" --no-children --sort symbol 2>/dev/null |
				grep -v '^$' | head -15
		done
	done
fi
