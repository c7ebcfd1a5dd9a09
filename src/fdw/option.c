/*-------------------------------------------------------------------------
 * option.c
 *	  Options of clickhouse_fdw objects: one table drives validation, the
 *	  defaults and the lookups.
 *
 * src/fdw/option.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/reloptions.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_user_mapping.h"
#include "catalog/pg_attribute.h"
#include "commands/defrem.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/varlena.h"

#include "chfdw.h"

typedef enum ChFdwOptionKind
{
	OPT_STRING,					/* any non-empty string */
	OPT_ANY_STRING,				/* any string, empty allowed */
	OPT_PORT,					/* integer 1..65535 */
	OPT_TRANSPORT,				/* http | native */
	OPT_BATCH_SIZE,				/* integer 1..100000000 */
	OPT_SETTINGS,				/* 'name=value, ...' ClickHouse settings */
	OPT_SECONDS,				/* connect_timeout: integer 1..86400 */
	OPT_SECONDS0,				/* receive_timeout: integer 0..86400 */
	OPT_COMPRESSION,			/* auto | none | lz4 | zstd | gzip */
	OPT_COMPRESSION_LEVEL,		/* zstd level -7..22 */
	OPT_INSERT_COMMIT,			/* statement | transaction */
	OPT_BOOL,					/* on/off, true/false, ... */
	OPT_READ_AS,				/* string | json | fixedstring */
	OPT_AGGREGATE,				/* an aggregate state's function (chfuncs.c) */
	OPT_PRECISION_LOSS,			/* error | truncate | round */
	OPT_INSERT_FORMAT,			/* native | rowbinary */
	OPT_HOST,					/* host[:port], ... (ch_host_list_parse) */
	OPT_LOAD_BALANCING,			/* in_order | random | round_robin */
	OPT_PASSWORD_REQUIRED,		/* boolean; only a superuser may set false */
	OPT_BYTES,					/* a limit in bytes: 1 MB .. 16 GB */
	OPT_COUNT,					/* a limit in entries: 1000 .. 4e9 */
	OPT_PROXY,					/* a proxy URL, "" for none */
	OPT_WORKERS,				/* parallel_workers: integer 0..1024 */
	OPT_CLUSTER					/* a ClickHouse cluster name (ddl.c) */
} ChFdwOptionKind;

typedef struct ChFdwOption
{
	const char *name;
	Oid			context;		/* catalog the option belongs to */
	ChFdwOptionKind kind;
	const char *default_text;	/* documentation only */
} ChFdwOption;

/* The single list of valid options; README documents the same defaults. */
static const ChFdwOption chfdw_options[] = {
	{"host", ForeignServerRelationId, OPT_HOST, "127.0.0.1 (superusers only)"},
	{"load_balancing", ForeignServerRelationId, OPT_LOAD_BALANCING, "in_order"},
	{"port", ForeignServerRelationId, OPT_PORT, "8123 (http), 9000 (native)"},
	{"dbname", ForeignServerRelationId, OPT_STRING, "default"},
	{"transport", ForeignServerRelationId, OPT_TRANSPORT, "http"},
	{"settings", ForeignServerRelationId, OPT_SETTINGS, "(none)"},
	{"connect_timeout", ForeignServerRelationId, OPT_SECONDS, "10"},
	{"secure", ForeignServerRelationId, OPT_BOOL, "off"},
	{"ca_file", ForeignServerRelationId, OPT_STRING, "the system's CA certificates"},
	{"compression", ForeignServerRelationId, OPT_COMPRESSION, "auto"},
	{"compression_level", ForeignServerRelationId, OPT_COMPRESSION_LEVEL, "1"},
	{"receive_timeout", ForeignServerRelationId, OPT_SECONDS0, "0 (none)"},
	{"user", UserMappingRelationId, OPT_STRING, "default"},
	{"settings", UserMappingRelationId, OPT_SETTINGS, "(none)"},
	{"password", UserMappingRelationId, OPT_ANY_STRING, "(empty)"},
	{"password_required", UserMappingRelationId, OPT_PASSWORD_REQUIRED, "true"},
	{"database", ForeignTableRelationId, OPT_STRING, "the server's dbname"},
	{"table", ForeignTableRelationId, OPT_STRING, "the foreign table's name"},
	{"column_name", AttributeRelationId, OPT_STRING, "the column's name"},
	{"read_as", AttributeRelationId, OPT_READ_AS, "(the column itself)"},
	{"datetime_precision_loss", ForeignTableRelationId, OPT_PRECISION_LOSS, "error"},
	{"datetime_precision_loss", AttributeRelationId, OPT_PRECISION_LOSS, "the table's, else error"},
	{"decimal_precision_loss", ForeignTableRelationId, OPT_PRECISION_LOSS, "error"},
	{"decimal_precision_loss", AttributeRelationId, OPT_PRECISION_LOSS, "the table's, else error"},
	{"batch_size", ForeignServerRelationId, OPT_BATCH_SIZE, "100000"},
	{"batch_size", ForeignTableRelationId, OPT_BATCH_SIZE, "the server's, else 100000"},
	{"insert_format", ForeignServerRelationId, OPT_INSERT_FORMAT, "native"},
	{"insert_format", ForeignTableRelationId, OPT_INSERT_FORMAT, "the server's, else native"},
	{"insert_commit", ForeignServerRelationId, OPT_INSERT_COMMIT, "statement"},
	{"insert_commit", ForeignTableRelationId, OPT_INSERT_COMMIT, "the server's, else statement"},
	{"wait_mutations", ForeignServerRelationId, OPT_BOOL, "on"},
	{"wait_mutations", ForeignTableRelationId, OPT_BOOL, "the server's, else on"},
	{"final", ForeignTableRelationId, OPT_BOOL, "off"},
	{"use_remote_estimate", ForeignServerRelationId, OPT_BOOL, "off"},
	{"use_remote_estimate", ForeignTableRelationId, OPT_BOOL, "the server's, else off"},
	{"async_capable", ForeignServerRelationId, OPT_BOOL, "on"},
	{"async_capable", ForeignTableRelationId, OPT_BOOL, "the server's, else on"},
	{"text_sorts_as_bytes", ForeignServerRelationId, OPT_BOOL, "off"},
	{"text_sorts_as_bytes", ForeignTableRelationId, OPT_BOOL, "the server's, else off"},
	/* AggregateFunction columns, read finalized (chfuncs.c) */
	{"aggregate", AttributeRelationId, OPT_AGGREGATE, "(none: a plain column)"},
	/* limits against a broken or hostile server (README, "Limits") */
	{"max_block_bytes", ForeignServerRelationId, OPT_BYTES, "268435456 (256 MiB)"},
	{"max_index_bytes", ForeignServerRelationId, OPT_BYTES, "134217728 (128 MiB)"},
	{"max_dictionary_size", ForeignServerRelationId, OPT_COUNT, "16777216"},
	{"proxy", ForeignServerRelationId, OPT_PROXY, "(none, whatever the environment says)"},
	/* parallel foreign scans (parallel.c) */
	{"parallel_workers", ForeignServerRelationId, OPT_WORKERS, "0 (off)"},
	{"parallel_workers", ForeignTableRelationId, OPT_WORKERS, "the server's, else 0 (off)"},
	/* distributed DDL: TRUNCATE and clickhouse_exec_on_cluster ON CLUSTER (ddl.c) */
	{"cluster", ForeignServerRelationId, OPT_CLUSTER, "(none)"},
	{NULL, InvalidOid, OPT_STRING, NULL}
};

PG_FUNCTION_INFO_V1(clickhouse_fdw_validator);

static const char *
context_name(Oid context)
{
	switch (context)
	{
		case ForeignServerRelationId:
			return "foreign server";
		case UserMappingRelationId:
			return "user mapping";
		case ForeignTableRelationId:
			return "foreign table";
		case AttributeRelationId:
			return "foreign table column";
		default:
			return "this object";
	}
}

/* The valid option closest to name in this context, or NULL. */
static const char *
closest_option(const char *name, Oid context)
{
	const ChFdwOption *o;
	const char *best = NULL;
	int			best_d = INT_MAX;

	for (o = chfdw_options; o->name; o++)
	{
		int			d;

		if (o->context != context)
			continue;
		d = varstr_levenshtein_less_equal(name, strlen(name), o->name, strlen(o->name),
										  1, 1, 1, 3, true);
		if (d < best_d)
		{
			best_d = d;
			best = o->name;
		}
	}
	/* like PostgreSQL 16's ClosestMatch: at most half the length away */
	if (best && best_d <= 3 && best_d <= (int) Max(strlen(name), strlen(best)) / 2)
		return best;
	return NULL;
}

static void
report_unknown_option(const char *name, Oid context)
{
	const char *best = closest_option(name, context);
	StringInfoData valid;
	const ChFdwOption *o;

	initStringInfo(&valid);
	for (o = chfdw_options; o->name; o++)
	{
		if (o->context != context)
			continue;
		appendStringInfo(&valid, "%s%s", valid.len ? ", " : "", o->name);
	}
	if (best)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
				 errmsg("invalid option \"%s\" for a %s", name, context_name(context)),
				 errhint("Perhaps you meant the option \"%s\".", best)));
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
			 errmsg("invalid option \"%s\" for a %s", name, context_name(context)),
			 valid.len ? errhint("Valid options in this context are: %s.", valid.data)
			 : errhint("There are no valid options in this context.")));
}

static int
parse_port(const char *value)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < 1 || v > 65535)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"port\": \"%s\"", value),
				 errhint("The port must be an integer between 1 and 65535.")));
	return (int) v;
}

static ChFdwTransport
parse_transport(const char *value, bool validating)
{
	if (strcmp(value, "http") == 0)
		return CHFDW_TRANSPORT_HTTP;
	/* ClickHouse's native protocol (port 9000, TLS 9440): src/transport/tcp.c */
	if (strcmp(value, "native") == 0)
		return CHFDW_TRANSPORT_NATIVE;
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid value for option \"transport\": \"%s\"", value),
			 errhint("Valid values are \"http\" and \"native\".")));
	(void) validating;
	return CHFDW_TRANSPORT_HTTP;
}

static int
parse_seconds(const char *name, const char *value, int min)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < min || v > 86400)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"%s\": \"%s\"", name, value),
				 errhint("The value is a whole number of seconds between %d and 86400.", min)));
	return (int) v;
}

/* A limit option: a whole number between min and max. */
static int64
parse_limit(const char *name, const char *value, int64 min, int64 max)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < min || v > max)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"%s\": \"%s\"", name, value),
				 errhint("The value is a whole number between " INT64_FORMAT " and " INT64_FORMAT ".",
						 min, max)));
	return (int64) v;
}

#define MIN_LIMIT_BYTES ((int64) 1 << 20)
#define MAX_LIMIT_BYTES ((int64) 16 << 30)
#define MIN_LIMIT_COUNT ((int64) 1000)
#define MAX_LIMIT_COUNT ((int64) 4000000000)

/* A proxy URL (HTTP): printable ASCII, no spaces, not too long. */
static const char *
parse_proxy(const char *value)
{
	const char *p;

	for (p = value; *p; p++)
		if ((unsigned char) *p <= ' ' || (unsigned char) *p >= 127)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("invalid value for option \"proxy\": it must not contain spaces, control or non-ASCII characters")));
	if (p - value >= CHFDW_MAX_PROXY_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"proxy\": longer than %d bytes",
						CHFDW_MAX_PROXY_LEN - 1)));
	return value;
}

static int
parse_compression(const char *value)
{
	if (strcmp(value, "none") == 0)
		return CHFDW_COMPRESSION_NONE;
	if (strcmp(value, "lz4") == 0)
		return CHFDW_COMPRESSION_LZ4;
	if (strcmp(value, "zstd") == 0)
		return CHFDW_COMPRESSION_ZSTD;
	if (strcmp(value, "gzip") == 0)
		return CHFDW_COMPRESSION_GZIP;
	if (strcmp(value, "auto") == 0)
		return CHFDW_COMPRESSION_AUTO;
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid value for option \"compression\": \"%s\"", value),
			 errhint("Valid values are \"auto\", \"none\", \"lz4\", \"zstd\" and \"gzip\".")));
	return CHFDW_COMPRESSION_NONE;
}

static int
parse_compression_level(const char *value)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < -7 || v > 22)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"compression_level\": \"%s\"", value),
				 errhint("The zstd level is an integer between -7 and 22.")));
	return (int) v;
}

static int
parse_batch_size(const char *value)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < 1 || v > 100000000)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"batch_size\": \"%s\"", value),
				 errhint("The batch size must be an integer between 1 and 100000000.")));
	return (int) v;
}

static bool
parse_insert_commit(const char *value)
{
	if (strcmp(value, "statement") == 0)
		return false;
	if (strcmp(value, "transaction") == 0)
		return true;
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid value for option \"insert_commit\": \"%s\"", value),
			 errhint("Valid values are \"statement\" and \"transaction\".")));
	return false;
}

static bool
parse_insert_format(const char *value)
{
	if (strcmp(value, "native") == 0)
		return false;
	if (strcmp(value, "rowbinary") == 0)
		return true;
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid value for option \"insert_format\": \"%s\"", value),
			 errhint("Valid values are \"native\" and \"rowbinary\".")));
	return false;
}

/* The option name of the first of two option lists that has it, or NULL. */
static DefElem *
first_option(List *first, List *second, const char *name)
{
	List	   *lists[2] = {first, second};
	int			i;

	for (i = 0; i < 2; i++)
	{
		ListCell   *lc;

		foreach(lc, lists[i])
		{
			DefElem    *def = (DefElem *) lfirst(lc);

			if (strcmp(def->defname, name) == 0)
				return def;
		}
	}
	return NULL;
}

/* A per-table option: the foreign table's own, else its server's, else NULL. */
static DefElem *
table_option(ForeignTable *ft, ForeignServer *server, const char *name)
{
	return first_option(ft->options, server->options, name);
}

/*
 * Write options of a foreign table: the table's own, else the server's,
 * else the defaults (batch_size 100000, insert_format native).
 */
void
chfdw_get_write_options(Relation rel, int *batch_size, bool *rowbinary, bool *defer_to_commit)
{
	ForeignTable *ft = GetForeignTable(RelationGetRelid(rel));
	ForeignServer *server = GetForeignServer(ft->serverid);
	DefElem    *def;

	def = table_option(ft, server, "batch_size");
	*batch_size = def ? parse_batch_size(defGetString(def)) : 100000;
	def = table_option(ft, server, "insert_format");
	*rowbinary = def ? parse_insert_format(defGetString(def)) : false;
	/* RowBinary is an HTTP format: the native protocol takes Native blocks */
	def = first_option(server->options, NIL, "transport");
	if (def && parse_transport(defGetString(def), false) == CHFDW_TRANSPORT_NATIVE)
		*rowbinary = false;
	def = table_option(ft, server, "insert_commit");
	*defer_to_commit = def ? parse_insert_commit(defGetString(def)) : false;
}

/*
 * wait_mutations of a foreign table: its own, else the server's, else on
 * (UPDATE/DELETE return once ClickHouse has applied the change).
 */
bool
chfdw_wait_mutations(Oid relid)
{
	ForeignTable *ft = GetForeignTable(relid);
	DefElem    *def = table_option(ft, GetForeignServer(ft->serverid), "wait_mutations");

	return def ? defGetBoolean(def) : true;
}

/* The table option final: read the table with FINAL (default off). */
bool
chfdw_read_final(Oid relid)
{
	DefElem    *def = first_option(GetForeignTable(relid)->options, NIL, "final");

	return def ? defGetBoolean(def) : false;
}

/* use_remote_estimate of a foreign table: its own, else the server's, else off. */
bool
chfdw_use_remote_estimate(Oid relid)
{
	ForeignTable *ft = GetForeignTable(relid);
	DefElem    *def = table_option(ft, GetForeignServer(ft->serverid), "use_remote_estimate");

	return def ? defGetBoolean(def) : false;
}

/* parallel_workers: an integer 0..1024 */
static int
parse_workers(const char *value)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < 0 || v > 1024)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"parallel_workers\": \"%s\"", value),
				 errhint("Valid values are integers from 0 (no parallel scan) to 1024.")));
	return (int) v;
}

/*
 * The server option cluster: the name of a cluster in the ClickHouse
 * servers' remote_servers, for ON CLUSTER (distributed DDL). An XML element
 * name there: a letter or '_', then letters, digits, '_', '-', '.'; sent
 * back-quoted all the same.
 */
#define CHFDW_MAX_CLUSTER_LEN 200

static const char *
parse_cluster(const char *value)
{
	const char *p;

	for (p = value; *p; p++)
	{
		unsigned char c = (unsigned char) *p;
		bool		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			(p > value && ((c >= '0' && c <= '9') || c == '-' || c == '.'));

		if (!ok)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("invalid value for option \"cluster\": \"%s\"", value),
					 errhint("A cluster name, as in the ClickHouse servers' remote_servers, starts with a letter or \"_\" and holds letters, digits, \"_\", \"-\" and \".\".")));
	}
	if (p == value || p - value > CHFDW_MAX_CLUSTER_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"cluster\": it must be 1 to %d bytes long",
						CHFDW_MAX_CLUSTER_LEN)));
	return value;
}

/* The server option cluster, or NULL when it is not set. */
const char *
chfdw_server_cluster(ForeignServer *server)
{
	DefElem    *def = first_option(server->options, NIL, "cluster");

	return def ? parse_cluster(defGetString(def)) : NULL;
}

/* parallel_workers of a foreign table: its own, else the server's, else 0. */
int
chfdw_parallel_workers(Oid relid)
{
	ForeignTable *ft = GetForeignTable(relid);
	DefElem    *def = table_option(ft, GetForeignServer(ft->serverid), "parallel_workers");

	return def ? parse_workers(defGetString(def)) : 0;
}

/*
 * async_capable of a foreign table (relid valid: its own, else its
 * server's) or of a server (a join or grouped relation); else on: an
 * Append runs the remote queries of its foreign partitions concurrently.
 */
bool
chfdw_async_capable(Oid relid, Oid serverid)
{
	ForeignServer *server;
	ForeignTable *ft = NULL;
	DefElem    *def;

	if (OidIsValid(relid))
	{
		ft = GetForeignTable(relid);
		serverid = ft->serverid;
	}
	server = GetForeignServer(serverid);
	def = first_option(ft ? ft->options : NIL, server->options, "async_capable");
	return def ? defGetBoolean(def) : true;
}

/*
 * text_sorts_as_bytes of a foreign table: its own, else the server's, else
 * off. On: the user declares that PostgreSQL's collations of its text
 * columns sort them as ClickHouse does, by bytes (ASCII data, or a
 * code-point collation such as C.UTF-8), so text ordering may be sent.
 */
bool
chfdw_text_sorts_as_bytes(Oid relid)
{
	ForeignTable *ft = GetForeignTable(relid);
	DefElem    *def = table_option(ft, GetForeignServer(ft->serverid), "text_sorts_as_bytes");

	return def ? defGetBoolean(def) : false;
}

/*
 * The option "host": one host or a comma-separated list (replicas, or the
 * nodes a Distributed table answers on), each a host name (letters,
 * digits, '-', '_', '.') or an IP address (IPv6 bare, or in brackets when
 * a port follows), optionally with ":port", at most CH_MAX_HOSTS
 * (ch_host_list_parse). A host becomes part of a URL, so '/', '#', '?',
 * '@', spaces and the like, which would change which resource or which
 * server is asked, are refused. Entries without a port get default_port.
 */
static void
parse_hosts(const char *value, int default_port, ch_host_list *out)
{
	ch_error	err;

	ch_error_clear(&err);
	if (ch_host_list_parse(value, default_port, out, &err) != CH_OK)
	{
		char		detail[CH_ERROR_MESSAGE_MAX];

		strlcpy(detail, err.message, sizeof(detail));
		detail[0] = (char) pg_toupper((unsigned char) detail[0]);
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"host\": \"%s\"", value),
				 errdetail("%s.", detail),
				 errhint("The host is a host name or an IP address, or a comma-separated list of them, each with an optional \":port\" (an IPv6 address with a port is written in brackets, e.g. [::1]:9000), without a path or user.")));
	}
}

static void
check_host(const char *value)
{
	ch_host_list l;

	parse_hosts(value, 1, &l);
}

static ch_load_balancing
parse_load_balancing(const char *value)
{
	ch_load_balancing lb = CH_LB_IN_ORDER;

	if (!ch_load_balancing_parse(value, &lb))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"load_balancing\": \"%s\"", value),
				 errhint("Valid values are \"in_order\", \"random\" and \"round_robin\".")));
	return lb;
}

/*
 * chfdw_server_endpoints
 *		The hosts of opts (the option "host", else 127.0.0.1) with their
 *		ports (their own, else opts->port) as transport endpoints; eps has
 *		CH_MAX_HOSTS entries and points into *storage. Returns how many.
 */
int
chfdw_server_endpoints(const ChFdwServerOptions *opts, ch_host_list *storage, ch_endpoint *eps)
{
	int			i;

	parse_hosts(opts->hosts ? opts->hosts : "127.0.0.1", opts->port, storage);
	for (i = 0; i < storage->n; i++)
	{
		eps[i].host = storage->h[i].host;
		eps[i].port = storage->h[i].port;
	}
	return storage->n;
}

static int
parse_precision_loss(const char *name, const char *value)
{
	if (strcmp(value, "error") == 0)
		return CHFDW_LOSS_ERROR;
	if (strcmp(value, "truncate") == 0)
		return CHFDW_LOSS_TRUNCATE;
	if (strcmp(value, "round") == 0)
		return CHFDW_LOSS_ROUND;
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid value for option \"%s\": \"%s\"", name, value),
			 errhint("Valid values are \"error\", \"truncate\" and \"round\".")));
	return CHFDW_LOSS_ERROR;
}

/*
 * The option aggregate: a ClickHouse function name, with optionally numeric
 * parameters in parentheses ("uniq", "quantiles(0.5, 0.9)"), written into
 * the SQL as it is: nothing else is accepted.
 */
static bool
valid_aggregate(const char *v)
{
	const char *p = v;

	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_'))
		return false;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		   *p == '_')
		p++;
	if (*p == '\0')
		return true;
	if (*p++ != '(')
		return false;
	p += strspn(p, "0123456789.,+-eE ");
	return p[0] == ')' && p[1] == '\0';
}

/*
 * datetime_precision_loss / decimal_precision_loss of a column: its own,
 * else its foreign table's, else error (CHFDW_LOSS_*).
 */
int
chfdw_precision_loss(Oid relid, AttrNumber attnum, const char *name)
{
	DefElem    *def = first_option(GetForeignColumnOptions(relid, attnum),
								   GetForeignTable(relid)->options, name);

	return def ? parse_precision_loss(name, defGetString(def)) : CHFDW_LOSS_ERROR;
}

static void
validate_value(const ChFdwOption *o, DefElem *def)
{
	const char *value = defGetString(def);

	switch (o->kind)
	{
		case OPT_STRING:
			if (value[0] == '\0')
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("option \"%s\" must not be empty", o->name)));
			break;
		case OPT_ANY_STRING:
			break;
		case OPT_PORT:
			(void) parse_port(value);
			break;
		case OPT_TRANSPORT:
			(void) parse_transport(value, true);
			break;
		case OPT_BATCH_SIZE:
			(void) parse_batch_size(value);
			break;
		case OPT_SETTINGS:
			{
				List	   *l = NIL;

				chfdw_parse_settings(value, "option \"settings\"", &l);
				break;
			}
		case OPT_SECONDS:
			(void) parse_seconds(o->name, value, 1);
			break;
		case OPT_SECONDS0:
			(void) parse_seconds(o->name, value, 0);
			break;
		case OPT_COMPRESSION:
			(void) parse_compression(value);
			break;
		case OPT_COMPRESSION_LEVEL:
			(void) parse_compression_level(value);
			break;
		case OPT_INSERT_FORMAT:
			(void) parse_insert_format(value);
			break;
		case OPT_INSERT_COMMIT:
			(void) parse_insert_commit(value);
			break;
		case OPT_BOOL:
			(void) defGetBoolean(def);
			break;
		case OPT_HOST:
			check_host(value);
			break;
		case OPT_LOAD_BALANCING:
			(void) parse_load_balancing(value);
			break;
		case OPT_PASSWORD_REQUIRED:
			/* as postgres_fdw: only a superuser may drop the requirement */
			if (!defGetBoolean(def) && !superuser())
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("password_required=false is superuser-only"),
						 errhint("User mappings with the password_required option set to false may only be created or modified by the superuser.")));
			break;
		case OPT_PRECISION_LOSS:
			(void) parse_precision_loss(o->name, value);
			break;
		case OPT_BYTES:
			(void) parse_limit(o->name, value, MIN_LIMIT_BYTES, MAX_LIMIT_BYTES);
			break;
		case OPT_COUNT:
			(void) parse_limit(o->name, value, MIN_LIMIT_COUNT, MAX_LIMIT_COUNT);
			break;
		case OPT_PROXY:
			(void) parse_proxy(value);
			break;
		case OPT_WORKERS:
			(void) parse_workers(value);
			break;
		case OPT_AGGREGATE:
			if (!valid_aggregate(value))
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("invalid value for option \"aggregate\": \"%s\"", value),
						 errhint("Give the function of the column's AggregateFunction type with its numeric parameters, such as \"uniq\" or \"quantiles(0.5, 0.9)\".")));
			break;
		case OPT_CLUSTER:
			(void) parse_cluster(value);
			break;
		case OPT_READ_AS:
			if (strcmp(value, "string") != 0 && strcmp(value, "json") != 0 &&
				strcmp(value, "fixedstring") != 0)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("invalid value for option \"read_as\": \"%s\"", value),
						 errhint("Valid values are \"string\" (toString()), \"json\" (toJSONString()) and \"fixedstring\" (a FixedString read as text).")));
			break;
	}
}

/*
 * Validate the options of a server, user mapping, foreign table or column.
 */
Datum
clickhouse_fdw_validator(PG_FUNCTION_ARGS)
{
	List	   *options = untransformRelOptions(PG_GETARG_DATUM(0));
	Oid			catalog = PG_GETARG_OID(1);
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		const ChFdwOption *o;
		ListCell   *lc2;

		for (o = chfdw_options; o->name; o++)
			if (o->context == catalog && strcmp(o->name, def->defname) == 0)
				break;
		if (!o->name)
			report_unknown_option(def->defname, catalog);
		/* reloptions code rejects duplicates already; be explicit anyway */
		foreach(lc2, options)
		{
			DefElem    *other = (DefElem *) lfirst(lc2);

			if (other != def && strcmp(other->defname, def->defname) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
						 errmsg("option \"%s\" given more than once", def->defname)));
		}
		validate_value(o, def);
	}
	PG_RETURN_VOID();
}

/*
 * Collect the connection options of server and user mapping, with defaults.
 * Strings are palloc'd in the current memory context.
 */
void
chfdw_get_server_options(ForeignServer *server, UserMapping *user,
						 ChFdwServerOptions *opts)
{
	ListCell   *lc;
	bool		port_set = false;

	opts->host = pstrdup("127.0.0.1");
	opts->hosts = NULL;
	opts->load_balancing = CH_LB_IN_ORDER;
	opts->port = 0;
	opts->dbname = pstrdup("default");
	opts->transport = CHFDW_TRANSPORT_HTTP;
	opts->user = pstrdup("default");
	opts->password = pstrdup("");
	opts->server_settings = pstrdup("");
	opts->user_settings = pstrdup("");
	opts->connect_timeout = 10;
	opts->receive_timeout = 0;
	opts->compression = CHFDW_COMPRESSION_AUTO;
	opts->compression_level = 1;
	opts->secure = false;
	opts->ca_file = NULL;
	opts->host_set = false;
	opts->password_required = true;
	ch_native_limits_default(&opts->limits);
	opts->proxy = NULL;

	foreach(lc, server->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "host") == 0)
		{
			check_host(defGetString(def));
			opts->hosts = pstrdup(defGetString(def));
			opts->host_set = true;
		}
		else if (strcmp(def->defname, "load_balancing") == 0)
			opts->load_balancing = parse_load_balancing(defGetString(def));
		else if (strcmp(def->defname, "port") == 0)
		{
			opts->port = parse_port(defGetString(def));
			port_set = true;
		}
		else if (strcmp(def->defname, "dbname") == 0)
			opts->dbname = pstrdup(defGetString(def));
		else if (strcmp(def->defname, "transport") == 0)
			opts->transport = parse_transport(defGetString(def), false);
		else if (strcmp(def->defname, "settings") == 0)
			opts->server_settings = pstrdup(defGetString(def));
		else if (strcmp(def->defname, "connect_timeout") == 0)
			opts->connect_timeout = parse_seconds("connect_timeout", defGetString(def), 1);
		else if (strcmp(def->defname, "receive_timeout") == 0)
			opts->receive_timeout = parse_seconds("receive_timeout", defGetString(def), 0);
		else if (strcmp(def->defname, "compression") == 0)
			opts->compression = parse_compression(defGetString(def));
		else if (strcmp(def->defname, "secure") == 0)
			opts->secure = defGetBoolean(def);
		else if (strcmp(def->defname, "ca_file") == 0)
			opts->ca_file = pstrdup(defGetString(def));
		else if (strcmp(def->defname, "compression_level") == 0)
			opts->compression_level = parse_compression_level(defGetString(def));
		else if (strcmp(def->defname, "max_block_bytes") == 0)
			opts->limits.max_block_bytes = parse_limit(def->defname, defGetString(def),
													   MIN_LIMIT_BYTES, MAX_LIMIT_BYTES);
		else if (strcmp(def->defname, "max_index_bytes") == 0)
			opts->limits.max_index_bytes = parse_limit(def->defname, defGetString(def),
													   MIN_LIMIT_BYTES, MAX_LIMIT_BYTES);
		else if (strcmp(def->defname, "max_dictionary_size") == 0)
			opts->limits.max_lc_dict = parse_limit(def->defname, defGetString(def),
												   MIN_LIMIT_COUNT, MAX_LIMIT_COUNT);
		else if (strcmp(def->defname, "proxy") == 0)
			opts->proxy = pstrdup(parse_proxy(defGetString(def)));
	}
	if (user)
	{
		foreach(lc, user->options)
		{
			DefElem    *def = (DefElem *) lfirst(lc);

			if (strcmp(def->defname, "user") == 0)
				opts->user = pstrdup(defGetString(def));
			else if (strcmp(def->defname, "password") == 0)
				opts->password = pstrdup(defGetString(def));
			else if (strcmp(def->defname, "settings") == 0)
				opts->user_settings = pstrdup(defGetString(def));
			else if (strcmp(def->defname, "password_required") == 0)
				opts->password_required = defGetBoolean(def);
		}
	}
	if (!port_set)
		opts->port = opts->transport == CHFDW_TRANSPORT_HTTP ? (opts->secure ? 8443 : 8123) :
			(opts->secure ? 9440 : 9000);
	if (opts->transport == CHFDW_TRANSPORT_NATIVE && opts->proxy && opts->proxy[0])
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
				 errmsg("the option \"proxy\" applies to transport 'http' only"),
				 errhint("Drop the option \"proxy\" from the server, or use transport 'http'.")));
	/* host: the first host of the list (chfdw_server_endpoints: all) */
	if (opts->hosts)
	{
		ch_host_list l;

		parse_hosts(opts->hosts, opts->port, &l);
		opts->host = pstrdup(l.h[0].host);
	}
}

/*
 * The remote database and table of a foreign table (defaults: the server's
 * dbname and the foreign table's own name).
 */
void
chfdw_get_table_names(Relation rel, const char **database, const char **table)
{
	ForeignTable *ft = GetForeignTable(RelationGetRelid(rel));
	ForeignServer *server = GetForeignServer(ft->serverid);
	ListCell   *lc;

	*database = NULL;
	*table = NULL;
	foreach(lc, ft->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "database") == 0)
			*database = defGetString(def);
		else if (strcmp(def->defname, "table") == 0)
			*table = defGetString(def);
	}
	if (!*database)
	{
		*database = "default";
		foreach(lc, server->options)
		{
			DefElem    *def = (DefElem *) lfirst(lc);

			if (strcmp(def->defname, "dbname") == 0)
				*database = defGetString(def);
		}
	}
	if (!*table)
		*table = RelationGetRelationName(rel);
}

/*
 * The column option read_as: 0 (none), 's' (ClickHouse sends toString(col)),
 * 'j' (toJSONString(col)) or 'f' (a FixedString column read as text: sent
 * as itself, its padding removed here, never compared by ClickHouse); 'a'
 * for a column with the option aggregate (finalizeAggregation(col), first).
 */
char
chfdw_column_read_as(Oid relid, AttrNumber attnum)
{
	List	   *options = GetForeignColumnOptions(relid, attnum);
	ListCell   *lc;

	if (chfdw_column_aggregate(relid, attnum))
		return 'a';
	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "read_as") == 0)
		{
			const char *v = defGetString(def);

			return strcmp(v, "json") == 0 ? 'j' : strcmp(v, "fixedstring") == 0 ? 'f' : 's';
		}
	}
	return 0;
}

/*
 * The column option aggregate (an AggregateFunction column's function, with
 * its parameters), or NULL.
 */
const char *
chfdw_column_aggregate(Oid relid, AttrNumber attnum)
{
	List	   *options = GetForeignColumnOptions(relid, attnum);
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "aggregate") == 0)
			return defGetString(def);
	}
	return NULL;
}

/* The remote name of a column: its column_name option or its own name. */
char *
chfdw_column_name(Oid relid, AttrNumber attnum)
{
	List	   *options = GetForeignColumnOptions(relid, attnum);
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "column_name") == 0)
			return defGetString(def);
	}
	return get_attname(relid, attnum, false);
}
