-- ====================================================================
-- Aggregates of expressions and the edges of issue 17's item 7 on the
-- ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test harness,
-- not a server). The body, shared with aggs2.sql (18.16), is
-- sql/include/aggs2.sql; then aggregates of expressions over a window.
-- Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_a2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_a2;
\i sql/include/aggs2.sql

-- ==== aggregates of expressions over a window (window functions: 21.9)
CREATE TABLE a2_l AS SELECT * FROM a2;
\i sql/include/diff_check.sql
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, sum(CASE WHEN a > 0 THEN 1 ELSE 0 END) OVER (PARTITION BY g ORDER BY id) FROM a2;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, sum(CASE WHEN a > 0 THEN 1 ELSE 0 END) OVER (PARTITION BY g ORDER BY id) FROM a2',
  'SELECT id, max(length(s)) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), count(coalesce(a, b)) OVER () FROM a2',
  'SELECT id, sum(coalesce(x, 0)) OVER (PARTITION BY g), min(a % 3) OVER (PARTITION BY g ORDER BY id) FROM a2'
]) q, diff_check(q, 'a2', '(WindowAgg|Sort|Aggregate)') c;
-- bool_and / bool_or of a condition over a window: sent since winagg
-- (window.c; suite modern_winagg)
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, bool_and(a > 0 OR ok) OVER (PARTITION BY g ORDER BY id) FROM a2'
]) q, diff_check(q, 'a2', '(WindowAgg|Sort|Aggregate)') c;
DROP TABLE a2_l;
DROP SERVER ch_a2 CASCADE;
