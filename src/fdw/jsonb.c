/*-------------------------------------------------------------------------
 * jsonb.c
 *	  jsonb operators on read_as 'json' columns, computed by ClickHouse's
 *	  JSON functions with PostgreSQL's answer.
 *
 * A read_as 'json' column (a Map, Tuple, Array(Tuple), Nested, ...) is read
 * as toJSONString(col) and PostgreSQL parses that text into jsonb. Sent
 * expressions work on the same text with ClickHouse's JSON functions
 * (JSONType, JSONExtractString, JSONExtractRaw, JSONExtractKeys,
 * JSONExtractKeysAndValuesRaw, JSONExtractArrayRaw: ClickHouse's
 * src/Functions/FunctionsJSON.h), so what jsonb's parser makes of the text
 * decides every answer. The invariants:
 *
 * - A value is carried as its JSON text (a String, never Nullable: the
 *   JSON functions refuse Nullable arrays); '' (never the text of a JSON
 *   value) stands for SQL NULL (a missing key, an index out of range).
 * - A key is looked up as jsonb does: the LAST member of that name (jsonb
 *   keeps the last of duplicate keys; a Map's toJSONString() writes each of
 *   its pairs, duplicates too, and JSONExtract* would find the first).
 * - `->` with an integer treats a scalar as an array of one element (jsonb
 *   stores a scalar as a one-element "raw scalar" array: '5'::jsonb -> 0 is
 *   5), `#>` does not ('5'::jsonb #> '{0}' is NULL); negative indexes
 *   count from the end in both; a text key on an array, an index on an
 *   object: NULL.
 * - `->>` of a number is numeric_out(numeric_in(text)): ClickHouse
 *   re-serializes a number it parsed (JSONExtractRaw writes 1.50 as 1.5,
 *   1E2 as 100), so exactness needs texts whose value survives that, and
 *   that simdjson parses at all: the column's ClickHouse type must be one
 *   whose toJSONString() writes only integers of at most 64 bits
 *   (chfdw_jsonb_type_exact). The text is then spelled as numeric_out
 *   spells it (norm_sql: no exponent, "-0" as "0"; for the integers sent
 *   today the identity, kept so that the form stays right for any number
 *   ClickHouse writes).
 * - `->>` of an object or an array is jsonb's own text ({"a": 1}, keys in
 *   jsonb's order), which ClickHouse cannot write. It is sent only in a
 *   comparison with a text constant that does not begin with '{' or '[':
 *   then the first byte decides, and the container's text is replaced by
 *   "{" or "[" (under a byte-ordered collation for < <= > >=).
 *
 * Sent only on servers with toJSONString (ch_caps.json_output), for a plain
 * column of the scanned table (not above a join's sub-SELECTs).
 *
 * src/fdw/jsonb.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

#include "chfdw.h"
#include "pushdown_map.h"
#include "shippable.h"

static void chfdw_jsonb_deparse_alen(StringInfo buf);	/* (tochar) */

/* one step of a path, as jsonb takes it */
typedef enum StepKind
{
	STEP_KEY,					/* -> text: an object's member */
	STEP_ELEM,					/* -> integer: an array's element (a scalar
								 * is an array of one) */
	STEP_PATH					/* #> text[]: a member, or an element when
								 * the text is an integer */
} StepKind;

typedef struct Step
{
	StepKind	kind;
	const char *key;			/* STEP_KEY, STEP_PATH */
	bool		has_index;		/* STEP_ELEM; STEP_PATH: the text is an
								 * integer (strtoint, as jsonb's) */
	int			index;
} Step;

/* ---- which ClickHouse types ---- */

/*
 * chfdw_jsonb_type_exact
 *		Does toJSONString() of a value of type t write a text whose every
 *		value ClickHouse's JSON parser (simdjson) reads back as jsonb's
 *		parser does, numbers to the same value? Integers of at most 64 bits
 *		(Decimals of scale 0 and precision 18 or less are written as such),
 *		Bool, strings and what is written as a string (String, Date,
 *		DateTime, UUID, Enum, IPv4/IPv6), and Nullable, LowCardinality,
 *		Array, Tuple, Map and Nested of these. Not: Float32/Float64 (a value
 *		from 2^63 to 1e21 is written without an exponent, as an integer that
 *		simdjson cannot hold, and it then fails the whole text: every key of
 *		that row would be missing, as the modern_jsonb_pushdown test showed
 *		for 14 of 300 random doubles), 128/256-bit integers and wider Decimals
 *		(the same failure, or rounding through a double), Decimals
 *		with a scale (output_format_decimal_trailing_zeros changes their
 *		text, jsonb keeps trailing zeros, ClickHouse's re-serialization
 *		drops them), FixedString (zero padding written as \u0000, which
 *		jsonb refuses), JSON, Dynamic, Variant (any of these inside), and the
 *		rest.
 */
bool
chfdw_jsonb_type_exact(const ch_type *t)
{
	int			i;

	if (!t)
		return false;
	switch (t->kind)
	{
		case CH_T_UINT8:
		case CH_T_UINT16:
		case CH_T_UINT32:
		case CH_T_UINT64:
		case CH_T_INT8:
		case CH_T_INT16:
		case CH_T_INT32:
		case CH_T_INT64:
		case CH_T_BOOL:
		case CH_T_STRING:
		case CH_T_DATE:
		case CH_T_DATE32:
		case CH_T_DATETIME:
		case CH_T_DATETIME64:
		case CH_T_UUID:
		case CH_T_IPV4:
		case CH_T_IPV6:
		case CH_T_ENUM8:
		case CH_T_ENUM16:
		case CH_T_NOTHING:
			return true;
		case CH_T_DECIMAL:
			return t->scale == 0 && t->precision <= 18;
		case CH_T_NULLABLE:
		case CH_T_LOWCARDINALITY:
		case CH_T_ARRAY:
		case CH_T_TUPLE:
		case CH_T_MAP:
		case CH_T_NESTED:
			if (t->nchildren < 1)
				return false;
			for (i = 0; i < t->nchildren; i++)
				if (!chfdw_jsonb_type_exact(t->children[i]))
					return false;
			return true;
		default:
			return false;
	}
}

/* ---- recognising the expressions ---- */

static const char *
row_tag(Node *n)
{
	const ChFnRow *row;

	n = chfdw_strip_relabel(n);
	if (!n)
		return NULL;
	if (IsA(n, OpExpr))
		row = chfdw_op_row(((OpExpr *) n)->opno);
	else if (IsA(n, FuncExpr))
		row = chfdw_fn_row(((FuncExpr *) n)->funcid);
	else
		return NULL;
	if (!row || row->check != chfdw_jsonb_check)
		return NULL;
	return row->arg;
}

static bool
tag_is(const char *tag, const char *want)
{
	return tag && strcmp(tag, want) == 0;
}

/*
 * The server's capabilities for the scanned table (NULL: not a base table,
 * or a server that cannot be asked, probe.c).
 */
static const ch_caps *
table_caps(ShipCtx *cx)
{
	Oid			userid;

	if (!OidIsValid(cx->relid) || cx->qualify || !cx->baserel)
		return NULL;
	userid = OidIsValid(cx->baserel->userid) ? cx->baserel->userid : GetUserId();
	return chfdw_caps_try(userid, GetForeignTable(cx->relid)->serverid);
}

/* A read_as 'json' column of the scanned table whose type is exact. */
static bool
json_column(ShipCtx *cx, Node *n)
{
	Var		   *v;
	const ch_caps *caps;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid))
		return false;
	v = (Var *) n;
	if (v->vartype != JSONBOID || v->varlevelsup != 0 || v->varattno <= 0 ||
		!bms_is_member(v->varno, cx->visible) ||
		chfdw_column_read_as(cx->relid, v->varattno) != 'j')
		return false;
	caps = table_caps(cx);
	if (!caps || !caps->json_output)
		return false;
	return chfdw_column_json_exact(cx->relid, v->varattno,
								   cx->baserel ? cx->baserel->userid : InvalidOid);
}

/* The elements of a constant text[] (NULL: a NULL array). */
static Datum *
text_array(Node *n, bool **nulls, int *count)
{
	Const	   *c;
	Datum	   *elems;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const) || ((Const *) n)->constisnull ||
		((Const *) n)->consttype != TEXTARRAYOID)
		return NULL;
	c = (Const *) n;
	deconstruct_array(DatumGetArrayTypeP(c->constvalue), TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, nulls, count);
	return elems;
}

/*
 * Append the steps of operator tag (-> ->i #> and their text forms ->>
 * ->>i #>>) with constant right operand k; false when k is not sent.
 */
static bool
add_steps(const char *tag, Node *k, List **steps)
{
	k = chfdw_strip_relabel(k);
	if (!k || !IsA(k, Const) || ((Const *) k)->constisnull)
		return false;
	if (tag_is(tag, "->") || tag_is(tag, "->>"))
	{
		Step	   *s = palloc0(sizeof(Step));

		s->kind = STEP_KEY;
		s->key = TextDatumGetCString(((Const *) k)->constvalue);
		*steps = lappend(*steps, s);
		return true;
	}
	if (tag_is(tag, "->i") || tag_is(tag, "->>i"))
	{
		Step	   *s = palloc0(sizeof(Step));

		s->kind = STEP_ELEM;
		s->has_index = true;
		s->index = DatumGetInt32(((Const *) k)->constvalue);
		/* jsonb negates a negative index: INT_MIN is not sent */
		if (s->index == PG_INT32_MIN)
			return false;
		*steps = lappend(*steps, s);
		return true;
	}
	if (tag_is(tag, "#>") || tag_is(tag, "#>>"))
	{
		bool	   *nulls;
		int			cnt,
					i;
		Datum	   *elems = text_array(k, &nulls, &cnt);

		/* an empty path is the value itself (#>> writes it quoted): not sent */
		if (!elems || cnt == 0)
			return false;
		for (i = 0; i < cnt; i++)
		{
			Step	   *s = palloc0(sizeof(Step));
			char	   *end;
			long		l;

			if (nulls[i])
				return false;	/* a NULL in a path: left to PostgreSQL */
			s->kind = STEP_PATH;
			s->key = TextDatumGetCString(elems[i]);
			/* an array subscript as jsonb's path walk reads it (strtoint) */
			errno = 0;
			l = strtol(s->key, &end, 10);
			if (end != s->key && *end == '\0' && errno == 0 && l > INT_MIN && l <= INT_MAX)
			{
				s->has_index = true;
				s->index = (int) l;
			}
			*steps = lappend(*steps, s);
		}
		return true;
	}
	return false;
}

/*
 * The steps of a jsonb expression over a json column (-> and #> with
 * constants, nested); false when it is something else.
 */
static bool
json_path(ShipCtx *cx, Node *n, List **steps)
{
	const char *tag;
	OpExpr	   *op;

	n = chfdw_strip_relabel(n);
	if (json_column(cx, n))
		return true;
	tag = row_tag(n);
	if (!(tag_is(tag, "->") || tag_is(tag, "->i") || tag_is(tag, "#>")) || !IsA(n, OpExpr) ||
		list_length(((OpExpr *) n)->args) != 2)
		return false;
	op = (OpExpr *) n;
	return json_path(cx, linitial(op->args), steps) && add_steps(tag, lsecond(op->args), steps);
}

/* A text value of ->>, ->>i or #>> over a path: its steps. */
static bool
json_text(ShipCtx *cx, Node *n, List **steps)
{
	const char *tag = row_tag(n);
	OpExpr	   *op;

	n = chfdw_strip_relabel(n);
	if (!(tag_is(tag, "->>") || tag_is(tag, "->>i") || tag_is(tag, "#>>")) || !IsA(n, OpExpr) ||
		list_length(((OpExpr *) n)->args) != 2)
		return false;
	op = (OpExpr *) n;
	return json_path(cx, linitial(op->args), steps) && add_steps(tag, lsecond(op->args), steps);
}

/* ---- writing the SQL ---- */

/* ClickHouse's index of jsonb's array index i (1-based; -1 is the last) */
static int64
ch_index(int i)
{
	return i >= 0 ? (int64) i + 1 : (int64) i;
}

/*
 * The JSON text of the value after the steps, '' for SQL NULL. Each step is
 * a lambda over the previous value (arrayMap(j -> ..., [prev])[1]), so a
 * value is written once however deep the path.
 */
static void
deparse_path(StringInfo buf, ShipCtx *cx, Node *col, List *steps, int upto)
{
	Step	   *s;

	if (upto == 0)
	{
		Var		   *v = (Var *) chfdw_strip_relabel(col);

		/* toJSONString of a Nullable column is NULL for NULL: '' here */
		appendStringInfoString(buf, "ifNull(");
		chfdw_deparse_column(buf, cx->relid, v->varattno);
		appendStringInfoString(buf, ", '')");
		return;
	}
	s = list_nth(steps, upto - 1);
	appendStringInfoString(buf, "arrayMap(j -> multiIf(");
	if (s->kind != STEP_ELEM)
	{
		/* the last member of that name: jsonb keeps the last duplicate */
		appendStringInfoString(buf, "JSONType(j) = 'Object', "
							   "arrayLast(x -> x.1 = ");
		chfdw_quote_literal(buf, s->key);
		appendStringInfoString(buf, ", JSONExtractKeysAndValuesRaw(j)).2, ");
	}
	if (s->has_index)
	{
		appendStringInfo(buf, "JSONType(j) = 'Array', JSONExtractRaw(j, " INT64_FORMAT "), ",
						 ch_index(s->index));
		/* -> on a scalar: an array of one element (jsonb's raw scalar) */
		if (s->kind == STEP_ELEM && (s->index == 0 || s->index == -1))
			appendStringInfoString(buf, "j != '' AND JSONType(j) != 'Object', j, ");
	}
	appendStringInfoString(buf, "''), [");
	deparse_path(buf, cx, col, steps, upto - 1);
	appendStringInfoString(buf, "])[1]");
}

/* the column under a path expression */
static Node *
path_column(Node *n)
{
	for (;;)
	{
		n = chfdw_strip_relabel(n);
		if (IsA(n, Var))
			return n;
		if (IsA(n, OpExpr))
			n = linitial(((OpExpr *) n)->args);
		else if (IsA(n, FuncExpr))
			n = linitial(((FuncExpr *) n)->args);
		else
			elog(ERROR, "unexpected jsonb path node %d", (int) nodeTag(n));
	}
}

/*
 * numeric_out's spelling of the JSON number text in j (ClickHouse's
 * re-serialized text: -?digits[.digits][e[+-]digits]): the digits with the
 * point moved by the exponent, zeros added, leading zeros dropped, no sign
 * on zero; numeric_in keeps the scale the text implies (1.50e1 is 15.0),
 * as this does.
 */
static const char norm_sql[] =
	"arrayMap(g -> arrayMap((d, p) -> arrayMap(b -> if(g[1] = '-' AND match(b, '[1-9]'), "
	"concat('-', b), b), [replaceRegexpOne(multiIf(p <= 0, concat('0.', "
	"repeat('0', toUInt64(greatest(-p, 0))), d), p >= toInt64(length(d)), concat(d, "
	"repeat('0', toUInt64(greatest(p - toInt64(length(d)), 0)))), concat(substring(d, 1, "
	"greatest(p, 1)), '.', substring(d, greatest(p, 1) + 1))), '^0+([0-9])', '\\\\1')])[1], "
	"[concat(g[2], g[3])], [toInt64(length(g[2])) + toInt64OrZero(replaceOne(g[4], '+', ''))])[1], "
	"[extractGroups(j, '^(-?)([0-9]+)(?:\\\\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?$')])[1]";

#define NUMBER_TYPES "('Int64', 'UInt64', 'Double')"

/* ->> / #>>: the value's text, containers as '{' or '[' (see the header) */
static void
deparse_text(StringInfo buf, ShipCtx *cx, Node *col, List *steps)
{
	/* an integer's text is numeric_out's already (written by ClickHouse) */
	appendStringInfoString(buf, "arrayMap(j -> if(j = '', NULL, multiIf("
						   "JSONType(j) = 'String', JSONExtractString(j), "
						   "JSONType(j) IN ('Int64', 'UInt64'), j, JSONType(j) = 'Double', ");
	appendStringInfoString(buf, norm_sql);
	appendStringInfoString(buf, ", JSONType(j) = 'Bool', j, JSONType(j) = 'Object', '{', "
						   "JSONType(j) = 'Array', '[', NULL)), [");
	deparse_path(buf, cx, col, steps, list_length(steps));
	appendStringInfoString(buf, "])[1]");
}

/* jsonb's canonical text of a number for equality: trailing zeros dropped */
static char *
number_canon(const char *s)
{
	char	   *r = pstrdup(s);
	size_t		n = strlen(r);

	if (strchr(r, '.') == NULL)
		return r;
	while (n > 0 && r[n - 1] == '0')
		r[--n] = '\0';
	if (n > 0 && r[n - 1] == '.')
		r[--n] = '\0';
	return r;
}

/* "w is jsonb scalar v" for a JSON text w ('' none) */
static void
deparse_scalar_match(StringInfo buf, JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			appendStringInfoString(buf, "(w != '' AND JSONType(w) = 'Null')");
			break;
		case jbvBool:
			appendStringInfo(buf, "(JSONType(w) = 'Bool' AND w = '%s')",
							 v->val.boolean ? "true" : "false");
			break;
		case jbvString:
			appendStringInfoString(buf, "(JSONType(w) = 'String' AND JSONExtractString(w) = ");
			chfdw_quote_literal(buf, pnstrdup(v->val.string.val, v->val.string.len));
			appendStringInfoChar(buf, ')');
			break;
		case jbvNumeric:
			{
				char	   *t = number_canon(DatumGetCString(DirectFunctionCall1(numeric_out,
																				 NumericGetDatum(v->val.numeric))));

				appendStringInfoString(buf, "(JSONType(w) IN ('Int64', 'UInt64') AND w = ");
				chfdw_quote_literal(buf, t);
				appendStringInfoString(buf, " OR JSONType(w) = 'Double' AND arrayMap(j -> "
									   "arrayMap(x -> if(position(x, '.') > 0, "
									   "replaceRegexpOne(x, '\\\\.?0+$', ''), x), [");
				appendStringInfoString(buf, norm_sql);
				appendStringInfoString(buf, "])[1], [w])[1] = ");
				chfdw_quote_literal(buf, t);
				appendStringInfoChar(buf, ')');
				break;
			}
		default:
			elog(ERROR, "unexpected jsonb scalar %d", (int) v->type);
	}
}

/*
 * The pairs of a constant jsonb object whose values are scalars (the @>
 * subset sent); NIL and *ok false otherwise.
 */
static List *
flat_object(Node *n, bool *ok)
{
	Jsonb	   *jb;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	List	   *pairs = NIL;
	int			depth = 0;
	char	   *key = NULL;

	*ok = false;
	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const) || ((Const *) n)->constisnull || ((Const *) n)->consttype != JSONBOID)
		return NIL;
	jb = DatumGetJsonbP(((Const *) n)->constvalue);
	if (!JB_ROOT_IS_OBJECT(jb))
		return NIL;
	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		switch (tok)
		{
			case WJB_BEGIN_OBJECT:
			case WJB_BEGIN_ARRAY:
				if (++depth > 1)
					return NIL; /* a nested container: not sent */
				break;
			case WJB_END_OBJECT:
			case WJB_END_ARRAY:
				depth--;
				break;
			case WJB_KEY:
				key = pnstrdup(v.val.string.val, v.val.string.len);
				break;
			case WJB_VALUE:
				{
					JsonbValue *c = palloc(sizeof(JsonbValue));

					*c = v;
					pairs = lappend(pairs, list_make2(key, c));
					break;
				}
			default:
				return NIL;
		}
	}
	*ok = true;
	return pairs;
}

/* ---- the rows' callbacks (pushdown_map.c) ---- */

/*
 * chfdw_jsonb_check
 *		The rows of jsonb.c: jsonb_typeof, ?, ?|, ?&, @> over a path are
 *		values; -> ->> #> #>> alone are not (see chfdw_jsonb_compare_shippable
 *		and chfdw_jsonb_nulltest_shippable for where they are sent).
 */
bool
chfdw_jsonb_check(ShipCtx *cx, List *args, const ChFnRow *row)
{
	List	   *steps = NIL;
	const char *tag = row->arg;

	if (tag_is(tag, "typeof") || tag_is(tag, "alen"))	/* (tochar) alen */
		return json_path(cx, linitial(args), &steps);
	if (tag_is(tag, "?"))
		return json_path(cx, linitial(args), &steps) && chfdw_const_text(lsecond(args)) != NULL;
	if (tag_is(tag, "?|") || tag_is(tag, "?&"))
	{
		bool	   *nulls;
		int			cnt;

		return json_path(cx, linitial(args), &steps) && text_array(lsecond(args), &nulls, &cnt);
	}
	if (tag_is(tag, "@>"))
	{
		bool		ok;

		(void) flat_object(lsecond(args), &ok);
		return ok && json_path(cx, linitial(args), &steps);
	}
	return false;
}

/* "j (a JSON text) has key k" as jsonb's ? */
static void
deparse_exists(StringInfo buf, const char *k)
{
	appendStringInfoString(buf, "multiIf(JSONType(j) = 'Object', has(JSONExtractKeys(j), ");
	chfdw_quote_literal(buf, k);
	appendStringInfoString(buf, "), JSONType(j) = 'Array', arrayExists(e -> JSONType(e) = 'String' "
						   "AND JSONExtractString(e) = ");
	chfdw_quote_literal(buf, k);
	appendStringInfoString(buf, ", JSONExtractArrayRaw(j)), JSONType(j) = 'String', "
						   "JSONExtractString(j) = ");
	chfdw_quote_literal(buf, k);
	appendStringInfoString(buf, ", 0)");
}

void
chfdw_jsonb_deparse(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	List	   *steps = NIL;
	const char *tag = row->arg;
	Node	   *recv = linitial(args);
	Node	   *col = path_column(recv);

	if (tag_is(tag, "->>") || tag_is(tag, "->>i") || tag_is(tag, "#>>") ||
		tag_is(tag, "->") || tag_is(tag, "->i") || tag_is(tag, "#>"))
	{
		if (!json_path(cx, recv, &steps) || !add_steps(tag, lsecond(args), &steps))
			elog(ERROR, "jsonb path not shippable");
		if (strstr(tag, ">>") != NULL)
			deparse_text(buf, cx, col, steps);
		else
		{
			/* the jsonb value, NULL for SQL NULL (IS NULL only) */
			appendStringInfoString(buf, "nullIf(");
			deparse_path(buf, cx, col, steps, list_length(steps));
			appendStringInfoString(buf, ", '')");
		}
		return;
	}
	if (!json_path(cx, recv, &steps))
		elog(ERROR, "jsonb path not shippable");
	appendStringInfoString(buf, "arrayMap(j -> if(j = '', NULL, ");
	if (tag_is(tag, "typeof"))
		appendStringInfoString(buf, "multiIf(JSONType(j) = 'Object', 'object', JSONType(j) = 'Array', "
							   "'array', JSONType(j) = 'String', 'string', JSONType(j) IN "
							   NUMBER_TYPES ", 'number', JSONType(j) = 'Bool', 'boolean', "
							   "JSONType(j) = 'Null', 'null', NULL)");
	else if (tag_is(tag, "alen"))
		chfdw_jsonb_deparse_alen(buf);	/* (tochar) */
	else if (tag_is(tag, "?"))
		deparse_exists(buf, chfdw_const_text(lsecond(args)));
	else if (tag_is(tag, "?|") || tag_is(tag, "?&"))
	{
		bool	   *nulls;
		int			cnt,
					i;
		Datum	   *elems = text_array(lsecond(args), &nulls, &cnt);
		bool		any = tag_is(tag, "?|");
		bool		first = true;

		/* NULL elements are skipped, as jsonb does; none: false / true */
		appendStringInfoChar(buf, '(');
		for (i = 0; i < cnt; i++)
		{
			if (nulls[i])
				continue;
			if (!first)
				appendStringInfoString(buf, any ? " OR " : " AND ");
			deparse_exists(buf, TextDatumGetCString(elems[i]));
			first = false;
		}
		if (first)
			appendStringInfoString(buf, any ? "0" : "1");
		appendStringInfoChar(buf, ')');
	}
	else if (tag_is(tag, "@>"))
	{
		bool		ok;
		List	   *pairs = flat_object(lsecond(args), &ok);
		ListCell   *lc;

		appendStringInfoString(buf, "(JSONType(j) = 'Object'");
		foreach(lc, pairs)
		{
			List	   *p = lfirst(lc);

			appendStringInfoString(buf, " AND arrayMap(w -> ");
			deparse_scalar_match(buf, lsecond(p));
			appendStringInfoString(buf, ", [arrayLast(x -> x.1 = ");
			chfdw_quote_literal(buf, linitial(p));
			appendStringInfoString(buf, ", JSONExtractKeysAndValuesRaw(j)).2])[1]");
		}
		appendStringInfoChar(buf, ')');
	}
	else
		elog(ERROR, "unexpected jsonb row \"%s\"", tag);
	appendStringInfoString(buf, "), [");
	deparse_path(buf, cx, col, steps, list_length(steps));
	appendStringInfoString(buf, "])[1]");
}

/* ---- the hooks of the walker (shippable.c) ---- */

/*
 * chfdw_jsonb_bool_op
 *		Is n one of the boolean jsonb operators of jsonb.c (?, ?|, ?&, @>)?
 *		The walker takes them as boolean values.
 */
bool
chfdw_jsonb_bool_op(Node *n)
{
	const char *tag = row_tag(n);

	n = chfdw_strip_relabel(n);
	return n && IsA(n, OpExpr) &&
		(tag_is(tag, "?") || tag_is(tag, "?|") || tag_is(tag, "?&") || tag_is(tag, "@>"));
}

/*
 * chfdw_jsonb_compare_shippable
 *		op (a comparison, name its operator) of a ->> / #>> value and a text
 *		constant that does not begin with '{' or '[' (a container's text is
 *		written as that byte: see the header); < <= > >= under a
 *		byte-ordered collation, = <> under a deterministic one.
 */
bool
chfdw_jsonb_compare_shippable(ShipCtx *cx, OpExpr *op, const char *name)
{
	List	   *steps = NIL;
	Node	   *l,
			   *r;
	const char *c;
	bool		eq;

	if (list_length(op->args) != 2)
		return false;
	eq = strcmp(name, "=") == 0 || strcmp(name, "<>") == 0;
	if (!eq && strcmp(name, "<") != 0 && strcmp(name, "<=") != 0 && strcmp(name, ">") != 0 &&
		strcmp(name, ">=") != 0)
		return false;
	l = linitial(op->args);
	r = lsecond(op->args);
	if (!json_text(cx, l, &steps))
	{
		Node	   *t = l;

		l = r;
		r = t;
		if (!json_text(cx, l, &steps))
			return false;
	}
	c = chfdw_const_text(r);
	if (!c || c[0] == '{' || c[0] == '[')
		return false;
	if (eq)
		return !OidIsValid(op->inputcollid) || get_collation_isdeterministic(op->inputcollid);
	return chfdw_ordering_collation_ok(cx, op->inputcollid);
}

/*
 * chfdw_jsonb_nulltest_shippable
 *		IS [NOT] NULL of -> / #> (a missing member; JSON null is not NULL)
 *		or of ->> / #>> (also JSON null) over a json column.
 */
bool
chfdw_jsonb_nulltest_shippable(ShipCtx *cx, Node *arg)
{
	List	   *steps = NIL;

	arg = chfdw_strip_relabel(arg);
	if (!arg || !IsA(arg, OpExpr) || json_column(cx, arg))
		return false;
	return json_path(cx, arg, &steps) || json_text(cx, arg, &steps);
}

/*
 * chfdw_jsonb_saop_shippable
 *		->> / #>> IN (or NOT IN) a constant list of texts, none NULL, none
 *		beginning with '{' or '[', at most as many as the walker sends,
 *		under a deterministic collation. The caller has checked the operator
 *		(= ANY, <> ALL).
 */
bool
chfdw_jsonb_saop_shippable(ShipCtx *cx, ScalarArrayOpExpr *sa)
{
	List	   *steps = NIL;
	bool	   *nulls;
	int			cnt,
				i;
	Datum	   *elems;

	if (list_length(sa->args) != 2 || !json_text(cx, linitial(sa->args), &steps))
		return false;
	if (OidIsValid(sa->inputcollid) && !get_collation_isdeterministic(sa->inputcollid))
		return false;
	elems = text_array(lsecond(sa->args), &nulls, &cnt);
	if (!elems || cnt == 0 || cnt > 1000)
		return false;
	for (i = 0; i < cnt; i++)
	{
		char	   *c;

		if (nulls[i])
			return false;
		c = TextDatumGetCString(elems[i]);
		if (c[0] == '{' || c[0] == '[')
			return false;
	}
	return true;
}

/* ---- tochar: jsonb_array_length, raising PostgreSQL's errors ---- */

/*
 * jsonb_array_length(path) of a read_as 'json' column (the row's guard
 * CHFN_RAISES: sent only where PostgreSQL computes it for every row): the
 * number of elements of an array (JSONLength), NULL for SQL NULL (a
 * missing key, an index out of range: '' here), and where jsonfuncs.c
 * raises, 22023 "cannot get array length of a scalar" (a string, number,
 * boolean or JSON null: jsonb's raw scalars) or "... of a non-array" (an
 * object), ClickHouse raises (the marker guard, error.c) for that row.
 * Written inside the lambda over the value's text j (chfdw_jsonb_deparse).
 */
static void
chfdw_jsonb_deparse_alen(StringInfo buf)
{
	appendStringInfo(buf, "toInt32(multiIf(JSONType(j) = 'Array', toInt64(JSONLength(j)), "
					 "toInt8(if(JSONType(j) = 'Object', '%s', '%s'))))",
					 chfdw_raise_marker(CHFDW_RAISE_JSONB_NONARRAY),
					 chfdw_raise_marker(CHFDW_RAISE_JSONB_SCALAR));
}
