/* verdict.h - judging a run: each step's expected output against what
 * the backend observed, and the scenario's overall result. */
#ifndef NS_VERDICT_H
#define NS_VERDICT_H

#include <stdbool.h>

#include "run/result.h"
#include "scenario/scenario.h"

enum ns_status { NS_PASS, NS_FAIL, NS_SKIP, NS_XFAIL, NS_XPASS };

struct ns_step_verdict {
	bool ran, ok;
	char *diff;     /* unified diff when !ok and ran, else NULL */
};

struct ns_verdict {
	enum ns_status status;
	char *reason;   /* skip reason, abort reason, or NULL */
	struct ns_step_verdict *steps;
	size_t n;
	size_t failed;  /* steps that ran and did not match */
	/* not a verdict on the kernel: the sandbox could not be built, or
	 * nstest's own resources ran out before anything went wrong that
	 * the kernel answered (run/trouble.h); status stays NS_FAIL, and
	 * `run --bisect` answers 125 */
	bool unjudged;
};

struct ns_matcher;
struct ns_match_shape;

/* The shape of st's output lines for the matcher (match/match.h): a
 * findmnt with an ID, PARENT or MAJ:MIN column, a stat -c whose format
 * has %d, %D or %i, or mountpoint -d; alone or followed by grep (which
 * keeps or drops whole lines, unless -c counts them). False when the step
 * prints no such lines: its mountinfo records are renamed. */
bool ns_judge_shape(const struct ns_step *st, struct ns_match_shape *out);

/* Match every step that ran against its expected output. A scenario with
 * an xfail range that holds for release (the backend's kernel release;
 * NULL for none) turns FAIL into XFAIL and PASS into XPASS. */
void ns_judge(const struct ns_scenario *sc, const struct ns_run *run,
	      const char *release, struct ns_verdict *v);
/* ns_judge on the caller's matcher m, new from ns_matcher_new(): the
 * steps are matched on it in order (each with the view its result names,
 * run/result.h); afterwards m still holds the renaming as the last step
 * left it, pairs released on the way gone. For --update. */
void ns_judge_with(const struct ns_scenario *sc, const struct ns_run *run,
		   const char *release, struct ns_matcher *m, struct ns_verdict *v);
/* What step st printed (output, with errno err), written in the forms
 * the file uses: its error line in util-linux's words (run/ulmsg.h), an
 * ls listing one name a line (run/ls_form.h). For show, the HTML page and
 * --update. Heap. */
char *ns_judge_output(const struct ns_scenario *sc, const struct ns_step *st,
		      int err, const char *output);
void ns_verdict_skip(struct ns_verdict *v, char *reason);
void ns_verdict_free(struct ns_verdict *v);
const char *ns_status_name(enum ns_status s);

#endif
