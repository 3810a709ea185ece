/* ulmsg.c - see ulmsg.h.
 *
 * The table below is the one place that knows util-linux's words, and
 * those of the tools the file commands stand for (at its end). Each
 * mount and umount message is quoted from util-linux's source at the tag
 * named in the entry (github.com/util-linux/util-linux):
 *
 *   UMOUNT  libmount/src/context_umount.c, mnt_context_get_umount_excode(),
 *           "umount(2) errors" switch; the same text in v2.38.1 and
 *           every tag up to master (v2.41.x). sys-utils/umount.c
 *           mk_exit_code() prints warnx("%s: %s.", target, message) and
 *           no dmesg line.
 *   UREC    sys-utils/umount.c umount_recursive() (umount -R), the same in
 *           v2.38.1 and master: a target that is not in the mount table
 *           gets warnx("%s: not mounted") when access(2) finds it, else
 *           warnx("%s: not found"): no period, no system call.
 *   MOUNT   libmount/src/context_mount.c, mnt_context_get_mount_excode(),
 *           "mount(2) errors" switch (v2.38.1, v2.39.x; "Classic mount(2)
 *           errors" in v2.41 and master). sys-utils/mount.c mk_exit_code()
 *           prints warnx("%s: %s.", target, message) and, when a system
 *           call failed, "       dmesg(1) may have more information after
 *           failed mount system call.".
 *
 * The table was checked against Debian 12's mount and umount (util-linux
 * 2.38.1) and Debian 13's (2.41.5, unpacked by
 * tests/data/ulmsg/debian-util-linux) by tests/data/ulmsg/record; the
 * 2.39+ lines that recording does not reach (the new mount API's
 * "fsconfig() failed: ..." with errnos other than EINVAL, 2.40's
 * wordings) are taken from the source only. Left out: messages of libmount's own
 * checks made before any system call ("can't find in /etc/fstab", ...),
 * which an nstest command never fails with, and "bad option; for several
 * filesystems (e.g. nfs, cifs) ...", printed for network filesystems only. */
#include "run/ulmsg.h"

#include <errno.h>
#include <string.h>
#include <sys/mount.h>

#include "commands/args.h"
#include "run/pipeline.h"
#include "commands/command.h"

#define V238 "libmount/src/context_mount.c v2.38.1-master mnt_context_get_mount_excode()"
#define U238 "libmount/src/context_umount.c v2.38.1-master mnt_context_get_umount_excode()"
#define UREC "sys-utils/umount.c v2.38.1-master umount_recursive(), target not in the mount table"
#define CU "coreutils 9.1 src/"

const struct ns_ulmsg ns_ulmsg_table[] = {
	/* umount -R: the target is looked up in the mount table first; one
	 * that is no mount point is named without a system call, and
	 * without the final period */
	{ "umount", "not mounted", EINVAL, NS_ULMSG_UMOUNT_R, NS_ULMSG_UMOUNT_R, "2.38-", UREC " (access() succeeds)", true, NS_ULMSG_LINUX },
	{ "umount", "not found", ENOENT, NS_ULMSG_UMOUNT_R, NS_ULMSG_UMOUNT_R, "2.38-", UREC " (access() fails)", true, NS_ULMSG_LINUX },
	{ "umount", "not found", ENOTDIR, NS_ULMSG_UMOUNT_R, NS_ULMSG_UMOUNT_R, "2.38-", UREC " (access() fails)", true, NS_ULMSG_LINUX },
	/* umount(8): every wording is the same from 2.38 on */
	{ "umount", "invalid block device", ENXIO, 0, NS_ULMSG_ALL, "2.38-", U238 " case ENXIO", false, NS_ULMSG_LINUX },
	{ "umount", "not mounted", EINVAL, 0, NS_ULMSG_ALL, "2.38-", U238 " case EINVAL", false, NS_ULMSG_LINUX },
	{ "umount", "can't write superblock", EIO, 0, NS_ULMSG_ALL, "2.38-", U238 " case EIO", false, NS_ULMSG_LINUX },
	{ "umount", "target is busy", EBUSY, 0, NS_ULMSG_ALL, "2.38-", U238 " case EBUSY", false, NS_ULMSG_LINUX },
	{ "umount", "no mount point specified", ENOENT, 0, NS_ULMSG_ALL, "2.38-", U238 " case ENOENT", false, NS_ULMSG_LINUX },
	{ "umount", "must be superuser to unmount", EPERM, 0, NS_ULMSG_ALL, "2.38-", U238 " case EPERM", false, NS_ULMSG_LINUX },
	{ "umount", "block devices are not permitted on filesystem", EACCES, 0, NS_ULMSG_ALL, "2.38-", U238 " case EACCES", false, NS_ULMSG_LINUX },
	{ "umount", "umount(2) system call failed: %M", 0, 0, NS_ULMSG_ALL, "2.38-", U238 " default", false, NS_ULMSG_LINUX },

	/* mount(8), in the order util-linux tries them for an errno */
	{ "mount", "mount point is not a directory", EPERM, 0, 0, "2.38-", V238 " case EPERM (root, target not a directory)", false, NS_ULMSG_LINUX },
	{ "mount", "permission denied", EPERM, 0, 0, "2.38-", V238 " case EPERM (root)", false, NS_ULMSG_LINUX },
	{ "mount", "must be superuser to use mount", EPERM, 0, 0, "2.38-", V238 " case EPERM (not root)", false, NS_ULMSG_LINUX },
	{ "mount", "mount point is busy", EBUSY, NS_ULMSG_REMOUNT, NS_ULMSG_REMOUNT, "2.38-", V238 " case EBUSY, MS_REMOUNT", false, NS_ULMSG_LINUX },
	{ "mount", "%S already mounted on %P", EBUSY, 0, 0, "2.38-", V238 " case EBUSY (source found in the table)", false, NS_ULMSG_LINUX },
	{ "mount", "%S already mounted or mount point busy", EBUSY, 0, 0, "2.38-", V238 " case EBUSY", false, NS_ULMSG_LINUX },
	{ "mount", "mount point does not exist", ENOENT, 0, 0, "2.38-", V238 " case ENOENT (no target)", false, NS_ULMSG_LINUX },
	{ "mount", "mount point is a symbolic link to nowhere", ENOENT, 0, 0, "2.38-", V238 " case ENOENT (dangling target)", false, NS_ULMSG_LINUX },
	{ "mount", "special device %S does not exist", ENOENT, 0, 0, "2.38-", V238 " case ENOENT (no source)", false, NS_ULMSG_LINUX },
	{ "mount", "mount point is not a directory", ENOTDIR, 0, 0, "2.38-", V238 " case ENOTDIR (target)", false, NS_ULMSG_LINUX },
	{ "mount", "special device %S does not exist (a path prefix is not a directory)", ENOTDIR, 0, 0, "2.38-", V238 " case ENOTDIR (source)", false, NS_ULMSG_LINUX },
	/* 2.39+ attach a bind with open_tree(2) and move_mount(2), which
	 * refuses a directory on a file or a file on a directory with EINVAL
	 * (fs/namespace.c do_move_mount()) where mount(2), which nstest
	 * calls, says ENOTDIR (graft_tree()); util-linux 2.41.5 printed it
	 * (tests/data/ulmsg/util-linux-2.41.5.txt, bind-dir-on-file) */
	{ "mount", "wrong fs type, bad option, bad superblock on %S, missing codepage or helper program, or other error", ENOTDIR, NS_ULMSG_BIND, 0, "2.39-", V238 " case EINVAL (otherwise), after move_mount(2)'s EINVAL", false, NS_ULMSG_LINUX },
	{ "mount", "mount point not mounted or bad option", EINVAL, NS_ULMSG_REMOUNT, NS_ULMSG_REMOUNT, "2.38-", V238 " case EINVAL, MS_REMOUNT", false, NS_ULMSG_LINUX },
	/* libmount applies --make-* after the mount (MNT_ERR_APPLYFLAGS) */
	{ "mount", "not mount point or bad option", EINVAL, NS_ULMSG_PROP | NS_ULMSG_BIND | NS_ULMSG_NEW, NS_ULMSG_PROP, "2.38-", V238 " case EINVAL, -MNT_ERR_APPLYFLAGS", false, NS_ULMSG_LINUX },
	{ "mount", "bad option; moving a mount residing under a shared mount is unsupported", EINVAL, NS_ULMSG_MOVE, 0, "2.38-", V238 " case EINVAL, MS_MOVE under a shared mount", false, NS_ULMSG_LINUX },
	{ "mount", "wrong fs type, bad option, bad superblock on %S, missing codepage or helper program, or other error", EINVAL, 0, NS_ULMSG_NEW | NS_ULMSG_BIND, "2.38-", V238 " case EINVAL (otherwise)", false, NS_ULMSG_LINUX },
	{ "mount", "mount table full", EMFILE, 0, NS_ULMSG_ALL, "2.38-", V238 " case EMFILE", false, NS_ULMSG_LINUX },
	{ "mount", "can't read superblock on %S", EIO, 0, NS_ULMSG_ALL, "2.38-", V238 " case EIO", false, NS_ULMSG_LINUX },
	{ "mount", "unknown filesystem type '%F'", ENODEV, 0, 0, "2.38-", V238 " case ENODEV (-t given)", false, NS_ULMSG_LINUX },
	{ "mount", "unknown filesystem type", ENODEV, 0, 0, "2.38-", V238 " case ENODEV", false, NS_ULMSG_LINUX },
	{ "mount", "%S is not a block device, and stat(2) fails?", ENOTBLK, 0, 0, "2.38-", V238 " case ENOTBLK (stat fails)", false, NS_ULMSG_LINUX },
	{ "mount", "the kernel does not recognize %S as a block device; maybe \"modprobe driver\" is necessary", ENOTBLK, 0, 0, "2.38-", V238 " case ENOTBLK (block device)", false, NS_ULMSG_LINUX },
	{ "mount", "%S is not a block device; try \"-o loop\"", ENOTBLK, 0, 0, "2.38-", V238 " case ENOTBLK (regular file)", false, NS_ULMSG_LINUX },
	{ "mount", "%S is not a block device", ENOTBLK, 0, 0, "2.38-", V238 " case ENOTBLK", false, NS_ULMSG_LINUX },
	{ "mount", "%S is not a valid block device", ENXIO, 0, NS_ULMSG_ALL, "2.38-", V238 " case ENXIO", false, NS_ULMSG_LINUX },
	{ "mount", "cannot mount %S read-only", EACCES, NS_ULMSG_RDONLY, NS_ULMSG_RDONLY, "2.38-", V238 " case EACCES, MS_RDONLY", false, NS_ULMSG_LINUX },
	{ "mount", "cannot mount %S read-only", EROFS, NS_ULMSG_RDONLY, NS_ULMSG_RDONLY, "2.38-", V238 " case EROFS, MS_RDONLY", false, NS_ULMSG_LINUX },
	{ "mount", "%S is write-protected but explicit read-write mode requested", EACCES, 0, 0, "2.38-", V238 " case EACCES, -o rw", false, NS_ULMSG_LINUX },
	{ "mount", "%S is write-protected but explicit read-write mode requested", EROFS, 0, 0, "2.38-", V238 " case EROFS, -o rw", false, NS_ULMSG_LINUX },
	{ "mount", "cannot remount %S read-write, is write-protected", EACCES, NS_ULMSG_REMOUNT, NS_ULMSG_REMOUNT, "2.38-", V238 " case EACCES, MS_REMOUNT", false, NS_ULMSG_LINUX },
	{ "mount", "cannot remount %S read-write, is write-protected", EROFS, NS_ULMSG_REMOUNT, NS_ULMSG_REMOUNT, "2.38-", V238 " case EROFS, MS_REMOUNT", false, NS_ULMSG_LINUX },
	{ "mount", "bind %S failed", EACCES, NS_ULMSG_BIND, 0, "2.38-", V238 " case EACCES, MS_BIND", false, NS_ULMSG_LINUX },
	{ "mount", "bind %S failed", EROFS, NS_ULMSG_BIND, 0, "2.38-", V238 " case EROFS, MS_BIND", false, NS_ULMSG_LINUX },
	{ "mount", "no medium found on %S", ENOMEDIUM, 0, NS_ULMSG_ALL, "2.38-", V238 " case ENOMEDIUM", false, NS_ULMSG_LINUX },
	{ "mount", "cannot mount; probably corrupted filesystem on %S", EBADMSG, 0, 0, "2.38-", V238 " case EBADMSG", false, NS_ULMSG_LINUX },
	/* any other errno, and the fall-backs of ENOENT, ENOTDIR, EACCES, EROFS */
	{ "mount", "mount(2) system call failed: %M", 0, 0, NS_ULMSG_ALL, "2.38-2.39",
	  "libmount/src/context_mount.c v2.38.1, v2.39.4 mnt_context_get_mount_excode() default", false, NS_ULMSG_LINUX },
	{ "mount", "%C system call failed: %M", 0, 0, 0, "2.40",
	  "libmount/src/context_mount.c v2.40.4 mnt_context_get_mount_excode() generic_error", false, NS_ULMSG_LINUX },
	/* the kernel's message from the filesystem context (fsconfig(2)):
	 * fs_parser's "Unknown parameter" and "Bad value for", given with EINVAL */
	{ "mount", "%C system call failed: %K", EINVAL, 0, 0, "2.40",
	  "libmount/src/context_mount.c v2.40.4 mnt_context_get_mount_excode(), cxt->syscall_errmsg (hook_mount.c)", false, NS_ULMSG_LINUX },
	{ "mount", "%C() failed: %M", 0, 0, 0, "2.41-",
	  "libmount/src/context_mount.c v2.41 mnt_context_get_mount_excode() generic_error", false, NS_ULMSG_LINUX },
	{ "mount", "%C() failed: %K", EINVAL, 0, 0, "2.41-",
	  "libmount/src/context_mount.c v2.41 mnt_context_get_mount_excode(), mnt_context_get_nmesgs(cxt, 'e')", false, NS_ULMSG_LINUX },

	/* the file commands' tools: "CMD: MESSAGE", the errno's text last.
	 * %T is any operand, quoted as the tool quotes it: quoteaf()'s
	 * '...' (coreutils' "shell-escape-always" style), or quote()'s
	 * locale quotes, '...' in C and ‘...’ in UTF-8 (mkdir). Recorded
	 * with coreutils 9.1 and util-linux 2.38.1 (tests/data/sessions,
	 * 24-file-command-errors); the first entry of a command is the one
	 * show and --update write. */
	{ "mkdir", "cannot create directory ‘%T’: %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "mkdir.c, UTF-8 locale", false, NS_ULMSG_TOOL },
	{ "mkdir", "cannot create directory '%T': %M", 0, 0, 0, "coreutils 9.1", CU "mkdir.c, C locale", false, NS_ULMSG_TOOL },
	{ "touch", "cannot touch '%T': %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "touch.c", false, NS_ULMSG_TOOL },
	{ "ls", "cannot access '%T': %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "ls.c (stat fails)", false, NS_ULMSG_TOOL },
	{ "ls", "cannot open directory '%T': %M", 0, 0, 0, "coreutils 9.1", CU "ls.c (opendir fails)", false, NS_ULMSG_TOOL },
	{ "cat", "%T: %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "cat.c", false, NS_ULMSG_TOOL },
	{ "realpath", "%T: %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "realpath.c (quotef)", false, NS_ULMSG_TOOL },
	{ "df", "%T: %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "df.c (quotef)", false, NS_ULMSG_TOOL },
	{ "pivot_root", "failed to change root from `%T' to `%T': %M", 0, 0, NS_ULMSG_FILES, "util-linux 2.38-",
	  "sys-utils/pivot_root.c v2.38.1 err()", false, NS_ULMSG_TOOL },
	{ "rmdir", "failed to remove '%T': %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "rmdir.c", false, NS_ULMSG_TOOL },
	{ "mv", "cannot move '%T' to '%T': %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "copy.c (rename fails)", false, NS_ULMSG_TOOL },
	{ "mv", "cannot stat '%T': %M", 0, 0, 0, "coreutils 9.1", CU "mv.c (no source)", false, NS_ULMSG_TOOL },
	{ "ln", "failed to create symbolic link '%T': %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "ln.c", false, NS_ULMSG_TOOL },
	{ "stat", "cannot statx '%T': %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "stat.c (statx)", false, NS_ULMSG_TOOL },
	{ "chroot", "cannot change root directory to '%T': %M", 0, 0, NS_ULMSG_FILES, "coreutils 9.1", CU "chroot.c", false, NS_ULMSG_TOOL },
	{ "mountpoint", "%T: %M", 0, 0, NS_ULMSG_FILES, "util-linux 2.38-", "sys-utils/mountpoint.c v2.38.1 err()", false, NS_ULMSG_TOOL },
	/* bash's own, as an interactive bash 5.2 prints them (a script's
	 * bash says "bash: line N: " instead, which is not taken) */
	{ "cd", "cd: %T: %M", 0, 0, NS_ULMSG_FILES, "bash 5.2", "bash 5.2 builtins/cd.def, builtin_error() of builtins/common.c", false, NS_ULMSG_BASH },
	{ "echo", "%T: %M", 0, 0, NS_ULMSG_FILES, "bash 5.2", "bash 5.2 redir.c file_error()", false, NS_ULMSG_BASH },
};
const size_t ns_ulmsg_count = NS_ARRAY_SIZE(ns_ulmsg_table);

/* The system calls libmount names in its messages: classic mount(2), and
 * hook_mount.c's set_syscall_status() names from 2.39 on (2.39 also has
 * the misspelt "move_setattr"). */
static const char *const syscalls[] = {
	"mount", "fsopen", "fsconfig", "fsmount", "fspick", "open_tree",
	"move_mount", "mount_setattr", "move_setattr",
};

/* ---- the command line --------------------------------------------------- */

struct line_ctx {
	const char *cmd;          /* mount or umount */
	unsigned what;            /* NS_ULMSG_* of the command line */
	const char *const *targets;
	size_t ntargets;
	const char *src, *type;
	int err;
	const char *cwd;          /* where the command ran, or NULL */
	bool any;                 /* ns_ulmsg_looks: any value fits */
};

/* What the command line is worded from: its definition says (struct
 * ns_cmd_def.messages). */
static bool ctx_init(struct line_ctx *c, const struct ns_stage *st, int err)
{
	struct ns_msg_ctx m = { 0 };

	memset(c, 0, sizeof(*c));
	c->err = err;
	/* unshare -m mount ...: the message is the command's, as the
	 * program unshare(1) execs prints it */
	st = ns_stage_cmd(st);
	if (!st->def || !st->args || !st->def->messages || !st->def->messages(st, &m))
		return false;
	c->cmd = m.cmd;
	c->what = m.what;
	c->targets = m.targets;
	c->ntargets = m.ntargets;
	c->src = m.src;
	c->type = m.type;
	return c->what != 0;
}

/* ---- paths ---------------------------------------------------------------- */

/* path with "//" and "/." components and a trailing "/" removed. */
static char *lexical(const char *path)
{
	char *r = xstrdup(path), *w = r;

	for (const char *p = path; *p;) {
		if (*p == '/' && (p[1] == '/' || (p[1] == '.' && (p[2] == '/' || !p[2])))) {
			p += p[1] == '/' ? 1 : 2;
			continue;
		}
		*w++ = *p++;
	}
	*w = '\0';
	if (w - r > 1 && w[-1] == '/')
		w[-1] = '\0';
	if (!*r && *path == '/')
		strcpy(r, "/");
	return r;
}

/* dir/path with "." and ".." resolved as a path walk resolves them
 * when no component is a symbolic link. */
static char *joined(const char *dir, const char *path)
{
	char *all = xasprintf("%s/%s", dir, path), *out = xcalloc(strlen(all) + 2, 1);
	size_t len = 0;

	for (char *p = all, *end; *p; p = end) {
		size_t k;

		while (*p == '/')
			p++;
		end = p + strcspn(p, "/");
		k = (size_t)(end - p);
		if (!k || (k == 1 && *p == '.'))
			continue;
		if (k == 2 && p[0] == '.' && p[1] == '.') {
			while (len && out[len - 1] != '/')
				len--;
			if (len)
				len--; /* the '/' too; / stays / */
			continue;
		}
		out[len++] = '/';
		memcpy(out + len, p, k);
		len += k;
	}
	if (!len)
		out[len++] = '/';
	out[len] = '\0';
	free(all);
	return out;
}

/* The n bytes at s name path of the command line: the same file, up to
 * libmount's canonical spelling. A relative path is named as typed, or
 * from the directory the command ran in (cwd); with cwd unknown, from
 * any directory. */
static bool path_fits(const char *s, size_t n, const char *path, const char *cwd)
{
	char *norm;
	size_t k;
	bool ok;

	if (!path || !n)
		return false;
	if (strlen(path) == n && !strncmp(s, path, n))
		return true;
	if (*path != '/' && cwd) {
		norm = joined(cwd, path);
		ok = strlen(norm) == n && !strncmp(s, norm, n);
		free(norm);
		return ok;
	}
	norm = lexical(path);
	k = strlen(norm);
	if (*norm == '/')
		ok = k == n && !strncmp(s, norm, n);
	else if (!strcmp(norm, ".") || !*norm)
		ok = *s == '/';
	else
		ok = *s == '/' && n > k && s[n - k - 1] == '/' && !strncmp(s + n - k, norm, k);
	free(norm);
	return ok;
}

/* ---- a message against its pattern ------------------------------------------ */

static bool value_fits(char kind, const char *s, size_t n, const struct line_ctx *c)
{
	const char *m;

	if (c->any)
		return true;
	switch (kind) {
	case 'T':
		for (size_t i = 0; i < c->ntargets; i++)
			if (path_fits(s, n, c->targets[i], c->cwd))
				return true;
		return false;
	case 'S':
		return path_fits(s, n, c->src, c->cwd);
	case 'F':
		return c->type && strlen(c->type) == n && !strncmp(s, c->type, n);
	case 'P':
		return *s == '/';
	case 'M':
		m = strerror(c->err);
		return strlen(m) == n && !strncmp(s, m, n);
	case 'C':
		for (size_t i = 0; i < NS_ARRAY_SIZE(syscalls); i++)
			if (strlen(syscalls[i]) == n && !strncmp(s, syscalls[i], n))
				return true;
		return false;
	case 'K':
		/* a kernel message, any text but the errno's own: that line is
		 * the generic form, which generic_allowed() decides */
		m = strerror(c->err);
		return !(strlen(m) == n && !strncmp(s, m, n));
	}
	return false;
}

/* s matches pattern p, each %X standing for a non-empty value that fits. */
static bool fits_at(const char *p, const char *s, const struct line_ctx *c)
{
	for (; *p; p++, s++) {
		if (p[0] == '%' && p[1]) {
			size_t len = strlen(s);

			for (size_t n = 1; n <= len; n++)
				if (value_fits(p[1], s, n, c) && fits_at(p + 2, s + n, c))
					return true;
			return false;
		}
		if (*p != *s)
			return false;
	}
	return !*s;
}

/* "CMD: %T: MESSAGE." against line. */
static bool line_fits(const struct ns_ulmsg *e, const char *line,
		      const struct line_ctx *c)
{
	size_t k = strlen(e->cmd);
	char *pat;
	bool ok;

	if (e->form == NS_ULMSG_BASH) {
		line += *line == '-';
		return !strncmp(line, "bash: ", 6) && fits_at(e->pattern, line + 6, c);
	}
	if (strncmp(line, e->cmd, k) || strncmp(line + k, ": ", 2))
		return false;
	if (e->form == NS_ULMSG_TOOL)
		return fits_at(e->pattern, line + k + 2, c);
	pat = xasprintf("%%T: %s%s", e->pattern, e->bare ? "" : ".");
	ok = fits_at(pat, line + k + 2, c);
	free(pat);
	return ok;
}

bool ns_ulmsg_is_dmesg(const char *line)
{
	return !strcmp(line + strspn(line, " \t"), NS_ULMSG_DMESG);
}

/* Whether util-linux has a message of its own for err (not only the
 * generic one) for a command line that does what: umount -R's own
 * "not found" does not make plain umount's ENOTDIR lose its generic one. */
static bool has_own_message(const char *cmd, int err, unsigned what)
{
	for (size_t i = 0; i < ns_ulmsg_count; i++) {
		const struct ns_ulmsg *e = &ns_ulmsg_table[i];

		if (e->err == err && !strcmp(e->cmd, cmd) && (!e->when || (e->when & what)))
			return true;
	}
	return false;
}

/* Whether util-linux may print its generic "... failed: %m" for err:
 * when it has no message of its own for err, or for the errnos whose
 * case falls back to the generic one when no condition of its own holds
 * (mount: ENOENT, ENOTDIR, EACCES, EROFS, EBADMSG; in
 * mnt_context_get_mount_excode() their cases "goto generic_error" or fall
 * through to it). umount's cases never fall back. */
static bool generic_allowed(const char *cmd, int err, unsigned what)
{
	static const int mount_fallback[] = { ENOENT, ENOTDIR, EACCES, EROFS, EBADMSG };

	if (!has_own_message(cmd, err, what))
		return true;
	if (strcmp(cmd, "mount"))
		return false;
	for (size_t i = 0; i < NS_ARRAY_SIZE(mount_fallback); i++)
		if (mount_fallback[i] == err)
			return true;
	return false;
}

const struct ns_ulmsg *ns_ulmsg_fit(const struct ns_stage *st, int err, const char *cwd,
				    const char *line, bool dmesg)
{
	struct line_ctx c;

	if (!err || !ctx_init(&c, st, err))
		return NULL;
	c.cwd = cwd;
	/* only mount(8) prints the dmesg line */
	if (dmesg && strcmp(c.cmd, "mount"))
		return NULL;
	for (size_t i = 0; i < ns_ulmsg_count; i++) {
		const struct ns_ulmsg *e = &ns_ulmsg_table[i];

		if (strcmp(e->cmd, c.cmd) || (e->err && e->err != err) ||
		    (e->when && !(e->when & c.what)) ||
		    (!e->err && !generic_allowed(c.cmd, err, c.what)))
			continue;
		if (line_fits(e, line, &c))
			return e;
	}
	return NULL;
}

bool ns_ulmsg_looks(const char *cmd, const char *line)
{
	struct line_ctx c = { .any = true };

	for (size_t i = 0; i < ns_ulmsg_count; i++)
		if (!strcmp(ns_ulmsg_table[i].cmd, cmd) && line_fits(&ns_ulmsg_table[i], line, &c))
			return true;
	return false;
}

/* ---- the verdict's side ---------------------------------------------------- */

struct ns_expect *ns_ulmsg_translate(const struct ns_step *st, int err, const char *cwd,
				     size_t *n)
{
	size_t ne = st->nexpect, k;
	bool dmesg;
	struct ns_expect *copy;
	struct ns_buf line = NS_BUF_INIT;
	const struct ns_stage *first;

	if (!err || !ne || !st->pipeline.n)
		return NULL;
	dmesg = ns_ulmsg_is_dmesg(st->expect[ne - 1].text);
	if (dmesg && ne < 2)
		return NULL;
	k = ne - 1 - dmesg;
	/* in a list, the failing command is the last that ran: any of them */
	first = NULL;
	for (size_t i = 0; i <= st->nmore && !first; i++) {
		const struct ns_pipeline *pl = i ? &st->more[i - 1].pipeline : &st->pipeline;
		const struct ns_stage *cmd = ns_stage_cmd(&pl->stages[0]);

		if (ns_ulmsg_fit(cmd, err, cwd, st->expect[k].text, dmesg))
			first = cmd;
	}
	if (!first)
		return NULL;
	copy = xcalloc(k + 1, sizeof(*copy));
	memcpy(copy, st->expect, k * sizeof(*copy));
	ns_pipeline_error_line(&line, first->argv[0], err);
	line.data[--line.len] = '\0'; /* the '\n' */
	copy[k].text = ns_buf_detach(&line);
	copy[k].line = st->expect[k].line;
	*n = k + 1;
	return copy;
}

/* The errno of an nstest error line of command name ("umount: EINVAL
 * (Invalid argument)", ns_pipeline_error_line), or 0. */
static int error_line_errno(const char *line, size_t len, const char *name)
{
	size_t nl = strlen(name);
	const char *e = line + nl + 2, *end = line + len;

	if (len < nl + 3 || strncmp(line, name, nl) || strncmp(line + nl, ": E", 3))
		return 0;
	for (int err = 1; err < 4096; err++) {
		const char *n = ns_errname(err);
		size_t k = strlen(n);

		if ((size_t)(end - e) > k + 1 && !strncmp(e, n, k) && e[k] == ' ' && e[k + 1] == '(')
			return err;
	}
	return 0;
}

struct ns_expect *ns_ulmsg_translate_list(const struct ns_expect *block, size_t n,
					  const struct ns_step *st, const char *output,
					  const char *cwd, size_t *nout)
{
	struct fail { const struct ns_stage *cmd; int err; } *fails = NULL;
	size_t nfails = 0, cap = 0, out = 0;
	struct ns_expect *copy;
	bool any = false;

	if (!st->nmore || !output || !n)
		return NULL;
	/* each command of the list that failed, with its errno, from the
	 * error lines nstest printed for it */
	for (const char *p = output; *p;) {
		size_t len = strcspn(p, "\n");

		for (size_t i = 0; i <= st->nmore; i++) {
			const struct ns_pipeline *pl = i ? &st->more[i - 1].pipeline : &st->pipeline;
			const struct ns_stage *cmd = pl->n ? ns_stage_cmd(&pl->stages[0]) : NULL;
			int err = cmd ? error_line_errno(p, len, cmd->argv[0]) : 0;
			void *v = fails;

			if (!err)
				continue;
			ns_grow(&v, &cap, nfails + 1, sizeof(*fails));
			fails = v;
			fails[nfails++] = (struct fail){ cmd, err };
		}
		p += len + (p[len] == '\n');
	}
	if (!nfails)
		return NULL;
	copy = xcalloc(n, sizeof(*copy));
	for (size_t k = 0; k < n; k++) {
		bool dmesg = k + 1 < n && ns_ulmsg_is_dmesg(block[k + 1].text);
		const struct fail *f = NULL;
		struct ns_buf line = NS_BUF_INIT;

		for (size_t j = 0; j < nfails && !f; j++)
			if (ns_ulmsg_fit(fails[j].cmd, fails[j].err, cwd, block[k].text, dmesg))
				f = &fails[j];
		if (!f) {
			copy[out++] = (struct ns_expect){ xstrdup(block[k].text), block[k].line };
			continue;
		}
		ns_pipeline_error_line(&line, f->cmd->argv[0], f->err);
		line.data[--line.len] = '\0'; /* the '\n' */
		copy[out++] = (struct ns_expect){ ns_buf_detach(&line), block[k].line };
		k += dmesg;
		any = true;
	}
	free(fails);
	if (!any) {
		ns_ulmsg_free_list(copy, out);
		return NULL;
	}
	*nout = out;
	return copy;
}

void ns_ulmsg_free_list(struct ns_expect *block, size_t n)
{
	for (size_t i = 0; block && i < n; i++)
		free(block[i].text);
	free(block);
}

void ns_ulmsg_free_block(struct ns_expect *block, size_t n)
{
	if (!block)
		return;
	free(block[n - 1].text);
	free(block);
}

/* ---- show and --update ------------------------------------------------------- */

/* A pattern with its values filled in; false if it has one that is not
 * fixed by the command line. */
static bool expand(const char *p, const struct line_ctx *c, struct ns_buf *out)
{
	for (; *p; p++) {
		const char *v = NULL;

		if (*p != '%' || !p[1]) {
			ns_buf_addc(out, *p);
			continue;
		}
		switch (*++p) {
		case 'T':
			v = c->ntargets == 1 ? c->targets[0] : NULL;
			break;
		case 'S':
			v = c->src;
			break;
		case 'F':
			v = c->type;
			break;
		case 'M':
			v = strerror(c->err);
			break;
		}
		if (!v)
			return false;
		ns_buf_adds(out, v);
	}
	return true;
}


bool ns_ulmsg_render(const struct ns_stage *st, int err, struct ns_buf *out)
{
	struct line_ctx c;
	struct ns_buf b = NS_BUF_INIT;
	bool own;

	if (!err || !ctx_init(&c, st, err) || c.ntargets != 1)
		return false;
	own = has_own_message(c.cmd, err, c.what);
	for (size_t i = 0; i < ns_ulmsg_count; i++) {
		const struct ns_ulmsg *e = &ns_ulmsg_table[i];

		if (strcmp(e->cmd, c.cmd) || e->err != (own ? err : 0) ||
		    !(e->render & c.what) || (e->when && !(e->when & c.what)))
			continue;
		ns_buf_addf(&b, "%s: ", e->form == NS_ULMSG_BASH ? "bash" : c.cmd);
		if ((e->form == NS_ULMSG_LINUX && !expand("%T: ", &c, &b)) ||
		    !expand(e->pattern, &c, &b)) {
			ns_buf_free(&b);
			return false;
		}
		ns_buf_adds(&b, e->bare || e->form != NS_ULMSG_LINUX ? "\n" : ".\n");
		if (!strcmp(c.cmd, "mount"))
			ns_buf_adds(&b, "       " NS_ULMSG_DMESG "\n");
		ns_buf_add(out, b.data, b.len);
		ns_buf_free(&b);
		return true;
	}
	return false;
}

bool ns_ulmsg_file_form(const struct ns_scenario *sc)
{
	if (sc->errors != NS_ERRORS_ANY)
		return sc->errors == NS_ERRORS_UTIL_LINUX;
	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct ns_step *st = &sc->steps[i];
		const char *cmd = st->pipeline.n ? ns_stage_cmd(&st->pipeline.stages[0])->argv[0] : "";

		for (size_t k = 0; k < st->nexpect; k++)
			if (ns_ulmsg_looks(cmd, st->expect[k].text))
				return true;
	}
	return false;
}

char *ns_ulmsg_output(const struct ns_scenario *sc, const struct ns_step *st,
		      int err, const char *output)
{
	const char *text = output ? output : "";
	size_t len = strlen(text), start;
	struct ns_buf b = NS_BUF_INIT;

	/* a list's failing command is not known here: its line stays */
	if (!err || !st->pipeline.n || st->nmore || !len || !ns_ulmsg_file_form(sc))
		return xstrdup(text);
	/* the error line is the last line */
	start = len - 1;
	while (start && text[start - 1] != '\n')
		start--;
	ns_buf_add(&b, text, start);
	if (!ns_ulmsg_render(&st->pipeline.stages[0], err, &b)) {
		ns_buf_free(&b);
		return xstrdup(text);
	}
	return ns_buf_detach(&b);
}
