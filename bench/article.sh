#!/bin/bash
# bench/article.sh - the four demonstrations of Kerrisk's LWN article
# ("Mount namespaces, mount propagation, and unbindable mounts", 2016),
# scripted the way one does it today with util-linux: unshare, nsenter,
# mount, and awk/grep on /proc/PID/mountinfo. It is the baseline that
# `nstest run scenarios/article` is measured against (bench/README.md).
#
# It checks the same facts as scenarios/article/*.scn: which mounts are
# peers (equal shared:N), which are slaves of which group (master:N),
# which parent each mount has, which mounts did or did not propagate,
# the doubling to 16 mounts, the unbindable copies. A wrong fact fails
# the script with a message and status 1.
#
# Isolation: this script never mounts anything in the namespace it was
# started in. Each demo runs in a fresh namespace made by
# `unshare -m --propagation private`, which makes / rprivate before the
# demo mounts anything; the demo's root is a tmpfs on a scratch
# directory, and a "second shell" is a background process held in
# another namespace (made by unshare from the demo's), driven with
# nsenter. Holders report through a fifo once they are in their
# namespace and are reaped with `wait`; there is no fixed sleep.
set -euo pipefail

fail() {
	echo "article.sh: $DEMO: $*" >&2
	exit 1
}

# ---- reading mountinfo ---------------------------------------------------

# mi PID MOUNTPOINT: "ID PARENT MAJ:MIN ROOT [OPTIONAL FIELDS...]" of the
# one mount at MOUNTPOINT in PID's namespace; status 1 when there is none.
mi() {
	awk -v mp="$2" '$5 == mp {
		o = ""; for (i = 7; $i != "-"; i++) o = o " " $i
		print $1, $2, $3, $4 o; n++
	} END { exit n != 1 }' "/proc/$1/mountinfo"
}

# look PID MOUNTPOINT: sets ID PARENT DEV ROOT OPT, and SHARED / MASTER
# to the peer group numbers (empty when the mount has none).
look() {
	local line
	line=$(mi "$1" "$T$2") || fail "no single mount at $2 in the namespace of pid $1"
	read -r ID PARENT DEV ROOT OPT <<<"$line"
	SHARED='' MASTER=''
	if [[ $OPT =~ shared:([0-9]+) ]]; then SHARED=${BASH_REMATCH[1]}; fi
	if [[ $OPT =~ master:([0-9]+) ]]; then MASTER=${BASH_REMATCH[1]}; fi
	return 0
}

absent() {
	if mi "$1" "$T$2" >/dev/null; then
		fail "$2 is mounted in the namespace of pid $1 and should not be"
	fi
}

# mounts PID: what `mount | awk '{print $1, $2, $3}'` shows in the demo's
# root, one "SOURCE on PATH" per mount, PATH relative to the demo's root.
mounts() {
	awk -v t="$T" '$5 == t || index($5, t "/") == 1 {
		for (i = 7; $i != "-"; i++) ;
		p = substr($5, length(t) + 1); if (p == "") p = "/"
		print $(i + 2), "on", p
	}' "/proc/$1/mountinfo"
}

expect_mounts() {
	local pid=$1 got want
	shift
	got=$(mounts "$pid")
	want=$(printf '%s\n' "$@")
	[[ $got == "$want" ]] || fail "mount table of pid $pid:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
}

# ---- holding a namespace open ----------------------------------------------

# hold PROPAGATION: a process in a new mount namespace copied from ours
# (unshare -m --propagation PROPAGATION); HELD is its pid. unshare execs
# the shell in place, so $! is the process in the new namespace; it
# writes to a fifo once it runs there.
hold() {
	local fifo=$T/.ready
	mkfifo "$fifo"
	# shellcheck disable=SC2016 # $0 is the inner shell's
	unshare -m --propagation "$1" -- sh -c 'echo >"$0"; exec sleep infinity' "$fifo" &
	HELD=$!
	read -r _ <"$fifo"
	rm "$fifo"
}

# Whatever happens to a demo, no holder outlives it.
release_all() {
	local holders
	holders=$(jobs -p)
	if [[ -n $holders ]]; then
		# shellcheck disable=SC2086 # one pid per word
		kill $holders
	fi
}

release() {
	kill "$1"
	wait "$1" || true
}

in_ns() {
	local pid=$1
	shift
	nsenter -t "$pid" -m -- "$@"
}

# ---- the demos ---------------------------------------------------------------

# MS_SHARED and MS_PRIVATE
demo1() {
	local s1 p1 g1 s2 p2 g2 sh2
	mkdir "$T/mntS" "$T/mntP"
	mount -t tmpfs /dev/sdb1 "$T/mntS"
	mount -t tmpfs /dev/sda15 "$T/mntP"

	mount --make-shared "$T/mntS"
	mount --make-private "$T/mntP"
	look $$ /mntS; s1=$ID g1=$SHARED
	[[ -n $g1 ]] || fail "/mntS is not shared: '$OPT'"
	look $$ /mntP; p1=$ID
	[[ -z $OPT ]] || fail "/mntP is not private: '$OPT'"

	hold unchanged; sh2=$HELD
	look "$sh2" /mntS; s2=$ID
	[[ $SHARED == "$g1" && $s2 != "$s1" ]] || fail "sh2's /mntS: id $s2 '$OPT', want a new id in peer group $g1"
	look "$sh2" /mntP; p2=$ID
	[[ -z $OPT && $p2 != "$p1" ]] || fail "sh2's /mntP: id $p2 '$OPT', want a new private mount"

	mkdir "$T/mntS/a" "$T/mntP/b"
	in_ns "$sh2" mount -t tmpfs /dev/sdb6 "$T/mntS/a"
	in_ns "$sh2" mount -t tmpfs /dev/sdb7 "$T/mntP/b"
	look "$sh2" /mntS/a; g2=$SHARED
	[[ $PARENT == "$s2" && -n $g2 && $g2 != "$g1" ]] || fail "sh2's /mntS/a: parent $PARENT '$OPT'"
	look "$sh2" /mntP/b
	[[ $PARENT == "$p2" && -z $OPT ]] || fail "sh2's /mntP/b: parent $PARENT '$OPT'"

	look $$ /mntS/a
	[[ $PARENT == "$s1" && $SHARED == "$g2" ]] || fail "/mntS/a did not propagate to sh1 as a peer"
	absent $$ /mntP/b
	release "$sh2"
}

# MS_SLAVE
demo2() {
	local x1 y1 gx gy x2 y2 ga gc sh2
	mkdir "$T/mntX" "$T/mntY"
	mount -t tmpfs /dev/sdb7 "$T/mntX"
	mount -t tmpfs /dev/sdb6 "$T/mntY"

	mount --make-shared "$T/mntX"
	mount --make-shared "$T/mntY"
	look $$ /mntX; x1=$ID gx=$SHARED
	look $$ /mntY; y1=$ID gy=$SHARED
	[[ -n $gx && -n $gy && $gx != "$gy" ]] || fail "/mntX and /mntY are not in two peer groups"

	hold unchanged; sh2=$HELD
	look "$sh2" /mntX; x2=$ID
	[[ $SHARED == "$gx" ]] || fail "sh2's /mntX is not in peer group $gx"
	look "$sh2" /mntY; y2=$ID
	[[ $SHARED == "$gy" ]] || fail "sh2's /mntY is not in peer group $gy"

	in_ns "$sh2" mount --make-slave "$T/mntY"
	look "$sh2" /mntY
	[[ -z $SHARED && $MASTER == "$gy" ]] || fail "sh2's /mntY is not a slave of $gy: '$OPT'"

	mkdir "$T/mntX/a" "$T/mntY/b"
	in_ns "$sh2" mount -t tmpfs /dev/sda3 "$T/mntX/a"
	in_ns "$sh2" mount -t tmpfs /dev/sda5 "$T/mntY/b"
	look "$sh2" /mntX/a; ga=$SHARED
	[[ $PARENT == "$x2" && -n $ga && $ga != "$gx" && $ga != "$gy" ]] || fail "sh2's /mntX/a: '$OPT'"
	look "$sh2" /mntY/b
	[[ $PARENT == "$y2" && -z $OPT ]] || fail "sh2's /mntY/b is not private: '$OPT'"

	look $$ /mntX/a
	[[ $PARENT == "$x1" && $SHARED == "$ga" ]] || fail "/mntX/a did not reach sh1 as a peer"
	absent $$ /mntY/b

	mkdir "$T/mntY/c"
	mount -t tmpfs /dev/sda1 "$T/mntY/c"
	look $$ /mntY/c; gc=$SHARED
	[[ $PARENT == "$y1" && -n $gc && $gc != "$gx" && $gc != "$gy" && $gc != "$ga" ]] ||
		fail "sh1's /mntY/c: '$OPT'"
	look "$sh2" /mntY/c
	[[ $PARENT == "$y2" && -z $SHARED && $MASTER == "$gc" ]] || fail "sh2's /mntY/c is not a slave of $gc: '$OPT'"
	release "$sh2"
}

# bind mounts
demo3() {
	local root rdev
	cd "$T"
	mkdir dir1
	touch dir1/x
	mkdir dir2
	mount --bind dir1 dir2
	[[ $(ls dir2) == x ]] || fail "ls dir2: $(ls dir2)"
	touch dir2/y
	[[ $(ls dir1) == $'x\ny' ]] || fail "ls dir1: $(ls dir1)"
	look $$ ''; root=$ID rdev=$DEV
	look $$ /dir2
	[[ $ROOT == /dir1 && $DEV == "$rdev" && $PARENT == "$root" ]] ||
		fail "/dir2 is not a bind of /dir1: root $ROOT dev $DEV parent $PARENT"
}

# MS_UNBINDABLE and the mount explosion
demo4() {
	local sh
	mkdir -p "$T/mntX" "$T/home/cecilia" "$T/home/henry" "$T/home/otto"
	mount -t tmpfs /dev/sdb6 "$T/mntX"
	expect_mounts $$ "/dev/sda1 on /" "/dev/sdb6 on /mntX"

	hold private; sh=$HELD
	in_ns "$sh" mount --make-rslave "$T"
	in_ns "$sh" mount --rbind "$T" "$T/home/cecilia"
	expect_mounts "$sh" "/dev/sda1 on /" "/dev/sdb6 on /mntX" \
		"/dev/sda1 on /home/cecilia" "/dev/sdb6 on /home/cecilia/mntX"
	in_ns "$sh" mount --rbind "$T" "$T/home/henry"
	expect_mounts "$sh" "/dev/sda1 on /" "/dev/sdb6 on /mntX" \
		"/dev/sda1 on /home/cecilia" "/dev/sdb6 on /home/cecilia/mntX" \
		"/dev/sda1 on /home/henry" "/dev/sdb6 on /home/henry/mntX" \
		"/dev/sda1 on /home/henry/home/cecilia" "/dev/sdb6 on /home/henry/home/cecilia/mntX"
	in_ns "$sh" mount --rbind "$T" "$T/home/otto"
	[[ $(mounts "$sh" | wc -l) == 16 ]] || fail "$(mounts "$sh" | wc -l) mounts instead of 16"
	release "$sh"

	hold private; sh=$HELD
	in_ns "$sh" mount --make-rslave "$T"
	in_ns "$sh" mount --rbind --make-unbindable "$T" "$T/home/cecilia"
	look "$sh" /home/cecilia
	[[ $OPT == unbindable ]] || fail "/home/cecilia is not unbindable: '$OPT'"
	in_ns "$sh" mount --rbind --make-unbindable "$T" "$T/home/henry"
	in_ns "$sh" mount --rbind --make-unbindable "$T" "$T/home/otto"
	expect_mounts "$sh" "/dev/sda1 on /" "/dev/sdb6 on /mntX" \
		"/dev/sda1 on /home/cecilia" "/dev/sdb6 on /home/cecilia/mntX" \
		"/dev/sda1 on /home/henry" "/dev/sdb6 on /home/henry/mntX" \
		"/dev/sda1 on /home/otto" "/dev/sdb6 on /home/otto/mntX"
	release "$sh"
}

# ---- driver ------------------------------------------------------------------

# Inside a demo's own namespace: article.sh demoN SCRATCH ROOTDEV
if [[ ${1-} == demo[1-4] ]]; then
	DEMO=$1 T=$2
	trap release_all EXIT
	[[ $(readlink /proc/$$/ns/mnt) != "$3" ]] || fail "refusing to mount in the caller's namespace"
	mount -t tmpfs "$4" "$T"
	"$DEMO"
	exit 0
fi

DEMO=setup
scratch=$(mktemp -d /tmp/article-sh.XXXXXX)
trap 'rmdir "$scratch"' EXIT
outer=$(readlink /proc/$$/ns/mnt)
for demo in "demo1 /dev/sda2" "demo2 /dev/sda2" "demo3 /dev/sda1" "demo4 /dev/sda1"; do
	read -r name rootdev <<<"$demo"
	unshare -m --propagation private -- bash "$0" "$name" "$scratch" "$outer" "$rootdev"
done
