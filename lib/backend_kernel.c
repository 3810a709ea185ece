/* backend_kernel.c - run a scenario on the real kernel.
 *
 *   runner ──fork──▶ sandbox process ──fork──▶ one process per terminal
 *     ◀── results ──┘   ◀── socketpair per terminal ──┘
 *
 * The sandbox process builds the sandbox, starts terminals as their
 * prompts first appear, hands each step to its terminal and forwards the
 * result. It and its terminals share a process group, so the runner's
 * watchdog kills them all at once; and each dies with its parent. */
#include "backend.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "sandbox.h"
#include "wire.h"

struct term_proc {
	const char *name;
	pid_t pid;
	int fd;
};

struct controller {
	const struct ns_scenario *sc;
	struct ns_sandbox sb;
	struct term_proc *t;
	size_t n, cap;
	int out;
};

/* Die with our parent: a killed runner leaves nothing behind. */
static void tie_to_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}

/* The run stopped early: the sandbox could not be built (setup), or a
 * terminal died on the way. */
static void send_abort(int fd, const char *msg, bool setup)
{
	struct ns_step_out o;

	memset(&o, 0, sizeof(o));
	o.output = (char *)(uintptr_t)msg;
	o.err = setup;
	ns_wire_send_result(fd, NS_WIRE_ABORT, &o);
}

static struct term_proc *spawn_terminal(struct controller *c, const char *name)
{
	pid_t self = getpid();
	int sv[2];
	pid_t pid;
	void *v = c->t;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return NULL;
	}
	if (pid == 0) {
		struct ns_term t = { .sc = c->sc,
				     .procfd = c->sb.procfd, .devs = c->sb.devs };
		tie_to_parent(self);
		close(sv[0]);
		close(c->out);
		for (size_t i = 0; i < c->n; i++)
			close(c->t[i].fd);
		ns_term_serve(&t, sv[1]);
	}
	close(sv[1]);
	ns_grow(&v, &c->cap, c->n + 1, sizeof(*c->t));
	c->t = v;
	c->t[c->n] = (struct term_proc){ name, pid, sv[0] };
	return &c->t[c->n++];
}

static struct term_proc *terminal(struct controller *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->t[i].name, name))
			return &c->t[i];
	return spawn_terminal(c, name);
}

static void reap(struct term_proc *tp)
{
	close(tp->fd);
	waitpid(tp->pid, NULL, 0);
}

static void forget(struct controller *c, struct term_proc *tp)
{
	reap(tp);
	*tp = c->t[--c->n];
}

/* One step: hand it to its terminal and forward what came back. */
static int play_step(struct controller *c, uint32_t i)
{
	const struct ns_step *st = &c->sc->steps[i];
	struct term_proc *tp = terminal(c, st->terminal);
	struct ns_step_out o;
	uint32_t got;
	int r;

	if (!tp) {
		send_abort(c->out, "cannot start a terminal process", false);
		return -1;
	}
	r = ns_wire_send_index(tp->fd, i);
	if (r == 0)
		r = ns_wire_recv_result(tp->fd, &got, &o);
	if (r <= 0) {
		char msg[128];
		snprintf(msg, sizeof(msg), "terminal '%s' died during the step at line %d",
			 st->terminal[0] ? st->terminal : "#", st->line);
		send_abort(c->out, msg, false);
		return -1;
	}
	r = ns_wire_send_result(c->out, i, &o);
	if (o.closed)
		forget(c, tp);
	free(o.output);
	return r;
}

static void __attribute__((noreturn))
sandbox_main(const struct ns_scenario *sc, const struct ns_run_opts *o, int out)
{
	struct controller c = { .sc = sc, .out = out };
	struct ns_buf err = NS_BUF_INIT;

	signal(SIGPIPE, SIG_IGN);
	if (ns_sandbox_enter(sc, o->devices, o->userns, &c.sb, &err) < 0) {
		send_abort(out, ns_buf_str(&err), true);
		_exit(1);
	}
	for (uint32_t i = 0; i < sc->nsteps; i++)
		if (play_step(&c, i) < 0)
			break;
	for (size_t i = 0; i < c.n; i++)
		reap(&c.t[i]);
	_exit(0);
}

static long ms_left(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 +
	       (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

/* Wait for readable data until the deadline: 1 ready, 0 timed out. */
static int wait_readable(int fd, const struct ns_run_opts *o,
			 const struct timespec *deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		long ms = o->timeout_s ? ms_left(deadline) : -1;
		int r;
		if (o->timeout_s && ms <= 0)
			return 0;
		r = poll(&p, 1, (int)(ms > 60000 ? 60000 : ms));
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return 1; /* let the read report it */
	}
}

static void collect(int fd, pid_t pid, const struct ns_scenario *sc,
		    const struct ns_run_opts *o, struct ns_run *run)
{
	struct timespec deadline;
	struct ns_step_out so;
	uint32_t step;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += o->timeout_s;
	for (;;) {
		int r;
		if (!wait_readable(fd, o, &deadline)) {
			kill(-pid, SIGKILL);
			run->timed_out = true;
			run->aborted = xasprintf("timeout after %u s", o->timeout_s);
			return;
		}
		r = ns_wire_recv_result(fd, &step, &so);
		if (r <= 0)
			return;
		if (step == NS_WIRE_ABORT) {
			free(run->aborted);
			run->aborted = so.output;
			run->setup_failed = so.err != 0;
			continue;
		}
		if (step < sc->nsteps && !run->obs[step].ran) {
			run->obs[step].ran = true;
			run->obs[step].out = so;
		} else {
			free(so.output);
		}
	}
}

/* The sandbox went away without saying why (killed from outside, or a
 * crash): if any step has no result, that is the abort reason. */
static void note_early_end(const struct ns_scenario *sc, struct ns_run *run, int status)
{
	size_t ran = 0;

	while (ran < sc->nsteps && run->obs[ran].ran)
		ran++;
	if (ran == sc->nsteps)
		return;
	if (WIFSIGNALED(status))
		run->aborted = xasprintf("the sandbox ended before the step at line %d (signal %d)",
					 sc->steps[ran].line, WTERMSIG(status));
	else
		run->aborted = xasprintf("the sandbox ended before the step at line %d (status %d)",
					 sc->steps[ran].line, WEXITSTATUS(status));
}

static void kernel_run(const struct ns_scenario *sc, const struct ns_run_opts *o,
		       struct ns_run *run)
{
	pid_t self = getpid(), pid;
	int p[2], status = 0;

	memset(run, 0, sizeof(*run));
	run->n = sc->nsteps;
	run->obs = xcalloc(sc->nsteps, sizeof(*run->obs));
	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		run->aborted = xasprintf("cannot start the sandbox: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);
		tie_to_parent(self);
		close(p[0]);
		sandbox_main(sc, o, p[1]);
	}
	setpgid(pid, pid);
	close(p[1]);
	collect(p[0], pid, sc, o, run);
	close(p[0]);
	/* Whatever is left of the sandbox's process group goes now. */
	kill(-pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (!run->aborted)
		note_early_end(sc, run, status);
}

static int kernel_prepare(const struct ns_run_opts *o, struct ns_buf *err)
{
	return ns_devices_prepare(o->devices, err);
}

const struct ns_backend ns_backend_kernel = {
	.name = "kernel",
	.prepare = kernel_prepare,
	.run = kernel_run,
};

void ns_run_free(struct ns_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->obs[i].out.output);
	free(r->obs);
	free(r->aborted);
	memset(r, 0, sizeof(*r));
}
