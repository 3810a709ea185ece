/* wire.h - the frames that carry step requests and step results between
 * the runner, the sandbox and its terminals (all on one machine, so
 * native byte order). */
#ifndef NS_WIRE_H
#define NS_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/backend.h"
#include "run/result.h"

/* The step index of an abort frame: the run stopped early. Its output is
 * the reason, `closed` says a timeout and `err` a sandbox set-up failure. */
#define NS_WIRE_ABORT UINT32_MAX
/* The step index of the frame a worker ends each scenario with: `err`
 * holds how the scenario's sandbox ended, as a wait(2) status; `closed`
 * says the worker ends too. */
#define NS_WIRE_END (UINT32_MAX - 1)

/* 0, or -errno; -EPIPE when the peer is gone. */
int ns_wire_send_index(int fd, uint32_t index);
/* 1 with *index, 0 on a clean end of stream, or -errno. */
int ns_wire_recv_index(int fd, uint32_t *index);

int ns_wire_send_result(int fd, uint32_t step, const struct ns_step_out *o);
/* 1 with a result (o->output is heap), 0 on a clean end, or -errno;
 * -EPROTO for a torn or malformed frame. */
int ns_wire_recv_result(int fd, uint32_t *step, struct ns_step_out *o);

/* An abort frame: the reason, and whether the sandbox could not be built. */
int ns_wire_send_abort(int fd, const char *why, bool setup);
/* The same with the errno of the failure behind it (struct
 * ns_run.abort_err): a resource errno there makes the run one nstest
 * cannot judge (run/trouble.h). */
int ns_wire_send_abort_err(int fd, const char *why, bool setup, int err);
int ns_wire_send_end(int fd, int wait_status, bool last);

/* Look through the frames in buf[*off, len) for an end frame: 1 with
 * *off at its start and *wait_status and *last from it; 0 when there is
 * none yet (*off then skips the whole frames before the rest). */
int ns_wire_find_end(const char *buf, size_t len, size_t *off, int *wait_status,
		     bool *last);

/* The size of the frame at buf, whose head is whole. */
size_t ns_wire_frame_size(const char *buf, size_t len);

/* Rebuild a run of nsteps steps from the frames a worker sent. Returns
 * false when the last frame was torn (everything before it is kept). */
bool ns_wire_parse_run(const char *buf, size_t len, size_t nsteps,
		       struct ns_run *run);

#endif
