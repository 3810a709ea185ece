/* test_wire.c - step results on the wire (run/wire.h): a frame carries
 * the output and the numbers the step's place held after it (struct
 * ns_alive) and the directory it ran in through a socket and through the stored byte stream the
 * runner parses, frames with numbers are skipped whole when looking for
 * the end frame, and a frame cut short or with absurd counts is refused
 * rather than read past its end. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "run/wire.h"
#include "tap.h"

static void out_with_numbers(struct ns_step_out *o, const char *text)
{
	memset(o, 0, sizeof(*o));
	o->output = xstrdup(text);
	o->err = 2;
	strcpy(o->syscall, "mount");
	o->view.key[0] = 7;
	o->view.complete = NS_VIEW_IDS;
	o->alive.known = true;
	ns_alive_add(&o->alive, 0, (struct ns_key){ 61, 0 });
	ns_alive_add(&o->alive, 0, (struct ns_key){ 17, 0 });
	ns_alive_add(&o->alive, 1, (struct ns_key){ 0, 41 });
	ns_alive_add(&o->alive, 2, (struct ns_key){ 3, 0 });
	o->cwd = xstrdup("/lab/x");
}

static bool same_alive(const struct ns_alive *a, const struct ns_alive *b)
{
	if (a->known != b->known)
		return false;
	for (unsigned k = 0; k < 3; k++) {
		if (a->n[k] != b->n[k])
			return false;
		for (size_t i = 0; i < a->n[k]; i++)
			if (!ns_key_eq(a->v[k][i], b->v[k][i]))
				return false;
	}
	return true;
}

/* What a socket carried, read back as bytes. */
static char *drain(int fd, size_t *len)
{
	struct ns_buf b = NS_BUF_INIT;
	char chunk[4096];
	ssize_t got;

	while ((got = read(fd, chunk, sizeof(chunk))) > 0)
		ns_buf_add(&b, chunk, (size_t)got);
	*len = b.len;
	return ns_buf_detach(&b);
}

TEST(result_round_trip)
{
	struct ns_step_out o, back;
	uint32_t step = 0;
	int sv[2];

	out_with_numbers(&o, "61 17 0:41 / /a rw\n");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		abort();
	ok(ns_wire_send_result(sv[0], 4, &o) == 0, "wire: a result with numbers is sent");
	ok(ns_wire_recv_result(sv[1], &step, &back) == 1, "wire: and received");
	ok(step == 4, "wire: its step");
	is_str(back.output, o.output, "wire: its output");
	ok(back.err == 2 && !strcmp(back.syscall, "mount") && back.view.key[0] == 7 &&
		   back.view.complete == NS_VIEW_IDS, "wire: its error and view");
	ok(same_alive(&back.alive, &o.alive), "wire: the numbers its place held");
	is_str(back.cwd, "/lab/x", "wire: the directory it ran in");
	ns_step_out_free(&back);

	o.alive.known = false;
	ok(ns_wire_send_result(sv[0], 5, &o) == 0 && ns_wire_recv_result(sv[1], &step, &back) == 1,
	   "wire: a result whose numbers are not known");
	ok(!back.alive.known && !back.alive.n[0] && !back.alive.n[1] && !back.alive.n[2],
	   "wire: stays not known, with no numbers");
	is_str(back.output, o.output, "wire: its output is whole");
	ns_step_out_free(&back);

	free(o.cwd);
	o.cwd = NULL;
	ok(ns_wire_send_result(sv[0], 6, &o) == 0 && ns_wire_recv_result(sv[1], &step, &back) == 1 &&
		   !back.cwd, "wire: no directory stays none");
	ns_step_out_free(&back);
	ns_step_out_free(&o);
	close(sv[0]);
	close(sv[1]);
}

TEST(stored_stream)
{
	struct ns_step_out o;
	struct ns_run run;
	char *buf;
	size_t len, off = 0;
	int sv[2], status = 0;
	bool last = false;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		abort();
	out_with_numbers(&o, "first\n");
	ns_wire_send_result(sv[0], 0, &o);
	ns_step_out_free(&o);
	out_with_numbers(&o, "second\n");
	ns_wire_send_result(sv[0], 1, &o);
	ns_wire_send_end(sv[0], 0x0100, true);
	close(sv[0]);
	buf = drain(sv[1], &len);
	close(sv[1]);

	ok(ns_wire_find_end(buf, len, &off, &status, &last) == 1 && status == 0x0100 && last,
	   "stream: the end frame is found past two frames with numbers");
	ok(ns_wire_parse_run(buf, off, 2, &run), "stream: the frames before it parse whole");
	ok(run.obs[0].ran && run.obs[1].ran, "stream: both steps ran");
	is_str(run.obs[1].out.output, "second\n", "stream: the second step's output");
	ok(same_alive(&run.obs[1].out.alive, &o.alive) && same_alive(&run.obs[0].out.alive, &o.alive),
	   "stream: each step's numbers");
	is_str(run.obs[1].out.cwd, "/lab/x", "stream: each step's directory");
	ns_run_free(&run);

	ok(!ns_wire_parse_run(buf, off - 8, 2, &run), "stream: a frame cut in its numbers is torn");
	ok(run.obs[0].ran && !run.obs[1].ran, "stream: what came before it is kept");
	ns_run_free(&run);
	off = 0;
	ok(ns_wire_find_end(buf, off + 40, &off, &status, &last) == 0,
	   "stream: no end frame in a short prefix");

	/* absurd counts: the body would be larger than any frame may be */
	memset(buf + 80, 0xff, 12); /* result_head.nalive[3] (wire.c) */
	ok(!ns_wire_parse_run(buf, len, 2, &run) && !run.obs[0].ran,
	   "stream: a head with absurd counts is refused, not read past");
	ns_run_free(&run);
	ns_step_out_free(&o);
	free(buf);
}

/* The cap on a step's output (run/result.h) holds on the wire: the cut
 * mark travels with the result, a run with a cut step cannot be judged,
 * an output past the cap is never sent, and a head that claims one is
 * torn on both receiving paths, the socket and the stored stream. */
TEST(cut_step)
{
	struct ns_step_out o, back;
	struct ns_run run;
	uint32_t step = 0;
	char *buf;
	size_t len;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		abort();
	memset(&o, 0, sizeof(o));
	o.output = xstrdup(NS_STEP_CUT_LINE);
	o.cut = true;
	ok(ns_wire_send_result(sv[0], 0, &o) == 0 && ns_wire_recv_result(sv[1], &step, &back) == 1,
	   "cut: a cut step's result is sent and received");
	ok(back.cut, "cut: the mark travels with it");
	ns_step_out_free(&back);
	ns_step_out_free(&o);

	/* a path that did not go through the pipeline: still not sent */
	memset(&o, 0, sizeof(o));
	o.output = xmalloc(NS_STEP_OUTPUT_MAX + 2);
	memset(o.output, 'x', NS_STEP_OUTPUT_MAX + 1);
	o.output[NS_STEP_OUTPUT_MAX + 1] = '\0';
	ok(ns_wire_send_result(sv[0], 1, &o) == 0, "cut: an output past the cap is sent as...");
	ns_step_out_free(&o);
	memset(&o, 0, sizeof(o));
	o.output = xstrdup("after\n");
	ns_wire_send_result(sv[0], 2, &o);
	ns_step_out_free(&o);
	close(sv[0]);
	buf = drain(sv[1], &len);
	close(sv[1]);
	ok(len < 4096, "cut: ...a short frame (%zu bytes)", len);
	ok(ns_wire_parse_run(buf, len, 3, &run), "cut: the stream parses whole");
	ok(run.obs[1].ran && run.obs[1].out.cut, "cut: the step is marked cut");
	is_str(run.obs[1].out.output, NS_STEP_CUT_LINE, "cut: with the line that says so");
	is_str(run.obs[2].out.output, "after\n", "cut: the step after it keeps its result");
	ok(run.setup_failed, "cut: the run cannot be judged (run --bisect: 125)");
	ns_run_free(&run);

	/* a head that claims one byte past the cap */
	uint32_t claim = (uint32_t)NS_STEP_OUTPUT_MAX + 1;
	size_t head = ns_wire_frame_size(buf, len); /* the first frame is whole */
	size_t off = 0;
	int status;
	bool last;

	memcpy(buf + 12, &claim, sizeof(claim)); /* result_head.len (wire.c) */
	ok(!ns_wire_parse_run(buf, len, 3, &run) && !run.obs[0].ran,
	   "cut: the stored stream refuses a head past the cap, not read past");
	ns_run_free(&run);
	ok(ns_wire_frame_size(buf, len) == len && ns_wire_find_end(buf, len, &off, &status, &last) == 0,
	   "cut: and nothing skips it as a frame");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		abort();
	ns_write_all(sv[0], buf, head);
	close(sv[0]);
	ok(ns_wire_recv_result(sv[1], &step, &back) == -EPROTO, "cut: so does the socket");
	close(sv[1]);
	free(buf);
}
