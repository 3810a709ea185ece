/* filter_sed_scan.c - sed's s command cut into its regex, replacement
 * and flags the way GNU sed steps over them: a delimiter may be escaped,
 * and a bracket expression in the regex is taken whole. */
#include "commands/filter_impl.h"

#include <string.h>

/* Copy a bracket expression, from just after its '[', as GNU sed steps
 * over one: inside it the delimiter and backslashes are plain, a leading
 * '^' and ']' are members, and [:class:], [.coll.] and [=equiv=] may
 * hold a ']'. Returns what follows the closing ']', or NULL. */
const char *ns_filter_copy_bracket(const char *p, struct ns_buf *out)
{
	int state = 0; /* 0 plain, 1 after '[', 2 inside [: :], 3 at its end */
	char open = 0;

	if (*p == '^')
		ns_buf_addc(out, *p++);
	if (*p == ']')
		ns_buf_addc(out, *p++);
	for (; *p && *p != '\n'; ns_buf_addc(out, *p++)) {
		if (*p == '[') {
			state = state ? state : 1;
			continue;
		}
		if (*p == ']' && state <= 1) {
			ns_buf_addc(out, *p);
			return p + 1;
		}
		if (*p == ']' && state == 3) {
			state = 0;
		} else if (state == 1 && strchr(".:=", *p)) {
			open = *p;
			state = 2;
			continue;
		} else if (state == 2 && *p == open) {
			state = 3;
			continue;
		}
		state &= ~1;
	}
	return NULL;
}

/* As GNU sed's match_slash() does: a backslash before the delimiter goes
 * (but "\&" stays in a replacement, where it means a literal '&'); every
 * other escape is kept for later; a bracket expression in the regex is
 * taken whole. A newline also ends the script. */
const char *ns_filter_sed_scan_part(const char *p, char delim, bool regex,
				    struct ns_buf *out)
{
	while (*p && *p != '\n') {
		char c = *p++;

		if (c == delim)
			return p;
		if (c == '[' && regex) {
			ns_buf_addc(out, c);
			if (!(p = ns_filter_copy_bracket(p, out)))
				return NULL;
			continue;
		}
		if (c == '\\') {
			c = *p++;
			if (!c)
				return NULL;
			if (c != '\n' && (c != delim || (!regex && c == '&')))
				ns_buf_addc(out, '\\');
		}
		ns_buf_addc(out, c);
	}
	return NULL;
}

/* GNU sed -E rejects a ')' that closes no group; regcomp() would take
 * it as a literal. Count groups outside bracket expressions. */
bool ns_filter_sed_stray_paren(const char *re)
{
	struct ns_buf scratch = NS_BUF_INIT;
	int depth = 0;
	bool stray = false;

	for (const char *p = re; *p && !stray; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {
			p = ns_filter_copy_bracket(p + 1, &scratch);
			if (!p)
				break; /* regcomp() names that error */
			p--;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			stray = depth-- == 0;
		}
	}
	ns_buf_free(&scratch);
	return stray;
}
