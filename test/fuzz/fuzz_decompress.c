/*-------------------------------------------------------------------------
 * fuzz_decompress.c
 *	  libFuzzer target for the incremental decompressor of ClickHouse
 *	  compressed frames (ch_compress.h).
 *
 * Input layout: one control byte, then the frame stream.
 *	bit 0		repair checksums: before feeding, every frame whose header is
 *				complete and fits in the input gets its correct CityHash128,
 *				so mutations reach the method switch, LZ4 and zstd instead of
 *				stopping at CH_ERR_CHECKSUM
 *	bits 1-3	chunk schedule (fuzz_common.h)
 *	bits 4-6	with bit 7: make the (1 + bits 4-6)-th allocation fail;
 *				without: bits 4-5 pick the method(s) of the compression round
 *				trip (0 NONE, 1 LZ4, 2 ZSTD, 3 all), bit 6 the zstd level (1 or
 *				the default)
 *	bit 7		allocation failure injection on
 *
 * Checks on top of the sanitizers: the sink sees only non-empty pieces and
 * every byte of them is read; errors are sticky and agree with ch_error;
 * finish reports a partial frame; without allocation failures, chunked
 * feeding produces exactly the bytes and status of one feed; the 64 MiB
 * budget holds (a frame announcing 1 GiB gets CH_ERR_NOMEM) and nothing
 * is left allocated after ch_decompressor_free. A second pass after
 * ch_decompressor_reset must give the same result again. Finally the raw
 * input is compressed with ch_compress_frames and must decompress to
 * itself (round trip of the encoder).
 *
 * test/fuzz/fuzz_decompress.c
 *-------------------------------------------------------------------------
 */
#include "ch_compress.h"
#include "fuzz_common.h"

typedef struct sink_state
{
	uint64_t	digest;
	uint64_t	bytes;
	uint64_t	calls;
} sink_state;

static ch_status
sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	sink_state *s = (sink_state *) ctx;

	(void) err;
	FUZZ_CHECK(len > 0, "sink called with 0 bytes");
	FUZZ_CHECK(data != NULL, "sink called with NULL");
	fuzz_digest(&s->digest, data, len);
	s->bytes += len;
	s->calls++;
	return CH_OK;
}

typedef struct run_result
{
	ch_status	st;
	sink_state	out;
} run_result;

static void
feed_all(ch_decompressor *d, const uint8_t *data, size_t len, unsigned mode,
		 uint8_t seed, run_result *res)
{
	fuzz_chunker ck;
	size_t		pos = 0;
	ch_status	st = CH_OK;
	ch_error	err;

	memset(&res->out, 0, sizeof(res->out));
	res->out.digest = FUZZ_DIGEST_INIT;
	fuzz_chunker_init(&ck, mode, seed, len);
	while (pos < len)
	{
		size_t		n = fuzz_chunk_next(&ck, len - pos);

		ch_error_clear(&err);
		st = ch_decompressor_feed(d, data + pos, n, sink, &res->out, &err);
		pos += n;
		if (st != CH_OK)
		{
			ch_status	st2;
			ch_error	err2;

			fuzz_check_error(&err, st, "ch_decompressor_feed");
			ch_error_clear(&err2);
			st2 = ch_decompressor_feed(d, data, len, sink, &res->out, &err2);
			FUZZ_CHECK(st2 == st, "feed error %s not sticky (then %s)",
					   ch_status_name(st), ch_status_name(st2));
			break;
		}
	}
	ch_error_clear(&err);
	{
		ch_status	fst = ch_decompressor_finish(d, &err);

		if (st == CH_OK)
			st = fst;
		else
			FUZZ_CHECK(fst == st, "finish after %s says %s", ch_status_name(st),
					   ch_status_name(fst));
		if (fst != CH_OK)
			fuzz_check_error(&err, fst, "ch_decompressor_finish");
	}
	res->st = st;
}

/* Give every complete frame of buf its correct checksum. */
static void
repair_checksums(uint8_t *buf, size_t len)
{
	size_t		pos = 0;

	while (len - pos >= CH_FRAME_OVERHEAD)
	{
		uint32_t	csize = ch_le32(buf + pos + 17);
		uint64_t	lo,
					hi;

		if (csize < CH_FRAME_HEADER_SIZE || csize > len - pos - CH_FRAME_CHECKSUM_SIZE)
			return;
		ch_cityhash128(buf + pos + CH_FRAME_CHECKSUM_SIZE, csize, &lo, &hi);
		ch_put_le64(buf + pos, lo);
		ch_put_le64(buf + pos + 8, hi);
		pos += CH_FRAME_CHECKSUM_SIZE + (size_t) csize;
	}
}

/* ch_compress_frames(data) must decompress to data, for method m. */
static void
round_trip(const uint8_t *data, size_t size, ch_compress_method m, int level)
{
	fuzz_mem	mem;
	ch_allocator a = fuzz_allocator(&mem);
	ch_buf		frames;
	ch_error	err;
	ch_status	st;
	ch_decompressor *d;
	run_result	res;

	ch_buf_init(&frames, &a);
	ch_error_clear(&err);
	st = ch_compress_frames(&frames, m, level, data, size, &err);
	if (st != CH_OK)
	{
		FUZZ_CHECK(st == CH_ERR_NOMEM && mem.nfail > 0, "ch_compress_frames(method %d) of %zu bytes: %s",
				   (int) m, size, err.message);
		FUZZ_CHECK(frames.len == 0, "failed ch_compress_frames left %zu bytes", frames.len);
	}
	else
	{
		FUZZ_CHECK(size > 0 || frames.len == 0, "ch_compress_frames of nothing gave %zu bytes",
				   frames.len);
		d = ch_decompressor_create(&a);
		FUZZ_CHECK(d != NULL, "ch_decompressor_create");
		feed_all(d, frames.data, frames.len, 0, 0, &res);
		FUZZ_CHECK(res.st == CH_OK, "round trip (method %d) fails: %s", (int) m,
				   ch_status_name(res.st));
		{
			uint64_t	h = FUZZ_DIGEST_INIT;

			fuzz_digest(&h, data, size);
			FUZZ_CHECK(res.out.bytes == size && res.out.digest == h,
					   "round trip (method %d) of %zu bytes gives %llu other bytes", (int) m,
					   size, (unsigned long long) res.out.bytes);
		}
		ch_decompressor_free(d);
	}
	ch_buf_free(&frames);
	FUZZ_CHECK(mem.live == 0, "%zu bytes still allocated after the round trip", mem.live);
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t		ctl;
	unsigned	mode;
	uint64_t	fail_at = 0;
	uint8_t    *buf;
	fuzz_mem	mem;
	ch_allocator a;
	ch_decompressor *d;
	run_result	chunked,
				whole,
				second;

	if (size < 1)
		return 0;
	ctl = data[0];
	data++;
	size--;
	mode = (ctl >> 1) & 7;
	if ((ctl & 0x80) != 0)
		fail_at = 1 + ((ctl >> 4) & 7);

	/* a private copy: exact bounds for ASan, and room to repair checksums */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	if ((ctl & 1) != 0)
		repair_checksums(buf, size);

	a = fuzz_allocator(&mem);
	mem.fail_at = fail_at;
	d = ch_decompressor_create(&a);
	if (!d)
	{
		FUZZ_CHECK(mem.nfail > 0, "ch_decompressor_create failed without an allocation failure");
		free(buf);
		return 0;
	}
	feed_all(d, buf, size, mode, ctl, &chunked);
	FUZZ_CHECK(chunked.st != CH_ERR_NOMEM || mem.nfail > 0, "CH_ERR_NOMEM without an allocation failure");

	if (fail_at == 0)
	{
		/* the same stream again after a reset, in one piece */
		ch_decompressor_reset(d);
		feed_all(d, buf, size, 0, ctl, &whole);
		FUZZ_CHECK(chunked.st == whole.st,
				   "chunked feeding ended with %s, one feed (after reset) with %s",
				   ch_status_name(chunked.st), ch_status_name(whole.st));
		FUZZ_CHECK(chunked.out.bytes == whole.out.bytes && chunked.out.digest == whole.out.digest,
				   "chunked feeding produced %llu bytes, one feed %llu (or different ones)",
				   (unsigned long long) chunked.out.bytes, (unsigned long long) whole.out.bytes);
		ch_decompressor_reset(d);
		feed_all(d, buf, size, mode, ctl, &second);
		FUZZ_CHECK(second.st == chunked.st && second.out.digest == chunked.out.digest,
				   "a reset decoder gives a different result");
	}
	ch_decompressor_free(d);
	FUZZ_CHECK(mem.live == 0, "%zu bytes still allocated after ch_decompressor_free", mem.live);
	free(buf);

	if (fail_at == 0)
	{
		unsigned	which = (ctl >> 4) & 3;
		int			level = (ctl & 0x40) != 0 ? 0 : 1;

		if (which == 0 || which == 3)
			round_trip(data, size, CH_COMPRESS_NONE, 0);
		if (which == 1 || which == 3)
			round_trip(data, size, CH_COMPRESS_LZ4, 0);
		if (which == 2 || which == 3)
			round_trip(data, size, CH_COMPRESS_ZSTD, level);
	}
	return 0;
}
