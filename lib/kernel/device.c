/* device.c - see device.h.
 *
 * tmpfs mode: each name gets one tmpfs superblock, created with the new
 * mount API and kept as a detached "master" mount. Every mount of the name
 * is a clone of that master, so all of them share st_dev and superblock.
 * Kernels that cannot clone a detached mount (before 6.15) get a fresh
 * tmpfs for every mount instead: right for a name mounted once, which is
 * most scenarios; a scenario that mounts a name twice is run with loop
 * stand-ins there (ns_require_mode in run/require.c), or skipped.
 *
 * loop mode: each name is a loop block device over a memfd holding an
 * ext4 image. The kernel shares one superblock per block device, and the
 * device node is made under the scenario's name in a private directory,
 * so the mount source reads the name.
 *
 * Read-only: mount(2) with MS_RDONLY makes a new superblock read-only
 * too, and a block device's superblock cannot be mounted again with the
 * other read-only state while it lives (EBUSY, "would change RO state",
 * get_tree_bdev()). Loop mode asks the kernel, which applies that rule
 * itself. A tmpfs master is made before any mount, so the first mount of
 * its name sets its state (a reconfigure, through fspick(2)) and later
 * ones must agree; the master keeps the superblock alive, so unlike a
 * real device it is not made afresh once every mount of it is gone. */
#include "kernel/device.h"
#include "kernel/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/mountapi.h"

#define IMAGE_SIZE (8u << 20)

struct standin {
	char *name;
	int master;    /* tmpfs: detached master mount; loop: -1 */
	int loopfd;    /* loop: the attached loop device, kept open */
};

/* Which names have been mounted, in memory that every terminal of the
 * sandbox shares (terminals are processes forked after the stand-ins). */
struct mounted_map {
	unsigned char *v;
	size_t len;
};

struct ns_devices {
	enum ns_devices_mode mode;
	int procfd;
	ino_t userns;  /* the user namespace the stand-ins belong to */
	bool userns_may_change; /* a terminal may enter another one */
	struct standin *s;
	size_t n;
	struct mounted_map mounted;
	int nodes;     /* loop: root of a private tmpfs holding the nodes */
};

/* ---- tmpfs ----------------------------------------------------------- */

static int tmpfs_master(const char *name, bool ro, struct ns_buf *err)
{
	_cleanup_close_ int fc = ns_fsopen("tmpfs", FSOPEN_CLOEXEC);
	int m;

	if (fc < 0) {
		ns_buf_addf(err, "fsopen(tmpfs): %s (the new mount API needs Linux >= 5.2)", strerror(errno));
		return -1;
	}
	if (ns_fsconfig(fc, FSCONFIG_SET_STRING, "source", name, 0) < 0 ||
	    (ro && ns_fsconfig(fc, FSCONFIG_SET_FLAG, "ro", NULL, 0) < 0) ||
	    ns_fsconfig(fc, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		ns_buf_addf(err, "creating tmpfs stand-in %s: %s", name, strerror(errno));
		return -1;
	}
	m = ns_fsmount(fc, FSMOUNT_CLOEXEC, 0);
	if (m < 0)
		ns_buf_addf(err, "fsmount for stand-in %s: %s", name, strerror(errno));
	return m;
}

/* Whether a superblock, reached through one of its mounts, is read-only. */
static bool sb_readonly(int mnt)
{
	struct statvfs st;

	/* the master has no per-mount flags: ST_RDONLY is the superblock's */
	return fstatvfs(mnt, &st) == 0 && (st.f_flag & ST_RDONLY);
}

/* Give the master's superblock the read-only state ro. */
static int sb_set_readonly(int master, bool ro)
{
	_cleanup_close_ int fc = ns_fspick(master, "", FSPICK_EMPTY_PATH | FSPICK_CLOEXEC);

	if (fc < 0 || ns_fsconfig(fc, FSCONFIG_SET_FLAG, ro ? "ro" : "rw", NULL, 0) < 0 ||
	    ns_fsconfig(fc, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0) < 0)
		return -1;
	return 0;
}

/* A mount of the name with the read-only state ro: a clone of the master,
 * whose superblock the first mount of the name sets; or a new tmpfs. */
static int tmpfs_instance(struct standin *s, bool first, bool ro, const char **syscall)
{
	struct ns_buf err = NS_BUF_INIT;
	int fd;

	if (s->master >= 0) {
		if (sb_readonly(s->master) != ro) {
			*syscall = "mount";
			if (!first) {
				errno = EBUSY; /* get_tree_bdev(): would change RO state */
				return -1;
			}
			if (sb_set_readonly(s->master, ro) < 0) {
				*syscall = "fsconfig";
				return -1;
			}
		}
		fd = ns_open_tree(s->master, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
		*syscall = "open_tree";
		return fd;
	}
	/* no master (no name is mounted twice, or the kernel cannot clone a
	 * detached mount): a new tmpfs */
	fd = tmpfs_master(s->name, ro, &err);
	*syscall = "fsmount";
	ns_buf_free(&err);
	return fd;
}

static bool clone_a_detached_mount(void *unused)
{
	struct ns_buf err = NS_BUF_INIT;
	int m = tmpfs_master("probe", false, &err);

	(void)unused;
	return m >= 0 && ns_open_tree(m, "", OPEN_TREE_CLONE | AT_EMPTY_PATH) >= 0;
}

/* Can this kernel clone a mount that is attached nowhere (6.15+)? Probed
 * once, in a child with a mount namespace of its own. */
bool ns_devices_clone_detached(void)
{
	static int known = -1;
	int r;

	if (known < 0) {
		/* a probe that could not run says no, and is asked again: loop
		 * stand-ins judge a stand-in mounted twice on any kernel */
		r = ns_probe_in_child(clone_a_detached_mount, NULL, true);
		if (r < 0)
			return false;
		known = r;
	}
	return known;
}

/* ---- loop ------------------------------------------------------------ */

/* Format the memfd fd as the stand-ins' ext4. fixed: the same bytes every
 * time (a set UUID, hash seed and time), for an image that is written
 * into a file (nstest export --c) rather than used at once. */
static int exec_mke2fs(int fd, bool fixed, struct ns_buf *err)
{
	static const char *const paths[] = { "/usr/sbin/mke2fs", "/sbin/mke2fs" };
	char target[64];
	int status;
	pid_t pid;

	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	for (size_t i = 0; i < NS_ARRAY_SIZE(paths); i++) {
		if (access(paths[i], X_OK) < 0)
			continue;
		pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			int devnull = open("/dev/null", O_WRONLY);
			fcntl(fd, F_SETFD, 0); /* mke2fs opens it by its /proc path */
			dup2(devnull, 1);
			dup2(devnull, 2);
			if (fixed) {
				/* "nstest" in hex; mke2fs reads the time from here */
				setenv("E2FSPROGS_FAKE_TIME", "1", 1);
				execl(paths[i], "mke2fs", "-q", "-F", "-t", "ext4", "-O", "^has_journal",
				      "-E", "nodiscard,hash_seed=6e737465-7374-4e53-8000-000000000001",
				      "-U", "6e737465-7374-4e53-8000-000000000000", target, (char *)NULL);
			}
			execl(paths[i], "mke2fs", "-q", "-F", "-t", "ext4", "-O", "^has_journal",
			      "-E", "nodiscard", target, (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status))
			return 0;
		ns_buf_addf(err, "mke2fs failed (status %d) making the loop image", status);
		return -1;
	}
	ns_buf_adds(err, "mke2fs not found (install e2fsprogs) or cannot run");
	return -1;
}

static int loop_attach(int backing, const char *name, struct ns_buf *err);

/* mke2fs always makes /lost+found, which tmpfs stand-ins do not have. A
 * child in a private mount namespace mounts the image once, detached,
 * and removes it, so `ls` of a stand-in reads the same in both modes. */
static int strip_lost_found(int img, struct ns_buf *err)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		ns_buf_addf(err, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		struct ns_buf ignored = NS_BUF_INIT;
		struct loop_info64 info;
		char src[32];
		int loopfd, fc, m;

		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			_exit(1);
		loopfd = loop_attach(img, "template", &ignored);
		if (loopfd < 0 || ioctl(loopfd, LOOP_GET_STATUS64, &info) < 0)
			_exit(2);
		snprintf(src, sizeof(src), "/dev/loop%u", info.lo_number);
		fc = ns_fsopen("ext4", FSOPEN_CLOEXEC);
		if (fc < 0 || ns_fsconfig(fc, FSCONFIG_SET_STRING, "source", src, 0) < 0 ||
		    ns_fsconfig(fc, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
			_exit(3);
		m = ns_fsmount(fc, FSMOUNT_CLOEXEC, 0);
		if (m < 0 || unlinkat(m, "lost+found", AT_REMOVEDIR) < 0)
			_exit(4);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	ns_buf_addf(err, "preparing the loop image failed (step %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return -1;
}

/* One formatted image per process, copied into each device's memfd. The
 * runner prepares it before forking sandboxes, so mke2fs runs once. */
static int image_template(struct ns_buf *err)
{
	static int tmpl = -1;

	if (tmpl >= 0)
		return tmpl;
	tmpl = memfd_create("nstest-image", MFD_CLOEXEC);
	if (tmpl < 0 || ftruncate(tmpl, IMAGE_SIZE) < 0) {
		ns_buf_addf(err, "memfd for the loop image: %s", strerror(errno));
		return -1;
	}
	if (exec_mke2fs(tmpl, false, err) < 0 || strip_lost_found(tmpl, err) < 0) {
		close(tmpl);
		tmpl = -1;
	}
	return tmpl;
}

int ns_devices_image(struct ns_buf *image, struct ns_buf *err)
{
	_cleanup_close_ int fd = memfd_create("nstest-export-image", MFD_CLOEXEC);
	off_t at = 0;

	if (fd < 0 || ftruncate(fd, IMAGE_SIZE) < 0) {
		ns_buf_addf(err, "memfd for the loop image: %s", strerror(errno));
		return -1;
	}
	if (exec_mke2fs(fd, true, err) < 0)
		return -1;
	ns_buf_reset(image);
	while (at < (off_t)IMAGE_SIZE) {
		char chunk[65536];
		ssize_t r = pread(fd, chunk, sizeof(chunk), at);

		if (r <= 0) {
			ns_buf_addf(err, "reading the loop image: %s", r ? strerror(errno) : "short");
			return -1;
		}
		ns_buf_add(image, chunk, (size_t)r);
		at += r;
	}
	return 0;
}

int ns_devices_prepare(enum ns_devices_mode mode, struct ns_buf *err)
{
	return mode == NS_DEVICES_LOOP && image_template(err) < 0 ? -1 : 0;
}

static int image_copy(const char *name, struct ns_buf *err)
{
	int tmpl = image_template(err);
	char label[64];
	off_t in = 0, out = 0;
	int fd;

	if (tmpl < 0)
		return -1;
	snprintf(label, sizeof(label), "nstest:%s", name);
	fd = memfd_create(label, MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, IMAGE_SIZE) < 0) {
		ns_buf_addf(err, "memfd for %s: %s", name, strerror(errno));
		return -1;
	}
	/* only the template's data: mke2fs wrote about 96 KiB of the 8 MiB,
	 * the rest is a hole, which reads as zeros in the copy too (copying
	 * it all was the largest cost of a scenario in a TCG guest) */
	while (in < (off_t)IMAGE_SIZE) {
		off_t end;

		in = lseek(tmpl, in, SEEK_DATA);
		if (in < 0 && errno == ENXIO)
			break;
		end = in < 0 ? -1 : lseek(tmpl, in, SEEK_HOLE);
		if (end < 0)
			goto fail;
		out = in;
		while (in < end) {
			ssize_t r = copy_file_range(tmpl, &in, fd, &out, (size_t)(end - in), 0);

			if (r <= 0)
				goto fail;
		}
	}
	return fd;
fail:
	ns_buf_addf(err, "copying the loop image: %s", strerror(errno ? errno : EIO));
	close(fd);
	return -1;
}

/* /dev, once a worker has let go of the host's tree (-1: by path). */
static int dev_dir = -1;

void ns_devices_hold_dev(void)
{
	if (dev_dir < 0)
		dev_dir = open("/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static int dev_open(const char *name, int flags)
{
	char path[64];

	if (dev_dir >= 0)
		return openat(dev_dir, name, flags);
	snprintf(path, sizeof(path), "/dev/%s", name);
	return open(path, flags);
}

/* Attach backing to a free loop device that detaches itself once unused. */
static int loop_attach(int backing, const char *name, struct ns_buf *err)
{
	_cleanup_close_ int ctl = dev_open("loop-control", O_RDWR | O_CLOEXEC);
	struct loop_config cfg;

	if (ctl < 0) {
		ns_buf_addf(err, "/dev/loop-control: %s (is the loop module loaded?)", strerror(errno));
		return -1;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (__u32)backing;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "nstest:%s", name);
	for (int tries = 0; tries < 64; tries++) {
		char path[32];
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		int fd;

		if (n < 0)
			break;
		snprintf(path, sizeof(path), "loop%d", n);
		fd = dev_open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			break;
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0)
			return fd;
		close(fd);
		if (errno != EBUSY)
			break;
	}
	ns_buf_addf(err, "attaching a loop device for %s: %s", name, strerror(errno));
	return -1;
}

/* mknod NAME (an absolute /dev/... path) inside the private node tree. */
static int make_node(int nodes, const char *name, int loopfd, struct ns_buf *err)
{
	char *rel = xstrdup(name + 1);
	struct stat st;
	int r = 0;

	for (char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(nodes, rel, 0755) < 0 && errno != EEXIST)
			r = -1;
		*s = '/';
	}
	if (r == 0 && fstat(loopfd, &st) == 0)
		r = mknodat(nodes, rel, S_IFBLK | 0600, st.st_rdev);
	if (r < 0)
		ns_buf_addf(err, "making the device node %s: %s", name, strerror(errno));
	free(rel);
	return r;
}

static int loop_setup(struct ns_devices *d, struct standin *s, struct ns_buf *err)
{
	int img = image_copy(s->name, err);

	if (img < 0)
		return -1;
	s->loopfd = loop_attach(img, s->name, err);
	close(img);
	if (s->loopfd < 0)
		return -1;
	return make_node(d->nodes, s->name, s->loopfd, err);
}

/* Create the filesystem context with the caller's root switched to the
 * node tree, where the source path names our loop device, then switch
 * back. The path string given is what the mount will show. */
static int loop_instance(struct ns_devices *d, struct standin *s, bool ro,
			 const char **syscall)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int fc = -1;
	int m = -1, err = 0;

	*syscall = "fsconfig";
	if (root < 0 || cwd < 0)
		return -1;
	if (fchdir(d->nodes) < 0 || chroot(".") < 0)
		return -1;
	fc = ns_fsopen("ext4", FSOPEN_CLOEXEC);
	if (fc < 0 || ns_fsconfig(fc, FSCONFIG_SET_STRING, "source", s->name, 0) < 0 ||
	    (ro && ns_fsconfig(fc, FSCONFIG_SET_FLAG, "ro", NULL, 0) < 0) ||
	    ns_fsconfig(fc, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		err = errno;
	if (fchdir(root) < 0 || chroot(".") < 0 || fchdir(cwd) < 0)
		err = err ? err : errno;
	if (!err) {
		m = ns_fsmount(fc, FSMOUNT_CLOEXEC, 0);
		*syscall = "fsmount";
		err = m < 0 ? errno : 0;
	}
	errno = err;
	return m;
}

/* ---- both ------------------------------------------------------------ */

static ino_t userns_ino(int procfd)
{
	struct stat st;

	return fstatat(procfd, "self/ns/user", &st, 0) == 0 ? st.st_ino : 0;
}

/* Whether this kernel clones a detached mount (6.15+), tried once per
 * process on the first master itself: the sandbox is private already, so
 * unlike ns_devices_clone_detached() this needs no process of its own.
 * (Dropping the clone costs an RCU grace period, so it is not redone for
 * every sandbox a worker makes.) */
static bool clonable(int master)
{
	static int known = -1;
	int fd;

	if (known >= 0)
		return known;
	fd = ns_open_tree(master, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	known = fd >= 0;
	if (fd >= 0)
		close(fd);
	return known;
}

static int mounted_map_init(struct mounted_map *m, size_t n, struct ns_buf *err)
{
	m->len = n ? n : 1;
	m->v = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m->v != MAP_FAILED)
		return 0;
	m->v = NULL;
	ns_buf_addf(err, "mmap of the stand-ins' shared state: %s", strerror(errno));
	return -1;
}

static struct ns_devices *devices_alloc(char *const *names, size_t n,
					enum ns_devices_mode mode, int procfd,
					bool userns_may_change)
{
	struct ns_devices *d = xcalloc(1, sizeof(*d));

	d->procfd = procfd;
	d->userns_may_change = userns_may_change;
	d->userns = userns_may_change ? userns_ino(procfd) : 0;
	d->mode = mode == NS_DEVICES_LOOP ? NS_DEVICES_LOOP : NS_DEVICES_TMPFS;
	d->s = xcalloc(n, sizeof(*d->s));
	d->nodes = -1;
	for (size_t i = 0; i < n; i++) {
		d->s[i].name = xstrdup(names[i]);
		d->s[i].master = d->s[i].loopfd = -1;
	}
	d->n = n;
	return d;
}

/* Every loop device, with its node in a private tree. */
static int make_loop_standins(struct ns_devices *d, struct ns_buf *err)
{
	d->nodes = tmpfs_master("nstest-nodes", false, err);
	if (d->nodes < 0)
		return -1;
	for (size_t i = 0; i < d->n; i++)
		if (loop_setup(d, &d->s[i], err) < 0)
			return -1;
	return 0;
}

/* A master per name, to clone for each mount; or none at all on a
 * kernel that cannot clone a detached mount (before 6.15), which then
 * gets a fresh tmpfs for each mount instead. */
static int make_tmpfs_masters(struct ns_devices *d, struct ns_buf *err)
{
	for (size_t i = 0; i < d->n; i++) {
		d->s[i].master = tmpfs_master(d->s[i].name, false, err);
		if (d->s[i].master < 0)
			return -1;
		if (i == 0 && !clonable(d->s[0].master)) {
			close(d->s[0].master);
			d->s[0].master = -1;
			return 0;
		}
	}
	return 0;
}

struct ns_devices *ns_devices_new(char *const *names, size_t n,
				  enum ns_devices_mode mode, int procfd,
				  bool userns_may_change, bool remounts,
				  struct ns_buf *err)
{
	struct ns_devices *d = devices_alloc(names, n, mode, procfd, userns_may_change);
	int r = 0;

	/* tmpfs masters only when a name is mounted twice: otherwise each
	 * would be cloned once, then closed, and dropping a mount waits for
	 * an RCU grace period */
	if (mounted_map_init(&d->mounted, n, err) < 0)
		r = -1;
	else if (d->mode == NS_DEVICES_LOOP)
		r = make_loop_standins(d, err);
	else if (remounts)
		r = make_tmpfs_masters(d, err);
	if (r == 0)
		return d;
	ns_devices_free(d);
	return NULL;
}

void ns_devices_free(struct ns_devices *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		if (d->s[i].master >= 0)
			close(d->s[i].master);
		if (d->s[i].loopfd >= 0)
			close(d->s[i].loopfd);
		free(d->s[i].name);
	}
	if (d->nodes >= 0)
		close(d->nodes);
	if (d->mounted.v)
		munmap(d->mounted.v, d->mounted.len);
	free(d->s);
	free(d);
}

/* Is target, looked up as mount(2) looks it up, the root of a mount of
 * the filesystem fd is a mount of? */
static bool same_fs_on_top(int fd, const char *target)
{
	struct statx sx;
	struct stat st;

	if (fstat(fd, &st) < 0 || statx(AT_FDCWD, target, 0, STATX_BASIC_STATS, &sx) < 0)
		return false;
	return (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	       (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) &&
	       makedev(sx.stx_dev_major, sx.stx_dev_minor) == st.st_dev;
}

/* Is the mount that target's lookup ends on (the top of its stack) one of
 * the caller's namespace? mount(2)'s do_add_mount() refuses any other
 * (check_mnt(): EINVAL), a detached tree included, where move_mount(2),
 * which puts the stand-in in place, takes a detached tree as its target
 * from Linux 6.15 on. statmount(2) (6.8) of the mount's unique ID answers
 * ENOENT for a mount outside the caller's namespace, also for one a
 * chroot hides from /proc/self/mountinfo. Where the kernel has no
 * statmount(2), move_mount(2) refuses such a target itself: true. */
static bool in_caller_ns(const char *target)
{
	struct {
		uint32_t size, spare;
		uint64_t mnt_id, param;
	} req = { 24, 0, 0, 1 /* STATMOUNT_MNT_BASIC */ };
	uint64_t reply[64];
	struct statx sx;

	if (statx(AT_FDCWD, target, 0, 0x4000 /* STATX_MNT_ID_UNIQUE */, &sx) < 0 ||
	    !(sx.stx_mask & 0x4000))
		return true;
	req.mnt_id = sx.stx_mnt_id;
	return syscall(457 /* statmount */, &req, reply, sizeof(reply), 0) == 0 || errno != ENOENT;
}

int ns_devices_mount(struct ns_devices *d, size_t idx, const char *target,
		     unsigned long long attr, const char **syscall)
{
	struct standin *s = &d->s[idx];
	bool ro = attr & MOUNT_ATTR_RDONLY;
	struct stat st;
	int fd, err = 0;

	/* What mount(2) of a real device checks, in its order: the target
	 * is looked up first (ENOENT, ENOTDIR on the way), then the caller's
	 * privilege; a filesystem whose root is a directory only goes on a
	 * directory (ENOTDIR), where move_mount(2), which puts the stand-in
	 * in place, would say EINVAL. */
	*syscall = "mount";
	if (stat(target, &st) < 0)
		return -1;
	/* mounting a block device needs privilege over the device: a user
	 * namespace's root does not have it (no FS_USERNS_MOUNT) */
	if (d->userns_may_change && userns_ino(d->procfd) != d->userns) {
		errno = EPERM;
		return -1;
	}

	if (!S_ISDIR(st.st_mode)) {
		/* a directory-rooted filesystem on a file: mount(2) fails,
		 * with ENOENT for a target in an unmounted tree, else ENOTDIR,
		 * in that order. Asking mount(2) itself gets both right; it
		 * cannot succeed on a file. */
		if (mount("nstest-probe", target, "tmpfs", 0, NULL) == 0) {
			umount2(target, MNT_DETACH);
			errno = ENOTDIR;
		}
		return -1;
	}
	fd = d->mode == NS_DEVICES_LOOP ? loop_instance(d, s, ro, syscall)
					: tmpfs_instance(s, !d->mounted.v[idx], ro, syscall);
	if (fd < 0)
		return -1;
	/* mount(2) puts a new mount only in the caller's namespace. For a
	 * target elsewhere mount(2) itself says how it fails (ENOENT in a
	 * lazily unmounted tree, EINVAL in a detached one): it cannot mount
	 * there, so asking it changes nothing */
	if (!in_caller_ns(target)) {
		int e = EINVAL;
		if (mount("nstest-probe", target, "tmpfs", 0, NULL) == 0)
			umount2(target, MNT_DETACH);
		else
			e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	/* the same filesystem twice on one place is refused by mount(2)
	 * (do_add_mount(): the place the target's lookup gave, the top of
	 * its stack except at the root, is the root of a mount of the new
	 * mount's superblock); move_mount(2), which puts the stand-in in
	 * place, has no such check */
	if (same_fs_on_top(fd, target)) {
		close(fd);
		errno = EBUSY;
		return -1;
	}
	if (attr) {
		struct mount_attr ma = { .attr_set = attr };
		if (attr & MOUNT_ATTR__ATIME)
			ma.attr_clr = MOUNT_ATTR__ATIME;
		if (ns_mount_setattr(fd, "", AT_EMPTY_PATH, &ma, sizeof(ma)) < 0) {
			*syscall = "mount_setattr";
			err = errno;
		}
	}
	/* mount(2) follows a symbolic link the target ends in (a handle's
	 * /proc/self/fd link too); move_mount(2) only when told */
	if (!err && ns_move_mount(fd, "", AT_FDCWD, target,
				  MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_SYMLINKS) < 0) {
		*syscall = "move_mount";
		err = errno;
	}
	close(fd);
	if (!err)
		d->mounted.v[idx] = 1;
	errno = err;
	return err ? -1 : 0;
}

