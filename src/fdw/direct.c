/*-------------------------------------------------------------------------
 * direct.c
 *	  UPDATE and DELETE as one ClickHouse mutation, and TRUNCATE.
 *
 * ClickHouse changes rows only in bulk: "ALTER TABLE t UPDATE c = v WHERE
 * cond" / "ALTER TABLE t DELETE WHERE cond" (MergeTree tables), or a
 * lightweight "DELETE FROM t WHERE cond" on servers that have it (23.3+:
 * rows are marked deleted at once, no parts are rewritten). So an
 * UPDATE or DELETE whose WHERE is entirely shippable (and, for UPDATE,
 * whose new values are columns or constants) is sent as one mutation;
 * anything that would need row-at-a-time changes is refused with a hint.
 * The statement first counts the matching rows (the command tag reports
 * them; ClickHouse does not), then runs the mutation and (unless the
 * option wait_mutations is off) waits until ClickHouse reports it done
 * (system.mutations), so the change is visible when the statement returns. A PostgreSQL ROLLBACK cannot undo it.
 *
 * src/fdw/direct.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/appendinfo.h"
#include "parser/parsetree.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/rel.h"

#include "chfdw.h"

/* fdw_private of a direct-modify ForeignScan */
enum FdwDirectModifyPrivateIndex
{
	FdwDirectModifyPrivateMutationSql,	/* ALTER TABLE ... (String) */
	FdwDirectModifyPrivateCountSql, /* SELECT count() ... (String) */
	FdwDirectModifyPrivateTable,	/* db.table for the mutation wait (String) */
	FdwDirectModifyPrivateSetTag,	/* canSetTag (Boolean) */
	FdwDirectModifyPrivateZone, /* TimeZone the SQL depends on, or "" (String) */
	FdwDirectModifyPrivateLightweightSql,	/* DELETE FROM ... WHERE, or "" (String) */
	FdwDirectModifyPrivateWait	/* wait until the mutation is done (Boolean) */
};

typedef struct ChFdwDirectState
{
	ChFdwConn  *conn;
	char	   *mutation_sql;
	char	   *lightweight_sql;	/* DELETE FROM ..., for servers that have it */
	bool		wait;			/* until ClickHouse applied the change */
	char	   *count_sql;
	char	   *database;
	char	   *table;
	Oid			relid;			/* the foreign table */
	bool		set_tag;
	bool		done;
	uint64		count;
	List	   *param_exprs;	/* ExprStates of run-time values, if any */
	ExprContext *econtext;
} ChFdwDirectState;

/* The ForeignScan of the target relation under a ModifyTable, if any. */
static ForeignScan *
find_target_scan(ModifyTable *plan, Index rtindex, int subplan_index)
{
	Plan	   *subplan = outerPlan(plan);

	if (IsA(subplan, Append))
	{
		Append	   *ap = (Append *) subplan;

		if (subplan_index < list_length(ap->appendplans))
			subplan = (Plan *) list_nth(ap->appendplans, subplan_index);
	}
	else if (IsA(subplan, Result) && outerPlan(subplan) && IsA(outerPlan(subplan), Append))
	{
		Append	   *ap = (Append *) outerPlan(subplan);

		if (subplan_index < list_length(ap->appendplans))
			subplan = (Plan *) list_nth(ap->appendplans, subplan_index);
	}
	if (IsA(subplan, ForeignScan) && ((ForeignScan *) subplan)->scan.scanrelid == rtindex)
		return (ForeignScan *) subplan;
	return NULL;
}

bool
chfdwPlanDirectModify(PlannerInfo *root, ModifyTable *plan, Index resultRelation,
					  int subplan_index)
{
	CmdType		operation = plan->operation;
	RangeTblEntry *rte = planner_rt_fetch(resultRelation, root);
	RelOptInfo *baserel;
	ForeignScan *fscan;
	Relation	rel;
	const char *database;
	const char *table;
	StringInfoData target;
	StringInfoData sql;
	StringInfoData count;
	StringInfoData lightweight;
	StringInfoData where;
	ChFdwDeparse dp;

	if (operation != CMD_UPDATE && operation != CMD_DELETE)
		return false;
	if (plan->returningLists)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("RETURNING is not supported for ClickHouse foreign tables"),
				 errhint("ClickHouse does not report changed rows back.")));
	fscan = find_target_scan(plan, resultRelation, subplan_index);
	if (!fscan || fscan->scan.plan.qual != NIL)
		return false;			/* a condition ClickHouse cannot evaluate */
	baserel = root->simple_rel_array[resultRelation];

	rel = table_open(rte->relid, NoLock);
	chfdw_get_table_names(rel, &database, &table);
	initStringInfo(&target);
	chfdw_quote_identifier(&target, database);
	appendStringInfoChar(&target, '.');
	chfdw_quote_identifier(&target, table);

	chfdw_deparse_init(&dp, root);
	initStringInfo(&sql);
	appendStringInfo(&sql, "ALTER TABLE %s %s", target.data,
					 operation == CMD_UPDATE ? "UPDATE " : "DELETE");
	if (operation == CMD_UPDATE)
	{
		List	   *tlist;
		List	   *attrs;
		ListCell   *lc,
				   *lc2;
		bool		first = true;

		get_translated_update_targetlist(root, resultRelation, &tlist, &attrs);
		forboth(lc, tlist, lc2, attrs)
		{
			TargetEntry *tle = lfirst_node(TargetEntry, lc);
			AttrNumber	attno = lfirst_int(lc2);

			if (attno <= InvalidAttrNumber ||
				!chfdw_is_shippable_value(baserel, rte->relid, tle->expr))
			{
				table_close(rel, NoLock);
				return false;
			}
			if (!first)
				appendStringInfoString(&sql, ", ");
			chfdw_quote_identifier(&sql, chfdw_column_name(rte->relid, attno));
			appendStringInfoString(&sql, " = ");
			chfdw_deparse_value_expr(&dp, &sql, baserel, rte->relid, tle->expr);
			first = false;
		}
	}
	table_close(rel, NoLock);

	/* the scan's shipped conditions are the mutation's */
	initStringInfo(&where);
	chfdw_deparse_where(&dp, &where, baserel, rte->relid, fscan->fdw_recheck_quals);
	if (where.len == 0)
		appendStringInfoString(&where, " WHERE 1");
	appendStringInfoString(&sql, where.data);
	initStringInfo(&count);
	appendStringInfo(&count, "SELECT count() FROM %s%s FORMAT Native", target.data, where.data);
	/* lightweight DELETE: chosen at execution time, planning does not connect */
	initStringInfo(&lightweight);
	if (operation == CMD_DELETE)
		appendStringInfo(&lightweight, "DELETE FROM %s%s", target.data, where.data);

	fscan->operation = operation;
	fscan->resultRelation = resultRelation;
	fscan->fdw_exprs = dp.params;
	fscan->fdw_private = list_make5(makeString(sql.data), makeString(count.data),
									list_make2(makeString(pstrdup(database)),
											   makeString(pstrdup(table))),
									makeBoolean(plan->canSetTag), chfdw_plan_zone(&dp));
	fscan->fdw_private = lappend(fscan->fdw_private, makeString(lightweight.data));
	fscan->fdw_private = lappend(fscan->fdw_private,
								 makeBoolean(chfdw_wait_mutations(rte->relid)));
	return true;
}

void
chfdwBeginDirectModify(ForeignScanState *node, int eflags)
{
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	RangeTblEntry *rte = exec_rt_fetch(fsplan->resultRelation, estate);
	Oid			userid = OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
	ChFdwDirectState *st;
	List	   *names;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	chfdw_check_plan_zone(list_nth(fsplan->fdw_private, FdwDirectModifyPrivateZone));
	st = palloc0(sizeof(ChFdwDirectState));
	st->mutation_sql = strVal(list_nth(fsplan->fdw_private, FdwDirectModifyPrivateMutationSql));
	st->count_sql = strVal(list_nth(fsplan->fdw_private, FdwDirectModifyPrivateCountSql));
	st->lightweight_sql = strVal(list_nth(fsplan->fdw_private,
										  FdwDirectModifyPrivateLightweightSql));
	st->wait = boolVal(list_nth(fsplan->fdw_private, FdwDirectModifyPrivateWait));
	names = (List *) list_nth(fsplan->fdw_private, FdwDirectModifyPrivateTable);
	st->database = strVal(linitial(names));
	st->table = strVal(lsecond(names));
	st->set_tag = boolVal(list_nth(fsplan->fdw_private, FdwDirectModifyPrivateSetTag));
	st->relid = rte->relid;
	st->conn = chfdw_get_connection(GetUserMapping(userid,
												   GetForeignTable(rte->relid)->serverid));
	st->param_exprs = ExecInitExprList(fsplan->fdw_exprs, (PlanState *) node);
	st->econtext = node->ss.ps.ps_ExprContext;
	node->fdw_state = st;
}

static void
count_block(const ch_block *b, void *arg)
{
	uint64	   *n = (uint64 *) arg;
	const ch_column *c = &b->cols[0];

	if (b->ncols != 1 || c->type->kind != CH_T_UINT64)
		elog(ERROR, "unexpected count() result from ClickHouse");
	*n += ch_le64(c->data);
}

static void
unfinished_block(const ch_block *b, void *arg)
{
	count_block(b, arg);
}

/* Wait until ClickHouse has applied every mutation of the table. */
static void
wait_for_mutations(ChFdwDirectState *st)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT count() FROM system.mutations WHERE database = ");
	chfdw_quote_literal(&sql, st->database);
	appendStringInfoString(&sql, " AND table = ");
	chfdw_quote_literal(&sql, st->table);
	appendStringInfoString(&sql, " AND is_done = 0 FORMAT Native");
	for (;;)
	{
		uint64		pending = 0;

		chfdw_run_query(st->conn, sql.data, st->database, unfinished_block, &pending);
		if (pending == 0)
			return;
		/* statement_timeout and cancel apply while we wait */
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 50,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

TupleTableSlot *
chfdwIterateDirectModify(ForeignScanState *node)
{
	ChFdwDirectState *st = (ChFdwDirectState *) node->fdw_state;
	EState	   *estate = node->ss.ps.state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;

	if (!st->done)
	{
		if (strchr(st->mutation_sql, '\x02') || strchr(st->count_sql, '\x02') ||
			strchr(st->lightweight_sql, '\x02'))
		{
			/* date columns in the condition: as Date, or the date of a DateTime */
			List	   *catalog = chfdw_remote_columns_xact(st->conn, st->database, st->table);

			chfdw_server_caps(st->conn);
			st->count_sql = chfdw_bind_date_columns(st->count_sql, st->relid, st->conn, catalog);
			st->mutation_sql = chfdw_bind_date_columns(st->mutation_sql, st->relid, st->conn,
													   catalog);
			st->lightweight_sql = chfdw_bind_date_columns(st->lightweight_sql, st->relid,
														  st->conn, catalog);
		}
		if (st->param_exprs != NIL)
		{
			/* now(), parameters, ...: written in as the statement starts */
			chfdw_server_caps(st->conn);
			st->count_sql = chfdw_bind_values(st->count_sql, st->param_exprs, st->econtext,
											  st->conn);
			st->mutation_sql = chfdw_bind_values(st->mutation_sql, st->param_exprs,
												 st->econtext, st->conn);
		}
		chfdw_server_caps(st->conn);
		if (st->lightweight_sql[0] && chfdw_caps(st->conn)->lightweight_delete)
		{
			/* rows are marked deleted at once: lighter than a mutation */
			st->mutation_sql = st->param_exprs != NIL ?
				chfdw_bind_values(st->lightweight_sql, st->param_exprs, st->econtext, st->conn) :
				st->lightweight_sql;
		}
		st->count = 0;
		chfdw_run_query(st->conn, st->count_sql, st->database, count_block, &st->count);
		if (st->count > 0)
		{
			chfdw_run_request(st->conn, st->mutation_sql, st->database, NULL, NULL);
			if (st->wait)
				wait_for_mutations(st);
		}
		st->done = true;
		if (st->set_tag)
			estate->es_processed += st->count;
	}
	return ExecClearTuple(slot);
}

void
chfdwEndDirectModify(ForeignScanState *node)
{
}

void
chfdwExplainDirectModify(ForeignScanState *node, ExplainState *es)
{
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;

	if (es->verbose)
	{
		const char *lw = strVal(list_nth(fsplan->fdw_private, FdwDirectModifyPrivateLightweightSql));

		ExplainPropertyText("Remote SQL",
							chfdw_explain_sql(strVal(list_nth(fsplan->fdw_private,
															  FdwDirectModifyPrivateMutationSql))),
							es);
		if (lw[0])
			ExplainPropertyText("Remote SQL (servers with lightweight DELETE)",
								chfdw_explain_sql(lw), es);
	}
}

/*
 * Row-at-a-time UPDATE/DELETE: PostgreSQL requires the callbacks to exist,
 * but PlanForeignModify refuses such plans, so these never run.
 */
TupleTableSlot *
chfdwExecForeignUpdateOrDelete(EState *estate, ResultRelInfo *rinfo,
							   TupleTableSlot *slot, TupleTableSlot *planSlot)
{
	elog(ERROR, "row-at-a-time changes are not supported by clickhouse_fdw");
	return NULL;
}

/*
 * TRUNCATE foreign tables: TRUNCATE TABLE in ClickHouse, one by one (ON
 * CLUSTER with the server option cluster, and for a Distributed table the
 * table it reads: ddl.c).
 */
void
chfdwExecForeignTruncate(List *rels, DropBehavior behavior, bool restart_seqs)
{
	ListCell   *lc;

	foreach(lc, rels)
		chfdw_truncate_remote((Relation) lfirst(lc));
}
