/* explain.c - see explain.h. */
#include "fuzz/explain.h"

#include <string.h>

#include "model/model.h"

size_t ns_fuzz_variants(const char *spec, const char *release, struct ns_fuzz_variant **out)
{
	struct ns_buf err = NS_BUF_INIT;
	unsigned mask;
	struct ns_fuzz_variant *v;

	*out = NULL;
	if (m_quirks_parse(spec, release, &mask, &err) < 0) {
		ns_buf_free(&err);
		return 0;
	}
	ns_buf_free(&err);
	v = xcalloc(M_QUIRK__COUNT, sizeof(*v));
	for (int q = 0; q < M_QUIRK__COUNT; q++) {
		unsigned m = mask ^ (1u << q);
		struct ns_buf b = NS_BUF_INIT;
		for (int i = 0; i < M_QUIRK__COUNT; i++)
			if (m & (1u << i))
				ns_buf_addf(&b, "%s%s", b.len ? "," : "", m_quirks[i].name);
		v[q].quirks = ns_buf_detach(&b);
		v[q].cause = mask & (1u << q) ? xasprintf("quirk %s turned off", m_quirks[q].name)
					      : xasprintf("quirk %s", m_quirks[q].name);
	}
	*out = v;
	return M_QUIRK__COUNT;
}

void ns_fuzz_variants_free(struct ns_fuzz_variant *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].quirks);
		free(v[i].cause);
	}
	free(v);
}
