-- ====================================================================
-- Body of real_arith.sql (ClickHouse 18.16) and modern_real_arith.sql (the
-- 26.5 engine behind test/chdb/front.py, a test harness, not a server):
-- `real op real` (float4pl, float4mi, float4mul, float4div) and `- real`,
-- sent as the Float64 operation rounded once to Float32 with float4pl & co.'s
-- overflow, underflow and division-by-zero errors (src/fdw/pushdown_map.c,
-- deparse_float_arith). Before, they stayed local (ClickHouse widens
-- Float32 arithmetic to Float64, which would keep bits PostgreSQL's real
-- rounds away). Each operation is compared with PostgreSQL's own over a
-- local copy: its value on every pair of 25 edge values (0, -0, the
-- subnormals, FLT_MIN, FLT_MAX, 2^24 + 1, NaN, +-Infinity, NULL ...) and
-- 200 seeded random pairs, in one sent condition "e = PostgreSQL's value";
-- the pairs on which PostgreSQL raises, their SQLSTATE and message compared
-- (all of one error together, and up to 30 each alone in a table). The caller has created server ch_ra and set :ch_db.
-- ====================================================================
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_ra', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['ra_pairs', 'ra_ok', 'ra_one']) t;
SELECT clickhouse_exec('ch_ra', 'CREATE TABLE ' || :'ch_db' || '.' || t ||
  ' (id Int32, a Nullable(Float32), b Nullable(Float32)' || CASE WHEN t = 'ra_ok' THEN ', ev Nullable(Float64)' ELSE '' END ||
  ') ENGINE = MergeTree ORDER BY id')
  FROM unnest(ARRAY['ra_pairs', 'ra_ok', 'ra_one']) t;
CREATE FOREIGN TABLE ra_pairs (id int, a real, b real) SERVER ch_ra OPTIONS (table 'ra_pairs');
CREATE FOREIGN TABLE ra_ok (id int, a real, b real, ev float8) SERVER ch_ra OPTIONS (table 'ra_ok');
CREATE FOREIGN TABLE ra_one (id int, a real, b real) SERVER ch_ra OPTIONS (table 'ra_one');
-- the pairs, written through the FDW (Float32 holds every real bit for bit)
CREATE TABLE ra_edges (v real);
INSERT INTO ra_edges VALUES (0), ('-0'), (1), (-1), (0.1), (0.3), (1.0/3), (2), (0.5),
  (16777216), (16777217), ('3.4028235e38'), ('-3.4028235e38'), ('1.7e38'),
  ('1.1754944e-38'), ('1.4e-45'), ('-1.4e-45'), ('1e-30'), ('1e30'), ('1e20'), ('1e-20'),
  ('Infinity'), ('-Infinity'), ('NaN'), (NULL);
SELECT setseed(0.17);
INSERT INTO ra_pairs
SELECT row_number() OVER (), a, b FROM (
  SELECT x.v AS a, y.v AS b FROM ra_edges x, ra_edges y
  UNION ALL
  SELECT ((random() - 0.5) * 10 ^ (random() * 76 - 38))::real,
         ((random() - 0.5) * 10 ^ (random() * 76 - 38))::real
    FROM generate_series(1, 200)) p;
CREATE TABLE ra_pairs_l AS SELECT * FROM ra_pairs;
SELECT count(*), count(*) FILTER (WHERE a IS NULL OR b IS NULL) AS with_null FROM ra_pairs_l;
-- the reals arrived bit for bit (text of a real is its shortest exact form)
SELECT count(*) AS differ FROM (SELECT id, a::text, b::text FROM ra_pairs
  EXCEPT SELECT id, a::text, b::text FROM ra_pairs_l) d;

\i sql/include/diff_expr.sql
-- the plans: the Float64 operation rounded to Float32, then the guards
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ra_pairs WHERE a + b > 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ra_pairs WHERE a / b < 0.5::real;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ra_pairs WHERE - a = b;
-- a real op a double is float48pl & co. (a double): sent as before
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ra_pairs WHERE a * 0.1::float8 > 1;
-- after AND the raising forms stay local (PostgreSQL may skip the row)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ra_pairs WHERE id > 3 AND a * b > 1;

-- each expression over the pairs: the pairs PostgreSQL computes go to ra_ok
-- (refilled for each expression) with PostgreSQL's value in ev, and the
-- rows where e::float8 - ev = 0 (the same finite value: -0 equals 0, as in
-- PostgreSQL; two float columns compared stay local, NaN), e is NaN, +-Inf
-- and NULL (each one sent condition) are compared with the local copy's;
-- checked counts the rows those conditions found (every pair once).
-- The pairs on which it raises: all pairs of one error together (the same
-- SQLSTATE and message from any of them), and up to 30 of them each alone
-- in ra_one (several rows raising different errors would let either error
-- be PostgreSQL's: the rows of a foreign scan come in no defined order).
CREATE FUNCTION ra_check(e text) RETURNS TABLE (pairs int, checked int, shipped boolean, same boolean,
  raising int, errors text[], kinds_same boolean, alone int, alone_same int, alone_shipped int)
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  d record;
  ok int[] := '{}';
  bad int[] := '{}';
  errs text[] := '{}';
  err text[] := '{}';
  k text;
  c text;
  step int;
  i int := 0;
  db text := current_setting('ra.db');
BEGIN
  FOR r IN SELECT id FROM ra_pairs_l ORDER BY id LOOP
    BEGIN
      EXECUTE format('SELECT (%s)::text FROM ra_pairs_l WHERE id = %s', e, r.id);
      ok := ok || r.id;
    EXCEPTION WHEN OTHERS THEN
      bad := bad || r.id;
      err := err || (SQLSTATE || ': ' || SQLERRM);
    END;
  END LOOP;
  PERFORM clickhouse_exec('ch_ra', 'TRUNCATE TABLE ' || db || '.ra_ok');
  DROP TABLE IF EXISTS ra_ok_l;
  EXECUTE format('CREATE TABLE ra_ok_l AS SELECT id, a, b, (%s)::float8 AS ev FROM ra_pairs_l WHERE id = ANY (%L)', e, ok);
  INSERT INTO ra_ok SELECT * FROM ra_ok_l;
  pairs := cardinality(ok);
  checked := 0;
  shipped := true; same := true;
  FOR c IN SELECT unnest(ARRAY['(%s)::float8 - ev = 0', '(%s) > ''Infinity''::float8',
                               '(%s) = ''Infinity''::real', '(%s) = ''-Infinity''::real', '(%s) IS NULL']) LOOP
    SELECT * INTO d FROM diff_check(format('SELECT id FROM ra_ok WHERE ' || c, e), 'ra_ok', 'Filter:');
    shipped := shipped AND d.pushed; same := same AND d.same AND d.err IS NULL;
    checked := checked + d.nrows;
  END LOOP;
  raising := cardinality(bad);
  kinds_same := true;
  FOR k IN SELECT DISTINCT x FROM unnest(err) x ORDER BY 1 LOOP
    errs := errs || k;
    PERFORM clickhouse_exec('ch_ra', 'TRUNCATE TABLE ' || db || '.ra_one');
    DROP TABLE IF EXISTS ra_one_l;
    CREATE TABLE ra_one_l AS SELECT p.* FROM ra_pairs_l p JOIN unnest(bad, err) b(id, x) USING (id) WHERE b.x = k;
    INSERT INTO ra_one SELECT * FROM ra_one_l;
    SELECT * INTO d FROM diff_expr(e, 'ra_one', 'values');
    kinds_same := kinds_same AND d.same AND d.shipped AND d.error = k;
  END LOOP;
  errors := errs;
  alone := 0; alone_same := 0; alone_shipped := 0;
  step := greatest(1, ceil(cardinality(bad) / 30.0)::int);
  FOR r IN SELECT p.* FROM ra_pairs_l p WHERE p.id = ANY (bad) ORDER BY p.id LOOP
    i := i + 1;
    CONTINUE WHEN (i - 1) % step <> 0;
    PERFORM clickhouse_exec('ch_ra', 'TRUNCATE TABLE ' || db || '.ra_one');
    INSERT INTO ra_one VALUES (r.id, r.a, r.b);
    DROP TABLE IF EXISTS ra_one_l;
    CREATE TABLE ra_one_l AS SELECT r.id AS id, r.a AS a, r.b AS b;
    SELECT * INTO d FROM diff_expr(e, 'ra_one', 'values');
    alone := alone + 1;
    IF d.same THEN alone_same := alone_same + 1; END IF;
    IF d.shipped THEN alone_shipped := alone_shipped + 1; END IF;
  END LOOP;
  RETURN NEXT;
END $$;
SELECT set_config('ra.db', :'ch_db', false) IS NOT NULL AS set;
SELECT e, c.* FROM unnest(ARRAY['a + b', 'a - b', 'a * b', 'a / b', '- a']) e, ra_check(e) c;
-- nested: a real result in real and double arithmetic
SELECT e, c.* FROM unnest(ARRAY['(a + b)::float8 - 0.5', 'a * b + 1::real', '(a - b) / 2::real']) e,
  ra_check(e) c;
DROP FUNCTION ra_check(text);
DROP TABLE ra_edges, ra_pairs_l, ra_ok_l, ra_one_l;
