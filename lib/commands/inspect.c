/* inspect.c - the commands that look at files without changing them,
 * parsing side: stat -c FORMAT (coreutils), mountpoint (util-linux) and
 * diff [-r] (GNU diffutils); and stat's rendering of one file, which
 * every backend shares. */
#include "commands/command.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "commands/args.h"

/* ---- stat ------------------------------------------------------------------ */

static const struct {
	char c;
	enum ns_stat_dir dir;
} stat_dirs[] = {
	{ 'n', NS_STAT_NAME }, { 'i', NS_STAT_INO }, { 'd', NS_STAT_DEV },
	{ 'D', NS_STAT_DEV_HEX }, { 't', NS_STAT_RDEV_MAJOR }, { 'T', NS_STAT_RDEV_MINOR },
	{ 'm', NS_STAT_MOUNT }, { 'u', NS_STAT_UID }, { 'g', NS_STAT_GID },
	{ 'a', NS_STAT_MODE_OCT }, { 'A', NS_STAT_MODE_STR }, { 'F', NS_STAT_TYPE },
	{ 's', NS_STAT_SIZE }, { 'h', NS_STAT_NLINK },
};

static void free_stat_args(void *p)
{
	struct ns_stat_args *a = p;

	free(a->files);
	free(a);
}

static int add_piece(struct ns_stat_args *a, struct ns_parse_err *e, size_t word,
		     enum ns_stat_dir d, const char *text, size_t len)
{
	if (d == NS_STAT_TEXT && !len)
		return 0;
	if (d == NS_STAT_TEXT && a->npieces && a->pieces[a->npieces - 1].dir == NS_STAT_TEXT &&
	    a->pieces[a->npieces - 1].text + a->pieces[a->npieces - 1].len == text) {
		a->pieces[a->npieces - 1].len += len;
		return 0;
	}
	if (a->npieces == NS_STAT_MAX_PIECES)
		return ns_parse_fail(e, word, "stat: the format has more than %d pieces", NS_STAT_MAX_PIECES);
	a->pieces[a->npieces++] = (struct ns_stat_piece){ d, text, len };
	return 0;
}

/* -c's format: text, "%%", and the directives of stat_dirs. As in
 * coreutils, a '%' at the very end is printed as it is; -c prints
 * backslashes as they are (only --printf reads escapes). */
static int parse_format(struct ns_stat_args *a, struct ns_parse_err *e, size_t word,
			const char *f)
{
	const char *lit = f, *p = f;
	size_t k;

	a->npieces = 0;
	while (*p) {
		if (*p != '%' || !p[1]) {
			p++;
			continue;
		}
		if (add_piece(a, e, word, NS_STAT_TEXT, lit, (size_t)(p - lit)) < 0)
			return -1;
		if (p[1] == '%') {
			if (add_piece(a, e, word, NS_STAT_TEXT, p + 1, 1) < 0)
				return -1;
			lit = p += 2;
			continue;
		}
		if (strchr("-+ #0'123456789.", p[1]))
			return ns_parse_fail(e, word, "stat: field widths and flags ('%%%c' in '%s') are not supported",
					     p[1], f);
		for (k = 0; k < NS_ARRAY_SIZE(stat_dirs) && stat_dirs[k].c != p[1]; k++)
			;
		if (k == NS_ARRAY_SIZE(stat_dirs))
			return ns_parse_fail(e, word, "stat: format directive '%%%c' is not supported (nstest knows %%n %%i %%d %%D %%t %%T %%m %%u %%g %%a %%A %%F %%s %%h)",
					     p[1]);
		if (add_piece(a, e, word, stat_dirs[k].dir, NULL, 0) < 0)
			return -1;
		lit = p += 2;
	}
	return add_piece(a, e, word, NS_STAT_TEXT, lit, strlen(lit));
}

/* One word of short options ("-L", "-c FMT", "-cFMT", "-Lc FMT"); *i
 * moves past a format taken from the next word. */
static int short_options(struct ns_stage *st, struct ns_parse_err *e, size_t *i,
			 struct ns_stat_args *a, bool *format)
{
	const char *w = st->argv[*i];

	for (const char *f = w + 1; *f; f++) {
		size_t fw = *i;
		const char *fmt = f + 1;

		if (*f == 'L') {
			a->deref = true;
			continue;
		}
		if (*f != 'c')
			return ns_parse_fail(e, *i, "stat: option -%c is not supported (nstest knows -c FORMAT, --format=FORMAT and -L)", *f);
		if (!*fmt) {
			if (*i + 1 == st->argc)
				return ns_parse_fail(e, *i, "stat: option -c requires an argument");
			fmt = st->argv[fw = ++*i];
		}
		*format = true;
		return parse_format(a, e, fw, fmt);
	}
	return 0;
}

/* stat [-L] -c FORMAT FILE...: options may come anywhere before "--", as
 * GNU getopt permutes them; -c is required, since stat's default output
 * is mostly times, which no transcript can expect. */
static int parse_stat(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_stat_args *a = xcalloc(1, sizeof(*a));
	bool format = false, ended = false;

	st->args = a;
	a->files = xcalloc(st->argc, sizeof(*a->files));
	for (size_t i = 1; i < st->argc; i++) {
		const char *w = st->argv[i];

		if (ended || w[0] != '-' || !w[1]) {
			a->files[a->nfiles++] = w;
		} else if (!strcmp(w, "--")) {
			ended = true;
		} else if (!strcmp(w, "--dereference")) {
			a->deref = true;
		} else if (!strncmp(w, "--format=", 9)) {
			format = true;
			if (parse_format(a, e, i, w + 9) < 0)
				return -1;
		} else if (!strcmp(w, "--format")) {
			if (++i == st->argc)
				return ns_parse_fail(e, i - 1, "stat: option '--format' requires an argument");
			format = true;
			if (parse_format(a, e, i, st->argv[i]) < 0)
				return -1;
		} else if (w[1] == '-') {
			return ns_parse_fail(e, i, "stat: option '%s' is not supported (nstest knows -c FORMAT, --format=FORMAT and -L)", w);
		} else if (short_options(st, e, &i, a, &format) < 0) {
			return -1;
		}
	}
	if (!format)
		return ns_parse_fail(e, 0, "stat: -c FORMAT is required (stat's own output shows times, which no transcript can expect)");
	if (!a->nfiles)
		return ns_parse_fail(e, 0, "stat: missing operand");
	return 0;
}

bool ns_stat_wants(const struct ns_stat_args *a, enum ns_stat_dir d)
{
	for (size_t i = 0; i < a->npieces; i++)
		if (a->pieces[i].dir == d)
			return true;
	return false;
}

const char *ns_stat_type_name(unsigned mode, unsigned long long size)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return size ? "regular file" : "regular empty file";
	case S_IFDIR:
		return "directory";
	case S_IFLNK:
		return "symbolic link";
	case S_IFCHR:
		return "character special file";
	case S_IFBLK:
		return "block special file";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "socket";
	}
	return "weird file";
}

/* ls -l's ten characters: the type, then rwx three times with setuid,
 * setgid and sticky folded in (s/S, s/S, t/T). */
void ns_stat_mode_string(unsigned mode, struct ns_buf *out)
{
	static const char types[] = { [S_IFREG >> 12] = '-', [S_IFDIR >> 12] = 'd',
				      [S_IFLNK >> 12] = 'l', [S_IFCHR >> 12] = 'c',
				      [S_IFBLK >> 12] = 'b', [S_IFIFO >> 12] = 'p',
				      [S_IFSOCK >> 12] = 's' };
	static const unsigned special[3] = { S_ISUID, S_ISGID, S_ISVTX };
	char t = types[(mode & S_IFMT) >> 12];

	ns_buf_addc(out, t ? t : '?');
	for (int who = 0; who < 3; who++) {
		unsigned bits = (mode >> (6 - 3 * who)) & 7;
		bool sp = mode & special[who];
		char x = who == 2 ? 't' : 's';

		ns_buf_addc(out, bits & 4 ? 'r' : '-');
		ns_buf_addc(out, bits & 2 ? 'w' : '-');
		if (sp)
			ns_buf_addc(out, bits & 1 ? x : (char)(x - 'a' + 'A'));
		else
			ns_buf_addc(out, bits & 1 ? 'x' : '-');
	}
}

void ns_stat_format(const struct ns_stat_args *a, const char *name,
		    const struct ns_stat_info *in, struct ns_buf *out)
{
	dev_t dev = makedev(in->major, in->minor);

	for (size_t i = 0; i < a->npieces; i++) {
		const struct ns_stat_piece *p = &a->pieces[i];

		switch (p->dir) {
		case NS_STAT_TEXT:
			ns_buf_add(out, p->text, p->len);
			break;
		case NS_STAT_NAME:
			ns_buf_adds(out, name);
			break;
		case NS_STAT_INO:
			ns_buf_addf(out, "%llu", in->ino);
			break;
		case NS_STAT_DEV:
			ns_buf_addf(out, "%llu", (unsigned long long)dev);
			break;
		case NS_STAT_DEV_HEX:
			ns_buf_addf(out, "%llx", (unsigned long long)dev);
			break;
		case NS_STAT_RDEV_MAJOR:
			ns_buf_addf(out, "%x", in->rdev_major);
			break;
		case NS_STAT_RDEV_MINOR:
			ns_buf_addf(out, "%x", in->rdev_minor);
			break;
		case NS_STAT_MOUNT:
			ns_buf_adds(out, in->mountpoint ? in->mountpoint : "?");
			break;
		case NS_STAT_UID:
			ns_buf_addf(out, "%u", in->uid);
			break;
		case NS_STAT_GID:
			ns_buf_addf(out, "%u", in->gid);
			break;
		case NS_STAT_MODE_OCT:
			ns_buf_addf(out, "%o", in->mode & 07777);
			break;
		case NS_STAT_MODE_STR:
			ns_stat_mode_string(in->mode, out);
			break;
		case NS_STAT_TYPE:
			ns_buf_adds(out, ns_stat_type_name(in->mode, in->size));
			break;
		case NS_STAT_SIZE:
			ns_buf_addf(out, "%llu", in->size);
			break;
		case NS_STAT_NLINK:
			ns_buf_addf(out, "%llu", in->nlink);
			break;
		}
	}
	ns_buf_addc(out, '\n');
}

/* ---- mountpoint --------------------------------------------------------------- */

/* mountpoint [-q] [-d] PATH (util-linux 2.38); -x and --nofollow are not
 * kept: there are no block devices to ask about, and nstest resolves
 * every path as the kernel does. */
static int parse_mountpoint(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_mountpoint_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	for (; i < st->argc && st->argv[i][0] == '-' && st->argv[i][1]; i++) {
		const char *w = st->argv[i];

		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		if (!strcmp(w, "--quiet") || !strcmp(w, "--fs-devno")) {
			a->quiet |= w[2] == 'q';
			a->devno |= w[2] == 'f';
			continue;
		}
		if (w[1] == '-')
			return ns_parse_fail(e, i, "mountpoint: option '%s' is not supported (nstest knows -q and -d)", w);
		for (const char *f = w + 1; *f; f++) {
			if (*f != 'q' && *f != 'd')
				return ns_parse_fail(e, i, "mountpoint: option -%c is not supported (nstest knows -q and -d)", *f);
			a->quiet |= *f == 'q';
			a->devno |= *f == 'd';
		}
	}
	if (st->argc - i != 1)
		return ns_parse_fail(e, i < st->argc ? i + 1 : 0,
				     "mountpoint: bad usage: exactly one directory or file is needed");
	a->path = st->argv[i];
	return 0;
}

/* ---- how stat and mountpoint are judged ------------------------------------ */

/* stat -c's lines follow its format. The numbers renamed are the devices
 * (%d, %D) and inodes (%i). */
static bool stat_shape(const void *args, struct ns_match_shape *out)
{
	const struct ns_stat_args *a = args;
	bool numbers = false;

	memset(out, 0, sizeof(*out));
	out->form = NS_MATCH_FIELDS;
	for (size_t i = 0; i < a->npieces && i < NS_MATCH_MAX_COLS; i++) {
		const struct ns_stat_piece *p = &a->pieces[i];

		out->cols[i] = p->dir == NS_STAT_DEV ? NS_MATCH_COL_DEV_DEC :
			       p->dir == NS_STAT_DEV_HEX ? NS_MATCH_COL_DEV_HEX :
			       p->dir == NS_STAT_INO ? NS_MATCH_COL_INO : NS_MATCH_COL_TEXT;
		out->lit[i] = p->dir == NS_STAT_TEXT ? p->text : NULL;
		out->litlen[i] = p->len;
		numbers |= out->cols[i] != NS_MATCH_COL_TEXT;
	}
	out->ncols = a->npieces;
	return numbers;
}

/* mountpoint -d prints a device, MAJ:MIN */
static bool mountpoint_shape(const void *args, struct ns_match_shape *out)
{
	memset(out, 0, sizeof(*out));
	out->form = NS_MATCH_FIELDS;
	out->ncols = 1;
	out->cols[0] = NS_MATCH_COL_DEV;
	return ((const struct ns_mountpoint_args *)args)->devno;
}

static bool stat_messages(const struct ns_stage *st, struct ns_msg_ctx *c)
{
	const struct ns_stat_args *a = st->args;

	c->cmd = st->def->name;
	c->what = NS_ULMSG_FILES;
	c->targets = a->files;
	c->ntargets = a->nfiles;
	return true;
}

static bool mountpoint_messages(const struct ns_stage *st, struct ns_msg_ctx *c)
{
	const struct ns_mountpoint_args *a = st->args;

	c->cmd = st->def->name;
	c->what = NS_ULMSG_FILES;
	c->targets = &a->path;
	c->ntargets = 1;
	return true;
}

/* ---- diff ---------------------------------------------------------------------- */

/* diff [-r] A B */
static int parse_diff(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_diff_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	for (; i < st->argc && st->argv[i][0] == '-' && st->argv[i][1]; i++) {
		const char *w = st->argv[i];

		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		if (strcmp(w, "-r") && strcmp(w, "--recursive"))
			return ns_parse_fail(e, i, "diff: option '%s' is not supported (nstest knows -r)", w);
		if (a->opt)
			return ns_parse_fail(e, i, "diff: '%s' given twice", w);
		a->opt = w;
	}
	if (st->argc - i < 2)
		return ns_parse_fail(e, 0, "diff: missing operand: two files or directories are compared");
	if (st->argc - i > 2)
		return ns_parse_fail(e, i + 2, "diff: extra operand '%s'", st->argv[i + 2]);
	a->a = st->argv[i];
	a->b = st->argv[i + 1];
	return 0;
}

static void free_plain(void *p)
{
	free(p);
}

const struct ns_cmd_def ns_cmd_inspect[] = {
	{ .name = "stat", .id = NS_CMD_STAT, .parse = parse_stat, .free_args = free_stat_args,
	  .shape = stat_shape, .messages = stat_messages },
	{ .name = "mountpoint", .id = NS_CMD_MOUNTPOINT, .parse = parse_mountpoint, .free_args = free_plain,
	  .shape = mountpoint_shape, .messages = mountpoint_messages },
	{ .name = "diff", .id = NS_CMD_DIFF, .parse = parse_diff, .free_args = free_plain },
};
const size_t ns_cmd_inspect_count = NS_ARRAY_SIZE(ns_cmd_inspect);
