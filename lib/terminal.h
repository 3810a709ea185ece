/* terminal.h - one prompt of a scenario: a process that sits in a mount
 * namespace with its own root and working directory, and runs the steps
 * typed at that prompt. */
#ifndef NS_TERMINAL_H
#define NS_TERMINAL_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

struct ns_devices;

/* What a terminal left behind when it entered a shell with `unshare -m
 * sh`, so that `exit` can return to it exactly. */
struct ns_shell_level {
	int nsfd;   /* the mount namespace left */
	int rootfd; /* its root directory */
	int cwdfd;  /* its working directory */
};

struct ns_term {
	const char *name;
	const struct ns_scenario *sc;
	int procfd;                 /* a procfs directory kept from the host */
	struct ns_devices *devs;    /* stand-ins of this sandbox */
	struct ns_shell_level *levels;
	size_t depth, cap;
	bool closing;               /* `exit` left the terminal's first shell */
};

/* The result of one step as the terminal reports it. */
struct ns_step_out {
	int err;                /* 0, or the errno of the failing command */
	char syscall[32];       /* the system call that failed */
	char *output;           /* all output lines, error line last */
	bool closed;            /* the terminal ended after this step */
};

struct ns_cmd_result;

/* Remember the current namespace, root and working directory as a new
 * shell level (entered by `unshare -m sh` or `chroot DIR`). */
int ns_term_push_level(struct ns_term *t, struct ns_cmd_result *res);
/* Leave the innermost shell level. With restore, go back to what it
 * remembered (`exit`); without, just forget it (a failed enter). */
int ns_term_pop_level(struct ns_term *t, bool restore, struct ns_cmd_result *res);

/* Run one step's pipeline in this process. */
void ns_term_run_step(struct ns_term *t, const struct ns_step *st,
		      struct ns_step_out *out);

/* Serve steps over fd until it closes: read a step index, run it, write
 * the framed result. Never returns. */
void ns_term_serve(struct ns_term *t, int fd) __attribute__((noreturn));

#endif
