/*-------------------------------------------------------------------------
 * test_compress.c
 *	  CityHash128 v1.0.2 and ClickHouse compressed frames (ch_compress.h):
 *	  test vectors, worked examples, round trips, chunked feeding, bit
 *	  flips, truncation, limits checked before allocation, allocation
 *	  failures, and frames captured from the 18.16 server and client
 *	  (test/golden/v18_16/compress_*.bin).
 *
 * test/unit/test_compress.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include "ch_compress.h"

#include <stdlib.h>

#include <lz4.h>

/* ---- helpers ---- */

typedef struct sink_state
{
	ch_buf		out;			/* everything the sink received */
	uint64_t	calls;
	uint64_t	fail_at_call;	/* 1-based call that fails; 0: never */
	ch_status	fail_with;
} sink_state;

static void
sink_init(sink_state *s)
{
	memset(s, 0, sizeof(*s));
	ch_buf_init(&s->out, NULL);
}

static ch_status
collect(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	sink_state *s = ctx;

	s->calls++;
	if (s->fail_at_call != 0 && s->calls == s->fail_at_call)
		return ch_error_set(err, s->fail_with, "sink refuses call %" PRIu64, s->calls);
	CHECK(len > 0);
	if (ch_buf_append(&s->out, data, len) != CH_OK)
		return ch_error_set(err, CH_ERR_NOMEM, "sink out of memory");
	return CH_OK;
}

typedef enum chunking
{
	CHUNK_ALL,
	CHUNK_BYTES,
	CHUNK_RANDOM
} chunking;

/*
 * Decode data[0..len) fed as chunking says, then finish. Returns the first
 * non-OK status (of feed or finish), CH_OK if none. The sink's bytes are in
 * s->out. a may be NULL.
 */
static ch_status
decode_all(const uint8_t *data, size_t len, chunking mode, uint64_t seed,
		   const ch_allocator *a, sink_state *s, ch_error *err)
{
	ch_decompressor *d = ch_decompressor_create(a);
	size_t		pos = 0;
	ch_status	st = CH_OK;

	ch_error_clear(err);
	if (d == NULL)
		return CH_ERR_NOMEM;
	while (pos < len && st == CH_OK)
	{
		size_t		n = len - pos;

		if (mode == CHUNK_BYTES)
			n = 1;
		else if (mode == CHUNK_RANDOM)
		{
			uint64_t	x = unit_rand(&seed);

			n = (x & 1) ? 1 + (size_t) ((x >> 8) % 40) : 1 + (size_t) ((x >> 8) % 100000);
			if (n > len - pos)
				n = len - pos;
		}
		st = ch_decompressor_feed(d, data + pos, n, collect, s, err);
		pos += n;
	}
	if (st == CH_OK)
		st = ch_decompressor_finish(d, err);
	else
		/* errors are sticky: finish reports the same one */
		CHECK_STATUS(ch_decompressor_finish(d, NULL), st);
	ch_decompressor_free(d);
	return st;
}

/* Fill with pseudo-random bytes. */
static void
fill_random(uint8_t *p, size_t n, uint64_t seed)
{
	size_t		i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t) (unit_rand(&seed) >> 56);
}

/* Fill with text-like, compressible bytes. */
static void
fill_compressible(uint8_t *p, size_t n, uint64_t seed)
{
	static const char *const words[] = {"select ", "number ", "from ", "system.numbers ",
	"where ", "1234567 ", "\x00\x00\x00\x00\x00\x00\x00\x01", "clickhouse\n"};
	size_t		i = 0;

	while (i < n)
	{
		const char *w = words[unit_rand(&seed) % 8];
		size_t		wl = (w[0] == '\0') ? 8 : strlen(w);

		while (wl-- > 0 && i < n)
			p[i++] = (uint8_t) *w++;
	}
}

/* A frame with a correct checksum around an arbitrary header and payload. */
static void
make_frame(ch_buf *out, uint8_t method, uint32_t dsize, const void *payload, size_t plen)
{
	uint8_t		h[CH_FRAME_OVERHEAD];
	size_t		start = out->len;
	uint64_t	lo,
				hi;

	memset(h, 0, sizeof(h));
	h[16] = method;
	ch_put_le32(h + 17, (uint32_t) (plen + CH_FRAME_HEADER_SIZE));
	ch_put_le32(h + 21, dsize);
	bld_raw(out, h, sizeof(h));
	if (plen > 0)
		bld_raw(out, payload, plen);
	ch_cityhash128(out->data + start + 16, plen + CH_FRAME_HEADER_SIZE, &lo, &hi);
	ch_put_le64(out->data + start, lo);
	ch_put_le64(out->data + start + 8, hi);
}

/* Verify every frame's stored checksum by hand; returns the frame count. */
static int
walk_frames(const uint8_t *data, size_t len, const char *what)
{
	size_t		pos = 0;
	int			n = 0;

	while (pos < len)
	{
		uint32_t	csize;
		uint64_t	lo,
					hi;

		if (!CHECK_MSG(len - pos >= CH_FRAME_OVERHEAD, "%s: short frame at %zu", what, pos))
			return n;
		csize = ch_le32(data + pos + 17);
		if (!CHECK_MSG(csize >= 9 && len - pos - 16 >= csize, "%s: bad size at %zu", what, pos))
			return n;
		ch_cityhash128(data + pos + 16, csize, &lo, &hi);
		CHECK_MSG(lo == ch_le64(data + pos) && hi == ch_le64(data + pos + 8),
				  "%s: frame %d checksum %016" PRIx64 "%016" PRIx64 " computed %016" PRIx64 "%016" PRIx64,
				  what, n, ch_le64(data + pos), ch_le64(data + pos + 8), lo, hi);
		pos += 16 + (size_t) csize;
		n++;
	}
	return n;
}

static const char *const method_names[] = {"NONE", "LZ4", "ZSTD"};
static const uint8_t method_bytes[] = {0x02, 0x82, 0x90};

/* ---- CityHash128 ---- */

typedef struct city_vector
{
	const char *input;
	size_t		len;
	uint64_t	lo;
	uint64_t	hi;
} city_vector;

/* clickhouse-wire.md section 3.5; NULL input means bytes 0x00, 0x01, ... */
static const city_vector city_vectors[] = {
	{"", 0, UINT64_C(0x3df09dfc64c09a2b), UINT64_C(0x3cb540c392e51e29)},
	{"a", 1, UINT64_C(0xd27139a1afe01ad0), UINT64_C(0xfd7e8ee2e4c86cf6)},
	{"abc", 3, UINT64_C(0x900ff195577748fe), UINT64_C(0x13a9176355b20d7e)},
	{"ClickHouse", 10, UINT64_C(0x3704cc81c00bb612), UINT64_C(0x76d43ac4baf91402)},
	{NULL, 16, UINT64_C(0x17ceade677c2f945), UINT64_C(0x579ed60675c8fedc)},
	{NULL, 32, UINT64_C(0xfe71590c670b561d), UINT64_C(0x498f5b464f875a30)},
	{NULL, 128, UINT64_C(0x7def035b54925590), UINT64_C(0xde34765c4aca9038)},
	{NULL, 256, UINT64_C(0x327bb07ec0345a9b), UINT64_C(0xfb45ef5cb037bd93)},
	{"\x02\x13\x00\x00\x00\x0a\x00\x00\x00\x01\x00\x02\xff\xff\xff\xff\x00\x00\x00", 19,
	UINT64_C(0x00e969c1a18994bb), UINT64_C(0x74646a9568f1afec)},
	{"\x82\x14\x00\x00\x00\x0a\x00\x00\x00\xa0\x01\x00\x02\xff\xff\xff\xff\x00\x00\x00", 20,
	UINT64_C(0x7c7a5cd56cac83a7), UINT64_C(0x14e286dbbd46acb5)},
};

#define NCITY (sizeof(city_vectors) / sizeof(city_vectors[0]))

TEST(cityhash128_test_vectors)
{
	uint8_t		seq[256];
	size_t		i;

	for (i = 0; i < sizeof(seq); i++)
		seq[i] = (uint8_t) i;
	for (i = 0; i < NCITY; i++)
	{
		const city_vector *v = &city_vectors[i];
		const void *p = v->input ? (const void *) v->input : (const void *) seq;
		uint64_t	lo = 0,
					hi = 0;

		ch_cityhash128(p, v->len, &lo, &hi);
		CHECK_MSG(lo == v->lo && hi == v->hi,
				  "vector %zu (len %zu): got %016" PRIx64 " %016" PRIx64 ", want %016" PRIx64 " %016" PRIx64,
				  i, v->len, lo, hi, v->lo, v->hi);
	}
	/* NULL is fine for an empty input */
	{
		uint64_t	lo,
					hi;

		ch_cityhash128(NULL, 0, &lo, &hi);
		CHECK_EQ_UINT(lo, city_vectors[0].lo);
		CHECK_EQ_UINT(hi, city_vectors[0].hi);
	}
}

/* The result depends only on the bytes, not on their alignment. */
TEST(cityhash128_alignment_independent)
{
	uint8_t    *buf = malloc(4096 + 16);
	uint8_t		src[4096];
	size_t		lens[] = {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 127, 128, 129, 143,
	144, 145, 200, 255, 256, 257, 1000, 4096};
	size_t		i;
	int			shift;

	REQUIRE(buf != NULL);
	fill_random(src, sizeof(src), 42);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
	{
		uint64_t	lo0,
					hi0;

		ch_cityhash128(src, lens[i], &lo0, &hi0);
		for (shift = 1; shift < 16; shift++)
		{
			uint64_t	lo,
						hi;

			memcpy(buf + shift, src, lens[i]);
			ch_cityhash128(buf + shift, lens[i], &lo, &hi);
			CHECK_MSG(lo == lo0 && hi == hi0, "len %zu shift %d differs", lens[i], shift);
		}
	}
	free(buf);
}

/*
 * Every byte influences the result: for lengths around the branch points,
 * changing any single byte changes the hash (catches reads of the wrong
 * tail or skipped chunks).
 */
TEST(cityhash128_every_byte_counts)
{
	uint8_t		src[600];
	size_t		lens[] = {1, 3, 4, 8, 12, 16, 17, 24, 32, 33, 100, 127, 128, 143, 144,
	145, 160, 200, 271, 272, 273, 300, 400, 600};
	size_t		i,
				j;

	fill_random(src, sizeof(src), 7);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
	{
		uint64_t	lo0,
					hi0;

		ch_cityhash128(src, lens[i], &lo0, &hi0);
		for (j = 0; j < lens[i]; j++)
		{
			uint64_t	lo,
						hi;

			src[j] ^= 0x01;
			ch_cityhash128(src, lens[i], &lo, &hi);
			src[j] ^= 0x01;
			CHECK_MSG(lo != lo0 || hi != hi0, "len %zu: byte %zu does not count", lens[i], j);
		}
		/* and the byte just past the end does not */
		{
			uint64_t	lo,
						hi;

			src[lens[i] % sizeof(src)] ^= 0x80;
			ch_cityhash128(src, lens[i], &lo, &hi);
			src[lens[i] % sizeof(src)] ^= 0x80;
			if (lens[i] < sizeof(src))
				CHECK_MSG(lo == lo0 && hi == hi0, "len %zu: reads past the end", lens[i]);
		}
	}
}

/* ---- frames: worked examples (section 3.6) ---- */

static const uint8_t empty_block[] = {0x01, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00};

#define LZ4_EMPTY_FRAME \
	"\xa7\x83\xac\x6c\xd5\x5c\x7a\x7c\xb5\xac\x46\xbd\xdb\x86\xe2\x14" \
	"\x82\x14\x00\x00\x00\x0a\x00\x00\x00" \
	"\xa0\x01\x00\x02\xff\xff\xff\xff\x00\x00\x00"
#define NONE_EMPTY_FRAME \
	"\xbb\x94\x89\xa1\xc1\x69\xe9\x00\xec\xaf\xf1\x68\x95\x6a\x64\x74" \
	"\x02\x13\x00\x00\x00\x0a\x00\x00\x00" \
	"\x01\x00\x02\xff\xff\xff\xff\x00\x00\x00"

TEST(frame_worked_examples)
{
	ch_buf		b;
	ch_error	err;
	sink_state	s;

	ch_buf_init(&b, NULL);
	CHECK_STATUS(ch_compress_frame(&b, CH_COMPRESS_LZ4, 0, empty_block, sizeof(empty_block), &err),
				 CH_OK);
	CHECK_EQ_BYTES(b.data, b.len, LZ4_EMPTY_FRAME);
	ch_buf_reset(&b);
	CHECK_STATUS(ch_compress_frame(&b, CH_COMPRESS_NONE, 0, empty_block, sizeof(empty_block), &err),
				 CH_OK);
	CHECK_EQ_BYTES(b.data, b.len, NONE_EMPTY_FRAME);
	/* ch_compress_frames gives the same single frame */
	ch_buf_reset(&b);
	CHECK_STATUS(ch_compress_frames(&b, CH_COMPRESS_LZ4, 0, empty_block, sizeof(empty_block), &err),
				 CH_OK);
	CHECK_EQ_BYTES(b.data, b.len, LZ4_EMPTY_FRAME);
	ch_buf_free(&b);

	/* and both decode back; the 18-byte literal run of the 18.16 header block */
	sink_init(&s);
	CHECK_STATUS(decode_all((const uint8_t *) LZ4_EMPTY_FRAME NONE_EMPTY_FRAME,
							sizeof(LZ4_EMPTY_FRAME NONE_EMPTY_FRAME) - 1, CHUNK_ALL, 0, NULL,
							&s, &err), CH_OK);
	CHECK_EQ_BYTES(s.out.data, s.out.len,
				   "\x01\x00\x02\xff\xff\xff\xff\x00\x00\x00\x01\x00\x02\xff\xff\xff\xff\x00\x00\x00");
	CHECK_EQ_UINT(s.calls, 2);
	ch_buf_free(&s.out);
}

/* ---- round trips ---- */

static const size_t rt_sizes[] = {0, 1, 15, 16, 127, 128, 129, 1000, 65536, (1 << 20) + 7};

#define NRT (sizeof(rt_sizes) / sizeof(rt_sizes[0]))

/* Check the header fields of the frames in data; returns the frame count. */
static int
check_frame_headers(const uint8_t *data, size_t len, uint8_t method, size_t plain_len,
					const char *what)
{
	size_t		pos = 0;
	size_t		total = 0;
	int			n = 0;

	while (pos + CH_FRAME_OVERHEAD <= len)
	{
		uint32_t	csize = ch_le32(data + pos + 17);
		uint32_t	dsize = ch_le32(data + pos + 21);

		CHECK_MSG(data[pos + 16] == method, "%s: method 0x%02x", what, data[pos + 16]);
		CHECK_MSG(dsize <= CH_FRAME_CHUNK, "%s: frame of %" PRIu32 " bytes", what, dsize);
		if (method == CH_METHOD_BYTE_NONE)
			CHECK_MSG(csize == dsize + 9, "%s: NONE sizes %" PRIu32 " %" PRIu32, what, csize, dsize);
		total += dsize;
		pos += 16 + (size_t) csize;
		n++;
	}
	CHECK_MSG(pos == len, "%s: frames end at %zu of %zu", what, pos, len);
	CHECK_MSG(total == plain_len, "%s: frames hold %zu of %zu bytes", what, total, plain_len);
	return n;
}

TEST(frame_round_trips)
{
	size_t		maxlen = rt_sizes[NRT - 1];
	uint8_t    *src = malloc(maxlen);
	int			m,
				kind;
	size_t		si;

	REQUIRE(src != NULL);
	for (kind = 0; kind < 2; kind++)
	{
		if (kind == 0)
			fill_random(src, maxlen, 1);
		else
			fill_compressible(src, maxlen, 2);
		for (m = 0; m < 3; m++)
		{
			for (si = 0; si < NRT; si++)
			{
				size_t		len = rt_sizes[si];
				int			how;

				for (how = 0; how < 2; how++)
				{
					ch_buf		b;
					ch_error	err;
					char		what[128];
					chunking	mode;
					ch_status	st;
					int			nframes;

					snprintf(what, sizeof(what), "%s %s %s len %zu", method_names[m],
							 kind ? "compressible" : "random",
							 how ? "ch_compress_frames" : "ch_compress_frame", len);
					ch_buf_init(&b, NULL);
					st = how ? ch_compress_frames(&b, (ch_compress_method) m, m == 2 ? 3 : 0,
												  src, len, &err)
						: ch_compress_frame(&b, (ch_compress_method) m, m == 2 ? 3 : 0,
											src, len, &err);
					if (!CHECK_MSG(st == CH_OK, "%s: %s %s", what, ch_status_name(st), err.message))
					{
						ch_buf_free(&b);
						continue;
					}
					nframes = walk_frames(b.data, b.len, what);
					if (how == 0)
					{
						CHECK_MSG(nframes == 1, "%s: %d frames", what, nframes);
						CHECK_EQ_UINT(ch_le32(b.data + 21), len);
						CHECK_EQ_UINT(ch_le32(b.data + 17) + 16, b.len);
						CHECK_EQ_UINT(b.data[16], method_bytes[m]);
					}
					else
					{
						CHECK_MSG((size_t) nframes == (len + CH_FRAME_CHUNK - 1) / CH_FRAME_CHUNK,
								  "%s: %d frames", what, nframes);
						check_frame_headers(b.data, b.len, method_bytes[m], len, what);
					}
					if (kind == 1 && m != 0 && len >= 1000)
						CHECK_MSG(b.len < len / 2, "%s: compressible data only got to %zu bytes",
								  what, b.len);

					for (mode = CHUNK_ALL; mode <= CHUNK_RANDOM; mode++)
					{
						sink_state	s;

						/* 1-byte feeding of the big one once per method is enough */
						if (mode == CHUNK_BYTES && len > 65536 && (kind != 0 || how != 1))
							continue;
						sink_init(&s);
						st = decode_all(b.data, b.len, mode, len + (uint64_t) m, NULL, &s, &err);
						CHECK_MSG(st == CH_OK, "%s mode %d: %s %s", what, (int) mode,
								  ch_status_name(st), err.message);
						CHECK_MSG(s.out.len == len && (len == 0 || memcmp(s.out.data, src, len) == 0),
								  "%s mode %d: %zu bytes back, not the input", what, (int) mode,
								  s.out.len);
						ch_buf_free(&s.out);
					}
					ch_buf_free(&b);
				}
			}
		}
	}
	free(src);
}

/* One stream mixing all methods and sizes decodes the same however it is cut. */
TEST(frame_stream_chunking_agrees)
{
	uint8_t    *src = malloc(300000);
	ch_buf		b;
	ch_error	err;
	sink_state	ref;
	size_t		pos = 0;
	uint64_t	rng = 99;
	int			i;
	uint64_t	seed;

	REQUIRE(src != NULL);
	fill_compressible(src, 150000, 5);
	fill_random(src + 150000, 150000, 6);
	ch_buf_init(&b, NULL);
	for (i = 0; pos < 300000; i++)
	{
		size_t		n = (size_t) (unit_rand(&rng) % 20000);

		if (n > 300000 - pos)
			n = 300000 - pos;
		REQUIRE_STATUS(ch_compress_frame(&b, (ch_compress_method) (i % 3), 1, src + pos, n, &err),
					   CH_OK);
		pos += n;
	}
	sink_init(&ref);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &ref, &err), CH_OK);
	CHECK_EQ_MEM(ref.out.data, ref.out.len, src, (size_t) 300000);
	{
		sink_state	s;

		sink_init(&s);
		CHECK_STATUS(decode_all(b.data, b.len, CHUNK_BYTES, 0, NULL, &s, &err), CH_OK);
		CHECK_EQ_MEM(s.out.data, s.out.len, ref.out.data, ref.out.len);
		ch_buf_free(&s.out);
	}
	for (seed = 1; seed <= 20; seed++)
	{
		sink_state	s;

		sink_init(&s);
		CHECK_STATUS(decode_all(b.data, b.len, CHUNK_RANDOM, seed, NULL, &s, &err), CH_OK);
		CHECK_MSG(s.out.len == ref.out.len && memcmp(s.out.data, ref.out.data, s.out.len) == 0,
				  "seed %" PRIu64 ": output differs", seed);
		ch_buf_free(&s.out);
	}
	ch_buf_free(&ref.out);
	ch_buf_free(&b);
	free(src);
}

/* ch_compress_frames cuts at CH_FRAME_CHUNK; len 0 appends nothing. */
TEST(frames_split_into_chunks)
{
	size_t		len = 3 * CH_FRAME_CHUNK + 5;
	uint8_t    *src = malloc(len);
	ch_buf		b;
	ch_error	err;
	size_t		pos = 0;
	int			n = 0;

	REQUIRE(src != NULL);
	fill_compressible(src, len, 3);
	ch_buf_init(&b, NULL);
	CHECK_STATUS(ch_compress_frames(&b, CH_COMPRESS_LZ4, 0, src, len, &err), CH_OK);
	while (pos + CH_FRAME_OVERHEAD <= b.len)
	{
		CHECK_EQ_UINT(ch_le32(b.data + pos + 21), n < 3 ? CH_FRAME_CHUNK : 5);
		pos += 16 + (size_t) ch_le32(b.data + pos + 17);
		n++;
	}
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_UINT(pos, b.len);

	/* appends to what is there */
	ch_buf_reset(&b);
	bld_raw(&b, "xyz", 3);
	CHECK_STATUS(ch_compress_frames(&b, CH_COMPRESS_NONE, 0, NULL, 0, &err), CH_OK);
	CHECK_EQ_UINT(b.len, 3);
	CHECK_STATUS(ch_compress_frames(&b, CH_COMPRESS_ZSTD, 0, "abc", 3, &err), CH_OK);
	CHECK_EQ_BYTES(b.data, 3, "xyz");
	CHECK_EQ_UINT(ch_le32(b.data + 3 + 21), 3);
	CHECK_EQ_UINT(b.data[3 + 16], 0x90);
	ch_buf_free(&b);
	free(src);
}

/* ---- corruption ---- */

/*
 * The status a single-bit flip in frame f (of length flen) must give, as
 * computed from the damaged header: sizes first, then the checksum.
 */
static ch_status
expected_for_flip(const uint8_t *f, size_t flen)
{
	uint32_t	csize = ch_le32(f + 17);
	uint32_t	dsize = ch_le32(f + 21);

	if (csize < 9)
		return CH_ERR_MALFORMED;
	if (csize > CH_FRAME_MAX_COMPRESSED || dsize > CH_FRAME_MAX_DECOMPRESSED)
		return CH_ERR_LIMIT;
	if (16 + (size_t) csize > flen)
		return CH_ERR_TRUNCATED;	/* waits for bytes that never come */
	return CH_ERR_CHECKSUM;
}

TEST(frame_every_bit_flip_detected)
{
	uint8_t		src[300];
	int			m;

	fill_compressible(src, 200, 11);
	fill_random(src + 200, 100, 12);
	for (m = 0; m < 3; m++)
	{
		ch_buf		good;
		ch_buf		frame;
		ch_error	err;
		size_t		bit;
		int			nchecksum = 0;

		/* an intact frame first, so err->offset and "no wrong output" are checked */
		ch_buf_init(&good, NULL);
		ch_buf_init(&frame, NULL);
		REQUIRE_STATUS(ch_compress_frame(&good, (ch_compress_method) m, 1, "prefix", 6, &err),
					   CH_OK);
		REQUIRE_STATUS(ch_compress_frame(&frame, (ch_compress_method) m, 1, src, sizeof(src), &err),
					   CH_OK);
		for (bit = 0; bit < frame.len * 8; bit++)
		{
			ch_buf		stream;
			sink_state	s;
			ch_status	want;
			ch_status	st;
			count_alloc ca;
			chunking	mode;

			ch_buf_init(&stream, NULL);
			bld_raw(&stream, good.data, good.len);
			bld_raw(&stream, frame.data, frame.len);
			stream.data[good.len + bit / 8] ^= (uint8_t) (1u << (bit % 8));
			want = expected_for_flip(stream.data + good.len, frame.len);
			for (mode = CHUNK_ALL; mode <= CHUNK_RANDOM; mode++)
			{
				count_alloc_init(&ca, 0);
				sink_init(&s);
				st = decode_all(stream.data, stream.len, mode, bit, &ca.a, &s, &err);
				if (!CHECK_MSG(st == want, "%s bit %zu mode %d: %s (%s), expected %s",
							   method_names[m], bit, (int) mode, ch_status_name(st), err.message,
							   ch_status_name(want)))
					break;
				/* never wrong output: exactly the intact frame's bytes */
				CHECK_MSG(s.out.len == 6 && memcmp(s.out.data, "prefix", 6) == 0,
						  "%s bit %zu: sink got %zu bytes", method_names[m], bit, s.out.len);
				CHECK_MSG(err.offset == (int64_t) good.len, "%s bit %zu: offset %" PRId64,
						  method_names[m], bit, err.offset);
				/* nothing big allocated for a damaged header */
				CHECK_MSG(ca.largest <= 256 * 1024, "%s bit %zu: allocated %zu bytes",
						  method_names[m], bit, ca.largest);
				CHECK_EQ_UINT(ca.live, 0);
				ch_buf_free(&s.out);
			}
			if (want == CH_ERR_CHECKSUM)
				nchecksum++;
			ch_buf_free(&stream);
		}
		/* almost all flips are caught by the checksum itself */
		CHECK_MSG(nchecksum > (int) (frame.len * 8) - 64, "%s: only %d checksum errors",
				  method_names[m], nchecksum);
		ch_buf_free(&good);
		ch_buf_free(&frame);
	}
}

/* The message gives both checksums as hex lo/hi. */
TEST(frame_checksum_error_message)
{
	ch_buf		b;
	ch_error	err;
	sink_state	s;
	char		want[128];
	uint64_t	lo,
				hi;

	ch_buf_init(&b, NULL);
	REQUIRE_STATUS(ch_compress_frame(&b, CH_COMPRESS_LZ4, 0, empty_block, sizeof(empty_block), &err),
				   CH_OK);
	ch_cityhash128(b.data + 16, b.len - 16, &lo, &hi);
	ch_put_le64(b.data, UINT64_C(0x0123456789abcdef));
	ch_put_le64(b.data + 8, UINT64_C(0xfedcba9876543210));
	sink_init(&s);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_CHECKSUM);
	CHECK_STATUS(err.code, CH_ERR_CHECKSUM);
	CHECK_CONTAINS(err.message, "expected lo 0123456789abcdef hi fedcba9876543210");
	snprintf(want, sizeof(want), "computed lo %016" PRIx64 " hi %016" PRIx64, lo, hi);
	CHECK_CONTAINS(err.message, want);
	CHECK_CONTAINS(err.message, "computed lo 7c7a5cd56cac83a7 hi 14e286dbbd46acb5");
	CHECK_EQ_INT(err.offset, 0);
	CHECK_EQ_UINT(s.calls, 0);
	ch_buf_free(&b);
}

/* Every proper prefix that ends inside a frame is CH_ERR_TRUNCATED at finish. */
TEST(frame_truncated_prefixes)
{
	uint8_t		src[3000];
	ch_buf		b;
	ch_error	err;
	size_t		bounds[8];
	size_t		plain_at[8];
	int			nb = 0;
	int			m;
	size_t		p;

	fill_compressible(src, sizeof(src), 21);
	ch_buf_init(&b, NULL);
	bounds[nb] = 0;
	plain_at[nb++] = 0;
	for (m = 0; m < 3; m++)
	{
		REQUIRE_STATUS(ch_compress_frame(&b, (ch_compress_method) m, 3, src + m * 1000, 1000, &err),
					   CH_OK);
		bounds[nb] = b.len;
		plain_at[nb++] = (size_t) (m + 1) * 1000;
	}
	/* plus an empty frame */
	REQUIRE_STATUS(ch_compress_frame(&b, CH_COMPRESS_LZ4, 0, NULL, 0, &err), CH_OK);
	bounds[nb] = b.len;
	plain_at[nb++] = 3000;

	for (p = 0; p <= b.len; p++)
	{
		int			k;
		int			at_bound = -1;
		int			whole = 0;
		chunking	mode;

		for (k = 0; k < nb; k++)
		{
			if (bounds[k] == p)
				at_bound = k;
			if (bounds[k] <= p)
				whole = k;
		}
		for (mode = CHUNK_ALL; mode <= CHUNK_BYTES; mode++)
		{
			sink_state	s;
			ch_status	st;

			sink_init(&s);
			st = decode_all(b.data, p, mode, 0, NULL, &s, &err);
			if (at_bound >= 0)
				CHECK_MSG(st == CH_OK, "prefix %zu: %s %s", p, ch_status_name(st), err.message);
			else
			{
				CHECK_MSG(st == CH_ERR_TRUNCATED, "prefix %zu: %s", p, ch_status_name(st));
				CHECK_EQ_INT(err.offset, (int64_t) bounds[whole]);
			}
			/* exactly the complete frames were delivered */
			CHECK_MSG(s.out.len == plain_at[whole] &&
					  (s.out.len == 0 || memcmp(s.out.data, src, s.out.len) == 0),
					  "prefix %zu: %zu bytes delivered, expected %zu", p, s.out.len,
					  plain_at[whole]);
			ch_buf_free(&s.out);
		}
	}
	ch_buf_free(&b);
}

/* ---- limits, checked before anything is allocated ---- */

static void
header_bytes(uint8_t *h, uint8_t method, uint32_t csize, uint32_t dsize)
{
	memset(h, 0x5a, 16);
	h[16] = method;
	ch_put_le32(h + 17, csize);
	ch_put_le32(h + 21, dsize);
}

TEST(frame_size_limits_before_allocation)
{
	static const struct
	{
		uint32_t	csize;
		uint32_t	dsize;
		ch_status	want;
		size_t		need;		/* bytes after which the error is known */
	}			cases[] = {
		{0, 10, CH_ERR_MALFORMED, 21},
		{1, 10, CH_ERR_MALFORMED, 21},
		{8, 0, CH_ERR_MALFORMED, 21},
		{UINT32_C(0x40000001), 10, CH_ERR_LIMIT, 21},
		{UINT32_C(0x80000000), 10, CH_ERR_LIMIT, 21},
		{UINT32_MAX, 10, CH_ERR_LIMIT, 21},
		{20, UINT32_C(0x40000001), CH_ERR_LIMIT, 25},
		{20, UINT32_MAX, CH_ERR_LIMIT, 25},
	};
	size_t		i;
	int			m;

	for (m = 0; m < 3; m++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		{
			uint8_t		h[64];
			count_alloc ca;
			ch_decompressor *d;
			ch_error	err;
			sink_state	s;
			uint64_t	nalloc;
			size_t		k;
			ch_status	st = CH_OK;

			memset(h, 0, sizeof(h));
			header_bytes(h, method_bytes[m], cases[i].csize, cases[i].dsize);
			count_alloc_init(&ca, 0);
			d = ch_decompressor_create(&ca.a);
			REQUIRE(d != NULL);
			nalloc = ca.nalloc;
			sink_init(&s);
			ch_error_clear(&err);
			/* byte by byte: the error comes as soon as the field is complete */
			for (k = 0; k < sizeof(h) && st == CH_OK; k++)
			{
				st = ch_decompressor_feed(d, h + k, 1, collect, &s, &err);
				if (st == CH_OK)
					CHECK_MSG(k + 1 < cases[i].need, "case %zu: nothing after %zu bytes", i, k + 1);
			}
			CHECK_MSG(st == cases[i].want, "case %zu: %s", i, ch_status_name(st));
			CHECK_EQ_UINT(k, cases[i].need);
			CHECK_EQ_UINT(ca.nalloc, nalloc);
			CHECK_EQ_UINT(s.calls, 0);
			CHECK_EQ_INT(err.offset, 0);
			ch_decompressor_free(d);
			CHECK_EQ_UINT(ca.live, 0);

			/* all at once, after an intact frame */
			{
				ch_buf		b;

				ch_buf_init(&b, NULL);
				REQUIRE_STATUS(ch_compress_frame(&b, (ch_compress_method) m, 1, "ok", 2, &err),
							   CH_OK);
				bld_raw(&b, h, sizeof(h));
				count_alloc_init(&ca, 0);
				sink_init(&s);
				CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, &ca.a, &s, &err), cases[i].want);
				CHECK_MSG(ca.largest < 256 * 1024, "case %zu: allocated %zu", i, ca.largest);
				CHECK_EQ_INT(err.offset, (int64_t) (b.len - sizeof(h)));
				CHECK_EQ_MEM(s.out.data, s.out.len, "ok", (size_t) 2);
				ch_buf_free(&s.out);
				ch_buf_free(&b);
			}
		}
}

/*
 * Sizes at the limit are valid, but the frame buffer grows only with the
 * bytes that arrive: a claimed 1 GiB frame whose bytes never come costs
 * kilobytes. A huge decompressed_size behind a bad checksum allocates
 * nothing for the output; behind a good one, a failing allocation is
 * CH_ERR_NOMEM.
 */
TEST(frame_size_at_limit_and_oom)
{
	uint8_t		h[CH_FRAME_OVERHEAD + 100];
	count_alloc ca;
	ch_decompressor *d;
	ch_error	err;
	sink_state	s;
	ch_buf		b;
	size_t		i;

	memset(h, 0, sizeof(h));
	header_bytes(h, CH_METHOD_BYTE_LZ4, CH_FRAME_MAX_COMPRESSED, CH_FRAME_MAX_DECOMPRESSED);
	count_alloc_init(&ca, 0);
	d = ch_decompressor_create(&ca.a);
	REQUIRE(d != NULL);
	sink_init(&s);
	CHECK_STATUS(ch_decompressor_feed(d, h, 24, collect, &s, &err), CH_OK);
	CHECK_STATUS(ch_decompressor_feed(d, h + 24, sizeof(h) - 24, collect, &s, &err), CH_OK);
	for (i = 0; i < 100; i++)
		CHECK_STATUS(ch_decompressor_feed(d, h, sizeof(h), collect, &s, &err), CH_OK);
	CHECK_MSG(ca.live < 64 * 1024, "%zu bytes held for %zu received", ca.live, 101 * sizeof(h));
	CHECK_STATUS(ch_decompressor_finish(d, &err), CH_ERR_TRUNCATED);
	CHECK_CONTAINS(err.message, "of 1073741840 bytes");
	ch_decompressor_free(d);
	CHECK_EQ_UINT(ca.live, 0);

	/* the growing buffer failing to grow is CH_ERR_NOMEM */
	count_alloc_init(&ca, 0);
	d = ch_decompressor_create(&ca.a);
	REQUIRE(d != NULL);
	ca.fail_after = ca.nalloc + 1;
	CHECK_STATUS(ch_decompressor_feed(d, h, sizeof(h), collect, &s, &err), CH_OK);
	for (i = 0; i < 100; i++)
		if (ch_decompressor_feed(d, h, sizeof(h), collect, &s, &err) != CH_OK)
			break;
	CHECK_STATUS(err.code, CH_ERR_NOMEM);
	CHECK_STATUS(ch_decompressor_finish(d, &err), CH_ERR_NOMEM);
	ch_decompressor_free(d);
	CHECK_EQ_UINT(ca.live, 0);

	/* dsize 1 GiB, small frame, bad checksum: no output buffer */
	ch_buf_init(&b, NULL);
	make_frame(&b, CH_METHOD_BYTE_LZ4, CH_FRAME_MAX_DECOMPRESSED, "\x10x", 2);
	b.data[3] ^= 1;
	count_alloc_init(&ca, 0);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, &ca.a, &s, &err), CH_ERR_CHECKSUM);
	CHECK_MSG(ca.largest < 64 * 1024, "allocated %zu", ca.largest);
	/* and with a valid checksum the output allocation is tried, and fails cleanly */
	b.data[3] ^= 1;
	count_alloc_init(&ca, 16 << 20);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, &ca.a, &s, &err), CH_ERR_NOMEM);
	CHECK_EQ_UINT(ca.largest, CH_FRAME_MAX_DECOMPRESSED);
	CHECK_EQ_UINT(ca.live, 0);
	CHECK_EQ_UINT(s.calls, 0);
	ch_buf_free(&b);
	ch_buf_free(&s.out);
}

/* ---- semantic errors behind a valid checksum ---- */

TEST(frame_unknown_method_bytes)
{
	static const uint8_t bytes[] = {0x91, 0x00, 0x01, 0x03, 0x81, 0x83, 0x92, 0xff};
	size_t		i;

	for (i = 0; i < sizeof(bytes); i++)
	{
		ch_buf		b;
		ch_error	err;
		sink_state	s;
		char		name[16];

		ch_buf_init(&b, NULL);
		make_frame(&b, bytes[i], 4, "\x01\x82\x02\x03", 4);
		sink_init(&s);
		CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_UNSUPPORTED);
		snprintf(name, sizeof(name), "0x%02x", bytes[i]);
		CHECK_CONTAINS(err.message, name);
		CHECK_EQ_UINT(s.calls, 0);
		ch_buf_free(&b);
	}
}

TEST(frame_wrong_decompressed_length)
{
	uint8_t		src[500];
	uint8_t		payload[1000];
	int			plen;
	int			delta;
	ch_buf		b;
	ch_error	err;
	sink_state	s;
	size_t		zlen;
	ch_buf		z;

	fill_compressible(src, sizeof(src), 31);
	plen = LZ4_compress_default((const char *) src, (char *) payload, (int) sizeof(src),
								(int) sizeof(payload));
	REQUIRE(plen > 0);
	for (delta = -3; delta <= 3; delta++)
	{
		ch_buf_init(&b, NULL);
		make_frame(&b, CH_METHOD_BYTE_LZ4, (uint32_t) ((int) sizeof(src) + delta), payload,
				   (size_t) plen);
		sink_init(&s);
		CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err),
					 delta == 0 ? CH_OK : CH_ERR_DECOMPRESS);
		if (delta == 0)
			CHECK_EQ_MEM(s.out.data, s.out.len, src, sizeof(src));
		else
			CHECK_EQ_UINT(s.calls, 0);
		if (delta > 0)
			CHECK_CONTAINS(err.message, "decodes to 500 bytes");
		ch_buf_free(&s.out);
		ch_buf_free(&b);
	}

	/* garbage and a truncated payload behind a valid checksum */
	ch_buf_init(&b, NULL);
	make_frame(&b, CH_METHOD_BYTE_LZ4, 500, "\xff\xff\xff\xff\xff", 5);
	sink_init(&s);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_DECOMPRESS);
	ch_buf_reset(&b);
	make_frame(&b, CH_METHOD_BYTE_LZ4, 500, payload, (size_t) plen - 1);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_DECOMPRESS);
	ch_buf_reset(&b);
	/* an empty LZ4 payload */
	make_frame(&b, CH_METHOD_BYTE_LZ4, 0, NULL, 0);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_DECOMPRESS);
	CHECK_EQ_UINT(s.calls, 0);

	/* ZSTD: wrong declared size, garbage */
	ch_buf_init(&z, NULL);
	REQUIRE_STATUS(ch_compress_frame(&z, CH_COMPRESS_ZSTD, 1, src, sizeof(src), &err), CH_OK);
	zlen = z.len - CH_FRAME_OVERHEAD;
	for (delta = -1; delta <= 1; delta += 2)
	{
		ch_buf_reset(&b);
		make_frame(&b, CH_METHOD_BYTE_ZSTD, (uint32_t) ((int) sizeof(src) + delta),
				   z.data + CH_FRAME_OVERHEAD, zlen);
		CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_DECOMPRESS);
	}
	ch_buf_reset(&b);
	make_frame(&b, CH_METHOD_BYTE_ZSTD, 500, "\x28\xb5\x2f\xfd\x00\x00", 6);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_DECOMPRESS);

	/* NONE: payload and decompressed_size disagree */
	ch_buf_reset(&b);
	make_frame(&b, CH_METHOD_BYTE_NONE, 4, "abc", 3);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_MALFORMED);
	ch_buf_reset(&b);
	make_frame(&b, CH_METHOD_BYTE_NONE, 2, "abc", 3);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_ALL, 0, NULL, &s, &err), CH_ERR_MALFORMED);
	CHECK_EQ_UINT(s.calls, 0);
	/* a valid empty NONE frame delivers nothing and is fine */
	ch_buf_reset(&b);
	make_frame(&b, CH_METHOD_BYTE_NONE, 0, NULL, 0);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_BYTES, 0, NULL, &s, &err), CH_OK);
	CHECK_EQ_UINT(s.calls, 0);
	ch_buf_free(&z);
	ch_buf_free(&b);
	ch_buf_free(&s.out);
}

/* ---- API behaviour ---- */

TEST(decompressor_sink_error_and_sticky)
{
	ch_buf		b;
	ch_error	err;
	sink_state	s;
	ch_decompressor *d;
	int			i;

	ch_buf_init(&b, NULL);
	for (i = 0; i < 3; i++)
		REQUIRE_STATUS(ch_compress_frame(&b, CH_COMPRESS_LZ4, 0, "abc", 3, &err), CH_OK);
	d = ch_decompressor_create(NULL);
	REQUIRE(d != NULL);
	sink_init(&s);
	s.fail_at_call = 2;
	s.fail_with = CH_ERR_CANCELLED;
	CHECK_STATUS(ch_decompressor_feed(d, b.data, b.len, collect, &s, &err), CH_ERR_CANCELLED);
	CHECK_CONTAINS(err.message, "sink refuses call 2");
	CHECK_EQ_UINT(s.calls, 2);
	/* sticky: no further sink calls, same error; also with err == NULL */
	ch_error_clear(&err);
	CHECK_STATUS(ch_decompressor_feed(d, b.data, b.len, collect, &s, &err), CH_ERR_CANCELLED);
	CHECK_CONTAINS(err.message, "sink refuses call 2");
	CHECK_STATUS(ch_decompressor_feed(d, b.data, b.len, collect, &s, NULL), CH_ERR_CANCELLED);
	CHECK_STATUS(ch_decompressor_finish(d, &err), CH_ERR_CANCELLED);
	CHECK_EQ_UINT(s.calls, 2);

	/* reset makes it usable again */
	ch_decompressor_reset(d);
	ch_buf_reset(&s.out);
	s.fail_at_call = 0;
	CHECK_STATUS(ch_decompressor_feed(d, b.data, 10, collect, &s, &err), CH_OK);
	ch_decompressor_reset(d);	/* drops the partial frame */
	CHECK_STATUS(ch_decompressor_feed(d, b.data, b.len, collect, &s, &err), CH_OK);
	CHECK_STATUS(ch_decompressor_finish(d, &err), CH_OK);
	CHECK_EQ_BYTES(s.out.data, s.out.len, "abcabcabc");

	/* bad arguments; an empty stream is fine */
	CHECK_STATUS(ch_decompressor_feed(d, NULL, 1, collect, &s, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_decompressor_feed(d, b.data, 1, NULL, &s, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_decompressor_feed(NULL, b.data, 1, collect, &s, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_decompressor_finish(NULL, &err), CH_ERR_INVALID_ARGUMENT);
	ch_decompressor_reset(d);
	CHECK_STATUS(ch_decompressor_feed(d, NULL, 0, collect, &s, &err), CH_OK);
	CHECK_STATUS(ch_decompressor_finish(d, &err), CH_OK);
	ch_decompressor_free(d);
	ch_decompressor_free(NULL);
	ch_buf_free(&s.out);
	ch_buf_free(&b);
}

TEST(compress_argument_errors)
{
	ch_buf		b;
	ch_error	err;

	ch_buf_init(&b, NULL);
	bld_raw(&b, "keep", 4);
	CHECK_STATUS(ch_compress_frame(&b, CH_COMPRESS_ZSTD, 1000, "x", 1, &err),
				 CH_ERR_INVALID_ARGUMENT);
	CHECK_CONTAINS(err.message, "level 1000");
	CHECK_STATUS(ch_compress_frames(&b, CH_COMPRESS_ZSTD, -1000000, "x", 1, &err),
				 CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_compress_frame(&b, CH_COMPRESS_LZ4, 0, NULL, 1, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_compress_frame(&b, (ch_compress_method) 7, 0, "x", 1, &err),
				 CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_compress_frame(NULL, CH_COMPRESS_LZ4, 0, "x", 1, &err),
				 CH_ERR_INVALID_ARGUMENT);
	/* over 1 GiB in one frame: refused before anything is read or allocated */
	CHECK_STATUS(ch_compress_frame(&b, CH_COMPRESS_NONE, 0, "x", (size_t) CH_FRAME_MAX_DECOMPRESSED + 1,
								   &err), CH_ERR_LIMIT);
	CHECK_EQ_BYTES(b.data, b.len, "keep");
	/* negative and maximal zstd levels are fine */
	CHECK_STATUS(ch_compress_frame(&b, CH_COMPRESS_ZSTD, -5, "xxxx", 4, &err), CH_OK);
	CHECK_STATUS(ch_compress_frame(&b, CH_COMPRESS_ZSTD, 22, "xxxx", 4, &err), CH_OK);
	ch_buf_free(&b);
}

/*
 * Allocation failure at every step of compression and decompression comes
 * back as CH_ERR_NOMEM, leaves the output as it was, and leaks nothing.
 */
TEST(compress_and_decompress_allocation_failures)
{
	size_t		len = 2 * CH_FRAME_CHUNK + 100;
	uint8_t    *src = malloc(len);
	ch_buf		frames;
	ch_error	err;
	int			m;

	REQUIRE(src != NULL);
	fill_compressible(src, len, 41);
	ch_buf_init(&frames, NULL);
	for (m = 0; m < 3; m++)
	{
		uint64_t	k;
		bool		done = false;

		for (k = 1; k < 64 && !done; k++)
		{
			count_alloc ca;
			ch_buf		b;
			ch_status	st;

			count_alloc_init(&ca, 0);
			ca.fail_after = k;
			ch_buf_init(&b, &ca.a);
			bld_raw(&b, "head", 4);
			st = ch_compress_frames(&b, (ch_compress_method) m, 3, src, len, &err);
			if (st == CH_OK)
				done = true;
			else
			{
				CHECK_MSG(st == CH_ERR_NOMEM, "%s fail_after %" PRIu64 ": %s %s",
						  method_names[m], k, ch_status_name(st), err.message);
				CHECK_EQ_UINT(b.len, 4);
			}
			ch_buf_free(&b);
			CHECK_EQ_UINT(ca.live, 0);
		}
		CHECK_MSG(done, "%s: never succeeded", method_names[m]);
		REQUIRE_STATUS(ch_compress_frames(&frames, (ch_compress_method) m, 3, src, len, &err), CH_OK);
	}
	/* decompression: allocation n fails, for every n until it succeeds */
	{
		uint64_t	k;
		bool		done = false;

		for (k = 1; k < 64 && !done; k++)
		{
			count_alloc ca;
			sink_state	s;
			ch_status	st;

			count_alloc_init(&ca, 0);
			ca.fail_after = k;
			sink_init(&s);
			st = decode_all(frames.data, frames.len, CHUNK_RANDOM, k, &ca.a, &s, &err);
			if (st == CH_OK)
			{
				done = true;
				CHECK_EQ_UINT(s.out.len, 3 * len);
			}
			else
				CHECK_MSG(st == CH_ERR_NOMEM, "fail_after %" PRIu64 ": %s %s", k,
						  ch_status_name(st), err.message);
			CHECK_EQ_UINT(ca.live, 0);
			ch_buf_free(&s.out);
		}
		CHECK(done);
	}
	ch_buf_free(&frames);
	free(src);
}

/*
 * Memory is bounded by one frame: many 1 MiB frames fed in pieces keep at
 * most one compressed and one decompressed frame; buffers of big frames
 * are released afterwards.
 */
TEST(decompressor_memory_bounded)
{
	uint8_t    *src = malloc(6 << 20);
	ch_buf		b;
	ch_error	err;
	count_alloc ca;
	sink_state	s;
	ch_decompressor *d;

	REQUIRE(src != NULL);
	fill_random(src, 6 << 20, 51);
	ch_buf_init(&b, NULL);
	REQUIRE_STATUS(ch_compress_frames(&b, CH_COMPRESS_LZ4, 0, src, 6 << 20, &err), CH_OK);
	REQUIRE_STATUS(ch_compress_frames(&b, CH_COMPRESS_ZSTD, 1, src, 2 << 20, &err), CH_OK);
	count_alloc_init(&ca, 0);
	sink_init(&s);
	CHECK_STATUS(decode_all(b.data, b.len, CHUNK_RANDOM, 3, &ca.a, &s, &err), CH_OK);
	CHECK_EQ_UINT(s.out.len, 8 << 20);
	/* one compressed frame (~1 MiB + bound) + one output (1 MiB) + zstd's context */
	CHECK_MSG(ca.peak < (size_t) 3 << 20, "peak %zu bytes", ca.peak);
	ch_buf_free(&s.out);

	/* a 5 MiB frame: its buffers are not kept after it */
	ch_buf_reset(&b);
	REQUIRE_STATUS(ch_compress_frame(&b, CH_COMPRESS_LZ4, 0, src, 5 << 20, &err), CH_OK);
	count_alloc_init(&ca, 0);
	d = ch_decompressor_create(&ca.a);
	REQUIRE(d != NULL);
	sink_init(&s);
	CHECK_STATUS(ch_decompressor_feed(d, b.data, 1000, collect, &s, &err), CH_OK);
	CHECK_STATUS(ch_decompressor_feed(d, b.data + 1000, b.len - 1000, collect, &s, &err), CH_OK);
	CHECK_STATUS(ch_decompressor_finish(d, &err), CH_OK);
	CHECK_EQ_UINT(s.out.len, 5 << 20);
	CHECK_MSG(ca.live < 64 * 1024, "%zu bytes kept after a big frame", ca.live);
	ch_decompressor_free(d);
	CHECK_EQ_UINT(ca.live, 0);
	ch_buf_free(&s.out);
	ch_buf_free(&b);
	free(src);
}

/* ---- frames captured from ClickHouse 18.16 ---- */

/* hexdump -C, to check the .hex files */
static void
hexdump_canonical(ch_buf *out, const uint8_t *data, size_t len)
{
	size_t		off;
	bool		squeezing = false;
	char		line[128];

	for (off = 0; off < len; off += 16)
	{
		size_t		n = len - off < 16 ? len - off : 16;
		size_t		i;
		int			k;

		if (off > 0 && n == 16 && memcmp(data + off, data + off - 16, 16) == 0)
		{
			if (!squeezing)
				bld_raw(out, "*\n", 2);
			squeezing = true;
			continue;
		}
		squeezing = false;
		k = snprintf(line, sizeof(line), "%08zx ", off);
		for (i = 0; i < 16; i++)
		{
			if (i == 8)
				line[k++] = ' ';
			if (i < n)
				k += snprintf(line + k, sizeof(line) - (size_t) k, " %02x", data[off + i]);
			else
				k += snprintf(line + k, sizeof(line) - (size_t) k, "   ");
		}
		k += snprintf(line + k, sizeof(line) - (size_t) k, "  |");
		for (i = 0; i < n; i++)
			line[k++] = (data[off + i] >= 0x20 && data[off + i] < 0x7f) ? (char) data[off + i] : '.';
		line[k++] = '|';
		line[k++] = '\n';
		bld_raw(out, line, (size_t) k);
	}
	if (len > 0)
	{
		int			k = snprintf(line, sizeof(line), "%08zx\n", len);

		bld_raw(out, line, (size_t) k);
	}
}

typedef struct compress_golden
{
	const char *name;
	int			nframes;
	uint8_t		method;
	size_t		plain_len;
	int			nblocks;		/* Native blocks (with BlockInfo) inside */
	uint64_t	rows[4];
} compress_golden;

static const compress_golden compress_goldens[] = {
	/* server -> client, SELECT 1 AS x: header block, 1 row, empty block */
	{"compress_lz4_select1", 3, 0x82, 47, 3, {0, 1, 0}},
	/* server -> client, 70000 rows: the first block is cut into two frames */
	{"compress_lz4_blocks", 5, 0x82, 1750124, 4, {0, 65536, 4464, 0}},
	{"compress_zstd_blocks", 5, 0x90, 1750124, 4, {0, 65536, 4464, 0}},
	/* client -> server INSERT of 3000 rows: empty block, data, empty block */
	{"compress_lz4_client_insert", 3, 0x82, 36050, 3, {0, 3000, 0}},
};

TEST(compress_goldens_from_server)
{
	size_t		gi;
	ch_buf		zstd_plain;
	ch_buf		lz4_plain;

	ch_buf_init(&zstd_plain, NULL);
	ch_buf_init(&lz4_plain, NULL);
	for (gi = 0; gi < sizeof(compress_goldens) / sizeof(compress_goldens[0]); gi++)
	{
		const compress_golden *g = &compress_goldens[gi];
		uint8_t    *data,
				   *hex,
				   *txt;
		size_t		len,
					hlen,
					tlen;
		sink_state	s;
		ch_error	err;
		stream_result *res;
		chunking	mode;
		size_t		pos;
		int			k;

		if (!golden_read(g->name, &data, &len))
			continue;
		if (golden_read_ext(g->name, "hex", &hex, &hlen))
		{
			ch_buf		want;

			ch_buf_init(&want, NULL);
			hexdump_canonical(&want, data, len);
			CHECK_MSG(want.len == hlen && memcmp(want.data, hex, hlen) == 0,
					  "%s.hex is not hexdump -C of %s.bin", g->name, g->name);
			ch_buf_free(&want);
			free(hex);
		}
		if (golden_read_ext(g->name, "txt", &txt, &tlen))
		{
			CHECK_MSG(strstr((char *) txt, "18.16.1") != NULL, "%s.txt names no version", g->name);
			free(txt);
		}

		/* our checksums equal the ones the server/client wrote */
		CHECK_EQ_INT(walk_frames(data, len, g->name), g->nframes);
		for (pos = 0; pos + CH_FRAME_OVERHEAD <= len; pos += 16 + ch_le32(data + pos + 17))
			CHECK_MSG(data[pos + 16] == g->method, "%s: method 0x%02x", g->name, data[pos + 16]);

		/* the decoder agrees however the bytes are cut */
		sink_init(&s);
		CHECK_STATUS(decode_all(data, len, CHUNK_ALL, 0, NULL, &s, &err), CH_OK);
		CHECK_EQ_UINT(s.out.len, g->plain_len);
		for (mode = CHUNK_BYTES; mode <= CHUNK_RANDOM; mode++)
		{
			sink_state	s2;

			sink_init(&s2);
			CHECK_STATUS(decode_all(data, len, mode, 77, NULL, &s2, &err), CH_OK);
			CHECK_MSG(s2.out.len == s.out.len && memcmp(s2.out.data, s.out.data, s.out.len) == 0,
					  "%s mode %d: output differs", g->name, (int) mode);
			ch_buf_free(&s2.out);
		}

		/* the plain bytes are Native blocks with BlockInfo (TCP) */
		res = calloc(1, sizeof(*res));
		REQUIRE(res != NULL);
		decode_stream(s.out.data, s.out.len, FEED_ALL, 0, true, NULL, NULL, res);
		CHECK_MSG(res->final == CH_END, "%s: native %s %s", g->name, ch_status_name(res->final),
				  res->err.message);
		CHECK_EQ_UINT(res->nblocks, g->nblocks);
		for (k = 0; k < g->nblocks && (uint64_t) k < res->nblocks; k++)
			CHECK_MSG(res->nrows[k] == g->rows[k], "%s block %d: %" PRIu64 " rows", g->name, k,
					  res->nrows[k]);
		stream_result_free(res);
		free(res);

		/*
		 * Our LZ4 encoder (liblz4's LZ4_compress_default) writes exactly
		 * the frames ClickHouse wrote.
		 */
		if (g->method == 0x82)
		{
			ch_buf		again;
			size_t		off = 0;

			ch_buf_init(&again, NULL);
			for (pos = 0; pos + CH_FRAME_OVERHEAD <= len; pos += 16 + ch_le32(data + pos + 17))
			{
				uint32_t	dsize = ch_le32(data + pos + 21);

				CHECK_STATUS(ch_compress_frame(&again, CH_COMPRESS_LZ4, 0, s.out.data + off, dsize,
											   &err), CH_OK);
				off += dsize;
			}
			CHECK_MSG(again.len == len && memcmp(again.data, data, len) == 0,
					  "%s: our LZ4 frames differ from the captured ones", g->name);
			ch_buf_free(&again);
		}
		if (strcmp(g->name, "compress_lz4_blocks") == 0)
			bld_raw(&lz4_plain, s.out.data, s.out.len);
		if (strcmp(g->name, "compress_zstd_blocks") == 0)
			bld_raw(&zstd_plain, s.out.data, s.out.len);
		ch_buf_free(&s.out);
		free(data);
	}
	/* the same query with LZ4 and ZSTD gives the same bytes */
	CHECK_EQ_MEM(zstd_plain.data, zstd_plain.len, lz4_plain.data, lz4_plain.len);
	ch_buf_free(&zstd_plain);
	ch_buf_free(&lz4_plain);
}
