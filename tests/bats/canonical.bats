#!/usr/bin/env bats
# tests/bats/canonical.bats - the JSON report's canonical form of each
# step's output (nstest(1), JSON) and ci/'s comparison of kernels, which
# reads it (ci/transcripts.py, ci/kernel-matrix): the same scenario run
# twice with other mount IDs is the same; a twin whose mount tree
# differs stays different, and is no mere reordering; the same lines in
# another order are said to be so; a report without the form is refused.
#
# Runs as root, or rootless where user namespaces are allowed: `nstest
# run` sandboxes itself, and hold_ids below takes mount IDs in a mount
# namespace of its own.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	nstest_setup
	command -v python3 >/dev/null || skip "python3 is not installed (Debian package python3)"
	CI_DIR=$NSTEST_ROOT/ci
	HOLDER=
}

teardown() {
	release_ids
}

# hold_ids: a process in a new mount namespace, a copy of this one, so
# that the kernel gives its mounts IDs that a run just freed: the next
# run's mounts get other IDs (the kernel hands out the lowest free one).
hold_ids() {
	local un=(unshare -m --propagation private)
	((EUID == 0)) || un=(unshare -r -m --propagation private)
	"${un[@]}" sleep 120 </dev/null >/dev/null 2>&1 3>&- &
	HOLDER=$!
	# the copy is made before sleep starts; wait until it runs
	for _ in $(seq 50); do
		[[ $(readlink "/proc/$HOLDER/ns/mnt" 2>/dev/null) != "$(readlink /proc/self/ns/mnt)" &&
			$(cat "/proc/$HOLDER/comm" 2>/dev/null) == sleep ]] && return
		sleep 0.1
	done
	fail "the ID holder (${un[*]}) did not start"
}

release_ids() {
	[[ -n $HOLDER ]] || return 0
	kill "$HOLDER" 2>/dev/null || true
	wait "$HOLDER" 2>/dev/null || true
	HOLDER=
}

# py CODE ARG...: python3 with ci/ on its path, kernel-matrix loaded as
# the module km, and json; each failing assert names itself.
py() {
	local code=$1
	shift
	run python3 -c "
import importlib.machinery, importlib.util, json, sys
sys.path.insert(0, '$CI_DIR')
import transcripts
loader = importlib.machinery.SourceFileLoader('km', '$CI_DIR/kernel-matrix')
spec = importlib.util.spec_from_loader('km', loader)
km = importlib.util.module_from_spec(spec)
loader.exec_module(km)
def scenario(path, i=0):
    return transcripts.read_report(path)['scenarios'][i]
def kernel(path, label):
    k = km.Kernel(None, '/nowhere', 0)
    k.report, k.label = transcripts.read_report(path), label
    return k
$code
print('checked')" "$@"
	assert_success
	assert_line checked
}

# The findmnt of issue 25, a tree with the numbers before TARGET, and
# the other forms and commands whose numbers the judge renames.
numbers_scn() {
	write_scn "${1:-numbers}" <<'SCN'
root: /dev/sda2

    # mkdir /a /b /c
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # mount --bind /a /b
    # mount /dev/sdb2 /c
    # findmnt -n -o ID,PARENT,MAJ:MIN,TARGET
    # findmnt -r -o ID,PARENT,MAJ:MIN,TARGET /dev/sdb1
    # findmnt -J -o TARGET,ID,PARENT,MAJ:MIN /b
    # cat /proc/self/mountinfo
    # stat -c '%d %D %i %n' /a /c
    # mountpoint -d /b
SCN
}

@test "canonical: the same scenario run twice with other mount IDs: the same text, and ci/ calls the runs the same" {
	scn=$(numbers_scn)
	"$NSTEST" run --format json "$scn" >"$BATS_TEST_TMPDIR/one.json" || true
	hold_ids
	"$NSTEST" run --format json "$scn" >"$BATS_TEST_TMPDIR/two.json" || true
	release_ids
	py "
a, b = scenario(sys.argv[1]), scenario(sys.argv[2])
fa, fb = a['steps'][5], b['steps'][5]
assert fa['command'] == 'findmnt -n -o ID,PARENT,MAJ:MIN,TARGET', fa['command']
# the kernel gave the second run other IDs: the raw outputs differ
assert fa['output'] != fb['output'], ('the IDs did not move', fa['output'])
for x, y in zip(a['steps'], b['steps']):
    assert x['ran'] and y['ran'], (x, y)
    assert x['canonical'] == y['canonical'], (x['command'], x['canonical'], y['canonical'])
    assert x['canonical_sorted'] == y['canonical_sorted'], x['command']
# every number of the tree is a name; blanks one apart
lines = fa['canonical'].splitlines()
assert len(lines) == 4 and all(l.split()[0][0] == 'M' and l.split()[2][0] == 'D' for l in lines), lines
assert lines[0].startswith('M2 M1 D1 /'), lines
import re
forms = {6: r'(ID PARENT MAJ:MIN TARGET|M\d+ M\d+ D\d+ /[ab])',
         7: r'.*',
         8: r'(M\d+ M\d+ D\d+ / /[abc]? rw\S* (shared:P1 )?- tmpfs \S+ \S+)',
         9: r'D\d+ D\d+ I\d+ /[ac]',
         10: r'D\d+'}
for i, form in forms.items():
    for l in a['steps'][i]['canonical'].splitlines():
        assert re.fullmatch(form, l), (a['steps'][i]['command'], l)
js = a['steps'][7]['canonical']
assert re.search(r'\"id\": M\d+,\n *\"parent\": M\d+,\n *\"maj:min\": \"D\d+\"', js), js
assert 'shared:P1' in a['steps'][8]['canonical']
assert transcripts.transcript(a) == transcripts.transcript(b)
assert transcripts.order_only(a, b)
assert km.print_differences([kernel(sys.argv[1], 'one'), kernel(sys.argv[2], 'two')],
                            [a['path']]) == 0
" "$BATS_TEST_TMPDIR/one.json" "$BATS_TEST_TMPDIR/two.json"
	refute_line --partial "==="
}

@test "canonical: a twin whose mount tree differs stays different, and is no mere reordering" {
	# /a/x under /a, or under / and covered by /a: mountinfo's lines are
	# the same but for one PARENT, in another order
	under=$(write_scn twin <<'SCN'
    # mkdir -p /a/x
    # mount /dev/sdb1 /a
    # mkdir /a/x
    # mount /dev/sdb2 /a/x
    # cat /proc/self/mountinfo
    # findmnt -n -o ID,PARENT,TARGET
SCN
	)
	beside=$(write_scn other/twin <<'SCN'
    # mkdir -p /a/x
    # mkdir /a/y
    # mount /dev/sdb2 /a/x
    # mount /dev/sdb1 /a
    # cat /proc/self/mountinfo
    # findmnt -n -o ID,PARENT,TARGET
SCN
	)
	"$NSTEST" run --format json "$under" >"$BATS_TEST_TMPDIR/under.json" || true
	"$NSTEST" run --format json "$beside" >"$BATS_TEST_TMPDIR/beside.json" || true
	py "
a, b = scenario(sys.argv[1]), scenario(sys.argv[2])
ma, mb = a['steps'][4], b['steps'][4]
def shape(text):
    out = []
    for l in text.splitlines():
        f = l.split()
        out.append(' '.join(['N', 'N', 'N'] + f[3:]))
    return sorted(out)
# with every number blanked, mountinfo's lines are the same
assert shape(ma['output']) == shape(mb['output']), (ma['output'], mb['output'])
assert ma['canonical'] != mb['canonical']
assert ma['canonical_sorted'] != mb['canonical_sorted'], ma['canonical_sorted']
assert a['steps'][5]['canonical'] != b['steps'][5]['canonical']
assert not transcripts.order_only(a, b)
# mountinfo alone: numbers blanked, its lines would pass for a reordering
assert not transcripts.order_only({'steps': a['steps'][:5]}, {'steps': b['steps'][:5]})
assert transcripts.transcript(a) != transcripts.transcript(b)
ka, kb = kernel(sys.argv[1], 'one'), kernel(sys.argv[2], 'two')
kb.report['scenarios'][0]['path'] = a['path']
assert km.print_differences([ka, kb], [a['path']]) == 1
" "$BATS_TEST_TMPDIR/under.json" "$BATS_TEST_TMPDIR/beside.json"
	assert_line --regexp "^=== .*: fail on both, different output$"
	assert_line --regexp "^    -    M[0-9]+ M[0-9]+ D[0-9]+ / /a/x .*"
}

@test "canonical: the same lines in another order: another canonical text, the same sorted one" {
	up=$(write_scn order <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # cat /proc/self/mountinfo | sort -k5
SCN
	)
	down=$(write_scn other/order <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # cat /proc/self/mountinfo | sort -r -k5
SCN
	)
	"$NSTEST" run --format json "$up" >"$BATS_TEST_TMPDIR/up.json" || true
	"$NSTEST" run --format json "$down" >"$BATS_TEST_TMPDIR/down.json" || true
	py "
a, b = scenario(sys.argv[1]), scenario(sys.argv[2])
x, y = a['steps'][3], b['steps'][3]
assert x['canonical'] != y['canonical']
assert x['canonical_sorted'] == y['canonical_sorted'], (x['canonical_sorted'], y['canonical_sorted'])
assert transcripts.order_only(a, b)
ka, kb = kernel(sys.argv[1], 'one'), kernel(sys.argv[2], 'two')
kb.report['scenarios'][0]['path'] = a['path']
assert km.print_differences([ka, kb], [a['path']]) == 1
" "$BATS_TEST_TMPDIR/up.json" "$BATS_TEST_TMPDIR/down.json"
	assert_line --regexp "^=== .*: fail on both, the same lines in another order$"
}

@test "canonical: a report without the canonical form is refused, not compared raw" {
	scn=$(numbers_scn)
	"$NSTEST" run --format json "$scn" >"$BATS_TEST_TMPDIR/new.json" || true
	# what an nstest from before the canonical form wrote
	python3 -c "
import json, sys
doc = json.load(open(sys.argv[1]))
for s in doc['scenarios']:
    for t in s['steps']:
        del t['canonical'], t['canonical_sorted']
json.dump(doc, open(sys.argv[2], 'w'))" "$BATS_TEST_TMPDIR/new.json" "$BATS_TEST_TMPDIR/old.json"
	run python3 -c "
import sys
sys.path.insert(0, '$CI_DIR')
import transcripts
transcripts.read_report(sys.argv[1])" "$BATS_TEST_TMPDIR/old.json"
	assert_failure
	assert_output --partial "transcripts.NoCanonical: $BATS_TEST_TMPDIR/old.json: report has no canonical output; rebuild nstest"

	# kernel-matrix with an nstest that writes such reports; it would boot
	# every /boot/vmlinuz-* as well
	compgen -G '/boot/vmlinuz-*' >/dev/null && skip "kernel images under /boot: kernel-matrix would boot them"
	printf '#!/bin/sh\n[ "$3" = json ] && exec cat %q\nexit 2\n' "$BATS_TEST_TMPDIR/old.json" \
		>"$BATS_TEST_TMPDIR/old-nstest"
	chmod +x "$BATS_TEST_TMPDIR/old-nstest"
	run --separate-stderr "$CI_DIR/kernel-matrix" --no-junit --nstest "$BATS_TEST_TMPDIR/old-nstest" \
		-o "$BATS_TEST_TMPDIR/reports" -s "$scn"
	assert_failure 2
	[[ $stderr == *"00-"*".json: report has no canonical output; rebuild nstest"* ]] ||
		fail "stderr: $stderr"
	assert_output ""

	# and the same run with this nstest: a matrix of one kernel
	run --separate-stderr "$CI_DIR/kernel-matrix" --no-junit -o "$BATS_TEST_TMPDIR/reports2" -s "$scn"
	assert_failure 1 # the scenario expects nothing, so it fails
	assert_line --regexp "^${scn//./\\.} +fail$"
}
