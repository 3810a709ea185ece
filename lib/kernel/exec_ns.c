/* exec_ns.c - entering and leaving shells on the kernel: `unshare` with
 * unshare(2) (and the id maps of -r), `exit`. */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "commands/args.h"
#include "kernel/terminal.h"

/* unshare -r: uid and gid 0 of the new user namespace are the ids this
 * shell had, as unshare(1) maps them. */
static int map_root(struct ns_term *t, uid_t uid, gid_t gid, struct ns_cmd_result *res)
{
	static const char *const files[] = { "self/uid_map", "self/setgroups", "self/gid_map" };
	char text[3][32];

	snprintf(text[0], sizeof(text[0]), "0 %u 1\n", (unsigned)uid);
	snprintf(text[1], sizeof(text[1]), "deny");
	snprintf(text[2], sizeof(text[2]), "0 %u 1\n", (unsigned)gid);
	for (size_t i = 0; i < NS_ARRAY_SIZE(files); i++) {
		int fd = openat(t->procfd, files[i], O_WRONLY | O_CLOEXEC);
		int r = fd < 0 ? -errno : ns_write_all(fd, text[i], strlen(text[i]));
		if (fd >= 0)
			close(fd);
		if (r < 0)
			return ns_cmd_fail(res, "write id map", -r);
	}
	return 0;
}

int ns_kexec_unshare(struct ns_term *t, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_unshare_args *a = args;
	uid_t uid = getuid();
	gid_t gid = getgid();
	int r;

	(void)out;
	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* the inner shell: if anything fails it reports and ends, and the
	 * outer shell carries on as unshare(1) would never have started it */
	t->closing = true;
	if (unshare((a->mnt ? CLONE_NEWNS : 0) | (a->user ? CLONE_NEWUSER : 0)) < 0)
		return ns_cmd_fail(res, "unshare", errno);
	if (a->map_root && map_root(t, uid, gid, res) < 0)
		return -1;
	if (a->mnt && a->propagation && mount("none", "/", NULL, a->propagation, NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	t->closing = false;
	return 0;
}

int ns_kexec_exit(struct ns_term *t, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	(void)args, (void)out, (void)res;
	/* An inner shell ends and its outer one carries on; the terminal's
	 * first shell ending closes the terminal, and its next command
	 * starts a new one in the scenario's first namespace. */
	t->closing = true;
	return 0;
}
