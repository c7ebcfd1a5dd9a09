/*-------------------------------------------------------------------------
 * ch_ddl.c
 *	  Where a DDL statement's ON CLUSTER clause goes; the names a
 *	  Distributed engine reads (ch_ddl.h).
 *
 * A small tokenizer after ClickHouse's src/Parsers/Lexer.cpp, reading only
 * the first tokens of a statement. It never guesses: a token it does not
 * know where it expects a keyword or a name stops it with
 * CH_ERR_UNSUPPORTED, so the caller sends nothing it could have misplaced.
 *
 * src/common/ch_ddl.c
 *-------------------------------------------------------------------------
 */
#include "ch_ddl.h"

#include <string.h>

typedef enum
{
	TOK_END,					/* end of input */
	TOK_WORD,					/* bare word: keyword or identifier */
	TOK_QUOTED,					/* `name` or "name" */
	TOK_STRING,					/* 'literal' */
	TOK_DOT,
	TOK_OPEN,					/* ( */
	TOK_CLOSE,					/* ) */
	TOK_COMMA,
	TOK_OTHER,					/* anything else */
	TOK_BAD						/* unterminated quote or comment, nested comment */
} tok_kind;

typedef struct
{
	const char *s;
	size_t		len;
	size_t		pos;			/* next byte to read */
	tok_kind	kind;			/* the last token read */
	size_t		start;			/* its first byte */
	size_t		end;			/* one past its last byte */
	const char *why;			/* for TOK_BAD */
} lexer;

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int
is_word_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_word_char(char c)
{
	return is_word_start(c) || (c >= '0' && c <= '9');
}

/* Skips whitespace and comments; false (kind TOK_BAD) on a bad comment. */
static int
skip_blank(lexer *lx)
{
	for (;;)
	{
		while (lx->pos < lx->len && is_space(lx->s[lx->pos]))
			lx->pos++;
		if (lx->pos + 1 < lx->len && lx->s[lx->pos] == '-' && lx->s[lx->pos + 1] == '-')
		{
			while (lx->pos < lx->len && lx->s[lx->pos] != '\n')
				lx->pos++;
			continue;
		}
		if (lx->pos + 1 < lx->len && lx->s[lx->pos] == '/' && lx->s[lx->pos + 1] == '*')
		{
			size_t		p = lx->pos + 2;

			/* 18.16 ends a comment at the first "* /", newer servers nest them */
			for (; p + 1 < lx->len; p++)
			{
				if (lx->s[p] == '/' && lx->s[p + 1] == '*')
				{
					lx->why = "a comment inside a comment";
					return 0;
				}
				if (lx->s[p] == '*' && lx->s[p + 1] == '/')
					break;
			}
			if (p + 1 >= lx->len)
			{
				lx->why = "an unterminated comment";
				return 0;
			}
			lx->pos = p + 2;
			continue;
		}
		return 1;
	}
}

/* Reads the next token into lx->kind/start/end. */
static tok_kind
next(lexer *lx)
{
	char		c;

	if (!skip_blank(lx))
		return lx->kind = TOK_BAD;
	lx->start = lx->pos;
	if (lx->pos >= lx->len)
	{
		lx->end = lx->pos;
		return lx->kind = TOK_END;
	}
	c = lx->s[lx->pos];
	if (is_word_start(c))
	{
		while (lx->pos < lx->len && is_word_char(lx->s[lx->pos]))
			lx->pos++;
		lx->end = lx->pos;
		return lx->kind = TOK_WORD;
	}
	if (c == '`' || c == '"' || c == '\'')
	{
		size_t		p = lx->pos + 1;

		for (; p < lx->len; p++)
		{
			if (lx->s[p] == '\\')
				p++;			/* the escaped byte */
			else if (lx->s[p] == c)
			{
				if (p + 1 < lx->len && lx->s[p + 1] == c)
					p++;		/* a doubled quote */
				else
					break;
			}
		}
		if (p >= lx->len)
		{
			lx->why = "an unterminated quote";
			return lx->kind = TOK_BAD;
		}
		lx->pos = p + 1;
		lx->end = lx->pos;
		return lx->kind = c == '\'' ? TOK_STRING : TOK_QUOTED;
	}
	lx->pos++;
	lx->end = lx->pos;
	switch (c)
	{
		case '.':
			return lx->kind = TOK_DOT;
		case '(':
			return lx->kind = TOK_OPEN;
		case ')':
			return lx->kind = TOK_CLOSE;
		case ',':
			return lx->kind = TOK_COMMA;
		default:
			return lx->kind = TOK_OTHER;
	}
}

/* Whether the last token is the bare word kw (ASCII, any case). */
static int
is_kw(const lexer *lx, const char *kw)
{
	size_t		n = strlen(kw),
				i;

	if (lx->kind != TOK_WORD || lx->end - lx->start != n)
		return 0;
	for (i = 0; i < n; i++)
	{
		char		a = lx->s[lx->start + i];

		if (a >= 'a' && a <= 'z')
			a = (char) (a - 'a' + 'A');
		if (a != kw[i])
			return 0;
	}
	return 1;
}

/* Reads a token and checks it is the keyword kw. */
static int
want_kw(lexer *lx, const char *kw)
{
	next(lx);
	return is_kw(lx, kw);
}

static int
is_name(const lexer *lx)
{
	return lx->kind == TOK_WORD || lx->kind == TOK_QUOTED;
}

static ch_status
unsupported(lexer *lx, ch_error *err, const char *what)
{
	if (lx->kind == TOK_BAD)
		return ch_error_set(err, CH_ERR_UNSUPPORTED,
							"the statement has %s where its kind or object name is read",
							lx->why);
	return ch_error_set(err, CH_ERR_UNSUPPORTED, "%s", what);
}

#define NOT_KNOWN "the statement is not one of CREATE DATABASE|TABLE|VIEW, DROP DATABASE|TABLE|VIEW, ALTER TABLE, TRUNCATE, OPTIMIZE TABLE"

ch_status
ch_ddl_on_cluster_at(const char *sql, size_t len, size_t *pos, ch_error *err)
{
	lexer		lx = {sql, len, 0, TOK_END, 0, 0, NULL};
	int			database = 0;	/* the object is a database: no "db." */
	int			if_clause = 0;	/* 1: IF NOT EXISTS, 2: IF EXISTS */

	next(&lx);
	if (is_kw(&lx, "CREATE"))
	{
		next(&lx);
		if (is_kw(&lx, "MATERIALIZED"))
		{
			if (!want_kw(&lx, "VIEW"))
				return unsupported(&lx, err, NOT_KNOWN);
		}
		else if (is_kw(&lx, "DATABASE"))
			database = 1;
		else if (is_kw(&lx, "TEMPORARY"))
			return ch_error_set(err, CH_ERR_UNSUPPORTED,
								"a temporary table belongs to one session of one server");
		else if (!is_kw(&lx, "TABLE") && !is_kw(&lx, "VIEW"))
			return unsupported(&lx, err, NOT_KNOWN);
		if_clause = 1;
	}
	else if (is_kw(&lx, "DROP"))
	{
		next(&lx);
		if (is_kw(&lx, "DATABASE"))
			database = 1;
		else if (is_kw(&lx, "TEMPORARY"))
			return ch_error_set(err, CH_ERR_UNSUPPORTED,
								"a temporary table belongs to one session of one server");
		else if (!is_kw(&lx, "TABLE") && !is_kw(&lx, "VIEW"))
			return unsupported(&lx, err, NOT_KNOWN);
		if_clause = 2;
	}
	else if (is_kw(&lx, "ALTER") || is_kw(&lx, "OPTIMIZE"))
	{
		if (!want_kw(&lx, "TABLE"))
			return unsupported(&lx, err, NOT_KNOWN);
	}
	else if (is_kw(&lx, "TRUNCATE"))
	{
		/* TABLE is optional on newer servers; IF EXISTS follows either way */
		size_t		save = lx.pos;

		if (!want_kw(&lx, "TABLE"))
			lx.pos = save;
		if_clause = 2;
	}
	else if (is_kw(&lx, "RENAME"))
		return ch_error_set(err, CH_ERR_UNSUPPORTED,
							"RENAME takes ON CLUSTER at its end, after every pair of names");
	else
		return unsupported(&lx, err, NOT_KNOWN);

	next(&lx);
	if (if_clause && is_kw(&lx, "IF"))
	{
		if ((if_clause == 1 && !want_kw(&lx, "NOT")) || !want_kw(&lx, "EXISTS"))
			return unsupported(&lx, err, "the statement's IF [NOT] EXISTS is not complete");
		next(&lx);
	}
	if (!is_name(&lx))
		return unsupported(&lx, err, "the statement's object name is not where it belongs");
	*pos = lx.end;
	next(&lx);
	if (database && lx.kind == TOK_DOT)
		return unsupported(&lx, err, "a database name has no \".\"");
	if (!database && lx.kind == TOK_DOT)
	{
		next(&lx);
		if (!is_name(&lx))
			return unsupported(&lx, err, "the statement's object name is not complete");
		*pos = lx.end;
		next(&lx);
	}
	if (lx.kind == TOK_BAD)
		return unsupported(&lx, err, "");
	if (is_kw(&lx, "ON"))
		return ch_error_set(err, CH_ERR_UNSUPPORTED, "the statement already has an ON clause after its object name");
	return CH_OK;
}

/*
 * Copies the name or literal the last token holds into out (CH_DDL_NAME_MAX
 * bytes), unquoted: a doubled quote or a backslash before a quote or a
 * backslash stands for itself; other escapes are refused.
 */
static ch_status
unquote(const lexer *lx, char *out, ch_error *err)
{
	const char *s = lx->s + lx->start;
	size_t		n = lx->end - lx->start,
				o = 0,
				i;

	if (lx->kind == TOK_WORD)
	{
		if (n >= CH_DDL_NAME_MAX)
			return ch_error_set(err, CH_ERR_UNSUPPORTED, "a name of %zu bytes", n);
		memcpy(out, s, n);
		out[n] = '\0';
		return CH_OK;
	}
	for (i = 1; i + 1 < n; i++)
	{
		char		c = s[i];

		if (c == '\\')
		{
			c = s[++i];
			if (c != '\\' && c != '\'' && c != '"' && c != '`')
				return ch_error_set(err, CH_ERR_UNSUPPORTED,
									"an escape \\%c in a name", c);
		}
		else if (c == s[0])
			i++;				/* the first of a doubled quote */
		if (o + 1 >= CH_DDL_NAME_MAX)
			return ch_error_set(err, CH_ERR_UNSUPPORTED, "a name of more than %d bytes",
								CH_DDL_NAME_MAX - 1);
		out[o++] = c;
	}
	out[o] = '\0';
	return CH_OK;
}

ch_status
ch_ddl_distributed_args(const char *engine_full, char *cluster, char *database,
						char *table, ch_error *err)
{
	lexer		lx = {engine_full, strlen(engine_full), 0, TOK_END, 0, 0, NULL};
	char	   *outs[3] = {cluster, database, table};
	int			i;

	if (!want_kw(&lx, "DISTRIBUTED") || next(&lx) != TOK_OPEN)
		return ch_error_set(err, CH_ERR_MALFORMED, "not a Distributed engine: %.100s",
							engine_full);
	for (i = 0; i < 3; i++)
	{
		ch_status	st;
		int			current = 0;	/* currentDatabase() */

		next(&lx);
		if (i == 1 && is_kw(&lx, "CURRENTDATABASE"))
		{
			lexer		save = lx;

			if (next(&lx) == TOK_OPEN && next(&lx) == TOK_CLOSE)
				current = 1;
			else
				lx = save;		/* a database named currentDatabase */
		}
		if (current)
			database[0] = '\0';
		else if (lx.kind == TOK_CLOSE)
			return ch_error_set(err, CH_ERR_MALFORMED,
								"a Distributed engine with fewer than 3 arguments: %.100s",
								engine_full);
		else if (lx.kind != TOK_WORD && lx.kind != TOK_QUOTED && lx.kind != TOK_STRING)
			return ch_error_set(err, CH_ERR_UNSUPPORTED,
								"argument %d of the Distributed engine is not a name: %.100s",
								i + 1, engine_full);
		else if ((st = unquote(&lx, outs[i], err)) != CH_OK)
			return st;
		else if (outs[i][0] == '\0')
			return ch_error_set(err, CH_ERR_UNSUPPORTED,
								"argument %d of the Distributed engine is empty: %.100s",
								i + 1, engine_full);
		/* what ends the argument: a comma, or the parenthesis after the third */
		next(&lx);
		if (lx.kind == TOK_CLOSE && i < 2)
			return ch_error_set(err, CH_ERR_MALFORMED,
								"a Distributed engine with fewer than 3 arguments: %.100s",
								engine_full);
		if (lx.kind != TOK_COMMA && !(lx.kind == TOK_CLOSE && i == 2))
			return ch_error_set(err, CH_ERR_UNSUPPORTED,
								"argument %d of the Distributed engine is not a name: %.100s",
								i + 1, engine_full);
	}
	return CH_OK;
}
