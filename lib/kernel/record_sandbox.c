/* record_sandbox.c - see record_sandbox.h. The sandbox is built by a
 * child in a namespace it makes private before its first mount, so
 * nothing here reaches the host's mount table; the parent keeps only a
 * handle on the namespace. */
#include "kernel/record_sandbox.h"

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
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/device.h"
#include "kernel/sandbox.h"

#define ROOT_STANDIN "/dev/sda1"  /* the root stand-in's name, as replay's */

static int fail(struct ns_buf *err, const char *what)
{
	int e = errno;

	ns_buf_addf(err, "%s: %s", what, strerror(e));
	errno = e;
	return -1;
}

/* bin, lib, lib64, sbin: the host's merged-usr links again, or, where
 * the host has a directory, that directory bound read-only. */
static int top_dirs(struct ns_buf *err)
{
	static const char *const dirs[] = { "bin", "lib", "lib32", "lib64", "libx32", "sbin" };

	for (size_t i = 0; i < NS_ARRAY_SIZE(dirs); i++) {
		char host[32], target[256];
		struct stat st;
		ssize_t n;

		snprintf(host, sizeof(host), "/%s", dirs[i]);
		if (lstat(host, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(host, target, sizeof(target) - 1);
			if (n < 0)
				return fail(err, host);
			target[n] = '\0';
			if (symlink(target, dirs[i]) < 0)
				return fail(err, "symlink in the sandbox's root");
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		if (mkdir(dirs[i], 0755) < 0 || mount(host, dirs[i], NULL, MS_BIND, NULL) < 0 ||
		    mount(NULL, dirs[i], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
			return fail(err, host);
	}
	return 0;
}

static int dev_nodes(struct ns_buf *err)
{
	static const struct { const char *name; unsigned maj, min; } nodes[] = {
		{ "dev/null", 1, 3 }, { "dev/zero", 1, 5 }, { "dev/full", 1, 7 },
		{ "dev/random", 1, 8 }, { "dev/urandom", 1, 9 }, { "dev/tty", 5, 0 },
	};
	static const struct { const char *name, *to; } links[] = {
		{ "dev/fd", "/proc/self/fd" }, { "dev/stdin", "/proc/self/fd/0" },
		{ "dev/stdout", "/proc/self/fd/1" }, { "dev/stderr", "/proc/self/fd/2" },
	};

	if (mkdir("dev", 0755) < 0)
		return fail(err, "mkdir /dev in the sandbox");
	for (size_t i = 0; i < NS_ARRAY_SIZE(nodes); i++)
		if (mknod(nodes[i].name, S_IFCHR | 0666, makedev(nodes[i].maj, nodes[i].min)) < 0)
			return fail(err, nodes[i].name);
	for (size_t i = 0; i < NS_ARRAY_SIZE(links); i++)
		if (symlink(links[i].to, links[i].name) < 0)
			return fail(err, links[i].name);
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int r = fd < 0 ? -1 : ns_write_all(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return r < 0 ? -1 : 0;
}

/* The child: the sandbox made and entered. */
static int build(struct ns_buf *err)
{
	const char *dir = ns_sandbox_staging_dir(), *sys = "mount";
	char root[] = ROOT_STANDIN, *names[] = { root };
	struct ns_devices *devs;
	int procfd;

	if (ns_sandbox_private_ns(err) < 0)
		return -1;
	if (!dir) {
		ns_buf_adds(err, "no staging directory (/tmp, /mnt or /var/tmp) for the root stand-in");
		return -1;
	}
	procfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return fail(err, "open /proc");
	devs = ns_devices_new(names, 1, NS_DEVICES_TMPFS, procfd, false, false, err);
	if (!devs)
		return -1;
	if (ns_devices_mount(devs, 0, dir, 0, &sys) < 0)
		return fail(err, "mounting the root stand-in");
	if (chdir(dir) < 0)
		return fail(err, "chdir to the root stand-in");
	umask(022);
	if (mkdir("usr", 0755) < 0 || mount("/usr", "usr", NULL, MS_BIND, NULL) < 0 ||
	    mount(NULL, "usr", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
		return fail(err, "binding /usr read-only");
	if (top_dirs(err) < 0 || dev_nodes(err) < 0)
		return -1;
	if (mkdir("proc", 0555) < 0 || mkdir("etc", 0755) < 0 ||
	    write_text("etc/passwd", "root:x:0:0:root:/:/bin/bash\n") < 0 ||
	    write_text("etc/group", "root:x:0:\n") < 0)
		return fail(err, "making /proc and /etc in the sandbox");
	if (ns_sandbox_pivot_here(err) < 0)
		return -1;
	if (mount("nstest-proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return fail(err, "mounting /proc in the sandbox");
	ns_devices_free(devs);
	close(procfd);
	return 0;
}

static bool has(const struct ns_lines *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

/* The mounts of pid's mountinfo that are the tools': with all, every
 * mount but the root (the sandbox as made); else those on a device
 * already known (copies that rbind or propagation made). */
static int read_hidden(pid_t pid, struct ns_hide *h, bool all, struct ns_buf *err)
{
	char path[64], *text = NULL;
	size_t len;
	struct ns_lines lines = NS_LINES_INIT;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	r = ns_read_file(path, 16 << 20, &text, &len);
	if (r < 0) {
		errno = -r;
		return err ? fail(err, path) : -1;
	}
	ns_lines_split(&lines, text, len);
	for (size_t i = 0; i < lines.n; i++) {
		char dev[64], point[4096], rest[4096];
		const char *sep = strstr(lines.v[i], " - ");
		char fstype[256], source[4096];

		if (sscanf(lines.v[i], "%*s %*s %63s %*s %4095s %4095[^\n]", dev, point, rest) != 3 ||
		    !sep || sscanf(sep + 3, "%255s %4095s", fstype, source) != 2)
			continue;
		if (all ? !strcmp(point, "/") : !has(&h->devs, dev))
			continue;
		if (!has(&h->devs, dev))
			ns_lines_push(&h->devs, dev);
		if (!has(&h->sources, source))
			ns_lines_push(&h->sources, source);
		if (!has(&h->targets, point))
			ns_lines_push(&h->targets, point);
	}
	ns_lines_free(&lines);
	free(text);
	return 0;
}

void ns_record_sandbox_note(struct ns_record_sandbox *rs, pid_t pid)
{
	read_hidden(pid, &rs->hide, false, NULL);
}

int ns_record_sandbox_new(struct ns_record_sandbox *rs, struct ns_buf *err)
{
	int ready[2], go[2], status;
	char path[64], msg[1024];
	ssize_t n;
	pid_t pid;

	rs->mntns = -1;
	rs->hide = (struct ns_hide)NS_HIDE_INIT;
	if (pipe2(ready, O_CLOEXEC) < 0)
		return fail(err, "pipe");
	if (pipe2(go, O_CLOEXEC) < 0) {
		close(ready[0]);
		close(ready[1]);
		return fail(err, "pipe");
	}
	pid = fork();
	if (pid < 0) {
		fail(err, "fork");
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (pid == 0) {
		struct ns_buf e = NS_BUF_INIT;
		char c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		close(go[1]);
		if (build(&e) < 0) {
			if (!e.len)
				ns_buf_adds(&e, "the sandbox could not be made");
			ns_write_all(ready[1], e.data, e.len);
			_exit(1);
		}
		ns_write_all(ready[1], "", 1);
		/* hold the namespace until the parent has its handle */
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	n = read(ready[0], msg, sizeof(msg) - 1);
	close(ready[0]);
	if (n == 1 && msg[0] == '\0') {
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
		rs->mntns = open(path, O_RDONLY | O_CLOEXEC);
		if (rs->mntns < 0)
			fail(err, path);
		else if (read_hidden(pid, &rs->hide, true, err) < 0) {
			close(rs->mntns);
			rs->mntns = -1;
		}
	} else {
		msg[n > 0 ? n : 0] = '\0';
		ns_buf_addf(err, "%s", n > 0 ? msg : "the sandbox's maker died");
	}
	close(go[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rs->mntns < 0) {
		ns_hide_free(&rs->hide);
		return -1;
	}
	return 0;
}

int ns_record_sandbox_enter(const struct ns_record_sandbox *rs)
{
	/* setns(2) to a mount namespace also sets root and working directory
	 * to the namespace's root: the root stand-in */
	if (setns(rs->mntns, CLONE_NEWNS) < 0)
		return -1;
	return chdir("/");
}

void ns_record_sandbox_free(struct ns_record_sandbox *rs)
{
	if (rs->mntns >= 0)
		close(rs->mntns);
	rs->mntns = -1;
	ns_hide_free(&rs->hide);
}
