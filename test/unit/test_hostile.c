/*-------------------------------------------------------------------------
 * test_hostile.c
 *	  Unit tests of the limits that protect a backend from a broken or
 *	  hostile server (issue 12, item 7, and the strict parsing and proxy
 *	  rules of item 8): a bounded exception prefix, linear cost of a run of
 *	  empty blocks, index and dictionary limits, the decompressor's budget
 *	  and frame limit, strict header numbers, and no proxy from the
 *	  environment.
 *
 * test/unit/test_hostile.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include "ch_compress.h"
#include "ch_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the Native reader ---- */

/*
 * "Code: " then endless bytes: refused once the text passes the bound,
 * without waiting for the end of the input (which never comes).
 */
TEST(hostile_exception_text_is_bounded)
{
	ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
	ch_block   *b;
	ch_error	err;
	char		chunk[4096];
	size_t		fed = 0;
	ch_status	st = CH_NEED_MORE;

	REQUIRE(r);
	memset(chunk, 'x', sizeof(chunk));
	ch_error_clear(&err);
	CHECK_STATUS(ch_native_reader_feed(r, "Code: 999. DB::Exception: ", 26, &err), CH_OK);
	while (st == CH_NEED_MORE && fed < ((size_t) 64 << 20))
	{
		CHECK_STATUS(ch_native_reader_feed(r, chunk, sizeof(chunk), &err), CH_OK);
		fed += sizeof(chunk);
		st = ch_native_reader_next(r, &b, &err);
	}
	CHECK_STATUS(st, CH_ERR_SERVER);
	CHECK_MSG(fed <= CH_MAX_EXCEPTION_TEXT + sizeof(chunk),
			  "refused only after %zu bytes", fed);
	CHECK_EQ_INT(err.server_code, 999);
	CHECK_CONTAINS(err.message, "Code: 999. DB::Exception: xxx");
	CHECK_CONTAINS(err.detail, "longer than 65536 bytes");
	ch_native_reader_free(r);
}

/* A short exception text is still collected to its end, as before. */
TEST(hostile_short_exception_text_waits_for_the_end)
{
	ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
	ch_block   *b;
	ch_error	err;
	static char text[60000];

	REQUIRE(r);
	memcpy(text, "Code: 60. DB::Exception: ", 25);
	memset(text + 25, 'y', sizeof(text) - 25);
	ch_error_clear(&err);
	CHECK_STATUS(ch_native_reader_feed(r, text, sizeof(text), &err), CH_OK);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_NEED_MORE);
	ch_native_reader_finish(r);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_ERR_SERVER);
	CHECK_EQ_INT(err.server_code, 60);
	ch_native_reader_free(r);
}

/*
 * 8 MB of zero bytes are 4,194,304 empty blocks: each is handed out in
 * constant time (the consumed front is dropped lazily; the old reader moved
 * the whole rest of the buffer for every block, hours for this input).
 */
TEST(hostile_empty_block_run_is_linear)
{
	size_t		n = (size_t) 8 << 20;
	uint8_t    *zeros = calloc(n, 1);
	ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
	ch_block   *b;
	ch_error	err;
	uint64_t	blocks = 0;
	ch_status	st;
	double		t0;

	REQUIRE(zeros && r);
	ch_error_clear(&err);
	CHECK_STATUS(ch_native_reader_feed(r, zeros, n, &err), CH_OK);
	ch_native_reader_finish(r);
	t0 = now_s();
	while ((st = ch_native_reader_next(r, &b, &err)) == CH_OK)
	{
		if (b->ncols != 0 || b->nrows != 0)
			break;
		blocks++;
	}
	CHECK_STATUS(st, CH_END);
	CHECK_EQ_UINT(blocks, n / 2);
	CHECK_MSG(now_s() - t0 < 5.0, "%" PRIu64 " empty blocks took %.1f s", blocks, now_s() - t0);
	CHECK_EQ_UINT(ch_native_reader_buffered(r), 0);
	ch_native_reader_free(r);
	free(zeros);
}

/* Feeding between blocks keeps the unconsumed bytes in order. */
TEST(hostile_lazy_consume_keeps_order)
{
	ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
	ch_block   *b;
	ch_error	err;
	ch_buf		in;
	int			i;
	int			seen = 0;
	ch_status	st;

	REQUIRE(r);
	ch_buf_init(&in, NULL);
	for (i = 0; i < 1000; i++)
	{
		bld_varuint(&in, 1);
		bld_varuint(&in, 1);
		bld_col(&in, "c", "UInt32");
		bld_u32(&in, (uint32_t) i);
	}
	ch_error_clear(&err);
	/* feed in 7-byte pieces, taking every block as soon as it is there */
	for (i = 0; (size_t) i < in.len; i += 7)
	{
		size_t		k = in.len - (size_t) i < 7 ? in.len - (size_t) i : 7;

		CHECK_STATUS(ch_native_reader_feed(r, in.data + i, k, &err), CH_OK);
		while ((st = ch_native_reader_next(r, &b, &err)) == CH_OK)
		{
			if (!CHECK_EQ_UINT(ch_le32(b->cols[0].data), (uint64_t) seen))
				break;
			seen++;
		}
		if (!CHECK_STATUS(st, CH_NEED_MORE))
			break;
	}
	ch_native_reader_finish(r);
	/* a block whose last bytes just came may wait for the finish */
	while ((st = ch_native_reader_next(r, &b, &err)) == CH_OK)
	{
		CHECK_EQ_UINT(ch_le32(b->cols[0].data), (uint64_t) seen);
		seen++;
	}
	CHECK_STATUS(st, CH_END);
	CHECK_EQ_INT(seen, 1000);
	ch_buf_free(&in);
	ch_native_reader_free(r);
}

/* The defaults are a few hundred MB per block, not 4 GiB. */
TEST(hostile_default_limits)
{
	ch_native_limits lim;

	ch_native_limits_default(&lim);
	CHECK_EQ_UINT(lim.max_block_bytes, (uint64_t) 256 << 20);
	CHECK_EQ_UINT(lim.max_index_bytes, (uint64_t) 128 << 20);
	CHECK_EQ_UINT(lim.max_lc_dict, (uint64_t) 1 << 24);
}

/*
 * A String column of n empty values costs n bytes of input but 12n bytes
 * of index: the index limit refuses it before allocating.
 */
TEST(hostile_string_index_limit)
{
	ch_native_limits lim;
	int			pass;

	ch_native_limits_default(&lim);
	lim.max_index_bytes = 1 << 20;
	for (pass = 0; pass < 2; pass++)
	{
		uint64_t	n = pass == 0 ? 50000 : 100000;	/* 600 KB, 1.2 MB */
		count_alloc ca;
		ch_native_reader *r;
		ch_block   *b;
		ch_error	err;
		ch_buf		in;
		uint8_t    *zeros = calloc(n, 1);
		ch_status	st;

		REQUIRE(zeros);
		count_alloc_init(&ca, 0);
		r = ch_native_reader_create(&ca.a, false, &lim);
		REQUIRE(r);
		ch_buf_init(&in, NULL);
		bld_varuint(&in, 1);
		bld_varuint(&in, n);
		bld_col(&in, "s", "String");
		bld_raw(&in, zeros, n);
		ch_error_clear(&err);
		CHECK_STATUS(ch_native_reader_feed(r, in.data, in.len, &err), CH_OK);
		ch_native_reader_finish(r);
		st = ch_native_reader_next(r, &b, &err);
		if (pass == 0)
			CHECK_STATUS(st, CH_OK);
		else
		{
			CHECK_STATUS(st, CH_ERR_LIMIT);
			CHECK_CONTAINS(err.message, "index");
			CHECK_MSG(ca.largest < (size_t) 1 << 20, "allocated %zu bytes at once", ca.largest);
		}
		ch_native_reader_free(r);
		ch_buf_free(&in);
		free(zeros);
	}
}

/* Column structs count against the index limit too. */
TEST(hostile_column_count_index_limit)
{
	ch_native_limits lim;
	ch_native_reader *r;
	ch_block   *b;
	ch_error	err;
	ch_buf		in;

	ch_native_limits_default(&lim);
	lim.max_index_bytes = 1 << 20;
	r = ch_native_reader_create(NULL, false, &lim);
	REQUIRE(r);
	ch_buf_init(&in, NULL);
	bld_varuint(&in, 90000);
	bld_varuint(&in, 0);
	while (in.len < 2 * 90000 + 8)
		bld_u8(&in, 0);
	ch_error_clear(&err);
	CHECK_STATUS(ch_native_reader_feed(r, in.data, in.len, &err), CH_OK);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_ERR_LIMIT);
	CHECK_CONTAINS(err.message, "columns would take more than");
	ch_buf_free(&in);
	ch_native_reader_free(r);
}

/* A LowCardinality dictionary over the default of 2^24 entries. */
TEST(hostile_dictionary_limit)
{
	ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
	ch_block   *b;
	ch_error	err;
	ch_buf		in;

	REQUIRE(r);
	ch_buf_init(&in, NULL);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "c", "LowCardinality(String)");
	bld_u64(&in, 1);			/* serialization version */
	bld_u64(&in, 0x600);		/* UInt8 keys, with a dictionary update */
	bld_u64(&in, ((uint64_t) 1 << 24) + 1);
	ch_error_clear(&err);
	CHECK_STATUS(ch_native_reader_feed(r, in.data, in.len, &err), CH_OK);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_ERR_LIMIT);
	CHECK_CONTAINS(err.message, "exceeds the limit of 16777216");
	ch_buf_free(&in);
	ch_native_reader_free(r);
}

/* ---- the decompressor ---- */

typedef struct sink_count
{
	size_t		bytes;
	size_t		calls;
	bool		all_zero;
} sink_count;

static ch_status
count_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	sink_count *s = ctx;
	size_t		i;

	(void) err;
	s->bytes += len;
	s->calls++;
	for (i = 0; i < len; i++)
		if (data[i] != 0)
			s->all_zero = false;
	return CH_OK;
}

/* n frames of 1 MiB of zeros with method m. */
static void
zero_frames(ch_buf *out, ch_compress_method m, int n)
{
	uint8_t    *zeros = calloc((size_t) 1 << 20, 1);
	ch_error	err;
	int			i;

	ch_buf_init(out, NULL);
	for (i = 0; i < n && zeros; i++)
		CHECK_STATUS(ch_compress_frame(out, m, 0, zeros, (size_t) 1 << 20, &err), CH_OK);
	free(zeros);
}

/*
 * A few KB of frames expand to 40 MiB: with a budget of 3 MiB each call
 * stops after the frame that passed it, says how much it consumed, and the
 * caller continues from there; the bytes come out whole and in order.
 */
TEST(hostile_decompressor_budget)
{
	ch_compress_method methods[] = {CH_COMPRESS_ZSTD, CH_COMPRESS_LZ4};
	int			mi;

	for (mi = 0; mi < 2; mi++)
	{
		ch_buf		in;
		ch_decompressor *d = ch_decompressor_create(NULL);
		sink_count	s = {0, 0, true};
		size_t		pos = 0;
		int			calls = 0;
		ch_error	err;

		REQUIRE(d);
		zero_frames(&in, methods[mi], 40);
		ch_error_clear(&err);
		while (pos < in.len && calls < 1000)
		{
			size_t		before = s.bytes;
			size_t		used = 0;

			REQUIRE_STATUS(ch_decompressor_feed_some(d, in.data + pos, in.len - pos,
													 (size_t) 3 << 20, &used, count_sink, &s,
													 &err), CH_OK);
			CHECK_MSG(s.bytes - before <= ((size_t) 4 << 20),
					  "one call gave %zu bytes", s.bytes - before);
			pos += used;
			calls++;
		}
		CHECK_EQ_UINT(pos, in.len);
		CHECK_EQ_UINT(s.bytes, (size_t) 40 << 20);
		CHECK(s.all_zero);
		CHECK_MSG(calls >= 13, "only %d calls", calls);
		CHECK_STATUS(ch_decompressor_finish(d, &err), CH_OK);
		ch_decompressor_free(d);
		ch_buf_free(&in);
	}
}

/*
 * Input cut anywhere (7-byte pieces) with a tiny budget: *consumed counts
 * the bytes of a partial frame the decoder kept, so nothing is fed twice
 * (a double-fed piece shows as a checksum mismatch).
 */
TEST(hostile_decompressor_budget_split_frames)
{
	ch_buf		in;
	ch_decompressor *d = ch_decompressor_create(NULL);
	sink_count	s = {0, 0, true};
	size_t		pos = 0;
	ch_error	err;

	REQUIRE(d);
	zero_frames(&in, CH_COMPRESS_LZ4, 5);
	ch_error_clear(&err);
	while (pos < in.len)
	{
		size_t		k = in.len - pos < 7 ? in.len - pos : 7;
		size_t		off = 0;

		while (off < k)
		{
			size_t		used = 0;

			REQUIRE_STATUS(ch_decompressor_feed_some(d, in.data + pos + off, k - off, 1, &used,
													 count_sink, &s, &err), CH_OK);
			off += used;
		}
		pos += k;
	}
	CHECK_STATUS(ch_decompressor_finish(d, &err), CH_OK);
	CHECK_EQ_UINT(s.bytes, (size_t) 5 << 20);
	CHECK_EQ_UINT(s.calls, 5);
	ch_decompressor_free(d);
	ch_buf_free(&in);
}

/* A frame claiming more than the configured limit fails at its header. */
TEST(hostile_decompressor_frame_limit)
{
	ch_buf		in;
	ch_decompressor *d = ch_decompressor_create(NULL);
	sink_count	s = {0, 0, true};
	ch_error	err;

	REQUIRE(d);
	zero_frames(&in, CH_COMPRESS_ZSTD, 1);
	ch_decompressor_set_max_frame(d, (size_t) 1 << 19);
	ch_error_clear(&err);
	/* the header alone is enough to refuse it */
	CHECK_STATUS(ch_decompressor_feed(d, in.data, CH_FRAME_OVERHEAD, count_sink, &s, &err),
				 CH_ERR_LIMIT);
	CHECK_CONTAINS(err.message, "decompressed_size 1048576, over the limit of 524288");
	CHECK_EQ_UINT(s.bytes, 0);
	/* 0 restores the default; the limit survives a reset */
	ch_decompressor_reset(d);
	CHECK_STATUS(ch_decompressor_feed(d, in.data, in.len, count_sink, &s, &err), CH_ERR_LIMIT);
	ch_decompressor_reset(d);
	ch_decompressor_set_max_frame(d, 0);
	CHECK_STATUS(ch_decompressor_feed(d, in.data, in.len, count_sink, &s, &err), CH_OK);
	CHECK_EQ_UINT(s.bytes, (size_t) 1 << 20);
	ch_decompressor_free(d);
	ch_buf_free(&in);
}

/* ---- strict numbers from the server ---- */

TEST(hostile_parse_uint_strict)
{
	uint64_t	v = 7;

	CHECK(ch_parse_uint(" 241\r\n", 6, 1000000000, &v) && v == 241);
	CHECK(ch_parse_uint("0", 1, 10, &v) && v == 0);
	CHECK(ch_parse_uint("\t12 \t", 5, 100, &v) && v == 12);
	v = 7;
	CHECK(!ch_parse_uint("", 0, 10, &v));
	CHECK(!ch_parse_uint("  \r\n", 4, 10, &v));
	CHECK(!ch_parse_uint("-1", 2, 10, &v));
	CHECK(!ch_parse_uint("+1", 2, 10, &v));
	CHECK(!ch_parse_uint("12abc", 5, 100, &v));
	CHECK(!ch_parse_uint("1 2", 3, 100, &v));
	CHECK(!ch_parse_uint("0x10", 4, 100, &v));
	CHECK(!ch_parse_uint("1001", 4, 1000, &v));
	/* atoi would wrap these */
	CHECK(!ch_parse_uint("99999999999999999999", 20, UINT64_MAX, &v));
	CHECK(!ch_parse_uint("4294967297", 10, 1000000000, &v));
	/* len is respected: no read past it */
	CHECK(ch_parse_uint("42junk", 2, 100, &v) && v == 42);
	CHECK_EQ_UINT(v, 42);
}

TEST(hostile_parse_version_strict)
{
	int			a = -1,
				b = -1;

	CHECK(ch_parse_version("24.3.1.5", 8, &a, &b) && a == 24 && b == 3);
	CHECK(ch_parse_version("18.16", 5, &a, &b) && a == 18 && b == 16);
	CHECK(ch_parse_version("26.5.1-testing", 14, &a, &b) && a == 26 && b == 5);
	a = b = -1;
	CHECK(!ch_parse_version("", 0, &a, &b));
	CHECK(!ch_parse_version("24", 2, &a, &b));
	CHECK(!ch_parse_version("24.", 3, &a, &b));
	CHECK(!ch_parse_version(".3", 2, &a, &b));
	CHECK(!ch_parse_version("v24.3", 5, &a, &b));
	CHECK(!ch_parse_version("24.3x", 5, &a, &b));
	CHECK(!ch_parse_version("9999999999.1", 12, &a, &b));
	CHECK(!ch_parse_version("1.9999999999", 12, &a, &b));
	CHECK(a == -1 && b == -1);
}

/* ---- the transport: no proxy unless configured ---- */

/*
 * Two listening sockets on 127.0.0.1: "target" (the ClickHouse) and
 * "proxy". A child process accepts on both and reports on a pipe which one
 * got a request ('T' or 'P'), answering each with HTTP 200.
 */
static int
listen_any(int *port)
{
	struct sockaddr_in sa;
	socklen_t	sl = sizeof(sa);
	int			fd = socket(AF_INET, SOCK_STREAM, 0);
	int			one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) != 0 || listen(fd, 4) != 0 ||
		getsockname(fd, (struct sockaddr *) &sa, &sl) != 0)
		return -1;
	*port = ntohs(sa.sin_port);
	return fd;
}

static void
serve_two(int target, int proxy, int report)
{
	static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

	for (;;)
	{
		struct pollfd p[2] = {{target, POLLIN, 0}, {proxy, POLLIN, 0}};
		int			i;

		if (poll(p, 2, 10000) <= 0)
			_exit(0);
		for (i = 0; i < 2; i++)
		{
			char		buf[8192];
			int			c;

			if ((p[i].revents & POLLIN) == 0)
				continue;
			c = accept(i == 0 ? target : proxy, NULL, NULL);
			if (c < 0)
				continue;
			if (read(c, buf, sizeof(buf)) > 0)
			{
				if (write(report, i == 0 ? "T" : "P", 1) != 1)
					_exit(1);
				if (write(c, answer, sizeof(answer) - 1) < 0)
					_exit(1);
			}
			close(c);
		}
	}
}

/* Run one request to completion; the status. */
static ch_status
run_request(ch_http_conn *h)
{
	ch_http_request req;
	ch_error	err;
	ch_wait		w;
	ch_status	st;
	double		t0 = now_s();

	memset(&req, 0, sizeof(req));
	req.sql = "SELECT 1";
	req.sql_len = 8;
	ch_error_clear(&err);
	st = ch_http_begin(h, &req, &err);
	if (st != CH_OK)
		return st;
	while ((st = ch_http_step(h, &w, &err)) == CH_NEED_MORE && now_s() - t0 < 10)
	{
		struct pollfd p[CH_WAIT_MAX_SOCKETS];
		int			i;

		for (i = 0; i < w.nsockets; i++)
		{
			p[i].fd = w.fd[i];
			p[i].events = (short) ((w.want_read[i] ? POLLIN : 0) | (w.want_write[i] ? POLLOUT : 0));
			p[i].revents = 0;
		}
		(void) poll(p, (nfds_t) w.nsockets, w.timeout_ms < 0 || w.timeout_ms > 100 ? 100 : (int) w.timeout_ms);
	}
	return st;
}

TEST(hostile_no_proxy_from_the_environment)
{
	int			tport = 0,
				pport = 0;
	int			target = listen_any(&tport);
	int			proxy = listen_any(&pport);
	int			pipefd[2];
	pid_t		child;
	char		proxy_url[64];
	ch_http_config cfg;
	ch_http_conn *h;
	ch_error	err;
	char		got[8] = {0};
	ssize_t		n;

	REQUIRE(target >= 0 && proxy >= 0 && pipe(pipefd) == 0);
	child = fork();
	REQUIRE(child >= 0);
	if (child == 0)
	{
		close(pipefd[0]);
		serve_two(target, proxy, pipefd[1]);
		_exit(0);
	}
	close(pipefd[1]);
	snprintf(proxy_url, sizeof(proxy_url), "http://127.0.0.1:%d", pport);
	/* what a postmaster started with a proxy in its environment has */
	setenv("http_proxy", proxy_url, 1);
	setenv("HTTP_PROXY", proxy_url, 1);
	setenv("ALL_PROXY", proxy_url, 1);
	setenv("all_proxy", proxy_url, 1);
	unsetenv("no_proxy");
	unsetenv("NO_PROXY");

	memset(&cfg, 0, sizeof(cfg));
	cfg.host = "127.0.0.1";
	cfg.port = tport;
	cfg.password = "secret";
	ch_error_clear(&err);
	h = ch_http_create(NULL, &cfg, &err);
	REQUIRE(h);
	CHECK_STATUS(run_request(h), CH_OK);
	ch_http_destroy(h);

	/* with the option, that proxy (and only it) is used */
	cfg.proxy = proxy_url;
	h = ch_http_create(NULL, &cfg, &err);
	REQUIRE(h);
	CHECK_STATUS(run_request(h), CH_OK);
	ch_http_destroy(h);

	n = read(pipefd[0], got, 2);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(got, "TP");
	kill(child, SIGTERM);
	waitpid(child, NULL, 0);
	close(pipefd[0]);
	close(target);
	close(proxy);
}

/* ---- the transport: bounded work per step ---- */

typedef struct step_sink
{
	size_t		total;
	size_t		this_step;
	bool		all_zero;
} step_sink;

static ch_status
step_count_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	step_sink  *s = ctx;

	(void) err;
	s->total += len;
	s->this_step += len;
	if (len > 0 && (data[0] != 0 || data[len - 1] != 0))
		s->all_zero = false;
	return CH_OK;
}

/*
 * A server that answers with 300 LZ4 frames of 1 MiB of zeros (about 1.2 MB
 * on the wire, 300 MiB decompressed): every ch_http_step hands at most the
 * budget plus one frame to the sink, and the response still completes
 * whole (also when libcurl finishes while decoded input is pending).
 */
TEST(hostile_transport_step_budget)
{
	int			port = 0;
	int			lfd = listen_any(&port);
	pid_t		child;
	ch_buf		frames;
	ch_http_config cfg;
	ch_http_conn *h;
	ch_http_request req;
	ch_error	err;
	ch_wait		w;
	ch_status	st;
	step_sink	s = {0, 0, true};
	size_t		max_step = 0;
	int			steps = 0;
	double		t0 = now_s();

	REQUIRE(lfd >= 0);
	zero_frames(&frames, CH_COMPRESS_LZ4, 300);
	child = fork();
	REQUIRE(child >= 0);
	if (child == 0)
	{
		int			c = accept(lfd, NULL, NULL);
		char		buf[65536];
		char		head[64];
		static const char hdr[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
		size_t		off;

		if (c < 0 || read(c, buf, sizeof(buf)) <= 0 || write(c, hdr, sizeof(hdr) - 1) < 0)
			_exit(1);
		for (off = 0; off < frames.len; off += 65536)
		{
			size_t		n = frames.len - off < 65536 ? frames.len - off : 65536;
			int			hl = snprintf(head, sizeof(head), "%zx\r\n", n);

			if (write(c, head, (size_t) hl) < 0 || write(c, frames.data + off, n) < 0 ||
				write(c, "\r\n", 2) < 0)
				_exit(1);
		}
		if (write(c, "0\r\n\r\n", 5) < 0)
			_exit(1);
		/* wait for the client to close */
		while (read(c, buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.host = "127.0.0.1";
	cfg.port = port;
	ch_error_clear(&err);
	h = ch_http_create(NULL, &cfg, &err);
	REQUIRE(h);
	memset(&req, 0, sizeof(req));
	req.sql = "SELECT 1";
	req.sql_len = 8;
	req.sink = step_count_sink;
	req.sink_ctx = &s;
	req.response_framed = true;
	REQUIRE_STATUS(ch_http_begin(h, &req, &err), CH_OK);
	for (;;)
	{
		struct pollfd p[CH_WAIT_MAX_SOCKETS];
		int			i;

		s.this_step = 0;
		st = ch_http_step(h, &w, &err);
		if (s.this_step > max_step)
			max_step = s.this_step;
		steps++;
		if (st != CH_NEED_MORE || now_s() - t0 > 30)
			break;
		for (i = 0; i < w.nsockets; i++)
		{
			p[i].fd = w.fd[i];
			p[i].events = (short) ((w.want_read[i] ? POLLIN : 0) | (w.want_write[i] ? POLLOUT : 0));
			p[i].revents = 0;
		}
		(void) poll(p, (nfds_t) w.nsockets, w.timeout_ms < 0 || w.timeout_ms > 100 ? 100 : (int) w.timeout_ms);
	}
	CHECK_MSG(st == CH_OK, "ended with %s: %s", ch_status_name(st), err.message);
	CHECK_EQ_UINT(s.total, (size_t) 300 << 20);
	CHECK(s.all_zero);
	CHECK_MSG(max_step <= CH_HTTP_STEP_BUDGET + ((size_t) 1 << 20),
			  "one step gave %zu bytes to the sink", max_step);
	CHECK_MSG(steps >= 60, "only %d steps for 300 MiB (max %zu)", steps, max_step);
	ch_http_destroy(h);
	ch_buf_free(&frames);
	kill(child, SIGTERM);
	waitpid(child, NULL, 0);
	close(lfd);
}
