/* match_scale - time of one ns_matcher_step() (lib/match/match.h) as the
 * expected block grows: 1k to 50k mountinfo lines by default, or the
 * sizes given as arguments.
 *
 *   match_scale [-n ROUNDS] [-v] [SIZE...]
 *
 * The actual output is N mountinfo records of a tree (each mount's
 * parent is an earlier one), with devices, peer groups (shared:N and
 * master:N pointing at an earlier group) and literal tags. The expected
 * block is the same records with every mount ID, device and group
 * renamed, so the matcher must build the whole renaming (three maps of
 * up to N pairs). Variants, one column each:
 *
 *   ordered     the expected lines in the actual order
 *   unordered   the expected lines shuffled, block marked unordered
 *   wildcards   ordered, with every 100th expected line a "..."
 *   mismatch    ordered, one line in the middle differs: the step fails
 *               and the matcher builds its diff
 *
 * Each variant of each size runs once per round, rounds interleaved;
 * the figures are medians. Only ns_matcher_step() is timed; each run gets
 * a fresh matcher, so the renaming starts empty. With -v each step is
 * given a complete view of one place, as the judge gives a step of
 * `cat /proc/self/mountinfo`: the matcher then records where each pair
 * was seen and, after a step that matched without "...", looks for pairs
 * to release (ns_matcher_set_view). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "match/match.h"
#include "base/util.h"

enum { ORDERED, UNORDERED, WILD, MISMATCH, NVARIANTS };
static const char *const variant_names[NVARIANTS] = { "ordered", "unordered",
						      "wildcards", "mismatch" };

struct input {
	size_t n;
	char *actual;
	struct ns_expect *exp[NVARIANTS];
	double *t[NVARIANTS];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Line i of the tree, numbered by id/dev/grp (actual or expected); the
 * first line's parent is outside the block. */
static char *record(size_t i, unsigned long (*id)(size_t),
		    unsigned long (*dev)(size_t), unsigned long (*grp)(size_t),
		    unsigned long major, unsigned long root_parent)
{
	char tag[64] = "";
	unsigned long parent = i ? id((i - 1) / 2) : root_parent;

	switch (i % 4) {
	case 0: snprintf(tag, sizeof(tag), " shared:%lu", grp(i / 4)); break;
	case 1: snprintf(tag, sizeof(tag), " master:%lu", grp(i / 4)); break;
	case 2: snprintf(tag, sizeof(tag), " shared:%lu master:%lu", grp(i / 4 + 100000),
			 grp(i / 4)); break;
	case 3: snprintf(tag, sizeof(tag), " unbindable"); break;
	}
	return xasprintf("%lu %lu %lu:%lu / /m/%zu/x rw,relatime%s - tmpfs /dev/sd%zu rw",
			 id(i), parent, major, dev(i), i, tag, i % 64);
}

/* The kernel's numbers, and a transcript's: one-to-one renamings. */
static unsigned long act_id(size_t i) { return 1000 + i; }
static unsigned long act_dev(size_t i) { return 40 + i % 64; }
static unsigned long act_grp(size_t g) { return 1 + g; }
static unsigned long exp_id(size_t i) { return 7 * i + 20; }
static unsigned long exp_dev(size_t i) { return 16 * (i % 64) + 1; }
static unsigned long exp_grp(size_t g) { return 3 * g + 2; }

static struct ns_expect *expect_block(char **lines, size_t n, const size_t *order)
{
	struct ns_expect *e = xcalloc(n, sizeof(*e));

	for (size_t k = 0; k < n; k++) {
		e[k].text = lines[order ? order[k] : k];
		e[k].line = (int)k + 1;
	}
	return e;
}

static void build(struct input *in, size_t rounds)
{
	struct ns_buf act = NS_BUF_INIT;
	char **exp = xcalloc(in->n, sizeof(*exp));
	size_t *order = xcalloc(in->n, sizeof(*order));
	unsigned long long seed = 42;

	for (size_t i = 0; i < in->n; i++) {
		char *a = record(i, act_id, act_dev, act_grp, 0, 999);
		ns_buf_adds(&act, a);
		ns_buf_addc(&act, '\n');
		free(a);
		exp[i] = record(i, exp_id, exp_dev, exp_grp, 8, 3);
		order[i] = i;
	}
	in->actual = ns_buf_detach(&act);
	in->exp[ORDERED] = expect_block(exp, in->n, NULL);
	for (size_t i = in->n; i-- > 1;) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t j = (size_t)(seed >> 33) % (i + 1), tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	in->exp[UNORDERED] = expect_block(exp, in->n, order);
	in->exp[WILD] = expect_block(exp, in->n, NULL);
	for (size_t i = 50; i < in->n; i += 100)
		in->exp[WILD][i].text = xstrdup("...");
	in->exp[MISMATCH] = expect_block(exp, in->n, NULL);
	in->exp[MISMATCH][in->n / 2].text =
		xstrdup("1 2 8:1 / /not/there rw,relatime - tmpfs x rw");
	for (int v = 0; v < NVARIANTS; v++)
		in->t[v] = xcalloc(rounds, sizeof(double));
	free(exp); /* the lines themselves stay, owned by the blocks */
	free(order);
}

static bool with_view; /* -v */

static double run(const struct input *in, int v)
{
	static const struct ns_view place = { { 1, 2, 3 }, NS_VIEW_ALL };
	struct ns_matcher *m = ns_matcher_new();
	struct ns_buf diff = NS_BUF_INIT;
	double t0, t1;
	bool ok;

	t0 = now();
	if (with_view)
		ns_matcher_set_view(m, &place);
	ok = ns_matcher_step(m, in->exp[v], in->n, v == UNORDERED, in->actual, &diff);
	t1 = now();
	if (ok != (v != MISMATCH) || (v == MISMATCH && !strstr(ns_buf_str(&diff), "/not/there"))) {
		fprintf(stderr, "match_scale: %s at %zu lines: unexpected %s\n%.2000s\n",
			variant_names[v], in->n, ok ? "match" : "mismatch", ns_buf_str(&diff));
		exit(1);
	}
	ns_buf_free(&diff);
	ns_matcher_free(m);
	return t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	static const size_t defaults[] = { 1000, 2000, 5000, 10000, 20000, 50000 };
	size_t rounds = 11, n;
	struct input *in;
	int opt;

	while ((opt = getopt(argc, argv, "n:v")) != -1) {
		if (opt == 'v') {
			with_view = true;
			continue;
		}
		if (opt != 'n') {
			fprintf(stderr, "usage: match_scale [-n ROUNDS] [-v] [SIZE...]\n");
			return 2;
		}
		rounds = strtoul(optarg, NULL, 10);
	}
	n = argc > optind ? (size_t)(argc - optind) : NS_ARRAY_SIZE(defaults);
	in = xcalloc(n, sizeof(*in));
	for (size_t i = 0; i < n; i++) {
		in[i].n = argc > optind ? strtoul(argv[optind + i], NULL, 10) : defaults[i];
		build(&in[i], rounds);
	}
	for (size_t r = 0; r < rounds; r++)
		for (size_t i = 0; i < n; i++)
			for (int v = 0; v < NVARIANTS; v++)
				in[i].t[v][r] = run(&in[i], v);

	printf("medians of %zu interleaved rounds, milliseconds (µs per line in brackets)\n\n",
	       rounds);
	printf("| lines |");
	for (int v = 0; v < NVARIANTS; v++)
		printf(" %s |", variant_names[v]);
	printf("\n|---:|");
	for (int v = 0; v < NVARIANTS; v++)
		printf("---:|");
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		printf("| %zu |", in[i].n);
		for (int v = 0; v < NVARIANTS; v++) {
			double m = median(in[i].t[v], rounds);
			printf(" %.2f (%.2f) |", m * 1e3, m * 1e6 / (double)in[i].n);
		}
		printf("\n");
	}
	return 0;
}
