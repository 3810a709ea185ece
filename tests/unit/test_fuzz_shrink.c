/* test_fuzz_shrink.c - the shrinker (fuzz/shrink.h) with a fake oracle in
 * place of two backends: a case "diverges" when some terminal makes a
 * directory private and later unmounts that same directory. */
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen.h"
#include "fuzz/shrink.h"
#include "tap.h"

static bool diverges(const struct ns_fuzz_case *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const char *p = c->ops[i].cmd;
		if (strncmp(p, "mount --make-private /", 22))
			continue;
		for (size_t j = i + 1; j < c->n; j++) {
			const char *q = c->ops[j].cmd;
			if (c->ops[j].term == c->ops[i].term && !strncmp(q, "umount ", 7) &&
			    !strcmp(q + 7, p + 21))
				return true;
		}
	}
	return false;
}

struct fake {
	size_t calls, fail_at;
	size_t spent_at;        /* the call at which the budget is spent */
};

static int oracle(void *p, const struct ns_fuzz_case *cand, size_t n, bool *keep)
{
	struct fake *f = p;

	if (++f->calls == f->fail_at)
		return -1;
	if (f->spent_at && f->calls >= f->spent_at)
		return 1;
	for (size_t i = 0; i < n; i++)
		keep[i] = diverges(&cand[i]);
	return 0;
}

static void planted(struct ns_fuzz_case *c)
{
	struct ns_fuzz_gen_opts o = { 12, 3, 0 };
	struct ns_fuzz_case g;

	ns_fuzz_generate(5, 5, &o, &g);
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < g.n; i++) {
		/* keep the generated noise away from the planted pair */
		if (strstr(g.ops[i].cmd, "umount"))
			continue;
		ns_fuzz_case_add(c, g.ops[i].term, g.ops[i].cmd);
		if (i == 3)
			ns_fuzz_case_add(c, 3, "mount --make-private /c/x");
	}
	ns_fuzz_case_add(c, 3, "umount /c/x");
	ns_fuzz_case_free(&g);
}

TEST(to_the_minimum)
{
	struct ns_fuzz_case c;
	struct fake f = { 0, 0, 0 };
	struct ns_fuzz_shrink_stats st = { 0, 0 };
	struct ns_buf b = NS_BUF_INIT;

	planted(&c);
	ok(diverges(&c) && c.n > 8, "the planted case diverges (%zu operations)", c.n);
	ok(ns_fuzz_shrink(&c, oracle, &f, NULL, &st) == 0, "shrinking succeeds");
	ns_fuzz_case_text(&c, "t", &b);
	is_str(ns_buf_str(&b),
	       "title: t\n\n"
	       "    sh1# mount --make-private /a/x\n"
	       "    sh1# cat /proc/self/mountinfo\n"
	       "    sh1# umount /a/x\n"
	       "    sh1# cat /proc/self/mountinfo\n",
	       "down to the two operations, one terminal, names in normal form");
	ok(st.rounds == f.calls && st.candidates > st.rounds, "one oracle call per round (%zu rounds, %zu candidates)",
	   st.rounds, st.candidates);
	ns_buf_free(&b);
	ns_fuzz_case_free(&c);
}

TEST(oracle_fails)
{
	struct ns_fuzz_case c, before;
	struct fake f = { 0, 2, 0 };

	planted(&c);
	ns_fuzz_case_copy(&before, &c);
	ok(ns_fuzz_shrink(&c, oracle, &f, NULL, NULL) < 0, "an oracle that fails stops the shrinking");
	ok(diverges(&c) && c.n < before.n, "what was found so far is kept, and still diverges");
	ns_fuzz_case_free(&c);
	ns_fuzz_case_free(&before);
}

TEST(budget_spent)
{
	struct ns_fuzz_case c, before;
	struct fake f = { 0, 0, 3 };

	planted(&c);
	ns_fuzz_case_copy(&before, &c);
	ok(ns_fuzz_shrink(&c, oracle, &f, NULL, NULL) == 0 && f.calls == 3,
	   "a spent budget ends the shrinking at that round, with no error");
	ok(diverges(&c) && c.n < before.n && c.n > 2,
	   "what was found before is kept, and still diverges (%zu of %zu operations)", c.n, before.n);
	ns_fuzz_case_free(&c);
	ns_fuzz_case_free(&before);
}

TEST(stop)
{
	struct ns_fuzz_case c;
	struct fake f = { 0, 0, 0 };
	volatile sig_atomic_t stop = 1;
	size_t n;

	planted(&c);
	n = c.n;
	ok(ns_fuzz_shrink(&c, oracle, &f, &stop, NULL) == 0 && f.calls == 0 && c.n == n,
	   "a stop request before the first round leaves the case as it is");
	ns_fuzz_case_free(&c);
}
