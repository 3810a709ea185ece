/* plan.h - a plan made from a parsed scenario, as data: its header and
 * the steps a caller picks, borrowed from it, with steps of the plan's
 * own put in between, each parsed from one command line by the parser's
 * own code. For a run that is not the file's own: run/observe.c plays
 * the scenario with a `cat /proc/self/mountinfo` per live terminal put in
 * at the points it draws. A plan is an ordinary struct ns_scenario to the
 * runner and the backends; ns_scenario_free frees it, and leaves the
 * borrowed steps to the scenario they came from, which must outlive it. */
#ifndef NS_PLAN_H
#define NS_PLAN_H

#include "scenario/scenario.h"

/* A plan with sc's header and no steps: its path, name and directives
 * (root, requires, kernel, devices, errors, xfail ranges, title), and
 * what the parser learnt of the whole file (the stand-in names, whether
 * one is mounted more than once and both ways, a one-way command, the
 * commands used), so that the plan is played as the file is: on the same
 * stand-ins, in the same mode. No raw lines: a plan is not shown. */
struct ns_scenario *ns_plan_new(const struct ns_scenario *sc);

/* Append a copy of step st (a step of the scenario the plan was made
 * from) to plan, borrowed: it shares st's command, pipeline and
 * expected lines. */
void ns_plan_borrow(struct ns_scenario *plan, const struct ns_step *st);

/* Append a step of the plan's own: cmdline typed at the prompt of
 * terminal ("" for the bare prompt; prompt '#' or '$') on line `line`
 * of the file, with no expected lines, read as the parser reads the
 * command of a session line (scenario_parse.c): split into its pipeline,
 * each stage parsed by its command's parser, `cat FILE` put before a
 * filter that reads FILE. What the parser learns from it joins the
 * plan's header (the commands used, a one-way command, a stand-in name);
 * a name mounted both read-only and read-write is judged from this line
 * alone. 0, or -1 with diag holding the errors as ns_scenario_parse
 * gives them, and no step appended. */
int ns_plan_add_command(struct ns_scenario *plan, const char *terminal, char prompt,
			int line, const char *cmdline, struct ns_diag *diag);

#endif
