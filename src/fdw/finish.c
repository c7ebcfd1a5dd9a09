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
 * A Decimal128 (scale 0) from the hex of its bytes, least significant
 * first, as reinterpretAsString gives them (trailing zero bytes dropped,
 * so 0 is ""): two's complement, hi * 2^64 + lo. NULL if malformed.
 */
static Datum
hex128_num(const char *s, bool *ok)
{
	size_t		len = strlen(s);
	uint64		lo = 0;
	uint64		hi = 0;
	size_t		i;
	char		lo_text[32];
	char		hi_text[32];

	*ok = len <= 32 && len % 2 == 0 && strspn(s, "0123456789ABCDEFabcdef") == len;
	if (!*ok)
		return (Datum) 0;
	for (i = 0; i < len / 2; i++)
	{
		int			v = hex_value(s[2 * i]) * 16 + hex_value(s[2 * i + 1]);

		if (i < 8)
			lo |= (uint64) v << (8 * i);
		else
			hi |= (uint64) v << (8 * (i - 8));
	}
	snprintf(lo_text, sizeof(lo_text), UINT64_FORMAT, lo);
	snprintf(hi_text, sizeof(hi_text), INT64_FORMAT, (int64) hi);
	return DirectFunctionCall2(numeric_add,
							   DirectFunctionCall2(numeric_mul, num(hi_text),
												   num("18446744073709551616")),
							   num(lo_text));
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
 * scale (computed 20 digits further, then rounded).
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
		/* the division's scale is the result's display scale */
		int32		rscale = DatumGetInt32(DirectFunctionCall1(numeric_scale, var));
		Datum		wide = DirectFunctionCall2(numeric_round, var, Int32GetDatum(rscale + 20));

		return DirectFunctionCall2(numeric_round,
								   DirectFunctionCall1(numeric_sqrt, wide),
								   Int32GetDatum(rscale));
	}
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
		default:
			return value;
	}
}
