/* ls_layout.h - how ls(1) lays out a directory listing, for every backend:
 * one name a line (-1), or columns as on an 80-column terminal. */
#ifndef NS_LS_LAYOUT_H
#define NS_LS_LAYOUT_H

#include <stdbool.h>

#include "base/util.h"
#include "commands/args.h"
#include "commands/shape.h"

/* Append names (already sorted) to out, one a line or in columns. */
void ns_ls_render(const struct ns_lines *names, bool one_per_line, struct ns_buf *out);

/* The names of a listing in columns, in order (column by column), into
 * names: true when laying them out again gives text exactly, else false
 * with names unspecified. Cells are cut at runs of two or more blanks, so
 * names that hold such a run, or end in a blank, never come back. */
bool ns_ls_split(const char *text, struct ns_lines *names);

/* line, with each tab expanded to the next stop of 8 columns, appended to
 * out. GNU ls pads its columns with tabs where one reaches the next
 * column's start (coreutils src/ls.c, indent(), --tabsize defaults to 8),
 * so a terminal, or script(1), shows its columns so; expanded, they are
 * the columns ns_ls_render() prints with blanks only. */
void ns_ls_untab(const char *line, struct ns_buf *out);

/* One file of a long listing (ls -l), as the backend found it: lstat's
 * answer (an operand's own, a directory's entries' through their names,
 * so that a mount point shows the root of what is mounted there), the
 * target of a symbolic link, and its time and blocks. */
struct ns_ls_entry {
	const char *name;           /* as ls prints it */
	const char *link;           /* a symbolic link's target, or NULL */
	struct ns_stat_info st;     /* mode, nlink, uid, gid, size, rdev */
	unsigned long long blocks;  /* st_blocks, in 512-byte units */
	long long mtime;            /* seconds since the epoch */
};

/* Append GNU ls -l's lines for v[0..n) (already in order): "total N"
 * first when total (a directory's listing), then per file its mode,
 * links, owner, group, size (a device's "MAJ, MIN"), date and name, the
 * numeric columns right-aligned and the names left-aligned to the
 * widest, as coreutils' print_long_format() does. Owners are named as
 * in a sandbox without a password file but the usual two names: 0 is
 * root, 65534 nobody (group nogroup), any other id its number. Dates
 * are UTC, "%b %e %H:%M" within six months before now, else
 * "%b %e  %Y". */
void ns_ls_long_render(const struct ns_ls_entry *v, size_t n, bool total, long long now,
		       struct ns_buf *out);

/* What ls found at one operand: the operand as a file of its own, or a
 * directory's names (sorted); with -l each one's entry (v[0] for a file,
 * v[i] for names.v[i]). The backend fills it. */
struct ns_ls_operand {
	const char *name;           /* the operand as typed */
	bool file;
	struct ns_lines names;
	struct ns_ls_entry *v;
	size_t n;                   /* entries in v */
};

/* Append what GNU ls prints for its operands ops[0..n) (in the order
 * typed): the files first, sorted by name, as one listing; then each
 * directory, sorted by name, its listing headed "NAME:" when there is
 * more than one operand, a blank line before every one but the first
 * thing printed. Long (-l) or names (one a line, or columns). */
void ns_ls_render_operands(struct ns_ls_operand *ops, size_t n, bool longf, bool one,
			   long long now, struct ns_buf *out);

/* Sort v[0..n) by name, as ls sorts its operands (strcmp: the C
 * locale's order, which nstest's listings use throughout). */
void ns_ls_sort_entries(struct ns_ls_entry *v, size_t n);

/* The judge's shape of ls -l's lines: mode, links, owner, group, a free
 * size, a free date, the name; "total N" free. */
void ns_ls_long_shape(struct ns_match_shape *out);

#endif
