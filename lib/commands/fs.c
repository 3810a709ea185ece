/* fs.c - the file commands of scenarios, parsing side: mkdir, touch, ls,
 * cd, cat, chroot, rmdir, mv, ln -s, pwd and echo. Each takes
 * single-letter options, then operands. */
#include "commands/command.h"

#include <string.h>

#include "base/suggest.h"
#include "commands/args.h"
#include "commands/ls_layout.h"

static void free_fs_args(void *a)
{
	free(a);
}

/* The long options of the real tools whose short forms nstest takes;
 * nstest takes only the short ones, and names them (as for filters). */
static const struct ns_long_option long_options[] = {
	{ "mkdir", "--parents", 'p' }, { "rmdir", "--parents", 'p' },
	{ "ls", "--all", 'a' }, { "ls", "--directory", 'd' }, { "mv", "--no-target-directory", 'T' },
	{ "readlink", "--canonicalize", 'f' },
};

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
			ns_parse_long_option_fail(long_options, NS_ARRAY_SIZE(long_options),
						  st->argv[0], st->argv[i], i, e);
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
			a->no_target |= *f == 'T';
			a->canonical |= *f == 'f';
			a->longf |= *f == 'l';
			a->itself |= *f == 'd';
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

/* ls [-a1ld] [PATH...]: -l the long listing (commands/ls_layout.c), -d a
 * directory as itself */
static int parse_ls(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "a1ld", 0, (size_t)-1);
}

/* Into a pipe, GNU ls prints one name a line, as with -1 (ls(1): "-1
 * list one file per line"; the columns are for a terminal only). */
static void ls_piped(void *args)
{
	((struct ns_fs_args *)args)->one = true;
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

/* pivot_root NEW_ROOT PUT_OLD, as pivot_root(8) takes them. */
static int parse_pivot_root(struct ns_stage *st, struct ns_parse_err *e)
{
	if (parse_common(st, e, "", 2, 2) < 0) {
		if (st->argc < 3)
			return ns_parse_fail(e, 0, "pivot_root: usage: pivot_root NEW_ROOT PUT_OLD");
		return -1;
	}
	return 0;
}

/* pivot_root moves the root and directory of every process of the
 * namespace that had the old root, not only of the shell that types it
 * (pivot_root(2)): the kernel backend then runs each terminal as a
 * process of its own, so that the kernel moves them all. */
static bool pivot_root_one_way(const void *args)
{
	(void)args;
	return true;
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

/* readlink [-f] FILE... and realpath FILE..., as the tools take them */
static int parse_readlink(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "f", 1, (size_t)-1);
}

static int parse_realpath(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "", 1, (size_t)-1);
}

static int parse_rmdir(struct ns_stage *st, struct ns_parse_err *e)
{
	return parse_common(st, e, "p", 1, (size_t)-1);
}

/* mv SRC DST, or mv SRC... DIR: rename(2) only, so of mv(1)'s options
 * (most are about copying and asking) only -T applies: DST is the new
 * name even when it is a directory, which rename(2) then replaces. */
static int parse_mv(struct ns_stage *st, struct ns_parse_err *e)
{
	const struct ns_fs_args *a;
	size_t n;

	if (parse_common(st, e, "T", 0, (size_t)-1) < 0)
		return -1;
	a = st->args;
	n = a->nops;
	if (n == 0)
		return ns_parse_fail(e, 0, "mv: missing file operand");
	if (n == 1)
		return ns_parse_fail(e, st->argc - 1, "mv: missing destination file operand after '%s'",
				     st->argv[st->argc - 1]);
	if (a->no_target && n > 2)
		return ns_parse_fail(e, st->argc - n + 2, "mv: extra operand '%s'",
				     a->ops[2]);
	return 0;
}

/* ln -s TARGET... [LINK]: symbolic links only. */
static int parse_ln(struct ns_stage *st, struct ns_parse_err *e)
{
	bool symbolic = false;
	size_t i = 1;

	for (; i < st->argc && st->argv[i][0] == '-' && st->argv[i][1]; i++) {
		if (!strcmp(st->argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(st->argv[i], "--symbolic")) {
			symbolic = true;
			continue;
		}
		if (st->argv[i][1] == '-') {
			static const char *const ln_long[] = { "--symbolic" };

			if (ns_closest(st->argv[i], ln_long, 1))
				return ns_parse_fail(e, i, "ln: unknown option %s (did you mean --symbolic?)",
						     st->argv[i]);
			return ns_parse_fail(e, i, "ln: unknown option %s", st->argv[i]);
		}
		for (const char *f = st->argv[i] + 1; *f; f++) {
			if (*f != 's')
				return ns_parse_fail(e, i, "ln: unknown option -%c (only -s is supported)", *f);
			symbolic = true;
		}
	}
	if (!symbolic)
		return ns_parse_fail(e, 0, "ln: hard links are not supported; use ln -s TARGET LINK");
	st->args = xcalloc(1, sizeof(struct ns_fs_args));
	((struct ns_fs_args *)st->args)->ops = st->argv + i;
	((struct ns_fs_args *)st->args)->nops = st->argc - i;
	if (i == st->argc)
		return ns_parse_fail(e, 0, "ln: missing file operand");
	return 0;
}

/* pwd [-P]: nstest's cd is physical, so -P is what pwd prints anyway;
 * bash's logical -L (the path cd was given, symbolic links kept) is not
 * kept. */
static int parse_pwd(struct ns_stage *st, struct ns_parse_err *e)
{
	size_t i = 1;

	for (; i < st->argc && !strcmp(st->argv[i], "-P"); i++)
		;
	if (i < st->argc && !strcmp(st->argv[i], "-L"))
		return ns_parse_fail(e, i, "pwd: -L is not supported: cd is physical in nstest, so pwd prints the physical directory, as pwd -P does");
	if (i < st->argc && st->argv[i][0] == '-')
		return ns_parse_fail(e, i, "pwd: unknown option %s", st->argv[i]);
	if (i < st->argc)
		return ns_parse_fail(e, i, "pwd: too many arguments");
	st->args = xcalloc(1, sizeof(struct ns_fs_args));
	return 0;
}

/* exec N< FILE | N<&- | N>&- ...: the shell's words split the
 * redirections off (scenario/shellword.c), "N<" then FILE, or "N<&-";
 * the parser checked that nothing else is there. Descriptors 0 to 2 are
 * the terminal's own. */
static int parse_exec(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_exec_args *a = xcalloc(1, sizeof(*a));

	st->args = a;
	if (st->argc < 2)
		return ns_parse_fail(e, 0, "exec: a redirection is needed (exec N< FILE, exec N<&-); nstest's exec runs no command");
	a->v = xcalloc(st->argc, sizeof(*a->v));
	for (size_t i = 1; i < st->argc; i++) {
		const char *w = st->argv[i];
		char *end;
		long fd = strtol(w, &end, 10);
		struct ns_fd_redir *r = &a->v[a->n++];

		if (end == w || (strcmp(end, "<") && strcmp(end, "<&-") && strcmp(end, ">&-")))
			return ns_parse_fail(e, i, "exec: '%s' is no redirection (exec N< FILE, exec N<&-)", w);
		if (fd < 3 || fd > 99)
			return ns_parse_fail(e, i, "exec: descriptor %.*s is not supported: 0, 1 and 2 are the terminal's own, and nstest holds 3 to 99", (int)(end - w), w);
		r->fd = (int)fd;
		if (!strcmp(end, "<")) {
			if (i + 1 == st->argc)
				return ns_parse_fail(e, i, "exec: missing file name after '%s'", w);
			r->file = st->argv[++i];
		}
	}
	return 0;
}

static void free_exec_args(void *p)
{
	struct ns_exec_args *a = p;

	free(a->v);
	free(a);
}

/* An option word of bash's echo: '-' and letters of "neE" only. */
static bool echo_option(const char *w)
{
	return w[0] == '-' && w[1] && strspn(w + 1, "neE") == strlen(w + 1);
}

/* echo [-n] [-E] WORD... [> FILE]: options as bash's builtin reads them
 * (the first word that is no option, and everything after it, is text);
 * the redirection was taken out of the words by the parser. */
static int parse_echo(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_echo_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	a->newline = true;
	for (; i < st->argc && echo_option(st->argv[i]); i++) {
		if (strchr(st->argv[i], 'e'))
			return ns_parse_fail(e, i, "echo: -e (backslash escapes) is not supported");
		if (strchr(st->argv[i], 'n'))
			a->newline = false;
	}
	a->words = st->argv + i;
	a->nwords = st->argc - i;
	a->file = st->redirect;
	a->append = st->append;
	return 0;
}

/* Column k of a FIELDS shape: literal text s[0..len), or a shell's
 * number; false when the shape is full. */
static bool echo_col(struct ns_match_shape *out, enum ns_match_col c, const char *s, size_t len)
{
	if (c == NS_MATCH_COL_TEXT && !len)
		return true;
	if (out->ncols == NS_MATCH_MAX_COLS)
		return false;
	out->cols[out->ncols] = c;
	out->lit[out->ncols] = c == NS_MATCH_COL_TEXT ? s : NULL;
	out->litlen[out->ncols++] = len;
	return true;
}

/* echo's line as the judge reads it when it holds a shell's number ($$
 * expanded, ns_shell_pid): that number renamed, the rest literal. */
static bool echo_shape(const void *args, struct ns_match_shape *out)
{
	const struct ns_echo_args *a = args;
	bool any = false;

	memset(out, 0, sizeof(*out));
	out->form = NS_MATCH_FIELDS;
	if (a->file)
		return false; /* it prints nothing */
	for (size_t i = 0; i < a->nwords; i++) {
		const char *w = a->words[i], *lit = w;

		if (i && !echo_col(out, NS_MATCH_COL_TEXT, " ", 1))
			return false;
		for (const char *p = w; *p;) {
			size_t d = strspn(p, "0123456789");

			if (!d) {
				p++;
				continue;
			}
			if (ns_shell_pid(p, d) && (p == w || p[-1] < '0' || p[-1] > '9')) {
				if (!echo_col(out, NS_MATCH_COL_TEXT, lit, (size_t)(p - lit)) ||
				    !echo_col(out, NS_MATCH_COL_PID, NULL, 0))
					return false;
				any = true;
				lit = p + d;
			}
			p += d;
		}
		if (!echo_col(out, NS_MATCH_COL_TEXT, lit, strlen(lit)))
			return false;
	}
	return any;
}

void ns_echo_text(const struct ns_echo_args *a, struct ns_buf *out)
{
	for (size_t i = 0; i < a->nwords; i++)
		ns_buf_addf(out, "%s%s", i ? " " : "", a->words[i]);
	if (a->newline)
		ns_buf_addc(out, '\n');
}

bool ns_rmdir_parent(char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	while (n > 0 && path[n - 1] == '/')
		n--;
	path[n] = '\0';
	return n > 0;
}

const char *ns_path_last(const char *path, size_t *len)
{
	size_t end = strlen(path), start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	*len = end - start;
	return path + start;
}

char *ns_path_dir(const char *path)
{
	size_t n;
	const char *last = ns_path_last(path, &n);

	if (last == path)
		return xstrdup(*path == '/' ? "/" : ".");
	n = (size_t)(last - path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	return xstrndup(path, n);
}

/* The file commands fail in their tools' words (coreutils', bash's for
 * cd), naming their operands. The cat the parser puts before `grep X
 * FILE` is grep's reading, which grep words in its own way: none. */
static bool fs_messages(const struct ns_stage *st, struct ns_msg_ctx *c)
{
	const struct ns_fs_args *a = st->args;

	if (st->file_of_next)
		return false;
	c->cmd = st->def->name;
	c->what = NS_ULMSG_FILES;
	c->targets = (const char *const *)a->ops;
	c->ntargets = a->nops;
	return true;
}

/* echo TEXT > FILE fails only to open FILE */
static bool echo_messages(const struct ns_stage *st, struct ns_msg_ctx *c)
{
	c->cmd = st->def->name;
	c->what = NS_ULMSG_FILES;
	c->targets = (const char *const *)&st->redirect;
	c->ntargets = st->redirect ? 1 : 0;
	return true;
}

/* cat /proc/self/mountinfo: the terminal's whole table */
static bool cat_whole_table(const void *args)
{
	const struct ns_fs_args *a = args;

	return a->nops == 1 && ns_cat_mounts_file(a->ops[0]) == NS_CAT_MOUNTINFO;
}

/* ls without -1 or -l lays names out in columns */
static bool ls_columns(const void *args)
{
	const struct ns_fs_args *a = args;

	return !a->one && !a->longf;
}

/* ls -l's sizes and dates are free (ls_layout.h) */
static bool ls_shape(const void *args, struct ns_match_shape *out)
{
	if (!((const struct ns_fs_args *)args)->longf)
		return false;
	ns_ls_long_shape(out);
	return true;
}

#define FS_ENTRY(cmd, ident, fn) \
	{ .name = cmd, .id = ident, .parse = fn, .free_args = free_fs_args, \
	  .messages = fs_messages }

const struct ns_cmd_def ns_cmd_fs[] = {
	FS_ENTRY("mkdir", NS_CMD_MKDIR, parse_mkdir),
	FS_ENTRY("touch", NS_CMD_TOUCH, parse_touch),
	{ .name = "ls", .id = NS_CMD_LS, .parse = parse_ls, .free_args = free_fs_args, .handles = true,
	  .piped = ls_piped, .columns = ls_columns, .shape = ls_shape, .messages = fs_messages },
	{ .name = "cd", .id = NS_CMD_CD, .parse = parse_cd, .free_args = free_fs_args, .handles = true,
	  .builtin = true, .messages = fs_messages },
	{ .name = "cat", .id = NS_CMD_CAT, .parse = parse_cat, .free_args = free_fs_args, .handles = true,
	  .whole_table = cat_whole_table, .messages = fs_messages },
	{ .name = "chroot", .id = NS_CMD_CHROOT, .parse = parse_chroot, .free_args = free_fs_args,
	  .shell = NS_SHELL_STARTS, .messages = fs_messages },
	{ .name = "pivot_root", .id = NS_CMD_PIVOT_ROOT, .parse = parse_pivot_root, .free_args = free_fs_args,
	  .one_way = pivot_root_one_way, .messages = fs_messages },
	FS_ENTRY("rmdir", NS_CMD_RMDIR, parse_rmdir),
	FS_ENTRY("mv", NS_CMD_MV, parse_mv),
	FS_ENTRY("ln", NS_CMD_LN, parse_ln),
	{ .name = "pwd", .id = NS_CMD_PWD, .parse = parse_pwd, .free_args = free_fs_args },
	/* readlink(1) prints nothing when it fails (-q is its default) */
	{ .name = "readlink", .id = NS_CMD_READLINK, .parse = parse_readlink, .free_args = free_fs_args },
	FS_ENTRY("realpath", NS_CMD_REALPATH, parse_realpath),
	{ .name = "exec", .id = NS_CMD_EXEC, .parse = parse_exec, .free_args = free_exec_args,
	  .builtin = true, .fd_redirs = true },
	/* its words are text, not paths */
	{ .name = "echo", .id = NS_CMD_ECHO, .parse = parse_echo, .free_args = free_fs_args,
	  .text_words = true, .messages = echo_messages, .shape = echo_shape },
};
const size_t ns_cmd_fs_count = NS_ARRAY_SIZE(ns_cmd_fs);
