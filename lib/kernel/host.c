/* host.c - the kernel backend's answers about this machine (backend.h):
 * what the kernel is, what it has, and whether this process may build
 * sandboxes. Answers that cost a child process are cached for the
 * process (documented process-wide caches). */
#include "kernel/host.h"
#include "kernel/mountapi.h"

#include <errno.h>
#include <libmount.h>
#include <sched.h>
#include <stdio.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel/device.h"
#include "kernel/exec.h"
#include "kernel/mountapi.h"
#include "kernel/probe.h"

#ifndef SYS_statmount
#define SYS_statmount 457
#endif
#ifndef SYS_listmount
#define SYS_listmount 458
#endif

const char *ns_host_release(void)
{
	static struct utsname u;
	static bool read;

	if (!read)
		read = uname(&u) == 0;
	return read ? u.release : NULL;
}

/* Capabilities the kernel backend uses: new namespaces, mounts and
 * pivot_root (SYS_ADMIN), chroot into the stand-in node tree and back
 * (SYS_CHROOT), device nodes for loop stand-ins (MKNOD). */
static const struct {
	cap_value_t cap;
	const char *name;
} needed_caps[] = {
	{ CAP_SYS_ADMIN, "CAP_SYS_ADMIN" },
	{ CAP_SYS_CHROOT, "CAP_SYS_CHROOT" },
	{ CAP_MKNOD, "CAP_MKNOD" },
};

char *ns_host_privilege_problem(void)
{
	cap_t caps = cap_get_proc();
	struct ns_buf missing = NS_BUF_INIT;
	char *msg;

	if (!caps)
		return xstrdup("cannot read this process's capabilities");
	for (size_t i = 0; i < NS_ARRAY_SIZE(needed_caps); i++) {
		cap_flag_value_t v = CAP_CLEAR;
		if (cap_get_flag(caps, needed_caps[i].cap, CAP_EFFECTIVE, &v) < 0 || v != CAP_SET)
			ns_buf_addf(&missing, "%s%s", missing.len ? ", " : "", needed_caps[i].name);
	}
	cap_free(caps);
	if (!missing.len)
		return NULL;
	msg = xasprintf("missing %s: nstest creates mount namespaces and mounts; run it as root (sudo nstest ...)",
			ns_buf_str(&missing));
	ns_buf_free(&missing);
	return msg;
}

static bool make_userns(void *unused)
{
	(void)unused;
	return unshare(CLONE_NEWUSER) == 0;
}

int ns_host_userns_allowed(void)
{
	static int known = -1;
	int r;

	if (known < 0) {
		r = ns_probe_in_child(make_userns, NULL, false);
		if (r < 0)
			return -1; /* asked again next time */
		known = r;
	}
	return known;
}

/* The one check for loop devices: the sandbox's device code opens the
 * same node (device.c). */
bool ns_host_loop_devices(void)
{
	return access("/dev/loop-control", R_OK | W_OK) == 0;
}

bool ns_host_tmpfs_remounts(void)
{
	return ns_devices_clone_detached();
}

/* In a child's own namespace (ns_probe_in_child): made private, so that
 * nothing reaches the host, then a tmpfs with no options stacked on /,
 * read through a mountinfo opened before (a lookup from this process's
 * root would not see what is stacked on it anyway). shmem_show_options()
 * shows inode64 or inode32 on every tmpfs when the kernel is built with
 * CONFIG_TMPFS_INODE64, and neither on a tmpfs with no options when not. */
static bool shows_inode_bits(void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct libmnt_table *tb;
	struct libmnt_fs *fs;
	const char *opts;
	bool shown = false;

	(void)arg;
	if (!f)
		return false;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("nstest-inode64-probe", "/", "tmpfs", 0, NULL) < 0) {
		fclose(f);
		return false;
	}
	tb = mnt_new_table();
	if (tb && mnt_table_parse_stream(tb, f, "mountinfo") == 0 &&
	    (fs = mnt_table_find_source(tb, "nstest-inode64-probe", MNT_ITER_BACKWARD)) &&
	    (opts = mnt_fs_get_fs_options(fs)))
		shown = mnt_optstr_get_option(opts, "inode64", NULL, NULL) == 0 ||
			mnt_optstr_get_option(opts, "inode32", NULL, NULL) == 0;
	mnt_unref_table(tb);
	fclose(f);
	return shown;
}

bool ns_host_tmpfs_inode64(void)
{
	static int shown = -1;

	if (shown < 0)
		shown = ns_probe_in_child(shows_inode_bits, NULL, true) == 1;
	return shown;
}

/* A system call exists unless the kernel answers ENOSYS; the arguments
 * are invalid on purpose, so nothing happens. */
static bool has_syscall(long nr)
{
	return syscall(nr, -1, NULL, -1, NULL, 0) < 0 ? errno != ENOSYS : true;
}

int ns_host_has_feature(unsigned bit)
{
	switch (bit) {
	case NS_FEAT_OPEN_TREE: return has_syscall(SYS_open_tree);
	case NS_FEAT_OPEN_TREE_ATTR: return has_syscall(NS_SYS_open_tree_attr);
	/* an unknown flag is EINVAL before the bad descriptor is EBADF */
	case NS_FEAT_OPEN_TREE_NAMESPACE:
		return ns_open_tree(-1, "x", NS_OPEN_TREE_NAMESPACE) < 0 && errno == EBADF;
	case NS_FEAT_MOVE_MOUNT: return has_syscall(SYS_move_mount);
	case NS_FEAT_FSMOUNT: return has_syscall(SYS_fsopen) && has_syscall(SYS_fsmount);
	case NS_FEAT_MOUNT_SETATTR: return has_syscall(SYS_mount_setattr);
	case NS_FEAT_STATMOUNT: return has_syscall(SYS_statmount);
	case NS_FEAT_LISTMOUNT: return has_syscall(SYS_listmount);
	case NS_FEAT_MOVE_MOUNT_BENEATH: return ns_move_mount_knows(MOVE_MOUNT_BENEATH);
	case NS_FEAT_MOVE_MOUNT_SET_GROUP: return ns_move_mount_knows(MOVE_MOUNT_SET_GROUP);
	case NS_FEAT_MOUNT_NOTIFY: return ns_watch_supported();
	}
	return 0;
}
