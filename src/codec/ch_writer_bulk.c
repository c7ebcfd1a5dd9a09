/*-------------------------------------------------------------------------
 * ch_writer_bulk.c
 *	  Bulk appends: many values of one column at once (column at a time,
 *	  Native only; see ch_writer.h).
 *
 * Each function takes the column's append shortcut (chosen at create time,
 * see fast_kind in ch_writer_int.h) for the whole array: one reservation,
 * then a loop of range checks and stores. A value the shortcut does not
 * take (out of range, too long, a type without a shortcut) goes through
 * the same single append as ch_col_append_*, so the bytes, the checks and
 * the messages are those of n single appends; tests compare them byte for
 * byte.
 *
 * A Nullable column writes its null map for the n rows first, then the
 * values into its inner column (a NULL row gets the inner type's default,
 * as ch_col_append_null writes it).
 *
 * src/codec/ch_writer_bulk.c
 *-------------------------------------------------------------------------
 */
#include "ch_writer_int.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CH_AVX512_COPY 1
#endif

/* ---- string copies ---- */

bool
ch_w_cpu_simd(void)
{
#ifdef CH_AVX512_COPY
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
		__builtin_cpu_supports("bmi2");
#else
	return false;
#endif
}

void
ch_w_force_portable(ch_writer *w)
{
	w->simd = false;
}

/*
 * The copy loop of put_strings, for k strings (NULL rows as ""): VarUInt
 * length, bytes. COPY(dst, src, n) copies one string; it may write up to
 * 32 bytes past dst + n (the caller reserves them) but reads only the
 * string's own bytes.
 */
#define STRINGS_LOOP(COPY) \
	do { \
		for (i = 0; i < k; i++) \
		{ \
			uint32_t	l = len[i] & not_null_mask(isnull, i); \
			\
			if (CH_LIKELY(l < 0x80)) \
				*p++ = (uint8_t) l; \
			else \
				p += ch_varuint_encode(l, p); \
			COPY(p, data[i], l); \
			p += l; \
		} \
	} while (0)

static inline bool
is_null(const bool *isnull, size_t i)
{
	return isnull && isnull[i];
}

/*
 * All ones for a row with a value, 0 for a NULL row: len[i] & mask is the
 * row's length without a branch (NULLs come in random order: a branch on
 * them is mispredicted a third of the time at one NULL in three).
 */
static inline uint32_t
not_null_mask(const bool *isnull, size_t i)
{
	return isnull ? (uint32_t) isnull[i] - 1u : 0xffffffffu;
}

static uint8_t *
strings_portable(uint8_t *p, const char *const *data, const uint32_t *len, const bool *isnull,
				 size_t k)
{
	size_t		i;

	STRINGS_LOOP(copy_bytes);
	return p;
}

#ifdef CH_AVX512_COPY
/*
 * Up to 32 bytes with one masked load (the bytes past n are neither read
 * nor faulted on: masked-off lanes are suppressed) and one 32-byte store;
 * longer strings through memcpy. A string's length is as random as its
 * contents in most columns: this copy has no branch on it below 33 bytes,
 * where copy_bytes mispredicts (measured: 20-byte average strings, 4.6 vs
 * 9-11 ns per value). An empty string (and a NULL row) loads from dst, not
 * from its pointer: an all-masked load of an unmapped address does not
 * fault but is slow.
 */
#define COPY_MASKED(dst, src, n) \
	do { \
		if (CH_LIKELY((n) <= 32)) \
		{ \
			__mmask32	m_ = _bzhi_u32(0xffffffffu, (unsigned) (n)); \
			uintptr_t	any_ = (uintptr_t) 0 - ((n) != 0); \
			const void *s_ = (const void *) (((uintptr_t) (src) & any_) | \
											 ((uintptr_t) (dst) & ~any_)); \
			\
			_mm256_storeu_si256((void *) (dst), _mm256_maskz_loadu_epi8(m_, s_)); \
		} \
		else \
			memcpy((dst), (src), (n)); \
	} while (0)

__attribute__((target("avx512bw,avx512vl,bmi2")))
static uint8_t *
strings_avx512(uint8_t *p, const char *const *data, const uint32_t *len, const bool *isnull,
			   size_t k)
{
	size_t		i;

	STRINGS_LOOP(COPY_MASKED);
	return p;
}
#endif

/* ---- shared steps ---- */

static ch_status
not_columnar(ch_colbuf *c, ch_error *err)
{
	return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
						"bulk appends need a Native writer (RowBinary is written row by row); "
						"column of ClickHouse type %s", c->type->name);
}


/*
 * Reserve room for n values of per bytes plus extra, overflow-checked.
 */
static ch_status
reserve_n(ch_colbuf *c, ch_buf *b, size_t n, size_t per, size_t extra, ch_error *err)
{
	if (n > (SIZE_MAX - extra) / per || ch_buf_reserve(b, n * per + extra) != CH_OK)
		return buffer_nomem(c, err);
	return CH_OK;
}

/* isnull, or NULL when it marks no row */
static const bool *
nulls_or_none(const bool *isnull, size_t n)
{
	return isnull && memchr(isnull, 1, n) ? isnull : NULL;
}

/*
 * Where the values of n rows go: a Nullable column's null map gets its n
 * flags now and the values go to its inner column; any other column takes
 * them itself. NULL on a memory failure (*st set).
 */
static ch_colbuf *
bulk_target(ch_colbuf *c, const bool *isnull, size_t n, ch_error *err, ch_status *st)
{
	ch_buf	   *b = c->out;

	*st = CH_OK;
	if (c->fast != FK_NULLABLE)
		return c;
	if ((*st = reserve_n(c, b, n, 1, 0, err)) != CH_OK)
		return NULL;
	if (isnull)
		memcpy(b->data + b->len, isnull, n);	/* a bool is 0 or 1: the flags */
	else
		memset(b->data + b->len, 0, n);
	b->len += n;
	c->nvalues += n;
	return c->children;
}

/* *at = i (if wanted), and the status */
static inline ch_status
failed_at(size_t i, size_t *at, ch_status st)
{
	if (at)
		*at = i;
	return st;
}

/*
 * What every bulk append starts with: a Native writer, nothing to do for
 * n = 0, isnull dropped when it marks no row, a Nullable's null map.
 * Returns false when the call is over (*st is its result), else *t is the
 * column the values go to. Always inlined: out of line, the addresses of
 * the caller's isnull and t escape, and the compiler reloads them in every
 * iteration of the store loops (measured: metrics 7.5 -> 10.5 ns/row).
 */
static inline __attribute__((always_inline)) bool
bulk_start(ch_colbuf *c, const bool **isnull, size_t n, size_t *at, ch_error *err,
		   ch_colbuf **t, ch_status *st)
{
	*st = CH_OK;
	if (!ch_writer_columnar(c->w))
	{
		*st = not_columnar(c, err);
		return false;
	}
	if (n == 0)
		return false;			/* (and no store into a buffer never used) */
	*isnull = nulls_or_none(*isnull, n);
	if (!(*t = bulk_target(c, *isnull, n, err, st)))
	{
		failed_at(0, at, *st);
		return false;
	}
	return true;
}

/*
 * Rows [i, n) one by one through the single append CALL (a value out of
 * the shortcut's range gets its message there; types without a shortcut).
 */
#define SINGLE_REST(CALL) \
	do { \
		for (; i < n; i++) \
		{ \
			st = is_null(isnull, i) ? single_null(c, t, err) : (CALL); \
			if (st != CH_OK) \
				return failed_at(i, at, st); \
		} \
		return CH_OK; \
	} while (0)

/*
 * Row i through the single appends: a NULL is the inner default under a
 * Nullable (its flag is written) or ch_col_append_null on the column.
 */
static inline ch_status
single_null(ch_colbuf *c, ch_colbuf *t, ch_error *err)
{
	return t != c ? ch_col_append_default(t, err) : ch_col_append_null(c, err);
}

/* ---- integers ---- */

/*
 * FK_INT: store rows [0, n) of v (NULL rows as 0, which every FK_INT range
 * holds) until the first value outside [lo, hi]. Returns how many were
 * stored. Room for n values plus 8 bytes is reserved by the caller: each
 * store writes 8 bytes and advances the column's width.
 */
static size_t
put_ints(ch_colbuf *t, const int64_t *v, const bool *isnull, size_t n)
{
	ch_buf	   *b = t->out;
	uint8_t    *p = b->data + b->len;
	const int64_t lo = t->lo,
				hi = t->hi;
	const unsigned w = t->width;
	size_t		i;

	for (i = 0; i < n; i++)
	{
		/* a NULL row stores 0 (every FK_INT range holds it), branch-free */
		int64_t		x = (int64_t) ((uint64_t) v[i] & (uint64_t) (int32_t) not_null_mask(isnull, i));

		if (CH_UNLIKELY(x < lo || x > hi))
			break;
		ch_put_le64(p, (uint64_t) x);
		p += w;
	}
	b->len = (size_t) (p - b->data);
	t->nvalues += i;
	return i;
}

ch_status
ch_col_append_ints(ch_colbuf *c, const int64_t *v, const bool *isnull, size_t n,
				   size_t *at, ch_error *err)
{
	ch_colbuf  *t;
	ch_status	st;
	size_t		i = 0;

	if (!bulk_start(c, &isnull, n, at, err, &t, &st))
		return st;
	if (t->fast == FK_INT && (t != c || !isnull))
	{
		if ((st = reserve_n(t, t->out, n, t->width, 8, err)) != CH_OK)
			return failed_at(0, at, st);
		i = put_ints(t, v, isnull, n);
		if (i == n)
			return CH_OK;
	}
	SINGLE_REST(ch_col_append_int(t, v[i], err));
}

/* ---- floats ---- */

static size_t
put_floats(ch_colbuf *t, const double *v, const bool *isnull, size_t n)
{
	ch_buf	   *b = t->out;
	uint8_t    *p = b->data + b->len;
	size_t		i;

	if (t->fast == FK_FLOAT64)
	{
		for (i = 0; i < n; i++)
		{
			uint64_t	bits;

			memcpy(&bits, &v[i], 8);
			/* a NULL row stores +0.0, branch-free */
			ch_put_le64(p + 8 * i, bits & (uint64_t) (int32_t) not_null_mask(isnull, i));
		}
		p += 8 * n;
	}
	else
	{
		/* FK_FLOAT32: a finite double beyond Float32's range stops here */
		for (i = 0; i < n; i++)
		{
			double		x = is_null(isnull, i) ? 0.0 : v[i];
			float		f = (float) x;
			uint32_t	bits;

			if (CH_UNLIKELY(!isfinite(f) && isfinite(x)))
				break;
			memcpy(&bits, &f, 4);
			ch_put_le32(p, bits);
			p += 4;
		}
	}
	b->len = (size_t) (p - b->data);
	t->nvalues += i;
	return i;
}

ch_status
ch_col_append_floats(ch_colbuf *c, const double *v, const bool *isnull, size_t n,
					 size_t *at, ch_error *err)
{
	ch_colbuf  *t;
	ch_status	st;
	size_t		i = 0;

	if (!bulk_start(c, &isnull, n, at, err, &t, &st))
		return st;
	if ((t->fast == FK_FLOAT64 || t->fast == FK_FLOAT32) && (t != c || !isnull))
	{
		if ((st = reserve_n(t, t->out, n, t->width, 0, err)) != CH_OK)
			return failed_at(0, at, st);
		i = put_floats(t, v, isnull, n);
		if (i == n)
			return CH_OK;
	}
	SINGLE_REST(ch_col_append_float(t, v[i], err));
}

/* ---- strings ---- */

/*
 * FK_STRING: the bytes of rows [0, n) (NULL rows as ""), stopping before
 * the first string over ClickHouse's 1 GiB limit. Reserves once.
 */
static size_t
put_strings(ch_colbuf *t, const char *const *data, const uint32_t *len, const bool *isnull,
			size_t n, ch_error *err, ch_status *st)
{
	ch_buf	   *b = t->out;
	size_t		total = 0,
				k;
	uint8_t    *p;
	bool		over = false;

	*st = CH_OK;
	/* the bytes to reserve, without a branch per row (NULLs are random) */
	for (k = 0; k < n; k++)
	{
		uint32_t	l = len[k] & not_null_mask(isnull, k);

		over |= l > 0x40000000;
		total += l;
	}
	if (CH_UNLIKELY(over))
	{
		/* store up to the first string over the limit */
		total = 0;
		for (k = 0; k < n; k++)
		{
			uint32_t	l = is_null(isnull, k) ? 0 : len[k];

			if (l > 0x40000000)
				break;
			total += l;
		}
	}
	if (k == 0)
		return 0;
	/* lengths take at most 5 bytes each (<= 1 GiB); COPY_MASKED's slack */
	if (reserve_n(t, b, k, 5, total + 32, err) != CH_OK)
	{
		*st = CH_ERR_NOMEM;
		return 0;
	}
	p = b->data + b->len;
#ifdef CH_AVX512_COPY
	if (t->w->simd)
		p = strings_avx512(p, data, len, isnull, k);
	else
#endif
		p = strings_portable(p, data, len, isnull, k);
	b->len = (size_t) (p - b->data);
	t->nvalues += k;
	return k;
}

ch_status
ch_col_append_strings(ch_colbuf *c, const char *const *data, const uint32_t *len,
					  const bool *isnull, size_t n, size_t *at, ch_error *err)
{
	ch_colbuf  *t;
	ch_status	st;
	size_t		i = 0;

	if (!bulk_start(c, &isnull, n, at, err, &t, &st))
		return st;
	if (t->fast == FK_LC_STRING)
		return ch_w_lc_append_strings(t, data, len, isnull, n, at, err);
	if (t->fast == FK_STRING && (t != c || !isnull))
	{
		i = put_strings(t, data, len, isnull, n, err, &st);
		if (st != CH_OK)
			return failed_at(0, at, st);
		if (i == n)
			return CH_OK;
	}
	SINGLE_REST(ch_col_append_bytes(t, data[i], len[i], err));
}

/* ---- array sizes ---- */

ch_status
ch_col_append_array_sizes(ch_colbuf *c, const uint32_t *counts, size_t n, size_t *at,
						  ch_error *err)
{
	ch_type_kind k = c->type->kind;
	uint64_t	got;
	uint8_t    *p;
	size_t		i;

	if (!ch_writer_columnar(c->w))
		return not_columnar(c, err);
	if (n == 0)
		return CH_OK;			/* (and no store into a buffer never used) */
	if (k != CH_T_ARRAY && k != CH_T_MAP && k != CH_T_NESTED)
		return failed_at(0, at, ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
											 "cannot write an array into ClickHouse type %s",
											 c->type->name));
	if (c->in_array)
		return failed_at(0, at, ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "array begun twice"));
	/* the elements of the arrays before these must all be there */
	if ((got = col_count(&c->children[0])) != c->elems)
		return failed_at(0, at, ch_w_missing_elements(c, got, err));
	if (reserve_n(c, &c->aux, n, 8, 0, err) != CH_OK)
		return failed_at(0, at, CH_ERR_NOMEM);
	p = c->aux.data + c->aux.len;
	for (i = 0; i < n; i++)
	{
		c->elems += counts[i];
		ch_put_le64(p + 8 * i, c->elems);
	}
	c->aux.len += 8 * n;
	c->nvalues += n;
	return CH_OK;
}
