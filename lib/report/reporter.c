/* reporter.c - choosing a report format, and the tally every format ends
 * with */
#include "report/reporter.h"

#include <string.h>

static const struct ns_reporter *const reporters[] = {
	&ns_reporter_human,
	&ns_reporter_tap,
	&ns_reporter_ktap,
	&ns_reporter_junit,
	&ns_reporter_json,
	&ns_reporter_html,
};

const struct ns_reporter *ns_reporter_find(const char *name)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(reporters); i++)
		if (!strcmp(reporters[i]->name, name))
			return reporters[i];
	return NULL;
}

void ns_reporter_names(struct ns_buf *out)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(reporters); i++)
		ns_buf_addf(out, "%s%s", i ? ", " : "", reporters[i]->name);
}

void ns_tally_add(struct ns_tally *t, enum ns_status s)
{
	unsigned *slot[] = { &t->passed, &t->failed, &t->skipped, &t->xfailed, &t->xpassed };

	(*slot[s])++;
}

void ns_tally_print(FILE *f, const struct ns_tally *t)
{
	fprintf(f, "%u passed, %u failed, %u skipped", t->passed, t->failed, t->skipped);
	if (t->xfailed || t->xpassed)
		fprintf(f, ", %u xfailed, %u xpassed", t->xfailed, t->xpassed);
	fputc('\n', f);
}
