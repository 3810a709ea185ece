/* probe.c - see probe.h */
#include "kernel/probe.h"

#include <errno.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/mountapi.h"

/* The child's status when it could not get a namespace to probe in: its
 * errno is added, so that the parent can say why. */
#define NO_NAMESPACE 64

int ns_probe_in_child(bool (*test)(void *), void *arg, bool private_ns)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (private_ns && unshare(CLONE_NEWNS) < 0 &&
		    unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			_exit(errno > 0 && errno < 256 - NO_NAMESPACE ? NO_NAMESPACE + errno : NO_NAMESPACE);
		_exit(test(arg) ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		return WEXITSTATUS(status) == 0;
	/* killed, or no namespace to probe in: the question stays open */
	errno = WIFEXITED(status) && WEXITSTATUS(status) > NO_NAMESPACE ?
		WEXITSTATUS(status) - NO_NAMESPACE : ECHILD;
	return -1;
}

/* move_mount() checks its flags before its descriptors: an unknown flag
 * is EINVAL, a known one gets as far as the bad descriptors (EBADF). */
static bool probe_flag(void *flagp)
{
	unsigned empty = MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH;

	return ns_move_mount(-1, "", -1, "", empty | *(unsigned *)flagp) < 0 &&
	       errno == EBADF;
}

/* move_mount() checks the caller may mount before it looks at the flags,
 * so the probe runs in a child that has a mount namespace of its own (in
 * a user namespace of its own when not root). Each answer is probed once
 * per process: the runner asks for every scenario that needs it. */
int ns_move_mount_knows(unsigned flag)
{
	static unsigned asked, known;
	int r;

	if (!flag)
		return ns_probe_in_child(probe_flag, &flag, true);
	if (!(asked & flag)) {
		/* a probe that could not run is asked again next time */
		r = ns_probe_in_child(probe_flag, &flag, true);
		if (r < 0)
			return -1;
		if (r)
			known |= flag;
		asked |= flag;
	}
	return (known & flag) != 0;
}
