/* interleave - time commands in interleaved rounds (A B A B ...) and
 * report medians and ratios against the first command.
 *
 *   interleave [-a] [-n ROUNDS] [-w WARMUP] [-m] -c 'LABEL=CMD ARGS...' -c ...
 *
 * The machine is shared and noisy, so every figure comes from one
 * invocation in which the commands take turns: round r runs each command
 * once, in the order given. A command is split on blanks (no quoting)
 * and run directly with execvp, its output captured and shown only when
 * it fails. Any failure stops everything with status 1; with -a, exit
 * status 1 (nstest: a scenario failed, the run itself went through)
 * counts as a result and is noted under the table.
 *
 * Isolation: the host's /proc/self/mountinfo is read before and after
 * every single run and must not change; if it does, the difference is
 * printed and the exit status is 3 (as tests/isolation-check).
 *
 * Output, per command: median, quartiles, minimum, and two ratios against
 * the baseline (the first -c): the ratio of the medians, and the median
 * of the per-round ratios (robust to slow drift of the machine's load).
 * With -m, also one line "RESULT LABEL MEDIAN_MS RATIO PAIRED_RATIO" per
 * command for scripts. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CMDS 16
#define MAX_ARGS 64

struct cmd {
	char *label;
	char *argv[MAX_ARGS];
	double *t;           /* seconds, one per round */
	size_t status1;      /* runs that ended with the accepted status 1 */
};

static int accept1;          /* -a: status 1 (some scenario failed) is a result too */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *msg)
{
	fprintf(stderr, "interleave: %s\n", msg);
	exit(1);
}

static char *read_all(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	ssize_t r;

	if (!b)
		die("out of memory");
	for (;;) {
		if (n + 1 >= cap && !(b = realloc(b, cap *= 2)))
			die("out of memory");
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*len = n;
	return b;
}

static char *host_mountinfo(size_t *len)
{
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	char *s;

	if (fd < 0)
		die("cannot open /proc/self/mountinfo");
	s = read_all(fd, len);
	close(fd);
	return s;
}

/* The first line that differs, both ways, so that a leak is named. */
static void show_change(const char *before, const char *after)
{
	const char *b = before, *a = after;

	while (*b && *b == *a)
		b++, a++;
	while (b > before && b[-1] != '\n')
		b--;
	a = after + (b - before);
	fprintf(stderr, "  before: %.*s\n", (int)strcspn(b, "\n"), b);
	fprintf(stderr, "  after:  %.*s\n", (int)strcspn(a, "\n"), a);
}

/* Run c once; its wall time in seconds. */
static double run_once(struct cmd *c)
{
	int out = memfd_create("interleave-out", MFD_CLOEXEC);
	size_t blen, alen, olen;
	char *before = host_mountinfo(&blen), *after, *text;
	double t0, t1;
	int status;
	pid_t pid;

	if (out < 0)
		die("memfd_create failed");
	t0 = now();
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		dup2(null, 0);
		dup2(out, 1);
		dup2(out, 2);
		execvp(c->argv[0], c->argv);
		fprintf(stderr, "cannot run %s: %s\n", c->argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid failed");
	t1 = now();
	after = host_mountinfo(&alen);
	if (blen != alen || memcmp(before, after, blen)) {
		fprintf(stderr, "interleave: THE HOST'S MOUNT TABLE CHANGED while running %s\n",
			c->label);
		show_change(before, after);
		exit(3);
	}
	if (accept1 && WIFEXITED(status) && WEXITSTATUS(status) == 1) {
		c->status1++;
		status = 0;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		lseek(out, 0, SEEK_SET);
		text = read_all(out, &olen);
		fprintf(stderr, "interleave: %s failed (status 0x%x); its output:\n%s\n",
			c->label, status, text);
		exit(1);
	}
	close(out);
	free(before);
	free(after);
	return t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of n sorted values, interpolated. */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	return i + 1 < n ? v[i] + (pos - (double)i) * (v[i + 1] - v[i]) : v[i];
}

static double median_of(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));
	double m;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = quantile(s, n, 0.5);
	free(s);
	return m;
}

static void parse_cmd(struct cmd *c, char *spec)
{
	char *eq = strchr(spec, '='), *w, *save;
	size_t n = 0;

	if (!eq || eq == spec)
		die("a command is LABEL=CMD");
	*eq = '\0';
	c->label = spec;
	for (w = strtok_r(eq + 1, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n + 1 >= MAX_ARGS)
			die("too many arguments");
		c->argv[n++] = w;
	}
	if (!n)
		die("empty command");
	c->argv[n] = NULL;
}

int main(int argc, char **argv)
{
	struct cmd cmds[MAX_CMDS];
	size_t ncmd = 0, rounds = 21, warmup = 2;
	int opt, machine = 0;

	while ((opt = getopt(argc, argv, "an:w:mc:")) != -1) {
		switch (opt) {
		case 'a': accept1 = 1; break;
		case 'n': rounds = strtoul(optarg, NULL, 10); break;
		case 'w': warmup = strtoul(optarg, NULL, 10); break;
		case 'm': machine = 1; break;
		case 'c':
			if (ncmd == MAX_CMDS)
				die("too many commands");
			memset(&cmds[ncmd], 0, sizeof(cmds[ncmd]));
			parse_cmd(&cmds[ncmd++], optarg);
			break;
		default:
			fprintf(stderr, "usage: interleave [-a] [-n ROUNDS] [-w WARMUP] [-m] -c LABEL=CMD ...\n");
			return 2;
		}
	}
	if (!ncmd || !rounds)
		die("need at least one -c and one round");
	for (size_t i = 0; i < ncmd; i++)
		cmds[i].t = calloc(rounds, sizeof(double));
	for (size_t r = 0; r < warmup; r++)
		for (size_t i = 0; i < ncmd; i++)
			run_once(&cmds[i]);
	for (size_t r = 0; r < rounds; r++)
		for (size_t i = 0; i < ncmd; i++)
			cmds[i].t[r] = run_once(&cmds[i]);

	double base = median_of(cmds[0].t, rounds);
	double *ratio = calloc(rounds, sizeof(double)), *s = calloc(rounds, sizeof(double));

	printf("%zu interleaved rounds (+%zu warm-up), host mount table unchanged after every run\n",
	       rounds, warmup);
	printf("%-24s %10s %10s %10s %10s %9s %9s\n", "command", "median ms", "q1 ms",
	       "q3 ms", "min ms", "ratio", "paired");
	for (size_t i = 0; i < ncmd; i++) {
		for (size_t r = 0; r < rounds; r++)
			ratio[r] = cmds[i].t[r] / cmds[0].t[r];
		memcpy(s, cmds[i].t, rounds * sizeof(double));
		qsort(s, rounds, sizeof(double), cmp_double);
		double med = quantile(s, rounds, 0.5), paired = median_of(ratio, rounds);
		printf("%-24s %10.2f %10.2f %10.2f %10.2f %9.3f %9.3f\n", cmds[i].label,
		       med * 1e3, quantile(s, rounds, 0.25) * 1e3,
		       quantile(s, rounds, 0.75) * 1e3, s[0] * 1e3, med / base, paired);
		if (machine)
			printf("RESULT %s %.3f %.4f %.4f\n", cmds[i].label, med * 1e3,
			       med / base, paired);
	}
	for (size_t i = 0; i < ncmd; i++)
		if (cmds[i].status1)
			printf("note: %s exited with status 1 (a scenario failed) in %zu of %zu runs\n",
			       cmds[i].label, cmds[i].status1, rounds + warmup);
	return 0;
}
