/* exec_ns.c - entering and leaving shells on the kernel: `unshare` with
 * unshare(2) (and the id maps of -r), `nsenter` with setns(2), `exit`.
 * With a command, `unshare` and `nsenter` start a shell that runs it and
 * ends with the step, as the program they exec would. */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "commands/args.h"
#include "kernel/handles.h"
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

/* The command a wrapper runs, in the inner shell it made, which ends
 * with the step (t->closing stays set): its output is the step's, its
 * failure named by itself, as the program unshare(1) or nsenter(1)
 * would exec prints its own errors. */
static int run_inner(struct ns_term *t, const struct ns_stage *cmd, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	if (ns_kernel_exec[cmd->def->id](t, cmd->args, out, res) == 0)
		return 0;
	if (!res->cmd)
		res->cmd = cmd->argv[0];
	return -1;
}

int ns_kexec_unshare(struct ns_term *t, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_unshare_args *a = args;
	uid_t uid = getuid();
	gid_t gid = getgid();
	int r;

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
	if (a->cmd)
		return run_inner(t, a->cmd, out, res);
	t->closing = false;
	return 0;
}

/* setns(2) into the namespaces nsenter was given, in its two passes:
 * every one but the user namespace first (a less privileged target is
 * entered last), then the user namespace and what failed before (a more
 * privileged one may need it first). */
static int enter_namespaces(struct ns_peer *p, struct ns_cmd_result *res)
{
	int *fd[] = { &p->user, &p->mnt };
	static const int type[] = { CLONE_NEWUSER, CLONE_NEWNS };

	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t k = 1 - pass; k < NS_ARRAY_SIZE(fd); k++) {
			if (*fd[k] < 0)
				continue;
			if (setns(*fd[k], type[k]) < 0) {
				if (pass)
					return ns_cmd_fail(res, "setns", errno);
				continue;
			}
			close(*fd[k]);
			*fd[k] = -1;
		}
	}
	return 0;
}

/* After -U: uid and gid 0 of the namespace entered, no supplementary
 * groups (which a namespace with setgroups denied refuses to drop), as
 * nsenter(1) does without --preserve-credentials. */
static int become_root(struct ns_cmd_result *res)
{
	if (setgroups(0, NULL) < 0 && errno != EPERM)
		return ns_cmd_fail(res, "setgroups", errno);
	if (setgid(0) < 0)
		return ns_cmd_fail(res, "setgid", errno);
	if (setuid(0) < 0)
		return ns_cmd_fail(res, "setuid", errno);
	return 0;
}

/* setns(2) left root and directory at the top of the namespace's root;
 * -r takes the target's root (the directory stays where setns put it,
 * as nsenter(1) does), -w the target's working directory. */
static int root_and_wd(const struct ns_nsenter_args *a, const struct ns_peer *p,
		       struct ns_cmd_result *res)
{
	if (a->root) {
		int here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		int e = 0;

		if (here < 0)
			return ns_cmd_fail(res, "open", errno);
		if (fchdir(p->root) < 0 || chroot(".") < 0)
			e = errno;
		if (!e && !a->wd && fchdir(here) < 0)
			e = errno;
		close(here);
		if (e)
			return ns_cmd_fail(res, "chroot", e);
	}
	if (a->wd && fchdir(p->cwd) < 0)
		return ns_cmd_fail(res, "fchdir", errno);
	return 0;
}

int ns_kexec_nsenter(struct ns_term *t, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_nsenter_args *a = args;
	struct ns_peer p;
	int r = ns_term_enter_shell(t, res);

	if (r <= 0)
		return r;
	t->closing = true; /* as for unshare: a failure ends the new shell */
	if (a->mount_ns) {
		/* a namespace open_tree --namespace made: setns(2) puts root
		 * and directory at the top of its root */
		struct ns_handle *h = ns_handles_find(&t->handles, a->mount_ns, strlen(a->mount_ns));

		if (!h)
			return ns_cmd_fail(res, "setns", EBADF);
		if (h->fd < 0)
			return ns_cmd_fail(res, "setns", h->err);
		if (setns(h->fd, CLONE_NEWNS) < 0)
			return ns_cmd_fail(res, "setns", errno);
		if (a->cmd)
			return run_inner(t, a->cmd, out, res);
		t->closing = false;
		return 0;
	}
	if (ns_term_peer_open(t, a->target, &p, res) < 0)
		return -1;
	if (!a->user) {
		close(p.user);
		p.user = -1;
	}
	if (!a->mnt) {
		close(p.mnt);
		p.mnt = -1;
	}
	r = enter_namespaces(&p, res);
	if (r == 0 && a->user)
		r = become_root(res);
	if (r == 0)
		r = root_and_wd(a, &p, res);
	ns_peer_close(&p);
	if (r < 0)
		return -1;
	if (a->cmd)
		return run_inner(t, a->cmd, out, res);
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
