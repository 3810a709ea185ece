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

#include "scenario/command.h"
#include "kernel/term_local.h"
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
		t->depth++;
		return 1;
	}
	close(p[1]);
	resume_outer(t, pid, p[0]);
	return 0;
}

static void error_line(struct ns_buf *out, const char *cmd, int err)
{
	if (out->len && out->data[out->len - 1] != '\n')
		ns_buf_addc(out, '\n');
	ns_buf_addf(out, "%s: %s (%s)\n", cmd, ns_errname(err), strerror(err));
}

void ns_term_run_step(struct ns_term *t, const struct ns_step *st,
		      struct ns_step_out *out)
{
	struct ns_buf cur = NS_BUF_INIT, next = NS_BUF_INIT, tmp;
	struct ns_cmd_result res = { 0, NULL };
	const struct ns_stage *first = &st->pipeline.stages[0];
	const char *failed = NULL;

	memset(out, 0, sizeof(*out));
	if (first->def->exec(t, first, NULL, &cur, &res) < 0)
		failed = first->argv[0];
	for (size_t i = 1; i < st->pipeline.n && !failed; i++) {
		const struct ns_stage *f = &st->pipeline.stages[i];
		ns_buf_reset(&next);
		if (f->def->exec(t, f, &cur, &next, &res) < 0)
			failed = f->argv[0];
		tmp = cur, cur = next, next = tmp;
	}
	if (failed) {
		error_line(&cur, failed, res.err);
		out->err = res.err;
		snprintf(out->syscall, sizeof(out->syscall), "%s", res.syscall ? res.syscall : "?");
	}
	ns_buf_free(&next);
	out->output = ns_buf_detach(&cur);
	/* only the first shell's end closes the terminal */
	out->closed = t->closing && t->depth == 0;
}

void ns_term_serve(struct ns_term *t, int fd)
{
	uint32_t idx;

	t->sock = fd;
	t->reply_fd = -1;
	while (ns_wire_recv_index(fd, &idx) == 1) {
		struct ns_step_out out;
		/* an inner shell's last answer goes to its outer shell */
		int to;

		if (idx >= t->sc->nsteps)
			_exit(3);
		t->resumed = false;
		ns_term_run_step(t, &t->sc->steps[idx], &out);
		if (t->resumed) {
			/* the inner shell answered this step and has ended */
			free(out.output);
			continue;
		}
		to = t->closing && t->depth > 0 ? t->reply_fd : fd;
		if (ns_wire_send_result(to, idx, &out) < 0)
			_exit(3);
		free(out.output);
		if (t->closing)
			_exit(0);
	}
	_exit(0);
}
