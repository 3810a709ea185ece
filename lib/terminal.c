/* terminal.c - running steps inside a terminal process */
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "wire.h"

int ns_term_push_level(struct ns_term *t, struct ns_cmd_result *res)
{
	struct ns_shell_level l;
	void *v = t->levels;

	l.nsfd = openat(t->procfd, "self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (l.nsfd < 0)
		return ns_cmd_fail(res, "open /proc/self/ns/mnt", errno);
	l.rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	l.cwdfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (l.rootfd < 0 || l.cwdfd < 0) {
		int err = errno;
		close(l.nsfd);
		if (l.rootfd >= 0)
			close(l.rootfd);
		return ns_cmd_fail(res, "open", err);
	}
	ns_grow(&v, &t->cap, t->depth + 1, sizeof(l));
	t->levels = v;
	t->levels[t->depth++] = l;
	return 0;
}

int ns_term_pop_level(struct ns_term *t, bool restore, struct ns_cmd_result *res)
{
	struct ns_shell_level l;
	int err = 0;

	if (!t->depth)
		return ns_cmd_fail(res, "exit", EINVAL);
	l = t->levels[--t->depth];
	/* setns() moves root and cwd to the namespace's root; put them back
	 * where the shell being returned to had them. */
	if (restore && setns(l.nsfd, CLONE_NEWNS) < 0)
		err = errno;
	if (restore && !err && (fchdir(l.rootfd) < 0 || chroot(".") < 0 ||
				fchdir(l.cwdfd) < 0))
		err = errno;
	close(l.nsfd);
	close(l.rootfd);
	close(l.cwdfd);
	return err ? ns_cmd_fail(res, "setns", err) : 0;
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
	out->closed = t->closing;
}

void ns_term_serve(struct ns_term *t, int fd)
{
	uint32_t idx;

	while (ns_wire_recv_index(fd, &idx) == 1) {
		struct ns_step_out out;

		if (idx >= t->sc->nsteps)
			_exit(3);
		ns_term_run_step(t, &t->sc->steps[idx], &out);
		if (ns_wire_send_result(fd, idx, &out) < 0)
			_exit(3);
		free(out.output);
		if (t->closing)
			_exit(0);
	}
	_exit(0);
}
