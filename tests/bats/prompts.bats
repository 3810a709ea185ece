#!/usr/bin/env bats
# tests/bats/prompts.bats - prompts as sessions show them (issue 29,
# "Prompts as people have them"): the `prompt:` directive for forms
# nstest does not know by itself, zsh's "%", and dash's bare "# " in an
# inner shell, which is the terminal that started it one level deeper.
# Each form has a wrong twin that fails. Every case runs on the kernel
# (in nstest's own private namespace; tests/isolation-check proves the
# host's table unchanged) and on the model.
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers

# both FILE: passes on the kernel and on the model
both() {
	run "$NSTEST_ROOT/tests/isolation-check" "$NSTEST" run "$1"
	assert_success
	run "$NSTEST" run --backend model "$1"
	assert_success
}

# ---- prompt: ------------------------------------------------------------

forms_scn() {
	write_scn "${1:-forms}" <<'SCN'
title: prompts of other shells
prompt: ({terminal}) {path} >
prompt: {terminal}:lab#

    (one) /tmp > mkdir /a
    two:lab# mount -t tmpfs x /a
    (one) / > findmnt -n -o TARGET,SOURCE /a
    /a     x
SCN
}

@test "prompt: a form with {terminal} and {path} names terminals, whatever the path" {
	local f
	f=$(forms_scn)
	both "$f"
	run "$NSTEST" run -v --backend model "$f"
	assert_output --partial "one> mkdir /a"
	assert_output --partial "two# mount -t tmpfs x /a"
}

@test "prompt: without the directive the same lines are refused as odd prompts, with the directive to write" {
	local f
	f=$(forms_scn)
	sed -i '/^prompt: {terminal}:lab#$/d' "$f"
	run "$NSTEST" lint "$f"
	assert_failure 2
	assert_output --partial "forms.scn:5:5: error: 'two:lab# ' looks like a prompt, but is none"
	assert_output --partial "name it in the header, as in 'prompt: {terminal}:lab#'"
}

@test "prompt: two forms that are one terminal: a mount made at one prompt is seen at the other" {
	write_scn same <<'SCN'
title: one terminal, two forms
prompt: <{terminal}>$

    <t1>$ mkdir /a
    t1# mount -t tmpfs x /a
    <t1>$ findmnt -n -o TARGET /a
    /a
SCN
	both "$SCN_DIR/same.scn"
	# the wrong twin: a terminal of its own is another terminal, but in
	# the same namespace; what tells them apart is a shell's own state
	write_scn twin <<'SCN'
title: the form names a terminal
prompt: <{terminal}>$

    <t1>$ mkdir /a
    <t1>$ cd /a
    t2# pwd
    /a
SCN
	run "$NSTEST" run --backend model "$SCN_DIR/twin.scn"
	assert_failure 1
	assert_output --partial "+/"
}

@test "prompt: a malformed form is an error naming the line" {
	write_scn bad <<'SCN'
title: bad forms
prompt: {terminal}{path}#
prompt: {terminal}:{terminal}#
prompt: {path}

    sh1# ls
SCN
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_output --partial "bad.scn:2:9: error: prompt: '{terminal}{path}#': {terminal} and {path} need text between them"
	assert_output --partial "bad.scn:3:9: error: prompt: '{terminal}:{terminal}#' holds {terminal} more than once"
	assert_output --partial "bad.scn:4:9: error: prompt: '{path}' must end with the prompt's own character"
}

@test "prompt: a form without {terminal} is the bare prompt's" {
	write_scn tilde <<'SCN'
title: a prompt with no name
prompt: ~#

    ~# mkdir /a
    ~# ls /
    a
SCN
	both "$SCN_DIR/tilde.scn"
	run "$NSTEST" run --backend model "$SCN_DIR/tilde.scn" -v
	assert_output --partial "# mkdir /a"
}

# ---- zsh's % -------------------------------------------------------------

@test "prompt: zsh's 'host% ' and a bare '% ' are prompts; '100% /mnt' stays output" {
	write_scn zsh <<'SCN'
title: zsh
    zz% mkdir /a
    zz% ls /
    a
    % ls /
    a
SCN
	both "$SCN_DIR/zsh.scn"
	# output that begins with a number and a percent sign is output: the
	# block below has two lines, so ls's one name does not match it
	write_scn pct <<'SCN'
title: a percentage is no prompt
    zz% mkdir /a
    zz% ls /
    a
    100% /mnt
SCN
	run "$NSTEST" run --backend model "$SCN_DIR/pct.scn"
	assert_failure 1
	assert_output --partial "-100% /mnt"
}

# ---- dash's bare prompt in an inner shell --------------------------------

inner_scn() {
	write_scn inner <<'SCN'
title: dash's bare prompt in an inner shell
    sh1# mkdir /a /b
    sh1# unshare -m sh
    # mount -t tmpfs x /a
    # exit
    sh1# mount -t tmpfs y /b
    sh2# findmnt -n -o TARGET /b
    /b
    sh2# findmnt -n -o TARGET /a
SCN
}

@test "inner shell: a bare prompt after sh1 starts a shell is that shell, and its exit returns to sh1" {
	inner_scn
	both "$SCN_DIR/inner.scn"
	run "$NSTEST" run --backend model -v "$SCN_DIR/inner.scn"
	assert_output --partial "sh1# mount -t tmpfs x /a"
}

@test "inner shell: its mount stays in its own namespace (the wrong twin fails)" {
	inner_scn
	printf '    /a\n' >>"$SCN_DIR/inner.scn"
	run "$NSTEST" run --backend model "$SCN_DIR/inner.scn"
	assert_failure 1
	assert_output --partial "inner.scn:9: sh2# findmnt -n -o TARGET /a"
}

@test "inner shell: a shell the bare prompt starts is one more level, and two exits end both" {
	write_scn deeper <<'SCN'
title: two inner shells at the bare prompt
    sh1# mkdir /a
    sh1# unshare -m sh
    # unshare -m sh
    # mount -t tmpfs x /a
    # exit
    # findmnt -n -o TARGET /a
    # exit
    sh1# findmnt -n -o TARGET /a
    sh1# mount -t tmpfs y /a
    sh2# findmnt -n -o TARGET /a
    /a
SCN
	both "$SCN_DIR/deeper.scn"
}

@test "inner shell: a bare prompt used before stays a terminal of its own" {
	write_scn own <<'SCN'
title: the bare prompt is a terminal
    # mkdir /a
    sh1# unshare -m sh
    # mount -t tmpfs x /a
    sh2# findmnt -n -o TARGET /a
    /a
SCN
	both "$SCN_DIR/own.scn"
}
