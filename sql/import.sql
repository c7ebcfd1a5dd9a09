-- ====================================================================
-- IMPORT FOREIGN SCHEMA from the ClickHouse database regress_import
-- (see test/fixtures/ch_regress.sql): types, nullability, views,
-- awkward identifiers, LIMIT TO / EXCEPT and the options. Live (see
-- types.sql).
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_imp FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_imp;
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 1;

-- what IMPORT created, from the catalogs
CREATE VIEW imported_tables AS
  SELECT n.nspname, c.relname, s.srvname, ft.ftoptions
    FROM pg_foreign_table ft
    JOIN pg_class c ON c.oid = ft.ftrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_foreign_server s ON s.oid = ft.ftserver
   WHERE n.nspname LIKE 'imp%';
CREATE VIEW imported_columns AS
  SELECT n.nspname, c.relname, a.attnum, a.attname,
         format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull, a.attfdwoptions
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind = 'f' AND n.nspname LIKE 'imp%' AND a.attnum > 0 AND NOT a.attisdropped;

-- ==== the options are checked before anything is sent
CREATE SCHEMA imp_bad;
IMPORT FOREIGN SCHEMA regress_import FROM SERVER ch_imp INTO imp_bad OPTIONS (import_nulls 'true');
\echo :LAST_ERROR_SQLSTATE
IMPORT FOREIGN SCHEMA regress_import FROM SERVER ch_imp INTO imp_bad OPTIONS (import_views 'maybe');
\echo :LAST_ERROR_SQLSTATE
IMPORT FOREIGN SCHEMA regress_import FROM SERVER ch_imp INTO imp_bad
  OPTIONS (import_views 'false', import_views 'true');
\echo :LAST_ERROR_SQLSTATE
-- an unknown ClickHouse database
IMPORT FOREIGN SCHEMA no_such_database FROM SERVER ch_imp INTO imp_bad;
\echo :LAST_ERROR_SQLSTATE
-- a database exists but nothing matches: nothing is imported
IMPORT FOREIGN SCHEMA regress_import LIMIT TO (no_such_table) FROM SERVER ch_imp INTO imp_bad;
SELECT count(*) FROM imported_tables WHERE nspname = 'imp_bad';

-- ==== everything, default options: every 18.16 type, views and the
-- materialized view (its .inner. table is skipped), awkward identifiers;
-- a WARNING for each column whose type has no mapping (none here: the
-- AggregateFunction state is imported finalized, with the option aggregate)
CREATE SCHEMA imp_all;
IMPORT FOREIGN SCHEMA regress_import FROM SERVER ch_imp INTO imp_all;
SELECT relname, srvname, ftoptions FROM imported_tables
 WHERE nspname = 'imp_all' ORDER BY relname COLLATE "C";
SELECT relname, attnum, attname, type, attnotnull, attfdwoptions FROM imported_columns
 WHERE nspname = 'imp_all' ORDER BY relname COLLATE "C", attnum;

-- the data reads back with the imported types
\pset null '(null)'
SELECT id, u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, s, fs, d, dt, dtz
  FROM imp_all.all_types ORDER BY id;
SELECT id, dec9, dec18, dec38, u, e, n_i32, n_s, lc, lc_n, a_u8, a_a_s, a_n_i32, a_dec
  FROM imp_all.all_types ORDER BY id;
SELECT * FROM imp_all."Mixed Case ""quoted""" ORDER BY "Id";
SELECT * FROM imp_all.v_small ORDER BY id;
SELECT * FROM imp_all.mv_sums ORDER BY k;
\pset null ''
-- the columns without a binary mapping: the state reads finalized
-- (finalizeAggregation), the Tuple through read_as
SELECT k FROM imp_all.agg;
\set VERBOSITY terse
SELECT total FROM imp_all.agg;
SELECT pair FROM imp_all.agg;
\set VERBOSITY default

-- ==== LIMIT TO (remote names; a missing one is ignored) and EXCEPT
CREATE SCHEMA imp_limit;
IMPORT FOREIGN SCHEMA regress_import LIMIT TO (v_small, "Mixed Case ""quoted""", no_such_table)
  FROM SERVER ch_imp INTO imp_limit;
SELECT relname, ftoptions FROM imported_tables
 WHERE nspname = 'imp_limit' ORDER BY relname COLLATE "C";
CREATE SCHEMA imp_except;
IMPORT FOREIGN SCHEMA regress_import EXCEPT (all_types, agg)
  FROM SERVER ch_imp INTO imp_except;
SELECT relname, ftoptions FROM imported_tables
 WHERE nspname = 'imp_except' ORDER BY relname COLLATE "C";
-- a materialized view's inner table only when named
CREATE SCHEMA imp_inner;
IMPORT FOREIGN SCHEMA regress_import LIMIT TO (".inner.mv_sums")
  FROM SERVER ch_imp INTO imp_inner;
SELECT relname, ftoptions FROM imported_tables
 WHERE nspname = 'imp_inner' ORDER BY relname COLLATE "C";
SELECT * FROM imp_inner.".inner.mv_sums" ORDER BY k;

-- ==== import_not_null false: no NOT NULL anywhere
CREATE SCHEMA imp_nullable;
IMPORT FOREIGN SCHEMA regress_import LIMIT TO (v_small, "Mixed Case ""quoted""")
  FROM SERVER ch_imp INTO imp_nullable OPTIONS (import_not_null 'false');
SELECT relname, attname, type, attnotnull FROM imported_columns
 WHERE nspname = 'imp_nullable' ORDER BY relname COLLATE "C", attnum;

-- ==== import_views false: tables only (and no inner tables)
CREATE SCHEMA imp_tables;
IMPORT FOREIGN SCHEMA regress_import FROM SERVER ch_imp INTO imp_tables
  OPTIONS (import_views 'false', import_not_null 'on');
SELECT relname, ftoptions FROM imported_tables
 WHERE nspname = 'imp_tables' ORDER BY relname COLLATE "C";

-- ==== FixedString(N): text with its zero padding removed; ClickHouse never
-- compares the padded value (conditions and sorts on it stay local)
SELECT fs, length(fs), fs = 'x' AS is_x FROM imp_all.all_types ORDER BY id;
SELECT id FROM imp_all.all_types WHERE fs = 'x' OR fs LIKE 'ab%' ORDER BY fs;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM imp_all.all_types WHERE fs = 'x' ORDER BY fs;
-- a value that is not UTF-8 after its padding is removed: the hint names bytea
SELECT clickhouse_exec('ch_imp', 'CREATE TABLE regress_import.fs_bad (id UInt8, fs FixedString(2)) ENGINE = Memory');
SELECT clickhouse_exec('ch_imp', 'INSERT INTO regress_import.fs_bad VALUES (1, ''a''), (2, ''\xff'')');
CREATE SCHEMA imp_fs;
IMPORT FOREIGN SCHEMA regress_import LIMIT TO (fs_bad) FROM SERVER ch_imp INTO imp_fs;
SELECT * FROM imp_fs.fs_bad WHERE id = 1;
SELECT * FROM imp_fs.fs_bad ORDER BY id;
-- fixedstring_as_bytea: every byte, as before
CREATE SCHEMA imp_fs_bytea;
IMPORT FOREIGN SCHEMA regress_import LIMIT TO (fs_bad, all_types) FROM SERVER ch_imp INTO imp_fs_bytea
  OPTIONS (fixedstring_as_bytea 'true');
SELECT relname, attname, type, attfdwoptions FROM imported_columns
 WHERE nspname = 'imp_fs_bytea' AND attname = 'fs' ORDER BY relname COLLATE "C";
SELECT * FROM imp_fs_bytea.fs_bad ORDER BY id;
SELECT fs FROM imp_fs_bytea.all_types ORDER BY id;
IMPORT FOREIGN SCHEMA regress_import LIMIT TO (fs_bad) FROM SERVER ch_imp INTO imp_fs_bytea
  OPTIONS (fixedstring_as_bytea 'maybe');
SELECT clickhouse_exec('ch_imp', 'DROP TABLE regress_import.fs_bad');

-- ==== the README's type table matches what IMPORT creates: one row per
-- README row (keep in sync), with the all_types column of that type
SELECT m.clickhouse, m.readme, c.type AS imported,
       coalesce(to_regtype(m.readme) = to_regtype(c.type)
                AND (m.readme !~ '\(' OR m.readme = c.type), false) AS same
  FROM (VALUES
        ('UInt8', 'smallint', 'u8'), ('Int8', 'smallint', 'i8'), ('Int16', 'smallint', 'i16'),
        ('UInt16', 'integer', 'u16'), ('Int32', 'integer', 'i32'),
        ('UInt32', 'bigint', 'u32'), ('Int64', 'bigint', 'i64'),
        ('UInt64', 'numeric', 'u64'),
        ('Float32', 'real', 'f32'), ('Float64', 'double precision', 'f64'),
        ('String', 'text', 's'),
        ('FixedString(N)', 'text', 'fs'),
        ('Date', 'date', 'd'),
        ('DateTime', 'timestamptz', 'dt'), ('DateTime(''tz'')', 'timestamptz', 'dtz'),
        ('Decimal(9, 2)', 'numeric(9,2)', 'dec9'), ('Decimal(38, 10)', 'numeric(38,10)', 'dec38'),
        ('UUID', 'uuid', 'u'),
        ('Enum8', 'text', 'e'),
        ('Nullable(Int32)', 'integer', 'n_i32'),
        ('LowCardinality(String)', 'text', 'lc'),
        ('Array(UInt8)', 'smallint[]', 'a_u8'), ('Array(Array(String))', 'text[]', 'a_a_s'),
        ('Array(Nullable(Int32))', 'integer[]', 'a_n_i32'),
        ('Array(Decimal(9, 2))', 'numeric(9,2)[]', 'a_dec')
       ) AS m (clickhouse, readme, col)
  LEFT JOIN imported_columns c
    ON c.nspname = 'imp_all' AND c.relname = 'all_types' AND c.attname = m.col
 ORDER BY m.col;

-- ==== clean up
SET client_min_messages = warning;
DROP SCHEMA imp_fs, imp_fs_bytea, imp_all, imp_limit, imp_except, imp_inner, imp_nullable, imp_tables, imp_bad CASCADE;
DROP VIEW imported_tables, imported_columns;
DROP USER MAPPING FOR CURRENT_USER SERVER ch_imp;
DROP SERVER ch_imp;
