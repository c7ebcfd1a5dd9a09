# clickhouse_fdw — PostgreSQL foreign-data wrapper for ClickHouse
#
#   make && make install          build and install with PGXS (PG_CONFIG=...)
#   make installcheck             pg_regress (needs the servers of test/servers.sh)
#   make installcheck-native      the wire suites again over the native TCP transport
#   make unit                     codec/transport unit tests, no PostgreSQL needed
#   make unit-asan                the same under AddressSanitizer + UBSan
#   make COPT=-Werror             warnings as errors (what test/check.sh does)

EXTENSION = clickhouse_fdw
MODULE_big = clickhouse_fdw
DATA = sql/clickhouse_fdw--1.0.sql sql/clickhouse_fdw--1.0--1.1.sql sql/clickhouse_fdw--1.1--1.2.sql \
	sql/clickhouse_fdw--1.2--1.3.sql
PGFILEDESC = "clickhouse_fdw - foreign-data wrapper for ClickHouse"

CORE_SRCS = $(sort $(wildcard src/common/*.c src/codec/*.c src/transport/*.c))
FDW_SRCS = $(sort $(wildcard src/fdw/*.c))
CORE_OBJS = $(CORE_SRCS:.c=.o)
OBJS = $(CORE_OBJS) $(FDW_SRCS:.c=.o)

PG_CPPFLAGS = -Isrc/include -Isrc/fdw
SHLIB_LINK = -lcurl -llz4 -lzstd -lssl -lcrypto
EXTRA_CLEAN = build

REGRESS = options types convert_bulk scan errors insert import pushdown pushdown_exprs join_pushdown analyze transport transport_http modify security subxact cdc answers write_types collation async native pushdown_upper pushdown_functions key_join parallel declared_types groupby functions_more chfuncs subquery aggs dates jsonb_pushdown constants strfn subquery2 subquery3 chfuncs_join casts tochar
REGRESS_OPTS = --load-extension=clickhouse_fdw
# (audit) aggregates of expressions, item 7's edges
REGRESS += aggs2
# (lead) ts::date compared with a date, sent as a range (rewrite.c)
REGRESS += datecast
# (winagg) aggregates over windows
REGRESS += winagg
# (numagg) sum, avg and the variance family of numeric columns
REGRESS += numagg
# (regr) corr, covar_*, regr_* (src/fdw/agg_regr.c)
REGRESS += regr
# (dates18) date parts of timestamptz and date columns from the epoch
REGRESS += dates18
# (subq4) IS DISTINCT FROM of conditions, UNION ALL of one table twice
REGRESS += subquery4
# (lead) real op real rounded to Float32 with float4pl & co.'s errors
REGRESS += real_arith
# (numagg2) sums, averages, variances of wide integer and Decimal columns declared numeric
REGRESS += numagg2
# (lead) random differential queries across constructs (test/gen/xdiff.py)
REGRESS += xdiff
# (floatagg) float sum/avg/variance overflow (src/fdw/agg_float.c)
REGRESS += floatagg
# (casts2) pre-filters of local casts of text columns to date and numeric
REGRESS += casts2
# (dates5) to_char of Dates under timestamptz, date_part/date_trunc of dates, DateTime64(7..9) comparisons
REGRESS += dates5
# (guards2) float overflow guards: UNION ALL grouped path, grouping sets
REGRESS += guards2
# (numagg3) sums of Decimal128 (18.16) and 256-bit columns in limbs
REGRESS += numagg3
# (probes) plan-time capability probes never fail planning; FULL JOIN of LowCardinality
REGRESS += probes
REGRESS += interval
# (tskey) timestamp columns as grouping keys, DISTINCT outputs, ORDER BY keys, min/max/count(DISTINCT)
REGRESS += tskey
# (floathaving) HAVING with float aggregates sent after the guards; many float aggregates
REGRESS += floathaving
# (lcfix) aggregates, DISTINCT and grouping sets over LowCardinality columns; joins' count(*) alone
REGRESS += lcfix

# Stricter warnings for the PostgreSQL-free layers.
CORE_WARN = -Wall -Wextra -Wshadow -Wcast-align -Wstrict-prototypes -Wundef -Wvla \
	-Wno-unused-parameter

PG_CONFIG ?= pg_config

# Goals that need no PostgreSQL at all.
UNIT_GOALS = unit unit-asan unit-build unit-asan-build contract contract-asan contract-build fuzz fuzz-replay bench-codec clean-unit
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out $(UNIT_GOALS),$(MAKECMDGOALS)),)
NO_PGXS = 1
endif
endif

ifndef NO_PGXS
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
$(CORE_OBJS): CFLAGS += $(CORE_WARN)
# every object depends on every header: cheap, and never a stale struct layout
$(OBJS): $(wildcard src/include/*.h src/codec/*.h src/fdw/*.h)
endif

# ---- unit tests (PostgreSQL-free) ----
UNIT_CC ?= cc
UNIT_SRCS = $(sort $(wildcard test/unit/*.c))
UNIT_CFLAGS = -std=gnu11 -g -O1 $(CORE_WARN) -Isrc/include -Itest/unit
UNIT_LIBS = -lcurl -llz4 -lzstd -lssl -lcrypto
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

build/unit/run_tests: $(UNIT_SRCS) $(CORE_SRCS) $(wildcard src/include/*.h src/codec/*.h test/unit/*.h test/include/*.h)
	@mkdir -p build/unit
	$(UNIT_CC) $(UNIT_CFLAGS) -o $@ $(UNIT_SRCS) $(CORE_SRCS) $(UNIT_LIBS)

build/unit-asan/run_tests: $(UNIT_SRCS) $(CORE_SRCS) $(wildcard src/include/*.h src/codec/*.h test/unit/*.h test/include/*.h)
	@mkdir -p build/unit-asan
	$(UNIT_CC) $(UNIT_CFLAGS) $(SAN_FLAGS) -o $@ $(UNIT_SRCS) $(CORE_SRCS) $(UNIT_LIBS)

unit-build: build/unit/run_tests
unit-asan-build: build/unit-asan/run_tests

unit: build/unit/run_tests
	build/unit/run_tests test/golden
	bash test/unit/runner_selftest.sh

unit-asan: build/unit-asan/run_tests
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/unit-asan/run_tests test/golden

clean-unit:
	rm -rf build

.PHONY: unit unit-asan unit-build unit-asan-build clean-unit

# ---- transport contract (PostgreSQL-free; needs the live 18.16 server) ----
# Both transports against the ClickHouse of `bash test/servers.sh start`
# (CH_HTTP_PORT, CH_TCP_PORT from `bash test/servers.sh env`).
CONTRACT_SRCS = $(sort $(wildcard test/contract/*.c)) test/unit/main.c test/unit/unit_util.c
build/contract/run_contract: $(CONTRACT_SRCS) $(CORE_SRCS) $(wildcard src/include/*.h src/codec/*.h src/transport/*.h test/unit/*.h)
	@mkdir -p build/contract
	$(UNIT_CC) $(UNIT_CFLAGS) -Isrc/transport -o $@ $(CONTRACT_SRCS) $(CORE_SRCS) $(UNIT_LIBS)

build/contract-asan/run_contract: $(CONTRACT_SRCS) $(CORE_SRCS) $(wildcard src/include/*.h src/codec/*.h src/transport/*.h test/unit/*.h)
	@mkdir -p build/contract-asan
	$(UNIT_CC) $(UNIT_CFLAGS) $(SAN_FLAGS) -Isrc/transport -o $@ $(CONTRACT_SRCS) $(CORE_SRCS) $(UNIT_LIBS)

contract-build: build/contract/run_contract
contract: build/contract/run_contract
	build/contract/run_contract test/golden

contract-asan: build/contract-asan/run_contract
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/contract-asan/run_contract test/golden

.PHONY: contract contract-asan contract-build

# ---- fuzzing and codec benchmark (PostgreSQL-free; clang with libFuzzer) ----
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=2 test/fuzz/run.sh

fuzz-replay:
	test/fuzz/replay.sh

bench-codec:
	test/bench/codec.sh

.PHONY: fuzz fuzz-replay bench-codec

# ---- modern-engine regression tests (ClickHouse 26.5: chDB behind test/chdb/front.py) ----
# Needs the front of `bash test/servers.sh start` (CH_MODERN_PORT, default 18124) and
# its fixtures:  python3 test/chdb/front.py --load test/fixtures/modern_regress.sql
# Own database and output directory (build/modern/: results/, regression.diffs), so it
# never mixes with `make installcheck`.
REGRESS_MODERN = modern_types modern_convert_bulk modern_insert modern_errors modern_composite modern_pushdown modern_pushdown_base modern_pushdown_exprs modern_join_pushdown modern_cdc modern_answers modern_write_types modern_nested_json modern_explain modern_pushdown_upper modern_pushdown_functions modern_key_join modern_parallel modern_groupby modern_functions_more modern_chfuncs modern_chfuncs_join modern_subquery modern_aggs modern_dates modern_jsonb_pushdown modern_constants modern_strfn modern_subquery2 modern_casts modern_subquery3 modern_tochar
# (audit) aggregates of expressions, item 7's edges
REGRESS_MODERN += modern_aggs2
# (lead) ts::date compared with a date, sent as a range (rewrite.c)
REGRESS_MODERN += modern_datecast
# (winagg) aggregates over windows
REGRESS_MODERN += modern_winagg
# (numagg) sum, avg and the variance family of numeric columns
REGRESS_MODERN += modern_numagg
# (regr) corr, covar_*, regr_* (src/fdw/agg_regr.c)
REGRESS_MODERN += modern_regr
# (dates18) date parts of timestamptz and date columns from the epoch
REGRESS_MODERN += modern_dates18
# (subq4) IS DISTINCT FROM of conditions, UNION ALL of one table twice
REGRESS_MODERN += modern_subquery4
# (lead) real op real rounded to Float32 with float4pl & co.'s errors
REGRESS_MODERN += modern_real_arith
# (numagg2) sums, averages, variances of wide integer and Decimal columns declared numeric
REGRESS_MODERN += modern_numagg2
# (lead) random differential queries across constructs (test/gen/xdiff.py)
REGRESS_MODERN += modern_xdiff
# (floatagg) float sum/avg/variance overflow (src/fdw/agg_float.c)
REGRESS_MODERN += modern_floatagg
# (casts2) pre-filters of local casts of text columns to date and numeric
REGRESS_MODERN += modern_casts2
# (dates5) to_char of Dates under timestamptz, date_part/date_trunc of dates, DateTime64(7..9) comparisons
REGRESS_MODERN += modern_dates5
# (guards2) float overflow guards: UNION ALL grouped path, grouping sets
REGRESS_MODERN += modern_guards2
# (numagg3) sums of Decimal128 (18.16) and 256-bit columns in limbs
REGRESS_MODERN += modern_numagg3
# (probes) plan-time capability probes never fail planning; FULL JOIN of LowCardinality
REGRESS_MODERN += modern_probes
REGRESS_MODERN += modern_interval
# (tskey) timestamp columns as grouping keys, DISTINCT outputs, ORDER BY keys, min/max/count(DISTINCT)
REGRESS_MODERN += modern_tskey
# (dt64) DateTime64(7..9) columns in keys, comparisons and date functions as PostgreSQL reads them
REGRESS_MODERN += modern_dt64
# (floathaving) HAVING with float aggregates sent after the guards; many float aggregates
REGRESS_MODERN += modern_floathaving
# (lcfix) aggregates, DISTINCT and grouping sets over LowCardinality columns; joins' count(*) alone
REGRESS_MODERN += modern_lcfix
installcheck-modern:
	@mkdir -p build/modern
	$(pg_regress_installcheck) $(REGRESS_OPTS) --dbname=contrib_regression_modern \
		--outputdir=build/modern $(REGRESS_MODERN)

.PHONY: installcheck-modern

# ---- the wire suites over the native TCP transport ----
# The suites that touch the wire read their transport and port from
# CH_TEST_TRANSPORT and CH_TEST_PORT (psql \getenv): installcheck runs them over
# HTTP (CH_HTTP_PORT), installcheck-native over TCP (CH_TCP_PORT of
# `bash test/servers.sh env`) against the same expected files. Own database and
# output directory (build/native/), as installcheck-modern.
REGRESS_NATIVE = types convert_bulk scan errors insert pushdown analyze transport modify subxact cdc collation declared_types functions_more chfuncs chfuncs_join dates constants
installcheck: export CH_TEST_TRANSPORT = http
installcheck: export CH_TEST_PORT = $(CH_HTTP_PORT)
installcheck-native: export CH_TEST_TRANSPORT = native
installcheck-native: export CH_TEST_PORT = $(CH_TCP_PORT)
installcheck-native:
	@test -n "$(CH_TCP_PORT)" || { echo "CH_TCP_PORT is not set: eval \"\$$(bash test/servers.sh env)\""; exit 1; }
	@mkdir -p build/native
	$(pg_regress_installcheck) $(REGRESS_OPTS) --dbname=contrib_regression_native \
		--outputdir=build/native $(REGRESS_NATIVE)

.PHONY: installcheck-native
