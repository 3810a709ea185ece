/* exec_files.c - rmdir, mv, ln -s, pwd, echo, readlink and realpath on
 * the kernel, each the system call its tool makes (rmdir(2), rename(2),
 * symlink(2), getcwd(3), open(2) and write(2), lstat(2) and readlink(2)),
 * on the terminal's own root and
 * working directory. A symbolic link is resolved by the kernel inside
 * the terminal's root, which is the sandbox or below it: an absolute
 * target starts there and ".." stops there (path_resolution(7)). */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/args.h"
#include "commands/canonpath.h"
#include "kernel/handles.h"
#include "kernel/terminal.h"

int ns_kexec_rmdir(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)t, (void)out;
	for (size_t i = 0; i < a->nops; i++) {
		char *p = xstrdup(a->ops[i]);
		int r = rmdir(p);

		while (r == 0 && a->parents && ns_rmdir_parent(p))
			r = rmdir(p);
		free(p);
		if (r < 0)
			return ns_cmd_fail(res, "rmdir", errno);
	}
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Where mv or ln puts src given dst: into dst when it is a directory
 * (symbolic links followed, as stat(2) does), else dst itself. Heap. */
static char *place(const char *src, const char *dst)
{
	size_t n;
	const char *last = ns_path_last(src, &n);

	if (!is_dir(dst))
		return xstrdup(dst);
	return xasprintf("%s%s%.*s", dst, dst[strlen(dst) - 1] == '/' ? "" : "/", (int)n, last);
}

int ns_kexec_mv(struct ns_term *t, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	const char *dst = a->ops[a->nops - 1];

	(void)t, (void)out;
	/* several sources go into a directory (mv(1): "target is not a
	 * directory" otherwise) */
	if (a->nops > 2 && !is_dir(dst))
		return ns_cmd_fail(res, "stat", ENOTDIR);
	for (size_t i = 0; i + 1 < a->nops; i++) {
		char *to = a->no_target ? xstrdup(dst) : place(a->ops[i], dst);
		int r = rename(a->ops[i], to);

		free(to);
		if (r < 0)
			return ns_cmd_fail(res, "rename", errno);
	}
	return 0;
}

int ns_kexec_ln(struct ns_term *t, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	size_t ntargets = a->nops == 1 ? 1 : a->nops - 1;
	const char *dst = a->nops == 1 ? "." : a->ops[a->nops - 1];

	(void)t, (void)out;
	if (a->nops > 2 && !is_dir(dst))
		return ns_cmd_fail(res, "stat", ENOTDIR);
	for (size_t i = 0; i < ntargets; i++) {
		char *link = place(a->ops[i], dst);
		int r = symlink(a->ops[i], link);

		free(link);
		if (r < 0)
			return ns_cmd_fail(res, "symlink", errno);
	}
	return 0;
}

/* exec N< FILE: the file open read-only, kept with the shell's handles
 * as "&N" (passed on to the shells it starts, closed when it exits); an
 * fd N already held is closed first, as dup2(2) would. exec N<&-
 * closes it, and closing one not open is no error, as in bash. */
int ns_kexec_exec(struct ns_term *t, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	const struct ns_exec_args *a = args;

	(void)out;
	for (size_t i = 0; i < a->n; i++) {
		char name[16];
		struct ns_handle *h;
		int fd;

		snprintf(name, sizeof(name), "&%d", a->v[i].fd);
		if (a->v[i].file) {
			fd = open(a->v[i].file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
			if (fd < 0)
				return ns_cmd_fail(res, "open", errno);
			ns_handles_keep(&t->handles, name, fd);
			continue;
		}
		h = ns_handles_find(&t->handles, name, strlen(name));
		if (!h)
			continue;
		fd = h->fd;
		ns_handles_drop(&t->handles, h);
		if (close(fd) < 0)
			return ns_cmd_fail(res, "close", errno);
	}
	return 0;
}

int ns_kexec_pwd(struct ns_term *t, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	char buf[PATH_MAX];

	(void)t, (void)args;
	/* glibc's getcwd fails with ENOENT for a directory that was
	 * removed or that the root cannot reach ("(unreachable)") */
	if (!getcwd(buf, sizeof(buf)))
		return ns_cmd_fail(res, "getcwd", errno);
	ns_buf_addf(out, "%s\n", buf);
	return 0;
}

int ns_kexec_echo(struct ns_term *t, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	const struct ns_echo_args *a = args;
	struct ns_buf text = NS_BUF_INIT;
	int fd, r;

	(void)t;
	ns_echo_text(a, &text);
	if (!a->file) {
		ns_buf_add(out, text.data, text.len);
		ns_buf_free(&text);
		return 0;
	}
	/* the shell's redirection: 0666 less the umask (022) */
	fd = open(a->file, O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC |
			   (a->append ? O_APPEND : O_TRUNC), 0666);
	if (fd < 0) {
		ns_buf_free(&text);
		return ns_cmd_fail(res, "open", errno);
	}
	r = ns_write_all(fd, text.data, text.len);
	close(fd);
	ns_buf_free(&text);
	return r < 0 ? ns_cmd_fail(res, "write", -r) : 0;
}

static int k_lstat(void *ctx, const char *path, bool *link, bool *dir)
{
	struct stat st;

	(void)ctx;
	if (lstat(path, &st) < 0)
		return -errno;
	*link = S_ISLNK(st.st_mode);
	*dir = S_ISDIR(st.st_mode);
	return 0;
}

static int k_readlink(void *ctx, const char *path, char **target)
{
	char buf[PATH_MAX];
	ssize_t n;

	(void)ctx;
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	*target = xstrdup(buf);
	return 0;
}

static const struct ns_cp_ops k_cp_ops = { k_lstat, k_readlink };

/* The name made canonical as coreutils does (commands/canonpath.h), from
 * the working directory getcwd(3) gives. 0 or -errno. */
static int canonical(const char *path, char **out)
{
	char cwd[PATH_MAX];

	if (*path != '/' && !getcwd(cwd, sizeof(cwd)))
		return -errno;
	return ns_canonicalize(&k_cp_ops, NULL, *path == '/' ? "/" : cwd, path, out);
}

/* readlink [-f] PATH: the link's text, or with -f the name made
 * canonical; nothing at all when that fails, as readlink(1) prints no
 * message unless asked (-v). */
/* readlink(1) prints nothing for a FILE it cannot read (-q is its
 * default) and exits 1 after the others */
static void readlink_failed(struct ns_cmd_result *res)
{
	res->status = 1;
	res->silent = true;
}

int ns_kexec_readlink(struct ns_term *t, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)t;
	for (size_t i = 0; i < a->nops; i++) {
		char *text = NULL;

		if ((a->canonical ? canonical(a->ops[i], &text) : k_readlink(NULL, a->ops[i], &text)) == 0)
			ns_buf_addf(out, "%s\n", text);
		else
			readlink_failed(res);
		free(text);
	}
	return 0;
}

int ns_kexec_realpath(struct ns_term *t, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)t;
	/* realpath(1) names a FILE it cannot resolve and goes on; nstest
	 * ends the step there, after the names before it */
	for (size_t i = 0; i < a->nops; i++) {
		char *name;
		int r = canonical(a->ops[i], &name);

		if (r < 0)
			return ns_cmd_fail(res, "realpath", -r);
		ns_buf_addf(out, "%s\n", name);
		free(name);
	}
	return 0;
}
