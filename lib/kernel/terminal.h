/* terminal.h - one prompt of a scenario: a process that sits in a mount
 * namespace with its own root and working directory, and runs the steps
 * typed at that prompt. */
#ifndef NS_TERMINAL_H
#define NS_TERMINAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "commands/args.h"
#include "kernel/handles.h"
#include "mounts/snapshot.h"
#include "run/result.h"
#include "scenario/scenario.h"

struct ns_devices;


struct ns_level;
struct ns_local;

/* A terminal runs in one of two ways.
 * - In process (term_local.c), the usual way: the sandbox process plays
 *   every terminal itself, and a shell level (`unshare -m sh`, `chroot
 *   DIR`) saves the place of the shell it came from in outer[], for
 *   `exit` to go back to.
 * - As processes, when the scenario has a command no process can undo
 *   (command.h, one_way): a process per shell level. `unshare`, `chroot`
 *   and `capsh ... --` fork a child that becomes the inner shell while the
 *   outer one waits, exactly as a shell waits for the program it started.
 *   `exit` ends the inner process and the outer one carries on, in its
 *   own namespaces, root, directory and capabilities, untouched. */
struct ns_term {
	const struct ns_scenario *sc;
	int procfd;                 /* a procfs directory kept from the host */
	struct ns_devices *devs;    /* stand-ins of this sandbox */
	bool alive;                 /* read the table after each step */
	size_t depth;               /* shell levels above the first */
	struct ns_handles handles;  /* open_tree @NAME trees it holds */
	bool closing;               /* this shell level ends after the step */
	/* in process */
	bool in_process;
	struct ns_level *outer;     /* depth saved levels, innermost last */
	size_t outer_cap;
	struct ns_local *local;     /* every terminal, for nsenter */
	/* as processes */
	int sock;                   /* to the controller */
	int reply_fd;               /* inner shell: its outer shell's pipe */
	bool resumed;               /* an inner shell ended: no result to send */
	/* the process of each terminal's innermost shell, by
	 * ns_term_slot(), shared by every terminal process (0: none), for
	 * nsenter; this terminal's slot */
	pid_t *pids;
	size_t npids, slot;
};

/* What nsenter opens of another terminal's innermost shell: its mount
 * and user namespaces, root and working directory (-1: not open). */
struct ns_peer {
	int mnt, user, root, cwd;
};

/* The index of terminal name among the scenario's terminals, in the order
 * their prompts first appear; with name NULL (or one that is none), how
 * many terminals there are. */
size_t ns_term_slot(const struct ns_scenario *sc, const char *name);

/* Open the namespaces, root and directory of the innermost shell of the
 * terminal called name, as nsenter(1) opens /proc/PID/ns/... of a
 * process; ENOENT when that terminal is not running (its first shell
 * exited), as for a process that is gone. 0, or -1 with *res filled. */
int ns_term_peer_open(struct ns_term *t, const char *name, struct ns_peer *p,
		      struct ns_cmd_result *res);
void ns_peer_close(struct ns_peer *p);


/* Start an inner shell level. Returns 1 in the inner shell, which goes on
 * to change its namespaces, root or capabilities; -1 on failure. As
 * processes, it returns 0 in the outer shell once the inner one has ended
 * (t->resumed is then set and the step's result was already sent by the
 * inner shell). */
int ns_term_enter_shell(struct ns_term *t, struct ns_cmd_result *res);

/* This terminal's mount table, rendered as `how` into out: read from
 * /proc/self/mountinfo through the procfs handle kept from the host.
 * Returns 0, or -1 with *res filled. */
int ns_term_list_mounts(struct ns_term *t, enum ns_render how, struct ns_buf *out,
			struct ns_cmd_result *res);

/* Run one step's pipeline in this process. */
void ns_term_run_step(struct ns_term *t, const struct ns_step *st,
		      struct ns_step_out *out);

/* Serve steps over fd until it closes: read a step index, run it, write
 * the framed result. Never returns. */
void ns_term_serve(struct ns_term *t, int fd) __attribute__((noreturn));

#endif
