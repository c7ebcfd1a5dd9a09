/*-------------------------------------------------------------------------
 * convert_out.c
 *	  PostgreSQL values → typed appends on ClickHouse column writers.
 *
 * The write-side twin of convert.c: a converter is chosen once per column
 * from the pair (PostgreSQL type, ClickHouse type) and turns each Datum into
 * one append on the column's ch_colbuf, with no text round trip for the
 * natural types. Every value is range-checked (by the codec's writer, or
 * here where PostgreSQL semantics are involved: sub-second digits that a
 * DateTime cannot hold, digits a Decimal cannot hold); nothing is wrapped,
 * truncated or rounded silently. Errors are raised with ereport; the
 * caller's error context names the column and row.
 *
 * src/fdw/convert_out.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/socket.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "common/int.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/inet.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/uuid.h"

#include "ch_decimal.h"
#include "ch_writer.h"
#include "chfdw.h"

#define UNIX_TO_PG_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)
#define UNIX_TO_PG_USECS ((int64) UNIX_TO_PG_DAYS * USECS_PER_DAY)

typedef struct ChFdwOutConv ChFdwOutConv;
typedef void (*out_fn) (ChFdwOutConv *oc, ch_colbuf *col, Datum d);

struct ChFdwOutConv
{
	Oid			pgtype;
	const ch_type *chtype;		/* the column's type (with wrappers) */
	const ch_type *leaf;		/* under Nullable / LowCardinality */
	out_fn		fn;
	int64		(*to_int) (ChFdwOutConv *oc, Datum d);	/* fn w_via_int */
	double		(*to_float) (ChFdwOutConv *oc, Datum d);	/* fn w_via_float */
	Datum		tz_text;		/* zone of a DateTime column, for timestamp */
	int			datetime_loss;	/* CHFDW_LOSS_*: sub-second digits DateTime(64)
								 * cannot hold */
	int			decimal_loss;	/* CHFDW_LOSS_*: fractional digits beyond a
								 * Decimal's scale */
	FmgrInfo	outfunc;		/* text fallback */
	/* arrays (elem: of the innermost element type), Map values */
	ChFdwOutConv *elem;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	int			ndims;			/* Array levels: Array(Array(T)) is 2 */
	/* Tuple from a composite: element i is attribute field_att[i] */
	TupleDesc	rowdesc;
	int			nfields;
	int		   *field_att;
	ChFdwOutConv **fields;
	/* one JSON value (a Map's value): by its JSON type, NULL if refused */
	ChFdwOutConv *j_num;
	ChFdwOutConv *j_str;
	ChFdwOutConv *j_bool;
	FmgrInfo	j_str_in;		/* a string through this input function */
	char		jkind;			/* from JSON: 'S' scalar, 'A' Array, 'M' Map,
								 * 'T' named Tuple, 'U' unnamed Tuple, 'J' JSON */
	Oid			j_str_ioparam;
	/* what the block carries for the column (String for JSON) */
	const ch_type *wire;
};

/* Raise the codec's error (range checks etc.) as a PostgreSQL error. */
static void
check(ch_status st, const ch_error *err)
{
	if (st == CH_OK)
		return;
	ereport(ERROR,
			(errcode(st == CH_ERR_LIMIT ? ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE :
					 st == CH_ERR_NOMEM ? ERRCODE_OUT_OF_MEMORY :
					 ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg_internal("%s", err->message)));
}

/* ---- decimal text → scaled wide integer ---- */

/*
 * Parse PostgreSQL numeric text ("-12.340") into the little-endian two's
 * complement integer value * 10^scale, at most precision digits (0 =
 * unlimited, i.e. integers). More fractional digits than scale are an
 * error unless they are zeros.
 */
static void
decimal_text_to_wide(const char *s, int precision, int scale, const ch_type *t,
					 uint64 out[4], bool *negative)
{
	bool		neg = false;
	const char *p = s;
	char		digits[160];
	int			nd = 0;
	int			frac = 0;
	bool		in_frac = false;
	int			i,
				k;

	if (*p == '-' || *p == '+')
		neg = (*p++ == '-');
	if (!isdigit((unsigned char) *p) && *p != '.')
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value \"%s\" cannot be stored in ClickHouse type %s", s, t->name)));
	for (; *p; p++)
	{
		if (*p == '.')
		{
			in_frac = true;
			continue;
		}
		if (!isdigit((unsigned char) *p))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid number \"%s\" for ClickHouse type %s", s, t->name)));
		if (in_frac)
		{
			if (frac >= scale)
			{
				if (*p != '0')
				{
					if (scale == 0)
						ereport(ERROR,
								(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
								 errmsg("value %s is not a whole number, as ClickHouse type %s requires",
										s, t->name)));
					ereport(ERROR,
							(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							 errmsg("value %s has more than %d fractional digits for ClickHouse type %s",
									s, scale, t->name),
							 errhint("Round the value first, e.g. with round(value, %d).", scale)));
				}
				continue;
			}
			frac++;
		}
		if (nd == 0 && *p == '0')
		{
			if (in_frac)
				digits[nd++] = '0';
			continue;
		}
		if (nd >= (int) sizeof(digits) - 80)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("value %s is out of range for ClickHouse type %s", s, t->name)));
		digits[nd++] = *p;
	}
	for (; frac < scale; frac++)
		digits[nd++] = '0';
	/* significant digits: strip leading zeros */
	for (i = 0; i < nd && digits[i] == '0'; i++)
		;
	if ((precision > 0 && nd - i > precision) || nd - i > 78)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value %s has more digits than ClickHouse type %s can hold", s, t->name)));
	memset(out, 0, sizeof(uint64) * 4);
	for (; i < nd; i++)
	{
		uint128		carry = (uint128) (digits[i] - '0');

		for (k = 0; k < 4; k++)
		{
			uint128		v = (uint128) out[k] * 10 + carry;

			out[k] = (uint64) v;
			carry = v >> 64;
		}
		if (carry)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("value %s is out of range for ClickHouse type %s", s, t->name)));
	}
	*negative = neg && (out[0] | out[1] | out[2] | out[3]) != 0;
}

/*
 * Does a magnitude with a sign fit in a w-byte (un)signed integer?
 * Unsigned: not negative, below 2^(8w). Signed: below 2^(8w-1), or equal
 * to it when negative.
 */
static bool
wide_fits(const uint64 mag[4], bool neg, uint32 w, bool is_unsigned)
{
	int			bits = (int) w * 8;
	int			k;

	if (is_unsigned)
	{
		if (neg)
			return false;
		for (k = (bits + 63) / 64; k < 4; k++)
			if (mag[k] != 0)
				return false;
		if (bits < 64 && (mag[0] >> bits) != 0)
			return false;
		return true;
	}
	else
	{
		/* compare with 2^(bits-1) */
		uint64		lim[4] = {0, 0, 0, 0};

		lim[(bits - 1) / 64] = (uint64) 1 << ((bits - 1) % 64);
		for (k = 3; k >= 0; k--)
		{
			if (mag[k] != lim[k])
				return mag[k] < lim[k];
		}
		return neg;				/* exactly 2^(bits-1): only -2^(bits-1) */
	}
}

/* magnitude and sign → w bytes of two's complement, little-endian */
static void
wide_bytes(const uint64 mag[4], bool neg, uint8 *b)
{
	uint64		v[4];
	int			k;

	memcpy(v, mag, sizeof(v));
	if (neg)
	{
		unsigned	c = 1;

		for (k = 0; k < 4; k++)
		{
			v[k] = ~v[k] + c;
			c = c && v[k] == 0;
		}
	}
	for (k = 0; k < 4; k++)
		ch_put_le64(b + 8 * k, v[k]);
}

static void
append_wide(ch_colbuf *col, const ch_type *t, const uint64 mag[4], bool neg, const char *text)
{
	uint8		b[32];
	ch_error	err;
	bool		is_unsigned = (t->kind == CH_T_UINT128 || t->kind == CH_T_UINT256 ||
							   t->kind == CH_T_UINT64 || t->kind == CH_T_UINT32 ||
							   t->kind == CH_T_UINT16 || t->kind == CH_T_UINT8);

	if (!wide_fits(mag, neg, t->width, is_unsigned))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value %s is out of range for ClickHouse type %s", text, t->name)));
	wide_bytes(mag, neg, b);
	ch_error_clear(&err);
	check(ch_col_append_raw(col, b, t->width, &err), &err);
}

/* ---- converters ---- */

/*
 * Scalar conversions: a Datum to the value one ch_col_append_int /
 * ch_col_append_float gets (PostgreSQL-side checks raise errors here),
 * called by w_via_int and w_via_float.
 */
static int64
int2_int(ChFdwOutConv *oc, Datum d)
{
	return DatumGetInt16(d);
}

static int64
int4_int(ChFdwOutConv *oc, Datum d)
{
	return DatumGetInt32(d);
}

static int64
int8_int(ChFdwOutConv *oc, Datum d)
{
	return DatumGetInt64(d);
}

static int64
bool_int(ChFdwOutConv *oc, Datum d)
{
	return DatumGetBool(d) ? 1 : 0;
}

static double
float4_float(ChFdwOutConv *oc, Datum d)
{
	return DatumGetFloat4(d);
}

static double
float8_float(ChFdwOutConv *oc, Datum d)
{
	return DatumGetFloat8(d);
}

/* numeric's on-disk header bits (src/backend/utils/adt/numeric.c) */
#define NUM_SIGN_MASK 0xC000
#define NUM_NEG 0x4000
#define NUM_SHORT 0x8000
#define NUM_SPECIAL 0xC000
#define NUM_SHORT_SIGN 0x2000
#define NUM_SHORT_WEIGHT_SIGN 0x0040
#define NUM_SHORT_WEIGHT_MASK 0x003F

/*
 * A finite numeric to the double numeric_float8 gives (the correctly
 * rounded value of its digits: numeric_out, then strtod), read from its
 * base-10000 digits without text: true when ch_decimal_to_double decides
 * it, false for the rest (NaN, infinities, values near a tie, out of the
 * double's normal range, a compressed or external value), which the caller
 * converts through numeric_float8 itself.
 */
static bool
numeric_double_direct(Datum d, double *out)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	const char *p;
	Size		len;
	uint16		hdr;
	int			weight,
				ndig,
				nd = 0,
				e10 = 0,
				i;
	bool		neg,
				more = false;
	uint64		w = 0;

	if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
		return false;
	p = VARDATA_ANY(v);
	len = VARSIZE_ANY_EXHDR(v);
	if (len < sizeof(uint16))
		return false;
	memcpy(&hdr, p, sizeof(hdr));
	if ((hdr & NUM_SIGN_MASK) == NUM_SPECIAL)
		return false;
	if ((hdr & NUM_SHORT) != 0)
	{
		neg = (hdr & NUM_SHORT_SIGN) != 0;
		weight = ((hdr & NUM_SHORT_WEIGHT_SIGN) != 0 ? ~NUM_SHORT_WEIGHT_MASK : 0) |
			(hdr & NUM_SHORT_WEIGHT_MASK);
		p += sizeof(uint16);
		len -= sizeof(uint16);
	}
	else
	{
		int16		w16;

		if (len < 2 * sizeof(uint16))
			return false;
		neg = (hdr & NUM_SIGN_MASK) == NUM_NEG;
		memcpy(&w16, p + sizeof(uint16), sizeof(w16));
		weight = w16;
		p += 2 * sizeof(uint16);
		len -= 2 * sizeof(uint16);
	}
	ndig = (int) (len / sizeof(int16));
	/* the first 19 significant decimal digits into w, e10 the last one's exponent */
	for (i = 0; i < ndig; i++)
	{
		int16		g;

		memcpy(&g, p + i * sizeof(int16), sizeof(g));
		if (g < 0 || g > 9999)
			return false;
		if (nd == 0)
		{
			if (g == 0)
				continue;
			w = (uint64) g;
			nd = g >= 1000 ? 4 : g >= 100 ? 3 : g >= 10 ? 2 : 1;
			e10 = 4 * (weight - i);
		}
		else if (nd + 4 <= 19)
		{
			w = w * 10000 + (uint64) g;
			nd += 4;
			e10 = 4 * (weight - i);
		}
		else
		{
			/* the top 19 - nd digits of this group; any other nonzero digit is "more" */
			static const int pow10[] = {1, 10, 100, 1000, 10000};
			int			k = 19 - nd;
			int			div = pow10[4 - k];

			w = w * (uint64) pow10[k] + (uint64) (g / div);
			more = g % div != 0;
			e10 = 4 * (weight - i) + (4 - k);
			for (i++; i < ndig && !more; i++)
			{
				memcpy(&g, p + i * sizeof(int16), sizeof(g));
				more = g != 0;
			}
			break;
		}
	}
	if (nd == 0)
	{
		/* zero: what strtod gives for numeric_out's "0" (or "-0") */
		*out = neg ? -0.0 : 0.0;
		return true;
	}
	if (!ch_decimal_to_double(w, e10, more, out))
		return false;
	if (neg)
		*out = -*out;
	return true;
}

static double
numeric_float(ChFdwOutConv *oc, Datum d)
{
	double		v;

	if (numeric_double_direct(d, &v))
		return v;
	return DatumGetFloat8(DirectFunctionCall1(numeric_float8, d));
}

static void
w_via_int(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	int64		v = oc->to_int(oc, d);
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_int(col, v, &err), &err);
}

static void
w_via_float(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	double		v = oc->to_float(oc, d);
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_float(col, v, &err), &err);
}

/* any integer-valued PostgreSQL number → an integer or Decimal column, exactly */
static void
numeric_text_out(ChFdwOutConv *oc, ch_colbuf *col, const char *text)
{
	uint64		v[4];
	const ch_type *t = oc->leaf;

	if (strcmp(text, "NaN") == 0 || strstr(text, "Infinity"))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value %s cannot be stored in ClickHouse type %s", text, t->name)));
	if (t->kind == CH_T_DECIMAL)
	{
		ch_error	err;
		uint8		b[32];
		bool		neg;

		decimal_text_to_wide(text, t->precision, t->scale, t, v, &neg);
		wide_bytes(v, neg, b);
		ch_error_clear(&err);
		check(ch_col_append_raw(col, b, t->width, &err), &err);
		return;
	}
	{
		bool		neg;

		decimal_text_to_wide(text, 0, 0, t, v, &neg);
		append_wide(col, t, v, neg, text);
	}
}

static void
w_numeric(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	char	   *s;

	/* decimal_precision_loss: PostgreSQL's own round() / trunc() to the scale */
	if (oc->leaf->kind == CH_T_DECIMAL && oc->decimal_loss != CHFDW_LOSS_ERROR &&
		!numeric_is_nan(DatumGetNumeric(d)) && !numeric_is_inf(DatumGetNumeric(d)))
		d = DirectFunctionCall2(oc->decimal_loss == CHFDW_LOSS_ROUND ? numeric_round : numeric_trunc,
								d, Int32GetDatum(oc->leaf->scale));
	s = DatumGetCString(DirectFunctionCall1(numeric_out, d));

	numeric_text_out(oc, col, s);
}

/* integers into a Decimal column: scaled by 10^scale, exactly */
static void
int_to_decimal_out(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	char		buf[32];
	int64		v = oc->pgtype == INT2OID ? DatumGetInt16(d) :
		oc->pgtype == INT4OID ? DatumGetInt32(d) : DatumGetInt64(d);

	snprintf(buf, sizeof(buf), INT64_FORMAT, v);
	numeric_text_out(oc, col, buf);
}

/* the bytes of a text, bytea or name value (detoasted in the current context) */
static const char *
value_bytes(ChFdwOutConv *oc, Datum d, uint32 *len)
{
	if (oc->pgtype == NAMEOID)
	{
		const char *s = NameStr(*DatumGetName(d));

		*len = (uint32) strlen(s);
		return s;
	}
	else
	{
		struct varlena *t = PG_DETOAST_DATUM_PACKED(d);

		*len = (uint32) VARSIZE_ANY_EXHDR(t);
		return VARDATA_ANY(t);
	}
}

static void
w_bytes(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	uint32		len;
	const char *p = value_bytes(oc, d, &len);
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_bytes(col, p, len, &err), &err);
}

/* text into an Enum column: by label */
static void
w_enum_label(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	text	   *t = DatumGetTextPP(d);
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_enum_label(col, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &err), &err);
}

/* any type → String through its output function */
static void
via_text_out(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	char	   *s = OutputFunctionCall(&oc->outfunc, d);
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_bytes(col, s, strlen(s), &err), &err);
}

static int64
date_int(ChFdwOutConv *oc, Datum d)
{
	DateADT		v = DatumGetDateADT(d);

	if (DATE_NOT_FINITE(v))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite date cannot be stored in ClickHouse type %s", oc->leaf->name)));
	return (int64) v + UNIX_TO_PG_DAYS;
}

/*
 * us / div for datetime_precision_loss: 'truncate' drops the digits toward
 * the past (as date_trunc), 'round' rounds half away from zero (as
 * PostgreSQL's timestamp(p) typmod does).
 */
static int64
reduce_ticks(int64 us, int64 div, int mode)
{
	int64		q = us / div;
	int64		r = us % div;

	if (mode == CHFDW_LOSS_TRUNCATE)
		return r < 0 ? q - 1 : q;
	if (r >= (div + 1) / 2)
		return q + 1;
	if (r <= -((div + 1) / 2))
		return q - 1;
	return q;
}

/*
 * microseconds since 1970 → the column's ticks, never rounding unless
 * datetime_precision_loss says so
 */
static int64
usecs_ticks(ChFdwOutConv *oc, int64 us)
{
	const ch_type *t = oc->leaf;
	int64		v;

	if (t->kind == CH_T_DATETIME)
	{
		if (us % USECS_PER_SEC != 0 && oc->datetime_loss != CHFDW_LOSS_ERROR)
			return reduce_ticks(us, USECS_PER_SEC, oc->datetime_loss);
		if (us % USECS_PER_SEC != 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					 errmsg("timestamp has fractional seconds that ClickHouse type %s cannot hold",
							t->name),
					 errhint("Use DateTime64(6) in ClickHouse, date_trunc('second', ...), or the option datetime_precision_loss 'truncate' or 'round'.")));
		v = us / USECS_PER_SEC;
	}
	else
	{
		int			p = t->scale;
		int			i;

		/* ClickHouse's DateTime64 range: 1900-01-01 .. 2299-12-31 23:59:59 */
		if (us < INT64CONST(-2208988800) * USECS_PER_SEC ||
			us >= INT64CONST(10413792000) * USECS_PER_SEC)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					 errmsg("timestamp is out of range for ClickHouse type %s", t->name)));
		v = us;
		if (p >= 6)
		{
			for (i = 6; i < p; i++)
			{
				if (pg_mul_s64_overflow(v, 10, &v))
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
							 errmsg("timestamp is out of range for ClickHouse type %s", t->name)));
			}
		}
		else
		{
			int64		div = 1;

			for (i = p; i < 6; i++)
				div *= 10;
			if (v % div != 0 && oc->datetime_loss != CHFDW_LOSS_ERROR)
				return reduce_ticks(v, div, oc->datetime_loss);
			if (v % div != 0)
				ereport(ERROR,
						(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						 errmsg("timestamp has more sub-second digits than ClickHouse type %s holds",
								t->name),
						 errhint("Use the option datetime_precision_loss 'truncate' or 'round' to drop them.")));
			v /= div;
		}
	}
	return v;
}

static int64
timestamptz_int(ChFdwOutConv *oc, Datum d)
{
	TimestampTz ts = DatumGetTimestampTz(d);

	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite timestamp cannot be stored in ClickHouse type %s", oc->leaf->name)));
	return usecs_ticks(oc, ts + UNIX_TO_PG_USECS);
}

/* timestamp (wall time) → the instant it is in the column's zone */
static int64
timestamp_int(ChFdwOutConv *oc, Datum d)
{
	if (TIMESTAMP_NOT_FINITE(DatumGetTimestamp(d)))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite timestamp cannot be stored in ClickHouse type %s", oc->leaf->name)));
	return timestamptz_int(oc, DirectFunctionCall2(timestamp_zone, oc->tz_text, d));
}

static void
w_uuid(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	pg_uuid_t  *u = DatumGetUUIDP(d);
	uint8		wire[16];
	ch_error	err;

	ch_uuid_to_wire(u->data, wire);
	ch_error_clear(&err);
	check(ch_col_append_raw(col, wire, 16, &err), &err);
}

/* inet (a host address, not a network) → IPv4 / IPv6 */
static void
w_inet(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	inet	   *ip = DatumGetInetPP(d);
	int			family = ip_family(ip);
	int			bits = ip_bits(ip);
	unsigned char *a = ip_addr(ip);
	ch_error	err;

	ch_error_clear(&err);
	if ((family == PGSQL_AF_INET && bits != 32) || (family == PGSQL_AF_INET6 && bits != 128))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("network %s is not a single address, as ClickHouse type %s requires",
						DatumGetCString(DirectFunctionCall1(inet_out, d)), oc->leaf->name)));
	if (oc->leaf->kind == CH_T_IPV4)
	{
		if (family != PGSQL_AF_INET)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("IPv6 address %s cannot be stored in ClickHouse type IPv4",
							DatumGetCString(DirectFunctionCall1(inet_out, d)))));
		check(ch_col_append_uint(col, ((uint32) a[0] << 24) | ((uint32) a[1] << 16) |
								 ((uint32) a[2] << 8) | a[3], &err), &err);
	}
	else
	{
		uint8		v6[16];

		if (family == PGSQL_AF_INET)
		{
			/* an IPv4 address in an IPv6 column: ::ffff:a.b.c.d, as ClickHouse maps it */
			memset(v6, 0, 10);
			v6[10] = v6[11] = 0xff;
			memcpy(v6 + 12, a, 4);
		}
		else
			memcpy(v6, a, 16);
		check(ch_col_append_raw(col, v6, 16, &err), &err);
	}
}

/*
 * ---- time and interval → Time / Time64(p) ----
 *
 * ClickHouse's Time is seconds and Time64(p) ticks of 10^-p seconds, both
 * signed, from -999:59:59[.9...] to 999:59:59[.9...] (ClickHouse docs,
 * "Time" and "Time64" data types). Sub-second digits the column cannot
 * hold are an error unless datetime_precision_loss says otherwise, as for
 * DateTime64.
 */
#define CH_TIME_LIMIT_SECS INT64CONST(3600000)	/* 1000:00:00, excluded */

static int64
time_ticks(ChFdwOutConv *oc, int64 us, const char *what)
{
	const ch_type *t = oc->leaf;
	int			p = t->kind == CH_T_TIME ? 0 : t->scale;
	int64		mul = 1;
	int64		v;
	int			i;

	if (p > 9)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("ClickHouse type %s has a precision above 9", t->name)));
	for (i = 0; i < p; i++)
		mul *= 10;
	if (p >= 6)
	{
		/* |us| < 2^63 / 1000: checked by the range test below first */
		if (us <= -CH_TIME_LIMIT_SECS * USECS_PER_SEC || us >= CH_TIME_LIMIT_SECS * USECS_PER_SEC)
			goto out_of_range;
		v = us * (mul / 1000000);
	}
	else
	{
		int64		div = USECS_PER_SEC / mul;

		if (us % div != 0 && oc->datetime_loss == CHFDW_LOSS_ERROR)
		{
			if (p == 0)
				ereport(ERROR,
						(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						 errmsg("%s has fractional seconds that ClickHouse type %s cannot hold",
								what, t->name),
						 errhint("Use Time64(6) in ClickHouse, date_trunc('second', ...), or the option datetime_precision_loss 'truncate' or 'round'.")));
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					 errmsg("%s has more sub-second digits than ClickHouse type %s holds",
							what, t->name),
					 errhint("Use the option datetime_precision_loss 'truncate' or 'round' to drop them.")));
		}
		v = us % div != 0 ? reduce_ticks(us, div, oc->datetime_loss) : us / div;
	}
	if (v <= -CH_TIME_LIMIT_SECS * mul || v >= CH_TIME_LIMIT_SECS * mul)
		goto out_of_range;
	return v;

out_of_range:
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("%s is out of range for ClickHouse type %s", what, t->name),
			 errdetail("ClickHouse's %s holds -999:59:59 to 999:59:59.", t->name)));
	return 0;					/* keep the compiler quiet */
}

static int64
time_int(ChFdwOutConv *oc, Datum d)
{
	return time_ticks(oc, DatumGetTimeADT(d), "time");
}

/* an interval is a Time only when it has no days or months (a day is not always 24 hours) */
static int64
interval_int(ChFdwOutConv *oc, Datum d)
{
	Interval   *iv = DatumGetIntervalP(d);

	if (iv->month != 0 || iv->day != 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("interval \"%s\" has days or months, which ClickHouse type %s cannot hold exactly",
						DatumGetCString(DirectFunctionCall1(interval_out, d)), oc->leaf->name),
				 errhint("If days of 24 hours are meant, write make_interval(secs => extract(epoch from value)).")));
	return time_ticks(oc, iv->time, "interval");
}

/* ---- composite → Tuple ---- */

/*
 * A row value: each element of the Tuple from its field, through the
 * field's own converter (the same checks as a plain column). A NULL field
 * into a non-Nullable element is the codec's NULL error; the error context
 * names the field.
 */
static void
tuple_field_context(void *arg)
{
	errcontext("field \"%s\" of the composite value", (const char *) arg);
}

static void
w_tuple(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	HeapTupleHeader th = DatumGetHeapTupleHeader(d);
	HeapTupleData tup;
	Datum	   *values = palloc(sizeof(Datum) * oc->rowdesc->natts);
	bool	   *nulls = palloc(sizeof(bool) * oc->rowdesc->natts);
	ErrorContextCallback cb;
	int			i;

	tup.t_len = HeapTupleHeaderGetDatumLength(th);
	ItemPointerSetInvalid(&tup.t_self);
	tup.t_tableOid = InvalidOid;
	tup.t_data = th;
	heap_deform_tuple(&tup, oc->rowdesc, values, nulls);
	cb.callback = tuple_field_context;
	cb.previous = error_context_stack;
	error_context_stack = &cb;
	for (i = 0; i < oc->nfields; i++)
	{
		int			a = oc->field_att[i];

		cb.arg = NameStr(TupleDescAttr(oc->rowdesc, a)->attname);
		chfdw_write_value(oc->fields[i], ch_col_child(col, i), values[a], nulls[a]);
	}
	error_context_stack = cb.previous;
}

static ChFdwOutConv *make_conv(Oid pgtype, const ch_type *t, const char *colname, bool missing_ok);

/*
 * Elements by position; a named Tuple's names must be the fields' names
 * (in any order: then by name), so no value lands in another element
 * silently.
 */
static void
setup_tuple(ChFdwOutConv *oc, Oid pgtype, const char *colname)
{
	const ch_type *t = oc->leaf;
	TupleDesc	desc = lookup_rowtype_tupdesc_copy(pgtype, -1);
	int		   *live = palloc(sizeof(int) * (desc->natts + 1));
	int			nlive = 0;
	int			i,
				j;

	for (i = 0; i < desc->natts; i++)
		if (!TupleDescAttr(desc, i)->attisdropped)
			live[nlive++] = i;
	if (nlive != t->nchildren)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("composite type %s of column \"%s\" has %d fields, ClickHouse type %s has %d elements",
						format_type_be(pgtype), colname, nlive, t->name, t->nchildren),
				 errhint("Declare the column with a composite type that has one field per Tuple element, in the same order.")));
	oc->rowdesc = desc;
	oc->nfields = nlive;
	oc->field_att = palloc(sizeof(int) * (nlive + 1));
	oc->fields = palloc(sizeof(ChFdwOutConv *) * (nlive + 1));
	for (i = 0; i < nlive; i++)
	{
		int			a = live[i];

		if (t->names)
		{
			for (j = 0; j < nlive; j++)
				if (strcmp(NameStr(TupleDescAttr(desc, live[j])->attname), t->names[i]) == 0)
					break;
			if (j == nlive)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
						 errmsg("composite type %s of column \"%s\" has no field \"%s\" for element %d of ClickHouse type %s",
								format_type_be(pgtype), colname, t->names[i], i + 1, t->name),
						 errhint("Name the composite type's fields as the Tuple's elements are named.")));
			a = live[j];
		}
		oc->field_att[i] = a;
		oc->fields[i] = make_conv(TupleDescAttr(desc, a)->atttypid, t->children[i],
								  psprintf("%s.%s", colname, NameStr(TupleDescAttr(desc, a)->attname)),
								  false);
	}
}

/* ---- JSON → Map, Tuple, Array and JSON ---- */

static bool
is_json_source(Oid pgtype)
{
	return pgtype == JSONBOID || pgtype == JSONOID || pgtype == TEXTOID || pgtype == VARCHAROID;
}

/* jsonb, json or text holding JSON, as jsonb (the input function checks it) */
static Jsonb *
json_source_jsonb(ChFdwOutConv *oc, Datum d)
{
	if (oc->pgtype == JSONBOID)
		return DatumGetJsonbP(d);
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(TextDatumGetCString(d))));
}

static const char *
jsonb_root_kind(Jsonb *jb)
{
	return TextDatumGetCString(DirectFunctionCall1(jsonb_typeof, JsonbPGetDatum(jb)));
}

static const char *
json_value_kind(JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			return "null";
		case jbvString:
			return "a string";
		case jbvNumeric:
			return "a number";
		case jbvBool:
			return "a boolean";
		case jbvBinary:
			return JsonContainerIsObject(v->val.binary.data) ? "an object" : "an array";
		default:
			return "a value";
	}
}

/*
 * Where a JSON value sits, for messages and the error context: the value
 * of a key of an object, an element of an array (index >= 0), or the
 * column's whole value (key NULL, index < 0).
 */
typedef struct JsonPos
{
	const char *key;
	int			keylen;
	int			index;
} JsonPos;

static const char *
json_pos_text(const JsonPos *p)
{
	if (p->key)
		return psprintf(" of key \"%.*s\"", p->keylen, p->key);
	if (p->index >= 0)
		return psprintf(" at element %d", p->index + 1);
	return "";
}

static void
json_pos_context(void *arg)
{
	JsonPos    *p = arg;

	if (p->key)
		errcontext("key \"%.*s\" of the JSON object", p->keylen, p->key);
	else if (p->index >= 0)
		errcontext("element %d of the JSON array", p->index + 1);
}

/* what a converter takes from JSON, for the error message */
static const char *
json_takes(ChFdwOutConv *vc)
{
	switch (vc->jkind)
	{
		case 'A':
		case 'U':
			return "an array";
		case 'M':
		case 'T':
		case 'J':
			return "an object";
		default:
			break;
	}
	if (vc->j_num && vc->j_bool)
		return "a number or a boolean";
	if (vc->j_num)
		return "a number";
	if (vc->j_str)
		return "a string";
	if (vc->j_bool)
		return "a boolean";
	return "no JSON value";
}

static void
json_wrong_kind(ChFdwOutConv *vc, JsonbValue *v, const JsonPos *pos)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("JSON value%s is %s, but ClickHouse type %s takes %s",
					json_pos_text(pos), json_value_kind(v), vc->chtype->name, json_takes(vc))));
}

static void write_json_value(ChFdwOutConv *vc, ch_colbuf *col, JsonbValue *v, const JsonPos *pos);

/*
 * The elements (or the keys and values) of a JSON container into an Array,
 * a Map or an unnamed Tuple, each under its position in the error context.
 */
static void
write_json_container(ChFdwOutConv *vc, ch_colbuf *col, JsonbContainer *jc)
{
	JsonbIterator *it = JsonbIteratorInit(jc);
	JsonbValue	v;
	JsonbIteratorToken tok;
	JsonPos		pos = {NULL, 0, -1};
	ErrorContextCallback cb;
	ch_error	err;
	int			n = 0;

	ch_error_clear(&err);
	cb.callback = json_pos_context;
	cb.arg = &pos;
	cb.previous = error_context_stack;
	error_context_stack = &cb;
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			pos.key = v.val.string.val;
			pos.keylen = v.val.string.len;
			check(ch_col_append_bytes(ch_col_child(col, 0), pos.key, pos.keylen, &err), &err);
		}
		else if (tok == WJB_VALUE)
			write_json_value(vc->elem, ch_col_child(col, 1), &v, &pos);
		else if (tok == WJB_ELEM)
		{
			pos.index = n;
			if (vc->jkind == 'U')
				write_json_value(vc->fields[n], ch_col_child(col, n), &v, &pos);
			else
				write_json_value(vc->elem, ch_col_child(col, 0), &v, &pos);
			n++;
		}
	}
	error_context_stack = cb.previous;
}

/* a named Tuple from a JSON object: each element from the key of its name */
static void
write_json_named_tuple(ChFdwOutConv *vc, ch_colbuf *col, JsonbContainer *jc, const JsonPos *where)
{
	const ch_type *t = vc->leaf;
	JsonPos		pos = {NULL, 0, -1};
	ErrorContextCallback cb;
	int			i;

	if ((int) JsonContainerSize(jc) != t->nchildren)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("JSON object%s has %d keys, but ClickHouse type %s has %d elements",
						json_pos_text(where), (int) JsonContainerSize(jc), t->name, t->nchildren)));
	cb.callback = json_pos_context;
	cb.arg = &pos;
	cb.previous = error_context_stack;
	error_context_stack = &cb;
	for (i = 0; i < t->nchildren; i++)
	{
		JsonbValue *v;

		pos.key = NULL;			/* the error below is about the object */
		v = getKeyJsonValueFromContainer(jc, t->names[i], strlen(t->names[i]), NULL);
		if (!v)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("JSON object%s has no key \"%s\" for element %d of ClickHouse type %s",
							json_pos_text(where), t->names[i], i + 1, t->name)));
		pos.key = t->names[i];
		pos.keylen = strlen(t->names[i]);
		write_json_value(vc->fields[i], ch_col_child(col, i), v, &pos);
	}
	error_context_stack = cb.previous;
}

/* one JSON value into col of type vc->chtype */
static void
write_json_value(ChFdwOutConv *vc, ch_colbuf *col, JsonbValue *v, const JsonPos *pos)
{
	ChFdwOutConv *c = NULL;
	Datum		d = (Datum) 0;
	ch_error	err;

	ch_error_clear(&err);
	if (v->type == jbvNull)
	{
		if (ch_col_append_null(col, &err) != CH_OK)
			ereport(ERROR,
					(errcode(ERRCODE_NOT_NULL_VIOLATION),
					 errmsg("JSON null%s cannot be stored in ClickHouse type %s (not Nullable)",
							json_pos_text(pos), vc->chtype->name)));
		return;
	}
	if (vc->jkind != 'S')
	{
		JsonbContainer *jc;

		if (v->type != jbvBinary ||
			(vc->jkind == 'A' || vc->jkind == 'U' ? !JsonContainerIsArray(v->val.binary.data) :
			 !JsonContainerIsObject(v->val.binary.data)))
			json_wrong_kind(vc, v, pos);
		jc = v->val.binary.data;
		switch (vc->jkind)
		{
			case 'A':
			case 'M':
				check(ch_col_array_begin(col, JsonContainerSize(jc), &err), &err);
				write_json_container(vc, col, jc);
				check(ch_col_array_end(col, &err), &err);
				return;
			case 'U':
				if ((int) JsonContainerSize(jc) != vc->nfields)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("JSON array%s has %d elements, but ClickHouse type %s has %d",
									json_pos_text(pos), (int) JsonContainerSize(jc),
									vc->chtype->name, vc->nfields)));
				write_json_container(vc, col, jc);
				return;
			case 'T':
				write_json_named_tuple(vc, col, jc, pos);
				return;
			default:			/* 'J' */
				{
					char	   *s = JsonbToCString(NULL, jc, v->val.binary.len);

					check(ch_col_append_bytes(col, s, strlen(s), &err), &err);
					return;
				}
		}
	}
	switch (v->type)
	{
		case jbvString:
			c = vc->j_str;
			if (c)
			{
				d = PointerGetDatum(cstring_to_text_with_len(v->val.string.val, v->val.string.len));
				if (c->pgtype != TEXTOID)
					d = InputFunctionCall(&vc->j_str_in, TextDatumGetCString(d), vc->j_str_ioparam, -1);
			}
			break;
		case jbvNumeric:
			c = vc->j_num;
			d = NumericGetDatum(v->val.numeric);
			break;
		case jbvBool:
			c = vc->j_bool;
			d = BoolGetDatum(v->val.boolean);
			break;
		default:
			break;
	}
	if (!c)
		json_wrong_kind(vc, v, pos);
	c->fn(c, col, d);
}

/* a column's JSON value (jsonb, json or text) into a Map, Tuple or Array */
static void
w_json_value(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	Jsonb	   *jb = json_source_jsonb(oc, d);
	JsonbValue	v;
	JsonPos		top = {NULL, 0, -1};

	if (JB_ROOT_IS_SCALAR(jb))
		JsonbExtractScalar(&jb->root, &v);
	else
	{
		v.type = jbvBinary;
		v.val.binary.data = &jb->root;
		v.val.binary.len = VARSIZE(jb) - VARHDRSZ;
	}
	write_json_value(oc->elem, col, &v, &top);
}

/*
 * How a ClickHouse type t is filled from a JSON value: a scalar by its JSON
 * type (each through the converter of a PostgreSQL type: numeric, boolean,
 * text or the input function of date, timestamptz, uuid, inet, time); an
 * Array from an array, a Map (String keys) from an object, a named Tuple
 * from an object (by key), an unnamed one from an array (by position), JSON
 * from an object (its text). Anything else is refused here, at the start.
 */
static ChFdwOutConv *
make_json_value_conv(const ch_type *t, const char *colname)
{
	ChFdwOutConv *vc = palloc0(sizeof(ChFdwOutConv));
	const ch_type *leaf = ch_type_unwrap(t);
	Oid			strtype = InvalidOid;
	int			i;

	vc->chtype = t;
	vc->leaf = leaf;
	vc->wire = t;
	vc->jkind = 'S';
	switch (leaf->kind)
	{
		case CH_T_ARRAY:
			vc->jkind = 'A';
			vc->elem = make_json_value_conv(leaf->children[0], colname);
			return vc;
		case CH_T_MAP:
			if (ch_type_unwrap(leaf->children[0])->kind != CH_T_STRING)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
						 errmsg("cannot write JSON to ClickHouse type %s of column \"%s\": JSON keys are strings",
								leaf->name, colname),
						 errhint("Only a Map with String or LowCardinality(String) keys is written from JSON.")));
			vc->jkind = 'M';
			vc->elem = make_json_value_conv(leaf->children[1], colname);
			return vc;
		case CH_T_TUPLE:
			vc->jkind = leaf->names ? 'T' : 'U';
			vc->nfields = leaf->nchildren;
			vc->fields = palloc(sizeof(ChFdwOutConv *) * (leaf->nchildren + 1));
			for (i = 0; i < leaf->nchildren; i++)
				vc->fields[i] = make_json_value_conv(leaf->children[i], colname);
			return vc;
		case CH_T_JSON:
			vc->jkind = 'J';
			return vc;
		case CH_T_STRING:
		case CH_T_FIXEDSTRING:
		case CH_T_ENUM8:
		case CH_T_ENUM16:
			strtype = TEXTOID;
			break;
		case CH_T_DATE:
		case CH_T_DATE32:
			strtype = DATEOID;
			break;
		case CH_T_DATETIME:
		case CH_T_DATETIME64:
			strtype = TIMESTAMPTZOID;
			break;
		case CH_T_UUID:
			strtype = UUIDOID;
			break;
		case CH_T_IPV4:
		case CH_T_IPV6:
			strtype = INETOID;
			break;
		case CH_T_TIME:
		case CH_T_TIME64:
			strtype = TIMEOID;
			break;
		default:
			break;
	}
	/* a JSON number or boolean is no String (no text fallback here) */
	if (leaf->kind != CH_T_STRING)
	{
		vc->j_num = make_conv(NUMERICOID, t, colname, true);
		vc->j_bool = make_conv(BOOLOID, t, colname, true);
	}
	if (OidIsValid(strtype))
	{
		Oid			infn;

		vc->j_str = make_conv(strtype, t, colname, false);
		getTypeInputInfo(strtype, &infn, &vc->j_str_ioparam);
		fmgr_info(infn, &vc->j_str_in);
	}
	if (!vc->j_num && !vc->j_bool && !vc->j_str)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("cannot write JSON values to ClickHouse type %s of column \"%s\"",
						t->name, colname),
				 errhint("JSON is written into numbers, strings, Bool, Enum, dates, times, UUID, IPv4/IPv6, and Arrays, Maps, Tuples and JSON of them.")));
	return vc;
}

/*
 * JSON: the block carries the JSON text in a String column and ClickHouse
 * converts it into the table's JSON column (Native input with
 * input_format_native_allow_types_conversion, on by default). The value
 * goes through jsonb first (json and text: its input function checks the
 * syntax, and a duplicated key keeps its last value, which ClickHouse
 * would refuse), and must be an object, all a JSON column stores.
 */
static void
w_json_text(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	Jsonb	   *jb = json_source_jsonb(oc, d);
	char	   *s;
	ch_error	err;

	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a JSON %s cannot be written to ClickHouse type %s, which takes a JSON object",
						jsonb_root_kind(jb), oc->leaf->name)));
	s = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
	ch_error_clear(&err);
	check(ch_col_append_bytes(col, s, strlen(s), &err), &err);
}

/*
 * The type the block announces for a column of type t: t itself, with
 * every JSON in it replaced by String (see w_json_text). Allocated in the
 * current memory context, which must outlive the writer.
 */
static const ch_type *
json_as_string(const ch_type *t)
{
	ch_type    *c;
	StringInfoData name;
	bool		changed = false;
	int			i;

	if (t->kind == CH_T_JSON)
	{
		c = palloc0(sizeof(ch_type));
		c->kind = CH_T_STRING;
		c->name = "String";
		return c;
	}
	if (t->kind != CH_T_NULLABLE && t->kind != CH_T_ARRAY && t->kind != CH_T_MAP &&
		t->kind != CH_T_TUPLE && t->kind != CH_T_LOWCARDINALITY)
		return t;
	c = palloc(sizeof(ch_type));
	*c = *t;
	c->children = palloc(sizeof(ch_type *) * (t->nchildren + 1));
	for (i = 0; i < t->nchildren; i++)
	{
		c->children[i] = (ch_type *) json_as_string(t->children[i]);
		changed |= c->children[i] != t->children[i];
	}
	if (!changed)
		return t;
	initStringInfo(&name);
	appendStringInfo(&name, "%s(", ch_type_kind_name(t->kind));
	for (i = 0; i < t->nchildren; i++)
	{
		if (i > 0)
			appendStringInfoString(&name, ", ");
		if (t->names && t->names[i])
		{
			const char *q;

			appendStringInfoChar(&name, '`');
			for (q = t->names[i]; *q; q++)
			{
				if (*q == '`' || *q == '\\')
					appendStringInfoChar(&name, '\\');
				appendStringInfoChar(&name, *q);
			}
			appendStringInfoString(&name, "` ");
		}
		appendStringInfoString(&name, c->children[i]->name);
	}
	appendStringInfoChar(&name, ')');
	c->name = name.data;
	return c;
}

/* ---- arrays ---- */

static void
write_dims(ChFdwOutConv *oc, ch_colbuf *col, int dim, int ndim, const int *dims,
		   Datum *elems, bool *nulls, int *pos)
{
	ch_error	err;
	ch_colbuf  *child;
	int			i;

	ch_error_clear(&err);
	check(ch_col_array_begin(col, (uint64) dims[dim], &err), &err);
	child = ch_col_child(col, 0);
	for (i = 0; i < dims[dim]; i++)
	{
		if (dim + 1 < ndim)
			write_dims(oc, child, dim + 1, ndim, dims, elems, nulls, pos);
		else
		{
			chfdw_write_value(oc->elem, child, elems[*pos], nulls[*pos]);
			(*pos)++;
		}
	}
	check(ch_col_array_end(col, &err), &err);
}

/*
 * A PostgreSQL array of n dimensions into n nested ClickHouse Arrays
 * (Array(Array(T)) for int[][]); the empty array into an empty Array.
 * NULL elements need Array(Nullable(T)) (the codec's NULL error).
 */
static void
w_array(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ArrayType  *arr = DatumGetArrayTypeP(d);
	int			ndim = ARR_NDIM(arr);
	Datum	   *elems;
	bool	   *nulls;
	int			n,
				pos = 0;

	if (ndim == 0)
	{
		ch_error	err;

		ch_error_clear(&err);
		check(ch_col_array_begin(col, 0, &err), &err);
		check(ch_col_array_end(col, &err), &err);
		return;
	}
	if (ndim != oc->ndims)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("a %d-dimensional array cannot be written to ClickHouse type %s, which has %d dimension%s",
						ndim, oc->leaf->name, oc->ndims, oc->ndims == 1 ? "" : "s")));
	deconstruct_array(arr, ARR_ELEMTYPE(arr), oc->elmlen, oc->elmbyval, oc->elmalign,
					  &elems, &nulls, &n);
	write_dims(oc, col, 0, ndim, ARR_DIMS(arr), elems, nulls, &pos);
}

static void
unsupported_pair(Oid pgtype, const ch_type *t, const char *colname)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("cannot write PostgreSQL type %s to ClickHouse type %s of column \"%s\"",
					format_type_be(pgtype), t->name, colname),
			 errhint("Declare the foreign table column with a type that matches the ClickHouse column.")));
}

/*
 * The pairs built from parts: JSON into a Map, Tuple, Array or JSON
 * column, a composite into a Tuple, an array into (nested) Arrays. Sets
 * oc->fn (left NULL when none applies) and the type the block announces;
 * false when an array's element type has no conversion and missing_ok.
 */
static bool
setup_composite(ChFdwOutConv *oc, Oid pgtype, const char *colname, bool missing_ok)
{
	const ch_type *t = oc->chtype;
	ch_type_kind k = oc->leaf->kind;

	if (is_json_source(pgtype))
	{
		if (k == CH_T_MAP || k == CH_T_TUPLE || k == CH_T_ARRAY)
		{
			oc->elem = make_json_value_conv(t, colname);
			oc->fn = w_json_value;
			oc->wire = json_as_string(t);
		}
		else if (k == CH_T_JSON)
		{
			oc->fn = w_json_text;
			oc->wire = json_as_string(t);
		}
	}
	if (!oc->fn && k == CH_T_TUPLE && type_is_rowtype(pgtype))
	{
		setup_tuple(oc, pgtype, colname);
		oc->fn = w_tuple;
		oc->wire = json_as_string(t);
	}
	if (!oc->fn && (k == CH_T_ARRAY) && type_is_array(pgtype))
	{
		Oid			elemtype = get_element_type(pgtype);
		const ch_type *inner = oc->leaf->children[0];

		/* Array(Array(T)) takes a 2-dimensional array of T, ... */
		for (oc->ndims = 1; inner->kind == CH_T_ARRAY; oc->ndims++)
			inner = inner->children[0];
		oc->elem = make_conv(elemtype, inner, colname, missing_ok);
		if (!oc->elem)
			return false;
		get_typlenbyvalalign(elemtype, &oc->elmlen, &oc->elmbyval, &oc->elmalign);
		oc->fn = w_array;
		oc->wire = json_as_string(t);
	}
	return true;
}

/*
 * Choose the conversion of PostgreSQL type pgtype into ClickHouse type t
 * (NULL if there is none and missing_ok). Allocated in the current memory
 * context.
 */
static ChFdwOutConv *
make_conv(Oid pgtype, const ch_type *t, const char *colname, bool missing_ok)
{
	ChFdwOutConv *oc = palloc0(sizeof(ChFdwOutConv));
	ch_type_kind k;

	oc->pgtype = pgtype;
	oc->chtype = t;
	oc->wire = t;
	oc->leaf = ch_type_unwrap(t);
	k = oc->leaf->kind;
	oc->tz_text = CStringGetTextDatum(oc->leaf->tz ? oc->leaf->tz : "UTC");

	switch (pgtype)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			if (k == CH_T_DECIMAL)
				oc->fn = int_to_decimal_out;
			else if (ch_type_kind_is_int(k) || ch_type_kind_is_float(k) || k == CH_T_BOOL ||
					 k == CH_T_ENUM8 || k == CH_T_ENUM16 || k == CH_T_INTERVAL)
				oc->to_int = pgtype == INT2OID ? int2_int : pgtype == INT4OID ? int4_int : int8_int;
			break;
		case BOOLOID:
			if (ch_type_kind_is_int(k) || k == CH_T_BOOL)
				oc->to_int = bool_int;
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			if (ch_type_kind_is_float(k))
				oc->to_float = pgtype == FLOAT4OID ? float4_float : float8_float;
			break;
		case NUMERICOID:
			if (ch_type_kind_is_int(k) || k == CH_T_DECIMAL)
				oc->fn = w_numeric;
			else if (ch_type_kind_is_float(k))
				oc->to_float = numeric_float;
			break;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
			if (k == CH_T_STRING || k == CH_T_FIXEDSTRING)
				oc->fn = w_bytes;
			else if (k == CH_T_ENUM8 || k == CH_T_ENUM16)
				oc->fn = w_enum_label;
			break;
		case NAMEOID:
			if (k == CH_T_STRING || k == CH_T_FIXEDSTRING)
				oc->fn = w_bytes;
			break;
		case BYTEAOID:
			if (k == CH_T_STRING || k == CH_T_FIXEDSTRING)
				oc->fn = w_bytes;
			break;
		case DATEOID:
			if (k == CH_T_DATE || k == CH_T_DATE32)
				oc->to_int = date_int;
			break;
		case TIMESTAMPTZOID:
			if (k == CH_T_DATETIME || k == CH_T_DATETIME64)
				oc->to_int = timestamptz_int;
			break;
		case TIMESTAMPOID:
			if (k == CH_T_DATETIME || k == CH_T_DATETIME64)
				oc->to_int = timestamp_int;
			break;
		case UUIDOID:
			if (k == CH_T_UUID)
				oc->fn = w_uuid;
			break;
		case INETOID:
			if (k == CH_T_IPV4 || k == CH_T_IPV6)
				oc->fn = w_inet;
			break;
		case TIMEOID:
			if (k == CH_T_TIME || k == CH_T_TIME64)
				oc->to_int = time_int;
			break;
		case INTERVALOID:
			if (k == CH_T_TIME || k == CH_T_TIME64)
				oc->to_int = interval_int;
			break;
		default:
			break;
	}
	if (oc->to_int)
		oc->fn = w_via_int;
	else if (oc->to_float)
		oc->fn = w_via_float;
	if (!oc->fn && !setup_composite(oc, pgtype, colname, missing_ok))
		return NULL;
	/* anything else into a String column: its text form */
	if (!oc->fn && k == CH_T_STRING)
	{
		Oid			outfn;
		bool		isvarlena;

		getTypeOutputInfo(pgtype, &outfn, &isvarlena);
		fmgr_info(outfn, &oc->outfunc);
		oc->fn = via_text_out;
	}
	if (!oc->fn)
	{
		if (missing_ok)
			return NULL;
		unsupported_pair(pgtype, t, colname);
	}
	return oc;
}

ChFdwOutConv *
chfdw_make_out_converter(Oid pgtype, const ch_type *t, const char *colname)
{
	return make_conv(pgtype, t, colname, false);
}

/*
 * The type the block announces for the column: the ClickHouse column's,
 * except that JSON travels as String (ClickHouse converts it on input).
 */
const ch_type *
chfdw_out_converter_wire_type(ChFdwOutConv *oc)
{
	return oc->wire;
}

/*
 * What to do with digits the column cannot hold (CHFDW_LOSS_*): for
 * DateTime/DateTime64 and for Decimal columns, also for array elements.
 */
void
chfdw_out_converter_set_loss(ChFdwOutConv *oc, int datetime_loss, int decimal_loss)
{
	int			i;

	if (!oc)
		return;
	oc->datetime_loss = datetime_loss;
	oc->decimal_loss = decimal_loss;
	chfdw_out_converter_set_loss(oc->elem, datetime_loss, decimal_loss);
	chfdw_out_converter_set_loss(oc->j_num, datetime_loss, decimal_loss);
	chfdw_out_converter_set_loss(oc->j_str, datetime_loss, decimal_loss);
	chfdw_out_converter_set_loss(oc->j_bool, datetime_loss, decimal_loss);
	for (i = 0; i < oc->nfields; i++)
		chfdw_out_converter_set_loss(oc->fields[i], datetime_loss, decimal_loss);
}

/* Append one value (or NULL) to col. */
void
chfdw_write_value(ChFdwOutConv *oc, ch_colbuf *col, Datum value, bool isnull)
{
	if (isnull)
	{
		ch_error	err;
		ch_status	st;

		ch_error_clear(&err);
		st = ch_col_append_null(col, &err);
		if (st == CH_OK)
			return;
		/* the type parser takes no Nullable(Tuple) (experimental in ClickHouse) */
		if (oc->fn == w_tuple && st == CH_ERR_LIMIT)
			ereport(ERROR,
					(errcode(ERRCODE_NOT_NULL_VIOLATION),
					 errmsg("a NULL composite value cannot be stored in ClickHouse type %s", oc->chtype->name),
					 errhint("Write a composite value of NULL fields into Nullable elements instead, e.g. ROW(NULL, NULL).")));
		/* JSON travels as String: name the column's own type */
		if (oc->wire != oc->chtype && st == CH_ERR_LIMIT)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("NULL is not allowed in ClickHouse type %s (not Nullable)", oc->chtype->name)));
		check(st, &err);
		return;
	}
	oc->fn(oc, col, value);
}
