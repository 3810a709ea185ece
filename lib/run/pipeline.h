/* pipeline.h - one step's pipeline, for every backend: the first stage
 * is handed to the backend's executor, and each filter after it reads
 * what the stage before printed (filters are pure text, the same for all
 * backends). A failing command ends the pipeline with its error line. */
#ifndef NS_PIPELINE_H
#define NS_PIPELINE_H

#include "base/util.h"
#include "run/result.h"
#include "scenario/scenario.h"

/* Carry out a command stage (never a filter) in the backend's terminal;
 * output goes to out. Return 0, or -1 with *res filled. */
typedef int ns_stage_exec_fn(void *term, const struct ns_stage *st,
			     struct ns_buf *out, struct ns_cmd_result *res);

/* Run step st: fills out->output, and out->err and out->syscall when a
 * stage failed (out->closed is left to the backend). */
void ns_pipeline_run(const struct ns_step *st, ns_stage_exec_fn *exec, void *term,
		     struct ns_step_out *out);

/* The line a failing command prints: "<cmd>: <ENAME> (<strerror>)". */
void ns_pipeline_error_line(struct ns_buf *out, const char *cmd, int err);

/* The line a command alone on its line prints when it ended with a
 * non-zero exit status but printed nothing that shows it (mountpoint
 * -q): "<cmd>: exit status <N>". */
void ns_pipeline_status_line(struct ns_buf *out, const char *cmd, int status);

#endif
