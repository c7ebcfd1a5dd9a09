/*-------------------------------------------------------------------------
 * ch_compress.c
 *	  ClickHouse compressed frames: encoder (NONE, LZ4, ZSTD) and an
 *	  incremental, bounds-checked decoder for a stream of frames.
 *
 * Design:
 *	- Encoding writes the frame in place at the end of the output ch_buf
 *	  (reserve the worst case, compress behind a 25-byte hole, fill in the
 *	  header, then checksum header + payload), so there is no extra copy.
 *	- Decoding works on whole frames. A frame that lies completely inside
 *	  the bytes handed to one feed call is decoded straight from them; only a
 *	  frame split across calls is copied into a buffer (first its 25 header
 *	  bytes into a fixed array, then, once the sizes are validated, the rest
 *	  into a buffer that grows with the bytes received, up to the frame's
 *	  size). So at most one frame is buffered, nothing is allocated for a
 *	  frame whose header fails the limits, and a damaged compressed_size
 *	  costs no more memory than the bytes that really arrive.
 *	- The checksum is verified before the method byte is even looked at:
 *	  any damage to a frame is reported as CH_ERR_CHECKSUM and no corrupted
 *	  bytes reach a decompressor or the sink. (ClickHouse checks the method
 *	  first; the order only changes which error a damaged frame gets.)
 *	- The decompressed length must come out exactly; 18.16 does not check
 *	  it for NONE or LZ4 (a NONE frame with a valid checksum and a
 *	  decompressed_size over its payload crashes it), so we cannot rely on
 *	  the server to have produced consistent frames either.
 *	- libzstd's contexts get the allocator through ZSTD_customMem (the
 *	  "advanced" API, stable since zstd 1.0 and exported by libzstd.so).
 *
 * Wire layout: ../shared/docs/clickhouse-wire.md section 3 and ClickHouse's
 * src/Compression/CompressedReadBufferBase.cpp (readCompressedData) and
 * CompressedWriteBuffer.cpp.
 *
 * src/codec/ch_compress.c
 *-------------------------------------------------------------------------
 */
#include "ch_compress.h"

#include <inttypes.h>

#include <lz4.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_customMem, ZSTD_create*_advanced */
#include <zstd.h>
#include <zstd_errors.h>		/* ZSTD_getErrorCode */

/* decoder buffers bigger than this are released after each frame */
#define KEEP_BUFFER_MAX ((size_t) 4 << 20)
#define MIN_BUFFER ((size_t) 4096)

#define OFF_METHOD 16
#define OFF_CSIZE 17
#define OFF_DSIZE 21

/* ---------------------------------------------------------------- encoder */

static ZSTD_CCtx *
create_cctx(const ch_allocator *a)
{
	ZSTD_customMem cm;

	cm.customAlloc = a->alloc;
	cm.customFree = a->free;
	cm.opaque = a->ctx;
	return ZSTD_createCCtx_advanced(cm);
}

/*
 * Check the arguments shared by ch_compress_frame and ch_compress_frames.
 */
static ch_status
check_args(ch_buf *out, ch_compress_method m, int level, const void *src,
		   size_t len, ch_error *err)
{
	if (out == NULL)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"no output buffer for compressed frames");
	if (src == NULL && len > 0)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"no input for compressed frames");
	switch (m)
	{
		case CH_COMPRESS_NONE:
		case CH_COMPRESS_LZ4:
			return CH_OK;
		case CH_COMPRESS_ZSTD:
			if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())
				return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
									"zstd compression level %d is out of range %d..%d",
									level, ZSTD_minCLevel(), ZSTD_maxCLevel());
			return CH_OK;
	}
	return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
						"unknown compression method %d", (int) m);
}

/*
 * Append one frame of src[0..len) (len <= CH_FRAME_MAX_DECOMPRESSED,
 * arguments checked). *cctx is created on first ZSTD use and left for the
 * caller to free. On failure out->len is unchanged.
 */
static ch_status
compress_one(ch_buf *out, ch_compress_method m, int level, ZSTD_CCtx **cctx,
			 const uint8_t *src, size_t len, ch_error *err)
{
	static const uint8_t empty[1] = {0};
	size_t		bound;
	size_t		plen;
	uint8_t		method;
	uint8_t    *f;
	uint64_t	lo;
	uint64_t	hi;
	ch_status	st;

	if (len > CH_FRAME_MAX_DECOMPRESSED)
		return ch_error_set(err, CH_ERR_LIMIT,
							"cannot put %zu bytes into one compressed frame (limit %" PRIu32 ")",
							len, CH_FRAME_MAX_DECOMPRESSED);
	if (src == NULL)
		src = empty;

	switch (m)
	{
		case CH_COMPRESS_NONE:
			method = CH_METHOD_BYTE_NONE;
			bound = len;
			break;
		case CH_COMPRESS_LZ4:
			method = CH_METHOD_BYTE_LZ4;
			bound = (size_t) LZ4_compressBound((int) len);
			break;
		case CH_COMPRESS_ZSTD:
			method = CH_METHOD_BYTE_ZSTD;
			bound = ZSTD_compressBound(len);
			break;
		default:
			return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
								"unknown compression method %d", (int) m);
	}

	st = ch_buf_reserve(out, CH_FRAME_OVERHEAD + bound);
	if (st != CH_OK)
		return ch_error_set(err, st,
							"could not allocate %zu bytes for a compressed frame",
							CH_FRAME_OVERHEAD + bound);
	f = out->data + out->len;

	switch (m)
	{
		case CH_COMPRESS_NONE:
			if (len > 0)
				memcpy(f + CH_FRAME_OVERHEAD, src, len);
			plen = len;
			break;
		case CH_COMPRESS_LZ4:
			{
				int			r = LZ4_compress_default((const char *) src,
													 (char *) f + CH_FRAME_OVERHEAD,
													 (int) len, (int) bound);

				if (r <= 0)
					return ch_error_set(err, CH_ERR_INTERNAL,
										"LZ4 compression of %zu bytes failed", len);
				plen = (size_t) r;
				break;
			}
		case CH_COMPRESS_ZSTD:
			{
				size_t		r;

				if (*cctx == NULL)
				{
					*cctx = create_cctx(out->a);
					if (*cctx == NULL)
						return ch_error_set(err, CH_ERR_NOMEM,
											"could not create a zstd compression context");
				}
				r = ZSTD_compressCCtx(*cctx, f + CH_FRAME_OVERHEAD, bound, src, len,
									  level);
				if (ZSTD_isError(r))
				{
					ch_status	code = ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation
						? CH_ERR_NOMEM : CH_ERR_INTERNAL;

					return ch_error_set(err, code, "zstd compression of %zu bytes failed: %s",
										len, ZSTD_getErrorName(r));
				}
				plen = r;
				break;
			}
		default:
			return ch_error_set(err, CH_ERR_INTERNAL, "unreachable");
	}

	if (plen > CH_FRAME_MAX_COMPRESSED - CH_FRAME_HEADER_SIZE)
		return ch_error_set(err, CH_ERR_LIMIT,
							"compressed frame of %zu bytes exceeds the limit of %" PRIu32 " bytes",
							plen + CH_FRAME_HEADER_SIZE, CH_FRAME_MAX_COMPRESSED);

	f[OFF_METHOD] = method;
	ch_put_le32(f + OFF_CSIZE, (uint32_t) (plen + CH_FRAME_HEADER_SIZE));
	ch_put_le32(f + OFF_DSIZE, (uint32_t) len);
	ch_cityhash128(f + CH_FRAME_CHECKSUM_SIZE, plen + CH_FRAME_HEADER_SIZE, &lo, &hi);
	ch_put_le64(f, lo);
	ch_put_le64(f + 8, hi);
	out->len += CH_FRAME_OVERHEAD + plen;
	return CH_OK;
}

/*
 * ch_compress_frame
 *		Append one frame; see ch_compress.h.
 */
ch_status
ch_compress_frame(ch_buf *out, ch_compress_method m, int level,
				  const void *src, size_t len, ch_error *err)
{
	ZSTD_CCtx  *cctx = NULL;
	ch_status	st;

	st = check_args(out, m, level, src, len, err);
	if (st != CH_OK)
		return st;
	st = compress_one(out, m, level, &cctx, src, len, err);
	ZSTD_freeCCtx(cctx);
	return st;
}

/*
 * ch_compress_frames
 *		Append any length as frames of at most CH_FRAME_CHUNK bytes; see
 *		ch_compress.h. One zstd context serves all chunks of a call.
 */
ch_status
ch_compress_frames(ch_buf *out, ch_compress_method m, int level,
				   const void *src, size_t len, ch_error *err)
{
	const uint8_t *p = (const uint8_t *) src;
	ZSTD_CCtx  *cctx = NULL;
	size_t		saved;
	ch_status	st;

	st = check_args(out, m, level, src, len, err);
	if (st != CH_OK)
		return st;
	saved = out->len;
	while (len > 0)
	{
		size_t		n = len < CH_FRAME_CHUNK ? len : CH_FRAME_CHUNK;

		st = compress_one(out, m, level, &cctx, p, n, err);
		if (st != CH_OK)
		{
			out->len = saved;
			break;
		}
		p += n;
		len -= n;
	}
	ZSTD_freeCCtx(cctx);
	return st;
}

/* ---------------------------------------------------------------- decoder */

struct ch_decompressor
{
	const ch_allocator *a;
	uint8_t		head[CH_FRAME_OVERHEAD];	/* header of a frame arriving in
											 * pieces */
	size_t		have;			/* bytes of the current frame received */
	size_t		total;			/* its full length, once the header is
								 * validated; else 0 */
	uint8_t    *fbuf;			/* the frame so far, when split across feeds */
	size_t		fcap;
	bool		in_fbuf;		/* the current frame's bytes are in fbuf (not
								 * head) */
	uint8_t    *obuf;			/* decompressed bytes (LZ4, ZSTD) */
	size_t		ocap;
	ZSTD_DCtx  *zd;				/* created on the first ZSTD frame */
	uint64_t	offset;			/* stream offset of the current frame */
	uint32_t	max_dsize;		/* decompressed_size limit of a frame */
	ch_status	stuck;			/* sticky error, or CH_OK */
	ch_error	stuck_err;		/* its details, replayed */
	ch_error	scratch;		/* used when the caller passes err == NULL */
};

/*
 * ch_decompressor_create
 *		A decoder for one stream of frames; see ch_compress.h.
 */
ch_decompressor *
ch_decompressor_create(const ch_allocator *a)
{
	ch_decompressor *d;

	a = ch_alloc_or_default(a);
	d = ch_alloc(a, sizeof(*d));
	if (d == NULL)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->a = a;
	d->max_dsize = CH_FRAME_MAX_DECOMPRESSED;
	d->stuck = CH_OK;
	ch_error_clear(&d->stuck_err);
	ch_error_clear(&d->scratch);
	return d;
}

/*
 * ch_decompressor_set_max_frame
 *		Lower the decompressed_size limit of a frame; see ch_compress.h.
 */
void
ch_decompressor_set_max_frame(ch_decompressor *d, uint64_t max_dsize)
{
	if (d == NULL)
		return;
	d->max_dsize = max_dsize == 0 || max_dsize > CH_FRAME_MAX_DECOMPRESSED ?
		CH_FRAME_MAX_DECOMPRESSED : (uint32_t) max_dsize;
}

/*
 * ch_decompressor_reset
 *		Start a new stream: drop any partial frame and sticky error, keep the
 *		buffers and the zstd context.
 */
void
ch_decompressor_reset(ch_decompressor *d)
{
	if (d == NULL)
		return;
	d->have = 0;
	d->total = 0;
	d->in_fbuf = false;
	d->offset = 0;
	d->stuck = CH_OK;
	ch_error_clear(&d->stuck_err);
}

/*
 * ch_decompressor_free
 *		Release the decoder, its buffers and its zstd context. NULL is fine.
 */
void
ch_decompressor_free(ch_decompressor *d)
{
	if (d == NULL)
		return;
	ch_free(d->a, d->fbuf);
	ch_free(d->a, d->obuf);
	ZSTD_freeDCtx(d->zd);
	ch_free(d->a, d);
}

/*
 * Make *buf hold at least need bytes (contents not kept). Small buffers grow
 * by doubling so that slowly growing frames do not reallocate every time.
 */
static bool
ensure_buffer(const ch_allocator *a, uint8_t **buf, size_t *cap, size_t need)
{
	size_t		ncap;

	if (need <= *cap)
		return true;
	ncap = need < MIN_BUFFER ? MIN_BUFFER : need;
	if (*cap > 0 && *cap * 2 > ncap && *cap * 2 <= KEEP_BUFFER_MAX)
		ncap = *cap * 2;
	ch_free(a, *buf);
	*cap = 0;
	*buf = ch_alloc(a, ncap);
	if (*buf == NULL)
		return false;
	*cap = ncap;
	return true;
}

/*
 * Make fbuf hold at least need (<= d->total) bytes, with the d->have bytes
 * of the current frame received so far in it. The buffer grows with the
 * bytes that actually arrive (doubling, capped at the frame's size), so a
 * damaged or hostile compressed_size cannot make us allocate up to 1 GiB
 * before the bytes are there; the copying stays linear.
 */
static bool
grow_frame(ch_decompressor *d, size_t need)
{
	const uint8_t *from = d->in_fbuf ? d->fbuf : d->head;
	size_t		ncap;
	uint8_t    *nb;

	if (need <= d->fcap)
	{
		if (!d->in_fbuf)
			memcpy(d->fbuf, d->head, d->have);
		d->in_fbuf = true;
		return true;
	}
	ncap = d->fcap * 2;
	if (ncap < need)
		ncap = need;
	if (ncap < MIN_BUFFER)
		ncap = MIN_BUFFER;
	if (ncap > d->total)
		ncap = d->total;
	nb = ch_alloc(d->a, ncap);
	if (nb == NULL)
		return false;
	memcpy(nb, from, d->have);
	ch_free(d->a, d->fbuf);
	d->fbuf = nb;
	d->fcap = ncap;
	d->in_fbuf = true;
	return true;
}

static void
trim_buffer(const ch_allocator *a, uint8_t **buf, size_t *cap)
{
	if (*cap > KEEP_BUFFER_MAX)
	{
		ch_free(a, *buf);
		*buf = NULL;
		*cap = 0;
	}
}

/*
 * Validate the size fields of the frame header h[0..n). Returns CH_OK with
 * *total (the frame's length on the wire) once all 25 bytes are there and
 * valid, CH_NEED_MORE if fewer are there and nothing is wrong yet, else an
 * error. The compressed size is checked as soon as its 21st byte arrives.
 */
static ch_status
check_header(ch_decompressor *d, const uint8_t *h, size_t n, size_t *total,
			 ch_error *err)
{
	uint32_t	csize;
	uint32_t	dsize;

	if (n < OFF_DSIZE)
		return CH_NEED_MORE;
	csize = ch_le32(h + OFF_CSIZE);
	if (csize < CH_FRAME_HEADER_SIZE)
		return ch_error_set(err, CH_ERR_MALFORMED,
							"compressed frame at offset %" PRIu64 " has compressed_size %" PRIu32 ", less than its 9-byte header",
							d->offset, csize);
	if (csize > CH_FRAME_MAX_COMPRESSED)
		return ch_error_set(err, CH_ERR_LIMIT,
							"compressed frame at offset %" PRIu64 " has compressed_size %" PRIu32 ", over the limit of %" PRIu32,
							d->offset, csize, CH_FRAME_MAX_COMPRESSED);
	if (n < CH_FRAME_OVERHEAD)
		return CH_NEED_MORE;
	dsize = ch_le32(h + OFF_DSIZE);
	if (dsize > d->max_dsize)
		return ch_error_set(err, CH_ERR_LIMIT,
							"compressed frame at offset %" PRIu64 " has decompressed_size %" PRIu32 ", over the limit of %" PRIu32,
							d->offset, dsize, d->max_dsize);
	*total = (size_t) CH_FRAME_CHECKSUM_SIZE + csize;
	return CH_OK;
}

/*
 * Verify and decompress the complete frame at f, whose header check_header
 * has accepted. On success *out and *out_len are the plain bytes (in the frame
 * for NONE, else in d->obuf).
 */
static ch_status
decode_frame(ch_decompressor *d, const uint8_t *f, const uint8_t **out,
			 size_t *out_len, ch_error *err)
{
	uint8_t		method = f[OFF_METHOD];
	uint32_t	csize = ch_le32(f + OFF_CSIZE);
	uint32_t	dsize = ch_le32(f + OFF_DSIZE);
	const uint8_t *payload = f + CH_FRAME_OVERHEAD;
	size_t		plen = (size_t) csize - CH_FRAME_HEADER_SIZE;
	uint64_t	lo;
	uint64_t	hi;
	uint64_t	want_lo = ch_le64(f);
	uint64_t	want_hi = ch_le64(f + 8);

	ch_cityhash128(f + CH_FRAME_CHECKSUM_SIZE, csize, &lo, &hi);
	if (lo != want_lo || hi != want_hi)
		return ch_error_set(err, CH_ERR_CHECKSUM,
							"checksum mismatch in compressed frame at offset %" PRIu64 ": expected lo %016" PRIx64 " hi %016" PRIx64 ", computed lo %016" PRIx64 " hi %016" PRIx64 " (method 0x%02x, compressed_size %" PRIu32 ", decompressed_size %" PRIu32 ")",
							d->offset, want_lo, want_hi, lo, hi, method, csize, dsize);

	switch (method)
	{
		case CH_METHOD_BYTE_NONE:
			if (plen != dsize)
				return ch_error_set(err, CH_ERR_MALFORMED,
									"uncompressed frame at offset %" PRIu64 " has %zu payload bytes but decompressed_size %" PRIu32,
									d->offset, plen, dsize);
			*out = payload;
			break;
		case CH_METHOD_BYTE_LZ4:
			{
				int			r;

				if (!ensure_buffer(d->a, &d->obuf, &d->ocap, dsize))
					return ch_error_set(err, CH_ERR_NOMEM,
										"could not allocate %" PRIu32 " bytes to decompress a frame",
										dsize);
				r = LZ4_decompress_safe((const char *) payload, (char *) d->obuf,
										(int) plen, (int) dsize);
				if (r < 0)
					return ch_error_set(err, CH_ERR_DECOMPRESS,
										"malformed LZ4 data in compressed frame at offset %" PRIu64 " (decompressed_size %" PRIu32 ")",
										d->offset, dsize);
				if ((uint32_t) r != dsize)
					return ch_error_set(err, CH_ERR_DECOMPRESS,
										"LZ4 data in compressed frame at offset %" PRIu64 " decodes to %d bytes, not decompressed_size %" PRIu32,
										d->offset, r, dsize);
				*out = d->obuf;
				break;
			}
		case CH_METHOD_BYTE_ZSTD:
			{
				size_t		r;

				if (!ensure_buffer(d->a, &d->obuf, &d->ocap, dsize))
					return ch_error_set(err, CH_ERR_NOMEM,
										"could not allocate %" PRIu32 " bytes to decompress a frame",
										dsize);
				if (d->zd == NULL)
				{
					ZSTD_customMem cm;

					cm.customAlloc = d->a->alloc;
					cm.customFree = d->a->free;
					cm.opaque = d->a->ctx;
					d->zd = ZSTD_createDCtx_advanced(cm);
					if (d->zd == NULL)
						return ch_error_set(err, CH_ERR_NOMEM,
											"could not create a zstd decompression context");
				}
				r = ZSTD_decompressDCtx(d->zd, d->obuf, dsize, payload, plen);
				if (ZSTD_isError(r))
					return ch_error_set(err,
										ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation
										? CH_ERR_NOMEM : CH_ERR_DECOMPRESS,
										"zstd data in compressed frame at offset %" PRIu64 " does not decompress to decompressed_size %" PRIu32 ": %s",
										d->offset, dsize, ZSTD_getErrorName(r));
				if (r != dsize)
					return ch_error_set(err, CH_ERR_DECOMPRESS,
										"zstd data in compressed frame at offset %" PRIu64 " decodes to %zu bytes, not decompressed_size %" PRIu32,
										d->offset, r, dsize);
				*out = d->obuf;
				break;
			}
		default:
			return ch_error_set(err, CH_ERR_UNSUPPORTED,
								"unsupported compression method byte 0x%02x in compressed frame at offset %" PRIu64,
								method, d->offset);
	}

	*out_len = dsize;
	return CH_OK;
}

/* Record a failure as sticky; err->offset of our own errors is the frame's. */
static ch_status
fail(ch_decompressor *d, ch_status st, bool own, ch_error *err)
{
	if (own)
		err->offset = (int64_t) d->offset;
	err->code = st;
	d->stuck = st;
	d->stuck_err = *err;
	return st;
}

/*
 * Decode the complete frame at f and hand its bytes to the sink; the
 * failure is made sticky.
 */
static ch_status
process_frame(ch_decompressor *d, const uint8_t *f, ch_sink_fn sink,
			  void *sink_ctx, size_t *produced, ch_error *err)
{
	const uint8_t *out = NULL;
	size_t		out_len = 0;
	ch_status	st;

	st = decode_frame(d, f, &out, &out_len, err);
	if (st != CH_OK)
		return fail(d, st, true, err);
	*produced += out_len;
	if (out_len > 0)
	{
		st = sink(sink_ctx, out, out_len, err);
		if (st != CH_OK)
			return fail(d, st, false, err);
	}
	trim_buffer(d->a, &d->obuf, &d->ocap);
	return CH_OK;
}

/*
 * ch_decompressor_feed
 *		Consume len bytes of the stream; see ch_compress.h for the contract.
 *
 * A frame wholly inside data is decoded in place (fast path); otherwise its
 * header collects in d->head and the rest in d->fbuf (slow path).
 */
ch_status
ch_decompressor_feed(ch_decompressor *d, const void *data, size_t len,
					 ch_sink_fn sink, void *sink_ctx, ch_error *err)
{
	size_t		used;

	return ch_decompressor_feed_some(d, data, len, SIZE_MAX, &used, sink, sink_ctx, err);
}

/*
 * ch_decompressor_feed_some
 *		ch_decompressor_feed that stops before the next frame once max_out
 *		decompressed bytes went to the sink; *consumed says how much of data
 *		was taken (all of it unless the budget ran out).
 */
ch_status
ch_decompressor_feed_some(ch_decompressor *d, const void *data, size_t len,
						  size_t max_out, size_t *consumed,
						  ch_sink_fn sink, void *sink_ctx, ch_error *err)
{
	const uint8_t *p = (const uint8_t *) data;
	const size_t len0 = len;
	size_t		produced = 0;
	ch_error   *e;
	ch_status	st;

	*consumed = 0;
	if (d == NULL || sink == NULL || (data == NULL && len > 0))
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"invalid arguments to ch_decompressor_feed");
	e = err ? err : &d->scratch;
	if (d->stuck != CH_OK)
	{
		*e = d->stuck_err;
		return d->stuck;
	}

	for (;;)
	{
		size_t		take;

		*consumed = len0 - len;
		if (d->have == 0)
		{
			size_t		total = 0;

			if (len == 0 || produced >= max_out)
				return CH_OK;

			/* fast path: a whole frame in the caller's bytes */
			st = check_header(d, p, len, &total, e);
			if (st == CH_OK && len >= total)
			{
				st = process_frame(d, p, sink, sink_ctx, &produced, e);
				if (st != CH_OK)
					return st;
				p += total;
				len -= total;
				d->offset += total;
				continue;
			}
			if (st != CH_OK && st != CH_NEED_MORE)
				return fail(d, st, true, e);
		}

		/* slow path: collect the header, then the frame */
		if (d->total == 0)
		{
			take = CH_FRAME_OVERHEAD - d->have;
			if (take > len)
				take = len;
			memcpy(d->head + d->have, p, take);
			d->have += take;
			p += take;
			len -= take;
			st = check_header(d, d->head, d->have, &d->total, e);
			if (st == CH_NEED_MORE)
			{
				*consumed = len0;	/* len is 0 here */
				return CH_OK;
			}
			if (st != CH_OK)
				return fail(d, st, true, e);
		}
		if (d->total > CH_FRAME_OVERHEAD)
		{
			take = d->total - d->have;
			if (take > len)
				take = len;
			if (!grow_frame(d, d->have + take))
				return fail(d, ch_error_set(e, CH_ERR_NOMEM,
											"could not allocate %zu bytes for a compressed frame of %zu bytes",
											d->have + take, d->total), true, e);
			memcpy(d->fbuf + d->have, p, take);
			d->have += take;
			p += take;
			len -= take;
			if (d->have < d->total)
			{
				*consumed = len0;	/* len is 0 here */
				return CH_OK;
			}
		}

		st = process_frame(d, d->total > CH_FRAME_OVERHEAD ? d->fbuf : d->head,
						   sink, sink_ctx, &produced, e);
		if (st != CH_OK)
			return st;
		d->offset += d->total;
		d->have = 0;
		d->total = 0;
		d->in_fbuf = false;
		trim_buffer(d->a, &d->fbuf, &d->fcap);
	}
}

/*
 * ch_decompressor_finish
 *		End of stream: CH_ERR_TRUNCATED if a partial frame is left.
 */
ch_status
ch_decompressor_finish(ch_decompressor *d, ch_error *err)
{
	ch_error   *e;

	if (d == NULL)
		return ch_error_set(err, CH_ERR_INVALID_ARGUMENT,
							"invalid arguments to ch_decompressor_finish");
	e = err ? err : &d->scratch;
	if (d->stuck != CH_OK)
	{
		*e = d->stuck_err;
		return d->stuck;
	}
	if (d->have > 0)
	{
		ch_error_set(e, CH_ERR_TRUNCATED,
					 "compressed stream ends inside a frame: %zu of %s%zu bytes at offset %" PRIu64,
					 d->have, d->total ? "" : "at least ",
					 d->total ? d->total : (size_t) CH_FRAME_OVERHEAD, d->offset);
		return fail(d, CH_ERR_TRUNCATED, true, e);
	}
	return CH_OK;
}
