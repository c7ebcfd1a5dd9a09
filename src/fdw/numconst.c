/*-------------------------------------------------------------------------
 * numconst.c
 *	  (numconst) A numeric column compared with a numeric constant, written
 *	  in the column's own ClickHouse type.
 *
 * A numeric constant is otherwise sent as toDecimal128('c', s) (or a plain
 * literal for an integer of up to 18 digits, deparse_datum in shippable.c),
 * which ClickHouse does not always compare with the column:
 *	- 18.16 refuses to compare a primary key column with a Decimal of
 *	  another type ("Key expression contains comparison between
 *	  inconvertible types: UInt64 and Decimal(38, 1)" for id = 2.5 or
 *	  id < 1e30);
 *	- an IN list's elements must convert to the column's type: 18.16
 *	  wants the very type ("Type mismatch in IN or VALUES section.
 *	  Expected: Decimal(18, 2). Got: Decimal128"), later servers convert
 *	  and fail on overflow ("Decimal convert overflow") or on a fraction
 *	  for an integer column (id IN (2.5, 3): "Type mismatch").
 * PostgreSQL answers all of these. The column's values are those of its
 * ClickHouse type (Int8 .. UInt256 or Decimal(P, S), from system.columns:
 * chfdw_column_numeric_type), a grid of step 10^-S within the type's range,
 * so a comparison with any constant c equals one with a value of the grid:
 *	col = c		c on the grid: col = c; else never (NULL for a NULL col)
 *	col <> c	c on the grid: col != c; else always (NULL for a NULL col)
 *	col < c		col < ceil(c)		col <= c	col <= floor(c)
 *	col > c		col > floor(c)		col >= c	col >= ceil(c)
 * with floor/ceil at scale S, and a bound past the range's end deciding the
 * comparison for every row. The value is written as a literal of the
 * column's type (toDecimal64('1.50', 2) for a Decimal(18, 2), a plain
 * integer for Int8 .. UInt64, toInt128('...') for wider integers), so it
 * compares and uses the primary key's index on every server. "Never" and
 * "always" are col != col and col = col: NULL where col is, as PostgreSQL's
 * comparison is. An IN list keeps the elements on the grid (the others
 * never equal a value) and is "never" without any; NOT IN the same with
 * "always"; a Decimal128's or Decimal256's list is an OR of equalities
 * (18.16 takes no Decimal128 in IN lists).
 *
 * src/fdw/numconst.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"
#include "utils/memutils.h"

#include "shippable.h"

/* A numeric column's ClickHouse type: the grid of its values. */
typedef struct NumGrid
{
	int			kind;			/* CH_T_INT8 .. CH_T_UINT256, CH_T_DECIMAL */
	int			precision;		/* a Decimal's */
	int			scale;			/* a Decimal's; 0 for integers */
	Datum		min;			/* numeric: the smallest and largest values */
	Datum		max;
} NumGrid;

static Datum
num(const char *s)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

static int
num_cmp(Datum a, Datum b)
{
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, a, b));
}

/* The range of an integer kind, as text; false for another kind. */
static bool
int_range(int kind, const char **lo, const char **hi)
{
	switch (kind)
	{
		case CH_T_INT8:
			*lo = "-128", *hi = "127";
			return true;
		case CH_T_UINT8:
			*lo = "0", *hi = "255";
			return true;
		case CH_T_INT16:
			*lo = "-32768", *hi = "32767";
			return true;
		case CH_T_UINT16:
			*lo = "0", *hi = "65535";
			return true;
		case CH_T_INT32:
			*lo = "-2147483648", *hi = "2147483647";
			return true;
		case CH_T_UINT32:
			*lo = "0", *hi = "4294967295";
			return true;
		case CH_T_INT64:
			*lo = "-9223372036854775808", *hi = "9223372036854775807";
			return true;
		case CH_T_UINT64:
			*lo = "0", *hi = "18446744073709551615";
			return true;
		case CH_T_INT128:
			*lo = "-170141183460469231731687303715884105728";
			*hi = "170141183460469231731687303715884105727";
			return true;
		case CH_T_UINT128:
			*lo = "0", *hi = "340282366920938463463374607431768211455";
			return true;
		case CH_T_INT256:
			*lo = "-57896044618658097711785492504343953926634992332820282019728792003956564819968";
			*hi = "57896044618658097711785492504343953926634992332820282019728792003956564819967";
			return true;
		case CH_T_UINT256:
			*lo = "0";
			*hi = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
			return true;
		default:
			return false;
	}
}

/* Is n a numeric column of a known ClickHouse Int/UInt/Decimal type? */
static bool
num_grid(ShipCtx *cx, Node *n, NumGrid *g)
{
	Var		   *v;
	Oid			relid;
	const char *lo,
			   *hi;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var) || ((Var *) n)->vartype != NUMERICOID || !chfdw_is_our_var(cx, n))
		return false;
	v = (Var *) n;
	relid = chfdw_var_relid(cx, v);
	if (!OidIsValid(relid) ||
		!chfdw_column_numeric_type(relid, v->varattno,
								   cx->baserel ? cx->baserel->userid : InvalidOid,
								   &g->kind, &g->precision, &g->scale))
		return false;
	if (g->kind == CH_T_DECIMAL)
	{
		StringInfoData s;

		if (g->precision < 1 || g->precision > 76 || g->scale > g->precision)
			return false;
		/* +-(10^P - 1) / 10^S */
		initStringInfo(&s);
		for (int i = 0; i < g->precision - g->scale; i++)
			appendStringInfoChar(&s, '9');
		if (g->precision == g->scale)
			appendStringInfoChar(&s, '0');
		if (g->scale > 0)
		{
			appendStringInfoChar(&s, '.');
			for (int i = 0; i < g->scale; i++)
				appendStringInfoChar(&s, '9');
		}
		g->max = num(s.data);
		g->min = DirectFunctionCall1(numeric_uminus, g->max);
		pfree(s.data);
		return true;
	}
	if (!int_range(g->kind, &lo, &hi))
		return false;
	g->scale = 0;
	g->min = num(lo);
	g->max = num(hi);
	return true;
}

/*
 * The scale of a numeric column's ClickHouse Int/UInt/Decimal type (0 for
 * integers): false for another type, or one not known (plan.c's numeric
 * join keys).
 */
bool
chfdw_numeric_grid_scale(ShipCtx *cx, Node *n, int *scale)
{
	NumGrid		g;

	if (!num_grid(cx, n, &g))
		return false;
	*scale = g.scale;
	return true;
}

/* A numeric constant (not NaN or infinite) as a Datum, or false. */
static bool
num_const(Node *n, Datum *out)
{
	Const	   *c;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const))
		return false;
	c = (Const *) n;
	if (c->constisnull || c->consttype != NUMERICOID ||
		numeric_is_nan(DatumGetNumeric(c->constvalue)) ||
		numeric_is_inf(DatumGetNumeric(c->constvalue)))
		return false;
	*out = c->constvalue;
	return true;
}

/* Is "col op c" (op a comparison) one chfdw_numconst_compare writes? */
bool
chfdw_numconst_applies(ShipCtx *cx, Node *col, Node *c)
{
	NumGrid		g;
	Datum		v;

	return num_const(c, &v) && num_grid(cx, col, &g);
}

/* the elements of an IN list chfdw_numconst_in_list writes: no NULL, NaN or infinity */
static bool
list_elems_ok(const ChFdwArrayElems *a)
{
	if (a->type != NUMERICOID)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->nulls[i] ||
			numeric_is_nan(DatumGetNumeric(a->values[i])) ||
			numeric_is_inf(DatumGetNumeric(a->values[i])))
			return false;
	return true;
}

/* Is "col [NOT] IN (a)" one chfdw_numconst_in_list writes? */
bool
chfdw_numconst_list_applies(ShipCtx *cx, Node *col, const ChFdwArrayElems *a)
{
	NumGrid		g;

	return list_elems_ok(a) && num_grid(cx, col, &g);
}

/* v rounded down (floor) or up (ceil) to the grid's scale. */
static Datum
grid_round(const NumGrid *g, Datum v, bool up)
{
	Datum		t = DirectFunctionCall2(numeric_trunc, v, Int32GetDatum(g->scale));
	int			sign = num_cmp(v, t);	/* v - t: its sign is v's, or 0 */
	Datum		step;

	if (sign == 0 || (sign > 0) != up)
		return t;
	step = num(psprintf("1e-%d", g->scale));
	return up ? DirectFunctionCall2(numeric_add, t, step) :
		DirectFunctionCall2(numeric_sub, t, step);
}

/* Is v a value of the grid (its scale and range)? */
static bool
on_grid(const NumGrid *g, Datum v)
{
	Datum		t = DirectFunctionCall2(numeric_trunc, v, Int32GetDatum(g->scale));

	return num_cmp(v, t) == 0 && num_cmp(v, g->min) >= 0 && num_cmp(v, g->max) <= 0;
}

/* v (a value of the grid) as a literal of the column's type. */
static void
grid_literal(StringInfo buf, const NumGrid *g, Datum v)
{
	char	   *text = DatumGetCString(DirectFunctionCall1(numeric_out,
														   DirectFunctionCall2(numeric_round, v,
																			   Int32GetDatum(g->scale))));
	const char *fn = NULL;

	switch (g->kind)
	{
		case CH_T_INT128:
			fn = "toInt128";
			break;
		case CH_T_UINT128:
			fn = "toUInt128";
			break;
		case CH_T_INT256:
			fn = "toInt256";
			break;
		case CH_T_UINT256:
			fn = "toUInt256";
			break;
		case CH_T_DECIMAL:
			fn = g->precision <= 9 ? "toDecimal32" : g->precision <= 18 ? "toDecimal64" :
				g->precision <= 38 ? "toDecimal128" : "toDecimal256";
			break;
		default:
			break;
	}
	if (!fn)
	{
		appendStringInfoString(buf, text);	/* Int8 .. UInt64: a plain literal */
		return;
	}
	appendStringInfo(buf, "%s(", fn);
	chfdw_quote_literal(buf, text);
	if (g->kind == CH_T_DECIMAL)
		appendStringInfo(buf, ", %d", g->scale);
	appendStringInfoChar(buf, ')');
}

/* "always" or "never" for every value of col, NULL where col is NULL */
static void
constant_answer(StringInfo buf, ShipCtx *cx, Node *col, bool answer)
{
	appendStringInfoChar(buf, '(');
	chfdw_deparse_value(buf, cx, col);
	appendStringInfoString(buf, answer ? " = " : " != ");
	chfdw_deparse_value(buf, cx, col);
	appendStringInfoChar(buf, ')');
}

/*
 * chfdw_numconst_compare
 *		col op c (op one of = <> < <= > >=, the column on the left) for a
 *		numeric column of a known ClickHouse type and a numeric constant, as
 *		the comment at the top says. false (nothing written): another
 *		comparison.
 */
bool
chfdw_numconst_compare(StringInfo buf, ShipCtx *cx, Node *col, const char *op, Node *c)
{
	NumGrid		g;
	Datum		v;
	Datum		b;
	bool		lower;			/* < or <=: true when the bound is past the end */

	if (!num_const(c, &v) || !num_grid(cx, col, &g))
		return false;
	if (strcmp(op, "=") == 0 || strcmp(op, "<>") == 0)
	{
		bool		eq = op[0] == '=';

		if (!on_grid(&g, v))
		{
			constant_answer(buf, cx, col, !eq);
			return true;
		}
		appendStringInfoChar(buf, '(');
		chfdw_deparse_value(buf, cx, col);
		appendStringInfoString(buf, eq ? " = " : " != ");
		grid_literal(buf, &g, v);
		appendStringInfoChar(buf, ')');
		return true;
	}
	if (strcmp(op, "<") == 0 || strcmp(op, ">=") == 0)
		b = grid_round(&g, v, true);
	else if (strcmp(op, "<=") == 0 || strcmp(op, ">") == 0)
		b = grid_round(&g, v, false);
	else
		return false;
	lower = op[0] == '<';
	if (num_cmp(b, g.max) > 0)
	{
		constant_answer(buf, cx, col, lower);
		return true;
	}
	if (num_cmp(b, g.min) < 0)
	{
		constant_answer(buf, cx, col, !lower);
		return true;
	}
	appendStringInfoChar(buf, '(');
	chfdw_deparse_value(buf, cx, col);
	appendStringInfo(buf, " %s ", op);
	grid_literal(buf, &g, b);
	appendStringInfoChar(buf, ')');
	return true;
}

/*
 * chfdw_numconst_in_list
 *		col [NOT] IN (the constant array's elements) for a numeric column of
 *		a known ClickHouse type, as the comment at the top says; elements
 *		are numeric constants (no NULL: such a list is not sent). false
 *		(nothing written): another list.
 */
bool
chfdw_numconst_in_list(StringInfo buf, ShipCtx *cx, ScalarArrayOpExpr *sa,
					   const ChFdwArrayElems *a)
{
	NumGrid		g;
	Node	   *col = linitial(sa->args);
	int			kept = 0;
	bool		wide;

	if (!list_elems_ok(a) || !num_grid(cx, col, &g))
		return false;
	/*
	 * 18.16 takes no Decimal128 in an IN list, not even of the column's own
	 * type ("Type mismatch in IN or VALUES section. Expected: Decimal(38, 4).
	 * Got: Decimal128"): a wide Decimal's list is the OR of its equalities
	 * (NOT IN: the AND of the inequalities), NULL where the column is.
	 */
	wide = g.kind == CH_T_DECIMAL && g.precision > 18;
	for (int i = 0; i < a->n; i++)
	{
		if (!on_grid(&g, a->values[i]))
			continue;
		if (kept == 0)
			appendStringInfoChar(buf, '(');
		if (wide)
		{
			if (kept > 0)
				appendStringInfoString(buf, sa->useOr ? " OR " : " AND ");
			chfdw_deparse_value(buf, cx, col);
			appendStringInfoString(buf, sa->useOr ? " = " : " != ");
		}
		else if (kept == 0)
		{
			chfdw_deparse_value(buf, cx, col);
			appendStringInfoString(buf, sa->useOr ? " IN (" : " NOT IN (");
		}
		else
			appendStringInfoString(buf, ", ");
		grid_literal(buf, &g, a->values[i]);
		kept++;
	}
	if (kept == 0)
		constant_answer(buf, cx, col, !sa->useOr);
	else
		appendStringInfoString(buf, wide ? ")" : "))");
	return true;
}

/*
 * ---- (numparam) numeric run-time values against integer columns ----
 *
 * A numeric run-time value (a generic plan's $1, a key join's keys) is
 * known only when the query starts; against a column of an integer type of
 * up to 64 bits (Int8 .. UInt64: a UInt64 id, which IMPORT declares
 * numeric) the comparison keeps its operator and the value is written by
 * the same rules when the query starts (chfdw_numparam_bind): "=" and "<>"
 * write an integer value in [-2^63, 2^64 - 1] as itself and any other as
 * -0.5, which no integer equals; "<" and ">=" write ceil(v), "<=" and ">"
 * floor(v), and a bound past that range +-2^64 (a Float64 literal, which
 * ClickHouse compares with integers exactly), deciding the comparison for
 * every row. NaN sorts above every number, as PostgreSQL's numeric does,
 * and so does Infinity; -Infinity below. The marker is "\x01" n "cZ" op
 * "\x01", op one of e n l L g G (= <> < <= > >=).
 */

/* Is n a numeric column of an integer ClickHouse type of up to 64 bits? */
static bool
int64_grid(ShipCtx *cx, Node *n)
{
	NumGrid		g;

	return num_grid(cx, n, &g) && g.kind != CH_T_DECIMAL && g.kind != CH_T_INT128 &&
		g.kind != CH_T_UINT128 && g.kind != CH_T_INT256 && g.kind != CH_T_UINT256;
}

/* the comparisons: their marker code and the operator with operands swapped */
static const struct
{
	const char *op;
	char		code;
	const char *commuted;
}			numparam_ops[] = {
	{"=", 'e', "="}, {"<>", 'n', "<>"}, {"<", 'l', ">"},
	{"<=", 'L', ">="}, {">", 'g', "<"}, {">=", 'G', "<="},
};

static int
op_index(const char *op)
{
	for (int i = 0; i < (int) lengthof(numparam_ops); i++)
		if (strcmp(op, numparam_ops[i].op) == 0)
			return i;
	return -1;
}

static char
op_code(const char *op)
{
	int			i = op_index(op);

	return i < 0 ? 0 : numparam_ops[i].code;
}

static const char *
commuted(const char *op)
{
	int			i = op_index(op);

	return i < 0 ? op : numparam_ops[i].commuted;
}

/* Is "l op r" a numeric run-time value against an integer column (either side)? */
bool
chfdw_numparam_applies(ShipCtx *cx, Node *l, Node *r, const char *op)
{
	if (!op_code(op))
		return false;
	return (int64_grid(cx, l) && chfdw_numeric_runtime_value(r)) ||
		(int64_grid(cx, r) && chfdw_numeric_runtime_value(l));
}

/* "(col op <marker>)" for chfdw_numparam_applies; false: another comparison. */
bool
chfdw_numparam_compare(StringInfo buf, ShipCtx *cx, Node *l, Node *r, const char *op)
{
	Node	   *col = l;
	Node	   *val = r;

	if (!cx->dp || !chfdw_numparam_applies(cx, l, r, op))
		return false;
	if (!int64_grid(cx, l) || !chfdw_numeric_runtime_value(r))
	{
		col = r;
		val = l;
		op = commuted(op);
	}
	appendStringInfoChar(buf, '(');
	chfdw_deparse_value(buf, cx, col);
	appendStringInfo(buf, " %s \x01%dcZ%c\x01)", strcmp(op, "<>") == 0 ? "!=" : op,
					 list_length(cx->dp->params), op_code(op));
	cx->dp->params = lappend(cx->dp->params, copyObject(chfdw_strip_relabel(val)));
	return true;
}

/* integer literals of the range's ends and past them */
#define NUMPARAM_MIN "-9223372036854775808"
#define NUMPARAM_MAX "18446744073709551615"
#define NUMPARAM_ABOVE "18446744073709551616"
#define NUMPARAM_BELOW "-18446744073709551616"

/*
 * The ends of the integer range a numparam value is compared in, as
 * numerics, parsed once (a key join checks every local key against them).
 */
static Datum
numparam_end(bool max)
{
	static Datum ends[2];

	if (!ends[0])
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		ends[1] = num(NUMPARAM_MAX);
		ends[0] = num(NUMPARAM_MIN);
		MemoryContextSwitchTo(old);
	}
	return ends[max ? 1 : 0];
}

/*
 * chfdw_numparam_bind
 *		The value of a run-time value marker m (chfdw_bind_values) if it is a
 *		numparam marker: true with v (numeric, not NULL) written as the
 *		comment above says.
 */
bool
chfdw_numparam_bind(StringInfo buf, const char *m, Datum v)
{
	const char *p = m + 1;
	char		op;
	Numeric		n = DatumGetNumeric(v);
	Datum		b;
	bool		up;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p[0] != 'c' || p[1] != 'Z')
		return false;
	op = p[2];
	if (numeric_is_nan(n) || numeric_is_inf(n))
	{
		bool		above = numeric_is_nan(n) ||
			num_cmp(v, num("0")) > 0;

		if (op == 'e' || op == 'n')
			appendStringInfoString(buf, "-0.5");
		else
			appendStringInfoString(buf, above ? NUMPARAM_ABOVE : NUMPARAM_BELOW);
		return true;
	}
	if (op == 'e' || op == 'n')
	{
		if (!chfdw_numparam_key(buf, v))
			appendStringInfoString(buf, "-0.5");	/* no integer equals it */
		return true;
	}
	up = op == 'l' || op == 'G';
	b = up ? DirectFunctionCall1(numeric_ceil, v) : DirectFunctionCall1(numeric_floor, v);
	if (num_cmp(b, numparam_end(true)) > 0)
		appendStringInfoString(buf, NUMPARAM_ABOVE);
	else if (num_cmp(b, numparam_end(false)) < 0)
		appendStringInfoString(buf, NUMPARAM_BELOW);
	else
		appendStringInfoString(buf, DatumGetCString(DirectFunctionCall1(numeric_out,
																	   DirectFunctionCall2(numeric_trunc, b, Int32GetDatum(0)))));
	return true;
}

/*
 * chfdw_numparam_key
 *		(numparam) A key join's numeric key for an IN list of an integer
 *		column (Int8 .. UInt64): an integer in [-2^63, 2^64 - 1] written as
 *		itself (true); false for any other value, which no row holds.
 */
bool
chfdw_numparam_key(StringInfo buf, Datum v)
{
	Numeric		n = DatumGetNumeric(v);
	Datum		t;

	if (numeric_is_nan(n) || numeric_is_inf(n))
		return false;
	t = DirectFunctionCall2(numeric_trunc, v, Int32GetDatum(0));
	if (num_cmp(v, t) != 0 || num_cmp(t, numparam_end(false)) < 0 ||
		num_cmp(t, numparam_end(true)) > 0)
		return false;
	if (buf)
		appendStringInfoString(buf, DatumGetCString(DirectFunctionCall1(numeric_out, t)));
	return true;
}
