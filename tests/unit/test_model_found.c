/* test_model_found.c - rules of the model that the fuzzer found it
 * breaking, each checked against 6.18 with the same steps as a scenario
 * on the kernel backend.
 *
 * statmount(2): who may ask about a mount outside the shell's root. The
 * rule, from fs/namespace.c, do_statmount(): before anything is
 * filled, a mount whose root the caller's root cannot reach
 * (is_path_reachable()) is refused with EPERM unless the caller has
 * CAP_SYS_ADMIN over the user namespace that owns the mount namespace
 * (ns_capable_noaudit(ns->user_ns, CAP_SYS_ADMIN)); statmount(2) lists
 * EPERM. Checked against 6.18 with these steps as a scenario on the
 * kernel backend (the fuzzer found the model answering where the kernel
 * refused: chroot /a, capsh --drop=cap_sys_admin, statmount .). */
#include <errno.h>

#include "model_run.h"

TEST(statmount_outside_root)
{
	struct run *r = start("statmount of a mount outside a chroot",
		C("# mkdir -p /a/x")
		C("# mount /dev/d2 /a/x")
		C("sh2# unshare -U -r -m sh")
		C("sh2# chroot /a sh")
		C("sh2# statmount -o attr .")
		C("sh3# chroot /a sh")
		C("sh3# statmount -o attr .")
		C("sh3# capsh --drop=cap_sys_admin --")
		C("sh3# statmount -o attr,point .")
		C("sh3# statmount -o attr /x")
		C("sh3# exit")
		C("sh3# statmount -o attr .")
		C("sh3# exit")
		C("sh3# capsh --drop=cap_sys_admin --")
		C("sh3# statmount -o point /a"));

	setup(r, 4);
	prints(r, "rw,relatime\n",
	       "root of a user namespace's own mount namespace: capable over its owner, answered");
	quiet(r, "chroot in the first namespace");
	prints(r, "rw,relatime\n", "with CAP_SYS_ADMIN: answered");
	quiet(r, "CAP_SYS_ADMIN dropped");
	fails(r, EPERM, "statmount", "without it, the root mount outside the chroot: EPERM, before the point");
	prints(r, "rw,relatime\n", "a mount inside the chroot: answered");
	quiet(r, "back to the shell with CAP_SYS_ADMIN");
	prints(r, "rw,relatime\n", "answered again");
	quiet(r, "out of the chroot");
	quiet(r, "CAP_SYS_ADMIN dropped, no chroot");
	prints(r, "/\n", "the root mount is reachable from the namespace's root: answered");
	finish(r);
}

/* umount --no-follow of a handle: umount2(2) gets a handle as its
 * /proc/self/fd/N link (nstest-scenario(5), handles), and UMOUNT_NOFOLLOW
 * does not follow a link at the end of the path, so the target is the
 * link, a file of procfs, no mount's root: path_umount() says EPERM
 * without CAP_SYS_ADMIN, else EINVAL. A path through the handle (@t/)
 * follows it. Found by the fuzzer (seed 1, scenario 3125: the model
 * answered for the handle's mount, EBUSY). */
TEST(umount_nofollow_handle)
{
	struct run *r = start("umount --no-follow of a handle",
		C("# mkdir -p /a/x /b")
		C("# mount /dev/d1 /a/x")
		C("# open_tree /a/x @t")
		C("# umount --no-follow @t")
		C("# open_tree -c /b @u")
		C("# umount --no-follow @u")
		C("# umount --no-follow @t/")
		C("# close @t")
		C("# umount --no-follow /a/x")
		C("# capsh --drop=cap_sys_admin --")
		C("# umount --no-follow @u"));

	setup(r, 3);
	fails(r, EINVAL, "umount2", "a mount's handle alone: the link, no mount: EINVAL");
	quiet(r, "a detached copy");
	fails(r, EINVAL, "umount2", "its handle alone: EINVAL too");
	fails(r, EBUSY, "umount2", "@t/ goes through the link: the mount, held by the handle: EBUSY");
	quiet(r, "the handle closed");
	quiet(r, "then the mount goes");
	quiet(r, "CAP_SYS_ADMIN dropped");
	fails(r, EPERM, "umount2", "without it: EPERM, before the target is judged");
	finish(r);
}

/* A user namespace made by a shell whose ids its own user namespace does
 * not map (unshare -U with no map): the kernel's create_user_ns() needs
 * the caller's effective uid and gid mapped in the parent
 * (kuid_has_mapping(), kgid_has_mapping()); unshare(2) and
 * user_namespaces(7) say EPERM. Found by the fuzzer (seed 1, scenario
 * 15198: the model made the namespace). */
TEST(userns_from_unmapped_ids)
{
	struct run *r = start("unshare -U from a user namespace with no map",
		C("# unshare -U -m --propagation unchanged sh")
		C("# unshare -U -m sh")
		C("# unshare -U sh")
		C("# exit")
		C("# unshare -U -r sh")
		C("# unshare -U sh")
		C("# unshare -U sh"));

	quiet(r, "a user namespace with no map: the shell's ids are unmapped there");
	fails(r, EPERM, "unshare", "another one from it: EPERM");
	fails(r, EPERM, "unshare", "without -m too");
	quiet(r, "back out");
	quiet(r, "with -r the shell is root there");
	quiet(r, "so it may make one, with no map");
	fails(r, EPERM, "unshare", "but not one more from that");
	finish(r);
}
