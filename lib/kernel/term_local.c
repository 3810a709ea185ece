/* term_local.c - see term_local.h.
 *
 * The sandbox process plays every terminal. A terminal that is not running
 * a step is a saved place (place.h): fds of its mount namespace, root and
 * working directory. Moving to another terminal is going to its place: a
 * few microseconds, where a fork per terminal and per shell level cost a
 * few hundred.
 *
 * Nothing observable changes. A namespace lives while something holds it:
 * here the fd of a saved place, in the process model the process sitting
 * in it. A mount is busy while a saved root or directory is on it, as it
 * is while a process has it as root or directory. When an inner shell
 * ends, its saved place is left and closed before `exit` is answered, so
 * its namespace is gone by the next step, as when its process ends. */
#include "kernel/term_local.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "commands/command.h"
#include "kernel/lend.h"

struct ns_local_term {
	const char *name;
	struct ns_term t;
	struct ns_place place;      /* saved while another terminal runs */
};

int ns_local_push(struct ns_term *t, struct ns_cmd_result *res)
{
	struct ns_level *lv;
	const char *what;
	void *v = t->outer;

	ns_grow(&v, &t->outer_cap, t->depth + 1, sizeof(*t->outer));
	t->outer = v;
	lv = &t->outer[t->depth];
	if (ns_place_save(t->procfd, &lv->place, &what) < 0)
		return ns_cmd_fail(res, "open", errno);
	/* the inner shell inherits the handles, as a child inherits fds */
	if (ns_handles_dup(&t->handles, &lv->handles) < 0) {
		int e = errno;
		ns_place_close(&lv->place);
		return ns_cmd_fail(res, "dup", e);
	}
	/* but not the outer shell's own: its watch stays with it */
	ns_handles_move_own(&t->handles, &lv->handles);
	t->depth++;
	return 1;
}

/* The inner shell ended: back to the level it was started from. */
static int pop(struct ns_term *t, struct ns_buf *err)
{
	struct ns_level *lv = &t->outer[--t->depth];
	const char *what;
	int r, e;

	ns_handles_close(&t->handles);
	t->handles = lv->handles;
	t->closing = false;
	r = ns_place_enter(&lv->place, &what);
	e = errno;
	if (r < 0)
		ns_buf_addf(err, "cannot return to the outer shell: %s: %s", what, strerror(e));
	ns_place_close(&lv->place);
	errno = e; /* for the caller's abort frame (run/trouble.h) */
	return r;
}

int ns_local_init(struct ns_local *l, const struct ns_scenario *sc,
		  const struct ns_sandbox *sb, struct ns_buf *err)
{
	const char *what;

	memset(l, 0, sizeof(*l));
	l->sc = sc;
	l->procfd = sb->procfd;
	l->devs = sb->devs;
	l->alive = sb->alive;
	l->active = SIZE_MAX;
	if (ns_place_save(l->procfd, &l->home, &what) < 0) {
		ns_buf_addf(err, "%s: %s", what, strerror(errno));
		return -1;
	}
	return 0;
}

static size_t find_or_add(struct ns_local *l, const char *name)
{
	void *v = l->v;

	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return i;
	ns_grow(&v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v = v;
	/* a new terminal starts where the sandbox started: it is at home,
	 * which its saved place (none) says */
	l->v[l->n] = (struct ns_local_term){
		.name = name,
		.t = { .sc = l->sc, .procfd = l->procfd, .devs = l->devs, .alive = l->alive,
		       .in_process = true, .local = l, .sock = -1, .reply_fd = -1 },
		.place = NS_PLACE_NONE,
	};
	return l->n++;
}

/* Leave the active terminal (saving its place) and take up terminal i. */
static int switch_to(struct ns_local *l, size_t i, struct ns_buf *err)
{
	struct ns_local_term *lt = &l->v[i];
	const char *what;
	int e;

	if (l->active == i)
		return 0;
	if (l->active != SIZE_MAX &&
	    ns_place_save(l->procfd, &l->v[l->active].place, &what) < 0)
		goto fail;
	if (lt->place.ns >= 0) {
		if (ns_place_enter(&lt->place, &what) < 0)
			goto fail;
		ns_place_close(&lt->place);
	} else if (l->active != SIZE_MAX && ns_place_enter(&l->home, &what) < 0) {
		goto fail;
	}
	l->active = i;
	return 0;
fail:
	e = errno;
	ns_buf_addf(err, "cannot switch to terminal '%s': %s: %s",
		    lt->name[0] ? lt->name : "#", what, strerror(e));
	errno = e; /* for the caller's abort frame (run/trouble.h) */
	return -1;
}

/* A terminal ends: close its saved levels, handles and place, and take it
 * off the list (the last one moves into its slot). */
static void close_terminal(struct ns_local *l, size_t i)
{
	struct ns_local_term *lt = &l->v[i];

	while (lt->t.depth) {
		struct ns_level *lv = &lt->t.outer[--lt->t.depth];
		ns_place_close(&lv->place);
		ns_handles_close(&lv->handles);
	}
	ns_handles_close(&lt->t.handles);
	free(lt->t.outer);
	ns_place_close(&lt->place);
	*lt = l->v[--l->n];
}

/* The handles of other terminals the step names (TERM:@NAME), lent to
 * t for the step: a duplicate of the owner's fd, all of them in this
 * one process (kernel/lend.h). */
static void lend(struct ns_local *l, const struct ns_step *st, struct ns_term *t)
{
	struct ns_lines refs = NS_LINES_INIT;

	ns_lend_refs(st, &refs);
	for (size_t i = 0; i < refs.n; i++) {
		struct ns_handle_ref r;
		struct ns_handle *h = NULL;
		size_t k = 0;
		int fd = -1, err;

		ns_handle_ref(refs.v[i], &r);
		while (k < l->n && (strlen(l->v[k].name) != r.term_len ||
				    strncmp(l->v[k].name, r.term, r.term_len)))
			k++;
		if (k < l->n)
			h = ns_handles_find(&l->v[k].t.handles, r.name, r.name_len);
		err = k == l->n ? ESRCH : !h || h->lent ? EBADF : 0;
		if (!err) {
			fd = fcntl(h->fd, F_DUPFD_CLOEXEC, 0);
			err = fd < 0 ? errno : 0;
		}
		ns_lend_add(&t->handles, refs.v[i], fd, err);
	}
	ns_lines_free(&refs);
}

int ns_local_step(struct ns_local *l, uint32_t i, struct ns_step_out *out,
		  struct ns_buf *err)
{
	size_t k = find_or_add(l, l->sc->steps[i].terminal);
	struct ns_term *t = &l->v[k].t;
	const char *what;

	memset(out, 0, sizeof(*out));
	if (switch_to(l, k, err) < 0)
		return -1;
	lend(l, &l->sc->steps[i], t);
	ns_term_run_step(t, &l->sc->steps[i], out);
	ns_lend_drop(&t->handles);
	if (!t->closing)
		return 0;
	if (t->depth)
		return pop(t, err);
	/* the terminal's first shell ended: the process goes home, so that
	 * nothing of the terminal holds its namespace any more */
	close_terminal(l, k);
	l->active = SIZE_MAX;
	if (ns_place_enter(&l->home, &what) < 0) {
		int e = errno;
		ns_buf_addf(err, "cannot leave a closed terminal: %s: %s", what, strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

int ns_local_peer(struct ns_local *l, const char *name, struct ns_peer *p,
		  struct ns_cmd_result *res)
{
	const struct ns_place *from = NULL;
	struct ns_place here = NS_PLACE_NONE;
	const char *what;
	size_t k = 0;

	*p = (struct ns_peer){ -1, -1, -1, -1 };
	while (k < l->n && strcmp(l->v[k].name, name))
		k++;
	if (k == l->n)
		return ns_cmd_fail(res, "open", ENOENT);
	if (k == l->active) {
		/* the terminal that asks: where this process is */
		if (ns_place_save(l->procfd, &here, &what) < 0)
			return ns_cmd_fail(res, "open", errno);
		from = &here;
	} else {
		from = l->v[k].place.ns >= 0 ? &l->v[k].place : &l->home;
	}
	/* every terminal here is in the sandbox's user namespace */
	p->user = openat(l->procfd, "thread-self/ns/user", O_RDONLY | O_CLOEXEC);
	p->mnt = fcntl(from->ns, F_DUPFD_CLOEXEC, 0);
	p->root = fcntl(from->root, F_DUPFD_CLOEXEC, 0);
	p->cwd = fcntl(from->cwd, F_DUPFD_CLOEXEC, 0);
	ns_place_close(&here);
	if (p->user < 0 || p->mnt < 0 || p->root < 0 || p->cwd < 0) {
		int e = errno;
		ns_peer_close(p);
		return ns_cmd_fail(res, "open", e);
	}
	return 0;
}

void ns_local_free(struct ns_local *l)
{
	while (l->n)
		close_terminal(l, l->n - 1);
	free(l->v);
	ns_place_close(&l->home);
}
