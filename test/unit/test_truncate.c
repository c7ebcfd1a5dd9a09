/*-------------------------------------------------------------------------
 * test_truncate.c
 *	  Every truncated prefix of every golden, over HTTP framing and over TCP
 *	  framing (the goldens with a BlockInfo in front of each block), and
 *	  random mutations of the goldens.
 *
 * A prefix that ends exactly on a block boundary must give the complete
 * blocks and then CH_END; any other prefix the complete blocks and then
 * CH_ERR_TRUNCATED (offset = the prefix length); for the mid-stream
 * exception golden, prefixes that contain "Code: " give CH_ERR_SERVER.
 * Every block handed out must equal the block of the full decode: never
 * CH_OK with a partial block.
 *
 * test/unit/test_truncate.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>

static const char *const goldens[] = {
	"array_lowcard", "arrays", "dates", "datetime_tz", "decimals", "empty", "enums",
	"exception_buffered", "exception_midstream", "fixedstring", "floats", "integers",
	"lowcard_nullable", "lowcard_string", "lowcard_wide", "multi_block", "nullable",
	"nullable_nothing", "strings", "table", "tuple", "union_all", "uuid",
};

#define NG ((int) (sizeof(goldens) / sizeof(goldens[0])))

/*
 * Goldens up to this size get every prefix; larger ones a sample. Under
 * AddressSanitizer every fresh buffer costs page faults (its allocator maps
 * large blocks anew each time), so the sample is smaller there; the block
 * boundaries +-1 are always all included.
 */
#define ALL_PREFIXES_UP_TO 20000
#if defined(__SANITIZE_ADDRESS__)
#define SAMPLE_PREFIXES 500
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SAMPLE_PREFIXES 500
#endif
#endif
#ifndef SAMPLE_PREFIXES
#define SAMPLE_PREFIXES 2000
#endif

static int
cmp_size(const void *a, const void *b)
{
	size_t		x = *(const size_t *) a,
				y = *(const size_t *) b;

	return x < y ? -1 : x > y;
}

/*
 * The prefix lengths to test: all of 0..len-1, or for big inputs the block
 * boundaries +-1, the first and last 64 lengths, the exception text, and
 * random lengths up to SAMPLE_PREFIXES in all. Sorted, unique.
 */
static size_t
prefix_lengths(size_t len, const stream_result *full, size_t exc, size_t **out)
{
	size_t		cap = SAMPLE_PREFIXES + 3 * MAX_STREAM_BLOCKS + 512;
	size_t	   *v;
	size_t		n = 0,
				i,
				u;
	uint64_t	rng = len;

	if (len <= ALL_PREFIXES_UP_TO)
	{
		v = malloc(sizeof(size_t) * (len ? len : 1));
		for (i = 0; i < len; i++)
			v[i] = i;
		*out = v;
		return len;
	}
	v = malloc(sizeof(size_t) * cap);
#define ADD(x) do { size_t x_ = (x); if (x_ < len && n < cap) v[n++] = x_; } while (0)
	for (i = 0; i <= full->nblocks && i <= MAX_STREAM_BLOCKS; i++)
	{
		size_t		s = (size_t) full->start[i];

		ADD(s);
		ADD(s + 1);
		if (s > 0)
			ADD(s - 1);
	}
	for (i = 0; i < 64; i++)
	{
		ADD(i);
		ADD(len - 1 - i);
		if (exc < len)
			ADD(exc + i);
	}
	while (n < SAMPLE_PREFIXES)
		ADD((size_t) (unit_rand(&rng) % len));
#undef ADD
	qsort(v, n, sizeof(size_t), cmp_size);
	for (i = 0, u = 0; i < n; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}

/* Checks one prefix of length k against the full decode. */
static bool
check_prefix(const char *name, const uint8_t *data, size_t k, const stream_result *full,
			 size_t exc, bool tcp, feed_mode mode, uint64_t chunk, unsigned flags,
			 stream_result *res)
{
	uint64_t	complete = 0;
	bool		on_boundary = k == 0;
	uint64_t	i;
	bool		ok = true;
	ch_status	want;

	for (i = 0; i < full->nblocks && i < MAX_STREAM_BLOCKS; i++)
	{
		if (full->start[i + 1] <= k)
			complete++;
		if (full->start[i + 1] == k)
			on_boundary = true;
	}
	if (exc != SIZE_MAX && k >= exc + 6)
		want = CH_ERR_SERVER;
	else if (on_boundary)
		want = CH_END;
	else
		want = CH_ERR_TRUNCATED;

	decode_stream_flags(data, k, mode, chunk, tcp, NULL, NULL, flags, res);
	ok &= CHECK_MSG(res->final == want, "%s%s prefix %zu/%zu: %s, expected %s (%s)", name,
					tcp ? " (tcp)" : "", k, (size_t) full->start[full->nblocks],
					ch_status_name(res->final), ch_status_name(want), res->err.message);
	ok &= CHECK_MSG(res->protocol_ok, "%s prefix %zu: next() protocol broken", name, k);
	ok &= CHECK_MSG(res->nblocks == complete, "%s%s prefix %zu: %" PRIu64 " blocks, expected %" PRIu64,
					name, tcp ? " (tcp)" : "", k, res->nblocks, complete);
	/*
	 * A block handed out must be the full decode's block: same bytes (same
	 * start and end) and, unless light, the same hash of all its values.
	 * start[nblocks] is where the reader stopped: the end of the last
	 * complete block whatever the final status.
	 */
	for (i = 0; ok && i <= res->nblocks && i <= complete && i < MAX_STREAM_BLOCKS; i++)
	{
		ok &= CHECK_MSG(res->start[i] == full->start[i],
						"%s prefix %zu: block %" PRIu64 " at %" PRIu64 ", full decode %" PRIu64,
						name, k, i, res->start[i], full->start[i]);
		if (i < res->nblocks && !(flags & STREAM_LIGHT))
			ok &= CHECK_MSG(res->hash[i] == full->hash[i],
							"%s prefix %zu: block %" PRIu64 " differs from the full decode", name, k, i);
	}
	if (want == CH_ERR_TRUNCATED)
	{
		ok &= CHECK_MSG(res->err.code == CH_ERR_TRUNCATED && res->err.offset == (int64_t) k,
						"%s prefix %zu: error offset %" PRId64 " code %s", name, k,
						res->err.offset, ch_status_name(res->err.code));
		ok &= CHECK_MSG(res->err.message[0] != '\0', "%s prefix %zu: empty message", name, k);
	}
	if (want == CH_ERR_SERVER && k >= exc + 10)
		ok &= CHECK_MSG(res->err.server_code == 395, "%s prefix %zu: server_code %d", name, k,
						res->err.server_code);
	stream_result_free(res);
	return ok;
}

void
check_all_prefixes(const char *name, const uint8_t *data, size_t len, bool tcp)
{
	stream_result *full = calloc(2, sizeof(stream_result));
	stream_result *res = full + 1;
	const uint8_t *code = find_bytes(data, len, "Code: 395");
	size_t		exc = code ? (size_t) (code - data) : SIZE_MAX;
	size_t	   *lens;
	size_t		n,
				i;
	int			failures = 0;
	bool		big = len > ALL_PREFIXES_UP_TO;

	decode_stream(data, len, big ? FEED_CHUNK : FEED_ALL, 16384, tcp, NULL, NULL, full);
	if (!CHECK_MSG(full->final == (code ? CH_ERR_SERVER : CH_END), "%s: full decode: %s %s",
				   name, ch_status_name(full->final), full->err.message) ||
		!CHECK_MSG(full->nblocks < MAX_STREAM_BLOCKS, "%s: too many blocks", name))
	{
		stream_result_free(full);
		free(full);
		return;
	}
	n = prefix_lengths(len, full, exc, &lens);
	for (i = 0; i < n && failures < 5; i++)
	{
		/* big inputs stream in 16 KiB chunks (what a libcurl sink does) */
		if (!check_prefix(name, data, lens[i], full, exc, tcp,
						  big ? FEED_CHUNK : FEED_ALL, 16384, big ? STREAM_LIGHT : 0, res))
			failures++;
	}
	/* the small ones also in 1-byte chunks */
	for (i = 0; !big && i < n && failures < 5; i++)
		if (!check_prefix(name, data, lens[i], full, exc, tcp, FEED_BYTES, 0, 0, res))
			failures++;
	free(lens);
	stream_result_free(full);
	free(full);
}

TEST(truncated_prefixes_http)
{
	int			gi;

	for (gi = 0; gi < NG; gi++)
	{
		uint8_t    *data;
		size_t		len;

		if (!golden_read(goldens[gi], &data, &len))
			continue;
		check_all_prefixes(goldens[gi], data, len, false);
		free(data);
	}
}

/* The golden with "01 00 02 ff ff ff ff 00" in front of every block. */
static bool
to_tcp(const uint8_t *data, size_t len, ch_buf *out, stream_result *http)
{
	const uint8_t *code = find_bytes(data, len, "Code: 395");
	size_t		end = code ? (size_t) (code - data) : len;
	uint64_t	i;

	decode_stream(data, len, FEED_ALL, 0, false, NULL, NULL, http);
	if (http->nblocks >= MAX_STREAM_BLOCKS)
		return false;
	for (i = 0; i < http->nblocks; i++)
	{
		size_t		s = (size_t) http->start[i];
		size_t		e = (size_t) http->start[i + 1];

		bld_raw(out, "\x01\x00\x02\xff\xff\xff\xff\x00", 8);
		bld_raw(out, data + s, e - s);
	}
	if (end < len)
		bld_raw(out, data + end, len - end);
	return true;
}

TEST(tcp_framing_goldens)
{
	int			gi;

	for (gi = 0; gi < NG; gi++)
	{
		uint8_t    *data;
		size_t		len;
		ch_buf		tcp;
		stream_result *r = calloc(3, sizeof(stream_result));
		uint64_t	i;

		/* TCP carries exceptions in their own packets, never as text */
		if (strncmp(goldens[gi], "exception_", 10) == 0)
		{
			free(r);
			continue;
		}
		if (!golden_read(goldens[gi], &data, &len))
		{
			free(r);
			continue;
		}
		ch_buf_init(&tcp, NULL);
		if (CHECK_MSG(to_tcp(data, len, &tcp, &r[0]), "%s: cannot build TCP framing", goldens[gi]))
		{
			decode_stream(tcp.data, tcp.len, FEED_ALL, 0, true, NULL, NULL, &r[1]);
			decode_stream(tcp.data, tcp.len, FEED_RANDOM, 7, true, NULL, NULL, &r[2]);
			CHECK_MSG(r[1].final == r[0].final && r[2].final == r[0].final,
					  "%s (tcp): final %s / %s, http %s", goldens[gi], ch_status_name(r[1].final),
					  ch_status_name(r[2].final), ch_status_name(r[0].final));
			if (CHECK_MSG(r[1].nblocks == r[0].nblocks && r[2].nblocks == r[0].nblocks,
						  "%s (tcp): block count", goldens[gi]))
				for (i = 0; i < r[0].nblocks && i < MAX_STREAM_BLOCKS; i++)
					CHECK_MSG(r[1].hash[i] == r[0].hash[i] && r[2].hash[i] == r[0].hash[i],
							  "%s (tcp): block %" PRIu64 " differs", goldens[gi], i);
			/* re-encoded with BlockInfo: the same bytes */
			{
				const uint8_t *code = find_bytes(tcp.data, tcp.len, "Code: 395");
				size_t		end = code ? (size_t) (code - tcp.data) : tcp.len;

				CHECK_MSG(r[1].reencoded.len == end &&
						  (end == 0 || memcmp(r[1].reencoded.data, tcp.data, end) == 0),
						  "%s (tcp): re-encoding differs", goldens[gi]);
			}
			/* the HTTP reader must not accept the TCP bytes as the same blocks */
			if (r[0].nblocks > 0)
			{
				stream_result *h = calloc(1, sizeof(stream_result));

				decode_stream(tcp.data, tcp.len, FEED_ALL, 0, false, NULL, NULL, h);
				CHECK_MSG(h->nblocks == 0 || h->hash[0] != r[0].hash[0],
						  "%s: HTTP framing accepted a TCP stream", goldens[gi]);
				stream_result_free(h);
				free(h);
			}
			/* prefixes of the small ones */
			if (tcp.len <= 4000)
				check_all_prefixes(goldens[gi], tcp.data, tcp.len, true);
		}
		for (i = 0; i < 3; i++)
			stream_result_free(&r[i]);
		free(r);
		ch_buf_free(&tcp);
		free(data);
	}
}

/*
 * Random byte flips, insertions, deletions and truncations of the small
 * goldens: any status is fine but never a crash, a sanitizer report, a
 * NEED_MORE after finish, or a block that cannot be walked.
 */
TEST(mutated_goldens_never_crash)
{
	int			gi;
	uint64_t	rng = 12345;
	uint64_t	total = 0,
				ok_blocks = 0;

	for (gi = 0; gi < NG; gi++)
	{
		uint8_t    *data;
		size_t		len;
		int			iter;

		if (!golden_read(goldens[gi], &data, &len))
			continue;
		if (len == 0 || len > 4000)
		{
			free(data);
			continue;
		}
		for (iter = 0; iter < 1500; iter++)
		{
			uint8_t    *m = malloc(len + 16);
			size_t		mlen = len;
			int			nmut = 1 + (int) (unit_rand(&rng) % 4);
			int			j;
			stream_result *res = calloc(1, sizeof(stream_result));

			memcpy(m, data, len);
			for (j = 0; j < nmut && mlen > 0; j++)
			{
				uint64_t	x = unit_rand(&rng);
				size_t		pos = (size_t) ((x >> 8) % mlen);

				switch (x % 6)
				{
					case 0:
					case 1:
						m[pos] ^= (uint8_t) (1u << ((x >> 40) % 8));
						break;
					case 2:
						m[pos] = (uint8_t) (x >> 48);
						break;
					case 3:		/* interesting values */
						{
							static const uint8_t vals[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x43, 0x0a};

							m[pos] = vals[(x >> 40) % sizeof(vals)];
							break;
						}
					case 4:		/* delete a byte */
						memmove(m + pos, m + pos + 1, mlen - pos - 1);
						mlen--;
						break;
					default:	/* insert a byte */
						if (mlen < len + 16)
						{
							memmove(m + pos + 1, m + pos, mlen - pos);
							m[pos] = (uint8_t) (x >> 32);
							mlen++;
						}
						break;
				}
			}
			decode_stream(m, mlen, (iter & 1) ? FEED_ALL : FEED_RANDOM, (uint64_t) iter, false,
						  NULL, NULL, res);
			CHECK_MSG(res->protocol_ok, "%s mutation %d: next() protocol broken", goldens[gi], iter);
			CHECK_MSG(res->final != CH_OK && res->final != CH_NEED_MORE &&
					  res->final != CH_ERR_INTERNAL,
					  "%s mutation %d: final %s", goldens[gi], iter, ch_status_name(res->final));
			if (res->final != CH_END)
				CHECK_MSG(res->err.code == res->final && res->err.message[0] != '\0',
						  "%s mutation %d: %s without a message", goldens[gi], iter,
						  ch_status_name(res->final));
			ok_blocks += res->nblocks;
			total++;
			stream_result_free(res);
			free(res);
			free(m);
		}
		free(data);
	}
	CHECK(total > 10000);
	CHECK(ok_blocks > 0);
}
