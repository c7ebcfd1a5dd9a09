/*-------------------------------------------------------------------------
 * ch_native.h
 *	  Incremental reader for ClickHouse's Native format.
 *
 * Bytes are pushed in chunks of any size (ch_native_reader_feed); whole
 * blocks are pulled out (ch_native_reader_next). A block's columns point
 * into the reader's buffer (zero-copy for fixed-width data, null maps,
 * array offsets and string bytes), so they stay valid only until the next
 * call to ch_native_reader_next or ch_native_reader_free. Memory is bounded
 * by one block plus the bytes fed after it.
 *
 * The buffer is the reader's own writable copy and a decoded block is never
 * parsed again: a caller may overwrite the length bytes before a String
 * value (data + str_pos[i] - 1 and before; str_pos[i] >= 1), which the
 * block has already read into str_len (the FDW writes text headers there).
 *
 * Safety: every count and length is checked against the configured limits
 * and against the bytes actually received before anything is allocated;
 * multiplications are overflow-checked. Malformed or truncated input gives
 * CH_ERR_MALFORMED / CH_ERR_TRUNCATED with the byte offset, block column and
 * row in the ch_error, never a crash.
 *
 * Framing: HTTP output (revision 0) has no BlockInfo; TCP has it
 * (with_block_info). Over HTTP a server exception that happens after the
 * response started is appended as text ("Code: NNN, ...") after the last
 * complete block; the reader recognises it at a block boundary and returns
 * CH_ERR_SERVER with the message.
 *
 * src/include/ch_native.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_NATIVE_H
#define CH_NATIVE_H

#include "ch_common.h"
#include "ch_type.h"

typedef struct ch_column ch_column;

/*
 * One decoded column (or sub-column) of nrows values.
 *	- fixed-width kinds: data points at nrows * type->width bytes (LE, maybe
 *	  unaligned: read with ch_le*).
 *	- String: str_pos[i] is the offset of value i's bytes from data, and
 *	  str_len[i] its length.
 *	- FixedString(N): data holds nrows * N bytes.
 *	- Nullable: null_map (nrows bytes, 1 = NULL) and children[0] (nrows).
 *	- Array / Map / Nested: offsets (nrows UInt64 LE, cumulative ends) and
 *	  children[0] (Array) or children[0..1] (Map keys, values) or children[]
 *	  (Nested fields) with offsets[nrows-1] rows.
 *	- Tuple: children[i], nrows each.
 *	- LowCardinality: children[0] holds the dictionary (lc_dict_rows values
 *	  of the inner type without Nullable), lc_keys nrows indexes of
 *	  lc_key_width bytes; lc_nullable when index 0 means NULL.
 *	- Nothing: nothing to read (placeholders skipped).
 */
struct ch_column
{
	const ch_type *type;
	const char *name;			/* top-level columns only; not NUL-terminated */
	size_t		name_len;
	const char *type_name;		/* as sent; not NUL-terminated */
	size_t		type_name_len;
	uint64_t	nrows;
	const uint8_t *data;
	size_t	   *str_pos;
	uint32_t   *str_len;
	const uint8_t *null_map;
	const uint8_t *offsets;
	const uint8_t *lc_keys;
	uint32_t	lc_key_width;
	uint64_t	lc_dict_rows;
	bool		lc_nullable;
	int			nchildren;
	ch_column  *children;
};

typedef struct ch_block
{
	uint64_t	ncols;
	uint64_t	nrows;
	ch_column  *cols;
	uint64_t	index;			/* 0-based block number in the stream */
} ch_block;

/*
 * What one block may cost. The defaults bound a block's memory to a few
 * hundred MB (max_block_bytes of input plus max_index_bytes of index);
 * the FDW lets a foreign server raise them (README, "Limits").
 */
typedef struct ch_native_limits
{
	uint64_t	max_columns;	/* default 100000 */
	uint64_t	max_rows;		/* per block; default 1e9 */
	uint64_t	max_string;		/* bytes per String value; default 1 GiB */
	uint64_t	max_block_bytes;	/* bytes buffered for one block; default
									 * CH_DEFAULT_MAX_BLOCK_BYTES */
	uint64_t	max_index_bytes;	/* memory the reader allocates for one
									 * block's columns and String positions
									 * (12 bytes a value); default
									 * CH_DEFAULT_MAX_INDEX_BYTES */
	uint64_t	max_lc_dict;	/* LowCardinality dictionary entries in one
								 * block; default CH_DEFAULT_MAX_LC_DICT */
} ch_native_limits;

#define CH_DEFAULT_MAX_BLOCK_BYTES ((uint64_t) 256 << 20)
#define CH_DEFAULT_MAX_INDEX_BYTES ((uint64_t) 128 << 20)
#define CH_DEFAULT_MAX_LC_DICT ((uint64_t) 1 << 24)

/*
 * The longest server exception text kept: a response that starts with one
 * and goes on for longer is cut there and reported (CH_ERR_SERVER, with the
 * first CH_MAX_EXCEPTION_TEXT bytes) without reading the rest.
 */
#define CH_MAX_EXCEPTION_TEXT (64 * 1024)

typedef struct ch_native_reader ch_native_reader;

/* Limits with their defaults filled in. */
void		ch_native_limits_default(ch_native_limits *lim);

/*
 * Create a reader. a may be NULL (malloc). with_block_info selects TCP
 * framing. lim may be NULL (defaults). Returns NULL on out of memory.
 */
ch_native_reader *ch_native_reader_create(const ch_allocator *a,
										  bool with_block_info,
										  const ch_native_limits *lim);
void		ch_native_reader_free(ch_native_reader *r);

/* Append input bytes (copied). CH_ERR_NOMEM / CH_ERR_LIMIT on failure. */
ch_status	ch_native_reader_feed(ch_native_reader *r, const void *data, size_t len,
								  ch_error *err);

/* Declare that no more input will come. */
void		ch_native_reader_finish(ch_native_reader *r);

/*
 * Decode the next block. Returns:
 *	CH_OK		 *out is a block (valid until the next call);
 *	CH_NEED_MORE feed more input (never returned after finish);
 *	CH_END		 the input ended cleanly at a block boundary;
 *	an error	 err says what, where (offset/column/row); the reader is then
 *				 stuck in that error.
 * The previous block's memory is released on entry.
 */
ch_status	ch_native_reader_next(ch_native_reader *r, ch_block **out, ch_error *err);

/*
 * TCP revisions >= 54454 write a UInt8 "has custom serialization" after
 * every column's type (ClickHouse src/Formats/NativeWriter.cpp). With on,
 * the reader expects it; a non-zero flag (sparse, replicated columns) is
 * CH_ERR_UNSUPPORTED.
 */
void		ch_native_reader_set_custom_serialization(ch_native_reader *r, bool on);

/*
 * After a partial block the reader waits for about twice the bytes before
 * it parses again (so a block arriving in small pieces is not re-parsed
 * for every piece). A caller that knows no more bytes are coming for now,
 * or that must know whether the bytes it has end the block (TCP: a block
 * ends with a compressed frame), makes the next ch_native_reader_next
 * parse at once.
 */
void		ch_native_reader_retry_now(ch_native_reader *r);

/*
 * Bytes of input the block last returned by ch_native_reader_next took
 * (0 before the first): where a packet stream (TCP) goes on after it.
 */
size_t		ch_native_reader_block_size(const ch_native_reader *r);

/*
 * Forget all input, the sticky error and the finish mark (the parsed-type
 * cache is kept), so the reader can take a new stream; the block handed
 * out last becomes invalid.
 */
void		ch_native_reader_reset(ch_native_reader *r);

/* Bytes currently buffered (for tests and memory accounting). */
size_t		ch_native_reader_buffered(const ch_native_reader *r);

/* Total bytes fed so far. */
uint64_t	ch_native_reader_total(const ch_native_reader *r);

/* ---- value access helpers ---- */

static inline bool
ch_col_is_null(const ch_column *c, uint64_t i)
{
	return c->null_map && c->null_map[i] != 0;
}

static inline const uint8_t *
ch_col_fixed(const ch_column *c, uint64_t i)
{
	return c->data + i * c->type->width;
}

static inline const uint8_t *
ch_col_str(const ch_column *c, uint64_t i, uint32_t *len)
{
	*len = c->str_len[i];
	return c->data + c->str_pos[i];
}

/* Array row i spans elements [*start, *end) of children[0]. */
static inline void
ch_col_array_range(const ch_column *c, uint64_t i, uint64_t *start, uint64_t *end)
{
	*start = i == 0 ? 0 : ch_le64(c->offsets + (i - 1) * 8);
	*end = ch_le64(c->offsets + i * 8);
}

/* LowCardinality: dictionary index of row i. */
static inline uint64_t
ch_col_lc_key(const ch_column *c, uint64_t i)
{
	const uint8_t *p = c->lc_keys + i * c->lc_key_width;

	switch (c->lc_key_width)
	{
		case 1:
			return p[0];
		case 2:
			return ch_le16(p);
		case 4:
			return ch_le32(p);
		default:
			return ch_le64(p);
	}
}

#endif							/* CH_NATIVE_H */
