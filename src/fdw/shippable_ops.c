/*-------------------------------------------------------------------------
 * shippable_ops.c
 *	  Operators in conditions: which built-in operators, pattern matches
 *	  and ScalarArrayOps (IN/= ANY/ALL lists) ClickHouse evaluates as
 *	  PostgreSQL does (moved out of shippable.c unchanged; its walker,
 *	  chfdw_expr_shippable, calls them, and deparse_atom writes them).
 *
 * src/fdw/shippable_ops.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"
#include "catalog/pg_collation.h"
#include "mb/pg_wchar.h"
#include "utils/syscache.h"
#include <math.h>
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "common/shortest_dec.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/fmgroids.h"
#include "utils/datetime.h"
#include "mb/pg_wchar.h"
#include "pgtime.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/uuid.h"
#include "chfdw.h"
#include "shippable.h"
#include "pushdown_interval.h"
#include "pushdown_map.h"

static Oid
value_type(Node *n)
{
	return exprType(chfdw_strip_relabel(n));
}

/* ---- atoms ---- */

bool
chfdw_builtin_operator(Oid opno, char *name, size_t namelen)
{
	HeapTuple	tup;
	Form_pg_operator form;
	bool		ok;

	if (opno >= FirstGenbkiObjectId)
		return false;
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	if (!HeapTupleIsValid(tup))
		return false;
	form = (Form_pg_operator) GETSTRUCT(tup);
	ok = form->oprkind == 'b';
	strlcpy(name, NameStr(form->oprname), namelen);
	ReleaseSysCache(tup);
	return ok;
}

static bool
is_comparison(const char *op)
{
	return strcmp(op, "=") == 0 || strcmp(op, "<>") == 0 || strcmp(op, "<") == 0 ||
		strcmp(op, "<=") == 0 || strcmp(op, ">") == 0 || strcmp(op, ">=") == 0;
}

/* LIKE, NOT LIKE, ILIKE, NOT ILIKE, ~, !~, ~*, !~* */
static bool
is_pattern_op(const char *name)
{
	return strcmp(name, "~~") == 0 || strcmp(name, "!~~") == 0 ||
		strcmp(name, "~~*") == 0 || strcmp(name, "!~~*") == 0 ||
		strcmp(name, "~") == 0 || strcmp(name, "!~") == 0 ||
		strcmp(name, "~*") == 0 || strcmp(name, "!~*") == 0;
}

/*
 * A regular expression PostgreSQL (ARE) and ClickHouse (RE2, with "(?s)" so
 * "." matches a newline as in PostgreSQL) read the same way: literal
 * characters, . * + ? | ( ) ^ $, escaped punctuation, bracket expressions of
 * ASCII characters and ranges, and (under the C ctype only: elsewhere
 * PostgreSQL's classes are Unicode) \d \s \w and their negations. Bounds
 * {m,n}, back references, class names, "(?" flags and other escapes are
 * evaluated locally.
 */
static bool
regex_shippable(const char *p, bool c_ctype)
{
	if (*p == '\0' || strlen(p) > 1000)
		return false;
	/* "***:" / "***=" directors, embedded options */
	if (strncmp(p, "***", 3) == 0)
		return false;
	for (; *p; p++)
	{
		unsigned char ch = (unsigned char) *p;

		if (ch == '\\')
		{
			p++;
			if (*p && strchr("dswDSW", *p))
			{
				if (!c_ctype)
					return false;
			}
			else if (!*p || !strchr(".*+?|()[]{}^$\\-/", *p))
				return false;
			continue;
		}
		if (ch == '[')
		{
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				return false;
			for (; *p && *p != ']'; p++)
			{
				if ((unsigned char) *p >= 0x80 || *p < 0x20 || *p == '[' || *p == '\\')
					return false;
			}
			if (*p != ']')
				return false;
			continue;
		}
		if (ch == '(' && p[1] == '?')
			return false;
		if (ch == '{' || ch == '}' || ch == ']' || ch < 0x20)
			return false;
	}
	return true;
}

/* a run-time value: of the types runtime_value takes, or (floatparam) a float */
static bool
any_param(ShipCtx *cx, Node *n)
{
	return chfdw_param_value(cx, n) || chfdw_float_param_value(cx, n);
}

bool
chfdw_opexpr_shippable(ShipCtx *cx, OpExpr *op)
{
	char		name[NAMEDATALEN];
	Node	   *l,
			   *r;
	TypeClass	lc,
				rc;
	bool		param = false;

	if (list_length(op->args) != 2 || !chfdw_builtin_operator(op->opno, name, sizeof(name)))
		return false;
	/* jsonb: ->> of a read_as 'json' column against a text constant (jsonb.c) */
	if (chfdw_jsonb_compare_shippable(cx, op, name))
		return true;
	/* tochar: date_trunc of a timestamp column against a constant (pushdown_dates.c) */
	if (IsA(op, OpExpr) && (chfdw_date_trunc_compare_shippable(cx, op, name) || chfdw_interval_compare_ok(cx, op, name)))
		return true;
	l = linitial(op->args);
	r = lsecond(op->args);
	if (is_comparison(name) && chfdw_nan_const(l) != chfdw_nan_const(r))
	{
		/*
		 * (nanconst) a remote float value against NaN (also IS [NOT] DISTINCT
		 * FROM, the atom of "="): shippable.c writes isNaN
		 */
		Node	   *other = chfdw_nan_const(l) ? r : l;

		return chfdw_type_class(value_type(other)) == TC_FLOAT &&
			!chfdw_is_const_node(other) && !any_param(cx, other) &&
			chfdw_value_shippable(cx, other);
	}
	/*
	 * (numconst) a numeric column of a known ClickHouse type against any
	 * numeric constant (also one of more than 38 digits): numconst.c writes
	 * it in the column's type
	 */
	if (is_comparison(name) &&
		(chfdw_numconst_applies(cx, l, r) || chfdw_numconst_applies(cx, r, l)))
		return true;
	/* (numparam) a numeric run-time value against an integer column */
	if (IsA(op, OpExpr) && chfdw_numparam_applies(cx, l, r, name))
		return true;
	if (is_comparison(name) && (any_param(cx, l) || any_param(cx, r)))
	{
		/* a run-time value against a remote one (never two run-time values) */
		Node	   *other = any_param(cx, l) ? r : l;

		if (chfdw_is_const_node(other) || any_param(cx, other) || !chfdw_value_shippable(cx, other))
			return false;
		param = true;
	}
	else if (!chfdw_value_shippable(cx, l) || !chfdw_value_shippable(cx, r))
		return false;
	/* at least one column; constants alone are PostgreSQL's business */
	if (chfdw_is_const_node(l) && chfdw_is_const_node(r))
		return false;
	lc = chfdw_type_class(value_type(l));
	rc = chfdw_type_class(value_type(r));

	if (is_pattern_op(name))
	{
		const char *s;
		size_t		n,
					bs = 0;
		bool		c_ctype = OidIsValid(op->inputcollid) && lc_ctype_is_c(op->inputcollid);

		if (lc != TC_TEXT || rc != TC_TEXT || chfdw_is_const_node(l) || !(s = chfdw_const_text(r)))
			return false;
		if (OidIsValid(op->inputcollid) && !get_collation_isdeterministic(op->inputcollid))
			return false;
		if (name[strlen(name) - 1] == '*' && (!c_ctype || strstr(name, "~~") == NULL))
			return false;		/* ILIKE under C only; ~* not sent */
		if (strstr(name, "~~") == NULL)
			return regex_shippable(s, c_ctype);
		n = strlen(s);
		while (n > 0 && s[n - 1] == '\\')
		{
			bs++;
			n--;
		}
		return bs % 2 == 0;		/* PostgreSQL rejects a trailing escape */
	}
	if (!is_comparison(name))
		return false;
	if (chfdw_numeric_family(lc) && chfdw_numeric_family(rc))
	{
		if (lc == TC_FLOAT || rc == TC_FLOAT)
		{
			/*
			 * a float column against a constant or (floatparam) a run-time
			 * value only (NaN ordering differs; shippable.c writes it)
			 */
			if (!param && chfdw_is_const_node(l) == chfdw_is_const_node(r))
				return false;
		}
		return true;
	}
	if (lc != rc)
		return false;
	switch (lc)
	{
		case TC_TEXT:
			if (strcmp(name, "=") == 0 || strcmp(name, "<>") == 0)
				return !OidIsValid(op->inputcollid) ||
					get_collation_isdeterministic(op->inputcollid);
			return chfdw_ordering_collation_ok(cx, op->inputcollid);
		case TC_DATE:
		case TC_TIMESTAMPTZ:
			return true;
		case TC_BOOL:
		case TC_UUID:
			return strcmp(name, "=") == 0 || strcmp(name, "<>") == 0;
		default:
			return false;
	}
}

bool
chfdw_saop_shippable(ShipCtx *cx, ScalarArrayOpExpr *sa)
{
	char		name[NAMEDATALEN];
	Node	   *l,
			   *r;
	ChFdwArrayElems a;
	TypeClass	ec;

	if (list_length(sa->args) != 2 || !chfdw_builtin_operator(sa->opno, name, sizeof(name)))
		return false;
	if (!((sa->useOr && strcmp(name, "=") == 0) || (!sa->useOr && strcmp(name, "<>") == 0)))
		return false;
	/* jsonb: ->> of a read_as 'json' column IN text constants (jsonb.c) */
	if (chfdw_jsonb_saop_shippable(cx, sa))
		return true;
	l = linitial(sa->args);
	r = chfdw_strip_relabel(lsecond(sa->args));
	if (!chfdw_is_our_var(cx, l) || !r || !IsA(r, Const) || ((Const *) r)->constisnull)
		return false;
	if (chfdw_type_class(value_type(l)) == TC_TEXT && OidIsValid(sa->inputcollid) &&
		!get_collation_isdeterministic(sa->inputcollid))
		return false;
	chfdw_array_elems(((Const *) r)->constvalue, &a);
	ec = chfdw_type_class(a.type);
	if (ec == TC_NONE || ec == TC_FLOAT ||
		(ec != chfdw_type_class(value_type(l)) &&
		 !(chfdw_numeric_family(ec) && chfdw_numeric_family(chfdw_type_class(value_type(l))))))
		return false;
	if (a.n == 0 || a.n > MAX_IN_LIST ||
		chfdw_dt64_in_list_ok(cx, l, a.type, a.values, a.nulls, a.n))
		return a.n > 0 && a.n <= MAX_IN_LIST;	/* (dt64) tick ranges of any constants */
	if (chfdw_numconst_list_applies(cx, l, &a))
		return true;			/* (numconst) any numeric constants, no NULL */
	for (int i = 0; i < a.n; i++)
	{
		/* a NULL Const is not shippable */
		if (!chfdw_const_shippable(chfdw_array_elem_const(&a, i)))
			return false;
	}
	return true;
}
