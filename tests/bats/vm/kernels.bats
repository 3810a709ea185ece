#!/usr/bin/env bats
# tests/bats/vm/kernels.bats - ci/kernels lists Debian's packaged kernels,
# fetches one into a cache once, and ci/vm-run boots it by version; offline,
# the cache alone serves. Needs the Debian archive (make check-vm): it
# fetches one kernel, the newest 6.12 (about 35 MB), into a cache of its own,
# and leaves the system's apt configuration and packages as they were.

bats_require_minimum_version 1.5.0
load vm-helpers

# What the whole file must leave unchanged: /etc/apt, and dpkg's packages.
apt_state() {
	find /etc/apt -xdev -printf '%p %s %T@ %m\n' 2>/dev/null | sort
	find /etc/apt -xdev -type f -exec sha256sum {} + 2>/dev/null | sort
	dpkg -l
}

setup_file() {
	export NSTEST_KERNEL_CACHE=$BATS_FILE_TMPDIR/kernels
	apt_state >"$BATS_FILE_TMPDIR/apt-before"
	# apt-get, logged: which commands ci/kernels runs
	mkdir -p "$BATS_FILE_TMPDIR/bin"
	cat >"$BATS_FILE_TMPDIR/bin/apt-get" <<EOF
#!/bin/bash
echo "\$*" >>"$BATS_FILE_TMPDIR/apt-get.log"
echo "APT_CONFIG=\$APT_CONFIG \$*" >>"$BATS_FILE_TMPDIR/apt-get-all.log"
exec /usr/bin/apt-get "\$@"
EOF
	# apt-helper, logged alike: it downloads the packages
	cat >"$BATS_FILE_TMPDIR/bin/apt-helper" <<EOF
#!/bin/bash
echo "\$*" >>"$BATS_FILE_TMPDIR/apt-get.log"
echo "APT_CONFIG=\$APT_CONFIG apt-helper \$*" >>"$BATS_FILE_TMPDIR/apt-get-all.log"
exec /usr/lib/apt/apt-helper "\$@"
EOF
	chmod +x "$BATS_FILE_TMPDIR/bin/apt-get" "$BATS_FILE_TMPDIR/bin/apt-helper"
}

setup() {
	nstest_setup
	export NSTEST_VM_CACHE=$BATS_RUN_TMPDIR/vm-cache
	export PATH=$BATS_FILE_TMPDIR/bin:$PATH
	APTLOG=$BATS_FILE_TMPDIR/apt-get.log
}

@test "kernels: list 6.1 shows the line's versions, oldest first" {
	run --separate-stderr "$CI_DIR/kernels" list 6.1
	assert_success
	assert_line --index 0 --regexp '^VERSION +DEBIAN +SUITE +PACKAGE$'
	assert_line --index 1 --regexp '^6\.1\.[0-9]+ +6\.1\.[0-9]+-[^ ]+ +bookworm[^ ]* +linux-image-6\.1\.0-[0-9]+-cloud-amd64$'
	versions=$(tail -n +2 <<<"$output" | awk '{ print $1 }')
	assert_equal "$versions" "$(sort -V <<<"$versions")"
	run ! grep -vE '^6\.1\.' <<<"$versions"
	# the whole list goes past 6.1, and an unknown line is an error, 2
	run --separate-stderr "$CI_DIR/kernels" list
	assert_success
	assert_line --regexp '^6\.12\.[0-9]+ '
	run --separate-stderr "$CI_DIR/kernels" list 5.99
	assert_failure 2
	[[ $stderr == *"no Debian cloud kernel 5.99 in the archive (lines: 6.1 6.12 "* ]] ||
		fail "stderr: $stderr"
	run --separate-stderr "$CI_DIR/kernels" fetch 6.12.999
	assert_failure 2
}

@test "kernels: fetch 6.12 caches the newest 6.12 bzImage and its loop module; again, it downloads nothing" {
	newest=$("$CI_DIR/kernels" list 6.12 | tail -n1 | awk '{ print $1 }')
	: >"$APTLOG"
	run --separate-stderr "$CI_DIR/kernels" fetch 6.12
	assert_success
	image=$output
	[[ $image == "$NSTEST_KERNEL_CACHE"/6.12.*/vmlinuz-6.12.* ]] || fail "image: $image"
	[[ $stderr == *"fetched $newest in "* ]] || fail "stderr: $stderr"
	assert_equal "$(dd if="$image" bs=1 skip=514 count=4 status=none)" HdrS
	run file -b "$image"
	assert_output --partial "bzImage"
	dir=$(dirname "$image")
	run grep -x 'loop: module' "$dir/info"
	assert_success
	run grep -E '^kernel/drivers/block/loop\.ko(\.xz|\.zst)?:' "$dir/modules/modules.dep"
	assert_success
	run grep -c '^download-file ' "$APTLOG"
	assert_output 1

	# the second time: the same path, no download, the image untouched
	stamp=$(stat -c '%i %Y' "$image")
	: >"$APTLOG"
	run --separate-stderr "$CI_DIR/kernels" fetch 6.12
	assert_success
	assert_output "$image"
	[[ $stderr == *"is cached"* ]] || fail "stderr: $stderr"
	run grep -c '^download-file ' "$APTLOG"
	assert_output 0
	assert_equal "$(stat -c '%i %Y' "$image")" "$stamp"
	# and list marks it
	run "$CI_DIR/kernels" list "$newest"
	assert_line --regexp "^$newest .* cached$"
}

@test "kernels: vm-run --debian 6.12 boots the cached kernel: the article passes, also on loop devices" {
	cd "$NSTEST_ROOT"
	: >"$APTLOG"
	image=$("$CI_DIR/kernels" fetch 6.12)
	rel=$(basename "$image" | sed 's/^vmlinuz-//')
	run --separate-stderr "$CI_DIR/vm-run" --debian 6.12 -- run scenarios/article
	assert_success
	assert_line --index 0 --partial "Linux $rel, tmpfs stand-ins"
	assert_line "4 passed, 0 failed, 0 skipped"
	# the loop module came from the cache, next to the image
	run --separate-stderr "$CI_DIR/vm-run" --debian 6.12 -- run --devices=loop scenarios/article
	assert_success
	assert_line --index 0 --partial "Linux $rel, loop stand-ins"
	assert_line "4 passed, 0 failed, 0 skipped"
	run grep -c '^download-file ' "$APTLOG"
	assert_output 0
	# a version the archive does not have is a usage error
	run --separate-stderr "$CI_DIR/vm-run" --debian 5.99 -- run scenarios/article
	assert_failure 2
}

@test "kernels: offline (the archive out of reach), the cache alone serves; an uncached kernel is 125" {
	image=$("$CI_DIR/kernels" fetch 6.12)
	export NSTEST_DEBIAN_MIRROR=http://127.0.0.1:9/debian
	export NSTEST_DEBIAN_SECURITY_MIRROR=http://127.0.0.1:9/debian-security
	: >"$APTLOG"
	run --separate-stderr "$CI_DIR/kernels" list
	assert_success
	[[ $stderr == *"the archive is out of reach (offline?); using the cached kernels only"* ]] ||
		fail "stderr: $stderr"
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 --regexp '^6\.12\.[0-9]+ .* cached,offline$'

	run --separate-stderr "$CI_DIR/kernels" fetch 6.12
	assert_success
	assert_output "$image"
	run --separate-stderr "$CI_DIR/kernels" fetch latest
	assert_success
	assert_output "$image"

	run --separate-stderr "$CI_DIR/kernels" fetch 6.17
	assert_failure 125
	[[ $stderr == *"offline, and '6.17' is not cached (cached: 6.12."* ]] || fail "stderr: $stderr"
	run --separate-stderr "$CI_DIR/kernels" list 6.17
	assert_failure 125
	run grep -c '^download-file ' "$APTLOG"
	assert_output 0

	# --offline does not even try
	: >"$APTLOG"
	run --separate-stderr "$CI_DIR/kernels" --offline fetch 6.12
	assert_success
	assert_output "$image"
	[[ ! -s $APTLOG ]] || fail "apt-get ran: $(cat "$APTLOG")"
}

@test "kernels: usage errors exit 2" {
	run "$CI_DIR/kernels"
	assert_failure 2
	run "$CI_DIR/kernels" frobnicate
	assert_failure 2
	run "$CI_DIR/kernels" fetch
	assert_failure 2
	run "$CI_DIR/kernels" --bogus list
	assert_failure 2
	run "$CI_DIR/kernels" --help
	assert_success
	assert_output --partial "ci/kernels [options] fetch"
}

@test "kernels: the system's apt configuration and packages are as they were" {
	apt_state >"$BATS_FILE_TMPDIR/apt-after"
	run diff "$BATS_FILE_TMPDIR/apt-before" "$BATS_FILE_TMPDIR/apt-after"
	assert_success
	# every apt-get and apt-helper ran with the private configuration,
	# and only to update the lists or download a package
	[[ -s $BATS_FILE_TMPDIR/apt-get-all.log ]] || fail "apt-get never ran"
	grep -q ' apt-helper download-file ' "$BATS_FILE_TMPDIR/apt-get-all.log" ||
		fail "apt-helper never downloaded: $(cat "$BATS_FILE_TMPDIR/apt-get-all.log")"
	run grep -vE "^APT_CONFIG=$NSTEST_KERNEL_CACHE/apt/apt\.conf (-q update|apt-helper download-file )" \
		"$BATS_FILE_TMPDIR/apt-get-all.log"
	assert_failure 1
	assert_output ""
}
