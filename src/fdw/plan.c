/*-------------------------------------------------------------------------
 * plan.c
 *	  Planning of joins computed by ClickHouse: join paths of foreign tables
 *	  of one server and user mapping (GetForeignJoinPaths), their costs and
 *	  the shippability context of a join; the SQL is built by deparse.c.
 *
 * Pushed: INNER, LEFT, RIGHT and FULL joins, SEMI joins (EXISTS, IN) and
 * ANTI joins (NOT EXISTS), of base foreign tables or of joins pushed
 * before (multi-way trees), when
 *	- the join has at least one equality "a.x = b.y" between a column of
 *	  each side, integers (any width) or text under a deterministic
 *	  collation (equality is then byte equality, as in ClickHouse): the keys;
 *	- every other ON condition of an outer, SEMI or ANTI join is on one side
 *	  alone (the nullable one for an outer join: evaluated in that side's
 *	  sub-SELECT, before the join) and shippable;
 *	- conditions above the join (and an inner join's other conditions) are
 *	  sent when shippable, else evaluated by PostgreSQL on the join's rows;
 *	- neither side has conditions PostgreSQL evaluates;
 *	- every output is a plain column of a type ClickHouse can make
 *	  Nullable, not timestamp (its zone comes from the table's catalog,
 *	  which a join scan does not read);
 *	- the query is a plain SELECT (no FOR UPDATE, no UPDATE ... FROM), and
 *	  the join needs no value of another relation (LATERAL).
 * The path costs one remote query reading every row of the tables and
 * returning the join's rows: the planner keeps the local join when that is
 * cheaper (a join returning far more rows than its inputs).
 *
 * src/fdw/plan.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "optimizer/cost.h"
#include "parser/parsetree.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "utils/lsyscache.h"
#include "utils/builtins.h"

#include "chfdw.h"
#include "shippable.h"

/*
 * The context of a condition over a join of foreign tables: its columns
 * are those of every table of the join, named by their aliases; text is
 * declared to sort as bytes only when every table declares it.
 */
ShipCtx
chfdw_ship_ctx_join(PlannerInfo *root, RelOptInfo *joinrel)
{
	ShipCtx		cx;
	int			i = -1;

	cx.baserel = joinrel;
	cx.relid = InvalidOid;
	cx.visible = joinrel->fdw_private ? ((ChFdwRelInfo *) joinrel->fdw_private)->visible :
		joinrel->relids;
	cx.dp = NULL;
	cx.allow_aggs = false;
	cx.allow_outer = false;
	cx.may_raise = false;
	cx.key_args = NIL;
	cx.root = root;
	cx.qualify = true;
	cx.text_bytes = true;
	while ((i = bms_next_member(joinrel->relids, i)) >= 0)
		if (!chfdw_text_sorts_as_bytes(planner_rt_fetch(i, root)->relid))
			cx.text_bytes = false;
	return cx;
}

/* The foreign table a column of the context's relation belongs to. */
Oid
chfdw_var_relid(ShipCtx *cx, Var *v)
{
	return cx->root ? planner_rt_fetch(v->varno, cx->root)->relid : cx->relid;
}

/* The Vars of a clause, if they all belong to rel. */
static bool
clause_on(Node *clause, RelOptInfo *rel)
{
	Relids		r = pull_varnos(NULL, clause);

	return !bms_is_empty(r) && bms_is_subset(r, rel->relids);
}

/*
 * Is ri "outer column = inner column" with a key type? *ov / *iv: the
 * columns of the outer and inner side.
 */
static bool
join_key(PlannerInfo *root, RestrictInfo *ri, RelOptInfo *outerrel, RelOptInfo *innerrel,
		 Var **ov, Var **iv)
{
	OpExpr	   *op;
	Node	   *l,
			   *r;
	char	   *opname;
	ShipCtx		ocx,
				icx;
	TypeClass	lt,
				rt;

	if (!IsA(ri->clause, OpExpr))
		return false;
	op = (OpExpr *) ri->clause;
	if (list_length(op->args) != 2)
		return false;
	opname = get_opname(op->opno);
	if (!opname || strcmp(opname, "=") != 0 ||
		get_func_namespace(get_opcode(op->opno)) != PG_CATALOG_NAMESPACE)
		return false;
	l = chfdw_strip_relabel(linitial(op->args));
	r = chfdw_strip_relabel(lsecond(op->args));
	if (!IsA(l, Var) || !IsA(r, Var))
		return false;
	if (bms_is_member(((Var *) l)->varno, innerrel->relids))
	{
		Node	   *t = l;

		l = r;
		r = t;
	}
	ocx = outerrel->fdw_private && ((ChFdwRelInfo *) outerrel->fdw_private)->is_join ?
		chfdw_ship_ctx_join(root, outerrel) :
		chfdw_ship_ctx(outerrel, ((ChFdwRelInfo *) outerrel->fdw_private)->relid);
	icx = ((ChFdwRelInfo *) innerrel->fdw_private)->is_join ?
		chfdw_ship_ctx_join(root, innerrel) :
		chfdw_ship_ctx(innerrel, ((ChFdwRelInfo *) innerrel->fdw_private)->relid);
	if (!chfdw_is_our_var(&ocx, l) || !chfdw_is_our_var(&icx, r))
		return false;
	lt = chfdw_type_class(((Var *) l)->vartype);
	rt = chfdw_type_class(((Var *) r)->vartype);
	if (lt != rt || (lt != TC_INT && lt != TC_TEXT && lt != TC_NUMERIC))
		return false;
	if (lt == TC_NUMERIC)
	{
		int			ls,
					rs;

		/*
		 * A numeric key's scale: its ClickHouse column's, an integer (0) or
		 * a Decimal (numconst.c; Float or String columns and ones of an
		 * unknown type are no keys). Both sides are sent as toString() of
		 * the value (deparse.c's deparse_key), one text per value of one
		 * scale (18.16 writes every fractional digit, 1.50; later servers
		 * drop trailing zeros, 1.5): so the scales must be equal.
		 */
		if (!chfdw_numeric_grid_scale(&ocx, l, &ls) ||
			!chfdw_numeric_grid_scale(&icx, r, &rs) || ls != rs)
			return false;
	}
	if (lt == TC_TEXT && OidIsValid(op->inputcollid) &&
		!get_collation_isdeterministic(op->inputcollid))
		return false;
	*ov = (Var *) l;
	*iv = (Var *) r;
	return true;
}

/*
 * Does a list of conditions (RestrictInfos or bare clauses) use a date
 * column? Inside a table's sub-SELECT such a column is written as a marker
 * resolved against one table's catalog when the query starts
 * (chfdw_deparse_date_column): a join's scan does not resolve them.
 */
static bool
uses_date_column(List *conds)
{
	ListCell   *lc;

	foreach(lc, conds)
	{
		Node	   *c = (Node *) lfirst(lc);
		ListCell   *lv;

		if (IsA(c, RestrictInfo))
			c = (Node *) ((RestrictInfo *) c)->clause;
		foreach(lv, pull_var_clause(c, PVC_RECURSE_PLACEHOLDERS))
			if (IsA(lfirst(lv), Var) && ((Var *) lfirst(lv))->vartype == DATEOID)
				return true;
	}
	return false;
}

/* A base relation's or a pushed join's shippability context. */
static bool
side_shippable(PlannerInfo *root, RelOptInfo *rel, Expr *clause)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;

	if (fp->is_join)
		return chfdw_is_shippable_rel(root, rel, clause);
	return chfdw_is_shippable(root, rel, fp->relid, clause);
}

/*
 * Can ClickHouse return the outputs of joinrel? Plain columns of its
 * tables; on a side an outer join fills with NULLs, of scalar types only
 * (ClickHouse cannot make an Array Nullable); of a SEMI or ANTI join, the
 * outer side's only.
 */
static bool
outputs_ok(RelOptInfo *joinrel, RelOptInfo *outerrel, RelOptInfo *innerrel, JoinType jt)
{
	ListCell   *lc;

	foreach(lc, joinrel->reltarget->exprs)
	{
		Var		   *v = (Var *) lfirst(lc);
		bool		nullable;

		if (!IsA(v, Var) || v->varattno <= 0 || v->varlevelsup != 0 ||
			!bms_is_member(v->varno, joinrel->relids))
			return false;
		if (v->vartype == TIMESTAMPOID)
			return false;
		/*
		 * A SEMI or ANTI join returns the outer side's columns only (an
		 * outer join reduced to ANTI may still name the inner side's, all
		 * NULL: not sent).
		 */
		if ((jt == JOIN_SEMI || jt == JOIN_ANTI) && bms_is_member(v->varno, innerrel->relids))
			return false;
		nullable = (jt == JOIN_FULL) ||
			(jt == JOIN_LEFT && bms_is_member(v->varno, innerrel->relids)) ||
			(jt == JOIN_RIGHT && bms_is_member(v->varno, outerrel->relids));
		if (nullable && chfdw_type_class(v->vartype) == TC_NONE)
			return false;
	}
	return true;
}

/* The columns a join scan returns: its outputs and what local conditions use. */
List *
chfdw_join_scan_tlist(RelOptInfo *joinrel)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) joinrel->fdw_private;
	List	   *tlist = add_to_flat_tlist(NIL, pull_var_clause((Node *) joinrel->reltarget->exprs,
															   PVC_RECURSE_PLACEHOLDERS));
	ListCell   *lc;

	foreach(lc, fp->local_conds)
		tlist = add_to_flat_tlist(tlist,
								  pull_var_clause((Node *) lfirst_node(RestrictInfo, lc)->clause,
												  PVC_RECURSE_PLACEHOLDERS));
	return tlist;
}

/*
 * Classify the join's clauses; false when the join cannot be computed by
 * ClickHouse with PostgreSQL's answer.
 */
static bool
join_shippable(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
			   RelOptInfo *innerrel, JoinType jt, List *restrictlist, ChFdwRelInfo *fp)
{
	ListCell   *lc;

	foreach(lc, restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		Var		   *ov,
				   *iv;

		if (ri->pseudoconstant)
			return false;
		if (jt != JOIN_INNER && jt != JOIN_SEMI && RINFO_IS_PUSHED_DOWN(ri, joinrel->relids))
		{
			/*
			 * Above an outer join: sent, or evaluated on its rows. Above an
			 * ANTI join (LEFT JOIN ... WHERE b.k IS NULL made ANTI): it
			 * names columns the join does not return; the join stays local.
			 */
			if (jt == JOIN_ANTI)
				return false;
			if (chfdw_is_shippable_rel(root, joinrel, ri->clause))
				fp->remote_conds = lappend(fp->remote_conds, ri);
			else
				fp->local_conds = lappend(fp->local_conds, ri);
			continue;
		}
		if (join_key(root, ri, outerrel, innerrel, &ov, &iv))
		{
			fp->outer_keys = lappend(fp->outer_keys, ov);
			fp->inner_keys = lappend(fp->inner_keys, iv);
			continue;
		}
		if (jt == JOIN_INNER)
		{
			/* an inner join's other conditions filter its rows */
			if (chfdw_is_shippable_rel(root, joinrel, ri->clause))
				fp->remote_conds = lappend(fp->remote_conds, ri);
			else
				fp->local_conds = lappend(fp->local_conds, ri);
			continue;
		}
		/*
		 * Another ON clause: on the side that may go missing alone (LEFT,
		 * SEMI, ANTI: the inner side; RIGHT: the outer side), it filters
		 * that side before the join; anything else (a condition per pair
		 * of rows, one on the preserved side) keeps the join local.
		 */
		if ((jt == JOIN_LEFT || jt == JOIN_SEMI || jt == JOIN_ANTI) &&
			clause_on((Node *) ri->clause, innerrel) &&
			side_shippable(root, innerrel, ri->clause))
		{
			fp->inner_side_conds = lappend(fp->inner_side_conds, ri->clause);
			continue;
		}
		if (jt == JOIN_RIGHT && clause_on((Node *) ri->clause, outerrel) &&
			side_shippable(root, outerrel, ri->clause))
		{
			fp->outer_side_conds = lappend(fp->outer_side_conds, ri->clause);
			continue;
		}
		return false;
	}
	return fp->outer_keys != NIL;
}

void
chfdwGetForeignJoinPaths(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
						 RelOptInfo *innerrel, JoinType jointype, JoinPathExtraData *extra)
{
	ChFdwRelInfo *ofp = (ChFdwRelInfo *) outerrel->fdw_private;
	ChFdwRelInfo *ifp = (ChFdwRelInfo *) innerrel->fdw_private;
	ChFdwRelInfo *fp;
	double		rows = joinrel->rows;
	Cost		startup,
				total;
	ForeignPath *path;

	if (joinrel->fdw_private)
		return;					/* already looked at (or refused: see below) */
	if (jointype != JOIN_INNER && jointype != JOIN_LEFT && jointype != JOIN_RIGHT &&
		jointype != JOIN_FULL && jointype != JOIN_SEMI && jointype != JOIN_ANTI)
		return;
	/* a table with a column named as the join's aliases: local (deparse.c) */
	if (!ofp || !ifp || ofp->is_upper || ifp->is_upper || ofp->alias_like || ifp->alias_like)
		return;
	if (ofp->userid != ifp->userid || ofp->serverid != ifp->serverid)
		return;
	if (ofp->local_conds != NIL || ifp->local_conds != NIL)
		return;
	/* no run-time values from other relations are bound into a join's SQL */
	if (root->parse->commandType != CMD_SELECT || root->parse->rowMarks != NIL ||
		root->placeholder_list != NIL || !bms_is_empty(joinrel->lateral_relids))
		return;
	if (!outputs_ok(joinrel, outerrel, innerrel, jointype))
		return;

	fp = palloc0(sizeof(ChFdwRelInfo));
	fp->is_join = true;
	fp->root = root;
	fp->serverid = ofp->serverid;
	fp->userid = ofp->userid;
	fp->outerrel = outerrel;
	fp->innerrel = innerrel;
	fp->jointype = jointype;
	fp->scanned = ofp->scanned + ifp->scanned;
	fp->visible = ofp->is_join ? ofp->visible : outerrel->relids;
	if (jointype != JOIN_SEMI && jointype != JOIN_ANTI)
		fp->visible = bms_union(fp->visible, ifp->is_join ? ifp->visible : innerrel->relids);
	if (!join_shippable(root, joinrel, outerrel, innerrel, jointype, extra->restrictlist, fp))
		return;
	if ((!ofp->is_join && uses_date_column(ofp->remote_conds)) ||
		(!ifp->is_join && uses_date_column(ifp->remote_conds)) ||
		(!ofp->is_join && uses_date_column(fp->outer_side_conds)) ||
		(!ifp->is_join && uses_date_column(fp->inner_side_conds)))
		return;
	/* the keys of a SEMI or ANTI join: its inner side's outputs are not needed above */
	joinrel->fdw_private = fp;

	/*
	 * One query reading every row of the tables (and hashing the inner
	 * side), returning the join's rows; local conditions cost as usual.
	 */
	startup = DEFAULT_STARTUP_COST;
	total = DEFAULT_STARTUP_COST + fp->scanned * REMOTE_SCAN_ROW_COST * 2 +
		rows * (DEFAULT_ROW_COST + cpu_tuple_cost);
	if (fp->local_conds)
	{
		QualCost	qc;

		cost_qual_eval(&qc, extract_actual_clauses(fp->local_conds, false), root);
		total += qc.startup + qc.per_tuple * rows;
	}
	path = create_foreign_join_path(root, joinrel, NULL, rows, startup, total, NIL,
									NULL, NULL, NIL);
	add_path(joinrel, (Path *) path);
	/* the query's ORDER BY, sorted by ClickHouse (a top-N over the join) */
	if (root->query_pathkeys && fp->local_conds == NIL &&
		chfdw_pathkeys_shippable(joinrel, InvalidOid, root->query_pathkeys,
								 joinrel->reltarget->exprs))
		add_path(joinrel, (Path *) create_foreign_join_path(root, joinrel, NULL, rows, startup,
															total * 1.01 + 1,
															root->query_pathkeys,
															NULL, NULL, NIL));
}

/* "(t1 a) INNER JOIN ((t2 b) LEFT JOIN (t3 c))", for EXPLAIN. */
static void
relations_text(StringInfo buf, PlannerInfo *root, RelOptInfo *rel)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;

	if (fp->is_join)
	{
		const char *kind;

		switch (fp->jointype)
		{
			case JOIN_INNER:
				kind = "INNER";
				break;
			case JOIN_LEFT:
				kind = "LEFT";
				break;
			case JOIN_RIGHT:
				kind = "RIGHT";
				break;
			case JOIN_FULL:
				kind = "FULL";
				break;
			case JOIN_SEMI:
				kind = "SEMI";
				break;
			default:
				kind = "ANTI";
				break;
		}
		appendStringInfoChar(buf, '(');
		relations_text(buf, root, fp->outerrel);
		appendStringInfo(buf, ") %s JOIN (", kind);
		relations_text(buf, root, fp->innerrel);
		appendStringInfoChar(buf, ')');
	}
	else
	{
		RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
		char	   *name = get_rel_name(rte->relid);

		appendStringInfoString(buf, quote_identifier(name ? name : "?"));
		if (rte->eref && strcmp(rte->eref->aliasname, name ? name : "") != 0)
			appendStringInfo(buf, " %s", quote_identifier(rte->eref->aliasname));
	}
}

/* What EXPLAIN shows as the relations of a join (or grouped join) scan. */
char *
chfdw_join_relations(PlannerInfo *root, RelOptInfo *joinrel)
{
	StringInfoData buf;

	initStringInfo(&buf);
	relations_text(&buf, root, joinrel);
	return buf.data;
}
