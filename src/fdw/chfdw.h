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
#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "nodes/pathnodes.h"
#include "utils/relcache.h"

#include "ch_common.h"
#include "ch_http.h"
#include "ch_native.h"
#include "ch_type.h"

/* Transports a foreign server can name. */
typedef enum ChFdwTransport
{
	CHFDW_TRANSPORT_HTTP,
	CHFDW_TRANSPORT_NATIVE
} ChFdwTransport;

/* Everything needed to reach a server as one user, from the catalogs. */
typedef struct ChFdwServerOptions
{
	char	   *host;
	int			port;
	char	   *dbname;
	ChFdwTransport transport;
	char	   *user;
	char	   *password;
} ChFdwServerOptions;

/* A cached connection (one per user mapping, per backend). */
typedef struct ChFdwConn
{
	Oid			umid;			/* hash key: user mapping OID */
	ch_http_conn *http;
	ChFdwServerOptions opts;	/* in the cache's memory context */
	bool		invalidated;	/* options changed: rebuild when idle */
	uint32		server_hashvalue;
	uint32		mapping_hashvalue;
	uint64		queries;		/* remote queries sent on it */
} ChFdwConn;

/* in option.c */
extern void chfdw_get_server_options(ForeignServer *server, UserMapping *user,
									 ChFdwServerOptions *opts);
extern void chfdw_get_table_names(Relation rel, const char **database,
								  const char **table);
extern char *chfdw_column_name(Oid relid, AttrNumber attnum);

/* in connection.c */
extern ChFdwConn *chfdw_get_connection(UserMapping *user);
extern void chfdw_begin_query(ChFdwConn *conn, const char *sql, const char *database,
							  ch_sink_fn sink, void *sink_ctx, char *query_id_out,
							  size_t query_id_len);
extern ch_status chfdw_step(ChFdwConn *conn, ch_wait *wait, ch_error *err);
extern void chfdw_wait(const ch_wait *wait);
extern void chfdw_abort_query(ChFdwConn *conn);

/* in error.c */
extern void chfdw_report(int elevel, ch_status st, const ch_error *err,
						 const char *remote_sql, const char *query_id) pg_attribute_noreturn();
extern const ch_allocator *chfdw_allocator(MemoryContext cxt);

/* in deparse.c */
extern void chfdw_quote_identifier(StringInfo buf, const char *ident);
extern void chfdw_deparse_select(StringInfo buf, PlannerInfo *root, RelOptInfo *baserel,
								 Relation rel, Bitmapset *attrs_used,
								 List **retrieved_attrs);

/* in convert.c */
typedef struct ChFdwColConv ChFdwColConv;
extern ChFdwColConv *chfdw_make_converter(const ch_type *chtype, Oid pgtype,
										  int32 typmod, const char *colname);
extern void chfdw_convert(ChFdwColConv *cc, const ch_column *col, uint64 row,
						  Datum *value, bool *isnull);
extern Oid	chfdw_natural_type(const ch_type *t, int32 *typmod);

#endif							/* CHFDW_H */
