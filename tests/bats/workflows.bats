#!/usr/bin/env bats
# tests/bats/workflows.bats - the CI workflows in ci/workflows/ (README:
# "Running the kernel matrix on your CI") parse as YAML, have the jobs,
# the matrix of kernel lines and the artifacts that make them work, and
# every repository path their commands name exists (and, run as a
# command, is executable). Needs python3 with PyYAML (python3-yaml, which
# ci/install-deps installs).

bats_require_minimum_version 1.5.0
load helpers

GITHUB=$NSTEST_ROOT/ci/workflows/github-kernel-matrix.yml
GITLAB=$NSTEST_ROOT/ci/workflows/gitlab-kernel-matrix.yml
LINES='["6.1", "6.12", "6.16", "7.2", "latest"]'

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

@test "workflows: every repository path the commands name exists; commands are executable" {
	run check_paths "$NSTEST_ROOT" "$GITHUB" "$GITLAB"
	assert_success
	# what the two files must name, at the least
	for p in ci/install-deps ci/kernel-matrix ci/merge-reports scenarios; do
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

@test "workflows: GitHub: a job per kernel line, reports kept, a summary job that merges them" {
	run python3 - "$GITHUB" "$LINES" <<'PY'
import fnmatch, json, sys, yaml

doc = yaml.safe_load(open(sys.argv[1]))
lines = json.loads(sys.argv[2])
on = doc.get("on", doc.get(True))          # YAML 1.1 reads a bare on as true
assert {"push", "pull_request", "workflow_dispatch"} <= set(on), on
jobs = doc["jobs"]
assert set(jobs) == {"kernel", "summary"}, jobs.keys()

k = jobs["kernel"]
assert k["strategy"]["matrix"]["line"] == lines, k["strategy"]
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
# the upload's names match the download's pattern, for every line
for line in lines:
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

@test "workflows: GitLab: parallel matrix over the same lines, JUnit reports, a merge job that needs them" {
	run python3 - "$GITLAB" "$LINES" <<'PY'
import json, sys, yaml

doc = yaml.safe_load(open(sys.argv[1]))
lines = json.loads(sys.argv[2])
assert doc["stages"] == ["test", "report"], doc["stages"]
k = doc["kernel-matrix"]
assert k["stage"] == "test"
assert k["parallel"]["matrix"] == [{"LINE": lines}], k["parallel"]
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

@test "workflows: ci/install-deps installs PyYAML, which this test needs" {
	run grep -E '^\s*python3-yaml\b' "$NSTEST_ROOT/ci/install-deps"
	assert_success
}
