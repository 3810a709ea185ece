/* viewkey.c - the model's name for where a shell looks at mounts from
 * (struct ns_view's key, match/view.h): its namespace, and the mount and
 * directory of its root, as the kernel backend names them by the
 * namespace's inode and the root's mount ID and inode. */
#include "model/viewkey.h"

#include <string.h>

/* The directory's path in its superblock, hashed (FNV-1a): a name for it
 * that does not depend on where it sits in memory. */
static uint64_t node_key(const struct m_node *d)
{
	struct ns_buf path = NS_BUF_INIT;
	uint64_t h = 0xcbf29ce484222325ULL;

	m_node_path(d, &path);
	for (size_t i = 0; i < path.len; i++)
		h = (h ^ (unsigned char)path.data[i]) * 0x100000001b3ULL;
	ns_buf_free(&path);
	return h;
}

void m_view_key(struct m_shell *sh, struct ns_view *v)
{
	const struct m_level *lv = m_cur(sh);

	memset(v->key, 0, sizeof(v->key));
	if (!lv->ns || !lv->root.mnt)
		return;
	/* namespace IDs are never given out twice; 0 would read as unknown */
	v->key[0] = (uint64_t)lv->ns->id + 1;
	v->key[1] = lv->root.mnt->seq;
	v->key[2] = node_key(lv->root.d);
}
