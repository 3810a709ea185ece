/* import.c - see import.h.
 *
 * The log is read as a terminal shows it, line by line. A line that
 * starts with a prompt nstest reads (scenario.h, ns_scenario_prompt)
 * is a command; the lines after it, up to the next prompt, are its
 * output; anything before the first prompt, and script(1)'s own
 * "Script started/done" lines, are prose. The scenario is then parsed
 * as a whole, and a command it refuses becomes prose that says why,
 * with its output, until the file parses: nothing typed is lost. */
#include "scenario/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/hide.h"
#include "scenario/scenario.h"

#define IMPORT_ROUNDS 64      /* commands turned to prose, one a round at most */

char *ns_import_clean_line(const char *s, size_t len)
{
	struct ns_buf b = NS_BUF_INIT;
	size_t cur = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0x1b && i + 1 < len) {
			i++;
			if (s[i] == '[') {
				/* CSI: parameters, then a final byte @ to ~. Line
				 * editors move with C and D and erase with K. */
				size_t n = 0;

				while (i + 1 < len && !(s[i + 1] >= 0x40 && s[i + 1] <= 0x7e)) {
					if (s[i + 1] >= '0' && s[i + 1] <= '9' && n < 10000)
						n = n * 10 + (size_t)(s[i + 1] - '0');
					i++;
				}
				i++;
				if (i < len && s[i] == 'K' && n == 0 && cur < b.len)
					ns_buf_truncate(&b, cur);
				else if (i < len && s[i] == 'D')
					cur -= cur < (n ? n : 1) ? cur : (n ? n : 1);
				else if (i < len && s[i] == 'C')
					for (size_t k = 0; k < (n ? n : 1); k++)
						if (++cur > b.len)
							ns_buf_addc(&b, ' ');
			} else if (s[i] == ']') {
				/* OSC (a window title): to BEL or ESC \ */
				while (i + 1 < len && s[i + 1] != '\a' &&
				       !(s[i + 1] == 0x1b && i + 2 < len && s[i + 2] == '\\'))
					i++;
				i += i + 1 < len && s[i + 1] == 0x1b ? 2 : 1;
			}
			continue;
		}
		if (c == '\r') {
			cur = 0;
			continue;
		}
		if (c == '\b') {
			if (cur)
				cur--;
			continue;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			continue;
		if (cur < b.len) {
			b.data[cur++] = (char)c;
		} else {
			ns_buf_addc(&b, (char)c);
			cur = b.len;
		}
	}
	return ns_buf_detach(&b);
}

/* A line of the log, as the scenario will have it. */
struct item {
	enum { PROSE, COMMAND, OUTPUT, DROPPED } kind;
	char *text;          /* the cleaned line; a command's with its prompt */
	int line;            /* in the log */
	size_t cmd;          /* OUTPUT: its command's item */
	bool prose;          /* COMMAND, OUTPUT: turned to prose */
	char *why;           /* COMMAND turned to prose: the parser's word */
	size_t plen;         /* COMMAND: its prompt's length */
	int at;              /* COMMAND: its line in the last scenario written */
};

struct items {
	struct item *v;
	size_t n, cap;
	unsigned columns;     /* the terminal's width, or 0: `columns:` */
};

static void add(struct items *it, int kind, char *text, int line, size_t cmd)
{
	void *p = it->v;

	ns_grow(&p, &it->cap, it->n + 1, sizeof(*it->v));
	it->v = p;
	it->v[it->n++] = (struct item){ kind, text, line, cmd, false, NULL, 0, 0 };
}

/* Does the command set the prompt (PS1=..., export PS1=...)? Then the
 * next new prompt is this shell's, with another look. */
static bool sets_prompt(const char *cmd)
{
	if (!strncmp(cmd, "export ", 7))
		cmd += 7 + strspn(cmd + 7, " ");
	return !strncmp(cmd, "PS1=", 4);
}

/* Read the log into items: prompts and their commands, output, prose. */
static void read_log(const char *text, size_t len, struct items *it)
{
	size_t start = 0, open = SIZE_MAX;
	int line = 0;
	char *alias_from = NULL, *alias_to = NULL; /* a prompt PS1 changed */
	bool ps1 = false;

	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		char *s = ns_import_clean_line(text + start, end - start);
		size_t ns = 0, nl2 = 0, plen = ns_scenario_prompt(s, &ns, &nl2);

		line++;
		start = end + 1;
		if (!strncmp(s, "Script started on ", 18) || !strncmp(s, "Script done on ", 15)) {
			const char *c = strstr(s, "COLUMNS=\"");

			/* script(1) names the terminal's width: findmnt fitted
			 * its tables to it (run/narrow.h) */
			if (c && c > s && (c[-1] == ' ' || c[-1] == '[') && !it->columns)
				it->columns = (unsigned)strtoul(c + 9, NULL, 10);
			add(it, PROSE, s, line, 0);
			open = SIZE_MAX;
			continue;
		}
		if (plen) {
			char *name = xstrndup(s + ns, nl2);

			if (!s[plen]) {
				/* a prompt with nothing typed: no command */
				free(name);
				free(s);
				open = SIZE_MAX;
				continue;
			}
			if (ps1 && !alias_from) {
				/* the first prompt after PS1 changed: the same shell */
				alias_from = xstrdup(name);
				ps1 = false;
			}
			if (alias_from && !strcmp(name, alias_from) && alias_to) {
				char *again = xasprintf("%s%s", alias_to, s + plen);

				free(s);
				s = again;
			}
			if (sets_prompt(s + plen) && !alias_to) {
				alias_to = xstrndup(s, plen);
				ps1 = true;
			}
			free(name);
			add(it, COMMAND, s, line, 0);
			/* the prompt as written now: an alias may have changed it */
			it->v[it->n - 1].plen = ns_scenario_prompt(s, &ns, &nl2);
			open = it->n - 1;
			continue;
		}
		if (open == SIZE_MAX) {
			add(it, PROSE, s, line, 0);
			continue;
		}
		/* bash says "exit" as its interactive shell ends; nstest's
		 * exit, as dash's and a script's, says nothing */
		if (!strcmp(s, "exit") && open == it->n - 1 &&
		    !strcmp(it->v[open].text + strcspn(it->v[open].text, "#$") + 2, "exit")) {
			add(it, DROPPED, s, line, open);
			continue;
		}
		/* what follows the shell's end is not its output */
		if (!strcmp(it->v[open].text + strcspn(it->v[open].text, "#$") + 2, "exit") &&
		    !s[strspn(s, " \t")]) {
			add(it, PROSE, s, line, 0);
			open = SIZE_MAX;
			continue;
		}
		add(it, OUTPUT, s, line, open);
	}
	free(alias_from);
	free(alias_to);
}

/* The scenario text of the items as they now are; records each command's
 * line in it. */
static void write_scenario(struct items *it, const char *name, struct ns_buf *out)
{
	int line = 0;
	bool in_session = false;

	ns_buf_reset(out);
	if (it->columns >= 20 && it->columns <= 4096) {
		ns_buf_addf(out, "columns: %u\n\n", it->columns);
		line += 2;
	}
	ns_buf_addf(out, "Imported from %s by nstest import.\n", name);
	line++;
	for (size_t i = 0; i < it->n; i++) {
		struct item *x = &it->v[i];
		bool session = (x->kind == COMMAND && !x->prose) ||
			       (x->kind == OUTPUT && !it->v[x->cmd].prose);

		if (session != in_session) {
			ns_buf_addc(out, '\n');
			line++;
			in_session = session;
		}
		line++;
		if (x->kind == DROPPED) {
			line--;
			continue;
		}
		if (x->kind == COMMAND && !x->prose) {
			x->at = line;
			ns_buf_addf(out, "    %s\n", x->text);
		} else if (x->kind == COMMAND) {
			ns_buf_addf(out, "Not carried over (log line %d): the command `%s` (%s)\n",
				    x->line, x->text + x->plen, x->why);
		} else if (x->kind == OUTPUT && it->v[x->cmd].prose) {
			ns_buf_addf(out, "| %s\n", x->text);
		} else if (x->kind == OUTPUT) {
			size_t ns, nl;
			bool blank = !x->text[strspn(x->text, " \t")];

			/* an empty line, or one that reads as a prompt, cannot be
			 * expected output: "..." stands for it */
			ns_buf_addf(out, "    %s\n", blank || ns_scenario_prompt(x->text, &ns, &nl) ? "..." : x->text);
		} else if (!x->text[0]) {
			ns_buf_addc(out, '\n');
		} else {
			/* prose must not read as a session line or a directive */
			ns_buf_addf(out, "%s%s\n", strchr(x->text, ':') && !strchr(x->text, ' ') ? "| " : "",
				    x->text);
		}
	}
}

/* The first error of diag that is on a command line of the scenario:
 * that command's item, with the message; SIZE_MAX for none. */
static size_t erring_command(struct items *it, const char *msg, char **why)
{
	for (const char *p = msg; p && *p;) {
		const char *colon = strchr(p, ':');
		int line = colon ? atoi(colon + 1) : 0;
		const char *err = strstr(p, ": error: ");
		size_t n = strcspn(p, "\n");

		for (size_t i = 0; i < it->n && line; i++)
			if (it->v[i].kind == COMMAND && !it->v[i].prose && it->v[i].at == line) {
				*why = err && err < p + n ? xstrndup(err + 9, (size_t)(p + n - err - 9))
							  : xstrndup(p, n);
				return i;
			}
		p += n + (p[n] == '\n');
	}
	return SIZE_MAX;
}

/* Drop hidden mounts from each command's output (hide.h), naming the
 * log lines that went and the outputs that may still show some. */
static void hide_rows(struct items *it, const struct ns_hide *h, struct ns_buf *notes)
{
	struct items res = { NULL, 0, 0, it->columns };
	size_t last = 0;

	for (size_t i = 0; i < it->n;) {
		struct ns_lines lines = NS_LINES_INIT;
		size_t k = i + 1, c, dropped;
		int first;
		bool unsure;

		if (it->v[i].kind != COMMAND) {
			add(&res, it->v[i].kind, it->v[i].text, it->v[i].line, last);
			i++;
			continue;
		}
		while (k < it->n && it->v[k].kind == OUTPUT)
			ns_lines_push(&lines, it->v[k++].text);
		first = k > i + 1 ? it->v[i + 1].line : it->v[i].line;
		dropped = ns_hide_output(h, it->v[i].text + it->v[i].plen, &lines, &unsure);
		if (unsure)
			/* said in the file too, at the step */
			add(&res, PROSE, xasprintf("Not carried over as it should be (log line %d): the output of `%s` "
						   "may still show mounts outside the session (its columns could not be "
						   "told apart); edit its block.", it->v[i].line,
						   it->v[i].text + it->v[i].plen), it->v[i].line, 0);
		c = last = res.n;
		add(&res, COMMAND, it->v[i].text, it->v[i].line, 0);
		res.v[c].plen = it->v[i].plen;
		if (dropped)
			ns_buf_addf(notes, "log lines %d-%d: %zu line%s of mounts outside the session left out of `%s`%s\n",
				    first, it->v[k - 1].line, dropped, dropped == 1 ? "" : "s",
				    it->v[i].text + it->v[i].plen, h->ellipsis ? " (written '...')" : "");
		if (unsure)
			ns_buf_addf(notes, "log line %d: `%s` may still show mounts outside the session: its columns could not be told apart\n",
				    it->v[i].line, it->v[i].text + it->v[i].plen);
		for (size_t j = 0; j < lines.n; j++)
			add(&res, OUTPUT, xstrdup(lines.v[j]), first + (int)j, c);
		for (size_t j = i + 1; j < k; j++)
			free(it->v[j].text);
		ns_lines_free(&lines);
		i = k;
	}
	free(it->v);
	*it = res;
}

void ns_import_log(const char *text, size_t len, const char *name, struct ns_buf *out,
		   struct ns_buf *notes)
{
	ns_import_log_hide(text, len, name, NULL, 0, out, notes);
}

void ns_import_log_hide(const char *text, size_t len, const char *name,
			const struct ns_hide *hide, unsigned columns, struct ns_buf *out,
			struct ns_buf *notes)
{
	struct items it = { NULL, 0, 0, columns };

	read_log(text, len, &it);
	if (hide)
		hide_rows(&it, hide, notes);
	for (int round = 0; round <= IMPORT_ROUNDS; round++) {
		struct ns_diag diag = { NULL, 0 };
		struct ns_scenario *sc;
		char *why = NULL;
		size_t bad;

		write_scenario(&it, name, out);
		sc = ns_scenario_parse(name, ns_buf_str(out), out->len, &diag);
		if (sc) {
			ns_scenario_free(sc);
			break;
		}
		bad = erring_command(&it, diag.msg, &why);
		if (bad == SIZE_MAX || round == IMPORT_ROUNDS) {
			/* an error that no command explains: say it, keep the file */
			ns_buf_addf(notes, "the scenario written does not parse: %s\n", diag.msg);
			ns_diag_free(&diag);
			break;
		}
		it.v[bad].prose = true;
		it.v[bad].why = why;
		ns_diag_free(&diag);
	}
	for (size_t i = 0; i < it.n; i++) {
		const struct item *x = &it.v[i];

		if (x->kind == COMMAND && x->prose)
			ns_buf_addf(notes, "log line %d: `%s` not carried over: %s\n", x->line,
				    x->text + x->plen, x->why);
		if (x->kind == DROPPED)
			ns_buf_addf(notes, "log line %d: bash's \"exit\" as its shell ended is left out (nstest's exit prints nothing)\n", x->line);
		if (x->kind == OUTPUT && !it.v[x->cmd].prose &&
		    !x->text[strspn(x->text, " \t")])
			ns_buf_addf(notes, "log line %d: an empty output line is written '...'\n", x->line);
	}
	for (size_t i = 0; i < it.n; i++) {
		free(it.v[i].text);
		free(it.v[i].why);
	}
	free(it.v);
}
