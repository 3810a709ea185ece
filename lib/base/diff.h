/* diff.h - a line diff between two arrays of strings, with the caller
 * deciding which lines count as the same, and its unified rendering.
 *
 * The matcher uses it to show a failed step (nstest-scenario(5), EXPECTED
 * OUTPUT), but nothing here knows about mountinfo: equality is a callback, and so is the notion of a
 * wildcard line (the transcript's "...") that stands for any number of
 * lines of the other side. */
#ifndef NS_DIFF_H
#define NS_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* What to compare: a (the "old" side, here the expected lines) against b. */
struct ns_diff_input {
	const char *const *a;
	size_t na;
	const char *const *b;
	size_t nb;
	/* a[i] and b[j] count as the same line; NULL means strcmp() == 0 */
	bool (*eq)(const struct ns_diff_input *in, size_t i, size_t j);
	/* a[i] stands for any number (0+) of b lines; NULL means none does */
	bool (*wild)(const struct ns_diff_input *in, size_t i);
	void *ctx;            /* for the callbacks */
	/* Give up looking for a shortest script past this many differing
	 * lines and report the rest as replaced wholesale; 0 means a default
	 * that keeps a diff of two 50k-line outputs well under a second. */
	size_t max_cost;
};

enum ns_diff_op {
	NS_DIFF_SAME,         /* a[a] shown as context; stands for b[b..b+nb) */
	NS_DIFF_DEL,          /* a[a] only in a */
	NS_DIFF_ADD,          /* b[b] only in b */
};

/* One displayed line. a and b are where each side's cursor stands when the
 * line is reached, so both grow monotonically along a script. */
struct ns_diff_edit {
	enum ns_diff_op op;
	size_t a, b;
	size_t nb;            /* SAME: b lines covered (1, or 0+ for a wildcard) */
};

struct ns_diff {
	struct ns_diff_edit *v;
	size_t n, cap;
};
#define NS_DIFF_INIT { NULL, 0, 0 }

/* Replace d's contents with an edit script turning in->a into in->b:
 * shortest (Myers) up to in->max_cost, every wildcard shown as context
 * and absorbing the unexplained b lines around it. */
void ns_diff_compute(const struct ns_diff_input *in, struct ns_diff *d);

/* Append one line to a script (for callers that build or rewrite one). */
void ns_diff_push(struct ns_diff *d, enum ns_diff_op op, size_t a, size_t b,
		  size_t nb);

/* Append the script's hunks ("@@ -a,n +b,m @@" and ' ', '-', '+' lines)
 * with `context` lines of context around each change; SAME lines print
 * a's text, ADD lines b's. Appends nothing when nothing changed. */
void ns_diff_hunks(const struct ns_diff *d, const char *const *a,
		   const char *const *b, size_t context, struct ns_buf *out);

void ns_diff_free(struct ns_diff *d);

#endif
