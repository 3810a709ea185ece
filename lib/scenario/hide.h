/* hide.h - mounts left out of a session's whole views, as if they had
 * never been there: the tools `nstest record` lends its shell (the host's
 * /usr, a procfs), or everything of the host outside a scratch directory
 * (`nstest import --scratch DIR`). A mountinfo line, a mount(8) line or a
 * findmnt row of such a mount is dropped, and an unpiped findmnt table is
 * padded again, and its tree drawn again, as findmnt would have printed it
 * without those rows. Text only: who knows which mounts they are fills
 * struct ns_hide (kernel/record_sandbox.c, harness/cmd_import.c). */
#ifndef NS_HIDE_H
#define NS_HIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

struct ns_hide {
	struct ns_lines devs;     /* "MAJ:MIN" of the mounts to drop */
	/* their mount sources: a row is theirs when a word is the source, or
	 * the source and a bracket (findmnt's "/dev/vda[/usr]" of a bind) */
	struct ns_lines sources;
	/* their mount points, for a findmnt table that shows neither source
	 * nor device (findmnt -o TARGET,PROPAGATION) */
	struct ns_lines targets;
	/* NULL, or the scratch directory: every mount whose mount point is
	 * not strictly below it is dropped (DIR itself too: it was there
	 * before the session) */
	char *keep;
	bool ellipsis;            /* write "..." where rows were dropped */
};
#define NS_HIDE_INIT { NS_LINES_INIT, NS_LINES_INIT, NS_LINES_INIT, NULL, false }

void ns_hide_free(struct ns_hide *h);

/* Drop from out (the lines cmdline printed) the rows of h's mounts.
 * Returns how many lines were dropped; *unsure, when not NULL, is set
 * when the output names such a mount in a form this cannot drop (a
 * findmnt table whose columns it cannot tell apart, JSON, a count). */
size_t ns_hide_output(const struct ns_hide *h, const char *cmdline, struct ns_lines *out,
		      bool *unsure);

#endif
