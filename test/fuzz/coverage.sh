#!/usr/bin/env bash
# test/fuzz/coverage.sh — source coverage of src/ reached by the fuzz corpora:
# builds each target's replay driver with clang's source-based coverage (no
# sanitizers), runs it over the committed corpus, the regressions and the
# corpus grown by run.sh (build/fuzz/work/<target>, if any), and prints
# llvm-cov's per-file report for the src/ files the target links.
#   test/fuzz/coverage.sh [target...]
# env: FUZZ_BUILD (build/fuzz), LLVM_SUFFIX (-14: llvm-cov-14, llvm-profdata-14)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. test/fuzz/common.sh

sfx="${LLVM_SUFFIX:--14}"
command -v "llvm-cov$sfx" >/dev/null || sfx=
out="$FUZZ_BUILD/cov"
mkdir -p "$out"
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(fuzz_targets | tr ' ' '\n'); fi

for t in "${targets[@]}"; do
	srcs=$(fuzz_sources "$t")
	# shellcheck disable=SC2086
	# with the skip lists: a grown corpus may hold inputs that hit known bugs
	"$FUZZ_CC" -g -O1 -fprofile-instr-generate -fcoverage-mapping -DFUZZ_SKIP_KNOWN \
		-Isrc/include -Itest/fuzz \
		-o "$out/replay_$t" test/fuzz/replay.c "test/fuzz/fuzz_$t.c" $srcs || exit 1
	dirs=()
	for d in "test/fuzz/corpus/$t" "test/fuzz/regressions/$t" "$FUZZ_BUILD/work/$t"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	rm -f "$out/$t".*.profraw
	LLVM_PROFILE_FILE="$out/$t.%p.profraw" "$out/replay_$t" "${dirs[@]}" >/dev/null 2>&1
	"llvm-profdata$sfx" merge -sparse "$out/$t".*.profraw -o "$out/$t.profdata"
	echo "== $t (${dirs[*]})"
	# shellcheck disable=SC2046
	"llvm-cov$sfx" report "$out/replay_$t" -instr-profile="$out/$t.profdata" \
		$(echo "$srcs" | tr ' ' '\n' | grep '^src/') |
		sed 's/^Filename/File    /'
	echo
done
