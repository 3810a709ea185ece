#!/usr/bin/env bats
# tests/bats/update.bats - `nstest run --update`: failing blocks rewritten
# with this kernel's output in canonical numbers, everything else kept
# byte for byte, a second update a no-op, and nothing written when a file
# does not parse, is skipped, or cannot be rewritten.
#
# Runs as root: the scenarios really run.

bats_require_minimum_version 1.5.0
load helpers

# A scenario whose blocks are all wrong, with every kind of line around
# them that must survive.
write_wrong() {
	write_scn "${1:-wrong}" <<'SCN'
title: update me
root: /dev/sda1

Prose, with  two spaces and a trailing blank 
  and an indented prose line.

    sh1# mkdir /a /b          # a trailing comment
    sh1# mount /dev/sdb1 /a
    sh1# mount --make-shared /a
    sh1# cat /proc/self/mountinfo | sed 's/ - .*//'
    1 2 3:4 / / wrong
    
More prose.

	sh2# unshare -m --propagation unchanged sh
	sh2# mount /dev/sdb2 /a
	sh2# cat /proc/self/mountinfo | sed 's/ - .*//'
	[unordered]
	nothing like it
    sh1# ls /a
    stale
SCN
}

# What write_wrong becomes on any machine: kernel numbers renamed in order
# of first appearance (parent before mount), devices 8:N, groups from 1.
fixed='title: update me
root: /dev/sda1

Prose, with  two spaces and a trailing blank 
  and an indented prose line.

    sh1# mkdir /a /b          # a trailing comment
    sh1# mount /dev/sdb1 /a
    sh1# mount --make-shared /a
    sh1# cat /proc/self/mountinfo | sed '"'s/ - .*//'"'
    101 100 8:1 / / rw,relatime
    102 101 8:2 / /a rw,relatime shared:1
    
More prose.

	sh2# unshare -m --propagation unchanged sh
	sh2# mount /dev/sdb2 /a
	sh2# cat /proc/self/mountinfo | sed '"'s/ - .*//'"'
	[unordered]
	104 103 8:1 / / rw,relatime
	105 104 8:2 / /a rw,relatime shared:1
	106 105 8:3 / /a rw,relatime shared:2
    sh1# ls /a'

@test "update: wrong blocks are rewritten and the scenario then passes" {
	scn=$(write_wrong)
	run "$NSTEST" run "$scn"
	assert_failure 1

	run --separate-stderr "$NSTEST" run --update "$scn"
	assert_success
	assert_equal "$stderr" ""
	assert_output "updated    $scn (3 blocks rewritten)
1 updated, 0 unchanged, 0 skipped, 0 failed"

	run "$NSTEST" run "$scn"
	assert_success
	assert_output "$HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
}

@test "update: prose, comments, directives, blank lines and indentation kept exactly; IDs canonical" {
	scn=$(write_wrong)
	run "$NSTEST" run --update "$scn"
	assert_success
	assert_equal "$(cat "$scn")" "$fixed"
	# ... down to the final newline
	assert_equal "$(tail -c 1 "$scn" | od -An -c | tr -d ' ')" '\n'
}

@test "update: a second update changes nothing, byte for byte" {
	scn=$(write_wrong)
	run "$NSTEST" run --update "$scn"
	assert_success
	cp "$scn" "$BATS_TEST_TMPDIR/first"
	run "$NSTEST" run --update "$scn"
	assert_success
	assert_output "unchanged  $scn
0 updated, 1 unchanged, 0 skipped, 0 failed"
	cmp "$BATS_TEST_TMPDIR/first" "$scn"
}

@test "update: matching blocks with ..., [unordered] and the article's numbers stay as written" {
	scn=$(write_scn kept <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    77 61 8:17 / /a rw,relatime shared:7
    61 17 8:15 / / rw,relatime
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    ...
    77 61 8:17 / /a rw,relatime shared:7
    # ls /a
    wrong
SCN
	)
	cp "$scn" "$BATS_TEST_TMPDIR/before"
	run "$NSTEST" run --update "$scn"
	assert_success
	assert_line "updated    $scn (1 block rewritten)"
	# Only the last block changed: it was "wrong", /a is empty.
	run diff "$BATS_TEST_TMPDIR/before" "$scn"
	assert_output "12d11
<     wrong"
}

@test "update: the rewritten block uses the names kept blocks gave the same mounts" {
	scn=$(write_scn names <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    61 17 8:15 / / rw,relatime
    ...
    # mount --make-shared /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    wrong
SCN
	)
	run "$NSTEST" run --update "$scn"
	assert_success
	# / is 61 on 17 with 8:15 as the kept block says; /a was never named,
	# so it gets the first canonical ID and device that are free.
	assert_equal "$(tail -n 2 "$scn")" "    61 17 8:15 / / rw,relatime
    100 61 8:1 / /a rw,relatime shared:1"
	run "$NSTEST" run "$scn"
	assert_success
}

@test "update: a file that does not parse exits 2 and no file is written" {
	good=$(write_wrong good)
	bad=$(write_scn bad <<'SCN'
    # mkdir /a
    # frobnicate /a
SCN
	)
	cp "$good" "$BATS_TEST_TMPDIR/good"
	cp "$bad" "$BATS_TEST_TMPDIR/bad"
	run --separate-stderr "$NSTEST" run --update "$good" "$bad"
	assert_failure 2
	assert_output ""
	[[ $stderr == "$bad:2:7: error: "* ]] || fail "stderr: $stderr"
	cmp "$BATS_TEST_TMPDIR/good" "$good"
	cmp "$BATS_TEST_TMPDIR/bad" "$bad"
}

@test "update: a skipped scenario is left untouched" {
	scn=$(write_scn future <<'SCN'
kernel: >= 99.0

    # ls /
    wrong
SCN
	)
	cp "$scn" "$BATS_TEST_TMPDIR/before"
	run "$NSTEST" run --update "$scn"
	assert_success
	assert_line --regexp "^skipped    $scn \(needs kernel >= 99\.0\.0, this is .+\)$"
	assert_line "0 updated, 0 unchanged, 1 skipped, 0 failed"
	cmp "$BATS_TEST_TMPDIR/before" "$scn"
}

@test "update: a run that broke off is not written; exit 1" {
	scn=$(write_scn hang <<'SCN'
    # ls /
    wrong
    # sleep 60
SCN
	)
	cp "$scn" "$BATS_TEST_TMPDIR/before"
	run "$NSTEST" run --update --timeout 1 "$scn"
	assert_failure 1
	assert_line "failed     $scn (the run broke off: timeout after 1 s)"
	assert_line "0 updated, 0 unchanged, 0 skipped, 1 failed"
	cmp "$BATS_TEST_TMPDIR/before" "$scn"
}

@test "update: files change in place atomically, keep their mode, and follow a symlink" {
	scn=$(write_scn mode <<'SCN'
    # mkdir /a
    # ls /
    wrong
SCN
	)
	chmod 640 "$scn"
	ln -s "$scn" "$SCN_DIR/link.scn"
	run "$NSTEST" run --update "$SCN_DIR/link.scn"
	assert_success
	[[ -L $SCN_DIR/link.scn ]] || fail "the symlink was replaced"
	assert_equal "$(stat -c %a "$scn")" 640
	assert_equal "$(tail -n 1 "$scn")" "    a"
	# no temporary file is left behind
	assert_equal "$(ls -A "$SCN_DIR")" "link.scn
mode.scn"
}

@test "update: several files, folders and -j 2 give the same files as one by one" {
	write_wrong set1/a >/dev/null
	write_wrong set1/b >/dev/null
	cp -r "$SCN_DIR/set1" "$SCN_DIR/set2"
	run "$NSTEST" run --update -j 2 "$SCN_DIR/set1"
	assert_success
	assert_line --index 0 "updated    $SCN_DIR/set1/a.scn (3 blocks rewritten)"
	assert_line --index 1 "updated    $SCN_DIR/set1/b.scn (3 blocks rewritten)"
	for f in a b; do
		run "$NSTEST" run --update "$SCN_DIR/set2/$f.scn"
		assert_success
		cmp "$SCN_DIR/set1/$f.scn" "$SCN_DIR/set2/$f.scn"
	done
	assert_equal "$(cat "$SCN_DIR/set1/a.scn")" "$fixed"
}

@test "update: loop stand-ins give the same file as tmpfs ones" {
	[[ -e /dev/loop-control ]] || skip "no loop driver on this machine"
	scn=$(write_wrong)
	run "$NSTEST" run --update --devices=loop "$scn"
	assert_success
	assert_equal "$(cat "$scn")" "$fixed"
	run "$NSTEST" run --update "$scn"
	assert_output --partial "unchanged  $scn"
}

@test "update: the shipped scenarios round-trip without a change" {
	cp -r "$NSTEST_ROOT/scenarios" "$BATS_TEST_TMPDIR/shipped"
	run "$NSTEST" run --update -j 4 "$BATS_TEST_TMPDIR/shipped"
	assert_success
	refute_line --regexp '^(updated|failed) '
	diff -r "$NSTEST_ROOT/scenarios" "$BATS_TEST_TMPDIR/shipped"
}
