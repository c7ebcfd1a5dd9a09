/*-------------------------------------------------------------------------
 * fuzz_common.h
 *	  Helpers shared by the libFuzzer targets in test/fuzz: a counting
 *	  allocator with a hard budget, a chunk schedule derived from the input,
 *	  a digest for differential checks, and a "this cannot happen" abort.
 *
 * Everything here is static inline so that each target is one .c file plus
 * the src/ files it exercises (see run.sh). The harnesses are
 * single-threaded, as libFuzzer runs them.
 *
 * test/fuzz/fuzz_common.h
 *-------------------------------------------------------------------------
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_common.h"

/*
 * fuzz_bug
 *		Report a broken contract of the code under test and abort, so that
 *		libFuzzer (or the replay driver) records the input as a crash.
 */
static void fuzz_bug(const char *fmt,...) __attribute__((format(printf, 1, 2), noreturn));

static void
fuzz_bug(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "FUZZ CONTRACT VIOLATION: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define FUZZ_CHECK(cond, ...) \
	do { if (!(cond)) fuzz_bug(__VA_ARGS__); } while (0)

/* ---- counting allocator ---- */

/*
 * Live bytes are capped at FUZZ_MEM_LIMIT: an allocation that would go over
 * fails (returns NULL), which the code under test must report as
 * CH_ERR_NOMEM. This keeps a "legitimate" huge count from OOM-killing the
 * fuzzer and exercises the out-of-memory paths. Each block carries a 16-byte
 * header with its size, so the live total is exact and a leak shows up as a
 * non-zero total after the object under test was freed.
 */
#define FUZZ_MEM_LIMIT ((size_t) 64 << 20)
#define FUZZ_HDR 16

typedef struct fuzz_mem
{
	size_t		live;			/* bytes currently allocated */
	size_t		peak;			/* high-water mark of live */
	uint64_t	nalloc;			/* successful allocations */
	uint64_t	nfail;			/* refused allocations */
	uint64_t	fail_at;		/* refuse the fail_at-th allocation (1-based);
								 * 0 = never */
} fuzz_mem;

static void *
fuzz_alloc(void *ctx, size_t size)
{
	fuzz_mem   *m = (fuzz_mem *) ctx;
	uint8_t    *p;

	if (size > FUZZ_MEM_LIMIT || m->live + size > FUZZ_MEM_LIMIT ||
		(m->fail_at != 0 && m->nalloc + 1 == m->fail_at))
	{
		m->nfail++;
		if (m->fail_at != 0 && m->nalloc + 1 == m->fail_at)
			m->fail_at = 0;		/* fail once, then behave */
		return NULL;
	}
	p = malloc(size + FUZZ_HDR);
	if (!p)
		return NULL;
	memcpy(p, &size, sizeof(size));
	m->live += size;
	if (m->live > m->peak)
		m->peak = m->live;
	m->nalloc++;
	return p + FUZZ_HDR;
}

static void
fuzz_free(void *ctx, void *ptr)
{
	fuzz_mem   *m = (fuzz_mem *) ctx;
	uint8_t    *p;
	size_t		size;

	if (!ptr)
		return;
	p = (uint8_t *) ptr - FUZZ_HDR;
	memcpy(&size, p, sizeof(size));
	FUZZ_CHECK(size <= m->live, "free of %zu bytes with only %zu live", size, m->live);
	m->live -= size;
	free(p);
}

static inline ch_allocator
fuzz_allocator(fuzz_mem *m)
{
	ch_allocator a;

	memset(m, 0, sizeof(*m));
	a.alloc = fuzz_alloc;
	a.free = fuzz_free;
	a.ctx = m;
	return a;
}

/* ---- chunk schedule ---- */

/*
 * The sizes of the pieces an input is fed in, derived from a control byte:
 * mode 0 = everything at once, 1 = one byte at a time, 2..7 = pseudo-random
 * sizes of 1..2^(2*mode) bytes from an xorshift seeded with the control
 * byte and the input length (deterministic, so a crash replays).
 */
typedef struct fuzz_chunker
{
	unsigned	mode;
	uint64_t	state;
} fuzz_chunker;

static inline void
fuzz_chunker_init(fuzz_chunker *ck, unsigned mode, uint8_t seed, size_t len)
{
	ck->mode = mode & 7;
	ck->state = 0x9e3779b97f4a7c15ULL ^ ((uint64_t) seed << 32) ^ (uint64_t) len;
	if (ck->state == 0)
		ck->state = 1;
}

static inline size_t
fuzz_chunk_next(fuzz_chunker *ck, size_t left)
{
	uint64_t	x;
	size_t		n;

	if (ck->mode == 0)
		return left;
	if (ck->mode == 1)
		return left ? 1 : 0;
	x = ck->state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	ck->state = x;
	n = 1 + (size_t) (x % ((uint64_t) 1 << (2 * ck->mode)));
	return n < left ? n : left;
}

/* ---- digest ---- */

/* FNV-1a over everything a run produced, for "chunked == whole" checks. */
static inline void
fuzz_digest(uint64_t *h, const void *p, size_t n)
{
	const uint8_t *b = (const uint8_t *) p;
	size_t		i;

	for (i = 0; i < n; i++)
	{
		*h ^= b[i];
		*h *= 0x100000001b3ULL;
	}
}

static inline void
fuzz_digest_u64(uint64_t *h, uint64_t v)
{
	uint8_t		b[8];

	ch_put_le64(b, v);
	fuzz_digest(h, b, 8);
}

#define FUZZ_DIGEST_INIT 0xcbf29ce484222325ULL

/* The message of a ch_error must be a terminated string. */
static inline void
fuzz_check_error(const ch_error *err, ch_status st, const char *where)
{
	FUZZ_CHECK(memchr(err->message, '\0', sizeof(err->message)) != NULL,
			   "%s: ch_error message not terminated", where);
	FUZZ_CHECK(err->code == st, "%s: returned %s but ch_error says %s (\"%s\")",
			   where, ch_status_name(st), ch_status_name(err->code), err->message);
}

#endif							/* FUZZ_COMMON_H */
