/*-------------------------------------------------------------------------
 * test_decimal.c
 *	  ch_decimal_to_double against glibc's strtod (correctly rounded): on
 *	  random decimals of 1-30 digits over the whole double range, and on
 *	  numbers at and next to the points halfway between two doubles, every
 *	  decided value must have strtod's bits; most values must be decided.
 *
 * test/unit/test_decimal.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <float.h>
#include <stdlib.h>

#include "ch_decimal.h"

static uint64_t rng = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * The integer digit string dig (no sign, no point) times 10^x, handed to
 * ch_decimal_to_double as the FDW does (its first 19 significant digits,
 * whether any later one is nonzero, the exponent of the last one taken),
 * against strtod of the whole number. Returns 1 when decided and equal, 0
 * when undecided, -1 (and a failed check) when decided and different.
 */
static int
one(const char *dig, int x, const char *why)
{
	char		buf[600];
	uint64_t	w = 0;
	int			len = (int) strlen(dig),
				taken = 0,
				last = -1,
				i;
	bool		more = false;
	double		want,
				got;

	for (i = 0; i < len; i++)
	{
		if (taken == 0 && dig[i] == '0')
			continue;
		if (taken < 19)
		{
			w = w * 10 + (uint64_t) (dig[i] - '0');
			taken++;
			last = i;
		}
		else if (dig[i] != '0')
			more = true;
	}
	snprintf(buf, sizeof(buf), "%se%d", dig, x);
	want = strtod(buf, NULL);
	if (!ch_decimal_to_double(w, last < 0 ? x : x + (len - 1 - last), more, &got))
		return 0;
	if (memcmp(&want, &got, sizeof(double)) != 0)
	{
		CHECK_MSG(false, "%s: %s gives %.17g, strtod %.17g", why, buf, got, want);
		return -1;
	}
	return 1;
}

static void
random_digits(char *out, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		out[i] = (char) ('0' + next_rand() % 10);
	if (n > 0 && out[0] == '0')
		out[0] = '1';
	out[n] = '\0';
}

TEST(decimal_small_exact)
{
	/* Clinger's path and the zero */
	CHECK_EQ_INT(one("0", 0, "zero"), 1);
	CHECK_EQ_INT(one("1", 0, "one"), 1);
	CHECK_EQ_INT(one("142857142857142857", -5, "18 digits"), 1);
	CHECK_EQ_INT(one("9007199254740992", 0, "2^53"), 1);
	CHECK_EQ_INT(one("9007199254740992", 22, "2^53 e22"), 1);
	CHECK_EQ_INT(one("9007199254740992", -22, "2^53 e-22"), 1);
	CHECK(one("9007199254740993", 0, "2^53+1, a tie") >= 0);
	CHECK(one("17976931348623157", 292, "DBL_MAX") >= 0);
	CHECK(one("22250738585072014", -324, "DBL_MIN") >= 0);
	CHECK(one("5", -324, "denormal") >= 0);
	CHECK(one("1", 400, "overflow") == 0);
	CHECK(one("1", -400, "underflow") == 0);
}

TEST(decimal_random)
{
	char		dig[40];
	int			n,
				decided = 0,
				wrong = 0,
				i;
	int			total = 400000;

	for (i = 0; i < total; i++)
	{
		int			r;

		n = 1 + (int) (next_rand() % 30);
		random_digits(dig, n);
		/* mostly the ranges people use, some over the whole double range */
		if (i % 4 == 0)
			r = one(dig, (int) (next_rand() % 640) - 340, "random wide");
		else
			r = one(dig, (int) (next_rand() % 60) - 40, "random");
		decided += r == 1;
		wrong += r < 0;
	}
	CHECK_EQ_INT(wrong, 0);
	/* undecided: ties, the edges of the range */
	CHECK_MSG(decided > total * 9 / 10, "decided %d of %d", decided, total);
}

/* the number g / 7.0 of the INSERT benchmark, as numeric prints it */
TEST(decimal_benchmark_values)
{
	char		dig[64];
	int			g,
				decided = 0,
				wrong = 0;

	for (g = 1; g <= 200000; g += 7)
	{
		/* 20 fractional digits, numeric's division scale for these */
		long long	q = g / 7;
		int			r = g % 7,
					k,
					res;
		char	   *p = dig + snprintf(dig, sizeof(dig), "%lld", q);

		for (k = 0; k < 20; k++)
		{
			r *= 10;
			*p++ = (char) ('0' + r / 7);
			r %= 7;
		}
		*p = '\0';
		res = one(dig, -20, "g/7");
		decided += res == 1;
		wrong += res < 0;
	}
	CHECK_EQ_INT(wrong, 0);
	CHECK_MSG(decided > 200000 / 7 * 9 / 10, "decided %d", decided);
}

/*
 * Numbers at, just above and just below the point halfway between two
 * adjacent doubles: exact decimals of the midpoint (a long double holds it
 * exactly, printf prints it exactly), cut to various lengths.
 */
TEST(decimal_ties)
{
#if LDBL_MANT_DIG >= 64
	char		full[600];
	char		cut[64];
	int			i,
				wrong = 0;

	for (i = 0; i < 20000; i++)
	{
		uint64_t	bits;
		double		d,
					up;
		long double mid;
		int			e,
					len,
					k,
					r;
		char	   *dot;

		/* a double between 2^-60 and 2^200 */
		e = (int) (next_rand() % 260) - 60;
		bits = ((uint64_t) (e + 1023) << 52) | (next_rand() & ((UINT64_C(1) << 52) - 1));
		memcpy(&d, &bits, sizeof(d));
		bits++;
		memcpy(&up, &bits, sizeof(up));
		mid = ((long double) d + (long double) up) / 2;
		snprintf(full, sizeof(full), "%.130Lf", mid);
		/* digits without the point, the exponent of the last one */
		dot = strchr(full, '.');
		len = (int) strlen(full);
		{
			int			frac = len - (int) (dot - full) - 1;

			memmove(dot, dot + 1, (size_t) frac + 1);
			len--;
			/* strip trailing zeros */
			while (len > 1 && full[len - 1] == '0')
			{
				full[--len] = '\0';
				frac--;
			}
			r = one(full, -frac, "tie");
			wrong += r < 0;
			/* the tie cut to k significant digits, and one unit of the last digit up */
			for (k = 17; k <= 22; k++)
			{
				int			lead = 0;

				while (full[lead] == '0')
					lead++;
				if (lead + k >= len)
					break;
				memcpy(cut, full + lead, (size_t) k);
				cut[k] = '\0';
				wrong += one(cut, -frac + (len - lead - k), "tie cut") < 0;
				/* increment the cut */
				{
					int			j = k - 1;

					while (j >= 0 && cut[j] == '9')
						cut[j--] = '0';
					if (j >= 0)
					{
						cut[j]++;
						wrong += one(cut, -frac + (len - lead - k), "tie cut up") < 0;
					}
				}
			}
		}
	}
	CHECK_EQ_INT(wrong, 0);
#endif
}
