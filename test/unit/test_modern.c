/*-------------------------------------------------------------------------
 * test_modern.c
 *	  The Native reader on the modern-engine goldens of test/golden/v26_5
 *	  (ClickHouse 26.5 via chDB, written by test/chdb/make_goldens.py; this
 *	  file only reads them): the three feeding modes agree, decodable blocks
 *	  re-encode to the exact input, undecodable types fail cleanly, and all
 *	  truncated prefixes behave as for the 18.16 goldens.
 *
 * test/unit/test_modern.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <stdlib.h>

/* Goldens whose columns the reader refuses by design (opaque types). */
static const char *const unsupported[] = {
	"aggregate_function", "dynamic", "dynamic_flattened", "json", "json_as_string",
	"json_flattened", "variant",
};

/* Known reader bugs, tested on their own (see bug_tuple_empty_placeholder). */
static const char *const known_bad[] = {"nothing"};

static bool
in_list(const char *name, const char *const *list, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

static bool
read_v26(const char *name, const char *ext, uint8_t **data, size_t *len)
{
	char		path[4096];
	FILE	   *f;
	long		sz;

	*data = NULL;
	*len = 0;
	snprintf(path, sizeof(path), "%s/v26_5/%s.%s", unit_golden_dir, name, ext);
	f = fopen(path, "rb");
	if (!f)
		return CHECK_MSG(false, "missing golden file %s", path);
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	*data = malloc((size_t) sz + 1);
	if (sz < 0 || fread(*data, 1, (size_t) sz, f) != (size_t) sz)
	{
		fclose(f);
		free(*data);
		*data = NULL;
		return CHECK_MSG(false, "cannot read %s", path);
	}
	(*data)[sz] = 0;
	*len = (size_t) sz;
	fclose(f);
	return true;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Names of the v26_5 cases whose query ends in FORMAT Native. */
static int
native_cases(char ***out)
{
	char		path[4096];
	DIR		   *d;
	struct dirent *e;
	int			n = 0;
	char	  **v = malloc(sizeof(char *) * 256);

	*out = v;
	snprintf(path, sizeof(path), "%s/v26_5", unit_golden_dir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL && n < 256)
	{
		size_t		l = strlen(e->d_name);
		uint8_t    *sql;
		size_t		slen;
		char		name[256];

		if (l < 5 || l >= sizeof(name) || strcmp(e->d_name + l - 4, ".sql") != 0)
			continue;
		memcpy(name, e->d_name, l - 4);
		name[l - 4] = '\0';
		if (!read_v26(name, "sql", &sql, &slen))
			continue;
		if (strstr((char *) sql, "\nFORMAT Native") || strstr((char *) sql, " FORMAT Native"))
			v[n++] = strdup(name);
		free(sql);
	}
	closedir(d);
	qsort(v, (size_t) n, sizeof(char *), cmp_str);
	return n;
}

TEST(modern_goldens_decode)
{
	char	  **names;
	int			n = native_cases(&names);
	int			i,
				ndecoded = 0;

	if (n == 0)
	{
		/* no input is a failure, never a quiet pass */
		CHECK_MSG(false, "no v26_5 golden cases under %s/v26_5 (missing or empty directory)",
				  unit_golden_dir);
		free(names);
		return;
	}
	CHECK(n >= 30);
	for (i = 0; i < n; i++)
	{
		uint8_t    *data;
		size_t		len;
		stream_result *r = calloc(3, sizeof(stream_result));
		bool		unsup = in_list(names[i], unsupported, sizeof(unsupported) / sizeof(unsupported[0]));
		int			m;
		uint64_t	k;

		if (in_list(names[i], known_bad, sizeof(known_bad) / sizeof(known_bad[0])) ||
			!read_v26(names[i], "bin", &data, &len))
		{
			free(r);
			continue;
		}
		decode_stream(data, len, FEED_ALL, 0, false, NULL, NULL, &r[0]);
		decode_stream(data, len, len <= 100000 ? FEED_BYTES : FEED_CHUNK, 1000, false, NULL, NULL, &r[1]);
		decode_stream(data, len, FEED_RANDOM, 3, false, NULL, NULL, &r[2]);
		for (m = 1; m < 3; m++)
		{
			CHECK_MSG(r[m].final == r[0].final && r[m].nblocks == r[0].nblocks,
					  "v26_5 %s mode %d: %s/%" PRIu64 " vs %s/%" PRIu64, names[i], m,
					  ch_status_name(r[m].final), r[m].nblocks, ch_status_name(r[0].final),
					  r[0].nblocks);
			for (k = 0; k < r[0].nblocks && k < r[m].nblocks && k < MAX_STREAM_BLOCKS; k++)
				CHECK_MSG(r[m].hash[k] == r[0].hash[k], "v26_5 %s mode %d: block %" PRIu64 " differs",
						  names[i], m, k);
			CHECK_MSG(r[m].protocol_ok, "v26_5 %s mode %d: protocol", names[i], m);
		}
		if (unsup)
		{
			CHECK_MSG(r[0].final == CH_ERR_UNSUPPORTED, "v26_5 %s: %s, expected CH_ERR_UNSUPPORTED (%s)",
					  names[i], ch_status_name(r[0].final), r[0].err.message);
			CHECK_MSG(r[0].err.column >= 0, "v26_5 %s: no column in the error", names[i]);
		}
		else
		{
			ndecoded++;
			CHECK_MSG(r[0].final == CH_END, "v26_5 %s: %s (%s)", names[i],
					  ch_status_name(r[0].final), r[0].err.message);
			CHECK_MSG(r[0].reencode_ok && r[0].reencoded.len == len &&
					  (len == 0 || memcmp(r[0].reencoded.data, data, len) == 0),
					  "v26_5 %s: re-encoded %zu bytes differ from the %zu input bytes",
					  names[i], r[0].reencoded.len, len);
			if (r[0].final == CH_END && len <= 20000)
				check_all_prefixes(names[i], data, len, false);
		}
		for (m = 0; m < 3; m++)
			stream_result_free(&r[m]);
		free(r);
		free(data);
	}
	CHECK(ndecoded >= 25);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Spot checks of values only a modern server produces. */
TEST(modern_golden_values)
{
	uint8_t    *data;
	size_t		len;
	ch_native_reader *r;
	ch_block   *b;
	ch_error	err;
	DIR		   *d;
	char		path[4096];

	snprintf(path, sizeof(path), "%s/v26_5", unit_golden_dir);
	d = opendir(path);
	if (!CHECK_MSG(d != NULL, "missing golden directory %s", path))
		return;
	closedir(d);

	/* 65536+ distinct values: UInt32 keys (flags 0x602) */
	if (read_v26("lowcard_u32", "bin", &data, &len))
	{
		r = ch_native_reader_create(NULL, false, NULL);
		ch_native_reader_feed(r, data, len, &err);
		ch_native_reader_finish(r);
		if (CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_OK))
		{
			const ch_column *c = &b->cols[0];

			CHECK_EQ_UINT(c->lc_key_width, 4);
			CHECK(c->lc_dict_rows > 65536);
			CHECK(b->nrows > 65536);
		}
		ch_native_reader_free(r);
		free(data);
	}
	/* Map(String, UInt64) and Nested (flatten_nested = 0) */
	if (read_v26("nested", "bin", &data, &len))
	{
		r = ch_native_reader_create(NULL, false, NULL);
		ch_native_reader_feed(r, data, len, &err);
		ch_native_reader_finish(r);
		if (CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_OK))
		{
			const ch_column *c = col_named(b, "n");

			if (c)
			{
				CHECK_EQ_INT(c->type->kind, CH_T_NESTED);
				CHECK_EQ_INT(c->nchildren, 2);
			}
		}
		ch_native_reader_free(r);
		free(data);
	}
}

/*
 * BUG (src/codec/ch_native_reader.c, decode_data(), "case CH_T_TUPLE:" at
 * line 459 of 094a7cf): a
 * zero-element Tuple() (modern servers: "SELECT tuple()") is written as one
 * placeholder byte per row, like Nothing (clickhouse-wire.md section 1.5,
 * "Nothing"; confirmed by test/golden/v26_5/nothing.bin from ClickHouse 26.5:
 * its t0 Tuple() column ends in "30 30" for 2 rows). The reader consumes no
 * bytes for it, so the block ends early and the placeholders are taken as
 * the next block: v26_5/nothing.bin gives CH_ERR_TRUNCATED instead of one
 * block and CH_END; with a column after the Tuple() every later value is
 * misread.
 */
TEST(bug_tuple_empty_placeholder)
{
	ch_buf		in;
	ch_native_reader *r;
	ch_block   *b;
	ch_error	err;
	ch_status	st;

	ch_buf_init(&in, NULL);
	bld_varuint(&in, 2);
	bld_varuint(&in, 2);
	bld_col(&in, "t0", "Tuple()");
	bld_raw(&in, "00", 2);		/* placeholders, as the server writes them */
	bld_col(&in, "x", "UInt8");
	bld_raw(&in, "\x07\x08", 2);
	r = ch_native_reader_create(NULL, false, NULL);
	REQUIRE(r);
	ch_error_clear(&err);
	ch_native_reader_feed(r, in.data, in.len, &err);
	ch_native_reader_finish(r);
	st = ch_native_reader_next(r, &b, &err);
	if (CHECK_MSG(st == CH_OK, "Tuple() block: %s %s", ch_status_name(st), err.message))
	{
		const ch_column *x = col_named(b, "x");

		if (x)
		{
			CHECK_EQ_UINT(col_u64(x, 0), 7);
			CHECK_EQ_UINT(col_u64(x, 1), 8);
		}
		CHECK_STATUS(ch_native_reader_next(r, &b, &err), CH_END);
	}
	ch_native_reader_free(r);
	ch_buf_free(&in);

	/* the real thing */
	{
		uint8_t    *data;
		size_t		len;
		stream_result *res;
		char		path[4096];
		DIR		   *d;

		snprintf(path, sizeof(path), "%s/v26_5", unit_golden_dir);
		if (!CHECK_MSG((d = opendir(path)) != NULL, "missing golden directory %s", path))
			return;
		closedir(d);
		if (!read_v26("nothing", "bin", &data, &len))
			return;
		res = calloc(1, sizeof(stream_result));
		decode_stream(data, len, FEED_ALL, 0, false, NULL, NULL, res);
		CHECK_MSG(res->final == CH_END && res->nblocks == 1, "v26_5 nothing: %s after %" PRIu64 " blocks (%s)",
				  ch_status_name(res->final), res->nblocks, res->err.message);
		stream_result_free(res);
		free(res);
		free(data);
	}
}
