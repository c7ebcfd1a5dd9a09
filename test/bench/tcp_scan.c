/*-------------------------------------------------------------------------
 * tcp_scan.c
 *	  Benchmark driver for test/bench/tcp.sh: runs one query through the
 *	  transport interface (ch_transport.h), pulls every block (decoded by the
 *	  Native reader) and drops it, and prints "ROWS SECONDS" of the best of
 *	  REPEAT runs.
 *
 *	tcp_scan native|http HOST PORT none|lz4|zstd REPEAT SQL
 *
 * test/bench/tcp_scan.c
 *-------------------------------------------------------------------------
 */
#include "ch_transport.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	ch_conn_config cfg;
	ch_endpoint ep;
	ch_conn    *c;
	ch_error	err;
	ch_compression comp;
	int			repeat,
				r;
	double		best = 1e30;
	uint64_t	rows = 0;

	if (argc != 7)
	{
		fprintf(stderr, "usage: %s native|http HOST PORT none|lz4|zstd REPEAT SQL\n", argv[0]);
		return 2;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.kind = strcmp(argv[1], "native") == 0 ? CH_TRANSPORT_NATIVE : CH_TRANSPORT_HTTP;
	ep.host = argv[2];
	ep.port = atoi(argv[3]);
	cfg.endpoints = &ep;
	cfg.nendpoints = 1;
	comp = strcmp(argv[4], "lz4") == 0 ? CH_COMPRESSION_LZ4 :
		strcmp(argv[4], "zstd") == 0 ? CH_COMPRESSION_ZSTD : CH_COMPRESSION_NONE;
	repeat = atoi(argv[5]);
	c = ch_conn_create(NULL, &cfg, &err);
	if (!c)
	{
		fprintf(stderr, "%s\n", err.message);
		return 1;
	}
	for (r = 0; r < repeat; r++)
	{
		ch_query	q;
		double		t0 = now();
		ch_status	st;

		memset(&q, 0, sizeof(q));
		q.sql = argv[6];
		q.compression = comp;
		ch_error_clear(&err);
		rows = 0;
		st = ch_conn_begin_query(c, &q, &err);
		while (st == CH_OK || st == CH_NEED_MORE)
		{
			const ch_block *b;
			ch_block_kind kind;
			ch_wait		w;
			struct pollfd pfd[CH_WAIT_MAX_SOCKETS];
			int			i;

			st = ch_conn_next_block(c, &b, &kind, &w, &err);
			if (st == CH_OK)
			{
				rows += b->nrows;
				continue;
			}
			if (st != CH_NEED_MORE)
				break;
			for (i = 0; i < w.nsockets; i++)
			{
				pfd[i].fd = w.fd[i];
				pfd[i].events = (short) ((w.want_read[i] ? POLLIN : 0) | (w.want_write[i] ? POLLOUT : 0));
			}
			poll(pfd, (nfds_t) w.nsockets, (int) w.timeout_ms);
		}
		if (st != CH_END)
		{
			fprintf(stderr, "%s: %s\n", ch_status_name(st), err.message);
			return 1;
		}
		if (now() - t0 < best)
			best = now() - t0;
	}
	printf("%llu %.3f\n", (unsigned long long) rows, best);
	ch_conn_destroy(c);
	return 0;
}
