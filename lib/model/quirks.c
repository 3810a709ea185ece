/* quirks.c - see model.h: the kernel deviations from the documented rules
 * that the model can imitate. Each comes with the kernels it was seen on
 * (the same ranges as the scenarios' xfail: lines, which were measured)
 * and the rule it breaks. */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

#include "run/require.h"

const struct m_quirk_def m_quirks[M_QUIRK__COUNT] = {
	[M_QUIRK_UMOUNT_SHIFTS] = {
		"umount-shifts-stacks", ">= 6.1, < 6.17",
		"umount propagation takes a copy whose non-covering submounts all go, "
		"without looking at what is stacked on them, so mounts on top shift "
		"down out of the place they were mounted at. Breaks "
		"propagate_umount.txt, \"Maximal non-shifting subsets\". Measured on "
		"every Debian 6.1, 6.12 and 6.16 release; gone from 6.17.8 "
		"(scenarios/sharedsubtree/46-umount-reparents-a-stack.scn, docs/kernels.md).",
	},
	[M_QUIRK_COPY_DROPS_UNBINDABLE] = {
		"copy-drops-unbindable", ">= 6.17, < 7.2.11",
		"the copy unshare(CLONE_NEWNS) makes of an unbindable mount is private "
		"and can be bound. Breaks sharedsubtree.rst 5g (a cloned namespace keeps "
		"each mount's propagation type). Measured on every Debian release "
		"from 6.17.8 to 7.2.9; gone from 7.2.11, and absent up to 6.16.12 "
		"(scenarios/sharedsubtree/51-clone-namespace-unbindable.scn, docs/kernels.md).",
	},
	[M_QUIRK_UNMOUNTED_TARGET_EINVAL] = {
		"unmounted-target-einval", ">= 6.1, < 6.2",
		"mounting on a place in a tree that was lazily unmounted fails with "
		"EINVAL (the target is not in the caller's namespace) where newer "
		"kernels say ENOENT. A difference between kernels, not a broken "
		"rule: mount(2) does not say which. Found by nstest fuzz --vs-kernel "
		"against Debian's 6.1; measured on every Debian 6.1 release, gone from "
		"6.12.43 (scenarios/regressions/02-mount-on-an-unmounted-tree.scn).",
	},
	[M_QUIRK_MOVE_TARGET_FIRST] = {
		"move-target-first", ">= 6.12, < 6.18",
		"mount --move checks that its target can take a mount before it checks "
		"that its source is a mount's root: moving a plain directory onto a "
		"place in a lazily unmounted tree fails with ENOENT, where 6.18 says "
		"EINVAL. A difference between kernels: mount(2) gives no order. Found "
		"by nstest fuzz --vs-kernel against Debian's 6.12; measured on every "
		"Debian 6.12, 6.16 and 6.17 release, gone from 6.18.5 "
		"(scenarios/regressions/03-move-from-a-directory-in-an-unmounted-tree.scn).",
	},
	[M_QUIRK_CHANGE_TYPE_OURS_ONLY] = {
		"change-type-ours-only", ">= 6.12.43, < 6.12.57; >= 6.16.3, < 6.16.12",
		"a propagation change by mount(2) (--make-*) is refused with EINVAL "
		"on a mount that is not in the caller's namespace, such as a tree "
		"detached by open_tree -c and named through its handle. Upstream "
		"commit 12f147ddd6de (\"do_change_type(): refuse to operate on "
		"unmounted/not ours mounts\") asked for that, and cffd0441872e (\"use "
		"uniform permission checks for all mount propagation changes\") "
		"relaxed it to the rule of MOVE_MOUNT_SET_GROUP: mounted in some "
		"namespace, CAP_SYS_ADMIN over it. Both went to the stable lines. "
		"Measured on Debian's 6.12.43 and 6.16.3; absent from 6.1.192, "
		"6.12.57 and 6.16.12 on (Debian packages no release between them; "
		"scenarios/newapi/handle-propagation.scn, docs/kernels.md).",
	},
	[M_QUIRK_DETACHED_OURS_ONLY] = {
		"detached-ours-only", ">= 6.1, < 6.15",
		"a bind mount from a tree detached by open_tree -c or fsmount, a "
		"clone of such a tree by open_tree -c, and a move_mount of a "
		"detached tree onto another one, fail with EINVAL: the source of a "
		"bind or a clone (__do_loopback()) and the target of a move had to "
		"be in the caller's namespace. From 6.15 either may also be in a "
		"detached tree cloned from the caller's namespace or made by "
		"fsmount (may_copy_tree(), may_use_mount(), check_anonymous_mnt()). "
		"A change of rule, not a bug; measured on every Debian 6.1 and 6.12 "
		"release, absent from 6.16.3 on (scenarios/newapi/detached-trees.scn, "
		"docs/kernels.md).",
	},
	[M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS] = {
		"umount-busy-skips-chains", ">= 6.1, < 6.12.117; >= 6.13, < 7.2.11",
		"a plain umount is EBUSY only when one of the copies without submounts, "
		"or whose only submount covers their root, is in use: a copy in use "
		"that goes with the copy inside it (a receiver that is itself a peer of "
		"the parent holds the next copy of the chain) is taken out from under "
		"its user. Breaks umount(2) EBUSY for a mount that propagate_umount.txt "
		"takes out; from 6.12.117 and 7.2.11 propagate_mount_busy() follows "
		"each chain as propagate_umount() trims it (chain_busy(), read in "
		"Debian's linux-source-6.12 6.12.118). Measured on every Debian release: "
		"every 6.1, 6.12.43 to 6.12.116, and 6.16.3 to 7.2.9 (this machine's "
		"6.18.44 too); gone from 6.12.117 and 7.2.11, 7.2.10 not packaged "
		"(scenarios/man2/07-umount-busy-chain.scn).",
	},
	[M_QUIRK_NAMESPACE_OF_A_FILE] = {
		"namespace-of-a-file", ">= 7.0, < 7.0.13",
		"open_tree with OPEN_TREE_NAMESPACE copies a file as readily as a "
		"directory and makes it the root of the new namespace; the commit "
		"\"namespace: restrict OPEN_TREE_NAMESPACE/FSMOUNT_NAMESPACE to "
		"directories\" (merged for 7.1, backported to 7.0.13) makes it "
		"ENOTDIR. Measured on Debian 7.0.4 to 7.0.12; ENOTDIR on 7.0.13 and "
		"every 7.1, 7.2 and 7.3 release (scenarios/newapi/open-tree-namespace.scn, "
		"docs/kernels.md).",
	},
	[M_QUIRK_BENEATH_NOT_ROOT] = {
		"beneath-not-root", ">= 6.5, < 7.1.3",
		"move_mount with MOVE_MOUNT_BENEATH refuses (EINVAL) to put a mount "
		"beneath the caller's root mount, or beneath a mount that sits on the "
		"namespace's root, as it did from 6.5 (can_move_mount_beneath()). C. "
		"Brauner's \"move_mount: allow MOVE_MOUNT_BENEATH on the rootfs\" "
		"(2026; selftest filesystems/move_mount) allows both, for a root switch "
		"of open_tree, move_mount beneath /, chroot . and umount -l . in turn. "
		"A change of rule. Measured on every Debian release from 6.12.43 to "
		"7.0.13 (this machine's 6.18.44 too); allowed on every 7.1, 7.2 and 7.3 "
		"release from 7.1.3 (scenarios/peers/kselftest-move-mount-beneath-root.scn).",
	},
	[M_QUIRK_BENEATH_NOT_LOCKED] = {
		"beneath-not-locked", ">= 6.5, < 7.1.3",
		"move_mount with MOVE_MOUNT_BENEATH refuses (EINVAL) to put a mount "
		"beneath a locked mount (one a less privileged namespace got with a "
		"copy). From 7.1.3 the mount put beneath takes the lock and the one on "
		"top may be unmounted (C. Brauner's \"move_mount: transfer "
		"MNT_LOCKED\", 2026). A change of rule. Measured on every Debian "
		"release from 6.12.43 to 7.0.13 (this machine's 6.18.44 too); allowed "
		"on every release from 7.1.3 to 7.3.4 "
		"(scenarios/peers/kselftest-move-mount-beneath-root.scn).",
	},
	[M_QUIRK_COPY_UNDER_LOCK_UNLOCKED] = {
		"copy-under-lock-unlocked", ">= 6.1, < 7.1.3",
		"a copy that propagation puts under a locked mount (the mount already "
		"at the receiving place goes on top of it) is not locked, though it "
		"now hides what the locked mount hid: a plain bind of its parent, "
		"which leaves out what is mounted on the parent, is allowed. From "
		"7.1.3 the copy is locked. A difference between kernels. Measured on "
		"every Debian release from 6.1.170 to 7.0.13 (this machine's 6.18.44 "
		"too) (scenarios/man7/userns-copy-under-a-locked-mount.scn).",
	},
	[M_QUIRK_COPY_UNDER_LOCK_TAKES_LOCK] = {
		"copy-under-lock-takes-lock", ">= 7.1.3, < 7.2.11",
		"a copy that propagation puts under a locked mount takes the lock "
		"away from it: the copy is locked and the mount on top may be "
		"unmounted in the less privileged namespace, as \"move_mount: "
		"transfer MNT_LOCKED\" said (\"This also works during mount "
		"propagation\"). From 7.2.11 (and 7.3) the copy is locked and the "
		"mount on top keeps its lock; only a mount put beneath by move_mount "
		"takes it over. Measured on every Debian 7.1 release (7.1.3 to 7.1.13) "
		"and 7.2.6 to 7.2.9; gone from 7.2.11, 7.2.10 not packaged "
		"(scenarios/man7/userns-copy-under-a-locked-mount.scn).",
	},
	[M_QUIRK_MOUNTINFO_ATTACH_ORDER] = {
		"mountinfo-attach-order", ">= 6.1, < 6.8",
		"mountinfo lists a namespace's mounts in the order they entered it: a "
		"tree attached is put at the end of the namespace's list, in tree "
		"order, and a move within the namespace keeps its place (the kernel's "
		"commit_tree()). From 6.8 the mounts are kept in a tree sorted by the "
		"unique mount ID, so mountinfo lists them in creation order: a clone "
		"made by open_tree -c before another mount and attached after it comes "
		"first. Measured on every Debian 6.1 release; creation order from "
		"6.12.43 on (scenarios/newapi/mountinfo-order.scn, docs/kernels.md).",
	},
	[M_QUIRK_MAKE_SLAVE_SAME_ROOT] = {
		"make-slave-same-root", ">= 6.1, < 6.17",
		"a shared mount made a slave (unshare -m --propagation slave makes "
		"every copy one) becomes the slave of the first peer after it in "
		"its ring whose root is its own, else of the next peer, and the "
		"slaves it had go at the end of its new master's list (the "
		"kernel's do_make_slave()); the order of that list is the order "
		"propagation reaches slaves in, which mountinfo shows from 6.8. "
		"From 6.17 (\"do_make_slave(): choose new master sanely\", \"turn "
		"mnt_slave_list into hlist\") the new master is the next peer "
		"whatever its root and the slaves go first, after the mount itself. "
		"A difference between kernels: no document gives an order. Measured "
		"on Debian's 6.12.118 and 6.16.12; the 6.17 order on 6.17.8, 6.18.44 "
		"and 7.3.4 (scenarios/regressions/04-slave-list-order.scn).",
	},
	[M_QUIRK_BIND_ONTO_DETACHED] = {
		"bind-onto-detached", ">= 6.17, < 6.18",
		"mount(2) with MS_BIND (mount --bind, --rbind) accepts a target in "
		"a detached tree that may be used as a bind source (one cloned by "
		"open_tree -c from the caller's namespace, or made by fsmount) and "
		"attaches the copy there; 6.16 and 6.18 refuse it with EINVAL, as "
		"the rule that mount(2) acts on the caller's namespace says "
		"(mount_namespaces(7); move_mount(2) is the call that attaches onto "
		"a detached tree). Found by ci/fuzz-campaign (kernel against kernel, "
		"6.16 against 6.17 and 6.17 against 6.18), bisected to 6.16.12 "
		"(refuses) and 6.17.8 (accepts); 6.17.13 accepts, 6.18.15 refuses "
		"(scenarios/newapi/bind-onto-detached.scn, docs/findings.md). Only "
		"the acceptance is imitated: where the detached tree is a clone of a "
		"shared mount, the model propagates the bind to that mount's peers "
		"as for any shared parent, and the campaign's 6.17 case shows no "
		"such copy; what 6.17 does there is still to be derived.",
	},
	[M_QUIRK_SET_GROUP_NOT_UNBINDABLE] = {
		"set-group-not-unbindable", ">= 7.2.11",
		"move_mount --set-group (MOVE_MOUNT_SET_GROUP) onto an unbindable "
		"mount fails with EINVAL; up to 7.2.9 an unbindable TO, being "
		"neither shared nor a slave, joined FROM's peer group and stopped "
		"being unbindable, which is the rule move_mount(2) gives (TO must "
		"not be shared or a slave already). Found by ci/fuzz-campaign (7.1 "
		"against 7.2), bisected to 7.2.9 (accepts) and 7.2.11 (refuses); "
		"7.2.13 and 7.3.4 refuse too, and a private TO still joins "
		"(scenarios/newapi/set-group-unbindable.scn, docs/findings.md).",
	},
	[M_QUIRK_TMPFS_INODE64] = {
		"tmpfs-inode64", M_QUIRK_BUILD "CONFIG_TMPFS_INODE64",
		"the kernel is built with CONFIG_TMPFS_INODE64: a tmpfs uses 64-bit "
		"inode numbers unless inode32 is asked for, and shows inode64 or "
		"inode32 in its super options, on every tmpfs (mm/shmem.c, "
		"shmem_show_options(): \"TMPFS_INODE64=y: show\"). Not a deviation "
		"and not a version range but a build option: Debian's kernels have it "
		"(ci/fuzz-campaign, every line from 6.1 to 7.3), this machine's "
		"6.18.44 does not. --quirks=kernel sets it where a fresh tmpfs of the "
		"kernel shows it (nstest fuzz asks a --vs-kernel VM with --probe) "
		"(tests/unit/test_model_sb.c, tmpfs_inode64_built; no .scn: a scenario "
		"cannot name a build option).",
	},
};

static int find(const char *name, size_t len)
{
	for (int i = 0; i < M_QUIRK__COUNT; i++)
		if (strlen(m_quirks[i].name) == len && !strncmp(m_quirks[i].name, name, len))
			return i;
	return -1;
}

/* Does a range in xfail: syntax (">= 6.1, < 6.2") hold for release? A
 * quirk seen on two stretches of a line (a fix and its revert both sent
 * to the stable lines) gives each, separated by "; ", and holds on
 * either. */
static bool holds(const char *range, const char *release)
{
	struct ns_xfail x = { 0 };
	const char *p = range, *alt = strchr(range, ';');
	int have[3];

	if (!strncmp(range, M_QUIRK_BUILD, strlen(M_QUIRK_BUILD)))
		return false; /* a build option: asked of the kernel, not of its release */
	if (alt) {
		char *first = xstrndup(range, (size_t)(alt - range));
		bool r = holds(first, release) || holds(alt + 1, release);

		free(first);
		return r;
	}
	if (!release || ns_kernel_version(release, have) < 0)
		return false;
	while (*p && x.ncmp < NS_ARRAY_SIZE(x.cmp)) {
		struct ns_version_cmp *c = &x.cmp[x.ncmp];
		int n = 0;
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		if (sscanf(p, "%2[<>=] %d.%d%n", c->op, &c->v[0], &c->v[1], &n) < 3)
			return false;
		p += n;
		c->v[2] = 0;
		if (*p == '.') {
			char *end;
			c->v[2] = (int)strtol(p + 1, &end, 10);
			p = end;
		}
		x.ncmp++;
	}
	return ns_xfail_holds(&x, have);
}

int m_quirks_parse(const char *spec, const char *release, unsigned *mask, struct ns_buf *err)
{
	*mask = 0;
	if (!spec || !*spec)
		return 0;
	for (const char *p = spec; *p; ) {
		size_t len = strcspn(p, ",");
		int q;

		if (len == 6 && !strncmp(p, "kernel", 6)) {
			for (int i = 0; i < M_QUIRK__COUNT; i++)
				if (holds(m_quirks[i].range, release))
					*mask |= 1u << i;
		} else if (len) {
			q = find(p, len);
			if (q < 0) {
				ns_buf_addf(err, "unknown quirk '%.*s' (known: ", (int)len, p);
				for (int i = 0; i < M_QUIRK__COUNT; i++)
					ns_buf_addf(err, "%s%s", i ? ", " : "", m_quirks[i].name);
				ns_buf_adds(err, "; or kernel)");
				return -1;
			}
			*mask |= 1u << q;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static const char *const breaks[] = {
	[M_BREAK_SLAVES_RECEIVE_NOTHING] = "slaves-receive-nothing",
	[M_BREAK_USERNS_RECEIPT_UNLOCKED] = "userns-receipt-unlocked",
	[M_BREAK_REMOUNT_IGNORES_LOCKS] = "remount-ignores-locks",
	[M_BREAK_SET_GROUP_KEEPS_UNBINDABLE] = "set-group-keeps-unbindable",
	[M_BREAK_BUSY_CANDIDATE_NOT_EBUSY] = "busy-candidate-not-ebusy",
};

int m_break_parse(const char *name, enum m_break *out, struct ns_buf *err)
{
	*out = M_BREAK_NONE;
	if (!name || !*name)
		return 0;
	for (size_t i = 0; i < NS_ARRAY_SIZE(breaks); i++)
		if (breaks[i] && !strcmp(breaks[i], name)) {
			*out = (enum m_break)i;
			return 0;
		}
	ns_buf_addf(err, "no rule to break called '%s' (known: ", name);
	for (size_t i = 0, n = 0; i < NS_ARRAY_SIZE(breaks); i++)
		if (breaks[i])
			ns_buf_addf(err, "%s%s", n++ ? ", " : "", breaks[i]);
	ns_buf_adds(err, ")");
	return -1;
}
