/* findmnt.c - findmnt(8), parsing side: the forms a session uses to look
 * at a mount table (nstest-scenario(5), findmnt). Options may come
 * anywhere on the line and short ones may be grouped (-no LIST), as
 * util-linux's getopt allows; errors read as findmnt words them. */
#include "commands/command.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/suggest.h"
#include "commands/args.h"

static const char *const col_names[NS_FINDMNT__NCOLS] = {
	[NS_FINDMNT_TARGET] = "TARGET",
	[NS_FINDMNT_SOURCE] = "SOURCE",
	[NS_FINDMNT_FSTYPE] = "FSTYPE",
	[NS_FINDMNT_OPTIONS] = "OPTIONS",
	[NS_FINDMNT_VFS_OPTIONS] = "VFS-OPTIONS",
	[NS_FINDMNT_FS_OPTIONS] = "FS-OPTIONS",
	[NS_FINDMNT_PROPAGATION] = "PROPAGATION",
	[NS_FINDMNT_ID] = "ID",
	[NS_FINDMNT_PARENT] = "PARENT",
	[NS_FINDMNT_MAJMIN] = "MAJ:MIN",
	[NS_FINDMNT_FSROOT] = "FSROOT",
	[NS_FINDMNT_SIZE] = "SIZE",
	[NS_FINDMNT_USED] = "USED",
	[NS_FINDMNT_AVAIL] = "AVAIL",
	[NS_FINDMNT_USEPERC] = "USE%",
};

/* The columns and long options of util-linux 2.38's findmnt that nstest
 * does not draw (findmnt --help), so that an error can tell "findmnt has
 * it, nstest does not" from a typo. */
static const char *const findmnt_only_cols[] = {
	"ACTION", "FREQ", "LABEL", "OLD-OPTIONS", "OLD-TARGET", "OPT-FIELDS",
	"PARTLABEL", "PARTUUID", "PASSNO", "SOURCES", "TID", "UUID",
};
static const char *const findmnt_only_longs[] = {
	"all", "ascii", "bytes", "canonicalize", "dfi", "direction", "evaluate",
	"first-only", "fstab", "help", "invert", "kernel", "mtab", "nocanonicalize",
	"nofsroot", "notruncate", "options", "output-all", "pairs", "poll", "pseudo",
	"shadowed", "shell", "task", "tab-file", "timeout",
	"uniq", "verbose", "verify", "version", "vfs-all",
};

/* findmnt 2.38's short options that nstest does not take */
static const char findmnt_only_shorts[] = "smkpwAabCcdeFfiINOPUuvyxhV";

static bool in_list(const char *w, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(w, v[i]))
			return true;
	return false;
}

/* -D's columns when -o gives none */
static const enum ns_findmnt_col df_cols[] = {
	NS_FINDMNT_SOURCE, NS_FINDMNT_FSTYPE, NS_FINDMNT_SIZE, NS_FINDMNT_USED,
	NS_FINDMNT_AVAIL, NS_FINDMNT_USEPERC, NS_FINDMNT_TARGET,
};

/* findmnt's columns when -o gives none (or "+LIST" adds to them). */
static const enum ns_findmnt_col default_cols[] = {
	NS_FINDMNT_TARGET, NS_FINDMNT_SOURCE, NS_FINDMNT_FSTYPE, NS_FINDMNT_OPTIONS,
};

const char *ns_findmnt_col_name(enum ns_findmnt_col c)
{
	return c < NS_FINDMNT__NCOLS ? col_names[c] : "?";
}

static void add_col(struct ns_findmnt_args *a, enum ns_findmnt_col c)
{
	a->cols[a->ncols++] = c;
}

/* A column nstest does not know: findmnt's own that nstest does not
 * draw, a near miss of one it draws (ROOT is findmnt's FSROOT), or none. */
static int unknown_col(struct ns_parse_err *e, size_t word, const char *p, size_t len)
{
	char *name = xstrndup(p, len);
	const char *near;
	int r;

	for (char *q = name; *q; q++)
		if (*q >= 'a' && *q <= 'z')
			*q = (char)(*q - 'a' + 'A');
	near = !strcmp(name, "ROOT") ? "FSROOT" : ns_closest(name, col_names, NS_FINDMNT__NCOLS);
	if (in_list(name, findmnt_only_cols, NS_ARRAY_SIZE(findmnt_only_cols))) {
		struct ns_buf has = NS_BUF_INIT;

		for (size_t c = 0; c < NS_FINDMNT__NCOLS; c++)
			ns_buf_addf(&has, "%s%s", c ? " " : "", col_names[c]);
		r = ns_parse_fail(e, word, "findmnt: column %.*s is findmnt's, but nstest does "
				  "not draw it (it draws %s)", (int)len, p, ns_buf_str(&has));
		ns_buf_free(&has);
	} else if (near)
		r = ns_parse_fail(e, word, "findmnt: unknown column: %.*s (did you mean %s?)",
				  (int)len, p, near);
	else
		r = ns_parse_fail(e, word, "findmnt: unknown column: %.*s", (int)len, p);
	free(name);
	return r;
}

/* -o LIST: names separated by commas, in any case, as findmnt reads them;
 * a leading '+' adds them to the default columns. */
static int parse_cols(struct ns_findmnt_args *a, const char *list, size_t word,
		      struct ns_parse_err *e)
{
	const char *p = list;

	a->ncols = 0;
	if (*p == '+') {
		for (size_t i = 0; i < NS_ARRAY_SIZE(default_cols); i++)
			add_col(a, default_cols[i]);
		p++;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		size_t c;

		for (c = 0; c < NS_FINDMNT__NCOLS; c++)
			if (strlen(col_names[c]) == len && !strncasecmp(p, col_names[c], len))
				break;
		if (c == NS_FINDMNT__NCOLS)
			return unknown_col(e, word, p, len);
		if (a->ncols == NS_FINDMNT_MAX_COLS)
			return ns_parse_fail(e, word, "findmnt: too many columns");
		add_col(a, (enum ns_findmnt_col)c);
		p += len;
		p += *p == ',';
	}
	return 0;
}

/* An option that takes a value: -o, -t, -T, -M and -S. */
static int set_value(struct ns_findmnt_args *a, char opt, const char *val,
		     size_t word, struct ns_parse_err *e)
{
	enum ns_findmnt_select sel = opt == 'T' ? NS_FINDMNT_TARGET_PATH
				   : opt == 'S' ? NS_FINDMNT_BY_SOURCE : NS_FINDMNT_MOUNTPOINT;

	if (opt == 'o')
		return parse_cols(a, val, word, e);
	if (opt == 't') {
		/* libmount's pattern: a comma list, "no" before a name or at
		 * its start negating (mnt_match_fstype) */
		if (!*val || strspn(val, ",") == strlen(val))
			return ns_parse_fail(e, word, "findmnt: -t needs a filesystem type");
		a->types = val;
		return 0;
	}
	if (a->select != NS_FINDMNT_ALL && a->select != sel) {
		if (sel == NS_FINDMNT_BY_SOURCE || a->select == NS_FINDMNT_BY_SOURCE)
			return ns_parse_fail(e, word, "findmnt: --source with --target or --mountpoint (both to match) is not supported");
		return ns_parse_fail(e, word,
				     "findmnt: mutually exclusive arguments: --mountpoint --target");
	}
	a->select = sel;
	a->path = val;
	return 0;
}

/* long options without a short one, as their own codes */
enum { OPT_TREE = 1, OPT_REAL = 2 };

/* -D: df's columns (unless -o), a list, no pseudo filesystem but tmpfs
 * (util-linux's main() and match_func()) */
static void set_df(struct ns_findmnt_args *a)
{
	a->df = true;
	a->list = true;
}

static int set_flag(struct ns_findmnt_args *a, char opt)
{
	switch (opt) {
	case OPT_TREE: a->tree = true; return 0;
	case OPT_REAL: a->real = true; return 0;
	case 'l': a->list = true; return 0;
	case 'r': a->raw = true; return 0;
	case 'J': a->json = true; return 0;
	case 'n': a->noheadings = true; return 0;
	case 'R': a->submounts = true; return 0;
	case 'D': set_df(a); return 0;
	default: return -1;
	}
}

static const struct {
	const char *name;
	char opt;
} longs[] = {
	{ "list", 'l' }, { "raw", 'r' }, { "json", 'J' }, { "noheadings", 'n' },
	{ "submounts", 'R' }, { "output", 'o' }, { "target", 'T' },
	{ "mountpoint", 'M' }, { "source", 'S' }, { "types", 't' }, { "tree", OPT_TREE }, { "real", OPT_REAL },
	{ "df", 'D' },
};

static bool takes_value(char opt)
{
	return opt == 'o' || opt == 'T' || opt == 'M' || opt == 't' || opt == 'S';
}

/* --NAME (name: its first len characters after the dashes), not one of
 * longs[]: findmnt's own, a near miss of one of longs[], or none. */
static int unknown_long(struct ns_parse_err *e, size_t word, const char *arg,
			const char *name, size_t len)
{
	const char *names[NS_ARRAY_SIZE(longs)];
	char *w = xstrndup(name, len);
	const char *near;
	int r;

	for (size_t k = 0; k < NS_ARRAY_SIZE(longs); k++)
		names[k] = longs[k].name;
	near = ns_closest(w, names, NS_ARRAY_SIZE(names));
	if (in_list(w, findmnt_only_longs, NS_ARRAY_SIZE(findmnt_only_longs)))
		r = ns_parse_fail(e, word, "findmnt: option --%s is findmnt's, but nstest does not "
				  "support it (nstest-scenario(5), findmnt)", w);
	else if (near)
		r = ns_parse_fail(e, word, "findmnt: unknown option %s (did you mean --%s?)", arg, near);
	else
		r = ns_parse_fail(e, word, "findmnt: unknown option %s", arg);
	free(w);
	return r;
}

/* --NAME or --NAME=VALUE at argv[*i]; *i moves past a separate value. */
static int parse_long(struct ns_stage *st, size_t *i, struct ns_findmnt_args *a,
		      struct ns_parse_err *e)
{
	const char *w = st->argv[*i] + 2, *eq = strchr(w, '=');
	size_t len = eq ? (size_t)(eq - w) : strlen(w), word = *i;

	for (size_t k = 0; k < NS_ARRAY_SIZE(longs); k++) {
		char opt = longs[k].opt;

		if (strlen(longs[k].name) != len || strncmp(w, longs[k].name, len))
			continue;
		if (!takes_value(opt)) {
			if (eq)
				return ns_parse_fail(e, word,
						     "findmnt: option '--%s' doesn't allow an argument",
						     longs[k].name);
			return set_flag(a, opt);
		}
		if (eq)
			return set_value(a, opt, eq + 1, word, e);
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, word,
					     "findmnt: option '--%s' requires an argument",
					     longs[k].name);
		return set_value(a, opt, st->argv[++*i], word, e);
	}
	return unknown_long(e, word, st->argv[word], w, len);
}

/* -abc at argv[*i]: flags, the last of which may take the rest of the
 * word or the next word as its value. */
static int parse_short(struct ns_stage *st, size_t *i, struct ns_findmnt_args *a,
		       struct ns_parse_err *e)
{
	const char *w = st->argv[*i];
	size_t word = *i;

	for (const char *p = w + 1; *p; p++) {
		if (!takes_value(*p)) {
			if (set_flag(a, *p) == 0)
				continue;
			if (strchr(findmnt_only_shorts, *p))
				return ns_parse_fail(e, word, "findmnt: option -%c is findmnt's, but nstest "
						     "does not support it (nstest-scenario(5), findmnt)", *p);
			return ns_parse_fail(e, word, "findmnt: unknown option -%c", *p);
		}
		if (p[1])
			return set_value(a, *p, p + 1, word, e);
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, word,
					     "findmnt: option requires an argument -- '%c'", *p);
		return set_value(a, *p, st->argv[++*i], word, e);
	}
	return 0;
}

bool ns_findmnt_is_tree(const struct ns_findmnt_args *a)
{
	return (a->tree ? !a->raw : !a->list && !a->raw) &&
	       (a->select == NS_FINDMNT_ALL || a->submounts);
}

static int check(const struct ns_findmnt_args *a, struct ns_parse_err *e)
{
	if (a->tree && a->raw)
		return ns_parse_fail(e, 0, "findmnt: --tree with -r (a tree's lines in raw form) is not supported");
	if (a->list && a->raw)
		return ns_parse_fail(e, 0,
				     "findmnt: mutually exclusive arguments: --pairs --list --raw --verify");
	if (a->json && a->raw)
		return ns_parse_fail(e, 0,
				     "findmnt: mutually exclusive arguments: --json --pairs --raw --verify");
	return 0;
}

static int parse_findmnt(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_findmnt_args *a = xcalloc(1, sizeof(*a));
	const char *spec = NULL;
	size_t spec_word = 0;
	bool operands = false;

	st->args = a;
	for (size_t i = 1; i < st->argc; i++) {
		const char *w = st->argv[i];
		int r = 0;

		if (!operands && !strcmp(w, "--")) {
			operands = true;
			continue;
		}
		if (operands || w[0] != '-' || !w[1]) {
			if (spec)
				return ns_parse_fail(e, i,
						     "findmnt: only one SOURCE or TARGET operand is supported");
			spec = w;
			spec_word = i;
			continue;
		}
		r = w[1] == '-' ? parse_long(st, &i, a, e) : parse_short(st, &i, a, e);
		if (r < 0)
			return r;
	}
	if (spec && a->select != NS_FINDMNT_ALL)
		return ns_parse_fail(e, spec_word,
				     "findmnt: options --target and --source can't be used together with command line element that is not an option");
	if (spec) {
		a->select = NS_FINDMNT_SPEC;
		a->path = spec;
	}
	if (!a->ncols && a->df)
		for (size_t i = 0; i < NS_ARRAY_SIZE(df_cols); i++)
			add_col(a, df_cols[i]);
	if (!a->ncols)
		for (size_t i = 0; i < NS_ARRAY_SIZE(default_cols); i++)
			add_col(a, default_cols[i]);
	return check(a, e);
}

/* The table's form and the columns that hold numbers the judge renames. */
static bool findmnt_shape(const void *args, struct ns_match_shape *out)
{
	const struct ns_findmnt_args *a = args;
	bool numbers = false;

	memset(out, 0, sizeof(*out));
	out->form = a->json ? NS_MATCH_JSON : a->raw ? NS_MATCH_RAW : NS_MATCH_TABLE;
	/* findmnt draws a tree unless it prints a list (the renderer's rule,
	 * mounts/findmnt.c); a list of -R with a selection is that tree's
	 * lines in the same order, flat (util-linux's create_treenode, which
	 * -l, -r and -J -l print without nesting), and a list of anything
	 * else is in mountinfo order */
	out->flat = (a->list || a->raw) && !a->tree && a->select != NS_FINDMNT_ALL &&
		    a->submounts;
	out->tree = out->flat || ns_findmnt_is_tree(a);
	out->piped = a->piped;
	out->heading = !a->noheadings && !a->json;
	out->ncols = a->ncols;
	out->tree_col = a->ncols;
	for (size_t c = 0; c < a->ncols && c < NS_MATCH_MAX_COLS; c++) {
		if (a->cols[c] == NS_FINDMNT_TARGET && out->tree_col == a->ncols)
			out->tree_col = c; /* the renderer draws the tree there */
		switch (a->cols[c]) {
		case NS_FINDMNT_ID:
			out->cols[c] = NS_MATCH_COL_ID;
			break;
		case NS_FINDMNT_PARENT:
			out->cols[c] = NS_MATCH_COL_PARENT;
			break;
		case NS_FINDMNT_MAJMIN:
			out->cols[c] = NS_MATCH_COL_DEV;
			break;
		case NS_FINDMNT_FSTYPE:
		case NS_FINDMNT_OPTIONS:
		case NS_FINDMNT_VFS_OPTIONS:
		case NS_FINDMNT_FS_OPTIONS:
			/* the columns util-linux's findmnt.c marks
			 * SCOLS_FL_TRUNC: cut to fit a terminal */
			out->trunc[c] = true;
			out->cols[c] = NS_MATCH_COL_TEXT;
			break;
		case NS_FINDMNT_SIZE: /* statvfs(2)'s: free */
		case NS_FINDMNT_USED:
		case NS_FINDMNT_AVAIL:
			out->cols[c] = NS_MATCH_COL_SIZE;
			break;
		case NS_FINDMNT_USEPERC:
			out->cols[c] = NS_MATCH_COL_PERCENT;
			break;
		default:
			out->cols[c] = NS_MATCH_COL_TEXT;
			break;
		}
		numbers |= out->cols[c] != NS_MATCH_COL_TEXT;
	}
	return numbers;
}

bool ns_findmnt_wants_usage(const struct ns_findmnt_args *a)
{
	for (size_t c = 0; c < a->ncols; c++)
		if (a->cols[c] >= NS_FINDMNT_SIZE && a->cols[c] <= NS_FINDMNT_USEPERC)
			return true;
	return false;
}

/* findmnt prints the same into a pipe (it never writes to a terminal
 * here); the judge reads a tree that filters may have cut differently. */
static void findmnt_piped(void *args)
{
	((struct ns_findmnt_args *)args)->piped = true;
}

const struct ns_cmd_def ns_cmd_findmnt[] = {
	{ .name = "findmnt", .id = NS_CMD_FINDMNT, .parse = parse_findmnt,
	  .free_args = free, .utf8 = true, .piped = findmnt_piped,
	  .shape = findmnt_shape },
};
const size_t ns_cmd_findmnt_count = NS_ARRAY_SIZE(ns_cmd_findmnt);
