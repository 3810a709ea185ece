/* vars.h - each terminal's shell variables as the parser follows them
 * (nstest-scenario(5), Variables): lines run in file order, so what a
 * variable holds at a line is known before anything runs, and $NAME is
 * expanded as the line is read. A terminal's shell levels are followed
 * as the runner will see them: a command that starts a shell (unshare -m
 * sh, with no output shown: a failure would show one) begins a level
 * that has only the exported variables, and exit ends it. Each shell has
 * a number for $$ (commands/command.h, NS_SHELL_PID_BASE). */
#ifndef NS_SCENARIO_VARS_H
#define NS_SCENARIO_VARS_H

#include "scenario/scenario.h"
#include "scenario/shellword.h"

struct ns_vars;

struct ns_vars *ns_vars_new(void);
void ns_vars_free(struct ns_vars *vs);

/* The lookup of terminal term's variables, for ns_shell_split_vars; vs
 * and term must outlive the split. */
struct ns_vars_lookup {
	struct ns_vars *vs;
	const char *term;
};
const char *ns_vars_get(void *lookup, const char *name, size_t len);

/* The terminal named by a process ID a command line gives (nsenter -t
 * NUMBER): one that `echo $$` showed under it, or a shell's number ($$
 * expanded); NULL for any other. */
const char *ns_vars_pid_terminal(struct ns_vars *vs, const char *number);

/* What step st, parsed, does to its terminal's variables and shells. */
void ns_vars_after_step(struct ns_vars *vs, const struct ns_step *st);

#endif
