/* test_export.c - nstest export's table and what it makes of a scenario:
 * every command id has exactly one of an emitter and a refusal reason;
 * a refused command is named with its file and line; an expected error
 * line, in nstest's words or util-linux's, becomes the errno the program
 * compares; the support library is in every program. */
#include <string.h>

#include "commands/command.h"
#include "export/export.h"
#include "scn.h"
#include "tap.h"

TEST(table)
{
	const struct ns_cmd_def *d;

	for (int id = 0; id < NS_CMD__COUNT; id++) {
		const struct ns_export_cmd *c = &ns_export_cmds[id];

		ok((c->emit != NULL) != (c->refuse != NULL),
		   "id %d: exactly one of an emitter and a refusal", id);
		ok(!c->refuse || *c->refuse, "id %d: a refusal says why", id);
	}
	/* the ids the brief's commands have are written, not refused */
	for (size_t i = 0; (d = ns_cmd_at(i)); i++) {
		static const char *const written[] = {
			"mkdir", "touch", "mount", "umount", "unshare", "exit", "cat", "open_tree",
			"move_mount", "mount_setattr", "fsopen", "fsconfig", "fsmount", "fspick",
			"close", "cd",
		};

		for (size_t k = 0; k < NS_ARRAY_SIZE(written); k++)
			if (!strcmp(d->name, written[k]))
				ok(ns_export_cmds[d->id].emit != NULL, "%s is exported", d->name);
	}
}

static char *export(const char *text, int *r, struct ns_buf *err)
{
	struct ns_scenario *sc = parse(text);
	struct ns_buf prog = NS_BUF_INIT, notes = NS_BUF_INIT;

	*r = sc ? ns_export_c(sc, NS_DEVICES_DEFAULT, &prog, err, &notes) : -2;
	ns_scenario_free(sc);
	ns_buf_free(&notes);
	return ns_buf_detach(&prog);
}

TEST(refused)
{
	struct ns_buf err = NS_BUF_INIT;
	int r;
	char *prog = export("    # mkdir /a\n    # findmnt /\n", &r, &err);

	ok(r == -1, "findmnt is refused");
	is_str(ns_buf_str(&err),
	       "nstest export: t.scn:2: findmnt: not exportable to C (findmnt's tables are not exported)",
	       "the refusal names the file, line and command");
	free(prog);
	ns_buf_reset(&err);
	prog = export("    # mkdir /a\n    # cat /proc/self/mountinfo | sort\n", &r, &err);
	ok(r == -1 && strstr(ns_buf_str(&err), "t.scn:2: sort: not exportable to C"),
	   "a filter without a plain form is refused: %s", ns_buf_str(&err));
	free(prog);
	ns_buf_free(&err);
}

TEST(errno_lines)
{
	struct ns_buf err = NS_BUF_INIT;
	int r;
	char *prog = export("    # mkdir /a\n    # mkdir /a\n    mkdir: EEXIST (File exists)\n"
			    "    # umount /a\n    umount: /a: not mounted.\n"
			    "    # mount --move /a /a\n    mount: ERROR\n", &r, &err);

	ok(r == 0, "exported: %s", ns_buf_str(&err));
	ok(strstr(prog, "xs_want(e, (const int[]){ EEXIST }, 1, 0);") != NULL,
	   "nstest's error line is its errno");
	ok(strstr(prog, "xs_want(e, (const int[]){ EINVAL }, 1, 0);") != NULL,
	   "util-linux's 'not mounted.' is EINVAL");
	ok(strstr(prog, "xs_want(e, NULL, 0, 1);") != NULL, "CMD: ERROR is any errno");
	ok(strstr(prog, "MS_REC | MS_PRIVATE") != NULL && strstr(prog, "xs_setup(devices") != NULL,
	   "the support library and its set-up are in the program");
	free(prog);
	ns_buf_free(&err);
}

TEST(tables)
{
	struct ns_buf err = NS_BUF_INIT;
	int r;
	char *prog = export("    # cat /proc/self/mountinfo | sed 's/ - .*//'\n"
			    "    [unordered]\n    20 19 0:30 / / rw,relatime\n    ...\n", &r, &err);

	ok(r == 0, "exported: %s", ns_buf_str(&err));
	ok(strstr(prog, "\"20 19 0:30 / / rw,relatime\",\n\t\t\t\"...\",") != NULL,
	   "the expected lines, ... included, are in the program");
	ok(strstr(prog, "xs_expect(x, 2, 1, xs_str(&o), raw);") != NULL,
	   "an unordered block of a whole table, matched with the raw table for releases");
	ok(strstr(prog, "xs_sed(&o, \" - .*\", 0, 0,") != NULL, "the sed filter is carried out");
	free(prog);
	ns_buf_free(&err);
}
