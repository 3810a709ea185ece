/* backend_model.c - the model backend: scenarios played on a userspace
 * model of the propagation rules (model.h) instead of the kernel. It needs
 * no privileges, no user namespaces and no mounts, so it runs anywhere.
 *
 * It follows the documents. Its configuration (struct ns_backend_config,
 * an argument of every call) may name quirks ("NAME,..." or "kernel") that
 * make it imitate known kernel deviations (quirks.c); with "kernel" it
 * also judges scenarios against the running kernel's release, so that an
 * xfail: line for that kernel applies as it would on the kernel itself.
 * It may name a rule to break, for the tests that prove the fuzzer
 * catches a wrong model. */
#include "run/backend.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "model/play.h"
#include "run/wire.h"

/* What the configuration says, parsed. */
struct settings {
	unsigned quirks;            /* 1 << enum m_quirk */
	enum m_break broken;
};

/* The running kernel's release, for the quirks "kernel": read once, an
 * answer that cannot change while the process lives. */
static const char *running_release(void)
{
	static struct utsname u;
	static bool read;

	if (!read)
		read = uname(&u) == 0;
	return read ? u.release : NULL;
}

static int parse_settings(const struct ns_backend_config *c, struct settings *s,
			  struct ns_buf *err)
{
	const char *release = ns_list_has(c->quirks, "kernel") ? running_release() : NULL;

	if (m_quirks_parse(c->quirks, release, &s->quirks, err) < 0)
		return -1;
	return m_break_parse(c->broken, &s->broken, err);
}

static const char *model_release(const struct ns_run_opts *o)
{
	/* kernel ranges apply only when the model imitates this kernel */
	return ns_list_has(o->config.quirks, "kernel") ? running_release() : NULL;
}

static char *model_privilege_problem(void)
{
	return NULL;
}

static bool yes(void)
{
	return true;
}

static bool no(void)
{
	return false;
}

static int model_has_feature(unsigned bit)
{
	/* listmount --check compares the kernel with itself */
	return !(bit & NS_FEAT_LISTMOUNT);
}

static int model_userns_allowed(void)
{
	return 1;
}

static int model_prepare(const struct ns_run_opts *o, struct ns_buf *err)
{
	struct settings s;

	if (o->devices == NS_DEVICES_LOOP) {
		ns_buf_adds(err, "the model backend has no loop devices: its stand-ins are superblocks of its own (drop --devices=loop)");
		return -1;
	}
	return parse_settings(&o->config, &s, err);
}

static int model_worker_init(const struct ns_run_opts *o, void **worker, struct ns_buf *err)
{
	/* the worker's for as long as it lives: it ends with the process */
	struct settings *s = xcalloc(1, sizeof(*s));

	*worker = s;
	return parse_settings(&o->config, s, err);
}

static int model_play(void *worker, const struct ns_scenario *sc,
		      const struct ns_run_opts *o, int fd, int *status)
{
	const struct settings *s = worker;
	struct m_play *p = m_play_new(sc, s->quirks, s->broken, false);
	int r = 0;

	if (o->no_alive)
		m_play_no_alive(p);
	*status = 0;
	for (uint32_t i = 0; i < sc->nsteps && r == 0; i++) {
		struct ns_step_out out;
		m_play_step(p, i, &out);
		r = ns_wire_send_result(fd, i, &out);
		ns_step_out_free(&out);
	}
	m_play_free(p);
	return r < 0 ? -1 : 0;
}

static void model_play_here(const struct ns_scenario *sc, const struct ns_run_opts *o,
			    struct ns_run *run)
{
	struct ns_buf err = NS_BUF_INIT;
	struct settings s;
	struct m_play *p;

	memset(run, 0, sizeof(*run));
	run->n = sc->nsteps;
	run->obs = xcalloc(sc->nsteps ? sc->nsteps : 1, sizeof(*run->obs));
	if (parse_settings(&o->config, &s, &err) < 0) {
		/* prepare(o) would have refused it */
		run->aborted = ns_buf_detach(&err);
		run->setup_failed = true;
		return;
	}
	ns_buf_free(&err);
	p = m_play_new(sc, s.quirks, s.broken, false);
	if (o->no_alive)
		m_play_no_alive(p);
	for (size_t i = 0; i < sc->nsteps; i++) {
		m_play_step(p, i, &run->obs[i].out);
		run->obs[i].ran = true;
	}
	m_play_free(p);
}

static int model_explain(const struct ns_scenario *sc, const struct ns_run_opts *o, size_t n,
			 char **why, char **out, struct ns_buf *err)
{
	struct settings s;
	struct m_play *p;

	if (parse_settings(&o->config, &s, err) < 0)
		return -1;
	p = m_play_new(sc, s.quirks, s.broken, true);
	for (size_t i = 0; i < n && i < sc->nsteps; i++) {
		struct ns_step_out step;
		struct ns_buf causes = NS_BUF_INIT;

		m_play_step(p, i, &step);
		m_play_causes(p, &causes);
		why[i] = causes.len ? ns_buf_detach(&causes) : NULL;
		ns_buf_free(&causes);
		if (out)
			out[i] = step.output;
		else
			free(step.output);
		free(step.cwd);
		ns_alive_free(&step.alive);
	}
	m_play_free(p);
	return 0;
}

const struct ns_backend ns_backend_model = {
	.name = "model",
	.is_kernel = false,
	.needs_privileges = false,
	.loop_standins = false,
	.has_quirks = true,
	.repeatable = true,
	.fuzz_role = NS_FUZZ_MODEL,
	.release = model_release,
	.privilege_problem = model_privilege_problem,
	.userns_allowed = model_userns_allowed,
	.loop_devices = no,
	.tmpfs_remounts = yes,
	.has_feature = model_has_feature,
	.prepare = model_prepare,
	.worker_init = model_worker_init,
	.play = model_play,
	.play_here = model_play_here,
	.explain = model_explain,
};
