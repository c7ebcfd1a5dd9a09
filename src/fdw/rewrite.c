/*-------------------------------------------------------------------------
 *
 * rewrite.c
 *	  Conditions PostgreSQL would evaluate, rewritten into equivalent ones
 *	  ClickHouse can (README "What is sent", run-time values).
 *
 *	  `ts::date op D` (also `date(ts)`, `D op ts::date`) of a timestamptz
 *	  column ts and a date D that is no column (a constant, current_date,
 *	  current_date - 1, a parameter) is a range of ts: the local date of ts
 *	  is D exactly when ts lies in [start of D, start of D + 1), the starts
 *	  being D::timestamptz in the session zone (PostgreSQL's date_timestamptz,
 *	  which resolves a midnight that a DST change skips to the first instant
 *	  of the day). So
 *		ts::date =  D	  ts >= S AND ts < N
 *		ts::date <> D	  ts < S OR ts >= N
 *		ts::date <	D	  ts < S			ts::date <= D	  ts < N
 *		ts::date >	D	  ts >= N			ts::date >= D	  ts >= S
 *	  with S = c(D)::timestamptz, N = (c(D) + 1)::timestamptz, computed when
 *	  the query starts in the zone it runs in (run-time values, so a cached
 *	  plan stays right in another zone). c() keeps D within 1000-01-01 ..
 *	  9999-12-31, NULL as NULL: ts, read from ClickHouse, lies within
 *	  1900 .. 2300, where comparing with c(D) gives what comparing with D
 *	  gives, and neither the cast nor the + 1 can leave PostgreSQL's range
 *	  (D = 'infinity' or a date past 294276 would raise there).
 *	  The rewritten condition is a PostgreSQL expression too: it is also what
 *	  an EvalPlanQual recheck evaluates.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "chfdw.h"

/* the btree operator of strategy s between two values of type t */
static Oid
btree_op(Oid type, int16 strategy)
{
	Oid			opclass = GetDefaultOpClass(type, BTREE_AM_OID);

	if (!OidIsValid(opclass))
		return InvalidOid;
	return get_opfamily_member(get_opclass_family(opclass), type, type, strategy);
}

static Expr *
make_op(Oid opno, Expr *l, Expr *r)
{
	return make_opclause(opno, BOOLOID, false, l, r, InvalidOid, InvalidOid);
}

static Const *
date_const(int y, int m, int d)
{
	return makeConst(DATEOID, -1, InvalidOid, sizeof(DateADT),
					 DateADTGetDatum(date2j(y, m, d) - POSTGRES_EPOCH_JDATE), false, true);
}

/* CASE WHEN D < lo THEN lo WHEN D > hi THEN hi ELSE D END (NULL: NULL) */
static Expr *
clamp_date(Expr *d)
{
	CaseExpr   *ce = makeNode(CaseExpr);
	Const	   *lo = date_const(1000, 1, 1);
	Const	   *hi = date_const(9999, 12, 31);
	CaseWhen   *w1 = makeNode(CaseWhen);
	CaseWhen   *w2 = makeNode(CaseWhen);

	w1->expr = make_op(btree_op(DATEOID, BTLessStrategyNumber), copyObject(d), (Expr *) lo);
	w1->result = (Expr *) copyObject(lo);
	w1->location = -1;
	w2->expr = make_op(btree_op(DATEOID, BTGreaterStrategyNumber), copyObject(d), (Expr *) hi);
	w2->result = (Expr *) copyObject(hi);
	w2->location = -1;
	ce->casetype = DATEOID;
	ce->casecollid = InvalidOid;
	ce->arg = NULL;
	ce->args = list_make2(w1, w2);
	ce->defresult = copyObject(d);
	ce->location = -1;
	return (Expr *) ce;
}

static Expr *
start_of(Expr *d, int plus_days)
{
	Expr	   *v = clamp_date(d);

	if (plus_days)
		v = (Expr *) makeFuncExpr(F_DATE_PLI, DATEOID,
								  list_make2(v, makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
														  Int32GetDatum(plus_days), false, true)),
								  InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	return (Expr *) makeFuncExpr(F_TIMESTAMPTZ_DATE, TIMESTAMPTZOID, list_make1(v),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CAST);
}

/* ts when n is ts::date (date(ts)) of a timestamptz column of rel, else NULL */
static Var *
date_of_column(RelOptInfo *baserel, Node *n)
{
	FuncExpr   *f;
	Node	   *arg;

	if (!n || !IsA(n, FuncExpr))
		return NULL;
	f = (FuncExpr *) n;
	if (f->funcid != F_DATE_TIMESTAMPTZ || list_length(f->args) != 1)
		return NULL;
	arg = linitial(f->args);
	if (!IsA(arg, Var) || ((Var *) arg)->vartype != TIMESTAMPTZOID ||
		((Var *) arg)->varno != baserel->relid || ((Var *) arg)->varlevelsup != 0)
		return NULL;
	return (Var *) arg;
}

/* a date no column of any relation decides, computed once per execution */
static bool
run_time_date(Node *n)
{
	return n && exprType(n) == DATEOID && !contain_var_clause(n) &&
		!contain_volatile_functions(n) && !contain_subplans(n) &&
		!contain_agg_clause(n) && !contain_window_function(n) && !expression_returns_set(n);
}

static Expr *rewrite_op(RelOptInfo *baserel, Expr *clause);

/*
 * The clause with each `ts::date op D` inside it (also under AND, OR, NOT)
 * rewritten; NULL when there is none.
 */
Expr *
chfdw_rewrite_cond(RelOptInfo *baserel, Expr *clause)
{
	if (IsA(clause, BoolExpr))
	{
		BoolExpr   *b = (BoolExpr *) clause;
		List	   *args = NIL;
		ListCell   *lc;
		bool		any = false;

		foreach(lc, b->args)
		{
			Expr	   *r = chfdw_rewrite_cond(baserel, (Expr *) lfirst(lc));

			any |= r != NULL;
			args = lappend(args, r ? r : lfirst(lc));
		}
		return any ? (Expr *) makeBoolExpr(b->boolop, args, b->location) : NULL;
	}
	return rewrite_op(baserel, clause);
}

static Expr *
rewrite_op(RelOptInfo *baserel, Expr *clause)
{
	OpExpr	   *op;
	Var		   *ts;
	Node	   *d;
	int			cmp;			/* -2 <, -1 <=, 0 =, 1 >=, 2 >, 3 <> */
	Oid			lt = btree_op(TIMESTAMPTZOID, BTLessStrategyNumber);
	Oid			ge = btree_op(TIMESTAMPTZOID, BTGreaterEqualStrategyNumber);

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return NULL;
	op = (OpExpr *) clause;
	switch (get_opcode(op->opno))
	{
		case F_DATE_LT:
			cmp = -2;
			break;
		case F_DATE_LE:
			cmp = -1;
			break;
		case F_DATE_EQ:
			cmp = 0;
			break;
		case F_DATE_GE:
			cmp = 1;
			break;
		case F_DATE_GT:
			cmp = 2;
			break;
		case F_DATE_NE:
			cmp = 3;
			break;
		default:
			return NULL;
	}
	if ((ts = date_of_column(baserel, linitial(op->args))) != NULL)
		d = lsecond(op->args);
	else if ((ts = date_of_column(baserel, lsecond(op->args))) != NULL)
	{
		d = linitial(op->args);
		if (cmp != 0 && cmp != 3)
			cmp = -cmp;			/* D < ts::date is ts::date > D */
	}
	else
		return NULL;
	if (!run_time_date(d) || !OidIsValid(lt) || !OidIsValid(ge))
		return NULL;
	switch (cmp)
	{
		case -2:
			return make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 0));
		case -1:
			return make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 1));
		case 1:
			return make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 0));
		case 2:
			return make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 1));
		case 0:
			return make_andclause(list_make2(make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 0)),
											 make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 1))));
		default:
			return make_orclause(list_make2(make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 0)),
											make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 1))));
	}
}
