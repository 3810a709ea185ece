#!/usr/bin/env bats
# tests/bats/shard.bats - run --shard K/N: the N shards of one command
# line run every scenario exactly once, with any --format, --filter and
# -j; bad values are usage errors; an empty shard is an error, and with
# --allow-empty-shard a report of nothing.
# The ci/kernel-matrix command the workflows and README give for sharding
# a kernel's scenarios really hands --shard to nstest run, and its shards
# split the scenarios. Everything here runs on the model backend or lists
# (no mounts, no privileges).

bats_require_minimum_version 1.5.0
load helpers

# every_nth K N: lines K, K+N, K+2N, ... of standard input
every_nth() {
	awk -v k="$1" -v n="$2" '(NR - 1) % n == k - 1'
}

@test "shard: for N from 1 to 7, shard K gets list positions K, K+N, ...; together each scenario once" {
	all=$("$NSTEST" run --backend model --list scenarios)
	total=$(wc -l <<<"$all")
	((total > 7)) || fail "too few scenarios to shard: $total"
	for n in 1 2 3 4 5 6 7; do
		union=
		for ((k = 1; k <= n; k++)); do
			run --separate-stderr "$NSTEST" run --backend model --list --shard "$k/$n" scenarios
			assert_success
			assert_equal "$stderr" ""
			assert_equal "$output" "$(every_nth "$k" "$n" <<<"$all")"
			union+=$output$'\n'
		done
		# every scenario once, none twice
		assert_equal "$(sort <<<"${union%$'\n'}")" "$(sort <<<"$all")"
		assert_equal "$(sort <<<"${union%$'\n'}" | uniq -d)" ""
	done
}

@test "shard: --filter first, then the shard of what it kept" {
	kept=$("$NSTEST" run --backend model --list --filter slave scenarios)
	(($(wc -l <<<"$kept") >= 3)) || fail "the filter keeps too little: $kept"
	run "$NSTEST" run --backend model --list --shard 2/2 --filter slave scenarios
	assert_success
	assert_output "$(every_nth 2 2 <<<"$kept")"
	# the order of the options does not matter
	run "$NSTEST" run --backend model --list scenarios --filter slave --shard 2/2
	assert_output "$(every_nth 2 2 <<<"$kept")"
}

@test "shard: the runs of all shards together report every scenario once, with its verdict" {
	"$NSTEST" run --backend model --format json scenarios/article >"$BATS_TEST_TMPDIR/all.json"
	for k in 1 2 3; do
		"$NSTEST" run --backend model --format json --shard "$k/3" scenarios/article \
			>"$BATS_TEST_TMPDIR/s$k.json"
	done
	run python3 - "$BATS_TEST_TMPDIR"/all.json "$BATS_TEST_TMPDIR"/s{1,2,3}.json <<'PY'
import json, sys
whole, *shards = [json.load(open(f)) for f in sys.argv[1:]]
assert whole["shard"] is None, whole["shard"]
got = []
for k, doc in enumerate(shards, 1):
    assert doc["shard"] == f"{k}/3", doc["shard"]
    got += [(s["path"], s["status"]) for s in doc["scenarios"]]
want = [(s["path"], s["status"]) for s in whole["scenarios"]]
assert sorted(got) == sorted(want), (got, want)
assert len(set(got)) == len(got)
print(len(got))
PY
	assert_success
	assert_output 4
}

@test "shard: every format names the shard (head line, TAP comment, JUnit property, JSON)" {
	run "$NSTEST" run --backend model --shard 2/3 scenarios/article
	assert_success
	assert_line --index 0 "$("$NSTEST" --version): model backend, documented rules, tmpfs stand-ins, shard 2/3"
	assert_line --index 1 "PASS  scenarios/article/02-slave.scn"
	assert_line --index 2 "1 passed, 0 failed, 0 skipped"

	run "$NSTEST" run --backend model --format tap --shard 2/3 scenarios/article
	assert_success
	assert_output "TAP version 13
1..1
# $("$NSTEST" --version): model backend, documented rules, tmpfs stand-ins, shard 2/3
ok 1 - scenarios/article/02-slave.scn
# 1 passed, 0 failed, 0 skipped"

	"$NSTEST" run --backend model --format junit --shard 2/3 scenarios/article >"$BATS_TEST_TMPDIR/r.xml"
	run xmllint --xpath 'string(//property[@name="shard"]/@value)' "$BATS_TEST_TMPDIR/r.xml"
	assert_output "2/3"
	run xmllint --xpath 'count(//testcase)' "$BATS_TEST_TMPDIR/r.xml"
	assert_output 1
	# no shard property without --shard
	"$NSTEST" run --backend model --format junit scenarios/article >"$BATS_TEST_TMPDIR/w.xml"
	run xmllint --xpath 'count(//property[@name="shard"])' "$BATS_TEST_TMPDIR/w.xml"
	assert_output 0

	run "$NSTEST" run --backend model --format json --shard 2/3 scenarios/article
	assert_success
	assert_line --index 0 --partial '"backend":"model","rootless":false,"shard":"2/3","scenarios":['

	"$NSTEST" run --backend model --format html --output "$BATS_TEST_TMPDIR/r.html" \
		--shard 2/3 scenarios/article
	grep -q 'tmpfs stand-ins, shard 2/3' "$BATS_TEST_TMPDIR/r.html"
}

@test "shard: -j gives each shard the same scenarios and verdicts as -j 1" {
	for j in 1 3; do
		"$NSTEST" run --backend model --format tap -j "$j" --shard 2/4 scenarios \
			| grep -v '^# nstest' >"$BATS_TEST_TMPDIR/j$j.tap"
	done
	run diff "$BATS_TEST_TMPDIR/j1.tap" "$BATS_TEST_TMPDIR/j3.tap"
	assert_success
	run grep -c '^ok ' "$BATS_TEST_TMPDIR/j1.tap"
	assert_output "$("$NSTEST" run --backend model --list --shard 2/4 scenarios | wc -l)"
}

@test "shard: leading zeros are allowed, and the reports write the shard without them" {
	run "$NSTEST" run --backend model --format json --shard 02/003 scenarios/article
	assert_success
	assert_line --index 0 --partial '"shard":"2/3"'
	assert_line --index 1 --partial '"path":"scenarios/article/02-slave.scn"'
}

@test "shard: bad values are usage errors naming --shard; exit 2" {
	for bad in 0/3 4/3 1/0 0/0 x 3 1/ /3 '' -1/3 +1/3 ' 1/3' 1/3x 1.0/3 2/99999999999; do
		run --separate-stderr "$NSTEST" run --backend model --shard "$bad" scenarios/article
		assert_failure 2
		assert_equal "$output" ""
		assert_equal "$(head -n 1 <<<"$stderr")" \
			"nstest: error: --shard must be K/N, two whole numbers with 1 <= K <= N <= 1000000 (shard K of N), not '$bad'"
	done
	run --separate-stderr "$NSTEST" run --backend model scenarios/article --shard
	assert_failure 2
	assert_equal "$(head -n 1 <<<"$stderr")" "nstest: error: run: option '--shard' needs a value"
}

@test "shard: an empty shard is an error, exit 2, that says what to do; nothing runs, no report" {
	msg="nstest: error: shard 5/5 has no scenarios: 4 scenario file(s) for 5 shards; split into at most 4 shards, or pass --allow-empty-shard where an empty shard is expected"
	for format in human tap junit json html; do
		run --separate-stderr "$NSTEST" run --backend model --format "$format" --shard 5/5 scenarios/article
		assert_failure 2
		assert_equal "$stderr" "$msg"
		assert_output ""
	done
	run --separate-stderr "$NSTEST" run --backend model --shard 5/5 --output "$BATS_TEST_TMPDIR/r.json" \
		--format json scenarios/article
	assert_failure 2
	[[ ! -e $BATS_TEST_TMPDIR/r.json ]] || fail "a report was written"
	run --separate-stderr "$NSTEST" run --backend model --list --shard 5/5 scenarios/article
	assert_failure 2
	assert_equal "$stderr" "$msg"
	# after --filter: 2 scenarios left for 3 shards
	run --separate-stderr "$NSTEST" run --backend model --filter '0[12]-*' --shard 3/3 scenarios/article
	assert_failure 2
	assert_equal "$stderr" "nstest: error: shard 3/3 has no scenarios: 2 scenario file(s) for 3 shards; split into at most 2 shards, or pass --allow-empty-shard where an empty shard is expected"
	# the kernel backend (the default) stops there too, before any sandbox
	run --separate-stderr "$NSTEST" run --shard 5/5 scenarios/article
	assert_failure 2
	assert_equal "$stderr" "$msg"
	# for git bisect run, a command line that cannot judge: stop (128)
	run --separate-stderr "$NSTEST" run --backend model --bisect --shard 5/5 scenarios/article
	assert_failure 128
	# the shards that do have scenarios are no error
	run --separate-stderr "$NSTEST" run --backend model --shard 4/4 scenarios/article
	assert_success
	assert_equal "$stderr" ""
}

@test "shard: --allow-empty-shard: an empty shard says so on stderr, reports zero scenarios in every format, exit 0" {
	msg="nstest: shard 5/5 has no scenarios: 4 scenario file(s) for 5 shards"
	head="$("$NSTEST" --version): model backend, documented rules, tmpfs stand-ins, shard 5/5"

	run --separate-stderr "$NSTEST" run --backend model --shard 5/5 --allow-empty-shard scenarios/article
	assert_success
	assert_equal "$stderr" "$msg"
	assert_output "$head
0 passed, 0 failed, 0 skipped"

	run --separate-stderr "$NSTEST" run --backend model --format tap --shard 5/5 --allow-empty-shard scenarios/article
	assert_success
	assert_equal "$stderr" "$msg"
	assert_output "TAP version 13
1..0 # SKIP shard 5/5 has no scenarios
# $head
# 0 passed, 0 failed, 0 skipped"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/r.tap"
	# prove takes it as "skipped", not as a broken stream
	run prove -e cat "$BATS_TEST_TMPDIR/r.tap"
	assert_success
	assert_line --partial "skipped: shard 5/5 has no scenarios"

	run --separate-stderr "$NSTEST" run --backend model --format junit --shard 5/5 --allow-empty-shard scenarios/article
	assert_success
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/r.xml"
	run xmllint --xpath 'string(/testsuites/@tests)' "$BATS_TEST_TMPDIR/r.xml"
	assert_output 0

	"$NSTEST" run --backend model --format json --shard 5/5 --allow-empty-shard scenarios/article \
		>"$BATS_TEST_TMPDIR/r.json" 2>/dev/null
	run python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["shard"], d["scenarios"], d["summary"])' "$BATS_TEST_TMPDIR/r.json"
	assert_output "5/5 [] {'passed': 0, 'failed': 0, 'skipped': 0, 'xfailed': 0, 'xpassed': 0}"

	run --separate-stderr "$NSTEST" run --backend model --list --shard 5/5 --allow-empty-shard scenarios/article
	assert_success
	assert_output ""
	assert_equal "$stderr" "$msg"
	# before the paths or after them, before --shard or after it
	run --separate-stderr "$NSTEST" run --backend model --allow-empty-shard --list scenarios/article --shard 5/5
	assert_success
	assert_equal "$stderr" "$msg"
	# without --shard it changes nothing
	run "$NSTEST" run --backend model --allow-empty-shard --list scenarios/article
	assert_success
	assert_output "$("$NSTEST" run --backend model --list scenarios/article)"
}

@test "shard: no scenario files at all is still an error, shard or not" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr "$NSTEST" run --backend model --shard 1/2 "$BATS_TEST_TMPDIR/empty"
	assert_failure 2
	assert_equal "$(head -n 1 <<<"$stderr")" "nstest: error: no scenario files (*.scn) found"
}

@test "shard: a broken scenario file fails only the shard it belongs to" {
	write_scn a-good >/dev/null <<'SCN'
    # mkdir /a
SCN
	write_scn b-broken >/dev/null <<'SCN'
    # frobnicate /a
SCN
	run "$NSTEST" run --backend model --shard 1/2 "$SCN_DIR"
	assert_success
	run "$NSTEST" run --backend model --shard 2/2 "$SCN_DIR"
	assert_failure 2
}

@test "shard: --update rewrites only the shard's scenarios" {
	for name in a b; do
		write_scn "$name" >/dev/null <<'SCN'
    # mkdir /x
    # ls /
    wrong
SCN
	done
	run "$NSTEST" run --backend model --update --shard 2/2 "$SCN_DIR"
	assert_success
	grep -q wrong "$SCN_DIR/a.scn"
	run grep -c wrong "$SCN_DIR/b.scn"
	assert_output 0
}

@test "shard: run --help describes --shard and --allow-empty-shard" {
	run "$NSTEST" run --help
	assert_success
	assert_line --partial "--shard K/N"
	assert_line --partial "with no scenario (K above the number of scenarios) is"
	assert_line --regexp "^  --allow-empty-shard +an empty shard is no error: it reports zero scenarios$"
}

# shard_commands FILE...: the documented ci/kernel-matrix command lines that
# split scenarios (those with --shard: in the workflows' comments, and
# README's code lines), each run as CI would run its shards 1/3, 2/3 and
# 3/3: ci/kernel-matrix's own parse_args reads the line, and its host
# column's command for nstest, with --list, says which scenarios each
# shard gets. Prints "FILE: N shards: a b c scenarios of T" per command;
# exit 1 naming a command whose --shard splits kernels, or whose shards
# are empty, overlap or leave a scenario out. `--line TEXT` checks TEXT
# alone.
shard_commands() {
	python3 - "$NSTEST_ROOT" "$NSTEST" "$@" <<'PY'
import importlib.machinery, importlib.util, os, re, shlex, subprocess, sys, tempfile

root, nstest, args = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path.insert(0, os.path.join(root, "ci"))
loader = importlib.machinery.SourceFileLoader("kernel_matrix", os.path.join(root, "ci", "kernel-matrix"))
km = importlib.util.module_from_spec(importlib.util.spec_from_loader("kernel_matrix", loader))
loader.exec_module(km)

if args[:1] == ["--line"]:
    commands = [("--line", args[1])]
else:
    commands = []
    for f in args:
        for line in open(f):
            m = re.match(r"^(?:#\s+|    )(ci/kernel-matrix .*--shard.*)$", line.rstrip("\n"))
            if m:
                commands.append((f, m.group(1)))
        if not any(c[0] == f for c in commands):
            print(f"{f}: no documented ci/kernel-matrix command with --shard")
            sys.exit(1)


def shard_line(text, k):
    """TEXT for shard K of 3: the workflows' variables (GitHub's matrix,
    GitLab's $LINE and $SHARD) filled in, README's 2/3 made K/3."""
    for a, b in (("${{ matrix.shard }}", str(k)), ("${{ matrix.line }}", "6.17"),
                 ("${SHARD%/*}", str(k)), ("$SHARD", f"{k}/3"), ("$LINE", "6.17")):
        text = text.replace(a, b)
    return re.sub(r"(?<![\w/])2/3(?![\w/])", f"{k}/3", text)


def listed(argv):
    p = subprocess.run(argv + ["--list"], cwd=root, capture_output=True, text=True)
    if p.returncode:
        print(f"{' '.join(argv)} --list: status {p.returncode}: {p.stderr.strip()}")
        sys.exit(1)
    return p.stdout.split()


bad = 0
for where, text in commands:
    got, sizes = [], []
    for k in (1, 2, 3):
        argv = shlex.split(shard_line(text, k))
        a = km.parse_args(argv[1:])
        if a.shard is not None or a.nstest_opts[-2:] != ["--shard", f"{k}/3"]:
            print(f"{where}: {text}: --shard {k}/3 does not reach nstest run "
                  f"(kernel shard {a.shard}, nstest options {a.nstest_opts})")
            bad = 1
            break
        host = km.Kernel(None, tempfile.gettempdir(), 0)
        cmd = host.command(nstest, a.scenarios, a.nstest_opts, a.vm_opt)
        mine = listed(cmd)
        sizes.append(len(mine))
        got += mine
    else:
        whole = listed(host.command(nstest, a.scenarios, a.nstest_opts[:-2], a.vm_opt))
        if 0 in sizes or sorted(got) != sorted(whole):
            print(f"{where}: {text}: shards of {sizes} scenarios, {len(got)} in all, "
                  f"{len(set(got))} different, of {len(whole)}")
            bad = 1
        else:
            print(f"{where}: 3 shards: {' '.join(map(str, sizes))} scenarios of {len(whole)}")
sys.exit(bad)
PY
}

@test "shard: the documented CI command (workflows, README) splits each kernel's scenarios: every one once, no shard empty" {
	GITHUB=$NSTEST_ROOT/ci/workflows/github-kernel-matrix.yml
	CHILD=$NSTEST_ROOT/ci/workflows/gitlab-kernel-matrix-child.yml
	README=$NSTEST_ROOT/README.md
	total=$("$NSTEST" run --list "$NSTEST_ROOT/scenarios" | wc -l)
	run shard_commands "$GITHUB" "$CHILD" "$README"
	assert_success
	assert_equal "${#lines[@]}" 3
	for f in "$GITHUB" "$CHILD" "$README"; do
		assert_line --regexp "^$f: 3 shards: [1-9][0-9]* [1-9][0-9]* [1-9][0-9]* scenarios of $total\$"
	done

	# what the workflows once said: --shard to ci/kernel-matrix itself
	# splits kernels, and nstest runs every scenario in each job
	wrong='ci/kernel-matrix --no-host --debian "${{ matrix.line }}" -s scenarios -o out --shard ${{ matrix.shard }}/3'
	run shard_commands --line "$wrong"
	assert_failure 1
	assert_output "--line: $wrong: --shard 1/3 does not reach nstest run (kernel shard (1, 3), nstest options [])"

	# fewer scenarios than shards: shards 2 and 3 are empty, an error
	one='ci/kernel-matrix --no-host --debian 6.17 -s scenarios/article/01-shared-private.scn -o out -- --shard 2/3'
	run shard_commands --line "$one"
	assert_failure 1
	assert_output --partial "--format json --shard 2/3 scenarios/article/01-shared-private.scn --list: status 2: nstest: error: shard 2/3 has no scenarios: 1 scenario file(s) for 3 shards;"
}

@test "shard: ci/kernel-matrix --shard with no kernel is an error (2) that says what to do; --allow-empty-shard: 0; neither boots" {
	# two kernel images that must never boot: the shard is decided first
	touch "$BATS_TEST_TMPDIR/vmlinuz-a" "$BATS_TEST_TMPDIR/vmlinuz-b"
	km=("$NSTEST_ROOT/ci/kernel-matrix" --no-host --no-junit -o "$BATS_TEST_TMPDIR/out"
		-s "$NSTEST_ROOT/scenarios/article" "$BATS_TEST_TMPDIR/vmlinuz-a" "$BATS_TEST_TMPDIR/vmlinuz-b")
	run --separate-stderr "${km[@]}" --shard 3/3
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "kernel-matrix: shard 3/3: no kernel falls to this shard (2 in all); split into at most 2 shards, or pass --allow-empty-shard where an empty shard is expected (to split each kernel's scenarios, give --shard to nstest run, after --)"

	run --separate-stderr "${km[@]}" --shard 3/3 --allow-empty-shard
	assert_success
	assert_output ""
	assert_equal "$stderr" "kernel-matrix: shard 3/3: no kernel falls to this shard (2 in all)"
	# nothing ran: no report
	run find "$BATS_TEST_TMPDIR/out" -type f
	assert_output ""
}
