/* outfile.c - see outfile.h. */
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* ---- the stream ---------------------------------------------------------- */

/* A write that fails is kept, and everything after it is dropped: the
 * file is lost anyway, and a reader that went away (EPIPE) needs no more.
 * stdio takes 0 as an error and sets the stream's error flag. */
static ssize_t keep_write(int fd, int *err, const char *buf, size_t n)
{
	int r;

	if (*err)
		return 0;
	r = ns_write_all(fd, buf, n);
	if (r < 0) {
		*err = -r;
		errno = -r;
		return 0;
	}
	return (ssize_t)n;
}

static ssize_t outfile_write(void *cookie, const char *buf, size_t n)
{
	struct ns_outfile *o = cookie;

	return keep_write(o->fd, &o->err, buf, n);
}

static int outfile_close(void *cookie)
{
	struct ns_outfile *o = cookie;
	int r = o->fd >= 0 ? close(o->fd) : 0;

	if (r < 0 && !o->err)
		o->err = errno;
	o->fd = -1;
	return r;
}

static const cookie_io_functions_t outfile_io = { NULL, outfile_write, NULL, outfile_close };

/* ---- opening ------------------------------------------------------------- */

/* The folder of o->path ("." or "/" where it names none) and a free
 * name there for the temporary file: ".NAME.PID.N", N from n. */
static char *temp_name(const struct ns_outfile *o, unsigned n, char **dir)
{
	const char *slash = strrchr(o->path, '/');
	const char *base = slash ? slash + 1 : o->path;

	*dir = !slash ? xstrdup(".") : slash == o->path ? xstrdup("/")
		: xstrndup(o->path, (size_t)(slash - o->path));
	return xasprintf("%s/.%s.%ld.%u", *dir, base, (long)getpid(), n);
}

/* A new file next to the name, unnamed where the filesystem can. The mode
 * 0666 goes through the umask, as fopen's does. fd, or -errno. */
static int open_temp(struct ns_outfile *o)
{
	char *dir;
	int fd, err;

	free(temp_name(o, 0, &dir));
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	free(dir);
	if (fd >= 0) {
		o->unnamed = true;
		return fd;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	for (unsigned n = 0; n < 100; n++) {
		o->tmp = temp_name(o, n, &dir);
		free(dir);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0)
			return fd;
		err = errno;
		free(o->tmp);
		o->tmp = NULL;
		if (err != EEXIST)
			return -err;
	}
	return -EEXIST;
}

int ns_outfile_open(struct ns_outfile *o, const char *path)
{
	struct stat st;
	bool old = stat(path, &st) == 0;
	int r;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->direct = old && !S_ISREG(st.st_mode);
	/* a symlink to a file: the file is replaced, not the link */
	o->path = old && !o->direct ? realpath(path, NULL) : xstrdup(path);
	if (!o->path)
		return -errno;
	if (!o->direct) {
		r = open_temp(o);
		if ((r == -EACCES || r == -EPERM) && old)
			o->direct = true;
		else if (r < 0)
			goto fail;
		else
			o->fd = r;
	}
	if (o->direct) {
		o->fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (o->fd < 0) {
			r = -errno;
			goto fail;
		}
	} else if (old) {
		/* replacing a file keeps its mode and, where allowed, owner */
		if (fchmod(o->fd, st.st_mode & 07777) < 0 ||
		    (fchown(o->fd, st.st_uid, st.st_gid) < 0 && errno != EPERM)) {
			r = -errno;
			goto fail;
		}
	}
	o->f = fopencookie(o, "w", outfile_io);
	if (!o->f) {
		r = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	ns_outfile_abort(o);
	return r;
}

/* ---- finishing ----------------------------------------------------------- */

static void release(struct ns_outfile *o)
{
	if (o->f)
		fclose(o->f); /* closes fd through outfile_close */
	else if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

void ns_outfile_abort(struct ns_outfile *o)
{
	if (!o->err)
		o->err = ECANCELED; /* what is still buffered is dropped */
	release(o);
}

/* The unnamed file gets a name in the folder, which rename then moves. */
static int name_it(struct ns_outfile *o)
{
	char self[64], *dir;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", o->fd);
	for (unsigned n = 0; n < 100; n++) {
		o->tmp = temp_name(o, n, &dir);
		free(dir);
		/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc does not */
		if (linkat(o->fd, "", AT_FDCWD, o->tmp, AT_EMPTY_PATH) == 0 ||
		    linkat(AT_FDCWD, self, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		free(o->tmp);
		o->tmp = NULL;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int ns_outfile_commit(struct ns_outfile *o)
{
	int r = 0;

	if (fflush(o->f) != 0 || ferror(o->f))
		r = -(o->err ? o->err : EIO);
	else if (!o->direct && fsync(o->fd) < 0)
		r = -errno;
	else if (o->unnamed)
		r = name_it(o);
	if (r == 0) {
		/* close before the rename: some filesystems (NFS) report
		 * a failed write only there */
		int c = fclose(o->f);

		o->f = NULL;
		if (c != 0)
			r = -(o->err ? o->err : EIO);
	}
	if (r == 0 && !o->direct && rename(o->tmp, o->path) < 0)
		r = -errno;
	if (r == 0) {
		free(o->tmp);
		o->tmp = NULL; /* renamed: nothing to remove */
	} else if (!o->err) {
		o->err = -r;
	}
	release(o);
	return r;
}

int ns_write_file_atomic(const char *path, const void *data, size_t len)
{
	struct ns_outfile o;
	int r = ns_outfile_open(&o, path);

	if (r < 0)
		return r;
	if (len)
		fwrite(data, 1, len, o.f);
	return ns_outfile_commit(&o);
}

/* ---- standard output ----------------------------------------------------- */

static int stdout_err;
static FILE *stdio_stdout; /* stdio's own, while ours is in its place */

static ssize_t stdout_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	return keep_write(STDOUT_FILENO, &stdout_err, buf, n);
}

void ns_stdout_watch(void)
{
	static const cookie_io_functions_t io = { NULL, stdout_write, NULL, NULL };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return; /* stdio's own stream: errors found, their errno maybe not */
	stdio_stdout = stdout;
	stdout = f;
}

int ns_stdout_close(void)
{
	bool failed = fflush(stdout) != 0 || ferror(stdout);
	int err = stdout_err;

	if (failed && !err)
		err = stdio_stdout ? EIO : errno ? errno : EIO;
	if (stdio_stdout) {
		/* ours has no file descriptor; a stray write after this goes
		 * to stdio's, into a closed fd 1 */
		fclose(stdout);
		stdout = stdio_stdout;
		stdio_stdout = NULL;
	}
	/* a closed standard output (>&-) that was never written is fine */
	if (close(STDOUT_FILENO) < 0 && errno != EBADF && !err)
		err = errno;
	return err;
}
