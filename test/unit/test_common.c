/*-------------------------------------------------------------------------
 * test_common.c
 *	  ch_common: status names, ch_error, varints, ch_rd, ch_buf, arena.
 *
 * test/unit/test_common.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>

TEST(status_names)
{
	CHECK_EQ_STR(ch_status_name(CH_OK), "CH_OK");
	CHECK_EQ_STR(ch_status_name(CH_ERR_TRUNCATED), "CH_ERR_TRUNCATED");
	CHECK_EQ_STR(ch_status_name(CH_ERR_INTERNAL), "CH_ERR_INTERNAL");
	CHECK_EQ_STR(ch_status_text(CH_ERR_TRUNCATED), "truncated input");
	CHECK_EQ_STR(ch_status_name(CH_STATUS_COUNT_), "CH_STATUS_INVALID");
	CHECK_EQ_STR(ch_status_name((ch_status) -1), "CH_STATUS_INVALID");
	CHECK_EQ_STR(ch_status_text((ch_status) 1000), "invalid status");
}

TEST(error_set_and_clear)
{
	ch_error	e;
	char		big[3000];

	memset(&e, 0x5a, sizeof(e));
	ch_error_clear(&e);
	CHECK_STATUS(e.code, CH_OK);
	CHECK_EQ_INT(e.server_code, 0);
	CHECK_EQ_INT(e.http_status, 0);
	CHECK_EQ_INT(e.offset, -1);
	CHECK_EQ_INT(e.column, -1);
	CHECK_EQ_INT(e.row, -1);
	CHECK_EQ_STR(e.column_name, "");
	CHECK_EQ_STR(e.message, "");

	CHECK_STATUS(ch_error_set(&e, CH_ERR_MALFORMED, "bad %s at %d", "thing", 42),
				 CH_ERR_MALFORMED);
	CHECK_STATUS(e.code, CH_ERR_MALFORMED);
	CHECK_EQ_STR(e.message, "bad thing at 42");

	/* NULL err is allowed and still returns the code */
	CHECK_STATUS(ch_error_set(NULL, CH_ERR_LIMIT, "x"), CH_ERR_LIMIT);
	ch_error_clear(NULL);

	/* long messages are truncated, NUL-terminated */
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ch_error_set(&e, CH_ERR_NOMEM, "%s", big);
	CHECK_EQ_UINT(strlen(e.message), CH_ERROR_MESSAGE_MAX - 1);
}

/* Expected VarUInt encodings (clickhouse-wire.md section 0). */
TEST(varuint_encode_known_values)
{
	static const struct
	{
		uint64_t	v;
		const char *bytes;
		size_t		n;
	}			cases[] = {
		{0, "\x00", 1},
		{1, "\x01", 1},
		{127, "\x7f", 1},
		{128, "\x80\x01", 2},
		{300, "\xac\x02", 2},
		{16383, "\xff\x7f", 2},
		{16384, "\x80\x80\x01", 3},
		{54412, "\x8c\xa9\x03", 3},
		{54460, "\xbc\xa9\x03", 3},
		{UINT64_MAX, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10},
		{(uint64_t) 1 << 63, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 10},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		uint8_t		out[16];
		size_t		n = ch_varuint_encode(cases[i].v, out);

		CHECK_EQ_MEM(out, n, cases[i].bytes, cases[i].n);
	}
}

TEST(varuint_round_trip)
{
	uint64_t	vals[200];
	size_t		nv = 0;
	size_t		i;
	int			k;

	vals[nv++] = 0;
	vals[nv++] = 127;
	vals[nv++] = 128;
	vals[nv++] = 300;
	vals[nv++] = 54412;
	vals[nv++] = UINT64_MAX;
	for (k = 1; k < 64; k++)
	{
		vals[nv++] = ((uint64_t) 1 << k) - 1;
		vals[nv++] = (uint64_t) 1 << k;
	}
	for (i = 0; i < nv; i++)
	{
		uint8_t		buf[16];
		size_t		n = ch_varuint_encode(vals[i], buf);
		size_t		expect_len = 1;
		uint64_t	v = vals[i];
		uint64_t	got = 0xdeadbeef;
		ch_rd		rd;

		while (v >= 0x80)
		{
			v >>= 7;
			expect_len++;
		}
		CHECK_EQ_UINT(n, expect_len);
		/* some trailing garbage after the varint must not be consumed */
		buf[n] = 0xff;
		ch_rd_init(&rd, buf, n + 1);
		CHECK_STATUS(ch_rd_varuint(&rd, &got), CH_OK);
		CHECK_EQ_UINT(got, vals[i]);
		CHECK_EQ_UINT(rd.pos, n);
	}
}

TEST(varuint_too_long_rejected)
{
	/* 11 bytes: ten continuation bytes then a terminator */
	static const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
	/* 10 bytes whose last byte carries more than the 64th bit */
	static const uint8_t ten_big[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
	static const uint8_t ten_cont[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00};
	uint64_t	v = 77;
	ch_rd		rd;

	ch_rd_init(&rd, eleven, sizeof(eleven));
	CHECK_STATUS(ch_rd_varuint(&rd, &v), CH_ERR_MALFORMED);
	CHECK_EQ_UINT(rd.pos, 0);
	CHECK_EQ_UINT(v, 77);

	ch_rd_init(&rd, ten_big, sizeof(ten_big));
	CHECK_STATUS(ch_rd_varuint(&rd, &v), CH_ERR_MALFORMED);
	CHECK_EQ_UINT(rd.pos, 0);

	ch_rd_init(&rd, ten_cont, sizeof(ten_cont));
	CHECK_STATUS(ch_rd_varuint(&rd, &v), CH_ERR_MALFORMED);
	CHECK_EQ_UINT(rd.pos, 0);
}

TEST(varuint_truncated_needs_more)
{
	static const uint8_t maxv[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	size_t		len;

	for (len = 0; len < sizeof(maxv); len++)
	{
		ch_rd		rd;
		uint64_t	v = 5;

		ch_rd_init(&rd, maxv, len);
		CHECK_STATUS(ch_rd_varuint(&rd, &v), CH_NEED_MORE);
		CHECK_EQ_UINT(rd.pos, 0);
		CHECK_EQ_UINT(v, 5);
		CHECK_EQ_UINT(rd.need, len + 1);
	}
	/* at an offset: need counts from the start of the range */
	{
		static const uint8_t two[] = {0x07, 0x80};
		ch_rd		rd;
		uint64_t	v;

		ch_rd_init(&rd, two, 2);
		CHECK_STATUS(ch_rd_varuint(&rd, &v), CH_OK);
		CHECK_EQ_UINT(v, 7);
		CHECK_STATUS(ch_rd_varuint(&rd, &v), CH_NEED_MORE);
		CHECK_EQ_UINT(rd.pos, 1);
		CHECK_EQ_UINT(rd.need, 3);
	}
}

TEST(rd_take_string_u64)
{
	static const uint8_t in[] = {0x03, 'a', 'b', 'c', 0x05, 'x', 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
	ch_rd		rd;
	const uint8_t *s = NULL;
	uint64_t	slen = 0,
				v = 0;

	ch_rd_init(&rd, in, sizeof(in));
	CHECK_STATUS(ch_rd_string(&rd, 100, &s, &slen), CH_OK);
	CHECK_EQ_BYTES(s, slen, "abc");
	CHECK_EQ_UINT(rd.pos, 4);
	/* too long for max_len: limit, position unchanged */
	CHECK_STATUS(ch_rd_string(&rd, 4, &s, &slen), CH_ERR_LIMIT);
	CHECK_EQ_UINT(rd.pos, 4);
	/* 5 bytes claimed, only 9 left: fine; but with a shorter range: need more */
	{
		ch_rd		rd2;

		ch_rd_init(&rd2, in + 4, 3);
		CHECK_STATUS(ch_rd_string(&rd2, 100, &s, &slen), CH_NEED_MORE);
		CHECK_EQ_UINT(rd2.pos, 0);
		CHECK_EQ_UINT(rd2.need, 6);
	}
	CHECK_STATUS(ch_rd_string(&rd, 100, &s, &slen), CH_OK);
	CHECK_EQ_BYTES(s, slen, "x\x01\x02\x03\x04");
	CHECK_STATUS(ch_rd_u64(&rd, &v), CH_NEED_MORE);
	CHECK_EQ_UINT(rd.need, 18);	/* pos 10 + 8 */
	CHECK_EQ_UINT(rd.pos, 10);
	{
		const uint8_t *p = NULL;

		CHECK_STATUS(ch_rd_take(&rd, 4, &p), CH_OK);
		CHECK_EQ_BYTES(p, 4, "\x05\x06\x07\x08");
		CHECK_EQ_UINT(ch_rd_left(&rd), 0);
		CHECK_STATUS(ch_rd_take(&rd, 0, &p), CH_OK);
		/* a huge request must not overflow need */
		CHECK_STATUS(ch_rd_take(&rd, UINT64_MAX, &p), CH_NEED_MORE);
		CHECK_EQ_UINT(rd.need, SIZE_MAX);
	}
}

TEST(le_helpers_unaligned)
{
	uint8_t		buf[32];

	memset(buf, 0, sizeof(buf));
	ch_put_le16(buf + 1, 0xfeff);
	ch_put_le32(buf + 3, 0x5c2c2a25);
	ch_put_le64(buf + 7, 0xfffffffffffffffcULL);
	CHECK_EQ_BYTES(buf + 1, 2, "\xff\xfe");
	CHECK_EQ_BYTES(buf + 3, 4, "\x25\x2a\x2c\x5c");
	CHECK_EQ_BYTES(buf + 7, 8, "\xfc\xff\xff\xff\xff\xff\xff\xff");
	CHECK_EQ_UINT(ch_le16(buf + 1), 0xfeff);
	CHECK_EQ_UINT(ch_le32(buf + 3), 1546398245u);
	CHECK_EQ_INT((int64_t) ch_le64(buf + 7), -4);
}

TEST(mul_ok_overflow)
{
	uint64_t	out = 0;

	CHECK(ch_mul_ok(1000000000, 8, &out));
	CHECK_EQ_UINT(out, 8000000000ULL);
	CHECK(!ch_mul_ok(UINT64_MAX / 2 + 1, 2, &out));
	CHECK(!ch_mul_ok((uint64_t) 1 << 40, (uint64_t) 1 << 30, &out));
	CHECK(ch_mul_ok(0, UINT64_MAX, &out));
	CHECK_EQ_UINT(out, 0);
}

TEST(buf_append_and_drop)
{
	count_alloc ca;
	ch_buf		b;

	count_alloc_init(&ca, 0);
	ch_buf_init(&b, &ca.a);
	CHECK(b.data == NULL);
	CHECK_EQ_UINT(b.len, 0);
	CHECK_STATUS(ch_buf_append(&b, "ab", 2), CH_OK);
	CHECK_STATUS(ch_buf_append(&b, NULL, 0), CH_OK);
	CHECK_STATUS(ch_buf_append_varuint(&b, 300), CH_OK);
	CHECK_STATUS(ch_buf_append_string(&b, "xyz", 3), CH_OK);
	CHECK_STATUS(ch_buf_append_string(&b, "", 0), CH_OK);
	CHECK_EQ_BYTES(b.data, b.len, "ab\xac\x02\x03xyz\x00");
	CHECK_EQ_UINT(ca.nalloc, 1);

	ch_buf_drop_front(&b, 2);
	CHECK_EQ_BYTES(b.data, b.len, "\xac\x02\x03xyz\x00");
	ch_buf_drop_front(&b, 100);
	CHECK_EQ_UINT(b.len, 0);

	/* growth keeps contents */
	{
		int			i;
		bool		ok = true;

		for (i = 0; i < 100000; i++)
		{
			uint8_t		c = (uint8_t) (i * 7);

			ok &= ch_buf_append(&b, &c, 1) == CH_OK;
		}
		CHECK(ok);
		CHECK_EQ_UINT(b.len, 100000);
		CHECK(b.cap >= b.len);
		for (i = 0; i < 100000 && ok; i++)
			ok = b.data[i] == (uint8_t) (i * 7);
		CHECK(ok);
		/* doubling: few allocations */
		CHECK(ca.nalloc < 12);
		CHECK_EQ_UINT(ca.live, b.cap);
	}
	ch_buf_reset(&b);
	CHECK_EQ_UINT(b.len, 0);
	CHECK_STATUS(ch_buf_reserve(&b, SIZE_MAX), CH_ERR_LIMIT);
	ch_buf_free(&b);
	CHECK(b.data == NULL);
	CHECK_EQ_UINT(ca.live, 0);
	CHECK_EQ_UINT(ca.nalloc, ca.nfree);
}

TEST(buf_out_of_memory_keeps_contents)
{
	count_alloc ca;
	ch_buf		b;
	char		big[5000];

	count_alloc_init(&ca, 4096);
	ch_buf_init(&b, &ca.a);
	CHECK_STATUS(ch_buf_append(&b, "hello", 5), CH_OK);
	memset(big, 'z', sizeof(big));
	CHECK_STATUS(ch_buf_append(&b, big, sizeof(big)), CH_ERR_NOMEM);
	CHECK_EQ_BYTES(b.data, b.len, "hello");
	CHECK_EQ_UINT(ca.nfailed, 1);
	ch_buf_free(&b);
	CHECK_EQ_UINT(ca.live, 0);

	/* a NULL allocator means malloc */
	ch_buf_init(&b, NULL);
	CHECK(b.a == &ch_default_allocator);
	CHECK_STATUS(ch_buf_append(&b, big, sizeof(big)), CH_OK);
	CHECK_EQ_UINT(b.len, sizeof(big));
	ch_buf_free(&b);
}

TEST(arena_alloc_align_reset_free)
{
	count_alloc ca;
	ch_arena	ar;
	int			i;
	bool		aligned = true;
	bool		intact = true;
	uint8_t    *ptrs[1000];

	count_alloc_init(&ca, 0);
	ch_arena_init(&ar, &ca.a);
	CHECK_EQ_UINT(ar.total, 0);
	for (i = 0; i < 1000; i++)
	{
		size_t		sz = (size_t) (i % 37) + 1;

		ptrs[i] = ch_arena_alloc(&ar, sz);
		if (!ptrs[i])
		{
			CHECK_MSG(false, "arena alloc %d failed", i);
			return;
		}
		aligned &= ((uintptr_t) ptrs[i] % 16) == 0;
		memset(ptrs[i], i & 0xff, sz);
	}
	CHECK(aligned);
	for (i = 0; i < 1000; i++)
		intact &= ptrs[i][0] == (uint8_t) (i & 0xff) &&
			ptrs[i][(i % 37)] == (uint8_t) (i & 0xff);
	CHECK(intact);

	/* larger than a chunk */
	{
		uint8_t    *big = ch_arena_alloc(&ar, 100000);

		CHECK(big != NULL);
		if (big)
		{
			memset(big, 1, 100000);
			CHECK(((uintptr_t) big % 16) == 0);
		}
	}
	{
		uint8_t    *z = ch_arena_zalloc(&ar, 333);
		bool		zero = z != NULL;

		for (i = 0; z && i < 333; i++)
			zero &= z[i] == 0;
		CHECK(zero);
	}
	{
		char	   *s = ch_arena_strndup(&ar, "hello world", 5);

		CHECK_EQ_STR(s, "hello");
	}
	CHECK(ca.nalloc > 1);

	/* reset keeps exactly one chunk */
	ch_arena_reset(&ar);
	CHECK_EQ_UINT(ca.nalloc - ca.nfree, 1);
	CHECK(ar.total > 0);
	CHECK_EQ_UINT(ar.used, 0);
	{
		void	   *p = ch_arena_alloc(&ar, 64);
		uint64_t	before = ca.nalloc;

		CHECK(p != NULL);
		CHECK_EQ_UINT(ca.nalloc, before);	/* reused the kept chunk */
	}
	/* impossible sizes fail cleanly */
	CHECK(ch_arena_alloc(&ar, SIZE_MAX) == NULL);
	CHECK(ch_arena_alloc(&ar, SIZE_MAX - 20) == NULL);
	ch_arena_free(&ar);
	CHECK_EQ_UINT(ca.live, 0);
	CHECK_EQ_UINT(ca.nalloc, ca.nfree);
	CHECK_EQ_UINT(ar.total, 0);
	/* reset and free of an empty arena */
	ch_arena_reset(&ar);
	ch_arena_free(&ar);
}

TEST(arena_out_of_memory)
{
	count_alloc ca;
	ch_arena	ar;

	count_alloc_init(&ca, 0);
	ca.fail_after = 1;
	ch_arena_init(&ar, &ca.a);
	CHECK(ch_arena_alloc(&ar, 100) != NULL);
	/* needs a second chunk: fails */
	CHECK(ch_arena_alloc(&ar, 100000) == NULL);
	CHECK(ch_arena_zalloc(&ar, 100000) == NULL);
	{
		static char src[100000];

		CHECK(ch_arena_strndup(&ar, src, sizeof(src)) == NULL);
	}
	/* the first chunk still serves small requests */
	CHECK(ch_arena_alloc(&ar, 100) != NULL);
	ch_arena_free(&ar);
	CHECK_EQ_UINT(ca.live, 0);
}
