/* update_run.h - `run --update` as the unit tests drive it: rewrite a
 * parsed scenario with a run's outputs, then check the result the way
 * the CLI does before it writes a file. */
#ifndef NS_TEST_UPDATE_RUN_H
#define NS_TEST_UPDATE_RUN_H

#include <stdio.h>

#include "update/update.h"

/* The rewritten text (heap), or NULL. The number of rewritten blocks
 * goes to *blocks when blocks is not NULL; on an error, its message goes
 * to *err when err is not NULL, else to a TAP comment. */
static inline char *update_run(const struct ns_scenario *sc, const struct ns_run *run,
			       bool final_newline, size_t *blocks, char **err)
{
	struct ns_update u;
	char *res = NULL;

	if (ns_update_rewrite(sc, run, final_newline, &u) == 0 && ns_update_verify(sc, run, &u) == 0) {
		res = u.text;
		u.text = NULL;
		if (blocks)
			*blocks = u.rewritten;
	} else if (err) {
		*err = u.error;
		u.error = NULL;
	} else {
		printf("# update: %s\n", u.error ? u.error : "?");
	}
	ns_update_free(&u);
	return res;
}

#endif
