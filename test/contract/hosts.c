/*-------------------------------------------------------------------------
 * hosts.c
 *	  The host-list contract (ch_transport.h, "Hosts and failover";
 *	  src/transport/hosts.c) against the live ClickHouse 18.16 server of
 *	  test/servers.sh, over both transports, without PostgreSQL.
 *
 * The server listens on one loopback address, so a second "host" is a
 * relay in this process (proxy_*: a thread forwarding 127.0.0.1:<its
 * port> to the server) that the tests can make refuse connections, cut the
 * connections it carries, or cut them after so many bytes in either
 * direction. A dead host is a loopback port nothing listens on; a host that
 * times out is a listening socket whose accept queue is full (the kernel
 * drops further SYNs). Every test runs in its own forked child (main.c),
 * so the process-wide down marks start empty each time.
 *
 * Prints the measured cost of a dead first host (CONTRACT_VERBOSE not
 * needed: the numbers are the point).
 *
 * test/contract/hosts.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "ch_transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const ch_transport_kind kinds[2] = {CH_TRANSPORT_HTTP, CH_TRANSPORT_NATIVE};

static const char *
kname(ch_transport_kind k)
{
	return k == CH_TRANSPORT_NATIVE ? "native" : "http";
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
live_port(ch_transport_kind k)
{
	const char *p = getenv(k == CH_TRANSPORT_NATIVE ? "CH_TCP_PORT" : "CH_HTTP_PORT");

	CHECK_MSG(p != NULL, "CH_HTTP_PORT / CH_TCP_PORT not set: start the servers "
			  "(bash test/servers.sh start; eval \"$(bash test/servers.sh env)\")");
	return p ? atoi(p) : 0;
}

/* a loopback port nothing listens on (bound, then closed) */
static int
closed_port(void)
{
	struct sockaddr_in sa;
	socklen_t	sl = sizeof(sa);
	int			fd = socket(AF_INET, SOCK_STREAM, 0);
	int			port = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *) &sa, sizeof(sa)) == 0 &&
		getsockname(fd, (struct sockaddr *) &sa, &sl) == 0)
		port = ntohs(sa.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static int
listen_on(int port, int backlog)
{
	struct sockaddr_in sa;
	socklen_t	sl = sizeof(sa);
	int			one = 1;
	int			fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	(void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t) port);
	if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) != 0 || listen(fd, backlog) != 0 ||
		getsockname(fd, (struct sockaddr *) &sa, &sl) != 0)
	{
		close(fd);
		return -1;
	}
	return fd;
}

static int
sock_port(int fd)
{
	struct sockaddr_in sa;
	socklen_t	sl = sizeof(sa);

	return getsockname(fd, (struct sockaddr *) &sa, &sl) == 0 ? ntohs(sa.sin_port) : 0;
}

/* ---- the relay ---- */

#define PROXY_PAIRS 16

typedef struct proxy
{
	int			port;			/* where it listens */
	int			upstream;		/* the server's port */
	int			lfd;
	pthread_t	th;
	pthread_mutex_t mu;
	int			fds[PROXY_PAIRS][2];	/* client, server; -1 free */
	uint64_t	down_bytes[PROXY_PAIRS];	/* server -> client */
	uint64_t	up_bytes[PROXY_PAIRS];
	/* commands, under mu */
	bool		stop;
	bool		refuse;			/* close the listener: connects are refused */
	bool		reopen;			/* listen again on the same port */
	bool		cut;			/* close every relayed connection now */
	uint64_t	cut_down_after; /* 0: never; else cut a connection once this
								 * many bytes went to the client */
	uint64_t	cut_up_after;	/* ... went to the server */
	int			accepts;
	int			pending;		/* commands not yet carried out */
} proxy;

static void
close_pair(proxy *p, int i)
{
	if (p->fds[i][0] >= 0)
		close(p->fds[i][0]);
	if (p->fds[i][1] >= 0)
		close(p->fds[i][1]);
	p->fds[i][0] = p->fds[i][1] = -1;
}

static int
connect_upstream(int port)
{
	struct sockaddr_in sa;
	int			fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t) port);
	if (fd >= 0 && connect(fd, (struct sockaddr *) &sa, sizeof(sa)) != 0)
	{
		close(fd);
		fd = -1;
	}
	return fd;
}

static void *
proxy_main(void *arg)
{
	proxy	   *p = arg;

	for (;;)
	{
		struct pollfd pfd[1 + 2 * PROXY_PAIRS];
		int			who[1 + 2 * PROXY_PAIRS];
		int			n = 0;
		int			i;

		pthread_mutex_lock(&p->mu);
		if (p->stop)
		{
			for (i = 0; i < PROXY_PAIRS; i++)
				close_pair(p, i);
			if (p->lfd >= 0)
				close(p->lfd);
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		if (p->cut)
		{
			for (i = 0; i < PROXY_PAIRS; i++)
				close_pair(p, i);
			p->cut = false;
		}
		if (p->refuse && p->lfd >= 0)
		{
			close(p->lfd);
			p->lfd = -1;
		}
		p->refuse = false;
		if (p->reopen && p->lfd < 0)
			p->lfd = listen_on(p->port, 16);
		p->reopen = false;
		p->pending = 0;
		if (p->lfd >= 0)
		{
			pfd[n].fd = p->lfd;
			pfd[n].events = POLLIN;
			who[n++] = -1;
		}
		for (i = 0; i < PROXY_PAIRS; i++)
			if (p->fds[i][0] >= 0)
			{
				pfd[n].fd = p->fds[i][0];
				pfd[n].events = POLLIN;
				who[n++] = 2 * i;
				pfd[n].fd = p->fds[i][1];
				pfd[n].events = POLLIN;
				who[n++] = 2 * i + 1;
			}
		pthread_mutex_unlock(&p->mu);
		if (poll(pfd, (nfds_t) n, 20) <= 0)
			continue;
		pthread_mutex_lock(&p->mu);
		for (i = 0; i < n; i++)
		{
			char		buf[65536];
			int			pair,
						side;
			ssize_t		got;

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (who[i] < 0)
			{
				int			c = accept(p->lfd, NULL, NULL);
				int			s,
							k;

				if (c < 0)
					continue;
				p->accepts++;
				s = connect_upstream(p->upstream);
				for (k = 0; k < PROXY_PAIRS && p->fds[k][0] >= 0; k++)
					;
				if (s < 0 || k == PROXY_PAIRS)
				{
					close(c);
					if (s >= 0)
						close(s);
					continue;
				}
				p->fds[k][0] = c;
				p->fds[k][1] = s;
				p->down_bytes[k] = p->up_bytes[k] = 0;
				continue;
			}
			pair = who[i] / 2;
			side = who[i] % 2;
			if (p->fds[pair][side] != pfd[i].fd)
				continue;		/* closed in this round */
			got = read(pfd[i].fd, buf, sizeof(buf));
			if (got <= 0 || write(p->fds[pair][1 - side], buf, (size_t) got) != got)
			{
				close_pair(p, pair);
				continue;
			}
			if (side == 1)
				p->down_bytes[pair] += (uint64_t) got;
			else
				p->up_bytes[pair] += (uint64_t) got;
			if ((p->cut_down_after && p->down_bytes[pair] >= p->cut_down_after) ||
				(p->cut_up_after && p->up_bytes[pair] >= p->cut_up_after))
				close_pair(p, pair);
		}
		pthread_mutex_unlock(&p->mu);
	}
}

static bool
proxy_start(proxy *p, int upstream)
{
	int			i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < PROXY_PAIRS; i++)
		p->fds[i][0] = p->fds[i][1] = -1;
	p->upstream = upstream;
	p->lfd = listen_on(0, 16);
	if (p->lfd < 0)
		return false;
	p->port = sock_port(p->lfd);
	pthread_mutex_init(&p->mu, NULL);
	return pthread_create(&p->th, NULL, proxy_main, p) == 0;
}

/* run a command and wait until the relay carried it out */
static void
proxy_do(proxy *p, bool refuse, bool cut, bool reopen)
{
	int			i;

	pthread_mutex_lock(&p->mu);
	p->refuse |= refuse;
	p->cut |= cut;
	p->reopen |= reopen;
	p->pending = 1;
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < 200; i++)
	{
		bool		done;

		pthread_mutex_lock(&p->mu);
		done = p->pending == 0;
		pthread_mutex_unlock(&p->mu);
		if (done)
			return;
		poll(NULL, 0, 5);
	}
	CHECK_MSG(false, "the relay did not carry out a command");
}

static int
proxy_accepts(proxy *p)
{
	int			n;

	pthread_mutex_lock(&p->mu);
	n = p->accepts;
	pthread_mutex_unlock(&p->mu);
	return n;
}

static void
proxy_stop(proxy *p)
{
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	pthread_mutex_destroy(&p->mu);
}

/* ---- connections and queries ---- */

static ch_conn *
open_hosts(ch_transport_kind kind, const ch_endpoint *eps, int n, ch_load_balancing lb,
		   long connect_timeout_ms)
{
	ch_conn_config cfg;
	ch_error	err;
	ch_conn    *c;

	memset(&cfg, 0, sizeof(cfg));
	cfg.kind = kind;
	cfg.endpoints = eps;
	cfg.nendpoints = n;
	cfg.load_balancing = lb;
	cfg.user = "default";
	cfg.password = "";
	cfg.connect_timeout_ms = connect_timeout_ms;
	cfg.receive_timeout_ms = 60000;
	ch_error_clear(&err);
	c = ch_conn_create(NULL, &cfg, &err);
	CHECK_MSG(c != NULL, "%s: ch_conn_create: %s", kname(kind), err.message);
	return c;
}

/*
 * The usual pair of hosts: the relay p, started in front of the live server
 * of kind, first; that live server second (eps is filled); a connection
 * over them with lb. NULL (a failed check) if the relay or the connection
 * cannot be made.
 */
static ch_conn *
relay_then_live(proxy *p, ch_transport_kind kind, ch_endpoint eps[2], ch_load_balancing lb)
{
	if (!proxy_start(p, live_port(kind)))
	{
		CHECK_MSG(false, "%s: the relay did not start", kname(kind));
		return NULL;
	}
	eps[0].host = "127.0.0.1";
	eps[0].port = p->port;
	eps[1].host = "127.0.0.1";
	eps[1].port = live_port(kind);
	return open_hosts(kind, eps, 2, lb, 2000);
}

typedef struct answer
{
	ch_status	st;
	ch_error	err;
	uint64_t	rows;
	uint64_t	blocks;
	uint64_t	sum0;			/* column 0, UInt64 */
} answer;

static void
ask(ch_conn *c, const char *sql, answer *a)
{
	ch_query	q;
	static const ch_setting small_blocks[] = {{"max_block_size", "10000"}};

	memset(a, 0, sizeof(*a));
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.settings = small_blocks;
	q.nsettings = 1;
	ch_error_clear(&a->err);
	a->st = ch_conn_begin_query(c, &q, &a->err);
	while (a->st == CH_OK || a->st == CH_NEED_MORE)
	{
		const ch_block *b;
		ch_block_kind kind;
		ch_wait		w;

		memset(&w, 0, sizeof(w));
		a->st = ch_conn_next_block(c, &b, &kind, &w, &a->err);
		if (a->st == CH_OK)
		{
			uint64_t	r;

			if (b->nrows == 0)
				continue;
			a->blocks++;
			a->rows += b->nrows;
			if (b->ncols > 0 && b->cols[0].type->kind == CH_T_UINT64)
				for (r = 0; r < b->nrows; r++)
					a->sum0 += col_u64(&b->cols[0], r);
			continue;
		}
		if (a->st != CH_NEED_MORE)
			break;
		wait_poll(&w);
	}
	if (a->st == CH_END)
		a->st = CH_OK;
}

static bool
ask_ok(ch_conn *c, const char *sql, const char *what)
{
	answer		a;

	ask(c, sql, &a);
	return CHECK_MSG(a.st == CH_OK, "%s: %s: %s: %s (%s)", what, sql, ch_status_name(a.st),
					 a.err.message, a.err.detail);
}

static uint64_t
count_rows(ch_conn *c, const char *table)
{
	char		sql[200];
	answer		a;

	snprintf(sql, sizeof(sql), "SELECT toUInt64(count()) FROM %s", table);
	ask(c, sql, &a);
	CHECK_MSG(a.st == CH_OK, "%s: %s", sql, a.err.message);
	return a.sum0;
}

/* INSERT INTO table (a) of n UInt64 rows in blocks of `per` rows */
static ch_status
insert_n(ch_conn *c, const char *table, uint64_t n, uint64_t per, ch_error *err)
{
	static const char *const names[] = {"a"};
	static const char *const types[] = {"UInt64"};
	ch_arena	ar;
	ch_writer  *w;
	ch_buf		out;
	ch_query	q;
	char		sql[200];
	uint64_t	i = 0;
	ch_status	st;

	ch_arena_init(&ar, NULL);
	ch_buf_init(&out, NULL);
	w = unit_make_writer(&ar, CH_FORMAT_NATIVE, 1, names, types);
	snprintf(sql, sizeof(sql), "INSERT INTO %s (a)", table);
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.compression = CH_COMPRESSION_NONE;
	st = w ? ch_conn_begin_insert(c, &q, err) : CH_ERR_NOMEM;
	if (st == CH_OK)
		st = ch_conn_run_blocking(c, 20000, err);
	while (st == CH_OK && i < n)
	{
		uint64_t	k,
					m = n - i < per ? n - i : per;

		for (k = 0; k < m && st == CH_OK; k++, i++)
		{
			st = ch_col_append_uint(ch_writer_column(w, 0), i, err);
			if (st == CH_OK)
				st = ch_writer_end_row(w, err);
		}
		ch_buf_reset(&out);
		if (st == CH_OK)
			st = ch_writer_flush(w, &out, err);
		if (st == CH_OK)
			st = ch_conn_insert_block(c, out.data, out.len, m, err);
		if (st == CH_OK)
			st = ch_conn_run_blocking(c, 20000, err);
	}
	if (st == CH_OK)
		st = ch_conn_insert_finish(c, err);
	if (st == CH_OK)
		st = ch_conn_run_blocking(c, 30000, err);
	if (w)
		ch_writer_free(w);
	ch_buf_free(&out);
	ch_arena_free(&ar);
	return st;
}

/* ---- parsing and options (no server) ---- */

TEST(hosts_list_parse)
{
	ch_host_list l;
	ch_error	err;
	ch_load_balancing lb;

	REQUIRE_STATUS(ch_host_list_parse("ch1:9000, ch2 ,[::1]:8123, ::1,10.0.0.1", 8123, &l, &err),
				   CH_OK);
	REQUIRE_EQ_UINT(l.n, 5);
	CHECK_EQ_STR(l.h[0].host, "ch1");
	CHECK_EQ_INT(l.h[0].port, 9000);
	CHECK(l.h[0].port_given);
	CHECK_EQ_STR(l.h[1].host, "ch2");
	CHECK_EQ_INT(l.h[1].port, 8123);
	CHECK(!l.h[1].port_given);
	CHECK_EQ_STR(l.h[2].host, "::1");
	CHECK_EQ_INT(l.h[2].port, 8123);
	CHECK_EQ_STR(l.h[3].host, "::1");
	CHECK(!l.h[3].port_given);
	CHECK_EQ_STR(l.h[4].host, "10.0.0.1");
	CHECK_STATUS(ch_host_list_parse("", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("a,,b", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_CONTAINS(err.message, "host 2 of the list is empty");
	CHECK_STATUS(ch_host_list_parse("a,", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("h:0", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_CONTAINS(err.message, "between 1 and 65535");
	CHECK_STATUS(ch_host_list_parse("h:65536", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("h:80x", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("user@h", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("svc/admin#", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("a b", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("[::1", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("[::1]x", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("[host]:1", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("-h", 9000, &l, &err), CH_ERR_INVALID_ARGUMENT);
	CHECK_STATUS(ch_host_list_parse("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", 9000, &l, &err),
				 CH_ERR_INVALID_ARGUMENT);
	CHECK_CONTAINS(err.message, "more than 16 hosts");
	CHECK(ch_load_balancing_parse("round_robin", &lb) && lb == CH_LB_ROUND_ROBIN);
	CHECK(ch_load_balancing_parse("random", &lb) && lb == CH_LB_RANDOM);
	CHECK(ch_load_balancing_parse("in_order", &lb) && lb == CH_LB_IN_ORDER);
	CHECK(!ch_load_balancing_parse("first", &lb));
	CHECK_EQ_STR(ch_load_balancing_name(CH_LB_ROUND_ROBIN), "round_robin");
}

/* ---- a dead first host ---- */

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* a new connection and "SELECT 1" on it, in ms */
static double
timed_select(ch_transport_kind kind, const ch_endpoint *eps, int n)
{
	ch_conn    *c = open_hosts(kind, eps, n, CH_LB_IN_ORDER, 2000);
	double		t0 = now_ms();
	double		t;

	if (!c)
		return 0;
	CHECK(ask_ok(c, "SELECT 1", kname(kind)));
	t = now_ms() - t0;
	ch_conn_destroy(c);
	return t;
}

TEST(hosts_dead_first_host)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_endpoint eps[2] = {{"127.0.0.1", closed_port()}, {"127.0.0.1", live_port(kinds[k])}};
		ch_conn    *c;
		double		one[21],
					dead[21],
					marked[21];
		int			i;

		REQUIRE(eps[0].port > 0 && eps[1].port > 0);
		/* the dead host first: refused, marked down, the next host answers */
		c = open_hosts(kinds[k], eps, 2, CH_LB_IN_ORDER, 2000);
		REQUIRE(c);
		CHECK(ask_ok(c, "SELECT toUInt64(42)", kname(kinds[k])));
		CHECK_EQ_INT(ch_conn_host(c)->port, eps[1].port);
		CHECK_EQ_UINT(ch_conn_failover_count(c), 1);
		CHECK(ch_host_marked_down("127.0.0.1", eps[0].port));
		CHECK(!ch_host_marked_down("127.0.0.1", eps[1].port));
		/* the connection stays on its host */
		CHECK(ask_ok(c, "SELECT 2", kname(kinds[k])));
		CHECK_EQ_UINT(ch_conn_failover_count(c), 1);
		ch_conn_destroy(c);
		/* a new connection skips the host marked down: no failover at all */
		c = open_hosts(kinds[k], eps, 2, CH_LB_IN_ORDER, 2000);
		REQUIRE(c);
		CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
		CHECK_EQ_INT(ch_conn_host(c)->port, eps[1].port);
		CHECK_EQ_UINT(ch_conn_failover_count(c), 0);
		ch_conn_destroy(c);
		/*
		 * What it costs, median of 21 interleaved runs of a new connection
		 * and SELECT 1: the live host alone; the dead host first, not yet
		 * marked (refused, then the next); the dead host first, marked.
		 */
		for (i = 0; i < 21; i++)
		{
			one[i] = timed_select(kinds[k], &eps[1], 1);
			ch_hosts_forget();
			dead[i] = timed_select(kinds[k], eps, 2);
			marked[i] = timed_select(kinds[k], eps, 2);
		}
		qsort(one, 21, sizeof(double), cmp_double);
		qsort(dead, 21, sizeof(double), cmp_double);
		qsort(marked, 21, sizeof(double), cmp_double);
		printf("    %s: a new connection and SELECT 1 (median of 21): one live host %.2f ms; "
			   "a refusing first host %.2f ms (+%.2f ms); that host marked down %.2f ms\n",
			   kname(kinds[k]), one[10], dead[10], dead[10] - one[10], marked[10]);
	}
}

/* a host that does not answer the connect: skipped after connect_timeout */
TEST(hosts_connect_timeout)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		int			lfd = listen_on(0, 0);
		int			fill[4];
		int			nfill = 0;
		ch_endpoint eps[2];
		ch_conn    *c;
		double		t0,
					t;
		int			i;

		REQUIRE(lfd >= 0);
		/* fill the accept queue: further SYNs are dropped, connects hang */
		for (i = 0; i < 4; i++)
		{
			struct sockaddr_in sa;
			int			fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

			memset(&sa, 0, sizeof(sa));
			sa.sin_family = AF_INET;
			sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			sa.sin_port = htons((uint16_t) sock_port(lfd));
			(void) connect(fd, (struct sockaddr *) &sa, sizeof(sa));
			fill[nfill++] = fd;
		}
		poll(NULL, 0, 50);
		eps[0].host = "127.0.0.1";
		eps[0].port = sock_port(lfd);
		eps[1].host = "127.0.0.1";
		eps[1].port = live_port(kinds[k]);
		c = open_hosts(kinds[k], eps, 2, CH_LB_IN_ORDER, 300);
		REQUIRE(c);
		t0 = now_ms();
		CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
		t = now_ms() - t0;
		CHECK_EQ_INT(ch_conn_host(c)->port, eps[1].port);
		CHECK_EQ_UINT(ch_conn_failover_count(c), 1);
		CHECK(ch_host_marked_down("127.0.0.1", eps[0].port));
		/* the cost is the connect timeout (300 ms), not more */
		CHECK_MSG(t >= 250 && t < 2000, "%s: %.1f ms", kname(kinds[k]), t);
		printf("    %s: first host not answering (connect_timeout 300 ms): SELECT 1 in %.1f ms\n",
			   kname(kinds[k]), t);
		ch_conn_destroy(c);
		for (i = 0; i < nfill; i++)
			close(fill[i]);
		close(lfd);
	}
}

/*
 * One host that does not answer the connect: CH_ERR_TIMEOUT after the
 * connect timeout, every time (HTTP used to lose libcurl's timer now and
 * then and wait for the socket with no timeout at all).
 */
TEST(hosts_single_host_connect_timeout)
{
	int			k,
				r;

	for (k = 0; k < 2; k++)
		for (r = 0; r < 5; r++)
		{
			int			lfd = listen_on(0, 0);
			int			fill[4];
			ch_endpoint ep;
			ch_conn    *c;
			double		t0,
						t;
			answer		a;
			int			i;

			REQUIRE(lfd >= 0);
			for (i = 0; i < 4; i++)
			{
				struct sockaddr_in sa;

				fill[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
				memset(&sa, 0, sizeof(sa));
				sa.sin_family = AF_INET;
				sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
				sa.sin_port = htons((uint16_t) sock_port(lfd));
				(void) connect(fill[i], (struct sockaddr *) &sa, sizeof(sa));
			}
			poll(NULL, 0, 50);
			ep.host = "127.0.0.1";
			ep.port = sock_port(lfd);
			c = open_hosts(kinds[k], &ep, 1, CH_LB_IN_ORDER, 300);
			REQUIRE(c);
			t0 = now_ms();
			ask(c, "SELECT 1", &a);
			t = now_ms() - t0;
			CHECK_MSG(a.st == CH_ERR_TIMEOUT, "%s: %s %s", kname(kinds[k]), ch_status_name(a.st),
					  a.err.message);
			CHECK_MSG(t >= 250 && t < 2000, "%s round %d: the 300 ms connect timeout took %.1f ms",
					  kname(kinds[k]), r, t);
			ch_conn_destroy(c);
			for (i = 0; i < 4; i++)
				close(fill[i]);
			close(lfd);
		}
}

TEST(hosts_all_dead)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		ch_endpoint eps[3] = {{"127.0.0.1", closed_port()}, {"localhost", closed_port()},
		{"127.0.0.1", closed_port()}};
		ch_conn    *c = open_hosts(kinds[k], eps, 3, CH_LB_IN_ORDER, 2000);
		answer		a;
		char		want[64];

		REQUIRE(c);
		ask(c, "SELECT 1", &a);
		CHECK_MSG(a.st == CH_ERR_CONNECT, "%s: %s", kname(kinds[k]), ch_status_name(a.st));
		CHECK_CONTAINS(a.err.message, "none of the 3 ClickHouse hosts answered");
		snprintf(want, sizeof(want), "127.0.0.1:%d, localhost:%d, 127.0.0.1:%d", eps[0].port,
				 eps[1].port, eps[2].port);
		CHECK_CONTAINS(a.err.message, want);
		/* the detail says what each host did */
		snprintf(want, sizeof(want), "localhost:%d: ", eps[1].port);
		CHECK_CONTAINS(a.err.detail, want);
		snprintf(want, sizeof(want), "127.0.0.1:%d: ", eps[2].port);
		CHECK_CONTAINS(a.err.detail, want);
		CHECK(!ch_conn_busy(c));
		CHECK_EQ_UINT(ch_conn_failover_count(c), 2);
		ch_conn_destroy(c);
	}
}

/* every host marked down: they are still tried, in order */
TEST(hosts_all_marked_down_still_tried)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		answer		a;

		REQUIRE(proxy_start(&p, live_port(kinds[k])));
		eps[0].host = "127.0.0.1";
		eps[0].port = p.port;
		eps[1].host = "127.0.0.1";
		eps[1].port = closed_port();
		proxy_do(&p, true, false, false);
		c = open_hosts(kinds[k], eps, 2, CH_LB_IN_ORDER, 2000);
		REQUIRE(c);
		ask(c, "SELECT 1", &a);
		CHECK_MSG(a.st == CH_ERR_CONNECT, "%s: %s", kname(kinds[k]), ch_status_name(a.st));
		CHECK(ch_host_marked_down("127.0.0.1", eps[0].port));
		CHECK(ch_host_marked_down("127.0.0.1", eps[1].port));
		/* the relay's host comes back: tried although marked down */
		proxy_do(&p, false, false, true);
		CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
		CHECK_EQ_INT(ch_conn_host(c)->port, eps[0].port);
		/* and it is up again */
		CHECK(!ch_host_marked_down("127.0.0.1", eps[0].port));
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}

/* ---- load balancing ---- */

TEST(hosts_load_balancing)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		int			i;
		int			seen[2] = {0, 0};
		int			before;

		REQUIRE(proxy_start(&p, live_port(kinds[k])));
		eps[0].host = "127.0.0.1";
		eps[0].port = live_port(kinds[k]);
		eps[1].host = "127.0.0.1";
		eps[1].port = p.port;
		/* round_robin: each new connection starts one host further */
		before = proxy_accepts(&p);
		for (i = 0; i < 6; i++)
		{
			ch_conn    *c = open_hosts(kinds[k], eps, 2, CH_LB_ROUND_ROBIN, 2000);

			REQUIRE(c);
			CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
			CHECK_MSG(ch_conn_host(c)->port == eps[i % 2].port, "%s: round_robin connection %d "
					  "went to port %d", kname(kinds[k]), i, ch_conn_host(c)->port);
			ch_conn_destroy(c);
		}
		/* three of the six went through the relay (it saw them) */
		CHECK_EQ_INT(proxy_accepts(&p) - before, 3);
		/* in_order: always the first */
		for (i = 0; i < 3; i++)
		{
			ch_conn    *c = open_hosts(kinds[k], eps, 2, CH_LB_IN_ORDER, 2000);

			REQUIRE(c);
			CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
			CHECK_EQ_INT(ch_conn_host(c)->port, eps[0].port);
			ch_conn_destroy(c);
		}
		/* random: both hosts within 40 connections (fails with p = 2^-39) */
		for (i = 0; i < 40 && !(seen[0] && seen[1]); i++)
		{
			ch_conn    *c = open_hosts(kinds[k], eps, 2, CH_LB_RANDOM, 2000);

			REQUIRE(c);
			CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
			seen[ch_conn_host(c)->port == eps[1].port]++;
			ch_conn_destroy(c);
		}
		CHECK_MSG(seen[0] && seen[1], "%s: random used one host only", kname(kinds[k]));
		proxy_stop(&p);
	}
}

/* ---- a connection that breaks ---- */

TEST(hosts_select_retried_before_first_block)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		answer		a;

		c = relay_then_live(&p, kinds[k], eps, CH_LB_IN_ORDER);
		REQUIRE(c);
		CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
		CHECK_EQ_INT(ch_conn_host(c)->port, p.port);
		/* the host goes away under a connected (cached) connection */
		proxy_do(&p, true, true, false);
		ask(c, "SELECT toUInt64(number) FROM system.numbers LIMIT 100000", &a);
		CHECK_MSG(a.st == CH_OK, "%s: %s %s", kname(kinds[k]), ch_status_name(a.st), a.err.message);
		CHECK_EQ_UINT(a.rows, 100000);
		CHECK_EQ_UINT(a.sum0, 100000ull * 99999 / 2);
		CHECK_EQ_INT(ch_conn_host(c)->port, eps[1].port);
		CHECK_EQ_UINT(ch_conn_failover_count(c), 1);
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}

/*
 * Not a read: over the native protocol the statement was sent on the broken
 * connection, so it is not sent again; over HTTP libcurl could not connect,
 * nothing was sent, so it goes to the next host.
 */
TEST(hosts_write_statement_not_resent)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		answer		a;
		char		sql[200];

		c = relay_then_live(&p, kinds[k], eps, CH_LB_IN_ORDER);
		REQUIRE(c);
		snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS default.hosts_w_%d_%d", (int) getpid(), k);
		CHECK(ask_ok(c, sql, kname(kinds[k])));
		proxy_do(&p, true, true, false);
		snprintf(sql, sizeof(sql), "CREATE TABLE default.hosts_w_%d_%d (a UInt64) ENGINE = Memory",
				 (int) getpid(), k);
		ask(c, sql, &a);
		if (kinds[k] == CH_TRANSPORT_NATIVE)
		{
			CHECK_MSG(a.st == CH_ERR_NETWORK, "native: %s %s", ch_status_name(a.st), a.err.message);
			CHECK_EQ_UINT(ch_conn_failover_count(c), 0);
			/* the next request goes to the next host (the broken one is down) */
			CHECK(ask_ok(c, "SELECT 1", "native"));
			CHECK_EQ_INT(ch_conn_host(c)->port, eps[1].port);
		}
		else
		{
			CHECK_MSG(a.st == CH_OK, "http: %s %s", ch_status_name(a.st), a.err.message);
			CHECK_EQ_UINT(ch_conn_failover_count(c), 1);
		}
		snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS default.hosts_w_%d_%d", (int) getpid(), k);
		CHECK(ask_ok(c, sql, kname(kinds[k])));
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}

/* broken after blocks arrived: an error, never a partial or repeated result */
TEST(hosts_broken_after_data_is_an_error)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		answer		a;

		c = relay_then_live(&p, kinds[k], eps, CH_LB_IN_ORDER);
		REQUIRE(c);
		CHECK(ask_ok(c, "SELECT 1", kname(kinds[k])));
		pthread_mutex_lock(&p.mu);
		p.cut_down_after = 400000;
		pthread_mutex_unlock(&p.mu);
		ask(c, "SELECT toUInt64(number) FROM system.numbers LIMIT 2000000", &a);
		CHECK_MSG(a.st != CH_OK, "%s: the cut query succeeded", kname(kinds[k]));
		CHECK_MSG(a.blocks > 0 && a.rows < 2000000, "%s: %" PRIu64 " blocks, %" PRIu64 " rows",
				  kname(kinds[k]), a.blocks, a.rows);
		CHECK_EQ_UINT(ch_conn_failover_count(c), 0);
		CHECK(!ch_conn_busy(c));
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}

/* ---- inserts ---- */

TEST(hosts_insert_resent_when_nothing_was_sent)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		ch_error	err;
		char		table[64],
					sql[200];
		ch_status	st;

		c = relay_then_live(&p, kinds[k], eps, CH_LB_IN_ORDER);
		REQUIRE(c);
		snprintf(table, sizeof(table), "default.hosts_ins_%d_%d", (int) getpid(), k);
		snprintf(sql, sizeof(sql), "CREATE TABLE %s (a UInt64) ENGINE = Memory", table);
		REQUIRE(ask_ok(c, sql, kname(kinds[k])));
		CHECK_EQ_INT(ch_conn_host(c)->port, p.port);
		proxy_do(&p, true, true, false);
		ch_error_clear(&err);
		st = insert_n(c, table, 5000, 1000, &err);
		CHECK_MSG(st == CH_OK, "%s: %s %s", kname(kinds[k]), ch_status_name(st), err.message);
		CHECK_EQ_UINT(ch_conn_failover_count(c), 1);
		CHECK_EQ_INT(ch_conn_host(c)->port, eps[1].port);
		/* written once */
		CHECK_EQ_UINT(count_rows(c, table), 5000);
		snprintf(sql, sizeof(sql), "DROP TABLE %s", table);
		CHECK(ask_ok(c, sql, kname(kinds[k])));
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}

TEST(hosts_insert_broken_midway_says_what_was_sent)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		ch_error	err;
		char		table[64],
					sql[200],
					want[120];
		ch_status	st;

		c = relay_then_live(&p, kinds[k], eps, CH_LB_IN_ORDER);
		REQUIRE(c);
		snprintf(table, sizeof(table), "default.hosts_mid_%d_%d", (int) getpid(), k);
		snprintf(sql, sizeof(sql), "CREATE TABLE %s (a UInt64) ENGINE = Memory", table);
		REQUIRE(ask_ok(c, sql, kname(kinds[k])));
		pthread_mutex_lock(&p.mu);
		p.cut_up_after = 3000000;	/* within the data */
		pthread_mutex_unlock(&p.mu);
		ch_error_clear(&err);
		st = insert_n(c, table, 1000000, 100000, &err);
		CHECK_MSG(st == CH_ERR_NETWORK, "%s: %s %s", kname(kinds[k]), ch_status_name(st),
				  err.message);
		snprintf(want, sizeof(want), "rows of this insert were sent to ClickHouse at 127.0.0.1:%d",
				 p.port);
		CHECK_CONTAINS(err.detail, want);
		CHECK_CONTAINS(err.detail, "some, all or none of them");
		CHECK_EQ_UINT(ch_conn_failover_count(c), 0);
		CHECK(!ch_conn_busy(c));
		pthread_mutex_lock(&p.mu);
		p.cut_up_after = 0;
		pthread_mutex_unlock(&p.mu);
		snprintf(sql, sizeof(sql), "DROP TABLE %s", table);
		CHECK(ask_ok(c, sql, kname(kinds[k])));
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}

/* ---- KILL QUERY goes to the host that runs the query ---- */

TEST(hosts_kill_on_the_running_host)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		ch_query	q;
		ch_error	err;
		char		qid[64];
		ch_status	st;
		int			i,
					before;

		/* round robin: this connection takes the first host (the relay) ... */
		c = relay_then_live(&p, kinds[k], eps, CH_LB_ROUND_ROBIN);
		REQUIRE(c);
		snprintf(qid, sizeof(qid), "hosts-kill-%d-%d", (int) getpid(), k);
		memset(&q, 0, sizeof(q));
		q.sql = "SELECT sum(number) FROM system.numbers LIMIT 100000000000";
		q.query_id = qid;
		ch_error_clear(&err);
		REQUIRE_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
		for (i = 0; i < 20; i++)
		{
			const ch_block *b;
			ch_block_kind kind;
			ch_wait		w;

			st = ch_conn_next_block(c, &b, &kind, &w, &err);
			if (st != CH_OK && st != CH_NEED_MORE)
				break;
			poll(NULL, 0, 20);
		}
		REQUIRE(ch_conn_busy(c));
		CHECK_EQ_INT(ch_conn_host(c)->port, p.port);
		/* ... a new connection of the list would take the second; the kill does not */
		before = proxy_accepts(&p);
		ch_error_clear(&err);
		st = ch_conn_kill(c, 5000, &err);
		CHECK_MSG(st == CH_OK, "%s: kill: %s %s", kname(kinds[k]), ch_status_name(st), err.message);
		CHECK_EQ_INT(proxy_accepts(&p) - before, 1);
		ch_error_clear(&err);
		st = ch_conn_run_blocking(c, 10000, &err);
		CHECK_MSG(st == CH_OK || st == CH_ERR_SERVER, "%s: after kill: %s %s", kname(kinds[k]),
				  ch_status_name(st), err.message);
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}

/*
 * Native: the 0-row header block arrives at once, the rows only after a
 * second. A break in between has handed out no row: the query is re-sent
 * (the caller sees a second header) and the answer is whole, once.
 */
TEST(hosts_break_after_header_retried)
{
	int			k;

	for (k = 0; k < 2; k++)
	{
		proxy		p;
		ch_endpoint eps[2];
		ch_conn    *c;
		ch_query	q;
		ch_error	err;
		ch_status	st;
		uint64_t	rows = 0,
					headers = 0,
					sum = 0;
		bool		cut = false;

		c = relay_then_live(&p, kinds[k], eps, CH_LB_IN_ORDER);
		REQUIRE(c);
		memset(&q, 0, sizeof(q));
		q.sql = "SELECT toUInt64(number + sleepEachRow(0.5)) FROM system.numbers LIMIT 3";
		ch_error_clear(&err);
		REQUIRE_STATUS(ch_conn_begin_query(c, &q, &err), CH_OK);
		for (;;)
		{
			const ch_block *b;
			ch_block_kind kind;
			ch_wait		w;

			memset(&w, 0, sizeof(w));
			st = ch_conn_next_block(c, &b, &kind, &w, &err);
			if (st == CH_OK)
			{
				uint64_t	r;

				if (b->nrows == 0)
					headers++;
				rows += b->nrows;
				for (r = 0; r < b->nrows; r++)
					sum += col_u64(&b->cols[0], r);
				if (!cut && rows == 0)
				{
					/* the header is here (native): the host goes away now */
					proxy_do(&p, true, true, false);
					cut = true;
				}
				continue;
			}
			if (st != CH_NEED_MORE)
				break;
			if (!cut && kinds[k] == CH_TRANSPORT_HTTP)
			{
				/* HTTP sends nothing before the end: cut while waiting */
				poll(NULL, 0, 300);
				proxy_do(&p, true, true, false);
				cut = true;
				continue;
			}
			wait_poll(&w);
		}
		CHECK_MSG(st == CH_END, "%s: %s %s", kname(kinds[k]), ch_status_name(st), err.message);
		CHECK(cut);
		CHECK_EQ_UINT(rows, 3);
		CHECK_EQ_UINT(sum, 3);
		CHECK_EQ_UINT(ch_conn_failover_count(c), 1);
		CHECK_EQ_INT(ch_conn_host(c)->port, eps[1].port);
		if (kinds[k] == CH_TRANSPORT_NATIVE)
			CHECK_EQ_UINT(headers, 2);
		ch_conn_destroy(c);
		proxy_stop(&p);
	}
}
