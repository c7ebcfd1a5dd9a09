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
 *	  (tscol) The same for a timestamp column (S and N timestamps: the
 *	  date's midnight), and `ts op D` without the cast: a timestamptz or
 *	  timestamp column against a date (PostgreSQL's timestamp(tz)_cmp_date
 *	  compares with the date's start, S) and a timestamptz column against a
 *	  timestamp T (timestamptz_cmp_timestamp: T as timestamptz in the
 *	  session zone), `ts op S`. The timestamp column's side is then sent by
 *	  pushdown_interval.c (its wall time's microseconds).
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

/*
 * CASE WHEN v < lo THEN lo WHEN v > hi THEN hi ELSE v END of a timestamp,
 * timestamptz or date v (NULL as NULL), lo and hi 1000-01-01 and
 * 9999-12-31 (UTC's midnight): every value compared here is in the years
 * 1100 .. 3100, so the clamped v compares as v does, and infinity and the
 * years past 294276 (which extract(epoch) and the bigint cast refuse)
 * become numbers
 */
Expr *
chfdw_clamp_time(Expr *v)
{
	Oid			type = exprType((Node *) v);
	Oid			opclass = GetDefaultOpClass(type, BTREE_AM_OID);
	Oid			family = get_opclass_family(opclass);
	Const	   *lo,
			   *hi;
	CaseExpr   *ce = makeNode(CaseExpr);
	CaseWhen   *w1 = makeNode(CaseWhen);
	CaseWhen   *w2 = makeNode(CaseWhen);

	if (type == DATEOID)
	{
		lo = makeConst(DATEOID, -1, InvalidOid, sizeof(DateADT),
					   DateADTGetDatum(date2j(1000, 1, 1) - POSTGRES_EPOCH_JDATE), false, true);
		hi = makeConst(DATEOID, -1, InvalidOid, sizeof(DateADT),
					   DateADTGetDatum(date2j(9999, 12, 31) - POSTGRES_EPOCH_JDATE), false, true);
	}
	else
	{
		lo = makeConst(type, -1, InvalidOid, sizeof(Timestamp),
					   TimestampGetDatum((Timestamp) (date2j(1000, 1, 1) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY),
					   false, FLOAT8PASSBYVAL);
		hi = makeConst(type, -1, InvalidOid, sizeof(Timestamp),
					   TimestampGetDatum((Timestamp) (date2j(9999, 12, 31) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY),
					   false, FLOAT8PASSBYVAL);
	}
	w1->expr = make_opclause(get_opfamily_member(family, type, type, BTLessStrategyNumber), BOOLOID,
							 false, copyObject(v), (Expr *) lo, InvalidOid, InvalidOid);
	w1->result = (Expr *) copyObject(lo);
	w1->location = -1;
	w2->expr = make_opclause(get_opfamily_member(family, type, type, BTGreaterStrategyNumber), BOOLOID,
							 false, copyObject(v), (Expr *) hi, InvalidOid, InvalidOid);
	w2->result = (Expr *) copyObject(hi);
	w2->location = -1;
	ce->casetype = type;
	ce->casecollid = InvalidOid;
	ce->arg = NULL;
	ce->args = list_make2(w1, w2);
	ce->defresult = copyObject(v);
	ce->location = -1;
	return (Expr *) ce;
}

/*
 * The start of D + plus_days in type (timestamptz: the session zone's), or
 * a timestamp D as timestamptz in the session zone
 */
static Expr *
start_of(Expr *d, int plus_days, Oid type)
{
	Expr	   *v = chfdw_clamp_time(d);

	if (exprType((Node *) d) == TIMESTAMPOID)
		return (Expr *) makeFuncExpr(F_TIMESTAMPTZ_TIMESTAMP, TIMESTAMPTZOID, list_make1(v),
									 InvalidOid, InvalidOid, COERCE_EXPLICIT_CAST);
	if (plus_days)
		v = (Expr *) makeFuncExpr(F_DATE_PLI, DATEOID,
								  list_make2(v, makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
														  Int32GetDatum(plus_days), false, true)),
								  InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	return (Expr *) makeFuncExpr(type == TIMESTAMPTZOID ? F_TIMESTAMPTZ_DATE : F_TIMESTAMP_DATE,
								 type, list_make1(v), InvalidOid, InvalidOid, COERCE_EXPLICIT_CAST);
}

/* n when it is a plain timestamptz or timestamp column of rel, else NULL */
static Var *
time_column(RelOptInfo *baserel, Node *n)
{
	Var		   *v;

	if (!n || !IsA(n, Var))
		return NULL;
	v = (Var *) n;
	if ((v->vartype != TIMESTAMPTZOID && v->vartype != TIMESTAMPOID) ||
		v->varno != baserel->relid || v->varlevelsup != 0)
		return NULL;
	return v;
}

/* ts when n is ts::date (date(ts)) of a timestamptz or timestamp column of rel, else NULL */
static Var *
date_of_column(RelOptInfo *baserel, Node *n)
{
	FuncExpr   *f;
	Var		   *v;

	if (!n || !IsA(n, FuncExpr))
		return NULL;
	f = (FuncExpr *) n;
	if ((f->funcid != F_DATE_TIMESTAMPTZ && f->funcid != F_DATE_TIMESTAMP) ||
		list_length(f->args) != 1)
		return NULL;
	v = time_column(baserel, linitial(f->args));
	if (!v || v->vartype != (f->funcid == F_DATE_TIMESTAMPTZ ? TIMESTAMPTZOID : TIMESTAMPOID))
		return NULL;
	return v;
}

/*
 * A date (or, against a timestamptz column, a timestamp) no column of any
 * relation decides, computed once per execution
 */
static bool
run_time_date(Node *n, Oid column_type)
{
	return n && (exprType(n) == DATEOID ||
				 (exprType(n) == TIMESTAMPOID && column_type == TIMESTAMPTZOID)) &&
		!contain_var_clause(n) &&
		!contain_volatile_functions(n) && !contain_subplans(n) &&
		!contain_agg_clause(n) && !contain_window_function(n) && !expression_returns_set(n);
}

static Expr *rewrite_op(RelOptInfo *baserel, Expr *clause);

/*
 * The clause with each `ts::date op D` and `ts op D` inside it (also under
 * AND, OR, NOT) rewritten; NULL when there is none.
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

/* -2 <, -1 <=, 0 =, 1 >=, 2 >, 3 <> of a btree operator's strategy; 4 for none */
static int
strategy_cmp(Oid opno, Oid ltype, Oid rtype)
{
	Oid			opclass = GetDefaultOpClass(ltype, BTREE_AM_OID);
	Oid			family;
	int			i;
	static const int16 strategies[] = {BTLessStrategyNumber, BTLessEqualStrategyNumber,
		BTEqualStrategyNumber, BTGreaterEqualStrategyNumber, BTGreaterStrategyNumber};

	if (!OidIsValid(opclass))
		return 4;
	family = get_opclass_family(opclass);
	for (i = 0; i < (int) lengthof(strategies); i++)
		if (get_opfamily_member(family, ltype, rtype, strategies[i]) == opno)
			return i - 2;
	if (get_negator(get_opfamily_member(family, ltype, rtype, BTEqualStrategyNumber)) == opno)
		return 3;
	return 4;
}

static Expr *
rewrite_op(RelOptInfo *baserel, Expr *clause)
{
	OpExpr	   *op;
	Var		   *ts;
	Node	   *d;
	Node	   *l,
			   *r;
	int			cmp;			/* -2 <, -1 <=, 0 =, 1 >=, 2 >, 3 <> */
	bool		whole_day;		/* ts::date op D, not ts op D */
	Oid			type;
	Oid			lt,
				le,
				ge,
				gt,
				eq;

	if (!IsA(clause, OpExpr) || list_length(((OpExpr *) clause)->args) != 2)
		return NULL;
	op = (OpExpr *) clause;
	l = linitial(op->args);
	r = lsecond(op->args);
	cmp = strategy_cmp(op->opno, exprType(l), exprType(r));
	if (cmp == 4)
		return NULL;
	if ((ts = date_of_column(baserel, l)) != NULL ||
		(exprType(r) != exprType(l) && (ts = time_column(baserel, l)) != NULL))
		d = r;
	else if ((ts = date_of_column(baserel, r)) != NULL ||
			 (exprType(l) != exprType(r) && (ts = time_column(baserel, r)) != NULL))
	{
		d = l;
		if (cmp != 0 && cmp != 3)
			cmp = -cmp;			/* D < ts::date is ts::date > D */
	}
	else
		return NULL;
	whole_day = exprType(d == r ? l : r) == DATEOID;
	type = ts->vartype;
	lt = btree_op(type, BTLessStrategyNumber);
	le = btree_op(type, BTLessEqualStrategyNumber);
	ge = btree_op(type, BTGreaterEqualStrategyNumber);
	gt = btree_op(type, BTGreaterStrategyNumber);
	eq = btree_op(type, BTEqualStrategyNumber);
	if (!run_time_date(d, whole_day ? DATEOID : type) || !OidIsValid(lt) || !OidIsValid(le) || !OidIsValid(ge) ||
		!OidIsValid(gt) || !OidIsValid(eq) || !OidIsValid(get_negator(eq)))
		return NULL;
	if (!whole_day)
	{
		/* ts op D: ts compared with D's start, as PostgreSQL's timestamp(tz)_cmp_date */
		Oid			o[] = {lt, le, eq, ge, gt, get_negator(eq)};

		return make_op(o[cmp + 2], (Expr *) copyObject(ts), start_of((Expr *) d, 0, type));
	}
	switch (cmp)
	{
		case -2:
			return make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 0, type));
		case -1:
			return make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 1, type));
		case 1:
			return make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 0, type));
		case 2:
			return make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 1, type));
		case 0:
			return make_andclause(list_make2(make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 0, type)),
											 make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 1, type))));
		default:
			return make_orclause(list_make2(make_op(lt, (Expr *) copyObject(ts), start_of((Expr *) d, 0, type)),
											make_op(ge, (Expr *) copyObject(ts), start_of((Expr *) d, 1, type))));
	}
}
