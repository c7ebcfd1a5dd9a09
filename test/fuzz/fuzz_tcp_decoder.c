/*-------------------------------------------------------------------------
 * fuzz_tcp_decoder.c
 *	  libFuzzer target for the native TCP server-packet decoder
 *	  (ch_tcp_proto.h): what a ClickHouse server, or anything pretending to
 *	  be one, sends to the client.
 *
 * Input layout: two control bytes, then the byte stream.
 *	byte 0 bits 0-2	 the negotiated revision: 54412 (18.16), 54420, 54454,
 *					 54460, 54463, 54469, 54480, 54485
 *	byte 0 bit 3	 compression on (blocks of Data packets in frames)
 *	byte 0 bits 4-6	 chunk schedule (fuzz_common.h)
 *	byte 0 bit 7	 repair the checksums of complete frames, so that
 *					 mutations reach LZ4/zstd and the block parser
 *	byte 1			 with bit 7 of byte 1: fail the (byte1 & 0x7f)-th
 *					 allocation
 *
 * Checks on top of the sanitizers: the decoder never asks for more after
 * finish, errors agree with ch_error and are sticky, a CH_ERR_SERVER
 * (exception packet) lets decoding go on, chunked feeding gives the same
 * packets and final status as one feed (without allocation failures), the
 * 64 MiB budget holds, and nothing stays allocated after
 * ch_tcp_decoder_free.
 *
 * test/fuzz/fuzz_tcp_decoder.c
 *-------------------------------------------------------------------------
 */
#include "ch_compress.h"
#include "ch_tcp_proto.h"
#include "fuzz_common.h"

static const uint32_t revs[8] = {54412, 54420, 54454, 54460, 54463, 54469, 54480, 54485};

typedef struct run_result
{
	ch_status	st;
	uint64_t	digest;
	uint64_t	npackets;
} run_result;

static void
run(const uint8_t *data, size_t len, uint32_t rev, bool comp, unsigned mode, uint8_t seed,
	uint64_t fail_at, run_result *res)
{
	fuzz_mem	mem;
	ch_allocator a = fuzz_allocator(&mem);
	ch_tcp_decoder *d;
	fuzz_chunker ck;
	size_t		pos = 0;
	bool		finished = false;

	mem.fail_at = fail_at;
	res->st = CH_OK;
	res->digest = FUZZ_DIGEST_INIT;
	res->npackets = 0;
	d = ch_tcp_decoder_create(&a, NULL);
	if (!d)
	{
		res->st = CH_ERR_NOMEM;
		return;
	}
	ch_tcp_decoder_set(d, rev, comp);
	fuzz_chunker_init(&ck, mode, seed, len);
	for (;;)
	{
		ch_error	err;
		ch_status	st;

		if (pos < len)
		{
			size_t		n = fuzz_chunk_next(&ck, len - pos);

			ch_error_clear(&err);
			st = ch_tcp_decoder_feed(d, data + pos, n, &err);
			pos += n;
			if (st != CH_OK)
			{
				fuzz_check_error(&err, st, "feed");
				res->st = st;
				break;
			}
		}
		else if (!finished)
		{
			ch_tcp_decoder_finish(d);
			finished = true;
		}
		for (;;)
		{
			ch_tcp_packet pkt;

			ch_error_clear(&err);
			st = ch_tcp_decoder_next(d, &pkt, &err);
			if (st == CH_NEED_MORE)
			{
				FUZZ_CHECK(!finished, "CH_NEED_MORE after finish");
				break;
			}
			if (st == CH_OK || st == CH_ERR_SERVER)
			{
				res->npackets++;
				fuzz_digest_u64(&res->digest, st == CH_OK ? (uint64_t) pkt.type : 1000 + (uint64_t) err.server_code);
				if (st == CH_OK && pkt.block)
				{
					fuzz_digest_u64(&res->digest, pkt.block->ncols);
					fuzz_digest_u64(&res->digest, pkt.block->nrows);
				}
				if (st == CH_ERR_SERVER)
					FUZZ_CHECK(err.code == CH_ERR_SERVER, "exception without CH_ERR_SERVER in ch_error");
				continue;
			}
			res->st = st;
			if (st != CH_END)
			{
				ch_error	again;
				ch_tcp_packet p2;

				fuzz_check_error(&err, st, "next");
				ch_error_clear(&again);
				FUZZ_CHECK(ch_tcp_decoder_next(d, &p2, &again) == st, "error is not sticky");
			}
			goto out;
		}
	}
out:
	ch_tcp_decoder_free(d);
	FUZZ_CHECK(mem.live == 0, "%zu bytes still allocated after ch_tcp_decoder_free", mem.live);
}

/* give every complete frame after a plausible Data header its checksum */
static void
repair(uint8_t *buf, size_t len)
{
	size_t		i;

	for (i = 0; i + CH_FRAME_OVERHEAD <= len; i++)
	{
		uint8_t		m = buf[i + 16];
		uint32_t	cs = ch_le32(buf + i + 17);
		uint64_t	lo,
					hi;

		if ((m != 0x02 && m != 0x82 && m != 0x90) || cs < CH_FRAME_HEADER_SIZE ||
			cs > len - i - 16)
			continue;
		ch_cityhash128(buf + i + 16, cs, &lo, &hi);
		ch_put_le64(buf + i, lo);
		ch_put_le64(buf + i + 8, hi);
		i += 16 + cs - 1;
	}
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t		c0,
				c1;
	uint8_t    *buf;
	size_t		len;
	uint32_t	rev;
	bool		comp;
	unsigned	mode;
	uint64_t	fail_at;
	run_result	chunked,
				whole;

	if (size < 2)
		return 0;
	c0 = data[0];
	c1 = data[1];
	len = size - 2;
	buf = malloc(len ? len : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 2, len);
	rev = revs[c0 & 7];
	comp = (c0 & 0x08) != 0;
	mode = (c0 >> 4) & 7;
	fail_at = (c1 & 0x80) ? (uint64_t) (c1 & 0x7f) + 1 : 0;
	if (c0 & 0x80)
		repair(buf, len);
	run(buf, len, rev, comp, mode, c0, fail_at, &chunked);
	if (fail_at == 0)
	{
		run(buf, len, rev, comp, 0, c0, 0, &whole);
		FUZZ_CHECK(chunked.st == whole.st, "chunked feeding ended with %s, one feed with %s",
				   ch_status_name(chunked.st), ch_status_name(whole.st));
		FUZZ_CHECK(chunked.npackets == whole.npackets && chunked.digest == whole.digest,
				   "chunked feeding gave %llu packets, one feed %llu (or different ones)",
				   (unsigned long long) chunked.npackets, (unsigned long long) whole.npackets);
	}
	free(buf);
	return 0;
}
