/* exec_fs.c - the file commands on the model: mkdir, touch, ls, cd, cat
 * and chroot, on the superblocks' directory trees as the shell's root and
 * working directory see them, and the creation of files that echo's
 * redirection shares. Errors are the ones the system calls document:
 * ENOENT, ENOTDIR, EEXIST, EISDIR, EROFS, ELOOP (mkdir(2), open(2),
 * chdir(2), chroot(2)). */
#include "model/shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	return m_node_create(sh, parent, last, dir, made);
}

int m_node_create(struct m_shell *sh, struct m_path parent, const char *name, bool dir,
		  struct m_node **made)
{
	struct m_level *lv = m_cur(sh);
	unsigned uid, gid;

	/* a directory that was removed takes no new names (the kernel's
	 * IS_DEADDIR) */
	if (parent.d->gone)
		return -ENOENT;
	if (m_read_only(parent))
		return -EROFS;
	/* may_create(): the new owner must be one the mount and the
	 * filesystem can name (fsuidgid_has_mapping()) */
	if (!m_owner_new(parent.mnt, lv->uid, lv->gid, &uid, &gid))
		return -EOVERFLOW;
	*made = m_node_add(parent.d, name, dir);
	(*made)->uid = uid;
	(*made)->gid = gid;
	return 0;
}

bool m_read_only(struct m_path at)
{
	return (at.mnt->flags & M_RDONLY) || at.mnt->sb->rdonly;
}

/* The symbolic links a dangling path goes through at the end, as far as
 * open(2) with O_CREAT follows them: the directory and name of the file
 * it makes. */
static int create_target(struct m_shell *sh, const char *path, struct m_path *parent,
			 char *last, size_t lastsz)
{
	struct m_path start = m_cur(sh)->cwd;
	char *p = xstrdup(path);
	int r = 0;

	for (int links = 0;; links++) {
		struct m_node *k;

		r = m_lookup_parent_at(sh, start, p, parent, last, lastsz);
		if (r < 0)
			break;
		k = m_node_child(parent->d, last);
		if (!k || !k->link)
			break;
		if (links == 40) {
			r = -ELOOP;
			break;
		}
		free(p);
		p = xstrdup(k->link);
		start = *parent;
	}
	free(p);
	return r;
}

int m_open_create(struct m_shell *sh, const char *path, struct m_node **file)
{
	struct m_path at, parent;
	char last[256];
	int r = m_lookup(sh, path, &at);

	if (r == 0) {
		/* opened for writing: no directory, no read-only mount */
		if (at.d->dir)
			return -EISDIR;
		if (m_read_only(at))
			return -EROFS;
		*file = at.d;
		return 0;
	}
	if (r != -ENOENT)
		return r;
	if (path[strlen(path) - 1] == '/')
		return -EISDIR;
	r = create_target(sh, path, &parent, last, sizeof(last));
	if (r < 0)
		return r;
	if (m_node_child(parent.d, last))
		return -ENOENT; /* a component on the way is missing */
	return m_node_create(sh, parent, last, false, file);
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
		struct m_node *file;
		int r = m_open_create(sh, a->ops[i], &file);

		if (r < 0)
			return ns_cmd_fail(res, "open", -r);
	}
	return 0;
}

/* One file of ls -l: at, as lstat(2) finds it, shown as name. The model
 * keeps no times: every file is as new as the listing, which the
 * machine's clock gives, so that a filter reading ls's lines (grep Jan,
 * awk '{print $6}') sees the month and day the kernel's files would
 * show. A file's blocks are tmpfs's whole pages. */
static void long_entry(struct m_shell *sh, struct m_path at, const char *name,
		       struct ns_ls_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->mtime = (long long)time(NULL);
	m_node_stat(at.d, &e->st);
	m_owner_seen(at.mnt, at.d, m_cur(sh)->user, &e->st.uid, &e->st.gid);
	e->name = name;
	e->link = at.d->link;
	if (!at.d->dir && !at.d->link)
		e->blocks = (at.d->len + 4095) / 4096 * 8;
}

/* ls -l of a directory's names, each looked up through its name, as ls
 * lstats "DIR/NAME", so that a mount point shows what is mounted there.
 * 0 or -errno. */
static int long_dir(struct m_shell *sh, const char *dir, const struct ns_lines *names,
		    struct ns_ls_entry *v)
{
	struct ns_buf p = NS_BUF_INIT;
	size_t n = strlen(dir);
	int r = 0;

	for (size_t i = 0; i < names->n && r == 0; i++) {
		struct m_path at;

		ns_buf_reset(&p);
		ns_buf_addf(&p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", names->v[i]);
		r = m_lookup_nofollow(sh, ns_buf_str(&p), &at);
		if (r == 0)
			long_entry(sh, at, names->v[i], &v[i]);
	}
	ns_buf_free(&p);
	return r;
}

/* Where ls starts: *file when the operand lists as itself (a file;
 * with -l a symbolic link, which ls -l never follows on its command
 * line; a link that leads nowhere). 0, or -errno with *call set. */
static int ls_start(struct m_shell *sh, const struct ns_fs_args *a, const char *dir,
		    struct m_path *at, bool *file, const char **call)
{
	struct m_path self;
	int r, rl = m_lookup_nofollow(sh, dir, &self);

	*file = false;
	*call = "lstat";
	if (a->longf && rl == 0 && self.d->link) {
		*at = self;
		*file = true;
		return rl;
	}
	r = m_lookup(sh, dir, at);
	/* a symbolic link that leads nowhere lists as its own name */
	if (r == -ENOENT && rl == 0 && self.d->link) {
		*at = self;
		r = 0;
	}
	*call = "opendir";
	if (r == 0 && !at->d->dir)
		*file = true;
	return r;
}

/* ls -d: each operand as itself, sorted by name, in one listing */
static int ls_itself(struct m_shell *sh, const struct ns_fs_args *a, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	size_t n = a->nops ? a->nops : 1;
	struct ns_ls_entry *v = xcalloc(n + 1, sizeof(*v));
	struct ns_lines names = NS_LINES_INIT;
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++) {
		const char *word = a->nops ? a->ops[i] : ".";
		struct m_path at;

		r = m_lookup_nofollow(sh, word, &at);
		if (r == 0)
			long_entry(sh, at, word, &v[i]);
		ns_lines_push(&names, word);
	}
	if (r == 0 && a->longf) {
		ns_ls_sort_entries(v, n);
		ns_ls_long_render(v, n, false, (long long)time(NULL), out);
	} else if (r == 0) {
		ns_lines_sort(&names);
		ns_ls_render(&names, a->one, out);
	}
	free(v);
	ns_lines_free(&names);
	return r < 0 ? ns_cmd_fail(res, "lstat", -r) : 0;
}

/* ls at one operand, into *f (see ns_ls_operand). 0, or -errno with
 * *call set. */
static int ls_read(struct m_shell *sh, const struct ns_fs_args *a, const char *word,
		   struct ns_ls_operand *f, const char **call)
{
	struct m_path at;
	int r = ls_start(sh, a, word, &at, &f->file, call);

	f->name = word;
	if (r < 0)
		return r;
	if (!f->file && a->all) {
		ns_lines_push(&f->names, ".");
		ns_lines_push(&f->names, "..");
	}
	for (struct m_node *k = f->file ? NULL : at.d->kids; k; k = k->next)
		ns_lines_push(&f->names, k->name);
	ns_lines_sort(&f->names);
	if (!a->longf)
		return 0;
	f->n = f->file ? 1 : f->names.n;
	f->v = xcalloc(f->n + 1, sizeof(*f->v));
	if (f->file) {
		long_entry(sh, at, word, &f->v[0]);
		return 0;
	}
	*call = "lstat";
	return long_dir(sh, word, &f->names, f->v);
}

int m_exec_ls(struct m_shell *sh, const void *args, struct ns_buf *out,
	      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	size_t n = a->nops ? a->nops : 1;
	struct ns_ls_operand *ops;
	const char *call = NULL;
	int r = 0;

	if (a->itself)
		return ls_itself(sh, a, out, res);
	ops = xcalloc(n + 1, sizeof(*ops));
	for (size_t i = 0; i < n && r == 0; i++) {
		ops[i].names = (struct ns_lines)NS_LINES_INIT;
		r = ls_read(sh, a, a->nops ? a->ops[i] : ".", &ops[i], &call);
	}
	if (r == 0)
		ns_ls_render_operands(ops, n, a->longf, a->one, (long long)time(NULL), out);
	for (size_t i = 0; i < n; i++) {
		free(ops[i].v);
		ns_lines_free(&ops[i].names);
	}
	free(ops);
	return r < 0 ? ns_cmd_fail(res, call, -r) : 0;
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
		ns_buf_add(out, at.d->data, at.d->len);
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

/* Is (p) at or below root, following mounts up to where they sit (the
 * kernel's is_path_reachable())? */
static bool reachable(struct m_path p, struct m_path root)
{
	while (p.mnt != root.mnt && p.mnt->parent) {
		p.d = p.mnt->mp;
		p.mnt = p.mnt->parent;
	}
	return p.mnt == root.mnt && m_node_under(p.d, root.d);
}

static bool same(struct m_path a, struct m_path b)
{
	return a.mnt == b.mnt && a.d == b.d;
}

/* Every shell level whose root or directory was the old root now has the
 * new one (the kernel's chroot_fs_refs(), over every process); so does
 * the place new terminals start at. */
static void move_refs(struct m_shell *sh, struct m_path old, struct m_path to)
{
	struct m_sandbox *sb = sh->sb;
	struct m_shell *s;

	for (size_t i = 0; (s = sb->shell_at ? sb->shell_at(sb->peer_ctx, i) : i ? NULL : sh); i++)
		for (size_t k = 0; k < s->n; k++) {
			if (same(s->lv[k].root, old))
				m_level_set(&sb->w, &s->lv[k].root, to);
			if (same(s->lv[k].cwd, old))
				m_level_set(&sb->w, &s->lv[k].cwd, to);
		}
	if (same(sb->top, old))
		sb->top = to;
}

/* pivot_root NEW_ROOT PUT_OLD: pivot_root(2)'s checks in the kernel's
 * order, then the exchange (m_pivot) and every root and directory that
 * was the old root moved to the new one. */
int m_exec_pivot_root(struct m_shell *sh, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	struct m_level *lv = m_cur(sh);
	struct m_path n, o, root = lv->root;
	struct m_mount *new_mnt, *root_mnt, *old_mnt;
	int r;

	(void)out;
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "pivot_root", EPERM);
	r = m_lookup(sh, a->ops[0], &n);
	if (r == 0 && !n.d->dir)
		r = -ENOTDIR;
	if (r == 0)
		r = m_lookup(sh, a->ops[1], &o);
	if (r == 0 && !o.d->dir)
		r = -ENOTDIR;
	if (r < 0)
		return ns_cmd_fail(res, "pivot_root", -r);
	m_follow(&o); /* put_old: the top of its stack (lock_mount()) */
	new_mnt = n.mnt;
	root_mnt = root.mnt;
	old_mnt = o.mnt;
	if (old_mnt->group || (new_mnt->parent && new_mnt->parent->group) ||
	    (root_mnt->parent && root_mnt->parent->group))
		return ns_cmd_fail(res, "pivot_root", EINVAL);
	if (root_mnt->ns != lv->ns || new_mnt->ns != lv->ns || new_mnt->locked)
		return ns_cmd_fail(res, "pivot_root", EINVAL);
	if (n.d->gone)
		return ns_cmd_fail(res, "pivot_root", ENOENT);
	if (new_mnt == root_mnt || old_mnt == root_mnt)
		return ns_cmd_fail(res, "pivot_root", EBUSY);
	if (root.d != root_mnt->root || !root_mnt->parent || n.d != new_mnt->root ||
	    !new_mnt->parent || !reachable(o, n) || !reachable(n, root))
		return ns_cmd_fail(res, "pivot_root", EINVAL);
	m_pivot(&sh->sb->w, new_mnt, root_mnt, o);
	move_refs(sh, root, (struct m_path){ new_mnt, new_mnt->root });
	return 0;
}
