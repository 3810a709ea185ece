/* verdict.c - see verdict.h */
#include "run/verdict.h"

#include <stdlib.h>
#include <string.h>

#include "commands/args.h"
#include "commands/filter.h"
#include "match/match.h"
#include "match/match_tree.h"
#include "run/ls_form.h"
#include "run/narrow.h"
#include "run/require.h"
#include "run/standin_hint.h"
#include "run/trouble.h"
#include "run/ulmsg.h"
#include "run/view.h"
#include "commands/command.h"

const char *ns_status_name(enum ns_status s)
{
	static const char *const names[] = { "PASS", "FAIL", "SKIP", "XFAIL", "XPASS" };

	return names[s];
}

/* A known deviation on this kernel turns a failure into XFAIL, and a pass
 * into XPASS (a failure: the marker should go). A run that broke down
 * (set-up failure, timeout) stays a failure. */
static void apply_xfail(const struct ns_scenario *sc, const char *release,
			struct ns_verdict *v)
{
	const struct ns_xfail *x;

	if (!sc->nxfails || !release || v->reason)
		return;
	x = ns_xfail_for(sc, release);
	if (!x)
		return;
	if (v->status == NS_FAIL) {
		v->status = NS_XFAIL;
		v->reason = xasprintf("known kernel deviation: %s", x->reason);
	} else {
		v->status = NS_XPASS;
		v->reason = xasprintf("passed although marked xfail at line %d: %s", x->line, x->reason);
	}
}

/* A filter that passes lines on as they were (grep without -c). */
static bool keeps_rows(const struct ns_stage *s)
{
	return s->def && s->def->filter && s->args && ns_filter_keeps_lines(s->args);
}

bool ns_judge_shape(const struct ns_step *st, struct ns_match_shape *out)
{
	const struct ns_stage *first = st->pipeline.n ? &st->pipeline.stages[0] : NULL;

	/* a list's output is its commands' one after another: its records
	 * are renamed as mountinfo's, any other line is text */
	if (st->nmore || !first || !first->def || !first->args || !first->def->shape)
		return false;
	for (size_t i = 1; i < st->pipeline.n; i++)
		if (!keeps_rows(&st->pipeline.stages[i]))
			return false;
	return first->def->shape(first->args, out);
}

/* The actual error line (the last line of out) when the block ends with
 * "COMMAND: ERROR", the form that expects a failure with any errno, and
 * the step failed in that same command: a copy of the block with that
 * line in its place, else NULL (nstest-scenario(5), ERRORS OF COMMANDS). */
static struct ns_expect *any_errno(const struct ns_step *st, const struct ns_step_out *out,
				   size_t *n)
{
	const char *last, *actual, *colon;
	struct ns_expect *copy;
	size_t cmd;

	if (!out->err || !st->nexpect || !out->output)
		return NULL;
	last = st->expect[st->nexpect - 1].text;
	colon = strstr(last, ": ERROR");
	if (!colon || colon[7] != '\0' || colon == last)
		return NULL;
	cmd = (size_t)(colon - last);
	actual = out->output + strlen(out->output);
	if (actual > out->output && actual[-1] == '\n')
		actual--;
	while (actual > out->output && actual[-1] != '\n')
		actual--;
	if (strncmp(actual, last, cmd + 2) || strncmp(actual + cmd + 2, "E", 1))
		return NULL;
	/* the lines borrowed, the last one owned: ns_ulmsg_free_block frees it */
	*n = st->nexpect;
	copy = xcalloc(*n, sizeof(*copy));
	memcpy(copy, st->expect, *n * sizeof(*copy));
	copy[*n - 1].text = xstrndup(actual, strcspn(actual, "\n"));
	return copy;
}

/* A findmnt tree that does not match as printed, matched once more with
 * the siblings of every mount in one order on both sides (match_tree.h:
 * findmnt orders them by mount ID, which is renamed). The diff stays the
 * one of the tree as printed. */
static bool match_tree_canon(struct ns_matcher *m, const struct ns_expect *exp, size_t n,
			     const char *output, const struct ns_match_shape *sh)
{
	struct ns_lines el = NS_LINES_INIT, al = NS_LINES_INIT, ec = NS_LINES_INIT,
			ac = NS_LINES_INIT;
	struct ns_expect *cexp;
	bool ok = false;

	for (size_t i = 0; i < n; i++)
		ns_lines_push(&el, exp[i].text);
	ns_lines_split(&al, output ? output : "", output ? strlen(output) : 0);
	if (ns_match_tree_canon((const char *const *)el.v, el.n, sh, &ec) &&
	    ns_match_tree_canon((const char *const *)al.v, al.n, sh, &ac)) {
		struct ns_buf text = NS_BUF_INIT;

		cexp = xcalloc(n + 1, sizeof(*cexp));
		for (size_t i = 0; i < n; i++)
			cexp[i] = (struct ns_expect){ ec.v[i], exp[i].line };
		for (size_t j = 0; j < ac.n; j++) {
			ns_buf_adds(&text, ac.v[j]);
			ns_buf_addc(&text, '\n');
		}
		ok = ns_matcher_step_shaped(m, cexp, n, false, ns_buf_str(&text), sh, NULL);
		ns_buf_free(&text);
		free(cexp);
	}
	ns_lines_free(&el);
	ns_lines_free(&al);
	ns_lines_free(&ec);
	ns_lines_free(&ac);
	return ok;
}

/* sh: how the rows are read (NULL: mountinfo records); tree: the findmnt
 * tree the output is, whether or not its columns hold numbers, or NULL */
static bool match_block(struct ns_matcher *m, const struct ns_expect *exp, size_t n,
			bool unordered, const char *output, const struct ns_match_shape *sh,
			const struct ns_match_shape *tree, struct ns_buf *diff)
{
	size_t mark = diff ? diff->len : 0;

	if (ns_matcher_step_shaped(m, exp, n, unordered, output, sh, diff))
		return true;
	if (unordered || !tree || !match_tree_canon(m, exp, n, output, tree))
		return false;
	if (diff)
		ns_buf_truncate(diff, mark);
	return true;
}

/* A failed step whose block ends with util-linux's message for this
 * errno and command line, or with "COMMAND: ERROR", is matched with
 * nstest's error line in its place (run/ulmsg.h, any_errno), and so is
 * each message of a list's command that failed before its last; every
 * other block as it is written (sh, tree: as match_block). */
static bool judge_written(struct ns_matcher *m, const struct ns_step *st,
			  const struct ns_step_out *out, const struct ns_match_shape *sh,
			  const struct ns_match_shape *tree, struct ns_buf *diff)
{
	size_t n = 0, nl = 0;
	struct ns_expect *alt = any_errno(st, out, &n), *list;
	bool ok;

	if (!alt)
		alt = ns_ulmsg_translate(st, out->err, out->cwd, &n);
	/* in a list, the messages of the commands that failed before the
	 * last one, each matched to its command */
	list = ns_ulmsg_translate_list(alt ? alt : st->expect, alt ? n : st->nexpect, st,
				       out->output, out->cwd, &nl);
	if (list)
		ok = match_block(m, list, nl, st->unordered, out->output, sh, tree, diff);
	else if (alt)
		ok = match_block(m, alt, n, st->unordered, out->output, sh, tree, diff);
	else
		ok = match_block(m, st->expect, st->nexpect, st->unordered, out->output, sh,
				 tree, diff);
	ns_ulmsg_free_list(list, nl);
	ns_ulmsg_free_block(alt, n);
	return ok;
}

/* An ls listing that did not match as written, matched with its tabs
 * expanded (GNU ls's columns as a terminal shows them), then against the
 * names ls printed, one a line (run/ls_form.h). A block with tabs that
 * fails gets the diff of its expanded lines; when the names fail too and
 * the file writes listings one name a line, the diff is made against
 * them. diff holds the written block's diff from mark on. */
static bool judge_ls(struct ns_matcher *m, const struct ns_scenario *sc,
		     const struct ns_step *st, const struct ns_step_out *out,
		     const struct ns_match_shape *sh, struct ns_buf *diff, size_t mark)
{
	struct ns_expect *untab = ns_ls_form_untab(st, out->err);
	char *names;
	bool ok;

	if (untab) {
		ok = ns_matcher_step_shaped(m, untab, st->nexpect, false, out->output, sh, NULL);
		if (diff) {
			ns_buf_truncate(diff, mark);
			if (!ok)
				ns_matcher_step_shaped(m, untab, st->nexpect, false, out->output,
						       sh, diff);
		}
		ns_ls_form_free_block(untab, st->nexpect);
		if (ok)
			return true;
	}
	names = ns_ls_form_applies(st, out->err) ?
		ns_ls_form_names(st, out->err, out->output) : NULL;
	if (!names)
		return false;
	ok = ns_matcher_step_shaped(m, st->expect, st->nexpect, false, names, sh, NULL);
	if (diff && (ok || ns_ls_form_one_per_line(sc, st))) {
		ns_buf_truncate(diff, mark);
		if (!ok)
			ns_matcher_step_shaped(m, st->expect, st->nexpect, false, names, sh, diff);
	}
	free(names);
	return ok;
}

/* A findmnt table that did not match as written, matched in the form of
 * a narrow terminal's (run/narrow.h): rows findmnt broke joined, cut
 * cells matched by their start. table: the step's findmnt table, with
 * or without numbers (sh, tree: as match_block). The diff stays the one
 * of the block as written, unless this form matches. */
static bool judge_narrow(struct ns_matcher *m, const struct ns_scenario *sc,
			 const struct ns_step *st, const struct ns_step_out *out,
			 const struct ns_match_shape *table, const struct ns_match_shape *sh,
			 const struct ns_match_shape *tree, struct ns_buf *diff, size_t mark)
{
	struct ns_narrow nw;
	bool ok;

	if (!ns_narrow(sc, st, table, out->output, &nw))
		return false;
	ok = match_block(m, nw.block, nw.n, st->unordered, nw.output, sh, tree, NULL);
	ns_narrow_free(&nw);
	if (ok && diff)
		ns_buf_truncate(diff, mark);
	return ok;
}

static bool judge_step(struct ns_matcher *m, const struct ns_scenario *sc,
		       const struct ns_step *st, const struct ns_step_out *out,
		       struct ns_buf *diff)
{
	struct ns_match_shape shape = { 0 };
	const struct ns_match_shape *sh = ns_judge_shape(st, &shape) ? &shape : NULL;
	const struct ns_match_shape *tree = shape.tree ? &shape : NULL;
	size_t mark = diff ? diff->len : 0;

	return judge_written(m, st, out, sh, tree, diff) ||
	       judge_ls(m, sc, st, out, sh, diff, mark) ||
	       judge_narrow(m, sc, st, out, &shape, sh, tree, diff, mark);
}

char *ns_judge_output(const struct ns_scenario *sc, const struct ns_step *st,
		      int err, const char *output)
{
	char *text = ns_ulmsg_output(sc, st, err, output);
	char *form = ns_ls_form_output(sc, st, err, text);

	free(text);
	return form;
}

void ns_judge(const struct ns_scenario *sc, const struct ns_run *run,
	      const char *release, struct ns_verdict *v)
{
	struct ns_matcher *m = ns_matcher_new();

	ns_judge_with(sc, run, release, m, v);
	ns_matcher_free(m);
}

/* A failure whose every differing step differs only in what the stand-in
 * mode decides says so (standin_hint.h); NULL otherwise. */
static char *standin_hint(const struct ns_verdict *v)
{
	char *hint = NULL;

	for (size_t i = 0; i < v->n; i++) {
		char *h;

		if (!v->steps[i].diff)
			continue;
		h = ns_standin_hint(v->steps[i].diff);
		if (!h) {
			free(hint);
			return NULL;
		}
		free(hint);
		hint = h;
	}
	return hint;
}

/* ---- numbers a filter let through as text ---------------------------------- */

static bool alive_has(const struct ns_alive *a, unsigned kind, struct ns_key k)
{
	for (size_t i = 0; i < a->n[kind]; i++)
		if (ns_key_eq(a->v[kind][i], k))
			return true;
	return false;
}

/* The word w (len bytes) as a mount ID (kind 0) or a device (kind 1). */
static bool word_number(const char *w, size_t len, unsigned *kind, struct ns_key *k)
{
	size_t colon = len, i;

	for (i = 0; i < len; i++) {
		if (w[i] == ':' && colon == len && i > 0)
			colon = i;
		else if (w[i] < '0' || w[i] > '9')
			return false;
	}
	if (!len || len > 18 || colon + 1 == len)
		return false;
	*kind = colon < len;
	*k = (struct ns_key){ strtoul(w, NULL, 10), colon < len ? strtoul(w + colon + 1, NULL, 10) : 0 };
	return true;
}

/* A step that failed and printed part of a mount table through filters
 * (awk, cut) may have printed a mount ID or a device as plain text,
 * which no renaming covers and which differs from run to run: say which,
 * under the diff, and what to do instead (nstest-scenario(5), EXPECTED
 * OUTPUT). The table is the place's own after the step (struct
 * ns_alive), which a step that only reads it leaves as it was. */
static void note_leaked_numbers(const struct ns_step *st, const struct ns_step_out *out,
				struct ns_buf *diff)
{
	struct ns_lines lines = NS_LINES_INIT;
	int said = 0;

	if (!diff || !out->output || !out->alive.known || st->pipeline.n < 2 ||
	    !ns_view_table_step(st))
		return;
	ns_lines_split(&lines, out->output, strlen(out->output));
	for (size_t i = 0; i < lines.n && said < 3; i++) {
		struct ns_mi_line l;
		const char *p = lines.v[i];
		bool rec = ns_mi_parse(p, &l);

		ns_mi_free(&l);
		while (!rec && *p && said < 3) {
			size_t len = strcspn(p, " \t,;=\"'()[]{}");
			unsigned kind;
			struct ns_key k;

			if (word_number(p, len, &kind, &k) && alive_has(&out->alive, kind, k)) {
				ns_buf_addf(diff, "# %.*s in '%s' is a %s of the mount table, which changes from run to run: let the filter drop it, or print whole records\n",
					    (int)len, p, lines.v[i], kind ? "device" : "mount ID");
				said++;
			}
			p += len;
			p += strspn(p, " \t,;=\"'()[]{}");
		}
	}
	ns_lines_free(&lines);
}

/* nstest's own trouble, when it came before anything the kernel answered
 * wrongly: the first step that did not match failed for want of a
 * descriptor, memory or a process (run/trouble.h), or, every step that
 * ran having matched, the run broke off for such a want. The steps after
 * it say nothing either: they ran on what it left undone. The reason
 * (heap), or NULL when the verdict stands. */
static char *own_trouble(const struct ns_scenario *sc, const struct ns_run *run,
			 const struct ns_verdict *v)
{
	const struct ns_step_out *o;
	char *what, *msg;

	for (size_t i = 0; i < v->n; i++) {
		if (!v->steps[i].ran)
			break;
		if (v->steps[i].ok)
			continue;
		o = &run->obs[i].out;
		if (!o->err || !ns_trouble_step(o->syscall, o->err))
			return NULL;
		what = ns_trouble_what(o->err);
		msg = xasprintf("cannot judge: %s at line %d (%s: %s)", what,
				sc->steps[i].line, o->syscall[0] ? o->syscall : "?",
				ns_errname(o->err));
		free(what);
		return msg;
	}
	if (!run->aborted || !ns_trouble_errno(run->abort_err))
		return NULL;
	what = ns_trouble_what(run->abort_err);
	msg = xasprintf("cannot judge: %s; %s", run->aborted, what);
	free(what);
	return msg;
}

void ns_judge_with(const struct ns_scenario *sc, const struct ns_run *run,
		   const char *release, struct ns_matcher *m, struct ns_verdict *v)
{
	size_t missing = 0;
	int cut_line = 0;

	memset(v, 0, sizeof(*v));
	v->n = sc->nsteps;
	v->steps = xcalloc(sc->nsteps, sizeof(*v->steps));
	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct ns_step *st = &sc->steps[i];
		const struct ns_obs *o = &run->obs[i];
		struct ns_buf diff = NS_BUF_INIT;

		v->steps[i].ran = o->ran;
		if (!o->ran) {
			missing++;
			continue;
		}
		/* where it looked from, for numbers freed and given out again */
		ns_matcher_set_view(m, &o->out.view);
		v->steps[i].ok = judge_step(m, sc, st, &o->out, &diff);
		if (!v->steps[i].ok)
			note_leaked_numbers(st, &o->out, &diff);
		/* and what the place held once the step was over */
		ns_matcher_after_step(m, &o->out.view, &o->out.alive);
		/* output past nstest's cap (run/result.h) never matches, not
		 * even a transcript that expects the line that says so */
		if (o->out.cut) {
			if (v->steps[i].ok)
				ns_buf_adds(&diff, "+" NS_STEP_CUT_LINE);
			v->steps[i].ok = false;
			if (!cut_line)
				cut_line = st->line;
		}
		if (!v->steps[i].ok) {
			v->failed++;
			v->steps[i].diff = ns_buf_detach(&diff);
		}
		ns_buf_free(&diff);
	}
	if (run->aborted)
		v->reason = xstrdup(run->aborted);
	else if (cut_line)
		v->reason = xasprintf("cannot judge: the output of the step at line %d passed "
				      "%zu MiB, nstest's cap on a step's output: cut",
				      cut_line, NS_STEP_OUTPUT_MAX >> 20);
	else if (missing)
		v->reason = xasprintf("%zu step(s) did not run", missing);
	/* a step without a result can never count as a pass */
	v->status = v->failed || run->aborted || missing ? NS_FAIL : NS_PASS;
	if (v->status == NS_FAIL) {
		char *trouble = own_trouble(sc, run, v);

		v->unjudged = trouble || run->setup_failed;
		if (trouble) {
			free(v->reason);
			v->reason = trouble;
		}
	}
	apply_xfail(sc, release, v);
	if (v->status == NS_FAIL && !v->reason)
		v->reason = standin_hint(v);
}

void ns_verdict_skip(struct ns_verdict *v, char *reason)
{
	memset(v, 0, sizeof(*v));
	v->status = NS_SKIP;
	v->reason = reason;
}

void ns_verdict_free(struct ns_verdict *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->steps[i].diff);
	free(v->steps);
	free(v->reason);
	memset(v, 0, sizeof(*v));
}
