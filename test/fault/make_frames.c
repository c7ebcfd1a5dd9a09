/*
 * make_frames.c -- writes ClickHouse compressed frames of zero bytes for the
 * hostile-server fault tests (test/fault/fault_test.sh): a test tool, not
 * part of the extension.
 *
 * Usage: make_frames DIR
 * Writes DIR/zstd_bomb.bin and DIR/lz4_bomb.bin (one frame each whose
 * decompressed_size is 1 GiB of zeros: a small frame that expands to a
 * billion bytes) and DIR/zstd_zeros.bin, DIR/lz4_zeros.bin (one frame of
 * 1 MiB of zeros each, which the fake server repeats without end).
 */
#include "ch_compress.h"

#include <stdio.h>
#include <stdlib.h>

static int
write_frame(const char *dir, const char *name, ch_compress_method m, size_t n)
{
	char		path[4096];
	ch_buf		out;
	ch_error	err;
	uint8_t    *zeros = calloc(n, 1);
	FILE	   *f;

	if (!zeros)
		return 1;
	ch_buf_init(&out, NULL);
	ch_error_clear(&err);
	if (ch_compress_frame(&out, m, 19, zeros, n, &err) != CH_OK)
	{
		fprintf(stderr, "%s: %s\n", name, err.message);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0)
	{
		perror(path);
		return 1;
	}
	ch_buf_free(&out);
	free(zeros);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc != 2)
	{
		fprintf(stderr, "usage: make_frames DIR\n");
		return 2;
	}
	return write_frame(argv[1], "zstd_bomb.bin", CH_COMPRESS_ZSTD, CH_FRAME_MAX_DECOMPRESSED) |
		write_frame(argv[1], "lz4_bomb.bin", CH_COMPRESS_LZ4, CH_FRAME_MAX_DECOMPRESSED) |
		write_frame(argv[1], "zstd_zeros.bin", CH_COMPRESS_ZSTD, (size_t) 1 << 20) |
		write_frame(argv[1], "lz4_zeros.bin", CH_COMPRESS_LZ4, (size_t) 1 << 20);
}
