/* test_plan.c - plans made from a parsed scenario as data
 * (scenario/plan.h): the header copied, steps borrowed, and a step of the
 * plan's own parsed from one command line as a file's would be. */
#include <stdlib.h>
#include <string.h>

#include "commands/command.h"
#include "scenario/plan.h"
#include "scenario/scenario.h"
#include "tap.h"

static const char *text =
	"title: plan\n"
	"root: /dev/sda2\n"
	"xfail: < 6.1: an old kernel\n"
	"\n"
	"Prose.\n"
	"    sh1# mount /dev/sdb /mnt\n"
	"    sh2# unshare -U -m --map-root-user sh\n"
	"    sh1# cat /proc/self/mountinfo\n"
	"    12 1 0:5 / /mnt rw shared:1\n"
	"    $ grep mnt /proc/self/mountinfo\n";

static struct ns_scenario *parse(const char *t)
{
	struct ns_diag d = { NULL, 0 };
	struct ns_scenario *sc = ns_scenario_parse("t.scn", t, strlen(t), &d);

	if (!sc)
		printf("# %s\n", d.msg);
	ns_diag_free(&d);
	return sc;
}

static void same_stage(const struct ns_stage *a, const struct ns_stage *b, const char *what)
{
	bool same = a->def == b->def && a->argc == b->argc &&
		    a->file_of_next == b->file_of_next;

	for (size_t i = 0; same && i < a->argc; i++)
		same = !strcmp(a->argv[i], b->argv[i]) && a->col[i] == b->col[i];
	ok(same, "%s: the stage the file's parse gives", what);
}

TEST(header)
{
	struct ns_scenario *sc = parse(text), *plan;

	ok(sc != NULL, "the scenario parses");
	if (!sc)
		return;
	plan = ns_plan_new(sc);
	is_str(plan->path, "t.scn", "path");
	ok(plan->path != sc->path, "path: the plan's own copy");
	is_str(plan->name, "t", "name");
	is_str(plan->root_dev, "/dev/sda2", "root");
	is_str(plan->title, "plan", "title");
	ok(plan->nxfails == 1 && plan->xfails != sc->xfails, "xfail ranges copied");
	is_str(plan->xfails[0].reason, "an old kernel", "xfail reason");
	ok(plan->ndevnames == 2 && plan->devnames != sc->devnames, "stand-in names copied");
	is_str(plan->devnames[0], "/dev/sda2", "the root stand-in first");
	is_str(plan->devnames[1], "/dev/sdb", "then the others");
	ok(plan->one_way && !memcmp(&plan->commands, &sc->commands, sizeof(sc->commands)),
	   "what the parser learnt of the whole file: one-way, the commands used");
	ok(plan->nsteps == 0 && plan->nraw == 0, "no steps, no raw lines");
	ns_scenario_free(plan);
	is_str(sc->title, "plan", "the scenario keeps its header");
	ns_scenario_free(sc);
}

TEST(steps)
{
	struct ns_scenario *sc = parse(text), *plan;
	struct ns_diag d = { NULL, 0 };
	const struct ns_step *cat, *grep;

	if (!sc)
		return;
	plan = ns_plan_new(sc);
	memset(&plan->commands, 0, sizeof(plan->commands));
	ns_plan_borrow(plan, &sc->steps[0]);
	ok(ns_plan_add_command(plan, "sh1", '#', sc->steps[2].line,
			       "cat /proc/self/mountinfo", &d) == 0, "a cat step added");
	ok(ns_plan_add_command(plan, "", '$', 10, "grep mnt /proc/self/mountinfo", &d) == 0,
	   "a grep with its FILE added at the bare prompt");
	ns_plan_borrow(plan, &sc->steps[1]);
	ok(plan->nsteps == 4, "four steps");
	ok(plan->steps[0].borrowed && plan->steps[3].borrowed &&
	   !plan->steps[1].borrowed && !plan->steps[2].borrowed, "which are borrowed");
	ok(plan->steps[0].pipeline.stages == sc->steps[0].pipeline.stages &&
	   plan->steps[3].cmdline == sc->steps[1].cmdline, "a borrowed step shares its parts");

	cat = &plan->steps[1];
	is_str(cat->terminal, "sh1", "cat: terminal");
	ok(cat->prompt == '#' && cat->line == 8 && cat->nexpect == 0,
	   "cat: prompt, line, no expected lines");
	is_str(cat->cmdline, "cat /proc/self/mountinfo", "cat: command line");
	ok(cat->col == sc->steps[2].col, "cat: column as on '    sh1# ...'");
	ok(cat->pipeline.n == 1, "cat: one stage");
	same_stage(&cat->pipeline.stages[0], &sc->steps[2].pipeline.stages[0], "cat");
	ok(ns_cmd_set_has(&plan->commands, NS_CMD_CAT), "cat: its command joins the plan's");

	grep = &plan->steps[2];
	is_str(grep->terminal, "", "grep: the bare prompt");
	ok(grep->prompt == '$', "grep: prompt");
	ok(grep->pipeline.n == 2 && grep->pipeline.stages[0].file_of_next,
	   "grep FILE: 'cat FILE' put before it, as the parser does");
	same_stage(&grep->pipeline.stages[0], &sc->steps[3].pipeline.stages[0], "grep's cat");
	same_stage(&grep->pipeline.stages[1], &sc->steps[3].pipeline.stages[1], "grep");

	ok(ns_plan_add_command(plan, "sh1", '#', 12, "nosuch /x", &d) < 0,
	   "an unknown command: refused");
	is_str(d.msg, "t.scn:12:10: error: unknown command 'nosuch' (did you mean 'touch'?)",
	       "an unknown command: the parser's message");
	ok(plan->nsteps == 4, "an unknown command: no step added");
	ns_diag_free(&d);

	ns_scenario_free(plan);
	is_str(sc->steps[0].cmdline, "mount /dev/sdb /mnt",
	       "freeing the plan leaves the borrowed steps to the scenario");
	ok(sc->steps[0].pipeline.n == 1 && sc->steps[0].pipeline.stages[0].def &&
	   !strcmp(sc->steps[0].pipeline.stages[0].argv[1], "/dev/sdb"),
	   "... their pipelines too");
	ns_scenario_free(sc);
}
