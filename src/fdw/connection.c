/*-------------------------------------------------------------------------
 * connection.c
 *	  Connection cache (one HTTP connection per user mapping in each
 *	  backend), starting remote queries, and waiting for the transport
 *	  inside PostgreSQL's wait loop.
 *
 * Invariants:
 *	- A request in flight when a (sub)transaction aborts is abandoned at
 *	  abort time, so no libcurl callback can run into freed scan memory.
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
	memset(o, 0, sizeof(*o));
}

static void
disconnect(ChFdwConn *entry)
{
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		ch_http_destroy(entry->handles[i]);
	entry->nhandles = 0;
	free_options(&entry->opts);
}

static bool
any_busy(ChFdwConn *entry)
{
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		if (ch_http_busy(entry->handles[i]))
			return true;
	return false;
}

/* An idle handle of the pool, created if needed. */
static ch_http_conn *
idle_handle(ChFdwConn *entry)
{
	ch_error	err;
	ch_http_conn *h;
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		if (!ch_http_busy(entry->handles[i]))
			return entry->handles[i];
	if (entry->nhandles == CHFDW_MAX_HANDLES)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("too many concurrent ClickHouse requests in one query (at most %d per user mapping)",
						CHFDW_MAX_HANDLES)));
	ch_error_clear(&err);
	/* connections outlive transactions: plain malloc, freed on disconnect */
	h = ch_http_create(NULL, &entry->cfg, &err);
	if (!h)
		chfdw_report(ERROR, err.code, &err, NULL, NULL);
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
static int
handle_index(ChFdwConn *entry, ch_http_conn *h)
{
	int			i;

	for (i = 0; i < entry->nhandles; i++)
		if (entry->handles[i] == h)
			return i;
	elog(ERROR, "ClickHouse request handle not in its pool");
	return 0;
}

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
	memset(&entry->cfg, 0, sizeof(entry->cfg));
	entry->cfg.host = entry->opts.host;
	entry->cfg.port = entry->opts.port;
	entry->cfg.user = entry->opts.user;
	entry->cfg.password = entry->opts.password;
	entry->cfg.connect_timeout_ms = (long) entry->opts.connect_timeout * 1000;
	entry->cfg.secure = entry->opts.secure;
	entry->cfg.ca_file = entry->opts.ca_file;
	entry->cfg.receive_timeout_ms = (long) entry->opts.receive_timeout * 1000;
	entry->limits = opts.limits;
	/* a compressed frame is never larger than the block limit */
	entry->cfg.max_frame_bytes = opts.limits.max_block_bytes;
	strlcpy(entry->proxy, opts.proxy ? opts.proxy : "", sizeof(entry->proxy));
	entry->cfg.proxy = entry->proxy;
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
	entry->stats = chfdw_stats_entry(server->serverid, server->servername, entry->opts.host);
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
 * Start a remote query whose response bytes go to sink. The query id is
 * written to query_id_out.
 */
/*
 * Start a request. With body, sql travels in the URL and body is the data
 * of an INSERT (not copied: it must stay valid until the request ends).
 */
ch_http_conn *
chfdw_begin_request(ChFdwConn *conn, const char *sql, const char *database,
					const uint8 *body, size_t body_len,
					ch_sink_fn sink, void *sink_ctx, int flags, const char *dedup_token,
					char *query_id_out, size_t query_id_len)
{
	bool		framed_response = false;
	bool		gzip_response = false;

	/*
	 * Responses: ClickHouse's compressed frames where the server has them
	 * (cheap to decode); HTTP gzip only when asked for (compression
	 * 'gzip'): it costs more CPU than a local link saves (README,
	 * "Benchmarks"), so on servers without frames (18.16) the default
	 * is an uncompressed response. Decide before taking a handle: the
	 * probe needs one itself.
	 */
	if ((flags & CHFDW_REQ_COMPRESS_RESPONSE) && conn->opts.compression == CHFDW_COMPRESSION_GZIP)
		gzip_response = true;
	else if ((flags & CHFDW_REQ_COMPRESS_RESPONSE) &&
			 conn->opts.compression != CHFDW_COMPRESSION_NONE)
	{
		chfdw_server_caps(conn);
		framed_response = conn->caps.response_frames;
	}
	{
	ch_http_request req;
	ch_error	err;
	ch_status	st;
	ch_http_conn *h = idle_handle(conn);
	ch_setting	extra[2];
	int			nextra = 0;
	ch_setting *arr;
	int			n = 0;

	/*
	 * An INSERT into a Distributed table returns once every shard has the
	 * rows (the setting exists on every version; other engines ignore it),
	 * so a success means written.
	 */
	if (body)
		extra[nextra++] = (ch_setting) {"insert_distributed_sync", "1"};
	if (dedup_token)
		extra[nextra++] = (ch_setting) {"insert_deduplication_token", dedup_token};
	/* the server's, the user mapping's, the GUC's (settings.c), then ours */
	arr = chfdw_request_settings(conn->opts.server_settings, conn->opts.user_settings,
								 extra, nextra, &n);

	snprintf(query_id_out, query_id_len, "chfdw-%d-" INT64_FORMAT "-" UINT64_FORMAT,
			 MyProcPid, (int64) GetCurrentTimestamp(), ++query_counter);
	memset(&req, 0, sizeof(req));
	req.database = database ? database : conn->opts.dbname;
	req.query_id = query_id_out;
	req.sql = sql;
	req.sql_len = strlen(sql);
	req.body = body;
	req.body_len = body_len;
	req.sink = sink;
	req.sink_ctx = sink_ctx;
	req.settings = arr;
	req.nsettings = n;
	req.body_framed = (flags & CHFDW_REQ_BODY_FRAMED) != 0;
	req.response_framed = framed_response;
	req.response_gzip = gzip_response;
	ch_error_clear(&err);
	st = ch_http_begin(h, &req, &err);
	if (st != CH_OK)
		chfdw_report(ERROR, st, &err, sql, query_id_out);
	conn->queries++;
	chfdw_stats_add(conn->stats, body ? CHFDW_STAT_INSERTS : CHFDW_STAT_QUERIES, 1);
	/* the subtransaction whose abort abandons it (chfdw_subxact_callback) */
	conn->handle_subid[handle_index(conn, h)] = GetCurrentSubTransactionId();
	return h;
	}
}

static void
run_request(ChFdwConn *conn, const char *sql, const char *database,
			const uint8 *body, size_t body_len,
			ch_sink_fn sink, void *sink_ctx, int flags, const char *dedup_token)
{
	char		query_id[96];
	ch_wait		wait;
	ch_error	err;
	ch_status	st;
	ch_http_conn *h;

	h = chfdw_begin_request(conn, sql, database, body, body_len, sink, sink_ctx, flags,
							dedup_token, query_id, sizeof(query_id));
	for (;;)
	{
		ch_error_clear(&err);
		st = ch_http_step(h, &wait, &err);
		if (st == CH_OK)
			return;
		if (st != CH_NEED_MORE)
			chfdw_report(ERROR, st, &err, sql, query_id);
		chfdw_wait(&wait);
	}
}

/*
 * Run a request to completion, waiting in PostgreSQL's wait loop; errors
 * are raised. Response bytes go to sink (NULL: discarded). dedup_token:
 * the insert_deduplication_token of an INSERT body, or NULL.
 */
void
chfdw_run_insert(ChFdwConn *conn, const char *sql, const char *database,
				 const uint8 *body, size_t body_len, int flags, const char *dedup_token)
{
	run_request(conn, sql, database, body, body_len, NULL, NULL, flags, dedup_token);
}

void
chfdw_run_request(ChFdwConn *conn, const char *sql, const char *database,
				  const uint8 *body, size_t body_len,
				  ch_sink_fn sink, void *sink_ctx, int flags)
{
	run_request(conn, sql, database, body, body_len, sink, sink_ctx, flags, NULL);
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
 * server (on a new one, within a second) to stop the query, so a cancelled
 * or abandoned scan does not keep running in ClickHouse.
 */
void
chfdw_abandon(ChFdwConn *conn, ch_http_conn *h)
{
	char		qid[128];
	ch_error	err;

	if (!h || !ch_http_busy(h))
		return;
	snprintf(qid, sizeof(qid), "%s", ch_http_query_id(h));
	ch_http_abort(h);
	ch_error_clear(&err);
	(void) ch_http_kill_query(&conn->cfg, qid, 1000, &err);
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
			else if (mine && ch_http_busy(entry->handles[i]))
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
		Datum		values[7];
		bool		nulls[7] = {false, false, false, false, false, false, false};
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
			requests += ch_http_request_count(entry->handles[i]);
			connects += ch_http_connects(entry->handles[i]);
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
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* The one "SELECT version()" answer: "18.16.1" or "26.5.1.1". */
typedef struct VersionProbe
{
	int			major;
	int			minor;
	int			patch;
} VersionProbe;

static void
version_block(ch_block *b, void *arg)
{
	VersionProbe *v = (VersionProbe *) arg;
	const ch_column *c = &b->cols[0];
	uint32		len;
	const uint8 *p;
	char		buf[64];

	if (b->ncols != 1 || b->nrows < 1 || c->type->kind != CH_T_STRING)
		return;
	p = ch_col_str(c, 0, &len);
	snprintf(buf, sizeof(buf), "%.*s", (int) Min(len, 60), (const char *) p);
	if (!ch_parse_version(buf, strlen(buf), &v->major, &v->minor))
		v->major = v->minor = 0;
	else
	{
		const char *q = strchr(buf, '.');

		q = q ? strchr(q + 1, '.') : NULL;
		v->patch = q ? atoi(q + 1) : 0;
	}
}

/*
 * Probe the server's version once per connection and derive what it can do
 * (ch_caps_from_version: the one place version numbers become features;
 * the deparser, IMPORT and modify ask the flags, never the version).
 * ClickHouse 18.16's HTTP compress=1 responses are broken: those come
 * uncompressed (or as HTTP gzip with compression 'gzip').
 */
void
chfdw_server_caps(ChFdwConn *conn)
{
	VersionProbe v = {0, 0, 0};

	if (conn->caps_known)
		return;
	conn->caps_known = true;	/* no second probe while probing */
	memset(&conn->caps, 0, sizeof(conn->caps));
	PG_TRY();
	{
		chfdw_run_query(conn, "SELECT version() FORMAT Native", NULL, version_block, &v);
	}
	PG_CATCH();
	{
		conn->caps_known = false;
		PG_RE_THROW();
	}
	PG_END_TRY();
	ch_caps_from_version(&conn->caps, CH_TRANSPORT_HTTP, v.major, v.minor, v.patch, 0);
}

/* What the server of conn can do, probed on first use. */
const ch_caps *
chfdw_caps(ChFdwConn *conn)
{
	chfdw_server_caps(conn);
	return &conn->caps;
}
