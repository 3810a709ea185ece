#!/usr/bin/env bats
# tests/bats/ls-forms.bats - ls listings as a terminal shows them (in
# columns) and as a pipe or script(1) records them (one name a line):
# ls into a pipe prints one name a line, and the block of an unpiped ls
# may be written either way (nstest-scenario(5), ls, and EXPECTED OUTPUT,
# ls listings).
#
# Every expected line comes from GNU ls itself, run on a directory of the
# same names: into a pipe it prints one name a line (ls(1): -1 is the
# default when standard output is not a terminal), and -C -w 80 -T 0
# gives the columns of an 80-column terminal, without tabs. LC_ALL=C
# sorts by byte value, as nstest's ls does.
#
# Runs as root: the scenarios really run, on the kernel and on the model.

bats_require_minimum_version 1.5.0
load helpers

NAMES=(alpha beta gamma directory_{1..25})

setup() {
	nstest_setup
	REAL=$BATS_TEST_TMPDIR/real
	mkdir -p "$REAL"
	for n in "${NAMES[@]}"; do mkdir "$REAL/$n"; done
	export LC_ALL=C
}

# indent: stdin with four blanks before each line
indent() {
	sed 's/^/    /'
}

# listing NAME BLOCK: scenario NAME making the names in /d, then `ls /d`
# whose expected block is BLOCK (lines, not yet indented). Prints its path.
listing() {
	{
		echo "    # mkdir /d"
		echo "    # cd /d"
		echo "    # mkdir ${NAMES[*]}"
		echo "    # ls /d"
		printf '%s\n' "$2" | indent
	} | write_scn "$1"
}

# on_both STATUS FILE: nstest run FILE exits STATUS on the kernel and on
# the model.
on_both() {
	local b
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$2"
		[[ $status == "$1" ]] || fail "$b backend: status $status, not $1: $output"
	done
}

@test "ls-forms: ls into a pipe prints one name a line (wc -l counts names, grep sees single names), wrapped too" {
	local scn
	scn=$(write_scn piped <<SCN
    sh1# mkdir /d
    sh1# cd /d
    sh1# mkdir ${NAMES[*]}
    sh1# ls /d | wc -l
$(ls "$REAL" | wc -l | indent)
    sh1# ls /d | grep beta
$(ls "$REAL" | grep beta | indent)
    sh1# unshare -m ls /d | grep -c directory_1
$(ls "$REAL" | grep -c directory_1 | indent)
    sh2# nsenter -t sh1 -m ls /d | wc -l
$(ls "$REAL" | wc -l | indent)
SCN
	)
	# what the file says GNU ls does: 28 names, 11 of them directory_1*
	grep -qx '    28' "$scn" && grep -qx '    11' "$scn" || fail "GNU ls: $(cat "$scn")"
	on_both 0 "$scn"
}

@test "ls-forms: an unpiped ls passes written in columns and written one name a line" {
	local cols one
	cols=$(listing cols "$(ls -C -w 80 -T 0 "$REAL")")
	one=$(listing one "$(ls "$REAL")")
	# the two forms differ: six rows of columns, 28 lines
	(($(wc -l <"$cols") == 3 + 1 + 6 && $(wc -l <"$one") == 3 + 1 + 28)) ||
		fail "forms: $(cat "$cols" "$one")"
	on_both 0 "$cols"
	on_both 0 "$one"
}

# On a terminal GNU ls pads its columns with tabs where one reaches the
# next column (ls(1): -T, --tabsize=COLS, 8 by default), so script(1) and
# terminals that keep tabs on copy give the columns so: -C -w 80 without
# -T 0. Expanded to stops of 8 they are the columns nstest prints; a
# twin with a name changed still fails.
@test "ls-forms: an unpiped ls passes written in GNU ls's columns with tabs; a wrong twin fails" {
	local tabs twin
	tabs=$(listing tabs "$(ls -C -w 80 "$REAL")")
	grep -q $'\t' "$tabs" || fail "GNU ls printed no tab: $(cat "$tabs")"
	on_both 0 "$tabs"
	twin=$(listing tabs-twin "$(ls -C -w 80 "$REAL" | sed 's/directory_12/directory_21/')")
	run ! cmp -s "$tabs" "$twin"
	on_both 1 "$twin"
}

@test "ls-forms: a wrong twin of the one-a-line block fails (a name missing, one too many, renamed, two swapped)" {
	local good scn twin
	good=$(ls "$REAL")
	for twin in '/^beta$/d' '/^beta$/a\
betb' 's/^beta$/betta/' '/^alpha$/{h;d};/^beta$/G'; do
		scn=$(listing twin "$(sed "$twin" <<<"$good")")
		run ! cmp -s <(sed "$twin" <<<"$good") <(printf '%s\n' "$good")
		on_both 1 "$scn"
	done
}

@test "ls-forms: --update rewrites a wrong block one name a line when the file writes it so" {
	local scn b
	for b in kernel model; do
		scn=$(listing "update-$b" "$(ls "$REAL" | sed '/^gamma$/d')")
		run --separate-stderr "$NSTEST" run --backend "$b" --update "$scn"
		assert_success
		assert_output "updated    $scn (1 block rewritten)
1 updated, 0 unchanged, 0 skipped, 0 failed"
		run diff "$scn" <(listing "want-$b" "$(ls "$REAL")" | xargs cat)
		assert_success
		on_both 0 "$scn"
	done
}
