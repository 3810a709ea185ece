/* report_text.h - what the machine-readable report formats share: a
 * failing scenario told as the human report tells it, and text made safe
 * for XML and JSON. */
#ifndef NS_REPORT_TEXT_H
#define NS_REPORT_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "report/reporter.h"
#include "base/util.h"

/* Every failing step of r as the human report shows it without
 * --verbose: "FILE:LINE: PROMPT COMMAND", then, indented by four spaces,
 * "system call failed: SYSCALL: ERRNAME" when the command failed, and
 * the diff. Appends nothing for a scenario without failing steps. */
void ns_report_failures(struct ns_buf *out, const struct ns_result *r);

/* "system call failed: SYSCALL: ERRNAME", with a hint where the errno
 * has a usual cause (ENOSPC from a mount call: the mount table is full,
 * see /proc/sys/fs/mount-max). No newline. */
void ns_report_syscall(struct ns_buf *out, const struct ns_step_out *o);

/* Why a failed scenario failed, in a few words: its reason (a timeout,
 * a broken run) or "N step(s) did not match". */
char *ns_report_fail_summary(const struct ns_result *r);

/* What ran, for the head of a report: "nstest VERSION: BACKEND backend,
 * Linux RELEASE, DEVICES stand-ins[, rootless]" (no version part when the
 * context has none). No newline. */
void ns_report_header(struct ns_buf *out, const struct ns_report_ctx *c);

/* Why a scenario ran on other stand-ins than the run's --devices (its
 * devices: or requires: line, or tmpfs stand-ins that this kernel cannot
 * mount twice), or NULL when it ran on the run's own. */
const char *ns_report_devices_note(const struct ns_report_ctx *c,
				   const struct ns_result *r);

/* A run a signal stopped (c->interrupted): "interrupted by SIGINT: N of
 * M scenarios did not run", or "interrupted by SIGINT after every
 * scenario ran". No newline. */
void ns_report_interrupted(struct ns_buf *out, const struct ns_report_ctx *c);

/* Why a scenario of such a run has no result: "stopped while running"
 * or "not started". */
const char *ns_report_not_run_why(const struct ns_not_run *nr);

/* ---- TAP and KTAP (report_tap.c) ---- */

/* A result line's description: '#' and '\' escaped as TAP 14 says, so
 * that no text starts a directive; line breaks become blanks. */
void ns_tap_description(FILE *f, const char *s);
/* text as '#' lines, each after indent. */
void ns_tap_comment(FILE *f, const char *indent, const char *text);
/* The end of a TAP or KTAP stream after `reported` result lines: the
 * tally as a comment, and for a run cut short (a signal: the scenarios
 * without a result first; -x) a "Bail out!" line. */
void ns_tap_end(FILE *f, const struct ns_report_ctx *c, const struct ns_tally *t,
		size_t reported);

/* s as XML character data (attr false) or as the inside of an attribute
 * value in double or single quotes (attr true). Characters XML 1.0 does
 * not allow, even as references, and bytes that are not UTF-8 become
 * U+FFFD. */
void ns_xml_escape(struct ns_buf *out, const char *s, bool attr);

/* s as a JSON string literal with its quotes; NULL gives null. Control
 * characters become \u00XX (or \n, \t, ...), bytes that are not UTF-8
 * become \ufffd, other characters pass as they are. */
void ns_json_string(struct ns_buf *out, const char *s);

#endif
