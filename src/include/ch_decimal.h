/*-------------------------------------------------------------------------
 * ch_decimal.h
 *	  A decimal number (an integer times a power of ten) to the nearest
 *	  double, without going through text, where that can be decided cheaply.
 *
 * ch_decimal_to_double gives exactly what a correctly rounded strtod of the
 * number's digits gives (round to nearest, ties to even), or says it cannot
 * decide, and the caller takes the text path. It decides:
 *	- exact products of at most 2^53 and 10^-22..10^22 with one IEEE
 *	  operation (Clinger's fast path; both operands are exact doubles);
 *	- otherwise, when long double has at least 64 bits of mantissa, from
 *	  the product in long double (each factor within half a long-double ulp,
 *	  the product within 2 ulps of the true value): unless that product lies
 *	  within 8 long-double ulps of a point halfway between two doubles, it
 *	  rounds to the same double as the true value. Results outside the normal
 *	  range with a margin (below about 2^-1000, above about 2^1000) are left
 *	  to the caller (strtod's underflow, denormals and overflow).
 * It never decides a wrong value: when in doubt it returns false.
 *
 * src/include/ch_decimal.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_DECIMAL_H
#define CH_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The double nearest to w * 10^e10 into *out (true), or false when it
 * cannot decide. more_digits: the number has further nonzero digits below
 * w's last one, i.e. it lies strictly between w * 10^e10 and (w + 1) *
 * 10^e10; it is decided when both ends round to the same double. A zero w
 * without more digits is +0.0. No sign: the caller negates.
 */
bool		ch_decimal_to_double(uint64_t w, int e10, bool more_digits, double *out);

#endif							/* CH_DECIMAL_H */
