/* renaming.c - see renaming.h.
 *
 * Each bijection is a pair of hash maps, expected -> actual and
 * actual -> expected; binding a pair fills both and pushes it on the
 * trail, undoing it deletes it from both. A pair's sightings live in the
 * bookkeeping word of its expected -> actual slot, whose place a bind has
 * in hand anyway: the step last seen in the high half, the views in the
 * low half. */
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
	uint32_t stamp, vbit; /* the sighting a bind records, if vbit */
};

static uint64_t sighting(const struct ns_renaming *r, uint64_t old)
{
	return (uint64_t)r->stamp << 32 | (uint32_t)old | r->vbit;
}

struct ns_renaming *ns_renaming_new(void)
{
	struct ns_renaming *r = xcalloc(1, sizeof(struct ns_renaming));

	for (size_t i = 0; i < NS_RENAMING_NKINDS; i++)
		ns_keymap_keep_aux(&r->bij[i].fwd);
	return r;
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
	if (have) {
		if (!ns_key_eq(*have, a))
			return false;
		if (r->vbit)
			*ns_keymap_aux(fwd, i) = sighting(r, *ns_keymap_aux(fwd, i));
		return true;
	}
	j = ns_keymap_find(rev, a);
	if (ns_keymap_at(rev, j))
		return false;
	ns_keymap_fill(fwd, i, e, a);
	ns_keymap_fill(rev, j, a, e);
	if (r->vbit)
		*ns_keymap_aux(fwd, i) = sighting(r, 0);
	push_trail(r, kind, e, a);
	return true;
}

bool ns_renaming_has_name(const struct ns_renaming *r, enum ns_renaming_kind kind,
			  struct ns_key e)
{
	return ns_keymap_get(&r->bij[kind].fwd, e) != NULL;
}

const struct ns_key *ns_renaming_expected(const struct ns_renaming *r,
					  enum ns_renaming_kind kind,
					  struct ns_key a)
{
	return ns_keymap_get(&r->bij[kind].rev, a);
}

void ns_renaming_max_name(const struct ns_renaming *r,
			  enum ns_renaming_kind kind, struct ns_key *max)
{
	const struct ns_keymap *fwd = &r->bij[kind].fwd;

	for (size_t i = 0; i < fwd->cap; i++)
		if (fwd->used[i])
			ns_key_raise(max, fwd->v[i].k);
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

void ns_renaming_trail_at(const struct ns_renaming *r, size_t i,
			  enum ns_renaming_kind *kind, struct ns_key *e)
{
	*kind = r->trail[i].kind;
	*e = r->trail[i].e;
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

/* ---- sightings and release ---------------------------------------------- */

void ns_renaming_set_sighting(struct ns_renaming *r, uint32_t stamp,
			      uint32_t vbit)
{
	r->stamp = stamp;
	r->vbit = vbit;
}

void ns_renaming_see(struct ns_renaming *r, enum ns_renaming_kind kind,
		     struct ns_key a)
{
	const struct ns_keymap *fwd = &r->bij[kind].fwd;
	const struct ns_key *e = ns_keymap_get(&r->bij[kind].rev, a);
	size_t i;

	if (!e || !r->vbit)
		return;
	i = ns_keymap_find(fwd, *e);
	*ns_keymap_aux(fwd, i) = sighting(r, *ns_keymap_aux(fwd, i));
}

size_t ns_renaming_release_unseen(struct ns_renaming *r,
				  enum ns_renaming_kind kind, uint32_t vbit,
				  uint32_t stamp)
{
	struct ns_keymap *fwd = &r->bij[kind].fwd, *rev = &r->bij[kind].rev;
	struct trail *gone = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < fwd->cap; i++) {
		uint64_t *aux;
		void *g;

		if (!fwd->used[i])
			continue;
		aux = ns_keymap_aux(fwd, i);
		if (!(*aux & vbit) || *aux >> 32 == stamp)
			continue;
		*aux &= ~(uint64_t)vbit;
		if ((uint32_t)*aux)
			continue;
		/* deleting now would move slots under the loop */
		g = gone;
		ns_grow(&g, &cap, n + 1, sizeof(*gone));
		gone = g;
		gone[n++] = (struct trail){ kind, fwd->v[i].k, fwd->v[i].v };
	}
	for (size_t k = 0; k < n; k++) {
		ns_keymap_del(fwd, gone[k].e);
		ns_keymap_del(rev, gone[k].a);
	}
	free(gone);
	return n;
}
