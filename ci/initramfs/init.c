/* ci/initramfs/init.c - PID 1 of the guest that ci/vm-run boots.
 *
 * Built statically by vm-run and put at /init of a throwaway initramfs
 * that also holds nstest, the libraries it needs, mke2fs, the scenarios
 * and perhaps a few kernel modules. It:
 *
 *   1. makes the root a real mount (a bind mount of the initramfs), since
 *      pivot_root(2) refuses to move the initramfs itself and nstest
 *      pivots into each sandbox;
 *   2. mounts /proc, /sys and /dev (devtmpfs, or a tmpfs with the few
 *      nodes nstest needs);
 *   3. loads every /modules/NAME.ko in name order (vm-run numbers them so
 *      that dependencies come first);
 *   4. runs nstest with the arguments in /nstest-args (NUL-separated) from
 *      the directory in /nstest-cwd, its standard output going to the
 *      second serial port (ttyS1) and its standard error to the third
 *      (ttyS2), which carry nothing else;
 *   5. sends back the files named in /nstest-fetch (NUL-separated: the
 *      reports nstest writes to files, --output and --report) that
 *      nstest wrote, as a cpio archive (newc, each file named by its
 *      place in the list: 0, 1, ...) on the fourth serial port (ttyS3),
 *      which carries nothing else; a file nstest did not write is left
 *      out; the archive always ends with its trailer;
 *   6. hands nstest's exit status to the host through qemu's
 *      isa-debug-exit device (port 0xf4): writing V makes qemu exit with
 *      status 2V+1. Each outcome has its own V (VERDICT_* below), so the
 *      host can tell a verdict from a guest that died or powered off.
 *
 * The kernel's console is the first serial port; this program writes its
 * own progress and errors there too, prefixed "vm-init:".
 *
 * Keep the VERDICT_* values in step with ci/vm-run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4

enum {
	VERDICT_STATUS_0 = 0x10,   /* nstest exited 0: qemu exits 33 */
	VERDICT_STATUS_1 = 0x11,   /* 1: 35 */
	VERDICT_STATUS_2 = 0x12,   /* 2: 37 */
	VERDICT_STATUS_125 = 0x13, /* 125: 39 */
	VERDICT_OTHER = 0x14,      /* any other status, or killed: 41 */
	VERDICT_INIT_FAILED = 0x15 /* nstest never ran: 43 */
};

static void say(const char *fmt, ...)
{
	va_list ap;
	char line[512];

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	dprintf(2, "vm-init: %s\n", line);
}

static void set_verdict(int value)
{
	sync();
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) == 0)
		outb((unsigned char)value, DEBUG_EXIT_PORT);
	/* Still here: no isa-debug-exit device. Power off; the host sees
	 * no verdict and says so. */
	say("no isa-debug-exit device at 0x%x; powering off", DEBUG_EXIT_PORT);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static void fail(const char *what)
{
	say("%s: %s", what, strerror(errno));
	set_verdict(VERDICT_INIT_FAILED);
}

/* The initramfs is the rootfs mount, which has no parent, and
 * pivot_root(2) refuses to pivot away from it. A bind mount of it moved
 * onto / is an ordinary mount with the same files. */
static void make_root_a_mount(void)
{
	if (mkdir("/newroot", 0755) < 0 && errno != EEXIST)
		fail("mkdir /newroot");
	if (mount("/", "/newroot", NULL, MS_BIND, NULL) < 0)
		fail("bind mount / on /newroot");
	if (chdir("/newroot") < 0)
		fail("chdir /newroot");
	if (mount(".", "/", NULL, MS_MOVE, NULL) < 0)
		fail("move /newroot to /");
	if (chroot(".") < 0 || chdir("/") < 0)
		fail("chroot into the new root");
}

static void mount_one(const char *fstype, const char *target, const char *opts)
{
	mkdir(target, 0755);
	if (mount(fstype, target, fstype, MS_NOSUID, opts) < 0)
		fail(target);
}

/* Without devtmpfs, a tmpfs with the nodes nstest and this program use. */
static void mount_dev(void)
{
	static const struct { const char *path; int major, minor; } nodes[] = {
		{ "/dev/console", 5, 1 }, { "/dev/null", 1, 3 },
		{ "/dev/zero", 1, 5 }, { "/dev/ttyS0", 4, 64 },
		{ "/dev/ttyS1", 4, 65 }, { "/dev/ttyS2", 4, 66 },
		{ "/dev/ttyS3", 4, 67 },
		{ "/dev/loop-control", 10, 237 },
	};

	mkdir("/dev", 0755);
	if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755") == 0)
		return;
	say("no devtmpfs (%s); making /dev a tmpfs", strerror(errno));
	mount_one("tmpfs", "/dev", "mode=0755");
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		mknod(nodes[i].path, S_IFCHR | 0600, makedev(nodes[i].major, nodes[i].minor));
}

/* With no /dev/console in the initramfs, the kernel started us with no
 * fds 0-2: take them from the console now that /dev exists. */
static void open_console(void)
{
	if (fcntl(2, F_GETFD) >= 0)
		return;
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fd != i)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

static int compare_names(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void load_modules(void)
{
	struct dirent **names;
	int n = scandir("/modules", &names, NULL, compare_names);

	for (int i = 0; i < n; i++) {
		char path[512];
		const char *name = names[i]->d_name;

		if (name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/modules/%s", name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0) < 0) {
			if (errno != EEXIST)
				say("cannot load %s: %s", name, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
	}
}

/* The whole file in a new buffer, or NULL; *len gets its size. */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;
	char *buf;

	if (fd < 0 || fstat(fd, &st) < 0 || !(buf = malloc((size_t)st.st_size + 1))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got != (size_t)st.st_size) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* argv for nstest from /nstest-args: NUL-terminated words, as many as
 * there are (a --vs-kernel batch names every scenario file). */
static char **read_args(void)
{
	size_t len, argc = 0, words = 0;
	char *buf = slurp("/nstest-args", &len);
	char **argv;

	if (!buf)
		fail("read /nstest-args");
	for (size_t off = 0; off < len; off++)
		words += buf[off] == '\0';
	argv = malloc((words + 3) * sizeof(*argv)); /* a last word without its NUL too */
	if (!argv)
		fail("argv for nstest");
	argv[argc++] = "nstest";
	for (size_t off = 0; off < len; off += strlen(buf + off) + 1)
		argv[argc++] = buf + off;
	argv[argc] = NULL;
	return argv;
}

/* A port for nstest's output, with output post-processing off so that
 * the host gets nstest's bytes as they are (no \n to \r\n). */
static int open_port(const char *path)
{
	struct termios t;
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		fail(path);
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

/* Copy what is waiting in the pipe to its port: the number of bytes, 0
 * at end of file, -1 on error (EAGAIN: nothing waiting). */
static ssize_t copy_out(int from, int to)
{
	char buf[4096];
	ssize_t n = read(from, buf, sizeof(buf));

	for (ssize_t off = 0, w; off < n; off += w > 0 ? w : 0)
		if ((w = write(to, buf + off, (size_t)(n - off))) < 0 && errno != EINTR)
			break;
	return n;
}

static void exec_nstest(int out, int err)
{
	static char *const envp[] = {
		"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/", NULL
	};
	char **argv = read_args();
	size_t len;
	char *cwd = slurp("/nstest-cwd", &len);

	dup2(out, 1);
	dup2(err, 2);
	if (cwd && chdir(cwd) < 0)
		say("chdir %s: %s", cwd, strerror(errno));
	execve("/bin/nstest", argv, envp);
	say("exec /bin/nstest: %s", strerror(errno));
	_exit(127);
}

/* nstest writes into pipes, not the ports: a tty would make it colour
 * its report and draw progress lines, which the host does not want.
 * Standard output goes to port[0], standard error to port[1]. Its exit
 * ends the copying, even if something it left behind still holds a pipe
 * open. */
static int run_nstest(const int port[2])
{
	int status, out[2], err[2];
	struct pollfd p[2];
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		fail("pipe");
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0)
		exec_nstest(out[1], err[1]);
	close(out[1]);
	close(err[1]);
	p[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	p[1] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	for (;;) {
		int reading = p[0].fd >= 0 || p[1].fd >= 0;
		pid_t done = waitpid(pid, &status, reading ? WNOHANG : 0);

		if (done == pid)
			break;
		if (done < 0 && errno != EINTR)
			fail("waitpid");
		if (reading && poll(p, 2, 100) > 0)
			for (int i = 0; i < 2; i++) {
				if (p[i].fd < 0 || !p[i].revents)
					continue;
				ssize_t n = copy_out(p[i].fd, port[i]);
				if (n == 0 || (n < 0 && errno != EINTR))
					p[i].fd = -1;
			}
	}
	for (int i = 0; i < 2; i++) {
		int fd = i ? err[0] : out[0];
		fcntl(fd, F_SETFL, O_NONBLOCK);
		while (copy_out(fd, port[i]) > 0)
			;
		tcdrain(port[i]);
	}
	return status;
}

/* Write all of buf to fd: 0, or -1 with errno. */
static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* One cpio (newc) member: its header, its name, its data (size bytes
 * from fd, or none for fd < 0), each padded to 4 bytes. 0, or -1. */
static int cpio_member(int port, const char *name, int fd, unsigned long size)
{
	static const char zeros[4];
	char head[128], buf[4096];
	size_t namesize = strlen(name) + 1;
	unsigned long left = size;

	if (size > 0xffffffffUL) { /* newc's sizes have 8 hex digits */
		errno = EFBIG;
		return -1;
	}
	snprintf(head, sizeof(head), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 0u, fd < 0 ? 0u : 0100644u, 0u, 0u, 1u, 0u, (unsigned)size, 0u, 0u, 0u, 0u,
		 (unsigned)namesize, 0u);
	if (write_all(port, head, 110) < 0 || write_all(port, name, namesize) < 0 ||
	    write_all(port, zeros, (4 - (110 + namesize) % 4) % 4) < 0)
		return -1;
	while (left) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO; /* shorter than its size: cut the archive */
			return -1;
		}
		if (write_all(port, buf, (size_t)n) < 0)
			return -1;
		left -= (unsigned long)n;
	}
	return write_all(port, zeros, (4 - size % 4) % 4);
}

/* Step 5: the files of /nstest-fetch that nstest wrote, to ttyS3. An
 * archive without its trailer tells the host that something went wrong
 * here, which this program says on the console. */
static void send_files(void)
{
	size_t len, index = 0;
	char *list = slurp("/nstest-fetch", &len);
	int port;

	if (!list || !len)
		return;
	port = open_port("/dev/ttyS3");
	for (size_t off = 0; off < len; off += strlen(list + off) + 1, index++) {
		const char *path = list + off;
		char name[24];
		struct stat st;
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			if (fd >= 0)
				close(fd);
			continue; /* not written: nstest said why */
		}
		snprintf(name, sizeof(name), "%zu", index);
		if (cpio_member(port, name, fd, (unsigned long)st.st_size) < 0) {
			say("cannot send %s back: %s", path, strerror(errno));
			close(fd);
			tcdrain(port);
			return;
		}
		close(fd);
	}
	if (cpio_member(port, "TRAILER!!!", -1, 0) < 0)
		say("cannot send the files back: %s", strerror(errno));
	tcdrain(port);
}

static int verdict_of(int status)
{
	if (WIFSIGNALED(status)) {
		say("nstest was killed by signal %d", WTERMSIG(status));
		return VERDICT_OTHER;
	}
	say("nstest exited with status %d", WEXITSTATUS(status));
	switch (WEXITSTATUS(status)) {
	case 0: return VERDICT_STATUS_0;
	case 1: return VERDICT_STATUS_1;
	case 2: return VERDICT_STATUS_2;
	case 125: return VERDICT_STATUS_125;
	case 127: return VERDICT_INIT_FAILED;
	default: return VERDICT_OTHER;
	}
}

int main(void)
{
	make_root_a_mount();
	mount_dev();
	open_console();
	say("started"); /* vm-run waits for this to trust KVM */
	mount_one("proc", "/proc", NULL);
	mount_one("sysfs", "/sys", NULL);
	/* No tmpfs on /tmp: scenarios from the host's /tmp are in the image
	 * there, and the root is writable anyway. */
	load_modules();

	const int port[2] = { open_port("/dev/ttyS1"), open_port("/dev/ttyS2") };
	say("running nstest");
	int verdict = verdict_of(run_nstest(port));
	send_files();
	set_verdict(verdict);
}
