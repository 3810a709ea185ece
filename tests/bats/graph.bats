#!/usr/bin/env bats
# tests/bats/graph.bats - `nstest graph`: the propagation graph of a
# scenario at a step, as DOT (and SVG through Graphviz).
#
# The expected counts come from the article's slave demo
# (scenarios/article/02-slave.scn), not from what the tool printed: at its
# end sh1's namespace holds /, /mntX, /mntY, /mntX/a and /mntY/c (five
# mounts), and sh2's holds /, /mntX, /mntY, /mntX/a, /mntY/b and /mntY/c
# (six). /mntX (shared:1) and /mntX/a (shared:3) have a peer in each
# namespace: two peer edges. sh2's /mntY is a slave of /mntY's group (2),
# and sh2's /mntY/c a slave of sh1's /mntY/c group (4): two arrows.

bats_require_minimum_version 1.5.0
load helpers

SLAVE=$NSTEST_ROOT/scenarios/article/02-slave.scn

# node_of DOT CLUSTER TARGET: the node name (mID) of the mount on TARGET
# in the CLUSTER-th namespace cluster.
node_of() {
	awk -v c="cluster_ns$2" -v t="$3" '
		/subgraph cluster_/ { inside = ($2 == c) }
		inside && $1 ~ /^m[0-9]+$/ && index($0, "label=\"" t "\\n") { print $1; exit }
	' "$1"
}

check_slave_demo() {
	local dot=$1
	# two namespaces, labelled with their terminals
	assert_equal "$(grep -c 'subgraph cluster_ns' "$dot")" 2
	grep -q 'label="sh1  (5 mounts)"' "$dot"
	grep -q 'label="sh2  (6 mounts)"' "$dot"
	# eleven mounts
	assert_equal "$(grep -cE '^ +m[0-9]+ \[label=' "$dot")" 11
	# the peer edges: /mntX with /mntX, /mntX/a with /mntX/a
	assert_equal "$(grep -c 'class="peer"' "$dot")" 2
	local x1 x2 a1 a2 y1 y2 c1 c2
	x1=$(node_of "$dot" 1 /mntX) x2=$(node_of "$dot" 2 /mntX)
	a1=$(node_of "$dot" 1 /mntX/a) a2=$(node_of "$dot" 2 /mntX/a)
	y1=$(node_of "$dot" 1 /mntY) y2=$(node_of "$dot" 2 /mntY)
	c1=$(node_of "$dot" 1 /mntY/c) c2=$(node_of "$dot" 2 /mntY/c)
	grep -qE "^ +($x1 -> $x2|$x2 -> $x1) \[class=\"peer\", dir=none" "$dot"
	grep -qE "^ +($a1 -> $a2|$a2 -> $a1) \[class=\"peer\", dir=none" "$dot"
	# the master -> slave arrows: /mntY's peer group to sh2's /mntY, and
	# /mntY/c's to sh2's /mntY/c
	assert_equal "$(grep -c 'class="slave"' "$dot")" 2
	grep -qE "^ +$y1 -> $y2 \[class=\"slave\"" "$dot"
	grep -qE "^ +$c1 -> $c2 \[class=\"slave\"" "$dot"
	# sh2's /mntY is drawn as a slave, sh2's /mntY/b as private
	grep -qE "^ +$y2 \[label=\"/mntY\\\\n/dev/sdb6\\\\nslave of [0-9]+" "$dot"
	grep -qE "label=\"/mntY/b\\\\n/dev/sda5\\\\nprivate" "$dot"
}

@test "graph: the slave demo's DOT on the kernel" {
	run --separate-stderr "$NSTEST" graph -o "$BATS_TEST_TMPDIR/g.dot" "$SLAVE"
	assert_success
	assert_equal "$stderr" ""
	check_slave_demo "$BATS_TEST_TMPDIR/g.dot"
}

@test "graph: the slave demo's DOT on the model" {
	run --separate-stderr "$NSTEST" graph --backend model -o "$BATS_TEST_TMPDIR/g.dot" "$SLAVE"
	assert_success
	check_slave_demo "$BATS_TEST_TMPDIR/g.dot"
}

@test "graph: --step and --after stop early" {
	# after `sh2# unshare` (step 7): two namespaces of three mounts
	# (/, /mntX, /mntY), peers across, no slave yet
	run --separate-stderr "$NSTEST" graph --step 7 "$SLAVE"
	assert_success
	dot=$BATS_TEST_TMPDIR/7.dot
	printf '%s\n' "$output" >"$dot"
	assert_equal "$(grep -c 'subgraph cluster_ns' "$dot")" 2
	assert_equal "$(grep -cE '^ +m[0-9]+ \[label=' "$dot")" 6
	assert_equal "$(grep -c 'class="peer"' "$dot")" 2
	assert_equal "$(grep -c 'class="slave"' "$dot")" 0
	# the unshare is on line 35: --after 35 is the same moment (on the
	# model, whose mount IDs are the same from run to run)
	run --separate-stderr "$NSTEST" graph --backend model --step 7 "$SLAVE"
	assert_success
	printf '%s\n' "$output" >"$dot"
	run --separate-stderr "$NSTEST" graph --backend model --after 35 "$SLAVE"
	assert_success
	assert_equal "$output" "$(cat "$dot")"
	# --step 0: the start, one namespace with its root
	run --separate-stderr "$NSTEST" graph --step 0 "$SLAVE"
	assert_success
	assert_equal "$(grep -cE '^ +m[0-9]+ \[label=' <<<"$output")" 1
}

@test "graph: the model marks what the last step made, with its cause" {
	# line 73: sh1# mount /dev/sda1 /mntY/c, which propagates to sh2
	run --separate-stderr "$NSTEST" graph --backend model --after 73 "$SLAVE"
	assert_success
	assert_equal "$(grep -c 'penwidth=3' <<<"$output")" 2
	assert_output --partial 'made by this step:'
	assert_output --partial 'propagated from mount'
}

@test "graph: --format svg draws through Graphviz" {
	command -v dot >/dev/null || skip "Graphviz's dot is not installed (apt-get install graphviz)"
	run --separate-stderr "$NSTEST" graph --format svg "$SLAVE"
	assert_success
	assert_output --partial '<svg'
	assert_output --partial 'class="cluster"'
}

@test "graph: without Graphviz, --format svg says how to get it" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/empty" "$NSTEST" graph --format svg "$SLAVE"
	assert_failure 2
	[[ $stderr == *"apt-get install graphviz"* ]]
}

@test "graph: --step past the end is an error" {
	run --separate-stderr "$NSTEST" graph --step 99 "$SLAVE"
	assert_failure 2
	assert_equal "$stderr" "$SLAVE: error: --step 99 is past the end: the scenario has 20 steps"
	run --separate-stderr "$NSTEST" graph --after 9999 "$SLAVE"
	assert_failure 2
	[[ $stderr == *"--after 9999 is past the end"* ]]
	run --separate-stderr "$NSTEST" graph --step x "$SLAVE"
	assert_failure 2
	[[ $stderr == *"--step must be a number"* ]]
}

@test "graph: a step that fails unexpectedly is an error naming it" {
	scn=$(write_scn fails <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /nowhere
    # mount /dev/sdb1 /a
SCN
	)
	for backend in kernel model; do
		run --separate-stderr "$NSTEST" graph --backend $backend "$scn"
		assert_failure 2
		[[ $stderr == "$scn:2: the step 'mount /dev/sdb1 /nowhere' failed (mount: ENOENT), which its transcript does not show"* ]]
	done
	# up to the step before, it draws
	run --separate-stderr "$NSTEST" graph --step 1 "$scn"
	assert_success
}

@test "graph: a file that does not parse is an error" {
	scn=$(write_scn bad <<'SCN'
    # mount --bogus /a
SCN
	)
	run --separate-stderr "$NSTEST" graph "$scn"
	assert_failure 2
	[[ $stderr == "$scn:1:"*"error:"* ]]
	run --separate-stderr "$NSTEST" graph "$BATS_TEST_TMPDIR/missing.scn"
	assert_failure 2
}

@test "graph: every article scenario draws on both backends" {
	for f in "$NSTEST_ROOT"/scenarios/article/*.scn; do
		for backend in kernel model; do
			run --separate-stderr "$NSTEST" graph --backend $backend "$f"
			assert_success
			assert_output --partial 'subgraph cluster_ns1'
		done
	done
}

# nsenter without a command starts a shell (commands/command.c's rule, the
# one the parser uses), so `exit` leaves it and the terminal is back in its
# own namespace: two namespaces, sh1's new one and the original that sh2
# is back in. The picture run once read the rule again and missed nsenter,
# so it took the exit for sh2's end and drew one.
@test "graph: exit after nsenter -t ... sh returns to the terminal's own namespace" {
	cat > "$BATS_TEST_TMPDIR/n.scn" <<'SCN'
sh2 enters sh1's new namespace and leaves it again.

    sh1# unshare -m sh
    sh2# nsenter -t sh1 -m sh
    sh2# exit
SCN
	local be
	for be in kernel model; do
		run "$NSTEST" graph --backend "$be" "$BATS_TEST_TMPDIR/n.scn"
		assert_success
		assert_equal "$(grep -c 'subgraph cluster_ns' <<<"$output")" 2
		# before the exit, both terminals are in sh1's namespace, and
		# their outer shells still hold the first one (issue 30: it was
		# not drawn)
		run "$NSTEST" graph --backend "$be" --step 2 "$BATS_TEST_TMPDIR/n.scn"
		assert_success
		assert_equal "$(grep -c 'subgraph cluster_ns' <<<"$output")" 2
		assert_output --partial 'label="sh1, sh2  (1 mount)"'
		assert_output --partial 'label="the outer shell of sh1, sh2  (1 mount)"'
		# at the start sh1 alone is there, in the first namespace
		run "$NSTEST" graph --backend "$be" --step 0 "$BATS_TEST_TMPDIR/n.scn"
		assert_success
		assert_equal "$(grep -c 'subgraph cluster_ns' <<<"$output")" 1
	done
}

# The article's mount explosion runs in `unshare -m sh`; its prose says
# the first namespace is left as it was (/ and /mntX), and `exit` returns
# to it. While the inner shell runs, only the outer shell holds the first
# namespace: it is drawn beside the inner one, named for that shell.
@test "graph: a namespace only an outer shell holds is drawn (04-unbindable)" {
	local be scn=$NSTEST_ROOT/scenarios/article/04-unbindable.scn
	for be in kernel model; do
		# after `mount --rbind / /home/cecilia` in the inner shell
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 6 "$scn"
		assert_success
		assert_equal "$(grep -c 'subgraph cluster_ns' <<<"$output")" 2
		assert_output --partial 'label="# (the bare prompt)  (4 mounts)"'
		assert_output --partial 'label="the outer shell of # (the bare prompt)  (2 mounts)"'
	done
}

# A mount namespace that only a handle holds (open_tree --namespace @NS)
# is drawn, read through the handle by the terminal that holds it, until
# that terminal closes the handle or the shell that made it ends; one a
# terminal entered is that terminal's (issue 30: "every namespace that
# any terminal, outer shell or handle still holds"). The model plays
# open_tree --namespace on any kernel; the kernel backend where the
# kernel has it (7.0 and later).
@test "graph: a namespace only a handle holds is drawn until it is closed, also from an inner shell" {
	local be step
	write_scn handle <<'SCN' >/dev/null
title: a namespace held by a handle
requires: open_tree_namespace
    sh1# mkdir /a
    sh1# mount /dev/sdb1 /a
    sh1# open_tree --namespace /a @ns
    sh1# mkdir /b
    sh1# close @ns
    sh1# mkdir /c
    sh1# open_tree --namespace /a @n2
    sh1# unshare -m sh
    sh1# mkdir /d
    sh1# exit
    sh1# nsenter --mount=@n2 sh
SCN
	for be in model kernel; do
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 3 "$SCN_DIR/handle.scn"
		# the kernel side only where the kernel has it
		[[ $be == kernel && $stderr == *"this kernel lacks open_tree_namespace"* ]] && continue
		assert_success
		assert_output --partial "label=\"the mount namespace @ns (sh1's handle)  (1 mount)\""
		# closed: gone
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 5 "$SCN_DIR/handle.scn"
		assert_success
		refute_output --partial "the mount namespace @ns"
		assert_equal "$(grep -c 'subgraph cluster_ns' <<<"$output")" 1
		# the inner shell has its outer shell's handle
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 9 "$SCN_DIR/handle.scn"
		assert_success
		assert_output --partial "label=\"the mount namespace @n2 (sh1's handle)  (1 mount)\""
		assert_output --partial 'label="the outer shell of sh1  (2 mounts)"'
		# entered: the terminal's own namespace, one cluster for both
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 11 "$SCN_DIR/handle.scn"
		assert_success
		assert_output --partial "label=\"sh1, the mount namespace @n2 (sh1's handle)  (1 mount)\""
	done
}

# A shell the terminal left for an inner one, and that is not its first
# (`unshare -m sh` twice), still holds its namespace: a terminal of
# nstest's own enters it (nsenter -t sh1 -m sh) just before the inner
# shell starts, reads it at each moment, and leaves once sh1 is back at
# that level. Mount counts from the rules: the first namespace has only
# /; the first inner shell's copy gets /a (2); the second's copy of that,
# /b too (3).
@test "graph: a middle shell's namespace is drawn while an inner shell runs, and only then" {
	local be
	write_scn middle <<'SCN' >/dev/null
title: a middle shell's namespace
    sh1# mkdir /a /b
    sh1# unshare -m sh
    sh1# mount -t tmpfs t /a
    sh1# unshare -m sh
    sh1# mount -t tmpfs u /b
    sh1# exit
    sh1# mkdir /c
SCN
	for be in kernel model; do
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 5 "$SCN_DIR/middle.scn"
		assert_success
		assert_equal "$(grep -c 'subgraph cluster_ns' <<<"$output")" 3
		assert_output --partial 'label="sh1  (3 mounts)"'
		assert_output --partial 'label="the shell of sh1 at level 1  (2 mounts)"'
		assert_output --partial 'label="the outer shell of sh1  (1 mount)"'
		# back at level 1: that shell is sh1's own again
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 6 "$SCN_DIR/middle.scn"
		assert_success
		assert_equal "$(grep -c 'subgraph cluster_ns' <<<"$output")" 2
		refute_output --partial 'at level 1'
		assert_output --partial 'label="sh1  (2 mounts)"'
	done
}
