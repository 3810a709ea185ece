/* floor - the article's four demonstrations with nothing but the system
 * calls they need: the floor that `nstest run scenarios/article` is
 * measured against (bench/README.md).
 *
 * One process, no parser, no matcher, no terminals: each demo gets a
 * fresh mount namespace with a tmpfs root (unshare, mount, pivot_root,
 * umount2, as nstest's sandbox does), a "second shell" is a second
 * namespace entered with setns(2), and every step of the transcript that
 * prints the mount table is one read of <proc>/self/mountinfo. Mounts use
 * the legacy mount(2), one call each. The few facts checked on what was
 * read (peer groups, parents, the count of 16) cost microseconds; they
 * keep the floor honest, failing it if a call did not do what the demo
 * needs.
 *
 * Isolation: the very first calls are unshare(CLONE_NEWNS) and making /
 * rprivate, before any mount; nothing is ever mounted in the caller's
 * namespace. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int procfd;
static const char *demo = "setup";
static char mi[1 << 16];

static void fail(const char *what)
{
	fprintf(stderr, "floor: %s: %s (errno %s)\n", demo, what, strerror(errno));
	exit(1);
}

#define CHECK(call) do { if ((call) < 0) fail(#call); } while (0)
#define FACT(cond) do { if (!(cond)) { errno = 0; fail("fact: " #cond); } } while (0)

/* One read of the mount table, as `cat /proc/self/mountinfo` or `mount`. */
static void read_mountinfo(void)
{
	int fd = openat(procfd, "self/mountinfo", O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t r;

	CHECK(fd);
	while ((r = read(fd, mi + n, sizeof(mi) - 1 - n)) > 0)
		n += (size_t)r;
	CHECK(r);
	mi[n] = '\0';
	close(fd);
}

/* ---- the few facts: fields of the line whose mount point is mp ---- */

struct mnt {
	int id, parent, shared, master; /* 0: no such tag */
	int unbindable;
};

static int find(const char *mp, struct mnt *m)
{
	char pat[64];
	const char *p, *line, *end;

	snprintf(pat, sizeof(pat), " %s ", mp);
	for (line = mi; *line; line = end + 1) {
		end = strchr(line, '\n');
		/* the mount point is the fifth field */
		p = line;
		for (int f = 0; f < 4; f++)
			p = strchr(p, ' ') + 1;
		if (!strncmp(p - 1, pat, strlen(pat))) {
			const char *dash = strstr(p, " - "), *t;
			memset(m, 0, sizeof(*m));
			sscanf(line, "%d %d", &m->id, &m->parent);
			if ((t = strstr(p, "shared:")) && t < dash)
				m->shared = atoi(t + 7);
			if ((t = strstr(p, "master:")) && t < dash)
				m->master = atoi(t + 7);
			m->unbindable = (t = strstr(p, "unbindable")) && t < dash;
			return 1;
		}
	}
	return 0;
}

static int count_lines(void)
{
	int n = 0;

	for (const char *p = mi; *p; p++)
		n += *p == '\n';
	return n;
}

/* ---- namespaces ---- */

static int ns_fd(void)
{
	int fd = openat(procfd, "self/ns/mnt", O_RDONLY | O_CLOEXEC);

	CHECK(fd);
	return fd;
}

/* A fresh namespace whose only mount is a tmpfs root named rootdev. */
static void sandbox(const char *rootdev)
{
	CHECK(unshare(CLONE_NEWNS));
	CHECK(mount(rootdev, "/tmp", "tmpfs", 0, NULL));
	CHECK(chdir("/tmp"));
	CHECK(syscall(SYS_pivot_root, ".", "."));
	CHECK(umount2(".", MNT_DETACH));
	CHECK(chdir("/"));
}

static void dev(const char *name, const char *dir)
{
	CHECK(mount(name, dir, "tmpfs", 0, NULL));
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	CHECK(fd);
	close(fd);
}

static int ls_count(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		fail("opendir");
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* ---- the demos ---- */

static void demo1(void)
{
	struct mnt s1, p1, s2, p2, a, b;
	int sh1, sh2;

	CHECK(mkdir("/mntS", 0755));
	CHECK(mkdir("/mntP", 0755));
	dev("/dev/sdb1", "/mntS");
	dev("/dev/sda15", "/mntP");
	CHECK(mount(NULL, "/mntS", NULL, MS_SHARED, NULL));
	CHECK(mount(NULL, "/mntP", NULL, MS_PRIVATE, NULL));
	read_mountinfo();
	FACT(find("/mntS", &s1) && s1.shared && find("/mntP", &p1) && !p1.shared);

	sh1 = ns_fd();
	CHECK(unshare(CLONE_NEWNS)); /* sh2: --propagation unchanged */
	sh2 = ns_fd();
	read_mountinfo();
	FACT(find("/mntS", &s2) && s2.shared == s1.shared && s2.id != s1.id);
	FACT(find("/mntP", &p2) && !p2.shared);
	CHECK(mkdir("/mntS/a", 0755));
	dev("/dev/sdb6", "/mntS/a");
	CHECK(mkdir("/mntP/b", 0755));
	dev("/dev/sdb7", "/mntP/b");
	read_mountinfo();
	FACT(find("/mntS/a", &a) && a.parent == s2.id && a.shared && a.shared != s1.shared);
	FACT(find("/mntP/b", &b) && b.parent == p2.id && !b.shared);

	CHECK(setns(sh1, CLONE_NEWNS));
	read_mountinfo();
	FACT(find("/mntS/a", &b) && b.parent == s1.id && b.shared == a.shared);
	FACT(!find("/mntP/b", &b));
	close(sh1);
	close(sh2);
}

static void demo2(void)
{
	struct mnt x1, y1, x2, y2, a, c, m;
	int sh1, sh2;

	CHECK(mkdir("/mntX", 0755));
	CHECK(mkdir("/mntY", 0755));
	dev("/dev/sdb7", "/mntX");
	dev("/dev/sdb6", "/mntY");
	CHECK(mount(NULL, "/mntX", NULL, MS_SHARED, NULL));
	CHECK(mount(NULL, "/mntY", NULL, MS_SHARED, NULL));
	read_mountinfo();
	FACT(find("/mntX", &x1) && find("/mntY", &y1) && x1.shared && y1.shared &&
	     x1.shared != y1.shared);

	sh1 = ns_fd();
	CHECK(unshare(CLONE_NEWNS));
	sh2 = ns_fd();
	read_mountinfo();
	FACT(find("/mntX", &x2) && x2.shared == x1.shared);
	FACT(find("/mntY", &y2) && y2.shared == y1.shared);
	CHECK(mount(NULL, "/mntY", NULL, MS_SLAVE, NULL));
	read_mountinfo();
	FACT(find("/mntY", &m) && !m.shared && m.master == y1.shared);
	CHECK(mkdir("/mntX/a", 0755));
	dev("/dev/sda3", "/mntX/a");
	CHECK(mkdir("/mntY/b", 0755));
	dev("/dev/sda5", "/mntY/b");
	read_mountinfo();
	FACT(find("/mntX/a", &a) && a.parent == x2.id && a.shared);
	FACT(find("/mntY/b", &m) && m.parent == y2.id && !m.shared && !m.master);

	CHECK(setns(sh1, CLONE_NEWNS));
	read_mountinfo();
	FACT(find("/mntX/a", &m) && m.parent == x1.id && m.shared == a.shared);
	FACT(!find("/mntY/b", &m));
	CHECK(mkdir("/mntY/c", 0755));
	dev("/dev/sda1", "/mntY/c");
	read_mountinfo();
	FACT(find("/mntY/c", &c) && c.parent == y1.id && c.shared && c.shared != a.shared);

	CHECK(setns(sh2, CLONE_NEWNS));
	read_mountinfo();
	FACT(find("/mntY/c", &m) && m.parent == y2.id && m.master == c.shared);
	close(sh1);
	close(sh2);
}

static void demo3(void)
{
	struct mnt r, b;

	CHECK(mkdir("dir1", 0755));
	touch("dir1/x");
	CHECK(mkdir("dir2", 0755));
	CHECK(mount("dir1", "dir2", NULL, MS_BIND, NULL));
	FACT(ls_count("dir2") == 1);
	touch("dir2/y");
	FACT(ls_count("dir1") == 2);
	read_mountinfo();
	FACT(find("/", &r) && find("/dir2", &b) && b.parent == r.id);
}

static void rbind(const char *target, int unbindable)
{
	CHECK(mount("/", target, NULL, MS_BIND | MS_REC, NULL));
	if (unbindable)
		CHECK(mount(NULL, target, NULL, MS_UNBINDABLE, NULL));
}

/* `unshare -m sh` then `mount --make-rslave /` */
static void experiment_ns(void)
{
	CHECK(unshare(CLONE_NEWNS));
	CHECK(mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL));
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL));
}

static void demo4(void)
{
	static const char *const dirs[] = { "/mntX", "/home", "/home/cecilia",
					    "/home/henry", "/home/otto" };
	struct mnt m;
	int first;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		CHECK(mkdir(dirs[i], 0755));
	dev("/dev/sdb6", "/mntX");
	read_mountinfo();
	FACT(count_lines() == 2);

	first = ns_fd();
	experiment_ns();
	rbind("/home/cecilia", 0);
	read_mountinfo();
	FACT(count_lines() == 4);
	rbind("/home/henry", 0);
	read_mountinfo();
	FACT(count_lines() == 8);
	rbind("/home/otto", 0);
	read_mountinfo();
	FACT(count_lines() == 16);

	CHECK(setns(first, CLONE_NEWNS)); /* exit */
	experiment_ns();
	rbind("/home/cecilia", 1);
	read_mountinfo();
	FACT(find("/home/cecilia", &m) && m.unbindable);
	rbind("/home/henry", 1);
	rbind("/home/otto", 1);
	read_mountinfo();
	FACT(count_lines() == 8);
	close(first);
}

int main(void)
{
	static const struct { const char *name, *root; void (*run)(void); } demos[] = {
		{ "01-shared-private", "/dev/sda2", demo1 },
		{ "02-slave", "/dev/sda2", demo2 },
		{ "03-bind", "/dev/sda1", demo3 },
		{ "04-unbindable", "/dev/sda1", demo4 },
	};
	int outer;

	/* Before anything is mounted: a namespace of our own, cut off from
	 * the host's in both directions. */
	CHECK(unshare(CLONE_NEWNS));
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	procfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(procfd);
	outer = ns_fd();
	umask(022);
	for (size_t i = 0; i < sizeof(demos) / sizeof(demos[0]); i++) {
		demo = demos[i].name;
		sandbox(demos[i].root);
		demos[i].run();
		/* Back out; the demo's namespaces go with their last fd. */
		CHECK(setns(outer, CLONE_NEWNS));
	}
	return 0;
}
