/* view.h - where a step looked at mounts from, and which of the numbers
 * of that mount table its output shows all of: the matcher's evidence
 * that a number was freed (match.h, ns_matcher_set_view). Each step's
 * result carries one (run/result.h); the backends fill the key
 * (kernel/viewkey.c, model/viewkey.c), the shared pipeline the rest
 * (run/view.h). Here, below both, so that the matcher needs nothing of
 * run/. */
#ifndef NS_MATCH_VIEW_H
#define NS_MATCH_VIEW_H

#include <stdint.h>

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

#endif
