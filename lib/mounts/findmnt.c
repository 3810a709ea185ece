/* findmnt.c - see findmnt.h.
 *
 * How findmnt(8) 2.38 behaves, as its manual describes it and as the
 * fixtures in tests/data/findmnt (recorded from the real program) show:
 *  - with no selection it prints the tree from the root mount (the one
 *    with the lowest parent ID, followed up while its parent is in the
 *    table); children come in the order of their mount IDs;
 *  - -l, -r and a selection without -R print a flat list in mountinfo
 *    order; -R prints each selected mount with its submounts, as a tree
 *    unless -l or -r; no mount is printed twice;
 *  - a bare argument is looked for as a source first, then as a target;
 *    a target matches the path as typed or as realpath(3) makes it
 *    (libmount's mnt_fs_match_target, with findmnt's cache); -T falls
 *    back to the mount point that holds the path; -M does not;
 *  - SOURCE shows a bind mount's root in brackets ("devA[/dir]"), and
 *    MAJ:MIN is padded as "%3u:%-3u" except in raw and JSON output;
 *  - PROPAGATION is "shared" or "private", then ",slave", ",unbindable".
 * Columns are declared with findmnt's width hints and flags (the tree on
 * TARGET, IDs right-aligned, IDs as JSON numbers). Output never goes to
 * a terminal, so libsmartcols truncates nothing. */
#include "mounts/findmnt.h"

#include <libmount.h>
#include <libsmartcols.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

struct col_info {
	double whint;
	int flags;
};

static const struct col_info col_info[NS_FINDMNT__NCOLS] = {
	[NS_FINDMNT_TARGET] = { 0.30, SCOLS_FL_NOEXTREMES },
	[NS_FINDMNT_SOURCE] = { 0.25, SCOLS_FL_NOEXTREMES },
	[NS_FINDMNT_FSTYPE] = { 0.10, SCOLS_FL_TRUNC },
	[NS_FINDMNT_OPTIONS] = { 0.10, SCOLS_FL_TRUNC },
	[NS_FINDMNT_VFS_OPTIONS] = { 0.20, SCOLS_FL_TRUNC },
	[NS_FINDMNT_FS_OPTIONS] = { 0.10, SCOLS_FL_TRUNC },
	[NS_FINDMNT_PROPAGATION] = { 0.10, 0 },
	[NS_FINDMNT_ID] = { 2, SCOLS_FL_RIGHT },
	[NS_FINDMNT_PARENT] = { 2, SCOLS_FL_RIGHT },
	[NS_FINDMNT_MAJMIN] = { 6, 0 },
	[NS_FINDMNT_FSROOT] = { 0.25, SCOLS_FL_NOEXTREMES },
	[NS_FINDMNT_SIZE] = { 5, SCOLS_FL_RIGHT },
	[NS_FINDMNT_USED] = { 5, SCOLS_FL_RIGHT },
	[NS_FINDMNT_AVAIL] = { 5, SCOLS_FL_RIGHT },
	[NS_FINDMNT_USEPERC] = { 3, SCOLS_FL_RIGHT },
};

struct render {
	const struct ns_mount_entry *v;
	size_t n;
	const struct ns_findmnt_args *a;
	const struct ns_fs_usage *use; /* statvfs(2) of each target, or NULL */
	struct libscols_table *tb;
	bool tree;            /* lines hang under their parent's line */
	bool *done;           /* v[i] has its line */
	size_t nlines;
};

static void die_nomem(void)
{
	abort(); /* libsmartcols fails only when out of memory */
}

static char *propagation(unsigned long fl)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s%s%s", fl & MS_SHARED ? "shared" : "private",
		 fl & MS_SLAVE ? ",slave" : "", fl & MS_UNBINDABLE ? ",unbindable" : "");
	return xstrdup(buf);
}

/* The cell of column c for e, on the heap, or NULL for an empty cell. */
static char *cell(const struct render *r, const struct ns_mount_entry *e,
		  enum ns_findmnt_col c)
{
	char *s = NULL;

	switch (c) {
	case NS_FINDMNT_TARGET:
		return e->target ? xstrdup(e->target) : NULL;
	case NS_FINDMNT_SOURCE:
		if (!e->srcpath)
			return NULL;
		if (e->root && strcmp(e->root, "/") != 0)
			return xasprintf("%s[%s]", e->srcpath, e->root);
		return xstrdup(e->srcpath);
	case NS_FINDMNT_FSTYPE:
		return e->fstype ? xstrdup(e->fstype) : NULL;
	case NS_FINDMNT_OPTIONS:
		return e->mount_options ? xstrdup(e->mount_options) : NULL;
	case NS_FINDMNT_VFS_OPTIONS:
		return e->vfs_options ? xstrdup(e->vfs_options) : NULL;
	case NS_FINDMNT_FS_OPTIONS:
		return e->fs_options ? xstrdup(e->fs_options) : NULL;
	case NS_FINDMNT_PROPAGATION:
		return propagation(e->propagation);
	case NS_FINDMNT_ID:
		return xasprintf("%u", e->id);
	case NS_FINDMNT_PARENT:
		return xasprintf("%u", e->parent);
	case NS_FINDMNT_MAJMIN:
		if (!e->major && !e->minor)
			return NULL;
		if (r->a->raw || r->a->json)
			return xasprintf("%u:%u", e->major, e->minor);
		return xasprintf("%3u:%-3u", e->major, e->minor);
	case NS_FINDMNT_FSROOT:
		return e->root ? xstrdup(e->root) : NULL;
	case NS_FINDMNT_SIZE:
	case NS_FINDMNT_USED:
	case NS_FINDMNT_AVAIL:
	case NS_FINDMNT_USEPERC:
		return r->use ? ns_findmnt_size_cell(c, &r->use[e - r->v]) : NULL;
	case NS_FINDMNT__NCOLS:
		break;
	}
	return s;
}

static struct libscols_line *add_line(struct render *r, size_t i,
				      struct libscols_line *parent)
{
	struct libscols_line *ln = scols_table_new_line(r->tb, r->tree ? parent : NULL);

	if (!ln)
		die_nomem();
	r->done[i] = true;
	r->nlines++;
	for (size_t c = 0; c < r->a->ncols; c++) {
		char *s = cell(r, &r->v[i], r->a->cols[c]);

		if (s && scols_line_refer_data(ln, c, s) < 0)
			die_nomem();
	}
	return ln;
}

/* The next child of v[p] after the one with ID `after` (0: the first),
 * by mount ID, among the mounts without a line yet; n when none. */
static size_t next_child(const struct render *r, size_t p, unsigned after,
			 bool first)
{
	size_t best = r->n;

	for (size_t j = 0; j < r->n; j++) {
		const struct ns_mount_entry *e = &r->v[j];

		if (j == p || r->done[j] || e->parent != r->v[p].id)
			continue;
		if (!first && e->id <= after)
			continue;
		if (best == r->n || e->id < r->v[best].id)
			best = j;
	}
	return best;
}

/* Does v[i] pass -t and --real? libmount decides, as for findmnt: the
 * type list with its "no" negation (mnt_match_fstype), and its list of
 * pseudo filesystems (mnt_fstype_is_pseudofs). */
static bool wanted(const struct render *r, size_t i)
{
	const char *type = r->v[i].fstype ? r->v[i].fstype : "";

	if (r->a->types && !mnt_match_fstype(type, r->a->types))
		return false;
	if (r->a->df && strstr(type, "tmpfs")) /* -D: tmpfs is wanted */
		return true;
	if (r->a->df && mnt_fstype_is_pseudofs(type))
		return false;
	return !(r->a->real && mnt_fstype_is_pseudofs(type));
}

/* v[i]'s line and, under it, its submounts' lines, depth first; a mount
 * that -t or --real leaves out gets no line, and its submounts hang under
 * the nearest line above it, or are roots (findmnt's create_treenode). */
static void add_subtree(struct render *r, size_t i, struct libscols_line *parent)
{
	struct libscols_line *ln = parent;
	unsigned after = 0;

	if (wanted(r, i))
		ln = add_line(r, i, parent);
	else
		r->done[i] = true;

	for (bool first = true;; first = false) {
		size_t c = next_child(r, i, after, first);

		if (c == r->n)
			return;
		after = r->v[c].id;
		add_subtree(r, c, ln);
	}
}

/* The root of the tree: the mount with the lowest parent ID, then up its
 * parents while they are in the table. */
static size_t root_of(const struct render *r)
{
	size_t root = 0;

	for (size_t i = 1; i < r->n; i++)
		if (r->v[i].parent < r->v[root].parent)
			root = i;
	for (size_t steps = 0; steps < r->n; steps++) {
		size_t up = r->n;

		for (size_t j = 0; j < r->n; j++)
			if (j != root && r->v[j].id == r->v[root].parent)
				up = j;
		if (up == r->n)
			break;
		root = up;
	}
	return root;
}

/* Two paths name the same target when equal but for trailing slashes. */
static bool same_path(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	return la == lb && strncmp(a, b, la) == 0;
}

/* want: the path or source as typed; canon: the path resolved, or NULL */
static bool matches(const struct ns_mount_entry *e, const char *want, const char *canon,
		    bool source)
{
	if (source)
		return e->srcpath && strcmp(e->srcpath, want) == 0;
	return e->target && (same_path(e->target, want) || (canon && !strcmp(e->target, canon)));
}

/* Every mount that matches, in mountinfo order; returns how many. */
static size_t add_matching(struct render *r, const char *want, const char *canon, bool source)
{
	size_t found = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (r->done[i] || !matches(&r->v[i], want, canon, source) || !wanted(r, i))
			continue;
		found++;
		if (r->a->submounts)
			add_subtree(r, i, NULL);
		else
			add_line(r, i, NULL);
	}
	return found;
}

static void add_selected(struct render *r, const char *canon, const char *resolved)
{
	const struct ns_findmnt_args *a = r->a;

	switch (a->select) {
	case NS_FINDMNT_ALL:
		if (r->tree) {
			add_subtree(r, root_of(r), NULL);
			return;
		}
		for (size_t i = 0; i < r->n; i++)
			if (wanted(r, i))
				add_line(r, i, NULL);
		return;
	case NS_FINDMNT_SPEC:
		if (!add_matching(r, a->path, NULL, true))
			add_matching(r, a->path, canon, false);
		return;
	case NS_FINDMNT_TARGET_PATH:
		if (!add_matching(r, a->path, canon, false) && resolved)
			add_matching(r, resolved, NULL, false);
		return;
	case NS_FINDMNT_MOUNTPOINT:
		add_matching(r, a->path, canon, false);
		return;
	case NS_FINDMNT_BY_SOURCE:
		add_matching(r, a->path, NULL, true);
		return;
	}
}

static void add_columns(struct render *r)
{
	for (size_t c = 0; c < r->a->ncols; c++) {
		enum ns_findmnt_col id = r->a->cols[c];
		int flags = col_info[id].flags;
		struct libscols_column *cl;

		if (r->tree && id == NS_FINDMNT_TARGET)
			flags |= SCOLS_FL_TREE;
		cl = scols_table_new_column(r->tb, ns_findmnt_col_name(id),
					    col_info[id].whint, flags);
		if (!cl)
			die_nomem();
		if (r->a->json && (id == NS_FINDMNT_ID || id == NS_FINDMNT_PARENT))
			scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
	}
}

/* The C.UTF-8 locale, loaded once and kept for the process (a cache of
 * an answer that cannot change; see docs/architecture.md). */
static locale_t utf8_locale;

void ns_findmnt_prepare(void)
{
	if (!utf8_locale)
		utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* Print in a UTF-8 locale, as findmnt does in one: the tree's line
 * characters and the cells' widths depend on it, and this thread alone
 * switches (the process's locale stays as it is). */
static void print_table(struct render *r, struct ns_buf *out)
{
	locale_t old = (locale_t)0;
	char *text = NULL;

	ns_findmnt_prepare();
	if (utf8_locale)
		old = uselocale(utf8_locale);
	if (scols_print_table_to_string(r->tb, &text) < 0)
		die_nomem();
	if (utf8_locale)
		uselocale(old);
	ns_buf_adds(out, text);
	/* findmnt's output ends with a newline; the string form has none */
	if (*text && text[strlen(text) - 1] != '\n')
		ns_buf_addc(out, '\n');
	free(text);
}

size_t ns_findmnt_render(const struct ns_mount_entry *v, size_t n,
			 const struct ns_findmnt_args *a, const char *canon,
			 const char *resolved, const struct ns_fs_usage *use, struct ns_buf *out)
{
	struct render r = { .v = v, .n = n, .a = a, .use = use };

	if (!n)
		return 0;
	r.tb = scols_new_table();
	if (!r.tb)
		die_nomem();
	r.done = xcalloc(n, sizeof(*r.done));
	r.tree = ns_findmnt_is_tree(a);
	scols_table_set_name(r.tb, "filesystems");
	scols_table_enable_raw(r.tb, a->raw);
	scols_table_enable_json(r.tb, a->json);
	scols_table_enable_noheadings(r.tb, a->noheadings);
	scols_table_set_termforce(r.tb, SCOLS_TERMFORCE_NEVER);
	add_columns(&r);
	add_selected(&r, canon, resolved);
	if (r.nlines)
		print_table(&r, out);
	scols_unref_table(r.tb);
	free(r.done);
	return r.nlines;
}
