-- ====================================================================
-- Bulk conversion on the ClickHouse 26.5 engine: the types 18.16 lacks
-- (Int128/256, UInt128/256, Decimal(76, x), UUID, Date32, DateTime64,
-- Bool) over a thousand rows (several chunks of the scan's bulk conversion,
-- src/fdw/convert.c), each value a function of id computed again by
-- PostgreSQL; numerics byte for byte what numeric_in makes of their text
-- (Decimal(76, 76) needs numeric's long header); DateTime64(9), converted
-- row at a time, mixed in. Live: needs the front of test/servers.sh
-- (CH_MODERN_PORT) and the fixtures of test/fixtures/modern_regress.sql.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_modern_bulk FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_modern_bulk;
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
\pset null '(null)'

CREATE FOREIGN TABLE bulk (id bigint, i128 numeric, u128 numeric, i256 numeric, u256 numeric,
  d76 numeric, d76s numeric, d38 numeric, u uuid, d32 date, dt3 timestamptz, dt6 timestamptz,
  dt9 timestamptz, b boolean, n_d76 numeric, lc_n text) SERVER ch_modern_bulk;

-- every generated row (OFFSET 0 keeps the comparisons in PostgreSQL)
SELECT count(*) AS rows,
  bool_and(i128 = ((CASE WHEN id % 2 = 1 THEN '-' ELSE '' END) || id || repeat('0', 30) || '1')::numeric) AS i128,
  bool_and(u128 = (id || repeat('9', 35))::numeric) AS u128,
  bool_and(i256 = ((CASE WHEN id % 3 = 0 THEN '-' ELSE '' END) || id || repeat('7', 70))::numeric) AS i256,
  bool_and(u256 = (id || repeat('1', 74))::numeric) AS u256,
  bool_and(d76 = ((CASE WHEN id % 2 = 0 THEN '-' ELSE '' END) || id || repeat('5', 50) || '.' || (id % 1000))::numeric
           AND scale(d76) = 20) AS d76,
  bool_and(d76s = ((CASE WHEN id % 2 = 1 THEN '-' ELSE '' END) || '0.' || repeat('0', (id % 70)::int) || id)::numeric
           AND scale(d76s) = 76) AS d76s,
  bool_and(d38 = ('0.' || repeat('0', (id % 30)::int) || id * 7)::numeric AND scale(d38) = 38) AS d38,
  bool_and(u = (lpad(to_hex(id), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(id * 31), 12, '0'))::uuid) AS u,
  bool_and(d32 = date '1900-01-01' + (id * 146)::int) AS d32,
  bool_and(dt3 = timestamptz 'epoch' + (id * 10413791999 - 2208988800000) * interval '1 millisecond') AS dt3,
  bool_and(dt6 = timestamptz 'epoch' + (id * 10413791999999 - 2208988800000000) * interval '1 microsecond') AS dt6,
  -- nanoseconds rounded half to even (row at a time)
  bool_and(dt9 = timestamptz 'epoch' + ((id * 1000000001500) / 1000 + CASE WHEN (id * 1000000001500) % 1000 > 500
           OR ((id * 1000000001500) % 1000 = 500 AND (id * 1000000001500) / 1000 % 2 = 1) THEN 1 ELSE 0 END)
           * interval '1 microsecond') AS dt9,
  bool_and(b = (id % 3 = 0)) AS b,
  bool_and(n_d76 IS NOT DISTINCT FROM CASE WHEN id % 4 = 0 THEN NULL ELSE (id || '.' || id % 7)::numeric END) AS n_d76,
  bool_and(lc_n IS NOT DISTINCT FROM CASE WHEN id % 5 = 0 THEN NULL ELSE 'n' || id % 11 END) AS lc_n,
  count(n_d76) AS n_d76_count, count(lc_n) AS lc_n_count
FROM (SELECT * FROM bulk OFFSET 0) x WHERE id < 1000;

-- DateTime64 declared timestamp: the wall time in UTC, whatever the session's zone
CREATE FOREIGN TABLE bulk_wall (id bigint, dt3 timestamp, dt6 timestamp, dt9 timestamp)
  SERVER ch_modern_bulk OPTIONS (table 'bulk');
SET timezone = 'Asia/Tokyo';
SELECT count(*) AS rows,
  bool_and(dt3 = (timestamptz 'epoch' + (id * 10413791999 - 2208988800000) * interval '1 millisecond') AT TIME ZONE 'UTC') AS dt3,
  bool_and(dt6 = (timestamptz 'epoch' + (id * 10413791999999 - 2208988800000000) * interval '1 microsecond') AT TIME ZONE 'UTC') AS dt6,
  bool_and(dt9 = (timestamptz 'epoch' + ((id * 1000000001500) / 1000 + CASE WHEN (id * 1000000001500) % 1000 > 500
           OR ((id * 1000000001500) % 1000 = 500 AND (id * 1000000001500) / 1000 % 2 = 1) THEN 1 ELSE 0 END)
           * interval '1 microsecond') AT TIME ZONE 'UTC') AS dt9
FROM (SELECT * FROM bulk_wall OFFSET 0) x WHERE id < 1000;
SELECT * FROM bulk_wall WHERE id >= 1000 ORDER BY id;
SET timezone = 'UTC';

-- numerics written directly are the bytes numeric_in makes of their text
SELECT bool_and(numeric_send(i128) = numeric_send(i128::text::numeric)) AS i128,
  bool_and(numeric_send(u128) = numeric_send(u128::text::numeric)) AS u128,
  bool_and(numeric_send(i256) = numeric_send(i256::text::numeric)) AS i256,
  bool_and(numeric_send(u256) = numeric_send(u256::text::numeric)) AS u256,
  bool_and(numeric_send(d76) = numeric_send(d76::text::numeric)) AS d76,
  bool_and(numeric_send(d76s) = numeric_send(d76s::text::numeric)) AS d76s,
  bool_and(numeric_send(d38) = numeric_send(d38::text::numeric)) AS d38,
  bool_and(n_d76 IS NULL OR numeric_send(n_d76) = numeric_send(n_d76::text::numeric)) AS n_d76
FROM (SELECT * FROM bulk OFFSET 0) x;

-- the ends of the ranges
\x on
SELECT * FROM bulk WHERE id >= 1000 ORDER BY id;
\x off
SELECT id, numeric_send(i128) = numeric_send(i128::text::numeric) AND numeric_send(u256) = numeric_send(u256::text::numeric)
  AND numeric_send(i256) = numeric_send(i256::text::numeric) AND numeric_send(d76) = numeric_send(d76::text::numeric)
  AND numeric_send(d76s) = numeric_send(d76s::text::numeric) AND numeric_send(d38) = numeric_send(d38::text::numeric) AS bytes
FROM bulk WHERE id >= 1000 ORDER BY id;

DROP SERVER ch_modern_bulk CASCADE;
