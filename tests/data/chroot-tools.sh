# tests/data/chroot-tools.sh - shell functions for the recording scripts
# (tests/data/ulmsg/record, tests/data/sessions/record), which run the
# real util-linux and coreutils tools chrooted on a tmpfs, inside a
# private mount namespace, so that what they print names the same paths
# as nstest's sandbox does.
#
#     . tests/data/chroot-tools.sh
#     chroot_tools ROOT PROG...
#     chroot_proc ROOT
#
# Source it in POSIX sh or bash, and call the functions only inside a
# namespace made with unshare -m --propagation private, after mounting a
# tmpfs on ROOT: they mount nothing but a proc on ROOT/proc.

# chroot_tools ROOT PROG...: copy each PROG, found in PATH, into ROOT at the
# path PATH gives it (symbolic links followed, so awk arrives as mawk
# under the name awk), with the shared libraries ldd(1) says it loads and
# the dynamic loader. The host's merged-/usr links (/bin -> usr/bin, ...)
# are copied as links. The tools are plain files, not mounts, so the
# mount table inside ROOT holds only what is mounted there. The C.UTF-8
# locale comes along, in which findmnt draws its tree with UTF-8 lines.
chroot_tools() {
	_ct_root=$1
	shift
	mkdir -p "$_ct_root/usr/bin" "$_ct_root/usr/sbin" "$_ct_root/usr/lib" \
		"$_ct_root/usr/lib64" "$_ct_root/usr/lib/locale"
	for _ct_l in bin sbin lib lib32 lib64 libx32; do
		if [ -L "/$_ct_l" ]; then
			cp -P "/$_ct_l" "$_ct_root/$_ct_l"
			mkdir -p "$_ct_root/$(readlink "/$_ct_l")"
		fi
	done
	for _ct_p in "$@"; do
		_ct_path=$(command -v "$_ct_p") || {
			echo "chroot_tools: no $_ct_p in PATH" >&2
			return 1
		}
		_chroot_copy "$_ct_root" "$_ct_path"
		for _ct_lib in $(ldd "$_ct_path" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			_chroot_copy "$_ct_root" "$_ct_lib"
		done
	done
	if [ -d /usr/lib/locale/C.utf8 ] && [ ! -d "$_ct_root/usr/lib/locale/C.utf8" ]; then
		cp -r /usr/lib/locale/C.utf8 "$_ct_root/usr/lib/locale/"
	fi
}

# _chroot_copy ROOT FILE: FILE's content at ROOT/FILE, once.
_chroot_copy() {
	[ -e "$1$2" ] && return 0
	mkdir -p "$1$(dirname "$2")"
	cp -L "$2" "$1$2"
}

# chroot_proc ROOT: a fresh proc on ROOT/proc, which mount(8), umount(8),
# findmnt(8) and nsenter(1) read (/proc/self/mountinfo, /proc/PID/ns).
# It shows in ROOT's mount table, as /proc.
chroot_proc() {
	mkdir -p "$1/proc"
	mount -t proc proc "$1/proc"
}
