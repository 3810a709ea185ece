/* test_diff.c - the generic line diff: shortest scripts, hunk layout,
 * wildcards, the cost cap and custom equality. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/diff.h"
#include "tap.h"

#define N(a) NS_ARRAY_SIZE(a)

static bool is_dots(const struct ns_diff_input *in, size_t i)
{
	return strcmp(in->a[i], "...") == 0;
}

static bool caseless(const struct ns_diff_input *in, size_t i, size_t j)
{
	return strcasecmp(in->a[i], in->b[j]) == 0;
}

/* Every line of both sides appears once, in order, with cursors that agree
 * and SAME only on equal (or wildcard) lines. Returns DEL + ADD count, or
 * -1 when the script is malformed. */
static long check_script(const struct ns_diff_input *in, const struct ns_diff *d)
{
	size_t ca = 0, cb = 0;
	long cost = 0;

	for (size_t k = 0; k < d->n; k++) {
		const struct ns_diff_edit *e = &d->v[k];
		if (e->a != ca || e->b != cb)
			return -1;
		if (e->op == NS_DIFF_DEL) {
			ca++, cost++;
		} else if (e->op == NS_DIFF_ADD) {
			cb++, cost++;
		} else if (in->wild && in->wild(in, ca)) {
			ca++, cb += e->nb;
		} else {
			bool eq = in->eq ? in->eq(in, ca, cb)
					 : strcmp(in->a[ca], in->b[cb]) == 0;
			if (e->nb != 1 || !eq)
				return -1;
			ca++, cb++;
		}
	}
	return ca == in->na && cb == in->nb ? cost : -1;
}

/* The hunks for a against b with strcmp, wildcards "...", 3 lines of context. */
static char *hunks(const char *const *a, size_t na, const char *const *b,
		   size_t nb, size_t context)
{
	struct ns_diff_input in = { a, na, b, nb, NULL, is_dots, NULL, 0 };
	struct ns_diff d = NS_DIFF_INIT;
	struct ns_buf out = NS_BUF_INIT;

	ns_diff_compute(&in, &d);
	if (check_script(&in, &d) < 0)
		ns_buf_adds(&out, "MALFORMED SCRIPT\n");
	ns_diff_hunks(&d, a, b, context, &out);
	ns_diff_free(&d);
	return ns_buf_detach(&out);
}

TEST(no_change)
{
	const char *a[] = { "x", "y" };
	char *s = hunks(a, 2, a, 2, 3);

	is_str(s, "", "identical inputs give no hunks");
	free(s);
	s = hunks(NULL, 0, NULL, 0, 3);
	is_str(s, "", "two empty inputs give no hunks");
	free(s);
}

TEST(edges)
{
	const char *xy[] = { "x", "y" };
	char *s = hunks(NULL, 0, xy, 2, 3);

	is_str(s, "@@ -0,0 +1,2 @@\n+x\n+y\n", "adding to nothing");
	free(s);
	s = hunks(xy, 1, NULL, 0, 3);
	is_str(s, "@@ -1,1 +0,0 @@\n-x\n", "deleting everything");
	free(s);
	s = hunks(xy, 2, xy + 1, 1, 0);
	is_str(s, "@@ -1,1 +0,0 @@\n-x\n", "deleting the first line, no context");
	free(s);
}

TEST(context)
{
	const char *a[] = { "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
			    "11", "12", "13", "14", "15", "16", "17", "18" };
	const char *b[N(a)];
	char *s;

	memcpy(b, a, sizeof(a));
	b[4] = "five";
	s = hunks(a, N(a), b, N(b), 3);
	is_str(s, "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
	       "one change, three lines of context each side");
	free(s);

	b[14] = "fifteen";
	s = hunks(a, N(a), b, N(b), 3);
	is_str(s, "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
		  "@@ -12,7 +12,7 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n",
	       "changes ten lines apart make two hunks");
	free(s);

	b[14] = "15";
	b[10] = "eleven";
	s = hunks(a, N(a), b, N(b), 3);
	is_str(s, "@@ -2,13 +2,13 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n"
		  " 10\n-11\n+eleven\n 12\n 13\n 14\n",
	       "changes six lines apart share one hunk");
	free(s);
}

TEST(deletions_first)
{
	const char *a[] = { "k", "a", "b", "k2" };
	const char *b[] = { "k", "c", "d", "k2" };
	char *s = hunks(a, 4, b, 4, 3);

	is_str(s, "@@ -1,4 +1,4 @@\n k\n-a\n-b\n+c\n+d\n k2\n",
	       "a change group lists deletions before additions");
	free(s);
}

TEST(shortest)
{
	const char *a[] = { "A", "B", "C", "A", "B", "B", "A" };
	const char *b[] = { "C", "B", "A", "B", "A", "C" };
	struct ns_diff_input in = { a, N(a), b, N(b), NULL, NULL, NULL, 0 };
	struct ns_diff d = NS_DIFF_INIT;

	ns_diff_compute(&in, &d);
	ok(check_script(&in, &d) == 5, "Myers' example takes 5 edits");
	ns_diff_free(&d);
}

/* Length of a longest common subsequence, by the textbook table. */
static size_t lcs(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	size_t t[16][16] = { { 0 } };

	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++)
			t[i][j] = strcmp(a[i - 1], b[j - 1]) == 0 ? t[i - 1][j - 1] + 1
				: t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1];
	return t[na][nb];
}

TEST(random_minimal)
{
	static const char *const sym[] = { "a", "b", "c" };
	unsigned seed = 12345;
	int bad = 0;

	for (int round = 0; round < 3000; round++) {
		const char *a[15], *b[15];
		size_t na, nb;
		seed = seed * 1103515245 + 12345;
		na = (seed >> 16) % 15;
		seed = seed * 1103515245 + 12345;
		nb = (seed >> 16) % 15;
		for (size_t i = 0; i < na; i++, seed = seed * 1103515245 + 12345)
			a[i] = sym[(seed >> 16) % 3];
		for (size_t i = 0; i < nb; i++, seed = seed * 1103515245 + 12345)
			b[i] = sym[(seed >> 16) % 3];
		struct ns_diff_input in = { a, na, b, nb, NULL, NULL, NULL, 0 };
		struct ns_diff d = NS_DIFF_INIT;
		ns_diff_compute(&in, &d);
		long cost = check_script(&in, &d);
		if (cost < 0 || (size_t)cost != na + nb - 2 * lcs(a, na, b, nb))
			bad++;
		ns_diff_free(&d);
	}
	ok(bad == 0, "3000 random pairs: valid and shortest scripts (%d bad)", bad);
}

TEST(cost_cap)
{
	const char *a[] = { "k", "a", "b", "c", "d", "k2" };
	const char *b[] = { "k", "b", "x", "d", "y", "k2" };
	struct ns_diff_input in = { a, N(a), b, N(b), NULL, NULL, NULL, 2 };
	struct ns_diff d = NS_DIFF_INIT;

	ns_diff_compute(&in, &d);
	ok(check_script(&in, &d) == 8, "past max_cost the middle is replaced wholesale");
	in.max_cost = 0;
	ns_diff_compute(&in, &d);
	ok(check_script(&in, &d) == 4, "without the cap the script is shortest");
	ns_diff_free(&d);
}

TEST(caseless)
{
	const char *a[] = { "Hello", "World" };
	const char *b[] = { "hello", "world", "!" };
	struct ns_diff_input in = { a, 2, b, 3, caseless, NULL, NULL, 0 };
	struct ns_diff d = NS_DIFF_INIT;
	struct ns_buf out = NS_BUF_INIT;

	ns_diff_compute(&in, &d);
	ns_diff_hunks(&d, a, b, 3, &out);
	is_str(ns_buf_str(&out), "@@ -1,2 +1,3 @@\n Hello\n World\n+!\n",
	       "the caller's equality decides; context prints a's text");
	ns_buf_free(&out);
	ns_diff_free(&d);
}

TEST(wildcards)
{
	const char *a[] = { "A", "...", "B" };
	const char *b1[] = { "A", "x", "y", "B" };
	const char *b2[] = { "A", "x", "y", "B2" };
	const char *b3[] = { "A", "B" };
	const char *b4[] = { "A", "B", "C" };
	const char *a5[] = { "...", "B", "...", "D", "..." };
	const char *b5[] = { "p", "B", "q", "r", "D", "s" };
	const char *a6[] = { "...", "X", "..." };
	char *s;

	s = hunks(a, 3, b1, 4, 3);
	is_str(s, "", "\"...\" absorbs the lines between its neighbours");
	free(s);
	s = hunks(a, 3, b3, 2, 3);
	is_str(s, "", "\"...\" absorbs zero lines");
	free(s);
	s = hunks(a, 3, b2, 4, 3);
	is_str(s, "@@ -1,3 +1,4 @@\n A\n ...\n-B\n+B2\n",
	       "a changed neighbour stays visible next to \"...\"");
	free(s);
	s = hunks(a, 3, b4, 3, 3);
	is_str(s, "@@ -1,3 +1,3 @@\n A\n ...\n B\n+C\n",
	       "an extra line after the last neighbour is an addition");
	free(s);
	s = hunks(a5, 5, b5, 6, 3);
	is_str(s, "", "\"...\" at start, middle and end");
	free(s);
	s = hunks(a6, 3, b5, 6, 3);
	is_str(s, "@@ -1,3 +1,6 @@\n ...\n-X\n ...\n",
	       "a missing line between two \"...\"");
	free(s);
}
