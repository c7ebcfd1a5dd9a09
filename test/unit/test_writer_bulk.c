/*-------------------------------------------------------------------------
 * test_writer_bulk.c
 *	  Tests of the writer's bulk appends (ch_writer.h: ch_col_append_ints,
 *	  _floats, _strings, _array_sizes and ch_writer_end_rows, Native only).
 *
 * The contract: filling a Native writer column at a time with the bulk
 * calls gives exactly the block that the single appends give row by row,
 * and a bad value fails with the single append's status and message, with
 * *at the index of that value. The values come from a seeded generator
 * walking the column's type tree (range boundaries, NULLs at the start,
 * middle and end of a batch, strings at the VarUInt length boundaries);
 * the same values are appended both ways and the flushed blocks compared
 * byte for byte.
 *
 * test/unit/test_writer_bulk.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "ch_writer.h"
#include "../include/ch_test_int_bounds.h"
#include "../../src/codec/ch_writer_int.h"

/* ---- values ---- */

#define MAX_CHILD 4
#define POOL_LEN 40000

/* What a vals node holds: leaf values, or the rows of a composite. */
typedef enum vkind
{
	VK_INT,
	VK_FLOAT,
	VK_STR,
	VK_ARRAY,					/* Array / Map: counts, then the children */
	VK_TUPLE
} vkind;

/*
 * n values for one column (or sub-column), in the arrays the bulk calls
 * take. A leaf's isnull may be NULL (no NULLs); a NULL row's value is
 * poisoned (never to be read). VK_ARRAY: row i has counts[i] elements,
 * [start[i], start[i + 1]) of each child.
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
	uint32_t   *counts;
	uint64_t   *start;
	int			nchild;
	struct vals *child[MAX_CHILD];
} vals;

/* How the NULLs of a Nullable leaf are laid out. */
typedef enum null_style
{
	NS_NONE,					/* isnull is NULL */
	NS_FALSE,					/* isnull given, every row false */
	NS_EDGES,					/* first, middle, last row and 1 in 6 */
	NS_ALL						/* every row NULL */
} null_style;

typedef struct gen
{
	ch_arena   *ar;
	uint64_t	rng;
	null_style	nulls;			/* for Nullable leaves */
} gen;

/* Random bytes that the generated strings point into. */
static char pool[POOL_LEN];

static void
pool_init(void)
{
	static bool done;
	uint64_t	s = 0x5eed0001;
	size_t		i;

	if (done)
		return;
	for (i = 0; i < POOL_LEN; i++)
		pool[i] = (char) (unit_rand(&s) >> 56);
	done = true;
}

static uint64_t
rnd(gen *g)
{
	return unit_rand(&g->rng);
}

/* Zeroed room for n (at least one) items of size bytes from the arena. */
static void *
zalloc_n(gen *g, size_t n, size_t size)
{
	void	   *p = ch_arena_zalloc(g->ar, (n ? n : 1) * size);

	if (!p)
		abort();
	return p;
}

static vals *
new_vals(gen *g, vkind kind, size_t n)
{
	vals	   *v = zalloc_n(g, 1, sizeof(vals));

	v->kind = kind;
	v->n = n;
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
		case VK_TUPLE:
			break;
	}
	return v;
}


/* Leaf values: the boundaries first and last, random ones between. */
static void
gen_ints(gen *g, const ch_type *t, vals *v)
{
	int64_t		lo = 0,
				hi = 0,
				edges[32];
	static const int64_t probes[] = {0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768,
		-32768, -32769, 65535, 65536, INT32_MAX, (int64_t) INT32_MAX + 1, INT32_MIN,
	(int64_t) INT32_MIN - 1, 4294967295LL, 4294967296LL, 999999999, -999999999};
	size_t		ne = 0,
				i;

	if (t->kind == CH_T_ENUM8 || t->kind == CH_T_ENUM16)
	{
		for (i = 0; i < v->n; i++)
			v->iv[i] = t->enum_values[rnd(g) % (uint64_t) t->nenum];
		return;
	}
	if (!int_bounds(t, &lo, &hi))
		abort();
	edges[ne++] = lo;
	edges[ne++] = hi;
	edges[ne++] = lo + 1;
	edges[ne++] = hi - 1;
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (probes[i] >= lo && probes[i] <= hi)
			edges[ne++] = probes[i];
	for (i = 0; i < v->n; i++)
	{
		uint64_t	r = rnd(g);

		if (i < ne)
			v->iv[i] = edges[i];
		else if (v->n - i <= ne)
			v->iv[i] = edges[v->n - 1 - i];
		else if (r % 4 == 0)
			v->iv[i] = edges[(r >> 8) % ne];
		else if (r % 4 == 1)
		{
			int64_t		x = (int64_t) ((r >> 8) % 200) - 100;

			v->iv[i] = x >= lo && x <= hi ? x : lo;
		}
		else
		{
			uint64_t	span = (uint64_t) hi - (uint64_t) lo;
			uint64_t	x = rnd(g);

			if (span != UINT64_MAX)
				x %= span + 1;
			v->iv[i] = (int64_t) ((uint64_t) lo + x);
		}
	}
}

static void
gen_floats(gen *g, const ch_type *t, vals *v)
{
	static const double f32[] = {0.0, -0.0, 1.5, -2.25, 0.1, FLT_MAX, -FLT_MAX, FLT_MIN,
		1e-45, 1e-50, -1e-50, 16777217.0, 3.4028235e38, -3.4028235e38, INFINITY, -INFINITY,
	NAN};
	static const double f64[] = {DBL_MAX, -DBL_MAX, DBL_MIN, 5e-324, 1e300, -1e300};
	size_t		nf32 = sizeof(f32) / sizeof(f32[0]),
				i;
	bool		wide = t->kind != CH_T_FLOAT32;

	for (i = 0; i < v->n; i++)
	{
		uint64_t	r = rnd(g);
		double		x;

		if (i < nf32)
			x = f32[i];
		else if (wide && i < nf32 + 6)
			x = f64[i - nf32];
		else if (r % 5 == 0)
			x = f32[(r >> 8) % nf32];
		else if (wide && r % 5 == 1)
		{
			/* any bit pattern: NaN payloads, -NaN, denormals */
			uint64_t	bits = rnd(g);

			memcpy(&x, &bits, 8);
		}
		else
			x = ldexp((double) ((int64_t) ((r >> 8) % 2000001) - 1000000) / 1e6,
					  (int) ((r >> 40) % 200) - 100);
		/* BFloat16 holds finite values up to 0x7F7F (3.3895314e38); beyond: an error */
		if (t->kind == CH_T_BFLOAT16 && isfinite(x) && fabs(x) > 3.3895313892515355e38)
			x = copysign(3.3895313892515355e38, x);
		v->fv[i] = x;
	}
}

static void
gen_strings(gen *g, const ch_type *t, vals *v)
{
	static const uint32_t lens[] = {0, 1, 15, 16, 17, 127, 128, 129, 16383, 16384, 16385};
	uint32_t	maxlen = t->kind == CH_T_FIXEDSTRING ? t->fixed_len : UINT32_MAX,
				sp[16];
	size_t		ns = 0,
				i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		if (lens[i] <= maxlen)
			sp[ns++] = lens[i];
	for (i = 0; i < v->n; i++)
	{
		uint64_t	r = rnd(g);
		uint32_t	len,
					off;

		if (i < ns)
			len = sp[i];
		else if (v->n - i <= ns)
			len = sp[v->n - 1 - i];
		else if (r % 64 == 0)
			len = sp[(r >> 8) % ns];
		else if (r % 2 == 0)
		{
			/* one of 40 popular values, so dictionaries see repeats */
			uint32_t	k = (uint32_t) ((r >> 8) % 40);

			len = k % 20;
			if (len > maxlen)
				len %= maxlen + 1;
			v->sv[i] = pool + k * 13;
			v->sl[i] = len;
			continue;
		}
		else
			len = (uint32_t) ((r >> 8) % 41);
		if (len > maxlen)
			len %= maxlen + 1;
		off = (uint32_t) (rnd(g) % (POOL_LEN - len + 1));
		v->sv[i] = pool + off;
		v->sl[i] = len;
	}
}

/* A leaf's NULLs in the generator's style; NULL rows get poisoned values. */
static void
gen_nulls(gen *g, vals *v, bool nullable)
{
	null_style	s = g->nulls;
	size_t		i;

	if (!nullable && s != NS_NONE)
		s = NS_FALSE;
	if (s == NS_NONE)
		return;
	v->isnull = zalloc_n(g, v->n, sizeof(bool));
	for (i = 0; i < v->n; i++)
	{
		if (s == NS_FALSE)
			continue;
		v->isnull[i] = s == NS_ALL || i == 0 || i == v->n / 2 || i == v->n - 1 || rnd(g) % 6 == 0;
		if (!v->isnull[i])
			continue;
		/* the writer must not read these */
		if (v->iv)
			v->iv[i] = INT64_MIN;
		if (v->fv)
			v->fv[i] = 1e300;
		if (v->sv)
		{
			v->sv[i] = NULL;
			v->sl[i] = 0xffffffffu;
		}
	}
}

/* n values of type t (nullable: under a Nullable). */
static vals *
gen_vals(gen *g, const ch_type *t, size_t n, bool nullable)
{
	vals	   *v;
	size_t		i;
	int			k;

	switch (t->kind)
	{
		case CH_T_NULLABLE:
			return gen_vals(g, t->children[0], n, true);
		case CH_T_LOWCARDINALITY:
			return gen_vals(g, t->children[0], n, nullable);
		case CH_T_ARRAY:
		case CH_T_MAP:
			v = new_vals(g, VK_ARRAY, n);
			for (i = 0; i < n; i++)
			{
				uint64_t	r = rnd(g);

				v->counts[i] = r % 4 == 0 ? 0 : (uint32_t) ((r >> 8) % 6);
				v->start[i + 1] = v->start[i] + v->counts[i];
			}
			v->nchild = t->nchildren;
			for (k = 0; k < t->nchildren; k++)
				v->child[k] = gen_vals(g, t->children[k], v->start[n], false);
			return v;
		case CH_T_TUPLE:
			v = new_vals(g, VK_TUPLE, n);
			v->nchild = t->nchildren;
			for (k = 0; k < t->nchildren; k++)
				v->child[k] = gen_vals(g, t->children[k], n, false);
			return v;
		case CH_T_FLOAT32:
		case CH_T_FLOAT64:
		case CH_T_BFLOAT16:
			v = new_vals(g, VK_FLOAT, n);
			gen_floats(g, t, v);
			break;
		case CH_T_STRING:
		case CH_T_FIXEDSTRING:
			v = new_vals(g, VK_STR, n);
			gen_strings(g, t, v);
			break;
		default:
			v = new_vals(g, VK_INT, n);
			gen_ints(g, t, v);
			break;
	}
	gen_nulls(g, v, nullable);
	return v;
}

/* ---- filling a writer ---- */

/* Value i of v into c with the single appends. */
static ch_status
put_one(ch_colbuf *c, const vals *v, size_t i, ch_error *err)
{
	ch_status	st;
	uint64_t	e;
	int			k;

	switch (v->kind)
	{
		case VK_ARRAY:
			if ((st = ch_col_array_begin(c, v->counts[i], err)) != CH_OK)
				return st;
			for (e = v->start[i]; e < v->start[i + 1]; e++)
				for (k = 0; k < v->nchild; k++)
					if ((st = put_one(ch_col_child(c, k), v->child[k], e, err)) != CH_OK)
						return st;
			return ch_col_array_end(c, err);
		case VK_TUPLE:
			for (k = 0; k < v->nchild; k++)
				if ((st = put_one(ch_col_child(c, k), v->child[k], i, err)) != CH_OK)
					return st;
			return CH_OK;
		default:
			break;
	}
	if (v->isnull && v->isnull[i])
		return ch_col_append_null(c, err);
	switch (v->kind)
	{
		case VK_INT:
			return ch_col_append_int(c, v->iv[i], err);
		case VK_FLOAT:
			return ch_col_append_float(c, v->fv[i], err);
		default:
			return ch_col_append_bytes(c, v->sv[i], v->sl[i], err);
	}
}

/* One bulk call for the leaf values [from, from + cnt) of v. */
static ch_status
bulk_leaf(ch_colbuf *c, const vals *v, size_t from, size_t cnt, size_t *at, ch_error *err)
{
	const bool *isnull = v->isnull ? v->isnull + from : NULL;

	switch (v->kind)
	{
		case VK_INT:
			return ch_col_append_ints(c, v->iv + from, isnull, cnt, at, err);
		case VK_FLOAT:
			return ch_col_append_floats(c, v->fv + from, isnull, cnt, at, err);
		default:
			return ch_col_append_strings(c, v->sv + from, v->sl + from, isnull, cnt, at, err);
	}
}

static ch_status put_cols(ch_colbuf *c, const vals *v, size_t from, size_t cnt,
						  uint64_t *mix, ch_error *err);

/*
 * Rows [from, from + cnt) of v into c with one bulk call at this level
 * (array sizes, or the leaf values), then each child's elements.
 */
static ch_status
put_level(ch_colbuf *c, const vals *v, size_t from, size_t cnt, uint64_t *mix, ch_error *err)
{
	ch_status	st;
	size_t		at = 0;
	int			k;

	switch (v->kind)
	{
		case VK_ARRAY:
			if ((st = ch_col_append_array_sizes(c, v->counts + from, cnt, &at, err)) != CH_OK)
				return st;
			for (k = 0; k < v->nchild; k++)
				if ((st = put_cols(ch_col_child(c, k), v->child[k], v->start[from],
								   v->start[from + cnt] - v->start[from], mix, err)) != CH_OK)
					return st;
			return CH_OK;
		case VK_TUPLE:
			for (k = 0; k < v->nchild; k++)
				if ((st = put_cols(ch_col_child(c, k), v->child[k], from, cnt, mix, err)) != CH_OK)
					return st;
			return CH_OK;
		default:
			return bulk_leaf(c, v, from, cnt, &at, err);
	}
}

/*
 * Rows [from, from + cnt) of v into c column at a time. Without mix, in
 * bulk at every level; with mix (a PRNG state), in runs of random length,
 * each through the bulk calls or the single appends, with empty bulk
 * calls between some.
 */
static ch_status
put_cols(ch_colbuf *c, const vals *v, size_t from, size_t cnt, uint64_t *mix, ch_error *err)
{
	size_t		done = 0;
	ch_status	st;

	if (!mix)
		return put_level(c, v, from, cnt, NULL, err);
	while (done < cnt)
	{
		uint64_t	r = unit_rand(mix);
		size_t		run = 1 + (size_t) (r % 48);

		if (run > cnt - done)
			run = cnt - done;
		if ((r >> 8) % 8 == 0 && (st = put_level(c, v, from + done, 0, mix, err)) != CH_OK)
			return st;
		if ((r >> 16) % 3 == 0)
		{
			size_t		i;

			for (i = 0; i < run; i++)
				if ((st = put_one(c, v, from + done + i, err)) != CH_OK)
					return st;
		}
		else if ((st = put_level(c, v, from + done, run, mix, err)) != CH_OK)
			return st;
		done += run;
	}
	return CH_OK;
}

/*
 * The same n rows (cv[col]) into two Native writers: ws row by row with
 * the single appends, wb column at a time in nbatches batches (bulk, or
 * mixed with single appends when mix), each closed by ch_writer_end_rows.
 * The flushed blocks must be byte for byte the same.
 */
static bool
same_block(const char *what, ch_writer *ws, ch_writer *wb, int ncols, vals *const *cv,
		   size_t n, const size_t *batches, int nbatches, uint64_t *mix)
{
	ch_error	err;
	ch_buf		os,
				ob;
	size_t		r,
				from = 0;
	int			i,
				b;
	bool		ok = true;

	for (r = 0; r < n && ok; r++)
	{
		for (i = 0; i < ncols && ok; i++)
			ok = CHECK_MSG(put_one(ch_writer_column(ws, i), cv[i], r, &err) == CH_OK,
						   "%s: single row %zu column %d: %s", what, r, i, err.message);
		ok = ok && CHECK_MSG(ch_writer_end_row(ws, &err) == CH_OK, "%s: end_row: %s", what,
							 err.message);
	}
	for (b = 0; b < nbatches && ok; b++)
	{
		for (i = 0; i < ncols && ok; i++)
			ok = CHECK_MSG(put_cols(ch_writer_column(wb, i), cv[i], from, batches[b], mix,
									&err) == CH_OK,
						   "%s: bulk rows %zu+%zu column %d: %s", what, from, batches[b], i,
						   err.message);
		ok = ok && CHECK_MSG(ch_writer_end_rows(wb, batches[b], &err) == CH_OK,
							 "%s: end_rows(%zu): %s", what, batches[b], err.message);
		from += batches[b];
	}
	if (!ok)
	{
		ch_writer_discard(ws);
		ch_writer_discard(wb);
		return false;
	}
	CHECK_EQ_UINT(from, n);
	CHECK_EQ_UINT(ch_writer_rows(ws), n);
	CHECK_EQ_UINT(ch_writer_rows(wb), n);
	ch_buf_init(&os, NULL);
	ch_buf_init(&ob, NULL);
	CHECK_STATUS(ch_writer_flush(ws, &os, &err), CH_OK);
	CHECK_STATUS(ch_writer_flush(wb, &ob, &err), CH_OK);
	ok = CHECK_MSG(os.len == ob.len && (os.len == 0 || memcmp(os.data, ob.data, os.len) == 0),
				   "%s: bulk block (%zu bytes) differs from the single appends' (%zu bytes)",
				   what, ob.len, os.len);
	if (n == 0)
		CHECK_EQ_UINT(os.len, 0);
	ch_buf_free(&os);
	ch_buf_free(&ob);
	return ok;
}

/* ---- 1. the bytes ---- */

static const char *const bulk_types[] = {
	"UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64", "Bool",
	"Date", "Date32", "DateTime", "DateTime64(3)", "DateTime64(6, 'UTC')", "Decimal(9, 2)",
	"Decimal(18, 4)", "Decimal(38, 2)", "Enum8('a' = 1, 'b' = 2)", "Float32", "Float64",
	"BFloat16", "String", "FixedString(5)", "LowCardinality(String)",
	"LowCardinality(Nullable(String))", "Nullable(Int32)", "Nullable(Float64)",
	"Nullable(String)", "Nullable(Decimal(9, 2))", "Nullable(FixedString(3))",
	"Nullable(Enum8('a' = 1, 'b' = 2))", "Nullable(Float32)", "Nullable(UInt64)",
	"LowCardinality(UInt32)", "LowCardinality(Nullable(Int64))", "Array(UInt16)",
	"Array(Nullable(String))", "Array(Array(Int32))", "Map(String, UInt64)",
	"Array(LowCardinality(String))", "Tuple(UInt8, Nullable(String))",
"Array(Tuple(Int16, String))"};

#define NBULK_TYPES (sizeof(bulk_types) / sizeof(bulk_types[0]))

/*
 * Every type, batch sizes 0, 1, 2 and 1000: one writer pair per size,
 * four blocks through it (so dictionaries are reset between them): one
 * batch in bulk; batches of n/3, 0 and the rest; two batches mixing bulk
 * calls and single appends in each column; one mixed batch. The NULL
 * layout changes with the block.
 */
TEST(bulk_matches_single_bytes)
{
	static const size_t sizes[] = {0, 1, 2, 1000};
	size_t		t,
				s;
	int			compared = 0;

	pool_init();
	for (t = 0; t < NBULK_TYPES; t++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		{
			const char *names[] = {"c"};
			const char *tn[1];
			ch_arena	ar;
			ch_writer  *ws,
					   *wb;
			const ch_type *type;
			size_t		n = sizes[s];
			int			block;

			tn[0] = bulk_types[t];
			ch_arena_init(&ar, NULL);
			ws = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, tn);
			wb = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, tn);
			if (!CHECK_MSG(ws && wb, "writers for %s", tn[0]))
			{
				ch_arena_free(&ar);
				continue;
			}
			type = ch_col_type(ch_writer_column(ws, 0));
			for (block = 0; block < 4; block++)
			{
				gen			g = {&ar, 0x1234567ULL + t * 1000003ULL + n * 7919ULL + (uint64_t) block,
				(null_style) ((block + s) % 4)};
				uint64_t	mix = g.rng ^ 0xabcdefULL;
				size_t		batches[3];
				int			nb;
				vals	   *v[1];
				char		what[128];

				v[0] = gen_vals(&g, type, n, false);
				switch (block)
				{
					case 0:
					case 3:
						batches[0] = n;
						nb = 1;
						break;
					case 1:
						batches[0] = n / 3;
						batches[1] = 0;
						batches[2] = n - n / 3;
						nb = 3;
						break;
					default:
						batches[0] = n / 2;
						batches[1] = n - n / 2;
						nb = 2;
						break;
				}
				snprintf(what, sizeof(what), "%s, %zu rows, block %d", tn[0], n, block);
				if (same_block(what, ws, wb, 1, v, n, batches, nb, block >= 2 ? &mix : NULL))
					compared++;
			}
			ch_writer_free(ws);
			ch_writer_free(wb);
			ch_arena_free(&ar);
		}
	CHECK_EQ_INT(compared, (int) (NBULK_TYPES * 4 * 4));
}

/*
 * All the types as the columns of one writer, filled column after column:
 * three blocks of 700 rows in batches, plain bulk and mixed.
 */
TEST(bulk_matches_single_all_columns)
{
	const char *names[NBULK_TYPES];
	char		namebuf[NBULK_TYPES][8];
	vals	   *v[NBULK_TYPES];
	ch_arena	ar;
	ch_writer  *ws,
			   *wb;
	size_t		i;
	int			block;

	pool_init();
	for (i = 0; i < NBULK_TYPES; i++)
	{
		snprintf(namebuf[i], sizeof(namebuf[i]), "c%zu", i);
		names[i] = namebuf[i];
	}
	ch_arena_init(&ar, NULL);
	ws = unit_make_writer(&ar, CH_FORMAT_NATIVE, (int) NBULK_TYPES, names, bulk_types);
	wb = unit_make_writer(&ar, CH_FORMAT_NATIVE, (int) NBULK_TYPES, names, bulk_types);
	REQUIRE(ws && wb);
	for (block = 0; block < 3; block++)
	{
		static const size_t batches[][3] = {{700, 0, 0}, {250, 1, 449}, {2, 698, 0}};
		gen			g = {&ar, 0xfeed00ULL + (uint64_t) block, (null_style) (block + 1)};
		uint64_t	mix = 0x77ULL + (uint64_t) block;
		char		what[64];

		for (i = 0; i < NBULK_TYPES; i++)
			v[i] = gen_vals(&g, ch_col_type(ch_writer_column(ws, (int) i)), 700, false);
		snprintf(what, sizeof(what), "all columns, block %d", block);
		same_block(what, ws, wb, (int) NBULK_TYPES, v, 700, batches[block], 3,
				   block == 1 ? &mix : NULL);
	}
	ch_writer_free(ws);
	ch_writer_free(wb);
	ch_arena_free(&ar);
}

/* ---- 2. bad values ---- */

#define FAKE_LEN 0x40000001u	/* over 1 GiB, with an 8-byte buffer */

/*
 * A column type and a bad value among good ones. every_bad: every value
 * is bad (a wrong kind), so only index 0 can fail.
 */
typedef struct bad_case
{
	const char *type;
	vkind		kind;
	int64_t		good_i;
	int64_t		bad_i;
	double		bad_f;
	uint32_t	bad_len;		/* VK_STR: the bad string's length */
	bool		bad_null;		/* the bad value is a NULL */
	bool		every_bad;
	ch_status	expect;
} bad_case;

static const bad_case bad_cases[] = {
	{.type = "UInt8", .kind = VK_INT, .bad_i = 256, .expect = CH_ERR_LIMIT},
	{.type = "UInt8", .kind = VK_INT, .bad_i = -1, .expect = CH_ERR_LIMIT},
	{.type = "UInt16", .kind = VK_INT, .bad_i = 65536, .expect = CH_ERR_LIMIT},
	{.type = "UInt32", .kind = VK_INT, .bad_i = -1, .expect = CH_ERR_LIMIT},
	{.type = "UInt32", .kind = VK_INT, .bad_i = 4294967296LL, .expect = CH_ERR_LIMIT},
	{.type = "UInt64", .kind = VK_INT, .bad_i = -1, .expect = CH_ERR_LIMIT},
	{.type = "Int8", .kind = VK_INT, .bad_i = 128, .expect = CH_ERR_LIMIT},
	{.type = "Int8", .kind = VK_INT, .bad_i = -129, .expect = CH_ERR_LIMIT},
	{.type = "Int16", .kind = VK_INT, .bad_i = -32769, .expect = CH_ERR_LIMIT},
	{.type = "Int32", .kind = VK_INT, .bad_i = 2147483648LL, .expect = CH_ERR_LIMIT},
	{.type = "Bool", .kind = VK_INT, .bad_i = 2, .expect = CH_ERR_LIMIT},
	{.type = "Date", .kind = VK_INT, .bad_i = 65536, .expect = CH_ERR_LIMIT},
	{.type = "Date32", .kind = VK_INT, .bad_i = -25568, .expect = CH_ERR_LIMIT},
	{.type = "Date32", .kind = VK_INT, .bad_i = 120530, .expect = CH_ERR_LIMIT},
	{.type = "DateTime", .kind = VK_INT, .bad_i = -1, .expect = CH_ERR_LIMIT},
	{.type = "DateTime64(3)", .kind = VK_INT, .bad_i = 10413792000000LL, .expect = CH_ERR_LIMIT},
	{.type = "DateTime64(6, 'UTC')", .kind = VK_INT, .bad_i = -2208988800000001LL,
	.expect = CH_ERR_LIMIT},
	{.type = "Decimal(9, 2)", .kind = VK_INT, .bad_i = 1000000000, .expect = CH_ERR_LIMIT},
	{.type = "Decimal(9, 2)", .kind = VK_INT, .bad_i = -1000000000, .expect = CH_ERR_LIMIT},
	{.type = "Decimal(18, 4)", .kind = VK_INT, .bad_i = 1000000000000000000LL,
	.expect = CH_ERR_LIMIT},
	{.type = "Enum8('a' = 1, 'b' = 2)", .kind = VK_INT, .good_i = 1, .bad_i = 3,
	.expect = CH_ERR_LIMIT},
	{.type = "Nullable(Int32)", .kind = VK_INT, .bad_i = -2147483649LL, .expect = CH_ERR_LIMIT},
	{.type = "Nullable(Decimal(9, 2))", .kind = VK_INT, .bad_i = 1000000000,
	.expect = CH_ERR_LIMIT},
	{.type = "Nullable(Enum8('a' = 1, 'b' = 2))", .kind = VK_INT, .good_i = 2, .bad_i = 0,
	.expect = CH_ERR_LIMIT},
	{.type = "LowCardinality(UInt32)", .kind = VK_INT, .bad_i = -1, .expect = CH_ERR_LIMIT},
	{.type = "Float64", .kind = VK_INT, .bad_i = 9007199254740993LL, .expect = CH_ERR_LIMIT},
	{.type = "Float32", .kind = VK_INT, .bad_i = 16777217, .expect = CH_ERR_LIMIT},
	{.type = "Float32", .kind = VK_FLOAT, .bad_f = 1e300, .expect = CH_ERR_LIMIT},
	{.type = "Float32", .kind = VK_FLOAT, .bad_f = -1e300, .expect = CH_ERR_LIMIT},
	{.type = "Nullable(Float32)", .kind = VK_FLOAT, .bad_f = 3.5e38, .expect = CH_ERR_LIMIT},
	{.type = "FixedString(5)", .kind = VK_STR, .bad_len = 6, .expect = CH_ERR_LIMIT},
	{.type = "Nullable(FixedString(3))", .kind = VK_STR, .bad_len = 4, .expect = CH_ERR_LIMIT},
	{.type = "String", .kind = VK_STR, .bad_len = FAKE_LEN, .expect = CH_ERR_LIMIT},
	{.type = "Nullable(String)", .kind = VK_STR, .bad_len = FAKE_LEN, .expect = CH_ERR_LIMIT},
	{.type = "FixedString(5)", .kind = VK_STR, .bad_len = FAKE_LEN, .expect = CH_ERR_LIMIT},
	{.type = "LowCardinality(String)", .kind = VK_STR, .bad_len = FAKE_LEN,
	.expect = CH_ERR_LIMIT},
	{.type = "LowCardinality(Nullable(String))", .kind = VK_STR, .bad_len = FAKE_LEN,
	.expect = CH_ERR_LIMIT},
	/* NULL into a column that is not Nullable */
	{.type = "UInt8", .kind = VK_INT, .bad_null = true, .expect = CH_ERR_LIMIT},
	{.type = "Int64", .kind = VK_INT, .bad_null = true, .expect = CH_ERR_LIMIT},
	{.type = "Decimal(38, 2)", .kind = VK_INT, .bad_null = true, .expect = CH_ERR_LIMIT},
	{.type = "Enum8('a' = 1, 'b' = 2)", .kind = VK_INT, .good_i = 1, .bad_null = true,
	.expect = CH_ERR_LIMIT},
	{.type = "Float64", .kind = VK_FLOAT, .bad_null = true, .expect = CH_ERR_LIMIT},
	{.type = "Float32", .kind = VK_FLOAT, .bad_null = true, .expect = CH_ERR_LIMIT},
	{.type = "String", .kind = VK_STR, .bad_null = true, .expect = CH_ERR_LIMIT},
	{.type = "FixedString(5)", .kind = VK_STR, .bad_null = true, .expect = CH_ERR_LIMIT},
	{.type = "LowCardinality(String)", .kind = VK_STR, .bad_null = true,
	.expect = CH_ERR_LIMIT},
	/* wrong kinds */
	{.type = "Int32", .kind = VK_STR, .every_bad = true, .expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "Nullable(Int32)", .kind = VK_STR, .every_bad = true,
	.expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "Int32", .kind = VK_FLOAT, .every_bad = true, .expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "String", .kind = VK_FLOAT, .every_bad = true, .expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "String", .kind = VK_INT, .every_bad = true, .expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "LowCardinality(String)", .kind = VK_INT, .every_bad = true,
	.expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "LowCardinality(String)", .kind = VK_FLOAT, .every_bad = true,
	.expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "Float64", .kind = VK_STR, .every_bad = true, .expect = CH_ERR_INVALID_ARGUMENT},
	{.type = "Array(UInt8)", .kind = VK_INT, .every_bad = true,
	.expect = CH_ERR_INVALID_ARGUMENT},
};

/* Is a column of type t Nullable at its top (Nullable or LowCardinality(Nullable))? */
static bool
top_nullable(const ch_type *t)
{
	if (t->kind == CH_T_LOWCARDINALITY)
		t = t->children[0];
	return t->kind == CH_T_NULLABLE;
}

/*
 * n good values of bc's kind with bc's bad one at pos (every_bad: all
 * bad). A Nullable column also gets NULLs around pos.
 */
static vals *
bad_vals(gen *g, const bad_case *bc, const ch_type *t, size_t n, size_t pos)
{
	static const char tiny[8] = "tinybuf";
	vals	   *v = new_vals(g, bc->kind, n);
	size_t		i;

	if (bc->bad_null || top_nullable(t))
		v->isnull = zalloc_n(g, n, sizeof(bool));
	for (i = 0; i < n; i++)
	{
		bool		bad = bc->every_bad || i == pos;

		switch (bc->kind)
		{
			case VK_INT:
				v->iv[i] = bad && !bc->bad_null ? bc->bad_i : bc->good_i;
				break;
			case VK_FLOAT:
				v->fv[i] = bad && !bc->bad_null ? bc->bad_f : 0.5;
				break;
			default:
				v->sv[i] = bad && bc->bad_len == FAKE_LEN ? tiny : pool + i % 100;
				v->sl[i] = bad && !bc->bad_null ? bc->bad_len : (uint32_t) (i % 3);
				break;
		}
		if (bad && bc->bad_null)
			v->isnull[i] = true;
		else if (top_nullable(t) && !bad && i % 3 == 1)
			v->isnull[i] = true;
	}
	return v;
}

/*
 * Every bad case at index 0, in the middle and last, in batches of 1 and
 * 300: the bulk call fails with the single append's status and message,
 * *at is the index (a NULL at is allowed); after a discard the writer
 * takes a good batch and gives the single appends' bytes.
 */
TEST(bulk_bad_values_fail_like_single)
{
	static const size_t np[][2] = {{1, 0}, {300, 0}, {300, 150}, {300, 299}};
	size_t		c,
				p;
	int			checked = 0,
				expected = 0;

	pool_init();
	for (c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]); c++)
	{
		const bad_case *bc = &bad_cases[c];
		const char *names[] = {"x"};
		const char *tn[1];
		ch_arena	ar;
		ch_writer  *ws,
				   *wb;
		const ch_type *type;

		expected += bc->every_bad ? 2 : 4;	/* every_bad: index 0 only */
		tn[0] = bc->type;
		ch_arena_init(&ar, NULL);
		ws = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, tn);
		wb = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, tn);
		if (!CHECK_MSG(ws && wb, "writers for %s", bc->type))
		{
			ch_arena_free(&ar);
			continue;
		}
		type = ch_col_type(ch_writer_column(ws, 0));
		for (p = 0; p < sizeof(np) / sizeof(np[0]); p++)
		{
			size_t		n = np[p][0],
						pos = np[p][1],
						at = 12345,
						i;
			gen			g = {&ar, 99 + c, NS_EDGES};
			vals	   *v;
			ch_error	es,
						eb;
			ch_status	ss = CH_OK,
						sb;
			char		what[160];

			if (bc->every_bad && pos != 0)
				continue;
			snprintf(what, sizeof(what), "case %zu (%s), bad value at %zu of %zu", c, bc->type,
					 pos, n);
			v = bad_vals(&g, bc, type, n, pos);
			ch_error_clear(&es);
			ch_error_clear(&eb);
			for (i = 0; i <= pos; i++)
			{
				ss = put_one(ch_writer_column(ws, 0), v, i, &es);
				if (i < pos)
					CHECK_MSG(ss == CH_OK, "%s: single value %zu: %s", what, i, es.message);
			}
			sb = bulk_leaf(ch_writer_column(wb, 0), v, 0, n, p == 2 ? NULL : &at, &eb);
			CHECK_MSG(ss == bc->expect, "%s: single append gave %s", what, ch_status_name(ss));
			CHECK_MSG(sb == ss, "%s: bulk gave %s, single %s", what, ch_status_name(sb),
					  ch_status_name(ss));
			if (p != 2)
				CHECK_MSG(at == pos, "%s: *at = %zu", what, at);
			CHECK_MSG(strcmp(es.message, eb.message) == 0, "%s: bulk message \"%s\", single \"%s\"",
					  what, eb.message, es.message);
			checked++;

			/* the writers recover after a discard */
			ch_writer_discard(ws);
			ch_writer_discard(wb);
			CHECK_EQ_UINT(ch_writer_bytes(wb), 0);
			if (!bc->every_bad)
			{
				bad_case	good = *bc;
				size_t		batches[1];

				good.bad_i = good.good_i;
				good.bad_f = 0.5;
				good.bad_len = 4;
				good.bad_null = false;
				if (ch_type_unwrap(type)->kind == CH_T_FIXEDSTRING && ch_type_unwrap(type)->fixed_len < 4)
					good.bad_len = ch_type_unwrap(type)->fixed_len;
				v = bad_vals(&g, &good, type, n, pos);
				batches[0] = n;
				same_block(what, ws, wb, 1, &v, n, batches, 1, NULL);
			}
		}
		ch_writer_free(ws);
		ch_writer_free(wb);
		ch_arena_free(&ar);
	}
	CHECK_EQ_INT(checked, expected);
}

/* A bad element inside an array (a child's bulk call) reports its own index. */
TEST(bulk_bad_array_elements)
{
	const char *names[] = {"m", "a"};
	const char *types[] = {"Map(String, UInt64)", "Array(Nullable(FixedString(2)))"};
	static const uint32_t counts[] = {2, 0, 3};
	static const char *const keys[] = {"a", "b", "c", "d", "e"};
	static const uint32_t klen[] = {1, 1, 1, 1, 1};
	static const int64_t mv[] = {1, 2, 3, -1, 5};
	static const char *const av[] = {"ab", "x", NULL, "xyz", ""};
	static const uint32_t alen[] = {2, 1, 99, 3, 0};
	static const bool anull[] = {false, false, true, false, false};
	ch_arena	ar;
	ch_writer  *ws,
			   *wb;
	ch_error	es,
				eb;
	ch_colbuf  *c;
	size_t		at = 0;

	ch_arena_init(&ar, NULL);
	ws = unit_make_writer(&ar, CH_FORMAT_NATIVE, 2, names, types);
	wb = unit_make_writer(&ar, CH_FORMAT_NATIVE, 2, names, types);
	REQUIRE(ws && wb);
	/* Map: -1 into UInt64 at value 3 */
	c = ch_writer_column(wb, 0);
	CHECK_STATUS(ch_col_append_array_sizes(c, counts, 3, &at, &eb), CH_OK);
	CHECK_STATUS(ch_col_append_strings(ch_col_child(c, 0), keys, klen, NULL, 5, &at, &eb), CH_OK);
	CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 1), mv, NULL, 5, &at, &eb), CH_ERR_LIMIT);
	CHECK_EQ_UINT(at, 3);
	CHECK_STATUS(ch_col_append_int(ch_col_child(ch_writer_column(ws, 0), 1), -1, &es), CH_ERR_LIMIT);
	CHECK_EQ_STR(eb.message, es.message);
	/* Array(Nullable(FixedString(2))): "xyz" at element 3, after a NULL */
	c = ch_writer_column(wb, 1);
	CHECK_STATUS(ch_col_append_array_sizes(c, counts, 3, &at, &eb), CH_OK);
	CHECK_STATUS(ch_col_append_strings(ch_col_child(c, 0), av, alen, anull, 5, &at, &eb),
				 CH_ERR_LIMIT);
	CHECK_EQ_UINT(at, 3);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(ws, 1), 0), "xyz", 3, &es),
				 CH_ERR_LIMIT);
	CHECK_EQ_STR(eb.message, es.message);
	CHECK_CONTAINS(eb.message, "FixedString(2)");
	ch_writer_free(ws);
	ch_writer_free(wb);
	ch_arena_free(&ar);
}

/* ---- 3. structure ---- */

/* Fill column i of w with n values in bulk (any of the three types below). */
static void
fill_abc(ch_writer *w, int i, size_t n)
{
	static const int64_t iv[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	static const char *const sv[12] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
	static const uint32_t sl[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	static const uint32_t counts[12] = {1, 0, 2, 1, 0, 0, 1, 1, 2, 0, 1, 1};
	ch_colbuf  *c = ch_writer_column(w, i);
	ch_error	err;
	size_t		at,
				k,
				total = 0;

	switch (i)
	{
		case 0:
			CHECK_STATUS(ch_col_append_ints(c, iv, NULL, n, &at, &err), CH_OK);
			break;
		case 1:
			CHECK_STATUS(ch_col_append_strings(c, sv, sl, NULL, n, &at, &err), CH_OK);
			break;
		default:
			CHECK_STATUS(ch_col_append_array_sizes(c, counts, n, &at, &err), CH_OK);
			for (k = 0; k < n; k++)
				total += counts[k];
			CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 0), iv, NULL, total, &at, &err), CH_OK);
			break;
	}
}

/*
 * ch_writer_end_rows with one column short or long by one value, in the
 * first batch and in a second one (counts since the last end_rows), and
 * with n = 1: refused with a message naming the column; nothing counted.
 */
TEST(bulk_end_rows_checks_counts)
{
	const char *names[] = {"a", "b", "c"};
	const char *types[] = {"UInt8", "String", "Array(UInt16)"};
	static const size_t ns[] = {10, 1};
	ch_arena	ar;
	ch_writer  *w;
	ch_error	err;
	size_t		k;
	int			col,
				delta,
				second;

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 3, names, types);
	REQUIRE(w != NULL);
	for (second = 0; second < 2; second++)
		for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
			for (col = 0; col < 3; col++)
				for (delta = -1; delta <= 1; delta += 2)
				{
					size_t		n = ns[k];
					uint64_t	before = second ? 2 : 0;
					char		expect[128];
					int			i;

					ch_writer_discard(w);
					if (second)
					{
						for (i = 0; i < 3; i++)
							fill_abc(w, i, 2);
						CHECK_STATUS(ch_writer_end_rows(w, 2, &err), CH_OK);
					}
					for (i = 0; i < 3; i++)
						fill_abc(w, i, i == col ? n + (size_t) delta : n);
					CHECK_STATUS(ch_writer_end_rows(w, n, &err), CH_ERR_INVALID_ARGUMENT);
					if (n == 1)
						snprintf(expect, sizeof(expect),
								 "column %d (%s) got %d values in row %llu instead of one",
								 col, names[col], 1 + delta, (unsigned long long) before);
					else
						snprintf(expect, sizeof(expect), "column %d (%s) got %zu values for %zu rows",
								 col, names[col], n + (size_t) delta, n);
					CHECK_EQ_STR(err.message, expect);
					CHECK_EQ_UINT(ch_writer_rows(w), before);
				}
	/* and the same columns, complete, are accepted */
	ch_writer_discard(w);
	for (col = 0; col < 3; col++)
		fill_abc(w, col, 10);
	CHECK_STATUS(ch_writer_end_rows(w, 10, &err), CH_OK);
	CHECK_EQ_UINT(ch_writer_rows(w), 10);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

/*
 * Array sizes announced in bulk, then fewer or more elements than they
 * add up to (Array, the keys or values of a Map, the inner arrays or the
 * leaves of Array(Array), one element of a Tuple): ch_writer_end_rows
 * refuses the batch.
 */
TEST(bulk_end_rows_checks_array_elements)
{
	static const struct
	{
		const char *type;
		int			delta[3];	/* elements missing (-1) or extra (+1) per level */
		const char *msg;
	}			cases[] = {
		{"Array(UInt16)", {-1}, "arrays of ClickHouse type Array(UInt16) announce 6 elements but got 5"},
		{"Array(UInt16)", {1}, "arrays of ClickHouse type Array(UInt16) announce 6 elements but got 7"},
		{"Map(String, UInt64)", {0, -1}, "arrays of ClickHouse type Map(String, UInt64) announce 6 elements but got 5"},
		{"Map(String, UInt64)", {-1, 0}, "arrays of ClickHouse type Map(String, UInt64) announce 6 elements but got 5"},
		{"Map(String, UInt64)", {0, 1}, "arrays of ClickHouse type Map(String, UInt64) announce 6 elements but got 7"},
		{"Array(Array(Int32))", {-1}, "arrays of ClickHouse type Array(Array(Int32)) announce 6 elements but got 5"},
		{"Array(Array(Int32))", {0, -1}, "arrays of ClickHouse type Array(Int32) announce 12 elements but got 11"},
		{"Array(Array(Int32))", {0, 1}, "arrays of ClickHouse type Array(Int32) announce 12 elements but got 13"},
		{"Array(Tuple(Int16, String))", {0, -1}, "elements of ClickHouse type Tuple(Int16, String) got 6 and 5 values"},
	};
	static const uint32_t counts[] = {1, 0, 3, 2};
	static const uint32_t inner[] = {2, 2, 2, 2, 2, 2, 2};
	static const int64_t iv[16] = {0};
	static const char *const sv[16] = {"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""};
	static const uint32_t sl[16] = {0};
	size_t		k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
	{
		const char *names[] = {"c"};
		const char *tn[1];
		ch_arena	ar;
		ch_writer  *w;
		ch_error	err;
		ch_colbuf  *c;
		size_t		at;
		const int  *d = cases[k].delta;

		tn[0] = cases[k].type;
		ch_arena_init(&ar, NULL);
		w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, tn);
		if (!CHECK(w != NULL))
		{
			ch_arena_free(&ar);
			continue;
		}
		c = ch_writer_column(w, 0);
		CHECK_STATUS(ch_col_append_array_sizes(c, counts, 4, &at, &err), CH_OK);
		switch (ch_col_type(c)->children[0]->kind)
		{
			case CH_T_UINT16:
				CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 0), iv, NULL, 6 + d[0], &at, &err), CH_OK);
				break;
			case CH_T_STRING:	/* Map */
				CHECK_STATUS(ch_col_append_strings(ch_col_child(c, 0), sv, sl, NULL, 6 + d[0], &at, &err), CH_OK);
				CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 1), iv, NULL, 6 + d[1], &at, &err), CH_OK);
				break;
			case CH_T_ARRAY:
				{
					ch_colbuf  *a = ch_col_child(c, 0);

					CHECK_STATUS(ch_col_append_array_sizes(a, inner, 6 + d[0], &at, &err), CH_OK);
					CHECK_STATUS(ch_col_append_ints(ch_col_child(a, 0), iv, NULL, 12 + d[1], &at, &err), CH_OK);
					break;
				}
			default:			/* Tuple */
				{
					ch_colbuf  *t = ch_col_child(c, 0);

					CHECK_STATUS(ch_col_append_ints(ch_col_child(t, 0), iv, NULL, 6 + d[0], &at, &err), CH_OK);
					CHECK_STATUS(ch_col_append_strings(ch_col_child(t, 1), sv, sl, NULL, 6 + d[1], &at, &err), CH_OK);
					break;
				}
		}
		CHECK_STATUS(ch_writer_end_rows(w, 4, &err), CH_ERR_INVALID_ARGUMENT);
		CHECK_MSG(strcmp(err.message, cases[k].msg) == 0, "%s %+d %+d: \"%s\", expected \"%s\"",
				  cases[k].type, d[0], d[1], err.message, cases[k].msg);
		CHECK_EQ_UINT(ch_writer_rows(w), 0);
		ch_writer_free(w);
		ch_arena_free(&ar);
	}
}

/*
 * The calls that continue after bulk array sizes check that the earlier
 * arrays' elements are all there: ch_col_array_begin and a second
 * ch_col_append_array_sizes refuse while they are not, and go on once
 * they are; the result is the single appends' block. Also: sizes while an
 * array is begun, sizes for a type that is no array, an array begun and
 * not ended, a batch after a failed bulk call.
 */
TEST(bulk_array_continuation_checks)
{
	const char *names[] = {"a"};
	const char *types[] = {"Array(UInt16)"};
	static const uint32_t counts[] = {2, 3};
	static const uint32_t one[] = {1};
	static const int64_t iv[] = {10, 11, 12, 13, 14, 15};
	ch_arena	ar;
	ch_writer  *w,
			   *ws;
	ch_error	err,
				e2;
	ch_colbuf  *c;
	ch_buf		o1,
				o2;
	size_t		at = 99;
	int			i;

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, types);
	ws = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, types);
	REQUIRE(w && ws);
	c = ch_writer_column(w, 0);
	CHECK_STATUS(ch_col_append_array_sizes(c, counts, 2, &at, &err), CH_OK);
	CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 0), iv, NULL, 4, &at, &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(c, 1, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_EQ_STR(err.message, "arrays of ClickHouse type Array(UInt16) announce 5 elements but got 4");
	CHECK_STATUS(ch_col_append_array_sizes(c, one, 1, &at, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_EQ_STR(err.message, "arrays of ClickHouse type Array(UInt16) announce 5 elements but got 4");
	CHECK_EQ_UINT(at, 0);
	/* the missing element: now both go on */
	CHECK_STATUS(ch_col_append_int(ch_col_child(c, 0), 14, &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(c, 1, &err), CH_OK);
	/* sizes while an array is begun */
	CHECK_STATUS(ch_col_append_array_sizes(c, one, 1, &at, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_EQ_STR(err.message, "array begun twice");
	CHECK_STATUS(ch_col_append_int(ch_col_child(c, 0), 15, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(c, &err), CH_OK);
	CHECK_STATUS(ch_col_append_array_sizes(c, one, 1, &at, &err), CH_OK);
	CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 0), iv, NULL, 1, &at, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_rows(w, 4, &err), CH_OK);
	/* the same rows, {10, 11}, {12, 13, 14}, {15}, {10}, one by one */
	ch_buf_init(&o1, NULL);
	ch_buf_init(&o2, NULL);
	{
		static const int64_t flat[] = {10, 11, 12, 13, 14, 15, 10};
		static const uint32_t sz[] = {2, 3, 1, 1};
		int			e = 0;

		for (i = 0; i < 4; i++)
		{
			int			k;

			CHECK_STATUS(ch_col_array_begin(ch_writer_column(ws, 0), sz[i], &err), CH_OK);
			for (k = 0; k < (int) sz[i]; k++)
				CHECK_STATUS(ch_col_append_int(ch_col_child(ch_writer_column(ws, 0), 0), flat[e++], &err), CH_OK);
			CHECK_STATUS(ch_col_array_end(ch_writer_column(ws, 0), &err), CH_OK);
			CHECK_STATUS(ch_writer_end_row(ws, &err), CH_OK);
		}
	}
	CHECK_STATUS(ch_writer_flush(w, &o1, &err), CH_OK);
	CHECK_STATUS(ch_writer_flush(ws, &o2, &err), CH_OK);
	CHECK_EQ_MEM(o1.data, o1.len, o2.data, o2.len);
	ch_buf_free(&o1);
	ch_buf_free(&o2);

	/* begun and not ended */
	CHECK_STATUS(ch_col_append_array_sizes(c, counts, 2, &at, &err), CH_OK);
	CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 0), iv, NULL, 5, &at, &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(c, 0, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_rows(w, 2, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_EQ_STR(err.message, "an array of ClickHouse type Array(UInt16) was begun but not ended");
	ch_writer_discard(w);
	ch_writer_free(w);
	ch_writer_free(ws);

	/* sizes for a type that is no array: the message of ch_col_array_begin */
	{
		const char *tn[] = {"UInt8", "Nullable(UInt8)"};
		const char *nn[] = {"u", "n"};
		static const int64_t bad[] = {1, 2, 300, 4, 5};

		w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 2, nn, tn);
		REQUIRE(w != NULL);
		CHECK_STATUS(ch_col_append_array_sizes(ch_writer_column(w, 0), counts, 2, &at, &err),
					 CH_ERR_INVALID_ARGUMENT);
		CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 0), 2, &e2), CH_ERR_INVALID_ARGUMENT);
		CHECK_EQ_STR(err.message, e2.message);
		CHECK_EQ_UINT(ch_writer_bytes(w), 0);

		/* a failed bulk call leaves a batch that end_rows refuses */
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 0), bad, NULL, 5, &at, &err), CH_ERR_LIMIT);
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 1), bad, NULL, 5, &at, &err), CH_ERR_LIMIT);
		CHECK_EQ_UINT(at, 2);
		CHECK_STATUS(ch_writer_end_rows(w, 5, &err), CH_ERR_INVALID_ARGUMENT);
		CHECK_CONTAINS(err.message, "column 0 (u)");
		ch_writer_discard(w);
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 0), bad, NULL, 2, &at, &err), CH_OK);
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 1), bad, NULL, 5, &at, &err), CH_ERR_LIMIT);
		CHECK_STATUS(ch_writer_end_rows(w, 2, &err), CH_ERR_INVALID_ARGUMENT);
		CHECK_STATUS(ch_writer_end_rows(w, 5, &err), CH_ERR_INVALID_ARGUMENT);
		ch_writer_discard(w);
		/* a Nullable whose flags are all there but not its values */
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 0), bad, NULL, 2, &at, &err), CH_OK);
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 1), bad, NULL, 5, &at, &err), CH_ERR_LIMIT);
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 0), bad, NULL, 2, &at, &err), CH_OK);
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 0), bad + 4, NULL, 1, &at, &err), CH_OK);
		CHECK_STATUS(ch_writer_end_rows(w, 5, &err), CH_ERR_INVALID_ARGUMENT);
		CHECK_EQ_STR(err.message, "ClickHouse type Nullable(UInt8) got 5 flags but 2 values");
		ch_writer_free(w);
	}
	ch_arena_free(&ar);
}

/*
 * RowBinary takes no bulk calls (CH_ERR_INVALID_ARGUMENT, nothing
 * written, even for n = 0) and says so; Native does.
 */
TEST(bulk_rowbinary_refused)
{
	const char *names[] = {"u", "f", "s", "a"};
	const char *types[] = {"UInt8", "Float64", "String", "Array(UInt8)"};
	static const int64_t iv[] = {1, 2};
	static const double fv[] = {1.5, 2.5};
	static const char *const sv[] = {"x", "y"};
	static const uint32_t sl[] = {1, 1};
	static const uint32_t counts[] = {1, 1};
	static const uint8_t expect[] = {0x07, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0x01, 'z', 0x00};
	ch_arena	ar;
	ch_writer  *w;
	ch_error	err;
	ch_buf		out;
	size_t		n;

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 4, names, types);
	REQUIRE(w != NULL);
	CHECK(ch_writer_columnar(w));
	ch_writer_free(w);
	w = unit_make_writer(&ar, CH_FORMAT_ROWBINARY, 4, names, types);
	REQUIRE(w != NULL);
	CHECK(!ch_writer_columnar(w));
	for (n = 0; n <= 2; n += 2)
	{
		size_t		at = 0;

		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 0), iv, NULL, n, &at, &err),
					 CH_ERR_INVALID_ARGUMENT);
		CHECK_CONTAINS(err.message, "Native");
		CHECK_STATUS(ch_col_append_floats(ch_writer_column(w, 1), fv, NULL, n, &at, &err),
					 CH_ERR_INVALID_ARGUMENT);
		CHECK_STATUS(ch_col_append_strings(ch_writer_column(w, 2), sv, sl, NULL, n, &at, &err),
					 CH_ERR_INVALID_ARGUMENT);
		CHECK_STATUS(ch_col_append_array_sizes(ch_writer_column(w, 3), counts, n, &at, &err),
					 CH_ERR_INVALID_ARGUMENT);
		CHECK_STATUS(ch_col_append_ints(ch_col_child(ch_writer_column(w, 3), 0), iv, NULL, n, &at, &err),
					 CH_ERR_INVALID_ARGUMENT);
		CHECK_EQ_UINT(ch_writer_bytes(w), 0);
	}
	/* nothing was written: a row by row row comes out alone */
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 0), 7, &err), CH_OK);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 1), 1.5, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_writer_column(w, 2), "z", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 3), &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	ch_buf_init(&out, NULL);
	CHECK_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
	CHECK_EQ_MEM(out.data, out.len, expect, sizeof(expect));
	ch_buf_free(&out);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

/*
 * Empty bulk calls (n = 0) on columns of every kind change nothing: a
 * batch of 0 rows, then a flush that appends nothing.
 */
TEST(bulk_zero_length_calls)
{
	const char *names[] = {"i", "f", "s", "ni", "nf", "ns", "lc", "a", "fs"};
	const char *types[] = {"Int32", "Float64", "String", "Nullable(Int32)", "Nullable(Float32)",
	"Nullable(String)", "LowCardinality(Nullable(String))", "Array(UInt8)", "FixedString(2)"};
	static const int64_t iv[1] = {1};
	static const double fv[1] = {1.0};
	static const char *const sv[1] = {"x"};
	static const uint32_t sl[1] = {1};
	static const bool nul[1] = {true};
	ch_arena	ar;
	ch_writer  *w;
	ch_error	err;
	ch_buf		out;
	int			i;

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 9, names, types);
	REQUIRE(w != NULL);
	for (i = 0; i < 9; i++)
	{
		ch_colbuf  *c = ch_writer_column(w, i);

		CHECK_STATUS(ch_col_append_ints(c, iv, nul, 0, NULL, &err), CH_OK);
		CHECK_STATUS(ch_col_append_floats(c, fv, nul, 0, NULL, &err), CH_OK);
		CHECK_STATUS(ch_col_append_strings(c, sv, sl, nul, 0, NULL, &err), CH_OK);
		if (i == 7)
		{
			CHECK_STATUS(ch_col_append_array_sizes(c, sl, 0, NULL, &err), CH_OK);
			CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 0), iv, NULL, 0, NULL, &err), CH_OK);
		}
	}
	CHECK_EQ_UINT(ch_writer_bytes(w), 0);
	CHECK_STATUS(ch_writer_end_rows(w, 0, &err), CH_OK);
	CHECK_EQ_UINT(ch_writer_rows(w), 0);
	ch_buf_init(&out, NULL);
	CHECK_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
	CHECK_EQ_UINT(out.len, 0);
	ch_buf_free(&out);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

/*
 * LowCardinality columns whose dictionaries grow past the size where
 * lookups are deferred (5,000 to 7,500 distinct values among 12,000 rows
 * or 8,000 arrays, long keys among them), with NULLs, filled in bulk mixed
 * with single appends, over two blocks: the single appends' bytes.
 */
TEST(bulk_lowcardinality_deferred_matches_single)
{
	static const char *const lct[] = {"LowCardinality(String)", "LowCardinality(Nullable(String))",
	"Array(LowCardinality(String))"};
	size_t		t;

	pool_init();
	for (t = 0; t < sizeof(lct) / sizeof(lct[0]); t++)
	{
		const char *names[] = {"c"};
		const char *tn[1];
		ch_arena	ar;
		ch_writer  *ws,
				   *wb;
		int			block;

		tn[0] = lct[t];
		ch_arena_init(&ar, NULL);
		ws = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, tn);
		wb = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, tn);
		REQUIRE(ws && wb);
		for (block = 0; block < 2; block++)
		{
			size_t		n = t == 2 ? 8000 : 12000;
			gen			g = {&ar, 0xdef0ULL + t * 17 + (uint64_t) block, NS_EDGES};
			uint64_t	mix = 5 + (uint64_t) block;
			size_t		batches[2] = {n / 3, n - n / 3};
			vals	   *v[1];
			char		what[96];

			v[0] = gen_vals(&g, ch_col_type(ch_writer_column(ws, 0)), n, false);
			snprintf(what, sizeof(what), "%s, block %d", tn[0], block);
			same_block(what, ws, wb, 1, v, n, batches, 2, block ? &mix : NULL);
		}
		ch_writer_free(ws);
		ch_writer_free(wb);
		ch_arena_free(&ar);
	}
}

/*
 * Regression: ch_writer_end_rows(w, 1) once was ch_writer_end_row, which
 * does not check that the arrays announced in bulk got their elements (nor
 * a Nullable's values against its flags): the batch was accepted and the
 * flush wrote a block whose offsets point past its elements.
 */
TEST(bulk_end_rows_one_row_checks_arrays)
{
	const char *names[] = {"a", "n"};
	const char *types[] = {"Array(UInt16)", "Nullable(UInt8)"};
	static const uint32_t three[] = {3};
	static const int64_t iv[] = {1, 2, 3, 4};
	static const int64_t bad[] = {300};
	ch_arena	ar;
	ch_writer  *w;
	ch_error	err;
	size_t		at;
	int			delta;

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 2, names, types);
	REQUIRE(w != NULL);
	for (delta = -1; delta <= 1; delta += 2)
	{
		ch_colbuf  *c = ch_writer_column(w, 0);

		CHECK_STATUS(ch_col_append_array_sizes(c, three, 1, &at, &err), CH_OK);
		CHECK_STATUS(ch_col_append_ints(ch_col_child(c, 0), iv, NULL, (size_t) (3 + delta), &at, &err),
					 CH_OK);
		CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 1), iv, NULL, 1, &at, &err), CH_OK);
		CHECK_STATUS(ch_writer_end_rows(w, 1, &err), CH_ERR_INVALID_ARGUMENT);
		CHECK_EQ_UINT(ch_writer_rows(w), 0);
		ch_writer_discard(w);
	}
	/* a Nullable's flag without its value (after a failed bulk call) */
	CHECK_STATUS(ch_col_append_array_sizes(ch_writer_column(w, 0), three, 1, &at, &err), CH_OK);
	CHECK_STATUS(ch_col_append_ints(ch_col_child(ch_writer_column(w, 0), 0), iv, NULL, 3, &at, &err),
				 CH_OK);
	CHECK_STATUS(ch_col_append_ints(ch_writer_column(w, 1), bad, NULL, 1, &at, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_writer_end_rows(w, 1, &err), CH_ERR_INVALID_ARGUMENT);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

/*
 * Regression: a bulk call that stores nothing into a buffer never
 * allocated computed NULL + 0 (bulk_target's memset for a Nullable,
 * put_floats, put_strings when the first string is over 1 GiB or n = 0,
 * ch_col_append_array_sizes), which UBSan reports as "applying zero
 * offset to null pointer". The other tests use fresh writers too.
 */
TEST(bulk_zero_length_on_fresh_columns)
{
	static const char *const tn[] = {"Float64", "Float32", "Nullable(Int32)", "String",
	"Array(UInt8)"};
	static const int64_t iv[1] = {1};
	static const double fv[1] = {1.0};
	static const char tiny[8] = "tinybuf";
	static const char *const sv[1] = {tiny};
	static const uint32_t sl[1] = {0x40000001u};
	static const uint32_t counts[1] = {1};
	size_t		t;

	for (t = 0; t < sizeof(tn) / sizeof(tn[0]); t++)
	{
		const char *names[] = {"c"};
		const char *one[1];
		ch_arena	ar;
		ch_writer  *w;
		ch_error	err;
		ch_colbuf  *c;
		size_t		at = 9;

		one[0] = tn[t];
		ch_arena_init(&ar, NULL);
		w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, one);
		REQUIRE(w != NULL);
		c = ch_writer_column(w, 0);
		switch (t)
		{
			case 0:
			case 1:
				CHECK_STATUS(ch_col_append_floats(c, fv, NULL, 0, &at, &err), CH_OK);
				break;
			case 2:
				CHECK_STATUS(ch_col_append_ints(c, iv, NULL, 0, &at, &err), CH_OK);
				break;
			case 3:
				CHECK_STATUS(ch_col_append_strings(c, sv, sl, NULL, 0, &at, &err), CH_OK);
				CHECK_STATUS(ch_col_append_strings(c, sv, sl, NULL, 1, &at, &err), CH_ERR_LIMIT);
				CHECK_EQ_UINT(at, 0);
				ch_writer_discard(w);
				break;
			default:
				CHECK_STATUS(ch_col_append_array_sizes(c, counts, 0, &at, &err), CH_OK);
				break;
		}
		CHECK_STATUS(ch_writer_end_rows(w, 0, &err), CH_OK);
		ch_writer_free(w);
		ch_arena_free(&ar);
	}
}


/* ---- 4. round trip ---- */

/* LowCardinality value j: distinct per j, 1 to ~150 bytes (short and long keys). */
static uint32_t
lc_value(uint32_t j, char *buf)
{
	uint32_t	n = (uint32_t) snprintf(buf, 32, "k%u_", j);
	uint32_t	want = j % 13 == 0 ? 129 + j % 23 : j % 3 == 0 ? 17 + j % 9 : 1 + j % 16;

	while (n < want)
	{
		buf[n] = (char) ('a' + (j + n) % 26);
		n++;
	}
	return n;
}

/*
 * A block of 20,000 rows built in bulk (batches of 8,000, 1 and the rest)
 * of UInt64, LowCardinality(String) with 5,000 distinct values (enough for
 * the dictionary to defer its lookups), Nullable(String) and
 * Array(UInt16): the Native reader gives back every value, and the bytes
 * are those of the single appends.
 */
TEST(bulk_round_trip_native_reader)
{
	const char *names[] = {"id", "lc", "ns", "arr"};
	const char *types[] = {"UInt64", "LowCardinality(String)", "Nullable(String)", "Array(UInt16)"};
	enum
	{
		NROWS = 20000, NDISTINCT = 5000
	};
	static const size_t batches[] = {8000, 1, NROWS - 8001};
	ch_arena	ar;
	gen			g;
	vals	   *v[4];
	char	   *text;
	uint32_t   *lcj;
	ch_writer  *w,
			   *ws;
	ch_error	err;
	ch_buf		out,
				outs;
	ch_native_reader *r;
	ch_block   *b;
	size_t		i,
				from = 0,
				k;
	uint64_t	s,
				e,
				el;
	uint64_t	rng = 42;
	int			bad = 0;

	ch_arena_init(&ar, NULL);
	g.ar = &ar;
	g.rng = 1;
	g.nulls = NS_NONE;
	v[0] = new_vals(&g, VK_INT, NROWS);
	v[1] = new_vals(&g, VK_STR, NROWS);
	v[2] = new_vals(&g, VK_STR, NROWS);
	v[2]->isnull = zalloc_n(&g, NROWS, sizeof(bool));
	v[3] = new_vals(&g, VK_ARRAY, NROWS);
	v[3]->nchild = 1;
	text = zalloc_n(&g, (size_t) NROWS * 2, 160);
	lcj = zalloc_n(&g, NROWS, sizeof(uint32_t));
	for (i = 0; i < NROWS; i++)
	{
		char	   *lt = text + i * 320,
				   *nt = lt + 160;

		v[0]->iv[i] = (int64_t) (i * 0x9e3779b97f4aULL) & INT64_MAX;
		/* every value once in a scrambled order, then at random */
		lcj[i] = i < NDISTINCT ? (uint32_t) ((i * 7919) % NDISTINCT) :
			(uint32_t) (unit_rand(&rng) % NDISTINCT);
		v[1]->sl[i] = lc_value(lcj[i], lt);
		v[1]->sv[i] = lt;
		if (i % 7 == 3)
			v[2]->isnull[i] = true;
		else
		{
			v[2]->sl[i] = i % 11 == 5 ? 0 : (uint32_t) snprintf(nt, 160, "s%zu", i * 31);
			v[2]->sv[i] = nt;
		}
		v[3]->counts[i] = (uint32_t) (i % 5);
		v[3]->start[i + 1] = v[3]->start[i] + i % 5;
	}
	v[3]->child[0] = new_vals(&g, VK_INT, v[3]->start[NROWS]);
	for (el = 0; el < v[3]->start[NROWS]; el++)
		v[3]->child[0]->iv[el] = (int64_t) ((el * 2654435761u) & 0xffff);

	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 4, names, types);
	ws = unit_make_writer(&ar, CH_FORMAT_NATIVE, 4, names, types);
	REQUIRE(w && ws);
	for (k = 0; k < sizeof(batches) / sizeof(batches[0]); k++)
	{
		int			c;

		for (c = 0; c < 4; c++)
			REQUIRE_STATUS(put_cols(ch_writer_column(w, c), v[c], from, batches[k], NULL, &err), CH_OK);
		REQUIRE_STATUS(ch_writer_end_rows(w, batches[k], &err), CH_OK);
		from += batches[k];
	}
	REQUIRE_EQ_UINT(from, NROWS);
	for (i = 0; i < NROWS; i++)
	{
		int			c;

		for (c = 0; c < 4; c++)
			REQUIRE_STATUS(put_one(ch_writer_column(ws, c), v[c], i, &err), CH_OK);
		REQUIRE_STATUS(ch_writer_end_row(ws, &err), CH_OK);
	}
	ch_buf_init(&out, NULL);
	ch_buf_init(&outs, NULL);
	REQUIRE_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
	REQUIRE_STATUS(ch_writer_flush(ws, &outs, &err), CH_OK);
	CHECK_MSG(out.len == outs.len && memcmp(out.data, outs.data, out.len) == 0,
			  "bulk block (%zu bytes) differs from the single appends' (%zu bytes)", out.len,
			  outs.len);

	r = ch_native_reader_create(NULL, false, NULL);
	ch_native_reader_feed(r, out.data, out.len, &err);
	ch_native_reader_finish(r);
	REQUIRE_STATUS(ch_native_reader_next(r, &b, &err), CH_OK);
	REQUIRE_EQ_UINT(b->nrows, NROWS);
	REQUIRE_EQ_UINT(b->ncols, 4);
	/* the default "" and the 5,000 values, in first-appearance order */
	CHECK_EQ_UINT(b->cols[1].lc_dict_rows, NDISTINCT + 1);
	CHECK_EQ_UINT(b->cols[1].lc_key_width, 2);
	for (i = 0; i < NROWS && bad < 10; i++)
	{
		uint32_t	len;
		const uint8_t *p;

		if (col_u64(&b->cols[0], i) != (uint64_t) v[0]->iv[i])
			bad += !CHECK_MSG(false, "row %zu: id", i);
		p = lc_str_at(&b->cols[1], i, &len);
		if (!p || len != v[1]->sl[i] || memcmp(p, v[1]->sv[i], len) != 0)
			bad += !CHECK_MSG(false, "row %zu: lc", i);
		if (i < NDISTINCT && ch_col_lc_key(&b->cols[1], i) != i + 1)
			bad += !CHECK_MSG(false, "row %zu: lc key %llu", i,
							  (unsigned long long) ch_col_lc_key(&b->cols[1], i));
		if (ch_col_is_null(&b->cols[2], i) != v[2]->isnull[i])
			bad += !CHECK_MSG(false, "row %zu: ns NULL", i);
		else if (!v[2]->isnull[i] && !col_str_eq(&b->cols[2].children[0], i, v[2]->sv[i], v[2]->sl[i]))
			bad += !CHECK_MSG(false, "row %zu: ns", i);
		ch_col_array_range(&b->cols[3], i, &s, &e);
		if (s != v[3]->start[i] || e != v[3]->start[i + 1])
			bad += !CHECK_MSG(false, "row %zu: arr range", i);
		else
			for (el = s; el < e; el++)
				if (col_u64(&b->cols[3].children[0], el) != (uint64_t) v[3]->child[0]->iv[el])
					bad += !CHECK_MSG(false, "row %zu: arr element %llu", i, (unsigned long long) el);
	}
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_END);
	ch_native_reader_free(r);
	ch_buf_free(&out);
	ch_buf_free(&outs);
	ch_writer_free(w);
	ch_writer_free(ws);
	ch_arena_free(&ar);
}

/*
 * The bulk string copies: the AVX-512 copy (when this CPU has it) and the
 * portable one give the same block as single appends, for every length
 * 0..80 (the masked copy's 32/33-byte edge, VarUInt's 127/128 further on
 * in the random part), NULL rows with a NULL pointer, strings ending at
 * the end of their allocation (ASan checks no byte past them is read).
 */
TEST(bulk_string_copies_simd_and_portable)
{
	static const char *const tn[] = {"String", "Nullable(String)"};
	size_t		t;

	for (t = 0; t < 2; t++)
	{
		const char *names[] = {"s"};
		const char *one[1] = {tn[t]};
		ch_arena	ar;
		ch_writer  *w[3];
		ch_buf		out[3];
		ch_error	err;
		enum
		{
			N = 400
		};
		const char *data[N];
		uint32_t	len[N];
		bool		nulls[N];
		char	   *own[N];
		uint64_t	seed = 0x5eed5eedULL + t;
		size_t		i,
					at;
		int			k;

		ch_arena_init(&ar, NULL);
		for (i = 0; i < N; i++)
		{
			uint32_t	j;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			len[i] = i <= 80 ? (uint32_t) i : (uint32_t) ((seed >> 33) % 200);
			nulls[i] = t == 1 && (seed >> 20) % 4 == 0;
			/* exactly len bytes of its own: a read past them is an ASan error */
			own[i] = malloc(len[i] ? len[i] : 1);
			REQUIRE(own[i] != NULL);
			for (j = 0; j < len[i]; j++)
				own[i][j] = (char) ('a' + (i + j) % 26);
			data[i] = nulls[i] ? NULL : own[i];
		}
		for (k = 0; k < 3; k++)
		{
			w[k] = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, one);
			REQUIRE(w[k] != NULL);
			ch_buf_init(&out[k], NULL);
		}
		/* w[0]: single appends; w[1]: bulk, portable copies; w[2]: bulk as the CPU allows */
		ch_w_force_portable(w[1]);
		for (i = 0; i < N; i++)
		{
			ch_colbuf  *c = ch_writer_column(w[0], 0);

			CHECK_STATUS(nulls[i] ? ch_col_append_null(c, &err) :
						 ch_col_append_bytes(c, data[i], len[i], &err), CH_OK);
			CHECK_STATUS(ch_writer_end_row(w[0], &err), CH_OK);
		}
		for (k = 1; k < 3; k++)
		{
			/* in uneven batches, so copies start at every alignment */
			size_t		from = 0,
						step = 1;

			while (from < N)
			{
				size_t		n = from + step > N ? N - from : step;

				CHECK_STATUS(ch_col_append_strings(ch_writer_column(w[k], 0), data + from, len + from,
												   t == 1 ? nulls + from : NULL, n, &at, &err), CH_OK);
				CHECK_STATUS(ch_writer_end_rows(w[k], n, &err), CH_OK);
				from += n;
				step = step * 3 % 97 + 1;
			}
		}
		for (k = 0; k < 3; k++)
			CHECK_STATUS(ch_writer_flush(w[k], &out[k], &err), CH_OK);
		CHECK_EQ_MEM(out[1].data, out[1].len, out[0].data, out[0].len);
		CHECK_EQ_MEM(out[2].data, out[2].len, out[0].data, out[0].len);
		for (k = 0; k < 3; k++)
		{
			ch_buf_free(&out[k]);
			ch_writer_free(w[k]);
		}
		for (i = 0; i < N; i++)
			free(own[i]);
		ch_arena_free(&ar);
	}
}
