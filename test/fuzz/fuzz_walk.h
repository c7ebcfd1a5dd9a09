/*-------------------------------------------------------------------------
 * fuzz_walk.h
 *	  Touch every value of a decoded Native block through the accessors of
 *	  ch_native.h, and check the structural invariants a consumer relies on.
 *
 * Every byte a consumer could read is read (and folded into a digest), so
 * AddressSanitizer catches a column that points outside the reader's
 * buffer. Invariants that, if broken, would make a correct consumer read
 * out of bounds (child row counts, array offsets within the child,
 * LowCardinality keys within the dictionary) abort through fuzz_bug.
 *
 * test/fuzz/fuzz_walk.h
 *-------------------------------------------------------------------------
 */
#ifndef FUZZ_WALK_H
#define FUZZ_WALK_H

#include "ch_native.h"
#include "fuzz_common.h"

static void
fuzz_walk_column(const ch_column *c, uint64_t n, uint64_t *h, int depth)
{
	const ch_type *t = c->type;
	uint64_t	i;
	int			k;

	FUZZ_CHECK(t != NULL, "column without a type");
	FUZZ_CHECK(depth <= 4 * CH_TYPE_MAX_DEPTH, "column tree deeper than %d", depth);
	FUZZ_CHECK(c->nrows == n, "%s column has nrows %llu, parent says %llu",
			   t->name, (unsigned long long) c->nrows, (unsigned long long) n);
	fuzz_digest_u64(h, (uint64_t) t->kind);
	fuzz_digest_u64(h, n);
	if (n == 0)
		return;					/* nothing was decoded below this level */

	switch (t->kind)
	{
		case CH_T_STRING:
			FUZZ_CHECK(c->str_pos && c->str_len && c->data, "String column without data");
			for (i = 0; i < n; i++)
			{
				uint32_t	len;
				const uint8_t *s = ch_col_str(c, i, &len);

				fuzz_digest_u64(h, len);
				fuzz_digest(h, s, len);
			}
			return;

		case CH_T_NULLABLE:
			FUZZ_CHECK(c->null_map != NULL, "Nullable column without a null map");
			FUZZ_CHECK(c->nchildren == 1 && c->children, "Nullable column without its child");
			for (i = 0; i < n; i++)
				fuzz_digest_u64(h, ch_col_is_null(c, i));
			fuzz_walk_column(&c->children[0], n, h, depth + 1);
			return;

		case CH_T_ARRAY:
		case CH_T_MAP:
		case CH_T_NESTED:
			{
				uint64_t	start,
							end,
							prev = 0;
				int			want = t->kind == CH_T_ARRAY ? 1 : t->nchildren;

				FUZZ_CHECK(c->offsets != NULL, "%s column without offsets", t->name);
				FUZZ_CHECK(c->nchildren == want && c->children,
						   "%s column has %d children, expected %d", t->name,
						   c->nchildren, want);
				for (i = 0; i < n; i++)
				{
					ch_col_array_range(c, i, &start, &end);
					FUZZ_CHECK(start == prev && start <= end,
							   "%s row %llu spans [%llu, %llu)", t->name,
							   (unsigned long long) i, (unsigned long long) start,
							   (unsigned long long) end);
					fuzz_digest_u64(h, end);
					prev = end;
				}
				for (k = 0; k < c->nchildren; k++)
					fuzz_walk_column(&c->children[k], prev, h, depth + 1);
				return;
			}

		case CH_T_TUPLE:
			FUZZ_CHECK(c->nchildren == t->nchildren, "Tuple column has %d children, type has %d",
					   c->nchildren, t->nchildren);
			for (k = 0; k < c->nchildren; k++)
				fuzz_walk_column(&c->children[k], n, h, depth + 1);
			return;

		case CH_T_LOWCARDINALITY:
			FUZZ_CHECK(c->lc_keys != NULL, "LowCardinality column without keys");
			FUZZ_CHECK(c->lc_key_width == 1 || c->lc_key_width == 2 ||
					   c->lc_key_width == 4 || c->lc_key_width == 8,
					   "LowCardinality key width %u", c->lc_key_width);
			FUZZ_CHECK(c->nchildren == 1 && c->children,
					   "LowCardinality column without a dictionary");
			for (i = 0; i < n; i++)
			{
				uint64_t	key = ch_col_lc_key(c, i);

				FUZZ_CHECK(key < c->lc_dict_rows,
						   "LowCardinality row %llu has key %llu, dictionary has %llu",
						   (unsigned long long) i, (unsigned long long) key,
						   (unsigned long long) c->lc_dict_rows);
				fuzz_digest_u64(h, key);
			}
			fuzz_walk_column(&c->children[0], c->lc_dict_rows, h, depth + 1);
			return;

		default:
			FUZZ_CHECK(ch_type_is_fixed(t), "decoded a column of non-fixed kind %s",
					   ch_type_kind_name(t->kind));
			FUZZ_CHECK(c->data != NULL, "%s column without data", t->name);
			for (i = 0; i < n; i++)
				fuzz_digest(h, ch_col_fixed(c, i), t->width);
			return;
	}
}

static void
fuzz_walk_block(const ch_block *b, uint64_t *h)
{
	uint64_t	i;

	fuzz_digest_u64(h, b->ncols);
	fuzz_digest_u64(h, b->nrows);
	FUZZ_CHECK(b->ncols == 0 || b->cols != NULL, "block without columns");
	for (i = 0; i < b->ncols; i++)
	{
		const ch_column *c = &b->cols[i];

		fuzz_digest(h, c->name, c->name_len);
		fuzz_digest(h, c->type_name, c->type_name_len);
		fuzz_walk_column(c, b->nrows, h, 0);
	}
}

#endif							/* FUZZ_WALK_H */
