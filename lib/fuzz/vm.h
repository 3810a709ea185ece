/* vm.h - a side played by another kernel: each batch of cases is written
 * to scenario files in a temporary folder, one VM is booted with
 * ci/vm-run to play them all (`nstest fuzz --play-dump FILE...` in the
 * guest, which prints dump.h's stream), and the runs are read back. */
#ifndef NS_FUZZ_VM_H
#define NS_FUZZ_VM_H

#include "fuzz/play.h"

int ns_fuzz_vm_play(const struct ns_fuzz_side *s, const struct ns_fuzz_case *cases, size_t n,
		    struct ns_fuzz_outcome *out, struct ns_buf *err);

/* What the VM's kernel is (`nstest fuzz --probe` in the guest, one
 * boot, or none): the NS_FEAT_* features it has, into *mask, so that the
 * generator writes only what both sides have; and its release (uname -r,
 * heap) into *release, for the findings' prose and for the quirks a
 * model imitates of it (--quirks=kernel); whether a fresh tmpfs there
 * shows inode64 or inode32 (CONFIG_TMPFS_INODE64, quirk tmpfs-inode64)
 * into *inode64.
 * The answer is kept under NSTEST_VM_CACHE/probe for the same image,
 * nstest and vm-run, which then boot no VM for it. 0, or -1 with err. */
int ns_fuzz_vm_probe(const struct ns_fuzz_side *s, unsigned *mask, char **release,
		     bool *inode64, struct ns_buf *err);

#endif
