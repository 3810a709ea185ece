/* test_growth.c - work that must grow linearly with its input, counted
 * rather than timed (issue 28, "Time"): no assertion here reads a clock.
 *
 * This program is linked with -Wl,--wrap=realloc -Wl,--wrap=strcmp (the
 * Makefile), so that every realloc(3) and strcmp(3) call of libnstest.a
 * comes through the counters below first:
 *
 * - the shell splitter's stage array (scenario/shellword.c) grows by
 *   doubling: the bytes realloc may have to copy for a line of N stages
 *   are O(N), where growing by one element made them O(N^2).
 * bench/growth.c times the same at growing sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "scenario/shellword.h"
#include "tap.h"

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
int __real_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b);

static bool counting;
static size_t realloc_bytes, strcmp_calls;

/* The bytes a realloc of a block that exists may copy (its new size at
 * most): what growing an array one element at a time costs. */
void *__wrap_realloc(void *p, size_t n)
{
	if (counting && p)
		realloc_bytes += n;
	return __real_realloc(p, n);
}

int __wrap_strcmp(const char *a, const char *b)
{
	if (counting)
		strcmp_calls++;
	return __real_strcmp(a, b);
}

/* "echo x | wc | wc ... " with n stages */
static char *pipeline_line(size_t n)
{
	char *s = xmalloc(6 + 5 * n + 1), *p = s;

	p += sprintf(p, "echo x");
	for (size_t i = 1; i < n; i++)
		p += sprintf(p, " | wc");
	return s;
}

static size_t split_copy_bytes(size_t n)
{
	struct ns_split sp;
	char *line = pipeline_line(n), *msg = NULL;
	size_t at = 0;
	int r;

	realloc_bytes = 0;
	counting = true;
	r = ns_shell_split(line, &sp, &msg, &at);
	counting = false;
	ok(r == 0 && sp.n == n, "split: %zu stages", n);
	ok(sp.cap >= sp.n && sp.cap < 2 * sp.n + 8, "split: room for %zu stages, not much more (%zu)",
	   sp.n, sp.cap);
	ns_split_free(&sp);
	free(msg);
	free(line);
	return realloc_bytes;
}

TEST(split_stages_grow_by_doubling)
{
	size_t n = 4000, per_stage = sizeof(struct ns_words);
	size_t bytes = split_copy_bytes(n), twice = split_copy_bytes(2 * n);

	/* doubling copies at most about twice the final array: 2 * n
	 * elements; one element at a time copied n * n / 2 */
	ok(bytes < 8 * n * per_stage,
	   "split: %zu stages, at most %zu bytes for realloc to copy (%zu)", n,
	   8 * n * per_stage, bytes);
	ok(twice < 3 * bytes + 4 * n * per_stage,
	   "split: twice the stages, about twice the bytes (%zu against %zu), not four times",
	   twice, bytes);
}
