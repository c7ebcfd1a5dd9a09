/*-------------------------------------------------------------------------
 * test_lc_key.c
 *	  The LowCardinality key representation (src/codec/ch_lc_key.h): a
 *	  short key's two words give back exactly its bytes, different keys of
 *	  up to 16 bytes have different words, and keys whose words would make
 *	  a zero multiplication factor still spread over the table.
 *
 * test/unit/test_lc_key.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "../../src/codec/ch_lc_key.h"

TEST(lc_key_words_round_trip)
{
	uint8_t		key[LC_SHORT_KEY];
	size_t		n;
	int			i;

	for (n = 0; n <= LC_SHORT_KEY; n++)
	{
		uint64_t	a,
					b;
		uint8_t		back[LC_SHORT_KEY];

		for (i = 0; i < (int) n; i++)
			key[i] = (uint8_t) (0x11 * (i + 1) + n);
		memset(back, 0xee, sizeof(back));
		key_words(key, n, &a, &b);
		key_bytes(back, a, b, n);
		CHECK_EQ_MEM(back, n, key, n);
	}
}

TEST(lc_key_words_tell_keys_apart)
{
	/* every single-byte change of every length gives other words */
	uint8_t		key[LC_SHORT_KEY];
	size_t		n;
	size_t		pos;

	for (n = 1; n <= LC_SHORT_KEY; n++)
	{
		uint64_t	a0,
					b0;

		memset(key, 'k', n);
		key_words(key, n, &a0, &b0);
		for (pos = 0; pos < n; pos++)
		{
			uint64_t	a,
						b;

			key[pos] ^= 0x20;
			key_words(key, n, &a, &b);
			CHECK_MSG(a != a0 || b != b0, "length %zu, byte %zu changed, same words", n, pos);
			key[pos] ^= 0x20;
		}
	}
}

TEST(lc_key_hash_spreads_zero_factors)
{
	/*
	 * Keys sharing the second word that makes the multiply factor zero
	 * (b == LC_S1) must still hash apart: 1000 of them over 1024 slots use
	 * many slots, not one.
	 */
	static uint8_t used[1024];
	int			distinct = 0;
	uint64_t	i;

	memset(used, 0, sizeof(used));
	for (i = 0; i < 1000; i++)
	{
		uint32_t	s = (uint32_t) hash_words(i * 0x9e3779b97f4a7c15ULL, LC_S1, LC_SEED, 16) & 1023;

		if (!used[s])
			distinct++;
		used[s] = 1;
	}
	CHECK_MSG(distinct > 500, "only %d of 1024 slots used", distinct);
	/* equal keys, equal hashes; the length is part of the hash */
	CHECK(hash_words(1, 2, LC_SEED, 8) == hash_words(1, 2, LC_SEED, 8));
	CHECK(hash_words(1, 2, LC_SEED, 8) != hash_words(1, 2, LC_SEED, 9));
	CHECK(hash_long((const uint8_t *) "0123456789abcdefXYZ", 19) !=
		  hash_long((const uint8_t *) "0123456789abcdefXYz", 19));
}
