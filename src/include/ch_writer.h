/*-------------------------------------------------------------------------
 * ch_writer.h
 *	  Block writer: typed appends per column, serialised as ClickHouse
 *	  Native blocks or RowBinary rows.
 *
 * The caller creates a writer for a list of (name, type) columns, then for
 * every row appends one value to each column in column order (ch_col_*),
 * and calls ch_writer_end_row. ch_writer_flush serialises what was
 * appended into an output buffer and resets the writer for the next block.
 *
 * Native: values go to per-column buffers; a LowCardinality column builds
 * a real per-block dictionary (hash table over the values). RowBinary:
 * values are written straight into the output in row order (LowCardinality
 * is invisible there). The same append calls serve both formats.
 *
 * Checks: every append is range-checked against the column's ClickHouse
 * type (300 into UInt8, a 5-byte string into FixedString(3), a Decimal(9, 2)
 * value with more than 9 digits, NULL into a non-Nullable column, an Enum
 * value without a label...) and fails with CH_ERR_LIMIT and a message
 * naming the value and the type; nothing is wrapped or truncated. The
 * caller adds the column name and row number.
 *
 * Column at a time (Native only): a Native block is stored column by
 * column, so a caller holding a batch of rows may fill it that way
 * instead: all n values of column 0, then all n of column 1, ..., then
 * ch_writer_end_rows(w, n). Single appends and the bulk appends below mix
 * freely within a column. RowBinary interleaves the columns of each row:
 * there values must come in row order (ch_writer_columnar says which).
 *
 * Composite types: Nullable(T): ch_col_append_null, or append the value to
 * the Nullable column itself (it forwards to T). Array(T) / Map(K, V):
 * ch_col_array_begin(col, n) announces n elements (n pairs), which are then
 * appended to ch_col_child(col, 0) (Map: alternately to children 0 and 1),
 * then ch_col_array_end(col). Tuple: append to each ch_col_child in order.
 *
 * src/include/ch_writer.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_WRITER_H
#define CH_WRITER_H

#include "ch_common.h"
#include "ch_type.h"

typedef enum ch_format
{
	CH_FORMAT_NATIVE,
	CH_FORMAT_ROWBINARY
} ch_format;

typedef struct ch_writer ch_writer;
typedef struct ch_colbuf ch_colbuf;

/*
 * Create a writer for ncols columns. names and types must outlive the
 * writer. Returns NULL with err filled on failure (e.g. a type that cannot
 * be written, such as AggregateFunction).
 */
ch_writer  *ch_writer_create(const ch_allocator *a, ch_format fmt, int ncols,
							 const char *const *names, const ch_type *const *types,
							 ch_error *err);
void		ch_writer_free(ch_writer *w);

/* The top-level column i. */
ch_colbuf  *ch_writer_column(ch_writer *w, int i);

/* Child i of a composite column (Nullable: 0; Array: 0; Map: 0/1; Tuple: i). */
ch_colbuf  *ch_col_child(ch_colbuf *c, int i);
const ch_type *ch_col_type(const ch_colbuf *c);

/* Finish a row: checks that every column got exactly one value. */
ch_status	ch_writer_end_row(ch_writer *w, ch_error *err);

/*
 * Finish n rows filled column at a time: every column got exactly n values
 * since the last end_row(s), every array's elements are all there. With
 * n = 1 it is ch_writer_end_row.
 */
ch_status	ch_writer_end_rows(ch_writer *w, uint64_t n, ch_error *err);

/* May columns be filled one after another (Native), or only row by row? */
bool		ch_writer_columnar(const ch_writer *w);

/* Rows appended since the last flush, and bytes buffered for them. */
uint64_t	ch_writer_rows(const ch_writer *w);
size_t		ch_writer_bytes(const ch_writer *w);

/*
 * Serialise the rows appended since the last flush, append them to out
 * (Native: one block; RowBinary: the rows), and reset. Zero rows append
 * nothing.
 */
ch_status	ch_writer_flush(ch_writer *w, ch_buf *out, ch_error *err);

/* Drop the rows appended since the last flush (e.g. after an error). */
void		ch_writer_discard(ch_writer *w);

/* ---- typed appends ---- */

ch_status	ch_col_append_null(ch_colbuf *c, ch_error *err);
/* The type's default value (0, "", 1970-01-01, empty array, ...). */
ch_status	ch_col_append_default(ch_colbuf *c, ch_error *err);
/* Integers, Bool, Date/Date32/DateTime (days/seconds), DateTime64/Time64
 * (ticks), Decimal32/64 (scaled integer), Enum8/16 (value), IPv4, Interval,
 * and 128/256-bit integers and Decimals that fit in 64 bits. */
ch_status	ch_col_append_int(ch_colbuf *c, int64_t v, ch_error *err);
ch_status	ch_col_append_uint(ch_colbuf *c, uint64_t v, ch_error *err);
/* Float32 (range-checked), Float64, BFloat16 (rounded to nearest even; a
 * finite value past the largest BFloat16 is out of range). */
ch_status	ch_col_append_float(ch_colbuf *c, double v, ch_error *err);
/* String, FixedString(N) (len <= N, zero-padded). */
ch_status	ch_col_append_bytes(ch_colbuf *c, const void *data, size_t len, ch_error *err);
/* Any fixed-width type from its exact little-endian wire bytes (len must
 * equal the type's width): UUID (use ch_uuid_to_wire), IPv6,
 * (U)Int128/256, Decimal128/256. For Decimal the value's digit count is
 * checked against the precision. */
ch_status	ch_col_append_raw(ch_colbuf *c, const void *wire, size_t len, ch_error *err);
/* Enum by label. */
ch_status	ch_col_append_enum_label(ch_colbuf *c, const char *label, size_t len, ch_error *err);

ch_status	ch_col_array_begin(ch_colbuf *c, uint64_t nelems, ch_error *err);
ch_status	ch_col_array_end(ch_colbuf *c, ch_error *err);

/*
 * ---- bulk appends (column at a time; Native only) ----
 *
 * n values from arrays, with the same checks, messages and bytes as n
 * single appends of the same values. isnull may be NULL (no NULLs);
 * isnull[i] marks row i NULL (its v[i], data[i] and len[i] are ignored:
 * they may be read, but data[i] is never dereferenced), which a
 * non-Nullable column rejects as ch_col_append_null would. On an error,
 * *at (if at is not NULL) is the index of the value that failed, the
 * values before it have been appended and the block is inconsistent:
 * ch_writer_discard it. On a RowBinary writer they fail with
 * CH_ERR_INVALID_ARGUMENT.
 *
 * ch_col_append_ints	  what ch_col_append_int accepts (integers, dates,
 *						  DateTime, Decimal32/64, Enum values, ...)
 * ch_col_append_floats	  what ch_col_append_float accepts
 * ch_col_append_strings  what ch_col_append_bytes accepts; data[i] holds
 *						  len[i] bytes
 * ch_col_append_array_sizes
 *						  Array / Map / Nested: n rows of counts[i]
 *						  elements (pairs); the sum of the counts is then
 *						  appended to the children (in bulk or singly)
 *						  before ch_writer_end_rows, which checks it.
 */
ch_status	ch_col_append_ints(ch_colbuf *c, const int64_t *v, const bool *isnull, size_t n,
							   size_t *at, ch_error *err);
ch_status	ch_col_append_floats(ch_colbuf *c, const double *v, const bool *isnull, size_t n,
								 size_t *at, ch_error *err);
ch_status	ch_col_append_strings(ch_colbuf *c, const char *const *data, const uint32_t *len,
								  const bool *isnull, size_t n, size_t *at, ch_error *err);
ch_status	ch_col_append_array_sizes(ch_colbuf *c, const uint32_t *counts, size_t n,
									  size_t *at, ch_error *err);

/* UUID: 16 canonical (big-endian) bytes → ClickHouse wire order, and back. */
void		ch_uuid_to_wire(const uint8_t canonical[16], uint8_t wire[16]);
void		ch_uuid_from_wire(const uint8_t wire[16], uint8_t canonical[16]);

/* The value of an Enum label; false if the type has no such label. */
bool		ch_enum_value(const ch_type *t, const char *label, size_t len, int32_t *value);

#endif							/* CH_WRITER_H */
