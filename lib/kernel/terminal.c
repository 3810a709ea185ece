/* terminal.c - running steps inside a terminal process */
#include "kernel/terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

#include "kernel/exec.h"
#include "kernel/lend.h"
#include "kernel/mountinfo.h"
#include "run/pipeline.h"
#include "kernel/term_local.h"
#include "kernel/viewkey.h"
#include "run/wire.h"

/* The outer shell, once its inner shell has ended: pass on the inner
 * shell's last answer (the `exit`, or a failure to start), which it left
 * in the pipe. It is sent only after waitpid(), when the inner shell's
 * namespaces are gone, so the next step sees a world without them. */
static void resume_outer(struct ns_term *t, pid_t pid, int pipefd)
{
	struct ns_buf frame = NS_BUF_INIT;
	char chunk[4096];
	ssize_t got;
	int status = 0;

	while ((got = read(pipefd, chunk, sizeof(chunk))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			ns_buf_add(&frame, chunk, (size_t)got);
	close(pipefd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (t->pids)
		t->pids[t->slot] = getpid(); /* the innermost shell again */
	if (!frame.len && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		_exit(3); /* it died without answering: the controller sees EOF */
	if (frame.len && ns_write_all(t->sock, frame.data, frame.len) < 0)
		_exit(3);
	ns_buf_free(&frame);
	t->resumed = true;
}

int ns_term_enter_shell(struct ns_term *t, struct ns_cmd_result *res)
{
	pid_t outer = getpid();
	int p[2];
	pid_t pid;

	if (t->in_process)
		return ns_local_push(t, res);
	if (pipe2(p, O_CLOEXEC) < 0)
		return ns_cmd_fail(res, "pipe", errno);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return ns_cmd_fail(res, "fork", errno);
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != outer)
			_exit(1);
		close(p[0]);
		if (t->reply_fd >= 0)
			close(t->reply_fd);
		t->reply_fd = p[1];
		/* the outer shell's own handles (its watch) stay its own */
		ns_handles_drop_own(&t->handles);
		t->depth++;
		if (t->pids)
			t->pids[t->slot] = getpid();
		return 1;
	}
	close(p[1]);
	resume_outer(t, pid, p[0]);
	return 0;
}

size_t ns_term_slot(const struct ns_scenario *sc, const char *name)
{
	const char **seen = xcalloc(sc->nsteps + 1, sizeof(*seen));
	size_t n = 0;

	for (size_t i = 0; i < sc->nsteps; i++) {
		const char *t = sc->steps[i].terminal;
		size_t k = 0;

		while (k < n && strcmp(seen[k], t))
			k++;
		if (k < n)
			continue; /* seen before */
		if (name && !strcmp(t, name))
			break;
		seen[n++] = t;
	}
	free(seen);
	return n;
}

void ns_peer_close(struct ns_peer *p)
{
	int *fd[] = { &p->mnt, &p->user, &p->root, &p->cwd };

	for (size_t i = 0; i < NS_ARRAY_SIZE(fd); i++) {
		if (*fd[i] >= 0)
			close(*fd[i]);
		*fd[i] = -1;
	}
}

/* As processes: what /proc/PID/ shows of the terminal's innermost
 * shell. */
static int peer_proc(struct ns_term *t, const char *name, struct ns_peer *p,
		     struct ns_cmd_result *res)
{
	static const char *const files[] = { "ns/mnt", "ns/user", "root", "cwd" };
	int *fd[] = { &p->mnt, &p->user, &p->root, &p->cwd };
	size_t slot = ns_term_slot(t->sc, name);
	pid_t pid = t->pids && slot < t->npids ? t->pids[slot] : 0;

	if (pid <= 0)
		return ns_cmd_fail(res, "open", ENOENT);
	for (size_t i = 0; i < NS_ARRAY_SIZE(files); i++) {
		char path[64];

		snprintf(path, sizeof(path), "%d/%s", (int)pid, files[i]);
		*fd[i] = openat(t->procfd, path, (i < 2 ? O_RDONLY : O_PATH | O_DIRECTORY) | O_CLOEXEC);
		if (*fd[i] < 0) {
			int e = errno;
			ns_peer_close(p);
			return ns_cmd_fail(res, "open", e);
		}
	}
	return 0;
}

int ns_term_peer_open(struct ns_term *t, const char *name, struct ns_peer *p,
		      struct ns_cmd_result *res)
{
	*p = (struct ns_peer){ -1, -1, -1, -1 };
	if (t->in_process)
		return ns_local_peer(t->local, name, p, res);
	return peer_proc(t, name, p, res);
}

int ns_term_list_mounts(struct ns_term *t, enum ns_render how, struct ns_buf *out,
			struct ns_cmd_result *res)
{
	struct ns_snapshot *snap;
	char *text;
	size_t len;
	int r = ns_mountinfo_text(t->procfd, &text, &len);

	/* mountinfo that libmount reads back as it is needs no parse */
	if (r == 0 && how == NS_RENDER_MOUNTINFO && ns_mountinfo_reads_back(text, len)) {
		ns_buf_add(out, text, len);
		free(text);
		return 0;
	}
	if (r == 0)
		r = ns_snapshot_parse(text, len, &snap);
	free(text);
	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	ns_snapshot_render(snap, how, out);
	ns_snapshot_free(snap);
	return 0;
}

static int exec_stage(void *term, const struct ns_stage *st, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	return ns_kernel_exec[st->def->id](term, st->args, out, res);
}

/* getcwd(3) as the step's shell sees it: NULL when the directory is
 * gone or outside the root ("(unreachable)/..."). */
static char *shell_cwd(void)
{
	char buf[4096];

	if (!getcwd(buf, sizeof(buf)) || buf[0] != '/')
		return NULL;
	return xstrdup(buf);
}

void ns_term_run_step(struct ns_term *t, const struct ns_step *st,
		      struct ns_step_out *out)
{
	char *cwd = shell_cwd();

	ns_pipeline_run(st, exec_stage, t, out);
	out->cwd = cwd;
	ns_kernel_view_key(t->procfd, &out->view);
	/* a shell that ends leaves its place: what only it held is gone */
	if (t->alive && t->closing)
		out->alive.known = true;
	else if (t->alive)
		ns_kernel_alive(t->procfd, &out->alive);
	/* only the first shell's end closes the terminal */
	out->closed = t->closing && t->depth == 0;
}

void ns_term_serve(struct ns_term *t, int fd)
{
	uint32_t idx;

	t->sock = fd;
	t->reply_fd = -1;
	if (t->pids)
		t->pids[t->slot] = getpid();
	while (ns_wire_recv_index(fd, &idx) == 1) {
		struct ns_step_out out;
		/* an inner shell's last answer goes to its outer shell */
		int to;

		/* a handle asked of this shell, or lent to it for the next
		 * step (kernel/lend.h) */
		if (idx == NS_LEND_GIVE || idx == NS_LEND_TAKE) {
			if ((idx == NS_LEND_GIVE ? ns_lend_give(fd, &t->handles)
						 : ns_lend_take(fd, &t->handles)) < 0)
				_exit(3);
			continue;
		}
		if (idx >= t->sc->nsteps)
			_exit(3);
		t->resumed = false;
		ns_term_run_step(t, &t->sc->steps[idx], &out);
		ns_lend_drop(&t->handles);
		if (t->resumed) {
			/* the inner shell answered this step and has ended */
			ns_step_out_free(&out);
			continue;
		}
		to = t->closing && t->depth > 0 ? t->reply_fd : fd;
		if (ns_wire_send_result(to, idx, &out) < 0)
			_exit(3);
		ns_step_out_free(&out);
		if (t->closing && t->depth == 0 && t->pids)
			t->pids[t->slot] = 0; /* the terminal ends */
		if (t->closing)
			_exit(0);
	}
	_exit(0);
}
