/* keymap.c - see keymap.h. */
#include "match/keymap.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"

static size_t key_hash(struct ns_key k)
{
	uint64_t h = (uint64_t)k.x * 0x9e3779b97f4a7c15ULL ^ (uint64_t)k.y;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return (size_t)h;
}

static size_t next_slot(const struct ns_keymap *mp, size_t i)
{
	return (i + 1) & (mp->cap - 1);
}

static size_t home_slot(const struct ns_keymap *mp, struct ns_key k)
{
	return key_hash(k) & (mp->cap - 1);
}

size_t ns_keymap_find(const struct ns_keymap *mp, struct ns_key k)
{
	size_t i = home_slot(mp, k);

	while (mp->used[i] && !ns_key_eq(mp->v[i].k, k))
		i = next_slot(mp, i);
	return i;
}

struct ns_key *ns_keymap_at(const struct ns_keymap *mp, size_t i)
{
	return mp->used[i] ? &mp->v[i].v : NULL;
}

const struct ns_key *ns_keymap_get(const struct ns_keymap *mp, struct ns_key k)
{
	if (!mp->cap)
		return NULL;
	return ns_keymap_at(mp, ns_keymap_find(mp, k));
}

void ns_keymap_reserve(struct ns_keymap *mp, size_t extra)
{
	struct ns_keymap old = *mp;
	size_t cap = old.cap ? old.cap : 16;

	while (2 * (mp->n + extra) > cap)
		cap *= 2;
	if (cap == old.cap)
		return;
	mp->cap = cap;
	mp->v = xmalloc(cap * sizeof(*mp->v));
	mp->used = xcalloc(cap, 1);
	mp->aux = mp->with_aux ? xcalloc(cap, sizeof(*mp->aux)) : NULL;
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.used[i])
			continue;
		size_t j = ns_keymap_find(mp, old.v[i].k);
		mp->v[j] = old.v[i];
		mp->used[j] = 1;
		if (mp->aux)
			mp->aux[j] = old.aux[i];
	}
	free(old.v);
	free(old.used);
	free(old.aux);
}

void ns_keymap_keep_aux(struct ns_keymap *mp)
{
	mp->with_aux = true;
}

void ns_keymap_fill(struct ns_keymap *mp, size_t i, struct ns_key k,
		    struct ns_key v)
{
	mp->v[i] = (struct ns_keymap_slot){ k, v }; /* aux[i] is 0 already */
	mp->used[i] = 1;
	mp->n++;
}

/* Remove k, then pull later entries of its probe run back into the hole
 * so that every remaining key is still found from its home slot. */
void ns_keymap_del(struct ns_keymap *mp, struct ns_key k)
{
	size_t i = ns_keymap_find(mp, k);

	mp->used[i] = 0;
	mp->n--;
	for (size_t j = next_slot(mp, i); mp->used[j]; j = next_slot(mp, j)) {
		size_t h = home_slot(mp, mp->v[j].k);
		bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
		if (stays)
			continue;
		mp->v[i] = mp->v[j];
		if (mp->aux)
			mp->aux[i] = mp->aux[j];
		mp->used[i] = 1;
		mp->used[j] = 0;
		i = j;
	}
	if (mp->aux)
		mp->aux[i] = 0; /* a free slot's word is 0 */
}

void ns_keymap_free(struct ns_keymap *mp)
{
	free(mp->v);
	free(mp->used);
	free(mp->aux);
	*mp = (struct ns_keymap)NS_KEYMAP_INIT;
}
