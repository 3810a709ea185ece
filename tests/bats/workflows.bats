#!/usr/bin/env bats
# tests/bats/workflows.bats - the CI workflows in ci/workflows/ (README:
# "Running the kernel matrix on your CI") parse as YAML, have the jobs,
# the matrix of kernel lines and the artifacts that make them work, and
# every repository path their commands name exists (and, run as a
# command, is executable). Their commands that make the matrix, run here
# as CI runs them, give every kernel line `ci/kernels list` shows and no
# other: that needs Debian's archive, and is skipped, with the reason,
# only when ci/kernels says the archive is out of reach. Needs python3
# with PyYAML (python3-yaml, which ci/install-deps installs).

bats_require_minimum_version 1.5.0
load helpers

GITHUB=$NSTEST_ROOT/ci/workflows/github-kernel-matrix.yml
GITLAB=$NSTEST_ROOT/ci/workflows/gitlab-kernel-matrix.yml
CHILD=$NSTEST_ROOT/ci/workflows/gitlab-kernel-matrix-child.yml

setup() {
	nstest_setup
	python3 -c 'import yaml' 2>/dev/null ||
		fail "python3 has no PyYAML: install python3-yaml (ci/install-deps does)"
}

# check_paths ROOT FILE...: every ci/..., tests/... or scenarios[/...]
# in the commands (run:, script:) of the workflow FILEs must exist under
# ROOT, and one that starts a command must be executable. Prints each
# path checked; exit 1 naming the first that is not there.
check_paths() {
	python3 - "$@" <<'PY'
import os, re, sys, yaml

root, files = sys.argv[1], sys.argv[2:]
PATH = re.compile(r"(?<![\w/.$-])((?:ci|tests)/[\w.+/-]*[\w+-]|scenarios(?:/[\w.+/-]*[\w+-])?)(?![\w/.-])")

def commands(node):
    """The shell commands of a workflow: GitHub's run:, GitLab's script:
    (and before_script:, after_script:)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "run" and isinstance(v, str):
                yield from v.splitlines()
            elif k in ("script", "before_script", "after_script"):
                yield from (v if isinstance(v, list) else [v])
            else:
                yield from commands(v)
    elif isinstance(node, list):
        for v in node:
            yield from commands(v)

bad = 0
for f in files:
    for cmd in commands(yaml.safe_load(open(f))):
        for m in PATH.finditer(cmd):
            p = m.group(1)
            full = os.path.join(root, p)
            if not os.path.exists(full):
                print(f"{f}: {p}: no such path in the repository ({cmd})")
                bad = 1
            elif cmd[:m.start()].strip() == "" and not os.access(full, os.X_OK):
                print(f"{f}: {p}: run as a command but not executable")
                bad = 1
            else:
                print(p)
sys.exit(bad)
PY
}

# booted_lines ROOT LIST WORKFLOW...: the kernel lines each WORKFLOW boots,
# against those of LIST (what `ci/kernels list` printed). A workflow's
# lines are its matrix: a literal list, GitHub's fromJSON of a job's
# output (the step that sets it is run, with bash -eo pipefail as
# `shell: bash` does, from ROOT, and $GITHUB_OUTPUT read back), or a
# GitLab child pipeline from a job's artifact (the job's script is run as
# GitLab's runner runs it, in a folder of links to ROOT's files, and the
# child's matrix read). Prints "WORKFLOW: boots LINE..." for each; exit 1
# naming every line LIST shows that a workflow does not boot, or that it
# boots and LIST does not show; 2 when a workflow's matrix cannot be
# read or its command fails.
booted_lines() {
	python3 - "$@" <<'PY'
import json, os, re, subprocess, sys, tempfile, yaml

root, listfile, files = sys.argv[1], sys.argv[2], sys.argv[3:]
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def die(msg):
    print(msg)
    sys.exit(2)


def shell(where, script, cwd, env=None):
    p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                       cwd=cwd, env=dict(os.environ, **(env or {})),
                       capture_output=True, text=True)
    if p.returncode:
        die(f"{where}: its command failed (status {p.returncode}): {p.stderr.strip()}")


def expr(where, value, pattern):
    m = EXPR.fullmatch(str(value).strip())
    m = m and re.fullmatch(pattern, m.group(1))
    if not m:
        die(f"{where}: {value!r} is not ${{{{ {pattern} }}}}")
    return m.groups()


def github(f, doc):
    """The matrix.line values of every job of a GitHub workflow."""
    booted = []
    jobs = doc["jobs"]
    for name, job in jobs.items():
        line = ((job.get("strategy") or {}).get("matrix") or {}).get("line")
        if line is None:
            continue
        if isinstance(line, list):
            booted += line
            continue
        src, out = expr(f"{f}: jobs.{name}.strategy.matrix.line", line,
                        r"fromJSON\(needs\.([\w-]+)\.outputs\.([\w-]+)\)")
        needs = job.get("needs", [])
        if src not in ([needs] if isinstance(needs, str) else needs):
            die(f"{f}: jobs.{name} reads the output of {src} but does not need it")
        step_id, var = expr(f"{f}: jobs.{src}.outputs.{out}",
                            jobs[src].get("outputs", {}).get(out),
                            r"steps\.([\w-]+)\.outputs\.([\w-]+)")
        step = [s for s in jobs[src]["steps"] if s.get("id") == step_id]
        if len(step) != 1 or step[0].get("shell") != "bash":
            die(f"{f}: jobs.{src}: no step with id {step_id} and shell: bash")
        with tempfile.TemporaryDirectory() as tmp:
            gh = os.path.join(tmp, "github-output")
            open(gh, "w").close()
            shell(f"{f}: jobs.{src}, step {step_id}", step[0]["run"], root, {"GITHUB_OUTPUT": gh})
            values = dict(l.split("=", 1) for l in open(gh).read().splitlines())
        if var not in values:
            die(f"{f}: jobs.{src}, step {step_id} set no output {var}")
        booted += json.loads(values[var])
    return booted


def gitlab(f, doc):
    """The LINE values of every parallel: matrix: of a GitLab pipeline,
    and of the child pipelines it makes from artifacts."""
    booted = []
    for name, job in doc.items():
        if not isinstance(job, dict):
            continue
        parallel = job.get("parallel")
        for entry in parallel.get("matrix", []) if isinstance(parallel, dict) else []:
            if "LINE" in entry:
                booted += entry["LINE"] if isinstance(entry["LINE"], list) else [entry["LINE"]]
        trigger = job.get("trigger")
        for inc in trigger.get("include", []) if isinstance(trigger, dict) else []:
            if "artifact" not in inc:
                continue
            art, src = inc["artifact"], inc.get("job")
            needs = [n if isinstance(n, str) else n.get("job") for n in job.get("needs", [])]
            gen = doc.get(src)
            if src not in needs or not isinstance(gen, dict) or \
                    art not in (gen.get("artifacts") or {}).get("paths", []):
                die(f"{f}: {name}: the child pipeline {art} is not an artifact of a job it needs")
            with tempfile.TemporaryDirectory() as tmp:
                for e in os.listdir(root):
                    if e != ".git":
                        os.symlink(os.path.join(root, e), os.path.join(tmp, e))
                script = gen["script"] if isinstance(gen["script"], list) else [gen["script"]]
                shell(f"{f}: {src}", "\n".join(script), tmp)
                child = os.path.join(tmp, art)
                if not os.path.isfile(child):
                    die(f"{f}: {src} did not write {art}")
                booted += gitlab(f"{f} -> {art}", yaml.safe_load(open(child)))
    return booted


rows = [r.split() for r in open(listfile).read().splitlines()[1:] if r.split()]
lines = []
for r in rows:
    m = re.match(r"(\d+\.\d+)([.~]|$)", r[0])
    if not m:
        die(f"{listfile}: {r[0]}: not a kernel version")
    if m.group(1) not in lines:
        lines.append(m.group(1))
if not lines:
    die(f"{listfile}: no kernel at all")

bad = 0
for f in files:
    doc = yaml.safe_load(open(f))
    booted = github(f, doc) if "jobs" in doc else gitlab(f, doc)
    print(f"{f}: boots {' '.join(map(str, booted))}")
    missing = [l for l in lines if l not in booted]
    extra = [b for b in booted if b not in lines]
    twice = sorted({b for b in booted if booted.count(b) > 1})
    if missing:
        print(f"{f}: {', '.join(missing)}: packaged (ci/kernels list) but not booted")
    if extra:
        print(f"{f}: {', '.join(map(str, extra))}: booted, but not a line ci/kernels list shows")
    if twice:
        print(f"{f}: {', '.join(twice)}: booted twice")
    bad |= bool(missing or extra or twice)
sys.exit(bad)
PY
}

@test "workflows: every repository path the commands name exists; commands are executable" {
	run check_paths "$NSTEST_ROOT" "$GITHUB" "$GITLAB" "$CHILD"
	assert_success
	# what the files must name, at the least
	for p in ci/kernels ci/install-deps ci/kernel-matrix ci/merge-reports scenarios \
		ci/workflows/gitlab-kernel-matrix-child.yml; do
		assert_line "$p"
	done
}

@test "workflows: the path check itself finds a path that is not there, or not executable" {
	cat >"$BATS_TEST_TMPDIR/w.yml" <<'YML'
jobs:
  a:
    steps:
      - run: ci/kernel-matrix -s scenarios/article -o out
      - run: |
          make
          ci/nonesuch --all
b:
  script:
    - tests/bats/helpers.bash
YML
	run check_paths "$NSTEST_ROOT" "$BATS_TEST_TMPDIR/w.yml"
	assert_failure 1
	assert_line "ci/kernel-matrix"
	assert_line "scenarios/article"
	assert_line "$BATS_TEST_TMPDIR/w.yml: ci/nonesuch: no such path in the repository (ci/nonesuch --all)"
	assert_line "$BATS_TEST_TMPDIR/w.yml: tests/bats/helpers.bash: run as a command but not executable"
}

@test "workflows: GitHub: the lines from a first job, a job per line, reports kept, a summary job that merges them" {
	run python3 - "$GITHUB" <<'PY'
import fnmatch, sys, yaml

doc = yaml.safe_load(open(sys.argv[1]))
on = doc.get("on", doc.get(True))          # YAML 1.1 reads a bare on as true
assert {"push", "pull_request", "workflow_dispatch"} <= set(on), on
jobs = doc["jobs"]
assert set(jobs) == {"lines", "kernel", "summary"}, jobs.keys()

# the lines: Debian's archive, read by ci/kernels in a Debian container
ln = jobs["lines"]
assert ln["container"]["image"].startswith("debian:"), ln["container"]
assert ln["outputs"] == {"lines": "${{ steps.lines.outputs.lines }}"}, ln["outputs"]
assert ln["steps"][0]["uses"].startswith("actions/checkout@"), ln["steps"]
step = [s for s in ln["steps"] if s.get("id") == "lines"]
assert len(step) == 1 and step[0]["shell"] == "bash", step
assert step[0]["run"].splitlines() == [
    "lines=$(ci/kernels lines --json)",
    'echo "lines=$lines" >> "$GITHUB_OUTPUT"'], step[0]["run"]

k = jobs["kernel"]
assert k["needs"] in ("lines", ["lines"]), k["needs"]
assert k["strategy"]["matrix"] == {"line": "${{ fromJSON(needs.lines.outputs.lines) }}"}, k["strategy"]
assert k["strategy"]["fail-fast"] is False
steps = k["steps"]
uses = [s.get("uses", "") for s in steps]
runs = [s.get("run", "") for s in steps]
assert uses[0].startswith("actions/checkout@"), uses
assert any(r.strip().endswith("ci/install-deps --vm") for r in runs), runs
assert "make" in runs, runs
km = [r for r in runs if "ci/kernel-matrix" in r]
assert km == ['ci/kernel-matrix --no-host --debian "${{ matrix.line }}" -s scenarios -o out'], km
# install, build, run, in that order
order = [next(i for i, r in enumerate(runs) if w in r) for w in ("install-deps", "make", "kernel-matrix")]
assert order == sorted(order), order
up = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@")]
assert len(up) == 1 and up[0]["if"] == "always()", up
assert up[0]["with"]["path"].split() == ["out/*.json", "out/*.xml"], up[0]["with"]
assert "${{ matrix.line }}" in up[0]["with"]["name"], up[0]["with"]["name"]

s = jobs["summary"]
assert s["needs"] in ("kernel", ["kernel"]), s["needs"]
assert s["if"] == "always()"
steps = s["steps"]
assert steps[0]["uses"].startswith("actions/checkout@")
down = [x for x in steps if x.get("uses", "").startswith("actions/download-artifact@")]
assert len(down) == 1, down
pattern, where = down[0]["with"]["pattern"], down[0]["with"]["path"]
# the upload's names match the download's pattern, for lines as
# ci/kernels lines gives them
for line in ("6.1", "6.12", "7.3"):
    name = up[0]["with"]["name"].replace("${{ matrix.line }}", line)
    assert fnmatch.fnmatch(name, pattern), (name, pattern)
runs = [x.get("run", "") for x in steps]
md = [r for r in runs if "--markdown" in r]
ju = [r for r in runs if "--junit" in r]
assert md == [f'ci/merge-reports --markdown {where}/*/*.json >> "$GITHUB_STEP_SUMMARY"'], md
assert ju == [f"ci/merge-reports --junit merged-junit.xml {where}/*/*.xml"], ju
# the table is written even when the JUnit merge exits 1 for a failure
assert [x for x in steps if "--markdown" in x.get("run", "")][0]["if"] == "always()"
print("ok")
PY
	assert_success
	assert_output ok
}

@test "workflows: GitLab: the lines from a first job into a child pipeline: parallel matrix, JUnit reports, a merge job" {
	run python3 - "$GITLAB" "$CHILD" <<'PY'
import sys, yaml

doc = yaml.safe_load(open(sys.argv[1]))
assert doc["stages"] == ["lines", "test"], doc["stages"]
assert set(doc) == {"stages", "kernel-lines", "kernel-matrix"}, doc.keys()
g = doc["kernel-lines"]
assert g["stage"] == "lines"
assert g["image"].startswith("debian:"), g["image"]
assert g["script"][0] == "lines=$(ci/kernels lines --json)", g["script"]
assert g["script"][-1] == ('sed "s/\\[\\"@LINES@\\"\\]/$lines/" '
                           "ci/workflows/gitlab-kernel-matrix-child.yml > kernel-matrix-child.yml"), g["script"]
assert g["artifacts"]["paths"] == ["kernel-matrix-child.yml"], g["artifacts"]
t = doc["kernel-matrix"]
assert t["stage"] == "test"
assert t["needs"] == ["kernel-lines"], t["needs"]
assert t["trigger"] == {"include": [{"artifact": "kernel-matrix-child.yml", "job": "kernel-lines"}],
                        "strategy": "depend"}, t["trigger"]

# the child, with the placeholder that kernel-lines replaces
doc = yaml.safe_load(open(sys.argv[2]))
assert doc["stages"] == ["test", "report"], doc["stages"]
k = doc["kernel-matrix"]
assert k["stage"] == "test"
assert k["parallel"]["matrix"] == [{"LINE": ["@LINES@"]}], k["parallel"]
script = k["script"]
assert script[0] == "ci/install-deps --vm", script
assert script[1] == "make", script
assert script[2] == 'ci/kernel-matrix --no-host --debian "$LINE" -s scenarios -o "out/$LINE"', script
art = k["artifacts"]
assert art["when"] == "always"
assert art["paths"] == ["out/*/*.json", "out/*/*.xml"], art["paths"]
assert art["reports"]["junit"] == "out/*/*.xml", art["reports"]

m = doc["merge-reports"]
assert doc["stages"].index(m["stage"]) > doc["stages"].index(k["stage"])
assert m["needs"] == [{"job": "kernel-matrix", "artifacts": True}], m["needs"]
assert m["when"] == "always"
script = m["script"]
assert "ci/merge-reports --junit merged-junit.xml out/*/*.xml || true" in script, script
assert "ci/merge-reports --markdown out/*/*.json > kernel-matrix.md || true" in script, script
# the job's status is the merge's own (1 for a failure on some kernel)
assert script[-1] == "ci/merge-reports out/*/*.json", script
assert set(m["artifacts"]["paths"]) == {"merged-junit.xml", "kernel-matrix.md"}
print("ok")
PY
	assert_success
	assert_output ok
}

@test "workflows: both boot every kernel line ci/kernels list shows, and no other (Debian's archive)" {
	# the reference: what ci/kernels list shows; skipped only when
	# ci/kernels itself says the archive is out of reach (it then lists
	# the cache, which is no reference)
	"$NSTEST_ROOT/ci/kernels" list >"$BATS_TEST_TMPDIR/list" 2>"$BATS_TEST_TMPDIR/list.err" ||
		fail "ci/kernels list failed: $(cat "$BATS_TEST_TMPDIR/list.err")"
	if grep -q 'the archive is out of reach' "$BATS_TEST_TMPDIR/list.err"; then
		skip "Debian's archive is out of reach: $(grep -m1 -A1 '^ *Err:' "$BATS_TEST_TMPDIR/list.err" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')"
	fi
	want=$(tail -n +2 "$BATS_TEST_TMPDIR/list" | awk '{ print $1 }' |
		sed -E 's/^([0-9]+\.[0-9]+).*/\1/' | awk '!seen[$0]++' | paste -sd' ')
	[[ $want == 6.1\ 6.12\ * ]] || fail "ci/kernels list: lines '$want'"
	# the workflows' own commands, run as CI runs them
	run booted_lines "$NSTEST_ROOT" "$BATS_TEST_TMPDIR/list" "$GITHUB" "$GITLAB"
	assert_success
	assert_output "$GITHUB: boots $want
$GITLAB: boots $want"
}

@test "workflows: the line check fails for a line not booted, one booted that is not packaged, one booted twice" {
	cat >"$BATS_TEST_TMPDIR/list" <<'LIST'
VERSION   DEBIAN              SUITE                       PACKAGE
6.1.170   6.1.170-3           bookworm                    linux-image-6.1.0-47-cloud-amd64
6.12.43   6.12.43-1~bpo12+1   bookworm-backports          linux-image-6.12.43+deb12-cloud-amd64
6.17.8    6.17.8-1~bpo13+1    trixie-backports            linux-image-6.17.8+deb13-cloud-amd64
7.1.13    7.1.13-1~bpo13+1    trixie-backports            linux-binary-7.1.13+deb13-cloud-amd64     cached
7.3~rc7   7.3~rc7-1~exp1      experimental                linux-binary-7.3-cloud-amd64
LIST
	# the shipped workflows with the five lines they once hard-coded
	python3 - "$GITHUB" "$BATS_TEST_TMPDIR/gh.yml" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
doc["jobs"]["kernel"]["strategy"]["matrix"]["line"] = ["6.1", "6.12", "6.16", "7.2", "latest"]
yaml.safe_dump(doc, open(sys.argv[2], "w"))
PY
	cat >"$BATS_TEST_TMPDIR/gl.yml" <<'YML'
kernel-matrix:
  parallel:
    matrix:
      - LINE: ["6.1", "6.12", "6.16", "7.2", "latest"]
  script:
    - ci/kernel-matrix --no-host --debian "$LINE" -s scenarios -o "out/$LINE"
YML
	run booted_lines "$NSTEST_ROOT" "$BATS_TEST_TMPDIR/list" "$BATS_TEST_TMPDIR/gh.yml" "$BATS_TEST_TMPDIR/gl.yml"
	assert_failure 1
	for w in gh gl; do
		assert_line "$BATS_TEST_TMPDIR/$w.yml: boots 6.1 6.12 6.16 7.2 latest"
		assert_line "$BATS_TEST_TMPDIR/$w.yml: 6.17, 7.1, 7.3: packaged (ci/kernels list) but not booted"
		assert_line "$BATS_TEST_TMPDIR/$w.yml: 6.16, 7.2, latest: booted, but not a line ci/kernels list shows"
	done

	# the shipped workflows, their commands made to give too few lines,
	# or one twice: the GitHub job's output and the GitLab child pipeline
	# are what counts
	python3 - "$GITHUB" "$GITLAB" "$BATS_TEST_TMPDIR" <<'PY'
import sys, yaml
gh, gl, tmp = sys.argv[1:]
doc = yaml.safe_load(open(gh))
step = [s for s in doc["jobs"]["lines"]["steps"] if s.get("id") == "lines"][0]
step["run"] = """echo 'lines=["6.1", "6.12", "6.17", "7.1", "7.3", "7.3"]' >> "$GITHUB_OUTPUT"\n"""
yaml.safe_dump(doc, open(f"{tmp}/gh.yml", "w"))
doc = yaml.safe_load(open(gl))
doc["kernel-lines"]["script"][0] = """lines='["6.1", "6.12", "7.1", "7.3"]'"""
yaml.safe_dump(doc, open(f"{tmp}/gl.yml", "w"))
PY
	run booted_lines "$NSTEST_ROOT" "$BATS_TEST_TMPDIR/list" "$BATS_TEST_TMPDIR/gh.yml" "$BATS_TEST_TMPDIR/gl.yml"
	assert_failure 1
	assert_output "$BATS_TEST_TMPDIR/gh.yml: boots 6.1 6.12 6.17 7.1 7.3 7.3
$BATS_TEST_TMPDIR/gh.yml: 7.3: booted twice
$BATS_TEST_TMPDIR/gl.yml: boots 6.1 6.12 7.1 7.3
$BATS_TEST_TMPDIR/gl.yml: 6.17: packaged (ci/kernels list) but not booted"

	# a command that fails fails the check (status 2), with its reason
	python3 - "$GITHUB" "$BATS_TEST_TMPDIR/gh.yml" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
step = [s for s in doc["jobs"]["lines"]["steps"] if s.get("id") == "lines"][0]
step["run"] = step["run"].replace("ci/kernels lines --json", "ci/kernels lines --yaml")
yaml.safe_dump(doc, open(sys.argv[2], "w"))
PY
	run booted_lines "$NSTEST_ROOT" "$BATS_TEST_TMPDIR/list" "$BATS_TEST_TMPDIR/gh.yml"
	assert_failure 2
	assert_output "$BATS_TEST_TMPDIR/gh.yml: jobs.lines, step lines: its command failed (status 2): kernels: lines: unknown argument '--yaml' (lines [--json])"
}

@test "workflows: ci/kernels lines: 125 when the archive is out of reach, never the cache's lines; 1 for none; 2 for a bad argument" {
	export NSTEST_KERNEL_CACHE=$BATS_TEST_TMPDIR/kernels
	export NSTEST_DEBIAN_MIRROR=http://127.0.0.1:9/debian NSTEST_DEBIAN_SECURITY_MIRROR=none
	run --separate-stderr "$NSTEST_ROOT/ci/kernels" lines --json
	assert_failure 125
	assert_output ""
	[[ $stderr == *"kernels: lines: the archive is out of reach, so its lines are unknown"* ]] ||
		fail "stderr: $stderr"
	# --offline asks for the cache's lines; it has none
	run --separate-stderr "$NSTEST_ROOT/ci/kernels" --offline lines
	assert_failure 1
	assert_output ""
	assert_equal "${stderr##*$'\n'}" "kernels: lines: --offline, and no kernel is cached"
	run --separate-stderr "$NSTEST_ROOT/ci/kernels" lines --json 6.1
	assert_failure 2
	assert_equal "$stderr" "kernels: lines: unknown argument '6.1' (lines [--json])"
}

@test "workflows: ci/install-deps installs PyYAML, which this test needs" {
	run grep -E '^\s*python3-yaml\b' "$NSTEST_ROOT/ci/install-deps"
	assert_success
}
