/*-------------------------------------------------------------------------
 * replay.c
 *	  Standalone driver for a libFuzzer target (after lz4's
 *	  standaloneengine.c): runs LLVMFuzzerTestOneInput once over every file
 *	  named on the command line, or every regular file in a named directory
 *	  (not recursive, in name order), then prints "N passed, 0 failed".
 *
 * Linked with one fuzz_*.c instead of libFuzzer, under ASan/UBSan, this
 * replays the corpus and the regression inputs in CI without clang's fuzzer
 * runtime. A crashing input aborts the process (the sanitizer's death
 * callback or a signal handler prints its name), so a run that finishes has
 * no failures. REPLAY_VERBOSE=1 prints every input's name before running it. Unreadable arguments are errors
 * (exit 2): a typo must not turn into "0 passed".
 *
 * test/fuzz/replay.c
 *-------------------------------------------------------------------------
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int			LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
void		__sanitizer_set_death_callback(void (*callback) (void)) __attribute__((weak));

static unsigned long npassed;
static int	verbose;
static const char *current;		/* the input being run, for crash reports */

/* Name the input that crashed (sanitizer death, abort, segfault). */
static void
report_current(void)
{
	if (current)
	{
		static const char msg[] = "\nreplay: crashed on ";

		(void) !write(2, msg, sizeof(msg) - 1);
		(void) !write(2, current, strlen(current));
		(void) !write(2, "\n", 1);
	}
}

static void
on_signal(int sig)
{
	report_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int
run_file(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	uint8_t    *buf;
	long		len;

	if (!f)
	{
		fprintf(stderr, "replay: cannot open %s\n", path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
	{
		fprintf(stderr, "replay: cannot size %s\n", path);
		fclose(f);
		return -1;
	}
	/* exactly len bytes on the heap, so ASan sees reads past the input */
	buf = malloc(len ? (size_t) len : 1);
	if (!buf || (len > 0 && fread(buf, 1, (size_t) len, f) != (size_t) len))
	{
		fprintf(stderr, "replay: cannot read %s\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (verbose)
		fprintf(stderr, "replay: %s (%ld bytes)\n", path, len);
	current = path;
	LLVMFuzzerTestOneInput(buf, (size_t) len);
	current = NULL;
	free(buf);
	npassed++;
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static int
run_dir(const char *dir)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;
	char	  **names = NULL;
	size_t		n = 0,
				cap = 0,
				i;
	int			rc = 0;

	if (!d)
	{
		fprintf(stderr, "replay: cannot open directory %s\n", dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL)
	{
		char	   *path;
		struct stat sb;

		if (e->d_name[0] == '.')
			continue;
		path = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!path)
			abort();
		sprintf(path, "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		{
			free(path);
			continue;
		}
		if (n == cap)
		{
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof(char *));
			if (!names)
				abort();
		}
		names[n++] = path;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(char *), cmp_names);
	for (i = 0; i < n; i++)
	{
		if (run_file(names[i]) != 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	int			i;
	int			rc = 0;

	if (getenv("REPLAY_VERBOSE"))
		verbose = 1;
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(report_current);
	signal(SIGABRT, on_signal);
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
	{
		struct stat sb;

		if (argv[i][0] == '-')
			continue;			/* libFuzzer-style flags are ignored */
		if (stat(argv[i], &sb) != 0)
		{
			fprintf(stderr, "replay: %s does not exist\n", argv[i]);
			rc = 2;
			continue;
		}
		if ((S_ISDIR(sb.st_mode) ? run_dir(argv[i]) : run_file(argv[i])) != 0)
			rc = 2;
	}
	printf("%lu passed, 0 failed\n", npassed);
	return rc;
}
