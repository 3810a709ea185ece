/* term_local.h - terminals played by the sandbox process itself, without a
 * process per terminal or per shell level (see term_local.c). */
#ifndef NS_TERM_LOCAL_H
#define NS_TERM_LOCAL_H

#include <stdint.h>

#include "kernel/place.h"
#include "kernel/sandbox.h"
#include "kernel/terminal.h"
#include "base/util.h"

/* A shell level to go back to on `exit`. */
struct ns_level {
	struct ns_place place;
	struct ns_handles handles;
};

/* Every terminal of one sandbox. */
struct ns_local {
	const struct ns_scenario *sc;
	int procfd;
	struct ns_devices *devs;
	bool alive;                 /* struct ns_term's */
	struct ns_place home;       /* the sandbox's first namespace, at / */
	struct ns_local_term *v;
	size_t n, cap;
	size_t active;              /* index into v, or SIZE_MAX: at home */
};

/* Called in the sandbox process once the sandbox is built: this place is
 * where new terminals start. Returns 0, or -1 with a message in err. */
int ns_local_init(struct ns_local *l, const struct ns_scenario *sc,
		  const struct ns_sandbox *sb, struct ns_buf *err);

/* Run step i in its terminal, starting the terminal if it is new. Returns
 * 0 with *out filled, or -1 with a message in err when the process could
 * not move between terminals (the run cannot go on). */
int ns_local_step(struct ns_local *l, uint32_t i, struct ns_step_out *out,
		  struct ns_buf *err);

void ns_local_free(struct ns_local *l);

/* For ns_term_enter_shell: save where t is now as the level `exit` goes
 * back to. Returns 1 (the caller is now the inner shell) or -1. */
int ns_local_push(struct ns_term *t, struct ns_cmd_result *res);

/* For ns_term_peer_open: the place of terminal name, opened anew. */
int ns_local_peer(struct ns_local *l, const char *name, struct ns_peer *p,
		  struct ns_cmd_result *res);

#endif
