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
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/inet.h"
#include "utils/lsyscache.h"
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
	Datum		tz_text;		/* zone of a DateTime column, for timestamp */
	FmgrInfo	outfunc;		/* text fallback */
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

static void
w_int2(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_int(col, DatumGetInt16(d), &err), &err);
}

static void
w_int4(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_int(col, DatumGetInt32(d), &err), &err);
}

static void
w_int8(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_int(col, DatumGetInt64(d), &err), &err);
}

static void
w_bool(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_int(col, DatumGetBool(d) ? 1 : 0, &err), &err);
}

static void
w_float4(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_float(col, DatumGetFloat4(d), &err), &err);
}

static void
w_float8(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_float(col, DatumGetFloat8(d), &err), &err);
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
	char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out, d));

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

static void
numeric_to_float_out(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	ch_error	err;
	double		v = DatumGetFloat8(DirectFunctionCall1(numeric_float8, d));

	ch_error_clear(&err);
	check(ch_col_append_float(col, v, &err), &err);
}

static void
w_text(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	text	   *t = DatumGetTextPP(d);
	ch_error	err;

	ch_error_clear(&err);
	if (oc->leaf->kind == CH_T_ENUM8 || oc->leaf->kind == CH_T_ENUM16)
		check(ch_col_append_enum_label(col, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &err), &err);
	else
		check(ch_col_append_bytes(col, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &err), &err);
}

static void
w_name(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	const char *s = NameStr(*DatumGetName(d));
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_bytes(col, s, strlen(s), &err), &err);
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

static void
w_date(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	DateADT		v = DatumGetDateADT(d);
	ch_error	err;

	if (DATE_NOT_FINITE(v))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite date cannot be stored in ClickHouse type %s", oc->leaf->name)));
	ch_error_clear(&err);
	check(ch_col_append_int(col, (int64) v + UNIX_TO_PG_DAYS, &err), &err);
}

/* microseconds since 1970 → the column's ticks, never rounding */
static void
unix_usecs_out(ChFdwOutConv *oc, ch_colbuf *col, int64 us)
{
	const ch_type *t = oc->leaf;
	ch_error	err;
	int64		v;

	ch_error_clear(&err);
	if (t->kind == CH_T_DATETIME)
	{
		if (us % USECS_PER_SEC != 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					 errmsg("timestamp has fractional seconds that ClickHouse type %s cannot hold",
							t->name),
					 errhint("Use DateTime64(6) in ClickHouse, or date_trunc('second', ...).")));
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
			if (v % div != 0)
				ereport(ERROR,
						(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						 errmsg("timestamp has more sub-second digits than ClickHouse type %s holds",
								t->name)));
			v /= div;
		}
	}
	check(ch_col_append_int(col, v, &err), &err);
}

static void
w_timestamptz(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	TimestampTz ts = DatumGetTimestampTz(d);

	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite timestamp cannot be stored in ClickHouse type %s", oc->leaf->name)));
	unix_usecs_out(oc, col, ts + UNIX_TO_PG_USECS);
}

/* timestamp (wall time) → the instant it is in the column's zone */
static void
w_timestamp(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	if (TIMESTAMP_NOT_FINITE(DatumGetTimestamp(d)))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite timestamp cannot be stored in ClickHouse type %s", oc->leaf->name)));
	w_timestamptz(oc, col, DirectFunctionCall2(timestamp_zone, oc->tz_text, d));
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
w_bytea(ChFdwOutConv *oc, ch_colbuf *col, Datum d)
{
	bytea	   *b = DatumGetByteaPP(d);
	ch_error	err;

	ch_error_clear(&err);
	check(ch_col_append_bytes(col, VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), &err), &err);
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
				oc->fn = pgtype == INT2OID ? w_int2 : pgtype == INT4OID ? w_int4 : w_int8;
			break;
		case BOOLOID:
			if (is_int_kind(k) || k == CH_T_BOOL)
				oc->fn = w_bool;
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			if (is_float_kind(k))
				oc->fn = pgtype == FLOAT4OID ? w_float4 : w_float8;
			break;
		case NUMERICOID:
			if (is_int_kind(k) || k == CH_T_DECIMAL)
				oc->fn = w_numeric;
			else if (is_float_kind(k))
				oc->fn = numeric_to_float_out;
			break;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
			if (k == CH_T_STRING || k == CH_T_FIXEDSTRING || k == CH_T_ENUM8 || k == CH_T_ENUM16)
				oc->fn = w_text;
			break;
		case NAMEOID:
			if (k == CH_T_STRING || k == CH_T_FIXEDSTRING)
				oc->fn = w_name;
			break;
		case BYTEAOID:
			if (k == CH_T_STRING || k == CH_T_FIXEDSTRING)
				oc->fn = w_bytea;
			break;
		case DATEOID:
			if (k == CH_T_DATE || k == CH_T_DATE32)
				oc->fn = w_date;
			break;
		case TIMESTAMPTZOID:
			if (k == CH_T_DATETIME || k == CH_T_DATETIME64)
				oc->fn = w_timestamptz;
			break;
		case TIMESTAMPOID:
			if (k == CH_T_DATETIME || k == CH_T_DATETIME64)
				oc->fn = w_timestamp;
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
