#!/usr/bin/env bash
# test/chdb/check.sh -- self-test of the chDB test harness (ClickHouse 26.5
# in-process; not a server): install/cached library, engine version, the
# goldens in test/golden/v26_5 are reproducible byte for byte, and
# roundtrip.py decodes a Native and a RowBinary golden.
#
#   bash test/chdb/check.sh        (~3 s once the library is cached; the first
#                                    run downloads ~166 MB with npm)
#
# Ends with a line "N passed, N failed"; exit status 1 if anything failed.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
G="$repo/test/golden/v26_5"
pass=0
fail=0

ok()  { pass=$((pass + 1)); echo "ok   - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }

lib="$(bash "$here/install.sh")" && [ -f "$lib" ] && ok "install.sh -> $lib" \
    || { bad "install.sh"; echo "0 passed, 1 failed"; exit 1; }

ver="$(python3 "$here/chdb.py" "SELECT version()" 2>&1)"
case "$ver" in
    26.5.*) ok "engine version $ver" ;;
    *) bad "engine version: $ver" ;;
esac

err="$(python3 "$here/chdb.py" "SELECT no_such_function()" 2>&1 >/dev/null)"
rc=$?
if [ $rc -eq 1 ] && [[ "$err" == *UNKNOWN_FUNCTION* ]]; then
    ok "engine errors reach stderr with exit 1"
else
    bad "error handling (rc=$rc): $err"
fi

if out="$(python3 "$here/make_goldens.py" --check 2>&1)"; then
    ok "goldens reproducible: ${out##*make_goldens: }"
else
    bad "make_goldens.py --check"; echo "$out" | sed 's/^/    /'
fi

want=$'0\t1\t\\N\t1.5\t-1.5\t\\N\t00112233-4455-6677-8899-aabbccddeeff\tab\t\\N\n1\t\\N\tabc\t-0.5\t\\N\t1969-12-31 23:59:59.999\t\\N\t\\N\t2019-01-02\n2\t-1\t\t\\N\t2.25\t1970-01-01 00:00:01.000\t\\N\tc\\0\t1970-01-01'
got="$(python3 "$here/roundtrip.py" --strict "$G/nullable.bin" \
    'i UInt8, n_i32 Nullable(Int32), n_str Nullable(String), n_f64 Nullable(Float64), n_dec Nullable(Decimal(9, 2)), n_dt64 Nullable(DateTime64(3)), n_uuid Nullable(UUID), n_fs Nullable(FixedString(2)), n_date Nullable(Date)' 2>&1)"
if [ "$got" = "$want" ]; then ok "roundtrip Native nullable.bin"; else bad "roundtrip Native nullable.bin:"$'\n'"$got"; fi

want='{"m":{"a":1,"b":2},"m_arr":{"k":["v",null]}}
{"m":{},"m_arr":{}}
{"m":{"c":3},"m_arr":{"e":[]}}'
got="$(python3 "$here/roundtrip.py" -f RowBinary -o JSONEachRow "$G/rb_map.bin" \
    'm Map(String, UInt64), m_arr Map(String, Array(Nullable(String)))' 2>&1)"
if [ "$got" = "$want" ]; then ok "roundtrip RowBinary rb_map.bin"; else bad "roundtrip RowBinary rb_map.bin:"$'\n'"$got"; fi

got="$(python3 "$here/roundtrip.py" --via-table "$G/lowcard_u32.bin" 'lc LowCardinality(String)' 2>&1 | tail -n1)"
if [ "$got" = "65599" ]; then ok "roundtrip --via-table lowcard_u32.bin"; else bad "roundtrip --via-table lowcard_u32.bin: $got"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
