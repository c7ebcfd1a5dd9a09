/*-------------------------------------------------------------------------
 * test_writer.c
 *	  Tests of the block writer (ch_writer.h): byte-exact re-encoding of the
 *	  server's goldens, known RowBinary bytes, round trips through the
 *	  reader, range checks, LowCardinality dictionaries.
 *
 * test/unit/test_writer.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <stdlib.h>

#include "ch_writer.h"

/* Append value row of a decoded column to a writer column (any type). */
static ch_status
copy_value(ch_colbuf *dst, const ch_column *src, uint64_t row, ch_error *err)
{
	const ch_type *t = src->type;
	ch_status	st;
	int			i;

	switch (t->kind)
	{
		case CH_T_NULLABLE:
			if (src->null_map[row])
				return ch_col_append_null(dst, err);
			return copy_value(dst, &src->children[0], row, err);
		case CH_T_LOWCARDINALITY:
			{
				uint64_t	k = ch_col_lc_key(src, row);

				if (src->lc_nullable && k == 0)
					return ch_col_append_null(dst, err);
				return copy_value(dst, &src->children[0], k, err);
			}
		case CH_T_STRING:
			{
				uint32_t	len;
				const uint8_t *p = ch_col_str(src, row, &len);

				return ch_col_append_bytes(dst, p, len, err);
			}
		case CH_T_FIXEDSTRING:
			return ch_col_append_bytes(dst, ch_col_fixed(src, row), t->width, err);
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			{
				uint64_t	s,
							e,
							j;

				ch_col_array_range(src, row, &s, &e);
				if ((st = ch_col_array_begin(dst, e - s, err)) != CH_OK)
					return st;
				for (j = s; j < e; j++)
					for (i = 0; i < src->nchildren; i++)
						if ((st = copy_value(ch_col_child(dst, i), &src->children[i], j, err)) != CH_OK)
							return st;
				return ch_col_array_end(dst, err);
			}
		case CH_T_TUPLE:
			for (i = 0; i < src->nchildren; i++)
				if ((st = copy_value(ch_col_child(dst, i), &src->children[i], row, err)) != CH_OK)
					return st;
			return CH_OK;
		default:
			return ch_col_append_raw(dst, ch_col_fixed(src, row), t->width, err);
	}
}

static bool
has_kind(const ch_type *t, ch_type_kind k)
{
	int			i;

	if (t->kind == k)
		return true;
	for (i = 0; i < t->nchildren; i++)
		if (has_kind(t->children[i], k))
			return true;
	return false;
}

/* Decode every block of a golden and write it again: the bytes must match. */
TEST(writer_reencodes_goldens_byte_exact)
{
	char	  **names;
	int			n = golden_names(&names);
	int			g,
				compared = 0;

	REQUIRE(n > 10);
	for (g = 0; g < n; g++)
	{
		uint8_t    *data;
		size_t		len;
		ch_native_reader *r;
		ch_block   *b;
		ch_error	err;
		ch_buf		out;
		size_t		consumed = 0;
		bool		skip = false;

		if (strncmp(names[g], "exception", 9) == 0 || strncmp(names[g], "compress", 8) == 0)
			continue;
		if (!golden_read(names[g], &data, &len))
			continue;
		r = ch_native_reader_create(NULL, false, NULL);
		ch_native_reader_feed(r, data, len, &err);
		ch_native_reader_finish(r);
		ch_buf_init(&out, NULL);
		while (ch_native_reader_next(r, &b, &err) == CH_OK)
		{
			const char **cn = calloc(b->ncols, sizeof(char *));
			const ch_type **ct = calloc(b->ncols, sizeof(ch_type *));
			ch_writer  *w;
			uint64_t	i,
						row;

			for (i = 0; i < b->ncols; i++)
			{
				char	   *nm = malloc(b->cols[i].name_len + 1);

				memcpy(nm, b->cols[i].name, b->cols[i].name_len);
				nm[b->cols[i].name_len] = '\0';
				cn[i] = nm;
				ct[i] = b->cols[i].type;
				/* Nothing / AggregateFunction cannot be written */
				if (has_kind(ct[i], CH_T_NOTHING) || has_kind(ct[i], CH_T_AGGREGATE_FUNCTION))
					skip = true;
			}
			if (!skip)
			{
				w = ch_writer_create(NULL, CH_FORMAT_NATIVE, (int) b->ncols, cn, ct, &err);
				if (!CHECK_MSG(w != NULL, "%s: writer: %s", names[g], err.message))
					skip = true;
				for (row = 0; !skip && row < b->nrows; row++)
				{
					for (i = 0; i < b->ncols; i++)
					{
						ch_status	st = copy_value(ch_writer_column(w, (int) i), &b->cols[i], row, &err);

						if (!CHECK_MSG(st == CH_OK, "%s row %llu col %llu: %s", names[g],
									   (unsigned long long) row, (unsigned long long) i, err.message))
						{
							skip = true;
							break;
						}
					}
					if (!skip)
						CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
				}
				if (!skip)
					CHECK_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
				if (w)
					ch_writer_free(w);
			}
			for (i = 0; i < b->ncols; i++)
				free((void *) cn[i]);
			free(cn);
			free(ct);
		}
		consumed = len;
		if (!skip)
		{
			compared++;
			CHECK_MSG(out.len == consumed && (len == 0 || memcmp(out.data, data, len) == 0),
					  "%s: re-encoded %zu bytes differ from the server's %zu", names[g], out.len, len);
		}
		ch_buf_free(&out);
		ch_native_reader_free(r);
		free(data);
	}
	CHECK_MSG(compared >= 15, "only %d goldens compared", compared);
	golden_names_free(names, n);
}

/* The wire doc's RowBinary example (section 2.1), verified on 18.16. */
TEST(writer_rowbinary_known_bytes)
{
	const char *pn[] = {"a", "s", "n", "n2", "arr", "t", "fs"};
	const char *tn[] = {"UInt16", "String", "Nullable(Int8)", "Nullable(Int8)",
	"Array(UInt8)", "Tuple(String, UInt8)", "FixedString(3)"};
	const ch_type *types[7];
	ch_arena	ar;
	ch_error	err;
	ch_writer  *w;
	ch_buf		out;
	int			i;
	static const uint8_t expect[] = {0x02, 0x01, 0x02, 0x68, 0x69, 0x01, 0x00, 0x05,
		0x03, 0x01, 0x02, 0x03, 0x01, 0x78, 0x07, 0x61, 0x62, 0x00};

	ch_arena_init(&ar, NULL);
	for (i = 0; i < 7; i++)
		REQUIRE_STATUS(ch_type_parse(tn[i], strlen(tn[i]), &ar, (ch_type **) &types[i], &err), CH_OK);
	w = ch_writer_create(NULL, CH_FORMAT_ROWBINARY, 7, pn, types, &err);
	REQUIRE(w != NULL);
	CHECK_STATUS(ch_col_append_uint(ch_writer_column(w, 0), 258, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_writer_column(w, 1), "hi", 2, &err), CH_OK);
	CHECK_STATUS(ch_col_append_null(ch_writer_column(w, 2), &err), CH_OK);
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 3), 5, &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 4), 3, &err), CH_OK);
	for (i = 1; i <= 3; i++)
		CHECK_STATUS(ch_col_append_int(ch_col_child(ch_writer_column(w, 4), 0), i, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 4), &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 5), 0), "x", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_int(ch_col_child(ch_writer_column(w, 5), 1), 7, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_writer_column(w, 6), "ab", 2, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	ch_buf_init(&out, NULL);
	CHECK_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
	CHECK_EQ_MEM(out.data, out.len, expect, sizeof(expect));
	CHECK_EQ_UINT(ch_writer_rows(w), 0);
	ch_buf_free(&out);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

TEST(writer_range_checks)
{
	const char *names[] = {"u8", "u32", "fs", "d", "n", "e", "d128", "f32", "i8", "u64", "dt"};
	const char *types[] = {"UInt8", "UInt32", "FixedString(3)", "Decimal(9, 2)", "Int32",
		"Enum8('a' = 1, 'b\\'c' = -2)", "Decimal(38, 2)", "Float32", "Int8", "UInt64", "Date"};
	ch_arena	ar;
	ch_writer  *w;
	ch_error	err;
	uint8_t		big[16];

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 11, names, types);
	REQUIRE(w != NULL);
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 0), 300, &err), CH_ERR_LIMIT);
	CHECK_CONTAINS(err.message, "300");
	CHECK_CONTAINS(err.message, "UInt8");
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 0), -1, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 1), -1, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_uint(ch_writer_column(w, 1), 4294967296ULL, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_bytes(ch_writer_column(w, 2), "abcd", 4, &err), CH_ERR_LIMIT);
	CHECK_CONTAINS(err.message, "FixedString(3)");
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 3), 1000000000, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 3), -999999999, &err), CH_OK);
	CHECK_STATUS(ch_col_append_null(ch_writer_column(w, 4), &err), CH_ERR_LIMIT);
	CHECK_CONTAINS(err.message, "not Nullable");
	CHECK_STATUS(ch_col_append_enum_label(ch_writer_column(w, 5), "zz", 2, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 5), 3, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_enum_label(ch_writer_column(w, 5), "b'c", 3, &err), CH_OK);
	/* 10^38 does not fit Decimal(38, 2); 10^38 - 1 does */
	{
		unsigned __int128 v = 1;
		int			i;

		for (i = 0; i < 38; i++)
			v *= 10;
		memcpy(big, &v, 16);
		CHECK_STATUS(ch_col_append_raw(ch_writer_column(w, 6), big, 16, &err), CH_ERR_LIMIT);
		v -= 1;
		memcpy(big, &v, 16);
		CHECK_STATUS(ch_col_append_raw(ch_writer_column(w, 6), big, 16, &err), CH_OK);
		v = -v;
		memcpy(big, &v, 16);
		CHECK_STATUS(ch_col_append_raw(ch_writer_column(w, 6), big, 16, &err), CH_OK);
	}
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 7), 1e300, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 7), INFINITY, &err), CH_OK);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 8), 1.0, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_col_append_uint(ch_writer_column(w, 9), UINT64_MAX, &err), CH_OK);
	CHECK_STATUS(ch_col_append_int(ch_writer_column(w, 10), 65536, &err), CH_ERR_LIMIT);
	/* the columns got uneven numbers of values: end_row says so */
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_ERR_INVALID_ARGUMENT);
	ch_writer_discard(w);
	CHECK_EQ_UINT(ch_writer_bytes(w), 0);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

/*
 * BFloat16 keeps Float32's exponent range but not its top values: a finite
 * value that rounds past the largest BFloat16 (0x7F7F, 3.3895314e38) is out
 * of range, never +-inf; the largest itself and infinities are kept.
 */
TEST(writer_bfloat16_overflow)
{
	const char *names[] = {"b"};
	const char *types[] = {"BFloat16"};
	ch_arena	ar;
	ch_writer  *w;
	ch_error	err;
	ch_buf		out;

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_ROWBINARY, 1, names, types);
	REQUIRE(w != NULL);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 0), 3.4e38, &err), CH_ERR_LIMIT);
	CHECK_CONTAINS(err.message, "BFloat16");
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 0), -3.4e38, &err), CH_ERR_LIMIT);
	/* 0x7F7F7FFF as a float rounds down to 0x7F7F, 0x7F7F8000 up (to even): inf */
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 0), 3.3961775292304677e38, &err), CH_ERR_LIMIT);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 0), 3.3895313892515355e38, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 0), 3.3961773e38, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 0), -INFINITY, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	ch_buf_init(&out, NULL);
	CHECK_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
	CHECK_EQ_UINT(out.len, 6);
	if (out.len == 6)
	{
		CHECK_EQ_UINT(out.data[0] | (out.data[1] << 8), 0x7F7F);
		CHECK_EQ_UINT(out.data[2] | (out.data[3] << 8), 0x7F7F);
		CHECK_EQ_UINT(out.data[4] | (out.data[5] << 8), 0xFF80);
	}
	ch_buf_free(&out);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

/* LowCardinality: dictionary widths by size, NULL slot, round trip. */
TEST(writer_lowcardinality_round_trip)
{
	static const uint32_t sizes[] = {3, 255, 256, 300, 65534, 70000};
	size_t		s;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	{
		const char *names[] = {"lc", "lcn"};
		const char *types[] = {"LowCardinality(String)", "LowCardinality(Nullable(String))"};
		ch_arena	ar;
		ch_writer  *w;
		ch_error	err;
		ch_buf		out;
		ch_native_reader *r;
		ch_block   *b;
		uint32_t	distinct = sizes[s];
		uint64_t	rows = distinct * 2 + 10,
					i;
		char		tmp[32];

		ch_arena_init(&ar, NULL);
		w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 2, names, types);
		REQUIRE(w != NULL);
		for (i = 0; i < rows; i++)
		{
			int			n = snprintf(tmp, sizeof(tmp), "v%llu", (unsigned long long) (i % distinct));

			CHECK_STATUS(ch_col_append_bytes(ch_writer_column(w, 0), tmp, (size_t) n, &err), CH_OK);
			if (i % 7 == 3)
				CHECK_STATUS(ch_col_append_null(ch_writer_column(w, 1), &err), CH_OK);
			else if (i % 7 == 4)
				CHECK_STATUS(ch_col_append_bytes(ch_writer_column(w, 1), "", 0, &err), CH_OK);
			else
				CHECK_STATUS(ch_col_append_bytes(ch_writer_column(w, 1), tmp, (size_t) n, &err), CH_OK);
			REQUIRE_STATUS(ch_writer_end_row(w, &err), CH_OK);
		}
		ch_buf_init(&out, NULL);
		REQUIRE_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
		r = ch_native_reader_create(NULL, false, NULL);
		ch_native_reader_feed(r, out.data, out.len, &err);
		ch_native_reader_finish(r);
		REQUIRE_STATUS(ch_native_reader_next(r, &b, &err), CH_OK);
		REQUIRE_EQ_UINT(b->nrows, rows);
		/* key width follows the dictionary size (default slot included) */
		CHECK_EQ_UINT(b->cols[0].lc_key_width, distinct + 1 <= 256 ? 1 : distinct + 1 <= 65536 ? 2 : 4);
		CHECK_EQ_UINT(b->cols[0].lc_dict_rows, distinct + 1);
		CHECK(b->cols[1].lc_nullable);
		for (i = 0; i < rows; i++)
		{
			uint32_t	len;
			const uint8_t *p;
			int			n = snprintf(tmp, sizeof(tmp), "v%llu", (unsigned long long) (i % distinct));

			p = lc_str_at(&b->cols[0], i, &len);
			if (!CHECK(p && len == (uint32_t) n && memcmp(p, tmp, len) == 0))
				break;
			p = lc_str_at(&b->cols[1], i, &len);
			if (i % 7 == 3)
				CHECK(p == NULL);
			else if (i % 7 == 4)
				CHECK(p != NULL && len == 0);
			else
				CHECK(p != NULL && len == (uint32_t) n && memcmp(p, tmp, len) == 0);
		}
		CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_END);
		ch_native_reader_free(r);
		ch_buf_free(&out);
		ch_writer_free(w);
		ch_arena_free(&ar);
	}
}

/* Every insertable composite shape round-trips through the reader. */
TEST(writer_composites_round_trip)
{
	const char *names[] = {"a", "m", "t", "an", "aa", "n"};
	const char *types[] = {"Array(String)", "Map(String, UInt64)", "Tuple(UInt8, Nullable(String))",
		"Array(Nullable(Int32))", "Array(Array(UInt8))", "Nullable(Float64)"};
	ch_arena	ar;
	ch_writer  *w;
	ch_error	err;
	ch_buf		out;
	ch_native_reader *r;
	ch_block   *b;
	uint64_t	s,
				e;

	ch_arena_init(&ar, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 6, names, types);
	REQUIRE(w != NULL);
	/* row 0 */
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 0), 2, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 0), 0), "x", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 0), 0), "", 0, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 0), &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 1), 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 1), 0), "k", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_uint(ch_col_child(ch_writer_column(w, 1), 1), 42, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 1), &err), CH_OK);
	CHECK_STATUS(ch_col_append_int(ch_col_child(ch_writer_column(w, 2), 0), 9, &err), CH_OK);
	CHECK_STATUS(ch_col_append_null(ch_col_child(ch_writer_column(w, 2), 1), &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 3), 2, &err), CH_OK);
	CHECK_STATUS(ch_col_append_null(ch_col_child(ch_writer_column(w, 3), 0), &err), CH_OK);
	CHECK_STATUS(ch_col_append_int(ch_col_child(ch_writer_column(w, 3), 0), -5, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 3), &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 4), 2, &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(ch_col_child(ch_writer_column(w, 4), 0), 0, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_col_child(ch_writer_column(w, 4), 0), &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(ch_col_child(ch_writer_column(w, 4), 0), 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_int(ch_col_child(ch_col_child(ch_writer_column(w, 4), 0), 0), 7, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_col_child(ch_writer_column(w, 4), 0), &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 4), &err), CH_OK);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 5), 2.5, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	/* row 1: defaults everywhere, NULL float */
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 0), &err), CH_OK);
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 1), &err), CH_OK);
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 2), &err), CH_OK);
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 3), &err), CH_OK);
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 4), &err), CH_OK);
	CHECK_STATUS(ch_col_append_null(ch_writer_column(w, 5), &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	/* an array that announced 2 elements but got 1 */
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 0), 2, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 0), 0), "x", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 0), &err), CH_ERR_INVALID_ARGUMENT);

	ch_buf_init(&out, NULL);
	/* flush only the two whole rows: discard the broken third */
	{
		ch_writer  *w2 = w;

		(void) w2;
	}
	ch_writer_discard(w);
	CHECK_EQ_UINT(ch_writer_rows(w), 0);
	ch_writer_free(w);

	/* again, cleanly, and decode */
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 6, names, types);
	REQUIRE(w != NULL);
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 0), 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 0), 0), "hello", 5, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 0), &err), CH_OK);
	CHECK_STATUS(ch_col_array_begin(ch_writer_column(w, 1), 2, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 1), 0), "a", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_uint(ch_col_child(ch_writer_column(w, 1), 1), 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 1), 0), "b", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_uint(ch_col_child(ch_writer_column(w, 1), 1), UINT64_MAX, &err), CH_OK);
	CHECK_STATUS(ch_col_array_end(ch_writer_column(w, 1), &err), CH_OK);
	CHECK_STATUS(ch_col_append_int(ch_col_child(ch_writer_column(w, 2), 0), 255, &err), CH_OK);
	CHECK_STATUS(ch_col_append_bytes(ch_col_child(ch_writer_column(w, 2), 1), "t", 1, &err), CH_OK);
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 3), &err), CH_OK);
	CHECK_STATUS(ch_col_append_default(ch_writer_column(w, 4), &err), CH_OK);
	CHECK_STATUS(ch_col_append_float(ch_writer_column(w, 5), -0.0, &err), CH_OK);
	CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
	REQUIRE_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
	r = ch_native_reader_create(NULL, false, NULL);
	ch_native_reader_feed(r, out.data, out.len, &err);
	ch_native_reader_finish(r);
	REQUIRE_STATUS(ch_native_reader_next(r, &b, &err), CH_OK);
	REQUIRE_EQ_UINT(b->nrows, 1);
	ch_col_array_range(&b->cols[0], 0, &s, &e);
	CHECK_EQ_UINT(e - s, 1);
	CHECK(col_str_eq(&b->cols[0].children[0], s, "hello", 5));
	ch_col_array_range(&b->cols[1], 0, &s, &e);
	CHECK_EQ_UINT(e - s, 2);
	CHECK(col_str_eq(&b->cols[1].children[0], 1, "b", 1));
	CHECK_EQ_UINT(col_u64(&b->cols[1].children[1], 1), UINT64_MAX);
	CHECK_EQ_UINT(col_u64(&b->cols[2].children[0], 0), 255);
	CHECK(!ch_col_is_null(&b->cols[2].children[1], 0));
	CHECK(col_str_eq(&b->cols[2].children[1].children[0], 0, "t", 1));
	ch_col_array_range(&b->cols[3], 0, &s, &e);
	CHECK_EQ_UINT(e - s, 0);
	CHECK(!ch_col_is_null(&b->cols[5], 0));
	{
		uint64_t	bits = ch_le64(b->cols[5].children[0].data);

		CHECK_EQ_UINT(bits, 0x8000000000000000ULL);	/* -0.0 kept */
	}
	ch_native_reader_free(r);
	ch_buf_free(&out);
	ch_writer_free(w);
	ch_arena_free(&ar);
}

TEST(writer_rejects_unwritable_types)
{
	const char *names[] = {"x"};
	const char *bad[] = {"AggregateFunction(sum, UInt64)", "Nothing", "Nullable(Nothing)",
	"Variant(String, UInt64)", "JSON", "Dynamic"};
	size_t		i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		ch_arena	ar;
		const ch_type *t;
		ch_error	err;

		ch_arena_init(&ar, NULL);
		ch_error_clear(&err);
		if (CHECK_STATUS(ch_type_parse(bad[i], strlen(bad[i]), &ar, (ch_type **) &t, &err), CH_OK))
		{
			CHECK(ch_writer_create(NULL, CH_FORMAT_NATIVE, 1, names, &t, &err) == NULL);
			CHECK_STATUS(err.code, CH_ERR_UNSUPPORTED);
		}
		ch_arena_free(&ar);
	}
}

TEST(writer_uuid_byte_order)
{
	/* 00112233-4455-6677-8899-aabbccddeeff (wire doc 1.5, verified on 18.16) */
	static const uint8_t canon[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
	static const uint8_t wire[16] = {0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00,
	0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88};
	uint8_t		w[16],
				c[16];

	ch_uuid_to_wire(canon, w);
	CHECK_EQ_MEM(w, 16, wire, 16);
	ch_uuid_from_wire(wire, c);
	CHECK_EQ_MEM(c, 16, canon, 16);
}

/*
 * Array(Tuple(...)) over several rows: the array's element count comes from
 * the tuple's first leaf (a Tuple keeps no count of its own), so the second
 * row's array is not charged with the first row's elements.
 */
TEST(writer_array_of_tuple_rows)
{
	const char *names[] = {"a"};
	const char *types[] = {"Array(Tuple(UInt8, String))"};
	ch_format	fmts[] = {CH_FORMAT_NATIVE, CH_FORMAT_ROWBINARY};
	int			f;

	for (f = 0; f < 2; f++)
	{
		ch_arena	ar;
		ch_writer  *w;
		ch_error	err;
		ch_buf		out;
		uint64_t	row,
					e;

		ch_arena_init(&ar, NULL);
		w = unit_make_writer(&ar, fmts[f], 1, names, types);
		REQUIRE(w != NULL);
		for (row = 0; row < 3; row++)
		{
			ch_colbuf  *a = ch_writer_column(w, 0);
			ch_colbuf  *t = ch_col_child(a, 0);

			CHECK_STATUS(ch_col_array_begin(a, row, &err), CH_OK);
			for (e = 0; e < row; e++)
			{
				CHECK_STATUS(ch_col_append_uint(ch_col_child(t, 0), e, &err), CH_OK);
				CHECK_STATUS(ch_col_append_bytes(ch_col_child(t, 1), "x", 1, &err), CH_OK);
			}
			CHECK_STATUS(ch_col_array_end(a, &err), CH_OK);
			CHECK_STATUS(ch_writer_end_row(w, &err), CH_OK);
		}
		ch_buf_init(&out, NULL);
		CHECK_STATUS(ch_writer_flush(w, &out, &err), CH_OK);
		if (fmts[f] == CH_FORMAT_NATIVE)
		{
			ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
			ch_block   *b;
			uint64_t	s;

			ch_native_reader_feed(r, out.data, out.len, &err);
			ch_native_reader_finish(r);
			REQUIRE_STATUS(ch_native_reader_next(r, &b, &err), CH_OK);
			REQUIRE_EQ_UINT(b->nrows, 3);
			ch_col_array_range(&b->cols[0], 2, &s, &e);
			CHECK_EQ_UINT(s, 1);
			CHECK_EQ_UINT(e, 3);
			ch_native_reader_free(r);
		}
		else
		{
			static const uint8_t expect[] = {0x00, 0x01, 0x00, 0x01, 'x',
			0x02, 0x00, 0x01, 'x', 0x01, 0x01, 'x'};

			CHECK_EQ_MEM(out.data, out.len, expect, sizeof(expect));
		}
		ch_buf_free(&out);
		ch_writer_free(w);
		ch_arena_free(&ar);
	}
}

/*
 * The append shortcuts against the generic path. In RowBinary,
 * LowCardinality(T) is invisible and, for T other than String, takes the
 * generic path, while T itself takes its shortcut: the same calls must
 * succeed or fail alike and give the same bytes. Boundary values sit on
 * both sides of every range.
 */
TEST(writer_fast_paths_match_generic)
{
	static const char *const tnames[] = {"UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16",
		"Int32", "Int64", "Bool", "Date", "Date32", "DateTime", "DateTime64(3)", "DateTime64(9)",
		"Decimal(9, 2)", "Decimal(18, 4)", "IPv4", "Float32", "Float64", "Nullable(Int32)",
	"Nullable(Float64)", "Nullable(String)"};
	static const int64_t ivals[] = {0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768,
		-32768, -32769, 65535, 65536, -25567, -25568, 120529, 120530, 999999999, 1000000000,
		-999999999, -1000000000, INT32_MAX, (int64_t) INT32_MAX + 1, INT32_MIN,
		(int64_t) INT32_MIN - 1, 4294967295LL, 4294967296LL, -2208988800000LL,
		-2208988800001LL, 10413791999999LL, 10413792000000LL, 999999999999999999LL,
	1000000000000000000LL, INT64_MAX, INT64_MIN, INT64_MIN + 1};
	static const uint64_t uvals[] = {0, 1, 255, 256, 65535, 65536, 120529, 120530, 4294967295ULL,
		4294967296ULL, 999999999999999999ULL, (uint64_t) INT64_MAX, (uint64_t) INT64_MAX + 1,
	10413791999999999999ULL, 10413792000000000000ULL, UINT64_MAX};
	static const double fvals[] = {0.0, -0.0, 1.5, -2.25, 3.4028234663852886e38, 3.5e38, -3.5e38,
	1e-50, 1e300, INFINITY, -INFINITY, NAN, 1e308};
#define NIVALS (sizeof(ivals) / sizeof(ivals[0]))
#define NUVALS (sizeof(uvals) / sizeof(uvals[0]))
#define NFVALS (sizeof(fvals) / sizeof(fvals[0]))
	size_t		t;

	for (t = 0; t < sizeof(tnames) / sizeof(tnames[0]); t++)
	{
		char		lcname[64];
		const char *names[] = {"c"};
		const char *tn[1],
				   *tl[1];
		ch_arena	ar;
		ch_writer  *w1,
				   *w2;
		ch_error	err;
		ch_buf		o1,
					o2;
		size_t		i,
					nv = NIVALS + NUVALS + NFVALS + 4,
					accepted = 0;

		snprintf(lcname, sizeof(lcname), "LowCardinality(%s)", tnames[t]);
		tn[0] = tnames[t];
		tl[0] = lcname;
		ch_arena_init(&ar, NULL);
		w1 = unit_make_writer(&ar, CH_FORMAT_ROWBINARY, 1, names, tn);
		w2 = unit_make_writer(&ar, CH_FORMAT_ROWBINARY, 1, names, tl);
		if (!CHECK_MSG(w1 && w2, "writers for %s", lcname))
		{
			ch_arena_free(&ar);
			continue;
		}
		ch_buf_init(&o1, NULL);
		ch_buf_init(&o2, NULL);
		/* one value per block: both accept it (same bytes) or both refuse it */
		for (i = 0; i < nv; i++)
		{
			ch_colbuf  *a = ch_writer_column(w1, 0);
			ch_colbuf  *b = ch_writer_column(w2, 0);
			ch_status	sa,
						sb;

			if (i < NIVALS)
			{
				sa = ch_col_append_int(a, ivals[i], &err);
				sb = ch_col_append_int(b, ivals[i], &err);
			}
			else if (i < NIVALS + NUVALS)
			{
				sa = ch_col_append_uint(a, uvals[i - NIVALS], &err);
				sb = ch_col_append_uint(b, uvals[i - NIVALS], &err);
			}
			else if (i < NIVALS + NUVALS + NFVALS)
			{
				sa = ch_col_append_float(a, fvals[i - NIVALS - NUVALS], &err);
				sb = ch_col_append_float(b, fvals[i - NIVALS - NUVALS], &err);
			}
			else if (i == nv - 4)
			{
				sa = ch_col_append_bytes(a, "abc", 3, &err);
				sb = ch_col_append_bytes(b, "abc", 3, &err);
			}
			else if (i == nv - 3)
			{
				sa = ch_col_append_bytes(a, "", 0, &err);
				sb = ch_col_append_bytes(b, "", 0, &err);
			}
			else if (i == nv - 2)
			{
				/*
				 * (Nullable(T)'s default is NULL, LowCardinality(Nullable(T))'s
				 * is T's default, as before the shortcuts: not compared.)
				 */
				if (strncmp(tnames[t], "Nullable", 8) == 0)
					continue;
				sa = ch_col_append_default(a, &err);
				sb = ch_col_append_default(b, &err);
			}
			else
			{
				sa = ch_col_append_null(a, &err);
				sb = ch_col_append_null(b, &err);
			}
			CHECK_MSG(sa == sb, "%s value %zu: shortcut %s, generic %s", tnames[t], i,
					  ch_status_name(sa), ch_status_name(sb));
			if (sa != CH_OK || sb != CH_OK)
			{
				ch_writer_discard(w1);
				ch_writer_discard(w2);
				continue;
			}
			accepted++;
			CHECK_STATUS(ch_writer_end_row(w1, &err), CH_OK);
			CHECK_STATUS(ch_writer_end_row(w2, &err), CH_OK);
			ch_buf_reset(&o1);
			ch_buf_reset(&o2);
			CHECK_STATUS(ch_writer_flush(w1, &o1, &err), CH_OK);
			CHECK_STATUS(ch_writer_flush(w2, &o2, &err), CH_OK);
			CHECK_MSG(o1.len == o2.len && memcmp(o1.data, o2.data, o1.len) == 0,
					  "%s value %zu: shortcut and generic bytes differ", tnames[t], i);
		}
		CHECK_MSG(accepted >= 3, "%s: only %zu values accepted", tnames[t], accepted);
		ch_buf_free(&o1);
		ch_buf_free(&o2);
		ch_writer_free(w1);
		ch_writer_free(w2);
		ch_arena_free(&ar);
	}
}

/* Test strings for the dictionary tests: distinct per j, 1..200 bytes. */
static size_t
dict_test_key(uint32_t j, char *buf)
{
	size_t		n = (size_t) snprintf(buf, 32, "k%u_", j);
	size_t		want = j % 11 == 0 ? 130 + j % 70 : 1 + (j * 7) % 30;

	while (n < want)
	{
		buf[n] = (char) ('a' + (j + n) % 26);
		n++;
	}
	return n;
}

static void
put_u64(ch_buf *b, uint64_t v)
{
	uint8_t		x[8];

	ch_put_le64(x, v);
	ch_buf_append(b, x, 8);
}

/*
 * LowCardinality(String) with a dictionary that grows through many rehashes
 * and past the size where lookups are deferred (prefetched), with short and
 * long keys, repeats, "" and NULL / defaults between them, over two blocks:
 * the bytes must be exactly those of a first-appearance dictionary built
 * here independently.
 */
TEST(writer_lowcardinality_large_dictionary)
{
	static const uint32_t distinct[] = {40, 300, 70000};
	size_t		d,
				nullable;

	for (nullable = 0; nullable < 2; nullable++)
		for (d = 0; d < sizeof(distinct) / sizeof(distinct[0]); d++)
		{
			const char *names[] = {"c"};
			const char *types[] = {nullable ? "LowCardinality(Nullable(String))" : "LowCardinality(String)"};
			uint32_t	D = distinct[d];
			uint64_t	rows = (uint64_t) D * 2 + 500;
			ch_arena	ar;
			ch_writer  *w;
			ch_error	err;
			int			block;
			int32_t    *first = malloc(sizeof(int32_t) * D);
			uint32_t   *keys = malloc(sizeof(uint32_t) * rows);

			REQUIRE(first && keys);
			ch_arena_init(&ar, NULL);
			w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, types);
			REQUIRE(w != NULL);
			for (block = 0; block < 2; block++)
			{
				ch_buf		out,
							expect,
							dict;
				uint32_t	nent = nullable ? 2 : 1,
							base = nent,
							kw;
				uint64_t	i;
				uint64_t	x = 0x9e3779b97f4a7c15ULL * (uint64_t) (block + 1);
				char		buf[256];

				memset(first, 0xff, sizeof(int32_t) * D);
				ch_buf_init(&out, NULL);
				ch_buf_init(&expect, NULL);
				ch_buf_init(&dict, NULL);
				/* seeded entries: (NULL slot,) default "" */
				ch_buf_append_string(&dict, "", 0);
				if (nullable)
					ch_buf_append_string(&dict, "", 0);
				for (i = 0; i < rows; i++)
				{
					ch_colbuf  *c = ch_writer_column(w, 0);
					uint32_t	sel;

					x = x * 6364136223846793005ULL + 1442695040888963407ULL;
					sel = (uint32_t) (x >> 33);
					if (sel % 97 == 0)
					{
						CHECK_STATUS(ch_col_append_bytes(c, "", 0, &err), CH_OK);
						keys[i] = base - 1;
					}
					else if (sel % 89 == 0)
					{
						CHECK_STATUS(ch_col_append_default(c, &err), CH_OK);
						keys[i] = base - 1;
					}
					else if (sel % 83 == 0 && nullable)
					{
						CHECK_STATUS(ch_col_append_null(c, &err), CH_OK);
						keys[i] = 0;
					}
					else
					{
						/* the first D rows bring every key once, in a scrambled order */
						uint32_t	j = i < D ? (uint32_t) ((i * 7919) % D) : sel % D;
						size_t		n = dict_test_key(j, buf);

						CHECK_STATUS(ch_col_append_bytes(c, buf, n, &err), CH_OK);
						if (first[j] < 0)
						{
							first[j] = (int32_t) nent++;
							ch_buf_append_string(&dict, buf, n);
						}
						keys[i] = (uint32_t) first[j];
					}
					REQUIRE_STATUS(ch_writer_end_row(w, &err), CH_OK);
				}
				REQUIRE_STATUS(ch_writer_flush(w, &out, &err), CH_OK);

				/* the block as ClickHouse writes it (wire doc 1.5) */
				ch_buf_append_varuint(&expect, 1);
				ch_buf_append_varuint(&expect, rows);
				ch_buf_append_string(&expect, names[0], strlen(names[0]));
				ch_buf_append_string(&expect, types[0], strlen(types[0]));
				put_u64(&expect, 1);
				kw = nent <= 0x100 ? 1 : nent <= 0x10000 ? 2 : 4;
				put_u64(&expect, 0x600 | (kw == 1 ? 0 : kw == 2 ? 1 : 2));
				put_u64(&expect, nent);
				ch_buf_append(&expect, dict.data, dict.len);
				put_u64(&expect, rows);
				for (i = 0; i < rows; i++)
				{
					uint8_t		k[4];

					ch_put_le32(k, keys[i]);
					ch_buf_append(&expect, k, kw);
				}
				CHECK_MSG(out.len == expect.len && memcmp(out.data, expect.data, out.len) == 0,
						  "%s, %u distinct, block %d: %zu bytes, expected %zu", types[0], D, block,
						  out.len, expect.len);
				ch_buf_free(&out);
				ch_buf_free(&expect);
				ch_buf_free(&dict);
			}
			ch_writer_free(w);
			ch_arena_free(&ar);
			free(first);
			free(keys);
		}
}
