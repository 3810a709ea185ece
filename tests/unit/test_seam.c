/* test_seam.c - the command table and the backends fit together: every
 * command has an id, every id but the filters' has an executor in each
 * backend's table (the kernel's and the model's), and the backends answer
 * every question the engine asks of them. Deleting an entry from either
 * executor table fails here, not as a run dying with signal 11. */
#include <string.h>

#include "kernel/exec.h"
#include "model/shell.h"
#include "backends/backends.h"
#include "run/backend.h"
#include "commands/command.h"
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
		if (!d->filter) {
			ok(ns_kernel_exec[d->id] != NULL, "%s: the kernel carries it out", d->name);
			ok(m_exec[d->id] != NULL, "%s: the model carries it out", d->name);
		}
		ok(ns_cmd_find(d->name) == d, "%s: found by its name", d->name);
	}
	/* every id once, but four that are shared on purpose: the filters'
	 * (grep, sed, awk, wc, head, tail, sort, cut), mount's, whose
	 * executor also carries out mount2's single mount(2) call,
	 * open_tree's, whose executors carry out open_tree_attr too, and
	 * the variables' (export, unset; NAME=VALUE is found by its form) */
	ok(n == NS_CMD__COUNT - 4 + 8 + 2 + 2 + 2, "the table walks over every command (%zu)", n);
	for (int id = 0; id < NS_CMD__COUNT; id++) {
		if (id == NS_CMD_FILTER)
			ok(seen[id] == 8, "eight filters share the filters' id");
		else if (id == NS_CMD_MOUNT)
			ok(seen[id] == 2 && ns_cmd_find("mount2") && (int)ns_cmd_find("mount2")->id == id,
			   "mount and mount2 share mount's id");
		else if (id == NS_CMD_OPEN_TREE)
			ok(seen[id] == 2 && ns_cmd_find("open_tree_attr") &&
			   (int)ns_cmd_find("open_tree_attr")->id == id,
			   "open_tree and open_tree_attr share open_tree's id");
		else if (id == NS_CMD_VARIABLE)
			ok(seen[id] == 2 && ns_cmd_find("unset") && ns_cmd_find("D=1") == &ns_cmd_assign &&
			   ns_cmd_assign.id == NS_CMD_VARIABLE,
			   "export and unset share the variables' id, and NAME=VALUE is theirs");
		else
			ok(seen[id] == 1, "id %d belongs to exactly one command", id);
	}
	/* every id, not only the table's: an id no command uses yet still
	 * needs both executors before a command may take it */
	for (int id = 0; id < NS_CMD__COUNT; id++) {
		if (id == NS_CMD_FILTER)
			continue;
		ok(ns_kernel_exec[id] != NULL, "id %d has a kernel executor", id);
		ok(m_exec[id] != NULL, "id %d has a model executor", id);
	}
	ok(ns_kernel_exec[NS_CMD_FILTER] == NULL && m_exec[NS_CMD_FILTER] == NULL,
	   "no backend executes a filter");
}

TEST(backends)
{
	/* a scenario every backend can be asked to explain: a mount, then
	 * the table it shows */
	static const char text[] = "    # mkdir /m\n    # mount /dev/sdb1 /m\n"
				   "    # cat /proc/self/mountinfo\n";
	const struct ns_run_opts plain = { .devices = NS_DEVICES_TMPFS, .config = { NULL, NULL } };
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
		rel = be->release(&plain);
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

		/* a configuration is refused or taken where there are quirks */
		if (be->has_quirks) {
			struct ns_run_opts q = plain;
			struct ns_buf err = NS_BUF_INIT;

			ok(be->prepare && be->prepare(&plain, &err) == 0,
			   "%s: has quirks, and prepares without any: %s", name, ns_buf_str(&err));
			ns_buf_reset(&err);
			q.config.quirks = "no-such-quirk";
			ok(be->prepare && be->prepare(&q, &err) < 0 && strstr(ns_buf_str(&err), "no-such-quirk"),
			   "%s: refuses a quirk it does not know: %s", name, ns_buf_str(&err));
			ns_buf_reset(&err);
			q.config.quirks = NULL;
			q.config.broken = "no-such-rule";
			ok(be->prepare && be->prepare(&q, &err) < 0 && strstr(ns_buf_str(&err), "no-such-rule"),
			   "%s: refuses a rule to break it does not know: %s", name, ns_buf_str(&err));
			q.config.broken = NULL;
			q.config.quirks = "kernel";
			rel = be->release(&q);
			ok(be->is_kernel || (rel && strchr(rel, '.')),
			   "%s: imitating the running kernel, it is judged by its release: %s",
			   name, rel ? rel : "(null)");
			ns_buf_free(&err);
		}

		/* what it explains, and whether two runs number mounts alike */
		if (be->explain) {
			struct ns_diag d = { NULL, 0 };
			struct ns_scenario *sc = ns_scenario_parse("t.scn", text, strlen(text), &d);
			char *why[3] = { NULL }, *out[3] = { NULL }, *why2[3] = { NULL }, *out2[3] = { NULL };
			struct ns_buf err = NS_BUF_INIT;

			ok(sc && be->explain(sc, &plain, 3, why, out, &err) == 0,
			   "%s: explains a scenario: %s", name, ns_buf_str(&err));
			ok(why[1] && strstr(why[1], "/dev/sdb1"), "%s: says why the mount is there: %s",
			   name, why[1] ? why[1] : "(nothing)");
			ok(out[2] && strstr(out[2], " /m "), "%s: with what each step printed", name);
			if (be->repeatable)
				ok(sc && be->explain(sc, &plain, 3, why2, out2, &err) == 0 && out[2] && out2[2] &&
				   !strcmp(out[2], out2[2]) && why[1] && why2[1] && !strcmp(why[1], why2[1]),
				   "%s: repeatable: a second run numbers the mounts alike", name);
			for (size_t k = 0; k < 3; k++) {
				free(why[k]);
				free(out[k]);
				free(why2[k]);
				free(out2[k]);
			}
			ns_buf_free(&err);
			ns_diag_free(&d);
			ns_scenario_free(sc);
		}
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
