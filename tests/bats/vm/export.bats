#!/usr/bin/env bats
# tests/bats/vm/export.bats - `nstest export --c` on a packaged kernel: the
# program written from each article and regression scenario, booted as
# the guest's only program by ci/vm-run (--nstest PROGRAM), exits as
# nstest's own verdict on that kernel says it should (issue 27, part 3:
# "a kernel developer ... runs it as root, or in a VM's initramfs").
#
# nstest runs once in the guest on all the files; each program is then a
# boot of its own (the initramfs runs one program). A PASS is 0; a FAIL,
# and an XFAIL (a known deviation of that kernel: the program checks the
# documented expectation), are 1.

load vm-helpers

# export FILE and build it statically (the guest has the libraries ldd
# names, but a static program needs none); prints the binary's path
export_static() {
	local f=$1 out=$BATS_FILE_TMPDIR/$(basename "$1" .scn)
	"$NSTEST" export --c "$f" -o "$out.c" >&2 || return 1
	gcc -O2 -static -Wall -Werror -o "$out" "$out.c" >&2 || return 1
	printf '%s\n' "$out"
}

@test "export: each article and regression program in a VM exits as nstest judges the file there" {
	local f prog want verdict n=0
	local files=("$NSTEST_ROOT"/scenarios/article/*.scn "$NSTEST_ROOT"/scenarios/regressions/*.scn)
	local -A verdicts=()
	# nstest's verdict per file on that kernel, in one boot
	run "$CI_DIR/vm-run" "$KERNEL" -- run "${files[@]}"
	[[ $status == 0 || $status == 1 ]] || fail "nstest in the VM: status $status: $output"
	for f in "${files[@]}"; do
		verdict=$(printf '%s\n' "$output" | awk -v f="$f" '$2 == f { print $1; exit }')
		[[ -n $verdict ]] || fail "no verdict for $f in: $output"
		verdicts[$f]=$verdict
	done
	for f in "${files[@]}"; do
		case ${verdicts[$f]} in
		PASS) want=0 ;;
		FAIL | XFAIL) want=1 ;;
		*) fail "$f: nstest says ${verdicts[$f]}, which a program cannot mirror" ;;
		esac
		prog=$(export_static "$f") || fail "$f: export or build failed"
		run "$CI_DIR/vm-run" --nstest "$prog" "$KERNEL"
		[[ $status == "$want" ]] ||
			fail "$f on ${KERNEL##*/}: program exit $status, nstest says ${verdicts[$f]} ($want): $output"
		n=$((n + 1))
	done
	((n == ${#files[@]})) || fail "only $n of ${#files[@]} programs ran"
}
