/*-------------------------------------------------------------------------
 * transport.c
 *	  The transport-independent half of ch_transport.h: the ch_conn object,
 *	  request bookkeeping, lazy connecting, capabilities from the version,
 *	  exception text splitting, and a poll() loop for tests and tools.
 *
 * The implementations (http.c, tcp.c) see one phase at a time through
 * conn_ops (transport_int.h); this file chains a lazy connect in front of
 * the request that needed it.
 *
 * src/transport/transport.c
 *-------------------------------------------------------------------------
 */
#include "transport_int.h"
#include "ch_http.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t
ch_conn_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* ---- capabilities ---- */

static bool
at_least(int major, int minor, int want_major, int want_minor)
{
	return major > want_major || (major == want_major && minor >= want_minor);
}

void
ch_caps_from_version(ch_caps *caps, ch_transport_kind kind, int major, int minor,
					 int patch, uint32_t revision)
{
	memset(caps, 0, sizeof(*caps));
	caps->known = true;
	caps->version_major = major;
	caps->version_minor = minor;
	caps->version_patch = patch;
	caps->revision = revision;
	if (kind == CH_TRANSPORT_NATIVE)
	{
		/* TCP frames work on every version (18.16 included) */
		caps->response_frames = true;
		caps->query_parameters = revision >= 54459;
		caps->low_cardinality = revision >= 54405;
		caps->custom_serialization = revision >= 54454;
	}
	else
	{
		/* 18.16's HTTP compress=1 responses are broken (see connection.c) */
		caps->response_frames = major >= 19;
		caps->query_parameters = at_least(major, minor, 19, 11);
		caps->low_cardinality = major >= 19;
	}
	/* never HTTP gzip by default: it costs more CPU than a local link saves */
	caps->response_compression = caps->response_frames ? CH_COMPRESSION_LZ4 :
		CH_COMPRESSION_NONE;
	caps->date32 = at_least(major, minor, 21, 9);
	caps->datetime64 = major >= 20;
	caps->dedup_token = at_least(major, minor, 22, 2);
	caps->json_output = major >= 22;
	caps->multiple_joins = at_least(major, minor, 19, 4);
	/* generally available (no experimental setting) from 23.3 */
	caps->lightweight_delete = at_least(major, minor, 23, 3);
	/* ClickHouse's CHANGELOG: "Mark window functions as ready for general use" (21.9) */
	caps->window_functions = at_least(major, minor, 21, 9);
	/*
	 * GROUPING SETS came in 22.6, group_by_use_nulls in 22.7; GROUPING() as
	 * the standard's (1: not grouped) by default from 22.9 (the setting
	 * force_grouping_standard_compatibility, SettingsChangesHistory.cpp):
	 * the FDW writes both settings, so it needs a server knowing them.
	 */
	caps->grouping_sets = at_least(major, minor, 22, 9);
	/*
	 * toStartOfInterval (ClickHouse pull request #4304) and the bitmap
	 * functions with groupBitmap came in 19.3 (CHANGELOG.md); 18.16 answers
	 * "Unknown function" to both.
	 */
	caps->group_bitmap = at_least(major, minor, 19, 3);
	caps->start_of_interval = at_least(major, minor, 19, 3);
	/*
	 * leftPad/rightPad and their UTF-8 forms came in 21.8
	 * (src/Functions/padString.cpp); repeat() is older, but 18.16 answers
	 * "Unknown function" to it too: one capability for both (a server
	 * between them only keeps repeat local).
	 */
	caps->string_pad = at_least(major, minor, 21, 8);
	caps->initcap = at_least(major, minor, 23, 7);
	caps->decimal256 = at_least(major, minor, 22, 1);	/* (numagg) */
	/*
	 * (regr) arrayFold came in 23.6 as (x, acc) -> ...; 23.10 put the
	 * accumulator first, the form agg_regr.c sends
	 */
	caps->array_fold = at_least(major, minor, 23, 10);
	/*
	 * 18.16 evaluates some members of a UNION ALL in their own column
	 * types, not the union's ("Illegal column Int32 of first argument of
	 * function toDecimal128" summing an Int32 member with an Int64 one);
	 * from 22 (tested on 26.5) each member is cast to the common type.
	 */
	caps->union_supertype = major >= 22;
	/*
	 * (lcfix) 18.16, where LowCardinality is experimental, computes
	 * aggregates and DISTINCT of LowCardinality(Nullable(T)) columns wrong
	 * (count() counted the NULLs, sum() raised "Illegal type", uniqExact
	 * counted NULL as a value; test lcfix); the 26.5 engine computes them
	 * right. Versions between are untested: from 20.1, LowCardinality's
	 * first release out of its experimental stage, conservatively (the
	 * other form, tuple(col).1, is exact on every version, only slower).
	 */
	caps->lc_values = major >= 20;
	/*
	 * Correlated subqueries: experimental from 25.5 (the setting
	 * allow_experimental_correlated_subqueries), on by default from 25.8
	 * (ClickHouse pull request #85107).
	 */
	caps->correlated_subqueries = at_least(major, minor, 25, 8);
}

const char *
ch_transport_library_versions(void)
{
	/* the native transport's TLS is the OpenSSL libcurl is built with */
	return ch_http_library_version();
}

/* ---- exception text ---- */

static const char *
find_mem(const char *hay, size_t len, const char *needle)
{
	size_t		n = strlen(needle);
	size_t		i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

static const char *
find_last(const char *hay, size_t len, const char *needle)
{
	size_t		n = strlen(needle);
	size_t		i;

	if (len < n)
		return NULL;
	for (i = len - n + 1; i-- > 0;)
		if (memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

/* "DB::Exception: text" -> class name and text */
static void
split_class(const char *p, size_t n, ch_error *err)
{
	const char *colon = find_mem(p, n, ": ");
	size_t		k;
	bool		ident = colon != NULL && colon > p;

	for (k = 0; ident && p + k < colon; k++)
	{
		char		ch = p[k];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || ch == ':' || ch == '_'))
			ident = false;
	}
	if (ident)
	{
		snprintf(err->server_name, sizeof(err->server_name), "%.*s", (int) (colon - p), p);
		n -= (size_t) (colon + 2 - p);
		p = colon + 2;
	}
	snprintf(err->message, sizeof(err->message), "%.*s",
			 (int) (n < sizeof(err->message) ? n : sizeof(err->message) - 1), p);
}

void
ch_exception_split(const char *text, size_t len, ch_error *err)
{
	size_t		i = 0;
	int			code = 0;
	const char *p;
	size_t		n;

	if (!err)
		return;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
		len--;
	while (i < len && (text[i] == '\n' || text[i] == '\r' || text[i] == ' '))
		i++;
	text += i;
	len -= i;
	err->server_name[0] = '\0';
	if (len < 7 || memcmp(text, "Code: ", 6) != 0)
	{
		snprintf(err->message, sizeof(err->message), "%.*s",
				 (int) (len < sizeof(err->message) ? len : sizeof(err->message) - 1), text);
		return;
	}
	for (i = 6; i < len && text[i] >= '0' && text[i] <= '9' && code < 100000000; i++)
		code = code * 10 + (text[i] - '0');
	err->server_code = code;
	p = text + i;
	n = len - i;
	/* 18.16: "Code: 60, e.displayText() = DB::Exception: msg, e.what() = DB::Exception" */
	if (n > 2 && p[0] == ',' && p[1] == ' ')
	{
		const char *dt = find_mem(p, n, "e.displayText() = ");
		const char *what = find_last(p, n, ", e.what() = ");

		if (dt)
		{
			const char *start = dt + strlen("e.displayText() = ");
			const char *end = what && what > start ? what : p + n;

			split_class(start, (size_t) (end - start), err);
			return;
		}
		p += 2;
		n -= 2;
	}
	/* modern: "Code: 60. DB::Exception: msg. (UNKNOWN_TABLE) (version 23.8.1.1)" */
	else if (n > 2 && p[0] == '.' && p[1] == ' ')
	{
		const char *ver = find_last(p, n, " (version ");

		p += 2;
		n -= 2;
		if (ver && ver > p && p[n - 1] == ')')
			n = (size_t) (ver - p);
		/* the error code name in parentheses at the end */
		if (n > 0 && p[n - 1] == ')')
		{
			const char *open = find_last(p, n, " (");

			if (open && open > p)
				n = (size_t) (open - p);
		}
	}
	split_class(p, n, err);
}

ch_status
ch_escape_param(ch_buf *out, const char *value, bool quote)
{
	const char *p;
	ch_status	st = CH_OK;

	/* the TSV NULL marker passes as it is */
	if (strcmp(value, "\\N") == 0)
		return quote ? ch_buf_append(out, "'\\\\N'", 6) : ch_buf_append(out, "\\N", 3);
	/* two layers: TSV escaping, then (TCP) a quoted literal around it */
	if (quote)
		st = ch_buf_append(out, "'", 1);
	for (p = value; st == CH_OK && *p; p++)
	{
		const char *e = NULL;

		switch (*p)
		{
			case '\\':
				e = quote ? "\\\\\\\\" : "\\\\";
				break;
			case '\t':
				e = quote ? "\\\\t" : "\\t";
				break;
			case '\n':
				e = quote ? "\\\\n" : "\\n";
				break;
			case '\'':
				e = quote ? "\\'" : "'";
				break;
			default:
				break;
		}
		st = e ? ch_buf_append(out, e, strlen(e)) : ch_buf_append(out, p, 1);
	}
	if (st == CH_OK && quote)
		st = ch_buf_append(out, "'", 1);
	if (st == CH_OK)
		st = ch_buf_append(out, "", 1);
	return st;
}

/* ---- lifecycle ---- */

static char *
copy_str(ch_arena *ar, const char *s)
{
	return s ? ch_arena_strndup(ar, s, strlen(s)) : NULL;
}

ch_conn *
ch_conn_create(const ch_allocator *a, const ch_conn_config *cfg, ch_error *err)
{
	ch_conn    *c;
	ch_status	st;

	a = ch_alloc_or_default(a);
	if (!cfg || cfg->nendpoints < 1 || !cfg->endpoints || !cfg->endpoints[0].host ||
		!cfg->endpoints[0].host[0] || cfg->endpoints[0].port <= 0 ||
		cfg->endpoints[0].port > 65535)
	{
		ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "a connection needs a host and a port");
		return NULL;
	}
	c = ch_alloc(a, sizeof(*c));
	if (!c)
	{
		ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->a = a;
	ch_arena_init(&c->cfg_arena, a);
	ch_arena_init(&c->req_arena, a);
	c->cfg = *cfg;
	if (ch_hosts_init(c, cfg, err) != CH_OK)
	{
		ch_conn_destroy(c);
		return NULL;
	}
	c->cfg.ca_file = copy_str(&c->cfg_arena, cfg->ca_file);
	c->cfg.user = copy_str(&c->cfg_arena, cfg->user);
	c->cfg.password = copy_str(&c->cfg_arena, cfg->password);
	c->cfg.database = copy_str(&c->cfg_arena, cfg->database);
	c->cfg.proxy = copy_str(&c->cfg_arena, cfg->proxy);
	if (cfg->limits)
		c->limits = *cfg->limits;
	else
		ch_native_limits_default(&c->limits);
	c->cfg.limits = &c->limits;
	c->cfg.client_name = copy_str(&c->cfg_arena, cfg->client_name ? cfg->client_name :
								  "clickhouse_fdw");
	if (!c->endpoint.host || !c->cfg.client_name ||
		(cfg->user && !c->cfg.user) || (cfg->password && !c->cfg.password) ||
		(cfg->database && !c->cfg.database) || (cfg->ca_file && !c->cfg.ca_file) ||
		(cfg->proxy && !c->cfg.proxy))
	{
		ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		ch_conn_destroy(c);
		return NULL;
	}
	if (c->cfg.connect_timeout_ms <= 0)
		c->cfg.connect_timeout_ms = 10000;
	if (cfg->kind == CH_TRANSPORT_NATIVE)
		st = ch_tcp_transport_init(c, err);
	else
		st = ch_http_transport_init(c, err);
	if (st != CH_OK)
	{
		ch_conn_destroy(c);
		return NULL;
	}
	return c;
}

void
ch_conn_destroy(ch_conn *c)
{
	if (!c)
		return;
	if (c->ops)
		c->ops->destroy(c);
	ch_arena_free(&c->req_arena);
	ch_arena_free(&c->cfg_arena);
	ch_free(c->a, c);
}

void
ch_conn_request_done(ch_conn *c)
{
	c->stats.elapsed_ns = ch_conn_now_ns() - c->t0_ns;
	c->phase = PH_IDLE;
	c->after_connect = PH_IDLE;
}

/* ---- failover (the rules are hosts.c's) ---- */

static bool
failed(ch_status st)
{
	return st != CH_OK && st != CH_NEED_MORE && st != CH_END;
}

/*
 * The request failed with st in phase `was`, on its way to `target` (the
 * phase a connect leads to; PH_IDLE when the connect was the request). Go
 * on with another host where hosts.c allows it: CH_NEED_MORE with an empty
 * wait (come back at once); else st, err as hosts.c left it.
 */
static ch_status
fail_over(ch_conn *c, conn_phase was, conn_phase target, ch_status st, ch_wait *wait,
		  ch_error *err)
{
	while (failed(st) && ch_hosts_failed(c, was, st, err))
	{
		c->phase = PH_CONNECT;
		c->after_connect = target;
		st = c->ops->begin(c, err);
		if (!failed(st))
		{
			if (wait)
			{
				wait->nsockets = 0;
				wait->timeout_ms = 0;
			}
			return CH_NEED_MORE;
		}
		c->phase = PH_IDLE;
		c->after_connect = PH_IDLE;
		was = PH_CONNECT;
	}
	return st;
}

/* ---- starting requests ---- */

static ch_status
start(ch_conn *c, conn_phase phase, ch_error *err)
{
	ch_status	st;
	conn_phase	was;
	conn_phase	target;

	if (c->ops->connected(c) && phase != PH_CONNECT)
	{
		c->phase = was = target = phase;
		c->after_connect = PH_IDLE;
		st = c->ops->begin(c, err);
	}
	else
	{
		c->phase = was = PH_CONNECT;
		c->after_connect = target = phase == PH_CONNECT ? PH_IDLE : phase;
		st = ch_hosts_before_connect(c, err);
		if (st == CH_OK)
			st = c->ops->begin(c, err);
	}
	if (failed(st))
	{
		c->phase = PH_IDLE;
		c->after_connect = PH_IDLE;
		st = fail_over(c, was, target, st, NULL, err);
	}
	return st == CH_NEED_MORE ? CH_OK : st;
}

static void
reset_request(ch_conn *c)
{
	memset(&c->stats, 0, sizeof(c->stats));
	c->t0_ns = ch_conn_now_ns();
	ch_hosts_new_request(c);
}

ch_status
ch_conn_begin_connect(ch_conn *c, ch_error *err)
{
	if (c->phase != PH_IDLE)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "a request is already running");
	if (c->ops->connected(c))
		return CH_OK;
	reset_request(c);
	return start(c, PH_CONNECT, err);
}

static ch_status
copy_request(ch_conn *c, const ch_query *q, bool insert, ch_error *err)
{
	conn_request *r = &c->req;
	int			i;

	ch_arena_reset(&c->req_arena);
	memset(r, 0, sizeof(*r));
	if (!q || !q->sql)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "a request needs SQL");
	r->sql_len = q->sql_len ? q->sql_len : strlen(q->sql);
	r->sql = ch_arena_strndup(&c->req_arena, q->sql, r->sql_len);
	r->format_in_sql = q->format_in_sql;
	r->database = copy_str(&c->req_arena, q->database ? q->database : c->cfg.database);
	r->compression = q->compression;
	r->zstd_level = q->zstd_level;
	r->on_block = q->on_block;
	r->on_block_ctx = q->on_block_ctx;
	r->raw_sink = insert ? NULL : q->raw_sink;
	r->raw_sink_ctx = q->raw_sink_ctx;
	if (r->raw_sink && c->cfg.kind == CH_TRANSPORT_NATIVE)
		return ch_error_set(err, CH_ERR_UNSUPPORTED,
							"the native protocol returns blocks, not the bytes of a FORMAT");
	r->want_totals_extremes = q->want_totals_extremes;
	r->insert = insert;
	r->insert_rowbinary = insert && q->insert_rowbinary;
	if (r->insert_rowbinary && c->cfg.kind == CH_TRANSPORT_NATIVE)
		return ch_error_set(err, CH_ERR_UNSUPPORTED,
							"the native protocol inserts Native blocks, not RowBinary");
	if (q->limits)
		r->limits = *q->limits;
	else
		ch_native_limits_default(&r->limits);
	if (q->nsettings > 0)
	{
		r->settings = ch_arena_alloc(&c->req_arena, sizeof(ch_setting) * (size_t) q->nsettings);
		if (!r->settings)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		for (i = 0; i < q->nsettings; i++)
		{
			r->settings[i].name = copy_str(&c->req_arena, q->settings[i].name);
			r->settings[i].value = copy_str(&c->req_arena, q->settings[i].value ?
											q->settings[i].value : "");
			if (!r->settings[i].name || !r->settings[i].value)
				return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		}
		r->nsettings = q->nsettings;
	}
	if (q->nexternal > 0)
	{
		if (c->cfg.kind != CH_TRANSPORT_NATIVE || insert)
			return ch_error_set(err, CH_ERR_UNSUPPORTED,
								"external tables are sent with native queries only");
		r->external = ch_arena_alloc(&c->req_arena, sizeof(ch_external_table) * (size_t) q->nexternal);
		if (!r->external)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		for (i = 0; i < q->nexternal; i++)
		{
			uint8_t    *copy = ch_arena_alloc(&c->req_arena, q->external[i].len);

			r->external[i].name = copy_str(&c->req_arena, q->external[i].name);
			if (!copy || !r->external[i].name || !q->external[i].name[0])
				return ch_error_set(err, r->external[i].name && !q->external[i].name[0] ?
									CH_ERR_INVALID_ARGUMENT : CH_ERR_NOMEM,
									"external table %d: no name, or out of memory", i);
			memcpy(copy, q->external[i].native, q->external[i].len);
			r->external[i].native = copy;
			r->external[i].len = q->external[i].len;
		}
		r->nexternal = q->nexternal;
	}
	if (q->nparams > 0)
	{
		r->params = ch_arena_alloc(&c->req_arena, sizeof(ch_setting) * (size_t) q->nparams);
		if (!r->params)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		for (i = 0; i < q->nparams; i++)
		{
			r->params[i].name = copy_str(&c->req_arena, q->params[i].name);
			r->params[i].value = copy_str(&c->req_arena, q->params[i].value ?
										  q->params[i].value : "\\N");
			if (!r->params[i].name || !r->params[i].value)
				return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		}
		r->nparams = q->nparams;
	}
	if (!r->sql || (!r->database && (q->database || c->cfg.database)))
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	snprintf(c->query_id, sizeof(c->query_id), "%s", q->query_id ? q->query_id : "");
	return CH_OK;
}

static ch_status
begin_request(ch_conn *c, const ch_query *q, bool insert, ch_error *err)
{
	ch_status	st;

	if (c->phase != PH_IDLE)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "a request is already running");
	if ((st = copy_request(c, q, insert, err)) != CH_OK)
		return st;
	reset_request(c);
	c->requests++;
	return start(c, insert ? PH_INSERT_START : PH_QUERY, err);
}

ch_status
ch_conn_begin_query(ch_conn *c, const ch_query *q, ch_error *err)
{
	return begin_request(c, q, false, err);
}

ch_status
ch_conn_begin_insert(ch_conn *c, const ch_query *q, ch_error *err)
{
	return begin_request(c, q, true, err);
}

ch_status
ch_conn_begin_ping(ch_conn *c, ch_error *err)
{
	if (c->phase != PH_IDLE)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "a request is already running");
	reset_request(c);
	return start(c, PH_PING, err);
}

/* ---- driving ---- */

/*
 * A connect that was finished: go on with the request that needed it.
 * Returns CH_NEED_MORE when that request is under way, CH_OK when the
 * connect itself was the request.
 */
static ch_status
after_connect(ch_conn *c, ch_wait *wait, ch_error *err)
{
	ch_status	st;
	conn_phase	target = c->after_connect;

	ch_hosts_succeeded(c);
	if (c->after_connect == PH_IDLE)
	{
		ch_conn_request_done(c);
		return CH_OK;
	}
	c->phase = c->after_connect;
	c->after_connect = PH_IDLE;
	st = c->ops->begin(c, err);
	if (st != CH_OK && st != CH_NEED_MORE)
	{
		c->phase = PH_IDLE;
		return fail_over(c, target, target, st, wait, err);
	}
	/* let the caller come back at once */
	wait->nsockets = 0;
	wait->timeout_ms = 0;
	return CH_NEED_MORE;
}

ch_status
ch_conn_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	ch_status	st;
	conn_phase	was;
	conn_phase	target;

	if (c->phase == PH_IDLE)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "no request in progress");
	if (c->phase == PH_QUERY && !c->req.on_block)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"a query without a block sink is read with ch_conn_next_block");
	was = c->phase;
	target = was == PH_CONNECT ? c->after_connect : was;
	st = c->ops->step(c, wait, err);
	if (st == CH_OK && c->phase == PH_CONNECT)
		return after_connect(c, wait, err);
	if (failed(st))
		return fail_over(c, was, target, st, wait, err);
	return st;
}

ch_status
ch_conn_next_block(ch_conn *c, const ch_block **out, ch_block_kind *kind, ch_wait *wait,
				   ch_error *err)
{
	ch_status	st;

	*out = NULL;
	if (c->phase == PH_CONNECT)
	{
		conn_phase	target = c->after_connect;

		st = c->ops->step(c, wait, err);
		if (failed(st))
			return fail_over(c, PH_CONNECT, target, st, wait, err);
		if (st != CH_OK)
			return st;
		return after_connect(c, wait, err);
	}
	if (c->phase != PH_QUERY)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "no query in progress");
	st = c->ops->next_block(c, out, kind, wait, err);
	if (failed(st))
		return fail_over(c, PH_QUERY, PH_QUERY, st, wait, err);
	return st;
}

ch_status
ch_conn_insert_block(ch_conn *c, const uint8_t *native, size_t len, uint64_t nrows,
					 ch_error *err)
{
	ch_status	st;

	if (c->phase != PH_INSERT_READY)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "the insert is not ready for data");

	if (nrows == 0)
		return CH_OK;
	c->insert_rows += nrows;
	st = c->ops->insert_block(c, native, len, nrows, err);
	if (failed(st))
		(void) ch_hosts_failed(c, PH_INSERT_READY, st, err);	/* says what was sent */
	return st;
}

ch_status
ch_conn_insert_finish(ch_conn *c, ch_error *err)
{
	ch_status	st;

	if (c->phase != PH_INSERT_READY)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "the insert is not ready for data");
	c->phase = PH_INSERT_FINISH;
	st = c->ops->insert_finish(c, err);
	if (failed(st))
		return fail_over(c, PH_INSERT_FINISH, PH_INSERT_FINISH, st, NULL, err);
	return st == CH_NEED_MORE ? CH_OK : st;
}

const ch_block *
ch_conn_insert_schema(const ch_conn *c)
{
	return c->ops->insert_schema(c);
}

ch_status
ch_conn_cancel(ch_conn *c, long timeout_ms, ch_error *err)
{
	if (c->phase == PH_IDLE)
		return CH_OK;
	if (c->phase == PH_CONNECT || c->phase == PH_PING)
	{
		ch_conn_abort(c);
		return CH_OK;
	}
	return c->ops->cancel(c, timeout_ms, err);
}

void
ch_conn_abort(ch_conn *c)
{
	if (c->phase == PH_IDLE)
		return;
	c->ops->abort(c);
	ch_conn_request_done(c);
}

/* ---- state ---- */

bool
ch_conn_busy(const ch_conn *c)
{
	return c->phase != PH_IDLE;
}

bool
ch_conn_connected(const ch_conn *c)
{
	return c->ops->connected(c);
}

bool
ch_conn_drop_if_gone(ch_conn *c)
{
	if (c->phase != PH_IDLE || c->cfg.kind != CH_TRANSPORT_NATIVE || !ch_tcp_peer_gone(c))
		return false;
	c->ops->abort(c);			/* closed: the next request connects again */
	return true;
}

ch_transport_kind
ch_conn_kind(const ch_conn *c)
{
	return c->cfg.kind;
}

const ch_caps *
ch_conn_caps(const ch_conn *c)
{
	return &c->caps;
}

const ch_server_info *
ch_conn_server_info(const ch_conn *c)
{
	return &c->info;
}

const ch_request_stats *
ch_conn_stats(const ch_conn *c)
{
	return &c->stats;
}

const char *
ch_conn_query_id(const ch_conn *c)
{
	return c->query_id;
}

uint64_t
ch_conn_request_count(const ch_conn *c)
{
	return c->requests;
}

uint64_t
ch_conn_connect_count(const ch_conn *c)
{
	return c->connects;
}

/* ---- blocking helpers (tests, tools, KILL QUERY) ---- */

static ch_status
wait_poll(const ch_wait *w, long budget_ms)
{
	struct pollfd pfd[CH_WAIT_MAX_SOCKETS];
	int			i;
	long		t = w->timeout_ms;

	for (i = 0; i < w->nsockets; i++)
	{
		pfd[i].fd = w->fd[i];
		pfd[i].events = (short) ((w->want_read[i] ? POLLIN : 0) | (w->want_write[i] ? POLLOUT : 0));
		pfd[i].revents = 0;
	}
	if (budget_ms >= 0 && (t < 0 || t > budget_ms))
		t = budget_ms;
	if (poll(pfd, (nfds_t) w->nsockets, (int) (t < 0 ? -1 : t)) < 0)
		return CH_ERR_NETWORK;
	return CH_OK;
}

ch_status
ch_conn_run_blocking(ch_conn *c, long timeout_ms, ch_error *err)
{
	uint64_t	deadline = timeout_ms >= 0 ? ch_conn_now_ns() + (uint64_t) timeout_ms * 1000000u : 0;

	for (;;)
	{
		ch_wait		w;
		ch_status	st;
		long		left = -1;

		memset(&w, 0, sizeof(w));
		if (c->phase == PH_QUERY && !c->req.on_block)
		{
			const ch_block *b;
			ch_block_kind kind;

			st = ch_conn_next_block(c, &b, &kind, &w, err);
			if (st == CH_OK)
				continue;
			if (st == CH_END)
				return CH_OK;
		}
		else
			st = ch_conn_step(c, &w, err);
		if (st != CH_NEED_MORE)
			return st;
		if (timeout_ms >= 0)
		{
			uint64_t	now = ch_conn_now_ns();

			if (now >= deadline)
			{
				ch_conn_abort(c);
				return ch_error_set(err, CH_ERR_TIMEOUT, "no answer from ClickHouse within %ld ms",
									timeout_ms);
			}
			left = (long) ((deadline - now) / 1000000u) + 1;
		}
		if (wait_poll(&w, left) != CH_OK)
		{
			ch_conn_abort(c);
			return ch_error_set(err, CH_ERR_NETWORK, "poll() failed");
		}
	}
}

ch_status
ch_conn_kill_query(const ch_allocator *a, const ch_conn_config *cfg, const char *query_id,
				   long timeout_ms, ch_error *err)
{
	ch_buf		sql;
	ch_conn    *k;
	ch_query	q;
	ch_status	st;
	const char *p;

	if (!query_id || !query_id[0])
		return CH_OK;
	ch_buf_init(&sql, ch_alloc_or_default(a));
	st = ch_buf_append(&sql, "KILL QUERY WHERE query_id = '", 29);
	for (p = query_id; st == CH_OK && *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			st = ch_buf_append(&sql, "\\", 1);
		if (st == CH_OK)
			st = ch_buf_append(&sql, p, 1);
	}
	if (st == CH_OK)
		st = ch_buf_append(&sql, "' ASYNC", 8);	/* with the NUL */
	if (st != CH_OK)
	{
		ch_buf_free(&sql);
		return ch_error_set(err, st, "out of memory");
	}
	k = ch_conn_create(a, cfg, err);
	if (!k)
	{
		ch_buf_free(&sql);
		return err ? err->code : CH_ERR_NOMEM;
	}
	memset(&q, 0, sizeof(q));
	q.sql = (const char *) sql.data;
	st = ch_conn_begin_query(k, &q, err);
	if (st == CH_OK)
		st = ch_conn_run_blocking(k, timeout_ms, err);
	ch_conn_destroy(k);
	ch_buf_free(&sql);
	return st;
}
