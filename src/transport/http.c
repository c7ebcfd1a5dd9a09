/*-------------------------------------------------------------------------
 * http.c
 *	  The HTTP implementation of ch_transport.h, over ch_http.c (libcurl's
 *	  multi interface).
 *
 * Responses are fed to a Native reader (HTTP layout), which also
 * recognises an exception the server appends after a response started
 * (ch_native.h). Connecting is a "SELECT version()" probe: HTTP has no
 * hello, and the caps come from the version. An insert buffers its blocks
 * (framed when compressed, sent with decompress=1) and sends them as one
 * POST when it finishes, as the FDW's batches do today. Cancel closes the
 * connection and sends KILL QUERY: HTTP cannot stop a query on the same
 * connection.
 *
 * src/transport/http.c
 *-------------------------------------------------------------------------
 */
#include "transport_int.h"
#include "ch_http.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct http_impl
{
	ch_http_conn *h;
	ch_http_config hcfg;
	ch_native_reader *reader;
	bool		transfer_done;	/* the HTTP transfer ended */
	bool		transport_failed;	/* ... with an error after HTTP 200 */
	ch_status	transport_status;
	ch_error	transport_err;
	bool		have_wait;
	ch_wait		wait;
	bool		cancelled;		/* next pull returns CH_END */
	ch_buf		body;			/* an insert's blocks */
	ch_buf		sql;			/* the SQL as sent */
	bool		body_framed;
	ch_compress_method body_method;
	char		version[64];	/* from the probe */
	uint64_t	connects_before;	/* of the ch_http_conns of earlier hosts */
} http_impl;

#define IMPL(c) ((http_impl *) (c)->impl)

static ch_status
feed_reader(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	ch_conn    *c = ctx;

	c->stats.bytes_received += len;
	if (c->req.raw_sink && c->phase == PH_QUERY)
		return c->req.raw_sink(c->req.raw_sink_ctx, data, len, err);
	return ch_native_reader_feed(IMPL(c)->reader, data, len, err);
}

/* errors of ch_http and the reader, in the fields of ch_transport.h */
static ch_status
server_error(ch_status st, ch_error *err)
{
	if (st == CH_ERR_SERVER && err)
	{
		char		text[CH_ERROR_MESSAGE_MAX];
		size_t		n = strlen(err->message);

		memcpy(text, err->message, n + 1);
		ch_exception_split(text, n, err);
		snprintf(err->detail, sizeof(err->detail), "%.*s", (int) sizeof(err->detail) - 1, text);
	}
	return st;
}

/* X-ClickHouse-Summary: {"read_rows":"1","read_bytes":"2",...} */
static bool
summary_field(const char *s, const char *key, uint64_t *out)
{
	char		pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(s, pat);
	if (!p)
		return false;
	p += strlen(pat);
	if (*p == '"')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	*out = strtoull(p, NULL, 10);
	return true;
}

static void
read_summary(ch_conn *c)
{
	const char *s = ch_http_summary(IMPL(c)->h);
	ch_request_stats *st = &c->stats;
	bool		any = false;

	if (!s[0])
		return;
	any |= summary_field(s, "read_rows", &st->read_rows);
	any |= summary_field(s, "read_bytes", &st->read_bytes);
	any |= summary_field(s, "written_rows", &st->written_rows);
	any |= summary_field(s, "written_bytes", &st->written_bytes);
	any |= summary_field(s, "total_rows_to_read", &st->total_rows_to_read);
	if (summary_field(s, "elapsed_ns", &st->server_elapsed_ns))
		any = true;
	st->have_server_counters |= any;
}

static ch_status
new_reader(ch_conn *c, ch_error *err)
{
	http_impl  *hi = IMPL(c);

	if (hi->reader)
		ch_native_reader_free(hi->reader);
	if (c->req.limits.max_columns == 0)
		ch_native_limits_default(&c->req.limits);	/* a probe or ping */
	hi->reader = ch_native_reader_create(c->a, false, &c->req.limits);
	if (!hi->reader)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	hi->transfer_done = false;
	hi->transport_failed = false;
	hi->have_wait = false;
	hi->cancelled = false;
	return CH_OK;
}

static ch_status
http_send(ch_conn *c, const char *sql, size_t sql_len, const uint8_t *body, size_t body_len,
	 bool framed_body, ch_compression resp, bool with_sink, ch_error *err)
{
	http_impl  *hi = IMPL(c);
	ch_http_request req;
	ch_status	st;

	memset(&req, 0, sizeof(req));
	req.database = c->req.database;
	req.query_id = c->query_id[0] ? c->query_id : NULL;
	req.settings = c->req.settings;
	req.nsettings = c->req.nsettings;
	req.sql = sql;
	req.sql_len = sql_len;
	req.body = body;
	req.body_len = body_len;
	req.body_framed = framed_body;
	req.sink = with_sink ? feed_reader : NULL;
	req.sink_ctx = c;
	if (resp == CH_COMPRESSION_AUTO)
		resp = c->caps.known ? c->caps.response_compression : CH_COMPRESSION_NONE;
	/* no frames (18.16): uncompressed; gzip only when asked for by name */
	if ((resp == CH_COMPRESSION_LZ4 || resp == CH_COMPRESSION_ZSTD) && !c->caps.response_frames)
		resp = CH_COMPRESSION_NONE;
	req.response_framed = resp == CH_COMPRESSION_LZ4 || resp == CH_COMPRESSION_ZSTD;
	req.response_gzip = resp == CH_COMPRESSION_GZIP;
	st = ch_http_begin(hi->h, &req, err);
	if (st == CH_OK)
		c->connects = hi->connects_before + (uint64_t) ch_http_connects(hi->h);
	return st;
}

static ch_status
build_sql(ch_conn *c, const char *suffix, ch_error *err)
{
	http_impl  *hi = IMPL(c);

	ch_buf_reset(&hi->sql);
	if (ch_buf_append(&hi->sql, c->req.sql, c->req.sql_len) != CH_OK ||
		(suffix && ch_buf_append(&hi->sql, suffix, strlen(suffix)) != CH_OK))
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	return CH_OK;
}

/* query parameters travel as URL parameters param_<name> (HTTP interface docs) */
static ch_status
add_params(ch_conn *c, ch_error *err)
{
	conn_request *r = &c->req;
	ch_setting *all;
	int			i;

	if (r->nparams == 0)
		return CH_OK;
	all = ch_arena_alloc(&c->req_arena, sizeof(ch_setting) * (size_t) (r->nsettings + r->nparams));
	if (!all)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	for (i = 0; i < r->nsettings; i++)
		all[i] = r->settings[i];
	for (i = 0; i < r->nparams; i++)
	{
		ch_buf		v;
		size_t		n = strlen(r->params[i].name);
		char	   *name = ch_arena_alloc(&c->req_arena, n + 7);

		ch_buf_init(&v, c->a);
		if (!name || ch_escape_param(&v, r->params[i].value, false) != CH_OK)
		{
			ch_buf_free(&v);
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		}
		memcpy(name, "param_", 6);
		memcpy(name + 6, r->params[i].name, n + 1);
		all[r->nsettings + i].name = name;
		all[r->nsettings + i].value = ch_arena_strndup(&c->req_arena, (const char *) v.data,
													   v.len - 1);
		ch_buf_free(&v);
		if (!all[r->nsettings + i].value)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	}
	r->settings = all;
	r->nsettings += r->nparams;
	r->nparams = 0;
	return CH_OK;
}

static ch_status http_insert_finish(ch_conn *c, ch_error *err);

static ch_status
http_begin(ch_conn *c, ch_error *err)
{
	http_impl  *hi = IMPL(c);
	ch_status	st;
	static const char probe[] = "SELECT version() FORMAT Native";

	switch (c->phase)
	{
		case PH_CONNECT:
			if ((st = new_reader(c, err)) != CH_OK)
				return st;
			{
				/* the probe is not the caller's request */
				conn_request saved = c->req;
				char		qid[sizeof(c->query_id)];

				memcpy(qid, c->query_id, sizeof(qid));
				memset(&c->req, 0, sizeof(c->req));
				c->req.database = (char *) c->cfg.database;
				c->query_id[0] = '\0';
				st = http_send(c, probe, sizeof(probe) - 1, NULL, 0, false, CH_COMPRESSION_NONE, true,
						  err);
				c->req = saved;
				memcpy(c->query_id, qid, sizeof(qid));
			}
			return st;
		case PH_QUERY:
			if (c->req.nparams > 0 && !c->caps.query_parameters)
				return ch_error_set(err, CH_ERR_UNSUPPORTED,
									"ClickHouse %s has no query parameters", c->info.version);
			if ((st = add_params(c, err)) != CH_OK)
				return st;
			if ((st = new_reader(c, err)) != CH_OK)
				return st;
			if ((st = build_sql(c, c->req.format_in_sql || c->req.raw_sink ? NULL : " FORMAT Native",
								err)) != CH_OK)
				return st;
			return server_error(http_send(c, (const char *) hi->sql.data, hi->sql.len, NULL, 0, false,
									 c->req.compression, true, err), err);
		case PH_INSERT_START:
			ch_buf_reset(&hi->body);
			hi->body_framed = c->req.compression == CH_COMPRESSION_LZ4 ||
				c->req.compression == CH_COMPRESSION_ZSTD ||
				c->req.compression == CH_COMPRESSION_AUTO;
			hi->body_method = c->req.compression == CH_COMPRESSION_ZSTD ? CH_COMPRESS_ZSTD :
				CH_COMPRESS_LZ4;
			return CH_OK;
		case PH_PING:
			if ((st = new_reader(c, err)) != CH_OK)
				return st;
			return http_send(c, "SELECT 1", 8, NULL, 0, false, CH_COMPRESSION_NONE, false, err);
		case PH_INSERT_FINISH:
			/* hosts.c: the body could not be sent to the previous host */
			return http_insert_finish(c, err);
		default:
			return ch_error_set(err, CH_ERR_INTERNAL, "unexpected phase %d", (int) c->phase);
	}
}

/* move the HTTP transfer along once */
static ch_status
pump(ch_conn *c, ch_wait *wait, ch_error *err)
{
	http_impl  *hi = IMPL(c);
	ch_status	st;

	ch_error_clear(err);
	st = ch_http_step(hi->h, wait, err);
	if (st == CH_NEED_MORE)
		return st;
	c->connects = hi->connects_before + (uint64_t) ch_http_connects(hi->h);
	read_summary(c);
	return server_error(st, err);
}

static ch_status
probe_done(ch_conn *c, ch_error *err)
{
	http_impl  *hi = IMPL(c);
	ch_block   *b;
	ch_status	st;
	int			major = 0,
				minor = 0,
				patch = 0;

	ch_native_reader_finish(hi->reader);
	for (;;)
	{
		st = ch_native_reader_next(hi->reader, &b, err);
		if (st != CH_OK)
			break;
		if (b->ncols == 1 && b->nrows >= 1 && b->cols[0].type->kind == CH_T_STRING)
		{
			uint32_t	len;
			const uint8_t *p = ch_col_str(&b->cols[0], 0, &len);

			snprintf(hi->version, sizeof(hi->version), "%.*s", (int) (len < 63 ? len : 63),
					 (const char *) p);
		}
	}
	if (st != CH_END)
		return server_error(st, err);
	if (sscanf(hi->version, "%d.%d.%d", &major, &minor, &patch) < 2)
		return ch_error_set(err, CH_ERR_PROTOCOL, "the server's version \"%s\" is not understood",
							hi->version);
	ch_caps_from_version(&c->caps, CH_TRANSPORT_HTTP, major, minor, patch, 0);
	memset(&c->info, 0, sizeof(c->info));
	snprintf(c->info.version, sizeof(c->info.version), "%s", hi->version);
	return CH_OK;
}

static ch_status
http_next_block(ch_conn *c, const ch_block **out, ch_block_kind *kind, ch_wait *wait,
				ch_error *err)
{
	http_impl  *hi = IMPL(c);

	*kind = CH_BLOCK_DATA;
	if (hi->cancelled)
	{
		ch_conn_request_done(c);
		return CH_END;
	}
	for (;;)
	{
		ch_block   *b;
		ch_status	rs;

		ch_error_clear(err);
		rs = ch_native_reader_next(hi->reader, &b, err);
		if (rs == CH_OK)
		{
			c->stats.blocks_received++;
			c->stats.rows_received += b->nrows;
			*out = b;
			return CH_OK;
		}
		if (rs == CH_END && hi->transport_failed)
			rs = CH_ERR_TRUNCATED;	/* the stream ended, the response did not */
		if (rs == CH_END)
		{
			ch_conn_request_done(c);
			return CH_END;
		}
		if (rs != CH_NEED_MORE)
		{
			ch_http_abort(hi->h);
			ch_conn_request_done(c);
			/* a broken connection explains a short stream better */
			if (hi->transport_failed && rs != CH_ERR_SERVER)
			{
				if (err)
					*err = hi->transport_err;
				return hi->transport_status;
			}
			return server_error(rs, err);
		}
		if (hi->transfer_done)
		{
			ch_conn_request_done(c);
			return ch_error_set(err, CH_ERR_INTERNAL,
								"Native reader wants input after the end of the response");
		}
		rs = pump(c, wait, err);
		if (rs == CH_NEED_MORE)
			return rs;
		if (rs == CH_OK)
		{
			hi->transfer_done = true;
			ch_native_reader_finish(hi->reader);
		}
		else if (err && err->http_status == 200 && rs != CH_ERR_SERVER)
		{
			/* broke after it started: let the reader look at what arrived */
			hi->transfer_done = true;
			hi->transport_failed = true;
			hi->transport_status = rs;
			hi->transport_err = *err;
			ch_native_reader_finish(hi->reader);
		}
		else
		{
			ch_conn_request_done(c);
			return rs;
		}
	}
}

/* push mode: every block to the sink */
static ch_status
push_blocks(ch_conn *c, ch_wait *wait, ch_error *err)
{
	for (;;)
	{
		const ch_block *b;
		ch_block_kind kind;
		ch_status	st = http_next_block(c, &b, &kind, wait, err);

		if (st == CH_END)
			return CH_OK;
		if (st != CH_OK)
			return st;
		st = c->req.on_block(c->req.on_block_ctx, b, kind, err);
		if (st != CH_OK)
		{
			ch_http_abort(IMPL(c)->h);
			ch_conn_request_done(c);
			return st;
		}
	}
}

static ch_status
http_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	ch_status	st;

	switch (c->phase)
	{
		case PH_CONNECT:
			st = pump(c, wait, err);
			if (st == CH_OK)
				st = probe_done(c, err);
			if (st != CH_OK && st != CH_NEED_MORE)
				ch_conn_request_done(c);
			return st;
		case PH_QUERY:
			return push_blocks(c, wait, err);
		case PH_INSERT_START:
			c->phase = PH_INSERT_READY;
			return CH_OK;
		case PH_INSERT_READY:
			return CH_OK;		/* nothing is sent before finish */
		case PH_INSERT_FINISH:
		case PH_PING:
			st = pump(c, wait, err);
			if (st != CH_NEED_MORE)
				ch_conn_request_done(c);
			return st;
		default:
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "no request in progress");
	}
}

static ch_status
http_insert_block(ch_conn *c, const uint8_t *native, size_t len, uint64_t nrows,
				  ch_error *err)
{
	http_impl  *hi = IMPL(c);
	ch_status	st;

	(void) nrows;
	if (hi->body_framed)
		st = ch_compress_frames(&hi->body, hi->body_method, c->req.zstd_level, native, len, err);
	else
		st = ch_buf_append(&hi->body, native, len);
	if (st != CH_OK && err && err->code == CH_OK)
		ch_error_set(err, st, "could not buffer %zu bytes of insert data", len);
	return st;
}

static ch_status
http_insert_finish(ch_conn *c, ch_error *err)
{
	http_impl  *hi = IMPL(c);
	ch_status	st;

	if ((st = build_sql(c, c->req.insert_rowbinary ? " FORMAT RowBinary" : " FORMAT Native",
						err)) != CH_OK)
		return st;
	c->stats.bytes_sent += hi->body.len;
	st = http_send(c, (const char *) hi->sql.data, hi->sql.len, hi->body.data, hi->body.len,
			  hi->body_framed, CH_COMPRESSION_NONE, false, err);
	if (st != CH_OK)
		ch_conn_request_done(c);
	return server_error(st, err);
}

static const ch_block *
http_insert_schema(const ch_conn *c)
{
	(void) c;
	return NULL;
}

static ch_status
http_cancel(ch_conn *c, long timeout_ms, ch_error *err)
{
	http_impl  *hi = IMPL(c);
	char		qid[sizeof(c->query_id)];
	ch_status	st;

	memcpy(qid, c->query_id, sizeof(qid));
	ch_http_abort(hi->h);
	hi->cancelled = true;
	if (c->phase != PH_QUERY)
		ch_conn_request_done(c);
	st = ch_http_kill_query(&hi->hcfg, qid, timeout_ms, err);
	return server_error(st, err);
}

/*
 * hosts.c moved c->endpoint: a ch_http_conn for the new host (its URL is
 * fixed when it is made); an insert's buffered body stays.
 */
static ch_status
http_retarget(ch_conn *c, ch_error *err)
{
	http_impl  *hi = IMPL(c);
	ch_http_conn *h;

	hi->hcfg.host = c->endpoint.host;
	hi->hcfg.port = c->endpoint.port;
	h = ch_http_create(c->a, &hi->hcfg, err);
	if (!h)
		return err && err->code != CH_OK ? err->code : CH_ERR_NOMEM;
	hi->connects_before += (uint64_t) ch_http_connects(hi->h);
	ch_http_destroy(hi->h);
	hi->h = h;
	return CH_OK;
}

static void
http_abort(ch_conn *c)
{
	ch_http_abort(IMPL(c)->h);
}

static bool
http_connected(const ch_conn *c)
{
	return c->caps.known;
}

static void
http_destroy(ch_conn *c)
{
	http_impl  *hi = IMPL(c);

	if (!hi)
		return;
	ch_http_destroy(hi->h);
	ch_native_reader_free(hi->reader);
	ch_buf_free(&hi->body);
	ch_buf_free(&hi->sql);
	ch_free(c->a, hi);
	c->impl = NULL;
}

static const conn_ops http_ops = {
	http_begin, http_next_block, http_step, http_insert_block, http_insert_finish,
	http_insert_schema, http_cancel, http_abort, http_connected, http_destroy, http_retarget
};

ch_status
ch_http_transport_init(ch_conn *c, ch_error *err)
{
	http_impl  *hi = ch_alloc(c->a, sizeof(http_impl));

	if (!hi)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	memset(hi, 0, sizeof(*hi));
	c->impl = hi;
	c->ops = &http_ops;
	ch_buf_init(&hi->body, c->a);
	ch_buf_init(&hi->sql, c->a);
	hi->hcfg.host = c->endpoint.host;
	hi->hcfg.port = c->endpoint.port;
	hi->hcfg.secure = c->cfg.secure;
	hi->hcfg.ca_file = c->cfg.ca_file;
	hi->hcfg.user = c->cfg.user;
	hi->hcfg.password = c->cfg.password;
	hi->hcfg.connect_timeout_ms = c->cfg.connect_timeout_ms;
	hi->hcfg.receive_timeout_ms = c->cfg.receive_timeout_ms;
	hi->hcfg.proxy = c->cfg.proxy;
	hi->hcfg.max_frame_bytes = c->cfg.max_frame_bytes;
	hi->h = ch_http_create(c->a, &hi->hcfg, err);
	if (!hi->h)
		return err && err->code != CH_OK ? err->code : CH_ERR_NOMEM;
	return CH_OK;
}
