/*-------------------------------------------------------------------------
 * probe.c
 *	  (probes) What a server can do, asked at plan time without failing
 *	  the plan.
 *
 *	  The planner asks a server's capabilities (chfdw_caps: its version,
 *	  probed once per connection) to decide whether a construct can be sent
 *	  there: window functions, grouping sets, a UNION ALL's supertypes,
 *	  correlated subqueries, jsonb operators, ClickHouse's own functions.
 *	  Asking may connect, and connecting may fail (the server down, a user
 *	  or password ClickHouse refuses). A plan must not fail for that: even
 *	  a plain EXPLAIN would (README "Problems and limitations": a server
 *	  that cannot be asked plans as declared). chfdw_caps_try asks in a
 *	  subtransaction (remote.c's chfdw_try_remote: the error is dropped, a
 *	  cancel or a termination is not) and answers NULL when the server
 *	  could not be asked; its callers then plan the construct in
 *	  PostgreSQL, and the scan reports the connection's error when it runs.
 *
 *	  The answer, and a failure, is kept for the rest of the transaction per
 *	  role and server, so that the planner, which asks for each path and
 *	  each expression it considers, waits for a server that does not answer
 *	  once per transaction, not once per question (a connect_timeout each).
 *	  ALTER SERVER and ALTER USER MAPPING forget the answers (the next
 *	  connection may reach another server, as connection.c's invalidation).
 *	  The last answer per server is also kept for the session, so that the
 *	  0A000 of a ClickHouse function a plan left to PostgreSQL can say the
 *	  server could not be asked (chfdw_caps_failed; chfuncs.c).
 *
 * src/fdw/probe.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "chfdw.h"

typedef struct ProbeEntry
{
	Oid			userid;
	Oid			serverid;
	bool		ok;				/* asked: caps hold the answer */
	ch_caps		caps;
} ProbeEntry;

static MemoryContext probe_cxt;
static List *probe_entries;		/* ProbeEntry, of transaction probe_lxid */
static LocalTransactionId probe_lxid = InvalidLocalTransactionId;
static List *failed_servers;	/* (session) servers whose last probe failed */
static bool callbacks_set;

/*
 * ALTER SERVER, ALTER USER MAPPING: the answers are forgotten, but their
 * memory is kept to the transaction's end (a caller may hold an answer
 * while a catalog lookup takes the invalidation).
 */
static void
probe_forget(Datum arg, int cacheid, uint32 hashvalue)
{
	probe_entries = NIL;
}

typedef struct ProbeAsk
{
	Oid			userid;
	Oid			serverid;
	ch_caps		caps;
} ProbeAsk;

static void
ask_caps(void *arg)
{
	ProbeAsk   *a = (ProbeAsk *) arg;

	a->caps = *chfdw_caps(chfdw_get_connection(GetUserMapping(a->userid, a->serverid)));
}

static void
note_server(Oid serverid, bool failed)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

	if (failed)
		failed_servers = list_append_unique_oid(failed_servers, serverid);
	else
		failed_servers = list_delete_oid(failed_servers, serverid);
	MemoryContextSwitchTo(old);
}

/*
 * chfdw_caps_try
 *		The capabilities of server serverid as role userid's user mapping
 *		reaches it, or NULL when it cannot be asked (see above). In
 *		parallel mode (no subtransactions, xact.c) a server not yet asked
 *		in this transaction is asked directly, as chfdw_caps, and its error
 *		raised.
 */
const ch_caps *
chfdw_caps_try(Oid userid, Oid serverid)
{
	ListCell   *lc;
	ProbeEntry *e;
	ProbeAsk	a;
	bool		ok;
	MemoryContext old;

	if (!OidIsValid(userid))
		userid = GetUserId();
	if (!callbacks_set)
	{
		probe_cxt = AllocSetContextCreate(TopMemoryContext, "clickhouse_fdw probes",
										  ALLOCSET_SMALL_SIZES);
		CacheRegisterSyscacheCallback(FOREIGNSERVEROID, probe_forget, (Datum) 0);
		CacheRegisterSyscacheCallback(USERMAPPINGOID, probe_forget, (Datum) 0);
		callbacks_set = true;
	}
	if (probe_lxid != MyProc->lxid)
	{
		probe_entries = NIL;
		MemoryContextReset(probe_cxt);
		probe_lxid = MyProc->lxid;
	}
	foreach(lc, probe_entries)
	{
		e = (ProbeEntry *) lfirst(lc);
		if (e->userid == userid && e->serverid == serverid)
			return e->ok ? &e->caps : NULL;
	}
	a.userid = userid;
	a.serverid = serverid;
	if (IsInParallelMode())
	{
		ask_caps(&a);
		ok = true;
	}
	else
		ok = chfdw_try_remote(ask_caps, &a);
	note_server(serverid, !ok);
	/* (an invalidation while asking may have reset the list: entered after) */
	old = MemoryContextSwitchTo(probe_cxt);
	e = palloc0(sizeof(ProbeEntry));
	e->userid = userid;
	e->serverid = serverid;
	e->ok = ok;
	if (ok)
		e->caps = a.caps;
	probe_entries = lappend(probe_entries, e);
	MemoryContextSwitchTo(old);
	return ok ? &e->caps : NULL;
}

/*
 * Did the last plan-time probe of server serverid (this session) fail?
 * (The 0A000 of ClickHouse's own functions says so in its hint.)
 */
bool
chfdw_caps_failed(Oid serverid)
{
	return list_member_oid(failed_servers, serverid);
}
