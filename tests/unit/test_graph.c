/* test_graph.c - the propagation graph from terminals' tables
 * (report/graph.h): namespaces by shared mount IDs, propagation states
 * from the optional fields, causes, and the DOT's edges. */
#include <string.h>

#include "base/util.h"
#include "report/graph.h"
#include "tap.h"

/* Two namespaces, as after `unshare -m --propagation unchanged` and
 * `--make-slave /b` in the second: sh1 and sh3 share the first (sh3 in a
 * chroot at /a sees only its part), sh2 has the copy. */
static char sh1[] =
	"20 1 0:40 / / rw - tmpfs /dev/sda1 rw\n"
	"21 20 0:41 / /a rw shared:1 - tmpfs /dev/sdb1 rw\n"
	"22 20 0:42 / /b rw shared:2 - tmpfs /dev/sdb2 rw\n"
	"23 20 0:43 / /u rw unbindable - tmpfs /dev/sdb3 rw\n";
static char sh3[] =
	"21 20 0:41 / / rw shared:1 - tmpfs /dev/sdb1 rw\n";
static char sh2[] =
	"30 1 0:40 / / rw - tmpfs /dev/sda1 rw\n"
	"31 30 0:41 / /a rw shared:1 - tmpfs /dev/sdb1 rw\n"
	"32 30 0:42 / /b rw master:2 - tmpfs /dev/sdb2 rw\n"
	"33 32 0:44 / /b/c rw master:7 - tmpfs /dev/sdb4 rw\n";

static const struct ns_graph_mount *find(const struct ns_graph *g, unsigned id)
{
	for (size_t i = 0; i < g->nm; i++)
		if (g->m[i].id == id)
			return &g->m[i];
	return NULL;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

TEST(two_namespaces)
{
	char t3[] = "sh3", t2[] = "sh2", t1[] = "sh1";
	char *terms[] = { t3, t2, t1 };
	char *tables[] = { sh3, sh2, sh1 };
	struct ns_graph g;
	struct ns_buf err = NS_BUF_INIT, dot = NS_BUF_INIT;
	const struct ns_graph_mount *m;

	ok(ns_graph_build(&g, terms, tables, 3, &err) == 0, "builds (%s)", ns_buf_str(&err));
	/* sh3 came first, alone; sh1's table shares mount 21 with it */
	ok(g.nns == 2, "two namespaces, got %zu", g.nns);
	ok(g.nm == 8, "eight mounts, each once, got %zu", g.nm);
	ok(g.ns[0].terms.n == 2 && !strcmp(g.ns[0].terms.v[0], "sh3") &&
	   !strcmp(g.ns[0].terms.v[1], "sh1"), "sh3 and sh1 in one namespace");
	ok(g.ns[1].terms.n == 1 && !strcmp(g.ns[1].terms.v[0], "sh2"), "sh2 in the other");
	m = find(&g, 22);
	ok(m && m->ns == 0 && m->shared == 2 && !m->master, "mount 22: shared:2, first namespace");
	m = find(&g, 32);
	ok(m && m->ns == 1 && !m->shared && m->master == 2, "mount 32: a slave of 2");
	m = find(&g, 23);
	ok(m && m->unbindable, "mount 23: unbindable");

	ns_graph_causes(&g, "mount 33 on /b/c (/dev/sdb4): propagated from mount 9's event\n"
			    "mount 40 on /x (/dev/sdb5) goes: umount propagation\n"
			    "namespace 3 ends\n");
	m = find(&g, 33);
	is_str(m && m->cause ? m->cause : "", "propagated from mount 9's event", "cause of mount 33");
	ok(g.ngone == 1 && g.gone[0].id == 40, "mount 40 is gone");

	ns_graph_dot(&g, "t", true, &dot);
	ok(count(ns_buf_str(&dot), "subgraph cluster_ns") == 2, "two clusters");
	ok(count(ns_buf_str(&dot), "class=\"peer\"") == 1, "one peer edge (/a with /a)");
	ok(strstr(ns_buf_str(&dot), "m21 -> m31 [class=\"peer\"") != NULL, "21 and 31 are peers");
	ok(strstr(ns_buf_str(&dot), "m22 -> m32 [class=\"slave\"") != NULL, "22's group is 32's master");
	/* group 7 has no member any terminal sees: a node of its own */
	ok(strstr(ns_buf_str(&dot), "g7 -> m33 [class=\"slave\"") != NULL, "group 7 drawn on its own");
	ok(strstr(ns_buf_str(&dot), "subgraph cluster_gone") != NULL, "the removed mount is listed");
	ok(strstr(ns_buf_str(&dot), "m20 -> m21 [class=\"tree\"]") != NULL, "tree edge 20 -> 21");
	ns_buf_free(&dot);
	ns_graph_free(&g);
	ns_buf_free(&err);
}

/* a table that does not parse is an error, not a crash */
TEST(bad_table)
{
	struct ns_graph g;
	struct ns_buf err = NS_BUF_INIT;
	char bad[] = "not a mountinfo line\n";
	char *bt[] = { bad };
	char none[] = "";
	char *bn[] = { none };

	ok(ns_graph_build(&g, bn, bt, 1, &err) < 0 && err.len, "bad table: %s", ns_buf_str(&err));
	ns_buf_free(&err);
}

/* Two moments of one run: /a made shared (changed), /b unmounted (gone),
 * /c bind-mounted from /a's filesystem's /x (new, root /x). */
TEST(diff_and_roots)
{
	char before[] =
		"20 1 0:40 / / rw - tmpfs /dev/sda1 rw\n"
		"21 20 0:41 / /a rw - tmpfs /dev/sdb1 rw\n"
		"22 20 0:42 / /b rw - tmpfs /dev/sdb2 rw\n";
	char after[] =
		"20 1 0:40 / / rw - tmpfs /dev/sda1 rw\n"
		"21 20 0:41 / /a rw shared:1 - tmpfs /dev/sdb1 rw\n"
		"24 20 0:41 /x /c rw shared:1 - tmpfs /dev/sdb1 rw\n";
	char t[] = "sh1";
	char *terms[] = { t };
	char *tb[] = { before }, *ta[] = { after };
	struct ns_graph g, p;
	struct ns_buf err = NS_BUF_INIT, dot = NS_BUF_INIT;
	const struct ns_graph_mount *m;

	ok(ns_graph_build(&p, terms, tb, 1, &err) == 0, "before builds");
	ok(ns_graph_build(&g, terms, ta, 1, &err) == 0, "after builds");
	ns_graph_diff(&g, &p);
	m = find(&g, 20);
	ok(m && m->change == NS_GRAPH_SAME, "/ did not change");
	m = find(&g, 21);
	ok(m && m->change == NS_GRAPH_CHANGED, "/a changed");
	is_str(m && m->was ? m->was : "", "private", "/a was private");
	m = find(&g, 24);
	ok(m && m->change == NS_GRAPH_NEW, "/c is new");
	is_str(m ? m->root : "", "/x", "/c's root is /x");
	ok(g.ngone == 1 && g.gone[0].id == 22, "/b is gone");
	is_str(g.ngone ? g.gone[0].what : "", "mount 22 on /b (/dev/sdb2) is gone", "gone says what");
	ns_graph_dot(&g, NULL, true, &dot);
	ok(strstr(ns_buf_str(&dot), "label=\"/c\\n/dev/sdb1[/x]\\n") != NULL, "/c drawn as SOURCE[/x]");
	ok(strstr(ns_buf_str(&dot), "label=\"/\\n/dev/sda1\\n") != NULL, "/ drawn with its source alone");
	ok(strstr(ns_buf_str(&dot), "changed, was: private") != NULL, "/a marked changed");
	ok(strstr(ns_buf_str(&dot), "legend [shape=plaintext") != NULL, "a legend");
	ns_buf_free(&dot);
	ns_graph_dot(&g, NULL, false, &dot);
	ok(!strstr(ns_buf_str(&dot), "legend"), "no legend when the page has one");
	ns_buf_free(&dot);
	ns_graph_free(&g);
	ns_graph_free(&p);
	ns_buf_free(&err);
}

/* Folding: a root with 20 copies of the same two-mount subtree under
 * /h/1 ... /h/20, and a second namespace with the same mounts, each a
 * peer of its twin. One copy is drawn in full, the other 19 are one
 * fold; the second namespace is a summary. */
TEST(fold)
{
	struct ns_buf a = NS_BUF_INIT, b = NS_BUF_INIT, dot = NS_BUF_INIT, err = NS_BUF_INIT;
	char t1[] = "sh1", t2[] = "sh2";
	char *terms[] = { t1, t2 };
	char *tables[2];
	struct ns_graph g;
	size_t drawn = 0;

	ns_buf_adds(&a, "100 1 0:40 / / rw shared:1 - tmpfs /dev/sda1 rw\n");
	ns_buf_adds(&b, "500 1 0:40 / / rw shared:1 - tmpfs /dev/sda1 rw\n");
	for (unsigned i = 1; i <= 20; i++) {
		ns_buf_addf(&a, "%u 100 0:41 / /h/%u rw shared:2 - tmpfs /dev/sdb1 rw\n", 100 + 2 * i, i);
		ns_buf_addf(&a, "%u %u 0:42 / /h/%u/x rw shared:3 - tmpfs /dev/sdb2 rw\n", 101 + 2 * i, 100 + 2 * i, i);
		ns_buf_addf(&b, "%u 500 0:41 / /h/%u rw shared:2 - tmpfs /dev/sdb1 rw\n", 500 + 2 * i, i);
		ns_buf_addf(&b, "%u %u 0:42 / /h/%u/x rw shared:3 - tmpfs /dev/sdb2 rw\n", 501 + 2 * i, 500 + 2 * i, i);
	}
	tables[0] = a.data;
	tables[1] = b.data;
	ok(ns_graph_build(&g, terms, tables, 2, &err) == 0, "builds");
	ok(g.nm == 82, "82 mounts, got %zu", g.nm);
	ns_graph_fold(&g, 100);
	ok(!ns_graph_folded(&g), "82 mounts: not folded over 100");
	ns_graph_fold(&g, 40);
	ok(ns_graph_folded(&g), "folded over 40");
	ok(g.ns[1].twin == 1 && g.ns[1].twin_peers, "sh2 is sh1's twin, peers");
	ok(g.nfolds == 1 && g.folds[0].count == 19 && g.folds[0].mounts == 2,
	   "one fold of 19 copies of 2 mounts");
	for (size_t i = 0; i < g.nm; i++)
		drawn += g.m[i].ns == 0 && !g.m[i].fold;
	ok(drawn == 3, "/, /h/1 and /h/1/x drawn, got %zu", drawn);
	ns_graph_dot(&g, NULL, true, &dot);
	ok(strstr(ns_buf_str(&dot), "\u2026\u00d719: 19 copies of the subtree at\\n/h/1") != NULL, "the fold says …×19");
	ok(strstr(ns_buf_str(&dot), "m100 -> f1 [class=\"tree\"]") != NULL, "the fold hangs from /");
	ok(strstr(ns_buf_str(&dot), "82 mounts") != NULL || strstr(ns_buf_str(&dot), "41 mounts, folded") != NULL,
	   "sh2 summarised");
	ok(count(ns_buf_str(&dot), "class=\"peer\"") <= 6, "peer edges between drawn nodes only, got %zu",
	   count(ns_buf_str(&dot), "class=\"peer\""));
	ns_buf_free(&dot);
	ns_graph_free(&g);
	ns_buf_free(&a);
	ns_buf_free(&b);
	ns_buf_free(&err);
}
