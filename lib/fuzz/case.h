/* case.h - a fuzz case: the operations of a generated scenario, each a
 * command line typed at terminal shN, kept as data so that the shrinker
 * can drop and rewrite them. Its scenario text adds one observation per
 * terminal at the end (`shN# cat /proc/self/mountinfo`), which is not an
 * operation: "steps" of a finding count operations only. */
#ifndef NS_FUZZ_CASE_H
#define NS_FUZZ_CASE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* Terminals are sh1 .. sh<NS_FUZZ_MAX_TERMS>. */
#define NS_FUZZ_MAX_TERMS 16

/* What each observation step types. */
#define NS_FUZZ_OBSERVE "cat /proc/self/mountinfo"

struct ns_fuzz_op {
	unsigned term;          /* 1 for sh1 */
	char *cmd;              /* words separated by one space, no quoting */
};

struct ns_fuzz_case {
	struct ns_fuzz_op *ops;
	size_t n, cap;
};

void ns_fuzz_case_add(struct ns_fuzz_case *c, unsigned term, const char *cmd);
void ns_fuzz_case_addf(struct ns_fuzz_case *c, unsigned term, const char *fmt, ...)
	NS_PRINTF(3, 4);
void ns_fuzz_case_copy(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src);
void ns_fuzz_case_free(struct ns_fuzz_case *c);
bool ns_fuzz_case_equal(const struct ns_fuzz_case *a, const struct ns_fuzz_case *b);

/* The terminals the operations use, ascending, into terms[]
 * (NS_FUZZ_MAX_TERMS entries); returns how many. These are the observed
 * ones, in this order, after the operations. */
size_t ns_fuzz_case_terms(const struct ns_fuzz_case *c, unsigned *terms);
/* Steps of the scenario text: operations, then observations. */
size_t ns_fuzz_case_nsteps(const struct ns_fuzz_case *c);

/* The scenario text: `title: TITLE`, a blank line, then each step as a
 * session line. */
void ns_fuzz_case_text(const struct ns_fuzz_case *c, const char *title, struct ns_buf *out);

/* ---- rewrites, for the shrinker (each makes a new case in dst) ---- */
/* Without the operations [from, from + count). */
void ns_fuzz_case_drop(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src,
		       size_t from, size_t count);
/* Without terminal term's operations. */
void ns_fuzz_case_drop_term(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src,
			    unsigned term);
/* Every path component `from` of an absolute path word becomes `to`
 * (/a/x with a -> b is /b/x; /dev/d2 with d2 -> d1 is /dev/d1). Returns
 * false when nothing changed. */
bool ns_fuzz_case_rename(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src,
			 const char *from, const char *to);
/* Terminals, directory names and devices renamed by first appearance
 * (sh1 sh2 ..., a b c ..., d1 d2 ...): the case's normal form. */
void ns_fuzz_case_normalize(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src);

/* The distinct renamable path components of the case (directory names
 * and device names), in order of first appearance, into names (pushed). */
void ns_fuzz_case_names(const struct ns_fuzz_case *c, struct ns_lines *names);

/* Is name one the generator uses for a directory (a, b, ...; x, y, f)
 * or a device (d1, d2, ...)? */
bool ns_fuzz_is_dir_name(const char *name);
bool ns_fuzz_is_dev_name(const char *name);

#endif
