/* scn.h - a scenario from text, for the unit tests that need one parsed
 * (the parse error, if any, is printed as a TAP comment). */
#ifndef NS_TEST_SCN_H
#define NS_TEST_SCN_H

#include <stdio.h>
#include <string.h>

#include "scenario/scenario.h"

static inline struct ns_scenario *parse(const char *text)
{
	struct ns_diag d = { NULL, 0 };
	struct ns_scenario *sc = ns_scenario_parse("t.scn", text, strlen(text), &d);

	if (!sc)
		printf("# parse error: %s\n", d.msg);
	ns_diag_free(&d);
	return sc;
}

#endif
