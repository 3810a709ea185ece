/* exec_files.c - rmdir, mv, ln -s, pwd, echo, readlink and realpath on the
 * model, with the errors of rmdir(2), rename(2), symlink(2), getcwd(3),
 * open(2), lstat(2) and readlink(2) in the order the kernel checks them
 * (fs/namei.c: do_rmdir(), do_renameat2(), vfs_rename(), do_symlinkat()).
 * Removing or replacing a directory that is a mount point in the caller's
 * namespace is EBUSY; the mounts other namespaces have on it go
 * (detach_mounts()). */
#include "model/shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands/canonpath.h"

/* What rmdir(2), rename(2) and symlink(2) do with a last component that
 * is no name ("", ".", ".."). */
static bool plain_name(const char *last)
{
	return last[0] && strcmp(last, ".") && strcmp(last, "..");
}

static bool has_kids(const struct m_node *d)
{
	return d->kids != NULL;
}

static int remove_dir(struct m_shell *sh, const char *path)
{
	struct m_path parent;
	char last[256];
	struct m_node *k;
	int r = m_lookup_parent(sh, path, &parent, last, sizeof(last));

	if (r < 0)
		return r;
	if (!strcmp(last, ".."))
		return -ENOTEMPTY;
	if (!strcmp(last, "."))
		return -EINVAL;
	if (!last[0])
		return -EBUSY;
	if (m_read_only(parent))
		return -EROFS;
	k = m_node_child(parent.d, last);
	if (!k)
		return -ENOENT;
	/* may_delete(): an owner the mount's idmap cannot name */
	if (!m_owner_mapped(parent.mnt, k))
		return -EOVERFLOW;
	if (!k->dir)
		return -ENOTDIR;
	if (m_is_local_mountpoint(&sh->sb->w, m_cur(sh)->ns, k))
		return -EBUSY;
	if (has_kids(k))
		return -ENOTEMPTY;
	m_detach_mounts_on(&sh->sb->w, k);
	m_node_remove(k);
	return 0;
}

int m_exec_rmdir(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)out;
	for (size_t i = 0; i < a->nops; i++) {
		char *p = xstrdup(a->ops[i]);
		int r = remove_dir(sh, p);

		while (r == 0 && a->parents && ns_rmdir_parent(p))
			r = remove_dir(sh, p);
		free(p);
		if (r < 0)
			return ns_cmd_fail(res, "rmdir", -r);
	}
	return 0;
}

static bool is_dir(struct m_shell *sh, const char *path)
{
	struct m_path at;

	return m_lookup(sh, path, &at) == 0 && at.d->dir;
}

/* Where mv or ln puts src given dst: into dst when it is a directory,
 * else dst itself (as the kernel backend's place()). Heap. */
static char *place(struct m_shell *sh, const char *src, const char *dst)
{
	size_t n;
	const char *last = ns_path_last(src, &n);

	if (!is_dir(sh, dst))
		return xstrdup(dst);
	return xasprintf("%s%s%.*s", dst, dst[strlen(dst) - 1] == '/' ? "" : "/", (int)n, last);
}

static bool ends_with_slash(const char *p)
{
	return p[strlen(p) - 1] == '/';
}

/* rename(2), in the kernel's order of checks. */
static int rename_path(struct m_shell *sh, const char *from, const char *to)
{
	struct m_world *w = &sh->sb->w;
	struct m_ns *ns = m_cur(sh)->ns;
	struct m_path op, np;
	char ol[256], nl[256];
	struct m_node *old, *new;
	int r = m_lookup_parent(sh, from, &op, ol, sizeof(ol));

	if (r == 0)
		r = m_lookup_parent(sh, to, &np, nl, sizeof(nl));
	if (r < 0)
		return r;
	if (op.mnt != np.mnt)
		return -EXDEV;          /* two mounts, even of one filesystem */
	if (!plain_name(ol) || !plain_name(nl))
		return -EBUSY;
	if (m_read_only(op))
		return -EROFS;
	old = m_node_child(op.d, ol);
	if (!old)
		return -ENOENT;
	new = m_node_child(np.d, nl);
	if (!old->dir && (ends_with_slash(from) || ends_with_slash(to)))
		return -ENOTDIR;
	if (m_node_under(np.d, old))
		return -EINVAL;         /* into itself */
	if (new && m_node_under(op.d, new))
		return -ENOTEMPTY;      /* onto a directory above it */
	if (old == new)
		return 0;
	/* may_delete() of the old name (and of a file replaced), may_create()
	 * of a new one: owners the mount's idmap can name */
	if (!m_owner_mapped(op.mnt, old) || (new && !m_owner_mapped(np.mnt, new)))
		return -EOVERFLOW;
	if (!new) {
		unsigned uid, gid;

		if (!m_owner_new(np.mnt, m_cur(sh)->uid, m_cur(sh)->gid, &uid, &gid))
			return -EOVERFLOW;
	}
	if (new && old->dir && !new->dir)
		return -ENOTDIR;
	if (new && !old->dir && new->dir)
		return -EISDIR;
	if (m_is_local_mountpoint(w, ns, old) || (new && m_is_local_mountpoint(w, ns, new)))
		return -EBUSY;
	if (new && has_kids(new))
		return -ENOTEMPTY;
	if (new) {
		m_detach_mounts_on(w, new);
		m_node_remove(new);
	}
	m_node_move(old, np.d, nl);
	return 0;
}

int m_exec_mv(struct m_shell *sh, const void *args, struct ns_buf *out,
	      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	const char *dst = a->ops[a->nops - 1];

	(void)out;
	if (a->nops > 2 && !is_dir(sh, dst))
		return ns_cmd_fail(res, "stat", ENOTDIR);
	for (size_t i = 0; i + 1 < a->nops; i++) {
		char *to = a->no_target ? xstrdup(dst) : place(sh, a->ops[i], dst);
		int r = rename_path(sh, a->ops[i], to);

		free(to);
		if (r < 0)
			return ns_cmd_fail(res, "rename", -r);
	}
	return 0;
}

/* symlink(2): target is kept as it is, resolved only when used. */
static int make_link(struct m_shell *sh, const char *target, const char *path)
{
	struct m_path parent;
	char last[256];
	struct m_node *made;
	int r;

	if (!target[0])
		return -ENOENT;
	r = m_lookup_parent(sh, path, &parent, last, sizeof(last));
	if (r < 0)
		return r;
	if (!plain_name(last))
		return -EEXIST;
	if (m_read_only(parent))
		return -EROFS;
	if (m_node_child(parent.d, last))
		return -EEXIST;
	if (ends_with_slash(path))
		return -ENOENT;
	r = m_node_create(sh, parent, last, false, &made);
	if (r == 0)
		made->link = xstrdup(target);
	return r;
}

int m_exec_ln(struct m_shell *sh, const void *args, struct ns_buf *out,
	      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	size_t ntargets = a->nops == 1 ? 1 : a->nops - 1;
	const char *dst = a->nops == 1 ? "." : a->ops[a->nops - 1];

	(void)out;
	if (a->nops > 2 && !is_dir(sh, dst))
		return ns_cmd_fail(res, "stat", ENOTDIR);
	for (size_t i = 0; i < ntargets; i++) {
		char *link = place(sh, a->ops[i], dst);
		int r = make_link(sh, a->ops[i], link);

		free(link);
		if (r < 0)
			return ns_cmd_fail(res, "symlink", -r);
	}
	return 0;
}

int m_exec_pwd(struct m_shell *sh, const void *args, struct ns_buf *out,
	       struct ns_cmd_result *res)
{
	struct m_level *lv = m_cur(sh);
	struct ns_buf path = NS_BUF_INIT;

	(void)args;
	/* getcwd(3): ENOENT for a removed directory, or one the root does
	 * not reach */
	if (lv->cwd.d->gone || !m_path_string(lv->cwd, lv->root, &path)) {
		ns_buf_free(&path);
		return ns_cmd_fail(res, "getcwd", ENOENT);
	}
	ns_buf_addf(out, "%s\n", ns_buf_str(&path));
	ns_buf_free(&path);
	return 0;
}

/* exec N< FILE opens FILE (open(2), O_RDONLY: a directory too) on
 * descriptor N, in place of what N held (dup2(2)); exec N<&- closes N,
 * and closing one not open is no error (bash's). An open file holds its
 * mount busy, as a working directory does, until it is closed or its
 * shell exits. */
int m_exec_exec(struct m_shell *sh, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_exec_args *a = args;
	struct m_level *lv = m_cur(sh);

	(void)out;
	for (size_t i = 0; i < a->n; i++) {
		struct m_handle h = { .file = true }, *old;
		int r;

		snprintf(h.name, sizeof(h.name), "&%d", a->v[i].fd);
		if (!a->v[i].file) {
			old = m_handle_find(lv, h.name, strlen(h.name));
			if (old)
				m_handle_close(&sh->sb->w, lv, old);
			continue;
		}
		r = m_lookup(sh, a->v[i].file, &h.at);
		if (r < 0)
			return ns_cmd_fail(res, "open", -r);
		m_handle_keep(&sh->sb->w, lv, h);
	}
	return 0;
}

int m_exec_echo(struct m_shell *sh, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_echo_args *a = args;
	struct ns_buf text = NS_BUF_INIT;
	struct m_node *f;
	int r;

	ns_echo_text(a, &text);
	if (!a->file) {
		ns_buf_add(out, text.data, text.len);
		ns_buf_free(&text);
		return 0;
	}
	r = m_open_create(sh, a->file, &f);
	if (r < 0) {
		ns_buf_free(&text);
		return ns_cmd_fail(res, "open", -r);
	}
	if (!a->append)
		f->len = 0;
	f->data = xrealloc(f->data, f->len + text.len + 1);
	if (text.len)
		memcpy(f->data + f->len, text.data, text.len);
	f->len += text.len;
	ns_buf_free(&text);
	return 0;
}

static int m_cp_lstat(void *ctx, const char *path, bool *link, bool *dir)
{
	struct m_path at;
	int r = m_lookup_nofollow(ctx, path, &at);

	if (r < 0)
		return r;
	*link = at.d->link != NULL;
	*dir = at.d->dir;
	return 0;
}

static int m_cp_readlink(void *ctx, const char *path, char **target)
{
	struct m_path at;
	int r = m_lookup_nofollow(ctx, path, &at);

	if (r < 0)
		return r;
	if (!at.d->link)
		return -EINVAL;
	*target = xstrdup(at.d->link);
	return 0;
}

static const struct ns_cp_ops m_cp_ops = { m_cp_lstat, m_cp_readlink };

/* The name made canonical as coreutils does (commands/canonpath.h), from
 * the working directory as getcwd(3) names it. 0 or -errno. */
static int canonical(struct m_shell *sh, const char *path, char **out)
{
	struct m_level *lv = m_cur(sh);
	struct ns_buf cwd = NS_BUF_INIT;
	int r;

	if (*path != '/' && (lv->cwd.d->gone || !m_path_string(lv->cwd, lv->root, &cwd))) {
		ns_buf_free(&cwd);
		return -ENOENT;
	}
	r = ns_canonicalize(&m_cp_ops, sh, *path == '/' ? "/" : ns_buf_str(&cwd), path, out);
	ns_buf_free(&cwd);
	return r;
}

/* readlink [-f] PATH: the link's text, or with -f the name made
 * canonical; nothing when that fails (readlink(1)'s default -q). */
/* readlink(1) prints nothing for a FILE it cannot read (-q is its
 * default) and exits 1 after the others */
int m_exec_readlink(struct m_shell *sh, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	for (size_t i = 0; i < a->nops; i++) {
		char *text = NULL;

		if ((a->canonical ? canonical(sh, a->ops[i], &text) : m_cp_readlink(sh, a->ops[i], &text)) == 0) {
			ns_buf_addf(out, "%s\n", text);
		} else {
			res->status = 1;
			res->silent = true;
		}
		free(text);
	}
	return 0;
}

int m_exec_realpath(struct m_shell *sh, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	for (size_t i = 0; i < a->nops; i++) {
		char *name;
		int r = canonical(sh, a->ops[i], &name);

		if (r < 0)
			return ns_cmd_fail(res, "realpath", -r);
		ns_buf_addf(out, "%s\n", name);
		free(name);
	}
	return 0;
}
