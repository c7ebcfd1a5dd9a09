/*-------------------------------------------------------------------------
 * pushdown_map.h
 *	  The table of PostgreSQL functions and value operators ClickHouse
 *	  computes with PostgreSQL's answer (pushdown_map.c), as the walker in
 *	  shippable.c consults it.
 *
 * src/fdw/pushdown_map.h
 *-------------------------------------------------------------------------
 */
#ifndef CHFDW_PUSHDOWN_MAP_H
#define CHFDW_PUSHDOWN_MAP_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"

#include "ch_transport.h"
#include "shippable.h"

/* What a row needs besides shippable arguments (ChFnRow.guards) */
#define CHFN_UTF8		0x01	/* a UTF-8 database (characters) */
#define CHFN_C_CTYPE	0x02	/* the input collation's ctype is C */
#define CHFN_UTC		0x04	/* the session's TimeZone is UTC (written in) */
#define CHFN_RAISES		0x08	/* raises where PostgreSQL does: only where
								 * PostgreSQL evaluates it for every row
								 * (ShipCtx.may_raise) */
#define CHFN_NOT_NAN	0x10	/* a double result that is never NaN */
#define CHFN_OWN_ARGS	0x20	/* check() decides about the arguments */

typedef struct ChFnRow ChFnRow;

/* Extra conditions on the arguments (constants, their types). */
typedef bool (*ChFnCheck) (ShipCtx *cx, List *args, const ChFnRow *row);

/* The ClickHouse SQL of a call when no template can say it. */
typedef void (*ChFnDeparse) (StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row);

struct ChFnRow
{
	const char *sig;			/* regprocedure / regoperator text:
								 * "lower(text)", "+(integer,integer)" */
	const char *tmpl;			/* ClickHouse form, $1..$9 the arguments
								 * (NULL: deparse) */
	uint32		guards;			/* CHFN_* */
	ChFnCheck	check;			/* NULL: none */
	ChFnDeparse deparse;		/* when tmpl is NULL */
	bool		(*cap) (const ch_caps *caps);	/* the server capability it
												 * needs (NULL: every
												 * server) */
	const char *arg;			/* a constant the callbacks use (a
								 * ClickHouse function name, a bound) */
};

extern const ChFnRow *chfdw_fn_row(Oid funcid);
extern const ChFnRow *chfdw_op_row(Oid opno);
extern bool chfdw_fn_row_ok(ShipCtx *cx, const ChFnRow *row, List *args, Oid inputcollid);
extern void chfdw_fn_deparse(StringInfo buf, ShipCtx *cx, const ChFnRow *row, List *args);

/* strfn: regexp_match of fixed-length patterns, as a condition and subscripted */
extern bool chfdw_regexp_match_test_ok(ShipCtx *cx, Node *n);
extern void chfdw_deparse_regexp_match_test(StringInfo buf, ShipCtx *cx, Node *n, bool is_null);
extern bool chfdw_match_item_ok(ShipCtx *cx, Node *n);
extern void chfdw_deparse_match_item(StringInfo buf, ShipCtx *cx, Node *n);

/* (casts) in pushdown_casts.c: text -> integers, make_date, date +/- integer */
extern const ChFnRow *chfdw_casts_fn_row(Oid funcid);
extern const ChFnRow *chfdw_casts_op_row(Oid opno);
extern bool chfdw_cast_text_ok(ShipCtx *cx, CoerceViaIO *io);
extern void chfdw_deparse_cast_text(StringInfo buf, ShipCtx *cx, CoerceViaIO *io);

/* in chfuncs.c: the extension's ClickHouse functions */
extern const ChFnRow *chfdw_chfunc_row(Oid funcid);
extern const ch_caps *chfdw_ship_caps(ShipCtx *cx);

/* in jsonb.c: jsonb operators on read_as 'json' columns */
extern bool chfdw_jsonb_check(ShipCtx *cx, List *args, const ChFnRow *row);
extern void chfdw_jsonb_deparse(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row);
extern bool chfdw_jsonb_bool_op(Node *n);
extern bool chfdw_jsonb_compare_shippable(ShipCtx *cx, OpExpr *op, const char *name);
extern bool chfdw_jsonb_nulltest_shippable(ShipCtx *cx, Node *arg);
extern bool chfdw_jsonb_saop_shippable(ShipCtx *cx, ScalarArrayOpExpr *sa);

/* in pushdown_dates.c (tochar): date_trunc() compared with a constant */
extern bool chfdw_date_trunc_compare_shippable(ShipCtx *cx, OpExpr *op, const char *name);
/* (dates5) in pushdown_dates5.c: a DateTime64(7..9) column compared with a value */
extern bool chfdw_dates5_compare(StringInfo buf, ShipCtx *cx, OpExpr *op, const char *name);
extern bool chfdw_dates5_in_list(StringInfo buf, ShipCtx *cx, ScalarArrayOpExpr *sa, Datum *elems,
								 bool *nulls, int cnt);
extern void chfdw_deparse_date_trunc_compare(StringInfo buf, ShipCtx *cx, OpExpr *op,
											 const char *name);

/* in shippable.c */
extern const char *chfdw_session_zone(void);
extern void chfdw_deparse_zone(StringInfo buf, ShipCtx *cx);

#endif							/* CHFDW_PUSHDOWN_MAP_H */
