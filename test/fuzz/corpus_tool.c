/*-------------------------------------------------------------------------
 * corpus_tool.c
 *	  Helper for make_corpus.sh: derives fuzzing seeds from the golden
 *	  Native files with the project's own reader and compressor.
 *
 *	corpus_tool tcp FILE		  FILE (HTTP Native) re-framed as TCP: the
 *								  BlockInfo "01 00 02 ff ff ff ff 00" in front
 *								  of every block, to stdout
 *	corpus_tool types FILE		  the type name of every column, one a line
 *	corpus_tool frames METHOD FILE  FILE as compressed frames (none, lz4 or
 *								  zstd), cut every 4 KiB so there are several
 *	corpus_tool unframe FILE	  the decompressed bytes of a frame stream
 *
 * Exit status 1 if FILE does not decode (the caller skips it).
 *
 * test/fuzz/corpus_tool.c
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_compress.h"
#include "ch_native.h"

static ch_status
to_stdout(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	(void) ctx;
	(void) err;
	fwrite(data, 1, len, stdout);
	return CH_OK;
}

static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8_t    *buf = NULL;
	size_t		cap = 0,
				n = 0;

	if (!f)
		return NULL;
	for (;;)
	{
		size_t		got;

		if (n == cap)
		{
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + n, 1, cap - n, f);
		if (got == 0)
			break;
		n += got;
	}
	fclose(f);
	*len = n;
	return buf;
}

int
main(int argc, char **argv)
{
	static const uint8_t block_info[] = {0x01, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00};
	uint8_t    *data;
	size_t		len;
	ch_error	err;

	if (argc < 3)
	{
		fprintf(stderr, "usage: corpus_tool tcp|types|unframe FILE | frames METHOD FILE\n");
		return 2;
	}
	ch_error_clear(&err);
	if (strcmp(argv[1], "frames") == 0)
	{
		ch_compress_method m;
		ch_buf		out;
		size_t		off;

		if (argc < 4 || !(data = slurp(argv[3], &len)))
			return 1;
		m = strcmp(argv[2], "lz4") == 0 ? CH_COMPRESS_LZ4 :
			strcmp(argv[2], "zstd") == 0 ? CH_COMPRESS_ZSTD : CH_COMPRESS_NONE;
		ch_buf_init(&out, NULL);
		for (off = 0; off < len; off += 4096)
		{
			size_t		n = len - off < 4096 ? len - off : 4096;

			if (ch_compress_frame(&out, m, 0, data + off, n, &err) != CH_OK)
			{
				fprintf(stderr, "corpus_tool: %s\n", err.message);
				return 1;
			}
		}
		fwrite(out.data, 1, out.len, stdout);
		return 0;
	}

	if (!(data = slurp(argv[2], &len)))
		return 1;
	if (strcmp(argv[1], "unframe") == 0)
	{
		ch_decompressor *d = ch_decompressor_create(NULL);

		if (ch_decompressor_feed(d, data, len, to_stdout, NULL, &err) != CH_OK ||
			ch_decompressor_finish(d, &err) != CH_OK)
		{
			fprintf(stderr, "corpus_tool: %s: %s\n", argv[2], err.message);
			return 1;
		}
		ch_decompressor_free(d);
		return 0;
	}
	{
		ch_native_reader *r = ch_native_reader_create(NULL, false, NULL);
		ch_block   *b;
		ch_status	st;
		size_t	   *starts = NULL;
		size_t		nblocks = 0;
		uint64_t	i;
		bool		tcp = strcmp(argv[1], "tcp") == 0;

		if (ch_native_reader_feed(r, data, len, &err) != CH_OK)
			return 1;
		ch_native_reader_finish(r);
		for (;;)
		{
			st = ch_native_reader_next(r, &b, &err);
			if (st != CH_OK)
				break;
			/*
			 * The block just returned is still buffered (the bytes before it
			 * are dropped), so it starts at len - buffered.
			 */
			starts = realloc(starts, (nblocks + 1) * sizeof(size_t));
			if (!starts)
				abort();
			starts[nblocks++] = len - ch_native_reader_buffered(r);
			if (!tcp)
				for (i = 0; i < b->ncols; i++)
					printf("%.*s\n", (int) b->cols[i].type_name_len, b->cols[i].type_name);
		}
		if (st != CH_END)
		{
			fprintf(stderr, "corpus_tool: %s: %s\n", argv[2], err.message);
			/* a server exception at the end is still a fine seed for types */
			if (st != CH_ERR_SERVER || tcp)
				return 1;
		}
		if (tcp)
		{
			for (i = 0; i < nblocks; i++)
			{
				size_t		end = i + 1 < nblocks ? starts[i + 1] : len;

				fwrite(block_info, 1, sizeof(block_info), stdout);
				fwrite(data + starts[i], 1, end - starts[i], stdout);
			}
		}
		free(starts);
		ch_native_reader_free(r);
	}
	return 0;
}
