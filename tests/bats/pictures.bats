#!/usr/bin/env bats
# tests/bats/pictures.bats - what a reader of the pictures sees (issue 30,
# "Pictures"): one numbering with the output beside them, what changed
# since the step before, bind mounts' roots, a legend, big graphs folded
# and readable at 1400 px, pages a validator accepts, and pictures that
# cost little when they repeat.
#
# Expectations come from the article and the rules, not from a run: e.g.
# the 168 mounts of tests/data/pictures/explosion-168.scn are counted in
# its prose.

bats_require_minimum_version 1.5.0
load helpers

SLAVE=$NSTEST_ROOT/scenarios/article/02-slave.scn
BIND=$NSTEST_ROOT/scenarios/article/03-bind.scn
EXPLOSION=$NSTEST_ROOT/tests/data/pictures/explosion-168.scn

chromium_bin() {
	command -v chromium || command -v chromium-browser || true
}

need_chromium() {
	[[ -n $(chromium_bin) ]] || skip "chromium is not installed (Debian: apt-get install chromium; ci/install-deps installs it)"
}

need_tidy() {
	command -v tidy >/dev/null || skip "tidy is not installed (Debian: apt-get install tidy; ci/install-deps installs it)"
}

need_python() {
	command -v python3 >/dev/null || skip "python3 is not installed"
}

# chromium_run WIDTH ARGS...: headless, no sandbox (root), a profile of
# its own, a window WIDTH pixels wide.
chromium_run() {
	local profile width=$1
	shift
	profile=$(mktemp -d "$BATS_TEST_TMPDIR/chromium.XXXXXX")
	timeout 120 "$(chromium_bin)" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$profile" --window-size="$width,1600" "$@" 2>/dev/null
}

# layout PAGE: what Chromium lays out at 1400 px: "PAGE scrollWidth", and
# per <svg> "SVG rendered-width smallest-label-px" (the smallest font size
# of its labels once the picture is scaled to the page). The page itself
# has no script: a copy gets a probe at its end, whose findings
# --dump-dom prints.
layout() {
	local probe=$BATS_TEST_TMPDIR/probe.html page script
	script='<script>
const out = [];
out.push("PAGE " + document.documentElement.scrollWidth);
for (const s of document.querySelectorAll("svg")) {
	const r = s.getBoundingClientRect();
	const k = r.width / s.viewBox.baseVal.width;
	let min = 1e9;
	for (const t of s.querySelectorAll("text"))
		min = Math.min(min, parseFloat(getComputedStyle(t).fontSize) * k);
	out.push("SVG " + Math.round(r.width) + " " + min.toFixed(1));
}
const p = document.createElement("pre"); p.id = "probe"; p.textContent = out.join("\n");
document.body.appendChild(p);
</script>'
	page=$(<"$1")
	printf '%s\n' "${page/<\/body>/$script</body>}" >"$probe"
	chromium_run 1400 --dump-dom "file://$probe" | sed -n '/<pre id="probe">/,/<\/pre>/p' |
		sed 's/<[^>]*>//g' | grep -E '^(PAGE|SVG) '
}

# check_numbering PAGE: every mountinfo line printed on the page is drawn
# in the graph above it (the last one drawn before it) as the same mount:
# the node with its ID sits on its mount point, with its peer group or
# master. Prints how many lines it checked; fails naming the first that
# disagrees.
check_numbering() {
	python3 - "$1" <<'PY'
import html, re, sys
page = open(sys.argv[1]).read()
nodes, checked = None, 0
for m in re.finditer(r'<svg.*?</svg>|<pre class="(?:out|bad)">(.*?)</pre>', page, re.S):
    if m.group(0).startswith('<svg'):
        nodes = {}
        for g in re.findall(r'<g id="[^"]*" class="node">(.*?)</g>', m.group(0), re.S):
            texts = [html.unescape(t) for t in re.findall(r'<text[^>]*>(.*?)</text>', g)]
            ids = [t for t in texts if re.fullmatch(r'ID \d+', t)]
            if ids:
                nodes[int(ids[0][3:])] = texts
        continue
    for line in html.unescape(m.group(1)).splitlines():
        f = line.split()
        if len(f) < 6 or not (f[0].isdigit() and f[1].isdigit() and ':' in f[2]):
            continue
        if nodes is None:
            continue
        mid, target = int(f[0]), f[4]
        texts = nodes.get(mid)
        if not texts or texts[0] != target:
            sys.exit(f"mount {mid} on {target} (printed: {line}) is drawn as {texts}")
        for tag in f[6:]:
            k = re.fullmatch(r'(shared|master):(\d+)', tag)
            if k and not any((k.group(1) == 'shared' and f'shared:{k.group(2)}' in t) or
                             (k.group(1) == 'master' and f'master:{k.group(2)}' in t) for t in texts):
                sys.exit(f"mount {mid} on {target} is printed {tag}, drawn as {texts}")
        checked += 1
print(checked)
PY
}

# busy_host_start: another mount namespace that makes a shared mount every
# few milliseconds and keeps it, so that mount IDs and peer groups one run
# frees are taken before the next run: two runs of a scenario number their
# mounts apart, as on the busy machine of issue 30 (on a quiet one the
# kernel hands the freed numbers out again, and two runs agree by luck).
# Its mounts are in its own namespace and go with it: teardown kills its
# one process (the shell, or the sleep the shell became).
busy_host_start() {
	command -v unshare >/dev/null || skip "unshare(1) is not installed"
	mkdir -p "$BATS_TEST_TMPDIR/busy"
	unshare -m --propagation private sh -c '
		i=0
		while [ $i -lt 4000 ]; do
			mount -t tmpfs -o size=4k busy "$1" && mount --make-shared "$1" || exit 1
			i=$((i + 1))
			sleep 0.002
		done
		exec sleep 600' sh "$BATS_TEST_TMPDIR/busy" 3>&- &
	BUSY_PID=$!
}

teardown() {
	if [[ -n ${BUSY_PID:-} ]]; then
		kill "$BUSY_PID" 2>/dev/null || true
		wait "$BUSY_PID" 2>/dev/null || true
	fi
}

@test "pictures: on the kernel, a page's graphs number mounts and peer groups as its output does (02-slave)" {
	need_python
	page=$BATS_TEST_TMPDIR/slave.html
	busy_host_start
	run --separate-stderr "$NSTEST" show --html "$page" "$SLAVE"
	assert_success
	run check_numbering "$page"
	assert_success
	# every one of the transcript's 22 mountinfo records (lines 29-88),
	# all printed after the first graph
	assert_output 22
}

@test "pictures: the run report's graphs and the output beside them share one numbering" {
	need_python
	mkdir -p "$BATS_TEST_TMPDIR/set"
	sed 's#^\(    175 169 8:5 / /mntY/b rw,relatime\)$#\1 shared:9#' "$SLAVE" >"$BATS_TEST_TMPDIR/set/02-broken.scn"
	page=$BATS_TEST_TMPDIR/report.html
	busy_host_start
	run --separate-stderr "$NSTEST" run --format html --output "$page" "$BATS_TEST_TMPDIR/set"
	assert_failure 1
	grep -q 'come from a second run of the scenario' "$page"
	run check_numbering "$page"
	assert_success
	((output > 20))
}

# mkdir; /a mounted (new), made shared (changed: was private), /b mounted
# and unmounted (gone). The kernel backend knows none of it from a model:
# it compares the tables of the step before and after, in one run.
@test "pictures: the kernel backend marks mounts new, changed and gone since the step before" {
	scn=$(write_scn marks <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # mount /dev/sdb2 /b
    # umount /b
SCN
	)
	run --separate-stderr "$NSTEST" graph --step 2 "$scn"
	assert_success
	assert_output --regexp 'label="/a\\n/dev/sdb1\\nprivate\\nID [0-9]+\\nnew", [^]]*color="#d62728", penwidth=3'
	refute_output --partial 'cluster_gone'
	run --separate-stderr "$NSTEST" graph --step 3 "$scn"
	assert_success
	assert_output --regexp 'label="/a\\n/dev/sdb1\\nshared:[0-9]+\\nID [0-9]+\\nchanged, was: private", [^]]*color="#ff8c00", penwidth=3'
	refute_output --partial '\nnew"'
	run --separate-stderr "$NSTEST" graph --step 5 "$scn"
	assert_success
	assert_output --partial 'label="gone since the step before"'
	assert_output --regexp 'x0 \[[^]]*label="mount [0-9]+ on /b \(/dev/sdb2\) is gone"'
	# /a did not change in the last step: no mark
	assert_output --regexp 'label="/a\\n/dev/sdb1\\nshared:[0-9]+\\nID [0-9]+", style="rounded,filled", fillcolor="[^"]*", color="[^"]*"\];'
	# a page marks them alike
	page=$BATS_TEST_TMPDIR/marks.html
	run --separate-stderr "$NSTEST" show --html "$page" "$scn"
	assert_success
	grep -q '>changed, was: private</text>' "$page"
	grep -q '>new</text>' "$page"
	grep -qE '>mount [0-9]+ on /b \(/dev/sdb2\) is gone</text>' "$page"
}

# The article's bind mount: /dir2 shows /dir1 of the root's filesystem,
# which findmnt writes /dev/sda1[/dir1] (mountinfo's 4th field is /dir1).
@test "pictures: a bind mount shows its root within the filesystem, as findmnt's SOURCE[/dir] (03-bind)" {
	local be
	for be in kernel model; do
		run --separate-stderr "$NSTEST" graph --backend "$be" --step 4 "$BIND"
		assert_success
		assert_output --regexp 'label="/dir2\\n/dev/sda1\[/dir1\]\\n'
		# the root mount shows its source alone
		assert_output --regexp 'label="/\\n/dev/sda1\\n'
	done
}

@test "pictures: every SVG and every page with graphs carries a legend" {
	run --separate-stderr "$NSTEST" graph --format svg "$SLAVE"
	assert_success
	for words in 'grey arrow: the mount tree' 'dashed line: peers' 'coloured arrow: master to its slave' \
		'filled: a colour per peer group' 'dashed outline: a slave' 'unbindable' \
		'red outline: new since the step before' 'orange outline: changed' 'gone since the step before'; do
		assert_output --partial "$words"
	done
	page=$BATS_TEST_TMPDIR/slave.html
	run --separate-stderr "$NSTEST" show --html "$page" "$SLAVE"
	assert_success
	# once, above the first graph
	assert_equal "$(grep -c '<div class="legend">' "$page")" 1
	for words in 'grey arrow: the mount tree' 'dashed coloured line: peers' 'coloured arrow: from a master' \
		'filled: a colour per peer group' 'dashed outline' 'corners hatched' 'red outline: new' \
		'orange outline: changed' 'red dashed box: gone'; do
		grep -q "$words" "$page" || fail "the page's legend lacks '$words'"
	done
	legend=$(grep -n '<div class="legend">' "$page" | cut -d: -f1)
	first=$(grep -n '<figure class="graph"' "$page" | head -1 | cut -d: -f1)
	((legend < first))
}

# 168 mounts (the scenario's prose counts them): sh2's namespace has the
# same mounts as sh1's, each a peer of its twin, so it is drawn as one
# summary; copies of the same subtree fold into "…×N" nodes; a <details>
# lists every mount.
@test "pictures: a 168-mount explosion is folded where it repeats, every mount listed in <details>" {
	page=$BATS_TEST_TMPDIR/explosion.html
	run --separate-stderr "$NSTEST" show --html "$page" "$EXPLOSION"
	assert_success
	last=$(awk '/<figure class="graph"/{n++} n==6' "$page")
	[[ $last == *'84 mounts, folded:'* ]] || fail "sh2's namespace is not folded"
	[[ $last == *'each mount a peer of the one'* ]] || fail "the fold does not say the mounts are peers"
	[[ $last =~ …×[0-9]+:\ [0-9]+\ cop ]] || fail "no subtree is folded"
	[[ $last == *'<summary>every mount, unfolded (168)</summary>'* ]] || fail "no list of the 168 mounts"
	assert_equal "$(grep -o '<tr><td>[^<]*</td><td>[0-9]*</td>' <<<"$last" | wc -l)" 168
	# fewer than half of the mounts are nodes of their own
	nodes=$(grep -o 'class="node"' <<<"$last" | wc -l)
	((nodes < 84)) || fail "$nodes nodes for 168 mounts"
	# the small graphs before it are drawn whole
	assert_equal "$(grep -c '<details class="unfolded">' "$page")" 1
}

@test "pictures: screenshot at 1400 px: the 168-mount page fits and its labels are at least 10 px" {
	need_chromium
	page=$BATS_TEST_TMPDIR/explosion.html
	run --separate-stderr "$NSTEST" show --html "$page" "$EXPLOSION"
	assert_success
	chromium_run 1400 --screenshot="$BATS_TEST_TMPDIR/explosion.png" "file://$page"
	assert_equal "$(head -c 8 "$BATS_TEST_TMPDIR/explosion.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
	run layout "$page"
	assert_success
	assert_line --regexp '^PAGE [0-9]+$'
	read -r _ width <<<"${lines[0]}"
	((width <= 1400)) || fail "the page is $width px wide"
	assert_equal "$(grep -c '^SVG ' <<<"$output")" 6
	while read -r _ w font; do
		((w <= 1400)) || fail "an SVG is $w px wide"
		awk -v f="$font" 'BEGIN { exit !(f >= 10) }' || fail "an SVG's smallest label is $font px"
	done < <(grep '^SVG ' <<<"$output")
}

@test "pictures: screenshot at 1400 px: the 02-slave page fits, one numbering, labels at least 10 px" {
	need_chromium
	need_python
	page=$BATS_TEST_TMPDIR/slave.html
	run --separate-stderr "$NSTEST" show --html "$page" "$SLAVE"
	assert_success
	chromium_run 1400 --screenshot="$BATS_TEST_TMPDIR/slave.png" "file://$page"
	assert_equal "$(head -c 8 "$BATS_TEST_TMPDIR/slave.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
	run check_numbering "$page"
	assert_success
	run layout "$page"
	assert_success
	read -r _ width <<<"${lines[0]}"
	((width <= 1400)) || fail "the page is $width px wide"
	assert_equal "$(grep -c '^SVG ' <<<"$output")" 9
	while read -r _ w font; do
		awk -v f="$font" 'BEGIN { exit !(f >= 10) }' || fail "an SVG's smallest label is $font px"
	done < <(grep '^SVG ' <<<"$output")
}

# check_page PAGE: tidy reports nothing (no error, no warning), and no id
# is given twice.
check_page() {
	run tidy -q -e "$1"
	[[ $status == 0 ]] || fail "tidy on $1 (status $status): $(head -5 <<<"$output")"
	dup=$(grep -o ' id="[^"]*"' "$1" | sort | uniq -d | head -3)
	[[ -z $dup ]] || fail "$1 gives ids twice: $dup"
}

@test "pictures: tidy finds nothing to say about any page nstest writes, and no id is given twice" {
	need_tidy
	local f be
	for f in "$NSTEST_ROOT"/scenarios/article/*.scn "$EXPLOSION"; do
		for be in kernel model; do
			page=$BATS_TEST_TMPDIR/$be-${f##*/}.html
			run --separate-stderr "$NSTEST" show --backend "$be" --html "$page" "$f"
			assert_success
			check_page "$page"
		done
	done
	# the run report: passing and failing scenarios, several sections
	mkdir -p "$BATS_TEST_TMPDIR/set"
	cp "$NSTEST_ROOT"/scenarios/article/*.scn "$BATS_TEST_TMPDIR/set/"
	sed 's#^\(    175 169 8:5 / /mntY/b rw,relatime\)$#\1 shared:9#' "$SLAVE" >"$BATS_TEST_TMPDIR/set/05-broken.scn"
	printf '\n    # mkdir /zz\n    not printed\n' >>"$BATS_TEST_TMPDIR/set/03-bind.scn"
	run --separate-stderr "$NSTEST" run --format html --output "$BATS_TEST_TMPDIR/report.html" "$BATS_TEST_TMPDIR/set"
	assert_failure 1
	assert_equal "$(grep -c '<section id=' "$BATS_TEST_TMPDIR/report.html")" 2
	check_page "$BATS_TEST_TMPDIR/report.html"
}

# Drawing is cheap when pictures repeat: a graph equal to one drawn
# already is not drawn again, and the graphs a scenario needs are drawn by
# one `dot` (its start-up is most of a small graph's cost). On the model,
# whose runs number mounts alike, two copies of a failing scenario draw the
# same nine graphs (the steps that change a table). A `dot` on PATH in
# front of Graphviz's counts its runs and the graphs it is given.
@test "pictures: a run report draws each distinct graph once, in one dot run per scenario" {
	command -v dot >/dev/null || skip "Graphviz's dot is not installed"
	mkdir -p "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/set"
	real=$(command -v dot)
	cat >"$BATS_TEST_TMPDIR/bin/dot" <<SH
#!/bin/sh
in=\$(mktemp)
cat >"\$in"
echo "run \$(grep -c '^digraph' "\$in")" >>"$BATS_TEST_TMPDIR/dot-calls"
"$real" "\$@" <"\$in"
s=\$?
rm -f "\$in"
exit \$s
SH
	chmod +x "$BATS_TEST_TMPDIR/bin/dot"
	for k in 1 2; do
		sed 's#^\(    175 169 8:5 / /mntY/b rw,relatime\)$#\1 shared:9#' "$SLAVE" >"$BATS_TEST_TMPDIR/set/0$k-broken.scn"
	done
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run --separate-stderr "$NSTEST" run --backend model --format html \
		--output "$BATS_TEST_TMPDIR/report.html" "$BATS_TEST_TMPDIR/set"
	assert_failure 1
	# nine graphs a section, eighteen in the page
	assert_equal "$(grep -c '<figure class="graph"' "$BATS_TEST_TMPDIR/report.html")" 18
	assert_equal "$(grep -c '<svg' "$BATS_TEST_TMPDIR/report.html")" 18
	# drawn by one dot, nine graphs
	assert_equal "$(cat "$BATS_TEST_TMPDIR/dot-calls")" "run 9"
}
