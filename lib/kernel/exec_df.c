/* exec_df.c - df on the kernel: the terminal's mount table, stat(2) and
 * statvfs(2) of each mount point and operand, and realpath(3) of each
 * operand, asked in the terminal's process; which mounts df shows and
 * how is commands/df.c's. */
#include "kernel/exec.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "commands/args.h"
#include "kernel/mountinfo.h"
#include "kernel/terminal.h"
#include "mounts/snapshot.h"

static void read_mount(const struct ns_mount_entry *e, struct ns_df_mount *m)
{
	struct stat sb;

	*m = (struct ns_df_mount){
		.source = e->source ? e->source : "none", .target = e->target,
		.fstype = e->fstype ? e->fstype : "", .root = e->root ? e->root : "/",
		.dev = makedev(e->major, e->minor),
	};
	m->reached = stat(e->target, &sb) == 0;
	if (m->reached)
		m->st_dev = sb.st_dev;
	ns_kernel_usage(e->target, &m->use);
}

int ns_kexec_df(struct ns_term *t, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	const struct ns_df_args *a = args;
	struct ns_df_file *f = xcalloc(a->nfiles + 1, sizeof(*f));
	struct ns_df_mount *m = NULL;
	struct ns_snapshot *snap = NULL;
	size_t n = 0;
	int r = 0;

	/* df names an operand it cannot stat first, and prints the rest;
	 * nstest fails the step at the first such operand */
	for (size_t i = 0; i < a->nfiles && r == 0; i++) {
		struct stat sb;

		f[i].name = a->files[i];
		if (stat(a->files[i], &sb) < 0) {
			r = ns_cmd_fail(res, "stat", errno);
			break;
		}
		f[i].st_dev = sb.st_dev;
		f[i].canon = realpath(a->files[i], NULL);
		ns_kernel_usage(a->files[i], &f[i].use);
	}
	if (r == 0 && (r = ns_snapshot_read(t->procfd, &snap)) < 0)
		r = ns_cmd_fail(res, "read mountinfo", -r);
	if (r == 0) {
		const struct ns_mount_entry *v = ns_snapshot_entries(snap);

		n = ns_snapshot_count(snap);
		m = xcalloc(n + 1, sizeof(*m));
		for (size_t i = 0; i < n; i++)
			read_mount(&v[i], &m[i]);
		ns_df_render(a, m, n, f, a->nfiles, out);
	}
	for (size_t i = 0; i < a->nfiles; i++)
		free((char *)(uintptr_t)f[i].canon);
	free(f);
	free(m);
	if (snap)
		ns_snapshot_free(snap);
	return r;
}
