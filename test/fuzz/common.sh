# test/fuzz/common.sh — sourced by run.sh and replay.sh: the list of fuzz
# targets, the src/ files each one needs, and the compile commands.
# Only PostgreSQL-free sources; nothing links libcurl (src/transport).

FUZZ_CC="${FUZZ_CC:-clang}"
FUZZ_BUILD="${FUZZ_BUILD:-build/fuzz}"
FUZZ_WARN="-Wall -Wextra -Wshadow -Wcast-align -Wstrict-prototypes -Wundef -Wvla -Wno-unused-parameter"
FUZZ_SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# fuzz_targets: the targets that can be built in this tree
fuzz_targets() {
	echo native_reader type_parser writer writer_bulk
	# the decompressor target needs ch_compress.h (and liblz4/libzstd)
	[ -f src/include/ch_compress.h ] && echo decompress
	[ -f src/include/ch_tcp_proto.h ] && echo tcp_decoder
	return 0
}

# fuzz_sources TARGET: the src/ files and libraries TARGET links (and any
# -D it is built with)
fuzz_sources() {
	case "$1" in
	native_reader) echo src/common/ch_common.c src/codec/ch_type.c src/codec/ch_native_reader.c ;;
	type_parser) echo src/common/ch_common.c src/codec/ch_type.c ;;
	writer) echo src/common/ch_common.c src/codec/ch_type.c src/codec/ch_native_reader.c \
		src/codec/ch_writer.c src/codec/ch_writer_bulk.c -lm ;;
	# LowCardinality(String) tables defer their lookups from 256 slots (33
	# entries) instead of 8192 (1,025): both lookup paths in 200-row blocks
	writer_bulk) echo -DLC_DEFER_SLOTS=256 src/common/ch_common.c src/codec/ch_type.c \
		src/codec/ch_native_reader.c src/codec/ch_writer.c src/codec/ch_writer_bulk.c -lm ;;
	decompress) echo src/common/ch_common.c src/codec/ch_cityhash.c src/codec/ch_compress.c \
		-llz4 -lzstd ;;
	tcp_decoder) echo src/common/ch_common.c src/codec/ch_type.c src/codec/ch_native_reader.c \
		src/codec/ch_cityhash.c src/codec/ch_compress.c src/codec/ch_tcp_proto.c -llz4 -lzstd ;;
	*) echo "unknown fuzz target $1" >&2; return 1 ;;
	esac
}

# fuzz_build_fuzzer TARGET: $FUZZ_BUILD/fuzz_TARGET, libFuzzer + ASan + UBSan.
# FUZZ_SKIP_KNOWN=1 compiles in the skip lists of bugs already kept in
# test/fuzz/regressions (see known_bug() in the targets), for long campaigns.
fuzz_build_fuzzer() {
	local skip=
	[ "${FUZZ_SKIP_KNOWN:-0}" = 1 ] && skip=-DFUZZ_SKIP_KNOWN
	mkdir -p "$FUZZ_BUILD"
	# shellcheck disable=SC2046,SC2086
	"$FUZZ_CC" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer $skip $FUZZ_WARN -Isrc/include -Itest/fuzz \
		-o "$FUZZ_BUILD/fuzz_$1" "test/fuzz/fuzz_$1.c" $(fuzz_sources "$1")
}

# fuzz_build_replay TARGET: $FUZZ_BUILD/replay_TARGET, the standalone driver
# (no libFuzzer runtime) under ASan + UBSan. Honours FUZZ_SKIP_KNOWN like the
# fuzzer (a corpus grown with the skip lists may hold inputs that hit known
# bugs); replay.sh, the CI step, always builds without.
fuzz_build_replay() {
	local skip=
	[ "${FUZZ_SKIP_KNOWN:-0}" = 1 ] && skip=-DFUZZ_SKIP_KNOWN
	mkdir -p "$FUZZ_BUILD"
	# shellcheck disable=SC2046,SC2086
	"$FUZZ_CC" -g -O1 $FUZZ_SAN $skip $FUZZ_WARN -Isrc/include -Itest/fuzz \
		-o "$FUZZ_BUILD/replay_$1" test/fuzz/replay.c "test/fuzz/fuzz_$1.c" $(fuzz_sources "$1")
}

# fuzz_replay TARGET [EXTRA_DIR...]: replay the seed corpus, the regression
# inputs and the extra directories; prints "N passed, 0 failed"
fuzz_replay() {
	local t="$1" d dirs=()
	shift
	for d in "test/fuzz/corpus/$t" "test/fuzz/regressions/$t" "$@"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	printf '%-14s ' "$t"
	ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
		UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
		"$FUZZ_BUILD/replay_$t" "${dirs[@]}"
}
