/* update.h - `nstest run --update`: rewrite a scenario's expected output
 * with what this kernel printed, the way cram and FileCheck's update
 * scripts do, so that a new scenario need not be typed out by hand.
 *
 * The rules (documented in nstest(1)):
 * - Only the expected output of steps that ran and did not match is
 *   rewritten. A block that still matches stays byte-for-byte as it is,
 *   whatever numbers, "..." or "[unordered]" it holds; prose, comments,
 *   directives, blank lines and command lines always do.
 * - A rewritten block is what the step printed, in the block's own
 *   indentation (a tab or four spaces). An "[unordered]" marker is kept;
 *   "..." lines are not (the block now lists every line).
 * - Mount IDs, devices and peer groups in the rewritten mountinfo lines
 *   and findmnt rows (ID, PARENT, MAJ:MIN; a row keeps the kernel's blanks)
 *   are renamed consistently across the whole file: a number that a kept
 *   block already names gets that name; any other gets a fresh canonical
 *   name in order of first appearance through the file (on each line:
 *   PARENT, ID, MAJ:MIN, then the tags): mount IDs 100, 101, ...,
 *   devices 8:1, 8:2, ..., peer groups 1, 2, ..., each skipping the names
 *   a kept block uses; stat's device numbers are named as devices, its
 *   inode numbers 1, 2, ... The result does not depend on the kernel's own
 *   numbers, so it is the same on every machine and with either kind of
 *   stand-in, and a second update finds nothing to rewrite.
 * - The new text is parsed back and judged against the same run before
 *   it is written; if it would not pass, nothing is written. */
#ifndef NS_UPDATE_H
#define NS_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run/backend.h"
#include "report/reporter.h"
#include "run/runner.h"
#include "scenario/scenario.h"

/* Canonical first names (see above). */
#define NS_UPDATE_FIRST_ID 100UL
#define NS_UPDATE_DEV_MAJOR 8UL
#define NS_UPDATE_FIRST_GROUP 1UL
#define NS_UPDATE_FIRST_INO 1UL
#define NS_UPDATE_FIRST_NSID 1UL
#define NS_UPDATE_FIRST_UNIQUE 1000UL
#define NS_UPDATE_FIRST_PID 4000UL

struct ns_update {
	char *text;           /* the new file */
	size_t len;
	size_t rewritten;     /* blocks replaced */
	char *error;          /* why sc cannot be rewritten, or NULL */
};

/* The file sc was parsed from, rebuilt from sc->raw: each line and its
 * '\n', but the last without one unless final_newline. */
void ns_update_original(const struct ns_scenario *sc, bool final_newline,
			struct ns_buf *out);

/* Rewrite sc's failing blocks with what run observed. No I/O. Returns 0,
 * or -1 with u->error set (a step printed a line no block can hold). */
int ns_update_rewrite(const struct ns_scenario *sc, const struct ns_run *run,
		      bool final_newline, struct ns_update *u);

/* Parse u->text back and judge it against run: 0 when every step that
 * ran now matches, or -1 with u->error set. */
int ns_update_verify(const struct ns_scenario *sc, const struct ns_run *run,
		     struct ns_update *u);

void ns_update_free(struct ns_update *u);

/* ---- files (update_file.c) ---- */

enum ns_update_outcome {
	NS_UPDATE_UNCHANGED,  /* every block matched; the file is untouched */
	NS_UPDATE_WRITTEN,    /* blocks were rewritten and the file replaced */
	NS_UPDATE_SKIPPED,    /* the scenario did not run here; untouched */
	NS_UPDATE_FAILED,     /* cannot be updated; untouched */
};

/* Update the file of one runner result. *why gets the reason of a skip
 * or a failure (heap, or NULL); *blocks the number of blocks rewritten. */
enum ns_update_outcome ns_update_apply(const struct ns_result *r, char **why,
				       size_t *blocks);

/* Run sc[0..n) and update each file in list order, printing one line per
 * file and a summary to out. Returns the number that failed. */
size_t ns_update_all(struct ns_scenario *const *sc, size_t n,
		     const struct ns_runner_opts *o, FILE *out);

#endif
