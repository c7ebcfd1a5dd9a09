/*-------------------------------------------------------------------------
 * ch_test_int_bounds.h
 *	  The test oracle for integer ranges, shared by the writer's unit tests
 *	  (test/unit/test_writer_bulk.c) and the writer_bulk fuzz target: written
 *	  from ClickHouse's type definitions, not from the writer's own tables,
 *	  so that the two can disagree.
 *
 * test/include/ch_test_int_bounds.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_TEST_INT_BOUNDS_H
#define CH_TEST_INT_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "ch_type.h"

/*
 * int_bounds
 *		The int64 values ch_col_append_int accepts for integer-like type t
 *		(UInt64 and UInt128 up to INT64_MAX: the bulk call takes int64_t).
 *		False for the kinds without a plain range (Enum, floats, strings).
 */
static inline bool
int_bounds(const ch_type *t, int64_t *lo, int64_t *hi)
{
	int64_t		mul = 1;
	int			i;

	switch (t->kind)
	{
		case CH_T_UINT8:
			*lo = 0, *hi = 255;
			return true;
		case CH_T_UINT16:
		case CH_T_DATE:
			*lo = 0, *hi = 65535;
			return true;
		case CH_T_UINT32:
		case CH_T_DATETIME:
		case CH_T_IPV4:
			*lo = 0, *hi = 4294967295LL;
			return true;
		case CH_T_UINT64:
		case CH_T_UINT128:
			*lo = 0, *hi = INT64_MAX;
			return true;
		case CH_T_BOOL:
			*lo = 0, *hi = 1;
			return true;
		case CH_T_INT8:
			*lo = -128, *hi = 127;
			return true;
		case CH_T_INT16:
			*lo = -32768, *hi = 32767;
			return true;
		case CH_T_INT32:
			*lo = INT32_MIN, *hi = INT32_MAX;
			return true;
		case CH_T_DATE32:
			*lo = -25567, *hi = 120529;
			return true;
		case CH_T_DATETIME64:
			{
				/* (2299-12-31 at scale 9 is beyond int64: clamped) */
				__int128	m = 1,
							h;

				for (i = 0; i < t->scale && i < 18; i++)
					m *= 10;
				h = (__int128) 10413792000LL * m - 1;
				*lo = (int64_t) ((__int128) -2208988800LL * m);
				*hi = h > INT64_MAX ? INT64_MAX : (int64_t) h;
				return true;
			}
		case CH_T_DECIMAL:
			if (t->precision >= 19)
			{
				*lo = INT64_MIN, *hi = INT64_MAX;
				return true;
			}
			for (i = 0; i < t->precision; i++)
				mul *= 10;
			*lo = -(mul - 1), *hi = mul - 1;
			return true;
		case CH_T_INT64:
		case CH_T_INT128:
			*lo = INT64_MIN, *hi = INT64_MAX;
			return true;
		default:
			return false;
	}
}

#endif							/* CH_TEST_INT_BOUNDS_H */
