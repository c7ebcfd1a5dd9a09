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
 * leaf converter runs.
 *
 * src/fdw/convert.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "common/shortest_dec.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

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
	FmgrInfo	natural_out;
	FmgrInfo	in_func;
	Oid			ioparam;
	Datum		tz_text;		/* zone for DateTime → timestamp */
	const char *colname;
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
	pg_verifymbstr(s, (int) len, false);
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
			return TIMESTAMPTZOID;
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
				target == TIMESTAMPOID ? datetime_to_timestamp : NULL;
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
	cc->natural = chfdw_natural_type(cc->leaf, &nat_typmod);
	if (!OidIsValid(cc->natural))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("ClickHouse type %s of column \"%s\" cannot be read yet",
						chtype->name, colname),
				 errhint("Cast the column to String in a ClickHouse view and declare it as text.")));

	cc->fn = direct_fn(cc, pgtype, typmod);
	if (cc->fn)
		return cc;

	/* through the natural type's text form */
	cc->fn = direct_fn(cc, cc->natural, -1);
	if (!cc->fn)
		elog(ERROR, "no conversion from ClickHouse type %s to its natural type", chtype->name);
	cc->via_text = true;
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
	if (cc->via_text)
	{
		char	   *s = OutputFunctionCall(&cc->natural_out, d);

		d = InputFunctionCall(&cc->in_func, s, cc->ioparam, cc->typmod);
	}
	*value = d;
}
