#!/usr/bin/env bats
# tests/bats/merge-reports.bats - ci/merge-reports: the table of scenario
# x kernel from JSON reports of many shards and kernels, the merged JUnit
# file, and every rule: incomplete, mixed, repeated or empty shards and
# repeated scenarios warn; a fail or xpass is 1; a file that is no nstest
# report is 2, named.
#
# The reports are real: `nstest run --backend model --format json|junit
# --shard K/N` (the model mounts nothing and needs no root), on a copy of
# the article's scenarios plus one that fails. A second kernel is the
# same reports with their kernel and backend rewritten, as a CI job on
# Debian's 6.1 would have written them. Error paths use small
# hand-written files.

bats_require_minimum_version 1.5.0
load helpers

MERGE=$NSTEST_ROOT/ci/merge-reports

# The scenarios as scn/NAME: the article's four, which pass on the model,
# and scn/05-wrong.scn, which does not.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	mkdir scn reports
	cp "$NSTEST_ROOT"/scenarios/article/*.scn scn/
	cat >scn/05-wrong.scn <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
	# model: 5 scenarios in 3 shards (1/3: 01 04, 2/3: 02 05, 3/3: 03)
	for k in 1 2 3; do
		for f in json junit; do
			"$NSTEST" run --backend model --format "$f" --shard "$k/3" scn \
				>"reports/model-$k.${f/junit/xml}" || true
		done
	done
	"$NSTEST" run --backend model --format json scn >reports/model-whole.json || true
	# "6.1": the article's four in 2 shards, as the kernel backend on
	# 6.1.0-28-cloud-amd64 would have reported them
	for k in 1 2; do
		for f in json junit; do
			"$NSTEST" run --backend model --format "$f" --shard "$k/2" --filter '0[1-4]-*' scn |
				sed -e 's/"kernel":"none"/"kernel":"6.1.0-28-cloud-amd64"/g' \
				    -e 's/"backend":"model"/"backend":"kernel"/' \
				    -e 's/name="kernel" value="none"/name="kernel" value="6.1.0-28-cloud-amd64"/' \
				    -e 's/name="backend" value="model"/name="backend" value="kernel"/' \
				>"reports/k61-$k.${f/junit/xml}"
		done
	done
}

setup() {
	nstest_setup
	cd "$BATS_FILE_TMPDIR" || fail "no $BATS_FILE_TMPDIR"
	R=reports
}

# hand NAME JSON: a small hand-written report in this test's folder
hand() {
	printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/$1"
	echo "$BATS_TEST_TMPDIR/$1"
}

@test "merge-reports: the reports are what the test expects (shards of the model and of 6.1)" {
	run python3 -c '
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    print(f, d["kernel"], d["backend"], d["shard"], " ".join(s["path"] + "=" + s["status"] for s in d["scenarios"]))
' $R/model-1.json $R/model-2.json $R/k61-2.json
	assert_output "reports/model-1.json none model 1/3 scn/01-shared-private.scn=pass scn/04-unbindable.scn=pass
reports/model-2.json none model 2/3 scn/02-slave.scn=pass scn/05-wrong.scn=fail
reports/k61-2.json 6.1.0-28-cloud-amd64 kernel 2/2 scn/02-slave.scn=pass scn/04-unbindable.scn=pass"
}

@test "merge-reports: all shards of one kernel that passes: the table, no warning, exit 0" {
	run --separate-stderr "$MERGE" $R/k61-2.json $R/k61-1.json
	assert_success
	assert_equal "$stderr" ""
	assert_output "scenario                   6.1.0-28-cloud-amd64
scn/01-shared-private.scn  pass
scn/02-slave.scn           pass
scn/03-bind.scn            pass
scn/04-unbindable.scn      pass

4 scenarios on 1 kernel: 4 pass, 0 fail, 0 skip, 0 xfail, 0 xpass"
}

@test "merge-reports: two kernels, all shards: scenario x kernel; a fail verdict is exit 1" {
	run --separate-stderr "$MERGE" $R/model-{1,2,3}.json $R/k61-{1,2}.json
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output "scenario                   6.1.0-28-cloud-amd64  model
scn/01-shared-private.scn  pass                  pass
scn/02-slave.scn           pass                  pass
scn/03-bind.scn            pass                  pass
scn/04-unbindable.scn      pass                  pass
scn/05-wrong.scn           -                     fail

5 scenarios on 2 kernels: 8 pass, 1 fail, 0 skip, 0 xfail, 0 xpass, 1 missing"
}

@test "merge-reports: kernels are columns in version order, not in the order of the files" {
	a=$(hand a.json '{"kernel":"6.12.48+deb13-cloud-amd64","backend":"kernel","shard":null,"scenarios":[{"path":"x.scn","status":"pass"}]}')
	b=$(hand b.json '{"kernel":"6.1.0-28-cloud-amd64","backend":"kernel","shard":null,"scenarios":[{"path":"x.scn","status":"skip"}]}')
	c=$(hand c.json '{"kernel":"7.2.11+deb14-cloud-amd64","backend":"kernel","shard":null,"scenarios":[{"path":"x.scn","status":"xfail"}]}')
	d=$(hand d.json '{"kernel":"6.12.48+deb13-cloud-amd64","backend":"model","shard":null,"scenarios":[{"path":"x.scn","status":"pass"}]}')
	run "$MERGE" "$c" "$d" "$a" "$b"
	assert_success
	assert_output "scenario  6.1.0-28-cloud-amd64  6.12.48+deb13-cloud-amd64  6.12.48+deb13-cloud-amd64 (model)  7.2.11+deb14-cloud-amd64
x.scn     skip                  pass                       pass                               xfail

1 scenario on 4 kernels: 2 pass, 0 fail, 1 skip, 1 xfail, 0 xpass"
}

@test "merge-reports: an incomplete set of shards warns (1/3 and 3/3 came, 2/3 did not)" {
	run --separate-stderr "$MERGE" $R/model-1.json $R/model-3.json
	assert_success # the failing scenario is in the shard that is missing
	assert_equal "$stderr" "merge-reports: warning: model: incomplete: shard 2/3 missing (have 1/3, 3/3)"
	assert_output "scenario                   model
scn/01-shared-private.scn  pass
scn/03-bind.scn            pass
scn/04-unbindable.scn      pass

3 scenarios on 1 kernel: 3 pass, 0 fail, 0 skip, 0 xfail, 0 xpass"

	run --separate-stderr "$MERGE" $R/model-2.json $R/k61-1.json
	assert_failure 1
	assert_equal "$stderr" "merge-reports: warning: 6.1.0-28-cloud-amd64: incomplete: shard 2/2 missing (have 1/2)
merge-reports: warning: model: incomplete: shards 1/3, 3/3 missing (have 2/3)"
}

@test "merge-reports: one scenario twice for one kernel warns, naming both files" {
	run --separate-stderr "$MERGE" $R/model-whole.json $R/model-3.json
	assert_failure 1
	assert_equal "$stderr" "merge-reports: warning: model: incomplete: shards 1/3, 2/3 missing (have 3/3)
merge-reports: warning: model: scn/03-bind.scn has 2 results (reports/model-whole.json, reports/model-3.json)"
	assert_line "scn/03-bind.scn            pass"

	# the same shard given twice
	run --separate-stderr "$MERGE" $R/model-3.json $R/model-3.json $R/model-1.json $R/model-2.json
	assert_failure 1
	assert_equal "$stderr" "merge-reports: warning: model: shard 3/3 came 2 times (reports/model-3.json, reports/model-3.json)
merge-reports: warning: model: scn/03-bind.scn has 2 results (reports/model-3.json, reports/model-3.json)"

	# the same scenario on two kernels is no duplicate
	run --separate-stderr "$MERGE" $R/model-whole.json $R/k61-1.json $R/k61-2.json
	assert_equal "$stderr" ""
}

@test "merge-reports: two results that differ show both in the cell" {
	a=$(hand a.json '{"kernel":"6.1.0","shard":null,"scenarios":[{"path":"x.scn","status":"pass"},{"path":"y.scn","status":"pass"}]}')
	b=$(hand b.json '{"kernel":"6.1.0","shard":null,"scenarios":[{"path":"x.scn","status":"fail"}]}')
	run --separate-stderr "$MERGE" "$a" "$b"
	assert_failure 1
	assert_equal "$stderr" "merge-reports: warning: 6.1.0: x.scn has 2 results ($a, $b)"
	assert_output "scenario  6.1.0
x.scn     pass/fail
y.scn     pass

2 scenarios on 1 kernel: 2 pass, 1 fail, 0 skip, 0 xfail, 0 xpass"
}

@test "merge-reports: shards of different splits for one kernel warn" {
	a=$(hand a.json '{"kernel":"6.1.0","shard":"1/2","scenarios":[{"path":"x.scn","status":"pass"}]}')
	b=$(hand b.json '{"kernel":"6.1.0","shard":"2/3","scenarios":[{"path":"y.scn","status":"pass"}]}')
	run --separate-stderr "$MERGE" "$a" "$b"
	assert_success
	assert_equal "$stderr" "merge-reports: warning: 6.1.0: shards of different splits (1/2, 2/3): cannot tell whether all came"
}

@test "merge-reports: exit 1 for fail and for xpass, 0 for pass, skip and xfail" {
	for st in pass skip xfail fail xpass; do
		f=$(hand "$st.json" "{\"kernel\":\"6.1.0\",\"scenarios\":[{\"path\":\"x.scn\",\"status\":\"$st\"}]}")
		run "$MERGE" "$f"
		case $st in fail|xpass) assert_failure 1 ;; *) assert_success ;; esac
		assert_line "x.scn     $st"
	done
}

@test "merge-reports: --markdown prints a GitHub table, failures in bold, warnings under it" {
	run --separate-stderr "$MERGE" --markdown $R/model-1.json $R/model-2.json $R/k61-1.json $R/k61-2.json
	assert_failure 1
	assert_equal "$stderr" "merge-reports: warning: model: incomplete: shard 3/3 missing (have 1/3, 2/3)"
	assert_output "### nstest: scenarios by kernel

| scenario | 6.1.0-28-cloud-amd64 | model |
|---|---|---|
| \`scn/01-shared-private.scn\` | pass | pass |
| \`scn/02-slave.scn\` | pass | pass |
| \`scn/03-bind.scn\` | pass | - |
| \`scn/04-unbindable.scn\` | pass | pass |
| \`scn/05-wrong.scn\` | - | **fail** |

5 scenarios on 2 kernels: 7 pass, 1 fail, 0 skip, 0 xfail, 0 xpass, 2 missing

**Warnings**

- model: incomplete: shard 3/3 missing (have 1/3, 2/3)"
}

@test "merge-reports: a | in a path or kernel does not break the markdown table" {
	f=$(hand a.json '{"kernel":"6.1|x","scenarios":[{"path":"a|b.scn","status":"pass"}]}')
	run "$MERGE" --markdown "$f"
	assert_success
	assert_line '| scenario | 6.1\|x |'
	assert_line '| `a\|b.scn` | pass |'
}

@test "merge-reports: --junit merges JUnit reports into one suite per kernel" {
	run --separate-stderr "$MERGE" --junit "$BATS_TEST_TMPDIR/all.xml" \
		$R/model-{1,2,3}.xml $R/k61-{1,2}.xml
	assert_failure 1 # scn/05-wrong.scn failed on the model
	assert_output ""
	assert_equal "$stderr" "merge-reports: $BATS_TEST_TMPDIR/all.xml: 2 kernels, 9 tests, 1 failures, 0 errors, 0 skipped"
	x=$BATS_TEST_TMPDIR/all.xml
	run xmllint --noout "$x"
	assert_success
	run xmllint --xpath 'concat(/testsuites/@tests, " ", /testsuites/@failures, " ", count(//testsuite))' "$x"
	assert_output "9 1 2"
	run xmllint --xpath 'concat(//testsuite[1]/@name, "; ", //testsuite[1]/@tests, "; ",
		//testsuite[1]/properties/property[@name="kernel"]/@value, "; ",
		//testsuite[1]/properties/property[@name="shards"]/@value)' "$x"
	assert_output "nstest on 6.1.0-28-cloud-amd64; 4; 6.1.0-28-cloud-amd64; 1/2 2/2"
	run xmllint --xpath 'concat(//testsuite[2]/@name, "; ", //testsuite[2]/@tests, "; ",
		//testsuite[2]/@failures, "; ", //testsuite[2]/properties/property[@name="shards"]/@value)' "$x"
	assert_output "nstest on model; 5; 1; 1/3 2/3 3/3"
	# the test cases of the shards in path order, the failure kept whole
	run xmllint --xpath '//testsuite[2]/testcase/@file' "$x"
	assert_output ' file="scn/01-shared-private.scn"
 file="scn/02-slave.scn"
 file="scn/03-bind.scn"
 file="scn/04-unbindable.scn"
 file="scn/05-wrong.scn"'
	run xmllint --xpath 'string(//testcase[@file="scn/05-wrong.scn"]/failure/@type)' "$x"
	assert_output mismatch
}

@test "merge-reports: --junit checks the JUnit shards too; with JSON it also prints the table" {
	run --separate-stderr "$MERGE" --junit "$BATS_TEST_TMPDIR/all.xml" \
		$R/k61-1.xml $R/k61-1.json $R/k61-2.json
	assert_success
	assert_equal "$stderr" "merge-reports: warning: JUnit: 6.1.0-28-cloud-amd64: incomplete: shard 2/2 missing (have 1/2)
merge-reports: $BATS_TEST_TMPDIR/all.xml: 1 kernel, 2 tests, 0 failures, 0 errors, 0 skipped"
	assert_line --index 0 "scenario                   6.1.0-28-cloud-amd64"
	assert_line "4 scenarios on 1 kernel: 4 pass, 0 fail, 0 skip, 0 xfail, 0 xpass"
}

@test "merge-reports: a JUnit report without --junit, or --junit without one, is a usage error" {
	run --separate-stderr "$MERGE" $R/model-1.json $R/model-1.xml
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "merge-reports: error: reports/model-1.xml is a JUnit report; --junit OUT.xml merges those"
	run --separate-stderr "$MERGE" --junit "$BATS_TEST_TMPDIR/o.xml" $R/model-1.json
	assert_failure 2
	assert_equal "$stderr" "merge-reports: error: --junit $BATS_TEST_TMPDIR/o.xml: no JUnit report among the files"
	[[ ! -e $BATS_TEST_TMPDIR/o.xml ]]
	run "$MERGE"
	assert_failure 2
}

# bad FILE MESSAGE: merge-reports refuses FILE (with good reports around
# it), prints nothing on stdout, and says MESSAGE; exit 2.
bad() {
	run --separate-stderr "$MERGE" --junit "$BATS_TEST_TMPDIR/o.xml" $R/model-1.json "$1" $R/model-1.xml
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "merge-reports: error: $2"
}

@test "merge-reports: unreadable or malformed reports are exit 2, naming the file" {
	bad "$BATS_TEST_TMPDIR/nonesuch.json" "$BATS_TEST_TMPDIR/nonesuch.json: cannot read: No such file or directory"
	bad "$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR: cannot read: Is a directory"
	f=$(hand empty.json '')
	bad "$f" "$f: neither a JSON nor a JUnit report (empty)"
	f=$(hand text.json 'PASS  scn/01-shared-private.scn')
	bad "$f" "$f: neither a JSON nor a JUnit report"
	# a real report cut short, as by a job that was killed
	head -c 120 $R/model-2.json >"$BATS_TEST_TMPDIR/cut.json"
	f=$BATS_TEST_TMPDIR/cut.json
	run --separate-stderr "$MERGE" $R/model-1.json "$f"
	assert_failure 2
	assert_output ""
	# the rest is Python's json module's own words
	[[ $stderr == "merge-reports: error: $f: not valid JSON: "* ]] || fail "$stderr"
	f=$(hand list.json '[1, 2]')
	bad "$f" "$f: not an nstest JSON report (no \"scenarios\" list)"
	f=$(hand nokernel.json '{"scenarios":[]}')
	bad "$f" "$f: not an nstest JSON report (no \"kernel\" string)"
	f=$(hand status.json '{"kernel":"6.1","scenarios":[{"path":"a.scn","status":"pass"},{"path":"b.scn","status":"PASS"}]}')
	bad "$f" "$f: scenario 2: needs a \"path\" string and a \"status\" of pass, fail, skip, xfail, xpass"
	f=$(hand nopath.json '{"kernel":"6.1","scenarios":[{"status":"pass"}]}')
	bad "$f" "$f: scenario 1: needs a \"path\" string and a \"status\" of pass, fail, skip, xfail, xpass"
	for shard in '"3/2"' '"0/2"' '"1/2/3"' '2' '"x"'; do
		f=$(hand shard.json "{\"kernel\":\"6.1\",\"shard\":$shard,\"scenarios\":[]}")
		bad "$f" "$f: \"shard\" must be \"K/N\" with 1 <= K <= N, or null, not $shard"
	done
	head -c 200 $R/model-2.xml >"$BATS_TEST_TMPDIR/cut.xml"
	f=$BATS_TEST_TMPDIR/cut.xml
	run --separate-stderr "$MERGE" --junit "$BATS_TEST_TMPDIR/o.xml" "$f"
	assert_failure 2
	[[ $stderr == "merge-reports: error: $f: not well-formed XML: "* ]] || fail "$stderr"
	f=$(hand html.xml '<html><body/></html>')
	bad "$f" "$f: not a JUnit report (its root is <html>)"
	f=$(hand shard.xml '<testsuites><testsuite><properties><property name="shard" value="4/3"/></properties></testsuite></testsuites>')
	bad "$f" "$f: property shard must be K/N with 1 <= K <= N, not '4/3'"
	[[ ! -e $BATS_TEST_TMPDIR/o.xml ]] || fail "a merged file was written despite a bad input"
}

@test "merge-reports: a shard that ran no scenario (nstest run --allow-empty-shard) warns, in JSON and JUnit" {
	# one scenario in two shards: 2/2 is empty, which nstest allows only when told
	for k in 1 2; do
		for f in json junit; do
			"$NSTEST" run --backend model --format "$f" --shard "$k/2" --allow-empty-shard \
				--filter '01-*' scn >"$BATS_TEST_TMPDIR/e$k.${f/junit/xml}" 2>/dev/null
		done
	done
	run --separate-stderr "$MERGE" "$BATS_TEST_TMPDIR"/e1.json "$BATS_TEST_TMPDIR"/e2.json
	assert_success
	assert_equal "$stderr" "merge-reports: warning: model: shard 2/2 ran no scenario ($BATS_TEST_TMPDIR/e2.json): more shards than scenarios?"
	assert_line "scn/01-shared-private.scn  pass"

	run --separate-stderr "$MERGE" --junit "$BATS_TEST_TMPDIR/all.xml" "$BATS_TEST_TMPDIR"/e1.xml "$BATS_TEST_TMPDIR"/e2.xml
	assert_success
	assert_equal "$stderr" "merge-reports: warning: JUnit: model: shard 2/2 ran no scenario ($BATS_TEST_TMPDIR/e2.xml): more shards than scenarios?
merge-reports: $BATS_TEST_TMPDIR/all.xml: 1 kernel, 1 tests, 0 failures, 0 errors, 0 skipped"

	# shards that all ran something: no warning
	run --separate-stderr "$MERGE" $R/model-1.json $R/model-2.json $R/model-3.json
	assert_equal "$stderr" ""
}

@test "merge-reports: ci/kernel-matrix's matrix.json among the reports is passed over; alone it is exit 2" {
	f=$(hand matrix.json '{"format": "nstest kernel-matrix run", "command": ["ci/kernel-matrix"], "kernels": []}')
	run --separate-stderr "$MERGE" $R/k61-1.json "$f" $R/k61-2.json
	assert_success
	assert_equal "$stderr" ""
	assert_line "4 scenarios on 1 kernel: 4 pass, 0 fail, 0 skip, 0 xfail, 0 xpass"
	run --separate-stderr "$MERGE" "$f"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "merge-reports: error: no report among the files, only ci/kernel-matrix's matrix.json"
	# another format is no pass: it is read as a report, and is not one
	f=$(hand other.json '{"format": "nstest kernel-matrix run 2", "kernels": []}')
	bad "$f" "$f: not an nstest JSON report (no \"scenarios\" list)"
}
