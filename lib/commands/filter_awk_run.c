/* filter_awk_run.c - awk's rules carried out line by line (filter_awk.c
 * compiles them): fields split as awk's default FS does, patterns
 * tested, items printed. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

/* Fields split as awk's default FS does: on runs of blanks, with
 * leading and trailing blanks ignored. */
struct awk_fields {
	const char **start;
	size_t *len;
	size_t n, cap;
	const char *line;
	size_t line_len;
	unsigned long long nr;
};

static void awk_split(struct awk_fields *f, const char *line, size_t len)
{
	const char *p = line + strspn(line, " \t\n");

	f->n = 0;
	f->line = line;
	f->line_len = len;
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

/* $N (or $NF) of the line: $0 is the line, a field past NF is empty. */
static void awk_get_field(const struct awk_fields *f, long field,
			  const char **p, size_t *len)
{
	size_t n = field == NS_AWK_NF ? f->n : (size_t)field;

	*p = "";
	*len = 0;
	if (n == 0)
		*p = f->line, *len = f->line_len;
	else if (n <= f->n)
		*p = f->start[n - 1], *len = f->len[n - 1];
}

static bool awk_selects(const struct ns_awk_rule *r, const struct awk_fields *f)
{
	regmatch_t m[1];
	const char *p;
	size_t len;

	switch (r->pat) {
	case NS_AWK_PAT_ALL: return true;
	case NS_AWK_PAT_RE: return ns_filter_search(&r->re, f->line, f->line_len, 0, m, 1);
	case NS_AWK_PAT_NR: return f->nr == r->nr;
	case NS_AWK_PAT_MATCH: case NS_AWK_PAT_NOMATCH:
		awk_get_field(f, r->field, &p, &len);
		return ns_filter_search(&r->re, p, len, 0, m, 1) == (r->pat == NS_AWK_PAT_MATCH);
	case NS_AWK_PAT_EQ: case NS_AWK_PAT_NE: break;
	}
	awk_get_field(f, r->field, &p, &len);
	return (len == strlen(r->text) && !memcmp(p, r->text, len)) ==
	       (r->pat == NS_AWK_PAT_EQ);
}

static void awk_print(const struct ns_awk_rule *r, const struct awk_fields *f,
		      struct ns_buf *out)
{
	for (size_t i = 0; i < r->nitem; i++) {
		const struct ns_awk_item *it = &r->item[i];

		if (i > 0)
			ns_buf_addc(out, ' '); /* OFS */
		for (size_t j = 0; j < it->npart; j++) {
			const struct ns_awk_part *pt = &it->part[j];
			const char *p;
			size_t len;

			if (pt->field == NS_AWK_TEXT) {
				ns_buf_adds(out, pt->text);
			} else if (pt->field == NS_AWK_COUNT_NF || pt->field == NS_AWK_COUNT_NR) {
				ns_buf_addu(out, pt->field == NS_AWK_COUNT_NF ? f->n : f->nr);
			} else {
				awk_get_field(f, pt->field, &p, &len);
				ns_buf_add(out, p, len);
			}
		}
	}
	if (!r->nitem) /* a pattern alone prints the line */
		ns_buf_add(out, f->line, f->line_len);
	ns_buf_addc(out, '\n'); /* ORS */
}

void ns_awk_run(const void *prog, const char *in, size_t len,
		    struct ns_buf *out)
{
	const struct ns_awk_prog *a = prog;
	struct ns_filter_lines l = ns_filter_lines_of(in, len);
	struct awk_fields f = { NULL, NULL, 0, 0, NULL, 0, 0 };

	while (ns_filter_next_line(&l)) {
		f.nr++;
		awk_split(&f, l.cur.data, l.cur.len);
		for (size_t i = 0; i < a->nrule; i++)
			if (awk_selects(&a->rule[i], &f))
				awk_print(&a->rule[i], &f, out);
	}
	free(f.start);
	free(f.len);
}

void ns_awk_release(void *prog)
{
	struct ns_awk_prog *a = prog;

	for (size_t r = 0; r < a->nrule; r++) {
		struct ns_awk_rule *ru = &a->rule[r];

		for (size_t i = 0; i < ru->nitem; i++) {
			for (size_t j = 0; j < ru->item[i].npart; j++)
				free(ru->item[i].part[j].text);
			free(ru->item[i].part);
		}
		free(ru->item);
		free(ru->text);
		if (ru->pat == NS_AWK_PAT_RE || ru->pat == NS_AWK_PAT_MATCH ||
		    ru->pat == NS_AWK_PAT_NOMATCH)
			regfree(&ru->re);
	}
	free(a->rule);
}

/* Lines pass as they were when every rule prints the whole line. */
bool ns_awk_keeps_lines(const void *prog)
{
	const struct ns_awk_prog *a = prog;

	for (size_t r = 0; r < a->nrule; r++) {
		const struct ns_awk_rule *ru = &a->rule[r];

		if (ru->nitem > 1 || (ru->nitem == 1 && (ru->item[0].npart != 1 ||
							 ru->item[0].part[0].field != 0)))
			return false;
	}
	return a->nrule > 0;
}


/* One rule, every line, printing fields ($N) only. */
bool ns_awk_plain(const void *prog, struct ns_filter_plain *out)
{
	const struct ns_awk_prog *p = prog;
	const struct ns_awk_rule *r = p->rule;

	if (p->nrule != 1 || r->pat != NS_AWK_PAT_ALL || r->nitem > NS_FF_MAX)
		return false;
	for (size_t i = 0; i < r->nitem; i++) {
		if (r->item[i].npart != 1 || r->item[i].part[0].field < 0)
			return false;
		out->field[i] = r->item[i].part[0].field;
	}
	if (!r->nitem)
		out->field[0] = 0;
	out->nfield = r->nitem ? r->nitem : 1;
	out->form = NS_FF_AWK_PRINT;
	return true;
}
