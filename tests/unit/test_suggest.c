/* test_suggest.c - "did you mean": ns_closest */
#include "base/suggest.h"
#include "base/util.h"
#include "tap.h"

static const char *const cmds[] = {
	"mkdir", "touch", "ls", "cd", "cat", "chroot", "mount", "umount", "unshare",
	"exit", "sleep", "capsh", "open_tree", "move_mount", "mount_setattr",
	"listmount", "grep", "sed", "awk", "wc",
};

static const char *const opts[] = {
	"--make-shared", "--make-slave", "--make-private", "--make-unbindable",
	"--make-rshared", "--make-rslave", "--make-rprivate", "--make-runbindable",
	"--bind", "-B", "--rbind", "-R", "--move", "-M", "-t", "--types", "-o", "--options",
};

static void closest(const char *word, const char *const *choices, size_t n,
		    const char *want)
{
	const char *got = ns_closest(word, choices, n);

	if (want)
		is_str(got, want, "'%s' -> '%s'", word, want);
	else
		ok(got == NULL, "'%s' -> nothing (got '%s')", word, got ? got : "");
}

TEST(closest_word)
{
	size_t nc = NS_ARRAY_SIZE(cmds), no = NS_ARRAY_SIZE(opts);

	/* one edit: insertion, deletion, substitution, swap */
	closest("mout", cmds, nc, "mount");
	closest("mounnt", cmds, nc, "mount");
	closest("mkdri", cmds, nc, "mkdir");
	closest("Mount", cmds, nc, "mount");
	closest("umout", cmds, nc, "umount");
	closest("unshrae", cmds, nc, "unshare");
	/* two edits for a long word, one for a short one */
	closest("unsha", cmds, nc, "unshare");      /* a prefix */
	closest("unshr", cmds, nc, NULL);           /* 2 edits of a 5-letter word */
	closest("listmnt", cmds, nc, "listmount");
	closest("chrt", cmds, nc, NULL);            /* 2 edits of a 4-letter word */
	closest("pwd", cmds, nc, NULL);             /* 2 edits from wc: no */
	closest("cp", cmds, nc, NULL);              /* too short to guess */
	closest("frobnicate", cmds, nc, NULL);
	closest("sort", cmds, nc, NULL);
	/* a unique prefix; an ambiguous one is no suggestion */
	closest("open", cmds, nc, "open_tree");
	closest("mount_set", cmds, nc, "mount_setattr");
	closest("--make-r", opts, no, NULL);
	closest("--prop", (const char *const[]){ "--propagation", "--mount" }, 2, "--propagation");
	/* options: dashes do not count in the length */
	closest("--bnd", opts, no, "--bind");
	closest("--make-share", opts, no, "--make-shared");
	closest("--mak-slave", opts, no, "--make-slave");
	closest("--rebind", opts, no, "--rbind");
	closest("-x", opts, no, NULL);
	closest("--f", opts, no, NULL);
	/* nearest first, the table's order breaking ties */
	closest("--make-rshare", opts, no, "--make-rshared");
	closest("cta", cmds, nc, "cat");
	/* a known word needs no suggestion; a huge word costs nothing */
	closest("mount", cmds, nc, NULL);
	{
		char *big = xmalloc(1u << 20);
		memset(big, 'm', (1u << 20) - 1);
		big[(1u << 20) - 1] = '\0';
		closest(big, cmds, nc, NULL);
		free(big);
	}
	closest("", cmds, nc, NULL);
	closest("x", NULL, 0, NULL);
}
