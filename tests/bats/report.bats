#!/usr/bin/env bats
# tests/bats/report.bats - the report formats of `nstest run`: human (with
# its progress line and colour on a terminal), TAP (read by prove), JUnit
# XML (read by xmllint, and checked against a schema) and JSON (read by
# python3), each for a passing and a failing run, each with skips, xfail
# and xpass, and each the same for -j 2 as for -j 1.
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	nstest_setup
	KERNEL=$(uname -r)
	SKIP_REASON="needs kernel >= 99.0.0, this is $KERNEL"
}

# ---- scenarios of every outcome ---------------------------------------------

pass_scn() {
	write_scn "${1:-pass}" <<'SCN'
    # mkdir /a
    # touch /a/f
    # ls /a
    f
SCN
}

fail_scn() {
	write_scn "${1:-fail}" <<'SCN'
    # mkdir /a
    # touch /a/f
    # ls /a
    g
SCN
}

skip_scn() {
	write_scn "${1:-future}" <<'SCN'
kernel: >= 99.0

    # mkdir /a
SCN
}

xfail_scn() {
	write_scn known-bug <<'SCN'
xfail: *: lists nothing (example reference)

    # ls /
    b
SCN
}

xpass_scn() {
	write_scn fixed-bug <<'SCN'
xfail: *: was broken once (example reference)

    # mkdir /a
SCN
}

# The human report of a failing fail_scn at $1, without colour.
fail_text() {
	printf '%s\n' "$1:3: # ls /a" \
		"    --- expected" "    +++ actual" "    @@ -1,1 +1,1 @@" "    -g" "    +f" \
		"FAIL  $1"
}

# ---- helpers ----------------------------------------------------------------

# tty_run CMD...: run CMD with its stdout on a pseudo-terminal, through
# script(1); the terminal's CRLF line ends come back as LF.
tty_run() {
	local cmd
	printf -v cmd '%q ' "$@"
	run script -qec "$cmd" /dev/null </dev/null
	output=${output//$'\r\n'/$'\n'}
	output=${output%$'\r'} # run took the last LF, not its CR
	mapfile -t lines <<<"$output"
}

# Take the progress lines "[n/N] ..." out of $output (and $lines), each
# with the "\r ESC[K" that erases it.
strip_progress() {
	output=$(perl -pe 's{\[\d+/\d+\][^\r\n]*\r\e\[K}{}g' <<<"$output")
	mapfile -t lines <<<"$output"
}

# Times, the timestamp and the version vary from run to run.
normalize() {
	sed -E -e 's/ time="[0-9]+\.[0-9]{3}"/ time="T"/g' \
		-e 's/ timestamp="[^"]*"/ timestamp="TS"/' \
		-e '/<property name="nstest" /d' \
		-e 's/"seconds":[0-9]+\.[0-9]{3}/"seconds":S/g' \
		-e 's/^\{"nstest":("[^"]*"|null),/{"nstest":V,/'
}

need_xmllint() {
	command -v xmllint >/dev/null ||
		skip "xmllint is not installed (Debian package libxml2-utils)"
}

need_python3() {
	command -v python3 >/dev/null ||
		skip "python3 is not installed (Debian package python3)"
}

# ---- human ------------------------------------------------------------------

@test "human: not on a terminal there is neither progress line nor colour" {
	p=$(pass_scn)
	f=$(fail_scn)
	run "$NSTEST" run "$p" "$f"
	assert_failure 1
	assert_output "$HEAD
PASS  $p
$(fail_text "$f")
1 passed, 1 failed, 0 skipped"
}

@test "human: on a terminal a progress line [n/N] shows while running and is erased" {
	p=$(pass_scn)
	f=$(fail_scn)
	NO_COLOR=1 tty_run "$NSTEST" run "$p" "$f"
	assert_failure 1
	[[ $output == *"[1/2] $p"* ]] || fail "no [1/2] progress line naming $p in: $output"
	[[ $output == *"[2/2] $f"* ]] || fail "no [2/2] progress line naming $f in: $output"
	# Every progress line is erased by "\r ESC[K" before the next output,
	# and then the report reads exactly as it does on a file.
	strip_progress
	assert_output "$HEAD
PASS  $p
$(fail_text "$f")
1 passed, 1 failed, 0 skipped"
}

@test "human: on a terminal verdicts and diff lines are coloured" {
	p=$(pass_scn)
	f=$(fail_scn)
	s=$(skip_scn)
	tty_run "$NSTEST" run "$p" "$f" "$s"
	assert_failure 1
	strip_progress
	e=$'\e'
	assert_output "$HEAD
${e}[32mPASS ${e}[m $p
$f:3: # ls /a
    ${e}[1m--- expected${e}[m
    ${e}[1m+++ actual${e}[m
    ${e}[36m@@ -1,1 +1,1 @@${e}[m
    ${e}[31m-g${e}[m
    ${e}[32m+f${e}[m
${e}[31mFAIL ${e}[m $f
${e}[33mSKIP ${e}[m $s ($SKIP_REASON)
1 passed, 1 failed, 1 skipped"
}

@test "human: XFAIL is yellow, XPASS red, and both are counted in the closing line" {
	x=$(xfail_scn)
	xp=$(xpass_scn)
	tty_run "$NSTEST" run "$x" "$xp"
	assert_failure 1
	strip_progress
	e=$'\e'
	assert_line "${e}[33mXFAIL${e}[m $x (known kernel deviation: lists nothing (example reference))"
	assert_line "${e}[31mXPASS${e}[m $xp (passed although marked xfail at line 1: was broken once (example reference))"
	assert_line --index -1 "0 passed, 0 failed, 0 skipped, 1 xfailed, 1 xpassed"
}

@test "human: NO_COLOR turns colour off on a terminal, not the progress line" {
	f=$(fail_scn)
	NO_COLOR=1 tty_run "$NSTEST" run "$f"
	assert_failure 1
	[[ $output == *"[1/1]"* ]] || fail "no progress line in: $output"
	[[ $output != *$'\e['[0-9]*m* ]] || fail "colour despite NO_COLOR: $output"
}

# ---- TAP --------------------------------------------------------------------

@test "tap: a passing run: version, plan first, ok lines, SKIP with its reason" {
	p=$(pass_scn)
	s=$(skip_scn)
	run --separate-stderr "$NSTEST" run --format tap "$p" "$s"
	assert_success
	assert_equal "$stderr" ""
	assert_output "TAP version 13
1..2
# $HEAD
ok 1 - $p
ok 2 - $s # SKIP $SKIP_REASON
# 1 passed, 0 failed, 1 skipped"
}

@test "tap: a failing run: the diagnostics as '#' lines right before 'not ok'" {
	p=$(pass_scn)
	f=$(fail_scn)
	run --separate-stderr "$NSTEST" run --format tap "$f" "$p"
	assert_failure 1
	assert_output "TAP version 13
1..2
# $HEAD
# $f:3: # ls /a
#     --- expected
#     +++ actual
#     @@ -1,1 +1,1 @@
#     -g
#     +f
not ok 1 - $f
ok 2 - $p
# 1 passed, 1 failed, 0 skipped"
}

@test "tap: xfail is 'not ok # TODO reason', xpass a plain 'not ok' with a diagnostic" {
	x=$(xfail_scn)
	xp=$(xpass_scn)
	run --separate-stderr "$NSTEST" run --format tap "$x" "$xp"
	assert_failure 1
	assert_output "TAP version 13
1..2
# $HEAD
# $x:3: # ls /
#     --- expected
#     +++ actual
#     @@ -1,1 +0,0 @@
#     -b
not ok 1 - $x # TODO known kernel deviation: lists nothing (example reference)
# XPASS: passed although marked xfail at line 1: was broken once (example reference)
not ok 2 - $xp
# 0 passed, 0 failed, 0 skipped, 1 xfailed, 1 xpassed"
}

@test "tap: a '#' in a file name is escaped, so it starts no directive" {
	p=$(pass_scn 'odd#name')
	run "$NSTEST" run --format tap "$p"
	assert_success
	assert_line --index 3 "ok 1 - ${p//#/\\#}"
}

@test "tap: -x cuts the run short with 'Bail out!', as the plan promised more" {
	f=$(fail_scn 1-fail)
	p=$(pass_scn 2-pass)
	run "$NSTEST" run --format tap -x "$f" "$p"
	assert_failure 1
	assert_line --index 1 "1..2"
	assert_line --index -1 "Bail out! stopped after the first failure; 1 of 2 scenarios not run"
	refute_line --partial "ok 2"
}

@test "tap: prove reads nstest as a TAP source: pass, skip and xfail give Result: PASS" {
	p=$(pass_scn)
	s=$(skip_scn)
	x=$(xfail_scn)
	# --exec splits its value on blanks: $NSTEST must not contain any.
	run prove --exec "$NSTEST run --format tap" "$p" "$s" "$x"
	assert_success
	assert_line "All tests successful."
	assert_line "Result: PASS"
}

@test "tap: prove reads a failure and an xpass as failures: Result: FAIL" {
	p=$(pass_scn)
	f=$(fail_scn)
	xp=$(xpass_scn)
	run prove --exec "$NSTEST run --format tap" "$p"
	assert_success
	for scn in "$f" "$xp"; do
		run prove --exec "$NSTEST run --format tap" "$scn"
		assert_failure
		assert_line --regexp "^$scn \(Wstat: 256 .*Tests: 1 Failed: 1\)\$"
		assert_line "Result: FAIL"
	done
}

@test "tap: prove reports the bail-out of -x" {
	f=$(fail_scn 1-fail)
	p=$(pass_scn 2-pass)
	# prove appends its source, $p, to the command: nstest -x runs $f, $p.
	run prove --exec "$NSTEST run --format tap -x $f" "$p"
	assert_failure
	assert_line --partial "Further testing stopped: stopped after the first failure"
	assert_line "Result: FAIL"
}

@test "tap: a saved report passes Debian 12's prove as a file (version 13)" {
	p=$(pass_scn)
	f=$(fail_scn)
	"$NSTEST" run --format tap --output "$BATS_TEST_TMPDIR/pass.tap" "$p"
	run prove -e cat "$BATS_TEST_TMPDIR/pass.tap"
	assert_success
	assert_line "Result: PASS"
	run head -1 "$BATS_TEST_TMPDIR/pass.tap"
	assert_output "TAP version 13"
	run "$NSTEST" run --format tap --output "$BATS_TEST_TMPDIR/fail.tap" "$p" "$f"
	assert_failure 1
	run prove -e cat "$BATS_TEST_TMPDIR/fail.tap"
	assert_failure
	assert_line "Result: FAIL"
	# whoever runs it: no environment changes the version
	HARNESS_ACTIVE=1 HARNESS_VERSION=3.48 run "$NSTEST" run --format tap "$p"
	assert_line --index 0 "TAP version 13"
}

# ---- JUnit ------------------------------------------------------------------

@test "junit: a passing run: suite counts, properties (backend too), one testcase per scenario" {
	p=$(pass_scn)
	s=$(skip_scn)
	run --separate-stderr "$NSTEST" run --format junit "$p" "$s"
	assert_success
	assert_equal "$stderr" ""
	assert_line --regexp '^  <testsuite .* time="[0-9]+\.[0-9]{3}" timestamp="[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}" '
	output=$(normalize <<<"$output")
	assert_output "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<testsuites name=\"nstest\" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"T\">
  <testsuite name=\"nstest on $KERNEL\" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"T\" timestamp=\"TS\" hostname=\"$(uname -n)\">
    <properties>
      <property name=\"kernel\" value=\"$KERNEL\"/>
      <property name=\"devices\" value=\"tmpfs\"/>
      <property name=\"backend\" value=\"kernel\"/>
      <property name=\"rootless\" value=\"false\"/>
    </properties>
    <testcase classname=\"nstest.scn\" name=\"pass\" file=\"$p\" time=\"T\"/>
    <testcase classname=\"nstest.scn\" name=\"future\" file=\"$s\" time=\"T\">
      <skipped message=\"needs kernel &gt;= 99.0.0, this is $KERNEL\"/>
    </testcase>
  </testsuite>
</testsuites>"
}

@test "junit: a failing run: <failure> with a message, a type and the diff as its text" {
	f=$(fail_scn)
	run "$NSTEST" run --format junit --devices=tmpfs "$f"
	assert_failure 1
	output=$(normalize <<<"$output")
	assert_output "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<testsuites name=\"nstest\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"T\">
  <testsuite name=\"nstest on $KERNEL\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"T\" timestamp=\"TS\" hostname=\"$(uname -n)\">
    <properties>
      <property name=\"kernel\" value=\"$KERNEL\"/>
      <property name=\"devices\" value=\"tmpfs\"/>
      <property name=\"backend\" value=\"kernel\"/>
      <property name=\"rootless\" value=\"false\"/>
    </properties>
    <testcase classname=\"nstest.scn\" name=\"fail\" file=\"$f\" time=\"T\">
      <failure message=\"1 step did not match\" type=\"mismatch\">$f:3: # ls /a
    --- expected
    +++ actual
    @@ -1,1 +1,1 @@
    -g
    +f
</failure>
    </testcase>
  </testsuite>
</testsuites>"
}

@test "junit: xfail is skipped as an expected failure, xpass a failure; XML escaped" {
	x=$(xfail_scn)
	xp=$(xpass_scn)
	m=$(write_scn markup <<'SCN'
    # ls /
    <a href="x">'&'</a>
SCN
	)
	run "$NSTEST" run --format junit "$x" "$xp" "$m"
	assert_failure 1
	assert_line --index 1 --regexp '^<testsuites name="nstest" tests="3" failures="2" errors="0" skipped="1" '
	assert_line '      <skipped message="expected failure: known kernel deviation: lists nothing (example reference)"/>'
	assert_line "      <system-out>$x:3: # ls /"
	assert_line '      <failure message="unexpectedly passed: passed although marked xfail at line 1: was broken once (example reference)" type="xpass"/>'
	assert_line '    -&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;'
}

@test "junit: xmllint finds it well-formed and reads the counts" {
	need_xmllint
	write_scn tree/a-pass <<<"    # mkdir /a" >/dev/null
	write_scn tree/b-fail <<<$'    # ls /\n    nothing' >/dev/null
	write_scn tree/c-skip <<<$'kernel: >= 99.0\n\n    # mkdir /a' >/dev/null
	write_scn tree/sub/d-markup <<<$'    # ls /\n    <&>"\'' >/dev/null
	"$NSTEST" run --format junit "$SCN_DIR/tree" >"$BATS_TEST_TMPDIR/r.xml" || true
	run xmllint --noout "$BATS_TEST_TMPDIR/r.xml"
	assert_success
	assert_output ""
	xp() { xmllint --xpath "$1" "$BATS_TEST_TMPDIR/r.xml"; }
	assert_equal "$(xp 'string(/testsuites/testsuite/@tests)')" 4
	assert_equal "$(xp 'string(/testsuites/testsuite/@failures)')" 2
	assert_equal "$(xp 'string(/testsuites/testsuite/@skipped)')" 1
	assert_equal "$(xp 'count(//testcase)')" 4
	assert_equal "$(xp 'count(//testcase/failure)')" 2
	assert_equal "$(xp 'string(//testcase[@name="c-skip"]/skipped/@message)')" "$SKIP_REASON"
	assert_equal "$(xp 'string(//testcase[@name="d-markup"]/@classname)')" nstest.sub
	assert_equal "$(xp 'string(//property[@name="kernel"]/@value)')" "$KERNEL"
	assert_equal "$(xp 'string(//property[@name="devices"]/@value)')" tmpfs
	assert_equal "$(xp 'string(//property[@name="backend"]/@value)')" kernel
	run xp 'string(//testcase[@name="d-markup"]/failure)'
	assert_line "    -<&>\"'"
}

@test "junit: the report validates against a JUnit schema" {
	need_xmllint
	p=$(pass_scn)
	f=$(fail_scn)
	s=$(skip_scn)
	x=$(xfail_scn)
	xp=$(xpass_scn)
	"$NSTEST" run --format junit "$p" "$f" "$s" "$x" "$xp" >"$BATS_TEST_TMPDIR/r.xml" || true
	# The shape GitLab, Jenkins and GitHub reporters read (after Jenkins'
	# junit-10.xsd), made strict about what nstest writes.
	cat >"$BATS_TEST_TMPDIR/junit.xsd" <<'XSD'
<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:simpleType name="seconds">
    <xs:restriction base="xs:decimal"><xs:minInclusive value="0"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="timestamp">
    <xs:restriction base="xs:dateTime">
      <xs:pattern value="[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:complexType name="result">
    <xs:simpleContent>
      <xs:extension base="xs:string">
        <xs:attribute name="message" type="xs:string" use="required"/>
        <xs:attribute name="type" type="xs:string"/>
      </xs:extension>
    </xs:simpleContent>
  </xs:complexType>
  <xs:attributeGroup name="counts">
    <xs:attribute name="name" type="xs:string" use="required"/>
    <xs:attribute name="tests" type="xs:nonNegativeInteger" use="required"/>
    <xs:attribute name="failures" type="xs:nonNegativeInteger" use="required"/>
    <xs:attribute name="errors" type="xs:nonNegativeInteger" use="required"/>
    <xs:attribute name="skipped" type="xs:nonNegativeInteger" use="required"/>
    <xs:attribute name="time" type="seconds" use="required"/>
  </xs:attributeGroup>
  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="testsuite" maxOccurs="unbounded">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="properties">
                <xs:complexType>
                  <xs:sequence>
                    <xs:element name="property" maxOccurs="unbounded">
                      <xs:complexType>
                        <xs:attribute name="name" type="xs:string" use="required"/>
                        <xs:attribute name="value" type="xs:string" use="required"/>
                      </xs:complexType>
                    </xs:element>
                  </xs:sequence>
                </xs:complexType>
              </xs:element>
              <xs:element name="testcase" minOccurs="0" maxOccurs="unbounded">
                <xs:complexType>
                  <xs:sequence>
                    <xs:choice minOccurs="0">
                      <xs:element name="failure" type="result"/>
                      <xs:element name="skipped" type="result"/>
                    </xs:choice>
                    <xs:element name="system-out" type="xs:string" minOccurs="0"/>
                  </xs:sequence>
                  <xs:attribute name="classname" type="xs:string" use="required"/>
                  <xs:attribute name="name" type="xs:string" use="required"/>
                  <xs:attribute name="file" type="xs:string" use="required"/>
                  <xs:attribute name="time" type="seconds" use="required"/>
                </xs:complexType>
              </xs:element>
            </xs:sequence>
            <xs:attributeGroup ref="counts"/>
            <xs:attribute name="timestamp" type="timestamp" use="required"/>
            <xs:attribute name="hostname" type="xs:string" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attributeGroup ref="counts"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
XSD
	run xmllint --noout --schema "$BATS_TEST_TMPDIR/junit.xsd" "$BATS_TEST_TMPDIR/r.xml"
	assert_success
	assert_output "$BATS_TEST_TMPDIR/r.xml validates"
}

# ---- JSON -------------------------------------------------------------------

# check_json FILE PYTHON: run the assertions in PYTHON with `doc` the
# parsed report; each failing assert names itself.
check_json() {
	run python3 -c "
import json, sys
doc = json.load(open(sys.argv[1]))
$2
print('checked')" "$1"
	assert_success
	assert_output checked
}

@test "json: a passing run is one JSON document with kernel, backend, steps and summary" {
	need_python3
	p=$(pass_scn)
	s=$(skip_scn)
	"$NSTEST" run --format json "$p" "$s" >"$BATS_TEST_TMPDIR/r.json"
	run python3 -m json.tool "$BATS_TEST_TMPDIR/r.json"
	assert_success
	KERNEL=$KERNEL P=$p S=$s check_json "$BATS_TEST_TMPDIR/r.json" "
import os
k, p, s = os.environ['KERNEL'], os.environ['P'], os.environ['S']
assert doc['kernel'] == k, doc['kernel']
assert doc['devices'] == 'tmpfs'
assert doc['backend'] == 'kernel', doc.get('backend')
assert doc['nstest'] is None or isinstance(doc['nstest'], str)
assert [x['path'] for x in doc['scenarios']] == [p, s]
a, b = doc['scenarios']
assert (a['name'], a['status'], a['reason'], a['kernel'], a['devices']) == ('pass', 'pass', None, k, 'tmpfs'), a
assert isinstance(a['seconds'], float) and a['seconds'] >= 0
assert [(t['line'], t['terminal'], t['command'], t['ran'], t['ok'], t['error'], t['diff'])
        for t in a['steps']] == [(1, '', 'mkdir /a', True, True, None, None),
                                 (2, '', 'touch /a/f', True, True, None, None),
                                 (3, '', 'ls /a', True, True, None, None)], a['steps']
assert a['steps'][2]['output'] == 'f\n'
assert (b['status'], b['reason']) == ('skip', 'needs kernel >= 99.0.0, this is ' + k), b
assert [(t['ran'], t['output']) for t in b['steps']] == [(False, None)], b['steps']
assert doc['summary'] == {'passed': 1, 'failed': 0, 'skipped': 1, 'xfailed': 0, 'xpassed': 0}
"
}

@test "json: a failing run: status, the diff, and an unexpected error by name and call" {
	need_python3
	f=$(fail_scn)
	e=$(write_scn error <<'SCN'
    sh1# mkdir /a
    sh1# mount --bind /nowhere /a
SCN
	)
	run "$NSTEST" run --format json "$f" "$e"
	assert_failure 1
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/r.json"
	check_json "$BATS_TEST_TMPDIR/r.json" "
f, e = doc['scenarios']
assert (f['status'], f['reason']) == ('fail', None), f
t = f['steps'][2]
assert (t['ran'], t['ok'], t['output']) == (True, False, 'f\n'), t
assert t['diff'] == '--- expected\n+++ actual\n@@ -1,1 +1,1 @@\n-g\n+f\n', t['diff']
t = e['steps'][1]
assert (t['terminal'], t['command'], t['ok']) == ('sh1', 'mount --bind /nowhere /a', False), t
assert t['error'] == {'errno': 2, 'name': 'ENOENT', 'syscall': 'mount'}, t['error']
assert t['output'] == 'mount: ENOENT (No such file or directory)\n', t['output']
assert doc['summary'] == {'passed': 0, 'failed': 2, 'skipped': 0, 'xfailed': 0, 'xpassed': 0}
"
}

@test "json: xfail and xpass with their reasons; strings escaped" {
	need_python3
	x=$(xfail_scn)
	xp=$(xpass_scn)
	# mkdir prints nothing, so the odd line is all the diff has; under an
	# ls it would be read as a listing, whose tabs are columns
	q=$(write_scn quotes <<'SCN'
    # mkdir /d
    "x" \ é	y
SCN
	)
	"$NSTEST" run --format json "$x" "$xp" "$q" >"$BATS_TEST_TMPDIR/r.json" || true
	check_json "$BATS_TEST_TMPDIR/r.json" "
x, xp, q = doc['scenarios']
assert (x['status'], x['reason']) == ('xfail', 'known kernel deviation: lists nothing (example reference)'), x
assert (xp['status'], xp['reason']) == ('xpass', 'passed although marked xfail at line 1: was broken once (example reference)'), xp
assert q['steps'][0]['diff'].endswith('-\"x\" \\\\ \u00e9\ty\n'), q['steps'][0]['diff']
assert doc['summary'] == {'passed': 0, 'failed': 1, 'skipped': 0, 'xfailed': 1, 'xpassed': 1}
"
}

# ---- the same report for any -j ----------------------------------------------

@test "-j 2 gives the same report as -j 1 in every format" {
	write_scn tree/a-pass <<<$'    # mkdir /a\n    # ls /\n    a' >/dev/null
	write_scn tree/b-fail <<<$'    # sleep 0.3\n    # ls /\n    nothing' >/dev/null
	write_scn tree/c-skip <<<$'kernel: >= 99.0\n\n    # mkdir /a' >/dev/null
	write_scn tree/d-pass <<<$'    # mkdir /d' >/dev/null
	write_scn tree/e-fail <<<$'    # ls /\n    nothing' >/dev/null
	for format in human tap junit json; do
		run "$NSTEST" run --format "$format" -j 1 "$SCN_DIR/tree"
		assert_failure 1
		one=$(normalize <<<"$output")
		run "$NSTEST" run --format "$format" -j 2 "$SCN_DIR/tree"
		assert_failure 1
		two=$(normalize <<<"$output")
		[[ $one == "$two" ]] || fail "--format $format: -j 2 differs from -j 1:
$(diff <(echo "$one") <(echo "$two"))"
		[[ $one == *a-pass*b-fail*c-skip*d-pass*e-fail* ]] || fail "--format $format: not in list order"
	done
}

# KTAP version 1 (Documentation/dev-tools/ktap.rst): a scenario is a
# test, its steps the subtests, indented two spaces from the nested
# version line to before the parent's result; a failing step's diff in
# diagnostic lines right before its result; SKIP and XFAIL as
# directives; a '#' of a prompt escaped so that it starts no directive.
@test "report: --format ktap nests each scenario's steps as subtests, as ktap.rst lays them out" {
	pass=$(write_scn pass <<'SCN'
    # mkdir /a
    # ls /
    a
SCN
	)
	fail=$(write_scn fail <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
	)
	skip=$(write_scn skip <<'SCN'
kernel: >= 99.0

    # mkdir /a
SCN
	)
	run "$NSTEST" run --format ktap "$pass" "$fail" "$skip"
	assert_failure 1
	cat >"$BATS_TEST_TMPDIR/check.py" <<'PY'
import re, sys
lines = sys.stdin.read().splitlines()
assert lines[0] == "KTAP version 1", lines[0]
assert lines[2] == "1..3", lines[2]
def block(start):
    # a nested test: version, name, plan, results; returns (results, end)
    assert lines[start] == "  KTAP version 1", lines[start]
    assert lines[start + 1].startswith("  # Subtest: "), lines[start + 1]
    m = re.fullmatch(r"  1\.\.(\d+)", lines[start + 2]); assert m, lines[start + 2]
    n, i, results = int(m.group(1)), start + 3, []
    while lines[i].startswith("  "):
        r = re.fullmatch(r"  (not )?ok (\d+) (.*)", lines[i])
        if r:
            results.append((r.group(1) is None, int(r.group(2)), r.group(3)))
        else:
            assert lines[i].startswith("  #"), lines[i]
        i += 1
    assert [k for _, k, _ in results] == list(range(1, n + 1)), results
    return results, i
res, i = block(3)
assert all(ok for ok, _, _ in res) and res[0][2] == r"line 1: \# mkdir /a", res
assert lines[i] == "ok 1 " + sys.argv[1], lines[i]
res, i = block(i + 1)
assert [ok for ok, _, _ in res] == [True, False], res
assert "  # -b" in lines and "  # +a" in lines
assert lines[i] == "not ok 2 " + sys.argv[2], lines[i]
assert re.fullmatch(r"ok 3 .*/skip\.scn # SKIP .*99\.0.*", lines[i + 1]), lines[i + 1]
assert lines[-1] == "# 1 passed, 1 failed, 1 skipped", lines[-1]
PY
	python3 "$BATS_TEST_TMPDIR/check.py" "$pass" "$fail" <<<"$output"
}

# prove shows a test's standard error and keeps its '#' lines on standard
# output for -v: a TAP report on standard output writes each failure's
# diagnostics to both, so that a harness shows the diff by default.
@test "report: TAP on standard output puts each failure's diff on stderr too; prove shows it without -v" {
	fail=$(write_scn fail <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
	)
	run --separate-stderr "$NSTEST" run --format tap "$fail"
	assert_failure 1
	assert_line '#     -b'
	[[ $stderr == *'#     -b'*'#     +a'* ]] || fail "stderr: $stderr"
	run --separate-stderr "$NSTEST" run --format tap --output "$BATS_TEST_TMPDIR/r.tap" "$fail"
	assert_failure 1
	[[ $stderr != *'#     -b'* ]] || fail "a report to a file keeps its diff there: $stderr"
	grep -qx '#     -b' "$BATS_TEST_TMPDIR/r.tap"
	printf '#!/bin/sh\nexec "%s" run --format tap "%s"\n' "$NSTEST" "$fail" >"$BATS_TEST_TMPDIR/nstest.t"
	chmod +x "$BATS_TEST_TMPDIR/nstest.t"
	run prove "$BATS_TEST_TMPDIR/nstest.t"
	assert_failure
	assert_line '#     +a'
}

@test "report: each JUnit suite is named with its kernel, or the model, for mergers that key suites by name" {
	pass=$(write_scn pass <<'SCN'
    # mkdir /a
SCN
	)
	run "$NSTEST" run --format junit "$pass"
	assert_success
	assert_line --regexp "^  <testsuite name=\"nstest on $(uname -r)\" "
	run "$NSTEST" run --backend model --format junit "$pass"
	assert_success
	assert_line --regexp '^  <testsuite name="nstest on the model" '
}
