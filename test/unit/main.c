/*-------------------------------------------------------------------------
 * main.c
 *	  Test runner: registry, checks, and main().
 *
 *	run_tests GOLDEN_DIR [NAME-SUBSTRING...]
 *
 * Runs every registered test (or those whose name contains one of the
 * given substrings), each in a forked child so that a crash, a sanitizer
 * report or a leak fails only that test. Prints one line per failed check
 * ("FAIL test file:line: what"), one line per test that died, and finally
 * exactly one line "N passed, M failed" where N and M count TEST
 * FUNCTIONS (a test passes when all of its checks pass and it exits
 * cleanly, after at least one check: a test that checked nothing, e.g.
 * because it found no input, fails). Exit status 0 only if something ran
 * and nothing failed.
 *
 * Environment: UNIT_NOFORK=1 runs the tests in-process (for a debugger);
 * UNIT_TIMEOUT=<seconds> per test (default 600); UNIT_VERBOSE=1 prints a
 * line per test.
 *
 * test/unit/main.c
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FAIL_LINES_PER_TEST 30

const char *unit_golden_dir;

static unit_test *registry;
static int	nregistered;
static const char *current_test = "?";
static uint64_t cur_checks;
static uint64_t cur_failed;

void
unit_register(unit_test *t)
{
	t->next = registry;
	registry = t;
	nregistered++;
}

/* ---- checks ---- */

static void
report(const char *file, int line, const char *fmt, va_list ap)
{
	const char *base = strrchr(file, '/');

	if (cur_failed > MAX_FAIL_LINES_PER_TEST)
		return;
	if (cur_failed == MAX_FAIL_LINES_PER_TEST)
	{
		printf("FAIL %s: (more failures not shown)\n", current_test);
		return;
	}
	printf("FAIL %s %s:%d: ", current_test, base ? base + 1 : file, line);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

static bool
fail_at(const char *file, int line, const char *fmt,...)
	__attribute__((format(printf, 3, 4)));

static bool
fail_at(const char *file, int line, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	report(file, line, fmt, ap);
	va_end(ap);
	cur_failed++;
	return false;
}

bool
unit_check(bool ok, const char *file, int line, const char *fmt,...)
{
	va_list		ap;

	cur_checks++;
	if (ok)
		return true;
	va_start(ap, fmt);
	report(file, line, fmt, ap);
	va_end(ap);
	cur_failed++;
	return false;
}

bool
unit_check_int(intmax_t a, intmax_t b, const char *ea, const char *eb,
			   const char *file, int line)
{
	cur_checks++;
	if (a == b)
		return true;
	return fail_at(file, line, "%s == %s: %jd != %jd", ea, eb, a, b);
}

bool
unit_check_uint(uintmax_t a, uintmax_t b, const char *ea, const char *eb,
				const char *file, int line)
{
	cur_checks++;
	if (a == b)
		return true;
	return fail_at(file, line, "%s == %s: %ju (0x%jx) != %ju (0x%jx)", ea, eb, a, a, b, b);
}

bool
unit_check_str(const char *a, const char *b, const char *ea, const char *eb,
			   const char *file, int line)
{
	cur_checks++;
	if (a == b || (a && b && strcmp(a, b) == 0))
		return true;
	return fail_at(file, line, "%s == %s: \"%s\" != \"%s\"", ea, eb,
				   a ? a : "(null)", b ? b : "(null)");
}

static void
escape_bytes(char *out, size_t outsz, const uint8_t *p, size_t n)
{
	size_t		k = 0;
	size_t		i;

	if (!p)
	{
		snprintf(out, outsz, "(null)");
		return;
	}
	for (i = 0; i < n && k + 8 < outsz; i++)
	{
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			out[k++] = (char) p[i];
		else
			k += (size_t) snprintf(out + k, outsz - k, "\\x%02x", p[i]);
	}
	if (i < n && k + 4 < outsz)
		k += (size_t) snprintf(out + k, outsz - k, "...");
	out[k] = '\0';
}

bool
unit_check_mem(const void *a, size_t alen, const void *b, size_t blen,
			   const char *ea, const char *eb, const char *file, int line)
{
	char		sa[200],
				sb[200];

	cur_checks++;
	if (alen == blen && (alen == 0 || (a && b && memcmp(a, b, alen) == 0)))
		return true;
	escape_bytes(sa, sizeof(sa), a, alen);
	escape_bytes(sb, sizeof(sb), b, blen);
	return fail_at(file, line, "%s == %s: [%zu] \"%s\" != [%zu] \"%s\"", ea, eb,
				   alen, sa, blen, sb);
}

bool
unit_check_status(ch_status a, ch_status b, const char *ea, const char *file, int line)
{
	cur_checks++;
	if (a == b)
		return true;
	return fail_at(file, line, "%s: got %s, expected %s", ea, ch_status_name(a),
				   ch_status_name(b));
}

bool
unit_check_contains(const char *hay, const char *needle, const char *ehay,
					const char *file, int line)
{
	cur_checks++;
	if (hay && needle && strstr(hay, needle))
		return true;
	return fail_at(file, line, "%s does not contain \"%s\": \"%s\"", ehay, needle,
				   hay ? hay : "(null)");
}

/* ---- runner ---- */

static int
cmp_tests(const void *pa, const void *pb)
{
	const unit_test *a = *(const unit_test *const *) pa;
	const unit_test *b = *(const unit_test *const *) pb;
	int			c = strcmp(a->file, b->file);

	if (c)
		return c;
	return a->line - b->line;
}

typedef struct child_summary
{
	uint64_t	checks;
	uint64_t	failed;
} child_summary;

static void
run_in_process(unit_test *t, child_summary *s)
{
	current_test = t->name;
	cur_checks = 0;
	cur_failed = 0;
	t->fn();
	fflush(stdout);
	s->checks = cur_checks;
	s->failed = cur_failed;
}

/* Returns true if the test passed. */
static bool
run_forked(unit_test *t, unsigned timeout)
{
	int			fds[2];
	pid_t		pid;
	int			wstatus = 0;
	child_summary s = {0, 0};
	ssize_t		got = 0;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) != 0)
	{
		perror("pipe");
		exit(2);
	}
	pid = fork();
	if (pid < 0)
	{
		perror("fork");
		exit(2);
	}
	if (pid == 0)
	{
		close(fds[0]);
		alarm(timeout);
		run_in_process(t, &s);
		if (write(fds[1], &s, sizeof(s)) != (ssize_t) sizeof(s))
			_exit(3);
		close(fds[1]);
		/* exit() rather than _exit(): LeakSanitizer checks at exit */
		exit(0);
	}
	close(fds[1]);
	while (got < (ssize_t) sizeof(s))
	{
		ssize_t		n = read(fds[0], (char *) &s + got, sizeof(s) - (size_t) got);

		if (n <= 0)
			break;
		got += n;
	}
	close(fds[0]);
	while (waitpid(pid, &wstatus, 0) < 0)
		;
	if (WIFSIGNALED(wstatus))
	{
		printf("FAIL %s: died with signal %d (%s)%s\n", t->name, WTERMSIG(wstatus),
			   strsignal(WTERMSIG(wstatus)),
			   WTERMSIG(wstatus) == SIGALRM ? " - timed out" : "");
		return false;
	}
	if (got != (ssize_t) sizeof(s))
	{
		printf("FAIL %s: exited with status %d before finishing (crash or sanitizer report above)\n",
			   t->name, WEXITSTATUS(wstatus));
		return false;
	}
	if (WEXITSTATUS(wstatus) != 0)
	{
		printf("FAIL %s: exited with status %d after its checks (leak or sanitizer report above)\n",
			   t->name, WEXITSTATUS(wstatus));
		return false;
	}
	if (s.checks == 0)
	{
		/* a test that checked nothing proves nothing (e.g. it found no input) */
		printf("FAIL %s: ran no check\n", t->name);
		return false;
	}
	return s.failed == 0;
}

static bool
selected(const unit_test *t, int nfilters, char **filters)
{
	int			i;

	if (nfilters == 0)
		return true;
	for (i = 0; i < nfilters; i++)
		if (strstr(t->name, filters[i]))
			return true;
	return false;
}

int
main(int argc, char **argv)
{
	unit_test **tests;
	unit_test *t;
	int			i,
				n = 0;
	int			passed = 0,
				failed = 0;
	bool		nofork = getenv("UNIT_NOFORK") && atoi(getenv("UNIT_NOFORK")) != 0;
	bool		verbose = getenv("UNIT_VERBOSE") && atoi(getenv("UNIT_VERBOSE")) != 0;
	unsigned	timeout = getenv("UNIT_TIMEOUT") ? (unsigned) atoi(getenv("UNIT_TIMEOUT")) : 600;

	if (argc < 2)
	{
		fprintf(stderr, "usage: %s GOLDEN_DIR [TEST-NAME-SUBSTRING...]\n", argv[0]);
		return 2;
	}
	unit_golden_dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);

	tests = malloc(sizeof(*tests) * (size_t) (nregistered ? nregistered : 1));
	if (!tests)
		return 2;
	for (t = registry; t; t = t->next)
		tests[n++] = t;
	qsort(tests, (size_t) n, sizeof(*tests), cmp_tests);

	for (i = 0; i < n; i++)
	{
		bool		ok;

		if (!selected(tests[i], argc - 2, argv + 2))
			continue;
		if (nofork)
		{
			child_summary s;

			run_in_process(tests[i], &s);
			ok = s.failed == 0 && s.checks > 0;
			if (s.checks == 0)
				printf("FAIL %s: ran no check\n", tests[i]->name);
		}
		else
			ok = run_forked(tests[i], timeout);
		if (verbose)
			printf("%s %s\n", ok ? "ok  " : "FAIL", tests[i]->name);
		if (ok)
			passed++;
		else
			failed++;
	}
	free(tests);
	printf("%d passed, %d failed\n", passed, failed);
	if (passed + failed == 0)
	{
		printf("FAIL: no test ran (nothing matched the filters?)\n");
		return 1;
	}
	return failed == 0 ? 0 : 1;
}
