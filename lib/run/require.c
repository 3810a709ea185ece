/* require.c - see require.h */
#include "run/require.h"

#include "kernel/mountapi.h"

#include "kernel/device.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef SYS_statmount
#define SYS_statmount 457
#endif
#ifndef SYS_listmount
#define SYS_listmount 458
#endif

int ns_kernel_version(const char *release, int v[3])
{
	v[0] = v[1] = v[2] = 0;
	return sscanf(release, "%d.%d.%d", &v[0], &v[1], &v[2]) >= 2 ? 0 : -1;
}

static int version_cmp(const int a[3], const int b[3])
{
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

enum ns_devices_mode ns_require_mode(const struct ns_scenario *sc,
				     const struct ns_run_opts *o)
{
	if (sc->devices != NS_DEVICES_DEFAULT)
		return sc->devices;
	if (sc->requires & NS_REQ_LOOP || o->devices == NS_DEVICES_LOOP)
		return NS_DEVICES_LOOP;
	/* one superblock for a name mounted twice: tmpfs stand-ins need
	 * Linux 6.15+ for that, loop devices give it anywhere */
	if (sc->remounts && !o->userns && !ns_devices_clone_detached() &&
	    access("/dev/loop-control", R_OK | W_OK) == 0)
		return NS_DEVICES_LOOP;
	return NS_DEVICES_TMPFS;
}

/* A system call exists unless the kernel answers ENOSYS; the arguments
 * are invalid on purpose, so nothing happens. */
static bool has_syscall(long nr)
{
	return syscall(nr, -1, NULL, -1, NULL, 0) < 0 ? errno != ENOSYS : true;
}

/* move_mount() checks its flags before its descriptors: an unknown flag
 * is EINVAL, a known one gets as far as the bad descriptors (EBADF). */
static bool probe_flag(void *flagp)
{
	unsigned empty = MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH;

	return syscall(SYS_move_mount, -1, "", -1, "", empty | *(unsigned *)flagp) < 0 &&
	       errno == EBADF;
}

/* move_mount() checks the caller may mount before it looks at the flags,
 * so the probe runs in a child that has a mount namespace of its own (in
 * a user namespace of its own when not root). */
static bool probe_in_child(unsigned flag)
{
	return ns_probe_in_child(probe_flag, &flag, true);
}

/* Each answer is probed once per process: the runner asks for every
 * scenario that needs the feature. */
bool ns_move_mount_knows(unsigned flag)
{
	static unsigned asked, known;

	if (!flag)
		return probe_in_child(0);
	if (!(asked & flag)) {
		if (probe_in_child(flag))
			known |= flag;
		asked |= flag;
	}
	return known & flag;
}

static const struct {
	unsigned bit;
	const char *name;
} features[] = {
	{ NS_FEAT_OPEN_TREE, "open_tree" },
	{ NS_FEAT_MOVE_MOUNT, "move_mount" },
	{ NS_FEAT_FSMOUNT, "fsmount" },
	{ NS_FEAT_MOUNT_SETATTR, "mount_setattr" },
	{ NS_FEAT_STATMOUNT, "statmount" },
	{ NS_FEAT_LISTMOUNT, "listmount" },
	{ NS_FEAT_MOVE_MOUNT_BENEATH, "move_mount_beneath" },
	{ NS_FEAT_MOVE_MOUNT_SET_GROUP, "move_mount_set_group" },
};

static bool feature_present(unsigned bit)
{
	switch (bit) {
	case NS_FEAT_OPEN_TREE: return has_syscall(SYS_open_tree);
	case NS_FEAT_MOVE_MOUNT: return has_syscall(SYS_move_mount);
	case NS_FEAT_FSMOUNT: return has_syscall(SYS_fsopen) && has_syscall(SYS_fsmount);
	case NS_FEAT_MOUNT_SETATTR: return has_syscall(SYS_mount_setattr);
	case NS_FEAT_STATMOUNT: return has_syscall(SYS_statmount);
	case NS_FEAT_LISTMOUNT: return has_syscall(SYS_listmount);
	case NS_FEAT_MOVE_MOUNT_BENEATH: return ns_move_mount_knows(MOVE_MOUNT_BENEATH);
	case NS_FEAT_MOVE_MOUNT_SET_GROUP: return ns_move_mount_knows(MOVE_MOUNT_SET_GROUP);
	}
	return false;
}

static bool make_userns(void *unused)
{
	(void)unused;
	return unshare(CLONE_NEWUSER) == 0;
}

bool ns_userns_allowed(void)
{
	static int known = -1;

	if (known < 0)
		known = ns_probe_in_child(make_userns, NULL, false);
	return known;
}

static char *missing_feature(unsigned req)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(features); i++)
		if (req & features[i].bit && !feature_present(features[i].bit))
			return xasprintf("this kernel lacks %s", features[i].name);
	return NULL;
}

static bool cmp_holds(const struct ns_version_cmp *c, const int have[3])
{
	int r = version_cmp(have, c->v);

	if (!strcmp(c->op, ">="))
		return r >= 0;
	if (!strcmp(c->op, ">"))
		return r > 0;
	if (!strcmp(c->op, "<="))
		return r <= 0;
	if (!strcmp(c->op, "<"))
		return r < 0;
	return r == 0;
}

const struct ns_xfail *ns_xfail_for(const struct ns_scenario *sc, const char *release)
{
	int have[3];

	if (ns_kernel_version(release, have) < 0)
		return NULL;
	for (size_t i = 0; i < sc->nxfails; i++) {
		const struct ns_xfail *x = &sc->xfails[i];
		bool all = true;
		for (size_t k = 0; k < x->ncmp; k++)
			all = all && cmp_holds(&x->cmp[k], have);
		if (x->any || all)
			return x;
	}
	return NULL;
}

char *ns_require_unmet(const struct ns_scenario *sc, const struct ns_run_opts *o)
{
	char *why;
	const int *min = sc->kernel_min;
	struct utsname u;
	int have[3];

	if (min[0] || min[1] || min[2]) {
		if (uname(&u) < 0 || ns_kernel_version(u.release, have) < 0)
			return xstrdup("cannot read the kernel version");
		if (version_cmp(have, min) < 0)
			return xasprintf("needs kernel >= %d.%d.%d, this is %s",
					 min[0], min[1], min[2], u.release);
	}
	if (sc->requires & NS_REQ_ROOT && (geteuid() != 0 || o->userns))
		return xstrdup("needs real root, not a user namespace");
	if (o->userns && ns_require_mode(sc, o) == NS_DEVICES_LOOP)
		return xstrdup("needs real root for loop devices (rootless mode has tmpfs stand-ins only)");
	if (ns_require_mode(sc, o) == NS_DEVICES_TMPFS && sc->remounts && !ns_devices_clone_detached())
		return xstrdup("mounts one stand-in more than once: tmpfs stand-ins share a superblock only on Linux 6.15 or later, and loop devices are not available here");
	if (ns_require_mode(sc, o) == NS_DEVICES_LOOP && access("/dev/loop-control", R_OK | W_OK) < 0)
		return xstrdup("needs loop devices: /dev/loop-control is not usable (modprobe loop)");
	if (sc->requires & NS_REQ_USERNS && !ns_userns_allowed())
		return xstrdup("needs user namespaces, which this system does not allow");
	why = missing_feature(sc->requires);
	return why;
}
