/*-------------------------------------------------------------------------
 * test_ddl.c
 *	  ch_ddl: where ON CLUSTER goes in a DDL statement, and the names of a
 *	  Distributed engine.
 *
 * test/unit/test_ddl.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include "ch_ddl.h"

/* The statement with "|" where ch_ddl_on_cluster_at says the clause goes. */
static const char *
placed(const char *sql, char *out, size_t outlen)
{
	size_t		pos = (size_t) -1;
	ch_error	err;

	ch_error_clear(&err);
	if (ch_ddl_on_cluster_at(sql, strlen(sql), &pos, &err) != CH_OK)
	{
		snprintf(out, outlen, "ERR %s", err.message);
		return out;
	}
	snprintf(out, outlen, "%.*s|%s", (int) pos, sql, sql + pos);
	return out;
}

TEST(ddl_on_cluster_placed)
{
	static const char *const cases[][2] = {
		{"CREATE TABLE db.t (a UInt8) ENGINE = Memory", "CREATE TABLE db.t| (a UInt8) ENGINE = Memory"},
		{"create table t(a UInt8) ENGINE = Memory", "create table t|(a UInt8) ENGINE = Memory"},
		{"CREATE TABLE IF NOT EXISTS `d b`.`t``x` AS db.s", "CREATE TABLE IF NOT EXISTS `d b`.`t``x`| AS db.s"},
		{"CREATE TABLE \"a\\\"b\" . \"c.d\" (x UInt8)", "CREATE TABLE \"a\\\"b\" . \"c.d\"| (x UInt8)"},
		{"  -- a comment\n CREATE /* x; ON CLUSTER y */ TABLE t AS s", "  -- a comment\n CREATE /* x; ON CLUSTER y */ TABLE t| AS s"},
		{"CREATE DATABASE IF NOT EXISTS cl", "CREATE DATABASE IF NOT EXISTS cl|"},
		{"CREATE DATABASE cl ENGINE = Ordinary", "CREATE DATABASE cl| ENGINE = Ordinary"},
		{"CREATE MATERIALIZED VIEW db.mv TO db.t AS SELECT 1", "CREATE MATERIALIZED VIEW db.mv| TO db.t AS SELECT 1"},
		{"CREATE VIEW v AS SELECT 'ON CLUSTER'", "CREATE VIEW v| AS SELECT 'ON CLUSTER'"},
		{"DROP TABLE IF EXISTS db.t", "DROP TABLE IF EXISTS db.t|"},
		{"DROP DATABASE cl", "DROP DATABASE cl|"},
		{"DROP VIEW db.v", "DROP VIEW db.v|"},
		{"ALTER TABLE db.t ADD COLUMN c String DEFAULT 'x'", "ALTER TABLE db.t| ADD COLUMN c String DEFAULT 'x'"},
		{"ALTER TABLE t DELETE WHERE 1", "ALTER TABLE t| DELETE WHERE 1"},
		{"TRUNCATE TABLE db.t", "TRUNCATE TABLE db.t|"},
		{"TRUNCATE TABLE IF EXISTS t", "TRUNCATE TABLE IF EXISTS t|"},
		{"truncate t", "truncate t|"},
		{"OPTIMIZE TABLE db.t FINAL", "OPTIMIZE TABLE db.t| FINAL"},
		{"CREATE TABLE t--c\n(a UInt8)", "CREATE TABLE t|--c\n(a UInt8)"},
		{"CREATE TABLE t.", "ERR the statement's object name is not complete"},
	};
	char		buf[1100];
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_EQ_STR(placed(cases[i][0], buf, sizeof(buf)), cases[i][1]);
}

TEST(ddl_on_cluster_refused)
{
	static const char *const refused[] = {
		"", "   ", "-- only a comment", "SELECT 1", "INSERT INTO t VALUES (1)",
		"RENAME TABLE a TO b", "CREATE TEMPORARY TABLE t (a UInt8)", "DROP TEMPORARY TABLE t",
		"CREATE TABLE t ON CLUSTER c (a UInt8)", "ALTER TABLE db.t on cluster c DROP COLUMN x",
		"CREATE TABLE IF EXISTS t", "CREATE TABLE IF NOT t", "DROP TABLE IF NOT EXISTS t",
		"CREATE TABLE /* a /* nested */ comment */ t (a UInt8)", "CREATE TABLE /* open t",
		"CREATE TABLE `open (a UInt8)", "CREATE TABLE 't' (a UInt8)", "CREATE TABLE 1t (a UInt8)",
		"CREATE TABLE (a UInt8)", "CREATE OR REPLACE VIEW v AS SELECT 1", "CREATE MATERIALIZED TABLE t",
		"ALTER t ADD COLUMN x UInt8", "OPTIMIZE t", "ATTACH TABLE t", "DETACH TABLE t",
		"DROP DATABASE", "CREATE DATABASE db.x", "CREATE TABLE t /* ok */ /* /* */ (a UInt8)",
		"SYSTEM RELOAD DICTIONARIES", "WITH 1 AS x CREATE TABLE t",
	};
	size_t		i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
	{
		size_t		pos = 12345;
		ch_error	err;

		ch_error_clear(&err);
		if (!CHECK_STATUS(ch_ddl_on_cluster_at(refused[i], strlen(refused[i]), &pos, &err),
						  CH_ERR_UNSUPPORTED))
			fprintf(stderr, "  (statement: %s)\n", refused[i]);
		CHECK(err.message[0] != '\0');
	}
}

/* Every prefix of a statement is refused or placed inside the prefix. */
TEST(ddl_on_cluster_prefixes)
{
	const char *sql = "CREATE TABLE IF NOT EXISTS `d``b`.\"t\\\"x\" /* c */ (a UInt8) ENGINE = Memory";
	size_t		n = strlen(sql),
				k;

	for (k = 0; k <= n; k++)
	{
		size_t		pos = (size_t) -1;
		ch_error	err;
		ch_status	st;

		ch_error_clear(&err);
		st = ch_ddl_on_cluster_at(sql, k, &pos, &err);
		CHECK(st == CH_OK || st == CH_ERR_UNSUPPORTED);
		if (st == CH_OK)
			CHECK(pos <= k);
	}
}

TEST(ddl_distributed_args)
{
	static const char *const cases[][4] = {
		{"Distributed(chfdw_cluster, cl, events_local, id % 2)", "chfdw_cluster", "cl", "events_local"},
		{"Distributed('c', 'db', 'tbl')", "c", "db", "tbl"},
		{"Distributed(`c-1`, \"d\\\"b\", 'it''s', rand())", "c-1", "d\"b", "it's"},
		{"Distributed(c, currentDatabase(), t)", "c", "", "t"},
		{"Distributed(c, currentDatabase, t)", "c", "currentDatabase", "t"},
		{"Distributed( c , db , t ) SETTINGS x = 1", "c", "db", "t"},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char		c[CH_DDL_NAME_MAX],
					d[CH_DDL_NAME_MAX],
					t[CH_DDL_NAME_MAX];
		ch_error	err;

		ch_error_clear(&err);
		if (CHECK_STATUS(ch_ddl_distributed_args(cases[i][0], c, d, t, &err), CH_OK))
		{
			CHECK_EQ_STR(c, cases[i][1]);
			CHECK_EQ_STR(d, cases[i][2]);
			CHECK_EQ_STR(t, cases[i][3]);
		}
	}
}

TEST(ddl_distributed_args_refused)
{
	static const struct
	{
		const char *engine;
		ch_status	st;
	}			cases[] = {
		{"MergeTree ORDER BY id", CH_ERR_MALFORMED},
		{"Distributed", CH_ERR_MALFORMED},
		{"Distributed(c, db)", CH_ERR_MALFORMED},
		{"Distributed(c, concat('d', 'b'), t)", CH_ERR_UNSUPPORTED},
		{"Distributed(c, db, t || 'x')", CH_ERR_UNSUPPORTED},
		{"Distributed(c, db, '')", CH_ERR_UNSUPPORTED},
		{"Distributed(c, 'd\\nb', t)", CH_ERR_UNSUPPORTED},
		{"Distributed(c, db, 'open)", CH_ERR_UNSUPPORTED},
	};
	char		big[CH_DDL_NAME_MAX + 64];
	char		c[CH_DDL_NAME_MAX],
				d[CH_DDL_NAME_MAX],
				t[CH_DDL_NAME_MAX];
	size_t		i;
	ch_error	err;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		ch_error_clear(&err);
		if (!CHECK_STATUS(ch_ddl_distributed_args(cases[i].engine, c, d, t, &err), cases[i].st))
			fprintf(stderr, "  (engine: %s)\n", cases[i].engine);
	}
	/* a name longer than the buffers, bare and quoted */
	memcpy(big, "Distributed(c, db, ", 19);
	memset(big + 19, 'x', CH_DDL_NAME_MAX + 10);
	strcpy(big + 19 + CH_DDL_NAME_MAX + 10, ")");
	ch_error_clear(&err);
	CHECK_STATUS(ch_ddl_distributed_args(big, c, d, t, &err), CH_ERR_UNSUPPORTED);
	big[19] = '`';
	big[19 + CH_DDL_NAME_MAX + 9] = '`';
	ch_error_clear(&err);
	CHECK_STATUS(ch_ddl_distributed_args(big, c, d, t, &err), CH_ERR_UNSUPPORTED);
	/* the longest that fits */
	big[19 + CH_DDL_NAME_MAX] = '`';
	strcpy(big + 19 + CH_DDL_NAME_MAX + 1, ")");
	ch_error_clear(&err);
	if (CHECK_STATUS(ch_ddl_distributed_args(big, c, d, t, &err), CH_OK))
		CHECK_EQ_UINT(strlen(t), CH_DDL_NAME_MAX - 1);
}
