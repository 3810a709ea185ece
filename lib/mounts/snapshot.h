/* snapshot.h - a terminal's view of its mount table, and the one place
 * that renders it as the kernel prints it (mountinfo) or mount(8) does.
 *
 * A snapshot is a list of entries (struct ns_mount_entry). The kernel
 * backend fills it through libmount's parse of /proc/self/mountinfo; a
 * backend that keeps its own picture of the mounts hands its entries to
 * ns_snapshot_from_entries(), which goes through the same parse, so both
 * render with the same code and the same libmount rules. */
#ifndef NS_SNAPSHOT_H
#define NS_SNAPSHOT_H

#include <stddef.h>

#include "base/util.h"

struct ns_snapshot;

/* One mount, field by field as a mountinfo line has it. */
struct ns_mount_entry {
	unsigned id, parent;        /* mount IDs */
	unsigned major, minor;      /* st_dev of the filesystem */
	const char *root;           /* the path of the mount's root in its fs */
	const char *target;         /* the mount point */
	const char *vfs_options;    /* per-mount options: "rw,relatime" */
	const char *fields;         /* optional fields ("shared:1 master:2"), or "" */
	const char *fstype, *source;
	const char *fs_options;     /* per-superblock options */
	/* what mount(8) shows, filled by the parse (from_entries ignores them) */
	const char *mount_source;   /* the source, or "none" */
	const char *mount_options;  /* VFS and FS options merged */
	/* what findmnt(8) shows, filled by the parse as well */
	const char *srcpath;        /* libmount's source (no "none" for empty) */
	unsigned long propagation;  /* MS_SHARED, MS_SLAVE, MS_UNBINDABLE from
				     * the optional fields; 0 is private */
};

/* Parse mountinfo text as the kernel printed it. Returns 0 or -errno. */
int ns_snapshot_parse(const char *text, size_t len, struct ns_snapshot **out);
/* A snapshot of these mounts: what parsing them as mountinfo lines would
 * give, each line's options, fields, type and source parsed by libmount
 * once per process and remembered (IDs and paths pass through as
 * given). v need not outlive it. Returns 0 or -errno. */
int ns_snapshot_from_entries(const struct ns_mount_entry *v, size_t n,
			     struct ns_snapshot **out);
void ns_snapshot_free(struct ns_snapshot *s);
size_t ns_snapshot_count(const struct ns_snapshot *s);
/* The entries, in mountinfo order; valid as long as s. */
const struct ns_mount_entry *ns_snapshot_entries(const struct ns_snapshot *s);

/* Byte-for-byte what the kernel printed: "ID PARENT MAJ:MIN ROOT
 * MOUNTPOINT OPTS [FIELDS...] - FSTYPE SOURCE SUPEROPTS\n" per mount. */
void ns_snapshot_render_mountinfo(const struct ns_snapshot *s, struct ns_buf *out);

/* True when text, mountinfo as the kernel printed it, is known to be
 * exactly what ns_snapshot_parse() and ns_snapshot_render_mountinfo()
 * give back: the text may then be printed as it is, without the parse.
 * False says nothing: take the parse. */
bool ns_mountinfo_reads_back(const char *text, size_t len);
/* What mount(8) prints with no arguments: "SOURCE on TARGET type FSTYPE (OPTS)\n". */
void ns_snapshot_render_mount(const struct ns_snapshot *s, struct ns_buf *out);

/* The two renderings by name, for the commands that list mounts. */
enum ns_render {
	NS_RENDER_MOUNTINFO,    /* cat /proc/self/mountinfo */
	NS_RENDER_MOUNT,        /* mount */
	NS_RENDER_PROC_MOUNTS,  /* cat /proc/mounts, /proc/self/mounts */
};
void ns_snapshot_render(const struct ns_snapshot *s, enum ns_render how, struct ns_buf *out);
/* /proc/mounts: "SOURCE TARGET FSTYPE OPTIONS 0 0\n", the options put
 * together from the mountinfo fields as the kernel's show_vfsmnt() does:
 * ro if the mount or its superblock is, the superblock's sync, dirsync,
 * mand and lazytime, the per-mount flags, then the filesystem's own. */
void ns_snapshot_render_proc_mounts(const struct ns_snapshot *s, struct ns_buf *out);

#endif
