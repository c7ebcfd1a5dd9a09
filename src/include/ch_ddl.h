/*-------------------------------------------------------------------------
 * ch_ddl.h
 *	  Reading just enough of a ClickHouse DDL statement to place its
 *	  ON CLUSTER clause, and the first arguments of a Distributed engine.
 *
 * Neither function rewrites anything: ch_ddl_on_cluster_at says where in
 * the statement, as written, the clause goes (or that it cannot tell),
 * ch_ddl_distributed_args reads names. Both follow ClickHouse's lexer
 * (src/Parsers/Lexer.cpp): whitespace, "--" and "/ * * /" comments, bare
 * words [A-Za-z_][A-Za-z0-9_]*, identifiers quoted with ` or " and string
 * literals with ', where a quote is escaped by a backslash or doubled.
 *
 * src/include/ch_ddl.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_DDL_H
#define CH_DDL_H

#include <stddef.h>

#include "ch_common.h"

/* the longest name ch_ddl_distributed_args returns, with its NUL */
#define CH_DDL_NAME_MAX 512

/*
 * ch_ddl_on_cluster_at
 *		The byte offset in sql[0, len) right after the name of the object a
 *		DDL statement changes, where ClickHouse's grammar puts
 *		"ON CLUSTER cluster" (src/Parsers/ParserCreateQuery.cpp,
 *		ParserDropQuery.cpp, ParserAlterQuery.cpp, ParserOptimizeQuery.cpp):
 *
 *		CREATE DATABASE [IF NOT EXISTS] db
 *		CREATE [MATERIALIZED] VIEW | TABLE [IF NOT EXISTS] [db.]name
 *		DROP DATABASE [IF EXISTS] db, DROP TABLE | VIEW [IF EXISTS] [db.]name
 *		ALTER TABLE [db.]name, OPTIMIZE TABLE [db.]name
 *		TRUNCATE [TABLE] [IF EXISTS] [db.]name
 *
 *		Anything else (RENAME, whose clause comes last; CREATE TEMPORARY;
 *		statements that are not DDL), a statement that already has ON
 *		CLUSTER after the name, or one this reader cannot follow (a nested
 *		comment, an unterminated quote) is CH_ERR_UNSUPPORTED with a message
 *		that says why; nothing is guessed. On CH_OK, *pos <= len.
 */
extern ch_status ch_ddl_on_cluster_at(const char *sql, size_t len, size_t *pos, ch_error *err);

/*
 * ch_ddl_distributed_args
 *		From a Distributed table's engine_full (system.tables), e.g.
 *		"Distributed(c, db, t, rand())" or "Distributed('c', 'db', 't')",
 *		its cluster, database and table (src/Storages/StorageDistributed.cpp:
 *		each an identifier or a string literal), unquoted into buffers of
 *		CH_DDL_NAME_MAX bytes. A database written currentDatabase() gives
 *		"" (the Distributed table's own database). Anything else is
 *		CH_ERR_UNSUPPORTED (an expression, a name too long, an escape other
 *		than of a quote or a backslash) or CH_ERR_MALFORMED.
 */
extern ch_status ch_ddl_distributed_args(const char *engine_full, char *cluster,
										 char *database, char *table, ch_error *err);

#endif							/* CH_DDL_H */
