/* standin_hint.c - see standin_hint.h. Both sides of the diff are brought
 * to a form without what the stand-in mode decides; when the two are the
 * same lines (as multisets), the mode is all that differs. */
#include "run/standin_hint.h"

#include <stdbool.h>
#include <string.h>

#include "base/util.h"

enum kind { FS_NONE, FS_TMPFS, FS_LOOP };

static enum kind fs_kind(const char *w, size_t n)
{
	if (n == 5 && !strncmp(w, "tmpfs", 5))
		return FS_TMPFS;
	if (n == 4 && (!strncmp(w, "ext2", 4) || !strncmp(w, "ext3", 4) || !strncmp(w, "ext4", 4)))
		return FS_LOOP;
	return FS_NONE;
}

/* "12", "0:41": numbers the kernel picks, renamed by the matcher anyway */
static bool is_number(const char *w, size_t n)
{
	bool digit = false;

	for (size_t i = 0; i < n; i++) {
		if (w[i] >= '0' && w[i] <= '9')
			digit = true;
		else if (w[i] != ':')
			return false;
	}
	return digit;
}

/* A word of findmnt -J ("ext4", or "8:1",) without its quotes and comma,
 * so that its type and numbers read as in the other forms. */
static const char *unquote(const char *w, size_t *n)
{
	if (*n && w[*n - 1] == ',')
		(*n)--;
	if (*n >= 2 && w[0] == '"' && w[*n - 1] == '"') {
		*n -= 2;
		return w + 1;
	}
	return w;
}

struct side {
	struct ns_lines norm;   /* the lines without what the mode decides */
	unsigned kinds;         /* 1 << enum kind of every type seen */
};

/* One line of a side, normalized: words joined by one space (column
 * widths go), numbers as "#", filesystem types as "FS", and in a
 * mountinfo record the superblock options (the last word, after the
 * " - " separator, type and source) as "OPTS". */
static void add_line(struct side *s, const char *line, size_t len)
{
	struct ns_buf b = NS_BUF_INIT;
	size_t words = 0, after_dash = 0;
	size_t i = 0;

	while (i < len) {
		size_t start, n, cn;
		const char *core;
		enum kind k;

		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		n = i - start;
		cn = n;
		core = unquote(line + start, &cn);
		k = fs_kind(core, cn);
		if (words++)
			ns_buf_addc(&b, ' ');
		if (after_dash)
			after_dash++;
		/* what is around the core (JSON's quotes and comma) stays */
		ns_buf_add(&b, line + start, (size_t)(core - (line + start)));
		if (k != FS_NONE) {
			s->kinds |= 1u << k;
			ns_buf_adds(&b, "FS");
		} else if (after_dash == 4 && i == len) {
			ns_buf_adds(&b, "OPTS");
		} else if (is_number(core, cn)) {
			ns_buf_addc(&b, '#');
		} else {
			ns_buf_add(&b, core, cn);
		}
		ns_buf_add(&b, core + cn, n - (size_t)(core - (line + start)) - cn);
		if (n == 1 && line[start] == '-' && !after_dash)
			after_dash = 1;
	}
	ns_lines_push(&s->norm, ns_buf_str(&b));
	ns_buf_free(&b);
}

static bool same_lines(struct ns_lines *a, struct ns_lines *b)
{
	if (a->n != b->n || !a->n)
		return false;
	ns_lines_sort(a);
	ns_lines_sort(b);
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return false;
	return true;
}

char *ns_standin_hint(const char *diff)
{
	struct side exp = { NS_LINES_INIT, 0 }, act = { NS_LINES_INIT, 0 };
	const char *s = diff ? diff : "";
	char *hint = NULL;

	while (*s) {
		size_t n = strcspn(s, "\n");
		bool header = !strncmp(s, "--- ", 4) || !strncmp(s, "+++ ", 4);

		if (!header && *s == '-')
			add_line(&exp, s + 1, n - 1);
		else if (!header && *s == '+')
			add_line(&act, s + 1, n - 1);
		s += n + (s[n] == '\n');
	}
	if (exp.kinds != act.kinds && same_lines(&exp.norm, &act.norm)) {
		if (exp.kinds == 1u << FS_LOOP && act.kinds == 1u << FS_TMPFS)
			hint = xstrdup("the lines differ only in filesystem type and what comes with it: "
				       "written for loop stand-ins, run on tmpfs ones; try --devices=loop");
		else if (exp.kinds == 1u << FS_TMPFS && act.kinds == 1u << FS_LOOP)
			hint = xstrdup("the lines differ only in filesystem type and what comes with it: "
				       "written for tmpfs stand-ins, run on loop ones; try --devices=tmpfs");
	}
	ns_lines_free(&exp.norm);
	ns_lines_free(&act.norm);
	return hint;
}
