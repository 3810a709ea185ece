/* backend.c - the backends nstest has, by name */
#include "run/backend.h"

#include <string.h>

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

void ns_backend_names(struct ns_buf *out)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(backends); i++)
		ns_buf_addf(out, "%s%s", i ? ", " : "", backends[i]->name);
}
