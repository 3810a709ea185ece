#!/usr/bin/env bats
# tests/bats/cli.bats - the nstest command line as a user meets it: exit
# statuses, the PASS/FAIL/SKIP lines and the closing count, the diff of a
# failed step, parse errors that stop everything, missing privileges, and
# the transcript rules that show at the command line (error lines, "...",
# renaming of IDs across terminals, one-to-one devices, [unordered]).
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers

# ---- passing and failing ------------------------------------------------

@test "cli: a passing scenario exits 0 with a PASS line and the count" {
	scn=$(write_scn pass <<'SCN'
A scenario that passes.

    # mkdir /a
    # touch /a/f
    # ls /a
    f
SCN
	)
	run --separate-stderr "$NSTEST" run "$scn"
	assert_success
	assert_equal "$stderr" ""
	assert_output "$HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
}

@test "cli: a failing step shows file:line, the command and the diff; exit 1" {
	scn=$(write_scn fail <<'SCN'
    # mkdir /a
    # touch /a/f
    # ls /a
    g
SCN
	)
	run --separate-stderr "$NSTEST" run "$scn"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output "$HEAD
$scn:3: # ls /a
    --- expected
    +++ actual
    @@ -1,1 +1,1 @@
    -g
    +f
FAIL  $scn
0 passed, 1 failed, 0 skipped"
}

@test "cli: a failing diff keeps context lines and names the terminal" {
	scn=$(write_scn context <<'SCN'
    sh1# mkdir /a /b /c
    sh1# mount /dev/sdb1 /a
    sh1# mount /dev/sdb2 /b
    sh1# mount /dev/sdb3 /c
    sh1# mount | awk '{print $1, $2, $3}'
    /dev/sda1 on /
    /dev/sdb1 on /a
    /dev/sdb9 on /b
    /dev/sdb3 on /c
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_output "$HEAD
$scn:5: sh1# mount | awk '{print \$1, \$2, \$3}'
    --- expected
    +++ actual
    @@ -1,4 +1,4 @@
     /dev/sda1 on /
     /dev/sdb1 on /a
    -/dev/sdb9 on /b
    +/dev/sdb2 on /b
     /dev/sdb3 on /c
FAIL  $scn
0 passed, 1 failed, 0 skipped"
}

@test "cli: several scenarios: one line each, in order, and the count" {
	write_scn tree/a-pass >/dev/null <<'SCN'
    # mkdir /a
SCN
	write_scn tree/b-fail >/dev/null <<'SCN'
    # ls /
    nothing
SCN
	write_scn tree/sub/c-pass >/dev/null <<'SCN'
    # mkdir /c
SCN
	write_scn tree/not-a-scenario.txt >/dev/null <<'SCN'
    # frobnicate
SCN
	run "$NSTEST" run "$SCN_DIR/tree"
	assert_failure 1
	assert_line --index 0 "$HEAD"
	assert_line --index 1 "PASS  $SCN_DIR/tree/a-pass.scn"
	assert_line "FAIL  $SCN_DIR/tree/b-fail.scn"
	assert_line --index -2 "PASS  $SCN_DIR/tree/sub/c-pass.scn"
	assert_line --index -1 "2 passed, 1 failed, 0 skipped"
}

@test "cli: --verbose shows every step with its output" {
	scn=$(write_scn verbose <<'SCN'
title: verbose output
    # mkdir /a
    # touch /a/f
    # ls /a
    f
SCN
	)
	run "$NSTEST" run --verbose "$scn"
	assert_success
	assert_line "=== $scn: verbose output"
	assert_line --partial "# ls /a"
	assert_line "PASS  $scn"
	assert_line "1 passed, 0 failed, 0 skipped"
}

# ---- parse errors: nothing runs -------------------------------------------

@test "cli: a parse error in any file runs nothing and exits 2" {
	# The first file is valid and would FAIL; the second does not parse.
	good=$(write_scn 1-would-fail <<'SCN'
    # ls /
    this line is never printed
SCN
	)
	bad=$(write_scn 2-bad <<'SCN'
    # mkdir /a
    # mkdir 'unterminated
SCN
	)
	run --separate-stderr "$NSTEST" run "$good" "$bad"
	assert_failure 2
	assert_equal "$stderr" "$bad:2:13: error: unterminated single quote"
	# nothing ran: no verdict line and no count
	assert_output ""
	# ... while on its own the first file does run, and fails
	run "$NSTEST" run "$good"
	assert_failure 1
	assert_line "FAIL  $good"
}

@test "cli: parse errors of every bad file are reported, then nothing runs" {
	bad1=$(write_scn bad1 <<'SCN'
    # frobnicate /a
SCN
	)
	bad2=$(write_scn bad2 <<'SCN'
    # mkdir /a
    # mount | uniq
SCN
	)
	run --separate-stderr "$NSTEST" run "$bad1" "$bad2"
	assert_failure 2
	assert_equal "$stderr" "$bad1:1:7: error: unknown command 'frobnicate'
$bad2:2:15: error: unknown filter 'uniq'"
	assert_output ""
}

@test "cli: an unknown command names it, with its line and column" {
	scn=$(write_scn unknown-command <<'SCN'
Prose comes first.

    sh1# mkdir /a
    sh1#   frobnicate --now /a
SCN
	)
	run --separate-stderr "$NSTEST" run "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:4:12: error: unknown command 'frobnicate'"
	assert_output ""
}

@test "cli: an unknown filter names it, with its line and column" {
	scn=$(write_scn unknown-filter <<'SCN'
    # mkdir /a
    # cat /proc/self/mountinfo | grep /a | tee /out
SCN
	)
	run --separate-stderr "$NSTEST" run "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:2:44: error: unknown filter 'tee'"
	assert_output ""
}

@test "cli: lint reports a good file and needs no sandbox" {
	scn=$(write_scn good <<'SCN'
    # mkdir /a
    # mount | wc -l
    1
SCN
	)
	run --separate-stderr "$NSTEST" lint "$scn"
	assert_success
	assert_output "1 scenario(s) parsed"
	assert_equal "$stderr" ""
}

# ---- privileges -------------------------------------------------------------

# A copy of nstest and a scenario that another user can read.
nobody_copy() {
	local d=$BATS_TEST_TMPDIR
	cp "$NSTEST" "$d/nstest"
	chmod 755 "$d/nstest" "$SCN_DIR"
	while [[ $d == "$BATS_RUN_TMPDIR"* && $d != / ]]; do
		chmod o+x "$d"
		d=${d%/*}
	done
	scn=$(write_scn ok <<'SCN'
    # mkdir /a
SCN
	)
	chmod 644 "$scn"
}

@test "cli: an unprivileged user runs rootless, in a user namespace" {
	nobody_copy
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$BATS_TEST_TMPDIR/nstest" run "$scn"
	assert_success
	assert_equal "$stderr" "nstest: not running as root: sandboxes run in a user namespace (rootless mode; loop devices are not available)"
	assert_line "PASS  $scn"
}

@test "cli: the article's demos pass rootless with tmpfs stand-ins" {
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$NSTEST" run "$NSTEST_ROOT/scenarios/article"
	assert_success
	assert_line "4 passed, 0 failed, 0 skipped"
}

@test "cli: rootless mode refuses --devices=loop; exit 2" {
	nobody_copy
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$BATS_TEST_TMPDIR/nstest" run --devices=loop "$scn"
	assert_failure 2
	assert_equal "$stderr" "nstest: not running as root: sandboxes run in a user namespace (rootless mode; loop devices are not available)
nstest: error: --devices=loop needs real root; rootless mode has tmpfs stand-ins only"
	assert_output ""
}

@test "cli: --userns runs rootless on request, even as root" {
	scn=$(write_scn ok <<'SCN'
    # mkdir /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    1 0 0:1 / / rw,relatime
SCN
	)
	run "$NSTEST" run --userns "$scn"
	assert_success
}

# Without the capabilities and with user namespaces forbidden (the limit
# is set to 0 inside a throwaway user namespace, which is where it counts
# for the processes below), nothing can run: exit 2 and say both.
@test "cli: no capabilities and no user namespaces says what is missing; exit 2" {
	nobody_copy
	run --separate-stderr unshare -U -r --fork sh -c '
		echo 0 > /proc/sys/user/max_user_namespaces &&
		exec setpriv --bounding-set=-all --inh-caps=-all "$0" run "$1"' \
		"$BATS_TEST_TMPDIR/nstest" "$scn"
	assert_failure 2
	assert_equal "$stderr" "nstest: error: missing CAP_SYS_ADMIN, CAP_SYS_CHROOT, CAP_MKNOD: nstest creates mount namespaces and mounts; run it as root (sudo nstest ...); this system does not allow user namespaces either (see user.max_user_namespaces), so rootless mode is not available"
	assert_output ""
}

@test "cli: lint needs no privileges" {
	nobody_copy
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$BATS_TEST_TMPDIR/nstest" lint "$scn"
	assert_success
	assert_output "1 scenario(s) parsed"
}

@test "cli: a parse error outranks missing privileges (exit 2, the parse error)" {
	nobody_copy
	printf '    # frobnicate\n' >"$scn"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$BATS_TEST_TMPDIR/nstest" run "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:1:7: error: unknown command 'frobnicate'"
}

# ---- usage ----------------------------------------------------------------

@test "cli: --help prints the usage on stdout and exits 0" {
	run --separate-stderr "$NSTEST" --help
	assert_success
	assert_line --index 0 "usage: nstest run [OPTION...] PATH..."
	assert_line --partial "nstest show [OPTION...] FILE"
	assert_line --partial "nstest lint PATH..."
	assert_line --partial "nstest COMMAND --help"
	assert_equal "$stderr" ""
	# every command main.c dispatches has its usage line and its line
	# in the list of commands
	local cmd
	for cmd in $(grep -o '{ "[a-z]*", cmd_[a-z]* }' "$NSTEST_ROOT/harness/main.c" | cut -d'"' -f2) help; do
		assert_line --regexp "^(usage: |       )nstest $cmd "
		assert_line --regexp "^  $cmd +[a-z]"
	done
}

# Every long option the source of a command knows must be in its --help.
help_lists_every_option() { # COMMAND SOURCE
	local opt
	run --separate-stderr "$NSTEST" "$1" --help
	assert_success
	assert_equal "$stderr" ""
	assert_line --index 0 --partial "usage: nstest $1 "
	for opt in $(grep -o '{ "[a-z-]*", [a-z_]*_argument' "$NSTEST_ROOT/harness/$2" | cut -d'"' -f2); do
		[[ $output == *"--$opt"* ]] || fail "nstest $1 --help does not list --$opt"
	done
}

@test "cli: run, show, fuzz, graph and lint --help list every option" {
	help_lists_every_option run cmd_run.c
	[[ $output == *"-j, --jobs N"* && $output == *"-x, --exitfirst"* ]] || fail "short options: $output"
	help_lists_every_option show cmd_show.c
	help_lists_every_option fuzz cmd_fuzz.c
	help_lists_every_option graph cmd_graph.c
	run "$NSTEST" lint --help
	assert_success
	assert_line --index 0 "usage: nstest lint PATH..."
	run "$NSTEST" lint -h
	assert_success
}

@test "cli: options may follow the paths; -- ends them" {
	scn=$(write_scn pass <<'SCN'
    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" run "$scn" --format tap -j 2
	assert_success
	assert_line --index 0 "TAP version 13"
	mkdir -p "$SCN_DIR/--list"
	cp "$scn" "$SCN_DIR/--list/x.scn"
	cd "$SCN_DIR"
	run --separate-stderr "$NSTEST" run -- --list
	assert_success
	assert_line "PASS  --list/x.scn"
}

@test "cli: --filter without glob characters matches a part of the path" {
	write_scn tree/shared-one >/dev/null <<'SCN'
    # mkdir /a
SCN
	write_scn tree/slave-two >/dev/null <<'SCN'
    # mkdir /b
SCN
	run "$NSTEST" run --list "$SCN_DIR/tree" --filter slave
	assert_success
	assert_output "$SCN_DIR/tree/slave-two.scn"
	run "$NSTEST" run --list --filter 'shared-*' "$SCN_DIR/tree"
	assert_success
	assert_output "$SCN_DIR/tree/shared-one.scn"
	run "$NSTEST" run --list --filter '*/tree/s*' "$SCN_DIR/tree"
	assert_success
	assert_line --index 1 "$SCN_DIR/tree/slave-two.scn"
}

@test "cli: a --filter that matches nothing says so plainly, exit 2" {
	write_scn tree/a >/dev/null <<'SCN'
    # mkdir /a
SCN
	run --separate-stderr "$NSTEST" run --filter nothing "$SCN_DIR/tree"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "nstest: error: --filter 'nothing' matches none of the 1 scenario file(s) found"
}

@test "cli: --version prints the version and exits 0" {
	run --separate-stderr "$NSTEST" --version
	assert_success
	assert_output --regexp '^nstest [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "cli: an unknown run option points at run --help and exits 2" {
	scn=$(write_scn ok <<'SCN'
    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" run --frobnicate "$scn"
	assert_failure 2
	assert_output ""
	[[ $stderr == *"--frobnicate"* ]] || fail "stderr does not name the option: $stderr"
	[[ $stderr == *$'\n'"Try 'nstest run --help' for more information." ]] || fail "no pointer to --help: $stderr"
	[[ $stderr != *"usage: nstest"* ]] || fail "the whole usage: $stderr"
}

@test "cli: a bad --devices value points at --help and exits 2" {
	run --separate-stderr "$NSTEST" run --devices=floppy /nonexistent.scn
	assert_failure 2
	[[ $stderr == "nstest: error: --devices must be tmpfs or loop, not 'floppy'"$'\n'"Try 'nstest run --help' for more information." ]] ||
		fail "unexpected stderr: $stderr"
}

@test "cli: --backend kernel is the default; an unknown backend is a usage error" {
	scn=$(write_scn pass <<'SCN'
    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" run --backend kernel "$scn"
	assert_success
	assert_line --index 0 "$HEAD"
	run --separate-stderr "$NSTEST" run --backend=kernel --format json "$scn"
	assert_success
	[[ $output == *'"backend":"kernel"'* ]] || fail "no backend in the JSON: $output"
	run --separate-stderr "$NSTEST" run --backend modle "$scn"
	assert_failure 2
	assert_output ""
	[[ $stderr == "nstest: error: unknown backend 'modle' (known: kernel, model)"$'\n'"Try 'nstest run --help' for more information." ]] ||
		fail "unexpected stderr: $stderr"
	run --separate-stderr "$NSTEST" show --backend modle "$scn"
	assert_failure 2
	[[ $stderr == "nstest: error: unknown backend 'modle' (known: kernel, model)"* ]] || fail "show: $stderr"
}

@test "cli: a rootless run says so in the head line, the JSON and the JUnit report" {
	scn=$(write_scn pass <<'SCN'
    # mkdir /a
SCN
	)
	run "$NSTEST" run --userns "$scn"
	assert_success
	assert_line --index 0 "$HEAD, rootless"
	run "$NSTEST" run --userns --format json "$scn"
	[[ $output == *'"backend":"kernel","rootless":true,'* ]] || fail "json: $output"
	run "$NSTEST" run --format json "$scn"
	[[ $output == *'"backend":"kernel","rootless":false,'* ]] || fail "json: $output"
	run "$NSTEST" run --userns --format junit "$scn"
	assert_line '      <property name="rootless" value="true"/>'
}

@test "cli: an unknown --format names the known ones from the reporter table, exit 2" {
	run --separate-stderr "$NSTEST" run --format xml /nonexistent.scn
	assert_failure 2
	assert_output ""
	[[ $stderr == "nstest: error: unknown --format 'xml' (known: human, tap, ktap, junit, json, html)"$'\n'"Try 'nstest run --help' for more information." ]] ||
		fail "unexpected stderr: $stderr"
}

@test "cli: a bad --timeout value points at --help and exits 2" {
	run --separate-stderr "$NSTEST" run --timeout -1 /nonexistent.scn
	assert_failure 2
	[[ $stderr == "nstest: error: --timeout must be a number of seconds from 0 (no watchdog) to 86400, not '-1'"$'\n'"Try 'nstest run --help' for more information." ]] ||
		fail "unexpected stderr: $stderr"
}

@test "cli: an unknown subcommand points at --help and exits 2" {
	run --separate-stderr "$NSTEST" frobnicate
	assert_failure 2
	[[ $stderr == "nstest: error: unknown command 'frobnicate'"$'\n'"Try 'nstest --help' for more information." ]] ||
		fail "unexpected stderr: $stderr"
}

@test "cli: no arguments give the usage, run with no path points at --help; both exit 2" {
	run --separate-stderr "$NSTEST"
	assert_failure 2
	[[ $stderr == "nstest: error: no command given"$'\n'"usage: "* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST" run
	assert_failure 2
	[[ $stderr == "nstest: error: run needs at least one scenario file or folder"$'\n'"Try 'nstest run --help' for more information." ]] ||
		fail "$stderr"
}

@test "cli: a missing path exits 2 and runs nothing" {
	scn=$(write_scn ok <<'SCN'
    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" run "$scn" "$SCN_DIR/missing.scn"
	assert_failure 2
	assert_equal "$stderr" "nstest: $SCN_DIR/missing.scn: No such file or directory"
	assert_output ""
}

@test "cli: a folder without scenarios is a usage error" {
	mkdir -p "$SCN_DIR/empty"
	run --separate-stderr "$NSTEST" run "$SCN_DIR/empty"
	assert_failure 2
	[[ $stderr == "nstest: error: no scenario files (*.scn) found"$'\n'"Try 'nstest run --help' for more information." ]] || fail "$stderr"
}

@test "cli: a hung step is killed by the watchdog and the run goes on" {
	hang=$(write_scn 1-hang <<'SCN'
    # mkdir /a
    # sleep 60
    # mkdir /b
SCN
	)
	ok=$(write_scn 2-ok <<'SCN'
    # sleep 0.1
    # mkdir /a
SCN
	)
	# no time is asserted: had the watchdog not fired, `sleep 60` would
	# have ended by itself and the scenario would pass instead
	run --separate-stderr "$NSTEST" run --timeout 1 "$hang" "$ok"
	assert_failure 1
	assert_output "$HEAD
FAIL  $hang (timeout after 1 s)
PASS  $ok
1 passed, 1 failed, 0 skipped"
	# every process of the hung scenario is gone (terminals carry its path)
	run pgrep -f -- "$hang"
	assert_failure 1
}

@test "cli: --verbose marks the steps a timeout kept from running" {
	hang=$(write_scn hang <<'SCN'
    # mkdir /a
    # sleep 60
    # mkdir /b
SCN
	)
	run "$NSTEST" run --verbose --timeout=1 "$hang"
	assert_failure 1
	assert_line "  ok  # mkdir /a"
	assert_line "  --  # mkdir /b   (not run)"
	assert_line "FAIL  $hang (timeout after 1 s)"
}

# ---- failing commands ---------------------------------------------------------

@test "cli: an expected failure line is matched like output" {
	scn=$(write_scn eexist <<'SCN'
    # mkdir /x
    # mkdir /x
    mkdir: EEXIST (File exists)
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	assert_output "$HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
}

@test "cli: an expected failure that does not happen fails the step" {
	scn=$(write_scn no-eexist <<'SCN'
    # mkdir /x
    mkdir: EEXIST (File exists)
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_output "$HEAD
$scn:1: # mkdir /x
    --- expected
    +++ actual
    @@ -1,1 +0,0 @@
    -mkdir: EEXIST (File exists)
FAIL  $scn
0 passed, 1 failed, 0 skipped"
}

@test "cli: an unexpected failure fails the step and names the syscall and errno" {
	scn=$(write_scn unexpected <<'SCN'
    # mkdir /x
    # mkdir /x
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_output "$HEAD
$scn:2: # mkdir /x
    system call failed: mkdir: EEXIST
    --- expected
    +++ actual
    @@ -0,0 +1,1 @@
    +mkdir: EEXIST (File exists)
FAIL  $scn
0 passed, 1 failed, 0 skipped"
}

@test "cli: a failing mount names mount(2) and its errno" {
	scn=$(write_scn enoent <<'SCN'
    # mount /dev/sdb1 /nowhere
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "$scn:1: # mount /dev/sdb1 /nowhere"
	assert_line --regexp '^    system call failed: [a-z_]+: ENOENT$'
	assert_line "    +mount: ENOENT (No such file or directory)"
}

# ---- "..." ------------------------------------------------------------------

@test "cli: '...' matches any number of lines, including none" {
	scn=$(write_scn dots <<'SCN'
    # mkdir /a /b /c
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # mount /dev/sdb3 /c
    # mount | awk '{print $1, $2, $3}'
    /dev/sda1 on /
    ...
    /dev/sdb3 on /c
    # mount | awk '{print $1, $2, $3}'
    ...
    /dev/sda1 on /
    /dev/sdb1 on /a
    ...
    /dev/sdb2 on /b
    /dev/sdb3 on /c
    ...
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	assert_output "$HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
}

@test "cli: '...' does not excuse a line that is not there" {
	scn=$(write_scn dots-fail <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # mount | awk '{print $1, $2, $3}'
    ...
    /dev/sdb9 on /b
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "$scn:4: # mount | awk '{print \$1, \$2, \$3}'"
	assert_line "    -/dev/sdb9 on /b"
	assert_line "FAIL  $scn"
}

# ---- renaming of mountinfo numbers -----------------------------------------------

# The article's IDs and groups in two terminals: 222 and 77 are two mounts,
# and shared:1 in sh2 and sh1 is one peer group.
two_terminals() {
	write_scn "$1" <<SCN
    sh1# mkdir /mntS
    sh1# mount /dev/sdb1 /mntS
    sh1# mount --make-shared /mntS
    sh2# unshare -m --propagation unchanged sh
    sh2# mkdir /mntS/a
    sh2# mount /dev/sdb6 /mntS/a
    sh2# cat /proc/self/mountinfo | grep /mnt | sed 's/ - .*//'
    222 145 8:17 / /mntS rw,relatime shared:1
    178 222 8:22 / /mntS/a rw,relatime shared:2
    sh1# cat /proc/self/mountinfo | grep /mnt | sed 's/ - .*//'
    $2
    $3
SCN
}

@test "cli: mountinfo numbers are renamed consistently across terminals" {
	scn=$(two_terminals rename \
		"77 61 8:17 / /mntS rw,relatime shared:1" \
		"179 77 8:22 / /mntS/a rw,relatime shared:2")
	run "$NSTEST" run "$scn"
	assert_success
	assert_output "$HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
}

@test "cli: a peer group named differently in another terminal fails" {
	scn=$(two_terminals rename-group \
		"77 61 8:17 / /mntS rw,relatime shared:1" \
		"179 77 8:22 / /mntS/a rw,relatime shared:1")
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "$scn:10: sh1# cat /proc/self/mountinfo | grep /mnt | sed 's/ - .*//'"
	assert_line "    -179 77 8:22 / /mntS/a rw,relatime shared:1"
	# the new mount's ID is not bound (its line failed), its parent is
	assert_line --regexp '^    \+[0-9]+ 77 8:22 / /mntS/a rw,relatime shared:2$'
	assert_line "FAIL  $scn"
}

@test "cli: one mount ID used for two mounts in different terminals fails" {
	# 222 is sh2's /mntS; sh1's /mntS is another mount and cannot be 222.
	scn=$(two_terminals rename-id \
		"222 61 8:17 / /mntS rw,relatime shared:1" \
		"179 222 8:22 / /mntS/a rw,relatime shared:2")
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "$scn:10: sh1# cat /proc/self/mountinfo | grep /mnt | sed 's/ - .*//'"
	assert_line "    -222 61 8:17 / /mntS rw,relatime shared:1"
	assert_line "FAIL  $scn"
}

@test "cli: the diff writes actual numbers in the expected names it knows" {
	# Only the mountpoint differs; every number is already bound, so the
	# + line shows the article's numbers, not this machine's.
	scn=$(two_terminals rename-diff \
		"77 61 8:17 / /mntS rw,relatime shared:1" \
		"179 77 8:22 / /mntS/b rw,relatime shared:2")
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "    -179 77 8:22 / /mntS/b rw,relatime shared:2"
	assert_line --regexp '^    \+[0-9]+ 77 8:22 / /mntS/a rw,relatime shared:2$'
}

mount_twice() {
	write_scn "$1" <<SCN
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount $2 /b
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:30 / / rw,relatime
    21 20 8:17 / /a rw,relatime
    22 20 $3 / /b rw,relatime
SCN
}

@test "cli: two device names are two devices" {
	scn=$(mount_twice two-devices /dev/sdb2 8:18)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "cli: one device name mounted twice is one device" {
	scn=$(mount_twice same-device /dev/sdb1 8:17)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "cli: a device reused where the transcript says two devices fails" {
	scn=$(mount_twice reused-device /dev/sdb1 8:18)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "$scn:4: # cat /proc/self/mountinfo | sed 's/ - .*//'"
	assert_line "    -22 20 8:18 / /b rw,relatime"
	assert_line --regexp '^    \+[0-9]+ 20 8:17 / /b rw,relatime$'
	assert_line "FAIL  $scn"
}

@test "cli: two devices where the transcript says one device fails" {
	scn=$(mount_twice split-device /dev/sdb2 8:17)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "    -22 20 8:17 / /b rw,relatime"
	assert_line "FAIL  $scn"
}

# ---- [unordered] ------------------------------------------------------------

unordered() {
	write_scn "$1" <<SCN
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # mount | awk '{print \$1, \$2, \$3}'
    $2
    $3
    $4
    $5
SCN
}

@test "cli: an [unordered] block matches its lines in any order" {
	scn=$(unordered unordered "[unordered]" "/dev/sdb2 on /b" "/dev/sda1 on /" "/dev/sdb1 on /a")
	run "$NSTEST" run "$scn"
	assert_success
	assert_output "$HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
}

@test "cli: without [unordered] the order of lines matters" {
	scn=$(unordered ordered "/dev/sdb2 on /b" "/dev/sda1 on /" "/dev/sdb1 on /a" "")
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
}

@test "cli: an [unordered] block still needs every line, once" {
	scn=$(unordered unordered-wrong "[unordered]" "/dev/sdb2 on /b" "/dev/sda1 on /" "/dev/sdb2 on /b")
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
}

@test "cli: [unordered] later in a block is an ordinary expected line" {
	scn=$(unordered unordered-late "/dev/sda1 on /" "[unordered]" "/dev/sdb1 on /a" "/dev/sdb2 on /b")
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "    -[unordered]"
	assert_line "FAIL  $scn"
}

# ---- loop stand-ins -----------------------------------------------------------

@test "cli: --devices=loop passes a small scenario" {
	[[ -e /dev/loop-control ]] || skip "no loop driver on this machine"
	scn=$(write_scn loop <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mkdir /a/d
    # touch /a/d/f
    # mount /dev/sdb1 /b
    # ls /b/d
    f
    # mount | awk '{print $1, $2, $3}'
    /dev/sda1 on /
    /dev/sdb1 on /a
    /dev/sdb1 on /b
SCN
	)
	run "$NSTEST" run --devices=loop "$scn"
	assert_success
	assert_output "$(nstest_head loop)
PASS  $scn
1 passed, 0 failed, 0 skipped"
}

@test "cli: a scenario on other stand-ins than the run's says which and why" {
	[[ -e /dev/loop-control ]] || skip "no loop driver on this machine"
	own=$(write_scn own-loop <<'SCN'
devices: loop

    # mkdir /a
SCN
	)
	req=$(write_scn req-loop <<'SCN'
requires: loop

    # mkdir /a
SCN
	)
	plain=$(write_scn plain <<'SCN'
    # mkdir /a
SCN
	)
	run "$NSTEST" run "$own" "$req" "$plain"
	assert_success
	assert_output "$(nstest_head)
PASS  $own [loop stand-ins, as its devices: line says]
PASS  $req [loop stand-ins, as its requires: line says]
PASS  $plain
3 passed, 0 failed, 0 skipped"
	# the same with --devices=loop: nothing to say
	run "$NSTEST" run --devices=loop "$own" "$req"
	assert_success
	refute_output --partial "["
}

@test "cli: a failure that is all stand-in mode suggests the other mode; one that is not, does not" {
	scn=$(write_scn written-for-loop <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # mount
    /dev/sda1 on / type ext4 (rw,relatime)
    /dev/sdb1 on /a type ext4 (rw,relatime)
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "FAIL  $scn (the lines differ only in filesystem type and what comes with it: written for loop stand-ins, run on tmpfs ones; try --devices=loop)"
	# a second step that differs in something else: no hint
	cat >>"$scn" <<'SCN'
    # findmnt -no PROPAGATION /a
    shared
SCN
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
}

@test "cli: COMMAND: ERROR expects a failure with any errno, of that command, and nothing else" {
	scn=$(write_scn any-errno <<'SCN'
    # mkdir /a
    # mkdir /a
    mkdir: ERROR
    # umount /a
    umount: ERROR
SCN
	)
	for backend in kernel model; do
		run "$NSTEST" run --backend "$backend" "$scn"
		assert_success
	done
	# a command that succeeds does not match it
	printf '    # mkdir /b\n    mkdir: ERROR\n' >>"$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_output --partial "$scn:6: # mkdir /b"
	assert_output --partial "-mkdir: ERROR"
	# nor does a failure of another command
	scn2=$(write_scn any-errno-other <<'SCN'
    # mkdir /a
    # mkdir /a
    umount: ERROR
SCN
	)
	run "$NSTEST" run "$scn2"
	assert_failure 1
	assert_output --partial "+mkdir: EEXIST (File exists)"
	# --update leaves the form alone where it matches
	cp "$scn2" "$scn2.orig"
	sed -i 's/umount: ERROR/mkdir: ERROR/' "$scn2"
	cp "$scn2" "$scn2.before"
	run "$NSTEST" run --update "$scn2"
	assert_success
	cmp "$scn2" "$scn2.before" || fail "--update rewrote a matching ERROR line: $(cat "$scn2")"
}

@test "cli: umount takes its options after the target too, as util-linux does" {
	scn=$(write_scn umount-late <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # umount /a -l
    # mount | awk '{print $3}'
    /
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "cli: ls of a file prints its name, as ls(1) does" {
	scn=$(write_scn ls-file <<'SCN'
    # touch f
    # ls f
    f
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "cli: exit leaves an inner shell and the outer one is as it was" {
	scn=$(write_scn levels <<'SCN'
    # mkdir /a /b
    # unshare -m sh
    # mount /dev/sdb1 /a
    # chroot /b
    # mkdir /inner
    # ls /
    inner
    # exit
    # mount | awk '{print $3}'
    /
    /a
    # exit
    # mount | awk '{print $3}'
    /
    # ls /b
    inner
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "cli: exit from the first shell closes the terminal; its next command starts afresh" {
	scn=$(write_scn reopen <<'SCN'
    # mkdir /a
    # cd /a
    # exit
    # ls
    a
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "cli: rootless, feature probes still see this kernel's move_mount flags" {
	local as_root
	# what this kernel lacks is skipped as root too
	run --separate-stderr "$NSTEST" run "$NSTEST_ROOT/scenarios/newapi"
	assert_success
	as_root=$(grep '^SKIP' <<<"$output" || true)
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$NSTEST" run "$NSTEST_ROOT/scenarios/newapi"
	assert_success
	# skipped only for what this kernel lacks (as root too) or, for the
	# scenarios that map ids not their own, for needing real root
	while IFS= read -r line; do
		[[ $line == *"(needs real root"* ]] || grep -qxF -- "$line" <<<"$as_root" ||
			fail "skipped rootless only: $line"
	done < <(grep '^SKIP' <<<"$output" || true)
	refute_line --regexp '^SKIP .*move_mount'
	assert_line --regexp "^[0-9]+ passed, 0 failed, [0-9]+ skipped$"
}

@test "cli: cat /proc/mounts and /proc/self/mounts, on the kernel and in the model" {
	scn=$(write_scn proc-mounts <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --bind -o ro,nosuid /a /b
    # cat /proc/mounts
    /dev/sda1 / tmpfs rw,relatime 0 0
    /dev/sdb1 /a tmpfs rw,relatime 0 0
    /dev/sdb1 /b tmpfs ro,nosuid,relatime 0 0
    # cat /proc/self/mounts | grep /b
    /dev/sdb1 /b tmpfs ro,nosuid,relatime 0 0
SCN
	)
	for backend in kernel model; do
		run "$NSTEST" run --backend "$backend" "$scn"
		assert_success
	done
	printf '    # cat /proc/self/status\n' >"$scn"
	run "$NSTEST" lint "$scn"
	assert_failure 2
	assert_output "$scn:1:11: error: cat: only /proc/self/mountinfo, /proc/mounts and /proc/self/mounts can be read from /proc"
}

@test "cli: a filter reads a FILE operand; failing to read it is the filter's failure" {
	scn=$(write_scn filter-file <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # grep -c /a /proc/self/mountinfo
    1
    # echo x y > /a/f
    # wc /a/f
    1 2 4 /a/f
    # grep x /a/nofile
    grep: ENOENT (No such file or directory)
SCN
	)
	for mode in --backend=kernel --backend=model --userns; do
		run "$NSTEST" run $mode "$scn"
		assert_success
	done
	# the reading is the filter's, not a cat's
	sed -i 's/^    grep: ENOENT/    cat: ENOENT/' "$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "    +grep: ENOENT (No such file or directory)"
}

@test "cli: umount -R unmounts the submounts first, deepest first, each with its own propagation" {
	# /b is an rbind of the shared /a: /b is /a's peer, its submounts are
	# private copies. umount -R /a unmounts /a/x/deep (its parent /a/x is
	# private: nothing propagates), /a/x (its parent /a is shared: the
	# cognate /b/x would go, but /b/x/deep stays on it, so it stays:
	# propagate_umount.txt, non-shifting), /a/y (/b/y goes with it), then /a.
	scn=$(write_scn umount-r <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mkdir /a/x /a/y
    # mount /dev/sdb2 /a/x
    # mkdir /a/x/deep
    # mount /dev/sdb3 /a/x/deep
    # mount /dev/sdb4 /a/y
    # mount --make-shared /a
    # mount --rbind /a /b
    # umount -R /a
    # findmnt -o TARGET,SOURCE
    TARGET          SOURCE
    /               /dev/sda1
    └─/b            /dev/sdb1
      └─/b/x        /dev/sdb2
        └─/b/x/deep /dev/sdb3
    # umount --recursive /nope
    umount: ENOENT (No such file or directory)
    # umount -R /b/x/deep/..
    # umount -lR /b
    # findmnt -o TARGET,SOURCE
    TARGET SOURCE
    /      /dev/sda1
    # mkdir /c
    # umount -R /c
    umount: EINVAL (Invalid argument)
SCN
	)
	for backend in kernel model; do
		run "$NSTEST" run --backend "$backend" "$scn"
		assert_success
	done
	printf '    # umount --recursiv /c\n' >"$scn"
	run "$NSTEST" lint "$scn"
	assert_failure 2
	assert_output "$scn:1:14: error: umount: unknown option --recursiv (did you mean --recursive?)"
}

@test "findmnt: a tree's siblings may come in any order, since findmnt sorts them by mount ID" {
	# /c is mounted last but takes the ID that umount freed, the lowest
	# free one, so findmnt prints it before /b: the transcript, written in
	# the order of the mounts, still passes on both backends; a submount
	# under the wrong sibling still fails
	scn=$(write_scn sibling-order <<'SCN'
    # mkdir /a /b /c
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # umount /a
    # mount /dev/sdb3 /c
    # mkdir /c/x
    # mount /dev/sdb4 /c/x
    # findmnt -o TARGET,SOURCE
    TARGET   SOURCE
    /        /dev/sda1
    ├─/b     /dev/sdb2
    └─/c     /dev/sdb3
      └─/c/x /dev/sdb4
    # findmnt -o TARGET,ID
    TARGET   ID
    /        20
    ├─/b     22
    └─/c     21
      └─/c/x 23
SCN
	)
	for backend in kernel model; do
		run "$NSTEST" show --backend "$backend" "$scn"
		assert_line --partial '    ├─/c     /dev/sdb3'
		run "$NSTEST" run --backend "$backend" "$scn"
		assert_success
	done
	# the same session with /c/x drawn under /b
	head -n 7 "$scn" >"$scn.wrong"
	cat >>"$scn.wrong" <<'SCN'
    # findmnt -o TARGET,SOURCE
    TARGET   SOURCE
    /        /dev/sda1
    ├─/b     /dev/sdb2
    │ └─/c/x /dev/sdb4
    └─/c     /dev/sdb3
SCN
	run "$NSTEST" run "$scn.wrong"
	assert_failure 1
	assert_output --partial 'sibling-order.scn.wrong:8: # findmnt -o TARGET,SOURCE'
	assert_output --partial '-└─/c     /dev/sdb3'
	assert_output --partial '+└─/b     /dev/sdb2'
}

# ---- options and commands spelled alike (issue 30) -------------------------

@test "cli: -V, --version and version print the version; help [CMD] the usage" {
	local v
	for v in -V --version version; do
		run --separate-stderr "$NSTEST" "$v"
		assert_success
		assert_output --regexp '^nstest [0-9]+\.[0-9]+\.[0-9]+$'
		assert_equal "$stderr" ""
	done
	run --separate-stderr "$NSTEST" help
	assert_success
	assert_line --index 0 "usage: nstest run [OPTION...] PATH..."
	run --separate-stderr "$NSTEST" help run
	assert_success
	assert_line --index 0 "usage: nstest run [OPTION...] PATH..."
	assert_line --partial "--output FILE"
	run --separate-stderr "$NSTEST" help graph
	assert_success
	assert_line --index 0 --partial "usage: nstest graph "
	run --separate-stderr "$NSTEST" help frob
	assert_failure 2
	assert_equal "$stderr" "nstest: error: unknown command 'frob'"$'\n'"Try 'nstest --help' for more information."
}

@test "cli: run -o FILE is --output FILE, as for graph and export" {
	scn=$(write_scn ok <<'SCN'
    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" run --format tap -o "$BATS_TEST_TMPDIR/r.tap" "$scn"
	assert_success
	assert_output ""
	run cat "$BATS_TEST_TMPDIR/r.tap"
	assert_line "ok 1 - $scn"
	run "$NSTEST" run --help
	assert_line --partial "-o, --output FILE"
}

@test "cli: a misspelt command or long option gets a 'did you mean', in every command" {
	run --separate-stderr "$NSTEST" rnu x.scn
	assert_failure 2
	assert_equal "$stderr" "nstest: error: unknown command 'rnu' (did you mean 'run'?)"$'\n'"Try 'nstest --help' for more information."
	run --separate-stderr "$NSTEST" lnit x.scn
	assert_failure 2
	[[ $stderr == *"(did you mean 'lint'?)"* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST" run --formt tap x.scn
	assert_failure 2
	assert_equal "$stderr" "nstest: error: run: unknown option '--formt' (did you mean '--format'?)"$'\n'"Try 'nstest run --help' for more information."
	run --separate-stderr "$NSTEST" run --formt=tap x.scn
	[[ $stderr == *"unknown option '--formt=tap' (did you mean '--format'?)"* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST" show --explian x.scn
	[[ $stderr == *"show: unknown option '--explian' (did you mean '--explain'?)"* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST" graph --fromat svg x.scn
	[[ $stderr == *"graph: unknown option '--fromat' (did you mean '--format'?)"* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST" export --otput x x.scn
	[[ $stderr == *"export: unknown option '--otput' (did you mean '--output'?)"* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST" fuzz --cuont 3
	assert_failure 2
	[[ $stderr == *"unknown option '--cuont'; did you mean '--count'?"* ]] || fail "$stderr"
	# nothing close: no guess
	run --separate-stderr "$NSTEST" run --frobnicate x.scn
	[[ $stderr != *"did you mean"* ]] || fail "$stderr"
}

@test "cli: a usage error is the error and one line pointing at --help, in every command" {
	local args
	for args in "run --jobs 0 x.scn" "show" "graph" "export x.scn" "lint" "run --frob x.scn"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$NSTEST" $args
		assert_failure 2
		[[ ${#stderr_lines[@]} == 2 ]] || fail "nstest $args: not two lines: $stderr"
		[[ ${stderr_lines[0]} == "nstest: error: "* ]] || fail "nstest $args: $stderr"
		assert_equal "${stderr_lines[1]}" "Try 'nstest ${args%% *} --help' for more information."
	done
}

# ---- every script's --help (issue 30) ----------------------------------------

@test "scripts: every script in ci/, tests/churn and tests/isolation-check has a --help: what it does, options, exit statuses, an example; status 0" {
	local s opt
	for s in ci/vm-run ci/bisect-step ci/install-deps ci/kernel-matrix ci/kernel-bisect \
		ci/merge-reports ci/kernels ci/fuzz-campaign ci/kselftest-runner tests/churn tests/isolation-check \
		tests/check-stages; do
		run --separate-stderr "$NSTEST_ROOT/$s" --help
		[[ $status == 0 ]] || fail "$s --help: status $status: $stderr"
		assert_equal "$stderr" ""
		[[ ${lines[0]} == "$s "* ]] || fail "$s --help does not start with what it is: ${lines[0]}"
		[[ ${output,,} == *"exit status"* ]] || fail "$s --help names no exit status"
		[[ $output =~ $'\n'\ +[^$'\n']*$s\  ]] || fail "$s --help shows no example"
		[[ $output == *"-h, --help"* || $s == tests/isolation-check ]] ||
			fail "$s --help does not list itself"
		# every long option the script's parser takes is described
		for opt in $(grep -oE -- "^	+(-[a-z] \| )?--[a-z][a-z-]*\)|add_argument\(\"--[a-z-]*\"|add_argument\(\"-[a-z]\", \"--[a-z-]*\"" \
			"$NSTEST_ROOT/$s" | grep -oE -- '--[a-z][a-z-]*'); do
			[[ $output == *"$opt"* ]] || fail "$s --help does not describe $opt"
		done
	done
	# every executable script in ci/ is in the list above
	for s in "$NSTEST_ROOT"/ci/*; do
		[[ -f $s && -x $s && $s != *.py ]] || continue
		[[ " vm-run bisect-step install-deps kernel-matrix kernel-bisect merge-reports kernels fuzz-campaign kselftest-runner " == *" ${s##*/} "* ]] ||
			fail "ci/${s##*/} is not checked here"
	done
}

@test "scripts: a usage error points at --help, with the status each documents" {
	run --separate-stderr "$NSTEST_ROOT/ci/vm-run" --bogus
	assert_failure 2
	[[ $stderr == *"see $NSTEST_ROOT/ci/vm-run --help"* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST_ROOT/ci/vm-run"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "usage:   ci/vm-run [options] KERNEL_IMAGE [-- NSTEST_ARGUMENTS...]"
	[[ ${stderr_lines[-1]} == "Try '"*"ci/vm-run --help' for more information." ]] || fail "$stderr"
	run --separate-stderr "$NSTEST_ROOT/ci/bisect-step" --bogus
	assert_failure 128
	[[ $stderr == *"unknown option '--bogus' (see "*"ci/bisect-step --help)"* ]] || fail "$stderr"
	run --separate-stderr "$NSTEST_ROOT/ci/install-deps" --bogus
	assert_failure 2
	assert_equal "$stderr" "install-deps: error: unknown option '--bogus'"$'\n'"usage: ci/install-deps [--vm | --bisect]; see ci/install-deps --help"
	run --separate-stderr "$NSTEST_ROOT/tests/isolation-check"
	assert_failure 2
	[[ $stderr == *"see tests/isolation-check --help"* ]] || fail "$stderr"
}

# ---- make check's stages (issue 30) --------------------------------------------

fake_make() {
	cat >"$BATS_TEST_TMPDIR/make" <<-'EOF'
	#!/bin/bash
	echo "making $1"
	[[ $1 != bad* ]]
	EOF
	chmod +x "$BATS_TEST_TMPDIR/make"
}

@test "check-stages: names each stage as it starts, says how long each took, and sums up" {
	fake_make
	MAKEFLAGS= run --separate-stderr "$NSTEST_ROOT/tests/check-stages" "$BATS_TEST_TMPDIR/make" one two
	assert_success
	assert_line --index 0 "check: stage 1 of 2: one"
	assert_line --index 1 "making one"
	assert_line --index 2 --regexp "^check: one passed in [0-9]+ s$"
	assert_line --index 3 "check: stage 2 of 2: two"
	assert_line --regexp "^check: [0-9]+ s in all, 2 of 2 stages run:$"
	assert_line --regexp "^  two +[0-9]+ s  passed$"
}

@test "check-stages: stops at the first stage that fails with its status, as make does; make -k runs them all" {
	fake_make
	MAKEFLAGS= run --separate-stderr "$NSTEST_ROOT/tests/check-stages" "$BATS_TEST_TMPDIR/make" one bad two
	assert_failure 1
	assert_line --regexp "^check: bad failed \(status 1\) in [0-9]+ s$"
	refute_line "making two"
	assert_line --regexp "^  bad +[0-9]+ s  FAILED \(status 1\)$"
	MAKEFLAGS="k -j2" run --separate-stderr "$NSTEST_ROOT/tests/check-stages" "$BATS_TEST_TMPDIR/make" one bad two
	assert_failure 1
	assert_line "making two"
	assert_line --regexp "^check: [0-9]+ s in all, 3 of 3 stages run:$"
}

@test "check-stages: make check runs its stages through it, inside tests/isolation-check" {
	grep -q '^	tests/isolation-check tests/check-stages $(MAKE) $(CHECK_STAGES)$' "$NSTEST_ROOT/Makefile" ||
		fail "make check does not run tests/check-stages"
	grep -q '^CHECK_STAGES := check-unit check-bats' "$NSTEST_ROOT/Makefile" || fail "no CHECK_STAGES"
}

# ---- --color (issue 30) ----------------------------------------------------------

@test "cli: --color=always colours a report on a pipe, for CI logs; it outranks NO_COLOR" {
	scn=$(write_scn fail <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
	)
	run --separate-stderr "$NSTEST" run --color=always "$scn"
	assert_failure 1
	[[ $output == *$'\033[31mFAIL'* ]] || fail "no colour: $output"
	NO_COLOR=1 run --separate-stderr "$NSTEST" run --color "$scn"
	[[ $output == *$'\033[31m'* ]] || fail "--color alone is always: $output"
	# auto, the default: none on a pipe
	run --separate-stderr "$NSTEST" run --color=auto "$scn"
	[[ $output != *$'\033'* ]] || fail "colour on a pipe: $output"
	# a report file never has colour
	run --separate-stderr "$NSTEST" run --color=always -o "$BATS_TEST_TMPDIR/r.txt" "$scn"
	run cat "$BATS_TEST_TMPDIR/r.txt"
	[[ $output != *$'\033'* ]] || fail "colour in the file: $output"
}

@test "cli: --color=never on a terminal, and NO_COLOR under auto, give no colour; a bad WHEN is a usage error" {
	scn=$(write_scn fail <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
	)
	run script -qec "$NSTEST run $scn" /dev/null
	[[ $output == *$'\033[31mFAIL'* ]] || fail "no colour on a terminal: $output"
	run script -qec "$NSTEST run --color=never $scn" /dev/null
	[[ $output != *$'\033[31m'* ]] || fail "colour with never: $output"
	run script -qec "env NO_COLOR=1 $NSTEST run $scn" /dev/null
	[[ $output != *$'\033[31m'* ]] || fail "colour with NO_COLOR: $output"
	run --separate-stderr "$NSTEST" run --color=sometimes "$scn"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "nstest: error: --color must be auto, always or never, not 'sometimes'"
}

# ---- shell completion (issue 30) ---------------------------------------------------

# complete WORD...: what the bash completion offers for the last WORD
# after `nstest WORD...`.
complete_words() {
	bash -c 'source "$1/harness/completion/nstest.bash"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nstest
		printf "%s\n" "${COMPREPLY[@]}"' _ "$NSTEST_ROOT" "$NSTEST" "$@"
}

@test "completion (bash): commands, each command's options, --backend, --quirk, --format, --color values, scenario paths" {
	run complete_words r
	assert_output "$(printf '%s\n' run record)"
	run complete_words rec
	assert_output "record"
	run complete_words he
	assert_output "help"
	run complete_words run --form
	assert_output "--format"
	run complete_words fuzz --cou
	assert_output "--count"
	run complete_words run --format ""
	assert_output "$(printf '%s\n' human tap ktap junit json html)"
	run complete_words graph --format ""
	assert_output "$(printf '%s\n' dot svg)"
	run complete_words run --backend ""
	assert_output "$(printf '%s\n' kernel model)"
	run complete_words show --quirk make-sl
	assert_output "make-slave-same-root"
	run complete_words run --color=n
	assert_output "--color=never"
	cd "$NSTEST_ROOT"
	run complete_words run scenarios/article/02
	assert_output "scenarios/article/02-slave.scn"
	run complete_words run scenarios/artic
	assert_output "scenarios/article"
}

@test "completion (zsh): _nstest uses the bash completion beside it" {
	grep -q '^#compdef nstest$' "$NSTEST_ROOT/harness/completion/_nstest" || fail "no #compdef"
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh -c "autoload -Uz compinit && compinit -u; fpath=($NSTEST_ROOT/harness/completion \$fpath); autoload -Uz _nstest; source $NSTEST_ROOT/harness/completion/_nstest; whence -w _nstest"
	assert_success
}
