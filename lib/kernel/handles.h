/* handles.h - the open_tree handles a shell holds (@NAME: a mount fd, as
 * many as it opens), and the words that name a place through one
 * (@NAME/PATH), turned into what the system calls take. */
#ifndef NS_HANDLES_H
#define NS_HANDLES_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/args.h"

struct ns_handle {
	char name[NS_HANDLE_REF_MAX];   /* "@NAME", or "TERM:@NAME" when lent;
				     * "&N" a file exec N< holds; "!watch"
				     * the shell's fanotify watch (not passed
				     * on to the shells it starts) */
	int fd;
	bool lent;                  /* another terminal's, for one step
				     * (kernel/lend.h) */
	int err;                    /* a lent one that could not be had: the
				     * errno its use fails with (fd -1) */
};

struct ns_handles {
	struct ns_handle *v;
	size_t n, cap;
};

/* The handle called name[0..len), or NULL. */
struct ns_handle *ns_handles_find(struct ns_handles *hs, const char *name, size_t len);
/* A new handle called name, its fd -1 for the caller to fill. */
struct ns_handle *ns_handles_add(struct ns_handles *hs, const char *name);
/* Keep fd as name: a new handle, or in place of the fd an old one of
 * that name had, which is closed (as dup2(2) would over it). */
void ns_handles_keep(struct ns_handles *hs, const char *name, int fd);
/* Take h off the list; its fd is the caller's to close. */
void ns_handles_drop(struct ns_handles *hs, struct ns_handle *h);
/* to = a copy of from with each fd duplicated, as a child shell inherits
 * them, lent ones left out. 0, or -1 with errno (to is then empty). */
int ns_handles_dup(const struct ns_handles *from, struct ns_handles *to);
/* Close every fd and empty the list. */
void ns_handles_close(struct ns_handles *hs);
/* A shell's own handles ("!watch"), which the shells it starts do not
 * get: moved from one list to another (the in-process terminal keeps the
 * outer shell's list aside), or closed (a forked inner shell). */
void ns_handles_move_own(struct ns_handles *from, struct ns_handles *to);
void ns_handles_drop_own(struct ns_handles *hs);

/* A word as the *at calls take it: a path from the working directory
 * (AT_FDCWD), or from a handle's fd, *rel then the PATH of @NAME/PATH or
 * "" for @NAME (AT_EMPTY_PATH). 0, or -1 with errno EBADF for a handle
 * that is not open, as for an fd never opened. */
int ns_handle_at(struct ns_handles *hs, const char *word, int *dfd, const char **rel);

/* For the calls that take paths only (mount(2), umount2(2)): when a word
 * names a place through a handle, the shell's working directory moves to
 * the procfs directory kept from the host for the length of the call, and
 * every word is rewritten to be walked from there: @NAME[/PATH] to
 * self/fd/FD[/PATH], a relative path to self/fd/CWD/PATH through the
 * working directory it had. An absolute path and NULL stay as they are.
 * The kernel walks a magic link of /proc/PID/fd to exactly the place the
 * descriptor holds, as util-linux's X-mount.* and CRIU rely on. */
struct ns_via_proc {
	int cwd;                    /* the shell's directory, or -1: no move */
	char *w[2];
};

/* out[i] is what to pass for words[i] (n <= 2). 0, or -1 with errno; the
 * shell has not moved then. */
int ns_via_proc_begin(struct ns_handles *hs, int procfd, const char *const *words,
		      size_t n, const char **out, struct ns_via_proc *vp);
/* Back to the shell's directory. 0, or -1 with errno. */
int ns_via_proc_end(struct ns_via_proc *vp);

#endif
