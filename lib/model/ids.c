/* ids.c - see model.h: the ids of user namespaces (user_namespaces(7),
 * "User and group ID mappings"; the kernel's kernel/user_namespace.c),
 * the owners of files, and what an idmapped mount does to them
 * (mount_setattr(2), "ID-mapped mounts"; fs/mnt_idmapping.c).
 *
 * Ids are kept as the kernel keeps them: a file's owner and a shell's
 * credentials are kernel ids (the first namespace's), and a map's lines
 * go from the ids inside to kernel ids, whatever namespace the writer
 * named the outer ids in. */
#include "model/model.h"

#include <errno.h>

#include "commands/args.h"

void m_idmap_all(struct m_idmap *m)
{
	/* 0 0 4294967295: every id but (uid_t)-1 */
	*m = (struct m_idmap){ .v = { { 0, 0, M_NO_ID } }, .n = 1 };
}

unsigned m_id_down(const struct m_idmap *m, unsigned id)
{
	for (size_t i = 0; i < m->n; i++)
		if (id >= m->v[i].first && id - m->v[i].first < m->v[i].count)
			return m->v[i].lower + (id - m->v[i].first);
	return M_NO_ID;
}

unsigned m_id_up(const struct m_idmap *m, unsigned kid)
{
	for (size_t i = 0; i < m->n; i++)
		if (kid >= m->v[i].lower && kid - m->v[i].lower < m->v[i].count)
			return m->v[i].first + (kid - m->v[i].lower);
	return M_NO_ID;
}

unsigned m_id_shown(const struct m_idmap *m, unsigned kid)
{
	unsigned id = kid == M_NO_ID ? M_NO_ID : m_id_up(m, kid);

	return id == M_NO_ID ? M_OVERFLOW_ID : id;
}

/* map_id_range_down(): the whole range inside one line of m. */
static unsigned range_down(const struct m_idmap *m, unsigned id, unsigned count)
{
	unsigned last = id + count - 1;

	for (size_t i = 0; i < m->n; i++) {
		unsigned top = m->v[i].first + m->v[i].count - 1;
		if (id >= m->v[i].first && id <= top && last >= m->v[i].first && last <= top)
			return m->v[i].lower + (id - m->v[i].first);
	}
	return M_NO_ID;
}

/* mappings_overlap(): does e share an inside or outside id with a line
 * already in m? */
static bool overlaps(const struct m_idmap *m, const struct m_idext *e)
{
	unsigned last = e->first + e->count - 1, llast = e->lower + e->count - 1;

	for (size_t i = 0; i < m->n; i++) {
		const struct m_idext *p = &m->v[i];
		unsigned plast = p->first + p->count - 1, pllast = p->lower + p->count - 1;

		if (p->first <= last && plast >= e->first)
			return true;
		if (p->lower <= llast && pllast >= e->lower)
			return true;
	}
	return false;
}

int m_map_write(struct m_userns *u, bool gid, const struct ns_id_extent *v, size_t n,
		bool in_parent, bool writer_capable, unsigned kid)
{
	struct m_idmap *map = gid ? &u->gids : &u->uids;
	const struct m_idmap *up = gid ? &u->parent->gids : &u->parent->uids;
	struct m_idmap new = { .n = 0 };
	bool own;

	/* only one write succeeds */
	if (map->n)
		return -EPERM;
	if (!n || n > M_IDMAP_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		struct m_idext e = { v[i].inner, v[i].outer, v[i].count };

		if (e.first == M_NO_ID || e.lower == M_NO_ID)
			return -EINVAL;
		/* no empty line, none that wraps */
		if (e.first + e.count <= e.first || e.lower + e.count <= e.lower)
			return -EINVAL;
		if (overlaps(&new, &e))
			return -EINVAL;
		new.v[new.n++] = e;
	}
	/* new_idmap_permitted(): one line of one id, the writer's own in the
	 * parent (for gids only with setgroups denied, which unshare(1)
	 * writes first when it writes the map itself; newgidmap's is left
	 * allowed); else CAP_SETUID or CAP_SETGID over the parent, which
	 * only a writer that stayed there can hold */
	own = new.n == 1 && new.v[0].count == 1 && m_id_down(up, new.v[0].lower) == kid &&
	      !(gid && in_parent);
	if (!own && !(in_parent && writer_capable))
		return -EPERM;
	/* the outer ids, as the parent names them, to kernel ids */
	for (size_t i = 0; i < new.n; i++) {
		unsigned k = range_down(up, new.v[i].lower, new.v[i].count);

		if (k == M_NO_ID)
			return -EPERM;
		new.v[i].lower = k;
	}
	*map = new;
	return 0;
}

void m_node_owner(const struct m_node *d, unsigned *uid, unsigned *gid)
{
	*uid = d->parent ? d->uid : d->sb->opts.uid;
	*gid = d->parent ? d->gid : d->sb->opts.gid;
}

struct m_userns *m_sb_userns(const struct m_sb *sb, struct m_userns *user0)
{
	return sb->owner ? sb->owner : user0;
}

/* make_vfsuid(): kernel id kid of a file of superblock sb, seen through
 * mount idmap (NULL: none, nop_mnt_idmap): first named in the
 * superblock's namespace, then mapped down through the idmap's lines. */
static unsigned vfs_id(const struct m_userns *idmap, const struct m_sb *sb, unsigned kid, bool gid)
{
	const struct m_userns *fs = sb->owner;
	unsigned id;

	if (!idmap)
		return kid;
	id = fs && fs->parent ? m_id_up(gid ? &fs->gids : &fs->uids, kid) : kid;
	if (id == M_NO_ID)
		return M_NO_ID;
	return m_id_down(gid ? &idmap->gids : &idmap->uids, id);
}

/* from_vfsuid(), then whether the superblock's namespace maps it
 * (fsuidgid_has_mapping()): the kernel id a caller's fsuid kid gets on
 * disk through the idmap, or M_NO_ID. */
static unsigned fs_id(const struct m_userns *idmap, const struct m_sb *sb, unsigned kid, bool gid)
{
	const struct m_userns *fs = sb->owner;
	bool initial = !fs || !fs->parent;
	unsigned id = kid;

	if (idmap) {
		id = m_id_up(gid ? &idmap->gids : &idmap->uids, kid);
		if (id == M_NO_ID)
			return M_NO_ID;
		if (!initial)
			id = m_id_down(gid ? &fs->gids : &fs->uids, id);
	}
	if (id == M_NO_ID || (!initial && m_id_up(gid ? &fs->gids : &fs->uids, id) == M_NO_ID))
		return M_NO_ID;
	return id;
}

void m_owner_seen(const struct m_mount *mnt, const struct m_node *d, const struct m_userns *u,
		  unsigned *uid, unsigned *gid)
{
	unsigned ku, kg;

	m_node_owner(d, &ku, &kg);
	*uid = m_id_shown(&u->uids, vfs_id(mnt->idmap, d->sb, ku, false));
	*gid = m_id_shown(&u->gids, vfs_id(mnt->idmap, d->sb, kg, true));
}

bool m_owner_mapped(const struct m_mount *mnt, const struct m_node *d)
{
	unsigned ku, kg;

	m_node_owner(d, &ku, &kg);
	return vfs_id(mnt->idmap, d->sb, ku, false) != M_NO_ID &&
	       vfs_id(mnt->idmap, d->sb, kg, true) != M_NO_ID;
}

bool m_owner_new(const struct m_mount *mnt, unsigned fsuid, unsigned fsgid, unsigned *uid,
		 unsigned *gid)
{
	*uid = fs_id(mnt->idmap, mnt->sb, fsuid, false);
	*gid = fs_id(mnt->idmap, mnt->sb, fsgid, true);
	return *uid != M_NO_ID && *gid != M_NO_ID;
}
