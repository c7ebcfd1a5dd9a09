/*-------------------------------------------------------------------------
 * connection.c
 *	  Connection cache (a pool of transport connections per user mapping in
 *	  each backend), starting remote queries and inserts, the one result
 *	  pump (chfdw_next_block, chfdw_step) and the one wait (chfdw_wait)
 *	  inside PostgreSQL's wait loop. The transport (HTTP or native TCP) is
 *	  behind ch_transport.h; nothing here knows which one runs.
 *
 * Invariants:
 *	- A request in flight when a (sub)transaction aborts is abandoned at
 *	  abort time, so no transport callback can run into freed scan memory.
 *	- Waiting happens only in chfdw_wait, on PostgreSQL's latch and the
 *	  transport's sockets, with CHECK_FOR_INTERRUPTS after every wake-up.
 *	- A connection whose server or user mapping changed is rebuilt the next
 *	  time it is needed while idle.
 *
 * src/fdw/connection.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_user_mapping.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "chfdw.h"

static HTAB *ConnectionHash = NULL;
static uint64 query_counter = 0;

static void chfdw_xact_callback(XactEvent event, void *arg);
static void chfdw_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
								   SubTransactionId parentSubid, void *arg);
static void chfdw_inval_callback(Datum arg, int cacheid, uint32 hashvalue);

static void
copy_options(ChFdwServerOptions *dst, const ChFdwServerOptions *src)
{
	dst->host = MemoryContextStrdup(CacheMemoryContext, src->host);
	dst->port = src->port;
	dst->dbname = MemoryContextStrdup(CacheMemoryContext, src->dbname);
	dst->transport = src->transport;
	dst->user = MemoryContextStrdup(CacheMemoryContext, src->user);
	dst->password = MemoryContextStrdup(CacheMemoryContext, src->password);
	dst->server_settings = MemoryContextStrdup(CacheMemoryContext, src->server_settings);
	dst->user_settings = MemoryContextStrdup(CacheMemoryContext, src->user_settings);
	dst->connect_timeout = src->connect_timeout;
	dst->compression = src->compression;
	dst->secure = src->secure;
	dst->ca_file = src->ca_file ? MemoryContextStrdup(CacheMemoryContext, src->ca_file) : NULL;
	dst->compression_level = src->compression_level;
	dst->receive_timeout = src->receive_timeout;
	dst->host_set = src->host_set;
	dst->password_required = src->password_required;
	dst->hosts = src->hosts ? MemoryContextStrdup(CacheMemoryContext, src->hosts) : NULL;
	dst->load_balancing = src->load_balancing;
}

static void
free_options(ChFdwServerOptions *o)
{
	if (o->host)
		pfree(o->host);
	if (o->dbname)
		pfree(o->dbname);
	if (o->user)
		pfree(o->user);
	if (o->password)
	{
		explicit_bzero(o->password, strlen(o->password));
		pfree(o->password);
	}
	if (o->server_settings)
		pfree(o->server_settings);
	if (o->user_settings)
		pfree(o->user_settings);
	if (o->ca_file)
		pfree(o->ca_file);
	if (o->hosts)
		pfree(o->hosts);
	memset(o, 0, sizeof(*o));
}

static void
disconnect(ChFdwConn *entry)
{
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		ch_conn_destroy(entry->handles[i]);
	entry->nhandles = 0;
	free_options(&entry->opts);
}

static bool
any_busy(ChFdwConn *entry)
{
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		if (ch_conn_busy(entry->handles[i]))
			return true;
	return false;
}

static int
handle_index_quiet(ChFdwConn *entry, ch_conn *h)
{
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		if (entry->handles[i] == h)
			return i;
	return 0;
}

static int
handle_index(ChFdwConn *entry, ch_conn *h)
{
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		if (entry->handles[i] == h)
			return i;
	elog(ERROR, "ClickHouse request handle not in its pool");
	return 0;
}

/*
 * host_stats
 *		Points conn->stats at the clickhouse_fdw_stats entry of server x the
 *		host handle c uses now ("host:port" as clickhouse_fdw_connections
 *		shows it), looked up once per handle and host: every counter of a
 *		request goes to the host it ran on; one that failed over counts as
 *		a query (or insert) on each host it was sent to, and as a failover
 *		on the host that took it (account).
 */
static void
host_stats(ChFdwConn *conn, ch_conn *c)
{
	int			i = handle_index(conn, c);
	const ch_endpoint *ep = ch_conn_host(c);
	char		key[CHFDW_STATS_HOST_LEN];

	snprintf(key, sizeof(key), strchr(ep->host, ':') ? "[%s]:%d" : "%s:%d",
			 ep->host, ep->port);
	if (strcmp(key, conn->handle_stats_host[i]) != 0)
	{
		conn->handle_stats[i] = chfdw_stats_entry(conn->serverid, conn->servername, key);
		strlcpy(conn->handle_stats_host[i], key, sizeof(conn->handle_stats_host[i]));
	}
	conn->stats = conn->handle_stats[i];
}

/*
 * A native connection that sat idle this long is pinged before its next
 * request (the HTTP transport reconnects by itself after an idle second), so
 * a server restart or a dropped socket costs a reconnect, not the query.
 */
#define CHFDW_PING_IDLE_MS 1000

/* Ping an idle native connection; a failure closes it (it reconnects). */
static void
validate_idle(ChFdwConn *entry, int i)
{
	ch_conn    *h = entry->handles[i];
	ch_error	err;

	if (ch_conn_kind(h) != CH_TRANSPORT_NATIVE || !ch_conn_connected(h))
		return;
	/* closed by its server (one restarted within the second): reconnect, no ping */
	if (ch_conn_drop_if_gone(h))
		return;
	if (!TimestampDifferenceExceeds((TimestampTz) entry->idle_since[i], GetCurrentTimestamp(),
									CHFDW_PING_IDLE_MS))
		return;
	ch_error_clear(&err);
	/* an abort while it runs abandons it with what this subtransaction opened */
	entry->handle_subid[i] = GetCurrentSubTransactionId();
	if (ch_conn_begin_ping(h, &err) != CH_OK ||
		chfdw_step(entry, h, CHFDW_PING_IDLE_MS * 2, &err) != CH_OK)
		ch_conn_abort(h);
}

/*
 * Can an async scan start its query now? At most CHFDW_MAX_HANDLES -
 * CHFDW_RESERVED_HANDLES requests of the pool run at once for async
 * scans, so that the other requests of the query (an outer scan, a nested
 * scan, an insert) still find a handle; a scan that cannot start waits
 * for one of the others to finish (chfdwForeignAsyncConfigureWait).
 */
bool
chfdw_async_slot_free(ChFdwConn *conn)
{
	int			busy = 0;
	int			i;

	for (i = 0; i < conn->nhandles; i++)
		if (ch_conn_busy(conn->handles[i]))
			busy++;
	return busy < CHFDW_MAX_HANDLES - CHFDW_RESERVED_HANDLES;
}

/* An idle handle of the pool, created if needed. */
static ch_conn *
idle_handle(ChFdwConn *entry)
{
	ch_error	err;
	ch_conn    *h;
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		if (!ch_conn_busy(entry->handles[i]))
		{
			validate_idle(entry, i);
			return entry->handles[i];
		}
	if (entry->nhandles == CHFDW_MAX_HANDLES)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("too many concurrent ClickHouse requests in one query (at most %d per user mapping)",
						CHFDW_MAX_HANDLES)));
	ch_error_clear(&err);
	/* connections outlive transactions: plain malloc, freed on disconnect */
	h = ch_conn_create(NULL, &entry->cfg, &err);
	if (!h)
		chfdw_report(ERROR, err.code, &err, NULL, NULL);
	entry->handle_subid[entry->nhandles] = InvalidSubTransactionId;
	entry->bytes_seen[entry->nhandles] = 0;
	entry->failovers_seen[entry->nhandles] = 0;
	entry->idle_since[entry->nhandles] = GetCurrentTimestamp();
	entry->handle_stats[entry->nhandles] = NULL;
	entry->handle_kind[entry->nhandles] = 0;
	entry->handle_stats_host[entry->nhandles][0] = '\0';
	entry->handles[entry->nhandles++] = h;
	return h;
}

/*
 * What postgres_fdw's check_conn_params does for libpq, for ClickHouse: a
 * non-superuser must give a password in the user mapping (unless a
 * superuser set password_required 'false' on it), so a role cannot reach
 * ClickHouse as a password-less user such as a stock install's "default";
 * and a non-superuser's server must name its host, so a server without one
 * does not silently mean this machine's loopback. user->userid is the
 * role the query runs as (a view's owner for a view).
 */
static void
check_connect_rights(const ChFdwServerOptions *opts, UserMapping *user)
{
	if (superuser_arg(user->userid))
		return;
	if (opts->password_required && opts->password[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required"),
				 errdetail("Non-superusers must provide a password in the user mapping."),
				 errhint("Add the option \"password\" to the user mapping, or ask a superuser to set password_required 'false' on it.")));
	if (!opts->host_set)
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("the foreign server has no option \"host\""),
				 errdetail("Non-superusers may only connect through a server that names its host."),
				 errhint("Add the option \"host\" to the server (e.g. '127.0.0.1').")));
}

/*
 * The one ch_conn_config every handle of the pool is made from, out of the
 * server's and user mapping's options (entry->opts, in the cache's memory).
 */
static void
build_config(ChFdwConn *entry)
{
	ch_conn_config *cfg = &entry->cfg;

	memset(cfg, 0, sizeof(*cfg));
	cfg->kind = entry->opts.transport == CHFDW_TRANSPORT_NATIVE ? CH_TRANSPORT_NATIVE :
		CH_TRANSPORT_HTTP;
	/* every host of the option "host" (src/transport/hosts.c fails over) */
	cfg->nendpoints = chfdw_server_endpoints(&entry->opts, &entry->hosts, entry->endpoints);
	cfg->endpoints = entry->endpoints;
	/*
	 * compression 'auto' (the default): uncompressed when every host is this
	 * machine's loopback, where compressing costs more CPU on both sides than
	 * the bytes it saves (README "Benchmarks"), LZ4 frames otherwise.
	 */
	entry->compression_auto = entry->opts.compression == CHFDW_COMPRESSION_AUTO;
	if (entry->compression_auto)
		entry->opts.compression = ch_hosts_all_loopback(cfg->endpoints, cfg->nendpoints) ?
			CHFDW_COMPRESSION_NONE : CHFDW_COMPRESSION_LZ4;
	cfg->load_balancing = entry->opts.load_balancing;
	cfg->secure = entry->opts.secure;
	cfg->ca_file = entry->opts.ca_file;
	cfg->user = entry->opts.user;
	cfg->password = entry->opts.password;
	cfg->database = entry->opts.dbname;
	cfg->connect_timeout_ms = (long) entry->opts.connect_timeout * 1000;
	cfg->receive_timeout_ms = (long) entry->opts.receive_timeout * 1000;
	cfg->client_name = "clickhouse_fdw";
	cfg->proxy = entry->proxy;
	/* a compressed frame is never larger than the block limit */
	cfg->max_frame_bytes = entry->limits.max_block_bytes;
	cfg->limits = &entry->limits;
}

static void
make_connection(ChFdwConn *entry, UserMapping *user)
{
	ForeignServer *server = GetForeignServer(user->serverid);
	ChFdwServerOptions opts;

	chfdw_get_server_options(server, user, &opts);
	check_connect_rights(&opts, user);
	free_options(&entry->opts); /* an earlier failed attempt's copies */
	copy_options(&entry->opts, &opts);
	explicit_bzero(opts.password, strlen(opts.password));
	entry->limits = opts.limits;
	strlcpy(entry->proxy, opts.proxy ? opts.proxy : "", sizeof(entry->proxy));
	build_config(entry);
	entry->nhandles = 0;
	PG_TRY();
	{
		(void) idle_handle(entry);	/* fail early on bad settings */
	}
	PG_CATCH();
	{
		free_options(&entry->opts);
		PG_RE_THROW();
	}
	PG_END_TRY();
	entry->invalidated = false;
	/* counters per host in use (host_stats); none until a request */
	entry->stats = NULL;
	entry->serverid = server->serverid;
	strlcpy(entry->servername, server->servername, sizeof(entry->servername));
	entry->server_hashvalue =
		GetSysCacheHashValue1(FOREIGNSERVEROID, ObjectIdGetDatum(server->serverid));
	entry->mapping_hashvalue =
		GetSysCacheHashValue1(USERMAPPINGOID, ObjectIdGetDatum(user->umid));
}

/*
 * The cached connection for a user mapping, created on first use.
 */
ChFdwConn *
chfdw_get_connection(UserMapping *user)
{
	bool		found;
	ChFdwConn  *entry;

	if (ConnectionHash == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(ChFdwConn);
		ConnectionHash = hash_create("clickhouse_fdw connections", 8, &ctl,
									 HASH_ELEM | HASH_BLOBS);
		RegisterXactCallback(chfdw_xact_callback, NULL);
		RegisterSubXactCallback(chfdw_subxact_callback, NULL);
		CacheRegisterSyscacheCallback(FOREIGNSERVEROID, chfdw_inval_callback, (Datum) 0);
		CacheRegisterSyscacheCallback(USERMAPPINGOID, chfdw_inval_callback, (Datum) 0);
	}
	entry = hash_search(ConnectionHash, &user->umid, HASH_ENTER, &found);
	if (!found)
	{
		entry->nhandles = 0;
		memset(&entry->opts, 0, sizeof(entry->opts));
		entry->invalidated = false;
		entry->queries = 0;
		entry->made = false;
		entry->caps_known = false;
	}
	if (entry->made && entry->invalidated && !any_busy(entry))
	{
		disconnect(entry);
		entry->made = false;
		entry->caps_known = false;
	}
	if (!entry->made)
	{
		make_connection(entry, user);
		entry->made = true;
	}
	else
		check_connect_rights(&entry->opts, user);	/* the role may differ */
	return entry;
}

/*
 * How a response travels (the server option "compression"): ClickHouse's
 * compressed frames where the transport has them cheaply (native: always;
 * HTTP: servers with compress=1, else uncompressed: 18.16's is broken,
 * http.c); HTTP gzip only when asked for by name: it costs more CPU than a
 * local link saves (README, "Benchmarks").
 */
static ch_compression
response_compression(ChFdwConn *conn, int flags)
{
	if (!(flags & CHFDW_REQ_COMPRESS_RESPONSE))
		return CH_COMPRESSION_NONE;
	switch (conn->opts.compression)
	{
		case CHFDW_COMPRESSION_NONE:
			return CH_COMPRESSION_NONE;
		case CHFDW_COMPRESSION_GZIP:
			return conn->cfg.kind == CH_TRANSPORT_HTTP ? CH_COMPRESSION_GZIP :
				CH_COMPRESSION_LZ4;
		case CHFDW_COMPRESSION_ZSTD:
			return CH_COMPRESSION_ZSTD;
		default:
			return CH_COMPRESSION_LZ4;
	}
}

/* An insert body: frames (lz4, or zstd at compression_level) or plain. */
static ch_compression
body_compression(ChFdwConn *conn)
{
	switch (conn->opts.compression)
	{
		case CHFDW_COMPRESSION_NONE:
			return CH_COMPRESSION_NONE;
		case CHFDW_COMPRESSION_ZSTD:
			return CH_COMPRESSION_ZSTD;
		default:
			return CH_COMPRESSION_LZ4;
	}
}

/*
 * Start a request on an idle handle of the pool: the settings of every
 * request (the server's, the user mapping's, the GUC's, settings.c) with
 * extra ones last, a query id "chfdw-<pid>-<time>-<n>" for KILL QUERY,
 * the counters, and the subtransaction that owns it.
 */
static ch_conn *
begin(ChFdwConn *conn, ch_query *q, bool insert, const ch_setting *extra, int nextra)
{
	char		query_id[96];
	ch_error	err;
	ch_status	st;
	ch_conn    *h = idle_handle(conn);
	int			i = handle_index(conn, h);
	int			n = 0;

	q->settings = chfdw_request_settings(conn->opts.server_settings, conn->opts.user_settings,
										 extra, nextra, &n);
	q->nsettings = n;
	snprintf(query_id, sizeof(query_id), "chfdw-%d-" INT64_FORMAT "-" UINT64_FORMAT,
			 MyProcPid, (int64) GetCurrentTimestamp(), ++query_counter);
	q->query_id = query_id;
	q->limits = &conn->limits;
	ch_error_clear(&err);
	st = insert ? ch_conn_begin_insert(h, q, &err) : ch_conn_begin_query(h, q, &err);
	if (st != CH_OK)
		chfdw_report(ERROR, st, &err, q->sql, query_id);
	conn->queries++;
	conn->bytes_seen[i] = 0;
	host_stats(conn, h);
	conn->handle_kind[i] = insert ? 'i' : 'q';
	chfdw_stats_add(conn->stats, insert ? CHFDW_STAT_INSERTS : CHFDW_STAT_QUERIES, 1);
	/* the subtransaction whose abort abandons it (chfdw_subxact_callback) */
	conn->handle_subid[i] = GetCurrentSubTransactionId();
	return h;
}

/*
 * Start a query (SQL ending in FORMAT Native, or a statement without a
 * result); read it with chfdw_next_block. raw_sink: the response's bytes
 * as they come instead of blocks (clickhouse_raw_query; HTTP only).
 */
ch_conn *
chfdw_begin_query(ChFdwConn *conn, const char *sql, const char *database, int flags,
				  ch_sink_fn raw_sink, void *raw_sink_ctx)
{
	ch_query	q;

	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.format_in_sql = true;
	q.database = database ? database : conn->opts.dbname;
	q.compression = response_compression(conn, flags);
	q.raw_sink = raw_sink;
	q.raw_sink_ctx = raw_sink_ctx;
	return begin(conn, &q, false, NULL, 0);
}

/*
 * Start an INSERT ("INSERT INTO db.t (cols)", without FORMAT); send its
 * block with chfdw_send_insert. dedup_token: its
 * insert_deduplication_token, or NULL. rowbinary: the block is RowBinary
 * rows (HTTP only).
 */
ch_conn *
chfdw_begin_insert(ChFdwConn *conn, const char *sql, const char *database, bool rowbinary,
				   const char *dedup_token)
{
	ch_query	q;
	ch_setting	extra[2];
	int			nextra = 0;

	/*
	 * An INSERT into a Distributed table returns once every shard has the
	 * rows (the setting exists on every version; other engines ignore it),
	 * so a success means written.
	 */
	extra[nextra++] = (ch_setting) {"insert_distributed_sync", "1"};
	if (dedup_token)
		extra[nextra++] = (ch_setting) {"insert_deduplication_token", dedup_token};
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.database = database ? database : conn->opts.dbname;
	q.compression = body_compression(conn);
	q.zstd_level = conn->opts.compression_level;
	q.insert_rowbinary = rowbinary;
	return begin(conn, &q, true, extra, nextra);
}

/*
 * Until error.c reports the fields ch_transport.h splits an exception into
 * (issue 13 item 5): ClickHouse's whole exception text as the message, as
 * the FDW reported it before the transport interface. http.c keeps that
 * text in err->detail; native exceptions have no such text.
 */
static void
whole_server_text(ch_conn *c, ch_status st, ch_error *err)
{
	if (st != CH_ERR_SERVER)
		return;
	if (ch_conn_kind(c) == CH_TRANSPORT_HTTP && err->detail[0])
	{
		memcpy(err->message, err->detail, Min(sizeof(err->message), sizeof(err->detail)));
		err->message[sizeof(err->message) - 1] = '\0';
	}
	/* native: the server's stack trace, not for a user's DETAIL */
	err->detail[0] = '\0';
}

/* What the pump saw: bytes into the stats; the end of a request. */
static void
account(ChFdwConn *conn, ch_conn *c)
{
	int			i = handle_index(conn, c);
	uint64		bytes = ch_conn_stats(c)->bytes_received;

	host_stats(conn, c);
	if (bytes > conn->bytes_seen[i])
		chfdw_stats_add(conn->stats, CHFDW_STAT_BYTES_RECEIVED, bytes - conn->bytes_seen[i]);
	conn->bytes_seen[i] = bytes;
	if (ch_conn_failover_count(c) > conn->failovers_seen[i])
	{
		uint64		moved = ch_conn_failover_count(c) - conn->failovers_seen[i];

		chfdw_stats_add(conn->stats, CHFDW_STAT_FAILOVERS, moved);
		/* a request sent again to this host (not a connect of its own) */
		if (conn->handle_kind[i])
			chfdw_stats_add(conn->stats, conn->handle_kind[i] == 'i' ? CHFDW_STAT_INSERTS :
							CHFDW_STAT_QUERIES, moved);
	}
	conn->failovers_seen[i] = ch_conn_failover_count(c);
	if (!ch_conn_busy(c))
		conn->idle_since[i] = GetCurrentTimestamp();
	if (!conn->caps_known && ch_conn_caps(c)->known)
	{
		conn->caps = *ch_conn_caps(c);
		conn->caps_known = true;
	}
}

/*
 * Wait as the transport asked, within the caller's budget: timeout_ms -1
 * no limit, 0 no waiting at all, else until deadline. False when the
 * budget is spent (the caller gets CH_NEED_MORE).
 */
static bool
wait_within(ch_wait *w, long timeout_ms, TimestampTz deadline)
{
	long		left;

	if (w->nsockets == 0 && w->timeout_ms == 0)
	{
		/* the transport's step budget is spent: come back at once */
		CHECK_FOR_INTERRUPTS();
		return timeout_ms <= 0 || GetCurrentTimestamp() < deadline;
	}
	if (timeout_ms == 0)
		return false;
	if (timeout_ms > 0)
	{
		left = (long) ((deadline - GetCurrentTimestamp()) / 1000);
		if (left <= 0)
			return false;
		if (w->timeout_ms < 0 || w->timeout_ms > left)
			w->timeout_ms = left;
	}
	chfdw_wait(w);
	return true;
}

/*
 * The one result pump: the next block of the query running on c, waiting
 * in chfdw_wait as needed (timeout_ms: -1 as long as it takes, else at
 * most that long, then CH_NEED_MORE). CH_OK with *out (a data block,
 * 0-row ones included: the first is the header; valid until the next
 * call), CH_END at the end of the result, else the error (in err; raise it
 * with chfdw_raise). Totals and extremes are not asked for.
 */
ch_status
chfdw_next_block(ChFdwConn *conn, ch_conn *c, const ch_block **out, long timeout_ms,
				 ch_error *err)
{
	TimestampTz deadline = timeout_ms > 0 ?
		TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms) : 0;

	for (;;)
	{
		ch_wait		w;
		ch_status	st = chfdw_poll_block(conn, c, out, &w, err);

		if (st != CH_NEED_MORE)
			return st;
		if (!wait_within(&w, timeout_ms, deadline))
			return CH_NEED_MORE;
	}
}

/*
 * The pump without waiting, for async scans: CH_OK with *out (a data
 * block), CH_END, an error, or CH_NEED_MORE with *wait saying what to wait
 * for (never "come back at once": that is done here).
 */
ch_status
chfdw_poll_block(ChFdwConn *conn, ch_conn *c, const ch_block **out, ch_wait *wait,
				 ch_error *err)
{
	for (;;)
	{
		ch_block_kind kind;
		ch_status	st;

		CHECK_FOR_INTERRUPTS();
		ch_error_clear(err);
		memset(wait, 0, sizeof(*wait));
		st = ch_conn_next_block(c, out, &kind, wait, err);
		account(conn, c);
		if (st == CH_OK)
		{
			if (kind != CH_BLOCK_DATA)
				continue;
			chfdw_stats_add(conn->stats, CHFDW_STAT_ROWS_RECEIVED, (*out)->nrows);
			return CH_OK;
		}
		if (st != CH_NEED_MORE)
		{
			whole_server_text(c, st, err);
			return st;
		}
		if (wait->nsockets > 0 || wait->timeout_ms != 0)
			return CH_NEED_MORE;
	}
}

/*
 * The same for everything that is not pulled (connecting, a ping, an
 * insert's phases): step until the phase is done (CH_OK), an error, or
 * the budget (timeout_ms as above; 0: only as far as it goes without
 * waiting) is spent (CH_NEED_MORE).
 */
ch_status
chfdw_step(ChFdwConn *conn, ch_conn *c, long timeout_ms, ch_error *err)
{
	TimestampTz deadline = timeout_ms > 0 ?
		TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms) : 0;

	for (;;)
	{
		ch_wait		w;
		ch_status	st;

		ch_error_clear(err);
		memset(&w, 0, sizeof(w));
		st = ch_conn_step(c, &w, err);
		account(conn, c);
		if (st != CH_NEED_MORE)
		{
			whole_server_text(c, st, err);
			return st;
		}
		if (!wait_within(&w, timeout_ms, deadline))
			return CH_NEED_MORE;
	}
}

/* Raise the error of a request on c (its query id in DETAIL). */
void
chfdw_raise(ch_conn *c, ch_status st, const ch_error *err, const char *remote_sql)
{
	chfdw_report(ERROR, st, err, remote_sql, c ? ch_conn_query_id(c) : NULL);
}

/*
 * Run a query or statement to its end, waiting in PostgreSQL's wait loop;
 * errors are raised. The result is dropped, or its bytes go to raw_sink.
 */
static ch_status
discard_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	return CH_OK;
}

void
chfdw_run_request(ChFdwConn *conn, const char *sql, const char *database,
				  ch_sink_fn raw_sink, void *raw_sink_ctx)
{
	ch_conn    *c;

	/* over HTTP a statement's output is in the server's default format */
	if (!raw_sink && conn->cfg.kind == CH_TRANSPORT_HTTP)
		raw_sink = discard_sink;
	c = chfdw_begin_query(conn, sql, database, 0, raw_sink, raw_sink_ctx);
	chfdw_read_query(conn, c, sql, NULL, NULL);
}

/*
 * Read the query begun on c to its end with the pump, handing every
 * non-empty block to on_block (NULL: dropped). Errors are raised.
 */
void
chfdw_read_query(ChFdwConn *conn, ch_conn *c, const char *sql, chfdw_block_fn on_block,
				 void *arg)
{
	for (;;)
	{
		const ch_block *b;
		ch_error	err;
		ch_status	st = chfdw_next_block(conn, c, &b, -1, &err);

		if (st == CH_END)
			return;
		if (st != CH_OK)
			chfdw_raise(c, st, &err, sql);
		if (on_block && b->nrows > 0)
			on_block(b, arg);
	}
}

/*
 * Hand an insert begun with chfdw_begin_insert its one block (Native, or
 * RowBinary rows) and finish it: waits until the transport takes data
 * (native: the server's sample block), then leaves the answer to
 * chfdw_step. The block is copied.
 */
ch_status
chfdw_send_insert(ChFdwConn *conn, ch_conn *c, const uint8 *block, size_t len, uint64 rows,
				  ch_error *err)
{
	ch_status	st = chfdw_step(conn, c, -1, err);

	if (st == CH_OK)
	{
		ch_error_clear(err);
		st = ch_conn_insert_block(c, block, len, rows, err);
	}
	if (st == CH_OK)
	{
		ch_error_clear(err);
		st = ch_conn_insert_finish(c, err);
	}
	if (st != CH_OK)
	{
		account(conn, c);
		whole_server_text(c, st, err);
	}
	return st;
}

/*
 * One block as one INSERT, to its end (deferred inserts at commit);
 * errors are raised.
 */
void
chfdw_run_insert(ChFdwConn *conn, const char *sql, const char *database,
				 const uint8 *block, size_t len, uint64 rows, bool rowbinary,
				 const char *dedup_token)
{
	ch_conn    *c = chfdw_begin_insert(conn, sql, database, rowbinary, dedup_token);
	ch_error	err;
	ch_status	st = chfdw_send_insert(conn, c, block, len, rows, &err);

	if (st == CH_OK)
		st = chfdw_step(conn, c, -1, &err);
	if (st != CH_OK)
		chfdw_raise(c, st, &err, sql);
	chfdw_stats_add(conn->stats, CHFDW_STAT_BYTES_SENT, ch_conn_stats(c)->bytes_sent);
	chfdw_stats_add(conn->stats, CHFDW_STAT_ROWS_SENT, rows);
}

/*
 * Whether request number request (ch_conn_request_count when it began) is
 * still running on c: an abort may have abandoned it and the handle moved
 * on to another request.
 */
bool
chfdw_request_live(ChFdwConn *conn, ch_conn *c, uint64 request)
{
	(void) conn;
	return c && ch_conn_request_count(c) == request && ch_conn_busy(c);
}

/*
 * Wait for what the transport asked for, or the latch; then service
 * interrupts (a cancel or statement_timeout raises here, and the abort
 * callback abandons the request).
 */
void
chfdw_wait(const ch_wait *wait)
{
	long		timeout = wait->timeout_ms;
	TimestampTz start = GetCurrentTimestamp();

	if (wait->nsockets <= 1)
	{
		int			events = WL_LATCH_SET | WL_EXIT_ON_PM_DEATH;
		pgsocket	sock = PGINVALID_SOCKET;
		int			rc;

		if (wait->nsockets == 1)
		{
			sock = wait->fd[0];
			if (wait->want_read[0])
				events |= WL_SOCKET_READABLE;
			if (wait->want_write[0])
				events |= WL_SOCKET_WRITEABLE;
			if (!wait->want_read[0] && !wait->want_write[0])
				sock = PGINVALID_SOCKET;
		}
		if (timeout >= 0)
			events |= WL_TIMEOUT;
		else if (sock == PGINVALID_SOCKET)
		{
			events |= WL_TIMEOUT;
			timeout = 100;
		}
		rc = WaitLatchOrSocket(MyLatch, events, sock, timeout, PG_WAIT_EXTENSION);
		if (rc & WL_LATCH_SET)
			ResetLatch(MyLatch);
	}
	else
	{
		WaitEventSet *set = CreateWaitEventSet(CurrentMemoryContext, wait->nsockets + 2);
		WaitEvent	ev;
		int			i;

		AddWaitEventToSet(set, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
		AddWaitEventToSet(set, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
		for (i = 0; i < wait->nsockets; i++)
		{
			int			events = 0;

			if (wait->want_read[i])
				events |= WL_SOCKET_READABLE;
			if (wait->want_write[i])
				events |= WL_SOCKET_WRITEABLE;
			if (events)
				AddWaitEventToSet(set, events, wait->fd[i], NULL, NULL);
		}
		if (WaitEventSetWait(set, timeout, &ev, 1, PG_WAIT_EXTENSION) == 1 &&
			(ev.events & WL_LATCH_SET))
			ResetLatch(MyLatch);
		FreeWaitEventSet(set);
	}
	chfdw_stats_wait((uint64) Max(GetCurrentTimestamp() - start, 0));
	CHECK_FOR_INTERRUPTS();
}

/*
 * Abandon the request in flight on h: close its connection and ask the
 * server (on a new connection, within a second) to stop the query, so a
 * cancelled or abandoned scan does not keep running in ClickHouse.
 * Runs in abort callbacks too: never raises.
 */
void
chfdw_abandon(ChFdwConn *conn, ch_conn *h)
{
	char		qid[128];
	ch_error	err;

	if (!h || !ch_conn_busy(h))
		return;
	snprintf(qid, sizeof(qid), "%s", ch_conn_query_id(h));
	ch_error_clear(&err);
	if (ch_conn_kind(h) == CH_TRANSPORT_HTTP)
	{
		/* HTTP's cancel is exactly that: close, then KILL QUERY */
		(void) ch_conn_cancel(h, 1000, &err);
		ch_conn_abort(h);
	}
	else
	{
		ch_conn_abort(h);
		(void) ch_conn_kill(h, 1000, &err); /* on the host that runs it */
	}
	conn->idle_since[handle_index_quiet(conn, h)] = GetCurrentTimestamp();
}

/*
 * The requests in flight when a (sub)transaction ends. abort: abandon all
 * of them (subid InvalidSubTransactionId: the transaction aborts), or those
 * opened in subtransaction subid (or in one of its children, whose commit
 * handed them over to it). !abort (RELEASE SAVEPOINT): what subid opened
 * now belongs to parent.
 */
static void
end_of_subxact(SubTransactionId subid, SubTransactionId parent, bool abort)
{
	HASH_SEQ_STATUS scan;
	ChFdwConn  *entry;

	if (!ConnectionHash)
		return;
	hash_seq_init(&scan, ConnectionHash);
	while ((entry = (ChFdwConn *) hash_seq_search(&scan)))
	{
		int			i;

		for (i = 0; i < entry->nhandles; i++)
		{
			bool		mine = subid == InvalidSubTransactionId || entry->handle_subid[i] == subid;

			if (mine && !abort)
				entry->handle_subid[i] = parent;
			else if (mine && ch_conn_busy(entry->handles[i]))
				chfdw_abandon(entry, entry->handles[i]);
		}
	}
}

static void
chfdw_xact_callback(XactEvent event, void *arg)
{
	(void) arg;
	chfdw_deferred_xact_event(event);
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		end_of_subxact(InvalidSubTransactionId, InvalidSubTransactionId, true);
}

/*
 * Subtransactions: an abort abandons only what that subtransaction opened
 * (an outer scan goes on); a commit hands its requests and deferred blocks
 * to the parent.
 */
static void
chfdw_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
					   SubTransactionId parentSubid, void *arg)
{
	(void) arg;
	if (event == SUBXACT_EVENT_ABORT_SUB)
	{
		end_of_subxact(mySubid, parentSubid, true);
		chfdw_deferred_subxact_abort(mySubid);
	}
	else if (event == SUBXACT_EVENT_COMMIT_SUB)
	{
		end_of_subxact(mySubid, parentSubid, false);
		chfdw_deferred_subxact_commit(mySubid, parentSubid);
	}
}

static void
chfdw_inval_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	HASH_SEQ_STATUS scan;
	ChFdwConn  *entry;

	(void) arg;
	if (!ConnectionHash)
		return;
	hash_seq_init(&scan, ConnectionHash);
	while ((entry = (ChFdwConn *) hash_seq_search(&scan)))
	{
		if (hashvalue == 0 ||
			(cacheid == FOREIGNSERVEROID && entry->server_hashvalue == hashvalue) ||
			(cacheid == USERMAPPINGOID && entry->mapping_hashvalue == hashvalue))
			entry->invalidated = true;
	}
}

PG_FUNCTION_INFO_V1(clickhouse_fdw_connections);

/*
 * clickhouse_fdw_connections(): this backend's cached connections: the
 * server, the user mapping's user, HTTP handles, requests sent and TCP
 * connections opened (fewer connections than requests = keep-alive reuse).
 */
Datum
clickhouse_fdw_connections(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HASH_SEQ_STATUS scan;
	ChFdwConn  *entry;

	InitMaterializedSRF(fcinfo, 0);
	if (!ConnectionHash)
		return (Datum) 0;
	hash_seq_init(&scan, ConnectionHash);
	while ((entry = (ChFdwConn *) hash_seq_search(&scan)))
	{
		Datum		values[8];
		bool		nulls[8] = {false, false, false, false, false, false, false, false};
		uint64		requests = 0;
		int64		connects = 0;
		int			i;
		HeapTuple	tup;
		char	   *server = NULL;

		if (!entry->made)
			continue;
		tup = SearchSysCache1(USERMAPPINGOID, ObjectIdGetDatum(entry->umid));
		if (HeapTupleIsValid(tup))
		{
			Form_pg_user_mapping um = (Form_pg_user_mapping) GETSTRUCT(tup);
			ForeignServer *fs = GetForeignServerExtended(um->umserver, FSV_MISSING_OK);

			if (fs)
				server = fs->servername;
			ReleaseSysCache(tup);
		}
		for (i = 0; i < entry->nhandles; i++)
		{
			requests += ch_conn_request_count(entry->handles[i]);
			connects += (int64) ch_conn_connect_count(entry->handles[i]);
		}
		if (server)
			values[0] = CStringGetTextDatum(server);
		else
			nulls[0] = true;
		values[1] = CStringGetTextDatum(entry->opts.user);
		values[2] = Int32GetDatum(entry->nhandles);
		values[3] = Int64GetDatum((int64) requests);
		values[4] = Int64GetDatum(connects);
		if (entry->caps_known && entry->caps.version_major > 0)
			values[5] = CStringGetTextDatum(psprintf("%d.%d", entry->caps.version_major,
													 entry->caps.version_minor));
		else
			nulls[5] = true;
		values[6] = CStringGetTextDatum(entry->opts.compression == CHFDW_COMPRESSION_NONE ? "none" :
										entry->opts.compression == CHFDW_COMPRESSION_GZIP ? "gzip" :
										!entry->caps_known ? "unknown" :
										entry->caps.response_frames ? "frames" : "none");
		/* 1.2: the hosts the handles use (with several hosts, after failovers) */
		if (rsinfo->setDesc->natts >= 8)
		{
			StringInfoData hosts;

			initStringInfo(&hosts);
			for (i = 0; i < entry->nhandles; i++)
			{
				const ch_endpoint *ep = ch_conn_host(entry->handles[i]);
				char	   *one = psprintf(strchr(ep->host, ':') ? "[%s]:%d" : "%s:%d",
										   ep->host, ep->port);

				if (!strstr(hosts.data, one))
					appendStringInfo(&hosts, "%s%s", hosts.len ? ", " : "", one);
			}
			values[7] = CStringGetTextDatum(hosts.data);
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * What the server can do, once per connection: the caps the transport
 * derives when it connects (ch_caps_from_version: the one place version
 * numbers become features; over HTTP connecting is a "SELECT version()"
 * probe). The deparser, IMPORT and modify ask the flags, never the version.
 */
void
chfdw_server_caps(ChFdwConn *conn)
{
	ch_conn    *h;
	ch_error	err;
	ch_status	st;

	if (conn->caps_known)
		return;
	h = idle_handle(conn);
	if (!ch_conn_caps(h)->known)
	{
		ch_error_clear(&err);
		conn->handle_subid[handle_index(conn, h)] = GetCurrentSubTransactionId();
		conn->handle_kind[handle_index(conn, h)] = 0;	/* no request */
		st = ch_conn_begin_connect(h, &err);
		if (st == CH_OK)
			st = chfdw_step(conn, h, -1, &err);
		if (st != CH_OK)
			chfdw_report(ERROR, st, &err, NULL, NULL);	/* no query of ours */
	}
	conn->caps = *ch_conn_caps(h);
	conn->caps_known = true;
}

/* What the server of conn can do, probed on first use. */
const ch_caps *
chfdw_caps(ChFdwConn *conn)
{
	chfdw_server_caps(conn);
	return &conn->caps;
}
