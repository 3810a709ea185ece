/* test_trouble.c - nstest's own trouble is no verdict on the kernel
 * (run/trouble.h): which errno values of which calls are the plumbing's,
 * and how the judge marks a run it cannot judge. No kernel: each "run" is
 * made in memory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/trouble.h"
#include "run/verdict.h"
#include "scn.h"
#include "tap.h"

TEST(which_errno)
{
	ok(ns_trouble_step("open", EMFILE), "EMFILE from open is nstest's");
	ok(ns_trouble_step("fsmount", EMFILE), "EMFILE even from a call under test (no room for its fd)");
	ok(ns_trouble_step("open_tree", ENFILE), "ENFILE likewise");
	ok(ns_trouble_step("opendir", ENOMEM), "ENOMEM from opendir (malloc under ulimit -v) is nstest's");
	ok(ns_trouble_step("fork", EAGAIN), "EAGAIN from fork (ulimit -u) is nstest's");
	ok(ns_trouble_step("read mountinfo", ENOMEM), "ENOMEM reading mountinfo is nstest's");
	ok(!ns_trouble_step("mount", ENOMEM), "ENOMEM from mount(2) is the kernel's answer");
	ok(!ns_trouble_step("unshare", ENOMEM), "ENOMEM from unshare(2) is the kernel's answer");
	ok(!ns_trouble_step("umount2", EAGAIN), "EAGAIN from umount2 (MNT_EXPIRE) is the kernel's answer");
	ok(!ns_trouble_step("mount", ENOSPC), "ENOSPC (fs.mount-max) is the kernel's answer");
	ok(!ns_trouble_step("mount", EINVAL), "EINVAL is the kernel's answer");
	ok(!ns_trouble_step("open", ENOENT), "ENOENT is no resource");
}

TEST(what_ran_out)
{
	char *s = ns_trouble_what(EMFILE);

	ok(s && strstr(s, "file descriptors") && strstr(s, "ulimit -n"), "EMFILE names the open-file limit: %s", s);
	free(s);
	s = ns_trouble_what(ENOMEM);
	ok(s && strstr(s, "memory") && strstr(s, "ulimit -v"), "ENOMEM names the address-space limit: %s", s);
	free(s);
	s = ns_trouble_what(EAGAIN);
	ok(s && strstr(s, "process") && strstr(s, "ulimit -u"), "EAGAIN names the process limit: %s", s);
	free(s);
	ok(!ns_trouble_what(EINVAL), "EINVAL is no resource");
}

static const char scenario[] =
	"    # mkdir /a\n"
	"    # mount -t tmpfs t /a\n"
	"    # ls /a\n"
	"    x\n";

/* The verdict on scenario when step `at` failed in syscall with err
 * (the steps before it printed what they should; none after it ran). */
static void judge_failure(size_t at, const char *syscall, int err, struct ns_verdict *v)
{
	struct ns_scenario *sc = parse(scenario);
	struct ns_run run;

	memset(&run, 0, sizeof(run));
	if (!sc) {
		memset(v, 0, sizeof(*v));
		return;
	}
	run.n = sc->nsteps;
	run.obs = xcalloc(run.n, sizeof(*run.obs));
	for (size_t i = 0; i <= at && i < run.n; i++) {
		run.obs[i].ran = true;
		run.obs[i].out.output = xstrdup(i == 2 ? "x\n" : "");
	}
	run.obs[at].out.err = err;
	snprintf(run.obs[at].out.syscall, sizeof(run.obs[at].out.syscall), "%s", syscall);
	free(run.obs[at].out.output);
	run.obs[at].out.output = xasprintf("%s: %s\n", syscall, strerror(err));
	ns_judge(sc, &run, NULL, v);
	ns_run_free(&run);
	ns_scenario_free(sc);
}

TEST(judged_or_not)
{
	struct ns_verdict v;

	judge_failure(2, "opendir", ENOMEM, &v);
	ok(v.status == NS_FAIL && v.unjudged, "ls out of memory: not judged");
	ok(v.reason && strstr(v.reason, "cannot judge: nstest ran out of memory") &&
	   strstr(v.reason, "line 3") && strstr(v.reason, "opendir: ENOMEM"),
	   "the reason names the resource, the line and the call: %s", v.reason);
	ns_verdict_free(&v);

	judge_failure(1, "fsmount", EMFILE, &v);
	ok(v.status == NS_FAIL && v.unjudged, "no descriptor for fsmount: not judged");
	ns_verdict_free(&v);

	judge_failure(1, "mount", ENOMEM, &v);
	ok(v.status == NS_FAIL && !v.unjudged, "mount(2)'s own ENOMEM is a verdict");
	ns_verdict_free(&v);

	judge_failure(1, "mount", EINVAL, &v);
	ok(v.status == NS_FAIL && !v.unjudged && !(v.reason && strstr(v.reason, "cannot judge")),
	   "a wrong answer is a verdict");
	ns_verdict_free(&v);
}

/* A run that broke off: for want of a descriptor it is not judged; a
 * mismatch before it is still a verdict. */
TEST(aborted_runs)
{
	struct ns_scenario *sc = parse(scenario);
	struct ns_verdict v;
	struct ns_run run;

	if (!sc)
		return;
	memset(&run, 0, sizeof(run));
	run.n = sc->nsteps;
	run.obs = xcalloc(run.n, sizeof(*run.obs));
	run.obs[0].ran = true;
	run.obs[0].out.output = xstrdup("");
	run.aborted = xstrdup("cannot switch to terminal 'sh1': open: Too many open files");
	run.abort_err = EMFILE;
	ns_judge(sc, &run, NULL, &v);
	ok(v.status == NS_FAIL && v.unjudged, "broke off for want of a descriptor: not judged");
	ok(v.reason && strstr(v.reason, "cannot judge: cannot switch") && strstr(v.reason, "ulimit -n"),
	   "the reason keeps why it broke off and names the limit: %s", v.reason);
	ns_verdict_free(&v);

	free(run.obs[0].out.output);
	run.obs[0].out.output = xstrdup("surprise\n");
	ns_judge(sc, &run, NULL, &v);
	ok(v.status == NS_FAIL && !v.unjudged, "a mismatch before it stands");
	ns_verdict_free(&v);

	run.abort_err = EIO;
	free(run.obs[0].out.output);
	run.obs[0].out.output = xstrdup("");
	ns_judge(sc, &run, NULL, &v);
	ok(v.status == NS_FAIL && !v.unjudged, "an abort for another errno is judged");
	ns_verdict_free(&v);
	ns_run_free(&run);
	ns_scenario_free(sc);
}
