#!/usr/bin/env bats
# tests/bats/html.bats - `nstest show --html` and `nstest run --format
# html`: one self-contained page, opened in headless Chromium, whose
# propagation graphs (inline SVG) must render with a size.
#
# The page itself has no script. To read the rendered sizes, the test
# gives Chromium a copy with a small probe script at its end, which
# writes each <svg>'s size into the DOM that --dump-dom prints.

bats_require_minimum_version 1.5.0
load helpers

SLAVE=$NSTEST_ROOT/scenarios/article/02-slave.scn

chromium_bin() {
	command -v chromium || command -v chromium-browser || true
}

# chromium_run ARGS...: headless, no sandbox (root), a profile of its own.
chromium_run() {
	local profile
	profile=$(mktemp -d "$BATS_TEST_TMPDIR/chromium.XXXXXX")
	timeout 120 "$(chromium_bin)" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$profile" --window-size=1200,2000 "$@" 2>/dev/null
}

# svg_sizes PAGE: "W H" per <svg> as Chromium lays the page out.
svg_sizes() {
	local probe=$BATS_TEST_TMPDIR/probe.html
	sed 's#</body>#<script>for (const s of document.querySelectorAll("svg")) { const r = s.getBoundingClientRect(); const p = document.createElement("p"); p.className = "svg-size"; p.textContent = "SIZE " + Math.round(r.width) + " " + Math.round(r.height); document.body.appendChild(p); }</script></body>#' \
		"$1" >"$probe"
	chromium_run --dump-dom "file://$probe" | grep -o 'SIZE [0-9]* [0-9]*' | cut -d' ' -f2-
}

@test "show --html: one page, offline, with the graphs after the steps that change mounts" {
	page=$BATS_TEST_TMPDIR/slave.html
	run --separate-stderr "$NSTEST" show --html "$page" "$SLAVE"
	assert_success
	assert_output --regexp "^PASS  $SLAVE \\(Linux [^ ,]+, tmpfs stand-ins, kernel backend; the page: $page\\)$"
	# the header names kernel, stand-ins and backend
	grep -q "<p class=\"about\">Linux $(uname -r), tmpfs stand-ins, kernel backend</p>" "$page"
	# self-contained: no script, no link, no src= from elsewhere
	! grep -qiE '<script|<link|src=|@import|url\(' "$page"
	# the prose and every command are on it
	grep -q 'A slave mount receives mount events' "$page"
	assert_equal "$(grep -c '<pre class="cmd">' "$page")" 20
	# a graph after each step that changed a mount table: the two
	# mounts, the two --make-shared, the unshare, --make-slave, and the
	# mounts of /mntX/a, /mntY/b and /mntY/c
	assert_equal "$(grep -c '<svg' "$page")" 9
	# namespaces: one in the four graphs before the unshare, two in the
	# five from it on
	assert_equal "$(grep -c 'class="cluster"' "$page")" 14
	# peer edges: /mntX and /mntY after the unshare, /mntX alone after
	# --make-slave, then /mntX and /mntX/a in each of the last three
	assert_equal "$(grep -c 'class="edge peer"' "$page")" 9
	# master -> slave arrows: sh2's /mntY from --make-slave on (four
	# graphs), and sh2's /mntY/c in the last
	assert_equal "$(grep -c 'class="edge slave"' "$page")" 5
}

@test "show --html: a step that differs shows this run, the expected lines and the diff" {
	scn=$(write_scn differs <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # cat /proc/self/mountinfo | grep ' /a ' | sed 's/ - .*//'
    1 2 0:3 / /a rw,relatime
SCN
	)
	page=$BATS_TEST_TMPDIR/differs.html
	run --separate-stderr "$NSTEST" show --html "$page" "$scn"
	assert_failure 1
	grep -q '<div class="label">this run</div>' "$page"
	grep -q '<div class="label">expected</div>' "$page"
	grep -q '<del>-1 2 0:3 / /a rw,relatime</del>' "$page"
	grep -qE '<ins>\+[0-9]+ [0-9]+ [0-9]+:[0-9]+ / /a rw,relatime shared:[0-9]+</ins>' "$page"
}

@test "show --html: Chromium renders every graph with a size" {
	[[ -n $(chromium_bin) ]] || skip "chromium is not installed (Debian: apt-get install chromium)"
	page=$BATS_TEST_TMPDIR/slave.html
	run "$NSTEST" show --html "$page" "$SLAVE"
	assert_success
	chromium_run --screenshot="$BATS_TEST_TMPDIR/slave.png" "file://$page"
	[[ -s $BATS_TEST_TMPDIR/slave.png ]]
	# a PNG
	assert_equal "$(head -c 8 "$BATS_TEST_TMPDIR/slave.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
	run svg_sizes "$page"
	assert_success
	assert_equal "${#lines[@]}" 9
	for l in "${lines[@]}"; do
		read -r w h <<<"$l"
		((w > 50 && h > 50)) || fail "an SVG rendered at ${w}x${h}"
	done
}

@test "run --format html: a summary table and each failing scenario with its graphs" {
	mkdir -p "$BATS_TEST_TMPDIR/set"
	cp "$NSTEST_ROOT/scenarios/article/01-shared-private.scn" "$BATS_TEST_TMPDIR/set/"
	sed 's#^\(    175 169 8:5 / /mntY/b rw,relatime\)$#\1 shared:9#' "$SLAVE" >"$BATS_TEST_TMPDIR/set/02-broken.scn"
	page=$BATS_TEST_TMPDIR/report.html
	run --separate-stderr "$NSTEST" run --format html --output "$page" "$BATS_TEST_TMPDIR/set"
	assert_failure 1
	grep -q '<table class="summary">' "$page"
	grep -q '<span class="status PASS">PASS</span></td><td>[^<]*01-shared-private.scn' "$page"
	grep -q '<span class="status FAIL">FAIL</span></td><td><a href="#s2">' "$page"
	grep -q '<section id="s2">' "$page"
	! grep -q '<section id="s1">' "$page"
	assert_equal "$(grep -c '<svg' "$page")" 9
	grep -q '1 passed, 1 failed, 0 skipped' "$page"
	if [[ -n $(chromium_bin) ]]; then
		run svg_sizes "$page"
		assert_equal "${#lines[@]}" 9
	fi
}
