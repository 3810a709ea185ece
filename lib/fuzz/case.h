/* case.h - a fuzz case: the operations of a generated scenario, each a
 * command line typed at terminal shN, kept as data so that the shrinker
 * can drop and rewrite them. Its scenario text (its plan) adds
 * observations, which are not operations ("steps" of a finding count
 * operations only): after every operation that may change a mount table,
 * a round of `shN# cat /proc/self/mountinfo`, one per terminal that is
 * running then, so that a state a later step undoes is compared too. */
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
 * (NS_FUZZ_MAX_TERMS entries); returns how many. */
size_t ns_fuzz_case_terms(const struct ns_fuzz_case *c, unsigned *terms);

/* Can the command change a mount table (its own terminal's or, by
 * propagation, another's)? Reads (ls, findmnt, statmount), directories
 * and files, cd, held files and a new filesystem context cannot. */
bool ns_fuzz_cmd_changes_tables(const char *cmd);

/* One step of the scenario text. */
struct ns_fuzz_plan_step {
	unsigned term;          /* 1 for sh1 */
	const char *cmd;        /* the operation's, or NS_FUZZ_OBSERVE */
	size_t op;              /* index into ops, or NS_FUZZ_NO_OP: an observation */
	size_t round;           /* observations: the round it belongs to */
};

#define NS_FUZZ_NO_OP ((size_t)-1)

/* The steps of c's scenario text: each operation, and after each one
 * that may change a table a round observing every terminal running then
 * (a terminal ends at an `exit` typed in its first shell; the next
 * command at its prompt starts it again), ascending. The operations are
 * c's (the plan does not own them). */
struct ns_fuzz_plan {
	struct ns_fuzz_plan_step *s;
	size_t n, cap;
	size_t rounds;
};

void ns_fuzz_case_plan(const struct ns_fuzz_case *c, struct ns_fuzz_plan *p);
void ns_fuzz_plan_free(struct ns_fuzz_plan *p);
/* Steps of the scenario text: ns_fuzz_case_plan's n. */
size_t ns_fuzz_case_nsteps(const struct ns_fuzz_case *c);

/* One session line: "    shTERM# CMD\n", appended to out. */
void ns_fuzz_session_line(struct ns_buf *out, unsigned term, const char *cmd);

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
