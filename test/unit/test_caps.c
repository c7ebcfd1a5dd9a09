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

TEST(caps_window_functions_and_grouping_sets)
{
	static const ch_transport_kind kinds[] = {CH_TRANSPORT_HTTP, CH_TRANSPORT_NATIVE};
	size_t		k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
	{
		ch_caps		c;

		ch_caps_from_version(&c, kinds[k], 18, 16, 1, 54412);
		CHECK(!c.window_functions);
		CHECK(!c.grouping_sets);
		ch_caps_from_version(&c, kinds[k], 21, 8, 0, 54449);
		CHECK(!c.window_functions);
		ch_caps_from_version(&c, kinds[k], 21, 9, 0, 54449);
		CHECK(c.window_functions);
		CHECK(!c.grouping_sets);
		ch_caps_from_version(&c, kinds[k], 22, 8, 0, 54460);
		CHECK(!c.grouping_sets);
		ch_caps_from_version(&c, kinds[k], 22, 9, 0, 54460);
		CHECK(c.window_functions);
		CHECK(c.grouping_sets);
		ch_caps_from_version(&c, kinds[k], 26, 5, 1, 54485);
		CHECK(c.window_functions);
		CHECK(c.grouping_sets);
	}
}

/* ClickHouse functions the extension declares (src/fdw/chfuncs.c): 19.3 */
TEST(caps_chfuncs)
{
	static const ch_transport_kind kinds[] = {CH_TRANSPORT_HTTP, CH_TRANSPORT_NATIVE};
	size_t		k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
	{
		ch_caps		c;

		ch_caps_from_version(&c, kinds[k], 18, 16, 1, 54412);
		CHECK(!c.group_bitmap);
		CHECK(!c.start_of_interval);
		ch_caps_from_version(&c, kinds[k], 19, 1, 6, 54413);
		CHECK(!c.group_bitmap);
		CHECK(!c.start_of_interval);
		ch_caps_from_version(&c, kinds[k], 19, 3, 3, 54415);
		CHECK(c.group_bitmap);
		CHECK(c.start_of_interval);
		ch_caps_from_version(&c, kinds[k], 26, 5, 1, 54485);
		CHECK(c.group_bitmap);
		CHECK(c.start_of_interval);
	}
}

/*
 * UNION ALL members computed in the union's types (22), correlated
 * subqueries by default (25.8): src/fdw/subquery.c
 */
TEST(caps_union_supertype)
{
	static const ch_transport_kind kinds[] = {CH_TRANSPORT_HTTP, CH_TRANSPORT_NATIVE};
	size_t		k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
	{
		ch_caps		c;

		ch_caps_from_version(&c, kinds[k], 18, 16, 1, 54412);
		CHECK(!c.union_supertype);
		CHECK(!c.correlated_subqueries);
		ch_caps_from_version(&c, kinds[k], 25, 7, 1, 54479);
		CHECK(!c.correlated_subqueries);
		ch_caps_from_version(&c, kinds[k], 25, 8, 1, 54479);
		CHECK(c.correlated_subqueries);
		ch_caps_from_version(&c, kinds[k], 21, 12, 4, 54452);
		CHECK(!c.union_supertype);
		ch_caps_from_version(&c, kinds[k], 22, 1, 3, 54453);
		CHECK(c.union_supertype);
		ch_caps_from_version(&c, kinds[k], 26, 5, 1, 54485);
		CHECK(c.union_supertype);
		CHECK(c.correlated_subqueries);
	}
}
