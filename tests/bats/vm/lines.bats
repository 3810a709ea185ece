#!/usr/bin/env bats
# tests/bats/vm/lines.bats - every scenario on Debian's kernel lines: the
# oldest (6.1), 6.12, one between 6.16 and 7.1 (6.18, which has the loop
# module in the archive), and the newest packaged kernel, each fetched by
# ci/kernels and booted by ci/kernel-matrix. On each, in each stand-in
# mode and rootless, every scenario passes, is skipped for a feature the
# kernel lacks (or, rootless, for real root it declares), or fails as a
# marked deviation (xfail): the markers' ranges must hold on real kernels,
# not only on this machine's.

bats_require_minimum_version 1.5.0
load vm-helpers

LINES=6.1,6.12,6.18,latest

# matrix MODE_OPTIONS...: every scenario on $LINES must pass, fail as
# marked (xfail) or be skipped for a feature the kernel lacks; the
# JSON report of each kernel is read to check it.
matrix() {
	cd "$NSTEST_ROOT"
	local out=$BATS_TEST_TMPDIR/reports n
	n=$(find scenarios -name '*.scn' | wc -l)
	run --separate-stderr "$CI_DIR/kernel-matrix" --no-host --no-junit -j 2 -o "$out" \
		--debian "$LINES" -s scenarios -- "$@"
	assert_success
	assert_line --regexp "^$n scenarios on 4 kernels; "
	run python3 - "$n" "$out"/*.json <<'PY'
import json, sys
n = int(sys.argv[1])
# the kernels' reports; matrix.json is the run's own record
files = [f for f in sys.argv[2:] if not f.endswith("/matrix.json")]
assert len(files) == 4, f"{len(files)} reports"
for f in files:
    r = json.load(open(f))
    assert len(r["scenarios"]) == n, f"{r['kernel']}: {len(r['scenarios'])} scenarios"
    for s in r["scenarios"]:
        assert s["status"] in ("pass", "xfail", "skip"), f"{r['kernel']}: {s['path']} {s['status']}"
        if s["status"] == "skip":
            # only for what the kernel lacks (a system call, a release a
            # scenario's kernel: line names, loop devices in a VM without
            # modules, tmpfs stand-ins that share a superblock before
            # 6.15), or real root in rootless mode
            allowed = ("this kernel lacks ", "needs kernel >= ", "loop devices are not available",
                       "needs real root, not a user namespace")
            assert any(a in s["reason"] for a in allowed), f"{r['kernel']}: {s['path']}: {s['reason']}"
            print(f"{r['kernel']}: {s['path']} skipped: {s['reason']}")
PY
	assert_success
}

@test "lines: every scenario on 6.1, 6.12, 6.18 and the newest, tmpfs stand-ins" {
	matrix
}

@test "lines: every scenario on 6.1, 6.12, 6.18 and the newest, loop stand-ins" {
	matrix --devices=loop
}

@test "lines: every scenario on 6.1, 6.12, 6.18 and the newest, rootless" {
	matrix --userns
}
