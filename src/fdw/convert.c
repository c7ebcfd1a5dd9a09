/*-------------------------------------------------------------------------
 * convert.c
 *	  ClickHouse column values → PostgreSQL Datums.
 *
 * The only place that pairs a ClickHouse type with a PostgreSQL type. A
 * converter is chosen once per column (per distinct block type) from the
 * pair (ClickHouse leaf type, declared PostgreSQL type):
 *	- a direct path when the declared type is the natural one or a cheap
 *	  exact conversion exists (range-checked: out of range is an error,
 *	  never a wrap);
 *	- otherwise the value goes through its natural PostgreSQL type's output
 *	  function and the declared type's input function (with its typmod).
 * Nullable and LowCardinality wrappers are peeled off per row before the
 * leaf converter runs. Arrays and Tuples (into composite types) convert
 * their elements with converters of their own, chosen the same way.
 *
 * src/fdw/convert.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "common/int.h"
#include "common/shortest_dec.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/array.h"
#include "utils/float.h"
#include "utils/inet.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"
#include "utils/uuid.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "ch_writer.h"
#include "chfdw.h"

/* days and seconds from 1970-01-01 to 2000-01-01 (PostgreSQL's epoch) */
#define UNIX_TO_PG_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)
#define UNIX_TO_PG_SECS ((int64) UNIX_TO_PG_DAYS * SECS_PER_DAY)

typedef Datum (*leaf_fn) (ChFdwColConv *cc, const ch_column *col, uint64 row);
typedef int128 (*int_getter) (const ch_column *col, uint64 row);
typedef double (*float_getter) (const ch_column *col, uint64 row);

struct ChFdwColConv
{
	const ch_type *chtype;		/* the column's full type */
	const ch_type *leaf;		/* under Nullable / LowCardinality */
	Oid			pgtype;			/* declared type */
	int32		typmod;
	Oid			natural;		/* natural PostgreSQL type of the leaf */
	leaf_fn		fn;				/* yields pgtype, or natural when via_text */
	int_getter	get_int;
	float_getter get_float;
	bool		via_text;
	bool		numeric_to_int; /* via_text of a numeric into an integer
								 * type: through numeric, whole numbers only */
	FmgrInfo	natural_out;
	FmgrInfo	in_func;
	Oid			ioparam;
	Datum		tz_text;		/* zone for DateTime → timestamp */
	const char *colname;
	/* Tuple read as a composite type */
	TupleDesc	rowdesc;		/* the composite's attributes */
	ChFdwColConv **fields;		/* per attribute (NULL: dropped) */
	int		   *field_elem;		/* per attribute: its Tuple element */
	/* arrays */
	ChFdwColConv *elem;			/* converter of the element type */
	Oid			elemtype;		/* PostgreSQL element type */
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	/* LowCardinality: the current block's dictionary, converted (bulk) */
	Datum	   *dict_values;
	bool	   *dict_nulls;
	uint64		dict_done;		/* entries [0, dict_done) are in dict_values */
	bool		bulk_wall_utc;	/* timestamp in UTC: converted as timestamptz */
};

/* ---- getters ---- */

static int128
get_u8(const ch_column *c, uint64 r)
{
	return c->data[r];
}

static int128
get_i8(const ch_column *c, uint64 r)
{
	return (int8) c->data[r];
}

static int128
get_u16(const ch_column *c, uint64 r)
{
	return ch_le16(c->data + r * 2);
}

static int128
get_i16(const ch_column *c, uint64 r)
{
	return (int16) ch_le16(c->data + r * 2);
}

static int128
get_u32(const ch_column *c, uint64 r)
{
	return ch_le32(c->data + r * 4);
}

static int128
get_i32(const ch_column *c, uint64 r)
{
	return (int32) ch_le32(c->data + r * 4);
}

static int128
get_u64(const ch_column *c, uint64 r)
{
	return ch_le64(c->data + r * 8);
}

static int128
get_i64(const ch_column *c, uint64 r)
{
	return (int64) ch_le64(c->data + r * 8);
}

static double
get_f32(const ch_column *c, uint64 r)
{
	uint32		bits = ch_le32(c->data + r * 4);
	float		f;

	memcpy(&f, &bits, 4);
	return f;
}

static double
get_f64(const ch_column *c, uint64 r)
{
	uint64		bits = ch_le64(c->data + r * 8);
	double		d;

	memcpy(&d, &bits, 8);
	return d;
}

static double
get_bf16(const ch_column *c, uint64 r)
{
	uint32		bits = (uint32) ch_le16(c->data + r * 2) << 16;
	float		f;

	memcpy(&f, &bits, 4);
	return f;
}

/* ---- integer targets ---- */

static char *
int128_text(int128 v)
{
	char		buf[48];
	char	   *p = buf + sizeof(buf) - 1;
	bool		neg = v < 0;
	uint128		u = neg ? -(uint128) v : (uint128) v;

	*p = '\0';
	do
	{
		*--p = '0' + (int) (u % 10);
		u /= 10;
	} while (u);
	if (neg)
		*--p = '-';
	return pstrdup(p);
}

static void
int_out_of_range(int128 v, const char *typname)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("value %s is out of range for type %s", int128_text(v), typname)));
}

static Datum
int_to_int2(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int128		v = cc->get_int(col, row);

	if (v < PG_INT16_MIN || v > PG_INT16_MAX)
		int_out_of_range(v, "smallint");
	return Int16GetDatum((int16) v);
}

static Datum
int_to_int4(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int128		v = cc->get_int(col, row);

	if (v < PG_INT32_MIN || v > PG_INT32_MAX)
		int_out_of_range(v, "integer");
	return Int32GetDatum((int32) v);
}

static Datum
int_to_int8(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int128		v = cc->get_int(col, row);

	if (v < PG_INT64_MIN || v > PG_INT64_MAX)
		int_out_of_range(v, "bigint");
	return Int64GetDatum((int64) v);
}

static Datum
int_to_numeric(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int128		v = cc->get_int(col, row);

	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX)
		return NumericGetDatum(int64_to_numeric((int64) v));
	return DirectFunctionCall3(numeric_in, CStringGetDatum(int128_text(v)),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

static Datum
int_to_float4(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return Float4GetDatum((float4) cc->get_int(col, row));
}

static Datum
int_to_float8(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return Float8GetDatum((float8) cc->get_int(col, row));
}

static Datum
int_to_bool(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return BoolGetDatum(cc->get_int(col, row) != 0);
}

/* ---- float targets ---- */

static Datum
float_to_float8(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return Float8GetDatum(cc->get_float(col, row));
}

static Datum
float_to_float4(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	double		v = cc->get_float(col, row);
	float4		f = (float4) v;

	if (isinf(f) && !isinf(v))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value %g is out of range for type real", v)));
	return Float4GetDatum(f);
}

static Datum
float_to_numeric(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	double		v = cc->get_float(col, row);
	char		buf[DOUBLE_SHORTEST_DECIMAL_LEN];

	if (isnan(v))
		return DirectFunctionCall3(numeric_in, CStringGetDatum("NaN"),
								   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	if (isinf(v))
		return DirectFunctionCall3(numeric_in,
								   CStringGetDatum(v > 0 ? "Infinity" : "-Infinity"),
								   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	/* shortest text that reads back as the same double: no digits lost */
	if (cc->leaf->kind == CH_T_FLOAT64)
		double_to_shortest_decimal_buf(v, buf);
	else
		float_to_shortest_decimal_buf((float) v, buf);
	return DirectFunctionCall3(numeric_in, CStringGetDatum(buf),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* ---- strings ---- */

static Datum
string_to_text(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	uint32		len;
	const char *s = (const char *) ch_col_str(col, row, &len);

	(void) cc;
	pg_verifymbstr(s, (int) len, false);
	return PointerGetDatum(cstring_to_text_with_len(s, (int) len));
}

static Datum
bytes_to_bytea(const char *s, uint32 len)
{
	bytea	   *b = (bytea *) palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), s, len);
	return PointerGetDatum(b);
}

static Datum
string_to_bytea(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	uint32		len;
	const char *s = (const char *) ch_col_str(col, row, &len);

	(void) cc;
	return bytes_to_bytea(s, len);
}

static Datum
fixed_to_bytea(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	(void) cc;
	return bytes_to_bytea((const char *) ch_col_fixed(col, row), col->type->width);
}

/* FixedString as text: the zero bytes that pad the value are removed. */
static Datum
fixed_to_text(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	const char *s = (const char *) ch_col_fixed(col, row);
	uint32		len = col->type->width;

	(void) cc;
	while (len > 0 && s[len - 1] == '\0')
		len--;
	if (!pg_verifymbstr(s, (int) len, true))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("a FixedString(%u) value is not valid %s text",
						(unsigned) col->type->width, GetDatabaseEncodingName()),
				 errhint("Declare the column bytea to read its bytes (IMPORT FOREIGN SCHEMA does with the option fixedstring_as_bytea 'true').")));
	return PointerGetDatum(cstring_to_text_with_len(s, (int) len));
}

/* ---- dates and times ---- */

static Datum
date_to_date(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	(void) cc;
	return DateADTGetDatum((DateADT) ((int32) ch_le16(col->data + row * 2) - UNIX_TO_PG_DAYS));
}

static Datum
datetime_to_timestamptz(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int64		secs = (int64) ch_le32(col->data + row * 4);

	(void) cc;
	return TimestampTzGetDatum((secs - UNIX_TO_PG_SECS) * USECS_PER_SEC);
}

/* wall time in the column's zone (UTC when the type names none) */
static Datum
datetime_to_timestamp(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	Datum		tstz = datetime_to_timestamptz(cc, col, row);

	return DirectFunctionCall2(timestamptz_zone, cc->tz_text, tstz);
}

/* ---- wide integers and decimals ---- */

/*
 * Text of a little-endian two's complement (or unsigned) integer of width
 * bytes, with a decimal point scale digits from the right. palloc'd.
 */
static char *
wide_text(const uint8 *p, uint32 width, bool is_signed, int scale)
{
	uint64		w[4] = {0, 0, 0, 0};
	bool		neg = is_signed && (p[width - 1] & 0x80) != 0;
	char		digits[100];
	int			nd = 0;
	int			k;
	int			nw = (int) (width + 7) / 8;
	StringInfoData out;

	if (width < 8)
	{
		uint64		v = 0;

		memcpy(&v, p, width);
		if (neg)
			v |= ~(uint64) 0 << (8 * width);
		w[0] = v;
		nw = 1;
		if (neg)
			w[1] = w[2] = w[3] = UINT64_MAX;
	}
	else
	{
		for (k = 0; k < nw; k++)
			w[k] = ch_le64(p + 8 * k);
		if (neg)
			for (k = nw; k < 4; k++)
				w[k] = UINT64_MAX;
	}
	if (neg)
	{
		unsigned	c = 1;

		for (k = 0; k < 4; k++)
		{
			w[k] = ~w[k] + c;
			c = c && w[k] == 0;
		}
	}
	/* repeated division by 10 over the 256-bit magnitude */
	for (;;)
	{
		uint128		rem = 0;
		bool		zero = true;

		for (k = 3; k >= 0; k--)
		{
			uint128		cur = (rem << 64) | w[k];

			w[k] = (uint64) (cur / 10);
			rem = cur % 10;
			if (w[k])
				zero = false;
		}
		digits[nd++] = (char) ('0' + (int) rem);
		if (zero)
			break;
	}
	initStringInfo(&out);
	if (neg)
		appendStringInfoChar(&out, '-');
	while (nd <= scale)
		digits[nd++] = '0';
	for (k = nd - 1; k >= 0; k--)
	{
		appendStringInfoChar(&out, digits[k]);
		if (k == scale && scale > 0)
			appendStringInfoChar(&out, '.');
	}
	return out.data;
}

static Datum
numeric_from_text(const char *s)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

static Datum
decimal_to_numeric(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return numeric_from_text(wide_text(ch_col_fixed(col, row), col->type->width, true,
									   col->type->scale));
}

static Datum
wideint_to_numeric(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	ch_type_kind k = col->type->kind;

	return numeric_from_text(wide_text(ch_col_fixed(col, row), col->type->width,
									   k == CH_T_INT128 || k == CH_T_INT256, 0));
}

/* ---- other scalar types ---- */

static Datum
date32_to_date(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	/* in int64: a Date32 near INT32_MIN would overflow the subtraction */
	int64		d = (int64) (int32) ch_le32(col->data + row * 4) - UNIX_TO_PG_DAYS;

	if (!IS_VALID_DATE(d))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("date out of range")));
	return DateADTGetDatum((DateADT) d);
}

/*
 * DateTime64(p): ticks of 10^-p s → microseconds; digits below the
 * microsecond are rounded half to even, as PostgreSQL's own timestamp input
 * rounds them.
 */
static Datum
datetime64_to_timestamptz(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int64		ticks = (int64) ch_le64(col->data + row * 8);
	int			p = col->type->scale;
	int64		us;

	if (p <= 6)
	{
		int64		mul = 1;
		int			i;

		for (i = p; i < 6; i++)
			mul *= 10;
		/* the server sends any 64 bits: no signed overflow on the way */
		if (pg_mul_s64_overflow(ticks, mul, &us))
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					 errmsg("timestamp out of range")));
	}
	else
	{
		int64		div = 1;
		int64		q,
					r;
		int			i;

		for (i = 6; i < p; i++)
			div *= 10;
		q = ticks / div;
		r = ticks % div;
		if (r < 0)
		{
			q--;
			r += div;
		}
		if (r * 2 > div || (r * 2 == div && (q & 1)))
			q++;
		us = q;
	}
	if (pg_sub_s64_overflow(us, (int64) UNIX_TO_PG_DAYS * USECS_PER_DAY, &us) ||
		!IS_VALID_TIMESTAMP(us))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range")));
	return TimestampTzGetDatum(us);
}

static Datum
datetime64_to_timestamp(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return DirectFunctionCall2(timestamptz_zone, cc->tz_text,
							   datetime64_to_timestamptz(cc, col, row));
}

/*
 * DateTime/DateTime64 read as date or time: the date / time of day of the
 * wall time in the column's zone, as for timestamp (and as ClickHouse's
 * toDate() computes it), never of the session's TimeZone.
 */
static Datum
datetime_to_date(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return DirectFunctionCall1(timestamp_date, datetime_to_timestamp(cc, col, row));
}

static Datum
datetime_to_time(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return DirectFunctionCall1(timestamp_time, datetime_to_timestamp(cc, col, row));
}

static Datum
datetime64_to_date(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return DirectFunctionCall1(timestamp_date, datetime64_to_timestamp(cc, col, row));
}

static Datum
datetime64_to_time(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	return DirectFunctionCall1(timestamp_time, datetime64_to_timestamp(cc, col, row));
}

static Datum
uuid_to_uuid(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));

	ch_uuid_from_wire(ch_col_fixed(col, row), u->data);
	return UUIDPGetDatum(u);
}

static Datum
enum_to_text(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	const ch_type *t = col->type;
	int32		v = t->kind == CH_T_ENUM8 ? (int8) col->data[row] :
		(int16) ch_le16(col->data + row * 2);
	int			i;

	for (i = 0; i < t->nenum; i++)
		if (t->enum_values[i] == v)
		{
			pg_verifymbstr(t->enum_names[i], (int) t->enum_name_lens[i], false);
			return PointerGetDatum(cstring_to_text_with_len(t->enum_names[i],
															 (int) t->enum_name_lens[i]));
		}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("value %d is not a value of ClickHouse type %s", v, t->name)));
	return (Datum) 0;
}

static Datum
ip_to_inet(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	char		buf[64];
	const uint8 *p = ch_col_fixed(col, row);

	if (col->type->kind == CH_T_IPV4)
	{
		uint32		v = ch_le32(p);

		snprintf(buf, sizeof(buf), "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
	}
	else
	{
		/* a plain 16-byte address; let inet_in print and validate it */
		snprintf(buf, sizeof(buf),
				 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
				 p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
				 p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15]);
	}
	return DirectFunctionCall1(inet_in, CStringGetDatum(buf));
}

static Datum
nothing_to_null(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	elog(ERROR, "a Nothing value is always NULL");
	return (Datum) 0;
}

/* ---- arrays ---- */

/*
 * Collect the dimensions of a nested array value (rectangular only).
 * depth counts Array levels below col.
 */
static void
arr_dims(ChFdwColConv *cc, const ch_column *col, uint64 row, int depth, int *dims, int level)
{
	uint64		s,
				e,
				i;

	ch_col_array_range(col, row, &s, &e);
	if (e - s > (uint64) MaxAllocSize)
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("array too large")));
	if (dims[level] < 0)
		dims[level] = (int) (e - s);
	else if (dims[level] != (int) (e - s))
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("ClickHouse nested arrays of different lengths cannot be read as a multidimensional array"),
				 errhint("Read the column through a ClickHouse view that converts it, e.g. with toString() into a text column.")));
	if (level + 1 < depth)
		for (i = s; i < e; i++)
			arr_dims(cc, &col->children[0], i, depth, dims, level + 1);
}

static void
arr_collect(ChFdwColConv *cc, const ch_column *col, uint64 row, int depth, int level,
			  Datum *values, bool *nulls, int *n)
{
	uint64		s,
				e,
				i;

	ch_col_array_range(col, row, &s, &e);
	for (i = s; i < e; i++)
	{
		if (level + 1 < depth)
			arr_collect(cc, &col->children[0], i, depth, level + 1, values, nulls, n);
		else
		{
			chfdw_convert(cc->elem, &col->children[0], i, &values[*n], &nulls[*n]);
			(*n)++;
		}
	}
}

static Datum
array_to_array(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int			depth = 0;
	const ch_type *t = col->type;
	int			dims[MAXDIM];
	int			lbs[MAXDIM];
	int			i;
	int64		total = 1;
	Datum	   *values;
	bool	   *nulls;
	int			n = 0;

	while (t->kind == CH_T_ARRAY)
	{
		depth++;
		t = t->children[0];
	}
	if (depth > MAXDIM)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("ClickHouse array nests deeper than PostgreSQL's %d dimensions", MAXDIM)));
	for (i = 0; i < depth; i++)
	{
		dims[i] = -1;
		lbs[i] = 1;
	}
	arr_dims(cc, col, row, depth, dims, 0);
	for (i = 0; i < depth; i++)
		total *= dims[i] < 0 ? 0 : dims[i];
	if (total == 0)
		return PointerGetDatum(construct_empty_array(cc->elemtype));
	if (total > (int64) (MaxAllocSize / sizeof(Datum)))
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("array too large")));
	values = palloc(sizeof(Datum) * total);
	nulls = palloc(sizeof(bool) * total);
	arr_collect(cc, col, row, depth, 0, values, nulls, &n);
	return PointerGetDatum(construct_md_array(values, nulls, depth, dims, lbs, cc->elemtype,
											  cc->elmlen, cc->elmbyval, cc->elmalign));
}

/* ---- tuples ---- */

typedef struct TupleErrorArg
{
	ChFdwColConv *cc;
	int			att;			/* the attribute being converted */
} TupleErrorArg;

static void
tuple_error_callback(void *arg)
{
	TupleErrorArg *a = (TupleErrorArg *) arg;
	ChFdwColConv *cc = a->cc;

	errcontext("attribute \"%s\" of type %s, from element %d of ClickHouse type %s",
			   NameStr(TupleDescAttr(cc->rowdesc, a->att)->attname),
			   format_type_be(cc->pgtype), cc->field_elem[a->att] + 1, cc->leaf->name);
}

/* A Tuple value as a composite: element i into the i-th live attribute. */
static Datum
tuple_to_record(ChFdwColConv *cc, const ch_column *col, uint64 row)
{
	int			natts = cc->rowdesc->natts;
	Datum	   *values = palloc(sizeof(Datum) * Max(natts, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(natts, 1));
	ErrorContextCallback errcb;
	TupleErrorArg arg;
	int			i;

	arg.cc = cc;
	errcb.callback = tuple_error_callback;
	errcb.arg = &arg;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	for (i = 0; i < natts; i++)
	{
		if (!cc->fields[i])
		{
			values[i] = (Datum) 0;
			nulls[i] = true;
			continue;
		}
		arg.att = i;
		chfdw_convert(cc->fields[i], &col->children[cc->field_elem[i]], row,
					  &values[i], &nulls[i]);
	}
	error_context_stack = errcb.previous;
	return HeapTupleGetDatum(heap_form_tuple(cc->rowdesc, values, nulls));
}

/* "(integer, text, real)": the natural types of a Tuple's elements. */
static char *
tuple_natural_list(const ch_type *t)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '(');
	for (i = 0; i < t->nchildren; i++)
	{
		int32		tm;
		Oid			nat = chfdw_natural_type(t->children[i], &tm);

		if (i > 0)
			appendStringInfoString(&buf, ", ");
		if (t->names && t->names[i])
			appendStringInfo(&buf, "%s ", t->names[i]);
		else
			appendStringInfo(&buf, "f%d ", i + 1);
		appendStringInfoString(&buf, OidIsValid(nat) ? format_type_with_typemod(nat, tm) :
							   ch_type_unwrap(t->children[i])->kind == CH_T_TUPLE ?
							   "<a composite type>" : "<no mapping>");
	}
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/*
 * A Tuple column declared as a composite type: each element through its own
 * converter into the attribute at the same position (names are not
 * compared); the numbers must match.
 */
static void
make_tuple_converter(ChFdwColConv *cc, const char *colname)
{
	const ch_type *t = cc->leaf;
	TupleDesc	desc = lookup_rowtype_tupdesc_copy(cc->pgtype, cc->typmod);
	int			live = 0;
	int			i;

	for (i = 0; i < desc->natts; i++)
		if (!TupleDescAttr(desc, i)->attisdropped)
			live++;
	if (live != t->nchildren)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("ClickHouse type %s of column \"%s\" has %d elements, but type %s has %d attributes",
						cc->chtype->name, colname, t->nchildren, format_type_be(cc->pgtype), live),
				 errhint("A composite type reads a Tuple element by element, in order: declare one with an attribute per element, e.g. %s.",
						 tuple_natural_list(t))));
	cc->rowdesc = desc;
	cc->fields = palloc0(sizeof(ChFdwColConv *) * Max(desc->natts, 1));
	cc->field_elem = palloc0(sizeof(int) * Max(desc->natts, 1));
	live = 0;
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, i);

		if (a->attisdropped)
			continue;
		cc->field_elem[i] = live;
		cc->fields[i] = chfdw_make_converter(t->children[live], a->atttypid, a->atttypmod,
											 colname);
		live++;
	}
	cc->fn = tuple_to_record;
}

/* ---- selection ---- */

/*
 * The natural PostgreSQL type of a ClickHouse type (README's mapping
 * table), or InvalidOid when this version cannot read it yet.
 */
Oid
chfdw_natural_type(const ch_type *t, int32 *typmod)
{
	*typmod = -1;
	t = ch_type_unwrap(t);
	switch (t->kind)
	{
		case CH_T_UINT8:
		case CH_T_INT8:
		case CH_T_INT16:
			return INT2OID;
		case CH_T_UINT16:
		case CH_T_INT32:
			return INT4OID;
		case CH_T_UINT32:
		case CH_T_INT64:
			return INT8OID;
		case CH_T_UINT64:
			return NUMERICOID;
		case CH_T_FLOAT32:
			return FLOAT4OID;
		case CH_T_FLOAT64:
			return FLOAT8OID;
		case CH_T_BOOL:
			return BOOLOID;
		case CH_T_STRING:
			return TEXTOID;
		case CH_T_FIXEDSTRING:
			return BYTEAOID;
		case CH_T_DATE:
			return DATEOID;
		case CH_T_DATETIME:
		case CH_T_DATETIME64:
			return TIMESTAMPTZOID;
		case CH_T_DATE32:
			return DATEOID;
		case CH_T_UINT128:
		case CH_T_UINT256:
		case CH_T_INT128:
		case CH_T_INT256:
			return NUMERICOID;
		case CH_T_DECIMAL:
			*typmod = ((t->precision << 16) | t->scale) + VARHDRSZ;
			return t->precision <= 1000 ? NUMERICOID : InvalidOid;
		case CH_T_BFLOAT16:
			return FLOAT4OID;
		case CH_T_UUID:
			return UUIDOID;
		case CH_T_ENUM8:
		case CH_T_ENUM16:
			return TEXTOID;
		case CH_T_IPV4:
		case CH_T_IPV6:
			return INETOID;
		case CH_T_NOTHING:
			return TEXTOID;
		case CH_T_ARRAY:
			{
				int32		etm;
				Oid			elem = chfdw_natural_type(t->children[0], &etm);
				Oid			arr = OidIsValid(elem) ? get_array_type(elem) : InvalidOid;
				const ch_type *inner = t->children[0];

				/* nested arrays map to the same (multidimensional) array type */
				while (ch_type_unwrap(inner)->kind == CH_T_ARRAY)
					inner = ch_type_unwrap(inner)->children[0];
				if (inner != t->children[0])
				{
					elem = chfdw_natural_type(inner, &etm);
					arr = OidIsValid(elem) ? get_array_type(elem) : InvalidOid;
				}
				return arr;
			}
		default:
			return InvalidOid;
	}
}

static int_getter
int_getter_for(ch_type_kind k)
{
	switch (k)
	{
		case CH_T_UINT8:
		case CH_T_BOOL:
			return get_u8;
		case CH_T_INT8:
			return get_i8;
		case CH_T_UINT16:
			return get_u16;
		case CH_T_INT16:
			return get_i16;
		case CH_T_UINT32:
			return get_u32;
		case CH_T_INT32:
			return get_i32;
		case CH_T_UINT64:
			return get_u64;
		case CH_T_INT64:
			return get_i64;
		default:
			return NULL;
	}
}

static float_getter
float_getter_for(ch_type_kind k)
{
	switch (k)
	{
		case CH_T_FLOAT32:
			return get_f32;
		case CH_T_FLOAT64:
			return get_f64;
		case CH_T_BFLOAT16:
			return get_bf16;
		default:
			return NULL;
	}
}

/* A direct leaf function producing target from this leaf, or NULL. */
static leaf_fn
direct_fn(ChFdwColConv *cc, Oid target, int32 typmod)
{
	ch_type_kind k = cc->leaf->kind;

	if (cc->get_int)
	{
		switch (target)
		{
			case INT2OID:
				return int_to_int2;
			case INT4OID:
				return int_to_int4;
			case INT8OID:
				return int_to_int8;
			case NUMERICOID:
				return typmod < 0 ? int_to_numeric : NULL;
			case FLOAT4OID:
				return int_to_float4;
			case FLOAT8OID:
				return int_to_float8;
			case BOOLOID:
				return k == CH_T_BOOL ? int_to_bool : NULL;
			default:
				return NULL;
		}
	}
	if (cc->get_float)
	{
		switch (target)
		{
			case FLOAT4OID:
				return float_to_float4;
			case FLOAT8OID:
				return float_to_float8;
			case NUMERICOID:
				return typmod < 0 ? float_to_numeric : NULL;
			default:
				return NULL;
		}
	}
	switch (k)
	{
		case CH_T_STRING:
			return target == TEXTOID ? string_to_text :
				target == BYTEAOID ? string_to_bytea : NULL;
		case CH_T_FIXEDSTRING:
			return target == BYTEAOID ? fixed_to_bytea :
				target == TEXTOID ? fixed_to_text : NULL;
		case CH_T_DATE:
			return target == DATEOID ? date_to_date : NULL;
		case CH_T_DATETIME:
			return target == TIMESTAMPTZOID ? datetime_to_timestamptz :
				target == TIMESTAMPOID ? datetime_to_timestamp :
				target == DATEOID ? datetime_to_date :
				(target == TIMEOID && typmod < 0) ? datetime_to_time : NULL;
		case CH_T_DATETIME64:
			return target == TIMESTAMPTZOID ? datetime64_to_timestamptz :
				target == TIMESTAMPOID ? datetime64_to_timestamp :
				target == DATEOID ? datetime64_to_date :
				(target == TIMEOID && typmod < 0) ? datetime64_to_time : NULL;
		case CH_T_DATE32:
			return target == DATEOID ? date32_to_date : NULL;
		case CH_T_DECIMAL:
			return (target == NUMERICOID && typmod < 0) ? decimal_to_numeric : NULL;
		case CH_T_UINT128:
		case CH_T_UINT256:
		case CH_T_INT128:
		case CH_T_INT256:
			return (target == NUMERICOID && typmod < 0) ? wideint_to_numeric : NULL;
		case CH_T_UUID:
			return target == UUIDOID ? uuid_to_uuid : NULL;
		case CH_T_ENUM8:
		case CH_T_ENUM16:
			return target == TEXTOID ? enum_to_text : NULL;
		case CH_T_IPV4:
		case CH_T_IPV6:
			return target == INETOID ? ip_to_inet : NULL;
		case CH_T_NOTHING:
			return nothing_to_null;
		default:
			return NULL;
	}
}

/*
 * Choose the conversion from a ClickHouse column type to a declared
 * PostgreSQL type. Allocated in the current memory context.
 */
ChFdwColConv *
chfdw_make_converter(const ch_type *chtype, Oid pgtype, int32 typmod,
					 const char *colname)
{
	ChFdwColConv *cc = palloc0(sizeof(ChFdwColConv));
	int32		nat_typmod;

	cc->chtype = chtype;
	cc->leaf = ch_type_unwrap(chtype);
	cc->pgtype = pgtype;
	cc->typmod = typmod;
	cc->colname = colname;
	cc->get_int = int_getter_for(cc->leaf->kind);
	cc->get_float = float_getter_for(cc->leaf->kind);
	cc->tz_text = CStringGetTextDatum(cc->leaf->tz ? cc->leaf->tz : "UTC");
	if (cc->leaf->kind == CH_T_ARRAY)
	{
		const ch_type *inner = cc->leaf->children[0];

		if (!type_is_array(pgtype))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
					 errmsg("ClickHouse type %s of column \"%s\" must be read into an array type, not %s",
							chtype->name, colname, format_type_be(pgtype)),
					 errhint("Declare the column as an array, e.g. %s.",
							 OidIsValid(chfdw_natural_type(chtype, &nat_typmod)) ?
							 format_type_be(chfdw_natural_type(chtype, &nat_typmod)) : "text[]")));
		while (ch_type_unwrap(inner)->kind == CH_T_ARRAY)
			inner = ch_type_unwrap(inner)->children[0];
		cc->elemtype = get_element_type(pgtype);
		get_typlenbyvalalign(cc->elemtype, &cc->elmlen, &cc->elmbyval, &cc->elmalign);
		cc->elem = chfdw_make_converter(inner, cc->elemtype, typmod, colname);
		cc->fn = array_to_array;
		return cc;
	}
	if (get_typtype(pgtype) == TYPTYPE_COMPOSITE)
	{
		if (cc->leaf->kind == CH_T_TUPLE)
		{
			make_tuple_converter(cc, colname);
			return cc;
		}
		/* a String may hold PostgreSQL's record text; nothing else can */
		if (cc->leaf->kind != CH_T_STRING && cc->leaf->kind != CH_T_FIXEDSTRING)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
					 errmsg("ClickHouse type %s of column \"%s\" cannot be read as composite type %s",
							chtype->name, colname, format_type_be(pgtype)),
					 errhint("A composite type reads a ClickHouse Tuple (or a String holding a record's text); declare this column with its own type, or as text with OPTIONS (read_as 'string').")));
	}
	cc->natural = chfdw_natural_type(cc->leaf, &nat_typmod);
	if (!OidIsValid(cc->natural))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("ClickHouse type %s of column \"%s\" cannot be read directly",
						chtype->name, colname),
				 errhint("Have ClickHouse send it as text: add OPTIONS (read_as 'string') to the column (or read_as 'json' for a jsonb column).")));

	cc->fn = direct_fn(cc, pgtype, typmod);
	if (cc->fn)
		return cc;
	/* FixedString into other text types: through its text (padding removed) */
	if (cc->leaf->kind == CH_T_FIXEDSTRING)
		cc->natural = TEXTOID;
	/* time(p) of a DateTime: through the wall time's text, as time is read */
	if ((cc->leaf->kind == CH_T_DATETIME || cc->leaf->kind == CH_T_DATETIME64) &&
		pgtype == TIMEOID)
		cc->natural = TIMESTAMPOID;

	/* through the natural type's text form */
	cc->fn = direct_fn(cc, cc->natural, -1);
	if (cc->leaf->kind == CH_T_NOTHING)
		return cc;
	if (!cc->fn)
		elog(ERROR, "no conversion from ClickHouse type %s to its natural type", chtype->name);
	cc->via_text = true;
	cc->numeric_to_int = cc->natural == NUMERICOID &&
		(pgtype == INT2OID || pgtype == INT4OID || pgtype == INT8OID);
	{
		Oid			outfn,
					infn;
		bool		isvarlena;

		getTypeOutputInfo(cc->natural, &outfn, &isvarlena);
		fmgr_info(outfn, &cc->natural_out);
		getTypeInputInfo(pgtype, &infn, &cc->ioparam);
		fmgr_info(infn, &cc->in_func);
	}
	return cc;
}

/*
 * The leaf is a DateTime/DateTime64 whose type, as sent, names no zone
 * (18.16 drops it over HTTP): use the zone from the table's definition for
 * wall-time (timestamp) conversions.
 */
void
chfdw_converter_set_zone(ChFdwColConv *cc, const char *tz)
{
	if (cc->elem)
		chfdw_converter_set_zone(cc->elem, tz);
	if (cc->fields)
	{
		int			i;

		for (i = 0; i < cc->rowdesc->natts; i++)
			if (cc->fields[i])
				chfdw_converter_set_zone(cc->fields[i], tz);
	}
	cc->tz_text = CStringGetTextDatum(tz);
}

/* Does this converter produce wall time from a zone-less DateTime? */
bool
chfdw_converter_needs_zone(const ChFdwColConv *cc)
{
	if (cc->elem)
		return chfdw_converter_needs_zone(cc->elem);
	return (cc->leaf->kind == CH_T_DATETIME || cc->leaf->kind == CH_T_DATETIME64) &&
		cc->leaf->tz == NULL &&
		(cc->pgtype == TIMESTAMPOID || cc->pgtype == DATEOID || cc->pgtype == TIMEOID ||
		 (cc->via_text && cc->pgtype != TIMESTAMPTZOID));
}

/*
 * A Decimal read into smallint/integer/bigint: whole values go on through
 * the text path with scale 0 (1.00 is 1; out of range is the input
 * function's error, naming the value); a fraction is an error rather than
 * rounded.
 */
static Datum
check_whole_number(ChFdwColConv *cc, Datum num)
{
	Datum		whole = DirectFunctionCall2(numeric_trunc, num, Int32GetDatum(0));

	if (!DatumGetBool(DirectFunctionCall2(numeric_eq, num, whole)))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("ClickHouse value %s of column \"%s\" is not a whole number",
						DatumGetCString(DirectFunctionCall1(numeric_out, num)), cc->colname),
				 errdetail("Its values are read as %s; this one would be rounded.",
						   format_type_be(cc->pgtype)),
				 errhint("Declare the column numeric, or round the value in ClickHouse (a view).")));
	return whole;				/* scale 0: "1", not "1.00" */
}

/*
 * Convert row of col (a top-level block column) into *value / *isnull.
 * Allocations go to the current memory context.
 */
void
chfdw_convert(ChFdwColConv *cc, const ch_column *col, uint64 row,
			  Datum *value, bool *isnull)
{
	Datum		d;

	if (col->type->kind == CH_T_NULLABLE)
	{
		if (col->null_map[row])
		{
			*isnull = true;
			*value = (Datum) 0;
			return;
		}
		col = &col->children[0];
	}
	else if (col->type->kind == CH_T_LOWCARDINALITY)
	{
		uint64		key = ch_col_lc_key(col, row);

		if (col->lc_nullable && key == 0)
		{
			*isnull = true;
			*value = (Datum) 0;
			return;
		}
		col = &col->children[0];
		row = key;
	}
	*isnull = false;
	d = cc->fn(cc, col, row);
	if (cc->numeric_to_int)
		d = check_whole_number(cc, d);
	if (cc->via_text)
	{
		char	   *s = OutputFunctionCall(&cc->natural_out, d);

		d = InputFunctionCall(&cc->in_func, s, cc->ioparam, cc->typmod);
	}
	*value = d;
}

/* ---- whole columns at a time ---- */

/*
 * The scan converts the rows of a block a chunk at a time, one column after
 * the other, for the direct conversions below; each loops over the column's
 * values with no call per value. Every other conversion (through text,
 * arrays, tuples, zones, ...) stays row at a time (chfdw_convert).
 *
 * A bulk conversion never raises an error: at the first value it cannot
 * convert (out of range, invalid text) it stops and returns that row, and
 * the scan converts the rows from there one at a time, so the error comes
 * from chfdw_convert at the row where it came before, with the same text.
 *
 * Numerics are written in PostgreSQL's numeric format directly (as
 * make_result() in PostgreSQL's src/backend/utils/adt/numeric.c lays it out:
 * base-10000 digits, no leading or trailing zero digits, the short header
 * when weight and scale fit it), the value numeric_in would make of the
 * value's text; texts of a chunk share one allocation, each value with a
 * 1-byte varlena header when it fits one (as heap tuples store short
 * values), which every function reading text accepts.
 */

/* numeric's on-disk header bits (src/backend/utils/adt/numeric.c) */
#define NUM_SHORT 0x8000
#define NUM_NEG 0x4000
#define NUM_SHORT_SIGN 0x2000
#define NUM_SHORT_DSCALE_SHIFT 7
#define NUM_SHORT_DSCALE_MAX 63
#define NUM_SHORT_WEIGHT_SIGN 0x0040
#define NUM_SHORT_WEIGHT_MASK 0x003F
#define NUM_SHORT_WEIGHT_MAX 63
#define NUM_SHORT_WEIGHT_MIN (-64)
#define NUM_DSCALE_MASK 0x3FFF
#define NUM_HDRSZ (VARHDRSZ + 2 * sizeof(uint16))
#define NUM_HDRSZ_SHORT (VARHDRSZ + sizeof(uint16))
/* bytes one numeric of at most ndig decimal digits (any scale) may take */
#define NUM_MAXSIZE(ndig) INTALIGN(NUM_HDRSZ + sizeof(int16) * ((ndig) / 4 + 3))

/*
 * Decimal digits of the magnitude w[0..3] (little-endian 64-bit limbs),
 * least significant first, into dig; returns how many (0 for zero).
 */
static int
mag_digits(uint64 *w, int nw, uint8 *dig)
{
	int			nd = 0;

	while (nw > 0 && w[nw - 1] == 0)
		nw--;
	while (nw > 1)
	{
		/* divide by 10^19, 19 digits at a time */
		uint128		rem = 0;
		uint64		chunk;
		int			k;

		for (k = nw - 1; k >= 0; k--)
		{
			uint128		cur = (rem << 64) | w[k];

			w[k] = (uint64) (cur / UINT64CONST(10000000000000000000));
			rem = cur % UINT64CONST(10000000000000000000);
		}
		chunk = (uint64) rem;
		for (k = 0; k < 19; k++)
		{
			dig[nd++] = (uint8) (chunk % 10);
			chunk /= 10;
		}
		while (nw > 0 && w[nw - 1] == 0)
			nw--;
	}
	if (nw == 1)
	{
		uint64		v = w[0];

		while (v)
		{
			dig[nd++] = (uint8) (v % 10);
			v /= 10;
		}
	}
	/* a 19-digit chunk may have left zeros above the value's top digit */
	while (nd > 0 && dig[nd - 1] == 0)
		nd--;
	return nd;
}

/*
 * Write at p the numeric of the decimal digits dig[0..nd) (least
 * significant first) times 10^-scale, negative if neg; returns its size.
 */
static Size
put_numeric(char *p, bool neg, const uint8 *dig, int nd, int scale)
{
	int16		groups[NUMERIC_MAX_PRECISION / 4 + 4];
	int			ni = nd > scale ? (nd - scale + 3) / 4 : 0;	/* integer groups */
	int			nf = (scale + 3) / 4;	/* fraction groups */
	int			weight = ni - 1;
	int			ng = 0;
	int			first,
				last,
				j;
	uint16	   *hdr = (uint16 *) (p + VARHDRSZ);
	int16	   *out;
	Size		len;

	/* groups from the most significant: integer group j covers digits [scale+4j, +4) */
	for (j = ni - 1; j >= -nf; j--)
	{
		int			lo = scale + 4 * j;	/* position of the group's lowest digit */
		int			g = 0,
					k;

		for (k = 3; k >= 0; k--)
		{
			int			pos = lo + k;

			g = g * 10 + (pos >= 0 && pos < nd ? dig[pos] : 0);
		}
		groups[ng++] = (int16) g;
	}
	first = 0;
	while (first < ng && groups[first] == 0)
	{
		first++;
		weight--;
	}
	last = ng;
	while (last > first && groups[last - 1] == 0)
		last--;
	if (first == last)
	{
		weight = 0;
		neg = false;
	}
	if (scale <= NUM_SHORT_DSCALE_MAX &&
		weight >= NUM_SHORT_WEIGHT_MIN && weight <= NUM_SHORT_WEIGHT_MAX)
	{
		*hdr = (neg ? (NUM_SHORT | NUM_SHORT_SIGN) : NUM_SHORT) |
			(scale << NUM_SHORT_DSCALE_SHIFT) |
			(weight < 0 ? NUM_SHORT_WEIGHT_SIGN : 0) |
			(weight & NUM_SHORT_WEIGHT_MASK);
		out = (int16 *) (p + NUM_HDRSZ_SHORT);
		len = NUM_HDRSZ_SHORT;
	}
	else
	{
		hdr[0] = (neg ? NUM_NEG : 0) | (scale & NUM_DSCALE_MASK);
		hdr[1] = (uint16) (int16) weight;
		out = (int16 *) (p + NUM_HDRSZ);
		len = NUM_HDRSZ;
	}
	for (j = first; j < last; j++)
		*out++ = groups[j];
	len += sizeof(int16) * (last - first);
	SET_VARSIZE(p, len);
	return len;
}

/* The numeric of a little-endian integer of width bytes, scale digits of it fractional. */
static Size
put_wide_numeric(char *p, const uint8 *v, uint32 width, bool is_signed, int scale)
{
	uint64		w[4] = {0, 0, 0, 0};
	bool		neg = is_signed && (v[width - 1] & 0x80) != 0;
	uint8		dig[80];
	int			nw,
				k;

	if (width < 8)
	{
		uint64		x = 0;

		memcpy(&x, v, width);
		if (neg)
			x = -(x | (~(uint64) 0 << (8 * width)));
		w[0] = x;
		nw = 1;
	}
	else
	{
		nw = (int) width / 8;
		for (k = 0; k < nw; k++)
			w[k] = ch_le64(v + 8 * k);
		if (neg)
		{
			unsigned	c = 1;

			for (k = 0; k < nw; k++)
			{
				w[k] = ~w[k] + c;
				c = c && w[k] == 0;
			}
		}
	}
	return put_numeric(p, neg, dig, mag_digits(w, nw, dig), scale);
}

/* The numeric of an integer of at most 64 bits of magnitude (UInt64, Int64, ...). */
static Size
put_int_numeric(char *p, int128 v)
{
	bool		neg = v < 0;
	uint64		u = (uint64) (neg ? -v : v);
	int16		groups[5];		/* 2^64 has 20 digits: 5 base-10000 digits */
	int			ng = 0,
				low = 0,
				j;
	int16	   *out = (int16 *) (p + NUM_HDRSZ_SHORT);
	Size		len;

	/* base-10000 digits, least significant first */
	while (u)
	{
		groups[ng++] = (int16) (u % 10000);
		u /= 10000;
	}
	/* no trailing zero digits (weight still counts them); zero has none at all */
	while (low < ng && groups[low] == 0)
		low++;
	if (ng == 0)
		neg = false;
	*(uint16 *) (p + VARHDRSZ) = (neg ? (NUM_SHORT | NUM_SHORT_SIGN) : NUM_SHORT) |
		((ng > 0 ? ng - 1 : 0) & NUM_SHORT_WEIGHT_MASK);
	for (j = ng - 1; j >= low; j--)
		*out++ = groups[j];
	len = NUM_HDRSZ_SHORT + sizeof(int16) * (ng - low);
	SET_VARSIZE(p, len);
	return len;
}

/* Bytes 0x01..0x7f only: valid in every server encoding, nothing to check. */
#define HAS_ZERO_OR_HIGH64(x) (((x) | (((x) - UINT64CONST(0x0101010101010101)) & ~(x))) & \
							   UINT64CONST(0x8080808080808080))
#define HAS_ZERO_OR_HIGH32(x) (((x) | (((x) - 0x01010101U) & ~(x))) & 0x80808080U)
static inline bool
plain_ascii(const uint8 *s, uint32 len)
{
	if (len >= 8)
	{
		uint64		x;
		uint32		i;

		for (i = 0; i + 8 < len; i += 8)
		{
			memcpy(&x, s + i, 8);
			if (HAS_ZERO_OR_HIGH64(x))
				return false;
		}
		/* the last 8 bytes (overlapping the ones checked) */
		memcpy(&x, s + len - 8, 8);
		return !HAS_ZERO_OR_HIGH64(x);
	}
	if (len >= 4)
	{
		uint32		x,
					y;

		memcpy(&x, s, 4);
		memcpy(&y, s + len - 4, 4);
		return !HAS_ZERO_OR_HIGH32(x) && !HAS_ZERO_OR_HIGH32(y);
	}
	if (len == 0)
		return true;
	/* 1 to 3 bytes: the first, the middle and the last cover them */
	return (int8) s[0] > 0 && (int8) s[len / 2] > 0 && (int8) s[len - 1] > 0;
}

/*
 * Are the bytes p[0 .. len) all 0x00..0x7f with exactly nzero bytes 0x00?
 * Over a String column's run of values (each a one-byte length then its
 * bytes, ch_native.h), true says that every length is below 128 and that no
 * value holds a byte outside 0x01..0x7f, given that nzero of the values are
 * empty (their length byte is the only 0x00 they add). Eight bytes a step:
 * without high bits, a byte plus 0x7f has its high bit clear only when it
 * was 0x00, with no carry into the next byte.
 */
static bool
ascii_run(const uint8 *p, size_t len, uint64 nzero)
{
	uint64		high = 0,
				zeros = 0;
	size_t		i = 0;

	for (; i + 8 <= len; i += 8)
	{
		uint64		x,
					z;

		memcpy(&x, p + i, 8);
		high |= x;
		z = (~(x + UINT64CONST(0x7f7f7f7f7f7f7f7f)) & UINT64CONST(0x8080808080808080)) >> 7;
		zeros += (z * UINT64CONST(0x0101010101010101)) >> 56;
	}
	if (high & UINT64CONST(0x8080808080808080))
		return false;
	for (; i < len; i++)
	{
		if (p[i] & 0x80)
			return false;
		zeros += p[i] == 0;
	}
	return zeros == nzero;
}

static inline int128
leaf_int(ch_type_kind k, const uint8 *d, uint64 r)
{
	switch (k)
	{
		case CH_T_UINT8:
		case CH_T_BOOL:
			return d[r];
		case CH_T_INT8:
			return (int8) d[r];
		case CH_T_UINT16:
			return ch_le16(d + r * 2);
		case CH_T_INT16:
			return (int16) ch_le16(d + r * 2);
		case CH_T_UINT32:
			return ch_le32(d + r * 4);
		case CH_T_INT32:
			return (int32) ch_le32(d + r * 4);
		case CH_T_UINT64:
			return ch_le64(d + r * 8);
		default:
			return (int64) ch_le64(d + r * 8);
	}
}

/*
 * Is the wall time in the converter's zone the instant itself? For the zone
 * UTC, checked with timestamptz_zone (what the row-at-a-time path calls) at
 * a few instants, in case timezone_abbreviations gives "UTC" another offset.
 */
static bool
zone_is_utc(ChFdwColConv *cc)
{
	static const int64 probes[] = {0, INT64CONST(1000000000000000), INT64CONST(-3000000000000000),
	INT64CONST(8000000000000000)};
	char	   *tz = TextDatumGetCString(cc->tz_text);
	int			i;

	if (strcmp(tz, "UTC") != 0)
		return false;
	for (i = 0; i < lengthof(probes); i++)
		if (DatumGetTimestamp(DirectFunctionCall2(timestamptz_zone, cc->tz_text,
												  TimestampTzGetDatum(probes[i]))) != probes[i])
			return false;
	return true;
}

/*
 * Can chfdw_convert_rows convert this column (else row at a time)? Asked
 * once the converter is complete (its zone set).
 */
bool
chfdw_converter_has_bulk(ChFdwColConv *cc)
{
	leaf_fn		f = cc->fn;

	if (cc->via_text || f == NULL)
		return false;
	/* timestamp (wall time) of a DateTime in UTC: the instant's microseconds */
	if (f == datetime_to_timestamp || f == datetime64_to_timestamp)
		return cc->bulk_wall_utc = zone_is_utc(cc);
	return f == int_to_int2 || f == int_to_int4 || f == int_to_int8 ||
		f == int_to_numeric || f == int_to_float4 || f == int_to_float8 ||
		f == int_to_bool || f == float_to_float8 || f == float_to_float4 ||
		f == string_to_text || f == date_to_date || f == date32_to_date ||
		f == datetime_to_timestamptz || f == datetime64_to_timestamptz ||
		f == decimal_to_numeric || f == wideint_to_numeric || f == uuid_to_uuid;
}

/*
 * Rows [first, first + n) of a leaf column (not Nullable, not
 * LowCardinality) into v / isnull (indexed from 0); rows whose nm byte is
 * set are NULL (nm may be NULL). Returns n, or the index (from 0) of the
 * first value that must go through chfdw_convert.
 */
static uint64
bulk_leaf(ChFdwColConv *cc, const ch_column *col, uint64 first, uint64 n,
		  const uint8 *nm, Datum *v, bool *isnull, int stride)
{
	leaf_fn		f = cc->fn;
	ch_type_kind k = col->type->kind;
	const uint8 *d = col->data;
	uint64		i;

#define SKIP_NULL(i) \
	if (nm && nm[first + (i)]) { isnull[(i) * stride] = true; v[(i) * stride] = (Datum) 0; continue; } \
	isnull[(i) * stride] = false

	if (f == int_to_int8 && (k == CH_T_UINT64 || k == CH_T_INT64))
	{
		/* the common case without 128-bit arithmetic */
		for (i = 0; i < n; i++)
		{
			uint64		x;

			SKIP_NULL(i);
			x = ch_le64(d + (first + i) * 8);
			if (k == CH_T_UINT64 && x > (uint64) PG_INT64_MAX)
				return i;
			v[(i) * stride] = Int64GetDatum((int64) x);
		}
	}
	else if (f == int_to_int8 && (k == CH_T_UINT32 || k == CH_T_INT32))
	{
		for (i = 0; i < n; i++)
		{
			uint32		x;

			SKIP_NULL(i);
			x = ch_le32(d + (first + i) * 4);
			v[(i) * stride] = Int64GetDatum(k == CH_T_UINT32 ? (int64) x : (int64) (int32) x);
		}
	}
	else if (f == int_to_int2 || f == int_to_int4 || f == int_to_int8)
	{
		int128		lo = f == int_to_int2 ? PG_INT16_MIN : f == int_to_int4 ? PG_INT32_MIN : PG_INT64_MIN;
		int128		hi = f == int_to_int2 ? PG_INT16_MAX : f == int_to_int4 ? PG_INT32_MAX : PG_INT64_MAX;

		for (i = 0; i < n; i++)
		{
			int128		x;

			SKIP_NULL(i);
			x = leaf_int(k, d, first + i);
			if (x < lo || x > hi)
				return i;
			v[(i) * stride] = (Datum) (int64) x;	/* as Int16/32/64GetDatum */
		}
	}
	else if (f == int_to_float8)
	{
		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			v[(i) * stride] = Float8GetDatum((float8) leaf_int(k, d, first + i));
		}
	}
	else if (f == int_to_float4)
	{
		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			v[(i) * stride] = Float4GetDatum((float4) leaf_int(k, d, first + i));
		}
	}
	else if (f == int_to_bool)
	{
		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			v[(i) * stride] = BoolGetDatum(d[first + i] != 0);
		}
	}
	else if (f == int_to_numeric)
	{
		char	   *buf = palloc(n * NUM_MAXSIZE(20));

		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			v[(i) * stride] = PointerGetDatum(buf);
			buf += INTALIGN(put_int_numeric(buf, leaf_int(k, d, first + i)));
		}
	}
	else if (f == decimal_to_numeric || f == wideint_to_numeric)
	{
		uint32		w = col->type->width;
		bool		is_signed = f == decimal_to_numeric || k == CH_T_INT128 || k == CH_T_INT256;
		int			scale = f == decimal_to_numeric ? col->type->scale : 0;
		char	   *buf = palloc(n * NUM_MAXSIZE(80));

		if (scale < 0 || scale > 80)
			return 0;
		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			v[(i) * stride] = PointerGetDatum(buf);
			buf += INTALIGN(put_wide_numeric(buf, d + (first + i) * w, w, is_signed, scale));
		}
	}
	else if (f == float_to_float8 || f == float_to_float4)
	{
		for (i = 0; i < n; i++)
		{
			double		x;

			SKIP_NULL(i);
			if (k == CH_T_FLOAT64)
				x = get_f64(col, first + i);
			else if (k == CH_T_FLOAT32)
				x = get_f32(col, first + i);
			else
				x = get_bf16(col, first + i);
			if (f == float_to_float8)
				v[(i) * stride] = Float8GetDatum(x);
			else
			{
				float4		fl = (float4) x;

				if (isinf(fl) && !isinf(x))
					return i;
				v[(i) * stride] = Float4GetDatum(fl);
			}
		}
	}
	else if (f == string_to_text)
	{
		/*
		 * A value of up to 126 bytes is a 1-byte-header varlena where it
		 * lies: its length (a VarUInt of at least one byte) is read, so the
		 * byte before the value, in the reader's own writable copy of the
		 * block (ch_native.h), becomes the header. Nothing is copied; the
		 * datum lives as long as the block, which outlives the chunk.
		 */
		uint8	   *base = (uint8 *) col->data;	/* writable: see above */
		const size_t *pos = col->str_pos + first;
		const uint32 *lens = col->str_len + first;
		uint64		nzero = 0;
		bool		checked;

		/*
		 * Rows whose bytes, lengths included, are one run of ASCII without
		 * NUL (the usual case) need no check per value: every value is
		 * valid text in every server encoding, and its length byte is there
		 * to become the header.
		 */
		for (i = 0; i < n; i++)
			nzero += lens[i] == 0;
		checked = n > 0 && ascii_run(base + pos[0] - 1, pos[n - 1] + lens[n - 1] - (pos[0] - 1), nzero);
		for (i = 0; i < n; i++)
		{
			uint32		len = lens[i];
			uint8	   *s;

			SKIP_NULL(i);
			s = base + pos[i];
			if (!checked && !plain_ascii(s, len) && !pg_verifymbstr((const char *) s, (int) len, true))
				return i;
			if (len + VARHDRSZ_SHORT <= VARATT_SHORT_MAX && pos[i] > 0)
			{
				SET_VARSIZE_SHORT(s - 1, len + VARHDRSZ_SHORT);
				v[(i) * stride] = PointerGetDatum(s - 1);
			}
			else
			{
				text	   *t = (text *) palloc(len + VARHDRSZ);

				SET_VARSIZE(t, len + VARHDRSZ);
				memcpy(VARDATA(t), s, len);
				v[(i) * stride] = PointerGetDatum(t);
			}
		}
	}
	else if (f == date_to_date)
	{
		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			v[(i) * stride] = DateADTGetDatum((DateADT) ((int32) ch_le16(d + (first + i) * 2) - UNIX_TO_PG_DAYS));
		}
	}
	else if (f == date32_to_date)
	{
		for (i = 0; i < n; i++)
		{
			int64		day;

			SKIP_NULL(i);
			/* as date32_to_date: in int64, and out of range is that row's error */
			day = (int64) (int32) ch_le32(d + (first + i) * 4) - UNIX_TO_PG_DAYS;
			if (!IS_VALID_DATE(day))
				return i;
			v[(i) * stride] = DateADTGetDatum((DateADT) day);
		}
	}
	else if (f == datetime_to_timestamptz || (f == datetime_to_timestamp && cc->bulk_wall_utc))
	{
		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			v[(i) * stride] = TimestampTzGetDatum(((int64) ch_le32(d + (first + i) * 4) - UNIX_TO_PG_SECS) *
									   USECS_PER_SEC);
		}
	}
	else if (f == datetime64_to_timestamptz || (f == datetime64_to_timestamp && cc->bulk_wall_utc))
	{
		int			p = col->type->scale;
		int64		mul = 1;
		int			j;

		if (p > 6)
			return 0;			/* rounding: row at a time */
		for (j = p; j < 6; j++)
			mul *= 10;
		for (i = 0; i < n; i++)
		{
			int64		us;

			SKIP_NULL(i);
			/* as datetime64_to_timestamptz: any overflow is that row's error */
			if (pg_mul_s64_overflow((int64) ch_le64(d + (first + i) * 8), mul, &us) ||
				pg_sub_s64_overflow(us, (int64) UNIX_TO_PG_DAYS * USECS_PER_DAY, &us) ||
				!IS_VALID_TIMESTAMP(us))
				return i;
			v[(i) * stride] = TimestampTzGetDatum(us);
		}
	}
	else if (f == uuid_to_uuid)
	{
		pg_uuid_t  *u = palloc(n * sizeof(pg_uuid_t));

		for (i = 0; i < n; i++)
		{
			SKIP_NULL(i);
			ch_uuid_from_wire(ch_col_fixed(col, first + i), u[i].data);
			v[(i) * stride] = UUIDPGetDatum(&u[i]);
		}
	}
	else
		return 0;
#undef SKIP_NULL
	return n;
}

/* A new block: the LowCardinality dictionary converted for the last one is gone. */
void
chfdw_converter_new_block(ChFdwColConv *cc)
{
	cc->dict_values = NULL;
	cc->dict_nulls = NULL;
	cc->dict_done = 0;
}

/*
 * Rows [first, first + n) of col (a top-level block column) into v / isnull
 * (row i at v[i * stride]), as chfdw_convert would convert them, for a converter
 * with chfdw_converter_has_bulk. Values are allocated in the current memory
 * context; a LowCardinality dictionary is converted once per block, in
 * block_cxt. Returns n, or the index of the first row that must go through
 * chfdw_convert (that row and the ones after it are not converted).
 */
uint64
chfdw_convert_rows(ChFdwColConv *cc, const ch_column *col, uint64 first, uint64 n,
				   Datum *v, bool *isnull, int stride, MemoryContext block_cxt)
{
	if (col->type->kind == CH_T_NULLABLE)
		return bulk_leaf(cc, &col->children[0], first, n, col->null_map, v, isnull, stride);
	if (col->type->kind == CH_T_LOWCARDINALITY)
	{
		const ch_column *dict = &col->children[0];
		uint64		i;

		if (cc->dict_values == NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(block_cxt);
			uint64		nd = dict->nrows;

			cc->dict_values = palloc(sizeof(Datum) * Max(nd, 1));
			cc->dict_nulls = palloc(sizeof(bool) * Max(nd, 1));
			cc->dict_done = bulk_leaf(cc, dict, 0, nd, NULL, cc->dict_values, cc->dict_nulls, 1);
			MemoryContextSwitchTo(old);
		}
		for (i = 0; i < n; i++)
		{
			uint64		key = ch_col_lc_key(col, first + i);

			if (col->lc_nullable && key == 0)
			{
				isnull[i * stride] = true;
				v[i * stride] = (Datum) 0;
				continue;
			}
			if (key >= cc->dict_done)
				return i;		/* unconvertible (or, malformed, beyond the dictionary) */
			isnull[i * stride] = false;
			v[i * stride] = cc->dict_values[key];
		}
		return n;
	}
	return bulk_leaf(cc, col, first, n, NULL, v, isnull, stride);
}
