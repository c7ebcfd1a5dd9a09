/*-------------------------------------------------------------------------
 * test_caps.c
 *	  ch_caps_from_version: the server versions that bring the upper-stage
 *	  capabilities (window functions 21.9, grouping sets 22.9) and the
 *	  ClickHouse functions newer than 18.16 (groupBitmap, toStartOfInterval:
 *	  19.3), over HTTP and native TCP alike.
 *
 * test/unit/test_caps.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include "ch_transport.h"

/* one capability at one server version (and TCP revision): there or not */
typedef struct caps_case
{
	int			major;
	int			minor;
	int			patch;
	uint32_t	revision;
	const char *name;
	size_t		field;			/* offsetof the bool in ch_caps */
	bool		there;
} caps_case;

#define CAP(f) #f, offsetof(ch_caps, f)

/* every case over HTTP and native TCP alike */
static void
check_caps(const caps_case *cases, size_t n)
{
	static const ch_transport_kind kinds[] = {CH_TRANSPORT_HTTP, CH_TRANSPORT_NATIVE};
	size_t		k;
	size_t		i;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (i = 0; i < n; i++)
		{
			const caps_case *t = &cases[i];
			ch_caps		c;
			bool		got;

			ch_caps_from_version(&c, kinds[k], t->major, t->minor, t->patch, t->revision);
			memcpy(&got, (const char *) &c + t->field, sizeof(got));
			CHECK_MSG(got == t->there, "%s at %d.%d.%d (%s): %s, wanted %s", t->name,
					  t->major, t->minor, t->patch,
					  kinds[k] == CH_TRANSPORT_HTTP ? "HTTP" : "native",
					  got ? "there" : "not there", t->there ? "there" : "not there");
		}
}

#define CHECK_CAPS(cases) check_caps(cases, sizeof(cases) / sizeof(cases[0]))

TEST(caps_window_functions_and_grouping_sets)
{
	static const caps_case cases[] = {
		{18, 16, 1, 54412, CAP(window_functions), false},
		{18, 16, 1, 54412, CAP(grouping_sets), false},
		{21, 8, 0, 54449, CAP(window_functions), false},
		{21, 9, 0, 54449, CAP(window_functions), true},
		{21, 9, 0, 54449, CAP(grouping_sets), false},
		{22, 8, 0, 54460, CAP(grouping_sets), false},
		{22, 9, 0, 54460, CAP(window_functions), true},
		{22, 9, 0, 54460, CAP(grouping_sets), true},
		{26, 5, 1, 54485, CAP(window_functions), true},
		{26, 5, 1, 54485, CAP(grouping_sets), true},
	};

	CHECK_CAPS(cases);
}

/* ClickHouse functions the extension declares (src/fdw/chfuncs.c): 19.3 */
TEST(caps_chfuncs)
{
	static const caps_case cases[] = {
		{18, 16, 1, 54412, CAP(group_bitmap), false},
		{18, 16, 1, 54412, CAP(start_of_interval), false},
		{19, 1, 6, 54413, CAP(group_bitmap), false},
		{19, 1, 6, 54413, CAP(start_of_interval), false},
		{19, 3, 3, 54415, CAP(group_bitmap), true},
		{19, 3, 3, 54415, CAP(start_of_interval), true},
		{26, 5, 1, 54485, CAP(group_bitmap), true},
		{26, 5, 1, 54485, CAP(start_of_interval), true},
	};

	CHECK_CAPS(cases);
}

/*
 * UNION ALL members computed in the union's types (22), correlated
 * subqueries by default (25.8): src/fdw/subquery.c
 */
TEST(caps_union_supertype)
{
	static const caps_case cases[] = {
		{18, 16, 1, 54412, CAP(union_supertype), false},
		{18, 16, 1, 54412, CAP(correlated_subqueries), false},
		{25, 7, 1, 54479, CAP(correlated_subqueries), false},
		{25, 8, 1, 54479, CAP(correlated_subqueries), true},
		{21, 12, 4, 54452, CAP(union_supertype), false},
		{22, 1, 3, 54453, CAP(union_supertype), true},
		{26, 5, 1, 54485, CAP(union_supertype), true},
		{26, 5, 1, 54485, CAP(correlated_subqueries), true},
		{18, 16, 1, 54412, CAP(lc_values), false},
		{19, 17, 1, 54428, CAP(lc_values), false},
		{20, 1, 2, 54431, CAP(lc_values), true},
		{26, 5, 1, 54485, CAP(lc_values), true},
	};

	CHECK_CAPS(cases);
}
