/* exec_ns.c - entering and leaving shells on the kernel: `unshare` with
 * unshare(2) and the id maps unshare(1) writes, `nsenter` with setns(2),
 * `exit`.
 * With a command, `unshare` and `nsenter` start a shell that runs it and
 * ends with the step, as the program they exec would. */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <string.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands/args.h"
#include "kernel/handles.h"
#include "kernel/terminal.h"

/* One map file of process pid ("self", or a number) through the procfs
 * directory kept from the host, written in one write(2) as the kernel
 * takes it: every line at once. 0 or -errno. */
static int write_proc(int procfd, const char *pid, const char *file, const char *text)
{
	char path[64];
	int fd, r;

	snprintf(path, sizeof(path), "%s/%s", pid, file);
	fd = openat(procfd, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = ns_write_all(fd, text, strlen(text));
	close(fd);
	return r < 0 ? r : 0;
}

static void map_text(const struct ns_id_map *m, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%u %u %u\n", m->v[i].inner,
					m->v[i].outer, m->v[i].count);
}

/* unshare(1)'s own writes, once in the new namespace: the uid line, then
 * setgroups denied and the gid line (which an unprivileged writer may
 * write only so). 0 or -errno. */
static int self_maps(int procfd, const struct ns_id_map *uids, const struct ns_id_map *gids)
{
	char text[256];
	int r = 0;

	if (uids->n && !uids->helper) {
		map_text(uids, text, sizeof(text));
		r = write_proc(procfd, "self", "uid_map", text);
	}
	if (r == 0 && gids->n && !gids->helper) {
		map_text(gids, text, sizeof(text));
		r = write_proc(procfd, "self", "setgroups", "deny");
		if (r == 0)
			r = write_proc(procfd, "self", "gid_map", text);
	}
	return r;
}

/* The ranges, written as newuidmap(1) and newgidmap(1) write them for
 * unshare(1): by a process that stays in the parent user namespace with
 * the caller's credentials, forked before unshare(2) and told when it is
 * done (one byte on go; none: unshare failed), which writes the maps of
 * its parent's new namespace and answers with 0 or an errno on done. */
struct helper {
	pid_t pid;
	int go, done;
};

static int helper_start(int procfd, const struct ns_id_map *uids, const struct ns_id_map *gids,
			struct helper *h)
{
	int go[2], done[2];
	pid_t parent = getpid();

	h->pid = 0;
	if (!uids->helper && !gids->helper)
		return 0;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(done, O_CLOEXEC) < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		return -e;
	}
	h->pid = fork();
	if (h->pid < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		close(done[0]);
		close(done[1]);
		return -e;
	}
	if (h->pid == 0) {
		char c, pid[16], text[256];
		int32_t r = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(go[1]);
		close(done[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(0);
		snprintf(pid, sizeof(pid), "%d", (int)parent);
		if (uids->helper) {
			map_text(uids, text, sizeof(text));
			r = write_proc(procfd, pid, "uid_map", text);
		}
		if (r == 0 && gids->helper) {
			map_text(gids, text, sizeof(text));
			r = write_proc(procfd, pid, "gid_map", text);
		}
		r = -r;
		_exit(ns_write_all(done[1], &r, sizeof(r)) < 0);
	}
	close(go[0]);
	close(done[1]);
	h->go = go[1];
	h->done = done[0];
	return 0;
}

/* Let the helper write (go), or only end it; its answer. 0 or -errno. */
static int helper_finish(struct helper *h, bool go)
{
	int32_t r = 0;
	int status;

	if (!h->pid)
		return 0;
	if (go && write(h->go, "", 1) != 1)
		r = errno;
	close(h->go);
	if (go && !r && read(h->done, &r, sizeof(r)) != (ssize_t)sizeof(r))
		r = EPROTO;
	close(h->done);
	while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
		;
	h->pid = 0;
	return -r;
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
	struct ns_id_map uids, gids;
	struct helper h;
	int r;

	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* the inner shell: if anything fails it reports and ends, and the
	 * outer shell carries on as unshare(1) would never have started it */
	t->closing = true;
	/* the ids unshare(1) maps are the caller's, as its namespace names
	 * them, taken before unshare(2) */
	ns_unshare_id_maps(a, (unsigned)geteuid(), (unsigned)getegid(), &uids, &gids);
	r = helper_start(t->procfd, &uids, &gids, &h);
	if (r < 0)
		return ns_cmd_fail(res, "fork", -r);
	if (unshare((a->mnt ? CLONE_NEWNS : 0) | (a->user ? CLONE_NEWUSER : 0)) < 0) {
		int e = errno;
		helper_finish(&h, false);
		return ns_cmd_fail(res, "unshare", e);
	}
	r = helper_finish(&h, true);
	if (r == 0)
		r = self_maps(t->procfd, &uids, &gids);
	if (r < 0)
		return ns_cmd_fail(res, "write id map", -r);
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
 * nsenter(1) does without --preserve-credentials. Changing ids made the
 * process not dumpable, which the shell nsenter(1) executes next is
 * again (execve(2); prctl(2), PR_SET_DUMPABLE): otherwise its
 * /proc/PID files would be root's, and other shells, a map writer among
 * them, could not open them where they could open a real shell's. */
static int become_root(struct ns_cmd_result *res)
{
	if (setgroups(0, NULL) < 0 && errno != EPERM)
		return ns_cmd_fail(res, "setgroups", errno);
	if (setgid(0) < 0)
		return ns_cmd_fail(res, "setgid", errno);
	if (setuid(0) < 0)
		return ns_cmd_fail(res, "setuid", errno);
	if (prctl(PR_SET_DUMPABLE, 1) < 0)
		return ns_cmd_fail(res, "prctl", errno);
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

/* NAME=VALUE, export, unset: the parser has done their work (expanding
 * $NAME in the lines after them); a shell's builtin prints nothing. */
int ns_kexec_variable(struct ns_term *t, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	(void)t, (void)args, (void)out, (void)res;
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
