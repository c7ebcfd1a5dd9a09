/*-------------------------------------------------------------------------
 * hosts.c
 *	  Several hosts behind one connection: parsing host lists, choosing a
 *	  host (load balancing), remembering which hosts failed, and deciding
 *	  whether a failed request may go on with another host (ch_transport.h,
 *	  "Hosts and failover", states the rules).
 *
 * State kept per process, not per connection: which hosts are marked down
 * (until when) and where each host list's round robin stands. PostgreSQL
 * backends are single-threaded processes, so these tables have no locks;
 * a multi-threaded user of the transport would need one (none exists).
 * Both tables are small and fixed (no allocation): a host list hashes to
 * a round-robin slot, a down host takes the slot of an expired entry or,
 * when all are live, of the one that comes back soonest.
 *
 * Why the retry rules are what they are: ClickHouse executes a request as
 * soon as it has read it, so re-sending anything that may have reached a
 * server can run it twice. A SELECT run twice is harmless as long as the
 * caller saw nothing of the first run; an INSERT or an ALTER is not, so
 * those move to another host only when nothing was sent (ClickHouse's own
 * client does the same: it fails over only while establishing the
 * connection, src/Client/ConnectionPoolWithFailover.cpp).
 *
 * src/transport/hosts.c
 *-------------------------------------------------------------------------
 */
#include "transport_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

/* ---- parsing ---- */

static bool
name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		ch == '-' || ch == '_' || ch == '.';
}

static bool
v6_char(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') ||
		ch == ':' || ch == '.';
}

static bool
parse_port(const char *p, size_t n, int *port)
{
	int			v = 0;
	size_t		i;

	if (n == 0 || n > 5)
		return false;
	for (i = 0; i < n; i++)
	{
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (p[i] - '0');
	}
	if (v < 1 || v > 65535)
		return false;
	*port = v;
	return true;
}

/* one entry p[0..n) without surrounding spaces */
static ch_status
parse_entry(const char *p, size_t n, int idx, int default_port, ch_host_entry *e,
			ch_error *err)
{
	const char *host = p;
	size_t		hlen = n;
	const char *port = NULL;
	size_t		plen = 0;
	size_t		i;
	size_t		colons = 0;

	if (n == 0)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "host %d of the list is empty", idx);
	for (i = 0; i < n; i++)
		colons += p[i] == ':';
	if (p[0] == '[')
	{
		const char *close = memchr(p, ']', n);

		if (!close)
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"host %d (\"%.*s\"): no \"]\" after the IPv6 address", idx,
								(int) n, p);
		host = p + 1;
		hlen = (size_t) (close - host);
		if (close + 1 < p + n)
		{
			if (close[1] != ':')
				return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
									"host %d (\"%.*s\"): only \":port\" may follow \"]\"", idx,
									(int) n, p);
			port = close + 2;
			plen = (size_t) (p + n - port);
		}
		for (i = 0; i < hlen; i++)
			if (!v6_char(host[i]))
				break;
		if (hlen == 0 || i < hlen || !memchr(host, ':', hlen))
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"host %d (\"%.*s\"): not an IPv6 address in brackets", idx,
								(int) n, p);
	}
	else if (colons > 1)
	{
		/* a bare IPv6 address: no port (write [addr]:port for one) */
		for (i = 0; i < n; i++)
			if (!v6_char(p[i]))
				return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
									"host %d (\"%.*s\") is neither a host name nor an IP address",
									idx, (int) n, p);
	}
	else
	{
		const char *colon = memchr(p, ':', n);

		if (colon)
		{
			hlen = (size_t) (colon - p);
			port = colon + 1;
			plen = (size_t) (p + n - port);
		}
		for (i = 0; i < hlen; i++)
			if (!name_char(host[i]))
				break;
		if (hlen == 0 || i < hlen || host[0] == '-' || host[0] == '.')
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"host %d (\"%.*s\") is neither a host name nor an IP address",
								idx, (int) n, p);
	}
	if (hlen > 253)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "host %d is longer than 253 bytes", idx);
	memcpy(e->host, host, hlen);
	e->host[hlen] = '\0';
	e->port_given = port != NULL;
	e->port = default_port;
	if (port && !parse_port(port, plen, &e->port))
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"host %d (\"%.*s\"): the port must be an integer between 1 and 65535",
							idx, (int) n, p);
	return CH_OK;
}

ch_status
ch_host_list_parse(const char *text, int default_port, ch_host_list *out, ch_error *err)
{
	const char *p = text;

	out->n = 0;
	if (!text)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "no host");
	for (;;)
	{
		const char *end = strchr(p, ',');
		const char *stop = end ? end : p + strlen(p);
		const char *a = p;
		const char *b = stop;
		ch_status	st;

		while (a < b && isspace((unsigned char) *a))
			a++;
		while (b > a && isspace((unsigned char) b[-1]))
			b--;
		if (out->n == CH_MAX_HOSTS)
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "more than %d hosts", CH_MAX_HOSTS);
		if (a == b && !end && out->n == 0)
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "no host");
		st = parse_entry(a, (size_t) (b - a), out->n + 1, default_port, &out->h[out->n], err);
		if (st != CH_OK)
			return st;
		out->n++;
		if (!end)
			return CH_OK;
		p = end + 1;
	}
}

bool
ch_load_balancing_parse(const char *text, ch_load_balancing *out)
{
	if (strcmp(text, "in_order") == 0)
		*out = CH_LB_IN_ORDER;
	else if (strcmp(text, "random") == 0)
		*out = CH_LB_RANDOM;
	else if (strcmp(text, "round_robin") == 0)
		*out = CH_LB_ROUND_ROBIN;
	else
		return false;
	return true;
}

/*
 * A host written as this machine's loopback: "localhost" (any case, an
 * optional final dot), an IPv4 address in 127.0.0.0/8, "::1", or an
 * IPv4-mapped 127.x address. Names are not resolved: another name that
 * resolves to a loopback address counts as remote.
 */
bool
ch_host_is_loopback(const char *host)
{
	unsigned char a[16];
	size_t		n;

	if (!host)
		return false;
	n = strlen(host);
	if ((n == 9 || (n == 10 && host[9] == '.')) && strncasecmp(host, "localhost", 9) == 0)
		return true;
	if (inet_pton(AF_INET, host, a) == 1)
		return a[0] == 127;
	if (inet_pton(AF_INET6, host, a) == 1)
	{
		static const unsigned char lo[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
		static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

		return memcmp(a, lo, 16) == 0 || (memcmp(a, mapped, 12) == 0 && a[12] == 127);
	}
	return false;
}

bool
ch_hosts_all_loopback(const ch_endpoint *eps, int n)
{
	int			i;

	if (n <= 0)
		return false;
	for (i = 0; i < n; i++)
		if (!ch_host_is_loopback(eps[i].host))
			return false;
	return true;
}

const char *
ch_load_balancing_name(ch_load_balancing lb)
{
	switch (lb)
	{
		case CH_LB_RANDOM:
			return "random";
		case CH_LB_ROUND_ROBIN:
			return "round_robin";
		default:
			return "in_order";
	}
}

/* ---- process-wide state ---- */

#define DOWN_SLOTS 64
#define RR_SLOTS 32

typedef struct down_host
{
	char		host[254];
	int			port;
	uint64_t	until_ns;		/* 0: free */
} down_host;

typedef struct rr_slot
{
	uint64_t	key;			/* hash of the host list; 0: free */
	uint32_t	next;
} rr_slot;

static down_host down_hosts[DOWN_SLOTS];
static rr_slot rr_slots[RR_SLOTS];
static uint64_t rng_state;

void
ch_hosts_forget(void)
{
	memset(down_hosts, 0, sizeof(down_hosts));
	memset(rr_slots, 0, sizeof(rr_slots));
}

static down_host *
find_down(const char *host, int port)
{
	int			i;

	for (i = 0; i < DOWN_SLOTS; i++)
		if (down_hosts[i].until_ns != 0 && down_hosts[i].port == port &&
			strcmp(down_hosts[i].host, host) == 0)
			return &down_hosts[i];
	return NULL;
}

bool
ch_host_marked_down(const char *host, int port)
{
	down_host  *d = find_down(host, port);

	return d && d->until_ns > ch_conn_now_ns();
}

static void
mark_down(const ch_endpoint *ep)
{
	uint64_t	now = ch_conn_now_ns();
	down_host  *d = find_down(ep->host, ep->port);
	int			i;

	if (!d)
	{
		d = &down_hosts[0];
		for (i = 0; i < DOWN_SLOTS; i++)
		{
			if (down_hosts[i].until_ns <= now)
			{
				d = &down_hosts[i];
				break;
			}
			if (down_hosts[i].until_ns < d->until_ns)
				d = &down_hosts[i];
		}
		snprintf(d->host, sizeof(d->host), "%s", ep->host);
		d->port = ep->port;
	}
	d->until_ns = now + (uint64_t) CH_HOST_DOWN_MS * 1000000u;
}

static void
mark_up(const ch_endpoint *ep)
{
	down_host  *d = find_down(ep->host, ep->port);

	if (d)
		d->until_ns = 0;
}

static uint64_t
next_random(void)
{
	/* xorshift64*, seeded once per process: spreading, not secrecy */
	if (rng_state == 0)
		rng_state = (ch_conn_now_ns() ^ ((uint64_t) getpid() << 32) ^ (uint64_t) (uintptr_t) &rng_state) | 1;
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static uint64_t
list_key(const ch_conn *c)
{
	uint64_t	h = 1469598103934665603ull;	/* FNV-1a */
	int			i;
	const char *p;

	for (i = 0; i < c->nhosts; i++)
	{
		for (p = c->hosts[i].host; *p; p++)
			h = (h ^ (uint8_t) *p) * 1099511628211ull;
		h = (h ^ (uint64_t) c->hosts[i].port) * 1099511628211ull;
	}
	return h ? h : 1;
}

static uint32_t
round_robin_next(const ch_conn *c)
{
	uint64_t	key = list_key(c);
	rr_slot    *s = &rr_slots[key % RR_SLOTS];

	if (s->key != key)
	{
		s->key = key;
		s->next = 0;
	}
	return s->next++;
}

/* ---- choosing ---- */

static ch_status
use_host(ch_conn *c, int i, ch_error *err)
{
	if (i == c->cur)
		return CH_OK;
	c->cur = i;
	c->endpoint = c->hosts[i];
	/* a new host has its own version: connect (and probe) afresh */
	memset(&c->caps, 0, sizeof(c->caps));
	memset(&c->info, 0, sizeof(c->info));
	if (c->ops && c->ops->retarget)
		return c->ops->retarget(c, err);
	return CH_OK;
}

/*
 * The host to try: the first, in the balancing order starting at `from`,
 * that this request has not tried and that is not marked down; else the
 * first one not tried; -1 when every host was tried.
 */
static int
choose(ch_conn *c, int from, bool random_order)
{
	int			k;
	int			fallback = -1;
	int			up[CH_MAX_HOSTS];
	int			nup = 0;

	for (k = 0; k < c->nhosts; k++)
	{
		int			i = (from + k) % c->nhosts;

		if (c->tried & (1u << i))
			continue;
		if (!ch_host_marked_down(c->hosts[i].host, c->hosts[i].port))
			up[nup++] = i;
		else if (fallback < 0)
			fallback = i;
	}
	if (nup > 0)
		return random_order ? up[next_random() % (uint64_t) nup] : up[0];
	return fallback;
}

static int
first_choice(ch_conn *c)
{
	switch (c->cfg.load_balancing)
	{
		case CH_LB_RANDOM:
			return choose(c, 0, true);
		case CH_LB_ROUND_ROBIN:
			return choose(c, (int) (round_robin_next(c) % (uint32_t) c->nhosts), false);
		default:
			return choose(c, 0, false);
	}
}

ch_status
ch_hosts_init(ch_conn *c, const ch_conn_config *cfg, ch_error *err)
{
	int			i;

	if (cfg->nendpoints > CH_MAX_HOSTS)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "at most %d hosts, not %d",
							CH_MAX_HOSTS, cfg->nendpoints);
	if (cfg->load_balancing != CH_LB_IN_ORDER && cfg->load_balancing != CH_LB_RANDOM &&
		cfg->load_balancing != CH_LB_ROUND_ROBIN)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "unknown load balancing %d",
							(int) cfg->load_balancing);
	for (i = 0; i < cfg->nendpoints; i++)
	{
		const ch_endpoint *e = &cfg->endpoints[i];

		if (!e->host || !e->host[0] || e->port <= 0 || e->port > 65535)
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"host %d of the connection has no name or no valid port", i + 1);
		c->hosts[i].host = ch_arena_strndup(&c->cfg_arena, e->host, strlen(e->host));
		c->hosts[i].port = e->port;
		if (!c->hosts[i].host)
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	}
	c->nhosts = cfg->nendpoints;
	c->cfg.endpoints = c->hosts;
	c->cfg.nendpoints = c->nhosts;
	c->cur = 0;
	c->endpoint = c->hosts[0];
	return CH_OK;
}

void
ch_hosts_new_request(ch_conn *c)
{
	c->tried = 0;
	c->insert_rows = 0;
	c->host_errors[0] = '\0';
}

ch_status
ch_hosts_before_connect(ch_conn *c, ch_error *err)
{
	int			i;

	/* during a failover ch_hosts_failed has chosen already */
	if (c->nhosts <= 1 || c->tried != 0)
		return CH_OK;
	i = first_choice(c);
	return i >= 0 ? use_host(c, i, err) : CH_OK;
}

/* SQL that only reads: its first keyword (after spaces and comments) */
static bool
read_only_sql(const char *sql, size_t len)
{
	static const char *const words[] = {"SELECT", "WITH", "SHOW", "DESCRIBE", "DESC", "EXISTS"};
	size_t		i = 0;
	size_t		w;

	for (;;)
	{
		while (i < len && isspace((unsigned char) sql[i]))
			i++;
		if (i + 1 < len && sql[i] == '-' && sql[i + 1] == '-')
		{
			while (i < len && sql[i] != '\n')
				i++;
		}
		else if (i + 1 < len && sql[i] == '/' && sql[i + 1] == '*')
		{
			const char *e = NULL;
			size_t		j;

			for (j = i + 2; j + 1 < len; j++)
				if (sql[j] == '*' && sql[j + 1] == '/')
				{
					e = sql + j;
					break;
				}
			if (!e)
				return false;
			i = (size_t) (e - sql) + 2;
		}
		else
			break;
	}
	if (i < len && sql[i] == '(')
		return true;
	for (w = 0; w < sizeof(words) / sizeof(words[0]); w++)
	{
		size_t		n = strlen(words[w]);

		if (i + n <= len && strncasecmp(sql + i, words[w], n) == 0 &&
			(i + n == len || !(isalnum((unsigned char) sql[i + n]) || sql[i + n] == '_')))
			return true;
	}
	return false;
}

static void
note_failure(ch_conn *c, const ch_error *err)
{
	size_t		used = strlen(c->host_errors);

	if (used + 8 >= sizeof(c->host_errors))
		return;
	snprintf(c->host_errors + used, sizeof(c->host_errors) - used, "%s%.100s:%d: %.300s",
			 used ? "; " : "", c->endpoint.host, c->endpoint.port,
			 err && err->message[0] ? err->message : "failed");
}

/* every host failed this request: say so, naming them */
static void
all_failed(ch_conn *c, ch_error *err)
{
	char		names[CH_ERROR_MESSAGE_MAX - 64];
	size_t		used = 0;
	int			i;

	if (!err)
		return;
	names[0] = '\0';
	for (i = 0; i < c->nhosts && used + 1 < sizeof(names); i++)
	{
		int			n = snprintf(names + used, sizeof(names) - used, "%s%s%.100s%s:%d",
								 i ? ", " : "", strchr(c->hosts[i].host, ':') ? "[" : "",
								 c->hosts[i].host, strchr(c->hosts[i].host, ':') ? "]" : "",
								 c->hosts[i].port);

		if (n < 0 || (size_t) n >= sizeof(names) - used)
			break;
		used += (size_t) n;
	}
	snprintf(err->message, sizeof(err->message), "none of the %d ClickHouse hosts answered (%.*s)",
			 c->nhosts, (int) used, names);
	snprintf(err->detail, sizeof(err->detail), "%.900s", c->host_errors);
}

/* the data of an insert may have reached the server: say what and where */
static void
insert_may_be_written(ch_conn *c, ch_error *err)
{
	char		was[sizeof(err->detail)];

	if (!err)
		return;
	snprintf(was, sizeof(was), "%s", err->detail);
	snprintf(err->detail, sizeof(err->detail),
			 "%llu rows of this insert were sent to ClickHouse at %.100s:%d before the failure: it may "
			 "have written some, all or none of them; nothing was sent to another host.%s%.600s",
			 (unsigned long long) c->insert_rows, c->endpoint.host, c->endpoint.port,
			 was[0] ? " " : "", was);
}

bool
ch_hosts_failed(ch_conn *c, conn_phase was, ch_status st, ch_error *err)
{
	bool		network = st == CH_ERR_CONNECT || st == CH_ERR_NETWORK || st == CH_ERR_TIMEOUT;
	bool		retry = false;
	bool		down = network;
	int			next;

	if (c->nhosts <= 1 || !network)
		return false;
	switch (was)
	{
		case PH_CONNECT:
		case PH_PING:
			retry = true;
			break;
		case PH_QUERY:
			/* a receive timeout is a slow query, not a dead host */
			down = st != CH_ERR_TIMEOUT;
			/* no row handed out yet (a native 0-row header may have been) */
			retry = down && c->stats.rows_received == 0 &&
				(st == CH_ERR_CONNECT || read_only_sql(c->req.sql, c->req.sql_len));
			break;
		case PH_INSERT_START:
			/* native: the sample block had not come, no data was sent */
			retry = st != CH_ERR_TIMEOUT;
			break;
		case PH_INSERT_FINISH:
			/* HTTP: libcurl could not connect, the body was not sent */
			retry = c->cfg.kind == CH_TRANSPORT_HTTP && st == CH_ERR_CONNECT;
			break;
		default:
			break;
	}
	if (down)
		mark_down(&c->endpoint);
	note_failure(c, err);
	c->tried |= 1u << c->cur;
	if (!retry)
	{
		if (was == PH_INSERT_READY || was == PH_INSERT_FINISH)
			insert_may_be_written(c, err);
		return false;
	}
	next = c->cfg.load_balancing == CH_LB_IN_ORDER ? choose(c, 0, false) :
		choose(c, (c->cur + 1) % c->nhosts, c->cfg.load_balancing == CH_LB_RANDOM);
	if (next < 0)
	{
		all_failed(c, err);
		return false;
	}
	ch_error_clear(err);
	if (use_host(c, next, err) != CH_OK)
		return false;
	c->failovers++;
	return true;
}

/* a request worked on the current host: it is up again */
void
ch_hosts_succeeded(ch_conn *c)
{
	if (c->nhosts > 1)
		mark_up(&c->endpoint);
}

/* ---- public state ---- */

const ch_endpoint *
ch_conn_host(const ch_conn *c)
{
	return &c->endpoint;
}

uint64_t
ch_conn_failover_count(const ch_conn *c)
{
	return c->failovers;
}

ch_status
ch_conn_kill(const ch_conn *c, long timeout_ms, ch_error *err)
{
	ch_conn_config cfg = c->cfg;

	cfg.endpoints = &c->endpoint;
	cfg.nendpoints = 1;
	return ch_conn_kill_query(c->a, &cfg, c->query_id, timeout_ms, err);
}
