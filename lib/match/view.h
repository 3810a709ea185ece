/* view.h - where a step looked at mounts from, and which of the numbers
 * of that mount table its output shows all of: the matcher's evidence
 * that a number was freed (match.h, ns_matcher_set_view). Each step's
 * result carries one (run/result.h); the backends fill the key
 * (kernel/viewkey.c, model/viewkey.c), the shared pipeline the rest
 * (run/view.h). Here, below both, so that the matcher needs nothing of
 * run/. */
#ifndef NS_MATCH_VIEW_H
#define NS_MATCH_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/keymap.h"

/* Which kinds of numbers a step's output shows every one of, of the mount
 * table its first stage printed: bit k stands for the matcher's renaming
 * kind k (match/renaming.h: mount IDs, devices, peer groups). */
enum {
	NS_VIEW_IDS = 1u << 0,
	NS_VIEW_DEVS = 1u << 1,
	NS_VIEW_GROUPS = 1u << 2,
	NS_VIEW_ALL = NS_VIEW_IDS | NS_VIEW_DEVS | NS_VIEW_GROUPS,
};

/* Where a step looked at mounts from, for the matcher's evidence that a
 * number was freed (nstest-scenario(5), Reused numbers). The key is the
 * backend's own name for the place, compared only for equality: the
 * kernel's is the mount namespace's nsfs inode and the mount ID and inode
 * of the terminal's root; all zero when unknown. */
struct ns_view {
	uint64_t key[3];
	unsigned complete;      /* NS_VIEW_* (run/view.h decides) */
};

/* Every renamed number of the mount table of a step's place (its view's
 * key) as it stood once the step was over, read by the backend itself
 * whatever the step printed: IDs, devices and peer groups, in the order
 * of the NS_VIEW_* bits. The matcher takes a pair whose kernel number is
 * not among them out of that place (ns_matcher_after_step), so a number
 * freed and given out again pairs anew although no step printed the
 * table (nstest-scenario(5), Reused numbers). known is false when the
 * backend could not read it; a step then releases nothing. */
struct ns_alive {
	bool known;
	struct ns_key *v[3];
	size_t n[3], cap[3];
};

void ns_alive_add(struct ns_alive *a, unsigned kind, struct ns_key k);
void ns_alive_free(struct ns_alive *a);
/* The numbers of mountinfo text as the kernel printed it; not known when
 * a line is no record. */
void ns_alive_from_mountinfo(const char *text, size_t len, struct ns_alive *a);

#endif
