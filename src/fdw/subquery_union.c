/*-------------------------------------------------------------------------
 * subquery_union.c
 *	  Which member of a UNION ALL names its columns (issue 17, subq4).
 *
 * The UNION ALL sent by subquery.c names its columns in its first SELECT
 * (ClickHouse takes a UNION's names from its first member), by the first
 * member's own columns (chfdw_var_alias), and the grouping keys,
 * aggregates and sort keys are deparsed over that member's columns. So no
 * two columns of the union may be the same column of that member: in
 * "SELECT a, a FROM t UNION ALL SELECT a, b FROM t" both would be named
 * after t.a, and an expression of the second would read the first in the
 * other members. Any member whose columns are all distinct can name them
 * instead: the members' order does not change a UNION ALL's rows (a
 * multiset), so subquery.c writes that member first. A table may come
 * twice or more, with the same or other conditions: each member is its
 * own scan, its conditions its own.
 *
 * src/fdw/subquery_union.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/pg_list.h"

#include "chfdw.h"

/*
 * leg_cols: per member, the List of its columns (Vars) for the union's
 * columns that are columns in every member, in one order. The index of
 * the first member without two equal columns, or -1 if none.
 */
int
chfdw_union_naming_member(List *leg_cols)
{
	ListCell   *lc;

	foreach(lc, leg_cols)
	{
		List	   *cols = (List *) lfirst(lc);
		List	   *seen = NIL;
		ListCell   *lc2;
		bool		distinct = true;

		foreach(lc2, cols)
		{
			if (list_member(seen, lfirst(lc2)))
			{
				distinct = false;
				break;
			}
			seen = lappend(seen, lfirst(lc2));
		}
		list_free(seen);
		if (distinct)
			return foreach_current_index(lc);
	}
	return -1;
}
