#!/usr/bin/env bats
# tests/bats/bad.bats - the catalogue of malformed scenarios in tests/bad/.
#
# Each tests/bad/NAME.scn is a scenario nstest must refuse, and NAME.err
# holds what `nstest lint` must print for it, exactly: one line per error
# (most entries have one), with the path as tests/bad/NAME.scn (so lint
# runs from the top of the repo).
# Inputs that are too big to commit (a 1 MiB line, 100k lines, 64 MiB)
# are generated here at test time.
#
# Adding a case: write NAME.scn and NAME.err, and add a `@test` line
# below; the completeness test fails until both are done.

bats_require_minimum_version 1.5.0
load helpers

# Entries whose .err states what nstest should say but does not yet, each
# with the reason; the test is skipped, not failed, and names the bug.
declare -gA KNOWN_BUG=(
)

# lint_bad NAME: lint tests/bad/NAME.scn and compare with NAME.err.
lint_bad() {
	local name=$1 want
	[[ -f $NSTEST_ROOT/tests/bad/$name.scn ]] || fail "tests/bad/$name.scn is missing"
	[[ -f $NSTEST_ROOT/tests/bad/$name.err ]] || fail "tests/bad/$name.err is missing"
	want=$(<"$NSTEST_ROOT/tests/bad/$name.err")
	cd "$NSTEST_ROOT"
	run --separate-stderr "$NSTEST" lint "tests/bad/$name.scn"
	if [[ -n ${KNOWN_BUG[$name]-} && $stderr != "$want" ]]; then
		skip "known bug: ${KNOWN_BUG[$name]}; nstest says (exit $status): ${stderr:-nothing}"
	fi
	assert_equal "$stderr" "$want"
	assert_equal "$status" 2
	# a refused file parses to nothing: no "parsed" line
	assert_equal "$output" ""
}

@test "bad: empty file" { lint_bad empty; }
@test "bad: binary file (committed)" { lint_bad binary; }
@test "bad: output line before any command" { lint_bad output-before-command; }
@test "bad: unknown command" { lint_bad unknown-command; }
@test "bad: unknown filter" { lint_bad unknown-filter; }
@test "bad: unbalanced single quote" { lint_bad unbalanced-single-quote; }
@test "bad: unbalanced double quote" { lint_bad unbalanced-double-quote; }
@test "bad: unknown directive" { lint_bad unknown-directive; }
@test "bad: a misspelt directive: did you mean" { lint_bad directive-typo; }
@test "bad: a misspelt requirement: did you mean" { lint_bad requirement-typo; }
@test "bad: a device name with an empty component" { lint_bad device-double-slash; }
@test "bad: two device names, one a folder of the other" { lint_bad device-nested; }
@test "bad: a directive given twice" { lint_bad directive-twice; }
@test "bad: a directive after the header" { lint_bad directive-after-header; }
@test "bad: bad kernel version" { lint_bad bad-kernel-version; }
@test "bad: root device that is not a path (root: sda1)" { lint_bad root-not-a-path; }
@test "bad: mounted device name that is not a path" { lint_bad device-not-a-path; }
@test "bad: CRLF line endings" { lint_bad crlf; }
@test "bad: NUL byte" { lint_bad nul-byte; }
@test "bad: invalid UTF-8" { lint_bad invalid-utf8; }
@test "bad: overlong UTF-8" { lint_bad utf8-overlong; }
@test "bad: only prose, no command" { lint_bad prose-only; }
@test "bad: a command in the background ('&')" { lint_bad shell-background; }
@test "bad: unsupported shell syntax '>'" { lint_bad shell-redirect; }
@test "bad: a filter as the first command" { lint_bad filter-first; }
@test "bad: a filter after a pipe with a FILE to read" { lint_bad filter-file-after-pipe; }
@test "bad: a filter with two FILEs" { lint_bad filter-two-files; }
@test "bad: a non-filter after a pipe" { lint_bad pipe-into-command; }
@test "bad: head -n with a multiplier suffix" { lint_bad filter-head-suffix; }
@test "bad: tail -f, which nstest does not have" { lint_bad filter-tail-follow; }
@test "bad: a misspelt long option of sort: did you mean" { lint_bad filter-sort-option-typo; }
@test "bad: cut with a decreasing range" { lint_bad filter-cut-decreasing; }
@test "bad: grep with a long option: its short form" { lint_bad filter-grep-long-option; }
@test "bad: sed with a command nstest does not support" { lint_bad filter-sed-unsupported-command; }
@test "bad: awk with a pattern nstest does not support" { lint_bad filter-awk-pattern; }
@test "bad: mount of a disallowed filesystem type" { lint_bad disallowed-fstype; }
@test "bad: unshare without -m" { lint_bad unshare-without-m; }
@test "bad: findmnt with ROOT, which findmnt calls FSROOT" { lint_bad findmnt-unknown-column; }
@test "bad: findmnt -l with -r" { lint_bad findmnt-list-and-raw; }
@test "bad: findmnt -T with a bare target too" { lint_bad findmnt-target-and-operand; }
@test "bad: findmnt -o without its list" { lint_bad findmnt-missing-columns; }
@test "bad: findmnt with an option of findmnt nstest does not support" { lint_bad findmnt-unknown-option; }
@test "bad: findmnt with a column of findmnt nstest does not draw" { lint_bad findmnt-unsupported-column; }
@test "bad: findmnt with a misspelt column: did you mean" { lint_bad findmnt-column-typo; }
@test "bad: findmnt with a misspelt option: did you mean" { lint_bad findmnt-option-typo; }
@test "bad: findmnt with an option no findmnt has" { lint_bad findmnt-option-nobody-has; }
@test "bad: findmnt with a short option of findmnt nstest does not support" { lint_bad findmnt-unknown-short-option; }
@test "bad: a misspelt command, with the nearest name" { lint_bad did-you-mean-command; }
@test "bad: a misspelt mount option, with the nearest" { lint_bad did-you-mean-mount-option; }
@test "bad: a misspelt unshare option, with the nearest" { lint_bad did-you-mean-unshare-option; }
@test "bad: a misspelt long option of mkdir, with its short form" { lint_bad did-you-mean-mkdir-option; }
@test "bad: a command indented by 2 spaces" { lint_bad misread-indented-command; }
@test "bad: a command at the margin" { lint_bad misread-unindented-command; }
@test "bad: a command indented by 6 spaces" { lint_bad misread-overindented-command; }
@test "bad: a prompt with no space before its command" { lint_bad misread-no-space; }
@test "bad: output indented by 2 spaces" { lint_bad misread-indented-output; }
@test "bad: a blank line inside an output block" { lint_bad blank-in-output; }
@test "bad: output indented by spaces, then a tab" { lint_bad indent-mix; }
@test "bad: every error of a file is reported, in line order" { lint_bad multi-error; }
@test "bad: a misspelt -o remount flag, with the nearest" { lint_bad remount-option-typo; }
@test "bad: filesystem options on a remount" { lint_bad remount-fs-options; }
@test "bad: -o remount with --rbind (util-linux versions differ)" { lint_bad remount-rbind; }
@test "bad: -o remount with --move" { lint_bad remount-move; }
@test "bad: a misspelt unshare --propagation value, with the nearest" { lint_bad unshare-propagation-typo; }
@test "bad: unshare running a shell builtin" { lint_bad unshare-builtin; }
@test "bad: unshare running another wrapper" { lint_bad unshare-runs-wrapper; }
@test "bad: unshare --map-user with a name, not a number" { lint_bad unshare-map-user-name; }
@test "bad: unshare --map-users in util-linux 2.39's INNER:OUTER:COUNT form" { lint_bad unshare-map-users-colons; }
@test "bad: unshare --map-auto, which reads /etc/subuid" { lint_bad unshare-map-auto; }
@test "bad: unshare --map-groups=auto, which reads /etc/subgid" { lint_bad unshare-map-groups-auto; }
@test "bad: unshare --map-group (gid_t)-1, which is no id" { lint_bad unshare-map-group-no-id; }
@test "bad: unshare --map-user without its value" { lint_bad unshare-map-user-no-value; }
@test "bad: mount_setattr --idmap names a terminal not seen before" { lint_bad mount-setattr-idmap-unknown-terminal; }
@test "bad: mount_setattr --idmap without a terminal" { lint_bad mount-setattr-idmap-no-value; }
@test "bad: open_tree_attr --idmap= with an empty terminal" { lint_bad open-tree-attr-idmap-empty; }
@test "bad: a misspelt open_tree_attr option, with the nearest" { lint_bad open-tree-attr-idmap-typo; }
@test "bad: nsenter -t names no terminal, with the nearest" { lint_bad nsenter-unknown-terminal; }
@test "bad: nsenter -t names a terminal that starts later" { lint_bad nsenter-terminal-later; }
@test "bad: nsenter without -t" { lint_bad nsenter-no-target; }
@test "bad: nsenter without -m or -U" { lint_bad nsenter-no-namespace; }
@test "bad: nsenter --mount=FILE" { lint_bad nsenter-option-value; }
@test "bad: a misspelt nsenter option, with the nearest" { lint_bad nsenter-option-typo; }
@test "bad: nsenter -r without -m" { lint_bad nsenter-root-without-mount; }
@test "bad: close takes @NAME handles only" { lint_bad close-operand; }
@test "bad: a descriptor's redirection is exec's alone, and exec runs no command" { lint_bad exec-redirections; }
@test "bad: watch takes start, stop or nothing" { lint_bad watch-operands; }
@test "bad: a namespace handle is entered, never used as a mount" { lint_bad namespace-handle-kinds; }
@test "bad: a /dev/ name longer than a mount source may be" { lint_bad device-name-too-long; }
@test "bad: a root: name longer than a mount source may be" { lint_bad root-name-too-long; }

# The longest name lint takes (255 characters, /dev/ included) mounts on
# both stand-in kinds and on the model: lint refuses nothing that runs.
@test "bad: a /dev/ name of exactly 255 characters passes lint and runs on the kernel and the model" {
	local name scn
	name=/dev/$(printf 'n%.0s' $(seq 1 250))
	scn=$(write_scn longest <<SCN
    # mkdir /x
    # mount $name /x
    # findmnt -n -o SOURCE /x
    $name
SCN
	)
	run "$NSTEST" lint "$scn"
	assert_success
	for how in --devices=tmpfs --devices=loop "--backend model"; do
		# shellcheck disable=SC2086 # two words for the model
		run "$NSTEST" run $how "$scn"
		assert_success
	done
}
@test "bad: a place in a handle's tree given to a command that does not take one" { lint_bad handle-path-to-mkdir; }
@test "bad: umount -R with a handle" { lint_bad handle-umount-recursive; }
@test "bad: mount -o remount with a handle" { lint_bad handle-remount; }
@test "bad: umount --expire with -R" { lint_bad umount-expire-recursive; }
@test "bad: a handle of a terminal that has no prompt before the line" { lint_bad handle-of-no-terminal; }
@test "bad: close of another terminal's handle" { lint_bad close-another-terminals-handle; }
@test "bad: fsconfig on a mount's handle" { lint_bad fsconfig-on-a-mount; }
@test "bad: a filesystem context where a path goes" { lint_bad context-as-a-path; }
@test "bad: fsopen of a type a sandbox may not create" { lint_bad fsopen-type; }
@test "bad: a misspelt fsconfig command, with the nearest" { lint_bad fsconfig-verb; }
@test "bad: one name for a mount and a filesystem context" { lint_bad handle-kind-reused; }
@test "bad: past 20 errors, one line counts the rest" { lint_bad capped; }
@test "bad: no-break spaces as the indentation (pasted from HTML)" { lint_bad nbsp-indent; }
@test "bad: a no-break space after the prompt" { lint_bad nbsp-after-prompt; }
@test "bad: a zero-width space after the prompt" { lint_bad zero-width-after-prompt; }
@test "bad: a byte-order mark before the first directive" { lint_bad bom-directive; }
@test "bad: a byte-order mark before the first command" { lint_bad bom-command; }
@test "bad: a C1 control character" { lint_bad c1-control; }

# Each of these ran to a pass before (issue 28): the line with the
# character was prose or output, so a command never ran. run refuses
# them now, and runs nothing.
@test "bad: run refuses a file with an invisible character where a blank counts, and runs nothing" {
	local n
	cd "$NSTEST_ROOT"
	for n in nbsp-indent nbsp-after-prompt zero-width-after-prompt bom-directive bom-command; do
		run --separate-stderr "$NSTEST" run --backend model "tests/bad/$n.scn"
		assert_equal "$status" 2
		assert_equal "$stderr" "$(<"tests/bad/$n.err")"
		assert_equal "$output" ""
	done
}

@test "bad: run reports every error of a file, as lint does, and runs nothing" {
	cd "$NSTEST_ROOT"
	run --separate-stderr "$NSTEST" run tests/bad/multi-error.scn
	assert_equal "$stderr" "$(<tests/bad/multi-error.err)"
	assert_equal "$status" 2
	assert_equal "$output" ""
}

@test "bad: every catalogue entry has its .scn, its .err and a test here" {
	local f name missing=()
	for f in "$NSTEST_ROOT"/tests/bad/*.scn "$NSTEST_ROOT"/tests/bad/*.err; do
		name=${f##*/}
		name=${name%.*}
		[[ -f $NSTEST_ROOT/tests/bad/$name.scn ]] || missing+=("$name.scn")
		[[ -f $NSTEST_ROOT/tests/bad/$name.err ]] || missing+=("$name.err")
		grep -q "lint_bad $name;" "$BATS_TEST_FILENAME" || missing+=("test for $name")
	done
	assert_equal "${missing[*]}" ""
}

@test "bad: linting the whole catalogue reports each file and exits 2" {
	local f name missing=()
	cd "$NSTEST_ROOT"
	run --separate-stderr "$NSTEST" lint tests/bad
	assert_equal "$status" 2
	assert_equal "$output" ""
	# every line in the file:line:col form, or a count of errors not shown ...
	run grep -cvE '^tests/bad/[^:]+\.scn(:[0-9]+:[0-9]+: error: |: [0-9]+ more errors not shown )' <<<"$stderr"
	assert_output 0
	# ... and every line of each entry among them (known bugs aside)
	for f in tests/bad/*.err; do
		name=${f##*/}
		name=${name%.err}
		[[ -n ${KNOWN_BUG[$name]-} ]] && continue
		while IFS= read -r line; do
			grep -qxF -- "$line" <<<"$stderr" || missing+=("$name")
		done <"$f"
	done
	assert_equal "${missing[*]}" ""
}

@test "bad: a file whose name holds a control character or bytes that are not UTF-8 is refused, the name escaped; nothing runs" {
	local d=$BATS_TEST_TMPDIR/names
	mkdir -p "$d"
	# an escape sequence, a C1 control as UTF-8, a raw CSI byte; and an
	# accented name, which is fine
	printf '    # mkdir /a\n' >"$d/$(printf 'a\033[31mred.scn')"
	printf '    # mkdir /a\n' >"$d/$(printf 'b\302\205.scn')"
	printf '    # mkdir /a\n' >"$d/$(printf 'c\233.scn')"
	printf '    # mkdir /a\n' >"$d/$(printf 'ok-\303\251.scn')"
	local why="error: the file's name holds a control character or bytes that are not UTF-8 (shown here as \\xHH), which reports and terminals would print as they are; rename the file"
	for cmd in lint "run --backend model"; do
		# shellcheck disable=SC2086 # the command and its option
		run --separate-stderr "$NSTEST" $cmd "$d"
		assert_equal "$status" 2
		assert_equal "$output" ""
		assert_equal "$stderr" "$d/a\x1b[31mred.scn:1:1: $why
$d/b\xc2\x85.scn:1:1: $why
$d/c\x9b.scn:1:1: $why"
	done
}

@test "bad: random binary data is refused with a file:line:col error" {
	local f=$SCN_DIR/random.scn
	head -c 4096 /dev/urandom >"$f"
	run --separate-stderr "$NSTEST" lint "$f"
	assert_equal "$status" 2
	# the first line that is not text stops the parse; a text line before
	# it may (very rarely) be an error of its own, so every line is checked
	[[ -n $stderr ]] || fail "no error"
	local line
	while IFS= read -r line; do
		[[ $line =~ ^"$f":[0-9]+:[0-9]+:\ error:\ .+$ ]] || fail "unexpected stderr line: $line"
	done <<<"$stderr"
}

@test "bad: a line longer than 1 MiB is refused" {
	local f=$SCN_DIR/long.scn
	{
		printf '    # mkdir /a\n'
		head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' x
		printf '\n'
	} >"$f"
	run --separate-stderr "$NSTEST" lint "$f"
	assert_equal "$stderr" "$f:2:1: error: line longer than 1048576 bytes"
	assert_equal "$status" 2
}

@test "bad: a line of exactly 1 MiB is still accepted" {
	local f=$SCN_DIR/long.scn
	{
		printf '    # mkdir /a\n'
		head -c $((1024 * 1024)) /dev/zero | tr '\0' x
		printf '\n'
	} >"$f"
	run --separate-stderr "$NSTEST" lint "$f"
	assert_equal "$stderr" ""
	assert_equal "$output" "1 scenario(s) parsed"
	assert_success
}

# Speed is measured in bench/, never asserted here.
@test "bad: a file of 100k valid commands parses" {
	local f=$SCN_DIR/many.scn
	seq 1 100000 | sed 's|^|    # mkdir /d|' >"$f"
	run --separate-stderr "$NSTEST" lint "$f"
	assert_equal "$stderr" ""
	assert_equal "$output" "1 scenario(s) parsed"
	assert_success
}

@test "bad: a 100k-line file with one bad line names that line" {
	local f=$SCN_DIR/many.scn
	{
		seq 1 99999 | sed 's|^|    # mkdir /d|'
		printf '    # frobnicate /d\n'
	} >"$f"
	run --separate-stderr "$NSTEST" lint "$f"
	assert_equal "$stderr" "$f:100000:7: error: unknown command 'frobnicate'"
	assert_equal "$status" 2
}

@test "bad: a file larger than 64 MiB is refused without reading it all" {
	local f=$SCN_DIR/huge.scn
	truncate -s 65M "$f"
	run --separate-stderr "$NSTEST" lint "$f"
	assert_equal "$stderr" "$f:1:1: error: cannot read: larger than 64 MiB"
	assert_equal "$status" 2
}
