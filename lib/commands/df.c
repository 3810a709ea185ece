/* df.c - df(1) of coreutils 9.1: its parser, its definition, and the
 * table every backend prints through. The backend only reads its mount
 * table and asks stat(2), statvfs(2) and realpath(3); which mounts df
 * shows, and how, is decided here as coreutils' src/df.c decides it
 * (9.1, built without libmount as Debian builds it: gnulib's mountlist
 * reads /proc/self/mountinfo):
 *  - with no FILE, every mount in mountinfo order, less the "dummy" types
 *    (ME_DUMMY: proc, sysfs, devpts, autofs, ...), and one mount per
 *    device, the device being stat(2)'s st_dev of the mount point
 *    (filter_mount_list(): a source with a '/' beats one without, then
 *    the mount point nearer the root unless its root in the filesystem is
 *    deeper, then a mount over the same mount point with another source;
 *    the one kept stays where its device was first seen), and less
 *    filesystems without blocks (ramfs);
 *  - with FILEs, per FILE the mount whose mount point is the longest
 *    prefix of realpath(FILE), the last such, if stat(2) of its mount
 *    point gives FILE's st_dev, else the last mount whose MAJ:MIN is
 *    FILE's st_dev and whose mount point still stats to it (get_point());
 *    dummies and empty filesystems are shown then;
 *  - columns Filesystem, [Type,] 1K-blocks (or -h's Size), Used,
 *    Available (Avail), Use%, Mounted on; each as wide as its widest cell
 *    and at least 14, 4, 5, 5, 5, 4 and 0; sizes right-aligned; one blank
 *    between columns, none after the last (print_table()).
 * The sizes are free in the judge (match/match_free.c). */
#include "commands/command.h"

#include <string.h>

#include "commands/args.h"

/* ---- the parser ------------------------------------------------------------ */

static const struct ns_long_option df_longs[] = {
	{ "df", "--human-readable", 'h' }, { "df", "--print-type", 'T' },
};

static void free_df_args(void *p)
{
	struct ns_df_args *a = p;

	free(a->files);
	free(a);
}

/* df [-hkT] [FILE...]: options anywhere before "--", as getopt permutes */
static int parse_df(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_df_args *a = xcalloc(1, sizeof(*a));
	bool ended = false;

	st->args = a;
	a->files = xcalloc(st->argc, sizeof(*a->files));
	for (size_t i = 1; i < st->argc; i++) {
		const char *w = st->argv[i];

		if (ended || w[0] != '-' || !w[1]) {
			a->files[a->nfiles++] = w;
			continue;
		}
		if (!strcmp(w, "--")) {
			ended = true;
			continue;
		}
		if (!strcmp(w, "--human-readable") || !strcmp(w, "--print-type")) {
			a->human |= w[2] == 'h';
			a->type |= w[2] == 'p';
			continue;
		}
		if (w[1] == '-')
			return ns_parse_long_option_fail(df_longs, NS_ARRAY_SIZE(df_longs), "df", w,
							 i, e);
		for (const char *f = w + 1; *f; f++) {
			if (!strchr("hkT", *f))
				return ns_parse_fail(e, i, "df: option -%c is not supported (nstest knows -h, -k and -T)",
						     *f);
			a->human |= *f == 'h';
			a->human &= *f != 'k'; /* the last of -h and -k wins */
			a->type |= *f == 'T';
		}
	}
	return 0;
}

/* Filesystem [Type] Size Used Avail Use% Mounted on: the sizes free */
static bool df_shape(const void *args, struct ns_match_shape *out)
{
	const struct ns_df_args *a = args;
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	out->form = NS_MATCH_WORDS;
	out->cols[k++] = NS_MATCH_COL_TEXT;
	if (a->type)
		out->cols[k++] = NS_MATCH_COL_TEXT;
	out->cols[k++] = NS_MATCH_COL_SIZE;
	out->cols[k++] = NS_MATCH_COL_SIZE;
	out->cols[k++] = NS_MATCH_COL_SIZE;
	out->cols[k++] = NS_MATCH_COL_PERCENT;
	out->cols[k++] = NS_MATCH_COL_TEXT;
	out->ncols = k;
	return true;
}

static bool df_messages(const struct ns_stage *st, struct ns_msg_ctx *c)
{
	const struct ns_df_args *a = st->args;

	c->cmd = "df";
	c->what = NS_ULMSG_FILES;
	c->targets = a->files;
	c->ntargets = a->nfiles;
	return true;
}

const struct ns_cmd_def ns_cmd_df[] = {
	{ .name = "df", .id = NS_CMD_DF, .parse = parse_df, .free_args = free_df_args,
	  .shape = df_shape, .messages = df_messages },
};
const size_t ns_cmd_df_count = NS_ARRAY_SIZE(ns_cmd_df);

/* ---- which mounts ------------------------------------------------------------ */

/* gnulib's ME_DUMMY for Linux: types that are no storage ("none" is one
 * unless bind-mounted, which mountinfo does not say) */
static bool dummy(const char *type)
{
	static const char *const types[] = {
		"autofs", "proc", "subfs", "debugfs", "devpts", "fusectl", "fuse.portal",
		"mqueue", "rpc_pipefs", "sysfs", "devfs", "kernfs", "ignore", "none",
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(types); i++)
		if (!strcmp(type, types[i]))
			return true;
	return false;
}

/* gnulib's ME_REMOTE: a source "host:path" (or //host/share of smbfs/cifs) */
static bool remote(const struct ns_df_mount *m)
{
	return strchr(m->source, ':') ||
	       (!strncmp(m->source, "//", 2) &&
		(!strcmp(m->fstype, "smbfs") || !strcmp(m->fstype, "smb3") ||
		 !strcmp(m->fstype, "cifs")));
}

/* Whether m replaces the mount seen before on its device (see above). */
static bool replaces(const struct ns_df_mount *seen, const struct ns_df_mount *m)
{
	bool nearer = strlen(seen->target) > strlen(m->target);
	bool below = strlen(seen->root) < strlen(m->root);

	return (strchr(m->source, '/') && !strchr(seen->source, '/')) || (nearer && !below) ||
	       (strcmp(seen->source, m->source) && !strcmp(m->target, seen->target));
}

/* filter_mount_list(): into keep[], the mounts df shows with no FILE, in
 * their order; returns how many. */
static size_t filter(const struct ns_df_mount *v, size_t n, size_t *keep)
{
	unsigned long long *dev = xcalloc(n + 1, sizeof(*dev));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ns_df_mount *m = &v[i];
		size_t s = k;

		if (dummy(m->fstype) || !m->reached) {
			dev[k] = m->dev;
			keep[k++] = i;
			continue;
		}
		/* the last one kept with this device */
		for (size_t j = k; j-- > 0;)
			if (dev[j] == m->st_dev) {
				s = j;
				break;
			}
		if (s == k) {
			dev[k] = m->st_dev;
			keep[k++] = i;
		} else if (remote(m) && remote(&v[keep[s]]) && strcmp(v[keep[s]].source, m->source)) {
			dev[k] = m->st_dev;
			keep[k++] = i;
		} else if (replaces(&v[keep[s]], m)) {
			keep[s] = i;
		}
	}
	free(dev);
	return k;
}

/* get_point(): the mount FILE f is on, or n */
static size_t mount_of(const struct ns_df_mount *v, size_t n, const struct ns_df_file *f)
{
	size_t best = n, best_len = 0, rlen = f->canon ? strlen(f->canon) : 0;

	for (size_t i = 0; f->canon && f->canon[0] == '/' && i < n; i++) {
		size_t len = strlen(v[i].target);

		if (!strcmp(v[i].fstype, "lofs") ||
		    (best < n && !dummy(v[best].fstype) && dummy(v[i].fstype)))
			continue;
		if (best_len <= len && len <= rlen &&
		    (len == 1 || ((len == rlen || f->canon[len] == '/') &&
				  !strncmp(v[i].target, f->canon, len)))) {
			best = i;
			best_len = len;
		}
	}
	if (best < n && (!v[best].reached || v[best].st_dev != f->st_dev))
		best = n;
	if (best < n)
		return best;
	for (size_t i = 0; i < n; i++)
		if (f->st_dev == v[i].dev && strcmp(v[i].fstype, "lofs") &&
		    (best == n || dummy(v[best].fstype) || !dummy(v[i].fstype)) &&
		    v[i].reached && v[i].st_dev == v[i].dev)
			best = i;
	return best;
}

/* ---- the table --------------------------------------------------------------- */

enum { C_SOURCE, C_TYPE, C_SIZE, C_USED, C_AVAIL, C_PCENT, C_TARGET, C__N };

struct table {
	const struct ns_df_args *a;
	char **cells;         /* rows of C__N, NULL for a column not shown */
	size_t nrows, cap;
	size_t width[C__N];
};

/* human_readable() of coreutils with -h (powers of 1024, rounded up, one
 * decimal below 10) or 1K blocks rounded up */
static char *size_text(const struct table *t, unsigned long long bytes)
{
	static const char units[] = "KMGTPEZY";
	unsigned long long p = 1024, q, r, tenths;
	int u = 0;

	if (!t->a->human)
		return xasprintf("%llu", bytes / 1024 + (bytes % 1024 != 0));
	if (bytes < 1024)
		return xasprintf("%llu", bytes);
	while (u < 5 && bytes / p >= 1024) {
		p *= 1024;
		u++;
	}
	q = bytes / p;
	r = bytes % p;
	tenths = q * 10 + (r * 10 + p - 1) / p;
	if (tenths < 100)
		return xasprintf("%llu.%llu%c", tenths / 10, tenths % 10, units[u]);
	q += r != 0;
	if (q >= 1024)
		return xasprintf("1.0%c", units[u + 1]);
	return xasprintf("%llu%c", q, units[u]);
}

static void add_row(struct table *t, char *cell[C__N])
{
	void *p = t->cells;

	ns_grow(&p, &t->cap, (t->nrows + 1) * C__N, sizeof(char *));
	t->cells = p;
	for (int c = 0; c < C__N; c++) {
		t->cells[t->nrows * C__N + c] = cell[c];
		if (cell[c] && strlen(cell[c]) > t->width[c])
			t->width[c] = strlen(cell[c]);
	}
	t->nrows++;
}

static void heading(struct table *t)
{
	bool h = t->a->human;
	char *cell[C__N] = {
		xstrdup("Filesystem"), t->a->type ? xstrdup("Type") : NULL,
		xstrdup(h ? "Size" : "1K-blocks"), xstrdup("Used"),
		xstrdup(h ? "Avail" : "Available"), xstrdup("Use%"), xstrdup("Mounted on"),
	};
	static const size_t min[C__N] = { 14, 4, 5, 5, 5, 4, 0 };

	memcpy(t->width, min, sizeof(min));
	add_row(t, cell);
}

/* get_dev()'s row: used is blocks less free ones, Use% used over used
 * and available, rounded up */
static void row(struct table *t, const struct ns_df_mount *m, const struct ns_fs_usage *u)
{
	unsigned long long used = u->blocks - u->bfree, sum = used + u->bavail;
	char *cell[C__N] = {
		xstrdup(m->source), t->a->type ? xstrdup(m->fstype) : NULL,
		size_text(t, u->blocks * u->frsize), size_text(t, used * u->frsize),
		size_text(t, u->bavail * u->frsize),
		sum ? xasprintf("%llu%%", (used * 100 + sum - 1) / sum) : xstrdup("-"),
		xstrdup(m->target),
	};

	add_row(t, cell);
}

static void print(struct table *t, struct ns_buf *out)
{
	static const bool right[C__N] = { [C_SIZE] = true, [C_USED] = true, [C_AVAIL] = true,
					  [C_PCENT] = true };

	for (size_t r = 0; r < t->nrows; r++) {
		bool first = true;

		for (int c = 0; c < C__N; c++) {
			const char *s = t->cells[r * C__N + c];
			int w = (int)t->width[c];

			if (!s)
				continue;
			if (!first)
				ns_buf_addc(out, ' ');
			first = false;
			if (c == C_TARGET)
				ns_buf_adds(out, s);
			else
				ns_buf_addf(out, right[c] ? "%*s" : "%-*s", w, s);
			free(t->cells[r * C__N + c]);
		}
		ns_buf_addc(out, '\n');
	}
	free(t->cells);
}

void ns_df_render(const struct ns_df_args *a, const struct ns_df_mount *v, size_t n,
		  const struct ns_df_file *f, size_t nf, struct ns_buf *out)
{
	struct table t = { .a = a };

	heading(&t);
	if (!nf) {
		size_t *keep = xcalloc(n + 1, sizeof(*keep)), k = filter(v, n, keep);

		for (size_t i = 0; i < k; i++) {
			const struct ns_df_mount *m = &v[keep[i]];

			if (!dummy(m->fstype) && m->use.ok && m->use.blocks)
				row(&t, m, &m->use);
		}
		free(keep);
	}
	for (size_t i = 0; i < nf; i++) {
		size_t m = mount_of(v, n, &f[i]);

		/* no mount found: df names the mount point find_mount_point()
		 * walks up to, with "-" for source and type; nstest prints no
		 * row (its tables always hold the root) */
		if (m < n && f[i].use.ok)
			row(&t, &v[m], &f[i].use);
	}
	print(&t, out);
}

/* ---- findmnt -D's cells ------------------------------------------------------- */

/* util-linux's size_to_human_string(SIZE_SUFFIX_1LETTER): the unit's
 * letter, one decimal rounded when there is a fraction */
static char *human_1letter(unsigned long long bytes)
{
	static const char letters[] = "BKMGTPE";
	int exp = 0;
	unsigned long long dec, frac;

	while (exp < 60 && bytes >= 1ULL << (exp + 10))
		exp += 10;
	dec = exp ? bytes >> exp : bytes;
	frac = exp ? bytes & ((1ULL << exp) - 1) : 0;
	if (frac) {
		frac = (frac * 1000 / (1ULL << exp) + 50) / 100;
		if (frac == 10) {
			dec++;
			frac = 0;
		}
	}
	if (frac)
		return xasprintf("%llu.%llu%c", dec, frac, letters[exp / 10]);
	return xasprintf("%llu%c", dec, letters[exp / 10]);
}

char *ns_findmnt_size_cell(enum ns_findmnt_col c, const struct ns_fs_usage *u)
{
	unsigned long long v = 0;

	if (!u->ok)
		return NULL;
	switch (c) {
	case NS_FINDMNT_SIZE:
		v = u->frsize * u->blocks;
		break;
	case NS_FINDMNT_AVAIL:
		v = u->frsize * u->bavail;
		break;
	case NS_FINDMNT_USED:
		v = u->frsize * (u->blocks - u->bfree);
		break;
	case NS_FINDMNT_USEPERC:
		if (!u->blocks)
			return xstrdup("-");
		return xasprintf("%.0f%%", (double)(u->blocks - u->bfree) / (double)u->blocks * 100);
	default:
		return NULL;
	}
	return v ? human_1letter(v) : xstrdup("0");
}
