-- ====================================================================
-- Answers that were wrong (issue 12, item 9), ClickHouse 18.16: Tuple
-- columns declared as composite types, date and time over DateTime (and
-- their pushdown). Live. The body, shared with modern_answers.sql (26.5),
-- is sql/include/answers.sql.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_ans FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ans;
\i sql/include/answers.sql
-- 18.16 has no versioned AggregateFunction(1, f, ...) (see modern_answers.sql)
\set VERBOSITY terse
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE regress.ans_agg (k UInt8, s AggregateFunction(1, sumMap, Array(UInt8), Array(UInt64))) ENGINE = AggregatingMergeTree ORDER BY k');
\set VERBOSITY default
DROP SERVER ch_ans CASCADE;
DROP TYPE ans_t3, ans_n, ans_in, ans_td, ans_t2, ans_tu;
DROP TABLE ans_dt_local;
DROP FUNCTION ans_explain_analyze(text);
