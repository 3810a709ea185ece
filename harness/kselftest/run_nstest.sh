#!/bin/sh
# run_nstest.sh - nstest's scenarios as a kselftest. The kernel's
# tools/testing/selftests/run_kselftest.sh runs it as the test of the
# collection "nstest" (kselftest-list.txt: nstest:run_nstest.sh); it also
# runs by hand. `make kselftest-install DESTDIR=...` installs it beside the
# nstest program, the scenarios/ folder and kselftest's settings file.
#
# It plays the scenarios on the running kernel and prints KTAP (`nstest run
# --format ktap`): a subtest per scenario, a result per step in it, a
# failing step's diff as diagnostic lines. The runner shows it as the
# test's own output, each line behind "# ".
#
# Arguments go to `nstest run`: its options, and scenario files or folders
# (relative to this folder). When none of them is a folder or a file
# named *.scn, scenarios/ runs whole. The runner passes $KSELFTEST_RUN_NSTEST_SH_ARGS:
#
#   KSELFTEST_RUN_NSTEST_SH_ARGS=scenarios/article ./run_kselftest.sh -c nstest
#
# Exit status, as kselftest reads it: 0 every scenario passed, was an
# expected failure or was skipped; 1 one failed; 2 a usage error or a
# scenario file that does not parse (nothing ran); 4 (kselftest's skip)
# nothing could run on this machine: every scenario was skipped.
ksft_skip=4

cd "$(dirname "$0")" || exit 1

paths=0
for arg; do
	case $arg in
	-*) ;;
	*.scn) paths=1 ;;
	*) [ -d "$arg" ] && paths=1 ;;
	esac
done
[ "$paths" = 1 ] || set -- "$@" scenarios

# A second report of the same run, read below for the verdict.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run_nstest.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

./nstest run --format ktap --report "ktap:$tmp/report.ktap" "$@"
status=$?

# KTAP's own words decide a skip: every top-level result is "ok N ... #
# SKIP", or the plan is "1..0" (no scenario to run).
if [ "$status" = 0 ] && [ -r "$tmp/report.ktap" ] &&
	awk '/^1\.\.0( |$)/ { skip++ }
		/^ok [0-9]+ .* # SKIP( |$)/ { skip++; next }
		/^(not )?ok [0-9]+/ { ran++ }
		END { exit !(skip > 0 && ran == 0) }' "$tmp/report.ktap"; then
	echo "# run_nstest.sh: every scenario was skipped: nothing could run here"
	exit "$ksft_skip"
fi
exit "$status"
