/* place.h - where a process is, as file descriptors: its mount namespace,
 * root and working directory. Saved, a place can be gone back to later
 * from anywhere, with setns(2), chroot(2) and fchdir(2). */
#ifndef NS_PLACE_H
#define NS_PLACE_H

struct ns_place {
	int ns, root, cwd;          /* -1 when not saved */
};

#define NS_PLACE_NONE ((struct ns_place){ -1, -1, -1 })

/* Save where the calling process is; procfd is a procfs directory.
 * Returns 0, or -1 with errno set and *what naming the failed step. */
int ns_place_save(int procfd, struct ns_place *p, const char **what);

/* Go to a saved place (it stays saved). 0, or -1 with errno and *what. */
int ns_place_enter(const struct ns_place *p, const char **what);

void ns_place_close(struct ns_place *p);

#endif
