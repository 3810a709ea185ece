#!/usr/bin/env bats
# tests/bats/show.bats - `nstest show FILE`: the scenario as it reads, with
# this kernel's output under each command, "!!" where it differs, and the
# exit statuses of `run`.
#
# Runs as root: `nstest show` sandboxes itself like `nstest run`.

bats_require_minimum_version 1.5.0
load helpers

# The result line ends with "; Linux RELEASE, MODE stand-ins, BACKEND
# backend)".
about_re='Linux [^ ,]+, tmpfs stand-ins, kernel backend'

@test "show: prose, directives and commands as they are, output under each command" {
	scn=$(write_scn pass <<'SCN'
title: a passing demo

Prose stays as it is,
  indentation and all.

    # mkdir /a /b     # two folders
    # touch /a/f
    # ls /a
    f

	sh2# ls /a
	f
Closing prose.
SCN
	)
	run --separate-stderr "$NSTEST" show "$scn"
	assert_success
	assert_equal "$stderr" ""
	# Everything but the blank line and the result line, byte for byte:
	# the expected lines are gone and the real output (here the same)
	# stands in their place.
	assert_equal "$(head -n -1 <<<"$output")" "title: a passing demo

Prose stays as it is,
  indentation and all.

    # mkdir /a /b     # two folders
    # touch /a/f
    # ls /a
    f

	sh2# ls /a
	f
Closing prose."
	assert_line --index -1 --regexp "^PASS  $scn \($about_re\)$"
}

@test "show: a matched mountinfo step shows this kernel's numbers, not the transcript's" {
	scn=$(write_scn numbers <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    61 17 8:16 / / rw,relatime
    77 61 8:17 / /a rw,relatime shared:1
SCN
	)
	run "$NSTEST" show "$scn"
	assert_success
	refute_output --partial "8:17"
	refute_output --partial "!!"
	assert_line --index 4 --regexp '^    [0-9]+ [0-9]+ [0-9]+:[0-9]+ / / rw,relatime$'
	assert_line --index 5 --regexp '^    [0-9]+ [0-9]+ [0-9]+:[0-9]+ / /a rw,relatime shared:[0-9]+$'
	# The parent column of /a is the ID of / on this kernel.
	root_id=$(awk 'NR == 5 {print $1}' <<<"$output")
	a_parent=$(awk 'NR == 6 {print $2}' <<<"$output")
	assert_equal "$a_parent" "$root_id"
}

@test "show: a step that differs is marked with !!, its place and the diff; exit 1" {
	scn=$(write_scn differs <<'SCN'
A step that matches, then one that does not.

    # mkdir /a
    # touch /a/f
    # ls /a
    g
    h
    # ls /
    a
SCN
	)
	run --separate-stderr "$NSTEST" show "$scn"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_equal "$(head -n -1 <<<"$output")" "A step that matches, then one that does not.

    # mkdir /a
    # touch /a/f
    # ls /a
    f
!!  $scn:5: this kernel differs from the transcript
!!  --- expected
!!  +++ actual
!!  @@ -1,2 +1,1 @@
!!  -g
!!  -h
!!  +f
    # ls /
    a"
	assert_line --index -1 --regexp "^FAIL  $scn \(1 of 4 steps differ from the transcript; $about_re\)$"
}

@test "show: a failing system call is named among the !! lines" {
	scn=$(write_scn errno <<'SCN'
    # mount --make-shared /nowhere
SCN
	)
	run "$NSTEST" show "$scn"
	assert_failure 1
	assert_line --index 0 "    # mount --make-shared /nowhere"
	assert_line --index 1 --regexp '^    mount: ENOENT '
	assert_line "!!  system call failed: mount: ENOENT"
}

@test "show: output follows the indentation of its block (tab)" {
	scn=$(write_scn tab <<'SCN'
	# mkdir /x
	# ls /
	y
SCN
	)
	run "$NSTEST" show "$scn"
	assert_failure 1
	assert_line --index 1 $'\t# ls /'
	assert_line --index 2 $'\tx'
	assert_line --index 3 "!!  $scn:2: this kernel differs from the transcript"
}

@test "show: steps the watchdog kept from running are marked --" {
	scn=$(write_scn hang <<'SCN'
    # mkdir /a
    # sleep 60
    # ls /
SCN
	)
	run "$NSTEST" show --timeout 1 "$scn"
	assert_failure 1
	assert_line --index 2 "--  (not run: killed by the watchdog)"
	assert_line --index 4 "--  (not run)"
	assert_line --index -1 --regexp "^FAIL  $scn \(timeout after 1 s; $about_re\)$"
}

@test "show: a skipped scenario prints its SKIP line only; exit 0" {
	scn=$(write_scn future <<'SCN'
kernel: >= 99.0

    # mkdir /a
SCN
	)
	run "$NSTEST" show "$scn"
	assert_success
	assert_output --regexp "^SKIP  $scn \(needs kernel >= 99\.0\.0, this is .+\)$"
}

@test "show: a parse error exits 2 and runs nothing" {
	scn=$(write_scn bad <<'SCN'
Prose.

    # frobnicate /a
SCN
	)
	run --separate-stderr "$NSTEST" show "$scn"
	assert_failure 2
	assert_output ""
	[[ $stderr == "$scn:3:7: error: "* ]] || fail "stderr: $stderr"
}

@test "show: usage errors exit 2" {
	a=$(write_scn d/a <<<'    # mkdir /a')
	write_scn d/b <<<'    # mkdir /b' >/dev/null

	run --separate-stderr "$NSTEST" show
	assert_failure 2
	[[ $stderr == "nstest: error: show needs exactly one scenario file"$'\n'"Try 'nstest show --help' for more information." ]] || fail "$stderr"

	run --separate-stderr "$NSTEST" show "$a" "$a"
	assert_failure 2

	run --separate-stderr "$NSTEST" show "$SCN_DIR/d"
	assert_failure 2
	[[ $stderr == "nstest: error: show takes one scenario file; $SCN_DIR/d holds 2"* ]] || fail "$stderr"

	run --separate-stderr "$NSTEST" show --devices=floppy "$a"
	assert_failure 2
	[[ $stderr == "nstest: error: --devices must be tmpfs or loop, not 'floppy'"* ]] || fail "$stderr"

	run --separate-stderr "$NSTEST" show --bogus "$a"
	assert_failure 2
	[[ $stderr == "nstest: error: show: unknown option '--bogus'"* ]] || fail "$stderr"

	run --separate-stderr "$NSTEST" show "$SCN_DIR/missing.scn"
	assert_failure 2
	assert_output ""
}

@test "show: --help lists show" {
	run "$NSTEST" --help
	assert_success
	assert_line "       nstest show [OPTION...] FILE"
	run "$NSTEST" show --help
	assert_success
	assert_line --index 0 "usage: nstest show [OPTION...] FILE"
}

@test "show: rootless, an unprivileged reader sees the article with their numbers" {
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$NSTEST" show "$NSTEST_ROOT/scenarios/article/01-shared-private.scn"
	assert_success
	assert_equal "$stderr" "nstest: not running as root: sandboxes run in a user namespace (rootless mode; loop devices are not available)"
	assert_line --index -1 --regexp "^PASS  .*/01-shared-private\.scn \(Linux [^ ,]+, tmpfs stand-ins, kernel backend, rootless\)$"
	refute_output --partial "!!"
}

@test "show: --userns runs rootless on request" {
	scn=$(write_scn ok <<<'    # mkdir /a')
	run --separate-stderr "$NSTEST" show --userns "$scn"
	assert_success
	assert_equal "$stderr" ""
	assert_line --index -1 --regexp "^PASS  $scn \(Linux [^ ,]+, tmpfs stand-ins, kernel backend, rootless\)$"
}
