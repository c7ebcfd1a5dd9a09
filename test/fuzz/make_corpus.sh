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
#   decompress     the compressed goldens (00, and 06 = chunked), and a few
#                  goldens compressed here with NONE, LZ4 and ZSTD (30: the
#                  compression round trip with all three methods too)
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
mkdir -p "$out"/{native_reader,type_parser,writer,decompress}

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

for d in "$out"/*; do
	printf '%-28s %4d files %8d bytes\n' "$d" "$(ls "$d" | wc -l)" "$(cat "$d"/* | wc -c)"
done
du -sh --apparent-size "$out"
