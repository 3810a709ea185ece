/* ls_form.h - an ls listing written one name a line, as a second way to
 * write the columns nstest's ls prints (nstest-scenario(5), EXPECTED
 * OUTPUT, "ls listings").
 *
 * nstest's ls prints in columns, as on a terminal; a session recorded
 * through a pipe shows GNU ls's output to a file, one name a line, and a
 * terminal or script(1) GNU ls's columns padded with tabs where they
 * reach a tab stop (ns_ls_form_untab). The verdict uses this file: the
 * block of an ls step that does not match as written is matched with
 * its tabs expanded, then against the names ls printed, cut out of its
 * columns and written one a line, which holds only when laying
 * those names out again with ns_ls_render() gives exactly what ls
 * printed; the matcher only ever compares text. So the block passes when
 * its lines, taken as names in order, are the listing, and only then. A
 * failed step's diff, show and --update write the output one name a line
 * when the file does. */
#ifndef NS_LS_FORM_H
#define NS_LS_FORM_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario/scenario.h"

/* Whether the rule is for step st, which ended with errno err: its
 * command is ls printing columns (without -1, unwrapped with
 * ns_stage_cmd, into no pipe), it succeeded, and its block is in order
 * with no "..." line. */
bool ns_ls_form_applies(const struct ns_step *st, int err);

/* st's block with every tab expanded to the next stop of 8 columns, as
 * a terminal or script(1) shows GNU ls's columns (ns_ls_untab), when the
 * rule is for st (ns_ls_form_applies) and a line of it holds a tab; else
 * NULL. st->nexpect lines; free with ns_ls_form_free_block(). */
struct ns_expect *ns_ls_form_untab(const struct ns_step *st, int err);
void ns_ls_form_free_block(struct ns_expect *block, size_t n);

/* What ls printed (output) one name a line, when st is ls printing
 * columns that succeeded and output splits into names that ls lays out
 * again to exactly output (ns_ls_split); else NULL. Heap. */
char *ns_ls_form_names(const struct ns_step *st, int err, const char *output);

/* Whether the file writes ls listings one name a line: st's own block
 * when its form shows (two or more lines that are not ls's columns),
 * else every block of the scenario whose form shows. */
bool ns_ls_form_one_per_line(const struct ns_scenario *sc, const struct ns_step *st);

/* ns_ls_form_names(st, err, output) when the file writes listings one
 * name a line, else (or when that is NULL) a copy of output. Heap. */
char *ns_ls_form_output(const struct ns_scenario *sc, const struct ns_step *st,
			int err, const char *output);

#endif
