/*-------------------------------------------------------------------------
 * shippable.h
 *	  The shippability walker's internals shared by shippable.c (conditions,
 *	  values, constants) and aggregates.c (aggregates, ORDER BY).
 *
 * src/fdw/shippable.h
 *-------------------------------------------------------------------------
 */
#ifndef CHFDW_SHIPPABLE_H
#define CHFDW_SHIPPABLE_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/pathnodes.h"
#include "nodes/primnodes.h"

#include "chfdw.h"

typedef enum TypeClass
{
	TC_NONE,
	TC_INT,						/* int2, int4, int8 */
	TC_NUMERIC,
	TC_FLOAT,
	TC_TEXT,
	TC_DATE,
	TC_TIMESTAMPTZ,
	TC_BOOL,
	TC_UUID
} TypeClass;

typedef struct ShipCtx
{
	RelOptInfo *baserel;		/* the relation: a foreign table, or a join of
								 * foreign tables (root set) */
	Oid			relid;			/* a foreign table's OID (InvalidOid: a join) */
	Relids		visible;		/* the relations whose columns it sees (a
								 * SEMI or ANTI join: the outer side's) */
	PlannerInfo *root;			/* a join: where its tables' OIDs are found */
	bool		qualify;		/* columns by their per-relation aliases
								 * (chfdw_var_alias), as a join's SELECT
								 * sees its sub-SELECTs */
	ChFdwDeparse *dp;			/* deparsing: run-time values and the zone
								 * go there (NULL: shippability only) */
	bool		allow_aggs;		/* HAVING: aggregates are values */
	bool		text_bytes;		/* option text_sorts_as_bytes */
	bool		allow_outer;	/* join clauses: other relations' columns are
								 * run-time values (parameterized scans) */
	bool		may_raise;		/* PostgreSQL evaluates this position for
								 * every row ClickHouse does: values that
								 * raise PostgreSQL's errors may be sent
								 * (pushdown_map.c, CHFN_RAISES) */
	List	   *key_args;		/* (dates) checking a grouping key: the
								 * arguments of the call that is the whole
								 * key (a call sent only as a key:
								 * date_trunc), another non-NIL list when
								 * the key is no call; NIL: not a key */
} ShipCtx;

extern ShipCtx chfdw_ship_ctx(RelOptInfo *baserel, Oid relid);

/* in pushdown_map.c (dates): a call sent only as a whole grouping key (date_trunc) */
extern bool chfdw_is_key_only_call(Node *n);
extern bool chfdw_ts_key_column(ShipCtx *cx, Node *n);
extern void chfdw_deparse_int64_operand(StringInfo buf, ShipCtx *cx, Node *n);
extern void chfdw_deparse_ts_key(StringInfo buf, ShipCtx *cx, Node *n);
extern void chfdw_deparse_ts_key_minmax(StringInfo buf, ShipCtx *cx, Node *n);
/* correlated subqueries in a scan's conditions (subquery.c) */
extern bool chfdw_subplan_shippable(ShipCtx *cx, SubPlan *sp);
extern void chfdw_deparse_subplan(StringInfo buf, ShipCtx *cx, SubPlan *sp);
/* (subq3) an EXISTS under OR: PostgreSQL's two sub-plans for it */
extern bool chfdw_altsubplan_shippable(ShipCtx *cx, AlternativeSubPlan *asp);
extern void chfdw_deparse_altsubplan(StringInfo buf, ShipCtx *cx, AlternativeSubPlan *asp);
/* (subq4) IS [NOT] DISTINCT FROM of boolean conditions (shippable_distinct.c) */
extern bool chfdw_is_condition_node(Node *n);
extern bool chfdw_bool_distinct_applies(OpExpr *op);
extern bool chfdw_bool_distinct_shippable(ShipCtx *cx, OpExpr *op);
extern void chfdw_deparse_bool_distinct(StringInfo buf, ShipCtx *cx, OpExpr *op, bool want_true);
extern bool chfdw_bool_nulltest_shippable(ShipCtx *cx, NullTest *nt);
extern void chfdw_deparse_bool_nulltest(StringInfo buf, ShipCtx *cx, NullTest *nt, bool is_null);
extern ShipCtx chfdw_ship_ctx_join(PlannerInfo *root, RelOptInfo *joinrel);
extern Oid	chfdw_var_relid(ShipCtx *cx, Var *v);
extern TypeClass chfdw_type_class(Oid type);
extern Node *chfdw_strip_relabel(Node *n);
extern bool chfdw_is_our_var(ShipCtx *cx, Node *n);
extern const char *chfdw_const_text(Node *n);
extern void chfdw_deparse_const(StringInfo buf, Const *c);
extern bool chfdw_ordering_collation_ok(ShipCtx *cx, Oid collid);
extern bool chfdw_expr_shippable(ShipCtx *cx, Node *n);
extern bool chfdw_value_shippable(ShipCtx *cx, Node *n);
extern void chfdw_deparse_value(StringInfo buf, ShipCtx *cx, Node *n);
extern void chfdw_deparse_cond(StringInfo buf, ShipCtx *cx, Node *n, bool want_true, bool top);

/* in chfuncs.c: the extension's ClickHouse aggregates */
extern bool chfdw_is_chagg(Oid aggfnoid);
extern bool chfdw_chagg_shippable(ShipCtx *cx, Aggref *agg);
extern void chfdw_deparse_chagg(StringInfo buf, ShipCtx *cx, Aggref *agg);

/* in aggregates.c */
extern bool chfdw_aggref_shippable(ShipCtx *cx, Aggref *agg);
extern void chfdw_deparse_aggref(StringInfo buf, ShipCtx *cx, Aggref *agg);
/* (regr) in agg_regr.c */
extern bool chfdw_regr_shippable(ShipCtx *cx, Aggref *agg);
extern void chfdw_deparse_regr(StringInfo buf, ShipCtx *cx, Aggref *agg);
extern void chfdw_deparse_sort_value(StringInfo buf, ShipCtx *cx, Node *e, bool desc,
									 bool nulls_first);
/* (numagg) in aggregates.c, for agg_numeric.c */
extern void chfdw_agg_call(StringInfo buf, ShipCtx *cx, Aggref *agg, const char *fn,
						   const char *pre, Node *arg, const char *post);
extern void chfdw_agg_null_below(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg,
								 int min_rows);

/* (numagg) in agg_numeric.c: sum, avg, the variance family of numeric columns */
extern bool chfdw_numagg_shippable(ShipCtx *cx, Aggref *agg, Node *arg);
extern void chfdw_deparse_numagg(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg);
/* (numagg3) numeric sums in limbs as grouped outputs; their finish kind */
extern bool chfdw_numagg_output_shippable(ShipCtx *cx, Aggref *agg);
extern int	chfdw_numagg_finish_kind(Aggref *agg);

/* (floatagg) in agg_float.c: float sum, avg, the variance family with PostgreSQL's overflow */
extern void chfdw_deparse_float_sum(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg);
extern void chfdw_deparse_float_accum(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg,
									  const char *name, const char *chname);
extern const char *chfdw_variance_function(const char *name);
/* (dates5) in pushdown_dates5.c: a key over a DateTime64(7..9) column (stays local) */
extern bool chfdw_dates5_fine_ticks(ShipCtx *cx, Node *n);
extern int	chfdw_dates5_dt64_precision(ShipCtx *cx, Var *v);
/* (dt64) dt64.c */
extern void chfdw_dt64_round(StringInfo buf, const char *ref, int p, bool guard_end);
extern void chfdw_dt64_raw_column(StringInfo buf, ShipCtx *cx, Var *v);
extern bool chfdw_dt64_deparse_var(StringInfo buf, ShipCtx *cx, Var *v);
extern bool chfdw_dt64_bind(const ch_type **t, const char **ident, const char **end);
extern bool chfdw_dt64_in_list_ok(ShipCtx *cx, Node *l, Oid elemtype, Datum *elems, bool *nulls,
								  int n);
extern bool chfdw_two_arg_agg_ok(ShipCtx *cx, Aggref *agg, bool (*arg_ok) (ShipCtx *, Node *));
extern void chfdw_deparse_regr_avg_split(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *y, Node *x);

/* the most elements of an IN list or = ANY array sent */
#define MAX_IN_LIST 10000

/* in shippable.c, for shippable_ops.c */
extern bool chfdw_numeric_family(TypeClass c);
extern bool chfdw_const_shippable(Const *c);
extern bool chfdw_is_const_node(Node *n);
extern bool chfdw_nan_const(Node *n);

/* the elements of a constant array (deconstruct_array with its type's layout) */
typedef struct ChFdwArrayElems
{
	Oid			type;			/* the element type */
	int			ndim;
	int16		len;
	bool		byval;
	char		align;
	Datum	   *values;
	bool	   *nulls;
	int			n;
} ChFdwArrayElems;
extern void chfdw_array_elems(Datum array, ChFdwArrayElems *out);
extern Const *chfdw_array_elem_const(const ChFdwArrayElems *a, int i);
extern bool chfdw_param_value(ShipCtx *cx, Node *n);
extern bool chfdw_float_param_value(ShipCtx *cx, Node *n);
/* in shippable_ops.c: operators and ScalarArrayOps in conditions */
extern bool chfdw_builtin_operator(Oid opno, char *name, size_t namelen);
extern bool chfdw_opexpr_shippable(ShipCtx *cx, OpExpr *op);
extern bool chfdw_saop_shippable(ShipCtx *cx, ScalarArrayOpExpr *sa);
/* (numconst) in numconst.c: numeric columns against numeric constants */
extern bool chfdw_numeric_grid_scale(ShipCtx *cx, Node *n, int *scale);
extern bool chfdw_numconst_applies(ShipCtx *cx, Node *col, Node *c);
extern bool chfdw_numparam_applies(ShipCtx *cx, Node *l, Node *r, const char *op);
extern bool chfdw_numparam_compare(StringInfo buf, ShipCtx *cx, Node *l, Node *r, const char *op);
extern bool chfdw_numparam_bind(StringInfo buf, const char *m, Datum v);
extern bool chfdw_numparam_key(StringInfo buf, Datum v);
extern bool chfdw_numeric_runtime_value(Node *n);
extern bool chfdw_numconst_list_applies(ShipCtx *cx, Node *col, const ChFdwArrayElems *a);
extern bool chfdw_numconst_compare(StringInfo buf, ShipCtx *cx, Node *col, const char *op,
								   Node *c);
extern bool chfdw_numconst_in_list(StringInfo buf, ShipCtx *cx, ScalarArrayOpExpr *sa,
								   const ChFdwArrayElems *a);

#endif							/* CHFDW_SHIPPABLE_H */
