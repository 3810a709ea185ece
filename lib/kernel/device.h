/* device.h - device stand-ins (nstest-scenario(5)). Each /dev/NAME of a
 * scenario is one filesystem: every mount of the name is the same superblock. By
 * default it is a tmpfs whose mount source reads NAME; in loop mode it is
 * a real filesystem on a loop block device, still shown as NAME. */
#ifndef NS_DEVICE_H
#define NS_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario/scenario.h"
#include "base/util.h"

struct ns_devices;

/* Work shared by every sandbox of a run (the loop image), done once
 * before the sandboxes fork. 0, or -1 with a message in err. */
int ns_devices_prepare(enum ns_devices_mode mode, struct ns_buf *err);

/* The ext4 image of loop stand-ins, as mke2fs makes it (lost+found
 * still in it), the same bytes every time: what `nstest export --c`
 * writes into a program. Needs mke2fs, not root. 0, or -1 with err. */
int ns_devices_image(struct ns_buf *image, struct ns_buf *err);

/* Make the stand-ins for names[0..n). Loop mode needs the host's
 * /dev/loop-control (or /dev kept by ns_devices_hold_dev()), so this runs
 * before the sandbox drops the host's tree. userns_may_change: terminals
 * may enter user namespaces of their own, in which mounting a stand-in is
 * refused as for a block device (EPERM); checked at each mount then.
 * remounts: some name is mounted more than once, so that tmpfs stand-ins
 * need a master per name for all its mounts to share one superblock;
 * otherwise each mount is a new tmpfs, which is the same thing then.
 * Returns NULL with a message in err. */
struct ns_devices *ns_devices_new(char *const *names, size_t n,
				  enum ns_devices_mode mode, int procfd,
				  bool userns_may_change, bool remounts,
				  struct ns_buf *err);
void ns_devices_free(struct ns_devices *d);

/* Keep /dev open, for loop devices, in a process about to let go of the
 * host's tree (a worker's base). */
void ns_devices_hold_dev(void);

/* Mount stand-in idx at target (resolved in the caller's namespace,
 * root and working directory) with MOUNT_ATTR_* flags. A stand-in is a
 * block device, so, as for a real one, a process in a user namespace
 * other than the sandbox's own gets EPERM, in both modes. Returns 0, or -1
 * with errno set and *syscall naming the call that failed. */
int ns_devices_mount(struct ns_devices *d, size_t idx, const char *target,
		     unsigned long long attr, const char **syscall);

/* Whether tmpfs stand-ins can give every mount of a name one superblock
 * on this kernel (cloning a detached mount: Linux 6.15+). Probed once. */
bool ns_devices_clone_detached(void);


#endif
