/*-------------------------------------------------------------------------
 * settings.c
 *	  ClickHouse settings from the server option "settings", the user
 *	  mapping option "settings" and the GUC clickhouse_fdw.settings: their
 *	  syntax, the names that may not be set, and their precedence.
 *
 * Syntax: items "name = value" separated by commas or line breaks. A value
 * is either bare (no comma, quote or line break) or single-quoted, with ''
 * for a quote inside; a quoted value may hold commas and line breaks.
 *
 * Names that are refused anywhere (README, "Security"):
 *	- the HTTP interface's own parameters, which are not settings: over
 *	  HTTP every URL parameter that is not one of them is taken as a setting
 *	  (ClickHouse src/Server/HTTPHandler.cpp), so "query" would prepend SQL
 *	  to the request and "user" would reach authentication;
 *	- settings the FDW itself sets or whose value its decoding and its
 *	  pushdown rely on (Native format details, the dedup token, semantics
 *	  of NULLs, joins and empty aggregates, result filters and limits);
 *	- any *_overflow_mode other than "throw": "break" (and "any" for
 *	  GROUP BY) makes ClickHouse return a partial result without an error.
 *
 * Precedence: the server's settings are fixed; the user mapping may add
 * settings the server does not name, the GUC settings neither names. A
 * name set again at a lower level is an error, never silently taken or
 * dropped, so a role cannot lift a limit (readonly, max_memory_usage, ...)
 * that whoever configured the server or the mapping set.
 *
 * src/fdw/settings.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"

#include "chfdw.h"

/* Refused names (compared case-insensitively). */
static const char *const reserved_names[] = {
	/* HTTP interface parameters (HTTPHandler.cpp), not settings */
	"query", "database", "default_format", "user", "password", "quota_key",
	"query_id", "session_id", "session_timeout", "session_check", "close_session",
	"compress", "decompress", "buffer_size", "wait_end_of_query", "role",
	"client_protocol_version", "stacktrace", "http_response_headers",
	/* chosen by the FDW per request */
	"enable_http_compression", "http_native_compression_disable_checksumming_on_decompress",
	"insert_deduplication_token", "low_cardinality_allow_in_native_format",
	"insert_distributed_sync", "distributed_foreground_insert",
	/* change the answers that pushdown and decoding rely on */
	"extremes", "limit", "offset", "additional_table_filters", "additional_result_filter",
	"empty_result_for_aggregation_by_empty_set", "aggregate_functions_null_for_empty",
	"transform_null_in", "join_use_nulls", "join_default_strictness",
	"any_join_distinct_right_table_keys", "count_distinct_implementation",
	"cast_keep_nullable", "group_by_use_nulls", "session_timezone",
	NULL
};

/* Refused name prefixes. */
static const char *const reserved_prefixes[] = {
	"param_",					/* HTTP query parameters */
	"output_format_native",		/* the Native output the FDW decodes */
	"input_format_native",		/* the Native input the FDW writes */
	NULL
};

#define OVERFLOW_MODE_SUFFIX "_overflow_mode"

/*
 * Why name may not be set, or NULL if it may. (value is checked for the
 * *_overflow_mode settings.)
 */
static const char *
refused_because(const char *name, const char *value)
{
	const char *const *p;
	size_t		len = strlen(name);
	size_t		slen = strlen(OVERFLOW_MODE_SUFFIX);

	for (p = reserved_names; *p; p++)
		if (pg_strcasecmp(name, *p) == 0)
			return "it is set by clickhouse_fdw itself or changes results that clickhouse_fdw relies on";
	for (p = reserved_prefixes; *p; p++)
		if (pg_strncasecmp(name, *p, strlen(*p)) == 0)
			return "it is set by clickhouse_fdw itself or changes results that clickhouse_fdw relies on";
	if (len > slen && pg_strcasecmp(name + len - slen, OVERFLOW_MODE_SUFFIX) == 0 &&
		pg_strcasecmp(value, "throw") != 0)
		return "any mode but \"throw\" returns a partial result without an error";
	return NULL;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool
is_separator(char c)
{
	return c == ',' || c == '\n' || c == '\r';
}

static void
syntax_error(const char *what, const char *msg)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
			 errmsg("invalid ClickHouse settings in %s: %s", what, msg),
			 errhint("Settings look like 'max_threads=4, max_memory_usage=1e10'; "
					 "quote a value that holds a comma or a line break: 'name=''a,b'''.")));
}

/*
 * Parse ClickHouse settings (syntax above) into a List of ch_setting
 * pointers appended to *out; a name given twice in one text keeps its last
 * value. what names the source for messages. Refused names are errors.
 * Everything is palloc'd in the current memory context.
 */
void
chfdw_parse_settings(const char *text, const char *what, List **out)
{
	const char *p = text;

	for (;;)
	{
		StringInfoData name;
		StringInfoData value;
		const char *why;
		ch_setting *st;
		ListCell   *lc;

		while (is_space(*p) || is_separator(*p))
			p++;
		if (*p == '\0')
			break;
		initStringInfo(&name);
		while (*p && !is_separator(*p) && *p != '=')
			appendStringInfoChar(&name, *p++);
		while (name.len > 0 && is_space(name.data[name.len - 1]))
			name.data[--name.len] = '\0';
		if (*p != '=')
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("invalid ClickHouse setting \"%s\" in %s", name.data, what),
					 errhint("Settings look like 'max_threads=4, join_algorithm=hash'.")));
		p++;
		if (!(isalpha((unsigned char) name.data[0]) || name.data[0] == '_') ||
			strspn(name.data, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
			(size_t) name.len)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("invalid ClickHouse setting name \"%s\" in %s", name.data, what)));
		while (is_space(*p))
			p++;
		initStringInfo(&value);
		if (*p == '\'')
		{
			p++;
			for (;;)
			{
				if (*p == '\0')
					syntax_error(what, psprintf("the value of \"%s\" lacks its closing quote",
												name.data));
				if (*p == '\'' && p[1] == '\'')
				{
					appendStringInfoChar(&value, '\'');
					p += 2;
				}
				else if (*p == '\'')
				{
					p++;
					break;
				}
				else
					appendStringInfoChar(&value, *p++);
			}
			while (is_space(*p))
				p++;
			if (*p != '\0' && !is_separator(*p))
				syntax_error(what, psprintf("text after the quoted value of \"%s\"", name.data));
		}
		else
		{
			while (*p && !is_separator(*p))
			{
				if (*p == '\'')
					syntax_error(what, psprintf("a quote inside the value of \"%s\"", name.data));
				appendStringInfoChar(&value, *p++);
			}
			while (value.len > 0 && is_space(value.data[value.len - 1]))
				value.data[--value.len] = '\0';
			if (value.len == 0)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("invalid value for ClickHouse setting \"%s\" in %s", name.data, what),
						 errhint("Write an empty value as ''.")));
		}
		why = refused_because(name.data, value.data);
		if (why)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("ClickHouse setting \"%s\" cannot be set in %s", name.data, what),
					 errdetail("It is refused because %s.", why),
					 errhint("See the section \"Security\" of clickhouse_fdw's README.")));
		foreach(lc, *out)
		{
			ch_setting *old = (ch_setting *) lfirst(lc);

			if (strcmp(old->name, name.data) == 0)
			{
				*out = foreach_delete_current(*out, lc);
				break;
			}
		}
		st = palloc(sizeof(ch_setting));
		st->name = name.data;
		st->value = value.data;
		*out = lappend(*out, st);
	}
}

/* The setting of list named like name (case-insensitively), or NULL. */
static ch_setting *
find_setting(List *list, const char *name)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		ch_setting *s = (ch_setting *) lfirst(lc);

		if (pg_strcasecmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

static void
refuse_override(const char *name, const char *what, const char *fixed_by)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("ClickHouse setting \"%s\" of %s cannot change the value fixed by %s",
					name, what, fixed_by),
			 errdetail("The server's settings win over the user mapping's, and both over "
					   "clickhouse_fdw.settings."),
			 errhint("Remove \"%s\" from %s, or change it in %s.", name, what, fixed_by)));
}

/*
 * The settings of one request: the server's, then the user mapping's, then
 * the GUC's, each level adding only names the levels above do not set
 * (an attempt to change one is an error), then the nextra settings of
 * extra (the FDW's own, e.g. a dedup token). Returns a palloc'd array and
 * its length.
 */
ch_setting *
chfdw_request_settings(const char *server_settings, const char *user_settings,
					   const ch_setting *extra, int nextra, int *n)
{
	List	   *server = NIL;
	List	   *mapping = NIL;
	List	   *guc = NIL;
	List	   *all;
	ListCell   *lc;
	ch_setting *arr;
	int			i = 0;

	if (server_settings)
		chfdw_parse_settings(server_settings, "the server's option \"settings\"", &server);
	if (user_settings)
		chfdw_parse_settings(user_settings, "the user mapping's option \"settings\"", &mapping);
	if (chfdw_guc_settings)
		chfdw_parse_settings(chfdw_guc_settings, "clickhouse_fdw.settings", &guc);
	foreach(lc, mapping)
	{
		ch_setting *s = (ch_setting *) lfirst(lc);

		if (find_setting(server, s->name))
			refuse_override(s->name, "the user mapping's option \"settings\"",
							"the server's option \"settings\"");
	}
	foreach(lc, guc)
	{
		ch_setting *s = (ch_setting *) lfirst(lc);

		if (find_setting(server, s->name))
			refuse_override(s->name, "clickhouse_fdw.settings", "the server's option \"settings\"");
		if (find_setting(mapping, s->name))
			refuse_override(s->name, "clickhouse_fdw.settings",
							"the user mapping's option \"settings\"");
	}
	all = list_concat(list_concat(server, mapping), guc);
	arr = palloc(sizeof(ch_setting) * (list_length(all) + nextra + 1));
	foreach(lc, all)
		arr[i++] = *(ch_setting *) lfirst(lc);
	while (nextra-- > 0)
		arr[i++] = *extra++;
	*n = i;
	return arr;
}
