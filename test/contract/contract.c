/*-------------------------------------------------------------------------
 * contract.c
 *	  The transport contract (src/include/ch_transport.h), run against BOTH
 *	  transports on the live ClickHouse 18.16 server of test/servers.sh:
 *	  every test body runs once over HTTP (CH_HTTP_PORT) and once over the
 *	  native protocol (CH_TCP_PORT), and where both must agree (exception
 *	  fields, golden results) it compares them.
 *
 *	build/contract/run_contract test/golden [NAME-SUBSTRING...]
 *	(make contract; test/check.sh runs it after starting the servers)
 *
 * No PostgreSQL. The server must be up: a missing CH_HTTP_PORT /
 * CH_TCP_PORT or a server that does not answer fails every test (never
 * skips them).
 *
 * test/contract/contract.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "ch_transport.h"
#include "ch_tcp_proto.h"

#include <poll.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

static const ch_transport_kind kinds[2] = {CH_TRANSPORT_HTTP, CH_TRANSPORT_NATIVE};

static const char *
kind_name(ch_transport_kind k)
{
	return k == CH_TRANSPORT_NATIVE ? "native" : "http";
}

static ch_endpoint endpoint;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static ch_conn *
open_conn(ch_transport_kind kind, uint32_t rev)
{
	ch_conn_config cfg;
	ch_error	err;
	const char *host = getenv("CH_HOST");
	const char *port = getenv(kind == CH_TRANSPORT_NATIVE ? "CH_TCP_PORT" : "CH_HTTP_PORT");
	ch_conn    *c;

	if (!CHECK_MSG(port != NULL, "CH_HTTP_PORT / CH_TCP_PORT not set: start the servers "
				   "(bash test/servers.sh start; eval \"$(bash test/servers.sh env)\")"))
		return NULL;
	endpoint.host = host ? host : "127.0.0.1";
	endpoint.port = atoi(port);
	memset(&cfg, 0, sizeof(cfg));
	cfg.kind = kind;
	cfg.endpoints = &endpoint;
	cfg.nendpoints = 1;
	cfg.user = "default";
	cfg.password = "";
	cfg.connect_timeout_ms = 5000;
	cfg.receive_timeout_ms = 60000;
	cfg.tcp_revision = rev;
	ch_error_clear(&err);
	c = ch_conn_create(NULL, &cfg, &err);
	CHECK_MSG(c != NULL, "%s: ch_conn_create: %s", kind_name(kind), err.message);
	return c;
}

/* what a query produced */
typedef struct result
{
	ch_status	st;
	ch_error	err;
	uint64_t	rows;
	uint64_t	blocks;			/* with rows */
	uint64_t	empty_blocks;
	uint64_t	sum0;			/* sum of column 0 if it is an unsigned integer */
	uint64_t	hash[64];		/* block_hash of the blocks with rows */
	ch_block_kind kinds[64];
} result;

static void
take_block(result *r, const ch_block *b, ch_block_kind kind, bool fix_tz, const ch_block *like)
{
	uint64_t	i;

	if (b->nrows == 0)
	{
		r->empty_blocks++;
		return;
	}
	if (b->ncols > 0 && b->cols[0].type->kind >= CH_T_UINT8 && b->cols[0].type->kind <= CH_T_UINT64)
		for (i = 0; i < b->nrows; i++)
			r->sum0 += col_u64(&b->cols[0], i);
	if (r->blocks < 64)
	{
		r->kinds[r->blocks] = kind;
		r->hash[r->blocks] = block_hash(b);
	}
	(void) fix_tz;
	(void) like;
	r->blocks++;
	r->rows += b->nrows;
}

static void
run_query(ch_conn *c, const char *sql, ch_compression comp, const ch_setting *settings,
		  int nsettings, const char *query_id, result *r)
{
	ch_query	q;
	memset(r, 0, sizeof(*r));
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.compression = comp;
	q.settings = settings;
	q.nsettings = nsettings;
	q.query_id = query_id;
	q.want_totals_extremes = true;
	ch_error_clear(&r->err);
	r->st = ch_conn_begin_query(c, &q, &r->err);
	if (r->st != CH_OK)
		return;
	for (;;)
	{
		const ch_block *b;
		ch_block_kind kind;
		ch_wait		w;

		memset(&w, 0, sizeof(w));
		r->st = ch_conn_next_block(c, &b, &kind, &w, &r->err);
		if (r->st == CH_OK)
		{
			take_block(r, b, kind, false, NULL);
			continue;
		}
		if (r->st != CH_NEED_MORE)
			break;
		wait_poll(&w);
	}
	if (r->st == CH_END)
		r->st = CH_OK;
}

static bool
exec_ok(ch_conn *c, const char *sql)
{
	result		r;

	run_query(c, sql, CH_COMPRESSION_NONE, NULL, 0, NULL, &r);
	return CHECK_MSG(r.st == CH_OK, "%s: %s: %s", sql, ch_status_name(r.st), r.err.message);
}

/* ---- connect, caps, server info, ping ---- */

TEST(contract_connect_caps)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_error	err;
		const ch_caps *caps;

		if (!c)
			return;
		ch_error_clear(&err);
		CHECK(!ch_conn_connected(c));
		CHECK_STATUS(ch_conn_begin_connect(c, &err), CH_OK);
		CHECK_MSG(ch_conn_run_blocking(c, 10000, &err) == CH_OK, "%s connect: %s",
				  kind_name(kinds[k]), err.message);
		REQUIRE(ch_conn_connected(c));
		caps = ch_conn_caps(c);
		CHECK(caps->known);
		CHECK_EQ_INT(caps->version_major, 18);
		CHECK_EQ_INT(caps->version_minor, 16);
		CHECK_EQ_INT(caps->version_patch, 1);
		CHECK_EQ_STR(ch_conn_server_info(c)->version, "18.16.1");
		CHECK(!caps->date32);
		CHECK(!caps->datetime64);
		CHECK(!caps->dedup_token);
		CHECK(!caps->json_output);
		CHECK(!caps->lightweight_delete);
		CHECK(!caps->window_functions);
		CHECK(!caps->grouping_sets);
		if (kinds[k] == CH_TRANSPORT_NATIVE)
		{
			/* 18.16 answers any higher revision with its own, 54412 */
			CHECK_EQ_UINT(caps->revision, 54412);
			CHECK_EQ_UINT(ch_conn_server_info(c)->server_revision, 54412);
			CHECK_EQ_STR(ch_conn_server_info(c)->name, "ClickHouse");
			CHECK(ch_conn_server_info(c)->timezone[0] != '\0');
			CHECK(caps->response_frames);
			CHECK_EQ_INT(caps->response_compression, CH_COMPRESSION_LZ4);
			CHECK(caps->low_cardinality);
			CHECK(!caps->custom_serialization);
		}
		else
		{
			/* 18.16's HTTP compress=1 is broken: uncompressed (never gzip by default) */
			CHECK_EQ_UINT(caps->revision, 0);
			CHECK(!caps->response_frames);
			CHECK_EQ_INT(caps->response_compression, CH_COMPRESSION_NONE);
		}
		/* ping on the connection */
		CHECK_STATUS(ch_conn_begin_ping(c, &err), CH_OK);
		CHECK_MSG(ch_conn_run_blocking(c, 10000, &err) == CH_OK, "%s ping: %s",
				  kind_name(kinds[k]), err.message);
		CHECK(!ch_conn_busy(c));
		CHECK_EQ_UINT(ch_conn_connect_count(c), 1);
		ch_conn_destroy(c);
	}
}

TEST(contract_connect_refused)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn_config cfg;
		ch_endpoint ep = {"127.0.0.1", 1};	/* nothing listens on port 1 */
		ch_error	err;
		ch_conn    *c;
		ch_status	st;

		memset(&cfg, 0, sizeof(cfg));
		cfg.kind = kinds[k];
		cfg.endpoints = &ep;
		cfg.nendpoints = 1;
		c = ch_conn_create(NULL, &cfg, &err);
		REQUIRE(c != NULL);
		ch_error_clear(&err);
		st = ch_conn_begin_connect(c, &err);
		if (st == CH_OK)
			st = ch_conn_run_blocking(c, 10000, &err);
		CHECK_MSG(st == CH_ERR_CONNECT, "%s: %s (%s)", kind_name(kinds[k]), ch_status_name(st),
				  err.message);
		CHECK(!ch_conn_connected(c));
		CHECK(!ch_conn_busy(c));
		ch_conn_destroy(c);
	}
}

TEST(contract_wrong_password)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn_config cfg;
		ch_endpoint ep;
		ch_error	err;
		ch_conn    *c;
		ch_status	st;
		const char *port = getenv(kinds[k] == CH_TRANSPORT_NATIVE ? "CH_TCP_PORT" : "CH_HTTP_PORT");

		REQUIRE(port != NULL);
		ep.host = "127.0.0.1";
		ep.port = atoi(port);
		memset(&cfg, 0, sizeof(cfg));
		cfg.kind = kinds[k];
		cfg.endpoints = &ep;
		cfg.nendpoints = 1;
		cfg.user = "default";
		cfg.password = "not-the-password";
		c = ch_conn_create(NULL, &cfg, &err);
		REQUIRE(c != NULL);
		ch_error_clear(&err);
		st = ch_conn_begin_connect(c, &err);
		if (st == CH_OK)
			st = ch_conn_run_blocking(c, 10000, &err);
		CHECK_MSG(st == CH_ERR_SERVER, "%s: %s (%s)", kind_name(kinds[k]), ch_status_name(st),
				  err.message);
		/* 193 WRONG_PASSWORD on 18.16 */
		CHECK_EQ_INT(err.server_code, 193);
		CHECK_EQ_STR(err.server_name, "DB::Exception");
		CHECK_CONTAINS(err.message, "Wrong password for user default");
		CHECK(!ch_conn_connected(c));
		ch_conn_destroy(c);
	}
}

/* ---- queries ---- */

TEST(contract_select_compression)
{
	static const ch_compression comps[] = {CH_COMPRESSION_NONE, CH_COMPRESSION_LZ4,
	CH_COMPRESSION_ZSTD, CH_COMPRESSION_AUTO};
	int			k,
				m;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);

		if (!c)
			return;
		for (m = 0; m < 4; m++)
		{
			result		r;
			const ch_request_stats *s;

			run_query(c, "SELECT number, toString(number) AS s FROM system.numbers LIMIT 300000",
					  comps[m], NULL, 0, NULL, &r);
			CHECK_MSG(r.st == CH_OK, "%s compression %d: %s %s", kind_name(kinds[k]), m,
					  ch_status_name(r.st), r.err.message);
			CHECK_EQ_UINT(r.rows, 300000);
			CHECK_EQ_UINT(r.sum0, (uint64_t) 299999 * 300000 / 2);
			s = ch_conn_stats(c);
			CHECK_EQ_UINT(s->rows_received, 300000);
			CHECK(s->bytes_received > 0);
			if (kinds[k] == CH_TRANSPORT_NATIVE)
			{
				/* Progress and ProfileInfo packets */
				CHECK(s->have_server_counters);
				CHECK_EQ_UINT(s->result_rows, 300000);
				CHECK(s->read_rows >= 300000);
				CHECK_EQ_UINT(r.empty_blocks, 1);	/* the header block */
				/* compressed responses are smaller */
				if (comps[m] != CH_COMPRESSION_NONE)
					CHECK_MSG(s->bytes_received < 300000 * 10,
							  "compression %d: %" PRIu64 " bytes", m, s->bytes_received);
			}
			CHECK(s->elapsed_ns > 0);
		}
		/* the connection was reused for every query */
		CHECK_EQ_UINT(ch_conn_connect_count(c), 1);
		CHECK_EQ_UINT(ch_conn_request_count(c), 4);
		ch_conn_destroy(c);
	}
}

static ch_status
count_sink(void *ctx, const ch_block *b, ch_block_kind kind, ch_error *err)
{
	result	   *r = ctx;

	(void) err;
	take_block(r, b, kind, false, NULL);
	return CH_OK;
}

static ch_status
failing_sink(void *ctx, const ch_block *b, ch_block_kind kind, ch_error *err)
{
	(void) ctx;
	(void) kind;
	if (b->nrows > 0)
		return ch_error_set(err, CH_ERR_LIMIT, "sink says no");
	return CH_OK;
}

TEST(contract_push_sink)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_query	q;
		result		r;
		ch_error	err;

		if (!c)
			return;
		memset(&r, 0, sizeof(r));
		memset(&q, 0, sizeof(q));
		q.sql = "SELECT number FROM system.numbers LIMIT 70000";
		q.on_block = count_sink;
		q.on_block_ctx = &r;
		ch_error_clear(&err);
		CHECK_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
		CHECK_MSG(ch_conn_run_blocking(c, 30000, &err) == CH_OK, "%s: %s", kind_name(kinds[k]),
				  err.message);
		CHECK_EQ_UINT(r.rows, 70000);
		CHECK_EQ_UINT(r.sum0, (uint64_t) 69999 * 70000 / 2);

		/* a sink error aborts the request and comes back as is */
		q.on_block = failing_sink;
		CHECK_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
		CHECK_STATUS(ch_conn_run_blocking(c, 30000, &err), CH_ERR_LIMIT);
		CHECK_EQ_STR(err.message, "sink says no");
		CHECK(!ch_conn_busy(c));
		/* and the next request reconnects */
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
	}
}

TEST(contract_empty_result)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		result		r;

		if (!c)
			return;
		run_query(c, "SELECT number FROM system.numbers LIMIT 0", CH_COMPRESSION_LZ4, NULL, 0,
				  NULL, &r);
		CHECK_MSG(r.st == CH_OK, "%s: %s", kind_name(kinds[k]), r.err.message);
		CHECK_EQ_UINT(r.rows, 0);
		CHECK_EQ_UINT(r.blocks, 0);
		/* TCP sends the header block, HTTP 18.16 an empty body */
		CHECK_EQ_UINT(r.empty_blocks, kinds[k] == CH_TRANSPORT_NATIVE ? 1 : 0);
		/* a statement without a result */
		CHECK(exec_ok(c, "SELECT 1 WHERE 0"));
		ch_conn_destroy(c);
	}
}

TEST(contract_totals_extremes)
{
	int			k;
	static const ch_setting ext[] = {{"extremes", "1"}};

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		result		r;
		uint64_t	i;
		int			totals = 0,
					extremes = 0;

		if (!c)
			return;
		run_query(c, "SELECT number % 3 AS k, count() FROM numbers(30) GROUP BY k WITH TOTALS ORDER BY k",
				  CH_COMPRESSION_NONE, ext, 1, NULL, &r);
		CHECK_MSG(r.st == CH_OK, "%s: %s", kind_name(kinds[k]), r.err.message);
		for (i = 0; i < r.blocks && i < 64; i++)
		{
			totals += r.kinds[i] == CH_BLOCK_TOTALS;
			extremes += r.kinds[i] == CH_BLOCK_EXTREMES;
		}
		if (kinds[k] == CH_TRANSPORT_NATIVE)
		{
			/* TCP: separate packets (Totals 7, Extremes 8) */
			CHECK_EQ_INT(totals, 1);
			CHECK_EQ_INT(extremes, 1);
		}
		else
		{
			/* HTTP Native: totals and extremes are further blocks of the body */
			CHECK_EQ_INT(totals, 0);
		}
		ch_conn_destroy(c);
	}
}

/* ---- goldens: every type of test/golden/v18_16 over both transports ---- */

typedef struct golden_case
{
	char		sql[8192];
	ch_setting	settings[8];
	char		names[8][64];
	char		values[8][64];
	int			nsettings;
	bool		http_200;
} golden_case;

static bool
read_case(const char *name, golden_case *gc)
{
	uint8_t    *text;
	size_t		len;
	char	   *line,
			   *save = NULL;
	size_t		n = 0;

	memset(gc, 0, sizeof(*gc));
	{
		char		path[4096];
		FILE	   *f;

		/* cases captured some other way have no .sql */
		snprintf(path, sizeof(path), "%s/v18_16/%s.sql", unit_golden_dir, name);
		if (!(f = fopen(path, "r")))
			return false;
		fclose(f);
	}
	if (!golden_read_ext(name, "sql", &text, &len))
		return false;
	if (strncmp((char *) text, "-- ClickHouse 18.16.1, HTTP FORMAT Native", 41) != 0)
	{
		free(text);
		return false;
	}
	gc->http_200 = true;
	for (line = strtok_r((char *) text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		if (strncmp(line, "-- params: ", 11) == 0)
		{
			char	   *p = line + 11,
					   *amp;

			for (; p && *p && gc->nsettings < 8; p = amp ? amp + 1 : NULL)
			{
				char	   *eq = strchr(p, '=');

				amp = strchr(p, '&');
				if (amp)
					*amp = '\0';
				if (!eq)
					break;
				*eq = '\0';
				snprintf(gc->names[gc->nsettings], 64, "%s", p);
				snprintf(gc->values[gc->nsettings], 64, "%s", eq + 1);
				gc->settings[gc->nsettings].name = gc->names[gc->nsettings];
				gc->settings[gc->nsettings].value = gc->values[gc->nsettings];
				gc->nsettings++;
			}
		}
		else if (strncmp(line, "-- expect-http:", 15) == 0)
			gc->http_200 = false;
		else if (strncmp(line, "-- setup:", 9) == 0)
			gc->http_200 = false;	/* needs state: not replayed here */
		else if (strncmp(line, "--", 2) != 0)
			n += (size_t) snprintf(gc->sql + n, sizeof(gc->sql) - n, "%s\n", line);
	}
	free(text);
	/* drop the trailing FORMAT Native: the transport asks for Native */
	{
		char	   *f = strstr(gc->sql, "FORMAT Native");

		if (f)
			*f = '\0';
	}
	return true;
}

/* The golden's non-empty blocks, by block_hash. */
static void
golden_blocks(const char *name, result *g)
{
	uint8_t    *bin;
	size_t		len;
	stream_result res;

	memset(g, 0, sizeof(*g));
	if (!golden_read_ext(name, "bin", &bin, &len))
		return;
	decode_stream(bin, len, FEED_ALL, 0, false, NULL, NULL, &res);
	g->st = res.final;
	for (uint64_t i = 0; i < res.nblocks && i < 64; i++)
		if (res.nrows[i] > 0)
		{
			g->hash[g->blocks++] = res.hash[i];
			g->rows += res.nrows[i];
		}
	stream_result_free(&res);
	free(bin);
}

TEST(contract_golden_types)
{
	char	  **names;
	int			n = golden_names(&names);
	int			i,
				k,
				ran = 0;
	ch_conn    *c[2];

	c[0] = open_conn(kinds[0], 0);
	c[1] = open_conn(kinds[1], 0);
	REQUIRE(c[0] && c[1]);
	for (i = 0; i < n; i++)
	{
		golden_case gc;
		result		g;

		if (!read_case(names[i], &gc) || !gc.http_200)
			continue;
		golden_blocks(names[i], &g);
		if (g.st == CH_ERR_SERVER)
			continue;			/* an exception case: contract_exception_after_data */
		if (!CHECK_MSG(g.st == CH_END, "golden %s does not decode", names[i]))
			continue;
		ran++;
		for (k = 0; k < 2; k++)
		{
			result		r;
			uint64_t	b;

			run_query(c[k], gc.sql, CH_COMPRESSION_LZ4, gc.settings, gc.nsettings, NULL, &r);
			if (!CHECK_MSG(r.st == CH_OK, "%s %s: %s %s", kind_name(kinds[k]), names[i],
						   ch_status_name(r.st), r.err.message))
				continue;
			CHECK_MSG(r.rows == g.rows && r.blocks == g.blocks,
					  "%s %s: %" PRIu64 " rows in %" PRIu64 " blocks, golden %" PRIu64 " in %" PRIu64,
					  kind_name(kinds[k]), names[i], r.rows, r.blocks, g.rows, g.blocks);
			/*
			 * Same names, types and values, except that TCP (revision >=
			 * 54337) names a DateTime's zone where HTTP says DateTime.
			 */
			if (strcmp(names[i], "datetime_tz") == 0 && kinds[k] == CH_TRANSPORT_NATIVE)
				continue;
			for (b = 0; b < r.blocks && b < g.blocks && b < 64; b++)
				CHECK_MSG(r.hash[b] == g.hash[b], "%s %s: block %" PRIu64 " differs from the golden",
						  kind_name(kinds[k]), names[i], b);
		}
	}
	CHECK_MSG(ran >= 15, "only %d golden cases ran", ran);
	golden_names_free(names, n);
	ch_conn_destroy(c[0]);
	ch_conn_destroy(c[1]);
}

TEST(contract_datetime_zone_over_tcp)
{
	ch_conn    *c = open_conn(CH_TRANSPORT_NATIVE, 0);
	ch_query	q;
	ch_error	err;
	const ch_block *b;
	ch_block_kind kind;
	ch_wait		w;
	ch_status	st;
	bool		seen = false;

	REQUIRE(c != NULL);
	memset(&q, 0, sizeof(q));
	q.sql = "SELECT toDateTime('2019-01-02 03:04:05', 'Europe/Moscow') AS dtz";
	ch_error_clear(&err);
	REQUIRE_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
	for (;;)
	{
		st = ch_conn_next_block(c, &b, &kind, &w, &err);
		if (st == CH_NEED_MORE)
		{
			poll(NULL, 0, 1);
			continue;
		}
		if (st != CH_OK)
			break;
		if (b->nrows == 1)
		{
			seen = true;
			CHECK_EQ_BYTES(b->cols[0].type_name, b->cols[0].type_name_len,
						   "DateTime('Europe/Moscow')");
			CHECK_EQ_UINT(col_u64(&b->cols[0], 0), 1546387445);
		}
	}
	CHECK_STATUS(st, CH_END);
	CHECK(seen);
	ch_conn_destroy(c);
}

/* ---- exceptions ---- */

TEST(contract_exception_before_data)
{
	ch_error	e[2];
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		result		r;

		if (!c)
			return;
		run_query(c, "SELECT * FROM contract_no_such_db.t", CH_COMPRESSION_LZ4, NULL, 0, NULL, &r);
		CHECK_MSG(r.st == CH_ERR_SERVER, "%s: %s %s", kind_name(kinds[k]), ch_status_name(r.st),
				  r.err.message);
		e[k] = r.err;
		CHECK_EQ_INT(r.err.server_code, 81);	/* UNKNOWN_DATABASE */
		CHECK_EQ_STR(r.err.server_name, "DB::Exception");
		CHECK_EQ_STR(r.err.message, "Database contract_no_such_db doesn't exist");
		CHECK(!ch_conn_busy(c));
		/* the connection is usable afterwards */
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
	}
	CHECK_EQ_INT(e[0].server_code, e[1].server_code);
	CHECK_EQ_STR(e[0].server_name, e[1].server_name);
	CHECK_EQ_STR(e[0].message, e[1].message);
}

TEST(contract_exception_after_data)
{
	ch_error	e[2];
	int			k;
	static const ch_setting bs[] = {{"max_block_size", "1000"}};

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		result		r;

		if (!c)
			return;
		run_query(c, "SELECT number, throwIf(number = 120000) FROM system.numbers",
				  CH_COMPRESSION_NONE, bs, 1, NULL, &r);
		CHECK_MSG(r.st == CH_ERR_SERVER, "%s: %s %s", kind_name(kinds[k]), ch_status_name(r.st),
				  r.err.message);
		/* blocks arrived before the exception */
		CHECK_MSG(r.rows >= 100000, "%s: %" PRIu64 " rows before the exception",
				  kind_name(kinds[k]), r.rows);
		e[k] = r.err;
		CHECK_EQ_INT(r.err.server_code, 395);	/* FUNCTION_THROW_IF_VALUE_IS_NON_ZERO */
		CHECK_EQ_STR(r.err.server_name, "DB::Exception");
		CHECK_EQ_STR(r.err.message, "Value passed to 'throwIf' function is non zero");
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
	}
	CHECK_EQ_INT(e[0].server_code, e[1].server_code);
	CHECK_EQ_STR(e[0].server_name, e[1].server_name);
	CHECK_EQ_STR(e[0].message, e[1].message);
}

/* ---- cancel ---- */

static uint64_t
count_processes(ch_conn *probe, const char *qid)
{
	char		sql[256];
	result		r;

	snprintf(sql, sizeof(sql), "SELECT count() FROM system.processes WHERE query_id = '%s'", qid);
	run_query(probe, sql, CH_COMPRESSION_NONE, NULL, 0, NULL, &r);
	CHECK_MSG(r.st == CH_OK, "%s", r.err.message);
	return r.sum0;
}

TEST(contract_cancel_long_query)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_conn    *probe = open_conn(CH_TRANSPORT_HTTP, 0);
		ch_query	q;
		ch_error	err;
		char		qid[64];
		uint64_t	rows = 0,
					t0,
					left = 1;
		ch_status	st;
		int			i;

		if (!c || !probe)
			return;
		snprintf(qid, sizeof(qid), "contract-cancel-%d-%d", (int) getpid(), k);
		memset(&q, 0, sizeof(q));
		q.sql = "SELECT number FROM system.numbers";	/* endless */
		q.query_id = qid;
		q.compression = CH_COMPRESSION_LZ4;
		ch_error_clear(&err);
		REQUIRE_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
		/* read some rows, then cancel */
		for (;;)
		{
			const ch_block *b;
			ch_block_kind kind;
			ch_wait		w;

			st = ch_conn_next_block(c, &b, &kind, &w, &err);
			if (st == CH_OK)
			{
				rows += b->nrows;
				if (rows >= 500000)
					break;
				continue;
			}
			if (st != CH_NEED_MORE)
				break;
			poll(NULL, 0, 1);
		}
		if (!CHECK_MSG(st == CH_OK, "%s: %s %s", kind_name(kinds[k]), ch_status_name(st), err.message))
			return;
		CHECK_EQ_UINT(count_processes(probe, qid), 1);
		t0 = now_ns();
		CHECK_STATUS(ch_conn_cancel(c, 2000, &err), CH_OK);
		/* drain: the cancelled query ends with CH_END */
		CHECK_MSG(ch_conn_run_blocking(c, 10000, &err) == CH_OK, "%s drain: %s",
				  kind_name(kinds[k]), err.message);
		CHECK(!ch_conn_busy(c));
		/* the bound for a cancelled scan: 1 s */
		CHECK_MSG(now_ns() - t0 < 1000000000u, "%s: cancel took %.3f s",
				  kind_name(kinds[k]), (now_ns() - t0) / 1e9);
		if (getenv("CONTRACT_VERBOSE"))
			printf("%s: cancel drained in %.3f s\n", kind_name(kinds[k]), (now_ns() - t0) / 1e9);
		/* gone from system.processes */
		for (i = 0; i < 50 && left > 0; i++)
		{
			left = count_processes(probe, qid);
			if (left)
				poll(NULL, 0, 100);
		}
		CHECK_MSG(left == 0, "%s: query %s still in system.processes", kind_name(kinds[k]), qid);
		/* and the connection works again */
		CHECK(exec_ok(c, "SELECT 1"));
		if (kinds[k] == CH_TRANSPORT_NATIVE)
			CHECK_EQ_UINT(ch_conn_connect_count(c), 1);	/* same socket */
		ch_conn_destroy(c);
		ch_conn_destroy(probe);
	}
}

/* ---- inserts ---- */

static bool insert_rows_fmt(ch_conn *c, const char *table, uint64_t from, uint64_t n,
							ch_compression comp, bool rowbinary, ch_error *err);

static bool
insert_rows(ch_conn *c, const char *table, uint64_t from, uint64_t n, ch_compression comp,
			ch_error *err)
{
	return insert_rows_fmt(c, table, from, n, comp, false, err);
}

static bool
insert_rows_fmt(ch_conn *c, const char *table, uint64_t from, uint64_t n, ch_compression comp,
				bool rowbinary, ch_error *err)
{
	static const char *const names[] = {"a", "s"};
	static const char *const types[] = {"UInt32", "String"};
	ch_arena	ar;
	ch_writer  *w;
	ch_buf		out;
	ch_query	q;
	char		sql[256];
	uint64_t	i;
	ch_status	st;
	bool		ok = false;

	ch_arena_init(&ar, NULL);
	ch_buf_init(&out, NULL);
	w = unit_make_writer(&ar, rowbinary ? CH_FORMAT_ROWBINARY : CH_FORMAT_NATIVE, 2, names, types);
	if (!CHECK(w != NULL))
		goto done;
	snprintf(sql, sizeof(sql), "INSERT INTO %s (a, s)", table);
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.compression = comp;
	q.insert_rowbinary = rowbinary;
	st = ch_conn_begin_insert(c, &q, err);
	if (st == CH_OK)
		st = ch_conn_run_blocking(c, 10000, err);
	if (st != CH_OK)
		goto done;
	if (ch_conn_kind(c) == CH_TRANSPORT_NATIVE)
	{
		const ch_block *schema = ch_conn_insert_schema(c);

		if (!CHECK(schema != NULL) || !CHECK_EQ_UINT(schema->ncols, 2) ||
			!CHECK_EQ_UINT(schema->nrows, 0))
			goto done;
		CHECK_EQ_BYTES(schema->cols[0].name, schema->cols[0].name_len, "a");
		CHECK_EQ_BYTES(schema->cols[1].type_name, schema->cols[1].type_name_len, "String");
	}
	/* two blocks */
	for (int blk = 0; blk < 2; blk++)
	{
		uint64_t	lo = from + blk * (n / 2),
					hi = blk == 0 ? from + n / 2 : from + n;

		for (i = lo; i < hi; i++)
		{
			char		s[32];
			int			sl = snprintf(s, sizeof(s), "v%" PRIu64, i);

			if (ch_col_append_uint(ch_writer_column(w, 0), i, err) != CH_OK ||
				ch_col_append_bytes(ch_writer_column(w, 1), s, (size_t) sl, err) != CH_OK ||
				ch_writer_end_row(w, err) != CH_OK)
				goto done;
		}
		ch_buf_reset(&out);
		if (ch_writer_flush(w, &out, err) != CH_OK)
			goto done;
		if (ch_conn_insert_block(c, out.data, out.len, hi - lo, err) != CH_OK)
			goto done;
		if (ch_conn_run_blocking(c, 10000, err) != CH_OK)
			goto done;
	}
	if (ch_conn_insert_finish(c, err) != CH_OK)
		goto done;
	if (ch_conn_run_blocking(c, 30000, err) != CH_OK)
		goto done;
	ok = true;
done:
	if (w)
		ch_writer_free(w);
	ch_buf_free(&out);
	ch_arena_free(&ar);
	return ok;
}

TEST(contract_insert)
{
	static const ch_compression comps[] = {CH_COMPRESSION_NONE, CH_COMPRESSION_LZ4,
	CH_COMPRESSION_ZSTD};
	int			k,
				m;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		char		table[64];
		char		sql[256];
		result		r;
		uint64_t	total = 0,
					sum = 0;

		if (!c)
			return;
		snprintf(table, sizeof(table), "default.contract_ins_%s_%d", kind_name(kinds[k]),
				 (int) getpid());
		snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS %s", table);
		REQUIRE(exec_ok(c, sql));
		snprintf(sql, sizeof(sql), "CREATE TABLE %s (a UInt32, s String) ENGINE = Memory", table);
		REQUIRE(exec_ok(c, sql));
		for (m = 0; m < 3; m++)
		{
			ch_error	err;
			uint64_t	n = 20000 + (uint64_t) m;

			ch_error_clear(&err);
			CHECK_MSG(insert_rows(c, table, total, n, comps[m], &err), "%s insert %d: %s %s",
					  kind_name(kinds[k]), m, ch_status_name(err.code), err.message);
			for (uint64_t i = total; i < total + n; i++)
				sum += i;
			total += n;
			CHECK(!ch_conn_busy(c));
		}
		snprintf(sql, sizeof(sql), "SELECT count() FROM %s", table);
		run_query(c, sql, CH_COMPRESSION_NONE, NULL, 0, NULL, &r);
		CHECK_EQ_UINT(r.sum0, total);
		snprintf(sql, sizeof(sql), "SELECT toUInt64(sum(a)) FROM %s", table);
		run_query(c, sql, CH_COMPRESSION_NONE, NULL, 0, NULL, &r);
		CHECK_EQ_UINT(r.sum0, sum);
		snprintf(sql, sizeof(sql), "SELECT count() FROM %s WHERE s = concat('v', toString(a))", table);
		run_query(c, sql, CH_COMPRESSION_NONE, NULL, 0, NULL, &r);
		CHECK_EQ_UINT(r.sum0, total);
		if (kinds[k] == CH_TRANSPORT_NATIVE)
		{
			const ch_request_stats *s;

			/* the server counted what it wrote (Progress, rev >= 54420 only) */
			s = ch_conn_stats(c);
			CHECK(s != NULL);
		}
		snprintf(sql, sizeof(sql), "DROP TABLE %s", table);
		CHECK(exec_ok(c, sql));
		ch_conn_destroy(c);
	}
}

TEST(contract_insert_unknown_table)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_error	err;

		if (!c)
			return;
		ch_error_clear(&err);
		CHECK(!insert_rows(c, "default.contract_no_such_table", 0, 10, CH_COMPRESSION_LZ4, &err));
		CHECK_EQ_INT(err.code, CH_ERR_SERVER);
		CHECK_EQ_INT(err.server_code, 60);	/* UNKNOWN_TABLE */
		CHECK_EQ_STR(err.message, "Table default.contract_no_such_table doesn't exist.");
		CHECK(!ch_conn_busy(c));
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
	}
}

/* ---- reconnect ---- */

TEST(contract_reconnect_after_abort)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_query	q;
		ch_error	err;

		if (!c)
			return;
		CHECK(exec_ok(c, "SELECT 1"));
		memset(&q, 0, sizeof(q));
		q.sql = "SELECT number FROM system.numbers";
		REQUIRE_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
		ch_conn_abort(c);
		CHECK(!ch_conn_busy(c));
		CHECK(exec_ok(c, "SELECT 1"));
		if (kinds[k] == CH_TRANSPORT_NATIVE)
			CHECK_EQ_UINT(ch_conn_connect_count(c), 2);
		ch_conn_destroy(c);
	}
}

/* ---- reconnect after the server goes away ---- */

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

/*
 * A relay on 127.0.0.1:port to the real server, in a child process: killing
 * it drops every connection at once, as a server restart does; a new relay
 * on the same port is the server back.
 */
static void
relay_loop(int lfd, int upstream_port)
{
	struct pollfd pfd[1 + 2 * 8];
	int			a[8],
				b[8],
				n = 0,
				i;

	for (;;)
	{
		pfd[0].fd = lfd;
		pfd[0].events = POLLIN;
		for (i = 0; i < n; i++)
		{
			pfd[1 + 2 * i].fd = a[i];
			pfd[1 + 2 * i].events = POLLIN;
			pfd[2 + 2 * i].fd = b[i];
			pfd[2 + 2 * i].events = POLLIN;
		}
		if (poll(pfd, (nfds_t) (1 + 2 * n), -1) < 0)
			_exit(1);
		if ((pfd[0].revents & POLLIN) && n < 8)
		{
			int			c = accept(lfd, NULL, NULL);
			int			u = socket(AF_INET, SOCK_STREAM, 0);
			struct sockaddr_in sa;

			memset(&sa, 0, sizeof(sa));
			sa.sin_family = AF_INET;
			sa.sin_port = htons((uint16_t) upstream_port);
			sa.sin_addr.s_addr = htonl(0x7f000001);
			if (c >= 0 && u >= 0 && connect(u, (struct sockaddr *) &sa, sizeof(sa)) == 0)
			{
				a[n] = c;
				b[n] = u;
				n++;
			}
			continue;
		}
		for (i = 0; i < n; i++)
		{
			int			k;

			for (k = 0; k < 2; k++)
			{
				char		buf[65536];
				struct pollfd *p = &pfd[1 + 2 * i + k];
				ssize_t		got;

				if (!(p->revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				got = read(p->fd, buf, sizeof(buf));
				if (got <= 0)
				{
					close(a[i]);
					close(b[i]);
					a[i] = a[n - 1];
					b[i] = b[n - 1];
					n--;
					goto next;
				}
				if (write(k == 0 ? b[i] : a[i], buf, (size_t) got) != got)
					_exit(1);
			}
		}
next:	;
	}
}

static pid_t
start_relay(int port, int upstream_port)
{
	int			lfd = socket(AF_INET, SOCK_STREAM, 0);
	int			one = 1;
	struct sockaddr_in sa;
	pid_t		pid;

	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t) port);
	sa.sin_addr.s_addr = htonl(0x7f000001);
	if (bind(lfd, (struct sockaddr *) &sa, sizeof(sa)) != 0 || listen(lfd, 8) != 0)
	{
		close(lfd);
		return -1;
	}
	pid = fork();
	if (pid == 0)
		relay_loop(lfd, upstream_port);
	close(lfd);
	return pid;
}

static void
stop_relay(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

TEST(contract_reconnect_after_server_restart)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		const char *up = getenv(kinds[k] == CH_TRANSPORT_NATIVE ? "CH_TCP_PORT" : "CH_HTTP_PORT");
		int			port = 0;
		pid_t		relay = -1;
		ch_conn_config cfg;
		ch_endpoint ep;
		ch_conn    *c;
		ch_error	err;
		ch_status	st;
		int			i;

		REQUIRE(up != NULL);
		/* a free port near the server's */
		for (i = 1; i < 50 && relay < 0; i++)
		{
			port = atoi(up) + 50 + i;
			relay = start_relay(port, atoi(up));
		}
		REQUIRE(relay > 0);
		ep.host = "127.0.0.1";
		ep.port = port;
		memset(&cfg, 0, sizeof(cfg));
		cfg.kind = kinds[k];
		cfg.endpoints = &ep;
		cfg.nendpoints = 1;
		cfg.receive_timeout_ms = 10000;
		c = ch_conn_create(NULL, &cfg, &err);
		REQUIRE(c != NULL);
		CHECK(exec_ok(c, "SELECT 1"));
		/* the server goes away and comes back */
		stop_relay(relay);
		relay = start_relay(port, atoi(up));
		REQUIRE(relay > 0);
		/* a ping finds the cached connection dead (TCP) or reconnects (libcurl) */
		ch_error_clear(&err);
		st = ch_conn_begin_ping(c, &err);
		if (st == CH_OK)
			st = ch_conn_run_blocking(c, 10000, &err);
		if (kinds[k] == CH_TRANSPORT_NATIVE)
			CHECK_MSG(st == CH_ERR_NETWORK, "ping on a dead connection: %s %s",
					  ch_status_name(st), err.message);
		CHECK(!ch_conn_busy(c));
		/* the next request reconnects and works */
		CHECK(exec_ok(c, "SELECT 1"));
		if (kinds[k] == CH_TRANSPORT_NATIVE)
			CHECK_EQ_UINT(ch_conn_connect_count(c), 2);
		ch_conn_destroy(c);
		stop_relay(relay);
	}
}

/* ---- native TCP over TLS (tcp_port_secure of test/servers.sh) ---- */

static ch_conn *
open_tls(const char *host, const char *ca_file)
{
	ch_conn_config cfg;
	ch_error	err;
	const char *port = getenv("CH_TCPS_PORT");
	static ch_endpoint ep;

	if (!CHECK_MSG(port != NULL, "CH_TCPS_PORT not set (eval \"$(bash test/servers.sh env)\")"))
		return NULL;
	signal(SIGPIPE, SIG_IGN);	/* as PostgreSQL backends do */
	ep.host = host;
	ep.port = atoi(port);
	memset(&cfg, 0, sizeof(cfg));
	cfg.kind = CH_TRANSPORT_NATIVE;
	cfg.endpoints = &ep;
	cfg.nendpoints = 1;
	cfg.secure = true;
	cfg.ca_file = ca_file;
	cfg.connect_timeout_ms = 5000;
	return ch_conn_create(NULL, &cfg, &err);
}

TEST(contract_tls_verified)
{
	const char *ca = getenv("CH_CA_FILE");
	static const char *const hosts[] = {"127.0.0.1", "localhost"};
	int			h;

	REQUIRE(ca != NULL);
	for (h = 0; h < 2; h++)
	{
		ch_conn    *c = open_tls(hosts[h], ca);
		result		r;

		REQUIRE(c != NULL);
		run_query(c, "SELECT number FROM system.numbers LIMIT 100000", CH_COMPRESSION_LZ4, NULL, 0,
				  NULL, &r);
		CHECK_MSG(r.st == CH_OK, "%s: %s %s (%s)", hosts[h], ch_status_name(r.st), r.err.message,
				  r.err.detail);
		CHECK_EQ_UINT(r.rows, 100000);
		CHECK_EQ_UINT(r.sum0, (uint64_t) 99999 * 100000 / 2);
		run_query(c, "SELECT * FROM contract_no_such_db.t", CH_COMPRESSION_NONE, NULL, 0, NULL, &r);
		CHECK_EQ_INT(r.err.server_code, 81);
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
	}
}

TEST(contract_tls_unverified_refused)
{
	ch_conn    *c;
	ch_error	err;
	ch_status	st;

	/* the self-signed certificate is not among the system CAs */
	c = open_tls("127.0.0.1", NULL);
	REQUIRE(c != NULL);
	ch_error_clear(&err);
	st = ch_conn_begin_connect(c, &err);
	if (st == CH_OK)
		st = ch_conn_run_blocking(c, 10000, &err);
	CHECK_STATUS(st, CH_ERR_CONNECT);
	CHECK_CONTAINS(err.message, "TLS connection to ClickHouse at 127.0.0.1:");
	CHECK_CONTAINS(err.detail, "self-signed certificate");
	CHECK(!ch_conn_connected(c));
	ch_conn_destroy(c);
	/*
	 * The right server under an address its certificate does not name (it
	 * holds IP:127.0.0.1 and DNS:localhost): the IPv4-mapped IPv6 form.
	 */
	c = open_tls("::ffff:127.0.0.1", getenv("CH_CA_FILE"));
	REQUIRE(c != NULL);
	ch_error_clear(&err);
	st = ch_conn_begin_connect(c, &err);
	if (st == CH_OK)
		st = ch_conn_run_blocking(c, 10000, &err);
	CHECK_MSG(st == CH_ERR_CONNECT, "%s %s", ch_status_name(st), err.message);
	CHECK_CONTAINS(err.detail, "IP address mismatch");
	ch_conn_destroy(c);
}

/* ---- query parameters ---- */

#include "transport_int.h"

TEST(contract_param_escaping)
{
	ch_buf		b;

	/* HTTP param_x: TSV escaping (docs/en/interfaces/http.md) */
	ch_buf_init(&b, NULL);
	REQUIRE_STATUS(ch_escape_param(&b, "a'b\\c\td\ne", false), CH_OK);
	CHECK_EQ_STR((const char *) b.data, "a'b\\\\c\\td\\ne");
	/* TCP: and quoted, as the server unquotes then reads TSV (wire notes 4.6.3) */
	ch_buf_reset(&b);
	REQUIRE_STATUS(ch_escape_param(&b, "a'b\\c\td\ne", true), CH_OK);
	CHECK_EQ_STR((const char *) b.data, "'a\\'b\\\\\\\\c\\\\td\\\\ne'");
	ch_buf_reset(&b);
	REQUIRE_STATUS(ch_escape_param(&b, "42", true), CH_OK);
	CHECK_EQ_STR((const char *) b.data, "'42'");
	/* NULL */
	ch_buf_reset(&b);
	REQUIRE_STATUS(ch_escape_param(&b, "\\N", true), CH_OK);
	CHECK_EQ_STR((const char *) b.data, "'\\\\N'");
	ch_buf_reset(&b);
	REQUIRE_STATUS(ch_escape_param(&b, "\\N", false), CH_OK);
	CHECK_EQ_STR((const char *) b.data, "\\N");
	ch_buf_free(&b);
}

TEST(contract_params_refused_by_18_16)
{
	int			k;
	static const ch_setting par[] = {{"id", "42"}};

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_query	q;
		ch_error	err;
		ch_status	st;

		REQUIRE(c != NULL);
		memset(&q, 0, sizeof(q));
		q.sql = "SELECT {id:UInt32}";
		q.params = par;
		q.nparams = 1;
		ch_error_clear(&err);
		st = ch_conn_begin_query(c, &q, &err);
		if (st == CH_OK)
			st = ch_conn_run_blocking(c, 10000, &err);
		CHECK_MSG(st == CH_ERR_UNSUPPORTED, "%s: %s %s", kind_name(kinds[k]), ch_status_name(st),
				  err.message);
		CHECK(!ch_conn_caps(c)->query_parameters);
		CHECK(!ch_conn_busy(c));
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
	}
}

/*
 * Query parameters over HTTP on the 26.5 engine (test/chdb/front.py, a test
 * harness, not a server: HTTP only): values with quotes, backslashes, tabs
 * and NULL come back unchanged.
 */
TEST(contract_params_http_modern)
{
	const char *port = getenv("CH_MODERN_PORT");
	ch_conn_config cfg;
	ch_endpoint ep;
	ch_conn    *c;
	ch_query	q;
	ch_error	err;
	ch_status	st;
	static const char raw[] = "it's a \\ back\tslash\nline";
	static const ch_setting par[] = {{"s", raw}, {"n", "\\N"}, {"i", "42"}};
	bool		seen = false;

	REQUIRE(CHECK_MSG(port != NULL, "CH_MODERN_PORT not set"));
	ep.host = "127.0.0.1";
	ep.port = atoi(port);
	memset(&cfg, 0, sizeof(cfg));
	cfg.kind = CH_TRANSPORT_HTTP;
	cfg.endpoints = &ep;
	cfg.nendpoints = 1;
	c = ch_conn_create(NULL, &cfg, &err);
	REQUIRE(c != NULL);
	memset(&q, 0, sizeof(q));
	q.sql = "SELECT {s:String} AS s, {n:Nullable(UInt32)} AS n, {i:UInt32} AS i";
	q.params = par;
	q.nparams = 3;
	ch_error_clear(&err);
	REQUIRE_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
	for (;;)
	{
		const ch_block *b;
		ch_block_kind kind;
		ch_wait		w;

		st = ch_conn_next_block(c, &b, &kind, &w, &err);
		if (st == CH_NEED_MORE)
		{
			poll(NULL, 0, 1);
			continue;
		}
		if (st != CH_OK)
			break;
		if (b->nrows == 1 && b->ncols == 3)
		{
			uint32_t	len;
			const uint8_t *p = col_str_at(&b->cols[0], 0, &len);

			seen = true;
			CHECK_EQ_MEM(p, len, raw, sizeof(raw) - 1);
			CHECK(ch_col_is_null(&b->cols[1], 0));
			CHECK_EQ_UINT(col_u64(&b->cols[2], 0), 42);
		}
	}
	CHECK_MSG(st == CH_END, "%s %s", ch_status_name(st), err.message);
	CHECK(seen);
	CHECK(ch_conn_caps(c)->query_parameters);
	CHECK_EQ_INT(ch_conn_caps(c)->version_major, 26);
	ch_conn_destroy(c);
}

TEST(contract_kill_query)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_conn    *probe = open_conn(CH_TRANSPORT_HTTP, 0);
		ch_conn_config cfg;
		ch_endpoint ep;
		ch_query	q;
		ch_error	err;
		char		qid[64];
		ch_status	st;
		uint64_t	left = 1;
		int			i;
		const char *port = getenv(kinds[k] == CH_TRANSPORT_NATIVE ? "CH_TCP_PORT" : "CH_HTTP_PORT");

		REQUIRE(c && probe && port);
		snprintf(qid, sizeof(qid), "contract-kill-%d-%d", (int) getpid(), k);
		memset(&q, 0, sizeof(q));
		/* minutes of work before the first row */
		q.sql = "SELECT sum(number) FROM system.numbers LIMIT 100000000000";
		q.query_id = qid;
		ch_error_clear(&err);
		REQUIRE_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
		/* get it running */
		for (i = 0; i < 100 && count_processes(probe, qid) == 0; i++)
		{
			const ch_block *b;
			ch_block_kind kind;
			ch_wait		w;

			st = ch_conn_next_block(c, &b, &kind, &w, &err);
			if (st != CH_OK && st != CH_NEED_MORE)
				break;
			poll(NULL, 0, 20);
		}
		CHECK_EQ_UINT(count_processes(probe, qid), 1);
		/* KILL QUERY on a separate connection of the same kind */
		ep.host = "127.0.0.1";
		ep.port = atoi(port);
		memset(&cfg, 0, sizeof(cfg));
		cfg.kind = kinds[k];
		cfg.endpoints = &ep;
		cfg.nendpoints = 1;
		ch_error_clear(&err);
		st = ch_conn_kill_query(NULL, &cfg, qid, 5000, &err);
		CHECK_MSG(st == CH_OK, "%s: kill: %s %s", kind_name(kinds[k]), ch_status_name(st), err.message);
		for (i = 0; i < 50 && left > 0; i++)
		{
			left = count_processes(probe, qid);
			if (left)
				poll(NULL, 0, 100);
		}
		CHECK_MSG(left == 0, "%s: killed query %s still in system.processes", kind_name(kinds[k]), qid);
		/* the killed query ends (18.16: an exception or the end) and the connection goes on */
		ch_error_clear(&err);
		st = ch_conn_run_blocking(c, 10000, &err);
		CHECK_MSG(st == CH_OK || st == CH_ERR_SERVER, "%s: after kill: %s %s", kind_name(kinds[k]),
				  ch_status_name(st), err.message);
		CHECK(!ch_conn_busy(c));
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
		ch_conn_destroy(probe);
	}
}

TEST(contract_insert_rowbinary)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		char		table[64],
					sql[256];
		ch_error	err;
		result		r;
		bool		ok;

		REQUIRE(c != NULL);
		snprintf(table, sizeof(table), "default.contract_rb_%s_%d", kind_name(kinds[k]), (int) getpid());
		snprintf(sql, sizeof(sql), "CREATE TABLE %s (a UInt32, s String) ENGINE = Memory", table);
		REQUIRE(exec_ok(c, sql));
		ch_error_clear(&err);
		ok = insert_rows_fmt(c, table, 0, 1000, CH_COMPRESSION_LZ4, true, &err);
		if (kinds[k] == CH_TRANSPORT_NATIVE)
		{
			/* TCP carries Native blocks only */
			CHECK(!ok);
			CHECK_STATUS(err.code, CH_ERR_UNSUPPORTED);
		}
		else
		{
			CHECK_MSG(ok, "%s %s", ch_status_name(err.code), err.message);
			snprintf(sql, sizeof(sql), "SELECT count() FROM %s WHERE s = concat('v', toString(a))", table);
			run_query(c, sql, CH_COMPRESSION_NONE, NULL, 0, NULL, &r);
			CHECK_EQ_UINT(r.sum0, 1000);
		}
		CHECK(!ch_conn_busy(c));
		snprintf(sql, sizeof(sql), "DROP TABLE %s", table);
		CHECK(exec_ok(c, sql));
		ch_conn_destroy(c);
	}
}

TEST(contract_external_tables)
{
	static const char *const names[] = {"a"};
	static const char *const types[] = {"UInt32"};
	int			k;
	ch_arena	ar;
	ch_writer  *w;
	ch_buf		blk;
	ch_error	err;
	uint64_t	i;

	ch_arena_init(&ar, NULL);
	ch_buf_init(&blk, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, types);
	REQUIRE(w != NULL);
	for (i = 0; i < 1000; i++)
	{
		REQUIRE_STATUS(ch_col_append_uint(ch_writer_column(w, 0), i * 3, &err), CH_OK);
		REQUIRE_STATUS(ch_writer_end_row(w, &err), CH_OK);
	}
	REQUIRE_STATUS(ch_writer_flush(w, &blk, &err), CH_OK);
	for (k = 0; k < 2; k++)
	{
		ch_conn    *c = open_conn(kinds[k], 0);
		ch_external_table ext = {"_ids", blk.data, blk.len};
		ch_query	q;
		result		r;
		int			m;

		REQUIRE(c != NULL);
		for (m = 0; m < 2; m++)
		{
			memset(&q, 0, sizeof(q));
			q.sql = m == 0 ? "SELECT toUInt64(sum(a)) FROM _ids" :
				"SELECT count() FROM numbers(3000) WHERE toUInt32(number) IN _ids";
			q.external = &ext;
			q.nexternal = 1;
			q.compression = m == 0 ? CH_COMPRESSION_NONE : CH_COMPRESSION_LZ4;
			memset(&r, 0, sizeof(r));
			ch_error_clear(&r.err);
			r.st = ch_conn_begin_query(c, &q, &r.err);
			if (kinds[k] == CH_TRANSPORT_HTTP)
			{
				CHECK_STATUS(r.st, CH_ERR_UNSUPPORTED);
				continue;
			}
			REQUIRE_STATUS(r.st, CH_OK);
			for (;;)
			{
				const ch_block *b;
				ch_block_kind kind;
				ch_wait		wt;

				r.st = ch_conn_next_block(c, &b, &kind, &wt, &r.err);
				if (r.st == CH_OK)
				{
					take_block(&r, b, kind, false, NULL);
					continue;
				}
				if (r.st != CH_NEED_MORE)
					break;
				poll(NULL, 0, 1);
			}
			CHECK_MSG(r.st == CH_END, "%s", r.err.message);
			CHECK_EQ_UINT(r.sum0, m == 0 ? (uint64_t) 3 * 999 * 1000 / 2 : 1000);
		}
		CHECK(exec_ok(c, "SELECT 1"));
		ch_conn_destroy(c);
	}
	ch_writer_free(w);
	ch_buf_free(&blk);
	ch_arena_free(&ar);
}
