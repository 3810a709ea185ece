/* export.h - `nstest export --c`: a scenario written as one standalone C
 * program that replays it on the running kernel with raw system calls
 * and checks every step as the scenario expects (docs/nstest.1, EXPORT).
 *
 * The program is the scenario's steps in order, each a few lines of C
 * that carry the command out and compare its errno, or its output, with
 * the expected block; before them a fixed support library (runtime.c.in,
 * built into runtime_text.h) that sets up a private sandbox, keeps
 * terminals and shell levels as saved places, and matches mount tables
 * up to a renaming of their numbers. Expected error lines are turned
 * into errno values here, when the program is written (run/ulmsg.h).
 *
 * Each command id has exactly one entry in ns_export_cmds: an emitter, or
 * the reason it is refused. An emitter may still refuse a use of its
 * command it cannot write (a handle lent by another terminal, ...). */
#ifndef NS_EXPORT_H
#define NS_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "scenario/scenario.h"

/* What emitters write into and look up. */
struct ns_export_ctx {
	const struct ns_scenario *sc;
	const struct ns_step *st;     /* the step being written */
	struct ns_buf *code;          /* the body of main() */
	struct ns_lines handles;      /* handle names (@NAME), numbered by place */
	bool table;                   /* the step prints the whole table (raw) */
	bool prints;                  /* the step's command prints something */
	bool ls;                      /* ... names, as ls does */
};

/* Write stage sg's C into cx->code: statements that leave 0 or an errno
 * in `e` and may append output to `o` (an xs_buf). 0, or -1 with why
 * the stage cannot be written (no "not exportable" prefix) in *why. */
typedef int ns_export_emit_fn(struct ns_export_ctx *cx, const struct ns_stage *sg,
			      struct ns_buf *why);

struct ns_export_cmd {
	ns_export_emit_fn *emit;      /* or NULL ... */
	const char *refuse;           /* ... and the reason it is refused */
};

/* One entry per enum ns_cmd_id (emit.c). */
extern const struct ns_export_cmd ns_export_cmds[NS_CMD__COUNT];

/* The text of the support library every program starts with. */
extern const char ns_export_runtime[];

/* Write the program for sc into prog, with stand-ins of mode devices
 * (NS_DEVICES_DEFAULT: the scenario's own `devices:`, loop where it
 * requires loop, else tmpfs; loop stand-ins need mke2fs here). 0; or -1
 * with one line in err, "FILE:LINE: CMD: not exportable to C (REASON)",
 * and nothing in prog worth keeping. notes gets a line for each check the program does not
 * make (also written as comments in the program). */
int ns_export_c(const struct ns_scenario *sc, enum ns_devices_mode devices,
		struct ns_buf *prog, struct ns_buf *err, struct ns_buf *notes);

/* For emitters: append s as a C string literal. */
void ns_export_cstr(struct ns_buf *b, const char *s);
/* For emitters: a path word as the support library takes it, a handle
 * number (or -1) and the rest of the path; -1 with *why for a word the
 * program cannot name (another terminal's handle). */
int ns_export_word(struct ns_export_ctx *cx, const char *word, int *h, const char **rest,
		   struct ns_buf *why);
/* For emitters: the number of handle @NAME (added when new). */
size_t ns_export_handle(struct ns_export_ctx *cx, const char *name);

#endif
