/*-------------------------------------------------------------------------
 * prefilter.c
 *	  (casts2) Pre-filters: a condition PostgreSQL evaluates that casts a
 *	  text column to date or numeric stays local, and a weaker condition
 *	  that drops only rows on which it is certainly false is sent besides
 *	  it (issue 17, casts; README "What is sent").
 *
 * PostgreSQL 15's date_in() and numeric_in() read far more than ClickHouse
 * can convert alike (DateStyle orders, month names, 'epoch', 'today', BC,
 * years past 9999; exponents, 'NaN', 'Infinity', any number of digits),
 * and raise for what they cannot read. But a text in a simple form is read
 * by PostgreSQL under every setting as ClickHouse can compute it:
 *	date:	 spaces, 4 year digits, '-', 1 or 2 month digits, '-', 1 or 2
 *			 day digits, spaces ('2020-01-02', ' 2020-1-2 '). DecodeNumber()
 *			 (datetime.c) takes a first field of 3 or more digits as the
 *			 year whatever DateStyle says, the second as the month, the
 *			 third as the day (a 3-digit second field would be a day of
 *			 the year: not simple); a valid day of a year in the server's
 *			 range (Date32: 1900..2299; 18.16's Date: 1970-01-01 ..
 *			 2106-02-07) never raises.
 *	numeric: spaces, one sign, digits with at most one '.', at least one
 *			 digit, spaces, at most 1,000 bytes (numeric_in and
 *			 set_var_from_str: no exponent, no NaN/Infinity; far from
 *			 the format's limits), compared with a finite numeric
 *			 constant: the digits, without leading zeros (integer part)
 *			 and trailing zeros (fraction), are compared as strings.
 * Spaces are isspace()'s bytes and digits isdigit()'s, which the backend's
 * ctype must classify as ASCII does (chfdw_cast_ctype_ok), in a UTF-8
 * database.
 *
 * The condition C with each such cast replaced by a node computing it for
 * simple texts (NULL for others: ChFdwPfNode, pushdown_casts.c) is C',
 * and the pre-filter is
 *	  (s IS NOT NULL AND node(s) IS NULL) OR ... OR C'
 * one term for each column cast: a text that is not simple always travels
 * and PostgreSQL decides (its answer, or its error); on a NULL text both
 * casts are NULL; on simple texts C' is what C is there (C' must be
 * shippable as every sent condition is: outside positions that raise), and
 * PostgreSQL neither raises for them nor keeps a row C' drops. C itself is
 * still evaluated by PostgreSQL on every row that arrives (the scan's
 * Filter), and the pre-filter is no recheck condition: an EvalPlanQual
 * recheck evaluates C, and direct UPDATE/DELETE is refused (the scan has
 * a local condition: direct.c), so a mutation never carries it. A parallel
 * scan sends none (GetForeignPlan: its ranges follow a WHERE of recheck
 * conditions only, parallel.c).
 *
 * Not pre-filtered: a condition with a sub-plan or a volatile function, a
 * numeric cast that is not an operand of a comparison with a finite
 * numeric constant (ClickHouse's Decimal has no display scale: arithmetic
 * on it is not PostgreSQL's), a column under a nondeterministic collation,
 * and a C' that is not shippable (another local term under OR, ...): then
 * the condition is local alone, as before.
 *
 * src/fdw/prefilter.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "chfdw.h"
#include "prefilter.h"
#include "shippable.h"

/* at most this many elements of x IN (...) are compared one by one */
#define PF_MAX_IN 50

typedef struct PfCtx
{
	ShipCtx		cx;
	ChFdwRelInfo *fp;
	List	   *guards;			/* (s IS NOT NULL AND node IS NULL) */
	List	   *guarded;		/* attno * 2 + (numeric) of those */
	bool		failed;
} PfCtx;

/* The pre-filter node of a sent condition that io is, or NULL. */
ChFdwPfNode *
chfdw_pf_node(ShipCtx *cx, CoerceViaIO *io)
{
	ChFdwRelInfo *fp;
	ListCell   *lc;

	if (!cx->baserel || !cx->baserel->fdw_private || cx->qualify)
		return NULL;
	fp = (ChFdwRelInfo *) cx->baserel->fdw_private;
	if (fp->is_join || fp->is_upper)
		return NULL;
	foreach(lc, fp->prefilter_nodes)
		if (((ChFdwPfNode *) lfirst(lc))->io == io)
			return (ChFdwPfNode *) lfirst(lc);
	return NULL;
}

/* A cast of a text column of the scanned table to type (date, numeric). */
static Var *
cast_of_column(PfCtx *c, Node *n, Oid type)
{
	CoerceViaIO *io;
	Var		   *v;
	char		kind;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, CoerceViaIO) || ((CoerceViaIO *) n)->resulttype != type)
		return NULL;
	io = (CoerceViaIO *) n;
	v = chfdw_cast_text_column(&c->cx, (Node *) io->arg, &kind);
	if (!v)
		return NULL;
	/* the cast reads bytes; refused anyway under a nondeterministic collation */
	if (OidIsValid(v->varcollid) && !get_collation_isdeterministic(v->varcollid))
		return NULL;
	return v;
}

/* A new node for the column (registered), and its column's guard. */
static CoerceViaIO *
new_node(PfCtx *c, Var *v, char kind)
{
	CoerceViaIO *io = makeNode(CoerceViaIO);
	ChFdwPfNode *pf = palloc0(sizeof(ChFdwPfNode));
	int			key = v->varattno * 2 + (kind == 'n');

	io->arg = (Expr *) copyObject(v);
	io->resulttype = kind == 'd' ? DATEOID : INT4OID;
	io->resultcollid = InvalidOid;
	io->coerceformat = COERCE_EXPLICIT_CAST;
	io->location = -1;
	pf->io = io;
	pf->kind = kind;
	c->fp->prefilter_nodes = lappend(c->fp->prefilter_nodes, pf);
	if (!list_member_int(c->guarded, key))
	{
		NullTest   *notnull = makeNode(NullTest);
		NullTest   *isnull = makeNode(NullTest);

		notnull->arg = (Expr *) copyObject(v);
		notnull->nulltesttype = IS_NOT_NULL;
		notnull->location = -1;
		isnull->arg = (Expr *) io;
		isnull->nulltesttype = IS_NULL;
		isnull->location = -1;
		c->guarded = lappend_int(c->guarded, key);
		c->guards = lappend(c->guards, make_andclause(list_make2(notnull, isnull)));
	}
	return io;
}

/*
 * A finite numeric constant as sign, integer digits without leading zeros
 * and fraction digits without trailing zeros (numeric_out's text: no
 * exponent); false for NaN and the infinities.
 */
static bool
split_numeric(Const *k, ChFdwPfNode *pf)
{
	char	   *t = DatumGetCString(DirectFunctionCall1(numeric_out, k->constvalue));
	char	   *dot;
	char	   *ip;
	int			n;

	pf->csign = 1;
	if (*t == '-')
	{
		pf->csign = -1;
		t++;
	}
	if (!isdigit((unsigned char) *t))
		return false;			/* NaN, Infinity */
	dot = strchr(t, '.');
	if (dot)
		*dot = '\0';
	ip = t;
	while (*ip == '0')
		ip++;
	pf->cint = pstrdup(ip);
	if (dot)
	{
		char	   *fp = pstrdup(dot + 1);

		n = strlen(fp);
		while (n > 0 && fp[n - 1] == '0')
			fp[--n] = '\0';
		pf->cfrac = fp;
	}
	else
		pf->cfrac = "";
	if (pf->cint[0] == '\0' && pf->cfrac[0] == '\0')
		pf->csign = 0;
	return true;
}

/* the btree strategy of a numeric comparison (its function), 0: none; <>: 6 */
static int
numeric_strategy(Oid opno)
{
	switch (get_opcode(opno))
	{
		case F_NUMERIC_LT:
			return BTLessStrategyNumber;
		case F_NUMERIC_LE:
			return BTLessEqualStrategyNumber;
		case F_NUMERIC_EQ:
			return BTEqualStrategyNumber;
		case F_NUMERIC_GE:
			return BTGreaterEqualStrategyNumber;
		case F_NUMERIC_GT:
			return BTGreaterStrategyNumber;
		case F_NUMERIC_NE:
			return 6;
		default:
			return 0;
	}
}

/*
 * cast op K / K op cast of a numeric cast and a finite numeric constant:
 * node op' 0, op' the integer comparison (commuted when the cast is on the
 * right): x op K exactly when compare(x, K) op 0. NULL: not of that form.
 */
static Node *
numeric_compare(PfCtx *c, OpExpr *op)
{
	int			st = list_length(op->args) == 2 ? numeric_strategy(op->opno) : 0;
	Node	   *l,
			   *r;
	Var		   *v;
	Const	   *k;
	bool		swapped = false;
	CoerceViaIO *io;
	ChFdwPfNode pf;
	Oid			iop;
	OpExpr	   *res;

	if (st == 0)
		return NULL;
	l = chfdw_strip_relabel(linitial(op->args));
	r = chfdw_strip_relabel(lsecond(op->args));
	if ((v = cast_of_column(c, l, NUMERICOID)) == NULL)
	{
		Node	   *t = l;

		l = r;
		r = t;
		swapped = true;
		if ((v = cast_of_column(c, l, NUMERICOID)) == NULL)
			return NULL;
	}
	if (!r || !IsA(r, Const) || ((Const *) r)->consttype != NUMERICOID ||
		((Const *) r)->constisnull)
		return NULL;
	k = (Const *) r;
	if (!split_numeric(k, &pf))
		return NULL;
	if (swapped && st != BTEqualStrategyNumber && st != 6)
		st = BTMaxStrategyNumber + 1 - st;	/* K < x is x > K */
	iop = st == 6 ? get_negator(Int4EqualOperator) :
		get_opfamily_member(INTEGER_BTREE_FAM_OID, INT4OID, INT4OID, st);
	if (!OidIsValid(iop))
		return NULL;
	io = new_node(c, v, 'n');
	{
		ChFdwPfNode *reg = (ChFdwPfNode *) llast(c->fp->prefilter_nodes);

		reg->csign = pf.csign;
		reg->cint = pf.cint;
		reg->cfrac = pf.cfrac;
	}
	res = (OpExpr *) make_opclause(iop, BOOLOID, false, (Expr *) io,
								   (Expr *) makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
													  Int32GetDatum(0), false, true),
								   InvalidOid, InvalidOid);
	res->opfuncid = get_opcode(iop);
	return (Node *) res;
}

/*
 * cast op ANY/ALL (constant array) as the OR/AND of cast op element (the
 * same three-valued answer); NULL: not of that form.
 */
static Node *
expand_in(PfCtx *c, ScalarArrayOpExpr *sa)
{
	Node	   *l = list_length(sa->args) == 2 ? linitial(sa->args) : NULL;
	Node	   *r = l ? chfdw_strip_relabel(lsecond(sa->args)) : NULL;
	ChFdwArrayElems a;
	List	   *ops = NIL;

	if (!r || !IsA(r, Const) || ((Const *) r)->constisnull ||
		(!cast_of_column(c, l, DATEOID) && !cast_of_column(c, l, NUMERICOID)))
		return NULL;
	chfdw_array_elems(((Const *) r)->constvalue, &a);
	if (a.type != exprType(l) || a.n == 0 || a.n > PF_MAX_IN)
		return NULL;
	for (int i = 0; i < a.n; i++)
	{
		OpExpr	   *op;

		if (a.nulls[i])
			return NULL;
		op = (OpExpr *) make_opclause(sa->opno, BOOLOID, false, (Expr *) copyObject(l),
									  (Expr *) chfdw_array_elem_const(&a, i),
									  InvalidOid, sa->inputcollid);
		op->opfuncid = get_opcode(sa->opno);
		ops = lappend(ops, op);
	}
	if (a.n == 1)
		return linitial(ops);
	return (Node *) (sa->useOr ? make_orclause(ops) : make_andclause(ops));
}

static Node *
pf_mutator(Node *n, PfCtx *c)
{
	Var		   *v;

	if (n == NULL || c->failed)
		return n;
	if (IsA(n, OpExpr))
	{
		Node	   *r = numeric_compare(c, (OpExpr *) n);

		if (r)
			return r;
	}
	else if (IsA(n, ScalarArrayOpExpr))
	{
		Node	   *e = expand_in(c, (ScalarArrayOpExpr *) n);

		if (e)
			return pf_mutator(e, c);
	}
	else if (IsA(n, CoerceViaIO))
	{
		if ((v = cast_of_column(c, n, DATEOID)) != NULL)
			return (Node *) new_node(c, v, 'd');
		if (cast_of_column(c, n, NUMERICOID) != NULL)
		{
			/* a numeric cast elsewhere than against a constant */
			c->failed = true;
			return n;
		}
	}
	return expression_tree_mutator(n, pf_mutator, (void *) c);
}

/*
 * A local condition of the scan (GetForeignRelSize): its pre-filter, when
 * it has one, in fpinfo->prefilter_from/_to.
 */
void
chfdw_prefilter_add(PlannerInfo *root, RelOptInfo *baserel, Oid relid, RestrictInfo *ri)
{
	PfCtx		c;
	Node	   *cond;
	Expr	   *sent;

	if (ri->pseudoconstant || GetDatabaseEncoding() != PG_UTF8 || !chfdw_cast_ctype_ok() ||
		contain_subplans((Node *) ri->clause) ||
		contain_volatile_functions((Node *) ri->clause))
		return;
	memset(&c, 0, sizeof(c));
	c.cx = chfdw_ship_ctx(baserel, relid);
	c.fp = (ChFdwRelInfo *) baserel->fdw_private;
	cond = pf_mutator((Node *) ri->clause, &c);
	if (c.failed || c.guards == NIL)
		return;
	sent = make_orclause(lappend(c.guards, cond));
	if (!chfdw_is_shippable(root, baserel, relid, sent))
		return;
	c.fp->prefilter_from = lappend(c.fp->prefilter_from, ri);
	c.fp->prefilter_to = lappend(c.fp->prefilter_to, sent);
}

/* The pre-filters of those of clauses (RestrictInfos) that have one. */
List *
chfdw_prefilter_exprs(RelOptInfo *baserel, List *clauses)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) baserel->fdw_private;
	List	   *res = NIL;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		ListCell   *f,
				   *t;

		forboth(f, fp->prefilter_from, t, fp->prefilter_to)
			if (lfirst(f) == lfirst(lc))
				res = lappend(res, lfirst(t));
	}
	return res;
}
