/* exec_inspect.c - stat -c, mountpoint and diff on the model: a node's
 * inode as tmpfs would show it, the mount table the shell sees, and the
 * trees below two paths, rendered by the shared code of commands/.
 *
 * What a node shows is tmpfs's: inode numbers from 1 per superblock in
 * creation order, directories 0755 (a superblock's root 1777, tmpfs's
 * default mode), files 0644, links 0777; a directory's size is 40 bytes
 * and 20 more per entry (BOGO_DIRENT_SIZE; 0 on ramfs, which keeps none),
 * its link count 2 and one more per subdirectory; a removed node has no
 * links. The owner is the
 * file's, through the mount's idmap, as the shell's user namespace
 * names it (m_owner_seen()). */
#include "model/shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands/difftree.h"
#include "mounts/mountpoint.h"

void m_node_stat(const struct m_node *d, struct ns_stat_info *in)
{
	memset(in, 0, sizeof(*in));
	in->minor = d->sb->minor;
	in->ino = d->ino;
	in->nlink = d->gone ? 0 : 1;
	if (d->link) {
		in->mode = S_IFLNK | 0777;
		in->size = strlen(d->link);
	} else if (d->dir) {
		/* a superblock's root has the filesystem's mode option
		 * (tmpfs: 1777 unless mode= says otherwise) */
		in->mode = S_IFDIR | (d->parent ? 0755 : d->sb->opts.mode);
		in->size = 40;
		in->nlink = d->gone ? 0 : 2;
		for (const struct m_node *k = d->kids; k; k = k->next) {
			in->size += 20;
			in->nlink += k->dir;
		}
		/* ramfs keeps no directory size (ramfs_mknod() leaves i_size) */
		if (d->sb->opts.kind == M_FS_RAMFS)
			in->size = 0;
	} else {
		in->mode = S_IFREG | 0644;
		in->size = d->len;
	}
}

/* stat's %m, as coreutils' find_mount_point() walks: up through ".."
 * while the superblock stays and ".." is another directory. */
static int mount_point(struct m_shell *sh, const char *file, struct m_path at,
		       struct ns_buf *out)
{
	struct m_level *lv = m_cur(sh);
	struct m_path cur = at;

	if (!at.d->dir) {
		char *dir = ns_path_dir(file);
		int r = m_lookup(sh, dir, &cur);

		free(dir);
		if (r < 0)
			return r;
	}
	for (;;) {
		struct m_path up = cur;

		m_dotdot(&up, lv->root);
		if (up.mnt->sb != cur.mnt->sb || up.d == cur.d)
			break;
		cur = up;
	}
	return m_path_string(cur, lv->root, out) ? 0 : -ENOENT;
}

int m_exec_stat(struct m_shell *sh, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_stat_args *a = args;

	for (size_t i = 0; i < a->nfiles; i++) {
		const char *f = a->files[i];
		struct ns_buf mp = NS_BUF_INIT;
		struct ns_stat_info in;
		struct m_path at;
		int r = a->deref ? m_lookup(sh, f, &at) : m_lookup_nofollow(sh, f, &at);

		if (r < 0)
			return ns_cmd_fail(res, "stat", -r);
		m_node_stat(at.d, &in);
		m_owner_seen(at.mnt, at.d, m_cur(sh)->user, &in.uid, &in.gid);
		if (ns_stat_wants(a, NS_STAT_MOUNT)) {
			r = mount_point(sh, f, at, &mp);
			if (r < 0) {
				ns_buf_free(&mp);
				return ns_cmd_fail(res, "getcwd", -r);
			}
			in.mountpoint = ns_buf_str(&mp);
		}
		ns_stat_format(a, f, &in, out);
		ns_buf_free(&mp);
	}
	return 0;
}

int m_exec_mountpoint(struct m_shell *sh, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct ns_mountpoint_args *a = args;
	struct m_level *lv = m_cur(sh);
	struct ns_buf canon = NS_BUF_INIT;
	struct ns_snapshot *snap;
	struct m_path at;
	int r = m_lookup(sh, a->path, &at);

	if (r < 0)
		return ns_cmd_fail(res, "stat", -r);
	/* realpath(3): where the lookup ended, as the root names it */
	if (!m_path_string(at, lv->root, &canon)) {
		ns_buf_free(&canon);
		return ns_cmd_fail(res, "realpath", ENOENT);
	}
	r = m_render(&sh->sb->w, lv->ns, lv->root, &snap);
	if (r < 0) {
		ns_buf_free(&canon);
		return ns_cmd_fail(res, "read mountinfo", -r);
	}
	res->status = ns_mountpoint_answer(a, ns_snapshot_entries(snap), ns_snapshot_count(snap),
					   ns_buf_str(&canon), out);
	ns_snapshot_free(snap);
	ns_buf_free(&canon);
	return 0;
}

/* ---- diff ------------------------------------------------------------------- */

static int d_stat(void *ctx, const char *path, struct ns_dt_stat *st)
{
	struct ns_stat_info in;
	struct m_path at;
	int r = m_lookup(ctx, path, &at);

	if (r < 0)
		return r;
	m_node_stat(at.d, &in);
	*st = (struct ns_dt_stat){ in.mode, in.size, in.minor, in.ino };
	return 0;
}

static int d_list(void *ctx, const char *path, struct ns_lines *names)
{
	struct m_path at;
	int r = m_lookup(ctx, path, &at);

	if (r < 0)
		return r;
	if (!at.d->dir)
		return -ENOTDIR;
	for (const struct m_node *k = at.d->kids; k; k = k->next)
		ns_lines_push(names, k->name);
	return 0;
}

static int d_read(void *ctx, const char *path, char **data, size_t *len)
{
	struct m_path at;
	int r = m_lookup(ctx, path, &at);

	if (r < 0)
		return r;
	if (at.d->dir)
		return -EISDIR;
	*data = xmalloc(at.d->len + 1);
	if (at.d->len)
		memcpy(*data, at.d->data, at.d->len);
	*len = at.d->len;
	return 0;
}

int m_exec_diff(struct m_shell *sh, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	static const struct ns_dt_ops ops = { d_stat, d_list, d_read };
	const char *call = "diff";
	int r = ns_difftree(args, &ops, sh, out, &call);

	if (r < 0)
		return ns_cmd_fail(res, call, -r);
	res->status = r;
	return 0;
}
