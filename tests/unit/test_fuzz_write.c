/* test_fuzz_write.c - a finding as a scenario file (fuzz/write.h): it
 * parses, its expected blocks are the second side's output (tables
 * [unordered]), and the first side's output is prose; and the dump a VM
 * prints (fuzz/dump.h) reads back as it was written. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/compare.h"
#include "fuzz/dump.h"
#include "fuzz/write.h"
#include "scn.h"
#include "tap.h"

static const char kernel_table[] =
	"61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
	"70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n";
static const char model_table[] =
	"1 0 0:1 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
	"2 1 0:2 / /a rw,relatime - tmpfs /dev/d1 rw\n";

/* The plan of a case: its operations and observations. */
static void take(struct ns_fuzz_outcome *o, const struct ns_run *run, const struct ns_fuzz_case *c)
{
	struct ns_fuzz_plan p;

	ns_fuzz_case_plan(c, &p);
	ns_fuzz_outcome_take(o, run, &p);
	ns_fuzz_plan_free(&p);
}

/* An outcome of the two operations below (mkdir, which changes no table,
 * and umount, which may) and the one observation after the second. */
static void outcome(struct ns_fuzz_outcome *o, int err, const char *table)
{
	struct ns_run run = { .n = 3 };
	struct ns_fuzz_case c = { NULL, 0, 0 };

	run.obs = calloc(3, sizeof(*run.obs));
	for (size_t i = 0; i < 3; i++)
		run.obs[i].ran = true;
	run.obs[1].out.err = err;
	run.obs[1].out.output = xstrdup(err ? "umount: EINVAL (Invalid argument)\n" : "");
	run.obs[0].out.output = xstrdup("");
	run.obs[2].out.output = xstrdup(table);
	ns_fuzz_case_add(&c, 1, "mkdir -p /a");
	ns_fuzz_case_add(&c, 1, "umount /b");
	take(o, &run, &c);
	ns_fuzz_case_free(&c);
	ns_run_free(&run);
}

TEST(finding_file)
{
	struct ns_fuzz_case c = { NULL, 0, 0 };
	struct ns_fuzz_outcome a, b;
	struct ns_fuzz_diff d;
	struct ns_fuzz_origin o = { 1, 17, "--steps 10 --terminals 3", "kernel", "model",
				    "6.18.0", "none", 10, "quirk umount-shifts-stacks" };
	struct ns_buf text = NS_BUF_INIT;
	struct ns_scenario *sc;

	ns_fuzz_case_add(&c, 1, "mkdir -p /a");
	ns_fuzz_case_add(&c, 1, "umount /b");
	outcome(&a, 0, kernel_table);
	outcome(&b, EINVAL, model_table);
	ok(ns_fuzz_compare(&c, &a, &b, &d) == NS_FUZZ_DIVERGES && d.step == 1 && d.kind == NS_FUZZ_ERRNO,
	   "an errno that differs at step 2 is a divergence");
	is_str(d.cls, "umount: errno 0 vs EINVAL", "its class names no path");
	ns_fuzz_write_text(&c, &a, &b, &d, &o, &text);
	sc = parse(ns_buf_str(&text));
	ok(sc != NULL, "the file parses");
	if (!sc) {
		printf("%s", ns_buf_str(&text));
		return;
	}
	ok(sc->nsteps == 3, "with the operations and one observation");
	ok(sc->steps[0].nexpect == 0, "a step that printed nothing expects nothing");
	ok(sc->steps[1].nexpect == 1 && !strcmp(sc->steps[1].expect[0].text, "umount: EINVAL (Invalid argument)"),
	   "the second side's error line is expected");
	ok(sc->steps[2].unordered && sc->steps[2].nexpect == 2 &&
	   !strcmp(sc->steps[2].expect[0].text, "1 0 0:1 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw") &&
	   !strcmp(sc->steps[2].expect[1].text, "2 1 0:2 / /a rw,relatime - tmpfs /dev/d1 rw"),
	   "the table is the second side's, [unordered]");
	ok(strstr(ns_buf_str(&text), "seed 1, scenario 17") != NULL, "the prose names the seed and scenario");
	ok(strstr(ns_buf_str(&text), "\n  | (nothing)\n") != NULL,
	   "and what the first side printed at the step, as prose");
	ok(strstr(ns_buf_str(&text), "Linux 6.18.0") && strstr(ns_buf_str(&text), "quirks: none"),
	   "the kernel release and the quirks");
	ok(strstr(ns_buf_str(&text), "\nCause: quirk umount-shifts-stacks.\n") != NULL, "and the cause");
	ns_scenario_free(sc);
	ns_buf_free(&text);
	ns_fuzz_diff_free(&d);

	/* the same errno, another table: the observation differs */
	ns_fuzz_outcome_free(&b);
	outcome(&b, 0, model_table);
	ok(ns_fuzz_compare(&c, &a, &b, &d) == NS_FUZZ_DIVERGES && d.kind == NS_FUZZ_TABLE &&
	   strstr(d.what, "table of sh1 differs"), "a table that differs: %s", d.what);
	ns_fuzz_diff_free(&d);
	ns_fuzz_outcome_free(&b);
	outcome(&b, 0, kernel_table);
	ok(ns_fuzz_compare(&c, &a, &b, &d) == NS_FUZZ_SAME, "the same outcome twice: no divergence");
	ns_fuzz_diff_free(&d);
	ns_fuzz_outcome_free(&a);
	ns_fuzz_outcome_free(&b);
	ns_fuzz_case_free(&c);
}

TEST(setup_failures)
{
	struct ns_fuzz_case c = { NULL, 0, 0 };
	struct ns_run failed = { .n = 2, .setup_failed = true };
	struct ns_fuzz_outcome a, b;
	struct ns_fuzz_diff d;

	ns_fuzz_case_add(&c, 1, "mount /dev/d1 /a");
	failed.obs = calloc(2, sizeof(*failed.obs));
	failed.aborted = xstrdup("no sandbox");
	take(&a, &failed, &c);
	take(&b, &failed, &c);
	ok(ns_fuzz_compare(&c, &a, &b, &d) == NS_FUZZ_UNJUDGED, "a set-up failure on both sides is no finding");
	ns_fuzz_diff_free(&d);
	ns_fuzz_outcome_free(&b);
	failed.obs[0].ran = true;
	failed.obs[0].out.output = xstrdup("");
	failed.setup_failed = false;
	take(&b, &failed, &c);
	ok(ns_fuzz_compare(&c, &a, &b, &d) == NS_FUZZ_UNJUDGED && strstr(d.what, "no sandbox on the first side"),
	   "nor on one side: a missing tool is no finding (%s)", d.what);
	ns_fuzz_diff_free(&d);
	ns_fuzz_outcome_free(&b);
	take(&b, &failed, &c);          /* step 1 ran, step 2 did not */
	ns_fuzz_outcome_free(&a);
	failed.obs[1].ran = true;
	failed.obs[1].out.output = xstrdup("");
	take(&a, &failed, &c);          /* both ran */
	ok(ns_fuzz_compare(&c, &a, &b, &d) == NS_FUZZ_DIVERGES && d.kind == NS_FUZZ_RAN,
	   "a side that stopped where the other ran on is");
	ns_fuzz_diff_free(&d);
	ns_fuzz_outcome_free(&a);
	ns_fuzz_outcome_free(&b);
	ns_run_free(&failed);
	ns_fuzz_case_free(&c);
}

TEST(dump)
{
	struct ns_run run = { .n = 2 }, back[2];
	struct ns_buf b = NS_BUF_INIT, err = NS_BUF_INIT;
	bool skipped[2];

	run.obs = calloc(2, sizeof(*run.obs));
	run.obs[0].ran = true;
	run.obs[0].out.err = EBUSY;
	run.obs[0].out.output = xstrdup("line\nrun 1 0 0 0 2 -1\nstep 1 0 3\n");
	run.aborted = xstrdup("stopped\nhere");
	ns_buf_adds(&b, "guest notes\n");
	ns_fuzz_dump_run(&b, 0, &run, 2);
	ns_fuzz_dump_run(&b, 1, NULL, 2);
	memset(back, 0, sizeof(back));
	ok(ns_fuzz_undump(ns_buf_str(&b), b.len, back, skipped, 2, &err) == 0, "a dump reads back");
	ok(back[0].obs[0].ran && back[0].obs[0].out.err == EBUSY &&
	   !strcmp(back[0].obs[0].out.output, run.obs[0].out.output) && !back[0].obs[1].ran,
	   "each step as it was, output that looks like frames included");
	is_str(back[0].aborted, "stopped\nhere", "the reason a run stopped");
	ok(!skipped[0] && skipped[1], "a skipped run");
	ns_run_free(&back[0]);
	ns_run_free(&back[1]);
	memset(back, 0, sizeof(back));
	ok(ns_fuzz_undump(ns_buf_str(&b), b.len - 5, back, skipped, 2, &err) < 0 && err.len,
	   "a dump cut short is an error: %s", ns_buf_str(&err));
	ns_run_free(&back[0]);
	ns_run_free(&back[1]);
	ns_run_free(&run);
	ns_buf_free(&b);
	ns_buf_free(&err);
}
