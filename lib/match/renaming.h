/* renaming.h - the one-to-one renaming under which expected mountinfo
 * matches the kernel's (nstest-scenario(5), EXPECTED OUTPUT): three
 * bijections, for mount IDs, devices and peer groups, between the numbers a
 * transcript uses and the numbers the kernel printed; a fourth, for inode
 * numbers, serves stat's output, a fifth, for mount namespace IDs,
 * statmount's, and a sixth, for the unique mount IDs of statmount and
 * mount notifications.
 *
 * Pairs bound since the last ns_renaming_keep() are recorded on a trail,
 * so that a search branch that fails, or a whole step that fails, can be
 * undone exactly.
 *
 * A number the kernel freed may be given out again, so a pair can also
 * be released for good, once both its numbers are known to be dead
 * (nstest-scenario(5), Reused numbers). For that each pair keeps its
 * sightings: the views (places a step looked at mounts from, one bit
 * each) it was seen in since it was bound, and the last step it was seen
 * in. Binding a pair, or meeting it again, during a step counts as a
 * sighting. */
#ifndef NS_RENAMING_H
#define NS_RENAMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/keymap.h"

enum ns_renaming_kind {
	NS_RENAMING_ID,       /* mount IDs: ID and PARENT */
	NS_RENAMING_DEV,      /* MAJOR:MINOR */
	NS_RENAMING_GROUP,    /* the N of shared:N, master:N, propagate_from:N */
	NS_RENAMING_INO,      /* inode numbers (stat's %i) */
	NS_RENAMING_NSID,     /* mount namespace IDs (statmount's mnt_ns_id) */
	NS_RENAMING_UNIQUE,   /* unique mount IDs (statmount's mnt_id, mount
			       * notifications'): never given out twice */
	NS_RENAMING_PID,      /* a shell's process ID ($$): one per shell */
	NS_RENAMING_NKINDS
};

struct ns_renaming;

struct ns_renaming *ns_renaming_new(void);
void ns_renaming_free(struct ns_renaming *r);

/* Would e <-> a fit the renaming as it stands? */
bool ns_renaming_fits(const struct ns_renaming *r, enum ns_renaming_kind kind,
		      struct ns_key e, struct ns_key a);

/* Make e <-> a part of the renaming; false if either is taken otherwise. */
bool ns_renaming_bind(struct ns_renaming *r, enum ns_renaming_kind kind,
		      struct ns_key e, struct ns_key a);

/* Raise *max to the highest expected name of kind that is bound (keys
 * compared by x, then y). */
void ns_renaming_max_name(const struct ns_renaming *r,
			  enum ns_renaming_kind kind, struct ns_key *max);

/* Is expected name e bound? */
bool ns_renaming_has_name(const struct ns_renaming *r, enum ns_renaming_kind kind,
			  struct ns_key e);

/* The expected name of actual number a, or NULL when a is unbound. */
const struct ns_key *ns_renaming_expected(const struct ns_renaming *r,
					  enum ns_renaming_kind kind,
					  struct ns_key a);

/* Make room for n more pairs of one kind, so that binding many at once
 * does not rehash over and over. */
void ns_renaming_reserve(struct ns_renaming *r, enum ns_renaming_kind kind,
			 size_t n);

/* How long the trail is: a mark to undo back to. */
size_t ns_renaming_mark(const struct ns_renaming *r);

/* The i-th pair bound since the last keep (i < ns_renaming_mark()): its
 * kind and expected name. */
void ns_renaming_trail_at(const struct ns_renaming *r, size_t i,
			  enum ns_renaming_kind *kind, struct ns_key *e);

/* Forget the pairs bound since the trail was `mark` long. */
void ns_renaming_undo_to(struct ns_renaming *r, size_t mark);

/* Keep every pair bound so far: empty the trail without undoing it. */
void ns_renaming_keep(struct ns_renaming *r);

/* ---- sightings and release ---- */

/* A view bit that never clears: sightings in a place without a known
 * name, or beyond the 31 places that get bits of their own. */
#define NS_RENAMING_PINNED (1u << 31)

/* From now on, pairs bound or met count as seen in step `stamp` in the
 * views of vbit; vbit 0 turns sightings off (the default). */
void ns_renaming_set_sighting(struct ns_renaming *r, uint32_t stamp,
			      uint32_t vbit);

/* Actual number a shows in the step: if it is bound, that is a sighting
 * of its pair. For numbers the search did not bind (below a "..." or in
 * a step that failed). */
void ns_renaming_see(struct ns_renaming *r, enum ns_renaming_kind kind,
		     struct ns_key a);

/* Step `stamp` showed every live number of `kind` in view vbit (one bit,
 * not PINNED): each pair seen in that view but not in this step is
 * absent from it, and loses the view; a pair left with no view is
 * released. Call after ns_renaming_keep. Returns how many were released. */
size_t ns_renaming_release_unseen(struct ns_renaming *r,
				  enum ns_renaming_kind kind, uint32_t vbit,
				  uint32_t stamp);

#endif
