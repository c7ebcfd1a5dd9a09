/*-------------------------------------------------------------------------
 * finish.c
 *	  Aggregates ClickHouse computes in pieces and PostgreSQL finishes, so
 *	  the result is PostgreSQL's own to the last digit:
 *	  - avg() of integers: ClickHouse sends the exact sum and count as text
 *		"sum/count" (every sum as the hex of its Decimal128 bytes, see
 *		hex128_num); numeric_div divides them as int8_avg and
 *		numeric_poly_avg do (numeric's result scale);
 *	  - variance/stddev families of smallint and integer: ClickHouse sends
 *		"N/sum(x)/sum(x*x)" (exact Decimal128 sums); of bigint, whose square
 *		does not fit, "N/sum(x)/sum(h*h)/sum(h*l)/sum(l*l)" with x = h * 2^32
 *		+ l; the numeric arithmetic of numeric_stddev_internal (which is
 *		what PostgreSQL runs for all three types) is replayed with numeric's
 *		functions.
 *	  - (numagg) avg and the variance family of numeric columns: the same
 *		from "W/S/K/N/sums" with the column's scale (finish_numeric,
 *		agg_numeric.c); (numagg3) and the sum of a numeric column sent in
 *		limbs (CHFDW_FINISH_NUM_SUM);
 *	  - array_agg and percentile_*(array of fractions): ClickHouse answers
 *		an empty array over no rows, which is PostgreSQL's NULL.
 *
 * src/fdw/finish.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

#include "chfdw.h"

static Datum
num(const char *s)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s), ObjectIdGetDatum(InvalidOid),
							   Int32GetDatum(-1));
}

/*
 * Split "a/b[/c...]" into nparts parts; false if malformed. Each part is
 * a decimal integer, or (hex_from: that part and the ones after it but
 * the count of avg, last) the hex of a Decimal128's little-endian bytes.
 */
static bool
split_parts(char *s, char **parts, int nparts)
{
	int			i;

	for (i = 0; i < nparts; i++)
	{
		char	   *end = i < nparts - 1 ? strchr(s, '/') : s + strlen(s);

		if (!end)
			return false;
		parts[i] = s;
		if (*end == '\0' && i < nparts - 1)
			return false;
		*end = '\0';
		s = end + 1;
	}
	return true;
}

static bool
is_decimal_int(const char *s)
{
	size_t		len = strlen(s);

	return len > 0 && strspn(s, "-0123456789") == len;
}

static int
hex_value(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/*
 * An integer of width bytes (16: Decimal128, 32: Decimal256) from the hex
 * of its bytes, least significant first, as reinterpretAsString gives them
 * (trailing zero bytes dropped, so 0 is "" and a shorter text is
 * positive): two's complement, sum of limb_i * 2^(64 i). *ok false if
 * malformed.
 */
static Datum
hex_num(const char *s, int width, bool *ok)
{
	size_t		len = strlen(s);
	uint64		w[4] = {0, 0, 0, 0};
	bool		neg;
	size_t		i;
	int			k;
	Datum		v = num("0");
	char		text[32];

	*ok = len <= (size_t) width * 2 && len % 2 == 0 &&
		strspn(s, "0123456789ABCDEFabcdef") == len;
	if (!*ok)
		return (Datum) 0;
	for (i = 0; i < len / 2; i++)
		w[i / 8] |= (uint64) (hex_value(s[2 * i]) * 16 + hex_value(s[2 * i + 1])) << (8 * (i % 8));
	neg = len == (size_t) width * 2 && (w[width / 8 - 1] >> 63) != 0;
	if (neg)
	{
		/* the magnitude: ~w + 1 over width bytes */
		unsigned	c = 1;

		for (k = 0; k < width / 8; k++)
		{
			w[k] = ~w[k] + c;
			c = c && w[k] == 0;
		}
	}
	for (k = width / 8 - 1; k >= 0; k--)
	{
		snprintf(text, sizeof(text), UINT64_FORMAT, w[k]);
		v = DirectFunctionCall2(numeric_add,
								DirectFunctionCall2(numeric_mul, v, num("18446744073709551616")),
								num(text));
	}
	return neg ? DirectFunctionCall1(numeric_uminus, v) : v;
}

/* A Decimal128 (scale 0) from the hex of its bytes (hex_num) */
static Datum
hex128_num(const char *s, bool *ok)
{
	return hex_num(s, 16, ok);
}

static void
bad_value(int kind, Datum value)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("unexpected value \"%s\" for an aggregate (finish kind %d) from ClickHouse",
					TextDatumGetCString(value), kind)));
}

/*
 * numeric_stddev_internal's arithmetic: variance = (N*sumX2 - sumX^2) /
 * (N*(N-1)) for samples, / (N*N) for the population, divided at numeric's
 * division scale; the standard deviation is its square root at that same
 * scale, rounded as sqrt_var rounds (see below).
 */
static Datum
finish_variance(int kind, Datum *p, int nparts, bool *isnull)
{
	bool		sample = kind == CHFDW_FINISH_VAR_SAMP || kind == CHFDW_FINISH_STDDEV_SAMP;
	bool		stddev = kind == CHFDW_FINISH_STDDEV_SAMP || kind == CHFDW_FINISH_STDDEV_POP;
	Datum		n = p[0];
	Datum		sx = p[1];
	Datum		sx2 = p[2];
	Datum		numer;
	Datum		denom;
	Datum		var;
	int64		count = DatumGetInt64(DirectFunctionCall1(numeric_int8, n));

	/* bigint: sum(x*x) = sum(h*h) * 2^64 + sum(h*l) * 2^33 + sum(l*l) */
	if (nparts == 5)
		sx2 = DirectFunctionCall2(numeric_add,
								  DirectFunctionCall2(numeric_add,
													  DirectFunctionCall2(numeric_mul, sx2,
																		  num("18446744073709551616")),
													  DirectFunctionCall2(numeric_mul, p[3],
																		  num("8589934592"))),
								  p[4]);

	if (count == 0 || (sample && count <= 1))
	{
		*isnull = true;
		return (Datum) 0;
	}
	numer = DirectFunctionCall2(numeric_sub,
								DirectFunctionCall2(numeric_mul, n, sx2),
								DirectFunctionCall2(numeric_mul, sx, sx));
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, numer, num("0"))) <= 0)
		return num("0");
	denom = DirectFunctionCall2(numeric_mul, n,
								sample ? DirectFunctionCall2(numeric_sub, n, num("1")) : n);
	var = DirectFunctionCall2(numeric_div, numer, denom);
	if (!stddev)
		return var;
	{
		/*
		 * The square root at the division's scale, rounded as sqrt_var rounds
		 * (to nearest, half up): computed 20 digits further and rounded, then
		 * checked exactly, (c - u/2)^2 <= variance < (c + u/2)^2 with u one
		 * unit of the last digit, and moved by u if not. (numagg2) Rounding
		 * twice is not enough: a variance n^2 + n (a half-odd square
		 * rounded, e.g. two values an odd distance apart) has the root
		 * n + 0.5 - 1/(8n) + ..., whose digits are 4999... past any fixed
		 * number of further digits.
		 */
		int32		rscale = DatumGetInt32(DirectFunctionCall1(numeric_scale, var));
		Datum		wide = DirectFunctionCall2(numeric_round, var, Int32GetDatum(rscale + 20));
		Datum		c = DirectFunctionCall2(numeric_round,
										   DirectFunctionCall1(numeric_sqrt, wide),
										   Int32GetDatum(rscale));
		char		e[16];
		Datum		u;
		Datum		h;
		Datum		b;

		snprintf(e, sizeof(e), "1e-%d", rscale);
		u = num(e);
		h = DirectFunctionCall2(numeric_mul, u, num("0.5"));
		b = DirectFunctionCall2(numeric_sub, c, h);
		if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, b, num("0"))) > 0 &&
			DatumGetInt32(DirectFunctionCall2(numeric_cmp, var,
											  DirectFunctionCall2(numeric_mul, b, b))) < 0)
			c = DirectFunctionCall2(numeric_sub, c, u);
		else
		{
			b = DirectFunctionCall2(numeric_add, c, h);
			if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, var,
												  DirectFunctionCall2(numeric_mul, b, b))) >= 0)
				c = DirectFunctionCall2(numeric_add, c, u);
		}
		return DirectFunctionCall2(numeric_round, c, Int32GetDatum(rscale));
	}
}

/*
 * (numagg) avg and the variance family of a numeric column from
 * "W/S/K/N/sum[/sumsq | /hh/hl/ll]" (agg_numeric.c): the sums are raw
 * integers of W bytes, the sum at scale S, the squares at 2S; with K = 32
 * or 64 sum(x*x) = hh * 2^2K + hl * 2^(K+1) + ll. (numagg2) K = 100 + L:
 * the raw integer in L limbs of 32 bits, r = sum of t_i * 2^(32 i), the
 * sums s_0..s_{L-1} of the limbs, then (the variance family) the sums p_ij
 * (i <= j, row by row) of their products: sum(r) = sum of s_i * 2^(32 i),
 * sum(r*r) = sum of p_ij * 2^(32 (i + j)) (twice for i < j). The scaled
 * values are made by multiplying by 1e-S (numeric_mul's scale is the sum of
 * its inputs'), so they have PostgreSQL's display scales: sum S, sum of
 * squares 2S.
 */
#define NUM_MAX_PARTS (4 + 8 + 36)

/* sum of p[i] * 2^shift_i (shift_i = step * i, or shifts[i]): exact numeric products */
static Datum
limbs_num(Datum *p, int n, int step, const int *shifts)
{
	Datum		v = num("0");
	int			i;

	for (i = 0; i < n; i++)
	{
		int			sh = shifts ? shifts[i] : step * i;
		Datum		f = p[i];

		for (; sh >= 32; sh -= 32)
			f = DirectFunctionCall2(numeric_mul, f, num("4294967296"));
		Assert(sh <= 1);		/* 32 (i + j) + 1 */
		if (sh == 1)
			f = DirectFunctionCall2(numeric_mul, f, num("2"));
		v = DirectFunctionCall2(numeric_add, v, f);
	}
	return v;
}

static Datum
finish_numeric(int kind, Datum value, bool *isnull)
{
	char	   *s = TextDatumGetCString(value);
	char	   *parts[NUM_MAX_PARTS];
	int			nparts = 1;
	char	   *c;
	int			w;
	int			scale;
	int			k;
	int			nlimbs = 0;
	int			i;
	bool		ok = true;
	Datum		p[NUM_MAX_PARTS - 4];
	Datum		vals[3];
	char		e[32];
	bool		sum_only = kind == CHFDW_FINISH_NUM_AVG || kind == CHFDW_FINISH_NUM_SUM;

	for (c = s; *c; c++)
		nparts += *c == '/';
	if (nparts < 5 || nparts > NUM_MAX_PARTS || !split_parts(s, parts, nparts))
		bad_value(kind, value);
	for (i = 0; i < 4; i++)
		if (!is_decimal_int(parts[i]) || parts[i][0] == '-' || strlen(parts[i]) > 18)
			bad_value(kind, value);
	w = atoi(parts[0]);
	scale = atoi(parts[1]);
	k = atoi(parts[2]);
	if (k == 104 || k == 108)
		nlimbs = k - 100;
	if ((w != 16 && w != 32) || scale > 76 || (k != 0 && k != 32 && k != 64 && !nlimbs) ||
		(nlimbs && w != 16) || (kind == CHFDW_FINISH_NUM_SUM && !nlimbs) ||
		nparts != (nlimbs ? (sum_only ? 4 + nlimbs :
							 4 + nlimbs + nlimbs * (nlimbs + 1) / 2) :
				   sum_only ? 5 : k == 0 ? 6 : 8))
		bad_value(kind, value);
	for (i = 4; i < nparts; i++)
	{
		p[i - 4] = hex_num(parts[i], w, &ok);
		if (!ok)
			bad_value(kind, value);
	}
	vals[0] = num(parts[3]);
	if (nlimbs)
	{
		int			shifts[36];
		int			j;
		int			n = 0;

		p[0] = limbs_num(p, nlimbs, 32, NULL);
		if (!sum_only)
		{
			for (i = 0; i < nlimbs; i++)
				for (j = i; j < nlimbs; j++)
				{
					/* 2 p_ij * 2^(32 (i + j)) = p_ij * 2^(32 (i + j) + 1) */
					shifts[n] = 32 * (i + j) + (i < j);
					n++;
				}
			p[1] = limbs_num(p + nlimbs, n, 0, shifts);
		}
	}
	snprintf(e, sizeof(e), "1e-%d", scale);
	vals[1] = DirectFunctionCall2(numeric_mul, p[0], num(e));
	/* (numagg3) the sum itself, at scale S as numeric_add makes it */
	if (kind == CHFDW_FINISH_NUM_SUM)
		return vals[1];
	if (kind == CHFDW_FINISH_NUM_AVG)
		return DirectFunctionCall2(numeric_div, vals[1], vals[0]);
	if (k == 32 || k == 64)
	{
		/* 2^2K and 2^(K+1) */
		p[1] = DirectFunctionCall2(numeric_mul, p[1],
								   num(k == 32 ? "18446744073709551616" :
									   "340282366920938463463374607431768211456"));
		p[2] = DirectFunctionCall2(numeric_mul, p[2],
								   num(k == 32 ? "8589934592" : "36893488147419103232"));
		p[1] = DirectFunctionCall2(numeric_add, DirectFunctionCall2(numeric_add, p[1], p[2]), p[3]);
	}
	snprintf(e, sizeof(e), "1e-%d", 2 * scale);
	vals[2] = DirectFunctionCall2(numeric_mul, p[1], num(e));
	return finish_variance(kind - (CHFDW_FINISH_NUM_VAR_SAMP - CHFDW_FINISH_VAR_SAMP), vals, 3, isnull);
}

/*
 * The value of a grouping output PostgreSQL finishes (kind: CHFDW_FINISH_*)
 * from what the converter made of ClickHouse's answer.
 */
Datum
chfdw_finish_value(int kind, Datum value, bool *isnull)
{
	char	   *s;
	char	   *parts[5];
	int			nparts;
	char	   *c;
	Datum		vals[5];
	bool		ok;
	int			i;

	if (*isnull)
		return value;
	/* (regr) corr, covar_*, regr_*: agg_regr.c */
	if (kind >= CHFDW_FINISH_REGR)
		return chfdw_regr_finish(kind, value, isnull);
	switch (kind)
	{
		case CHFDW_FINISH_ARRAY:
			{
				ArrayType  *a = DatumGetArrayTypeP(value);

				if (ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a)) == 0)
					*isnull = true;
				return value;
			}
		case CHFDW_FINISH_AVG:
			s = TextDatumGetCString(value);
			if (!split_parts(s, parts, 2) || !is_decimal_int(parts[1]))
				bad_value(kind, value);
			vals[0] = hex128_num(parts[0], &ok);
			if (!ok)
				bad_value(kind, value);
			return DirectFunctionCall2(numeric_div, vals[0], num(parts[1]));
		case CHFDW_FINISH_VAR_SAMP:
		case CHFDW_FINISH_VAR_POP:
		case CHFDW_FINISH_STDDEV_SAMP:
		case CHFDW_FINISH_STDDEV_POP:
			s = TextDatumGetCString(value);
			nparts = 1;
			for (c = s; *c; c++)
				nparts += *c == '/';
			if ((nparts != 3 && nparts != 5) || !split_parts(s, parts, nparts) ||
				!is_decimal_int(parts[0]))
				bad_value(kind, value);
			vals[0] = num(parts[0]);
			for (i = 1; i < nparts; i++)
			{
				vals[i] = hex128_num(parts[i], &ok);
				if (!ok)
					bad_value(kind, value);
			}
			return finish_variance(kind, vals, nparts, isnull);
		case CHFDW_FINISH_NUM_AVG:
		case CHFDW_FINISH_NUM_VAR_SAMP:
		case CHFDW_FINISH_NUM_VAR_POP:
		case CHFDW_FINISH_NUM_STDDEV_SAMP:
		case CHFDW_FINISH_NUM_STDDEV_POP:
		case CHFDW_FINISH_NUM_SUM:
			return finish_numeric(kind, value, isnull);
		default:
			return value;
	}
}
