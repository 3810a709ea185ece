/* runner.c - see runner.h.
 *
 * Each scenario runs in a worker process that plays it (the backend) and
 * writes each step's result down a pipe as it comes. The runner reads
 * every worker's pipe as data arrives (so no worker ever blocks on a full
 * pipe), kills a worker's process group at its deadline (the watchdog),
 * rebuilds and judges each run when its worker is done, and releases
 * results strictly in list order. Workers die with the runner. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "require.h"
#include "wire.h"

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE };

struct job {
	enum job_state state;
	pid_t pid;
	int fd;
	struct ns_buf data;
	struct timespec start;
	double seconds;
	bool timed_out;
	bool skipped;
	struct ns_run run;
	struct ns_verdict v;
	const char *devices;
};

struct runner {
	struct ns_scenario *const *sc;
	size_t n;
	const struct ns_runner_opts *o;
	const struct ns_runner_hooks *h;
	struct job *jobs;
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

static void __attribute__((noreturn))
worker(const struct runner *R, size_t i, int fd, pid_t parent)
{
	struct ns_run_opts ro = R->o->run;

	/* its own process group, for the watchdog to kill with what it starts */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	ro.devices = ns_require_mode(R->sc[i], &R->o->run);
	R->o->backend->play(R->sc[i], &ro, fd);
}

/* Start scenario i: a skip is decided here, a run goes to a worker. */
static void start_job(struct runner *R, size_t i)
{
	struct job *j = &R->jobs[i];
	char *unmet = ns_require_unmet(R->sc[i], &R->o->run);
	pid_t self = getpid();
	int p[2];

	clock_gettime(CLOCK_MONOTONIC, &j->start);
	j->devices = ns_require_mode(R->sc[i], &R->o->run) == NS_DEVICES_LOOP ? "loop" : "tmpfs";
	if (R->h->started)
		R->h->started(R->h->ctx, i);
	if (unmet) {
		ns_verdict_skip(&j->v, unmet);
		j->skipped = true;
		j->state = JOB_DONE;
		return;
	}
	if (pipe2(p, O_CLOEXEC) < 0 || (j->pid = fork()) < 0) {
		memset(&j->run, 0, sizeof(j->run));
		j->run.n = R->sc[i]->nsteps;
		j->run.obs = xcalloc(j->run.n, sizeof(*j->run.obs));
		j->run.aborted = xasprintf("cannot start a worker: %s", strerror(errno));
		ns_judge(R->sc[i], &j->run, &j->v);
		j->state = JOB_DONE;
		return;
	}
	if (j->pid == 0) {
		close(p[0]);
		worker(R, i, p[1], self);
	}
	setpgid(j->pid, j->pid);
	close(p[1]);
	j->fd = p[0];
	j->state = JOB_RUNNING;
	R->running++;
}

/* Why a run has no reason of its own for missing steps: the watchdog, or
 * the worker ended without saying (killed from outside, or a crash). */
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
	if (!clean && ran < sc->nsteps)
		run->aborted = xasprintf("the sandbox ended with the step at line %d unfinished (%s %d)",
					 sc->steps[ran].line, how, code);
	else if (!clean)
		run->aborted = xasprintf("the sandbox ended with %s %d", how, code);
	else if (!whole)
		run->aborted = xstrdup("the sandbox's report was cut short");
}

static void finish_job(struct runner *R, size_t i)
{
	struct job *j = &R->jobs[i];
	int status = 0;
	bool whole;

	close(j->fd);
	/* whatever is left of the worker's process group goes now */
	kill(-j->pid, SIGKILL);
	waitpid(j->pid, &status, 0);
	whole = ns_wire_parse_run(ns_buf_str(&j->data), j->data.len, R->sc[i]->nsteps, &j->run);
	ns_buf_free(&j->data);
	note_early_end(R->sc[i], R->o->run.timeout_s, j, status, whole, &j->run);
	j->seconds = since(&j->start);
	ns_judge(R->sc[i], &j->run, &j->v);
	j->state = JOB_DONE;
	R->running--;
}

/* Hand out every result that is next in list order. */
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
	for (size_t i = 0; i < R->next; i++) {
		struct job *j = &R->jobs[i];
		double left;
		if (j->state != JOB_RUNNING || j->timed_out)
			continue;
		left = limit - since(&j->start);
		if (left <= 0) {
			/* its pipe reaches EOF now, and pump() finishes it */
			kill(-j->pid, SIGKILL);
			j->timed_out = true;
		} else if (first < 0 || left < first) {
			first = left;
		}
	}
	return first < 0 ? -1 : first > 60 ? 60000 : (int)(first * 1000) + 1;
}

/* Read what the running workers have written; finish those at EOF. */
static void pump(struct runner *R)
{
	struct pollfd *pf = xcalloc(R->running, sizeof(*pf));
	size_t *idx = xcalloc(R->running, sizeof(*idx));
	int wait_ms = watchdog(R);
	size_t k = 0;

	for (size_t i = 0; i < R->next; i++) {
		if (R->jobs[i].state != JOB_RUNNING)
			continue;
		pf[k].fd = R->jobs[i].fd;
		pf[k].events = POLLIN;
		idx[k++] = i;
	}
	if (poll(pf, k, wait_ms) > 0) {
		for (size_t m = 0; m < k; m++) {
			char chunk[65536];
			ssize_t got;

			if (!pf[m].revents)
				continue;
			got = read(pf[m].fd, chunk, sizeof(chunk));
			if (got > 0)
				ns_buf_add(&R->jobs[idx[m]].data, chunk, (size_t)got);
			else if (got == 0 || errno != EINTR)
				finish_job(R, idx[m]);
		}
	}
	free(pf);
	free(idx);
}

/* -x: the workers still running are not wanted any more. */
static void abandon(struct runner *R)
{
	for (size_t i = 0; i < R->next; i++) {
		struct job *j = &R->jobs[i];
		if (j->state != JOB_RUNNING)
			continue;
		kill(j->pid, SIGKILL);
		close(j->fd);
		waitpid(j->pid, NULL, 0);
		ns_buf_free(&j->data);
		j->state = JOB_WAITING;
	}
}

static void free_jobs(struct runner *R)
{
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
	while (R.emitted < n && !R.stopping) {
		while (R.next < n && R.running < jobs && !R.stopping)
			start_job(&R, R.next++);
		emit_ready(&R);
		if (R.running && !R.stopping)
			pump(&R);
	}
	abandon(&R);
	free_jobs(&R);
	return R.emitted;
}
