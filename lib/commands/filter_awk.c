/* filter_awk.c - awk '{print ITEM, ...}', the one awk program supported:
 * each ITEM is $N, $NF or "string", or several of them side by side, and
 * fields are split as awk's default FS does. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

#define AWK_SHAPE "awk: only '{print $N, ...}' programs are supported"
#define AWK_FIELD_MAX 1000000L
enum { AWK_NF = -1, AWK_TEXT = -2 };

/* One print item: parts printed side by side. */
struct awk_part {
	long field;              /* N for $N, AWK_NF, or AWK_TEXT */
	char *text;
};

struct awk_item {
	struct awk_part *part;
	size_t npart, cap;
};

struct awk_prog {
	struct awk_item *item;
	size_t nitem, cap;
};

/* A cursor over the program text, with the argv word it came from. */
struct awk_src {
	const char *p;
	size_t word;
	struct ns_parse_err *e;
};

static void awk_blanks(struct awk_src *s)
{
	s->p += strspn(s->p, " \t\n");
}

static bool awk_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Take the keyword or character `tok` if it comes next. */
static bool awk_accept(struct awk_src *s, const char *tok)
{
	size_t n = strlen(tok);

	awk_blanks(s);
	if (strncmp(s->p, tok, n) != 0 ||
	    (awk_ident_char(tok[0]) && awk_ident_char(s->p[n])))
		return false;
	s->p += n;
	return true;
}

static void awk_add_part(struct awk_item *it, long field, char *text)
{
	void *v = it->part;

	ns_grow(&v, &it->cap, it->npart + 1, sizeof(*it->part));
	it->part = v;
	it->part[it->npart].field = field;
	it->part[it->npart].text = text;
	it->npart++;
}

static struct awk_item *awk_add_item(struct awk_prog *a)
{
	void *v = a->item;

	ns_grow(&v, &a->cap, a->nitem + 1, sizeof(*a->item));
	a->item = v;
	memset(&a->item[a->nitem], 0, sizeof(*a->item));
	return &a->item[a->nitem++];
}

static char awk_string_escape(char c)
{
	switch (c) {
	case '"': case '\\': case '/': return c;
	case 'b': return '\b';
	default: return ns_filter_control_escape(c);
	}
}

/* "..." after the opening quote; awk's escapes as in its strings. */
static int awk_string(struct awk_src *s, struct awk_item *it)
{
	struct ns_buf b = NS_BUF_INIT;

	for (; *s->p != '"'; s->p++) {
		char c = *s->p;

		if (c == '\\' && s->p[1]) {
			c = awk_string_escape(*++s->p);
			if (!c) {
				ns_buf_free(&b);
				return ns_parse_fail(s->e, s->word,
					"awk: unsupported escape \\%c in string", *s->p);
			}
		} else if (c == '\0' || c == '\\') {
			ns_buf_free(&b);
			return ns_parse_fail(s->e, s->word, "awk: unterminated string");
		}
		ns_buf_addc(&b, c);
	}
	s->p++;
	awk_add_part(it, AWK_TEXT, ns_buf_detach(&b));
	return 0;
}

/* $N or $NF after the '$'. */
static int awk_field(struct awk_src *s, struct awk_item *it)
{
	long n = 0;

	awk_blanks(s);
	if (awk_accept(s, "NF")) {
		awk_add_part(it, AWK_NF, NULL);
		return 0;
	}
	if (*s->p < '0' || *s->p > '9')
		return ns_parse_fail(s->e, s->word, AWK_SHAPE);
	for (; *s->p >= '0' && *s->p <= '9'; s->p++) {
		n = n * 10 + (*s->p - '0');
		if (n > AWK_FIELD_MAX)
			return ns_parse_fail(s->e, s->word, "awk: field number too large");
	}
	awk_add_part(it, n, NULL);
	return 0;
}

/* An item: one or more of $N, $NF and "..." side by side. */
static int awk_item(struct awk_src *s, struct awk_prog *a)
{
	struct awk_item *it = awk_add_item(a);

	for (;;) {
		int rc = 0;

		awk_blanks(s);
		if (*s->p != '$' && *s->p != '"')
			break;
		s->p++;
		rc = s->p[-1] == '$' ? awk_field(s, it) : awk_string(s, it);
		if (rc < 0)
			return -1;
	}
	return it->npart ? 0 : ns_parse_fail(s->e, s->word, AWK_SHAPE);
}

static int awk_program(struct awk_prog *a, const char *prog, size_t word,
		       struct ns_parse_err *e)
{
	struct awk_src s = { prog, word, e };

	if (!awk_accept(&s, "{") || !awk_accept(&s, "print"))
		return ns_parse_fail(e, word, AWK_SHAPE);
	awk_blanks(&s);
	if (*s.p == ';' || *s.p == '}') {
		awk_add_part(awk_add_item(a), 0, NULL); /* bare print is $0 */
	} else {
		do {
			if (awk_item(&s, a) < 0)
				return -1;
		} while (awk_accept(&s, ","));
	}
	awk_accept(&s, ";");
	if (!awk_accept(&s, "}"))
		return ns_parse_fail(e, word, AWK_SHAPE);
	awk_blanks(&s);
	return *s.p ? ns_parse_fail(e, word, AWK_SHAPE) : 0;
}

static int awk_compile(void *prog, size_t argc, char *const *argv,
		       struct ns_parse_err *e)
{
	struct awk_prog *a = prog;
	struct ns_filter_words w;

	if (ns_filter_split_words(argc, argv, "", &w, e) < 0 ||
	    ns_filter_want_operands(&w, 1, argv, "program", e) < 0)
		return -1;
	return awk_program(a, argv[w.op[0]], w.op[0], e);
}

/* Fields split as awk's default FS does: on runs of blanks, with
 * leading and trailing blanks ignored. */
struct awk_fields {
	const char **start;
	size_t *len;
	size_t n, cap;
};

static void awk_split(struct awk_fields *f, const char *line)
{
	const char *p = line + strspn(line, " \t\n");

	f->n = 0;
	while (*p) {
		size_t n = strcspn(p, " \t\n");
		size_t cap = f->cap;
		void *v = f->start, *l = f->len;

		ns_grow(&v, &f->cap, f->n + 1, sizeof(*f->start));
		ns_grow(&l, &cap, f->n + 1, sizeof(*f->len));
		f->start = v;
		f->len = l;
		f->start[f->n] = p;
		f->len[f->n++] = n;
		p += n;
		p += strspn(p, " \t\n");
	}
}

static void awk_add_field(struct ns_buf *out, const struct awk_fields *f,
			  long field, const char *line, size_t len)
{
	size_t n = field == AWK_NF ? f->n : (size_t)field;

	if (n == 0)
		ns_buf_add(out, line, len);
	else if (n <= f->n)
		ns_buf_add(out, f->start[n - 1], f->len[n - 1]);
}

static void awk_line(const struct awk_prog *a, struct awk_fields *f,
		     const char *line, size_t len, struct ns_buf *out)
{
	awk_split(f, line);
	for (size_t i = 0; i < a->nitem; i++) {
		const struct awk_item *it = &a->item[i];

		if (i > 0)
			ns_buf_addc(out, ' '); /* OFS */
		for (size_t j = 0; j < it->npart; j++) {
			if (it->part[j].field == AWK_TEXT)
				ns_buf_adds(out, it->part[j].text);
			else
				awk_add_field(out, f, it->part[j].field, line, len);
		}
	}
	ns_buf_addc(out, '\n'); /* ORS */
}

static void awk_run(const void *prog, const char *in, size_t len,
		    struct ns_buf *out)
{
	const struct awk_prog *a = prog;
	struct ns_filter_lines l = ns_filter_lines_of(in, len);
	struct awk_fields f = { NULL, NULL, 0, 0 };

	while (ns_filter_next_line(&l))
		awk_line(a, &f, l.cur.data, l.cur.len, out);
	free(f.start);
	free(f.len);
}

static void awk_release(void *prog)
{
	struct awk_prog *a = prog;

	for (size_t i = 0; i < a->nitem; i++) {
		for (size_t j = 0; j < a->item[i].npart; j++)
			free(a->item[i].part[j].text);
		free(a->item[i].part);
	}
	free(a->item);
}

const struct ns_filter_ops ns_filter_awk = {
	.name = "awk",
	.size = sizeof(struct awk_prog),
	.compile = awk_compile,
	.run = awk_run,
	.release = awk_release,
};
