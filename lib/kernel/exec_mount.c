/* exec_mount.c - mount(8) and umount(8) on the kernel: mount(2),
 * umount2(2) and the stand-in devices. */
#include "kernel/exec.h"

#include <errno.h>
#include <linux/mount.h>
#include <sys/mount.h>

#include "commands/args.h"
#include "kernel/device.h"
#include "kernel/terminal.h"

/* MOUNT_ATTR_* for a stand-in mount from the MS_* flags of -o. */
static unsigned long long mount_attrs(unsigned long flags)
{
	static const struct {
		unsigned long ms;
		unsigned long long attr;
	} map[] = {
		{ MS_RDONLY, MOUNT_ATTR_RDONLY }, { MS_NOSUID, MOUNT_ATTR_NOSUID },
		{ MS_NODEV, MOUNT_ATTR_NODEV }, { MS_NOEXEC, MOUNT_ATTR_NOEXEC },
		{ MS_NODIRATIME, MOUNT_ATTR_NODIRATIME },
	};
	unsigned long long attr = 0;

	for (size_t i = 0; i < NS_ARRAY_SIZE(map); i++)
		if (flags & map[i].ms)
			attr |= map[i].attr;
	if (flags & MS_NOATIME)
		attr |= MOUNT_ATTR_NOATIME;
	else if (flags & MS_STRICTATIME)
		attr |= MOUNT_ATTR_STRICTATIME;
	return attr;
}

/* Each --make-* is a mount(2) call of its own, in the order typed. */
static int apply_propagation(const struct ns_mount_args *a, struct ns_cmd_result *res)
{
	for (size_t i = 0; i < a->nprop; i++)
		if (mount(NULL, a->dst, NULL, a->prop[i], NULL) < 0)
			return ns_cmd_fail(res, "mount", errno);
	return 0;
}

static int bind_mount(const struct ns_mount_args *a, struct ns_cmd_result *res)
{
	unsigned long rec = a->recursive ? MS_REC : 0;

	if (mount(a->src, a->dst, NULL, MS_BIND | rec, NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	/* As mount(8) does: per-mount flags need a second call. */
	if (a->flags && mount(NULL, a->dst, NULL, MS_REMOUNT | MS_BIND | a->flags, NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	return apply_propagation(a, res);
}

static int new_mount(struct ns_term *t, const struct ns_mount_args *a,
		     struct ns_cmd_result *res)
{
	const char *sys = "mount";
	int idx;

	if (!a->standin) {
		if (mount(a->src, a->dst, a->type, a->flags, a->data) < 0)
			return ns_cmd_fail(res, "mount", errno);
		return apply_propagation(a, res);
	}
	idx = ns_scenario_devindex(t->sc, a->src);
	if (idx < 0)
		return ns_cmd_fail(res, "stand-in lookup", ENODEV);
	if (ns_devices_mount(t->devs, (size_t)idx, a->dst, mount_attrs(a->flags), &sys) < 0)
		return ns_cmd_fail(res, sys, errno);
	return apply_propagation(a, res);
}

int ns_kexec_mount(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_mount_args *a = args;

	switch (a->op) {
	case NS_MOUNT_LIST:
		return ns_term_list_mounts(t, NS_RENDER_MOUNT, out, res);
	case NS_MOUNT_PROPAGATION:
		return apply_propagation(a, res);
	case NS_MOUNT_BIND:
		return bind_mount(a, res);
	case NS_MOUNT_MOVE:
		if (mount(a->src, a->dst, NULL, MS_MOVE, NULL) < 0)
			return ns_cmd_fail(res, "mount", errno);
		return 0;
	case NS_MOUNT_NEW:
		break;
	}
	return new_mount(t, a, res);
}

int ns_kexec_umount(struct ns_term *t, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_umount_args *a = args;

	(void)t, (void)out;
	for (size_t i = 0; i < a->ntargets; i++)
		if (umount2(a->targets[i], a->lazy ? MNT_DETACH : 0) < 0)
			return ns_cmd_fail(res, "umount2", errno);
	return 0;
}
