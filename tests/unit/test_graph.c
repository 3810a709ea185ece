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
