/* session.h - a fuzzing session: generate cases in batches, play each
 * batch on both sides, compare, shrink every divergence, and write each
 * finding whose signature is new. The signature of a finding is the
 * shrunk case's operations in normal form (case.h: terminals, directories
 * and devices renamed by first appearance), then the class of the
 * difference and its step; findings with the same signature are counted
 * once, and only the first gets a file.
 *
 * Each finding also gets a cause, its root: when the second side is a
 * model that takes quirks, the finding is replayed with each known quirk
 * turned on or off (explain.h), and the first that makes the sides agree
 * is the cause ("quirk NAME"). Otherwise the cause is how it differs and
 * the shape of the first differing operation of the shrunk case (its
 * words but paths and handles: "unexplained: ..., after `mount --bind`"). A divergence whose unshrunk case a quirk already
 * explains, for a cause that has a file, is counted without shrinking;
 * with a VM side (a boot per shrinking round) so is one whose unshrunk
 * case has an unexplained cause that has a file. A case shrinking left
 * as it was is not played again.
 * Shrinking is bounded: at most shrink_candidates cases per finding, and
 * never past --time, so generation goes on and the time holds. */
#ifndef NS_FUZZ_SESSION_H
#define NS_FUZZ_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "fuzz/compare.h"
#include "fuzz/gen.h"
#include "fuzz/play.h"

struct ns_fuzz_opts {
	uint64_t seed;
	uint64_t start;                 /* the first case's index (0) */
	uint64_t count;                 /* cases to play; 0: until seconds */
	double seconds;                 /* 0: until count */
	size_t batch;                   /* cases per runner call */
	struct ns_fuzz_gen_opts gen;
	const char *out_dir;
	const char *options_text;       /* for the findings' prose */
	const char *quirks;             /* for the findings' prose */
	size_t shrink_candidates;       /* per finding (NS_FUZZ_SHRINK_DEFAULT);
					 * 0: findings are written unshrunk */
};

#define NS_FUZZ_SHRINK_DEFAULT 2000

/* A root cause, and the findings it explains. */
struct ns_fuzz_cause {
	char *name;                     /* "quirk NAME", "unexplained: ..." */
	char *file;                     /* its first finding's file */
	size_t signatures;              /* distinct signatures */
	size_t findings;                /* divergences */
	bool quirk;                     /* a known quirk explains it */
};

struct ns_fuzz_finding {
	char *signature;
	char *file;                     /* the file written (name in out_dir) */
	char *what;                     /* the first one's difference */
	size_t ops;                     /* its operations, shrunk */
	size_t count;                   /* cases found with this signature */
	char *cause;                    /* its cause's name */
};

struct ns_fuzz_report {
	uint64_t scenarios;             /* cases played on both sides */
	uint64_t unjudged;              /* of which could not be compared */
	char *unjudged_why;             /* the first reason */
	double seconds;
	struct ns_fuzz_finding *f;
	size_t nf, fcap;
	size_t findings;                /* divergences, every signature */
	struct ns_fuzz_cause *c;        /* causes, in order of first finding */
	size_t nc, ccap;
	size_t unexplained;             /* causes no quirk explains */
	size_t shrink_spent;            /* findings whose shrinking hit the budget */
	bool interrupted;
	char *error;                    /* a side could not play: why */
};

struct ns_fuzz_hooks {
	void *ctx;
	/* After each batch and each shrink round (may be NULL). */
	void (*progress)(void *ctx, const struct ns_fuzz_report *r);
};

/* Run the session; *r is filled (free it with ns_fuzz_report_free).
 * Returns 0, or -1 when r->error says why it stopped. */
int ns_fuzz_session(const struct ns_fuzz_side *a, const struct ns_fuzz_side *b,
		    const struct ns_fuzz_opts *o, const volatile sig_atomic_t *stop,
		    const struct ns_fuzz_hooks *h, struct ns_fuzz_report *r);
void ns_fuzz_report_free(struct ns_fuzz_report *r);

/* The signature of shrunk case c diverging as d. */
char *ns_fuzz_signature(const struct ns_fuzz_case *c, const struct ns_fuzz_diff *d);

#endif
