/* place.c - see place.h */
#include "kernel/place.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

void ns_place_close(struct ns_place *p)
{
	if (p->ns >= 0)
		close(p->ns);
	if (p->root >= 0)
		close(p->root);
	if (p->cwd >= 0)
		close(p->cwd);
	*p = NS_PLACE_NONE;
}

int ns_place_save(int procfd, struct ns_place *p, const char **what)
{
	*p = NS_PLACE_NONE;
	p->ns = openat(procfd, "thread-self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (p->ns < 0) {
		*what = "open ns/mnt";
		return -1;
	}
	p->root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	p->cwd = p->root < 0 ? -1 : open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->cwd < 0) {
		int e = errno;
		*what = "open the root or working directory";
		ns_place_close(p);
		errno = e;
		return -1;
	}
	return 0;
}

/* setns(2) puts the caller at the namespace's root; the saved root and
 * directory come back after it. */
int ns_place_enter(const struct ns_place *p, const char **what)
{
	if (setns(p->ns, CLONE_NEWNS) < 0) {
		*what = "setns";
		return -1;
	}
	if (fchdir(p->root) < 0 || chroot(".") < 0) {
		*what = "chroot to the saved root";
		return -1;
	}
	if (fchdir(p->cwd) < 0) {
		*what = "fchdir to the saved working directory";
		return -1;
	}
	return 0;
}
