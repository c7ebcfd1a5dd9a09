/*-------------------------------------------------------------------------
 * pushdown_interval.h
 *	  (interval) timestamp, timestamptz and date +/- interval of columns
 *	  (pushdown_interval.c), hooked into shippable.c's walker and deparser.
 *
 * src/fdw/pushdown_interval.h
 *-------------------------------------------------------------------------
 */
#ifndef CHFDW_PUSHDOWN_INTERVAL_H
#define CHFDW_PUSHDOWN_INTERVAL_H

#include "shippable.h"

extern bool chfdw_interval_node(Node *n);
extern bool chfdw_interval_value_ok(ShipCtx *cx, Node *n);
extern bool chfdw_interval_deparse(StringInfo buf, ShipCtx *cx, Node *n);
extern bool chfdw_interval_compare_ok(ShipCtx *cx, OpExpr *op, const char *name);
extern bool chfdw_interval_compare(StringInfo buf, ShipCtx *cx, OpExpr *op, const char *name);
extern bool chfdw_interval_null_guard(StringInfo buf, ShipCtx *cx, OpExpr *op);

#endif
