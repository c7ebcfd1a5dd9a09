#!/usr/bin/env bash
# test/bench/tcp.sh — full-scan benchmark of the native TCP transport
# (prints numbers; not a test). A 5,000,000-row events table (as
# test/bench/scan.sh) is read, in the same run, best of REPEAT:
#   a) by clickhouse-client --query "... FORMAT Null" (the reference),
#   b) through ch_transport.h over TCP (test/bench/tcp_scan.c: every block
#      decoded by the Native reader, then dropped), without and with LZ4,
#   c) the same over HTTP (no compression: 18.16 has no cheap HTTP one),
# and prints rows/s and the ratio of each to (a).
# Needs the servers of test/servers.sh (CH_TCP_PORT, CH_HTTP_PORT).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROWS="${ROWS:-5000000}"
REPEAT="${REPEAT:-3}"
eval "$(bash test/servers.sh env)"

have=$($CH_CLIENT --query "SELECT count() FROM bench.events" 2>/dev/null || echo 0)
if [[ "$have" != "$ROWS" ]]; then
	$CH_CLIENT --multiquery <<SQL
CREATE DATABASE IF NOT EXISTS bench;
DROP TABLE IF EXISTS bench.events;
CREATE TABLE bench.events (id UInt64, ts DateTime, user_id UInt32, kind String, amount Float64, note String, ref Nullable(String)) ENGINE = MergeTree ORDER BY id;
INSERT INTO bench.events SELECT number, toDateTime(1600000000 + number), number % 100000, concat('kind', toString(number % 50)), number / 7, substring('abcdefghijklmnopqrstuvwxyz', 1, number % 27), if(number % 3 = 0, NULL, toString(number)) FROM system.numbers LIMIT $ROWS;
SQL
fi

mkdir -p build/bench
cc -std=gnu11 -O2 -Isrc/include -Isrc/transport -o build/bench/tcp_scan test/bench/tcp_scan.c \
	src/common/*.c src/codec/*.c src/transport/*.c -lcurl -llz4 -lzstd -lssl -lcrypto

SQL="SELECT * FROM bench.events"
best=999999
for _ in $(seq "$REPEAT"); do
	s=$(date +%s.%N)
	$CH_CLIENT --query "$SQL FORMAT Null" >/dev/null
	e=$(date +%s.%N)
	best=$(echo "t = $e - $s; if (t < $best) t else $best" | bc -l)
done
client=$best
printf '%-34s %8.3f s %12.0f rows/s  ratio 1.00\n' "clickhouse-client FORMAT Null" "$client" \
	"$(echo "$ROWS / $client" | bc -l)"
run() {	# label kind port compression
	local out rows t
	out=$(build/bench/tcp_scan "$2" 127.0.0.1 "$3" "$4" "$REPEAT" "$SQL")
	rows=${out% *}; t=${out#* }
	[[ "$rows" == "$ROWS" ]] || { echo "$1: $rows rows, expected $ROWS"; exit 1; }
	printf '%-34s %8.3f s %12.0f rows/s  ratio %.2f\n' "$1" "$t" "$(echo "$rows / $t" | bc -l)" \
		"$(echo "$client / $t" | bc -l)"
}
run "ch_transport native, none" native "$CH_TCP_PORT" none
run "ch_transport native, lz4" native "$CH_TCP_PORT" lz4
run "ch_transport native, zstd" native "$CH_TCP_PORT" zstd
run "ch_transport http, none" http "$CH_HTTP_PORT" none
