/*-------------------------------------------------------------------------
 * ch_type.c
 *	  Parser from ClickHouse type names to ch_type trees.
 *
 * The grammar is the one toTypeName() prints: a name, optionally followed
 * by a parenthesised argument list whose shape depends on the name. Quoted
 * strings (Enum labels, time zones) may hold any character with backslash
 * escapes; identifiers may be back-quoted or double-quoted (named Tuple
 * elements). Every allocation comes from the caller's arena.
 *
 * src/codec/ch_type.c
 *-------------------------------------------------------------------------
 */
#include "ch_type.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct parser
{
	const char *s;
	size_t		len;
	size_t		pos;
	ch_arena   *ar;
	ch_error   *err;
	int			depth;
} parser;

static ch_status parse_type(parser *p, ch_type **out);

static const char *const kind_names[CH_T_KIND_COUNT_] = {
	[CH_T_UINT8] = "UInt8",
	[CH_T_UINT16] = "UInt16",
	[CH_T_UINT32] = "UInt32",
	[CH_T_UINT64] = "UInt64",
	[CH_T_UINT128] = "UInt128",
	[CH_T_UINT256] = "UInt256",
	[CH_T_INT8] = "Int8",
	[CH_T_INT16] = "Int16",
	[CH_T_INT32] = "Int32",
	[CH_T_INT64] = "Int64",
	[CH_T_INT128] = "Int128",
	[CH_T_INT256] = "Int256",
	[CH_T_FLOAT32] = "Float32",
	[CH_T_FLOAT64] = "Float64",
	[CH_T_BFLOAT16] = "BFloat16",
	[CH_T_BOOL] = "Bool",
	[CH_T_DECIMAL] = "Decimal",
	[CH_T_STRING] = "String",
	[CH_T_FIXEDSTRING] = "FixedString",
	[CH_T_DATE] = "Date",
	[CH_T_DATE32] = "Date32",
	[CH_T_DATETIME] = "DateTime",
	[CH_T_DATETIME64] = "DateTime64",
	[CH_T_UUID] = "UUID",
	[CH_T_IPV4] = "IPv4",
	[CH_T_IPV6] = "IPv6",
	[CH_T_ENUM8] = "Enum8",
	[CH_T_ENUM16] = "Enum16",
	[CH_T_NULLABLE] = "Nullable",
	[CH_T_LOWCARDINALITY] = "LowCardinality",
	[CH_T_ARRAY] = "Array",
	[CH_T_TUPLE] = "Tuple",
	[CH_T_MAP] = "Map",
	[CH_T_NESTED] = "Nested",
	[CH_T_NOTHING] = "Nothing",
	[CH_T_INTERVAL] = "Interval",
	[CH_T_TIME] = "Time",
	[CH_T_TIME64] = "Time64",
	[CH_T_AGGREGATE_FUNCTION] = "AggregateFunction",
	[CH_T_JSON] = "JSON",
	[CH_T_VARIANT] = "Variant",
	[CH_T_DYNAMIC] = "Dynamic",
};

const char *
ch_type_kind_name(ch_type_kind k)
{
	if ((unsigned) k >= CH_T_KIND_COUNT_)
		return "?";
	return kind_names[k];
}

bool
ch_type_is_fixed(const ch_type *t)
{
	return t->width > 0;
}

bool
ch_type_kind_is_int(ch_type_kind k)
{
	switch (k)
	{
		case CH_T_UINT8:
		case CH_T_UINT16:
		case CH_T_UINT32:
		case CH_T_UINT64:
		case CH_T_UINT128:
		case CH_T_UINT256:
		case CH_T_INT8:
		case CH_T_INT16:
		case CH_T_INT32:
		case CH_T_INT64:
		case CH_T_INT128:
		case CH_T_INT256:
			return true;
		default:
			return false;
	}
}

bool
ch_type_kind_is_float(ch_type_kind k)
{
	return k == CH_T_FLOAT32 || k == CH_T_FLOAT64 || k == CH_T_BFLOAT16;
}

const ch_type *
ch_type_unwrap(const ch_type *t)
{
	while (t->kind == CH_T_NULLABLE || t->kind == CH_T_LOWCARDINALITY)
		t = t->children[0];
	return t;
}

/* ---- lexing helpers ---- */

static void
skip_ws(parser *p)
{
	while (p->pos < p->len && isspace((unsigned char) p->s[p->pos]))
		p->pos++;
}

static bool
peek_is(parser *p, char c)
{
	skip_ws(p);
	return p->pos < p->len && p->s[p->pos] == c;
}

static ch_status
syntax_error(parser *p, const char *what)
{
	return ch_error_set(p->err, CH_ERR_MALFORMED,
						"malformed ClickHouse type \"%.*s\": %s at offset %zu",
						(int) (p->len > 200 ? 200 : p->len), p->s, what, p->pos);
}

static ch_status
expect(parser *p, char c)
{
	char		msg[32];

	if (peek_is(p, c))
	{
		p->pos++;
		return CH_OK;
	}
	snprintf(msg, sizeof(msg), "expected '%c'", c);
	return syntax_error(p, msg);
}

static ch_status
nomem(parser *p)
{
	return ch_error_set(p->err, CH_ERR_NOMEM, "out of memory while parsing a ClickHouse type");
}

/* A bare identifier: letters, digits, underscore. */
static bool
read_ident(parser *p, const char **start, size_t *n)
{
	size_t		b;

	skip_ws(p);
	b = p->pos;
	while (p->pos < p->len &&
		   (isalnum((unsigned char) p->s[p->pos]) || p->s[p->pos] == '_'))
		p->pos++;
	*start = p->s + b;
	*n = p->pos - b;
	return *n > 0;
}

/*
 * A quoted token (quote is ' or ` or "): unescapes \x and doubled quotes into
 * an arena string. The result length goes to *n.
 */
static ch_status
read_quoted(parser *p, char quote, char **out, size_t *n)
{
	size_t		b;
	char	   *buf;
	size_t		k = 0;

	skip_ws(p);
	if (p->pos >= p->len || p->s[p->pos] != quote)
		return syntax_error(p, "expected a quoted string");
	p->pos++;
	b = p->pos;
	/* size the copy by the distance to the closing quote, not the whole rest */
	{
		size_t		e = b;

		while (e < p->len && p->s[e] != quote)
			e += (p->s[e] == '\\' && e + 1 < p->len) ? 2 : 1;
		/* a doubled quote continues the string: keep scanning */
		while (e + 1 < p->len && p->s[e + 1] == quote)
		{
			e += 2;
			while (e < p->len && p->s[e] != quote)
				e += (p->s[e] == '\\' && e + 1 < p->len) ? 2 : 1;
		}
		buf = ch_arena_alloc(p->ar, (e > p->len ? p->len : e) - b + 1);
	}
	if (!buf)
		return nomem(p);
	while (p->pos < p->len)
	{
		char		c = p->s[p->pos];

		if (c == '\\' && p->pos + 1 < p->len)
		{
			char		e = p->s[p->pos + 1];

			p->pos += 2;
			switch (e)
			{
				case 'n':
					buf[k++] = '\n';
					break;
				case 't':
					buf[k++] = '\t';
					break;
				case 'r':
					buf[k++] = '\r';
					break;
				case '0':
					buf[k++] = '\0';
					break;
				case 'b':
					buf[k++] = '\b';
					break;
				case 'f':
					buf[k++] = '\f';
					break;
				case 'a':
					buf[k++] = '\a';
					break;
				case 'v':
					buf[k++] = '\v';
					break;
				case 'x':
					if (p->pos + 2 <= p->len &&
						isxdigit((unsigned char) p->s[p->pos]) &&
						isxdigit((unsigned char) p->s[p->pos + 1]))
					{
						char		hex[3] = {p->s[p->pos], p->s[p->pos + 1], 0};

						buf[k++] = (char) strtol(hex, NULL, 16);
						p->pos += 2;
					}
					else
						buf[k++] = 'x';
					break;
				default:
					buf[k++] = e;
					break;
			}
			continue;
		}
		if (c == quote)
		{
			if (p->pos + 1 < p->len && p->s[p->pos + 1] == quote)
			{
				buf[k++] = quote;
				p->pos += 2;
				continue;
			}
			p->pos++;
			buf[k] = '\0';
			*out = buf;
			*n = k;
			return CH_OK;
		}
		buf[k++] = c;
		p->pos++;
	}
	return syntax_error(p, "unterminated quoted string");
}

static ch_status
read_int(parser *p, int64_t lo, int64_t hi, int64_t *out)
{
	size_t		b;
	char		tmp[32];
	char	   *end;
	long long	v;

	skip_ws(p);
	b = p->pos;
	if (p->pos < p->len && (p->s[p->pos] == '-' || p->s[p->pos] == '+'))
		p->pos++;
	while (p->pos < p->len && isdigit((unsigned char) p->s[p->pos]))
		p->pos++;
	if (p->pos == b || p->pos - b >= sizeof(tmp))
		return syntax_error(p, "expected an integer");
	memcpy(tmp, p->s + b, p->pos - b);
	tmp[p->pos - b] = '\0';
	errno = 0;
	v = strtoll(tmp, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
	{
		p->pos = b;
		return syntax_error(p, "integer argument out of range");
	}
	*out = v;
	return CH_OK;
}

/* Skip a balanced argument list starting after '(' up to the matching ')'. */
static ch_status
skip_balanced(parser *p, const char **start, size_t *n)
{
	int			level = 1;
	size_t		b = p->pos;

	while (p->pos < p->len)
	{
		char		c = p->s[p->pos];

		if (c == '\'' || c == '`' || c == '"')
		{
			char	   *dummy;
			size_t		dn;
			ch_status	st = read_quoted(p, c, &dummy, &dn);

			if (st != CH_OK)
				return st;
			continue;
		}
		if (c == '(')
			level++;
		else if (c == ')')
		{
			if (--level == 0)
			{
				*start = p->s + b;
				*n = p->pos - b;
				p->pos++;
				return CH_OK;
			}
		}
		p->pos++;
	}
	return syntax_error(p, "unbalanced parentheses");
}

static ch_type *
new_type(parser *p, ch_type_kind kind, uint32_t width)
{
	ch_type    *t = ch_arena_zalloc(p->ar, sizeof(ch_type));

	if (t)
	{
		t->kind = kind;
		t->width = width;
	}
	return t;
}

/* Parse a type from a fixed string (used for geometry aliases). */
static ch_status
parse_alias(parser *p, const char *expansion, ch_type **out)
{
	parser		sub = *p;

	sub.s = expansion;
	sub.len = strlen(expansion);
	sub.pos = 0;
	return parse_type(&sub, out);
}

static bool
name_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/*
 * A list of element types, optionally named ("a UInt8, `b c` String").
 * Fills t->children/names/nchildren.
 */
static ch_status
parse_type_list(parser *p, ch_type *t, bool allow_names, bool require_names)
{
	int			cap = 8;
	ch_type   **items = ch_arena_alloc(p->ar, sizeof(ch_type *) * cap);
	const char **names = ch_arena_alloc(p->ar, sizeof(char *) * cap);
	int			n = 0;
	bool		any_named = false;

	if (!items || !names)
		return nomem(p);

	if (peek_is(p, ')'))
	{
		p->pos++;
		t->nchildren = 0;
		return CH_OK;
	}
	for (;;)
	{
		size_t		save;
		const char *ename = NULL;
		ch_status	st;

		if (n == cap)
		{
			ch_type   **ni;
			const char **nn;

			if (cap >= 65536)
				return ch_error_set(p->err, CH_ERR_LIMIT, "ClickHouse type has more than 65536 elements");
			ni = ch_arena_alloc(p->ar, sizeof(ch_type *) * cap * 2);
			nn = ch_arena_alloc(p->ar, sizeof(char *) * cap * 2);
			if (!ni || !nn)
				return nomem(p);
			memcpy(ni, items, sizeof(ch_type *) * n);
			memcpy(nn, names, sizeof(char *) * n);
			items = ni;
			names = nn;
			cap *= 2;
		}
		skip_ws(p);
		save = p->pos;
		if (allow_names)
		{
			/* "name Type": an identifier followed by something other than ( , ) */
			if (p->pos < p->len && (p->s[p->pos] == '`' || p->s[p->pos] == '"'))
			{
				char	   *q;
				size_t		qn;

				st = read_quoted(p, p->s[p->pos], &q, &qn);
				if (st != CH_OK)
					return st;
				ename = q;
			}
			else
			{
				const char *id;
				size_t		idn;

				if (read_ident(p, &id, &idn))
				{
					size_t		after = p->pos;

					skip_ws(p);
					if (p->pos < p->len && p->pos > after &&
						p->s[p->pos] != ',' && p->s[p->pos] != ')' && p->s[p->pos] != '(')
					{
						ename = ch_arena_strndup(p->ar, id, idn);
						if (!ename)
							return nomem(p);
					}
					else
						p->pos = save;
				}
				else
					p->pos = save;
			}
		}
		if (require_names && !ename)
			return syntax_error(p, "expected a named element");
		if (ename)
			any_named = true;
		names[n] = ename;
		st = parse_type(p, &items[n]);
		if (st != CH_OK)
			return st;
		n++;
		skip_ws(p);
		if (peek_is(p, ','))
		{
			p->pos++;
			continue;
		}
		if (peek_is(p, ')'))
		{
			p->pos++;
			break;
		}
		return syntax_error(p, "expected ',' or ')'");
	}
	t->nchildren = n;
	t->children = items;
	if (any_named)
	{
		int			i;

		for (i = 0; i < n; i++)
			if (!names[i])
				names[i] = "";
		t->names = names;
	}
	return CH_OK;
}

static ch_status
parse_enum(parser *p, ch_type *t, int64_t lo, int64_t hi)
{
	int			cap = 16;
	int			n = 0;
	const char **names = ch_arena_alloc(p->ar, sizeof(char *) * cap);
	uint32_t   *lens = ch_arena_alloc(p->ar, sizeof(uint32_t) * cap);
	int32_t    *vals = ch_arena_alloc(p->ar, sizeof(int32_t) * cap);

	if (!names || !lens || !vals)
		return nomem(p);
	for (;;)
	{
		char	   *label;
		size_t		ln;
		int64_t		v;
		ch_status	st;

		if (n == cap)
		{
			const char **nn;
			uint32_t   *nl;
			int32_t    *nv;

			if (cap >= 65536)
				return ch_error_set(p->err, CH_ERR_LIMIT, "too many Enum values");
			nn = ch_arena_alloc(p->ar, sizeof(char *) * cap * 2);
			nl = ch_arena_alloc(p->ar, sizeof(uint32_t) * cap * 2);
			nv = ch_arena_alloc(p->ar, sizeof(int32_t) * cap * 2);
			if (!nn || !nl || !nv)
				return nomem(p);
			memcpy(nn, names, sizeof(char *) * n);
			memcpy(nl, lens, sizeof(uint32_t) * n);
			memcpy(nv, vals, sizeof(int32_t) * n);
			names = nn;
			lens = nl;
			vals = nv;
			cap *= 2;
		}
		st = read_quoted(p, '\'', &label, &ln);
		if (st != CH_OK)
			return st;
		if ((st = expect(p, '=')) != CH_OK)
			return st;
		if ((st = read_int(p, lo, hi, &v)) != CH_OK)
			return st;
		names[n] = label;
		lens[n] = (uint32_t) ln;
		vals[n] = (int32_t) v;
		n++;
		if (peek_is(p, ','))
		{
			p->pos++;
			continue;
		}
		if ((st = expect(p, ')')) != CH_OK)
			return st;
		break;
	}
	t->nenum = n;
	t->enum_names = names;
	t->enum_name_lens = lens;
	t->enum_values = vals;
	return CH_OK;
}

static uint32_t
decimal_width(int64_t precision)
{
	if (precision <= 9)
		return 4;
	if (precision <= 18)
		return 8;
	if (precision <= 38)
		return 16;
	return 32;
}

typedef struct simple_kind
{
	const char *name;
	ch_type_kind kind;
	uint32_t	width;
} simple_kind;

static const simple_kind simple_kinds[] = {
	{"UInt8", CH_T_UINT8, 1},
	{"UInt16", CH_T_UINT16, 2},
	{"UInt32", CH_T_UINT32, 4},
	{"UInt64", CH_T_UINT64, 8},
	{"UInt128", CH_T_UINT128, 16},
	{"UInt256", CH_T_UINT256, 32},
	{"Int8", CH_T_INT8, 1},
	{"Int16", CH_T_INT16, 2},
	{"Int32", CH_T_INT32, 4},
	{"Int64", CH_T_INT64, 8},
	{"Int128", CH_T_INT128, 16},
	{"Int256", CH_T_INT256, 32},
	{"Float32", CH_T_FLOAT32, 4},
	{"Float64", CH_T_FLOAT64, 8},
	{"BFloat16", CH_T_BFLOAT16, 2},
	{"Bool", CH_T_BOOL, 1},
	{"String", CH_T_STRING, 0},
	{"Date", CH_T_DATE, 2},
	{"Date32", CH_T_DATE32, 4},
	{"UUID", CH_T_UUID, 16},
	{"IPv4", CH_T_IPV4, 4},
	{"IPv6", CH_T_IPV6, 16},
	{"Nothing", CH_T_NOTHING, 1},
	{"Time", CH_T_TIME, 4},
	{"Dynamic", CH_T_DYNAMIC, 0},
	{"JSON", CH_T_JSON, 0},
	{"Object", CH_T_JSON, 0},
};

static const struct
{
	const char *name;
	const char *expansion;
}			geo_aliases[] = {
	{"Point", "Tuple(Float64, Float64)"},
	{"Ring", "Array(Tuple(Float64, Float64))"},
	{"LineString", "Array(Tuple(Float64, Float64))"},
	{"MultiLineString", "Array(Array(Tuple(Float64, Float64)))"},
	{"Polygon", "Array(Array(Tuple(Float64, Float64)))"},
	{"MultiPolygon", "Array(Array(Array(Tuple(Float64, Float64))))"},
};

static ch_status
parse_args_for(parser *p, const char *nm, size_t nl, ch_type **out)
{
	ch_type    *t = NULL;
	ch_status	st;
	bool		has_args;
	size_t		i;

	has_args = peek_is(p, '(');
	if (has_args)
		p->pos++;

	for (i = 0; i < sizeof(simple_kinds) / sizeof(simple_kinds[0]); i++)
	{
		if (!name_is(nm, nl, simple_kinds[i].name))
			continue;
		t = new_type(p, simple_kinds[i].kind, simple_kinds[i].width);
		if (!t)
			return nomem(p);
		if (t->kind == CH_T_BOOL)
			t->is_bool_alias = true;
		if (has_args)
		{
			const char *a;
			size_t		an;

			/* JSON(...), Object('json'), Dynamic(max_types=N): keep text */
			if (t->kind != CH_T_JSON && t->kind != CH_T_DYNAMIC)
				return syntax_error(p, "this type takes no arguments");
			if ((st = skip_balanced(p, &a, &an)) != CH_OK)
				return st;
			t->arg_text = ch_arena_strndup(p->ar, a, an);
		}
		*out = t;
		return CH_OK;
	}

	for (i = 0; i < sizeof(geo_aliases) / sizeof(geo_aliases[0]); i++)
	{
		if (name_is(nm, nl, geo_aliases[i].name))
		{
			if (has_args)
				return syntax_error(p, "this type takes no arguments");
			return parse_alias(p, geo_aliases[i].expansion, out);
		}
	}

	if (nl > 8 && memcmp(nm, "Interval", 8) == 0 && !has_args)
	{
		t = new_type(p, CH_T_INTERVAL, 8);
		if (!t)
			return nomem(p);
		t->arg_text = ch_arena_strndup(p->ar, nm + 8, nl - 8);
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "Nullable") || name_is(nm, nl, "LowCardinality") ||
		name_is(nm, nl, "Array"))
	{
		ch_type_kind k = nm[0] == 'N' ? CH_T_NULLABLE :
			nm[0] == 'L' ? CH_T_LOWCARDINALITY : CH_T_ARRAY;

		if (!has_args)
			return syntax_error(p, "expected '('");
		t = new_type(p, k, 0);
		if (!t || !(t->children = ch_arena_alloc(p->ar, sizeof(ch_type *))))
			return nomem(p);
		t->nchildren = 1;
		if ((st = parse_type(p, &t->children[0])) != CH_OK)
			return st;
		if ((st = expect(p, ')')) != CH_OK)
			return st;
		if (k == CH_T_NULLABLE)
		{
			ch_type_kind ck = t->children[0]->kind;

			if (ck == CH_T_NULLABLE || ck == CH_T_ARRAY || ck == CH_T_MAP ||
				ck == CH_T_LOWCARDINALITY || ck == CH_T_TUPLE)
				return ch_error_set(p->err, CH_ERR_MALFORMED,
									"ClickHouse type \"%.*s\": Nullable cannot contain %s",
									(int) p->len, p->s, ch_type_kind_name(ck));
		}
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "Tuple") || name_is(nm, nl, "Nested") ||
		name_is(nm, nl, "Variant"))
	{
		bool		nested = nm[0] == 'N';

		t = new_type(p, nested ? CH_T_NESTED : nm[0] == 'T' ? CH_T_TUPLE : CH_T_VARIANT, 0);
		if (!t)
			return nomem(p);
		if (!has_args)
		{
			if (t->kind != CH_T_TUPLE)
				return syntax_error(p, "expected '('");
			*out = t;			/* bare "Tuple" = Tuple() */
			return CH_OK;
		}
		st = parse_type_list(p, t, t->kind != CH_T_VARIANT, nested);
		if (st != CH_OK)
			return st;
		if (nested && t->nchildren == 0)
			return syntax_error(p, "Nested needs at least one field");
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "Map"))
	{
		if (!has_args)
			return syntax_error(p, "expected '('");
		t = new_type(p, CH_T_MAP, 0);
		if (!t)
			return nomem(p);
		if ((st = parse_type_list(p, t, false, false)) != CH_OK)
			return st;
		if (t->nchildren != 2)
			return syntax_error(p, "Map takes two types");
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "FixedString"))
	{
		int64_t		n;

		if (!has_args)
			return syntax_error(p, "expected '('");
		if ((st = read_int(p, 1, 0x40000000, &n)) != CH_OK)
			return st;
		if ((st = expect(p, ')')) != CH_OK)
			return st;
		t = new_type(p, CH_T_FIXEDSTRING, (uint32_t) n);
		if (!t)
			return nomem(p);
		t->fixed_len = (uint32_t) n;
		*out = t;
		return CH_OK;
	}

	if (nl >= 7 && memcmp(nm, "Decimal", 7) == 0)
	{
		int64_t		prec,
					scale;

		if (!has_args)
			return syntax_error(p, "expected '('");
		if (nl == 7)
		{
			if ((st = read_int(p, 1, 76, &prec)) != CH_OK)
				return st;
			if ((st = expect(p, ',')) != CH_OK)
				return st;
		}
		else if (name_is(nm, nl, "Decimal32"))
			prec = 9;
		else if (name_is(nm, nl, "Decimal64"))
			prec = 18;
		else if (name_is(nm, nl, "Decimal128"))
			prec = 38;
		else if (name_is(nm, nl, "Decimal256"))
			prec = 76;
		else
			goto unknown;
		if ((st = read_int(p, 0, prec, &scale)) != CH_OK)
			return st;
		if ((st = expect(p, ')')) != CH_OK)
			return st;
		t = new_type(p, CH_T_DECIMAL, decimal_width(prec));
		if (!t)
			return nomem(p);
		t->precision = (int32_t) prec;
		t->scale = (int32_t) scale;
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "DateTime") || name_is(nm, nl, "DateTime64") ||
		name_is(nm, nl, "Time64"))
	{
		bool		is64 = nl > 8 || nm[0] == 'T';
		int64_t		prec = 0;

		t = new_type(p, nm[0] == 'T' ? CH_T_TIME64 : is64 ? CH_T_DATETIME64 : CH_T_DATETIME,
					 is64 ? 8 : 4);
		if (!t)
			return nomem(p);
		if (!has_args)
		{
			if (is64)
				return syntax_error(p, "expected '('");
			*out = t;
			return CH_OK;
		}
		if (is64)
		{
			if ((st = read_int(p, 0, 9, &prec)) != CH_OK)
				return st;
			t->scale = (int32_t) prec;
			if (peek_is(p, ','))
				p->pos++;
		}
		if (!peek_is(p, ')'))
		{
			char	   *tz;
			size_t		tzn;

			if (t->kind == CH_T_TIME64)
				return syntax_error(p, "expected ')'");
			if ((st = read_quoted(p, '\'', &tz, &tzn)) != CH_OK)
				return st;
			t->tz = tz;
		}
		if ((st = expect(p, ')')) != CH_OK)
			return st;
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "Enum8") || name_is(nm, nl, "Enum16"))
	{
		bool		e8 = nl == 5;

		if (!has_args)
			return syntax_error(p, "expected '('");
		t = new_type(p, e8 ? CH_T_ENUM8 : CH_T_ENUM16, e8 ? 1 : 2);
		if (!t)
			return nomem(p);
		if ((st = parse_enum(p, t, e8 ? -128 : -32768, e8 ? 127 : 32767)) != CH_OK)
			return st;
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "SimpleAggregateFunction"))
	{
		const char *fn;
		size_t		fnl;

		if (!has_args)
			return syntax_error(p, "expected '('");
		/* function name, possibly with its own parameters */
		if (!read_ident(p, &fn, &fnl))
			return syntax_error(p, "expected a function name");
		if (peek_is(p, '('))
		{
			const char *a;
			size_t		an;

			p->pos++;
			if ((st = skip_balanced(p, &a, &an)) != CH_OK)
				return st;
		}
		if ((st = expect(p, ',')) != CH_OK)
			return st;
		if ((st = parse_type(p, &t)) != CH_OK)
			return st;
		if ((st = expect(p, ')')) != CH_OK)
			return st;
		t->simple_aggregate = true;
		*out = t;
		return CH_OK;
	}

	if (name_is(nm, nl, "AggregateFunction"))
	{
		const char *a;
		size_t		an;

		if (!has_args)
			return syntax_error(p, "expected '('");
		if ((st = skip_balanced(p, &a, &an)) != CH_OK)
			return st;
		t = new_type(p, CH_T_AGGREGATE_FUNCTION, 0);
		if (!t)
			return nomem(p);
		t->arg_text = ch_arena_strndup(p->ar, a, an);
		*out = t;
		return CH_OK;
	}

unknown:
	return ch_error_set(p->err, CH_ERR_UNKNOWN_TYPE,
						"unknown ClickHouse type \"%.*s\"", (int) (nl > 200 ? 200 : nl), nm);
}

static ch_status
parse_type(parser *p, ch_type **out)
{
	const char *nm;
	size_t		nl;
	size_t		start;
	ch_status	st;

	if (++p->depth > CH_TYPE_MAX_DEPTH)
		return ch_error_set(p->err, CH_ERR_LIMIT,
							"ClickHouse type nests deeper than %d levels", CH_TYPE_MAX_DEPTH);
	skip_ws(p);
	start = p->pos;
	if (!read_ident(p, &nm, &nl))
		return syntax_error(p, "expected a type name");
	st = parse_args_for(p, nm, nl, out);
	if (st != CH_OK)
		return st;
	if (!(*out)->name)
	{
		(*out)->name = ch_arena_strndup(p->ar, p->s + start, p->pos - start);
		if (!(*out)->name)
			return nomem(p);
	}
	p->depth--;
	return CH_OK;
}

ch_status
ch_type_parse(const char *text, size_t len, ch_arena *ar, ch_type **out,
			  ch_error *err)
{
	parser		p;
	ch_status	st;

	p.s = text;
	p.len = len;
	p.pos = 0;
	p.ar = ar;
	p.err = err;
	p.depth = 0;
	st = parse_type(&p, out);
	if (st != CH_OK)
		return st;
	skip_ws(&p);
	if (p.pos != p.len)
		return syntax_error(&p, "unexpected text after the type");
	return CH_OK;
}
