/*-------------------------------------------------------------------------
 * ch_type.h
 *	  ClickHouse type names parsed into a type tree.
 *
 * A type string as the server prints it ("Nullable(String)",
 * "Array(Tuple(a UInt8, b LowCardinality(String)))", "Enum8('a' = 1)")
 * becomes a tree of ch_type nodes allocated from a caller-supplied arena;
 * the tree lives as long as the arena. Aliases are resolved here, so that
 * the rest of the code sees one kind per wire encoding (Decimal32(S) is
 * CH_T_DECIMAL with precision 9, SimpleAggregateFunction(f, T) is T, ...).
 *
 * src/include/ch_type.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_TYPE_H
#define CH_TYPE_H

#include "ch_common.h"

typedef enum ch_type_kind
{
	CH_T_UINT8,
	CH_T_UINT16,
	CH_T_UINT32,
	CH_T_UINT64,
	CH_T_UINT128,
	CH_T_UINT256,
	CH_T_INT8,
	CH_T_INT16,
	CH_T_INT32,
	CH_T_INT64,
	CH_T_INT128,
	CH_T_INT256,
	CH_T_FLOAT32,
	CH_T_FLOAT64,
	CH_T_BFLOAT16,
	CH_T_BOOL,
	CH_T_DECIMAL,				/* precision, scale; width 4/8/16/32 */
	CH_T_STRING,
	CH_T_FIXEDSTRING,			/* fixed_len */
	CH_T_DATE,
	CH_T_DATE32,
	CH_T_DATETIME,				/* tz may be set */
	CH_T_DATETIME64,			/* scale = precision p; tz may be set */
	CH_T_UUID,
	CH_T_IPV4,
	CH_T_IPV6,
	CH_T_ENUM8,					/* enum_names / enum_values */
	CH_T_ENUM16,
	CH_T_NULLABLE,				/* children[0] */
	CH_T_LOWCARDINALITY,		/* children[0] */
	CH_T_ARRAY,					/* children[0] */
	CH_T_TUPLE,					/* children[], names[] when named */
	CH_T_MAP,					/* children[0] key, children[1] value */
	CH_T_NESTED,				/* children[], names[]: Array(Tuple(...)) */
	CH_T_NOTHING,
	CH_T_INTERVAL,				/* unit in arg_text */
	CH_T_TIME,
	CH_T_TIME64,				/* scale */
	CH_T_AGGREGATE_FUNCTION,	/* opaque; arg_text = argument text */
	CH_T_JSON,					/* JSON(...) and Object('json'); opaque */
	CH_T_VARIANT,				/* children[]; decoded by casting (see README) */
	CH_T_DYNAMIC,				/* opaque */
	CH_T_KIND_COUNT_
} ch_type_kind;

typedef struct ch_type ch_type;
struct ch_type
{
	ch_type_kind kind;
	const char *name;			/* the full type text, as given */
	uint32_t	width;			/* bytes per value for fixed-width kinds, else
								 * 0 */
	int32_t		precision;		/* Decimal precision */
	int32_t		scale;			/* Decimal scale, DateTime64/Time64 precision */
	uint32_t	fixed_len;		/* FixedString(N) */
	const char *tz;				/* DateTime/DateTime64 time zone, or NULL */
	const char *arg_text;		/* Interval unit, AggregateFunction args */
	int			nchildren;
	ch_type   **children;
	const char **names;			/* element names (named Tuple, Nested) or
								 * NULL */
	int			nenum;
	const char **enum_names;	/* Enum labels, unescaped */
	uint32_t   *enum_name_lens;
	int32_t    *enum_values;
	bool		simple_aggregate;	/* came from SimpleAggregateFunction */
	bool		is_bool_alias;	/* Bool */
};

/* Deepest nesting the parser accepts. */
#define CH_TYPE_MAX_DEPTH 32

/*
 * Parse a type name of len bytes. On success *out is a tree allocated from
 * ar. On failure returns CH_ERR_UNKNOWN_TYPE (names the unknown type) or
 * CH_ERR_MALFORMED (syntax), CH_ERR_NOMEM.
 */
ch_status	ch_type_parse(const char *text, size_t len, ch_arena *ar,
						  ch_type **out, ch_error *err);

/* The kind's name, e.g. "UInt64", "Nullable". */
const char *ch_type_kind_name(ch_type_kind k);

/* True for kinds whose values are width bytes each with no framing. */
bool		ch_type_is_fixed(const ch_type *t);

/* Int8..Int256 and UInt8..UInt256; Float32, Float64, BFloat16. */
bool		ch_type_kind_is_int(ch_type_kind k);
bool		ch_type_kind_is_float(ch_type_kind k);

/* The type under Nullable/LowCardinality wrappers. */
const ch_type *ch_type_unwrap(const ch_type *t);

#endif							/* CH_TYPE_H */
