/* test_parse.c - the scenario parser and the shell-word splitter */
#include <stdlib.h>
#include <string.h>

#include <linux/mount.h>
#include <sys/mount.h>

#include "commands/args.h"
#include "commands/command.h"
#include "scenario/scenario.h"
#include "scenario/shellword.h"
#include "tap.h"

static struct ns_scenario *parse(const char *text, char **err)
{
	struct ns_diag d = { NULL, 0 };
	struct ns_scenario *sc = ns_scenario_parse("t.scn", text, strlen(text), &d);

	*err = d.msg;
	return sc;
}

/* Expect a parse error with exactly this message. */
static void parse_error(const char *text, const char *want, const char *what)
{
	char *err;
	struct ns_scenario *sc = parse(text, &err);

	ok(sc == NULL, "%s: rejected", what);
	is_str(err, want, "%s: message", what);
	ns_scenario_free(sc);
	free(err);
}

TEST(transcript)
{
	const char *text =
		"title: demo\n"
		"root: /dev/sda2\n"
		"\n"
		"Prose line: with a colon, not a directive.\n"
		"    sh1# mount --make-shared /mntS\n"
		"    sh1# cat /proc/self/mountinfo | grep '/mnt' | sed 's/ - .*//'\n"
		"    77 61 8:17 / /mntS rw,relatime shared:1\n"
		"    ...\n"
		"\tsh2# unshare -m --propagation unchanged sh   # a comment\n"
		"    # mount /dev/sdb6 /mntS/a\n"
		"    $ ls\n"
		"    [unordered]\n"
		"    b\n"
		"    a\n";
	char *err;
	struct ns_scenario *sc = parse(text, &err);

	ok(sc != NULL, "transcript parses");
	if (!sc) {
		printf("# %s\n", err);
		free(err);
		return;
	}
	is_str(sc->title, "demo", "title directive");
	is_str(sc->root_dev, "/dev/sda2", "root directive");
	ok(sc->nsteps == 5, "five steps (%zu)", sc->nsteps);
	is_str(sc->steps[0].terminal, "sh1", "named prompt");
	ok(sc->steps[0].line == 5, "command line number");
	ok(sc->steps[1].pipeline.n == 3, "pipeline of three stages");
	is_str(sc->steps[1].pipeline.stages[2].argv[1], "s/ - .*//", "quotes removed");
	ok(sc->steps[1].nexpect == 2, "two expected lines");
	is_str(sc->steps[1].expect[1].text, "...", "wildcard kept as a line");
	ok(sc->steps[1].expect[0].line == 7, "expected line number");
	is_str(sc->steps[2].cmdline, "unshare -m --propagation unchanged sh", "trailing comment dropped");
	is_str(sc->steps[2].terminal, "sh2", "tab-indented session line");
	is_str(sc->steps[3].terminal, "sh2", "a bare prompt after an inner shell started is that shell (dash's prompt)");
	ok(sc->steps[4].prompt == '$', "dollar prompt");
	ok(sc->steps[4].unordered && sc->steps[4].nexpect == 2, "[unordered] marks the block");
	ok(sc->ndevnames == 2, "root and one stand-in");
	ok(sc->steps[3].pipeline.stages[0].args != NULL, "mount arguments kept");
	is_str(sc->devnames[0], "/dev/sda2", "root stand-in first");
	is_str(sc->devnames[1], "/dev/sdb6", "stand-in from mount");
	ns_scenario_free(sc);
}

/* The file commands of issue 13 (rmdir, mv, ln -s, pwd, echo > FILE,
 * stat -c, mountpoint, diff): each bad use is named at its word. */
/* Dash's bare "# " in an inner sh is the terminal that started it, one
 * level deeper, until its exit, even with prose before the next prompt;
 * after it, a bare prompt is a terminal of its own again. */
TEST(bare_prompt_inner_shell)
{
	const char *text =
		"    sh1# mkdir /a\n"
		"    sh1# unshare -m sh\n"
		"    # unshare -m sh\n"
		"    # exit\n"
		"\n"
		"Prose between the steps.\n"
		"\n"
		"    # mkdir /b\n"
		"    # exit\n"
		"\n"
		"Prose again.\n"
		"\n"
		"    # mkdir /c\n"
		"    sh1# unshare -m sh\n"
		"    # mkdir /d\n";
	char *err;
	struct ns_scenario *sc = parse(text, &err);

	ok(sc != NULL, "parses");
	if (!sc) {
		printf("# %s\n", err);
		free(err);
		return;
	}
	ok(sc->nsteps == 9, "nine steps (%zu)", sc->nsteps);
	if (sc->nsteps != 9) {
		ns_scenario_free(sc);
		return;
	}
	is_str(sc->steps[2].terminal, "sh1", "the inner sh's bare prompt is sh1");
	is_str(sc->steps[3].terminal, "sh1", "the exit of a shell it started too");
	is_str(sc->steps[4].terminal, "sh1", "after prose, still sh1's first inner shell");
	is_str(sc->steps[5].terminal, "sh1", "its exit is sh1's");
	is_str(sc->steps[6].terminal, "", "after prose and that exit, the bare prompt is a terminal of its own");
	is_str(sc->steps[8].terminal, "", "and stays so once it was used");
	ns_scenario_free(sc);
}

TEST(file_commands)
{
	static const struct { const char *what, *line, *msg; } bad[] = {
		{ "mv", "    # mv\n",
		  "t.scn:1:7: error: mv: missing file operand" },
		{ "mv a", "    # mv a\n",
		  "t.scn:1:10: error: mv: missing destination file operand after 'a'" },
		{ "mv -T a b c", "    # mv -T a b c\n",
		  "t.scn:1:17: error: mv: extra operand 'c'" },
		{ "ln a b", "    # ln a b\n",
		  "t.scn:1:7: error: ln: hard links are not supported; use ln -s TARGET LINK" },
		{ "ln -x a", "    # ln -x a\n",
		  "t.scn:1:10: error: ln: unknown option -x (only -s is supported)" },
		{ "ln -s", "    # ln -s\n",
		  "t.scn:1:7: error: ln: missing file operand" },
		{ "pwd -L", "    # pwd -L\n",
		  "t.scn:1:11: error: pwd: -L is not supported: cd is physical in nstest, so pwd prints the physical directory, as pwd -P does" },
		{ "pwd x", "    # pwd x\n",
		  "t.scn:1:11: error: pwd: too many arguments" },
		{ "ls -R", "    # ls -R /a\n",
		  "t.scn:1:10: error: ls: unknown option -R" },
		{ "readlink -x", "    # readlink -x /a\n",
		  "t.scn:1:16: error: readlink: unknown option -x" },
		{ "readlink --canonicalize", "    # readlink --canonicalize /a\n",
		  "t.scn:1:16: error: readlink: long options are not supported: write -f for --canonicalize" },
		{ "open_tree_attr -R", "    # open_tree_attr -R /a @t\n",
		  "t.scn:1:7: error: open_tree_attr: -R needs -c (AT_RECURSIVE only applies to a clone)" },
		{ "open_tree_attr -x", "    # open_tree_attr -x /a @t\n",
		  "t.scn:1:22: error: open_tree_attr: unknown option -x (-c, -R, --propagation TYPE, -o FLAGS, --idmap TERMINAL)" },
		{ "realpath", "    # realpath\n",
		  "t.scn:1:7: error: realpath: missing operand" },
		{ "a handle path to mkdir", "    # mkdir @t/x\n",
		  "t.scn:1:13: error: mkdir: '@t/x' names a place through an open_tree handle, which mkdir does not take (ls, cd, cat, mount, umount, mount2, open_tree, open_tree_attr, move_mount, mount_setattr, close, fsopen, fsconfig, fsmount, fspick, statmount do)" },
		{ "echo -e x", "    # echo -e x\n",
		  "t.scn:1:12: error: echo: -e (backslash escapes) is not supported" },
		{ "stat x", "    # stat x\n",
		  "t.scn:1:7: error: stat: -c FORMAT is required (stat's own output shows times, which no transcript can expect)" },
		{ "stat -c %n", "    # stat -c %n\n",
		  "t.scn:1:7: error: stat: missing operand" },
		{ "stat -c", "    # stat -c\n",
		  "t.scn:1:12: error: stat: option -c requires an argument" },
		{ "stat -c %Z x", "    # stat -c %Z x\n",
		  "t.scn:1:15: error: stat: format directive '%Z' is not supported (nstest knows %n %i %d %D %t %T %m %u %g %a %A %F %s %h)" },
		{ "stat -c %5n x", "    # stat -c %5n x\n",
		  "t.scn:1:15: error: stat: field widths and flags ('%5' in '%5n') are not supported" },
		{ "stat -x -c %n a", "    # stat -x -c %n a\n",
		  "t.scn:1:12: error: stat: option -x is not supported (nstest knows -c FORMAT, --format=FORMAT and -L)" },
		{ "mountpoint", "    # mountpoint\n",
		  "t.scn:1:7: error: mountpoint: bad usage: exactly one directory or file is needed" },
		{ "mountpoint a b", "    # mountpoint a b\n",
		  "t.scn:1:20: error: mountpoint: bad usage: exactly one directory or file is needed" },
		{ "mountpoint -x a", "    # mountpoint -x a\n",
		  "t.scn:1:18: error: mountpoint: option -x is not supported (nstest knows -q and -d)" },
		{ "diff a", "    # diff a\n",
		  "t.scn:1:7: error: diff: missing operand: two files or directories are compared" },
		{ "diff -u a b", "    # diff -u a b\n",
		  "t.scn:1:12: error: diff: option '-u' is not supported (nstest knows -r)" },
		{ "diff a b c", "    # diff a b c\n",
		  "t.scn:1:16: error: diff: extra operand 'c'" },
		{ "echo a 2> f", "    # echo a 2> f\n",
		  "t.scn:1:14: error: redirecting a file descriptor (N>) is not supported; 'N>&-' closes one" },
		{ "echo a > f x", "    # echo a > f x\n",
		  "t.scn:1:18: error: nothing may follow the file of a redirection" },
		{ "echo a >", "    # echo a >\n",
		  "t.scn:1:14: error: missing file name after '>'" },
		{ "echo a > f > g", "    # echo a > f > g\n",
		  "t.scn:1:18: error: only one redirection is supported" },
		{ "echo a > f | grep x", "    # echo a > f | grep x\n",
		  "t.scn:1:18: error: '|' after a redirection is not supported" },
		{ "echo a >& f", "    # echo a >& f\n",
		  "t.scn:1:14: error: unsupported shell syntax '>&'" },
		{ "rmdir", "    # rmdir\n",
		  "t.scn:1:7: error: rmdir: missing operand" },
		{ "ls > f", "    # ls > f\n",
		  "t.scn:1:10: error: redirection '>' is only supported as 'echo TEXT > FILE', alone on its line" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		parse_error(bad[i].line, bad[i].msg, bad[i].what);
}

TEST(errors)
{
	parse_error("    x\n", "t.scn:1:5: error: output line before any command", "output first");
	parse_error("    # frobnicate /x\n", "t.scn:1:7: error: unknown command 'frobnicate'", "unknown command");
	parse_error("    # mount | uniq\n", "t.scn:1:15: error: unknown filter 'uniq'", "unknown filter");
	parse_error("    # ls 'abc\n", "t.scn:1:10: error: unterminated single quote", "single quote");
	parse_error("    # ls \"abc\n", "t.scn:1:10: error: unterminated double quote", "double quote");
	parse_error("    # ls & ls\n", "t.scn:1:10: error: a command run in the background ('&') is not supported", "background");
	parse_error("    # ls > x\n", "t.scn:1:10: error: redirection '>' is only supported as 'echo TEXT > FILE', alone on its line", "redirect");
	parse_error("    # grep x\n", "t.scn:1:7: error: 'grep' is a filter: it reads the output of a command through '|', or a FILE operand", "filter first");
	parse_error("    # mount | mkdir x\n", "t.scn:1:15: error: 'mkdir' cannot read from a pipe", "command after pipe");
	parse_error("frob: 1\n    # ls\n", "t.scn:1:1: error: unknown directive 'frob' (known: root, requires, kernel, devices, title, xfail, errors, prompt, columns)", "unknown directive");
	parse_error("titel: x\n    # ls\n", "t.scn:1:1: error: unknown directive 'titel' (did you mean title?)", "a misspelt directive: did you mean");
	parse_error("devices: nvme\n    # ls\n", "t.scn:1:10: error: devices: expected tmpfs, loop or any, got 'nvme'", "unknown devices mode");
	parse_error("title: a\ntitle: b\n    # ls\n", "t.scn:2:1: error: directive 'title' given twice", "directive twice");
	parse_error("kernel: 6\n    # ls\n", "t.scn:1:9: error: kernel: expected '>= MAJOR.MINOR[.PATCH]', got '6'", "bad kernel version");
	parse_error("root: sda1\n    # ls\n", "t.scn:1:7: error: root: 'sda1' is not a device path like /dev/sda1", "root not a path");
	parse_error("    # ls\r\n", "t.scn:1:9: error: CRLF line ending; scenario files use LF (convert with dos2unix)", "CRLF");
	parse_error("    # ls \xff\n", "t.scn:1:10: error: invalid UTF-8", "bad UTF-8");
	parse_error("    # ls\n    a\xc2\x85" "b\n", "t.scn:2:6: error: control character U+0085 (a C1 control) in scenario file", "a C1 control");
	parse_error("    # ls\n    a\xc2\x9f\n", "t.scn:2:6: error: control character U+009F (a C1 control) in scenario file", "the last C1 control");
	parse_error("    # ls\n    a\x7f\n", "t.scn:2:6: error: control character 0x7f (DEL) in scenario file", "DEL");
	parse_error("just prose\n", "t.scn:1:1: error: no commands: a scenario needs at least one indented '# command' line", "no commands");
	parse_error("    # \n", "t.scn:1:7: error: empty command after the prompt", "empty command");
	parse_error("    # mount -t proc proc /p\n", "t.scn:1:16: error: mount: filesystem type 'proc' is not allowed in a sandbox (allowed: tmpfs, ramfs)", "unsafe fs type");
	parse_error("    # unshare sh\n", "t.scn:1:7: error: unshare: give -m (a mount namespace), -U (a user namespace) or both", "unshare without -m");
	parse_error("    # mount --bind a\n", "t.scn:1:20: error: mount: 'a': fstab lookups are not supported; give SOURCE and TARGET", "bind with one operand");
	parse_error("    # mount -t proc /dev/sdb1 /x\n", "t.scn:1:16: error: mount: type 'proc' cannot be given to a stand-in device (its type comes from --devices)", "stand-in with a foreign type");
	parse_error("    # mount -o sync /dev/sdb1 /x\n", "t.scn:1:16: error: mount: options 'sync': only ro, rw, nosuid, nodev, noexec, noatime, nodiratime, relatime, strictatime and nosymfollow apply to stand-in devices", "stand-in with an unsupported flag");
	parse_error("    # mount -o size=1m /dev/sdb1 /x\n", "t.scn:1:16: error: mount: filesystem options 'size=1m' are not supported on stand-in devices", "stand-in with fs options");
	parse_error("    # mount -o remount,ro,size=1m /x\n", "t.scn:1:16: error: mount: filesystem options ('size=1m') are not supported with -o remount", "remount with fs options");
	parse_error("    # mount -o remount,sync /x\n", "t.scn:1:16: error: mount: options 'remount,sync': only ro, rw, nosuid, nodev, noexec, noatime, nodiratime, relatime, strictatime and nosymfollow (and their opposites) apply to -o remount", "remount with sync");
	parse_error("    # mount --move -o ro /a /b\n", "t.scn:1:7: error: mount: --move takes no other options", "move with options");
	parse_error("    # mount --bind -o size=1m /a /b\n", "t.scn:1:23: error: mount: a bind mount takes no filesystem options ('size=1m')", "bind with fs options");
	parse_error("    # umount -x /a\n", "t.scn:1:14: error: umount: unknown option -x", "umount option");
	parse_error("    # umount -lx /a\n", "t.scn:1:14: error: umount: unknown option -lx", "a grouped umount option");
	parse_error("    # umount -l\n", "t.scn:1:7: error: umount: missing operand", "umount without target");
	parse_error("    # sleep nan\n", "t.scn:1:13: error: sleep: 'nan' is not a number of seconds from 0 to 86400", "sleep nan");
	/* did you mean: a command, a filter, options of each command with a table */
	parse_error("    # mout /x\n", "t.scn:1:7: error: unknown command 'mout' (did you mean 'mount'?)", "misspelt command");
	parse_error("    # mount | gerp x\n", "t.scn:1:15: error: unknown filter 'gerp' (did you mean 'grep'?)", "misspelt filter");
	parse_error("    # mount | mkdri x\n", "t.scn:1:15: error: unknown filter 'mkdri'", "only filters after a pipe");
	parse_error("    # pivot /a /b\n", "t.scn:1:7: error: unknown command 'pivot' (did you mean 'pivot_root'?)", "a command's prefix");
	parse_error("    # mount --bnd /a /b\n", "t.scn:1:13: error: mount: unknown option --bnd (did you mean --bind?)", "mount option");
	parse_error("    # mount -x /a /b\n", "t.scn:1:13: error: mount: unknown option -x", "short mount option: no guess");
	parse_error("    # umount --lazzy /a\n", "t.scn:1:14: error: umount: unknown option --lazzy (did you mean --lazy?)", "umount option");
	parse_error("    # unshare --map-root sh\n", "t.scn:1:15: error: unshare: unsupported option --map-root (did you mean --map-root-user?)", "unshare option prefix");
	parse_error("    # unshare --foo sh\n", "t.scn:1:15: error: unshare: unsupported option --foo (-m, -U, -r, -c, --map-user, --map-group, --map-users, --map-groups and --propagation)", "unshare option: no guess");
	parse_error("    # open_tree --clon /a @t\n", "t.scn:1:17: error: open_tree: unknown option --clon (did you mean --clone?)", "open_tree option");
	parse_error("    # open_tree -x /a @t\n", "t.scn:1:17: error: open_tree: unknown option -x (-c, -R, --namespace)", "open_tree option: no guess");
	parse_error("    # move_mount --beneth /a /b\n", "t.scn:1:18: error: move_mount: unknown option --beneth (did you mean --beneath?)", "move_mount option");
	parse_error("    # mount_setattr --recursiv -o ro /a\n", "t.scn:1:21: error: mount_setattr: unknown option --recursiv (did you mean --recursive?)", "mount_setattr option");
	parse_error("    # mount /dev/sdb1 /x -o\n", "t.scn:1:26: error: mount: option -o needs a value", "mount -o without its value");
	parse_error("    # mount --types= tmpfs /x\n", "t.scn:1:13: error: mount: option --types= needs a value", "mount --types= with an empty value");
	parse_error("    # mount --type=tmpfs tmpfs /x\n", "t.scn:1:13: error: mount: unknown option --type=tmpfs (did you mean --types?)", "mount: a misspelt long option with its value");
	parse_error("    # mount_setattr /a --propagation\n", "t.scn:1:24: error: mount_setattr: option --propagation needs a value", "mount_setattr option without its value");
	parse_error("    # ls --all /\n", "t.scn:1:10: error: ls: long options are not supported: write -a for --all", "a long option named whole, with its short form");
	parse_error("    # ls --colour /\n", "t.scn:1:10: error: ls: unknown option --colour", "a long option of the file commands: no guess");
	parse_error("    # mkdir --parnts /a\n", "t.scn:1:13: error: mkdir: unknown option --parnts (did you mean -p, that is --parents?)", "mkdir long option");
	parse_error("    # mv --no-target-dir /a /b\n", "t.scn:1:10: error: mv: unknown option --no-target-dir (did you mean -T, that is --no-target-directory?)", "mv long option");
	parse_error("    # ln --symbolc /a /b\n", "t.scn:1:10: error: ln: unknown option --symbolc (did you mean --symbolic?)", "ln long option");
	parse_error("    # mount sdb6 /x\n", "t.scn:1:13: error: mount: 'sdb6' is not a stand-in device (/dev/NAME); give -t TYPE to mount a filesystem by name", "source not a device");
}

TEST(nul)
{
	static const char text[] = "    # ls\0x\n";
	struct ns_diag d = { NULL, 0 };
	struct ns_scenario *sc = ns_scenario_parse("t.scn", text, sizeof(text) - 1, &d);

	ok(!sc, "NUL byte rejected");
	is_str(d.msg, "t.scn:1:9: error: NUL byte in scenario file", "NUL message");
	ns_diag_free(&d);
}

/* Every error of a file, in line order, up to NS_DIAG_MAX. */
TEST(several_errors)
{
	struct ns_diag d = { NULL, 0 };
	struct ns_buf text = NS_BUF_INIT, want = NS_BUF_INIT;
	struct ns_scenario *sc;

	parse_error("kernel: 6\n    # frob\n    out\n    # ls | uniq\n",
		    "t.scn:1:9: error: kernel: expected '>= MAJOR.MINOR[.PATCH]', got '6'\n"
		    "t.scn:2:7: error: unknown command 'frob'\n"
		    "t.scn:4:12: error: unknown filter 'uniq'",
		    "three errors; the output line stays with its failed command");
	parse_error("root: /dev/sdb\n    # mkdir /x\n    # frob\n    # mount /dev/sdb/1 /x\n",
		    "t.scn:1:1: error: root: '/dev/sdb' and /dev/sdb/1 cannot both be devices: one is a folder of the other\n"
		    "t.scn:3:7: error: unknown command 'frob'",
		    "the root's check, made at the end, still comes in line order");
	parse_error("    out\n    # frob\n", "t.scn:1:5: error: output line before any command\n"
		    "t.scn:2:7: error: unknown command 'frob'", "output first, then a bad command");
	parse_error("    x\n", "t.scn:1:5: error: output line before any command",
		    "no second error for a file without a good command");
	parse_error("    # frob\n    # ls \xff\n    # frob\n",
		    "t.scn:1:7: error: unknown command 'frob'\nt.scn:2:10: error: invalid UTF-8",
		    "a file that is not text stops the parse");

	for (int i = 1; i <= NS_DIAG_MAX + 3; i++) {
		ns_buf_addf(&text, "    # frob%d\n", i);
		if (i <= NS_DIAG_MAX)
			ns_buf_addf(&want, "t.scn:%d:7: error: unknown command 'frob%d'\n", i, i);
	}
	ns_buf_addf(&want, "t.scn: 3 more errors not shown (at most %d are reported per file)", NS_DIAG_MAX);
	sc = ns_scenario_parse("t.scn", text.data, text.len, &d);
	ok(!sc, "capped: rejected");
	is_str(d.msg, ns_buf_str(&want), "capped: the first %d errors, then a count", NS_DIAG_MAX);
	ok(d.n == NS_DIAG_MAX + 3, "capped: every error counted (%zu)", d.n);
	ns_diag_free(&d);
	ok(d.msg == NULL && d.n == 0, "ns_diag_free empties the diagnostics");

	sc = ns_scenario_parse("t.scn", "    # ls\n", 9, &d);
	ok(sc && !d.msg && d.n == 0, "a good file: no diagnostics");
	ns_scenario_free(sc);
	ns_buf_free(&text);
	ns_buf_free(&want);
}

/* Lines that look like commands or output but are not indented as
 * session lines are errors; prose that merely resembles them is not. */
TEST(misreads)
{
	const char *prose =
		"# A heading, not a command\n"
		"## mount, a heading too\n"
		"#include is not a command either; nor is #mount( or $ ls(1)\n"
		"#mount(8) at the margin is not one, nor $ls: or sh1#ls,\n"
		"- a list item whose text goes on\n"
		"  on a line indented by two spaces,\n"
		" or one, # mount in the middle of a line,\n"
		"   # of items: not a command name after the prompt\n"
		"\n"
		"    # mount | sed 's/^/#/' | awk '{print $1}'\n"
		"    #/dev/sda1\n"
		"    # mkdir /a\n"
		"\n"
		"  Two-space prose after a blank line.\n"
		"    # ls /\n"
		"    a\n"
		"\t\tan output line indented further, by a tab\n"
		"        and by four more spaces\n";
	char *err;
	struct ns_scenario *sc = parse(prose, &err);

	ok(sc != NULL, "prose that only resembles a command stays prose");
	if (!sc) {
		printf("# %s\n", err);
		free(err);
	} else {
		ok(sc->nsteps == 3, "three commands (%zu)", sc->nsteps);
		ok(sc->steps[0].nexpect == 1, "'#' output line kept (%zu)", sc->steps[0].nexpect);
		ok(sc->steps[2].nexpect == 3, "deeper indented output kept (%zu)", sc->steps[2].nexpect);
		is_str(sc->steps[2].expect[2].text, "    and by four more spaces", "extra blanks are expected text");
	}
	ns_scenario_free(sc);

	parse_error("    # mkdir /a\n  # mount --bind /a /a\n",
		    "t.scn:2:3: error: '# mount' looks like a command, but the line is indented by 2 spaces, so it is prose and never runs: indent it by four spaces or a tab to make it a command; to keep it as prose, reword it so that it does not begin with a prompt and a command name",
		    "command indented by 2 spaces");
	parse_error(" sh1$ ls\n    # ls\n",
		    "t.scn:1:2: error: 'sh1$ ls' looks like a command, but the line is indented by 1 space, so it is prose and never runs: indent it by four spaces or a tab to make it a command; to keep it as prose, reword it so that it does not begin with a prompt and a command name",
		    "named prompt indented by 1 space");
	parse_error("# mkdir /a\n",
		    "t.scn:1:1: error: '# mkdir' looks like a command, but the line is not indented, so it is prose and never runs: indent it by four spaces or a tab to make it a command; to keep it as prose, reword it so that it does not begin with a prompt and a command name",
		    "command at the margin; no 'no commands' error besides");
	parse_error("#mkdir /a\n    # ls\n",
		    "t.scn:1:1: error: '#mkdir' looks like a command, but the line is not indented, so it is prose and never runs: indent it by four spaces or a tab, with a space after the prompt, to make it a command; to keep it as prose, reword it so that it does not begin with a prompt and a command name",
		    "glued command at the margin");
	parse_error("    # mkdir /a\n\t  # ls\n    a\n",
		    "t.scn:2:4: error: '# ls' looks like a command, but the line is indented by a tab, then 2 spaces, so it is read as output: indent it by exactly four spaces or one tab to make it a command (output cannot begin like a command; a '...' line can stand for it)",
		    "command indented by a tab and spaces; its output raises nothing more");
	parse_error("  # ls\n    a\n",
		    "t.scn:1:3: error: '# ls' looks like a command, but the line is indented by 2 spaces, so it is prose and never runs: indent it by four spaces or a tab to make it a command; to keep it as prose, reword it so that it does not begin with a prompt and a command name",
		    "output under a misindented first command is not 'before any command'");
	parse_error("    # mkdir /a\n    #mount --bind /a /a\n",
		    "t.scn:2:6: error: no space between the prompt '#' and the command 'mount', so the line is read as output: put a space after the prompt",
		    "no space after '#'");
	parse_error("    # mkdir /a\n\tsh1$ls\n",
		    "t.scn:2:6: error: no space between the prompt 'sh1$' and the command 'ls', so the line is read as output: put a space after the prompt",
		    "no space after 'sh1$'");
	parse_error("    # ls\n    a\n  b\n\tc\n",
		    "t.scn:3:3: error: this line goes on from the session line above but is indented by 2 spaces, so it is prose and ends the session block: indent it by four spaces or a tab to make it output of the command on line 1; to keep it as prose, put a blank line before it",
		    "output indented by 2 spaces; the block goes on after it");
	parse_error("    # ls\n    a\n \t b\n",
		    "t.scn:3:4: error: this line goes on from the session line above but is indented by 1 space, then a tab, then 1 space, so it is prose and ends the session block: indent it by four spaces or a tab to make it output of the command on line 1; to keep it as prose, put a blank line before it",
		    "a mix of spaces and a tab");
	parse_error("    # ls\n    a\n\n    \n    b\n    c\n",
		    "t.scn:3:1: error: blank line inside the output of the command on line 1: expected output cannot contain an empty line, so line 5 would have no command; delete the blank line (a '...' line can stand for empty lines the command prints)",
		    "blank lines inside an output block: the first one is named, once");
	parse_error("    x\n  y\n    # ls\n",
		    "t.scn:1:5: error: output line before any command\n"
		    "t.scn:2:3: error: this line goes on from the session line above but is indented by 2 spaces, so it is prose and ends the session block: indent it by four spaces or a tab to make it part of the session block above it; to keep it as prose, put a blank line before it",
		    "misindented output below output that has no command");
	parse_error("    # ls\n\n    a\n",
		    "t.scn:2:1: error: blank line between the command on line 1 and its output: expected output cannot contain an empty line, so line 3 would have no command; delete the blank line (a '...' line can stand for empty lines the command prints)",
		    "a blank line before the first output line");
	parse_error("    # ls\n    a\n\nProse.\n    b\n",
		    "t.scn:5:5: error: output line before any command",
		    "after prose, output has no command: the blank line is not blamed");
}

/* The first stage of the only step of text, which must parse. */
/* Unicode spaces and characters of no width where a blank decides what a
 * line is (issue 28: each made a command prose or output, and the
 * scenario passed without running it). */
TEST(invisible)
{
	const char *indent = ": error: U+00A0 NO-BREAK SPACE (4 such characters in all) in the indentation, where only spaces and tabs count: the line would not be read as it looks (a command or its output as prose, a directive as text); replace it with a space";
	char want[1024];

	/* four no-break spaces, as pasted from the article's HTML */
	snprintf(want, sizeof(want), "t.scn:1:1%s\nt.scn:2:1%s", indent, indent);
	parse_error("\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0# mkdir /a\n"
		    "\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0# ls /\n"
		    "    a\n", want, "no-break spaces before a command");
	parse_error("    \xe3\x80\x80# ls\n", "t.scn:1:5: error: U+3000 IDEOGRAPHIC SPACE in the indentation, where only spaces and tabs count: the line would not be read as it looks (a command or its output as prose, a directive as text); replace it with a space\n"
		    "t.scn:1:6: error: '# ls' looks like a command, but the line is indented by 5 spaces, so it is read as output: indent it by exactly four spaces or one tab to make it a command (output cannot begin like a command; a '...' line can stand for it)",
		    "an ideographic space after four spaces: read on as a fifth space");
	parse_error("\xe2\x80\x87\xe2\x80\x83\xe2\x80\x83\xe2\x80\x83# ls\n", "t.scn:1:1: error: U+2007 FIGURE SPACE (4 such characters in all) in the indentation, where only spaces and tabs count: the line would not be read as it looks (a command or its output as prose, a directive as text); replace it with a space",
		    "figure and em spaces: the first is named");
	parse_error("\t\xe2\x80\x8b# ls\n", "t.scn:1:2: error: U+200B ZERO WIDTH SPACE in the indentation, where only spaces and tabs count: the line would not be read as it looks (a command or its output as prose, a directive as text); replace it with a space",
		    "a zero-width space after a tab: read on as nothing, so the command is whole");
	parse_error("\xe2\x80\x8bxfail: >= 6.1: why\n    # ls\n", "t.scn:1:1: error: U+200B ZERO WIDTH SPACE in the indentation, where only spaces and tabs count: the line would not be read as it looks (a command or its output as prose, a directive as text); replace it with a space",
		    "before a directive");
	/* after the prompt: the line would be output */
	parse_error("    #\xc2\xa0mkdir /a\n", "t.scn:1:6: error: U+00A0 NO-BREAK SPACE after the prompt '#': the line would be read as output, not as a command; replace it with a space (or delete it)",
		    "a no-break space as the prompt's space");
	parse_error("    sh2$ \xe2\x80\x8bls\n", "t.scn:1:10: error: U+200B ZERO WIDTH SPACE after the prompt 'sh2$': the line would be read as output, not as a command; replace it with a space (or delete it)",
		    "a zero-width space after a terminal's prompt");
	/* a byte-order mark */
	parse_error("\xef\xbb\xbfrequires: root\n    # ls\n", "t.scn:1:1: error: byte-order mark (U+FEFF) at the start of the file: a scenario file is UTF-8 without one, and it would make a first directive or command prose; delete it (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)",
		    "a BOM before a directive");
	parse_error("    # ls\n\xef\xbb\xbf    # ls\n", "t.scn:2:1: error: U+FEFF ZERO WIDTH NO-BREAK SPACE in the indentation, where only spaces and tabs count: the line would not be read as it looks (a command or its output as prose, a directive as text); replace it with a space",
		    "U+FEFF later in the file");

	/* where a blank decides nothing, they are text */
	{
		char *err;
		struct ns_scenario *sc = parse("Prose with a\xc2\xa0no-break space.\n"
					       "\n"
					       "    # echo a\xc2\xa0" "b\n"
					       "    a\xc2\xa0" "b\n"
					       "    # ls\n"
					       "    \xc2\xa0x\n"
					       "    \xc2\xa0sh1#x\n", &err);

		ok(sc != NULL, "inside prose, a command and its output, and at the start of output after a whole indentation (unless a command follows), a no-break space is text");
		ok(sc && sc->nsteps == 2 && !strcmp(sc->steps[0].expect[0].text, "a\xc2\xa0" "b") &&
		   !strcmp(sc->steps[1].expect[0].text, "\xc2\xa0x") &&
		   !strcmp(sc->steps[1].expect[1].text, "\xc2\xa0sh1#x"), "and is kept as it is");
		free(err);
		ns_scenario_free(sc);
	}
}

static const struct ns_stage *only_stage(const char *text, struct ns_scenario **sc)
{
	char *err;

	*sc = parse(text, &err);
	if (!*sc) {
		printf("# %s\n", err);
		free(err);
		return NULL;
	}
	return &(*sc)->steps[(*sc)->nsteps - 1].pipeline.stages[0];
}

TEST(remount)
{
	struct ns_scenario *sc;
	const struct ns_stage *st = only_stage("    # mount -o remount,bind,ro,nosuid /x\n", &sc);
	const struct ns_mount_args *a = st ? st->args : NULL;

	ok(a && a->op == NS_MOUNT_REMOUNT, "remount,bind: a remount");
	ok(a && a->flags == (MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID), "remount,bind,ro,nosuid: its flags (%lx)", a ? a->flags : 0);
	ok(a && a->merge, "one operand: merged with the table's options");
	/* the table's nosuid,nodev,relatime,ro with -o ro,nosuid: nothing cleared */
	ok(a && ns_remount_flags(a, MS_NOSUID | MS_NODEV | MS_RELATIME) ==
		(MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_RELATIME), "merge adds the given flags to the table's");
	ns_scenario_free(sc);

	st = only_stage("    # mount -o remount,rw,suid,exec /x\n", &sc);
	a = st ? st->args : NULL;
	ok(a && a->flags == MS_REMOUNT, "remount,rw,suid,exec: no flag set (%lx)", a ? a->flags : 0);
	ok(a && (a->clear & (MS_RDONLY | MS_NOSUID | MS_NOEXEC)) == (MS_RDONLY | MS_NOSUID | MS_NOEXEC) &&
		!(a->clear & MS_NODEV), "rw, suid and exec clear ro, nosuid and noexec, and nothing else of those");
	ok(a && ns_remount_flags(a, MS_RDONLY | MS_NOSUID | MS_NODEV) == (MS_REMOUNT | MS_NODEV),
	   "merge: the table's ro and nosuid go, nodev stays");
	ns_scenario_free(sc);

	/* the last word about a flag wins */
	st = only_stage("    # mount -o remount,ro,rw /x\n", &sc);
	a = st ? st->args : NULL;
	ok(a && !(a->flags & MS_RDONLY) && (a->clear & MS_RDONLY), "ro,rw: rw wins");
	ns_scenario_free(sc);

	st = only_stage("    # mount -o remount,ro --make-private /x\n", &sc);
	a = st ? st->args : NULL;
	ok(a && !a->merge && a->nprop == 1, "a --make-* option: no merge, one propagation change");
	ok(a && ns_remount_flags(a, MS_NOSUID) == (MS_REMOUNT | MS_RDONLY), "no merge: -o's flags alone");
	ns_scenario_free(sc);
}

TEST(wrappers)
{
	struct ns_scenario *sc;
	const struct ns_stage *st = only_stage("    # unshare -m --propagation slave findmnt -no TARGET /x\n", &sc);
	const struct ns_unshare_args *u = st ? st->args : NULL;
	const struct ns_stage *in = st ? ns_stage_inner(st) : NULL;

	ok(u && u->mnt && u->prop == NS_UNSHARE_SLAVE, "unshare -m --propagation slave");
	ok(in && in->def && in->def->id == NS_CMD_FINDMNT && in->argc == 4, "its command: findmnt and its three words");
	ok(st && ns_stage_cmd(st) == in, "the stage that does the work is the inner one");
	ok(st && !ns_stage_starts_shell(st), "with a command, no shell to exit");
	ns_scenario_free(sc);

	st = only_stage("    # unshare -m -- mount --bind /a /b\n", &sc);
	in = st ? ns_stage_inner(st) : NULL;
	ok(in && in->def && in->def->id == NS_CMD_MOUNT, "unshare -m -- CMD: the command after --");
	ns_scenario_free(sc);

	st = only_stage("    # unshare -m sh\n", &sc);
	ok(st && !ns_stage_inner(st) && ns_stage_starts_shell(st), "unshare -m sh: a shell");
	ns_scenario_free(sc);

	st = only_stage("    sh1# mkdir /a\n    sh2# nsenter -mUt sh1 -r -w\n", &sc);
	{
		const struct ns_nsenter_args *n = st ? st->args : NULL;

		ok(n && n->mnt && n->user && n->root && n->wd && !strcmp(n->target, "sh1"),
		   "nsenter -mUt sh1 -r -w: bundled options ending in -t, its value the next word");
		ok(st && ns_stage_starts_shell(st), "nsenter without a command: a shell");
	}
	ns_scenario_free(sc);

	st = only_stage("    sh1# mkdir /a\n    sh2# nsenter --target=sh1 --mount ls /a\n", &sc);
	{
		const struct ns_nsenter_args *n = st ? st->args : NULL;

		ok(n && n->mnt && !n->user && !strcmp(n->target, "sh1") && n->cmd && n->cmd->def &&
		   n->cmd->def->id == NS_CMD_LS, "nsenter --target=sh1 --mount ls");
	}
	ns_scenario_free(sc);
}

TEST(id_maps_and_idmaps)
{
	struct ns_scenario *sc;
	const struct ns_stage *st = only_stage("    # unshare -r --map-users 10000,0,10000 --map-group=7 sh\n", &sc);
	const struct ns_unshare_args *u = st ? st->args : NULL;

	ok(u && u->user && u->map_user && !u->map_user_self && u->map_uid == 0,
	   "-r: --map-user=0");
	ok(u && u->map_group && u->map_gid == 7, "--map-group=7 after -r: the last one counts");
	ok(u && u->map_users && u->users.outer == 10000 && u->users.inner == 0 &&
	   u->users.count == 10000, "--map-users OUTER,INNER,COUNT, its value the next word");
	ok(u && !u->map_groups, "no --map-groups");
	ns_scenario_free(sc);

	st = only_stage("    # unshare --map-user=5 -c sh\n", &sc);
	u = st ? st->args : NULL;
	ok(u && u->map_user && u->map_user_self && u->map_group_self, "-c after --map-user: the caller's own ids");
	ns_scenario_free(sc);

	st = only_stage("    sh1# mkdir /a\n    sh2# mount_setattr -R --idmap=sh1 /a\n", &sc);
	{
		const struct ns_mount_setattr_args *m = st ? st->args : NULL;

		ok(m && m->recursive && (m->set & MOUNT_ATTR_IDMAP) && !strcmp(m->idmap, "sh1"),
		   "mount_setattr --idmap=sh1: MOUNT_ATTR_IDMAP with sh1's user namespace");
	}
	ns_scenario_free(sc);

	st = only_stage("    sh1# mkdir /a\n    sh1# open_tree_attr -c --idmap sh1 -o ro /a @t\n", &sc);
	{
		const struct ns_open_tree_args *o = st ? st->args : NULL;

		ok(o && o->clone && o->attr.idmap && !strcmp(o->attr.idmap, "sh1") &&
		   o->attr.set == (MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY),
		   "open_tree_attr --idmap sh1 -o ro: both attributes");
	}
	ns_scenario_free(sc);
}

/* Whether the ls of the last step (maybe run by a wrapper) prints one
 * name a line. */
static int ls_one(const char *text)
{
	struct ns_scenario *sc;
	const struct ns_stage *st = only_stage(text, &sc);
	const struct ns_fs_args *a;
	int one = -1;

	st = st ? ns_stage_cmd(st) : NULL;
	if (st && st->def && st->def->id == NS_CMD_LS) {
		a = st->args;
		one = a->one;
	}
	ns_scenario_free(sc);
	return one;
}

/* Into a pipe ls writes to no terminal: one name a line, as GNU ls. */
TEST(ls_piped)
{
	ok(ls_one("    # ls /d | wc -l\n") == 1, "ls /d | wc -l: one name a line");
	ok(ls_one("    # unshare -m ls /d | grep x\n") == 1, "unshare -m ls /d | grep x: the ls unshare runs too");
	ok(ls_one("    sh1# mkdir /d\n    sh2# nsenter -t sh1 -m ls /d | head -n 1\n") == 1,
	   "nsenter ... ls /d | head: the ls nsenter runs too");
	ok(ls_one("    # ls /d\n") == 0, "ls /d alone: columns");
	ok(ls_one("    # unshare -m ls /d\n") == 0, "unshare -m ls /d alone: columns");
	ok(ls_one("    # ls -1 /d\n") == 1, "ls -1 /d: one name a line");
}

/* A filter with a FILE operand that starts a pipeline reads the file as
 * cat would give it: the parser puts `cat FILE` before it. */
TEST(filter_file)
{
	char *err = NULL;
	struct ns_scenario *sc = parse("    # grep -c /mnt /proc/self/mountinfo | wc -l\n", &err);
	const struct ns_pipeline *pl = sc ? &sc->steps[0].pipeline : NULL;

	ok(pl && pl->n == 3, "grep PATTERN FILE | wc: three stages, cat first%s%s", err ? ": " : "",
	   err ? err : "");
	if (pl && pl->n == 3) {
		is_str(pl->stages[0].argv[0], "cat", "the first stage is cat");
		is_str(pl->stages[0].argv[1], "/proc/self/mountinfo", "of the FILE");
		ok(pl->stages[0].file_of_next && !pl->stages[1].file_of_next, "marked as the filter's");
		ok(pl->stages[0].col[1] == 20, "with the FILE's column (%d)", pl->stages[0].col[1]);
		is_str(pl->stages[1].argv[0], "grep", "then grep");
	}
	ns_scenario_free(sc);
	free(err);
	parse_error("    # mount | grep x /proc/mounts\n", "t.scn:1:22: error: 'grep' after a pipe reads the pipe: a FILE operand ('/proc/mounts') would make it ignore it",
		    "a FILE after a pipe");
	parse_error("    # wc -l /proc/cpuinfo\n", "t.scn:1:13: error: wc: only /proc/self/mountinfo, /proc/mounts and /proc/self/mounts can be read from /proc",
		    "a FILE cat would refuse: the filter's error");
	parse_error("    # sed -n p a b\n", "t.scn:1:18: error: sed: one FILE operand is supported, not 'b' too", "two FILEs");
	parse_error("    # tail -\n", "t.scn:1:7: error: 'tail' is a filter: it reads the output of a command through '|', or a FILE operand",
		    "'-' is standard input, not a FILE");
}

TEST(split)
{
	struct ns_split sp;
	char *msg = NULL;
	size_t at = 0;

	ok(ns_shell_split("a 'b c' \"d\\\"e\" f\\ g | h # x", &sp, &msg, &at) == 0, "split");
	ok(sp.n == 2 && sp.stages[0].n == 4, "two stages, four words");
	is_str(sp.stages[0].v[1], "b c", "single quotes");
	is_str(sp.stages[0].v[2], "d\"e", "double quotes with escape");
	is_str(sp.stages[0].v[3], "f g", "backslash blank");
	ok(sp.stages[1].col[0] == 22, "column of h (%d)", sp.stages[1].col[0]);
	ok(sp.comment == 24, "comment offset (%zu)", sp.comment);
	ns_split_free(&sp);
	ok(ns_shell_split("a | | b", &sp, &msg, &at) < 0 && at == 4, "empty stage");
	free(msg);
	ok(ns_shell_split("a#b", &sp, &msg, &at) == 0 && sp.stages[0].n == 1, "# inside a word is literal");
	is_str(sp.stages[0].v[0], "a#b", "word with #");
	ns_split_free(&sp);
}

/* A terminal whose D is "x  y" and E is empty, for the expansion tests. */
static const char *test_var(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	if (len == 1 && *name == 'D')
		return "x  y";
	if (len == 1 && *name == 'E')
		return "";
	if (len == 1 && *name == '$')
		return "4194305"; /* the shell's number */
	return NULL;
}

/* The words of line split with test_var's variables, joined by '|'; or
 * "error at N: MSG". */
static char *split_vars(const char *line)
{
	struct ns_shell_vars vars = { test_var, NULL };
	struct ns_buf b = NS_BUF_INIT;
	struct ns_split sp;
	char *msg = NULL;
	size_t at = 0;

	if (ns_shell_split_vars(line, &vars, &sp, &msg, &at) < 0) {
		ns_buf_addf(&b, "error at %zu: %s", at, msg);
		free(msg);
		return ns_buf_detach(&b);
	}
	for (size_t i = 0; i < sp.stages[0].n; i++)
		ns_buf_addf(&b, "%s%s", i ? "|" : "", sp.stages[0].v[i]);
	ns_split_free(&sp);
	return ns_buf_detach(&b);
}

TEST(split_variables)
{
	static const struct { const char *line, *words; } cases[] = {
		{ "echo $D", "echo|x|y" },
		{ "echo a$D.b", "echo|ax|y.b" },
		{ "echo \"$D\"", "echo|x  y" },
		{ "echo \"${D}z\"", "echo|x  yz" },
		{ "echo ${D}z", "echo|x|yz" },
		{ "echo $E x", "echo|x" },
		{ "echo \"$E\" x", "echo||x" },
		{ "F=$D", "F=x  y" },
		{ "echo '$D' \\$D", "echo|$D|$D" },
		{ "echo 5$ $ a$", "echo|5$|$|a$" },
		{ "echo $U", "error at 5: variable 'U' is not set in this terminal: set it on a line of its own first (U=VALUE)" },
		{ "echo \"$$\" $$x", "echo|4194305|4194305x" },
		{ "cat /proc/$$/mountinfo /proc/$$ /x/proc/$$/", "cat|/proc/self/mountinfo|/proc/self|/x/proc/4194305/" },
		{ "echo '$$'", "echo|$$" },
		{ "echo $?", "error at 5: the special parameter '$?' is not supported" },
		{ "echo ${D#x}", "error at 5: '${...}' with anything but a variable's name in it is not supported" },
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(cases); i++) {
		char *got = split_vars(cases[i].line);
		is_str(got, cases[i].words, "vars: %s", cases[i].line);
		free(got);
	}
}
