-- ====================================================================
-- Subtransactions: deferred inserts (insert_commit 'transaction') follow
-- savepoints exactly (RELEASE hands blocks to the parent, an abort drops
-- only its own), requests in flight survive the abort of an inner
-- subtransaction, and an early stop keeps its connection. Checked row for
-- row in ClickHouse. Live (ClickHouse 18.16).
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_sx FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_sx;
-- clickhouse_raw_query (and clickhouse_exec with rows in VALUES) are HTTP-only
-- (the native protocol answers with blocks and takes rows as blocks): they go
-- through this HTTP server on both runs
\getenv http_port CH_HTTP_PORT
CREATE SERVER ch_sx_http FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'http_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_sx_http;
SELECT clickhouse_exec('ch_sx', 'DROP TABLE IF EXISTS regress.sx');
SELECT clickhouse_exec('ch_sx', 'CREATE TABLE regress.sx (id Int32) ENGINE = MergeTree ORDER BY tuple()');
CREATE FOREIGN TABLE sx (id int) SERVER ch_sx OPTIONS (insert_commit 'transaction');
CREATE FOREIGN TABLE sx_now (id int) SERVER ch_sx OPTIONS (table 'sx', batch_size '1000');
-- what ClickHouse holds, row for row
CREATE FUNCTION sx_rows() RETURNS text LANGUAGE sql AS
$$ SELECT clickhouse_raw_query('ch_sx_http', 'SELECT arrayStringConcat(groupArray(toString(id)), '','') FROM (SELECT id FROM regress.sx ORDER BY id)') $$;
CREATE FUNCTION sx_reset() RETURNS void LANGUAGE sql AS
$$ SELECT clickhouse_exec('ch_sx', 'TRUNCATE TABLE regress.sx') $$;

-- ==== RELEASE moves the blocks to the parent; ROLLBACK TO drops only its own
BEGIN;
SAVEPOINT a; INSERT INTO sx VALUES (1); RELEASE a;
SAVEPOINT b; INSERT INTO sx VALUES (2); ROLLBACK TO b;
COMMIT;
SELECT sx_rows();

-- ==== nested savepoints
SELECT sx_reset();
BEGIN;
INSERT INTO sx VALUES (1);
SAVEPOINT a;
  INSERT INTO sx VALUES (2);
  SAVEPOINT b; INSERT INTO sx VALUES (3); RELEASE b;
  SAVEPOINT c; INSERT INTO sx VALUES (4); ROLLBACK TO c;
  INSERT INTO sx VALUES (5);
RELEASE a;
SAVEPOINT d;
  INSERT INTO sx VALUES (6);
  SAVEPOINT e; INSERT INTO sx VALUES (7); RELEASE e;
ROLLBACK TO d;
INSERT INTO sx VALUES (8);
COMMIT;
SELECT sx_rows();
-- a statement's blocks before and after a RELEASE, then a ROLLBACK TO of the rest
SELECT sx_reset();
BEGIN;
SAVEPOINT a; INSERT INTO sx SELECT g FROM generate_series(1, 3) g; RELEASE a;
SAVEPOINT b; INSERT INTO sx SELECT g FROM generate_series(4, 6) g;
SAVEPOINT c; INSERT INTO sx SELECT g FROM generate_series(7, 9) g; RELEASE c;
ROLLBACK TO b;
COMMIT;
SELECT sx_rows();
-- ROLLBACK drops everything; nothing was sent before COMMIT
SELECT sx_reset();
BEGIN;
SAVEPOINT a; INSERT INTO sx VALUES (1); RELEASE a;
SELECT sx_rows() AS before_commit;
ROLLBACK;
SELECT sx_rows();

-- ==== PL/pgSQL exception blocks (each BEGIN ... EXCEPTION is a subtransaction)
SELECT sx_reset();
DO $$
BEGIN
  FOR i IN 10..14 LOOP
    BEGIN
      INSERT INTO sx VALUES (i);
      IF i = 12 THEN RAISE EXCEPTION 'x'; END IF;
    EXCEPTION WHEN others THEN NULL;
    END;
  END LOOP;
END $$;
SELECT sx_rows();
-- nested exception blocks: the inner failure drops only the inner row
SELECT sx_reset();
DO $$
BEGIN
  BEGIN
    INSERT INTO sx VALUES (20);
    BEGIN
      INSERT INTO sx VALUES (21);
      RAISE EXCEPTION 'inner';
    EXCEPTION WHEN others THEN NULL;
    END;
    INSERT INTO sx VALUES (22);
  EXCEPTION WHEN others THEN NULL;
  END;
  BEGIN
    INSERT INTO sx VALUES (23);
    RAISE EXCEPTION 'outer';
  EXCEPTION WHEN others THEN NULL;
  END;
END $$;
SELECT sx_rows();
-- with insert_commit 'statement' each INSERT is in ClickHouse when it ends
-- (ClickHouse cannot take it back): the raised row 12 stays, as documented
SELECT sx_reset();
DO $$
BEGIN
  FOR i IN 10..14 LOOP
    BEGIN
      INSERT INTO sx_now VALUES (i);
      IF i = 12 THEN RAISE EXCEPTION 'x'; END IF;
    EXCEPTION WHEN others THEN NULL;
    END;
  END LOOP;
END $$;
SELECT sx_rows();

-- ==== a request in flight survives the abort of an inner subtransaction
-- an INSERT ... SELECT whose SELECT aborts a subtransaction for every row,
-- while the previous block is being sent: every row exactly once
CREATE FUNCTION sx_f(i int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  BEGIN PERFORM 1 / 0; EXCEPTION WHEN division_by_zero THEN NULL; END;
  RETURN i;
END $$;
SELECT sx_reset();
INSERT INTO sx_now SELECT sx_f(g) FROM generate_series(1, 20000) g;
SELECT clickhouse_raw_query('ch_sx_http', 'SELECT count(), uniqExact(id), min(id), max(id) FROM regress.sx');
-- an outer scan survives inner aborts (it used to fail in epoll_ctl())
CREATE FOREIGN TABLE sx_million (n bigint, s text) SERVER ch_sx OPTIONS (table 'million');
DO $$
DECLARE r record; c bigint := 0; s numeric := 0;
BEGIN
  FOR r IN SELECT n FROM sx_million LOOP
    IF c % 100000 = 0 THEN
      BEGIN PERFORM 1 / 0; EXCEPTION WHEN division_by_zero THEN NULL; END;
    END IF;
    c := c + 1; s := s + r.n;
  END LOOP;
  RAISE NOTICE 'rows %, sum %', c, s;
END $$;
-- a cursor opened before a savepoint goes on after ROLLBACK TO it
BEGIN;
DECLARE cur CURSOR FOR SELECT n FROM sx_million ORDER BY n;
FETCH 2 FROM cur;
SAVEPOINT s;
FETCH 2 FROM cur;
SELECT 1 / 0;
ROLLBACK TO s;
FETCH 2 FROM cur;
-- one opened inside a rolled back savepoint is gone, the other goes on
SAVEPOINT t;
DECLARE cur2 CURSOR FOR SELECT n FROM sx_million WHERE n > 500000 ORDER BY n;
FETCH 1 FROM cur2;
ROLLBACK TO t;
FETCH 1 FROM cur2;
ROLLBACK TO t;
FETCH 2 FROM cur;
COMMIT;

-- ==== early stops keep the connection (the rest of the response is read)
SELECT count(*) FROM (SELECT * FROM sx_million LIMIT 10 OFFSET 0) s;
SELECT tcp_connects AS before FROM clickhouse_fdw_connections() WHERE server = 'ch_sx' \gset
DO $$ BEGIN FOR i IN 1..20 LOOP
  PERFORM count(*) FROM (SELECT * FROM sx_million LIMIT 10 OFFSET 0) s;
END LOOP; END $$;
SELECT tcp_connects - :before AS new_connections FROM clickhouse_fdw_connections() WHERE server = 'ch_sx';
-- a small result the executor stops reading early (no remote LIMIT)
SELECT tcp_connects AS before FROM clickhouse_fdw_connections() WHERE server = 'ch_sx' \gset
DO $$ BEGIN FOR i IN 1..20 LOOP
  PERFORM n FROM sx_million WHERE n < 100 AND n::text <> '' LIMIT 1;
END LOOP; END $$;
SELECT tcp_connects - :before AS new_connections FROM clickhouse_fdw_connections() WHERE server = 'ch_sx';
-- an endless remainder is not read: over HTTP the request is abandoned (and
-- the query killed) and the next query opens a new connection; over native
-- TCP a Cancel packet ends it on the same connection
CREATE FOREIGN TABLE sx_numbers (number numeric) SERVER ch_sx
  OPTIONS (database 'system', table 'numbers');
SELECT tcp_connects AS before FROM clickhouse_fdw_connections() WHERE server = 'ch_sx' \gset
SELECT count(*) FROM (SELECT number FROM sx_numbers WHERE number::text <> '' LIMIT 3) s;
SELECT count(*) FROM sx_million WHERE n < 5;
SELECT tcp_connects - :before <= 1 AS at_most_one_new_connection
  FROM clickhouse_fdw_connections() WHERE server = 'ch_sx';

-- ==== clean up
SELECT clickhouse_exec('ch_sx', 'DROP TABLE regress.sx');
DROP FUNCTION sx_rows(), sx_reset(), sx_f(int);
DROP SERVER ch_sx, ch_sx_http CASCADE;
