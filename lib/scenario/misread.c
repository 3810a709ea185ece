/* misread.c - lines that look like what they are not: a command that is
 * not indented as a session line (so it would be prose and never run), a
 * prompt glued to its command (so it would be output), output indented as
 * prose, and a blank line inside an output block. Each is an error that
 * names the real culprit and the fix (nstest-scenario(5)). */
#include "scenario/parser.h"

#include <ctype.h>
#include <string.h>

#include "commands/command.h"

/* Whether s (a line's text after its leading blanks) looks like a command:
 * an optional terminal name, '#' or '$', blanks or none, then the name of
 * a command of the table, ending at a blank, '|' or the end of the line.
 * If so, *at is where the command name starts and *end where it ends. */
bool ns_misread_looks_like_command(const char *s, size_t *at, size_t *end)
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
	struct ns_step *st = ns_parser_new_step(p->sc);

	st->line = p->lineno;
	st->terminal = xstrndup(s, namelen);
	st->prompt = s[namelen];
	p->open = st;
	p->blank_line = 0;
}

/* A line whose text, after lead blanks that are not a session line's
 * indentation, looks like a command: it would be prose, or output of the
 * command before, and never run. */
int ns_misread_command(struct parser *p, const char *line, size_t lead,
			       bool session)
{
	const char *s = line + lead;
	size_t at = 0, end = 0, namelen = strcspn(s, "#$");
	bool blank = s[namelen + 1] == ' ' || s[namelen + 1] == '\t';
	struct ns_buf msg = NS_BUF_INIT;
	int r;

	ns_misread_looks_like_command(s, &at, &end);
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
	r = ns_parser_fail(p, (int)lead + 1, "%s", ns_buf_str(&msg));
	ns_buf_free(&msg);
	stand_in_step(p, s, namelen);
	p->header_open = false;
	return r;
}

/* A line indented by blanks that are not a session line's indentation
 * (1 to 3 spaces, or spaces and then a tab) right below a session line:
 * it is prose, so it ends the block it seems to continue. */
int ns_misread_output(struct parser *p, const char *line, size_t lead)
{
	struct ns_buf how = NS_BUF_INIT, what = NS_BUF_INIT;
	int r;

	describe_indent(&how, line, lead);
	if (p->open)
		ns_buf_addf(&what, "output of the command on line %d", p->open->line);
	else
		ns_buf_adds(&what, "part of the session block above it");
	r = ns_parser_fail(p, (int)lead + 1, "this line goes on from the session line above but is indented by %s, so it is prose and ends the session block: indent it by four spaces or a tab to make it %s; to keep it as prose, put a blank line before it",
		 ns_buf_str(&how), ns_buf_str(&what));
	ns_buf_free(&how);
	ns_buf_free(&what);
	p->header_open = false;
	return r;
}

/* A session line such as "#mount /x" or "sh1$ls": a prompt directly
 * followed by a command name reads as output, not as a command. */
/* A first word that ends in '#' or '$' and is followed by a command, as
 * a prompt would be, but holds a character no terminal name has
 * ("root@host# ", "~# "): its length without the sigil, or 0. */
static size_t odd_prompt(const char *s)
{
	size_t n = strcspn(s, " \t"), k;
	char *word;
	bool known;

	if (n < 2 || (s[n - 1] != '#' && s[n - 1] != '$') || !s[n] || strcspn(s, "#$") != n - 1)
		return 0;
	k = n + strspn(s + n, " \t");
	word = xstrndup(s + k, strcspn(s + k, " \t|"));
	known = *word && ns_cmd_find(word) != NULL;
	free(word);
	return known ? n - 1 : 0;
}

bool ns_misread_prompt(struct parser *p, const char *s, int indent)
{
	size_t at, end, namelen = strcspn(s, "#$"), odd = odd_prompt(s);

	if (odd) {
		size_t name = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.");

		/* the directive that would read it, with the leading name as
		 * the terminal's */
		ns_parser_fail(p, indent + 1, "'%.*s' looks like a prompt, but is none, so the line is read as output: a terminal's name is letters, digits, '_', '-' and '.' (as in 'sh1# '), or a default prompt of bash, 'USER@HOST:PATH# ' or '[USER@HOST PATH]# '; for another form, name it in the header, as in 'prompt: %s%.*s'",
			       (int)odd + 2, s, name ? "{terminal}" : "", (int)(odd + 1 - name), s + name);
		stand_in_step(p, s, odd);
		return true;
	}
	if (!ns_misread_looks_like_command(s, &at, &end) || at != namelen + 1)
		return false;
	ns_parser_fail(p, indent + (int)at + 1, "no space between the prompt '%.*s' and the command '%.*s', so the line is read as output: put a space after the prompt",
	     (int)namelen + 1, s, (int)(end - at), s + at);
	stand_in_step(p, s, namelen);
	return true;
}

/* An output line with no command open: after blank lines inside an output
 * block, the blank line is the mistake, and the block goes on. */
bool ns_misread_blank(struct parser *p)
{
	int line = p->lineno;
	const struct ns_step *st;

	if (!p->blank_line)
		return false;
	st = &p->sc->steps[p->blank_step];
	p->lineno = p->blank_line;
	ns_parser_fail(p, 1, "blank line %s the command on line %d%s: expected output cannot contain an empty line, so line %d would have no command; delete the blank line (a '...' line can stand for empty lines the command prints)",
	     st->nexpect || st->unordered ? "inside the output of" : "between", st->line,
	     st->nexpect || st->unordered ? "" : " and its output", line);
	p->lineno = line;
	p->open = &p->sc->steps[p->blank_step];
	p->blank_line = 0;
	return true;
}
