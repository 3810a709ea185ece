/* prepare.c - what `run` and `show` both need: the backend, the options
 * that choose how sandboxes are built, and the checks that must hold
 * before the first one (privileges or rootless mode, loop devices, the
 * loop image), each asked of the backend. */
#include "harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "run/backend.h"
#include "run/require.h"
#include "run/trouble.h"

/* The one place that picks a backend: --backend NAME, or the kernel. */
const struct ns_backend *choose_backend(const char *name)
{
	const struct ns_backend *be = ns_backend_find(name ? name : DEFAULT_BACKEND);
	struct ns_buf known = NS_BUF_INIT;

	if (be)
		return be;
	ns_backend_names(&known);
	usage_error("unknown backend '%s' (known: %s)", name, ns_buf_str(&known));
	ns_buf_free(&known);
	return NULL;
}

void opt_quirk(struct config_opts *c, const char *name)
{
	ns_buf_addf(&c->quirks, "%s%s", c->quirks.len ? "," : "", name);
}

int opt_quirks(struct config_opts *c, const char *v)
{
	if (strcmp(v, "kernel")) {
		usage_error("--quirks takes 'kernel' (every quirk known for the running kernel), not '%s'; name one with --quirk NAME", v);
		return -1;
	}
	opt_quirk(c, "kernel");
	return 0;
}

/* "--backend A" (or "--backend A or --backend B") for every backend with
 * quirks. */
static void quirk_backends(struct ns_buf *out)
{
	const struct ns_backend *be;

	for (size_t i = 0; (be = ns_backend_at(i)); i++)
		if (be->has_quirks)
			ns_buf_addf(out, "%s--backend %s", out->len ? " or " : "", be->name);
}

void add_build_quirks(struct ns_buf *quirks)
{
	const struct ns_backend *be;

	if (!ns_list_has(ns_buf_str(quirks), "kernel") ||
	    ns_list_has(ns_buf_str(quirks), "tmpfs-inode64"))
		return;
	for (size_t i = 0; (be = ns_backend_at(i)); i++)
		if (be->is_kernel && be->tmpfs_inode64) {
			if (be->tmpfs_inode64())
				ns_buf_adds(quirks, ",tmpfs-inode64");
			return;
		}
}

void config_from_env(struct ns_backend_config *cfg)
{
	cfg->quirks = getenv("NSTEST_MODEL_QUIRKS");
	cfg->broken = getenv("NSTEST_MODEL_BREAK");
}

int apply_config(struct config_opts *c, const struct ns_backend *be, struct ns_run_opts *o)
{
	config_from_env(&o->config);
	if (!c->quirks.len)
		return 0;
	if (!be->has_quirks) {
		struct ns_buf which = NS_BUF_INIT;

		quirk_backends(&which);
		usage_error("--quirk and --quirks make a model imitate a kernel: they need %s",
			    which.len ? ns_buf_str(&which) : "a backend with quirks, and this nstest has none");
		ns_buf_free(&which);
		return -1;
	}
	add_build_quirks(&c->quirks);
	o->config.quirks = ns_buf_str(&c->quirks);
	return 0;
}

void config_opts_free(struct config_opts *c)
{
	ns_buf_free(&c->quirks);
}

int opt_devices(const char *v, struct ns_run_opts *o)
{
	if (!strcmp(v, "tmpfs"))
		o->devices = NS_DEVICES_TMPFS;
	else if (!strcmp(v, "loop"))
		o->devices = NS_DEVICES_LOOP;
	else {
		usage_error("--devices must be tmpfs or loop, not '%s'", v);
		return -1;
	}
	return 0;
}

int opt_uint(const char *v, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long n;

	if (!*v || *v == '-')
		return -1;
	n = strtoul(v, &end, 10);
	if (*end || n > max)
		return -1;
	*out = (unsigned)n;
	return 0;
}

int opt_timeout(const char *v, struct ns_run_opts *o)
{
	if (opt_uint(v, 86400, &o->timeout_s) == 0)
		return 0;
	usage_error("--timeout must be a number of seconds from 0 (no watchdog) to 86400, not '%s'", v);
	return -1;
}

/* Without the capabilities, or on request, sandboxes go into a user
 * namespace of their own (rootless mode) where the kernel allows it. */
static int choose_userns(const struct ns_backend *be, struct ns_run_opts *o)
{
	char *problem = o->userns || !be->needs_privileges ? NULL : be->privilege_problem();
	int allowed;

	if (!o->userns && !problem)
		return 0;
	allowed = be->userns_allowed();
	if (allowed < 0) {
		/* no answer about the system: nstest's own trouble (a probe
		 * with no process to run in), which --bisect makes 125 */
		int e = errno;
		char *limit = ns_trouble_what(e);
		fprintf(stderr, "nstest: error: %s%scannot tell whether user namespaces are allowed: the probe could not run: %s%s%s\n",
			problem ? problem : "", problem ? "; " : "", strerror(e),
			limit ? "; " : "", limit ? limit : "");
		free(limit);
		free(problem);
		return -1;
	}
	if (!allowed) {
		fprintf(stderr, "nstest: error: %s%sthis system does not allow user namespaces either (see user.max_user_namespaces), so rootless mode is not available\n",
			problem ? problem : "", problem ? "; " : "");
		free(problem);
		return -1;
	}
	if (problem)
		fprintf(stderr, "nstest: not running as root: sandboxes run in a user namespace (rootless mode; loop devices are not available)\n");
	free(problem);
	o->userns = true;
	if (o->devices == NS_DEVICES_LOOP) {
		fprintf(stderr, "nstest: error: --devices=loop needs real root; rootless mode has tmpfs stand-ins only\n");
		return -1;
	}
	return 0;
}

static bool any_loop(const struct ns_backend *be, struct ns_scenario *const *sc, size_t n,
		     const struct ns_run_opts *o)
{
	for (size_t i = 0; i < n; i++)
		if (ns_require_mode(sc[i], o, be) == NS_DEVICES_LOOP)
			return true;
	return false;
}

int prepare_sandboxes(const struct ns_backend *be, struct ns_run_opts *o,
		      struct ns_scenario *const *sc, size_t n)
{
	struct ns_run_opts po = *o;
	struct ns_buf err = NS_BUF_INIT;
	int r = 0;

	if (choose_userns(be, o) < 0)
		return -1;
	po = *o;
	if (o->devices == NS_DEVICES_LOOP && !be->loop_devices()) {
		if (be->loop_standins)
			fprintf(stderr, "nstest: error: --devices=loop: /dev/loop-control is not usable (try: modprobe loop)\n");
		else
			fprintf(stderr, "nstest: error: --devices=loop: the %s backend has no loop devices\n", be->name);
		return -1;
	}
	/* a scenario that asks for loop devices where there are none skips,
	 * saying why; otherwise the image is made once, before any fork */
	if (!o->userns && any_loop(be, sc, n, o) && be->loop_devices())
		po.devices = NS_DEVICES_LOOP;
	/* the backend's own set-up, once, before any worker is forked */
	if (be->prepare && be->prepare(&po, &err) < 0) {
		fprintf(stderr, "nstest: error: %s%s\n",
			po.devices == NS_DEVICES_LOOP && be->loop_standins ? "loop stand-ins: " : "",
			ns_buf_str(&err));
		r = -1;
	}
	ns_buf_free(&err);
	return r;
}
