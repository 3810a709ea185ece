/* step.h - one matcher step from a list of expected lines, for the unit
 * tests of the matcher (mountinfo lines and findmnt rows alike). */
#ifndef NS_TEST_STEP_H
#define NS_TEST_STEP_H

#include <stdlib.h>

#include "match/match.h"

/* exp is a NULL-terminated list of expected lines; sh is NULL for the
 * default shape (mountinfo). The diff of a failure goes to *diff when
 * diff is not NULL. */
static inline bool match_step(struct ns_matcher *m, const struct ns_match_shape *sh,
			      const char *const *exp, bool unordered, const char *actual,
			      char **diff)
{
	struct ns_expect e[64] = { { NULL, 0 } };
	struct ns_buf d = NS_BUF_INIT;
	size_t n = 0;
	bool ok;

	for (; exp[n]; n++)
		e[n] = (struct ns_expect){ xstrdup(exp[n]), (int)n + 1 };
	ok = ns_matcher_step_shaped(m, e, n, unordered, actual, sh, &d);
	for (size_t i = 0; i < n; i++)
		free(e[i].text);
	if (diff)
		*diff = ns_buf_detach(&d);
	else
		ns_buf_free(&d);
	return ok;
}

#endif
