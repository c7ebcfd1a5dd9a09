/*-------------------------------------------------------------------------
 * prefilter.h
 *	  (casts2) Pre-filters of local conditions that cast text columns to
 *	  date or numeric (prefilter.c), and the ClickHouse forms of their
 *	  nodes (pushdown_casts.c).
 *
 * src/fdw/prefilter.h
 *-------------------------------------------------------------------------
 */
#ifndef CHFDW_PREFILTER_H
#define CHFDW_PREFILTER_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/primnodes.h"

#include "shippable.h"

/*
 * A node of a pre-filter standing for a cast of a text column (a
 * CoerceViaIO the pre-filter made; found by its address in the relation's
 * ChFdwRelInfo.prefilter_nodes, so no node of a query is ever one):
 *	'd': the date the text reads as when it is in the simple date form,
 *		 else NULL (the node's type: date);
 *	'n': -1, 0 or 1 as the text's number compares with a constant when the
 *		 text is in the simple numeric form, else NULL (type: integer).
 */
typedef struct ChFdwPfNode
{
	CoerceViaIO *io;
	char		kind;
	/* 'n': the constant, without sign, leading and trailing zeros */
	int			csign;			/* -1, 0, 1 */
	const char *cint;			/* integer digits ("" for 0.x) */
	const char *cfrac;			/* fraction digits ("" for none) */
} ChFdwPfNode;

/* in prefilter.c */
extern ChFdwPfNode *chfdw_pf_node(ShipCtx *cx, CoerceViaIO *io);

/* in pushdown_casts.c */
extern Var *chfdw_cast_text_column(ShipCtx *cx, Node *n, char *kind);
extern bool chfdw_cast_ctype_ok(void);
extern bool chfdw_pf_node_ok(ShipCtx *cx, ChFdwPfNode *pf);
extern void chfdw_deparse_pf_node(StringInfo buf, ShipCtx *cx, ChFdwPfNode *pf);

#endif							/* CHFDW_PREFILTER_H */
