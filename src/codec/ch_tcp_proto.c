/*-------------------------------------------------------------------------
 * ch_tcp_proto.c
 *	  ClickHouse native TCP protocol: client packet encoders and the
 *	  incremental server packet decoder (see ch_tcp_proto.h for the sources
 *	  every layout comes from).
 *
 * The decoder keeps the received bytes in one buffer. A packet other than
 * a block is parsed from its first byte each time more bytes arrive (they
 * are small); a block packet (Data, Totals, Extremes, Log, ProfileEvents)
 * hands its block to a ch_native_reader (TCP layout), fed either the raw
 * bytes or, when the query is compressed, the decompressed contents of one
 * frame at a time: ClickHouse flushes its compressed buffer at the end of
 * every block (TCPHandler::sendData), so a block ends at a frame boundary
 * and the next packet starts after that frame.
 *
 * Invariants: no PostgreSQL header; every length is checked against the
 * bytes received and the limits before anything is allocated; a truncated
 * packet is CH_NEED_MORE until ch_tcp_decoder_finish, then
 * CH_ERR_TRUNCATED.
 *
 * src/codec/ch_tcp_proto.c
 *-------------------------------------------------------------------------
 */
#include "ch_tcp_proto.h"

#include <stdio.h>

#define MAX_SHORT_STRING	(1u << 20)	/* names, zones, settings */
#define MAX_TEXT			((uint64_t) 64 << 20)	/* messages, descriptions */
#define MAX_LIST			100000	/* settings, rules in a hello */
#define MAX_NESTED_EXCEPTIONS 64

/* ---- encoding helpers ---- */

static ch_status
put_str(ch_buf *b, const char *s)
{
	return ch_buf_append_string(b, s ? s : "", s ? strlen(s) : 0);
}

static ch_status
put_u8(ch_buf *b, uint8_t v)
{
	return ch_buf_append(b, &v, 1);
}

static ch_status
put_u64(ch_buf *b, uint64_t v)
{
	uint8_t		t[8];

	ch_put_le64(t, v);
	return ch_buf_append(b, t, 8);
}

#define TRY(x) do { ch_status st_ = (x); if (st_ != CH_OK) return st_; } while (0)

ch_status
ch_tcp_write_hello(ch_buf *out, const ch_tcp_hello_out *h)
{
	/* Connection::sendHello; TCPHandler::receiveHello */
	TRY(ch_buf_append_varuint(out, CH_CP_HELLO));
	TRY(put_str(out, h->client_name));
	TRY(ch_buf_append_varuint(out, h->version_major));
	TRY(ch_buf_append_varuint(out, h->version_minor));
	TRY(ch_buf_append_varuint(out, h->revision));
	TRY(put_str(out, h->database));
	TRY(put_str(out, h->user && h->user[0] ? h->user : "default"));
	return put_str(out, h->password);
}

ch_status
ch_tcp_write_addendum(ch_buf *out, uint32_t rev)
{
	/* Connection::sendAddendum; TCPHandler::receiveAddendum */
	if (rev < CH_REV_ADDENDUM)
		return CH_OK;
	TRY(put_str(out, ""));		/* quota key */
	if (rev >= CH_REV_CHUNKED_PACKETS)
	{
		TRY(put_str(out, "notchunked"));	/* what we send */
		TRY(put_str(out, "notchunked"));	/* what we accept */
	}
	if (rev >= CH_REV_VERSIONED_PARALLEL_REPLICAS)
		TRY(ch_buf_append_varuint(out, 0));
	return CH_OK;
}

/* ClientInfo::write, for an initial query over TCP */
static ch_status
write_client_info(ch_buf *out, uint32_t rev, const ch_tcp_hello_out *c)
{
	TRY(put_u8(out, 1));		/* query_kind INITIAL_QUERY */
	TRY(put_str(out, ""));		/* initial_user */
	TRY(put_str(out, ""));		/* initial_query_id */
	TRY(put_str(out, "0.0.0.0:0"));	/* initial_address */
	if (rev >= CH_REV_INITIAL_QUERY_START_TIME)
		TRY(put_u64(out, 0));
	TRY(put_u8(out, 1));		/* interface TCP */
	TRY(put_str(out, c->os_user));
	TRY(put_str(out, c->hostname));
	TRY(put_str(out, c->client_name));
	TRY(ch_buf_append_varuint(out, c->version_major));
	TRY(ch_buf_append_varuint(out, c->version_minor));
	TRY(ch_buf_append_varuint(out, c->revision));
	if (rev >= CH_REV_QUOTA_KEY_IN_CLIENT_INFO)
		TRY(put_str(out, ""));
	if (rev >= CH_REV_DISTRIBUTED_DEPTH)
		TRY(ch_buf_append_varuint(out, 0));
	if (rev >= CH_REV_VERSION_PATCH)
		TRY(ch_buf_append_varuint(out, c->version_patch));
	if (rev >= CH_REV_OPENTELEMETRY)
		TRY(put_u8(out, 0));	/* no trace context */
	if (rev >= CH_REV_PARALLEL_REPLICAS)
	{
		TRY(ch_buf_append_varuint(out, 0));	/* collaborate_with_initiator */
		TRY(ch_buf_append_varuint(out, 0));	/* count_participating_replicas */
		TRY(ch_buf_append_varuint(out, 0));	/* number_of_current_replica */
	}
	if (rev >= CH_REV_QUERY_AND_LINE_NUMBERS)
	{
		TRY(ch_buf_append_varuint(out, 0));	/* script_query_number */
		TRY(ch_buf_append_varuint(out, 0));	/* script_line_number */
	}
	if (rev >= CH_REV_JWT_IN_INTERSERVER)
		TRY(put_u8(out, 0));	/* no JWT */
	if (rev >= CH_REV_CLIENT_AGENT)
		TRY(put_str(out, ""));	/* client_agent */
	return CH_OK;
}

static bool
all_digits(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static ch_status
write_settings(ch_buf *out, uint32_t rev, const ch_tcp_setting *s, int n, bool custom,
			   ch_error *err)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		if (!s[i].name || !s[i].name[0])
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "setting %d has no name", i);
		TRY(put_str(out, s[i].name));
		if (rev >= CH_REV_SETTINGS_AS_STRINGS)
		{
			/* BaseSettings::write, SettingsWriteFormat::STRINGS_WITH_FLAGS */
			uint64_t	flags = (s[i].important ? 0x01 : 0) | (custom ? 0x02 : 0);

			TRY(ch_buf_append_varuint(out, flags));
			TRY(put_str(out, s[i].value));
		}
		else if (all_digits(s[i].value))
		{
			/* 18.16 SettingsCommon.h: SettingNumber / SettingBool as VarUInt */
			uint64_t	v = 0;
			const char *p;

			for (p = s[i].value; *p; p++)
			{
				if (v > (UINT64_MAX - 9) / 10)
					return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
										"value of setting \"%s\" is too large", s[i].name);
				v = v * 10 + (uint64_t) (*p - '0');
			}
			TRY(ch_buf_append_varuint(out, v));
		}
		else
			TRY(put_str(out, s[i].value));	/* SettingString and enums */
	}
	return put_str(out, "");	/* end of list */
}

ch_status
ch_tcp_write_query(ch_buf *out, uint32_t rev, const ch_tcp_query_out *q, ch_error *err)
{
	size_t		start = out->len;
	ch_status	st;

	if (q->nparams > 0 && rev < CH_REV_PARAMETERS)
		return ch_error_set(err, CH_ERR_UNSUPPORTED,
							"query parameters need protocol revision %d (the connection has %u)",
							CH_REV_PARAMETERS, rev);
	/* Connection::sendQuery; TCPHandler::receiveQuery */
	st = ch_buf_append_varuint(out, CH_CP_QUERY);
	if (st == CH_OK)
		st = put_str(out, q->query_id);
	if (st == CH_OK && rev >= CH_REV_CLIENT_INFO)
		st = write_client_info(out, rev, q->client);
	if (st == CH_OK)
		st = write_settings(out, rev, q->settings, q->nsettings, false, err);
	if (st == CH_OK && rev >= CH_REV_EXTERNALLY_GRANTED_ROLES)
		st = put_str(out, "");	/* external roles */
	if (st == CH_OK && rev >= CH_REV_INTERSERVER_SECRET)
		st = put_str(out, "");	/* inter-server secret hash */
	if (st == CH_OK)
		st = ch_buf_append_varuint(out, 2);	/* QueryProcessingStage::Complete */
	if (st == CH_OK)
		st = ch_buf_append_varuint(out, q->compression ? 1 : 0);
	if (st == CH_OK)
		st = ch_buf_append_string(out, q->sql, q->sql_len);
	if (st == CH_OK && rev >= CH_REV_PARAMETERS)
		st = write_settings(out, rev, q->params, q->nparams, true, err);
	if (st != CH_OK)
	{
		out->len = start;
		if (err && err->code == CH_OK)
			ch_error_set(err, st, "could not build the Query packet");
		return st;
	}
	return CH_OK;
}

static const uint8_t block_info[] = {0x01, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00};

ch_status
ch_tcp_write_data(ch_buf *out, uint32_t rev, bool compression, ch_compress_method m,
				  int level, const uint8_t *block, size_t len, ch_error *err)
{
	return ch_tcp_write_table_data(out, rev, "", compression, m, level, block, len, err);
}

ch_status
ch_tcp_write_table_data(ch_buf *out, uint32_t rev, const char *table, bool compression,
						ch_compress_method m, int level, const uint8_t *block, size_t len,
						ch_error *err)
{
	size_t		start = out->len;
	ch_status	st = ch_buf_append_varuint(out, CH_CP_DATA);

	if (st == CH_OK && table[0] && rev < CH_REV_TEMPORARY_TABLES)
		st = ch_error_set(err, CH_ERR_UNSUPPORTED, "external tables need revision %d",
						  CH_REV_TEMPORARY_TABLES);
	if (st == CH_OK && rev >= CH_REV_TEMPORARY_TABLES)
		st = put_str(out, table);	/* table name: outside the frames */
	if (st == CH_OK)
		st = compression ? ch_compress_frames(out, m, level, block, len, err) :
			ch_buf_append(out, block, len);
	if (st != CH_OK)
	{
		out->len = start;
		if (err && err->code == CH_OK)
			ch_error_set(err, st, "could not build a Data packet");
	}
	return st;
}

ch_status
ch_tcp_write_empty_data(ch_buf *out, uint32_t rev, bool compression, ch_compress_method m,
						ch_error *err)
{
	uint8_t		b[sizeof(block_info) + 2];

	memcpy(b, block_info, sizeof(block_info));
	b[sizeof(block_info)] = 0;	/* columns */
	b[sizeof(block_info) + 1] = 0;	/* rows */
	return ch_tcp_write_data(out, rev, compression, m, 0, b, sizeof(b), err);
}

/* bytes of the VarUInt encoding of v */
static size_t
varuint_size(uint64_t v)
{
	size_t		n = 1;

	while (v >= 0x80)
	{
		v >>= 7;
		n++;
	}
	return n;
}

ch_status
ch_tcp_reframe_block(ch_buf *out, uint32_t rev, const uint8_t *native, size_t len,
					 ch_error *err)
{
	ch_native_reader *r;
	ch_block   *b;
	ch_status	st;
	size_t		start = out->len;
	uint64_t	i;

	if (rev >= CH_REV_BLOCK_INFO && (st = ch_buf_append(out, block_info, sizeof(block_info))) != CH_OK)
		return ch_error_set(err, st, "out of memory");
	if (rev < CH_REV_CUSTOM_SERIALIZATION)
	{
		/* the HTTP layout is the TCP layout minus BlockInfo */
		if ((st = ch_buf_append(out, native, len)) != CH_OK)
		{
			out->len = start;
			return ch_error_set(err, st, "out of memory");
		}
		return CH_OK;
	}
	/* find every column's data, then write it back with the flag byte */
	r = ch_native_reader_create(out->a, false, NULL);
	if (!r)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	st = ch_native_reader_feed(r, native, len, err);
	if (st == CH_OK)
	{
		ch_native_reader_finish(r);
		st = ch_native_reader_next(r, &b, err);
	}
	if (st == CH_OK && ch_native_reader_block_size(r) != len)
		st = ch_error_set(err, CH_ERR_MALFORMED, "insert data holds more than one block");
	if (st == CH_OK)
	{
		/*
		 * The columns point into the reader's copy of native: turn them
		 * into offsets (the first name follows the two counts and its
		 * length).
		 */
		const uint8_t *base = b->ncols == 0 ? NULL :
			(const uint8_t *) b->cols[0].name - varuint_size(b->cols[0].name_len) -
			varuint_size(b->nrows) - varuint_size(b->ncols);

		st = ch_buf_append_varuint(out, b->ncols);
		if (st == CH_OK)
			st = ch_buf_append_varuint(out, b->nrows);
		for (i = 0; st == CH_OK && i < b->ncols; i++)
		{
			const ch_column *c = &b->cols[i];
			size_t		from = (size_t) ((const uint8_t *) c->type_name + c->type_name_len - base);
			size_t		to = i + 1 < b->ncols ?
				(size_t) ((const uint8_t *) b->cols[i + 1].name -
						  varuint_size(b->cols[i + 1].name_len) - base) : len;

			if (from > to || to > len)
			{
				st = ch_error_set(err, CH_ERR_INTERNAL, "column %llu out of place",
								  (unsigned long long) i);
				break;
			}
			st = ch_buf_append_string(out, c->name, c->name_len);
			if (st == CH_OK)
				st = ch_buf_append_string(out, c->type_name, c->type_name_len);
			if (st == CH_OK)
				st = put_u8(out, 0);	/* default serialization */
			if (st == CH_OK)
				st = ch_buf_append(out, native + from, to - from);
		}
		if (st != CH_OK && err && err->code == CH_OK)
			ch_error_set(err, st, "out of memory");
	}
	else if (st == CH_END || st == CH_NEED_MORE)
		st = ch_error_set(err, CH_ERR_MALFORMED, "insert data is not a Native block");
	ch_native_reader_free(r);
	if (st != CH_OK)
		out->len = start;
	return st;
}

/* ---- the decoder ---- */

typedef enum dstate
{
	DS_PACKET,					/* at a packet boundary */
	DS_BLOCK					/* inside a block packet's block */
} dstate;

struct ch_tcp_decoder
{
	const ch_allocator *a;
	ch_native_limits lim;
	ch_buf		in;				/* received bytes; [pos, len) unconsumed */
	size_t		pos;
	uint64_t	consumed_total; /* stream offset of in.data[0] */
	bool		finished;
	ch_status	stuck;
	ch_error	stuck_err;
	uint32_t	rev;
	bool		compression;

	dstate		state;
	ch_tcp_server_packet block_type;
	bool		block_compressed;	/* this block comes in frames */
	size_t		block_start;	/* offset in `in` where the block begins */
	size_t		fed;			/* bytes of `in` after block_start fed to the
								 * reader (raw) or consumed as frames */
	ch_native_reader *reader;
	bool		retried;		/* forced a parse since the last feed */
	bool		reader_dirty;	/* holds a handed-out block: reset first */
	ch_decompressor *decomp;
	ch_error	sink_err;
};

ch_tcp_decoder *
ch_tcp_decoder_create(const ch_allocator *a, const ch_native_limits *lim)
{
	ch_tcp_decoder *d;

	a = ch_alloc_or_default(a);
	d = ch_alloc(a, sizeof(*d));
	if (!d)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->a = a;
	if (lim)
		d->lim = *lim;
	else
		ch_native_limits_default(&d->lim);
	ch_buf_init(&d->in, a);
	d->reader = ch_native_reader_create(a, true, &d->lim);
	d->decomp = ch_decompressor_create(a);
	if (!d->reader || !d->decomp)
	{
		ch_tcp_decoder_free(d);
		return NULL;
	}
	/* a compressed frame holds part of a block: never more than a block */
	if (lim && lim->max_block_bytes > 0)
		ch_decompressor_set_max_frame(d->decomp, lim->max_block_bytes);
	d->rev = CH_TCP_REVISION;
	d->stuck = CH_OK;
	ch_error_clear(&d->stuck_err);
	return d;
}

void
ch_tcp_decoder_free(ch_tcp_decoder *d)
{
	if (!d)
		return;
	ch_buf_free(&d->in);
	ch_native_reader_free(d->reader);
	ch_decompressor_free(d->decomp);
	ch_free(d->a, d);
}

void
ch_tcp_decoder_set(ch_tcp_decoder *d, uint32_t rev, bool compression)
{
	d->rev = rev;
	d->compression = compression;
}

ch_status
ch_tcp_decoder_space(ch_tcp_decoder *d, size_t want, uint8_t **dst, ch_error *err)
{
	ch_status	st;

	*dst = NULL;
	if (d->finished)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "input fed after finish");
	/*
	 * Drop the packets already decoded before growing. d->pos is the start
	 * of the packet in progress, also while inside a block (its bytes from
	 * block_start on are kept until the block is complete).
	 */
	if (d->pos > 0 && (d->pos == d->in.len || d->pos >= 65536))
	{
		d->consumed_total += d->pos;
		ch_buf_drop_front(&d->in, d->pos);
		if (d->state == DS_BLOCK)
			d->block_start -= d->pos;
		d->pos = 0;
	}
	st = ch_buf_reserve(&d->in, want);
	if (st != CH_OK)
		return ch_error_set(err, st, "could not buffer %zu received bytes", want);
	*dst = d->in.data + d->in.len;
	return CH_OK;
}

void
ch_tcp_decoder_commit(ch_tcp_decoder *d, size_t n)
{
	d->in.len += n;
}

ch_status
ch_tcp_decoder_feed(ch_tcp_decoder *d, const void *data, size_t len, ch_error *err)
{
	uint8_t    *dst;
	ch_status	st = ch_tcp_decoder_space(d, len, &dst, err);

	if (st != CH_OK)
		return st;
	if (len)
		memcpy(dst, data, len);
	ch_tcp_decoder_commit(d, len);
	return CH_OK;
}

void
ch_tcp_decoder_finish(ch_tcp_decoder *d)
{
	d->finished = true;
}

size_t
ch_tcp_decoder_buffered(const ch_tcp_decoder *d)
{
	return d->in.len - d->pos;
}

uint64_t
ch_tcp_decoder_offset(const ch_tcp_decoder *d)
{
	return d->consumed_total + (d->state == DS_PACKET ? d->pos : d->block_start);
}

static ch_status
stick(ch_tcp_decoder *d, ch_status st, ch_error *err)
{
	d->stuck = st;
	if (err)
	{
		if (err->code == CH_OK)
			ch_error_set(err, st, "%s", ch_status_text(st));
		d->stuck_err = *err;
	}
	else
		ch_error_set(&d->stuck_err, st, "%s", ch_status_text(st));
	return st;
}

/* incomplete input: wait, or fail once nothing more can come */
static ch_status
short_input(ch_tcp_decoder *d, const char *what, ch_error *err)
{
	if (!d->finished)
		return CH_NEED_MORE;
	ch_error_set(err, CH_ERR_TRUNCATED, "connection closed inside %s", what);
	if (err)
		err->offset = (int64_t) (d->consumed_total + d->pos);
	return stick(d, CH_ERR_TRUNCATED, err);
}

static ch_status
rd_str_copy(ch_rd *rd, char *dst, size_t dstsz)
{
	const uint8_t *s;
	uint64_t	n;
	ch_status	st = ch_rd_string(rd, MAX_SHORT_STRING, &s, &n);

	if (st != CH_OK)
		return st;
	if (dst)
		snprintf(dst, dstsz, "%.*s", (int) (n < dstsz ? n : dstsz - 1), (const char *) s);
	return CH_OK;
}

static ch_status
rd_skip_str(ch_rd *rd, uint64_t max)
{
	const uint8_t *s;
	uint64_t	n;

	return ch_rd_string(rd, max, &s, &n);
}

static ch_status
rd_u8(ch_rd *rd, uint8_t *v)
{
	const uint8_t *p;
	ch_status	st = ch_rd_take(rd, 1, &p);

	if (st == CH_OK)
		*v = *p;
	return st;
}

#define RTRY(x) do { ch_status st_ = (x); if (st_ != CH_OK) return st_; } while (0)

/* TCPHandler::sendHello, read by Connection::receiveHello */
static ch_status
parse_hello(ch_rd *rd, uint32_t rev, ch_tcp_server_hello *h)
{
	memset(h, 0, sizeof(*h));
	RTRY(rd_str_copy(rd, h->name, sizeof(h->name)));
	RTRY(ch_rd_varuint(rd, &h->version_major));
	RTRY(ch_rd_varuint(rd, &h->version_minor));
	RTRY(ch_rd_varuint(rd, &h->revision));
	/* the server writes what both it and the client know */
	if (h->revision < rev)
		rev = (uint32_t) h->revision;
	if (rev >= CH_REV_VERSIONED_PARALLEL_REPLICAS)
		RTRY(ch_rd_varuint(rd, &h->parallel_replicas_protocol));
	if (rev >= CH_REV_SERVER_TIMEZONE)
		RTRY(rd_str_copy(rd, h->timezone, sizeof(h->timezone)));
	if (rev >= CH_REV_SERVER_DISPLAY_NAME)
		RTRY(rd_str_copy(rd, h->display_name, sizeof(h->display_name)));
	if (rev >= CH_REV_VERSION_PATCH)
		RTRY(ch_rd_varuint(rd, &h->version_patch));
	else
		h->version_patch = h->revision;
	if (rev >= CH_REV_CHUNKED_PACKETS)
	{
		RTRY(rd_str_copy(rd, h->send_chunked, sizeof(h->send_chunked)));
		RTRY(rd_str_copy(rd, h->recv_chunked, sizeof(h->recv_chunked)));
	}
	if (rev >= CH_REV_PASSWORD_COMPLEXITY_RULES)
	{
		uint64_t	i;

		RTRY(ch_rd_varuint(rd, &h->npassword_rules));
		if (h->npassword_rules > MAX_LIST)
			return CH_ERR_LIMIT;
		for (i = 0; i < h->npassword_rules; i++)
		{
			RTRY(rd_skip_str(rd, MAX_SHORT_STRING));	/* pattern */
			RTRY(rd_skip_str(rd, MAX_SHORT_STRING));	/* message */
		}
	}
	if (rev >= CH_REV_INTERSERVER_SECRET_V2)
		RTRY(ch_rd_u64(rd, &h->nonce));
	if (rev >= CH_REV_SERVER_SETTINGS)
	{
		/* BaseSettings::write with STRINGS_WITH_FLAGS, ended by "" */
		for (;;)
		{
			const uint8_t *s;
			uint64_t	n,
						flags;

			RTRY(ch_rd_string(rd, MAX_SHORT_STRING, &s, &n));
			if (n == 0)
				break;
			if (++h->nserver_settings > MAX_LIST)
				return CH_ERR_LIMIT;
			RTRY(ch_rd_varuint(rd, &flags));
			RTRY(rd_skip_str(rd, MAX_SHORT_STRING));
		}
	}
	if (rev >= CH_REV_QUERY_PLAN_SERIALIZATION)
		RTRY(ch_rd_varuint(rd, &h->query_plan_serialization));
	if (rev >= CH_REV_VERSIONED_CLUSTER_FUNCTION)
		RTRY(ch_rd_varuint(rd, &h->cluster_function_protocol));
	return CH_OK;
}

/* ProgressValues::write (src/IO/Progress.cpp) */
static ch_status
parse_progress(ch_rd *rd, uint32_t rev, ch_tcp_progress *p)
{
	memset(p, 0, sizeof(*p));
	RTRY(ch_rd_varuint(rd, &p->read_rows));
	RTRY(ch_rd_varuint(rd, &p->read_bytes));
	if (rev >= CH_REV_TOTAL_ROWS_IN_PROGRESS)
		RTRY(ch_rd_varuint(rd, &p->total_rows_to_read));
	if (rev >= CH_REV_TOTAL_BYTES_IN_PROGRESS)
		RTRY(ch_rd_varuint(rd, &p->total_bytes_to_read));
	if (rev >= CH_REV_CLIENT_WRITE_INFO)
	{
		RTRY(ch_rd_varuint(rd, &p->written_rows));
		RTRY(ch_rd_varuint(rd, &p->written_bytes));
	}
	if (rev >= CH_REV_SERVER_QUERY_TIME_IN_PROGRESS)
		RTRY(ch_rd_varuint(rd, &p->elapsed_ns));
	return CH_OK;
}

/* ProfileInfo::write (src/QueryPipeline/ProfileInfo.cpp) */
static ch_status
parse_profile_info(ch_rd *rd, uint32_t rev, ch_tcp_profile_info *p)
{
	uint8_t		b;

	memset(p, 0, sizeof(*p));
	RTRY(ch_rd_varuint(rd, &p->rows));
	RTRY(ch_rd_varuint(rd, &p->blocks));
	RTRY(ch_rd_varuint(rd, &p->bytes));
	RTRY(rd_u8(rd, &b));
	p->applied_limit = b != 0;
	RTRY(ch_rd_varuint(rd, &p->rows_before_limit));
	RTRY(rd_u8(rd, &b));
	p->calculated_rows_before_limit = b != 0;
	if (rev >= CH_REV_ROWS_BEFORE_AGGREGATION)
	{
		RTRY(rd_u8(rd, &b));
		p->applied_aggregation = b != 0;
		RTRY(ch_rd_varuint(rd, &p->rows_before_aggregation));
	}
	return CH_OK;
}

/*
 * Exception::write / readException (src/IO/WriteHelpers.cpp,
 * ReadHelpers.cpp): Int32 code, String name, String message, String
 * stack trace, UInt8 has_nested, and the nested exception after it.
 */
ch_status
ch_tcp_parse_exception(ch_rd *rd, ch_error *err)
{
	int			depth;
	int32_t		code0 = 0;
	const uint8_t *name0 = NULL,
			   *msg0 = NULL,
			   *trace0 = NULL;
	uint64_t	nlen0 = 0,
				mlen0 = 0,
				tlen0 = 0;

	for (depth = 0;; depth++)
	{
		const uint8_t *p,
				   *name,
				   *msg,
				   *trace;
		uint64_t	nlen,
					mlen,
					tlen;
		uint8_t		nested;

		if (depth >= MAX_NESTED_EXCEPTIONS)
			return ch_error_set(err, CH_ERR_LIMIT, "more than %d nested server exceptions",
								MAX_NESTED_EXCEPTIONS);
		RTRY(ch_rd_take(rd, 4, &p));
		RTRY(ch_rd_string(rd, MAX_SHORT_STRING, &name, &nlen));
		RTRY(ch_rd_string(rd, MAX_TEXT, &msg, &mlen));
		RTRY(ch_rd_string(rd, MAX_TEXT, &trace, &tlen));
		RTRY(rd_u8(rd, &nested));
		if (depth == 0)
		{
			code0 = (int32_t) ch_le32(p);
			name0 = name;
			nlen0 = nlen;
			msg0 = msg;
			mlen0 = mlen;
			trace0 = trace;
			tlen0 = tlen;
		}
		if (nested == 0)
			break;
	}
	if (err)
	{
		ch_error_clear(err);
		err->code = CH_ERR_SERVER;
		err->server_code = code0;
		snprintf(err->server_name, sizeof(err->server_name), "%.*s", (int) nlen0,
				 nlen0 ? (const char *) name0 : "");
		/* the message repeats the class name: "DB::Exception: text" */
		if (nlen0 > 0 && mlen0 >= nlen0 + 2 && memcmp(msg0, name0, nlen0) == 0 &&
			msg0[nlen0] == ':' && msg0[nlen0 + 1] == ' ')
		{
			msg0 += nlen0 + 2;
			mlen0 -= nlen0 + 2;
		}
		snprintf(err->message, sizeof(err->message), "%.*s",
				 (int) (mlen0 < sizeof(err->message) ? mlen0 : sizeof(err->message) - 1),
				 mlen0 ? (const char *) msg0 : "");
		snprintf(err->detail, sizeof(err->detail), "%.*s",
				 (int) (tlen0 < sizeof(err->detail) ? tlen0 : sizeof(err->detail) - 1),
				 tlen0 ? (const char *) trace0 : "");
	}
	return CH_ERR_SERVER;
}

static bool
is_block_packet(uint64_t t)
{
	return t == CH_SP_DATA || t == CH_SP_TOTALS || t == CH_SP_EXTREMES ||
		t == CH_SP_LOG || t == CH_SP_PROFILE_EVENTS;
}

static ch_status
reader_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	ch_tcp_decoder *d = ctx;

	return ch_native_reader_feed(d->reader, data, len, err);
}

/* Parse one non-block packet starting at d->pos. */
static ch_status
parse_small(ch_tcp_decoder *d, uint64_t type, ch_rd *rd, ch_tcp_packet *pkt, ch_error *err)
{
	ch_status	st;

	switch (type)
	{
		case CH_SP_HELLO:
			return parse_hello(rd, d->rev, &pkt->hello);
		case CH_SP_EXCEPTION:
			return ch_tcp_parse_exception(rd, err);
		case CH_SP_PROGRESS:
			return parse_progress(rd, d->rev, &pkt->progress);
		case CH_SP_PONG:
		case CH_SP_END_OF_STREAM:
			return CH_OK;
		case CH_SP_PROFILE_INFO:
			return parse_profile_info(rd, d->rev, &pkt->profile);
		case CH_SP_TABLE_COLUMNS:
			{
				uint64_t	n;

				/* TCPHandler::sendTableColumns: table name, description */
				if ((st = rd_skip_str(rd, MAX_SHORT_STRING)) != CH_OK)
					return st;
				st = ch_rd_string(rd, MAX_TEXT, &pkt->text, &n);
				pkt->text_len = (size_t) n;
				return st;
			}
		case CH_SP_TIMEZONE_UPDATE:
			{
				uint64_t	n;

				st = ch_rd_string(rd, MAX_SHORT_STRING, &pkt->text, &n);
				pkt->text_len = (size_t) n;
				return st;
			}
		case CH_SP_PART_UUIDS:
			{
				uint64_t	n,
							bytes;
				const uint8_t *p;

				if ((st = ch_rd_varuint(rd, &n)) != CH_OK)
					return st;
				if (!ch_mul_ok(n, 16, &bytes) || bytes > MAX_TEXT)
					return CH_ERR_LIMIT;
				return ch_rd_take(rd, bytes, &p);
			}
		default:
			return ch_error_set(err, CH_ERR_PROTOCOL,
								"unknown or unexpected packet type %llu from the server",
								(unsigned long long) type);
	}
}

/* Advance the block packet in progress. */
static ch_status
next_block(ch_tcp_decoder *d, ch_tcp_packet *pkt, ch_error *err)
{
	ch_block   *b;
	ch_status	st;

	for (;;)
	{
		st = ch_native_reader_next(d->reader, &b, err);
		if (st == CH_OK)
		{
			size_t		used = ch_native_reader_block_size(d->reader);

			if (d->block_compressed)
			{
				if (used != ch_native_reader_total(d->reader))
					return stick(d, ch_error_set(err, CH_ERR_PROTOCOL,
												 "a compressed block does not end at a frame boundary"), err);
				d->pos = d->block_start + d->fed;
			}
			else
				d->pos = d->block_start + used;
			d->reader_dirty = true;
			d->state = DS_PACKET;
			pkt->type = d->block_type;
			pkt->block = b;
			return CH_OK;
		}
		if (st != CH_NEED_MORE)
			return stick(d, st, err);

		/* the reader wants more: give it what has arrived */
		if (!d->block_compressed)
		{
			size_t		have = d->in.len - d->block_start;

			if (have == d->fed)
			{
				/*
				 * Nothing new: the reader may have skipped parsing (it
				 * waits for about twice the bytes); make it look once at
				 * what it has before asking for more.
				 */
				if (!d->retried)
				{
					d->retried = true;
					ch_native_reader_retry_now(d->reader);
					continue;
				}
				return short_input(d, "a data block", err);
			}
			{
				/*
				 * Feed in doubling pieces, not everything received: what
				 * follows the block (often many more packets) would be
				 * copied again for every block.
				 */
				size_t		piece = have - d->fed;
				size_t		cap = d->fed > 16384 ? d->fed : 16384;

				if (piece > cap)
					piece = cap;
				st = ch_native_reader_feed(d->reader, d->in.data + d->block_start + d->fed,
										   piece, err);
				if (st != CH_OK)
					return stick(d, st, err);
				d->fed += piece;
			}
			d->retried = false;
		}
		else
		{
			/* one more frame, once it is complete */
			size_t		at = d->block_start + d->fed;
			size_t		have = d->in.len - at;
			uint32_t	csize;

			if (have < CH_FRAME_OVERHEAD)
				return short_input(d, "a compressed frame", err);
			csize = ch_le32(d->in.data + at + CH_FRAME_CHECKSUM_SIZE + 1);
			if (csize < CH_FRAME_HEADER_SIZE || csize > CH_FRAME_MAX_COMPRESSED)
			{
				ch_error_set(err, CH_ERR_MALFORMED, "bad compressed frame size %u", csize);
				if (err)
					err->offset = (int64_t) (d->consumed_total + at);
				return stick(d, CH_ERR_MALFORMED, err);
			}
			if (have < (size_t) CH_FRAME_CHECKSUM_SIZE + csize)
				return short_input(d, "a compressed frame", err);
			ch_decompressor_reset(d->decomp);
			ch_error_clear(&d->sink_err);
			st = ch_decompressor_feed(d->decomp, d->in.data + at,
									  (size_t) CH_FRAME_CHECKSUM_SIZE + csize,
									  reader_sink, d, err);
			if (st != CH_OK)
				return stick(d, st, err);
			d->fed += (size_t) CH_FRAME_CHECKSUM_SIZE + csize;
			/*
			 * Whether this frame ends the block decides what the next bytes
			 * are (a frame or a packet), so parse now. A block of n frames
			 * is parsed up to n times; ClickHouse makes a frame per ~1 MiB
			 * and blocks of max_block_size rows.
			 */
			ch_native_reader_retry_now(d->reader);
		}
	}
}

ch_status
ch_tcp_decoder_next(ch_tcp_decoder *d, ch_tcp_packet *pkt, ch_error *err)
{
	ch_rd		rd;
	uint64_t	type;
	ch_status	st;

	memset(pkt, 0, sizeof(*pkt));
	if (d->stuck != CH_OK)
	{
		if (err)
			*err = d->stuck_err;
		return d->stuck;
	}
	if (d->reader_dirty)
	{
		ch_native_reader_reset(d->reader);
		d->reader_dirty = false;
	}
	if (d->state == DS_BLOCK)
		return next_block(d, pkt, err);

	if (d->pos == d->in.len)
		return d->finished ? CH_END : CH_NEED_MORE;
	ch_rd_init(&rd, d->in.data + d->pos, d->in.len - d->pos);
	st = ch_rd_varuint(&rd, &type);
	if (st == CH_NEED_MORE)
		return short_input(d, "a packet type", err);
	if (st != CH_OK)
		return stick(d, ch_error_set(err, CH_ERR_MALFORMED, "malformed packet type"), err);

	if (is_block_packet(type))
	{
		/* TCPHandler::sendData / sendLogData / sendProfileEvents: table name, block */
		if (d->rev >= CH_REV_TEMPORARY_TABLES)
		{
			st = rd_skip_str(&rd, MAX_SHORT_STRING);
			if (st == CH_NEED_MORE)
				return short_input(d, "a data packet's table name", err);
			if (st != CH_OK)
				return stick(d, ch_error_set(err, st, "bad table name in a data packet"), err);
		}
		d->block_type = (ch_tcp_server_packet) type;
		/* logs and profile events are compressed only from 54481 */
		d->block_compressed = d->compression &&
			((type != CH_SP_LOG && type != CH_SP_PROFILE_EVENTS) ||
			 d->rev >= CH_REV_COMPRESSED_LOGS_PROFILE_EVENTS);
		d->block_start = d->pos + rd.pos;
		d->fed = 0;
		d->retried = false;
		d->state = DS_BLOCK;
		ch_native_reader_reset(d->reader);
		ch_native_reader_set_custom_serialization(d->reader, d->rev >= CH_REV_CUSTOM_SERIALIZATION);
		return next_block(d, pkt, err);
	}

	st = parse_small(d, type, &rd, pkt, err);
	if (st == CH_NEED_MORE)
		return short_input(d, "a server packet", err);
	if (st == CH_OK || st == CH_ERR_SERVER)
	{
		pkt->type = (ch_tcp_server_packet) type;
		d->pos += rd.pos;
		return st;
	}
	if (err && err->code == CH_OK)
		ch_error_set(err, st, "malformed server packet of type %llu", (unsigned long long) type);
	if (err)
		err->offset = (int64_t) (d->consumed_total + d->pos);
	return stick(d, st, err);
}
