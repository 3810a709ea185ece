#!/usr/bin/env bats
# tests/bats/catalogue.bats - tests/catalogue-check: scenarios/README.md
# names only files that exist, and names every rule scenario.

bats_require_minimum_version 1.5.0
load helpers

CHECK=$NSTEST_ROOT/tests/catalogue-check

copy_scenarios() {
	mkdir "$BATS_TEST_TMPDIR/tree"
	cp -r "$NSTEST_ROOT/scenarios" "$BATS_TEST_TMPDIR/tree/"
	printf '%s\n' "$BATS_TEST_TMPDIR/tree/scenarios"
}

@test "catalogue: the shipped README names every rule scenario, and only files that exist" {
	run "$CHECK"
	assert_success
	assert_output ''
}

@test "catalogue: a rule scenario the README does not name is reported" {
	dir=$(copy_scenarios)
	cp "$dir/man7/01-shared-private-example.scn" "$dir/man7/99-unlisted.scn"
	run "$CHECK" "$dir"
	assert_failure 1
	assert_output "$dir/README.md: does not name man7/99-unlisted.scn"
}

@test "catalogue: a name that is no file is reported with its line, a bare name in its cell's folder" {
	dir=$(copy_scenarios)
	mv "$dir/sharedsubtree/43-umount-busy-and-lazy.scn" "$BATS_TEST_TMPDIR/"
	run "$CHECK" "$dir"
	assert_failure 1
	# named with its folder, and bare after sharedsubtree/41 in a cell:
	# each line that names it is reported, and nothing else
	nums=$(grep -n '43-umount-busy-and-lazy.scn' "$dir/README.md" | cut -d: -f1)
	[ "$(wc -w <<<"$nums")" -ge 2 ]
	for n in $nums; do
		assert_line "$dir/README.md:$n: names sharedsubtree/43-umount-busy-and-lazy.scn, which does not exist"
	done
	[ "${#lines[@]}" -eq "$(wc -w <<<"$nums")" ]
}

@test "catalogue: a folder without README.md exits 2" {
	run "$CHECK" "$BATS_TEST_TMPDIR"
	assert_failure 2
	assert_output --partial "catalogue-check: no $BATS_TEST_TMPDIR/README.md"
}
