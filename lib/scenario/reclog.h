/* reclog.h - the terminals of a recording (`nstest record`) read into
 * one log, steps in the order their command lines were entered.
 *
 * Each shell's prompt starts with NS_RECLOG_MARK, an OSC sequence that
 * terminals ignore, then its visible text (`sh1# `): from a mark to the
 * end of that line is the command as the terminal echoed it (with its
 * line editing), from there to the next mark the command's output. The
 * log written is the cleaned text a terminal showed, one prompt line per
 * command and its output below it, which `ns_import_log_hide` reads as
 * any terminal's log. Pure: no I/O. */
#ifndef NS_RECLOG_H
#define NS_RECLOG_H

#include <stddef.h>

#define NS_RECLOG_MARK "\033]7771;P\a"

struct ns_reclog;

struct ns_reclog *ns_reclog_new(void);
/* A new terminal; returns its index (0, 1, ...). */
size_t ns_reclog_terminal(struct ns_reclog *r);
/* Bytes the terminal's shell printed. A command line counts as entered
 * when its echo's newline is fed. */
void ns_reclog_feed(struct ns_reclog *r, size_t term, const char *p, size_t n);
/* The terminal's shell is gone: what it printed since its last mark is
 * its last command's output. */
void ns_reclog_end(struct ns_reclog *r, size_t term);
/* How many commands were entered so far. */
size_t ns_reclog_steps(const struct ns_reclog *r);
/* The log: every command, in entry order, as PROMPT COMMAND, and its
 * output lines. A line typed and cancelled (^C) is left out. */
char *ns_reclog_text(const struct ns_reclog *r);
void ns_reclog_free(struct ns_reclog *r);

#endif
