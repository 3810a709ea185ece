/* command.h - the command table: one definition per scenario command,
 * holding everything nstest knows of it but how a backend carries it out:
 * its id and parser (which checks its words before anything runs and
 * turns them into the backend-neutral arguments of commands/args.h),
 * what it does to the shell, how its output is judged, the words its
 * tool fails in, and what it needs of the machine. The rest of lib/ asks
 * the definition, never the id. Carrying a command out is a backend's
 * business: each backend has an executor for every ns_cmd_id
 * (kernel/exec.c, model/exec_list.c; tests/unit/test_seam.c checks both
 * tables). Filters are pure text and run the same for every backend
 * (run/pipeline.c). */
#ifndef NS_COMMAND_H
#define NS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "commands/shape.h"

struct ns_cmd_def;

/* One program of a pipeline: `grep /mnt`, `mount --bind a b`. */
struct ns_stage {
	const struct ns_cmd_def *def;
	char **argv;          /* argv[0] is the command name */
	int *col;             /* 1-based column of each argv word in the file */
	size_t argc;
	void *args;           /* what def->parse made of argv; def->free_args */
	char *redirect;       /* the FILE of `echo ... > FILE`, out of argv, or NULL */
	bool append;          /* it was `>> FILE` */
	bool file_of_next;    /* the `cat FILE` the parser put before a filter
			       * that reads FILE (grep X FILE): its failure is
			       * the filter's */
};


/* Every command a backend must carry out. Filters share one id: they are
 * never handed to a backend. */
enum ns_cmd_id {
	NS_CMD_MKDIR,
	NS_CMD_TOUCH,
	NS_CMD_LS,
	NS_CMD_CD,
	NS_CMD_CAT,
	NS_CMD_CHROOT,
	NS_CMD_MOUNT,
	NS_CMD_UMOUNT,
	NS_CMD_UNSHARE,
	NS_CMD_EXIT,
	NS_CMD_SLEEP,
	NS_CMD_CAPSH,
	NS_CMD_OPEN_TREE,
	NS_CMD_MOVE_MOUNT,
	NS_CMD_MOUNT_SETATTR,
	NS_CMD_LISTMOUNT,
	NS_CMD_FINDMNT,
	NS_CMD_NSENTER,
	NS_CMD_CLOSE,
	NS_CMD_FSOPEN, NS_CMD_FSCONFIG, NS_CMD_FSMOUNT, NS_CMD_FSPICK,
	/* files: rmdir mv ln pwd echo (commands/fs.c), stat mountpoint diff
	 * (commands/inspect.c) */
	NS_CMD_RMDIR, NS_CMD_MV, NS_CMD_LN, NS_CMD_PWD, NS_CMD_ECHO,
	NS_CMD_STAT, NS_CMD_MOUNTPOINT, NS_CMD_DIFF,
	/* readlink realpath pivot_root (commands/fs.c) */
	NS_CMD_READLINK, NS_CMD_REALPATH, NS_CMD_PIVOT_ROOT,
	/* statmount (commands/statmount.c) */
	NS_CMD_STATMOUNT,
	/* exec N< FILE, exec N<&- (commands/fs.c) */
	NS_CMD_EXEC,
	/* watch (commands/watch.c) */
	NS_CMD_WATCH,
	/* df (commands/df.c) */
	NS_CMD_DF,
	/* NAME=VALUE, export, unset (commands/vars.c): the parser's */
	NS_CMD_VARIABLE,
	NS_CMD_FILTER,
	NS_CMD__COUNT
};

/* A set of command ids (struct ns_scenario.commands: the commands a
 * scenario uses), a bit per id, as wide as the ids need. */
struct ns_cmd_set {
	unsigned long long w[(NS_CMD__COUNT + 63) / 64];
};

static inline void ns_cmd_set_add(struct ns_cmd_set *s, enum ns_cmd_id id)
{
	s->w[id / 64] |= 1ull << (id % 64);
}

static inline bool ns_cmd_set_has(const struct ns_cmd_set *s, enum ns_cmd_id id)
{
	return s->w[id / 64] >> (id % 64) & 1;
}

/* What a command does to the shell it is typed at. */
enum ns_shell_effect {
	NS_SHELL_KEEPS,       /* runs and the shell prompts again */
	NS_SHELL_STARTS,      /* starts an inner shell that `exit` leaves
			       * (chroot, capsh; unshare and nsenter unless
			       * they run a command: ns_stage_starts_shell) */
	NS_SHELL_ENDS,        /* ends the shell (exit) */
};

/* What a failing command line would be worded from in its tool's own
 * messages (run/ulmsg.c): the tool that speaks, what the line does
 * (NS_ULMSG_* bits), and the operands a message may name. */
struct ns_msg_ctx {
	const char *cmd;              /* "mount", "umount", "mkdir", ... */
	unsigned what;                /* NS_ULMSG_* */
	const char *const *targets;   /* the paths a message may name */
	size_t ntargets;
	const char *src, *type;       /* mount's source and -t, or NULL */
};

/* What a command line does, as far as the choice of message goes. */
#define NS_ULMSG_NEW     (1u << 0) /* mount SOURCE TARGET */
#define NS_ULMSG_BIND    (1u << 1) /* mount --bind / --rbind */
#define NS_ULMSG_MOVE    (1u << 2) /* mount --move */
#define NS_ULMSG_PROP    (1u << 3) /* mount --make-* TARGET */
#define NS_ULMSG_RDONLY  (1u << 4) /* -o ro */
#define NS_ULMSG_REMOUNT (1u << 5) /* -o remount */
#define NS_ULMSG_UMOUNT  (1u << 6) /* umount TARGET */
#define NS_ULMSG_UMOUNT_R (1u << 7) /* umount -R TARGET */
#define NS_ULMSG_ALL     0xffu
#define NS_ULMSG_FILES   (1u << 8) /* a file command: mkdir, touch, ... */

/* What a parser reports: a message and the argv word it is about (its
 * column is used in the error). */
struct ns_parse_err {
	char *msg;            /* heap */
	size_t word;          /* index into stage->argv */
};

/* What a handle name stands for, for the whole file. */
enum ns_handle_kind {
	NS_HANDLE_MOUNT,
	NS_HANDLE_CONTEXT,
	NS_HANDLE_NAMESPACE,
};

struct ns_cmd_def {
	const char *name;
	enum ns_cmd_id id;
	bool filter;          /* reads the output of the stage before it */
	enum ns_shell_effect shell;
	bool builtin;         /* a shell builtin (cd, exit): no wrapper
			       * (unshare -m CMD) can run it */
	bool utf8;            /* prints in the C.UTF-8 locale, which the
			       * runner loads before its workers fork (findmnt) */
	bool handles;         /* its paths may name a place through an
			       * open_tree handle (@NAME, @NAME/PATH); the
			       * parser refuses such a word to any other
			       * command, whose backends would take it for a
			       * file name */
	bool text_words;      /* its words are text, never paths (echo): a
			       * word like @NAME is no handle to refuse */
	bool fd_redirs;       /* its words are descriptors' redirections
			       * (exec N< FILE, N<&-), and no other command's
			       * may be */
	/* Check st->argv and store the parsed form in st->args (the type
	 * commands/args.h gives for id). Return 0, or -1 with *e filled. */
	int (*parse)(struct ns_stage *st, struct ns_parse_err *e);
	void (*free_args)(void *args);
	/* The stand-in device name (/dev/...) the command mounts, or NULL,
	 * and in *ro whether it mounts it read-only; may itself be NULL for
	 * commands that never mount a device. */
	const char *(*device)(const void *args, bool *ro);
	/* True when the command changes its shell in a way no process can
	 * undo (a user namespace entered, capabilities dropped); NULL means
	 * never. The kernel backend then runs each shell level of the
	 * scenario in a process of its own, so that `exit` can return to
	 * the shell before. */
	bool (*one_way)(const void *args);
	/* The command a wrapper runs (`unshare -m CMD`, `nsenter ... CMD`),
	 * or NULL when it starts a shell; NULL itself for commands that
	 * never run another. The scenario parser parses it as a stage of its
	 * own (its def and args), with the wrapper's argv and columns. */
	struct ns_stage *(*inner)(void *args);
	/* The terminal the command names (nsenter -t NAME), or NULL; the
	 * parser checks that a prompt of that name came before, and names
	 * terminal_option ("-t") in its message. */
	const char *(*terminal)(const void *args);
	const char *terminal_option;
	/* Called when the command's output goes into a pipe (filters follow
	 * it, on its own or run by a wrapper), as a program's stdout would
	 * then be no terminal: ls prints one name a line. NULL: no change. */
	void (*piped)(void *args);
	/* For a filter: the argv index of a FILE operand it reads instead of
	 * its input (grep PATTERN FILE), or 0; NULL: never. The parser puts
	 * `cat FILE` before a filter that starts a pipeline with one, and
	 * refuses one after a pipe. */
	size_t (*file)(const void *args);

	/* The handle the command makes, or NULL, and in *kind what it is: a
	 * mount (open_tree, fsmount), a filesystem context (fsopen, fspick)
	 * or a mount namespace (open_tree --namespace); NULL itself for
	 * commands that make none. */
	const char *(*makes)(const void *args, enum ns_handle_kind *kind);
	/* The handles it closes (close @NAME...), *n of them; NULL itself
	 * for commands that close none. */
	const char *const *(*closes)(const void *args, size_t *n);
	/* The namespace handle it enters (nsenter --mount=@NS), or NULL;
	 * NULL itself for commands that enter none. */
	const char *(*needs_namespace)(const void *args);
	/* The handle it needs as a filesystem context (fsconfig, fsmount),
	 * or NULL; NULL itself for commands that need none. Every other
	 * handle word of a command with `handles` must name a mount, close
	 * takes either: the parser keeps each name to one kind. */
	const char *(*needs_context)(const void *args);
	bool handle_any;      /* its handles may be of either kind (close) */

	/* ---- how its output is judged; NULL: never ---- */
	/* When its lines hold numbers in a shape of their own (findmnt's ID
	 * column, stat -c %d): fill *out and return true; false for plain
	 * text or mountinfo records, the matcher's default. */
	bool (*shape)(const void *args, struct ns_match_shape *out);
	/* Whether it prints the terminal's whole mount table as mountinfo
	 * records (cat /proc/self/mountinfo): the judge then knows which
	 * numbers are gone (run/view.c). */
	bool (*whole_table)(const void *args);
	/* Whether, not piped, it lays names out in GNU ls's columns, which a
	 * block may also write one a line (run/ls_form.c). */
	bool (*columns)(const void *args);
	/* The words its tool fails in: fill *c and return true, or false
	 * when the line gets no message of a real tool (mount2, a filter's
	 * own read). st is the stage, parsed (st->args set). */
	bool (*messages)(const struct ns_stage *st, struct ns_msg_ctx *c);
};

/* The command a wrapper stage runs, or NULL (see inner above). */
const struct ns_stage *ns_stage_inner(const struct ns_stage *st);
/* The stage whose command does the work: st, or what its wrapper runs,
 * followed down (unshare -m findmnt: the findmnt). */
const struct ns_stage *ns_stage_cmd(const struct ns_stage *st);
/* Whether the stage starts an inner shell that `exit` leaves: chroot,
 * capsh, and unshare or nsenter without a command (its def's shell). */
bool ns_stage_starts_shell(const struct ns_stage *st);
/* Whether the stage ends its shell (exit). */
bool ns_stage_ends_shell(const struct ns_stage *st);

/* Look a command up by name; NULL if there is none. */
const struct ns_cmd_def *ns_cmd_find(const char *name);
/* The i-th command of the whole table (filters included), or NULL past
 * the end: for walking every command. */
const struct ns_cmd_def *ns_cmd_at(size_t i);
/* For "did you mean": the known name closest to an unknown one (see
 * ns_closest), among the filters only when filters is true, else among
 * every command; NULL when none is close. */
const char *ns_cmd_closest(const char *name, bool filters);

/* The commands whose paths may name a place through an open_tree handle
 * (def->handles), as a list for messages: "mount, umount, ...". */
const char *ns_cmd_handle_takers(void);

/* A long option of a real tool whose short form nstest takes. */
struct ns_long_option {
	const char *cmd, *name;   /* "grep", "--count" */
	char letter;              /* 'c' */
};

/* For parsers: the error for the long option `word` (argv[i]) of cmd,
 * which nstest does not take; compared without its "=VALUE". One of
 * cmd's in v[0..n) is named with its short form ("write -c for
 * --count"), one close to such a name gets "did you mean -c, that is
 * --count?", any other "unknown option WORD". Fills *e, returns -1. */
int ns_parse_long_option_fail(const struct ns_long_option *v, size_t n, const char *cmd,
			      const char *word, size_t i, struct ns_parse_err *e);

/* For parsers: fill *e and return -1. */
int ns_parse_fail(struct ns_parse_err *e, size_t word, const char *fmt, ...)
	NS_PRINTF(3, 4);

/* The tables of each command module (commands/). */
extern const struct ns_cmd_def ns_cmd_fs[];     /* mkdir touch ls cd cat chroot
						 * rmdir mv ln pwd echo readlink
						 * realpath pivot_root */
extern const size_t ns_cmd_fs_count;
extern const struct ns_cmd_def ns_cmd_mount[];  /* mount umount */
extern const size_t ns_cmd_mount_count;
extern const struct ns_cmd_def ns_cmd_ns[];     /* unshare exit nsenter */
extern const size_t ns_cmd_ns_count;
extern const struct ns_cmd_def ns_cmd_newapi[]; /* open_tree move_mount mount_setattr close
						 * fsopen fsconfig fsmount fspick */
extern const size_t ns_cmd_newapi_count;
extern const struct ns_cmd_def ns_cmd_statmount[]; /* statmount, listmount --check */
extern const size_t ns_cmd_statmount_count;
extern const struct ns_cmd_def ns_cmd_watch[]; /* watch */
extern const size_t ns_cmd_watch_count;
extern const struct ns_cmd_def ns_cmd_findmnt[]; /* findmnt */
extern const size_t ns_cmd_findmnt_count;
extern const struct ns_cmd_def ns_cmd_caps[];   /* capsh */
extern const size_t ns_cmd_caps_count;
extern const struct ns_cmd_def ns_cmd_time[];   /* sleep */
extern const size_t ns_cmd_time_count;
extern const struct ns_cmd_def ns_cmd_inspect[]; /* stat mountpoint diff */
extern const size_t ns_cmd_inspect_count;
extern const struct ns_cmd_def ns_cmd_df[];    /* df */
extern const size_t ns_cmd_df_count;
extern const struct ns_cmd_def ns_cmd_filter[]; /* grep sed awk wc */
extern const size_t ns_cmd_filter_count;
extern const struct ns_cmd_def ns_cmd_vars[];  /* export unset */
extern const size_t ns_cmd_vars_count;
/* NAME=VALUE...: what ns_cmd_find() gives for a word that assigns */
extern const struct ns_cmd_def ns_cmd_assign;

/* A shell variable's name at the start of s ([A-Za-z_][A-Za-z0-9_]*):
 * true, with its length. */
bool ns_var_name_len(const char *s, size_t *len);
/* Is word NAME=VALUE? */
bool ns_var_assignment(const char *word);

/* $$ expands to a shell's number, one per shell (terminal or inner
 * shell): nstest plays a terminal's shells in processes of its own
 * choosing, so the number stands for the PID the recording showed and
 * the judge renames it (NS_MATCH_COL_PID). The numbers start at
 * NS_SHELL_PID_BASE, which is PID_MAX_LIMIT on 64-bit Linux: no real
 * process ID reaches it. Whether s[0..len) is one. */
#define NS_SHELL_PID_BASE 4194304UL
#define NS_SHELL_PID_COUNT 1048576UL
bool ns_shell_pid(const char *s, size_t len);

#endif
