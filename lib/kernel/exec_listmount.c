/* exec_listmount.c - `listmount --check` on the kernel: ask the kernel about every mount
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
#include <sys/syscall.h>
#include <unistd.h>

#include "mounts/mountcheck.h"
#include "mounts/snapshot.h"
#include "kernel/terminal.h"

#define SYS_statmount_ 457
#define SYS_listmount_ 458
#define LSMT_ROOT_ 0xffffffffffffffffULL
#define STATMOUNT_SB_BASIC_ 0x1U
#define STATMOUNT_MNT_BASIC_ 0x2U
#define STATMOUNT_PROPAGATE_FROM_ 0x4U
#define STATMOUNT_MNT_ROOT_ 0x8U
#define STATMOUNT_MNT_POINT_ 0x10U
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

static struct statmount_reply *stat_one(uint64_t id)
{
	struct mnt_req req = { sizeof(req), 0, id,
			       STATMOUNT_SB_BASIC_ | STATMOUNT_MNT_BASIC_ | STATMOUNT_PROPAGATE_FROM_ |
			       STATMOUNT_MNT_ROOT_ | STATMOUNT_MNT_POINT_ };
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
		sm[i] = stat_one(ids[i]);
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
