/* backend_kernel.c - run scenarios on the real kernel, in a worker.
 *
 * A worker makes its base once (sandbox.c: a private mount namespace on
 * an empty root), then for each scenario it is handed builds a sandbox
 * from the base and writes each step's result to the results fd as it
 * comes (wire.h).
 * - Usually it plays every terminal itself (term_local.c), then lets go
 *   of the sandbox and goes back to its base for the next scenario.
 * - When the scenario has a command no process can undo (command.h,
 *   one_way), the worker, in the sandbox, starts a process per terminal
 *   as the terminal's prompt first appears, hands each step to it over a
 *   socketpair and forwards the result; at the end it reaps them all,
 *   lets go of the sandbox and goes back to its base:
 *
 *       runner ─▶ worker (sandbox) ──fork──▶ process per terminal
 *                         ◀── socketpair per terminal ──┘
 *
 *   (A process of its own for the sandbox cost a fork, and first writes
 *   to a copy of the worker's whole heap, per scenario.)
 *
 * The worker and everything it starts share a process group, so the
 * runner's watchdog kills them all at once; and each dies with its
 * parent. */
#include "run/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/device.h"
#include "kernel/host.h"
#include "kernel/place.h"
#include "kernel/sandbox.h"
#include "kernel/term_local.h"
#include "kernel/lend.h"
#include "kernel/terminal.h"
#include "run/wire.h"

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
	pid_t *pids;                /* shared with the terminals (terminal.h) */
	size_t npids;
};

/* Die with our parent: a killed runner leaves nothing behind. */
static void tie_to_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
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
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		errno = e;
		return NULL;
	}
	if (pid == 0) {
		struct ns_term t = { .sc = c->sc,
				     .procfd = c->sb.procfd, .devs = c->sb.devs,
				     .alive = c->sb.alive,
				     .pids = c->pids, .npids = c->npids,
				     .slot = ns_term_slot(c->sc, name) };
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

static struct term_proc *running(struct controller *c, const char *name, size_t len)
{
	for (size_t i = 0; i < c->n; i++)
		if (strlen(c->t[i].name) == len && !strncmp(c->t[i].name, name, len))
			return &c->t[i];
	return NULL;
}

static struct term_proc *terminal(struct controller *c, const char *name)
{
	struct term_proc *tp = running(c, name, strlen(name));

	return tp ? tp : spawn_terminal(c, name);
}

/* The handles of other terminals the step names (TERM:@NAME), lent to
 * tp's terminal for the step: asked of their owners and passed on, fds
 * over the sockets (kernel/lend.h). 0, or -1 with a broken socket. */
static int lend(struct controller *c, const struct ns_step *st, struct term_proc *tp)
{
	struct ns_lines refs = NS_LINES_INIT;
	int r = 0;

	ns_lend_refs(st, &refs);
	for (size_t i = 0; i < refs.n && r == 0; i++) {
		struct ns_handle_ref ref;
		struct term_proc *owner;
		char name[NS_HANDLE_NAME_MAX];
		int fd = -1, err = ESRCH;

		ns_handle_ref(refs.v[i], &ref);
		owner = running(c, ref.term, ref.term_len);
		snprintf(name, sizeof(name), "%.*s", (int)ref.name_len, ref.name);
		if (owner && ns_lend_ask(owner->fd, name, &fd, &err) < 0)
			r = -1;
		if (r == 0 && ns_lend_send(tp->fd, refs.v[i], fd, err) < 0)
			r = -1;
		if (fd >= 0)
			close(fd);
	}
	ns_lines_free(&refs);
	return r;
}

static void reap(struct term_proc *tp)
{
	close(tp->fd);
	waitpid(tp->pid, NULL, 0);
}

/* A terminal whose first shell ended: its process is gone, and a later
 * prompt of the same name starts a new one. */
static void drop_terminal(struct controller *c, struct term_proc *tp)
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
		int e = errno;
		char msg[160];
		snprintf(msg, sizeof(msg), "cannot start a terminal process: %s", strerror(e));
		ns_wire_send_abort_err(c->out, msg, false, e);
		return -1;
	}
	r = lend(c, st, tp) < 0 ? -1 : ns_wire_send_index(tp->fd, i);
	if (r == 0)
		r = ns_wire_recv_result(tp->fd, &got, &o);
	if (r <= 0) {
		char msg[128];
		snprintf(msg, sizeof(msg), "terminal '%s' died during the step at line %d",
			 st->terminal[0] ? st->terminal : "#", st->line);
		ns_wire_send_abort(c->out, msg, false);
		return -1;
	}
	r = ns_wire_send_result(c->out, i, &o);
	if (o.closed)
		drop_terminal(c, tp);
	ns_step_out_free(&o);
	return r;
}

/* What a worker keeps from its start: where it goes back to after each
 * scenario it plays itself. */
struct worker_base {
	int procfd;
	struct ns_place home;
	mode_t umask;
};

/* Every terminal played by this process (term_local.c). */
static void play_in_process(const struct ns_scenario *sc, struct ns_sandbox *sb, int out)
{
	struct ns_local l;
	struct ns_buf err = NS_BUF_INIT;

	if (ns_local_init(&l, sc, sb, &err) < 0) {
		ns_wire_send_abort(out, ns_buf_str(&err), true);
		ns_buf_free(&err);
		return;
	}
	for (uint32_t i = 0; i < sc->nsteps; i++) {
		struct ns_step_out o;
		int r = ns_local_step(&l, i, &o, &err);
		int e = r < 0 ? errno : 0; /* why it could not go on */

		if (r == 0 || o.output)
			r = ns_wire_send_result(out, i, &o) < 0 ? -1 : r;
		ns_step_out_free(&o);
		if (r < 0) {
			if (err.len)
				ns_wire_send_abort_err(out, ns_buf_str(&err), false, e);
			break;
		}
	}
	ns_local_free(&l);
	ns_buf_free(&err);
}

/* A process per terminal (the one-way case): this process, the worker,
 * is the sandbox and the terminals' controller for the length of the
 * scenario, and lets go of all of it before it goes back to its base:
 * every terminal process reaped (its shells with it), their sockets and
 * process table, the stand-ins and the procfs handle. */
static void play_processes(const struct worker_base *base, const struct ns_scenario *sc,
			   const struct ns_run_opts *o, int out)
{
	struct controller c = { .sc = sc, .out = out };
	struct ns_buf err = NS_BUF_INIT;

	if (ns_sandbox_enter(sc, o, base->procfd, &c.sb, &err) < 0) {
		ns_wire_send_abort(out, ns_buf_str(&err), true);
		goto done;
	}
	/* where each terminal's innermost shell is, for nsenter: a page the
	 * terminal processes share, each writing its own slot */
	c.npids = ns_term_slot(sc, NULL);
	c.pids = mmap(NULL, (c.npids + 1) * sizeof(pid_t), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c.pids == MAP_FAILED) {
		c.pids = NULL;
		ns_wire_send_abort(out, "cannot map the terminals' process table", true);
		goto done;
	}
	for (uint32_t i = 0; i < sc->nsteps; i++)
		if (play_step(&c, i) < 0)
			break;
done:
	for (size_t i = 0; i < c.n; i++)
		reap(&c.t[i]);
	free(c.t);
	if (c.pids)
		munmap(c.pids, (c.npids + 1) * sizeof(pid_t));
	ns_sandbox_free(&c.sb);
	ns_buf_free(&err);
}

static int kernel_worker_init(const struct ns_run_opts *o, void **worker,
			      struct ns_buf *err)
{
	struct worker_base *base = xcalloc(1, sizeof(*base));
	const char *what;

	/* the worker's for as long as it lives: it ends with the process */
	*worker = base;
	base->home = NS_PLACE_NONE;
	if (ns_sandbox_base(o->userns, &base->procfd, err) < 0)
		return -1;
	if (ns_place_save(base->procfd, &base->home, &what) < 0) {
		ns_buf_addf(err, "saving the worker's place: %s", strerror(errno));
		return -1;
	}
	base->umask = umask(022);
	umask(base->umask);
	return 0;
}

static int kernel_play(void *worker, const struct ns_scenario *sc,
		       const struct ns_run_opts *o, int out, int *status)
{
	const struct worker_base *base = worker;
	struct ns_buf err = NS_BUF_INIT;
	struct ns_sandbox sb;
	const char *what;

	*status = 0;
	if (sc->one_way) {
		/* its shells cannot come back: each terminal is a process.
		 * The worker's heap is the runner's, freed chunks all over it
		 * (the scenarios it let go of): handing their pages back first
		 * leaves fewer pages for fork(2) to copy the tables of, and for
		 * every terminal forked to copy on its first writes. */
		malloc_trim(0);
		play_processes(base, sc, o, out);
	} else if (ns_sandbox_enter(sc, o, base->procfd, &sb, &err) < 0) {
		ns_wire_send_abort(out, ns_buf_str(&err), true);
		ns_sandbox_free(&sb);
	} else {
		play_in_process(sc, &sb, out);
		ns_sandbox_free(&sb);
	}
	ns_buf_free(&err);
	/* back to the worker's base: the sandbox's namespace goes with the
	 * last fd that held it */
	umask(base->umask);
	return ns_place_enter(&base->home, &what);
}

static int kernel_prepare(const struct ns_run_opts *o, struct ns_buf *err)
{
	return ns_devices_prepare(o->devices, err);
}

static const char *kernel_release(const struct ns_run_opts *o)
{
	(void)o; /* the running kernel's, whatever the configuration */
	return ns_host_release();
}

const struct ns_backend ns_backend_kernel = {
	.name = "kernel",
	.is_kernel = true,
	.needs_privileges = true,
	.loop_standins = true,
	.has_quirks = false,
	.repeatable = false,
	.fuzz_role = NS_FUZZ_REFERENCE,
	.release = kernel_release,
	.privilege_problem = ns_host_privilege_problem,
	.userns_allowed = ns_host_userns_allowed,
	.loop_devices = ns_host_loop_devices,
	.tmpfs_remounts = ns_host_tmpfs_remounts,
	.tmpfs_inode64 = ns_host_tmpfs_inode64,
	.has_feature = ns_host_has_feature,
	.prepare = kernel_prepare,
	.worker_init = kernel_worker_init,
	.play = kernel_play,
};
