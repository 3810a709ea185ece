/* scenario_parse.c - read a transcript scenario file into a plan
 * (nstest-scenario(5)).
 *
 * The whole file is checked before anything can run: each problem is
 * reported as "file:line:col: error: what" (up to NS_DIAG_MAX of them), and
 * no scenario is returned if there is any. After an error the parser goes
 * on with the next line, keeping the block the line was in open, so that
 * one mistake does not make the lines after it wrong too. */
#include "scenario/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "scenario/command.h"
#include "scenario/shellword.h"

#define NS_MAX_LINE (1u << 20)

struct parser;

/* The directives of the header, each read by its dir_ function below.
 * The table comes first so that the parser can count them. */
typedef int directive_fn(struct parser *p, const char *v, int col);
static directive_fn dir_root, dir_requires, dir_kernel, dir_devices, dir_title,
	dir_xfail, dir_errors;

static const struct {
	const char *name;
	directive_fn *fn;
	bool repeatable;       /* may be given more than once */
} directives[] = {
	{ "root", dir_root, false },
	{ "requires", dir_requires, false },
	{ "kernel", dir_kernel, false },
	{ "devices", dir_devices, false },
	{ "title", dir_title, false },
	{ "xfail", dir_xfail, true },
	{ "errors", dir_errors, false },
};

struct parser {
	struct ns_scenario *sc;
	const char *path;
	int lineno;
	bool seen_session;
	bool header_open;      /* still in the leading block of directives */
	struct ns_step *open;  /* the step whose output lines may follow */
	bool prev_session;     /* the line before was a session line */
	/* blank lines inside an output block: the first one, and the step
	 * (an index into steps) whose output it interrupted; 0 for none */
	int blank_line;
	size_t blank_step;
	bool seen[NS_ARRAY_SIZE(directives)]; /* which directives were given */
	/* the errors so far: the first NS_DIAG_MAX, in line order, and a count */
	char *err[NS_DIAG_MAX];
	int err_line[NS_DIAG_MAX];
	size_t nerr;
	bool stop;             /* the file is not text: read no further */
};

static int fail(struct parser *p, int col, const char *fmt, ...) NS_PRINTF(3, 4);
static int fail(struct parser *p, int col, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	size_t n = p->nerr < NS_DIAG_MAX ? p->nerr : NS_DIAG_MAX, at = n;
	va_list ap;

	p->nerr++;
	/* errors come in line order, but for the checks made at the end */
	while (at && p->err_line[at - 1] > p->lineno)
		at--;
	if (at == NS_DIAG_MAX)
		return -1;
	ns_buf_addf(&b, "%s:%d:%d: error: ", p->path, p->lineno, col);
	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (n == NS_DIAG_MAX)
		free(p->err[--n]);
	memmove(&p->err[at + 1], &p->err[at], (n - at) * sizeof(p->err[0]));
	memmove(&p->err_line[at + 1], &p->err_line[at], (n - at) * sizeof(p->err_line[0]));
	p->err[at] = ns_buf_detach(&b);
	p->err_line[at] = p->lineno;
	return -1;
}

/* For an error after which no line can be trusted: the file is not text. */
static int fail_stop(struct parser *p, int col, const char *fmt, ...) NS_PRINTF(3, 4);
static int fail_stop(struct parser *p, int col, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;
	int r;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r = fail(p, col, "%s", ns_buf_str(&b));
	ns_buf_free(&b);
	p->stop = true;
	return r;
}

/* Hand the errors to diag: one line each, then how many more there were. */
static void report(struct parser *p, struct ns_diag *diag)
{
	struct ns_buf b = NS_BUF_INIT;
	size_t shown = p->nerr < NS_DIAG_MAX ? p->nerr : NS_DIAG_MAX;

	for (size_t i = 0; i < shown; i++) {
		if (i)
			ns_buf_addc(&b, '\n');
		ns_buf_adds(&b, p->err[i]);
		free(p->err[i]);
	}
	if (p->nerr > shown)
		ns_buf_addf(&b, "\n%s: %zu more errors not shown (at most %d are reported per file)",
			    p->path, p->nerr - shown, NS_DIAG_MAX);
	diag->msg = ns_buf_detach(&b);
	diag->n = p->nerr;
}

/* Add the i-th of n names to a list in a message: "a, b, c", or with
 * last " or ", "a, b or c". Messages list a table this way, so that a
 * new entry shows in them. */
static void add_listed(struct ns_buf *b, const char *name, size_t i, size_t n,
		       const char *last)
{
	if (i)
		ns_buf_adds(b, i + 1 == n ? last : ", ");
	ns_buf_adds(b, name);
}

static void add_raw(struct parser *p, enum ns_line_kind kind, const char *text,
		    size_t len)
{
	struct ns_scenario *sc = p->sc;
	void *v = sc->raw;

	ns_grow(&v, &sc->raw_cap, sc->nraw + 1, sizeof(*sc->raw));
	sc->raw = v;
	sc->raw[sc->nraw].kind = kind;
	sc->raw[sc->nraw].text = xstrndup(text, len);
	sc->raw[sc->nraw].step = sc->nsteps ? sc->nsteps - 1 : 0;
	sc->nraw++;
}

/* ---- directives --------------------------------------------------- */

static bool is_devname(const char *s)
{
	if (strncmp(s, "/dev/", 5) != 0 || !s[5])
		return false;
	/* one spelling per device: no empty, "." or ".." components */
	if (strstr(s, "//") || strstr(s, "/./") || strstr(s, "/../") ||
	    !strcmp(s + strlen(s) - 2, "/.") || !strcmp(s + strlen(s) - 3, "/.."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("/_.-+:@", *s))
			return false;
	return s[-1] != '/';
}

static int dir_root(struct parser *p, const char *v, int col)
{
	if (!is_devname(v))
		return fail(p, col, "root: '%s' is not a device path like /dev/sda1", v);
	free(p->sc->root_dev);
	p->sc->root_dev = xstrdup(v);
	return 0;
}

static const struct {
	const char *name;
	unsigned bit;
} requirements[] = {
	{ "root", NS_REQ_ROOT },
	{ "loop", NS_REQ_LOOP },
	{ "userns", NS_REQ_USERNS },
	{ "open_tree", NS_FEAT_OPEN_TREE },
	{ "move_mount", NS_FEAT_MOVE_MOUNT },
	{ "fsmount", NS_FEAT_FSMOUNT },
	{ "mount_setattr", NS_FEAT_MOUNT_SETATTR },
	{ "statmount", NS_FEAT_STATMOUNT },
	{ "listmount", NS_FEAT_LISTMOUNT },
	{ "move_mount_beneath", NS_FEAT_MOVE_MOUNT_BENEATH },
	{ "move_mount_set_group", NS_FEAT_MOVE_MOUNT_SET_GROUP },
};

const char *ns_requirement_name(unsigned bit)
{
	for (size_t k = 0; k < NS_ARRAY_SIZE(requirements); k++)
		if (requirements[k].bit == bit)
			return requirements[k].name;
	return NULL;
}

static int unknown_requirement(struct parser *p, int col, const char *s, size_t n)
{
	struct ns_buf known = NS_BUF_INIT;
	int r;

	for (size_t k = 0; k < NS_ARRAY_SIZE(requirements); k++)
		add_listed(&known, requirements[k].name, k, NS_ARRAY_SIZE(requirements), ", ");
	r = fail(p, col, "requires: unknown requirement '%.*s' (known: %s)", (int)n, s,
		 ns_buf_str(&known));
	ns_buf_free(&known);
	return r;
}

static int dir_requires(struct parser *p, const char *v, int col)
{
	const char *s = v;

	while (*s) {
		size_t n = strcspn(s, " \t"), k = 0;

		while (k < NS_ARRAY_SIZE(requirements) &&
		       (strlen(requirements[k].name) != n || strncmp(s, requirements[k].name, n)))
			k++;
		if (k == NS_ARRAY_SIZE(requirements))
			return unknown_requirement(p, col + (int)(s - v), s, n);
		p->sc->requires |= requirements[k].bit;
		s += n;
		s += strspn(s, " \t");
	}
	return 0;
}

/* One "OP X.Y[.Z]" of an xfail range; returns the characters used or -1. */
static int parse_cmp(const char *s, struct ns_version_cmp *c)
{
	static const char *const ops[] = { ">=", "<=", ">", "<", "=" };
	int used = 0, k = -1;

	for (size_t i = 0; i < NS_ARRAY_SIZE(ops) && k < 0; i++)
		if (!strncmp(s, ops[i], strlen(ops[i])))
			k = (int)i;
	if (k < 0)
		return -1;
	strcpy(c->op, ops[k]);
	s += strlen(ops[k]);
	c->v[0] = c->v[1] = c->v[2] = 0;
	if (sscanf(s, " %d.%d%n.%d%n", &c->v[0], &c->v[1], &used, &c->v[2], &used) < 2)
		return -1;
	return (int)strlen(ops[k]) + used;
}

static int dir_xfail(struct parser *p, const char *v, int col)
{
	struct ns_scenario *sc = p->sc;
	const char *colon = strchr(v, ':');
	struct ns_xfail x = { .line = p->lineno };
	const char *s = v;
	void *arr = sc->xfails;
	size_t cap = sc->nxfails;

	if (!colon || !colon[1 + strspn(colon + 1, " \t")])
		return fail(p, col, "xfail: expected 'RANGE: REASON', e.g. 'xfail: >= 6.1, < 6.9: why (reference)'");
	if (!strncmp(s, "*", 1) && s + 1 + strspn(s + 1, " \t") == colon) {
		x.any = true;
	} else {
		while (s < colon) {
			int n;
			if (x.ncmp == NS_ARRAY_SIZE(x.cmp) || (n = parse_cmp(s, &x.cmp[x.ncmp])) < 0)
				return fail(p, col + (int)(s - v), "xfail: bad kernel range '%.*s' (use '*' or comparisons like '>= 6.1, < 6.9')",
					    (int)(colon - v), v);
			x.ncmp++;
			s += n;
			s += strspn(s, " \t");
			if (*s == ',')
				s += 1 + strspn(s + 1, " \t");
			else if (s != colon)
				return fail(p, col + (int)(s - v), "xfail: expected ',' or ':' after a kernel version");
		}
	}
	x.reason = xstrdup(colon + 1 + strspn(colon + 1, " \t"));
	ns_grow(&arr, &cap, sc->nxfails + 1, sizeof(x));
	sc->xfails = arr;
	sc->xfails[sc->nxfails++] = x;
	return 0;
}

static int dir_kernel(struct parser *p, const char *v, int col)
{
	int *k = p->sc->kernel_min;
	int used = 0;

	k[0] = k[1] = k[2] = 0;
	if (sscanf(v, ">= %d.%d%n.%d%n", &k[0], &k[1], &used, &k[2], &used) < 2 ||
	    v[used] || k[0] < 0 || k[1] < 0 || k[2] < 0)
		return fail(p, col, "kernel: expected '>= MAJOR.MINOR[.PATCH]', got '%s'", v);
	return 0;
}

static const struct {
	const char *name;
	enum ns_devices_mode mode;
} device_modes[] = {
	{ "tmpfs", NS_DEVICES_TMPFS },
	{ "loop", NS_DEVICES_LOOP },
	{ "any", NS_DEVICES_DEFAULT },
};

static int dir_devices(struct parser *p, const char *v, int col)
{
	struct ns_buf known = NS_BUF_INIT;
	int r;

	for (size_t i = 0; i < NS_ARRAY_SIZE(device_modes); i++) {
		if (!strcmp(v, device_modes[i].name)) {
			p->sc->devices = device_modes[i].mode;
			return 0;
		}
	}
	for (size_t i = 0; i < NS_ARRAY_SIZE(device_modes); i++)
		add_listed(&known, device_modes[i].name, i, NS_ARRAY_SIZE(device_modes), " or ");
	r = fail(p, col, "devices: expected %s, got '%s'", ns_buf_str(&known), v);
	ns_buf_free(&known);
	return r;
}

static int dir_title(struct parser *p, const char *v, int col)
{
	(void)col;
	free(p->sc->title);
	p->sc->title = xstrdup(v);
	return 0;
}

/* `errors: nstest|util-linux`: the form show and --update write error
 * lines in (run/ulmsg.h). */
static int dir_errors(struct parser *p, const char *v, int col)
{
	if (!strcmp(v, "nstest"))
		p->sc->errors = NS_ERRORS_NSTEST;
	else if (!strcmp(v, "util-linux"))
		p->sc->errors = NS_ERRORS_UTIL_LINUX;
	else
		return fail(p, col, "errors: expected nstest or util-linux, got '%s'", v);
	return 0;
}

/* "key: value" with a lowercase key; anything else is not a directive. */
static bool split_directive(const char *line, size_t *keylen, const char **val)
{
	size_t k = 0;

	while (islower((unsigned char)line[k]) || line[k] == '-' ||
	       (k && isdigit((unsigned char)line[k])))
		k++;
	if (!k || line[k] != ':' || (line[k + 1] != ' ' && line[k + 1]))
		return false;
	*keylen = k;
	*val = line + k + 1 + strspn(line + k + 1, " \t");
	return true;
}

static int known_directive(const char *key, size_t keylen)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(directives); i++)
		if (strlen(directives[i].name) == keylen &&
		    !strncmp(directives[i].name, key, keylen))
			return (int)i;
	return -1;
}

static int unknown_directive(struct parser *p, const char *key, size_t keylen)
{
	struct ns_buf known = NS_BUF_INIT;
	int r;

	for (size_t i = 0; i < NS_ARRAY_SIZE(directives); i++)
		add_listed(&known, directives[i].name, i, NS_ARRAY_SIZE(directives), ", ");
	r = fail(p, 1, "unknown directive '%.*s' (known: %s)", (int)keylen, key,
		 ns_buf_str(&known));
	ns_buf_free(&known);
	return r;
}

static int parse_directive(struct parser *p, const char *line, size_t keylen,
			   const char *val)
{
	int i = known_directive(line, keylen);
	char *v;
	size_t n;
	int r;

	if (i < 0)
		return unknown_directive(p, line, keylen);
	if (p->seen[i] && !directives[i].repeatable)
		return fail(p, 1, "directive '%.*s' given twice", (int)keylen, line);
	p->seen[i] = true;
	v = xstrdup(val);
	n = strlen(v);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		v[--n] = '\0';
	r = directives[i].fn(p, v, (int)(val - line) + 1);
	free(v);
	return r;
}

/* ---- session lines ------------------------------------------------ */

/* A prompt is an optional terminal name followed by "# " or "$ ". Returns
 * the length of the prompt including its blank, or 0. */
static size_t prompt_len(const char *s, size_t *namelen)
{
	size_t k = 0;

	while (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '-' || s[k] == '.')
		k++;
	if ((s[k] == '#' || s[k] == '$') && (s[k + 1] == ' ' || s[k + 1] == '\t' || !s[k + 1])) {
		*namelen = k;
		return s[k + 1] ? k + 2 : k + 1;
	}
	return 0;
}

static const char *nested(const struct ns_scenario *sc, const char *name);

static void add_device(struct ns_scenario *sc, const char *name)
{
	void *v = sc->devnames;

	if (ns_scenario_devindex(sc, name) >= 0) {
		sc->remounts = true;
		return;
	}
	ns_grow(&v, &sc->devnames_cap, sc->ndevnames + 1, sizeof(char *));
	sc->devnames = v;
	sc->devnames[sc->ndevnames++] = xstrdup(name);
}

/* Column of the first word equal to s (the command's column otherwise). */
static int word_col(const struct ns_stage *st, const char *s)
{
	for (size_t i = 1; i < st->argc; i++)
		if (!strcmp(st->argv[i], s))
			return st->col[i];
	return st->col[0];
}

static int parse_stage(struct parser *p, struct ns_stage *st, size_t index)
{
	struct ns_parse_err e = { NULL, 0 };
	const char *name = st->argv[0];

	st->def = ns_cmd_find(name);
	if (!st->def) {
		/* any command may be meant first; after a pipe, only a filter */
		const char *near = ns_cmd_closest(name, index > 0);

		return fail(p, st->col[0], "unknown %s '%s'%s%s%s", index ? "filter" : "command",
			    name, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	}
	if (index == 0 && st->def->filter)
		return fail(p, st->col[0], "'%s' is a filter: it reads the output of a command through '|'", name);
	if (index > 0 && !st->def->filter)
		return fail(p, st->col[0], "'%s' cannot read from a pipe", name);
	if (st->def->parse(st, &e) < 0) {
		size_t w = e.word < st->argc ? e.word : 0;
		int r = fail(p, st->col[w], "%s", e.msg);
		free(e.msg);
		return r;
	}
	if (st->def->device) {
		const char *dev = st->def->device(st->args);
		if (dev && !is_devname(dev))
			return fail(p, word_col(st, dev), "device name '%s' is not a path like /dev/sdb6", dev);
		if (dev && nested(p->sc, dev))
			return fail(p, word_col(st, dev), "device name '%s' and %s cannot both be devices: one is a folder of the other",
				    dev, nested(p->sc, dev));
		if (dev)
			add_device(p->sc, dev);
	}
	if (st->def->one_way && st->def->one_way(st->args))
		p->sc->one_way = true;
	return 0;
}

/* Turn the words of one stage into an ns_stage with file columns. */
static void take_words(struct ns_stage *st, struct ns_words *w, int base)
{
	st->argv = w->v;
	st->argc = w->n;
	st->col = xcalloc(w->n, sizeof(int));
	for (size_t i = 0; i < w->n; i++)
		st->col[i] = base + w->col[i];
	free(w->col);
	w->v = NULL;
	w->col = NULL;
	w->n = 0;
}

static int parse_command(struct parser *p, struct ns_step *step,
			 const char *text, int base)
{
	struct ns_split sp;
	char *msg = NULL;
	size_t at = 0;
	size_t end;

	if (ns_shell_split(text, &sp, &msg, &at) < 0) {
		int r = fail(p, base + (int)at, "%s", msg);
		free(msg);
		return r;
	}
	end = sp.comment;
	while (end && (text[end - 1] == ' ' || text[end - 1] == '\t'))
		end--;
	step->cmdline = xstrndup(text, end);
	if (sp.n == 1 && sp.stages[0].n == 0) {
		ns_split_free(&sp);
		return fail(p, base, "empty command after the prompt");
	}
	step->pipeline.stages = xcalloc(sp.n, sizeof(struct ns_stage));
	step->pipeline.n = sp.n;
	for (size_t i = 0; i < sp.n; i++)
		take_words(&step->pipeline.stages[i], &sp.stages[i], base);
	ns_split_free(&sp);
	for (size_t i = 0; i < step->pipeline.n; i++)
		if (parse_stage(p, &step->pipeline.stages[i], i) < 0)
			return -1;
	return 0;
}

static struct ns_step *new_step(struct ns_scenario *sc)
{
	void *v = sc->steps;

	ns_grow(&v, &sc->steps_cap, sc->nsteps + 1, sizeof(struct ns_step));
	sc->steps = v;
	memset(&sc->steps[sc->nsteps], 0, sizeof(struct ns_step));
	return &sc->steps[sc->nsteps++];
}

static void add_expect(struct ns_step *st, const char *text, int line)
{
	void *v = st->expect;

	ns_grow(&v, &st->expect_cap, st->nexpect + 1, sizeof(struct ns_expect));
	st->expect = v;
	st->expect[st->nexpect].text = xstrdup(text);
	st->expect[st->nexpect].line = line;
	st->nexpect++;
}

/* ---- lines that look like what they are not ------------------------- */

/* Whether s (a line's text after its leading blanks) looks like a command:
 * an optional terminal name, '#' or '$', blanks or none, then the name of
 * a command of the table, ending at a blank, '|' or the end of the line.
 * If so, *at is where the command name starts and *end where it ends. */
static bool looks_like_command(const char *s, size_t *at, size_t *end)
{
	size_t k = 0, n;
	char *word;
	bool known;

	while (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '-' || s[k] == '.')
		k++;
	if (s[k] != '#' && s[k] != '$')
		return false;
	k++;
	k += strspn(s + k, " \t");
	n = strcspn(s + k, " \t|");
	if (!n)
		return false;
	word = xstrndup(s + k, n);
	known = ns_cmd_find(word) != NULL;
	free(word);
	*at = k;
	*end = k + n;
	return known;
}

/* "2 spaces", "a tab", "4 spaces, then a tab": the n leading blanks of
 * line, for a message. */
static void describe_indent(struct ns_buf *b, const char *line, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t run = 1;

		while (i + run < n && line[i + run] == line[i])
			run++;
		if (i)
			ns_buf_adds(b, ", then ");
		if (run == 1)
			ns_buf_adds(b, line[i] == '\t' ? "a tab" : "1 space");
		else
			ns_buf_addf(b, "%zu %s", run, line[i] == '\t' ? "tabs" : "spaces");
		i += run;
	}
}

/* A step for a line that was meant as a command but has an error of its
 * form: its output lines then belong to it and raise nothing more. The
 * scenario is not returned anyway. */
static void stand_in_step(struct parser *p, const char *s, size_t namelen)
{
	struct ns_step *st = new_step(p->sc);

	st->line = p->lineno;
	st->terminal = xstrndup(s, namelen);
	st->prompt = s[namelen];
	p->open = st;
	p->blank_line = 0;
}

/* A line whose text, after lead blanks that are not a session line's
 * indentation, looks like a command: it would be prose, or output of the
 * command before, and never run. */
static int misindented_command(struct parser *p, const char *line, size_t lead,
			       bool session)
{
	const char *s = line + lead;
	size_t at = 0, end = 0, namelen = strcspn(s, "#$");
	bool blank = s[namelen + 1] == ' ' || s[namelen + 1] == '\t';
	struct ns_buf msg = NS_BUF_INIT;
	int r;

	looks_like_command(s, &at, &end);
	ns_buf_addf(&msg, "'%.*s' looks like a command, but the line is ", (int)end, s);
	if (lead) {
		ns_buf_adds(&msg, "indented by ");
		describe_indent(&msg, line, lead);
	} else {
		ns_buf_adds(&msg, "not indented");
	}
	if (session)
		ns_buf_adds(&msg, ", so it is read as output: indent it by exactly four spaces or one tab");
	else
		ns_buf_adds(&msg, ", so it is prose and never runs: indent it by four spaces or a tab");
	if (!blank)
		ns_buf_adds(&msg, ", with a space after the prompt,");
	ns_buf_adds(&msg, " to make it a command");
	if (session)
		ns_buf_adds(&msg, " (output cannot begin like a command; a '...' line can stand for it)");
	else
		ns_buf_adds(&msg, "; to keep it as prose, reword it so that it does not begin with a prompt and a command name");
	r = fail(p, (int)lead + 1, "%s", ns_buf_str(&msg));
	ns_buf_free(&msg);
	stand_in_step(p, s, namelen);
	p->header_open = false;
	return r;
}

/* A line indented by blanks that are not a session line's indentation
 * (1 to 3 spaces, or spaces and then a tab) right below a session line:
 * it is prose, so it ends the block it seems to continue. */
static int misindented_output(struct parser *p, const char *line, size_t lead)
{
	struct ns_buf how = NS_BUF_INIT, what = NS_BUF_INIT;
	int r;

	describe_indent(&how, line, lead);
	if (p->open)
		ns_buf_addf(&what, "output of the command on line %d", p->open->line);
	else
		ns_buf_adds(&what, "part of the session block above it");
	r = fail(p, (int)lead + 1, "this line goes on from the session line above but is indented by %s, so it is prose and ends the session block: indent it by four spaces or a tab to make it %s; to keep it as prose, put a blank line before it",
		 ns_buf_str(&how), ns_buf_str(&what));
	ns_buf_free(&how);
	ns_buf_free(&what);
	p->header_open = false;
	return r;
}

/* A session line such as "#mount /x" or "sh1$ls": a prompt directly
 * followed by a command name reads as output, not as a command. */
static bool prompt_without_blank(struct parser *p, const char *s, int indent)
{
	size_t at, end, namelen = strcspn(s, "#$");

	if (!looks_like_command(s, &at, &end) || at != namelen + 1)
		return false;
	fail(p, indent + (int)at + 1, "no space between the prompt '%.*s' and the command '%.*s', so the line is read as output: put a space after the prompt",
	     (int)namelen + 1, s, (int)(end - at), s + at);
	stand_in_step(p, s, namelen);
	return true;
}

/* An output line with no command open: after blank lines inside an output
 * block, the blank line is the mistake, and the block goes on. */
static bool blank_in_output(struct parser *p)
{
	int line = p->lineno;
	const struct ns_step *st;

	if (!p->blank_line)
		return false;
	st = &p->sc->steps[p->blank_step];
	p->lineno = p->blank_line;
	fail(p, 1, "blank line %s the command on line %d%s: expected output cannot contain an empty line, so line %d would have no command; delete the blank line (a '...' line can stand for empty lines the command prints)",
	     st->nexpect || st->unordered ? "inside the output of" : "between", st->line,
	     st->nexpect || st->unordered ? "" : " and its output", line);
	p->lineno = line;
	p->open = &p->sc->steps[p->blank_step];
	p->blank_line = 0;
	return true;
}

static int session_line(struct parser *p, const char *line, int indent)
{
	const char *s = line + indent;
	size_t namelen = 0, plen = prompt_len(s, &namelen);

	p->seen_session = true;
	p->header_open = false;
	if (plen) {
		struct ns_step *st = new_step(p->sc);
		st->line = p->lineno;
		st->terminal = xstrndup(s, namelen);
		st->prompt = s[namelen];
		st->col = indent + (int)plen + 1;
		p->open = st;
		p->blank_line = 0;
		add_raw(p, NS_LINE_COMMAND, line, strlen(line));
		return parse_command(p, st, s + plen, indent + (int)plen + 1);
	}
	if (prompt_without_blank(p, s, indent))
		return -1;
	if (!p->open && !blank_in_output(p))
		return fail(p, indent + 1, "output line before any command");
	if (!strcmp(s, "[unordered]") && p->open->nexpect == 0 && !p->open->unordered) {
		p->open->unordered = true;
	} else {
		add_expect(p->open, s, p->lineno);
	}
	add_raw(p, NS_LINE_EXPECT, line, strlen(line));
	return 0;
}

/* ---- lines ---------------------------------------------------------- */

static int check_bytes(struct parser *p, const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c == '\0')
			return fail_stop(p, (int)i + 1, "NUL byte in scenario file");
		if (c == '\r' && i + 1 == len)
			return fail_stop(p, (int)i + 1, "CRLF line ending; scenario files use LF (convert with dos2unix)");
		if (c < 0x20 && c != '\t')
			return fail_stop(p, (int)i + 1, "control character 0x%02x in scenario file", c);
	}
	return 0;
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t left)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	if (c == 0xe0)
		lo = 0xa0;              /* overlong 3-byte */
	else if (c == 0xed)
		hi = 0x9f;              /* surrogates */
	else if (c == 0xf0)
		lo = 0x90;              /* overlong 4-byte */
	else if (c == 0xf4)
		hi = 0x8f;              /* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	return n;
}

static bool utf8_ok(const unsigned char *s, size_t len, size_t *bad)
{
	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(s + i, len - i);

		if (!n) {
			*bad = i;
			return false;
		}
		i += n;
	}
	return true;
}

static int one_line(struct parser *p, const char *line, size_t len)
{
	size_t keylen, bad, lead, at, end;
	const char *val;
	int indent = 0;
	bool blank, session, prev_session = p->prev_session;

	if (len > NS_MAX_LINE)
		return fail_stop(p, 1, "line longer than %u bytes", NS_MAX_LINE);
	if (check_bytes(p, line, len) < 0)
		return -1;
	if (!utf8_ok((const unsigned char *)line, len, &bad))
		return fail_stop(p, (int)bad + 1, "invalid UTF-8");
	if (line[0] == '\t')
		indent = 1;
	else if (!strncmp(line, "    ", 4))
		indent = 4;
	lead = strspn(line, " \t");
	blank = !line[lead];
	session = indent && !blank;
	/* a misread line is taken as part of the block it seems to be in */
	p->prev_session = !blank;
	if (!blank && (!session || lead > (size_t)indent) &&
	    looks_like_command(line + lead, &at, &end))
		return misindented_command(p, line, lead, session);
	if (session)
		return session_line(p, line, indent);
	if (!blank && lead && prev_session)
		return misindented_output(p, line, lead);
	p->prev_session = false;
	if (blank && p->open && prev_session) {
		p->blank_line = p->lineno;
		p->blank_step = (size_t)(p->open - p->sc->steps);
	} else if (!blank) {
		p->blank_line = 0;
	}
	p->open = NULL;
	if (split_directive(line, &keylen, &val)) {
		if (p->header_open) {
			add_raw(p, NS_LINE_DIRECTIVE, line, len);
			return parse_directive(p, line, keylen, val);
		}
		if (known_directive(line, keylen) >= 0)
			return fail(p, 1, "directive '%.*s' after the header: directives go in the block at the top of the file",
				    (int)keylen, line);
	}
	if (line[strspn(line, " \t")])
		p->header_open = false;
	add_raw(p, indent ? NS_LINE_BLANK_SESSION : NS_LINE_PROSE, line, len);
	return 0;
}

/* ---- whole files ---------------------------------------------------- */

static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".scn"))
		n -= 4;
	return xstrndup(b, n);
}

/* /dev/sdb and /dev/sdb/part1 cannot both be devices: one would have to
 * be a folder of the other (a loop stand-in is a node at that path).
 * Returns the name already known that clashes with name, or NULL. */
static const char *nested(const struct ns_scenario *sc, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < sc->ndevnames; i++) {
		const char *d = sc->devnames[i];
		size_t m = strlen(d);
		if ((m < n && !strncmp(name, d, m) && name[m] == '/') ||
		    (n < m && !strncmp(d, name, n) && d[n] == '/'))
			return d;
	}
	return NULL;
}

/* The root's name, given in the header, against the names mounted. */
static int check_root_nesting(struct parser *p)
{
	const char *other = nested(p->sc, p->sc->root_dev);

	if (!other)
		return 0;
	p->lineno = 1;
	return fail(p, 1, "root: '%s' and %s cannot both be devices: one is a folder of the other",
		    p->sc->root_dev, other);
}

struct ns_scenario *ns_scenario_parse(const char *path, const char *text,
				      size_t len, struct ns_diag *diag)
{
	struct ns_scenario *sc = xcalloc(1, sizeof(*sc));
	struct parser p = { .sc = sc, .path = path, .header_open = true };
	size_t start = 0;

	diag->msg = NULL;
	diag->n = 0;
	sc->path = xstrdup(path);
	sc->name = base_name(path);
	sc->root_dev = xstrdup("/dev/sda1");
	while (start < len && !p.stop) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		char *line = xstrndup(text + start, end - start);

		p.lineno++;
		one_line(&p, line, end - start);
		free(line);
		start = end + 1;
	}
	if (p.stop)
		goto bad;
	/* a file whose commands all had errors is not also "without commands" */
	if (sc->nsteps == 0 && !p.nerr) {
		p.lineno = p.lineno ? p.lineno : 1;
		fail(&p, 1, "no commands: a scenario needs at least one indented '# command' line");
	}
	check_root_nesting(&p);
	if (p.nerr)
		goto bad;
	/* The root stand-in is device 0; the others follow in order of use. */
	{
		char **names = sc->devnames;
		size_t n = sc->ndevnames;

		sc->devnames = NULL;
		sc->ndevnames = sc->devnames_cap = 0;
		add_device(sc, sc->root_dev);
		for (size_t i = 0; i < n; i++) {
			add_device(sc, names[i]);
			free(names[i]);
		}
		free(names);
	}
	return sc;
bad:
	report(&p, diag);
	ns_scenario_free(sc);
	return NULL;
}

struct ns_scenario *ns_scenario_load(const char *path, struct ns_diag *diag)
{
	struct ns_scenario *sc;
	char *text;
	size_t len;
	int r = ns_read_file(path, 64u << 20, &text, &len);

	if (r < 0) {
		diag->msg = xasprintf("%s:1:1: error: cannot read: %s", path,
				      r == -EFBIG ? "larger than 64 MiB" : strerror(-r));
		diag->n = 1;
		return NULL;
	}
	if (len == 0) {
		free(text);
		diag->msg = xasprintf("%s:1:1: error: empty file: a scenario needs at least one command", path);
		diag->n = 1;
		return NULL;
	}
	sc = ns_scenario_parse(path, text, len, diag);
	free(text);
	return sc;
}

static void free_stage(struct ns_stage *st)
{
	if (st->def && st->def->free_args && st->args)
		st->def->free_args(st->args);
	for (size_t i = 0; i < st->argc; i++)
		free(st->argv[i]);
	free(st->argv);
	free(st->col);
}

static void free_step(struct ns_step *st)
{
	for (size_t i = 0; i < st->pipeline.n; i++)
		free_stage(&st->pipeline.stages[i]);
	free(st->pipeline.stages);
	for (size_t i = 0; i < st->nexpect; i++)
		free(st->expect[i].text);
	free(st->expect);
	free(st->terminal);
	free(st->cmdline);
}

void ns_scenario_free(struct ns_scenario *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->nsteps; i++)
		free_step(&sc->steps[i]);
	free(sc->steps);
	for (size_t i = 0; i < sc->ndevnames; i++)
		free(sc->devnames[i]);
	free(sc->devnames);
	for (size_t i = 0; i < sc->nraw; i++)
		free(sc->raw[i].text);
	free(sc->raw);
	free(sc->path);
	free(sc->name);
	free(sc->root_dev);
	free(sc->title);
	for (size_t i = 0; i < sc->nxfails; i++)
		free(sc->xfails[i].reason);
	free(sc->xfails);
	free(sc);
}

void ns_diag_free(struct ns_diag *d)
{
	free(d->msg);
	d->msg = NULL;
	d->n = 0;
}

int ns_scenario_devindex(const struct ns_scenario *sc, const char *name)
{
	for (size_t i = 0; i < sc->ndevnames; i++)
		if (!strcmp(sc->devnames[i], name))
			return (int)i;
	return -1;
}

const char *ns_scenario_first_expect(const struct ns_scenario *sc, size_t r)
{
	const struct ns_raw_line *next = r + 1 < sc->nraw ? &sc->raw[r + 1] : NULL;

	if (next && next->kind == NS_LINE_EXPECT && next->step == sc->raw[r].step)
		return next->text;
	return NULL;
}

const char *ns_scenario_block_indent(const struct ns_scenario *sc, size_t r)
{
	const char *model = ns_scenario_first_expect(sc, r);

	return (model ? model : sc->raw[r].text)[0] == '\t' ? "\t" : "    ";
}
