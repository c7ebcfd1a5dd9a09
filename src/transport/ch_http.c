/*-------------------------------------------------------------------------
 * ch_http.c
 *	  HTTP transport over libcurl's multi socket interface.
 *
 * libcurl tells us which sockets it wants watched (socket callback) and when
 * it wants to be called back (timer callback); ch_http_step runs
 * curl_multi_socket_action for whatever is due and reports what to wait for
 * next. The caller never blocks inside libcurl.
 *
 * HTTP details: the project's docs/clickhouse-wire.md section 5. The status
 * is 200 for success; other statuses carry "Code: N, ..." text in the body
 * (and X-ClickHouse-Exception-Code on newer servers).
 *
 * Bounded work per step: the write callback counts what it hands to the
 * sink; past CH_HTTP_STEP_BUDGET it pauses the transfer (CURL_WRITEFUNC_PAUSE,
 * libcurl keeps the bytes) and compressed input left over from a callback
 * waits in "pending" (at most one callback's worth of wire bytes), so a
 * hostile server cannot make one step decode gigabytes.
 *
 * Proxies: only the configured one. libcurl would otherwise take one from
 * the environment of the process (http_proxy, ...) and send it the
 * X-ClickHouse-Key header.
 *
 * src/transport/ch_http.c
 *-------------------------------------------------------------------------
 */
#include "ch_http.h"
#include "ch_compress.h"

#include <curl/curl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_ERROR_BODY (64 * 1024)

typedef struct tracked_socket
{
	curl_socket_t fd;
	int			what;			/* CURL_POLL_IN / OUT / INOUT */
} tracked_socket;

struct ch_http_conn
{
	const ch_allocator *a;
	CURLM	   *multi;
	CURL	   *easy;
	char	   *base_url;		/* scheme://host:port/ */
	char	   *user_header;
	char	   *key_header;
	char	   *ca_file;
	char	   *proxy;			/* "" for none */
	uint64_t	max_frame_bytes;
	bool		secure;
	long		connect_timeout_ms;
	long		receive_timeout_ms;
	char		query_id[128];
	struct curl_slist *headers;

	/* per request */
	bool		busy;
	bool		attached;		/* easy handle is in the multi handle */
	ch_buf		url;
	ch_buf		body;
	ch_sink_fn	sink;
	void	   *sink_ctx;
	long		status;			/* HTTP status once headers arrived */
	ch_buf		errbody;		/* body of a non-200 response (capped) */
	int			exception_code; /* X-ClickHouse-Exception-Code */
	char		summary[512];	/* X-ClickHouse-Summary, or "" */
	bool		sink_failed;
	bool		errbody_cut;	/* the error text was cut at MAX_ERROR_BODY */
	ch_decompressor *decomp;	/* when response_framed */
	bool		framed;
	size_t		step_out;		/* bytes given to the sink in this step */
	ch_buf		pending;		/* framed bytes taken from libcurl, not yet
								 * decoded (the budget ran out) */
	bool		paused;			/* the write callback paused the transfer */
	bool		done;			/* libcurl finished while pending was not
								 * empty: finish once it is */
	CURLcode	done_rc;
	ch_error	sink_err;
	char		curl_errbuf[CURL_ERROR_SIZE];

	tracked_socket socks[CH_WAIT_MAX_SOCKETS];
	int			nsocks;
	bool		timer_set;
	struct timespec timer_deadline;

	uint64_t	requests;
	long		connects;

	/* an INSERT body, read by body_read_cb (never rewound) */
	const uint8_t *body_data;
	size_t		body_len;
	size_t		body_off;
	struct timespec idle_since; /* when the last request ended (0: never) */
};

/*
 * An INSERT on a connection idle longer than this gets a fresh one: the
 * server may be closing it (ClickHouse's keep_alive_timeout is 3 s by
 * default; src/Server/HTTPHandler and config.xml), and a request lost that
 * way must not be sent again by libcurl (see body_seek_cb).
 */
#define INSERT_MAX_IDLE_MS 1000

static bool curl_initialised = false;

static char *
dupstr(const ch_allocator *a, const char *s)
{
	size_t		n;
	char	   *d;

	if (!s)
		return NULL;
	n = strlen(s);
	d = ch_alloc(a, n + 1);
	if (d)
		memcpy(d, s, n + 1);
	return d;
}

ch_status
ch_url_escape(ch_buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t		i;
	ch_status	st = ch_buf_reserve(out, len * 3);

	if (st != CH_OK)
		return st;
	for (i = 0; i < len; i++)
	{
		unsigned char ch = (unsigned char) s[i];

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			(ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.' || ch == '~')
			out->data[out->len++] = ch;
		else
		{
			out->data[out->len++] = '%';
			out->data[out->len++] = hex[ch >> 4];
			out->data[out->len++] = hex[ch & 15];
		}
	}
	return CH_OK;
}

bool
ch_parse_uint(const char *text, size_t len, uint64_t max, uint64_t *out)
{
	size_t		i = 0;
	size_t		digits = 0;
	uint64_t	v = 0;

	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	for (; i < len && text[i] >= '0' && text[i] <= '9'; i++)
	{
		if (++digits > 18)
			return false;
		v = v * 10 + (uint64_t) (text[i] - '0');
	}
	if (digits == 0 || v > max)
		return false;
	for (; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
			return false;
	*out = v;
	return true;
}

const char *
ch_http_library_version(void)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "libcurl %s", curl_version_info(CURLVERSION_NOW)->version);
	return buf;
}

bool
ch_parse_version(const char *text, size_t len, int *major, int *minor)
{
	size_t		i = 0;
	size_t		dot;
	uint64_t	a,
				b;

	while (i < len && text[i] >= '0' && text[i] <= '9')
		i++;
	if (i == 0 || i > 9 || i >= len || text[i] != '.')
		return false;
	dot = i++;
	while (i < len && text[i] >= '0' && text[i] <= '9')
		i++;
	if (i == dot + 1 || i - dot - 1 > 9 || (i < len && text[i] != '.'))
		return false;
	if (!ch_parse_uint(text, dot, 999999999, &a) ||
		!ch_parse_uint(text + dot + 1, i - dot - 1, 999999999, &b))
		return false;
	*major = (int) a;
	*minor = (int) b;
	return true;
}

int
ch_parse_exception_code(const char *text, size_t len)
{
	size_t		i = 0;
	int			code = 0;

	while (i < len && (text[i] == '\n' || text[i] == '\r' || text[i] == ' '))
		i++;
	if (len - i < 7 || memcmp(text + i, "Code: ", 6) != 0)
		return 0;
	for (i += 6; i < len && text[i] >= '0' && text[i] <= '9' && code < 100000000; i++)
		code = code * 10 + (text[i] - '0');
	return code;
}

/* ---- libcurl callbacks ---- */

static int
socket_cb(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp)
{
	ch_http_conn *c = userp;
	int			i;

	(void) easy;
	(void) socketp;
	for (i = 0; i < c->nsocks; i++)
		if (c->socks[i].fd == s)
			break;
	if (what == CURL_POLL_REMOVE)
	{
		if (i < c->nsocks)
		{
			c->socks[i] = c->socks[c->nsocks - 1];
			c->nsocks--;
		}
		return 0;
	}
	if (i == c->nsocks)
	{
		if (c->nsocks == CH_WAIT_MAX_SOCKETS)
			return -1;			/* cannot track it: libcurl fails the transfer */
		c->nsocks++;
	}
	c->socks[i].fd = s;
	c->socks[i].what = what;
	return 0;
}

static void
now_plus(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L)
	{
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static long
ms_until(const struct timespec *ts)
{
	struct timespec now;
	long long	d;

	clock_gettime(CLOCK_MONOTONIC, &now);
	d = (long long) (ts->tv_sec - now.tv_sec) * 1000 + (ts->tv_nsec - now.tv_nsec) / 1000000;
	if (d < 0)
		return 0;
	if (d > 1000000)
		return 1000000;
	return (long) d;
}

static int
timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
	ch_http_conn *c = userp;

	(void) multi;
	if (timeout_ms < 0)
		c->timer_set = false;
	else
	{
		c->timer_set = true;
		now_plus(&c->timer_deadline, timeout_ms);
	}
	return 0;
}

static size_t
header_cb(char *buf, size_t size, size_t nitems, void *userp)
{
	ch_http_conn *c = userp;
	size_t		n = size * nitems;
	static const char h[] = "x-clickhouse-exception-code:";

	static const char sh[] = "x-clickhouse-summary:";
	uint64_t	code;

	/* a malformed value is ignored: the body's "Code: N" is used instead */
	if (n > sizeof(h) - 1 && strncasecmp(buf, h, sizeof(h) - 1) == 0 &&
		ch_parse_uint(buf + sizeof(h) - 1, n - (sizeof(h) - 1), 1000000000, &code))
		c->exception_code = (int) code;
	else if (n > sizeof(sh) - 1 && strncasecmp(buf, sh, sizeof(sh) - 1) == 0)
	{
		size_t		k = n - (sizeof(sh) - 1);

		if (k >= sizeof(c->summary))
			k = sizeof(c->summary) - 1;
		memcpy(c->summary, buf + sizeof(sh) - 1, k);
		c->summary[k] = '\0';
	}
	return n;
}

/* The sink, counting what it was given against the step's budget. */
static ch_status
counting_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	ch_http_conn *c = ctx;

	c->step_out += len;
	return c->sink(c->sink_ctx, data, len, err);
}

/* Decode framed bytes within what is left of the step's budget. */
static ch_status
feed_frames(ch_http_conn *c, const uint8_t *data, size_t n, size_t *used)
{
	size_t		room = c->step_out < CH_HTTP_STEP_BUDGET ? CH_HTTP_STEP_BUDGET - c->step_out : 1;

	return ch_decompressor_feed_some(c->decomp, data, n, room, used, counting_sink, c,
									 &c->sink_err);
}

static size_t
write_cb(char *data, size_t size, size_t nmemb, void *userp)
{
	ch_http_conn *c = userp;
	size_t		n = size * nmemb;

	if (c->status == 0)
		curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &c->status);
	if (c->status != 200)
	{
		size_t		room = MAX_ERROR_BODY - c->errbody.len;

		if (room > 0)
			(void) ch_buf_append(&c->errbody, data, n < room ? n : room);
		if (n > room)
		{
			/* enough of an error text: do not read an endless one */
			c->errbody_cut = true;
			return 0;			/* ends the transfer (and its connection) */
		}
		return n;
	}
	if (c->sink)
	{
		ch_status	st;

		/* the budget of this step is spent: libcurl keeps the bytes */
		if (c->pending.len > 0 || c->step_out >= CH_HTTP_STEP_BUDGET)
		{
			c->paused = true;
			return CURL_WRITEFUNC_PAUSE;
		}
		if (c->framed)
		{
			size_t		used = 0;

			st = feed_frames(c, (const uint8_t *) data, n, &used);
			if (st == CH_OK && used < n &&
				ch_buf_append(&c->pending, data + used, n - used) != CH_OK)
				st = ch_error_set(&c->sink_err, CH_ERR_NOMEM, "out of memory");
		}
		else
		{
			c->step_out += n;
			st = c->sink(c->sink_ctx, (const uint8_t *) data, n, &c->sink_err);
		}
		if (st != CH_OK)
		{
			if (c->sink_err.code == CH_OK)
				ch_error_set(&c->sink_err, st, "%s", ch_status_text(st));
			c->sink_failed = true;
			return 0;			/* aborts the transfer */
		}
	}
	return n;
}

/* ---- lifecycle ---- */

ch_http_conn *
ch_http_create(const ch_allocator *a, const ch_http_config *cfg, ch_error *err)
{
	ch_http_conn *c;
	char		tmp[512];
	bool		ipv6 = cfg->host && strchr(cfg->host, ':') != NULL;

	a = ch_alloc_or_default(a);
	if (!curl_initialised)
	{
		if (curl_global_init(CURL_GLOBAL_ALL) != CURLE_OK)
		{
			ch_error_set(err, CH_ERR_INTERNAL, "could not initialise libcurl");
			return NULL;
		}
		curl_initialised = true;
	}
	c = ch_alloc(a, sizeof(*c));
	if (!c)
	{
		ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->a = a;
	ch_buf_init(&c->url, a);
	ch_buf_init(&c->body, a);
	ch_buf_init(&c->errbody, a);
	c->multi = curl_multi_init();
	c->easy = curl_easy_init();
	snprintf(tmp, sizeof(tmp), "%s://%s%s%s:%d/", cfg->secure ? "https" : "http",
			 ipv6 ? "[" : "", cfg->host ? cfg->host : "127.0.0.1", ipv6 ? "]" : "",
			 cfg->port);
	c->base_url = dupstr(a, tmp);
	c->secure = cfg->secure;
	c->ca_file = dupstr(a, cfg->ca_file);
	c->proxy = dupstr(a, cfg->proxy ? cfg->proxy : "");
	c->max_frame_bytes = cfg->max_frame_bytes;
	ch_buf_init(&c->pending, a);
	c->connect_timeout_ms = cfg->connect_timeout_ms;
	c->receive_timeout_ms = cfg->receive_timeout_ms;
	if (cfg->user && cfg->user[0])
	{
		size_t		n = strlen(cfg->user) + 32;

		c->user_header = ch_alloc(a, n);
		if (c->user_header)
			snprintf(c->user_header, n, "X-ClickHouse-User: %s", cfg->user);
	}
	if (cfg->password && cfg->password[0])
	{
		size_t		n = strlen(cfg->password) + 32;

		c->key_header = ch_alloc(a, n);
		if (c->key_header)
			snprintf(c->key_header, n, "X-ClickHouse-Key: %s", cfg->password);
	}
	if (!c->multi || !c->easy || !c->base_url || !c->proxy ||
		(cfg->user && cfg->user[0] && !c->user_header) ||
		(cfg->password && cfg->password[0] && !c->key_header) ||
		(cfg->ca_file && !c->ca_file))
	{
		ch_error_set(err, CH_ERR_NOMEM, "could not create an HTTP connection object");
		ch_http_destroy(c);
		return NULL;
	}
	if (strchr(tmp, '\r') || strchr(tmp, '\n') ||
		(cfg->user && strpbrk(cfg->user, "\r\n")) ||
		(cfg->password && strpbrk(cfg->password, "\r\n")) ||
		(cfg->proxy && strpbrk(cfg->proxy, "\r\n")))
	{
		ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "host, user, password and proxy must not contain line breaks");
		ch_http_destroy(c);
		return NULL;
	}
	c->headers = curl_slist_append(c->headers, "Expect:");
	if (c->user_header)
		c->headers = curl_slist_append(c->headers, c->user_header);
	if (c->key_header)
		c->headers = curl_slist_append(c->headers, c->key_header);
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETDATA, c);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERDATA, c);
	curl_multi_setopt(c->multi, CURLMOPT_MAXCONNECTS, 1L);
	return c;
}

static void
detach(ch_http_conn *c)
{
	if (c->attached)
	{
		curl_multi_remove_handle(c->multi, c->easy);
		c->attached = false;
	}
	c->busy = false;
	clock_gettime(CLOCK_MONOTONIC, &c->idle_since);
}

void
ch_http_abort(ch_http_conn *c)
{
	if (!c || !c->busy)
		return;
	/* a transfer cut short must not leave its connection for reuse */
	curl_easy_setopt(c->easy, CURLOPT_FORBID_REUSE, 1L);
	detach(c);
	/* drop the (now unusable) cached connection by recreating the multi */
	curl_multi_cleanup(c->multi);
	c->multi = curl_multi_init();
	if (c->multi)
	{
		curl_multi_setopt(c->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
		curl_multi_setopt(c->multi, CURLMOPT_SOCKETDATA, c);
		curl_multi_setopt(c->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
		curl_multi_setopt(c->multi, CURLMOPT_TIMERDATA, c);
		curl_multi_setopt(c->multi, CURLMOPT_MAXCONNECTS, 1L);
	}
	c->nsocks = 0;
	c->timer_set = false;
	ch_buf_reset(&c->pending);
	c->paused = false;
	c->done = false;
}

void
ch_http_destroy(ch_http_conn *c)
{
	if (!c)
		return;
	detach(c);
	if (c->easy)
		curl_easy_cleanup(c->easy);
	if (c->multi)
		curl_multi_cleanup(c->multi);
	curl_slist_free_all(c->headers);
	ch_buf_free(&c->url);
	ch_buf_free(&c->body);
	ch_buf_free(&c->errbody);
	ch_buf_free(&c->pending);
	ch_decompressor_free(c->decomp);
	ch_free(c->a, c->base_url);
	ch_free(c->a, c->user_header);
	ch_free(c->a, c->key_header);
	ch_free(c->a, c->ca_file);
	ch_free(c->a, c->proxy);
	ch_free(c->a, c);
}

bool
ch_http_busy(const ch_http_conn *c)
{
	return c->busy;
}

const char *
ch_http_summary(const ch_http_conn *c)
{
	return c->summary;
}

const char *
ch_http_query_id(const ch_http_conn *c)
{
	return c->query_id;
}

static size_t
discard_cb(char *data, size_t size, size_t nmemb, void *userp)
{
	(void) data;
	(void) userp;
	return size * nmemb;
}

ch_status
ch_http_kill_query(const ch_http_config *cfg, const char *query_id, long timeout_ms,
				   ch_error *err)
{
	ch_http_conn *c;
	ch_buf		sql;
	CURLcode	rc;
	long		status = 0;
	const char *p;
	ch_status	st = CH_OK;

	if (!query_id || !query_id[0])
		return CH_OK;
	c = ch_http_create(NULL, cfg, err);
	if (!c)
		return err ? err->code : CH_ERR_INTERNAL;
	ch_buf_init(&sql, NULL);
	(void) ch_buf_append(&sql, "KILL QUERY WHERE query_id = '", 29);
	for (p = query_id; *p; p++)
	{
		if (*p == '\\' || *p == '\'')
			(void) ch_buf_append(&sql, "\\", 1);
		(void) ch_buf_append(&sql, p, 1);
	}
	(void) ch_buf_append(&sql, "' ASYNC", 8);
	curl_easy_setopt(c->easy, CURLOPT_URL, c->base_url);
	curl_easy_setopt(c->easy, CURLOPT_POST, 1L);
	curl_easy_setopt(c->easy, CURLOPT_POSTFIELDS, (char *) sql.data);
	curl_easy_setopt(c->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) (sql.len - 1));
	curl_easy_setopt(c->easy, CURLOPT_HTTPHEADER, c->headers);
	curl_easy_setopt(c->easy, CURLOPT_WRITEFUNCTION, discard_cb);
	curl_easy_setopt(c->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->easy, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(c->easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
	curl_easy_setopt(c->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	/* "" is no proxy, also none from the environment */
	curl_easy_setopt(c->easy, CURLOPT_PROXY, c->proxy);
	if (c->secure)
	{
		curl_easy_setopt(c->easy, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(c->easy, CURLOPT_SSL_VERIFYHOST, 2L);
		if (c->ca_file)
			curl_easy_setopt(c->easy, CURLOPT_CAINFO, c->ca_file);
	}
	rc = curl_easy_perform(c->easy);
	curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &status);
	if (rc != CURLE_OK)
		st = ch_error_set(err, CH_ERR_NETWORK, "could not send KILL QUERY: %s", curl_easy_strerror(rc));
	else if (status != 200)
		st = ch_error_set(err, CH_ERR_SERVER, "KILL QUERY answered HTTP %ld", status);
	ch_buf_free(&sql);
	ch_http_destroy(c);
	return st;
}

uint64_t
ch_http_request_count(const ch_http_conn *c)
{
	return c->requests;
}

long
ch_http_connects(const ch_http_conn *c)
{
	return c->connects;
}

static ch_status
append_param(ch_buf *url, bool *first, const char *name, const char *value)
{
	ch_status	st;

	st = ch_buf_append(url, *first ? "?" : "&", 1);
	if (st == CH_OK)
		st = ch_url_escape(url, name, strlen(name));
	if (st == CH_OK)
		st = ch_buf_append(url, "=", 1);
	if (st == CH_OK)
		st = ch_url_escape(url, value, strlen(value));
	*first = false;
	return st;
}

/* Feeds an INSERT body to libcurl. */
static size_t
body_read_cb(char *buf, size_t size, size_t nitems, void *userdata)
{
	ch_http_conn *c = (ch_http_conn *) userdata;
	size_t		n = size * nitems;

	if (n > c->body_len - c->body_off)
		n = c->body_len - c->body_off;
	memcpy(buf, c->body_data + c->body_off, n);
	c->body_off += n;
	return n;
}

/*
 * libcurl re-sends a request by itself when a reused connection dies
 * before the answer ("Connection died, retrying a fresh connect"), which
 * rewinds the body. For an INSERT that would write a block twice if the
 * server had taken it: refuse the rewind, so the request fails and the
 * caller decides (deduplication token or not) whether it may be sent again.
 */
static int
body_seek_cb(void *userdata, curl_off_t offset, int origin)
{
	(void) userdata;
	(void) offset;
	(void) origin;
	return CURL_SEEKFUNC_CANTSEEK;
}

static long
ms_since(const struct timespec *t)
{
	struct timespec now;

	if (t->tv_sec == 0 && t->tv_nsec == 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long) ((now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000);
}

ch_status
ch_http_begin(ch_http_conn *c, const ch_http_request *req, ch_error *err)
{
	ch_status	st;
	bool		first = true;
	int			i;
	CURLMcode	mc;

	if (c->busy)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "a request is already in progress on this connection");
	if (!c->multi)
		return ch_error_set(err, CH_ERR_NOMEM, "could not create a libcurl multi handle");
	ch_buf_reset(&c->url);
	ch_buf_reset(&c->body);
	ch_buf_reset(&c->errbody);
	st = ch_buf_append(&c->url, c->base_url, strlen(c->base_url));
	if (st == CH_OK && req->database)
		st = append_param(&c->url, &first, "database", req->database);
	if (st == CH_OK && req->query_id)
		st = append_param(&c->url, &first, "query_id", req->query_id);
	for (i = 0; st == CH_OK && i < req->nsettings; i++)
		st = append_param(&c->url, &first, req->settings[i].name, req->settings[i].value);
	if (st == CH_OK && req->body_framed)
		st = append_param(&c->url, &first, "decompress", "1");
	if (st == CH_OK && req->response_framed)
		st = append_param(&c->url, &first, "compress", "1");
	if (st == CH_OK && req->response_gzip)
		st = append_param(&c->url, &first, "enable_http_compression", "1");
	if (st == CH_OK && req->body)
	{
		st = ch_buf_append(&c->url, first ? "?query=" : "&query=", 7);
		if (st == CH_OK)
			st = ch_url_escape(&c->url, req->sql, req->sql_len);
	}
	if (st == CH_OK)
		st = ch_buf_append(&c->url, "", 1);
	if (st == CH_OK && !req->body)
		st = ch_buf_append(&c->body, req->sql, req->sql_len);
	if (st != CH_OK)
		return ch_error_set(err, st, "out of memory building an HTTP request");

	c->sink = req->sink;
	c->sink_ctx = req->sink_ctx;
	snprintf(c->query_id, sizeof(c->query_id), "%s", req->query_id ? req->query_id : "");
	c->status = 0;
	c->exception_code = 0;
	c->summary[0] = '\0';
	c->sink_failed = false;
	c->errbody_cut = false;
	c->framed = req->response_framed && req->sink;
	ch_buf_reset(&c->pending);
	c->paused = false;
	c->done = false;
	c->step_out = 0;
	if (c->framed)
	{
		if (!c->decomp)
			c->decomp = ch_decompressor_create(c->a);
		else
			ch_decompressor_reset(c->decomp);
		if (!c->decomp)
			return ch_error_set(err, CH_ERR_NOMEM, "could not create a decompressor");
		ch_decompressor_set_max_frame(c->decomp, c->max_frame_bytes);
	}
	ch_error_clear(&c->sink_err);
	c->curl_errbuf[0] = '\0';

	curl_easy_reset(c->easy);
	curl_easy_setopt(c->easy, CURLOPT_URL, (char *) c->url.data);
	curl_easy_setopt(c->easy, CURLOPT_POST, 1L);
	if (req->body)
	{
		c->body_data = req->body;
		c->body_len = req->body_len;
		c->body_off = 0;
		curl_easy_setopt(c->easy, CURLOPT_READFUNCTION, body_read_cb);
		curl_easy_setopt(c->easy, CURLOPT_READDATA, c);
		curl_easy_setopt(c->easy, CURLOPT_SEEKFUNCTION, body_seek_cb);
		curl_easy_setopt(c->easy, CURLOPT_SEEKDATA, c);
		curl_easy_setopt(c->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) req->body_len);
		if (ms_since(&c->idle_since) > INSERT_MAX_IDLE_MS)
			curl_easy_setopt(c->easy, CURLOPT_FRESH_CONNECT, 1L);
	}
	else
	{
		curl_easy_setopt(c->easy, CURLOPT_POSTFIELDS, c->body.len ? (char *) c->body.data : "");
		curl_easy_setopt(c->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) c->body.len);
	}
	curl_easy_setopt(c->easy, CURLOPT_HTTPHEADER, c->headers);
	curl_easy_setopt(c->easy, CURLOPT_WRITEFUNCTION, write_cb);
	if (req->response_gzip)
		curl_easy_setopt(c->easy, CURLOPT_ACCEPT_ENCODING, "gzip");
	/*
	 * Receive in pieces of up to 256 kB (libcurl's default is 16 kB): a large
	 * scan makes a sixteenth of the read calls and write callbacks. Not for
	 * gzip responses, whose every piece libcurl inflates before the write
	 * callback can refuse it (a piece of zeros inflates ~1000x: the fault
	 * test's gzip_zeros stream). The option stays on the reused handle, so
	 * it is set for every request.
	 */
	curl_easy_setopt(c->easy, CURLOPT_BUFFERSIZE, req->response_gzip ? 16384L : 256L * 1024);
	curl_easy_setopt(c->easy, CURLOPT_WRITEDATA, c);
	curl_easy_setopt(c->easy, CURLOPT_HEADERFUNCTION, header_cb);
	curl_easy_setopt(c->easy, CURLOPT_HEADERDATA, c);
	curl_easy_setopt(c->easy, CURLOPT_ERRORBUFFER, c->curl_errbuf);
	curl_easy_setopt(c->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->easy, CURLOPT_TCP_NODELAY, 1L);
	curl_easy_setopt(c->easy, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(c->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	/* "" is no proxy, also none from the environment */
	curl_easy_setopt(c->easy, CURLOPT_PROXY, c->proxy);
	if (c->connect_timeout_ms > 0)
		curl_easy_setopt(c->easy, CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
	if (c->receive_timeout_ms > 0)
	{
		/* less than 1 byte/s for that long: the server is gone or stuck */
		curl_easy_setopt(c->easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
		curl_easy_setopt(c->easy, CURLOPT_LOW_SPEED_TIME,
						 (c->receive_timeout_ms + 999) / 1000);
	}
	if (c->secure)
	{
		curl_easy_setopt(c->easy, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(c->easy, CURLOPT_SSL_VERIFYHOST, 2L);
		if (c->ca_file)
			curl_easy_setopt(c->easy, CURLOPT_CAINFO, c->ca_file);
	}
	mc = curl_multi_add_handle(c->multi, c->easy);
	if (mc != CURLM_OK)
		return ch_error_set(err, CH_ERR_INTERNAL, "curl_multi_add_handle: %s", curl_multi_strerror(mc));
	c->attached = true;
	c->busy = true;
	c->requests++;
	return CH_OK;
}

static ch_status
errbody_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	(void) err;
	return ch_buf_append((ch_buf *) ctx, data, len);
}

static ch_status
finish_transfer(ch_http_conn *c, CURLcode rc, ch_error *err)
{
	long		nconn = 0;

	curl_easy_getinfo(c->easy, CURLINFO_NUM_CONNECTS, &nconn);
	c->connects += nconn;
	if (c->status == 0)
		curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &c->status);
	detach(c);

	if (c->sink_failed)
	{
		if (err)
			*err = c->sink_err;
		return c->sink_err.code != CH_OK ? c->sink_err.code : CH_ERR_INTERNAL;
	}
	if (c->errbody_cut && rc == CURLE_WRITE_ERROR)
		rc = CURLE_OK;			/* we stopped it: report the error text */
	if (rc != CURLE_OK)
	{
		ch_status	code;
		const char *detail = c->curl_errbuf[0] ? c->curl_errbuf : curl_easy_strerror(rc);

		/* body_seek_cb refused libcurl's own resend of an INSERT */
		if (rc == CURLE_SEND_FAIL_REWIND)
			detail = "the connection closed before the answer arrived.";

		switch (rc)
		{
			case CURLE_COULDNT_CONNECT:
			case CURLE_COULDNT_RESOLVE_HOST:
				code = CH_ERR_CONNECT;
				break;
			case CURLE_OPERATION_TIMEDOUT:
				code = CH_ERR_TIMEOUT;
				break;
			default:
				code = CH_ERR_NETWORK;
				break;
		}
		if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CONNECT_ERROR ||
			rc == CURLE_SSL_CACERT_BADFILE || rc == CURLE_SSL_CERTPROBLEM)
		{
			ch_error_set(err, CH_ERR_CONNECT, "TLS connection to ClickHouse at %s failed",
						 c->base_url);
			if (err)
				snprintf(err->detail, sizeof(err->detail), "%s", detail);
			return CH_ERR_CONNECT;
		}
		if (c->status == 200 && code == CH_ERR_NETWORK)
			ch_error_set(err, code, "connection to ClickHouse at %s broken during the response",
						 c->base_url);
		else if (code == CH_ERR_CONNECT)
			ch_error_set(err, code, "could not connect to ClickHouse at %s", c->base_url);
		else if (code == CH_ERR_TIMEOUT)
			ch_error_set(err, code, "timed out talking to ClickHouse at %s", c->base_url);
		else
			ch_error_set(err, code, "could not talk to ClickHouse at %s", c->base_url);
		if (err)
		{
			err->http_status = (int) c->status;
			snprintf(err->detail, sizeof(err->detail), "%s", detail);
		}
		return code;
	}
	if (c->status == 200 && c->framed)
	{
		ch_status	st = ch_decompressor_finish(c->decomp, err);

		if (st != CH_OK)
			return st;
	}
	if (c->status != 200 && c->framed && c->errbody.len >= 25 &&
		memcmp(c->errbody.data, "Code", 4) != 0)
	{
		/* newer servers send the error text in compressed frames too */
		ch_buf		plain;
		ch_error	e2;

		ch_buf_init(&plain, c->a);
		ch_decompressor_reset(c->decomp);
		if (ch_decompressor_feed(c->decomp, c->errbody.data, c->errbody.len,
								 errbody_sink, &plain, &e2) == CH_OK &&
			ch_decompressor_finish(c->decomp, &e2) == CH_OK)
		{
			ch_buf		t = c->errbody;

			c->errbody = plain;
			plain = t;
		}
		ch_buf_free(&plain);
	}
	if (c->status != 200)
	{
		size_t		n = c->errbody.len;
		const char *t = (const char *) c->errbody.data;

		while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == '\r' || t[n - 1] == ' '))
			n--;
		ch_error_set(err, CH_ERR_SERVER, "%.*s", (int) n, n ? t : "");
		if (err)
		{
			err->http_status = (int) c->status;
			err->server_code = c->exception_code ? c->exception_code :
				ch_parse_exception_code(t ? t : "", n);
			if (n == 0)
				snprintf(err->message, sizeof(err->message),
						 "ClickHouse answered HTTP %ld with no message", c->status);
			if (c->errbody_cut)
				snprintf(err->detail, sizeof(err->detail),
						 "The server's error text is longer than %d bytes; the rest was not read.",
						 MAX_ERROR_BODY);
		}
		return CH_ERR_SERVER;
	}
	return CH_OK;
}

/* The step's budget is spent: come back at once (no socket to wait for). */
static ch_status
yield(ch_wait *wait)
{
	wait->nsockets = 0;
	wait->timeout_ms = 0;
	return CH_NEED_MORE;
}

ch_status
ch_http_step(ch_http_conn *c, ch_wait *wait, ch_error *err)
{
	int			running = 0;
	CURLMsg    *msg;
	int			left;
	int			i;

	if (!c->busy)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "no request in progress");

	c->step_out = 0;
	if (c->pending.len > 0)
	{
		size_t		used = 0;
		ch_status	st = feed_frames(c, c->pending.data, c->pending.len, &used);

		if (st != CH_OK)
		{
			/* the transfer cannot go on: close it like an abort */
			if (err)
				*err = c->sink_err;
			if (c->sink_err.code == CH_OK)
				ch_error_set(err, st, "%s", ch_status_text(st));
			ch_http_abort(c);
			return st;
		}
		ch_buf_drop_front(&c->pending, used);
		if (c->pending.len > 0)
			return yield(wait);
	}
	if (c->done)
	{
		c->done = false;
		return finish_transfer(c, c->done_rc, err);
	}
	if (c->paused)
	{
		/* libcurl hands over what it kept (the callback may pause again) */
		c->paused = false;
		curl_easy_pause(c->easy, CURLPAUSE_CONT);
	}

	/* let libcurl act on its timer and on every socket that is ready */
	if (c->nsocks == 0 || (c->timer_set && ms_until(&c->timer_deadline) == 0))
	{
		c->timer_set = false;
		curl_multi_socket_action(c->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	{
		tracked_socket snap[CH_WAIT_MAX_SOCKETS];
		struct pollfd pfd[CH_WAIT_MAX_SOCKETS];
		int			n = c->nsocks;

		/* the callbacks may change c->socks while we act on them */
		memcpy(snap, c->socks, sizeof(tracked_socket) * n);

		/*
		 * Tell libcurl only what is true: a connecting socket reported
		 * writable before it is makes libcurl 7.88 drop its connect-timeout
		 * timer now and then, and a connect that hangs then waited with no
		 * timeout at all (test/contract/hosts.c,
		 * hosts_single_host_connect_timeout).
		 */
		for (i = 0; i < n; i++)
		{
			pfd[i].fd = snap[i].fd;
			pfd[i].events = (short) (((snap[i].what & CURL_POLL_IN) ? POLLIN : 0) |
									 ((snap[i].what & CURL_POLL_OUT) ? POLLOUT : 0));
			pfd[i].revents = 0;
		}
		(void) poll(pfd, (nfds_t) n, 0);
		for (i = 0; i < n; i++)
		{
			int			ev = 0;

			if (pfd[i].revents & (POLLIN | POLLHUP))
				ev |= CURL_CSELECT_IN;
			if (pfd[i].revents & POLLOUT)
				ev |= CURL_CSELECT_OUT;
			if (pfd[i].revents & (POLLERR | POLLNVAL))
				ev |= CURL_CSELECT_ERR;
			if (ev)
				curl_multi_socket_action(c->multi, snap[i].fd, ev, &running);
		}
	}
	while ((msg = curl_multi_info_read(c->multi, &left)) != NULL)
	{
		if (msg->msg == CURLMSG_DONE && msg->easy_handle == c->easy)
		{
			if (c->pending.len > 0)
			{
				/* decode the rest within later steps' budgets first */
				c->done = true;
				c->done_rc = msg->data.result;
				return yield(wait);
			}
			return finish_transfer(c, msg->data.result, err);
		}
	}
	if (c->paused || c->pending.len > 0)
		return yield(wait);

	wait->nsockets = 0;
	for (i = 0; i < c->nsocks && i < CH_WAIT_MAX_SOCKETS; i++)
	{
		wait->fd[i] = (int) c->socks[i].fd;
		wait->want_read[i] = (c->socks[i].what & CURL_POLL_IN) != 0;
		wait->want_write[i] = (c->socks[i].what & CURL_POLL_OUT) != 0;
		wait->nsockets++;
	}
	wait->timeout_ms = c->timer_set ? ms_until(&c->timer_deadline) : -1;
	if (wait->nsockets == 0 && wait->timeout_ms < 0)
		wait->timeout_ms = 10;	/* nothing to watch yet: poll again soon */
	return CH_NEED_MORE;
}
