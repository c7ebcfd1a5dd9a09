/*-------------------------------------------------------------------------
 * unit_util.c
 *	  Helpers shared by the unit tests: counting allocator, golden files,
 *	  byte builders, whole-stream decoding, block hashing and re-encoding.
 *
 * test/unit/unit_util.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <poll.h>
#include <stdlib.h>

/* ---- counting allocator ---- */

#define CA_HDR 16				/* keeps the 16-byte alignment of malloc */

static void *
ca_alloc(void *ctx, size_t size)
{
	count_alloc *ca = ctx;
	uint8_t    *p;

	if (size > ca->largest)
		ca->largest = size;
	if ((ca->fail_above && size > ca->fail_above) ||
		(ca->fail_after && ca->nalloc >= ca->fail_after) ||
		size > SIZE_MAX - CA_HDR)
	{
		ca->nfailed++;
		return NULL;
	}
	p = malloc(size + CA_HDR);
	if (!p)
	{
		ca->nfailed++;
		return NULL;
	}
	memcpy(p, &size, sizeof(size));
	ca->nalloc++;
	ca->live += size;
	if (ca->live > ca->peak)
		ca->peak = ca->live;
	return p + CA_HDR;
}

static void
ca_free(void *ctx, void *ptr)
{
	count_alloc *ca = ctx;
	uint8_t    *p;
	size_t		size;

	if (!ptr)
		return;
	p = (uint8_t *) ptr - CA_HDR;
	memcpy(&size, p, sizeof(size));
	ca->live -= size;
	ca->nfree++;
	free(p);
}

void
count_alloc_init(count_alloc *ca, size_t fail_above)
{
	memset(ca, 0, sizeof(*ca));
	ca->a.alloc = ca_alloc;
	ca->a.free = ca_free;
	ca->a.ctx = ca;
	ca->fail_above = fail_above;
}

/* ---- golden files ---- */

bool
golden_read_ext(const char *name, const char *ext, uint8_t **data, size_t *len)
{
	char		path[4096];
	FILE	   *f;
	long		sz;
	uint8_t    *buf;

	*data = NULL;
	*len = 0;
	snprintf(path, sizeof(path), "%s/v18_16/%s.%s", unit_golden_dir, name, ext);
	f = fopen(path, "rb");
	if (!f)
		return CHECK_MSG(false, "missing golden file %s", path);
	if (fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
	{
		fclose(f);
		return CHECK_MSG(false, "cannot read golden file %s", path);
	}
	buf = malloc((size_t) sz + 1);
	if (!buf || fread(buf, 1, (size_t) sz, f) != (size_t) sz)
	{
		free(buf);
		fclose(f);
		return CHECK_MSG(false, "cannot read golden file %s", path);
	}
	buf[sz] = 0;				/* convenient for text files */
	fclose(f);
	*data = buf;
	*len = (size_t) sz;
	return true;
}

bool
golden_read(const char *name, uint8_t **data, size_t *len)
{
	return golden_read_ext(name, "bin", data, len);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

int
golden_names(char ***names)
{
	char		path[4096];
	DIR		   *d;
	struct dirent *e;
	int			n = 0,
				cap = 64;
	char	  **v = malloc(sizeof(char *) * (size_t) cap);

	*names = v;
	snprintf(path, sizeof(path), "%s/v18_16", unit_golden_dir);
	d = opendir(path);
	if (!d)
	{
		CHECK_MSG(false, "cannot open golden directory %s", path);
		return 0;
	}
	while ((e = readdir(d)) != NULL)
	{
		size_t		l = strlen(e->d_name);

		if (l > 4 && strcmp(e->d_name + l - 4, ".bin") == 0)
		{
			if (n == cap)
			{
				cap *= 2;
				v = realloc(v, sizeof(char *) * (size_t) cap);
			}
			v[n] = malloc(l - 3);
			memcpy(v[n], e->d_name, l - 4);
			v[n][l - 4] = '\0';
			n++;
		}
	}
	closedir(d);
	qsort(v, (size_t) n, sizeof(char *), cmp_str);
	*names = v;
	return n;
}

void
golden_names_free(char **names, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ---- builders ---- */

void
bld_raw(ch_buf *b, const void *p, size_t n)
{
	if (ch_buf_append(b, p, n) != CH_OK)
		abort();
}

void
bld_u8(ch_buf *b, uint8_t v)
{
	bld_raw(b, &v, 1);
}

void
bld_u16(ch_buf *b, uint16_t v)
{
	uint8_t		t[2];

	ch_put_le16(t, v);
	bld_raw(b, t, 2);
}

void
bld_u32(ch_buf *b, uint32_t v)
{
	uint8_t		t[4];

	ch_put_le32(t, v);
	bld_raw(b, t, 4);
}

void
bld_u64(ch_buf *b, uint64_t v)
{
	uint8_t		t[8];

	ch_put_le64(t, v);
	bld_raw(b, t, 8);
}

void
bld_varuint(ch_buf *b, uint64_t v)
{
	if (ch_buf_append_varuint(b, v) != CH_OK)
		abort();
}

void
bld_str(ch_buf *b, const char *s)
{
	if (ch_buf_append_string(b, s, strlen(s)) != CH_OK)
		abort();
}

void
bld_col(ch_buf *b, const char *name, const char *type)
{
	bld_str(b, name);
	bld_str(b, type);
}

/* ---- hashing ---- */

typedef struct hasher
{
	uint64_t	h;
} hasher;

static void
h_bytes(hasher *h, const void *p, size_t n)
{
	const uint8_t *s = p;
	size_t		i = 0;

	h->h ^= n;
	h->h *= 0x100000001b3ULL;
	for (; i + 8 <= n; i += 8)
	{
		h->h ^= ch_le64(s + i);
		h->h *= 0x9e3779b97f4a7c15ULL;
		h->h ^= h->h >> 29;
	}
	for (; i < n; i++)
	{
		h->h ^= s[i];
		h->h *= 0x100000001b3ULL;
	}
}

static void
h_u64(hasher *h, uint64_t v)
{
	uint8_t		t[8];

	ch_put_le64(t, v);
	h_bytes(h, t, 8);
}

static void
hash_column(hasher *h, const ch_column *c)
{
	const ch_type *t = c->type;
	uint64_t	i;
	int			k;

	h_u64(h, t ? (uint64_t) t->kind : 999);
	h_u64(h, c->nrows);
	if (!t || c->nrows == 0)
		return;
	switch ((int) t->kind)	/* not every kind needs a case */
	{
		case CH_T_STRING:
			for (i = 0; i < c->nrows; i++)
			{
				uint32_t	len;
				const uint8_t *s = ch_col_str(c, i, &len);

				h_u64(h, len);
				h_bytes(h, s, len);
			}
			return;
		case CH_T_NULLABLE:
			h_bytes(h, c->null_map, c->nrows);
			hash_column(h, &c->children[0]);
			return;
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			h_bytes(h, c->offsets, c->nrows * 8);
			for (k = 0; k < c->nchildren; k++)
				hash_column(h, &c->children[k]);
			return;
		case CH_T_TUPLE:
			for (k = 0; k < c->nchildren; k++)
				hash_column(h, &c->children[k]);
			return;
		case CH_T_LOWCARDINALITY:
			h_u64(h, c->lc_nullable);
			h_u64(h, c->lc_key_width);
			h_u64(h, c->lc_dict_rows);
			hash_column(h, &c->children[0]);
			for (i = 0; i < c->nrows; i++)
				h_u64(h, ch_col_lc_key(c, i));
			return;
		default:
			h_bytes(h, c->data, c->nrows * t->width);
			return;
	}
}

uint64_t
block_hash(const ch_block *b)
{
	hasher		h = {0xcbf29ce484222325ULL};
	uint64_t	i;

	h_u64(&h, b->ncols);
	h_u64(&h, b->nrows);
	for (i = 0; i < b->ncols; i++)
	{
		const ch_column *c = &b->cols[i];

		h_u64(&h, c->name_len);
		h_bytes(&h, c->name, c->name_len);
		h_u64(&h, c->type_name_len);
		h_bytes(&h, c->type_name, c->type_name_len);
		hash_column(&h, c);
	}
	return h.h;
}

/* ---- re-encoding ---- */

static void
enc_prefix(ch_buf *out, const ch_type *t)
{
	int			i;

	switch ((int) t->kind)	/* not every kind needs a case */
	{
		case CH_T_LOWCARDINALITY:
			bld_u64(out, 1);
			return;
		case CH_T_NULLABLE:
		case CH_T_ARRAY:
		case CH_T_TUPLE:
		case CH_T_MAP:
		case CH_T_NESTED:
			for (i = 0; i < t->nchildren; i++)
				enc_prefix(out, t->children[i]);
			return;
		default:
			return;
	}
}

static bool
enc_data(ch_buf *out, const ch_column *c)
{
	const ch_type *t = c->type;
	uint64_t	i;
	int			k;

	if (c->nrows == 0)
		return true;
	switch ((int) t->kind)	/* not every kind needs a case */
	{
		case CH_T_STRING:
			for (i = 0; i < c->nrows; i++)
			{
				uint32_t	len;
				const uint8_t *s = ch_col_str(c, i, &len);

				bld_varuint(out, len);
				bld_raw(out, s, len);
			}
			return true;
		case CH_T_NULLABLE:
			bld_raw(out, c->null_map, c->nrows);
			return enc_data(out, &c->children[0]);
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			bld_raw(out, c->offsets, c->nrows * 8);
			for (k = 0; k < c->nchildren; k++)
				if (!enc_data(out, &c->children[k]))
					return false;
			return true;
		case CH_T_TUPLE:
			for (k = 0; k < c->nchildren; k++)
				if (!enc_data(out, &c->children[k]))
					return false;
			return true;
		case CH_T_LOWCARDINALITY:
			{
				uint64_t	code = c->lc_key_width == 1 ? 0 : c->lc_key_width == 2 ? 1 :
					c->lc_key_width == 4 ? 2 : 3;

				bld_u64(out, 0x600 | code);
				bld_u64(out, c->lc_dict_rows);
				if (!enc_data(out, &c->children[0]))
					return false;
				bld_u64(out, c->nrows);
				bld_raw(out, c->lc_keys, c->nrows * c->lc_key_width);
				return true;
			}
		case CH_T_AGGREGATE_FUNCTION:
		case CH_T_JSON:
		case CH_T_VARIANT:
		case CH_T_DYNAMIC:
			return false;
		default:
			if (t->width == 0)
				return false;
			bld_raw(out, c->data, c->nrows * t->width);
			return true;
	}
}

bool
reencode_block(ch_buf *out, const ch_block *b, bool with_block_info)
{
	uint64_t	i;

	if (with_block_info)
		bld_raw(out, "\x01\x00\x02\xff\xff\xff\xff\x00", 8);
	bld_varuint(out, b->ncols);
	bld_varuint(out, b->nrows);
	for (i = 0; i < b->ncols; i++)
	{
		const ch_column *c = &b->cols[i];

		if (ch_buf_append_string(out, c->name, c->name_len) != CH_OK ||
			ch_buf_append_string(out, c->type_name, c->type_name_len) != CH_OK)
			abort();
		if (b->nrows > 0)
		{
			enc_prefix(out, c->type);
			if (!enc_data(out, c))
				return false;
		}
	}
	return true;
}

/* ---- stream decoding ---- */

uint64_t
unit_rand(uint64_t *state)
{
	uint64_t	x = *state ? *state : 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Calls next() until it stops giving blocks. Returns true when done. */
static bool
drain(ch_native_reader *r, stream_result *res, bool finished, bool with_block_info,
	  unsigned flags)
{
	for (;;)
	{
		ch_block   *b = NULL;
		ch_error	err;
		ch_status	st;

		ch_error_clear(&err);
		st = ch_native_reader_next(r, &b, &err);
		if (st == CH_OK)
		{
			if (!b)
			{
				res->protocol_ok = false;
				res->final = CH_ERR_INTERNAL;
				return true;
			}
			if (res->nblocks < MAX_STREAM_BLOCKS)
			{
				res->hash[res->nblocks] = (flags & STREAM_LIGHT) ? 0 : block_hash(b);
				res->nrows[res->nblocks] = b->nrows;
				res->start[res->nblocks] = ch_native_reader_total(r) -
					ch_native_reader_buffered(r);
			}
			if (b->index != res->nblocks)
				res->protocol_ok = false;
			res->nblocks++;
			if (!(flags & STREAM_LIGHT) && !reencode_block(&res->reencoded, b, with_block_info))
				res->reencode_ok = false;
			continue;
		}
		if (b != NULL)
			res->protocol_ok = false;	/* *out must be NULL unless CH_OK */
		if (st == CH_NEED_MORE && !finished)
			return false;
		if (st == CH_NEED_MORE)
			res->protocol_ok = false;	/* never after finish */
		res->final = st;
		res->err = err;
		if (res->nblocks <= MAX_STREAM_BLOCKS)
			res->start[res->nblocks] = ch_native_reader_total(r) -
				ch_native_reader_buffered(r);
		return true;
	}
}

void
decode_stream(const uint8_t *data, size_t len, feed_mode mode, uint64_t chunk,
			  bool with_block_info, const ch_allocator *a,
			  const ch_native_limits *lim, stream_result *res)
{
	decode_stream_flags(data, len, mode, chunk, with_block_info, a, lim, 0, res);
}

void
decode_stream_flags(const uint8_t *data, size_t len, feed_mode mode, uint64_t chunk,
					bool with_block_info, const ch_allocator *a,
					const ch_native_limits *lim, unsigned flags, stream_result *res)
{
	ch_native_reader *r;
	size_t		pos = 0;
	uint64_t	rng = chunk * 0x9e3779b97f4a7c15ULL + 1;

	memset(res, 0, sizeof(*res));
	ch_buf_init(&res->reencoded, NULL);
	ch_error_clear(&res->err);
	res->reencode_ok = true;
	res->protocol_ok = true;
	r = ch_native_reader_create(a, with_block_info, lim);
	if (!r)
	{
		res->final = CH_ERR_NOMEM;
		return;
	}
	while (pos < len)
	{
		size_t		n;
		ch_status	st;

		switch (mode)
		{
			case FEED_ALL:
				n = len - pos;
				break;
			case FEED_BYTES:
				n = 1;
				break;
			case FEED_CHUNK:
				n = chunk ? (size_t) chunk : 1;
				break;
			case FEED_RANDOM:
			default:
				{
					uint64_t	x = unit_rand(&rng);

					switch (x & 3)
					{
						case 0:
						case 1:
							n = 1 + (size_t) ((x >> 8) % 16);
							break;
						case 2:
							n = 1 + (size_t) ((x >> 8) % 512);
							break;
						default:
							n = 1 + (size_t) ((x >> 8) % 65536);
							break;
					}
					break;
				}
		}
		if (n > len - pos)
			n = len - pos;
		st = ch_native_reader_feed(r, data + pos, n, &res->err);
		if (st != CH_OK)
		{
			res->final = st;
			ch_native_reader_free(r);
			return;
		}
		pos += n;
		if (mode != FEED_ALL && drain(r, res, false, with_block_info, flags))
		{
			/* an error before the end of the input */
			ch_native_reader_free(r);
			return;
		}
	}
	ch_native_reader_finish(r);
	drain(r, res, true, with_block_info, flags);
	ch_native_reader_free(r);
}

void
stream_result_free(stream_result *res)
{
	ch_buf_free(&res->reencoded);
}

const uint8_t *
find_bytes(const uint8_t *hay, size_t len, const char *needle)
{
	size_t		n = strlen(needle);
	size_t		i;

	if (n == 0 || n > len)
		return n == 0 ? hay : NULL;
	for (i = 0; i + n <= len; i++)
		if (hay[i] == (uint8_t) needle[0] && memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

/* ---- value access ---- */

const ch_column *
col_named(const ch_block *b, const char *name)
{
	uint64_t	i;
	size_t		l = strlen(name);

	for (i = 0; i < b->ncols; i++)
		if (b->cols[i].name_len == l && memcmp(b->cols[i].name, name, l) == 0)
			return &b->cols[i];
	CHECK_MSG(false, "block has no column \"%s\"", name);
	return NULL;
}

const uint8_t *
col_str_at(const ch_column *c, uint64_t i, uint32_t *len)
{
	return ch_col_str(c, i, len);
}

bool
col_str_eq(const ch_column *c, uint64_t i, const void *s, size_t len)
{
	uint32_t	l;
	const uint8_t *p = ch_col_str(c, i, &l);

	return l == len && (len == 0 || memcmp(p, s, len) == 0);
}

const uint8_t *
lc_str_at(const ch_column *c, uint64_t i, uint32_t *len)
{
	uint64_t	key = ch_col_lc_key(c, i);

	if (c->lc_nullable && key == 0)
	{
		*len = 0;
		return NULL;
	}
	return ch_col_str(&c->children[0], key, len);
}

int64_t
col_i64(const ch_column *c, uint64_t i)
{
	const uint8_t *p = ch_col_fixed(c, i);

	switch (c->type->width)
	{
		case 1:
			return (int8_t) p[0];
		case 2:
			return (int16_t) ch_le16(p);
		case 4:
			return (int32_t) ch_le32(p);
		default:
			return (int64_t) ch_le64(p);
	}
}

uint64_t
col_u64(const ch_column *c, uint64_t i)
{
	const uint8_t *p = ch_col_fixed(c, i);

	switch (c->type->width)
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

ch_writer *
unit_make_writer(ch_arena *ar, ch_format fmt, int n, const char *const *names,
				 const char *const *tnames)
{
	const ch_type **types = ch_arena_alloc(ar, sizeof(ch_type *) * n);
	ch_error	err;
	int			i;

	for (i = 0; i < n; i++)
		if (ch_type_parse(tnames[i], strlen(tnames[i]), ar, (ch_type **) &types[i], &err) != CH_OK)
			return NULL;
	return ch_writer_create(NULL, fmt, n, names, types, &err);
}

/* ---- waiting on a transport ---- */

void
wait_poll(const ch_wait *w)
{
	struct pollfd pfd[CH_WAIT_MAX_SOCKETS];
	int			i;

	for (i = 0; i < w->nsockets; i++)
	{
		pfd[i].fd = w->fd[i];
		pfd[i].events = (short) ((w->want_read[i] ? POLLIN : 0) | (w->want_write[i] ? POLLOUT : 0));
	}
	(void) poll(pfd, (nfds_t) w->nsockets, (int) (w->timeout_ms < 0 ? 30000 : w->timeout_ms));
}
