/* backend.c - the backends nstest has, by name */
#include "run/backend.h"

#include <string.h>

static const struct ns_backend *const backends[] = {
	&ns_backend_kernel,
};

const struct ns_backend *ns_backend_find(const char *name)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(backends); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}
