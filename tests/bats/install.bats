#!/usr/bin/env bats
# tests/bats/install.bats - `make install` honours PREFIX and DESTDIR.

load helpers

@test "make install puts the program, scenarios and man pages under DESTDIR/PREFIX" {
	local dest=$BATS_TEST_TMPDIR/root
	run make -C "$NSTEST_ROOT" --no-print-directory install DESTDIR="$dest" PREFIX=/opt/nst
	assert_success
	[ -x "$dest/opt/nst/bin/nstest" ]
	[ -f "$dest/opt/nst/share/nstest/scenarios/article/01-shared-private.scn" ]
	[ -f "$dest/opt/nst/share/man/man1/nstest.1" ]
	[ -f "$dest/opt/nst/share/man/man5/nstest-scenario.5" ]
	# nothing escaped DESTDIR
	[ ! -e /opt/nst ]
	run "$dest/opt/nst/bin/nstest" --version
	assert_success
	assert_output --regexp '^nstest [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "make install puts the bash and zsh completion where bash-completion and zsh look" {
	local dest=$BATS_TEST_TMPDIR/root
	run make -C "$NSTEST_ROOT" --no-print-directory install DESTDIR="$dest" PREFIX=/opt/nst
	assert_success
	[ -f "$dest/opt/nst/share/bash-completion/completions/nstest" ]
	[ -f "$dest/opt/nst/share/zsh/site-functions/_nstest" ]
	# the installed bash completion completes the installed program
	run bash -c 'source "$1/share/bash-completion/completions/nstest"
		COMP_WORDS=("$1/bin/nstest" ru); COMP_CWORD=1; _nstest; echo "${COMPREPLY[*]}"' _ "$dest/opt/nst"
	assert_success
	assert_output "run"
}
