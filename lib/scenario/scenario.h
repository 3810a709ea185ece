/* scenario.h - a parsed scenario file: directives, prose and the plan of
 * steps (nstest-scenario(5)). Everything here is plain data: the parser
 * fills it, backends execute it, the matcher and reporters read it. */
#ifndef NS_SCENARIO_H
#define NS_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "commands/command.h"

struct ns_pipeline {
	struct ns_stage *stages;
	size_t n;
};

/* A pipeline of a command list after the first (A; B, A && B, A || B):
 * the operator before it, which decides whether it runs. */
enum ns_list_op {
	NS_LIST_ALWAYS,      /* ; */
	NS_LIST_IF_OK,       /* && */
	NS_LIST_IF_FAILED,   /* || */
};

struct ns_list_item {
	enum ns_list_op op;
	struct ns_pipeline pipeline;
};

struct ns_expect {
	char *text;           /* the expected line, indentation removed */
	int line;             /* its line number in the file */
};

struct ns_step {
	int line;             /* line of the command */
	int col;              /* column where the command text starts */
	char *terminal;       /* prompt name; "" for the bare prompt */
	char prompt;          /* '#' or '$' */
	bool bare_inner;      /* shown at a bare prompt that stands for an
			       * inner shell of terminal (dash's "# ") */
	char *cmdline;        /* the command as typed, trailing comment removed */
	struct ns_pipeline pipeline;
	/* the pipelines after the first when the line is a command list,
	 * in order; their output follows the first's in the step's */
	struct ns_list_item *more;
	size_t nmore;
	struct ns_expect *expect;
	size_t nexpect, expect_cap;
	bool unordered;       /* the block started with "[unordered]" */
	bool borrowed;        /* a plan's copy of another scenario's step
			       * (scenario/plan.h): its parts are that one's */
};

/* Kinds of raw lines, kept so that `show` and `--update` can reproduce the
 * file around the steps. */
enum ns_line_kind {
	NS_LINE_PROSE,
	NS_LINE_DIRECTIVE,
	NS_LINE_COMMAND,
	NS_LINE_EXPECT,
	NS_LINE_BLANK_SESSION, /* an indented line holding only blanks */
};

struct ns_raw_line {
	enum ns_line_kind kind;
	char *text;           /* the line as in the file, without '\n' */
	size_t step;          /* for COMMAND and EXPECT lines: index into steps */
};

enum ns_devices_mode {
	NS_DEVICES_DEFAULT = 0, /* whatever the command line says (tmpfs) */
	NS_DEVICES_TMPFS,
	NS_DEVICES_LOOP,
};

/* `errors:`: the form show and --update write a failing command's error
 * line in (nstest-scenario(5), ERRORS OF COMMANDS). */
enum ns_errors_form {
	NS_ERRORS_ANY = 0,      /* no directive: the form the file's lines use */
	NS_ERRORS_NSTEST,
	NS_ERRORS_UTIL_LINUX,
};

/* `requires:` flags: privileges and devices ... */
#define NS_REQ_ROOT  (1u << 0)
#define NS_REQ_LOOP  (1u << 1)
#define NS_REQ_USERNS (1u << 2)
/* ... and kernel features, probed at run time */
#define NS_FEAT_OPEN_TREE            (1u << 8)
#define NS_FEAT_MOVE_MOUNT           (1u << 9)
#define NS_FEAT_FSMOUNT              (1u << 10)
#define NS_FEAT_MOUNT_SETATTR        (1u << 11)
#define NS_FEAT_STATMOUNT            (1u << 12)
#define NS_FEAT_LISTMOUNT            (1u << 13)
#define NS_FEAT_MOVE_MOUNT_BENEATH   (1u << 14)
#define NS_FEAT_MOVE_MOUNT_SET_GROUP (1u << 15)
#define NS_FEAT_OPEN_TREE_ATTR       (1u << 16)
#define NS_FEAT_MOUNT_NOTIFY         (1u << 17)
#define NS_FEAT_OPEN_TREE_NAMESPACE  (1u << 18)
#define NS_FEAT_FIRST NS_FEAT_OPEN_TREE
#define NS_FEAT_LAST  NS_FEAT_OPEN_TREE_NAMESPACE

/* The name `requires:` gives a NS_REQ_* or NS_FEAT_* bit, or NULL. */
const char *ns_requirement_name(unsigned bit);

/* `xfail: RANGE: REASON`: a known kernel deviation. */
struct ns_version_cmp {
	char op[3];           /* ">=", ">", "<=", "<", "=" */
	int v[3];
};

struct ns_xfail {
	bool any;             /* RANGE was "*" */
	struct ns_version_cmp cmp[4];
	size_t ncmp;
	char *reason;
	int line;
};

struct ns_scenario {
	char *path;
	char *name;           /* file name without folder and .scn */
	char *root_dev;       /* `root:`; defaults to /dev/sda1 */
	unsigned requires;    /* NS_REQ_* */
	int kernel_min[3];    /* `kernel: >= X.Y[.Z]`; all zero when absent */
	enum ns_devices_mode devices; /* `devices:` */
	char *title;          /* `title:`, or NULL */
	unsigned columns;     /* `columns:`, the recording terminal's width,
			       * or 0 (run/narrow.h) */
	struct ns_lines prompts; /* `prompt:` forms, as written ({terminal},
			       * {path}); tried before the built-in ones */
	enum ns_errors_form errors; /* `errors:` */
	struct ns_xfail *xfails;
	size_t nxfails;

	struct ns_step *steps;
	size_t nsteps, steps_cap;

	bool remounts;        /* some stand-in name is mounted more than once */
	bool ro_mixed;        /* ... and both read-only and read-write */
	bool one_way;         /* a command no process can undo: see command.h */
	struct ns_cmd_set commands; /* the commands the scenario uses (ns_cmd_set_has) */
	char **devnames;      /* every distinct stand-in name, root_dev first */
	size_t ndevnames, devnames_cap;

	struct ns_raw_line *raw;
	size_t nraw, raw_cap;
};

/* At most this many errors of one file are reported; the rest are
 * counted. */
#define NS_DIAG_MAX 20

/* The errors of a file that did not parse. msg holds one line per error,
 * "file:line:col: error: what", in file order, without a final newline;
 * past NS_DIAG_MAX errors, the first NS_DIAG_MAX are followed by the line
 * "file: N more errors not shown (at most 20 are reported per file)".
 * Print it as one block. */
/* The prompt a session line (its indentation removed) starts with: its
 * length with the blank after it, 0 for none; the terminal's name is
 * namelen bytes at namestart (nstest-scenario(5), Prompts and terminals). */
size_t ns_scenario_prompt(const char *s, size_t *namestart, size_t *namelen);

struct ns_diag {
	char *msg;
	size_t n;             /* how many errors the file has, shown or not */
};

/* Parse text as the scenario at path. Returns the scenario, or NULL with
 * diag->msg set: every error of the file up to NS_DIAG_MAX. The parser
 * goes on after an error in a line with the next line; only a file that
 * is not text (a NUL byte, a control character, invalid UTF-8, CRLF, a
 * line over 1 MiB) stops it at the first such line. */
struct ns_scenario *ns_scenario_parse(const char *path, const char *text,
				      size_t len, struct ns_diag *diag);
/* Read and parse a file; errors reading it are reported the same way. */
struct ns_scenario *ns_scenario_load(const char *path, struct ns_diag *diag);
void ns_scenario_free(struct ns_scenario *sc);
void ns_diag_free(struct ns_diag *d);

/* The first expected line under the command at raw line r, as written
 * in the file (indentation, "[unordered]" and all), or NULL. */
const char *ns_scenario_first_expect(const struct ns_scenario *sc, size_t r);
/* The indentation of the block of the command at raw line r: its first
 * expected line's, else the command's ("\t" or four spaces). */
const char *ns_scenario_block_indent(const struct ns_scenario *sc, size_t r);

/* Index of a stand-in name in sc->devnames, or -1. */
int ns_scenario_devindex(const struct ns_scenario *sc, const char *name);

#endif
