/* observe.c - see observe.h. */
#include "run/observe.h"

#include <string.h>

#include "commands/command.h"
#include "run/verdict.h"
#include "scenario/plan.h"

#define CAT_MOUNTINFO "cat /proc/self/mountinfo"

struct term {
	char *name;
	char prompt;
	unsigned depth;      /* inner shells */
	bool ended;
};

/* A mount namespace a handle holds (open_tree --namespace @NS): the
 * terminal's shell that made it holds it until it closes it or ends. */
struct nsh {
	char *name;          /* @NS */
	size_t term;         /* index in terms */
	unsigned depth;      /* the shell level that made it */
};

/* A terminal of nstest's own that sits in a terminal's shell at a level
 * it left for an inner shell (`unshare -m sh` twice): it entered that
 * shell's namespace (nsenter -t TERM -m sh) at plan step `enter`, just
 * before the inner shell began, and leaves when the terminal is back at
 * that level, so it never holds the namespace longer than that shell. */
struct shadow {
	char *name;
	size_t term;         /* index in terms */
	unsigned depth;      /* the level it sits at, 1 or more */
	size_t enter;        /* the plan step that entered */
};

struct terms {
	struct term *v;
	size_t n, cap;
	struct nsh *h;
	size_t nh, hcap;
	struct shadow *s;
	size_t ns, scap;
};

static struct term *term_get(struct terms *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	ns_grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n] = (struct term){ xstrdup(name), '#', 0, false };
	return &t->v[t->n++];
}

/* The namespace handles of terminal term that its shells no longer hold:
 * closed ones (names, n), and those of a shell that ended (every one
 * made deeper than depth, or all when the terminal ended). */
static void drop_handles(struct terms *t, size_t term, const char *const *names, size_t n,
			 unsigned depth, bool ended)
{
	for (size_t i = 0; i < t->nh;) {
		struct nsh *h = &t->h[i];
		bool gone = h->term == term && (ended || h->depth > depth);

		for (size_t k = 0; k < n && h->term == term && !gone; k++)
			gone = !strcmp(names[k], h->name);
		if (!gone) {
			i++;
			continue;
		}
		free(h->name);
		t->h[i] = t->h[--t->nh];
	}
}

/* What step st does to its terminal's shells. */
static void term_step(struct terms *t, const struct ns_step *st)
{
	struct term *tm = term_get(t, st->terminal);
	const struct ns_stage *first = st->pipeline.n ? &st->pipeline.stages[0] : NULL;

	size_t ti = (size_t)(tm - t->v);

	tm->prompt = st->prompt;
	if (!first)
		return;
	if (first->def && first->def->makes && first->args && !st->nmore) {
		enum ns_handle_kind kind;
		const char *name = first->def->makes(first->args, &kind);

		if (name && kind == NS_HANDLE_NAMESPACE && !st->nexpect) {
			ns_grow((void **)&t->h, &t->hcap, t->nh + 1, sizeof(*t->h));
			t->h[t->nh++] = (struct nsh){ xstrdup(name), ti, tm->depth };
		}
	}
	if (first->def && first->def->closes && first->args) {
		size_t n = 0;
		const char *const *names = first->def->closes(first->args, &n);

		drop_handles(t, ti, names, n, tm->depth, false);
	}
	if (ns_stage_ends_shell(first)) {
		if (tm->depth)
			tm->depth--;
		else
			tm->ended = true;
		drop_handles(t, ti, NULL, 0, tm->depth, tm->ended);
	} else if (ns_stage_starts_shell(first) && !st->nexpect) {
		/* the parser's rule (commands/command.c); a transcript that
		 * shows output for it shows its failure: no shell began */
		tm->depth++;
	}
}

static bool any_live(const struct terms *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (!t->v[i].ended)
			return true;
	return false;
}

static void terms_free(struct terms *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	for (size_t i = 0; i < t->nh; i++)
		free(t->h[i].name);
	free(t->h);
	for (size_t i = 0; i < t->ns; i++)
		free(t->s[i].name);
	free(t->s);
}

/* What the probe's run looked like, copied out of the runner's hook. */
struct probe_step {
	bool ran, ok;
	int err;
	char syscall[32];
	char *output;
};

struct probe {
	bool got;
	enum ns_status status;
	char *reason;
	struct probe_step *steps;
	size_t n;
	/* the file's steps: map[i] is step i's place in the plan */
	const size_t *map;
	size_t nfile;
	struct ns_run file;
	double seconds;
	const char *devices;
};

/* A copy of o that owns what it holds. */
static void copy_out(struct ns_step_out *to, const struct ns_step_out *o)
{
	*to = *o;
	to->output = o->output ? xstrdup(o->output) : NULL;
	to->cwd = o->cwd ? xstrdup(o->cwd) : NULL;
	for (unsigned k = 0; k < 3; k++) {
		to->alive.v[k] = NULL;
		to->alive.n[k] = to->alive.cap[k] = 0;
		for (size_t j = 0; j < o->alive.n[k]; j++)
			ns_alive_add(&to->alive, k, o->alive.v[k][j]);
	}
}

/* The file's steps of the plan's run r, the cat steps left out. */
static void keep_file_run(struct probe *p, const struct ns_run *r)
{
	struct ns_run *f = &p->file;

	f->obs = xcalloc(p->nfile ? p->nfile : 1, sizeof(*f->obs));
	f->n = p->nfile;
	for (size_t i = 0; i < p->nfile; i++) {
		if (p->map[i] >= r->n)
			break;
		f->obs[i].ran = r->obs[p->map[i]].ran;
		copy_out(&f->obs[i].out, &r->obs[p->map[i]].out);
	}
	f->aborted = r->aborted ? xstrdup(r->aborted) : NULL;
	f->timed_out = r->timed_out;
	f->setup_failed = r->setup_failed;
	f->abort_err = r->abort_err;
}

static void on_result(void *ctx, size_t index, const struct ns_result *r)
{
	struct probe *p = ctx;

	(void)index;
	p->got = true;
	p->status = r->v->status;
	p->reason = r->v->reason ? xstrdup(r->v->reason) : NULL;
	p->n = r->sc->nsteps;
	p->seconds = r->seconds;
	p->devices = r->devices;
	if (r->run)
		keep_file_run(p, r->run);
	p->steps = xcalloc(p->n ? p->n : 1, sizeof(*p->steps));
	for (size_t i = 0; r->run && i < p->n && i < r->run->n && i < r->v->n; i++) {
		const struct ns_obs *o = &r->run->obs[i];
		struct probe_step *s = &p->steps[i];

		s->ran = o->ran && r->v->steps[i].ran;
		s->ok = r->v->steps[i].ok;
		if (!o->ran)
			continue;
		s->err = o->out.err;
		memcpy(s->syscall, o->out.syscall, sizeof(s->syscall));
		s->syscall[sizeof(s->syscall) - 1] = '\0';
		s->output = xstrdup(o->out.output ? o->out.output : "");
	}
}

static void probe_free(struct probe *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->steps[i].output);
	free(p->steps);
	free(p->reason);
	ns_run_free(&p->file);
}

/* A terminal name no file can give ("" is the bare prompt's; a blank
 * ends every prompt name), for the shells that read the first namespace. */
#define OUTER_READER "nstest outer shell"

/* The terminals whose outer shell holds the scenario's first namespace
 * while they sit in an inner one (`unshare -m sh`): a shell at its first
 * level is in that namespace, since every command that leaves it starts
 * an inner shell. "" when none, or when a live terminal at its first
 * level shows that namespace already. */
static char *outer_holders(const struct terms *t)
{
	struct ns_buf b = NS_BUF_INIT;

	for (size_t i = 0; i < t->n; i++)
		if (!t->v[i].ended && !t->v[i].depth)
			return xstrdup("");
	for (size_t i = 0; i < t->n; i++)
		if (!t->v[i].ended && t->v[i].depth)
			ns_buf_addf(&b, "%s%s", b.len ? ", " : "",
				    *t->v[i].name ? t->v[i].name : "# (the bare prompt)");
	return ns_buf_detach(&b);
}

/* One cat step per live terminal, put into the plan at line `line`, and
 * while an outer shell holds the first namespace, a terminal of its own
 * that reads it and ends; the terminals' names and the plan's step
 * numbers go to *obs and *where. 0, or -1 with err set. */
static int put_cats(struct ns_scenario *plan, const struct terms *t, int line,
		    struct ns_observation *obs, size_t **where, size_t **enters,
		    struct ns_buf *err)
{
	struct ns_diag d = { NULL, 0 };
	size_t live = 1;
	char *outer = outer_holders(t);
	int r = 0;

	for (size_t i = 0; i < t->n; i++)
		live += !t->v[i].ended;
	live += t->nh + t->ns;
	obs->terms = xcalloc(live, sizeof(*obs->terms));
	obs->tables = xcalloc(live, sizeof(*obs->tables));
	*where = xcalloc(live, sizeof(**where));
	*enters = xcalloc(live, sizeof(**enters));
	for (size_t i = 0; i < live; i++)
		(*enters)[i] = SIZE_MAX;
	for (size_t i = 0; i <= t->n && !r; i++) {
		const char *name = i < t->n ? t->v[i].name : OUTER_READER;

		if (i < t->n ? t->v[i].ended : !*outer)
			continue;
		if (ns_plan_add_command(plan, name, i < t->n ? t->v[i].prompt : '#', line,
					CAT_MOUNTINFO, &d) < 0) {
			ns_buf_addf(err, "internal error: '%s' does not parse in %s: %s",
				    CAT_MOUNTINFO, plan->path, d.msg);
			ns_diag_free(&d);
			r = -1;
			break;
		}
		obs->terms[obs->n] = i < t->n ? xstrdup(name) :
			xasprintf("the outer shell of %s", outer);
		(*where)[obs->n++] = plan->nsteps - 1;
		/* the reader ends: it holds nothing after its look */
		if (i == t->n && ns_plan_add_command(plan, name, '#', line, "exit", &d) < 0) {
			ns_buf_addf(err, "internal error: 'exit' does not parse in %s: %s", plan->path, d.msg);
			ns_diag_free(&d);
			r = -1;
		}
	}
	/* each mount namespace a handle holds, read through it by the
	 * terminal whose shell holds it (nsenter --mount=@NS; an inner
	 * shell has its outer shell's handles, as a process inherits its
	 * descriptors); one that a terminal is in merges with that
	 * terminal's table (the graph knows a namespace by its mounts) */
	for (size_t i = 0; i < t->nh && !r; i++) {
		const struct nsh *h = &t->h[i];
		const struct term *tm = &t->v[h->term];
		char *cmd;

		if (tm->ended)
			continue;
		cmd = xasprintf("nsenter --mount=%s %s", h->name, CAT_MOUNTINFO);
		if (ns_plan_add_command(plan, tm->name, tm->prompt, line, cmd, &d) < 0) {
			ns_buf_addf(err, "internal error: '%s' does not parse in %s: %s", cmd,
				    plan->path, d.msg);
			ns_diag_free(&d);
			r = -1;
		} else {
			obs->terms[obs->n] = xasprintf("the mount namespace %s (%s's handle)", h->name,
						       *tm->name ? tm->name : "the bare prompt");
			(*where)[obs->n++] = plan->nsteps - 1;
		}
		free(cmd);
	}
	/* each shell a terminal left for an inner one, read by the terminal
	 * of nstest's own that sits in it; the read counts only if it got in */
	for (size_t i = 0; i < t->ns && !r; i++) {
		const struct shadow *sh = &t->s[i];

		if (ns_plan_add_command(plan, sh->name, '#', line, CAT_MOUNTINFO, &d) < 0) {
			ns_buf_addf(err, "internal error: '%s' does not parse in %s: %s",
				    CAT_MOUNTINFO, plan->path, d.msg);
			ns_diag_free(&d);
			r = -1;
			break;
		}
		obs->terms[obs->n] = xasprintf("the shell of %s at level %u", t->v[sh->term].name,
					       sh->depth);
		(*enters)[obs->n] = sh->enter;
		(*where)[obs->n++] = plan->nsteps - 1;
	}
	free(outer);
	return r;
}

/* Before step st of the file: a terminal at level 1 or more that starts
 * an inner shell gets a shadow in the shell it leaves (struct shadow).
 * The bare prompt's terminal has no name nsenter -t can give: none. */
static int shadow_before(struct ns_scenario *plan, struct terms *t, const struct ns_step *st,
			 struct ns_buf *err)
{
	const struct ns_stage *first = st->pipeline.n ? &st->pipeline.stages[0] : NULL;
	struct term *tm = term_get(t, st->terminal);
	struct ns_diag d = { NULL, 0 };
	char *cmd;
	int r = 0;

	if (!first || !tm->depth || !*tm->name || st->nmore || st->nexpect ||
	    !ns_stage_starts_shell(first))
		return 0;
	ns_grow((void **)&t->s, &t->scap, t->ns + 1, sizeof(*t->s));
	t->s[t->ns] = (struct shadow){ xasprintf("nstest shell %u of %s", tm->depth, tm->name),
				       (size_t)(tm - t->v), tm->depth, 0 };
	cmd = xasprintf("nsenter -t %s -m sh", tm->name);
	if (ns_plan_add_command(plan, t->s[t->ns].name, '#', st->line, cmd, &d) < 0) {
		ns_buf_addf(err, "internal error: '%s' does not parse in %s: %s", cmd, plan->path,
			    d.msg);
		ns_diag_free(&d);
		free(t->s[t->ns].name);
		r = -1;
	} else {
		t->s[t->ns++].enter = plan->nsteps - 1;
	}
	free(cmd);
	return r;
}

/* After step st of the file: the shadows of a terminal back at their
 * level (or below it) leave. */
static int shadow_after(struct ns_scenario *plan, struct terms *t, const struct ns_step *st,
			struct ns_buf *err)
{
	const struct term *tm = term_get(t, st->terminal);
	struct ns_diag d = { NULL, 0 };

	for (size_t i = 0; i < t->ns;) {
		struct shadow *sh = &t->s[i];

		if (sh->term != (size_t)(tm - t->v) || (!tm->ended && tm->depth > sh->depth)) {
			i++;
			continue;
		}
		if (ns_plan_add_command(plan, sh->name, '#', st->line, "exit", &d) < 0) {
			ns_buf_addf(err, "internal error: 'exit' does not parse in %s: %s", plan->path,
				    d.msg);
			ns_diag_free(&d);
			return -1;
		}
		free(sh->name);
		t->s[i] = t->s[--t->ns];
	}
	return 0;
}

/* The step that stopped the probe, in the user's file, or NULL. */
static int check_steps(const struct ns_scenario *sc, const struct probe *p,
		       const size_t *map, size_t upto, struct ns_buf *err)
{
	for (size_t i = 0; i < upto; i++) {
		const struct ns_step *st = &sc->steps[i];
		const struct probe_step *s = &p->steps[map[i]];

		if (!s->ran) {
			ns_buf_addf(err, "%s:%d: the step '%s' did not run%s%s", sc->path, st->line,
				    st->cmdline, p->reason ? ": " : "", p->reason ? p->reason : "");
			return -1;
		}
		if (s->err && !s->ok) {
			ns_buf_addf(err, "%s:%d: the step '%s' failed (%s: %s), which its transcript does not show; only steps that work as written can be drawn",
				    sc->path, st->line, st->cmdline, s->syscall[0] ? s->syscall : "command",
				    ns_errname(s->err));
			return -1;
		}
	}
	return 0;
}

/* An observation whose tables could not all be read: none. */
static void drop_tables(struct ns_observation *ob)
{
	for (size_t j = 0; j < ob->n; j++) {
		free(ob->terms[j]);
		free(ob->tables[j]);
		ob->terms[j] = ob->tables[j] = NULL;
	}
	ob->n = 0;
}

int ns_observe_run(const struct ns_scenario *sc, const size_t *points, size_t n,
		   const struct ns_runner_opts *o, bool lenient, struct ns_observe *out,
		   struct ns_buf *err)
{
	struct terms t = { NULL, 0, 0, NULL, 0, 0, NULL, 0, 0 };
	size_t last = n ? points[n - 1] : 0, pi = 0;
	size_t *map = xcalloc(sc->nsteps + 1, sizeof(*map));
	size_t **where = xcalloc(n ? n : 1, sizeof(*where));
	size_t **enters = xcalloc(n ? n : 1, sizeof(*enters));
	struct probe p = { false, NS_PASS, NULL, NULL, 0, map, 0, { NULL, 0, NULL, false, false, 0 }, 0, NULL };
	struct ns_runner_hooks hooks = { &p, NULL, on_result, NULL, NULL };
	struct ns_scenario *plan = ns_plan_new(sc);
	int r = -1;

	memset(out, 0, sizeof(*out));
	out->at = xcalloc(n ? n : 1, sizeof(*out->at));
	out->n = n;
	/* the file's steps up to the last point, with the cat steps before
	 * the step of each point (at its line; after the last step, at the
	 * line after the file's) */
	for (size_t step = 0; step <= last && step <= sc->nsteps; step++) {
		int line = step < sc->nsteps ? sc->steps[step].line : (int)sc->nraw + 1;

		while (pi < n && points[pi] == step) {
			/* no terminal yet: the next step's shows the start */
			if (!any_live(&t) && step < sc->nsteps)
				term_get(&t, sc->steps[step].terminal)->prompt = sc->steps[step].prompt;
			out->at[pi].step = step;
			if (put_cats(plan, &t, line, &out->at[pi], &where[pi], &enters[pi], err) < 0)
				goto out;
			pi++;
		}
		if (step >= last || step >= sc->nsteps)
			break;
		if (shadow_before(plan, &t, &sc->steps[step], err) < 0)
			goto out;
		term_step(&t, &sc->steps[step]);
		map[step] = plan->nsteps;
		ns_plan_borrow(plan, &sc->steps[step]);
		if (shadow_after(plan, &t, &sc->steps[step], err) < 0)
			goto out;
	}
	p.nfile = last < sc->nsteps ? last : sc->nsteps;
	ns_runner_run(&plan, 1, o, &hooks);
	out->run = p.file;
	p.file = (struct ns_run){ NULL, 0, NULL, false, false, 0 };
	out->seconds = p.seconds;
	out->devices = p.devices;
	if (!p.got || p.status == NS_SKIP) {
		ns_buf_addf(err, "%s: the scenario was skipped: %s", sc->path,
			    p.reason ? p.reason : "no result");
		goto out;
	}
	if (!lenient && check_steps(sc, &p, map, last, err) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct ns_observation *ob = &out->at[i];
		for (size_t j = 0; j < ob->n; j++) {
			const struct probe_step *s = where[i][j] < p.n ? &p.steps[where[i][j]] : NULL;
			const struct probe_step *in = enters[i][j] < p.n ? &p.steps[enters[i][j]] : NULL;

			/* a shadow that did not get in would show its own table */
			if (enters[i][j] != SIZE_MAX && (!in || !in->ran || in->err))
				s = NULL;
			if ((!s || !s->ran || s->err) && lenient) {
				drop_tables(ob);
				break;
			}
			if (!s || !s->ran || s->err) {
				ns_buf_addf(err, "%s: reading %s's mount table after step %zu failed%s%s",
					    sc->path, *ob->terms[j] ? ob->terms[j] : "the bare prompt",
					    ob->step, s && s->err ? ": " : "", s && s->err ? ns_errname(s->err) : "");
				goto out;
			}
			ob->tables[j] = xstrdup(s->output);
		}
	}
	r = 0;
out:
	for (size_t i = 0; i < n; i++) {
		free(where[i]);
		free(enters[i]);
	}
	free(where);
	free(enters);
	free(map);
	probe_free(&p);
	terms_free(&t);
	ns_scenario_free(plan);
	if (r < 0)
		ns_observe_free(out);
	return r;
}

void ns_observe_free(struct ns_observe *ob)
{
	for (size_t i = 0; i < ob->n; i++) {
		for (size_t j = 0; j < ob->at[i].n; j++) {
			free(ob->at[i].terms[j]);
			free(ob->at[i].tables[j]);
		}
		free(ob->at[i].terms);
		free(ob->at[i].tables);
	}
	free(ob->at);
	ns_run_free(&ob->run);
	memset(ob, 0, sizeof(*ob));
}
