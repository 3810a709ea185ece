/* exec_inspect.c - stat -c, mountpoint and diff on the kernel: what the
 * tools ask of the system (stat(2), the mount table, directory listings
 * and file contents), rendered by the shared code of commands/. */
#include "kernel/exec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "commands/args.h"
#include "commands/difftree.h"
#include "mounts/mountpoint.h"
#include "kernel/mountinfo.h"
#include "kernel/terminal.h"

/* ---- stat ------------------------------------------------------------------ */

/* The directory coreutils' find_mount_point() starts from: file itself
 * when it is a directory, else the directory that names it. Heap. */
static char *start_dir(const char *file, const struct stat *sb)
{
	return S_ISDIR(sb->st_mode) ? xstrdup(file) : ns_path_dir(file);
}

/* stat's %m: up through ".." while the device stays the same and ".."
 * is another directory; the path of where that stops, as getcwd(3)
 * gives it (coreutils' find_mount_point()). Heap, or NULL with errno. */
static char *mount_point(const char *file, const struct stat *sb)
{
	char *dir = start_dir(file, sb), buf[PATH_MAX], *mp = NULL;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), save, err;
	struct stat last, up;

	free(dir);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &last) < 0)
		goto out;
	for (;;) {
		int pfd = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (pfd < 0)
			goto out;
		if (fstat(pfd, &up) < 0) {
			err = errno;
			close(pfd);
			errno = err;
			goto out;
		}
		if (up.st_dev != last.st_dev || up.st_ino == last.st_ino) {
			close(pfd);
			break;
		}
		close(fd);
		fd = pfd;
		last = up;
	}
	/* getcwd(3) names the directory, as coreutils' xgetcwd() does;
	 * the terminal's own directory is put back */
	save = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (save < 0)
		goto out;
	if (fchdir(fd) == 0) {
		if (getcwd(buf, sizeof(buf)))
			mp = xstrdup(buf);
		err = errno;
		if (fchdir(save) < 0) {
			err = errno;
			free(mp);
			mp = NULL;
		}
		errno = err;
	}
	close(save);
out:
	err = errno;
	close(fd);
	errno = err;
	return mp;
}

int ns_kexec_stat(struct ns_term *t, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	const struct ns_stat_args *a = args;

	(void)t;
	for (size_t i = 0; i < a->nfiles; i++) {
		const char *f = a->files[i];
		struct stat sb;
		struct ns_stat_info in;
		char *mp = NULL;

		if ((a->deref ? stat(f, &sb) : lstat(f, &sb)) < 0)
			return ns_cmd_fail(res, "stat", errno);
		if (ns_stat_wants(a, NS_STAT_MOUNT) && !(mp = mount_point(f, &sb)))
			return ns_cmd_fail(res, "getcwd", errno);
		in = (struct ns_stat_info){
			.major = major(sb.st_dev), .minor = minor(sb.st_dev),
			.ino = sb.st_ino, .mode = sb.st_mode, .nlink = sb.st_nlink,
			.size = (unsigned long long)sb.st_size, .uid = sb.st_uid, .gid = sb.st_gid,
			.rdev_major = major(sb.st_rdev), .rdev_minor = minor(sb.st_rdev),
			.mountpoint = mp,
		};
		ns_stat_format(a, f, &in, out);
		free(mp);
	}
	return 0;
}

/* ---- mountpoint ----------------------------------------------------------- */

/* util-linux's way: the path made canonical, then the last mount of the
 * terminal's table whose mount point it is. */
int ns_kexec_mountpoint(struct ns_term *t, const void *args, struct ns_buf *out,
			struct ns_cmd_result *res)
{
	const struct ns_mountpoint_args *a = args;
	struct ns_snapshot *snap;
	struct stat sb;
	char *canon;
	int r;

	if (stat(a->path, &sb) < 0)
		return ns_cmd_fail(res, "stat", errno);
	canon = realpath(a->path, NULL);
	if (!canon)
		return ns_cmd_fail(res, "realpath", errno);
	r = ns_snapshot_read(t->procfd, &snap);
	if (r < 0) {
		free(canon);
		return ns_cmd_fail(res, "read mountinfo", -r);
	}
	res->status = ns_mountpoint_answer(a, ns_snapshot_entries(snap), ns_snapshot_count(snap),
					   canon, out);
	ns_snapshot_free(snap);
	free(canon);
	return 0;
}

/* ---- diff ------------------------------------------------------------------- */

static int k_stat(void *ctx, const char *path, struct ns_dt_stat *st)
{
	struct stat sb;

	(void)ctx;
	if (stat(path, &sb) < 0)
		return -errno;
	*st = (struct ns_dt_stat){ sb.st_mode, (unsigned long long)sb.st_size, sb.st_dev, sb.st_ino };
	return 0;
}

static int k_list(void *ctx, const char *path, struct ns_lines *names)
{
	DIR *d = opendir(path);
	struct dirent *de;

	(void)ctx;
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ns_lines_push(names, de->d_name);
	closedir(d);
	return 0;
}

static int k_read(void *ctx, const char *path, char **data, size_t *len)
{
	(void)ctx;
	return ns_read_file(path, 64u << 20, data, len);
}

int ns_kexec_diff(struct ns_term *t, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	static const struct ns_dt_ops ops = { k_stat, k_list, k_read };
	const char *call = "diff";
	int r = ns_difftree(args, &ops, NULL, out, &call);

	(void)t;
	if (r < 0)
		return ns_cmd_fail(res, call, -r);
	res->status = r;
	return 0;
}
