/*-------------------------------------------------------------------------
 * ch_tcp_proto.h
 *	  ClickHouse native TCP protocol: packet encoders for what a client
 *	  sends and an incremental decoder for what a server sends. Pure byte
 *	  work: no sockets (src/transport/tcp.c does the I/O), no PostgreSQL.
 *
 * Layouts follow ClickHouse's sources: src/Core/Protocol.h (packet
 * types), src/Core/ProtocolDefines.h (the revision gates below),
 * src/Client/Connection.cpp (sendHello, sendAddendum, sendQuery,
 * sendData, receiveHello), src/Server/TCPHandler.cpp (receiveHello,
 * sendHello, receiveQuery, sendProgress, sendProfileInfo, sendException,
 * sendEndOfStream, sendLogs, sendTableColumns, sendProfileEvents),
 * src/Interpreters/ClientInfo.cpp (ClientInfo::write / read),
 * src/Core/BaseSettings.h (settings as strings with flags),
 * src/IO/Progress.cpp (ProgressValues::write), src/QueryPipeline/
 * ProfileInfo.cpp (ProfileInfo::write), src/Formats/NativeWriter.cpp (the
 * per-column custom serialization flag), src/Core/BlockInfo.cpp, and the
 * project's docs/wire notes section 4.
 *
 * Revisions: a client announces a revision; both sides then use
 * rev = min(client, server) to decide which optional fields exist. Every
 * function here takes that negotiated rev (and the ServerHello parser the
 * announced one, since the server gates its hello on the client's
 * revision). The encoders and the decoder handle every gate listed below
 * up to CH_TCP_REVISION_MAX; the transport announces CH_TCP_REVISION,
 * the highest revision whose every feature it implements.
 *
 * src/include/ch_tcp_proto.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_TCP_PROTO_H
#define CH_TCP_PROTO_H

#include "ch_common.h"
#include "ch_compress.h"
#include "ch_native.h"

/* ---- revision gates (ClickHouse src/Core/ProtocolDefines.h) ---- */
#define CH_REV_TEMPORARY_TABLES			50264	/* Data: table name */
#define CH_REV_TOTAL_ROWS_IN_PROGRESS	51554
#define CH_REV_BLOCK_INFO				51903
#define CH_REV_CLIENT_INFO				54032
#define CH_REV_SERVER_TIMEZONE			54058
#define CH_REV_QUOTA_KEY_IN_CLIENT_INFO 54060
#define CH_REV_SERVER_DISPLAY_NAME		54372
#define CH_REV_VERSION_PATCH			54401
#define CH_REV_LOW_CARDINALITY			54405
#define CH_REV_SERVER_LOGS				54406
#define CH_REV_COLUMN_DEFAULTS_METADATA 54410
#define CH_REV_CLIENT_WRITE_INFO		54420	/* Progress written_* */
#define CH_REV_SETTINGS_AS_STRINGS		54429
#define CH_REV_INTERSERVER_SECRET		54441
#define CH_REV_OPENTELEMETRY			54442
#define CH_REV_DISTRIBUTED_DEPTH		54448
#define CH_REV_INITIAL_QUERY_START_TIME 54449
#define CH_REV_INCREMENTAL_PROFILE_EVENTS 54451
#define CH_REV_PARALLEL_REPLICAS		54453
#define CH_REV_CUSTOM_SERIALIZATION		54454
#define CH_REV_PROFILE_EVENTS_IN_INSERT 54456
#define CH_REV_ADDENDUM					54458	/* quota key after hello */
#define CH_REV_PARAMETERS				54459
#define CH_REV_SERVER_QUERY_TIME_IN_PROGRESS 54460
#define CH_REV_PASSWORD_COMPLEXITY_RULES 54461
#define CH_REV_INTERSERVER_SECRET_V2	54462	/* hello nonce */
#define CH_REV_TOTAL_BYTES_IN_PROGRESS	54463
#define CH_REV_TIMEZONE_UPDATES			54464
#define CH_REV_SPARSE_SERIALIZATION		54465
#define CH_REV_SSH_AUTHENTICATION		54466
#define CH_REV_ROWS_BEFORE_AGGREGATION	54469
#define CH_REV_CHUNKED_PACKETS			54470
#define CH_REV_VERSIONED_PARALLEL_REPLICAS 54471
#define CH_REV_EXTERNALLY_GRANTED_ROLES 54472
#define CH_REV_SERVER_SETTINGS			54474
#define CH_REV_QUERY_AND_LINE_NUMBERS	54475
#define CH_REV_JWT_IN_INTERSERVER		54476
#define CH_REV_QUERY_PLAN_SERIALIZATION 54477
#define CH_REV_PARALLEL_BLOCK_MARSHALLING 54478
#define CH_REV_VERSIONED_CLUSTER_FUNCTION 54479
#define CH_REV_OUT_OF_ORDER_BUCKETS		54480
#define CH_REV_COMPRESSED_LOGS_PROFILE_EVENTS 54481
#define CH_REV_CLIENT_AGENT				54485

/* ClickHouse 18.16.1 */
#define CH_TCP_REVISION_18_16			54412
/*
 * What the transport announces: every feature up to it is implemented
 * (54460 is also ch-go's choice). Above it come sparse columns (54465),
 * which this client would have to decode.
 */
#define CH_TCP_REVISION					54460
/* The highest revision the encoders and the decoder lay out. */
#define CH_TCP_REVISION_MAX				54485

/* ---- packet types (ClickHouse src/Core/Protocol.h) ---- */
typedef enum ch_tcp_client_packet
{
	CH_CP_HELLO = 0,
	CH_CP_QUERY = 1,
	CH_CP_DATA = 2,
	CH_CP_CANCEL = 3,
	CH_CP_PING = 4
} ch_tcp_client_packet;

typedef enum ch_tcp_server_packet
{
	CH_SP_HELLO = 0,
	CH_SP_DATA = 1,
	CH_SP_EXCEPTION = 2,
	CH_SP_PROGRESS = 3,
	CH_SP_PONG = 4,
	CH_SP_END_OF_STREAM = 5,
	CH_SP_PROFILE_INFO = 6,
	CH_SP_TOTALS = 7,
	CH_SP_EXTREMES = 8,
	CH_SP_TABLES_STATUS = 9,
	CH_SP_LOG = 10,
	CH_SP_TABLE_COLUMNS = 11,
	CH_SP_PART_UUIDS = 12,
	CH_SP_READ_TASK_REQUEST = 13,
	CH_SP_PROFILE_EVENTS = 14,
	CH_SP_TIMEZONE_UPDATE = 17
} ch_tcp_server_packet;

/* ---- client packets ---- */

typedef struct ch_tcp_hello_out
{
	const char *client_name;
	const char *os_user;		/* ClientInfo; NULL: "" */
	const char *hostname;		/* ClientInfo; NULL: "" */
	uint64_t	version_major;
	uint64_t	version_minor;
	uint64_t	version_patch;	/* goes in ClientInfo */
	uint32_t	revision;		/* announced */
	const char *database;		/* "" or NULL: server default */
	const char *user;
	const char *password;
} ch_tcp_hello_out;

/* Append a ClientHello (type 0). */
ch_status	ch_tcp_write_hello(ch_buf *out, const ch_tcp_hello_out *h);

/* Append the addendum that follows ServerHello when rev >= 54458. */
ch_status	ch_tcp_write_addendum(ch_buf *out, uint32_t rev);

typedef struct ch_tcp_setting
{
	const char *name;
	const char *value;
	bool		important;		/* flag 0x01 (rev >= 54429): the server must
								 * know the setting */
} ch_tcp_setting;

typedef struct ch_tcp_query_out
{
	const char *query_id;		/* NULL: "" */
	const ch_tcp_hello_out *client; /* ClientInfo: name, versions, announced
									 * revision */
	const ch_tcp_setting *settings;
	int			nsettings;
	const ch_tcp_setting *params;	/* query parameters, rev >= 54459
									 * (values are sent as quoted literals) */
	int			nparams;
	bool		compression;	/* blocks of this query travel in frames */
	const char *sql;
	size_t		sql_len;
} ch_tcp_query_out;

/*
 * ch_tcp_write_query
 *		Append a Query packet (type 1) at negotiated revision rev.
 *		Settings below 54429 use the old binary encoding, where each value
 *		has its setting's own type: a value of decimal digits only is
 *		written as VarUInt (UInt64, Bool, Seconds, Milliseconds settings),
 *		anything else as String (string, enum and float settings), as
 *		ClickHouse 18.16's SettingsCommon.h reads them. Parameters below
 *		54459 are CH_ERR_UNSUPPORTED.
 */
ch_status	ch_tcp_write_query(ch_buf *out, uint32_t rev, const ch_tcp_query_out *q,
							   ch_error *err);

/*
 * ch_tcp_write_data
 *		Append a Data packet (type 2, table name "") holding the TCP-layout
 *		block block[0..len) (BlockInfo first, as ch_tcp_reframe_block makes
 *		it), compressed into frames with method m unless !compression.
 */
ch_status	ch_tcp_write_data(ch_buf *out, uint32_t rev, bool compression,
							  ch_compress_method m, int level,
							  const uint8_t *block, size_t len, ch_error *err);

/* The same with a table name: an external table's block (wire notes 4.7). */
ch_status	ch_tcp_write_table_data(ch_buf *out, uint32_t rev, const char *table,
									bool compression, ch_compress_method m, int level,
									const uint8_t *block, size_t len, ch_error *err);

/* Append an empty Data block (the end of external tables / insert data). */
ch_status	ch_tcp_write_empty_data(ch_buf *out, uint32_t rev, bool compression,
									ch_compress_method m, ch_error *err);

/*
 * ch_tcp_reframe_block
 *		Turn a Native block in the HTTP layout (revision 0: no BlockInfo, no
 *		serialization flags) into the TCP layout at rev: BlockInfo
 *		(is_overflows 0, bucket_num -1) in front, and from rev 54454 a 0
 *		byte (no custom serialization) after every column's type. Appends to
 *		out. The input must be exactly one block (CH_ERR_MALFORMED
 *		otherwise).
 */
ch_status	ch_tcp_reframe_block(ch_buf *out, uint32_t rev, const uint8_t *native,
								 size_t len, ch_error *err);

/* ---- server packets ---- */

typedef struct ch_tcp_server_hello
{
	char		name[64];
	uint64_t	version_major;
	uint64_t	version_minor;
	uint64_t	version_patch;
	uint64_t	revision;		/* the server's own */
	uint64_t	parallel_replicas_protocol; /* rev >= 54471 */
	char		timezone[64];
	char		display_name[128];
	char		send_chunked[32];	/* rev >= 54470 */
	char		recv_chunked[32];
	uint64_t	npassword_rules;	/* rev >= 54461 (skipped) */
	uint64_t	nonce;			/* rev >= 54462 */
	uint64_t	nserver_settings;	/* rev >= 54474 (skipped) */
	uint64_t	query_plan_serialization;	/* rev >= 54477 */
	uint64_t	cluster_function_protocol;	/* rev >= 54479 */
} ch_tcp_server_hello;

typedef struct ch_tcp_progress
{
	uint64_t	read_rows;		/* increments since the previous Progress */
	uint64_t	read_bytes;
	uint64_t	total_rows_to_read;
	uint64_t	total_bytes_to_read;	/* rev >= 54463 */
	uint64_t	written_rows;	/* rev >= 54420 */
	uint64_t	written_bytes;
	uint64_t	elapsed_ns;		/* rev >= 54460 */
} ch_tcp_progress;

typedef struct ch_tcp_profile_info
{
	uint64_t	rows;
	uint64_t	blocks;
	uint64_t	bytes;
	bool		applied_limit;
	uint64_t	rows_before_limit;
	bool		calculated_rows_before_limit;
	bool		applied_aggregation;	/* rev >= 54469 */
	uint64_t	rows_before_aggregation;
} ch_tcp_profile_info;

/* One decoded server packet. */
typedef struct ch_tcp_packet
{
	ch_tcp_server_packet type;
	ch_block   *block;			/* DATA, TOTALS, EXTREMES, LOG,
								 * PROFILE_EVENTS: valid until the next
								 * ch_tcp_decoder_next */
	ch_tcp_server_hello hello;	/* HELLO */
	ch_tcp_progress progress;	/* PROGRESS */
	ch_tcp_profile_info profile;	/* PROFILE_INFO */
	const uint8_t *text;		/* TABLE_COLUMNS description, TIMEZONE_UPDATE
								 * zone; valid until the next
								 * ch_tcp_decoder_next or _feed */
	size_t		text_len;
	/* EXCEPTION: in the ch_error of ch_tcp_decoder_next (CH_ERR_SERVER) */
} ch_tcp_packet;

typedef struct ch_tcp_decoder ch_tcp_decoder;

/* a NULL: malloc. lim NULL: ch_native_reader's defaults. NULL if no memory. */
ch_tcp_decoder *ch_tcp_decoder_create(const ch_allocator *a, const ch_native_limits *lim);
void		ch_tcp_decoder_free(ch_tcp_decoder *d);

/*
 * ch_tcp_decoder_set
 *		rev: the negotiated revision (before the hello: the announced one,
 *		which is what the ServerHello layout depends on). compression: the
 *		current query's blocks come in frames. Takes effect at the next
 *		packet.
 */
void		ch_tcp_decoder_set(ch_tcp_decoder *d, uint32_t rev, bool compression);

/* Append received bytes (copied). */
ch_status	ch_tcp_decoder_feed(ch_tcp_decoder *d, const void *data, size_t len,
								ch_error *err);

/*
 * Receive straight into the decoder's input, without a copy through the
 * caller's buffer: ch_tcp_decoder_space gives room for at least want bytes
 * at *dst (valid until the next call on d); ch_tcp_decoder_commit(d, n)
 * appends the first n (<= want) of them.
 */
ch_status	ch_tcp_decoder_space(ch_tcp_decoder *d, size_t want, uint8_t **dst,
								 ch_error *err);
void		ch_tcp_decoder_commit(ch_tcp_decoder *d, size_t n);

/* The connection closed: no more bytes will come. */
void		ch_tcp_decoder_finish(ch_tcp_decoder *d);

/*
 * ch_tcp_decoder_next
 *		Decode the next server packet.
 *	CH_OK		  *pkt holds it;
 *	CH_NEED_MORE  feed more bytes (never after finish);
 *	CH_END		  finished at a packet boundary;
 *	CH_ERR_SERVER an Exception packet: err has server_code, server_name,
 *				  message (the class name prefix removed) and, in detail, the
 *				  start of the server's stack trace; the decoder goes on
 *				  with the next packet;
 *	other errors  malformed, truncated (after finish), unknown packet
 *				  type, over a limit, bad checksum: sticky.
 * An unknown packet type is CH_ERR_PROTOCOL: no packet has a length, so
 * nothing after it can be read.
 */
ch_status	ch_tcp_decoder_next(ch_tcp_decoder *d, ch_tcp_packet *pkt, ch_error *err);

/* Bytes fed and not yet consumed by a decoded packet. */
size_t		ch_tcp_decoder_buffered(const ch_tcp_decoder *d);

/* Stream offset just after the last packet decoded (0 before any). */
uint64_t	ch_tcp_decoder_offset(const ch_tcp_decoder *d);

/*
 * ch_tcp_parse_exception
 *		Parse the body of an Exception packet (after the type byte) from rd
 *		into err (CH_ERR_SERVER on success, CH_NEED_MORE when incomplete,
 *		CH_ERR_MALFORMED / CH_ERR_LIMIT). Nested exceptions are read; the
 *		outermost is reported.
 */
ch_status	ch_tcp_parse_exception(ch_rd *rd, ch_error *err);

#endif							/* CH_TCP_PROTO_H */
