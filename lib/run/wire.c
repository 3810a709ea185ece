/* wire.c - see wire.h */
#include "run/wire.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define NS_WIRE_MAX_OUTPUT (1u << 30)

struct result_head {
	uint32_t step;
	int32_t err;
	uint32_t closed;
	uint32_t len;
	char syscall[32];
	uint64_t view_key[3];   /* struct ns_view */
	uint32_t view_complete;
	int32_t cause;          /* an abort frame's: struct ns_run.abort_err */
};

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
	size_t len = o->output ? strlen(o->output) : 0;
	ssize_t done;
	int r;

	memset(&h, 0, sizeof(h));
	h.step = step;
	h.cause = cause;
	h.err = o->err;
	h.closed = o->closed;
	h.len = (uint32_t)len;
	memcpy(h.syscall, o->syscall, sizeof(h.syscall) - 1);
	memcpy(h.view_key, o->view.key, sizeof(h.view_key));
	h.view_complete = o->view.complete;
	/* one call for the whole frame when it fits; the rest if it did not */
	do
		done = writev(fd, (struct iovec[]){ { &h, sizeof(h) }, { o->output, len } }, 2);
	while (done < 0 && errno == EINTR);
	if (done < 0)
		return -errno;
	if ((size_t)done < sizeof(h)) {
		r = ns_write_all(fd, (char *)&h + done, sizeof(h) - (size_t)done);
		done = (ssize_t)sizeof(h);
		if (r < 0)
			return r;
	}
	done -= (ssize_t)sizeof(h);
	return (size_t)done == len ? 0 : ns_write_all(fd, o->output + done, len - (size_t)done);
}

int ns_wire_send_result(int fd, uint32_t step, const struct ns_step_out *o)
{
	return send_frame(fd, step, o, 0);
}

static void fill_out(struct ns_step_out *o, const struct result_head *h)
{
	o->err = h->err;
	o->closed = h->closed != 0;
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
	if (h.len > NS_WIRE_MAX_OUTPUT)
		return -EPROTO;
	memset(o, 0, sizeof(*o));
	o->output = xmalloc(h.len + 1);
	r = h.len ? read_full(fd, o->output, h.len) : 1;
	if (r <= 0) {
		free(o->output);
		o->output = NULL;
		return r == 0 ? -EPROTO : r;
	}
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
		if (h.len > len - *off - sizeof(h))
			return 0;
		*off += sizeof(h) + h.len;
	}
	return 0;
}

size_t ns_wire_frame_size(const char *buf, size_t len)
{
	struct result_head h;

	if (len < sizeof(h))
		return len;
	memcpy(&h, buf, sizeof(h));
	return sizeof(h) + h.len;
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
		if (h.len > len - off)
			break;
		text = xstrndup(buf + off, h.len);
		off += h.len;
		if (h.step == NS_WIRE_ABORT) {
			free(run->aborted);
			run->aborted = text;
			run->timed_out = h.closed != 0;
			run->setup_failed = h.err != 0;
			run->abort_err = h.cause;
		} else if (h.step < nsteps && !run->obs[h.step].ran) {
			run->obs[h.step].ran = true;
			run->obs[h.step].out.output = text;
			fill_out(&run->obs[h.step].out, &h);
		} else {
			free(text);
		}
	}
	return off == len;
}
