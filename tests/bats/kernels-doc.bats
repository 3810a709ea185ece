#!/usr/bin/env bats
# tests/bats/kernels-doc.bats - docs/kernels.md's tables come from a
# matrix run (ci/kernel-matrix --markdown) and cannot go stale: they name
# every scenario in scenarios/ and nothing else, every verdict change
# they list is explained in the prose, and --markdown itself renders
# what the reports say, between its markers, and nothing else.
#
# No kernel boots here: --from reads a matrix folder written by hand
# from real `nstest run --format json` reports of this machine.

bats_require_minimum_version 1.5.0
load helpers

CI_DIR=$NSTEST_ROOT/ci
DOC=$NSTEST_ROOT/docs/kernels.md

# block FILE: the lines between the kernel-matrix markers
block() {
	sed -n '/^<!-- kernel-matrix: begin -->$/,/^<!-- kernel-matrix: end -->$/p' "$1"
}

@test "kernels.md: the generated matrix names every scenario in scenarios/, once, and no other" {
	[[ $(grep -c '^<!-- kernel-matrix: begin -->$' "$DOC") == 1 ]] || fail "no single begin marker in $DOC"
	[[ $(grep -c '^<!-- kernel-matrix: end -->$' "$DOC") == 1 ]] || fail "no single end marker in $DOC"
	# the whole matrix's rows: | `folder/name` | verdict | ...
	block "$DOC" | sed -n 's/^| `\([^`]*\)` |.*/\1/p' | sort >"$BATS_TEST_TMPDIR/doc"
	(cd "$NSTEST_ROOT/scenarios" && find . -name '*.scn' | sed 's|^\./||; s|\.scn$||' | sort) \
		>"$BATS_TEST_TMPDIR/tree"
	[[ -s $BATS_TEST_TMPDIR/tree ]] || fail "no scenarios found"
	run diff "$BATS_TEST_TMPDIR/tree" "$BATS_TEST_TMPDIR/doc"
	[[ $status == 0 ]] || fail "docs/kernels.md is stale (< only in scenarios/, > only in the doc); regenerate it with the command it shows:
$output"
	# and the sentence above it counts them
	n=$(wc -l <"$BATS_TEST_TMPDIR/tree")
	block "$DOC" | grep -q "^$n scenarios on " || fail "the summary does not say $n scenarios"
}

@test "kernels.md: every verdict change the matrix lists is explained below it" {
	changed=$(block "$DOC" | sed -n 's/^- `\([^`]*\)`: .*/\1/p')
	prose=$(sed '/^<!-- kernel-matrix: begin -->$/,/^<!-- kernel-matrix: end -->$/d' "$DOC")
	missing=()
	for name in $changed; do
		[[ $prose == *"$name"* ]] || missing+=("$name")
	done
	((${#missing[@]} == 0)) || fail "verdict changes with no explanation in $DOC: ${missing[*]}"
	# a change that is not in the block is not checked at all: make sure
	# the block has the list (or says there is none)
	block "$DOC" | grep -qE '(do not, in version order:|none changes\.)$' || fail "no list of changes"
}

# matrix_dir DIR: a kernel-matrix output folder with two kernels, the host
# (real reports of this machine) and a "6.1.192" whose second scenario
# fails instead; its matrix.json as kernel-matrix writes it.
matrix_dir() {
	local dir=$1
	mkdir -p "$dir"
	mkdir -p "$SCN_DIR/scenarios/t"
	cat >"$SCN_DIR/scenarios/t/one.scn" <<'SCN'
    # mkdir /a
SCN
	cat >"$SCN_DIR/scenarios/t/two.scn" <<'SCN'
    # mkdir /b
    # ls /b
SCN
	(cd "$SCN_DIR" && "$NSTEST" run --format json scenarios/t) >"$dir/00-host.json"
	python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(f"{d}/00-host.json"))
assert [s["status"] for s in r["scenarios"]] == ["pass", "pass"], r
r["scenarios"][1]["status"] = "fail"
json.dump(r, open(f"{d}/01-6.1.0-57-cloud-amd64.json", "w"))
k = dict(spec=None, image=None, seconds=None, retried=0, status=0)
json.dump({"command": ["ci/kernel-matrix", "--debian", "6.1", "-s", "scenarios/t"],
           "jobs": 2, "wall": 61.4, "load": [1.0, 3.0, 2.0, 9.5], "cpus": 2, "kvm": False,
           "date": "2026-12-06",
           "kernels": [dict(k, index=0, host=True, name="9.9.9-test (host)", label="9.9.9-test",
                            slug="00-host", version=[9, 9, 9], seconds=12.2,
                            report="00-host.json"),
                       dict(k, index=1, host=False, name="6.1.192",
                            label="6.1.0-57-cloud-amd64", slug="01-6.1.0-57-cloud-amd64",
                            version=[6, 1, 192], seconds=30.6, retried=1, status=1,
                            report="01-6.1.0-57-cloud-amd64.json")]},
          open(f"{d}/matrix.json", "w"))
PY
}

@test "kernel-matrix --markdown: tables from the reports, between the markers, the rest of the file kept" {
	matrix_dir "$BATS_TEST_TMPDIR/m"
	md=$BATS_TEST_TMPDIR/doc.md
	printf '# Title\n\nbefore\n<!-- kernel-matrix: begin -->\nold table\n<!-- kernel-matrix: end -->\nafter\n' >"$md"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR/m" --markdown "$md"
	assert_failure 1 # a scenario failed on one kernel
	[[ $stderr == *"Markdown tables in $md"* ]] || fail "stderr: $stderr"
	run cat "$md"
	# what was outside the markers is kept, the old table is gone
	# (bats's lines leave out empty ones)
	assert_line --index 0 '# Title'
	assert_line --index 1 'before'
	assert_line --index 2 '<!-- kernel-matrix: begin -->'
	refute_line 'old table'
	assert_equal "${lines[-2]}" '<!-- kernel-matrix: end -->'
	assert_equal "${lines[-1]}" 'after'
	# the command, the time with -j and the load (median 2.5, max 9.5)
	assert_line '    ci/kernel-matrix --debian 6.1 -s scenarios/t'
	assert_line --partial 'It took 61 s in all with -j 2, at a load of 2.5'
	assert_line --partial '9.5 at most'
	assert_line --partial 'every guest under TCG, no KVM'
	# per kernel, in version order: counts, time beside -j and load, retries
	assert_line '| kernel | pass | xfail | skip | fail | xpass | no verdict | time (-j 2, load 2.5) |'
	assert_line '| 6.1.192 (6.1.0-57) | 1 | 0 | 0 | 1 | 0 | 0 | 31 s, booted 2 times |'
	assert_line '| 9.9.9-test (host) | 2 | 0 | 0 | 0 | 0 | 0 | 12 s |'
	# the change, and every scenario on every kernel
	assert_line '2 scenarios on 2 kernels. 1 of them have the same verdict on every kernel that gave one; 1 do not, in version order:'
	assert_line '- `t/two`: fail on 6.1.192 (6.1.0-57); pass on 9.9.9-test (host)'
	assert_line '| scenario | 6.1.192 (6.1.0-57) | 9.9.9-test (host) |'
	assert_line '| `t/one` | pass | pass |'
	assert_line '| `t/two` | fail | pass |'
}

@test "kernel-matrix --markdown: how the guests ran is what ci/vm-run said, not whether /dev/kvm exists" {
	matrix_dir "$BATS_TEST_TMPDIR/m"
	md=$BATS_TEST_TMPDIR/doc.md
	# /dev/kvm was there (kvm: true), but vm-run fell back to TCG
	python3 - "$BATS_TEST_TMPDIR/m/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["kvm"] = True
json.dump(m, open(sys.argv[1], "w"))
PY
	echo 'vm-run: vmlinuz-6.1.0-57-cloud-amd64 under tcg: booting the kernel, 10 s elapsed' \
		>"$BATS_TEST_TMPDIR/m/01-6.1.0-57-cloud-amd64.stderr"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR/m" --markdown "$md"
	run cat "$md"
	assert_line --partial 'every guest under TCG, no KVM'
	# one guest under KVM and one under TCG
	echo 'vm-run: vmlinuz-7.3.4 under kvm: booting the kernel, 1 s elapsed' >"$BATS_TEST_TMPDIR/m/02-x.stderr"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR/m" --markdown "$md"
	run cat "$md"
	assert_line --partial 'guests under KVM and under TCG'
	# no word from vm-run at all: what matrix.json says of /dev/kvm
	rm "$BATS_TEST_TMPDIR"/m/*.stderr
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR/m" --markdown "$md"
	run cat "$md"
	assert_line --partial 'every guest under KVM'
}

@test "kernel-matrix --markdown: a new file holds only the block; a kernel without a verdict counts its scenarios" {
	matrix_dir "$BATS_TEST_TMPDIR/m"
	python3 - "$BATS_TEST_TMPDIR/m/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["kernels"][1].update(report=None, status=125, seconds=600.0)
json.dump(m, open(sys.argv[1], "w"))
PY
	md=$BATS_TEST_TMPDIR/new.md
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR/m" --markdown "$md"
	assert_failure 125
	run cat "$md"
	assert_line --index 0 '<!-- kernel-matrix: begin -->'
	assert_equal "${lines[-1]}" '<!-- kernel-matrix: end -->'
	assert_line '| 6.1.192 (6.1.0-57) | 0 | 0 | 0 | 0 | 0 | 2 | 600 s, booted 2 times |'
	assert_line '| `t/two` | pass | - |'
	assert_line --partial 'none changes.'
}

@test "kernel-matrix --markdown: a file without the markers is refused before anything runs, and kept" {
	md=$BATS_TEST_TMPDIR/plain.md
	printf 'my notes\n' >"$md"
	# no kernel may boot, and no nstest run: a missing binary would say so
	run --separate-stderr "$CI_DIR/kernel-matrix" --nstest /nonexistent --no-host \
		--debian 6.1 --markdown "$md"
	assert_failure 2
	[[ $stderr == *"--markdown: $md has no '<!-- kernel-matrix: begin -->' line followed by an '<!-- kernel-matrix: end -->' line"* ]] ||
		fail "stderr: $stderr"
	[[ $stderr != *"no nstest binary"* ]] || fail "it went on: $stderr"
	assert_equal "$(cat "$md")" 'my notes'
	# markers in the wrong order are no place either
	printf '<!-- kernel-matrix: end -->\n<!-- kernel-matrix: begin -->\n' >"$md"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from /nowhere --markdown "$md"
	assert_failure 2
	[[ $stderr == *"has no '<!-- kernel-matrix: begin -->' line followed by"* ]] || fail "stderr: $stderr"
}

@test "kernel-matrix --from: runs nothing, refuses what would run, and names a folder it cannot read" {
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR" -s scenarios/article
	assert_failure 2
	[[ $stderr == *"--from reads an earlier run and runs nothing: -s cannot go with it"* ]] || fail "stderr: $stderr"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR" --debian 6.1 -- --shard 1/2
	assert_failure 2
	[[ $stderr == *"--debian, -- NSTEST_RUN_OPTIONS cannot go with it"* ]] || fail "stderr: $stderr"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR"
	assert_failure 2
	[[ $stderr == *"--from: $BATS_TEST_TMPDIR/matrix.json does not exist"* ]] || fail "stderr: $stderr"
	# a report matrix.json names but that is gone
	matrix_dir "$BATS_TEST_TMPDIR/m"
	rm "$BATS_TEST_TMPDIR/m/00-host.json"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR/m"
	assert_failure 2
	[[ $stderr == *"--from: $BATS_TEST_TMPDIR/m/00-host.json: no such report, or not JSON"* ]] || fail "stderr: $stderr"
	# and what it does read prints the matrix as a run would
	matrix_dir "$BATS_TEST_TMPDIR/m2"
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$BATS_TEST_TMPDIR/m2"
	assert_failure 1
	assert_line --index 0 --regexp '^scenario +9\.9\.9-test \(host\) +6\.1\.192$'
	assert_line --regexp '^scenarios/t/two\.scn +pass +fail$'
	assert_line --partial 'time: 61s in all with -j 2, load 2.5 (median; 9.5 at most)'
}
