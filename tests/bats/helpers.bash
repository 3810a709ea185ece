# tests/bats/helpers.bash - shared setup for the CLI tests.
#
#     load helpers
#
#     @test "a command with no output passes" {
#         scn=$(write_scn mkdir <<'SCN'
#         # mkdir /a
#     SCN
#         )
#         run "$NSTEST" run "$scn"
#         assert_success
#     }
#
# The setup() below is the default; a file that needs its own setup()
# calls nstest_setup from it.

# bats-support before bats-assert, which uses it. bats_load_library
# (bats >= 1.7) honours BATS_LIB_PATH; older bats gets Debian's location.
_nstest_load_lib() {
	if declare -F bats_load_library >/dev/null; then
		BATS_LIB_PATH=${BATS_LIB_PATH:+$BATS_LIB_PATH:}/usr/lib/bats \
			bats_load_library "$1"
	else
		load "/usr/lib/bats/$1/load.bash"
	fi
}
_nstest_load_lib bats-support
_nstest_load_lib bats-assert

# The binary under test: the repo's ./nstest, found from this file's own
# place (tests/bats/) so that test files may live in subdirectories.
NSTEST_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NSTEST=$NSTEST_ROOT/nstest
export NSTEST_ROOT NSTEST

# Each test writes its scenarios into its own directory, which bats
# removes afterwards; tests never see each other's files.
nstest_setup() {
	SCN_DIR=$BATS_TEST_TMPDIR/scn
	mkdir -p "$SCN_DIR"
	[[ -x $NSTEST ]] || fail "$NSTEST is missing: run 'make nstest' first"
	HEAD=$(nstest_head)
}

# nstest_head [DEVICES]: the line a report starts with, naming what ran:
# the kernel backend on this kernel, with tmpfs (or DEVICES) stand-ins.
nstest_head() {
	printf '%s: kernel backend, Linux %s, %s stand-ins' \
		"$("$NSTEST" --version)" "$(uname -r)" "${1:-tmpfs}"
}

setup() {
	nstest_setup
}

# write_scn NAME <<'EOF' ... EOF
# Saves stdin as scenario NAME in this test's directory and prints the
# path. NAME may contain directories (to build a tree for `nstest run
# DIR`); it gets ".scn" unless it has an extension, so that tests can
# also write files nstest must refuse.
write_scn() {
	if (($# != 1)); then
		fail "usage: write_scn NAME <<'EOF' ... EOF"
		return
	fi
	local path=$SCN_DIR/$1
	[[ ${1##*/} == *.* ]] || path+=.scn
	mkdir -p "${path%/*}"
	cat >"$path" && printf '%s\n' "$path"
}

# path_without PATTERN...: prints a PATH holding every program of this
# one but those whose names match a PATTERN (a glob: 'qemu-*'), as links
# in a folder of the test's own: a machine without a tool, simulated,
# never by uninstalling it.
path_without() {
	local dir=$BATS_TEST_TMPDIR/path-without d f n pat keep
	local -a dirs
	mkdir -p "$dir"
	IFS=: read -ra dirs <<<"$PATH"
	for d in "${dirs[@]}"; do
		for f in "$d"/*; do
			n=${f##*/}
			[[ -x $f && ! -d $f && ! -e $dir/$n ]] || continue
			keep=1
			for pat; do
				# shellcheck disable=SC2053 # a glob on purpose
				[[ $n == $pat ]] && keep=0
			done
			((keep)) && ln -s "$f" "$dir/$n"
		done
	done
	printf '%s\n' "$dir"
}
