/* tests/faults/killer.c - run a command, SIGKILL parts of its process tree
 * at random moments, and prove that nothing of it outlives it.
 *
 *   killer [-s SEED] [-k KILLS] [-m MAX_MS] [-w WAIT_S] [-r REPORT] -- CMD [ARG...]
 *
 * nstest never execs, so its sandbox and terminal processes all share
 * its command line; they are told apart by their depth below it (found
 * through the ppid field of /proc/PID/stat):
 *
 *   depth 0  nstest       the runner, which holds the watchdogs
 *   depth 1  worker       one per -j slot, reused from scenario to
 *                         scenario; it is the sandbox and plays every
 *                         terminal itself, or, when the scenario needs
 *                         processes, starts them (mke2fs and the
 *                         loop-image helper also sit here, briefly)
 *   depth 2  terminal     a scenario's terminals, one per prompt name,
 *                         when it needs processes
 *   depth 3  shell        their inner shell levels (deeper ones are
 *                         deeper)
 *
 * Each of KILLS kills (default: 1 to 3, at random; 0 for none) waits a log-uniform
 * random time (0.05 ms to MAX_MS, default 1500) after the one before, then
 * picks a role at random (nstest, worker, terminal, shell or any
 * process of the tree) and a random live process of that role, and sends
 * it SIGKILL. If no process has that role at that moment, it retries for
 * a few milliseconds and then takes any process of the tree.
 *
 * The killer makes itself a child subreaper, so every orphan of the tree
 * is reparented to it and cannot slip away unseen; and it marks the tree
 * with an environment variable (nstest does not exec, so the mark is
 * inherited by everything it forks, mke2fs included), so a survivor is
 * also found by a scan of /proc/PID/environ of the whole system.
 *
 * Once CMD has ended (or WAIT_S seconds passed, default 60: a hang), the
 * killer waits up to 10 s for the rest of the tree to end, then reports
 * and kills whatever is left. The report (to REPORT, default stderr) is
 * key=value lines:
 *
 *   seed=N
 *   kill=ROLE:PID@MS          one per kill made (ROLE as above, COMM
 *                             in brackets when not nstest's)
 *   late=MS                   a kill moment after CMD had ended
 *   status=exit:N | signal:N  how CMD ended
 *   cmd_killed=0|1            whether CMD itself got one of the kills
 *   hang=1                    CMD did not end within WAIT_S
 *   survivor=PID PPID STATE COMM   a process of the tree still there
 *   survivors=N
 *   elapsed_ms=MS
 *   maxrss_kb=N               the peak RSS of CMD or of any process of its
 *                             tree that was waited for (getrusage(2))
 *   created=OWNER PID PATH    an entry made in /tmp or /dev/shm while CMD
 *                             ran; OWNER is tree (a process of CMD's tree),
 *                             other, or unknown (gone before it was asked)
 *   fanotify=unavailable      the above could not be watched
 *
 * The entries made in /tmp and /dev/shm are watched with fanotify, which
 * names the process that made each one, so that files other programs make
 * there at the same time are not blamed on CMD.
 * Exit status: 0 no hang and no survivor, 1 otherwise, 2 usage or error. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCS 65536
#define MARK_VAR "NSTEST_FAULT_MARK"

struct proc {
	pid_t pid, ppid;
	char state;
	char comm[32];
	int depth;   /* below CMD; -1 if not in its tree */
};

static struct proc procs[MAX_PROCS];
static size_t nprocs;
static FILE *report;
static uint64_t rng_state;
static char mark[64];

static const char *const roles[] = { "nstest", "worker", "terminal", "shell", "any" };

static uint64_t rng(void)
{
	/* splitmix64: a seed gives the same trial every time */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return (double)(rng() >> 11) / (double)(1ull << 53);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void sleep_until(double ms)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ms / 1e3);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* "PID (COMM) S PPID ...": COMM may hold spaces and parentheses, so the
 * state follows the last ')'. */
static bool read_stat(pid_t pid, struct proc *p)
{
	char path[64], buf[512], *lp, *rp;
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
	lp = strchr(buf, '(');
	rp = strrchr(buf, ')');
	if (!lp || !rp || rp < lp || rp[1] != ' ')
		return false;
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)(rp - lp - 1), lp + 1);
	if (sscanf(rp + 2, "%c %d", &p->state, &p->ppid) != 2)
		return false;
	p->depth = -1;
	return true;
}

static void scan(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	nprocs = 0;
	if (!d)
		return;
	while ((de = readdir(d)) && nprocs < MAX_PROCS) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		if (read_stat((pid_t)pid, &procs[nprocs]))
			nprocs++;
	}
	closedir(d);
}

/* Depth of every process below root (root itself is 0). */
static void mark_depths(pid_t root)
{
	bool changed = true;

	for (size_t i = 0; i < nprocs; i++)
		procs[i].depth = procs[i].pid == root ? 0 : -1;
	while (changed) {
		changed = false;
		for (size_t i = 0; i < nprocs; i++) {
			if (procs[i].depth >= 0)
				continue;
			for (size_t j = 0; j < nprocs; j++) {
				if (procs[j].depth >= 0 && procs[j].pid == procs[i].ppid) {
					procs[i].depth = procs[j].depth + 1;
					changed = true;
					break;
				}
			}
		}
	}
}

static const char *role_of(const struct proc *p)
{
	if (p->depth >= 0 && p->depth <= 3)
		return roles[p->depth];
	return "deeper";
}

/* A live process of the tree under cmd with the given role, at random. */
static struct proc *pick(pid_t cmd, int role)
{
	size_t cand[4096], n = 0;

	scan();
	mark_depths(cmd);
	for (size_t i = 0; i < nprocs && n < 4096; i++) {
		const struct proc *p = &procs[i];
		if (p->depth < 0 || p->state == 'Z' || p->state == 'X')
			continue;
		if (role == 4 || p->depth == role)
			cand[n++] = i;
	}
	return n ? &procs[cand[rng() % n]] : NULL;
}

static bool alive(pid_t cmd)
{
	struct proc p;

	return read_stat(cmd, &p) && p.state != 'Z' && p.state != 'X';
}

/* Reap whatever has ended; note CMD's status when it is among them. */
static struct rusage cmd_usage; /* CMD's, with its waited-for descendants' peak */

static void reap(pid_t cmd, int *cmd_status, bool *cmd_done)
{
	struct rusage ru;
	int st;
	pid_t p;

	while ((p = wait4(-1, &st, WNOHANG, &ru)) > 0)
		if (p == cmd) {
			*cmd_status = st;
			*cmd_done = true;
			cmd_usage = ru;
		}
}

static bool has_mark(pid_t pid)
{
	const size_t cap = 1 << 20;  /* the kernel's limit on an environment is larger; ours is small */
	char path[64], *buf;
	size_t want = strlen(mark), n = 0;
	bool found = false;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	buf = malloc(cap);
	while (buf && n < cap && (r = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)r;
	close(fd);
	for (size_t i = 0; buf && i + want <= n && !found; i++)
		found = (i == 0 || buf[i - 1] == '\0') && !memcmp(buf + i, mark, want);
	free(buf);
	return found;
}

/* Processes left of the tree: our children (orphans come to us) and
 * anything on the system that carries the mark. */
static size_t leftovers(bool print)
{
	pid_t self = getpid();
	size_t n = 0;

	scan();
	mark_depths(self);
	for (size_t i = 0; i < nprocs; i++) {
		struct proc *p = &procs[i];
		if (p->pid == self)
			continue;
		if (p->depth < 0 && !has_mark(p->pid))
			continue;
		n++;
		if (print)
			fprintf(report, "survivor=%d %d %c %s\n", (int)p->pid, (int)p->ppid,
				p->state, p->comm);
	}
	return n;
}

static void kill_leftovers(void)
{
	pid_t self = getpid();

	scan();
	mark_depths(self);
	for (size_t i = 0; i < nprocs; i++)
		if (procs[i].pid != self && (procs[i].depth > 0 || has_mark(procs[i].pid)))
			kill(procs[i].pid, SIGKILL);
}

/* ---- who creates entries in /tmp and /dev/shm ------------------------ */

static const char *const watched[] = { "/tmp", "/dev/shm" };

struct watcher {
	int fan[2];
	int stop;       /* eventfd: the main thread is done */
	pthread_t thread;
	bool running;
};

/* A process of CMD's tree: it carries the mark, or the killer is among
 * its ancestors (a zombie has an empty environment but a parent). */
static bool in_tree(pid_t pid)
{
	pid_t self = getpid();
	struct proc p;

	if (has_mark(pid))
		return true;
	for (int hops = 0; hops < 64 && read_stat(pid, &p); hops++) {
		if (p.ppid == self)
			return true;
		if (p.ppid <= 1)
			return false;
		pid = p.ppid;
	}
	return false;
}

static void owner_report(const char *dir, const struct fanotify_event_metadata *m)
{
	const char *name = NULL, *owner;
	size_t off = m->metadata_len;
	struct proc p;

	while (off + sizeof(struct fanotify_event_info_header) <= m->event_len) {
		const struct fanotify_event_info_header *h =
			(const void *)((const char *)m + off);
		if (h->len == 0)
			break;
		if (h->info_type == FAN_EVENT_INFO_TYPE_DFID_NAME) {
			const struct fanotify_event_info_fid *fid = (const void *)h;
			const struct file_handle *fh = (const void *)fid->handle;
			name = (const char *)fh->f_handle + fh->handle_bytes;
		}
		off += h->len;
	}
	if (in_tree(m->pid))
		owner = "tree";
	else if (read_stat(m->pid, &p))
		owner = "other";
	else
		owner = "unknown";
	fprintf(report, "created=%s %d %s/%s\n", owner, (int)m->pid, dir, name ? name : "?");
	fflush(report);
}

static void *watch_main(void *arg)
{
	struct watcher *w = arg;
	struct pollfd pf[3] = {
		{ .fd = w->fan[0], .events = POLLIN },
		{ .fd = w->fan[1], .events = POLLIN },
		{ .fd = w->stop, .events = POLLIN },
	};
	static char buf[65536] __attribute__((aligned(8)));

	for (;;) {
		bool stopping;

		if (poll(pf, 3, -1) < 0 && errno != EINTR)
			break;
		stopping = pf[2].revents != 0;
		for (int i = 0; i < 2; i++) {
			ssize_t n;
			/* drain: when stopping, whatever is still queued counts */
			while ((n = read(w->fan[i], buf, sizeof(buf))) > 0) {
				/* not const: FAN_EVENT_NEXT casts it to char * */
				struct fanotify_event_metadata *m = (void *)buf;
				for (; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n))
					if (m->vers == FANOTIFY_METADATA_VERSION)
						owner_report(watched[i], m);
			}
		}
		if (stopping)
			break;
	}
	return NULL;
}

static void watch_start(struct watcher *w)
{
	memset(w, 0, sizeof(*w));
	w->fan[0] = w->fan[1] = w->stop = -1;
	for (int i = 0; i < 2; i++) {
		w->fan[i] = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_DFID_NAME |
					  FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY);
		if (w->fan[i] < 0 ||
		    fanotify_mark(w->fan[i], FAN_MARK_ADD, FAN_CREATE | FAN_MOVED_TO | FAN_ONDIR,
				  AT_FDCWD, watched[i]) < 0)
			goto unavailable;
	}
	w->stop = eventfd(0, EFD_CLOEXEC);
	if (w->stop < 0 || pthread_create(&w->thread, NULL, watch_main, w) != 0)
		goto unavailable;
	w->running = true;
	return;
unavailable:
	fprintf(report, "fanotify=unavailable %s\n", strerror(errno));
	for (int i = 0; i < 2; i++)
		if (w->fan[i] >= 0)
			close(w->fan[i]);
	if (w->stop >= 0)
		close(w->stop);
}

static void watch_stop(struct watcher *w)
{
	uint64_t one = 1;

	if (!w->running)
		return;
	if (write(w->stop, &one, sizeof(one)) < 0)
		pthread_cancel(w->thread);
	pthread_join(w->thread, NULL);
	close(w->fan[0]);
	close(w->fan[1]);
	close(w->stop);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr, "usage: killer [-s SEED] [-k KILLS] [-m MAX_MS] [-w WAIT_S] [-r REPORT] -- CMD [ARG...]\n");
	exit(2);
}

struct opts {
	uint64_t seed;
	int kills;
	double max_ms, wait_s;
	const char *report;
};

static void parse(int argc, char **argv, struct opts *o)
{
	int c;

	o->seed = (uint64_t)time(NULL) ^ (uint64_t)getpid();
	o->kills = -1;
	o->max_ms = 1500;
	o->wait_s = 60;
	o->report = NULL;
	while ((c = getopt(argc, argv, "+s:k:m:w:r:")) != -1) {
		switch (c) {
		case 's': o->seed = strtoull(optarg, NULL, 0); break;
		case 'k': o->kills = atoi(optarg); break;
		case 'm': o->max_ms = atof(optarg); break;
		case 'w': o->wait_s = atof(optarg); break;
		case 'r': o->report = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc || o->max_ms < 0.05 || o->wait_s <= 0)
		usage();
}

/* One kill: wait, choose a role and a process, SIGKILL it. */
static void one_kill(pid_t cmd, double t0, double *at, const struct opts *o,
		     bool *cmd_killed)
{
	double delay = 0.05 * pow(o->max_ms / 0.05, uniform());
	int role = (int)(rng() % 5);
	struct proc *p = NULL;

	*at += delay;
	sleep_until(*at);
	for (int tries = 0; tries < 20 && !p && alive(cmd); tries++) {
		p = pick(cmd, role);
		if (!p)
			usleep(250);
	}
	if (!p)
		p = pick(cmd, 4);
	if (!p || !alive(cmd)) {
		fprintf(report, "late=%.2f\n", now_ms() - t0);
		return;
	}
	if (kill(p->pid, SIGKILL) < 0)
		return;
	*cmd_killed |= p->pid == cmd;
	if (!strcmp(p->comm, "nstest"))
		fprintf(report, "kill=%s:%d@%.2f\n", role_of(p), (int)p->pid, now_ms() - t0);
	else
		fprintf(report, "kill=%s[%s]:%d@%.2f\n", role_of(p), p->comm, (int)p->pid,
			now_ms() - t0);
	fflush(report);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct watcher w;
	bool cmd_done = false, cmd_killed = false, hang = false;
	int cmd_status = 0, kills;
	double t0, at;
	size_t left;
	pid_t cmd;

	parse(argc, argv, &o);
	report = o.report ? fopen(o.report, "w") : stderr;
	if (!report) {
		perror(o.report);
		return 2;
	}
	rng_state = o.seed;
	kills = o.kills >= 0 ? o.kills : 1 + (int)(rng() % 3);
	fprintf(report, "seed=%llu\n", (unsigned long long)o.seed);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		perror("prctl(PR_SET_CHILD_SUBREAPER)");
		return 2;
	}
	snprintf(mark, sizeof(mark), "%s=%d.%llu", MARK_VAR, (int)getpid(),
		 (unsigned long long)o.seed);
	watch_start(&w);
	t0 = at = now_ms();
	cmd = fork();
	if (cmd < 0) {
		perror("fork");
		return 2;
	}
	if (cmd == 0) {
		putenv(mark);
		execvp(argv[optind], argv + optind);
		perror(argv[optind]);
		_exit(127);
	}

	for (int k = 0; k < kills && alive(cmd); k++)
		one_kill(cmd, t0, &at, &o, &cmd_killed);

	/* CMD ends by itself or from a kill; everything it left comes to us. */
	while (!cmd_done) {
		reap(cmd, &cmd_status, &cmd_done);
		if (cmd_done)
			break;
		if (now_ms() - t0 > o.wait_s * 1e3) {
			hang = true;
			kill_leftovers();
			kill(cmd, SIGKILL);
			wait4(cmd, &cmd_status, 0, &cmd_usage);
			cmd_done = true;
			break;
		}
		usleep(2000);
	}
	for (double until = now_ms() + 10e3; now_ms() < until; usleep(5000)) {
		reap(cmd, &cmd_status, &cmd_done);
		if (!leftovers(false))
			break;
	}
	reap(cmd, &cmd_status, &cmd_done);
	left = leftovers(true);
	if (left) {
		kill_leftovers();
		for (double until = now_ms() + 5e3; now_ms() < until && leftovers(false); usleep(5000))
			reap(cmd, &cmd_status, &cmd_done);
	}
	watch_stop(&w);
	if (WIFSIGNALED(cmd_status))
		fprintf(report, "status=signal:%d\n", WTERMSIG(cmd_status));
	else
		fprintf(report, "status=exit:%d\n", WEXITSTATUS(cmd_status));
	fprintf(report, "cmd_killed=%d\n", cmd_killed);
	if (hang)
		fprintf(report, "hang=1\n");
	fprintf(report, "survivors=%zu\n", left);
	fprintf(report, "elapsed_ms=%.1f\n", now_ms() - t0);
	fprintf(report, "maxrss_kb=%ld\n", cmd_usage.ru_maxrss);
	fclose(report);
	return hang || left ? 1 : 0;
}
