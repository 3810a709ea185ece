/* update.c - see update.h.
 *
 * The run is judged by ns_judge_with on a matcher kept afterwards: the
 * verdict tells which steps still match, and the matcher's renaming which
 * kernel numbers their blocks already name. Those blocks stay; every
 * other block that ran becomes what the kernel printed, its numbers
 * written in the names the kept blocks fixed, or else in fresh canonical
 * ones. Findmnt rows are renamed the same way (ns_judge_shape says which
 * fields hold numbers). The renaming is the one the last step left:
 * a kernel number whose pair was released and bound anew is written in
 * its later name even in a block before the release, which
 * ns_update_verify then refuses rather than write a wrong file. */
#include "update/update.h"

#include <string.h>

#include "match/match.h"
#include "match/renaming.h"
#include "run/verdict.h"

/* Fresh names of one kind: which names the file's kept blocks use, which
 * kernel numbers got a fresh name, and the next candidate. */
struct fresh {
	struct ns_keymap used;   /* name -> {1, 0} */
	struct ns_keymap given;  /* kernel number -> name */
	struct ns_key next;
};

struct updater {
	const struct ns_scenario *sc;
	const struct ns_run *run;
	struct ns_matcher *m;    /* the judge's, with its renaming */
	struct ns_verdict v;     /* the run judged: which steps match */
	struct fresh fresh[NS_RENAMING_NKINDS];
	struct ns_buf out;
	char *error;
};

static void set_put(struct ns_keymap *mp, struct ns_key k, struct ns_key v)
{
	size_t i;

	ns_keymap_reserve(mp, 1);
	i = ns_keymap_find(mp, k);
	if (!ns_keymap_at(mp, i))
		ns_keymap_fill(mp, i, k, v);
}

static struct ns_key key1(unsigned long x)
{
	return (struct ns_key){ x, 0 };
}

/* Whether step i's block is replaced: it ran and did not match. */
static bool rewrites(const struct updater *u, size_t i)
{
	return u->v.steps[i].ran && !u->v.steps[i].ok;
}

/* ---- names ------------------------------------------------------------- */

static void use_name(struct updater *u, enum ns_renaming_kind kind, struct ns_key name)
{
	set_put(&u->fresh[kind].used, name, key1(1));
}

/* use_name as a namer: the number is a name a kept block uses. */
static struct ns_key keep_name(void *ctx, enum ns_renaming_kind kind,
			       struct ns_key name)
{
	use_name(ctx, kind, name);
	return name;
}

/* Every number an expected mountinfo line, or findmnt row, of a kept
 * block names. */
static void reserve_kept_names(struct updater *u)
{
	struct ns_buf sink = NS_BUF_INIT;

	for (size_t i = 0; i < u->sc->nsteps; i++) {
		const struct ns_step *st = &u->sc->steps[i];
		struct ns_match_shape shape;
		const struct ns_match_shape *sh = ns_judge_shape(st, &shape) ? &shape : NULL;

		for (size_t k = 0; !rewrites(u, i) && k < st->nexpect; k++) {
			ns_match_map_numbers(sh, st->expect[k].text, keep_name, u, &sink);
			ns_buf_reset(&sink);
		}
	}
	ns_buf_free(&sink);
}

static void next_candidate(enum ns_renaming_kind kind, struct ns_key *k)
{
	if (kind == NS_RENAMING_DEV)
		k->y++;
	else
		k->x++;
}

/* The name kernel number a gets in the rewritten file. */
static struct ns_key name_of(struct updater *u, enum ns_renaming_kind kind,
			     struct ns_key a)
{
	const struct ns_key *known = ns_renaming_expected(ns_matcher_renaming(u->m), kind, a);
	struct fresh *f = &u->fresh[kind];
	struct ns_key name;

	if (known)
		return *known;
	known = ns_keymap_get(&f->given, a);
	if (known)
		return *known;
	while (ns_keymap_get(&f->used, f->next))
		next_candidate(kind, &f->next);
	name = f->next;
	next_candidate(kind, &f->next);
	use_name(u, kind, name);
	set_put(&f->given, a, name);
	return name;
}

static struct ns_key fresh_name(void *ctx, enum ns_renaming_kind kind,
				struct ns_key a)
{
	return name_of(ctx, kind, a);
}

/* One line the kernel printed, as the rewritten block holds it, read as
 * the step's lines are matched (a mountinfo record, or a findmnt row).
 * The parent is named before the mount, so that parents come out lower.
 * A row keeps the kernel's blanks: where a name is wider or narrower than
 * the number, only blanks the matcher compares loosely move. */
static void put_line(struct updater *u, const struct ns_match_shape *shape,
		     const char *line)
{
	ns_match_map_numbers(shape, line, fresh_name, u, &u->out);
}

/* ---- blocks ------------------------------------------------------------ */

/* Write step i's new block below its command line (raw line r). */
static int put_block(struct updater *u, size_t r)
{
	const struct ns_scenario *sc = u->sc;
	size_t i = sc->raw[r].step;
	const struct ns_step *st = &sc->steps[i];
	const char *old = ns_scenario_first_expect(sc, r);
	const char *indent = ns_scenario_block_indent(sc, r);
	const struct ns_step_out *o = &u->run->obs[i].out;
	/* in the forms the file uses: error lines, ls listings (verdict.h) */
	char *text = ns_judge_output(sc, st, o->err, o->output);
	struct ns_lines lines = NS_LINES_INIT;
	struct ns_match_shape shape;
	const struct ns_match_shape *sh = ns_judge_shape(st, &shape) ? &shape : NULL;

	ns_lines_split(&lines, text, strlen(text));
	free(text);
	if (st->unordered)
		ns_buf_addf(&u->out, "%s\n", old);
	for (size_t k = 0; k < lines.n; k++) {
		const char *s = lines.v[k];

		if (!s[strspn(s, " \t")]) {
			u->error = xasprintf("%s:%d: %s%c %s printed a blank line, which an expected block cannot hold",
					     sc->path, st->line, st->terminal, st->prompt, st->cmdline);
			ns_lines_free(&lines);
			return -1;
		}
		ns_buf_adds(&u->out, indent);
		put_line(u, sh, s);
		ns_buf_addc(&u->out, '\n');
	}
	ns_lines_free(&lines);
	return 0;
}

static int render(struct updater *u, bool final_newline, size_t *rewritten)
{
	const struct ns_scenario *sc = u->sc;

	for (size_t r = 0; r < sc->nraw; r++) {
		const struct ns_raw_line *l = &sc->raw[r];
		bool new_block = l->kind == NS_LINE_COMMAND && rewrites(u, l->step);

		if (l->kind == NS_LINE_EXPECT && rewrites(u, l->step))
			continue;
		ns_buf_addf(&u->out, "%s\n", l->text);
		if (new_block) {
			if (put_block(u, r) < 0)
				return -1;
			++*rewritten;
		}
	}
	if (!final_newline && u->out.len)
		u->out.data[--u->out.len] = '\0';
	return 0;
}

/* ---- the API ----------------------------------------------------------- */

void ns_update_original(const struct ns_scenario *sc, bool final_newline,
			struct ns_buf *out)
{
	for (size_t r = 0; r < sc->nraw; r++) {
		ns_buf_adds(out, sc->raw[r].text);
		if (r + 1 < sc->nraw || final_newline)
			ns_buf_addc(out, '\n');
	}
}

static void updater_free(struct updater *u)
{
	ns_matcher_free(u->m);
	ns_verdict_free(&u->v);
	for (size_t k = 0; k < NS_RENAMING_NKINDS; k++) {
		ns_keymap_free(&u->fresh[k].used);
		ns_keymap_free(&u->fresh[k].given);
	}
	ns_buf_free(&u->out);
}

int ns_update_rewrite(const struct ns_scenario *sc, const struct ns_run *run,
		      bool final_newline, struct ns_update *out)
{
	struct updater u = { .sc = sc, .run = run };
	int r;

	memset(out, 0, sizeof(*out));
	u.fresh[NS_RENAMING_ID].next = key1(NS_UPDATE_FIRST_ID);
	u.fresh[NS_RENAMING_DEV].next = (struct ns_key){ NS_UPDATE_DEV_MAJOR, 1 };
	u.fresh[NS_RENAMING_GROUP].next = key1(NS_UPDATE_FIRST_GROUP);
	u.fresh[NS_RENAMING_INO].next = key1(NS_UPDATE_FIRST_INO);
	u.fresh[NS_RENAMING_NSID].next = key1(NS_UPDATE_FIRST_NSID);
	u.fresh[NS_RENAMING_UNIQUE].next = key1(NS_UPDATE_FIRST_UNIQUE);
	u.fresh[NS_RENAMING_PID].next = key1(NS_UPDATE_FIRST_PID);
	u.m = ns_matcher_new();
	ns_judge_with(sc, run, NULL, u.m, &u.v);
	reserve_kept_names(&u);
	r = render(&u, final_newline, &out->rewritten);
	if (r == 0) {
		out->len = u.out.len;
		out->text = ns_buf_detach(&u.out);
	} else {
		out->error = u.error;
	}
	updater_free(&u);
	return r;
}

/* The first step of v that ran and failed, for the message. */
static const struct ns_step *first_failed(const struct ns_scenario *sc,
					  const struct ns_verdict *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->steps[i].ran && !v->steps[i].ok)
			return &sc->steps[i];
	return NULL;
}

int ns_update_verify(const struct ns_scenario *sc, const struct ns_run *run,
		     struct ns_update *u)
{
	struct ns_diag d = { NULL, 0 };
	struct ns_scenario *back = ns_scenario_parse(sc->path, u->text, u->len, &d);
	struct ns_verdict v;
	const struct ns_step *bad;

	if (!back) {
		u->error = xasprintf("the rewritten file would not parse: %s", d.msg);
		ns_diag_free(&d);
		return -1;
	}
	if (back->nsteps != sc->nsteps) {
		u->error = xasprintf("%s: a line the kernel printed would read as a command in the rewritten file",
				     sc->path);
		ns_scenario_free(back);
		return -1;
	}
	ns_judge(back, run, NULL, &v);
	bad = first_failed(back, &v);
	if (bad && run->obs[bad - back->steps].out.cut)
		/* no transcript can hold what it printed (run/result.h) */
		u->error = xasprintf("%s:%d: the output of '%s' passed %zu MiB, nstest's cap on a step's output: nothing to write",
				     sc->path, bad->line, bad->cmdline, NS_STEP_OUTPUT_MAX >> 20);
	else if (bad)
		u->error = xasprintf("%s:%d: the rewritten block of '%s' would still not match",
				     sc->path, bad->line, bad->cmdline);
	ns_verdict_free(&v);
	ns_scenario_free(back);
	return bad ? -1 : 0;
}

void ns_update_free(struct ns_update *u)
{
	free(u->text);
	free(u->error);
	memset(u, 0, sizeof(*u));
}
