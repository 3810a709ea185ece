/* exec_statmount.c - `statmount` and `listmount --check` on the kernel.
 *
 * statmount: statx(2) gives the unique ID of the mount a path (or a
 * handle) is on, and statmount(2) what the command prints of it.
 *
 * listmount --check: ask the kernel about every mount
 * of the terminal's namespace twice, through listmount(2)/statmount(2) and
 * through /proc/self/mountinfo, and report every disagreement (IDs,
 * parent, device, root, mount point, peer group, master, propagate_from),
 * in both directions: a mount only one of them shows is reported too, as is
 * one statmount cannot describe. Prints nothing when both agree. */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "commands/statmount.h"
#include "mounts/mountcheck.h"
#include "mounts/snapshot.h"
#include "kernel/handles.h"
#include "kernel/terminal.h"

#define SYS_statmount_ 457
#define SYS_listmount_ 458
#define LSMT_ROOT_ 0xffffffffffffffffULL
#define STATMOUNT_SB_BASIC_ 0x1U
#define STATMOUNT_MNT_BASIC_ 0x2U
#define STATMOUNT_PROPAGATE_FROM_ 0x4U
#define STATMOUNT_MNT_ROOT_ 0x8U
#define STATMOUNT_MNT_POINT_ 0x10U
#define STATMOUNT_FS_TYPE_ 0x20U
#define STATMOUNT_MNT_NS_ID_ 0x40U
#define STATX_MNT_ID_UNIQUE_ 0x4000U
#define MAX_MOUNTS 65536

/* The kernel's request and reply layouts (include/uapi/linux/mount.h). */
struct mnt_req {
	uint32_t size, spare;
	uint64_t mnt_id, param;
};

struct statmount_reply {
	uint32_t size, mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major, sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags, fs_type;
	uint64_t mnt_id, mnt_parent_id;
	uint32_t mnt_id_old, mnt_parent_id_old;
	uint64_t mnt_attr, mnt_propagation, mnt_peer_group, mnt_master, propagate_from;
	uint32_t mnt_root, mnt_point;
	uint64_t mnt_ns_id;
	uint64_t spare2[49];
	char str[];
};

/* Every mount ID listmount(2) knows, by listing the children of every
 * mount found so far (older kernels list children only, newer ones the
 * whole tree: both end up with every mount once). */
static size_t list_all(uint64_t *ids, struct ns_cmd_result *res)
{
	size_t n = 0, done = 0;
	uint64_t parent = LSMT_ROOT_;

	for (;;) {
		struct mnt_req req = { sizeof(req), 0, parent, 0 };
		uint64_t buf[1024];
		long got = syscall(SYS_listmount_, &req, buf, NS_ARRAY_SIZE(buf), 0);

		if (got < 0) {
			ns_cmd_fail(res, "listmount", errno);
			return 0;
		}
		for (long i = 0; i < got && n < MAX_MOUNTS; i++) {
			size_t k = 0;
			while (k < n && ids[k] != buf[i])
				k++;
			if (k == n)
				ids[n++] = buf[i];
		}
		if (done == n)
			return n;
		parent = ids[done++];
	}
}

static struct statmount_reply *stat_one(uint64_t id, uint64_t mask)
{
	struct mnt_req req = { sizeof(req), 0, id, mask };
	size_t size = 4096;

	for (;;) {
		struct statmount_reply *sm = xcalloc(1, size);
		if (syscall(SYS_statmount_, &req, sm, size, 0) == 0)
			return sm;
		free(sm);
		if (errno != EOVERFLOW || size > (1u << 24))
			return NULL;
		size *= 2;
	}
}

static void to_view(const struct statmount_reply *sm, struct ns_sm_view *v)
{
	v->id_old = sm->mnt_id_old;
	v->parent_old = sm->mnt_parent_id_old;
	v->major = sm->sb_dev_major;
	v->minor = sm->sb_dev_minor;
	v->peer_group = sm->mnt_propagation & MS_SHARED ? sm->mnt_peer_group : 0;
	v->master = sm->mnt_master;
	v->propagate_from = sm->propagate_from;
	v->root = sm->str + sm->mnt_root;
	v->mount_point = sm->str + sm->mnt_point;
}

int ns_kexec_listmount(struct ns_term *t, const void *args, struct ns_buf *out,
		       struct ns_cmd_result *res)
{
	uint64_t *ids = xcalloc(MAX_MOUNTS, sizeof(*ids));
	struct ns_buf text = NS_BUF_INIT;
	struct statmount_reply **sm;
	struct ns_sm_view *views;
	struct ns_buf lost = NS_BUF_INIT;
	size_t n, nv = 0;
	int r;

	(void)args;
	n = list_all(ids, res);
	if (res->err) {
		free(ids);
		return -1;
	}
	sm = xcalloc(n ? n : 1, sizeof(*sm));
	views = xcalloc(n ? n : 1, sizeof(*views));
	for (size_t i = 0; i < n; i++) {
		sm[i] = stat_one(ids[i], STATMOUNT_SB_BASIC_ | STATMOUNT_MNT_BASIC_ |
					 STATMOUNT_PROPAGATE_FROM_ | STATMOUNT_MNT_ROOT_ |
					 STATMOUNT_MNT_POINT_);
		if (sm[i])
			to_view(sm[i], &views[nv++]);
		else
			ns_buf_addf(&lost, "mount %#llx: listmount lists it, statmount fails: %s\n",
				    (unsigned long long)ids[i], ns_errname(errno));
	}
	r = ns_term_list_mounts(t, NS_RENDER_MOUNTINFO, &text, res);
	if (r == 0) {
		ns_mountcheck(ns_buf_str(&text), views, nv, out);
		ns_buf_addf(out, "%s", ns_buf_str(&lost));
	}
	ns_buf_free(&lost);
	for (size_t i = 0; i < n; i++)
		free(sm[i]);
	free(sm);
	free(views);
	free(ids);
	ns_buf_free(&text);
	if (r < 0)
		return -1;
	return out->len ? ns_cmd_fail(res, "statmount", EPROTO) : 0;
}

/* What statmount must be asked for a field. */
static uint64_t field_mask(enum ns_sm_field f)
{
	switch (f) {
	case NS_SM_DEV: return STATMOUNT_SB_BASIC_;
	case NS_SM_ROOT: return STATMOUNT_MNT_ROOT_;
	case NS_SM_POINT: return STATMOUNT_MNT_POINT_;
	case NS_SM_FSTYPE: return STATMOUNT_FS_TYPE_;
	case NS_SM_PROPAGATE_FROM: return STATMOUNT_PROPAGATE_FROM_;
	case NS_SM_NS: return STATMOUNT_MNT_NS_ID_;
	case NS_SM_ID: case NS_SM_PARENT: case NS_SM_ATTR: case NS_SM_PROPAGATION: case NS_SM_UNIQUE:
	case NS_SM_PEER_GROUP: case NS_SM_MASTER: case NS_SM__COUNT:
		break;
	}
	return STATMOUNT_MNT_BASIC_;
}

int ns_kexec_statmount(struct ns_term *t, const void *args, struct ns_buf *out,
		       struct ns_cmd_result *res)
{
	const struct ns_statmount_args *a = args;
	struct statmount_reply *sm;
	struct ns_statmount_vals v;
	struct statx sx;
	uint64_t mask = 0;
	const char *rel;
	int dfd;

	if (ns_handle_at(&t->handles, a->path, &dfd, &rel) < 0)
		return ns_cmd_fail(res, "statx", errno);
	if (statx(dfd, rel, *rel ? 0 : AT_EMPTY_PATH, STATX_MNT_ID_UNIQUE_, &sx) < 0)
		return ns_cmd_fail(res, "statx", errno);
	if (!(sx.stx_mask & STATX_MNT_ID_UNIQUE_))
		return ns_cmd_fail(res, "statx", EOPNOTSUPP);
	for (size_t i = 0; i < a->nfields; i++)
		mask |= field_mask(a->fields[i]);
	sm = stat_one(sx.stx_mnt_id, mask);
	if (!sm)
		return ns_cmd_fail(res, "statmount", errno);
	/* a kernel that does not know an item leaves its bit out */
	if ((sm->mask & mask) != mask) {
		free(sm);
		return ns_cmd_fail(res, "statmount", EOPNOTSUPP);
	}
	v = (struct ns_statmount_vals){
		.id = sm->mnt_id_old, .parent = sm->mnt_parent_id_old,
		.major = sm->sb_dev_major, .minor = sm->sb_dev_minor,
		.root = mask & STATMOUNT_MNT_ROOT_ ? sm->str + sm->mnt_root : NULL,
		.point = mask & STATMOUNT_MNT_POINT_ ? sm->str + sm->mnt_point : NULL,
		.fstype = mask & STATMOUNT_FS_TYPE_ ? sm->str + sm->fs_type : NULL,
		.attr = sm->mnt_attr, .propagation = sm->mnt_propagation,
		.peer_group = sm->mnt_propagation & MS_SHARED ? sm->mnt_peer_group : 0,
		.master = sm->mnt_propagation & MS_SLAVE ? sm->mnt_master : 0,
		.propagate_from = sm->mnt_propagation & MS_SLAVE ? sm->propagate_from : 0,
		.ns_id = sm->mnt_ns_id, .unique_id = sm->mnt_id,
	};
	ns_statmount_format(a, &v, out);
	free(sm);
	return 0;
}
