#!/usr/bin/env bats
# tests/bats/fuzz.bats - `nstest fuzz`, the differential fuzzer: its
# errors, the kernel against itself (which must find nothing), the
# determinism of --seed, SIGINT, the host left alone, the sides taken from
# the backend table, and a planted model bug found, shrunk and written as
# a scenario that passes on the model and fails on the kernel.

load helpers
bats_require_minimum_version 1.5.0

# ---- errors: one line naming the problem, exit 2 --------------------------

@test "fuzz: bad option values exit 2 naming the option" {
	local args
	for args in "--seed x" "--count 0" "--count -3" "--steps 0" "--steps ten" \
		"-j 0" "-j 257" "--terminals 0" "--terminals 17" "--time 0" \
		"--quirk Bad!" "--quirks all" "--vs nothing" "--shrink x" "--shrink -1"; do
		# shellcheck disable=SC2086
		run "$NSTEST" fuzz $args --out "$BATS_TEST_TMPDIR/out"
		assert_failure 2
		assert_output --partial "nstest fuzz: ${args%% *}"
		[[ ${#lines[@]} == 1 ]] || fail "more than one line for $args: $output"
	done
}

@test "fuzz: --time and --count together, an unknown option, a stray argument" {
	run "$NSTEST" fuzz --time 5 --count 10
	assert_failure 2
	assert_output --partial "--time and --count exclude each other"
	run "$NSTEST" fuzz --frobnicate
	assert_failure 2
	assert_output --partial "unknown option '--frobnicate'"
	run "$NSTEST" fuzz stray
	assert_failure 2
	assert_output --partial "unexpected argument 'stray'"
}

@test "fuzz: an --out that is a file, or cannot be written in, exits 2 before any run" {
	touch "$BATS_TEST_TMPDIR/file"
	run "$NSTEST" fuzz --vs kernel --count 5 --out "$BATS_TEST_TMPDIR/file"
	assert_failure 2
	assert_output --partial "--out $BATS_TEST_TMPDIR/file: not a folder"
	refute_output --partial "scenarios in"
	run "$NSTEST" fuzz --vs kernel --count 5 --out /proc/1
	assert_failure 2
	assert_output --partial "--out /proc/1: cannot write in the folder"
	run "$NSTEST" fuzz --vs kernel --count 5 --out "$BATS_TEST_TMPDIR/no/such/dir"
	assert_failure 2
	assert_output --partial "cannot create the folder"
}

@test "fuzz: --vs-kernel with an image that is missing exits 2" {
	run "$NSTEST" fuzz --vs-kernel "$BATS_TEST_TMPDIR/bzImage" --count 5 --out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	assert_output --partial "--vs-kernel $BATS_TEST_TMPDIR/bzImage: cannot read the kernel image"
}

@test "fuzz: the sides come from the backend table, by name and by role" {
	# by default the reference (the kernel) against the model
	run "$NSTEST" fuzz --count 3 --out "$BATS_TEST_TMPDIR/out"
	[[ $status == 0 || $status == 1 ]] || fail "status $status: $output"
	assert_output --partial ", kernel vs model, seed 1"
	# any backend that can be a side, named; the model alone plays here
	run "$NSTEST" fuzz --first model --vs model --count 20 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_output --partial "fuzz: 20 scenarios in"
	assert_output --partial ", model vs model, seed 1"
	# a name the table does not have lists the ones it has
	run "$NSTEST" fuzz --first nothing --out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	assert_output --partial "nstest fuzz: --first nothing: no such backend (sides: kernel, model)"
	# quirks need a side that has them
	run "$NSTEST" fuzz --vs kernel --quirks=kernel --count 3 --out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	assert_output --partial "--quirk and --quirks need a side with quirks"
}

@test "fuzz: a side there is no backend for (--vs, --first) exits 2 naming it and a real side, before any run" {
	local args word
	for args in "--vs nothing" "--vs Model" "--first nothing"; do
		word=${args#* }
		# shellcheck disable=SC2086
		run "$NSTEST" fuzz $args --count 5 --out "$BATS_TEST_TMPDIR/out"
		assert_failure 2
		[[ ${#lines[@]} == 1 ]] || fail "more than one line for $args: $output"
		refute_output --partial "scenarios in"
		[[ ! -e $BATS_TEST_TMPDIR/out ]] || fail "$args: --out was created before the sides were known"
		assert_output --regexp "^nstest fuzz: ${args%% *} $word: no such backend"
		# besides the wrong word, the message names the sides that exist
		assert_output --partial "(sides: kernel, model"
	done
}

@test "fuzz: --help lists the options" {
	run "$NSTEST" fuzz --help
	assert_success
	assert_output --partial "--vs-kernel IMAGE"
	assert_output --partial "--quirk NAME"
	run "$NSTEST" --help
	assert_output --partial "nstest fuzz"
}

# ---- the generator --------------------------------------------------------

@test "fuzz: the same seed gives byte-identical scenarios, another seed others" {
	run "$NSTEST" fuzz --print-scenarios --seed 9 --count 50 --steps 12 --terminals 4
	assert_success
	local first=$output
	run "$NSTEST" fuzz --print-scenarios --seed 9 --count 50 --steps 12 --terminals 4
	[[ $output == "$first" ]] || fail "two runs with --seed 9 differ"
	run "$NSTEST" fuzz --print-scenarios --seed 10 --count 50 --steps 12 --terminals 4
	[[ $output != "$first" ]] || fail "--seed 10 gave the scenarios of --seed 9"
	[[ $first == *"sh4# "* ]] || fail "no fourth terminal in 50 scenarios"
}

@test "fuzz: the printed scenarios are scenario files nstest lint accepts" {
	"$NSTEST" fuzz --print-scenarios --seed 3 --count 20 |
		awk -v dir="$BATS_TEST_TMPDIR" '/^title: / { n++ } { print > (dir "/s" n ".scn") }'
	run "$NSTEST" lint "$BATS_TEST_TMPDIR"
	assert_success
}

# ---- the kernel against itself -------------------------------------------

@test "fuzz: the kernel against itself finds nothing in 200 scenarios, and the host is left alone" {
	run "$NSTEST_ROOT/tests/isolation-check" "$NSTEST" fuzz --vs kernel --count 200 -j 2 \
		--out "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_output --partial "fuzz: 200 scenarios in"
	assert_output --partial "fuzz: 0 findings, 0 signatures"
	run ls -A "$BATS_TEST_TMPDIR/out"
	assert_output ""
}

@test "fuzz: off a terminal, progress lines on stderr say k of N; stdout has the summary only" {
	NSTEST_PROGRESS_INTERVAL=0 run --separate-stderr "$NSTEST" fuzz --vs kernel --count 40 \
		--batch 20 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	[[ $stderr == *"nstest fuzz: 20 of 40 scenarios done, "*"/s, 0 findings (0 signatures), "*" elapsed, about "*" left"* ]] ||
		fail "no progress line: $stderr"
	[[ $stderr == *"nstest fuzz: 40 of 40 scenarios done"* ]] || fail "no last line: $stderr"
	[[ $output != *"of 40 scenarios done"* ]] || fail "progress on stdout: $output"
	assert_line --partial "fuzz: 40 scenarios in"
}

@test "fuzz: --time S off a terminal says the time left" {
	NSTEST_PROGRESS_INTERVAL=0 run --separate-stderr "$NSTEST" fuzz --vs kernel --time 1 \
		--batch 10 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	[[ $stderr == *"nstest fuzz: "*" scenarios, "*" elapsed, about "*" left"* ]] ||
		fail "no progress line: $stderr"
}

@test "fuzz: SIGINT ends the run after the batch under way, with the summary" {
	"$NSTEST" fuzz --vs kernel --time 60 --out "$BATS_TEST_TMPDIR/out" \
		>"$BATS_TEST_TMPDIR/stdout" 2>"$BATS_TEST_TMPDIR/stderr" &
	local pid=$! status=0
	sleep 2
	kill -INT "$pid"
	wait "$pid" || status=$?
	[[ $status == 130 ]] || fail "exit status $status, not 130: $(cat "$BATS_TEST_TMPDIR/stderr")"
	run cat "$BATS_TEST_TMPDIR/stdout"
	assert_output --regexp "fuzz: [1-9][0-9]* scenarios in .*, interrupted"
	assert_output --partial "fuzz: 0 findings"
}

# ---- a planted model bug -------------------------------------------------

@test "fuzz: the kernel against the model, 200 scenarios (findings are the model's to fix)" {
	run "$NSTEST_ROOT/tests/isolation-check" "$NSTEST" fuzz --count 200 -j 2 --out "$BATS_TEST_TMPDIR/out"
	[[ $status == 0 || $status == 1 ]] || fail "status $status: $output"
	assert_output --partial "fuzz: 200 scenarios in"
	local f
	for f in "$BATS_TEST_TMPDIR"/out/*.scn; do
		[[ -e $f ]] || continue
		run "$NSTEST" run --backend=model "$f"
		assert_success
		run "$NSTEST" run "$f"
		assert_failure 1
	done
}

# ---- tests/fuzz-smoke: findings, known model gaps and new ones -------------

# A stand-in for nstest fuzz that writes the findings given in FINDINGS
# (one cause a line) and exits 1, as a run with findings does.
fake_fuzz() {
	cat >"$BATS_TEST_TMPDIR/fake" <<'FAKE'
#!/bin/bash
while (($#)); do [[ $1 == --out ]] && out=$2; shift; done
mkdir -p "$out"
n=0
while IFS= read -r cause; do
	n=$((n + 1))
	printf 'title: fuzz finding\n\nCause: %s.\n\n    sh1# mkdir /a\n' "$cause" >"$out/fuzz-1-$n.scn"
done <"$FINDINGS"
echo "fuzz: $n findings"
exit 1
FAKE
	chmod +x "$BATS_TEST_TMPDIR/fake"
	printf '# a comment\nunexplained: a known kind, after *\tthe known gap, explained\n' >"$BATS_TEST_TMPDIR/gaps"
}

@test "fuzz-smoke: findings whose cause is a listed model gap pass, and are named" {
	fake_fuzz
	printf '%s\n' 'unexplained: a known kind, after `mount --bind`' 'unexplained: a known kind, after `umount`' \
		>"$BATS_TEST_TMPDIR/findings"
	FINDINGS=$BATS_TEST_TMPDIR/findings FUZZ_KNOWN_GAPS=$BATS_TEST_TMPDIR/gaps \
		run "$NSTEST_ROOT/tests/fuzz-smoke" "$BATS_TEST_TMPDIR/fake"
	assert_success
	assert_output --partial "fuzz-smoke: known model gap: fuzz-1-1.scn: unexplained: a known kind, after \`mount --bind\`"
	assert_output --partial "fuzz-smoke: the known gap: the known gap, explained"
	assert_output --partial "2 findings are known model gaps"
}

@test "fuzz-smoke: a finding no listed gap explains fails it, with its file" {
	fake_fuzz
	printf '%s\n' 'unexplained: a known kind, after `mount`' 'unexplained: mount: errno 0 vs EINVAL, after `mount`' \
		'quirk umount-shifts-stacks turned off' >"$BATS_TEST_TMPDIR/findings"
	FINDINGS=$BATS_TEST_TMPDIR/findings FUZZ_KNOWN_GAPS=$BATS_TEST_TMPDIR/gaps \
		run "$NSTEST_ROOT/tests/fuzz-smoke" "$BATS_TEST_TMPDIR/fake"
	assert_failure 1
	assert_output --partial "fuzz-smoke: FAIL: 2 findings that no known quirk or known model gap explains"
	assert_output --partial "Cause: unexplained: mount: errno 0 vs EINVAL"
	assert_output --partial "Cause: quirk umount-shifts-stacks turned off"
}

@test "fuzz-smoke: every listed gap names what is known of it" {
	local line n=0
	while IFS= read -r line; do
		[[ -z $line || $line == '#'* ]] && continue
		n=$((n + 1))
		[[ $line == *$'\t'?* ]] || fail "a gap without an explanation: $line"
		[[ ${line%%$'\t'*} == unexplained:* ]] || fail "a gap must be an unexplained cause, not a quirk: $line"
	done <"$NSTEST_ROOT/tests/fuzz-known-gaps"
	((n > 0)) || skip "no gap is listed"
}

# ---- planted bugs, each found within the smoke run's seed -------------------

# found_within COUNT ENV... -- FUZZ-OPTIONS...: nstest fuzz on the first
# COUNT scenarios of the smoke run's seed (tests/fuzz-smoke), with the
# environment ENV (NSTEST_MODEL_BREAK=..., NSTEST_MODEL_QUIRKS=...), finds
# at least one divergence that no listed model gap explains; each such
# finding is shrunk to at most 6 operations and written as a file that
# the planted model passes and the kernel fails. A quirk planted with
# FUZZ-OPTIONS (--quirk NAME, over --quirks=kernel) is planted in that
# replay too.
found_within() {
	local count=$1 out=$BATS_TEST_TMPDIR/out f cause ops n=0
	local -a env=() planted=()
	shift
	while [[ $1 != -- ]]; do env+=("$1"); shift; done
	shift
	local -a opts=("$@")
	for ((f = 0; f < ${#opts[@]}; f++)); do
		[[ ${opts[f]} == --quirk ]] && planted+=(--quirk "${opts[f + 1]}")
	done
	run env "${env[@]}" "$NSTEST" fuzz --seed 20261203 --count "$count" -j 2 --quirks=kernel --out "$out" "$@"
	assert_failure 1
	for f in "$out"/*.scn; do
		cause=$(sed -n 's/^Cause: \(.*\)\.$/\1/p' "$f")
		known_gap "$cause" && continue
		n=$((n + 1))
		ops=$(grep -E '^    sh[0-9]+# ' "$f" | grep -vc '# cat /proc/self/mountinfo$')
		((ops <= ${MAX_OPS:-6})) || fail "${f##*/} ($cause): $ops operations, more than ${MAX_OPS:-6}"
		run env "${env[@]}" "$NSTEST" run --backend=model "${planted[@]}" "$f"
		assert_success
		run "$NSTEST" run "$f"
		assert_failure 1
	done
	((n > 0)) || fail "nothing but known gaps in $count scenarios"
}

# Is this cause one tests/fuzz-known-gaps lists?
known_gap() {
	local pattern why
	while IFS=$'\t' read -r pattern why; do
		[[ -z $pattern || $pattern == '#'* ]] && continue
		# shellcheck disable=SC2053
		[[ $1 == $pattern ]] && return 0
	done <"$NSTEST_ROOT/tests/fuzz-known-gaps"
	return 1
}

# The first scenario of the smoke seed that finds each, measured on 6.18
# (the counts leave a few scenarios to spare): the generator decides them,
# so a change of the generator may move them.

@test "fuzz: a model whose slaves receive nothing is found within the smoke seed, shrunk, written" {
	found_within 50 NSTEST_MODEL_BREAK=slaves-receive-nothing --
}

@test "fuzz: a model that does not lock what a less privileged namespace receives is found" {
	found_within 20 NSTEST_MODEL_BREAK=userns-receipt-unlocked --
}

@test "fuzz: a model whose remounts ignore locked flags is found" {
	found_within 3300 NSTEST_MODEL_BREAK=remount-ignores-locks --
}

@test "fuzz: a model whose --set-group keeps a mount unbindable is found" {
	found_within 850 NSTEST_MODEL_BREAK=set-group-keeps-unbindable --
}

@test "fuzz: a model that finds no propagated copy busy is found, in 7 operations" {
	# a case whose copy is held through a file needs a directory, a
	# shared /, a second namespace, a mount, a file, the file held and
	# the umount: seven. One whose copy is in use through cd takes six
	# (the one found first since the generator's stream moved: a bind's
	# copy, the shell's directory in it, umount -R -f of the original),
	# but the shrinker only drops and renames operations, so it cannot
	# turn a held file into a cd: seven stays the bound
	MAX_OPS=7 found_within 2900 NSTEST_MODEL_BREAK=busy-candidate-not-ebusy --
}

@test "fuzz: the model with 6.1-6.16's umount-shifts-stacks is found on 6.17 and later, in 7 operations" {
	# the quirk planted on top of --quirks=kernel; a kernel that has it
	# agrees with the planted model, so there is nothing to find
	local rel
	rel=$(uname -r | grep -o '^[0-9]*\.[0-9]*')
	[[ $(printf '%s\n' "$rel" 6.17 | sort -V | head -n 1) == 6.17 ]] ||
		skip "Linux $rel has umount-shifts-stacks"
	# The generator builds the structure (gen.c, add_stack). The smallest
	# case is 7 operations: the directories, a shared /, a slave copy of
	# the namespace, T (a bind), C inside T, D stacked on C's slave copy,
	# umount -l T. Each is needed: no copy T2 without a shared / and a
	# receiver; with a peer receiver D propagates back onto C and goes
	# with it, so a slave copy or a copy made private is needed. Built on
	# a bind or on a peer namespace, the case needs the make-private as
	# an 8th, and the shrinker only drops and renames operations; the
	# case the smoke seed finds first is built on a slave copy: seven.
	MAX_OPS=7 found_within 55 -- --quirk umount-shifts-stacks
}

@test "fuzz: --shrink 0 writes each finding as it was generated, and says so" {
	local out=$BATS_TEST_TMPDIR/out f
	NSTEST_MODEL_BREAK=slaves-receive-nothing run "$NSTEST" fuzz --seed 20261203 --count 60 -j 2 \
		--quirks=kernel --shrink 0 --out "$out"
	assert_failure 1
	assert_output --regexp "fuzz: [1-9][0-9]* findings kept the shrinking budget's result \(0 cases, or --time\)"
	for f in "$out"/*.scn; do
		grep -q "^Shrunk from 10 to 10 operations" "$f" || fail "${f##*/} was shrunk: $(grep '^Shrunk' "$f")"
	done
}

@test "fuzz: a third --vs-kernel exits 2 before any boot" {
	local k=$BATS_TEST_TMPDIR/bzImage
	: >"$k"
	run "$NSTEST" fuzz --vs-kernel "$k" --vs-kernel "$k" --vs-kernel "$k" --count 5 \
		--out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	assert_output --partial "nstest fuzz: --vs-kernel $k: a third kernel"
	[[ ${#lines[@]} == 1 ]] || fail "more than one line: $output"
	[[ ! -e $BATS_TEST_TMPDIR/out ]] || fail "--out was made before the error"
}

# A stand-in for ci/vm-run (NSTEST_VM_RUN) that logs each boot, its
# options and how many scenario files it got, and plays them here.
fake_vm_run() {
	cat >"$BATS_TEST_TMPDIR/vm-run" <<'EOF'
#!/bin/bash
opts=() nstest=''
while [[ $1 != -- ]]; do
	[[ $1 == --nstest ]] && nstest=$2
	opts+=("$1")
	shift
done
shift
n=0
for a in "$@"; do [[ $a == *.scn ]] && n=$((n + 1)); done
echo "${opts[*]} | $1 $2 files=$n" >>"${0%/*}/boots.log"
exec "$nstest" "$@"
EOF
	chmod +x "$BATS_TEST_TMPDIR/vm-run"
	export NSTEST_VM_RUN=$BATS_TEST_TMPDIR/vm-run NSTEST_VM_CACHE=$BATS_TEST_TMPDIR/vm-cache
}

@test "fuzz --vs-kernel: --count up to 1000 is one boot, its timeout grown with the batch" {
	local k=$BATS_TEST_TMPDIR/bzImage
	: >"$k"
	fake_vm_run
	run "$NSTEST" fuzz --vs-kernel "$k" --count 210 --steps 4 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_output --partial "fuzz: 210 scenarios in"
	run cat "$BATS_TEST_TMPDIR/boots.log"
	# the probe, then every scenario in one boot (not 200 and 10)
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --partial "| fuzz --probe files=0"
	assert_line --index 1 --partial "| fuzz --play-dump files=210"
	assert_line --index 1 --partial " --timeout=820 "
	# NSTEST_VM_TIMEOUT, when set, is vm-run's to read
	rm "$BATS_TEST_TMPDIR/boots.log"
	NSTEST_VM_TIMEOUT=900 run "$NSTEST" fuzz --vs-kernel "$k" --count 110 --steps 4 \
		--out "$BATS_TEST_TMPDIR/out"
	assert_success
	run grep -c -- --timeout "$BATS_TEST_TMPDIR/boots.log"
	assert_output 0
}

@test "fuzz --vs-kernel -j 2: the guest plays with two workers, on a CPU each as far as this host has them" {
	local k=$BATS_TEST_TMPDIR/bzImage cpus
	: >"$k"
	fake_vm_run
	run "$NSTEST" fuzz --vs-kernel "$k" --count 6 --steps 4 -j 2 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	cpus=$(nproc)
	((cpus < 2)) || cpus=2
	run grep -- "files=6" "$BATS_TEST_TMPDIR/boots.log"
	assert_output --partial " --smp=$cpus "
	assert_output --partial "| fuzz -j2 files=6"
	# the probe is asked with neither
	run grep -- "--probe" "$BATS_TEST_TMPDIR/boots.log"
	refute_output --partial "--smp"
}

@test "fuzz --vs-kernel: the probe is kept per image, nstest and vm-run; a kept one boots nothing" {
	local k=$BATS_TEST_TMPDIR/bzImage
	echo one >"$k"
	fake_vm_run
	run "$NSTEST" fuzz --vs-kernel "$k" --count 3 --steps 4 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_output --partial "kernel vs the kernel in a VM (Linux $(uname -r))"
	run grep -c -- "| fuzz --probe" "$BATS_TEST_TMPDIR/boots.log"
	assert_output 1
	# the same image: the kept probe, the same release in the summary
	run "$NSTEST" fuzz --vs-kernel "$k" --count 3 --steps 4 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_output --partial "kernel vs the kernel in a VM (Linux $(uname -r))"
	run grep -c -- "| fuzz --probe" "$BATS_TEST_TMPDIR/boots.log"
	assert_output 1
	run grep -c -- "| fuzz --play-dump" "$BATS_TEST_TMPDIR/boots.log"
	assert_output 2
	# another image (or nstest, or vm-run) is probed again
	echo two >"$k"
	run "$NSTEST" fuzz --vs-kernel "$k" --count 3 --steps 4 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	run grep -c -- "| fuzz --probe" "$BATS_TEST_TMPDIR/boots.log"
	assert_output 2
	echo "# changed" >>"$BATS_TEST_TMPDIR/vm-run"
	run "$NSTEST" fuzz --vs-kernel "$k" --count 3 --steps 4 --out "$BATS_TEST_TMPDIR/out"
	assert_success
	run grep -c -- "| fuzz --probe" "$BATS_TEST_TMPDIR/boots.log"
	assert_output 3
	# a probe that gave no answer is not kept
	rm -r "$BATS_TEST_TMPDIR/vm-cache"
	printf '#!/bin/sh\necho "$*" >>"%s/boots.log"\nexit 125\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/vm-run"
	run "$NSTEST" fuzz --vs-kernel "$k" --count 3 --steps 4 --out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	[[ ! -e $BATS_TEST_TMPDIR/vm-cache ]] || fail "kept: $(find "$BATS_TEST_TMPDIR/vm-cache")"
}

@test "fuzz: --vs with --vs-kernel, in either order, exits 2" {
	local k=$BATS_TEST_TMPDIR/bzImage
	: >"$k"
	run "$NSTEST" fuzz --vs model --vs-kernel "$k" --count 5 --out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	assert_output --partial "nstest fuzz: --vs model and --vs-kernel exclude each other"
	run "$NSTEST" fuzz --vs-kernel "$k" --vs kernel --count 5 --out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	assert_output --partial "nstest fuzz: --vs kernel and --vs-kernel exclude each other"
}

@test "fuzz: two --vs-kernel take no --first and no quirks, and each image must be readable" {
	local k=$BATS_TEST_TMPDIR/bzImage
	: >"$k"
	run "$NSTEST" fuzz --vs-kernel "$k" --vs-kernel "$k" --first model --count 5
	assert_failure 2
	assert_output --partial "--first model and two --vs-kernel exclude each other"
	run "$NSTEST" fuzz --vs-kernel "$k" --vs-kernel "$k" --quirks=kernel --count 5
	assert_failure 2
	assert_output --partial "--quirk and --quirks need a model side"
	# the second image unreadable: named, before any boot
	run "$NSTEST" fuzz --vs-kernel "$k" --vs-kernel "$BATS_TEST_TMPDIR/missing" --count 5 \
		--out "$BATS_TEST_TMPDIR/out"
	assert_failure 2
	assert_output --partial "--vs-kernel $BATS_TEST_TMPDIR/missing: cannot read the kernel image"
	# the first image unreadable: named alike
	run "$NSTEST" fuzz --vs-kernel "$BATS_TEST_TMPDIR/missing" --vs-kernel "$k" --count 5
	assert_failure 2
	assert_output --partial "--vs-kernel $BATS_TEST_TMPDIR/missing: cannot read the kernel image"
}

@test "fuzz --start I: scenario I of the seed, as a run from 0 generates it" {
	"$NSTEST" fuzz --print-scenarios --seed 7 --count 14 >"$BATS_TEST_TMPDIR/all"
	run "$NSTEST" fuzz --print-scenarios --seed 7 --start 13 --count 1
	assert_success
	assert_line "title: fuzz seed 7 scenario 13"
	# the last scenario of the 14, byte for byte
	sed -n '/^title: fuzz seed 7 scenario 13$/,$p' "$BATS_TEST_TMPDIR/all" >"$BATS_TEST_TMPDIR/13"
	diff -u "$BATS_TEST_TMPDIR/13" <(printf '%s\n' "$output"; echo)
	# a run from 13 plays and names scenario 13: the same file name
	run "$NSTEST" fuzz --first model --vs model --seed 7 --start 13 --count 1 --out "$BATS_TEST_TMPDIR/o"
	assert_success
	assert_output --partial "fuzz: 1 scenarios in"
	run "$NSTEST" fuzz --start x
	assert_failure 2
	assert_output --partial "nstest fuzz: --start must be a whole number"
}

@test "fuzz --probe: the features and the release a --vs-kernel VM is asked for" {
	run "$NSTEST" fuzz --probe
	assert_success
	assert_line --regexp '^features [0-9]+$'
	assert_line "release $(uname -r)"
	assert_line --regexp '^tmpfs-inode64 [01]$'
	[[ ${#lines[@]} == 3 ]] || fail "not three lines: $output"
	# open_tree (bit 8) and move_mount (bit 9) are older than any kernel
	# nstest supports
	local f=${lines[0]#features }
	(( (f >> 8) & 3 )) || fail "no open_tree or move_mount in $f"
}

@test "tmpfs-inode64: --probe and --quirks=kernel take what a fresh tmpfs of this kernel shows" {
	local scn=$BATS_TEST_TMPDIR/t.scn want=0
	printf 'title: a tmpfs by type\n\n    # mkdir /t\n    # mount -t tmpfs none /t\n    # cat /proc/self/mountinfo | grep " /t "\n' >"$scn"
	# the kernel's own answer, through the kernel backend: its line for /t
	run "$NSTEST" run --update "$scn"
	grep -q ' /t .* - tmpfs none rw' "$scn" || fail "no line for /t: $(cat "$scn")"
	grep -q 'inode[0-9][0-9]' "$scn" && want=1
	run "$NSTEST" fuzz --probe
	assert_line "tmpfs-inode64 $want"
	# a model imitating this kernel shows what it showed
	run "$NSTEST" run --backend model --quirks=kernel "$scn"
	assert_success
	# and with the build option named, inode64 on every tmpfs
	sed -i '/^    [0-9]/d' "$scn"
	run "$NSTEST" run --backend model --quirk tmpfs-inode64 --update "$scn"
	grep -q ' /t .* - tmpfs none rw,inode64$' "$scn" || fail "no inode64 on /t: $(cat "$scn")"
}

@test "ci/fuzz-campaign: --help names every option and the exit statuses; bad options exit 2" {
	run "$NSTEST_ROOT/ci/fuzz-campaign" --help
	assert_success
	local o
	for o in --output --time-per-kernel --lines --offline --seed --shrink --no-bisect \
		--findings-dir --report --notes --nstest --vm-opt "Exit status" "Example"; do
		assert_output --partial -- "$o"
	done
	run "$NSTEST_ROOT/ci/fuzz-campaign" --time-per-kernel 0
	assert_failure 2
	assert_output --partial "--time-per-kernel must be"
	run "$NSTEST_ROOT/ci/fuzz-campaign" --lines ,
	assert_failure 2
	run "$NSTEST_ROOT/ci/fuzz-campaign" --frobnicate
	assert_failure 2
	assert_output --partial "see ci/fuzz-campaign --help"
}
