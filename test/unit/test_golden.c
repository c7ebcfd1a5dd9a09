/*-------------------------------------------------------------------------
 * test_golden.c
 *	  The Native reader on the server-produced goldens of test/golden/v18_16
 *	  (ClickHouse 18.16.1, HTTP FORMAT Native): decoded values, the three
 *	  feeding modes, re-encoding, zero-row variants and the files themselves.
 *
 * test/unit/test_golden.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include "ch_http.h"

#include <math.h>
#include <stdlib.h>

/* Every golden the capture script produces; each must exist. */
static const char *const expected_goldens[] = {
	"array_lowcard", "arrays", "dates", "datetime_tz", "decimals", "empty", "enums",
	"exception_buffered", "exception_midstream", "fixedstring", "floats", "integers",
	"lowcard_nullable", "lowcard_string", "lowcard_wide", "multi_block", "nullable",
	"nullable_nothing", "strings", "table", "tuple", "union_all", "uuid",
};

#define NGOLDEN ((int) (sizeof(expected_goldens) / sizeof(expected_goldens[0])))

/* ---- reading one golden all at once ---- */

typedef struct golden
{
	const char *name;
	uint8_t    *data;
	size_t		len;
	ch_native_reader *r;
	ch_error	err;
} golden;

static bool
g_open(golden *g, const char *name)
{
	memset(g, 0, sizeof(*g));
	g->name = name;
	if (!golden_read(name, &g->data, &g->len))
		return false;
	g->r = ch_native_reader_create(NULL, false, NULL);
	if (!CHECK(g->r != NULL))
		return false;
	ch_error_clear(&g->err);
	if (!CHECK_STATUS(ch_native_reader_feed(g->r, g->data, g->len, &g->err), CH_OK))
		return false;
	ch_native_reader_finish(g->r);
	return true;
}

static ch_block *
g_next_at(golden *g, const char *file, int line)
{
	ch_block   *b = NULL;
	ch_status	st;

	ch_error_clear(&g->err);
	st = ch_native_reader_next(g->r, &b, &g->err);
	if (!unit_check(st == CH_OK && b != NULL, file, line, "%s: next block: %s %s", g->name,
					ch_status_name(st), g->err.message))
		return NULL;
	return b;
}

#define g_next(g) g_next_at((g), __FILE__, __LINE__)

static void
g_end_at(golden *g, const char *file, int line)
{
	ch_block   *b = (ch_block *) 1;
	ch_status	st;

	ch_error_clear(&g->err);
	st = ch_native_reader_next(g->r, &b, &g->err);
	unit_check(st == CH_END, file, line, "%s: expected CH_END, got %s %s", g->name,
			   ch_status_name(st), g->err.message);
	unit_check(b == NULL, file, line, "%s: *out not NULL at the end", g->name);
	/* and it stays at the end */
	st = ch_native_reader_next(g->r, &b, &g->err);
	unit_check(st == CH_END, file, line, "%s: second CH_END: %s", g->name, ch_status_name(st));
}

#define g_end(g) g_end_at((g), __FILE__, __LINE__)

static void
g_close(golden *g)
{
	ch_native_reader_free(g->r);
	free(g->data);
	g->r = NULL;
	g->data = NULL;
}

/* Name and announced type of column idx. */
static bool
check_col_at(const ch_block *b, uint64_t idx, const char *name, const char *type,
			 const char *file, int line)
{
	const ch_column *c;
	bool		ok;

	if (!unit_check(idx < b->ncols, file, line, "column %" PRIu64 " missing", idx))
		return false;
	c = &b->cols[idx];
	ok = unit_check_mem(c->name, c->name_len, name, strlen(name), "column name", name, file, line);
	ok &= unit_check_mem(c->type_name, c->type_name_len, type, strlen(type), "type name", type, file, line);
	ok &= unit_check(c->type != NULL, file, line, "column %s has no parsed type", name);
	ok &= unit_check_uint(c->nrows, b->nrows, "column nrows", "block nrows", file, line);
	return ok;
}

#define CHECK_COL(b, idx, name, type) check_col_at((b), (idx), (name), (type), __FILE__, __LINE__)

#define CHECK_STR_AT(c, i, lit) \
	do { uint32_t l_; const uint8_t *p_ = ch_col_str((c), (i), &l_); \
		 CHECK_EQ_MEM(p_, l_, (lit), sizeof(lit) - 1); } while (0)

#define CHECK_LC_AT(c, i, lit) \
	do { uint32_t l_; const uint8_t *p_ = lc_str_at((c), (i), &l_); \
		 CHECK_MSG(p_ != NULL, "LowCardinality row %d is NULL", (int) (i)); \
		 if (p_) CHECK_EQ_MEM(p_, l_, (lit), sizeof(lit) - 1); } while (0)

#define CHECK_LC_NULL(c, i) \
	do { uint32_t l_; CHECK_MSG(lc_str_at((c), (i), &l_) == NULL, "LowCardinality row %d not NULL", (int) (i)); } while (0)

static void
check_array_range(const ch_column *c, uint64_t i, uint64_t start, uint64_t end,
				  const char *file, int line)
{
	uint64_t	s,
				e;

	ch_col_array_range(c, i, &s, &e);
	unit_check(s == start && e == end, file, line,
			   "array row %" PRIu64 ": [%" PRIu64 ", %" PRIu64 "), expected [%" PRIu64 ", %" PRIu64 ")",
			   i, s, e, start, end);
}

#define CHECK_RANGE(c, i, s, e) check_array_range((c), (i), (s), (e), __FILE__, __LINE__)

/* ---- values of each golden ---- */

TEST(golden_integers)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;

	if (!g_open(&g, "integers"))
		goto out;
	if (!(b = g_next(&g)))
		goto out;
	CHECK_EQ_UINT(b->index, 0);
	if (!CHECK_EQ_UINT(b->ncols, 9) || !CHECK_EQ_UINT(b->nrows, 3))
		goto out;
	CHECK_COL(b, 0, "i", "UInt8");
	CHECK_COL(b, 1, "u8", "UInt8");
	CHECK_COL(b, 2, "u16", "UInt16");
	CHECK_COL(b, 3, "u32", "UInt32");
	CHECK_COL(b, 4, "u64", "UInt64");
	CHECK_COL(b, 5, "i8", "Int8");
	CHECK_COL(b, 6, "i16", "Int16");
	CHECK_COL(b, 7, "i32", "Int32");
	CHECK_COL(b, 8, "i64", "Int64");
	CHECK_EQ_INT(b->cols[4].type->kind, CH_T_UINT64);
	CHECK_EQ_INT(b->cols[8].type->kind, CH_T_INT64);

	c = &b->cols[0];
	CHECK_EQ_UINT(col_u64(c, 0), 0);
	CHECK_EQ_UINT(col_u64(c, 1), 1);
	CHECK_EQ_UINT(col_u64(c, 2), 2);
	/* row 0: zero everywhere */
	{
		uint64_t	k;

		for (k = 1; k < 9; k++)
			CHECK_MSG(col_u64(&b->cols[k], 0) == 0, "column %" PRIu64 " row 0 not 0", k);
	}
	/* row 1: minima */
	CHECK_EQ_UINT(col_u64(&b->cols[1], 1), 0);
	CHECK_EQ_UINT(col_u64(&b->cols[2], 1), 0);
	CHECK_EQ_UINT(col_u64(&b->cols[3], 1), 0);
	CHECK_EQ_UINT(col_u64(&b->cols[4], 1), 0);
	CHECK_EQ_INT(col_i64(&b->cols[5], 1), INT8_MIN);
	CHECK_EQ_INT(col_i64(&b->cols[6], 1), INT16_MIN);
	CHECK_EQ_INT(col_i64(&b->cols[7], 1), INT32_MIN);
	CHECK_EQ_INT(col_i64(&b->cols[8], 1), INT64_MIN);
	/* row 2: maxima */
	CHECK_EQ_UINT(col_u64(&b->cols[1], 2), UINT8_MAX);
	CHECK_EQ_UINT(col_u64(&b->cols[2], 2), UINT16_MAX);
	CHECK_EQ_UINT(col_u64(&b->cols[3], 2), UINT32_MAX);
	CHECK_EQ_UINT(col_u64(&b->cols[4], 2), UINT64_MAX);
	CHECK_EQ_INT(col_i64(&b->cols[5], 2), INT8_MAX);
	CHECK_EQ_INT(col_i64(&b->cols[6], 2), INT16_MAX);
	CHECK_EQ_INT(col_i64(&b->cols[7], 2), INT32_MAX);
	CHECK_EQ_INT(col_i64(&b->cols[8], 2), INT64_MAX);
	/* the raw bytes of Int64 min */
	CHECK_EQ_BYTES(ch_col_fixed(&b->cols[8], 1), 8, "\x00\x00\x00\x00\x00\x00\x00\x80");
	g_end(&g);
out:
	g_close(&g);
}

static uint64_t
f64_bits(const uint8_t *p)
{
	return ch_le64(p);
}

static double
f64_at(const ch_column *c, uint64_t i)
{
	uint64_t	u = ch_le64(ch_col_fixed(c, i));
	double		d;

	memcpy(&d, &u, 8);
	return d;
}

static float
f32_at(const ch_column *c, uint64_t i)
{
	uint32_t	u = ch_le32(ch_col_fixed(c, i));
	float		f;

	memcpy(&f, &u, 4);
	return f;
}

TEST(golden_floats)
{
	golden		g;
	ch_block   *b;
	const ch_column *d,
			   *f;

	if (!g_open(&g, "floats") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 2) || !CHECK_EQ_UINT(b->nrows, 6))
		goto out;
	CHECK_COL(b, 0, "f64", "Float64");
	CHECK_COL(b, 1, "f32", "Float32");
	d = &b->cols[0];
	f = &b->cols[1];
	CHECK(isnan(f64_at(d, 0)));
	CHECK_EQ_UINT(f64_bits(ch_col_fixed(d, 0)), 0x7ff8000000000000ULL);
	CHECK(isinf(f64_at(d, 1)) && f64_at(d, 1) > 0);
	CHECK(isinf(f64_at(d, 2)) && f64_at(d, 2) < 0);
	CHECK(f64_at(d, 3) == 0.0 && signbit(f64_at(d, 3)));
	CHECK_EQ_UINT(f64_bits(ch_col_fixed(d, 3)), 0x8000000000000000ULL);
	CHECK(f64_at(d, 4) == 0.1);
	CHECK_EQ_UINT(f64_bits(ch_col_fixed(d, 4)), 0x3fb999999999999aULL);
	CHECK(f64_at(d, 5) == 1.5);

	CHECK(isnan(f32_at(f, 0)));
	CHECK(isinf(f32_at(f, 1)) && f32_at(f, 1) > 0);
	CHECK(isinf(f32_at(f, 2)) && f32_at(f, 2) < 0);
	CHECK(f32_at(f, 3) == 0.0f && signbit(f32_at(f, 3)));
	CHECK(f32_at(f, 4) == 0.1f);
	CHECK_EQ_UINT(ch_le32(ch_col_fixed(f, 4)), 0x3dcccccdu);
	CHECK_EQ_BYTES(ch_col_fixed(f, 5), 4, "\x00\x00\xc0\x3f");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_strings)
{
	golden		g;
	ch_block   *b;
	const ch_column *s,
			   *len;
	static const uint64_t lens[] = {0, 13, 10, 16, 3, 2, 300};
	uint64_t	i;

	if (!g_open(&g, "strings") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 2) || !CHECK_EQ_UINT(b->nrows, 7))
		goto out;
	CHECK_COL(b, 0, "s", "String");
	CHECK_COL(b, 1, "len", "UInt64");
	s = &b->cols[0];
	len = &b->cols[1];
	CHECK_STR_AT(s, 0, "");
	CHECK_STR_AT(s, 1, "it's \"quoted\"");
	CHECK_STR_AT(s, 2, "back\\slash");
	CHECK_STR_AT(s, 3, "tab\there\nnewline");
	CHECK_STR_AT(s, 4, "A\0Z");	/* embedded NUL: 3 bytes */
	CHECK_STR_AT(s, 5, "\xff\xfe");	/* not UTF-8 */
	{
		uint32_t	l;
		const uint8_t *p = ch_col_str(s, 6, &l);
		bool		all_x = l == 300;

		for (i = 0; all_x && i < 300; i++)
			all_x = p[i] == 'x';
		CHECK_MSG(all_x, "row 6 should be 300 'x' (length %u)", l);
	}
	/* length(s) computed by the server agrees with the decoded lengths */
	for (i = 0; i < 7; i++)
	{
		CHECK_EQ_UINT(col_u64(len, i), lens[i]);
		CHECK_EQ_UINT(s->str_len[i], lens[i]);
	}
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_fixedstring)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;

	if (!g_open(&g, "fixedstring") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 4))
		goto out;
	CHECK_COL(b, 0, "fs", "FixedString(3)");
	c = &b->cols[0];
	CHECK_EQ_UINT(c->type->fixed_len, 3);
	CHECK_EQ_UINT(c->type->width, 3);
	CHECK_EQ_BYTES(ch_col_fixed(c, 0), 3, "xy\0");
	CHECK_EQ_BYTES(ch_col_fixed(c, 1), 3, "abc");
	CHECK_EQ_BYTES(ch_col_fixed(c, 2), 3, "\0\0\0");
	CHECK_EQ_BYTES(ch_col_fixed(c, 3), 3, "a\0\0");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_dates)
{
	golden		g;
	ch_block   *b;
	const ch_column *d,
			   *dt;

	if (!g_open(&g, "dates") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 3) || !CHECK_EQ_UINT(b->nrows, 4))
		goto out;
	CHECK_COL(b, 1, "d", "Date");
	CHECK_COL(b, 2, "dt", "DateTime");
	d = &b->cols[1];
	dt = &b->cols[2];
	CHECK_EQ_INT(d->type->kind, CH_T_DATE);
	CHECK_EQ_INT(dt->type->kind, CH_T_DATETIME);
	CHECK(dt->type->tz == NULL);
	CHECK_EQ_UINT(col_u64(d, 0), 0);	/* 1970-01-01 */
	CHECK_EQ_UINT(col_u64(d, 1), 49672);	/* 2105-12-31 */
	CHECK_EQ_UINT(col_u64(d, 2), 17898);	/* 2019-01-02 */
	CHECK_EQ_UINT(col_u64(d, 3), 65535);	/* toDate(65535) */
	CHECK_EQ_UINT(col_u64(dt, 0), 0);
	CHECK_EQ_UINT(col_u64(dt, 1), 4294967295u);
	CHECK_EQ_UINT(col_u64(dt, 2), 1546398245u);	/* 2019-01-02 03:04:05 UTC */
	CHECK_EQ_BYTES(ch_col_fixed(dt, 2), 4, "\x25\x2a\x2c\x5c");
	CHECK_EQ_UINT(col_u64(dt, 3), 1);
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_datetime_tz)
{
	golden		g;
	ch_block   *b;

	if (!g_open(&g, "datetime_tz") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 3) || !CHECK_EQ_UINT(b->nrows, 1))
		goto out;
	/* HTTP (revision 0) strips the zone from the announced type */
	CHECK_COL(b, 0, "dtz", "DateTime");
	CHECK_COL(b, 1, "dtu", "DateTime");
	CHECK_COL(b, 2, "tn", "String");
	CHECK(b->cols[0].type->tz == NULL);
	CHECK_EQ_UINT(col_u64(&b->cols[0], 0), 1546387445u);	/* 03:04:05 Moscow = 00:04:05 UTC */
	CHECK_EQ_UINT(col_u64(&b->cols[1], 0), 1546398245u);
	CHECK_STR_AT(&b->cols[2], 0, "DateTime('Europe/Moscow')");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_nullable)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;

	if (!g_open(&g, "nullable") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 5) || !CHECK_EQ_UINT(b->nrows, 4))
		goto out;
	CHECK_COL(b, 1, "ni32", "Nullable(Int32)");
	CHECK_COL(b, 2, "nu8", "Nullable(UInt8)");
	CHECK_COL(b, 3, "ns", "Nullable(String)");
	CHECK_COL(b, 4, "nd", "Nullable(Date)");

	c = &b->cols[1];
	REQUIRE(c->null_map && c->nchildren == 1);
	CHECK(ch_col_is_null(c, 0));
	CHECK(!ch_col_is_null(c, 1));
	CHECK(ch_col_is_null(c, 2));
	CHECK(!ch_col_is_null(c, 3));
	CHECK_EQ_INT(c->children[0].type->kind, CH_T_INT32);
	CHECK_EQ_UINT(c->children[0].nrows, 4);
	CHECK_EQ_INT(col_i64(&c->children[0], 0), 0);	/* placeholder */
	CHECK_EQ_INT(col_i64(&c->children[0], 1), 7);
	CHECK_EQ_INT(col_i64(&c->children[0], 3), -1);

	c = &b->cols[2];
	REQUIRE(c->null_map && c->nchildren == 1);
	CHECK_EQ_BYTES(c->null_map, 4, "\x00\x01\x01\x00");
	CHECK_EQ_UINT(col_u64(&c->children[0], 0), 1);
	CHECK_EQ_UINT(col_u64(&c->children[0], 3), 255);

	c = &b->cols[3];
	REQUIRE(c->null_map && c->nchildren == 1);
	CHECK_EQ_BYTES(c->null_map, 4, "\x01\x00\x00\x01");
	CHECK_STR_AT(&c->children[0], 0, "");
	CHECK_STR_AT(&c->children[0], 1, "abc");
	CHECK_STR_AT(&c->children[0], 2, "");	/* a real empty string, not NULL */
	CHECK_STR_AT(&c->children[0], 3, "");

	c = &b->cols[4];
	REQUIRE(c->null_map && c->nchildren == 1);
	CHECK_EQ_BYTES(c->null_map, 4, "\x00\x01\x00\x01");
	CHECK_EQ_INT(c->children[0].type->kind, CH_T_DATE);
	CHECK_EQ_UINT(col_u64(&c->children[0], 0), 17898);
	CHECK_EQ_UINT(col_u64(&c->children[0], 2), 0);
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_nullable_nothing)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;

	if (!g_open(&g, "nullable_nothing") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 1))
		goto out;
	CHECK_COL(b, 0, "n", "Nullable(Nothing)");
	c = &b->cols[0];
	CHECK_EQ_INT(c->type->kind, CH_T_NULLABLE);
	REQUIRE(c->null_map && c->nchildren == 1);
	CHECK(ch_col_is_null(c, 0));
	CHECK_EQ_INT(c->children[0].type->kind, CH_T_NOTHING);
	g_end(&g);
	/* the '0' placeholder byte was consumed: the block ends at the body's end */
	CHECK_EQ_UINT(ch_native_reader_buffered(g.r), 0);
out:
	g_close(&g);
}

TEST(golden_enums)
{
	golden		g;
	ch_block   *b;
	const ch_column *e8,
			   *e16;

	if (!g_open(&g, "enums") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 3) || !CHECK_EQ_UINT(b->nrows, 3))
		goto out;
	/* the server sorts the labels by value and escapes the quote */
	CHECK_COL(b, 1, "e8", "Enum8('it\\'s' = -2, 'a' = 1, 'q\"(,)=' = 127)");
	CHECK_COL(b, 2, "e16", "Enum16('z' = -32768, 'x' = -1000, 'y' = 1000)");
	e8 = &b->cols[1];
	e16 = &b->cols[2];
	CHECK_EQ_INT(col_i64(e8, 0), 1);
	CHECK_EQ_INT(col_i64(e8, 1), -2);
	CHECK_EQ_INT(col_i64(e8, 2), 127);
	CHECK_EQ_INT(col_i64(e16, 0), -1000);
	CHECK_EQ_INT(col_i64(e16, 1), 1000);
	CHECK_EQ_INT(col_i64(e16, 2), -32768);
	if (CHECK_EQ_INT(e8->type->nenum, 3))
	{
		CHECK_EQ_STR(e8->type->enum_names[0], "it's");
		CHECK_EQ_INT(e8->type->enum_values[0], -2);
		CHECK_EQ_STR(e8->type->enum_names[1], "a");
		CHECK_EQ_STR(e8->type->enum_names[2], "q\"(,)=");
		CHECK_EQ_INT(e8->type->enum_values[2], 127);
	}
	if (CHECK_EQ_INT(e16->type->nenum, 3))
	{
		CHECK_EQ_STR(e16->type->enum_names[0], "z");
		CHECK_EQ_INT(e16->type->enum_values[0], -32768);
	}
	g_end(&g);
out:
	g_close(&g);
}

static __int128
i128_at(const ch_column *c, uint64_t i)
{
	const uint8_t *p = ch_col_fixed(c, i);
	unsigned __int128 u = ((unsigned __int128) ch_le64(p + 8) << 64) | ch_le64(p);

	return (__int128) u;
}

TEST(golden_decimals)
{
	golden		g;
	ch_block   *b;
	const ch_column *d9,
			   *d18,
			   *d38;
	__int128	big;

	if (!g_open(&g, "decimals") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 4) || !CHECK_EQ_UINT(b->nrows, 3))
		goto out;
	CHECK_COL(b, 1, "d9", "Decimal(9, 2)");
	CHECK_COL(b, 2, "d18", "Decimal(18, 3)");
	CHECK_COL(b, 3, "d38", "Decimal(38, 10)");
	d9 = &b->cols[1];
	d18 = &b->cols[2];
	d38 = &b->cols[3];
	CHECK_EQ_INT(d9->type->width, 4);
	CHECK_EQ_INT(d9->type->scale, 2);
	CHECK_EQ_INT(d18->type->width, 8);
	CHECK_EQ_INT(d38->type->width, 16);
	CHECK_EQ_INT(d38->type->scale, 10);
	CHECK_EQ_INT(col_i64(d9, 0), 0);
	CHECK_EQ_INT(col_i64(d9, 1), -150);	/* -1.50 */
	CHECK_EQ_INT(col_i64(d9, 2), 999999999);	/* 9999999.99 */
	CHECK_EQ_INT(col_i64(d18, 0), 0);
	CHECK_EQ_INT(col_i64(d18, 1), 123456);	/* 123.456 */
	CHECK_EQ_INT(col_i64(d18, 2), -999999999999999999LL);
	CHECK(i128_at(d38, 0) == 0);
	/* -12345678901234567890.0123456789 */
	big = -((__int128) 12345678901234567890ULL * 10000000000LL + 123456789);
	CHECK_MSG(i128_at(d38, 1) == big, "Decimal(38, 10) row 1");
	/* 10^36 - 1 */
	big = (__int128) 1000000000000000000LL * 1000000000000000000LL - 1;
	CHECK_MSG(i128_at(d38, 2) == big, "Decimal(38, 10) row 2");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_uuid)
{
	golden		g;
	ch_block   *b;
	const ch_column *u;

	if (!g_open(&g, "uuid") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 3))
		goto out;
	CHECK_COL(b, 0, "u", "UUID");
	u = &b->cols[0];
	CHECK_EQ_UINT(u->type->width, 16);
	/* 00112233-4455-6677-8899-aabbccddeeff: each 8-byte half reversed */
	CHECK_EQ_BYTES(ch_col_fixed(u, 0), 16,
				   "\x77\x66\x55\x44\x33\x22\x11\x00\xff\xee\xdd\xcc\xbb\xaa\x99\x88");
	CHECK_EQ_BYTES(ch_col_fixed(u, 1), 16, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
	CHECK_EQ_BYTES(ch_col_fixed(u, 2), 16,
				   "\x08\x07\x06\x05\x04\x03\x02\x01\x10\x0f\x0e\x0d\x0c\x0b\x0a\x09");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_arrays)
{
	golden		g;
	ch_block   *b;
	const ch_column *c,
			   *in;

	if (!g_open(&g, "arrays") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 6) || !CHECK_EQ_UINT(b->nrows, 3))
		goto out;
	CHECK_COL(b, 1, "a_u8", "Array(UInt8)");
	CHECK_COL(b, 2, "a_a_u8", "Array(Array(UInt8))");
	CHECK_COL(b, 3, "a_n_u8", "Array(Nullable(UInt8))");
	CHECK_COL(b, 4, "a_s", "Array(String)");
	CHECK_COL(b, 5, "a_empty", "Array(UInt8)");

	/* [1,2], [], [3] */
	c = &b->cols[1];
	REQUIRE(c->offsets && c->nchildren == 1);
	CHECK_RANGE(c, 0, 0, 2);
	CHECK_RANGE(c, 1, 2, 2);
	CHECK_RANGE(c, 2, 2, 3);
	CHECK_EQ_UINT(c->children[0].nrows, 3);
	CHECK_EQ_BYTES(c->children[0].data, 3, "\x01\x02\x03");

	/* [[1,2],[3]], [], [[],[4]] */
	c = &b->cols[2];
	REQUIRE(c->offsets && c->nchildren == 1);
	CHECK_RANGE(c, 0, 0, 2);
	CHECK_RANGE(c, 1, 2, 2);
	CHECK_RANGE(c, 2, 2, 4);
	in = &c->children[0];
	CHECK_EQ_UINT(in->nrows, 4);
	REQUIRE(in->offsets && in->nchildren == 1);
	CHECK_RANGE(in, 0, 0, 2);
	CHECK_RANGE(in, 1, 2, 3);
	CHECK_RANGE(in, 2, 3, 3);
	CHECK_RANGE(in, 3, 3, 4);
	CHECK_EQ_UINT(in->children[0].nrows, 4);
	CHECK_EQ_BYTES(in->children[0].data, 4, "\x01\x02\x03\x04");

	/* [NULL,1], [], [NULL] */
	c = &b->cols[3];
	REQUIRE(c->offsets && c->nchildren == 1);
	CHECK_RANGE(c, 0, 0, 2);
	CHECK_RANGE(c, 2, 2, 3);
	in = &c->children[0];
	CHECK_EQ_INT(in->type->kind, CH_T_NULLABLE);
	CHECK_EQ_UINT(in->nrows, 3);
	REQUIRE(in->null_map && in->nchildren == 1);
	CHECK_EQ_BYTES(in->null_map, 3, "\x01\x00\x01");
	CHECK_EQ_UINT(col_u64(&in->children[0], 1), 1);

	/* ['a',''], [], ['bc'] */
	c = &b->cols[4];
	REQUIRE(c->offsets && c->nchildren == 1);
	CHECK_RANGE(c, 0, 0, 2);
	CHECK_RANGE(c, 1, 2, 2);
	CHECK_RANGE(c, 2, 2, 3);
	CHECK_EQ_UINT(c->children[0].nrows, 3);
	CHECK_STR_AT(&c->children[0], 0, "a");
	CHECK_STR_AT(&c->children[0], 1, "");
	CHECK_STR_AT(&c->children[0], 2, "bc");

	/* all empty: no element bytes at all */
	c = &b->cols[5];
	REQUIRE(c->offsets && c->nchildren == 1);
	CHECK_RANGE(c, 0, 0, 0);
	CHECK_RANGE(c, 2, 0, 0);
	CHECK_EQ_UINT(c->children[0].nrows, 0);
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_tuple)
{
	golden		g;
	ch_block   *b;
	const ch_column *t;

	if (!g_open(&g, "tuple") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 2) || !CHECK_EQ_UINT(b->nrows, 2))
		goto out;
	CHECK_COL(b, 1, "t", "Tuple(UInt8, String)");
	t = &b->cols[1];
	REQUIRE(t->nchildren == 2);
	CHECK_EQ_UINT(t->children[0].nrows, 2);
	CHECK_EQ_UINT(col_u64(&t->children[0], 0), 1);
	CHECK_EQ_UINT(col_u64(&t->children[0], 1), 2);
	CHECK_STR_AT(&t->children[1], 0, "x");
	CHECK_STR_AT(&t->children[1], 1, "");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_lowcard_string)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;

	if (!g_open(&g, "lowcard_string") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 5))
		goto out;
	CHECK_COL(b, 0, "lc", "LowCardinality(String)");
	c = &b->cols[0];
	REQUIRE(c->nchildren == 1 && c->lc_keys);
	CHECK(!c->lc_nullable);
	CHECK_EQ_UINT(c->lc_key_width, 1);
	CHECK_EQ_UINT(c->lc_dict_rows, 4);
	CHECK_EQ_UINT(c->children[0].nrows, 4);
	CHECK_STR_AT(&c->children[0], 0, "");
	CHECK_STR_AT(&c->children[0], 1, "a");
	CHECK_STR_AT(&c->children[0], 3, "c");
	CHECK_EQ_UINT(ch_col_lc_key(c, 0), 1);
	CHECK_EQ_UINT(ch_col_lc_key(c, 3), 3);
	CHECK_LC_AT(c, 0, "a");
	CHECK_LC_AT(c, 1, "b");
	CHECK_LC_AT(c, 2, "a");
	CHECK_LC_AT(c, 3, "c");
	CHECK_LC_AT(c, 4, "b");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_lowcard_nullable)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;

	if (!g_open(&g, "lowcard_nullable") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 4))
		goto out;
	CHECK_COL(b, 0, "lc", "LowCardinality(Nullable(String))");
	c = &b->cols[0];
	REQUIRE(c->nchildren == 1 && c->lc_keys);
	CHECK(c->lc_nullable);
	CHECK_EQ_UINT(c->lc_key_width, 1);
	CHECK_EQ_UINT(c->lc_dict_rows, 4);
	/* the dictionary holds the inner type without Nullable */
	CHECK_EQ_INT(c->children[0].type->kind, CH_T_STRING);
	CHECK_EQ_BYTES(c->lc_keys, 4, "\x02\x00\x01\x03");
	CHECK_LC_AT(c, 0, "a");
	CHECK_LC_NULL(c, 1);
	CHECK_LC_AT(c, 2, "");
	CHECK_LC_AT(c, 3, "b");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_lowcard_wide)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;
	uint64_t	i;
	bool		ok = true;

	if (!g_open(&g, "lowcard_wide") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 300))
		goto out;
	CHECK_COL(b, 0, "lc", "LowCardinality(String)");
	c = &b->cols[0];
	REQUIRE(c->nchildren == 1 && c->lc_keys);
	CHECK_EQ_UINT(c->lc_key_width, 2);	/* flags 0x601 */
	CHECK_EQ_UINT(c->lc_dict_rows, 301);
	for (i = 0; i < 300 && ok; i++)
	{
		char		want[16];
		uint32_t	l;
		const uint8_t *p = lc_str_at(c, i, &l);
		int			wl = snprintf(want, sizeof(want), "%" PRIu64, i);

		ok = CHECK_MSG(p && l == (uint32_t) wl && memcmp(p, want, l) == 0,
					   "row %" PRIu64 " should be \"%s\"", i, want);
	}
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_array_lowcard)
{
	golden		g;
	ch_block   *b;
	const ch_column *c,
			   *lc;

	if (!g_open(&g, "array_lowcard") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 2) || !CHECK_EQ_UINT(b->nrows, 3))
		goto out;
	CHECK_COL(b, 1, "alc", "Array(LowCardinality(String))");
	c = &b->cols[1];
	REQUIRE(c->offsets && c->nchildren == 1);
	CHECK_RANGE(c, 0, 0, 3);
	CHECK_RANGE(c, 1, 3, 3);
	CHECK_RANGE(c, 2, 3, 4);
	lc = &c->children[0];
	CHECK_EQ_INT(lc->type->kind, CH_T_LOWCARDINALITY);
	CHECK_EQ_UINT(lc->nrows, 4);
	REQUIRE(lc->nchildren == 1 && lc->lc_keys);
	CHECK_EQ_UINT(lc->lc_dict_rows, 4);
	CHECK_LC_AT(lc, 0, "a");
	CHECK_LC_AT(lc, 1, "b");
	CHECK_LC_AT(lc, 2, "a");
	CHECK_LC_AT(lc, 3, "c");
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_multi_block)
{
	golden		g;
	ch_block   *b;
	static const uint64_t rows[] = {65536, 65536, 65536, 3392};
	uint64_t	next_value = 0;
	int			k;

	if (!g_open(&g, "multi_block"))
		goto out;
	for (k = 0; k < 4; k++)
	{
		uint64_t	i;
		bool		ok = true;

		if (!(b = g_next(&g)))
			goto out;
		CHECK_EQ_UINT(b->index, (uint64_t) k);
		if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, rows[k]))
			goto out;
		CHECK_COL(b, 0, "number", "UInt64");
		for (i = 0; i < b->nrows && ok; i++)
			ok = CHECK_EQ_UINT(col_u64(&b->cols[0], i), next_value + i);
		next_value += b->nrows;
	}
	CHECK_EQ_UINT(next_value, 200000);
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_union_all)
{
	golden		g;
	ch_block   *b;

	if (!g_open(&g, "union_all") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 1))
		goto out;
	CHECK_COL(b, 0, "n", "Nullable(Int32)");
	CHECK(ch_col_is_null(&b->cols[0], 0));
	if (!(b = g_next(&g)))
		goto out;
	CHECK_EQ_UINT(b->index, 1);
	if (!CHECK_EQ_UINT(b->ncols, 1) || !CHECK_EQ_UINT(b->nrows, 1))
		goto out;
	CHECK_COL(b, 0, "n", "Nullable(Int32)");
	CHECK(!ch_col_is_null(&b->cols[0], 0));
	CHECK_EQ_INT(col_i64(&b->cols[0].children[0], 0), 7);
	g_end(&g);
out:
	g_close(&g);
}

TEST(golden_empty)
{
	uint8_t    *data;
	size_t		len;
	ch_native_reader *r;
	ch_block   *b = NULL;
	ch_error	err;

	if (!golden_read("empty", &data, &len))
		return;
	CHECK_EQ_UINT(len, 0);
	r = ch_native_reader_create(NULL, false, NULL);
	REQUIRE(r);
	CHECK_STATUS(ch_native_reader_feed(r, data, len, &err), CH_OK);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_NEED_MORE);
	ch_native_reader_finish(r);
	CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_END);
	CHECK(b == NULL);
	CHECK_EQ_UINT(ch_native_reader_total(r), 0);
	/* feeding after finish is refused */
	CHECK_STATUS(ch_native_reader_feed(r, "x", 1, &err), CH_ERR_INVALID_ARGUMENT);
	ch_native_reader_free(r);
	free(data);
}

TEST(golden_exception_midstream)
{
	golden		g;
	ch_block   *b;
	uint64_t	k;
	uint64_t	next_value = 0;
	ch_status	st;
	const uint8_t *code;

	if (!g_open(&g, "exception_midstream"))
		goto out;
	code = find_bytes(g.data, g.len, "Code: 395");
	REQUIRE(code != NULL);
	for (k = 0; k < 120; k++)
	{
		uint64_t	i;
		bool		ok = true;

		if (!(b = g_next(&g)))
			goto out;
		if (!CHECK_EQ_UINT(b->ncols, 2) || !CHECK_EQ_UINT(b->nrows, 1000))
			goto out;
		if (k == 0)
		{
			CHECK_COL(b, 0, "number", "UInt64");
			CHECK_COL(b, 1, "throwIf(equals(number, 120000))", "UInt8");
		}
		for (i = 0; i < 1000 && ok; i++)
			ok = CHECK_EQ_UINT(col_u64(&b->cols[0], i), next_value + i) &&
				CHECK_EQ_UINT(col_u64(&b->cols[1], i), 0);
		next_value += 1000;
	}
	ch_error_clear(&g.err);
	b = (ch_block *) 1;
	st = ch_native_reader_next(g.r, &b, &g.err);
	CHECK_STATUS(st, CH_ERR_SERVER);
	CHECK(b == NULL);
	CHECK_STATUS(g.err.code, CH_ERR_SERVER);
	CHECK_EQ_INT(g.err.server_code, 395);
	CHECK_EQ_INT(g.err.offset, code - g.data);
	CHECK_EQ_STR(g.err.message,
				 "Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero, e.what() = DB::Exception");
	/* sticky */
	ch_error_clear(&g.err);
	CHECK_STATUS(ch_native_reader_next(g.r, &b, &g.err), CH_ERR_SERVER);
	CHECK_EQ_INT(g.err.server_code, 395);
out:
	g_close(&g);
}

TEST(golden_exception_buffered)
{
	golden		g;
	ch_block   *b = NULL;

	if (!g_open(&g, "exception_buffered"))
		goto out;
	CHECK(g.len > 6 && memcmp(g.data, "Code: ", 6) == 0);
	CHECK_STATUS(ch_native_reader_next(g.r, &b, &g.err), CH_ERR_SERVER);
	CHECK_EQ_INT(g.err.server_code, 395);
	CHECK_EQ_INT(g.err.offset, 0);
	CHECK_CONTAINS(g.err.message, "Value passed to 'throwIf' function is non zero");
	CHECK_EQ_INT(ch_parse_exception_code((const char *) g.data, g.len), 395);
out:
	g_close(&g);
}

TEST(golden_table)
{
	golden		g;
	ch_block   *b;
	const ch_column *c;

	if (!g_open(&g, "table") || !(b = g_next(&g)))
		goto out;
	if (!CHECK_EQ_UINT(b->ncols, 10) || !CHECK_EQ_UINT(b->nrows, 3))
		goto out;
	CHECK_COL(b, 0, "id", "UInt32");
	CHECK_COL(b, 1, "name", "String");
	CHECK_COL(b, 2, "price", "Decimal(9, 2)");
	CHECK_COL(b, 3, "day", "Date");
	CHECK_COL(b, 4, "tags", "Array(String)");
	CHECK_COL(b, 5, "score", "Nullable(Float64)");
	CHECK_COL(b, 6, "kind", "Enum8('x' = 1, 'y' = 2)");
	CHECK_COL(b, 7, "lc", "LowCardinality(String)");
	CHECK_COL(b, 8, "n.a", "Array(UInt8)");
	CHECK_COL(b, 9, "n.b", "Array(String)");

	c = col_named(b, "id");
	CHECK_EQ_UINT(col_u64(c, 0), 1);
	CHECK_EQ_UINT(col_u64(c, 2), 3);
	c = col_named(b, "name");
	CHECK_STR_AT(c, 0, "one");
	CHECK_STR_AT(c, 1, "");
	CHECK_STR_AT(c, 2, "three");
	c = col_named(b, "price");
	CHECK_EQ_INT(col_i64(c, 0), 150);
	CHECK_EQ_INT(col_i64(c, 1), -1);
	CHECK_EQ_INT(col_i64(c, 2), 999999999);
	c = col_named(b, "day");
	CHECK_EQ_UINT(col_u64(c, 0), 17898);
	CHECK_EQ_UINT(col_u64(c, 1), 0);
	CHECK_EQ_UINT(col_u64(c, 2), 49672);
	c = col_named(b, "tags");
	CHECK_RANGE(c, 0, 0, 2);
	CHECK_RANGE(c, 1, 2, 2);
	CHECK_RANGE(c, 2, 2, 3);
	CHECK_STR_AT(&c->children[0], 2, "c");
	c = col_named(b, "score");
	CHECK_EQ_BYTES(c->null_map, 3, "\x01\x00\x00");
	CHECK(f64_at(&c->children[0], 1) == 2.5);
	CHECK(f64_at(&c->children[0], 2) == -0.5);
	c = col_named(b, "kind");
	CHECK_EQ_BYTES(c->data, 3, "\x01\x02\x01");
	c = col_named(b, "lc");
	CHECK_LC_AT(c, 0, "p");
	CHECK_LC_AT(c, 1, "");
	CHECK_LC_AT(c, 2, "p");
	c = col_named(b, "n.a");
	CHECK_RANGE(c, 0, 0, 2);
	CHECK_RANGE(c, 2, 2, 3);
	CHECK_EQ_BYTES(c->children[0].data, 3, "\x01\x02\x03");
	c = col_named(b, "n.b");
	CHECK_STR_AT(&c->children[0], 0, "u");
	CHECK_STR_AT(&c->children[0], 1, "v");
	CHECK_STR_AT(&c->children[0], 2, "w");
	g_end(&g);
out:
	g_close(&g);
}

/* ---- generic checks over every golden ---- */

/* Offset of the exception text after the last complete block, or len. */
static size_t
exception_offset(const uint8_t *data, size_t len)
{
	const uint8_t *p = find_bytes(data, len, "Code: 395");

	return p ? (size_t) (p - data) : len;
}

/*
 * All at once, in 1-byte chunks and in random chunks: identical blocks,
 * identical final status; and re-encoding the decoded blocks gives back the
 * exact input bytes (every byte accounted for).
 */
TEST(golden_feed_modes_agree)
{
	int			gi;

	for (gi = 0; gi < NGOLDEN; gi++)
	{
		const char *name = expected_goldens[gi];
		uint8_t    *data;
		size_t		len;
		stream_result *res = calloc(5, sizeof(stream_result));
		int			m;

		if (!golden_read(name, &data, &len))
		{
			free(res);
			continue;
		}
		decode_stream(data, len, FEED_ALL, 0, false, NULL, NULL, &res[0]);
		decode_stream(data, len, FEED_BYTES, 0, false, NULL, NULL, &res[1]);
		decode_stream(data, len, FEED_RANDOM, 1, false, NULL, NULL, &res[2]);
		decode_stream(data, len, FEED_RANDOM, 2, false, NULL, NULL, &res[3]);
		decode_stream(data, len, FEED_CHUNK, 4096, false, NULL, NULL, &res[4]);

		for (m = 0; m < 5; m++)
		{
			CHECK_MSG(res[m].protocol_ok, "%s mode %d: reader broke the next() protocol", name, m);
			CHECK_MSG(res[m].final == res[0].final, "%s mode %d: final %s, all-at-once %s",
					  name, m, ch_status_name(res[m].final), ch_status_name(res[0].final));
			CHECK_MSG(res[m].err.server_code == res[0].err.server_code,
					  "%s mode %d: server_code differs", name, m);
			CHECK_MSG(strcmp(res[m].err.message, res[0].err.message) == 0,
					  "%s mode %d: message \"%s\" vs \"%s\"", name, m, res[m].err.message,
					  res[0].err.message);
			if (!CHECK_MSG(res[m].nblocks == res[0].nblocks,
						   "%s mode %d: %" PRIu64 " blocks, all-at-once %" PRIu64,
						   name, m, res[m].nblocks, res[0].nblocks))
				continue;
			if (m > 0)
			{
				uint64_t	k;

				for (k = 0; k < res[0].nblocks && k < MAX_STREAM_BLOCKS; k++)
				{
					CHECK_MSG(res[m].hash[k] == res[0].hash[k],
							  "%s mode %d: block %" PRIu64 " differs", name, m, k);
					CHECK_MSG(res[m].start[k] == res[0].start[k],
							  "%s mode %d: block %" PRIu64 " starts at %" PRIu64 " vs %" PRIu64,
							  name, m, k, res[m].start[k], res[0].start[k]);
				}
			}
		}

		/* expected outcome and round trip */
		{
			size_t		exc = exception_offset(data, len);
			bool		is_exc = exc < len;

			CHECK_MSG(res[0].final == (is_exc ? CH_ERR_SERVER : CH_END),
					  "%s: final %s %s", name, ch_status_name(res[0].final), res[0].err.message);
			CHECK_MSG(res[0].reencode_ok, "%s: a column could not be re-encoded", name);
			CHECK_MSG(res[0].reencoded.len == exc &&
					  (exc == 0 || memcmp(res[0].reencoded.data, data, exc) == 0),
					  "%s: re-encoded blocks (%zu bytes) differ from the input (%zu bytes)",
					  name, res[0].reencoded.len, exc);
			if (res[0].nblocks <= MAX_STREAM_BLOCKS)
				CHECK_MSG(res[0].start[res[0].nblocks] == exc,
						  "%s: blocks end at %" PRIu64 ", expected %zu", name,
						  res[0].start[res[0].nblocks], exc);
		}
		for (m = 0; m < 5; m++)
			stream_result_free(&res[m]);
		free(res);
		free(data);
	}
}

/* A header-only (zero-row) block with the columns of each golden's first block. */
TEST(golden_zero_row_variants)
{
	int			gi;

	for (gi = 0; gi < NGOLDEN; gi++)
	{
		const char *name = expected_goldens[gi];
		uint8_t    *data;
		size_t		len;
		ch_native_reader *r;
		ch_native_reader *z;
		ch_block   *b = NULL;
		ch_block   *zb = NULL;
		ch_error	err;
		ch_buf		hdr;
		uint64_t	i;

		if (!golden_read(name, &data, &len))
			continue;
		r = ch_native_reader_create(NULL, false, NULL);
		z = ch_native_reader_create(NULL, false, NULL);
		ch_buf_init(&hdr, NULL);
		ch_native_reader_feed(r, data, len, &err);
		ch_native_reader_finish(r);
		if (ch_native_reader_next(r, &b, &err) == CH_OK)
		{
			bld_varuint(&hdr, b->ncols);
			bld_varuint(&hdr, 0);
			for (i = 0; i < b->ncols; i++)
			{
				ch_buf_append_string(&hdr, b->cols[i].name, b->cols[i].name_len);
				ch_buf_append_string(&hdr, b->cols[i].type_name, b->cols[i].type_name_len);
			}
			/* twice: a zero-row block is a complete block */
			bld_raw(&hdr, hdr.data, hdr.len);
			ch_native_reader_feed(z, hdr.data, hdr.len, &err);
			ch_native_reader_finish(z);
			if (CHECK_MSG(ch_native_reader_next(z, &zb, &err) == CH_OK, "%s: zero-row block: %s",
						  name, err.message))
			{
				CHECK_EQ_UINT(zb->nrows, 0);
				CHECK_EQ_UINT(zb->ncols, b->ncols);
				for (i = 0; i < zb->ncols && i < b->ncols; i++)
				{
					CHECK_EQ_MEM(zb->cols[i].name, zb->cols[i].name_len,
								 b->cols[i].name, b->cols[i].name_len);
					CHECK_EQ_MEM(zb->cols[i].type_name, zb->cols[i].type_name_len,
								 b->cols[i].type_name, b->cols[i].type_name_len);
					CHECK_MSG(zb->cols[i].type && zb->cols[i].type->kind == b->cols[i].type->kind,
							  "%s: zero-row column %" PRIu64 " kind", name, i);
					CHECK_EQ_UINT(zb->cols[i].nrows, 0);
				}
				CHECK_STATUS(ch_native_reader_next(z, &zb, &err), CH_OK);
				CHECK_STATUS(ch_native_reader_next(z, &zb, &err), CH_END);
			}
		}
		else
			CHECK_MSG(len == 0 || memcmp(data, "Code: ", 6) == 0, "%s: no first block: %s",
					  name, err.message);
		ch_buf_free(&hdr);
		ch_native_reader_free(r);
		ch_native_reader_free(z);
		free(data);
	}
}

/* Writes hexdump -C output of data into out (for comparing with .hex). */
static void
hexdump_c(ch_buf *out, const uint8_t *data, size_t len)
{
	size_t		off;
	bool		squeezing = false;
	char		line[128];

	for (off = 0; off < len; off += 16)
	{
		size_t		n = len - off < 16 ? len - off : 16;
		size_t		k = 0;
		size_t		i;

		if (off >= 16 && n == 16 && memcmp(data + off, data + off - 16, 16) == 0)
		{
			if (!squeezing)
				bld_raw(out, "*\n", 2);
			squeezing = true;
			continue;
		}
		squeezing = false;
		k += (size_t) snprintf(line + k, sizeof(line) - k, "%08zx ", off);
		for (i = 0; i < 16; i++)
		{
			if (i == 8)
				line[k++] = ' ';
			if (i < n)
				k += (size_t) snprintf(line + k, sizeof(line) - k, " %02x", data[off + i]);
			else
				k += (size_t) snprintf(line + k, sizeof(line) - k, "   ");
		}
		k += (size_t) snprintf(line + k, sizeof(line) - k, "  |");
		for (i = 0; i < n; i++)
			line[k++] = (data[off + i] >= 0x20 && data[off + i] < 0x7f) ? (char) data[off + i] : '.';
		line[k++] = '|';
		line[k++] = '\n';
		bld_raw(out, line, k);
	}
	if (len > 0)
	{
		int			k = snprintf(line, sizeof(line), "%08zx\n", len);

		bld_raw(out, line, (size_t) k);
	}
}

/*
 * Each golden of this file has .bin, .hex and .sql (first line naming the
 * server version and format). Every .bin of the directory, including
 * those other tests own, has a .hex that is exactly hexdump -C of it, and
 * a .sql or .txt saying how it was produced.
 */
TEST(golden_files_consistent)
{
	char	  **names;
	int			n = golden_names(&names);
	int			i,
				j;

	CHECK(n >= NGOLDEN);
	for (i = 0; i < n; i++)
	{
		uint8_t    *bin,
				   *hex;
		size_t		blen,
					hlen;
		ch_buf		want;
		char		path[4096];
		FILE	   *f;

		if (!golden_read(names[i], &bin, &blen))
			continue;
		CHECK_MSG(blen <= 2 * 1024 * 1024, "%s.bin is %zu bytes (more than 2 MiB)", names[i], blen);
		if (golden_read_ext(names[i], "hex", &hex, &hlen))
		{
			ch_buf_init(&want, NULL);
			hexdump_c(&want, bin, blen);
			CHECK_MSG(want.len == hlen && (hlen == 0 || memcmp(want.data, hex, hlen) == 0),
					  "%s.hex is not hexdump -C of %s.bin", names[i], names[i]);
			ch_buf_free(&want);
			free(hex);
		}
		snprintf(path, sizeof(path), "%s/v18_16/%s.sql", unit_golden_dir, names[i]);
		if ((f = fopen(path, "r")) == NULL)
		{
			snprintf(path, sizeof(path), "%s/v18_16/%s.txt", unit_golden_dir, names[i]);
			f = fopen(path, "r");
		}
		CHECK_MSG(f != NULL, "%s.bin has neither a .sql nor a .txt saying how it was produced",
				  names[i]);
		if (f)
			fclose(f);
		free(bin);
	}
	for (j = 0; j < NGOLDEN; j++)
	{
		uint8_t    *prov;
		size_t		plen;

		if (golden_read_ext(expected_goldens[j], "sql", &prov, &plen))
		{
			static const char hdr[] = "-- ClickHouse 18.16.1, HTTP FORMAT Native\n";

			CHECK_MSG(plen > sizeof(hdr) && memcmp(prov, hdr, sizeof(hdr) - 1) == 0,
					  "%s.sql does not start with the version line", expected_goldens[j]);
			CHECK_MSG(strstr((char *) prov, "FORMAT Native") != NULL,
					  "%s.sql has no FORMAT Native", expected_goldens[j]);
			free(prov);
		}
	}
	golden_names_free(names, n);
}
