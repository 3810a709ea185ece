/* runner.c - see runner.h.
 *
 * Up to N worker processes, each started once and reused: the runner
 * hands a worker a scenario's index, the worker plays it (the backend),
 * writing each step's result as it comes to a memfd the two share, and
 * then sends an end frame down its pipe. Results in a memfd wake nobody
 * up, and they outlive a worker that is killed half-way. The runner
 * waits on every worker's pipe, kills a worker's process group at its
 * scenario's deadline (the watchdog), rebuilds and judges each run when
 * it ends, and releases results strictly in list order. A worker that
 * dies, is killed or cannot go on is replaced for the next scenario.
 * Workers die with the runner. */
#include "runner.h"

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

#include "require.h"
#include "wire.h"

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE };

struct job {
	enum job_state state;
	struct ns_buf data;        /* the frames its worker wrote */
	struct timespec start;
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
	int fd;                    /* its end frames come from here */
	int store;                 /* the memfd its result frames go to */
	struct ns_buf ends;        /* what came from fd */
	size_t scanned;            /* ends before this holds no end frame */
	size_t job;                /* what it plays, when busy */
	bool busy;
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
	bool ready;
	uint32_t i;

	/* its own process group, for the watchdog to kill with what it starts */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	ready = R->o->backend->worker_init(&R->o->run, &err) == 0;
	while (ns_wire_recv_index(cmd, &i) == 1 && i < R->n) {
		struct ns_run_opts ro = R->o->run;
		int status = 0, again = -1;

		ro.devices = R->modes[i];
		/* the runner has read the last scenario's results by now */
		if (ftruncate(store, 0) < 0 || lseek(store, 0, SEEK_SET) < 0)
			_exit(1);
		if (ready)
			again = R->o->backend->play(R->sc[i], &ro, store, &status);
		else
			ns_wire_send_abort(store, ns_buf_str(&err), true);
		if (ns_wire_send_end(fd, status, again < 0) < 0 || again < 0)
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
	ns_buf_free(&w->ends);
	w->scanned = 0;
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

/* The results the worker wrote for its job. */
static void load_results(struct worker *w, struct job *j)
{
	char chunk[65536];
	off_t at = 0;
	ssize_t got;

	while ((got = pread(w->store, chunk, sizeof(chunk), at)) > 0 ||
	       (got < 0 && errno == EINTR)) {
		if (got > 0) {
			ns_buf_add(&j->data, chunk, (size_t)got);
			at += got;
		}
	}
}

/* The worker has gone (or is to go): all of its process group with it,
 * after the results of a job it still had are taken. */
static int bury_worker(struct worker *w, struct job *j)
{
	int status = 0;

	kill(-w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (j)
		load_results(w, j);
	close_worker_fds(w);
	w->pid = 0;
	w->busy = false;
	return status;
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
	ns_judge(R->sc[i], &j->run, &j->v);
	j->state = JOB_DONE;
	R->running--;
}

static void fail_to_start(struct runner *R, size_t i)
{
	struct job *j = &R->jobs[i];

	memset(&j->run, 0, sizeof(j->run));
	j->run.n = R->sc[i]->nsteps;
	j->run.obs = xcalloc(j->run.n, sizeof(*j->run.obs));
	j->run.aborted = xasprintf("cannot start a worker: %s", strerror(errno));
	ns_judge(R->sc[i], &j->run, &j->v);
	j->state = JOB_DONE;
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

static struct worker *idle_worker(struct runner *R)
{
	for (size_t k = 0; k < R->nw; k++)
		if (!R->w[k].busy)
			return &R->w[k];
	return NULL;
}

/* Start scenario i: a skip is decided here, a run goes to a worker. */
static void start_job(struct runner *R, size_t i)
{
	struct job *j = &R->jobs[i];
	char *unmet = ns_require_unmet(R->sc[i], &R->o->run);
	struct worker *w;

	clock_gettime(CLOCK_MONOTONIC, &j->start);
	j->devices = R->modes[i] == NS_DEVICES_LOOP ? "loop" : "tmpfs";
	if (R->h->started)
		R->h->started(R->h->ctx, i);
	if (unmet) {
		ns_verdict_skip(&j->v, unmet);
		j->skipped = true;
		j->state = JOB_DONE;
		return;
	}
	w = idle_worker(R);
	/* an idle worker that ended meanwhile (killed, or could not go on)
	 * is replaced */
	if (w->pid > 0 && waitpid(w->pid, NULL, WNOHANG) == w->pid) {
		kill(-w->pid, SIGKILL);
		close_worker_fds(w);
		w->pid = 0;
	}
	if (w->pid == 0 && spawn_worker(R, w) < 0) {
		fail_to_start(R, i);
		return;
	}
	/* if it died just now, its pipe ends and the job ends with it */
	send_index(w->cmd, (uint32_t)i);
	w->busy = true;
	w->job = i;
	j->state = JOB_RUNNING;
	R->running++;
}

static void emit_ready(struct runner *R)
{
	while (R->emitted < R->n && R->jobs[R->emitted].state == JOB_DONE) {
		struct job *j = &R->jobs[R->emitted];
		struct ns_result r = { R->sc[R->emitted], j->skipped ? NULL : &j->run,
				       &j->v, j->seconds, j->devices };

		R->h->result(R->h->ctx, R->emitted, &r);
		if (R->o->stop_on_fail && (j->v.status == NS_FAIL || j->v.status == NS_XPASS))
			R->stopping = true;
		R->emitted++;
		if (R->stopping)
			return;
	}
}

/* The watchdog: milliseconds until the first running job's deadline
 * (-1: none), killing the worker of every job already past it. */
static int watchdog(struct runner *R)
{
	double limit = R->o->run.timeout_s, first = -1;

	if (!limit)
		return -1;
	for (size_t k = 0; k < R->nw; k++) {
		struct worker *w = &R->w[k];
		struct job *j = &R->jobs[w->job];
		double left;
		if (!w->busy || j->timed_out)
			continue;
		left = limit - since(&j->start);
		if (left <= 0) {
			/* its pipe reaches EOF now, and pump() finishes it */
			kill(-w->pid, SIGKILL);
			j->timed_out = true;
		} else if (first < 0 || left < first) {
			first = left;
		}
	}
	return first < 0 ? -1 : first > 60 ? 60000 : (int)(first * 1000) + 1;
}

/* Take what worker w has written: finish its job at the end frame, or
 * when the worker is gone. */
static void take(struct runner *R, struct worker *w)
{
	struct job *j = &R->jobs[w->job];
	char chunk[4096];
	ssize_t got = read(w->fd, chunk, sizeof(chunk));
	bool last;
	int status;

	if (got < 0 && errno == EINTR)
		return;
	if (got <= 0) {
		status = bury_worker(w, j);
		finish_job(R, w->job, status);
		return;
	}
	ns_buf_add(&w->ends, chunk, (size_t)got);
	if (ns_wire_find_end(w->ends.data, w->ends.len, &w->scanned, &status, &last)) {
		/* the end frame is the last thing a worker sends for a job */
		if (last)
			bury_worker(w, j);
		else
			load_results(w, j);
		ns_buf_reset(&w->ends);
		w->scanned = 0;
		w->busy = false;
		finish_job(R, w->job, status);
	}
}

/* Read what the busy workers have written. */
static void pump(struct runner *R)
{
	struct pollfd *pf = xcalloc(R->nw, sizeof(*pf));
	struct worker **of = xcalloc(R->nw, sizeof(*of));
	int wait_ms = watchdog(R);
	size_t k = 0;

	for (size_t m = 0; m < R->nw; m++) {
		if (!R->w[m].busy)
			continue;
		pf[k].fd = R->w[m].fd;
		pf[k].events = POLLIN;
		of[k++] = &R->w[m];
	}
	if (poll(pf, k, wait_ms) > 0)
		for (size_t m = 0; m < k; m++)
			if (pf[m].revents)
				take(R, of[m]);
	free(pf);
	free(of);
}

/* Nothing more to hand out: each worker ends once its scenario is over,
 * while the runner judges and reports, instead of after. */
static void retire_workers(struct runner *R)
{
	for (size_t k = 0; k < R->nw; k++) {
		if (R->w[k].cmd >= 0)
			close(R->w[k].cmd);
		R->w[k].cmd = -1;
	}
}

/* -x: the scenarios still running are not wanted any more. */
static void abandon(struct runner *R)
{
	for (size_t k = 0; k < R->nw; k++) {
		struct worker *w = &R->w[k];
		if (!w->busy)
			continue;
		bury_worker(w, NULL);
		ns_buf_free(&R->jobs[w->job].data);
		R->jobs[w->job].state = JOB_WAITING;
	}
}

static void free_all(struct runner *R)
{
	for (size_t k = 0; k < R->nw; k++)
		if (R->w[k].pid > 0)
			bury_worker(&R->w[k], NULL);
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
		R.modes[i] = ns_require_mode(sc[i], &o->run);
	R.nw = jobs;
	R.w = xcalloc(R.nw, sizeof(*R.w));
	for (size_t k = 0; k < R.nw; k++)
		R.w[k].cmd = R.w[k].fd = R.w[k].store = -1;
	while (R.emitted < n && !R.stopping) {
		while (R.next < n && R.running < jobs && !R.stopping) {
			start_job(&R, R.next++);
			if (R.next == n)
				retire_workers(&R);
		}
		emit_ready(&R);
		if (R.running && !R.stopping)
			pump(&R);
	}
	abandon(&R);
	free_all(&R);
	return R.emitted;
}
