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

/* What a mount did since the moment before (ns_graph_diff). */
enum ns_graph_change {
	NS_GRAPH_SAME,
	NS_GRAPH_NEW,             /* no mount had its ID the moment before */
	NS_GRAPH_CHANGED,         /* its propagation, place or parent changed */
};

struct ns_graph_mount {
	unsigned id, parent;
	char *target, *source, *fstype;
	char *root;               /* its root within the filesystem (mountinfo field 4) */
	unsigned shared;          /* peer group, 0: none */
	unsigned master;          /* master group, 0: not a slave */
	bool unbindable;
	size_t ns;                /* index into namespaces */
	char *cause;              /* the model's cause when the last step made it */
	enum ns_graph_change change;
	char *was;                /* NS_GRAPH_CHANGED: what it was ("private") */
	size_t fold;              /* ns_graph_fold: index+1 of the fold it is drawn in, 0: itself */
};

/* Copies of a subtree folded into one node (ns_graph_fold): they hang
 * from the same drawn mount and have the shape of a subtree drawn in
 * full (the same places below them, sources, roots and propagation). */
struct ns_graph_fold {
	size_t ns;
	unsigned parent;          /* the drawn mount they hang from */
	unsigned like;            /* the top of the subtree drawn in full */
	unsigned first, last;     /* the tops of the first and the last copy */
	size_t count, mounts;     /* copies, and the mounts in each */
};

struct ns_graph_ns {
	struct ns_lines terms;    /* the terminals in it */
	/* ns_graph_fold: index+1 of an earlier namespace with the same
	 * mounts (places, sources, roots, propagation), drawn as a summary;
	 * twin_peers when each mount is a peer of the one at its place there */
	size_t twin;
	bool twin_peers;
};

/* A mount the last step removed (the model's causes, or a mount of the
 * moment before that no table holds now), no longer in any table. */
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
	struct ns_graph_fold *folds;
	size_t nfolds;
};

/* Build g from each terminal's mountinfo text. 0, or -1 with err. */
int ns_graph_build(struct ns_graph *g, char *const *terms, char *const *tables, size_t n,
		   struct ns_buf *err);
/* Mark what the model says the last step made ("mount N on ...: why") or
 * removed ("mount N on ... goes: why"); other lines are ignored. */
void ns_graph_causes(struct ns_graph *g, const char *causes);
/* Mark what changed since prev, the same run's moment before: mounts new,
 * changed (propagation, mount point or parent) and gone. Mount IDs name
 * one mount while it lives, so this needs no model. */
void ns_graph_diff(struct ns_graph *g, const struct ns_graph *prev);
/* A graph of more than `over` mounts drawn readable: a namespace with the
 * same mounts as an earlier one becomes a summary, and a subtree of two
 * or more mounts shaped like one drawn already becomes a fold with a
 * count (graph_fold.c). Fewer mounts: nothing changes. */
void ns_graph_fold(struct ns_graph *g, size_t over);
/* Is anything of g folded? */
bool ns_graph_folded(const struct ns_graph *g);

/* "shared:1", "slave of 2 (master:2)", "private", "unbindable" (into b). */
void ns_graph_state(struct ns_buf *b, const struct ns_graph_mount *m);
void ns_graph_free(struct ns_graph *g);

/* The graph as a DOT digraph: clusters "cluster_nsK" side by side,
 * nodes "mID", tree edges (class "tree"), undirected peer edges (class
 * "peer"), master->slave arrows (class "slave"), and with legend a node
 * "legend" that says what each line, colour and outline means (a page
 * says it once, above its pictures). title may be NULL. */
void ns_graph_dot(const struct ns_graph *g, const char *title, bool legend, struct ns_buf *out);

#endif
