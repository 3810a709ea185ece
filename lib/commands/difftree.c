/* difftree.c - see difftree.h. The forms printed are GNU diff's (checked
 * against diffutils 3.8 on Debian 12):
 *
 *   Only in DIR: NAME
 *   Common subdirectories: A and B                  (without -r)
 *   File A is a TYPE while file B is a TYPE         (TYPE as stat's %F)
 *   diff -r A B                                     (before the hunks of
 *                                                    two files in directories)
 *   NaM / NdM / NcM hunks, "< " and "> " lines, "---" between them, and
 *   "\ No newline at end of file" after a last line without one.
 *
 * The hunks come from a shortest edit script (lib/base/diff.h, Myers);
 * where several scripts are shortest, GNU diff may place a change
 * elsewhere. */
#include "commands/difftree.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diff.h"

struct walk {
	const struct ns_diff_args *a;
	const struct ns_dt_ops *ops;
	void *ctx;
	struct ns_buf *out;
	const char **call;
	bool differ;
	/* the directories being walked on each side, outermost first */
	struct ns_dt_stat *anc[2];
	size_t nanc, cap;
};

/* DIR joined with NAME as GNU diff does: no second '/' after one typed. */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

static const char *base_name(const char *path)
{
	const char *s = path + strlen(path);

	while (s > path && s[-1] == '/')
		s--;
	while (s > path && s[-1] != '/')
		s--;
	return s;
}

static int fail(struct walk *w, const char *call, int r)
{
	*w->call = call;
	return r;
}

/* ---- two files' lines ---------------------------------------------------------- */

struct text {
	struct ns_lines l;
	bool last_open;               /* the last line has no '\n' */
};

static void text_init(struct text *t, const char *data, size_t len)
{
	t->l = (struct ns_lines)NS_LINES_INIT;
	ns_lines_split(&t->l, data, len);
	t->last_open = len && data[len - 1] != '\n';
}

struct two {
	const struct text *t[2];
};

/* Equal text, and either both or neither the open last line: GNU diff
 * tells "x" at the end of a file from "x\n". */
static bool same_line(const struct ns_diff_input *in, size_t i, size_t j)
{
	const struct two *tw = in->ctx;
	bool oi = tw->t[0]->last_open && i + 1 == in->na;
	bool oj = tw->t[1]->last_open && j + 1 == in->nb;

	return oi == oj && !strcmp(in->a[i], in->b[j]);
}

static void range(struct ns_buf *out, size_t from, size_t to)
{
	ns_buf_addu(out, from);
	if (to > from) {
		ns_buf_addc(out, ',');
		ns_buf_addu(out, to);
	}
}

static void lines(struct ns_buf *out, const struct text *t, size_t from, size_t to,
		  const char *mark)
{
	for (size_t i = from; i < to; i++) {
		ns_buf_adds(out, mark);
		ns_buf_adds(out, t->l.v[i]);
		ns_buf_addc(out, '\n');
		if (t->last_open && i + 1 == t->l.n)
			ns_buf_adds(out, "\\ No newline at end of file\n");
	}
}

/* One change: a[a0..a1) replaced by b[b0..b1), in normal format. */
static void hunk(struct ns_buf *out, const struct text *ta, const struct text *tb,
		 size_t a0, size_t a1, size_t b0, size_t b1)
{
	if (a1 > a0)
		range(out, a0 + 1, a1);
	else
		ns_buf_addu(out, a0);
	ns_buf_addc(out, a1 == a0 ? 'a' : b1 == b0 ? 'd' : 'c');
	if (b1 > b0)
		range(out, b0 + 1, b1);
	else
		ns_buf_addu(out, b0);
	ns_buf_addc(out, '\n');
	lines(out, ta, a0, a1, "< ");
	if (a1 > a0 && b1 > b0)
		ns_buf_adds(out, "---\n");
	lines(out, tb, b0, b1, "> ");
}

/* The hunks of two texts; false when they are the same. */
static bool normal_diff(const struct text *ta, const struct text *tb, struct ns_buf *out)
{
	struct two tw = { { ta, tb } };
	struct ns_diff_input in = {
		.a = (const char *const *)ta->l.v, .na = ta->l.n,
		.b = (const char *const *)tb->l.v, .nb = tb->l.n,
		.eq = same_line, .ctx = &tw,
		/* always a shortest script: no two files are large */
		.max_cost = ta->l.n + tb->l.n + 1,
	};
	struct ns_diff d = NS_DIFF_INIT;
	bool any = false;
	size_t i = 0;

	ns_diff_compute(&in, &d);
	while (i < d.n) {
		size_t a0, b0, a1, b1;

		if (d.v[i].op == NS_DIFF_SAME) {
			i++;
			continue;
		}
		a0 = a1 = d.v[i].a;
		b0 = b1 = d.v[i].b;
		for (; i < d.n && d.v[i].op != NS_DIFF_SAME; i++) {
			if (d.v[i].op == NS_DIFF_DEL)
				a1 = d.v[i].a + 1;
			else
				b1 = d.v[i].b + 1;
		}
		hunk(out, ta, tb, a0, a1, b0, b1);
		any = true;
	}
	ns_diff_free(&d);
	return any;
}

/* ---- the walk -------------------------------------------------------------------- */

static int compare(struct walk *w, const char *p0, const char *p1, bool top);

static int compare_files(struct walk *w, const char *p0, const char *p1, bool top)
{
	char *data[2] = { NULL, NULL };
	size_t len[2];
	struct text t[2];
	struct ns_buf hunks = NS_BUF_INIT;
	int r;

	r = w->ops->read(w->ctx, p0, &data[0], &len[0]);
	if (r < 0)
		return fail(w, "read", r);
	r = w->ops->read(w->ctx, p1, &data[1], &len[1]);
	if (r < 0) {
		free(data[0]);
		return fail(w, "read", r);
	}
	if (len[0] != len[1] || memcmp(data[0], data[1], len[0])) {
		text_init(&t[0], data[0], len[0]);
		text_init(&t[1], data[1], len[1]);
		if (normal_diff(&t[0], &t[1], &hunks)) {
			if (!top)
				ns_buf_addf(w->out, "diff%s%s %s %s\n", w->a->opt ? " " : "",
					    w->a->opt ? w->a->opt : "", p0, p1);
			ns_buf_add(w->out, hunks.data, hunks.len);
			w->differ = true;
		}
		ns_lines_free(&t[0].l);
		ns_lines_free(&t[1].l);
	}
	ns_buf_free(&hunks);
	free(data[0]);
	free(data[1]);
	return 0;
}

static bool same_file(const struct ns_dt_stat *x, const struct ns_dt_stat *y)
{
	return x->dev == y->dev && x->ino == y->ino;
}

/* GNU diff's dir_loop(): the directory is one of its own ancestors. */
static bool looping(const struct walk *w, int side, const struct ns_dt_stat *st)
{
	for (size_t i = 0; i < w->nanc; i++)
		if (same_file(&w->anc[side][i], st))
			return true;
	return false;
}

static void push_anc(struct walk *w, const struct ns_dt_stat st[2])
{
	if (w->nanc == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 8;
		for (int s = 0; s < 2; s++)
			w->anc[s] = xrealloc(w->anc[s], w->cap * sizeof(*w->anc[s]));
	}
	w->anc[0][w->nanc] = st[0];
	w->anc[1][w->nanc++] = st[1];
}

/* Both sides' names, merged in byte order. */
static int compare_dirs(struct walk *w, const char *p0, const char *p1,
			const struct ns_dt_stat st[2])
{
	struct ns_lines n[2] = { NS_LINES_INIT, NS_LINES_INIT };
	size_t i = 0, j = 0;
	int r;

	if (looping(w, 0, &st[0]) && looping(w, 1, &st[1]))
		return fail(w, "diff", -ELOOP);
	r = w->ops->list(w->ctx, p0, &n[0]);
	if (r == 0)
		r = w->ops->list(w->ctx, p1, &n[1]);
	if (r < 0) {
		ns_lines_free(&n[0]);
		return fail(w, "opendir", r);
	}
	ns_lines_sort(&n[0]);
	ns_lines_sort(&n[1]);
	push_anc(w, st);
	while (r == 0 && (i < n[0].n || j < n[1].n)) {
		int c = i == n[0].n ? 1 : j == n[1].n ? -1 : strcmp(n[0].v[i], n[1].v[j]);

		if (c) {
			ns_buf_addf(w->out, "Only in %s: %s\n", c < 0 ? p0 : p1,
				    c < 0 ? n[0].v[i++] : n[1].v[j++]);
			w->differ = true;
			continue;
		}
		char *c0 = join(p0, n[0].v[i++]), *c1 = join(p1, n[1].v[j++]);
		r = compare(w, c0, c1, false);
		free(c0);
		free(c1);
	}
	w->nanc--;
	ns_lines_free(&n[0]);
	ns_lines_free(&n[1]);
	return r;
}

static int compare(struct walk *w, const char *p0, const char *p1, bool top)
{
	struct ns_dt_stat st[2];
	bool dir0, dir1;
	int r = w->ops->stat(w->ctx, p0, &st[0]);

	if (r == 0)
		r = w->ops->stat(w->ctx, p1, &st[1]);
	if (r < 0)
		return fail(w, "stat", r);
	dir0 = S_ISDIR(st[0].mode);
	dir1 = S_ISDIR(st[1].mode);
	if (dir0 && dir1) {
		if (!top && !w->a->opt) {
			ns_buf_addf(w->out, "Common subdirectories: %s and %s\n", p0, p1);
			return 0;
		}
		return compare_dirs(w, p0, p1, st);
	}
	if (top && dir0 != dir1) {
		/* a directory and a file: the file of the same name in the
		 * directory, as GNU diff does */
		char *in = join(dir0 ? p0 : p1, base_name(dir0 ? p1 : p0));
		r = compare(w, dir0 ? in : p0, dir0 ? p1 : in, true);
		free(in);
		return r;
	}
	if (dir0 != dir1 || !S_ISREG(st[0].mode) || !S_ISREG(st[1].mode)) {
		ns_buf_addf(w->out, "File %s is a %s while file %s is a %s\n",
			    p0, ns_stat_type_name(st[0].mode, st[0].size),
			    p1, ns_stat_type_name(st[1].mode, st[1].size));
		w->differ = true;
		return 0;
	}
	return compare_files(w, p0, p1, top);
}

int ns_difftree(const struct ns_diff_args *a, const struct ns_dt_ops *ops, void *ctx,
		struct ns_buf *out, const char **call)
{
	struct walk w = { .a = a, .ops = ops, .ctx = ctx, .out = out, .call = call };
	int r = compare(&w, a->a, a->b, true);

	free(w.anc[0]);
	free(w.anc[1]);
	return r < 0 ? r : w.differ;
}
