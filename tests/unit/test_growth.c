/* test_growth.c - work that must grow linearly with its input, counted
 * rather than timed (issue 28, "Time"): no assertion here reads a clock.
 *
 * This program is linked with -Wl,--wrap=realloc -Wl,--wrap=strcmp (the
 * Makefile), so that every realloc(3) and strcmp(3) call of libnstest.a
 * comes through the counters below first:
 *
 * - the shell splitter's stage array (scenario/shellword.c) grows by
 *   doubling: the bytes realloc may have to copy for a line of N stages
 *   are O(N), where growing by one element made them O(N^2);
 * - a model directory (model/world.c) finds a child by its name with a
 *   few comparisons, where it compared the name with every child's:
 *   N files made O(N^2) strcmp calls (100000 files passed the 60 s
 *   timeout on the model, against 3.7 s on the kernel);
 * - and its index agrees with its list through removals and renames,
 *   the list keeping creation order.
 * bench/growth.c times the same two things at growing sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
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

static struct m_sb *new_sb(struct m_world *w)
{
	m_world_init(w);
	return m_sb_new(w, "/dev/sdt", "tmpfs");
}

/* touch /d/f0 ... /d/f(n-1): each name looked up, then made */
static size_t touch_comparisons(size_t n)
{
	struct m_world w;
	struct m_node *root = new_sb(&w)->root;
	char name[32];
	bool all = true;

	strcmp_calls = 0;
	counting = true;
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		if (m_node_child(root, name))
			all = false;
		m_node_add(root, name, false);
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		struct m_node *k = m_node_child(root, name);
		all &= k && !strcmp(k->name, name);
	}
	counting = false;
	ok(all, "dir: each of %zu files is new, then found under its name", n);
	m_world_free(&w);
	return strcmp_calls;
}

TEST(dir_lookups_do_not_compare_with_every_child)
{
	size_t n = 5000, calls = touch_comparisons(n), twice = touch_comparisons(2 * n);

	/* 2n lookups; every child compared would be about n * n */
	ok(calls < 8 * n, "dir: %zu files made and looked up with %zu name comparisons (< %zu)",
	   n, calls, 8 * n);
	ok(twice < 3 * calls, "dir: twice the files, about twice the comparisons (%zu against %zu)",
	   twice, calls);
}

/* Every child of d in list order, names joined by ' '. */
static char *listing(const struct m_node *d)
{
	struct ns_buf b = NS_BUF_INIT;

	for (const struct m_node *k = d->kids; k; k = k->next)
		ns_buf_addf(&b, "%s%s", b.len ? " " : "", k->name);
	return ns_buf_detach(&b);
}

TEST(dir_index_agrees_with_the_list)
{
	struct m_world w;
	struct m_node *root = new_sb(&w)->root, *d, *e, *k;
	size_t n = 3000, found = 0, missing = 0, count = 0;
	char name[32];
	char *got;

	d = m_node_add(root, "d", true);
	e = m_node_add(root, "e", true);
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		m_node_add(d, name, false);
	}
	/* rm every odd one; mv every fifth even one to e, renamed */
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		k = m_node_child(d, name);
		if (i % 2) {
			m_node_remove(k);
		} else if (i % 10 == 0) {
			snprintf(name, sizeof(name), "g%zu", i);
			m_node_move(k, e, name);
		}
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		k = m_node_child(d, name);
		if (i % 2 == 0 && i % 10 != 0)
			found += k && k->parent == d && !strcmp(k->name, name);
		else
			missing += !k;
		snprintf(name, sizeof(name), "g%zu", i);
		k = m_node_child(e, name);
		if (i % 10 == 0)
			found += k && k->parent == e;
		else
			missing += !k;
	}
	ok(found == n / 2 && missing == n + n / 2,
	   "dir: after removals and renames, each name found where it is and nowhere else "
	   "(%zu found, %zu missing)", found, missing);
	for (k = d->kids; k; k = k->next)
		count++;
	ok(count == d->nkids && count == 2 * n / 5, "dir: its count follows the list (%zu)", count);
	got = listing(e);
	ok(!strncmp(got, "g0 g10 g20 g30 ", 15), "dir: a renamed file goes last, in the order of the renames");
	free(got);
	got = listing(d);
	ok(!strncmp(got, "f2 f4 f6 f8 f12 ", 16), "dir: the list keeps creation order");
	free(got);
	/* refill what was removed: found again, after the rest */
	snprintf(name, sizeof(name), "f%zu", (size_t)1);
	k = m_node_add(d, name, false);
	ok(m_node_child(d, name) == k && d->last == k && !k->next, "dir: a name made again is found, last");
	m_world_free(&w);
}
