/* filter.c - grep, sed, awk, wc, head, tail, sort and cut as pipeline
 * stages (see filter.h for what each accepts): the API, the command table, and
 * the option scanning all filters share. Each filter is in a file of its
 * own (filter_impl.h lists them). A filter is compiled when the scenario
 * is parsed, so that a bad pattern is a parse error that runs nothing;
 * running it is then a pure function of its input text. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>


/* ---- option scanning ------------------------------------------------- */

/* The long options of the real tools whose short forms nstest takes;
 * nstest itself takes only the short ones, and names them
 * (ns_parse_long_option_fail). */
static const struct ns_long_option long_options[] = {
	{ "grep", "--invert-match", 'v' }, { "grep", "--extended-regexp", 'E' },
	{ "grep", "--fixed-strings", 'F' }, { "grep", "--ignore-case", 'i' },
	{ "grep", "--count", 'c' }, { "grep", "--word-regexp", 'w' },
	{ "grep", "--line-regexp", 'x' }, { "grep", "--regexp", 'e' },
	{ "sed", "--quiet", 'n' }, { "sed", "--silent", 'n' },
	{ "sed", "--regexp-extended", 'E' }, { "sed", "--expression", 'e' },
	{ "wc", "--lines", 'l' }, { "wc", "--words", 'w' }, { "wc", "--bytes", 'c' },
	{ "head", "--lines", 'n' }, { "head", "--bytes", 'c' },
	{ "tail", "--lines", 'n' }, { "tail", "--bytes", 'c' },
	{ "sort", "--ignore-leading-blanks", 'b' }, { "sort", "--ignore-case", 'f' },
	{ "sort", "--numeric-sort", 'n' }, { "sort", "--reverse", 'r' },
	{ "sort", "--stable", 's' }, { "sort", "--unique", 'u' },
	{ "sort", "--field-separator", 't' }, { "sort", "--key", 'k' },
	{ "cut", "--bytes", 'b' }, { "cut", "--characters", 'c' },
	{ "cut", "--fields", 'f' }, { "cut", "--delimiter", 'd' },
	{ "cut", "--only-delimited", 's' },
};

/* The letters of one word of options ("-vn2" or "-n"), GNU getopt style:
 * a letter that takes an argument ends the word, taking the rest of it
 * or else the next word. *i moves past what was used. */
static int add_flags(size_t argc, char *const *argv, size_t *i,
		     const struct ns_filter_scan *sc, struct ns_filter_words *w,
		     struct ns_parse_err *e)
{
	const char *cmd = argv[0], *word = argv[*i];

	if (word[1] == '-')
		return ns_parse_long_option_fail(long_options, NS_ARRAY_SIZE(long_options), cmd,
						 word, *i, e);
	for (const char *c = word + 1; *c; c++) {
		const char *k = *c == ':' ? NULL : strchr(sc->known, *c);
		size_t at = *i;
		const char *val;

		if (!k)
			return ns_parse_fail(e, *i, "%s: unknown option -%c", cmd, *c);
		w->flags |= 1u << (unsigned)(k - sc->known);
		if (k[1] != ':')
			continue;
		if (c[1]) {
			val = c + 1;
		} else if (*i + 1 < argc) {
			val = argv[++*i];
			at = *i;
		} else {
			return ns_parse_fail(e, *i, "%s: option requires an argument -- '%c'",
					     cmd, *c);
		}
		return sc->arg(sc->ctx, *c, val, at, e);
	}
	return 0;
}

int ns_filter_scan_words(size_t argc, char *const *argv,
			 const struct ns_filter_scan *sc,
			 struct ns_filter_words *w, struct ns_parse_err *e)
{
	bool options = true;

	memset(w, 0, sizeof(*w));
	for (size_t i = sc->first ? sc->first : 1; i < argc; i++) {
		const char *a = argv[i];

		if (options && strcmp(a, "--") == 0) {
			options = false;
		} else if (options && a[0] == '-' && a[1] != '\0') {
			if (add_flags(argc, argv, &i, sc, w, e) < 0)
				return -1;
		} else {
			if (w->nops < NS_ARRAY_SIZE(w->op))
				w->op[w->nops] = i;
			w->nops++;
		}
	}
	return 0;
}

int ns_filter_split_words(size_t argc, char *const *argv, const char *known,
			  struct ns_filter_words *w, struct ns_parse_err *e)
{
	const struct ns_filter_scan sc = { .known = known };

	return ns_filter_scan_words(argc, argv, &sc, w, e);
}

int ns_filter_want_operands(const struct ns_filter_words *w, size_t want,
			    char *const *argv, const char *what, size_t *file,
			    struct ns_parse_err *e)
{
	if (w->nops < want)
		return ns_parse_fail(e, 0, "%s: missing %s", argv[0], what);
	if (w->nops > want + 1)
		return ns_parse_fail(e, w->op[want + 1], "%s: one FILE operand is supported, "
				     "not '%s' too", argv[0], argv[w->op[want + 1]]);
	*file = w->nops > want && strcmp(argv[w->op[want]], "-") ? w->op[want] : 0;
	return 0;
}

/* ---- the filter object ----------------------------------------------- */

struct ns_filter {
	const struct ns_filter_ops *ops;
	void *prog;
	size_t file;             /* argv index of the FILE operand, or 0 */
};

static const struct ns_filter_ops *const filters[] = {
	&ns_filter_grep, &ns_filter_sed, &ns_filter_awk, &ns_filter_wc,
	&ns_filter_head, &ns_filter_tail, &ns_filter_sort, &ns_filter_cut,
};

static const struct ns_filter_ops *find_filter(const char *name)
{
	for (size_t k = 0; k < NS_ARRAY_SIZE(filters); k++)
		if (strcmp(name, filters[k]->name) == 0)
			return filters[k];
	return NULL;
}

struct ns_filter *ns_filter_compile(size_t argc, char *const *argv,
				    struct ns_parse_err *e)
{
	const struct ns_filter_ops *ops = argc ? find_filter(argv[0]) : NULL;
	struct ns_filter *f;

	if (!ops) {
		ns_parse_fail(e, 0, "%s: not a filter", argc ? argv[0] : "");
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->ops = ops;
	f->prog = xcalloc(1, ops->size);
	if (ops->compile(f->prog, argc, argv, &f->file, e) < 0) {
		ns_filter_free(f);
		return NULL;
	}
	return f;
}

void ns_filter_free(struct ns_filter *f)
{
	if (!f)
		return;
	if (f->ops->release)
		f->ops->release(f->prog);
	free(f->prog);
	free(f);
}

size_t ns_filter_file(const struct ns_filter *f)
{
	return f->file;
}

bool ns_filter_plain(const struct ns_filter *f, struct ns_filter_plain *out)
{
	memset(out, 0, sizeof(*out));
	return f->ops->plain && !f->file && f->ops->plain(f->prog, out);
}

int ns_filter_status(const struct ns_filter *f, const char *out, size_t len)
{
	return f->ops->status ? f->ops->status(f->prog, out, len) : 0;
}

bool ns_filter_keeps_lines(const struct ns_filter *f)
{
	return f->ops->keeps_lines && f->ops->keeps_lines(f->prog);
}

void ns_filter_run(const struct ns_filter *f, const char *in, size_t len,
		   struct ns_buf *out)
{
	f->ops->run(f->prog, in, len, out);
}

/* ---- the command table ----------------------------------------------- */

static int filter_parse(struct ns_stage *st, struct ns_parse_err *e)
{
	st->args = ns_filter_compile(st->argc, st->argv, e);
	return st->args ? 0 : -1;
}

static void filter_free_args(void *args)
{
	ns_filter_free(args);
}

static size_t filter_file(const void *args)
{
	return ns_filter_file(args);
}

#define FILTER_ENTRY(cmd)                                                \
	{ .name = cmd, .id = NS_CMD_FILTER, .filter = true,              \
	  .parse = filter_parse, .free_args = filter_free_args,          \
	  .file = filter_file }

const struct ns_cmd_def ns_cmd_filter[] = {
	FILTER_ENTRY("grep"),
	FILTER_ENTRY("sed"),
	FILTER_ENTRY("awk"),
	FILTER_ENTRY("wc"),
	FILTER_ENTRY("head"),
	FILTER_ENTRY("tail"),
	FILTER_ENTRY("sort"),
	FILTER_ENTRY("cut"),
};
const size_t ns_cmd_filter_count = NS_ARRAY_SIZE(ns_cmd_filter);
