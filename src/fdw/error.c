/*-------------------------------------------------------------------------
 * error.c
 *	  The one place where a ch_status from the PostgreSQL-free layers becomes
 *	  an ereport, and the palloc-based allocator handed to those layers.
 *
 * src/fdw/error.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/memutils.h"

#include "chfdw.h"

/* ClickHouse exception codes → SQLSTATE (../shared/docs/clickhouse-wire.md 6.3). */
typedef struct ServerCodeMap
{
	int			code;
	int			sqlstate;
} ServerCodeMap;

static const ServerCodeMap server_codes[] = {
	{3, ERRCODE_PROTOCOL_VIOLATION},
	{6, ERRCODE_INVALID_TEXT_REPRESENTATION},
	{16, ERRCODE_UNDEFINED_COLUMN},
	{20, ERRCODE_SYNTAX_ERROR},
	{27, ERRCODE_INVALID_TEXT_REPRESENTATION},
	{32, ERRCODE_PROTOCOL_VIOLATION},
	{33, ERRCODE_PROTOCOL_VIOLATION},
	{38, ERRCODE_INVALID_DATETIME_FORMAT},
	{41, ERRCODE_INVALID_DATETIME_FORMAT},
	{42, ERRCODE_UNDEFINED_FUNCTION},
	{43, ERRCODE_DATATYPE_MISMATCH},
	{44, ERRCODE_DATATYPE_MISMATCH},
	{46, ERRCODE_UNDEFINED_FUNCTION},
	{47, ERRCODE_UNDEFINED_COLUMN},
	{48, ERRCODE_FEATURE_NOT_SUPPORTED},
	{49, ERRCODE_INTERNAL_ERROR},
	{50, ERRCODE_UNDEFINED_OBJECT},
	{53, ERRCODE_DATATYPE_MISMATCH},
	{60, ERRCODE_UNDEFINED_TABLE},
	{62, ERRCODE_SYNTAX_ERROR},
	{63, ERRCODE_UNDEFINED_FUNCTION},
	{69, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE},
	{70, ERRCODE_INVALID_TEXT_REPRESENTATION},
	{72, ERRCODE_INVALID_TEXT_REPRESENTATION},
	{73, ERRCODE_FEATURE_NOT_SUPPORTED},
	{81, ERRCODE_INVALID_CATALOG_NAME},
	{115, ERRCODE_UNDEFINED_OBJECT},
	{117, ERRCODE_INVALID_BINARY_REPRESENTATION},
	{153, ERRCODE_DIVISION_BY_ZERO},
	{158, ERRCODE_PROGRAM_LIMIT_EXCEEDED},
	{159, ERRCODE_QUERY_CANCELED},
	{160, ERRCODE_QUERY_CANCELED},
	{164, ERRCODE_READ_ONLY_SQL_TRANSACTION},
	{192, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION},
	{193, ERRCODE_INVALID_PASSWORD},
	{194, ERRCODE_INVALID_PASSWORD},
	{195, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION},
	{202, ERRCODE_TOO_MANY_CONNECTIONS},
	{209, ERRCODE_CONNECTION_FAILURE},
	{210, ERRCODE_CONNECTION_FAILURE},
	{216, ERRCODE_OBJECT_IN_USE},
	{236, ERRCODE_QUERY_CANCELED},
	{241, ERRCODE_OUT_OF_MEMORY},
	{242, ERRCODE_READ_ONLY_SQL_TRANSACTION},
	{252, ERRCODE_CONFIGURATION_LIMIT_EXCEEDED},
	{271, ERRCODE_DATA_CORRUPTED},
	{307, ERRCODE_PROGRAM_LIMIT_EXCEEDED},
	{319, ERRCODE_T_R_STATEMENT_COMPLETION_UNKNOWN},
	{349, ERRCODE_NOT_NULL_VIOLATION},
	{368, ERRCODE_INTERNAL_ERROR},
	{394, ERRCODE_QUERY_CANCELED},
	{395, ERRCODE_RAISE_EXCEPTION},
	{396, ERRCODE_PROGRAM_LIMIT_EXCEEDED},
	{407, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE},
	{469, ERRCODE_CHECK_VIOLATION},
	{473, ERRCODE_T_R_DEADLOCK_DETECTED},
	{497, ERRCODE_INSUFFICIENT_PRIVILEGE},
	{516, ERRCODE_INVALID_PASSWORD},
	{735, ERRCODE_QUERY_CANCELED},
};

static int
server_sqlstate(int code)
{
	size_t		i;

	for (i = 0; i < lengthof(server_codes); i++)
		if (server_codes[i].code == code)
			return server_codes[i].sqlstate;
	return ERRCODE_FDW_ERROR;
}

static int
status_sqlstate(ch_status st)
{
	switch (st)
	{
		case CH_ERR_NOMEM:
			return ERRCODE_OUT_OF_MEMORY;
		case CH_ERR_TRUNCATED:
		case CH_ERR_MALFORMED:
		case CH_ERR_PROTOCOL:
			return ERRCODE_PROTOCOL_VIOLATION;
		case CH_ERR_CHECKSUM:
		case CH_ERR_DECOMPRESS:
			return ERRCODE_DATA_CORRUPTED;
		case CH_ERR_LIMIT:
			return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
		case CH_ERR_UNKNOWN_TYPE:
			return ERRCODE_FDW_INVALID_DATA_TYPE;
		case CH_ERR_UNSUPPORTED:
			return ERRCODE_FEATURE_NOT_SUPPORTED;
		case CH_ERR_CONNECT:
			return ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION;
		case CH_ERR_NETWORK:
			return ERRCODE_CONNECTION_FAILURE;
		case CH_ERR_TIMEOUT:
			return ERRCODE_CONNECTION_FAILURE;
		case CH_ERR_CANCELLED:
			return ERRCODE_QUERY_CANCELED;
		default:
			return ERRCODE_FDW_ERROR;
	}
}

/*
 * Text from the server (an exception message, a type or column name inside
 * one of our messages), made safe for a PostgreSQL message: in a UTF8
 * database invalid UTF-8 sequences are written as \xNN, in other
 * databases every non-ASCII byte is (the text is not converted: that could
 * fail inside error reporting); control characters other than tab and line
 * breaks are escaped too. Returns s itself when nothing needs escaping,
 * else a palloc'd copy.
 */
const char *
chfdw_clean_server_text(const char *s)
{
	bool		utf8 = GetDatabaseEncoding() == PG_UTF8;
	const unsigned char *p = (const unsigned char *) s;
	StringInfoData out;
	bool		changed = false;

	initStringInfo(&out);
	while (*p)
	{
		if (*p < 0x80)
		{
			if ((*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') || *p == 0x7f)
			{
				appendStringInfo(&out, "\\x%02X", *p);
				changed = true;
			}
			else
				appendStringInfoChar(&out, (char) *p);
			p++;
			continue;
		}
		if (utf8)
		{
			int			len = pg_utf_mblen(p);
			int			i;

			/* the whole sequence must be there (no NUL inside) and legal */
			for (i = 1; i < len && p[i]; i++)
				;
			if (i == len && pg_utf8_islegal(p, len))
			{
				appendBinaryStringInfo(&out, (const char *) p, len);
				p += len;
				continue;
			}
		}
		appendStringInfo(&out, "\\x%02X", *p);
		changed = true;
		p++;
	}
	if (!changed)
	{
		pfree(out.data);
		return s;
	}
	return out.data;
}

/*
 * Raise an error (or lower elevel report) for a failure of the
 * PostgreSQL-free layers. remote_sql becomes CONTEXT; query_id a DETAIL.
 * The message and detail may hold server text: they are cleaned first.
 */
void
chfdw_report(int elevel, ch_status st, const ch_error *err,
			 const char *remote_sql, const char *query_id)
{
	const char *msg = (err && err->message[0]) ?
		chfdw_clean_server_text(err->message) : ch_status_text(st);
	const char *detail = err ? chfdw_clean_server_text(err->detail) : "";

	if (st == CH_ERR_SERVER)
	{
		int			code = err ? err->server_code : 0;

		chfdw_stats_error(server_sqlstate(code));
		ereport(elevel,
				(errcode(server_sqlstate(code)),
				 errmsg_internal("ClickHouse error: %s", msg),
				 code ? errdetail("ClickHouse exception code %d, query id \"%s\".%s%s",
								  code, query_id ? query_id : "",
								  detail[0] ? " " : "", detail)
				 : errdetail("Query id \"%s\".%s%s", query_id ? query_id : "",
							 detail[0] ? " " : "", detail),
				 remote_sql ? errcontext("remote SQL: %s", remote_sql) : 0));
	}
	else
	{
		chfdw_stats_error(status_sqlstate(st));
		ereport(elevel,
				(errcode(status_sqlstate(st)),
				 errmsg_internal("%s", msg),
				 detail[0] ?
				 errdetail_internal("%s (query id \"%s\")", detail, query_id ? query_id : "") :
				 query_id ? errdetail("Query id \"%s\".", query_id) : 0,
				 (st == CH_ERR_CONNECT) ?
				 errhint("Check the host and port options of the foreign server and that ClickHouse is running.") : 0,
				 remote_sql ? errcontext("remote SQL: %s", remote_sql) : 0));
	}
	pg_unreachable();
}

static void *
pg_alloc_hook(void *ctx, size_t size)
{
	return MemoryContextAllocExtended((MemoryContext) ctx, size,
									  MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void
pg_free_hook(void *ctx, void *p)
{
	(void) ctx;
	pfree(p);
}

/*
 * An allocator for the PostgreSQL-free layers that allocates in cxt;
 * running out of memory comes back as NULL (a status), never a longjmp.
 * The returned struct is allocated in cxt too.
 */
const ch_allocator *
chfdw_allocator(MemoryContext cxt)
{
	ch_allocator *a = MemoryContextAlloc(cxt, sizeof(ch_allocator));

	a->alloc = pg_alloc_hook;
	a->free = pg_free_hook;
	a->ctx = cxt;
	return a;
}
