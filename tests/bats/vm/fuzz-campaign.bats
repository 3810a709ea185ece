#!/usr/bin/env bats
# tests/bats/vm/fuzz-campaign.bats - two packaged kernels compared
# directly (nstest fuzz --vs-kernel A --vs-kernel B), the model against a
# packaged kernel imitating that kernel's quirks, and ci/fuzz-campaign on
# two lines with a tiny budget, run twice: the second run boots nothing.
# The kernels are Debian's 6.1 and 6.12, from the cache of ci/kernels
# (fetched when the archive is in reach). About 14 boots in all, more for findings.

bats_require_minimum_version 1.5.0
load vm-helpers

# kernel LINE: the cached (or fetched) newest point release of LINE.
kernel() {
	"$CI_DIR/kernels" -q fetch "$1" 2>/dev/null || "$CI_DIR/kernels" -q --offline fetch "$1"
}

setup() {
	vm_setup
	K61=$(kernel 6.1) || fail "no Debian 6.1 kernel (ci/kernels fetch 6.1)"
	K612=$(kernel 6.12) || fail "no Debian 6.12 kernel (ci/kernels fetch 6.12)"
}

@test "fuzz --vs-kernel A --vs-kernel B: two packaged kernels, no model (4 boots)" {
	local out=$BATS_TEST_TMPDIR/out
	run --separate-stderr "$NSTEST" fuzz --vs-kernel "$K612" --vs-kernel "$K61" \
		--count 10 --batch 10 --shrink 0 --out "$out"
	[[ $status == 0 || $status == 1 ]] || fail "status $status: $output $stderr"
	assert_line --regexp "^fuzz: 10 scenarios in .*, the kernel in a VM \(Linux 6\.12\.[^)]*\) vs the kernel in a VM \(Linux 6\.1\.[^)]*\), seed 1$"
	# no model: no quirk explains anything
	refute_output --partial "cause: quirk"
	if compgen -G "$out/*.scn" >/dev/null; then
		run "$NSTEST" lint "$out"
		assert_success
		grep -q '^comparing the kernel in a VM (Linux 6\.12.*) with the kernel in a VM (Linux 6\.1\..*) (quirks: none)\.$' "$out"/*.scn
		grep -q '^Cause: unexplained: ' "$out"/*.scn
	fi
}

@test "fuzz --first model --vs-kernel IMG --quirks=kernel: the quirks of IMG's release (2 boots)" {
	local out=$BATS_TEST_TMPDIR/out
	run --separate-stderr "$NSTEST" fuzz --first model --vs-kernel "$K61" --quirks=kernel \
		--count 5 --batch 5 --shrink 0 --out "$out"
	[[ $status == 0 || $status == 1 ]] || fail "status $status: $output $stderr"
	assert_line --regexp '^fuzz: 5 scenarios in .*, model vs the kernel in a VM \(Linux 6\.1\.'
	# umount-shifts-stacks holds on every 6.1 release and not on 6.17.8
	# and later (lib/model/quirks.c): the VM's release decides, not this
	# machine's
	assert_line --regexp '^fuzz: the model.s quirks: .*umount-shifts-stacks.* \(kernel, for Linux 6\.1\.'
}

@test "ci/fuzz-campaign --lines 6.1,6.12: three fuzz runs, then a second run boots nothing" {
	local out=$BATS_TEST_TMPDIR/campaign docs=$BATS_TEST_TMPDIR/docs
	run --separate-stderr "$CI_DIR/fuzz-campaign" --lines 6.1,6.12 --time-per-kernel 1 \
		--fuzz-opt=--batch=4 --shrink 0 --shrink-time 0 --no-bisect -o "$out" \
		--findings-dir "$docs/findings" --report "$docs/findings.md"
	assert_success
	# model 6.1, model 6.12, and 6.12 against 6.1: a probe and a batch
	# each, the pair two batches (its probes are the ones kept from the
	# first two runs); a finding, even unshrunk, is played once more
	local boots
	boots=$(wc -l <"$out/boots.log")
	(( boots >= 6 )) || fail "boots: $(cat "$out/boots.log")"
	run python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["steps"]; print(" ".join(sorted(k for k,v in s.items() if v.get("done"))))' "$out/state.json"
	assert_output "fetch 6.1 fetch 6.12 kernels 6.1 6.12 model 6.1 model 6.12"
	[[ -s $docs/findings.md ]] || fail "no report"
	grep -q '^| kernels 6.1 6.12 | [01] |' "$docs/findings.md" || fail "$(cat "$docs/findings.md")"
	cp "$docs/findings.md" "$BATS_TEST_TMPDIR/first.md"

	# resumed: every step is recorded, nothing runs, the same report
	run --separate-stderr "$CI_DIR/fuzz-campaign" --lines 6.1,6.12 --time-per-kernel 1 \
		--fuzz-opt=--batch=4 --shrink 0 --shrink-time 0 --no-bisect -o "$out" \
		--findings-dir "$docs/findings" --report "$docs/findings.md"
	assert_success
	[[ $(wc -l <"$out/boots.log") == "$boots" ]] || fail "booted again: $(cat "$out/boots.log")"
	[[ $stderr != *"nstest fuzz"* && $stderr != *": "*"fuzz --"* ]] || fail "a fuzz run ran again: $stderr"
	diff -u "$BATS_TEST_TMPDIR/first.md" "$docs/findings.md"
}
