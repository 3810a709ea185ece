/* write.h - a finding as a scenario file, ready to bisect: the shrunk
 * case's steps with the second side's output (the model's) as the
 * expected output, mount tables marked [unordered] (unless what differs
 * is a table's order), and a prose paragraph
 * saying where it came from and what the first side (the kernel) printed
 * instead, in lines that begin with "  | " (prose, never a session line).
 * `nstest run --backend=SECOND FILE` passes it; the first side fails it. */
#ifndef NS_FUZZ_WRITE_H
#define NS_FUZZ_WRITE_H

#include <stdint.h>

#include "base/util.h"
#include "fuzz/case.h"
#include "fuzz/compare.h"
#include "fuzz/outcome.h"

struct ns_fuzz_origin {
	uint64_t seed, index;
	const char *options;            /* the command line's fuzz options */
	const char *first, *second;     /* the sides' labels */
	const char *release;            /* the first side's kernel release */
	const char *quirks;             /* NSTEST_MODEL_QUIRKS, or "none" */
	size_t original_ops;            /* operations before shrinking */
	const char *cause;              /* what explains it (session.h), or NULL */
};

/* The file's text for case c, whose sides gave a and b and differ as d. */
void ns_fuzz_write_text(const struct ns_fuzz_case *c, const struct ns_fuzz_outcome *a,
			const struct ns_fuzz_outcome *b, const struct ns_fuzz_diff *d,
			const struct ns_fuzz_origin *o, struct ns_buf *out);

/* The file name of a finding: fuzz-SEED-INDEX.scn. */
char *ns_fuzz_file_name(uint64_t seed, uint64_t index);

/* Write text to dir/name (replacing it). 0, or -1 with err naming the
 * file and the reason. */
int ns_fuzz_write_file(const char *dir, const char *name, const struct ns_buf *text,
		       struct ns_buf *err);

#endif
