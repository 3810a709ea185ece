/* test_idmap.c - the id maps unshare(1) writes (ns_unshare_id_maps, util-linux
 * 2.38's map_id() and map_ids()) and the model's ids (model/ids.c): map
 * writes as the kernel's map_write() judges them, owners as stat(2) shows
 * them, through an idmapped mount too. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands/args.h"
#include "model/model.h"
#include "tap.h"

/* A map's lines as "inner outer count;..." (and "helper:" first when
 * newuidmap writes it). */
static void text(const struct ns_id_map *m, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "%s", m->helper ? "helper:" : "");

	for (size_t i = 0; i < m->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%u %u %u", i ? ";" : "",
					m->v[i].inner, m->v[i].outer, m->v[i].count);
}

static void maps(const struct ns_unshare_args *a, unsigned euid, const char *want_uids,
		 const char *why)
{
	struct ns_id_map u, g;
	char got[256];

	ns_unshare_id_maps(a, euid, euid, &u, &g);
	text(&u, got, sizeof(got));
	is_str(got, want_uids, "%s", why);
}

TEST(unshare_maps)
{
	struct ns_unshare_args a = { .user = true };

	maps(&a, 0, "", "-U alone writes no map");
	a.map_user = true;
	a.map_uid = 0;
	maps(&a, 1000, "0 1000 1", "-r: 0 inside is the caller's euid, written by unshare itself");
	a.map_user_self = true;
	maps(&a, 1000, "1000 1000 1", "-c: the caller's euid is itself");
	a = (struct ns_unshare_args){ .user = true, .map_users = true,
				      .users = { 10000, 0, 10000 } };
	maps(&a, 0, "helper:0 10000 10000", "--map-users=10000,0,10000: OUTER,INNER,COUNT, by newuidmap");
	a.map_user = true;
	a.map_uid = 0;
	/* map_ids(): outer 0 is not in 10000..20000, inner 0 is in 0..10000:
	 * the range loses one id and starts above the single one */
	maps(&a, 0, "helper:0 0 1;1 10000 9999", "--map-users with --map-user=0: a hole for the single id");
	a.map_uid = 5000;
	maps(&a, 0, "helper:5000 0 1;0 10000 5000;5001 15000 4999",
	     "the single id inside the range splits it");
}

TEST(first_namespace_maps_everything)
{
	struct m_idmap m;

	m_idmap_all(&m);
	ok(m_id_down(&m, 0) == 0 && m_id_down(&m, 4294967294u) == 4294967294u, "every id is itself");
	ok(m_id_down(&m, M_NO_ID) == M_NO_ID, "but (uid_t)-1");
}

TEST(map_write)
{
	struct m_userns first = { .parent = NULL }, u = { .parent = &first }, v;
	struct ns_id_extent own = { 0, 1000, 1 }, range = { 0, 10000, 10000 };
	struct ns_id_extent two[] = { { 0, 10000, 10 }, { 5, 20000, 10 } };

	m_idmap_all(&first.uids);
	m_idmap_all(&first.gids);
	v = u;
	ok(m_map_write(&u, false, &own, 1, false, false, 1000) == 0,
	   "a writer in the new namespace maps its own euid");
	ok(m_map_write(&u, false, &own, 1, false, false, 1000) == -EPERM, "a map is written once");
	ok(m_id_up(&u.uids, 1000) == 0 && m_id_up(&u.uids, 0) == M_NO_ID, "1000 outside is 0 inside");
	u = v;
	ok(m_map_write(&u, false, &range, 1, false, true, 0) == -EPERM,
	   "a range needs CAP_SETUID over the parent, which the new namespace's process lacks");
	ok(m_map_write(&u, false, &range, 1, true, true, 0) == 0, "a writer left in the parent may");
	ok(m_id_down(&u.uids, 9999) == 19999 && m_id_down(&u.uids, 10000) == M_NO_ID,
	   "inside 0..9999 are 10000..19999");
	u = v;
	ok(m_map_write(&u, true, &own, 1, true, false, 1000) == -EPERM,
	   "a gid line of one's own from the parent: setgroups is still allowed there");
	ok(m_map_write(&u, false, two, 2, true, true, 0) == -EINVAL, "overlapping lines: EINVAL");
	two[1].count = 0;
	ok(m_map_write(&u, false, two, 2, true, true, 0) == -EINVAL, "an empty line: EINVAL");
	v = (struct m_userns){ .parent = &u };
	ok(m_map_write(&v, false, &range, 1, true, true, 0) == -EPERM,
	   "outer ids the parent does not map: EPERM");
}

TEST(owners_through_an_idmap)
{
	struct m_userns first = { .parent = NULL }, b = { .parent = &first };
	struct ns_id_extent range = { 0, 10000, 10000 };
	struct m_sb sb = { .owner = NULL };
	struct m_node root = { .sb = &sb }, f = { .sb = &sb, .parent = &root, .uid = 0, .gid = 0 };
	struct m_mount plain = { .sb = &sb }, mapped = { .sb = &sb, .idmap = &b };
	unsigned uid, gid;

	m_idmap_all(&first.uids);
	m_idmap_all(&first.gids);
	ok(m_map_write(&b, false, &range, 1, true, true, 0) == 0 &&
	   m_map_write(&b, true, &range, 1, true, true, 0) == 0, "b: 0..9999 are 10000..19999");
	m_owner_seen(&plain, &f, &first, &uid, &gid);
	ok(uid == 0 && gid == 0, "a file of root, seen by the first namespace");
	m_owner_seen(&plain, &f, &b, &uid, &gid);
	ok(uid == M_OVERFLOW_ID && gid == M_OVERFLOW_ID, "b has no name for root: the overflow ids");
	m_owner_seen(&mapped, &f, &first, &uid, &gid);
	ok(uid == 10000 && gid == 10000, "through the idmap, on-disk 0 is 10000");
	m_owner_seen(&mapped, &f, &b, &uid, &gid);
	ok(uid == 0 && gid == 0, "which b calls 0");
	f.uid = 20000;
	m_owner_seen(&mapped, &f, &first, &uid, &gid);
	ok(uid == M_OVERFLOW_ID && gid == 10000, "an on-disk id the idmap does not cover: overflow");
	ok(!m_owner_new(&mapped, 0, 0, &uid, &gid), "root has no id through the idmap: EOVERFLOW");
	ok(m_owner_new(&mapped, 10005, 10005, &uid, &gid) && uid == 5 && gid == 5,
	   "10005 creates files owned by 5 on disk");
	ok(m_owner_new(&plain, 0, 0, &uid, &gid) && uid == 0, "without an idmap, the fsuid itself");
}
