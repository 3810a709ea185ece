/* show.h - `nstest show`: a scenario printed as the article reads, with
 * this kernel's real output in place of the transcript's. */
#ifndef NS_SHOW_H
#define NS_SHOW_H

#include <stdio.h>

#include "report/reporter.h"

/* Print r's scenario to f: every line of the file as it is, except the
 * expected output, and below each command what this kernel printed, in
 * the block's indentation and with its own numbers. A step that did not
 * match is followed by lines starting with "!!": where it is in the file,
 * the failed system call if any, and the diff of expected against actual
 * (numbers renamed as in the run report). A step that never ran gets one
 * line starting with "--". Last comes a blank line and the result line:
 * "PASS  FILE", "FAIL  FILE (N of M steps differ ...)", "SKIP  FILE
 * (reason)"; a skipped scenario prints only that line. about, when not
 * NULL, is added to the result line, e.g. "Linux 6.8.0, tmpfs
 * stand-ins, kernel backend". */
struct ns_show_notes {
	/* per step, or NULL: why the mounts the step made or removed are
	 * there or gone, a line each (the model's causes), printed under the
	 * step's output after "##  " */
	char **why;
	/* per step, or NULL: what the model (the documented rules) printed,
	 * shown under a step that did not match, after "=>  " (--explain) */
	char **model;
	size_t n;
};

/* notes may be NULL. */
void ns_show(FILE *f, const struct ns_result *r, const char *about,
	     const struct ns_show_notes *notes);

#endif
