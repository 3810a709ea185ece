/* keymap.h - a hash map from pairs of numbers to pairs of numbers: the
 * matcher keeps its renaming in these (a device is MAJOR:MINOR, the other
 * numbers leave y at 0) and indexes an unordered block's lines by them.
 *
 * Open addressing with linear probing; cap is a power of two and the
 * table is at most half full. Looking a key up and filling its slot are
 * separate calls, so that a caller checking before it inserts probes once:
 * ns_keymap_reserve() first, then ns_keymap_find(), ns_keymap_at() and, if
 * that was NULL, ns_keymap_fill() on the same slot. */
#ifndef NS_KEYMAP_H
#define NS_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ns_key {
	unsigned long x, y;
};

static inline bool ns_key_eq(struct ns_key a, struct ns_key b)
{
	return a.x == b.x && a.y == b.y;
}

/* Raise *max to k when k is higher (by x, then y). */
static inline void ns_key_raise(struct ns_key *max, struct ns_key k)
{
	if (k.x > max->x || (k.x == max->x && k.y > max->y))
		*max = k;
}

/* `used` sits apart from the slots so that a probe mostly touches one
 * small array. A map may also keep a word per slot for its owner's
 * bookkeeping (the renaming's sightings): `aux`, apart too, so that maps
 * without it keep their slots small. */
struct ns_keymap {
	struct ns_keymap_slot {
		struct ns_key k, v;
	} *v;
	unsigned char *used;
	uint64_t *aux;        /* NULL, or a word per slot (ns_keymap_keep_aux) */
	size_t cap, n;
	bool with_aux;
};
#define NS_KEYMAP_INIT { NULL, NULL, NULL, 0, 0, false }

/* Keep a bookkeeping word per key, 0 when the key goes in; call before
 * the first key. */
void ns_keymap_keep_aux(struct ns_keymap *mp);

/* Make room for `extra` more keys, so that a slot from ns_keymap_find
 * stays valid while they go in. */
void ns_keymap_reserve(struct ns_keymap *mp, size_t extra);

/* The slot holding k, or the free slot where k would go (cap > 0). */
size_t ns_keymap_find(const struct ns_keymap *mp, struct ns_key k);

/* The value in slot i, or NULL when the slot is free. */
struct ns_key *ns_keymap_at(const struct ns_keymap *mp, size_t i);

/* The bookkeeping word of the used slot i (ns_keymap_keep_aux). */
static inline uint64_t *ns_keymap_aux(const struct ns_keymap *mp, size_t i)
{
	return &mp->aux[i];
}

/* Fill the free slot i (from ns_keymap_find after ns_keymap_reserve)
 * with k -> v. */
void ns_keymap_fill(struct ns_keymap *mp, size_t i, struct ns_key k,
		    struct ns_key v);

/* The value of k, or NULL (any map, even one never reserved). */
const struct ns_key *ns_keymap_get(const struct ns_keymap *mp, struct ns_key k);

/* Remove k, which must be present. */
void ns_keymap_del(struct ns_keymap *mp, struct ns_key k);

void ns_keymap_free(struct ns_keymap *mp);

#endif
