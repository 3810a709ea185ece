/* wire.c - see wire.h */
#include "run/wire.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* No step prints more (run/pipeline.c cuts it), and nothing else sends
 * as much: a frame whose head says more is torn, on every path that reads
 * one (body_len). */
#define NS_WIRE_MAX_OUTPUT NS_STEP_OUTPUT_MAX
#define NS_WIRE_MAX_ALIVE (1u << 24) /* numbers a frame carries */
#define NS_WIRE_MAX_CWD 65536u        /* bytes of a working directory */

#define NS_WIRE_CUT 1u /* result_head.flags: ns_step_out.cut */

struct result_head {
	uint32_t step;
	int32_t err;
	uint32_t closed;
	uint32_t len;
	char syscall[32];
	uint64_t view_key[3];   /* struct ns_view */
	uint32_t view_complete;
	uint32_t alive_known;   /* struct ns_alive: after the output, */
	uint32_t nalive[3];     /* nalive[k] numbers of kind k, each as */
			        /* two uint64_t, then */
	uint32_t cwd_len;       /* the working directory's bytes (0: none) */
	int32_t cause;          /* an abort frame's: struct ns_run.abort_err */
	uint32_t flags;         /* NS_WIRE_CUT */
};

/* The bytes of a frame after its head: the output, then the numbers
 * (SIZE_MAX for a head whose counts are absurd, more output than a step
 * may print or more numbers than a table holds: the caller then finds
 * the frame torn). */
static size_t body_len(const struct result_head *h)
{
	uint64_t n = (uint64_t)h->nalive[0] + h->nalive[1] + h->nalive[2];

	if (n > NS_WIRE_MAX_ALIVE || h->len > NS_WIRE_MAX_OUTPUT || h->cwd_len > NS_WIRE_MAX_CWD)
		return SIZE_MAX;
	return (size_t)h->len + (size_t)n * 2 * sizeof(uint64_t) + h->cwd_len;
}

/* Where a frame's working directory starts in its body. */
static size_t cwd_at(const struct result_head *h)
{
	return body_len(h) - h->cwd_len;
}

static void alive_encode(const struct ns_alive *a, struct result_head *h, struct ns_buf *b)
{
	h->alive_known = a->known;
	for (unsigned k = 0; k < 3; k++) {
		h->nalive[k] = a->known ? (uint32_t)a->n[k] : 0;
		for (size_t i = 0; i < h->nalive[k]; i++) {
			uint64_t xy[2] = { a->v[k][i].x, a->v[k][i].y };
			ns_buf_add(b, xy, sizeof(xy));
		}
	}
}

/* The numbers of a frame's body, which are whole (body_len). */
static void alive_decode(const struct result_head *h, const char *p, struct ns_alive *a)
{
	memset(a, 0, sizeof(*a));
	a->known = h->alive_known != 0;
	for (unsigned k = 0; a->known && k < 3; k++)
		for (size_t i = 0; i < h->nalive[k]; i++) {
			uint64_t xy[2];
			memcpy(xy, p, sizeof(xy));
			p += sizeof(xy);
			ns_alive_add(a, k, (struct ns_key){ xy[0], xy[1] });
		}
}

/* 1 when all n bytes came, 0 on end of stream before the first byte,
 * -EPROTO on a torn read, -errno on error. */
static int read_full(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, c + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return got ? -EPROTO : 0;
		got += (size_t)r;
	}
	return 1;
}

int ns_wire_send_index(int fd, uint32_t index)
{
	return ns_write_all(fd, &index, sizeof(index));
}

int ns_wire_recv_index(int fd, uint32_t *index)
{
	return read_full(fd, index, sizeof(*index));
}

static int send_frame(int fd, uint32_t step, const struct ns_step_out *o, int cause)
{
	struct result_head h;
	struct ns_buf nums = NS_BUF_INIT;
	size_t len = o->output ? strlen(o->output) : 0;
	const char *out = o->output;
	struct iovec iov[3];
	ssize_t done;
	int r = 0;

	memset(&h, 0, sizeof(h));
	h.step = step;
	h.cause = cause;
	h.err = o->err;
	h.closed = o->closed;
	h.flags = o->cut ? NS_WIRE_CUT : 0;
	/* what no receiver takes is not sent: the pipeline cuts a step's
	 * output before this, so only a path that bypassed it comes here */
	if (len > NS_WIRE_MAX_OUTPUT) {
		out = NS_STEP_CUT_LINE;
		len = strlen(out);
		h.flags |= NS_WIRE_CUT;
	}
	h.len = (uint32_t)len;
	memcpy(h.syscall, o->syscall, sizeof(h.syscall) - 1);
	memcpy(h.view_key, o->view.key, sizeof(h.view_key));
	h.view_complete = o->view.complete;
	alive_encode(&o->alive, &h, &nums);
	if (o->cwd && strlen(o->cwd) <= NS_WIRE_MAX_CWD) {
		h.cwd_len = (uint32_t)strlen(o->cwd);
		ns_buf_add(&nums, o->cwd, h.cwd_len);
	}
	iov[0] = (struct iovec){ &h, sizeof(h) };
	iov[1] = (struct iovec){ (void *)(uintptr_t)out, len };
	iov[2] = (struct iovec){ nums.data, nums.len };
	/* one call for the whole frame when it fits; the rest if it did not */
	do
		done = writev(fd, iov, 3);
	while (done < 0 && errno == EINTR);
	if (done < 0)
		r = -errno;
	for (int k = 0; r == 0 && k < 3; k++) {
		size_t part = iov[k].iov_len;

		if ((size_t)done >= part) {
			done -= (ssize_t)part;
			continue;
		}
		r = ns_write_all(fd, (char *)iov[k].iov_base + done, part - (size_t)done);
		done = 0;
	}
	ns_buf_free(&nums);
	return r;
}

int ns_wire_send_result(int fd, uint32_t step, const struct ns_step_out *o)
{
	return send_frame(fd, step, o, 0);
}

static void fill_out(struct ns_step_out *o, const struct result_head *h)
{
	o->err = h->err;
	o->closed = h->closed != 0;
	o->cut = (h->flags & NS_WIRE_CUT) != 0;
	memcpy(o->syscall, h->syscall, sizeof(o->syscall));
	o->syscall[sizeof(o->syscall) - 1] = '\0';
	memcpy(o->view.key, h->view_key, sizeof(o->view.key));
	o->view.complete = h->view_complete & NS_VIEW_ALL;
}

int ns_wire_recv_result(int fd, uint32_t *step, struct ns_step_out *o)
{
	struct result_head h;
	int r = read_full(fd, &h, sizeof(h));

	if (r <= 0)
		return r;
	size_t body = body_len(&h);
	if (body == SIZE_MAX)
		return -EPROTO;
	memset(o, 0, sizeof(*o));
	o->output = xmalloc(body + 1);
	r = body ? read_full(fd, o->output, body) : 1;
	if (r <= 0) {
		free(o->output);
		o->output = NULL;
		return r == 0 ? -EPROTO : r;
	}
	alive_decode(&h, o->output + h.len, &o->alive);
	if (h.cwd_len)
		o->cwd = xstrndup(o->output + cwd_at(&h), h.cwd_len);
	o->output[h.len] = '\0';
	fill_out(o, &h);
	*step = h.step;
	return 1;
}

int ns_wire_send_abort_err(int fd, const char *why, bool setup, int err)
{
	struct ns_step_out o;

	memset(&o, 0, sizeof(o));
	o.output = (char *)(uintptr_t)why;
	o.err = setup;
	return send_frame(fd, NS_WIRE_ABORT, &o, err);
}

int ns_wire_send_abort(int fd, const char *why, bool setup)
{
	return ns_wire_send_abort_err(fd, why, setup, 0);
}

int ns_wire_send_end(int fd, int wait_status, bool last)
{
	struct ns_step_out o;

	memset(&o, 0, sizeof(o));
	o.err = wait_status;
	o.closed = last;
	return ns_wire_send_result(fd, NS_WIRE_END, &o);
}

int ns_wire_find_end(const char *buf, size_t len, size_t *off, int *wait_status,
		     bool *last)
{
	struct result_head h;

	while (len - *off >= sizeof(h)) {
		memcpy(&h, buf + *off, sizeof(h));
		if (h.step == NS_WIRE_END) {
			*wait_status = h.err;
			*last = h.closed != 0;
			return 1;
		}
		if (body_len(&h) > len - *off - sizeof(h))
			return 0;
		*off += sizeof(h) + body_len(&h);
	}
	return 0;
}

size_t ns_wire_frame_size(const char *buf, size_t len)
{
	struct result_head h;

	if (len < sizeof(h))
		return len;
	memcpy(&h, buf, sizeof(h));
	return body_len(&h) > len - sizeof(h) ? len : sizeof(h) + body_len(&h);
}

bool ns_wire_parse_run(const char *buf, size_t len, size_t nsteps,
		       struct ns_run *run)
{
	size_t off = 0;

	memset(run, 0, sizeof(*run));
	run->n = nsteps;
	run->obs = xcalloc(nsteps, sizeof(*run->obs));
	while (off < len) {
		struct result_head h;
		char *text;

		if (len - off < sizeof(h))
			break;
		memcpy(&h, buf + off, sizeof(h));
		off += sizeof(h);
		if (body_len(&h) > len - off)
			break;
		text = xstrndup(buf + off, h.len);
		if (h.step == NS_WIRE_ABORT) {
			free(run->aborted);
			run->aborted = text;
			run->timed_out = h.closed != 0;
			run->setup_failed |= h.err != 0;
			run->abort_err = h.cause;
		} else if (h.step < nsteps && !run->obs[h.step].ran) {
			run->obs[h.step].ran = true;
			run->obs[h.step].out.output = text;
			fill_out(&run->obs[h.step].out, &h);
			alive_decode(&h, buf + off + h.len, &run->obs[h.step].out.alive);
			if (h.cwd_len)
				run->obs[h.step].out.cwd = xstrndup(buf + off + cwd_at(&h), h.cwd_len);
			/* A step cut at nstest's own cap says nothing about the
			 * kernel: the scenario cannot be judged, and `run
			 * --bisect` counts it as it counts a sandbox that could
			 * not be built, 125, never 1 (bad): bisecting must not
			 * blame a commit for a scenario that prints more than
			 * nstest keeps, on every kernel alike. Without --bisect
			 * the scenario fails (the judge fails the step). */
			run->setup_failed |= run->obs[h.step].out.cut;
		} else {
			free(text);
		}
		off += body_len(&h);
	}
	return off == len;
}
