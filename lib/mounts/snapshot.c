/* snapshot.c - a terminal's mount table, parsed by libmount and rendered
 * back as the kernel (mountinfo) or mount(8) prints it. See snapshot.h.
 *
 * libmount does the parsing; this file only knows how the kernel and
 * mount(8) print what libmount hands back. Quirks worth knowing:
 *  - libmount unescapes every field, so rendering escapes again exactly
 *    the characters the kernel escapes in that field;
 *  - parse errors are "recoverable" by default and the line is dropped
 *    silently, so an error callback records them and we fail instead;
 *  - libmount guesses the format from the first line and would read
 *    anything else as fstab, so every entry must be a kernel entry;
 *  - libmount replaces the source "/dev/root" by its guess of the real
 *    root device; mountinfo must still show what the kernel printed.
 */
#include "mounts/snapshot.h"

#include "mounts/mountinfo_line.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* What the kernel escapes as \ooo (fs/proc_namespace.c): paths go
 * through seq_path/seq_dentry, the fstype and the source through
 * mangle(), which also escapes '#' on current kernels. Option values
 * are escaped by seq_show_option, which also escapes ',' and '='; those
 * two cannot be told apart from separators once libmount unescaped
 * them, so only the characters below are restored in options. */
#define PATH_SPECIALS   " \t\n\\"
#define NAME_SPECIALS   " \t\n\\#"
#define OPTION_SPECIALS " \t\n\\"

struct ns_snapshot {
	struct libmnt_table *tb;
	int bad_line;            /* first line libmount rejected, or 0 */
	struct ns_lines kept;    /* sources libmount rewrote, as printed */
	struct ns_mount_entry *v; /* strings point into tb's entries, or own */
	size_t n;
	char *own;               /* the strings of a snapshot made from entries */
};

static void free_iterp(struct libmnt_iter **it)
{
	mnt_free_iter(*it);
}

#define _cleanup_iter_ __attribute__((cleanup(free_iterp)))

/* libmount's parser calls this for a line it cannot parse. Remember the
 * first one and stop: a snapshot is all of the table or nothing. */
static int note_bad_line(struct libmnt_table *tb, const char *filename,
			 int line)
{
	struct ns_snapshot *s = mnt_table_get_userdata(tb);

	(void)filename;
	if (!s->bad_line)
		s->bad_line = line > 0 ? line : 1;
	return -EINVAL;
}

static struct libmnt_iter *new_iter(void)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);

	if (!it)
		abort(); /* only fails when out of memory */
	return it;
}

/* Append s with every character of `specials` written as \ooo. The
 * plain runs between them go in whole (most fields have no special). */
static void add_escaped(struct ns_buf *b, const char *s, const char *specials)
{
	const char *p = s ? s : "";

	for (;;) {
		size_t run = strcspn(p, specials);
		char esc[4];

		ns_buf_add(b, p, run);
		p += run;
		if (!*p)
			return;
		esc[0] = '\\';
		esc[1] = (char)('0' + (((unsigned char)*p >> 6) & 7));
		esc[2] = (char)('0' + (((unsigned char)*p >> 3) & 7));
		esc[3] = (char)('0' + ((unsigned char)*p & 7));
		ns_buf_add(b, esc, sizeof(esc));
		p++;
	}
}

/* The text the kernel printed as this mount's line; the raw line is
 * found by the "ID PARENT " it starts with, searching on from *pos. */
static const char *raw_line_of(struct libmnt_fs *fs, struct ns_lines *raw,
			       size_t *pos)
{
	char head[64];

	snprintf(head, sizeof(head), "%d %d ", mnt_fs_get_id(fs),
		 mnt_fs_get_parent_id(fs));
	for (size_t i = *pos; i < raw->n; i++) {
		if (strncmp(raw->v[i], head, strlen(head)) == 0) {
			*pos = i + 1;
			return raw->v[i];
		}
	}
	return NULL;
}

/* True when the kernel printed "/dev/root" as this mount's source, that
 * is when the line holds " - FSTYPE /dev/root " (the first " - " ends
 * the optional fields; spaces inside fields are escaped). */
static bool kernel_said_dev_root(struct libmnt_fs *fs, const char *line)
{
	struct ns_buf needle = NS_BUF_INIT;
	bool found;

	ns_buf_adds(&needle, " - ");
	add_escaped(&needle, mnt_fs_get_fstype(fs), NAME_SPECIALS);
	ns_buf_adds(&needle, " /dev/root ");
	found = line && strstr(line, needle.data) != NULL;
	ns_buf_free(&needle);
	return found;
}

/* Undo libmount's /dev/root rewrite for mountinfo: keep the kernel's
 * name as the entry's userdata, and leave the rewritten source for the
 * mount(8) view, which shows the rewrite too. */
static void keep_kernel_sources(struct ns_snapshot *s, const char *text,
				size_t len)
{
	struct ns_lines raw = NS_LINES_INIT;
	_cleanup_iter_ struct libmnt_iter *it = new_iter();
	struct libmnt_fs *fs;
	size_t pos = 0;

	if (len == 0 || !memmem(text, len, "/dev/root", 9))
		return;
	ns_lines_split(&raw, text, len);
	while (mnt_table_next_fs(s->tb, it, &fs) == 0) {
		const char *src = mnt_fs_get_source(fs);
		const char *line = raw_line_of(fs, &raw, &pos);

		if (src && strcmp(src, "/dev/root") != 0 &&
		    kernel_said_dev_root(fs, line)) {
			ns_lines_push(&s->kept, "/dev/root");
			mnt_fs_set_userdata(fs, s->kept.v[s->kept.n - 1]);
		}
	}
	ns_lines_free(&raw);
}

/* Every entry must come from the mountinfo parser: libmount reads text
 * whose first line does not look like mountinfo as fstab. */
static bool all_kernel_entries(struct libmnt_table *tb)
{
	_cleanup_iter_ struct libmnt_iter *it = new_iter();
	struct libmnt_fs *fs;

	while (mnt_table_next_fs(tb, it, &fs) == 0)
		if (!mnt_fs_is_kernel(fs))
			return false;
	return true;
}

static int parse_stream(struct ns_snapshot *s, FILE *f)
{
	int rc;

	mnt_table_set_userdata(s->tb, s);
	mnt_table_set_parser_errcb(s->tb, note_bad_line);
	/* The name is for libmount's messages; the format is told by the
	 * lines. libmount resolves the name with realpath(3) to find a
	 * /proc/TID in it: a /proc path costs four readlink(2) calls, a
	 * relative one getcwd(2) and readlink(2), both a table, where "/"
	 * costs nothing and means no thread. */
	rc = mnt_table_parse_stream(s->tb, f, "/");
	if (ferror(f))
		return -EIO;
	if (s->bad_line || !all_kernel_entries(s->tb))
		return -EINVAL;
	return rc < 0 ? rc : 0;
}

/* The source as the kernel printed it (see keep_kernel_sources). */
static const char *kernel_source(struct libmnt_fs *fs)
{
	const char *kept = mnt_fs_get_userdata(fs);

	return kept ? kept : mnt_fs_get_source(fs);
}

/* mount(8) runs the source of a regular (block device) filesystem
 * through mnt_pretty_path(), which canonicalises it in mount(8)'s own
 * filesystem view and turns an empty one into "none". Only the textual
 * part is reproduced: a scenario's sources are stand-in names that do
 * not exist as paths where the terminal runs. */
static const char *mount8_source(struct libmnt_fs *fs)
{
	const char *src = mnt_fs_get_source(fs);

	if (!src || (!*src && mnt_fs_is_regularfs(fs)))
		return "none";
	return src;
}

/* One entry per libmount entry, its strings borrowed from the table. */
static void fill_entries(struct ns_snapshot *s)
{
	_cleanup_iter_ struct libmnt_iter *it = new_iter();
	struct libmnt_fs *fs;
	int n = mnt_table_get_nents(s->tb);

	s->v = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*s->v));
	while (mnt_table_next_fs(s->tb, it, &fs) == 0) {
		struct ns_mount_entry *e = &s->v[s->n++];
		dev_t dev = mnt_fs_get_devno(fs);
		const char *fields = mnt_fs_get_optional_fields(fs);

		/* the kernel prints both IDs as non-negative ints */
		e->id = (unsigned)mnt_fs_get_id(fs);
		e->parent = (unsigned)mnt_fs_get_parent_id(fs);
		e->major = major(dev);
		e->minor = minor(dev);
		e->root = mnt_fs_get_root(fs);
		e->target = mnt_fs_get_target(fs);
		e->vfs_options = mnt_fs_get_vfs_options(fs);
		e->fields = fields ? fields : "";
		e->fstype = mnt_fs_get_fstype(fs);
		e->source = kernel_source(fs);
		e->fs_options = mnt_fs_get_fs_options(fs);
		e->mount_source = mount8_source(fs);
		e->mount_options = mnt_fs_get_options(fs); /* VFS and FS merged */
		e->srcpath = mnt_fs_get_srcpath(fs);
		if (!e->srcpath)
			e->srcpath = mnt_fs_get_source(fs);
		if (mnt_fs_get_propagation(fs, &e->propagation) < 0)
			e->propagation = 0;
	}
}

int ns_snapshot_parse(const char *text, size_t len, struct ns_snapshot **out)
{
	struct ns_snapshot *s = xcalloc(1, sizeof(*s));
	_cleanup_fclose_ FILE *f = NULL;
	int rc = 0;

	*out = NULL;
	s->tb = mnt_new_table();
	if (!s->tb) {
		free(s);
		return -ENOMEM;
	}
	/* fmemopen() refuses an empty buffer; no text is no mounts. */
	if (len > 0) {
		f = fmemopen((void *)(uintptr_t)text, len, "r");
		rc = f ? parse_stream(s, f) : -errno;
	}
	if (rc < 0) {
		ns_snapshot_free(s);
		return rc;
	}
	keep_kernel_sources(s, text, len);
	fill_entries(s);
	*out = s;
	return 0;
}

static void render_mountinfo_line(const struct ns_mount_entry *e, struct ns_buf *b);

/* What libmount makes of a mount, apart from its IDs and its place,
 * depends only on the rest of its line: the device, the options, the
 * optional fields, the type and the source. A model renders the same few
 * combinations over and over (a fuzz run thousands of times a second), so
 * each is parsed once, as the line "1 1 DEV / / REST", and remembered.
 * The memo is flushed whole when it fills up; no snapshot points into it. */
#define MEMO_SLOTS 1024 /* a power of two; flushed at half full */

struct memo {
	char *key[MEMO_SLOTS];               /* the line parsed, or NULL */
	struct ns_snapshot *parsed[MEMO_SLOTS]; /* its one-entry parse */
	size_t used;
};

static struct memo memo;

static void memo_flush(void)
{
	for (size_t i = 0; i < MEMO_SLOTS; i++) {
		free(memo.key[i]);
		ns_snapshot_free(memo.parsed[i]);
		memo.key[i] = NULL;
		memo.parsed[i] = NULL;
	}
	memo.used = 0;
}

/* FNV-1a of s, as an index into a table of `slots` (a power of two). */
static size_t text_hash(const char *s, size_t len, size_t slots)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return (size_t)h & (slots - 1);
}

static size_t memo_hash(const char *s, size_t len)
{
	return text_hash(s, len, MEMO_SLOTS);
}

/* The parse of e's line with its IDs and places set aside, or NULL with
 * *rc set when libmount refuses the line. line is scratch space. */
static const struct ns_mount_entry *memo_parse(const struct ns_mount_entry *e,
					       struct ns_buf *line, int *rc)
{
	struct ns_mount_entry rest = *e;
	size_t i;

	rest.id = rest.parent = 1;
	rest.root = rest.target = "/";
	ns_buf_reset(line);
	render_mountinfo_line(&rest, line);
	for (i = memo_hash(line->data, line->len); memo.key[i]; i = (i + 1) & (MEMO_SLOTS - 1))
		if (strcmp(memo.key[i], line->data) == 0)
			return ns_snapshot_entries(memo.parsed[i]);
	*rc = ns_snapshot_parse(line->data, line->len, &memo.parsed[i]);
	if (*rc < 0)
		return NULL;
	if (ns_snapshot_count(memo.parsed[i]) != 1) {
		ns_snapshot_free(memo.parsed[i]);
		memo.parsed[i] = NULL;
		*rc = -EINVAL;
		return NULL;
	}
	memo.key[i] = xstrdup(line->data);
	memo.used++;
	return ns_snapshot_entries(memo.parsed[i]);
}

/* ---- mountinfo as the kernel printed it ---------------------------------
 *
 * `cat /proc/self/mountinfo` prints the parse's rendering, which is the
 * kernel's text itself whenever libmount reads each line back unchanged.
 * A line is taken as it is when it has no escape (no backslash, no tab),
 * its numbers are plain decimal, its root and target are no "(deleted)"
 * libmount would cut off, and the rest after the target (the device with
 * the options, fields, type and source) was seen to come back unchanged
 * from libmount's parse in this process before: the first time a rest
 * appears, "1 1 DEV / / REST" goes through ns_snapshot_parse() and its
 * rendering is compared. Any other line sends the whole text through the
 * parse, as before. */
#define SEEN_SLOTS 512 /* a power of two; forgotten at half full */

static struct {
	char *key[SEEN_SLOTS];  /* "DEV REST" of a line that reads back as it is */
	size_t used;
} seen;

static void seen_forget(void)
{
	for (size_t i = 0; i < SEEN_SLOTS; i++) {
		free(seen.key[i]);
		seen.key[i] = NULL;
	}
	seen.used = 0;
}

/* A plain decimal number of up to 9 digits ending at a space: the IDs
 * libmount reads as ints and the renderer prints back alike. */
static const char *plain_number(const char *p, const char *end, char stop)
{
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9' && q - p < 9)
		q++;
	if (q == p || q >= end || *q != stop || (*p == '0' && q - p > 1))
		return NULL;
	return q + 1;
}

/* The end of a path field starting at p (at the space after it), or
 * NULL when libmount would not give it back as it is. */
static const char *plain_path(const char *p, const char *end)
{
	static const char deleted[] = "(deleted)";
	const char *q = memchr(p, ' ', (size_t)(end - p));

	if (!q || q == p)
		return NULL;
	if ((size_t)(q - p) >= sizeof(deleted) - 1 &&
	    !memcmp(q - (sizeof(deleted) - 1), deleted, sizeof(deleted) - 1))
		return NULL;
	return q;
}

/* True when "DEV REST" (dev..end, without the newline) comes back from
 * libmount's parse unchanged, remembered per process. */
static bool rest_reads_back(const char *dev, const char *root, const char *rest,
			    const char *end)
{
	size_t dlen = (size_t)(root - dev), rlen = (size_t)(end - rest), i;
	struct ns_buf line = NS_BUF_INIT, again = NS_BUF_INIT;
	struct ns_snapshot *s;
	bool same = false;
	char *key = xmalloc(dlen + rlen + 1);

	memcpy(key, dev, dlen);
	memcpy(key + dlen, rest, rlen);
	key[dlen + rlen] = '\0';
	for (i = text_hash(key, dlen + rlen, SEEN_SLOTS); seen.key[i]; i = (i + 1) & (SEEN_SLOTS - 1)) {
		if (!strcmp(seen.key[i], key)) {
			free(key);
			return true;
		}
	}
	/* "1 1 " DEV "/ /" REST: dev ends with its space, rest starts with one */
	ns_buf_adds(&line, "1 1 ");
	ns_buf_add(&line, dev, dlen);
	ns_buf_adds(&line, "/ /");
	ns_buf_add(&line, rest, rlen);
	ns_buf_addc(&line, '\n');
	if (ns_snapshot_parse(line.data, line.len, &s) == 0) {
		if (ns_snapshot_count(s) == 1)
			ns_snapshot_render_mountinfo(s, &again);
		ns_snapshot_free(s);
		same = again.len == line.len && !memcmp(again.data, line.data, line.len);
	}
	ns_buf_free(&line);
	ns_buf_free(&again);
	if (!same) {
		free(key);
		return false;
	}
	if (seen.used + 1 > SEEN_SLOTS / 2) {
		seen_forget();
		i = text_hash(key, dlen + rlen, SEEN_SLOTS);
	}
	seen.key[i] = key;
	seen.used++;
	return true;
}

/* One line, start..end (at its newline): see above. */
static bool line_reads_back(const char *p, const char *end)
{
	const char *dev, *root, *rest;

	if (memchr(p, '\\', (size_t)(end - p)) || memchr(p, '\t', (size_t)(end - p)))
		return false;
	if (!(p = plain_number(p, end, ' ')) || !(p = plain_number(p, end, ' ')))
		return false;
	dev = p;
	if (!(p = plain_number(p, end, ':')) || !(p = plain_number(p, end, ' ')))
		return false;
	root = p;
	if (!(p = plain_path(p, end)) || !(p = plain_path(p + 1, end)))
		return false;
	rest = p;
	return rest_reads_back(dev, root, rest, end);
}

bool ns_mountinfo_reads_back(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	if (len == 0)
		return false; /* no mounts: the parse says what that is */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl || !line_reads_back(p, nl))
			return false;
		p = nl + 1;
	}
	return true;
}

/* The strings of an entry, in one place so that copying them is a loop. */
#define NSTR 10
static const char **entry_string(struct ns_mount_entry *e, int k)
{
	const char **all[NSTR] = {
		&e->root, &e->target, &e->vfs_options, &e->fields, &e->fstype,
		&e->source, &e->fs_options, &e->mount_source, &e->mount_options,
		&e->srcpath,
	};

	return all[k];
}

/* The snapshot the text round trip would give, the libmount parse of
 * each line's rest taken from the memo, every string copied into the
 * snapshot's own block. A parse of the same lines (ns_snapshot_parse of
 * their rendering) gives the same entries; tests/unit/test_snapshot.c
 * holds the two side by side. */
int ns_snapshot_from_entries(const struct ns_mount_entry *v, size_t n,
			     struct ns_snapshot **out)
{
	struct ns_snapshot *s = xcalloc(1, sizeof(*s));
	struct ns_buf line = NS_BUF_INIT;
	size_t total = 0;
	char *p;
	int rc = 0;

	*out = NULL;
	if (memo.used + n > MEMO_SLOTS / 2)
		memo_flush();
	s->v = xcalloc(n ? n : 1, sizeof(*s->v));
	for (size_t i = 0; i < n; i++) {
		const struct ns_mount_entry *d = memo_parse(&v[i], &line, &rc);

		if (!d)
			break;
		s->v[i] = *d;
		s->v[i].id = v[i].id;
		s->v[i].parent = v[i].parent;
		s->v[i].root = v[i].root ? v[i].root : "";
		s->v[i].target = v[i].target ? v[i].target : "";
		for (int k = 0; k < NSTR; k++) {
			const char *str = *entry_string(&s->v[i], k);

			total += str ? strlen(str) + 1 : 0;
		}
	}
	ns_buf_free(&line);
	if (rc < 0) {
		ns_snapshot_free(s);
		return rc;
	}
	s->own = p = xmalloc(total ? total : 1);
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < NSTR; k++) {
			const char **str = entry_string(&s->v[i], k);
			size_t len;

			if (!*str)
				continue;
			len = strlen(*str) + 1;
			memcpy(p, *str, len);
			*str = p;
			p += len;
		}
	}
	s->n = n;
	*out = s;
	return 0;
}

void ns_snapshot_free(struct ns_snapshot *s)
{
	if (!s)
		return;
	mnt_unref_table(s->tb);
	ns_lines_free(&s->kept);
	free(s->v);
	free(s->own);
	free(s);
}

size_t ns_snapshot_count(const struct ns_snapshot *s)
{
	return s->n;
}

const struct ns_mount_entry *ns_snapshot_entries(const struct ns_snapshot *s)
{
	return s->v;
}

static void render_mountinfo_line(const struct ns_mount_entry *e, struct ns_buf *b)
{
	ns_mi_add_numbers(b, e->id, e->parent, e->major, e->minor);
	ns_buf_addc(b, ' ');
	add_escaped(b, e->root, PATH_SPECIALS);
	ns_buf_addc(b, ' ');
	add_escaped(b, e->target, PATH_SPECIALS);
	ns_buf_addc(b, ' ');
	add_escaped(b, e->vfs_options, OPTION_SPECIALS);
	/* the optional fields are kept as the kernel's text */
	if (e->fields && *e->fields) {
		ns_buf_addc(b, ' ');
		ns_buf_adds(b, e->fields);
	}
	ns_buf_adds(b, " - ");
	add_escaped(b, e->fstype, NAME_SPECIALS);
	/* An empty source leaves two spaces, as in the kernel's line. */
	ns_buf_addc(b, ' ');
	add_escaped(b, e->source, NAME_SPECIALS);
	ns_buf_addc(b, ' ');
	add_escaped(b, e->fs_options, OPTION_SPECIALS);
	ns_buf_addc(b, '\n');
}

void ns_snapshot_render_mountinfo(const struct ns_snapshot *s, struct ns_buf *out)
{
	for (size_t i = 0; i < s->n; i++)
		render_mountinfo_line(&s->v[i], out);
}

/* mount(8) prints the target with each control character as '?'; it
 * does not depend on the locale for ASCII, so neither do we. */
static void add_printable(struct ns_buf *b, const char *s)
{
	for (const char *p = s ? s : ""; *p; p++) {
		unsigned char c = (unsigned char)*p;

		ns_buf_addc(b, c < 0x20 || c == 0x7f ? '?' : *p);
	}
}

static void render_mount_line(const struct ns_mount_entry *e, struct ns_buf *b)
{
	ns_buf_adds(b, e->mount_source);
	ns_buf_adds(b, " on ");
	add_printable(b, e->target);
	if (e->fstype)
		ns_buf_addf(b, " type %s", e->fstype);
	if (e->mount_options)
		ns_buf_addf(b, " (%s)", e->mount_options);
	ns_buf_addc(b, '\n');
}

void ns_snapshot_render_mount(const struct ns_snapshot *s, struct ns_buf *out)
{
	for (size_t i = 0; i < s->n; i++)
		render_mount_line(&s->v[i], out);
}

/* Is w (n bytes) one of the superblock flags show_sb_opts() prints? */
static bool sb_flag(const char *w, size_t n)
{
	static const char *const flags[] = { "sync", "dirsync", "mand", "lazytime" };

	for (size_t i = 0; i < NS_ARRAY_SIZE(flags); i++)
		if (strlen(flags[i]) == n && !strncmp(w, flags[i], n))
			return true;
	return false;
}

/* The words of list after its first (rw or ro), those that are (want
 * true) or are not superblock flags, each after a comma. */
static void add_words(struct ns_buf *b, const char *list, bool want)
{
	const char *p = list ? list + strcspn(list, ",") : "";

	while (*p == ',') {
		size_t n = strcspn(++p, ",");

		if (n && sb_flag(p, n) == want) {
			ns_buf_addc(b, ',');
			ns_buf_add(b, p, n);
		}
		p += n;
	}
}

static void render_proc_mounts_line(const struct ns_mount_entry *e, struct ns_buf *b)
{
	bool ro = (e->vfs_options && !strncmp(e->vfs_options, "ro", 2) &&
		   (e->vfs_options[2] == ',' || !e->vfs_options[2])) ||
		  (e->fs_options && !strncmp(e->fs_options, "ro", 2) &&
		   (e->fs_options[2] == ',' || !e->fs_options[2]));
	struct ns_buf opts = NS_BUF_INIT;

	/* the kernel's mangle() escapes '#' in the source, not in the path;
	 * an empty source stays empty */
	add_escaped(b, e->source ? e->source : "", NAME_SPECIALS);
	ns_buf_addc(b, ' ');
	add_escaped(b, e->target, OPTION_SPECIALS);
	ns_buf_addc(b, ' ');
	add_escaped(b, e->fstype, NAME_SPECIALS);
	ns_buf_adds(&opts, ro ? "ro" : "rw");
	add_words(&opts, e->fs_options, true);
	add_words(&opts, e->vfs_options, false);
	add_words(&opts, e->fs_options, false);
	ns_buf_addc(b, ' ');
	add_escaped(b, ns_buf_str(&opts), OPTION_SPECIALS);
	ns_buf_adds(b, " 0 0\n");
	ns_buf_free(&opts);
}

void ns_snapshot_render_proc_mounts(const struct ns_snapshot *s, struct ns_buf *out)
{
	for (size_t i = 0; i < s->n; i++)
		render_proc_mounts_line(&s->v[i], out);
}

void ns_snapshot_render(const struct ns_snapshot *s, enum ns_render how, struct ns_buf *out)
{
	if (how == NS_RENDER_MOUNT)
		ns_snapshot_render_mount(s, out);
	else if (how == NS_RENDER_PROC_MOUNTS)
		ns_snapshot_render_proc_mounts(s, out);
	else
		ns_snapshot_render_mountinfo(s, out);
}
