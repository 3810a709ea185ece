/* sandbox.c - see sandbox.h. Each step is one system call with the reason
 * it is there; nothing here ever touches the host's mount namespace. */
#include "kernel/sandbox.h"
#include "kernel/mountinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/mountapi.h"
#include "mounts/snapshot.h"

/* Say what failed and why, with a hint for the usual causes; returns -1. */
static int setup_error(struct ns_buf *err, const char *what)
{
	int e = errno;

	ns_buf_addf(err, "%s: %s", what, strerror(e));
	if (e == ENOSPC)
		ns_buf_adds(err, " (too many mounts: see /proc/sys/fs/mount-max)");
	if (e == EPERM)
		ns_buf_adds(err, " (needs CAP_SYS_ADMIN: run nstest as root)");
	errno = e;
	return -1;
}

static int open_proc(struct ns_buf *err)
{
	struct statfs sf;
	int fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return setup_error(err, "open /proc");
	if (fstatfs(fd, &sf) < 0 || sf.f_type != PROC_SUPER_MAGIC) {
		close(fd);
		ns_buf_adds(err, "/proc is not a procfs mount");
		return -1;
	}
	return fd;
}

/* Where the root stand-in waits before pivot_root: any directory of the
 * host works, since the mount happens only in our private namespace. */
static const char *staging_dir(void)
{
	static const char *const dirs[] = { "/tmp", "/mnt", "/var/tmp" };
	struct stat st;

	for (size_t i = 0; i < NS_ARRAY_SIZE(dirs); i++)
		if (stat(dirs[i], &st) == 0 && S_ISDIR(st.st_mode))
			return dirs[i];
	return NULL;
}

/* Make what is mounted on the current directory the root, with nothing
 * else in sight: pivot_root(".", ".") stacks the old root on top of the
 * new one, and detaching it leaves the new one alone. */
static int pivot_here(struct ns_buf *err)
{
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		return setup_error(err, "pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		return setup_error(err, "detaching the old root");
	if (chdir("/") < 0)
		return setup_error(err, "chdir /");
	return 0;
}

static int enter_root(struct ns_sandbox *sb, struct ns_buf *err)
{
	const char *dir = staging_dir();
	const char *sys = "mount";

	if (!dir) {
		ns_buf_adds(err, "no staging directory (/tmp, /mnt or /var/tmp) for the root stand-in");
		return -1;
	}
	/* The root stand-in is device 0 of the scenario. */
	if (ns_devices_mount(sb->devs, 0, dir, 0, &sys) < 0)
		return setup_error(err, "mounting the root stand-in");
	if (chdir(dir) < 0)
		return setup_error(err, "chdir to the root stand-in");
	return pivot_here(err);
}

/* The design promises a scenario starts with exactly one mount. */
static int check_one_mount(const struct ns_sandbox *sb, struct ns_buf *err)
{
	struct ns_snapshot *s;
	size_t n;
	int r = ns_snapshot_read(sb->procfd, &s);

	if (r < 0) {
		errno = -r;
		return setup_error(err, "reading the sandbox's mountinfo");
	}
	n = ns_snapshot_count(s);
	ns_snapshot_free(s);
	if (n != 1) {
		ns_buf_addf(err, "the sandbox starts with %zu mounts instead of 1", n);
		return -1;
	}
	return 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int r = fd < 0 ? -1 : ns_write_all(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return r < 0 ? -1 : 0;
}

/* Rootless mode: become root of a new user namespace in which uid and gid
 * 0 are the caller's own ids, so the mount namespace made next is ours to
 * change and nothing outside it is. */
static int enter_userns(struct ns_buf *err)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (unshare(CLONE_NEWUSER) < 0)
		return setup_error(err, "unshare(CLONE_NEWUSER)");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if (write_file("/proc/self/uid_map", map) < 0)
		return setup_error(err, "writing /proc/self/uid_map");
	/* an unprivileged gid_map needs setgroups disabled first */
	if (write_file("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
		return setup_error(err, "writing /proc/self/setgroups");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	if (write_file("/proc/self/gid_map", map) < 0)
		return setup_error(err, "writing /proc/self/gid_map");
	return 0;
}

/* A mount namespace of our own, and before any mount in it, propagation
 * cut both ways: nothing done here reaches the host, no host event
 * reaches here. */
static int private_namespace(struct ns_buf *err)
{
	if (unshare(CLONE_NEWNS) < 0)
		return setup_error(err, "unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return setup_error(err, "making / rprivate");
	return 0;
}

/* The base's root: an empty tmpfs with only /tmp, the staging directory
 * of every sandbox made from it. A sandbox's namespace is a copy of the
 * base's, so with one mount in the base, making and dropping a sandbox
 * copies and detaches one mount, not the host's whole table. */
static int tiny_root(struct ns_buf *err)
{
	const char *dir = staging_dir();

	if (!dir) {
		ns_buf_adds(err, "no staging directory (/tmp, /mnt or /var/tmp) for the worker's root");
		return -1;
	}
	if (mount("nstest-base", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755") < 0)
		return setup_error(err, "mounting the worker's root");
	if (chdir(dir) < 0 || mkdir("tmp", 0700) < 0)
		return setup_error(err, "making the worker's root");
	return pivot_here(err);
}

int ns_sandbox_private_ns(struct ns_buf *err)
{
	return private_namespace(err);
}

const char *ns_sandbox_staging_dir(void)
{
	return staging_dir();
}

int ns_sandbox_pivot_here(struct ns_buf *err)
{
	return pivot_here(err);
}

int ns_sandbox_base(bool userns, int *procfd, struct ns_buf *err)
{
	if (userns && enter_userns(err) < 0)
		return -1;
	if (private_namespace(err) < 0)
		return -1;
	/* what the base keeps of the host before it lets go of its tree */
	*procfd = open_proc(err);
	if (*procfd < 0)
		return -1;
	ns_devices_hold_dev();
	return tiny_root(err);
}

int ns_sandbox_enter(const struct ns_scenario *sc, const struct ns_run_opts *o,
		     int procfd, struct ns_sandbox *sb, struct ns_buf *err)
{
	enum ns_devices_mode mode = o->devices;

	sb->procfd = -1;
	sb->devs = NULL;
	sb->alive = !o->no_alive;
	if (private_namespace(err) < 0)
		return -1;
	/* Terminals read their mountinfo through the base's procfs handle,
	 * so the sandbox never has to mount a /proc of its own. */
	sb->procfd = fcntl(procfd, F_DUPFD_CLOEXEC, 0);
	if (sb->procfd < 0)
		return setup_error(err, "dup of the procfs handle");
	/* only a one-way scenario's terminals can enter a user namespace */
	sb->devs = ns_devices_new(sc->devnames, sc->ndevnames, mode, sb->procfd,
				  sc->one_way, sc->remounts, err);
	if (!sb->devs)
		return -1;
	if (enter_root(sb, err) < 0)
		return -1;
	umask(022);
	return check_one_mount(sb, err);
}

void ns_sandbox_free(struct ns_sandbox *sb)
{
	ns_devices_free(sb->devs);
	sb->devs = NULL;
	if (sb->procfd >= 0)
		close(sb->procfd);
	sb->procfd = -1;
}
