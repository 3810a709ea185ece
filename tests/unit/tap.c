/* tap.c - the unit tests' harness: main() for every tests/unit/test_*.c.
 * How to write and run a test: tap.h.
 *
 * The parent runs no test itself. For each chosen test, in the order of
 * the file, it forks a child, which runs the test and exits; the parent
 * waits, with a deadline, and reads how the child ended. The assertions'
 * count lives in memory shared with the children (mmap MAP_SHARED), so
 * the numbers go on from one test to the next, and a child that dies
 * half-way leaves the count as far as its last whole line. stdout is
 * line-buffered, so every line a child finished is written before it can
 * die, and both flush before each fork, so nothing is written twice. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define TAP_TIMEOUT 60          /* seconds per test, by default */

struct tap_test {
	const char *name, *file;
	int line;
	void (*fn)(void);
	bool chosen;
};

static struct tap_test *tests;
static size_t ntests;

/* What a child tells its parent: the assertions numbered so far (by every
 * test), the failed ones, where the last one was, whether the test came
 * back from its function. */
struct tap_state {
	int n, failed;
	const char *last_file;      /* in the binary, the same in the parent */
	int last_line;
	bool ended;
};

static struct tap_state tap_private;
static struct tap_state *tap = &tap_private;

void tap_register(const char *name, void (*fn)(void), const char *file, int line)
{
	struct tap_test *t = realloc(tests, (ntests + 1) * sizeof(*tests));

	if (!t) {
		perror("tap_register");
		abort();
	}
	tests = t;
	tests[ntests++] = (struct tap_test){ name, file, line, fn, false };
}

void tap_ok(int pass, const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", pass ? "" : "not ", tap->n + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	/* counted once the line is out: a test that dies inside its printf
	 * leaves the number to the harness's "not ok" */
	tap->n++;
	tap->last_file = file;
	tap->last_line = line;
	if (!pass) {
		tap->failed++;
		printf("#   failed at %s:%d: %s\n", file, line, cond);
	}
}

/* in the order of the source: constructors need not run in it */
static int by_place(const void *a, const void *b)
{
	const struct tap_test *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-l] [-t NAME]...\n"
		"  -t NAME  run only the test NAME (again for more)\n"
		"  -l       list the tests' names\n", prog);
}

static int choose(const char *prog, const char *name)
{
	for (size_t i = 0; i < ntests; i++)
		if (strcmp(tests[i].name, name) == 0) {
			tests[i].chosen = true;
			return 0;
		}
	fprintf(stderr, "%s: no test named '%s'; the tests are:\n", prog, name);
	for (size_t i = 0; i < ntests; i++)
		fprintf(stderr, "  %s\n", tests[i].name);
	return -1;
}

static unsigned timeout_seconds(const char *prog)
{
	const char *s = getenv("NSTEST_UNIT_TIMEOUT");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return TAP_TIMEOUT;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 86400 || *s == '-') {
		fprintf(stderr, "%s: NSTEST_UNIT_TIMEOUT=%s is not a number of seconds "
			"(0 to 86400)\n", prog, s);
		exit(2);
	}
	return (unsigned)v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The child: the test, then exit() (not _exit(): atexit handlers and a
 * leak sanitizer's check run in it, and a leak fails the test). */
static void child(const struct tap_test *t, const sigset_t *mask, pid_t parent)
{
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* a process group of its own, for the timeout to kill whatever the
	 * test started; and gone with the harness, killed or interrupted */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	errno = 0;                  /* as at the start of a program */
	t->fn();
	tap->ended = true;
	fflush(stdout);
	exit(0);
}

/* Waits for the child pid for at most limit seconds (0: no limit);
 * returns its wait status, or -1 when it ran out of time and was killed.
 * SIGCHLD is blocked, so sigtimedwait() sees it even when it came before
 * the wait began. */
static int wait_child(pid_t pid, const sigset_t *chld, unsigned limit)
{
	double deadline = now() + limit;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		double left = deadline - now();
		struct timespec ts;

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR) {
			perror("waitpid");
			exit(2);
		}
		if (limit && left <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return -1;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sigtimedwait(chld, NULL, limit ? &ts : NULL);
	}
}

/* Why the child's test failed when it did not end as a test should, in
 * why (empty when it ended well). */
static void abnormal_end(int status, unsigned limit, char *why, size_t size)
{
	why[0] = '\0';
	if (status == -1) {
		snprintf(why, size, "timed out after %u s (NSTEST_UNIT_TIMEOUT)", limit);
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *abbrev = sigabbrev_np(sig);

		snprintf(why, size, "killed by SIG%s (%s)%s", abbrev ? abbrev : "?",
			 strsignal(sig), WCOREDUMP(status) ? ", core dumped" : "");
	} else if (WIFEXITED(status) && !tap->ended) {
		snprintf(why, size, "exited with status %d before its end",
			 WEXITSTATUS(status));
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		snprintf(why, size, "exited with status %d after its end "
			 "(a sanitizer's report? see stderr)", WEXITSTATUS(status));
	}
}

/* Runs test t in a child; true when it passed. */
static bool run_one(const char *prog, const struct tap_test *t, unsigned limit)
{
	sigset_t chld, old;
	int n0 = tap->n, failed0 = tap->failed, status;
	char why[160];
	pid_t pid, self = getpid();

	printf("# RUN %s\n", t->name);
	fflush(stdout);
	fflush(stderr);
	tap->ended = false;
	tap->last_file = NULL;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0)
		child(t, &old, self);
	setpgid(pid, pid);          /* as the child does: whichever comes first */
	status = wait_child(pid, &chld, limit);
	sigprocmask(SIG_SETMASK, &old, NULL);

	abnormal_end(status, limit, why, sizeof(why));
	if (why[0]) {
		const char *last_file = tap->n > n0 ? tap->last_file : NULL;
		int last_line = tap->last_line;

		tap_ok(0, t->file, t->line, t->name, "%s: %s", t->name, why);
		if (last_file)
			printf("#   its last assertion: %s:%d\n", last_file, last_line);
		else
			printf("#   before its first assertion\n");
	} else if (tap->failed > failed0) {
		snprintf(why, sizeof(why), "%d of %d assertions failed",
			 tap->failed - failed0, tap->n - n0);
	}
	if (why[0]) {
		printf("# FAIL %s: %s\n", t->name, why);
		fflush(stdout);
		/* prove shows stderr, not the comments: say which test, and how
		 * to run it alone */
		fprintf(stderr, "# %s: FAIL %s: %s (alone: %s -t %s)\n", prog, t->name, why,
			prog, t->name);
		return false;
	}
	printf("# OK %s\n", t->name);
	return true;
}

int main(int argc, char **argv)
{
	const char *prog = argc > 0 ? argv[0] : "test";
	size_t nchosen = 0, nfailed = 0, nrun = 0;
	struct tap_state *shared;
	unsigned limit;
	bool list = false;
	int c;

	qsort(tests, ntests, sizeof(*tests), by_place);
	while ((c = getopt(argc, argv, "lt:h")) != -1) {
		switch (c) {
		case 'l':
			list = true;
			break;
		case 't':
			if (choose(prog, optarg) < 0)
				return 2;
			break;
		case 'h':
			usage(prog);
			return 0;
		default:
			usage(prog);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected operand '%s'\n", prog, argv[optind]);
		usage(prog);
		return 2;
	}
	if (list) {
		for (size_t i = 0; i < ntests; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (size_t i = 0; i < ntests; i++)
		nchosen += tests[i].chosen;
	limit = timeout_seconds(prog);

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	*shared = (struct tap_state){ 0 };
	tap = shared;
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (size_t i = 0; i < ntests; i++) {
		if (nchosen && !tests[i].chosen)
			continue;
		nrun++;
		nfailed += !run_one(prog, &tests[i], limit);
	}
	printf("1..%d\n", tap->n);
	printf("# %zu test%s: %zu passed, %zu failed\n", nrun, nrun == 1 ? "" : "s",
	       nrun - nfailed, nfailed);
	return nfailed || tap->failed ? 1 : 0;
}
