/*-------------------------------------------------------------------------
 * tcp.c
 *	  The native TCP implementation of ch_transport.h: a non-blocking socket
 *	  and the packet codec of ch_tcp_proto.h.
 *
 * Exchanges (ClickHouse src/Client/Connection.cpp and
 * src/Server/TCPHandler.cpp; the project's wire notes section 4):
 *	connect	 Hello -> ServerHello (or Exception), then the Addendum when
 *			 the negotiated revision is >= 54458;
 *	query	 Query, empty Data block (ends the external tables; the server
 *			 does not start before it) -> Data (header, then rows),
 *			 Progress, ProfileInfo, Totals, Extremes, Log, ProfileEvents
 *			 in any order -> EndOfStream, or Exception;
 *	insert	 Query "INSERT ... VALUES", empty Data block -> [TableColumns]
 *			 Data (the sample block); then Data blocks, an empty Data block
 *			 -> EndOfStream or Exception;
 *	cancel	 Cancel while a query runs; the server ends with EndOfStream
 *			 (18.16) or an exception (newer), after blocks it had made;
 *	ping	 Ping -> Pong.
 * Compression (the Query's flag) applies to the blocks of Data packets in
 * both directions; frames are checked (CityHash128) by ch_compress.c.
 *
 * Never blocks: sends and receives what the socket takes, then reports the
 * socket and the time left before receive_timeout_ms (or the connect
 * timeout) in a ch_wait. DNS resolution (getaddrinfo) is the exception.
 * TLS (secure, port 9440): OpenSSL on the same non-blocking socket, the
 * server's certificate verified against ca_file or the system CAs and the
 * host name (or IP address) checked; SSL_ERROR_WANT_READ / WANT_WRITE turn
 * into the ch_wait. A process using it must ignore SIGPIPE (PostgreSQL
 * backends do), since OpenSSL writes with write().
 *
 * src/transport/tcp.c
 *-------------------------------------------------------------------------
 */
#include "transport_int.h"
#include "ch_tcp_proto.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include <strings.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#define RECV_CHUNK		(128 * 1024)
#define RECV_PER_STEP	(4 * 1024 * 1024)	/* then let the caller run */
#define CLIENT_MAJOR	1
#define CLIENT_MINOR	0
#define CLIENT_PATCH	0

typedef enum sock_state
{
	SS_CLOSED,
	SS_CONNECTING,				/* connect() in progress */
	SS_TLS,						/* TLS handshake in progress */
	SS_HELLO,					/* Hello sent, waiting for the answer */
	SS_READY
} sock_state;

typedef struct tcp_impl
{
	int			fd;
	sock_state	ss;
	uint32_t	announced;		/* revision in our Hello */
	uint32_t	rev;			/* negotiated */
	ch_buf		out;			/* queued bytes; [out_pos, len) unsent */
	size_t		out_pos;
	ch_buf		tmp;			/* reframed insert block */
	ch_tcp_decoder *dec;
	ch_tcp_packet pkt;
	bool		eof;			/* the server closed its side */
	uint64_t	deadline_ns;	/* connect deadline, 0: none */
	uint64_t	last_rx_ns;		/* for receive_timeout_ms */
	bool		compression;	/* of the current query */
	ch_compress_method method;
	bool		cancelled;
	bool		got_data;		/* a Data packet of this request arrived */
	bool		have_schema;
	const ch_block *schema;		/* the insert's sample block */
	ch_tcp_hello_out hello;
	SSL_CTX    *ssl_ctx;		/* secure only */
	SSL		   *ssl;
	bool		ssl_want_write; /* the last TLS call wants the socket writable */
} tcp_impl;

#define IMPL(c) ((tcp_impl *) (c)->impl)

static const char *tls_reason(int e);

static void
close_socket(ch_conn *c)
{
	tcp_impl   *t = IMPL(c);

	if (t->ssl)
		SSL_free(t->ssl);		/* no close_notify: the socket just goes */
	t->ssl = NULL;
	t->ssl_want_write = false;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->ss = SS_CLOSED;
	t->out.len = 0;
	t->out_pos = 0;
	t->eof = false;
	t->have_schema = false;
	t->schema = NULL;
	/* a fresh decoder: the old stream's bytes are meaningless now */
	ch_tcp_decoder_free(t->dec);
	t->dec = ch_tcp_decoder_create(c->a, &c->limits);
}

/* fail the request and drop the connection */
static ch_status
broken(ch_conn *c, ch_status st)
{
	close_socket(c);
	ch_conn_request_done(c);
	return st;
}

static const char *
where(const ch_conn *c, char *buf, size_t n)
{
	snprintf(buf, n, "%s:%d", c->endpoint.host, c->endpoint.port);
	return buf;
}

static ch_status
start_connect(ch_conn *c, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	struct addrinfo hints,
			   *res = NULL,
			   *ai;
	char		port[16];
	char		w[300];
	int			rc;
	int			fd = -1;
	int			saved = 0;

	if (!t->dec && !(t->dec = ch_tcp_decoder_create(c->a, &c->limits)))
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%d", c->endpoint.port);
	rc = getaddrinfo(c->endpoint.host, port, &hints, &res);
	if (rc != 0)
		return ch_error_set(err, CH_ERR_CONNECT, "could not resolve ClickHouse host \"%s\": %s",
							c->endpoint.host, gai_strerror(rc));
	for (ai = res; ai; ai = ai->ai_next)
	{
		int			one = 1;

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
					ai->ai_protocol);
		if (fd < 0)
		{
			saved = errno;
			continue;
		}
		(void) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		(void) setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return ch_error_set(err, CH_ERR_CONNECT, "could not connect to ClickHouse at %s: %s",
							where(c, w, sizeof(w)), strerror(saved));
	t->fd = fd;
	t->ss = SS_CONNECTING;
	t->deadline_ns = ch_conn_now_ns() + (uint64_t) c->cfg.connect_timeout_ms * 1000000u;
	c->connects++;

	/* queue the Hello: it goes out once the socket is writable */
	t->hello.client_name = c->cfg.client_name;
	t->hello.version_major = CLIENT_MAJOR;
	t->hello.version_minor = CLIENT_MINOR;
	t->hello.version_patch = CLIENT_PATCH;
	t->hello.revision = t->announced;
	t->hello.database = c->cfg.database;
	t->hello.user = c->cfg.user;
	t->hello.password = c->cfg.password;
	if (ch_tcp_write_hello(&t->out, &t->hello) != CH_OK)
		return broken(c, ch_error_set(err, CH_ERR_NOMEM, "out of memory"));
	ch_tcp_decoder_set(t->dec, t->announced, false);
	return CH_OK;
}

/* send what the socket takes; CH_OK also when some is left */
static ch_status
flush_out(ch_conn *c, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	char		w[300];

	while (t->out_pos < t->out.len)
	{
		ssize_t		n;

		if (t->ssl)
		{
			int			r;

			ERR_clear_error();
			r = SSL_write(t->ssl, t->out.data + t->out_pos, (int) (t->out.len - t->out_pos > INT32_MAX ?
																	INT32_MAX : t->out.len - t->out_pos));
			if (r > 0)
				n = r;
			else
			{
				int			e = SSL_get_error(t->ssl, r);

				if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ)
					break;
				return ch_error_set(err, CH_ERR_NETWORK, "could not send to ClickHouse at %s over TLS: %s",
									where(c, w, sizeof(w)), tls_reason(e));
			}
		}
		else
			n = send(t->fd, t->out.data + t->out_pos, t->out.len - t->out_pos, MSG_NOSIGNAL);
		if (n > 0)
		{
			t->out_pos += (size_t) n;
			c->stats.bytes_sent += (uint64_t) n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			break;
		return ch_error_set(err, CH_ERR_NETWORK, "could not send to ClickHouse at %s: %s",
							where(c, w, sizeof(w)), n < 0 ? strerror(errno) : "connection closed");
	}
	if (t->out_pos == t->out.len)
	{
		t->out.len = 0;
		t->out_pos = 0;
	}
	return CH_OK;
}

/* receive what has arrived (bounded per call); *got says whether any did */
static ch_status
fill_in(ch_conn *c, bool *got, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	size_t		total = 0;
	char		w[300];

	*got = false;
	if (t->eof)
		return CH_OK;
	while (total < RECV_PER_STEP)
	{
		ssize_t		n;
		uint8_t    *buf;
		ch_status	st;

		/* received straight into the decoder's buffer (no second copy) */
		if ((st = ch_tcp_decoder_space(t->dec, RECV_CHUNK, &buf, err)) != CH_OK)
			return st;
		if (t->ssl)
		{
			int			r;

			ERR_clear_error();
			r = SSL_read(t->ssl, buf, RECV_CHUNK);
			if (r > 0)
				n = r;
			else
			{
				int			e = SSL_get_error(t->ssl, r);

				if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
				{
					t->ssl_want_write = e == SSL_ERROR_WANT_WRITE;
					break;
				}
				if (e == SSL_ERROR_ZERO_RETURN)
					n = 0;
				else if (e == SSL_ERROR_SYSCALL && ERR_peek_error() == 0)
					n = 0;		/* the peer closed without close_notify */
				else
					return ch_error_set(err, CH_ERR_NETWORK,
										"could not receive from ClickHouse at %s over TLS: %s",
										where(c, w, sizeof(w)), tls_reason(e));
			}
		}
		else
			n = recv(t->fd, buf, RECV_CHUNK, 0);
		if (n > 0)
		{
			ch_tcp_decoder_commit(t->dec, (size_t) n);
			total += (size_t) n;
			c->stats.bytes_received += (uint64_t) n;
			*got = true;
			continue;
		}
		if (n == 0)
		{
			t->eof = true;
			ch_tcp_decoder_finish(t->dec);
			*got = true;
			break;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			break;
		return ch_error_set(err, CH_ERR_NETWORK, "could not receive from ClickHouse at %s: %s",
							where(c, w, sizeof(w)), strerror(errno));
	}
	if (*got)
		t->last_rx_ns = ch_conn_now_ns();
	return CH_OK;
}

static ch_status
set_wait(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	uint64_t	now = ch_conn_now_ns();
	char		w[300];

	wait->nsockets = 1;
	wait->fd[0] = t->fd;
	wait->want_read[0] = t->ss != SS_CONNECTING;
	wait->want_write[0] = t->ss == SS_CONNECTING || t->out_pos < t->out.len || t->ssl_want_write;
	wait->timeout_ms = -1;
	if (t->ss == SS_CONNECTING || t->ss == SS_TLS || t->ss == SS_HELLO)
	{
		if (now >= t->deadline_ns)
			return ch_error_set(err, CH_ERR_TIMEOUT, "timed out connecting to ClickHouse at %s",
								where(c, w, sizeof(w)));
		wait->timeout_ms = (long) ((t->deadline_ns - now) / 1000000u) + 1;
	}
	else if (c->cfg.receive_timeout_ms > 0)
	{
		uint64_t	dl = t->last_rx_ns + (uint64_t) c->cfg.receive_timeout_ms * 1000000u;

		if (now >= dl)
			return ch_error_set(err, CH_ERR_TIMEOUT,
								"no data from ClickHouse at %s for %ld ms",
								where(c, w, sizeof(w)), c->cfg.receive_timeout_ms);
		wait->timeout_ms = (long) ((dl - now) / 1000000u) + 1;
	}
	return CH_OK;
}

static const char *
tls_reason(int e)
{
	unsigned long l = ERR_peek_last_error();

	if (l != 0)
		return ERR_reason_error_string(l) ? ERR_reason_error_string(l) : "TLS error";
	if (e == SSL_ERROR_SYSCALL)
		return errno ? strerror(errno) : "connection closed";
	return "TLS error";
}

/* a TLS client on the connected socket, verifying the server */
static ch_status
tls_start(ch_conn *c, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	struct in6_addr a6;
	struct in_addr a4;
	bool		is_ip = inet_pton(AF_INET, c->endpoint.host, &a4) == 1 ||
		inet_pton(AF_INET6, c->endpoint.host, &a6) == 1;
	char		w[300];

	if (!t->ssl_ctx)
	{
		t->ssl_ctx = SSL_CTX_new(TLS_client_method());
		if (!t->ssl_ctx)
			return ch_error_set(err, CH_ERR_NOMEM, "could not create a TLS context");
		SSL_CTX_set_min_proto_version(t->ssl_ctx, TLS1_2_VERSION);
		SSL_CTX_set_verify(t->ssl_ctx, SSL_VERIFY_PEER, NULL);
		if (c->cfg.ca_file && c->cfg.ca_file[0])
		{
			if (SSL_CTX_load_verify_locations(t->ssl_ctx, c->cfg.ca_file, NULL) != 1)
			{
				SSL_CTX_free(t->ssl_ctx);
				t->ssl_ctx = NULL;
				return ch_error_set(err, CH_ERR_CONNECT, "could not load the CA file \"%s\"",
									c->cfg.ca_file);
			}
		}
		else if (SSL_CTX_set_default_verify_paths(t->ssl_ctx) != 1)
			return ch_error_set(err, CH_ERR_CONNECT, "could not load the system CAs");
	}
	t->ssl = SSL_new(t->ssl_ctx);
	if (!t->ssl || SSL_set_fd(t->ssl, t->fd) != 1)
		return ch_error_set(err, CH_ERR_NOMEM, "could not create a TLS connection");
	SSL_set_mode(t->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (is_ip)
	{
		if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(t->ssl), c->endpoint.host) != 1)
			return ch_error_set(err, CH_ERR_CONNECT, "bad address %s", where(c, w, sizeof(w)));
	}
	else
	{
		SSL_set_tlsext_host_name(t->ssl, c->endpoint.host);
		if (SSL_set1_host(t->ssl, c->endpoint.host) != 1)
			return ch_error_set(err, CH_ERR_CONNECT, "bad host name %s", where(c, w, sizeof(w)));
	}
	return CH_OK;
}

static ch_status
tls_handshake(ch_conn *c, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	int			r,
				e;
	char		w[300];

	ERR_clear_error();
	r = SSL_connect(t->ssl);
	if (r == 1)
	{
		t->ssl_want_write = false;
		return CH_OK;
	}
	e = SSL_get_error(t->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
	{
		t->ssl_want_write = e == SSL_ERROR_WANT_WRITE;
		return CH_NEED_MORE;
	}
	ch_error_set(err, CH_ERR_CONNECT, "TLS connection to ClickHouse at %s failed",
				 where(c, w, sizeof(w)));
	if (err)
	{
		long		v = SSL_get_verify_result(t->ssl);

		snprintf(err->detail, sizeof(err->detail), "%s",
				 v != X509_V_OK ? X509_verify_cert_error_string(v) : tls_reason(e));
	}
	return CH_ERR_CONNECT;
}

/*
 * The next packet: CH_OK (in t->pkt), CH_NEED_MORE (*wait filled), or an
 * error (CH_ERR_SERVER keeps the connection; others close it).
 */
static ch_status
next_packet(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	char		w[300];

	for (;;)
	{
		ch_status	st;
		bool		got;

		if (t->ss == SS_CONNECTING)
		{
			int			soerr = 0;
			socklen_t	len = sizeof(soerr);
			struct sockaddr_storage ss;
			socklen_t	sl = sizeof(ss);

			if (getpeername(t->fd, (struct sockaddr *) &ss, &sl) != 0)
			{
				if (errno != ENOTCONN)
					return broken(c, ch_error_set(err, CH_ERR_CONNECT,
												  "could not connect to ClickHouse at %s: %s",
												  where(c, w, sizeof(w)), strerror(errno)));
				(void) getsockopt(t->fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
				if (soerr != 0)
					return broken(c, ch_error_set(err, CH_ERR_CONNECT,
												  "could not connect to ClickHouse at %s: %s",
												  where(c, w, sizeof(w)), strerror(soerr)));
				if ((st = set_wait(c, wait, err)) != CH_OK)
					return broken(c, st);
				return CH_NEED_MORE;
			}
			t->ss = c->cfg.secure ? SS_TLS : SS_HELLO;
			t->last_rx_ns = ch_conn_now_ns();
			if (c->cfg.secure && (st = tls_start(c, err)) != CH_OK)
				return broken(c, st);
		}
		if (t->ss == SS_TLS)
		{
			st = tls_handshake(c, err);
			if (st == CH_NEED_MORE)
			{
				if ((st = set_wait(c, wait, err)) != CH_OK)
					return broken(c, st);
				wait->want_read[0] = !t->ssl_want_write;
				return CH_NEED_MORE;
			}
			if (st != CH_OK)
				return broken(c, st);
			t->ss = SS_HELLO;
		}
		if ((st = flush_out(c, err)) != CH_OK)
		{
			/* the server may have said why before it closed */
			ch_error	e2;

			ch_error_clear(&e2);
			if (fill_in(c, &got, &e2) == CH_OK &&
				ch_tcp_decoder_next(t->dec, &t->pkt, &e2) == CH_ERR_SERVER)
				*err = e2;
			return broken(c, err ? err->code : st);
		}
		st = ch_tcp_decoder_next(t->dec, &t->pkt, err);
		if (st == CH_OK || st == CH_ERR_SERVER)
			return st;
		if (st == CH_END)
			return broken(c, ch_error_set(err, CH_ERR_NETWORK,
										  "ClickHouse at %s closed the connection",
										  where(c, w, sizeof(w))));
		if (st != CH_NEED_MORE)
			return broken(c, st);
		if ((st = fill_in(c, &got, err)) != CH_OK)
			return broken(c, st);
		if (got)
			continue;
		if ((st = set_wait(c, wait, err)) != CH_OK)
			return broken(c, st);
		return CH_NEED_MORE;
	}
}

static void
add_progress(ch_conn *c, const ch_tcp_progress *p)
{
	ch_request_stats *s = &c->stats;

	s->read_rows += p->read_rows;
	s->read_bytes += p->read_bytes;
	s->total_rows_to_read += p->total_rows_to_read;
	s->written_rows += p->written_rows;
	s->written_bytes += p->written_bytes;
	s->server_elapsed_ns += p->elapsed_ns;
	s->have_server_counters = true;
}

/* Packets that may come at any time; true if handled. */
static bool
side_packet(ch_conn *c, const ch_tcp_packet *p)
{
	switch (p->type)
	{
		case CH_SP_PROGRESS:
			add_progress(c, &p->progress);
			return true;
		case CH_SP_PROFILE_INFO:
			c->stats.result_rows = p->profile.rows;
			c->stats.result_bytes = p->profile.bytes;
			c->stats.have_server_counters = true;
			return true;
		case CH_SP_LOG:
		case CH_SP_PROFILE_EVENTS:
		case CH_SP_TABLE_COLUMNS:
		case CH_SP_TIMEZONE_UPDATE:
		case CH_SP_PART_UUIDS:
			return true;
		default:
			return false;
	}
}

/*
 * A server exception ended the request. Before the first Data packet the
 * server may have failed in the middle of reading our Query (an 18.16
 * with a setting it cannot parse reads the rest as new packets), so the
 * stream may be out of step: close it, the next request reconnects. After
 * data, the exception is the server's last word and the connection stays
 * (wire notes 6.1).
 */
static void
server_exception_done(ch_conn *c)
{
	tcp_impl   *t = IMPL(c);

	if (!t->got_data)
		close_socket(c);
	ch_conn_request_done(c);
}

static ch_status
unexpected(ch_conn *c, const ch_tcp_packet *p, ch_error *err)
{
	return broken(c, ch_error_set(err, CH_ERR_PROTOCOL,
								  "unexpected packet of type %d from ClickHouse", (int) p->type));
}

/* ---- connect ---- */

static ch_status
connect_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st = next_packet(c, wait, err);
	const ch_tcp_server_hello *h = &t->pkt.hello;

	if (st == CH_ERR_SERVER)
		return broken(c, st);	/* e.g. a wrong password: the server hangs up */
	if (st != CH_OK)
		return st;
	if (t->pkt.type != CH_SP_HELLO)
		return unexpected(c, &t->pkt, err);
	t->rev = h->revision < t->announced ? (uint32_t) h->revision : t->announced;
	ch_caps_from_version(&c->caps, CH_TRANSPORT_NATIVE, (int) h->version_major,
						 (int) h->version_minor, (int) h->version_patch, t->rev);
	memset(&c->info, 0, sizeof(c->info));
	snprintf(c->info.name, sizeof(c->info.name), "%s", h->name);
	snprintf(c->info.display_name, sizeof(c->info.display_name), "%s", h->display_name);
	snprintf(c->info.timezone, sizeof(c->info.timezone), "%s", h->timezone);
	snprintf(c->info.version, sizeof(c->info.version), "%d.%d.%d", (int) h->version_major,
			 (int) h->version_minor, (int) h->version_patch);
	c->info.server_revision = (uint32_t) h->revision;
	if (ch_tcp_write_addendum(&t->out, t->rev) != CH_OK)
		return broken(c, ch_error_set(err, CH_ERR_NOMEM, "out of memory"));
	ch_tcp_decoder_set(t->dec, t->rev, false);
	t->ss = SS_READY;
	if ((st = flush_out(c, err)) != CH_OK)
		return broken(c, st);
	return CH_OK;
}

/* ---- queries and inserts ---- */

static ch_status
queue_query(ch_conn *c, const char *suffix, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_tcp_query_out q;
	ch_tcp_setting *s = NULL;
	ch_tcp_setting *p = NULL;
	ch_arena	tmp;
	ch_buf		sql;
	int			n = c->req.nsettings;
	int			i;
	ch_status	st;
	ch_compression comp = c->req.compression;

	ch_arena_init(&tmp, c->a);
	ch_buf_init(&sql, c->a);
	t->compression = comp != CH_COMPRESSION_NONE;
	t->method = comp == CH_COMPRESSION_ZSTD ? CH_COMPRESS_ZSTD : CH_COMPRESS_LZ4;
	s = ch_arena_alloc(&tmp, sizeof(ch_tcp_setting) * (size_t) (n + 1));
	if (!s)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	for (i = 0; i < n; i++)
	{
		s[i].name = c->req.settings[i].name;
		s[i].value = c->req.settings[i].value;
		s[i].important = false;
	}
	if (comp == CH_COMPRESSION_ZSTD && !c->req.insert)
	{
		s[n].name = "network_compression_method";
		s[n].value = "zstd";	/* 18.16 knows only the lower-case names */
		s[n].important = false;
		n++;
	}
	if (c->req.nparams > 0 && !c->caps.query_parameters)
	{
		ch_arena_free(&tmp);
		return ch_error_set(err, CH_ERR_UNSUPPORTED,
							"ClickHouse %s (protocol revision %u) has no query parameters",
							c->info.version, t->rev);
	}
	if (c->req.nparams > 0)
	{
		p = ch_arena_alloc(&tmp, sizeof(ch_tcp_setting) * (size_t) c->req.nparams);
		if (!p)
		{
			ch_arena_free(&tmp);
			return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
		}
		for (i = 0; i < c->req.nparams; i++)
		{
			ch_buf		v;

			ch_buf_init(&v, c->a);
			if (ch_escape_param(&v, c->req.params[i].value, true) != CH_OK ||
				!(p[i].value = ch_arena_strndup(&tmp, (const char *) v.data, v.len - 1)))
			{
				ch_buf_free(&v);
				ch_arena_free(&tmp);
				return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
			}
			ch_buf_free(&v);
			p[i].name = c->req.params[i].name;
			p[i].important = false;
		}
	}
	st = ch_buf_append(&sql, c->req.sql, c->req.sql_len);
	if (st == CH_OK && suffix)
		st = ch_buf_append(&sql, suffix, strlen(suffix));
	memset(&q, 0, sizeof(q));
	q.query_id = c->query_id;
	q.client = &t->hello;
	q.settings = s;
	q.nsettings = n;
	q.params = p;
	q.nparams = p ? c->req.nparams : 0;
	q.compression = t->compression;
	q.sql = (const char *) sql.data;
	q.sql_len = sql.len;
	if (st == CH_OK)
		st = ch_tcp_write_query(&t->out, t->rev, &q, err);
	/* external tables, then the empty block that ends their list */
	for (i = 0; st == CH_OK && i < c->req.nexternal; i++)
	{
		ch_buf_reset(&t->tmp);
		st = ch_tcp_reframe_block(&t->tmp, t->rev, c->req.external[i].native,
								  c->req.external[i].len, err);
		if (st == CH_OK)
			st = ch_tcp_write_table_data(&t->out, t->rev, c->req.external[i].name, t->compression,
										 t->method, 0, t->tmp.data, t->tmp.len, err);
	}
	if (st == CH_OK)
		st = ch_tcp_write_empty_data(&t->out, t->rev, t->compression, t->method, err);
	ch_buf_free(&sql);
	ch_arena_free(&tmp);
	if (st != CH_OK)
	{
		if (err && err->code == CH_OK)
			ch_error_set(err, st, "could not build the query");
		return st;
	}
	ch_tcp_decoder_set(t->dec, t->rev, t->compression);
	t->cancelled = false;
	t->got_data = false;
	t->have_schema = false;
	t->schema = NULL;
	t->last_rx_ns = ch_conn_now_ns();
	return CH_OK;
}

static ch_status
tcp_begin(ch_conn *c, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st;

	switch (c->phase)
	{
		case PH_CONNECT:
			if (t->ss != SS_CLOSED)
				close_socket(c);
			return start_connect(c, err);
		case PH_QUERY:
			st = queue_query(c, NULL, err);
			break;
		case PH_INSERT_START:
			st = queue_query(c, " VALUES", err);
			break;
		case PH_PING:
			st = ch_buf_append_varuint(&t->out, CH_CP_PING);
			break;
		default:
			return ch_error_set(err, CH_ERR_INTERNAL, "unexpected phase %d", (int) c->phase);
	}
	if (st != CH_OK)
		return st;
	if ((st = flush_out(c, err)) != CH_OK)
		return broken(c, st);
	return CH_OK;
}

/* packets skipped (side packets, empty blocks) before a step yields */
#define MAX_PACKETS_PER_STEP 256

/*
 * The next packet of a request that is not a side packet (Progress, Log,
 * ProfileInfo, ...: side_packet handles those), in t->pkt. A server
 * exception ends the request (server_exception_done) and is returned as
 * CH_ERR_SERVER.
 */
static ch_status
next_main_packet(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	int			skipped;

	for (skipped = 0;; skipped++)
	{
		ch_status	st;

		/*
		 * A server that sends nothing but side packets (endless Progress)
		 * must not keep the caller from its interrupts: come back now and
		 * then, with no socket to wait for (test/fault/tcp_fault_test.sh).
		 */
		if (skipped >= MAX_PACKETS_PER_STEP)
		{
			wait->nsockets = 0;
			wait->timeout_ms = 0;
			return CH_NEED_MORE;
		}
		st = next_packet(c, wait, err);
		if (st == CH_ERR_SERVER)
			server_exception_done(c);
		if (st != CH_OK)
			return st;
		if (!side_packet(c, &t->pkt))
			return CH_OK;
	}
}

/* The statement is an INSERT (its first word, after spaces and comments). */
static bool
is_insert_sql(const char *sql)
{
	const char *p = sql;

	for (;;)
	{
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '(')
			p++;
		if (p[0] == '-' && p[1] == '-')
		{
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*')
		{
			const char *e = strstr(p + 2, "*/");

			if (!e)
				return false;
			p = e + 2;
			continue;
		}
		break;
	}
	return strncasecmp(p, "insert", 6) == 0 &&
		(p[6] == ' ' || p[6] == '\t' || p[6] == '\n' || p[6] == '\r');
}

static ch_status
tcp_next_block(ch_conn *c, const ch_block **out, ch_block_kind *kind, ch_wait *wait,
			   ch_error *err)
{
	tcp_impl   *t = IMPL(c);

	*kind = CH_BLOCK_DATA;
	for (int skipped = 0;; skipped++)
	{
		ch_status	st;
		const ch_tcp_packet *p = &t->pkt;

		/* endless empty (or cancelled) blocks: as in next_main_packet */
		if (skipped >= MAX_PACKETS_PER_STEP)
		{
			wait->nsockets = 0;
			wait->timeout_ms = 0;
			return CH_NEED_MORE;
		}
		st = next_main_packet(c, wait, err);

		if (st == CH_ERR_SERVER && t->cancelled)
			return CH_END;		/* newer servers: QUERY_WAS_CANCELLED */
		if (st != CH_OK)
			return st;
		/*
		 * An INSERT sent as a query: the server sends the table's sample
		 * block and waits for the rows as blocks (older servers do not read
		 * inline VALUES from the query text over TCP; TCPHandler's
		 * processInsertQuery). Closing the connection makes it drop the
		 * insert, so nothing is written by half.
		 */
		if (p->type == CH_SP_DATA && !t->got_data && p->block->ncols > 0 &&
			is_insert_sql(c->req.sql))
			return broken(c, ch_error_set(err, CH_ERR_UNSUPPORTED,
										  "ClickHouse wants the rows of this INSERT as data blocks over the native protocol"));
		if (p->type == CH_SP_DATA)
			t->got_data = true;
		switch (p->type)
		{
			case CH_SP_DATA:
			case CH_SP_TOTALS:
			case CH_SP_EXTREMES:
				if (t->cancelled)
					continue;
				if (p->type != CH_SP_DATA && !c->req.want_totals_extremes)
					continue;
				/* the empty block (no columns) before EndOfStream */
				if (p->block->ncols == 0 && p->block->nrows == 0)
					continue;
				*kind = p->type == CH_SP_DATA ? CH_BLOCK_DATA :
					p->type == CH_SP_TOTALS ? CH_BLOCK_TOTALS : CH_BLOCK_EXTREMES;
				c->stats.blocks_received++;
				c->stats.rows_received += p->block->nrows;
				*out = p->block;
				return CH_OK;
			case CH_SP_END_OF_STREAM:
				ch_conn_request_done(c);
				return CH_END;
			default:
				return unexpected(c, p, err);
		}
	}
}

static ch_status
push_blocks(ch_conn *c, ch_wait *wait, ch_error *err)
{
	for (;;)
	{
		const ch_block *b;
		ch_block_kind kind;
		ch_status	st = tcp_next_block(c, &b, &kind, wait, err);

		if (st == CH_END)
			return CH_OK;
		if (st != CH_OK)
			return st;
		st = c->req.on_block(c->req.on_block_ctx, b, kind, err);
		if (st != CH_OK)
			return broken(c, st);
	}
}

/* INSERT: until the sample block */
static ch_status
insert_start_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st = next_main_packet(c, wait, err);

	if (st != CH_OK)
		return st;
	if (t->pkt.type != CH_SP_DATA)
		return unexpected(c, &t->pkt, err);
	t->got_data = true;
	/* valid until the next packet is read: at finish */
	t->schema = t->pkt.block;
	t->have_schema = true;
	c->phase = PH_INSERT_READY;
	return CH_OK;
}

static ch_status
flush_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st = flush_out(c, err);

	if (st != CH_OK)
	{
		ch_error	e2;
		bool		got;

		ch_error_clear(&e2);
		if (fill_in(c, &got, &e2) == CH_OK &&
			ch_tcp_decoder_next(t->dec, &t->pkt, &e2) == CH_ERR_SERVER && err)
			*err = e2;
		return broken(c, err ? err->code : st);
	}
	if (t->out_pos == t->out.len)
		return CH_OK;
	if ((st = set_wait(c, wait, err)) != CH_OK)
		return broken(c, st);
	wait->want_read[0] = false;
	wait->timeout_ms = -1;
	return CH_NEED_MORE;
}

static ch_status
insert_finish_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st = next_main_packet(c, wait, err);

	if (st != CH_OK)
		return st;
	if (t->pkt.type != CH_SP_END_OF_STREAM)
		return unexpected(c, &t->pkt, err);
	ch_conn_request_done(c);
	return CH_OK;
}

static ch_status
ping_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st = next_packet(c, wait, err);

	if (st == CH_ERR_SERVER)
		return broken(c, st);
	if (st != CH_OK)
		return st;
	if (t->pkt.type != CH_SP_PONG)
		return unexpected(c, &t->pkt, err);
	ch_conn_request_done(c);
	return CH_OK;
}

static ch_status
tcp_step(ch_conn *c, ch_wait *wait, ch_error *err)
{
	switch (c->phase)
	{
		case PH_CONNECT:
			return connect_step(c, wait, err);
		case PH_QUERY:
			return push_blocks(c, wait, err);
		case PH_INSERT_START:
			return insert_start_step(c, wait, err);
		case PH_INSERT_READY:
			return flush_step(c, wait, err);
		case PH_INSERT_FINISH:
			return insert_finish_step(c, wait, err);
		case PH_PING:
			return ping_step(c, wait, err);
		default:
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT, "no request in progress");
	}
}

static ch_status
tcp_insert_block(ch_conn *c, const uint8_t *native, size_t len, uint64_t nrows,
				 ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st;

	(void) nrows;
	ch_buf_reset(&t->tmp);
	st = ch_tcp_reframe_block(&t->tmp, t->rev, native, len, err);
	if (st == CH_OK)
		st = ch_tcp_write_data(&t->out, t->rev, t->compression, t->method, c->req.zstd_level,
							   t->tmp.data, t->tmp.len, err);
	if (t->tmp.cap > ((size_t) 16 << 20))
		ch_buf_free(&t->tmp);	/* do not keep a huge buffer around */
	if (st != CH_OK)
		return st;
	return flush_out(c, err) == CH_OK ? CH_OK : broken(c, err ? err->code : CH_ERR_NETWORK);
}

static ch_status
tcp_insert_finish(ch_conn *c, ch_error *err)
{
	tcp_impl   *t = IMPL(c);
	ch_status	st = ch_tcp_write_empty_data(&t->out, t->rev, t->compression, t->method, err);

	t->schema = NULL;
	t->have_schema = false;
	if (st != CH_OK)
		return broken(c, st);
	if (flush_out(c, err) != CH_OK)
		return broken(c, err ? err->code : CH_ERR_NETWORK);
	return CH_OK;
}

static const ch_block *
tcp_insert_schema(const ch_conn *c)
{
	const tcp_impl *t = c->impl;

	return t->have_schema ? t->schema : NULL;
}

static ch_status
tcp_cancel(ch_conn *c, long timeout_ms, ch_error *err)
{
	tcp_impl   *t = IMPL(c);

	(void) timeout_ms;
	if (c->phase != PH_QUERY)
	{
		/* an insert cannot be cancelled mid-way: drop the connection */
		close_socket(c);
		ch_conn_request_done(c);
		return CH_OK;
	}
	if (t->cancelled)
		return CH_OK;
	t->cancelled = true;
	if (ch_buf_append_varuint(&t->out, CH_CP_CANCEL) != CH_OK)
		return broken(c, ch_error_set(err, CH_ERR_NOMEM, "out of memory"));
	if (flush_out(c, err) != CH_OK)
		return broken(c, err ? err->code : CH_ERR_NETWORK);
	return CH_OK;
}

static void
tcp_abort(ch_conn *c)
{
	close_socket(c);
}

/* hosts.c moved c->endpoint: the next connect goes there */
static ch_status
tcp_retarget(ch_conn *c, ch_error *err)
{
	(void) err;
	close_socket(c);
	return CH_OK;
}

static bool
tcp_connected(const ch_conn *c)
{
	const tcp_impl *t = c->impl;

	return t->ss == SS_READY;
}

/*
 * An idle connection whose server has gone: its socket is readable with
 * nothing asked (end of stream, a reset, or bytes the server sent on its
 * own, such as TLS's close_notify). One non-blocking peek, no wait.
 */
bool
ch_tcp_peer_gone(const ch_conn *c)
{
	const tcp_impl *t = c->impl;
	uint8_t		b;
	ssize_t		n;

	if (!t || t->ss != SS_READY || t->fd < 0)
		return false;
	n = recv(t->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

static void
tcp_destroy(ch_conn *c)
{
	tcp_impl   *t = IMPL(c);

	if (!t)
		return;
	if (t->ssl)
		SSL_free(t->ssl);
	if (t->ssl_ctx)
		SSL_CTX_free(t->ssl_ctx);
	if (t->fd >= 0)
		close(t->fd);
	ch_tcp_decoder_free(t->dec);
	ch_buf_free(&t->out);
	ch_buf_free(&t->tmp);
	ch_free(c->a, t);
	c->impl = NULL;
}

static const conn_ops tcp_ops = {
	tcp_begin, tcp_next_block, tcp_step, tcp_insert_block, tcp_insert_finish,
	tcp_insert_schema, tcp_cancel, tcp_abort, tcp_connected, tcp_destroy, tcp_retarget
};

ch_status
ch_tcp_transport_init(ch_conn *c, ch_error *err)
{
	tcp_impl   *t = ch_alloc(c->a, sizeof(tcp_impl));

	if (!t)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	c->impl = t;
	c->ops = &tcp_ops;
	ch_buf_init(&t->out, c->a);
	ch_buf_init(&t->tmp, c->a);
	t->announced = c->cfg.tcp_revision ? c->cfg.tcp_revision : CH_TCP_REVISION;
	if (t->announced > CH_TCP_REVISION_MAX)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"protocol revision %u is above the highest this client lays out (%d)",
							t->announced, CH_TCP_REVISION_MAX);
	t->dec = ch_tcp_decoder_create(c->a, &c->limits);
	if (!t->dec)
		return ch_error_set(err, CH_ERR_NOMEM, "out of memory");
	return CH_OK;
}
