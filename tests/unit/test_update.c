/* test_update.c - `run --update` on scenarios and runs made in memory: the
 * canonical renumbering, which blocks are rewritten and which are kept,
 * the file around them reproduced byte for byte, and idempotence. No
 * kernel: each "run" is a list of what the steps printed. */
#include <stdlib.h>
#include <string.h>

#include "scn.h"
#include "tap.h"
#include "update_run.h"

/* ---- helpers ------------------------------------------------------------- */

/* A run in which step i printed out[i]; NULL ends the list, and steps
 * past it did not run. */
static void make_run(struct ns_run *run, size_t nsteps, const char *const *out)
{
	memset(run, 0, sizeof(*run));
	run->n = nsteps;
	run->obs = xcalloc(nsteps, sizeof(*run->obs));
	for (size_t i = 0; i < nsteps && out[i]; i++) {
		run->obs[i].ran = true;
		run->obs[i].out.output = xstrdup(out[i]);
	}
}

/* Rewrite text with the run's outputs; the new text (heap), or NULL on
 * an error, whose message goes to *err when err is not NULL. */
static char *update(const char *text, const char *const *out, size_t *blocks, char **err)
{
	struct ns_scenario *sc = parse(text);
	struct ns_run run;
	char *res;
	size_t len = strlen(text);

	if (!sc)
		return NULL;
	make_run(&run, sc->nsteps, out);
	res = update_run(sc, &run, len && text[len - 1] == '\n', blocks, err);
	ns_run_free(&run);
	ns_scenario_free(sc);
	return res;
}

/* ---- the file around the blocks ----------------------------------------- */

TEST(original)
{
	static const char *const texts[] = {
		"title: t\nroot: /dev/sda1\n\nProse.\n\n    # mkdir /a   # why\n\tsh2# ls /\n\ta\n",
		"    # ls /\n    a",            /* no final newline */
		"Prose\n    # ls /\n    [unordered]\n    a\n    \n\nend\n\n",
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(texts); i++) {
		struct ns_scenario *sc = parse(texts[i]);
		struct ns_buf b = NS_BUF_INIT;
		size_t len = strlen(texts[i]);

		ns_update_original(sc, texts[i][len - 1] == '\n', &b);
		is_str(ns_buf_str(&b), texts[i], "original: raw lines rebuild file %zu exactly", i);
		ns_buf_free(&b);
		ns_scenario_free(sc);
	}
}

/* ---- renumbering ---------------------------------------------------------- */

static const char mi_a[] =
	"49 47 0:40 / / rw,relatime - tmpfs /dev/sda1 rw\n"
	"50 49 0:41 / /a rw,relatime shared:7 - tmpfs /dev/sdb1 rw\n";

TEST(canonical_fresh)
{
	const char *out[] = { "", mi_a, NULL };
	char *got = update("    # mkdir /a\n    # cat /proc/self/mountinfo\n", out, NULL, NULL);

	is_str(got,
	       "    # mkdir /a\n"
	       "    # cat /proc/self/mountinfo\n"
	       "    101 100 8:1 / / rw,relatime - tmpfs /dev/sda1 rw\n"
	       "    102 101 8:2 / /a rw,relatime shared:1 - tmpfs /dev/sdb1 rw\n",
	       "fresh: IDs from 100 (parent first), devices 8:1.., groups from 1");
	free(got);
}

TEST(same_everywhere)
{
	/* The same mounts under other numbers give the same file. */
	const char *out1[] = { mi_a, "50 49 0:41 / /a rw shared:7 master:3\n", NULL };
	const char *out2[] = { "7 3 7:1 / / rw,relatime - tmpfs /dev/sda1 rw\n"
			       "4000 7 7:2 / /a rw,relatime shared:2 - tmpfs /dev/sdb1 rw\n",
			       "4000 7 7:2 / /a rw shared:2 master:99\n", NULL };
	const char *text = "    # cat /proc/self/mountinfo\n    sh2# cat /proc/self/mountinfo\n";
	char *a = update(text, out1, NULL, NULL), *b = update(text, out2, NULL, NULL);

	is_str(a, b, "fresh: the names do not depend on the kernel's numbers");
	ok(a && strstr(a, "    102 101 8:2 / /a rw shared:1 master:2\n"),
	   "fresh: one name per number across blocks and terminals");
	free(a);
	free(b);
}

TEST(findmnt_rows)
{
	/* A findmnt block gets the names the mountinfo block fixed, and
	 * fresh ones after them; its heading and other fields stay. */
	const char *out[] = { mi_a,
			      "ID PARENT MAJ:MIN TARGET\n"
			      "49     47   0:40  /\n"
			      "50     49   0:41  /a\n"
			      "51     50   0:41  /a/b\n", NULL };
	char *got = update("    # cat /proc/self/mountinfo\n"
			   "    # findmnt -l -o ID,PARENT,MAJ:MIN,TARGET\n", out, NULL, NULL);

	bool found = got && strstr(got, "    # findmnt -l -o ID,PARENT,MAJ:MIN,TARGET\n"
			      "    ID PARENT MAJ:MIN TARGET\n"
			      "    101     100   8:1  /\n"
			      "    102     101   8:2  /a\n"
			      "    103     102   8:2  /a/b\n");

	ok(found, "findmnt: rows renamed as the mountinfo lines, blanks kept");
	if (!found && got)
		printf("# %s", got);
	free(got);
}

TEST(kept_names)
{
	/* The first block matches with the article's numbers and stays; the
	 * second is rewritten in those names, fresh names skipping them. */
	const char *text =
		"    # cat /proc/self/mountinfo\n"
		"    101 61 8:1 / / rw\n"
		"    # mount /dev/sdb1 /a\n"
		"    # cat /proc/self/mountinfo\n"
		"    1 2 3:4 / / rw\n";
	const char *out[] = { "49 47 0:40 / / rw\n", "",
			      "49 47 0:40 / / rw\n50 49 0:41 / /a rw shared:5\n", NULL };
	size_t blocks = 0;
	char *got = update(text, out, &blocks, NULL);

	is_str(got,
	       "    # cat /proc/self/mountinfo\n"
	       "    101 61 8:1 / / rw\n"
	       "    # mount /dev/sdb1 /a\n"
	       "    # cat /proc/self/mountinfo\n"
	       "    101 61 8:1 / / rw\n"
	       "    100 101 8:2 / /a rw shared:1\n",
	       "kept: known numbers keep the file's names; fresh ones skip 101 and 8:1");
	ok(blocks == 1, "kept: one block rewritten (%zu)", blocks);
	free(got);
}

/* ---- which blocks ---------------------------------------------------------- */

TEST(matching_blocks_untouched)
{
	const char *text =
		"Prose stays.\n"
		"\n"
		"    # cat /proc/self/mountinfo   # comment stays\n"
		"    [unordered]\n"
		"    50 49 0:41 / /a rw\n"
		"    49 47 0:40 / / rw\n"
		"    # ls /\n"
		"    ...\n"
		"    b\n";
	const char *out[] = { "49 47 0:40 / / rw\n50 49 0:41 / /a rw\n", "a\nb\n", NULL };
	size_t blocks = 9;
	char *got = update(text, out, &blocks, NULL);

	is_str(got, text, "untouched: matching blocks with [unordered] and ... stay byte for byte");
	ok(blocks == 0, "untouched: nothing rewritten (%zu)", blocks);
	free(got);
}

TEST(failing_blocks)
{
	const char *text =
		"    # ls /\n"
		"    ...\n"
		"    z\n"
		"\tsh2# cat /proc/self/mountinfo\n"
		"\t[unordered]\n"
		"\t1 2 3:4 / / rw\n"
		"    # mkdir /q\n"
		"    unexpected\n"
		"    # ls /\n";
	const char *out[] = { "a\nb\n", "49 47 0:40 / / rw\n50 49 0:41 / /a rw\n", "", "q\n", NULL };
	size_t blocks = 0;
	char *got = update(text, out, &blocks, NULL);

	is_str(got,
	       "    # ls /\n"
	       "    a\n"
	       "    b\n"
	       "\tsh2# cat /proc/self/mountinfo\n"
	       "\t[unordered]\n"
	       "\t101 100 8:1 / / rw\n"
	       "\t102 101 8:2 / /a rw\n"
	       "    # mkdir /q\n"
	       "    # ls /\n"
	       "    q\n",
	       "failing: replaced whole, [unordered] kept, tab kept, emptied, added");
	ok(blocks == 4, "failing: four blocks rewritten (%zu)", blocks);
	free(got);
}

TEST(unordered_emptied)
{
	const char *out[] = { "", NULL };
	char *got = update("    # ls /\n    [unordered]\n    a\n", out, NULL, NULL);

	is_str(got, "    # ls /\n    [unordered]\n", "failing: an emptied block keeps its [unordered]");
	free(got);
}

TEST(not_run_kept)
{
	const char *text = "    # ls /\n    x\n    # ls /\n    101 100 8:1 / / rw\n";
	const char *out[] = { "49 47 0:40 / / rw\n", NULL };
	char *got = update(text, out, NULL, NULL);

	/* The block of the step that did not run keeps 100, 101 and 8:1, so
	 * the rewritten one must not take them. */
	is_str(got, "    # ls /\n    103 102 8:2 / / rw\n    # ls /\n    101 100 8:1 / / rw\n",
	       "not run: the block stays and its names are not reused");
	free(got);
}

TEST(final_newline)
{
	const char *out[] = { "a\n", NULL };
	char *got = update("    # ls /\n    b", out, NULL, NULL);

	is_str(got, "    # ls /\n    a", "no final newline stays without one");
	free(got);
}

/* ---- idempotence and refusals ---------------------------------------------- */

TEST(idempotent)
{
	const char *text = "T\n\n    # cat /proc/self/mountinfo\n    9 9 9:9 x\n\tsh2# ls /\n";
	const char *out[] = { mi_a, "a\n", NULL };
	const char *out2[] = { "7 3 7:1 / / rw,relatime - tmpfs /dev/sda1 rw\n"
			       "4000 7 7:2 / /a rw,relatime shared:2 - tmpfs /dev/sdb1 rw\n",
			       "a\n", NULL };
	size_t blocks = 9;
	char *once = update(text, out, NULL, NULL);
	char *twice = once ? update(once, out2, &blocks, NULL) : NULL;

	is_str(twice, once, "idempotent: a second update on another machine changes nothing");
	ok(blocks == 0, "idempotent: no block rewritten the second time (%zu)", blocks);
	free(once);
	free(twice);
}

TEST(refusals)
{
	const char *blank[] = { "a\n\nb\n", NULL };
	const char *prompt[] = { "# not a command\n", NULL };
	char *err = NULL;
	char *got = update("    # ls /\n", blank, NULL, &err);

	ok(!got && err && strstr(err, "t.scn:1:") && strstr(err, "blank line"),
	   "refused: a blank output line (%s)", err ? err : "(null)");
	free(err);
	err = NULL;
	got = update("    # ls /\n", prompt, NULL, &err);
	ok(!got && err && strstr(err, "command"), "refused: output that would read as a command (%s)",
	   err ? err : "(null)");
	free(err);
}
