/* scenario_parse.c - read a transcript scenario file into a plan
 * (nstest-scenario(5)).
 *
 * The whole file is checked before anything can run: each problem is
 * reported as "file:line:col: error: what" (up to NS_DIAG_MAX of them), and
 * no scenario is returned if there is any. After an error the parser goes
 * on with the next line, keeping the block the line was in open, so that
 * one mistake does not make the lines after it wrong too. */
#include "scenario/parser.h"
#include "scenario/plan.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "base/suggest.h"
#include "commands/args.h"
#include "commands/command.h"
#include "scenario/shellword.h"
#include "scenario/vars.h"

#define NS_MAX_LINE (1u << 20)


int ns_parser_fail(struct parser *p, int col, const char *fmt, ...)
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
int ns_parser_fail_stop(struct parser *p, int col, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;
	int r;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r = ns_parser_fail(p, col, "%s", ns_buf_str(&b));
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
void ns_parser_add_listed(struct ns_buf *b, const char *name, size_t i, size_t n,
		       const char *last)
{
	if (i)
		ns_buf_adds(b, i + 1 == n ? last : ", ");
	ns_buf_adds(b, name);
}

void ns_parser_add_raw(struct parser *p, enum ns_line_kind kind, const char *text,
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

/* ---- session lines ------------------------------------------------ */

/* A prompt is an optional terminal name followed by "# " or "$ ". Returns
 * the length of the prompt including its blank, or 0. */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

static size_t name_run(const char *s)
{
	size_t k = 0;

	while (name_char(s[k]))
		k++;
	return k;
}

/* '#' or '$' at s[k] and then a blank or the end: the prompt's length,
 * or 0. */
static size_t prompt_end(const char *s, size_t k)
{
	if ((s[k] == '#' || s[k] == '$') && (s[k + 1] == ' ' || s[k + 1] == '\t' || !s[k + 1]))
		return s[k + 1] ? k + 2 : k + 1;
	return 0;
}

/* The prompt at s: its length (0 for none), and where in it the
 * terminal's name is. Three forms (nstest-scenario(5), Prompts and
 * terminals): NAME# (or NAME$, or a bare #), and the two shells print by
 * default, USER@HOST:PATH# (Debian's bash) and [USER@HOST PATH]# (Fedora's
 * and Red Hat's), whose terminal is USER@HOST whatever the PATH. */
/* A prompt: form's piece at f against s at k: literal text, {terminal}
 * (a name, '@' allowed, as in USER@HOST) or {path} (any text without
 * blanks). Returns the prompt's length, the blank after it included (the
 * end of the line does too), or 0. */
static size_t form_at(const char *f, const char *s, size_t k, size_t *namestart,
		      size_t *namelen)
{
	if (!*f) {
		if (s[k] == ' ' || s[k] == '\t')
			return k + 1;
		return s[k] ? 0 : k;
	}
	if (!strncmp(f, "{terminal}", 10) || !strncmp(f, "{path}", 6)) {
		bool term = f[1] == 't';
		size_t run = k, r;

		while (s[run] && s[run] != ' ' && s[run] != '\t' &&
		       (!term || name_char(s[run]) || s[run] == '@'))
			run++;
		/* the longest that lets the rest of the form match */
		for (; run > k; run--) {
			if (!(r = form_at(f + (term ? 10 : 6), s, run, namestart, namelen)))
				continue;
			if (term) {
				*namestart = k;
				*namelen = run - k;
			}
			return r;
		}
		return 0;
	}
	return s[k] == *f ? form_at(f + 1, s, k + 1, namestart, namelen) : 0;
}

/* The first of a file's prompt: forms that s starts with (prompt_len). */
static size_t prompt_form(const struct ns_lines *forms, const char *s, size_t *namestart,
			  size_t *namelen)
{
	for (size_t i = 0; forms && i < forms->n; i++) {
		size_t r = form_at(forms->v[i], s, 0, namestart, namelen);

		if (r)
			return r;
	}
	return 0;
}

static size_t prompt_len(const struct ns_lines *forms, const char *s, size_t *namestart,
			 size_t *namelen)
{
	size_t k = name_run(s), h, e;

	*namestart = 0;
	if ((e = prompt_form(forms, s, namestart, namelen)))
		return e;
	if (k && s[k] == '@' && (h = name_run(s + k + 1)) && s[k + 1 + h] == ':') {
		size_t at = k + 1 + h + 1;

		/* the working directory: up to the sigil before a blank */
		for (e = at; s[e] && s[e] != ' ' && s[e] != '\t'; e++)
			if ((s[e] == '#' || s[e] == '$') && prompt_end(s, e))
				break;
		if (e > at && prompt_end(s, e)) {
			*namelen = k + 1 + h;
			return prompt_end(s, e);
		}
		return 0;
	}
	if (s[0] == '[' && (k = name_run(s + 1)) && s[1 + k] == '@' &&
	    (h = name_run(s + 2 + k)) && s[2 + k + h] == ' ') {
		e = 3 + k + h;
		while (s[e] && s[e] != ']' && s[e] != ' ' && s[e] != '\t')
			e++;
		if (s[e] == ']' && e > 3 + k + h && prompt_end(s, e + 1)) {
			*namestart = 1;
			*namelen = k + 1 + h;
			return prompt_end(s, e + 1);
		}
		return 0;
	}
	if (prompt_end(s, k)) {
		*namelen = k;
		return prompt_end(s, k);
	}
	/* zsh's "host% " and a bare "% ", for rootless sessions; a name
	 * starts with a letter here, so that "100% /mnt" stays output */
	if (s[k] == '%' && (!k || isalpha((unsigned char)s[0])) &&
	    (s[k + 1] == ' ' || s[k + 1] == '\t' || !s[k + 1])) {
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

static bool lines_have(const struct ns_lines *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

/* A stand-in is one superblock, read-only or not as its first mount made
 * it; a name mounted both ways fails or not depending on whether that
 * superblock still lives (sc->ro_mixed, run/require.c). */
static void note_read_only(struct parser *p, const char *dev, bool ro)
{
	struct ns_lines *same = ro ? &p->mounted_ro : &p->mounted_rw;
	const struct ns_lines *other = ro ? &p->mounted_rw : &p->mounted_ro;

	if (ro && !strcmp(dev, p->sc->root_dev))
		p->sc->ro_mixed = true; /* the root is mounted read-write */
	if (lines_have(other, dev))
		p->sc->ro_mixed = true;
	if (!lines_have(same, dev))
		ns_lines_push(same, dev);
}

/* Column of the first word equal to s (the command's column otherwise). */
static int word_col(const struct ns_stage *st, const char *s)
{
	for (size_t i = 1; i < st->argc; i++)
		if (!strcmp(st->argv[i], s))
			return st->col[i];
	return st->col[0];
}

/* A terminal named by a command (nsenter -t NAME) must have had a prompt
 * by this line: a transcript shows no process IDs, so the name is how
 * one terminal names another. */
static int check_terminal(struct parser *p, const struct ns_stage *st, const char *word,
			  size_t len, int col, const char *hint)
{
	const char **names;
	const char *near;
	char *name = xstrndup(word, len);
	size_t n = 0;
	int r;

	names = xcalloc(p->sc->nsteps + 1, sizeof(*names));
	for (size_t i = 0; i < p->sc->nsteps; i++) {
		const char *t = p->sc->steps[i].terminal;
		size_t k = 0;

		if (!strcmp(t, name)) {
			free(names);
			free(name);
			return 0;
		}
		while (k < n && strcmp(names[k], t))
			k++;
		if (*t && k == n)
			names[n++] = t;
	}
	near = ns_closest(name, names, n);
	if (*name && strspn(name, "0123456789") == len)
		r = ns_parser_fail(p, col, "%s: %s is a process ID that no 'echo $$' showed before this line: show it in the terminal it names ('echo $$', with the number under it), or name that terminal (%s)",
				   st->argv[0], name, hint);
	else
		r = ns_parser_fail(p, col, "%s: no terminal '%s' before this line%s%s%s (%s)",
			   st->argv[0], name, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", hint);
	free(names);
	free(name);
	return r;
}

/* A handle name is a mount, a filesystem context or a mount namespace for
 * the whole file, as the command that made it says (def->makes): one
 * kind where another goes is an error here rather than a failure whose
 * errno would be the backend's guess. A name used before any command made
 * it is left to the run (EBADF). */
static const char *const kind_words[] = {
	[NS_HANDLE_MOUNT] = "a mount (made by open_tree or fsmount)",
	[NS_HANDLE_CONTEXT] = "a filesystem context (made by fsopen or fspick)",
	[NS_HANDLE_NAMESPACE] = "a mount namespace (made by open_tree --namespace)",
};

static struct ns_lines *kind_list(struct parser *p, enum ns_handle_kind k)
{
	return k == NS_HANDLE_CONTEXT ? &p->handle_contexts :
	       k == NS_HANDLE_NAMESPACE ? &p->handle_namespaces : &p->handle_mounts;
}

/* The kind name was made as, or -1 when no command made it yet. */
static int kind_of(struct parser *p, const char *name)
{
	for (int k = NS_HANDLE_MOUNT; k <= NS_HANDLE_NAMESPACE; k++)
		if (lines_have(kind_list(p, (enum ns_handle_kind)k), name))
			return k;
	return -1;
}

static const char *const kind_nouns[] = {
	[NS_HANDLE_MOUNT] = "mount",
	[NS_HANDLE_CONTEXT] = "filesystem context",
	[NS_HANDLE_NAMESPACE] = "mount namespace",
};

static int wrong_kind(struct parser *p, const struct ns_stage *st, int col, const char *name,
		      int is, enum ns_handle_kind wanted)
{
	struct ns_buf hint = NS_BUF_INIT;
	int r;

	if (wanted == NS_HANDLE_CONTEXT)
		ns_buf_adds(&hint, ": fsopen or fspick makes one");
	else if (wanted == NS_HANDLE_NAMESPACE)
		ns_buf_adds(&hint, ": open_tree --namespace makes one");
	else if (is == NS_HANDLE_CONTEXT)
		ns_buf_addf(&hint, ": fsmount %s @NAME mounts what it created", name);
	else
		ns_buf_addf(&hint, ": nsenter --mount=%s enters it", name);
	r = ns_parser_fail(p, col, "%s: '%s' is %s, not a %s%s", st->def->name, name,
			   kind_words[is], kind_nouns[wanted], ns_buf_str(&hint));
	ns_buf_free(&hint);
	return r;
}

static int check_handle_kinds(struct parser *p, const struct ns_stage *st)
{
	const struct ns_cmd_def *d = st->def;
	const char *ctx = d->needs_context ? d->needs_context(st->args) : NULL;
	const char *nsh = d->needs_namespace ? d->needs_namespace(st->args) : NULL;
	enum ns_handle_kind made_kind = NS_HANDLE_MOUNT;
	const char *made = d->makes ? d->makes(st->args, &made_kind) : NULL;
	int is;

	if (nsh) {
		is = kind_of(p, nsh);
		if (is >= 0 && is != NS_HANDLE_NAMESPACE)
			return wrong_kind(p, st, word_col(st, st->argv[0]), nsh, is, NS_HANDLE_NAMESPACE);
	}
	for (size_t i = 1; i < st->argc; i++) {
		const char *w = st->argv[i];
		struct ns_handle_ref ref;
		char name[NS_HANDLE_NAME_MAX];
		enum ns_handle_kind wanted;

		if (w == made || d->handle_any || !ns_handle_ref(w, &ref))
			continue;
		if (ref.term && check_terminal(p, st, ref.term, ref.term_len, st->col[i],
					       "a handle of another terminal is TERM:@NAME, TERM its prompt: sh2 for 'sh2# '") < 0)
			return -1;
		snprintf(name, sizeof(name), "%.*s", (int)ref.name_len, ref.name);
		wanted = w == ctx ? NS_HANDLE_CONTEXT : NS_HANDLE_MOUNT;
		is = kind_of(p, name);
		if (is >= 0 && is != (int)wanted)
			return wrong_kind(p, st, st->col[i], name, is, wanted);
	}
	is = made ? kind_of(p, made) : -1;
	if (is >= 0 && is != (int)made_kind)
		return ns_parser_fail(p, word_col(st, made), "%s: '%s' already names a %s; give the %s another name",
				      d->name, made, kind_nouns[is], kind_nouns[made_kind]);
	if (made && is < 0)
		ns_lines_push(kind_list(p, made_kind), made);
	return 0;
}

static int parse_stage(struct parser *p, struct ns_stage *st, size_t index);

/* The command a wrapper runs (unshare -m CMD): any command a program
 * could be, parsed as a stage of its own. */
static int parse_inner(struct parser *p, const struct ns_stage *outer, struct ns_stage *in)
{
	const struct ns_cmd_def *d = ns_cmd_find(in->argv[0]);

	if (d && d->builtin)
		return ns_parser_fail(p, in->col[0], "%s: '%s' is a shell builtin, not a program it could run",
				      outer->argv[0], in->argv[0]);
	if (d && d->shell == NS_SHELL_STARTS)
		return ns_parser_fail(p, in->col[0], "%s: cannot run '%s' as its command here: start a shell (%s ... sh) and type it there",
				      outer->argv[0], in->argv[0], outer->argv[0]);
	return parse_stage(p, in, 0);
}

/* ---- --name=value --------------------------------------------------------- */

/* Does def's parser take st as it is? Where not, *word is the word it
 * stopped at, and *unknown says whether it called that an unknown option.
 * Nothing is kept. */
static bool parses(const struct ns_cmd_def *def, struct ns_stage *st, size_t *word,
		   bool *unknown)
{
	struct ns_parse_err e = { NULL, 0 };
	bool ok = def->parse(st, &e) == 0;

	if (def->free_args && st->args)
		def->free_args(st->args);
	st->args = NULL;
	*word = e.word;
	*unknown = e.msg && strstr(e.msg, "unknown option");
	free(e.msg);
	return ok;
}

/* Word i of st cut at its first '=' into two: `--types=tmpfs` as
 * `--types` `tmpfs`, the value's column where it stood. */
static void cut_word(struct ns_stage *st, size_t i)
{
	char *w = st->argv[i], *eq = strchr(w, '=');
	char **argv = xcalloc(st->argc + 2, sizeof(*argv));
	int *col = xcalloc(st->argc + 1, sizeof(*col));

	memcpy(argv, st->argv, i * sizeof(*argv));
	memcpy(col, st->col, i * sizeof(*col));
	argv[i] = xstrndup(w, (size_t)(eq - w));
	argv[i + 1] = xstrdup(eq + 1);
	col[i] = st->col[i];
	col[i + 1] = st->col[i] + (int)(eq - w) + 1;
	memcpy(argv + i + 2, st->argv + i + 1, (st->argc - i - 1) * sizeof(*argv));
	memcpy(col + i + 2, st->col + i + 1, (st->argc - i - 1) * sizeof(*col));
	free(w);
	free(st->argv);
	free(st->col);
	st->argv = argv;
	st->col = col;
	st->argc++;
}

/* getopt_long(3) reads `--name=value` as `--name value` for every long
 * option that requires a value: where a command's parser calls such a
 * word an unknown option and takes it cut in two, it is cut (a top-level
 * stage only: a wrapper's command shares the wrapper's words). A parser
 * that knows the word's form and refuses it for another reason keeps it
 * whole: an option whose value is optional (nsenter --mount=FILE) means
 * something else without the '='. */
static void cut_long_values(const struct ns_cmd_def *def, struct ns_stage *st)
{
	size_t at;
	bool unknown;

	for (int rounds = 0; rounds < 16 && !parses(def, st, &at, &unknown); rounds++) {
		struct ns_stage trial = *st;
		size_t later;
		bool better, again;

		if (!unknown || at == 0 || at >= st->argc || strncmp(st->argv[at], "--", 2) ||
		    !strchr(st->argv[at] + 2, '=') || st->argv[at][2] == '=')
			return;
		trial.argv = xcalloc(st->argc + 1, sizeof(*trial.argv));
		trial.col = xcalloc(st->argc + 1, sizeof(*trial.col));
		for (size_t i = 0; i < st->argc; i++)
			trial.argv[i] = xstrdup(st->argv[i]);
		memcpy(trial.col, st->col, st->argc * sizeof(*trial.col));
		cut_word(&trial, at);
		better = parses(def, &trial, &later, &again) || later > at + 1;
		for (size_t i = 0; i < trial.argc; i++)
			free(trial.argv[i]);
		free(trial.argv);
		free(trial.col);
		if (!better)
			return;
		cut_word(st, at);
	}
}

static bool has_long_value(const struct ns_stage *st)
{
	for (size_t i = 1; i < st->argc; i++)
		if (!strncmp(st->argv[i], "--", 2) && strchr(st->argv[i], '='))
			return true;
	return false;
}

/* ---- sudo ----------------------------------------------------------------- */

/* `sudo COMMAND ...` is COMMAND: every terminal of nstest is root in its
 * sandbox, as sudo would make it. Its word (and a "--" after it) is
 * dropped before the stage is read; an option of sudo's, or a root shell
 * (sudo -i, sudo su, sudo sh), is refused with the reason. */
static int drop_sudo(struct parser *p, struct ns_split *sp, int base)
{
	static const char *const shells[] = { "su", "sh", "bash", "-i", "-s" };

	for (size_t s = 0; s < sp->n; s++) {
		struct ns_words *w = &sp->stages[s];
		size_t k = 1;

		if (!w->n || strcmp(w->v[0], "sudo"))
			continue;
		if (k < w->n && !strcmp(w->v[k], "--"))
			k++;
		if (k == w->n)
			return ns_parser_fail(p, base + w->col[0], "sudo: a command is needed: 'sudo COMMAND'");
		for (size_t i = 0; i < NS_ARRAY_SIZE(shells); i++)
			if (!strcmp(w->v[k], shells[i]))
				return ns_parser_fail(p, base + w->col[k],
						      "sudo: a root shell ('sudo %s') is not supported: nstest's terminals are root already, so write its commands at the same prompt",
						      w->v[k]);
		if (ns_cmd_find(w->v[k]) && ns_cmd_find(w->v[k])->builtin)
			return ns_parser_fail(p, base + w->col[k],
					      "sudo: '%s' is a shell builtin, not a program it could run", w->v[k]);
		if (w->v[k][0] == '-')
			return ns_parser_fail(p, base + w->col[k],
					      "sudo: option '%s' is not supported: nstest runs every command as root in its sandbox; write 'sudo COMMAND', or the command alone",
					      w->v[k]);
		for (size_t i = 0; i < k; i++)
			free(w->v[i]);
		memmove(w->v, w->v + k, (w->n - k) * sizeof(*w->v));
		memmove(w->col, w->col + k, (w->n - k) * sizeof(*w->col));
		if (w->fd)
			memmove(w->fd, w->fd + k, (w->n - k) * sizeof(*w->fd));
		w->n -= k;
	}
	return 0;
}

static int parse_stage_in(struct parser *p, struct ns_stage *st, size_t index, bool top);

/* A process ID where a command takes a terminal (nsenter -t 12345): the
 * terminal whose `echo $$` showed it, or whose $$ it is (vars.h), by
 * that terminal's name; any other number is left for the command's own
 * message. */
static void pid_targets(struct parser *p, struct ns_stage *st)
{
	const char *opt = st->def->terminal_option;
	size_t olen = opt ? strlen(opt) : 0;

	for (size_t i = 1; opt && i < st->argc; i++) {
		char *w = st->argv[i], *num = NULL;
		const char *term;
		size_t keep = 0;

		if ((!strcmp(w, opt) || !strcmp(w, "--target")) && i + 1 < st->argc) {
			num = st->argv[++i];
		} else if (!strncmp(w, "--target=", 9)) {
			keep = 9;
		} else if (!strncmp(w, opt, olen) && w[olen]) {
			keep = olen;
		}
		if (!num)
			num = w + keep;
		if (!*num || strspn(num, "0123456789") != strlen(num) ||
		    !(term = ns_vars_pid_terminal(p->vars, num)))
			continue;
		if (num == w + keep) {
			char *n = xasprintf("%.*s%s", (int)keep, w, term);

			free(st->argv[i]);
			st->argv[i] = n;
		} else {
			free(st->argv[i]);
			st->argv[i] = xstrdup(term);
		}
	}
}

static int parse_stage(struct parser *p, struct ns_stage *st, size_t index)
{
	return parse_stage_in(p, st, index, false);
}

static int parse_stage_in(struct parser *p, struct ns_stage *st, size_t index, bool top)
{
	struct ns_parse_err e = { NULL, 0 };
	const char *name = st->argv[0];

	st->def = ns_cmd_find(name);
	if (!st->def) {
		/* any command may be meant first; after a pipe, only a filter */
		const char *near = ns_cmd_closest(name, index > 0);

		return ns_parser_fail(p, st->col[0], "unknown %s '%s'%s%s%s", index ? "filter" : "command",
			    name, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	}
	if (index > 0 && !st->def->filter)
		return ns_parser_fail(p, st->col[0], "'%s' cannot read from a pipe", name);
	if (top && has_long_value(st)) {
		cut_long_values(st->def, st);
		name = st->argv[0];
	}
	if (p->vars)
		pid_targets(p, st);
	if (st->def->parse(st, &e) < 0) {
		size_t w = e.word < st->argc ? e.word : 0;
		int r = ns_parser_fail(p, st->col[w], "%s", e.msg);
		free(e.msg);
		return r;
	}
	if (!st->def->filter && !st->def->handles && !st->def->text_words)
		for (size_t i = 1; i < st->argc; i++)
			if (ns_is_handle_path(st->argv[i], NULL))
				return ns_parser_fail(p, st->col[i], "%s: '%s' names a place through an open_tree handle, which %s does not take (%s do)",
						      name, st->argv[i], name, ns_cmd_handle_takers());
	if ((st->def->handles || st->def->needs_namespace) && check_handle_kinds(p, st) < 0)
		return -1;
	if (st->def->filter) {
		size_t file = st->def->file ? st->def->file(st->args) : 0;

		if (index == 0 && !file)
			return ns_parser_fail(p, st->col[0], "'%s' is a filter: it reads the output of a command through '|', or a FILE operand", name);
		if (index > 0 && file)
			return ns_parser_fail(p, st->col[file], "'%s' after a pipe reads the pipe: a FILE operand ('%s') would make it ignore it", name, st->argv[file]);
	}
	if (st->def->device) {
		bool ro = false;
		const char *dev = st->def->device(st->args, &ro);
		if (dev && !ns_parser_is_devname(dev))
			return ns_parser_fail(p, word_col(st, dev), "device name '%s' is not a path like /dev/sdb6", dev);
		if (dev && ns_parser_devname_too_long(dev))
			return ns_parser_fail(p, word_col(st, dev), "device name '%.40s...' is %zu characters long: a mount's source is at most %d (longer, mount(2) and fsconfig(2) say EINVAL)",
					      dev, strlen(dev), NS_DEVNAME_MAX);
		if (dev && nested(p->sc, dev))
			return ns_parser_fail(p, word_col(st, dev), "device name '%s' and %s cannot both be devices: one is a folder of the other",
				    dev, nested(p->sc, dev));
		if (dev) {
			add_device(p->sc, dev);
			note_read_only(p, dev, ro);
		}
	}
	if (st->def->one_way && st->def->one_way(st->args))
		p->sc->one_way = true;
	ns_cmd_set_add(&p->sc->commands, st->def->id);
	if (st->def->terminal && st->def->terminal(st->args)) {
		char *hint = xasprintf("%s names a terminal by its prompt: sh1 for 'sh1# '",
				       st->def->terminal_option);
		int r = check_terminal(p, st, st->def->terminal(st->args),
				       strlen(st->def->terminal(st->args)),
				       word_col(st, st->def->terminal(st->args)), hint);

		free(hint);
		if (r < 0)
			return -1;
	}
	if (st->def->inner && st->def->inner(st->args))
		return parse_inner(p, st, st->def->inner(st->args));
	return 0;
}

/* A filter that starts a pipeline reads its FILE operand: put `cat FILE`
 * before it, so that the backends read the file as they read it for
 * cat, and the judge sees the output as cat's piped into the filter (a
 * mountinfo table that grep selects from is judged as one). A FILE cat
 * refuses is named as the filter's. */
static int read_file_first(struct parser *p, struct ns_pipeline *pl)
{
	struct ns_stage *f = &pl->stages[0], *v, *cat;
	size_t file = f->def->file(f->args);
	struct ns_parse_err e = { NULL, 0 };

	v = xcalloc(pl->n + 1, sizeof(*v));
	memcpy(v + 1, pl->stages, pl->n * sizeof(*v));
	free(pl->stages);
	pl->stages = v;
	pl->n++;
	f = &v[1];
	cat = &v[0];
	cat->argc = 2;
	cat->argv = xcalloc(3, sizeof(char *));
	cat->argv[0] = xstrdup("cat");
	cat->argv[1] = xstrdup(f->argv[file]);
	cat->col = xcalloc(2, sizeof(int));
	cat->col[0] = f->col[0];
	cat->col[1] = f->col[file];
	cat->file_of_next = true;
	cat->def = ns_cmd_find("cat");
	if (cat->def->parse(cat, &e) < 0) {
		const char *msg = strncmp(e.msg, "cat: ", 5) ? e.msg : e.msg + 5;
		int r = ns_parser_fail(p, cat->col[1], "%s: %s", f->argv[0], msg);

		free(e.msg);
		return r;
	}
	ns_cmd_set_add(&p->sc->commands, cat->def->id);
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
	st->redirect = w->redir;
	st->append = w->append;
	w->redir = NULL;
}

/* A redirection is only echo's: `echo TEXT > FILE` (or >>), alone. */
/* The number of stages of the pipeline that stage i of sp belongs to. */
static size_t pipeline_len(const struct ns_split *sp, size_t i)
{
	size_t first = 0, end = sp->n;

	for (size_t k = 0; k < sp->nlists; k++) {
		if (sp->lists[k].first <= i)
			first = sp->lists[k].first;
		else if (sp->lists[k].first < end)
			end = sp->lists[k].first;
	}
	return end - first;
}

static int check_redirect(struct parser *p, const struct ns_split *sp, int base)
{
	for (size_t i = 0; i < sp->n; i++) {
		const struct ns_words *w = &sp->stages[i];

		if (!w->redir)
			continue;
		if (pipeline_len(sp, i) > 1 || !w->n || strcmp(w->v[0], "echo"))
			return ns_parser_fail(p, base + w->redir_col,
					      "redirection '%s' is only supported as 'echo TEXT %s FILE', alone on its line",
					      w->append ? ">>" : ">", w->append ? ">>" : ">");
	}
	return 0;
}

/* A descriptor's redirection (N< FILE, N<&-) is only exec's, whose words
 * are nothing else: nstest's exec runs no command. */
static int check_fd_redirect(struct parser *p, const struct ns_split *sp, int base)
{
	for (size_t i = 0; i < sp->n; i++) {
		const struct ns_words *w = &sp->stages[i];
		const struct ns_cmd_def *d = w->n ? ns_cmd_find(w->v[0]) : NULL;

		for (size_t k = 1; k < w->n; k++) {
			if (d && d->fd_redirs && !w->fd[k])
				return ns_parser_fail(p, base + w->col[k],
						      "%s: '%s' is no redirection: nstest's %s only opens and closes descriptors (%s N< FILE, %s N<&-) and runs no command",
						      d->name, w->v[k], d->name, d->name, d->name);
			if (w->fd[k] && !(d && d->fd_redirs))
				return ns_parser_fail(p, base + w->col[k],
						      "redirection '%s' is only supported as 'exec N< FILE' or 'exec N<&-', alone on its line",
						      w->v[k]);
		}
		if (d && d->fd_redirs && sp->n > 1)
			return ns_parser_fail(p, base + w->col[0], "%s: not supported in a pipeline", d->name);
	}
	return 0;
}

/* A command whose output goes into filters writes to a pipe, not a
 * terminal (`unshare -m ls /d | wc -l`: the ls unshare runs). */
static void tell_piped(const struct ns_pipeline *pl)
{
	const struct ns_stage *cmd;

	if (pl->n < 2)
		return;
	cmd = ns_stage_cmd(&pl->stages[0]);
	if (cmd->def && cmd->def->piped && cmd->args)
		cmd->def->piped(cmd->args);
}

static int parse_command(struct parser *p, struct ns_step *step,
			 const char *text, int base)
{
	struct ns_split sp;
	char *msg = NULL;
	size_t at = 0;
	size_t end;

	struct ns_vars_lookup lk = { p->vars, step->terminal };
	struct ns_shell_vars vars = { ns_vars_get, &lk };

	if (ns_shell_split_vars(text, p->vars ? &vars : NULL, &sp, &msg, &at) < 0) {
		int r = ns_parser_fail(p, base + (int)at, "%s", msg);
		free(msg);
		return r;
	}
	end = sp.comment;
	while (end && (text[end - 1] == ' ' || text[end - 1] == '\t'))
		end--;
	step->cmdline = xstrndup(text, end);
	if (sp.n == 1 && sp.stages[0].n == 0) {
		ns_split_free(&sp);
		return ns_parser_fail(p, base, "empty command after the prompt");
	}
	if (drop_sudo(p, &sp, base) < 0 || check_redirect(p, &sp, base) < 0 ||
	    check_fd_redirect(p, &sp, base) < 0) {
		ns_split_free(&sp);
		return -1;
	}
	step->nmore = sp.nlists;
	step->more = sp.nlists ? xcalloc(sp.nlists, sizeof(*step->more)) : NULL;
	for (size_t k = 0; k <= sp.nlists; k++) {
		size_t first = k ? sp.lists[k - 1].first : 0;
		size_t last = k < sp.nlists ? sp.lists[k].first : sp.n;
		struct ns_pipeline *pl = k ? &step->more[k - 1].pipeline : &step->pipeline;

		if (k)
			step->more[k - 1].op = sp.lists[k - 1].op == ';' ? NS_LIST_ALWAYS :
					       sp.lists[k - 1].op == '&' ? NS_LIST_IF_OK : NS_LIST_IF_FAILED;
		pl->stages = xcalloc(last - first, sizeof(struct ns_stage));
		pl->n = last - first;
		for (size_t i = first; i < last; i++)
			take_words(&pl->stages[i - first], &sp.stages[i], base);
	}
	ns_split_free(&sp);
	for (size_t k = 0; k <= step->nmore; k++) {
		struct ns_pipeline *pl = k ? &step->more[k - 1].pipeline : &step->pipeline;

		for (size_t i = 0; i < pl->n; i++)
			if (parse_stage_in(p, &pl->stages[i], i, true) < 0)
				return -1;
		if (pl->stages[0].def->filter && read_file_first(p, pl) < 0)
			return -1;
		tell_piped(pl);
		if (step->nmore && pl->stages[0].def->shell != NS_SHELL_KEEPS)
			return ns_parser_fail(p, pl->stages[0].col[0],
					      "'%s' in a list ('&&', '||', ';') is not supported: it starts or ends a shell, so put it on a line of its own",
					      pl->stages[0].argv[0]);
		if (step->nmore && pl->stages[0].def->id == NS_CMD_ECHO && pl->n == 1) {
			struct ns_match_shape sh;

			/* a list's output is matched as records and text, so
			 * a shell's number in it could not be renamed */
			if (pl->stages[0].def->shape(pl->stages[0].args, &sh))
				return ns_parser_fail(p, pl->stages[0].col[0],
						      "'echo $$' in a list ('&&', '||', ';') is not supported: the shell's process ID it prints is matched only on a line of its own");
		}
	}
	return 0;
}

struct ns_step *ns_parser_new_step(struct ns_scenario *sc)
{
	void *v = sc->steps;

	ns_grow(&v, &sc->steps_cap, sc->nsteps + 1, sizeof(struct ns_step));
	sc->steps = v;
	memset(&sc->steps[sc->nsteps], 0, sizeof(struct ns_step));
	return &sc->steps[sc->nsteps++];
}

size_t ns_scenario_prompt(const char *s, size_t *namestart, size_t *namelen)
{
	return prompt_len(NULL, s, namestart, namelen);
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

/* Whether an earlier step was taken at the terminal named name. */
static bool terminal_seen(const struct ns_scenario *sc, const char *name)
{
	for (size_t i = 0; i < sc->nsteps; i++)
		if (!strcmp(sc->steps[i].terminal, name))
			return true;
	return false;
}

/* The terminal a bare prompt ("# ", "$ ") stands for. Dash, Debian's sh,
 * prompts "# " whatever the shell that started it showed, so a bare
 * prompt right after a step that starts an inner shell at a named
 * terminal, with no output under it, is that shell: the same terminal one
 * level deeper, until its exit (and an inner shell it starts in turn, which
 * prompts the same). A bare prompt seen before is a terminal of its own, as
 * it always was. Returns the terminal's name, owned by the caller. */
static char *bare_prompt_terminal(struct parser *p)
{
	const struct ns_step *prev = p->sc->nsteps ? &p->sc->steps[p->sc->nsteps - 1] : NULL;
	const struct ns_stage *first = prev && prev->pipeline.n ? &prev->pipeline.stages[0] : NULL;

	if (!p->bare_of && first && first->def && prev->terminal[0] && !prev->nexpect &&
	    !prev->nmore && ns_stage_starts_shell(first) && !terminal_seen(p->sc, "")) {
		p->bare_of = xstrdup(prev->terminal);
		p->bare_depth = 1;
	}
	return xstrdup(p->bare_of ? p->bare_of : "");
}

/* After a step at a bare prompt that stands for an inner shell: a shell
 * it starts is one level deeper, an exit one level less. */
static void bare_prompt_after(struct parser *p, const struct ns_step *st)
{
	const struct ns_stage *first = st->pipeline.n ? &st->pipeline.stages[0] : NULL;

	if (!p->bare_of || !first || !first->def || st->nmore)
		return;
	if (ns_stage_ends_shell(first) && --p->bare_depth == 0) {
		free(p->bare_of);
		p->bare_of = NULL;
	} else if (ns_stage_starts_shell(first) && !st->nexpect) {
		p->bare_depth++;
	}
}

static int session_line(struct parser *p, const char *line, int indent)
{
	const char *s = line + indent;
	size_t namestart = 0, namelen = 0, plen = prompt_len(&p->sc->prompts, s, &namestart, &namelen);

	p->header_open = false;
	if (plen) {
		struct ns_step *st;

		/* the steps before this one are whole, their output included:
		 * what they did to their terminals' variables and shells */
		for (; p->vars && p->vars_done < p->sc->nsteps; p->vars_done++)
			ns_vars_after_step(p->vars, &p->sc->steps[p->vars_done]);
		/* a step at a bare prompt that stands for an inner shell:
		 * known once its output is read, at the next prompt (prose
		 * may stand between them) */
		if (p->sc->nsteps && p->sc->steps[p->sc->nsteps - 1].bare_inner)
			bare_prompt_after(p, &p->sc->steps[p->sc->nsteps - 1]);
		st = ns_parser_new_step(p->sc);
		st->line = p->lineno;
		if (namelen) {
			st->terminal = xstrndup(s + namestart, namelen);
		} else {
			p->sc->nsteps--; /* decided from the steps before this one */
			st->terminal = bare_prompt_terminal(p);
			p->sc->nsteps++;
			st->bare_inner = st->terminal[0] != '\0';
		}
		/* the '#' or '$' that ends it */
		st->prompt = s[plen - 1] == ' ' || s[plen - 1] == '\t' ? s[plen - 2] : s[plen - 1];
		st->col = indent + (int)plen + 1;
		p->open = st;
		p->blank_line = 0;
		ns_parser_add_raw(p, NS_LINE_COMMAND, line, strlen(line));
		return parse_command(p, st, s + plen, indent + (int)plen + 1);
	}
	if (ns_misread_prompt(p, s, indent))
		return -1;
	if (!p->open && !ns_misread_blank(p))
		return ns_parser_fail(p, indent + 1, "output line before any command");
	if (!strcmp(s, "[unordered]") && p->open->nexpect == 0 && !p->open->unordered) {
		p->open->unordered = true;
	} else {
		add_expect(p->open, s, p->lineno);
	}
	ns_parser_add_raw(p, NS_LINE_EXPECT, line, strlen(line));
	return 0;
}

/* ---- lines ---------------------------------------------------------- */

static int check_bytes(struct parser *p, const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c == '\0')
			return ns_parser_fail_stop(p, (int)i + 1, "NUL byte in scenario file");
		if (c == '\r' && i + 1 == len)
			return ns_parser_fail_stop(p, (int)i + 1, "CRLF line ending; scenario files use LF (convert with dos2unix)");
		if (c < 0x20 && c != '\t')
			return ns_parser_fail_stop(p, (int)i + 1, "control character 0x%02x in scenario file", c);
	}
	return 0;
}

static bool utf8_ok(const unsigned char *s, size_t len, size_t *bad)
{
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = ns_utf8_char((const char *)s + i, &cp);

		if (!n) {
			*bad = i;
			return false;
		}
		i += n;
	}
	return true;
}

/* C1 control characters (U+0080 to U+009F) and DEL, in a line of
 * well-formed UTF-8: control characters as much as those below 0x20. */
static int check_controls(struct parser *p, const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i], d = (unsigned char)line[i + 1];

		if (c == 0x7f)
			return ns_parser_fail_stop(p, (int)i + 1, "control character 0x7f (DEL) in scenario file");
		if (c == 0xc2 && d >= 0x80 && d <= 0x9f)
			return ns_parser_fail_stop(p, (int)i + 1, "control character U+%04X (a C1 control) in scenario file", d);
	}
	return 0;
}

static int read_line(struct parser *p, const char *line, size_t len);

static int one_line(struct parser *p, const char *line, size_t len)
{
	size_t bad;
	char *fixed;

	if (len > NS_MAX_LINE)
		return ns_parser_fail_stop(p, 1, "line longer than %u bytes", NS_MAX_LINE);
	if (check_bytes(p, line, len) < 0)
		return -1;
	if (!utf8_ok((const unsigned char *)line, len, &bad))
		return ns_parser_fail_stop(p, (int)bad + 1, "invalid UTF-8");
	if (check_controls(p, line, len) < 0)
		return -1;
	if (ns_invisible_check(p, line, &fixed) < 0) {
		/* read on as it would be once fixed, for the errors after it */
		read_line(p, fixed, strlen(fixed));
		free(fixed);
		return -1;
	}
	return read_line(p, line, len);
}

/* One line of text, known to be clean: what it is, and its part. */
static int read_line(struct parser *p, const char *line, size_t len)
{
	size_t keylen, lead, at, end;
	const char *val;
	int indent = 0;
	bool blank, session, prev_session = p->prev_session;

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
	    ns_misread_looks_like_command(line + lead, &at, &end))
		return ns_misread_command(p, line, lead, session);
	if (session)
		return session_line(p, line, indent);
	if (!blank && lead && prev_session)
		return ns_misread_output(p, line, lead);
	p->prev_session = false;
	if (blank && p->open && prev_session) {
		p->blank_line = p->lineno;
		p->blank_step = (size_t)(p->open - p->sc->steps);
	} else if (!blank) {
		p->blank_line = 0;
	}
	p->open = NULL;
	if (ns_parser_split_directive(line, &keylen, &val)) {
		if (p->header_open) {
			ns_parser_add_raw(p, NS_LINE_DIRECTIVE, line, len);
			return ns_parser_directive(p, line, keylen, val);
		}
		if (ns_parser_known_directive(line, keylen) >= 0)
			return ns_parser_fail(p, 1, "directive '%.*s' after the header: directives go in the block at the top of the file",
				    (int)keylen, line);
	}
	if (line[strspn(line, " \t")])
		p->header_open = false;
	ns_parser_add_raw(p, indent ? NS_LINE_BLANK_SESSION : NS_LINE_PROSE, line, len);
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
	return ns_parser_fail(p, 1, "root: '%s' and %s cannot both be devices: one is a folder of the other",
		    p->sc->root_dev, other);
}

struct ns_scenario *ns_scenario_parse(const char *path, const char *text,
				      size_t len, struct ns_diag *diag)
{
	struct ns_scenario *sc = xcalloc(1, sizeof(*sc));
	struct parser p = { .sc = sc, .path = path, .header_open = true, .vars = ns_vars_new() };
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
		ns_parser_fail(&p, 1, "no commands: a scenario needs at least one indented '# command' line");
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
	ns_lines_free(&p.mounted_ro);
	ns_lines_free(&p.mounted_rw);
	ns_lines_free(&p.handle_mounts);
	ns_lines_free(&p.handle_contexts);
	ns_lines_free(&p.handle_namespaces);
	ns_vars_free(p.vars);
	free(p.bare_of);
	return sc;
bad:
	ns_vars_free(p.vars);
	free(p.bare_of);
	ns_lines_free(&p.mounted_ro);
	ns_lines_free(&p.mounted_rw);
	ns_lines_free(&p.handle_mounts);
	ns_lines_free(&p.handle_contexts);
	ns_lines_free(&p.handle_namespaces);
	report(&p, diag);
	ns_scenario_free(sc);
	return NULL;
}

/* path with its control characters (C0, DEL, C1) and the bytes that are
 * not UTF-8 written as \xHH, or NULL when it has none. */
static char *escaped_name(const char *path)
{
	struct ns_buf b = NS_BUF_INIT;
	bool bad = false;

	for (size_t i = 0; path[i];) {
		const unsigned char *s = (const unsigned char *)path + i;
		uint32_t cp;
		size_t n = ns_utf8_char(path + i, &cp);

		if (n == 0 || s[0] < 0x20 || s[0] == 0x7f || (s[0] == 0xc2 && s[1] <= 0x9f)) {
			n = n ? n : 1;
			for (size_t k = 0; k < n; k++)
				ns_buf_addf(&b, "\\x%02x", s[k]);
			bad = true;
		} else {
			ns_buf_add(&b, s, n);
		}
		i += n;
	}
	if (bad)
		return ns_buf_detach(&b);
	ns_buf_free(&b);
	return NULL;
}

struct ns_scenario *ns_scenario_load(const char *path, struct ns_diag *diag)
{
	struct ns_scenario *sc;
	char *text, *shown = escaped_name(path);
	size_t len;
	int r;

	/* the name would reach terminals and reports as it is */
	if (shown) {
		diag->msg = xasprintf("%s:1:1: error: the file's name holds a control character or bytes that are not UTF-8 (shown here as \\xHH), which reports and terminals would print as they are; rename the file",
				      shown);
		diag->n = 1;
		free(shown);
		return NULL;
	}
	r = ns_read_file(path, 64u << 20, &text, &len);
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
	free(st->redirect);
}

static void free_step(struct ns_step *st)
{
	for (size_t i = 0; i < st->pipeline.n; i++)
		free_stage(&st->pipeline.stages[i]);
	free(st->pipeline.stages);
	for (size_t k = 0; k < st->nmore; k++) {
		for (size_t i = 0; i < st->more[k].pipeline.n; i++)
			free_stage(&st->more[k].pipeline.stages[i]);
		free(st->more[k].pipeline.stages);
	}
	free(st->more);
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
		if (!sc->steps[i].borrowed)
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
	ns_lines_free(&sc->prompts);
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

/* ---- one command line into a plan (scenario/plan.h) ------------------ */

int ns_plan_add_command(struct ns_scenario *plan, const char *terminal, char prompt,
			int line, const char *cmdline, struct ns_diag *diag)
{
	struct parser p = { .sc = plan, .path = plan->path, .lineno = line };
	/* where the command starts on "    NAME# COMMAND", 1-based */
	int col = 4 + (int)strlen(terminal) + 2 + 1;
	struct ns_step *st = ns_parser_new_step(plan);
	int r = 0;

	diag->msg = NULL;
	diag->n = 0;
	st->line = line;
	st->col = col;
	st->terminal = xstrdup(terminal);
	st->prompt = prompt;
	if (parse_command(&p, st, cmdline, col) < 0 || p.nerr) {
		report(&p, diag);
		free_step(st);
		plan->nsteps--;
		r = -1;
	}
	ns_lines_free(&p.mounted_ro);
	ns_lines_free(&p.mounted_rw);
	ns_lines_free(&p.handle_mounts);
	ns_lines_free(&p.handle_contexts);
	ns_lines_free(&p.handle_namespaces);
	return r;
}
