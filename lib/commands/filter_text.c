/* filter_text.c - what the filters share for reading text: its lines one
 * at a time, regular expressions compiled and searched for in them, and
 * the control-character escapes of sed's scripts and awk's strings. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

struct ns_filter_lines ns_filter_lines_of(const char *text, size_t len)
{
	struct ns_filter_lines l = { text, text ? text + len : text,
				     NS_BUF_INIT };

	return l;
}

bool ns_filter_next_line(struct ns_filter_lines *l)
{
	const char *nl;
	size_t n;

	if (l->p >= l->end) {
		ns_buf_free(&l->cur);
		return false;
	}
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	n = nl ? (size_t)(nl - l->p) : (size_t)(l->end - l->p);
	ns_buf_reset(&l->cur);
	ns_buf_add(&l->cur, l->p, n);
	l->p += nl ? n + 1 : n;
	return true;
}

int ns_filter_re_fail(struct ns_parse_err *e, size_t word, const char *cmd,
		      const char *pattern, const char *why)
{
	return ns_parse_fail(e, word, "%s: invalid regular expression '%s': %s",
			     cmd, pattern, why);
}

int ns_filter_compile_re(regex_t *re, const char *text, int cflags,
			 const char *cmd, const char *pattern, size_t word,
			 struct ns_parse_err *e)
{
	char msg[256];
	int rc = regcomp(re, text, cflags);

	if (rc == 0)
		return 0;
	regerror(rc, re, msg, sizeof(msg));
	return ns_filter_re_fail(e, word, cmd, pattern, msg);
}

bool ns_filter_search_in(const regex_t *re, const char *line, size_t from,
			 size_t to, regmatch_t *m, size_t nm)
{
#ifdef REG_STARTEND
	m[0].rm_so = (regoff_t)from;
	m[0].rm_eo = (regoff_t)to;
	return regexec(re, line, nm, m, REG_STARTEND) == 0;
#else
	char *copy = xstrndup(line, to);
	int rc = regexec(re, copy + from, nm, m, from ? REG_NOTBOL : 0);

	free(copy);
	if (rc != 0)
		return false;
	for (size_t i = 0; i < nm; i++) {
		if (m[i].rm_so >= 0) {
			m[i].rm_so += (regoff_t)from;
			m[i].rm_eo += (regoff_t)from;
		}
	}
	return true;
#endif
}

bool ns_filter_search(const regex_t *re, const char *line, size_t len,
		      size_t from, regmatch_t *m, size_t nm)
{
	return ns_filter_search_in(re, line, from, len, m, nm);
}

char ns_filter_control_escape(char c)
{
	switch (c) {
	case 'a': return '\a';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	case 'v': return '\v';
	default: return 0;
	}
}

bool ns_filter_digits(const char **p, unsigned long long *v, bool *big)
{
	const char *s = *p;

	*v = 0;
	*big = false;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (*v > (~0ULL - d) / 10)
			*big = true;
		else
			*v = *v * 10 + d;
	}
	if (s == *p)
		return false;
	*p = s;
	return true;
}
