/* ulmsg.h - the error lines of util-linux's mount(8) and umount(8), and
 * of the other tools nstest's file commands stand for (coreutils' mkdir,
 * touch, ls, cat, rmdir, mv, ln, stat and chroot, util-linux's
 * mountpoint), as a second way to write a failing command's expected line
 * (nstest-scenario(5), ERRORS OF COMMANDS).
 *
 * util-linux prints "mount: TARGET: MESSAGE." where MESSAGE depends on
 * the errno and on the operation (umount -R prints two of its own
 * without the period); mount(8) adds the line
 * "       dmesg(1) may have more information after failed mount system
 * call." after a failed system call. The other tools print
 * "CMD: MESSAGE" with the file in it and strerror(errno) at its end
 * ("touch: cannot touch '/ro/f': Read-only file system"), and an
 * interactive bash "bash: cd: /x: No such file or directory" and
 * "bash: /ro/f: Read-only file system" (echo TEXT > FILE). The table
 * of messages (ulmsg.c) says which errno each stands for. The verdict uses it: a block whose last
 * line is such a message, and that fits the step's errno and command
 * line, is matched as if that line were the nstest error line
 * "CMD: ENAME (strerror)". show and --update use it the other way, to
 * write a failure in util-linux's words. */
#ifndef NS_ULMSG_H
#define NS_ULMSG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "scenario/scenario.h"

/* The line mount(8) prints after a failed mount system call, without
 * its leading blanks (mount(8) indents it by seven spaces; any number,
 * none included, is accepted). */
#define NS_ULMSG_DMESG "dmesg(1) may have more information after failed mount system call."

/* One message of the table. In pattern, %T is the target as the
 * command line gives it, %S the source, %F the -t type, %P any absolute
 * path, %M strerror(errno), %C the name of a mount system call and %K a
 * message of the kernel's own. */
struct ns_ulmsg {
	const char *cmd;         /* "mount" or "umount" */
	const char *pattern;     /* MESSAGE of "CMD: TARGET: MESSAGE." */
	int err;                 /* the errno it stands for; 0: the one %M names */
	unsigned when;           /* NS_ULMSG_* of which one must hold; 0: any */
	unsigned render;         /* NS_ULMSG_* for which show and --update write it */
	const char *versions;    /* the releases that print it (util-linux's,
				  * unless the tool's name comes first) */
	const char *source;      /* where the text comes from */
	bool bare;               /* printed without the final period */
	enum ns_ulmsg_form {
		NS_ULMSG_LINUX,  /* "CMD: TARGET: MESSAGE." (mount, umount) */
		NS_ULMSG_TOOL,   /* "CMD: MESSAGE" (coreutils, mountpoint) */
		NS_ULMSG_BASH,   /* "bash: MESSAGE" ("-bash: " for a login
				  * shell): cd and a redirection, bash's own */
	} form;
};

/* The NS_ULMSG_* bits of what a command line does are commands/command.h's
 * (struct ns_msg_ctx): each command's definition says them. */

/* The table, for tests and documentation. */
extern const struct ns_ulmsg ns_ulmsg_table[];
extern const size_t ns_ulmsg_count;

/* Whether line is the dmesg line (leading blanks allowed). */
bool ns_ulmsg_is_dmesg(const char *line);

/* The entry of the table that line, in util-linux form, fits for the
 * failing command stage st with errno err, or NULL. dmesg says a dmesg
 * line follows it in the block. cwd: the directory the command ran in
 * (struct ns_step_out), which a relative path is named from; NULL when
 * unknown, and then any directory fits. */
const struct ns_ulmsg *ns_ulmsg_fit(const struct ns_stage *st, int err, const char *cwd,
				    const char *line, bool dmesg);

/* Whether line has the shape of some message of the table for command
 * cmd, whatever it names: how a file shows which form it uses. */
bool ns_ulmsg_looks(const char *cmd, const char *line);

/* If the block of step st ends with a util-linux error line (and maybe
 * the dmesg line) that fits err, a copy of the block where those lines
 * are the nstest error line instead, with its count in *n; else NULL.
 * Free with ns_ulmsg_free_block(copy, *n). */
struct ns_expect *ns_ulmsg_translate(const struct ns_step *st, int err, const char *cwd,
				     size_t *n);
void ns_ulmsg_free_block(struct ns_expect *block, size_t n);

/* A list's block (issue 29: a failure message is matched to the command
 * that printed it): a copy of block (n lines, the step's or a translated
 * one) where every line that fits util-linux's words for a command of
 * list step st that failed in output (an nstest error line of that
 * command names its errno) is that nstest error line (a dmesg line after
 * it dropped), with its count in *nout; NULL when no line is. Free with
 * ns_ulmsg_free_list(copy, *nout). */
struct ns_expect *ns_ulmsg_translate_list(const struct ns_expect *block, size_t n,
					  const struct ns_step *st, const char *output,
					  const char *cwd, size_t *nout);
void ns_ulmsg_free_list(struct ns_expect *block, size_t n);

/* Append the lines util-linux 2.38 prints (each ending in '\n') for the
 * failing stage st with errno err. False, and nothing appended, when the
 * message depends on more than the command line and errno (which path
 * of a bind is missing, ...): the nstest form is then used. */
bool ns_ulmsg_render(const struct ns_stage *st, int err, struct ns_buf *out);

/* The form the scenario's error lines use: its `errors:` directive, or
 * else util-linux's when some expected line looks like one. */
bool ns_ulmsg_file_form(const struct ns_scenario *sc);

/* The output text of a failed step with its error line (the last line)
 * in util-linux form, when the scenario uses that form and the message
 * can be rendered; else a copy of output. Heap. */
char *ns_ulmsg_output(const struct ns_scenario *sc, const struct ns_step *st,
		      int err, const char *output);

#endif
