/* runner.c - see runner.h.
 *
 * Each scenario runs in a worker process that drives the backend and
 * writes the whole run down a pipe; the runner reads every worker's pipe
 * as data arrives (so no worker ever blocks on a full pipe), judges each
 * run when its worker is done, and releases results strictly in list
 * order. Workers die with the runner. */
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
	struct ns_run run;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	ro.devices = ns_require_mode(R->sc[i], &R->o->run);
	R->o->backend->run(R->sc[i], &ro, &run);
	ns_wire_send_run(fd, &run);
	_exit(0);
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
	close(p[1]);
	j->fd = p[0];
	j->state = JOB_RUNNING;
	R->running++;
}

static void finish_job(struct runner *R, size_t i)
{
	struct job *j = &R->jobs[i];
	int status = 0;

	close(j->fd);
	waitpid(j->pid, &status, 0);
	ns_wire_parse_run(ns_buf_str(&j->data), j->data.len, R->sc[i]->nsteps, &j->run);
	ns_buf_free(&j->data);
	if (!j->run.aborted && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		j->run.aborted = xasprintf("the worker ended with status %d", status);
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

/* Read what the running workers have written; finish those at EOF. */
static void pump(struct runner *R)
{
	struct pollfd *pf = xcalloc(R->running, sizeof(*pf));
	size_t *idx = xcalloc(R->running, sizeof(*idx));
	size_t k = 0;

	for (size_t i = 0; i < R->next; i++) {
		if (R->jobs[i].state != JOB_RUNNING)
			continue;
		pf[k].fd = R->jobs[i].fd;
		pf[k].events = POLLIN;
		idx[k++] = i;
	}
	if (poll(pf, k, -1) > 0) {
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
