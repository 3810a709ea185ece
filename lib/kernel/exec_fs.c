/* exec_fs.c - the file commands on the kernel: mkdir, touch, ls, cd, cat
 * and chroot, each on the terminal's own root and working directory. */
#include "kernel/exec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "commands/args.h"
#include "commands/ls_layout.h"
#include "kernel/terminal.h"
#include "mounts/snapshot.h"

/* mkdir -p: create each missing component, accepting existing dirs. */
static int mkdir_parents(const char *path)
{
	char *p = xstrdup(path);
	int r = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;
			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				r = -1;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	if (r == 0) {
		struct stat sb;
		if (stat(p, &sb) < 0)
			r = -1;
		else if (!S_ISDIR(sb.st_mode)) {
			errno = ENOTDIR;
			r = -1;
		}
	}
	free(p);
	return r;
}

int ns_kexec_mkdir(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)t, (void)out;
	for (size_t i = 0; i < a->nops; i++) {
		int r = a->parents ? mkdir_parents(a->ops[i]) : mkdir(a->ops[i], 0755);
		if (r < 0)
			return ns_cmd_fail(res, "mkdir", errno);
	}
	return 0;
}

int ns_kexec_touch(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)t, (void)out;
	for (size_t i = 0; i < a->nops; i++) {
		int fd = open(a->ops[i], O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC, 0644);
		if (fd < 0)
			return ns_cmd_fail(res, "open", errno);
		if (futimens(fd, NULL) < 0) {
			int err = errno;
			close(fd);
			return ns_cmd_fail(res, "futimens", err);
		}
		close(fd);
	}
	return 0;
}

/* One file of ls -l: lstat(2) of path (stat(2) when follow), shown as
 * name. 0, or -1 with errno. */
static int long_entry(const char *path, const char *name, bool follow, struct ns_ls_entry *e)
{
	struct stat sb;

	if ((follow ? stat(path, &sb) : lstat(path, &sb)) < 0)
		return -1;
	*e = (struct ns_ls_entry){
		.name = name,
		.st = { .mode = sb.st_mode, .nlink = sb.st_nlink, .uid = sb.st_uid,
			.gid = sb.st_gid, .size = (unsigned long long)sb.st_size,
			.rdev_major = major(sb.st_rdev), .rdev_minor = minor(sb.st_rdev) },
		.blocks = (unsigned long long)sb.st_blocks,
		.mtime = sb.st_mtim.tv_sec,
	};
	if (S_ISLNK(sb.st_mode)) {
		char buf[4096];
		ssize_t n = readlink(path, buf, sizeof(buf) - 1);

		if (n < 0)
			return -1;
		e->link = xstrndup(buf, (size_t)n);
	}
	return 0;
}

static void free_entries(struct ns_ls_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)(uintptr_t)v[i].link);
	free(v);
}

/* ls -l of the directory at path (names sorted), each entry lstat'd
 * through its name, as ls does; the call that failed, or NULL */
static const char *long_dir(const char *path, const struct ns_lines *names,
			    struct ns_ls_entry *v)
{
	struct ns_buf p = NS_BUF_INIT;

	for (size_t i = 0; i < names->n; i++) {
		ns_buf_reset(&p);
		ns_buf_addf(&p, "%s/%s", path, names->v[i]);
		if (long_entry(ns_buf_str(&p), names->v[i], false, &v[i]) < 0) {
			ns_buf_free(&p);
			return "lstat";
		}
	}
	ns_buf_free(&p);
	return NULL;
}

/* ls at one operand, into *f: the operand as a file of its own (a file;
 * with -l a symbolic link, which ls -l never follows on its command
 * line; a link that leads nowhere), or a directory's sorted names; with
 * -l, each one's entry. The call that failed, with *err, or NULL. */
static const char *ls_read(const struct ns_fs_args *a, const char *word, const char *path,
			   struct ns_ls_operand *f, int *err)
{
	/* a bare handle's path is a magic link of procfs: stat follows it */
	bool bare = ns_is_handle_path(word, NULL) && !strchr(word, '/');
	const char *call = NULL;
	struct dirent *de;
	struct stat sb;
	DIR *d = NULL;

	f->name = word;
	if (a->longf && !bare && lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		f->file = true;
	} else if (!(d = opendir(path))) {
		*err = errno;
		/* like ls(1): a file operand, or a symbolic link that leads
		 * nowhere, lists as its own name */
		f->file = *err == ENOTDIR ||
			  (*err == ENOENT && lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode));
		if (!f->file)
			return "opendir";
	}
	if (d) {
		while ((de = readdir(d)))
			if (a->all || de->d_name[0] != '.')
				ns_lines_push(&f->names, de->d_name);
		closedir(d);
		ns_lines_sort(&f->names);
	}
	if (!a->longf)
		return NULL;
	f->n = f->file ? 1 : f->names.n;
	f->v = xcalloc(f->n + 1, sizeof(*f->v));
	if (f->file && long_entry(path, word, bare, &f->v[0]) < 0)
		call = "lstat";
	else if (!f->file)
		call = long_dir(path, &f->names, f->v);
	if (call)
		*err = errno;
	return call;
}

/* ls -d: each operand as itself, sorted by name, in one listing */
static int ls_itself(struct ns_term *t, const struct ns_fs_args *a, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	size_t n = a->nops ? a->nops : 1;
	struct ns_ls_entry *v = xcalloc(n + 1, sizeof(*v));
	struct ns_lines names = NS_LINES_INIT;
	const char *call = NULL;
	int err = 0;

	for (size_t i = 0; i < n && !call; i++) {
		const char *word = a->nops ? a->ops[i] : ".", *path;
		bool bare = ns_is_handle_path(word, NULL) && !strchr(word, '/');
		struct ns_via_proc vp;
		struct stat sb;

		if (ns_via_proc_begin(&t->handles, t->procfd, &word, 1, &path, &vp) < 0) {
			call = "lstat";
			err = errno;
			break;
		}
		if (a->longf ? long_entry(path, word, bare, &v[i]) < 0
			     : (bare ? stat(path, &sb) : lstat(path, &sb)) < 0) {
			call = "lstat";
			err = errno;
		}
		if (ns_via_proc_end(&vp) < 0 && !call) {
			call = "fchdir";
			err = errno;
		}
		v[i].name = word;
		ns_lines_push(&names, word);
	}
	if (!call && a->longf) {
		ns_ls_sort_entries(v, n);
		ns_ls_long_render(v, n, false, (long long)time(NULL), out);
	} else if (!call) {
		ns_lines_sort(&names);
		ns_ls_render(&names, a->one, out);
	}
	free_entries(v, n);
	ns_lines_free(&names);
	return call ? ns_cmd_fail(res, call, err) : 0;
}

int ns_kexec_ls(struct ns_term *t, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	size_t n = a->nops ? a->nops : 1;
	struct ns_ls_operand *ops;
	const char *call = NULL;
	int err = 0;

	if (a->itself)
		return ls_itself(t, a, out, res);
	ops = xcalloc(n + 1, sizeof(*ops));
	for (size_t i = 0; i < n && !call; i++) {
		const char *word = a->nops ? a->ops[i] : ".", *path;
		struct ns_via_proc vp;

		ops[i].names = (struct ns_lines)NS_LINES_INIT;
		if (ns_via_proc_begin(&t->handles, t->procfd, &word, 1, &path, &vp) < 0) {
			call = "opendir";
			err = errno;
			break;
		}
		call = ls_read(a, word, path, &ops[i], &err);
		if (ns_via_proc_end(&vp) < 0 && !call) {
			call = "fchdir";
			err = errno;
		}
	}
	/* ls names an operand it cannot list and goes on; nstest ends
	 * the step there */
	if (!call)
		ns_ls_render_operands(ops, n, a->longf, a->one, (long long)time(NULL), out);
	for (size_t i = 0; i < n; i++) {
		free_entries(ops[i].v, ops[i].n);
		ns_lines_free(&ops[i].names);
	}
	free(ops);
	return call ? ns_cmd_fail(res, call, err) : 0;
}

int ns_kexec_cd(struct ns_term *t, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	const char *dir = a->nops ? a->ops[0] : "/", *path;
	struct ns_via_proc vp;
	int fd, e;

	(void)out;
	if (!ns_is_handle_path(dir, NULL))
		return chdir(dir) < 0 ? ns_cmd_fail(res, "chdir", errno) : 0;
	if (ns_via_proc_begin(&t->handles, t->procfd, &dir, 1, &path, &vp) < 0)
		return ns_cmd_fail(res, "chdir", errno);
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	e = errno;
	if (ns_via_proc_end(&vp) < 0) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return ns_cmd_fail(res, "fchdir", e);
	}
	if (fd < 0)
		return ns_cmd_fail(res, "chdir", e);
	/* fchdir(2) checks search permission, as chdir(2) does */
	if (fchdir(fd) < 0) {
		e = errno;
		close(fd);
		return ns_cmd_fail(res, "chdir", e);
	}
	close(fd);
	return 0;
}

/* A file cat reads, which may be in a handle's tree, of max bytes at
 * most. 0 or -errno (-EFBIG: it is larger). */
static int read_file(struct ns_term *t, const char *word, size_t max,
		     char **data, size_t *len)
{
	struct ns_via_proc vp;
	const char *path;
	int r;

	if (ns_via_proc_begin(&t->handles, t->procfd, &word, 1, &path, &vp) < 0)
		return -errno;
	r = ns_read_file(path, max, data, len);
	if (ns_via_proc_end(&vp) < 0 && r == 0) {
		r = -errno;
		free(*data);
	}
	return r;
}

#define CAT_MAX ((size_t)64 << 20)

int ns_kexec_cat(struct ns_term *t, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	for (size_t i = 0; i < a->nops; i++) {
		char *data;
		size_t len, room;
		int r;

		if (ns_cat_mounts_file(a->ops[i]) != NS_CAT_FILE) {
			if (ns_term_list_mounts(t, ns_cat_mounts_file(a->ops[i]) == NS_CAT_MOUNTINFO ?
						       NS_RENDER_MOUNTINFO : NS_RENDER_PROC_MOUNTS,
						out, res) < 0)
				return -1;
			continue;
		}
		/* no more than the step's output has room for (a file
		 * larger than that is never read whole: the step is cut,
		 * run/pipeline.c), and 64 MiB without a cap */
		room = ns_buf_room(out);
		r = read_file(t, a->ops[i], room < CAT_MAX ? room : CAT_MAX, &data, &len);
		if (r == -EFBIG && room <= CAT_MAX) {
			out->cut = true;
			return 0;
		}
		if (r < 0)
			return ns_cmd_fail(res, "read", -r);
		ns_buf_add(out, data, len);
		free(data);
	}
	return 0;
}

int ns_kexec_chroot(struct ns_term *t, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;
	int r;

	(void)out;
	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* Like chroot(8): enter the new root and start at its top, so that
	 * the working directory is never left outside the root. */
	if (chroot(a->ops[0]) < 0 || chdir("/") < 0) {
		t->closing = true;
		return ns_cmd_fail(res, "chroot", errno);
	}
	return 0;
}

/* pivot_root(2) itself; the kernel moves the root and directory of every
 * process of the namespace that had the old root, and the terminals are
 * processes for a scenario that pivots (commands/fs.c). */
int ns_kexec_pivot_root(struct ns_term *t, const void *args, struct ns_buf *out,
			struct ns_cmd_result *res)
{
	const struct ns_fs_args *a = args;

	(void)t, (void)out;
	if (syscall(SYS_pivot_root, a->ops[0], a->ops[1]) < 0)
		return ns_cmd_fail(res, "pivot_root", errno);
	return 0;
}
