#!/usr/bin/env bats
# tests/bats/kernel-bisect.bats - ci/kernel-bisect (and ci/kernel-matrix,
# which shares its retry) on kernels that crash while booting, without
# booting any kernel: the real bisection over stand-ins.
#
# The seam: ci/kernels itself runs --offline over a cache of stand-in
# kernels (NSTEST_KERNELS, NSTEST_KERNEL_CACHE), so the versions and the
# fetches are the real ones; a stand-in for ci/vm-run (NSTEST_VM_RUN)
# boots nothing. A stand-in kernel's image holds what its boots do, a
# word a boot, the last word for every later boot: good, bad and cannot
# print what nstest run --bisect --format json printed on this machine
# for the scenario passing, failing and skipped (exit 0, 1 and 125, as
# vm-run hands nstest's status over); panic and fatal print what vm-run
# prints for a guest that panicked (the end of the console, then
# "vm-run: no verdict: ...") and exit 125. Real tests of both tools on
# real kernels are in tests/bats/vm/.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	nstest_setup
	FAKE=$BATS_TEST_TMPDIR/fake
	mkdir -p "$FAKE/cache"
	# What nstest says for the scenario when it passes, fails and cannot
	# run, all at the same path; it is left passing, for kernel-bisect's
	# nstest run --list.
	SCN=$SCN_DIR/s.scn
	write_scn s >/dev/null <<-'SCN'
	    # mkdir /a
	    # ls /
	    b
	SCN
	"$NSTEST" run --bisect --format json "$SCN" >"$FAKE/bad.json" && fail "the failing scenario passed"
	write_scn s >/dev/null <<-'SCN'
	kernel: >= 99.0

	    # mkdir /a
	SCN
	local s=0
	"$NSTEST" run --bisect --format json "$SCN" >"$FAKE/cannot.json" || s=$?
	((s == 125)) || fail "the skipped scenario is $s, not 125"
	write_scn s >/dev/null <<-'SCN'
	    # mkdir /a
	    # ls /
	    a
	SCN
	"$NSTEST" run --bisect --format json "$SCN" >"$FAKE/good.json" || fail "the passing scenario failed"

	cat >"$FAKE/kernels" <<-EOF
	#!/bin/bash
	exec "$NSTEST_ROOT/ci/kernels" --offline "\$@"
	EOF
	cat >"$FAKE/vm-run" <<-'EOF'
	#!/bin/bash
	# A stand-in for ci/vm-run, which boots nothing (see the top of
	# tests/bats/kernel-bisect.bats).
	image=
	while (($#)) && [[ $1 != -- ]]; do
		case $1 in
		--check-tools) exit 0 ;;
		--nstest) shift 2 ;;
		-*) shift ;;
		*) image=$1; shift ;;
		esac
	done
	shift
	[[ -r $image ]] || { echo "vm-run: no kernel image at $image" >&2; exit 2; }
	[[ $1 == run && " $* " == *" --format json "* ]] ||
		{ echo "vm-run stand-in: not a JSON run: $*" >&2; exit 2; }
	rel=$(basename "$(dirname "$image")")
	echo "$rel $*" >>"$FAKE_DIR/boots"
	n=$(grep -c "^$rel " "$FAKE_DIR/boots")
	read -ra plan <"$image"
	what=${plan[n - 1]:-${plan[-1]}}
	# VERDICT@OTHER: VERDICT once OTHER has begun to boot as well, which
	# only a bisect that boots both at once lets happen; else, after 30 s
	# (FAKE_WAIT tenths of a second), no verdict
	if [[ $what == *@* ]]; then
		other=${what#*@} what=${what%@*}
		for ((i = 0; i < ${FAKE_WAIT:-300}; i++)); do
			grep -q "^$other+" "$FAKE_DIR/boots" && break
			sleep 0.1
		done
		grep -q "^$other+" "$FAKE_DIR/boots" ||
			{ echo "vm-run stand-in: $other did not boot while $rel did" >&2; exit 2; }
	fi
	panicked() {
		echo "vm-run: the end of the guest console:"
		printf '    %s\n' "$@"
		echo "vm-run: no verdict: the guest stopped without a verdict: ${*: -1}"
	} >&2
	# a boot that takes a while, for the progress lines (FAKE_SLEEP seconds)
	sleep "${FAKE_SLEEP:-0}"
	case $what in
	good) cat "$FAKE_DIR/good.json"; exit 0 ;;
	bad) cat "$FAKE_DIR/bad.json"; exit 1 ;;
	cannot) cat "$FAKE_DIR/cannot.json"; exit 125 ;;
	panic)
		panicked "Run /init as init process" \
			"init[1]: segfault at 0 ip 0000000000401000 sp 00007ffc2a5e1f00 error 14" \
			"Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
		exit 125 ;;
	fatal)
		panicked "RIP: 0010:__kmalloc_noprof+0x1b5/0x3f0" \
			"Kernel panic - not syncing: Fatal exception in interrupt"
		exit 125 ;;
	esac
	echo "vm-run stand-in: '$what'?" >&2
	exit 2
	EOF
	chmod +x "$FAKE/kernels" "$FAKE/vm-run"
	export NSTEST_KERNELS=$FAKE/kernels NSTEST_KERNEL_CACHE=$FAKE/cache
	export NSTEST_VM_RUN=$FAKE/vm-run FAKE_DIR=$FAKE
	# no ci/__pycache__ left in the tree
	export PYTHONDONTWRITEBYTECODE=1
	: >"$FAKE/boots"
}

# kernel VERSION WHAT...: a stand-in kernel in the cache, as ci/kernels
# fetches one, whose boots do WHAT (see the top).
kernel() {
	local v=$1 rel=$1+deb13-cloud-amd64
	shift
	mkdir -p "$FAKE/cache/$rel"
	echo "$*" >"$FAKE/cache/$rel/vmlinuz-$rel"
	printf '%s\n' "version: $v" "debian-version: $v-1" "release: $rel" "suites: sid" \
		"package: linux-image-$rel" "modules-package: linux-image-$rel" "loop: absent" \
		>"$FAKE/cache/$rel/info"
}

# boots VERSION: how often it was booted
boots() { grep -c "^$1+" "$FAKE/boots"; }

# Eleven kernels, 9.1.0 to 9.1.10 (made-up versions); the scenario breaks
# in 9.1.4. The search tries 9.1.5, 9.1.4, 9.1.2, 9.1.1 and 9.1.3 in that
# order: 9.1.2 and 9.1.5 never boot, on either side of the change, and
# 9.1.3, the last good one, panics on its first boot only.
eleven() {
	kernel 9.1.0 good
	kernel 9.1.1 good
	kernel 9.1.2 panic
	kernel 9.1.3 fatal good
	kernel 9.1.4 bad
	kernel 9.1.5 "${1:-fatal}"
	local i
	for i in 6 7 8 9 10; do kernel 9.1.$i bad; done
}

@test "kernel-bisect: a boot without a verdict is booted again; a kernel that never gives one is skipped, named with its panic, and the answer is right around it" {
	eleven
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out" \
		--vm-opt=--accel=tcg 9.1.0 9.1.10 -- "$SCN"
	assert_success
	assert_line "last good: 9.1.3"
	assert_line "first bad: 9.1.4"
	# 9.1.3 panicked once, then gave its verdict
	[[ $(boots 9.1.3) == 2 ]] || fail "9.1.3 booted $(boots 9.1.3) times"
	assert_line "booted again after a boot without a verdict: 9.1.3 (1x)"
	[[ $stderr == *"9.1.3: no verdict (status 125): "*"Fatal exception in interrupt -- booting it again"* ]] ||
		fail "stderr: $stderr"
	[[ $stderr == *"kernel-bisect: 9.1.3: good"* ]] || fail "stderr: $stderr"
	# 9.1.2 and 9.1.5 panicked on both boots: skipped, with the console's panic
	[[ $(boots 9.1.2) == 2 && $(boots 9.1.5) == 2 ]] ||
		fail "9.1.2 booted $(boots 9.1.2) times, 9.1.5 $(boots 9.1.5)"
	assert_line "skipped (neither good nor bad, as git bisect skips on 125):"
	assert_line "  9.1.2: crashed, no verdict in 2 boots: the guest stopped without a verdict: Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
	assert_line "  9.1.5: crashed, no verdict in 2 boots: the guest stopped without a verdict: Kernel panic - not syncing: Fatal exception in interrupt"
	# the kernels judged, each once, and the diff of the two around the change
	for v in 9.1.0 9.1.10 9.1.4 9.1.1; do
		[[ $(boots "$v") == 1 ]] || fail "$v booted $(boots "$v") times"
	done
	assert_line "=== $SCN"
	assert_line "    -result: pass"
	assert_line "    +result: fail"
	# every boot was the JSON run of nstest run --bisect, with the --vm-opt
	refute grep -v -F " run --bisect --format json $SCN" "$FAKE/boots"
	# the failed boots' files are kept beside the one that counted
	[[ -s $BATS_TEST_TMPDIR/out/9.1.3.boot2.json && -s $BATS_TEST_TMPDIR/out/9.1.3.stderr ]] ||
		fail "$(ls "$BATS_TEST_TMPDIR/out")"
	grep -q "Fatal exception in interrupt" "$BATS_TEST_TMPDIR/out/9.1.3.stderr"
}

@test "kernel-bisect: what nstest cannot judge is skipped as nstest's, booted once, and not called a crash" {
	eleven cannot
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out" 9.1.0 9.1.10 -- "$SCN"
	assert_success
	assert_line "first bad: 9.1.4"
	[[ $(boots 9.1.5) == 1 ]] || fail "9.1.5 booted $(boots 9.1.5) times"
	assert_line "  9.1.5: nstest cannot judge it: $SCN skipped (needs kernel >= 99.0.0, this is $(uname -r))"
	assert_line --partial "  9.1.2: crashed, no verdict in 2 boots: "
	refute_output --partial "9.1.5: crashed"
	[[ $stderr != *"9.1.5: no verdict"* ]] || fail "stderr: $stderr"
}

@test "kernel-bisect: --retries 0 boots once, so the flaky kernel is skipped too and nothing is decided (125)" {
	eleven
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out" --retries 0 \
		9.1.0 9.1.10 -- "$SCN"
	assert_failure 125
	assert_line "cannot decide: the first bad kernel is one of 9.1.2, 9.1.3, 9.1.4; 9.1.2, 9.1.3 could not be judged"
	assert_line "  9.1.3: crashed, no verdict in 1 boot: the guest stopped without a verdict: Kernel panic - not syncing: Fatal exception in interrupt"
	[[ $(boots 9.1.3) == 1 && $(boots 9.1.2) == 1 ]] || fail "$(cat "$FAKE/boots")"
	refute_output --partial "booted again"
}

@test "kernel-bisect: when the only candidate crashes, the answer is 125 and names it with its panic" {
	kernel 9.1.0 good
	kernel 9.1.1 panic
	kernel 9.1.2 bad
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out" --retries 2 \
		9.1.0 9.1.2 -- "$SCN"
	assert_failure 125
	assert_line "cannot decide: the first bad kernel is one of 9.1.1, 9.1.2; 9.1.1 could not be judged"
	assert_line "  9.1.1: crashed, no verdict in 3 boots: the guest stopped without a verdict: Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
	[[ $(boots 9.1.1) == 3 ]] || fail "9.1.1 booted $(boots 9.1.1) times"
	refute_line --partial "first bad:"
}

@test "kernel-bisect: an end that crashes on every boot is 125, and nothing else is booted" {
	kernel 9.1.0 panic
	kernel 9.1.1 good
	kernel 9.1.2 bad
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out" 9.1.0 9.1.2 -- "$SCN"
	assert_failure 125
	assert_line "cannot decide: 9.1.0 (given as good) cannot be judged, so none of the 3 kernels from 9.1.0 to 9.1.2 was bisected"
	assert_line "  9.1.0: crashed, no verdict in 2 boots: the guest stopped without a verdict: Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
	[[ $(boots 9.1.0) == 2 && $(boots 9.1.1) == 0 ]] || fail "$(cat "$FAKE/boots")"
	# a wrong end is said even when the other one crashed
	kernel 9.1.2 good
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out2" 9.1.0 9.1.2 -- "$SCN"
	assert_failure 1
	[[ $stderr == *"9.1.2, given as bad, is good on these scenarios: nothing to bisect"* ]] ||
		fail "stderr: $stderr"
}

@test "kernel-bisect: --retries takes 0 or more" {
	kernel 9.1.0 good
	kernel 9.1.2 bad
	run "$NSTEST_ROOT/ci/kernel-bisect" --retries -1 9.1.0 9.1.2 -- "$SCN"
	assert_failure 2
	assert_output --partial "--retries: 0 or more, not -1"
	run "$NSTEST_ROOT/ci/kernel-bisect" --retries x 9.1.0 9.1.2 -- "$SCN"
	assert_failure 2
	for j in 0 -1 x; do
		run "$NSTEST_ROOT/ci/kernel-bisect" -j "$j" 9.1.0 9.1.2 -- "$SCN"
		assert_failure 2
	done
	assert_output --partial "error: argument -j/--jobs: invalid int value: 'x'"
	run "$NSTEST_ROOT/ci/kernel-bisect" -j 0 9.1.0 9.1.2 -- "$SCN"
	assert_output --partial "-j: a number of kernels at once, 1 or more, not 0"
	[[ ! -s $FAKE/boots ]] || fail "booted: $(cat "$FAKE/boots")"
}

# Twenty-eight kernels, 9.2.0 to 9.2.27; the scenario breaks in 9.2.20.
# Each end gives its verdict only once the other has begun to boot too.
twenty_eight() {
	local i
	for ((i = 1; i < 27; i++)); do
		kernel 9.2.$i "$( ((i < 20)) && echo good || echo bad)"
	done
	kernel 9.2.0 good@9.2.27
	kernel 9.2.27 bad@9.2.0
}

@test "kernel-bisect -j 2: both ends boot at once, then two kernels a step, each step cutting what is left in three" {
	twenty_eight
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -j 2 -o "$BATS_TEST_TMPDIR/out" 9.2.0 9.2.27 -- "$SCN"
	assert_success
	assert_line "last good: 9.2.19"
	assert_line "first bad: 9.2.20"
	assert_line "(8 kernels booted, of 28 from 9.2.0 to 9.2.27)"
	# 9 and 18 split 1..26 in three; both good, so 21 and 24 split 19..26;
	# 21 is bad, so 19 and 20 are what is left
	local tried
	tried=$(grep -o 'trying .*' <<<"$stderr")
	assert_equal "$tried" "trying 9.2.9 and 9.2.18
trying 9.2.21 and 9.2.24
trying 9.2.19 and 9.2.20"
	[[ $stderr == *"26 kernels left to judge, about 3 steps: trying 9.2.9 and 9.2.18"* ]] || fail "$stderr"
	[[ $(wc -l <"$FAKE/boots") == 8 ]] || fail "boots: $(cat "$FAKE/boots")"
}

@test "kernel-bisect -j 1 finds the same change one kernel at a time; its ends, which wait for each other, cannot be judged" {
	twenty_eight
	kernel 9.2.0 good
	kernel 9.2.27 bad
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out" 9.2.0 9.2.27 -- "$SCN"
	assert_success
	assert_line "last good: 9.2.19"
	assert_line "first bad: 9.2.20"
	assert_line "(7 kernels booted, of 28 from 9.2.0 to 9.2.27)"
	[[ $stderr == *"26 kernels left to judge, about 5 steps: trying 9.2.13"$'\n'* ]] || fail "$stderr"
	# the stand-in that waits works: one at a time, it waits in vain
	# (for 1 s here, not 30)
	: >"$FAKE/boots"
	kernel 9.2.0 good@9.2.27
	FAKE_WAIT=10 run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" -o "$BATS_TEST_TMPDIR/out2" 9.2.0 9.2.27 -- "$SCN"
	assert_failure 125
	assert_line --partial "cannot decide: 9.2.0 (given as good) cannot be judged"
}

@test "kernel-matrix: boots a kernel again after a panic, as kernel-bisect does, and a kernel that never boots has no verdict (125)" {
	kernel 9.1.2 panic
	kernel 9.1.3 fatal good
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-matrix" --no-host --no-junit -o "$BATS_TEST_TMPDIR/out" \
		--debian 9.1.2,9.1.3 -s "$SCN"
	assert_failure 125
	[[ $(boots 9.1.3) == 2 && $(boots 9.1.2) == 2 ]] || fail "$(cat "$FAKE/boots")"
	assert_line "booted again after a boot without a verdict: 9.1.3 (1x)"
	assert_line --regexp "^$SCN +- +pass$"
	[[ $stderr == *"9.1.2"*"Attempted to kill init"*"-- booting it again"* ]] || fail "stderr: $stderr"
	# the folder's *.json, as the workflows give them to merge-reports:
	# the run's matrix.json is among them and is passed over
	[[ -f $BATS_TEST_TMPDIR/out/matrix.json ]] || fail "no matrix.json: $(ls "$BATS_TEST_TMPDIR/out")"
	# 9.1.2 never gave a verdict: what it printed is kept, not as a report
	ls "$BATS_TEST_TMPDIR"/out/00-9.1.2*.no-verdict.out >/dev/null || fail "$(ls "$BATS_TEST_TMPDIR/out")"
	run --separate-stderr "$NSTEST_ROOT/ci/merge-reports" "$BATS_TEST_TMPDIR"/out/*.json
	assert_success || fail "stderr: $stderr"
	assert_equal "$stderr" ""
	assert_line --regexp "^$SCN +pass$"
	assert_line "1 scenario on 1 kernel: 1 pass, 0 fail, 0 skip, 0 xfail, 0 xpass"
}

# ---- a machine that cannot boot kernels (issue 28) ---------------------------
#
# No qemu (or no cpio) is a set-up error: status 2, named once with the
# command that installs it, before anything is fetched or booted. Before,
# each kernel was "no verdict (status 125)" and booted again, and a bisect
# skipped every kernel. The real ci/vm-run here, under a PATH without qemu
# and cpio (path_without, helpers.bash); nothing boots.

@test "vm-run: no qemu or cpio on PATH is a set-up error (2), not 'no verdict' (125)" {
	local nq
	nq=$(path_without 'qemu-*' cpio)
	: >"$BATS_TEST_TMPDIR/bzImage"
	run --separate-stderr env PATH="$nq" "$NSTEST_ROOT/ci/vm-run" "$BATS_TEST_TMPDIR/bzImage" -- run "$SCN"
	assert_failure 2
	assert_equal "$stderr" "vm-run: error: not found on PATH: qemu-system-x86_64 cpio; no kernel can boot here: install with ci/install-deps --vm"
	run --separate-stderr env PATH="$nq" "$NSTEST_ROOT/ci/vm-run" --check-tools
	assert_failure 2
	assert_equal "$stderr" "vm-run: error: not found on PATH: qemu-system-x86_64 cpio; no kernel can boot here: install with ci/install-deps --vm"
}

# The initramfs cannot be built (here: no compiler for its init, with an
# empty cache of compiled inits): also this machine's trouble, not the
# kernel's. A qemu that is never run stands in for the real one.
@test "vm-run: an initramfs that cannot be built is a set-up error (2)" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "stand-in qemu: must not run" >&2\nexit 99\n' >"$BATS_TEST_TMPDIR/bin/qemu-stand-in"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-stand-in"
	: >"$BATS_TEST_TMPDIR/bzImage"
	command -v cpio >/dev/null || skip "cpio is not installed"
	run --separate-stderr env QEMU="$BATS_TEST_TMPDIR/bin/qemu-stand-in" CC=false \
		NSTEST_VM_CACHE="$BATS_TEST_TMPDIR/vm-cache" \
		"$NSTEST_ROOT/ci/vm-run" --modules none "$BATS_TEST_TMPDIR/bzImage" -- run "$SCN"
	assert_failure 2
	[[ $stderr == *"vm-run: error: could not build the initramfs (see above): no kernel can boot here"* ]] ||
		fail "stderr: $stderr"
	[[ $stderr != *"must not run"* && $stderr != *"no verdict"* ]] || fail "stderr: $stderr"
}

@test "kernel-matrix: no qemu on PATH is a set-up error (2), named once, nothing booted again" {
	local nq
	nq=$(path_without 'qemu-*' cpio)
	: >"$BATS_TEST_TMPDIR/bzImage-a"
	: >"$BATS_TEST_TMPDIR/bzImage-b"
	run --separate-stderr env -u NSTEST_VM_RUN PATH="$nq" "$NSTEST_ROOT/ci/kernel-matrix" --no-host --no-junit \
		-o "$BATS_TEST_TMPDIR/out" -s "$SCN" "$BATS_TEST_TMPDIR/bzImage-a" "$BATS_TEST_TMPDIR/bzImage-b"
	assert_failure 2
	assert_equal "$stderr" "kernel-matrix: vm-run: error: not found on PATH: qemu-system-x86_64 cpio; no kernel can boot here: install with ci/install-deps --vm"
}

@test "kernel-bisect: no qemu on PATH is a set-up error (2) before any kernel is fetched" {
	local nq
	nq=$(path_without 'qemu-*' cpio)
	kernel 9.1.2 good
	kernel 9.1.3 bad
	run --separate-stderr env -u NSTEST_VM_RUN PATH="$nq" "$NSTEST_ROOT/ci/kernel-bisect" \
		-o "$BATS_TEST_TMPDIR/out" 9.1.2 9.1.3 -- "$SCN"
	assert_failure 2
	assert_equal "$stderr" "kernel-bisect: vm-run: error: not found on PATH: qemu-system-x86_64 cpio; no kernel can boot here: install with ci/install-deps --vm"
	[[ ! -s $FAKE/boots ]] || fail "booted: $(cat "$FAKE/boots")"
}

# ---- progress and --help (issue 30) -------------------------------------------

@test "kernel-matrix: says kernel K of N at each start, K of N done at each end, and a line while a kernel boots" {
	kernel 9.1.2 good
	kernel 9.1.3 good
	NSTEST_PROGRESS_INTERVAL=0.2 FAKE_SLEEP=1.5 run --separate-stderr "$NSTEST_ROOT/ci/kernel-matrix" \
		--no-host --no-junit -o "$BATS_TEST_TMPDIR/out" --debian 9.1.2,9.1.3 -s "$SCN"
	assert_success
	[[ $stderr == *"kernel-matrix: 9.1.2: running $SCN in a VM ("*") (kernel 1 of 2)"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"kernel-matrix: 9.1.3: running $SCN in a VM ("*") (kernel 2 of 2)"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"kernel-matrix: 9.1.2: done in "*"s (1 of 2 kernels done)"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"kernel-matrix: 9.1.3: done in "*"s (2 of 2 kernels done)"* ]] || fail "stderr: $stderr"
	# while 9.1.2 boots, and while 9.1.3 does, with the time left once one is done
	[[ $stderr == *"kernel-matrix: 0 of 2 kernels done, "*" s elapsed; running: 9.1.2 ("*" s)"* ]] ||
		fail "no progress line during the first boot: $stderr"
	[[ $stderr == *"kernel-matrix: 1 of 2 kernels done, "*" s elapsed, about "*" left; running: 9.1.3 ("*" s)"* ]] ||
		fail "no progress line during the second boot: $stderr"
	# nothing of it in the matrix on stdout
	[[ $output != *"kernels done"* ]] || fail "progress on stdout: $output"
}

@test "kernel-matrix: NSTEST_PROGRESS_INTERVAL=0 keeps only the lines at each start and end" {
	kernel 9.1.2 good
	NSTEST_PROGRESS_INTERVAL=0 FAKE_SLEEP=0.5 run --separate-stderr "$NSTEST_ROOT/ci/kernel-matrix" \
		--no-host --no-junit -o "$BATS_TEST_TMPDIR/out" --debian 9.1.2 -s "$SCN"
	assert_success
	[[ $stderr == *"(kernel 1 of 1)"* && $stderr == *"(1 of 1 kernels done)"* ]] || fail "stderr: $stderr"
	[[ $stderr != *"elapsed"* ]] || fail "stderr: $stderr"
}

@test "kernel-bisect and kernel-matrix --help: the whole text, every option, exit statuses, an example; status 0" {
	local s opt
	for s in kernel-bisect kernel-matrix; do
		run --separate-stderr "$NSTEST_ROOT/ci/$s" --help
		assert_success
		assert_equal "$stderr" ""
		assert_line --partial "Exit status:"
		assert_line --regexp "^Examples?:"
		assert_line --regexp "^    ci/$s "
		# every option the parser knows is described
		for opt in $(grep -o 'add_argument("[^"]*"\(, "--[a-z-]*"\)\?' "$NSTEST_ROOT/ci/$s" | grep -o -- '--[a-z-]*'); do
			[[ $output == *"  $opt"* || $output == *", $opt"* ]] || fail "$s --help does not describe $opt"
		done
	done
	run "$NSTEST_ROOT/ci/kernel-bisect" --help
	assert_line --index 2 "    ci/kernel-bisect [options] GOOD BAD -- SCENARIO... [NSTEST_RUN_OPTIONS]"
	# a usage error shows the usage with the scenarios it needs
	run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" 9.1.2
	assert_failure 2
	[[ $stderr == "usage: ci/kernel-bisect [options] GOOD BAD -- SCENARIO... [NSTEST_RUN_OPTIONS]"* ]] ||
		fail "stderr: $stderr"
}

# vm-run while the VM runs: a qemu stand-in that writes what the guest's
# init writes to the console, pausing between, and answers verdict 0.
@test "vm-run: says on stderr what the VM is doing (booting, init, nstest) while it runs" {
	command -v cpio >/dev/null || skip "cpio is not installed"
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/qemu-stand-in" <<-'EOF'
	#!/bin/bash
	console=
	while (($#)); do
		[[ $1 == -chardev && $2 == file,id=console,path=* ]] && console=${2#file,id=console,path=}
		shift
	done
	sleep 0.3
	printf 'vm-init: started\r\n' >>"$console"
	sleep 0.3
	printf 'vm-init: running nstest\r\n' >>"$console"
	sleep 0.3
	echo "stand-in report"
	exit 33
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-stand-in"
	: >"$BATS_TEST_TMPDIR/bzImage"
	NSTEST_PROGRESS_INTERVAL=0 run --separate-stderr env QEMU="$BATS_TEST_TMPDIR/bin/qemu-stand-in" \
		NSTEST_VM_CACHE="$BATS_TEST_TMPDIR/vm-cache" \
		"$NSTEST_ROOT/ci/vm-run" --accel tcg --modules none "$BATS_TEST_TMPDIR/bzImage" -- run "$SCN"
	assert_success
	assert_output "stand-in report"
	[[ $stderr == *"vm-run: bzImage under tcg: booting the kernel, "*" s elapsed (timeout 600 s)"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"vm-run: bzImage under tcg: init started, "* ]] || fail "stderr: $stderr"
	[[ $stderr == *"vm-run: bzImage under tcg: nstest running, "* ]] || fail "stderr: $stderr"
}

@test "kernel-bisect: says while a kernel boots that it still does" {
	kernel 9.1.2 good
	kernel 9.1.3 bad
	NSTEST_PROGRESS_INTERVAL=0.2 FAKE_SLEEP=1 run --separate-stderr "$NSTEST_ROOT/ci/kernel-bisect" \
		-o "$BATS_TEST_TMPDIR/out" 9.1.2 9.1.3 -- "$SCN"
	assert_success
	[[ $stderr == *"kernel-bisect: 9.1.2: boot 1 running, "*" s elapsed"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"kernel-bisect: 9.1.3: boot 1 running, "*" s elapsed"* ]] || fail "stderr: $stderr"
}
