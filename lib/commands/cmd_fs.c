/* cmd_fs.c - the file commands of scenarios: mkdir, touch, ls, cd, cat and
 * chroot. Each works on the terminal's own root and working directory. */
#include "scenario/command.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mounts/snapshot.h"
#include "kernel/terminal.h"

#define LS_WIDTH 80

/* Options and operands common to these commands. */
struct fs_args {
	bool parents;   /* mkdir -p */
	bool all;       /* ls -a */
	bool one;       /* ls -1 */
	size_t first;   /* index of the first operand in argv */
};

static void free_fs_args(void *a)
{
	free(a);
}

/* Read single-letter options from `allowed`; stop at the first operand. */
static int parse_flags(struct ns_stage *st, struct ns_parse_err *e,
		       const char *allowed, struct fs_args *a)
{
	size_t i = 1;

	for (; i < st->argc && st->argv[i][0] == '-' && st->argv[i][1]; i++) {
		if (!strcmp(st->argv[i], "--")) {
			i++;
			break;
		}
		for (const char *f = st->argv[i] + 1; *f; f++) {
			if (!strchr(allowed, *f))
				return ns_parse_fail(e, i, "%s: unknown option -%c",
						     st->argv[0], *f);
			a->parents |= *f == 'p';
			a->all |= *f == 'a';
			a->one |= *f == '1';
		}
	}
	a->first = i;
	return 0;
}

static int parse_common(struct ns_stage *st, struct ns_parse_err *e,
			const char *allowed, size_t min, size_t max)
{
	struct fs_args *a = xcalloc(1, sizeof(*a));
	size_t nops;

	st->args = a;
	if (parse_flags(st, e, allowed, a) < 0)
		return -1;
	nops = st->argc - a->first;
	if (nops < min)
		return ns_parse_fail(e, 0, "%s: missing operand", st->argv[0]);
	if (nops > max)
		return ns_parse_fail(e, a->first + max, "%s: too many operands",
				     st->argv[0]);
	return 0;
}

static int parse_mkdir(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "p", 1, (size_t)-1);
}

static int parse_touch(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "", 1, (size_t)-1);
}

static int parse_ls(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "a1", 0, 1);
}

static int parse_cd(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "", 0, 1);
}

static int parse_chroot(struct ns_stage *st, struct ns_parse_err *e)
{
	if (parse_common(st, e, "", 1, 2) < 0)
		return -1;
	if (st->argc == 3 && strcmp(st->argv[2], "sh"))
		return ns_parse_fail(e, 2, "chroot: only 'chroot DIR [sh]' is supported");
	return 0;
}

static bool is_proc_path(const char *p)
{
	return !strncmp(p, "/proc/", 6) || !strcmp(p, "/proc");
}

static int parse_cat(struct ns_stage *st, struct ns_parse_err *e)
{
	struct fs_args *a;

	if (parse_common(st, e, "", 1, (size_t)-1) < 0)
		return -1;
	a = st->args;
	for (size_t i = a->first; i < st->argc; i++)
		if (is_proc_path(st->argv[i]) && strcmp(st->argv[i], "/proc/self/mountinfo"))
			return ns_parse_fail(e, i, "cat: only /proc/self/mountinfo can be read from /proc");
	return 0;
}

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

static int exec_mkdir(struct ns_term *t, const struct ns_stage *st,
		      const struct ns_buf *in, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct fs_args *a = st->args;

	(void)t, (void)in, (void)out;
	for (size_t i = a->first; i < st->argc; i++) {
		int r = a->parents ? mkdir_parents(st->argv[i]) : mkdir(st->argv[i], 0755);
		if (r < 0)
			return ns_cmd_fail(res, "mkdir", errno);
	}
	return 0;
}

static int exec_touch(struct ns_term *t, const struct ns_stage *st,
		      const struct ns_buf *in, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct fs_args *a = st->args;

	(void)t, (void)in, (void)out;
	for (size_t i = a->first; i < st->argc; i++) {
		int fd = open(st->argv[i], O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC, 0644);
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

/* Lay names out in columns, filled top to bottom, as ls does on an
 * 80-column terminal: the most columns whose total width fits. */
static void ls_columns(char **names, size_t n, struct ns_buf *out)
{
	size_t cols = n, rows = 1;

	for (; cols > 1; cols--) {
		size_t total = 0;
		rows = (n + cols - 1) / cols;
		if ((cols - 1) * rows >= n)
			continue; /* the last column would be empty */
		for (size_t c = 0; c < cols; c++) {
			size_t w = 0;
			for (size_t r = 0; r < rows && c * rows + r < n; r++)
				w = strlen(names[c * rows + r]) > w ? strlen(names[c * rows + r]) : w;
			total += w + (c + 1 < cols ? 2 : 0);
		}
		if (total <= LS_WIDTH)
			break;
	}
	rows = (n + cols - 1) / cols;
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols && c * rows + r < n; c++) {
			const char *s = names[c * rows + r];
			size_t w = 0;
			ns_buf_adds(out, s);
			if (c + 1 >= cols || (c + 1) * rows + r >= n)
				continue;
			for (size_t k = 0; k < rows && c * rows + k < n; k++)
				w = strlen(names[c * rows + k]) > w ? strlen(names[c * rows + k]) : w;
			for (size_t pad = strlen(s); pad < w + 2; pad++)
				ns_buf_addc(out, ' ');
		}
		ns_buf_addc(out, '\n');
	}
}

static int exec_ls(struct ns_term *t, const struct ns_stage *st,
		   const struct ns_buf *in, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct fs_args *a = st->args;
	const char *dir = a->first < st->argc ? st->argv[a->first] : ".";
	struct ns_lines names = NS_LINES_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);

	(void)t, (void)in;
	if (!d && errno == ENOTDIR) {
		/* like ls(1): a file operand lists as its own name */
		ns_buf_addf(out, "%s\n", dir);
		return 0;
	}
	if (!d)
		return ns_cmd_fail(res, "opendir", errno);
	while ((de = readdir(d)))
		if (a->all || de->d_name[0] != '.')
			ns_lines_push(&names, de->d_name);
	closedir(d);
	ns_lines_sort(&names);
	if (a->one)
		for (size_t i = 0; i < names.n; i++)
			ns_buf_addf(out, "%s\n", names.v[i]);
	else if (names.n)
		ls_columns(names.v, names.n, out);
	ns_lines_free(&names);
	return 0;
}

static int exec_cd(struct ns_term *t, const struct ns_stage *st,
		   const struct ns_buf *in, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct fs_args *a = st->args;

	(void)t, (void)in, (void)out;
	if (chdir(a->first < st->argc ? st->argv[a->first] : "/") < 0)
		return ns_cmd_fail(res, "chdir", errno);
	return 0;
}

static int cat_mountinfo(struct ns_term *t, struct ns_buf *out,
			 struct ns_cmd_result *res)
{
	struct ns_snapshot *s;
	int r = ns_snapshot_read(t->procfd, &s);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	ns_snapshot_render_mountinfo(s, out);
	ns_snapshot_free(s);
	return 0;
}

static int exec_cat(struct ns_term *t, const struct ns_stage *st,
		    const struct ns_buf *in, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct fs_args *a = st->args;

	(void)in;
	for (size_t i = a->first; i < st->argc; i++) {
		char *data;
		size_t len;
		int r;

		if (!strcmp(st->argv[i], "/proc/self/mountinfo")) {
			if (cat_mountinfo(t, out, res) < 0)
				return -1;
			continue;
		}
		r = ns_read_file(st->argv[i], 64u << 20, &data, &len);
		if (r < 0)
			return ns_cmd_fail(res, "read", -r);
		ns_buf_add(out, data, len);
		free(data);
	}
	return 0;
}

static int exec_chroot(struct ns_term *t, const struct ns_stage *st,
		       const struct ns_buf *in, struct ns_buf *out,
		       struct ns_cmd_result *res)
{
	const struct fs_args *a = st->args;
	int r;

	(void)in, (void)out;
	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* Like chroot(8): enter the new root and start at its top, so that
	 * the working directory is never left outside the root. */
	if (chroot(st->argv[a->first]) < 0 || chdir("/") < 0) {
		t->closing = true;
		return ns_cmd_fail(res, "chroot", errno);
	}
	return 0;
}

const struct ns_cmd_def ns_cmd_fs[] = {
	{ .name = "mkdir", .parse = parse_mkdir, .exec = exec_mkdir, .free_args = free_fs_args },
	{ .name = "touch", .parse = parse_touch, .exec = exec_touch, .free_args = free_fs_args },
	{ .name = "ls", .parse = parse_ls, .exec = exec_ls, .free_args = free_fs_args },
	{ .name = "cd", .parse = parse_cd, .exec = exec_cd, .free_args = free_fs_args },
	{ .name = "cat", .parse = parse_cat, .exec = exec_cat, .free_args = free_fs_args },
	{ .name = "chroot", .parse = parse_chroot, .exec = exec_chroot, .free_args = free_fs_args },
};
const size_t ns_cmd_fs_count = NS_ARRAY_SIZE(ns_cmd_fs);
