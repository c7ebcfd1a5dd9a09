/*-------------------------------------------------------------------------
 * ch_writer_int.h
 *	  The block writer's internals, shared by ch_writer.c (single appends,
 *	  dictionaries, serialisation) and ch_writer_bulk.c (appends of many
 *	  values at once). Not part of the codec's interface.
 *
 * src/codec/ch_writer_int.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_WRITER_INT_H
#define CH_WRITER_INT_H

#include "ch_writer.h"

#include <string.h>

/*
 * One slot of a LowCardinality dictionary's hash table. A key of at most 16
 * bytes is held in the slot itself, as two words that together cover all
 * its bytes (see key_words), so a lookup compares one slot and never reads
 * the dictionary data. A longer key keeps its hash and the offset of its
 * bytes in the dictionary column's data (for a String, after its length
 * prefix).
 */

typedef struct lc_slot
{
	uint32_t	idx1;			/* entry index + 1; 0 = empty */
	uint32_t	len;			/* key length in bytes */
	uint64_t	a;				/* short key: first word; long key: its hash */
	uint64_t	b;				/* short key: last word; long key: offset of
								 * its bytes in the dictionary data */
} lc_slot;

/*
 * A lookup put off so that its slot can be prefetched (large tables, see
 * lc_append_deferred): the key without its bytes (a short key is its
 * words; a long key's bytes wait in lc_dict.stage) and where its index goes.
 */
typedef struct lc_pending
{
	uint64_t	a;				/* as lc_slot.a */
	uint64_t	b;				/* as lc_slot.b (short key) */
	uint64_t	hv;				/* hash */
	uint64_t	keypos;			/* offset of the row's index in aux */
	uint64_t	soff;			/* long key: offset of its bytes in stage */
	uint32_t	n;				/* key length */
} lc_pending;

typedef struct lc_dict
{
	lc_slot    *slots;			/* open addressing, linear probing */
	uint32_t	nslots;			/* power of two, >= 2 * nentries */
	uint32_t	nentries;		/* dictionary rows (the NULL slot included) */
	lc_pending *ring;			/* FIFO of LC_RING pending lookups, or NULL */
	uint32_t	rhead;			/* oldest pending lookup */
	uint32_t	rcount;			/* pending lookups */
	size_t		rbytes;			/* dictionary bytes reserved for them */
	ch_buf		stage;			/* bytes of pending long keys */
} lc_dict;

/*
 * The append shortcut of a column, chosen once at create time from its type
 * and the format, so that a typed append on a common column is one test,
 * a range check and a store into reserved space. Anything else (errors
 * included: the shortcut never fails a value, it hands it to the generic
 * path, which produces the message) goes through append_value.
 */
typedef enum fast_kind
{
	FK_NONE = 0,				/* generic path only */
	FK_INT,						/* integer of width 1, 2, 4 or 8 accepting [lo, hi] */
	FK_FLOAT64,
	FK_FLOAT32,
	FK_STRING,					/* String; in RowBinary also LowCardinality(String) */
	FK_NULLABLE,				/* Nullable(T): flag 0 into out, then T's shortcut */
	FK_LC_STRING				/* Native LowCardinality([Nullable(]String[)]) */
} fast_kind;

struct ch_colbuf
{
	/* hot: what the append shortcuts read */
	ch_buf	   *out;			/* values (Native: data; RowBinary: the rows);
								 * Nullable: the null map */
	uint8_t		fast;			/* fast_kind */
	uint8_t		width;			/* FK_INT / FK_FLOAT*: bytes per value */
	int64_t		lo;				/* FK_INT: smallest signed value accepted */
	int64_t		hi;				/* FK_INT: largest signed value accepted */
	uint64_t	uhi;			/* FK_INT: largest unsigned value accepted */
	uint64_t	nvalues;
	ch_colbuf  *children;
	ch_writer  *w;
	const ch_type *type;
	ch_buf		data;
	ch_buf		aux;
	int			nchildren;
	/* Array / Map / Nested in progress */
	bool		in_array;
	uint64_t	expect;
	uint64_t	base;
	uint64_t	elems;			/* elements the arrays so far announce (the
								 * last offset) */
	/* LowCardinality */
	ch_colbuf  *dict;			/* inner type, without Nullable */
	bool		lc_nullable;
	lc_dict		h;
	/* Decimal bound: 10^precision as 256-bit little-endian words */
	uint64_t	dec_limit[4];
};

struct ch_writer
{
	const ch_allocator *a;
	ch_format	fmt;
	int			ncols;
	const char *const *names;
	ch_colbuf  *cols;
	const uint64_t **counts;	/* per column: the count end_row checks */
	uint64_t	rows;
	ch_buf		rb;				/* RowBinary rows */
	bool		simd;			/* bulk string copies may use AVX-512 (see
								 * ch_writer_bulk.c) */
};

/* ---- the append shortcuts' stores ---- */

static inline ch_status
buffer_nomem(ch_colbuf *c, ch_error *err)
{
	return ch_error_set(err, CH_ERR_NOMEM, "out of memory buffering a block for ClickHouse type %s",
						c->type->name);
}

/*
 * Store a fixed-width value (FK_INT, FK_FLOAT*): always 8 little-endian
 * bytes into reserved space, of which the column's width count, so no
 * per-width branch.
 */
static inline ch_status
put_word(ch_colbuf *c, uint64_t u, ch_error *err)
{
	ch_buf	   *b = c->out;

	if (CH_UNLIKELY(b->cap - b->len < 8) && ch_buf_grow(b, 8) != CH_OK)
		return buffer_nomem(c, err);
	ch_put_le64(b->data + b->len, u);
	b->len += c->width;
	c->nvalues++;
	return CH_OK;
}

/*
 * memcpy for the short strings most columns hold: up to 32 bytes as a few
 * overlapping word loads and stores (never reading before src or past
 * src + n, never writing past dst + n), longer ones through memcpy. Saves
 * the library call, which costs more than the copy at these sizes.
 */
static inline void
copy_bytes(uint8_t *dst, const void *src, size_t n)
{
	const uint8_t *s = (const uint8_t *) src;

	if (n >= 8)
	{
		uint64_t	a,
					b,
					c,
					d;

		if (n > 32)
		{
			memcpy(dst, s, n);
			return;
		}
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		if (n > 16)
		{
			memcpy(&c, s + 8, 8);
			memcpy(&d, s + n - 16, 8);
			memcpy(dst + 8, &c, 8);
			memcpy(dst + n - 16, &d, 8);
		}
		memcpy(dst, &a, 8);
		memcpy(dst + n - 8, &b, 8);
	}
	else if (n >= 4)
	{
		uint32_t	a,
					b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(dst, &a, 4);
		memcpy(dst + n - 4, &b, 4);
	}
	else if (n > 0)
	{
		dst[0] = s[0];
		dst[n / 2] = s[n / 2];
		dst[n - 1] = s[n - 1];
	}
}

/* A String value (len <= 1 GiB, checked by the caller): VarUInt length, bytes. */
static inline ch_status
put_string(ch_colbuf *c, const void *data, size_t len, ch_error *err)
{
	ch_buf	   *b = c->out;
	uint8_t    *p;

	if (CH_UNLIKELY(b->cap - b->len < len + 10) && ch_buf_grow(b, len + 10) != CH_OK)
		return buffer_nomem(c, err);
	p = b->data + b->len;
	if (CH_LIKELY(len < 0x80))
		*p++ = (uint8_t) len;
	else
		p += ch_varuint_encode(len, p);
	copy_bytes(p, data, len);
	b->len = (size_t) (p - b->data) + len;
	c->nvalues++;
	return CH_OK;
}

/* A Nullable's flag (0 value, 1 NULL) into its null map or the row. */
static inline ch_status
put_flag(ch_colbuf *c, uint8_t flag, ch_error *err)
{
	ch_buf	   *b = c->out;

	if (CH_UNLIKELY(b->cap == b->len) && ch_buf_grow(b, 1) != CH_OK)
		return buffer_nomem(c, err);
	b->data[b->len++] = flag;
	c->nvalues++;
	return CH_OK;
}

/* Values at c's level; a Tuple keeps no count of its own: its first leaf's. */
static inline uint64_t
col_count(const ch_colbuf *c)
{
	while (c->type->kind == CH_T_TUPLE && c->nchildren)
		c = &c->children[0];
	return c->type->kind == CH_T_TUPLE ? 0 : c->nvalues;
}

/*
 * Entry points of ch_writer.c used by the bulk appends (ch_writer_bulk.c):
 * the generic single appends (every check, every message) and the
 * LowCardinality(String) lookup.
 */
extern ch_status ch_w_append_int_slow(ch_colbuf *c, int64_t v, bool is_unsigned, ch_error *err);
extern ch_status ch_w_append_float_slow(ch_colbuf *c, double v, ch_error *err);
extern ch_status ch_w_append_bytes_slow(ch_colbuf *c, const void *data, size_t len, ch_error *err);
/* Does this CPU have what the AVX-512 string copies need? */
extern bool ch_w_cpu_simd(void);

/* Tests: make w use the portable copies only. */
extern void ch_w_force_portable(ch_writer *w);
extern ch_status ch_w_missing_elements(ch_colbuf *c, uint64_t got, ch_error *err);
extern ch_status ch_w_lc_append_strings(ch_colbuf *c, const char *const *data, const uint32_t *len,
										const bool *isnull, size_t n, size_t *at, ch_error *err);

#endif							/* CH_WRITER_INT_H */
