/* backends.c - the backends nstest has, by name. This table is the only
 * place that knows which backends there are: everything else walks it
 * (ns_backend_at) and asks each backend's capability fields (run/backend.h).
 * Adding a backend is its own files and one line here. */
#include "backends/backends.h"

#include <string.h>

/* Declared here, not in a header: nothing but the table names a backend. */
extern const struct ns_backend ns_backend_kernel;
extern const struct ns_backend ns_backend_model;

static const struct ns_backend *const backends[] = {
	&ns_backend_kernel,
	&ns_backend_model,
};

const struct ns_backend *ns_backend_find(const char *name)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(backends); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

const struct ns_backend *ns_backend_at(size_t i)
{
	return i < NS_ARRAY_SIZE(backends) ? backends[i] : NULL;
}

const struct ns_backend *ns_backend_fuzz_default(enum ns_fuzz_role role)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(backends); i++)
		if (backends[i]->fuzz_role == role)
			return backends[i];
	return NULL;
}

void ns_backend_names(struct ns_buf *out)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(backends); i++)
		ns_buf_addf(out, "%s%s", i ? ", " : "", backends[i]->name);
}
