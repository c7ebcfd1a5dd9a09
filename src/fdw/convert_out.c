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

#include "catalog/pg_type.h"
#include "common/int.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/inet.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

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
	ChFdwBulk	bulk;			/* how a batch of this column can be appended */
	int64		(*to_int) (ChFdwOutConv *oc, Datum d);	/* CHFDW_BULK_INT */
	double		(*to_float) (ChFdwOutConv *oc, Datum d);	/* CHFDW_BULK_FLOAT */
	Datum		tz_text;		/* zone of a DateTime column, for timestamp */
	int			datetime_loss;	/* CHFDW_LOSS_*: sub-second digits DateTime(64)
								 * cannot hold */
	int			decimal_loss;	/* CHFDW_LOSS_*: fractional digits beyond a
								 * Decimal's scale */
	FmgrInfo	outfunc;		/* text fallback */
	/* chfdw_write_batch's arrays, for batch_cap rows (in oc's context) */
	int			batch_cap;
	bool	   *b_nulls;
	int64	   *b_ints;
	double	   *b_floats;
	const char **b_data;
	uint32	   *b_lens;
	/* arrays */
	ChFdwOutConv *elem;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
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

static bool
is_int_kind(ch_type_kind k)
{
	switch (k)
	{
		case CH_T_UINT8:
		case CH_T_UINT16:
		case CH_T_UINT32:
		case CH_T_UINT64:
		case CH_T_UINT128:
		case CH_T_UINT256:
		case CH_T_INT8:
		case CH_T_INT16:
		case CH_T_INT32:
		case CH_T_INT64:
		case CH_T_INT128:
		case CH_T_INT256:
			return true;
		default:
			return false;
	}
}

static bool
is_float_kind(ch_type_kind k)
{
	return k == CH_T_FLOAT32 || k == CH_T_FLOAT64 || k == CH_T_BFLOAT16;
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
		for (k = bits / 64; k < 4; k++)
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
 * ch_col_append_float gets (PostgreSQL-side checks raise errors here). The
 * same functions serve the single appends (w_via_int, w_via_float) and the
 * batches (chfdw_write_batch), so both write the same values.
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

static double
numeric_float(ChFdwOutConv *oc, Datum d)
{
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

static void
w_array(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ArrayType  *arr = DatumGetArrayTypeP(d);
	Datum	   *elems;
	bool	   *nulls;
	int			n,
				i;
	ch_error	err;
	ch_colbuf  *child;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("multidimensional arrays cannot be written to ClickHouse type %s yet",
						oc->leaf->name)));
	deconstruct_array(arr, ARR_ELEMTYPE(arr), oc->elmlen, oc->elmbyval, oc->elmalign,
					  &elems, &nulls, &n);
	ch_error_clear(&err);
	check(ch_col_array_begin(col, (uint64) n, &err), &err);
	child = ch_col_child(col, 0);
	for (i = 0; i < n; i++)
	{
		if (nulls[i])
			check(ch_col_append_null(child, &err), &err);
		else
			oc->elem->fn(oc->elem, child, elems[i]);
	}
	check(ch_col_array_end(col, &err), &err);
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
 * Choose the conversion of PostgreSQL type pgtype into ClickHouse type t.
 * Allocated in the current memory context.
 */
ChFdwOutConv *
chfdw_make_out_converter(Oid pgtype, const ch_type *t, const char *colname)
{
	ChFdwOutConv *oc = palloc0(sizeof(ChFdwOutConv));
	ch_type_kind k;

	oc->pgtype = pgtype;
	oc->chtype = t;
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
			else if (is_int_kind(k) || is_float_kind(k) || k == CH_T_BOOL ||
					 k == CH_T_ENUM8 || k == CH_T_ENUM16 || k == CH_T_INTERVAL)
				oc->to_int = pgtype == INT2OID ? int2_int : pgtype == INT4OID ? int4_int : int8_int;
			break;
		case BOOLOID:
			if (is_int_kind(k) || k == CH_T_BOOL)
				oc->to_int = bool_int;
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			if (is_float_kind(k))
				oc->to_float = pgtype == FLOAT4OID ? float4_float : float8_float;
			break;
		case NUMERICOID:
			if (is_int_kind(k) || k == CH_T_DECIMAL)
				oc->fn = w_numeric;
			else if (is_float_kind(k))
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
		default:
			break;
	}
	if (oc->to_int)
	{
		oc->fn = w_via_int;
		oc->bulk = CHFDW_BULK_INT;
	}
	else if (oc->to_float)
	{
		oc->fn = w_via_float;
		oc->bulk = CHFDW_BULK_FLOAT;
	}
	else if (oc->fn == w_bytes)
		oc->bulk = CHFDW_BULK_BYTES;
	if (!oc->fn && (k == CH_T_ARRAY) && type_is_array(pgtype))
	{
		Oid			elemtype = get_element_type(pgtype);

		oc->elem = chfdw_make_out_converter(elemtype, oc->leaf->children[0], colname);
		get_typlenbyvalalign(elemtype, &oc->elmlen, &oc->elmbyval, &oc->elmalign);
		oc->fn = w_array;
	}
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
		unsupported_pair(pgtype, t, colname);
	return oc;
}

/*
 * What to do with digits the column cannot hold (CHFDW_LOSS_*): for
 * DateTime/DateTime64 and for Decimal columns, also for array elements.
 */
void
chfdw_out_converter_set_loss(ChFdwOutConv *oc, int datetime_loss, int decimal_loss)
{
	for (; oc; oc = oc->elem)
	{
		oc->datetime_loss = datetime_loss;
		oc->decimal_loss = decimal_loss;
	}
}

/* Append one value (or NULL) to col. */
void
chfdw_write_value(ChFdwOutConv *oc, ch_colbuf *col, Datum value, bool isnull)
{
	if (isnull)
	{
		ch_error	err;

		ch_error_clear(&err);
		check(ch_col_append_null(col, &err), &err);
		return;
	}
	oc->fn(oc, col, value);
}

/* Room for n rows in oc's batch arrays. */
static void
batch_arrays(ChFdwOutConv *oc, int n)
{
	MemoryContext cxt = GetMemoryChunkContext(oc);

	if (n <= oc->batch_cap)
		return;
	if (oc->batch_cap)
	{
		pfree(oc->b_nulls);
		if (oc->b_ints)
			pfree(oc->b_ints);
		if (oc->b_floats)
			pfree(oc->b_floats);
		if (oc->b_data)
			pfree(oc->b_data);
		if (oc->b_lens)
			pfree(oc->b_lens);
	}
	oc->b_ints = NULL;
	oc->b_floats = NULL;
	oc->b_data = NULL;
	oc->b_lens = NULL;
	oc->b_nulls = MemoryContextAlloc(cxt, sizeof(bool) * n);
	if (oc->bulk == CHFDW_BULK_INT)
		oc->b_ints = MemoryContextAlloc(cxt, sizeof(int64) * n);
	else if (oc->bulk == CHFDW_BULK_FLOAT)
		oc->b_floats = MemoryContextAlloc(cxt, sizeof(double) * n);
	else
	{
		oc->b_data = MemoryContextAlloc(cxt, sizeof(char *) * n);
		oc->b_lens = MemoryContextAlloc(cxt, sizeof(uint32) * n);
	}
	oc->batch_cap = n;
}

/*
 * Append attribute att of n slots to col, column at a time (a Native
 * writer, see ch_writer_columnar): the values are converted into arrays by
 * the same scalar conversions the single appends use, then appended in one
 * bulk call; a converter without a bulk form appends value by value.
 * *ctx_row follows the row being converted (first_row for slots[0]) and
 * names the failing one if the codec rejects a value. Temporaries
 * (detoasted values) go to the current memory context and must live until
 * this call returns (the writer copies them).
 */
void
chfdw_write_batch(ChFdwOutConv *oc, ch_colbuf *col, TupleTableSlot **slots, int att, int n,
				  uint64 first_row, uint64 *ctx_row)
{
	ch_error	err;
	ch_status	rc;
	size_t		at = 0;
	int			i;

	if (oc->bulk == CHFDW_BULK_NONE)
	{
		for (i = 0; i < n; i++)
		{
			*ctx_row = first_row + i;
			chfdw_write_value(oc, col, slots[i]->tts_values[att], slots[i]->tts_isnull[att]);
		}
		return;
	}
	batch_arrays(oc, n);
	for (i = 0; i < n; i++)
	{
		Datum		d = slots[i]->tts_values[att];
		bool		null = slots[i]->tts_isnull[att];

		*ctx_row = first_row + i;
		oc->b_nulls[i] = null;
		switch (oc->bulk)
		{
			case CHFDW_BULK_INT:
				oc->b_ints[i] = null ? 0 : oc->to_int(oc, d);
				break;
			case CHFDW_BULK_FLOAT:
				oc->b_floats[i] = null ? 0.0 : oc->to_float(oc, d);
				break;
			default:
				oc->b_lens[i] = 0;
				oc->b_data[i] = null ? "" : value_bytes(oc, d, &oc->b_lens[i]);
				break;
		}
	}
	ch_error_clear(&err);
	switch (oc->bulk)
	{
		case CHFDW_BULK_INT:
			rc = ch_col_append_ints(col, oc->b_ints, oc->b_nulls, n, &at, &err);
			break;
		case CHFDW_BULK_FLOAT:
			rc = ch_col_append_floats(col, oc->b_floats, oc->b_nulls, n, &at, &err);
			break;
		default:
			rc = ch_col_append_strings(col, oc->b_data, oc->b_lens, oc->b_nulls, n, &at, &err);
			break;
	}
	*ctx_row = first_row + at;
	check(rc, &err);
}
