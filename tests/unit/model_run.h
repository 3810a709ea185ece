/* model_run.h - a scenario played on the model one step at a time, each
 * step checked as it comes, for the model's unit tests (test_model*.c):
 * a listing with the matcher (step.h; mount IDs, devices and peer groups
 * are names, renamed consistently across the scenario), a failure by its
 * errno and call, or an exact text. A scenario whose steps are not all
 * checked fails (finish). */
#ifndef NS_TEST_MODEL_RUN_H
#define NS_TEST_MODEL_RUN_H

#include <stdlib.h>
#include <string.h>

#include "match/match.h"
#include "model/model.h"
#include "model/play.h"
#include "scn.h"
#include "step.h"
#include "tap.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* One session line of a scenario. */
#define C(line) "    " line "\n"
/* The listing every check reads: mountinfo without its " - ..." part. */
#define MI "cat /proc/self/mountinfo | sed 's/ - .*//'"

/* ---- a scenario played step by step -------------------------------------- */

struct run {
	const char *what;           /* the rule, for every check's name */
	struct ns_scenario *sc;
	struct m_play *p;
	struct ns_matcher *m;
	size_t next;                /* the next step to play */
	struct ns_step_out out;     /* the last step played */
};

static inline struct run *start_with(const char *what, const char *text, unsigned quirks,
			      enum m_break broken)
{
	struct run *r = xcalloc(1, sizeof(*r));

	r->what = what;
	r->sc = parse(text);
	r->p = r->sc ? m_play_new(r->sc, quirks, broken, false) : NULL;
	r->m = ns_matcher_new();
	return r;
}

static inline struct run *start(const char *what, const char *text)
{
	return start_with(what, text, 0, M_BREAK_NONE);
}

/* Play the next step; false when there is none (a miscounted test). */
static inline bool step(struct run *r)
{
	ns_step_out_free(&r->out); /* its output and the alive numbers */
	if (!r->p || r->next >= r->sc->nsteps)
		return false;
	m_play_step(r->p, r->next++, &r->out);
	return true;
}

static inline const char *cmdline(const struct run *r)
{
	return r->next && r->sc ? r->sc->steps[r->next - 1].cmdline : "(no step)";
}

static inline void show_output(const struct run *r)
{
	const char *s = r->out.output ? r->out.output : "";

	while (*s) {
		size_t n = strcspn(s, "\n");
		printf("#   | %.*s\n", (int)n, s);
		s += n + (s[n] == '\n');
	}
}

/* The next n steps set things up: each must succeed and print nothing. */
static inline void setup(struct run *r, size_t n)
{
	bool good = true;

	for (size_t i = 0; i < n && good; i++) {
		good = step(r) && r->out.err == 0 && !(r->out.output && *r->out.output);
		if (!good) {
			printf("#   step \"%s\" failed or printed:\n", cmdline(r));
			show_output(r);
		}
	}
	ok(good, "%s: set-up (%zu steps) succeeds silently", r->what, n);
}

/* The next step succeeds and prints nothing. */
static inline void quiet(struct run *r, const char *desc)
{
	bool good = step(r) && r->out.err == 0 && !(r->out.output && *r->out.output);

	ok(good, "%s: %s", r->what, desc);
	if (!good) {
		printf("#   step \"%s\" (errno %d) printed:\n", cmdline(r), r->out.err);
		show_output(r);
	}
}

/* Does the next step print exactly these mountinfo lines, in any order
 * (with the run's renaming, or with a fresh one)? */
static inline bool table_matches(struct run *r, const char *const *exp, bool fresh, char **diff)
{
	struct ns_matcher *m = fresh ? ns_matcher_new() : r->m;
	bool good = step(r) && r->out.err == 0 &&
		    match_step(m, NULL, exp, true, r->out.output, diff);

	if (fresh)
		ns_matcher_free(m);
	return good;
}

static inline void explain(const struct run *r, bool good, const char *diff)
{
	if (!good) {
		printf("#   step \"%s\" (errno %d):\n", cmdline(r), r->out.err);
		show_output(r);
		if (diff && *diff)
			printf("# diff:\n%s", diff);
	}
}

/* The next step prints exactly these mountinfo lines, in any order. */
static inline void table(struct run *r, const char *const *exp, const char *desc)
{
	char *diff = NULL;
	bool good = table_matches(r, exp, false, &diff);

	ok(good, "%s: %s", r->what, desc);
	explain(r, good, diff);
	free(diff);
}

/* The next step prints exactly these mountinfo lines, in this order:
 * for the order mounts were made in, which mountinfo shows from 6.8. */
static inline void table_in_order(struct run *r, const char *const *exp, const char *desc)
{
	char *diff = NULL;
	bool good = step(r) && r->out.err == 0 &&
		    match_step(r->m, NULL, exp, false, r->out.output, &diff);

	ok(good, "%s: %s", r->what, desc);
	explain(r, good, diff);
	free(diff);
}

/* The same with names of their own: for a listing after unmounts, whose
 * new mounts and groups may get back numbers that earlier ones had
 * (proc(5): IDs "may be reused"), which the run's renaming would not
 * pair with new names. */
static inline void table_anew(struct run *r, const char *const *exp, const char *desc)
{
	char *diff = NULL;
	bool good = table_matches(r, exp, true, &diff);

	ok(good, "%s: %s", r->what, desc);
	explain(r, good, diff);
	free(diff);
}

/* The next step does not print these lines (for the tests that break a
 * rule on purpose: the listing must differ). */
static inline void not_table(struct run *r, const char *const *exp, const char *desc)
{
	struct ns_matcher *fresh = ns_matcher_new();
	bool same = step(r) && r->out.err == 0 &&
		    match_step(fresh, NULL, exp, true, r->out.output, NULL);

	ok(r->out.output && !same, "%s: %s", r->what, desc);
	if (same)
		show_output(r);
	ns_matcher_free(fresh);
}

/* The next step fails with err, in the system call sys (NULL: any). */
static inline void fails(struct run *r, int err, const char *sys, const char *desc)
{
	bool good = step(r) && r->out.err == err &&
		    (!sys || strcmp(r->out.syscall, sys) == 0);

	ok(good, "%s: %s", r->what, desc);
	if (!good) {
		printf("#   step \"%s\": errno %d (want %d), call \"%s\" (want \"%s\")\n",
		       cmdline(r), r->out.err, err, r->out.syscall, sys ? sys : "any");
		show_output(r);
	}
}

/* The next step prints this text exactly. */
static inline void prints(struct run *r, const char *want, const char *desc)
{
	bool played = step(r);

	is_str(played ? r->out.output : NULL, want, "%s: %s", r->what, desc);
}

/* Every step of the scenario was checked. */
static inline void finish(struct run *r)
{
	ok(r->sc && r->next == r->sc->nsteps, "%s: every step played and checked (%zu of %zu)",
	   r->what, r->next, r->sc ? r->sc->nsteps : 0);
	ns_step_out_free(&r->out);
	m_play_free(r->p);
	ns_matcher_free(r->m);
	ns_scenario_free(r->sc);
	free(r);
}

/* The mount ID of the line for mount point mp in text, 0 if none. */
static inline unsigned long id_of(const char *text, const char *mp)
{
	unsigned long id = 0;
	char *copy = xstrdup(text ? text : ""), *save = NULL;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct ns_mi_line l;
		if (ns_mi_parse(line, &l) && strcmp(l.mountpoint, mp) == 0)
			id = l.id;
		ns_mi_free(&l);
	}
	free(copy);
	return id;
}

#endif
