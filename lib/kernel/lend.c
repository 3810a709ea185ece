/* lend.c - see lend.h. */
#include "kernel/lend.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "commands/args.h"
#include "commands/command.h"

static void refs_of(const struct ns_stage *st, struct ns_lines *refs)
{
	for (; st; st = ns_stage_inner(st))
		for (size_t i = 1; i < st->argc; i++) {
			struct ns_handle_ref r;
			size_t len, k = 0;

			if (!ns_handle_ref(st->argv[i], &r) || !r.term)
				continue;
			len = (size_t)(r.rest - st->argv[i]);
			while (k < refs->n && (strlen(refs->v[k]) != len ||
					       strncmp(refs->v[k], st->argv[i], len)))
				k++;
			if (k == refs->n)
				ns_lines_pushn(refs, st->argv[i], len);
		}
}

void ns_lend_refs(const struct ns_step *st, struct ns_lines *refs)
{
	for (size_t i = 0; i < st->pipeline.n; i++)
		refs_of(&st->pipeline.stages[i], refs);
	for (size_t k = 0; k < st->nmore; k++)
		for (size_t i = 0; i < st->more[k].pipeline.n; i++)
			refs_of(&st->more[k].pipeline.stages[i], refs);
}

void ns_lend_add(struct ns_handles *hs, const char *ref, int fd, int err)
{
	struct ns_handle *h = ns_handles_add(hs, ref);

	h->fd = err ? -1 : fd;
	h->err = err;
	h->lent = true;
}

void ns_lend_drop(struct ns_handles *hs)
{
	for (size_t i = hs->n; i-- > 0;)
		if (hs->v[i].lent) {
			if (hs->v[i].fd >= 0)
				close(hs->v[i].fd);
			ns_handles_drop(hs, &hs->v[i]);
		}
}

/* One message with, when fd >= 0, the fd as SCM_RIGHTS on it. */
static int send_fd(int sock, const void *buf, size_t len, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { (void *)(uintptr_t)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.buf;
		m.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		r = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;
	if ((size_t)r != len) {
		errno = EPIPE;
		return -1;
	}
	return 0;
}

/* The message send_fd sent: all len bytes, and *fd (-1 without one). */
static int recv_fd(int sock, void *buf, size_t len, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t r;

	*fd = -1;
	do
		r = recvmsg(sock, &m, MSG_WAITALL | MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	if ((size_t)r != len || (m.msg_flags & MSG_CTRUNC)) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		errno = EPROTO;
		return -1;
	}
	return 0;
}

struct give_req {
	char name[NS_HANDLE_NAME_MAX];
};

struct lend_msg {
	int32_t err;
	char ref[NS_HANDLE_REF_MAX];
};

int ns_lend_ask(int sock, const char *name, int *fd, int *err)
{
	uint32_t idx = NS_LEND_GIVE;
	struct give_req q;
	struct lend_msg a;

	memset(&q, 0, sizeof(q));
	snprintf(q.name, sizeof(q.name), "%s", name);
	if (ns_write_all(sock, &idx, sizeof(idx)) < 0 || ns_write_all(sock, &q, sizeof(q)) < 0 ||
	    recv_fd(sock, &a, sizeof(a), fd) < 0)
		return -1;
	*err = a.err;
	return 0;
}

int ns_lend_give(int sock, struct ns_handles *hs)
{
	struct give_req q;
	struct lend_msg a;
	struct ns_handle *h;
	int fd;

	if (recv_fd(sock, &q, sizeof(q), &fd) < 0)
		return -1;
	if (fd >= 0)
		close(fd);
	q.name[sizeof(q.name) - 1] = '\0';
	memset(&a, 0, sizeof(a));
	h = ns_handles_find(hs, q.name, strlen(q.name));
	/* only the shell's own: a lent one is not its to pass on */
	a.err = h && !h->lent ? 0 : EBADF;
	return send_fd(sock, &a, sizeof(a), a.err ? -1 : h->fd);
}

int ns_lend_send(int sock, const char *ref, int fd, int err)
{
	uint32_t idx = NS_LEND_TAKE;
	struct lend_msg m;

	memset(&m, 0, sizeof(m));
	m.err = err;
	snprintf(m.ref, sizeof(m.ref), "%s", ref);
	if (ns_write_all(sock, &idx, sizeof(idx)) < 0)
		return -1;
	return send_fd(sock, &m, sizeof(m), err ? -1 : fd);
}

int ns_lend_take(int sock, struct ns_handles *hs)
{
	struct lend_msg m;
	int fd;

	if (recv_fd(sock, &m, sizeof(m), &fd) < 0)
		return -1;
	m.ref[sizeof(m.ref) - 1] = '\0';
	if (!m.err && fd < 0)
		m.err = EBADF;
	ns_lend_add(hs, m.ref, fd, m.err);
	return 0;
}
