/* backends.h - the backends nstest has. The table sits above kernel/ and
 * model/ (docs/architecture.md, "Layers"), since it is the one place that
 * names each of them; the harness and the seam test walk it. */
#ifndef NS_BACKENDS_H
#define NS_BACKENDS_H

#include <stddef.h>

#include "base/util.h"
#include "run/backend.h"

/* The backend called name, or NULL: the one place a name is looked at
 * (--backend NAME, fuzz's --first and --vs). */
const struct ns_backend *ns_backend_find(const char *name);
/* The i-th backend of the table, or NULL past the end. */
const struct ns_backend *ns_backend_at(size_t i);
/* The first backend of the table that can be this side of `nstest
 * fuzz`, or NULL. */
const struct ns_backend *ns_backend_fuzz_default(enum ns_fuzz_role role);
/* Append the names of every backend, ", " between them. */
void ns_backend_names(struct ns_buf *out);

#endif
