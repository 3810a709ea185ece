/* test_fuzz_gen.c - the generator (fuzz/gen.h) and the case it writes
 * (fuzz/case.h): one seed and index, one text; every case parses; the
 * shrinker's rewrites. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen.h"
#include "scenario/scenario.h"
#include "tap.h"

static char *text_of(uint64_t seed, uint64_t index, const struct ns_fuzz_gen_opts *o)
{
	struct ns_fuzz_case c;
	struct ns_buf b = NS_BUF_INIT;

	ns_fuzz_generate(seed, index, o, &c);
	ns_fuzz_case_text(&c, "t", &b);
	ns_fuzz_case_free(&c);
	return ns_buf_detach(&b);
}

/* Every feature of the new mount API. */
static unsigned all_features(void)
{
	unsigned f = 0;

	for (unsigned bit = NS_FEAT_FIRST; bit <= NS_FEAT_LAST; bit <<= 1)
		f |= bit;
	return f;
}

TEST(determinism)
{
	struct ns_fuzz_gen_opts o = { 10, 3, all_features() };
	char *a = text_of(42, 7, &o), *b = text_of(42, 7, &o), *c = text_of(43, 7, &o),
	     *d = text_of(42, 8, &o);

	is_str(a, b, "the same seed and index give the same text");
	ok(strcmp(a, c) != 0, "another seed, another case");
	ok(strcmp(a, d) != 0, "another index, another case");
	free(a), free(b), free(c), free(d);
}

TEST(every_case_parses)
{
	struct ns_fuzz_gen_opts o = { 10, 3, all_features() };
	size_t bad = 0, wrong_len = 0, too_many_terms = 0;
	/* every command and option that changes or reads mount state */
	static const char *const want[] = {
		"# mkdir ", "# touch ", "# ls ", "# mount /dev/", "# mount -o ro", "# mount -t tmpfs ",
		"# mount --bind ", "# mount --rbind ", "# mount --move ", "# mount --make-",
		"# mount -o remount,", "# mount -o remount,bind,", "# umount /", "# umount -l ",
		"# umount -R ", "# umount --expire ", "# umount --no-follow ", "# umount -f ",
		"# unshare -m sh", "# unshare -m --propagation shared sh",
		"# unshare -m --propagation slave sh", "# unshare -m --propagation private sh",
		"# unshare -m --propagation unchanged sh", "# unshare -U -r -m --propagation shared sh",
		"# unshare -U -r -m --propagation slave sh", "# unshare -m mount ", "# unshare -m umount ",
		"# nsenter -t sh", "# chroot ", "# pivot_root ", "# exit", "# cd /", "# cd\n",
		"# exec 3< ", "# exec 3<&-", "# findmnt ", "# statmount ", "# listmount --check",
		"# open_tree -c ", "# open_tree -c -R ", "# open_tree_attr ", "# move_mount @",
		"# move_mount sh", "# move_mount /", "# move_mount --beneath ",
		"# move_mount --set-group ", "# mount_setattr ", "--idmap sh", "# close @t",
		"# close @fc", "# fsopen tmpfs @fc", "# fsopen ramfs @fc", "# fsconfig @fc create",
		"# fsconfig @fc set-flag ro", "# fsconfig @fc reconfigure", "# fsmount @fc ",
		"# fspick ", "# open_tree --namespace ", "# nsenter --mount=@ns sh", "@t/x", "@u",
		"/a/x/y", "/dev/d4", "# mountpoint /", "# rmdir /", "# mv /",
		/* tmpfs's options, by mount(2) and by fsconfig */
		"# mount -t tmpfs -o size=", "nr_inodes=", "mode=700", "# mount -t tmpfs -o ro,",
		"# mount -t ramfs -o mode=", "# fsconfig @fc set-string size ",
		"# fsconfig @fc set-string mode ", "# fsconfig @fc set-string nr_inodes ",
		"# stat -c %m", "# stat -L -c ", "%F", "%u:%g",
		/* paths across mounts */
		"# ln -s ", "# realpath ", "# readlink ", "# pwd", "# echo hi > ", "# echo more >> ",
		"# cat /", "# capsh --drop=cap_sys_admin --", "# capsh --drop=cap_sys_chroot --",
		/* mount notifications, read through filters; statmount's
		 * spellings, its every field counted and its error paths; df */
		"# watch start", "# watch | cut -d' ' -f1 | sort", "# watch | wc -l", "# watch stop",
		"# watch\n", "# statmount --output=", "# statmount --output ", "# statmount -o point",
		"unique_id,ns,dev,fstype,propagate_from,peer_group,master", " .\n", "# df | awk ",
		"# df /",
		/* unshare's id maps and spellings, with a command; nsenter's
		 * forms; umount -R's flags */
		"# unshare -Ur -m ", "# unshare -U -c -m ", "# unshare --map-user=0 --map-group=0 ",
		"--map-users=0,0,1 --map-groups=0,0,1", "# unshare -U -r sh", "--propagation=",
		"# unshare -U -r -m --propagation unchanged mount ", "-m -r ", " -w sh", " -m -U sh",
		"# nsenter -t sh1 -U sh", "# nsenter -t sh2 -m findmnt ", "# umount -lR ",
		"# umount -R -f ", "# umount -R --no-follow ", "# umount --recursive --lazy ",
	};
	bool seen[NS_ARRAY_SIZE(want)] = { false };
	size_t missing = 0;

	for (uint64_t seed = 1; seed <= 5000; seed++) {
		struct ns_fuzz_case c;
		struct ns_buf b = NS_BUF_INIT;
		struct ns_diag d = { NULL, 0 };
		struct ns_scenario *sc;
		unsigned terms[NS_FUZZ_MAX_TERMS];

		o.steps = 1 + (unsigned)(seed % 20);
		ns_fuzz_generate(seed, seed * 3, &o, &c);
		ns_fuzz_case_text(&c, "t", &b);
		sc = ns_scenario_parse("t.scn", ns_buf_str(&b), b.len, &d);
		if (!sc && bad++ < 3)
			printf("# seed %llu:\n%s# %s\n", (unsigned long long)seed, ns_buf_str(&b), d.msg);
		wrong_len += c.n != o.steps;
		too_many_terms += ns_fuzz_case_terms(&c, terms) > 3;
		for (size_t w = 0; w < NS_ARRAY_SIZE(want); w++)
			seen[w] |= strstr(ns_buf_str(&b), want[w]) != NULL;
		ns_scenario_free(sc);
		ns_diag_free(&d);
		ns_buf_free(&b);
		ns_fuzz_case_free(&c);
	}
	ok(bad == 0, "5000 generated cases parse with no error (%zu did not)", bad);
	ok(wrong_len == 0, "each has as many operations as asked");
	ok(too_many_terms == 0, "and no more terminals than asked");
	for (size_t w = 0; w < NS_ARRAY_SIZE(want); w++)
		if (!seen[w] && missing++ < 5)
			printf("# never generated: '%s'\n", want[w]);
	ok(missing == 0, "every command and option of the vocabulary occurs (%zu never did)", missing);
}

/* Does c hold, from operation i on, the structure gen.c's add_stack()
 * builds: a bind onto P, a mount on P/N, a mount on P2/N (another
 * terminal's or the same terminal's copy, made private or a slave first
 * or not) and an unmount of P? Returns how many operations it took.
 * *busy: P2/N was used instead (cd, or a file held) before a plain
 * umount. */
static size_t stack_at(const struct ns_fuzz_case *c, size_t i, bool *busy)
{
	char p[64], n[64], q[64], u[64];
	size_t j = i + 2;

	*busy = false;
	if (i + 4 > c->n || sscanf(c->ops[i].cmd, "mount --bind %*s %63s", p) != 1 ||
	    sscanf(c->ops[i + 1].cmd, "mount /dev/d%*d %63s", n) != 1 ||
	    strncmp(n, p, strlen(p)) || n[strlen(p)] != '/')
		return 0;
	if (sscanf(c->ops[j].cmd, "cd %63s", q) == 1 ||
	    (sscanf(c->ops[j].cmd, "touch %63s", q) == 1 && j + 1 < c->n &&
	     !strncmp(c->ops[++j].cmd, "exec 3< ", 8))) {
		*busy = j + 1 < c->n && sscanf(c->ops[j + 1].cmd, "umount %63s", u) == 1 &&
			!strcmp(u, p);
		return 0;
	}
	if (!strncmp(c->ops[j].cmd, "mount --make-", 13))
		j++;
	if (j + 1 >= c->n || sscanf(c->ops[j].cmd, "mount /dev/d%*d %63s", q) != 1 ||
	    strcmp(strrchr(q, '/'), strrchr(n, '/')))
		return 0;
	if (sscanf(c->ops[j + 1].cmd, "umount -l %63s", u) != 1 &&
	    sscanf(c->ops[j + 1].cmd, "umount %63s", u) != 1)
		return 0;
	return strcmp(u, p) ? 0 : j + 2 - i;
}

TEST(stack_unit)
{
	struct ns_fuzz_gen_opts o = { 10, 3, all_features() };
	size_t cases = 0, other_term = 0, isolated = 0, slaves = 0, busy = 0;

	for (uint64_t i = 0; i < 5000; i++) {
		struct ns_fuzz_case c;
		bool found = false;

		ns_fuzz_generate(20261203, i, &o, &c);
		for (size_t k = 0; k < c.n && !found; k++) {
			bool b;
			size_t len = stack_at(&c, k, &b);
			busy += b;
			if (!len)
				continue;
			found = true;
			other_term += c.ops[k + len - 2].term != c.ops[k].term;
			isolated += len == 5;
			slaves += k > 0 && strstr(c.ops[k - 1].cmd, "--propagation slave") != NULL;
		}
		cases += found;
		ns_fuzz_case_free(&c);
	}
	printf("# %zu of 5000 cases: %zu stacked from another terminal, %zu after a slave copy, "
	       "%zu with the copy made private or a slave; %zu with the copy in use instead\n",
	       cases, other_term, slaves, isolated, busy);
	ok(cases >= 100, "the stack of propagate_umount.txt is built in 100 or more of 5000 cases");
	ok(other_term > 0 && other_term < cases, "from another terminal's namespace and from a bind");
	ok(slaves > 0 && isolated > 0, "on a slave copy, and on a copy made private or a slave");
	ok(busy >= 50, "the copy in use before a plain umount instead, in 50 or more");
}

TEST(no_features)
{
	struct ns_fuzz_gen_opts o = { 30, 2, 0 };
	bool newapi = false;

	for (uint64_t i = 0; i < 300; i++) {
		char *t = text_of(1, i, &o);
		newapi |= strstr(t, "open_tree") || strstr(t, "move_mount") || strstr(t, "mount_setattr") ||
			  strstr(t, "fsopen") || strstr(t, "fspick") || strstr(t, "statmount") ||
			  strstr(t, "listmount") || strstr(t, "--idmap");
		free(t);
	}
	ok(!newapi, "no new mount API where a side lacks it");
}

TEST(rewrites)
{
	struct ns_fuzz_case c = { NULL, 0, 0 }, r;
	struct ns_buf b = NS_BUF_INIT;

	ns_fuzz_case_add(&c, 3, "mount --bind /b/x /c");
	ns_fuzz_case_add(&c, 2, "mount /dev/d3 /b");
	ns_fuzz_case_add(&c, 3, "cat /proc/self/mountinfo");
	ok(ns_fuzz_case_rename(&r, &c, "b", "a"), "a rename that changes something says so");
	is_str(r.ops[0].cmd, "mount --bind /a/x /c", "a directory renamed in a path");
	is_str(r.ops[1].cmd, "mount /dev/d3 /a", "and in another");
	ns_fuzz_case_free(&r);
	ok(!ns_fuzz_case_rename(&r, &c, "q", "a"), "a rename that changes nothing says so");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_normalize(&r, &c);
	ns_fuzz_case_text(&r, "t", &b);
	is_str(ns_buf_str(&b),
	       "title: t\n\n"
	       "    sh1# mount --bind /a/x /b\n"
	       "    sh1# cat /proc/self/mountinfo\n"
	       "    sh2# mount /dev/d1 /a\n"
	       "    sh1# cat /proc/self/mountinfo\n"
	       "    sh2# cat /proc/self/mountinfo\n"
	       "    sh1# cat /proc/self/mountinfo\n",
	       "the normal form: names by first appearance; after each operation that may "
	       "change a table, a round observing every running terminal");
	ns_fuzz_case_free(&r);
	ns_buf_free(&b);
	ns_fuzz_case_free(&c);
	ns_fuzz_case_add(&c, 1, "mkdir -p /a/x /b/x /c/x");
	ns_fuzz_case_rename(&r, &c, "b", "a");
	is_str(r.ops[0].cmd, "mkdir -p /a/x /c/x", "a merge leaves each mkdir operand once");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_free(&c);
	ns_fuzz_case_add(&c, 3, "mount --bind /b/x /c");
	ns_fuzz_case_add(&c, 2, "mount /dev/d3 /b");
	ns_fuzz_case_add(&c, 3, "cat /proc/self/mountinfo");
	ns_fuzz_case_drop_term(&r, &c, 3);
	ok(r.n == 1 && r.ops[0].term == 2, "a terminal dropped");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_drop(&r, &c, 0, 2);
	ok(r.n == 1 && !strcmp(r.ops[0].cmd, "cat /proc/self/mountinfo"), "a chunk dropped");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_free(&c);
}
