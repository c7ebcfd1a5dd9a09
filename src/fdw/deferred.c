/*-------------------------------------------------------------------------
 * deferred.c
 *	  insert_commit = 'transaction': INSERT/COPY blocks are kept in
 *	  temporary files until the PostgreSQL transaction commits, then sent
 *	  (at PRE_COMMIT); a ROLLBACK (or ROLLBACK TO SAVEPOINT) sends nothing.
 *
 * Memory stays bounded: blocks go to BufFiles (owned by the transaction's
 * resource owner) and are read back one at a time. ClickHouse has no
 * transactions, so if a block fails at commit, the blocks sent before it
 * stay in ClickHouse and the PostgreSQL transaction aborts; the error says
 * how many. Rows inserted this way are not visible to queries in the same
 * transaction.
 *
 * src/fdw/deferred.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "storage/buffile.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "chfdw.h"

typedef struct DeferredInsert
{
	ChFdwConn  *conn;
	char	   *sql;			/* INSERT INTO db.t (cols) */
	char	   *database;
	bool		rowbinary;		/* blocks are RowBinary rows, else Native */
	BufFile    *file;
	uint64		nblocks;
	uint64		nrows;
	SubTransactionId subid;		/* the subtransaction it belongs to: its
								 * writer's, or a parent's after RELEASE */
	uint64		key;			/* the statement that wrote it */
	bool		tokens;			/* each block has its dedup token in the file */
} DeferredInsert;

static List *deferred = NIL;	/* in TopTransactionContext */

static void
read_exact(BufFile *file, void *ptr, size_t size)
{
	if (BufFileRead(file, ptr, size) != size)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the deferred ClickHouse insert file")));
}

/*
 * Keep one serialised block (data, len) of statement key until commit.
 * token: its insert_deduplication_token (clickhouse_fdw.insert_key), sent
 * with it at commit, or NULL; the same for every block of a statement.
 */
void
chfdw_defer_block(uint64 key, ChFdwConn *conn, const char *sql, const char *database,
				  const uint8 *data, size_t len, bool rowbinary, uint64 rows,
				  const char *token)
{
	DeferredInsert *d = NULL;
	ListCell   *lc;
	uint64		len64 = len;

	/*
	 * The statement's latest file, if it is still the current
	 * subtransaction's (after a RELEASE its blocks so far belong to the
	 * parent: later ones start a new file, so a ROLLBACK TO can drop them
	 * alone; the list keeps the order they are sent in).
	 */
	foreach(lc, deferred)
	{
		DeferredInsert *e = (DeferredInsert *) lfirst(lc);

		if (e->key == key)
			d = e;
	}
	if (d && d->subid != GetCurrentSubTransactionId())
		d = NULL;
	if (!d)
	{
		MemoryContext old = MemoryContextSwitchTo(TopTransactionContext);
		ResourceOwner oldowner = CurrentResourceOwner;

		d = palloc0(sizeof(DeferredInsert));
		d->conn = conn;
		d->sql = pstrdup(sql);
		d->database = pstrdup(database);
		d->rowbinary = rowbinary;
		d->subid = GetCurrentSubTransactionId();
		d->key = key;
		d->tokens = token != NULL;
		/* the file must live until the transaction ends, not the statement */
		CurrentResourceOwner = TopTransactionResourceOwner;
		d->file = BufFileCreateTemp(false);
		CurrentResourceOwner = oldowner;
		deferred = lappend(deferred, d);
		MemoryContextSwitchTo(old);
	}
	if (d->tokens)
	{
		uint64		tlen = strlen(token);

		BufFileWrite(d->file, &tlen, sizeof(tlen));
		BufFileWrite(d->file, (void *) token, tlen);
	}
	BufFileWrite(d->file, &rows, sizeof(rows));
	BufFileWrite(d->file, &len64, sizeof(len64));
	BufFileWrite(d->file, (void *) data, len);
	d->nblocks++;
	d->nrows += rows;
}

static void
discard(DeferredInsert *d)
{
	if (d->file)
		BufFileClose(d->file);
	d->file = NULL;
}

/* Send every deferred block, in order. */
static void
send_all(void)
{
	uint64		sent_blocks = 0;
	ListCell   *lc;

	foreach(lc, deferred)
	{
		DeferredInsert *d = (DeferredInsert *) lfirst(lc);
		uint64		i;

		if (BufFileSeek(d->file, 0, 0, SEEK_SET) != 0)
			ereport(ERROR, (errcode_for_file_access(),
							errmsg("could not rewind the deferred ClickHouse insert file")));
		for (i = 0; i < d->nblocks; i++)
		{
			uint64		len;
			uint64		rows;
			uint8	   *buf;
			char	   *token = NULL;

			if (d->tokens)
			{
				uint64		tlen;

				read_exact(d->file, &tlen, sizeof(tlen));
				if (tlen > 1024)
					elog(ERROR, "corrupt deferred ClickHouse insert file");
				token = palloc(tlen + 1);
				read_exact(d->file, token, tlen);
				token[tlen] = '\0';
			}
			read_exact(d->file, &rows, sizeof(rows));
			read_exact(d->file, &len, sizeof(len));
			buf = palloc(len ? len : 1);
			read_exact(d->file, buf, len);
			PG_TRY();
			{
				chfdw_run_insert(d->conn, d->sql, d->database, buf, len, rows, d->rowbinary,
								 token);
			}
			PG_CATCH();
			{
				ErrorData  *edata;

				if (sent_blocks == 0)
					PG_RE_THROW();
				edata = CopyErrorData();
				FlushErrorState();
				edata->detail = psprintf("%s%s" UINT64_FORMAT " block(s) sent at commit before this one "
										 "were committed in ClickHouse and cannot be rolled back.",
										 edata->detail ? edata->detail : "",
										 edata->detail ? " " : "", sent_blocks);
				ReThrowError(edata);
			}
			PG_END_TRY();
			pfree(buf);
			sent_blocks++;
		}
	}
}

void
chfdw_deferred_xact_event(XactEvent event)
{
	ListCell   *lc;

	if (deferred == NIL)
		return;
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
			{
				List	   *todo = deferred;

				send_all();
				foreach(lc, todo)
					discard((DeferredInsert *) lfirst(lc));
				deferred = NIL;
				break;
			}
		case XACT_EVENT_PRE_PREPARE:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot prepare a transaction with deferred ClickHouse inserts"),
					 errhint("Use insert_commit 'statement' for two-phase commit.")));
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PREPARE:
			/* the files belong to the transaction's resource owner */
			deferred = NIL;
			break;
		default:
			break;
	}
}

/*
 * ROLLBACK TO SAVEPOINT (or an exception block's abort): forget what
 * subtransaction subid deferred, including what its committed children
 * handed over to it; nothing else.
 */
void
chfdw_deferred_subxact_abort(SubTransactionId subid)
{
	ListCell   *lc;

	foreach(lc, deferred)
	{
		DeferredInsert *d = (DeferredInsert *) lfirst(lc);

		if (d->subid == subid)
		{
			discard(d);
			deferred = foreach_delete_current(deferred, lc);
		}
	}
}

/* RELEASE SAVEPOINT: what subid deferred now belongs to its parent. */
void
chfdw_deferred_subxact_commit(SubTransactionId subid, SubTransactionId parent)
{
	ListCell   *lc;

	foreach(lc, deferred)
	{
		DeferredInsert *d = (DeferredInsert *) lfirst(lc);

		if (d->subid == subid)
			d->subid = parent;
	}
}

/* Rows waiting for commit (for tests and monitoring). */
int64
chfdw_deferred_rows(void)
{
	ListCell   *lc;
	int64		n = 0;

	foreach(lc, deferred)
		n += ((DeferredInsert *) lfirst(lc))->nrows;
	return n;
}
