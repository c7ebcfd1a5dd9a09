/*-------------------------------------------------------------------------
 * test_tcp_proto.c
 *	  The native TCP packet codec (src/codec/ch_tcp_proto.c), without a
 *	  network:
 *	  - golden exchanges between the real clickhouse-client 18.16 and the
 *		real 18.16.1 server (test/golden/tcp_v18_16, captured by
 *		test/golden/capture_tcp.py): every server packet decodes, whole or
 *		fed byte by byte, and every truncated prefix is rejected; our
 *		Hello and Query encodings equal the official client's bytes;
 *	  - modern-revision layouts built byte by byte from ClickHouse's
 *		sources (each test names the function it follows), for the gates
 *		no live server here exercises (54420 .. 54485).
 *
 * test/unit/test_tcp_proto.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "ch_compress.h"
#include "ch_tcp_proto.h"

#include <stdlib.h>

#define MAX_PKTS 256

typedef struct pkt_rec
{
	int			type;
	ch_status	st;				/* CH_OK or CH_ERR_SERVER */
	uint64_t	ncols;
	uint64_t	nrows;
	uint64_t	end;			/* stream offset after the packet */
	int			code;			/* exception code */
	uint64_t	first_u64;		/* first value of column 0 if an integer */
} pkt_rec;

typedef struct decoded
{
	int			n;
	pkt_rec		p[MAX_PKTS];
	ch_status	final;			/* CH_END or the error that stopped */
	ch_error	err;
	ch_tcp_server_hello hello;
	ch_tcp_progress progress;	/* sum */
	ch_tcp_profile_info profile;	/* last */
	ch_error	exc;			/* last exception */
} decoded;

/*
 * Decode data[0..len): feed in chunks of chunk bytes (0: all at once),
 * draining after each; finish at the end unless !finish.
 */
static void
decode_all(const uint8_t *data, size_t len, uint32_t rev, bool comp, size_t chunk, bool finish,
		   decoded *out)
{
	ch_tcp_decoder *d = ch_tcp_decoder_create(NULL, NULL);
	size_t		off = 0;
	bool		done = false;

	memset(out, 0, sizeof(*out));
	out->final = CH_NEED_MORE;
	if (!CHECK(d != NULL))
		return;
	ch_tcp_decoder_set(d, rev, comp);
	while (!done)
	{
		size_t		n = chunk == 0 ? len - off : (len - off < chunk ? len - off : chunk);

		if (n > 0)
		{
			if (ch_tcp_decoder_feed(d, data + off, n, &out->err) != CH_OK)
			{
				out->final = out->err.code;
				break;
			}
			off += n;
		}
		if (off == len && finish)
			ch_tcp_decoder_finish(d);
		for (;;)
		{
			ch_tcp_packet pkt;
			ch_error	err;
			ch_status	st;

			ch_error_clear(&err);
			st = ch_tcp_decoder_next(d, &pkt, &err);
			if (st == CH_NEED_MORE)
			{
				if (off == len)
				{
					out->final = CH_NEED_MORE;
					done = true;
				}
				break;
			}
			if (st != CH_OK && st != CH_ERR_SERVER)
			{
				out->final = st;
				out->err = err;
				done = true;
				break;
			}
			if (out->n < MAX_PKTS)
			{
				pkt_rec    *r = &out->p[out->n];

				r->type = st == CH_ERR_SERVER ? CH_SP_EXCEPTION : (int) pkt.type;
				r->st = st;
				r->end = ch_tcp_decoder_offset(d);
				if (pkt.block)
				{
					r->ncols = pkt.block->ncols;
					r->nrows = pkt.block->nrows;
					if (r->ncols > 0 && r->nrows > 0 &&
						pkt.block->cols[0].type->kind >= CH_T_UINT8 &&
						pkt.block->cols[0].type->kind <= CH_T_UINT64)
						r->first_u64 = col_u64(&pkt.block->cols[0], 0);
				}
				if (st == CH_ERR_SERVER)
				{
					r->code = err.server_code;
					out->exc = err;
				}
			}
			out->n++;
			if (st == CH_OK && pkt.type == CH_SP_HELLO)
				out->hello = pkt.hello;
			if (st == CH_OK && pkt.type == CH_SP_PROGRESS)
			{
				out->progress.read_rows += pkt.progress.read_rows;
				out->progress.read_bytes += pkt.progress.read_bytes;
				out->progress.total_rows_to_read += pkt.progress.total_rows_to_read;
				out->progress.total_bytes_to_read += pkt.progress.total_bytes_to_read;
				out->progress.written_rows += pkt.progress.written_rows;
				out->progress.written_bytes += pkt.progress.written_bytes;
				out->progress.elapsed_ns += pkt.progress.elapsed_ns;
			}
			if (st == CH_OK && pkt.type == CH_SP_PROFILE_INFO)
				out->profile = pkt.profile;
			if (st == CH_OK && pkt.type == CH_SP_END_OF_STREAM && off == len && !finish)
			{
				out->final = CH_END;
				done = true;
				break;
			}
		}
		if (out->final == CH_END && !finish)
			break;
	}
	ch_tcp_decoder_free(d);
}

static bool
read_tcp_golden(const char *name, const char *ext, uint8_t **data, size_t *len)
{
	char		path[4096];
	FILE	   *f;
	long		sz;

	*data = NULL;
	*len = 0;
	snprintf(path, sizeof(path), "%s/tcp_v18_16/%s.%s", unit_golden_dir, name, ext);
	f = fopen(path, "rb");
	if (!f)
		return CHECK_MSG(false, "missing golden file %s (test/golden/capture_tcp.py makes it)", path);
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	*data = malloc((size_t) sz + 1);
	if (!*data || fread(*data, 1, (size_t) sz, f) != (size_t) sz)
	{
		fclose(f);
		free(*data);
		return CHECK_MSG(false, "cannot read %s", path);
	}
	fclose(f);
	*len = (size_t) sz;
	return CHECK_MSG(sz > 0, "empty golden file %s", path);
}

/* the server side of each capture: name, compression, expected packet types */
typedef struct tcp_case
{
	const char *name;
	bool		compressed;
	const char *types;			/* one letter per packet, see type_letter */
} tcp_case;

static char
type_letter(int t)
{
	switch (t)
	{
		case CH_SP_HELLO:
			return 'H';
		case CH_SP_DATA:
			return 'D';
		case CH_SP_EXCEPTION:
			return 'X';
		case CH_SP_PROGRESS:
			return 'P';
		case CH_SP_PONG:
			return 'O';
		case CH_SP_END_OF_STREAM:
			return 'E';
		case CH_SP_PROFILE_INFO:
			return 'I';
		case CH_SP_TOTALS:
			return 'T';
		case CH_SP_EXTREMES:
			return 'M';
		case CH_SP_LOG:
			return 'L';
		default:
			return '?';
	}
}

/*
 * What the 18.16.1 server sent (wire notes 4.9 and 4.12 describe the
 * same order): Hello, Pong (the client pings first), then the query's
 * packets. 'D+' = one or more Data packets.
 */
static const tcp_case tcp_cases[] = {
	{"select1", true, "HODDIPDE"},
	{"select1_nocompress", false, "HODDIPDE"},
	{"select_types", true, "HODDIPDE"},
	{"multi_block", false, "HODD+IPDE"},
	{"totals_extremes", true, "HODDTMIPDE"},
	{"exception", true, "HOX"},
	{"exception_after_data", false, "HODD+X"},
	{"logs", true, "HOL*DL*DL*IL*PL*DL*E"},
	{"insert", true, "HODP*E"},
};

/* does the letter string s match the pattern (X+ one or more, X* any) */
static bool
match_types(const char *pat, const char *s)
{
	if (*pat == '\0')
		return *s == '\0';
	if (pat[1] == '+' || pat[1] == '*')
	{
		const char *p = s;

		if (pat[1] == '+')
		{
			if (*p != pat[0])
				return false;
			p++;
		}
		for (;; p++)
		{
			if (match_types(pat + 2, p))
				return true;
			if (*p != pat[0])
				return false;
		}
	}
	return *s == *pat && match_types(pat + 1, s + 1);
}

static void
letters(const decoded *d, char *buf, size_t n)
{
	int			i;

	for (i = 0; i < d->n && i < MAX_PKTS && (size_t) i + 1 < n; i++)
		buf[i] = type_letter(d->p[i].type);
	buf[i] = '\0';
}

TEST(tcp_golden_server_packets)
{
	size_t		i;

	for (i = 0; i < sizeof(tcp_cases) / sizeof(tcp_cases[0]); i++)
	{
		const tcp_case *tc = &tcp_cases[i];
		uint8_t    *s2c;
		size_t		len;
		decoded		all,
					bytes;
		char		l1[MAX_PKTS + 1],
					l2[MAX_PKTS + 1];

		if (!read_tcp_golden(tc->name, "s2c", &s2c, &len))
			continue;
		decode_all(s2c, len, CH_TCP_REVISION_18_16, tc->compressed, 0, true, &all);
		letters(&all, l1, sizeof(l1));
		CHECK_MSG(all.final == CH_END, "%s: %s %s", tc->name, ch_status_name(all.final),
				  all.err.message);
		CHECK_MSG(match_types(tc->types, l1), "%s: packets %s, expected %s", tc->name, l1, tc->types);
		/* fed one byte at a time: the same packets */
		decode_all(s2c, len, CH_TCP_REVISION_18_16, tc->compressed, 1, true, &bytes);
		letters(&bytes, l2, sizeof(l2));
		CHECK_MSG(strcmp(l1, l2) == 0 && bytes.final == CH_END, "%s byte by byte: %s %s", tc->name,
				  l2, ch_status_name(bytes.final));
		/* the hello of 18.16.1 */
		CHECK_EQ_STR(all.hello.name, "ClickHouse");
		CHECK_EQ_UINT(all.hello.version_major, 18);
		CHECK_EQ_UINT(all.hello.version_minor, 16);
		CHECK_EQ_UINT(all.hello.version_patch, 1);
		CHECK_EQ_UINT(all.hello.revision, 54412);
		CHECK(all.hello.timezone[0] != '\0');
		free(s2c);
	}
}

TEST(tcp_golden_values)
{
	uint8_t    *s2c;
	size_t		len;
	decoded		d;
	int			i;
	uint64_t	rows = 0;

	/* SELECT 1 AS x: header (1 column, 0 rows), one row with 1 */
	if (read_tcp_golden("select1", "s2c", &s2c, &len))
	{
		decode_all(s2c, len, 54412, true, 0, true, &d);
		REQUIRE(d.n == 8);
		CHECK_EQ_UINT(d.p[2].ncols, 1);
		CHECK_EQ_UINT(d.p[2].nrows, 0);
		CHECK_EQ_UINT(d.p[3].nrows, 1);
		CHECK_EQ_UINT(d.p[3].first_u64, 1);
		CHECK_EQ_UINT(d.profile.rows, 1);
		CHECK_EQ_UINT(d.progress.read_rows, 1);
		/* the end-of-data block: no columns */
		CHECK_EQ_UINT(d.p[6].ncols, 0);
		free(s2c);
	}
	/* 2500 rows in 1000-row blocks */
	if (read_tcp_golden("multi_block", "s2c", &s2c, &len))
	{
		decode_all(s2c, len, 54412, false, 7, true, &d);
		for (i = 0; i < d.n; i++)
			if (d.p[i].type == CH_SP_DATA)
				rows += d.p[i].nrows;
		CHECK_EQ_UINT(rows, 2500);
		CHECK_EQ_UINT(d.profile.rows, 2500);
		CHECK(d.progress.read_rows >= 2500);	/* whole 1000-row blocks */
		free(s2c);
	}
	/* exceptions: code, class and message as separate fields */
	if (read_tcp_golden("exception", "s2c", &s2c, &len))
	{
		decode_all(s2c, len, 54412, true, 0, true, &d);
		CHECK_EQ_INT(d.exc.server_code, 81);
		CHECK_EQ_STR(d.exc.server_name, "DB::Exception");
		CHECK_EQ_STR(d.exc.message, "Database capture_no_such_db doesn't exist");
		CHECK(d.exc.detail[0] != '\0');		/* the stack trace */
		free(s2c);
	}
	if (read_tcp_golden("exception_after_data", "s2c", &s2c, &len))
	{
		decode_all(s2c, len, 54412, false, 0, true, &d);
		REQUIRE(d.n >= 3);
		CHECK_EQ_INT(d.p[d.n - 1].code, 395);
		CHECK_EQ_STR(d.exc.message, "Value passed to 'throwIf' function is non zero");
		free(s2c);
	}
	/* Log blocks travel uncompressed even in a compressed query (rev < 54481) */
	if (read_tcp_golden("logs", "s2c", &s2c, &len))
	{
		decode_all(s2c, len, 54412, true, 0, true, &d);
		for (i = 0; i < d.n; i++)
			if (d.p[i].type == CH_SP_LOG)
			{
				CHECK_EQ_UINT(d.p[i].ncols, 8);
				break;
			}
		CHECK(i < d.n);
		free(s2c);
	}
	/* INSERT: the sample block holds the table's columns, no rows */
	if (read_tcp_golden("insert", "s2c", &s2c, &len))
	{
		decode_all(s2c, len, 54412, true, 0, true, &d);
		REQUIRE(d.n >= 4);
		CHECK_EQ_UINT(d.p[2].ncols, 2);
		CHECK_EQ_UINT(d.p[2].nrows, 0);
		CHECK_EQ_UINT(d.progress.written_rows, 0);	/* not at 54412 */
		free(s2c);
	}
}

/*
 * Every truncated prefix of every server packet: the packets that fit
 * decode, then CH_END exactly at a packet boundary and CH_ERR_TRUNCATED
 * anywhere else (requireNoShortRead, as ch-go's tests do).
 */
TEST(tcp_golden_truncated_prefixes)
{
	size_t		i;

	for (i = 0; i < sizeof(tcp_cases) / sizeof(tcp_cases[0]); i++)
	{
		const tcp_case *tc = &tcp_cases[i];
		uint8_t    *s2c;
		size_t		len,
					k;
		decoded		all;
		int			bad = 0;

		if (!read_tcp_golden(tc->name, "s2c", &s2c, &len))
			continue;
		decode_all(s2c, len, 54412, tc->compressed, 0, true, &all);
		REQUIRE(all.final == CH_END && all.n <= MAX_PKTS);
		for (k = 0; k < len && bad < 5; k++)
		{
			decoded		d;
			int			fit = 0;
			bool		boundary = k == 0;

			while (fit < all.n && all.p[fit].end <= k)
			{
				if (all.p[fit].end == k)
					boundary = true;
				fit++;
			}
			decode_all(s2c, k, 54412, tc->compressed, 0, true, &d);
			if (!CHECK_MSG(d.n == fit && d.final == (boundary ? CH_END : CH_ERR_TRUNCATED),
						   "%s prefix %zu of %zu: %d packets then %s (%s), expected %d then %s",
						   tc->name, k, len, d.n, ch_status_name(d.final), d.err.message, fit,
						   boundary ? "CH_END" : "CH_ERR_TRUNCATED"))
				bad++;
			/* without finish a prefix only asks for more */
			if (!boundary)
			{
				decode_all(s2c, k, 54412, tc->compressed, 0, false, &d);
				if (!CHECK_MSG(d.final == CH_NEED_MORE && d.n == fit, "%s prefix %zu unfinished: %s",
							   tc->name, k, ch_status_name(d.final)))
					bad++;
			}
		}
		free(s2c);
	}
}

/* ---- client packets against the official client's bytes ---- */

/* ClientInfo::write as the 18.16 client filled it (wire notes 4.6.5) */
static const ch_tcp_hello_out official_client = {
	"ClickHouse client", NULL, "vm", 18, 16, 1, 54412, "", "default", ""
};

TEST(tcp_hello_and_query_match_official_client)
{
	uint8_t    *c2s;
	size_t		len;
	ch_buf		b;
	ch_tcp_query_out q;
	ch_error	err;
	static const char sql[] = "SELECT 1 AS x";

	if (!read_tcp_golden("select1_nocompress", "c2s", &c2s, &len))
		return;
	ch_buf_init(&b, NULL);
	/* Hello, then the client's Ping */
	REQUIRE_STATUS(ch_tcp_write_hello(&b, &official_client), CH_OK);
	REQUIRE(ch_buf_append_varuint(&b, CH_CP_PING) == CH_OK);
	/* the captured client ran on host "vm" */
	memset(&q, 0, sizeof(q));
	q.client = &official_client;
	q.sql = sql;
	q.sql_len = sizeof(sql) - 1;
	q.compression = false;
	ch_error_clear(&err);
	REQUIRE_STATUS(ch_tcp_write_query(&b, 54412, &q, &err), CH_OK);
	REQUIRE_STATUS(ch_tcp_write_empty_data(&b, 54412, false, CH_COMPRESS_LZ4, &err), CH_OK);
	CHECK_EQ_MEM(b.data, b.len, c2s, len);
	ch_buf_free(&b);
	free(c2s);
}

TEST(tcp_compressed_empty_block_matches_official_client)
{
	uint8_t    *c2s;
	size_t		len;
	ch_buf		b;
	ch_error	err;
	/* the last packet of select1.c2s: Data with a compressed empty block */
	static const size_t data_len = 2 + 16 + 9 + 11;	/* 10 bytes in 11 */

	if (!read_tcp_golden("select1", "c2s", &c2s, &len))
		return;
	REQUIRE(len > data_len);
	ch_buf_init(&b, NULL);
	REQUIRE_STATUS(ch_tcp_write_empty_data(&b, 54412, true, CH_COMPRESS_LZ4, &err), CH_OK);
	CHECK_EQ_MEM(b.data, b.len, c2s + len - data_len, data_len);
	ch_buf_free(&b);
	free(c2s);
}

/* ---- modern layouts, byte by byte from ClickHouse's sources ---- */

static void
bld_hello(ch_buf *b, uint32_t client_rev, uint32_t server_rev)
{
	/* TCPHandler::sendHello (master): fields gated on the client's revision */
	bld_varuint(b, CH_SP_HELLO);
	bld_str(b, "ClickHouse");
	bld_varuint(b, 25);
	bld_varuint(b, 8);
	bld_varuint(b, server_rev);
	if (client_rev >= 54471)
		bld_varuint(b, 3);		/* parallel replicas protocol */
	bld_str(b, "UTC");
	bld_str(b, "srv");
	bld_varuint(b, 2);			/* patch */
	if (client_rev >= 54470)
	{
		bld_str(b, "notchunked_optional");
		bld_str(b, "chunked_optional");
	}
	if (client_rev >= 54461)
	{
		bld_varuint(b, 1);		/* password complexity rules */
		bld_str(b, ".{12}");
		bld_str(b, "at least 12 characters");
	}
	if (client_rev >= 54462)
		bld_u64(b, UINT64_C(0x1122334455667788));	/* nonce */
	if (client_rev >= 54474)
	{
		/* BaseSettings::write, strings with flags */
		bld_str(b, "max_threads");
		bld_varuint(b, 0);
		bld_str(b, "8");
		bld_str(b, "");
	}
	if (client_rev >= 54477)
		bld_varuint(b, 1);		/* query plan serialization version */
	if (client_rev >= 54479)
		bld_varuint(b, 2);		/* cluster function protocol version */
	bld_varuint(b, CH_SP_END_OF_STREAM);	/* in step after it */
}

TEST(tcp_modern_server_hello)
{
	static const uint32_t revs[] = {54412, 54460, 54461, 54462, 54470, 54471, 54474, 54477,
	54479, 54485};
	size_t		i;

	for (i = 0; i < sizeof(revs) / sizeof(revs[0]); i++)
	{
		ch_buf		b;
		decoded		d;
		size_t		k;

		ch_buf_init(&b, NULL);
		bld_hello(&b, revs[i], 54485);
		decode_all(b.data, b.len, revs[i], false, 0, true, &d);
		CHECK_MSG(d.final == CH_END && d.n == 2 && d.p[1].type == CH_SP_END_OF_STREAM,
				  "rev %u: %s after %d packets", revs[i], ch_status_name(d.final), d.n);
		CHECK_EQ_STR(d.hello.timezone, "UTC");
		CHECK_EQ_STR(d.hello.display_name, "srv");
		CHECK_EQ_UINT(d.hello.version_patch, 2);
		CHECK_EQ_UINT(d.hello.revision, 54485);
		CHECK_EQ_UINT(d.hello.parallel_replicas_protocol, revs[i] >= 54471 ? 3 : 0);
		CHECK_EQ_STR(d.hello.recv_chunked, revs[i] >= 54470 ? "chunked_optional" : "");
		CHECK_EQ_UINT(d.hello.npassword_rules, revs[i] >= 54461 ? 1 : 0);
		CHECK_EQ_UINT(d.hello.nonce, revs[i] >= 54462 ? UINT64_C(0x1122334455667788) : 0);
		CHECK_EQ_UINT(d.hello.nserver_settings, revs[i] >= 54474 ? 1 : 0);
		CHECK_EQ_UINT(d.hello.query_plan_serialization, revs[i] >= 54477 ? 1 : 0);
		CHECK_EQ_UINT(d.hello.cluster_function_protocol, revs[i] >= 54479 ? 2 : 0);
		/* every prefix is short */
		for (k = 0; k + 1 < b.len; k++)
		{
			decode_all(b.data, k, revs[i], false, 0, true, &d);
			if (!CHECK_MSG(d.final == (k == 0 ? CH_END : CH_ERR_TRUNCATED) && d.n == 0,
						   "rev %u prefix %zu: %s", revs[i], k, ch_status_name(d.final)))
				break;
		}
		ch_buf_free(&b);
	}
}

TEST(tcp_old_server_hello_to_new_client)
{
	/* an 18.16 server answers a client announcing 54485 with its 54412 layout */
	ch_buf		b;
	decoded		d;

	ch_buf_init(&b, NULL);
	bld_hello(&b, 54412, 54412);
	decode_all(b.data, b.len, 54485, false, 0, true, &d);
	CHECK_MSG(d.final == CH_END && d.n == 2, "%s", ch_status_name(d.final));
	CHECK_EQ_UINT(d.hello.revision, 54412);
	CHECK_EQ_STR(d.hello.display_name, "srv");
	ch_buf_free(&b);
}

TEST(tcp_modern_progress_and_profile_info)
{
	static const uint32_t revs[] = {54412, 54420, 54460, 54463, 54469, 54485};
	size_t		i;

	for (i = 0; i < sizeof(revs) / sizeof(revs[0]); i++)
	{
		uint32_t	r = revs[i];
		ch_buf		b;
		decoded		d;

		ch_buf_init(&b, NULL);
		/* ProgressValues::write (src/IO/Progress.cpp) */
		bld_varuint(&b, CH_SP_PROGRESS);
		bld_varuint(&b, 10);	/* read_rows */
		bld_varuint(&b, 80);	/* read_bytes */
		bld_varuint(&b, 100);	/* total_rows_to_read */
		if (r >= 54463)
			bld_varuint(&b, 800);	/* total_bytes_to_read */
		if (r >= 54420)
		{
			bld_varuint(&b, 3);	/* written_rows */
			bld_varuint(&b, 24);	/* written_bytes */
		}
		if (r >= 54460)
			bld_varuint(&b, 123456789);	/* elapsed_ns */
		/* ProfileInfo::write (src/QueryPipeline/ProfileInfo.cpp) */
		bld_varuint(&b, CH_SP_PROFILE_INFO);
		bld_varuint(&b, 7);		/* rows */
		bld_varuint(&b, 1);		/* blocks */
		bld_varuint(&b, 56);	/* bytes */
		bld_u8(&b, 1);			/* applied_limit */
		bld_varuint(&b, 9);		/* rows_before_limit */
		bld_u8(&b, 1);			/* calculated_rows_before_limit */
		if (r >= 54469)
		{
			bld_u8(&b, 1);		/* applied_aggregation */
			bld_varuint(&b, 11);	/* rows_before_aggregation */
		}
		bld_varuint(&b, CH_SP_END_OF_STREAM);
		decode_all(b.data, b.len, r, false, 0, true, &d);
		CHECK_MSG(d.final == CH_END && d.n == 3, "rev %u: %s after %d", r, ch_status_name(d.final), d.n);
		CHECK_EQ_UINT(d.progress.read_rows, 10);
		CHECK_EQ_UINT(d.progress.total_rows_to_read, 100);
		CHECK_EQ_UINT(d.progress.total_bytes_to_read, r >= 54463 ? 800 : 0);
		CHECK_EQ_UINT(d.progress.written_rows, r >= 54420 ? 3 : 0);
		CHECK_EQ_UINT(d.progress.elapsed_ns, r >= 54460 ? 123456789 : 0);
		CHECK_EQ_UINT(d.profile.rows, 7);
		CHECK_EQ_UINT(d.profile.rows_before_limit, 9);
		CHECK_EQ_UINT(d.profile.rows_before_aggregation, r >= 54469 ? 11 : 0);
		ch_buf_free(&b);
	}
}

/* a Data packet with one UInt8 column "x" of two rows, optionally flagged */
static void
bld_data(ch_buf *b, int type, uint32_t rev, int custom_flag)
{
	bld_varuint(b, (uint64_t) type);
	bld_str(b, "");				/* table name */
	/* BlockInfo::write: field 1 is_overflows, 2 bucket_num, [3 buckets], 0 */
	bld_varuint(b, 1);
	bld_u8(b, 0);
	bld_varuint(b, 2);
	bld_u32(b, 0xffffffff);
	if (rev >= 54480)
	{
		bld_varuint(b, 3);
		bld_varuint(b, 1);
		bld_u32(b, 5);
	}
	bld_varuint(b, 0);
	bld_varuint(b, 1);			/* columns */
	bld_varuint(b, 2);			/* rows */
	bld_col(b, "x", "UInt8");
	/* NativeWriter::write: has_custom serialization flag from 54454 */
	if (rev >= 54454)
		bld_u8(b, (uint8_t) custom_flag);
	bld_u8(b, 7);
	bld_u8(b, 8);
}

TEST(tcp_modern_data_custom_serialization)
{
	static const uint32_t revs[] = {54412, 54453, 54454, 54460, 54480};
	size_t		i;

	for (i = 0; i < sizeof(revs) / sizeof(revs[0]); i++)
	{
		ch_buf		b;
		decoded		d;

		ch_buf_init(&b, NULL);
		bld_data(&b, CH_SP_DATA, revs[i], 0);
		bld_varuint(&b, CH_SP_END_OF_STREAM);
		decode_all(b.data, b.len, revs[i], false, 0, true, &d);
		CHECK_MSG(d.final == CH_END && d.n == 2 && d.p[0].nrows == 2 && d.p[0].first_u64 == 7,
				  "rev %u: %s (%s)", revs[i], ch_status_name(d.final), d.err.message);
		ch_buf_free(&b);
		if (revs[i] >= 54454)
		{
			/* a sparse column (kind 1): refused cleanly */
			ch_buf_init(&b, NULL);
			bld_data(&b, CH_SP_DATA, revs[i], 1);
			decode_all(b.data, b.len, revs[i], false, 0, true, &d);
			CHECK_MSG(d.final == CH_ERR_UNSUPPORTED, "rev %u flagged: %s", revs[i],
					  ch_status_name(d.final));
			ch_buf_free(&b);
		}
	}
}

TEST(tcp_compressed_data_round_trip)
{
	static const ch_compress_method methods[] = {CH_COMPRESS_NONE, CH_COMPRESS_LZ4, CH_COMPRESS_ZSTD};
	size_t		m;

	for (m = 0; m < 3; m++)
	{
		ch_buf		plain,
					tcp,
					pkt;
		ch_error	err;
		decoded		d;
		size_t		k;
		uint64_t	i;

		ch_buf_init(&plain, NULL);
		ch_buf_init(&tcp, NULL);
		ch_buf_init(&pkt, NULL);
		/* a 3 MB HTTP-layout block: several 1 MiB frames */
		bld_varuint(&plain, 1);
		bld_varuint(&plain, 400000);
		bld_col(&plain, "n", "UInt64");
		for (i = 0; i < 400000; i++)
			bld_u64(&plain, i * 2654435761u);
		REQUIRE_STATUS(ch_tcp_reframe_block(&tcp, 54460, plain.data, plain.len, &err), CH_OK);
		REQUIRE_STATUS(ch_tcp_write_data(&pkt, 54460, true, methods[m], 0, tcp.data, tcp.len, &err),
					   CH_OK);
		pkt.data[0] = CH_SP_DATA;	/* the client's Data (2) as the server's (1) */
		bld_varuint(&pkt, CH_SP_END_OF_STREAM);
		decode_all(pkt.data, pkt.len, 54460, true, 0, true, &d);
		CHECK_MSG(d.final == CH_END && d.n == 2 && d.p[0].nrows == 400000,
				  "method %zu: %s %s", m, ch_status_name(d.final), d.err.message);
		decode_all(pkt.data, pkt.len, 54460, true, 65536, true, &d);
		CHECK_MSG(d.final == CH_END && d.n == 2, "method %zu in pieces: %s", m, ch_status_name(d.final));
		/* a flipped bit in a frame: the checksum says so */
		k = pkt.len / 2;
		pkt.data[k] ^= 0x10;
		decode_all(pkt.data, pkt.len, 54460, true, 0, true, &d);
		CHECK_MSG(d.final == CH_ERR_CHECKSUM, "method %zu corrupted: %s", m, ch_status_name(d.final));
		ch_buf_free(&plain);
		ch_buf_free(&tcp);
		ch_buf_free(&pkt);
	}
}

TEST(tcp_reframe_block_layouts)
{
	ch_buf		plain,
				out,
				want;
	ch_error	err;

	ch_buf_init(&plain, NULL);
	ch_buf_init(&out, NULL);
	ch_buf_init(&want, NULL);
	bld_varuint(&plain, 2);
	bld_varuint(&plain, 2);
	bld_col(&plain, "a", "UInt8");
	bld_u8(&plain, 1);
	bld_u8(&plain, 2);
	bld_col(&plain, "s", "String");
	bld_str(&plain, "x");
	bld_str(&plain, "yz");
	/* 54412: BlockInfo + the same bytes */
	REQUIRE_STATUS(ch_tcp_reframe_block(&out, 54412, plain.data, plain.len, &err), CH_OK);
	bld_raw(&want, "\x01\x00\x02\xff\xff\xff\xff\x00", 8);
	bld_raw(&want, plain.data, plain.len);
	CHECK_EQ_MEM(out.data, out.len, want.data, want.len);
	/* 54454: and a 0 after each type (NativeWriter.cpp) */
	ch_buf_reset(&out);
	ch_buf_reset(&want);
	REQUIRE_STATUS(ch_tcp_reframe_block(&out, 54454, plain.data, plain.len, &err), CH_OK);
	bld_raw(&want, "\x01\x00\x02\xff\xff\xff\xff\x00", 8);
	bld_varuint(&want, 2);
	bld_varuint(&want, 2);
	bld_col(&want, "a", "UInt8");
	bld_u8(&want, 0);
	bld_u8(&want, 1);
	bld_u8(&want, 2);
	bld_col(&want, "s", "String");
	bld_u8(&want, 0);
	bld_str(&want, "x");
	bld_str(&want, "yz");
	CHECK_EQ_MEM(out.data, out.len, want.data, want.len);
	/* two blocks are not one */
	bld_raw(&plain, "\x00\x00", 2);
	ch_buf_reset(&out);
	CHECK_STATUS(ch_tcp_reframe_block(&out, 54454, plain.data, plain.len, &err), CH_ERR_MALFORMED);
	CHECK_EQ_UINT(out.len, 0);
	ch_buf_free(&plain);
	ch_buf_free(&out);
	ch_buf_free(&want);
}

TEST(tcp_modern_query_packet_54460)
{
	/* the wire notes' 4.6.4 example, constructed from TCPHandler::receiveQuery */
	static const ch_tcp_hello_out cl = {"pgfdw", NULL, NULL, 1, 0, 0, 54460, "", "default", ""};
	static const ch_tcp_setting set[] = {{"max_block_size", "65536", false}};
	static const ch_tcp_setting par[] = {{"id", "'42'", false}};
	static const char sql[] = "SELECT {id:UInt32}";
	ch_tcp_query_out q;
	ch_buf		out,
				want;
	ch_error	err;

	ch_buf_init(&out, NULL);
	ch_buf_init(&want, NULL);
	memset(&q, 0, sizeof(q));
	q.query_id = "q1";
	q.client = &cl;
	q.settings = set;
	q.nsettings = 1;
	q.params = par;
	q.nparams = 1;
	q.sql = sql;
	q.sql_len = sizeof(sql) - 1;
	REQUIRE_STATUS(ch_tcp_write_query(&out, 54460, &q, &err), CH_OK);
	bld_raw(&want, "\x01\x02q1", 4);
	bld_raw(&want, "\x01\x00\x00\x09" "0.0.0.0:0", 13);
	bld_u64(&want, 0);			/* initial_query_start_time (54449) */
	bld_raw(&want, "\x01\x00\x00\x05pgfdw", 9);
	bld_raw(&want, "\x01\x00\xbc\xa9\x03", 5);
	bld_raw(&want, "\x00\x00\x00\x00\x00\x00\x00", 7);	/* quota, depth, patch, otel, 3 replicas */
	bld_raw(&want, "\x0emax_block_size\x00\x05" "65536\x00", 23);
	bld_raw(&want, "\x00\x02\x00", 3);	/* secret, stage, compression */
	bld_str(&want, sql);
	bld_raw(&want, "\x02id\x02\x04'42'\x00", 10);
	CHECK_EQ_MEM(out.data, out.len, want.data, want.len);
	/* parameters do not exist before 54459 */
	ch_buf_reset(&out);
	CHECK_STATUS(ch_tcp_write_query(&out, 54412, &q, &err), CH_ERR_UNSUPPORTED);
	ch_buf_free(&out);
	ch_buf_free(&want);
}

TEST(tcp_modern_query_packet_54485)
{
	/* ClientInfo::write and Connection::sendQuery at the newest gates */
	static const ch_tcp_hello_out cl = {"c", NULL, NULL, 1, 0, 0, 54485, "", "default", ""};
	ch_tcp_query_out q;
	ch_buf		out,
				want;
	ch_error	err;

	ch_buf_init(&out, NULL);
	ch_buf_init(&want, NULL);
	memset(&q, 0, sizeof(q));
	q.client = &cl;
	q.sql = "S";
	q.sql_len = 1;
	q.compression = true;
	REQUIRE_STATUS(ch_tcp_write_query(&out, 54485, &q, &err), CH_OK);
	bld_raw(&want, "\x01\x00", 2);	/* Query, query_id "" */
	bld_raw(&want, "\x01\x00\x00\x09" "0.0.0.0:0", 13);
	bld_u64(&want, 0);
	bld_raw(&want, "\x01\x00\x00\x01" "c", 5);
	bld_raw(&want, "\x01\x00\xd5\xa9\x03", 5);	/* 1.0, revision 54485 */
	bld_raw(&want, "\x00\x00\x00\x00", 4);	/* quota, depth, patch, otel */
	bld_raw(&want, "\x00\x00\x00", 3);	/* parallel replicas (54453) */
	bld_raw(&want, "\x00\x00", 2);	/* script query/line numbers (54475) */
	bld_u8(&want, 0);			/* no JWT (54476) */
	bld_str(&want, "");			/* client_agent (54485) */
	bld_u8(&want, 0);			/* settings end */
	bld_str(&want, "");			/* external roles (54472) */
	bld_str(&want, "");			/* inter-server secret (54441) */
	bld_raw(&want, "\x02\x01\x01S", 4);	/* stage, compression on, "S" */
	bld_u8(&want, 0);			/* parameters end (54459) */
	CHECK_EQ_MEM(out.data, out.len, want.data, want.len);
	ch_buf_free(&out);
	ch_buf_free(&want);
}

TEST(tcp_settings_binary_encoding_18_16)
{
	/* 18.16 SettingsCommon.h: numbers as VarUInt, strings as String */
	static const ch_tcp_hello_out cl = {"c", NULL, NULL, 1, 0, 0, 54412, "", "default", ""};
	static const ch_tcp_setting set[] = {{"max_block_size", "2", false},
	{"send_logs_level", "debug", false}};
	ch_tcp_query_out q;
	ch_buf		out;
	ch_error	err;

	ch_buf_init(&out, NULL);
	memset(&q, 0, sizeof(q));
	q.client = &cl;
	q.settings = set;
	q.nsettings = 2;
	q.sql = "S";
	q.sql_len = 1;
	REQUIRE_STATUS(ch_tcp_write_query(&out, 54412, &q, &err), CH_OK);
	CHECK(find_bytes(out.data, out.len, "\x0emax_block_size\x02\x0fsend_logs_level\x05" "debug\x00") != NULL);
	ch_buf_free(&out);
}

TEST(tcp_addendum_layouts)
{
	ch_buf		out;

	/* TCPHandler::receiveAddendum: quota key, [chunked x2 (54470)], [VarUInt (54471)] */
	ch_buf_init(&out, NULL);
	CHECK_STATUS(ch_tcp_write_addendum(&out, 54412), CH_OK);
	CHECK_EQ_UINT(out.len, 0);
	CHECK_STATUS(ch_tcp_write_addendum(&out, 54460), CH_OK);
	CHECK_EQ_BYTES(out.data, out.len, "\x00");
	ch_buf_reset(&out);
	CHECK_STATUS(ch_tcp_write_addendum(&out, 54471), CH_OK);
	CHECK_EQ_BYTES(out.data, out.len, "\x00\x0anotchunked\x0anotchunked\x00");
	ch_buf_free(&out);
}

TEST(tcp_exception_nested_and_table_columns)
{
	ch_buf		b;
	decoded		d;

	ch_buf_init(&b, NULL);
	/* TCPHandler::sendTableColumns: name, description */
	bld_varuint(&b, CH_SP_TABLE_COLUMNS);
	bld_str(&b, "");
	bld_str(&b, "columns format version: 1\n1 columns:\n`a` UInt32\n");
	/* writeException: code, name, message, stack, has_nested + nested */
	bld_varuint(&b, CH_SP_EXCEPTION);
	bld_u32(&b, 60);
	bld_str(&b, "DB::Exception");
	bld_str(&b, "DB::Exception: Table x.y does not exist");
	bld_str(&b, "stack");
	bld_u8(&b, 1);
	bld_u32(&b, 1000);
	bld_str(&b, "Poco::Exception");
	bld_str(&b, "inner");
	bld_str(&b, "");
	bld_u8(&b, 0);
	bld_varuint(&b, CH_SP_END_OF_STREAM);
	decode_all(b.data, b.len, 54460, false, 0, true, &d);
	CHECK_MSG(d.final == CH_END && d.n == 3, "%s after %d", ch_status_name(d.final), d.n);
	CHECK_EQ_INT(d.exc.server_code, 60);
	CHECK_EQ_STR(d.exc.server_name, "DB::Exception");
	CHECK_EQ_STR(d.exc.message, "Table x.y does not exist");
	ch_buf_free(&b);
}

TEST(tcp_unknown_packet_and_limits)
{
	decoded		d;
	ch_buf		b;

	/* type 99: nothing after it can be read */
	decode_all((const uint8_t *) "\x63\x05", 2, 54460, false, 0, true, &d);
	CHECK_STATUS(d.final, CH_ERR_PROTOCOL);
	/* a 1 GiB-plus compressed frame size is refused before buffering */
	ch_buf_init(&b, NULL);
	bld_varuint(&b, CH_SP_DATA);
	bld_str(&b, "");
	bld_raw(&b, "0123456789abcdef", 16);
	bld_u8(&b, 0x82);
	bld_u32(&b, 0x7fffffff);
	bld_u32(&b, 10);
	decode_all(b.data, b.len, 54460, true, 0, false, &d);
	CHECK_STATUS(d.final, CH_ERR_MALFORMED);
	ch_buf_free(&b);
	/* a string longer than the limit in a Hello */
	ch_buf_init(&b, NULL);
	bld_varuint(&b, CH_SP_HELLO);
	bld_varuint(&b, UINT64_C(1) << 40);
	decode_all(b.data, b.len, 54460, false, 0, false, &d);
	CHECK(d.final == CH_ERR_LIMIT || d.final == CH_ERR_MALFORMED);
	ch_buf_free(&b);
}

/*
 * A long result fed in small pieces keeps memory bounded: the bytes of
 * packets already decoded are dropped while the decoder sits inside the
 * next block (it used to keep the whole stream).
 */
/*
 * 400 blocks of 1,000 UInt64 fed 3,000 bytes at a time, by copy
 * (ch_tcp_decoder_feed) or received in place (ch_tcp_decoder_space with
 * the transport's 128 KB request, then ch_tcp_decoder_commit): the same
 * packets, memory bounded by a block plus the request either way.
 */
static void
decoder_memory_bounded(bool in_place)
{
	count_alloc ca;
	ch_tcp_decoder *d;
	ch_buf		stream;
	size_t		off = 0;
	uint64_t	rows = 0;
	int			i,
				ends = 0;

	count_alloc_init(&ca, 0);
	ch_buf_init(&stream, NULL);
	for (i = 0; i < 400; i++)
	{
		uint64_t	k;

		bld_varuint(&stream, CH_SP_DATA);
		bld_str(&stream, "");
		bld_raw(&stream, "\x01\x00\x02\xff\xff\xff\xff\x00", 8);
		bld_varuint(&stream, 1);
		bld_varuint(&stream, 1000);
		bld_col(&stream, "n", "UInt64");
		for (k = 0; k < 1000; k++)
			bld_u64(&stream, k);
		bld_varuint(&stream, CH_SP_PROGRESS);
		bld_raw(&stream, "\x01\x08\x00", 3);
	}
	bld_varuint(&stream, CH_SP_END_OF_STREAM);
	d = ch_tcp_decoder_create(&ca.a, NULL);
	REQUIRE(d != NULL);
	ch_tcp_decoder_set(d, 54412, false);
	while (off < stream.len)
	{
		size_t		n = stream.len - off < 3000 ? stream.len - off : 3000;
		ch_tcp_packet p;
		ch_error	err;
		ch_status	st;

		if (in_place)
		{
			uint8_t    *dst;

			REQUIRE_STATUS(ch_tcp_decoder_space(d, 128 * 1024, &dst, &err), CH_OK);
			memcpy(dst, stream.data + off, n);
			ch_tcp_decoder_commit(d, n);
		}
		else
			REQUIRE_STATUS(ch_tcp_decoder_feed(d, stream.data + off, n, &err), CH_OK);
		off += n;
		while ((st = ch_tcp_decoder_next(d, &p, &err)) == CH_OK)
		{
			if (p.type == CH_SP_DATA)
				rows += p.block->nrows;
			ends += p.type == CH_SP_END_OF_STREAM;
		}
		REQUIRE_STATUS(st, CH_NEED_MORE);
	}
	CHECK_EQ_UINT(rows, 400000);
	CHECK_EQ_INT(ends, 1);
	/* 3.2 MB went through; a block is 8 KB */
	CHECK_MSG(ca.peak < 512 * 1024, "peak %zu bytes for a %zu-byte stream", ca.peak, stream.len);
	ch_tcp_decoder_free(d);
	CHECK_EQ_UINT(ca.live, 0);
	ch_buf_free(&stream);
}

TEST(tcp_decoder_memory_bounded)
{
	decoder_memory_bounded(false);
}

TEST(tcp_decoder_receive_in_place)
{
	decoder_memory_bounded(true);
}
