/* import.h - a terminal's log as a scenario (`nstest import`,
 * nstest(1)): a script(1) typescript, a tmux capture or a copy of the
 * screen, with its carriage returns, colour and title escapes and
 * backspaces, read for its prompts, commands and output. */
#ifndef NS_IMPORT_H
#define NS_IMPORT_H

#include <stddef.h>

#include "base/util.h"

/* Write text (len bytes, the log called name) as scenario text to out,
 * and one line to notes for each thing not carried over as it was
 * (which log line, and why). Every command either becomes a session
 * line that nstest reads, or prose that names it; none is dropped. */
void ns_import_log(const char *text, size_t len, const char *name, struct ns_buf *out,
		   struct ns_buf *notes);

/* The same, with the rows of hide's mounts dropped from every output
 * (hide.h, `nstest import --scratch`, `nstest record`); notes also name
 * the log lines that went. hide may be NULL. columns: the terminal's
 * width, written as `columns:` (run/narrow.h); 0 takes it from a
 * script(1) header's COLUMNS="N", if the log has one. */
struct ns_hide;
void ns_import_log_hide(const char *text, size_t len, const char *name,
			const struct ns_hide *hide, unsigned columns, struct ns_buf *out,
			struct ns_buf *notes);

/* One log line as the terminal showed it: escape sequences out, a
 * carriage return back to the line's start and a backspace one column
 * left, the text after them written over what was there. */
char *ns_import_clean_line(const char *s, size_t len);

#endif
