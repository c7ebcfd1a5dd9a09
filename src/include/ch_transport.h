/*-------------------------------------------------------------------------
 * ch_transport.h
 *	  One connection and request API for both ways of talking to ClickHouse:
 *	  HTTP (src/transport/http.c, over ch_http.c and libcurl) and the native
 *	  TCP protocol (src/transport/tcp.c, over the packet codec ch_tcp_proto.h).
 *
 * Model. A ch_conn is one logical connection to one server, which may be
 * reachable at several hosts (ch_conn_config.endpoints: replicas of one
 * shard, or nodes behind which a Distributed table answers the same; see
 * "Hosts and failover" below and src/transport/hosts.c). It runs one
 * request at a time: a query, an insert, a ping. Everything is
 * non-blocking, as ch_http.h: a function that would have to wait returns
 * CH_NEED_MORE with a ch_wait naming the sockets and the timeout; the
 * caller waits however it likes (the FDW: WaitEventSet with
 * CHECK_FOR_INTERRUPTS) and calls the same function again. Nothing here
 * sleeps, blocks on a socket or longjmps (exception: DNS resolution in
 * ch_conn_begin_connect, which uses getaddrinfo). ch_conn_run_blocking is a
 * poll() loop for tests and tools.
 *
 * Connecting is lazy: a request begun on a connection that is not
 * connected (never, or broken by an error or ch_conn_abort) connects first,
 * within the same steps. So a cached connection whose server restarted
 * reconnects on its next request (the request that saw the break fails).
 *
 * Results. A query's result is a stream of Native blocks, pulled with
 * ch_conn_next_block (one block per call, valid until the next call; the
 * first block of a SELECT is the 0-row header block) or pushed to a
 * block sink (ch_query.on_block) by ch_conn_step. Totals and Extremes
 * blocks are dropped unless ch_query.want_totals_extremes; Log and
 * ProfileEvents blocks are decoded and dropped (TCP).
 *
 * Errors. Every function returns a ch_status; details go to a caller-owned
 * ch_error. A ClickHouse exception is CH_ERR_SERVER with, on both
 * transports alike: err->server_code (e.g. 60), err->server_name (the
 * exception class, e.g. "DB::Exception") and err->message (ClickHouse's
 * message alone, without "Code: NNN" and the class name, e.g. "Table
 * default.x doesn't exist."). After a server exception the connection stays
 * usable; after any other error it is closed (and reconnects on the next
 * request).
 *
 * Capabilities. ch_conn_caps says what the server can do, derived once per
 * connection from its version (and, over TCP, the negotiated revision), so
 * that callers never compare version numbers themselves.
 *
 * src/include/ch_transport.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_TRANSPORT_H
#define CH_TRANSPORT_H

#include "ch_common.h"
#include "ch_compress.h"
#include "ch_wait.h"			/* ch_wait, ch_setting, ch_sink_fn */
#include "ch_native.h"

typedef enum ch_transport_kind
{
	CH_TRANSPORT_HTTP,			/* port 8123, https 8443 */
	CH_TRANSPORT_NATIVE			/* port 9000, TLS 9440 */
} ch_transport_kind;

typedef struct ch_endpoint
{
	const char *host;
	int			port;
} ch_endpoint;

/*
 * Hosts and failover (src/transport/hosts.c). With several endpoints a
 * connection picks one when it connects (load_balancing), keeps it until it
 * fails, and then:
 *  - a host that refuses, times out (connect_timeout_ms) or breaks is
 *    marked down for CH_HOST_DOWN_MS in this process; down hosts are tried
 *    last (still tried when every host is down);
 *  - a request whose connect fails goes on with the next host within the
 *    same call sequence (the caller sees only CH_NEED_MORE);
 *  - a query whose connection breaks before its first row was handed out
 *    is re-sent to the next host when it only reads (its SQL starts with
 *    SELECT, WITH, SHOW, DESCRIBE, DESC, EXISTS or "("), or when nothing of
 *    it was sent (HTTP: libcurl could not connect); the caller may then see
 *    a second 0-row header block (native). After a row it is an error,
 *    never a partial or repeated result;
 *  - an insert is re-sent only where that cannot write it twice: the
 *    connection failed before any of its data was sent (the connect, the
 *    native INSERT before its sample block, an HTTP POST that could not
 *    connect: the buffered body goes to the next host). Once data may have
 *    reached a server the error names that host and the rows sent (the
 *    server may have written some, all or none of them); deduplication
 *    tokens do not make the transport re-send (a caller that set one may);
 *  - when every host failed the error names each host and its failure.
 * One endpoint behaves as before this existed (no rewriting of errors).
 */
#define CH_MAX_HOSTS 16
#define CH_HOST_DOWN_MS 30000	/* how long a failed host is tried last */

typedef enum ch_load_balancing
{
	CH_LB_IN_ORDER,				/* the first host that is up (default) */
	CH_LB_RANDOM,				/* hosts in a random order, per connect */
	CH_LB_ROUND_ROBIN			/* each new connect of this process to this
								 * host list starts one host further */
} ch_load_balancing;

/* One entry of a parsed host list (ch_host_list_parse). */
typedef struct ch_host_entry
{
	char		host[254];		/* without brackets */
	int			port;			/* the default port when none was written */
	bool		port_given;		/* "host:port" */
} ch_host_entry;

typedef struct ch_host_list
{
	int			n;
	ch_host_entry h[CH_MAX_HOSTS];
} ch_host_list;

/*
 * ch_host_list_parse
 *		Parse "ch1:9000, ch2, [::1]:8123, ::1": comma-separated entries, each
 *		a host name (letters, digits, '-', '_', '.'; not starting with '-' or
 *		'.'), an IPv4 address, a bare IPv6 address (no port) or a bracketed
 *		one, optionally followed by ":port" (1-65535). Spaces around entries
 *		are ignored. Entries without a port get default_port. At most
 *		CH_MAX_HOSTS entries of at most 253 bytes. CH_ERR_INVALID_ARGUMENT
 *		with err->message naming the entry otherwise (an empty list, an
 *		empty entry, a path, a user, a bad port). No allocation.
 */
ch_status	ch_host_list_parse(const char *text, int default_port, ch_host_list *out,
							   ch_error *err);

/*
 * ch_host_is_loopback: "localhost", 127.0.0.0/8, ::1 or ::ffff:127.x.y.z as
 * written (names are not resolved). ch_hosts_all_loopback: every endpoint
 * is (false for none). The FDW's compression 'auto' sends uncompressed to
 * such hosts: compressing costs more CPU than the bytes it saves there.
 */
bool		ch_host_is_loopback(const char *host);
bool		ch_hosts_all_loopback(const ch_endpoint *eps, int n);

/* "in_order" / "random" / "round_robin"; false for anything else. */
bool		ch_load_balancing_parse(const char *text, ch_load_balancing *out);
const char *ch_load_balancing_name(ch_load_balancing lb);

/*
 * ch_hosts_forget
 *		Forget which hosts this process marked down and the round-robin
 *		positions (tests).
 */
void		ch_hosts_forget(void);

/* Whether this process has host:port marked down now. */
bool		ch_host_marked_down(const char *host, int port);

typedef struct ch_conn_config
{
	ch_transport_kind kind;
	const ch_endpoint *endpoints;	/* at least one, at most CH_MAX_HOSTS */
	int			nendpoints;
	ch_load_balancing load_balancing;	/* with several endpoints */
	bool		secure;			/* HTTPS / TLS (native: not implemented yet,
								 * CH_ERR_UNSUPPORTED) */
	const char *ca_file;		/* NULL: system CAs */
	const char *user;			/* NULL or "": "default" over TCP, no header
								 * over HTTP */
	const char *password;
	const char *database;		/* default for requests; NULL: server's */
	long		connect_timeout_ms; /* 0: 10 s */
	long		receive_timeout_ms; /* 0: none; else a request fails when no
									 * byte arrives for this long */
	const char *client_name;	/* native Hello/ClientInfo; NULL:
								 * "clickhouse_fdw" */
	uint32_t	tcp_revision;	/* native: revision to announce; 0:
								 * CH_TCP_REVISION (ch_tcp_proto.h) */
	const char *proxy;			/* HTTP: NULL or "": no proxy at all (the
								 * environment's http_proxy ... ignored);
								 * else the proxy URL. Native: ignored */
	uint64_t	max_frame_bytes;	/* decompressed size limit of one
									 * compressed response frame; 0:
									 * CH_FRAME_MAX_DECOMPRESSED */
	const ch_native_limits *limits; /* native: the limits of every result
									 * on the connection (copied; a frame
									 * is at most max_block_bytes); NULL:
									 * defaults. HTTP: ch_query.limits */
} ch_conn_config;

/* How a response (or an insert's body) travels compressed. */
typedef enum ch_compression
{
	CH_COMPRESSION_NONE,
	CH_COMPRESSION_LZ4,			/* ClickHouse frames, LZ4 */
	CH_COMPRESSION_ZSTD,		/* ClickHouse frames, ZSTD (native responses:
								 * network_compression_method=ZSTD) */
	CH_COMPRESSION_GZIP,		/* HTTP Content-Encoding gzip (HTTP only) */
	CH_COMPRESSION_AUTO			/* caps.response_compression */
} ch_compression;

/*
 * What the server can do. Filled from the server's version (and TCP
 * revision) when the connection is made; see ch_caps_from_version for the
 * exact rules.
 */
typedef struct ch_caps
{
	bool		known;			/* false until the first connect finished */
	int			version_major;	/* e.g. 18, 16, 1 */
	int			version_minor;
	int			version_patch;
	uint32_t	revision;		/* negotiated TCP revision; 0 over HTTP */
	ch_compression response_compression;	/* the cheapest good choice for
											 * responses: LZ4 frames (TCP
											 * always, HTTP from 19.1),
											 * else NONE (gzip only when
											 * asked for) */
	bool		response_frames;	/* responses may be ClickHouse frames */
	bool		date32;			/* Date32 type, toDate32 (21.9) */
	bool		datetime64;		/* DateTime64, toDateTime64 (20.1) */
	bool		dedup_token;	/* insert_deduplication_token (22.2) */
	bool		json_output;	/* toJSONString() (22.1) */
	bool		multiple_joins; /* several JOINs in one SELECT (19.4) */
	bool		lightweight_delete; /* DELETE FROM without an experimental
								 * setting (23.3) */
	bool		query_parameters;	/* {name:Type} parameters (HTTP 19.11;
									 * TCP revision 54459) */
	bool		low_cardinality;	/* LowCardinality in results (TCP:
									 * revision 54405) */
	bool		custom_serialization;	/* TCP blocks carry the per-column
										 * flag (revision 54454) */
	bool		window_functions;	/* OVER (...), lagInFrame, nth_value
									 * without an experimental setting
									 * (21.9) */
	bool		grouping_sets;	/* GROUP BY GROUPING SETS with the settings
								 * group_by_use_nulls and
								 * force_grouping_standard_compatibility
								 * (22.9) */
	bool		union_supertype;	/* every member of a UNION ALL computed in
									 * the union's common column types
									 * (22.1; src/fdw/subquery.c) */
	bool		lc_values;		/* aggregates, DISTINCT and grouping of
								 * LowCardinality(Nullable) columns compute
								 * with their values (not 18.16: src/fdw/lowcard.c) */
	bool		correlated_subqueries;	/* correlated scalar subqueries without
										 * a setting (25.8; src/fdw/subquery.c) */
	/* ClickHouse functions the extension declares (src/fdw/chfuncs.c) */
	bool		group_bitmap;	/* groupBitmap() (19.3) */
	bool		start_of_interval;	/* toStartOfInterval() (19.3) */
	bool		string_pad;		/* leftPadUTF8, rightPadUTF8, repeat (21.8) */
	bool		initcap;		/* initcap() (23.7) */
	/* (numagg) exact sums of numeric columns (src/fdw/agg_numeric.c) */
	bool		decimal256;		/* Decimal256 and toDecimal256 without an
								 * experimental setting (22.1) */
	/* (regr) arrayFold((acc, x) -> ..., arr, init) (23.10; src/fdw/agg_regr.c) */
	bool		array_fold;
} ch_caps;

/*
 * ch_caps_from_version
 *		Fill caps from a version and a negotiated TCP revision (0 for HTTP).
 *		The one place where version numbers turn into features.
 */
void		ch_caps_from_version(ch_caps *caps, ch_transport_kind kind, int major,
								 int minor, int patch, uint32_t revision);

typedef struct ch_server_info
{
	char		name[64];		/* "ClickHouse" (TCP hello); "" over HTTP */
	char		display_name[128];	/* TCP hello; "" over HTTP */
	char		timezone[64];	/* TCP hello; "" over HTTP */
	uint32_t	server_revision;	/* the server's own TCP revision; 0 over
									 * HTTP */
	char		version[64];	/* "18.16.1" */
} ch_server_info;

/*
 * Per-request counters, reset when a request begins. What the server says
 * (TCP Progress and ProfileInfo packets; HTTP's X-ClickHouse-Summary
 * header, which 18.16 does not send), and what this client saw.
 */
typedef struct ch_request_stats
{
	uint64_t	read_rows;		/* rows the server read (Progress) */
	uint64_t	read_bytes;
	uint64_t	total_rows_to_read; /* the server's estimate (Progress) */
	uint64_t	written_rows;	/* rows the server wrote (Progress,
								 * revision 54420; HTTP summary) */
	uint64_t	written_bytes;
	uint64_t	server_elapsed_ns;	/* Progress elapsed (revision 54460), 0 if
									 * unknown */
	uint64_t	result_rows;	/* ProfileInfo rows (TCP) */
	uint64_t	result_bytes;	/* ProfileInfo bytes (TCP) */
	bool		have_server_counters;	/* any of the above came from the
										 * server */
	uint64_t	rows_received;	/* rows in the blocks handed to the caller */
	uint64_t	blocks_received;
	uint64_t	bytes_received; /* bytes off the wire (compressed) */
	uint64_t	bytes_sent;		/* bytes onto the wire (request bodies) */
	uint64_t	elapsed_ns;		/* local wall time from begin to end */
} ch_request_stats;

typedef enum ch_block_kind
{
	CH_BLOCK_DATA,
	CH_BLOCK_TOTALS,
	CH_BLOCK_EXTREMES
} ch_block_kind;

/*
 * Receives a result block during ch_conn_step. The block is valid during
 * the call only. A non-CH_OK status aborts the request (the connection is
 * closed) and is returned by ch_conn_step.
 */
typedef ch_status (*ch_block_fn) (void *ctx, const ch_block *block, ch_block_kind kind,
								  ch_error *err);

/*
 * A temporary table sent with a query (TCP: Data packets named after it
 * before the end of external tables; wire notes 4.7), e.g. for
 * "x IN _ids" or a join with local rows. Its rows are one Native block in
 * the HTTP layout (ch_writer_flush), copied. HTTP would need a multipart
 * body, which ch_http.c cannot send yet: CH_ERR_UNSUPPORTED there.
 */
typedef struct ch_external_table
{
	const char *name;
	const uint8_t *native;
	size_t		len;
} ch_external_table;

typedef struct ch_query
{
	const char *sql;			/* no FORMAT clause: the transport asks for
								 * Native (HTTP appends " FORMAT Native"
								 * unless format_in_sql) */
	size_t		sql_len;		/* 0: strlen(sql) */
	bool		format_in_sql;	/* HTTP: the sql already ends in FORMAT
								 * Native (or has no result) */
	const char *database;		/* NULL: the config's */
	const char *query_id;		/* NULL or "": the server makes one (HTTP) /
								 * none (TCP); else sent, for KILL QUERY */
	const ch_setting *settings; /* copied; e.g. insert_deduplication_token */
	int			nsettings;
	const ch_setting *params;	/* query parameters {name:Type}: name and the
								 * value's text (as in HTTP param_name; "\\N"
								 * is NULL); the transport escapes it for the
								 * wire. CH_ERR_UNSUPPORTED unless
								 * caps.query_parameters */
	int			nparams;
	ch_compression compression; /* of the response */
	int			zstd_level;		/* of an insert body; 0: default */
	const ch_external_table *external;	/* query only (native) */
	int			nexternal;
	bool		insert_rowbinary;	/* insert: the blocks are RowBinary rows
									 * (HTTP only: FORMAT RowBinary; native
									 * inserts are Native blocks, so
									 * CH_ERR_UNSUPPORTED there) */
	ch_sink_fn	raw_sink;		/* HTTP only: the response body as it comes,
								 * in the format the SQL names (no FORMAT
								 * is added; format_in_sql is implied), and
								 * no blocks; native: CH_ERR_UNSUPPORTED */
	void	   *raw_sink_ctx;
	ch_block_fn on_block;		/* NULL: pull with ch_conn_next_block */
	void	   *on_block_ctx;
	bool		want_totals_extremes;	/* else dropped */
	const ch_native_limits *limits; /* NULL: defaults */
} ch_query;

typedef struct ch_conn ch_conn;

/* ---- lifecycle ---- */

/*
 * ch_conn_create
 *		A connection object; no network traffic yet. cfg's strings are
 *		copied. NULL with err filled on failure (bad config, no memory).
 */
ch_conn    *ch_conn_create(const ch_allocator *a, const ch_conn_config *cfg, ch_error *err);

/* Close the sockets and free everything. NULL is allowed. */
void		ch_conn_destroy(ch_conn *c);

/*
 * ch_conn_begin_connect
 *		Start connecting (TCP: socket, Hello, ServerHello, Addendum; HTTP: a
 *		"SELECT version()" probe). Step with ch_conn_step until CH_OK. On a
 *		connected idle connection it returns CH_OK at once without I/O. Any
 *		other request connects by itself first; this one is for callers that
 *		want the caps before their first query.
 */
ch_status	ch_conn_begin_connect(ch_conn *c, ch_error *err);

/* ---- requests ---- */

/*
 * ch_conn_begin_query
 *		Start a query (connecting first when needed). q's strings and
 *		settings are copied. Then: ch_conn_next_block (pull) or, when
 *		q->on_block is set, ch_conn_step (push) until the end.
 *		CH_ERR_INVALID_ARGUMENT when a request is already running.
 */
ch_status	ch_conn_begin_query(ch_conn *c, const ch_query *q, ch_error *err);

/*
 * ch_conn_next_block
 *		The pull side of a query (the one result pump: it never waits).
 *	CH_OK		 *out is the next block (*kind says which; 0-row blocks
 *				 included: the first one is the header), valid until the
 *				 next call on c;
 *	CH_NEED_MORE wait on *wait, then call again;
 *	CH_END		 the result is complete; the connection is idle;
 *	an error	 the request failed (see the file header).
 */
ch_status	ch_conn_next_block(ch_conn *c, const ch_block **out, ch_block_kind *kind,
							   ch_wait *wait, ch_error *err);

/*
 * ch_conn_step
 *		Advance whatever is running: connecting, a pushed query (blocks go
 *		to on_block), an insert (see below), a ping. Returns CH_NEED_MORE
 *		with *wait filled, CH_OK when the current phase is complete
 *		(connected; query finished; insert ready for blocks / output
 *		flushed / finished; pong received), or an error. For a pulled query
 *		use ch_conn_next_block instead.
 */
ch_status	ch_conn_step(ch_conn *c, ch_wait *wait, ch_error *err);

/*
 * Inserts: ch_conn_begin_insert, step until CH_OK (TCP: the server's sample
 * block arrived, ch_conn_insert_schema shows it; HTTP: at once), then
 * ch_conn_insert_block for every block with steps until CH_OK in between
 * (the output was flushed; HTTP only buffers), then ch_conn_insert_finish
 * and steps until CH_OK (the server acknowledged the insert) or an error.
 *
 * q->sql is "INSERT INTO db.t (a, b)" without FORMAT or VALUES; the
 * transport adds what it needs. q->compression is the body's (LZ4 / ZSTD
 * frames or NONE; AUTO = LZ4). Deduplication tokens are settings
 * (insert_deduplication_token) and work the same on both transports
 * (caps.dedup_token).
 */
ch_status	ch_conn_begin_insert(ch_conn *c, const ch_query *q, ch_error *err);

/* The insert's target columns as the server sent them (TCP), else NULL. */
const ch_block *ch_conn_insert_schema(const ch_conn *c);

/*
 * ch_conn_insert_block
 *		Queue one Native block in the HTTP layout (what ch_writer_flush
 *		produces: no BlockInfo), or RowBinary rows with insert_rowbinary
 *		(HTTP); the transport reframes a block for TCP (BlockInfo,
 *		per-column serialization flag) and compresses it. Copied. nrows 0 is
 *		ignored.
 */
ch_status	ch_conn_insert_block(ch_conn *c, const uint8_t *native, size_t len,
								 uint64_t nrows, ch_error *err);

/* No more blocks: TCP sends the empty block, HTTP sends the request. */
ch_status	ch_conn_insert_finish(ch_conn *c, ch_error *err);

/*
 * ch_conn_begin_ping
 *		Check that an idle connection still works (TCP Ping/Pong; HTTP
 *		"SELECT 1"). Step until CH_OK. Connects first when needed.
 */
ch_status	ch_conn_begin_ping(ch_conn *c, ch_error *err);

/*
 * ch_conn_cancel
 *		Ask the server to stop the running query. TCP: a Cancel packet; keep
 *		pulling (blocks still buffered are dropped) until CH_END, when the
 *		connection is idle and reusable (the server ends with EndOfStream or
 *		an exception that is swallowed). HTTP: there is no cancel on the
 *		same connection: this aborts (closes) it and sends KILL QUERY (see
 *		ch_conn_kill_query, bounded by timeout_ms); the next pull returns
 *		CH_END. No-op when idle.
 */
ch_status	ch_conn_cancel(ch_conn *c, long timeout_ms, ch_error *err);

/*
 * ch_conn_abort
 *		Drop the request in flight by closing the connection (the server
 *		cancels a query whose client went away). No-op when idle.
 */
void		ch_conn_abort(ch_conn *c);

/*
 * ch_conn_kill_query
 *		"KILL QUERY WHERE query_id = '...' ASYNC" on a new, short-lived
 *		connection of the same config, blocking (poll) for at most
 *		timeout_ms. For when a cancelled query keeps running. With several
 *		endpoints it goes where a new connection would go: use ch_conn_kill
 *		to reach the host that runs the query.
 */
ch_status	ch_conn_kill_query(const ch_allocator *a, const ch_conn_config *cfg,
							   const char *query_id, long timeout_ms, ch_error *err);

/*
 * ch_conn_kill
 *		ch_conn_kill_query for c's running (or last) query on the host that
 *		runs it (ch_conn_host), whatever the host list says.
 */
ch_status	ch_conn_kill(const ch_conn *c, long timeout_ms, ch_error *err);

/* ---- state ---- */

/*
 * The host this connection uses (connected) or will try next; valid while
 * c lives.
 */
const ch_endpoint *ch_conn_host(const ch_conn *c);
/* Times a request of this connection moved to another host after a failure. */
uint64_t	ch_conn_failover_count(const ch_conn *c);

bool		ch_conn_busy(const ch_conn *c);	/* a request is running */
bool		ch_conn_connected(const ch_conn *c);
/*
 * An idle native connection its server closed (or sent something unasked
 * on): closed here, so that the next request connects again. True if so.
 */
bool		ch_conn_drop_if_gone(ch_conn *c);
ch_transport_kind ch_conn_kind(const ch_conn *c);
/* Valid once connected (caps->known); zeroed before. */
const ch_caps *ch_conn_caps(const ch_conn *c);
const ch_server_info *ch_conn_server_info(const ch_conn *c);
/* Of the running (or last) request. */
const ch_request_stats *ch_conn_stats(const ch_conn *c);
/* The query id of the running (or last) request; "" if none was given. */
const char *ch_conn_query_id(const ch_conn *c);
/* Requests begun, and connections opened (TCP sockets / libcurl's). */
uint64_t	ch_conn_request_count(const ch_conn *c);
uint64_t	ch_conn_connect_count(const ch_conn *c);

/*
 * ch_conn_run_blocking
 *		Step (or, for a pulled query, pull and drop blocks) until the
 *		current phase ends, waiting with poll(); timeout_ms bounds the whole
 *		call (-1: none; then CH_ERR_TIMEOUT). For tests, tools and
 *		ch_conn_kill_query, never for the FDW.
 */
ch_status	ch_conn_run_blocking(ch_conn *c, long timeout_ms, ch_error *err);

/*
 * ch_transport_library_versions
 *		The libraries the transports run with, for a version banner:
 *		"libcurl 7.88.1".
 */
const char *ch_transport_library_versions(void);

/*
 * ch_exception_split
 *		Split ClickHouse's exception text as HTTP (and old TCP messages)
 *		carry it into err's fields: server_code, server_name, message.
 *		Understands 18.16's "Code: 60, e.displayText() = DB::Exception: msg,
 *		e.what() = DB::Exception" and the modern "Code: 60. DB::Exception:
 *		msg. (UNKNOWN_TABLE) (version ...)". Text it does not recognise
 *		becomes the message as is.
 */
void		ch_exception_split(const char *text, size_t len, ch_error *err);

#endif							/* CH_TRANSPORT_H */
