/*-------------------------------------------------------------------------
 *
 * lowcard.c
 *	  (lcfix) The FROM and WHERE of a grouped, DISTINCT or window query over
 *	  one foreign table, and LowCardinality columns on servers that compute
 *	  their aggregates wrong.
 *
 *	  ClickHouse 18.16, where LowCardinality is experimental, computes
 *	  aggregates and DISTINCT of LowCardinality(Nullable(T)) columns wrong:
 *	  count(s) counted the NULL rows, sum(n) raised "Illegal type
 *	  Nullable(UInt32) of argument for aggregate function sum", min(s)
 *	  skipped values, uniqExact(s) and SELECT DISTINCT counted NULL rows as
 *	  values (15 distinct dates for 9); and a UNION ALL of grouping sets
 *	  over a LowCardinality key found no supertype for String and
 *	  LowCardinality(Nullable(String)). Its row-at-a-time functions and
 *	  conditions (WHERE s IS NULL) are right, and so is everything over
 *	  tuple(s).1, the column's values without LowCardinality (test lcfix).
 *
 *	  So on a server without the capability lc_values
 *	  (src/transport/transport.c) a grouped query over a table with
 *	  LowCardinality columns reads them from a sub-SELECT that names each
 *	  column of the foreign table, the LowCardinality ones as
 *	  "tuple(`c`).1 AS `c`", with the query's conditions inside it (read as
 *	  before, by the table's primary key): every aggregate, key, DISTINCT
 *	  and HAVING above sees plain (Nullable) columns of the same names.
 *	  Joins' sides are sub-SELECTs already (deparse.c, deparse_side; an
 *	  outer join's NULL-making side reads tuple(col).1 there).
 *
 * IDENTIFICATION
 *	  src/fdw/lowcard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "utils/rel.h"

#include "chfdw.h"

/* Does relid have a LowCardinality column that the server computes wrong? */
static bool
needs_plain_columns(RelOptInfo *baserel, Oid relid, TupleDesc desc)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) baserel->fdw_private;
	const ch_caps *caps = chfdw_caps_try(fp->userid, fp->serverid);
	int			i;

	if (!caps || caps->lc_values)
		return false;
	for (i = 0; i < desc->natts; i++)
		if (!TupleDescAttr(desc, i)->attisdropped &&
			chfdw_column_low_cardinality(relid, TupleDescAttr(desc, i)->attnum, fp->userid))
			return true;
	return false;
}

/*
 * chfdw_deparse_grouped_from
 *		"<db>.<table> [FINAL] [WHERE conds]" of a grouped, DISTINCT or
 *		window query over foreign table relid (baserel), or "(SELECT <its
 *		columns, LowCardinality ones as tuple(`c`).1 AS `c`> FROM <db>.<table>
 *		[FINAL] [WHERE conds])" where the server computes LowCardinality
 *		columns' aggregates wrong (see above).
 */
void
chfdw_deparse_grouped_from(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
						   List *conds)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) baserel->fdw_private;
	Relation	r = table_open(relid, NoLock);
	TupleDesc	desc = RelationGetDescr(r);
	List	   *names = NIL;
	int			i;

	if (!needs_plain_columns(baserel, relid, desc))
	{
		chfdw_deparse_table(buf, r);
		table_close(r, NoLock);
		chfdw_deparse_where(dp, buf, baserel, relid, conds);
		return;
	}
	appendStringInfoString(buf, "(SELECT ");
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		const char *name;
		bool		lowcard;

		if (att->attisdropped)
			continue;
		/* two foreign columns of one remote column (option column_name): once */
		name = chfdw_column_name(relid, att->attnum);
		if (list_member(names, makeString((char *) name)))
			continue;
		if (names != NIL)
			appendStringInfoString(buf, ", ");
		names = lappend(names, makeString((char *) name));
		lowcard = chfdw_column_low_cardinality(relid, att->attnum, fp->userid);
		if (lowcard)
			appendStringInfoString(buf, "tuple(");
		chfdw_quote_identifier(buf, name);
		if (lowcard)
		{
			appendStringInfoString(buf, ").1 AS ");
			chfdw_quote_identifier(buf, name);
		}
	}
	appendStringInfoString(buf, " FROM ");
	chfdw_deparse_table(buf, r);
	table_close(r, NoLock);
	chfdw_deparse_where(dp, buf, baserel, relid, conds);
	appendStringInfoChar(buf, ')');
}
