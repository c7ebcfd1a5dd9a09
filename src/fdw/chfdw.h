/*-------------------------------------------------------------------------
 * chfdw.h
 *	  Private declarations of the PostgreSQL-facing layer of clickhouse_fdw.
 *
 * src/fdw/chfdw.h
 *-------------------------------------------------------------------------
 */
#ifndef CHFDW_H
#define CHFDW_H

#include "postgres.h"

#include "fmgr.h"
#include "foreign/fdwapi.h"
#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "nodes/pathnodes.h"
#include "utils/relcache.h"

#include "ch_common.h"
#include "ch_transport.h"
#include "ch_native.h"
#include "ch_type.h"

/* Transports a foreign server can name. */
typedef enum ChFdwTransport
{
	CHFDW_TRANSPORT_HTTP,
	CHFDW_TRANSPORT_NATIVE
} ChFdwTransport;

/* Values of the server option "compression". */
#define CHFDW_COMPRESSION_NONE 0
#define CHFDW_COMPRESSION_LZ4 1
#define CHFDW_COMPRESSION_ZSTD 2
#define CHFDW_COMPRESSION_GZIP 3	/* responses HTTP gzip, bodies lz4 frames */
#define CHFDW_COMPRESSION_AUTO 4	/* none to loopback hosts, else lz4 (resolved
										 * by connection.c build_config) */

/* Flags of chfdw_begin_query. */
#define CHFDW_REQ_COMPRESS_RESPONSE 0x01	/* compress the response if the
											 * option says so */

/* in stats.c: counters of clickhouse_fdw_stats, per server x host */
typedef enum ChFdwStatKind
{
	CHFDW_STAT_QUERIES,
	CHFDW_STAT_INSERTS,			/* INSERT requests (blocks) */
	CHFDW_STAT_ROWS_RECEIVED,
	CHFDW_STAT_BYTES_RECEIVED,
	CHFDW_STAT_ROWS_SENT,		/* committed by ClickHouse */
	CHFDW_STAT_BYTES_SENT,
	CHFDW_STAT_RETRIES,			/* blocks sent again with their token */
	CHFDW_STAT_FAILOVERS,		/* requests moved to another host */
	CHFDW_STAT_WAIT_US,			/* time waiting on ClickHouse (last) */
	CHFDW_STAT_NKINDS
} ChFdwStatKind;
typedef struct ChFdwStatsEntry ChFdwStatsEntry;
#define CHFDW_STATS_HOST_LEN 256	/* "host:port", "[v6]:port" */
extern void chfdw_stats_init(void);
extern ChFdwStatsEntry *chfdw_stats_entry(Oid serverid, const char *server, const char *host);
extern void chfdw_stats_add(ChFdwStatsEntry *e, ChFdwStatKind kind, uint64 n);
extern void chfdw_stats_wait(uint64 us);
extern void chfdw_stats_error(int sqlstate);

/* Everything needed to reach a server as one user, from the catalogs. */
typedef struct ChFdwServerOptions
{
	char	   *host;			/* the first host of the option "host" */
	int			port;			/* the option "port", else the transport's
								 * default: of hosts written without one */
	char	   *hosts;			/* the option "host" as written; NULL: none */
	ch_load_balancing load_balancing;	/* with several hosts */
	char	   *dbname;
	ChFdwTransport transport;
	char	   *user;
	char	   *password;
	char	   *server_settings;	/* option "settings" of the server */
	char	   *user_settings;	/* option "settings" of the user mapping */
	int			connect_timeout;	/* seconds */
	int			receive_timeout;	/* seconds, 0 = none */
	int			compression;	/* CHFDW_COMPRESSION_* */
	bool		secure;			/* https */
	char	   *ca_file;		/* NULL: system CAs */
	int			compression_level;	/* zstd level */
	bool		host_set;		/* the server names a host */
	bool		password_required;	/* user mapping option, default true */
	ch_native_limits limits;	/* max_block_bytes, max_index_bytes,
								 * max_dictionary_size */
	char	   *proxy;			/* NULL: none */
} ChFdwServerOptions;

/* The longest proxy URL (option "proxy"), with its NUL. */
#define CHFDW_MAX_PROXY_LEN 512

#define CHFDW_MAX_HANDLES 16
#define CHFDW_RESERVED_HANDLES 4	/* never taken by async scans */

/*
 * A cached connection (one per user mapping, per backend): a small pool of
 * transport connections (ch_transport.h), each running one request at a
 * time, so that a scan in progress and another request (an INSERT fed by
 * that scan, a nested scan) can run at the same time. All of them are
 * made from one ch_conn_config (build_config in connection.c).
 */
typedef struct ChFdwConn
{
	Oid			umid;			/* hash key: user mapping OID */
	ch_conn    *handles[CHFDW_MAX_HANDLES];
	SubTransactionId handle_subid[CHFDW_MAX_HANDLES];	/* who opened its
														 * request */
	uint64		bytes_seen[CHFDW_MAX_HANDLES];	/* of its request's bytes
												 * received, those counted
												 * in the stats */
	int64		idle_since[CHFDW_MAX_HANDLES];	/* when its last request
												 * ended (TimestampTz) */
	int			nhandles;
	ch_conn_config cfg;			/* what the handles were made with */
	ch_endpoint endpoints[CH_MAX_HOSTS];	/* cfg.endpoints points here */
	ch_host_list hosts;			/* their names (chfdw_server_endpoints) */
	uint64		failovers_seen[CHFDW_MAX_HANDLES];	/* of a handle's failovers,
													 * those counted in the
													 * stats */
	ChFdwServerOptions opts;	/* in the cache's memory context */
	ch_native_limits limits;	/* for every Native reader on it */
	char		proxy[CHFDW_MAX_PROXY_LEN]; /* cfg.proxy points here */
	bool		made;			/* options read and pool set up */
	bool		caps_known;		/* server version probed */
	ch_caps		caps;			/* what the server can do (chfdw_caps) */
	bool		compression_auto;	/* opts.compression was 'auto' (resolved
									 * by build_config) */
	bool		invalidated;	/* options changed: rebuild when idle */
	uint32		server_hashvalue;
	uint32		mapping_hashvalue;
	uint64		queries;		/* remote queries sent on it */
	ChFdwStatsEntry *stats;		/* the server x host counters of the host
								 * its last request used, or NULL */
	Oid			serverid;		/* for the stats entries */
	char		servername[NAMEDATALEN];
	ChFdwStatsEntry *handle_stats[CHFDW_MAX_HANDLES];	/* a handle's host's
														 * entry (host_stats) */
	char		handle_stats_host[CHFDW_MAX_HANDLES][CHFDW_STATS_HOST_LEN];
	char		handle_kind[CHFDW_MAX_HANDLES]; /* its request: 'q' a query, 'i'
												 * an INSERT, 0 a connect only */
} ChFdwConn;

/* in option.c */
extern void chfdw_get_server_options(ForeignServer *server, UserMapping *user,
									 ChFdwServerOptions *opts);
extern int	chfdw_server_endpoints(const ChFdwServerOptions *opts, ch_host_list *storage,
								   ch_endpoint *eps);

extern void chfdw_get_table_names(Relation rel, const char **database,
								  const char **table);
extern char *chfdw_column_name(Oid relid, AttrNumber attnum);
extern char chfdw_column_read_as(Oid relid, AttrNumber attnum);
extern const char *chfdw_column_aggregate(Oid relid, AttrNumber attnum);
extern int	chfdw_precision_loss(Oid relid, AttrNumber attnum, const char *name);
extern void chfdw_get_write_options(Relation rel, int *batch_size, bool *rowbinary,
									bool *defer_to_commit);
extern int	chfdw_parallel_workers(Oid relid);
extern const char *chfdw_server_cluster(ForeignServer *server);

/* in settings.c */
extern void chfdw_parse_settings(const char *text, const char *what, List **out);
extern ch_setting *chfdw_request_settings(const char *server_settings,
										  const char *user_settings,
										  const ch_setting *extra, int nextra, int *n);

/* in chfdw.c */
extern char *chfdw_guc_settings;
extern char *chfdw_guc_insert_key;
extern void chfdw_scan_set_keys(ForeignScanState *node, const char *keys);

/* in subquery.c (and chfdw_is_our_rel in chfdw.c) */
extern void chfdw_subquery_init(void);
extern bool chfdw_is_our_rel(RelOptInfo *rel);
extern bool chfdw_is_union_path(ForeignPath *path);
extern ForeignScan *chfdw_union_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
									 List *tlist, Plan *outer_plan);
extern RangeTblEntry *chfdw_union_leg_rte(ForeignScan *plan);
extern void chfdw_union_check(ForeignScan *plan);

/* in keyjoin.c */
extern void chfdw_keyjoin_init(void);
extern char *chfdw_keyjoin_sql(const char *sql, const char *keys, MemoryContext cxt);

/* in connection.c */
extern ChFdwConn *chfdw_get_connection(UserMapping *user);
extern ch_conn *chfdw_begin_query(ChFdwConn *conn, const char *sql, const char *database,
								  int flags, ch_sink_fn raw_sink, void *raw_sink_ctx);
extern ch_conn *chfdw_begin_insert(ChFdwConn *conn, const char *sql, const char *database,
								   bool rowbinary, const char *dedup_token);
extern ch_status chfdw_next_block(ChFdwConn *conn, ch_conn *c, const ch_block **out,
								  long timeout_ms, ch_error *err);
extern ch_status chfdw_step(ChFdwConn *conn, ch_conn *c, long timeout_ms, ch_error *err);
extern bool chfdw_async_slot_free(ChFdwConn *conn);
extern ch_status chfdw_poll_block(ChFdwConn *conn, ch_conn *c, const ch_block **out,
								  ch_wait *wait, ch_error *err);
extern void chfdw_raise(ch_conn *c, ch_status st, const ch_error *err,
						const char *remote_sql) pg_attribute_noreturn();
extern void chfdw_run_request(ChFdwConn *conn, const char *sql, const char *database,
							  ch_sink_fn raw_sink, void *raw_sink_ctx);
typedef void (*chfdw_block_fn) (const ch_block *block, void *arg);
extern void chfdw_read_query(ChFdwConn *conn, ch_conn *c, const char *sql,
							 chfdw_block_fn on_block, void *arg);
extern ch_status chfdw_send_insert(ChFdwConn *conn, ch_conn *c, const uint8 *block,
								   size_t len, uint64 rows, ch_error *err);
extern void chfdw_run_insert(ChFdwConn *conn, const char *sql, const char *database,
							 const uint8 *block, size_t len, uint64 rows, bool rowbinary,
							 const char *dedup_token);
extern void chfdw_server_caps(ChFdwConn *conn);
extern const ch_caps *chfdw_caps(ChFdwConn *conn);
/* (probes) in probe.c: asked at plan time, NULL when the server cannot be asked */
extern const ch_caps *chfdw_caps_try(Oid userid, Oid serverid);
extern bool chfdw_caps_failed(Oid serverid);
extern bool chfdw_request_live(ChFdwConn *conn, ch_conn *c, uint64 request);
extern void chfdw_wait(const ch_wait *wait);
extern void chfdw_abandon(ChFdwConn *conn, ch_conn *c);

/* in error.c */
extern void chfdw_report(int elevel, ch_status st, const ch_error *err,
						 const char *remote_sql, const char *query_id) pg_attribute_noreturn();
extern void chfdw_report_detail(int elevel, ch_status st, const ch_error *err,
								const char *remote_sql, const char *query_id,
								const char *extra) pg_attribute_noreturn();
extern const ch_allocator *chfdw_allocator(MemoryContext cxt);
extern const char *chfdw_clean_server_text(const char *s);

/*
 * in error.c (fnmore): the errors a pushed-down guard makes ClickHouse
 * raise (pushdown_map.c), each reported with PostgreSQL's own SQLSTATE and
 * message
 */
typedef enum ChFdwRaise
{
	CHFDW_RAISE_INT2,			/* 22003 smallint out of range */
	CHFDW_RAISE_INT4,			/* 22003 integer out of range */
	CHFDW_RAISE_INT8,			/* 22003 bigint out of range */
	CHFDW_RAISE_DIV0,			/* 22012 division by zero */
	CHFDW_RAISE_TOO_LONG,		/* 54000 requested length too large (strfn) */
	CHFDW_RAISE_OVERFLOW,		/* 22003 value out of range: overflow */
	CHFDW_RAISE_UNDERFLOW,		/* 22003 value out of range: underflow */
	CHFDW_RAISE_SQRT,			/* 2201F square root of a negative number */
	/* (subq3) 21000: a scalar subquery of two rows or more (subquery.c) */
	CHFDW_RAISE_SUBQUERY_ROWS,
	CHFDW_RAISE_DATE_PARTS,		/* 22008 a date past 18.16's date functions */
	/* (dates) 22008: a timestamp column's date parts ClickHouse cannot compute */
	CHFDW_RAISE_TS_PARTS,		/* past 18.16's table of days (DateTime) */
	CHFDW_RAISE_TS_ZONE_ENDS,	/* DateTime64's first/last day in another zone */
	CHFDW_RAISE_TS_ROUND,		/* DateTime64(7..9) rounds past DateTime64's end (dt64.c) */
	CHFDW_RAISE_TS_FIRST_DAY,	/* before 18.16's first local day in the zone */
	/* (tochar) 22023: jsonb_array_length of what is no array (jsonb.c) */
	CHFDW_RAISE_JSONB_SCALAR,	/* cannot get array length of a scalar */
	CHFDW_RAISE_JSONB_NONARRAY	/* cannot get array length of a non-array */
} ChFdwRaise;
extern const char *chfdw_raise_marker(ChFdwRaise r);

/*
 * (casts) in error.c: errors whose PostgreSQL message quotes a value the
 * guard sends with the marker (pushdown_casts.c)
 */
typedef enum ChFdwRaiseValue
{
	CHFDW_RV_INT2_SYNTAX,		/* 22P02 invalid input syntax for type smallint */
	CHFDW_RV_INT4_SYNTAX,
	CHFDW_RV_INT8_SYNTAX,
	CHFDW_RV_INT2_RANGE,		/* 22003 value "..." is out of range for type */
	CHFDW_RV_INT4_RANGE,
	CHFDW_RV_INT8_RANGE,
	CHFDW_RV_DATE_FIELD,		/* 22008 date field value out of range: y-mm-dd */
	CHFDW_RV_DATE_RANGE,		/* 22008 date out of range: y-mm-dd */
	CHFDW_RV_DATE_OUT,			/* 22008 date out of range (date_pli) */
	CHFDW_RV_DATE_CH16,			/* 22008 a date past 18.16's Date (not PostgreSQL's) */
	CHFDW_RV_DATE_CH32			/* 22008 a date past Date32 (not PostgreSQL's) */
} ChFdwRaiseValue;
extern const char *chfdw_raise_value_marker(ChFdwRaiseValue r);

/* in remote.c */
extern void chfdw_run_query(ChFdwConn *conn, const char *sql, const char *database,
							chfdw_block_fn on_block, void *arg);
extern double chfdw_remote_table_rows(ChFdwConn *conn, const char *database,
									  const char *table);
extern bool chfdw_use_remote_estimate(Oid relid);
extern bool chfdw_async_capable(Oid relid, Oid serverid);
extern bool chfdw_wait_mutations(Oid relid);
extern bool chfdw_read_final(Oid relid);
extern double chfdw_remote_count(ChFdwConn *conn, const char *database, const char *table);
extern bool chfdw_text_sorts_as_bytes(Oid relid);
extern bool chfdw_table_deduplicates(ChFdwConn *conn, const char *database, const char *table);
extern List *chfdw_remote_columns(ChFdwConn *conn, const char *database,
								  const char *table, bool missing_ok);
extern List *chfdw_remote_columns_xact(ChFdwConn *conn, const char *database,
									   const char *table);
extern const char *chfdw_catalog_zone(List *catalog_columns, const char *remote_name);
extern bool chfdw_column_computes_as_declared(Oid relid, AttrNumber attnum, Oid atttype,
											  Oid userid);
extern bool chfdw_column_json_exact(Oid relid, AttrNumber attnum, Oid userid);
/* (casts) in remote.c: 's' String, 'f' FixedString, 0 other/unknown */
extern char chfdw_column_string_kind(Oid relid, AttrNumber attnum, Oid userid);
/* (lcfix) in remote.c: a LowCardinality column? */
extern bool chfdw_column_low_cardinality(Oid relid, AttrNumber attnum, Oid userid);
/* (numagg) in remote.c: a numeric column's Decimal or integer type */
extern bool chfdw_column_numeric_type(Oid relid, AttrNumber attnum, Oid userid, int *kind,
									  int *precision, int *scale);
extern char *chfdw_bind_date_columns(const char *sql, Oid relid, ChFdwConn *conn,
									 List *catalog_columns);
/* (dates5) in pushdown_dates5.c: comparisons of DateTime64(7..9) columns */
/* remote.c: a plan-time question to ClickHouse whose failure is dropped */
extern bool chfdw_try_remote(void (*fn) (void *arg), void *arg);
extern bool chfdw_dates5_bind_value(StringInfo buf, const char *marker, Oid type, Datum v);
/* (dates18) in pushdown_epoch.c: date parts from the epoch on servers without Date32 */
extern void chfdw_bind_epoch(StringInfo buf, const char *spec, int spec_len, const char *body,
							 const char *end, const ch_type *t, Oid relid, AttrNumber attnum,
							 ChFdwConn *conn, List *catalog_columns);
extern bool chfdw_explain_epoch(StringInfo buf, const char *m, const char *colon,
								const char *end);

/* A ClickHouse column as the catalog describes it. */
typedef struct ChFdwRemoteColumn
{
	char	   *name;
	char	   *type_name;
	char	   *default_kind;	/* "", DEFAULT, MATERIALIZED, ALIAS */
} ChFdwRemoteColumn;

/* in analyze.c */
extern bool chfdwAnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func,
									 BlockNumber *totalpages);

/* Costs: a remote query, a row that travels and is converted, a row ClickHouse reads. */
#define DEFAULT_STARTUP_COST 100.0
#define DEFAULT_ROW_COST 0.01
#define REMOTE_SCAN_ROW_COST 0.0001

/*
 * Planner state of a relation ClickHouse computes (fdw_private of a foreign
 * base relation, a join of foreign tables of one server and user mapping,
 * or a grouped relation over a foreign table), shared by the planner
 * callbacks and the deparser.
 */
typedef struct ChFdwRelInfo
{
	Oid			relid;			/* base: the foreign table; upper: the one
								 * it aggregates; join: InvalidOid */
	Oid			serverid;
	Oid			userid;			/* the user it runs as (with serverid: the
								 * user mapping; not looked up at plan time,
								 * so plain EXPLAIN needs none) */
	List	   *remote_conds;	/* RestrictInfos ClickHouse evaluates (a
								 * join: in the WHERE above the join) */
	List	   *local_conds;	/* RestrictInfos PostgreSQL evaluates */
	List	   *rewritten_from;	/* baserestrictinfo entries sent as an
								 * equivalent condition (rewrite.c) ... */
	List	   *rewritten_to;	/* ... the RestrictInfos of remote_conds
								 * sent for them, in the same order */
	double		scanned;		/* rows ClickHouse reads for it (costs) */
	/* a grouped (upper) relation computed by ClickHouse */
	bool		is_upper;
	RelOptInfo *outerrel;		/* upper: the foreign base relation it
								 * aggregates; join: the outer side */
	List	   *grouped_tlist;	/* TargetEntries: what ClickHouse returns */
	List	   *having_quals;	/* bare HAVING clauses ClickHouse evaluates */
	List	   *group_exprs;	/* upper: the GROUP BY keys, in the grouped
								 * relation's own Vars (a partition's, in
								 * partition-wise aggregation) */
	/* a column named as the sent SQL's aliases (deparse.c chfdw_alias_like_columns) */
	bool		alias_like;
	/* a join computed by ClickHouse (plan.c) */
	bool		is_join;
	RelOptInfo *innerrel;
	JoinType	jointype;		/* INNER, LEFT, RIGHT, FULL, SEMI, ANTI */
	List	   *outer_keys;		/* Vars of outerrel equal to ... */
	List	   *inner_keys;		/* ... these Vars of innerrel, pairwise */
	List	   *outer_side_conds;	/* bare ON clauses on the outer side alone
									 * (RIGHT JOIN) */
	List	   *inner_side_conds;	/* ... on the inner side alone (LEFT JOIN) */
	PlannerInfo *root;			/* a join: where its tables are found */
	Relids		visible;		/* a join: the relations whose columns it
								 * returns (SEMI, ANTI: the outer side's) */
	/* a DISTINCT or window stage (window.c), is_upper set too */
	UpperRelationKind stage;	/* UPPERREL_DISTINCT, UPPERREL_WINDOW; 0 (not
								 * a stage) otherwise */
	RelOptInfo *stage_input;	/* the relation below it (a base relation,
								 * a join or a grouped relation); outerrel
								 * is then the base relation or join */
	List	   *stage_tlist;	/* TargetEntries: what ClickHouse returns */
	bool		grouping_sets;	/* grouped: GROUP BY GROUPING SETS sent */
	bool		grouping_union; /* ... as a UNION ALL of one SELECT per set
								 * (chfdw_deparse_grouping_union) */
	List	   *subplans;		/* base: its conditions' correlated
								 * subqueries ClickHouse can compute
								 * (subquery.c) */
	/* (casts2) local conditions sent besides as pre-filters (prefilter.c) */
	List	   *prefilter_from; /* RestrictInfos of local_conds ... */
	List	   *prefilter_to;	/* ... and their pre-filters (bare), in order */
	List	   *prefilter_nodes;	/* ChFdwPfNode: the casts' nodes in them */
} ChFdwRelInfo;

/* (casts2) in prefilter.c */
extern void chfdw_prefilter_add(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
								RestrictInfo *ri);
extern List *chfdw_prefilter_exprs(RelOptInfo *baserel, List *clauses);

/* (subq4) in subquery_union.c: the member of a UNION ALL that names its columns */
extern int	chfdw_union_naming_member(List *leg_cols);

/* in subquery.c: the correlated subqueries of a foreign table's conditions */
extern List *chfdw_subplans_prepare(PlannerInfo *root, RelOptInfo *baserel, ChFdwRelInfo *fp);
/* (subq3) in window.c: an empty grouping set over no rows */
extern bool chfdw_grouping_sets_need_agg(PlannerInfo *root, List *outputs);
/* (subq3) and of its SELECT list */
extern List *chfdw_subplan_scan_tlist(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
									  List *scan_tlist, List *local_exprs);

/*
 * The explicit state of deparsing one remote query (no static state): the
 * TimeZone written into the SQL (NULL: none; the plan keeps it and refuses
 * to run under another) and its run-time values (the ForeignScan's
 * fdw_exprs, in marker order), and a counter for sub-SELECT and join key
 * aliases.
 */
typedef struct ChFdwDeparse
{
	PlannerInfo *root;
	const char *zone;
	List	   *params;
	int			nalias;
	const char *over;			/* "(<window>)": aggregates deparsed now are
								 * window aggregates (window.c) */
} ChFdwDeparse;

/* in shippable.c */
extern bool chfdw_is_shippable(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
							   Expr *clause);
extern bool chfdw_is_shippable_join(RelOptInfo *baserel, Oid relid, Expr *clause);
extern void chfdw_deparse_where(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
								Oid relid, List *conds);
/* (lcfix) in lowcard.c: the FROM and WHERE of a grouped query over a foreign table */
extern void chfdw_deparse_grouped_from(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
									   Oid relid, List *conds);
extern bool chfdw_is_shippable_rel(PlannerInfo *root, RelOptInfo *rel, Expr *clause);
extern void chfdw_deparse_rel_conds(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *rel,
									const char *keyword, List *conds);
extern void chfdw_deparse_date_column(StringInfo buf, Oid relid, AttrNumber attnum);
extern void chfdw_deparse_fraction_column(StringInfo buf, Oid relid, AttrNumber attnum);
extern void chfdw_deparse_zoned_column(StringInfo buf, Oid relid, AttrNumber attnum,
									   bool with_zone);
extern bool chfdw_is_shippable_having(RelOptInfo *baserel, Oid relid, Expr *clause);
extern void chfdw_deparse_having(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
								 Oid relid, List *conds);
extern bool chfdw_pathkeys_shippable(RelOptInfo *baserel, Oid relid, List *pathkeys,
									 List *outputs);
extern void chfdw_deparse_order_by(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
								   Oid relid, List *pathkeys, List *outputs);
extern bool chfdw_is_shippable_grouping_expr(RelOptInfo *baserel, Oid relid, Expr *expr,
											 bool is_group_key);
extern bool chfdw_group_key_shippable(RelOptInfo *baserel, Oid relid, Expr *expr,
									  bool may_raise);
extern void chfdw_deparse_grouping_expr(ChFdwDeparse *dp, StringInfo buf,
										RelOptInfo *baserel, Oid relid, Expr *expr);
extern bool chfdw_grouped_pathkeys_shippable(RelOptInfo *baserel, Oid relid, List *pathkeys,
											 List *grouped_tlist);
extern void chfdw_deparse_grouped_order_by(ChFdwDeparse *dp, StringInfo buf,
										   RelOptInfo *baserel, Oid relid,
										   List *pathkeys, List *grouped_tlist,
										   bool grouping_sets);
extern void chfdw_deparse_init(ChFdwDeparse *dp, PlannerInfo *root);
extern char *chfdw_bind_values(const char *sql, List *exprs, struct ExprContext *econtext,
							   ChFdwConn *conn);
extern char *chfdw_explain_sql(const char *sql);
/* (subq4) in remote.c: a run-time value marker's number and kind */
extern const char *chfdw_parse_value_marker(const char *m, long *idx, bool *operand);
extern const char *chfdw_find_key_marker(const char *sql, long idx, int *len);
extern void chfdw_deparse_datum(StringInfo buf, Oid type, Datum v, const ChFdwConn *conn);
extern void chfdw_deparse_float8(StringInfo buf, double f);
extern Node *chfdw_plan_zone(ChFdwDeparse *dp);
#define CHFDW_FINISH_NONE 0
#define CHFDW_FINISH_AVG 1
#define CHFDW_FINISH_ARRAY 2
#define CHFDW_FINISH_VAR_SAMP 3
#define CHFDW_FINISH_VAR_POP 4
#define CHFDW_FINISH_STDDEV_SAMP 5
#define CHFDW_FINISH_STDDEV_POP 6
/* (numagg) of numeric columns (agg_numeric.c): CHFDW_FINISH_NUM_AVG + 1..4 the variance family */
#define CHFDW_FINISH_NUM_AVG 7
#define CHFDW_FINISH_NUM_VAR_SAMP 8
#define CHFDW_FINISH_NUM_VAR_POP 9
#define CHFDW_FINISH_NUM_STDDEV_SAMP 10
#define CHFDW_FINISH_NUM_STDDEV_POP 11
/* (numagg3) sum of a numeric column in 32-bit limbs (agg_numeric.c) */
#define CHFDW_FINISH_NUM_SUM 12
/* (regr) corr, covar_*, regr_*: CHFDW_FINISH_REGR + the index in agg_regr.c */
#define CHFDW_FINISH_REGR 16
/* in finish.c */
extern Datum chfdw_finish_value(int kind, Datum value, bool *isnull);
extern int	chfdw_agg_finish(Expr *expr);
/* in agg_regr.c */
extern bool chfdw_is_regr_agg(Aggref *agg);
extern int	chfdw_regr_finish_kind(Aggref *agg);
extern Datum chfdw_regr_finish(int kind, Datum value, bool *isnull);
extern bool chfdw_has_regr_agg(Node *n);
/* (floatagg) in agg_float.c */
extern bool chfdw_is_float_accum_agg(Aggref *agg);
extern Datum chfdw_regr_avg_split_finish(const char *s, PGFunction final, bool *isnull, Datum value);
extern void chfdw_deparse_float_guards(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
									   Oid relid, List *tlist);
/* (floathaving) in agg_float.c */
extern void chfdw_deparse_float_having(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
									   Oid relid, List *tlist, List *having, bool grouped);
extern bool chfdw_having_stays_local(Node *outputs, Node *having);
extern bool chfdw_float_sql_fits(PlannerInfo *root, RelOptInfo *input_rel, Oid relid, List *tlist,
								 List *having, List *group_exprs, bool grouping_sets,
								 bool as_union, List *pathkeys);
extern void chfdw_check_plan_zone(Node *zone);
extern bool chfdw_is_shippable_value(RelOptInfo *baserel, Oid relid, Expr *expr);
extern void chfdw_deparse_value_expr(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
									 Oid relid, Expr *expr);

/* in plan.c */
extern void chfdwGetForeignJoinPaths(PlannerInfo *root, RelOptInfo *joinrel,
									 RelOptInfo *outerrel, RelOptInfo *innerrel,
									 JoinType jointype, JoinPathExtraData *extra);
extern List *chfdw_join_scan_tlist(RelOptInfo *joinrel);
extern char *chfdw_join_relations(PlannerInfo *root, RelOptInfo *joinrel);

/* in window.c */
extern void chfdw_distinct_paths(PlannerInfo *root, RelOptInfo *input_rel,
								 RelOptInfo *output_rel);
extern void chfdw_window_paths(PlannerInfo *root, RelOptInfo *input_rel,
							   RelOptInfo *output_rel);
extern bool chfdw_grouping_sets_ok(PlannerInfo *root, RelOptInfo *input_rel, bool *as_union);
extern bool chfdw_grouping_union_ok(PlannerInfo *root, List *outputs);
extern void chfdw_deparse_grouping_union(ChFdwDeparse *dp, StringInfo buf, PlannerInfo *root,
										 RelOptInfo *baserel, Oid relid, List *outputs,
										 List *conds);
extern bool chfdw_contains_grouping_func(Node *node);
extern void chfdw_deparse_grouped_output(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
										 Oid relid, Expr *expr, bool grouping_sets);
extern bool chfdw_alias_like_columns(Oid relid);
extern bool chfdw_window_run(Query *parse, List *stage_tlist);
extern char *chfdw_run_alias(PlannerInfo *root, RelOptInfo *bottom);
extern void chfdw_deparse_run_conditions(StringInfo buf, Query *parse, List *stage_tlist,
										 const char *alias);
extern void chfdw_deparse_stage_settings(StringInfo buf, bool join, bool grouping_sets,
										 bool windows);
extern void chfdw_deparse_stage_output(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
									   Oid relid, Expr *expr, bool grouping_sets, int *finish);
extern void chfdw_deparse_grouping_sets(ChFdwDeparse *dp, StringInfo buf, PlannerInfo *root,
										RelOptInfo *baserel, Oid relid);
extern ForeignScan *chfdw_stage_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
									 List *tlist, Plan *outer_plan, int64 limit);

/* in deparse.c */
extern void chfdw_quote_identifier(StringInfo buf, const char *ident);
extern void chfdw_deparse_table(StringInfo buf, Relation rel);
extern void chfdw_quote_literal(StringInfo buf, const char *s);
extern void chfdw_deparse_select(StringInfo buf, PlannerInfo *root, RelOptInfo *baserel,
								 Relation rel, Bitmapset *attrs_used,
								 List **retrieved_attrs);
extern void chfdw_deparse_column(StringInfo buf, Oid relid, AttrNumber attnum);
extern void chfdw_var_alias(StringInfo buf, Var *v);
extern void chfdw_deparse_join_from(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *joinrel);
/* in chfuncs.c: ClickHouse's own functions in a plain scan's SELECT list */
extern List *chfdw_chfunc_scan_tlist(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
									 List *local_exprs);
/* in chfuncs.c: ... and in the SELECT list of a join ClickHouse computes */
extern List *chfdw_chfunc_join_tlist(PlannerInfo *root, RelOptInfo *joinrel, List *scan_tlist);
extern void chfdw_chfunc_deparse_join_value(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *joinrel,
											Expr *e);
/* in chfuncs.c: the tables of a statement running one of this FDW's scans */
extern void chfdw_chfunc_note_executor(struct EState *estate);
extern void chfdw_deparse_rel_select(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *rel,
									 Relation baserel_rel, Bitmapset *attrs_used,
									 List *scan_tlist, List *remote_exprs,
									 List *pathkeys, int64 limit,
									 List **retrieved_attrs);

/* in convert.c */
typedef struct ChFdwColConv ChFdwColConv;
extern ChFdwColConv *chfdw_make_converter(const ch_type *chtype, Oid pgtype,
										  int32 typmod, const char *colname);
extern void chfdw_convert(ChFdwColConv *cc, const ch_column *col, uint64 row,
						  Datum *value, bool *isnull);
extern Oid	chfdw_natural_type(const ch_type *t, int32 *typmod);
extern void chfdw_converter_set_zone(ChFdwColConv *cc, const char *tz);
extern bool chfdw_converter_needs_zone(const ChFdwColConv *cc);
extern bool chfdw_converter_has_bulk(ChFdwColConv *cc);
extern void chfdw_converter_new_block(ChFdwColConv *cc);
extern uint64 chfdw_convert_rows(ChFdwColConv *cc, const ch_column *col, uint64 first,
								 uint64 n, Datum *values, bool *isnull, int stride,
								 MemoryContext block_cxt);

/* in modify.c */
struct ModifyTable;
struct ModifyTableState;
struct ResultRelInfo;
struct EState;
struct TupleTableSlot;
struct ExplainState;
extern List *chfdwPlanForeignModify(PlannerInfo *root, struct ModifyTable *plan,
									Index resultRelation, int subplan_index);
extern void chfdwBeginForeignModify(struct ModifyTableState *mtstate,
									struct ResultRelInfo *rinfo, List *fdw_private,
									int subplan_index, int eflags);
extern struct TupleTableSlot *chfdwExecForeignInsert(struct EState *estate,
													 struct ResultRelInfo *rinfo,
													 struct TupleTableSlot *slot,
													 struct TupleTableSlot *planSlot);
extern int	chfdwGetForeignModifyBatchSize(struct ResultRelInfo *rinfo);
extern void chfdwEndForeignModify(struct EState *estate, struct ResultRelInfo *rinfo);
extern void chfdwBeginForeignInsert(struct ModifyTableState *mtstate,
									struct ResultRelInfo *rinfo);
extern void chfdwEndForeignInsert(struct EState *estate, struct ResultRelInfo *rinfo);
extern int	chfdwIsForeignRelUpdatable(Relation rel);
extern void chfdwExplainForeignModify(struct ModifyTableState *mtstate,
									  struct ResultRelInfo *rinfo, List *fdw_private,
									  int subplan_index, struct ExplainState *es);

/* in direct.c */
struct ForeignScanState;
extern bool chfdwPlanDirectModify(PlannerInfo *root, struct ModifyTable *plan,
								  Index resultRelation, int subplan_index);
extern void chfdwBeginDirectModify(struct ForeignScanState *node, int eflags);
extern struct TupleTableSlot *chfdwIterateDirectModify(struct ForeignScanState *node);
extern void chfdwEndDirectModify(struct ForeignScanState *node);
extern void chfdwExplainDirectModify(struct ForeignScanState *node, struct ExplainState *es);
extern void chfdwExecForeignTruncate(List *rels, DropBehavior behavior, bool restart_seqs);
extern struct TupleTableSlot *chfdwExecForeignUpdateOrDelete(struct EState *estate,
															 struct ResultRelInfo *rinfo,
															 struct TupleTableSlot *slot,
															 struct TupleTableSlot *planSlot);

/* in deferred.c */
#include "access/xact.h"
extern void chfdw_defer_block(uint64 key, ChFdwConn *conn, const char *sql,
							  const char *database, const uint8 *data, size_t len,
							  bool rowbinary, uint64 rows, const char *token);
extern void chfdw_deferred_xact_event(XactEvent event);
extern void chfdw_deferred_subxact_abort(SubTransactionId subid);
extern void chfdw_deferred_subxact_commit(SubTransactionId subid, SubTransactionId parent);
extern int64 chfdw_deferred_rows(void);

/* in convert_out.c */
typedef struct ChFdwOutConv ChFdwOutConv;
typedef struct ch_colbuf ch_colbuf;
struct TupleTableSlot;

extern ChFdwOutConv *chfdw_make_out_converter(Oid pgtype, const ch_type *t,
											  const char *colname);
#define CHFDW_LOSS_ERROR 0
#define CHFDW_LOSS_TRUNCATE 1
#define CHFDW_LOSS_ROUND 2
extern const ch_type *chfdw_out_converter_wire_type(ChFdwOutConv *oc);
extern void chfdw_out_converter_set_loss(ChFdwOutConv *oc, int datetime_loss, int decimal_loss);
extern void chfdw_write_value(ChFdwOutConv *oc, ch_colbuf *col, Datum value, bool isnull);

/* in parallel.c */
typedef struct ChFdwParallelScan ChFdwParallelScan;
extern bool chfdwIsForeignScanParallelSafe(PlannerInfo *root, RelOptInfo *rel,
										   RangeTblEntry *rte);
extern void chfdw_add_partial_path(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
								   Cost startup, Cost total);
/* rewrite.c: an equivalent condition ClickHouse may compute, or NULL */
extern Expr *chfdw_rewrite_cond(RelOptInfo *baserel, Expr *clause);
extern Expr *chfdw_clamp_time(Expr *v);
extern Cost chfdw_scan_cost(PlannerInfo *root, RelOptInfo *baserel, List *remote_conds,
							 List *local_conds);
extern ChFdwParallelScan *chfdw_parallel_begin(ChFdwConn *conn, const char *database,
											   const char *table, const char *sql,
											   bool has_where);
extern Size chfdwEstimateDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt);
extern void chfdwInitializeDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt,
										  void *coordinate);
extern void chfdwReInitializeDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt,
											void *coordinate);
extern void chfdwInitializeWorkerForeignScan(ForeignScanState *node, shm_toc *toc,
											 void *coordinate);
extern void chfdw_parallel_rescan(ChFdwParallelScan *ps);
extern char *chfdw_parallel_next_sql(ChFdwParallelScan *ps, MemoryContext cxt);
extern void chfdw_parallel_explain(ChFdwParallelScan *ps, struct ExplainState *es);
/* in chfdw.c, for parallel.c: the scan's parallel state, NULL if not parallel-aware */
extern ChFdwParallelScan *chfdw_scan_parallel(ForeignScanState *node);

/* in ddl.c: distributed DDL (ON CLUSTER) */
extern void chfdw_truncate_remote(Relation rel);
extern char *chfdw_sql_on_cluster(const char *sql, const char *cluster);
extern void chfdw_run_on_cluster(ChFdwConn *conn, const char *sql, const char *database,
								 const char *cluster);

/* in jsonb.c: which read_as 'json' column types its operators are sent on */
extern bool chfdw_jsonb_type_exact(const ch_type *t);

/* in import.c */
extern List *chfdwImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid);

#endif							/* CHFDW_H */
