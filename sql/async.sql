-- ====================================================================
-- Async foreign scans: an Append over foreign partitions starts every
-- partition's remote query before reading any of them (ForeignAsyncRequest /
-- ConfigureWait / Notify), each on its own connection of its user mapping's
-- pool. Answers must be the serial plan's; early stops, rescans, cursors,
-- errors and subtransaction aborts must leave the connections usable.
-- Live: needs the 18.16 server of test/servers.sh and the fixtures of
-- test/fixtures/ch_regress.sql (regress.async_p1..p4, async_slow).
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
CREATE SERVER ch_async1 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress');
CREATE SERVER ch_async2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_async1;
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_async2;
SET extra_float_digits = 0;

CREATE TABLE events (id bigint, grp int, v float8) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE events_1 PARTITION OF events FOR VALUES FROM (0) TO (100000)
  SERVER ch_async1 OPTIONS (table 'async_p1');
CREATE FOREIGN TABLE events_2 PARTITION OF events FOR VALUES FROM (100000) TO (200000)
  SERVER ch_async1 OPTIONS (table 'async_p2');
CREATE FOREIGN TABLE events_3 PARTITION OF events FOR VALUES FROM (200000) TO (300000)
  SERVER ch_async2 OPTIONS (table 'async_p3');
CREATE FOREIGN TABLE events_4 PARTITION OF events FOR VALUES FROM (300000) TO (400000)
  SERVER ch_async2 OPTIONS (table 'async_p4');
-- a local partition next to the foreign ones
CREATE TABLE events_5 PARTITION OF events FOR VALUES FROM (400000) TO (500000);
INSERT INTO events_5 SELECT 400000 + n, n % 7, n / 4.0 FROM generate_series(0, 999) n;

-- what every partition holds, computed by PostgreSQL
CREATE TEMP VIEW expected AS
  SELECT p * 100000 + n AS id, (n % 7)::int AS grp, n / 4.0::float8 AS v
  FROM generate_series(0, 3) p, generate_series(0, 19999) n
  UNION ALL SELECT id, grp, v FROM events_5;

-- ==== the Append's foreign partitions are async by default
EXPLAIN (COSTS OFF) SELECT * FROM events;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE grp = 3;
SELECT count(*), sum(id), sum(grp), sum(v) FROM events;
SELECT count(*), sum(id), sum(grp), sum(v) FROM expected;
-- both partitions of each server ran at the same time: two handles each
SELECT server, handles FROM clickhouse_fdw_connections()
  WHERE server LIKE 'ch_async%' ORDER BY server;
-- every row, compared with PostgreSQL's own
SELECT count(*) FROM (SELECT * FROM events EXCEPT ALL SELECT * FROM expected) d;
SELECT count(*) FROM (SELECT * FROM expected EXCEPT ALL SELECT * FROM events) d;
-- with a pushed WHERE
SELECT grp, count(*), sum(v) FROM events WHERE grp IN (1, 5) AND id % 3 = 0 GROUP BY grp ORDER BY grp;
SELECT grp, count(*), sum(v) FROM expected WHERE grp IN (1, 5) AND id % 3 = 0 GROUP BY grp ORDER BY grp;

-- ==== async_capable 'false' (server or table option) gives the serial plan, same answers
ALTER SERVER ch_async2 OPTIONS (ADD async_capable 'false');
EXPLAIN (COSTS OFF) SELECT * FROM events;
SELECT count(*), sum(id), sum(grp), sum(v) FROM events;
ALTER SERVER ch_async2 OPTIONS (DROP async_capable);
ALTER FOREIGN TABLE events_1 OPTIONS (ADD async_capable 'false');
EXPLAIN (COSTS OFF) SELECT * FROM events;
ALTER FOREIGN TABLE events_1 OPTIONS (DROP async_capable);
-- a bad value
ALTER SERVER ch_async1 OPTIONS (ADD async_capable 'maybe');
SET enable_async_append = off;
EXPLAIN (COSTS OFF) SELECT * FROM events;
RESET enable_async_append;

-- ==== early stop: LIMIT while the other partitions' queries are in flight,
-- then the connections serve the next queries
SELECT count(*) FROM (SELECT * FROM events LIMIT 10) l;
SELECT count(*) FROM (SELECT * FROM events WHERE grp = 2 LIMIT 3) l;
SELECT count(*), sum(id) FROM events;

-- ==== cursors: fetch a little, close, go on
BEGIN;
-- (rows come in whatever order the partitions answer: show what holds for any)
DECLARE c CURSOR FOR SELECT id % 100000 % 7 = 0 AS ok FROM events WHERE grp = 0;
FETCH 2 FROM c;
CLOSE c;
SELECT count(*) FROM events WHERE grp = 0;
COMMIT;

-- ==== rescans: the Append runs again for each outer row
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
EXPLAIN (COSTS OFF)
SELECT g.grp, (SELECT count(*) FROM events e WHERE e.grp = g.grp AND e.id % 1000 = 7) AS n
  FROM (VALUES (1), (3), (6)) g(grp) ORDER BY 1;
SELECT g.grp, (SELECT count(*) FROM events e WHERE e.grp = g.grp AND e.id % 1000 = 7) AS n
  FROM (VALUES (1), (3), (6)) g(grp) ORDER BY 1;
SELECT g.grp, (SELECT count(*) FROM expected e WHERE e.grp = g.grp AND e.id % 1000 = 7) AS n
  FROM (VALUES (1), (3), (6)) g(grp) ORDER BY 1;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- ==== a partition that fails: a clean error, and the others are stopped
CREATE TABLE events_bad (id bigint, grp int, v float8) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE events_bad_1 PARTITION OF events_bad FOR VALUES FROM (0) TO (100000)
  SERVER ch_async1 OPTIONS (table 'async_p1');
CREATE FOREIGN TABLE events_bad_2 PARTITION OF events_bad FOR VALUES FROM (100000) TO (200000)
  SERVER ch_async2 OPTIONS (table 'no_such_table');
\set VERBOSITY terse
SELECT count(*) FROM events_bad;
\set VERBOSITY default
SELECT count(*), sum(id) FROM events;
-- ... also inside a subtransaction, whose abort leaves the outer scan alone
BEGIN;
DECLARE outer_c CURSOR FOR SELECT grp BETWEEN 0 AND 6 AS ok FROM events;
FETCH 1 FROM outer_c;
SAVEPOINT s;
\set VERBOSITY terse
SELECT count(*) FROM events_bad;
\set VERBOSITY default
ROLLBACK TO s;
FETCH 1 FROM outer_c;
SELECT count(*) FROM events;
COMMIT;

-- ==== the partitions run at the same time: a slow partition next to three
-- others (each about 0.3 s when alone); EXPLAIN ANALYZE would show the time,
-- test/bench/async.sh measures it; here only the answers
CREATE TABLE slow_events (id bigint, grp int, v float8) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE slow_1 PARTITION OF slow_events FOR VALUES FROM (0) TO (100000)
  SERVER ch_async1 OPTIONS (table 'async_p1');
CREATE FOREIGN TABLE slow_4 PARTITION OF slow_events FOR VALUES FROM (300000) TO (400000)
  SERVER ch_async2 OPTIONS (table 'async_slow');
SELECT count(*), sum(id) FROM slow_events;

-- ==== a cancel (statement_timeout) while every partition waits on ClickHouse
-- (each takes 3 s): the statement ends at the timeout, the next one works
CREATE TABLE slower (id bigint, grp int, v float8) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE slower_1 PARTITION OF slower FOR VALUES FROM (0) TO (100000)
  SERVER ch_async1 OPTIONS (table 'async_slow3');
CREATE FOREIGN TABLE slower_2 PARTITION OF slower FOR VALUES FROM (100000) TO (200000)
  SERVER ch_async2 OPTIONS (table 'async_slow3');
SET statement_timeout = '300ms';
SELECT count(*) FROM slower;
RESET statement_timeout;
SELECT count(*), sum(id) FROM events;

-- ==== more partitions on one user mapping than async requests may run at
-- once (the pool keeps handles for other requests): the rest wait for a
-- handle and start as the first ones end; every partition's rows arrive
CREATE TABLE many (id bigint, grp int, v float8) PARTITION BY RANGE (id);
SELECT format('CREATE FOREIGN TABLE many_%s PARTITION OF many FOR VALUES FROM (%s) TO (%s) SERVER ch_async1 OPTIONS (table %L)',
              k, k * 100000, (k + 1) * 100000, 'async_p' || (k % 4 + 1))
  FROM generate_series(0, 13) k \gexec
EXPLAIN (COSTS OFF) SELECT count(*) FROM many;
SELECT count(*), count(DISTINCT id), sum(grp) FROM many;
SELECT 14 * 20000 AS expected_rows, 4 * 20000 AS distinct_ids;
-- with an early stop, and again; the pool never grew past 12 async handles
SELECT count(*) FROM (SELECT * FROM many LIMIT 5) l;
SELECT count(*) FROM many;
SELECT server, handles FROM clickhouse_fdw_connections()
  WHERE server = 'ch_async1';

DROP VIEW expected;
DROP TABLE events, events_bad, slow_events, slower, many;
DROP SERVER ch_async1 CASCADE;
DROP SERVER ch_async2 CASCADE;
