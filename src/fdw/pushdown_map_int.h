/*-------------------------------------------------------------------------
 * pushdown_map_int.h
 *	  What the files of the pushdown table share among themselves
 *	  (pushdown_map.c, pushdown_dates.c); not for the rest of the FDW.
 *
 * src/fdw/pushdown_map_int.h
 *-------------------------------------------------------------------------
 */
#ifndef CHFDW_PUSHDOWN_MAP_INT_H
#define CHFDW_PUSHDOWN_MAP_INT_H

#include "pushdown_map.h"
#include "shippable.h"

/*
 * A subexpression a form uses several times: written once as
 * "(expr AS chfdw_vN)" and elsewhere by its name (pushdown_map.c, sub()).
 */
typedef struct Sub
{
	const char *expr;
	const char *name;
	bool		defined;
} Sub;

extern const char *chfdw_pm_use(Sub *s);
extern Sub *chfdw_pm_sub(ShipCtx *cx, const char *expr);	/* (casts) */

/* in pushdown_dates.c: more date parts and date_trunc of timestamp columns */
extern bool chfdw_is_date_field(Node *n);
extern bool chfdw_check_date_field(ShipCtx *cx, List *args, bool dbl);
extern void chfdw_deparse_date_field(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row);
extern bool chfdw_check_date_trunc(ShipCtx *cx, List *args, const ChFnRow *row);
extern void chfdw_deparse_date_trunc(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row);
extern bool chfdw_check_ts_date(ShipCtx *cx, List *args, const ChFnRow *row);
extern void chfdw_deparse_ts_date(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row);

/* in pushdown_dates.c (tochar): to_char of timestamp, timestamptz and date columns */
extern bool chfdw_check_tochar(ShipCtx *cx, List *args);
extern void chfdw_deparse_tochar(StringInfo buf, ShipCtx *cx, List *args);

/* in pushdown_epoch.c (dates18): date parts from the epoch where Date32 is missing */
extern char *chfdw_alt_marker(AttrNumber attnum, const char *fast, const char *fallback);
extern char *chfdw_epoch_marker(AttrNumber attnum, char src, const char *spec,
								const char *fallback);
extern bool chfdw_epoch_extract(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row,
								void (*old) (StringInfo, ShipCtx *, List *, const ChFnRow *));

/* in pushdown_dates5.c (dates5): the fixed to_char patterns of a column */
extern Var *chfdw_dates5_plain_tstz(ShipCtx *cx, Node *n);
extern const char *chfdw_dates5_column_part(ShipCtx *cx, Var *v, char spec, const char *fn,
											const char *zone);
extern bool chfdw_dates5_qualified_date(ShipCtx *cx, Node *n);
extern Var *chfdw_dates5_date_cast(ShipCtx *cx, Node *n);

#endif
