/* pipeline.c - see pipeline.h */
#include "run/pipeline.h"

#include <string.h>

#include "commands/filter.h"
#include "run/view.h"
#include "commands/command.h"

void ns_pipeline_error_line(struct ns_buf *out, const char *cmd, int err)
{
	if (out->len && out->data[out->len - 1] != '\n')
		ns_buf_addc(out, '\n');
	ns_buf_addf(out, "%s: %s (%s)\n", cmd, ns_errname(err), strerror(err));
}

void ns_pipeline_status_line(struct ns_buf *out, const char *cmd, int status)
{
	ns_buf_addf(out, "%s: exit status %d\n", cmd, status);
}

/* A filter reads the output of the stage before it; it never fails, and
 * grep selecting nothing is not an error here. */
static void run_filter(const struct ns_stage *f, const struct ns_buf *in,
		       struct ns_buf *out)
{
	ns_filter_run(f->args, in->data, in->len, out);
}

/* The step printed more than NS_STEP_OUTPUT_MAX at some stage: what it
 * printed is dropped, and the step says so in a line of its own (an
 * errno of the command would blame the kernel, which did nothing
 * wrong). The judge fails the step, and `run --bisect` cannot judge the
 * scenario (run/result.h, run/wire.c). */
static void cut_step(struct ns_buf *cur, struct ns_step_out *out)
{
	ns_buf_free(cur);
	cur->max = 0;
	ns_buf_adds(cur, NS_STEP_CUT_LINE);
	out->err = 0;
	out->syscall[0] = '\0';
	out->view.complete = 0;
	out->cut = true;
}

/* One pipeline of the step into cur (empty, limited): the command, then
 * each filter. out gets the failing command's errno and system call,
 * and, with view, whether the output shows a whole table. Returns its
 * exit status as a shell sees it: a failed command's is not 0, else the
 * last stage's (a command's own, mountpoint's 32; a filter's, grep's 1
 * for nothing selected). */
static int run_one(const struct ns_step *st, const struct ns_pipeline *pl, bool view,
		   ns_stage_exec_fn *exec, void *term, struct ns_buf *cur, struct ns_step_out *out)
{
	struct ns_buf next = NS_BUF_LIMITED(NS_STEP_OUTPUT_MAX), tmp;
	struct ns_cmd_result res = { .err = 0 };
	const struct ns_stage *first = &pl->stages[0];
	int status = 0;

	if (exec(term, first, cur, &res) < 0 && !cur->cut) {
		/* grep X FILE failing to read FILE is grep's failure */
		const char *cmd = first->file_of_next ? pl->stages[1].argv[0]
			: res.cmd ? res.cmd : first->argv[0];

		ns_pipeline_error_line(cur, cmd, res.err);
		out->err = res.err;
		snprintf(out->syscall, sizeof(out->syscall), "%s", res.syscall ? res.syscall : "?");
		status = 1;
	} else if (cur->cut) {
		/* whether or not the command went on to fail */
	} else if (res.status && pl->n == 1 && !cur->len && !res.silent) {
		/* a silent failure must still show; with filters, the
		 * status is the last filter's, as in a shell, and none is
		 * shown (grep's neither) */
		ns_pipeline_status_line(cur, first->argv[0], res.status);
		status = res.status;
	} else {
		bool table = view && ns_view_table_step(st);
		/* the whole table, to see what the filters left of it */
		char *raw = table && pl->n > 1 ? xstrndup(cur->data ? cur->data : "", cur->len) : NULL;
		size_t rawlen = cur->len;

		status = pl->n == 1 ? res.status : 0;
		for (size_t i = 1; i < pl->n && !cur->cut; i++) {
			ns_buf_reset(&next);
			run_filter(&pl->stages[i], cur, &next);
			status = ns_filter_status(pl->stages[i].args, ns_buf_str(&next), next.len);
			tmp = *cur, *cur = next, next = tmp;
		}
		if (table && !cur->cut)
			out->view.complete = raw ? ns_view_complete(raw, rawlen, ns_buf_str(cur), cur->len)
						 : ns_view_complete(ns_buf_str(cur), cur->len,
								    ns_buf_str(cur), cur->len);
		free(raw);
	}
	ns_buf_free(&next);
	return status;
}

void ns_pipeline_run(const struct ns_step *st, ns_stage_exec_fn *exec, void *term,
		     struct ns_step_out *out)
{
	/* every stage's output is kept to the cap, the command's (both
	 * backends write into cur) and each filter's, so that a pipeline
	 * of `sed p` never holds more than twice the cap at once */
	struct ns_buf cur = NS_BUF_LIMITED(NS_STEP_OUTPUT_MAX);
	int status;

	memset(out, 0, sizeof(*out));
	/* a list's output is no whole table, whatever its first pipeline */
	status = run_one(st, &st->pipeline, st->nmore == 0, exec, term, &cur, out);
	for (size_t k = 0; k < st->nmore && !cur.cut; k++) {
		const struct ns_list_item *it = &st->more[k];
		struct ns_buf part = NS_BUF_LIMITED(NS_STEP_OUTPUT_MAX);

		/* bash: && runs on success, || on failure, ; always; a
		 * pipeline that does not run leaves the status as it was */
		if ((it->op == NS_LIST_IF_OK && status) || (it->op == NS_LIST_IF_FAILED && !status))
			continue;
		/* the step's errno is the last pipeline's that ran */
		out->err = 0;
		out->syscall[0] = '\0';
		status = run_one(st, &it->pipeline, false, exec, term, &part, out);
		if (part.cut)
			cur.cut = true;
		else
			ns_buf_add(&cur, part.data, part.len);
		ns_buf_free(&part);
	}
	if (cur.cut)
		cut_step(&cur, out);
	out->output = ns_buf_detach(&cur);
}
