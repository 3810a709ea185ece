/* snapshot_scale - time to take and render a mountinfo snapshot
 * (lib/mounts/snapshot.h) as the mount table grows: 10, 100, 1k, 10k and 50k
 * mounts by default, or the sizes given as arguments.
 *
 *   snapshot_scale [-f] [-n ROUNDS] [SIZE...]
 *
 * Each size gets its own child process in its own mount namespace (made
 * rprivate before anything is mounted in it), whose root is a tmpfs
 * entered with pivot_root, so the table starts as exactly one mount, as
 * in an nstest sandbox. The tree is made by bind doubling: `mount --rbind
 * / /dK` doubles the count, as in the article's mount explosion, up to
 * the largest power of two not above the size; plain binds of / make up
 * the rest. With -f the tree is flat instead: plain binds of / only, so
 * every mount point is one level deep (this separates the cost of the
 * number of mounts from that of path depth). The children stay alive, and the parent asks them for one
 * measurement each in turn (interleaved rounds), then prints medians.
 *
 * Columns, per measurement of one child:
 *   kernel read   open + read of <proc>/self/mountinfo, the bytes only
 *   snapshot      ns_snapshot_read(): the same read plus libmount's parse
 *   render mi     ns_snapshot_render_mountinfo() of that snapshot
 *   render mount  ns_snapshot_render_mount() (what `mount` prints)
 *   total         snapshot + render mi
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/mountinfo.h"
#include "base/util.h"

#define NCOLS 4
static const char *const col_names[NCOLS] = { "kernel read", "snapshot",
					      "render mi", "render mount" };

struct child {
	size_t size;
	pid_t pid;
	int req, resp;        /* parent's ends of the two pipes */
	double *t[NCOLS];     /* seconds, one per round */
	double *total;        /* snapshot + render mi, per round */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "snapshot_scale: %s: %s\n", what, strerror(errno));
	if (errno == ENOSPC)
		fprintf(stderr, "snapshot_scale: too many mounts: see /proc/sys/fs/mount-max\n");
	exit(1);
}

#define CHECK(call) do { if ((call) < 0) die(#call); } while (0)

/* A namespace of our own whose only mount is a tmpfs root; returns a
 * handle on /proc kept from before pivot_root, as nstest's sandbox does. */
static int sandbox(void)
{
	int procfd;

	CHECK(unshare(CLONE_NEWNS));
	/* before any mount: nothing reaches the host, nothing comes in */
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	procfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(procfd);
	CHECK(mount("bench-root", "/tmp", "tmpfs", 0, NULL));
	CHECK(chdir("/tmp"));
	CHECK(syscall(SYS_pivot_root, ".", "."));
	CHECK(umount2(".", MNT_DETACH));
	CHECK(chdir("/"));
	return procfd;
}

static int flat; /* -f: plain binds only, every mount point one level deep */

/* Grow the table from 1 mount to exactly size mounts. */
static void grow(size_t size)
{
	char dir[32];
	size_t n = 1;

	for (int k = 0; !flat && n * 2 <= size; k++, n *= 2) {
		snprintf(dir, sizeof(dir), "/d%d", k);
		CHECK(mkdir(dir, 0755));
		CHECK(mount("/", dir, NULL, MS_BIND | MS_REC, NULL));
	}
	/* The rest are plain binds of a mount without children: a bind of a
	 * mount checks each of its children, so binding / again and again
	 * would cost the kernel time quadratic in the count. */
	for (size_t i = 0; n < size; i++, n++) {
		snprintf(dir, sizeof(dir), "/e%zu", i);
		CHECK(mkdir(dir, 0755));
		CHECK(mount(n > 1 && !flat ? "/d0" : i ? "/e0" : "/", dir, NULL, MS_BIND, NULL));
	}
}

static void measure(int procfd, size_t size, double out[NCOLS])
{
	struct ns_buf b = NS_BUF_INIT;
	struct ns_snapshot *s;
	char *text;
	size_t len;
	double t0, t1;
	int fd, rc;

	t0 = now();
	fd = openat(procfd, "self/mountinfo", O_RDONLY | O_CLOEXEC);
	CHECK(fd);
	CHECK(ns_read_fd(fd, 256u << 20, &text, &len));
	close(fd);
	out[0] = now() - t0;
	free(text);

	t0 = now();
	rc = ns_snapshot_read(procfd, &s);
	t1 = now();
	if (rc < 0) {
		errno = -rc;
		die("ns_snapshot_read");
	}
	out[1] = t1 - t0;
	if (ns_snapshot_count(s) != size) {
		fprintf(stderr, "snapshot_scale: %zu mounts instead of %zu\n",
			ns_snapshot_count(s), size);
		exit(1);
	}
	t0 = now();
	ns_snapshot_render_mountinfo(s, &b);
	out[2] = now() - t0;
	ns_buf_free(&b);
	t0 = now();
	ns_snapshot_render_mount(s, &b);
	out[3] = now() - t0;
	ns_buf_free(&b);
	ns_snapshot_free(s);
}

static void __attribute__((noreturn)) child_main(size_t size, int req, int resp,
						  pid_t parent)
{
	double t[NCOLS];
	char c;
	int procfd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	procfd = sandbox();
	grow(size);
	c = 'r';
	CHECK(write(resp, &c, 1));
	while (read(req, &c, 1) == 1) {
		measure(procfd, size, t);
		CHECK(write(resp, t, sizeof(t)));
	}
	_exit(0);
}

/* Start child i; it must not keep the pipes of the children before it,
 * or they would never see their end of input. */
static void start(struct child *all, size_t i, size_t rounds)
{
	struct child *c = &all[i];
	int a[2], b[2];
	pid_t self = getpid();
	char ready;

	CHECK(pipe2(a, O_CLOEXEC));
	CHECK(pipe2(b, O_CLOEXEC));
	c->pid = fork();
	CHECK(c->pid);
	if (c->pid == 0) {
		for (size_t k = 0; k < i; k++) {
			close(all[k].req);
			close(all[k].resp);
		}
		close(a[1]);
		close(b[0]);
		child_main(c->size, a[0], b[1], self);
	}
	close(a[0]);
	close(b[1]);
	c->req = a[1];
	c->resp = b[0];
	for (int k = 0; k < NCOLS; k++)
		c->t[k] = xcalloc(rounds, sizeof(double));
	c->total = xcalloc(rounds, sizeof(double));
	if (read(c->resp, &ready, 1) != 1) {
		fprintf(stderr, "snapshot_scale: the child for %zu mounts failed\n", c->size);
		exit(1);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long mount_max(void)
{
	FILE *f = fopen("/proc/sys/fs/mount-max", "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const size_t defaults[] = { 10, 100, 1000, 10000, 50000 };
	size_t rounds = 11, n = 0, max = 0;
	struct child *c;
	int opt;

	while ((opt = getopt(argc, argv, "fn:")) != -1) {
		if (opt == 'f') {
			flat = 1;
		} else if (opt == 'n') {
			rounds = strtoul(optarg, NULL, 10);
		} else {
			fprintf(stderr, "usage: snapshot_scale [-f] [-n ROUNDS] [SIZE...]\n");
			return 2;
		}
	}
	n = argc > optind ? (size_t)(argc - optind) : NS_ARRAY_SIZE(defaults);
	c = xcalloc(n, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		c[i].size = argc > optind ? strtoul(argv[optind + i], NULL, 10) : defaults[i];
		if (c[i].size > max)
			max = c[i].size;
	}
	if (mount_max() >= 0 && (size_t)mount_max() < max + 1) {
		fprintf(stderr, "snapshot_scale: /proc/sys/fs/mount-max is %ld, below %zu\n",
			mount_max(), max + 1);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < n; i++)
		start(c, i, rounds);
	for (size_t r = 0; r < rounds; r++) {
		for (size_t i = 0; i < n; i++) {
			double t[NCOLS];
			if (write(c[i].req, "m", 1) != 1 ||
			    read(c[i].resp, t, sizeof(t)) != (ssize_t)sizeof(t)) {
				fprintf(stderr, "snapshot_scale: the child for %zu mounts failed\n",
					c[i].size);
				return 1;
			}
			for (int k = 0; k < NCOLS; k++)
				c[i].t[k][r] = t[k];
			c[i].total[r] = t[1] + t[2];
		}
	}
	printf("%s tree, mount-max %ld; medians of %zu interleaved rounds, milliseconds\n\n",
	       flat ? "flat" : "bind-doubling", mount_max(), rounds);
	printf("| mounts |");
	for (int k = 0; k < NCOLS; k++)
		printf(" %s |", col_names[k]);
	printf(" total (snapshot + render mi) | µs per mount |\n|---:|");
	for (int k = 0; k <= NCOLS + 1; k++)
		printf("---:|");
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		double m[NCOLS], total;
		for (int k = 0; k < NCOLS; k++)
			m[k] = median(c[i].t[k], rounds);
		total = median(c[i].total, rounds);
		printf("| %zu |", c[i].size);
		for (int k = 0; k < NCOLS; k++)
			printf(" %.3f |", m[k] * 1e3);
		printf(" %.3f | %.2f |\n", total * 1e3, total * 1e6 / (double)c[i].size);
	}
	for (size_t i = 0; i < n; i++) {
		close(c[i].req);
		waitpid(c[i].pid, NULL, 0);
	}
	return 0;
}
