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
		pfree(o->password);
	memset(o, 0, sizeof(*o));
}

static void
disconnect(ChFdwConn *entry)
{
	if (entry->http)
	{
		ch_http_destroy(entry->http);
		entry->http = NULL;
	}
	free_options(&entry->opts);
}

static void
make_connection(ChFdwConn *entry, UserMapping *user)
{
	ForeignServer *server = GetForeignServer(user->serverid);
	ChFdwServerOptions opts;
	ch_http_config cfg;
	ch_error	err;

	chfdw_get_server_options(server, user, &opts);
	memset(&cfg, 0, sizeof(cfg));
	cfg.host = opts.host;
	cfg.port = opts.port;
	cfg.user = opts.user;
	cfg.password = opts.password;
	cfg.connect_timeout_ms = 10000;
	ch_error_clear(&err);
	/* connections outlive transactions: plain malloc, freed on disconnect */
	entry->http = ch_http_create(NULL, &cfg, &err);
	if (!entry->http)
		chfdw_report(ERROR, err.code, &err, NULL, NULL);
	copy_options(&entry->opts, &opts);
	entry->invalidated = false;
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
		entry->http = NULL;
		memset(&entry->opts, 0, sizeof(entry->opts));
		entry->invalidated = false;
		entry->queries = 0;
	}
	if (entry->http && ch_http_busy(entry->http))
		ch_http_abort(entry->http); /* left over from an error: cannot reuse */
	if (entry->http && entry->invalidated)
		disconnect(entry);
	if (!entry->http)
		make_connection(entry, user);
	return entry;
}

/*
 * Start a remote query whose response bytes go to sink. The query id is
 * written to query_id_out.
 */
void
chfdw_begin_query(ChFdwConn *conn, const char *sql, const char *database,
				  ch_sink_fn sink, void *sink_ctx, char *query_id_out,
				  size_t query_id_len)
{
	ch_http_request req;
	ch_error	err;
	ch_status	st;

	snprintf(query_id_out, query_id_len, "chfdw-%d-" INT64_FORMAT "-" UINT64_FORMAT,
			 MyProcPid, (int64) GetCurrentTimestamp(), ++query_counter);
	memset(&req, 0, sizeof(req));
	req.database = database ? database : conn->opts.dbname;
	req.query_id = query_id_out;
	req.sql = sql;
	req.sql_len = strlen(sql);
	req.sink = sink;
	req.sink_ctx = sink_ctx;
	ch_error_clear(&err);
	st = ch_http_begin(conn->http, &req, &err);
	if (st != CH_OK)
		chfdw_report(ERROR, st, &err, sql, query_id_out);
	conn->queries++;
}

/* Advance the transport without waiting. */
ch_status
chfdw_step(ChFdwConn *conn, ch_wait *wait, ch_error *err)
{
	return ch_http_step(conn->http, wait, err);
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
	CHECK_FOR_INTERRUPTS();
}

/* Abandon the request in flight on conn, if any. */
void
chfdw_abort_query(ChFdwConn *conn)
{
	if (conn && conn->http)
		ch_http_abort(conn->http);
}

static void
abort_all_in_flight(void)
{
	HASH_SEQ_STATUS scan;
	ChFdwConn  *entry;

	if (!ConnectionHash)
		return;
	hash_seq_init(&scan, ConnectionHash);
	while ((entry = (ChFdwConn *) hash_seq_search(&scan)))
	{
		if (entry->http && ch_http_busy(entry->http))
			ch_http_abort(entry->http);
	}
}

static void
chfdw_xact_callback(XactEvent event, void *arg)
{
	(void) arg;
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		abort_all_in_flight();
}

static void
chfdw_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
					   SubTransactionId parentSubid, void *arg)
{
	(void) mySubid;
	(void) parentSubid;
	(void) arg;
	if (event == SUBXACT_EVENT_ABORT_SUB)
		abort_all_in_flight();
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
