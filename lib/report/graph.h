/* graph.h - the propagation graph of a moment of a scenario: its mount
 * namespaces, the mounts in each, their tree, peer groups and masters,
 * built from the mountinfo tables of its live terminals (run/observe.h),
 * and drawn as Graphviz DOT (graph_dot.c).
 *
 * Terminals share a namespace when their tables share a mount ID: a mount
 * ID names one mount in the whole system while it lives, and a mount is
 * in one namespace. A terminal in a chroot sees part of its namespace's
 * table; the namespace holds every mount any of its terminals sees.
 * Peer group and master numbers (shared:N, master:N) are global too, so
 * peers and masters across namespaces come from them. */
#ifndef NS_GRAPH_H
#define NS_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

struct ns_graph_mount {
	unsigned id, parent;
	char *target, *source, *fstype;
	unsigned shared;          /* peer group, 0: none */
	unsigned master;          /* master group, 0: not a slave */
	bool unbindable;
	size_t ns;                /* index into namespaces */
	char *cause;              /* the model's cause when the last step made it */
};

struct ns_graph_ns {
	struct ns_lines terms;    /* the terminals in it */
};

/* A mount the last step removed (the model's causes), no longer in any table. */
struct ns_graph_gone {
	unsigned id;
	char *what;               /* the model's line */
};

struct ns_graph {
	struct ns_graph_ns *ns;
	size_t nns;
	struct ns_graph_mount *m;
	size_t nm;
	struct ns_graph_gone *gone;
	size_t ngone;
};

/* Build g from each terminal's mountinfo text. 0, or -1 with err. */
int ns_graph_build(struct ns_graph *g, char *const *terms, char *const *tables, size_t n,
		   struct ns_buf *err);
/* Mark what the model says the last step made ("mount N on ...: why") or
 * removed ("mount N on ... goes: why"); other lines are ignored. */
void ns_graph_causes(struct ns_graph *g, const char *causes);
void ns_graph_free(struct ns_graph *g);

/* The graph as a DOT digraph: clusters "cluster_nsK" side by side,
 * nodes "mID", tree edges (class "tree"), undirected peer edges (class
 * "peer"), master->slave arrows (class "slave"). title may be NULL. */
void ns_graph_dot(const struct ns_graph *g, const char *title, struct ns_buf *out);

#endif
