/* growth - how two pieces of work grow with their input, as ratios
 * between sizes that double (issue 28, "Time"): about 2 is linear, about
 * 4 quadratic.
 *
 *   growth [-n ROUNDS] [SIZE...]
 *
 *   split   ns_shell_split() of one command line of SIZE stages
 *           ("echo x | wc | wc ..."): its stage array grew by one
 *           element per '|' before, copying every stage before it
 *   dir     SIZE files made in one model directory, each name looked up
 *           first as touch does (m_node_child, then m_node_add): each
 *           lookup compared the name with every child's before
 *
 * Sizes default to 10000 20000 40000 80000. Each size runs once per
 * round, rounds interleaved; the figures are medians. No test asserts a
 * time: tests/unit/test_growth.c counts the same work instead. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "model/model.h"
#include "scenario/shellword.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double time_split(size_t n)
{
	char *line = xmalloc(6 + 5 * n + 1), *p = line, *msg = NULL;
	struct ns_split sp;
	size_t at = 0;
	double t;

	p += sprintf(p, "echo x");
	for (size_t i = 1; i < n; i++)
		p += sprintf(p, " | wc");
	t = now();
	if (ns_shell_split(line, &sp, &msg, &at) < 0) {
		fprintf(stderr, "growth: split: %s\n", msg);
		exit(1);
	}
	t = now() - t;
	ns_split_free(&sp);
	free(line);
	return t;
}

static double time_dir(size_t n)
{
	struct m_world w;
	struct m_node *root;
	char name[32];
	double t;

	m_world_init(&w);
	root = m_sb_new(&w, "/dev/sdt", "tmpfs")->root;
	t = now();
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		if (!m_node_child(root, name))
			m_node_add(root, name, false);
	}
	t = now() - t;
	m_world_free(&w);
	return t;
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
	size_t defaults[] = { 10000, 20000, 40000, 80000 }, *sizes = defaults, nsizes = 4;
	unsigned rounds = 7;
	int opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			return 2;
		rounds = (unsigned)strtoul(optarg, NULL, 10);
	}
	if (!rounds)
		rounds = 1;
	if (optind < argc) {
		nsizes = (size_t)(argc - optind);
		sizes = xcalloc(nsizes, sizeof(*sizes));
		for (size_t i = 0; i < nsizes; i++)
			sizes[i] = strtoul(argv[optind + (int)i], NULL, 10);
	}

	double *split = xcalloc(nsizes * rounds, sizeof(double));
	double *dir = xcalloc(nsizes * rounds, sizeof(double));

	for (unsigned r = 0; r < rounds; r++)
		for (size_t i = 0; i < nsizes; i++) {
			split[i * rounds + r] = time_split(sizes[i]);
			dir[i * rounds + r] = time_dir(sizes[i]);
		}
	printf("Medians of %u rounds; \"x prev\" is the ratio to the size before "
	       "(about 2 per doubling: linear; about 4: quadratic).\n\n", rounds);
	printf("| size | split | x prev | dir | x prev |\n|---:|---:|---:|---:|---:|\n");
	double ps = 0, pd = 0;
	for (size_t i = 0; i < nsizes; i++) {
		double s = median(split + i * rounds, rounds), d = median(dir + i * rounds, rounds);

		printf("| %zu | %.2f ms | ", sizes[i], s * 1e3);
		if (ps > 0)
			printf("%.2f", s / ps);
		printf(" | %.2f ms | ", d * 1e3);
		if (pd > 0)
			printf("%.2f", d / pd);
		printf(" |\n");
		ps = s, pd = d;
	}
	return 0;
}
