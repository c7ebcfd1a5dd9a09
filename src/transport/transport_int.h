/*-------------------------------------------------------------------------
 * transport_int.h
 *	  Private to src/transport: the ch_conn object shared by the HTTP
 *	  (http.c) and native (tcp.c) implementations of ch_transport.h, and
 *	  their operation tables.
 *
 * transport.c owns ch_conn (config copy, caps, stats, counters) and
 * dispatches every public call to the implementation's ops; it also does
 * the checks common to both (one request at a time, lazy connect).
 *
 * src/transport/transport_int.h
 *-------------------------------------------------------------------------
 */
#ifndef TRANSPORT_INT_H
#define TRANSPORT_INT_H

#include "ch_transport.h"

#include <time.h>

typedef enum conn_phase
{
	PH_IDLE,					/* nothing running */
	PH_CONNECT,					/* ch_conn_begin_connect */
	PH_QUERY,					/* a query: pull or push */
	PH_INSERT_START,			/* waiting for the insert's schema */
	PH_INSERT_READY,			/* blocks may be written */
	PH_INSERT_FINISH,			/* waiting for the insert's answer */
	PH_PING
} conn_phase;

typedef struct conn_ops
{
	/* start the phase c->phase for the request in c->req (copied) */
	ch_status	(*begin) (ch_conn *c, ch_error *err);
	/* pull: see ch_conn_next_block */
	ch_status	(*next_block) (ch_conn *c, const ch_block **out, ch_block_kind *kind,
							   ch_wait *wait, ch_error *err);
	/* everything but pulling */
	ch_status	(*step) (ch_conn *c, ch_wait *wait, ch_error *err);
	ch_status	(*insert_block) (ch_conn *c, const uint8_t *native, size_t len,
								 uint64_t nrows, ch_error *err);
	ch_status	(*insert_finish) (ch_conn *c, ch_error *err);
	const ch_block *(*insert_schema) (const ch_conn *c);
	ch_status	(*cancel) (ch_conn *c, long timeout_ms, ch_error *err);
	void		(*abort) (ch_conn *c);	/* close the connection */
	bool		(*connected) (const ch_conn *c);
	void		(*destroy) (ch_conn *c);
	/*
	 * c->endpoint changed (hosts.c): drop the connection so that the next
	 * connect goes there; keep the request's buffered state (an HTTP
	 * insert's body)
	 */
	ch_status	(*retarget) (ch_conn *c, ch_error *err);
} conn_ops;

/* a request's parameters, copied into the connection's arena */
typedef struct conn_request
{
	char	   *sql;
	size_t		sql_len;
	bool		format_in_sql;
	char	   *database;
	ch_setting *settings;
	int			nsettings;
	ch_setting *params;
	int			nparams;
	ch_compression compression;
	int			zstd_level;
	ch_block_fn on_block;
	void	   *on_block_ctx;
	ch_sink_fn	raw_sink;
	void	   *raw_sink_ctx;
	bool		want_totals_extremes;
	ch_native_limits limits;
	bool		insert;
	bool		insert_rowbinary;
	ch_external_table *external;
	int			nexternal;
} conn_request;

struct ch_conn
{
	const conn_ops *ops;
	const ch_allocator *a;
	ch_arena	cfg_arena;		/* the config's strings */
	ch_conn_config cfg;
	ch_endpoint endpoint;
	ch_native_limits limits;	/* cfg.limits points here (or defaults) */
	ch_arena	req_arena;		/* the request's copies; reset per request */
	conn_request req;
	conn_phase	phase;
	conn_phase	after_connect;	/* the phase a lazy connect leads to */
	ch_caps		caps;
	ch_server_info info;
	ch_request_stats stats;
	char		query_id[128];
	uint64_t	requests;
	uint64_t	connects;
	uint64_t	t0_ns;			/* request start (ch_conn_now_ns) */
	void	   *impl;			/* http.c / tcp.c state */
	/* hosts.c: the host list and where this connection is in it */
	ch_endpoint hosts[CH_MAX_HOSTS];	/* copies of cfg's endpoints */
	int			nhosts;
	int			cur;			/* hosts[cur] is c->endpoint */
	uint32_t	tried;			/* bit i: hosts[i] failed in this request */
	uint64_t	failovers;
	uint64_t	insert_rows;	/* rows handed to the running insert */
	char		host_errors[900];	/* "host:port: message; ..." of this
									 * request's failed hosts */
};

/* ---- hosts.c ---- */

/* copy cfg's endpoints into c (strings in cfg_arena) and pick the first */
ch_status	ch_hosts_init(ch_conn *c, const ch_conn_config *cfg, ch_error *err);
/* a request begins: no host has failed it yet */
void		ch_hosts_new_request(ch_conn *c);
/* a connect is about to start: choose the host (load balancing, down hosts) */
ch_status	ch_hosts_before_connect(ch_conn *c, ch_error *err);
/* a connect worked: the host is up */
void		ch_hosts_succeeded(ch_conn *c);
/*
 * The request failed with st in phase `was`. True when it may go on with
 * another host (c->endpoint switched, ops->retarget called); else false,
 * and err may have been rewritten (every host failed; what an insert may
 * have written).
 */
bool		ch_hosts_failed(ch_conn *c, conn_phase was, ch_status st, ch_error *err);

/* constructors of the implementations: fill c->ops and c->impl */
ch_status	ch_http_transport_init(ch_conn *c, ch_error *err);
ch_status	ch_tcp_transport_init(ch_conn *c, ch_error *err);
bool		ch_tcp_peer_gone(const ch_conn *c);

/* the request's phase ended: stop the clock, go idle */
void		ch_conn_request_done(ch_conn *c);

/*
 * Query parameter value text escaped as ClickHouse's "escaped" (TSV) format
 * reads it (\\ \t \n \0), then, when quote, as a quoted SQL string
 * literal (the TCP encoding, src/Core/Settings / ch-go's proto); appended
 * to out, NUL-terminated.
 */
ch_status	ch_escape_param(ch_buf *out, const char *value, bool quote);

/* monotonic nanoseconds */
uint64_t	ch_conn_now_ns(void);

/* the query id to send: the caller's, or "" */
static inline const char *
conn_query_id(const ch_conn *c)
{
	return c->query_id;
}

#endif							/* TRANSPORT_INT_H */
