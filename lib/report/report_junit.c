/* report_junit.c - JUnit XML as GitLab, Jenkins and GitHub test reporters
 * read it:
 *
 *     <testsuites ...>
 *       <testsuite name="nstest on RELEASE" (or "... on the model") tests= failures= errors="0" skipped= time=
 *                  timestamp= hostname=>
 *         <properties> kernel release, stand-in mode, backend, rootless,
 *                      nstest version, shard (K/N, only with --shard),
 *                      interrupted (SIGINT, ..., only when a signal
 *                      stopped the run)
 *         <testcase classname="nstest.FOLDER" name="NAME" file="FILE" time=>
 *           <failure message= type=>the failing steps and their diffs</failure>
 *           <skipped message="reason"/>
 *
 * XFAIL is reported as skipped ("expected failure: ..."), with the diff
 * it expected in <system-out>; XPASS as a failure of type "xpass". A
 * run a signal stopped ends with a test case for each scenario that got
 * no result: <error type="interrupted"> for one stopped while running,
 * <skipped> for one never started, each message naming the signal. The
 * counts go on the opening tags, so the test cases are gathered and the
 * whole document is written at the end. */
#include "report/reporter.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report_text.h"

static void attr(struct ns_buf *b, const char *name, const char *value)
{
	ns_buf_addf(b, " %s=\"", name);
	ns_xml_escape(b, value ? value : "", true);
	ns_buf_addc(b, '"');
}

static void junit_begin(struct ns_report_ctx *c)
{
	struct ns_junit_state *suite = &c->state.junit;
	time_t now = time(NULL);
	struct tm tm;

	suite->cases = (struct ns_buf)NS_BUF_INIT;
	clock_gettime(CLOCK_MONOTONIC, &suite->start);
	/* UTC, without a zone: the form of Ant's and Jenkins' schema. */
	strftime(suite->timestamp, sizeof(suite->timestamp), "%Y-%m-%dT%H:%M:%S",
		 gmtime_r(&now, &tm));
}

/* "nstest.article" for scenarios/article/x.scn: the folder a scenario
 * comes from, with dots (package separators to Jenkins) made '_'. */
static void add_classname(struct ns_buf *b, const char *path)
{
	const char *end = strrchr(path, '/'), *start = end;
	char *folder;

	while (start && start > path && start[-1] != '/')
		start--;
	if (!end || start == end) {
		attr(b, "classname", "nstest");
		return;
	}
	folder = xasprintf("nstest.%.*s", (int)(end - start), start);
	for (char *p = folder + strlen("nstest."); *p; p++)
		if (*p == '.')
			*p = '_';
	attr(b, "classname", folder);
	free(folder);
}

/* <tag message= type=>body</tag>, or <tag .../> without a body; a NULL
 * message or type is left out. */
static void element(struct ns_buf *b, const char *tag, const char *type,
		    const char *message, const char *body)
{
	ns_buf_addf(b, "      <%s", tag);
	if (message)
		attr(b, "message", message);
	if (type)
		attr(b, "type", type);
	if (!body || !*body) {
		ns_buf_adds(b, "/>\n");
		return;
	}
	ns_buf_addc(b, '>');
	ns_xml_escape(b, body, false);
	ns_buf_addf(b, "</%s>\n", tag);
}

static void outcome(struct ns_buf *b, const struct ns_result *r)
{
	struct ns_buf diff = NS_BUF_INIT;
	char *msg = NULL;

	ns_report_failures(&diff, r);
	switch (r->v->status) {
	case NS_PASS:
		break;
	case NS_FAIL:
		msg = ns_report_fail_summary(r);
		element(b, "failure", r->run && r->run->timed_out ? "timeout" :
			r->v->reason ? "aborted" : "mismatch", msg, ns_buf_str(&diff));
		break;
	case NS_SKIP:
		element(b, "skipped", NULL, r->v->reason, NULL);
		break;
	case NS_XFAIL:
		msg = xasprintf("expected failure: %s", r->v->reason ? r->v->reason : "");
		element(b, "skipped", NULL, msg, NULL);
		if (diff.len)
			element(b, "system-out", NULL, NULL, ns_buf_str(&diff));
		break;
	case NS_XPASS:
		msg = xasprintf("unexpectedly passed: %s", r->v->reason ? r->v->reason : "");
		element(b, "failure", "xpass", msg, NULL);
		break;
	}
	free(msg);
	ns_buf_free(&diff);
}

static void testcase_open(struct ns_buf *b, const struct ns_scenario *sc, double seconds,
			  bool empty)
{
	ns_buf_adds(b, "    <testcase");
	add_classname(b, sc->path);
	attr(b, "name", sc->name);
	attr(b, "file", sc->path);
	ns_buf_addf(b, " time=\"%.3f\"%s\n", seconds, empty ? "/>" : ">");
}

static void junit_scenario(struct ns_report_ctx *c, size_t index,
			   const struct ns_result *r)
{
	struct ns_buf *b = &c->state.junit.cases;
	bool empty = r->v->status == NS_PASS;

	(void)index;
	testcase_open(b, r->sc, r->seconds, empty);
	if (empty)
		return;
	outcome(b, r);
	ns_buf_adds(b, "    </testcase>\n");
}

/* A run a signal stopped: a test case for each scenario without a
 * result, after the others; one it stopped while running is an error
 * (type "interrupted"), one it never started is skipped. */
static void not_run_cases(struct ns_buf *b, const struct ns_report_ctx *c)
{
	for (size_t i = 0; i < c->nnot_run; i++) {
		const struct ns_not_run *nr = &c->not_run[i];
		char *msg = xasprintf("%s: the run was interrupted by %s",
				      ns_report_not_run_why(nr), c->interrupted);

		testcase_open(b, nr->sc, 0, false);
		element(b, nr->running ? "error" : "skipped", nr->running ? "interrupted" : NULL,
			msg, NULL);
		ns_buf_adds(b, "    </testcase>\n");
		free(msg);
	}
}

/* The run's wall time: with -j it is less than the sum of the cases. */
static double wall_seconds(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void property(struct ns_buf *b, const char *name, const char *value)
{
	ns_buf_adds(b, "      <property");
	attr(b, "name", name);
	attr(b, "value", value);
	ns_buf_adds(b, "/>\n");
}

static void junit_end(struct ns_report_ctx *c, const struct ns_tally *t)
{
	struct ns_junit_state *suite = &c->state.junit;
	struct ns_buf b = NS_BUF_INIT;
	unsigned tests = t->passed + t->failed + t->skipped + t->xfailed + t->xpassed;
	unsigned failures = t->failed + t->xpassed, skipped = t->skipped + t->xfailed;
	unsigned errors = 0;
	double seconds = wall_seconds(&suite->start);

	if (c->interrupted) {
		not_run_cases(&suite->cases, c);
		for (size_t i = 0; i < c->nnot_run; i++) {
			tests++;
			if (c->not_run[i].running)
				errors++;
			else
				skipped++;
		}
	}

	ns_buf_adds(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	ns_buf_addf(&b, "<testsuites name=\"nstest\" tests=\"%u\" failures=\"%u\" errors=\"%u\""
		    " skipped=\"%u\" time=\"%.3f\">\n", tests, failures, errors, skipped, seconds);
	/* named with its kernel, so that mergers that key suites by name
	 * (junit-report-merger) keep two kernels' runs apart */
	ns_buf_adds(&b, "  <testsuite");
	{
		char *name = c->kernel ? xasprintf("nstest on %s", c->kernel)
				       : xasprintf("nstest on the %s", c->backend ? c->backend : "model");
		attr(&b, "name", name);
		free(name);
	}
	ns_buf_addf(&b, " tests=\"%u\" failures=\"%u\" errors=\"%u\""
		    " skipped=\"%u\" time=\"%.3f\" timestamp=\"%s\"", tests, failures, errors,
		    skipped, seconds, suite->timestamp);
	attr(&b, "hostname", c->hostname ? c->hostname : "localhost");
	ns_buf_adds(&b, ">\n    <properties>\n");
	property(&b, "kernel", c->kernel ? c->kernel : "none");
	property(&b, "devices", c->devices);
	property(&b, "backend", c->backend);
	property(&b, "rootless", c->rootless ? "true" : "false");
	if (c->version)
		property(&b, "nstest", c->version);
	if (c->shard)
		property(&b, "shard", c->shard);
	if (c->interrupted)
		property(&b, "interrupted", c->interrupted);
	ns_buf_adds(&b, "    </properties>\n");
	ns_buf_adds(&b, ns_buf_str(&suite->cases));
	ns_buf_adds(&b, "  </testsuite>\n</testsuites>\n");
	fputs(ns_buf_str(&b), c->out);
	fflush(c->out);
	ns_buf_free(&b);
	ns_buf_free(&suite->cases);
}

const struct ns_reporter ns_reporter_junit = {
	.name = "junit",
	.begin = junit_begin,
	.scenario = junit_scenario,
	.end = junit_end,
};
