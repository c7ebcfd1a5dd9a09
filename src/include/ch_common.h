/*-------------------------------------------------------------------------
 * ch_common.h
 *	  Status codes, error details, allocator hooks, byte buffers and
 *	  little-endian / varint primitives shared by the PostgreSQL-free layers
 *	  (src/common, src/codec, src/transport).
 *
 * Invariants:
 *	- No PostgreSQL header is included here or anywhere below src/common,
 *	  src/codec and src/transport.
 *	- Functions report failure by returning a ch_status and filling a
 *	  caller-owned ch_error; nothing here longjmps or aborts.
 *	- All memory comes from a ch_allocator, so the FDW can hand in
 *	  palloc-based hooks and running out of memory comes back as a status.
 *
 * src/include/ch_common.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_COMMON_H
#define CH_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Status codes: one X-macro list generates the enum and the name table.
 */
#define CH_STATUS_LIST(X)                                              \
	X(CH_OK, "ok")                                                     \
	X(CH_NEED_MORE, "more input is needed")                            \
	X(CH_END, "end of data")                                           \
	X(CH_ERR_NOMEM, "out of memory")                                   \
	X(CH_ERR_INVALID_ARGUMENT, "invalid argument")                     \
	X(CH_ERR_TRUNCATED, "truncated input")                             \
	X(CH_ERR_MALFORMED, "malformed input")                             \
	X(CH_ERR_LIMIT, "limit exceeded")                                  \
	X(CH_ERR_UNKNOWN_TYPE, "unknown ClickHouse type")                  \
	X(CH_ERR_UNSUPPORTED, "unsupported")                               \
	X(CH_ERR_CHECKSUM, "checksum mismatch")                            \
	X(CH_ERR_DECOMPRESS, "decompression failed")                       \
	X(CH_ERR_SERVER, "ClickHouse server exception")                    \
	X(CH_ERR_CONNECT, "could not connect")                             \
	X(CH_ERR_NETWORK, "network error")                                 \
	X(CH_ERR_TIMEOUT, "timeout")                                       \
	X(CH_ERR_PROTOCOL, "protocol error")                               \
	X(CH_ERR_CANCELLED, "cancelled")                                   \
	X(CH_ERR_INTERNAL, "internal error")

#define CH_STATUS_ENUM_(name, text) name,
typedef enum ch_status
{
	CH_STATUS_LIST(CH_STATUS_ENUM_) CH_STATUS_COUNT_
} ch_status;
#undef CH_STATUS_ENUM_

/* The status' symbolic name, e.g. "CH_ERR_TRUNCATED". */
const char *ch_status_name(ch_status st);
/* A short English description of the status. */
const char *ch_status_text(ch_status st);

#define CH_ERROR_MESSAGE_MAX 1024

/*
 * Details of a failure. Caller-owned; filled by the function that fails.
 * offset, column and row are -1 when they do not apply.
 */
typedef struct ch_error
{
	ch_status	code;			/* what went wrong */
	int			server_code;	/* ClickHouse exception code, or 0 */
	int			http_status;	/* HTTP status, or 0 */
	int64_t		offset;			/* byte offset in the input stream */
	int64_t		column;			/* column index in the block */
	int64_t		row;			/* row index in the block */
	char		column_name[128];	/* column name when known */
	char		server_name[128];	/* ClickHouse exception class (e.g.
									 * "DB::Exception"), or "" */
	char		message[CH_ERROR_MESSAGE_MAX];	/* human-readable text */
	char		detail[1024];	/* optional lower-level detail (e.g. libcurl's) */
} ch_error;

void		ch_error_clear(ch_error *err);

/*
 * Set err's code and message (printf-style) and return the code, so a
 * failing function can "return ch_error_set(err, CH_ERR_X, ...)".
 * err may be NULL.
 */
ch_status	ch_error_set(ch_error *err, ch_status code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/*
 * Allocator hooks (as lz4's LZ4F_CustomMem). alloc returns NULL on failure;
 * free accepts NULL.
 */
typedef struct ch_allocator
{
	void	   *(*alloc) (void *ctx, size_t size);
	void		(*free) (void *ctx, void *ptr);
	void	   *ctx;
} ch_allocator;

/* malloc/free; used when a caller passes NULL. */
extern const ch_allocator ch_default_allocator;

static inline const ch_allocator *
ch_alloc_or_default(const ch_allocator *a)
{
	return a ? a : &ch_default_allocator;
}

static inline void *
ch_alloc(const ch_allocator *a, size_t size)
{
	return a->alloc(a->ctx, size ? size : 1);
}

static inline void
ch_free(const ch_allocator *a, void *p)
{
	if (p)
		a->free(a->ctx, p);
}

/* a * b into *out; false on overflow. */
static inline bool
ch_mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/*
 * Growable byte buffer. data[0..len) is valid; start..len is what has not
 * been consumed yet (ch_buf_consume moves start, ch_buf_compact drops the
 * consumed prefix).
 */
typedef struct ch_buf
{
	uint8_t    *data;
	size_t		len;
	size_t		cap;
	const ch_allocator *a;
} ch_buf;

void		ch_buf_init(ch_buf *b, const ch_allocator *a);
void		ch_buf_free(ch_buf *b);
/* Grow the allocation (the slow path of ch_buf_reserve). */
ch_status	ch_buf_grow(ch_buf *b, size_t extra);

/* Make room for extra more bytes. CH_ERR_NOMEM / CH_ERR_LIMIT on failure. */
static inline ch_status
ch_buf_reserve(ch_buf *b, size_t extra)
{
	if (extra <= b->cap - b->len)
		return CH_OK;
	return ch_buf_grow(b, extra);
}

static inline ch_status
ch_buf_append(ch_buf *b, const void *data, size_t len)
{
	ch_status	st;

	if (len == 0)
		return CH_OK;
	if ((st = ch_buf_reserve(b, len)) != CH_OK)
		return st;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return CH_OK;
}
ch_status	ch_buf_append_varuint(ch_buf *b, uint64_t v);
ch_status	ch_buf_append_string(ch_buf *b, const void *s, size_t len);
/* Drop the first n bytes (n <= len), moving the rest to the front. */
void		ch_buf_drop_front(ch_buf *b, size_t n);

static inline void
ch_buf_reset(ch_buf *b)
{
	b->len = 0;
}

/* branch hints for hot paths */
#define CH_LIKELY(x)	__builtin_expect(!!(x), 1)
#define CH_UNLIKELY(x)	__builtin_expect(!!(x), 0)

/*
 * Little-endian loads and stores through memcpy (never pointer casts), so
 * unaligned positions in a received buffer are fine.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CH_BSWAP16(x) __builtin_bswap16(x)
#define CH_BSWAP32(x) __builtin_bswap32(x)
#define CH_BSWAP64(x) __builtin_bswap64(x)
#else
#define CH_BSWAP16(x) (x)
#define CH_BSWAP32(x) (x)
#define CH_BSWAP64(x) (x)
#endif

static inline uint16_t
ch_le16(const void *p)
{
	uint16_t	v;

	memcpy(&v, p, 2);
	return CH_BSWAP16(v);
}

static inline uint32_t
ch_le32(const void *p)
{
	uint32_t	v;

	memcpy(&v, p, 4);
	return CH_BSWAP32(v);
}

static inline uint64_t
ch_le64(const void *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return CH_BSWAP64(v);
}

static inline void
ch_put_le16(void *p, uint16_t v)
{
	v = CH_BSWAP16(v);
	memcpy(p, &v, 2);
}

static inline void
ch_put_le32(void *p, uint32_t v)
{
	v = CH_BSWAP32(v);
	memcpy(p, &v, 4);
}

static inline void
ch_put_le64(void *p, uint64_t v)
{
	v = CH_BSWAP64(v);
	memcpy(p, &v, 8);
}

/*
 * A bounded reader over a byte range. pos advances only on success, so a
 * caller that gets CH_NEED_MORE can retry from the same place later.
 */
typedef struct ch_rd
{
	const uint8_t *base;		/* start of the range (offset 0) */
	size_t		pos;			/* next byte to read */
	size_t		len;			/* bytes available */
	size_t		need;			/* on CH_NEED_MORE: total bytes needed, if
								 * known */
} ch_rd;

static inline void
ch_rd_init(ch_rd *rd, const void *base, size_t len)
{
	rd->base = (const uint8_t *) base;
	rd->pos = 0;
	rd->len = len;
	rd->need = 0;
}

static inline size_t
ch_rd_left(const ch_rd *rd)
{
	return rd->len - rd->pos;
}

/* Claim n bytes: *out points at them. CH_NEED_MORE if fewer remain. */
static inline ch_status
ch_rd_take(ch_rd *rd, uint64_t n, const uint8_t **out)
{
	if (n > ch_rd_left(rd))
	{
		rd->need = (n > SIZE_MAX - rd->pos) ? SIZE_MAX : rd->pos + n;
		return CH_NEED_MORE;
	}
	*out = rd->base + rd->pos;
	rd->pos += n;
	return CH_OK;
}

/* Unsigned LEB128, at most 10 bytes. CH_ERR_MALFORMED if longer. */
ch_status	ch_rd_varuint(ch_rd *rd, uint64_t *out);
/* VarUInt length + bytes; length must not exceed max_len. */
ch_status	ch_rd_string(ch_rd *rd, uint64_t max_len, const uint8_t **s,
						 uint64_t *slen);

static inline ch_status
ch_rd_u64(ch_rd *rd, uint64_t *out)
{
	const uint8_t *p;
	ch_status	st = ch_rd_take(rd, 8, &p);

	if (st == CH_OK)
		*out = ch_le64(p);
	return st;
}

/* Encode v as VarUInt into out (at least 10 bytes); returns the length. */
static inline size_t
ch_varuint_encode(uint64_t v, uint8_t *out)
{
	size_t		n = 0;

	while (v >= 0x80)
	{
		out[n++] = (uint8_t) (v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t) v;
	return n;
}

/*
 * Arena: many small allocations freed at once. Chunks come from the
 * allocator; ch_arena_reset keeps the first chunk for reuse.
 */
typedef struct ch_arena_chunk ch_arena_chunk;
typedef struct ch_arena
{
	const ch_allocator *a;
	ch_arena_chunk *head;
	size_t		used;			/* bytes used in head */
	size_t		total;			/* bytes allocated in all chunks */
} ch_arena;

void		ch_arena_init(ch_arena *ar, const ch_allocator *a);
void	   *ch_arena_alloc(ch_arena *ar, size_t size);	/* NULL on OOM */
void	   *ch_arena_zalloc(ch_arena *ar, size_t size);
char	   *ch_arena_strndup(ch_arena *ar, const char *s, size_t n);
void		ch_arena_reset(ch_arena *ar);
void		ch_arena_free(ch_arena *ar);

#endif							/* CH_COMMON_H */
