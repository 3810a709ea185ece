#!/usr/bin/env bats
# tests/bats/kernels-fetch.bats - ci/kernels fetch, without the network:
# an archive of made-up kernel packages on this machine (file:// URIs), and
# an apt-get that "updates" by copying its Packages file into the private
# lists. What is checked: the index's addresses and hashes, the files read
# out of the packages (ci/kernel_unpack.py) and nothing else, the small
# modules.dep and the order it gives ci/initramfs/mkimage, the info file's
# "loop:", Debian's three layouts (6.1's /lib/modules, linux-image,
# 6.19's linux-binary + linux-modules), and that an entry is whole or
# absent: a failed, killed or doubled fetch never leaves half of one.
# tests/bats/vm/kernels.bats does the same against Debian's archive.

bats_require_minimum_version 1.5.0
load helpers

# A file that passes for a bzImage: "HdrS" at 514.
fake_bzimage() {
	mkdir -p "$(dirname "$1")"
	head -c 2048 /dev/zero >"$1"
	printf HdrS | dd of="$1" bs=1 seek=514 conv=notrunc status=none
	printf '%s' "${2:-}" >>"$1"
}

# A kernel module: an ELF object whose .modinfo says depends=$2.
fake_module() {
	local out=$1 deps=$2 name
	name=$(basename "${out%%.ko*}")
	mkdir -p "$(dirname "$out")"
	printf 'static const char m[] __attribute__((section(".modinfo"), used)) =\n"name=%s\\0depends=%s\\0license=GPL";\n' \
		"$name" "$deps" | cc -c -x c - -o "${out%%.ko*}.ko"
	case $out in
	*.ko.xz) xz -f "${out%%.ko*}.ko" ;;
	esac
}

# deb NAME VERSION ROOT: a package of ROOT's files in the archive's pool,
# and its stanza in the Packages file (SHA256 from $BAD_SHA for NAME if set).
deb() {
	local name=$1 version=$2 root=$3 f
	mkdir -p "$root/DEBIAN" "$ARCHIVE/pool"
	printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
		"$name" "$version" >"$root/DEBIAN/control"
	f=pool/${name}_${version}_amd64.deb
	dpkg-deb --root-owner-group -Zgzip -b "$root" "$ARCHIVE/$f" >/dev/null
	local sha
	sha=$(sha256sum "$ARCHIVE/$f" | cut -d' ' -f1)
	[[ ${BAD_SHA:-} == "$name" ]] && sha=$(printf '%064d' 0)
	printf 'Package: %s\nVersion: %s\nInstalled-Size: 50000\nFilename: %s\nSize: %s\nSHA256: %s\n\n' \
		"$name" "$version" "$f" "$(stat -c %s "$ARCHIVE/$f")" "$sha" >>"$ARCHIVE/Packages"
}

setup_file() {
	ARCHIVE=$BATS_FILE_TMPDIR/archive/debian
	export ARCHIVE
	mkdir -p "$ARCHIVE"
	: >"$ARCHIVE/Packages"
	local r m

	# 6.12.5: one linux-image package, loop among other modules
	r=$BATS_FILE_TMPDIR/src/a
	rel=6.12.5+deb13-cloud-amd64
	fake_bzimage "$r/boot/vmlinuz-$rel" 6.12.5
	m=$r/usr/lib/modules/$rel
	fake_module "$m/kernel/drivers/block/loop.ko.xz" ""
	fake_module "$m/kernel/drivers/block/brd.ko.xz" ""
	fake_module "$m/kernel/fs/zzz/other.ko.xz" ""
	printf 'kernel/fs/ext4/ext4.ko\n' >"$m/modules.builtin"
	deb "linux-image-$rel" 6.12.5-1 "$r"

	# 6.1.50: Debian 12's naming and /lib/modules, modules not compressed
	r=$BATS_FILE_TMPDIR/src/b
	rel=6.1.0-9-cloud-amd64
	fake_bzimage "$r/boot/vmlinuz-$rel" 6.1.50
	fake_module "$r/lib/modules/$rel/kernel/drivers/block/loop.ko" ""
	deb "linux-image-$rel" 6.1.50-1 "$r"

	# 7.2.6: linux-binary (the image under /usr/lib/modules) and
	# linux-modules; loop needs dep_b, which needs dep-a, which comes
	# before loop in the archive (so it is taken in a second pass)
	rel=7.2.6+deb13-cloud-amd64
	r=$BATS_FILE_TMPDIR/src/c
	fake_bzimage "$r/usr/lib/modules/$rel/vmlinuz" 7.2.6
	deb "linux-binary-$rel" 7.2.6-1 "$r"
	r=$BATS_FILE_TMPDIR/src/d
	m=$r/usr/lib/modules/$rel
	fake_module "$m/kernel/block/dep-a.ko.xz" ""
	fake_module "$m/kernel/drivers/block/loop.ko.xz" "dep_b"
	fake_module "$m/kernel/lib/dep_b.ko.xz" "dep_a"
	fake_module "$m/kernel/net/unrelated.ko.xz" "dep_a"
	deb "linux-modules-$rel" 7.2.6-1 "$r"

	# 6.19.6: linux-binary alone, no modules anywhere
	r=$BATS_FILE_TMPDIR/src/e
	rel=6.19.6+deb13-cloud-amd64
	fake_bzimage "$r/boot/vmlinuz-$rel" 6.19.6
	deb "linux-binary-$rel" 6.19.6-1 "$r"

	# 6.18.5: loop built in
	r=$BATS_FILE_TMPDIR/src/f
	rel=6.18.5+deb13-cloud-amd64
	fake_bzimage "$r/boot/vmlinuz-$rel" 6.18.5
	m=$r/usr/lib/modules/$rel
	fake_module "$m/kernel/fs/zzz/other.ko.xz" ""
	printf 'kernel/drivers/block/loop.ko\nkernel/fs/ext4/ext4.ko\n' >"$m/modules.builtin"
	deb "linux-image-$rel" 6.18.5-1 "$r"

	# 6.16.3: no bzImage in it; 6.17.8: a hash that does not match
	r=$BATS_FILE_TMPDIR/src/g
	rel=6.16.3+deb13-cloud-amd64
	mkdir -p "$r/boot"
	head -c 2048 /dev/zero >"$r/boot/vmlinuz-$rel"
	deb "linux-image-$rel" 6.16.3-1 "$r"
	r=$BATS_FILE_TMPDIR/src/h
	rel=6.17.8+deb13-cloud-amd64
	fake_bzimage "$r/boot/vmlinuz-$rel" 6.17.8
	BAD_SHA=linux-image-$rel deb "linux-image-$rel" 6.17.8-1 "$r"

	# apt-get: "update" copies the Packages file into the private lists
	mkdir -p "$BATS_FILE_TMPDIR/bin"
	cat >"$BATS_FILE_TMPDIR/bin/apt-get" <<EOF
#!/bin/bash
echo "\$*" >>"\${APTLOG:-/dev/null}"
[[ " \$* " == *" update "* ]] || { echo "E: this apt-get only updates" >&2; exit 100; }
lists=\${APT_CONFIG%/apt.conf}/lists
mkdir -p "\$lists"
cp "$ARCHIVE/Packages" "\$lists/archive_debian_dists_sid_main_binary-amd64_Packages"
echo "Get:1 file:$ARCHIVE sid InRelease"
EOF
	chmod +x "$BATS_FILE_TMPDIR/bin/apt-get"
}

setup() {
	nstest_setup
	export PATH=$BATS_FILE_TMPDIR/bin:$PATH
	export NSTEST_KERNEL_CACHE=$BATS_TEST_TMPDIR/kernels
	export NSTEST_DEBIAN_MIRROR=file://$ARCHIVE NSTEST_DEBIAN_SECURITY_MIRROR=none
	export NSTEST_VM_CACHE=$BATS_TEST_TMPDIR/vm-cache
	export APTLOG=$BATS_TEST_TMPDIR/apt-get.log
	K=$NSTEST_ROOT/ci/kernels
}

# The files of an entry, relative to it, sorted.
files_of() { (cd "$1" && find . -type f | sed 's,^\./,,' | LC_ALL=C sort); }

@test "kernels-fetch: the index holds each package's address and SHA256 from the lists" {
	run --separate-stderr "$K" list
	assert_success
	assert_line --regexp '^7\.2\.6 +7\.2\.6-1 +sid +linux-binary-7\.2\.6\+deb13-cloud-amd64$'
	rel=7.2.6+deb13-cloud-amd64
	row=$(awk -F'\t' -v r="$rel" '$3 == r' "$NSTEST_KERNEL_CACHE/apt/kernels.tsv")
	IFS=$'\t' read -r _ _ _ _ pkg mods _ url sha murl msha <<<"$row"
	assert_equal "$pkg $mods" "linux-binary-$rel linux-modules-$rel"
	assert_equal "$url" "file://$ARCHIVE/pool/linux-binary-${rel}_7.2.6-1_amd64.deb"
	assert_equal "$sha" "$(sha256sum "$ARCHIVE/pool/linux-binary-${rel}_7.2.6-1_amd64.deb" | cut -d' ' -f1)"
	assert_equal "$murl" "file://$ARCHIVE/pool/linux-modules-${rel}_7.2.6-1_amd64.deb"
	assert_equal "$msha" "$(sha256sum "$ARCHIVE/pool/linux-modules-${rel}_7.2.6-1_amd64.deb" | cut -d' ' -f1)"
	# a package that holds image and modules: no second address
	row=$(awk -F'\t' '$1 == "6.12.5"' "$NSTEST_KERNEL_CACHE/apt/kernels.tsv")
	assert_equal "$(cut -f6,10,11 <<<"$row")" "linux-image-6.12.5+deb13-cloud-amd64	-	-"
}

@test "kernels-fetch: an index of an older ci/kernels, without addresses, is made again from the lists, without updating them" {
	"$K" -q list >/dev/null
	index=$NSTEST_KERNEL_CACHE/apt/kernels.tsv
	cut -f1-7 "$index" >"$index.old" && mv "$index.old" "$index"
	: >"$APTLOG"
	run --separate-stderr "$K" fetch 6.12.5
	assert_success
	[[ ! -s $APTLOG ]] || fail "apt-get ran: $(cat "$APTLOG")"
	run awk -F'\t' 'NF != 11' "$index"
	assert_output ""
}

@test "kernels-fetch: a linux-image package gives the image and loop alone, with a modules.dep of loop" {
	run --separate-stderr "$K" fetch 6.12.5
	assert_success
	rel=6.12.5+deb13-cloud-amd64
	assert_output "$NSTEST_KERNEL_CACHE/$rel/vmlinuz-$rel"
	[[ $stderr == *"fetched 6.12.5 in "*"(loop: module)"* ]] || fail "stderr: $stderr"
	cmp "$output" "$BATS_FILE_TMPDIR/src/a/boot/vmlinuz-$rel"
	# brd and other are not taken; nothing unpacked is left behind
	run files_of "$NSTEST_KERNEL_CACHE/$rel"
	assert_output "info
modules/kernel/drivers/block/loop.ko.xz
modules/modules.dep
vmlinuz-$rel"
	assert_equal "$(cat "$NSTEST_KERNEL_CACHE/$rel/modules/modules.dep")" "kernel/drivers/block/loop.ko.xz:"
	run grep -x 'loop: module' "$NSTEST_KERNEL_CACHE/$rel/info"
	assert_success
	run ls -A "$NSTEST_KERNEL_CACHE"
	refute_output --partial .fetch-
	# a second fetch downloads nothing
	run --separate-stderr "$K" fetch 6.12.5
	assert_success
	[[ $stderr == *"is cached"* ]] || fail "stderr: $stderr"
}

@test "kernels-fetch: Debian 12's naming and /lib/modules, with an uncompressed module" {
	run --separate-stderr "$K" fetch 6.1.50
	assert_success
	rel=6.1.0-9-cloud-amd64
	assert_output "$NSTEST_KERNEL_CACHE/$rel/vmlinuz-$rel"
	run files_of "$NSTEST_KERNEL_CACHE/$rel"
	assert_output "info
modules/kernel/drivers/block/loop.ko
modules/modules.dep
vmlinuz-$rel"
	run grep -x 'loop: module' "$NSTEST_KERNEL_CACHE/$rel/info"
	assert_success
}

@test "kernels-fetch: linux-binary + linux-modules: loop and what it needs, also met before loop; mkimage loads them in order" {
	run --separate-stderr "$K" fetch 7.2.6
	assert_success
	rel=7.2.6+deb13-cloud-amd64
	image=$output
	assert_equal "$image" "$NSTEST_KERNEL_CACHE/$rel/vmlinuz-$rel"
	cmp "$image" "$BATS_FILE_TMPDIR/src/c/usr/lib/modules/$rel/vmlinuz"
	dir=$NSTEST_KERNEL_CACHE/$rel
	run files_of "$dir"
	assert_output "info
modules/kernel/block/dep-a.ko.xz
modules/kernel/drivers/block/loop.ko.xz
modules/kernel/lib/dep_b.ko.xz
modules/modules.dep
vmlinuz-$rel"
	run cat "$dir/modules/modules.dep"
	assert_line "kernel/drivers/block/loop.ko.xz: kernel/lib/dep_b.ko.xz kernel/block/dep-a.ko.xz"
	assert_line "kernel/lib/dep_b.ko.xz: kernel/block/dep-a.ko.xz"
	assert_line "kernel/block/dep-a.ko.xz:"
	grep -q "^modules-package: linux-modules-$rel\$" "$dir/info"
	# the initramfs loads dep-a, dep_b, loop, in that order
	"$NSTEST_ROOT/ci/initramfs/mkimage" --kernel "$image" "$BATS_TEST_TMPDIR/i.cpio"
	run bash -c "cpio -it --quiet <'$BATS_TEST_TMPDIR/i.cpio' | grep '^modules/'"
	assert_output "modules/00-dep-a.ko
modules/01-dep_b.ko
modules/02-loop.ko"
}

@test "kernels-fetch: no modules in the archive is 'loop: absent'; a built-in loop is 'loop: built-in'" {
	run --separate-stderr "$K" fetch 6.19.6
	assert_success
	rel=6.19.6+deb13-cloud-amd64
	run files_of "$NSTEST_KERNEL_CACHE/$rel"
	assert_output "info
vmlinuz-$rel"
	run grep -x "loop: absent (the archive has no modules for $rel)" "$NSTEST_KERNEL_CACHE/$rel/info"
	assert_success

	run --separate-stderr "$K" fetch 6.18.5
	assert_success
	rel=6.18.5+deb13-cloud-amd64
	run grep -x 'loop: built-in' "$NSTEST_KERNEL_CACHE/$rel/info"
	assert_success
	[[ ! -e $NSTEST_KERNEL_CACHE/$rel/modules/modules.dep ]] || fail "a modules.dep without loop"
}

@test "kernels-fetch: a package without a bzImage, or whose hash does not match, fails (1) and leaves no entry" {
	run --separate-stderr "$K" fetch 6.16.3
	assert_failure 1
	[[ $stderr == *"holds no usable kernel image"*"is not a bzImage"* ]] || fail "stderr: $stderr"
	run --separate-stderr "$K" fetch 6.17.8
	assert_failure 1
	[[ $stderr == *"Hash Sum mismatch"* && $stderr == *"could not download"* ]] || fail "stderr: $stderr"
	run ls -A "$NSTEST_KERNEL_CACHE"
	assert_output ".lock
.locks
apt"
	run --separate-stderr "$K" list 6.16 6.17
	refute_output --partial cached
}

@test "kernels-fetch: two fetches of one kernel at once download it once and give the same path" {
	# a dpkg-deb that takes its time, so that the fetches overlap
	mkdir -p "$BATS_TEST_TMPDIR/slow"
	printf '#!/bin/bash\nsleep 1\nexec /usr/bin/dpkg-deb "$@"\n' >"$BATS_TEST_TMPDIR/slow/dpkg-deb"
	chmod +x "$BATS_TEST_TMPDIR/slow/dpkg-deb"
	"$K" -q list >/dev/null
	PATH=$BATS_TEST_TMPDIR/slow:$PATH "$K" fetch 6.12.5 >"$BATS_TEST_TMPDIR/1.out" 2>"$BATS_TEST_TMPDIR/1.err" &
	PATH=$BATS_TEST_TMPDIR/slow:$PATH "$K" fetch 6.12.5 >"$BATS_TEST_TMPDIR/2.out" 2>"$BATS_TEST_TMPDIR/2.err" &
	wait %1 && wait %2
	assert_equal "$(cat "$BATS_TEST_TMPDIR/1.out")" "$(cat "$BATS_TEST_TMPDIR/2.out")"
	run cat "$BATS_TEST_TMPDIR/1.err" "$BATS_TEST_TMPDIR/2.err"
	assert_equal "$(grep -c 'fetched 6.12.5 in' <<<"$output")" 1
	[[ $output == *"6.12.5 (6.12.5+deb13-cloud-amd64) is cached"* ]] || fail "$output"
	# and two different kernels side by side
	"$K" -q fetch 6.1.50 >/dev/null &
	"$K" -q fetch 6.19.6 >/dev/null &
	wait %1 && wait %2
	run "$K" list
	assert_equal "$(grep -c ' cached$' <<<"$output")" 3
}

@test "kernels-fetch: a fetch killed halfway leaves nothing that is used; the next one fetches it whole" {
	mkdir -p "$BATS_TEST_TMPDIR/hang"
	printf '#!/bin/bash\ntouch "%s/started"\nsleep 60\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/hang/dpkg-deb"
	chmod +x "$BATS_TEST_TMPDIR/hang/dpkg-deb"
	rel=6.12.5+deb13-cloud-amd64
	for sig in TERM KILL; do
		rm -f "$BATS_TEST_TMPDIR/started"
		PATH=$BATS_TEST_TMPDIR/hang:$PATH setsid "$K" -q fetch 6.12.5 >/dev/null 2>&1 &
		pid=$!
		for _ in $(seq 100); do [[ -e $BATS_TEST_TMPDIR/started ]] && break; sleep 0.1; done
		[[ -e $BATS_TEST_TMPDIR/started ]] || fail "the fetch never unpacked"
		kill -"$sig" -- -"$pid"
		wait "$pid" || true
		[[ ! -e $NSTEST_KERNEL_CACHE/$rel ]] || fail "$sig: an entry $rel"
		run "$K" list 6.12.5
		refute_output --partial cached
		if [[ $sig == TERM ]]; then
			run bash -c "ls -d '$NSTEST_KERNEL_CACHE'/.fetch-* 2>/dev/null"
			assert_output ""
		fi
	done
	# KILL left its temporary folder: the next fetch clears it
	run bash -c "ls -d '$NSTEST_KERNEL_CACHE'/.fetch-* 2>/dev/null"
	assert_output --partial ".fetch-$rel."
	run --separate-stderr "$K" fetch 6.12.5
	assert_success
	run bash -c "ls -d '$NSTEST_KERNEL_CACHE'/.fetch-* 2>/dev/null"
	assert_output ""
	run grep -x 'loop: module' "$NSTEST_KERNEL_CACHE/$rel/info"
	assert_success
}
