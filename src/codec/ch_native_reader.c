/*-------------------------------------------------------------------------
 * ch_native_reader.c
 *	  Incremental, bounds-checked decoder of ClickHouse Native blocks.
 *
 * Design: input is appended to one buffer; a block is decoded in one pass
 * over the buffered bytes once they are all there. When the pass runs out
 * of bytes it stops without side effects (CH_NEED_MORE) and records how many
 * bytes it needs at least; the next pass is attempted only when the buffer
 * has grown to that size and to twice the size of the failed attempt, so the
 * total decoding work stays linear in the input whatever the chunk sizes.
 * Decoded columns point into the buffer; the bytes of a block are dropped
 * when the caller asks for the next one.
 *
 * Wire layout: ../shared/docs/clickhouse-wire.md section 1 (and
 * ClickHouse's src/Formats/NativeReader.cpp, SerializationLowCardinality).
 *
 * src/codec/ch_native_reader.c
 *-------------------------------------------------------------------------
 */
#include "ch_native.h"

#include <stdarg.h>
#include <stdio.h>

#define MAX_NAME_LEN ((uint64_t) 1 << 20)
#define MAX_TYPE_NAME_LEN ((uint64_t) 1 << 20)
#define MAX_EXCEPTION_TEXT CH_MAX_EXCEPTION_TEXT
#define TYPE_ARENA_RESET_BYTES ((size_t) 4 << 20)

typedef struct cached_type
{
	const char *text;			/* copy of the type name */
	size_t		len;
	ch_type    *type;
} cached_type;

struct ch_native_reader
{
	const ch_allocator *a;
	bool		with_block_info;
	bool		custom_serialization;	/* TCP rev >= 54454: a flag byte
										 * after every column type */
	ch_native_limits lim;
	ch_buf		buf;			/* input; buf.data[start] is at stream offset
								 * base_off, what is before it is consumed */
	size_t		start;			/* consumed bytes at the front of buf
								 * (dropped lazily, so that a run of tiny
								 * blocks costs no memmove each) */
	uint64_t	base_off;
	uint64_t	total_fed;
	size_t		consumed;		/* bytes of the block handed out last */
	size_t		retry_at;		/* do not re-attempt before this many bytes */
	bool		finished;
	ch_status	stuck;			/* sticky error */
	ch_error	stuck_err;
	ch_arena	block_arena;	/* per block: column structs, string
								 * positions */
	ch_arena	type_arena;		/* parsed types, cached across blocks */
	cached_type *cache;
	uint64_t	ncache;
	uint64_t	cache_cap;
	uint64_t	block_index;
	ch_block	block;
};

/* Where a decode pass is, for error messages. */
typedef struct dctx
{
	ch_native_reader *r;
	ch_error   *err;
	int64_t		col;
	const uint8_t *col_name;
	size_t		col_name_len;
	int64_t		row;
} dctx;

void
ch_native_limits_default(ch_native_limits *lim)
{
	lim->max_columns = 100000;
	lim->max_rows = 1000000000;
	lim->max_string = (uint64_t) 1 << 30;
	lim->max_block_bytes = CH_DEFAULT_MAX_BLOCK_BYTES;
	lim->max_index_bytes = CH_DEFAULT_MAX_INDEX_BYTES;
	lim->max_lc_dict = CH_DEFAULT_MAX_LC_DICT;
}

ch_native_reader *
ch_native_reader_create(const ch_allocator *a, bool with_block_info,
						const ch_native_limits *lim)
{
	ch_native_reader *r;

	a = ch_alloc_or_default(a);
	r = ch_alloc(a, sizeof(*r));
	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->a = a;
	r->with_block_info = with_block_info;
	if (lim)
		r->lim = *lim;
	else
		ch_native_limits_default(&r->lim);
	ch_buf_init(&r->buf, a);
	ch_arena_init(&r->block_arena, a);
	ch_arena_init(&r->type_arena, a);
	r->stuck = CH_OK;
	ch_error_clear(&r->stuck_err);
	return r;
}

void
ch_native_reader_free(ch_native_reader *r)
{
	if (!r)
		return;
	ch_buf_free(&r->buf);
	ch_arena_free(&r->block_arena);
	ch_arena_free(&r->type_arena);
	ch_free(r->a, r->cache);
	ch_free(r->a, r);
}

size_t
ch_native_reader_buffered(const ch_native_reader *r)
{
	return r->buf.len - r->start;
}

uint64_t
ch_native_reader_total(const ch_native_reader *r)
{
	return r->total_fed;
}

ch_status
ch_native_reader_feed(ch_native_reader *r, const void *data, size_t len,
					  ch_error *err)
{
	ch_status	st;

	if (r->finished)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "input fed after finish");
	/* drop the consumed front once it is at least as large as the rest */
	if (r->start > 0 && r->start >= r->buf.len - r->start)
	{
		ch_buf_drop_front(&r->buf, r->start);
		r->start = 0;
	}
	st = ch_buf_append(&r->buf, data, len);
	if (st != CH_OK)
		return ch_error_set(err, st, "could not buffer %zu bytes of Native input (%zu buffered)",
							len, r->buf.len);
	r->total_fed += len;
	return CH_OK;
}

void
ch_native_reader_finish(ch_native_reader *r)
{
	r->finished = true;
}

void
ch_native_reader_set_custom_serialization(ch_native_reader *r, bool on)
{
	r->custom_serialization = on;
}

void
ch_native_reader_retry_now(ch_native_reader *r)
{
	r->retry_at = 0;
}

size_t
ch_native_reader_block_size(const ch_native_reader *r)
{
	return r->consumed;
}

void
ch_native_reader_reset(ch_native_reader *r)
{
	r->buf.len = 0;
	r->start = 0;
	r->base_off = 0;
	r->total_fed = 0;
	r->consumed = 0;
	r->retry_at = 0;
	r->finished = false;
	r->stuck = CH_OK;
	ch_error_clear(&r->stuck_err);
	ch_arena_reset(&r->block_arena);
	r->block_index = 0;
}

/* ---- error helpers ---- */

static ch_status
fail(dctx *c, const ch_rd *rd, ch_status code, const char *fmt,...)
	__attribute__((format(printf, 4, 5)));

static ch_status
fail(dctx *c, const ch_rd *rd, ch_status code, const char *fmt,...)
{
	va_list		ap;
	char		what[512];
	ch_error   *err = c->err;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!err)
		return code;
	ch_error_clear(err);
	err->code = code;
	err->offset = (int64_t) (c->r->base_off + rd->pos);
	err->column = c->col;
	err->row = c->row;
	if (c->col_name)
		snprintf(err->column_name, sizeof(err->column_name), "%.*s",
				 (int) (c->col_name_len > 120 ? 120 : c->col_name_len), c->col_name);
	if (c->col >= 0 && c->row >= 0)
		snprintf(err->message, sizeof(err->message),
				 "%s in Native block %llu, column %lld \"%s\", row %lld, at byte offset %lld",
				 what, (unsigned long long) c->r->block_index, (long long) c->col,
				 err->column_name, (long long) c->row, (long long) err->offset);
	else if (c->col >= 0)
		snprintf(err->message, sizeof(err->message),
				 "%s in Native block %llu, column %lld \"%s\", at byte offset %lld",
				 what, (unsigned long long) c->r->block_index, (long long) c->col,
				 err->column_name, (long long) err->offset);
	else
		snprintf(err->message, sizeof(err->message),
				 "%s in Native block %llu at byte offset %lld",
				 what, (unsigned long long) c->r->block_index, (long long) err->offset);
	return code;
}

/* ---- decoding ---- */

static ch_status decode_data(dctx *c, ch_rd *rd, const ch_type *t, uint64_t n,
							 ch_column *col, int depth);

static ch_column *
new_children(dctx *c, int n)
{
	return ch_arena_zalloc(&c->r->block_arena, sizeof(ch_column) * (size_t) (n ? n : 1));
}

/*
 * The "prefix phase": state written before any stream of the enclosing type
 * (ClickHouse src/DataTypes/Serializations/ISerialization.h,
 * serializeBinaryBulkStatePrefix: a Tuple, Array, Map or Nullable writes the
 * prefixes of all its elements before the data of any). top is the column's
 * type, for messages.
 */
static ch_status
decode_prefix(dctx *c, ch_rd *rd, const ch_type *t, const ch_type *top, int depth)
{
	ch_status	st;
	int			i;

	if (depth > CH_TYPE_MAX_DEPTH)
		return fail(c, rd, CH_ERR_LIMIT, "type nesting too deep");
	switch (t->kind)
	{
		case CH_T_LOWCARDINALITY:
			{
				uint64_t	version;

				st = ch_rd_u64(rd, &version);
				if (st != CH_OK)
					return st;
				if (version != 1)
					return fail(c, rd, CH_ERR_MALFORMED,
								"unknown LowCardinality serialization version %llu",
								(unsigned long long) version);
				return CH_OK;
			}
		case CH_T_NULLABLE:
		case CH_T_ARRAY:
		case CH_T_TUPLE:
		case CH_T_MAP:
		case CH_T_NESTED:
			for (i = 0; i < t->nchildren; i++)
			{
				st = decode_prefix(c, rd, t->children[i], top, depth + 1);
				if (st != CH_OK)
					return st;
			}
			return CH_OK;
		case CH_T_JSON:
		case CH_T_VARIANT:
		case CH_T_DYNAMIC:

			/*
			 * These write a prefix of their own (SerializationObject: a
			 * version, the dynamic paths and each path's Dynamic prefix;
			 * SerializationDynamic: a version and type names;
			 * SerializationVariant: the discriminators mode) that is not
			 * decoded. Refused here, before anything of the column is read:
			 * nested in a Tuple, Map or Array, skipping that prefix would
			 * make the elements before it read its bytes as their data.
			 */
			if (depth == 0)
				return fail(c, rd, CH_ERR_UNSUPPORTED,
							"cannot decode ClickHouse type %s in Native format; it must be cast to String in the query",
							t->name);
			return fail(c, rd, CH_ERR_UNSUPPORTED,
						"cannot decode ClickHouse type %s inside %s in Native format; the column must be cast to String (or sent by toJSONString) in the query",
						t->name, top->name);
		default:
			return CH_OK;
	}
}

/* n cumulative UInt64 end offsets; *total = last one. */
static ch_status
decode_offsets(dctx *c, ch_rd *rd, uint64_t n, const uint8_t **out, uint64_t *total)
{
	uint64_t	bytes;
	const uint8_t *p;
	uint64_t	prev = 0;
	uint64_t	i;
	ch_status	st;

	if (!ch_mul_ok(n, 8, &bytes))
		return fail(c, rd, CH_ERR_LIMIT, "array offsets size overflows");
	st = ch_rd_take(rd, bytes, &p);
	if (st != CH_OK)
		return st;
	for (i = 0; i < n; i++)
	{
		uint64_t	o = ch_le64(p + i * 8);

		if (o < prev)
		{
			c->row = (int64_t) i;
			rd->pos -= bytes;
			return fail(c, rd, CH_ERR_MALFORMED,
						"array offsets decrease (%llu after %llu)",
						(unsigned long long) o, (unsigned long long) prev);
		}
		prev = o;
	}
	if (prev > c->r->lim.max_rows * 16 && prev > c->r->lim.max_rows)
	{
		rd->pos -= bytes;
		return fail(c, rd, CH_ERR_LIMIT, "array element count %llu exceeds the limit",
					(unsigned long long) prev);
	}
	*out = p;
	*total = prev;
	return CH_OK;
}

static ch_status
decode_strings(dctx *c, ch_rd *rd, uint64_t n, ch_column *col)
{
	uint64_t	i;
	uint64_t	bytes;

	/* every value takes at least one byte: no allocation beyond the input */
	if (n > ch_rd_left(rd))
	{
		rd->need = rd->pos + n;
		return CH_NEED_MORE;
	}
	if (!ch_mul_ok(n, sizeof(size_t) + sizeof(uint32_t), &bytes) ||
		bytes + c->r->block_arena.total > c->r->lim.max_index_bytes)
		return fail(c, rd, CH_ERR_LIMIT,
					"the positions of %llu String values would take more than the limit of %llu bytes of index for one block",
					(unsigned long long) n, (unsigned long long) c->r->lim.max_index_bytes);
	col->str_pos = ch_arena_alloc(&c->r->block_arena, (size_t) n * sizeof(size_t));
	col->str_len = ch_arena_alloc(&c->r->block_arena, (size_t) n * sizeof(uint32_t));
	if (!col->str_pos || !col->str_len)
		return fail(c, rd, CH_ERR_NOMEM, "out of memory for %llu string positions",
					(unsigned long long) n);
	col->data = rd->base;
	for (i = 0; i < n; i++)
	{
		uint64_t	len;
		const uint8_t *s;
		ch_status	st;
		size_t		save = rd->pos;

		/* a length below 128 (one byte) whose value is all here: no calls */
		if (rd->pos < rd->len && rd->base[rd->pos] < 0x80 &&
			rd->base[rd->pos] < rd->len - rd->pos &&
			rd->base[rd->pos] <= c->r->lim.max_string)
		{
			len = rd->base[rd->pos];
			col->str_pos[i] = rd->pos + 1;
			col->str_len[i] = (uint32_t) len;
			rd->pos += 1 + len;
			continue;
		}
		st = ch_rd_varuint(rd, &len);
		if (st == CH_ERR_MALFORMED)
		{
			c->row = (int64_t) i;
			return fail(c, rd, st, "malformed string length");
		}
		if (st != CH_OK)
		{
			c->row = (int64_t) i;
			return st;
		}
		if (len > c->r->lim.max_string || len > UINT32_MAX)
		{
			c->row = (int64_t) i;
			rd->pos = save;
			return fail(c, rd, CH_ERR_LIMIT, "string length %llu exceeds the limit",
						(unsigned long long) len);
		}
		st = ch_rd_take(rd, len, &s);
		if (st != CH_OK)
		{
			c->row = (int64_t) i;
			return st;
		}
		col->str_pos[i] = (size_t) (s - rd->base);
		col->str_len[i] = (uint32_t) len;
	}
	return CH_OK;
}

static ch_status
decode_low_cardinality(dctx *c, ch_rd *rd, const ch_type *t, uint64_t n,
					   ch_column *col, int depth)
{
	uint64_t	flags,
				dict_rows,
				nkeys,
				bytes,
				i;
	const ch_type *inner = t->children[0];
	uint32_t	kw;
	ch_status	st;

	if (n == 0)
		return CH_OK;			/* no data part at all */
	if ((st = ch_rd_u64(rd, &flags)) != CH_OK)
		return st;
	if ((flags & 0x100) != 0)
		return fail(c, rd, CH_ERR_UNSUPPORTED,
					"LowCardinality column uses a global dictionary (flags 0x%llx)",
					(unsigned long long) flags);
	if ((flags & 0xff) > 3 || (flags & ~(uint64_t) 0x7ff) != 0)
		return fail(c, rd, CH_ERR_MALFORMED, "invalid LowCardinality flags 0x%llx",
					(unsigned long long) flags);
	kw = 1u << (flags & 0xff);
	if ((flags & 0x400) == 0)
		return fail(c, rd, CH_ERR_UNSUPPORTED,
					"LowCardinality column without a dictionary update (flags 0x%llx)",
					(unsigned long long) flags);
	if ((st = ch_rd_u64(rd, &dict_rows)) != CH_OK)
		return st;
	if (dict_rows > c->r->lim.max_lc_dict)
		return fail(c, rd, CH_ERR_LIMIT, "LowCardinality dictionary size %llu exceeds the limit of %llu",
					(unsigned long long) dict_rows, (unsigned long long) c->r->lim.max_lc_dict);
	if (inner->kind == CH_T_NULLABLE)
	{
		col->lc_nullable = true;
		inner = inner->children[0];
	}
	col->nchildren = 1;
	if (!(col->children = new_children(c, 1)))
		return fail(c, rd, CH_ERR_NOMEM, "out of memory");
	st = decode_data(c, rd, inner, dict_rows, &col->children[0], depth + 1);
	if (st != CH_OK)
		return st;
	col->lc_dict_rows = dict_rows;
	if ((st = ch_rd_u64(rd, &nkeys)) != CH_OK)
		return st;
	if (nkeys != n)
		return fail(c, rd, CH_ERR_MALFORMED,
					"LowCardinality key count %llu does not match %llu rows",
					(unsigned long long) nkeys, (unsigned long long) n);
	if (!ch_mul_ok(n, kw, &bytes))
		return fail(c, rd, CH_ERR_LIMIT, "LowCardinality keys too large");
	if ((st = ch_rd_take(rd, bytes, &col->lc_keys)) != CH_OK)
		return st;
	col->lc_key_width = kw;
	for (i = 0; i < n; i++)
	{
		if (ch_col_lc_key(col, i) >= dict_rows)
		{
			c->row = (int64_t) i;
			rd->pos -= bytes;
			return fail(c, rd, CH_ERR_MALFORMED,
						"LowCardinality key %llu is outside the dictionary of %llu values",
						(unsigned long long) ch_col_lc_key(col, i),
						(unsigned long long) dict_rows);
		}
	}
	return CH_OK;
}

static ch_status
decode_data(dctx *c, ch_rd *rd, const ch_type *t, uint64_t n, ch_column *col,
			int depth)
{
	ch_status	st;
	uint64_t	bytes;
	uint64_t	total = 0;
	int			i;

	if (depth > CH_TYPE_MAX_DEPTH)
		return fail(c, rd, CH_ERR_LIMIT, "type nesting too deep");
	col->type = t;
	col->nrows = n;
	switch (t->kind)
	{
		case CH_T_STRING:
			return decode_strings(c, rd, n, col);

		case CH_T_NULLABLE:
			if ((st = ch_rd_take(rd, n, &col->null_map)) != CH_OK)
				return st;
			col->nchildren = 1;
			if (!(col->children = new_children(c, 1)))
				return fail(c, rd, CH_ERR_NOMEM, "out of memory");
			return decode_data(c, rd, t->children[0], n, &col->children[0], depth + 1);

		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			if ((st = decode_offsets(c, rd, n, &col->offsets, &total)) != CH_OK)
				return st;
			col->nchildren = t->kind == CH_T_ARRAY ? 1 : t->nchildren;
			if (!(col->children = new_children(c, col->nchildren)))
				return fail(c, rd, CH_ERR_NOMEM, "out of memory");
			for (i = 0; i < col->nchildren; i++)
			{
				st = decode_data(c, rd, t->children[i], total, &col->children[i], depth + 1);
				if (st != CH_OK)
					return st;
			}
			return CH_OK;

		case CH_T_TUPLE:
			if (t->nchildren == 0)
			{
				/* Tuple(): one placeholder byte per row, as for Nothing */
				return ch_rd_take(rd, n, &col->data);
			}
			col->nchildren = t->nchildren;
			if (!(col->children = new_children(c, t->nchildren)))
				return fail(c, rd, CH_ERR_NOMEM, "out of memory");
			for (i = 0; i < t->nchildren; i++)
			{
				st = decode_data(c, rd, t->children[i], n, &col->children[i], depth + 1);
				if (st != CH_OK)
					return st;
			}
			return CH_OK;

		case CH_T_LOWCARDINALITY:
			return decode_low_cardinality(c, rd, t, n, col, depth);

		case CH_T_AGGREGATE_FUNCTION:
			return fail(c, rd, CH_ERR_UNSUPPORTED,
						"cannot decode ClickHouse type %s: aggregate function states are opaque; select finalizeAggregation() or a -Merge combinator instead",
						t->name);
		case CH_T_JSON:
		case CH_T_VARIANT:
		case CH_T_DYNAMIC:
			return fail(c, rd, CH_ERR_UNSUPPORTED,
						"cannot decode ClickHouse type %s in Native format; it must be cast to String in the query",
						t->name);

		default:
			if (t->width == 0)
				return fail(c, rd, CH_ERR_INTERNAL, "no decoder for ClickHouse type %s", t->name);
			if (!ch_mul_ok(n, t->width, &bytes))
				return fail(c, rd, CH_ERR_LIMIT, "column size overflows");
			return ch_rd_take(rd, bytes, &col->data);
	}
}

static ch_status
decode_block_info(dctx *c, ch_rd *rd)
{
	for (;;)
	{
		uint64_t	field;
		const uint8_t *p;
		ch_status	st = ch_rd_varuint(rd, &field);

		if (st == CH_ERR_MALFORMED)
			return fail(c, rd, st, "malformed BlockInfo field number");
		if (st != CH_OK)
			return st;
		switch (field)
		{
			case 0:
				return CH_OK;
			case 1:
				if ((st = ch_rd_take(rd, 1, &p)) != CH_OK)
					return st;
				break;
			case 2:
				if ((st = ch_rd_take(rd, 4, &p)) != CH_OK)
					return st;
				break;
			case 3:
				{
					uint64_t	cnt,
								bytes;

					if ((st = ch_rd_varuint(rd, &cnt)) != CH_OK)
						return st == CH_ERR_MALFORMED ? fail(c, rd, st, "malformed BlockInfo") : st;
					if (!ch_mul_ok(cnt, 4, &bytes))
						return fail(c, rd, CH_ERR_LIMIT, "BlockInfo bucket list too large");
					if ((st = ch_rd_take(rd, bytes, &p)) != CH_OK)
						return st;
					break;
				}
			default:
				return fail(c, rd, CH_ERR_MALFORMED, "unknown BlockInfo field %llu",
							(unsigned long long) field);
		}
	}
}

static ch_status
lookup_type(dctx *c, ch_rd *rd, uint64_t idx, const uint8_t *text, uint64_t len,
			ch_type **out)
{
	ch_native_reader *r = c->r;
	ch_type    *t;
	ch_status	st;
	ch_error	perr;
	char	   *copy;

	if (idx < r->ncache && r->cache[idx].len == len &&
		memcmp(r->cache[idx].text, text, len) == 0)
	{
		*out = r->cache[idx].type;
		return CH_OK;
	}
	ch_error_clear(&perr);
	st = ch_type_parse((const char *) text, (size_t) len, &r->type_arena, &t, &perr);
	if (st != CH_OK)
		return fail(c, rd, st, "%s", perr.message);
	if (idx >= r->cache_cap)
	{
		uint64_t	ncap = r->cache_cap ? r->cache_cap * 2 : 16;
		cached_type *nc;

		while (ncap <= idx)
			ncap *= 2;
		nc = ch_alloc(r->a, sizeof(cached_type) * ncap);
		if (!nc)
			return fail(c, rd, CH_ERR_NOMEM, "out of memory");
		memset(nc, 0, sizeof(cached_type) * ncap);
		if (r->ncache)
			memcpy(nc, r->cache, sizeof(cached_type) * r->ncache);
		ch_free(r->a, r->cache);
		r->cache = nc;
		r->cache_cap = ncap;
	}
	copy = ch_arena_strndup(&r->type_arena, (const char *) text, (size_t) len);
	if (!copy)
		return fail(c, rd, CH_ERR_NOMEM, "out of memory");
	r->cache[idx].text = copy;
	r->cache[idx].len = (size_t) len;
	r->cache[idx].type = t;
	if (idx >= r->ncache)
		r->ncache = idx + 1;
	*out = t;
	return CH_OK;
}

static ch_status
decode_block(dctx *c, ch_rd *rd, ch_block *b)
{
	ch_native_reader *r = c->r;
	uint64_t	ncols,
				nrows,
				i;
	ch_status	st;

	if (r->with_block_info && (st = decode_block_info(c, rd)) != CH_OK)
		return st;
	if ((st = ch_rd_varuint(rd, &ncols)) != CH_OK)
		return st == CH_ERR_MALFORMED ? fail(c, rd, st, "malformed column count") : st;
	if ((st = ch_rd_varuint(rd, &nrows)) != CH_OK)
		return st == CH_ERR_MALFORMED ? fail(c, rd, st, "malformed row count") : st;
	if (ncols > r->lim.max_columns)
		return fail(c, rd, CH_ERR_LIMIT, "column count %llu exceeds the limit of %llu",
					(unsigned long long) ncols, (unsigned long long) r->lim.max_columns);
	if (nrows > r->lim.max_rows)
		return fail(c, rd, CH_ERR_LIMIT, "row count %llu exceeds the limit of %llu",
					(unsigned long long) nrows, (unsigned long long) r->lim.max_rows);
	/* each column needs at least two bytes (name and type lengths) */
	if (ncols * 2 > ch_rd_left(rd))
	{
		rd->need = rd->pos + ncols * 2;
		return CH_NEED_MORE;
	}
	if (ncols * sizeof(ch_column) > r->lim.max_index_bytes)
		return fail(c, rd, CH_ERR_LIMIT,
					"%llu columns would take more than the limit of %llu bytes of index for one block",
					(unsigned long long) ncols, (unsigned long long) r->lim.max_index_bytes);
	b->ncols = ncols;
	b->nrows = nrows;
	b->index = r->block_index;
	b->cols = ch_arena_zalloc(&r->block_arena, sizeof(ch_column) * (size_t) (ncols ? ncols : 1));
	if (!b->cols)
		return fail(c, rd, CH_ERR_NOMEM, "out of memory for %llu columns",
					(unsigned long long) ncols);
	for (i = 0; i < ncols; i++)
	{
		ch_column  *col = &b->cols[i];
		const uint8_t *name,
				   *tname;
		uint64_t	nlen,
					tlen;
		ch_type    *t;

		c->col = (int64_t) i;
		c->col_name = NULL;
		c->row = -1;
		st = ch_rd_string(rd, MAX_NAME_LEN, &name, &nlen);
		if (st == CH_ERR_LIMIT || st == CH_ERR_MALFORMED)
			return fail(c, rd, st, "bad column name length");
		if (st != CH_OK)
			return st;
		c->col_name = name;
		c->col_name_len = (size_t) nlen;
		st = ch_rd_string(rd, MAX_TYPE_NAME_LEN, &tname, &tlen);
		if (st == CH_ERR_LIMIT || st == CH_ERR_MALFORMED)
			return fail(c, rd, st, "bad type name length");
		if (st != CH_OK)
			return st;
		if ((st = lookup_type(c, rd, i, tname, tlen, &t)) != CH_OK)
			return st;
		if (r->custom_serialization)
		{
			const uint8_t *flag;

			/* NativeWriter.cpp: UInt8 has_custom after the type (rev 54454) */
			if ((st = ch_rd_take(rd, 1, &flag)) != CH_OK)
				return st;
			if (*flag != 0)
				return fail(c, rd, CH_ERR_UNSUPPORTED,
							"column uses a custom (sparse or replicated) serialization, which this client does not read");
		}
		if (nrows > 0)
		{
			if ((st = decode_prefix(c, rd, t, t, 0)) != CH_OK)
				return st;
			if ((st = decode_data(c, rd, t, nrows, col, 0)) != CH_OK)
				return st;
		}
		col->type = t;
		col->nrows = nrows;
		col->name = (const char *) name;
		col->name_len = (size_t) nlen;
		col->type_name = (const char *) tname;
		col->type_name_len = (size_t) tlen;
	}
	return CH_OK;
}

/*
 * Does buf start with a server exception: "Code: ..." (older servers), or
 * "__exception__" (25.11+, framed by a random tag)? -1 = undecided.
 */
static int
exception_at(const uint8_t *p, size_t len)
{
	static const char *const tags[] = {"Code: ", "__exception__"};
	size_t		skip = 0;
	int			t;
	int			undecided = 0;

	while (skip < len && (p[skip] == '\n' || p[skip] == '\r'))
		skip++;
	if (skip == len)
		return len > 0 ? -1 : 0;
	for (t = 0; t < 2; t++)
	{
		size_t		tl = strlen(tags[t]);
		size_t		n = len - skip < tl ? len - skip : tl;

		if (memcmp(p + skip, tags[t], n) != 0)
			continue;
		if (n == tl)
			return 1;
		undecided = -1;
	}
	return undecided;
}

static ch_status
server_exception(ch_native_reader *r, const uint8_t *p, size_t len, ch_error *err)
{
	size_t		n = len > MAX_EXCEPTION_TEXT ? MAX_EXCEPTION_TEXT : len;
	int			code = 0;
	size_t		i;

	while (n > 0 && (p[0] == '\n' || p[0] == '\r'))
	{
		p++;
		n--;
	}
	if (n >= 13 && memcmp(p, "__exception__", 13) == 0)
	{
		/*
		 * 25.11+: "__exception__\r\n<TAG>\r\n<message>\n<len> <TAG>\r\n
		 * __exception__\r\n": keep the message.
		 */
		const uint8_t *q = p + 13;
		const uint8_t *end = p + n;
		const uint8_t *m;

		while (q < end && (*q == '\r' || *q == '\n'))
			q++;
		while (q < end && *q != '\n')	/* the tag line */
			q++;
		if (q < end)
			q++;
		m = q;
		/* cut the closing "__exception__" and the "<len> <TAG>" line */
		for (q = end; q - m >= 13; q--)
			if (memcmp(q - 13, "__exception__", 13) == 0)
			{
				end = q - 13;
				break;
			}
		while (end > m && (end[-1] == '\r' || end[-1] == '\n'))
			end--;
		for (q = end; q > m; q--)
			if (q[-1] == '\n')
			{
				end = q - 1;
				break;
			}
		p = m;
		n = (size_t) (end - m);
	}
	for (i = 6; i < n && p[i] >= '0' && p[i] <= '9' && code < 100000000; i++)
		code = code * 10 + (p[i] - '0');
	while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == '\r'))
		n--;
	ch_error_clear(err);
	if (err)
	{
		err->code = CH_ERR_SERVER;
		err->server_code = code;
		err->offset = (int64_t) r->base_off;
		snprintf(err->message, sizeof(err->message), "%.*s", (int) n, (const char *) p);
	}
	return CH_ERR_SERVER;
}

static ch_status
stick(ch_native_reader *r, ch_status st, ch_error *err)
{
	r->stuck = st;
	if (err)
		r->stuck_err = *err;
	return st;
}

ch_status
ch_native_reader_next(ch_native_reader *r, ch_block **out, ch_error *err)
{
	dctx		c;
	ch_rd		rd;
	ch_status	st;
	int			exc;
	const uint8_t *data;
	size_t		avail;

	*out = NULL;
	if (r->stuck != CH_OK)
	{
		if (err)
			*err = r->stuck_err;
		return r->stuck;
	}
	if (r->consumed)
	{
		r->start += r->consumed;
		r->base_off += r->consumed;
		r->consumed = 0;
		r->block_index++;
		r->retry_at = 0;
	}
	ch_arena_reset(&r->block_arena);
	if (r->type_arena.total > TYPE_ARENA_RESET_BYTES)
	{
		ch_arena_reset(&r->type_arena);
		r->ncache = 0;
	}

	if (r->start == r->buf.len)
	{
		r->buf.len = r->start = 0;
		return r->finished ? CH_END : CH_NEED_MORE;
	}
	data = r->buf.data + r->start;
	avail = r->buf.len - r->start;

	/* HTTP only: TCP sends exceptions as packets */
	exc = r->with_block_info ? 0 : exception_at(data, avail);
	if (exc != 0)
	{
		if (exc > 0 && avail > MAX_EXCEPTION_TEXT)
		{
			/* a real exception text is short: do not buffer an endless one */
			server_exception(r, data, avail, err);
			if (err)
				snprintf(err->detail, sizeof(err->detail),
						 "The server's exception text is longer than %d bytes; the rest of the response was not read.",
						 MAX_EXCEPTION_TEXT);
			return stick(r, CH_ERR_SERVER, err);
		}
		if (!r->finished)
			return CH_NEED_MORE;	/* collect the whole text */
		if (exc > 0)
			return stick(r, server_exception(r, data, avail, err), err);
	}

	if (!r->finished && avail < r->retry_at)
	{
		if (avail > r->lim.max_block_bytes)
		{
			dctx		c0 = {r, err, -1, NULL, 0, -1};
			ch_rd		rd0;

			ch_rd_init(&rd0, data, avail);
			rd0.pos = rd0.len;
			return stick(r, fail(&c0, &rd0, CH_ERR_LIMIT,
								 "block larger than the limit of %llu bytes",
								 (unsigned long long) r->lim.max_block_bytes), err);
		}
		return CH_NEED_MORE;
	}

	c.r = r;
	c.err = err;
	c.col = -1;
	c.col_name = NULL;
	c.col_name_len = 0;
	c.row = -1;
	ch_rd_init(&rd, data, avail);
	memset(&r->block, 0, sizeof(r->block));
	st = decode_block(&c, &rd, &r->block);
	if (st == CH_OK && rd.pos > r->lim.max_block_bytes)
		return stick(r, fail(&c, &rd, CH_ERR_LIMIT,
							 "block of %zu bytes is larger than the limit of %llu bytes",
							 rd.pos, (unsigned long long) r->lim.max_block_bytes), err);
	if (st == CH_OK)
	{
		r->consumed = rd.pos;
		*out = &r->block;
		return CH_OK;
	}
	if (st != CH_NEED_MORE)
		return stick(r, st, err);

	ch_arena_reset(&r->block_arena);
	if (r->finished)
	{
		/* a server exception may also end a partial block */
		size_t		tail = avail > MAX_EXCEPTION_TEXT ? avail - MAX_EXCEPTION_TEXT : 0;
		size_t		i;

		for (i = tail; i + 6 <= avail; i++)
		{
			size_t		j = i + 6;
			size_t		k;
			bool		found = false;

			if (memcmp(data + i, "Code: ", 6) != 0)
				continue;
			/* "Code: <digits>" then the server's exception wording */
			while (j < avail && j < i + 16 && data[j] >= '0' && data[j] <= '9')
				j++;
			if (j == i + 6)
				continue;
			for (k = j; k + 13 <= avail && k < j + 40; k++)
				if (memcmp(data + k, "DB::Exception", 13) == 0)
				{
					found = true;
					break;
				}
			if (found)
				return stick(r, server_exception(r, data + i, avail - i, err), err);
		}
		rd.pos = rd.len;
		return stick(r, fail(&c, &rd, CH_ERR_TRUNCATED,
							 "input ended inside a block (%zu bytes of it received)",
							 avail), err);
	}
	if (avail > r->lim.max_block_bytes)
		return stick(r, fail(&c, &rd, CH_ERR_LIMIT,
							 "block larger than the limit of %llu bytes",
							 (unsigned long long) r->lim.max_block_bytes), err);
	{
		size_t		want = avail * 2;

		if (rd.need > want)
			want = rd.need;
		r->retry_at = want;
	}
	return CH_NEED_MORE;
}
