/* handles.c - see handles.h. */
#include "kernel/handles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

struct ns_handle *ns_handles_find(struct ns_handles *hs, const char *name, size_t len)
{
	for (size_t i = 0; i < hs->n; i++)
		if (strlen(hs->v[i].name) == len && !memcmp(hs->v[i].name, name, len))
			return &hs->v[i];
	return NULL;
}

struct ns_handle *ns_handles_add(struct ns_handles *hs, const char *name)
{
	void *v = hs->v;
	struct ns_handle *h;

	ns_grow(&v, &hs->cap, hs->n + 1, sizeof(*hs->v));
	hs->v = v;
	h = &hs->v[hs->n++];
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->fd = -1;
	return h;
}

void ns_handles_keep(struct ns_handles *hs, const char *name, int fd)
{
	struct ns_handle *h = ns_handles_find(hs, name, strlen(name));

	if (h)
		close(h->fd);
	else
		h = ns_handles_add(hs, name);
	h->fd = fd;
}

void ns_handles_drop(struct ns_handles *hs, struct ns_handle *h)
{
	*h = hs->v[--hs->n];
}

int ns_handles_dup(const struct ns_handles *from, struct ns_handles *to)
{
	*to = (struct ns_handles){ NULL, 0, 0 };
	for (size_t i = 0; i < from->n; i++) {
		int fd;

		/* a lent handle is only borrowed; a watch ("!watch") is the
		 * shell's own, which the shells it starts do not share */
		if (from->v[i].lent || from->v[i].name[0] == '!')
			continue;
		fd = fcntl(from->v[i].fd, F_DUPFD_CLOEXEC, 0);

		if (fd < 0) {
			int e = errno;
			ns_handles_close(to);
			errno = e;
			return -1;
		}
		ns_handles_add(to, from->v[i].name)->fd = fd;
	}
	return 0;
}

void ns_handles_move_own(struct ns_handles *from, struct ns_handles *to)
{
	for (size_t i = 0; i < from->n;) {
		if (from->v[i].name[0] != '!') {
			i++;
			continue;
		}
		ns_handles_add(to, from->v[i].name)->fd = from->v[i].fd;
		ns_handles_drop(from, &from->v[i]);
	}
}

void ns_handles_drop_own(struct ns_handles *hs)
{
	for (size_t i = 0; i < hs->n;) {
		if (hs->v[i].name[0] != '!') {
			i++;
			continue;
		}
		close(hs->v[i].fd);
		ns_handles_drop(hs, &hs->v[i]);
	}
}

void ns_handles_close(struct ns_handles *hs)
{
	for (size_t i = 0; i < hs->n; i++)
		if (hs->v[i].fd >= 0)
			close(hs->v[i].fd);
	free(hs->v);
	*hs = (struct ns_handles){ NULL, 0, 0 };
}

int ns_handle_at(struct ns_handles *hs, const char *word, int *dfd, const char **rel)
{
	struct ns_handle *h;
	size_t len;

	if (!ns_is_handle_path(word, &len)) {
		*dfd = AT_FDCWD;
		*rel = word;
		return 0;
	}
	h = ns_handles_find(hs, word, len);
	if (!h || h->err) {
		errno = h ? h->err : EBADF;
		return -1;
	}
	*dfd = h->fd;
	*rel = word + len;
	while (**rel == '/')
		(*rel)++;
	/* "@NAME/" must be a directory, as "dir/" must */
	if (!**rel && word[len])
		*rel = ".";
	return 0;
}

int ns_via_proc_begin(struct ns_handles *hs, int procfd, const char *const *words,
		      size_t n, const char **out, struct ns_via_proc *vp)
{
	bool any = false;
	int e;

	*vp = (struct ns_via_proc){ -1, { NULL, NULL } };
	for (size_t i = 0; i < n; i++) {
		out[i] = words[i];
		any |= words[i] && ns_is_handle_path(words[i], NULL);
	}
	if (!any)
		return 0;
	vp->cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (vp->cwd < 0)
		return -1;
	/* last word first: mount(2) looks its target up before its source,
	 * so that error comes first */
	for (size_t i = n; i-- > 0;) {
		const char *rel;
		size_t len = 0;
		int dfd;

		if (!words[i] || words[i][0] == '/')
			continue;
		if (ns_handle_at(hs, words[i], &dfd, &rel) < 0)
			goto fail;
		if (dfd == AT_FDCWD) {
			dfd = vp->cwd;
			rel = words[i];
		} else {
			ns_is_handle_path(words[i], &len);
			rel = words[i] + len; /* "" or "/PATH", as typed */
		}
		vp->w[i] = xasprintf("self/fd/%d%s%s", dfd, dfd == vp->cwd ? "/" : "", rel);
		out[i] = vp->w[i];
	}
	if (fchdir(procfd) == 0)
		return 0;
fail:
	e = errno;
	close(vp->cwd);
	vp->cwd = -1;
	for (size_t i = 0; i < n; i++)
		free(vp->w[i]);
	errno = e;
	return -1;
}

int ns_via_proc_end(struct ns_via_proc *vp)
{
	int r = 0, e = 0;

	if (vp->cwd >= 0) {
		r = fchdir(vp->cwd);
		e = errno;
		close(vp->cwd);
	}
	for (size_t i = 0; i < NS_ARRAY_SIZE(vp->w); i++)
		free(vp->w[i]);
	*vp = (struct ns_via_proc){ -1, { NULL, NULL } };
	errno = e;
	return r;
}
