#!/usr/bin/env bats
# tests/bats/sessions-cmds.bats - the commands sessions reach for (issue
# 29): ls -l, -la, -ld; df [-h] [-T] [FILE...]; findmnt -D; readlink and
# realpath with several FILEs. tests/data/sessioncmds/record plays
# tests/data/sessioncmds/session with the real coreutils and util-linux
# in a chroot on a private tmpfs and writes it as a scenario
# (recorded.scn: Debian 12, coreutils 9.1, util-linux 2.38.1); nstest
# must replay it on both backends. Sizes and dates are free; modes, link
# counts, owners, names, sources and mount points are not, and each has
# a wrong twin here that fails.
#
# Runs as root: the scenarios and the recording really run, each kernel
# run inside tests/isolation-check.

bats_require_minimum_version 1.5.0
load helpers

DATA=$NSTEST_ROOT/tests/data/sessioncmds
ISO=$NSTEST_ROOT/tests/isolation-check

# run_both FILE: the scenario on the kernel (tmpfs and loop stand-ins,
# inside the isolation check) and on the model; sets $status of each
# into kernel_rc, loop_rc, model_rc and the last output into $output.
run_both() {
	run "$ISO" "$NSTEST" run "$1"
	kernel_rc=$status kernel_out=$output
	run "$ISO" "$NSTEST" run --devices=loop "$1"
	loop_rc=$status
	run "$NSTEST" run --backend=model "$1"
	model_rc=$status
}

# twin 'SED-SCRIPT' NAME: the recording with one change, in $SCN_DIR
twin() {
	sed "$1" "$DATA/recorded.scn" >"$SCN_DIR/$2.scn"
	cmp -s "$DATA/recorded.scn" "$SCN_DIR/$2.scn" && fail "twin $2: '$1' changed nothing"
	echo "$SCN_DIR/$2.scn"
}

@test "sessions-cmds: the stored recording replays on the kernel, in both stand-in modes, and on the model" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	run_both "$DATA/recorded.scn"
	((kernel_rc == 0 && loop_rc == 0 && model_rc == 0)) ||
		fail "kernel $kernel_rc, loop $loop_rc, model $model_rc: $kernel_out"
}

@test "sessions-cmds: a new recording with the tools of this machine replays on both backends" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	command -v findmnt >/dev/null || skip "no findmnt"
	"$DATA/record" >"$SCN_DIR/live.scn"
	run_both "$SCN_DIR/live.scn"
	((kernel_rc == 0 && loop_rc == 0 && model_rc == 0)) ||
		fail "kernel $kernel_rc, loop $loop_rc, model $model_rc: $kernel_out"
}

# Dates, sizes, totals and percentages that are other numbers of their
# form match: a run's values are no fact about the mounts.
@test "sessions-cmds: other dates, sizes, totals and percentages pass" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	local f
	f=$(twin 's/Dec  7 19:10/Jan 31  2024/; s/^    total 0$/    total 12/;
		s/ 12341892 / 999 /g; s/  12G / 7.8G /g; s/11\.8G/100M/g; s/   0% \/d$/  50% \/d/' dates)
	run_both "$f"
	((kernel_rc == 0 && model_rc == 0)) || fail "kernel $kernel_rc, model $model_rc: $kernel_out"
}

# each_fails SCRIPT...: each sed script's twin of the recording fails on
# both backends
each_fails() {
	local script f
	for script; do
		f=$(twin "$script" wrong)
		run_both "$f"
		((kernel_rc == 1 && model_rc == 1)) ||
			fail "'$script': kernel $kernel_rc, model $model_rc (both should fail)"
	done
}

# Each fact on a line, changed, fails on both backends, at its step.
@test "sessions-cmds: a wrong mode, link count, owner, group, name or link target fails" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	each_fails \
		's/^    -rw-r--r-- 1 root root  0 \(.*\) f$/    -rw-rw-r-- 1 root root  0 \1 f/' \
		's/^    drwxr-xr-x 2 root root 40 \(.*\) sub$/    drwxr-xr-x 3 root root 40 \1 sub/' \
		's/^    drwxrwxrwt 2 root root 40 \(.*\) \/a$/    drwxrwxrwt 2 nobody root 40 \1 \/a/' \
		's/^    drwxrwxrwt 2 root root 40 \(.*\) \/b$/    drwxrwxrwt 2 root nogroup 40 \1 \/b/' \
		's/^    -rw-r--r-- 1 root root 0 \(.*\) f$/    -rw-r--r-- 1 root root 0 \1 g/' \
		's/ l -> \/w\/a\/f$/ l -> \/w\/a\/g/'
}

@test "sessions-cmds: a wrong source, type or mount point of df and findmnt -D fails" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	each_fails \
		's/^    sdb6            12341892 \(.*\) \/a$/    sdb6            12341892 \1 \/b/' \
		's/^    x               12341892 \(.*\) \/d$/    y               12341892 \1 \/d/' \
		's/^    x              tmpfs  12341892/    x              ramfs  12341892/' \
		's/^    r                  0     0     0    - \/c$/    r                  0     0     0    - \/d/' \
		's/^    x      tmpfs  11.8G    0 11.8G   0% \/d$/    x      tmpfs  11.8G    0 11.8G   0% \/a/' \
		's/^    sdb6   tmpfs  /    sdb6   ramfs  /'
}

# A free field still has its form: a size is a number, a percentage N%,
# a date one of ls's.
@test "sessions-cmds: a size, percentage or date of another form fails" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	each_fails \
		's/^    -rw-r--r-- 1 root root 0 \(.*\) f$/    -rw-r--r-- 1 root root none \1 f/' \
		's/ Dec  7 19:10 sub$/ yesterday sub/' \
		's/^    total 0$/    total zero/' \
		's/^    x               12341892        0  12341892   0% \/d$/    x               12341892        0  12341892   0 \/d/' \
		's/^    sdb6             12G /    sdb6             big /'
}

# df's rows are picked as coreutils picks them: a row too many or too few
# fails (the bind mount /b of /a's device is no row of its own).
@test "sessions-cmds: df with a row too many or too few fails" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	local f
	f=$(twin '/^    sdb6            12341892 .* \/a$/p' extra)
	run_both "$f"
	((kernel_rc == 1 && model_rc == 1)) || fail "row twice: kernel $kernel_rc, model $model_rc"
	f=$(twin '/^    x               12341892 .* \/d$/d' fewer)
	run_both "$f"
	((kernel_rc == 1 && model_rc == 1)) || fail "row missing: kernel $kernel_rc, model $model_rc"
}

# Several operands: files first as one listing, then each directory
# under its name, a blank line (written "...") between, as GNU ls lays
# them out; a directory under the wrong name fails.
@test "sessions-cmds: ls -l of several operands lists files, then each directory under its name" {
	scn=$(write_scn several <<'SCN'
    # mkdir -p /a/s /b
    # touch /a/f /h
    # ls -l /b /a /h
    -rw-r--r-- 1 root root 0 Dec  7 19:25 /h
    ...
    /a:
    total 0
    -rw-r--r-- 1 root root  0 Dec  7 19:25 f
    drwxr-xr-x 2 root root 40 Dec  7 19:25 s
    ...
    /b:
    total 0
SCN
	)
	run "$NSTEST" run --backend=model "$scn"
	assert_success
	if [[ $(id -u) == 0 ]]; then
		run "$ISO" "$NSTEST" run "$scn"
		assert_success
	fi
	sed -i 's|^    /b:$|    /a:|' "$scn"
	run "$NSTEST" run --backend=model "$scn"
	assert_failure 1
}

# A filter reads a date as text: the model's files are as new as the
# listing, as the kernel's, made within the run, are.
@test "sessions-cmds: a filter that reads ls -l's month sees the same on both backends" {
	scn=$(write_scn month <<SCN
    # mkdir /a
    # ls -ld /a | awk '{print \$6}'
    $(date -u +%b)
SCN
	)
	run "$NSTEST" run --backend=model "$scn"
	assert_success
	if [[ $(id -u) == 0 ]]; then
		run "$ISO" "$NSTEST" run "$scn"
		assert_success
	fi
	sed -i 's/^    [A-Z][a-z][a-z]$/    Month/' "$scn"
	run "$NSTEST" run --backend=model "$scn"
	assert_failure 1
}

@test "sessions-cmds: readlink exits 1 for a FILE that is no link, as a list shows" {
	scn=$(write_scn readlink <<'SCN'
    # mkdir /a
    # ln -s /a /l
    # readlink /a || echo no link
    no link
    # readlink /l /a && echo all links
    /a
SCN
	)
	run "$NSTEST" run --backend=model "$scn"
	assert_success
	if [[ $(id -u) == 0 ]]; then
		run "$ISO" "$NSTEST" run "$scn"
		assert_success
	fi
	sed -i 's/^    no link$/    a link/' "$scn"
	run "$NSTEST" run --backend=model "$scn"
	assert_failure 1
}

@test "sessions-cmds: the parser names what it does not take" {
	scn=$(write_scn bad <<'SCN'
    # ls -lR /a
    # df -i
    # df --inodes
    # findmnt -I
SCN
	)
	run "$NSTEST" lint "$scn"
	assert_failure 2
	assert_output --partial "ls: unknown option -R"
	assert_output --partial "df: option -i is not supported (nstest knows -h, -k and -T)"
	assert_output --partial "df: unknown option --inodes"
	assert_output --partial "findmnt: option -I is findmnt's, but nstest does not support it"
}

@test "sessions-cmds: export --c refuses ls -l and df, naming why" {
	scn=$(write_scn lsl <<'SCN'
    # ls -l /
SCN
	)
	run "$NSTEST" export --c "$scn"
	assert_failure 2
	assert_output --partial "ls -l and ls -d are not exported: ls -l's sizes and dates are matched free"
	scn=$(write_scn df <<'SCN'
    # df /
SCN
	)
	run "$NSTEST" export --c "$scn"
	assert_failure 2
	assert_output --partial "df is not exported: its sizes are matched free"
}
