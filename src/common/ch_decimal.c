/*-------------------------------------------------------------------------
 * ch_decimal.c
 *	  w * 10^e10 to the nearest double without text (see ch_decimal.h for
 *	  the contract and why the answer equals a correctly rounded strtod's).
 *
 * src/common/ch_decimal.c
 *-------------------------------------------------------------------------
 */
#include "ch_decimal.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the exponents the long-double path accepts (w has at most 20 digits) */
#define P10_MIN (-330)
#define P10_MAX 310

/* long double must carry at least 64 bits of mantissa for the wide path */
#if defined(LDBL_MANT_DIG) && LDBL_MANT_DIG >= 64
#define HAVE_WIDE 1
static long double p10[P10_MAX - P10_MIN + 1];
static bool p10_ready;
#else
#define HAVE_WIDE 0
#endif

/* 10^0 .. 10^22: exact doubles */
static const double exact10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

#if HAVE_WIDE
/* 10^k as the nearest long double (strtold is correctly rounded), once */
static void
p10_init(void)
{
	int			k;

	for (k = P10_MIN; k <= P10_MAX; k++)
	{
		char		buf[16];

		snprintf(buf, sizeof(buf), "1e%d", k);
		p10[k - P10_MIN] = strtold(buf, NULL);
	}
	p10_ready = true;
}

/* 2^k as a double, for -1022 <= k <= 1023 */
static double
pow2(int k)
{
	uint64_t	bits = (uint64_t) (k + 1023) << 52;
	double		d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/*
 * r (within 2 long-double ulps of a positive true value) to the double the
 * true value rounds to: true, unless r is too close to a point halfway
 * between two doubles to tell, or out of the range handled.
 */
static bool
round_wide(long double r, double *out)
{
	double		d;
	long double diff,
				half,
				dist;
	uint64_t	bits;
	int			be;

	if (!(r >= 0x1p-1000L && r < 0x1p1000L))
		return false;
	d = (double) r;				/* to nearest: the answer unless near a tie */
	diff = r - (long double) d; /* exact: fewer bits than r's mantissa */
	memcpy(&bits, &d, sizeof(bits));
	be = (int) ((bits >> 52) & 0x7ff);
	/* half an ulp of d; below a power of two, half the smaller ulp */
	half = pow2(be - 1023 - 53);
	if ((bits & ((UINT64_C(1) << 52) - 1)) == 0 && diff < 0)
		half /= 2;
	dist = (diff < 0 ? -diff : diff) - half;
	if (dist < 0)
		dist = -dist;
	/*
	 * an ulp of r is half * 2^(54 - LDBL_MANT_DIG), r is within 2 of them:
	 * refuse within 8 (a fraction 2^(57 - LDBL_MANT_DIG) of all values)
	 */
	if (dist <= half / (long double) (UINT64_C(1) << (LDBL_MANT_DIG - 57)))
		return false;
	*out = d;
	return true;
}
#endif

bool
ch_decimal_to_double(uint64_t w, int e10, bool more_digits, double *out)
{
	if (w == 0 && !more_digits)
	{
		*out = 0.0;
		return true;
	}
#if FLT_EVAL_METHOD == 0
	/* Clinger: both exact, one correctly rounded operation */
	if (!more_digits && w <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22)
	{
		*out = e10 < 0 ? (double) w / exact10[-e10] : (double) w * exact10[e10];
		return true;
	}
#endif
#if HAVE_WIDE
	if (e10 < P10_MIN || e10 > P10_MAX)
		return false;
	if (!p10_ready)
		p10_init();
	{
		long double p = p10[e10 - P10_MIN];
		double		lo,
					hi;

		/* w is exact in 64 bits of mantissa; the product rounds once */
		if (!round_wide((long double) w * p, &lo))
			return false;
		if (more_digits)
		{
			if (w == UINT64_MAX || !round_wide((long double) (w + 1) * p, &hi) || hi != lo)
				return false;
		}
		*out = lo;
		return true;
	}
#else
	return false;
#endif
}
