/* test_seam.c - the command table and the backends fit together: every
 * command has an id, every id but the filters' has a kernel executor,
 * and the backends answer every question the engine asks of them. */
#include <string.h>

#include "kernel/exec.h"
#include "run/backend.h"
#include "scenario/command.h"
#include "tap.h"

static void test_table(void)
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

static void test_backends(void)
{
	const struct ns_backend *be, *ref = NULL, *model = NULL;
	struct ns_buf names = NS_BUF_INIT;
	size_t n = 0;

	ns_backend_names(&names);
	for (size_t i = 0; (be = ns_backend_at(i)); i++, n++) {
		const char *name = be->name ? be->name : "(no name)";
		const char *rel;

		ok(be->name && *be->name && ns_backend_find(be->name) == be,
		   "%s: found by its name, which no other backend has", name);
		ok(strstr(ns_buf_str(&names), name) != NULL, "%s: in the list of names", name);
		ok(be->release && be->privilege_problem && be->userns_allowed && be->loop_devices &&
		   be->tmpfs_remounts && be->has_feature, "%s: answers every host question", name);
		ok(be->worker_init && be->play, "%s: plays scenarios in a worker", name);
		ok(be->fuzz_role == NS_FUZZ_NO_SIDE || be->fuzz_role == NS_FUZZ_REFERENCE ||
		   be->fuzz_role == NS_FUZZ_MODEL, "%s: a fuzzer side nstest knows", name);
		if (!be->release || !be->privilege_problem || !be->loop_devices)
			continue;
		if (be->fuzz_role == NS_FUZZ_REFERENCE && !ref)
			ref = be;
		if (be->fuzz_role == NS_FUZZ_MODEL && !model)
			model = be;

		/* the capability fields agree with the answers */
		rel = be->release();
		if (be->is_kernel)
			ok(rel && strchr(rel, '.'), "%s: a kernel, its release is a version: %s",
			   name, rel ? rel : "(null)");
		else
			ok(!rel, "%s: not a kernel, no release unless configured to imitate one", name);
		if (!be->needs_privileges) {
			char *problem = be->privilege_problem();
			ok(!problem, "%s: needs no privileges, and never says one is missing", name);
			free(problem);
		}
		if (!be->loop_standins)
			ok(!be->loop_devices(), "%s: no loop stand-ins, and none can be made", name);
		if (be->play_here)
			ok(!be->needs_privileges && !be->loop_standins && !be->is_kernel,
			   "%s: plays here, so it touches nothing of the machine", name);
	}
	ok(n >= 2, "the table has the backends (%zu)", n);
	ok(ns_backend_at(n) == NULL && ns_backend_find("no-such-backend") == NULL,
	   "past the table, and an unknown name, is NULL");
	ok(ref && ns_backend_fuzz_default(NS_FUZZ_REFERENCE) == ref,
	   "a backend is the fuzzer's reference side: %s", ref ? ref->name : "none");
	ok(model && ns_backend_fuzz_default(NS_FUZZ_MODEL) == model,
	   "a backend is the fuzzer's model side: %s", model ? model->name : "none");
	be = ns_backend_find("kernel");
	ok(be && be->is_kernel, "'kernel', the default backend, is a kernel");
	ns_buf_free(&names);
}

int main(void)
{
	test_table();
	test_backends();
	return tap_done();
}
