/*-------------------------------------------------------------------------
 * fuzz_type_parser.c
 *	  libFuzzer target for ch_type_parse (ch_type.h) on arbitrary text.
 *
 * The whole input is the type text (not NUL-terminated: the parser must
 * respect len). On success every node of the tree is visited and every
 * string and array it carries is read, so a pointer past the arena or an
 * unterminated string shows up under AddressSanitizer. Checks on top:
 *	- fixed-width kinds have the width the wire needs, composite kinds the
 *	  number of children their layout needs;
 *	- parsing the node's own name text again gives the same kind;
 *	- failures fill the ch_error with the returned status;
 *	- the counting allocator's budget holds and the arena frees everything.
 *
 * test/fuzz/fuzz_type_parser.c
 *-------------------------------------------------------------------------
 */
#include "ch_type.h"
#include "fuzz_common.h"

static uint32_t
expected_width(const ch_type *t)
{
	switch (t->kind)
	{
		case CH_T_UINT8:
		case CH_T_INT8:
		case CH_T_BOOL:
		case CH_T_ENUM8:
		case CH_T_NOTHING:
			return 1;
		case CH_T_UINT16:
		case CH_T_INT16:
		case CH_T_BFLOAT16:
		case CH_T_DATE:
		case CH_T_ENUM16:
			return 2;
		case CH_T_UINT32:
		case CH_T_INT32:
		case CH_T_FLOAT32:
		case CH_T_DATE32:
		case CH_T_DATETIME:
		case CH_T_IPV4:
		case CH_T_TIME:
			return 4;
		case CH_T_UINT64:
		case CH_T_INT64:
		case CH_T_FLOAT64:
		case CH_T_DATETIME64:
		case CH_T_INTERVAL:
		case CH_T_TIME64:
			return 8;
		case CH_T_UINT128:
		case CH_T_INT128:
		case CH_T_UUID:
		case CH_T_IPV6:
			return 16;
		case CH_T_UINT256:
		case CH_T_INT256:
			return 32;
		case CH_T_DECIMAL:
			return t->precision <= 9 ? 4 : t->precision <= 18 ? 8 :
				t->precision <= 38 ? 16 : 32;
		case CH_T_FIXEDSTRING:
			return t->fixed_len;
		default:
			return 0;
	}
}

static uint64_t
walk(const ch_type *t, int depth, uint64_t h)
{
	int			i;

	FUZZ_CHECK(t != NULL, "NULL node in a parsed type");
	FUZZ_CHECK((unsigned) t->kind < CH_T_KIND_COUNT_, "kind %d out of range", (int) t->kind);
	FUZZ_CHECK(depth <= 2 * CH_TYPE_MAX_DEPTH, "type tree %d levels deep", depth);
	FUZZ_CHECK(t->name != NULL, "%s node without a name", ch_type_kind_name(t->kind));
	fuzz_digest(&h, t->name, strlen(t->name));
	FUZZ_CHECK(ch_type_kind_name(t->kind) != NULL, "no name for kind %d", (int) t->kind);
	if (t->tz)
		fuzz_digest(&h, t->tz, strlen(t->tz));
	if (t->arg_text)
		fuzz_digest(&h, t->arg_text, strlen(t->arg_text));

	FUZZ_CHECK(t->width == expected_width(t), "%s (%s) has width %u, expected %u",
			   t->name, ch_type_kind_name(t->kind), t->width, expected_width(t));
	FUZZ_CHECK(ch_type_is_fixed(t) == (t->width > 0), "ch_type_is_fixed disagrees with width");
	if (t->kind == CH_T_DECIMAL)
		FUZZ_CHECK(t->precision >= 1 && t->precision <= 76 && t->scale >= 0 &&
				   t->scale <= t->precision, "Decimal(%d, %d)", t->precision, t->scale);
	if (t->kind == CH_T_FIXEDSTRING)
		FUZZ_CHECK(t->fixed_len >= 1, "FixedString(0)");

	switch (t->kind)
	{
		case CH_T_NULLABLE:
		case CH_T_LOWCARDINALITY:
		case CH_T_ARRAY:
			FUZZ_CHECK(t->nchildren == 1, "%s with %d children", t->name, t->nchildren);
			break;
		case CH_T_MAP:
			FUZZ_CHECK(t->nchildren == 2, "Map with %d children", t->nchildren);
			break;
		case CH_T_NESTED:
			FUZZ_CHECK(t->nchildren >= 1 && t->names, "Nested without named fields");
			break;
		case CH_T_ENUM8:
		case CH_T_ENUM16:
			FUZZ_CHECK(t->nenum >= 1 && t->enum_names && t->enum_name_lens && t->enum_values,
					   "Enum without values");
			break;
		default:
			break;
	}
	FUZZ_CHECK(t->nchildren >= 0 && (t->nchildren == 0 || t->children),
			   "%d children but no array", t->nchildren);
	for (i = 0; i < t->nenum; i++)
	{
		fuzz_digest(&h, t->enum_names[i], t->enum_name_lens[i]);
		/* labels are also NUL-terminated copies */
		FUZZ_CHECK(t->enum_names[i][t->enum_name_lens[i]] == '\0', "Enum label not terminated");
		fuzz_digest_u64(&h, (uint64_t) (int64_t) t->enum_values[i]);
	}
	for (i = 0; i < t->nchildren; i++)
	{
		if (t->names)
		{
			FUZZ_CHECK(t->names[i] != NULL, "NULL element name");
			fuzz_digest(&h, t->names[i], strlen(t->names[i]));
		}
		h = walk(t->children[i], depth + 1, h);
	}
	(void) ch_type_unwrap(t);
	return h;
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_mem	mem;
	ch_allocator a = fuzz_allocator(&mem);
	ch_arena	ar;
	ch_type    *t = NULL;
	ch_error	err;
	ch_status	st;
	char	   *copy;

	/* a private heap copy, so reading past len is caught */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	ch_arena_init(&ar, &a);
	ch_error_clear(&err);
	st = ch_type_parse(copy, size, &ar, &t, &err);
	if (st == CH_OK)
	{
		ch_type    *again = NULL;
		ch_error	err2;
		ch_status	st2;

		walk(t, 0, FUZZ_DIGEST_INIT);

		/*
		 * The top-level name is the text as given: it parses to the same
		 * kind. (Not for text with a NUL byte, which names are cut at; no
		 * server sends one, it escapes them inside quotes.)
		 */
		if (memchr(copy, '\0', size) != NULL)
			goto done;
		ch_error_clear(&err2);
		st2 = ch_type_parse(t->name, strlen(t->name), &ar, &again, &err2);
		FUZZ_CHECK(st2 == CH_OK || st2 == CH_ERR_NOMEM,
				   "\"%s\" parsed, but its recorded name does not: %s", t->name, err2.message);
		if (st2 == CH_OK)
			FUZZ_CHECK(again->kind == t->kind && again->nchildren == t->nchildren,
					   "\"%s\" reparses to a different type", t->name);
	}
	else
	{
		FUZZ_CHECK(st == CH_ERR_MALFORMED || st == CH_ERR_UNKNOWN_TYPE ||
				   st == CH_ERR_LIMIT || st == CH_ERR_NOMEM,
				   "ch_type_parse returned %s", ch_status_name(st));
		fuzz_check_error(&err, st, "ch_type_parse");
	}
done:
	ch_arena_free(&ar);
	FUZZ_CHECK(mem.live == 0, "%zu bytes still allocated after ch_arena_free", mem.live);
	free(copy);
	return 0;
}
