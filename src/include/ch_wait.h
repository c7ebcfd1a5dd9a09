/*-------------------------------------------------------------------------
 * ch_wait.h
 *	  What the transports and their callers share without naming a
 *	  transport: what to wait for (ch_wait), a ClickHouse setting, a byte
 *	  sink, and a strict parser for numbers the server sends.
 *
 * Both transports (ch_http.h over libcurl, the native protocol of
 * ch_transport.h) are non-blocking: a function that would have to wait
 * fills a ch_wait naming the sockets and the timeout, and the caller waits
 * however it likes (the FDW: WaitEventSet with CHECK_FOR_INTERRUPTS).
 *
 * src/include/ch_wait.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_WAIT_H
#define CH_WAIT_H

#include "ch_common.h"

#define CH_WAIT_MAX_SOCKETS 4

typedef struct ch_wait
{
	int			nsockets;
	int			fd[CH_WAIT_MAX_SOCKETS];
	bool		want_read[CH_WAIT_MAX_SOCKETS];
	bool		want_write[CH_WAIT_MAX_SOCKETS];
	long		timeout_ms;		/* -1: no timeout */
} ch_wait;

typedef struct ch_setting
{
	const char *name;
	const char *value;
} ch_setting;

/* Receives response bytes; a non-CH_OK status aborts the request. */
typedef ch_status (*ch_sink_fn) (void *ctx, const uint8_t *data, size_t len,
								 ch_error *err);

/*
 * Strict parse of a decimal number sent by the server (a header value such
 * as X-ClickHouse-Exception-Code, a count in a String column): optional
 * spaces/tabs, 1 to 18 digits, optional trailing spaces, tabs, CR or LF,
 * nothing else. False (and *out untouched) for anything else, including
 * overflow past max. (Defined in ch_http.c.)
 */
bool		ch_parse_uint(const char *text, size_t len, uint64_t max, uint64_t *out);

#endif							/* CH_WAIT_H */
