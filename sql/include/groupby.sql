-- ====================================================================
-- GROUP BY expressions, the HAVING split and partition-wise aggregation,
-- shared by groupby.sql (ClickHouse 18.16) and modern_groupby.sql (the
-- 26.5 engine behind test/chdb/front.py, a test harness, not a server).
-- Every query runs on the foreign table and on a local copy of the same
-- rows; gb_check says whether it was one Foreign Scan (pushed) and whether
-- the answers are equal (same, and in order where the query orders
-- totally). What stays local is checked to stay local, with its reason.
-- Then 120 random grouped queries (fixed seed) over keys, aggregates,
-- filters, HAVING and ORDER BY, at the ends of Date's and DateTime's
-- ranges and leap days. The caller has created servers ch_gb and ch_gb2
-- (the same ClickHouse) and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 0;
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_gb', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['gb', 'gbt', 'gbp1', 'gbp2', 'gbp3']) t;
SELECT clickhouse_exec('ch_gb', 'CREATE TABLE ' || :'ch_db' || '.gb (id Int32, a Nullable(Int32), s Nullable(String), d Date, tz DateTime, f Nullable(Float64), big Int32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_gb', 'INSERT INTO ' || :'ch_db' || '.gb VALUES
  (1, 1, ''Abc'', ''1970-01-01'', ''1970-01-01 00:00:00'', 1.5, 0),
  (2, NULL, ''abc'', ''2105-12-31'', ''2105-12-31 23:59:59'', nan, 1),
  (3, 7, NULL, ''1970-10-25'', ''2038-01-19 03:14:08'', -0.0, 2),
  (4, -5, '' x '', ''2000-02-29'', ''2000-02-29 12:30:00'', 0, 3),
  (5, 0, '''', ''2021-01-03'', ''2021-01-03 23:00:01'', NULL, 4),
  (6, 1, ''Ébc'', ''2021-01-04'', ''2020-12-31 00:00:00'', inf, 5),
  (7, -5, ''abc'', ''1970-01-04'', ''1970-01-01 00:00:01'', -inf, 6),
  (8, 2147483647, ''xyz b'', ''2020-02-29'', ''2020-02-29 00:00:00'', 2, 7),
  (9, -2147483648, ''  b'', ''1999-12-31'', ''1999-12-31 23:59:59'', 3, 8),
  (10, NULL, NULL, ''2000-01-01'', ''2000-01-01 00:00:00'', NULL, 2147483647)');
CREATE FOREIGN TABLE gb (id int, a int, s text, d date, tz timestamptz, f float8, big int)
  SERVER ch_gb OPTIONS (table 'gb');
CREATE TABLE gb_l AS SELECT * FROM gb;

-- gb_check(query, ordered): pushed (one Foreign Scan, nothing above it but
-- Limit) and same (the foreign and local answers as sorted multisets and,
-- if ordered, in order; or the same SQLSTATE raised by both, in err)
\i sql/include/diff_check.sql
CREATE FUNCTION gb_check(q text, ordered boolean DEFAULT false, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'gb|gbt|pt', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group)', ordered, true) $$;

-- ==== GROUP BY expressions, sent (EXPLAIN shows the Remote SQL)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' END AS sign, count(*), sum(id)
  FROM gb GROUP BY 1 ORDER BY 1 NULLS FIRST;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT extract(dow FROM d), date_part('hour', tz), count(*) FROM gb GROUP BY 1, 2;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id / 3 AS bucket, max(a) FROM gb GROUP BY id / 3 ORDER BY bucket DESC LIMIT 2;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT lower(s COLLATE "C"), btrim(s), count(*) FROM gb WHERE id > 1 GROUP BY 1, 2;
-- a key used only by ORDER BY and HAVING, not returned
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM gb GROUP BY substr(s, 2, 2) HAVING substr(s, 2, 2) <> 'bc' ORDER BY substr(s, 2, 2);
SELECT left(q, 72) AS query, c.* FROM (VALUES
  ($$SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' END AS sign, count(*), sum(id) FROM gb GROUP BY 1 ORDER BY 1 NULLS FIRST$$, true),
  ($$SELECT CASE WHEN d < '2000-01-01' THEN d END, count(*) FROM gb GROUP BY 1$$, false),
  ($$SELECT extract(year FROM d), extract(quarter FROM d), count(*) FROM gb GROUP BY 1, 2 ORDER BY 1, 2$$, true),
  ($$SELECT extract(dow FROM d), extract(isodow FROM d), count(*) FROM gb GROUP BY 1, 2 ORDER BY 1, 2$$, true),
  ($$SELECT extract(week FROM d), extract(isoyear FROM d), min(d) FROM gb GROUP BY 1, 2$$, false),
  ($$SELECT extract(epoch FROM d), extract(julian FROM d), count(*) FROM gb GROUP BY 1, 2$$, false),
  ($$SELECT extract(decade FROM d), extract(century FROM d), extract(millennium FROM d), count(*) FROM gb GROUP BY 1, 2, 3$$, false),
  ($$SELECT extract(month FROM tz), extract(day FROM tz), count(*) FROM gb GROUP BY 1, 2 ORDER BY 2 DESC, 1$$, true),
  ($$SELECT date_part('hour', tz), date_part('minute', tz), max(id) FROM gb GROUP BY 1, 2 ORDER BY 1 DESC, 2$$, true),
  ($$SELECT date_part('year', tz), date_part('isoyear', tz), count(*) FROM gb GROUP BY 1, 2$$, false),
  ($$SELECT id / 3 AS bucket, max(a) FROM gb GROUP BY id / 3 ORDER BY bucket DESC LIMIT 2$$, true),
  ($$SELECT id % 4, count(a), sum(a) FROM gb GROUP BY 1$$, false),
  ($$SELECT a + 1, count(*) FROM gb WHERE a < 100 GROUP BY 1$$, false),
  ($$SELECT a * 2 - 1, count(*) FROM gb WHERE a BETWEEN -100 AND 100 GROUP BY 1$$, false),
  ($$SELECT lower(s COLLATE "C"), upper(s COLLATE "C"), count(*) FROM gb GROUP BY 1, 2$$, false),
  ($$SELECT btrim(s), ltrim(s), rtrim(s), count(*) FROM gb GROUP BY 1, 2, 3$$, false),
  ($$SELECT strpos(s, 'b'), length(s), count(*) FROM gb GROUP BY 1, 2 ORDER BY 1 NULLS FIRST, 2$$, true),
  ($$SELECT substr(s, 2, 2), count(*) FROM gb GROUP BY 1$$, false),
  ($$SELECT s || '!', coalesce(a, -1), count(*) FROM gb GROUP BY 1, 2$$, false),
  ($$SELECT d - date '2000-01-01', count(*) FROM gb GROUP BY 1 ORDER BY 1$$, true),
  ($$SELECT a::text, count(*) FROM gb GROUP BY 1$$, false),
  ($$SELECT count(*) FROM gb GROUP BY substr(s, 2, 2) HAVING substr(s, 2, 2) <> 'bc' ORDER BY substr(s, 2, 2)$$, false),
  ($$SELECT lower(s COLLATE "C"), count(*) FROM gb GROUP BY 1 HAVING count(*) > 1$$, false),
  ($$SELECT extract(year FROM d), sum(a), count(*) FROM gb WHERE d > '1999-01-01' GROUP BY 1 HAVING sum(a) IS NOT NULL$$, false),
  ($$SELECT CASE WHEN s LIKE '%b%' THEN 1 ELSE 0 END, extract(dow FROM d), count(*), min(s) FROM gb GROUP BY 1, 2$$, false)
) v(q, o), gb_check(q, o) c;
-- a raising key (integer overflow) raises as in PostgreSQL, with its SQLSTATE
DO $$
BEGIN
  PERFORM big + 1, count(*) FROM gb GROUP BY 1;
  RAISE NOTICE 'no error';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'foreign: %', SQLSTATE;
END $$;
DO $$
BEGIN
  PERFORM big + 1, count(*) FROM gb_l GROUP BY 1;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'local: %', SQLSTATE;
END $$;
EXPLAIN (COSTS OFF) SELECT big + 1, count(*) FROM gb GROUP BY 1;

-- ==== GROUP BY expressions that stay local, and why
SELECT left(q, 72) AS query, c.* FROM (VALUES
  -- floats: ClickHouse groups -0 apart from 0 and (18.16) NaNs apart
  ($$SELECT f * 2, count(*) FROM gb GROUP BY 1$$),
  -- a numeric value that is not a date part: the Decimal scale is ClickHouse's
  ($$SELECT a::numeric / 3, count(*) FROM gb GROUP BY 1$$),
  -- raising arithmetic under LIMIT: PostgreSQL may stop before the row that raises
  ($$SELECT a + 1, count(*) FROM gb WHERE a < 100 GROUP BY 1 ORDER BY 1 LIMIT 1$$),
  -- a volatile key
  ($$SELECT a + (random() * 0)::int, count(*) FROM gb GROUP BY 1$$),
  -- lower() under a collation other than C (ClickHouse folds ASCII only)
  ($$SELECT lower(s), count(*) FROM gb GROUP BY 1$$),
  -- (dates) date_trunc of a timestamptz column under UTC: now sent (a key only)
  ($$SELECT date_trunc('month', tz), count(*) FROM gb GROUP BY 1$$),
  -- extract(second) / epoch of timestamptz, doy: not in the pushdown table
  ($$SELECT extract(doy FROM d), count(*) FROM gb GROUP BY 1$$),
  -- an output over a key expression (ClickHouse returns the key, not its pieces)
  ($$SELECT (a + 1) * 2, count(*) FROM gb WHERE a BETWEEN -100 AND 100 GROUP BY a + 1$$)
) v(q), gb_check(q) c;
-- timestamptz date parts under another TimeZone stay local
SET timezone = 'Europe/Berlin';
SELECT * FROM gb_check($$SELECT extract(year FROM tz), count(*) FROM gb GROUP BY 1$$);
SET timezone = 'UTC';

-- ==== HAVING split: the clauses ClickHouse cannot evaluate filter the
-- pushed groups in PostgreSQL (Filter on the Foreign Scan), from the
-- aggregates ClickHouse returns; postgres_fdw does the same
EXPLAIN (VERBOSE, COSTS OFF)
SELECT s, count(*) FROM gb GROUP BY s HAVING sum(a) > 0 AND avg(a) > 0.5;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT extract(year FROM d), count(*) FROM gb GROUP BY 1 HAVING avg(a) IS NOT NULL;
SELECT left(q, 72) AS query, c.* FROM (VALUES
  ($$SELECT s, count(*) FROM gb GROUP BY s HAVING sum(a) > 0 AND avg(a) > 0.5$$),
  ($$SELECT extract(year FROM d), count(*) FROM gb GROUP BY 1 HAVING avg(a) IS NOT NULL$$),
  ($$SELECT a, count(*) FROM gb GROUP BY a HAVING count(*) > 0 AND (avg(id) * 2)::int % 2 = 0$$)
) v(q), gb_check(q) c;
-- an aggregate ClickHouse cannot compute, in HAVING: the whole grouping is local
-- (PostgreSQL's planner gives one path for the grouped relation: its outputs
-- and HAVING aggregates are all computed by it or all by the Foreign Scan)
SELECT * FROM gb_check($$SELECT s, count(*) FROM gb GROUP BY s HAVING string_agg(s, ',' ORDER BY s, id DESC) <> 'x'$$);
-- HAVING with a local clause is not under a pushed LIMIT
EXPLAIN (VERBOSE, COSTS OFF)
SELECT a, count(*) FROM gb GROUP BY a HAVING avg(id) > 1 ORDER BY a LIMIT 2;
SELECT * FROM gb_check($$SELECT a, count(*) FROM gb GROUP BY a HAVING avg(id) > 1 ORDER BY a NULLS FIRST LIMIT 2$$, true);

-- ==== random grouped queries (fixed seed): keys, aggregates, filters,
-- HAVING, ORDER BY; every answer equal to the local copy's
CREATE FUNCTION gb_random(n int, OUT q text, OUT ordered boolean) LANGUAGE plpgsql AS $$
DECLARE
  keys text[] := ARRAY['a', 's', 'd', 'id / 3', 'id % 4', 'a + 1',
    $k$CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' END$k$,
    $k$CASE WHEN s IS NULL THEN d END$k$, 'lower(s COLLATE "C")', 'upper(s COLLATE "C")',
    'btrim(s)', 'ltrim(s)', $k$strpos(s, 'b')$k$, 'substr(s, 2, 2)', 'length(s)',
    'coalesce(a, -1)', $k$s || '.'$k$, $k$d - date '2000-01-01'$k$,
    'extract(year FROM d)', 'extract(month FROM d)', 'extract(dow FROM d)',
    'extract(isodow FROM d)', 'extract(quarter FROM d)', 'extract(week FROM d)',
    'extract(isoyear FROM d)', 'extract(epoch FROM d)', 'extract(day FROM tz)',
    $k$date_part('hour', tz)$k$, 'extract(minute FROM tz)', 'extract(year FROM tz)',
    'extract(century FROM tz)'];
  aggs text[] := ARRAY['count(*)', 'count(a)', 'sum(a)', 'sum(id)', 'min(d)', 'max(a)',
    'min(tz)', 'avg(id)', 'count(DISTINCT id)', 'max(s)'];
  filters text[] := ARRAY['', '', ' WHERE id > 3', ' WHERE a IS NOT NULL AND a < 1000',
    $f$ WHERE d >= '2000-01-01'$f$, ' WHERE id > 100'];
  k1 text;
  k2 text;
  nk int;
BEGIN
  k1 := keys[1 + floor(random() * cardinality(keys))::int];
  k2 := keys[1 + floor(random() * cardinality(keys))::int];
  nk := CASE WHEN random() < 0.5 OR k1 = k2 THEN 1 ELSE 2 END;
  q := 'SELECT ' || k1 || CASE WHEN nk = 2 THEN ', ' || k2 ELSE '' END || ', ' ||
    aggs[1 + floor(random() * cardinality(aggs))::int] || ', ' ||
    aggs[1 + floor(random() * cardinality(aggs))::int] ||
    ' FROM gb' || filters[1 + floor(random() * cardinality(filters))::int] ||
    ' GROUP BY ' || CASE WHEN nk = 2 THEN '1, 2' ELSE '1' END;
  IF random() < 0.3 THEN
    q := q || CASE WHEN random() < 0.5 THEN ' HAVING count(*) > 1' ELSE ' HAVING max(id) < 9' END;
  END IF;
  ordered := random() < 0.4;
  IF ordered THEN
    q := q || ' ORDER BY 1 DESC NULLS LAST' || CASE WHEN nk = 2 THEN ', 2 NULLS FIRST' ELSE '' END;
    IF random() < 0.5 THEN
      q := q || ' LIMIT 3';
    END IF;
  END IF;
END $$;
SELECT setseed(0.17);
CREATE TEMP TABLE gb_runs AS
  SELECT n, r.q, r.ordered, c.* FROM generate_series(1, 120) n, gb_random(n) r, gb_check(r.q, r.ordered) c;
SELECT count(*) AS queries, count(*) FILTER (WHERE same) AS same,
       count(*) FILTER (WHERE pushed) AS pushed, count(*) FILTER (WHERE err IS NOT NULL) AS raised,
       sum(nrows) AS rows FROM gb_runs;
-- any that differ (none)
SELECT n, q, err FROM gb_runs WHERE NOT same;
DROP FUNCTION gb_random(int);

-- ==== date parts of timestamp (without time zone) columns: the wall time
-- of a DateTime in its own zone (UTC when it names none), in any session
-- TimeZone, computed by ClickHouse in that zone (the zone is looked up in
-- the catalog when the query starts: EXPLAIN shows the column, the query
-- sent names the zone)
SET timezone = 'America/New_York';
SELECT clickhouse_exec('ch_gb', 'CREATE TABLE ' || :'ch_db' || '.gbt (id Int32, dt DateTime, dtk DateTime(''Asia/Tokyo''), n Nullable(DateTime)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_gb', 'INSERT INTO ' || :'ch_db' || '.gbt SELECT toInt32(i), toDateTime(t), toDateTime(t), if(i % 3 = 0, NULL, toDateTime(t)) FROM (SELECT arrayJoin(arrayEnumerate(a)) AS i, a[i] AS t FROM (SELECT [0, 1, 32399, 32400, 86399, 951782399, 951782400, 951868799, 1582934400, 1583020799, 1609459199, 1609459200, 4102444800, 4291714800, 4291743600, 4291747199, 4291747200, 4294771199] AS a))');
SELECT clickhouse_exec('ch_gb', 'INSERT INTO ' || :'ch_db' || '.gbt SELECT number + 100, toDateTime(toUInt32(number * 2654435761 % 4291747199)), toDateTime(toUInt32(number * 40503 * 65537 % 4291747199)), NULL FROM numbers(200)');
CREATE FOREIGN TABLE gbt (id int, dt timestamp, dtk timestamp, n timestamp) SERVER ch_gb OPTIONS (table 'gbt');
CREATE TABLE gbt_l AS SELECT * FROM gbt;
SELECT dt, dtk, n FROM gbt WHERE id < 3 ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT extract(year FROM dt), date_part('hour', dtk), count(*) FROM gbt GROUP BY 1, 2;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM gbt WHERE extract(hour FROM dtk) = 9 AND extract(minute FROM n) = 0;
SELECT left(q, 80) AS query, c.* FROM (VALUES
  ($$SELECT extract(year FROM dt), extract(month FROM dt), extract(day FROM dt), count(*) FROM gbt GROUP BY 1, 2, 3$$),
  ($$SELECT extract(hour FROM dt), extract(minute FROM dt), count(*) FROM gbt GROUP BY 1, 2$$),
  ($$SELECT extract(year FROM dtk), extract(month FROM dtk), extract(day FROM dtk), extract(hour FROM dtk), count(*) FROM gbt GROUP BY 1, 2, 3, 4$$),
  ($$SELECT extract(quarter FROM dtk), extract(week FROM dtk), extract(isoyear FROM dtk), count(*) FROM gbt GROUP BY 1, 2, 3$$),
  ($$SELECT extract(decade FROM dt), extract(century FROM dt), extract(millennium FROM dt), count(*) FROM gbt GROUP BY 1, 2, 3$$),
  ($$SELECT date_part('year', dt), date_part('hour', dtk), date_part('minute', n), count(*) FROM gbt GROUP BY 1, 2, 3$$),
  ($$SELECT extract(hour FROM n), count(*), sum(id) FROM gbt GROUP BY 1$$),
  ($$SELECT id FROM gbt WHERE extract(hour FROM dtk) = 9 AND extract(minute FROM n) = 0$$),
  ($$SELECT id FROM gbt WHERE date_part('year', dt) = 2020 OR extract(month FROM dtk) = 2$$),
  ($$SELECT extract(year FROM dt), count(*) FROM gbt GROUP BY 1 HAVING count(*) > 5$$),
  -- (dates) doy, dow and date_trunc now sent; extract's numeric second and
  -- epoch stay local as keys (Decimals: 18.16 crashed grouping by them)
  ($$SELECT extract(doy FROM dt), extract(dow FROM dt), count(*) FROM gbt GROUP BY 1, 2$$),
  ($$SELECT extract(second FROM dt), count(*) FROM gbt GROUP BY 1$$),
  ($$SELECT extract(epoch FROM dtk), count(*) FROM gbt GROUP BY 1$$),
  ($$SELECT date_trunc('day', dt), count(*) FROM gbt GROUP BY 1$$),
  -- (tskey) min/max of timestamp columns: sent (dtk, in Tokyo, on servers with Date32 only)
  ($$SELECT extract(hour FROM n), min(dt), max(dtk) FROM gbt GROUP BY 1$$),
  -- kept local: not a plain column
  ($$SELECT extract(hour FROM dt + interval '1 hour'), count(*) FROM gbt GROUP BY 1$$)
) v(q), gb_check(q) c;
SET timezone = 'UTC';

-- ==== partition-wise aggregation: a partitioned table over foreign
-- partitions on two servers; GROUP BY the partition key gives one grouped
-- query per partition, run concurrently (Async Foreign Scan)
SELECT clickhouse_exec('ch_gb', 'CREATE TABLE ' || :'ch_db' || '.gbp1 (k Int32, v Nullable(Int64), s String) ENGINE = MergeTree ORDER BY k');
SELECT clickhouse_exec('ch_gb', 'INSERT INTO ' || :'ch_db' || '.gbp1 SELECT number % 10, if(number % 7 = 0, NULL, number), toString(number % 3) FROM numbers(1000)');
SELECT clickhouse_exec('ch_gb2', 'CREATE TABLE ' || :'ch_db' || '.gbp2 (k Int32, v Nullable(Int64), s String) ENGINE = MergeTree ORDER BY k');
SELECT clickhouse_exec('ch_gb2', 'INSERT INTO ' || :'ch_db' || '.gbp2 SELECT 10 + number % 10, if(number % 5 = 0, NULL, number * 3), toString(number % 4) FROM numbers(1000)');
SELECT clickhouse_exec('ch_gb2', 'CREATE TABLE ' || :'ch_db' || '.gbp3 (k Int32, v Nullable(Int64), s String) ENGINE = MergeTree ORDER BY k');
CREATE TABLE pt (k int, v bigint, s text) PARTITION BY RANGE (k);
CREATE FOREIGN TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (10) SERVER ch_gb OPTIONS (table 'gbp1');
CREATE FOREIGN TABLE pt2 PARTITION OF pt FOR VALUES FROM (10) TO (20) SERVER ch_gb2 OPTIONS (table 'gbp2');
-- an empty partition
CREATE FOREIGN TABLE pt3 PARTITION OF pt FOR VALUES FROM (20) TO (30) SERVER ch_gb2 OPTIONS (table 'gbp3');
CREATE TABLE pt_l AS SELECT * FROM pt;
SET enable_partitionwise_aggregate = on;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k, count(*), sum(v), max(v) FROM pt GROUP BY k ORDER BY k;
-- keys beside the partition key, HAVING sent and HAVING kept local (avg)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k, s, count(*) FROM pt WHERE v > 10 GROUP BY k, s HAVING count(*) > 1 AND avg(v) > 1;
-- not grouped by the partition key: partial aggregation, each partition's
-- part of every group computed by ClickHouse (the aggregates whose
-- transition value is their result: count, sum of smallint/integer/double
-- precision, min, max), combined by PostgreSQL; HAVING
-- above the combined groups
EXPLAIN (VERBOSE, COSTS OFF)
SELECT s, count(*), count(v), max(v), min(k), sum(k) FROM pt GROUP BY s;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k % 3, min(s), max(s), count(*) FROM pt WHERE v IS NOT NULL GROUP BY 1 HAVING count(*) > 10;
-- no GROUP BY: the same, one row per partition
EXPLAIN (COSTS OFF)
SELECT count(*), max(k), sum(k) FROM pt;
-- kept local: sum(bigint), avg (their transition states are not a value
-- ClickHouse returns); then PostgreSQL aggregates each partition's rows
EXPLAIN (COSTS OFF)
SELECT s, sum(v) FROM pt GROUP BY s;
EXPLAIN (COSTS OFF)
SELECT s, avg(k) FROM pt GROUP BY s;
SELECT left(q, 72) AS query, c.same, c.nrows, c.err FROM (VALUES
  ($$SELECT s, count(*), count(v), max(v), min(k), sum(k) FROM pt GROUP BY s$$, false),
  ($$SELECT k % 3, min(s), max(s), count(*) FROM pt WHERE v IS NOT NULL GROUP BY 1 HAVING count(*) > 10$$, false),
  ($$SELECT s, max(v) - min(v), count(*) FROM pt WHERE k > 5 GROUP BY s ORDER BY s$$, true),
  ($$SELECT count(*), max(k), sum(k) FROM pt$$, false),
  ($$SELECT s, sum(v), avg(k) FROM pt GROUP BY s$$, false),
  ($$SELECT k, count(*), sum(v), max(v) FROM pt GROUP BY k ORDER BY k$$, true),
  ($$SELECT k, s, count(*), min(v) FROM pt WHERE v > 10 GROUP BY k, s HAVING count(*) > 1 AND avg(v) > 1$$, false),
  ($$SELECT k, k % 3 = 0, count(v) FROM pt GROUP BY k HAVING sum(v) > 40000$$, false),
  ($$SELECT s, count(*), sum(v) FROM pt GROUP BY s$$, false)
) v(q, o), gb_check(q, o) c;
-- each partition's grouped query in flight at once: two handles on ch_gb2
SELECT count(*) FROM (SELECT k, count(*) FROM pt GROUP BY k) g;
SELECT server, handles FROM clickhouse_fdw_connections()
  WHERE server LIKE 'ch_gb%' ORDER BY server;
-- without async scans, the same grouped queries one after the other
ALTER SERVER ch_gb2 OPTIONS (ADD async_capable 'false');
ALTER SERVER ch_gb OPTIONS (ADD async_capable 'false');
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM pt GROUP BY k;
SELECT same, nrows, err FROM gb_check($$SELECT k, count(*), sum(v) FROM pt GROUP BY k$$);
ALTER SERVER ch_gb OPTIONS (DROP async_capable);
ALTER SERVER ch_gb2 OPTIONS (DROP async_capable);
RESET enable_partitionwise_aggregate;
-- off: one Append of scans, aggregated in PostgreSQL
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM pt GROUP BY k;

DROP TABLE pt, pt_l, gb_l, gbt_l;
DROP FUNCTION gb_check(text, boolean);
SELECT clickhouse_exec('ch_gb', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['gb', 'gbt', 'gbp1', 'gbp2', 'gbp3']) t;
