/* explain.h - which known kernel quirk explains a finding: the quirks a
 * model side can imitate (model/model.h), as the sets of names to replay a
 * finding with, one quirk turned on or off each. A finding that one of
 * them makes vanish is that quirk's; the others are unexplained. */
#ifndef NS_FUZZ_EXPLAIN_H
#define NS_FUZZ_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* One replay: the model's quirks with one toggled. */
struct ns_fuzz_variant {
	char *quirks;           /* the NSTEST_MODEL_QUIRKS spec to replay with */
	char *cause;            /* "quirk NAME" or "quirk NAME turned off" */
};

/* The variants of the quirk spec `spec` (as --quirks takes it; "kernel"
 * resolved with release): one per known quirk, with it turned on when
 * spec has it off and off when on. Returns how many (0 when spec does
 * not parse), into *out (free with ns_fuzz_variants_free). */
size_t ns_fuzz_variants(const char *spec, const char *release, struct ns_fuzz_variant **out);
void ns_fuzz_variants_free(struct ns_fuzz_variant *v, size_t n);

#endif
