/*-------------------------------------------------------------------------
 * shippable_distinct.c
 *	  IS [NOT] DISTINCT FROM of boolean conditions, sent with PostgreSQL's
 *	  three-valued answer (issue 17, subq4).
 *
 * "(a > 5) IS DISTINCT FROM (b < 3)", "flag IS NOT DISTINCT FROM (x = 1)":
 * each operand is true, false or NULL, and two NULLs are not distinct. The
 * operands are conditions chfdw_expr_shippable sends; each is written
 * twice, as "is true" and "is false" (chfdw_deparse_cond with want_true
 * true and false, never top-level), which are 0 or 1 and never NULL in
 * the SQL we send: NULL is the pair (0, 0), true (1, 0), false (0, 1). Two
 * operands are distinct when their pairs differ. So no NULL reaches an OR
 * or a NOT on the server (18.16 answers those wrongly for NULLs: see
 * shippable.c, chfdw_deparse_cond), and the answer is never NULL, as
 * PostgreSQL's is not.
 *
 * "(a > 5) IS DISTINCT FROM NULL", which PostgreSQL makes "(a > 5) IS NOT
 * NULL", is the same pair: NULL where neither is 1.
 *
 * The forms of columns and values ("flag IS DISTINCT FROM other_flag",
 * "x IS DISTINCT FROM 3", "f(x) IS NULL") stay those of shippable.c; this
 * file handles only operands that are conditions (chfdw_is_condition_node),
 * which those forms never send. See README "What is sent".
 *
 * src/fdw/shippable_distinct.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"

#include "chfdw.h"
#include "pushdown_map.h"
#include "shippable.h"

/*
 * Is n a condition that is never a value of shippable.c's value walker
 * (chfdw_value_shippable): AND/OR/NOT, a NULL test, IS DISTINCT FROM, IN,
 * or an operator outside the pushdown table (a comparison, LIKE)? Decided
 * by the tree alone, so planning and deparsing (whose ShipCtx differ:
 * may_raise) take the same form; an operand of such a node makes the forms
 * of this file the only ones.
 */
bool
chfdw_is_condition_node(Node *n)
{
	n = chfdw_strip_relabel(n);
	if (!n || exprType(n) != BOOLOID)
		return false;
	switch (nodeTag(n))
	{
		case T_BoolExpr:
		case T_NullTest:
		case T_DistinctExpr:
		case T_ScalarArrayOpExpr:
			return true;
		case T_OpExpr:
			return chfdw_op_row(((OpExpr *) n)->opno) == NULL && !chfdw_jsonb_bool_op(n);
		default:
			return false;
	}
}

/* Is this IS DISTINCT FROM one of this file's (a condition as an operand)? */
bool
chfdw_bool_distinct_applies(OpExpr *op)
{
	return list_length(op->args) == 2 &&
		(chfdw_is_condition_node(linitial(op->args)) ||
		 chfdw_is_condition_node(lsecond(op->args)));
}

/* A boolean operand: a constant, or a condition that is sent. */
static bool
operand_ok(ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	if (!n || exprType(n) != BOOLOID)
		return false;
	if (IsA(n, Const))
		return true;
	return chfdw_expr_shippable(cx, n);
}

bool
chfdw_bool_distinct_shippable(ShipCtx *cx, OpExpr *op)
{
	Node	   *l,
			   *r;

	if (!chfdw_bool_distinct_applies(op))
		return false;
	l = chfdw_strip_relabel(linitial(op->args));
	r = chfdw_strip_relabel(lsecond(op->args));
	/* constants alone are PostgreSQL's business */
	if (IsA(l, Const) && IsA(r, Const))
		return false;
	return operand_ok(cx, l) && operand_ok(cx, r);
}

/* "operand is true" (want_true) or "operand is false": 0 or 1, never NULL */
static void
deparse_truth(StringInfo buf, ShipCtx *cx, Node *n, bool want_true)
{
	n = chfdw_strip_relabel(n);
	if (IsA(n, Const))
	{
		Const	   *c = (Const *) n;

		appendStringInfoChar(buf, !c->constisnull &&
							 DatumGetBool(c->constvalue) == want_true ? '1' : '0');
		return;
	}
	/* parenthesized: a condition may begin with NOT */
	appendStringInfoChar(buf, '(');
	chfdw_deparse_cond(buf, cx, n, want_true, false);
	appendStringInfoChar(buf, ')');
}

/*
 * The condition "l IS DISTINCT FROM r" (want_true) or its negation, "l IS
 * NOT DISTINCT FROM r" (want_true false): 0 or 1, never NULL.
 */
void
chfdw_deparse_bool_distinct(StringInfo buf, ShipCtx *cx, OpExpr *op, bool want_true)
{
	Node	   *l = linitial(op->args);
	Node	   *r = lsecond(op->args);
	const char *cmp = want_true ? " != " : " = ";

	appendStringInfoString(buf, "((");
	deparse_truth(buf, cx, l, true);
	appendStringInfoString(buf, cmp);
	deparse_truth(buf, cx, r, true);
	appendStringInfoString(buf, want_true ? ") OR (" : ") AND (");
	deparse_truth(buf, cx, l, false);
	appendStringInfoString(buf, cmp);
	deparse_truth(buf, cx, r, false);
	appendStringInfoString(buf, "))");
}

/* "cond IS [NOT] NULL" of a boolean condition sent (not a column or value) */
bool
chfdw_bool_nulltest_shippable(ShipCtx *cx, NullTest *nt)
{
	Node	   *arg = chfdw_strip_relabel((Node *) nt->arg);

	return !nt->argisrow && chfdw_is_condition_node(arg) && operand_ok(cx, arg);
}

/* "cond IS NULL" (is_null): neither true nor false; "IS NOT NULL": one of them */
void
chfdw_deparse_bool_nulltest(StringInfo buf, ShipCtx *cx, NullTest *nt, bool is_null)
{
	appendStringInfoString(buf, is_null ? "NOT (" : "(");
	deparse_truth(buf, cx, (Node *) nt->arg, true);
	appendStringInfoString(buf, " OR ");
	deparse_truth(buf, cx, (Node *) nt->arg, false);
	appendStringInfoChar(buf, ')');
}
