/* report_json.c - the whole run as one JSON document:
 *
 *     {"nstest":VERSION,"kernel":RELEASE,"devices":"tmpfs","backend":"kernel",
 *      "rootless":false,"shard":null,
 *     "scenarios":[
 *     {"path":..,"name":..,"status":"fail","reason":..,"seconds":0.125,
 *      "kernel":..,"devices":..,"steps":[{"line":3,"terminal":"sh1",
 *      "command":..,"ran":true,"ok":false,"error":null,"output":..,
 *      "canonical":..,"canonical_sorted":..,"diff":..}, ...]},
 *     ...
 *     ],
 *     "summary":{"passed":1,"failed":1,"skipped":0,"xfailed":0,"xpassed":0},
 *     "interrupted":null}
 *
 * "interrupted" is null unless a signal stopped the run; then it is
 * {"signal":"SIGINT","not_run":[{"path":..,"name":..,"running":true},
 * ...]}, every scenario without a result, "running" for one the signal
 * stopped while it ran (the others never started). The scenarios that
 * ended before are in "scenarios" as usual.
 *
 * One scenario per line, each complete in itself (it repeats the kernel),
 * written as soon as it is judged. "shard" is "K/N" for a run with
 * --shard K/N (ci/merge-reports checks that all N came), else null.
 *
 * "canonical" is "output" with every number the judge renames written as
 * a name numbered by first appearance in the scenario (run/canonical.h,
 * match/canonical.h): "48     45   0:40  /" from findmnt -o
 * ID,PARENT,MAJ:MIN,TARGET is "M2 M1 D1 /", a mountinfo line's
 * "shared:7" is "shared:P1". "canonical_sorted" names each step's lines
 * sorted. Both are null for a step that did not run. ci/kernel-matrix and
 * ci/kernel-bisect compare them across kernels (ci/transcripts.py). */
#include "report/reporter.h"

#include <ctype.h>

#include "report/report_text.h"
#include "run/canonical.h"

static void key(struct ns_buf *b, const char *name, bool first)
{
	ns_buf_addf(b, "%s\"%s\":", first ? "" : ",", name);
}

static void key_str(struct ns_buf *b, const char *name, const char *value)
{
	key(b, name, false);
	ns_json_string(b, value);
}

static void json_begin(struct ns_report_ctx *c)
{
	struct ns_buf b = NS_BUF_INIT;

	c->state.json.written = 0;
	ns_buf_adds(&b, "{\"nstest\":");
	ns_json_string(&b, c->version);
	key_str(&b, "kernel", c->kernel ? c->kernel : "none");
	key_str(&b, "devices", c->devices);
	key_str(&b, "backend", c->backend);
	ns_buf_addf(&b, ",\"rootless\":%s", c->rootless ? "true" : "false");
	key(&b, "shard", false);
	ns_json_string(&b, c->shard);
	ns_buf_adds(&b, ",\"scenarios\":[\n");
	fputs(ns_buf_str(&b), c->out);
	fflush(c->out);
	ns_buf_free(&b);
}

/* "error":{"errno":2,"name":"ENOENT","syscall":"mount"} or null */
static void step_error(struct ns_buf *b, const struct ns_step_out *o)
{
	key(b, "error", false);
	if (!o || !o->err) {
		ns_buf_adds(b, "null");
		return;
	}
	ns_buf_addf(b, "{\"errno\":%d", o->err);
	key_str(b, "name", ns_errname(o->err));
	key_str(b, "syscall", o->syscall);
	ns_buf_addc(b, '}');
}

/* canon, sorted: the canonical forms of the scenario's steps (NULL for a
 * scenario that did not run) */
static void step(struct ns_buf *b, const struct ns_result *r, size_t i,
		 char *const *canon, char *const *sorted)
{
	const struct ns_step *st = &r->sc->steps[i];
	const struct ns_step_verdict *sv = r->run && i < r->v->n ? &r->v->steps[i] : NULL;
	const struct ns_step_out *o = sv && sv->ran ? &r->run->obs[i].out : NULL;

	ns_buf_addf(b, "%s{\"line\":%d", i ? "," : "", st->line);
	key_str(b, "terminal", st->terminal);
	key_str(b, "command", st->cmdline);
	ns_buf_addf(b, ",\"ran\":%s,\"ok\":%s", o ? "true" : "false",
		    o && sv->ok ? "true" : "false");
	step_error(b, o);
	key_str(b, "output", o ? o->output : NULL);
	key_str(b, "canonical", o && canon ? canon[i] : NULL);
	key_str(b, "canonical_sorted", o && sorted ? sorted[i] : NULL);
	key_str(b, "diff", o ? sv->diff : NULL);
	ns_buf_addc(b, '}');
}

static void json_scenario(struct ns_report_ctx *c, size_t index,
			  const struct ns_result *r)
{
	struct ns_buf b = NS_BUF_INIT;
	char status[8];
	const char *name = ns_status_name(r->v->status);
	char **canon = r->run ? ns_judge_canonical(r->sc, r->run, false) : NULL;
	char **sorted = r->run ? ns_judge_canonical(r->sc, r->run, true) : NULL;
	size_t k = 0;

	(void)index;
	for (; name[k] && k + 1 < sizeof(status); k++)
		status[k] = (char)tolower((unsigned char)name[k]);
	status[k] = '\0';
	ns_buf_adds(&b, c->state.json.written ? ",\n{" : "{");
	key(&b, "path", true);
	ns_json_string(&b, r->sc->path);
	key_str(&b, "name", r->sc->name);
	key_str(&b, "status", status);
	key_str(&b, "reason", r->v->reason);
	ns_buf_addf(&b, ",\"seconds\":%.3f", r->seconds);
	key_str(&b, "kernel", c->kernel ? c->kernel : "none");
	key_str(&b, "devices", r->devices);
	ns_buf_adds(&b, ",\"steps\":[");
	for (size_t i = 0; i < r->sc->nsteps; i++)
		step(&b, r, i, canon, sorted);
	ns_buf_adds(&b, "]}");
	ns_judge_canonical_free(canon, r->sc->nsteps);
	ns_judge_canonical_free(sorted, r->sc->nsteps);
	fputs(ns_buf_str(&b), c->out);
	fflush(c->out);
	ns_buf_free(&b);
	c->state.json.written++;
}

/* "interrupted":null, or the signal and the scenarios without a result:
 * {"signal":"SIGINT","not_run":[{"path":..,"name":..,"running":true}]} */
static void interrupted(struct ns_buf *b, const struct ns_report_ctx *c)
{
	key(b, "interrupted", false);
	if (!c->interrupted) {
		ns_buf_adds(b, "null");
		return;
	}
	ns_buf_adds(b, "{\"signal\":");
	ns_json_string(b, c->interrupted);
	ns_buf_adds(b, ",\"not_run\":[");
	for (size_t i = 0; i < c->nnot_run; i++) {
		const struct ns_not_run *nr = &c->not_run[i];

		ns_buf_adds(b, i ? ",\n{" : "\n{");
		key(b, "path", true);
		ns_json_string(b, nr->sc->path);
		key_str(b, "name", nr->sc->name);
		ns_buf_addf(b, ",\"running\":%s}", nr->running ? "true" : "false");
	}
	ns_buf_adds(b, "]}");
}

static void json_end(struct ns_report_ctx *c, const struct ns_tally *t)
{
	struct ns_buf b = NS_BUF_INIT;

	ns_buf_addf(&b, "%s],\n\"summary\":{\"passed\":%u,\"failed\":%u,\"skipped\":%u,"
		    "\"xfailed\":%u,\"xpassed\":%u}", c->state.json.written ? "\n" : "",
		    t->passed, t->failed, t->skipped, t->xfailed, t->xpassed);
	interrupted(&b, c);
	ns_buf_adds(&b, "}\n");
	fputs(ns_buf_str(&b), c->out);
	fflush(c->out);
	ns_buf_free(&b);
}

const struct ns_reporter ns_reporter_json = {
	.name = "json",
	.begin = json_begin,
	.scenario = json_scenario,
	.end = json_end,
};
