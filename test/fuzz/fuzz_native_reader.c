/*-------------------------------------------------------------------------
 * fuzz_native_reader.c
 *	  libFuzzer target for the incremental Native reader (ch_native.h).
 *
 * Input layout: one control byte, then the Native stream.
 *	bit 0		TCP framing (BlockInfo before every block) instead of HTTP
 *	bits 1-3	chunk schedule (fuzz_common.h): 0 = one feed, 1 = byte by
 *				byte, 2..7 = pseudo-random sizes
 *	bit 4-6		with bit 7: make the (1 + bits 4-6)-th allocation fail
 *	bit 7		allocation failure injection on
 *
 * The stream is fed in chunks; after each chunk every complete block is
 * pulled and every value of it touched (fuzz_walk.h); then finish and pull
 * until the end or an error. Checks on top of the sanitizers:
 *	- the counting allocator's 64 MiB budget is never exceeded, and nothing
 *	  is left allocated after ch_native_reader_free;
 *	- CH_NEED_MORE never comes after finish, errors are sticky, ch_error
 *	  agrees with the returned status, and every block consumes input;
 *	- without allocation failures, feeding in chunks gives exactly the same
 *	  blocks and final status as feeding everything at once.
 *
 * test/fuzz/fuzz_native_reader.c
 *-------------------------------------------------------------------------
 */
#include "ch_native.h"
#include "fuzz_common.h"
#include "fuzz_walk.h"

typedef struct run_result
{
	ch_status	final;			/* CH_END or the error */
	uint64_t	nblocks;
	uint64_t	digest;
	fuzz_mem	mem;
} run_result;

/* Pull blocks until the reader wants more input, ends or fails. */
static ch_status
pull(ch_native_reader *r, bool finished, size_t fed, run_result *res)
{
	uint64_t	guard = 0;

	for (;;)
	{
		ch_block   *b = NULL;
		ch_error	err;
		ch_status	st;

		ch_error_clear(&err);
		st = ch_native_reader_next(r, &b, &err);
		if (st == CH_OK)
		{
			FUZZ_CHECK(b != NULL, "CH_OK without a block");
			fuzz_walk_block(b, &res->digest);
			res->nblocks++;
			/* a block is at least 2 bytes (column and row counts) */
			FUZZ_CHECK(++guard <= fed / 2 + 1, "more blocks (%llu) than input allows (%zu bytes)",
					   (unsigned long long) guard, fed);
			continue;
		}
		FUZZ_CHECK(b == NULL, "%s with a block", ch_status_name(st));
		if (st == CH_NEED_MORE)
		{
			FUZZ_CHECK(!finished, "CH_NEED_MORE after finish");
			return st;
		}
		if (st == CH_END)
		{
			FUZZ_CHECK(finished, "CH_END before finish");
			return st;
		}
		fuzz_check_error(&err, st, "ch_native_reader_next");
		fuzz_digest_u64(&res->digest, (uint64_t) st);
		{
			/* sticky: the same error again */
			ch_error	again;
			ch_status	st2;

			ch_error_clear(&again);
			st2 = ch_native_reader_next(r, &b, &again);
			FUZZ_CHECK(st2 == st && b == NULL, "error %s not sticky (then %s)",
					   ch_status_name(st), ch_status_name(st2));
		}
		return st;
	}
}

static void
run(const uint8_t *data, size_t len, bool tcp, unsigned mode, uint8_t seed,
	uint64_t fail_at, run_result *res)
{
	ch_allocator a = fuzz_allocator(&res->mem);
	ch_native_reader *r;
	ch_native_limits lim;
	fuzz_chunker ck;
	size_t		pos = 0;
	ch_status	st = CH_NEED_MORE;

	res->mem.fail_at = fail_at;
	res->nblocks = 0;
	res->digest = FUZZ_DIGEST_INIT;
	ch_native_limits_default(&lim);
	r = ch_native_reader_create(&a, tcp, &lim);
	if (!r)
	{
		FUZZ_CHECK(res->mem.nfail > 0, "ch_native_reader_create failed without an allocation failure");
		res->final = CH_ERR_NOMEM;
		return;
	}
	fuzz_chunker_init(&ck, mode, seed, len);
	while (pos < len)
	{
		size_t		n = fuzz_chunk_next(&ck, len - pos);
		ch_error	err;
		ch_status	fst;

		ch_error_clear(&err);
		fst = ch_native_reader_feed(r, data + pos, n, &err);
		if (fst != CH_OK)
		{
			FUZZ_CHECK(fst == CH_ERR_NOMEM || fst == CH_ERR_LIMIT,
					   "feed failed with %s", ch_status_name(fst));
			fuzz_check_error(&err, fst, "ch_native_reader_feed");
			st = fst;
			break;
		}
		pos += n;
		FUZZ_CHECK(ch_native_reader_total(r) == pos, "total %llu after feeding %zu",
				   (unsigned long long) ch_native_reader_total(r), pos);
		st = pull(r, false, pos, res);
		if (st != CH_NEED_MORE)
			break;
	}
	if (st == CH_NEED_MORE)
	{
		ch_native_reader_finish(r);
		st = pull(r, true, pos, res);
	}
	res->final = st;
	ch_native_reader_free(r);
	FUZZ_CHECK(res->mem.live == 0, "%zu bytes still allocated after ch_native_reader_free",
			   res->mem.live);
	FUZZ_CHECK(res->mem.nfail > 0 || st != CH_ERR_NOMEM,
			   "CH_ERR_NOMEM without an allocation failure");
}


int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t		ctl;
	bool		tcp;
	unsigned	mode;
	uint64_t	fail_at = 0;
	run_result	chunked,
				whole;

	if (size < 1)
		return 0;
	ctl = data[0];
	data++;
	size--;
	tcp = (ctl & 1) != 0;
	mode = (ctl >> 1) & 7;
	if ((ctl & 0x80) != 0)
		fail_at = 1 + ((ctl >> 4) & 7);

	run(data, size, tcp, mode, ctl, fail_at, &chunked);
	if (fail_at != 0 || mode == 0)
		return 0;

	/* differential: the chunk schedule must not change the result */
	run(data, size, tcp, 0, ctl, 0, &whole);
	FUZZ_CHECK(chunked.final == whole.final,
			   "chunked feeding ended with %s, one feed with %s",
			   ch_status_name(chunked.final), ch_status_name(whole.final));
	FUZZ_CHECK(chunked.nblocks == whole.nblocks && chunked.digest == whole.digest,
			   "chunked feeding decoded %llu blocks (digest %016llx), one feed %llu (%016llx)",
			   (unsigned long long) chunked.nblocks, (unsigned long long) chunked.digest,
			   (unsigned long long) whole.nblocks, (unsigned long long) whole.digest);
	return 0;
}
