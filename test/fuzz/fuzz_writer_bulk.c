/*-------------------------------------------------------------------------
 * fuzz_writer_bulk.c
 *	  libFuzzer target for the writer's bulk appends (ch_writer.h:
 *	  ch_col_append_ints / _floats / _strings / _array_sizes and
 *	  ch_writer_end_rows, Native only), checked against the single appends.
 *
 * The contract under test (ch_writer.h): filling a Native writer column at
 * a time with the bulk calls gives byte for byte the block that the single
 * appends give row by row; a bad value fails the bulk call with the single
 * append's status and message, and *at is the index of that value.
 *
 * Input layout (short inputs are fine: the value bytes are read cyclically,
 * scrambled, then continued by a generator seeded from them):
 *	byte 0		   ncols = 1 + b % MAX_COLS
 *	byte 1		   nrows = b % (MAX_ROWS + 1)
 *	byte 2		   flags: bit 0 portable string copies in the bulk writer
 *				   (no AVX-512), bit 1 mix single appends into the column at
 *				   a time fill, bit 2 sometimes pass at = NULL, bit 3 decode
 *				   neither block (faster), bits 4-5 batch size bias
 *	bytes 3..10	   seed of the batch plan (batch sizes, runs, empty calls)
 *	4 bytes/column
 *		d0		   leaf type (bits 0-4, see leaf_text) and wrapper (bits
 *				   5-7: T, Nullable(T), Array(T), Array(Nullable(T)),
 *				   Map(String, T), Map(String, Nullable(T)), Array(Array(T)),
 *				   Map(LowCardinality(String), T)); Nullable of a
 *				   LowCardinality leaf becomes LowCardinality(Nullable(X))
 *		d1		   type parameter (FixedString length, scale, precision,
 *				   which Enum)
 *		d2		   value shapes: bits 0-1 NULL rate in Nullable leaves (none,
 *				   1/16, 1/2, all), bits 2-3 bad value rate (none, 1/64,
 *				   1/8, any value; a bad value in a non-Nullable leaf may be
 *				   a NULL), bits 4-5 array lengths, bits 6-7 string reuse
 *		d3		   which bulk call: the leaf's own (ints, floats or
 *				   strings), or, for d3 >= 0xe0, ints / floats / strings by
 *				   d3 % 3 whatever the type (Map keys always get strings)
 *	the rest	   the values
 *
 * One run: the values of nrows rows go into writer S row by row with the
 * single appends (ch_col_append_int/_float/_bytes/_null,
 * ch_col_array_begin/_end, ch_writer_end_row), and into writer B column at
 * a time in batches of random sizes (0 included), each column's rows of a
 * batch in runs of bulk calls (empty calls between some, some runs through
 * the single appends when bit 1 is set), each batch closed by
 * ch_writer_end_rows. Checks on top of the sanitizers:
 *	- S and B both succeed or both fail;
 *	- success: the flushed blocks are byte for byte equal, and B's decodes
 *	  with ch_native_reader into ncols x nrows (walked with fuzz_walk.h);
 *	- failure: each column's first bad row comes from a fresh one-column
 *	  writer filled row by row (the "oracle"); S fails at the first row any
 *	  column fails in, at the first such column, with that oracle's value,
 *	  status and message; B fails in the batch holding that row, at the
 *	  first column whose oracle fails in that batch, with its status and
 *	  message, and *at names the same value (same leaf, same index);
 *	- then both writers (discarded after a failure, flushed after a
 *	  success) take the rows before the failure (all rows after a success)
 *	  again, in a new batch plan: equal blocks again, and after a success
 *	  the same block as the first (flush and discard reset everything);
 *	- every ch_error agrees with its status, no memory is left allocated.
 *
 * Sizes: at most MAX_COLS columns, MAX_ROWS rows, MAX_ELEMS array
 * elements per column. Built with -DLC_DEFER_SLOTS=256 (see common.sh): a
 * LowCardinality(String) dictionary takes the direct lookups up to 32
 * entries and the deferred ones (which production blocks take beyond
 * 1,024 entries) after that, both within the target's small blocks.
 *
 * test/fuzz/fuzz_writer_bulk.c
 *-------------------------------------------------------------------------
 */
#include <float.h>
#include <math.h>

#include "ch_native.h"
#include "ch_type.h"
#include "ch_writer.h"
#include "../include/ch_test_int_bounds.h"
#include "fuzz_common.h"
#include "fuzz_walk.h"
#include "../../src/codec/ch_writer_int.h"	/* ch_w_force_portable */

#define MAX_COLS 6
#define MAX_ROWS 200
/* elements of all arrays of one column together */
#define MAX_ELEMS 1024
/* the value bytes are read this many times over before the generator */
#define VSRC_PASSES 4
#define HEADER_LEN 11
#define COL_DESC_LEN 4

#define F_PORTABLE 0x01
#define F_MIX 0x02
#define F_AT_NULL 0x04
#define F_NO_DECODE 0x08

/* ---- input bytes ---- */

/*
 * The value bytes, read cyclically: pass k XORs every byte with a
 * k-derived constant; after VSRC_PASSES passes (or for no bytes at all)
 * an xorshift generator seeded from the input takes over, so that every
 * input yields nrows rows of varied values.
 */
typedef struct vsrc
{
	const uint8_t *base;
	size_t		len;
	size_t		pos;
	unsigned	pass;
	uint64_t	x;
} vsrc;

/*
 * The byte source's helpers run for every value byte: no coverage
 * feedback from them (their comparisons say nothing about the code under
 * test and took a fifth of the run time).
 */
#ifdef __clang__
#define HARNESS_PLUMBING __attribute__((noinline, no_sanitize("coverage")))
#else
#define HARNESS_PLUMBING
#endif

/*
 * xorshift64
 *		Advance a generator state (never 0) and return it.
 */
HARNESS_PLUMBING static uint64_t
xorshift(uint64_t *s)
{
	uint64_t	x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/*
 * vsrc_init
 *		Start reading the value bytes p[0..n), the generator seeded with
 *		their digest.
 */
static void
vsrc_init(vsrc *s, const uint8_t *p, size_t n)
{
	uint64_t	h = FUZZ_DIGEST_INIT;

	fuzz_digest(&h, p, n);
	s->base = p;
	s->len = n;
	s->pos = 0;
	s->pass = 0;
	s->x = h ? h : 1;
}

/*
 * take8
 *		The next value byte.
 */
HARNESS_PLUMBING static uint8_t
take8(vsrc *s)
{
	uint8_t		v;

	if (s->len == 0 || s->pass >= VSRC_PASSES)
		return (uint8_t) (xorshift(&s->x) >> 24);
	v = s->base[s->pos] ^ (uint8_t) (s->pass * 0x9d);
	if (++s->pos == s->len)
	{
		s->pos = 0;
		s->pass++;
	}
	return v;
}

/*
 * take64
 *		Eight value bytes as a little-endian word.
 */
HARNESS_PLUMBING static uint64_t
take64(vsrc *s)
{
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t) take8(s) << (8 * i);
	return v;
}

/* ---- the schema ---- */

/* Enum types a column may get (d1 picks one). */
static const char *const enum_types[] = {
	"Enum8('a' = 1, 'b' = 2)",
	"Enum8('lo' = -128, 'zero' = 0, 'hi' = 127)",
	"Enum8('x' = 5)",
	"Enum16('a' = -32768, 'b' = 1000, 'c' = 32767)",
	"Enum16('big' = 300, 'neg' = -2, 'z' = 0)",
};

#define NENUM_TYPES (sizeof(enum_types) / sizeof(enum_types[0]))

/*
 * leaf_text
 *		The type text of leaf kind k (0..31) with parameter p into buf;
 *		*lc is set when the leaf is LowCardinality(X) (buf then holds X,
 *		the caller wraps it, so that Nullable goes inside).
 */
static void
leaf_text(unsigned k, uint8_t p, char *buf, size_t size, bool *lc)
{
	static const char *const plain[] = {
		"UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64",
		"Bool", "Date", "Date32", "DateTime",
	};
	unsigned	fixed_len = (p & 0x80) ? 1 + p % 64 : 1 + p % 16;

	*lc = false;
	if (k < sizeof(plain) / sizeof(plain[0]))
	{
		snprintf(buf, size, "%s", plain[k]);
		return;
	}
	switch (k)
	{
		case 12:
			snprintf(buf, size, "DateTime64(%u)", p % 10);
			break;
		case 13:
			snprintf(buf, size, "DateTime64(%u, 'UTC')", p % 10);
			break;
		case 14:
			snprintf(buf, size, "Decimal32(%u)", p % 10);
			break;
		case 15:
			snprintf(buf, size, "Decimal64(%u)", p % 19);
			break;
		case 16:
			{
				unsigned	prec = 1 + p % 18;

				snprintf(buf, size, "Decimal(%u, %u)", prec, (p >> 5) % (prec + 1));
				break;
			}
		case 17:
			snprintf(buf, size, "Float32");
			break;
		case 18:
			snprintf(buf, size, "Float64");
			break;
		case 19:
			snprintf(buf, size, "BFloat16");
			break;
		case 20:
		case 31:
			snprintf(buf, size, "String");
			break;
		case 21:
			snprintf(buf, size, "FixedString(%u)", fixed_len);
			break;
		case 22:
		case 23:
			snprintf(buf, size, "%s", enum_types[(p + (k - 22) * 3) % NENUM_TYPES]);
			break;
		case 24:
		case 25:
			/* 25: LowCardinality(Nullable(String)) whatever the wrapper */
			snprintf(buf, size, "%s", k == 25 ? "Nullable(String)" : "String");
			*lc = true;
			break;
		case 26:
			snprintf(buf, size, "Int128");
			break;
		case 27:
			snprintf(buf, size, "UInt128");
			break;
		case 28:
			snprintf(buf, size, "Decimal128(%u)", p % 39);
			break;
		case 29:
			snprintf(buf, size, "UInt32");
			*lc = true;
			break;
		default:
			snprintf(buf, size, "FixedString(%u)", fixed_len);
			*lc = true;
			break;
	}
}

/*
 * column_text
 *		The type text of a column from its descriptor bytes d0 and d1.
 */
static void
column_text(uint8_t d0, uint8_t d1, char *buf, size_t size)
{
	char		base[64],
				t[80],
				leaf[100];
	bool		lc;
	unsigned	wrap = d0 >> 5;
	bool		nullable = wrap == 1 || wrap == 3 || wrap == 5;

	leaf_text(d0 & 31, d1, base, sizeof(base), &lc);
	if (nullable && strncmp(base, "Nullable(", 9) != 0)
		snprintf(t, sizeof(t), "Nullable(%s)", base);
	else
		snprintf(t, sizeof(t), "%s", base);
	if (lc)
		snprintf(leaf, sizeof(leaf), "LowCardinality(%s)", t);
	else
		snprintf(leaf, sizeof(leaf), "%s", t);
	switch (wrap)
	{
		case 2:
		case 3:
			snprintf(buf, size, "Array(%s)", leaf);
			break;
		case 4:
		case 5:
			snprintf(buf, size, "Map(String, %s)", leaf);
			break;
		case 6:
			snprintf(buf, size, "Array(Array(%s))", leaf);
			break;
		case 7:
			snprintf(buf, size, "Map(LowCardinality(String), %s)", leaf);
			break;
		default:
			snprintf(buf, size, "%s", leaf);
			break;
	}
}

/* ---- the values ---- */

/* What a vals node holds: leaf values of one kind, or array rows. */
typedef enum vkind
{
	VK_INT,
	VK_FLOAT,
	VK_STR,
	VK_ARRAY					/* Array / Map: counts, then the children */
} vkind;

/*
 * n values for one column or sub-column, in the arrays the bulk calls take.
 * A leaf's isnull is always there (nnull counts the NULLs); a NULL row's
 * value is poisoned (the writer must not use it). VK_ARRAY: row i has
 * counts[i] elements, [start[i], start[i + 1]) of each child.
 */
typedef struct vals
{
	vkind		kind;
	size_t		n;
	int64_t    *iv;
	double	   *fv;
	const char **sv;
	uint32_t   *sl;
	bool	   *isnull;
	size_t		nnull;
	uint32_t   *counts;
	uint64_t   *start;
	int			nchild;
	struct vals *child[2];
	struct vals *parent;		/* the array node this is an element of */
} vals;

/* How a column's values are drawn (its descriptor bytes d2 and d3). */
typedef struct colmode
{
	unsigned	null_rate;		/* 0 none, 1 1/16, 2 1/2, 3 all */
	unsigned	bad_rate;		/* 0 none, 1 1/64, 2 1/8, 3 any value */
	unsigned	arr_shape;		/* array lengths 0..3, 0..1, 0..8, 0..32 */
	unsigned	str_reuse;		/* reuse an earlier string 0, 1/4, 1/2, 7/8 */
	int			call;			/* -1 the leaf's own bulk call, else a vkind */
} colmode;

/* Generation state: the value bytes, the harness's memory, recent strings. */
typedef struct gen
{
	vsrc		s;
	ch_arena   *ar;
	char	  **strs;			/* every string allocated, to free */
	size_t		nstrs;
	size_t		capstrs;
	const char *recent[8];		/* for repeats (LowCardinality) */
	uint32_t	recent_len[8];
	unsigned	nrecent;
	size_t		elems;			/* elements drawn for the current column */
} gen;

/*
 * zalloc_n
 *		Zeroed room for n (at least one) items of size bytes.
 */
static void *
zalloc_n(gen *g, size_t n, size_t size)
{
	void	   *p = ch_arena_zalloc(g->ar, (n ? n : 1) * size);

	FUZZ_CHECK(p != NULL, "out of memory in the harness");
	return p;
}

/*
 * new_vals
 *		An empty node of kind for n values.
 */
static vals *
new_vals(gen *g, vkind kind, size_t n, vals *parent)
{
	vals	   *v = zalloc_n(g, 1, sizeof(vals));

	v->kind = kind;
	v->n = n;
	v->parent = parent;
	switch (kind)
	{
		case VK_INT:
			v->iv = zalloc_n(g, n, sizeof(int64_t));
			break;
		case VK_FLOAT:
			v->fv = zalloc_n(g, n, sizeof(double));
			break;
		case VK_STR:
			v->sv = zalloc_n(g, n, sizeof(char *));
			v->sl = zalloc_n(g, n, sizeof(uint32_t));
			break;
		case VK_ARRAY:
			v->counts = zalloc_n(g, n, sizeof(uint32_t));
			v->start = zalloc_n(g, n + 1, sizeof(uint64_t));
			break;
	}
	if (kind != VK_ARRAY)
		v->isnull = zalloc_n(g, n, sizeof(bool));
	return v;
}


/*
 * draw_int
 *		An integer for leaf type t: in range unless bad (then just outside
 *		a bound, an extreme or anything).
 */
static int64_t
draw_int(gen *g, const ch_type *t, bool bad)
{
	int64_t		lo,
				hi;
	uint8_t		r = take8(&g->s);

	if (t->kind == CH_T_ENUM8 || t->kind == CH_T_ENUM16)
	{
		if (!bad && t->nenum > 0)
			return t->enum_values[r % t->nenum];
		return r & 1 ? (int64_t) (int8_t) take8(&g->s) : (int64_t) take64(&g->s);
	}
	if (!int_bounds(t, &lo, &hi))
	{
		/* a float or string column fed integers: small ones are exact */
		if (!bad)
			return (int64_t) (int8_t) take8(&g->s);
		lo = INT64_MIN, hi = INT64_MAX;
	}
	if (bad)
	{
		switch (r % 6)
		{
			case 0:
				return lo > INT64_MIN ? lo - 1 : INT64_MIN;
			case 1:
				return hi < INT64_MAX ? hi + 1 : INT64_MAX;
			case 2:
				return INT64_MIN;
			case 3:
				return INT64_MAX;
			case 4:
				return ((int64_t) 1 << 53) + 1;
			default:
				return (int64_t) take64(&g->s);
		}
	}
	switch (r % 8)
	{
		case 0:
			return lo;
		case 1:
			return hi;
		case 2:
			return lo <= 0 && hi >= 0 ? 0 : lo;
		case 3:
			{
				int64_t		x = (int64_t) (r >> 3) - 16;

				return x >= lo && x <= hi ? x : lo;
			}
		default:
			{
				uint64_t	span = (uint64_t) hi - (uint64_t) lo;
				uint64_t	x = take64(&g->s);

				if (span != UINT64_MAX)
					x %= span + 1;
				return (int64_t) ((uint64_t) lo + x);
			}
	}
}

/*
 * draw_float
 *		A double for leaf type t: special values, Float32-exact values, any
 *		bit pattern (NaN payloads, denormals); bad: finite values beyond
 *		Float32's range.
 */
static double
draw_float(gen *g, const ch_type *t, bool bad)
{
	static const double special[] = {0.0, -0.0, 1.5, -2.25, 0.1, FLT_MAX, -FLT_MAX, FLT_MIN,
		1e-45, 1e-50, 16777217.0, 65504.0, 3.3895313892515355e38, INFINITY, -INFINITY, NAN,
	-NAN, 1.0 / 3, 9007199254740993.0, -128.0, 255.0};
	static const double beyond[] = {3.5e38, -3.5e38, 1e39, DBL_MAX, -DBL_MAX, 1e300,
	3.4028235677973366e38};
	uint8_t		r = take8(&g->s);
	bool		f32 = t->kind == CH_T_FLOAT32;

	if (bad)
	{
		if (r & 1)
			return beyond[(r >> 1) % (sizeof(beyond) / sizeof(beyond[0]))];
		else
		{
			uint64_t	bits = take64(&g->s);
			double		d;

			memcpy(&d, &bits, 8);
			return d;
		}
	}
	switch (r % 4)
	{
		case 0:
		case 1:
			return special[(r >> 2) % (sizeof(special) / sizeof(special[0]))];
		case 2:
			if (f32)
			{
				uint32_t	bits = (uint32_t) take64(&g->s);
				float		f;

				memcpy(&f, &bits, 4);
				return (double) f;
			}
			else
			{
				uint64_t	bits = take64(&g->s);
				double		d;

				memcpy(&d, &bits, 8);
				return d;
			}
		default:
			return ldexp((double) ((int) take8(&g->s) - 128) / 7, (int) (r >> 2) % 40 - 20);
	}
}

/*
 * keep_string
 *		Remember an allocated string (to free) and as a recent one.
 */
static void
keep_string(gen *g, char *p, uint32_t len)
{
	if (p)
	{
		if (g->nstrs == g->capstrs)
		{
			g->capstrs = g->capstrs ? g->capstrs * 2 : 256;
			g->strs = realloc(g->strs, g->capstrs * sizeof(char *));
			FUZZ_CHECK(g->strs != NULL, "out of memory in the harness");
		}
		g->strs[g->nstrs++] = p;
	}
	g->recent[g->nrecent % 8] = p ? p : "";
	g->recent_len[g->nrecent % 8] = len;
	g->nrecent++;
}

/*
 * draw_string
 *		A string for leaf type t into *data / *len: each in its own heap
 *		block of exactly len bytes (ASan sees a read past it), or an
 *		earlier one again. FixedString(N): at most N bytes unless bad.
 */
static void
draw_string(gen *g, const ch_type *t, const colmode *m, bool bad, const char **data,
			uint32_t *len)
{
	static const uint8_t reuse_mask[] = {0, 3, 1, 7};
	uint32_t	maxlen = t->kind == CH_T_FIXEDSTRING ? t->fixed_len : UINT32_MAX;
	uint8_t		r = take8(&g->s);
	uint32_t	l;
	char	   *p = NULL;
	uint32_t	i;

	if (g->nrecent > 0 && m->str_reuse > 0 && (r & reuse_mask[m->str_reuse]) != 0 && !bad)
	{
		unsigned	k = take8(&g->s) % (g->nrecent < 8 ? g->nrecent : 8);

		*data = g->recent[k];
		*len = g->recent_len[k] <= maxlen ? g->recent_len[k] : maxlen;
		return;
	}
	r = take8(&g->s);
	if (bad && maxlen != UINT32_MAX)
		l = maxlen + 1 + r % 8;
	else
	{
		switch (r % 16)
		{
			case 0:
			case 1:
				l = 0;
				break;
			case 2:
			case 3:
			case 4:
			case 5:
			case 6:
			case 7:
				l = 1 + (r >> 4) % 16;
				break;
			case 8:
			case 9:
			case 10:
			case 11:
				l = 17 + take8(&g->s) % 24;
				break;
			case 12:
			case 13:
				l = 41 + take8(&g->s) % 100;
				break;
			default:
				l = 120 + take8(&g->s) % 200;
				break;
		}
		if (l > maxlen)
			l %= maxlen + 1;
	}
	if (l > 0)
	{
		p = malloc(l);
		FUZZ_CHECK(p != NULL, "out of memory in the harness");
		for (i = 0; i < l; i++)
			p[i] = (char) take8(&g->s);
	}
	keep_string(g, p, l);
	*data = p ? p : "";
	*len = l;
}

/*
 * draw_leaf
 *		Value i of leaf node v (type t, under a Nullable when nullable); a
 *		Map key (key) is never NULL nor bad.
 */
static void
draw_leaf(gen *g, vals *v, size_t i, const ch_type *t, bool nullable, const colmode *m, bool key)
{
	uint8_t		r = take8(&g->s);
	bool		bad = false,
				null = false;

	if (!key)
	{
		switch (m->bad_rate)
		{
			case 1:
				bad = (r & 63) == 0;
				break;
			case 2:
				bad = (r & 7) == 0;
				break;
			case 3:
				bad = (r & 1) == 0;
				break;
			default:
				break;
		}
		if (nullable)
			null = m->null_rate == 3 || (m->null_rate == 2 && (r & 2)) ||
				(m->null_rate == 1 && (r & 0xf0) == 0x40);
		else if (bad && (r & 0x30) == 0)
			null = true;		/* NULL into a non-Nullable column */
	}
	if (null)
	{
		v->isnull[i] = true;
		v->nnull++;
		/* the writer must not use these */
		if (v->iv)
			v->iv[i] = INT64_MIN;
		if (v->fv)
			v->fv[i] = 1e300;
		if (v->sv)
		{
			v->sv[i] = NULL;
			v->sl[i] = 0xffffffffu;
		}
		return;
	}
	switch (v->kind)
	{
		case VK_INT:
			v->iv[i] = m->bad_rate == 3 && bad ? (int64_t) take64(&g->s) : draw_int(g, t, bad);
			break;
		case VK_FLOAT:
			v->fv[i] = draw_float(g, t, bad);
			break;
		case VK_STR:
			draw_string(g, t, m, bad, &v->sv[i], &v->sl[i]);
			break;
		default:
			fuzz_bug("draw_leaf on an array node");
	}
}

/* The bulk call (value kind) a leaf of type t takes naturally. */
static vkind
natural_kind(const ch_type *t)
{
	switch (t->kind)
	{
		case CH_T_FLOAT32:
		case CH_T_FLOAT64:
		case CH_T_BFLOAT16:
			return VK_FLOAT;
		case CH_T_STRING:
		case CH_T_FIXEDSTRING:
			return VK_STR;
		default:
			return VK_INT;
	}
}

/*
 * gen_vals
 *		n values of type t (nullable: under a Nullable; key: a Map key).
 */
static vals *
gen_vals(gen *g, const ch_type *t, size_t n, bool nullable, bool key, const colmode *m,
		 vals *parent)
{
	vals	   *v;
	size_t		i;
	int			k;

	switch (t->kind)
	{
		case CH_T_NULLABLE:
			return gen_vals(g, t->children[0], n, true, key, m, parent);
		case CH_T_LOWCARDINALITY:
			return gen_vals(g, t->children[0], n, nullable, key, m, parent);
		case CH_T_ARRAY:
		case CH_T_MAP:
			{
				static const unsigned maxlen[] = {3, 1, 8, 32};

				v = new_vals(g, VK_ARRAY, n, parent);
				for (i = 0; i < n; i++)
				{
					uint32_t	c = take8(&g->s) % (maxlen[m->arr_shape] + 1);

					if (g->elems + c > MAX_ELEMS)
						c = 0;
					g->elems += c;
					v->counts[i] = c;
					v->start[i + 1] = v->start[i] + c;
				}
				v->nchild = t->nchildren;
				for (k = 0; k < t->nchildren && k < 2; k++)
					v->child[k] = gen_vals(g, t->children[k], v->start[n], false,
										   t->kind == CH_T_MAP && k == 0, m, v);
				return v;
			}
		default:
			break;
	}
	v = new_vals(g, key || m->call < 0 ? natural_kind(t) : (vkind) m->call, n, parent);
	for (i = 0; i < n; i++)
		draw_leaf(g, v, i, t, nullable, m, key);
	return v;
}

/* ---- failures ---- */

/* The first failing append of a fill, and where its value is. */
typedef struct failure
{
	bool		failed;
	ch_status	st;
	int			col;
	size_t		row;			/* top-level row of the value */
	const vals *node;			/* the node holding the value, NULL if unknown */
	size_t		index;			/* its index there */
	size_t		batch_from;		/* bulk: the batch being filled */
	size_t		batch_cnt;
	char		msg[CH_ERROR_MESSAGE_MAX];
} failure;

/*
 * row_of
 *		The top-level row that value index of node v belongs to.
 */
static size_t
row_of(const vals *v, size_t index)
{
	while (v->parent)
	{
		const vals *p = v->parent;
		size_t		lo = 0,
					hi = p->n;

		/* the row j with start[j] <= index < start[j + 1] */
		while (hi - lo > 1)
		{
			size_t		mid = (lo + hi) / 2;

			if (p->start[mid] <= index)
				lo = mid;
			else
				hi = mid;
		}
		index = lo;
		v = p;
	}
	return index;
}

/*
 * set_failure
 *		Record a failing append (the first one: later calls keep it).
 */
static ch_status
set_failure(failure *f, ch_status st, const ch_error *err, const vals *node, size_t index)
{
	if (!f->failed)
	{
		fuzz_check_error(err, st, "append");
		f->failed = true;
		f->st = st;
		f->node = node;
		f->index = index;
		snprintf(f->msg, sizeof(f->msg), "%s", err->message);
	}
	return st;
}

/* ---- filling the writers ---- */

/* The batch plan: a generator, and the flags that shape the calls. */
typedef struct plan
{
	uint64_t	x;
	unsigned	flags;
	unsigned	bias;			/* flags bits 4-5: larger batches */
} plan;

/*
 * put_one
 *		Value i of v into c with the single appends.
 */
static ch_status
put_one(ch_colbuf *c, const vals *v, size_t i, ch_error *err, failure *f)
{
	ch_status	st;
	uint64_t	e;
	int			k;

	switch (v->kind)
	{
		case VK_ARRAY:
			if ((st = ch_col_array_begin(c, v->counts[i], err)) != CH_OK)
				return set_failure(f, st, err, v, i);
			for (e = v->start[i]; e < v->start[i + 1]; e++)
				for (k = 0; k < v->nchild; k++)
					if ((st = put_one(ch_col_child(c, k), v->child[k], e, err, f)) != CH_OK)
						return st;
			if ((st = ch_col_array_end(c, err)) != CH_OK)
				return set_failure(f, st, err, v, i);
			return CH_OK;
		case VK_INT:
			st = v->isnull[i] ? ch_col_append_null(c, err) : ch_col_append_int(c, v->iv[i], err);
			break;
		case VK_FLOAT:
			st = v->isnull[i] ? ch_col_append_null(c, err) :
				ch_col_append_float(c, v->fv[i], err);
			break;
		default:
			st = v->isnull[i] ? ch_col_append_null(c, err) :
				ch_col_append_bytes(c, v->sv[i], v->sl[i], err);
			break;
	}
	if (st != CH_OK)
		return set_failure(f, st, err, v, i);
	return CH_OK;
}

static ch_status put_cols(ch_colbuf *c, const vals *v, size_t from, size_t cnt, plan *pl,
						  ch_error *err, failure *f);

/*
 * put_level
 *		Rows [from, from + cnt) of v into c with one bulk call at this level
 *		(array sizes, or the leaf values), then each child's elements.
 */
static ch_status
put_level(ch_colbuf *c, const vals *v, size_t from, size_t cnt, plan *pl, ch_error *err,
		  failure *f)
{
	const size_t unset = (size_t) -1;
	size_t		at = unset;
	size_t	   *atp = &at;
	const bool *isnull = NULL;
	uint64_t	r = xorshift(&pl->x);
	ch_status	st;
	int			k;

	if ((pl->flags & F_AT_NULL) && r % 8 == 0)
		atp = NULL;
	if (v->kind != VK_ARRAY)
	{
		/* no NULLs in the slice: pass isnull or not, the same either way */
		if (v->nnull > 0 || (r >> 3) % 2 == 0)
			isnull = v->isnull + from;
		if (v->nnull == 0 && (r >> 4) % 4 == 0)
			isnull = NULL;
	}
	switch (v->kind)
	{
		case VK_ARRAY:
			st = ch_col_append_array_sizes(c, v->counts + from, cnt, atp, err);
			break;
		case VK_INT:
			st = ch_col_append_ints(c, v->iv + from, isnull, cnt, atp, err);
			break;
		case VK_FLOAT:
			st = ch_col_append_floats(c, v->fv + from, isnull, cnt, atp, err);
			break;
		default:
			st = ch_col_append_strings(c, v->sv + from, v->sl + from, isnull, cnt, atp, err);
			break;
	}
	if (st != CH_OK)
	{
		if (!atp)
			return set_failure(f, st, err, NULL, 0);
		FUZZ_CHECK(at != unset, "a bulk call on %s failed (%s) without setting *at",
				   ch_col_type(c)->name, ch_status_name(st));
		FUZZ_CHECK(at < cnt, "a bulk call of %zu values on %s failed with *at = %zu: %s",
				   cnt, ch_col_type(c)->name, at, err->message);
		return set_failure(f, st, err, v, from + at);
	}
	if (v->kind == VK_ARRAY)
		for (k = 0; k < v->nchild; k++)
			if ((st = put_cols(ch_col_child(c, k), v->child[k], v->start[from],
							   v->start[from + cnt] - v->start[from], pl, err, f)) != CH_OK)
				return st;
	return CH_OK;
}

/*
 * put_cols
 *		Rows [from, from + cnt) of v into c column at a time: in runs of
 *		random length, each one bulk call at this level (the children's
 *		elements likewise), with empty bulk calls between some; with F_MIX,
 *		some runs through the single appends.
 */
static ch_status
put_cols(ch_colbuf *c, const vals *v, size_t from, size_t cnt, plan *pl, ch_error *err,
		 failure *f)
{
	size_t		done = 0,
				i;
	ch_status	st;

	if (cnt == 0 && xorshift(&pl->x) % 4 == 0)
		return put_level(c, v, from, 0, pl, err, f);
	while (done < cnt)
	{
		uint64_t	r = xorshift(&pl->x);
		size_t		left = cnt - done,
					run;

		switch (r % 4)
		{
			case 0:
				run = 1 + (r >> 8) % 4;
				break;
			case 1:
				run = 1 + (r >> 8) % 32;
				break;
			default:
				run = left;
				break;
		}
		if (run > left)
			run = left;
		if ((r >> 16) % 8 == 0 && (st = put_level(c, v, from + done, 0, pl, err, f)) != CH_OK)
			return st;
		if ((pl->flags & F_MIX) && (r >> 20) % 4 == 0)
		{
			for (i = 0; i < run; i++)
				if ((st = put_one(c, v, from + done + i, err, f)) != CH_OK)
					return st;
		}
		else if ((st = put_level(c, v, from + done, run, pl, err, f)) != CH_OK)
			return st;
		done += run;
	}
	return CH_OK;
}

/*
 * fill_rows
 *		Rows [0, nrows) into w row by row with the single appends. The first
 *		failure goes to f (its column and row too).
 */
static void
fill_rows(ch_writer *w, int ncols, vals *const *cv, size_t nrows, failure *f)
{
	ch_error	err;
	size_t		r;
	int			i;

	memset(f, 0, sizeof(*f));
	ch_error_clear(&err);
	for (r = 0; r < nrows; r++)
	{
		ch_status	st;

		for (i = 0; i < ncols; i++)
			if (put_one(ch_writer_column(w, i), cv[i], r, &err, f) != CH_OK)
			{
				f->col = i;
				f->row = f->node ? row_of(f->node, f->index) : r;
				FUZZ_CHECK(f->row == r, "row %zu: the failing value is in row %zu", r, f->row);
				return;
			}
		st = ch_writer_end_row(w, &err);
		FUZZ_CHECK(st == CH_OK, "end_row after one value per column: %s", err.message);
	}
	FUZZ_CHECK(ch_writer_rows(w) == nrows, "ch_writer_rows %llu after %zu rows",
			   (unsigned long long) ch_writer_rows(w), nrows);
}

/*
 * next_batch
 *		The size of the next batch when left rows remain (0 sometimes).
 */
static size_t
next_batch(plan *pl, size_t left)
{
	uint64_t	r = xorshift(&pl->x);
	size_t		n;

	if (r % 8 == 0)
		return 0;
	switch ((r >> 3) % 4 + pl->bias)
	{
		case 0:
			n = 1;
			break;
		case 1:
			n = 1 + (r >> 8) % 8;
			break;
		case 2:
			n = 1 + (r >> 8) % 64;
			break;
		default:
			n = left;
			break;
	}
	return n < left ? n : left;
}

/*
 * fill_bulk
 *		Rows [0, nrows) into w column at a time, in batches of the plan's
 *		sizes each closed by ch_writer_end_rows. The first failure goes to
 *		f, with its column and batch.
 */
static void
fill_bulk(ch_writer *w, int ncols, vals *const *cv, size_t nrows, plan *pl, failure *f)
{
	ch_error	err;
	size_t		from = 0;
	int			i;

	memset(f, 0, sizeof(*f));
	ch_error_clear(&err);
	/* (no rows: one empty batch) */
	do
	{
		size_t		cnt = from < nrows ? next_batch(pl, nrows - from) : 0;
		ch_status	st;

		for (i = 0; i < ncols; i++)
			if (put_cols(ch_writer_column(w, i), cv[i], from, cnt, pl, &err, f) != CH_OK)
			{
				f->col = i;
				f->batch_from = from;
				f->batch_cnt = cnt;
				if (f->node)
				{
					f->row = row_of(f->node, f->index);
					FUZZ_CHECK(f->row >= from && f->row < from + cnt,
							   "column %d: a bulk call for rows %zu+%zu failed at a value of row %zu",
							   i, from, cnt, f->row);
				}
				return;
			}
		st = ch_writer_end_rows(w, cnt, &err);
		FUZZ_CHECK(st == CH_OK, "end_rows(%zu) after rows %zu+%zu in bulk: %s (%s)", cnt,
				   from, cnt, err.message, ch_status_name(st));
		from += cnt;
		FUZZ_CHECK(ch_writer_rows(w) == from, "ch_writer_rows %llu after %zu rows",
				   (unsigned long long) ch_writer_rows(w), from);
	} while (from < nrows);
}

/* ---- blocks ---- */

/*
 * decode_check
 *		The flushed block out (nrows rows, or nothing for none) must decode
 *		into one block of ncols x nrows, every value readable.
 */
static void
decode_check(const ch_buf *out, int ncols, size_t nrows, const char *const *tnames)
{
	ch_native_reader *r;
	ch_block   *b = NULL;
	ch_error	err;
	ch_status	st;
	uint64_t	h = FUZZ_DIGEST_INIT;
	int			i;

	if (nrows == 0)
	{
		FUZZ_CHECK(out->len == 0, "zero rows flushed into %zu bytes", out->len);
		return;
	}
	r = ch_native_reader_create(NULL, false, NULL);
	FUZZ_CHECK(r != NULL, "reader");
	ch_error_clear(&err);
	FUZZ_CHECK(ch_native_reader_feed(r, out->data, out->len, &err) == CH_OK, "feed");
	ch_native_reader_finish(r);
	st = ch_native_reader_next(r, &b, &err);
	FUZZ_CHECK(st == CH_OK, "the reader rejects the bulk writer's block of %zu rows (%s, ...): %s",
			   nrows, tnames[0], err.message);
	FUZZ_CHECK(b->ncols == (uint64_t) ncols && b->nrows == nrows, "block is %llux%llu, wrote %dx%zu",
			   (unsigned long long) b->ncols, (unsigned long long) b->nrows, ncols, nrows);
	for (i = 0; i < ncols; i++)
		FUZZ_CHECK(b->cols[i].type_name_len == strlen(tnames[i]) &&
				   memcmp(b->cols[i].type_name, tnames[i], b->cols[i].type_name_len) == 0,
				   "column %d decodes as %.*s, written as %s", i, (int) b->cols[i].type_name_len,
				   b->cols[i].type_name, tnames[i]);
	fuzz_walk_block(b, &h);
	st = ch_native_reader_next(r, &b, &err);
	FUZZ_CHECK(st == CH_END, "more after the block: %s", ch_status_name(st));
	ch_native_reader_free(r);
}

/*
 * flush_pair
 *		Flush both writers (nrows rows each) into os / ob and compare.
 */
static void
flush_pair(ch_writer *ws, ch_writer *wb, size_t nrows, ch_buf *os, ch_buf *ob, const char *what)
{
	ch_error	err;

	FUZZ_CHECK(ch_writer_rows(ws) == nrows && ch_writer_rows(wb) == nrows,
			   "%s: %llu rows by row, %llu in bulk, expected %zu", what,
			   (unsigned long long) ch_writer_rows(ws), (unsigned long long) ch_writer_rows(wb),
			   nrows);
	ch_error_clear(&err);
	FUZZ_CHECK(ch_writer_flush(ws, os, &err) == CH_OK, "flush: %s", err.message);
	FUZZ_CHECK(ch_writer_flush(wb, ob, &err) == CH_OK, "flush: %s", err.message);
	FUZZ_CHECK(ch_writer_rows(ws) == 0 && ch_writer_rows(wb) == 0, "flush did not reset");
	if (os->len != ob->len || (os->len > 0 && memcmp(os->data, ob->data, os->len) != 0))
	{
		size_t		off = 0;

		while (off < os->len && off < ob->len && os->data[off] == ob->data[off])
			off++;
		fuzz_bug("%s: the bulk block (%zu bytes) differs from the single appends' (%zu bytes) at byte %zu",
				 what, ob->len, os->len, off);
	}
}

/*
 * oracle_failure
 *		Column i alone, row by row with the single appends in a fresh
 *		writer: its first failure in rows [0, nrows) (o->failed false if
 *		none).
 */
static void
oracle_failure(const ch_type *type, const char *name, const vals *v, size_t nrows, failure *o)
{
	fuzz_mem	mem;
	ch_allocator a = fuzz_allocator(&mem);
	const char *names[1] = {name};
	const ch_type *types[1] = {type};
	vals	   *cv[1] = {(vals *) v};
	ch_error	err;
	ch_writer  *w;

	w = ch_writer_create(&a, CH_FORMAT_NATIVE, 1, names, types, &err);
	FUZZ_CHECK(w != NULL, "a one-column writer for %s: %s", type->name, err.message);
	fill_rows(w, 1, cv, nrows, o);
	ch_writer_free(w);
	FUZZ_CHECK(mem.live == 0, "%zu bytes still allocated after ch_writer_free", mem.live);
}

/*
 * check_failures
 *		S failed at fs, B at fb: compare with every column's oracle.
 */
static void
check_failures(int ncols, const ch_type *const *types, const char *const *names,
			   vals *const *cv, size_t nrows, const failure *fs, const failure *fb)
{
	failure		o[MAX_COLS];
	int			i,
				want = -1;
	size_t		upto = fb->batch_from + fb->batch_cnt;

	/* the rows up to both failures are enough for every check below */
	if (upto < fs->row + 1)
		upto = fs->row + 1;
	if (upto > nrows)
		upto = nrows;
	for (i = 0; i < ncols; i++)
		oracle_failure(types[i], names[i], cv[i], upto, &o[i]);

	/* S: the first row any column fails in, the first such column */
	for (i = 0; i < ncols; i++)
	{
		if (!o[i].failed)
			continue;
		FUZZ_CHECK(o[i].row > fs->row || (o[i].row == fs->row && i >= fs->col),
				   "column %d fails alone in row %zu, but row by row the first failure is column %d row %zu",
				   i, o[i].row, fs->col, fs->row);
	}
	FUZZ_CHECK(o[fs->col].failed && o[fs->col].row == fs->row && o[fs->col].node == fs->node &&
			   o[fs->col].index == fs->index && o[fs->col].st == fs->st &&
			   strcmp(o[fs->col].msg, fs->msg) == 0,
			   "column %d (%s) row %zu: the row by row writer fails with %s \"%s\", alone %s \"%s\" row %zu",
			   fs->col, types[fs->col]->name, fs->row, ch_status_name(fs->st), fs->msg,
			   ch_status_name(o[fs->col].st), o[fs->col].msg, o[fs->col].row);

	/* B: the batch holding that row, its first failing column */
	FUZZ_CHECK(fb->batch_from <= fs->row && fs->row < fb->batch_from + fb->batch_cnt,
			   "the bulk writer fails in rows %zu+%zu (column %d: %s \"%s\"), the first bad value is in row %zu column %d (%s \"%s\")",
			   fb->batch_from, fb->batch_cnt, fb->col, ch_status_name(fb->st), fb->msg,
			   fs->row, fs->col, ch_status_name(fs->st), fs->msg);
	for (i = 0; i < ncols && want < 0; i++)
		if (o[i].failed && o[i].row >= fb->batch_from && o[i].row < fb->batch_from + fb->batch_cnt)
			want = i;
	FUZZ_CHECK(want == fb->col, "rows %zu+%zu: the bulk writer fails in column %d (%s \"%s\"), expected column %d",
			   fb->batch_from, fb->batch_cnt, fb->col, ch_status_name(fb->st), fb->msg, want);
	FUZZ_CHECK(fb->st == o[want].st && strcmp(fb->msg, o[want].msg) == 0,
			   "column %d (%s): bulk %s \"%s\", single appends %s \"%s\" (row %zu)", want,
			   types[want]->name, ch_status_name(fb->st), fb->msg, ch_status_name(o[want].st),
			   o[want].msg, o[want].row);
	if (fb->node)
		FUZZ_CHECK(fb->node == o[want].node && fb->index == o[want].index,
				   "column %d (%s), %s \"%s\": the bulk call fails at value %zu (row %zu), the single appends at value %zu (row %zu)%s",
				   want, types[want]->name, ch_status_name(fb->st), fb->msg, fb->index, fb->row,
				   o[want].index, o[want].row,
				   fb->node != o[want].node ? " of another sub-column" : "");
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * LLVMFuzzerTestOneInput
 *		One input: the schema and values it describes, two blocks through
 *		the row by row and the column at a time writers (see the top).
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[MAX_COLS] = {"c0", "c1", "c2", "c3", "c4", "c5"};
	fuzz_mem	mem_s,
				mem_b;
	ch_allocator a_s = fuzz_allocator(&mem_s);
	ch_allocator a_b = fuzz_allocator(&mem_b);
	ch_arena	ar;
	ch_error	err;
	char		tbuf[MAX_COLS][256];
	const char *tnames[MAX_COLS];
	const ch_type *types[MAX_COLS];
	vals	   *cv[MAX_COLS];
	colmode		modes[MAX_COLS];
	ch_writer  *ws = NULL,
			   *wb = NULL;
	failure		fs,
				fb;
	plan		pl;
	gen			g;
	ch_buf		os,
				ob,
				os2,
				ob2;
	size_t		nrows,
				again,
				i;
	int			ncols,
				c;
	unsigned	flags;
	bool		decode;

	if (size < HEADER_LEN)
		return 0;
	ncols = 1 + data[0] % MAX_COLS;
	nrows = data[1] % (MAX_ROWS + 1);
	flags = data[2];
	decode = (flags & F_NO_DECODE) == 0;
	pl.flags = flags;
	pl.bias = (flags >> 4) & 3;
	pl.x = 0;
	for (i = 0; i < 8; i++)
		pl.x |= (uint64_t) data[3 + i] << (8 * i);
	if (pl.x == 0)
		pl.x = 0x9e3779b97f4a7c15ULL;
	if (size < HEADER_LEN + (size_t) ncols * COL_DESC_LEN)
		return 0;

	ch_arena_init(&ar, NULL);
	for (c = 0; c < ncols; c++)
	{
		const uint8_t *d = data + HEADER_LEN + c * COL_DESC_LEN;
		ch_type    *t;

		column_text(d[0], d[1], tbuf[c], sizeof(tbuf[c]));
		tnames[c] = tbuf[c];
		ch_error_clear(&err);
		FUZZ_CHECK(ch_type_parse(tbuf[c], strlen(tbuf[c]), &ar, &t, &err) == CH_OK,
				   "the harness's type %s does not parse: %s", tbuf[c], err.message);
		types[c] = t;
		modes[c].null_rate = d[2] & 3;
		modes[c].bad_rate = (d[2] >> 2) & 3;
		modes[c].arr_shape = (d[2] >> 4) & 3;
		modes[c].str_reuse = (d[2] >> 6) & 3;
		modes[c].call = d[3] >= 0xe0 ? (int) (d[3] % 3) : -1;
	}
	data += HEADER_LEN + (size_t) ncols * COL_DESC_LEN;
	size -= HEADER_LEN + (size_t) ncols * COL_DESC_LEN;

	/* separate budgets: one writer's buffers must not starve the other */
	ws = ch_writer_create(&a_s, CH_FORMAT_NATIVE, ncols, names, types, &err);
	FUZZ_CHECK(ws != NULL, "writer for %s...: %s", tnames[0], err.message);
	wb = ch_writer_create(&a_b, CH_FORMAT_NATIVE, ncols, names, types, &err);
	FUZZ_CHECK(wb != NULL, "writer for %s...: %s", tnames[0], err.message);
	FUZZ_CHECK(ch_writer_columnar(wb), "a Native writer is not columnar");
	if (flags & F_PORTABLE)
		ch_w_force_portable(wb);

	/* the values */
	memset(&g, 0, sizeof(g));
	g.ar = &ar;
	vsrc_init(&g.s, data, size);
	for (c = 0; c < ncols; c++)
	{
		g.elems = 0;
		g.nrecent = 0;
		cv[c] = gen_vals(&g, types[c], nrows, false, false, &modes[c], NULL);
	}

	ch_buf_init(&os, NULL);
	ch_buf_init(&ob, NULL);
	ch_buf_init(&os2, NULL);
	ch_buf_init(&ob2, NULL);

	/* block 1: every row */
	fill_rows(ws, ncols, cv, nrows, &fs);
	fill_bulk(wb, ncols, cv, nrows, &pl, &fb);
	if (fs.st == CH_ERR_NOMEM || fb.st == CH_ERR_NOMEM)
		goto done;				/* out of the budget: no verdict */
	FUZZ_CHECK(fs.failed == fb.failed,
			   "row by row: %s (column %d row %zu: %s); column at a time: %s (column %d rows %zu+%zu: %s)",
			   fs.failed ? ch_status_name(fs.st) : "ok", fs.col, fs.row, fs.msg,
			   fb.failed ? ch_status_name(fb.st) : "ok", fb.col, fb.batch_from, fb.batch_cnt,
			   fb.msg);
	if (fs.failed)
	{
		check_failures(ncols, types, names, cv, nrows, &fs, &fb);
		ch_writer_discard(ws);
		ch_writer_discard(wb);
		FUZZ_CHECK(ch_writer_rows(ws) == 0 && ch_writer_rows(wb) == 0, "discard did not reset");
		again = fs.row;
	}
	else
	{
		flush_pair(ws, wb, nrows, &os, &ob, "block 1");
		if (decode)
			decode_check(&ob, ncols, nrows, tnames);
		again = nrows;
	}

	/* block 2: the rows before the failure (or all) into the same writers */
	fill_rows(ws, ncols, cv, again, &fs);
	FUZZ_CHECK(!fs.failed, "block 2 row by row, row %zu column %d: %s", fs.row, fs.col, fs.msg);
	fill_bulk(wb, ncols, cv, again, &pl, &fb);
	FUZZ_CHECK(!fb.failed, "block 2 in bulk, column %d rows %zu+%zu: %s", fb.col,
			   fb.batch_from, fb.batch_cnt, fb.msg);
	flush_pair(ws, wb, again, &os2, &ob2, "block 2");
	if (again == nrows)
		FUZZ_CHECK(os.len == os2.len && (os.len == 0 || memcmp(os.data, os2.data, os.len) == 0),
				   "the same rows after a flush give another block (%zu, then %zu bytes)",
				   os.len, os2.len);
	else if (decode)
		decode_check(&ob2, ncols, again, tnames);

done:
	ch_buf_free(&os);
	ch_buf_free(&ob);
	ch_buf_free(&os2);
	ch_buf_free(&ob2);
	ch_writer_free(ws);
	ch_writer_free(wb);
	for (i = 0; i < g.nstrs; i++)
		free(g.strs[i]);
	free(g.strs);
	ch_arena_free(&ar);
	FUZZ_CHECK(mem_s.live + mem_b.live == 0, "%zu/%zu bytes still allocated after ch_writer_free",
			   mem_s.live, mem_b.live);
	return 0;
}
