/* command.h - the command table: one entry per scenario command, each with
 * the parser that checks its words before anything runs and the executor
 * that carries it out with system calls inside a terminal. */
#ifndef NS_COMMAND_H
#define NS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario/scenario.h"
#include "base/util.h"

struct ns_term;

/* What a parser reports: a message and the argv word it is about (its
 * column is used in the error). */
struct ns_parse_err {
	char *msg;            /* heap */
	size_t word;          /* index into stage->argv */
};

/* How a command failed. err is an errno value; syscall names the system
 * call (for reports). The matched error line is "<cmd>: <ENAME> (<msg>)". */
struct ns_cmd_result {
	int err;
	const char *syscall;
};

struct ns_cmd_def {
	const char *name;
	bool filter;          /* reads the output of the stage before it */
	/* Check st->argv and store the parsed form in st->args. Return 0, or
	 * -1 with *e filled. */
	int (*parse)(struct ns_stage *st, struct ns_parse_err *e);
	/* Run the command. `in` is the previous stage's output for a filter
	 * and NULL otherwise; output goes to `out`. Return 0, or -1 with
	 * *res filled. */
	int (*exec)(struct ns_term *t, const struct ns_stage *st,
		    const struct ns_buf *in, struct ns_buf *out,
		    struct ns_cmd_result *res);
	void (*free_args)(void *args);
	/* The stand-in device name (/dev/...) the command mounts, or NULL;
	 * may itself be NULL for commands that never mount a device. */
	const char *(*device)(const void *args);
	/* True when the command changes its shell in a way no process can
	 * undo (a user namespace entered, capabilities dropped); NULL means
	 * never. A scenario with such a command runs each shell level in a
	 * process of its own, so that `exit` can return to the shell before. */
	bool (*one_way)(const void *args);
};

/* Look a command up by name; NULL if there is none. */
const struct ns_cmd_def *ns_cmd_find(const char *name);

/* Helpers for parsers and executors. */
int ns_parse_fail(struct ns_parse_err *e, size_t word, const char *fmt, ...)
	NS_PRINTF(3, 4);
int ns_cmd_fail(struct ns_cmd_result *res, const char *syscall, int err);

/* The tables of each command module. */
extern const struct ns_cmd_def ns_cmd_fs[];     /* mkdir touch ls cd cat chroot */
extern const size_t ns_cmd_fs_count;
extern const struct ns_cmd_def ns_cmd_mount[];  /* mount umount */
extern const size_t ns_cmd_mount_count;
extern const struct ns_cmd_def ns_cmd_ns[];     /* unshare exit */
extern const size_t ns_cmd_ns_count;
extern const struct ns_cmd_def ns_cmd_newapi[]; /* open_tree move_mount mount_setattr */
extern const size_t ns_cmd_newapi_count;
extern const struct ns_cmd_def ns_cmd_listmount[]; /* listmount --check */
extern const size_t ns_cmd_listmount_count;
extern const struct ns_cmd_def ns_cmd_caps[];   /* capsh */
extern const size_t ns_cmd_caps_count;
extern const struct ns_cmd_def ns_cmd_time[];   /* sleep */
extern const size_t ns_cmd_time_count;
extern const struct ns_cmd_def ns_cmd_filter[]; /* grep sed awk wc */
extern const size_t ns_cmd_filter_count;

#endif
