/* test_seam.c - the command table and the backends fit together: every
 * command has an id, every id but the filters' has a kernel executor,
 * and the backends answer every question the engine asks of them. */
#include <string.h>

#include "kernel/exec.h"
#include "run/backend.h"
#include "scenario/command.h"
#include "tap.h"

TEST(table)
{
	unsigned seen[NS_CMD__COUNT] = { 0 };
	const struct ns_cmd_def *d;
	size_t n = 0;

	for (size_t i = 0; (d = ns_cmd_at(i)); i++, n++) {
		bool id_ok = d->id < NS_CMD__COUNT;

		ok(id_ok && d->parse, "%s: an id and a parser", d->name);
		if (!id_ok)
			continue;
		seen[d->id]++;
		ok(d->filter == (d->id == NS_CMD_FILTER),
		   "%s: a filter exactly when its id is the filters'", d->name);
		if (!d->filter)
			ok(ns_kernel_exec[d->id] != NULL, "%s: the kernel carries it out", d->name);
		ok(ns_cmd_find(d->name) == d, "%s: found by its name", d->name);
	}
	/* every id once, but two that are shared on purpose: the filters'
	 * (grep, sed, awk, wc, head, tail, sort, cut) and mount's, whose
	 * executor also carries out mount2's single mount(2) call */
	ok(n == NS_CMD__COUNT - 2 + 8 + 2, "the table walks over every command (%zu)", n);
	for (int id = 0; id < NS_CMD__COUNT; id++) {
		if (id == NS_CMD_FILTER)
			ok(seen[id] == 8, "eight filters share the filters' id");
		else if (id == NS_CMD_MOUNT)
			ok(seen[id] == 2 && ns_cmd_find("mount2") && (int)ns_cmd_find("mount2")->id == id,
			   "mount and mount2 share mount's id");
		else
			ok(seen[id] == 1, "id %d belongs to exactly one command", id);
	}
	ok(ns_kernel_exec[NS_CMD_FILTER] == NULL, "no backend executes a filter");
}

TEST(backends)
{
	const struct ns_backend *k = ns_backend_find("kernel");

	ok(k == &ns_backend_kernel, "'kernel' finds the kernel backend");
	ok(ns_backend_find("model") == &ns_backend_model, "'model' finds the model backend");
	ok(ns_backend_find("no-such-backend") == NULL, "an unknown backend is NULL");
	if (!k)
		return;
	ok(k->release && k->privilege_problem && k->userns_allowed && k->loop_devices &&
	   k->tmpfs_remounts && k->has_feature, "the kernel backend answers every host question");
	ok(k->worker_init && k->play, "... and plays scenarios");
	ok(k->release() && strchr(k->release(), '.'), "its release is a kernel version: %s",
	   k->release() ? k->release() : "(null)");
}
