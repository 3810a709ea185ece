/* report.h - the human report: one line per scenario, the failing steps
 * with their diffs, and with verbose the whole transcript as it ran. */
#ifndef NS_REPORT_H
#define NS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "backend.h"
#include "verdict.h"

struct ns_tally {
	unsigned passed, failed, skipped, xfailed, xpassed;
};

void ns_report_scenario(FILE *f, const struct ns_scenario *sc,
			const struct ns_run *run, const struct ns_verdict *v,
			bool verbose);
void ns_tally_add(struct ns_tally *t, enum ns_status s);
/* "N passed, N failed, N skipped" alone on its line. */
void ns_report_summary(FILE *f, const struct ns_tally *t);

#endif
