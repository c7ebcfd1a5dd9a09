/*-------------------------------------------------------------------------
 * ch_cityhash.c
 *	  CityHash128, version 1.0.2 exactly: the checksum of ClickHouse's
 *	  compressed frames.
 *
 * Later CityHash releases (1.0.3, 1.1.x) changed the algorithm, so no system
 * library is used; this is written from the description in
 * ../shared/docs/clickhouse-wire.md section 3.4 (which follows Google's
 * city.cc 1.0.2, as bundled in ClickHouse's contrib/cityhash102 and in
 * clickhouse-cpp). All arithmetic is uint64 modulo 2^64 and all loads are
 * little-endian memcpy loads, so the result does not depend on the host's
 * byte order or on the alignment of the input.
 *
 * src/codec/ch_cityhash.c
 *-------------------------------------------------------------------------
 */
#include "ch_compress.h"

static const uint64_t k0 = UINT64_C(0xc3a5c85c97cb3127);
static const uint64_t k1 = UINT64_C(0xb492b66fbe98f273);
static const uint64_t k2 = UINT64_C(0x9ae16a3b2f90404f);
static const uint64_t k3 = UINT64_C(0xc949d7c7509e6557);
static const uint64_t kMul = UINT64_C(0x9ddfea08eb382d69);

typedef struct u128
{
	uint64_t	lo;
	uint64_t	hi;
} u128;

static inline uint64_t
fetch64(const uint8_t *p)
{
	return ch_le64(p);
}

static inline uint64_t
fetch32(const uint8_t *p)
{
	return ch_le32(p);
}

/* Rotate right; a shift of 0 leaves the value unchanged. */
static inline uint64_t
rotate(uint64_t v, int s)
{
	return s == 0 ? v : ((v >> s) | (v << (64 - s)));
}

static inline uint64_t
shift_mix(uint64_t v)
{
	return v ^ (v >> 47);
}

/* Hash128to64 (Murmur-inspired), alias HashLen16. */
static inline uint64_t
hash_len16(uint64_t u, uint64_t v)
{
	uint64_t	a = (u ^ v) * kMul;
	uint64_t	b;

	a ^= a >> 47;
	b = (v ^ a) * kMul;
	b ^= b >> 47;
	b *= kMul;
	return b;
}

static uint64_t
hash_len0to16(const uint8_t *s, size_t len)
{
	if (len > 8)
	{
		uint64_t	a = fetch64(s);
		uint64_t	b = fetch64(s + len - 8);

		return hash_len16(a, rotate(b + len, (int) len)) ^ b;
	}
	if (len >= 4)
	{
		uint64_t	a = fetch32(s);

		return hash_len16(len + (a << 3), fetch32(s + len - 4));
	}
	if (len > 0)
	{
		uint8_t		a = s[0];
		uint8_t		b = s[len >> 1];
		uint8_t		c = s[len - 1];
		uint32_t	y = (uint32_t) a + ((uint32_t) b << 8);
		uint32_t	z = (uint32_t) len + ((uint32_t) c << 2);

		return shift_mix((uint64_t) y * k2 ^ (uint64_t) z * k3) * k2;
	}
	return k2;
}

/* Returns (a + z, b + c) of the 32 bytes at s with seeds a and b. */
static inline u128
weak_hash_len32_with_seeds(const uint8_t *s, uint64_t a, uint64_t b)
{
	uint64_t	w = fetch64(s);
	uint64_t	x = fetch64(s + 8);
	uint64_t	y = fetch64(s + 16);
	uint64_t	z = fetch64(s + 24);
	uint64_t	c;
	u128		r;

	a += w;
	b = rotate(b + a + z, 21);
	c = a;
	a += x;
	a += y;
	b += rotate(a, 44);
	r.lo = a + z;
	r.hi = b + c;
	return r;
}

/* For inputs shorter than 128 bytes. */
static u128
city_murmur(const uint8_t *s, size_t len, u128 seed)
{
	uint64_t	a = seed.lo;
	uint64_t	b = seed.hi;
	uint64_t	c;
	uint64_t	d;
	u128		r;

	if (len <= 16)
	{
		a = shift_mix(a * k1) * k1;
		c = b * k1 + hash_len0to16(s, len);
		d = shift_mix(a + (len >= 8 ? fetch64(s) : c));
	}
	else
	{
		/* the tail loads use the original end of the input */
		c = hash_len16(fetch64(s + len - 8) + k1, a);
		d = hash_len16(b + len, c + fetch64(s + len - 16));
		a += d;
		do
		{
			a ^= shift_mix(fetch64(s) * k1) * k1;
			a *= k1;
			b ^= a;
			c ^= shift_mix(fetch64(s + 8) * k1) * k1;
			c *= k1;
			d ^= c;
			s += 16;
			len -= 16;
		} while (len > 16);
	}
	a = hash_len16(a, c);
	b = hash_len16(d, b);
	r.lo = a ^ b;
	r.hi = hash_len16(b, a);
	return r;
}

/* One 64-byte step of the main loop of city_hash128_with_seed. */
static inline void
mix64(const uint8_t *s, uint64_t *x, uint64_t *y, uint64_t *z,
	  u128 *v, u128 *w)
{
	uint64_t	t;

	*x = rotate(*x + *y + v->lo + fetch64(s + 16), 37) * k1;
	*y = rotate(*y + v->hi + fetch64(s + 48), 42) * k1;
	*x ^= w->hi;
	*y ^= v->lo;
	*z = rotate(*z ^ w->lo, 33);
	*v = weak_hash_len32_with_seeds(s, v->hi * k1, *x + w->lo);
	*w = weak_hash_len32_with_seeds(s + 32, *z + w->hi, *y);
	t = *z;
	*z = *x;
	*x = t;
}

static u128
city_hash128_with_seed(const uint8_t *s, size_t len, u128 seed)
{
	uint64_t	x;
	uint64_t	y;
	uint64_t	z;
	u128		v;
	u128		w;
	u128		r;
	size_t		done;

	if (len < 128)
		return city_murmur(s, len, seed);

	x = seed.lo;
	y = seed.hi;
	z = len * k1;
	v.lo = rotate(y ^ k1, 49) * k1 + fetch64(s);
	v.hi = rotate(v.lo, 42) * k1 + fetch64(s + 8);
	w.lo = rotate(y + z, 35) * k1 + x;
	w.hi = rotate(x + fetch64(s + 88), 53) * k1;

	/* 128 bytes per iteration */
	do
	{
		mix64(s, &x, &y, &z, &v, &w);
		s += 64;
		mix64(s, &x, &y, &z, &v, &w);
		s += 64;
		len -= 128;
	} while (len >= 128);

	y += rotate(w.lo, 37) * k0 + z;
	x += rotate(v.lo + z, 49) * k0;

	/*
	 * Up to four 32-byte chunks taken from the end of the input; s + len -
	 * done may point before s, re-reading consumed bytes, as in 1.0.2.
	 */
	for (done = 0; done < len;)
	{
		done += 32;
		y = rotate(y - x, 42) * k0 + v.hi;
		w.lo += fetch64(s + len - done + 16);
		x = rotate(x, 49) * k0 + w.lo;
		w.lo += v.lo;
		v = weak_hash_len32_with_seeds(s + len - done, v.lo, v.hi);
	}

	x = hash_len16(x, v.lo);
	y = hash_len16(y, w.lo);
	r.lo = hash_len16(x + v.hi, w.hi) + y;
	r.hi = hash_len16(x + w.hi, y + v.hi);
	return r;
}

/*
 * ch_cityhash128
 *		CityHash128 v1.0.2 of data[0..len) into *lo and *hi.
 *
 * data may be NULL when len is 0. Reads exactly len bytes; never fails.
 */
void
ch_cityhash128(const void *data, size_t len, uint64_t *lo, uint64_t *hi)
{
	const uint8_t *s = (const uint8_t *) data;
	u128		seed;
	u128		r;

	if (len >= 16)
	{
		seed.lo = fetch64(s) ^ k3;
		seed.hi = fetch64(s + 8);
		r = city_hash128_with_seed(s + 16, len - 16, seed);
	}
	else if (len >= 8)
	{
		seed.lo = fetch64(s) ^ (len * k0);
		seed.hi = fetch64(s + len - 8) ^ k1;
		r = city_hash128_with_seed(NULL, 0, seed);
	}
	else
	{
		seed.lo = k0;
		seed.hi = k1;
		r = city_hash128_with_seed(s, len, seed);
	}
	*lo = r.lo;
	*hi = r.hi;
}
