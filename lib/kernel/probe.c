/* probe.c - see probe.h */
#include "kernel/probe.h"

#include <errno.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/mountapi.h"

bool ns_probe_in_child(bool (*test)(void *), void *arg, bool private_ns)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0) {
		if (private_ns && unshare(CLONE_NEWNS) < 0 &&
		    unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			_exit(2);
		_exit(test(arg) ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
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
bool ns_move_mount_knows(unsigned flag)
{
	static unsigned asked, known;

	if (!flag)
		return ns_probe_in_child(probe_flag, &flag, true);
	if (!(asked & flag)) {
		if (ns_probe_in_child(probe_flag, &flag, true))
			known |= flag;
		asked |= flag;
	}
	return known & flag;
}
