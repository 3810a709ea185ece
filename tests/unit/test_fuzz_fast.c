/* test_fuzz_fast.c - what `nstest fuzz` keeps of a case played on the
 * model is the same, byte for byte, whichever way it is computed: the
 * fuzzer's own path (ns_fuzz_parse_cases, ns_fuzz_play: the case's
 * scenario built from a parse of its operations, the canonical form of
 * canon.c) against the slow path it replaced (the case's whole text
 * parsed, played with the backend's play_here, every observed table cut
 * apart by the reference canonical form, canon_ref.h). Thousands of
 * generated cases, with and without quirks, and the tables they show
 * mangled on purpose (lines shuffled, cut, doubled, junk, cycles), each
 * compared field by field: a fast path that changes one byte of one
 * verdict's input fails here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "canon_ref.h"
#include "fuzz/compare.h"
#include "fuzz/gen.h"
#include "fuzz/play.h"
#include "fuzz/rng.h"
#include "model/play.h"
#include "tap.h"

#define CASES 1000

static unsigned model_features(const struct ns_backend *be)
{
	unsigned f = 0;

	for (unsigned bit = NS_FEAT_FIRST; bit <= NS_FEAT_LAST; bit <<= 1)
		if (be->has_feature(bit) > 0)
			f |= bit;
	return f;
}

/* The model's play_here as it was: every table rendered anew. */
static void fresh_play(const struct ns_scenario *sc, const struct ns_run_opts *ro,
		       struct ns_run *run)
{
	struct ns_buf err = NS_BUF_INIT;
	unsigned quirks = 0;
	enum m_break broken = M_BREAK_NONE;
	struct m_play *p;

	memset(run, 0, sizeof(*run));
	run->n = sc->nsteps;
	run->obs = xcalloc(sc->nsteps ? sc->nsteps : 1, sizeof(*run->obs));
	if (m_quirks_parse(ro->config.quirks, ns_list_has(ro->config.quirks, "kernel") ?
			   ns_backend_find("model")->release(ro) : NULL, &quirks, &err) < 0 ||
	    m_break_parse(ro->config.broken, &broken, &err) < 0)
		abort();
	ns_buf_free(&err);
	p = m_play_new(sc, quirks, broken, false);
	m_play_no_alive(p);
	m_play_fresh_tables(p);
	for (size_t i = 0; i < sc->nsteps; i++) {
		m_play_step(p, i, &run->obs[i].out);
		run->obs[i].ran = true;
	}
	m_play_free(p);
}

/* The slow path: the case's text parsed whole, played with every table
 * rendered anew, each observation made canonical by the reference, one
 * renaming a round. */
static void slow_outcome(const struct ns_backend *be, const struct ns_run_opts *ro,
			 const struct ns_fuzz_case *c, const char *path,
			 struct ns_fuzz_outcome *o)
{
	struct ns_buf text = NS_BUF_INIT;
	struct ns_diag d = { NULL, 0 };
	struct ns_fuzz_groups g = NS_FUZZ_GROUPS_INIT;
	struct ns_fuzz_plan p;
	struct ns_scenario *sc;
	struct ns_run run;
	size_t round = (size_t)-1;

	memset(o, 0, sizeof(*o));
	ns_fuzz_case_text(c, "fuzz case", &text);
	sc = ns_scenario_parse(path, ns_buf_str(&text), text.len, &d);
	ns_buf_free(&text);
	if (!sc) {
		o->unparsed = true;
		o->aborted = xasprintf("a generated scenario does not parse: %s", d.msg);
		ns_diag_free(&d);
		return;
	}
	ns_diag_free(&d);
	(void)be;
	fresh_play(sc, ro, &run);
	ns_fuzz_case_plan(c, &p);
	o->n = p.n;
	o->s = xcalloc(p.n ? p.n : 1, sizeof(*o->s));
	o->setup_failed = run.setup_failed;
	o->timed_out = run.timed_out;
	o->aborted = run.aborted ? xstrdup(run.aborted) : NULL;
	for (size_t i = 0; i < p.n && i < run.n; i++) {
		struct ns_fuzz_step *s = &o->s[i];
		s->ran = run.obs[i].ran;
		if (!s->ran)
			continue;
		s->err = run.obs[i].out.err;
		s->out = xstrdup(run.obs[i].out.output ? run.obs[i].out.output : "");
		if (p.s[i].op == NS_FUZZ_NO_OP) {
			struct ns_buf b = NS_BUF_INIT, ord = NS_BUF_INIT;
			if (p.s[i].round != round) {
				ns_fuzz_groups_free(&g);
				round = p.s[i].round;
			}
			ref_canon_mountinfo(s->out, &g, &b, &ord);
			s->canon = ns_buf_detach(&b);
			s->order = ns_buf_detach(&ord);
		}
	}
	ns_fuzz_groups_free(&g);
	ns_fuzz_plan_free(&p);
	ns_run_free(&run);
	ns_scenario_free(sc);
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The first difference of two outcomes, described, or NULL. */
static char *differs(const struct ns_fuzz_outcome *a, const struct ns_fuzz_outcome *b)
{
	if (a->n != b->n || a->skipped != b->skipped || a->setup_failed != b->setup_failed ||
	    a->timed_out != b->timed_out || a->unparsed != b->unparsed)
		return xstrdup("its flags or step count");
	if (!str_eq(a->aborted, b->aborted))
		return xasprintf("aborted: [%s] vs [%s]", a->aborted ? a->aborted : "(null)",
				 b->aborted ? b->aborted : "(null)");
	for (size_t i = 0; i < a->n; i++) {
		const struct ns_fuzz_step *x = &a->s[i], *y = &b->s[i];
		if (x->ran != y->ran || x->err != y->err)
			return xasprintf("step %zu: ran or errno", i + 1);
		if (!str_eq(x->out, y->out))
			return xasprintf("step %zu: output\n%s---\n%s", i + 1, x->out, y->out);
		if (!str_eq(x->canon, y->canon))
			return xasprintf("step %zu: canonical table\n%s---\n%s", i + 1,
					 x->canon ? x->canon : "(null)\n", y->canon ? y->canon : "(null)\n");
		if (!str_eq(x->order, y->order))
			return xasprintf("step %zu: order", i + 1);
	}
	return NULL;
}

/* A shrinker's candidates of case c, which may not parse (a handle of a
 * terminal they dropped): variant v of it into *d. */
static void candidate(const struct ns_fuzz_case *c, unsigned v, size_t i, struct ns_fuzz_case *d)
{
	if (v == 1)
		ns_fuzz_case_drop_term(d, c, 1);
	else if (v == 2)
		ns_fuzz_case_drop(d, c, 1, c->n / 2);
	else if (v == 3)
		ns_fuzz_case_rename(d, c, "a", "b") || (ns_fuzz_case_free(d), ns_fuzz_case_copy(d, c), 0);
	else
		ns_fuzz_case_copy(d, c);
	if (v == 4)
		/* a line no parser takes, and one a handle never made */
		ns_fuzz_case_add(d, 2, i % 2 ? "frobnicate /a" : "move_mount @nope /b");
}

/* CASES cases of seed on the model with these quirks, both ways; with
 * variant v of each (candidate()). */
static void both_ways(uint64_t seed, const char *quirks, unsigned steps, unsigned terms,
		      unsigned v)
{
	const struct ns_backend *be = ns_backend_find("model");
	struct ns_fuzz_side side = { .label = "model", .be = be, .jobs = 1,
				     .run = { NS_DEVICES_TMPFS, 0, false, { quirks, NULL }, true } };
	struct ns_fuzz_gen_opts go = { steps, terms, model_features(be) };
	struct ns_fuzz_case *cases = xcalloc(CASES, sizeof(*cases));
	struct ns_fuzz_outcome *fast = xcalloc(CASES, sizeof(*fast));
	struct ns_buf err = NS_BUF_INIT;
	struct ns_fuzz_parsed p;
	size_t bad = 0, tables = 0, unparsed = 0;
	char *first = NULL;

	for (size_t i = 0; i < CASES; i++) {
		struct ns_fuzz_case c;
		ns_fuzz_generate(seed, i, &go, &c);
		candidate(&c, v, i, &cases[i]);
		ns_fuzz_case_free(&c);
	}
	ns_fuzz_parse_cases(cases, CASES, &p);
	ok(ns_fuzz_play(&side, cases, CASES, &p, fast, &err) == 0, "seed %llu played: %s",
	   (unsigned long long)seed, ns_buf_str(&err));
	for (size_t i = 0; i < CASES; i++) {
		struct ns_fuzz_outcome slow;
		char path[64], *why;

		snprintf(path, sizeof(path), "fuzz-%zu.scn", i);
		slow_outcome(be, &side.run, &cases[i], path, &slow);
		why = differs(&slow, &fast[i]);
		for (size_t k = 0; k < slow.n; k++)
			tables += slow.s[k].canon != NULL;
		unparsed += slow.unparsed;
		if (why && !bad++)
			first = xasprintf("case %zu: %s", i, why);
		free(why);
		ns_fuzz_outcome_free(&slow);
		ns_fuzz_outcome_free(&fast[i]);
		ns_fuzz_case_free(&cases[i]);
	}
	ok(bad == 0, "seed %llu, quirks [%s], variant %u: %zu cases (%zu unparsed), %zu tables; %zu differ%s%s",
	   (unsigned long long)seed, quirks ? quirks : "", v, (size_t)CASES, unparsed, tables, bad,
	   first ? ": " : "", first ? first : "");
	if (v == 4)
		ok(unparsed > 0, "some cases do not parse");
	ok(tables > CASES, "the cases observed tables");
	free(first);
	ns_fuzz_parsed_free(&p);
	ns_buf_free(&err);
	free(cases);
	free(fast);
}

TEST(model_cases_both_ways)
{
	both_ways(1, NULL, 10, 3, 0);
	both_ways(7, "kernel", 10, 3, 0);
	both_ways(11, "mountinfo-attach-order,umount-shifts-stacks", 14, 5, 0);
}

TEST(shrink_candidates_both_ways)
{
	for (unsigned v = 1; v <= 4; v++)
		both_ways(20 + v, v % 2 ? "kernel" : NULL, 10, 4, v);
}

/* The first step (1-based) where compare.c's tests tell a and b apart
 * (ran, errno, text, order), or 0: what ns_fuzz_compare must report. */
static size_t first_difference(const struct ns_fuzz_outcome *a, const struct ns_fuzz_outcome *b)
{
	for (size_t i = 0; i < a->n && i < b->n; i++) {
		const struct ns_fuzz_step *x = &a->s[i], *y = &b->s[i];
		if (x->ran != y->ran)
			return i + 1;
		if (x->ran && (x->err != y->err ||
			       strcmp(ns_fuzz_step_text(x), ns_fuzz_step_text(y)) ||
			       (x->order && y->order && strcmp(x->order, y->order))))
			return i + 1;
	}
	return 0;
}

TEST(compare_finds_the_first_difference)
{
	const struct ns_backend *be = ns_backend_find("model");
	struct ns_run_opts plain = { NS_DEVICES_TMPFS, 0, false, { NULL, NULL }, true },
			   other = { NS_DEVICES_TMPFS, 0, false, { "mountinfo-attach-order,umount-shifts-stacks", "slaves-receive-nothing" }, true };
	struct ns_fuzz_gen_opts go = { 10, 3, model_features(be) };
	size_t bad = 0, diverged = 0;

	for (uint64_t i = 0; i < 600; i++) {
		struct ns_fuzz_case c;
		struct ns_fuzz_outcome a, b;
		struct ns_fuzz_diff d;
		enum ns_fuzz_verdict v;
		size_t want;

		ns_fuzz_generate(9, i, &go, &c);
		slow_outcome(be, &plain, &c, "fuzz-0.scn", &a);
		slow_outcome(be, i % 3 ? &other : &plain, &c, "fuzz-0.scn", &b);
		if (i % 3 == 0 && b.n && b.s[i % b.n].ran) {
			/* the same play, one step's text made to differ */
			struct ns_fuzz_step *st = &b.s[i % b.n];
			char **t = st->canon ? &st->canon : &st->out, *x = xasprintf("%sx\n", *t);
			free(*t);
			*t = x;
		}
		want = first_difference(&a, &b);
		v = ns_fuzz_compare(&c, &a, &b, &d);
		diverged += v == NS_FUZZ_DIVERGES;
		if (want ? v != NS_FUZZ_DIVERGES || d.step + 1 != want : v != NS_FUZZ_SAME)
			bad++;
		ns_fuzz_diff_free(&d);
		ns_fuzz_outcome_free(&a);
		ns_fuzz_outcome_free(&b);
		ns_fuzz_case_free(&c);
	}
	ok(bad == 0 && diverged > 200, "600 pairs, %zu diverge: %zu judged otherwise", diverged, bad);
}

/* ---- the canonical form alone, on tables mangled on purpose ---------- */

static void canon_both(struct ns_fuzz_groups *ga, struct ns_fuzz_groups *gb, const char *text,
		       size_t *bad, char **first)
{
	struct ns_buf a = NS_BUF_INIT, b = NS_BUF_INIT, oa = NS_BUF_INIT, ob = NS_BUF_INIT;

	ref_canon_mountinfo(text, ga, &a, &oa);
	ns_fuzz_canon_mountinfo(text, gb, &b, &ob);
	if ((strcmp(ns_buf_str(&a), ns_buf_str(&b)) || strcmp(ns_buf_str(&oa), ns_buf_str(&ob))) &&
	    !(*bad)++)
		*first = xasprintf("table\n%s\ngives\n%s%s---\n%s%s", text, ns_buf_str(&a),
				   ns_buf_str(&oa), ns_buf_str(&b), ns_buf_str(&ob));
	ns_buf_free(&a);
	ns_buf_free(&b);
	ns_buf_free(&oa);
	ns_buf_free(&ob);
}

/* One line of a table, mangled by r's draw. */
static void mangle_line(struct ns_rng *r, const char *line, size_t len, struct ns_buf *out)
{
	static const char *const junk[] = {
		"", " ", "-", "x y z", "1 2 3:4 / / rw - tmpfs /dev/d1 rw", "1 1 0:1 / / rw",
		"12 12 0:3 /a /b rw shared:1 master:1 propagate_from:1 - t s o",
		"5 9 0:3 / / rw,x shared:x master: - tmpfs /dev/ ro,a,b", "5 6 0:1 / /c rw - ",
		"07 0x1 0:1 / / rw - a b c", "4 1 0:3 / /x rw -x shared:2 - tmpfs /dev/d1 rw,a", "1 2 3:4 a / rw - a b c", "99999999999999999999 1 0:1 / / r - a b c",
	};
	unsigned what = (unsigned)(ns_rng_next(r) % 16);

	if (what == 0) {
		ns_buf_adds(out, junk[ns_rng_next(r) % NS_ARRAY_SIZE(junk)]);
	} else if (what == 1) {
		ns_buf_add(out, line, len / 2);
	} else if (what == 2) {
		/* blanks doubled */
		for (size_t i = 0; i < len; i++) {
			ns_buf_addc(out, line[i]);
			if (line[i] == ' ')
				ns_buf_addc(out, ' ');
		}
	} else if (what == 3) {
		/* the parent made the line's own ID: a cycle or a top */
		size_t a = strcspn(line, " ");
		ns_buf_add(out, line, a);
		ns_buf_addc(out, ' ');
		ns_buf_add(out, line, a);
		ns_buf_add(out, line + a + strcspn(line + a + 1, " ") + 1,
			   len - a - strcspn(line + a + 1, " ") - 1);
	} else if (what == 4) {
		ns_buf_add(out, line, len);
		for (int k = 0; k < 70; k++)
			ns_buf_adds(out, " shared:3");
	} else {
		ns_buf_add(out, line, len);
	}
}

TEST(canon_mangled_tables)
{
	const struct ns_backend *be = ns_backend_find("model");
	struct ns_run_opts ro = { NS_DEVICES_TMPFS, 0, false, { NULL, NULL }, true };
	struct ns_fuzz_gen_opts go = { 12, 4, model_features(be) };
	struct ns_rng r;
	size_t bad = 0, tables = 0;
	char *first = NULL;

	ns_rng_seed(&r, 99, 0);
	for (uint64_t i = 0; i < 300; i++) {
		struct ns_fuzz_case c;
		struct ns_fuzz_outcome o;
		struct ns_fuzz_groups ga = NS_FUZZ_GROUPS_INIT, gb = NS_FUZZ_GROUPS_INIT;

		ns_fuzz_generate(3, i, &go, &c);
		slow_outcome(be, &ro, &c, "fuzz-0.scn", &o);
		for (size_t k = 0; k < o.n; k++) {
			const char *t = o.s[k].canon ? o.s[k].out : NULL, *p;
			struct ns_buf m = NS_BUF_INIT;
			if (!t)
				continue;
			tables++;
			/* as printed, then mangled; one renaming across them
			 * all, as a long round would have */
			canon_both(&ga, &gb, t, &bad, &first);
			for (p = t; *p;) {
				size_t len = strcspn(p, "\n");
				mangle_line(&r, p, len, &m);
				if (ns_rng_below(&r, 5) == 0)
					mangle_line(&r, p, len, &m);
				ns_buf_addc(&m, '\n');
				p += len + (p[len] == '\n');
			}
			if (ns_rng_next(&r) % 3 == 0 && m.len)
				m.data[--m.len] = '\0';
			canon_both(&ga, &gb, ns_buf_str(&m), &bad, &first);
			ns_buf_free(&m);
		}
		ns_fuzz_groups_free(&ga);
		ns_fuzz_groups_free(&gb);
		ns_fuzz_outcome_free(&o);
		ns_fuzz_case_free(&c);
	}
	ok(bad == 0, "%zu tables and their mangled copies: %zu differ%s%s", tables, bad,
	   first ? ": " : "", first ? first : "");
	free(first);
}
