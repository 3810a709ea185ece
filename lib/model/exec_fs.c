/* exec_fs.c - the file commands on the model: mkdir, touch, ls, cd, cat
 * and chroot, on the superblocks' directory trees as the shell's root and
 * working directory see them. Errors are the ones the system calls
 * document: ENOENT, ENOTDIR, EEXIST, EISDIR, EROFS (mkdir(2), open(2),
 * chdir(2), chroot(2)). */
#include "model/shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands/ls_layout.h"

static int make(struct m_shell *sh, const char *path, bool dir, bool exist_ok,
		struct m_node **made)
{
	struct m_path parent;
	char last[256];
	struct m_node *k;
	int r = m_lookup_parent(sh, path, &parent, last, sizeof(last));

	if (r < 0)
		return r;
	if (!last[0] || !strcmp(last, ".") || !strcmp(last, "..")) {
		/* "/", "." and ".." always exist */
		return exist_ok ? 0 : -EEXIST;
	}
	k = m_node_child(parent.d, last);
	if (k) {
		struct m_path p = { parent.mnt, k };
		m_follow(&p);
		*made = p.d;
		return exist_ok ? 0 : -EEXIST;
	}
	if ((parent.mnt->flags & M_RDONLY) || parent.mnt->sb->rdonly)
		return -EROFS;
	*made = m_node_add(parent.d, last, dir);
	return 0;
}

/* mkdir -p: every missing component, then the whole must be a directory. */
static int mkdir_parents(struct m_shell *sh, const char *path)
{
	char *p = xstrdup(path);
	int r = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;
			struct m_node *made = NULL;
			*s = '\0';
			r = make(sh, p, true, true, &made);
			*s = c;
			if (r < 0 || !c)
				break;
		}
	}
	if (r == 0) {
		struct m_path at;
		r = m_lookup(sh, p, &at);
		if (r == 0 && !at.d->dir)
			r = -ENOTDIR;
	}
	free(p);
	return r;
}

int m_exec_mkdir(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)out;
	for (size_t i = 0; i < a->nops; i++) {
		struct m_node *made;
		int r = a->parents ? mkdir_parents(sh, a->ops[i])
				   : make(sh, a->ops[i], true, false, &made);
		if (r < 0)
			return ns_cmd_fail(res, "mkdir", -r);
	}
	return 0;
}

int m_exec_touch(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)out;
	for (size_t i = 0; i < a->nops; i++) {
		struct m_path at;
		struct m_node *made = NULL;
		int r = m_lookup(sh, a->ops[i], &at);

		if (r == 0) {
			/* opening it for writing: no directory, no
			 * read-only mount */
			if (at.d->dir)
				return ns_cmd_fail(res, "open", EISDIR);
			if ((at.mnt->flags & M_RDONLY) || at.mnt->sb->rdonly)
				return ns_cmd_fail(res, "open", EROFS);
			continue;
		}
		if (r != -ENOENT)
			return ns_cmd_fail(res, "open", -r);
		r = make(sh, a->ops[i], false, false, &made);
		if (r < 0)
			return ns_cmd_fail(res, "open", -r);
	}
	return 0;
}

int m_exec_ls(struct m_shell *sh, const void *args, struct ns_buf *out,
	      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	const char *dir = a->nops ? a->ops[0] : ".";
	struct ns_lines names = NS_LINES_INIT;
	struct m_path at;
	int r = m_lookup(sh, dir, &at);

	if (r < 0)
		return ns_cmd_fail(res, "opendir", -r);
	if (!at.d->dir) {
		ns_buf_addf(out, "%s\n", dir);
		return 0;
	}
	if (a->all) {
		ns_lines_push(&names, ".");
		ns_lines_push(&names, "..");
	}
	for (struct m_node *k = at.d->kids; k; k = k->next)
		ns_lines_push(&names, k->name);
	ns_lines_sort(&names);
	ns_ls_render(&names, a->one, out);
	ns_lines_free(&names);
	return 0;
}

int m_exec_cd(struct m_shell *sh, const void *args, struct ns_buf *out,
	      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	struct m_path at;
	int r = m_lookup(sh, a->nops ? a->ops[0] : "/", &at);

	(void)out;
	if (r == 0 && !at.d->dir)
		r = -ENOTDIR;
	if (r < 0)
		return ns_cmd_fail(res, "chdir", -r);
	m_level_set(&sh->sb->w, &m_cur(sh)->cwd, at);
	return 0;
}

int m_exec_cat(struct m_shell *sh, const void *args, struct ns_buf *out,
	       struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	for (size_t i = 0; i < a->nops; i++) {
		struct m_path at;
		int r;

		if (ns_cat_mounts_file(a->ops[i]) != NS_CAT_FILE) {
			if (m_list_mounts(sh, ns_cat_mounts_file(a->ops[i]) == NS_CAT_MOUNTINFO ?
					      NS_RENDER_MOUNTINFO : NS_RENDER_PROC_MOUNTS,
					  out, res) < 0)
				return -1;
			continue;
		}
		r = m_lookup(sh, a->ops[i], &at);
		if (r == 0 && at.d->dir)
			r = -EISDIR;
		if (r < 0)
			return ns_cmd_fail(res, "read", -r);
		/* files are made by touch: empty */
	}
	return 0;
}

int m_exec_chroot(struct m_shell *sh, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	struct m_level *lv;
	struct m_path at;
	int r = m_lookup(sh, a->ops[0], &at);

	(void)out;
	if (r == 0 && !at.d->dir)
		r = -ENOTDIR;
	if (r == 0 && !m_cur(sh)->sys_chroot)
		r = -EPERM;
	if (r < 0)
		return ns_cmd_fail(res, "chroot", -r);
	/* like chroot(8): a new shell whose root and directory are DIR */
	lv = m_shell_push(sh);
	m_level_set(&sh->sb->w, &lv->root, at);
	m_level_set(&sh->sb->w, &lv->cwd, at);
	return 0;
}
