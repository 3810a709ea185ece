/* backend_model.c - the model backend: scenarios played on a userspace
 * model of the propagation rules (model.h) instead of the kernel. It needs
 * no privileges, no user namespaces and no mounts, so it runs anywhere.
 *
 * It follows the documents. NSTEST_MODEL_QUIRKS ("NAME,..." or "kernel")
 * makes it imitate known kernel deviations (quirks.c); with "kernel" it
 * also judges scenarios against the running kernel's release, so that an
 * xfail: line for that kernel applies as it would on the kernel itself.
 * NSTEST_MODEL_BREAK names a rule to break, for the tests that prove the
 * fuzzer catches a wrong model. */
#include "run/backend.h"

#include <stdlib.h>
#include <string.h>

#include "model/play.h"
#include "run/wire.h"

static struct {
	unsigned quirks;
	bool imitate_kernel;
	enum m_break broken;
} cfg;

static const char *model_release(void)
{
	/* kernel ranges apply only when the model imitates this kernel */
	return cfg.imitate_kernel ? ns_backend_kernel.release() : NULL;
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

static bool model_has_feature(unsigned bit)
{
	/* listmount --check compares the kernel with itself */
	return !(bit & (NS_FEAT_STATMOUNT | NS_FEAT_LISTMOUNT));
}

int ns_model_configure(const char *quirks, const char *broken, struct ns_buf *err)
{
	const char *release = NULL;

	cfg.imitate_kernel = false;
	if (quirks && strstr(quirks, "kernel")) {
		release = ns_backend_kernel.release();
		cfg.imitate_kernel = true;
	}
	if (m_quirks_parse(quirks, release, &cfg.quirks, err) < 0)
		return -1;
	cfg.broken = M_BREAK_NONE;
	if (broken && *broken) {
		if (strcmp(broken, "slaves-receive-nothing")) {
			ns_buf_addf(err, "NSTEST_MODEL_BREAK: unknown rule '%s' (known: slaves-receive-nothing)", broken);
			return -1;
		}
		cfg.broken = M_BREAK_SLAVES_RECEIVE_NOTHING;
	}
	return 0;
}

struct m_play *m_play_configured(const struct ns_scenario *sc, bool trace)
{
	return m_play_new(sc, cfg.quirks, cfg.broken, trace);
}

static int model_prepare(const struct ns_run_opts *o, struct ns_buf *err)
{
	if (o->devices == NS_DEVICES_LOOP) {
		ns_buf_adds(err, "the model backend has no loop devices: its stand-ins are superblocks of its own (drop --devices=loop)");
		return -1;
	}
	if (ns_model_configure(getenv("NSTEST_MODEL_QUIRKS"), getenv("NSTEST_MODEL_BREAK"), err) < 0)
		return -1;
	return 0;
}

static int model_worker_init(const struct ns_run_opts *o, void **worker, struct ns_buf *err)
{
	(void)o, (void)err;
	*worker = NULL;
	return 0;
}

static int model_play(void *worker, const struct ns_scenario *sc,
		      const struct ns_run_opts *o, int fd, int *status)
{
	struct m_play *p = m_play_configured(sc, false);
	int r = 0;

	(void)worker, (void)o;
	*status = 0;
	for (uint32_t i = 0; i < sc->nsteps && r == 0; i++) {
		struct ns_step_out out;
		m_play_step(p, i, &out);
		r = ns_wire_send_result(fd, i, &out);
		free(out.output);
	}
	m_play_free(p);
	return r < 0 ? -1 : 0;
}

static void model_play_here(const struct ns_scenario *sc, struct ns_run *run)
{
	struct m_play *p = m_play_configured(sc, false);

	memset(run, 0, sizeof(*run));
	run->n = sc->nsteps;
	run->obs = xcalloc(sc->nsteps ? sc->nsteps : 1, sizeof(*run->obs));
	for (size_t i = 0; i < sc->nsteps; i++) {
		m_play_step(p, i, &run->obs[i].out);
		run->obs[i].ran = true;
	}
	m_play_free(p);
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
	.userns_allowed = yes,
	.loop_devices = no,
	.tmpfs_remounts = yes,
	.has_feature = model_has_feature,
	.prepare = model_prepare,
	.worker_init = model_worker_init,
	.play = model_play,
	.play_here = model_play_here,
};
