/*-------------------------------------------------------------------------
 * ch_lc_key.h
 *	  Keys of the LowCardinality dictionaries the writer builds: a key of at
 *	  most LC_SHORT_KEY bytes as two words that hold all of its bytes (and
 *	  back), and the hash of any key. Pure functions, inline for the
 *	  writer's append path; no writer state.
 *
 * src/codec/ch_lc_key.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_LC_KEY_H
#define CH_LC_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "ch_common.h"

/* keys up to this many bytes live in the hash slot itself */
#define LC_SHORT_KEY 16

#define LC_S0	0xa0761d6478bd642fULL
#define LC_S1	0xe7037ed1a0b428dbULL
#define LC_SEED	0x8bb84b93962eacc9ULL

static inline uint64_t
mum(uint64_t a, uint64_t b)
{
	unsigned __int128 r = (unsigned __int128) a * b;

	return (uint64_t) r ^ (uint64_t) (r >> 64);
}

/*
 * A key of n <= 16 bytes as two words holding all of its bytes (wyhash's
 * reads: overlapping 4-byte loads, one branch-free path for 4..16 bytes),
 * so that equal (n, a, b) means equal keys.
 */
static inline void
key_words(const uint8_t *p, size_t n, uint64_t *a, uint64_t *b)
{
	if (CH_LIKELY(n >= 4))
	{
		size_t		q = (n >> 3) << 2;

		*a = ((uint64_t) ch_le32(p) << 32) | ch_le32(p + q);
		*b = ((uint64_t) ch_le32(p + n - 4) << 32) | ch_le32(p + n - 4 - q);
	}
	else if (n > 0)
	{
		*a = ((uint64_t) p[0] << 16) | ((uint64_t) p[n >> 1] << 8) | p[n - 1];
		*b = 0;
	}
	else
		*a = *b = 0;
}

/*
 * One multiply-fold of both words (wyhash's mum; the table index takes its
 * low bits). A second fold, as wyhash's finish has, cost dims 10-15% of its
 * Native encode time for no fewer collisions on the benchmark's keys. The
 * factors are xor-ed in too: a zero factor would otherwise send every key
 * sharing the other word to one slot.
 */
static inline uint64_t
hash_words(uint64_t a, uint64_t b, uint64_t seed, size_t n)
{
	uint64_t	x = a ^ seed ^ n;
	uint64_t	y = b ^ LC_S1;

	return mum(x, y) ^ x ^ y;
}

/* Hash of a key longer than 16 bytes: 16 bytes per step, overlapping tail. */
static inline uint64_t
hash_long(const uint8_t *p, size_t n)
{
	uint64_t	seed = LC_SEED;
	size_t		i = n;

	while (i > 16)
	{
		seed = mum(ch_le64(p) ^ LC_S1, ch_le64(p + 8) ^ seed);
		p += 16;
		i -= 16;
	}
	return hash_words(ch_le64(p + i - 16), ch_le64(p + i - 8), seed, n);
}

/* A key being looked up: its bytes, slot words and hash. */
typedef struct lc_key
{
	const uint8_t *p;
	size_t		n;
	uint64_t	a;				/* as lc_slot.a */
	uint64_t	b;				/* short key: as lc_slot.b */
	uint64_t	hv;
} lc_key;

static inline void
key_make(lc_key *k, const uint8_t *p, size_t n)
{
	k->p = p;
	k->n = n;
	if (CH_LIKELY(n <= LC_SHORT_KEY))
	{
		key_words(p, n, &k->a, &k->b);
		k->hv = hash_words(k->a, k->b, LC_SEED, n);
	}
	else
	{
		k->hv = k->a = hash_long(p, n);
		k->b = 0;
	}
}

/* Write a short key's bytes back from its words (inverse of key_words). */
static inline void
key_bytes(uint8_t *dst, uint64_t a, uint64_t b, size_t n)
{
	if (n >= 4)
	{
		size_t		q = (n >> 3) << 2;

		ch_put_le32(dst, (uint32_t) (a >> 32));
		ch_put_le32(dst + q, (uint32_t) a);
		ch_put_le32(dst + n - 4 - q, (uint32_t) b);
		ch_put_le32(dst + n - 4, (uint32_t) (b >> 32));
	}
	else if (n > 0)
	{
		dst[0] = (uint8_t) (a >> 16);
		dst[n >> 1] = (uint8_t) (a >> 8);
		dst[n - 1] = (uint8_t) a;
	}
}

#endif							/* CH_LC_KEY_H */
