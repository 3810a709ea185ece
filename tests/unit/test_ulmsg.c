/* test_ulmsg.c - expected error lines in util-linux's words (run/ulmsg.h):
 * the judge takes one only when the step failed with the errno it stands
 * for and its command and paths are the command line's; show's and
 * --update's rendering; the table itself. No kernel: each "run" is made
 * in memory, a step's errno and its nstest error line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/ulmsg.h"
#include "run/verdict.h"
#include "run/pipeline.h"
#include "scn.h"
#include "tap.h"
#include "update_run.h"

/* Step i of sc failed with err after printing before. */
static void fail_step(struct ns_run *run, const struct ns_scenario *sc, size_t i,
		      int err, const char *before)
{
	struct ns_buf b = NS_BUF_INIT;

	ns_buf_adds(&b, before ? before : "");
	if (err)
		ns_pipeline_error_line(&b, sc->steps[i].pipeline.stages[0].argv[0], err);
	free(run->obs[i].out.output);
	run->obs[i].out.output = ns_buf_detach(&b);
	run->obs[i].out.err = err;
}

/* A run of sc where every step ran and printed nothing, except the last,
 * which failed with err after printing before. */
static void make_run(struct ns_run *run, const struct ns_scenario *sc, int err,
		     const char *before)
{
	memset(run, 0, sizeof(*run));
	run->n = sc->nsteps;
	run->obs = xcalloc(sc->nsteps, sizeof(*run->obs));
	for (size_t i = 0; i < sc->nsteps; i++) {
		run->obs[i].ran = true;
		run->obs[i].out.output = xstrdup("");
	}
	fail_step(run, sc, sc->nsteps - 1, err, before);
}

/* Whether scenario text passes when its last step fails with err. */
static int judge_out(const char *text, int err, const char *before)
{
	struct ns_scenario *sc = parse(text);
	struct ns_run run;
	struct ns_verdict v;
	int pass;

	if (!sc)
		return -1;
	make_run(&run, sc, err, before);
	ns_judge(sc, &run, NULL, &v);
	pass = v.status == NS_PASS;
	ns_verdict_free(&v);
	ns_run_free(&run);
	ns_scenario_free(sc);
	return pass;
}

static int judge(const char *text, int err)
{
	return judge_out(text, err, NULL);
}

#define DMESG "           dmesg(1) may have more information after failed mount system call.\n"

TEST(umount)
{
	const char *busy = "    # umount /mntS\n    umount: /mntS: target is busy.\n";

	ok(judge(busy, EBUSY) == 1, "umount: target is busy, EBUSY: pass");
	ok(judge(busy, EINVAL) == 0, "target is busy with EINVAL: fail");
	ok(judge(busy, 0) == 0, "target is busy, but umount succeeded: fail");
	ok(judge("    # umount /mntP\n    umount: /mntS: target is busy.\n", EBUSY) == 0,
	   "another path: fail");
	ok(judge("    # umount /mntS\n    mount: /mntS: target is busy.\n", EBUSY) == 0,
	   "mount's name on umount's failure: fail");
	ok(judge("    # umount /mntS\n    umount: /mntS: target is busy.\n" DMESG, EBUSY) == 0,
	   "a dmesg line after umount's message: fail");
	ok(judge("    # umount /mntS\n    umount: EBUSY (Device or resource busy)\n", EBUSY) == 1,
	   "nstest's form still passes");
	ok(judge("    # umount /x\n    umount: /x: not mounted.\n", EINVAL) == 1, "not mounted: EINVAL");
	ok(judge("    # umount -l /x\n    umount: /x: not mounted.\n", EINVAL) == 1, "umount -l: the same");
	ok(judge("    # umount /x\n    umount: /x: not mounted\n", EINVAL) == 0, "without the final period: fail");
	ok(judge("    # umount /nope\n    umount: /nope: no mount point specified.\n", ENOENT) == 1,
	   "no mount point specified: ENOENT");
	ok(judge("    # umount /a /b\n    umount: /b: target is busy.\n", EBUSY) == 1,
	   "several targets: any of them");
	ok(judge("    # umount /a /b\n    umount: /c: target is busy.\n", EBUSY) == 0,
	   "several targets: none of them: fail");
	ok(judge("    # umount /x\n    umount: /x: umount(2) system call failed: Too many levels of symbolic links.\n",
		 ELOOP) == 1, "the generic message names its errno");
	ok(judge("    # umount /x\n    umount: /x: umount(2) system call failed: Too many levels of symbolic links.\n",
		 EINVAL) == 0, "the generic message of another errno: fail");
	/* umount -R names a target that is no mount point itself, without
	 * a period (sys-utils/umount.c umount_recursive()) */
	ok(judge("    # umount -R /x\n    umount: /x: not mounted\n", EINVAL) == 1,
	   "umount -R: not mounted, without the period: EINVAL");
	ok(judge("    # umount -R /x\n    umount: /x: not mounted\n", EBUSY) == 0,
	   "umount -R: not mounted with EBUSY: fail");
	ok(judge("    # umount -R /nope\n    umount: /nope: not found\n", ENOENT) == 1 &&
	   judge("    # umount -R /f/x\n    umount: /f/x: not found\n", ENOTDIR) == 1,
	   "umount -R: not found: ENOENT or ENOTDIR");
	ok(judge("    # umount /nope\n    umount: /nope: not found\n", ENOENT) == 0,
	   "not found without -R: fail");
	ok(judge("    # umount -R /x\n    umount: /x: not found.\n", ENOENT) == 0,
	   "umount -R: not found with a period: fail");
	ok(judge("    # umount -R /x\n    umount: /x: target is busy.\n", EBUSY) == 1,
	   "umount -R: a failed umount(2) below the target: umount's message");
	ok(judge("    # umount /f/x\n    umount: /f/x: umount(2) system call failed: Not a directory.\n",
		 ENOTDIR) == 1, "plain umount ENOTDIR: still the generic message (-R's own is -R's)");
}

TEST(paths)
{
	ok(judge("    # umount x\n    umount: /x: not mounted.\n", EINVAL) == 1,
	   "a relative path, printed absolute");
	ok(judge("    # umount x\n    umount: /a/b/x: not mounted.\n", EINVAL) == 1,
	   "a relative path, from another directory");
	ok(judge("    # umount x\n    umount: /ax: not mounted.\n", EINVAL) == 0,
	   "a relative path is a whole component: fail");
	ok(judge("    # umount /x/\n    umount: /x: not mounted.\n", EINVAL) == 1,
	   "a trailing slash, as libmount drops it");
	ok(judge("    # umount //x/./y\n    umount: /x/y: not mounted.\n", EINVAL) == 1,
	   "// and /./, as libmount drops them");
}

TEST(mount)
{
	const char *unbind = "    # mount --bind /ub /x\n"
			     "    mount: /x: wrong fs type, bad option, bad superblock on /ub, missing codepage or helper program, or other error.\n";
	char buf[1024];

	ok(judge(unbind, EINVAL) == 1, "bind: wrong fs type ... on SOURCE, EINVAL");
	snprintf(buf, sizeof(buf), "%s" DMESG, unbind);
	ok(judge(buf, EINVAL) == 1, "with mount's dmesg line");
	snprintf(buf, sizeof(buf), "%s" "    dmesg(1) may have more information after failed mount system call.\n", unbind);
	ok(judge(buf, EINVAL) == 1, "with the dmesg line unindented");
	snprintf(buf, sizeof(buf), "%s" DMESG DMESG, unbind);
	ok(judge(buf, EINVAL) == 0, "with two dmesg lines: fail");
	ok(judge(unbind, ENOENT) == 0, "with ENOENT: fail");
	ok(judge("    # mount --bind /uc /x\n"
		 "    mount: /x: wrong fs type, bad option, bad superblock on /ub, missing codepage or helper program, or other error.\n",
		 EINVAL) == 0, "another source: fail");
	ok(judge("    # mount --bind /ub /y\n"
		 "    mount: /x: wrong fs type, bad option, bad superblock on /ub, missing codepage or helper program, or other error.\n",
		 EINVAL) == 0, "another target: fail");

	ok(judge("    # mount --move /s/in /mv\n"
		 "    mount: /mv: bad option; moving a mount residing under a shared mount is unsupported.\n",
		 EINVAL) == 1, "move under a shared mount: --move, EINVAL");
	ok(judge("    # mount --bind /s/in /mv\n"
		 "    mount: /mv: bad option; moving a mount residing under a shared mount is unsupported.\n",
		 EINVAL) == 0, "the same message for a bind: fail");
	ok(judge("    # mount --make-private /x\n    mount: /x: not mount point or bad option.\n", EINVAL) == 1,
	   "--make-* of a non-mount");
	ok(judge("    # mount --bind /nosrc /x\n    mount: /x: special device /nosrc does not exist.\n" DMESG,
		 ENOENT) == 1, "bind of a missing source: ENOENT");
	ok(judge("    # mount --bind /x /nope\n    mount: /nope: mount point does not exist.\n", ENOENT) == 1,
	   "bind to a missing target: ENOENT");
	ok(judge("    # mount --bind /x /nope\n    mount: /nope: mount point does not exist.\n", EINVAL) == 0,
	   "mount point does not exist with EINVAL: fail");
	ok(judge("    # mount -t tmpfs -o size=lots none /x\n"
		 "    mount: /x: wrong fs type, bad option, bad superblock on none, missing codepage or helper program, or other error.\n",
		 EINVAL) == 1, "a filesystem by type: the source as typed");
	ok(judge("    # mount -t tmpfs none /x\n    mount: /x: unknown filesystem type 'tmpfs'.\n", ENODEV) == 1,
	   "unknown filesystem type names -t");
	ok(judge("    # mount -t tmpfs none /x\n    mount: /x: unknown filesystem type 'ramfs'.\n", ENODEV) == 0,
	   "another type: fail");
}

/* util-linux 2.40 and 2.41+, with the new mount API (from the source) */
TEST(newapi_forms)
{
	ok(judge("    # mount --move /a /b\n    mount: /b: move_mount() failed: Too many levels of symbolic links.\n",
		 ELOOP) == 1, "2.41: move_mount() failed: %%m");
	ok(judge("    # mount --move /a /b\n    mount: /b: move_mount() failed: Too many levels of symbolic links.\n",
		 EXDEV) == 0, "2.41: the message of another errno: fail");
	ok(judge("    # mount --move /a /b\n    mount: /b: frobnicate() failed: Too many levels of symbolic links.\n",
		 ELOOP) == 0, "not a mount system call: fail");
	ok(judge("    # mount -t tmpfs -o size=lots none /x\n    mount: /x: fsconfig() failed: tmpfs: Bad value for 'size'.\n" DMESG,
		 EINVAL) == 1, "2.41: fsconfig() failed: the kernel's message, EINVAL");
	ok(judge("    # mount -t tmpfs -o size=lots none /x\n    mount: /x: fsconfig() failed: tmpfs: Bad value for 'size'.\n",
		 ENOENT) == 0, "the kernel's message with another errno: fail");
	ok(judge("    # mount -t tmpfs -o size=lots none /x\n    mount: /x: fsconfig system call failed: tmpfs: Bad value for 'size'.\n",
		 EINVAL) == 1, "2.40: fsconfig system call failed: the kernel's message");
	ok(judge("    # mount --bind /a /b\n    mount: /b: mount(2) system call failed: Stale file handle.\n", ESTALE) == 1,
	   "2.38: mount(2) system call failed: %%m");
	/* the generic form only where util-linux prints it */
	ok(judge("    # umount /x\n    umount: /x: umount(2) system call failed: Device or resource busy.\n",
		 EBUSY) == 0, "umount EBUSY has its own message: the generic form fails");
	ok(judge("    # umount /x\n    umount: /x: umount(2) system call failed: Invalid argument.\n",
		 EINVAL) == 0, "umount EINVAL (not mounted): the generic form fails");
	ok(judge("    # mount --move /a /b\n    mount: /b: move_mount() failed: Invalid argument.\n",
		 EINVAL) == 0, "2.41: mount EINVAL has its own messages: the generic form fails");
	ok(judge("    # mount --move /a /b\n    mount: /b: mount(2) system call failed: Device or resource busy.\n",
		 EBUSY) == 0, "2.38: mount EBUSY: the generic form fails");
	ok(judge("    # mount --bind /a /b\n    mount: /b: mount(2) system call failed: No such file or directory.\n",
		 ENOENT) == 1, "mount ENOENT falls back to the generic form when no own case holds");
	ok(judge("    # mount --bind /a /b\n    mount: /b: move_mount() failed: Permission denied.\n",
		 EACCES) == 1, "... and so does EACCES");
	ok(judge("    # mount -t tmpfs -o size=lots none /x\n    mount: /x: fsconfig() failed: Invalid argument.\n",
		 EINVAL) == 0, "a kernel message that is only the errno's text is the generic form: fails for EINVAL");
	/* 2.39+ bind through move_mount(2): EINVAL where nstest's mount(2)
	 * gives ENOTDIR (util-linux-2.41.5.txt, bind-dir-on-file) */
	ok(judge("    # mount --bind /x /file\n"
		 "    mount: /file: wrong fs type, bad option, bad superblock on /x, missing codepage or helper program, or other error.\n" DMESG,
		 ENOTDIR) == 1, "2.41: a directory bound on a file: EINVAL's words for mount(2)'s ENOTDIR");
	ok(judge("    # mount --bind /x /file\n    mount: /file: mount point is not a directory.\n" DMESG,
		 ENOTDIR) == 1, "2.38's words for the same still pass");
	ok(judge("    # mount --move /x /file\n"
		 "    mount: /file: wrong fs type, bad option, bad superblock on /x, missing codepage or helper program, or other error.\n",
		 ENOTDIR) == 0, "... for a bind only: a --move with ENOTDIR fails");
	ok(judge("    # mount -t tmpfs none /file\n"
		 "    mount: /file: wrong fs type, bad option, bad superblock on none, missing codepage or helper program, or other error.\n",
		 ENOTDIR) == 0, "... and a new mount with ENOTDIR fails");
}

/* The file commands' tools: "CMD: MESSAGE", strerror last (coreutils
 * 9.1, util-linux 2.38.1: tests/data/sessions/24-file-command-errors),
 * and an interactive bash's own for cd and a redirection. */
TEST(tools)
{
	ok(judge("    # touch /ro/f\n    touch: cannot touch '/ro/f': Read-only file system\n", EROFS) == 1,
	   "touch: cannot touch 'F': EROFS");
	ok(judge("    # touch /ro/f\n    touch: cannot touch '/ro/f': Read-only file system\n", EACCES) == 0,
	   "... with EACCES: fail");
	ok(judge("    # touch /ro/f\n    touch: cannot touch '/ro/g': Read-only file system\n", EROFS) == 0,
	   "... another file: fail");
	ok(judge("    # touch /ro/f\n    mkdir: cannot create directory ‘/ro/f’: Read-only file system\n", EROFS) == 0,
	   "... mkdir's message for touch: fail");
	ok(judge("    # touch /ro/f\n    touch: cannot touch '/ro/f': Read-only file system.\n", EROFS) == 0,
	   "... with a period util-linux would put: fail");
	ok(judge("    # mkdir /ro/d\n    mkdir: cannot create directory ‘/ro/d’: Read-only file system\n", EROFS) == 1,
	   "mkdir in a UTF-8 locale: ‘...’");
	ok(judge("    # mkdir /ro/d\n    mkdir: cannot create directory '/ro/d': Read-only file system\n", EROFS) == 1,
	   "mkdir in the C locale: '...'");
	ok(judge("    # mkdir -p /a /b\n    mkdir: cannot create directory ‘/b’: File exists\n", EEXIST) == 1,
	   "mkdir: any operand");
	ok(judge("    # rmdir /mnt/a\n    rmdir: failed to remove '/mnt/a': Device or resource busy\n", EBUSY) == 1,
	   "rmdir of a mount point: EBUSY");
	ok(judge("    # mv /mnt/a /mnt/b\n    mv: cannot move '/mnt/a' to '/mnt/b': Device or resource busy\n", EBUSY) == 1,
	   "mv: cannot move 'A' to 'B'");
	ok(judge("    # mv /mnt/a /mnt/b\n    mv: cannot move '/mnt/a' to '/mnt/c': Device or resource busy\n", EBUSY) == 0,
	   "... to another path: fail");
	ok(judge("    # mv /nowhere /b\n    mv: cannot stat '/nowhere': No such file or directory\n", ENOENT) == 1,
	   "mv: cannot stat a missing source");
	ok(judge("    # ln -s /x /ro/l\n    ln: failed to create symbolic link '/ro/l': Read-only file system\n", EROFS) == 1,
	   "ln -s");
	ok(judge("    # ls /nowhere\n    ls: cannot access '/nowhere': No such file or directory\n", ENOENT) == 1,
	   "ls: cannot access");
	ok(judge("    # cat /nowhere\n    cat: /nowhere: No such file or directory\n", ENOENT) == 1,
	   "cat: F: strerror");
	ok(judge("    # stat -c %m /nowhere\n    stat: cannot statx '/nowhere': No such file or directory\n", ENOENT) == 1,
	   "stat: cannot statx");
	ok(judge("    # mountpoint /nowhere\n    mountpoint: /nowhere: No such file or directory\n", ENOENT) == 1,
	   "mountpoint (util-linux): F: strerror");
	ok(judge("    # chroot /nowhere\n    chroot: cannot change root directory to '/nowhere': No such file or directory\n",
		 ENOENT) == 1, "chroot");
	ok(judge("    # grep x /nowhere\n    grep: /nowhere: No such file or directory\n", ENOENT) == 0,
	   "grep reading a FILE: grep's own words are not taken");
	ok(judge("    # cd /nowhere\n    bash: cd: /nowhere: No such file or directory\n", ENOENT) == 1,
	   "cd: an interactive bash's words");
	ok(judge("    # cd /nowhere\n    -bash: cd: /nowhere: No such file or directory\n", ENOENT) == 1,
	   "... a login shell's");
	ok(judge("    # cd /nowhere\n    bash: line 3: cd: /nowhere: No such file or directory\n", ENOENT) == 0,
	   "... a script's bash: fail");
	ok(judge("    # cd /nowhere\n    sh: cd: /nowhere: No such file or directory\n", ENOENT) == 0,
	   "... another shell: fail");
	ok(judge("    # echo x > /ro/f\n    bash: /ro/f: Read-only file system\n", EROFS) == 1,
	   "echo TEXT > FILE: bash names FILE");
	ok(judge("    # echo x > /ro/f\n    bash: /ro/g: Read-only file system\n", EROFS) == 0,
	   "... another FILE: fail");
	ok(judge("    # echo x > /ro/f\n    bash: /ro/f: Read-only file system\n", ENOENT) == 0,
	   "... another errno: fail");
	ok(judge("    # touch /ro/f\n    bash: /ro/f: Read-only file system\n", EROFS) == 0,
	   "bash's words for touch: fail");
}

TEST(blocks)
{
	ok(judge_out("    # umount /x\n    before\n    umount: /x: not mounted.\n", EINVAL, "before\n") == 1,
	   "output before the error line is matched as written");
	ok(judge_out("    # umount /x\n    other\n    umount: /x: not mounted.\n", EINVAL, "before\n") == 0,
	   "... and still must match");
	ok(judge_out("    # umount /x\n    ...\n    umount: /x: not mounted.\n", EINVAL, "a\nb\n") == 1,
	   "... before it");
	ok(judge("    # umount /x\n    umount: /x: not mounted.\n    ...\n", EINVAL) == 0,
	   "only the last line (or the one before a dmesg line) is read in util-linux's form");
	ok(judge("    # mkdir /x\n    umount: /x: not mounted.\n", EEXIST) == 0,
	   "another command's failure: fail");
	ok(judge("    # umount /x\n    [unordered]\n    umount: /x: not mounted.\n", EINVAL) == 1,
	   "an unordered block");
}

static char *render(const char *cmdline, int err)
{
	struct ns_scenario *sc;
	struct ns_buf b = NS_BUF_INIT;
	char *text = xasprintf("    # %s\n", cmdline);
	char *r = NULL;

	sc = parse(text);
	free(text);
	if (sc && ns_ulmsg_render(&sc->steps[0].pipeline.stages[0], err, &b))
		r = ns_buf_detach(&b);
	ns_buf_free(&b);
	ns_scenario_free(sc);
	return r;
}

TEST(render)
{
	char *r;

	r = render("umount /mntS", EBUSY);
	is_str(r, "umount: /mntS: target is busy.\n", "umount EBUSY");
	free(r);
	r = render("umount /x", ELOOP);
	is_str(r, "umount: /x: umount(2) system call failed: Too many levels of symbolic links.\n",
	       "umount, an errno without a message of its own");
	free(r);
	r = render("mount --bind /ub /x", EINVAL);
	is_str(r, "mount: /x: wrong fs type, bad option, bad superblock on /ub, missing codepage or helper program, or other error.\n"
		  "       dmesg(1) may have more information after failed mount system call.\n",
	       "mount --bind EINVAL, with the dmesg line");
	free(r);
	r = render("mount --make-private /x", EINVAL);
	is_str(r, "mount: /x: not mount point or bad option.\n"
		  "       dmesg(1) may have more information after failed mount system call.\n",
	       "mount --make-private EINVAL");
	free(r);
	r = render("umount -R /x", EINVAL);
	is_str(r, "umount: /x: not mounted\n", "umount -R EINVAL: no period");
	free(r);
	r = render("umount -R /x", ENOTDIR);
	is_str(r, "umount: /x: not found\n", "umount -R ENOTDIR");
	free(r);
	r = render("umount /x", ENOTDIR);
	is_str(r, "umount: /x: umount(2) system call failed: Not a directory.\n",
	       "plain umount ENOTDIR: the generic line, not -R's");
	free(r);
	ok(!render("mount --bind /a /b", ENOENT), "ENOENT of a bind: which path is missing is not known");
	ok(!render("mount --move /a /b", EINVAL), "EINVAL of a move: whether under a shared mount is not known");
	ok(!render("umount /a /b", EBUSY), "several targets: which failed is not known");
	r = render("mkdir /a", EEXIST);
	is_str(r, "mkdir: cannot create directory ‘/a’: File exists\n", "mkdir: a UTF-8 terminal's quotes");
	free(r);
	r = render("touch /ro/f", EROFS);
	is_str(r, "touch: cannot touch '/ro/f': Read-only file system\n", "touch: no period");
	free(r);
	r = render("ls /nowhere", ENOENT);
	is_str(r, "ls: cannot access '/nowhere': No such file or directory\n", "ls: cannot access");
	free(r);
	r = render("cd /nowhere", ENOENT);
	is_str(r, "bash: cd: /nowhere: No such file or directory\n", "cd: bash's words");
	free(r);
	r = render("echo x > /ro/f", EROFS);
	is_str(r, "bash: /ro/f: Read-only file system\n", "echo > FILE: bash's words");
	free(r);
	ok(!render("mv /a /b", EBUSY), "mv: two operands, which the message names is not known");
	ok(!render("mkdir /a /b", EEXIST), "mkdir of two: which failed is not known");
	ok(!render("pwd", ENOENT), "a command without a tool's message");
	r = render("mount --bind /a /b", ESTALE);
	is_str(r, "mount: /b: mount(2) system call failed: Stale file handle.\n"
		  "       dmesg(1) may have more information after failed mount system call.\n",
	       "mount, an errno without a message of its own: 2.38's generic line");
	free(r);
}

/* Every message the table can render is one the judge takes back. */
TEST(table)
{
	size_t bad = 0, nosrc = 0;

	for (size_t i = 0; i < ns_ulmsg_count; i++) {
		const struct ns_ulmsg *e = &ns_ulmsg_table[i];

		if (!e->source || !*e->source || !e->versions || !*e->versions ||
		    (strcmp(e->cmd, "mount") && strcmp(e->cmd, "umount") && e->form == NS_ULMSG_LINUX))
			bad++;
		for (const char *p = strchr(e->pattern, '%'); p; p = strchr(p + 1, '%'))
			if (!strchr("TSFPMCK", p[1]))
				bad++;
		nosrc += !strstr(e->source, ".c");
	}
	ok(ns_ulmsg_count >= 40 && !bad && !nosrc, "%zu entries, each with its source, versions and known placeholders",
	   ns_ulmsg_count);
	ok(ns_ulmsg_looks("umount", "umount: /whatever: target is busy."), "looks: any path");
	ok(!ns_ulmsg_looks("umount", "umount: EBUSY (Device or resource busy)"), "looks: not nstest's form");
	ok(ns_ulmsg_is_dmesg("dmesg(1) may have more information after failed mount system call.") &&
	   ns_ulmsg_is_dmesg("       dmesg(1) may have more information after failed mount system call.") &&
	   !ns_ulmsg_is_dmesg("dmesg(1) may have more information"), "the dmesg line, indented or not");
}

/* --update: the form of the file. Every step but the last fails with
 * first, the last with err. */
static char *update2(const char *text, int first, int err)
{
	struct ns_scenario *sc = parse(text);
	struct ns_run run;
	char *res;

	if (!sc)
		return NULL;
	make_run(&run, sc, err, NULL);
	for (size_t i = 0; i + 1 < sc->nsteps; i++)
		fail_step(&run, sc, i, first, NULL);
	res = update_run(sc, &run, true, NULL, NULL);
	ns_run_free(&run);
	ns_scenario_free(sc);
	return res;
}

static char *update(const char *text, int err)
{
	return update2(text, EBUSY, err);
}

TEST(update)
{
	char *r;

	r = update("    # umount /x\n    umount: /x: target is busy.\n    # umount /y\n", EINVAL);
	is_str(r, "    # umount /x\n    umount: /x: target is busy.\n    # umount /y\n    umount: /y: not mounted.\n",
	       "a file in util-linux's form: the new block in util-linux's form");
	free(r);
	r = update2("    # umount /x\n    umount: EINVAL (Invalid argument)\n    # umount /y\n", EINVAL, EINVAL);
	is_str(r, "    # umount /x\n    umount: EINVAL (Invalid argument)\n    # umount /y\n    umount: EINVAL (Invalid argument)\n",
	       "a file in nstest's form stays in it");
	free(r);
	r = update("errors: util-linux\n\n    # umount /y\n", EINVAL);
	is_str(r, "errors: util-linux\n\n    # umount /y\n    umount: /y: not mounted.\n",
	       "errors: util-linux");
	free(r);
	r = update("errors: nstest\n\n    # umount /x\n    umount: /x: target is busy.\n    # umount /y\n", EINVAL);
	is_str(r, "errors: nstest\n\n    # umount /x\n    umount: /x: target is busy.\n    # umount /y\n    umount: EINVAL (Invalid argument)\n",
	       "errors: nstest wins over the lines of the file");
	free(r);
	r = update("errors: util-linux\n\n    # mount --bind /a /b\n", ENOENT);
	is_str(r, "errors: util-linux\n\n    # mount --bind /a /b\n    mount: ENOENT (No such file or directory)\n",
	       "a message util-linux chooses by the file system: nstest's form");
	free(r);
	r = update("    # umount /y\n    umount: /y: not mounted.\n", EINVAL);
	is_str(r, "    # umount /y\n    umount: /y: not mounted.\n", "a block that matches is kept");
	free(r);
}

TEST(directive)
{
	struct ns_diag d = { NULL, 0 };
	const char *bad = "errors: both\n\n    # mkdir /a\n";
	struct ns_scenario *sc = ns_scenario_parse("t.scn", bad, strlen(bad), &d);

	ok(!sc, "errors: both is refused");
	is_str(d.msg, "t.scn:1:9: error: errors: expected nstest or util-linux, got 'both'", "with its message");
	ns_diag_free(&d);
	ns_scenario_free(sc);
}
