/* shell.c - see shell.h: shell levels, the references they hold, and
 * path lookup as a process does it (mounts crossed on the way down, ".."
 * climbing out of a mount's root, never above the shell's root). */
#include "model/shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void m_sandbox_init(struct m_sandbox *sb, const struct ns_scenario *sc, unsigned quirks,
		    enum m_break broken, bool trace)
{
	struct m_world *w = &sb->w;
	struct m_sb *base_sb;
	struct m_mount *base, *root;

	memset(sb, 0, sizeof(*sb));
	m_world_init(w);
	w->quirks = quirks;
	w->broken = broken;
	w->trace = trace;
	sb->sc = sc;
	sb->devs = xcalloc(sc->ndevnames ? sc->ndevnames : 1, sizeof(*sb->devs));
	sb->user0 = m_userns_new(w, NULL);
	m_idmap_all(&sb->user0->uids);
	m_idmap_all(&sb->user0->gids);
	sb->first = m_ns_new(w, sb->user0);
	/* the base: the namespace's own root, below the root stand-in and
	 * out of every shell's sight, as the sandbox's detached old root is */
	base_sb = m_sb_new(w, "nstest-base", "tmpfs");
	base = m_mount_new(w, base_sb, base_sb->root);
	base->ns = sb->first;
	sb->first->root = base;
	sb->first->mounts = 1;
	sb->first->refs = 1; /* the sandbox itself stays in it */
	sb->devs[0] = m_sb_new(w, sc->ndevnames ? sc->devnames[0] : "/dev/sda1", "tmpfs");
	root = m_mount_new(w, sb->devs[0], sb->devs[0]->root);
	m_why(w, root, "the scenario's root stand-in");
	root->parent = base;
	root->mp = base_sb->root;
	base->kids = root;
	root->ns = sb->first;
	sb->first->mounts++;
	sb->top = (struct m_path){ root, root->root };
}

void m_sandbox_free(struct m_sandbox *sb)
{
	m_world_free(&sb->w);
	free(sb->devs);
}

struct m_sb *m_device(struct m_shell *sh, const char *name)
{
	struct m_sandbox *sb = sh->sb;
	int i = ns_scenario_devindex(sb->sc, name);

	if (i < 0)
		return NULL;
	if (!sb->devs[i])
		sb->devs[i] = m_sb_new(&sb->w, name, "tmpfs");
	return sb->devs[i];
}

static void ref(struct m_mount *m)
{
	m->refs++;
}

static void unref(struct m_world *w, struct m_mount *m)
{
	if (--m->refs == 0 && m->dead)
		m_id_release(w, m->id);
}

void m_level_set(struct m_world *w, struct m_path *slot, struct m_path to)
{
	ref(to.mnt);
	unref(w, slot->mnt);
	*slot = to;
}

/* A level copied from another holds what it holds; its handles are its
 * own copies, as a child's fds are. */
static void hold(struct m_level *lv)
{
	struct m_handle *h = lv->handles;

	ref(lv->root.mnt);
	ref(lv->cwd.mnt);
	lv->watch = NULL;
	lv->handles = lv->nhandles ? xcalloc(lv->nhandles, sizeof(*h)) : NULL;
	lv->handles_cap = lv->nhandles;
	for (size_t i = 0; i < lv->nhandles; i++) {
		lv->handles[i] = h[i];
		m_handle_hold(&lv->handles[i]);
	}
	lv->ns->refs++;
}

void m_handle_keep(struct m_world *w, struct m_level *lv, struct m_handle h)
{
	struct m_handle *old = m_handle_find(lv, h.name, strlen(h.name));

	m_handle_hold(&h);
	if (old) {
		struct m_handle gone = *old;

		*old = h;
		m_handle_release(w, &gone);
		return;
	}
	{
		void *v = lv->handles;

		ns_grow(&v, &lv->handles_cap, lv->nhandles + 1, sizeof(*lv->handles));
		lv->handles = v;
	}
	lv->handles[lv->nhandles++] = h;
}

void m_handle_close(struct m_world *w, struct m_level *lv, struct m_handle *h)
{
	struct m_handle gone = *h;

	*h = lv->handles[--lv->nhandles];
	m_handle_release(w, &gone);
}

struct m_handle *m_handle_find(struct m_level *lv, const char *name, size_t len)
{
	for (size_t i = 0; i < lv->nhandles; i++)
		if (strlen(lv->handles[i].name) == len && !memcmp(lv->handles[i].name, name, len))
			return &lv->handles[i];
	return NULL;
}

void m_handle_hold(struct m_handle *h)
{
	if (h->ctx) {
		h->ctx->refs++;
		return;
	}
	if (h->ns) {
		h->ns->refs++;
		return;
	}
	ref(h->at.mnt);
	if (h->file)
		return;
	/* only the descriptor open_tree -c or fsmount made keeps its
	 * detached tree (the kernel's FMODE_NEED_UNMOUNT); a copy of it (an
	 * inner shell's, another terminal's) is the same file */
	if (h->anon)
		h->anon->refs++;
}

void m_handle_release(struct m_world *w, struct m_handle *h)
{
	struct m_ns *ns;

	if (h->ctx) {
		if (--h->ctx->refs == 0) {
			free(h->ctx->type);
			free(h->ctx->source);
			ns_buf_free(&h->ctx->data);
			free(h->ctx);
		}
		return;
	}
	if (h->ns) {
		/* as when its last shell leaves: its mounts go, without
		 * umount propagation */
		if (--h->ns->refs == 0)
			m_ns_drop(w, h->ns);
		return;
	}
	ns = h->at.mnt->ns;

	unref(w, h->at.mnt);
	/* a detached tree goes with the last fd that holds it, if it is
	 * still the top of a detached tree: one moved onto another detached
	 * tree goes with that one's (the kernel's dissolve_on_fput()) */
	if (h->anon && --h->anon->refs == 0 && ns && ns->anon && !h->at.mnt->parent)
		m_ns_drop(w, ns);
}

void m_shell_init(struct m_shell *sh, struct m_sandbox *sb)
{
	struct m_level *lv;

	memset(sh, 0, sizeof(*sh));
	sh->sb = sb;
	lv = m_shell_push(sh);
	*lv = (struct m_level){ .ns = sb->first, .root = sb->top, .cwd = sb->top,
				.user = sb->user0, .sys_admin = true, .sys_chroot = true };
	hold(lv);
}

struct m_level *m_shell_push(struct m_shell *sh)
{
	void *v = sh->lv;

	ns_grow(&v, &sh->cap, sh->n + 1, sizeof(*sh->lv));
	sh->lv = v;
	if (sh->n) {
		sh->lv[sh->n] = sh->lv[sh->n - 1];
		hold(&sh->lv[sh->n]);
	}
	return &sh->lv[sh->n++];
}

void m_shell_pop(struct m_shell *sh)
{
	struct m_world *w = &sh->sb->w;
	struct m_level *lv = &sh->lv[--sh->n];

	unref(w, lv->root.mnt);
	unref(w, lv->cwd.mnt);
	for (size_t i = 0; i < lv->nhandles; i++)
		m_handle_release(w, &lv->handles[i]);
	free(lv->handles);
	lv->handles = NULL;
	lv->nhandles = lv->handles_cap = 0;
	m_watch_free(lv->watch);
	lv->watch = NULL;
	if (--lv->ns->refs == 0) {
		m_event(w, "namespace %u ends with its last shell: its mounts go, without umount propagation (mount_namespaces(7))",
			lv->ns->id);
		m_ns_drop(w, lv->ns);
	}
}

void m_shell_free(struct m_shell *sh)
{
	while (sh->n)
		m_shell_pop(sh);
	free(sh->lv);
	sh->lv = NULL;
}

/* ".." from p: out of mount roots to where they are mounted, then one
 * directory up; never above the shell's root (path_resolution(7)). What
 * is mounted on the result is crossed, at the root too (the kernel's
 * handle_dots() steps into the mounts on what ".." gave). */
void m_dotdot(struct m_path *p, struct m_path root)
{
	for (;;) {
		if (p->mnt == root.mnt && p->d == root.d)
			break;
		if (p->d != p->mnt->root) {
			p->d = p->d->parent;
			break;
		}
		if (!p->mnt->parent)
			break;
		p->d = p->mnt->mp;
		p->mnt = p->mnt->parent;
	}
	m_follow(p);
}

/* The most symbolic links one lookup follows (the kernel's MAXSYMLINKS). */
#define M_MAXSYMLINKS 40

/* One lookup: the shell level it is made for, and the links followed. */
struct lookup {
	const struct m_level *lv;
	int links;
};

/* Walk path[0..len) from start, or from the shell's root for an absolute
 * path. A symbolic link is followed wherever it is but at the end, and
 * there too with follow or a trailing slash; its target is walked from
 * the directory that holds it, or from the shell's root when absolute,
 * so no link leads above the root (path_resolution(7)). */
static int walk_from(struct lookup *lk, struct m_path start, const char *path, size_t len,
		     bool follow, struct m_path *out)
{
	struct m_path p = len && path[0] == '/' ? lk->lv->root : start;
	size_t i = 0;

	while (i < len) {
		size_t j = i, k;
		char name[256];
		struct m_node *kid;
		bool last, slash;

		while (j < len && path[j] != '/')
			j++;
		if (j - i >= sizeof(name))
			return -ENAMETOOLONG;
		memcpy(name, path + i, j - i);
		name[j - i] = '\0';
		for (k = j; k < len && path[k] == '/'; k++)
			;
		last = k >= len;
		slash = last && j < len;
		i = k;
		if (!name[0])
			continue;
		if (!p.d->dir)
			return -ENOTDIR;
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			m_dotdot(&p, lk->lv->root);
			continue;
		}
		kid = m_node_child(p.d, name);
		if (!kid)
			return -ENOENT;
		if (kid->link && (!last || follow || slash)) {
			struct m_path to;
			int r;

			/* a link on a nosymfollow mount is not followed
			 * (mount(8), nosymfollow; the kernel's pick_link()) */
			if (++lk->links > M_MAXSYMLINKS || (p.mnt->flags & M_NOSYMFOLLOW))
				return -ELOOP;
			r = walk_from(lk, p, kid->link, strlen(kid->link), true, &to);
			if (r < 0)
				return r;
			p = to;
			continue;
		}
		p.d = kid;
		m_follow(&p);
	}
	*out = p;
	return 0;
}

static int lookup(struct m_shell *sh, const char *path, bool follow, struct m_path *out)
{
	struct lookup lk = { m_cur(sh), 0 };
	struct m_path start = lk.lv->cwd;
	struct ns_handle_ref ref;
	size_t len = strlen(path), name;
	int r;

	if (!len)
		return -ENOENT;
	if (ns_handle_ref(path, &ref)) {
		/* another terminal's handle: its innermost shell's, passed
		 * over (SCM_RIGHTS on the kernel); a terminal that is not
		 * running has none to pass (ESRCH, as for a process that is
		 * gone) */
		struct m_shell *owner = sh;
		struct m_handle *h;

		if (ref.term) {
			char *term = xstrndup(ref.term, ref.term_len);

			owner = sh->sb->peer ? sh->sb->peer(sh->sb->peer_ctx, term) : NULL;
			free(term);
			if (!owner)
				return -ESRCH;
		}
		h = m_handle_find(m_cur(owner), ref.name, ref.name_len);
		name = (size_t)(ref.rest - path);
		if (!h)
			return -EBADF;
		if (h->ctx)
			return -EINVAL; /* a context is no place: the parser says so */
		start = h->at;
		path += name;
		while (*path == '/')
			path++;
		if (!*path) {
			/* "@NAME/" must be a directory, as "dir/" must */
			*out = start;
			return name < len && !start.d->dir ? -ENOTDIR : 0;
		}
		len = strlen(path);
	}
	r = walk_from(&lk, start, path, len, follow, out);
	if (r == 0 && path[len - 1] == '/' && !out->d->dir)
		return -ENOTDIR;
	return r;
}

/* A lookup that ends on a mount uses it: an expiry mark goes. */
static int used(int r, struct m_path *out)
{
	if (r == 0)
		out->mnt->expiry_mark = false;
	return r;
}

int m_lookup(struct m_shell *sh, const char *path, struct m_path *out)
{
	return used(lookup(sh, path, true, out), out);
}

int m_lookup_nofollow(struct m_shell *sh, const char *path, struct m_path *out)
{
	return used(lookup(sh, path, false, out), out);
}

int m_lookup_umount(struct m_shell *sh, const char *path, bool follow, struct m_path *out)
{
	return lookup(sh, path, follow, out);
}

int m_lookup_parent_at(struct m_shell *sh, struct m_path start, const char *path,
		       struct m_path *parent, char *last, size_t lastsz)
{
	struct lookup lk = { m_cur(sh), 0 };
	size_t len = strlen(path), end, first;
	int r;

	if (!len)
		return -ENOENT;
	end = len;
	while (end > 1 && path[end - 1] == '/')
		end--;
	first = end;
	while (first > 0 && path[first - 1] != '/')
		first--;
	if (end - first >= lastsz)
		return -ENAMETOOLONG;
	memcpy(last, path + first, end - first);
	last[end - first] = '\0';
	if (first == 0)
		*parent = start;
	r = first ? walk_from(&lk, start, path, first, true, parent) : 0;
	if (r == 0 && !parent->d->dir)
		r = -ENOTDIR;
	return r;
}

bool m_capable(const struct m_level *lv, const struct m_userns *u, bool has)
{
	/* capabilities hold in the shell's user namespace and those below
	 * it; a namespace owned higher up is out of reach. In one below, the
	 * shell has every capability whatever it holds itself when its euid
	 * made the namespace that hangs below its own (user_namespaces(7),
	 * "Capability rules"; the kernel's cap_capable()) */
	for (; u; u = u->parent) {
		if (u == lv->user)
			return has;
		if (u->parent == lv->user && u->owner == lv->uid)
			return true;
	}
	return false;
}

bool m_may_read_ns(const struct m_level *lv, const struct m_level *target)
{
	return m_capable(lv, target->user, true);
}

int m_lookup_parent(struct m_shell *sh, const char *path, struct m_path *parent,
		    char *last, size_t lastsz)
{
	return m_lookup_parent_at(sh, m_cur(sh)->cwd, path, parent, last, lastsz);
}

int m_may_change_propagation(struct m_shell *sh, const struct m_mount *m)
{
	struct m_level *lv = m_cur(sh);

	if (m->dead || !m->ns)
		return EINVAL;
	return m_capable(lv, m->ns->owner, lv->sys_admin) ? 0 : EPERM;
}

bool m_may_mount(struct m_shell *sh)
{
	struct m_level *lv = m_cur(sh);

	return m_capable(lv, lv->ns->owner, lv->sys_admin);
}
