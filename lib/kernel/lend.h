/* lend.h - a handle of one terminal used by another (TERM:@NAME, issue
 * 26): the references a step makes, and the passing of the fds. For the
 * length of the step, each handle named goes into the borrowing shell's
 * list under its whole name, "TERM:@NAME", as a duplicate of the owner's
 * fd; or, when it cannot be had, as an entry that fails with the errno
 * the owner would (ESRCH: the terminal is not running; EBADF: it holds no
 * such handle). In process, the fd is duplicated; as processes, it is
 * passed over the terminals' sockets with SCM_RIGHTS through the
 * controller, as container managers pass descriptors. */
#ifndef NS_LEND_H
#define NS_LEND_H

#include <stdint.h>

#include "base/util.h"
#include "kernel/handles.h"
#include "scenario/scenario.h"

/* Step requests (run/wire.c's index) that are not steps: the controller
 * asks a terminal for one of its handles (NS_LEND_GIVE, then
 * ns_lend_give) or hands one over (NS_LEND_TAKE, then ns_lend_take). */
#define NS_LEND_GIVE (UINT32_MAX - 16)
#define NS_LEND_TAKE (UINT32_MAX - 17)

/* The distinct TERM:@NAME references of a step's commands, wrapped ones
 * included, into refs. */
void ns_lend_refs(const struct ns_step *st, struct ns_lines *refs);

/* Add ref to hs as lent: fd (taken over) when err is 0, else an entry
 * that fails with err. */
void ns_lend_add(struct ns_handles *hs, const char *ref, int fd, int err);
/* Close and forget every lent entry (after the step). */
void ns_lend_drop(struct ns_handles *hs);

/* ---- as processes ---- */
/* Controller: ask the terminal at sock for its handle name ("@NAME"),
 * and read its answer: 0 with *fd, or -1 with errno for a broken socket;
 * *err is the owner's errno when it has no such handle. */
int ns_lend_ask(int sock, const char *name, int *fd, int *err);
/* Terminal: answer a NS_LEND_GIVE request read from sock, from hs. 0, or
 * -1 for a broken socket. */
int ns_lend_give(int sock, struct ns_handles *hs);
/* Controller: hand ref over to the terminal at sock (fd unless err). */
int ns_lend_send(int sock, const char *ref, int fd, int err);
/* Terminal: read a NS_LEND_TAKE request's handle into hs. 0 or -1. */
int ns_lend_take(int sock, struct ns_handles *hs);

#endif
