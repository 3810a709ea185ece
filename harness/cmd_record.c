/* cmd_record.c - `nstest record FILE`: an interactive bash in a sandbox
 * like replay's (kernel/record_sandbox.h), its commands and what the
 * real tools printed written as a scenario; `nstest record --join FILE`:
 * one more terminal of that recording.
 *
 * One recorder process owns every shell's pty and polls them all, so
 * the steps are in the order their command lines were entered, whichever
 * terminal they came from (scenario/reclog.h). The first terminal is the
 * recorder's own; a joiner connects over a unix socket named after
 * FILE's real path, and the recorder relays between that socket and the
 * new shell's pty: the recorder alone reads every pty. Each pty is 512
 * columns wide whatever the user's terminal is, so findmnt never
 * truncates a column. The recording ends with `exit` in the first
 * terminal; the file is then written (scenario/import.h, with the tools'
 * mounts left out of every view: scenario/hide.h) and replayed at once
 * on the kernel. A block that nstest's replay prints otherwise than the
 * real tools is rewritten with nstest's lines (update/update.h), and the
 * real tools' lines are kept above it as prose, so the file passes and
 * says where nstest differs. */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "backends/backends.h"
#include "base/outfile.h"
#include "kernel/record_sandbox.h"
#include "run/backend.h"
#include "run/runner.h"
#include "run/verdict.h"
#include "scenario/hide.h"
#include "scenario/import.h"
#include "scenario/reclog.h"
#include "scenario/scenario.h"
#include "update/update.h"

#define REC_COLUMNS 512         /* no findmnt column is ever cut */
#define REC_ROWS 50
#define REC_TERMS 16
#define REC_TIMEOUT 60

static const char record_help[] =
	"usage: nstest record FILE\n"
	"       nstest record --join FILE\n"
	"Record an interactive bash as a scenario. The shell runs as root in a sandbox\n"
	"like replay's: a mount namespace of its own whose root is the root stand-in\n"
	"(/dev/sda1, an empty tmpfs), with the host's /usr bound read-only, /proc,\n"
	"a few /dev nodes and an /etc with root's passwd line, so that the real tools\n"
	"run; those mounts are left out of every mountinfo, mount and findmnt output\n"
	"written to FILE. The prompt is sh1# (sh2# , ... for joined terminals); an\n"
	"inner shell (unshare -m sh) keeps it. The terminal is 512 columns wide for\n"
	"the shell, so findmnt never truncates. The recording ends with `exit` in the\n"
	"first terminal: FILE is written and replayed on the kernel at once; a step\n"
	"whose output nstest prints otherwise gets nstest's lines, with the real\n"
	"tools' lines above it as prose. Needs root.\n"
	"\n"
	"  --join    another terminal of the running recording of FILE (sh2, sh3, ...)\n"
	"  -h, --help  this help\n"
	"Exit status: 0 written and replayed, 1 written but it does not replay here,\n"
	"2 usage, no sandbox, or a write error; 128+N: stopped by signal N, nothing written.\n"
	"Example: nstest record lab.scn; nstest run lab.scn\n";

/* ---- signals: a byte down a pipe the loop polls ---- */

static int sig_pipe[2] = { -1, -1 };
static volatile sig_atomic_t sig_seen;

static void on_signal(int sig)
{
	int e = errno;
	char c = (char)sig;

	if (sig != SIGCHLD && sig != SIGWINCH)
		sig_seen = sig;
	if (write(sig_pipe[1], &c, 1) < 0) {
		/* the pipe is full: the loop wakes anyway */
	}
	errno = e;
}

static int catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH };
	struct sigaction sa;

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NS_ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static void uncatch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH };

	for (size_t i = 0; i < NS_ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
}

/* ---- the user's terminal ---- */

static struct termios saved_tio;
static bool tio_saved;

static void raw_terminal(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tio) < 0)
		return;
	t = saved_tio;
	cfmakeraw(&t);
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0)
		tio_saved = true;
}

static void restore_terminal(void)
{
	if (tio_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	tio_saved = false;
}

/* ---- the rendezvous for --join ---- */

/* A socket named after FILE's real path (its folder's, when FILE is not
 * there yet), in /run when root may write there, else $TMPDIR or /tmp. */
static int socket_path(const char *file, struct sockaddr_un *sa, struct ns_buf *err)
{
	char *dcopy = xstrdup(file), *bcopy = xstrdup(file), dir[PATH_MAX];
	const char *tmp = getenv("TMPDIR"), *base;
	uint64_t h = 1469598103934665603ULL;
	struct ns_buf full = NS_BUF_INIT;
	int n;

	if (!realpath(dirname(dcopy), dir)) {
		ns_buf_addf(err, "%s: %s", file, strerror(errno));
		free(dcopy);
		free(bcopy);
		return -1;
	}
	ns_buf_addf(&full, "%s/%s", dir, basename(bcopy));
	for (size_t i = 0; i < full.len; i++)
		h = (h ^ (unsigned char)full.data[i]) * 1099511628211ULL;
	base = access("/run", W_OK) == 0 ? "/run" : tmp && *tmp ? tmp : "/tmp";
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/nstest-record-%016llx.sock", base,
		     (unsigned long long)h);
	ns_buf_free(&full);
	free(dcopy);
	free(bcopy);
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path)) {
		ns_buf_addf(err, "the socket's folder %s has too long a name", base);
		return -1;
	}
	return 0;
}

/* ---- the shells ---- */

struct term {
	int master;           /* -1: gone */
	pid_t pid;            /* the shell; 0 once reaped */
	pid_t sid;            /* its session, which its jobs stay in */
	int peer;             /* where its output goes: stdout, or a joiner's socket */
	size_t log;           /* its index in the reclog */
};

struct recorder {
	struct ns_record_sandbox sb;
	struct ns_reclog *log;
	struct term t[REC_TERMS];
	size_t nt;
	int listen;
	int asking;           /* a connection that has not asked to join yet */
	bool stdin_done;      /* the user's input ended */
	struct sockaddr_un sa;
};

static void child_env(unsigned k)
{
	static const char *const keep[] = { "TERM" };
	char ps1[64];
	const char *term = getenv(keep[0]);
	char *t = term ? xstrdup(term) : NULL;

	clearenv();
	if (t)
		setenv("TERM", t, 1);
	free(t);
	snprintf(ps1, sizeof(ps1), "%ssh%u# ", NS_RECLOG_MARK, k);
	setenv("PS1", ps1, 1);
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
	setenv("HOME", "/", 1);
	setenv("HISTFILE", "/dev/null", 1);
	setenv("SHELL", "/bin/bash", 1);
	setenv("USER", "root", 1);
	setenv("LOGNAME", "root", 1);
	/* findmnt's trees in the characters replay prints them with */
	setenv("LANG", "C.UTF-8", 1);
}

/* Start terminal k (1, 2, ...) on a new pty in the sandbox. */
static int spawn(struct recorder *r, int peer, struct ns_buf *err)
{
	struct winsize ws = { REC_ROWS, REC_COLUMNS, 0, 0 };
	struct term *t;
	unsigned k;
	char *slave;
	int m;
	pid_t pid;

	if (r->nt == REC_TERMS) {
		ns_buf_addf(err, "at most %d terminals", REC_TERMS);
		return -1;
	}
	k = (unsigned)r->nt + 1;
	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 || !(slave = ptsname(m))) {
		ns_buf_addf(err, "a pty: %s", strerror(errno));
		if (m >= 0)
			close(m);
		return -1;
	}
	slave = xstrdup(slave);
	ioctl(m, TIOCSWINSZ, &ws);
	pid = fork();
	if (pid < 0) {
		ns_buf_addf(err, "fork: %s", strerror(errno));
		close(m);
		free(slave);
		return -1;
	}
	if (pid == 0) {
		int s;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGWINCH, SIG_DFL);
		setsid();
		s = open(slave, O_RDWR);
		if (s < 0 || ioctl(s, TIOCSCTTY, 0) < 0)
			_exit(127);
		dup2(s, 0);
		dup2(s, 1);
		dup2(s, 2);
		if (s > 2)
			close(s);
		if (ns_record_sandbox_enter(&r->sb) < 0) {
			dprintf(2, "nstest record: entering the sandbox: %s\r\n", strerror(errno));
			_exit(127);
		}
		child_env(k);
		execl("/bin/bash", "bash", "--norc", "--noprofile", "-i", (char *)NULL);
		dprintf(2, "nstest record: /bin/bash: %s\r\n", strerror(errno));
		_exit(127);
	}
	free(slave);
	t = &r->t[r->nt++];
	t->master = m;
	t->pid = t->sid = pid;
	t->peer = peer;
	t->log = ns_reclog_terminal(r->log);
	return 0;
}

/* Every process of the session a shell leads: its background jobs have
 * process groups of their own. */
static void kill_session(pid_t sid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[300], *text = NULL, *p;
		size_t len;
		long sess = 0;
		pid_t pid = (pid_t)atol(e->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if (ns_read_file(path, 4096, &text, &len) < 0)
			continue;
		/* pid (comm) state ppid pgrp session: comm may hold blanks */
		p = strrchr(text, ')');
		if (p && sscanf(p + 1, " %*c %*d %*d %ld", &sess) == 1 && sess == sid)
			kill(pid, SIGKILL);
		free(text);
	}
	closedir(d);
}

static void hang_up(struct term *t)
{
	if (t->sid > 0)
		kill_session(t->sid);
	if (t->master >= 0) {
		close(t->master);
		t->master = -1;
	}
}

/* Every shell gone, every joiner told (its socket closed). */
static void end_all(struct recorder *r)
{
	for (size_t i = 0; i < r->nt; i++) {
		hang_up(&r->t[i]);
		if (i && r->t[i].peer >= 0) {
			close(r->t[i].peer);
			r->t[i].peer = -1;
		}
	}
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].pid > 0) {
			while (waitpid(r->t[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
			r->t[i].pid = 0;
		}
	if (r->asking >= 0) {
		close(r->asking);
		r->asking = -1;
	}
	if (r->listen >= 0) {
		close(r->listen);
		unlink(r->sa.sun_path);
		r->listen = -1;
	}
}

static void reap(struct recorder *r)
{
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].pid > 0 && waitpid(r->t[i].pid, NULL, WNOHANG) == r->t[i].pid)
			r->t[i].pid = 0;
}

/* Read what terminal i printed: into the log and to its peer. Returns
 * false once the pty is closed (its shell and every process on it gone). */
static bool pump(struct recorder *r, size_t i)
{
	struct term *t = &r->t[i];
	char buf[8192];
	ssize_t n = read(t->master, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0) {
		ns_reclog_end(r->log, t->log);
		close(t->master);
		t->master = -1;
		return false;
	}
	ns_reclog_feed(r->log, t->log, buf, (size_t)n);
	/* a prompt (its mark ends in BEL): where the tools' mounts are now in
	 * the namespace of the shell in front */
	if (memchr(buf, '\a', (size_t)n)) {
		pid_t fg = tcgetpgrp(t->master);

		if (fg > 0)
			ns_record_sandbox_note(&r->sb, fg);
		/* the user's input ended (a pipe, not a terminal): at each
		 * new prompt of the first terminal, end of input, until its
		 * outermost shell is gone */
		if (i == 0 && r->stdin_done)
			ns_write_all(t->master, "\004", 1);
	}
	if (t->peer >= 0 && ns_write_all(t->peer, buf, (size_t)n) < 0 && i) {
		close(t->peer);
		t->peer = -1;
	}
	return true;
}

/* The loop: until the first shell's pty closes, or a signal. */
static int record_loop(struct recorder *r)
{
	for (;;) {
		struct pollfd p[2 * REC_TERMS + 4];
		size_t np = 0, base;

		p[np++] = (struct pollfd){ sig_pipe[0], POLLIN, 0 };
		p[np++] = (struct pollfd){ r->listen, POLLIN, 0 };
		p[np++] = (struct pollfd){ r->t[0].master >= 0 && !r->stdin_done ? STDIN_FILENO : -1,
					   POLLIN, 0 };
		p[np++] = (struct pollfd){ r->asking, POLLIN, 0 };
		base = np;
		for (size_t i = 0; i < r->nt; i++) {
			p[np++] = (struct pollfd){ r->t[i].master, POLLIN, 0 };
			p[np++] = (struct pollfd){ i && r->t[i].master >= 0 ? r->t[i].peer : -1, POLLIN, 0 };
		}
		if (poll(p, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[0].revents) {
			char c[64];

			while (read(sig_pipe[0], c, sizeof(c)) > 0)
				;
			if (sig_seen)
				return -1;
			reap(r);
			if (r->t[0].pid == 0 && r->t[0].master >= 0) {
				/* the first shell is gone; what it printed is in
				 * the pty already, even if a process it left
				 * behind keeps the pty open */
				fcntl(r->t[0].master, F_SETFL, O_NONBLOCK);
				while (r->t[0].master >= 0) {
					char buf[8192];
					ssize_t n = read(r->t[0].master, buf, sizeof(buf));

					if (n > 0) {
						ns_reclog_feed(r->log, r->t[0].log, buf, (size_t)n);
						ns_write_all(r->t[0].peer, buf, (size_t)n);
						continue;
					}
					ns_reclog_end(r->log, r->t[0].log);
					close(r->t[0].master);
					r->t[0].master = -1;
				}
				return 0;
			}
		}
		for (size_t i = 0; i < r->nt; i++) {
			struct pollfd *pm = &p[base + 2 * i], *pp = &p[base + 2 * i + 1];

			if (pm->fd >= 0 && pm->revents && !pump(r, i) && i == 0)
				return 0;
			if (pp->fd >= 0 && pp->revents && r->t[i].master >= 0) {
				char buf[4096];
				ssize_t n = read(pp->fd, buf, sizeof(buf));

				if (n > 0) {
					ns_write_all(r->t[i].master, buf, (size_t)n);
				} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
					/* the joiner's window closed: its shell goes */
					ns_reclog_end(r->log, r->t[i].log);
					hang_up(&r->t[i]);
					close(r->t[i].peer);
					r->t[i].peer = -1;
				}
			}
		}
		if (p[2].fd >= 0 && p[2].revents) {
			char buf[4096];
			ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

			if (n > 0)
				ns_write_all(r->t[0].master, buf, (size_t)n);
			else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
				/* no more input: the first shell is told as a
				 * terminal's end of input tells it, once */
				ns_write_all(r->t[0].master, "\004", 1);
				r->stdin_done = true;
			}
		}
		if (p[3].fd >= 0 && p[3].revents) {
			/* a joiner says 'J' first; a recorder that only looked
			 * whether this file is being recorded says nothing */
			struct ns_buf err = NS_BUF_INIT;
			char c = 0;
			int fd = r->asking;

			r->asking = -1;
			if (read(fd, &c, 1) == 1 && c == 'J') {
				if (spawn(r, fd, &err) < 0) {
					dprintf(fd, "nstest record: %s\r\n", ns_buf_str(&err));
					close(fd);
				}
			} else {
				close(fd);
			}
			ns_buf_free(&err);
		}
		if ((p[1].revents & POLLIN) && r->asking < 0)
			r->asking = accept4(r->listen, NULL, NULL, SOCK_CLOEXEC);
	}
}

/* ---- the file ---- */

static bool is_command(const char *line)
{
	size_t ns, nl;

	if (strncmp(line, "    ", 4) && line[0] != '\t')
		return false;
	line += line[0] == '\t' ? 1 : 4;
	return ns_scenario_prompt(line, &ns, &nl) > 0;
}

static bool is_session(const char *line)
{
	return !strncmp(line, "    ", 4) || line[0] == '\t';
}

/* The blocks of each command, in order: [start, end) line ranges. */
struct blocks {
	size_t *cmd, *end;
	size_t n;
};

static void find_blocks(const struct ns_lines *l, struct blocks *b)
{
	b->cmd = xcalloc(l->n + 1, sizeof(*b->cmd));
	b->end = xcalloc(l->n + 1, sizeof(*b->end));
	b->n = 0;
	for (size_t i = 0; i < l->n; i++) {
		size_t j = i + 1;

		if (!is_command(l->v[i]))
			continue;
		while (j < l->n && is_session(l->v[j]) && !is_command(l->v[j]))
			j++;
		b->cmd[b->n] = i;
		b->end[b->n++] = j;
	}
}

/* new, with the old block of each command whose block changed kept above
 * it as prose. */
static char *annotate(const char *old, const char *new, size_t *changed)
{
	struct ns_lines o = NS_LINES_INIT, n = NS_LINES_INIT;
	struct blocks bo, bn;
	struct ns_buf out = NS_BUF_INIT;
	size_t k = 0;

	*changed = 0;
	ns_lines_split(&o, old, strlen(old));
	ns_lines_split(&n, new, strlen(new));
	find_blocks(&o, &bo);
	find_blocks(&n, &bn);
	for (size_t i = 0; i < n.n; i++) {
		if (k < bn.n && bn.cmd[k] == i && k < bo.n) {
			size_t lo = bo.end[k] - bo.cmd[k], ln = bn.end[k] - bn.cmd[k];
			bool same = lo == ln;

			for (size_t j = 1; same && j < lo; j++)
				same = !strcmp(o.v[bo.cmd[k] + j], n.v[bn.cmd[k] + j]);
			if (!same) {
				(*changed)++;
				ns_buf_adds(&out, "\nnstest prints otherwise than the real tools at the next command: its block\n"
						  "is what nstest printed on replay. The real tools printed:\n");
				if (lo == 1)
					ns_buf_adds(&out, "| (nothing)\n");
				for (size_t j = 1; j < lo; j++) {
					const char *s = o.v[bo.cmd[k] + j];

					ns_buf_addf(&out, "| %s\n", s + (s[0] == '\t' ? 1 : 4));
				}
				ns_buf_addc(&out, '\n');
			}
			k++;
		}
		ns_buf_addf(&out, "%s\n", n.v[i]);
	}
	free(bo.cmd);
	free(bo.end);
	free(bn.cmd);
	free(bn.end);
	ns_lines_free(&o);
	ns_lines_free(&n);
	return ns_buf_detach(&out);
}

struct verdicts {
	size_t pass, fail;
};

static void on_result(void *ctx, size_t index, const struct ns_result *res)
{
	struct verdicts *v = ctx;

	(void)index;
	if (res->v->status == NS_PASS)
		v->pass++;
	else
		v->fail++;
}

/* Replay file on the kernel: rewrite what nstest prints otherwise (and
 * say so in the file), then judge it once more. 0 when it passes. */
static int replay(const char *file, const char *written)
{
	const struct ns_backend *be = ns_backend_find("kernel");
	struct ns_run_opts opts;
	struct ns_runner_opts ro;
	struct ns_lines files = NS_LINES_INIT;
	struct ns_scenario **sc;
	struct verdicts v = { 0, 0 };
	struct ns_runner_hooks hooks = { &v, NULL, on_result, NULL, NULL };
	char *after = NULL, *noted;
	size_t len, changed = 0;
	FILE *devnull;
	int r;

	memset(&opts, 0, sizeof(opts));
	opts.devices = NS_DEVICES_TMPFS;
	opts.timeout_s = REC_TIMEOUT;
	ns_lines_push(&files, file);
	sc = parse_scenarios(&files);
	if (!sc || prepare_sandboxes(be, &opts, sc, 1) < 0) {
		if (sc)
			free_scenarios(sc, &files);
		ns_lines_free(&files);
		return -1;
	}
	ro = (struct ns_runner_opts){ be, opts, 1, false, NULL };
	devnull = fopen("/dev/null", "we");
	if (devnull) {
		ns_update_all(sc, 1, &ro, devnull);
		fclose(devnull);
	}
	free_scenarios(sc, &files);
	if (ns_read_file(file, 64u << 20, &after, &len) == 0 && strcmp(after, written)) {
		noted = annotate(written, after, &changed);
		if ((r = ns_write_file_atomic(file, noted, strlen(noted))) < 0)
			fprintf(stderr, "nstest: error: %s: %s\n", file, strerror(-r));
		free(noted);
		fprintf(stderr, "nstest record: %zu block%s of %s hold%s nstest's output, which differs from the real tools' (said in the file)\n",
			changed, changed == 1 ? "" : "s", file, changed == 1 ? "s" : "");
	}
	free(after);
	ns_lines_push(&files, file);
	sc = parse_scenarios(&files);
	if (!sc) {
		ns_lines_free(&files);
		return -1;
	}
	ns_runner_run(sc, 1, &ro, &hooks);
	free_scenarios(sc, &files);
	ns_lines_free(&files);
	return v.pass == 1 ? 0 : -1;
}

static char *header(void)
{
	struct utsname u;
	char when[64];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	if (uname(&u) < 0)
		strcpy(u.release, "unknown");
	return xasprintf("Recorded by nstest record on %s, Linux %s, with the real tools, in a\n"
			 "terminal %d columns wide (findmnt truncates no column). The sandbox's /usr\n"
			 "and /proc, which the tools needed, are left out of every view.\n",
			 when, u.release, REC_COLUMNS);
}

static int write_scenario(struct recorder *r, const char *file)
{
	char *log = ns_reclog_text(r->log), *head = header(), *text;
	struct ns_buf scn = NS_BUF_INIT, notes = NS_BUF_INIT;
	const char *body;
	int rc;

	ns_import_log_hide(log, strlen(log), "the recording", &r->sb.hide, 0, &scn, &notes);
	/* import's first line names the log: the recording's header instead */
	body = ns_buf_str(&scn);
	body += strcspn(body, "\n");
	body += *body == '\n';
	text = xasprintf("%s%s", head, body);
	for (const char *p = ns_buf_str(&notes); *p;) {
		size_t n = strcspn(p, "\n");

		/* the tools' rows left out are no news: every view has them */
		if (!memmem(p, n, "of mounts outside the session left out", 38))
			fprintf(stderr, "nstest record: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	rc = ns_write_file_atomic(file, text, strlen(text));
	if (rc < 0) {
		fprintf(stderr, "nstest: error: %s: %s\n", file, strerror(-rc));
		rc = EXIT_USAGE;
	} else if (replay(file, text) < 0) {
		fprintf(stderr, "nstest record: %s was written, but it does not replay here: see nstest run %s\n",
			file, file);
		rc = EXIT_FAILED;
	} else {
		fprintf(stderr, "nstest record: %s written; it replays: nstest run %s\n", file, file);
		rc = EXIT_PASS;
	}
	free(log);
	free(head);
	free(text);
	ns_buf_free(&scn);
	ns_buf_free(&notes);
	return rc;
}

static int record(const char *file)
{
	struct recorder r;
	struct ns_buf err = NS_BUF_INIT;
	int rc, fd;

	memset(&r, 0, sizeof(r));
	r.listen = -1;
	r.asking = -1;
	if (geteuid() != 0) {
		fprintf(stderr, "nstest: error: record needs root: its shell mounts in a sandbox of its own\n");
		return EXIT_USAGE;
	}
	if (socket_path(file, &r.sa, &err) < 0)
		goto fail;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&r.sa, sizeof(r.sa)) == 0) {
		ns_buf_addf(&err, "%s is being recorded already (nstest record --join %s adds a terminal)", file, file);
		close(fd);
		goto fail;
	}
	if (fd >= 0)
		close(fd);
	unlink(r.sa.sun_path);
	r.listen = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (r.listen < 0 || fchmod(r.listen, 0600) < 0 ||
	    bind(r.listen, (struct sockaddr *)&r.sa, sizeof(r.sa)) < 0 ||
	    chmod(r.sa.sun_path, 0600) < 0 || listen(r.listen, 4) < 0) {
		ns_buf_addf(&err, "%s: %s", r.sa.sun_path, strerror(errno));
		goto fail;
	}
	if (catch_signals() < 0) {
		ns_buf_addf(&err, "pipe: %s", strerror(errno));
		goto fail;
	}
	if (ns_record_sandbox_new(&r.sb, &err) < 0)
		goto fail;
	r.log = ns_reclog_new();
	if (spawn(&r, STDOUT_FILENO, &err) < 0)
		goto fail;
	fprintf(stderr, "nstest record: recording to %s; `exit` in this shell ends it, "
			"`nstest record --join %s` adds a terminal\r\n", file, file);
	raw_terminal();
	rc = record_loop(&r);
	restore_terminal();
	end_all(&r);
	/* the replay's runner waits for its workers as it would anywhere */
	uncatch_signals();
	if (rc < 0) {
		fprintf(stderr, "nstest record: stopped by signal %d: nothing written\n", (int)sig_seen);
		ns_reclog_free(r.log);
		ns_record_sandbox_free(&r.sb);
		return 128 + (sig_seen ? (int)sig_seen : SIGTERM);
	}
	rc = write_scenario(&r, file);
	ns_reclog_free(r.log);
	ns_record_sandbox_free(&r.sb);
	return rc;
fail:
	restore_terminal();
	end_all(&r);
	fprintf(stderr, "nstest: error: record: %s\n", ns_buf_str(&err));
	ns_buf_free(&err);
	ns_reclog_free(r.log);
	if (r.sb.mntns > 0)
		ns_record_sandbox_free(&r.sb);
	return EXIT_USAGE;
}

/* --join: relay this terminal to a shell of the recorder's. */
static int join(const char *file)
{
	struct sockaddr_un sa;
	struct ns_buf err = NS_BUF_INIT;
	int s;

	if (socket_path(file, &sa, &err) < 0) {
		fprintf(stderr, "nstest: error: record --join: %s\n", ns_buf_str(&err));
		ns_buf_free(&err);
		return EXIT_USAGE;
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "nstest: error: record --join: no recording of %s is running (%s)\n",
			file, strerror(errno));
		if (s >= 0)
			close(s);
		return EXIT_USAGE;
	}
	if (catch_signals() < 0 || ns_write_all(s, "J", 1) < 0) {
		close(s);
		return EXIT_USAGE;
	}
	raw_terminal();
	for (;;) {
		struct pollfd p[3] = {
			{ sig_pipe[0], POLLIN, 0 }, { s, POLLIN, 0 }, { STDIN_FILENO, POLLIN, 0 },
		};
		char buf[8192];
		ssize_t n;

		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents) {
			while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
				;
			if (sig_seen)
				break;
		}
		if (p[1].revents) {
			n = read(s, buf, sizeof(buf));
			if (n <= 0)
				break;
			if (ns_write_all(STDOUT_FILENO, buf, (size_t)n) < 0)
				break;
		}
		if (p[2].revents) {
			n = read(STDIN_FILENO, buf, sizeof(buf));
			if (n <= 0)
				break;
			if (ns_write_all(s, buf, (size_t)n) < 0)
				break;
		}
	}
	restore_terminal();
	close(s);
	if (!sig_seen)
		fprintf(stderr, "\nnstest record: the recording of %s ended\n", file);
	return sig_seen ? 128 + (int)sig_seen : EXIT_PASS;
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "join", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool joining = false;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(record_help, stdout);
			return EXIT_PASS;
		case 'j':
			joining = true;
			break;
		default:
			unknown_option("record", argv[optind - 1], longopts);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		usage_error("record needs exactly one scenario file");
		return EXIT_USAGE;
	}
	return joining ? join(argv[optind]) : record(argv[optind]);
}
