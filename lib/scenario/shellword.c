/* shellword.c - see shellword.h */
#include "scenario/shellword.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "commands/command.h"       /* ns_var_name_len, ns_var_assignment */

struct lexer {
	const char *s;
	size_t i;
	struct ns_split *out;
	struct ns_buf word;
	int word_start;      /* -1 while no word is open */
	bool quoted;         /* the open word has a quote or a backslash */
	int redir;           /* 0: none; 1: its file is next; 2: done */
	int fd_redir;        /* 0: none; 1: the next word is N<'s FILE */
	bool fd_word_open;   /* the open word is a descriptor's redirection */
	char **msg;
	size_t *at;
	const struct ns_shell_vars *vars; /* NULL: '$' is refused */
};

static int lex_fail(struct lexer *lx, size_t at, const char *what)
{
	*lx->msg = xstrdup(what);
	*lx->at = at;
	return -1;
}

static struct ns_words *cur_stage(struct lexer *lx)
{
	return &lx->out->stages[lx->out->n - 1];
}

static void new_stage(struct lexer *lx)
{
	void *v = lx->out->stages;

	/* the room is kept, so that the array doubles: grown by one each
	 * time, every '|' copied every stage before it (issue 28) */
	ns_grow(&v, &lx->out->cap, lx->out->n + 1, sizeof(struct ns_words));
	lx->out->stages = v;
	memset(&lx->out->stages[lx->out->n++], 0, sizeof(struct ns_words));
}

static void open_word(struct lexer *lx)
{
	if (lx->word_start < 0)
		lx->word_start = (int)lx->i;
}

static void close_word(struct lexer *lx)
{
	struct ns_words *w = cur_stage(lx);
	void *v, *c, *f;
	size_t cap, fcap;

	if (lx->word_start < 0)
		return;
	if (lx->redir == 1) {
		/* the file of the redirection, not a word of the command */
		w->redir = xstrdup(ns_buf_str(&lx->word));
		lx->redir = 2;
		ns_buf_reset(&lx->word);
		lx->word_start = -1;
		lx->quoted = false;
		return;
	}
	v = w->v;
	cap = w->cap;
	ns_grow(&v, &cap, w->n + 1, sizeof(char *));
	f = w->fd;
	fcap = w->cap;
	ns_grow(&f, &fcap, w->n + 1, sizeof(bool));
	c = w->col;
	ns_grow(&c, &w->cap, w->n + 1, sizeof(int));
	w->v = v;
	w->col = c;
	w->fd = f;
	w->fd[w->n] = lx->fd_word_open || lx->fd_redir == 1;
	if (lx->fd_redir == 1 && !lx->fd_word_open)
		lx->fd_redir = 0;
	lx->fd_word_open = false;
	w->v[w->n] = xstrdup(ns_buf_str(&lx->word));
	w->col[w->n++] = lx->word_start;
	ns_buf_reset(&lx->word);
	lx->word_start = -1;
	lx->quoted = false;
}

/* Whether the open word is a file descriptor number: "2>" redirects
 * stderr in a shell. */
static bool fd_word(const struct lexer *lx)
{
	const char *w = ns_buf_str(&lx->word);

	return lx->word_start >= 0 && !lx->quoted && *w && strspn(w, "0123456789") == strlen(w);
}

/* "N<&-" or "N>&-" (at the '<' or '>' after the open word N): close
 * descriptor N; "N<": open FILE, the next word, on it. */
static int lex_fd_redirect(struct lexer *lx)
{
	size_t at = lx->i;
	char op = lx->s[at];

	if (lx->s[at + 1] == '&' && lx->s[at + 2] == '-') {
		ns_buf_addc(&lx->word, op);
		ns_buf_adds(&lx->word, "&-");
		lx->i += 3;
	} else if (op == '<' && !(lx->s[at + 1] && strchr("&<>|", lx->s[at + 1]))) {
		ns_buf_addc(&lx->word, op);
		lx->i++;
		lx->fd_redir = 1;
	} else {
		return lex_fail(lx, (size_t)lx->word_start,
				op == '<' ? "unsupported redirection: only 'N< FILE' and 'N<&-' are supported"
					  : "redirecting a file descriptor (N>) is not supported; 'N>&-' closes one");
	}
	lx->fd_word_open = true;
	close_word(lx);
	if (lx->s[lx->i] && !strchr(" \t", lx->s[lx->i]) && lx->fd_redir != 1)
		return lex_fail(lx, lx->i, "a blank must follow a descriptor's redirection");
	return 0;
}

/* '>' or '>>', unquoted: the line's one redirection, whose file is the
 * next word and its last. */
static int lex_redirect(struct lexer *lx)
{
	struct ns_words *w = cur_stage(lx);
	size_t at = lx->i;
	bool append = lx->s[at + 1] == '>';
	char next = lx->s[at + 1 + append];

	if (fd_word(lx))
		return lex_fd_redirect(lx);
	if (lx->redir == 1)
		return lex_fail(lx, at, "missing file name after '>'");
	if (lx->redir)
		return lex_fail(lx, at, "only one redirection is supported");
	if (next == '&' || next == '|' || next == '>') {
		char what[64];
		snprintf(what, sizeof(what), "unsupported shell syntax '%.*s%c'", 1 + append, lx->s + at, next);
		return lex_fail(lx, at, what);
	}
	close_word(lx);
	w->redir_col = (int)at;
	w->append = append;
	lx->redir = 1;
	lx->i += 1 + append;
	return 0;
}

/* Inside '...': everything is literal up to the next quote. */
static int lex_single(struct lexer *lx)
{
	size_t open = lx->i++;

	while (lx->s[lx->i] && lx->s[lx->i] != '\'')
		ns_buf_addc(&lx->word, lx->s[lx->i++]);
	if (!lx->s[lx->i])
		return lex_fail(lx, open, "unterminated single quote");
	lx->i++;
	return 0;
}

/* Is the open word so far NAME=...? Its expansions are not split. */
static bool assigning(const struct lexer *lx)
{
	return lx->word.len && ns_var_assignment(ns_buf_str(&lx->word));
}

/* $NAME or ${NAME} at lx->i (the '$'), in double quotes or not. */
static int lex_dollar(struct lexer *lx, bool quoted)
{
	const char *s = lx->s + lx->i, *name, *value;
	size_t len = 0, skip;
	char *n;

	if (s[1] == '{') {
		name = s + 2;
		if (!ns_var_name_len(name, &len) || name[len] != '}')
			return lex_fail(lx, lx->i, "'${...}' with anything but a variable's name in it is not supported");
		skip = len + 3;
	} else if (ns_var_name_len(s + 1, &len)) {
		name = s + 1;
		skip = len + 1;
	} else if (s[1] == '$') {
		/* the shell's number (vars.h); /proc/$$/ is the shell's own
		 * /proc entry, the same as a command's /proc/self/ for what
		 * nstest reads there (the mount namespace, its tables) */
		name = s;
		len = 1;
		skip = 2;
		if (lx->word.len == 6 && !memcmp(lx->word.data, "/proc/", 6)) {
			ns_buf_adds(&lx->word, "self");
			lx->i += skip;
			return 0;
		}
	} else if (s[1] == '(') {
		return lex_fail(lx, lx->i, "command substitution '$(...)' is not supported");
	} else if (s[1] && strchr("?!#@*-0123456789", s[1])) {
		char what[64];
		snprintf(what, sizeof(what), "the special parameter '$%c' is not supported", s[1]);
		return lex_fail(lx, lx->i, what);
	} else {
		/* a dollar sign before nothing a shell expands is itself */
		open_word(lx);
		ns_buf_addc(&lx->word, '$');
		lx->i++;
		return 0;
	}
	value = lx->vars->get(lx->vars->ctx, name, len);
	if (!value) {
		char *what;
		n = xstrndup(name, len);
		what = xasprintf("variable '%s' is not set in this terminal: set it on a line of its own first (%s=VALUE)",
				 n, n);
		free(n);
		lex_fail(lx, lx->i, what);
		free(what);
		return -1;
	}
	if (quoted || assigning(lx)) {
		open_word(lx);
		ns_buf_adds(&lx->word, value);
	} else {
		/* field splitting at blanks; an empty value makes no word */
		for (const char *v = value; *v; v++) {
			if (*v == ' ' || *v == '\t' || *v == '\n') {
				close_word(lx);
				continue;
			}
			open_word(lx);
			ns_buf_addc(&lx->word, *v);
		}
	}
	lx->i += skip;
	return 0;
}

/* Inside "...": backslash escapes only \ " $ `; ` is refused, and $
 * too unless the line has variables (lex_dollar). */
static int lex_double(struct lexer *lx)
{
	size_t open = lx->i++;

	for (;;) {
		char c = lx->s[lx->i];
		if (!c)
			return lex_fail(lx, open, "unterminated double quote");
		if (c == '"')
			break;
		if (c == '$' && lx->vars) {
			if (lex_dollar(lx, true) < 0)
				return -1;
			continue;
		}
		if (c == '$' || c == '`')
			return lex_fail(lx, lx->i, "shell expansion is not supported");
		if (c == '\\' && strchr("\\\"$`", lx->s[lx->i + 1]) && lx->s[lx->i + 1])
			c = lx->s[++lx->i];
		ns_buf_addc(&lx->word, c);
		lx->i++;
	}
	lx->i++;
	return 0;
}

/* ';', '&&' or '||' at lx->i: the pipeline before it ends, and a new
 * one of the list begins after it. */
static int lex_list(struct lexer *lx)
{
	char c = lx->s[lx->i];
	size_t len = c == ';' ? 1 : 2;
	const char *name = c == ';' ? ";" : c == '&' ? "&&" : "||";
	char what[64];
	void *v;

	if (lx->redir == 1)
		return lex_fail(lx, lx->i, "missing file name after '>'");
	close_word(lx);
	if (cur_stage(lx)->n == 0) {
		snprintf(what, sizeof(what), "empty command before '%s'", name);
		return lex_fail(lx, lx->i, what);
	}
	if (lx->fd_redir == 1)
		return lex_fail(lx, lx->i, "missing file name after '<'");
	lx->redir = 0;
	lx->fd_redir = 0;
	new_stage(lx);
	v = lx->out->lists;
	ns_grow(&v, &lx->out->lists_cap, lx->out->nlists + 1, sizeof(*lx->out->lists));
	lx->out->lists = v;
	lx->out->lists[lx->out->nlists++] = (struct ns_split_list){ lx->out->n - 1, c, lx->i };
	lx->i += len;
	return 0;
}

static int lex_char(struct lexer *lx)
{
	char c = lx->s[lx->i];

	if (c == ' ' || c == '\t') {
		close_word(lx);
		lx->i++;
		return 0;
	}
	if (c == '#' && lx->word_start < 0) {
		lx->out->comment = lx->i;
		lx->i = strlen(lx->s);
		return 0;
	}
	if (c == '>')
		return lex_redirect(lx);
	if (c == '<' && fd_word(lx))
		return lex_fd_redirect(lx);
	if (lx->fd_redir == 1 && lx->word_start < 0 && strchr("|;&<>", c))
		return lex_fail(lx, lx->i, "missing file name after '<'");
	if (lx->redir == 2 && (c == ';' || (c == '&' && lx->s[lx->i + 1] == '&') ||
			       (c == '|' && lx->s[lx->i + 1] == '|')))
		return lex_list(lx);
	if (lx->redir == 2 && c != '#' && c != ' ' && c != '\t') {
		/* a shell would take more words; nstest keeps the file last */
		if (c == '|')
			return lex_fail(lx, lx->i, "'|' after a redirection is not supported");
		return lex_fail(lx, lx->i, "nothing may follow the file of a redirection");
	}
	if (c == ';' || (c == '&' && lx->s[lx->i + 1] == '&') ||
	    (c == '|' && lx->s[lx->i + 1] == '|'))
		return lex_list(lx);
	if (c == '|') {
		if (lx->redir == 1)
			return lex_fail(lx, lx->i, "missing file name after '>'");
		close_word(lx);
		if (cur_stage(lx)->n == 0)
			return lex_fail(lx, lx->i, "empty command before '|'");
		new_stage(lx);
		lx->i++;
		return 0;
	}
	if (c == '&')
		return lex_fail(lx, lx->i, "a command run in the background ('&') is not supported");
	if (c == '$' && lx->vars)
		return lex_dollar(lx, false);
	if (strchr("<()`$*?[{}~", c)) {
		char what[64];
		snprintf(what, sizeof(what), "unsupported shell syntax '%c'", c);
		return lex_fail(lx, lx->i, what);
	}
	open_word(lx);
	if (c == '\'' || c == '"' || c == '\\')
		lx->quoted = true;
	if (c == '\'')
		return lex_single(lx);
	if (c == '"')
		return lex_double(lx);
	if (c == '\\') {
		if (!lx->s[lx->i + 1])
			return lex_fail(lx, lx->i, "backslash at end of line");
		lx->i++;
	}
	ns_buf_addc(&lx->word, lx->s[lx->i++]);
	return 0;
}

int ns_shell_split(const char *s, struct ns_split *out, char **msg, size_t *at)
{
	return ns_shell_split_vars(s, NULL, out, msg, at);
}

int ns_shell_split_vars(const char *s, const struct ns_shell_vars *vars, struct ns_split *out,
			char **msg, size_t *at)
{
	struct lexer lx = { .s = s, .out = out, .word_start = -1,
			    .msg = msg, .at = at, .vars = vars };
	int r = 0;

	memset(out, 0, sizeof(*out));
	out->comment = strlen(s);
	new_stage(&lx);
	while (r == 0 && s[lx.i])
		r = lex_char(&lx);
	if (r == 0) {
		close_word(&lx);
		if (lx.fd_redir == 1)
			r = lex_fail(&lx, lx.i, "missing file name after '<'");
		else if (lx.redir == 1)
			r = lex_fail(&lx, (size_t)cur_stage(&lx)->redir_col, "missing file name after '>'");
		else if (cur_stage(&lx)->n == 0 && out->nlists &&
			 out->lists[out->nlists - 1].first == out->n - 1) {
			/* "A;" ends with nothing after ';', as bash allows;
			 * "A &&" and "A ||" want a command after them */
			const struct ns_split_list *l = &out->lists[out->nlists - 1];

			if (l->op == ';') {
				out->nlists--;
				free(out->stages[--out->n].v);
			} else {
				r = lex_fail(&lx, lx.i, l->op == '&' ? "empty command after '&&'"
								    : "empty command after '||'");
			}
		} else if (cur_stage(&lx)->n == 0 && out->n > 1) {
			r = lex_fail(&lx, lx.i, "empty command after '|'");
		}
	}
	ns_buf_free(&lx.word);
	if (r)
		ns_split_free(out);
	return r;
}

void ns_split_free(struct ns_split *sp)
{
	for (size_t i = 0; i < sp->n; i++) {
		for (size_t j = 0; j < sp->stages[i].n; j++)
			free(sp->stages[i].v[j]);
		free(sp->stages[i].v);
		free(sp->stages[i].col);
		free(sp->stages[i].fd);
		free(sp->stages[i].redir);
	}
	free(sp->stages);
	free(sp->lists);
	memset(sp, 0, sizeof(*sp));
}
