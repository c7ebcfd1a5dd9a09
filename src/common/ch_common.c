/*-------------------------------------------------------------------------
 * ch_common.c
 *	  Status names, error filling, default allocator, byte buffers, varints
 *	  and the arena used by the PostgreSQL-free layers.
 *
 * src/common/ch_common.c
 *-------------------------------------------------------------------------
 */
#include "ch_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define CH_STATUS_NAME_(name, text) #name,
#define CH_STATUS_TEXT_(name, text) text,
static const char *const status_names[] = {CH_STATUS_LIST(CH_STATUS_NAME_)};
static const char *const status_texts[] = {CH_STATUS_LIST(CH_STATUS_TEXT_)};

const char *
ch_status_name(ch_status st)
{
	if ((unsigned) st >= CH_STATUS_COUNT_)
		return "CH_STATUS_INVALID";
	return status_names[st];
}

const char *
ch_status_text(ch_status st)
{
	if ((unsigned) st >= CH_STATUS_COUNT_)
		return "invalid status";
	return status_texts[st];
}

void
ch_error_clear(ch_error *err)
{
	if (!err)
		return;
	err->code = CH_OK;
	err->server_code = 0;
	err->http_status = 0;
	err->offset = -1;
	err->column = -1;
	err->row = -1;
	err->column_name[0] = '\0';
	err->server_name[0] = '\0';
	err->message[0] = '\0';
	err->detail[0] = '\0';
}

ch_status
ch_error_set(ch_error *err, ch_status code, const char *fmt,...)
{
	va_list		ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

static void *
default_alloc(void *ctx, size_t size)
{
	(void) ctx;
	return malloc(size);
}

static void
default_free(void *ctx, void *p)
{
	(void) ctx;
	free(p);
}

const ch_allocator ch_default_allocator = {default_alloc, default_free, NULL};

/* ---- ch_buf ---- */

void
ch_buf_init(ch_buf *b, const ch_allocator *a)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->a = ch_alloc_or_default(a);
}

void
ch_buf_free(ch_buf *b)
{
	ch_free(b->a, b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

ch_status
ch_buf_grow(ch_buf *b, size_t extra)
{
	size_t		want;
	size_t		ncap;
	uint8_t    *nd;

	if (extra > SIZE_MAX / 2 - b->len || b->len > SIZE_MAX / 2)
		return CH_ERR_LIMIT;
	want = b->len + extra;
	if (want <= b->cap)
		return CH_OK;
	ncap = b->cap ? b->cap : 4096;
	while (ncap < want)
	{
		if (ncap > SIZE_MAX / 2)
		{
			ncap = want;
			break;
		}
		ncap *= 2;
	}
	nd = ch_alloc(b->a, ncap);
	if (!nd)
		return CH_ERR_NOMEM;
	if (b->len)
		memcpy(nd, b->data, b->len);
	ch_free(b->a, b->data);
	b->data = nd;
	b->cap = ncap;
	return CH_OK;
}

ch_status
ch_buf_append_varuint(ch_buf *b, uint64_t v)
{
	ch_status	st = ch_buf_reserve(b, 10);

	if (st != CH_OK)
		return st;
	b->len += ch_varuint_encode(v, b->data + b->len);
	return CH_OK;
}

ch_status
ch_buf_append_string(ch_buf *b, const void *s, size_t len)
{
	ch_status	st;

	if (len > SIZE_MAX - 10)
		return CH_ERR_LIMIT;
	if ((st = ch_buf_reserve(b, len + 10)) != CH_OK)
		return st;
	b->len += ch_varuint_encode(len, b->data + b->len);
	if (len)
		memcpy(b->data + b->len, s, len);
	b->len += len;
	return CH_OK;
}

void
ch_buf_drop_front(ch_buf *b, size_t n)
{
	if (n >= b->len)
	{
		b->len = 0;
		return;
	}
	memmove(b->data, b->data + n, b->len - n);
	b->len -= n;
}

/* ---- reader primitives ---- */

ch_status
ch_rd_varuint(ch_rd *rd, uint64_t *out)
{
	uint64_t	v = 0;
	size_t		i;

	for (i = 0; i < 10; i++)
	{
		uint8_t		byte;

		if (rd->pos + i >= rd->len)
		{
			rd->need = rd->pos + i + 1;
			return CH_NEED_MORE;
		}
		byte = rd->base[rd->pos + i];
		if (i == 9 && byte > 1)
			return CH_ERR_MALFORMED;	/* more than 64 bits */
		v |= (uint64_t) (byte & 0x7f) << (7 * i);
		if ((byte & 0x80) == 0)
		{
			rd->pos += i + 1;
			*out = v;
			return CH_OK;
		}
	}
	return CH_ERR_MALFORMED;
}

ch_status
ch_rd_string(ch_rd *rd, uint64_t max_len, const uint8_t **s, uint64_t *slen)
{
	size_t		save = rd->pos;
	uint64_t	n;
	ch_status	st = ch_rd_varuint(rd, &n);

	if (st != CH_OK)
		return st;
	if (n > max_len)
	{
		rd->pos = save;
		return CH_ERR_LIMIT;
	}
	st = ch_rd_take(rd, n, s);
	if (st != CH_OK)
	{
		rd->pos = save;
		return st;
	}
	*slen = n;
	return CH_OK;
}

/* ---- arena ---- */

struct ch_arena_chunk
{
	ch_arena_chunk *next;
	size_t		size;			/* usable bytes after the header */
	/* data follows, max-aligned */
};

#define CH_ARENA_ALIGN 16
#define CH_ARENA_HDR ((sizeof(ch_arena_chunk) + CH_ARENA_ALIGN - 1) & ~(size_t) (CH_ARENA_ALIGN - 1))
#define CH_ARENA_MIN_CHUNK 8192

void
ch_arena_init(ch_arena *ar, const ch_allocator *a)
{
	ar->a = ch_alloc_or_default(a);
	ar->head = NULL;
	ar->used = 0;
	ar->total = 0;
}

void *
ch_arena_alloc(ch_arena *ar, size_t size)
{
	size_t		asize;

	if (size > SIZE_MAX - 2 * CH_ARENA_ALIGN - CH_ARENA_HDR)
		return NULL;
	asize = (size + CH_ARENA_ALIGN - 1) & ~(size_t) (CH_ARENA_ALIGN - 1);
	if (!ar->head || ar->head->size - ar->used < asize)
	{
		size_t		csize = asize > CH_ARENA_MIN_CHUNK ? asize : CH_ARENA_MIN_CHUNK;
		ch_arena_chunk *c;

		/* grow chunk sizes with the arena, so many allocations stay cheap */
		if (csize < ar->total / 2 && ar->total / 2 < ((size_t) 1 << 26))
			csize = ar->total / 2;
		c = ch_alloc(ar->a, CH_ARENA_HDR + csize);
		if (!c)
			return NULL;
		c->size = csize;
		c->next = ar->head;
		ar->head = c;
		ar->used = 0;
		ar->total += csize;
	}
	{
		void	   *p = (uint8_t *) ar->head + CH_ARENA_HDR + ar->used;

		ar->used += asize;
		return p;
	}
}

void *
ch_arena_zalloc(ch_arena *ar, size_t size)
{
	void	   *p = ch_arena_alloc(ar, size);

	if (p)
		memset(p, 0, size);
	return p;
}

char *
ch_arena_strndup(ch_arena *ar, const char *s, size_t n)
{
	char	   *p = ch_arena_alloc(ar, n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
ch_arena_reset(ch_arena *ar)
{
	ch_arena_chunk *c = ar->head;

	if (!c)
		return;
	/* keep the newest (largest) chunk, free the others */
	while (c->next)
	{
		ch_arena_chunk *n = c->next;

		c->next = n->next;
		ch_free(ar->a, n);
	}
	ar->used = 0;
	ar->total = c->size;
}

void
ch_arena_free(ch_arena *ar)
{
	ch_arena_chunk *c = ar->head;

	while (c)
	{
		ch_arena_chunk *n = c->next;

		ch_free(ar->a, c);
		c = n;
	}
	ar->head = NULL;
	ar->used = 0;
	ar->total = 0;
}
