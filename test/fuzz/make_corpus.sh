#!/usr/bin/env bash
# test/fuzz/make_corpus.sh — regenerate the seed corpora in test/fuzz/corpus/
# from the golden files (test/golden/*/*.bin) and the hand-written type names
# in test/fuzz/types.txt. Not run by CI: the output is committed. Run it after
# adding goldens, then check the size (the committed corpus stays < 3 MB):
#   du -sh --apparent-size test/fuzz/corpus
#
# Seeds, per target (the first byte is the target's control byte, see the
# header comment of each fuzz_*.c):
#   native_reader  every golden Native file <= 256 KiB, HTTP framing fed in
#                  small chunks (04), and re-framed as TCP (0b); the content
#                  of the compressed goldens (TCP framing already, 01)
#   type_parser    every type name the goldens announce, plus types.txt
#   writer         <len><type name><64 value bytes> for each of those names
#   writer_bulk    hand-made schemas (header and column descriptors, see
#                  fuzz_writer_bulk.c) followed by 128 value bytes
#   decompress     the compressed goldens (00, and 06 = chunked), and a few
#                  goldens compressed here with NONE, LZ4 and ZSTD (30: the
#                  compression round trip with all three methods too)
#   tcp_decoder    the server side of the captured TCP exchanges
#                  (test/golden/tcp_v18_16/*.s2c) at revision 54412 with
#                  their compression (00 / 08) and chunked (10 / 18), plus the
#                  hand-made modern-revision streams of test/fuzz/tcp_seeds
# Uses only bash, coreutils and cc.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

MAX_SEED=262144
out=test/fuzz/corpus
tool=build/fuzz/corpus_tool
mkdir -p build/fuzz
cc -std=gnu11 -O1 -g -Isrc/include -o "$tool" test/fuzz/corpus_tool.c \
	src/common/ch_common.c src/codec/ch_native_reader.c src/codec/ch_type.c \
	src/codec/ch_compress.c src/codec/ch_cityhash.c -llz4 -lzstd

rm -rf "$out"
mkdir -p "$out"/{native_reader,type_parser,writer,writer_bulk,decompress,tcp_decoder}

# prefix BYTE_HEX FILE_OR_DASH > out: one control byte then the data
prefix() { printf "\\x$1"; cat "$2"; }
hexbytes() { printf "$(sed 's/../\\x&/g')"; }
sizeof() { stat -c %s "$1"; }

types_tmp=$(mktemp)
trap 'rm -f "$types_tmp"' EXIT

for f in test/golden/*/*.bin; do
	ver=$(basename "$(dirname "$f")")
	name=$(basename "$f" .bin)
	[ "$(sizeof "$f")" -le "$MAX_SEED" ] || continue
	case "$name" in
	rb_*) continue ;;			# RowBinary, not Native
	compress_*)
		prefix 00 "$f" >"$out/decompress/${ver}_$name"
		prefix 06 "$f" >"$out/decompress/${ver}_$name.chunked"
		tmp=$(mktemp)
		if "$tool" unframe "$f" >"$tmp" 2>/dev/null && [ "$(sizeof "$tmp")" -le "$MAX_SEED" ]; then
			prefix 01 "$tmp" >"$out/native_reader/${ver}_$name.tcp"
		fi
		rm -f "$tmp"
		continue
		;;
	esac
	prefix 04 "$f" >"$out/native_reader/${ver}_$name.http"
	tmp=$(mktemp)
	if "$tool" tcp "$f" >"$tmp" 2>/dev/null; then
		prefix 0b "$tmp" >"$out/native_reader/${ver}_$name.tcp"
	fi
	rm -f "$tmp"
	"$tool" types "$f" 2>/dev/null >>"$types_tmp" || true
done

# a few goldens as frame streams of every method
for g in test/golden/v18_16/table.bin test/golden/v18_16/lowcard_wide.bin \
	test/golden/v26_5/nullable.bin test/golden/v26_5/empty.bin; do
	[ -f "$g" ] || continue
	for m in none lz4 zstd; do
		tmp=$(mktemp)
		"$tool" frames "$m" "$g" >"$tmp"
		prefix 30 "$tmp" >"$out/decompress/$(basename "$(dirname "$g")")_$(basename "$g" .bin).$m"
		rm -f "$tmp"
	done
done
# a frame with an empty NONE payload (csize 9, dsize 0), checksum repaired by the harness
{ printf '\x01'; head -c 16 /dev/zero; printf '\x02\x09\x00\x00\x00\x00\x00\x00\x00'; } >"$out/decompress/empty_none_frame"

# type names: the goldens' and the hand-written ones, one file each
grep -v '^#' test/fuzz/types.txt | sed '/^$/d' >>"$types_tmp"
sort -u "$types_tmp" | while IFS= read -r t; do
	id=$(printf '%s' "$t" | sha256sum | cut -c1-12)
	printf '%s' "$t" >"$out/type_parser/$id"
	len=${#t}
	if [ "$len" -le 255 ]; then
		{
			printf "\\x$(printf '%02x' "$len")"
			printf '%s' "$t"
			printf '%s' "$t" | sha256sum | cut -c1-64 | hexbytes
			printf '%s.' "$t" | sha256sum | cut -c1-64 | hexbytes
		} >"$out/writer/$id"
	fi
done
# deep nesting: at the limit and one over
deep() { local s=UInt8 i; for ((i = 0; i < $1; i++)); do s="Array($s)"; done; printf '%s' "$s"; }
deep 31 >"$out/type_parser/deep31"
deep 32 >"$out/type_parser/deep32"
deep 33 >"$out/type_parser/deep33"

# writer_bulk: bulk_seed NAME HEX...: the header (byte 0 ncols - 1, byte 1
# rows, byte 2 flags, 8 bytes of batch plan seed), then 4 bytes per column
# (d0 leaf | wrapper << 5, d1 parameter, d2 NULL / bad / array / reuse
# shapes, d3 bulk call); 128 value bytes follow
bulk_seed() {
	local name="$1" hex
	shift
	hex=$(printf '%s' "$@")
	[ $((${#hex} % 2)) -eq 0 ] || { echo "bulk_seed $name: odd hex" >&2; exit 1; }
	{
		printf '%s' "$hex" | hexbytes
		for i in 0 1 2 3; do printf '%s.%d' "$name" "$i" | sha256sum | cut -c1-64 | hexbytes; done
	} >"$out/writer_bulk/$name"
}
# UInt8, Int64, Nullable(String), Float32, Decimal32(2), LowCardinality(String)
bulk_seed mixed_scalars 05c8000102030405060708 \
	00000000 07000000 34000100 11000000 0e020000 18008000
# UInt16, FixedString(3), Float32, Enum8, Nullable(Int8): out-of-range values
bulk_seed out_of_range 0496101122334455667788 \
	01000800 15020800 11000800 16010800 24000600
# Array(Nullable(Int32)), Map(String, Nullable(Float64)), Array(Array(String)),
# Map(LowCardinality(String), UInt8)
bulk_seed arrays_maps 0364002a2a2a2a2a2a2a2a \
	66000200 b2002100 d4000000 e000c000
# LowCardinality(Nullable(String)) of many entries, Array(LowCardinality(String)),
# LowCardinality(Nullable(FixedString(16)))
bulk_seed lowcard_many 02c800f00f0f0f0f0f0f0f \
	19000100 58006000 3e8f8100
# Date, Date32, DateTime64(9), Nullable(DateTime64(3, 'UTC')), Decimal64(18),
# Array(Decimal128(5)): a few bad values (out of range, NULL)
bulk_seed dates_decimals 05b4200123456789abcdef \
	09000400 0a000400 0c090400 2d030500 0f120400 5c050400
# Float64 and BFloat16 fed integers, Nullable(Float32) fed integers, Int32
# fed floats, String fed integers, Decimal32(4) fed strings
bulk_seed cross_kinds 0540005555555555555555 \
	120000e1 130000e1 310001e1 060000e2 140000e1 0e0400e0
# Int32 and String given NULLs (and out-of-range values)
bulk_seed null_into_not_nullable 0178000000000000000001 \
	06000800 14000800
# UInt8, Array(String), LowCardinality(String): no rows
bulk_seed empty 0200000000000000000000 \
	00000000 54000000 18000000
# FixedString(16), Nullable(FixedString(64)), Array(FixedString(1)): long
# and empty strings, a few over-long
bulk_seed fixedstring_edges 02c8307777777777777777 \
	150f0000 35bf0100 55000400
# Array(Nullable(String)), Map(String, Nullable(Int16)), Array(Array(Float32)),
# Nullable(Enum16), LowCardinality(Nullable(String)), BFloat16, with single
# appends mixed in, at = NULL, portable string copies
bulk_seed mix_single_bulk 05c8070f1e2d3c4b5a6978 \
	74001200 a5000100 d1003400 37000100 19004200 13000000
# Bool, UInt64 (any value), Int128, UInt128, LowCardinality(Nullable(UInt32)),
# UInt32
bulk_seed wide_ints 055a409988776655443322 \
	08000000 03000c00 1a000000 1b000400 3d000100 02000000

# tcp_decoder: two control bytes (revision/compression/chunks, allocation failure)
for f in test/golden/tcp_v18_16/*.s2c; do
	n=$(basename "$f" .s2c)
	case $n in *nocompress|multi_block|exception_after_data) c=0 ;; *) c=8 ;; esac
	{ printf "\\x0${c}\\x00"; cat "$f"; } >"$out/tcp_decoder/v18_16_$n"
	{ printf "\\x1${c}\\x00"; cat "$f"; } >"$out/tcp_decoder/v18_16_$n.chunked"
done
cp test/fuzz/tcp_seeds/* "$out/tcp_decoder/"

for d in "$out"/*; do
	printf '%-28s %4d files %8d bytes\n' "$d" "$(ls "$d" | wc -l)" "$(cat "$d"/* | wc -c)"
done
du -sh --apparent-size "$out"
