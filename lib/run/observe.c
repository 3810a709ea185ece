/* observe.c - see observe.h. */
#include "run/observe.h"

#include <string.h>

#include "run/verdict.h"
#include "scenario/command.h"

#define CAT_MOUNTINFO "cat /proc/self/mountinfo"

struct term {
	char *name;
	char prompt;
	unsigned depth;      /* inner shells */
	bool ended;
};

struct terms {
	struct term *v;
	size_t n, cap;
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

/* What step st does to its terminal's shells. */
static void term_step(struct terms *t, const struct ns_step *st)
{
	struct term *tm = term_get(t, st->terminal);
	enum ns_cmd_id id;

	tm->prompt = st->prompt;
	if (!st->pipeline.n || !st->pipeline.stages[0].def)
		return;
	id = st->pipeline.stages[0].def->id;
	if (id == NS_CMD_EXIT) {
		if (tm->depth)
			tm->depth--;
		else
			tm->ended = true;
	} else if ((id == NS_CMD_UNSHARE || id == NS_CMD_CHROOT || id == NS_CMD_CAPSH) &&
		   !st->nexpect) {
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
};

static void on_result(void *ctx, size_t index, const struct ns_result *r)
{
	struct probe *p = ctx;

	(void)index;
	p->got = true;
	p->status = r->v->status;
	p->reason = r->v->reason ? xstrdup(r->v->reason) : NULL;
	p->n = r->sc->nsteps;
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
}

/* One cat step per live terminal; the terminals' names and probe step
 * numbers go to *obs. */
static void put_cats(struct ns_buf *text, const struct terms *t, struct ns_observation *obs,
		     size_t *next_step, size_t **where)
{
	size_t live = 0;

	for (size_t i = 0; i < t->n; i++)
		live += !t->v[i].ended;
	obs->terms = xcalloc(live ? live : 1, sizeof(*obs->terms));
	obs->tables = xcalloc(live ? live : 1, sizeof(*obs->tables));
	*where = xcalloc(live ? live : 1, sizeof(**where));
	ns_buf_adds(text, "\n");
	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i].ended)
			continue;
		ns_buf_addf(text, "    %s%c " CAT_MOUNTINFO "\n", t->v[i].name, t->v[i].prompt);
		obs->terms[obs->n] = xstrdup(t->v[i].name);
		(*where)[obs->n++] = (*next_step)++;
	}
	ns_buf_adds(text, "\n");
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
	struct ns_buf text = NS_BUF_INIT;
	struct terms t = { NULL, 0, 0 };
	size_t last = n ? points[n - 1] : 0, next_step = 0, pi = 0, step = 0;
	size_t *map = xcalloc(sc->nsteps + 1, sizeof(*map));
	size_t **where = xcalloc(n ? n : 1, sizeof(*where));
	struct probe p = { false, NS_PASS, NULL, NULL, 0 };
	struct ns_runner_hooks hooks = { &p, NULL, on_result };
	struct ns_scenario *copy;
	struct ns_diag d = { NULL, 0 };
	int r = -1;

	memset(out, 0, sizeof(*out));
	out->at = xcalloc(n ? n : 1, sizeof(*out->at));
	out->n = n;
	/* the file's own lines, prose blanked, up to the last point, with
	 * the cat steps before the command of each point's step */
	for (size_t k = 0; k <= sc->nraw; k++) {
		const struct ns_raw_line *l = k < sc->nraw ? &sc->raw[k] : NULL;
		bool cmd = l && l->kind == NS_LINE_COMMAND;

		if (!l || cmd) {
			while (pi < n && points[pi] == step) {
				/* no terminal yet: the next step's shows the start */
				if (!any_live(&t) && step < sc->nsteps)
					term_get(&t, sc->steps[step].terminal)->prompt = sc->steps[step].prompt;
				out->at[pi].step = step;
				put_cats(&text, &t, &out->at[pi], &next_step, &where[pi]);
				pi++;
			}
			if (!l || step >= last)
				break;
			term_step(&t, &sc->steps[step]);
			map[step++] = next_step++;
		}
		ns_buf_adds(&text, l->kind == NS_LINE_PROSE ? "" : l->text);
		ns_buf_adds(&text, "\n");
	}
	copy = ns_scenario_parse(sc->path, text.data ? text.data : "", text.len, &d);
	if (!copy) {
		ns_buf_addf(err, "internal error: the copy of %s with its mountinfo steps does not parse: %s",
			    sc->path, d.msg);
		ns_diag_free(&d);
		goto out;
	}
	ns_runner_run(&copy, 1, o, &hooks);
	ns_scenario_free(copy);
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
	for (size_t i = 0; i < n; i++)
		free(where[i]);
	free(where);
	free(map);
	probe_free(&p);
	terms_free(&t);
	ns_buf_free(&text);
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
	memset(ob, 0, sizeof(*ob));
}
