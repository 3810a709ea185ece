/* watch.c - `watch` on the model: the mount notifications of a
 * namespace (fanotify(7), FAN_MNT_ATTACH and FAN_MNT_DETACH). After each
 * step the watched namespace is compared with what the watch last saw,
 * mount by mount (by creation number, which no other mount ever gets,
 * as the kernel's unique mount ID): a mount that came into the namespace
 * is attached, one that left it (unmounted, or moved into a detached
 * tree) detached, and one that is still there with another parent or
 * mount point both, as the kernel reports a move, a mount that falls to
 * its parent's place when that is unmounted (the selftest
 * mount-notify_test.c, reparent) and the two mounts pivot_root swaps.
 * A mount that a propagated copy slides under is moved too, but the
 * kernel reports only the copy (mnt_change_mountpoint() notifies nothing;
 * mount-notify_test.c, propagate): tree.c marks such a mount tucked for
 * the step. Propagation and mount flags change no place: no event. */
#include "model/shell.h"

#include <errno.h>
#include <stdlib.h>

static void snapshot(struct m_world *w, struct m_ns *ns, struct m_watch_ent **out, size_t *n)
{
	size_t cap = 0;
	void *v = NULL;

	*n = 0;
	/* w->mounts is in creation order: the entries come sorted by seq */
	for (size_t i = 0; i < w->nmounts; i++) {
		struct m_mount *m = w->mounts[i];

		if (m->dead || m->ns != ns)
			continue;
		ns_grow(&v, &cap, *n + 1, sizeof(**out));
		((struct m_watch_ent *)v)[(*n)++] = (struct m_watch_ent){
			m->seq, m->parent ? m->parent->seq : 0, m->parent ? m->mp : NULL, m->tucked };
	}
	*out = v;
}

static void event(struct ns_buf *q, bool attach, bool detach, unsigned long long seq)
{
	ns_buf_addf(q, "%s%s%s %llu\n", attach ? "attach" : "", attach && detach ? "," : "",
		    detach ? "detach" : "", seq);
}

static void update(struct m_world *w, struct m_watch *wt)
{
	struct m_watch_ent *now;
	size_t n, i = 0, k = 0;

	snapshot(w, wt->ns, &now, &n);
	/* both lists are sorted by seq: a merge */
	while (i < wt->n || k < n) {
		if (k == n || (i < wt->n && wt->v[i].seq < now[k].seq)) {
			event(&wt->queue, false, true, wt->v[i++].seq);
		} else if (i == wt->n || now[k].seq < wt->v[i].seq) {
			event(&wt->queue, true, false, now[k++].seq);
		} else {
			if ((wt->v[i].parent != now[k].parent || wt->v[i].mp != now[k].mp) &&
			    !now[k].tucked)
				event(&wt->queue, true, true, now[k].seq);
			i++;
			k++;
		}
	}
	free(wt->v);
	wt->v = now;
	wt->n = n;
}

void m_watch_after_step(struct m_shell *sh)
{
	for (size_t i = 0; i < sh->n; i++)
		if (sh->lv[i].watch)
			update(&sh->sb->w, sh->lv[i].watch);
}

void m_watch_step_done(struct m_world *w)
{
	for (size_t i = 0; i < w->ntucked; i++)
		w->tucked[i]->tucked = false;
	w->ntucked = 0;
}

void m_watch_free(struct m_watch *wt)
{
	if (!wt)
		return;
	free(wt->v);
	ns_buf_free(&wt->queue);
	free(wt);
}

int m_exec_watch(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_watch_args *a = args;
	struct m_level *lv = m_cur(sh);

	switch (a->op) {
	case NS_WATCH_START:
		/* the kernel's fanotify_mark() with FAN_MARK_MNTNS: CAP_SYS_ADMIN
		 * over the namespace's owner */
		if (!m_may_mount(sh))
			return ns_cmd_fail(res, "fanotify_mark", EPERM);
		m_watch_free(lv->watch);
		lv->watch = xcalloc(1, sizeof(*lv->watch));
		lv->watch->ns = lv->ns;
		lv->watch->queue = (struct ns_buf)NS_BUF_INIT;
		snapshot(&sh->sb->w, lv->ns, &lv->watch->v, &lv->watch->n);
		return 0;
	case NS_WATCH_STOP:
		if (!lv->watch)
			return ns_cmd_fail(res, "watch", EBADF);
		m_watch_free(lv->watch);
		lv->watch = NULL;
		return 0;
	case NS_WATCH_READ:
		break;
	}
	if (!lv->watch)
		return ns_cmd_fail(res, "watch", EBADF);
	ns_buf_addf(out, "%s", ns_buf_str(&lv->watch->queue));
	ns_buf_reset(&lv->watch->queue);
	return 0;
}
