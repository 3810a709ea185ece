/* invisible.c - characters that look like a blank, or like nothing, where
 * a blank decides what a line is: in its indentation (a command pasted
 * from a web page with no-break spaces would be prose, and never run; after
 * a whole indentation, only before what looks like a command, since output
 * may begin with one), in the blanks after a prompt (the command would be
 * output), and a byte-order mark (a first directive would be prose). Each is an error
 * at its column that names the character and the fix; the line is then
 * read as meant, with the character taken as a space (or as nothing, for
 * one of no width), so that what follows is checked as it would be once
 * fixed (nstest-scenario(5), "Encoding and limits"). */
#include "scenario/parser.h"

#include <ctype.h>
#include <string.h>

struct invisible {
	uint32_t cp;
	bool zero_width;       /* read as nothing, not as a space */
	const char *name;      /* its Unicode name */
};

/* Unicode's spaces other than U+0020 (category Zs), and the characters of
 * no width that editors and web pages put in text: format characters
 * (category Cf) that show nothing, and the line and paragraph separators. */
static const struct invisible invisibles[] = {
	{ 0x00a0, false, "NO-BREAK SPACE" },
	{ 0x00ad, true, "SOFT HYPHEN" },
	{ 0x1680, false, "OGHAM SPACE MARK" },
	{ 0x180e, true, "MONGOLIAN VOWEL SEPARATOR" },
	{ 0x2000, false, "EN QUAD" },
	{ 0x2001, false, "EM QUAD" },
	{ 0x2002, false, "EN SPACE" },
	{ 0x2003, false, "EM SPACE" },
	{ 0x2004, false, "THREE-PER-EM SPACE" },
	{ 0x2005, false, "FOUR-PER-EM SPACE" },
	{ 0x2006, false, "SIX-PER-EM SPACE" },
	{ 0x2007, false, "FIGURE SPACE" },
	{ 0x2008, false, "PUNCTUATION SPACE" },
	{ 0x2009, false, "THIN SPACE" },
	{ 0x200a, false, "HAIR SPACE" },
	{ 0x200b, true, "ZERO WIDTH SPACE" },
	{ 0x200c, true, "ZERO WIDTH NON-JOINER" },
	{ 0x200d, true, "ZERO WIDTH JOINER" },
	{ 0x200e, true, "LEFT-TO-RIGHT MARK" },
	{ 0x200f, true, "RIGHT-TO-LEFT MARK" },
	{ 0x2028, false, "LINE SEPARATOR" },
	{ 0x2029, false, "PARAGRAPH SEPARATOR" },
	{ 0x202a, true, "LEFT-TO-RIGHT EMBEDDING" },
	{ 0x202b, true, "RIGHT-TO-LEFT EMBEDDING" },
	{ 0x202c, true, "POP DIRECTIONAL FORMATTING" },
	{ 0x202d, true, "LEFT-TO-RIGHT OVERRIDE" },
	{ 0x202e, true, "RIGHT-TO-LEFT OVERRIDE" },
	{ 0x202f, false, "NARROW NO-BREAK SPACE" },
	{ 0x205f, false, "MEDIUM MATHEMATICAL SPACE" },
	{ 0x2060, true, "WORD JOINER" },
	{ 0x2061, true, "FUNCTION APPLICATION" },
	{ 0x2062, true, "INVISIBLE TIMES" },
	{ 0x2063, true, "INVISIBLE SEPARATOR" },
	{ 0x2064, true, "INVISIBLE PLUS" },
	{ 0x2066, true, "LEFT-TO-RIGHT ISOLATE" },
	{ 0x2067, true, "RIGHT-TO-LEFT ISOLATE" },
	{ 0x2068, true, "FIRST STRONG ISOLATE" },
	{ 0x2069, true, "POP DIRECTIONAL ISOLATE" },
	{ 0x3000, false, "IDEOGRAPHIC SPACE" },
	{ 0xfeff, true, "ZERO WIDTH NO-BREAK SPACE" },
};

/* The invisible character at s, with its length in *n; NULL for any other. */
static const struct invisible *invisible_at(const char *s, size_t *n)
{
	uint32_t cp;

	/* the parser has checked that the line is UTF-8 */
	*n = ns_utf8_char(s, &cp);
	if (cp < 0x80)
		return NULL;
	for (size_t i = 0; i < sizeof(invisibles) / sizeof(invisibles[0]); i++)
		if (invisibles[i].cp == cp)
			return &invisibles[i];
	return NULL;
}

/* The run of blanks, ASCII or invisible, from line + from: copied into out
 * as it would read once fixed (an invisible space as a space, one of no
 * width left out). Returns where the run ends; *first is the first
 * invisible character (NULL: none), at byte *at of line, and *count how
 * many of them the run holds. */
static size_t blank_run(const char *line, size_t from, struct ns_buf *out,
			const struct invisible **first, size_t *at, size_t *count)
{
	size_t i = from, n;
	const struct invisible *inv;

	*first = NULL;
	*count = 0;
	while (line[i]) {
		if (line[i] == ' ' || line[i] == '\t') {
			ns_buf_addc(out, line[i++]);
			continue;
		}
		inv = invisible_at(line + i, &n);
		if (!inv)
			break;
		if (!*first) {
			*first = inv;
			*at = i;
		}
		(*count)++;
		if (!inv->zero_width)
			ns_buf_addc(out, ' ');
		i += n;
	}
	return i;
}

/* "U+00A0 NO-BREAK SPACE" (with ", 4 in all" when there are more). */
static void name_it(struct ns_buf *b, const struct invisible *inv, size_t count)
{
	ns_buf_addf(b, "U+%04X %s", (unsigned)inv->cp, inv->name);
	if (count > 1)
		ns_buf_addf(b, " (%zu such characters in all)", count);
}

/* The prompt at s, "#", "$" or a terminal's "sh2#": its length, or 0. */
static size_t prompt_at(const char *s)
{
	size_t k = 0;

	while (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '-' || s[k] == '.')
		k++;
	return s[k] == '#' || s[k] == '$' ? k + 1 : 0;
}

int ns_invisible_check(struct parser *p, const char *line, char **fixed)
{
	struct ns_buf out = NS_BUF_INIT, msg = NS_BUF_INIT;
	const struct invisible *inv;
	size_t at = 0, count, start = 0, lead, plen = 0, indent, cmd_at, cmd_end;
	const char *o;
	int r = 0;

	*fixed = NULL;
	if (p->lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3)) {
		ns_parser_fail(p, 1, "byte-order mark (U+FEFF) at the start of the file: a scenario file is UTF-8 without one, and it would make a first directive or command prose; delete it (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)");
		start = 3;
		r = -1;
	}
	/* after a whole indentation (a tab, four spaces) what a session line
	 * holds is its own, but for a blank before what looks like a command */
	indent = line[start] == '\t' ? 1 : !strncmp(line + start, "    ", 4) ? 4 : 0;
	ns_buf_add(&out, line + start, indent);
	lead = blank_run(line, start + indent, &out, &inv, &at, &count);
	if (inv && (!indent || ns_misread_looks_like_command(line + lead, &cmd_at, &cmd_end))) {
		name_it(&msg, inv, count);
		ns_parser_fail(p, (int)at + 1, "%s in the indentation, where only spaces and tabs count: the line would not be read as it looks (a command or its output as prose, a directive as text); replace it with a space",
			       ns_buf_str(&msg));
		r = -1;
	}
	/* a session line's prompt, and the blanks after it */
	o = ns_buf_str(&out);
	if ((o[0] == '\t' || !strncmp(o, "    ", 4)) && (!inv || r < 0))
		plen = prompt_at(line + lead);
	if (plen) {
		size_t prompt = lead;

		ns_buf_add(&out, line + lead, plen);
		lead = blank_run(line, lead + plen, &out, &inv, &at, &count);
		if (inv) {
			ns_buf_reset(&msg);
			name_it(&msg, inv, count);
			ns_parser_fail(p, (int)at + 1, "%s after the prompt '%.*s': the line would be read as output, not as a command; replace it with a space (or delete it)",
				       ns_buf_str(&msg), (int)plen, line + prompt);
			r = -1;
		}
	}
	if (r < 0) {
		ns_buf_adds(&out, line + lead);
		*fixed = ns_buf_detach(&out);
	}
	ns_buf_free(&out);
	ns_buf_free(&msg);
	return r;
}
