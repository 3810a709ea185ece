/* trouble.c - see trouble.h */
#include "run/trouble.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "base/util.h"

bool ns_trouble_errno(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM || err == EAGAIN;
}

/* The calls under test: what they answer is the kernel's verdict, and a
 * scenario may expect any of it. Their names as struct ns_cmd_result
 * gives them (run/result.h), for both backends. */
static const char *const under_test[] = {
	"mount", "umount2", "move_mount", "open_tree", "open_tree_attr",
	"fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	"statmount", "listmount", "unshare", "setns", "pivot_root", "chroot",
};

static bool is_under_test(const char *syscall)
{
	for (size_t i = 0; i < sizeof(under_test) / sizeof(under_test[0]); i++)
		if (!strcmp(syscall, under_test[i]))
			return true;
	return false;
}

/* Where the line falls:
 *
 * - EMFILE and ENFILE are never the kernel's answer about mounts: they
 *   say that this process's descriptor table (RLIMIT_NOFILE), or the
 *   system's, is full, and nstest's own terminals, saved places and
 *   handles fill it. Even open_tree(2), fsopen(2) and fsmount(2), which
 *   are under test, say EMFILE only because a new descriptor had no room.
 *
 * - ENOMEM and EAGAIN from a call under test are the kernel's answer and
 *   judged as such. The kernel's own allocations are not charged to the
 *   caller's RLIMIT_AS (`ulimit -v`), so ENOMEM from mount(2) or
 *   unshare(2) means the kernel itself could not allocate: a memory
 *   cgroup at its limit, or a kernel that leaks or allocates without
 *   bound, which is a regression a bisect must be able to find. EAGAIN
 *   is umount2(MNT_EXPIRE)'s documented first answer. (The mount limit,
 *   fs.mount-max, is ENOSPC, also the kernel's answer.)
 *
 * - ENOMEM and EAGAIN from anything else are the plumbing's: fork(2)
 *   under RLIMIT_NPROC, the C library's malloc behind opendir(3) or a
 *   mountinfo read under RLIMIT_AS, a pipe or a dup. */
bool ns_trouble_step(const char *syscall, int err)
{
	if (err == EMFILE || err == ENFILE)
		return true;
	if (err != ENOMEM && err != EAGAIN)
		return false;
	return !syscall || !is_under_test(syscall);
}

/* "ulimit -n is 8", or "unlimited" */
static char *limit_text(int resource, const char *what, const char *flag,
			unsigned long long unit, const char *unit_name)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) < 0)
		return xasprintf("%s, ulimit %s", what, flag);
	if (rl.rlim_cur == RLIM_INFINITY)
		return xasprintf("%s, ulimit %s, is unlimited", what, flag);
	return xasprintf("%s, ulimit %s, is %llu%s", what, flag,
			 (unsigned long long)rl.rlim_cur / unit, unit_name);
}

char *ns_trouble_what(int err)
{
	char *limit, *msg;

	switch (err) {
	case EMFILE:
		limit = limit_text(RLIMIT_NOFILE, "the open-file limit", "-n", 1, "");
		msg = xasprintf("nstest ran out of file descriptors (%s)", limit);
		break;
	case ENFILE:
		return xstrdup("the system ran out of file descriptors (its file table, fs.file-max, is full)");
	case ENOMEM:
		limit = limit_text(RLIMIT_AS, "the address-space limit", "-v", 1024, " KiB");
		msg = xasprintf("nstest ran out of memory (%s)", limit);
		break;
	case EAGAIN:
		limit = limit_text(RLIMIT_NPROC, "the process limit", "-u", 1, "");
		msg = xasprintf("nstest could not start a process (%s)", limit);
		break;
	default:
		return NULL;
	}
	free(limit);
	return msg;
}
