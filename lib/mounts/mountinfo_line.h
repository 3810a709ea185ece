/* mountinfo_line.h - one line of /proc/PID/mountinfo cut into the fields
 * the matcher compares (nstest-scenario(5), EXPECTED OUTPUT): the numbers
 * it renames kept as numbers, everything else as text. */
#ifndef NS_MOUNTINFO_LINE_H
#define NS_MOUNTINFO_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* A mountinfo record as the matcher sees it. Fields point into a copy of
 * the line owned by the struct. */
struct ns_mi_line {
	char *buf;
	unsigned long id, parent;
	unsigned long major, minor;
	char *root, *mountpoint, *opts;
	/* optional fields: shared:N, master:N, propagate_from:N are numbered;
	 * anything else (unbindable, ...) is kept as a literal tag */
	struct ns_mi_tag {
		char *name;          /* "shared", "master", "propagate_from" or the literal */
		unsigned long group; /* valid when numbered */
		bool numbered;
	} *tags;
	size_t ntags;
	char *rest;          /* " - FSTYPE SOURCE OPTS" and anything after, or "" */
};

struct ns_buf;

/* Parse one line as a mountinfo record; false when it is not one. */
bool ns_mi_parse(const char *line, struct ns_mi_line *out);
void ns_mi_free(struct ns_mi_line *l);

/* Append l as a line again: the parsed line itself, or with the numbers a
 * caller has since changed in l (the matcher's and --update's renamings). */
void ns_mi_format(const struct ns_mi_line *l, struct ns_buf *out);

/* ns_mi_format with each number written as a name: a letter and the
 * number, letters[0] for the ID and PARENT, letters[1] for the device
 * (its MAJOR; the MINOR is left out), letters[2] for a peer group
 * ("M2 M1 D1 / / rw shared:P1 - ..."). For nstest's canonical form. */
void ns_mi_format_names(const struct ns_mi_line *l, const char letters[3],
			struct ns_buf *out);

/* The numbers a mountinfo line starts with, "ID PARENT MAJ:MIN", without
 * printf (hot in renders and diffs); no trailing blank. */
void ns_mi_add_numbers(struct ns_buf *out, unsigned long id, unsigned long parent,
		       unsigned long major, unsigned long minor);

#endif
