/* renaming.c - see renaming.h.
 *
 * Each bijection is a pair of hash maps, expected -> actual and
 * actual -> expected; binding a pair fills both and pushes it on the
 * trail, undoing it deletes it from both. */
#include "match/renaming.h"

#include <stdlib.h>

#include "base/util.h"

struct bij {
	struct ns_keymap fwd, rev; /* expected -> actual, actual -> expected */
};

struct trail {
	enum ns_renaming_kind kind;
	struct ns_key e, a;
};

struct ns_renaming {
	struct bij bij[NS_RENAMING_NKINDS];
	struct trail *trail;  /* pairs bound since the last keep */
	size_t ntrail, trailcap;
};

struct ns_renaming *ns_renaming_new(void)
{
	return xcalloc(1, sizeof(struct ns_renaming));
}

void ns_renaming_free(struct ns_renaming *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < NS_RENAMING_NKINDS; i++) {
		ns_keymap_free(&r->bij[i].fwd);
		ns_keymap_free(&r->bij[i].rev);
	}
	free(r->trail);
	free(r);
}

bool ns_renaming_fits(const struct ns_renaming *r, enum ns_renaming_kind kind,
		      struct ns_key e, struct ns_key a)
{
	const struct ns_key *have = ns_keymap_get(&r->bij[kind].fwd, e);

	if (have)
		return ns_key_eq(*have, a);
	return !ns_keymap_get(&r->bij[kind].rev, a);
}

static void push_trail(struct ns_renaming *r, enum ns_renaming_kind kind,
		       struct ns_key e, struct ns_key a)
{
	void *t = r->trail;

	ns_grow(&t, &r->trailcap, r->ntrail + 1, sizeof(*r->trail));
	r->trail = t;
	r->trail[r->ntrail++] = (struct trail){ kind, e, a };
}

bool ns_renaming_bind(struct ns_renaming *r, enum ns_renaming_kind kind,
		      struct ns_key e, struct ns_key a)
{
	struct ns_keymap *fwd = &r->bij[kind].fwd, *rev = &r->bij[kind].rev;
	const struct ns_key *have;
	size_t i, j;

	ns_keymap_reserve(fwd, 1);
	ns_keymap_reserve(rev, 1);
	i = ns_keymap_find(fwd, e);
	have = ns_keymap_at(fwd, i);
	if (have)
		return ns_key_eq(*have, a);
	j = ns_keymap_find(rev, a);
	if (ns_keymap_at(rev, j))
		return false;
	ns_keymap_fill(fwd, i, e, a);
	ns_keymap_fill(rev, j, a, e);
	push_trail(r, kind, e, a);
	return true;
}

const struct ns_key *ns_renaming_expected(const struct ns_renaming *r,
					  enum ns_renaming_kind kind,
					  struct ns_key a)
{
	return ns_keymap_get(&r->bij[kind].rev, a);
}

void ns_renaming_reserve(struct ns_renaming *r, enum ns_renaming_kind kind,
			 size_t n)
{
	ns_keymap_reserve(&r->bij[kind].fwd, n);
	ns_keymap_reserve(&r->bij[kind].rev, n);
}

size_t ns_renaming_mark(const struct ns_renaming *r)
{
	return r->ntrail;
}

void ns_renaming_undo_to(struct ns_renaming *r, size_t mark)
{
	while (r->ntrail > mark) {
		struct trail *t = &r->trail[--r->ntrail];
		ns_keymap_del(&r->bij[t->kind].fwd, t->e);
		ns_keymap_del(&r->bij[t->kind].rev, t->a);
	}
}

void ns_renaming_keep(struct ns_renaming *r)
{
	r->ntrail = 0;
}
