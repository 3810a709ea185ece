/* test_snapshot.c - mountinfo parsed through libmount must render back byte
 * for byte as the kernel printed it, and as mount(8) prints it: fixtures in
 * tests/data, this host's own table, and (as root) tricky mounts made in a
 * private mount namespace that the host never sees. */
#include "kernel/mountinfo.h"
#include "tap.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* tests/data/NAME, found next to this file's folder. */
static char *data_path(const char *name)
{
	const char *unit = strstr(__FILE__, "unit/test_snapshot.c");
	int dirlen = unit ? (int)(unit - __FILE__) : 0;

	return xasprintf("%.*sdata/%s", dirlen, __FILE__, name);
}

static char *slurp(const char *path)
{
	char *data = NULL;
	size_t len = 0;

	if (ns_read_file(path, 1u << 24, &data, &len) < 0)
		return NULL;
	return data;
}

/* The mountinfo rendering of text, or NULL if it does not parse. */
static char *render_mountinfo(const char *text)
{
	struct ns_snapshot *s = NULL;
	struct ns_buf b = NS_BUF_INIT;

	if (ns_snapshot_parse(text, strlen(text), &s) < 0)
		return NULL;
	ns_snapshot_render_mountinfo(s, &b);
	ns_snapshot_free(s);
	return ns_buf_detach(&b);
}

static char *render_mount(const char *text)
{
	struct ns_snapshot *s = NULL;
	struct ns_buf b = NS_BUF_INIT;

	if (ns_snapshot_parse(text, strlen(text), &s) < 0)
		return NULL;
	ns_snapshot_render_mount(s, &b);
	ns_snapshot_free(s);
	return ns_buf_detach(&b);
}

static char *render_proc_mounts(const char *text)
{
	struct ns_snapshot *s = NULL;
	struct ns_buf b = NS_BUF_INIT;

	if (ns_snapshot_parse(text, strlen(text), &s) < 0)
		return NULL;
	ns_snapshot_render_proc_mounts(s, &b);
	ns_snapshot_free(s);
	return ns_buf_detach(&b);
}

/* /proc/mounts from mountinfo, by show_vfsmnt()'s order: ro if the mount
 * or the superblock is, the superblock's flags (sync, dirsync, mand,
 * lazytime), the per-mount flags, the filesystem's options. */
TEST(proc_mounts)
{
	_cleanup_free_ char *got = render_proc_mounts(
		"65 45 0:39 / /a rw,relatime - tmpfs t1 rw,sync,lazytime,size=1024k,mode=700\n"
		"66 45 0:39 / /b ro,nosuid,nodev,relatime - tmpfs t1 rw,sync,lazytime,size=1024k,mode=700\n"
		"67 45 0:40 / /c rw,noexec,noatime - tmpfs t2 ro\n"
		"68 45 0:41 / /with\\040space rw - ext4 /dev/sdb1 rw,dirsync,errors=remount-ro\n"
		"69 45 0:42 / /d\\043 rw - proc  rw\n"
		"70 45 0:43 / /e rw - tmpfs a\\043b rw\n");

	is_str(got,
	       "t1 /a tmpfs rw,sync,lazytime,relatime,size=1024k,mode=700 0 0\n"
	       "t1 /b tmpfs ro,sync,lazytime,nosuid,nodev,relatime,size=1024k,mode=700 0 0\n"
	       "t2 /c tmpfs ro,noexec,noatime 0 0\n"
	       "/dev/sdb1 /with\\040space ext4 rw,dirsync,errors=remount-ro 0 0\n"
	       " /d# proc rw 0 0\n"
	       "a\\043b /e tmpfs rw 0 0\n",
	       "/proc/mounts put together from mountinfo");
}

/* The kernel's own /proc/self/mounts against ours, from the same table
 * (a private namespace: nothing else mounts between the two reads). */
static void check_live_proc_mounts(const char *where)
{
	_cleanup_free_ char *raw = slurp("/proc/self/mountinfo");
	_cleanup_free_ char *mounts = slurp("/proc/self/mounts");
	_cleanup_free_ char *got = raw ? render_proc_mounts(raw) : NULL;

	is_str(got, mounts, "%s: /proc/self/mounts put together from mountinfo", where);
}

/* What a shell command printed, or NULL if it could not run or failed. */
static char *run(const char *cmd)
{
	struct ns_buf b = NS_BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *p = popen(cmd, "r");

	if (!p)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		ns_buf_add(&b, chunk, n);
	if (pclose(p) != 0) {
		ns_buf_free(&b);
		return NULL;
	}
	return ns_buf_detach(&b);
}

/* Entries of another backend render as the kernel's own text: here the
 * entries of a parse go round again, with the same result. */
static void check_entries_again(const struct ns_snapshot *s, const char *mi,
				const char *want_mount)
{
	struct ns_snapshot *t = NULL;
	struct ns_buf b = NS_BUF_INIT;

	ok(ns_snapshot_from_entries(ns_snapshot_entries(s), ns_snapshot_count(s), &t) == 0,
	   "the parsed entries make a snapshot again");
	if (!t)
		return;
	ns_snapshot_render(t, NS_RENDER_MOUNTINFO, &b);
	is_str(ns_buf_str(&b), mi, "... that renders the same mountinfo");
	ns_buf_reset(&b);
	ns_snapshot_render(t, NS_RENDER_MOUNT, &b);
	is_str(ns_buf_str(&b), want_mount, "... and the same mount(8) lines");
	ns_snapshot_free(t);
	ns_buf_free(&b);
}

TEST(fixture)
{
	_cleanup_free_ char *mi_path = data_path("tricky.mountinfo");
	_cleanup_free_ char *mount_path = data_path("tricky.mount");
	_cleanup_free_ char *mi = slurp(mi_path);
	_cleanup_free_ char *want_mount = slurp(mount_path);
	_cleanup_free_ char *got_mi = NULL, *got_mount = NULL;
	struct ns_snapshot *s = NULL;

	ok(mi && want_mount, "fixtures %s and %s are readable", mi_path,
	   mount_path);
	if (!mi || !want_mount)
		return;
	got_mi = render_mountinfo(mi);
	is_str(got_mi, mi, "tricky.mountinfo renders back byte for byte");
	got_mount = render_mount(mi);
	is_str(got_mount, want_mount, "tricky.mountinfo renders as mount(8) printed it");
	ok(ns_snapshot_parse(mi, strlen(mi), &s) == 0 &&
	   ns_snapshot_count(s) == 15, "tricky.mountinfo holds 15 mounts");
	if (s)
		check_entries_again(s, mi, want_mount);
	ns_snapshot_free(s);
}

/* Two mounts written by hand, as a model would: mount(8)'s merged options
 * and its source come from the same libmount parse as the kernel's. */
TEST(entries_by_hand)
{
	struct ns_snapshot *t = NULL;
	struct ns_buf b = NS_BUF_INIT;
	struct ns_mount_entry e[2];

	e[0] = (struct ns_mount_entry){ 61, 1, 8, 2, "/", "/", "rw,relatime", "shared:1",
					"ext4", "/dev/sda1", "rw", NULL, NULL, NULL, 0 };
	e[1] = (struct ns_mount_entry){ 77, 61, 8, 17, "/", "/mnt S", "ro,nosuid", "",
					"tmpfs", "", "rw,size=8k", NULL, NULL, NULL, 0 };
	ok(ns_snapshot_from_entries(e, 2, &t) == 0 && ns_snapshot_count(t) == 2,
	   "entries by hand make a snapshot of two mounts");
	if (!t)
		return;
	ns_snapshot_render(t, NS_RENDER_MOUNTINFO, &b);
	is_str(ns_buf_str(&b),
	       "61 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	       "77 61 8:17 / /mnt\\040S ro,nosuid - tmpfs  rw,size=8k\n",
	       "... rendered as the kernel prints them, escapes included");
	ns_buf_reset(&b);
	ns_snapshot_render(t, NS_RENDER_MOUNT, &b);
	is_str(ns_buf_str(&b),
	       "/dev/sda1 on / type ext4 (rw,relatime)\n"
	       " on /mnt S type tmpfs (ro,nosuid,size=8k)\n",
	       "... and as mount(8) prints them");
	ns_snapshot_free(t);
	ns_buf_free(&b);
}

/* Each kernel escape, optional-field shape and source oddity on its own,
 * so that a failure names the case. */
TEST(single_lines)
{
	static const char *const lines[] = {
		"77 61 8:17 / /mntS rw,relatime shared:1 - ext4 /dev/sdb6 rw\n",
		"83 61 8:15 / /mntP rw,relatime - ext4 /dev/sdb7 rw\n",
		"169 167 8:22 / /mntY rw,relatime master:2 - ext4 /dev/sdb1 rw\n",
		"1 2 0:3 / /x rw shared:4 master:5 propagate_from:6 - tmpfs t rw\n",
		"108 83 8:2 / /home/cecilia rw,relatime unbindable - ext4 /dev/sda1 rw\n",
		"1 2 0:3 / /a\\040b rw - tmpfs s\\040p rw\n",
		"1 2 0:3 / /a\\011b rw - tmpfs s\\011p rw\n",
		"1 2 0:3 / /a\\012b rw - tmpfs s\\012p rw\n",
		"1 2 0:3 /r\\134t /a\\134b rw - tmpfs s\\134p rw\n",
		"1 2 0:3 / /a#b rw - tmpfs s\\043p rw\n",
		"1 2 0:3 / /x rw - tmpfs none rw\n",
		"1 2 0:3 / /x rw - tmpfs  rw\n",
		"1 2 0:3 / /x rw - fuse.my\\040fs src rw\n",
		"1 2 0:3 / /x rw - overlay overlay rw,lowerdir=/l\\040x,upperdir=/u\n",
		"4095 1 4095:1048575 / /x rw - ext4 /dev/big rw\n",
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(lines); i++) {
		_cleanup_free_ char *got = render_mountinfo(lines[i]);

		is_str(got, lines[i], "renders back: %.*s", (int)strcspn(lines[i], "\n"),
		       lines[i]);
	}
}

/* libmount rewrites the source /dev/root to its guess of the root device;
 * mountinfo must show the kernel's text all the same. */
TEST(dev_root)
{
	static const char text[] =
		"30 1 8:1 / /r rw - ext4 /dev/root rw\n"
		"31 1 0:51 / /dev/root rw - tmpfs x rw\n"
		"32 1 0:52 / /q rw - tmpfs /dev/rootish rw\n";
	_cleanup_free_ char *got = render_mountinfo(text);
	_cleanup_free_ char *mnt = render_mount(text);

	is_str(got, text, "/dev/root source survives libmount's rewrite");
	ok(mnt && strstr(mnt, " on /dev/root type tmpfs (rw)\n") &&
	   strstr(mnt, "/dev/rootish on /q type tmpfs (rw)\n"),
	   "mount(8) view of /dev/root lines");
}

static void expect_einval(const char *text, const char *what)
{
	struct ns_snapshot *s = (struct ns_snapshot *)&s; /* must be reset */
	int rc = ns_snapshot_parse(text, strlen(text), &s);

	ok(rc == -EINVAL && s == NULL, "rejected (%d): %s", rc, what);
}

TEST(parse_errors)
{
	static const char good[] = "1 0 0:2 / / rw - tmpfs t rw\n";
	struct ns_snapshot *s = NULL;
	struct ns_buf b = NS_BUF_INIT;

	expect_einval("garbage\n", "text that is not mountinfo");
	expect_einval("/dev/sda1 / ext4 rw 0 0\n", "a /proc/mounts line");
	expect_einval("1 0 0:2 / / rw tmpfs t rw\n", "no ' - ' separator");
	expect_einval("1 0 0:2 / / rw - tmpfs\n", "no source");
	expect_einval("1 0 x:2 / / rw - tmpfs t rw\n", "bad MAJ:MIN");
	expect_einval("1 0 0:2 / / rw - tmpfs t rw\n2 1 0:3 /\n"
		      "3 1 0:4 / /b rw - tmpfs t rw\n", "a bad line in the middle");
	expect_einval("1 0 0:2 / / rw - tmpfs t rw\n2 1 0:3 /", "a bad last line");

	ok(ns_snapshot_parse("", 0, &s) == 0 && ns_snapshot_count(s) == 0,
	   "empty text is an empty table");
	if (s)
		ns_snapshot_render_mountinfo(s, &b);
	is_str(ns_buf_str(&b), "", "an empty table renders as nothing");
	ns_snapshot_free(s);
	ns_buf_free(&b);

	_cleanup_free_ char *nonl = render_mountinfo("1 0 0:2 / / rw - tmpfs t rw");
	is_str(nonl, good, "a last line without newline still counts");
}

TEST(read_errors)
{
	struct ns_snapshot *s = NULL;
	char dir[] = "/tmp/nstest-snap.XXXXXX";
	int fd;

	ok(ns_snapshot_read(-1, &s) == -EBADF && !s, "bad procfd: -EBADF");
	ok(mkdtemp(dir) != NULL, "made %s", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ok(ns_snapshot_read(fd, &s) == -ENOENT && !s,
	   "a directory that is not procfs: -ENOENT");
	close(fd);
	rmdir(dir);
}

/* mount(8) canonicalises the source of a block-device filesystem in its
 * own view of the filesystem (a symlink such as /dev/disk/by-uuid/...
 * becomes the device); the renderer deliberately does not. A line that
 * differs only that way is explained. */
static bool same_but_canonical_source(const char *mine, const char *theirs)
{
	const char *on_mine = strstr(mine, " on "), *on_theirs = strstr(theirs, " on ");
	char *src, *real;
	bool same;

	if (!on_mine || !on_theirs || strcmp(on_mine, on_theirs) != 0)
		return false;
	src = xstrndup(mine, (size_t)(on_mine - mine));
	real = realpath(src, NULL);
	same = real && strlen(real) == (size_t)(on_theirs - theirs) &&
	       strncmp(real, theirs, strlen(real)) == 0;
	free(real);
	free(src);
	return same;
}

static void compare_with_mount8(const char *mine, const char *listing,
				const char *where)
{
	struct ns_lines a = NS_LINES_INIT, b = NS_LINES_INIT;
	size_t explained = 0, i;

	ns_lines_split(&a, mine, strlen(mine));
	ns_lines_split(&b, listing, strlen(listing));
	for (i = 0; i < a.n && i < b.n; i++) {
		if (strcmp(a.v[i], b.v[i]) == 0)
			continue;
		if (!same_but_canonical_source(a.v[i], b.v[i]))
			break;
		explained++;
	}
	if (i == a.n && i == b.n)
		ok(1, "%s: renders as mount(8) prints it (%zu lines, %zu with a "
		   "canonicalised source)", where, a.n, explained);
	else
		is_str(mine, listing, "%s: renders as mount(8) prints it", where);
	ns_lines_free(&a);
	ns_lines_free(&b);
}

/* The live table, read twice in a row, must render as read. */
static void check_live_table(const char *where)
{
	_cleanup_free_ char *raw = slurp("/proc/self/mountinfo");
	_cleanup_free_ char *got = raw ? render_mountinfo(raw) : NULL;
	_cleanup_free_ char *listing = run("mount 2>/dev/null");
	_cleanup_free_ char *got_mount = raw ? render_mount(raw) : NULL;
	struct ns_snapshot *s = NULL;
	struct ns_buf b = NS_BUF_INIT;
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	is_str(got, raw, "%s: /proc/self/mountinfo renders back byte for byte", where);
	ok(ns_snapshot_read(procfd, &s) == 0, "%s: ns_snapshot_read", where);
	if (s)
		ns_snapshot_render_mountinfo(s, &b);
	is_str(ns_buf_str(&b), raw, "%s: ns_snapshot_read renders the same", where);
	if (listing)
		compare_with_mount8(got_mount, listing, where);
	else
		ok(1, "# SKIP %s: mount(8) did not run", where);
	ns_snapshot_free(s);
	ns_buf_free(&b);
	close(procfd);
}

TEST(live_table)
{
	check_live_table("host");
}

static int mkdirs(const char *base, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *p = xasprintf("%s/%s", base, names[i]);

		if (mkdir(p, 0755) < 0)
			return -1;
	}
	return 0;
}

static int mount_at(const char *src, const char *base, const char *dir,
		    const char *type, unsigned long flags)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", base, dir);

	return mount(src, p, type, flags, NULL);
}

static int bind_at(const char *base, const char *from, const char *to)
{
	_cleanup_free_ char *src = xasprintf("%s/%s", base, from);

	return mount_at(src, base, to, NULL, MS_BIND);
}

static int set_propagation(const char *base, const char *dir, unsigned long how)
{
	return mount_at(NULL, base, dir, NULL, how);
}

static int mkdir_at(const char *base, const char *dir)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", base, dir);

	return mkdir(p, 0755);
}

/* Mount points and sources that need every kernel escape, and optional
 * fields of every shape: shared, master, both, unbindable. */
static int make_tricky_mounts(const char *base)
{
	static const char *const dirs[] = {
		"sp ace", "t\tab", "back\\slash", "new\nline", "h#ash",
		"empty", "none", "devroot", "peer", "slave",
	};

	if (mount("nstest-base", base, "tmpfs", 0, NULL) < 0 ||
	    mkdirs(base, dirs, NS_ARRAY_SIZE(dirs)) < 0)
		return -1;
	if (mount_at("src with space", base, "sp ace", "tmpfs", 0) < 0 ||
	    mount_at("s\\rc\ttab", base, "t\tab", "tmpfs", 0) < 0 ||
	    mount_at("a#b,c", base, "back\\slash", "tmpfs", 0) < 0 ||
	    mount_at("x\ny", base, "new\nline", "tmpfs", 0) < 0 ||
	    mount_at("hash", base, "h#ash", "tmpfs", MS_NOSUID | MS_RDONLY) < 0 ||
	    mount_at("", base, "empty", "tmpfs", 0) < 0 ||
	    mount_at("none", base, "none", "tmpfs", 0) < 0 ||
	    mount_at("/dev/root", base, "devroot", "tmpfs", 0) < 0)
		return -1;
	/* a bind of a subdirectory has a root other than "/" */
	if (mkdir_at(base, "sp ace/dir x") < 0 ||
	    set_propagation(base, "sp ace", MS_SHARED) < 0 ||
	    bind_at(base, "sp ace/dir x", "peer") < 0 ||
	    bind_at(base, "sp ace", "slave") < 0 ||
	    set_propagation(base, "slave", MS_SLAVE) < 0 ||
	    set_propagation(base, "slave", MS_SHARED) < 0 ||
	    set_propagation(base, "h#ash", MS_UNBINDABLE) < 0)
		return -1;
	return 0;
}

/* libmount guesses the device behind "/dev/root" from root= on the kernel
 * command line; give it one, so that the rewrite really happens. */
static int fake_kernel_cmdline(const char *base)
{
	_cleanup_free_ char *path = xasprintf("%s/cmdline", base);
	static const char line[] = "root=/dev/nstest-guessed\n";
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (ns_write_all(fd, line, sizeof(line) - 1) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	return mount(path, "/proc/cmdline", NULL, MS_BIND, NULL);
}

static void check_dev_root_rewritten(void)
{
	static const char text[] = "30 1 8:1 / /r rw - ext4 /dev/root rw\n";
	_cleanup_free_ char *got = render_mountinfo(text);
	_cleanup_free_ char *mnt = render_mount(text);

	is_str(mnt, "/dev/nstest-guessed on /r type ext4 (rw)\n",
	       "libmount rewrote /dev/root from root=");
	is_str(got, text, "mountinfo still shows /dev/root");
}

/* Everything below runs in a new mount namespace whose mounts are all
 * private first, so nothing made here can reach the host. */
TEST(private_namespace)
{
	char base[] = "/tmp/nstest-snap.XXXXXX";

	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0) {
		ok(1, "# SKIP needs root and a new mount namespace");
		return;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		printf("Bail out! cannot make / rprivate: %s\n", strerror(errno));
		exit(1);
	}
	if (!mkdtemp(base)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	ok(make_tricky_mounts(base) == 0, "tricky mounts under %s: %s", base,
	   strerror(errno));
	ok(fake_kernel_cmdline(base) == 0, "root= on a private /proc/cmdline: %s",
	   strerror(errno));
	check_live_table("private namespace");
	check_live_proc_mounts("private namespace");
	check_dev_root_rewritten();
	umount2(base, MNT_DETACH);
	rmdir(base);
}

/* The strings of an entry, for comparing two entries field by field. */
static const char *entry_str(const struct ns_mount_entry *e, int k)
{
	const char *all[] = {
		e->root, e->target, e->vfs_options, e->fields, e->fstype, e->source,
		e->fs_options, e->mount_source, e->mount_options, e->srcpath,
	};

	return all[k];
}

static bool same_entry(const struct ns_mount_entry *a, const struct ns_mount_entry *b)
{
	if (a->id != b->id || a->parent != b->parent || a->major != b->major ||
	    a->minor != b->minor || a->propagation != b->propagation)
		return false;
	for (int k = 0; k < 10; k++) {
		const char *x = entry_str(a, k), *y = entry_str(b, k);

		if ((!x) != (!y) || (x && strcmp(x, y)))
			return false;
	}
	return true;
}

/* ns_snapshot_from_entries() remembers libmount's parse of each line's
 * options, fields, type and source: its entries are, field by field,
 * those of parsing the rendered lines, the first time (a miss) and the
 * second (a hit), and after the memo was flushed by many distinct lines. */
TEST(entries_memo_same_as_parse)
{
	static const char text[] =
		"20 1 0:41 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		"21 20 0:41 /b/x /a rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		"22 20 8:1 / /root\\040dir ro,nosuid master:3 - ext4 /dev/root rw,errors=remount-ro\n"
		"23 20 0:3 /r\\134t /a\\012b rw shared:4 master:5 propagate_from:6 - fuse.my\\040fs s\\043p rw\n"
		"24 23 0:44 / /x rw,noexec unbindable - tmpfs  ro,size=8k\n"
		"25 23 0:45 / /y rw - overlay overlay rw,lowerdir=/l\\040x,upperdir=/u\n"
		"26 23 0:46 / /z ro - proc LABEL=x rw,sync,lazytime\n";
	struct ns_snapshot *s = NULL, *t = NULL, *u = NULL, *big = NULL;
	struct ns_mount_entry many[700];
	char opts[700][32];
	bool same = true;

	ok(ns_snapshot_parse(text, strlen(text), &s) == 0 && ns_snapshot_count(s) == 7,
	   "seven tricky lines parse");
	if (!s)
		return;
	ok(ns_snapshot_from_entries(ns_snapshot_entries(s), 7, &t) == 0 &&
	   ns_snapshot_from_entries(ns_snapshot_entries(s), 7, &u) == 0,
	   "their entries make a snapshot twice");
	for (size_t i = 0; t && u && i < 7; i++)
		same = same && same_entry(&ns_snapshot_entries(s)[i], &ns_snapshot_entries(t)[i]) &&
		       same_entry(&ns_snapshot_entries(s)[i], &ns_snapshot_entries(u)[i]);
	ok(t && u && same, "... each entry, field by field, what the parse of the lines gave");
	for (size_t i = 0; i < NS_ARRAY_SIZE(many); i++) {
		snprintf(opts[i], sizeof(opts[i]), "rw,size=%zuk", i + 1);
		many[i] = ns_snapshot_entries(s)[i % 7];
		many[i].fs_options = opts[i];
	}
	ok(ns_snapshot_from_entries(many, NS_ARRAY_SIZE(many), &big) == 0 &&
	   ns_snapshot_count(big) == NS_ARRAY_SIZE(many),
	   "700 distinct lines in one snapshot (more than the memo holds)");
	same = big != NULL;
	for (size_t i = 0; big && i < NS_ARRAY_SIZE(many); i++)
		same = same && !strcmp(ns_snapshot_entries(big)[i].fs_options, opts[i]) &&
		       ns_snapshot_entries(big)[i].id == many[i].id;
	ok(same, "... each with its own options");
	ns_snapshot_free(big);
	ns_snapshot_free(u);
	ns_snapshot_free(t);
	ns_snapshot_free(s);
}

/* A line libmount refuses is refused from entries too, memo or not. */
TEST(entries_memo_refuses_what_parse_refuses)
{
	static const char bad[] = "1 1 0:3 / / rw - ";
	struct ns_mount_entry e = { 1, 1, 0, 3, "/", "/", "rw", "", "", "", "", NULL, NULL, NULL, 0 };
	struct ns_snapshot *s = NULL;

	ok(ns_snapshot_parse(bad, strlen(bad), &s) < 0 && !s,
	   "a line with no type and no source does not parse");
	ok(ns_snapshot_from_entries(&e, 1, &s) < 0 && !s, "... nor does an entry with none");
	ok(ns_snapshot_from_entries(&e, 1, &s) < 0 && !s, "... not even the second time");
}

/* ns_mountinfo_reads_back() may only say yes to text that the parse
 * renders back byte for byte; what it refuses still goes through the
 * parse, so a no is always safe. */
static void reads_back_as_is(const char *text, bool want, const char *what)
{
	_cleanup_free_ char *again = render_mountinfo(text);
	bool said = ns_mountinfo_reads_back(text, strlen(text));

	ok(said == want, "reads back %s: %s", want ? "as is" : "only through the parse", what);
	if (said)
		is_str(again, text, "and the parse agrees: %s", what);
}

/* Where the answer is libmount's (its version), only a yes is checked. */
static void never_wrong(const char *text, const char *what)
{
	_cleanup_free_ char *again = render_mountinfo(text);

	if (ns_mountinfo_reads_back(text, strlen(text)))
		is_str(again, text, "a yes agrees with the parse: %s", what);
	else
		ok(1, "through the parse: %s", what);
}

TEST(reads_back)
{
	_cleanup_free_ char *tricky_path = data_path("tricky.mountinfo");
	_cleanup_free_ char *tricky = slurp(tricky_path);
	_cleanup_free_ char *host = NULL;
	size_t len = 0;

	reads_back_as_is("54 51 0:43 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw,inode64\n"
			 "60 54 0:44 / /a rw,relatime shared:2 master:1 - tmpfs /dev/d1 rw\n"
			 "61 54 0:44 /x /b/x/y ro,nosuid - tmpfs /dev/d1 rw\n",
			 true, "plain lines");
	/* the second time the same rests are known */
	reads_back_as_is("70 54 0:43 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw,inode64\n",
			 true, "a rest seen before");
	reads_back_as_is("", false, "no text");
	reads_back_as_is("1 0 0:2 / / rw - tmpfs t rw", false, "no newline at the end");
	reads_back_as_is("1 0 0:2 / /a\\040b rw - tmpfs t rw\n", false, "an escape");
	reads_back_as_is("01 0 0:2 / / rw - tmpfs t rw\n", false, "a number with a leading zero");
	reads_back_as_is("1 0 0:2 / /a(deleted) rw - tmpfs t rw\n", false, "a target libmount cuts");
	/* a libmount that drops source "none" prints it as nothing: a
	 * rest that reads back otherwise is never taken as it is */
	never_wrong("1 0 0:2 / / rw - tmpfs none rw\n", "source \"none\"");
	reads_back_as_is("1 0 0:2 / / rw - tmpfs /dev/root rw\n", true, "/dev/root, kept");
	reads_back_as_is("garbage\n", false, "not mountinfo");
	reads_back_as_is("1 0 0:2 / / rw tmpfs t rw\n", false, "no separator");
	/* far more rests than the table of those seen holds: it forgets
	 * and learns again, and every answer stays right */
	{
		size_t yes = 0, agree = 0;

		for (unsigned i = 0; i < 3000; i++) {
			char line[96];
			_cleanup_free_ char *again = NULL;

			snprintf(line, sizeof(line), "%u 1 0:%u / /a rw - tmpfs t%u rw\n",
				 i + 2, i % 7, i);
			again = render_mountinfo(line);
			if (ns_mountinfo_reads_back(line, strlen(line))) {
				yes++;
				agree += again && !strcmp(again, line);
			}
		}
		ok(yes == 3000 && agree == 3000, "3000 different rests: %zu read back, %zu agree",
		   yes, agree);
	}
	if (tricky && ns_mountinfo_reads_back(tricky, strlen(tricky))) {
		_cleanup_free_ char *again = render_mountinfo(tricky);
		is_str(again, tricky, "tricky.mountinfo: a yes agrees with the parse");
	} else {
		ok(tricky != NULL, "tricky.mountinfo goes through the parse");
	}
	if (ns_read_file("/proc/self/mountinfo", 1u << 24, &host, &len) == 0 &&
	    ns_mountinfo_reads_back(host, len)) {
		_cleanup_free_ char *again = render_mountinfo(host);
		is_str(again, host, "this host's table: a yes agrees with the parse");
	} else {
		ok(1, "this host's table goes through the parse");
	}
}
