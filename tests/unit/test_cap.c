/* test_cap.c - the cap on a step's output (run/result.h,
 * NS_STEP_OUTPUT_MAX, issue 28): a buffer with a max keeps to it and
 * says it was cut; the shared pipeline (run/pipeline.c) cuts the
 * command's output and each filter's, sed's pattern space included,
 * replaces what the step printed by NS_STEP_CUT_LINE and marks it cut;
 * the judge fails such a step whatever its transcript says. The wire's
 * side is in test_wire.c; whole runs on both backends in
 * tests/bats/limits.bats. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands/filter.h"
#include "run/pipeline.h"
#include "run/verdict.h"
#include "scn.h"
#include "tap.h"

TEST(buffer_keeps_to_its_max)
{
	struct ns_buf b = NS_BUF_LIMITED(8);

	ns_buf_adds(&b, "abcd");
	ok(!b.cut && b.len == 4 && ns_buf_room(&b) == 4, "buf: under its max, nothing is cut");
	ns_buf_addf(&b, "%s", "efgh");
	ok(!b.cut && b.len == 8 && ns_buf_room(&b) == 0, "buf: exactly its max is not cut");
	ns_buf_addc(&b, 'i');
	ok(b.cut && b.len == 8, "buf: one byte more is cut, and not kept");
	is_str(ns_buf_str(&b), "abcdefgh", "buf: what fitted stays");
	ns_buf_reset(&b);
	ok(!b.cut && b.max == 8, "buf: reset empties it, keeps its max");
	ns_buf_addf(&b, "%d%s", 12345, "6789");
	ok(b.cut && b.len == 8, "buf: a printf past the max is cut too");
	is_str(ns_buf_str(&b), "12345678", "buf: with what fitted of it");
	ns_buf_free(&b);

	struct ns_buf u = NS_BUF_INIT;
	ok(ns_buf_room(&u) == SIZE_MAX, "buf: no max, no limit");
	ns_buf_free(&u);
}

/* The first stage's executor: prints `text` `times` times. */
struct fake {
	const char *text;
	size_t times;
	int fail;
};

static int fake_exec(void *term, const struct ns_stage *st, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct fake *f = term;

	(void)st;
	for (size_t i = 0; i < f->times; i++)
		ns_buf_adds(out, f->text);
	return f->fail ? ns_cmd_fail(res, "read", f->fail) : 0;
}

/* A line of 1023 characters and its newline: 1 KiB. */
static char *kib_line(void)
{
	char *s = xmalloc(1025);

	memset(s, 'x', 1023);
	s[1023] = '\n';
	s[1024] = '\0';
	return s;
}

/* Step 0 of text, run with the fake executor. */
static void run_step(const char *text, struct fake *f, struct ns_step_out *out)
{
	struct ns_scenario *sc = parse(text);

	ns_pipeline_run(&sc->steps[0], fake_exec, f, out);
	ns_scenario_free(sc);
}

TEST(command_output_is_cut)
{
	char *line = kib_line();
	struct fake f = { line, (NS_STEP_OUTPUT_MAX >> 10) + 1, 0 };
	struct ns_step_out o;

	run_step("    # cat /f\n", &f, &o);
	ok(o.cut, "pipeline: a command that prints a KiB past the cap is cut");
	is_str(o.output, NS_STEP_CUT_LINE, "pipeline: its output is the line that says so");
	ok(!o.err && !o.syscall[0], "pipeline: with no errno: the kernel did nothing wrong");
	ns_step_out_free(&o);

	f.times = NS_STEP_OUTPUT_MAX >> 10;
	run_step("    # cat /f | wc -l\n", &f, &o);
	ok(!o.cut, "pipeline: exactly the cap is not cut");
	is_str(o.output, "65536\n", "pipeline: and every line reaches the filter");
	ns_step_out_free(&o);

	f.times = (NS_STEP_OUTPUT_MAX >> 10) + 1;
	f.fail = EIO;
	run_step("    # cat /f\n", &f, &o);
	ok(o.cut && !o.err, "pipeline: a command cut and then failing is cut, not failed");
	ns_step_out_free(&o);
	free(line);
}

TEST(each_filter_is_cut)
{
	char *line = kib_line();
	/* 32 MiB doubled twice: the first sed passes the cap, and wc,
	 * whose own output is one short line, must not hide it */
	struct fake f = { line, NS_STEP_OUTPUT_MAX >> 11, 0 };
	struct ns_step_out o;

	run_step("    # cat /f | sed p | sed p | wc -l\n", &f, &o);
	ok(o.cut, "pipeline: a filter in the middle that passes the cap cuts the step");
	is_str(o.output, NS_STEP_CUT_LINE, "pipeline: the last filter never sees the rest");
	ns_step_out_free(&o);

	/* one line whose pattern space grows past the cap inside one sed:
	 * 64 bytes doubled 21 times is 128 MiB, never printed as such */
	f = (struct fake){ "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n", 1, 0 };
	run_step("    # cat /f | sed 's/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; "
		 "s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; "
		 "s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; s/.*/&&/; "
		 "s/.*/&&/; s/.*/&&/' | wc -c\n", &f, &o);
	ok(o.cut, "pipeline: sed's pattern space is held to the cap as well");
	ns_step_out_free(&o);
	free(line);
}

TEST(judge_fails_a_cut_step)
{
	struct ns_scenario *sc = parse("    # cat /f\n    nstest: output of this step passed 64 MiB: cut\n"
				       "    # echo after\n    after\n");
	struct ns_obs obs[2];
	struct ns_run run = { .obs = obs, .n = 2 };
	struct ns_verdict v;

	memset(obs, 0, sizeof(obs));
	obs[0].ran = obs[1].ran = true;
	obs[0].out.output = xstrdup(NS_STEP_CUT_LINE);
	obs[0].out.cut = true;
	obs[1].out.output = xstrdup("after\n");
	ns_judge(sc, &run, NULL, &v);
	ok(v.status == NS_FAIL && !v.steps[0].ok && v.steps[0].diff,
	   "judge: a cut step fails, even against a transcript of the line itself");
	ok(v.steps[1].ok, "judge: the step after it keeps its own result");
	ok(v.reason && strstr(v.reason, "line 1 passed 64 MiB"),
	   "judge: the reason names the step and the cap: %s", v.reason ? v.reason : "(none)");
	ns_verdict_free(&v);
	for (size_t i = 0; i < 2; i++)
		ns_step_out_free(&obs[i].out);
	ns_scenario_free(sc);
}
