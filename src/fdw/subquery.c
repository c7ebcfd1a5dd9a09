/*-------------------------------------------------------------------------
 * subquery.c
 *	  GROUP BY and aggregates, ORDER BY and LIMIT over a UNION ALL of
 *	  foreign tables of one server, and correlated scalar subqueries in a
 *	  foreign table's conditions, computed by ClickHouse.
 *
 * PostgreSQL flattens "SELECT ... FROM (SELECT ... FROM a UNION ALL SELECT
 * ... FROM b) s GROUP BY ..." into an append relation (prepjointree.c,
 * pull_up_simple_union_all): a parent relation of no FDW whose members
 * are the foreign tables' scans, each with its own conditions. The FDW is
 * asked for each member's paths, never for the parent's aggregate
 * (GetForeignUpperPaths is only called for a foreign input relation), and
 * UNION, INTERSECT and EXCEPT (UPPERREL_SETOP) reach no FDW at all. The
 * planner's create_upper_paths_hook sees every upper relation: this file
 * uses it for UPPERREL_GROUP_AGG over such a parent, and adds one foreign
 * path that runs
 *
 *	  SELECT <groups, aggregates> FROM (
 *		  SELECT <a's columns> AS `r<i>_<n>` FROM `db`.`a` WHERE <a's conds>
 *		  UNION ALL SELECT <b's columns> FROM `db`.`b` WHERE <b's conds>
 *	  ) AS `u` GROUP BY ... HAVING ... FORMAT Native
 *
 * Only on modern servers (from 22; tested on 26.5): 18.16 computes some
 * members in their own column types (see union_aggregate_path).
 *
 * Invariants that keep every answer PostgreSQL's:
 * - Every member is a clickhouse_fdw table of one server and user (not an
 *	 inheritance parent), all its conditions sent (none evaluated here,
 *	 none pseudo-constant, no run-time join parameter), and no member's
 *	 conditions depend on its remote catalog (no date or timestamp column:
 *	 a date column's SQL is resolved per table when a scan starts,
 *	 deparse.c). A member with a WHERE is a subquery of one table and
 *	 nothing else (no GROUP BY, DISTINCT, ORDER BY, LIMIT, sublink).
 * - Each column of the UNION is a plain column of every member, or a
 *	 constant (text or integer) in every member that is only grouped by or
 *	 returned (an expression, or a column in some members and a constant in
 *	 others, stays local); no date or timestamp; a numeric one only where
 *	 its scale does not show (shows_numeric). Every member's column is
 *	 Nullable (text: CAST to Nullable(String), so that String and
 *	 LowCardinality(String) meet; the others toNullable()); widths meet in
 *	 ClickHouse's common supertype, which holds every value exactly (Int32
 *	 and Int64: Int64) or raises, never a changed value.
 * - Every grouping key, aggregate and HAVING clause is one the grouped
 *	 path of a single table accepts (aggregates.c), checked on each member
 *	 with the member's own columns (their options, text_sorts_as_bytes),
 *	 and deparsed over the first member's columns under the UNION's
 *	 column aliases (chfdw_var_alias; constants: `u_<n>`): the same names
 *	 in every member.
 * - The plan replaces the subquery members' own plans, whose range tables
 *	 therefore never reach the plan's: their privileges are checked and
 *	 their tables locked when the scan starts (chfdw_union_check), and the
 *	 plan depends on them (relationOids).
 *
 * The groups' ORDER BY and LIMIT are sent too, and the rows of a UNION
 * ALL under ORDER BY ... LIMIT (UPPERREL_ORDERED: union_rows_path).
 *
 * Not sent here: grouping sets, GROUPING(), a partial (partitionwise)
 * aggregate, the rows of a UNION ALL without a LIMIT (each member's scan
 * is sent on its own, with its conditions and ORDER BY, and run at the
 * same time by an async Append or merged).
 *
 * Correlated scalar subqueries in a foreign table's conditions (the last
 * part of this file) are sent inside them on servers that run correlated
 * subqueries; the other SubPlans run as their own remote query per outer
 * row, with the outer value written in.
 *
 * src/fdw/subquery.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_namespace.h"
#include "commands/defrem.h"
#include "executor/executor.h"
#include "foreign/foreign.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/appendinfo.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/planner.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"

#include "chfdw.h"
#include "shippable.h"

#define UNION_AGG_MARK "clickhouse_fdw union aggregate"
#define REMOTE_AGG_CREDIT 2.0	/* as chfdwGetForeignUpperPaths */

static create_upper_paths_hook_type prev_upper_paths_hook = NULL;

/* One member of the UNION ALL. */
typedef struct UnionLeg
{
	PlannerInfo *root;			/* where rel is: the query's, or the member's
								 * own (a member with a WHERE stays a
								 * subquery: prepjointree.c,
								 * is_safe_append_member) */
	RelOptInfo *rel;			/* the member's foreign table scan */
	AppendRelInfo *appinfo;		/* parent columns -> member columns */
	List	   *sub_tlist;		/* a subquery member: its SELECT list */
	Index		sub_relid;		/* ... and its range table index */
	RelOptInfo *cx_rel;			/* a stand-in "join" of the member alone:
								 * its columns by their aliases */
	Oid			relid;			/* the foreign table */
} UnionLeg;

/* What the path carries to chfdw_union_plan (ForeignPath.fdw_private). */
enum
{
	UnionPrivMark,				/* String UNION_AGG_MARK */
	UnionPrivSql,				/* String: the remote SQL */
	UnionPrivOutputs,			/* List of TargetEntry: what ClickHouse returns */
	UnionPrivFinish,			/* IntList: CHFDW_FINISH_* per output */
	UnionPrivMore				/* List: the five below */
};
enum
{
	UnionMoreLocalHaving,		/* List: HAVING clauses evaluated here */
	UnionMoreParams,			/* List: run-time values (ChFdwDeparse.params) */
	UnionMoreZone,				/* String */
	UnionMoreRelations,			/* String, for EXPLAIN */
	UnionMoreFirstLeg			/* the first member's table and user (2
								 * Integers), the subquery members' range
								 * tables (chfdw_union_check) */
};

/* A column type a member may contribute: no date, no timestamp. */
static bool
union_type_ok(Oid type)
{
	switch (chfdw_type_class(type))
	{
		case TC_INT:
		case TC_NUMERIC:
		case TC_FLOAT:
		case TC_TEXT:
		case TC_BOOL:
		case TC_UUID:
			return true;
		default:
			return false;
	}
}

/* Every Var of node has a type union_type_ok accepts. */
static bool
vars_types_ok(Node *node)
{
	List	   *vars = pull_var_clause(node, PVC_RECURSE_AGGREGATES | PVC_RECURSE_PLACEHOLDERS);
	ListCell   *lc;

	foreach(lc, vars)
		if (!IsA(lfirst(lc), Var) || !union_type_ok(((Var *) lfirst(lc))->vartype))
			return false;
	return true;
}

/*
 * The members of the append relation rel, when it is a flattened UNION ALL
 * whose live members are all foreign tables of this FDW on one server and
 * user, with every condition sent. NIL otherwise.
 */
static List *
union_legs(PlannerInfo *root, RelOptInfo *rel)
{
	RangeTblEntry *rte;
	List	   *legs = NIL;
	ListCell   *lc;
	Oid			serverid = InvalidOid;
	Oid			userid = InvalidOid;

	if (rel->reloptkind != RELOPT_BASEREL || rel->rtekind != RTE_SUBQUERY ||
		!bms_is_empty(rel->lateral_relids) || IS_DUMMY_REL(rel))
		return NIL;
	rte = planner_rt_fetch(rel->relid, root);
	if (!rte->inh)
		return NIL;
	foreach(lc, root->append_rel_list)
	{
		AppendRelInfo *appinfo = lfirst_node(AppendRelInfo, lc);
		RelOptInfo *child;
		ChFdwRelInfo *fp;
		UnionLeg   *leg;
		ChFdwRelInfo *cxfp;
		ListCell   *lc2;

		if (appinfo->parent_relid != rel->relid)
			continue;
		child = root->simple_rel_array[appinfo->child_relid];
		if (!child)
			return NIL;
		if (IS_DUMMY_REL(child))
			continue;			/* no rows (WHERE false) */
		if (child->reloptkind != RELOPT_OTHER_MEMBER_REL ||
			!bms_is_empty(child->lateral_relids))
			return NIL;
		leg = palloc0(sizeof(UnionLeg));
		leg->root = root;
		leg->appinfo = appinfo;
		if (child->rtekind == RTE_SUBQUERY)
		{
			/* SELECT <columns> FROM <foreign table> WHERE <conds>, nothing else */
			PlannerInfo *sub = child->subroot;
			Query	   *sq = sub ? sub->parse : NULL;
			RangeTblRef *rtr;

			if (!sq || child->baserestrictinfo != NIL || sq->hasAggs || sq->groupClause ||
				sq->groupingSets || sq->havingQual || sq->hasWindowFuncs ||
				sq->distinctClause || sq->sortClause || sq->limitCount ||
				sq->limitOffset || sq->setOperations || sq->hasTargetSRFs ||
				sq->hasSubLinks || sq->rowMarks || sq->cteList ||
				list_length(sq->jointree->fromlist) != 1 ||
				!IsA(linitial(sq->jointree->fromlist), RangeTblRef))
				return NIL;
			rtr = (RangeTblRef *) linitial(sq->jointree->fromlist);
			if (rtr->rtindex >= sub->simple_rel_array_size)
				return NIL;
			leg->root = sub;
			leg->sub_tlist = sq->targetList;
			leg->sub_relid = child->relid;
			child = sub->simple_rel_array[rtr->rtindex];
			if (!child || child->reloptkind != RELOPT_BASEREL || IS_DUMMY_REL(child))
				return NIL;
		}
		/* a foreign table, not the parent of an inheritance tree of its own */
		if (child->rtekind != RTE_RELATION || !chfdw_is_our_rel(child) ||
			!bms_is_empty(child->lateral_relids) ||
			planner_rt_fetch(child->relid, leg->root)->inh)
			return NIL;
		fp = (ChFdwRelInfo *) child->fdw_private;
		/* a column named as the member's aliases: local (deparse.c) */
		if (!fp || fp->local_conds != NIL || fp->alias_like)
			return NIL;
		foreach(lc2, child->baserestrictinfo)
		{
			RestrictInfo *ri = lfirst_node(RestrictInfo, lc2);

			if (ri->pseudoconstant || !list_member_ptr(fp->remote_conds, ri) ||
				!vars_types_ok((Node *) ri->clause))
				return NIL;
		}
		if (legs == NIL)
		{
			serverid = fp->serverid;
			userid = fp->userid;
		}
		else if (fp->serverid != serverid || fp->userid != userid)
			return NIL;
		leg->rel = child;
		leg->relid = fp->relid;
		/* the shippability walker's join context: columns by alias */
		cxfp = palloc0(sizeof(ChFdwRelInfo));
		cxfp->relid = InvalidOid;
		cxfp->serverid = fp->serverid;
		cxfp->userid = fp->userid;
		cxfp->is_join = true;
		cxfp->root = leg->root;
		cxfp->visible = child->relids;
		leg->cx_rel = makeNode(RelOptInfo);
		leg->cx_rel->reloptkind = RELOPT_JOINREL;
		leg->cx_rel->relids = child->relids;
		leg->cx_rel->fdw_private = cxfp;
		legs = lappend(legs, leg);
	}
	return legs;
}

/* A subquery member's column: its SELECT list's expression. */
static Node *
sub_column_mutator(Node *node, UnionLeg *leg)
{
	if (node && IsA(node, Var) && ((Var *) node)->varno == leg->sub_relid &&
		((Var *) node)->varlevelsup == 0)
	{
		Var		   *v = (Var *) node;
		TargetEntry *tle = v->varattno > 0 && v->varattno <= list_length(leg->sub_tlist) ?
			list_nth(leg->sub_tlist, v->varattno - 1) : NULL;

		/* anything but a plain column is refused by union_columns_ok */
		return tle ? copyObject((Node *) tle->expr) : node;
	}
	return expression_tree_mutator(node, sub_column_mutator, (void *) leg);
}

/* expr (over the parent's columns) in the member's columns. */
static Expr *
to_leg(PlannerInfo *root, UnionLeg *leg, Expr *expr)
{
	Node	   *n = adjust_appendrel_attrs(root, (Node *) expr, 1, &leg->appinfo);

	if (leg->sub_tlist)
		n = sub_column_mutator(n, leg);
	return (Expr *) n;
}

/* What the checks below share. */
typedef struct UnionCtx
{
	PlannerInfo *root;
	RelOptInfo *rel;			/* the append relation */
	List	   *legs;			/* UnionLegs */
	List	   *cols;			/* the parent's Vars the query reads */
	Bitmapset  *consts;			/* ... those a constant in every member */
	Bitmapset  *numerics;		/* ... those of type numeric */
} UnionCtx;

/*
 * Does a value ClickHouse returns show a numeric column's scale? The
 * members' Decimal scales meet in the widest (Decimal(9, 2) and
 * Decimal(18, 4): a member's 1.25 comes back as 1.2500), and PostgreSQL
 * shows each value's own (its max(), its group key, its sum). Only a
 * count() of one hides it (a condition's truth too: HAVING, a member's
 * WHERE, which are not checked here).
 */
static bool
shows_numeric(Node *node, UnionCtx *u)
{
	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
	{
		char	   *name = get_func_name(((Aggref *) node)->aggfnoid);

		if (name && strcmp(name, "count") == 0 &&
			get_func_namespace(((Aggref *) node)->aggfnoid) == PG_CATALOG_NAMESPACE)
			return false;
	}
	if (IsA(node, Var))
		return ((Var *) node)->varno == u->rel->relid && ((Var *) node)->varlevelsup == 0 &&
			bms_is_member(((Var *) node)->varattno, u->numerics);
	return expression_tree_walker(node, shows_numeric, (void *) u);
}

/* A member's column without the PlaceHolderVar pull-up wraps a constant in. */
static Node *
strip_phv(Node *n)
{
	while (n && IsA(n, PlaceHolderVar))
		n = (Node *) ((PlaceHolderVar *) n)->phexpr;
	return chfdw_strip_relabel(n);
}

/* A constant column's value in a member: text or an integer of the column's type. */
static bool
const_col_ok(Node *n, Oid type)
{
	n = strip_phv(n);
	return n && IsA(n, Const) && ((Const *) n)->consttype == type &&
		(chfdw_type_class(type) == TC_TEXT || chfdw_type_class(type) == TC_INT);
}

/*
 * The parent's columns the query reads: each a plain column of every
 * member (no two of them the same column of the first member: their
 * aliases are the first member's), or a constant in every member (a
 * "kind" column: SELECT 'a' AS kind ... UNION ALL SELECT 'b' ...).
 * Returns false otherwise.
 */
static bool
union_columns_ok(UnionCtx *u)
{
	ListCell   *lc;
	List	   *leg_cols = NIL;
	List	   *vars = NIL;
	int			namer;

	/* the target's Vars (under ORDER BY its expressions too: apply_scanjoin_target_to_paths) */
	foreach(lc, pull_var_clause((Node *) u->rel->reltarget->exprs, PVC_RECURSE_PLACEHOLDERS))
		vars = list_append_unique(vars, lfirst(lc));
	foreach(lc, vars)
	{
		Var		   *pv = (Var *) lfirst(lc);
		ListCell   *lc2;
		int			nconst = 0;

		if (!IsA(pv, Var) || pv->varno != u->rel->relid || pv->varattno <= 0 ||
			!union_type_ok(pv->vartype))
			return false;
		if (chfdw_type_class(pv->vartype) == TC_NUMERIC)
			u->numerics = bms_add_member(u->numerics, pv->varattno);
		foreach(lc2, u->legs)
		{
			UnionLeg   *leg = (UnionLeg *) lfirst(lc2);
			Var		   *cv = (Var *) to_leg(u->root, leg, (Expr *) pv);

			if (const_col_ok((Node *) cv, pv->vartype))
			{
				nconst++;
				continue;
			}
			if (!IsA(cv, Var) || cv->varno != leg->rel->relid || cv->varattno <= 0 ||
				cv->vartype != pv->vartype || cv->varlevelsup != 0)
				return false;
			/* (subq4) this member's columns, for the one naming them */
			if (foreach_current_index(lc2) >= list_length(leg_cols))
				leg_cols = lappend(leg_cols, NIL);
			lfirst(list_nth_cell(leg_cols, foreach_current_index(lc2))) =
				lappend(list_nth(leg_cols, foreach_current_index(lc2)), cv);
		}
		if (nconst == list_length(u->legs))
		{
			/* grouped by ClickHouse's byte equality: a deterministic collation's */
			if (OidIsValid(pv->varcollid) && !get_collation_isdeterministic(pv->varcollid))
				return false;
			u->consts = bms_add_member(u->consts, pv->varattno);
		}
		else if (nconst > 0)
			return false;		/* a column in some members, a constant in others */
		u->cols = lappend(u->cols, pv);
	}
	/* (subq4) a member whose columns are distinct comes first (subquery_union.c) */
	if (leg_cols == NIL)
		return true;
	namer = chfdw_union_naming_member(leg_cols);
	if (namer < 0)
		return false;
	if (namer > 0)
	{
		void	   *leg = list_nth(u->legs, namer);

		u->legs = lcons(leg, list_delete_nth_cell(u->legs, namer));
	}
	return true;
}

/* u over the UNION ALL rel: its members and the columns the query reads; false if not one */
static bool
union_start(UnionCtx *u, PlannerInfo *root, RelOptInfo *rel)
{
	memset(u, 0, sizeof(*u));
	u->root = root;
	u->rel = rel;
	u->legs = union_legs(root, rel);
	return u->legs != NIL && union_columns_ok(u);
}

/* Is n (stripped) one of the constant columns? */
static bool
is_const_col(UnionCtx *u, Node *n)
{
	n = chfdw_strip_relabel(n);
	return n && IsA(n, Var) && ((Var *) n)->varno == u->rel->relid &&
		((Var *) n)->varlevelsup == 0 && bms_is_member(((Var *) n)->varattno, u->consts);
}

/* Does expr read a constant column? */
static bool
refs_const_col(UnionCtx *u, Node *expr)
{
	List	   *vars = pull_var_clause(expr, PVC_RECURSE_AGGREGATES | PVC_RECURSE_PLACEHOLDERS);
	ListCell   *lc;

	foreach(lc, vars)
		if (is_const_col(u, (Node *) lfirst(lc)))
			return true;
	return false;
}

/*
 * Is expr (over the parent) a grouping key or aggregate every member can
 * send? A constant column is only a grouping key (or output) of its own.
 */
static bool
all_legs_grouping(UnionCtx *u, Expr *expr, bool is_key)
{
	ListCell   *lc;

	if (is_const_col(u, (Node *) expr))
		return is_key;
	if (refs_const_col(u, (Node *) expr))
		return false;
	foreach(lc, u->legs)
	{
		UnionLeg   *leg = (UnionLeg *) lfirst(lc);

		if (!chfdw_is_shippable_grouping_expr(leg->cx_rel, InvalidOid,
											  to_leg(u->root, leg, expr), is_key))
			return false;
	}
	return true;
}

static bool
all_legs_having(UnionCtx *u, Expr *clause)
{
	ListCell   *lc;

	if (refs_const_col(u, (Node *) clause))
		return false;
	foreach(lc, u->legs)
	{
		UnionLeg   *leg = (UnionLeg *) lfirst(lc);

		if (!chfdw_is_shippable_having(leg->cx_rel, InvalidOid, to_leg(u->root, leg, clause)))
			return false;
	}
	return true;
}

/* Is e a grouping column of the query (as is_group_column of chfdw.c)? */
static bool
is_group_key(Query *parse, Expr *e)
{
	ListCell   *lc;

	e = (Expr *) chfdw_strip_relabel((Node *) e);
	if (!e || !IsA(e, Var))
		return false;
	foreach(lc, parse->groupClause)
	{
		TargetEntry *tle = get_sortgroupclause_tle(lfirst_node(SortGroupClause, lc),
												   parse->targetList);

		if (equal(chfdw_strip_relabel((Node *) tle->expr), e))
			return true;
	}
	return false;
}

/*
 * The aggregates and grouping columns expr is computed from, if every
 * member can send them: added to *tlist (PostgreSQL computes the rest).
 */
static bool
pieces_ok(UnionCtx *u, Node *expr, List **tlist)
{
	List	   *pieces = pull_var_clause(expr, PVC_INCLUDE_AGGREGATES);
	ListCell   *lc;

	foreach(lc, pieces)
	{
		Expr	   *piece = (Expr *) lfirst(lc);

		if (IsA(piece, Aggref) ? !all_legs_grouping(u, piece, false) :
			!(is_group_key(u->root->parse, piece) && all_legs_grouping(u, piece, true)))
			return false;
	}
	*tlist = add_to_flat_tlist(*tlist, pieces);
	return true;
}

/* A grouping key or output: a constant column by its alias, else over the first member. */
static void
deparse_upper_expr(ChFdwDeparse *dp, StringInfo buf, UnionCtx *u, Expr *expr, bool output)
{
	UnionLeg   *first = (UnionLeg *) linitial(u->legs);

	if (is_const_col(u, (Node *) expr))
		appendStringInfo(buf, "`u_%d`", (int) ((Var *) chfdw_strip_relabel((Node *) expr))->varattno);
	else if (output)
		chfdw_deparse_grouped_output(dp, buf, first->cx_rel, InvalidOid,
									 to_leg(u->root, first, expr), false);
	else
		chfdw_deparse_grouping_expr(dp, buf, first->cx_rel, InvalidOid,
									to_leg(u->root, first, expr));
}

/* "SELECT <cols> FROM (<member> UNION ALL <member> ...) AS `u`" */
static void
deparse_union_from(ChFdwDeparse *dp, StringInfo buf, UnionCtx *u)
{
	PlannerInfo *root = u->root;
	List	   *legs = u->legs;
	List	   *cols = u->cols;
	UnionLeg   *first = (UnionLeg *) linitial(legs);
	ListCell   *lc;

	appendStringInfoString(buf, " FROM (");
	foreach(lc, legs)
	{
		UnionLeg   *leg = (UnionLeg *) lfirst(lc);
		ChFdwRelInfo *fp = (ChFdwRelInfo *) leg->rel->fdw_private;
		ListCell   *lc2;
		Relation	r;

		if (lc != list_head(legs))
			appendStringInfoString(buf, " UNION ALL ");
		appendStringInfoString(buf, "SELECT ");
		foreach(lc2, cols)
		{
			Var		   *pv = (Var *) lfirst(lc2);
			Var		   *cv = (Var *) to_leg(root, leg, (Expr *) pv);
			bool		text = chfdw_type_class(pv->vartype) == TC_TEXT;

			if (lc2 != list_head(cols))
				appendStringInfoString(buf, ", ");
			if (bms_is_member(pv->varattno, u->consts))
			{
				/* a constant, as the column's type: Int16/32/64 or String */
				Const	   *c = (Const *) strip_phv((Node *) cv);

				appendStringInfoString(buf, "CAST(");
				if (c->constisnull)
					appendStringInfoString(buf, "NULL");
				else
					chfdw_deparse_const(buf, c);
				appendStringInfo(buf, " AS Nullable(%s))",
								 text ? "String" : pv->vartype == INT2OID ? "Int16" :
								 pv->vartype == INT4OID ? "Int32" : "Int64");
				if (leg == first)
					appendStringInfo(buf, " AS `u_%d`", (int) pv->varattno);
				continue;
			}
			appendStringInfoString(buf, text ? "CAST(" : "toNullable(");
			chfdw_deparse_column(buf, leg->relid, cv->varattno);
			appendStringInfoString(buf, text ? " AS Nullable(String))" : ")");
			if (leg == first)
			{
				appendStringInfoString(buf, " AS ");
				chfdw_var_alias(buf, cv);
			}
		}
		if (cols == NIL)
			appendStringInfoString(buf, leg == first ? "1 AS `one`" : "1");
		appendStringInfoString(buf, " FROM ");
		r = table_open(leg->relid, NoLock);
		chfdw_deparse_table(buf, r);
		table_close(r, NoLock);
		chfdw_deparse_where(dp, buf, leg->rel, leg->relid,
							extract_actual_clauses(fp->remote_conds, false));
	}
	appendStringInfo(buf, ") AS `u%d`", ++dp->nalias);
}

/* "Aggregate on (a UNION ALL b)" for EXPLAIN's Relations */
static char *
union_relations(List *legs, bool agg)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	appendStringInfoString(&buf, agg ? "Aggregate on (" : "(");
	foreach(lc, legs)
	{
		UnionLeg   *leg = (UnionLeg *) lfirst(lc);
		RangeTblEntry *rte = planner_rt_fetch(leg->rel->relid, leg->root);

		if (lc != list_head(legs))
			appendStringInfoString(&buf, " UNION ALL ");
		appendStringInfoString(&buf, get_rel_name(rte->relid));
	}
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/* ---- what the aggregate and the rows of a union share ---- */

/*
 * Is the members' server one that computes each member of a UNION ALL in
 * the union's column types (the caps' union_supertype)? It may connect; a
 * server that cannot be asked is not (probe.c).
 */
static bool
union_server_ok(UnionLeg *first)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) first->rel->fdw_private;
	const ch_caps *caps = chfdw_caps_try(fp->userid, fp->serverid);

	return caps && caps->union_supertype;
}

/* The relation becomes the server's: its plan is the FDW's. */
static void
union_take_rel(RelOptInfo *output_rel, UnionLeg *first)
{
	output_rel->serverid = first->rel->serverid;
	output_rel->userid = first->rel->userid;
	output_rel->useridiscurrent = first->rel->useridiscurrent;
	output_rel->fdwroutine = first->rel->fdwroutine;
}

/*
 * The output (1-based, in outputs; negative: a float) a pathkey sorts by: an expression of
 * its equivalence class that ClickHouse returns as PostgreSQL has it (not
 * pieces PostgreSQL finishes, finish.c) and orders as PostgreSQL's ORDER
 * BY does: the type's default btree order, no uuid (ClickHouse compares
 * its halves in another order), text (CAST to String in every member)
 * only under a collation that orders as bytes for every member's table
 * (chfdw_ordering_collation_ok); floats get NaN placed (union_sql). 0:
 * none.
 */
static int
union_sort_output(UnionCtx *u, PathKey *pk, List *outputs)
{
	EquivalenceClass *ec = pk->pk_eclass;
	ListCell   *lc;

	if (ec->ec_has_volatile)
		return 0;
	foreach(lc, ec->ec_members)
	{
		Expr	   *e = (Expr *) chfdw_strip_relabel((Node *) ((EquivalenceMember *) lfirst(lc))->em_expr);
		TargetEntry *tle = tlist_member(e, outputs);
		Oid			type;
		TypeClass	tc;
		ListCell   *lc2;

		if (!tle)
			continue;
		if (chfdw_agg_finish(tle->expr) != CHFDW_FINISH_NONE)
			return 0;
		type = exprType((Node *) e);
		tc = chfdw_type_class(type);
		if (tc == TC_UUID || tc == TC_NONE ||
			pk->pk_opfamily != get_opclass_family(GetDefaultOpClass(type, BTREE_AM_OID)))
			return 0;
		if (tc == TC_TEXT)
			foreach(lc2, u->legs)
			{
				ShipCtx		cx = chfdw_ship_ctx(((UnionLeg *) lfirst(lc2))->cx_rel, InvalidOid);

				if (!chfdw_ordering_collation_ok(&cx, ec->ec_collation))
					return 0;
			}
		return tc == TC_FLOAT ? -(int) tle->resno : (int) tle->resno;
	}
	return 0;
}

/* The outputs every pathkey sorts by (IntList), or false. */
static bool
union_sort_outputs(UnionCtx *u, List *pathkeys, List *outputs, List **positions)
{
	ListCell   *lc;

	*positions = NIL;
	foreach(lc, pathkeys)
	{
		int			n = union_sort_output(u, (PathKey *) lfirst(lc), outputs);

		if (n == 0)
			return false;
		*positions = lappend_int(*positions, n);
	}
	return true;
}

/*
 * "SELECT <outs> <rest>", and with pathkeys " ORDER BY" the outputs (named
 * `o<n>`) at positions, with explicit NULLS placement (ClickHouse puts
 * NULLs last either way) and a float sorted by isNaN() first (ClickHouse
 * sorts NaN with the NULLs, PostgreSQL above every number), as the ORDER
 * BY of a scan (aggregates.c). Without FORMAT: a LIMIT may follow
 * (chfdw_union_plan).
 */
static char *
union_sql(List *outs, const char *rest, List *pathkeys, List *positions)
{
	StringInfoData sql;
	ListCell   *lc;
	ListCell   *lc2;
	int			n = 0;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	foreach(lc, outs)
	{
		if (lc != list_head(outs))
			appendStringInfoString(&sql, ", ");
		appendStringInfoString(&sql, (char *) lfirst(lc));
		n++;
		if (pathkeys)
			appendStringInfo(&sql, " AS `o%d`", n);
	}
	appendStringInfoString(&sql, rest);
	forboth(lc, pathkeys, lc2, positions)
	{
		PathKey    *pk = (PathKey *) lfirst(lc);
		const char *dir = pk->pk_strategy != BTLessStrategyNumber ? " DESC" : " ASC";
		const char *nulls = pk->pk_nulls_first ? " NULLS FIRST" : " NULLS LAST";

		appendStringInfoString(&sql, lc == list_head(pathkeys) ? " ORDER BY " : ", ");
		if (lfirst_int(lc2) < 0)
			appendStringInfo(&sql, "isNaN(`o%d`)%s%s, ", -lfirst_int(lc2), dir, nulls);
		appendStringInfo(&sql, "`o%d`%s%s", abs(lfirst_int(lc2)), dir, nulls);
	}
	return sql.data;
}

/*
 * A path's fdw_private (the enums at the top). The range tables of
 * members with a WHERE go with it: they are subqueries whose plans this
 * path replaces, so set_plan_references never adds their entries to the
 * plan's range table (it does so from a SubqueryScan). The plan checks
 * their privileges and locks them when it starts (chfdw_union_check), and
 * depends on them for invalidation.
 */
static List *
union_private(UnionCtx *u, char *sql, List *tlist, List *finish, List *local_having,
			  ChFdwDeparse *dp, bool agg)
{
	UnionLeg   *first = (UnionLeg *) linitial(u->legs);
	List	   *member_rtes = NIL;
	ListCell   *lc;

	foreach(lc, u->legs)
	{
		UnionLeg   *leg = (UnionLeg *) lfirst(lc);

		if (leg->sub_tlist)
			member_rtes = list_concat(member_rtes, copyObject(leg->root->parse->rtable));
	}
	return list_make5(makeString(UNION_AGG_MARK), makeString(sql), tlist, finish,
					  list_make5(local_having, dp->params, chfdw_plan_zone(dp),
								 makeString(union_relations(u->legs, agg)),
								 list_make3(makeInteger((int) first->relid),
											makeInteger((int) planner_rt_fetch(first->rel->relid, first->root)->checkAsUser),
											member_rtes)));
}

static void
union_aggregate_path(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel,
					 GroupPathExtraData *gx)
{
	Query	   *parse = root->parse;
	PathTarget *target = root->upper_targets[UPPERREL_GROUP_AGG];
	List	   *legs;
	UnionCtx	u;
	List	   *tlist = NIL;
	List	   *remote_having = NIL;
	List	   *local_having = NIL;
	bool		local_only;
	List	   *finish = NIL;
	List	   *outs = NIL;
	List	   *positions;
	List	   *group_exprs;
	ListCell   *lc;
	UnionLeg   *first;
	ChFdwDeparse dp;
	StringInfoData rest;
	double		ngroups;
	double		scanned = 0;
	Cost		startup,
				total;
	int			i;

	if (output_rel->fdwroutine || gx->patype != PARTITIONWISE_AGGREGATE_NONE ||
		parse->groupingSets || (!parse->hasAggs && parse->groupClause == NIL) ||
		chfdw_contains_grouping_func((Node *) target->exprs))
		return;
	if (!union_start(&u, root, input_rel))
		return;
	legs = u.legs;
	first = (UnionLeg *) linitial(legs);

	/* the grouping keys: columns every member can group by */
	foreach(lc, parse->groupClause)
	{
		TargetEntry *tle = get_sortgroupclause_tle(lfirst_node(SortGroupClause, lc),
												   parse->targetList);

		if (!all_legs_grouping(&u, tle->expr, true))
			return;
	}
	/* the outputs: keys, aggregates, expressions over them */
	i = 0;
	foreach(lc, target->exprs)
	{
		Expr	   *e = (Expr *) lfirst(lc);
		Index		sgref = get_pathtarget_sortgroupref(target, i);

		i++;
		if ((sgref && get_sortgroupref_clause_noerr(sgref, parse->groupClause)) ||
			is_group_key(parse, e))
		{
			if (!all_legs_grouping(&u, e, true))
				return;
			tlist = add_to_flat_tlist(tlist, list_make1(e));
		}
		else if (all_legs_grouping(&u, e, false))
			tlist = add_to_flat_tlist(tlist, list_make1(e));
		else if (!pieces_ok(&u, (Node *) e, &tlist))
			return;
	}
	/*
	 * (guards2) with a float sum / avg / variance or a regression aggregate
	 * all of HAVING stays here and their overflow guards are ClickHouse's
	 * HAVING (below), as on a single table's grouped path (chfdw.c): a group
	 * HAVING drops must still raise (agg_float.c)
	 */
	local_only = chfdw_has_regr_agg((Node *) target->exprs) || chfdw_has_regr_agg(gx->havingQual);
	foreach(lc, (List *) gx->havingQual)
	{
		Expr	   *clause = (Expr *) lfirst(lc);

		if (!local_only && all_legs_having(&u, clause))
			remote_having = lappend(remote_having, clause);
		else if (pieces_ok(&u, (Node *) clause, &tlist))
			local_having = lappend(local_having, clause);
		else
			return;
	}

	/* what ClickHouse returns shows no numeric's scale */
	foreach(lc, tlist)
		if (shows_numeric((Node *) lfirst_node(TargetEntry, lc)->expr, &u))
			return;
	/* last, as it may connect: modern servers only (union_server_ok) */
	if (!union_server_ok(first))
		return;

	/* the SQL, over the first member's columns under the UNION's aliases */
	chfdw_deparse_init(&dp, root);
	foreach(lc, tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);
		StringInfoData out;

		initStringInfo(&out);
		deparse_upper_expr(&dp, &out, &u, tle->expr, true);
		outs = lappend(outs, out.data);
		finish = lappend_int(finish, chfdw_agg_finish(tle->expr));
	}
	initStringInfo(&rest);
	deparse_union_from(&dp, &rest, &u);
	if (parse->groupClause)
	{
		appendStringInfoString(&rest, " GROUP BY ");
		foreach(lc, parse->groupClause)
		{
			TargetEntry *tle = get_sortgroupclause_tle(lfirst_node(SortGroupClause, lc),
													   parse->targetList);

			if (lc != list_head(parse->groupClause))
				appendStringInfoString(&rest, ", ");
			deparse_upper_expr(&dp, &rest, &u, tle->expr, false);
		}
	}
	if (remote_having)
	{
		List	   *leg_having = NIL;

		foreach(lc, remote_having)
			leg_having = lappend(leg_having, to_leg(root, first, lfirst(lc)));
		chfdw_deparse_having(&dp, &rest, first->cx_rel, InvalidOid, leg_having);
	}
	else if (parse->groupClause)
	{
		List	   *leg_tlist = NIL;

		foreach(lc, tlist)
			leg_tlist = lappend(leg_tlist, to_leg(root, first, lfirst_node(TargetEntry, lc)->expr));
		chfdw_deparse_float_guards(&dp, &rest, first->cx_rel, InvalidOid, leg_tlist);
	}

	/* costs as a grouped scan's: ClickHouse reads every member, groups travel */
	foreach(lc, legs)
		scanned += ((UnionLeg *) lfirst(lc))->rel->tuples;
	group_exprs = get_sortgrouplist_exprs(parse->groupClause, parse->targetList);
	ngroups = group_exprs ? estimate_num_groups(root, group_exprs, input_rel->rows, NULL, NULL) : 1;
	startup = DEFAULT_STARTUP_COST + scanned * REMOTE_SCAN_ROW_COST - REMOTE_AGG_CREDIT;
	total = startup + ngroups * (DEFAULT_ROW_COST + cpu_tuple_cost);

	/* the grouped relation becomes the server's: its plan is the FDW's */
	union_take_rel(output_rel, first);
	add_path(output_rel, (Path *)
			 create_foreign_upper_path(root, output_rel, target, ngroups, startup, total,
									   NIL, NULL,
									   union_private(&u, union_sql(outs, rest.data, NIL, NIL),
													 tlist, finish, local_having, &dp, true)));
	/* the query's ORDER BY over the groups, sorted by ClickHouse (a LIMIT too: chfdw_union_plan) */
	if (root->sort_pathkeys && union_sort_outputs(&u, root->sort_pathkeys, tlist, &positions))
		add_path(output_rel, (Path *)
				 create_foreign_upper_path(root, output_rel, target, ngroups, startup,
										   total + ngroups * cpu_operator_cost,
										   root->sort_pathkeys, NULL,
										   union_private(&u, union_sql(outs, rest.data,
																	   root->sort_pathkeys,
																	   positions),
														 tlist, finish, local_having, &dp,
														 true)));
}

/*
 * The rows of a UNION ALL of the server's tables under ORDER BY ... LIMIT
 * (a top-N), as one remote query
 *
 *	  SELECT `r<i>_<n>` AS `o1`, ... FROM (<members>) AS `u`
 *		ORDER BY <keys> LIMIT <count + offset> FORMAT Native
 *
 * when every sort key is a column of the union ClickHouse orders as
 * PostgreSQL does (union_sort_outputs). Without a LIMIT the members' own
 * sorted scans under a Merge Append are as good, and are left alone.
 * PostgreSQL computes the query's outputs from the columns, and its Limit
 * node still counts the rows.
 */
static void
union_rows_path(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel)
{
	Query	   *parse = root->parse;
	PathTarget *target = root->upper_targets[UPPERREL_ORDERED];
	List	   *legs;
	UnionCtx	u;
	List	   *tlist;
	List	   *outs = NIL;
	List	   *finish = NIL;
	List	   *positions;
	ListCell   *lc;
	UnionLeg   *first;
	ChFdwDeparse dp;
	StringInfoData rest;
	double		scanned = 0;
	Cost		total;

	if (output_rel->fdwroutine || !root->sort_pathkeys || !parse->limitCount ||
		parse->commandType != CMD_SELECT || parse->hasAggs || parse->groupClause ||
		parse->groupingSets || parse->havingQual || parse->hasWindowFuncs ||
		parse->distinctClause || parse->hasTargetSRFs || parse->rowMarks || !target)
		return;
	if (!union_start(&u, root, input_rel) || u.cols == NIL)
		return;
	legs = u.legs;
	/* the union's columns; whatever the query computes above is over them */
	tlist = add_to_flat_tlist(NIL, u.cols);
	if (shows_numeric((Node *) u.cols, &u))
		return;
	foreach(lc, pull_var_clause((Node *) target->exprs, PVC_RECURSE_PLACEHOLDERS))
		if (!tlist_member((Expr *) lfirst(lc), tlist))
			return;
	if (!union_sort_outputs(&u, root->sort_pathkeys, tlist, &positions))
		return;
	first = (UnionLeg *) linitial(legs);
	if (!union_server_ok(first))
		return;

	chfdw_deparse_init(&dp, root);
	foreach(lc, tlist)
	{
		Var		   *pv = (Var *) lfirst_node(TargetEntry, lc)->expr;
		StringInfoData out;

		initStringInfo(&out);
		if (bms_is_member(pv->varattno, u.consts))
			appendStringInfo(&out, "`u_%d`", (int) pv->varattno);
		else
			chfdw_var_alias(&out, (Var *) to_leg(root, first, (Expr *) pv));
		outs = lappend(outs, out.data);
		finish = lappend_int(finish, CHFDW_FINISH_NONE);
	}
	initStringInfo(&rest);
	deparse_union_from(&dp, &rest, &u);

	/* one query reading every member, the first rows travel */
	foreach(lc, legs)
		scanned += ((UnionLeg *) lfirst(lc))->rel->tuples;
	total = DEFAULT_STARTUP_COST + scanned * REMOTE_SCAN_ROW_COST +
		input_rel->rows * (DEFAULT_ROW_COST + cpu_tuple_cost);
	union_take_rel(output_rel, first);
	add_path(output_rel, (Path *)
			 create_foreign_upper_path(root, output_rel, target, input_rel->rows,
									   DEFAULT_STARTUP_COST, total, root->sort_pathkeys, NULL,
									   union_private(&u, union_sql(outs, rest.data,
																   root->sort_pathkeys,
																   positions),
													 tlist, finish, NIL, &dp, false)));
}

static void
union_upper_paths(PlannerInfo *root, UpperRelationKind stage, RelOptInfo *input_rel,
				  RelOptInfo *output_rel, void *extra)
{
	if (prev_upper_paths_hook)
		prev_upper_paths_hook(root, stage, input_rel, output_rel, extra);
	if (stage == UPPERREL_GROUP_AGG && input_rel)
		union_aggregate_path(root, input_rel, output_rel, (GroupPathExtraData *) extra);
	if (stage == UPPERREL_ORDERED && input_rel)
		union_rows_path(root, input_rel, output_rel);
}

void
chfdw_subquery_init(void)
{
	prev_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = union_upper_paths;
}

bool
chfdw_is_union_path(ForeignPath *path)
{
	return path->fdw_private != NIL && IsA(linitial(path->fdw_private), String) &&
		strcmp(strVal(linitial(path->fdw_private)), UNION_AGG_MARK) == 0;
}

/*
 * The row count ClickHouse may stop at (LIMIT plus OFFSET), as chfdw.c's
 * pushable_limit: a constant LIMIT of this query level, the path sorted by
 * its whole ORDER BY (or there is none), and nothing between the path and
 * the Limit node that filters (HAVING evaluated here), multiplies (SRFs)
 * or reorders rows (DISTINCT, windows). The Limit node still applies LIMIT
 * and OFFSET. -1: none.
 */
static int64
union_limit(PlannerInfo *root, ForeignPath *path, bool local_filter)
{
	Query	   *parse = root->parse;
	int64		count,
				offset = 0;

	if (!parse->limitCount || parse->limitOption != LIMIT_OPTION_COUNT || local_filter ||
		parse->hasWindowFuncs || parse->distinctClause || parse->hasTargetSRFs ||
		parse->rowMarks || parse->groupingSets || path->path.param_info != NULL ||
		!IsA(parse->limitCount, Const) || ((Const *) parse->limitCount)->constisnull)
		return -1;
	if (root->sort_pathkeys && !pathkeys_contained_in(root->sort_pathkeys, path->path.pathkeys))
		return -1;
	count = DatumGetInt64(((Const *) parse->limitCount)->constvalue);
	if (parse->limitOffset)
	{
		if (!IsA(parse->limitOffset, Const))
			return -1;
		if (!((Const *) parse->limitOffset)->constisnull)
			offset = DatumGetInt64(((Const *) parse->limitOffset)->constvalue);
	}
	if (count < 0 || offset < 0 || count > PG_INT64_MAX - offset)
		return -1;
	return count + offset;
}

/*
 * The plan of an aggregate over a UNION ALL (scanrelid 0): fdw_private as
 * chfdw.c's scans read it (FdwScanPrivateSelectSql, RetrievedAttrs, Zone,
 * Finish, Relations), then the first member's table and user, which
 * chfdwBeginForeignScan opens for the server and user mapping, and the
 * subquery members' range tables (chfdw_union_check).
 */
ForeignScan *
chfdw_union_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path, List *tlist,
				 Plan *outer_plan)
{
	List	   *priv = best_path->fdw_private;
	List	   *more = (List *) list_nth(priv, UnionPrivMore);
	List	   *outputs = (List *) list_nth(priv, UnionPrivOutputs);
	List	   *retrieved = NIL;
	List	   *scan_private;
	ListCell   *lc;
	StringInfoData sql;
	int64		limit;
	int			i;

	(void) rel;
	for (i = 1; i <= list_length(outputs); i++)
		retrieved = lappend_int(retrieved, i);
	initStringInfo(&sql);
	appendStringInfoString(&sql, strVal(list_nth(priv, UnionPrivSql)));
	limit = union_limit(root, best_path, list_nth(more, UnionMoreLocalHaving) != NIL);
	if (limit >= 0)
		appendStringInfo(&sql, " LIMIT " INT64_FORMAT, limit);
	appendStringInfoString(&sql, " FORMAT Native");
	scan_private = list_make5(makeString(sql.data), retrieved,
							  list_nth(more, UnionMoreZone), list_nth(priv, UnionPrivFinish),
							  list_nth(more, UnionMoreRelations));
	scan_private = lappend(scan_private, list_nth(more, UnionMoreFirstLeg));
	/* a plan over the members' tables is invalidated when they change */
	foreach(lc, (List *) lthird((List *) list_nth(more, UnionMoreFirstLeg)))
	{
		RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

		if (rte->rtekind == RTE_RELATION)
			root->glob->relationOids = lappend_oid(root->glob->relationOids, rte->relid);
	}
	return make_foreignscan(tlist, (List *) list_nth(more, UnionMoreLocalHaving), 0,
							(List *) list_nth(more, UnionMoreParams), scan_private,
							outputs, NIL, outer_plan);
}

/*
 * The first member of the UNION ALL an aggregate plan reads, as the range
 * table entry chfdwBeginForeignScan takes its table and user from (its
 * sixth fdw_private item, chfdw_union_plan: the member's own entry may be
 * in a subquery's range table); NULL: not such a plan.
 */
RangeTblEntry *
chfdw_union_leg_rte(ForeignScan *plan)
{
	List	   *leg;
	RangeTblEntry *rte;

	if (list_length(plan->fdw_private) != 6 || !IsA(llast(plan->fdw_private), List))
		return NULL;
	leg = (List *) llast(plan->fdw_private);
	rte = makeNode(RangeTblEntry);
	rte->rtekind = RTE_RELATION;
	rte->relid = (Oid) intVal(linitial(leg));
	rte->checkAsUser = (Oid) intVal(lsecond(leg));
	return rte;
}

/*
 * When an aggregate over a UNION ALL starts (EXPLAIN too, as the
 * executor's own check): the privileges on the tables of its members with
 * a WHERE, and their locks, which the plan's range table does not have
 * (see union_aggregate_path).
 */
void
chfdw_union_check(ForeignScan *plan)
{
	List	   *rtes;
	ListCell   *lc;

	if (list_length(plan->fdw_private) != 6 || !IsA(llast(plan->fdw_private), List))
		return;
	rtes = (List *) lthird((List *) llast(plan->fdw_private));
	if (rtes == NIL)
		return;
	ExecCheckRTPerms(rtes, true);
	foreach(lc, rtes)
	{
		RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

		if (rte->rtekind == RTE_RELATION && rte->rellockmode != NoLock)
			LockRelationOid(rte->relid, rte->rellockmode);
	}
}

/* ---- correlated scalar subqueries in a scan's conditions ---- */

/*
 * A correlated scalar subquery of a foreign table's condition, "WHERE a.x
 * > (SELECT max(y) FROM b WHERE b.k = a.k AND b.s <> '')" (PostgreSQL's
 * SubPlan: planned on its own, run per outer row with a.k as a parameter),
 * is sent inside the condition on servers that run correlated subqueries
 * (the caps' correlated_subqueries; tested on 26.5), as
 *
 *	  (SELECT `__sq1_v` FROM (SELECT `k` AS `__sq1_k1`,
 *		  <max(y)> AS `__sq1_v` FROM `db`.`b` WHERE (`s` != '') AND
 *		  (`k` IS NOT NULL) GROUP BY `__sq1_k1`) WHERE `__sq1_k1` = `k`)
 *
 * The subquery is grouped by its correlation keys first: each outer row
 * meets at most one row, whose aggregate is the subquery's over the rows
 * of its key, and none when it has no rows (the scalar subquery is then
 * NULL, as PostgreSQL's aggregate over no rows; count() is 0 there:
 * ifNull(..., 0)). ClickHouse is not left to decorrelate an aggregate of
 * its own: 26.5 answers NULL for count() over an outer row without
 * matches. A NULL key matches nothing in either (the subquery's NULL keys
 * are left out, an outer NULL compares NULL). The only unqualified outer
 * names are the outer table's columns in the last WHERE, where the
 * subquery's own columns are the `__sq<n>_*` names.
 *
 * Sent when: the subquery is "SELECT <one aggregate> FROM <a foreign
 * table of the same server and user mapping> WHERE ..." (no date or
 * timestamp column in it; no GROUP BY,
 * HAVING, ORDER BY, LIMIT, DISTINCT, window, set operation or sublink);
 * each condition of it is either "inner column = outer column" (integers
 * of any width, or text under a deterministic collation: the join keys of
 * plan.c) or a condition of the inner table alone that ClickHouse
 * evaluates (no other run-time value); every parameter of the subquery is
 * such a key; the aggregate is one a grouped scan of the inner table sends
 * whole (aggregates.c; not avg's pieces) whose value over no rows is NULL,
 * or count(). Its privileges are PostgreSQL's: the subquery's plan stays
 * in the statement (unused), with its range table, checked at executor
 * start. Not sent: the rest, a subquery without an aggregate (26.5 takes
 * its first row where PostgreSQL raises 21000 for several), EXISTS and
 * IN sub-plans (under OR; a top-level one is a SEMI or ANTI join, plan.c),
 * subqueries in the SELECT list (PostgreSQL evaluates them above the
 * scan), and all of it on 18.16 ("Unknown identifier": no correlated
 * subqueries).
 */
typedef struct SubPlanShip
{
	SubPlan    *subplan;
	RelOptInfo *inner_rel;		/* the subquery's foreign table scan */
	Oid			inner_relid;
	Expr	   *agg;			/* its output: one aggregate */
	List	   *inner_conds;	/* bare conditions of the inner table alone */
	List	   *inner_keys;		/* Vars of the inner table equal to ... */
	List	   *outer_keys;		/* ... these Vars of the outer one */
	bool		zero_if_empty;	/* count(): 0 over no rows */
	int			kind;			/* (subq3) SHIP_* below */
	Expr	   *in_outer;		/* SHIP_IN: the outer table's value ... */
	Oid			in_collid;		/* ... and the comparison's collation */
	bool		in_tlist;		/* (subq3) of the SELECT list */
	bool		one_row;		/* (subq3) no aggregate: raises 21000 over
								 * two rows or more */
} SubPlanShip;

/*
 * (subq3) The kinds: a scalar subquery; EXISTS correlated by equalities
 * (inner_keys = outer_keys); "outer = ANY (SELECT inner column ...)", the
 * uncorrelated (hashed) sub-plan PostgreSQL makes of IN and NOT IN, and of
 * an EXISTS under OR (convert_EXISTS_to_ANY: the AlternativeSubPlan's
 * other member).
 */
#define SHIP_SCALAR 0
#define SHIP_EXISTS 1
#define SHIP_IN		2

/* Does node hold a PARAM_EXEC (a value of another query level)? */
static bool
has_exec_param(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXEC)
		return true;
	return expression_tree_walker(node, has_exec_param, context);
}

/*
 * The aggregates sent: count (0 over no rows) and those NULL over no rows
 * whose value does not depend on the order of the rows (not string_agg,
 * array_agg: PostgreSQL's order is the subquery scan's).
 */
static bool
subplan_agg_ok(Aggref *agg, bool *zero)
{
	static const char *const null_if_empty[] = {
		"sum", "min", "max", "bool_and", "bool_or", "every", "bit_and", "bit_or",
		"bit_xor", NULL
	};
	char	   *name = get_func_name(agg->aggfnoid);
	int			i;

	if (!name || get_func_namespace(agg->aggfnoid) != PG_CATALOG_NAMESPACE ||
		agg->agglevelsup != 0 || agg->aggsplit != AGGSPLIT_SIMPLE)
		return false;
	*zero = strcmp(name, "count") == 0;
	if (*zero)
		return true;
	for (i = 0; null_if_empty[i]; i++)
		if (strcmp(name, null_if_empty[i]) == 0)
			return true;
	return false;
}

/*
 * Is clause "inner column = $n", $n a parameter of sp set from a column of
 * the outer table, with a join key's type? The columns go to the lists.
 */
static bool
subplan_key(SubPlan *sp, RelOptInfo *baserel, RelOptInfo *inner, Expr *clause,
			List **inner_keys, List **outer_keys)
{
	OpExpr	   *op;
	Node	   *l,
			   *r;
	char	   *opname;
	Var		   *iv;
	Var		   *ov;
	Param	   *p;
	int			idx;
	TypeClass	tc;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return false;
	op = (OpExpr *) clause;
	opname = get_opname(op->opno);
	if (!opname || strcmp(opname, "=") != 0 ||
		get_func_namespace(get_opcode(op->opno)) != PG_CATALOG_NAMESPACE)
		return false;
	l = chfdw_strip_relabel(linitial(op->args));
	r = chfdw_strip_relabel(lsecond(op->args));
	if (IsA(l, Param))
	{
		Node	   *t = l;

		l = r;
		r = t;
	}
	if (!IsA(l, Var) || !IsA(r, Param) || ((Param *) r)->paramkind != PARAM_EXEC)
		return false;
	iv = (Var *) l;
	p = (Param *) r;
	if (iv->varno != inner->relid || iv->varlevelsup != 0 || iv->varattno <= 0)
		return false;
	{
		/* a column ClickHouse holds as declared (remote.c) */
		ShipCtx		icx = chfdw_ship_ctx(inner, ((ChFdwRelInfo *) inner->fdw_private)->relid);

		if (!chfdw_is_our_var(&icx, (Node *) iv))
			return false;
	}
	if (!list_member_int(sp->parParam, p->paramid))
		return false;
	idx = 0;
	while (list_nth_int(sp->parParam, idx) != p->paramid)
		idx++;
	ov = (Var *) chfdw_strip_relabel(list_nth(sp->args, idx));
	if (!IsA(ov, Var) || ov->varno != baserel->relid || ov->varlevelsup != 0 ||
		ov->varattno <= 0)
		return false;
	tc = chfdw_type_class(iv->vartype);
	if (tc != chfdw_type_class(ov->vartype) || (tc != TC_INT && tc != TC_TEXT) ||
		chfdw_type_class(p->paramtype) != tc)
		return false;
	if (tc == TC_TEXT && OidIsValid(op->inputcollid) &&
		!get_collation_isdeterministic(op->inputcollid))
		return false;
	*inner_keys = lappend(*inner_keys, iv);
	*outer_keys = lappend(*outer_keys, ov);
	return true;
}

/* sp as SubPlanShip when ClickHouse computes it (see above), else NULL. */
static SubPlanShip *
subplan_ship(PlannerInfo *root, RelOptInfo *baserel, ChFdwRelInfo *fp, SubPlan *sp,
			 bool in_tlist)
{
	PlannerInfo *subroot;
	Query	   *sq;
	RangeTblRef *rtr;
	RelOptInfo *inner;
	ChFdwRelInfo *ifp;
	SubPlanShip *s;
	TargetEntry *out = NULL;
	ListCell   *lc;
	Node	   *e;
	int			nkeys;
	const ch_caps *caps;

	int			kind;
	Node	   *in_outer = NULL;
	OpExpr	   *in_op = NULL;

	if (sp->setParam || sp->plan_id < 1 || sp->plan_id > list_length(root->glob->subroots))
		return NULL;
	if (sp->subLinkType == EXPR_SUBLINK && !sp->testexpr && !sp->useHashTable &&
		sp->parParam != NIL && list_length(sp->parParam) == list_length(sp->args))
		kind = SHIP_SCALAR;
	else if (sp->subLinkType == EXISTS_SUBLINK && !sp->testexpr && !sp->useHashTable &&
			 sp->parParam != NIL && list_length(sp->parParam) == list_length(sp->args))
		kind = SHIP_EXISTS;
	else if (sp->subLinkType == ANY_SUBLINK && sp->parParam == NIL && sp->args == NIL &&
			 sp->testexpr && IsA(sp->testexpr, OpExpr) &&
			 list_length(((OpExpr *) sp->testexpr)->args) == 2 &&
			 list_length(sp->paramIds) == 1)
	{
		/* "outer = $n", $n the subquery's column */
		Node	   *r;
		char	   *opname;

		in_op = (OpExpr *) sp->testexpr;
		opname = get_opname(in_op->opno);
		in_outer = chfdw_strip_relabel(linitial(in_op->args));
		r = chfdw_strip_relabel(lsecond(in_op->args));
		if (!opname || strcmp(opname, "=") != 0 ||
			get_func_namespace(get_opcode(in_op->opno)) != PG_CATALOG_NAMESPACE ||
			!IsA(r, Param) || ((Param *) r)->paramkind != PARAM_EXEC ||
			((Param *) r)->paramid != linitial_int(sp->paramIds) ||
			!IsA(in_outer, Var) || ((Var *) in_outer)->varno != baserel->relid ||
			((Var *) in_outer)->varlevelsup != 0 || ((Var *) in_outer)->varattno <= 0)
			return NULL;
		kind = SHIP_IN;
	}
	else
		return NULL;
	subroot = (PlannerInfo *) list_nth(root->glob->subroots, sp->plan_id - 1);
	sq = subroot ? subroot->parse : NULL;
	if (!sq || sq->commandType != CMD_SELECT ||
		(kind == SHIP_SCALAR ? !sq->hasAggs && !in_tlist : sq->hasAggs) || sq->groupClause ||
		sq->groupingSets || sq->havingQual || sq->hasWindowFuncs || sq->distinctClause ||
		sq->sortClause || sq->limitCount || sq->limitOffset || sq->setOperations ||
		sq->hasTargetSRFs || sq->hasSubLinks || sq->rowMarks || sq->cteList ||
		list_length(sq->jointree->fromlist) != 1 ||
		!IsA(linitial(sq->jointree->fromlist), RangeTblRef))
		return NULL;
	foreach(lc, sq->targetList)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (tle->resjunk)
			continue;
		if (out)
			return NULL;
		out = tle;
	}
	e = out ? chfdw_strip_relabel((Node *) out->expr) : NULL;
	if (kind == SHIP_EXISTS)
		e = NULL;				/* what EXISTS selects does not matter */
	else if (!e || (sq->hasAggs && !IsA(e, Aggref)) || has_exec_param(e, NULL))
		return NULL;
	rtr = (RangeTblRef *) linitial(sq->jointree->fromlist);
	if (rtr->rtindex >= subroot->simple_rel_array_size)
		return NULL;
	inner = subroot->simple_rel_array[rtr->rtindex];
	if (!inner || inner->reloptkind != RELOPT_BASEREL || inner->rtekind != RTE_RELATION ||
		!chfdw_is_our_rel(inner) || IS_DUMMY_REL(inner) ||
		planner_rt_fetch(inner->relid, subroot)->inh || !bms_is_empty(inner->lateral_relids))
		return NULL;
	ifp = (ChFdwRelInfo *) inner->fdw_private;
	/* a column of either table named as the subquery's aliases: local (deparse.c) */
	if (!ifp || ifp->serverid != fp->serverid || ifp->userid != fp->userid ||
		ifp->alias_like || fp->alias_like)
		return NULL;

	s = palloc0(sizeof(SubPlanShip));
	s->subplan = sp;
	s->inner_rel = inner;
	s->inner_relid = ifp->relid;
	s->agg = (Expr *) e;
	s->in_tlist = in_tlist;
	s->kind = kind;
	s->one_row = kind == SHIP_SCALAR && !sq->hasAggs;
	/*
	 * No date or timestamp column in the subquery: its SQL is resolved per
	 * table when a scan starts (deparse.c), and the scan is the outer
	 * table's.
	 */
	if (!vars_types_ok(e))
		return NULL;
	if (kind == SHIP_IN)
	{
		/* (subq3) a column of the inner table against one of the outer, a join key's type */
		ShipCtx		icx = chfdw_ship_ctx(inner, ifp->relid);
		TypeClass	tc = chfdw_type_class(exprType(e));

		if (!IsA(e, Var) || ((Var *) e)->varno != inner->relid || !chfdw_is_our_var(&icx, e) ||
			(tc != TC_INT && tc != TC_TEXT) || tc != chfdw_type_class(exprType(in_outer)) ||
			(tc == TC_TEXT && OidIsValid(in_op->inputcollid) &&
			 !get_collation_isdeterministic(in_op->inputcollid)))
			return NULL;
		s->in_outer = (Expr *) in_outer;
		s->in_collid = in_op->inputcollid;
	}
	else if (kind == SHIP_EXISTS)
		;
	else if (s->one_row)
	{
		/* (subq3) a value of the inner table's row ClickHouse computes */
		ShipCtx		icx = chfdw_ship_ctx(inner, ifp->relid);

		if (chfdw_type_class(exprType(e)) == TC_NONE || contain_volatile_functions(e) ||
			!chfdw_value_shippable(&icx, e))
			return NULL;
	}
	else if (!subplan_agg_ok((Aggref *) e, &s->zero_if_empty) ||
			 !chfdw_is_shippable_grouping_expr(inner, ifp->relid, (Expr *) e, false) ||
			 chfdw_agg_finish((Expr *) e) != CHFDW_FINISH_NONE)
		return NULL;
	foreach(lc, inner->baserestrictinfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (ri->pseudoconstant)
			return NULL;
		if (subplan_key(sp, baserel, inner, ri->clause, &s->inner_keys, &s->outer_keys))
			continue;
		if (!list_member_ptr(ifp->remote_conds, ri) || has_exec_param((Node *) ri->clause, NULL) ||
			!vars_types_ok((Node *) ri->clause))
			return NULL;
		s->inner_conds = lappend(s->inner_conds, ri->clause);
	}
	/* every parameter is a key's (none read elsewhere: checked above) */
	nkeys = list_length(s->inner_keys);
	if ((nkeys == 0) != (kind == SHIP_IN))
		return NULL;
	/* last, as it may connect (a server that cannot be asked: local, probe.c) */
	caps = chfdw_caps_try(fp->userid, fp->serverid);
	if (!caps || !caps->correlated_subqueries)
		return NULL;
	return s;
}

/* Collect the SubPlans of a condition. */
static bool
collect_subplans(Node *node, List **found)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubPlan))
		*found = lappend(*found, node);
	return expression_tree_walker(node, collect_subplans, (void *) found);
}

/*
 * (subq3) Is the SELECT list of the query the scan's own (as for
 * chfdw_chfunc_scan_tlist: one relation, no aggregate, window, set
 * operation, set-returning function or row lock)? Not under ORDER BY with
 * a LIMIT: PostgreSQL then computes a costly output (a SubPlan) above the
 * sort and limit (make_sort_input_target), not in the scan.
 */
static bool
tlist_subplans_ok(PlannerInfo *root, RelOptInfo *baserel)
{
	Query	   *parse = root->parse;

	return !(parse->hasAggs || parse->groupClause != NIL || parse->groupingSets != NIL ||
			 parse->hasWindowFuncs || parse->hasTargetSRFs || parse->setOperations ||
			 parse->havingQual || baserel->reloptkind != RELOPT_BASEREL ||
			 !bms_equal(root->all_baserels, baserel->relids) ||
			 (parse->sortClause && (parse->limitCount || parse->limitOffset)));
}

/*
 * The correlated subqueries of baserel's conditions ClickHouse can compute
 * (SubPlanShips), as GetForeignRelSize classifies them
 * (chfdw_subplan_shippable, chfdw_deparse_subplan).
 */
List *
chfdw_subplans_prepare(PlannerInfo *root, RelOptInfo *baserel, ChFdwRelInfo *fp)
{
	List	   *found = NIL;
	List	   *ships = NIL;
	ListCell   *lc;

	if (root->parse->commandType != CMD_SELECT || root->parse->rowMarks != NIL)
		return NIL;
	foreach(lc, baserel->baserestrictinfo)
		collect_subplans((Node *) lfirst_node(RestrictInfo, lc)->clause, &found);
	foreach(lc, found)
	{
		SubPlanShip *s = subplan_ship(root, baserel, fp, (SubPlan *) lfirst(lc), false);

		if (s)
			ships = lappend(ships, s);
	}
	/* (subq3) those of the SELECT list (chfdw_subplan_scan_tlist) */
	if (tlist_subplans_ok(root, baserel))
	{
		found = NIL;
		foreach(lc, root->processed_tlist)
			collect_subplans((Node *) lfirst_node(TargetEntry, lc)->expr, &found);
		foreach(lc, found)
		{
			SubPlanShip *s = subplan_ship(root, baserel, fp, (SubPlan *) lfirst(lc), true);

			if (s)
				ships = lappend(ships, s);
		}
	}
	return ships;
}

static SubPlanShip *
find_ship(ShipCtx *cx, SubPlan *sp)
{
	ChFdwRelInfo *fp;
	ListCell   *lc;

	/* a foreign table's own condition, columns by name */
	if (!cx->baserel || !OidIsValid(cx->relid) || cx->qualify ||
		!cx->baserel->fdw_private)
		return NULL;
	fp = (ChFdwRelInfo *) cx->baserel->fdw_private;
	if (fp->is_join || fp->is_upper)
		return NULL;
	foreach(lc, fp->subplans)
		if (((SubPlanShip *) lfirst(lc))->subplan == sp)
			return (SubPlanShip *) lfirst(lc);
	return NULL;
}

static bool
ship_ok(ShipCtx *cx, SubPlanShip *s)
{
	ListCell   *lc;

	if (!s || (s->kind == SHIP_SCALAR && chfdw_type_class(s->subplan->firstColType) == TC_NONE))
		return false;
	if (s->kind == SHIP_IN && !chfdw_is_our_var(cx, (Node *) s->in_outer))
		return false;
	foreach(lc, s->outer_keys)
		if (!chfdw_is_our_var(cx, (Node *) lfirst(lc)))
			return false;
	return true;
}

bool
chfdw_subplan_shippable(ShipCtx *cx, SubPlan *sp)
{
	SubPlanShip *s = find_ship(cx, sp);

	/* those of the SELECT list: only as chfdw_subplan_scan_tlist adds them */
	return s && !s->in_tlist && ship_ok(cx, s);
}

/*
 * (subq3) An AlternativeSubPlan (an EXISTS under OR: its correlated
 * sub-plan and the hashed "= ANY" one, which setrefs.c chooses between
 * later): sent as the first member ClickHouse computes, as both answer
 * alike where PostgreSQL makes one.
 */
static SubPlan *
alt_member(ShipCtx *cx, AlternativeSubPlan *asp)
{
	ListCell   *lc;

	foreach(lc, asp->subplans)
		if (IsA(lfirst(lc), SubPlan) && chfdw_subplan_shippable(cx, (SubPlan *) lfirst(lc)))
			return (SubPlan *) lfirst(lc);
	return NULL;
}

bool
chfdw_altsubplan_shippable(ShipCtx *cx, AlternativeSubPlan *asp)
{
	return alt_member(cx, asp) != NULL;
}

void
chfdw_deparse_altsubplan(StringInfo buf, ShipCtx *cx, AlternativeSubPlan *asp)
{
	SubPlan    *sp = alt_member(cx, asp);

	if (!sp)
		elog(ERROR, "clickhouse_fdw: a correlated subquery not prepared for sending");
	chfdw_deparse_subplan(buf, cx, sp);
}

/*
 * (subq3) " FROM <inner> WHERE <its conditions> AND <extra>": the inner
 * table of s with its own conditions and those of extra (a NullTest kind
 * over each of exprs, or none).
 */
static void
inner_from(StringInfo buf, ShipCtx *cx, SubPlanShip *s, List *exprs, NullTestType nt_kind)
{
	List	   *conds = list_copy(s->inner_conds);
	ListCell   *lc;
	Relation	r;

	foreach(lc, exprs)
	{
		NullTest   *nt = makeNode(NullTest);

		nt->arg = (Expr *) lfirst(lc);
		nt->nulltesttype = nt_kind;
		nt->argisrow = false;
		nt->location = -1;
		conds = lappend(conds, nt);
	}
	appendStringInfoString(buf, " FROM ");
	r = table_open(s->inner_relid, NoLock);
	chfdw_deparse_table(buf, r);
	table_close(r, NoLock);
	chfdw_deparse_where(cx->dp, buf, s->inner_rel, s->inner_relid, conds);
}

/*
 * (subq3) EXISTS correlated by equalities, two-valued as PostgreSQL's (a
 * NULL key matches nothing):
 *	  (isNotNull(o1) AND ... AND (o1, ...) IN (SELECT i1, ... FROM t WHERE
 *	   <conds> AND isNotNull(i1) ...))
 * and "o = ANY (SELECT i FROM t WHERE <conds>)", three-valued as
 * PostgreSQL's (NULL where no row equals and one is NULL, or o is NULL
 * over some rows; ClickHouse's own IN answers 0 there):
 *	  multiIf(isNull(o), if((SELECT count() FROM t WHERE <conds>) > 0,
 *	  NULL, 0), o IN (SELECT i FROM t WHERE <conds> AND isNotNull(i)), 1,
 *	  (SELECT count() FROM t WHERE <conds> AND isNull(i)) > 0, NULL, 0)
 * The uncorrelated subqueries are computed once.
 */
static void
deparse_exists_in(StringInfo buf, ShipCtx *cx, SubPlanShip *s)
{
	ListCell   *lc;
	List	   *in = list_make1(s->agg);

	if (s->kind == SHIP_EXISTS)
	{
		appendStringInfoChar(buf, '(');
		foreach(lc, s->outer_keys)
		{
			appendStringInfoString(buf, "isNotNull(");
			chfdw_deparse_value(buf, cx, (Node *) lfirst(lc));
			appendStringInfoString(buf, ") AND ");
		}
		appendStringInfoString(buf, list_length(s->outer_keys) > 1 ? "(" : "");
		foreach(lc, s->outer_keys)
		{
			if (lc != list_head(s->outer_keys))
				appendStringInfoString(buf, ", ");
			chfdw_deparse_value(buf, cx, (Node *) lfirst(lc));
		}
		appendStringInfoString(buf, list_length(s->outer_keys) > 1 ? ") IN (SELECT " : " IN (SELECT ");
		foreach(lc, s->inner_keys)
		{
			if (lc != list_head(s->inner_keys))
				appendStringInfoString(buf, ", ");
			/* as it is: ClickHouse compares integers of any widths exactly */
			chfdw_deparse_column(buf, s->inner_relid, ((Var *) lfirst(lc))->varattno);
		}
		inner_from(buf, cx, s, s->inner_keys, IS_NOT_NULL);
		appendStringInfoString(buf, "))");
		return;
	}
	appendStringInfoString(buf, "multiIf(isNull(");
	chfdw_deparse_value(buf, cx, (Node *) s->in_outer);
	appendStringInfoString(buf, "), if((SELECT count()");
	inner_from(buf, cx, s, NIL, IS_NOT_NULL);
	appendStringInfoString(buf, ") > 0, NULL, 0), ");
	chfdw_deparse_value(buf, cx, (Node *) s->in_outer);
	appendStringInfoString(buf, " IN (SELECT ");
	chfdw_deparse_column(buf, s->inner_relid, ((Var *) s->agg)->varattno);
	inner_from(buf, cx, s, in, IS_NOT_NULL);
	appendStringInfoString(buf, "), 1, (SELECT count()");
	inner_from(buf, cx, s, in, IS_NULL);
	appendStringInfoString(buf, ") > 0, NULL, 0)");
}

void
chfdw_deparse_subplan(StringInfo buf, ShipCtx *cx, SubPlan *sp)
{
	SubPlanShip *s = find_ship(cx, sp);
	ChFdwDeparse *dp = cx->dp;
	ListCell   *lc;
	int			n;
	int			i;

	if (!s || !dp)
		elog(ERROR, "clickhouse_fdw: a correlated subquery not prepared for sending");
	if (s->kind != SHIP_SCALAR)
	{
		deparse_exists_in(buf, cx, s);
		return;
	}
	n = ++dp->nalias;
	if (s->zero_if_empty)
		appendStringInfoString(buf, "ifNull(");
	if (s->one_row)
		/* PostgreSQL's 21000 for two rows or more: pushdown_map.c's guard */
		appendStringInfo(buf, "(SELECT if(toInt8(if(`__sq%d_n` > 1, '%s', '0')) = 0, `__sq%d_v`, NULL) FROM (SELECT ",
						 n, chfdw_raise_marker(CHFDW_RAISE_SUBQUERY_ROWS), n);
	else
		appendStringInfo(buf, "(SELECT `__sq%d_v` FROM (SELECT ", n);
	i = 0;
	foreach(lc, s->inner_keys)
	{
		Var		   *iv = (Var *) lfirst(lc);

		/* as it is: ClickHouse compares integers of any widths exactly */
		chfdw_deparse_column(buf, s->inner_relid, iv->varattno);
		appendStringInfo(buf, " AS `__sq%d_k%d`, ", n, ++i);
	}
	if (s->one_row)
	{
		/*
		 * (subq3) the group's row count and its value, Nullable (NULL over
		 * no rows); the 21000 guard is computed after the outer key picked
		 * the group (below), so only groups an outer row reads raise
		 */
		appendStringInfo(buf, "count() AS `__sq%d_n`, toNullable(any(", n);
		chfdw_deparse_grouped_output(dp, buf, s->inner_rel, s->inner_relid, s->agg, false);
		appendStringInfoString(buf, "))");
	}
	else
		chfdw_deparse_grouped_output(dp, buf, s->inner_rel, s->inner_relid, s->agg, false);
	appendStringInfo(buf, " AS `__sq%d_v`", n);
	/* the subquery's own conditions, and no NULL key */
	inner_from(buf, cx, s, s->inner_keys, IS_NOT_NULL);
	appendStringInfoString(buf, " GROUP BY ");
	for (i = 1; i <= list_length(s->inner_keys); i++)
		appendStringInfo(buf, "%s`__sq%d_k%d`", i > 1 ? ", " : "", n, i);
	appendStringInfoString(buf, ") WHERE ");
	i = 0;
	foreach(lc, s->outer_keys)
	{
		appendStringInfo(buf, "%s`__sq%d_k%d` = ", i > 0 ? " AND " : "", n, i + 1);
		chfdw_deparse_value(buf, cx, (Node *) lfirst(lc));
		i++;
	}
	appendStringInfoChar(buf, ')');
	if (s->zero_if_empty)
		appendStringInfoString(buf, ", 0)");
}

/*
 * (subq3) chfdw_subplan_scan_tlist
 *		scan_tlist (a plain scan's fdw_scan_tlist, or NIL) with the
 *		correlated scalar subqueries of the SELECT list ClickHouse computes
 *		(SubPlanShips of the target list), or scan_tlist as it was. As for
 *		ClickHouse's own functions (chfdw_chfunc_scan_tlist), PostgreSQL
 *		then reads each from the scan's tuple (set_foreign_scan_references
 *		matches whole expressions). One that raises 21000 (no aggregate)
 *		only where PostgreSQL computes it for every row ClickHouse returns:
 *		no local condition, LIMIT, OFFSET, cursor or EXISTS above
 *		(tuple_fraction 0).
 */
List *
chfdw_subplan_scan_tlist(PlannerInfo *root, RelOptInfo *baserel, Oid relid, List *scan_tlist,
						 List *local_exprs)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) baserel->fdw_private;
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);
	Query	   *parse = root->parse;
	bool		may_raise;
	List	   *add = NIL;
	ListCell   *lc;

	may_raise = local_exprs == NIL && root->tuple_fraction == 0.0 && !parse->limitCount &&
		!parse->limitOffset;
	foreach(lc, fp->subplans)
	{
		SubPlanShip *s = (SubPlanShip *) lfirst(lc);

		if (s->in_tlist && (may_raise || !s->one_row) && ship_ok(&cx, s))
			add = lappend(add, s->subplan);
	}
	if (add == NIL)
		return scan_tlist;
	if (scan_tlist == NIL)
	{
		/* the columns the output and the local conditions read */
		List	   *vars = pull_var_clause((Node *) baserel->reltarget->exprs,
										   PVC_RECURSE_PLACEHOLDERS);

		foreach(lc, local_exprs)
			vars = list_concat(vars, pull_var_clause((Node *) lfirst(lc),
													 PVC_RECURSE_PLACEHOLDERS));
		foreach(lc, vars)
		{
			Var		   *v = (Var *) lfirst(lc);

			if (!IsA(v, Var) || v->varno != baserel->relid || v->varattno <= 0 ||
				v->varlevelsup != 0)
				return NIL;
		}
		scan_tlist = add_to_flat_tlist(NIL, vars);
	}
	/* the SubPlans themselves, not copies (chfdw_deparse_subplan finds them) */
	foreach(lc, add)
		if (!tlist_member((Expr *) lfirst(lc), scan_tlist))
			scan_tlist = lappend(scan_tlist,
								 makeTargetEntry((Expr *) lfirst(lc), list_length(scan_tlist) + 1,
												 NULL, false));
	return scan_tlist;
}
