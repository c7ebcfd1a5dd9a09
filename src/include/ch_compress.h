/*-------------------------------------------------------------------------
 * ch_compress.h
 *	  ClickHouse compressed-block framing: CityHash128 v1.0.2 checksums,
 *	  frame encoding (NONE, LZ4, ZSTD) and an incremental decoder for a
 *	  stream of frames.
 *
 * Frame layout (../shared/docs/clickhouse-wire.md section 3; ClickHouse's
 * src/Compression/CompressedReadBufferBase.cpp, CompressionInfo.h):
 *
 *	offset	size  field
 *	0		16	  checksum: CityHash128 v1.0.2 of bytes [16, 16 + compressed_size),
 *				  lo half then hi half, each little-endian
 *	16		1	  method byte: 0x02 NONE, 0x82 LZ4, 0x90 ZSTD
 *	17		4	  compressed_size, UInt32 LE = 9 + payload size
 *	21		4	  decompressed_size, UInt32 LE
 *	25		...   payload (compressed_size - 9 bytes)
 *
 * Frames are a byte stream: a sender may cut its data anywhere (ClickHouse
 * cuts every ~1 MiB and at the end of each block), so a reader must hand the
 * decompressed bytes to a stream parser, not assume one frame = one block.
 *
 * Invariants:
 *	- No PostgreSQL header; nothing aborts or longjmps.
 *	- All memory comes from a ch_allocator (the output ch_buf's allocator
 *	  when compressing, the decompressor's when decompressing, including
 *	  libzstd's contexts).
 *	- Failures return a ch_status with details in a caller-owned ch_error
 *	  (which may be NULL).
 *
 * src/include/ch_compress.h
 *-------------------------------------------------------------------------
 */
#ifndef CH_COMPRESS_H
#define CH_COMPRESS_H

#include "ch_common.h"
#include "ch_wait.h"			/* ch_sink_fn */

/* ---- CityHash128 v1.0.2 ---- */

/*
 * ch_cityhash128
 *		CityHash128 as ClickHouse uses it (Google CityHash v1.0.2; later
 *		versions give different results).
 *
 * data:	 the input; may be NULL when len is 0. No alignment needed.
 * lo, hi:	 receive the low and high 64-bit halves of the result. In a frame
 *			 they are stored as lo (LE) then hi (LE); ClickHouse prints them
 *			 in error messages as 16 hex digits of lo, then 16 of hi.
 * Never fails; pure function of the bytes (host byte order independent).
 */
void		ch_cityhash128(const void *data, size_t len, uint64_t *lo,
						   uint64_t *hi);

/* ---- frame constants ---- */

#define CH_FRAME_CHECKSUM_SIZE	16
#define CH_FRAME_HEADER_SIZE	9	/* method + compressed + decompressed */
#define CH_FRAME_OVERHEAD		(CH_FRAME_CHECKSUM_SIZE + CH_FRAME_HEADER_SIZE)

/* ClickHouse's DBMS_MAX_COMPRESSED_SIZE; also our decompressed_size limit */
#define CH_FRAME_MAX_COMPRESSED		UINT32_C(0x40000000)
#define CH_FRAME_MAX_DECOMPRESSED	UINT32_C(0x40000000)

/* chunk size of ch_compress_frames (ClickHouse's max_compress_block_size) */
#define CH_FRAME_CHUNK				((size_t) 1 << 20)

/* method bytes */
#define CH_METHOD_BYTE_NONE		0x02
#define CH_METHOD_BYTE_LZ4		0x82
#define CH_METHOD_BYTE_ZSTD		0x90

typedef enum ch_compress_method
{
	CH_COMPRESS_NONE,			/* 0x02: payload is the data itself */
	CH_COMPRESS_LZ4,			/* 0x82: one raw LZ4 block (no LZ4 frame) */
	CH_COMPRESS_ZSTD			/* 0x90: one zstd frame */
} ch_compress_method;

/* ---- compression ---- */

/*
 * ch_compress_frame
 *		Append one complete frame holding src[0..len) to out.
 *
 * out:		an initialised ch_buf; its allocator is used for everything,
 *			including libzstd's context. On any failure out->len is left
 *			as it was (nothing is appended; capacity may have grown).
 * m:		the method. LZ4 uses LZ4_compress_default().
 * level:	ZSTD only: the zstd level, ZSTD_minCLevel()..ZSTD_maxCLevel();
 *			0 means zstd's default (3). Ignored for NONE and LZ4.
 * src:		may be NULL when len is 0. len 0 gives a valid frame with
 *			decompressed_size 0 (ClickHouse never sends one; prefer
 *			ch_compress_frames, which sends nothing for len 0).
 * len:		at most CH_FRAME_MAX_DECOMPRESSED (1 GiB); and the frame's
 *			compressed_size must come out at most CH_FRAME_MAX_COMPRESSED,
 *			which for incompressible data means len <= 1 GiB - 9 (NONE)
 *			or somewhat less (LZ4, ZSTD). Keep frames small anyway: the
 *			receiver must buffer a whole frame before it can verify it.
 *
 * Returns CH_OK; CH_ERR_INVALID_ARGUMENT (bad method or level, NULL src
 * with len > 0); CH_ERR_LIMIT (len or resulting size over the limits);
 * CH_ERR_NOMEM; CH_ERR_INTERNAL (the library failed).
 */
ch_status	ch_compress_frame(ch_buf *out, ch_compress_method m, int level,
							  const void *src, size_t len, ch_error *err);

/*
 * ch_compress_frames
 *		Append src[0..len) to out as consecutive frames of at most
 *		CH_FRAME_CHUNK (1 MiB) decompressed bytes each, any length.
 *
 * Same parameters and errors as ch_compress_frame, except that len is not
 * limited and len 0 appends nothing. All or nothing: on failure out->len is
 * restored. This is what the server expects for a block (TCP) or a request
 * body (HTTP decompress=1): it reads the frames as one byte stream.
 */
ch_status	ch_compress_frames(ch_buf *out, ch_compress_method m, int level,
							   const void *src, size_t len, ch_error *err);

/* ---- decompression ---- */

typedef struct ch_decompressor ch_decompressor;

/*
 * ch_decompressor_create
 *		A decoder for one stream of frames. a NULL means malloc/free.
 *		Returns NULL if out of memory.
 */
ch_decompressor *ch_decompressor_create(const ch_allocator *a);

/*
 * ch_decompressor_feed
 *		Consume len bytes of the frame stream, cut anywhere; pass the
 *		decompressed bytes of every frame completed by them to sink.
 *
 * Each frame is checked in this order, before anything is allocated for it:
 *	1. compressed_size >= 9 (else CH_ERR_MALFORMED) and
 *	   <= CH_FRAME_MAX_COMPRESSED, decompressed_size <=
 *	   CH_FRAME_MAX_DECOMPRESSED (else CH_ERR_LIMIT), as soon as the
 *	   header is there;
 *	2. once the whole frame is there: the checksum (CH_ERR_CHECKSUM; the
 *	   message gives the expected and computed values as hex lo/hi), so a
 *	   corrupted frame never reaches the decompressor or the sink;
 *	3. the method byte (CH_ERR_UNSUPPORTED naming it; only a frame with a
 *	   valid checksum gets here, so corruption is reported as corruption);
 *	4. decompression must succeed and produce exactly decompressed_size
 *	   bytes (CH_ERR_DECOMPRESS; for NONE the sizes must agree,
 *	   CH_ERR_MALFORMED).
 * Then sink(sink_ctx, data, decompressed_size, err) is called once per
 * frame with decompressed_size > 0; the data is valid only during the call
 * (it may point into the caller's input for NONE frames). A status other
 * than CH_OK from sink stops the feed and is returned.
 *
 * err->offset is the stream offset of the failing frame's first byte.
 * Errors are sticky: after one, feed and finish return it again.
 * Memory: at most one frame's compressed bytes (only when it arrives in
 * pieces; that buffer grows with the bytes actually received, so a claimed
 * 1 GiB frame costs nothing until its bytes come) plus its decompressed
 * bytes are held at a time; buffers over 4 MiB are released after use.
 * The decompressed length is checked exactly for every method; ClickHouse
 * 18.16 itself does not (it trusts decompressed_size for NONE and LZ4).
 * data may be NULL when len is 0; sink must not be NULL.
 */
ch_status	ch_decompressor_feed(ch_decompressor *d, const void *data, size_t len,
								 ch_sink_fn sink, void *sink_ctx, ch_error *err);

/*
 * ch_decompressor_feed_some
 *		ch_decompressor_feed with a budget: once the frames decoded in this
 *		call gave max_out or more bytes to the sink, it returns CH_OK before
 *		starting the next frame, with *consumed < len; the caller feeds
 *		data + *consumed later. A frame is never split, so one call may give
 *		up to max_out - 1 plus one frame's decompressed_size bytes. This is
 *		how a caller bounds the work (and the memory downstream) of one call
 *		when a few bytes of frames expand to gigabytes.
 * *consumed is set on every return (on error: what was taken before it).
 */
ch_status	ch_decompressor_feed_some(ch_decompressor *d, const void *data,
									  size_t len, size_t max_out, size_t *consumed,
									  ch_sink_fn sink, void *sink_ctx, ch_error *err);

/*
 * ch_decompressor_set_max_frame
 *		Lower the limit on a frame's decompressed_size (default and maximum
 *		CH_FRAME_MAX_DECOMPRESSED; 0 restores the default). A frame over it
 *		fails with CH_ERR_LIMIT as soon as its header arrives, before any
 *		allocation. Kept across ch_decompressor_reset.
 */
void		ch_decompressor_set_max_frame(ch_decompressor *d, uint64_t max_dsize);

/*
 * ch_decompressor_finish
 *		End of the stream: CH_OK if it ended at a frame boundary (also for an
 *		empty stream), CH_ERR_TRUNCATED if part of a frame is left over, or
 *		the sticky error of an earlier failure.
 */
ch_status	ch_decompressor_finish(ch_decompressor *d, ch_error *err);

/*
 * ch_decompressor_reset
 *		Forget any partial frame and sticky error, keeping the buffers, so the
 *		decoder can read a new stream.
 */
void		ch_decompressor_reset(ch_decompressor *d);

/* Free the decoder and everything it holds. NULL is allowed. */
void		ch_decompressor_free(ch_decompressor *d);

#endif							/* CH_COMPRESS_H */
