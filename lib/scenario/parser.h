/* parser.h - the scenario parser's state and what its parts share:
 * scenario_parse.c (lines and whole files), directives.c (the header) and
 * misread.c (lines that look like what they are not). Internal to
 * lib/scenario/; everything else uses scenario.h. */
#ifndef NS_PARSER_H
#define NS_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario/scenario.h"

struct parser {
	struct ns_scenario *sc;
	const char *path;
	int lineno;
	bool header_open;      /* still in the leading block of directives */
	struct ns_step *open;  /* the step whose output lines may follow */
	bool prev_session;     /* the line before was a session line */
	/* blank lines inside an output block: the first one, and the step
	 * (an index into steps) whose output it interrupted; 0 for none */
	int blank_line;
	size_t blank_step;
	unsigned seen;         /* which directives were given, bit i: directives[i] */
	/* the errors so far: the first NS_DIAG_MAX, in line order, and a count */
	char *err[NS_DIAG_MAX];
	int err_line[NS_DIAG_MAX];
	size_t nerr;
	bool stop;             /* the file is not text: read no further */
	/* stand-in names mounted read-only, and read-write (the root is) */
	struct ns_lines mounted_ro, mounted_rw;
	/* the handle names made so far: mounts (open_tree, fsmount) and
	 * filesystem contexts (fsopen, fspick) */
	struct ns_lines handle_mounts, handle_contexts, handle_namespaces;
	struct ns_vars *vars;  /* each terminal's shell variables (vars.h), or
				* NULL: a '$' is refused */
	size_t vars_done;      /* the steps whose effects vars has */
	/* a bare prompt ("# ") that stands for an inner shell of a named
	 * terminal (inner_shell_prompt): that terminal, or NULL, and how
	 * many shells deep the bare prompt is */
	char *bare_of;
	size_t bare_depth;
};

/* Record an error at the current line and column col; returns -1. Errors
 * are kept in line order, the first NS_DIAG_MAX of them. */
int ns_parser_fail(struct parser *p, int col, const char *fmt, ...) NS_PRINTF(3, 4);
/* The same, for an error after which no line can be trusted. */
int ns_parser_fail_stop(struct parser *p, int col, const char *fmt, ...) NS_PRINTF(3, 4);
/* Add the i-th of n names to a list in a message ("a, b or c"). */
void ns_parser_add_listed(struct ns_buf *b, const char *name, size_t i, size_t n,
			  const char *last);
void ns_parser_add_raw(struct parser *p, enum ns_line_kind kind, const char *text,
		       size_t len);
struct ns_step *ns_parser_new_step(struct ns_scenario *sc);

/* directives.c: whether s is a stand-in device name (/dev/NAME). */
bool ns_parser_is_devname(const char *s);
/* Longer than a mount's source may be: the kernel refuses a source of
 * 256 characters or more (EINVAL), so the stand-in could never mount. */
#define NS_DEVNAME_MAX 255
bool ns_parser_devname_too_long(const char *s);
/* directives.c: "key: value" split (false for anything else), the index
 * of a known key (or -1), and one directive line read. */
bool ns_parser_split_directive(const char *line, size_t *keylen, const char **val);
int ns_parser_known_directive(const char *key, size_t keylen);
int ns_parser_directive(struct parser *p, const char *line, size_t keylen,
			const char *val);

/* misread.c */
bool ns_misread_looks_like_command(const char *s, size_t *at, size_t *end);
int ns_misread_command(struct parser *p, const char *line, size_t lead, bool session);
int ns_misread_output(struct parser *p, const char *line, size_t lead);
bool ns_misread_prompt(struct parser *p, const char *s, int indent);
bool ns_misread_blank(struct parser *p);

/* invisible.c: a byte-order mark, or a Unicode space or character of no
 * width in a line's indentation or after its prompt, is an error naming
 * it; -1 then, and *fixed is the line as it reads once fixed (the caller
 * frees it). 0 and *fixed NULL for a line without them. */
int ns_invisible_check(struct parser *p, const char *line, char **fixed);

#endif
