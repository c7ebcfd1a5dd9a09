/*-------------------------------------------------------------------------
 * ch_http.h
 *	  HTTP transport to ClickHouse over libcurl's multi ("socket") interface.
 *
 * Non-blocking by design: ch_http_begin starts a request and ch_http_step
 * advances it as far as it can without waiting, then says which sockets and
 * how long to wait for (ch_wait). The caller waits however it likes (the FDW
 * uses PostgreSQL's WaitEventSet with CHECK_FOR_INTERRUPTS) and calls
 * ch_http_step again. Response bytes are handed to the request's sink as they
 * arrive; they are never accumulated here.
 *
 * One ch_http_conn holds one easy handle and one multi handle, so the TCP
 * connection is kept alive and reused by the next request. Credentials go
 * in the X-ClickHouse-User / X-ClickHouse-Key headers, never in the URL.
 *
 * src/include/ch_http.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_HTTP_H
#define CH_HTTP_H

#include "ch_common.h"
#include "ch_wait.h"			/* ch_wait, ch_setting, ch_sink_fn */

typedef struct ch_http_config
{
	const char *host;
	int			port;
	bool		secure;			/* https */
	const char *ca_file;		/* NULL: system CAs */
	const char *user;			/* NULL or "": no user header */
	const char *password;		/* NULL or "": no key header */
	long		connect_timeout_ms; /* 0: libcurl's default */
	long		receive_timeout_ms; /* 0: none; else fail when no byte arrives for
									 * this long */
	const char *proxy;			/* NULL or "": no proxy at all (the
								 * http_proxy / HTTPS_PROXY / ALL_PROXY
								 * environment variables are ignored); else
								 * libcurl's proxy URL */
	uint64_t	max_frame_bytes;	/* decompressed_size limit of a compressed
									 * response frame; 0: CH_FRAME_MAX_DECOMPRESSED */
} ch_http_config;

typedef struct ch_http_request
{
	const char *database;		/* NULL: server default */
	const char *query_id;		/* NULL: none */
	const ch_setting *settings;
	int			nsettings;
	const char *sql;			/* sent as the POST body, unless body is set */
	size_t		sql_len;
	const uint8_t *body;		/* data for an INSERT: then sql goes in the URL's
								 * "query" parameter; not copied, must stay valid
								 * until the request ends */
	size_t		body_len;
	ch_sink_fn	sink;			/* NULL: response body discarded */
	void	   *sink_ctx;
	bool		body_framed;	/* body is ClickHouse compressed frames:
								 * adds decompress=1 */
	bool		response_framed;	/* ask for compressed frames (compress=1)
									 * and decompress them before the sink */
	bool		response_gzip;	/* ask for HTTP gzip content encoding
								 * (enable_http_compression=1); libcurl
								 * decodes it */
} ch_http_request;

/* Bytes one ch_http_step hands to the sink at most (see ch_http_step). */
#define CH_HTTP_STEP_BUDGET ((size_t) 4 << 20)

typedef struct ch_http_conn ch_http_conn;

/* Create a connection object (no network traffic yet). NULL on failure. */
ch_http_conn *ch_http_create(const ch_allocator *a, const ch_http_config *cfg,
							 ch_error *err);
void		ch_http_destroy(ch_http_conn *c);

/* Start a request. The request's strings are copied. */
ch_status	ch_http_begin(ch_http_conn *c, const ch_http_request *req, ch_error *err);

/*
 * Advance the request. Returns CH_NEED_MORE with *wait filled (wait for
 * any of its sockets or the timeout, then call again), CH_OK when the
 * response completed with HTTP 200, or an error (HTTP errors carry the
 * ClickHouse exception code and text). After CH_OK or an error the
 * connection is ready for the next ch_http_begin.
 *
 * Bounded work: one call hands at most about CH_HTTP_STEP_BUDGET bytes (plus
 * one compressed frame) to the sink, however fast they arrive or however
 * far a few compressed bytes expand; when the budget is spent it returns
 * CH_NEED_MORE with a zero timeout and no sockets, so the caller can check
 * for interrupts and consume what the sink got before calling again.
 */
ch_status	ch_http_step(ch_http_conn *c, ch_wait *wait, ch_error *err);

/* True between ch_http_begin and the step that finished the request. */
bool		ch_http_busy(const ch_http_conn *c);

/*
 * Abandon the request in flight (e.g. on cancel or error): its connection is
 * closed, so the server sees the client go away. No-op when idle.
 */
void		ch_http_abort(ch_http_conn *c);

/*
 * The X-ClickHouse-Summary header of the last response (JSON text such as
 * {"read_rows":"1",...}), or "" (18.16 does not send it).
 */
const char *ch_http_summary(const ch_http_conn *c);

/* The query id of the request in flight (or the last one); "" if none. */
const char *ch_http_query_id(const ch_http_conn *c);

/*
 * Ask the server to stop a query: a separate, blocking request
 * "KILL QUERY WHERE query_id = '...' ASYNC" on a new connection, bounded by
 * timeout_ms. For cancel and abort paths, where the connection of the query
 * itself has just been closed.
 */
ch_status	ch_http_kill_query(const ch_http_config *cfg, const char *query_id,
							   long timeout_ms, ch_error *err);

/* Requests completed on this object, and TCP connections it opened. */
uint64_t	ch_http_request_count(const ch_http_conn *c);
long		ch_http_connects(const ch_http_conn *c);

/* Percent-encode s into out (URL query component). */
ch_status	ch_url_escape(ch_buf *out, const char *s, size_t len);

/* Parse "Code: NNN" at the start of a ClickHouse error text; 0 if absent. */
int			ch_parse_exception_code(const char *text, size_t len);

/* "libcurl 7.88.1": the library this transport runs with. */
const char *ch_http_library_version(void);

/*
 * Parse the "MAJOR.MINOR" start of a version string ("24.3.1.5"): both
 * parts 1 to 9 digits, MINOR followed by '.' or the end. False otherwise.
 */
bool		ch_parse_version(const char *text, size_t len, int *major, int *minor);

#endif							/* CH_HTTP_H */
