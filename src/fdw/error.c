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

/*
 * ClickHouse exception codes: the SQLSTATE each becomes, and the code's
 * name as ClickHouse spells it (src/Common/ErrorCodes.cpp). The name is
 * not on every wire (18.16 sends none; modern servers append it to their
 * HTTP text only), so it comes from here, the same on every transport and
 * version. Codes not listed are ERRCODE_FDW_ERROR and unnamed; 368 has no
 * name in current servers.
 */
typedef struct ServerCodeMap
{
	int			code;
	int			sqlstate;
	const char *name;			/* or NULL */
} ServerCodeMap;

static const ServerCodeMap server_codes[] = {
	{1, ERRCODE_FDW_ERROR, "UNSUPPORTED_METHOD"},
	{2, ERRCODE_FDW_ERROR, "UNSUPPORTED_PARAMETER"},
	{3, ERRCODE_PROTOCOL_VIOLATION, "UNEXPECTED_END_OF_FILE"},
	{6, ERRCODE_INVALID_TEXT_REPRESENTATION, "CANNOT_PARSE_TEXT"},
	{8, ERRCODE_FDW_ERROR, "THERE_IS_NO_COLUMN"},
	{10, ERRCODE_FDW_ERROR, "NOT_FOUND_COLUMN_IN_BLOCK"},
	{15, ERRCODE_FDW_ERROR, "DUPLICATE_COLUMN"},
	{16, ERRCODE_UNDEFINED_COLUMN, "NO_SUCH_COLUMN_IN_TABLE"},
	{20, ERRCODE_SYNTAX_ERROR, "NUMBER_OF_COLUMNS_DOESNT_MATCH"},
	{27, ERRCODE_INVALID_TEXT_REPRESENTATION, "CANNOT_PARSE_INPUT_ASSERTION_FAILED"},
	{32, ERRCODE_PROTOCOL_VIOLATION, "ATTEMPT_TO_READ_AFTER_EOF"},
	{33, ERRCODE_PROTOCOL_VIOLATION, "CANNOT_READ_ALL_DATA"},
	{34, ERRCODE_FDW_ERROR, "TOO_MANY_ARGUMENTS_FOR_FUNCTION"},
	{35, ERRCODE_FDW_ERROR, "TOO_FEW_ARGUMENTS_FOR_FUNCTION"},
	{36, ERRCODE_FDW_ERROR, "BAD_ARGUMENTS"},
	{38, ERRCODE_INVALID_DATETIME_FORMAT, "CANNOT_PARSE_DATE"},
	{41, ERRCODE_INVALID_DATETIME_FORMAT, "CANNOT_PARSE_DATETIME"},
	{42, ERRCODE_UNDEFINED_FUNCTION, "NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
	{43, ERRCODE_DATATYPE_MISMATCH, "ILLEGAL_TYPE_OF_ARGUMENT"},
	{44, ERRCODE_DATATYPE_MISMATCH, "ILLEGAL_COLUMN"},
	{46, ERRCODE_UNDEFINED_FUNCTION, "UNKNOWN_FUNCTION"},
	{47, ERRCODE_UNDEFINED_COLUMN, "UNKNOWN_IDENTIFIER"},
	{48, ERRCODE_FEATURE_NOT_SUPPORTED, "NOT_IMPLEMENTED"},
	{49, ERRCODE_INTERNAL_ERROR, "LOGICAL_ERROR"},
	{50, ERRCODE_UNDEFINED_OBJECT, "UNKNOWN_TYPE"},
	{53, ERRCODE_DATATYPE_MISMATCH, "TYPE_MISMATCH"},
	{57, ERRCODE_FDW_ERROR, "TABLE_ALREADY_EXISTS"},
	{60, ERRCODE_UNDEFINED_TABLE, "UNKNOWN_TABLE"},
	{62, ERRCODE_SYNTAX_ERROR, "SYNTAX_ERROR"},
	{63, ERRCODE_UNDEFINED_FUNCTION, "UNKNOWN_AGGREGATE_FUNCTION"},
	{69, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "ARGUMENT_OUT_OF_BOUND"},
	{70, ERRCODE_INVALID_TEXT_REPRESENTATION, "CANNOT_CONVERT_TYPE"},
	{72, ERRCODE_INVALID_TEXT_REPRESENTATION, "CANNOT_PARSE_NUMBER"},
	{73, ERRCODE_FEATURE_NOT_SUPPORTED, "UNKNOWN_FORMAT"},
	{80, ERRCODE_FDW_ERROR, "INCORRECT_QUERY"},
	{81, ERRCODE_INVALID_CATALOG_NAME, "UNKNOWN_DATABASE"},
	{115, ERRCODE_UNDEFINED_OBJECT, "UNKNOWN_SETTING"},
	{117, ERRCODE_INVALID_BINARY_REPRESENTATION, "INCORRECT_DATA"},
	{153, ERRCODE_DIVISION_BY_ZERO, "ILLEGAL_DIVISION"},
	{158, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "TOO_MANY_ROWS"},
	{159, ERRCODE_QUERY_CANCELED, "TIMEOUT_EXCEEDED"},
	{160, ERRCODE_QUERY_CANCELED, "TOO_SLOW"},
	{164, ERRCODE_READ_ONLY_SQL_TRANSACTION, "READONLY"},
	{184, ERRCODE_FDW_ERROR, "ILLEGAL_AGGREGATION"},
	{192, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "UNKNOWN_USER"},
	{193, ERRCODE_INVALID_PASSWORD, "WRONG_PASSWORD"},
	{194, ERRCODE_INVALID_PASSWORD, "REQUIRED_PASSWORD"},
	{195, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "IP_ADDRESS_NOT_ALLOWED"},
	{202, ERRCODE_TOO_MANY_CONNECTIONS, "TOO_MANY_SIMULTANEOUS_QUERIES"},
	{209, ERRCODE_CONNECTION_FAILURE, "SOCKET_TIMEOUT"},
	{210, ERRCODE_CONNECTION_FAILURE, "NETWORK_ERROR"},
	{215, ERRCODE_FDW_ERROR, "NOT_AN_AGGREGATE"},
	{216, ERRCODE_OBJECT_IN_USE, "QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING"},
	{236, ERRCODE_QUERY_CANCELED, "ABORTED"},
	{241, ERRCODE_OUT_OF_MEMORY, "MEMORY_LIMIT_EXCEEDED"},
	{242, ERRCODE_READ_ONLY_SQL_TRANSACTION, "TABLE_IS_READ_ONLY"},
	{252, ERRCODE_CONFIGURATION_LIMIT_EXCEEDED, "TOO_MANY_PARTS"},
	{271, ERRCODE_DATA_CORRUPTED, "CANNOT_DECOMPRESS"},
	{307, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "TOO_MANY_BYTES"},
	{319, ERRCODE_T_R_STATEMENT_COMPLETION_UNKNOWN, "UNKNOWN_STATUS_OF_INSERT"},
	{349, ERRCODE_NOT_NULL_VIOLATION, "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN"},
	{368, ERRCODE_INTERNAL_ERROR, NULL},
	{386, ERRCODE_FDW_ERROR, "NO_COMMON_TYPE"},
	{394, ERRCODE_QUERY_CANCELED, "QUERY_WAS_CANCELLED"},
	{395, ERRCODE_RAISE_EXCEPTION, "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO"},
	{396, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "TOO_MANY_ROWS_OR_BYTES"},
	{403, ERRCODE_FDW_ERROR, "INVALID_JOIN_ON_EXPRESSION"},
	{407, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "DECIMAL_OVERFLOW"},
	{420, ERRCODE_FDW_ERROR, "CANNOT_UPDATE_COLUMN"},
	{452, ERRCODE_FDW_ERROR, "SETTING_CONSTRAINT_VIOLATION"},
	{469, ERRCODE_CHECK_VIOLATION, "VIOLATED_CONSTRAINT"},
	{471, ERRCODE_FDW_ERROR, "INVALID_SETTING_VALUE"},
	{472, ERRCODE_FDW_ERROR, "READONLY_SETTING"},
	{473, ERRCODE_T_R_DEADLOCK_DETECTED, "DEADLOCK_AVOIDED"},
	{497, ERRCODE_INSUFFICIENT_PRIVILEGE, "ACCESS_DENIED"},
	{516, ERRCODE_INVALID_PASSWORD, "AUTHENTICATION_FAILED"},
	{735, ERRCODE_QUERY_CANCELED, "QUERY_WAS_CANCELLED_BY_CLIENT"},
	/* ZooKeeper (Keeper) down or lost: distributed DDL, replicated tables */
	{999, ERRCODE_SYSTEM_ERROR, "KEEPER_EXCEPTION"},
	{1000, ERRCODE_FDW_ERROR, "POCO_EXCEPTION"},
	{1001, ERRCODE_FDW_ERROR, "STD_EXCEPTION"},
	{1002, ERRCODE_FDW_ERROR, "UNKNOWN_EXCEPTION"},
};

static const ServerCodeMap *
server_code_entry(int code)
{
	size_t		i;

	for (i = 0; i < lengthof(server_codes); i++)
		if (server_codes[i].code == code)
			return &server_codes[i];
	return NULL;
}

static int
server_sqlstate(int code)
{
	const ServerCodeMap *e = server_code_entry(code);

	return e ? e->sqlstate : ERRCODE_FDW_ERROR;
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
 * fail inside error reporting); control characters other than tab and
 * (when keep_lines) line breaks are escaped too. Returns s itself when
 * nothing needs escaping, else a palloc'd copy.
 */
static const char *
clean_text(const char *s, bool keep_lines)
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
			if ((*p < 0x20 && *p != '\t' && !(keep_lines && (*p == '\n' || *p == '\r'))) ||
				*p == 0x7f)
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
 * chfdw_clean_server_text
 *		clean_text keeping line breaks: for ClickHouse's own messages,
 *		which may span lines.
 */
const char *
chfdw_clean_server_text(const char *s)
{
	return clean_text(s, true);
}

/*
 * The DETAIL of a ClickHouse exception: its class and code (with the
 * code's name when known), then the query id, then any detail of ours.
 * Built the same for both transports, so that one expected output serves
 * HTTP and TCP.
 */
static char *
server_detail(const ch_error *e, const char *query_id, const char *extra)
{
	const ServerCodeMap *entry = server_code_entry(e->server_code);
	StringInfoData d;

	initStringInfo(&d);
	appendStringInfoString(&d, "ClickHouse exception");
	if (e->server_name[0])
		appendStringInfo(&d, " %s", clean_text(e->server_name, false));
	if (e->server_code)
		appendStringInfo(&d, "%s code %d", e->server_name[0] ? "," : "", e->server_code);
	if (entry && entry->name)
		appendStringInfo(&d, " (%s)", entry->name);
	if (!e->server_code && e->http_status)
		appendStringInfo(&d, ", HTTP status %d", e->http_status);
	if (query_id && query_id[0])
		appendStringInfo(&d, ", query id \"%s\"", query_id);
	appendStringInfoChar(&d, '.');
	if (extra[0])
		appendStringInfo(&d, " %s", extra);
	return d.data;
}

/*
 * What of a server exception's err->detail is ours to show. The transports
 * leave ClickHouse's own diagnostics there: the stack trace of a TCP
 * Exception packet (frames numbered from "0. " in every version) or the
 * whole exception text over HTTP ("Code: ..."). Shown, they would make the
 * DETAIL differ by transport and bury what the FDW has to say, so they are
 * left out; any other text is the FDW's (e.g. ch_http's note that the text
 * was cut) and is kept.
 */
static const char *
own_detail(const char *detail)
{
	if (strncmp(detail, "Code: ", 6) == 0 || strncmp(detail, "0. ", 3) == 0)
		return "";
	return detail;
}

/* ---- errors the FDW's own guards raise (fnmore) ---- */

/*
 * A guard (pushdown_map.c) makes ClickHouse raise where PostgreSQL would by
 * converting, for the offending row only, a string of ours that is no
 * number: toInt8('chfdw-error:int4'). ClickHouse 18.16, whose throwIf()
 * takes no message, and current servers both raise CANNOT_PARSE_TEXT
 * (code 6) quoting the string before anything else ("Cannot parse string
 * 'chfdw-error:int4' as Int8: ...", src/Functions/FunctionsConversion.h),
 * over HTTP and TCP alike. The FDW recognises its own marker as the first
 * quoted text of such an exception, not ClickHouse's wording, and reports
 * PostgreSQL's own error for it (indexed by ChFdwRaise).
 */
typedef struct RaiseMap
{
	const char *marker;
	int			sqlstate;
	const char *message;		/* PostgreSQL's own, as in int.c / float.c */
} RaiseMap;

static const RaiseMap raise_map[] = {
	[CHFDW_RAISE_INT2] = {"chfdw-error:int2", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range"},
	[CHFDW_RAISE_INT4] = {"chfdw-error:int4", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range"},
	[CHFDW_RAISE_INT8] = {"chfdw-error:int8", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range"},
	[CHFDW_RAISE_DIV0] = {"chfdw-error:div0", ERRCODE_DIVISION_BY_ZERO, "division by zero"},
	/* repeat() (strfn), as oracle_compat.c */
	[CHFDW_RAISE_TOO_LONG] = {"chfdw-error:toolong", ERRCODE_PROGRAM_LIMIT_EXCEEDED,
	"requested length too large"},
	[CHFDW_RAISE_OVERFLOW] = {"chfdw-error:overflow", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
	"value out of range: overflow"},
	[CHFDW_RAISE_UNDERFLOW] = {"chfdw-error:underflow", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
	"value out of range: underflow"},
	[CHFDW_RAISE_SQRT] = {"chfdw-error:sqrt", ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
	"cannot take square root of a negative number"},
	/* (subq3) a scalar subquery sent with its SELECT list (subquery.c), as nodeSubplan.c */
	[CHFDW_RAISE_SUBQUERY_ROWS] = {"chfdw-error:subqrows", ERRCODE_CARDINALITY_VIOLATION,
	"more than one row returned by a subquery used as an expression"},
	/* not PostgreSQL's: the server cannot compute what was sent (pushdown_map.c) */
	[CHFDW_RAISE_DATE_PARTS] = {"chfdw-error:dateparts", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
	"date out of the range of this ClickHouse server's date functions (2106-02-07 is their last day)"},
	/* (dates) the range guards of timestamp columns' date parts (remote.c) */
	[CHFDW_RAISE_TS_PARTS] = {"chfdw-error:tsparts", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
	"timestamp out of the range of this ClickHouse server's date functions (its DateTime date parts end with 2106-02-04 UTC)"},
	[CHFDW_RAISE_TS_ZONE_ENDS] = {"chfdw-error:tszone", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
	"timestamp out of the range of ClickHouse's date functions in the column's zone (the first and last day of DateTime64's range)"},
	[CHFDW_RAISE_TS_FIRST_DAY] = {"chfdw-error:tsfirstday", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
	"timestamp before the first local day this ClickHouse server computes date parts of in the column's zone (1970-01-01 there)"},
	[CHFDW_RAISE_TS_ROUND] = {"chfdw-error:tsround", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
	"timestamp whose digits below the microsecond round it past DateTime64's last value (2299-12-31 23:59:59.999999 UTC): its date parts are not computed by ClickHouse"},
	/* (tochar) jsonb_array_length (jsonb.c), as jsonfuncs.c */
	[CHFDW_RAISE_JSONB_SCALAR] = {"chfdw-error:jsonbscalar", ERRCODE_INVALID_PARAMETER_VALUE,
	"cannot get array length of a scalar"},
	[CHFDW_RAISE_JSONB_NONARRAY] = {"chfdw-error:jsonbnonarray", ERRCODE_INVALID_PARAMETER_VALUE,
	"cannot get array length of a non-array"},
};

/*
 * chfdw_raise_marker
 *		The string a guard converts to make ClickHouse raise r (a static
 *		constant, safe inside a ClickHouse string literal).
 */
const char *
chfdw_raise_marker(ChFdwRaise r)
{
	Assert((int) r >= 0 && (int) r < (int) lengthof(raise_map));
	return raise_map[r].marker;
}

/* The guard's error of a ClickHouse exception, or NULL: another exception. */
static const RaiseMap *
raised_by_guard(const ch_error *e)
{
	const char *q;
	size_t		i;

	if (e->server_code != 6)	/* CANNOT_PARSE_TEXT */
		return NULL;
	q = strchr(e->message, '\'');
	if (!q)
		return NULL;
	q++;
	for (i = 0; i < lengthof(raise_map); i++)
	{
		size_t		len = strlen(raise_map[i].marker);

		if (strncmp(q, raise_map[i].marker, len) == 0 && q[len] == '\'')
			return &raise_map[i];
	}
	return NULL;
}

/* ---- (casts) guards' errors quoting a value ---- */

/*
 * The marker of these is followed by the value PostgreSQL's message quotes,
 * in hex ("chfdw-error:int4in:20616263'"); a value of more than 400 bytes
 * is cut by the guard to its first 100 characters (then 'Z' follows the
 * hex), so that the exception text stays within ch_error's message
 * (pushdown_casts.c).
 */
typedef struct RaiseValueMap
{
	const char *marker;
	int			sqlstate;
	const char *format;			/* PostgreSQL's own, %s the value */
	const char *hint;
} RaiseValueMap;

static const RaiseValueMap raise_value_map[] = {
	/* numutils.c pg_strtoint16/32/64 */
	[CHFDW_RV_INT2_SYNTAX] = {"chfdw-error:int2in:", ERRCODE_INVALID_TEXT_REPRESENTATION,
	"invalid input syntax for type smallint: \"%s\""},
	[CHFDW_RV_INT4_SYNTAX] = {"chfdw-error:int4in:", ERRCODE_INVALID_TEXT_REPRESENTATION,
	"invalid input syntax for type integer: \"%s\""},
	[CHFDW_RV_INT8_SYNTAX] = {"chfdw-error:int8in:", ERRCODE_INVALID_TEXT_REPRESENTATION,
	"invalid input syntax for type bigint: \"%s\""},
	[CHFDW_RV_INT2_RANGE] = {"chfdw-error:int2range:", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
	"value \"%s\" is out of range for type smallint"},
	[CHFDW_RV_INT4_RANGE] = {"chfdw-error:int4range:", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
	"value \"%s\" is out of range for type integer"},
	[CHFDW_RV_INT8_RANGE] = {"chfdw-error:int8range:", ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
	"value \"%s\" is out of range for type bigint"},
	/* date.c make_date */
	[CHFDW_RV_DATE_FIELD] = {"chfdw-error:datefield:", ERRCODE_DATETIME_FIELD_OVERFLOW,
	"date field value out of range: %s"},
	[CHFDW_RV_DATE_RANGE] = {"chfdw-error:daterange:", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
	"date out of range: %s"},
	/* date.c date_pli/date_mii (no value quoted) */
	[CHFDW_RV_DATE_OUT] = {"chfdw-error:dateout:", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
	"date out of range"},
	/* not PostgreSQL's: a date result ClickHouse cannot hold (as shippable.c's constants) */
	[CHFDW_RV_DATE_CH16] = {"chfdw-error:datech16:", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
		"date value out of range for ClickHouse",
	"This ClickHouse server computes dates from 1970-01-01 to 2106-02-07."},
	[CHFDW_RV_DATE_CH32] = {"chfdw-error:datech32:", ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
		"date value out of range for ClickHouse",
	"ClickHouse's Date32 holds dates from 1900-01-01 to 2299-12-31."},
};

/*
 * chfdw_raise_value_marker
 *		The start of the string a guard converts to make ClickHouse raise r,
 *		the value's hex following it.
 */
const char *
chfdw_raise_value_marker(ChFdwRaiseValue r)
{
	Assert((int) r >= 0 && (int) r < (int) lengthof(raise_value_map));
	return raise_value_map[r].marker;
}

static int
hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 :
		c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * A guard's error quoting a value: reported as PostgreSQL's (returns only
 * when the exception is not one). A value that is not valid text in the
 * database's encoding (a zero byte, bad UTF-8), which PostgreSQL refuses
 * to read from the column, raises the error reading it raises.
 */
static void
report_raised_value(int elevel, const ch_error *e, const char *remote_sql, const char *query_id)
{
	const char *q;
	size_t		i;

	if (e->server_code != 6)	/* CANNOT_PARSE_TEXT */
		return;
	q = strchr(e->message, '\'');
	if (!q)
		return;
	q++;
	for (i = 0; i < lengthof(raise_value_map); i++)
	{
		const RaiseValueMap *rm = &raise_value_map[i];
		size_t		len = strlen(rm->marker);
		StringInfoData v;
		const char *p;
		bool		cut = false;

		if (strncmp(q, rm->marker, len) != 0)
			continue;
		initStringInfo(&v);
		for (p = q + len; hex_digit(p[0]) >= 0 && hex_digit(p[1]) >= 0; p += 2)
			appendStringInfoChar(&v, (char) (hex_digit(p[0]) * 16 + hex_digit(p[1])));
		if (*p == 'Z')
		{
			cut = true;
			p++;
		}
		if (*p != '\'')
			return;				/* not ours after all, or cut by the transport */
		pg_verifymbstr(v.data, v.len, false);
		chfdw_stats_error(rm->sqlstate);
		ereport(elevel,
				(errcode(rm->sqlstate),
				 errmsg_internal("%s", psprintf(rm->format, cut ? psprintf("%s...", v.data) : v.data)),
				 cut ? errdetail("ClickHouse raised it computing a value of the remote query (query id \"%s\"); the value is cut to its first 100 characters.",
								 query_id ? query_id : "") :
				 errdetail("ClickHouse raised it computing a value of the remote query (query id \"%s\").",
						   query_id ? query_id : ""),
				 rm->hint ? errhint("%s", rm->hint) : 0,
				 remote_sql ? errcontext("remote SQL command: %s", remote_sql) : 0));
		return;
	}
}

/*
 * chfdw_report_detail
 *		Raise an error for a failure of the PostgreSQL-free layers, as
 *		postgres_fdw's pgfdw_report_error does; extra (NULL or a sentence of
 *		the caller's, e.g. what an INSERT already committed) ends the DETAIL.
 *
 * A ClickHouse exception (CH_ERR_SERVER): the primary message is
 * ClickHouse's message alone; DETAIL names the exception class and code
 * and the query id (server_detail); the SQLSTATE comes from the code.
 * Exception text that arrives whole ("Code: 60, e.displayText() = ..." from
 * 18.16, "Code: 60. DB::Exception: ... (UNKNOWN_TABLE) (version ...)" from
 * newer servers, over HTTP or inside a Native stream) is split with
 * ch_exception_split first, so both transports give the same fields.
 *
 * Other failures: our message, err->detail, extra and the query id in
 * DETAIL. remote_sql becomes CONTEXT "remote SQL command: ...", as in
 * postgres_fdw. Server text in the message and detail is cleaned first.
 */
void
chfdw_report_detail(int elevel, ch_status st, const ch_error *err,
					const char *remote_sql, const char *query_id, const char *extra)
{
	/*
	 * Our own messages are one line: a line break in one came with server
	 * bytes quoted in it (a garbled type name) and is escaped.
	 */
	const char *msg = (err && err->message[0]) ?
		clean_text(err->message, false) : ch_status_text(st);
	const char *detail = err ? err->detail : "";

	if (st == CH_ERR_SERVER)
		detail = own_detail(detail);
	if (extra && extra[0])
		detail = detail[0] ? psprintf("%s %s", detail, extra) : extra;
	detail = clean_text(detail, st == CH_ERR_SERVER);

	if (st == CH_ERR_SERVER)
	{
		ch_error   *e = palloc0(sizeof(ch_error));
		int			code;
		const RaiseMap *rm;

		if (err)
			*e = *err;
		if (strncmp(e->message, "Code: ", 6) == 0)
		{
			char	   *text = pstrdup(e->message);

			ch_exception_split(text, strlen(text), e);
		}
		if (!e->message[0])
			snprintf(e->message, sizeof(e->message), "%s", ch_status_text(st));
		code = e->server_code;
		report_raised_value(elevel, e, remote_sql, query_id);	/* (casts) */
		rm = raised_by_guard(e);
		if (rm)
		{
			chfdw_stats_error(rm->sqlstate);
			ereport(elevel,
					(errcode(rm->sqlstate),
					 errmsg_internal("%s", rm->message),
					 errdetail("ClickHouse raised it computing a value of the remote query (query id \"%s\").",
							   query_id ? query_id : ""),
					 remote_sql ? errcontext("remote SQL command: %s", remote_sql) : 0));
		}
		chfdw_stats_error(server_sqlstate(code));
		ereport(elevel,
				(errcode(server_sqlstate(code)),
				 errmsg_internal("%s", chfdw_clean_server_text(e->message)),
				 errdetail_internal("%s", server_detail(e, query_id, detail)),
				 remote_sql ? errcontext("remote SQL command: %s", remote_sql) : 0));
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
				 remote_sql ? errcontext("remote SQL command: %s", remote_sql) : 0));
	}
	pg_unreachable();
}

/* chfdw_report_detail without a sentence of the caller's */
void
chfdw_report(int elevel, ch_status st, const ch_error *err,
			 const char *remote_sql, const char *query_id)
{
	chfdw_report_detail(elevel, st, err, remote_sql, query_id, NULL);
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
