/*-------------------------------------------------------------------------
 * fuzz_writer.c
 *	  libFuzzer target for the block writer (ch_writer.h), checked against
 *	  the Native reader: a differential round trip.
 *
 * Input layout: byte 0 = L, bytes 1..L = a ClickHouse type name, the rest
 * drives the values (read up to MAX_PASSES times over, scrambled, for up to
 * MAX_ROWS rows). For each row the input picks, per leaf, which typed
 * append to call (int, uint, float, bytes, raw, enum label, default, NULL)
 * and with which value; arrays and maps get 0..3 elements. The same calls
 * go to a Native writer and a RowBinary writer. Rows whose appends fail
 * (out of range, wrong kind, ...) are dropped with ch_writer_discard, in
 * both writers.
 *
 * Checks on top of the sanitizers:
 *	- both writers accept and reject exactly the same appends;
 *	- the Native output decodes with ch_native_reader into one block of the
 *	  rows appended, and that block, re-serialised as RowBinary here, is
 *	  byte for byte the RowBinary writer's output;
 *	- no memory is left allocated, the budget holds.
 *
 * test/fuzz/fuzz_writer.c
 *-------------------------------------------------------------------------
 */
#include "ch_native.h"
#include "ch_type.h"
#include "ch_writer.h"
#include "fuzz_common.h"
#include "fuzz_walk.h"

/* enough rows for LowCardinality dictionaries over 256 entries (UInt16 keys) */
#define MAX_ROWS 320
/* the value bytes are read this many times over, each pass scrambled */
#define MAX_PASSES 8

/*
 * The value bytes, read cyclically: pass k XORs every byte with a k-derived
 * constant, so a short input still yields many rows of different values.
 */
typedef struct vsrc
{
	const uint8_t *base;
	size_t		len;
	size_t		pos;
	unsigned	pass;
} vsrc;

static bool
vsrc_done(const vsrc *s)
{
	return s->len == 0 || s->pass >= MAX_PASSES;
}

static uint8_t
take8(vsrc *s)
{
	uint8_t		v;

	if (vsrc_done(s))
		return 0;
	v = s->base[s->pos] ^ (uint8_t) (s->pass * 0x9d);
	if (++s->pos == s->len)
	{
		s->pos = 0;
		s->pass++;
	}
	return v;
}

static uint64_t
take64(vsrc *s)
{
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t) take8(s) << (8 * i);
	return v;
}

/* Interesting integers, so that range checks are hit often. */
static uint64_t
pick_int(vsrc *s)
{
	static const uint64_t special[] = {
		0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
		0x7fffffffULL, 0x80000000ULL, 0xffffffffULL, 0x100000000ULL,
		999999999ULL, 1000000000ULL, 999999999999999999ULL, 1000000000000000000ULL,
		0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xffffffffffffffffULL,
		(uint64_t) -1 - 127, (uint64_t) -1 - 128, (uint64_t) -1 - 32768,
		(uint64_t) 1 << 53, ((uint64_t) 1 << 53) + 1, (uint64_t) 1 << 24, ((uint64_t) 1 << 24) + 1,
	};
	uint8_t		b = take8(s);

	if (b < 2 * sizeof(special) / sizeof(special[0]))
		return special[b / 2];
	return take64(s);
}

/*
 * Append one value of c's type from the input. Consumes the same bytes
 * whatever the writer answers, so two writers fed from two copies of the
 * input stay in step.
 */
static ch_status
append_value(ch_colbuf *c, vsrc *s, ch_error *err, int depth)
{
	const ch_type *t = ch_col_type(c);
	uint8_t		op = take8(s);
	ch_status	st;
	int			k;

	if (depth > 2 * CH_TYPE_MAX_DEPTH)
		return CH_ERR_LIMIT;
	switch (t->kind)
	{
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			if ((op & 0xc0) == 0xc0)
				return ch_col_append_default(c, err);
			{
				uint64_t	n = op % 4,
							e;

				if ((st = ch_col_array_begin(c, n, err)) != CH_OK)
					return st;
				for (e = 0; e < n; e++)
				{
					int			nk = t->kind == CH_T_ARRAY ? 1 : t->nchildren;

					for (k = 0; k < nk; k++)
						if ((st = append_value(ch_col_child(c, k), s, err, depth + 1)) != CH_OK)
							return st;
				}
				return ch_col_array_end(c, err);
			}
		case CH_T_TUPLE:
			if ((op & 0xc0) == 0xc0)
				return ch_col_append_default(c, err);
			for (k = 0; k < t->nchildren; k++)
				if ((st = append_value(ch_col_child(c, k), s, err, depth + 1)) != CH_OK)
					return st;
			return CH_OK;
		default:
			break;
	}

	/* leaves, possibly under Nullable / LowCardinality */
	switch (op % 9)
	{
		case 0:
			return ch_col_append_null(c, err);
		case 1:
			return ch_col_append_default(c, err);
		case 2:
		case 3:
			{
				uint64_t	v = pick_int(s);

				if (op % 9 == 2)
					return ch_col_append_int(c, (int64_t) v, err);
				return ch_col_append_uint(c, v, err);
			}
		case 4:
			{
				uint64_t	bits = take64(s);
				double		d;

				if ((op & 0x80) != 0)
					d = (double) (int64_t) pick_int(s) / 8;
				else
					memcpy(&d, &bits, 8);
				return ch_col_append_float(c, d, err);
			}
		case 5:
			{
				uint8_t		buf[24];
				size_t		len = take8(s) % 24;
				size_t		i;

				for (i = 0; i < len; i++)
					buf[i] = take8(s);
				return ch_col_append_bytes(c, buf, len, err);
			}
		case 6:
			{
				uint8_t		raw[40];
				size_t		len = take8(s) % 40;
				size_t		i;

				for (i = 0; i < len; i++)
					raw[i] = take8(s);
				return ch_col_append_raw(c, raw, len, err);
			}
		case 7:
			{
				const ch_type *u = ch_type_unwrap(t);
				uint8_t		i = take8(s);

				if ((u->kind == CH_T_ENUM8 || u->kind == CH_T_ENUM16) && u->nenum > 0 &&
					(i & 0x80) == 0)
				{
					int			e = i % u->nenum;

					return ch_col_append_enum_label(c, u->enum_names[e], u->enum_name_lens[e], err);
				}
				return ch_col_append_enum_label(c, "nope", 4, err);
			}
		default:
			return ch_col_append_int(c, (int64_t) (int8_t) take8(s), err);
	}
}

/* ---- the decoded block as RowBinary ---- */

static void
rb_put(ch_buf *out, const void *p, size_t n)
{
	FUZZ_CHECK(ch_buf_append(out, p, n) == CH_OK, "out of memory in the harness");
}

static void
rb_value(const ch_column *c, uint64_t i, ch_buf *out)
{
	const ch_type *t = c->type;
	uint8_t		flag;
	uint64_t	start,
				end,
				e;
	int			k;

	FUZZ_CHECK(i < c->nrows, "row %llu of %llu", (unsigned long long) i,
			   (unsigned long long) c->nrows);
	switch (t->kind)
	{
		case CH_T_NULLABLE:
			flag = ch_col_is_null(c, i) ? 1 : 0;
			rb_put(out, &flag, 1);
			if (!flag)
				rb_value(&c->children[0], i, out);
			return;
		case CH_T_LOWCARDINALITY:
			{
				uint64_t	key = ch_col_lc_key(c, i);

				if (c->lc_nullable)
				{
					flag = key == 0 ? 1 : 0;
					rb_put(out, &flag, 1);
					if (flag)
						return;
				}
				rb_value(&c->children[0], key, out);
				return;
			}
		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			{
				uint8_t		v[10];

				ch_col_array_range(c, i, &start, &end);
				rb_put(out, v, ch_varuint_encode(end - start, v));
				for (e = start; e < end; e++)
					for (k = 0; k < c->nchildren; k++)
						rb_value(&c->children[k], e, out);
				return;
			}
		case CH_T_TUPLE:
			for (k = 0; k < c->nchildren; k++)
				rb_value(&c->children[k], i, out);
			return;
		case CH_T_STRING:
			{
				uint32_t	len;
				const uint8_t *s = ch_col_str(c, i, &len);
				uint8_t		v[10];

				rb_put(out, v, ch_varuint_encode(len, v));
				rb_put(out, s, len);
				return;
			}
		default:
			FUZZ_CHECK(ch_type_is_fixed(t), "decoded a column of kind %s",
					   ch_type_kind_name(t->kind));
			rb_put(out, ch_col_fixed(c, i), t->width);
			return;
	}
}

/* ---- the target ---- */

static ch_status
build_rows(ch_writer *w, const uint8_t *p, size_t n, uint64_t *kept, ch_status *trace,
		   int *ntrace)
{
	vsrc		s = {p, n, 0, 0};
	int			rows = 0;

	*kept = 0;
	*ntrace = 0;
	while (!vsrc_done(&s) && rows < MAX_ROWS)
	{
		ch_error	err;
		ch_status	st;

		ch_error_clear(&err);
		st = append_value(ch_writer_column(w, 0), &s, &err, 0);
		if (st == CH_OK)
			st = ch_writer_end_row(w, &err);
		if (st != CH_OK && st != CH_ERR_LIMIT /* our depth guard */ )
			fuzz_check_error(&err, st, "typed append");
		trace[(*ntrace)++] = st;
		if (st == CH_OK)
			(*kept)++;
		else
		{
			ch_writer_discard(w);
			*kept = 0;
		}
		rows++;
	}
	return CH_OK;
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_mem	mem,
				mem_n,
				mem_r;
	ch_allocator a = fuzz_allocator(&mem);
	ch_allocator a_n = fuzz_allocator(&mem_n);
	ch_allocator a_r = fuzz_allocator(&mem_r);
	ch_arena	ar;
	ch_type    *t = NULL;
	ch_error	err;
	size_t		tlen;
	const char *names[1] = {"c"};
	const ch_type *types[1];
	ch_writer  *wn = NULL,
			   *wr = NULL;
	ch_status	trace_n[MAX_ROWS],
				trace_r[MAX_ROWS];
	int			ntn,
				ntr,
				i;
	uint64_t	kept_n,
				kept_r;
	ch_buf		out_n,
				out_r,
				again;

	if (size < 1)
		return 0;
	tlen = data[0];
	if (tlen > size - 1)
		return 0;
	/*
	 * ch_type.name is a C string: a raw NUL inside a quoted argument cuts it
	 * (servers escape NUL as \0, so only fuzzers write one). Not a finding.
	 */
	if (memchr(data + 1, '\0', tlen) != NULL)
		return 0;
	ch_arena_init(&ar, &a);
	ch_error_clear(&err);
	if (ch_type_parse((const char *) data + 1, tlen, &ar, &t, &err) != CH_OK)
	{
		ch_arena_free(&ar);
		return 0;
	}
	data += 1 + tlen;
	size -= 1 + tlen;
	types[0] = t;

	/* separate budgets: one writer's buffers must not starve the other */
	wn = ch_writer_create(&a_n, CH_FORMAT_NATIVE, 1, names, types, &err);
	wr = ch_writer_create(&a_r, CH_FORMAT_ROWBINARY, 1, names, types, &err);
	FUZZ_CHECK((wn == NULL) == (wr == NULL), "only one of the writers accepted %s", t->name);
	if (!wn)
	{
		ch_arena_free(&ar);
		FUZZ_CHECK(mem.live + mem_n.live + mem_r.live == 0,
				   "bytes leaked by a failed ch_writer_create");
		return 0;
	}

	build_rows(wn, data, size, &kept_n, trace_n, &ntn);
	build_rows(wr, data, size, &kept_r, trace_r, &ntr);
	FUZZ_CHECK(ntn == ntr, "row count differs");
	for (i = 0; i < ntn; i++)
	{
		/* one side out of its budget (a 1 GiB FixedString, ...): no verdict */
		if (trace_n[i] == CH_ERR_NOMEM || trace_r[i] == CH_ERR_NOMEM)
		{
			kept_n = kept_r = 0;
			ch_writer_discard(wn);
			ch_writer_discard(wr);
			break;
		}
		FUZZ_CHECK(trace_n[i] == trace_r[i],
				   "row %d of %s: Native writer says %s, RowBinary writer %s", i, t->name,
				   ch_status_name(trace_n[i]), ch_status_name(trace_r[i]));
	}
	FUZZ_CHECK(kept_n == ch_writer_rows(wn) && kept_r == ch_writer_rows(wr),
			   "ch_writer_rows disagrees with the rows ended");

	ch_buf_init(&out_n, NULL);
	ch_buf_init(&out_r, NULL);
	ch_buf_init(&again, NULL);
	FUZZ_CHECK(ch_writer_flush(wn, &out_n, &err) == CH_OK, "Native flush: %s", err.message);
	FUZZ_CHECK(ch_writer_flush(wr, &out_r, &err) == CH_OK, "RowBinary flush: %s", err.message);
	FUZZ_CHECK(ch_writer_rows(wn) == 0 && ch_writer_rows(wr) == 0, "flush did not reset");

	/* read the Native block back */
	{
		ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
		ch_block   *b = NULL;
		ch_status	st;
		uint64_t	h = FUZZ_DIGEST_INIT;
		uint64_t	row;

		FUZZ_CHECK(r != NULL, "reader");
		FUZZ_CHECK(ch_native_reader_feed(r, out_n.data, out_n.len, &err) == CH_OK, "feed");
		ch_native_reader_finish(r);
		st = ch_native_reader_next(r, &b, &err);
		if (kept_n == 0)
			FUZZ_CHECK(st == CH_END && out_n.len == 0 && out_r.len == 0,
					   "zero rows flushed into %zu/%zu bytes", out_n.len, out_r.len);
		else
		{
			FUZZ_CHECK(st == CH_OK, "the reader rejects the Native writer's block of %llu rows of %s: %s",
					   (unsigned long long) kept_n, t->name, err.message);
			FUZZ_CHECK(b->ncols == 1 && b->nrows == kept_n, "block is %llux%llu, wrote 1x%llu",
					   (unsigned long long) b->ncols, (unsigned long long) b->nrows,
					   (unsigned long long) kept_n);
			fuzz_walk_block(b, &h);
			for (row = 0; row < b->nrows; row++)
				rb_value(&b->cols[0], row, &again);
			if (again.len != out_r.len || memcmp(again.data, out_r.data, again.len) != 0)
			{
				size_t		off = 0;

				while (off < again.len && off < out_r.len && again.data[off] == out_r.data[off])
					off++;
				fuzz_bug("%s: Native round trip gives %zu RowBinary bytes, RowBinary writer %zu; first difference at byte %zu",
						 t->name, again.len, out_r.len, off);
			}
			st = ch_native_reader_next(r, &b, &err);
			FUZZ_CHECK(st == CH_END, "more after the block: %s", ch_status_name(st));
		}
		ch_native_reader_free(r);
	}

	ch_buf_free(&out_n);
	ch_buf_free(&out_r);
	ch_buf_free(&again);
	ch_writer_free(wn);
	ch_writer_free(wr);
	ch_arena_free(&ar);
	FUZZ_CHECK(mem.live + mem_n.live + mem_r.live == 0,
			   "%zu/%zu/%zu bytes still allocated after ch_writer_free", mem.live, mem_n.live,
			   mem_r.live);
	return 0;
}
