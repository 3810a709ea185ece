/* runner.c - see runner.h.
 *
 * Up to N worker processes, each started once and reused. The runner
 * hands a worker a scenario's index, and the next one ahead, so that the
 * worker never waits for the runner between scenarios. The worker plays
 * each (the backend), writing each step's result as it comes to a memfd
 * the two share, then an end frame, and a byte down its pipe to wake the
 * runner. Results in a memfd wake nobody up per step, and they outlive a
 * worker that is killed half-way. The runner waits on every worker's
 * pipe, kills a worker's process group at its scenario's deadline (the
 * watchdog), rebuilds and judges each run when it ends, and releases
 * results strictly in list order. A worker that dies, is killed or cannot
 * go on is replaced; a scenario it had not begun goes to the new one.
 * A stop request (a signal, runner.h) ends the loop as -x does, but hands
 * out every result that is in and names the scenarios that have none.
 * Workers die with the runner. */
#include "run/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mounts/findmnt.h"
#include "run/require.h"
#include "commands/command.h"
#include "run/verdict.h"
#include "run/wire.h"

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE, JOB_EMITTED };

struct job {
	enum job_state state;
	struct ns_buf data;        /* the frames its worker wrote */
	struct timespec start;
	/* the watchdog's clock: seconds it played while neither its worker
	 * nor the runner was stopped (SIGSTOP, ^Z, a debugger) */
	double active;
	double seconds;
	bool timed_out;
	bool skipped;
	struct ns_run run;
	struct ns_verdict v;
	const char *devices;
};

struct worker {
	pid_t pid;                 /* 0: not started, or gone */
	int cmd;                   /* scenario indexes go here */
	int fd;                    /* a byte per scenario played comes here */
	int store;                 /* the memfd its frames go to */
	off_t read_at;             /* store is read up to here */
	off_t freed_to;            /* and given back up to here */
	struct ns_buf pending;     /* frames read, not yet a whole scenario */
	size_t scanned;            /* pending before this has no end frame */
	size_t q[2];               /* its scenarios: playing, then next */
	unsigned nq;
};

struct runner {
	struct ns_scenario *const *sc;
	size_t n;
	const struct ns_runner_opts *o;
	const struct ns_runner_hooks *h;
	struct job *jobs;
	enum ns_devices_mode *modes; /* decided here, before any worker */
	struct worker *w;
	size_t nw;
	size_t next;       /* next job to start */
	size_t emitted;    /* results handed out so far */
	size_t running;
	bool stopping;     /* -x saw a failure */
	/* the watchdog's last look, and how long the runner then meant to
	 * wait: a gap beyond that is time the runner was stopped */
	struct timespec tick;
	bool ticking;
	double wait_s;
};

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The worker: play each scenario whose index arrives, end each with an
 * end frame, until the runner closes the pipe or the worker cannot go on. */
static void __attribute__((noreturn))
worker_main(const struct runner *R, int cmd, int fd, int store, pid_t parent)
{
	struct ns_buf err = NS_BUF_INIT;
	void *state = NULL;
	bool ready;
	uint32_t i;

	/* its own process group, for the watchdog to kill with what it starts */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	ready = R->o->backend->worker_init(&R->o->run, &state, &err) == 0;
	while (ns_wire_recv_index(cmd, &i) == 1 && i < R->n) {
		struct ns_run_opts ro = R->o->run;
		int status = 0, again = -1;

		ro.devices = R->modes[i];
		if (ready)
			again = R->o->backend->play(state, R->sc[i], &ro, store, &status);
		else
			ns_wire_send_abort(store, ns_buf_str(&err), true);
		/* the worker's own copy, never played again: what playing grew in
		 * it (the regex matchers' state caches: 60 kB for the article's
		 * 03-bind) would otherwise pile up over a long run */
		ns_scenario_free(R->sc[i]);
		if (ns_wire_send_end(store, status, again < 0) < 0 ||
		    ns_write_all(fd, "", 1) < 0 || again < 0)
			_exit(0);
	}
	_exit(0);
}

static void close_worker_fds(struct worker *w)
{
	if (w->cmd >= 0)
		close(w->cmd);
	close(w->fd);
	close(w->store);
	w->cmd = w->fd = w->store = -1;
	ns_buf_free(&w->pending);
	w->scanned = 0;
	w->read_at = w->freed_to = 0;
}

/* Start the process of worker slot w. 0, or -1 with errno. */
static int spawn_worker(struct runner *R, struct worker *w)
{
	pid_t self = getpid();
	int c[2], r[2];

	w->store = memfd_create("nstest-results", MFD_CLOEXEC);
	if (w->store < 0)
		return -1;
	if (pipe2(c, O_CLOEXEC) < 0) {
		close(w->store);
		return -1;
	}
	if (pipe2(r, O_CLOEXEC) < 0) {
		close(w->store);
		close(c[0]);
		close(c[1]);
		return -1;
	}
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;
		close(c[0]), close(c[1]), close(r[0]), close(r[1]), close(w->store);
		w->pid = 0;
		errno = e;
		return -1;
	}
	if (w->pid == 0) {
		/* no other worker's pipe stays open here */
		for (size_t k = 0; k < R->nw; k++)
			if (R->w[k].pid > 0)
				close_worker_fds(&R->w[k]);
		close(c[1]);
		close(r[0]);
		worker_main(R, c[0], r[1], w->store, self);
	}
	setpgid(w->pid, w->pid);
	close(c[0]);
	close(r[1]);
	w->cmd = c[1];
	w->fd = r[0];
	return 0;
}

/* Read what the worker has written to its store since last time. Frames
 * are only ever appended, so what was read stays as it was. */
static void read_store(struct worker *w)
{
	char chunk[65536];
	ssize_t got;

	while ((got = pread(w->store, chunk, sizeof(chunk), w->read_at)) > 0 ||
	       (got < 0 && errno == EINTR)) {
		if (got > 0) {
			ns_buf_add(&w->pending, chunk, (size_t)got);
			w->read_at += got;
		}
	}
	/* the memory of what was read goes back, a MiB at a time */
	if (w->read_at - w->freed_to >= (1 << 20)) {
		off_t to = w->read_at & ~(off_t)4095;
		if (fallocate(w->store, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      0, to) == 0)
			w->freed_to = to;
	}
}

/* The worker's process group goes; its status. */
static int stop_worker(struct worker *w)
{
	int status = 0;

	kill(-w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

static void bury_worker(struct worker *w)
{
	stop_worker(w);
	close_worker_fds(w);
	w->pid = 0;
	w->nq = 0;
}

/* Why a run has no reason of its own for missing steps: the watchdog, or
 * the sandbox ended without saying (killed from outside, or a crash). */
static void note_early_end(const struct ns_scenario *sc, unsigned timeout_s,
			   const struct job *j, int status, bool whole,
			   struct ns_run *run)
{
	bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	const char *how = WIFSIGNALED(status) ? "signal" : "status";
	int code = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	size_t ran = 0;

	if (j->timed_out) {
		free(run->aborted);
		run->aborted = xasprintf("timeout after %u s", timeout_s);
		run->timed_out = true;
		return;
	}
	if (run->aborted)
		return; /* the sandbox said why */
	while (ran < sc->nsteps && run->obs[ran].ran)
		ran++;
	if (ran < sc->nsteps)
		run->aborted = xasprintf("the sandbox ended with the step at line %d unfinished (%s %d)",
					 sc->steps[ran].line, how, code);
	else if (!clean)
		run->aborted = xasprintf("the sandbox ended with %s %d", how, code);
	else if (!whole)
		run->aborted = xstrdup("the sandbox's report was cut short");
}

/* Judge job i, whose worker sent its end frame (status from it) or went
 * away (status from waitpid). */
static void finish_job(struct runner *R, size_t i, int status)
{
	struct job *j = &R->jobs[i];
	bool whole;

	whole = ns_wire_parse_run(ns_buf_str(&j->data), j->data.len, R->sc[i]->nsteps, &j->run);
	ns_buf_free(&j->data);
	note_early_end(R->sc[i], R->o->run.timeout_s, j, status, whole, &j->run);
	j->seconds = since(&j->start);
	ns_judge(R->sc[i], &j->run, R->o->backend->release(&R->o->run), &j->v);
	j->state = JOB_DONE;
	R->running--;
}

/* Scenario i cannot start for nstest's own trouble (why, taken; err its
 * errno, or 0): none of it runs, and it is not judged (run/trouble.h). */
static void fail_to_start(struct runner *R, size_t i, char *why, int err)
{
	struct job *j = &R->jobs[i];

	memset(&j->run, 0, sizeof(j->run));
	j->run.n = R->sc[i]->nsteps;
	j->run.obs = xcalloc(j->run.n, sizeof(*j->run.obs));
	j->run.aborted = why;
	j->run.abort_err = err;
	j->run.setup_failed = true;
	ns_judge(R->sc[i], &j->run, R->o->backend->release(&R->o->run), &j->v);
	j->state = JOB_DONE;
	R->running--;
}

/* Hand a worker a scenario. A worker that died meanwhile must not take
 * the runner with it: SIGPIPE is held back and dropped. */
static void send_index(int fd, uint32_t i)
{
	static const struct timespec now = { 0, 0 };
	sigset_t pipe_set, old;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	if (ns_wire_send_index(fd, i) == -EPIPE)
		sigtimedwait(&pipe_set, NULL, &now);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The worker with room for a scenario: the least loaded one. */
static struct worker *free_worker(struct runner *R)
{
	struct worker *best = NULL;

	for (size_t k = 0; k < R->nw; k++)
		if (R->w[k].nq < 2 && (!best || R->w[k].nq < best->nq))
			best = &R->w[k];
	return best;
}

/* Hand scenario i to worker w, starting a process for it if it has none
 * (or has one that ended meanwhile: killed, or could not go on). */
static void dispatch(struct runner *R, struct worker *w, size_t i)
{
	struct job *j = &R->jobs[i];

	if (w->pid > 0 && !w->nq && waitpid(w->pid, NULL, WNOHANG) == w->pid) {
		kill(-w->pid, SIGKILL);
		close_worker_fds(w);
		w->pid = 0;
	}
	if (w->pid == 0 && spawn_worker(R, w) < 0) {
		int e = errno;
		fail_to_start(R, i, xasprintf("cannot start a worker: %s", strerror(e)), e);
		return;
	}
	/* if it died just now, its pipe ends and the scenario with it */
	send_index(w->cmd, (uint32_t)i);
	/* it starts now, or when the one before it ends */
	if (!w->nq)
		clock_gettime(CLOCK_MONOTONIC, &j->start);
	j->active = 0;
	w->q[w->nq++] = i;
	j->state = JOB_RUNNING;
	/* nothing more to hand out: each worker ends once its scenarios are
	 * over, while the runner judges and reports, instead of after */
	if (R->next == R->n)
		for (size_t k = 0; k < R->nw; k++) {
			if (R->w[k].cmd >= 0)
				close(R->w[k].cmd);
			R->w[k].cmd = -1;
		}
}

/* Start scenario i: a skip is decided here, a run goes to a worker. */
static void start_job(struct runner *R, size_t i)
{
	struct job *j = &R->jobs[i];
	bool trouble;
	char *unmet = ns_require_unmet(R->sc[i], &R->o->run, R->o->backend, &trouble);

	clock_gettime(CLOCK_MONOTONIC, &j->start);
	j->active = 0;
	j->devices = R->modes[i] == NS_DEVICES_LOOP ? "loop" : "tmpfs";
	if (R->h->started)
		R->h->started(R->h->ctx, i);
	if (unmet && trouble) {
		R->running++; /* which fail_to_start ends */
		fail_to_start(R, i, unmet, 0);
		return;
	}
	if (unmet) {
		ns_verdict_skip(&j->v, unmet);
		j->skipped = true;
		j->state = JOB_DONE;
		return;
	}
	R->running++;
	dispatch(R, free_worker(R), i);
}

static void emit_one(struct runner *R, size_t i)
{
	struct job *j = &R->jobs[i];
	struct ns_result r = { R->sc[i], j->skipped ? NULL : &j->run,
			       &j->v, j->seconds, j->devices };

	R->h->result(R->h->ctx, i, &r);
	if (R->o->stop_on_fail && (j->v.status == NS_FAIL || j->v.status == NS_XPASS))
		R->stopping = true;
	/* handed out: a long run keeps nothing of it */
	if (!j->skipped)
		ns_run_free(&j->run);
	ns_verdict_free(&j->v);
	j->state = JOB_EMITTED;
	R->emitted++;
}

static void emit_ready(struct runner *R)
{
	while (R->emitted < R->n && R->jobs[R->emitted].state == JOB_DONE && !R->stopping)
		emit_one(R, R->emitted);
}

static bool stop_requested(const struct runner *R)
{
	return R->o->stop && R->o->stop->sig;
}

/* Is process pid stopped (SIGSTOP, ^Z, a tracer)? From the state letter
 * of /proc/PID/stat, which follows the name's closing parenthesis. */
static bool stopped(pid_t pid)
{
	char path[32], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'T' || p[2] == 't');
}

/* Add the time since the last look to each playing scenario whose worker
 * is not stopped. A gap longer than the runner meant to wait (and half a
 * second) is time the runner itself was stopped: only the wait counts. */
static void watchdog_tick(struct runner *R)
{
	struct timespec now;
	double dt = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (R->ticking) {
		dt = (double)(now.tv_sec - R->tick.tv_sec) +
		     (double)(now.tv_nsec - R->tick.tv_nsec) / 1e9;
		if (dt > R->wait_s + 0.5)
			dt = R->wait_s;
	}
	R->tick = now;
	R->ticking = true;
	for (size_t k = 0; dt > 0 && k < R->nw; k++) {
		struct worker *w = &R->w[k];
		struct job *j = &R->jobs[w->q[0]];
		double wall;

		if (!w->nq || stopped(w->pid))
			continue;
		/* never more than it has been playing: it may have begun
		 * after the last look */
		wall = since(&j->start);
		j->active = j->active + dt < wall ? j->active + dt : wall;
	}
}

/* The watchdog: milliseconds until the first playing scenario's deadline
 * (-1: none), killing the worker of every one already past it. Its clock
 * is each scenario's active time (struct job), so a stopped run does not
 * time out when it goes on; it looks at least once a second. */
static int watchdog(struct runner *R)
{
	double limit, first = -1;

	if (R->o->run.timeout_s == 0)      /* 0 = no timeout */
		return -1;
	limit = R->o->run.timeout_s;
	watchdog_tick(R);
	for (size_t k = 0; k < R->nw; k++) {
		struct worker *w = &R->w[k];
		struct job *j = &R->jobs[w->q[0]];
		double left;
		if (!w->nq || j->timed_out)
			continue;
		left = limit - j->active;
		if (left <= 0) {
			/* its pipe reaches EOF now, and pump() finishes it */
			kill(-w->pid, SIGKILL);
			j->timed_out = true;
		} else if (first < 0 || left < first) {
			first = left;
		}
	}
	R->wait_s = first < 0 ? 1.0 : first > 1 ? 1.0 : first + 0.001;
	return first < 0 ? -1 : first > 1 ? 1000 : (int)(first * 1000) + 1;
}

/* The scenario w was playing is over: judge it, and the next one, if
 * any, is playing now. */
static void next_in_queue(struct runner *R, struct worker *w, int status)
{
	size_t i = w->q[0];

	w->q[0] = w->q[1];
	w->nq--;
	finish_job(R, i, status);
	if (w->nq) {
		clock_gettime(CLOCK_MONOTONIC, &R->jobs[w->q[0]].start);
		R->jobs[w->q[0]].active = 0;
	}
}

/* Judge each scenario of w whose end frame is in; true when the worker
 * said with one that it ends (it could not go back to its base). */
static bool take_ends(struct runner *R, struct worker *w)
{
	bool last = false;
	int status;

	read_store(w);
	while (w->nq && !last &&
	       ns_wire_find_end(w->pending.data, w->pending.len, &w->scanned, &status, &last)) {
		struct job *j = &R->jobs[w->q[0]];
		size_t frame = ns_wire_frame_size(w->pending.data + w->scanned,
						  w->pending.len - w->scanned);

		ns_buf_add(&j->data, w->pending.data, w->scanned);
		ns_buf_drop(&w->pending, w->scanned + frame);
		w->scanned = 0;
		next_in_queue(R, w, status);
	}
	return last;
}

/* Worker w is gone, or going. Scenarios it finished are judged; unless it
 * ended by itself, the one it was playing ends with what it wrote; one it
 * had not begun goes to a new worker in its place. */
static void lost_worker(struct runner *R, struct worker *w, bool ended_itself)
{
	int status = stop_worker(w);

	take_ends(R, w);
	if (w->nq && !ended_itself) {
		ns_buf_add(&R->jobs[w->q[0]].data, w->pending.data, w->pending.len);
		next_in_queue(R, w, status);
	}
	close_worker_fds(w);
	w->pid = 0;
	if (w->nq) {
		size_t unstarted = w->q[0];
		w->nq = 0;
		dispatch(R, w, unstarted);
	}
}

/* Take what worker w has written: each whole scenario up to its end
 * frame, or, when the worker is gone, what there is. */
static void take(struct runner *R, struct worker *w)
{
	char ticks[256];
	ssize_t got = read(w->fd, ticks, sizeof(ticks));

	if (got < 0 && errno == EINTR)
		return;
	if (got <= 0)
		lost_worker(R, w, false);
	else if (take_ends(R, w))
		lost_worker(R, w, true);
}

/* Read what the busy workers have written. */
static void pump(struct runner *R)
{
	struct pollfd *pf = xcalloc(R->nw + 1, sizeof(*pf));
	struct worker **of = xcalloc(R->nw + 1, sizeof(*of));
	int wait_ms = watchdog(R);
	size_t k = 0;

	/* the tick hook is called at least once a second */
	if (R->h->tick && (wait_ms < 0 || wait_ms > 1000))
		wait_ms = 1000;

	for (size_t m = 0; m < R->nw; m++) {
		if (!R->w[m].nq)
			continue;
		pf[k].fd = R->w[m].fd;
		pf[k].events = POLLIN;
		of[k++] = &R->w[m];
	}
	/* a stop request wakes the wait; the main loop sees it */
	if (R->o->stop) {
		pf[k].fd = R->o->stop->fd;
		pf[k++].events = POLLIN;
	}
	if (poll(pf, k, wait_ms) > 0)
		for (size_t m = 0; m < k; m++)
			if (pf[m].revents && of[m])
				take(R, of[m]);
	free(pf);
	free(of);
}

static bool playing(const struct runner *R, size_t i)
{
	for (size_t k = 0; k < R->nw; k++)
		if (R->w[k].nq && R->w[k].q[0] == i)
			return true;
	return false;
}

/* A stop request: what the workers finished meanwhile is taken, then
 * every result there is handed out in list order, and each scenario
 * without one is named, with whether it was playing; abandon() then
 * kills the workers still busy. */
static void hand_out_rest(struct runner *R)
{
	for (size_t k = 0; k < R->nw; k++)
		if (R->w[k].nq)
			take_ends(R, &R->w[k]);
	for (size_t i = R->emitted; i < R->n; i++) {
		if (R->jobs[i].state == JOB_DONE && !R->stopping)
			emit_one(R, i);
		else if (R->jobs[i].state != JOB_EMITTED && R->h->unfinished)
			R->h->unfinished(R->h->ctx, i, playing(R, i));
	}
}

/* -x: the scenarios still running are not wanted any more. */
static void abandon(struct runner *R)
{
	for (size_t k = 0; k < R->nw; k++) {
		struct worker *w = &R->w[k];
		for (unsigned q = 0; q < w->nq; q++) {
			ns_buf_free(&R->jobs[w->q[q]].data);
			R->jobs[w->q[q]].state = JOB_WAITING;
		}
		if (w->nq)
			bury_worker(w);
	}
}

static void free_all(struct runner *R)
{
	for (size_t k = 0; k < R->nw; k++)
		if (R->w[k].pid > 0)
			bury_worker(&R->w[k]);
	free(R->w);
	free(R->modes);
	for (size_t i = 0; i < R->n; i++) {
		if (R->jobs[i].state != JOB_DONE)
			continue;
		if (!R->jobs[i].skipped)
			ns_run_free(&R->jobs[i].run);
		ns_verdict_free(&R->jobs[i].v);
	}
	free(R->jobs);
}

/* findmnt prints in a UTF-8 locale, whose files a worker cannot reach
 * once it has let go of the host's tree: load it here, before the workers
 * fork, and they inherit it; and only for a run that has a findmnt (it
 * costs each worker a fraction of a millisecond, bench/README.md). */
static void prepare_findmnt(struct ns_scenario *const *sc, size_t n)
{
	const struct ns_cmd_def *d;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; (d = ns_cmd_at(k)); k++) {
			if (d->utf8 && ns_cmd_set_has(&sc[i]->commands, d->id)) {
				ns_findmnt_prepare();
				return;
			}
		}
	}
}

size_t ns_runner_run(struct ns_scenario *const *sc, size_t n,
		     const struct ns_runner_opts *o, const struct ns_runner_hooks *h)
{
	struct runner R = { .sc = sc, .n = n, .o = o, .h = h };
	unsigned jobs = o->jobs ? o->jobs : 1;

	R.jobs = xcalloc(n ? n : 1, sizeof(*R.jobs));
	/* a worker has let go of the host's tree (no /dev/loop-control to
	 * look at), so the stand-in modes are chosen here */
	R.modes = xcalloc(n ? n : 1, sizeof(*R.modes));
	for (size_t i = 0; i < n; i++)
		R.modes[i] = ns_require_mode(sc[i], &o->run, o->backend);
	prepare_findmnt(sc, n);
	R.nw = jobs;
	R.w = xcalloc(R.nw, sizeof(*R.w));
	for (size_t k = 0; k < R.nw; k++)
		R.w[k].cmd = R.w[k].fd = R.w[k].store = -1;
	while (R.emitted < n && !R.stopping && !stop_requested(&R)) {
		/* up to two scenarios per worker: one playing, one next */
		while (R.next < n && R.running < 2 * (size_t)jobs && !R.stopping &&
		       !stop_requested(&R))
			start_job(&R, R.next++);
		emit_ready(&R);
		if (R.running && !R.stopping && !stop_requested(&R))
			pump(&R);
		if (h->tick)
			h->tick(h->ctx);
	}
	if (stop_requested(&R))
		hand_out_rest(&R);
	abandon(&R);
	free_all(&R);
	return R.emitted;
}
