/*-------------------------------------------------------------------------
 * ch_writer.c
 *	  Typed column appends serialised as Native blocks or RowBinary rows.
 *
 * Layout references: ../shared/docs/clickhouse-wire.md sections 1.5
 * (Native encodings, the "prefix phase", LowCardinality) and 2.1
 * (RowBinary).
 *
 * Invariants:
 *	- A colbuf's nvalues counts the values appended at its level; for Native
 *	  the bytes are in data (values), aux (null map, array offsets or
 *	  LowCardinality keys) and the children.
 *	- In RowBinary mode every append writes straight into the writer's row
 *	  buffer, in the order the caller appends (row-major).
 *	- LowCardinality dictionaries are per block: reset on flush. Index 0 is
 *	  the default value (and, for LowCardinality(Nullable(T)), the NULL slot,
 *	  with the default at index 1), as the server writes them.
 *
 * src/codec/ch_writer.c
 *-------------------------------------------------------------------------
 */
#include "ch_writer.h"
#include "ch_writer_int.h"
#include "ch_lc_key.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

/* pending lookups per column: enough to cover a memory access */
#define LC_RING 16
/*
 * Tables from this many slots (beyond L1) defer their lookups. A build may
 * lower it to test the deferred path with small dictionaries: at 128 every
 * table defers from its first key, at 256 a table looks up directly up to
 * 32 keys, then defers (the writer_bulk fuzz target). It must be a power
 * of two >= 128.
 */
#ifndef LC_DEFER_SLOTS
#define LC_DEFER_SLOTS 8192
#endif

static ch_status write_value_fixed(ch_colbuf *c, const void *p, size_t n, ch_error *err);

/* ---- setup ---- */

static bool
writable(const ch_type *t, ch_error *err)
{
	int			i;

	switch (t->kind)
	{
		case CH_T_AGGREGATE_FUNCTION:
		case CH_T_JSON:
		case CH_T_VARIANT:
		case CH_T_DYNAMIC:
		case CH_T_NOTHING:
			ch_error_set(err, CH_ERR_UNSUPPORTED, "cannot write values of ClickHouse type %s", t->name);
			return false;
		case CH_T_TUPLE:
			if (t->nchildren == 0)
			{
				ch_error_set(err, CH_ERR_UNSUPPORTED, "cannot write values of ClickHouse type %s", t->name);
				return false;
			}
			break;
		case CH_T_LOWCARDINALITY:
			{
				/* a dictionary of strings or fixed-width values, as ClickHouse allows */
				const ch_type *inner = ch_type_unwrap(t);

				if (inner->kind != CH_T_STRING && inner->width == 0)
				{
					ch_error_set(err, CH_ERR_UNSUPPORTED, "cannot write values of ClickHouse type %s", t->name);
					return false;
				}
				break;
			}
		default:
			break;
	}
	for (i = 0; i < t->nchildren; i++)
		if (!writable(t->children[i], err))
			return false;
	return true;
}

static void
decimal_limit(ch_colbuf *c)
{
	int			i,
				k;

	memset(c->dec_limit, 0, sizeof(c->dec_limit));
	c->dec_limit[0] = 1;
	for (i = 0; i < c->type->precision; i++)
	{
		unsigned __int128 carry = 0;

		for (k = 0; k < 4; k++)
		{
			unsigned __int128 v = (unsigned __int128) c->dec_limit[k] * 10 + carry;

			c->dec_limit[k] = (uint64_t) v;
			carry = v >> 64;
		}
	}
}

/*
 * FK_INT for the integer types whose check is a plain range and whose
 * width is 1, 2, 4 or 8 bytes; the bounds are those append_int_inner
 * checks (clamped to what a signed / unsigned 64-bit argument can hold).
 */
static void
int_range(ch_colbuf *c)
{
	const ch_type *t = c->type;
	__int128	lo,
				hi;

	switch (t->kind)
	{
		case CH_T_UINT8:
			lo = 0, hi = 0xff;
			break;
		case CH_T_BOOL:
			lo = 0, hi = 1;
			break;
		case CH_T_UINT16:
		case CH_T_DATE:
			lo = 0, hi = 0xffff;
			break;
		case CH_T_UINT32:
		case CH_T_DATETIME:
		case CH_T_IPV4:
			lo = 0, hi = 0xffffffffLL;
			break;
		case CH_T_UINT64:
			lo = 0, hi = UINT64_MAX;
			break;
		case CH_T_INT8:
			lo = -128, hi = 127;
			break;
		case CH_T_INT16:
			lo = -32768, hi = 32767;
			break;
		case CH_T_DATE32:
			lo = -25567, hi = 120529;
			break;
		case CH_T_INT32:
		case CH_T_TIME:
			lo = INT32_MIN, hi = INT32_MAX;
			break;
		case CH_T_INT64:
		case CH_T_TIME64:
		case CH_T_INTERVAL:
			lo = INT64_MIN, hi = INT64_MAX;
			break;
		case CH_T_DATETIME64:
			{
				__int128	mul = 1;
				int			i;

				if (t->scale < 0 || t->scale > 18)
					return;
				for (i = 0; i < t->scale; i++)
					mul *= 10;
				lo = (__int128) -2208988800LL * mul;
				hi = (__int128) 10413792000LL * mul - 1;
				break;
			}
		case CH_T_DECIMAL:
			if (t->width > 8 || c->dec_limit[1] || c->dec_limit[2] || c->dec_limit[3])
				return;
			lo = -(__int128) (c->dec_limit[0] - 1);
			hi = c->dec_limit[0] - 1;
			break;
		default:
			return;
	}
	if (t->width != 1 && t->width != 2 && t->width != 4 && t->width != 8)
		return;
	c->fast = FK_INT;
	c->width = (uint8_t) t->width;
	c->lo = lo < INT64_MIN ? INT64_MIN : (int64_t) lo;
	c->hi = hi > INT64_MAX ? INT64_MAX : (int64_t) hi;
	c->uhi = hi > (__int128) UINT64_MAX ? UINT64_MAX : (uint64_t) hi;
}

/* Set c's output buffer and append shortcut (after its children's). */
static void
choose_fast(ch_writer *w, ch_colbuf *c)
{
	bool		rb = w->fmt == CH_FORMAT_ROWBINARY;

	c->out = rb ? &w->rb : &c->data;
	c->fast = FK_NONE;
	switch (c->type->kind)
	{
		case CH_T_NULLABLE:
			c->out = rb ? &w->rb : &c->aux;
			if (c->children[0].type->kind != CH_T_NULLABLE)
				c->fast = FK_NULLABLE;
			break;
		case CH_T_STRING:
			c->fast = FK_STRING;
			break;
		case CH_T_FLOAT64:
			c->fast = FK_FLOAT64;
			c->width = 8;
			break;
		case CH_T_FLOAT32:
			c->fast = FK_FLOAT32;
			c->width = 4;
			break;
		case CH_T_LOWCARDINALITY:
			if (c->dict->type->kind == CH_T_STRING)
			{
				if (!rb)
					c->fast = FK_LC_STRING;
				else if (!c->lc_nullable)
					c->fast = FK_STRING;	/* invisible in RowBinary */
			}
			break;
		default:
			int_range(c);
			break;
	}
}

static ch_status
init_col(ch_writer *w, ch_colbuf *c, const ch_type *t, ch_error *err)
{
	int			i;
	ch_status	st;

	memset(c, 0, sizeof(*c));
	c->w = w;
	c->type = t;
	ch_buf_init(&c->data, w->a);
	ch_buf_init(&c->aux, w->a);
	ch_buf_init(&c->h.stage, w->a);
	if (t->kind == CH_T_DECIMAL)
		decimal_limit(c);
	if (t->kind == CH_T_LOWCARDINALITY)
	{
		const ch_type *inner = t->children[0];

		if (inner->kind == CH_T_NULLABLE)
		{
			c->lc_nullable = true;
			inner = inner->children[0];
		}
		c->dict = ch_alloc(w->a, sizeof(ch_colbuf));
		if (!c->dict)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		if ((st = init_col(w, c->dict, inner, err)) != CH_OK)
			return st;
		choose_fast(w, c);
		return CH_OK;
	}
	if (t->nchildren > 0)
	{
		c->nchildren = t->nchildren;
		c->children = ch_alloc(w->a, sizeof(ch_colbuf) * t->nchildren);
		if (!c->children)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		memset(c->children, 0, sizeof(ch_colbuf) * t->nchildren);
		for (i = 0; i < t->nchildren; i++)
		{
			if ((st = init_col(w, &c->children[i], t->children[i], err)) != CH_OK)
				return st;
		}
	}
	choose_fast(w, c);
	return CH_OK;
}

static void
free_col(ch_writer *w, ch_colbuf *c)
{
	int			i;

	if (!c->type)
		return;
	ch_buf_free(&c->data);
	ch_buf_free(&c->aux);
	for (i = 0; i < c->nchildren; i++)
		free_col(w, &c->children[i]);
	ch_free(w->a, c->children);
	if (c->dict)
	{
		free_col(w, c->dict);
		ch_free(w->a, c->dict);
	}
	ch_free(w->a, c->h.slots);
	ch_free(w->a, c->h.ring);
	ch_buf_free(&c->h.stage);
}

ch_writer *
ch_writer_create(const ch_allocator *a, ch_format fmt, int ncols,
				 const char *const *names, const ch_type *const *types,
				 ch_error *err)
{
	ch_writer  *w;
	int			i;

	a = ch_alloc_or_default(a);
	for (i = 0; i < ncols; i++)
		if (!writable(types[i], err))
			return NULL;
	w = ch_alloc(a, sizeof(*w));
	if (!w)
	{
		ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		return NULL;
	}
	memset(w, 0, sizeof(*w));
	w->a = a;
	w->fmt = fmt;
	w->simd = ch_w_cpu_simd();
	w->ncols = ncols;
	w->names = names;
	ch_buf_init(&w->rb, a);
	w->cols = ch_alloc(a, sizeof(ch_colbuf) * (ncols ? ncols : 1));
	if (!w->cols)
	{
		ch_free(a, w);
		ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		return NULL;
	}
	memset(w->cols, 0, sizeof(ch_colbuf) * (ncols ? ncols : 1));
	w->counts = ch_alloc(a, sizeof(uint64_t *) * (ncols ? ncols : 1));
	if (!w->counts)
	{
		ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		ch_writer_free(w);
		return NULL;
	}
	for (i = 0; i < ncols; i++)
	{
		const ch_colbuf *leaf;

		if (init_col(w, &w->cols[i], types[i], err) != CH_OK)
		{
			ch_writer_free(w);
			return NULL;
		}
		/* what col_count reads: a Tuple counts its first leaf */
		for (leaf = &w->cols[i]; leaf->type->kind == CH_T_TUPLE; leaf = &leaf->children[0])
			;
		w->counts[i] = &leaf->nvalues;
	}
	return w;
}

void
ch_writer_free(ch_writer *w)
{
	int			i;

	if (!w)
		return;
	for (i = 0; i < w->ncols; i++)
		free_col(w, &w->cols[i]);
	ch_free(w->a, w->cols);
	ch_free(w->a, w->counts);
	ch_buf_free(&w->rb);
	ch_free(w->a, w);
}

ch_colbuf *
ch_writer_column(ch_writer *w, int i)
{
	return (i >= 0 && i < w->ncols) ? &w->cols[i] : NULL;
}

ch_colbuf *
ch_col_child(ch_colbuf *c, int i)
{
	return (i >= 0 && i < c->nchildren) ? &c->children[i] : NULL;
}

const ch_type *
ch_col_type(const ch_colbuf *c)
{
	return c->type;
}

uint64_t
ch_writer_rows(const ch_writer *w)
{
	return w->rows;
}

static size_t
col_bytes(const ch_colbuf *c)
{
	size_t		n = c->data.len + c->aux.len;
	int			i;

	for (i = 0; i < c->nchildren; i++)
		n += col_bytes(&c->children[i]);
	if (c->dict)
		n += col_bytes(c->dict);
	return n;
}

size_t
ch_writer_bytes(const ch_writer *w)
{
	size_t		n = w->rb.len;
	int			i;

	for (i = 0; i < w->ncols; i++)
		n += col_bytes(&w->cols[i]);
	return n;
}

/* ---- low-level output ---- */

static inline ch_buf *
out_buf(ch_colbuf *c)
{
	return c->w->fmt == CH_FORMAT_ROWBINARY ? &c->w->rb : &c->data;
}

static ch_status
put(ch_colbuf *c, ch_buf *b, const void *p, size_t n, ch_error *err)
{
	if (ch_buf_append(b, p, n) != CH_OK)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory buffering a block for ClickHouse type %s",
							c->type->name);
	return CH_OK;
}

static ch_status
range_error(ch_colbuf *c, ch_error *err, const char *what)
{
	return ch_error_set(err, CH_ERR_LIMIT, "value %s is out of range for ClickHouse type %s",
						what, c->type->name);
}

static ch_status
wrong_kind(ch_colbuf *c, const char *what, ch_error *err)
{
	return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "cannot write %s into ClickHouse type %s",
						what, c->type->name);
}

/* ---- LowCardinality dictionary ---- */

/*
 * The key of the dictionary entry at off: a String's bytes (after the
 * VarUInt length, which we wrote ourselves), else the fixed-width value.
 */
static const uint8_t *
entry_key(const ch_colbuf *d, uint64_t off, size_t *n)
{
	const uint8_t *e = d->data.data + off;

	if (d->type->kind == CH_T_STRING)
	{
		uint64_t	len = 0;
		int			shift = 0;

		while ((*e & 0x80) != 0)
		{
			len |= (uint64_t) (*e++ & 0x7f) << shift;
			shift += 7;
		}
		len |= (uint64_t) *e++ << shift;
		*n = (size_t) len;
		return e;
	}
	*n = d->type->width;
	return e;
}

/*
 * A long key (over 16 bytes) against the dictionary bytes at off (same
 * hash and length already): up to 32 bytes as four overlapping words, no
 * library call.
 */
static inline bool
long_key_equals(const ch_colbuf *d, uint64_t off, const lc_key *k)
{
	const uint8_t *e = d->data.data + off;
	size_t		n = k->n;

	if (n <= 32)
		return ((ch_le64(e) ^ ch_le64(k->p)) | (ch_le64(e + 8) ^ ch_le64(k->p + 8)) |
				(ch_le64(e + n - 16) ^ ch_le64(k->p + n - 16)) |
				(ch_le64(e + n - 8) ^ ch_le64(k->p + n - 8))) == 0;
	return memcmp(e, k->p, n) == 0;
}

/*
 * The slot holding key k, or the empty slot where it goes. The table
 * always has a free slot (nslots >= 2 * nentries).
 */
static inline lc_slot *
dict_probe(const ch_colbuf *c, const lc_key *k)
{
	const lc_dict *h = &c->h;
	uint32_t	mask = h->nslots - 1;
	uint32_t	s = (uint32_t) k->hv & mask;

	for (;;)
	{
		lc_slot    *sl = &h->slots[s];

		if (sl->idx1 == 0)
			return sl;
		if (sl->a == k->a && sl->len == k->n &&
			(k->n <= LC_SHORT_KEY ? sl->b == k->b : long_key_equals(c->dict, sl->b, k)))
			return sl;
		s = (s + 1) & mask;
	}
}

/* off: where the key's bytes are in the dictionary data (a long key's b) */
static inline void
slot_fill(lc_slot *sl, const lc_key *k, uint32_t idx, uint64_t off)
{
	sl->idx1 = idx + 1;
	sl->len = (uint32_t) k->n;
	sl->a = k->a;
	sl->b = k->n <= LC_SHORT_KEY ? k->b : off;
}

/*
 * Would a table holding `entries` keys be too full? Tables that fit in
 * L1/L2 (below LC_DEFER_SLOTS) stay at most a quarter full, so a lookup
 * almost never probes a second slot (a mispredicted loop: at half full,
 * dims spent ~20% longer per value); larger ones half full, to keep their
 * cache footprint.
 */
static inline bool
dict_full(const lc_dict *h, uint64_t entries)
{
	return entries * (h->nslots < LC_DEFER_SLOTS ? 4 : 2) > h->nslots;
}

/*
 * Room for one more entry: double the table at half full. The hashes come
 * back from the slots (short keys: their words; long keys: kept).
 */
static ch_status
dict_grow(ch_colbuf *c, ch_error *err)
{
	lc_dict    *h = &c->h;
	const ch_allocator *a = c->w->a;
	lc_slot    *slots;
	uint32_t	ns,
				i;

	if (!dict_full(h, (uint64_t) h->nentries + 1))
		return CH_OK;
	if (h->nslots >= (1u << 31))
		return ch_error_set(err, CH_ERR_LIMIT, "LowCardinality dictionary too large");
	ns = h->nslots ? h->nslots * 2 : 128;
	slots = ch_alloc(a, sizeof(lc_slot) * ns);
	if (!slots)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory for a LowCardinality dictionary");
	memset(slots, 0, sizeof(lc_slot) * ns);
	for (i = 0; i < h->nslots; i++)
	{
		const lc_slot *old = &h->slots[i];
		uint64_t	hv;
		uint32_t	s;

		if (old->idx1 == 0)
			continue;
		hv = old->len <= LC_SHORT_KEY ? hash_words(old->a, old->b, LC_SEED, old->len) : old->a;
		s = (uint32_t) hv & (ns - 1);
		while (slots[s].idx1)
			s = (s + 1) & (ns - 1);
		slots[s] = *old;
	}
	ch_free(a, h->slots);
	h->slots = slots;
	h->nslots = ns;
	/* a String dictionary this large defers its lookups (if memory allows) */
	if (ns >= LC_DEFER_SLOTS && !h->ring && c->dict->type->kind == CH_T_STRING &&
		c->w->fmt == CH_FORMAT_NATIVE)
		h->ring = ch_alloc(a, sizeof(lc_pending) * LC_RING);
	return CH_OK;
}

/*
 * Resolve the oldest pending lookup: find or add its entry, write its index
 * into its row's key. Cannot fail: the slot and the bytes were reserved
 * when it was queued.
 */
static void
lc_resolve_one(ch_colbuf *c)
{
	lc_dict    *h = &c->h;
	const lc_pending *pe = &h->ring[h->rhead];
	lc_key		k;
	lc_slot    *sl;

	k.n = pe->n;
	k.a = pe->a;
	k.b = pe->b;
	k.hv = pe->hv;
	k.p = pe->n > LC_SHORT_KEY ? h->stage.data + pe->soff : NULL;
	sl = dict_probe(c, &k);
	if (sl->idx1 == 0)
	{
		ch_buf	   *d = &c->dict->data;
		uint8_t    *p = d->data + d->len;

		if (CH_LIKELY(k.n < 0x80))
			*p++ = (uint8_t) k.n;
		else
			p += ch_varuint_encode(k.n, p);
		if (k.n <= LC_SHORT_KEY)
			key_bytes(p, k.a, k.b, k.n);
		else
			memcpy(p, k.p, k.n);
		d->len = (size_t) (p - d->data) + k.n;
		c->dict->nvalues++;
		slot_fill(sl, &k, h->nentries++, (uint64_t) (p - d->data));
	}
	ch_put_le32(c->aux.data + pe->keypos, sl->idx1 - 1);
	h->rbytes -= pe->n + 10;
	h->rhead = (h->rhead + 1) & (LC_RING - 1);
	if (--h->rcount == 0)
	{
		ch_buf_reset(&h->stage);
		h->rbytes = 0;
	}
}

/* Resolve every pending lookup (before anything reads the dictionary). */
static inline void
lc_drain(ch_colbuf *c)
{
	while (c->h.rcount)
		lc_resolve_one(c);
}

/*
 * The dictionary column just received one value (bytes [start, end) of its
 * data). Find it: an existing entry drops the new copy; a new one stays.
 * *index gets the entry. add_to_hash=false registers an entry without
 * making it findable (the NULL slot).
 */
static ch_status
dict_intern(ch_colbuf *c, size_t start, bool add_to_hash, uint32_t *index, ch_error *err)
{
	ch_colbuf  *d = c->dict;
	lc_dict    *h = &c->h;
	ch_status	st;

	lc_drain(c);
	if (h->nentries >= UINT32_MAX - 1)
		return ch_error_set(err, CH_ERR_LIMIT, "LowCardinality dictionary too large");
	if ((st = dict_grow(c, err)) != CH_OK)
		return st;
	if (add_to_hash)
	{
		lc_key		k;
		size_t		n;
		const uint8_t *p = entry_key(d, start, &n);
		lc_slot    *sl;

		key_make(&k, p, n);
		sl = dict_probe(c, &k);
		if (sl->idx1 != 0)
		{
			/* known value: forget the copy just appended */
			d->data.len = start;
			d->nvalues--;
			*index = sl->idx1 - 1;
			return CH_OK;
		}
		slot_fill(sl, &k, h->nentries, (uint64_t) (p - d->data.data));
	}
	*index = h->nentries++;
	return CH_OK;
}

static ch_status append_default_value(ch_colbuf *c, ch_error *err);

/* Seed the per-block dictionary: index 0 default (or NULL slot), 1 default. */
static ch_status
dict_seed(ch_colbuf *c, ch_error *err)
{
	uint32_t	idx;
	size_t		start = c->dict->data.len;
	ch_status	st;

	if ((st = append_default_value(c->dict, err)) != CH_OK)
		return st;
	if ((st = dict_intern(c, start, !c->lc_nullable, &idx, err)) != CH_OK)
		return st;
	if (c->lc_nullable)
	{
		start = c->dict->data.len;
		if ((st = append_default_value(c->dict, err)) != CH_OK)
			return st;
		if ((st = dict_intern(c, start, true, &idx, err)) != CH_OK)
			return st;
	}
	return CH_OK;
}

/* One row's dictionary index, as 4 bytes (narrowed at flush). */
static inline ch_status
push_key(ch_colbuf *c, uint32_t idx, ch_error *err)
{
	ch_buf	   *b = &c->aux;

	if (CH_UNLIKELY(b->cap - b->len < 4) && ch_buf_grow(b, 4) != CH_OK)
		return buffer_nomem(c, err);
	ch_put_le32(b->data + b->len, idx);
	b->len += 4;
	c->nvalues++;
	return CH_OK;
}

/*
 * FK_LC_STRING: a String value on a Native LowCardinality column, looked
 * up before it is copied; only a new key is appended to the dictionary.
 */
/*
 * lc_append_string on a large table: the slot's cache line is likely
 * cold, so hash the key, prefetch its slot and queue the lookup; the
 * lookup LC_RING appends later finds the line loaded. Lookups resolve in
 * append order, so the dictionary is the same (first-appearance order) as
 * without deferral. Everything a resolution needs (slot room, dictionary
 * bytes, the row's key) is reserved here, so errors still come from the
 * append that causes them.
 */
static ch_status
lc_append_deferred(ch_colbuf *c, const void *data, size_t len, ch_error *err)
{
	lc_dict    *h = &c->h;
	lc_pending *pe;
	lc_key		k;
	uint64_t	soff = 0;
	ch_status	st;

	if (CH_UNLIKELY(dict_full(h, (uint64_t) h->nentries + h->rcount + 1)))
	{
		lc_drain(c);
		if ((st = dict_grow(c, err)) != CH_OK)
			return st;
	}
	if (CH_UNLIKELY(c->dict->data.cap - c->dict->data.len < h->rbytes + len + 10) &&
		ch_buf_grow(&c->dict->data, h->rbytes + len + 10) != CH_OK)
		return buffer_nomem(c, err);
	if (CH_UNLIKELY(c->aux.cap - c->aux.len < 4) && ch_buf_grow(&c->aux, 4) != CH_OK)
		return buffer_nomem(c, err);
	if (CH_UNLIKELY(len > LC_SHORT_KEY))
	{
		soff = h->stage.len;
		if (ch_buf_append(&h->stage, data, len) != CH_OK)
			return buffer_nomem(c, err);
	}
	key_make(&k, data, len);
	__builtin_prefetch(&h->slots[(uint32_t) k.hv & (h->nslots - 1)]);
	pe = &h->ring[(h->rhead + h->rcount) & (LC_RING - 1)];
	pe->a = k.a;
	pe->b = k.b;
	pe->hv = k.hv;
	pe->n = (uint32_t) len;
	pe->soff = soff;
	pe->keypos = c->aux.len;
	c->aux.len += 4;
	c->nvalues++;
	h->rbytes += len + 10;
	if (++h->rcount == LC_RING)
		lc_resolve_one(c);
	return CH_OK;
}

static inline __attribute__((always_inline)) ch_status
lc_append_string(ch_colbuf *c, const void *data, size_t len, ch_error *err)
{
	lc_dict    *h = &c->h;
	lc_key		k;
	lc_slot    *sl;
	ch_status	st;

	if (CH_UNLIKELY(h->nentries == 0) && (st = dict_seed(c, err)) != CH_OK)
		return st;
	if (h->ring && h->nslots >= LC_DEFER_SLOTS)
		return lc_append_deferred(c, data, len, err);
	if (CH_UNLIKELY(dict_full(h, (uint64_t) h->nentries + 1)) &&
		(st = dict_grow(c, err)) != CH_OK)
		return st;
	key_make(&k, data, len);
	sl = dict_probe(c, &k);
	if (sl->idx1 == 0)
	{
		if ((st = put_string(c->dict, data, len, err)) != CH_OK)
			return st;
		slot_fill(sl, &k, h->nentries++, c->dict->data.len - len);
	}
	return push_key(c, sl->idx1 - 1, err);
}

/*
 * ch_col_append_strings on a FK_LC_STRING column: the keys' room reserved
 * once, and lc_append_string's lookup inlined for a table in L1/L2 (the
 * table grows when a new key needs room, which changes nothing the block
 * holds). NULLs, over-long strings and large (deferring) tables take the
 * single append. On an error *at is the failing row.
 */
ch_status
ch_w_lc_append_strings(ch_colbuf *c, const char *const *data, const uint32_t *len,
					   const bool *isnull, size_t n, size_t *at, ch_error *err)
{
	lc_dict    *h = &c->h;
	size_t		i = 0;
	ch_status	st = CH_OK;

#define LC_SINGLE_ROW(i) \
	((isnull && isnull[i]) || CH_UNLIKELY(len[i] > 0x40000000) || \
	 (h->ring && h->nslots >= LC_DEFER_SLOTS))

	if (n > SIZE_MAX / 4 || ch_buf_reserve(&c->aux, 4 * n) != CH_OK)
		st = buffer_nomem(c, err);
	else if (CH_UNLIKELY(h->nentries == 0) && n > 0)
		st = dict_seed(c, err);
	while (st == CH_OK && i < n)
	{
		uint8_t    *kp;
		size_t		from;

		if (LC_SINGLE_ROW(i))
		{
			st = (isnull && isnull[i]) ? ch_col_append_null(c, err) :
				len[i] > 0x40000000 ? ch_w_append_bytes_slow(c, data[i], len[i], err) :
				lc_append_string(c, data[i], len[i], err);
			if (st == CH_OK)
				i++;
			continue;
		}

		/*
		 * A run of rows looked up here. The keys go through a local pointer
		 * (stores through c->aux.data, a uint8_t *, would make the compiler
		 * reload the table's fields for every row) and are counted at the
		 * end of the run.
		 */
		kp = c->aux.data + c->aux.len;
		from = i;
		for (; i < n && !LC_SINGLE_ROW(i); i++)
		{
			lc_key		k;
			lc_slot    *sl;

			key_make(&k, (const uint8_t *) data[i], len[i]);
			sl = dict_probe(c, &k);
			if (sl->idx1 == 0)
			{
				if (dict_full(h, (uint64_t) h->nentries + 1))
				{
					if ((st = dict_grow(c, err)) != CH_OK)
						break;
					sl = dict_probe(c, &k);
				}
				if ((st = put_string(c->dict, data[i], len[i], err)) != CH_OK)
					break;
				slot_fill(sl, &k, h->nentries++, c->dict->data.len - len[i]);
			}
			ch_put_le32(kp, sl->idx1 - 1);
			kp += 4;
		}
		c->aux.len = (size_t) (kp - c->aux.data);
		c->nvalues += i - from;
	}
#undef LC_SINGLE_ROW
	if (st != CH_OK && at)
		*at = i;				/* the loop stops at the failing row */
	return st;
}

/*
 * Every typed append on a LowCardinality column (Native): append to the
 * dictionary column, then intern.
 */
#define LC_APPEND(c, call) \
	do { \
		size_t		start_; \
		uint32_t	idx_; \
		ch_status	st_; \
		if ((c)->h.nentries == 0 && (st_ = dict_seed((c), err)) != CH_OK) \
			return st_; \
		start_ = (c)->dict->data.len; \
		if ((st_ = (call)) != CH_OK) \
			return st_; \
		if ((st_ = dict_intern((c), start_, true, &idx_, err)) != CH_OK) \
			return st_; \
		return push_key((c), idx_, err); \
	} while (0)

/*
 * Wrapper handling shared by every value append: Nullable (flag/null map,
 * then the inner column) and LowCardinality (dictionary or, in RowBinary,
 * the inner encoding). Returns the column to write the value into, or NULL
 * when the wrapper already handled it (then *st is the result).
 */
static ch_colbuf *
unwrap_for_value(ch_colbuf *c, ch_error *err, ch_status *st)
{
	static const uint8_t zero = 0;

	*st = CH_OK;
	if (c->type->kind == CH_T_NULLABLE)
	{
		*st = put(c, c->w->fmt == CH_FORMAT_ROWBINARY ? &c->w->rb : &c->aux, &zero, 1, err);
		if (*st != CH_OK)
			return NULL;
		c->nvalues++;
		return &c->children[0];
	}
	return c;
}

/* ---- typed appends ---- */

static ch_status
write_value_fixed(ch_colbuf *c, const void *p, size_t n, ch_error *err)
{
	ch_status	st = put(c, out_buf(c), p, n, err);

	if (st == CH_OK)
		c->nvalues++;
	return st;
}

static ch_status append_int_inner(ch_colbuf *c, int64_t v, bool is_unsigned, ch_error *err);
static ch_status append_float_inner(ch_colbuf *c, double v, ch_error *err);

ch_status
ch_col_append_null(ch_colbuf *c, ch_error *err)
{
	static const uint8_t one = 1;
	ch_status	st;

	if (c->type->kind == CH_T_NULLABLE)
	{
		/* the flag; Native also gives the inner column a placeholder value */
		if ((st = put_flag(c, 1, err)) != CH_OK)
			return st;
		if (c->w->fmt == CH_FORMAT_ROWBINARY)
			return CH_OK;
		return append_default_value(&c->children[0], err);
	}
	if (c->type->kind == CH_T_LOWCARDINALITY && c->lc_nullable)
	{
		if (c->w->fmt == CH_FORMAT_ROWBINARY)
		{
			if ((st = put(c, &c->w->rb, &one, 1, err)) != CH_OK)
				return st;
			c->nvalues++;
			return CH_OK;
		}
		if (c->h.nentries == 0 && (st = dict_seed(c, err)) != CH_OK)
			return st;
		return push_key(c, 0, err);
	}
	return ch_error_set(err, CH_ERR_LIMIT, "NULL is not allowed in ClickHouse type %s (not Nullable)",
						c->type->name);
}

/* LowCardinality: route an append to the dictionary (Native) or inner type. */
static ch_colbuf *
lc_target(ch_colbuf *c, ch_error *err, ch_status *st)
{
	static const uint8_t zero = 0;

	*st = CH_OK;
	if (c->w->fmt == CH_FORMAT_ROWBINARY)
	{
		/* invisible in RowBinary; a Nullable inner type still has its flag */
		if (c->lc_nullable)
		{
			*st = put(c, &c->w->rb, &zero, 1, err);
			if (*st != CH_OK)
				return NULL;
		}
		c->nvalues++;
		return c->dict;
	}
	return NULL;
}

static uint64_t
u64_bound(ch_type_kind k)
{
	switch (k)
	{
		case CH_T_UINT8:
		case CH_T_BOOL:
			return k == CH_T_BOOL ? 1 : 0xff;
		case CH_T_UINT16:
		case CH_T_DATE:
			return 0xffff;
		case CH_T_UINT32:
		case CH_T_DATETIME:
		case CH_T_IPV4:
			return 0xffffffffULL;
		default:
			return UINT64_MAX;
	}
}

/* Write v (already range-checked) sign-extended into width bytes. */
static ch_status
write_int_width(ch_colbuf *c, int64_t v, bool is_unsigned, ch_error *err)
{
	uint32_t	w = c->type->width;
	ch_buf	   *b = out_buf(c);
	uint8_t    *p;
	uint64_t	u = (uint64_t) v;
	uint32_t	i;

	if (ch_buf_reserve(b, w) != CH_OK)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory buffering a block");
	p = b->data + b->len;
	switch (w)
	{
		case 1:
			p[0] = (uint8_t) u;
			break;
		case 2:
			ch_put_le16(p, (uint16_t) u);
			break;
		case 4:
			ch_put_le32(p, (uint32_t) u);
			break;
		case 8:
			ch_put_le64(p, u);
			break;
		default:
			ch_put_le64(p, u);
			for (i = 8; i < w; i++)
				p[i] = (!is_unsigned && v < 0) ? 0xff : 0x00;
			break;
	}
	b->len += w;
	c->nvalues++;
	return CH_OK;
}

static bool
decimal_fits_i64(ch_colbuf *c, int64_t v)
{
	uint64_t	mag = v < 0 ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v;

	if (c->dec_limit[1] || c->dec_limit[2] || c->dec_limit[3])
		return true;
	return mag < c->dec_limit[0];
}

static ch_status
append_int_inner(ch_colbuf *c, int64_t v, bool is_unsigned, ch_error *err)
{
	ch_type_kind k = c->type->kind;
	uint64_t	uv = (uint64_t) v;
	char		s[32];

	/* the value's text, for messages only (formatting is not cheap) */
#define VALUE_TEXT() \
	(is_unsigned ? snprintf(s, sizeof(s), "%llu", (unsigned long long) uv) : \
	 snprintf(s, sizeof(s), "%lld", (long long) v), s)
	switch (k)
	{
		case CH_T_UINT8:
		case CH_T_UINT16:
		case CH_T_UINT32:
		case CH_T_UINT64:
		case CH_T_BOOL:
		case CH_T_DATE:
		case CH_T_DATETIME:
		case CH_T_IPV4:
		case CH_T_UINT128:
		case CH_T_UINT256:
			if ((!is_unsigned && v < 0) || uv > u64_bound(k))
				return range_error(c, err, VALUE_TEXT());
			return write_int_width(c, v, true, err);
		case CH_T_INT8:
			if (is_unsigned ? uv > 127 : (v < -128 || v > 127))
				return range_error(c, err, VALUE_TEXT());
			return write_int_width(c, v, false, err);
		case CH_T_INT16:
			if (is_unsigned ? uv > 32767 : (v < -32768 || v > 32767))
				return range_error(c, err, VALUE_TEXT());
			return write_int_width(c, v, false, err);
		case CH_T_DATE32:
			/* ClickHouse's Date32: 1900-01-01 .. 2299-12-31 */
			if (is_unsigned ? uv > 120529 : (v < -25567 || v > 120529))
				return range_error(c, err, VALUE_TEXT());
			return write_int_width(c, v, false, err);
		case CH_T_INT32:
		case CH_T_TIME:
			if (is_unsigned ? uv > INT32_MAX : (v < INT32_MIN || v > INT32_MAX))
				return range_error(c, err, VALUE_TEXT());
			return write_int_width(c, v, false, err);
		case CH_T_DATETIME64:
			{
				/* 1900-01-01 00:00:00 .. 2299-12-31 23:59:59.999..., in ticks */
				__int128	mul = 1;
				__int128	lo,
							hi;
				int			i;

				for (i = 0; i < c->type->scale; i++)
					mul *= 10;
				lo = (__int128) -2208988800LL * mul;
				hi = (__int128) 10413792000LL * mul - 1;
				if (is_unsigned ? (__int128) uv > hi : ((__int128) v < lo || (__int128) v > hi))
					return range_error(c, err, VALUE_TEXT());
				return write_int_width(c, v, false, err);
			}
		case CH_T_INT64:
		case CH_T_INT128:
		case CH_T_INT256:
		case CH_T_TIME64:
		case CH_T_INTERVAL:
			if (is_unsigned && uv > INT64_MAX)
				return range_error(c, err, VALUE_TEXT());
			return write_int_width(c, v, false, err);
		case CH_T_DECIMAL:
			if ((is_unsigned && uv > INT64_MAX) || !decimal_fits_i64(c, v))
				return ch_error_set(err, CH_ERR_LIMIT,
									"scaled value %s has more than %d digits for ClickHouse type %s",
									VALUE_TEXT(), c->type->precision, c->type->name);
			return write_int_width(c, v, false, err);
		case CH_T_ENUM8:
		case CH_T_ENUM16:
			{
				int			i;

				if (!is_unsigned || uv <= INT32_MAX)
					for (i = 0; i < c->type->nenum; i++)
						if (c->type->enum_values[i] == v)
							return write_int_width(c, v, false, err);
				return ch_error_set(err, CH_ERR_LIMIT, "value %s is not a value of ClickHouse type %s",
									VALUE_TEXT(), c->type->name);
			}
		case CH_T_FLOAT32:
		case CH_T_FLOAT64:
			{
				double		d = is_unsigned ? (double) uv : (double) v;
				double		f = k == CH_T_FLOAT32 ? (double) (float) d : d;
				bool		exact;

				/* compare without casting an out-of-range double to an integer */
				if (is_unsigned)
					exact = f < 18446744073709551616.0 && (uint64_t) f == uv;
				else
					exact = f >= -9223372036854775808.0 && f < 9223372036854775808.0 &&
						(int64_t) f == v;
				if (!exact)
					return ch_error_set(err, CH_ERR_LIMIT, "integer %s is not exactly representable in ClickHouse type %s",
										VALUE_TEXT(), c->type->name);
				return append_float_inner(c, d, err);
			}
		default:
			return wrong_kind(c, "an integer", err);
	}
}
#undef VALUE_TEXT

static ch_status
append_float_inner(ch_colbuf *c, double v, ch_error *err)
{
	uint8_t		b[8];

	switch (c->type->kind)
	{
		case CH_T_FLOAT64:
			{
				uint64_t	bits;

				memcpy(&bits, &v, 8);
				ch_put_le64(b, bits);
				return write_value_fixed(c, b, 8, err);
			}
		case CH_T_FLOAT32:
			{
				float		f = (float) v;
				uint32_t	bits;

				if (isfinite(v) && !isfinite(f))
				{
					char		s[40];

					snprintf(s, sizeof(s), "%.17g", v);
					return range_error(c, err, s);
				}
				memcpy(&bits, &f, 4);
				ch_put_le32(b, bits);
				return write_value_fixed(c, b, 4, err);
			}
		case CH_T_BFLOAT16:
			{
				float		f = (float) v;
				uint32_t	bits;

				memcpy(&bits, &f, 4);
				if (isnan(f))
					bits = (bits | 0x00400000u);	/* keep it a (quiet) NaN */
				else
					bits += 0x7fff + ((bits >> 16) & 1);	/* round to nearest even */
				/* a finite value past the largest BFloat16 is out of range, not inf */
				if (isfinite(v) && (bits & 0x7f800000u) == 0x7f800000u)
				{
					char		s[40];

					snprintf(s, sizeof(s), "%.17g", v);
					return range_error(c, err, s);
				}
				ch_put_le16(b, (uint16_t) (bits >> 16));
				return write_value_fixed(c, b, 2, err);
			}
		default:
			return wrong_kind(c, "a floating-point value", err);
	}
}

static ch_status
append_bytes_inner(ch_colbuf *c, const void *data, size_t len, ch_error *err)
{
	ch_status	st;

	switch (c->type->kind)
	{
		case CH_T_STRING:
			if (len > 0x40000000)
				return ch_error_set(err, CH_ERR_LIMIT, "string of %zu bytes is longer than ClickHouse's 1 GiB limit", len);
			if ((st = ch_buf_append_string(out_buf(c), data, len)) != CH_OK)
				return ch_error_set(err, st, "out of memory buffering a block");
			c->nvalues++;
			return CH_OK;
		case CH_T_FIXEDSTRING:
			{
				ch_buf	   *b = out_buf(c);

				if (len > c->type->fixed_len)
					return ch_error_set(err, CH_ERR_LIMIT,
										"string of %zu bytes is longer than ClickHouse type %s",
										len, c->type->name);
				if (ch_buf_reserve(b, c->type->fixed_len) != CH_OK)
					return ch_error_set(err, CH_ERR_NOMEM, "out of memory buffering a block");
				memcpy(b->data + b->len, data, len);
				memset(b->data + b->len + len, 0, c->type->fixed_len - len);
				b->len += c->type->fixed_len;
				c->nvalues++;
				return CH_OK;
			}
		default:
			return wrong_kind(c, "a string", err);
	}
}

/* |v| < 10^precision for a little-endian two's complement value of w bytes. */
static bool
decimal_fits_wide(ch_colbuf *c, const uint8_t *p, uint32_t w)
{
	uint64_t	m[4] = {0, 0, 0, 0};
	bool		neg = (p[w - 1] & 0x80) != 0;
	int			i;

	for (i = 0; i < (int) (w / 8); i++)
		m[i] = ch_le64(p + i * 8);
	if (neg)
	{
		/* magnitude = ~v + 1, sign-extended to 256 bits */
		unsigned	carry = 1;

		for (i = (int) (w / 8); i < 4; i++)
			m[i] = UINT64_MAX;
		for (i = 0; i < 4; i++)
		{
			m[i] = ~m[i] + carry;
			carry = carry && m[i] == 0;
		}
	}
	for (i = 3; i >= 0; i--)
	{
		if (m[i] != c->dec_limit[i])
			return m[i] < c->dec_limit[i];
	}
	return false;				/* equal to 10^P: one digit too many */
}

static ch_status
append_raw_inner(ch_colbuf *c, const void *wire, size_t len, ch_error *err)
{
	if (c->type->width == 0 || len != c->type->width)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"%zu raw bytes do not fit ClickHouse type %s (%u bytes)",
							len, c->type->name, c->type->width);
	if (c->type->kind == CH_T_DECIMAL && !decimal_fits_wide(c, wire, c->type->width))
		return ch_error_set(err, CH_ERR_LIMIT, "value has more than %d digits for ClickHouse type %s",
							c->type->precision, c->type->name);
	return write_value_fixed(c, wire, len, err);
}

/*
 * One value for any typed append, so the wrapper logic below (Nullable,
 * LowCardinality) exists once.
 */
typedef enum value_kind
{
	V_INT,
	V_FLOAT,
	V_BYTES,
	V_RAW
} value_kind;

typedef struct wvalue
{
	value_kind	kind;
	int64_t		i;
	bool		is_unsigned;
	double		f;
	const void *p;
	size_t		len;
} wvalue;

static ch_status
append_inner(ch_colbuf *c, const wvalue *v, ch_error *err)
{
	switch (v->kind)
	{
		case V_INT:
			return append_int_inner(c, v->i, v->is_unsigned, err);
		case V_FLOAT:
			return append_float_inner(c, v->f, err);
		case V_BYTES:
			return append_bytes_inner(c, v->p, v->len, err);
		case V_RAW:
			return append_raw_inner(c, v->p, v->len, err);
	}
	return ch_error_set(err, CH_ERR_INTERNAL, "unknown value kind");
}

static ch_status
append_value(ch_colbuf *c, const wvalue *v, ch_error *err)
{
	ch_status	st;
	ch_colbuf  *t = unwrap_for_value(c, err, &st);

	if (!t)
		return st;
	if (t->type->kind == CH_T_LOWCARDINALITY)
	{
		ch_colbuf  *inner;

		lc_drain(t);			/* the dictionary data grows in entry order */
		inner = lc_target(t, err, &st);

		if (st != CH_OK)
			return st;
		if (inner)
			return append_inner(inner, v, err);
		if (v->kind == V_BYTES && t->dict->type->kind == CH_T_STRING && v->len <= 0x40000000)
			return lc_append_string(t, v->p, v->len, err);
		LC_APPEND(t, append_inner(t->dict, v, err));
	}
	return append_inner(t, v, err);
}

/*
 * The generic path of each typed append, kept out of line so that the
 * shortcuts in the public functions need no stack frame.
 */
__attribute__((noinline)) ch_status
ch_w_append_int_slow(ch_colbuf *c, int64_t v, bool is_unsigned, ch_error *err)
{
	wvalue		val = {V_INT, v, is_unsigned, 0, NULL, 0};

	return append_value(c, &val, err);
}

__attribute__((noinline)) ch_status
ch_w_append_float_slow(ch_colbuf *c, double v, ch_error *err)
{
	wvalue		val = {V_FLOAT, 0, false, v, NULL, 0};

	return append_value(c, &val, err);
}

__attribute__((noinline)) ch_status
ch_w_append_bytes_slow(ch_colbuf *c, const void *data, size_t len, ch_error *err)
{
	wvalue		val = {V_BYTES, 0, false, 0, data, len};

	return append_value(c, &val, err);
}

/*
 * The public typed appends: the column's shortcut when it applies, else
 * the generic path. A Nullable column writes its "not NULL" flag and goes
 * on with its inner column (as unwrap_for_value would).
 */
#define NULLABLE_FLAG_0(c) \
	do { \
		if ((c)->fast == FK_NULLABLE) \
		{ \
			if (put_flag((c), 0, err) != CH_OK) \
				return CH_ERR_NOMEM; \
			(c) = (c)->children; \
		} \
	} while (0)

ch_status
ch_col_append_int(ch_colbuf *c, int64_t v, ch_error *err)
{
	NULLABLE_FLAG_0(c);
	if (CH_LIKELY(c->fast == FK_INT) && v >= c->lo && v <= c->hi)
		return put_word(c, (uint64_t) v, err);
	return ch_w_append_int_slow(c, v, false, err);
}

ch_status
ch_col_append_uint(ch_colbuf *c, uint64_t v, ch_error *err)
{
	NULLABLE_FLAG_0(c);
	if (CH_LIKELY(c->fast == FK_INT) && v <= c->uhi)
		return put_word(c, v, err);
	return ch_w_append_int_slow(c, (int64_t) v, true, err);
}

ch_status
ch_col_append_float(ch_colbuf *c, double v, ch_error *err)
{
	NULLABLE_FLAG_0(c);
	if (CH_LIKELY(c->fast == FK_FLOAT64))
	{
		uint64_t	bits;

		memcpy(&bits, &v, 8);
		return put_word(c, bits, err);
	}
	if (c->fast == FK_FLOAT32)
	{
		float		f = (float) v;

		/* a finite double beyond Float32's range is an error (generic path) */
		if (isfinite(f) || !isfinite(v))
		{
			uint32_t	bits;

			memcpy(&bits, &f, 4);
			return put_word(c, bits, err);
		}
	}
	return ch_w_append_float_slow(c, v, err);
}

ch_status
ch_col_append_bytes(ch_colbuf *c, const void *data, size_t len, ch_error *err)
{
	NULLABLE_FLAG_0(c);
	if (CH_LIKELY(len <= 0x40000000))
	{
		if (c->fast == FK_STRING)
			return put_string(c, data, len, err);
		if (c->fast == FK_LC_STRING)
			return lc_append_string(c, data, len, err);
	}
	return ch_w_append_bytes_slow(c, data, len, err);
}

ch_status
ch_col_append_raw(ch_colbuf *c, const void *wire, size_t len, ch_error *err)
{
	wvalue		val = {V_RAW, 0, false, 0, wire, len};

	NULLABLE_FLAG_0(c);
	return append_value(c, &val, err);
}
#undef NULLABLE_FLAG_0

bool
ch_enum_value(const ch_type *t, const char *label, size_t len, int32_t *value)
{
	int			i;

	for (i = 0; i < t->nenum; i++)
	{
		if (t->enum_name_lens[i] == len && memcmp(t->enum_names[i], label, len) == 0)
		{
			*value = t->enum_values[i];
			return true;
		}
	}
	return false;
}

ch_status
ch_col_append_enum_label(ch_colbuf *c, const char *label, size_t len, ch_error *err)
{
	const ch_type *t = ch_type_unwrap(c->type);
	int32_t		v;

	if (t->kind != CH_T_ENUM8 && t->kind != CH_T_ENUM16)
		return wrong_kind(c, "an enum label", err);
	if (!ch_enum_value(t, label, len, &v))
		return ch_error_set(err, CH_ERR_LIMIT, "\"%.*s\" is not a label of ClickHouse type %s",
							(int) (len > 200 ? 200 : len), label, t->name);
	return ch_col_append_int(c, v, err);
}

/* ---- arrays, maps, nested ---- */

/* Earlier arrays' elements (announced in bulk) are not all there. */
ch_status
ch_w_missing_elements(ch_colbuf *c, uint64_t got, ch_error *err)
{
	return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
						"arrays of ClickHouse type %s announce %llu elements but got %llu",
						c->type->name, (unsigned long long) c->elems, (unsigned long long) got);
}

ch_status
ch_col_array_begin(ch_colbuf *c, uint64_t nelems, ch_error *err)
{
	ch_type_kind k = c->type->kind;

	if (k != CH_T_ARRAY && k != CH_T_MAP && k != CH_T_NESTED)
		return wrong_kind(c, "an array", err);
	if (c->in_array)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "array begun twice");
	/* a Tuple element keeps no count of its own: count its first leaf */
	c->base = col_count(&c->children[0]);
	if (c->base != c->elems)
		return ch_w_missing_elements(c, c->base, err);
	c->in_array = true;
	c->expect = nelems;
	if (c->w->fmt == CH_FORMAT_ROWBINARY)
	{
		if (ch_buf_append_varuint(&c->w->rb, nelems) != CH_OK)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory buffering a block");
	}
	return CH_OK;
}

ch_status
ch_col_array_end(ch_colbuf *c, ch_error *err)
{
	int			i;
	uint8_t		b[8];

	if (!c->in_array)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "array ended without a begin");
	{
		uint64_t	n0 = col_count(&c->children[0]);

		if (n0 - c->base != c->expect)
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"array of ClickHouse type %s announced %llu elements but got %llu",
								c->type->name, (unsigned long long) c->expect,
								(unsigned long long) (n0 - c->base));
		for (i = 1; i < c->nchildren; i++)
			if (col_count(&c->children[i]) != n0)
				return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
									"elements of ClickHouse type %s got %llu keys but %llu values",
									c->type->name, (unsigned long long) n0,
									(unsigned long long) col_count(&c->children[i]));
	}
	c->in_array = false;
	c->elems = col_count(&c->children[0]);
	if (c->w->fmt == CH_FORMAT_NATIVE)
	{
		ch_put_le64(b, c->elems);
		if (put(c, &c->aux, b, 8, err) != CH_OK)
			return CH_ERR_NOMEM;
	}
	c->nvalues++;
	return CH_OK;
}

/* ---- defaults ---- */

static ch_status
append_default_value(ch_colbuf *c, ch_error *err)
{
	static const uint8_t zeros[32] = {0};
	int			i;
	ch_status	st;

	/* the shortcuts: zero bytes, the empty string */
	switch (c->fast)
	{
		case FK_INT:
		case FK_FLOAT64:
		case FK_FLOAT32:
			return put_word(c, 0, err);
		case FK_STRING:
			return put_string(c, "", 0, err);
		default:
			break;
	}
	switch (c->type->kind)
	{
		case CH_T_NULLABLE:
			return ch_col_append_null(c, err);
		case CH_T_STRING:
		case CH_T_FIXEDSTRING:
			return append_bytes_inner(c, "", 0, err);
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			if ((st = ch_col_array_begin(c, 0, err)) != CH_OK)
				return st;
			return ch_col_array_end(c, err);
		case CH_T_TUPLE:
			for (i = 0; i < c->nchildren; i++)
				if ((st = append_default_value(&c->children[i], err)) != CH_OK)
					return st;
			return CH_OK;
		case CH_T_LOWCARDINALITY:
			if (c->w->fmt == CH_FORMAT_ROWBINARY)
			{
				ch_colbuf  *inner = lc_target(c, err, &st);

				if (!inner)
					return st;
				return append_default_value(inner, err);
			}
			if (c->h.nentries == 0 && (st = dict_seed(c, err)) != CH_OK)
				return st;
			return push_key(c, c->lc_nullable ? 1 : 0, err);
		case CH_T_ENUM8:
		case CH_T_ENUM16:
			return write_int_width(c, c->type->nenum ? c->type->enum_values[0] : 0, false, err);
		default:
			if (c->type->width == 0 || c->type->width > sizeof(zeros))
				return wrong_kind(c, "a default value", err);
			return write_value_fixed(c, zeros, c->type->width, err);
	}
}

ch_status
ch_col_append_default(ch_colbuf *c, ch_error *err)
{
	return append_default_value(c, err);
}

/* ---- rows and blocks ---- */

ch_status
ch_writer_end_row(ch_writer *w, ch_error *err)
{
	int			i;

	for (i = 0; i < w->ncols; i++)
	{
		uint64_t	n = *w->counts[i];	/* col_count(&w->cols[i]) */

		if (CH_UNLIKELY(n != w->rows + 1))
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"column %d (%s) got %lld values in row %llu instead of one",
								i, w->names[i], (long long) (n - w->rows),
								(unsigned long long) w->rows);
	}
	w->rows++;
	return CH_OK;
}

/*
 * After a column was filled in bulk: every array's elements, a Nullable's
 * inner values and a Tuple's elements are all there.
 */
static ch_status
col_complete(ch_colbuf *c, ch_error *err)
{
	int			i;
	ch_status	st;

	switch (c->type->kind)
	{
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			if (c->in_array)
				return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
									"an array of ClickHouse type %s was begun but not ended",
									c->type->name);
			for (i = 0; i < c->nchildren; i++)
				if (col_count(&c->children[i]) != c->elems)
					return ch_w_missing_elements(c, col_count(&c->children[i]), err);
			break;
		case CH_T_NULLABLE:
			if (c->w->fmt == CH_FORMAT_NATIVE && col_count(&c->children[0]) != c->nvalues)
				return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
									"ClickHouse type %s got %llu flags but %llu values",
									c->type->name, (unsigned long long) c->nvalues,
									(unsigned long long) col_count(&c->children[0]));
			break;
		case CH_T_TUPLE:
			for (i = 1; i < c->nchildren; i++)
				if (col_count(&c->children[i]) != col_count(&c->children[0]))
					return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
										"elements of ClickHouse type %s got %llu and %llu values",
										c->type->name,
										(unsigned long long) col_count(&c->children[0]),
										(unsigned long long) col_count(&c->children[i]));
			break;
		default:
			break;
	}
	for (i = 0; i < c->nchildren; i++)
		if ((st = col_complete(&c->children[i], err)) != CH_OK)
			return st;
	return CH_OK;
}

ch_status
ch_writer_end_rows(ch_writer *w, uint64_t n, ch_error *err)
{
	int			i;
	ch_status	st;

	for (i = 0; i < w->ncols; i++)
	{
		uint64_t	got = *w->counts[i] - w->rows;

		if (CH_UNLIKELY(got != n) && n == 1)
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"column %d (%s) got %lld values in row %llu instead of one",
								i, w->names[i], (long long) got, (unsigned long long) w->rows);
		if (CH_UNLIKELY(got != n))
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"column %d (%s) got %llu values for %llu rows",
								i, w->names[i], (unsigned long long) got,
								(unsigned long long) n);
		if ((st = col_complete(&w->cols[i], err)) != CH_OK)
			return st;
	}
	w->rows += n;
	return CH_OK;
}

bool
ch_writer_columnar(const ch_writer *w)
{
	return w->fmt == CH_FORMAT_NATIVE;
}

static ch_status
write_prefix(ch_colbuf *c, ch_buf *out)
{
	int			i;
	ch_status	st;

	if (c->type->kind == CH_T_LOWCARDINALITY)
	{
		uint8_t		b[8];

		ch_put_le64(b, 1);		/* key serialization version */
		return ch_buf_append(out, b, 8);
	}
	for (i = 0; i < c->nchildren; i++)
		if ((st = write_prefix(&c->children[i], out)) != CH_OK)
			return st;
	return CH_OK;
}

static ch_status
write_data(ch_colbuf *c, ch_buf *out)
{
	int			i;
	ch_status	st;

	switch (c->type->kind)
	{
		case CH_T_NULLABLE:
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			if ((st = ch_buf_append(out, c->aux.data, c->aux.len)) != CH_OK)
				return st;
			/* FALLTHROUGH */
		case CH_T_TUPLE:
			for (i = 0; i < c->nchildren; i++)
				if ((st = write_data(&c->children[i], out)) != CH_OK)
					return st;
			return CH_OK;
		case CH_T_LOWCARDINALITY:
			lc_drain(c);		/* the pending lookups' keys and entries */
			{
				uint64_t	d = c->h.nentries;
				uint64_t	n = c->nvalues;
				uint32_t	code = d <= 0x100 ? 0 : d <= 0x10000 ? 1 : 2;
				uint32_t	kw = 1u << code;
				uint8_t		b[8];
				uint64_t	r;

				if (n == 0)
					return CH_OK;
				ch_put_le64(b, 0x600 | code);
				if ((st = ch_buf_append(out, b, 8)) != CH_OK)
					return st;
				ch_put_le64(b, d);
				if ((st = ch_buf_append(out, b, 8)) != CH_OK)
					return st;
				if ((st = write_data(c->dict, out)) != CH_OK)
					return st;
				ch_put_le64(b, n);
				if ((st = ch_buf_append(out, b, 8)) != CH_OK)
					return st;
				if ((st = ch_buf_reserve(out, n * kw)) != CH_OK)
					return st;
				for (r = 0; r < n; r++)
				{
					uint32_t	k = ch_le32(c->aux.data + r * 4);
					uint8_t    *p = out->data + out->len + r * kw;

					if (kw == 1)
						p[0] = (uint8_t) k;
					else if (kw == 2)
						ch_put_le16(p, (uint16_t) k);
					else
						ch_put_le32(p, k);
				}
				out->len += n * kw;
				return CH_OK;
			}
		default:
			return ch_buf_append(out, c->data.data, c->data.len);
	}
}

static void
reset_col(ch_colbuf *c)
{
	int			i;

	ch_buf_reset(&c->data);
	ch_buf_reset(&c->aux);
	c->nvalues = 0;
	c->in_array = false;
	c->elems = 0;
	for (i = 0; i < c->nchildren; i++)
		reset_col(&c->children[i]);
	if (c->dict)
	{
		reset_col(c->dict);
		c->h.nentries = 0;
		c->h.rcount = 0;
		c->h.rhead = 0;
		c->h.rbytes = 0;
		ch_buf_reset(&c->h.stage);
		if (c->h.slots)
			memset(c->h.slots, 0, sizeof(lc_slot) * c->h.nslots);
	}
}

void
ch_writer_discard(ch_writer *w)
{
	int			i;

	for (i = 0; i < w->ncols; i++)
		reset_col(&w->cols[i]);
	ch_buf_reset(&w->rb);
	w->rows = 0;
}

ch_status
ch_writer_flush(ch_writer *w, ch_buf *out, ch_error *err)
{
	ch_status	st = CH_OK;
	int			i;

	if (w->rows == 0)
	{
		ch_writer_discard(w);
		return CH_OK;
	}
	if (w->fmt == CH_FORMAT_ROWBINARY)
		st = ch_buf_append(out, w->rb.data, w->rb.len);
	else
	{
		st = ch_buf_append_varuint(out, (uint64_t) w->ncols);
		if (st == CH_OK)
			st = ch_buf_append_varuint(out, w->rows);
		for (i = 0; st == CH_OK && i < w->ncols; i++)
		{
			const char *name = w->names[i];
			const char *tname = w->cols[i].type->name;

			st = ch_buf_append_string(out, name, strlen(name));
			if (st == CH_OK)
				st = ch_buf_append_string(out, tname, strlen(tname));
			if (st == CH_OK)
				st = write_prefix(&w->cols[i], out);
			if (st == CH_OK)
				st = write_data(&w->cols[i], out);
		}
	}
	if (st != CH_OK)
		return ch_error_set(err, st, "out of memory serialising a block of %llu rows",
							(unsigned long long) w->rows);
	ch_writer_discard(w);
	return CH_OK;
}

/* ---- UUID byte order ---- */

void
ch_uuid_to_wire(const uint8_t canonical[16], uint8_t wire[16])
{
	int			i;

	for (i = 0; i < 8; i++)
	{
		wire[i] = canonical[7 - i];
		wire[8 + i] = canonical[15 - i];
	}
}

void
ch_uuid_from_wire(const uint8_t wire[16], uint8_t canonical[16])
{
	ch_uuid_to_wire(wire, canonical);	/* the swap is its own inverse */
}
