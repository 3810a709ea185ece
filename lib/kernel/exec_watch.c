/* exec_watch.c - `watch` on the kernel: a fanotify group that reports
 * mount events (FAN_REPORT_MNT) marks the shell's mount namespace
 * (FAN_MARK_MNTNS), and each `watch` reads what the kernel queued since.
 * The kernel queues an event before the call that caused it returns, so
 * what a read finds depends on the steps before it, not on timing. */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fanotify.h>
#include <stdint.h>
#include <string.h>
#include <sys/fanotify.h>
#include <unistd.h>

#include "kernel/handles.h"
#include "kernel/terminal.h"
#include "run/trouble.h"

/* include/uapi/linux/fanotify.h of Linux 6.15, newer than Debian 12's */
#ifndef FAN_MNT_ATTACH
#define FAN_MNT_ATTACH 0x01000000
#endif
#ifndef FAN_MNT_DETACH
#define FAN_MNT_DETACH 0x02000000
#endif
#ifndef FAN_REPORT_MNT
#define FAN_REPORT_MNT 0x00004000
#endif
#ifndef FAN_MARK_MNTNS
#define FAN_MARK_MNTNS 0x00000110
#endif
#define NS_FAN_EVENT_INFO_TYPE_MNT 7

struct ns_fan_info_mnt {
	struct fanotify_event_info_header hdr;
	uint64_t mnt_id;
};

#define WATCH "!watch"

int ns_watch_supported(void)
{
	int fd = fanotify_init(FAN_REPORT_MNT | FAN_CLOEXEC, O_RDONLY);

	if (fd < 0 && ns_trouble_errno(errno))
		return -1;
	if (fd < 0)
		return errno == EPERM; /* known, but not allowed here */
	close(fd);
	return 1;
}

static int start(struct ns_term *t, struct ns_cmd_result *res)
{
	int fd, nsfd;

	fd = fanotify_init(FAN_REPORT_MNT | FAN_NONBLOCK | FAN_CLOEXEC, O_RDONLY);
	if (fd < 0)
		return ns_cmd_fail(res, "fanotify_init", errno);
	nsfd = openat(t->procfd, "self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (nsfd < 0) {
		int e = errno;
		close(fd);
		return ns_cmd_fail(res, "open", e);
	}
	if (fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_MNTNS, FAN_MNT_ATTACH | FAN_MNT_DETACH,
			  nsfd, NULL) < 0) {
		int e = errno;
		close(nsfd);
		close(fd);
		return ns_cmd_fail(res, "fanotify_mark", e);
	}
	close(nsfd);
	ns_handles_keep(&t->handles, WATCH, fd);
	return 0;
}

/* One line per event: its mask's words, then the unique mount ID. */
static int drain(int fd, struct ns_buf *out, struct ns_cmd_result *res)
{
	char buf[4096] __attribute__((aligned(8)));

	for (;;) {
		ssize_t len = read(fd, buf, sizeof(buf));
		struct fanotify_event_metadata *m = (struct fanotify_event_metadata *)buf;

		if (len < 0)
			return errno == EAGAIN ? 0 : ns_cmd_fail(res, "read", errno);
		for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
			const char *info = (const char *)m + m->metadata_len;
			const struct ns_fan_info_mnt *mi = (const struct ns_fan_info_mnt *)info;
			bool attach = m->mask & FAN_MNT_ATTACH, detach = m->mask & FAN_MNT_DETACH;

			if (m->event_len < m->metadata_len + sizeof(*mi) ||
			    mi->hdr.info_type != NS_FAN_EVENT_INFO_TYPE_MNT)
				return ns_cmd_fail(res, "read", EPROTO);
			ns_buf_addf(out, "%s%s%s %llu\n", attach ? "attach" : "",
				    attach && detach ? "," : "", detach ? "detach" : "",
				    (unsigned long long)mi->mnt_id);
		}
	}
}

int ns_kexec_watch(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_watch_args *a = args;
	struct ns_handle *h = ns_handles_find(&t->handles, WATCH, strlen(WATCH));
	int fd = h ? h->fd : -1;

	switch (a->op) {
	case NS_WATCH_START:
		/* a new watch: what the old one queued is dropped with it */
		if (h) {
			ns_handles_drop(&t->handles, h);
			close(fd);
		}
		return start(t, res);
	case NS_WATCH_STOP:
		if (!h)
			return ns_cmd_fail(res, "watch", EBADF);
		ns_handles_drop(&t->handles, h);
		return close(fd) < 0 ? ns_cmd_fail(res, "close", errno) : 0;
	case NS_WATCH_READ:
		break;
	}
	if (!h)
		return ns_cmd_fail(res, "watch", EBADF);
	return drain(fd, out, res);
}
