/*-------------------------------------------------------------------------
 * test_malicious.c
 *	  The Native reader on hand-built blocks: hostile counts and lengths,
 *	  allocation bounds, LowCardinality flag bits and index widths, unknown
 *	  and undecodable types, TCP BlockInfo framing, server exceptions, limits,
 *	  and types the goldens of 18.16 cannot show (Map, Nested, wide ints...).
 *
 * test/unit/test_malicious.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>

#include "ch_http.h"

/* ---- helpers ---- */

typedef struct run
{
	ch_native_reader *r;
	ch_status	st;				/* status of the last next() */
	ch_error	err;
	ch_block   *b;
} run;

/* Create a reader, feed everything, optionally finish, call next() once. */
static void
run_start(run *x, const ch_buf *in, bool tcp, const ch_native_limits *lim,
		  const ch_allocator *a, bool finish)
{
	memset(x, 0, sizeof(*x));
	ch_error_clear(&x->err);
	x->r = ch_native_reader_create(a, tcp, lim);
	if (!x->r)
	{
		x->st = CH_ERR_NOMEM;
		return;
	}
	x->st = ch_native_reader_feed(x->r, in->data, in->len, &x->err);
	if (x->st != CH_OK)
		return;
	if (finish)
		ch_native_reader_finish(x->r);
	x->st = ch_native_reader_next(x->r, &x->b, &x->err);
}

static ch_status
run_next(run *x)
{
	ch_error_clear(&x->err);
	x->b = NULL;
	x->st = ch_native_reader_next(x->r, &x->b, &x->err);
	return x->st;
}

static void
run_end(run *x)
{
	ch_native_reader_free(x->r);
	x->r = NULL;
}

/* Decode a complete input (finished); the status of the first next(). */
static ch_status
decode1(const ch_buf *in, bool tcp, run *x)
{
	run_start(x, in, tcp, NULL, NULL, true);
	return x->st;
}

#define BLD_LIT(b, lit) bld_raw((b), (lit), sizeof(lit) - 1)

static void
buf_start(ch_buf *b)
{
	ch_buf_init(b, NULL);
}

/* ---- hostile counts ---- */

TEST(mal_huge_column_count)
{
	ch_buf		in;
	run			x;

	buf_start(&in);
	bld_varuint(&in, (uint64_t) 1 << 40);
	bld_varuint(&in, 1);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_LIMIT);
	CHECK_CONTAINS(x.err.message, "column count");
	CHECK_EQ_INT(x.err.column, -1);
	CHECK_EQ_INT(x.err.offset, 7);	/* after the two varints */
	/* sticky: asking again gives the same error */
	CHECK_STATUS(run_next(&x), CH_ERR_LIMIT);
	CHECK_CONTAINS(x.err.message, "column count");
	run_end(&x);

	/* one above the default limit of 100000 */
	ch_buf_reset(&in);
	bld_varuint(&in, 100001);
	bld_varuint(&in, 1);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_LIMIT);
	run_end(&x);

	/* a custom limit */
	{
		ch_native_limits lim;

		ch_native_limits_default(&lim);
		CHECK_EQ_UINT(lim.max_columns, 100000);
		CHECK_EQ_UINT(lim.max_rows, 1000000000);
		CHECK_EQ_UINT(lim.max_string, (uint64_t) 1 << 30);
		lim.max_columns = 2;
		ch_buf_reset(&in);
		bld_varuint(&in, 3);
		bld_varuint(&in, 1);
		bld_col(&in, "a", "UInt8");
		bld_u8(&in, 1);
		run_start(&x, &in, false, &lim, NULL, true);
		CHECK_STATUS(x.st, CH_ERR_LIMIT);
		run_end(&x);
	}
	ch_buf_free(&in);
}

TEST(mal_huge_row_count)
{
	ch_buf		in;
	run			x;

	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, (uint64_t) 1 << 50);
	bld_col(&in, "s", "String");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_LIMIT);
	CHECK_CONTAINS(x.err.message, "row count");
	run_end(&x);

	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1000000001);
	bld_col(&in, "s", "String");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_LIMIT);
	run_end(&x);

	/* malformed (11-byte) row count */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	BLD_LIT(&in, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_CONTAINS(x.err.message, "row count");
	run_end(&x);

	ch_buf_reset(&in);
	BLD_LIT(&in, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_CONTAINS(x.err.message, "column count");
	run_end(&x);
	ch_buf_free(&in);
}

TEST(mal_string_length_2_40)
{
	ch_buf		in;
	run			x;

	buf_start(&in);
	bld_varuint(&in, 2);
	bld_varuint(&in, 2);
	bld_col(&in, "ok", "UInt8");
	bld_u8(&in, 1);
	bld_u8(&in, 2);
	bld_col(&in, "s", "String");
	bld_str(&in, "fine");
	bld_varuint(&in, (uint64_t) 1 << 40);
	BLD_LIT(&in, "abc");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_LIMIT);
	CHECK_EQ_INT(x.err.column, 1);
	CHECK_EQ_INT(x.err.row, 1);
	CHECK_EQ_STR(x.err.column_name, "s");
	CHECK_CONTAINS(x.err.message, "string length");
	CHECK_CONTAINS(x.err.message, "\"s\"");
	run_end(&x);
	ch_buf_free(&in);
}

TEST(mal_string_limits)
{
	ch_buf		in;
	run			x;
	ch_native_limits lim;

	ch_native_limits_default(&lim);
	lim.max_string = 5;
	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "s", "String");
	bld_str(&in, "12345");
	run_start(&x, &in, false, &lim, NULL, true);
	if (CHECK_STATUS(x.st, CH_OK))
		CHECK_EQ_BYTES(x.b->cols[0].data + x.b->cols[0].str_pos[0], x.b->cols[0].str_len[0], "12345");
	run_end(&x);

	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "s", "String");
	bld_str(&in, "123456");
	run_start(&x, &in, false, &lim, NULL, true);
	CHECK_STATUS(x.st, CH_ERR_LIMIT);
	run_end(&x);

	/* above 4 GiB is refused even when max_string allows it (str_len is 32-bit) */
	lim.max_string = (uint64_t) 1 << 40;
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "s", "String");
	bld_varuint(&in, (uint64_t) 1 << 32);
	run_start(&x, &in, false, &lim, NULL, true);
	CHECK_STATUS(x.st, CH_ERR_LIMIT);
	run_end(&x);

	/* malformed length varint inside the data */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "s", "String");
	BLD_LIT(&in, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_EQ_INT(x.err.row, 0);
	run_end(&x);

	/* a column name longer than 1 MiB */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_varuint(&in, ((uint64_t) 1 << 20) + 1);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_LIMIT);
	CHECK_EQ_INT(x.err.column, 0);
	run_end(&x);
	ch_buf_free(&in);
}

TEST(mal_array_offsets_decreasing)
{
	ch_buf		in;
	run			x;
	size_t		off_at;

	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 3);
	bld_col(&in, "a", "Array(UInt8)");
	off_at = in.len;
	bld_u64(&in, 2);
	bld_u64(&in, 1);
	bld_u64(&in, 3);
	BLD_LIT(&in, "\x01\x02\x03");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_EQ_INT(x.err.column, 0);
	CHECK_EQ_INT(x.err.row, 1);
	CHECK_EQ_INT(x.err.offset, (int64_t) off_at);
	CHECK_CONTAINS(x.err.message, "decrease");
	run_end(&x);

	/* equal offsets (empty arrays) are fine */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 3);
	bld_col(&in, "a", "Array(UInt8)");
	bld_u64(&in, 2);
	bld_u64(&in, 2);
	bld_u64(&in, 3);
	BLD_LIT(&in, "\x01\x02\x03");
	CHECK_STATUS(decode1(&in, false, &x), CH_OK);
	CHECK_STATUS(run_next(&x), CH_END);
	run_end(&x);

	/* an absurd element count is refused before anything else */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "a", "Array(UInt8)");
	bld_u64(&in, (uint64_t) 1 << 62);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_LIMIT);
	CHECK_CONTAINS(x.err.message, "element count");
	run_end(&x);
	ch_buf_free(&in);
}

/* ---- allocation bounds ---- */

typedef struct hostile
{
	const char *what;
	const char *type;
	uint64_t	rows;
	const char *payload;		/* raw bytes after the column header */
	size_t		payload_len;
	int			ncols;			/* 0 = 1 */
} hostile;

/*
 * A block that announces far more than it carries must be answered with
 * CH_NEED_MORE (before finish) and CH_ERR_TRUNCATED or CH_ERR_LIMIT (after)
 * without allocating anything near the announced size.
 */
TEST(mal_announced_sizes_not_allocated)
{
	static const hostile cases[] = {
		{"1e9 rows of String", "String", 1000000000, "\x05hello", 6, 0},
		{"1e9 rows of UInt64", "UInt64", 1000000000, "\x01\x02", 2, 0},
		{"1e9 rows of FixedString(1000)", "FixedString(1000)", 1000000000, "ab", 2, 0},
		{"1e9 rows of Nullable(String)", "Nullable(String)", 1000000000, "\x00\x01", 2, 0},
		{"1e9 rows of Array(String)", "Array(String)", 1000000000, "\x01\x00\x00\x00\x00\x00\x00\x00", 8, 0},
		{"1e9 rows of Map(String, String)", "Map(String, String)", 1000000000, "\x01\x00", 2, 0},
		{"1e9 rows of Tuple(String, UInt8)", "Tuple(String, UInt8)", 1000000000, "\x00", 1, 0},
		{"1e9 rows of Nullable(Nothing)", "Nullable(Nothing)", 1000000000, "\x01\x30", 2, 0},
		{"1e9 rows of Array(Array(UInt8))", "Array(Array(UInt8))", 1000000000, "", 0, 0},
		{"1e9 rows of LowCardinality(String)", "LowCardinality(String)", 1000000000,
		"\x01\0\0\0\0\0\0\0\x00\x06\0\0\0\0\0\0", 16, 0},
		{"LowCardinality dictionary of 1e9", "LowCardinality(String)", 1,
		"\x01\0\0\0\0\0\0\0\x00\x06\0\0\0\0\0\0\x00\xca\x9a\x3b\0\0\0\0", 24, 0},
		{"String of 1e9 bytes", "String", 1, "\x80\x94\xeb\xdc\x03xyz", 8, 0},
		{"Array of 1e10 elements", "Array(String)", 1, "\x00\xe4\x0b\x54\x02\x00\x00\x00", 8, 0},
		{"Array of 1e10 Nothing", "Array(Nullable(Nothing))", 1, "\x00\xe4\x0b\x54\x02\x00\x00\x00", 8, 0},
		{"100000 columns", "UInt8", 1, "\x01", 1, 100000},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const hostile *h = &cases[i];
		count_alloc ca;
		ch_buf		in;
		run			x;
		ch_status	st;

		buf_start(&in);
		bld_varuint(&in, h->ncols ? (uint64_t) h->ncols : 1);
		bld_varuint(&in, h->rows);
		bld_col(&in, "c", h->type);
		bld_raw(&in, h->payload, h->payload_len);

		count_alloc_init(&ca, 1 << 20);
		run_start(&x, &in, false, NULL, &ca.a, false);
		/* a count over the default limits is refused at once, else later */
		CHECK_MSG(x.st == CH_NEED_MORE || x.st == CH_ERR_LIMIT, "%s: before finish %s (%s)",
				  h->what, ch_status_name(x.st), x.err.message);
		ch_native_reader_finish(x.r);
		st = x.st == CH_ERR_LIMIT ? x.st : run_next(&x);
		CHECK_MSG(st == CH_ERR_TRUNCATED || st == CH_ERR_LIMIT, "%s: after finish %s (%s)",
				  h->what, ch_status_name(st), x.err.message);
		run_end(&x);
		CHECK_MSG(ca.largest <= 16 * 1024, "%s: allocated %zu bytes at once", h->what, ca.largest);
		CHECK_MSG(ca.peak <= 64 * 1024, "%s: peak memory %zu bytes", h->what, ca.peak);
		CHECK_MSG(ca.nfailed == 0, "%s: %" PRIu64 " allocations refused", h->what, ca.nfailed);
		CHECK_MSG(ca.live == 0, "%s: %zu bytes leaked", h->what, ca.live);
		ch_buf_free(&in);
	}
}

/* The brief's exact case: 10 bytes announcing 10^9 String rows. */
TEST(mal_1e9_strings_in_10_bytes)
{
	ch_buf		in;
	count_alloc ca;
	run			x;
	ch_status	st;

	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1000000000);	/* 5 bytes */
	bld_str(&in, "s");
	BLD_LIT(&in, "\x06");		/* the type name's length, then 1 byte of it */
	BLD_LIT(&in, "S");
	REQUIRE_EQ_UINT(in.len, 10);
	count_alloc_init(&ca, 1 << 20);
	run_start(&x, &in, false, NULL, &ca.a, false);
	CHECK_STATUS(x.st, CH_NEED_MORE);
	/* the rest of the type name and 3 values (11 bytes): still far from complete */
	ch_buf_reset(&in);
	BLD_LIT(&in, "tring\x01" "a\x00\x02" "bc");
	CHECK_STATUS(ch_native_reader_feed(x.r, in.data, in.len, &x.err), CH_OK);
	CHECK_STATUS(run_next(&x), CH_NEED_MORE);
	ch_native_reader_finish(x.r);
	st = run_next(&x);
	CHECK_MSG(st == CH_ERR_TRUNCATED || st == CH_ERR_LIMIT, "after finish: %s", ch_status_name(st));
	CHECK_STATUS(x.err.code, st);
	CHECK_EQ_INT(x.err.offset, 21);	/* 10 + 11 bytes fed */
	run_end(&x);
	CHECK_MSG(ca.largest <= 16 * 1024, "largest allocation %zu", ca.largest);
	CHECK_EQ_UINT(ca.nfailed, 0);
	CHECK_EQ_UINT(ca.live, 0);
	ch_buf_free(&in);
}

/*
 * BUG (src/codec/ch_native_reader.c, ch_native_reader_next(), the check
 * "if (r->buf.len > r->lim.max_block_bytes)" at line 802 of 094a7cf): the
 * max_block_bytes limit is only looked at after a decode attempt that ran
 * out of bytes, and attempts are skipped while buf.len < retry_at (line
 * 761), where
 * retry_at is at least rd.need -- the size the block announced. So a block
 * that announces more than max_block_bytes is buffered in full and handed
 * out with CH_OK: with max_block_bytes = 1000, a String value of 5000 bytes
 * fed 100 bytes at a time is accepted (and the successful decode never
 * compares the block size with the limit either). The limit should be
 * enforced when the needed size is known (rd.need > max_block_bytes) and on
 * the bytes buffered for the block.
 */
TEST(bug_max_block_bytes_not_enforced)
{
	ch_native_limits lim;
	ch_native_reader *r;
	ch_buf		in;
	ch_error	err;
	ch_block   *b;
	ch_status	st = CH_NEED_MORE;
	size_t		pos;
	char		big[5000];

	ch_native_limits_default(&lim);
	lim.max_block_bytes = 1000;
	memset(big, 'q', sizeof(big));
	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "s", "String");
	bld_varuint(&in, sizeof(big));
	bld_raw(&in, big, sizeof(big));
	r = ch_native_reader_create(NULL, false, &lim);
	REQUIRE(r);
	ch_error_clear(&err);
	for (pos = 0; pos < in.len && st == CH_NEED_MORE; pos += 100)
	{
		size_t		n = in.len - pos < 100 ? in.len - pos : 100;

		CHECK_STATUS(ch_native_reader_feed(r, in.data + pos, n, &err), CH_OK);
		st = ch_native_reader_next(r, &b, &err);
	}
	CHECK_STATUS(st, CH_ERR_LIMIT);
	CHECK_STATUS(err.code, CH_ERR_LIMIT);
	/* the reader never buffered much more than the limit */
	CHECK(ch_native_reader_buffered(r) <= 2 * 1000 + 100);
	ch_native_reader_free(r);
	ch_buf_free(&in);
}

TEST(mal_out_of_memory_everywhere)
{
	uint8_t    *data;
	size_t		len;
	uint64_t	n;
	int			ok = 0,
				nomem = 0;

	if (!golden_read("table", &data, &len))
		return;
	/* fail the n-th allocation: CH_ERR_NOMEM cleanly, or success */
	for (n = 1; n < 60; n++)
	{
		count_alloc ca;
		stream_result *res = calloc(1, sizeof(stream_result));

		count_alloc_init(&ca, 0);
		ca.fail_after = n;
		decode_stream(data, len, FEED_RANDOM, n, false, &ca.a, NULL, res);
		if (res->final == CH_END)
		{
			ok++;
			CHECK_EQ_UINT(res->nblocks, 1);
		}
		else
		{
			nomem++;
			CHECK_MSG(res->final == CH_ERR_NOMEM, "fail_after %" PRIu64 ": %s (%s)", n,
					  ch_status_name(res->final), res->err.message);
		}
		CHECK_MSG(ca.live == 0, "fail_after %" PRIu64 ": %zu bytes leaked", n, ca.live);
		stream_result_free(res);
		free(res);
	}
	CHECK(ok > 0);
	CHECK(nomem > 0);
	free(data);
}

/* ---- LowCardinality ---- */

/* LowCardinality(String) of 3 rows with a 300-entry dictionary. */
static void
build_lc(ch_buf *in, uint64_t flags, const uint64_t *keys, int width)
{
	int			i;

	bld_varuint(in, 1);
	bld_varuint(in, 3);
	bld_col(in, "lc", "LowCardinality(String)");
	bld_u64(in, 1);				/* version */
	bld_u64(in, flags);
	bld_u64(in, 300);
	for (i = 0; i < 300; i++)
	{
		char		s[8];

		snprintf(s, sizeof(s), "v%d", i);
		bld_str(in, i == 0 ? "" : s);
	}
	bld_u64(in, 3);
	for (i = 0; i < 3; i++)
	{
		switch (width)
		{
			case 1:
				bld_u8(in, (uint8_t) keys[i]);
				break;
			case 2:
				bld_u16(in, (uint16_t) keys[i]);
				break;
			case 4:
				bld_u32(in, (uint32_t) keys[i]);
				break;
			default:
				bld_u64(in, keys[i]);
				break;
		}
	}
}

TEST(lc_index_widths)
{
	static const uint64_t keys8[] = {255, 0, 7};
	static const uint64_t keys[] = {299, 0, 256};
	int			code;

	for (code = 0; code <= 3; code++)
	{
		ch_buf		in;
		run			x;
		int			width = 1 << code;
		const uint64_t *k = code == 0 ? keys8 : keys;

		buf_start(&in);
		build_lc(&in, 0x600 | (uint64_t) code, k, width);
		if (CHECK_MSG(decode1(&in, false, &x) == CH_OK, "width code %d: %s", code, x.err.message))
		{
			const ch_column *c = &x.b->cols[0];
			uint32_t	l;
			const uint8_t *p;
			int			i;

			CHECK_EQ_UINT(c->lc_key_width, (unsigned) width);
			CHECK_EQ_UINT(c->lc_dict_rows, 300);
			for (i = 0; i < 3; i++)
				CHECK_EQ_UINT(ch_col_lc_key(c, (uint64_t) i), k[i]);
			p = lc_str_at(c, 0, &l);
			if (code == 0)
				CHECK_EQ_BYTES(p, l, "v255");
			else
				CHECK_EQ_BYTES(p, l, "v299");
			p = lc_str_at(c, 1, &l);
			CHECK_EQ_BYTES(p, l, "");
			CHECK_STATUS(run_next(&x), CH_END);
		}
		run_end(&x);
		ch_buf_free(&in);
	}
}

TEST(lc_key_out_of_dictionary)
{
	static const uint64_t keys[] = {1, 300, 2};
	static const uint64_t high[] = {1, ((uint64_t) 1 << 32) | 1, 2};
	ch_buf		in;
	run			x;

	buf_start(&in);
	build_lc(&in, 0x601, keys, 2);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_EQ_INT(x.err.row, 1);
	CHECK_EQ_INT(x.err.column, 0);
	CHECK_CONTAINS(x.err.message, "outside the dictionary");
	run_end(&x);

	/* the upper bytes of a UInt64 key are not ignored */
	ch_buf_reset(&in);
	build_lc(&in, 0x603, high, 8);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_EQ_INT(x.err.row, 1);
	run_end(&x);
	ch_buf_free(&in);
}

TEST(lc_flag_bits)
{
	static const uint64_t keys[] = {1, 0, 2};
	static const struct
	{
		uint64_t	flags;
		ch_status	want;
	}			cases[] = {
		{0x600, CH_OK},			/* what servers send */
		{0x400, CH_OK},			/* NeedUpdateDictionary without HasAdditionalKeys */
		{0x700, CH_ERR_UNSUPPORTED},	/* NeedGlobalDictionary */
		{0x100, CH_ERR_UNSUPPORTED},
		{0x200, CH_ERR_UNSUPPORTED},	/* no dictionary update */
		{0x000, CH_ERR_UNSUPPORTED},
		{0x604, CH_ERR_MALFORMED},	/* index width code 4 */
		{0x6ff, CH_ERR_MALFORMED},
		{0xe00, CH_ERR_MALFORMED},	/* unknown bit 11 */
		{0x600 | ((uint64_t) 1 << 40), CH_ERR_MALFORMED},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		ch_buf		in;
		run			x;
		ch_status	st;

		buf_start(&in);
		build_lc(&in, cases[i].flags, keys, 1);
		st = decode1(&in, false, &x);
		CHECK_MSG(st == cases[i].want, "flags 0x%" PRIx64 ": %s, expected %s (%s)",
				  cases[i].flags, ch_status_name(st), ch_status_name(cases[i].want), x.err.message);
		if (st == CH_OK)
		{
			uint32_t	l;
			const uint8_t *p = lc_str_at(&x.b->cols[0], 2, &l);

			CHECK_EQ_BYTES(p, l, "v2");
		}
		else
			CHECK_MSG(x.err.column == 0 && x.err.message[0], "flags 0x%" PRIx64 ": error position",
					  cases[i].flags);
		run_end(&x);
		ch_buf_free(&in);
	}
}

TEST(lc_malformed_parts)
{
	ch_buf		in;
	run			x;

	/* unknown serialization version */
	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "lc", "LowCardinality(String)");
	bld_u64(&in, 2);
	bld_u64(&in, 0x600);
	bld_u64(&in, 1);
	bld_str(&in, "");
	bld_u64(&in, 1);
	bld_u8(&in, 0);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_CONTAINS(x.err.message, "version");
	run_end(&x);

	/* key count differs from the row count */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 2);
	bld_col(&in, "lc", "LowCardinality(String)");
	bld_u64(&in, 1);
	bld_u64(&in, 0x600);
	bld_u64(&in, 1);
	bld_str(&in, "");
	bld_u64(&in, 3);
	BLD_LIT(&in, "\0\0\0");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_CONTAINS(x.err.message, "key count");
	run_end(&x);

	/* dictionary larger than max_lc_dict */
	{
		ch_native_limits lim;

		ch_native_limits_default(&lim);
		lim.max_lc_dict = 2;
		ch_buf_reset(&in);
		bld_varuint(&in, 1);
		bld_varuint(&in, 1);
		bld_col(&in, "lc", "LowCardinality(String)");
		bld_u64(&in, 1);
		bld_u64(&in, 0x600);
		bld_u64(&in, 3);
		BLD_LIT(&in, "\x00\x01" "a\x01" "b");
		bld_u64(&in, 1);
		bld_u8(&in, 2);
		run_start(&x, &in, false, &lim, NULL, true);
		CHECK_STATUS(x.st, CH_ERR_LIMIT);
		run_end(&x);
	}

	/* LowCardinality(Nullable(String)): key 0 is NULL */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 3);
	bld_col(&in, "lc", "LowCardinality(Nullable(String))");
	bld_u64(&in, 1);
	bld_u64(&in, 0x600);
	bld_u64(&in, 3);
	BLD_LIT(&in, "\x00\x00\x01z");
	bld_u64(&in, 3);
	BLD_LIT(&in, "\x02\x00\x01");
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		const ch_column *c = &x.b->cols[0];
		uint32_t	l;
		const uint8_t *p;

		CHECK(c->lc_nullable);
		p = lc_str_at(c, 0, &l);
		CHECK_EQ_BYTES(p, l, "z");
		CHECK(lc_str_at(c, 1, &l) == NULL);
		p = lc_str_at(c, 2, &l);
		CHECK_EQ_BYTES(p, l, "");
	}
	run_end(&x);
	ch_buf_free(&in);
}

/* Prefix phase: versions of nested LowCardinality come before all streams. */
TEST(lc_nested_prefix_phase)
{
	ch_buf		in;
	run			x;

	/* Array(LowCardinality(String)) whose rows are all empty: version only */
	buf_start(&in);
	bld_varuint(&in, 2);
	bld_varuint(&in, 2);
	bld_col(&in, "a", "Array(LowCardinality(String))");
	bld_u64(&in, 1);			/* version (prefix phase) */
	bld_u64(&in, 0);
	bld_u64(&in, 0);			/* offsets: no elements, so no data part */
	bld_col(&in, "b", "UInt8");
	BLD_LIT(&in, "\x07\x08");
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		CHECK_EQ_UINT(x.b->cols[0].children[0].nrows, 0);
		CHECK_EQ_UINT(col_u64(&x.b->cols[1], 1), 8);
		CHECK_STATUS(run_next(&x), CH_END);
	}
	run_end(&x);

	/* Tuple(LowCardinality(String), LowCardinality(String)): two versions first */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "t", "Tuple(a LowCardinality(String), b LowCardinality(String))");
	bld_u64(&in, 1);
	bld_u64(&in, 1);
	bld_u64(&in, 0x600);
	bld_u64(&in, 2);
	BLD_LIT(&in, "\x00\x01p");
	bld_u64(&in, 1);
	bld_u8(&in, 1);
	bld_u64(&in, 0x600);
	bld_u64(&in, 2);
	BLD_LIT(&in, "\x00\x01q");
	bld_u64(&in, 1);
	bld_u8(&in, 1);
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		const ch_column *t = &x.b->cols[0];
		uint32_t	l;
		const uint8_t *p;

		REQUIRE(t->nchildren == 2);
		p = lc_str_at(&t->children[0], 0, &l);
		CHECK_EQ_BYTES(p, l, "p");
		p = lc_str_at(&t->children[1], 0, &l);
		CHECK_EQ_BYTES(p, l, "q");
		CHECK_STATUS(run_next(&x), CH_END);
	}
	run_end(&x);

	/* Map(LowCardinality(String), UInt8) */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "m", "Map(LowCardinality(String), UInt8)");
	bld_u64(&in, 1);			/* key version */
	bld_u64(&in, 2);			/* offsets */
	bld_u64(&in, 0x600);
	bld_u64(&in, 3);
	BLD_LIT(&in, "\x00\x01k\x01l");
	bld_u64(&in, 2);
	BLD_LIT(&in, "\x02\x01");
	BLD_LIT(&in, "\x05\x06");
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		const ch_column *m = &x.b->cols[0];
		uint32_t	l;
		const uint8_t *p;

		REQUIRE(m->nchildren == 2);
		p = lc_str_at(&m->children[0], 0, &l);
		CHECK_EQ_BYTES(p, l, "l");
		CHECK_EQ_UINT(col_u64(&m->children[1], 1), 6);
		CHECK_STATUS(run_next(&x), CH_END);
	}
	run_end(&x);
	ch_buf_free(&in);
}

/* ---- types ---- */

TEST(mal_unknown_type_name)
{
	ch_buf		in;
	run			x;

	buf_start(&in);
	bld_varuint(&in, 2);
	bld_varuint(&in, 1);
	bld_col(&in, "a", "UInt8");
	bld_u8(&in, 1);
	bld_col(&in, "weird", "Foo(1)");
	bld_u8(&in, 1);
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_UNKNOWN_TYPE);
	CHECK_STATUS(x.err.code, CH_ERR_UNKNOWN_TYPE);
	CHECK_EQ_INT(x.err.column, 1);
	CHECK_EQ_STR(x.err.column_name, "weird");
	CHECK_CONTAINS(x.err.message, "Foo");
	CHECK_CONTAINS(x.err.message, "weird");
	run_end(&x);

	/* malformed type text */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "x", "Array(UInt8");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_MALFORMED);
	CHECK_EQ_INT(x.err.column, 0);
	run_end(&x);

	/* a type nested too deep */
	{
		char		t[400];
		size_t		k = 0;
		int			i;

		for (i = 0; i < CH_TYPE_MAX_DEPTH + 5; i++)
			k += (size_t) snprintf(t + k, sizeof(t) - k, "Array(");
		k += (size_t) snprintf(t + k, sizeof(t) - k, "UInt8");
		for (i = 0; i < CH_TYPE_MAX_DEPTH + 5; i++)
			t[k++] = ')';
		t[k] = '\0';
		ch_buf_reset(&in);
		bld_varuint(&in, 1);
		bld_varuint(&in, 1);
		bld_col(&in, "deep", t);
		CHECK_MSG(decode1(&in, false, &x) != CH_OK && x.err.column == 0,
				  "too deep: %s", ch_status_name(x.st));
		run_end(&x);
	}
	ch_buf_free(&in);
}

TEST(mal_undecodable_types)
{
	static const char *const types[] = {
		"AggregateFunction(sum, UInt64)", "JSON", "Variant(String, UInt64)", "Dynamic",
		"Object('json')", "Array(Dynamic)", "Tuple(UInt8, JSON)",
	};
	size_t		i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
	{
		ch_buf		in;
		run			x;

		/* with rows: unsupported, clearly */
		buf_start(&in);
		bld_varuint(&in, 1);
		bld_varuint(&in, 1);
		bld_col(&in, "c", types[i]);
		BLD_LIT(&in, "\x01\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0");
		CHECK_MSG(decode1(&in, false, &x) == CH_ERR_UNSUPPORTED, "%s: %s", types[i],
				  ch_status_name(x.st));
		CHECK_EQ_INT(x.err.column, 0);
		run_end(&x);

		/* a header block (no rows) is fine: the type is only named */
		ch_buf_reset(&in);
		bld_varuint(&in, 1);
		bld_varuint(&in, 0);
		bld_col(&in, "c", types[i]);
		if (CHECK_MSG(decode1(&in, false, &x) == CH_OK, "%s header: %s", types[i], x.err.message))
			CHECK_EQ_UINT(x.b->nrows, 0);
		run_end(&x);
		ch_buf_free(&in);
	}
}

/* Fixed-width types 18.16 cannot produce: the right width is consumed. */
TEST(fixed_width_types_decode)
{
	static const struct
	{
		const char *type;
		uint32_t	width;
	}			cases[] = {
		{"Int128", 16}, {"UInt128", 16}, {"Int256", 32}, {"UInt256", 32},
		{"BFloat16", 2}, {"Bool", 1}, {"Date32", 4}, {"DateTime64(3, 'UTC')", 8},
		{"IPv4", 4}, {"IPv6", 16}, {"Time", 4}, {"Time64(6)", 8}, {"IntervalSecond", 8},
		{"Decimal(76, 10)", 32}, {"Decimal256(3)", 32}, {"Enum16('a' = 1)", 2},
		{"SimpleAggregateFunction(sum, UInt64)", 8}, {"FixedString(5)", 5},
		{"Nothing", 1},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		ch_buf		in;
		run			x;
		uint8_t		pat[64];
		size_t		j;

		for (j = 0; j < sizeof(pat); j++)
			pat[j] = (uint8_t) (j * 13 + i);
		buf_start(&in);
		bld_varuint(&in, 2);
		bld_varuint(&in, 2);
		bld_col(&in, "v", cases[i].type);
		bld_raw(&in, pat, 2 * cases[i].width);
		bld_col(&in, "after", "UInt8");
		BLD_LIT(&in, "\x2a\x2b");
		if (CHECK_MSG(decode1(&in, false, &x) == CH_OK, "%s: %s", cases[i].type, x.err.message))
		{
			const ch_column *c = &x.b->cols[0];

			CHECK_MSG(c->type->width == cases[i].width, "%s: width %u", cases[i].type, c->type->width);
			CHECK_EQ_MEM(ch_col_fixed(c, 1), cases[i].width, pat + cases[i].width, cases[i].width);
			CHECK_EQ_UINT(col_u64(&x.b->cols[1], 1), 0x2b);
			CHECK_STATUS(run_next(&x), CH_END);
		}
		run_end(&x);
		ch_buf_free(&in);
	}
}

TEST(map_nested_tuple_decode)
{
	ch_buf		in;
	run			x;

	/* Map(String, UInt8): {'a':1,'b':2}, {} ; keys and values are separate streams */
	buf_start(&in);
	bld_varuint(&in, 3);
	bld_varuint(&in, 2);
	bld_col(&in, "m", "Map(String, UInt8)");
	bld_u64(&in, 2);
	bld_u64(&in, 2);
	BLD_LIT(&in, "\x01" "a\x01" "b");
	BLD_LIT(&in, "\x01\x02");
	/* Nested(x UInt8, y String) (flatten_nested = 0): [(1,'p')], [] */
	bld_col(&in, "n", "Nested(x UInt8, y String)");
	bld_u64(&in, 1);
	bld_u64(&in, 1);
	bld_u8(&in, 1);
	bld_str(&in, "p");
	/* named Tuple */
	bld_col(&in, "t", "Tuple(a Int16, `b c` Nullable(String))");
	BLD_LIT(&in, "\xfe\xff\x05\x00");
	BLD_LIT(&in, "\x00\x01");
	BLD_LIT(&in, "\x02hi\x00");
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		const ch_column *m = &x.b->cols[0];
		const ch_column *n = &x.b->cols[1];
		const ch_column *t = &x.b->cols[2];
		uint64_t	s,
					e;

		REQUIRE(m->nchildren == 2 && n->nchildren == 2 && t->nchildren == 2);
		ch_col_array_range(m, 0, &s, &e);
		CHECK(s == 0 && e == 2);
		ch_col_array_range(m, 1, &s, &e);
		CHECK(s == 2 && e == 2);
		CHECK(col_str_eq(&m->children[0], 1, "b", 1));
		CHECK_EQ_UINT(col_u64(&m->children[1], 1), 2);
		CHECK_EQ_UINT(n->children[0].nrows, 1);
		CHECK_EQ_UINT(col_u64(&n->children[0], 0), 1);
		CHECK(col_str_eq(&n->children[1], 0, "p", 1));
		CHECK_EQ_INT(col_i64(&t->children[0], 0), -2);
		CHECK_EQ_INT(col_i64(&t->children[0], 1), 5);
		CHECK(!ch_col_is_null(&t->children[1], 0));
		CHECK(ch_col_is_null(&t->children[1], 1));
		CHECK(col_str_eq(&t->children[1].children[0], 0, "hi", 2));
		CHECK_EQ_STR(t->type->names[1], "b c");
		CHECK_STATUS(run_next(&x), CH_END);
	}
	run_end(&x);
	ch_buf_free(&in);
}

TEST(deep_array_decode)
{
	ch_buf		in;
	run			x;
	char		t[400];
	size_t		k = 0;
	int			i,
				levels = CH_TYPE_MAX_DEPTH - 1;	/* arrays around UInt8: 32 nodes */

	for (i = 0; i < levels; i++)
		k += (size_t) snprintf(t + k, sizeof(t) - k, "Array(");
	k += (size_t) snprintf(t + k, sizeof(t) - k, "UInt8");
	for (i = 0; i < levels; i++)
		t[k++] = ')';
	t[k] = '\0';
	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "d", t);
	for (i = 0; i < levels; i++)
		bld_u64(&in, 1);
	bld_u8(&in, 99);
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		const ch_column *c = &x.b->cols[0];

		for (i = 0; i < levels && c; i++)
			c = c->nchildren == 1 ? &c->children[0] : NULL;
		REQUIRE(c != NULL);
		CHECK_EQ_UINT(c->nrows, 1);
		CHECK_EQ_UINT(col_u64(c, 0), 99);
		CHECK_STATUS(run_next(&x), CH_END);
	}
	run_end(&x);
	ch_buf_free(&in);
}

/* ---- blocks and framing ---- */

TEST(empty_and_header_blocks)
{
	ch_buf		in;
	run			x;

	/* 0 columns, 0 rows; 0 columns, 5 rows; header block with 2 columns */
	buf_start(&in);
	BLD_LIT(&in, "\x00\x00");
	BLD_LIT(&in, "\x00\x05");
	bld_varuint(&in, 2);
	bld_varuint(&in, 0);
	bld_col(&in, "a", "LowCardinality(Nullable(String))");
	bld_col(&in, "b", "Array(Tuple(UInt8, String))");
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		CHECK_EQ_UINT(x.b->ncols, 0);
		CHECK_EQ_UINT(x.b->nrows, 0);
	}
	if (CHECK_STATUS(run_next(&x), CH_OK))
	{
		CHECK_EQ_UINT(x.b->ncols, 0);
		CHECK_EQ_UINT(x.b->nrows, 5);
	}
	if (CHECK_STATUS(run_next(&x), CH_OK))
	{
		CHECK_EQ_UINT(x.b->ncols, 2);
		CHECK_EQ_UINT(x.b->nrows, 0);
		CHECK_EQ_UINT(x.b->index, 2);
		CHECK_EQ_INT(x.b->cols[0].type->kind, CH_T_LOWCARDINALITY);
		CHECK_EQ_INT(x.b->cols[1].type->kind, CH_T_ARRAY);
	}
	CHECK_STATUS(run_next(&x), CH_END);
	run_end(&x);
	ch_buf_free(&in);
}

TEST(tcp_block_info)
{
	ch_buf		in;
	run			x;

	/* what 18.16 sends: 01 00 02 ff ff ff ff 00 before each block */
	buf_start(&in);
	BLD_LIT(&in, "\x01\x00\x02\xff\xff\xff\xff\x00");
	bld_varuint(&in, 1);
	bld_varuint(&in, 2);
	bld_col(&in, "x", "UInt8");
	BLD_LIT(&in, "\x2a\x2b");
	/* the empty block that ends a TCP result */
	BLD_LIT(&in, "\x01\x00\x02\xff\xff\xff\xff\x00\x00\x00");
	if (CHECK_STATUS(decode1(&in, true, &x), CH_OK))
	{
		CHECK_EQ_UINT(x.b->ncols, 1);
		CHECK_EQ_UINT(x.b->nrows, 2);
		CHECK_EQ_UINT(col_u64(&x.b->cols[0], 1), 0x2b);
	}
	if (CHECK_STATUS(run_next(&x), CH_OK))
	{
		CHECK_EQ_UINT(x.b->ncols, 0);
		CHECK_EQ_UINT(x.b->nrows, 0);
	}
	CHECK_STATUS(run_next(&x), CH_END);
	run_end(&x);

	/* field 3 (out_of_order_buckets, rev >= 54480): count + Int32s, skipped */
	ch_buf_reset(&in);
	BLD_LIT(&in, "\x01\x01\x02\x05\x00\x00\x00\x03\x02\x01\x00\x00\x00\x02\x00\x00\x00\x00");
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "x", "UInt8");
	bld_u8(&in, 9);
	if (CHECK_STATUS(decode1(&in, true, &x), CH_OK))
		CHECK_EQ_UINT(col_u64(&x.b->cols[0], 0), 9);
	CHECK_STATUS(run_next(&x), CH_END);
	run_end(&x);

	/* BlockInfo terminator only */
	ch_buf_reset(&in);
	BLD_LIT(&in, "\x00\x01\x01\x01x\x05UInt8\x07");
	if (CHECK_STATUS(decode1(&in, true, &x), CH_OK))
		CHECK_EQ_UINT(col_u64(&x.b->cols[0], 0), 7);
	run_end(&x);

	/* unknown field number */
	ch_buf_reset(&in);
	BLD_LIT(&in, "\x01\x00\x07\x00\x00\x00");
	CHECK_STATUS(decode1(&in, true, &x), CH_ERR_MALFORMED);
	CHECK_CONTAINS(x.err.message, "BlockInfo");
	run_end(&x);

	/* malformed field number varint */
	ch_buf_reset(&in);
	BLD_LIT(&in, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
	CHECK_STATUS(decode1(&in, true, &x), CH_ERR_MALFORMED);
	run_end(&x);

	/* absurd bucket count */
	ch_buf_reset(&in);
	BLD_LIT(&in, "\x03");
	bld_varuint(&in, (uint64_t) 1 << 62);
	CHECK_STATUS(decode1(&in, true, &x), CH_ERR_LIMIT);
	run_end(&x);

	/* bucket count larger than the input: truncated, nothing allocated */
	{
		count_alloc ca;

		count_alloc_init(&ca, 1 << 20);
		ch_buf_reset(&in);
		BLD_LIT(&in, "\x03");
		bld_varuint(&in, 1000000000);
		BLD_LIT(&in, "\x01\x00\x00\x00");
		run_start(&x, &in, true, NULL, &ca.a, false);
		CHECK_STATUS(x.st, CH_NEED_MORE);
		ch_native_reader_finish(x.r);
		CHECK_STATUS(run_next(&x), CH_ERR_TRUNCATED);
		run_end(&x);
		CHECK(ca.largest <= 16 * 1024);
	}

	/* truncated inside the BlockInfo */
	ch_buf_reset(&in);
	BLD_LIT(&in, "\x01\x00\x02\xff\xff");
	CHECK_STATUS(decode1(&in, true, &x), CH_ERR_TRUNCATED);
	CHECK_EQ_INT(x.err.offset, 5);
	run_end(&x);
	ch_buf_free(&in);
}

/* The type cache follows a column whose type changes between blocks. */
TEST(type_changes_between_blocks)
{
	ch_buf		in;
	run			x;

	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "x", "UInt8");
	bld_u8(&in, 5);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "x", "String");
	bld_str(&in, "hi");
	bld_varuint(&in, 2);
	bld_varuint(&in, 1);
	bld_col(&in, "x", "String");
	bld_str(&in, "again");
	bld_col(&in, "y", "Int16");
	bld_u16(&in, 0xfffe);
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
		CHECK_EQ_UINT(col_u64(&x.b->cols[0], 0), 5);
	if (CHECK_STATUS(run_next(&x), CH_OK))
	{
		CHECK_EQ_INT(x.b->cols[0].type->kind, CH_T_STRING);
		CHECK(col_str_eq(&x.b->cols[0], 0, "hi", 2));
	}
	if (CHECK_STATUS(run_next(&x), CH_OK))
	{
		CHECK(col_str_eq(&x.b->cols[0], 0, "again", 5));
		CHECK_EQ_INT(col_i64(&x.b->cols[1], 0), -2);
	}
	CHECK_STATUS(run_next(&x), CH_END);
	run_end(&x);
	ch_buf_free(&in);
}

/*
 * Many blocks whose types differ each time: the parsed-type arena passes
 * its reset threshold (4 MiB) and the cache must start over without
 * touching freed types.
 */
TEST(type_cache_reset_many_blocks)
{
	ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
	int			blk;
	bool		ok = true;

	REQUIRE(r);
	for (blk = 0; blk < 120 && ok; blk++)
	{
		ch_buf		in;
		ch_block   *b;
		ch_error	err;
		char	   *type = malloc(12000);
		size_t		k = 0;
		int			i;
		const int	nel = 1000;

		k += (size_t) snprintf(type + k, 12000 - k, "Tuple(");
		for (i = 0; i < nel; i++)
			k += (size_t) snprintf(type + k, 12000 - k, "%s%s", i ? ", " : "",
								   (i + blk) % 3 == 0 ? "UInt8" : (i + blk) % 3 == 1 ? "Int8" : "Bool");
		snprintf(type + k, 12000 - k, ")");
		buf_start(&in);
		bld_varuint(&in, 1);
		bld_varuint(&in, 1);
		bld_col(&in, "t", type);
		for (i = 0; i < nel; i++)
			bld_u8(&in, (uint8_t) (i + blk));
		ok &= CHECK_STATUS(ch_native_reader_feed(r, in.data, in.len, &err), CH_OK);
		ok &= CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_OK);
		if (ok)
		{
			ok &= CHECK_EQ_INT(b->cols[0].nchildren, nel);
			ok &= CHECK_EQ_INT(b->cols[0].type->children[nel - 1]->kind,
							   (nel - 1 + blk) % 3 == 0 ? CH_T_UINT8 :
							   (nel - 1 + blk) % 3 == 1 ? CH_T_INT8 : CH_T_BOOL);
			ok &= CHECK_EQ_UINT(col_u64(&b->cols[0].children[nel - 1], 0), (uint8_t) (nel - 1 + blk));
		}
		ch_buf_free(&in);
		free(type);
	}
	ch_native_reader_free(r);
}

/* ---- server exceptions in the stream ---- */

static void
one_block(ch_buf *in)
{
	bld_varuint(in, 1);
	bld_varuint(in, 1);
	bld_col(in, "x", "UInt8");
	bld_u8(in, 3);
}

TEST(exception_after_block_variants)
{
	ch_buf		in;
	run			x;

	/* with a leading newline (other server versions) */
	buf_start(&in);
	one_block(&in);
	BLD_LIT(&in, "\nCode: 60, e.displayText() = DB::Exception: Table default.t doesn't exist.\n");
	CHECK_STATUS(decode1(&in, false, &x), CH_OK);
	CHECK_STATUS(run_next(&x), CH_ERR_SERVER);
	CHECK_EQ_INT(x.err.server_code, 60);
	CHECK_EQ_STR(x.err.message, "Code: 60, e.displayText() = DB::Exception: Table default.t doesn't exist.");
	run_end(&x);

	/* modern text, at the very start */
	ch_buf_reset(&in);
	BLD_LIT(&in, "Code: 241. DB::Exception: Memory limit (total) exceeded. (MEMORY_LIMIT_EXCEEDED) (version 24.8.1.1)\r\n");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_SERVER);
	CHECK_EQ_INT(x.err.server_code, 241);
	CHECK_CONTAINS(x.err.message, "(version 24.8.1.1)");
	run_end(&x);

	/* before finish the reader waits for the whole text */
	ch_buf_reset(&in);
	one_block(&in);
	BLD_LIT(&in, "Code: 395, e.displ");
	run_start(&x, &in, false, NULL, NULL, false);
	CHECK_STATUS(x.st, CH_OK);
	CHECK_STATUS(run_next(&x), CH_NEED_MORE);
	CHECK_STATUS(ch_native_reader_feed(x.r, "ayText() = ...", 14, &x.err), CH_OK);
	CHECK_STATUS(run_next(&x), CH_NEED_MORE);
	ch_native_reader_finish(x.r);
	CHECK_STATUS(run_next(&x), CH_ERR_SERVER);
	CHECK_EQ_INT(x.err.server_code, 395);
	CHECK_EQ_STR(x.err.message, "Code: 395, e.displayText() = ...");
	run_end(&x);

	/* the text right after a partial block (error while writing a block) */
	ch_buf_reset(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 1);
	bld_col(&in, "x", "String");
	bld_varuint(&in, 500);
	BLD_LIT(&in, "abc");
	BLD_LIT(&in, "Code: 32, e.displayText() = DB::Exception: Attempt to read after eof, e.what() = DB::Exception\n");
	/*
	 * ch_native.h promises recognition at block boundaries only; the reader
	 * also scans the tail of a partial block. Either answer is acceptable,
	 * but it must be the right one of its kind.
	 */
	if (decode1(&in, false, &x) == CH_ERR_SERVER)
	{
		CHECK_EQ_INT(x.err.server_code, 32);
		CHECK_CONTAINS(x.err.message, "Attempt to read after eof");
	}
	else
	{
		CHECK_STATUS(x.st, CH_ERR_TRUNCATED);
		CHECK_EQ_INT(x.err.offset, (int64_t) in.len);
	}
	run_end(&x);

	/* a 67-column block starts with 'C' (0x43) but is not an exception */
	ch_buf_reset(&in);
	{
		int			i;

		bld_varuint(&in, 67);
		bld_varuint(&in, 1);
		for (i = 0; i < 67; i++)
		{
			char		nm[16];

			snprintf(nm, sizeof(nm), "c%d", i);
			bld_col(&in, nm, "UInt8");
			bld_u8(&in, (uint8_t) i);
		}
	}
	CHECK_EQ_UINT(in.data[0], 'C');
	if (CHECK_STATUS(decode1(&in, false, &x), CH_OK))
	{
		CHECK_EQ_UINT(x.b->ncols, 67);
		CHECK_EQ_UINT(col_u64(&x.b->cols[66], 0), 66);
	}
	CHECK_STATUS(run_next(&x), CH_END);
	run_end(&x);

	/* ... also when it arrives in pieces and before finish */
	{
		stream_result *res = calloc(1, sizeof(stream_result));

		decode_stream(in.data, in.len, FEED_BYTES, 0, false, NULL, NULL, res);
		CHECK_STATUS(res->final, CH_END);
		CHECK_EQ_UINT(res->nblocks, 1);
		stream_result_free(res);
		free(res);
	}
	ch_buf_free(&in);
}

/*
 * BUG (src/codec/ch_native_reader.c, server_exception(), line 696 of
 * 094a7cf: "for (i = 6; i < n && p[i] >= '0' && p[i] <= '9'; i++) code =
 * code * 10 + (p[i] - '0');"): the exception code is accumulated in an int with no
 * bound, so a stream with "Code: 2147483648, ..." where a block should
 * start (or such text in the last 64 KiB of a truncated block, see the
 * tail scan in ch_native_reader_next) overflows a signed int: undefined
 * behaviour (UBSan aborts the unit-asan run; the plain build reports a
 * negative server_code). ch_parse_exception_code() in ch_http.c bounds its
 * loop; the reader should do the same (or call it).
 */
TEST(bug_reader_exception_code_overflow)
{
	static const char text[] = "Code: 2147483648, e.displayText() = DB::Exception: x\n";
	ch_buf		in;
	run			x;

	buf_start(&in);
	one_block(&in);
	bld_raw(&in, text, sizeof(text) - 1);
	CHECK_STATUS(decode1(&in, false, &x), CH_OK);
	CHECK_STATUS(run_next(&x), CH_ERR_SERVER);
	CHECK_MSG(x.err.server_code >= 0 && x.err.server_code <= 999999999,
			  "server_code %d for \"Code: 2147483648\"", x.err.server_code);
	CHECK_CONTAINS(x.err.message, "Code: 2147483648");
	run_end(&x);
	ch_buf_free(&in);
}

/*
 * BUG (src/codec/ch_native_reader.c, ch_native_reader_next(), the tail scan
 * after "a server exception may also end a partial block", condition at
 * line 791 of 094a7cf): when the input
 * ends inside a block, the last 64 KiB are searched for "Code: " followed
 * by a digit ANYWHERE, because the condition
 * "(i == 0 || r->buf.data[i - 1] == '\n' || i + 7 <= r->buf.len)" is true
 * for nearly every position. So a connection that drops in the middle of
 * a block whose String data contains e.g. "Code: 42" is reported as
 * CH_ERR_SERVER with server_code 42 and a message cut out of the row data,
 * instead of CH_ERR_TRUNCATED. The text would at least have to be the whole
 * rest of the input and start at a position where no value can be (the
 * test below has it inside a length-prefixed string that claims 200 bytes).
 */
TEST(bug_truncated_block_with_code_text_in_data)
{
	ch_buf		in;
	run			x;

	buf_start(&in);
	bld_varuint(&in, 1);
	bld_varuint(&in, 2);
	bld_col(&in, "log", "String");
	bld_varuint(&in, 200);		/* 200 bytes announced, 43 present */
	BLD_LIT(&in, "job failed: Code: 42, retrying in 5 seconds");
	CHECK_STATUS(decode1(&in, false, &x), CH_ERR_TRUNCATED);
	CHECK_EQ_INT(x.err.server_code, 0);
	run_end(&x);
	ch_buf_free(&in);
}

TEST(reader_misc_api)
{
	ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
	ch_block   *b = (ch_block *) 1;
	ch_error	err;
	ch_buf		in;

	REQUIRE(r);
	CHECK_EQ_UINT(ch_native_reader_buffered(r), 0);
	CHECK_EQ_UINT(ch_native_reader_total(r), 0);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_NEED_MORE);
	CHECK(b == NULL);
	buf_start(&in);
	one_block(&in);
	one_block(&in);
	CHECK_STATUS(ch_native_reader_feed(r, in.data, 3, &err), CH_OK);
	CHECK_STATUS(ch_native_reader_feed(r, NULL, 0, &err), CH_OK);
	CHECK_STATUS(ch_native_reader_feed(r, in.data + 3, in.len - 3, &err), CH_OK);
	CHECK_EQ_UINT(ch_native_reader_total(r), in.len);
	CHECK_EQ_UINT(ch_native_reader_buffered(r), in.len);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_OK);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_OK);
	CHECK_EQ_UINT(b->index, 1);
	/* the first block's bytes were released when the second was asked for */
	CHECK_EQ_UINT(ch_native_reader_buffered(r), in.len / 2);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_NEED_MORE);
	CHECK_EQ_UINT(ch_native_reader_buffered(r), 0);
	ch_native_reader_finish(r);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_END);
	ch_native_reader_free(r);
	ch_native_reader_free(NULL);

	/* creation under memory pressure fails cleanly */
	{
		count_alloc ca;

		count_alloc_init(&ca, 16);
		CHECK(ch_native_reader_create(&ca.a, false, NULL) == NULL);
		CHECK_EQ_UINT(ca.live, 0);
	}
	ch_buf_free(&in);
}
