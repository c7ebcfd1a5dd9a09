/*-------------------------------------------------------------------------
 * unit.h
 *	  A tiny self-contained unit test framework for the PostgreSQL-free
 *	  layers, plus helpers shared by the test files.
 *
 * Tests are functions declared with TEST(name); they register themselves
 * before main() runs and are run in (file, line) order. Checks never abort
 * a test: a failing CHECK prints "FAIL <test> <file>:<line>: <what>" and
 * the test goes on (REQUIRE* return from the test function instead, for
 * the cases where going on would only dereference garbage). Every check
 * macro evaluates to true when it passed.
 *
 * main.c runs each test in a forked child, so a crash, a sanitizer report
 * or a leak fails that one test and the others still run.
 *
 * test/unit/unit.h
 *-------------------------------------------------------------------------
 */
#ifndef UNIT_H
#define UNIT_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ch_common.h"
#include "ch_native.h"
#include "ch_type.h"
#include "ch_wait.h"
#include "ch_writer.h"

/* ---- registry ---- */

typedef struct unit_test
{
	const char *name;
	const char *file;
	int			line;
	void		(*fn) (void);
	struct unit_test *next;
} unit_test;

void		unit_register(unit_test *t);

#define TEST(fname)                                                     \
	static void fname(void);                                            \
	static unit_test unit_reg_##fname = {#fname, __FILE__, __LINE__, fname, NULL}; \
	__attribute__((constructor)) static void unit_ctor_##fname(void)    \
	{                                                                   \
		unit_register(&unit_reg_##fname);                               \
	}                                                                   \
	static void fname(void)

/* The golden directory given on the command line (e.g. "test/golden"). */
extern const char *unit_golden_dir;

/* ---- checks ---- */

bool		unit_check(bool ok, const char *file, int line, const char *fmt,...)
			__attribute__((format(printf, 4, 5)));
bool		unit_check_int(intmax_t a, intmax_t b, const char *ea, const char *eb,
						   const char *file, int line);
bool		unit_check_uint(uintmax_t a, uintmax_t b, const char *ea, const char *eb,
							const char *file, int line);
bool		unit_check_str(const char *a, const char *b, const char *ea, const char *eb,
						   const char *file, int line);
bool		unit_check_mem(const void *a, size_t alen, const void *b, size_t blen,
						   const char *ea, const char *eb, const char *file, int line);
bool		unit_check_status(ch_status a, ch_status b, const char *ea,
							  const char *file, int line);
bool		unit_check_contains(const char *hay, const char *needle, const char *ehay,
								const char *file, int line);

#define CHECK(c) unit_check(!!(c), __FILE__, __LINE__, "CHECK(%s)", #c)
#define CHECK_MSG(c, ...) unit_check(!!(c), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_INT(a, b) unit_check_int((intmax_t) (a), (intmax_t) (b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_UINT(a, b) unit_check_uint((uintmax_t) (a), (uintmax_t) (b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_STR(a, b) unit_check_str((a), (b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_MEM(a, alen, b, blen) \
	unit_check_mem((a), (alen), (b), (blen), #a, #b, __FILE__, __LINE__)
/* a NUL-terminated literal against (ptr, len) */
#define CHECK_EQ_BYTES(p, len, lit) \
	unit_check_mem((p), (len), (lit), sizeof(lit) - 1, #p, #lit, __FILE__, __LINE__)
#define CHECK_STATUS(a, b) unit_check_status((a), (b), #a, __FILE__, __LINE__)
#define CHECK_CONTAINS(hay, needle) unit_check_contains((hay), (needle), #hay, __FILE__, __LINE__)

#define REQUIRE(c) do { if (!CHECK(c)) return; } while (0)
#define REQUIRE_STATUS(a, b) do { if (!CHECK_STATUS(a, b)) return; } while (0)
#define REQUIRE_EQ_UINT(a, b) do { if (!CHECK_EQ_UINT(a, b)) return; } while (0)

/* ---- counting allocator ---- */

/*
 * Tracks every allocation; fails any single request larger than
 * fail_above (0: no limit) or once fail_after allocations have been made
 * (0: never), and remembers the largest request and the peak live bytes.
 */
typedef struct count_alloc
{
	ch_allocator a;				/* hand &ca.a to the code under test */
	size_t		fail_above;
	uint64_t	fail_after;
	size_t		largest;		/* largest size requested */
	size_t		live;			/* bytes currently allocated */
	size_t		peak;
	uint64_t	nalloc;			/* successful allocations */
	uint64_t	nfree;
	uint64_t	nfailed;
} count_alloc;

void		count_alloc_init(count_alloc *ca, size_t fail_above);

/* ---- golden files ---- */

/* Reads <golden>/v18_16/<name>.<ext>; records a failure if it is missing. */
bool		golden_read_ext(const char *name, const char *ext, uint8_t **data, size_t *len);
bool		golden_read(const char *name, uint8_t **data, size_t *len);

/* Names (without .bin) of all .bin files in v18_16, sorted; free with golden_names_free. */
int			golden_names(char ***names);
void		golden_names_free(char **names, int n);

/* poll() on what a transport asked to wait for (ch_wait; -1: at most 30 s) */
void		wait_poll(const ch_wait *w);

/* ---- byte builders (for hand-made blocks) ---- */

void		bld_raw(ch_buf *b, const void *p, size_t n);
void		bld_u8(ch_buf *b, uint8_t v);
void		bld_u16(ch_buf *b, uint16_t v);
void		bld_u32(ch_buf *b, uint32_t v);
void		bld_u64(ch_buf *b, uint64_t v);
void		bld_varuint(ch_buf *b, uint64_t v);
void		bld_str(ch_buf *b, const char *s);
/* column header: name and type strings */
void		bld_col(ch_buf *b, const char *name, const char *type);

/* ---- decoding whole streams ---- */

typedef enum feed_mode
{
	FEED_ALL,					/* everything, then next() until the end */
	FEED_BYTES,					/* 1-byte chunks, next() after each */
	FEED_RANDOM,				/* random chunk sizes, next() after each */
	FEED_CHUNK					/* fixed chunk size, next() after each */
} feed_mode;

#define MAX_STREAM_BLOCKS 512

typedef struct stream_result
{
	ch_status	final;			/* the status that ended the loop */
	ch_error	err;			/* its error (when final is an error) */
	uint64_t	nblocks;
	uint64_t	hash[MAX_STREAM_BLOCKS];	/* block_hash of each block */
	uint64_t	nrows[MAX_STREAM_BLOCKS];
	uint64_t	start[MAX_STREAM_BLOCKS + 1];	/* stream offset of each
												 * block; start[nblocks] =
												 * end of the last one */
	ch_buf		reencoded;		/* blocks re-encoded by reencode_block */
	bool		reencode_ok;
	bool		protocol_ok;	/* NEED_MORE never after finish, etc. */
} stream_result;

/*
 * Decode data[0..len) with the given feeding, then finish. chunk is the
 * chunk size for FEED_CHUNK, the seed for FEED_RANDOM. a may be NULL.
 */
void		decode_stream(const uint8_t *data, size_t len, feed_mode mode, uint64_t chunk,
						  bool with_block_info, const ch_allocator *a,
						  const ch_native_limits *lim, stream_result *res);

/*
 * The same with flags: STREAM_LIGHT records only the block boundaries
 * (start[]) and row counts, no hashes (hash[] = 0) and no re-encoding.
 */
#define STREAM_LIGHT 1
void		decode_stream_flags(const uint8_t *data, size_t len, feed_mode mode, uint64_t chunk,
								bool with_block_info, const ch_allocator *a,
								const ch_native_limits *lim, unsigned flags, stream_result *res);
void		stream_result_free(stream_result *res);

/*
 * Every truncated prefix of data (a sample for big inputs) must give the
 * complete blocks and then CH_END at a block boundary, CH_ERR_TRUNCATED
 * elsewhere (CH_ERR_SERVER once an exception text "Code: " is complete);
 * see test_truncate.c.
 */
void		check_all_prefixes(const char *name, const uint8_t *data, size_t len, bool tcp);

/* A hash over everything a block exposes (names, types, all values). */
uint64_t	block_hash(const ch_block *b);

/*
 * Write the block back in Native format (HTTP framing unless
 * with_block_info) from the decoded columns. False if a column kind
 * cannot be re-encoded.
 */
bool		reencode_block(ch_buf *out, const ch_block *b, bool with_block_info);

/*
 * A writer for n columns named names with the ClickHouse types tnames
 * (parsed into ar); NULL if a type does not parse or cannot be written.
 */
ch_writer  *unit_make_writer(ch_arena *ar, ch_format fmt, int n, const char *const *names,
							 const char *const *tnames);

/* ---- value access for assertions ---- */

/* The column named name (records a failure and returns NULL if absent). */
const ch_column *col_named(const ch_block *b, const char *name);
bool		col_str_eq(const ch_column *c, uint64_t i, const void *s, size_t len);
/* String value i of a String column (not NUL-terminated). */
const uint8_t *col_str_at(const ch_column *c, uint64_t i, uint32_t *len);
/* Resolve LowCardinality row i to its dictionary String; NULL when it is NULL. */
const uint8_t *lc_str_at(const ch_column *c, uint64_t i, uint32_t *len);
int64_t		col_i64(const ch_column *c, uint64_t i);	/* signed fixed-width */
uint64_t	col_u64(const ch_column *c, uint64_t i);	/* unsigned fixed-width */

/* First occurrence of needle (NUL-terminated) in hay[0..len), or NULL. */
const uint8_t *find_bytes(const uint8_t *hay, size_t len, const char *needle);

/* xorshift64* */
uint64_t	unit_rand(uint64_t *state);

#endif							/* UNIT_H */
