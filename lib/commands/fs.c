/* fs.c - the file commands of scenarios, parsing side: mkdir, touch, ls,
 * cd, cat and chroot. Each takes single-letter options, then operands. */
#include "scenario/command.h"

#include <string.h>

#include "commands/args.h"

static void free_fs_args(void *a)
{
	free(a);
}

/* Read single-letter options from `allowed`; stop at the first operand.
 * Returns the index of the first operand, or 0 with *e filled. */
static size_t parse_flags(struct ns_stage *st, struct ns_parse_err *e,
			  const char *allowed, struct ns_fs_args *a)
{
	size_t i = 1;

	for (; i < st->argc && st->argv[i][0] == '-' && st->argv[i][1]; i++) {
		if (!strcmp(st->argv[i], "--"))
			return i + 1;
		if (st->argv[i][1] == '-') {
			/* a long option, named whole: not "unknown option --" */
			ns_parse_fail(e, i, "%s: unknown option %s", st->argv[0], st->argv[i]);
			return 0;
		}
		for (const char *f = st->argv[i] + 1; *f; f++) {
			if (!strchr(allowed, *f)) {
				ns_parse_fail(e, i, "%s: unknown option -%c", st->argv[0], *f);
				return 0;
			}
			a->parents |= *f == 'p';
			a->all |= *f == 'a';
			a->one |= *f == '1';
		}
	}
	return i;
}

static int parse_common(struct ns_stage *st, struct ns_parse_err *e,
			const char *allowed, size_t min, size_t max)
{
	struct ns_fs_args *a = xcalloc(1, sizeof(*a));
	size_t first;

	st->args = a;
	first = parse_flags(st, e, allowed, a);
	if (!first)
		return -1;
	a->ops = st->argv + first;
	a->nops = st->argc - first;
	if (a->nops < min)
		return ns_parse_fail(e, 0, "%s: missing operand", st->argv[0]);
	if (a->nops > max)
		return ns_parse_fail(e, first + max, "%s: too many operands",
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

int ns_cat_mounts_file(const char *path)
{
	if (!strcmp(path, "/proc/self/mountinfo"))
		return NS_CAT_MOUNTINFO;
	if (!strcmp(path, "/proc/mounts") || !strcmp(path, "/proc/self/mounts"))
		return NS_CAT_PROC_MOUNTS;
	return NS_CAT_FILE;
}

static int parse_cat(struct ns_stage *st, struct ns_parse_err *e)
{
	const struct ns_fs_args *a;

	if (parse_common(st, e, "", 1, (size_t)-1) < 0)
		return -1;
	a = st->args;
	for (size_t i = 0; i < a->nops; i++)
		if (is_proc_path(a->ops[i]) && ns_cat_mounts_file(a->ops[i]) == NS_CAT_FILE)
			return ns_parse_fail(e, st->argc - a->nops + i,
					     "cat: only /proc/self/mountinfo, /proc/mounts and /proc/self/mounts can be read from /proc");
	return 0;
}

#define FS_ENTRY(cmd, ident, fn) \
	{ .name = cmd, .id = ident, .parse = fn, .free_args = free_fs_args }

const struct ns_cmd_def ns_cmd_fs[] = {
	FS_ENTRY("mkdir", NS_CMD_MKDIR, parse_mkdir),
	FS_ENTRY("touch", NS_CMD_TOUCH, parse_touch),
	FS_ENTRY("ls", NS_CMD_LS, parse_ls),
	FS_ENTRY("cd", NS_CMD_CD, parse_cd),
	FS_ENTRY("cat", NS_CMD_CAT, parse_cat),
	FS_ENTRY("chroot", NS_CMD_CHROOT, parse_chroot),
};
const size_t ns_cmd_fs_count = NS_ARRAY_SIZE(ns_cmd_fs);
