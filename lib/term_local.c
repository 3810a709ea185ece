/* term_local.c - see term_local.h.
 *
 * The sandbox process plays every terminal. A terminal that is not running
 * a step is a saved place: an fd of its mount namespace, one of its root
 * and one of its working directory. Moving to another terminal is
 * setns(2), then fchdir(2) + chroot(".") for its root and fchdir(2) for
 * its directory: a few microseconds, where a fork per terminal and per
 * shell level cost a few hundred.
 *
 * Nothing observable changes. A namespace lives while something holds it:
 * here the fd of a saved place, in the process model the process sitting
 * in it. A mount is busy while a saved root or directory is on it, as it
 * is while a process has it as root or directory. When an inner shell
 * ends, its saved place is left and closed before `exit` is answered, so
 * its namespace is gone by the next step, as when its process ends. */
#include "term_local.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "command.h"

struct ns_local_term {
	const char *name;
	struct ns_term t;
	struct ns_place place;      /* saved while another terminal runs */
};

static const struct ns_place no_place = { -1, -1, -1 };

static void place_close(struct ns_place *p)
{
	if (p->ns >= 0)
		close(p->ns);
	if (p->root >= 0)
		close(p->root);
	if (p->cwd >= 0)
		close(p->cwd);
	*p = no_place;
}

/* Returns 0, or -1 with errno set and *what naming the call. */
static int place_save(int procfd, struct ns_place *p, const char **what)
{
	*p = no_place;
	p->ns = openat(procfd, "thread-self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (p->ns < 0) {
		*what = "open ns/mnt";
		return -1;
	}
	p->root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	p->cwd = p->root < 0 ? -1 : open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->cwd < 0) {
		int e = errno;
		*what = "open the root or working directory";
		place_close(p);
		errno = e;
		return -1;
	}
	return 0;
}

/* setns(2) puts the caller at the namespace's root; the saved root and
 * directory come back after it. */
static int place_enter(const struct ns_place *p, const char **what)
{
	if (setns(p->ns, CLONE_NEWNS) < 0) {
		*what = "setns";
		return -1;
	}
	if (fchdir(p->root) < 0 || chroot(".") < 0) {
		*what = "chroot to the saved root";
		return -1;
	}
	if (fchdir(p->cwd) < 0) {
		*what = "fchdir to the saved working directory";
		return -1;
	}
	return 0;
}

static void close_handles(struct ns_handle *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(h[i].fd);
}

int ns_local_push(struct ns_term *t, struct ns_cmd_result *res)
{
	struct ns_level *lv;
	const char *what;
	void *v = t->outer;

	ns_grow(&v, &t->outer_cap, t->depth + 1, sizeof(*t->outer));
	t->outer = v;
	lv = &t->outer[t->depth];
	if (place_save(t->procfd, &lv->place, &what) < 0)
		return ns_cmd_fail(res, "open", errno);
	/* the inner shell inherits the handles, as a child inherits fds */
	memcpy(lv->handles, t->handles, sizeof(lv->handles));
	lv->nhandles = t->nhandles;
	for (size_t i = 0; i < t->nhandles; i++) {
		t->handles[i].fd = fcntl(lv->handles[i].fd, F_DUPFD_CLOEXEC, 0);
		if (t->handles[i].fd < 0) {
			int e = errno;
			close_handles(t->handles, i);
			memcpy(t->handles, lv->handles, sizeof(t->handles));
			place_close(&lv->place);
			return ns_cmd_fail(res, "dup", e);
		}
	}
	t->depth++;
	return 1;
}

/* The inner shell ended: back to the level it was started from. */
static int pop(struct ns_term *t, struct ns_buf *err)
{
	struct ns_level *lv = &t->outer[--t->depth];
	const char *what;
	int r;

	close_handles(t->handles, t->nhandles);
	memcpy(t->handles, lv->handles, sizeof(t->handles));
	t->nhandles = lv->nhandles;
	t->closing = false;
	r = place_enter(&lv->place, &what);
	if (r < 0)
		ns_buf_addf(err, "cannot return to the outer shell: %s: %s", what, strerror(errno));
	place_close(&lv->place);
	return r;
}

int ns_local_init(struct ns_local *l, const struct ns_scenario *sc, int procfd,
		  struct ns_devices *devs, struct ns_buf *err)
{
	const char *what;

	memset(l, 0, sizeof(*l));
	l->sc = sc;
	l->procfd = procfd;
	l->devs = devs;
	l->active = SIZE_MAX;
	if (place_save(procfd, &l->home, &what) < 0) {
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
		.t = { .sc = l->sc, .procfd = l->procfd, .devs = l->devs,
		       .in_process = true, .sock = -1, .reply_fd = -1 },
		.place = no_place,
	};
	return l->n++;
}

/* Leave the active terminal (saving its place) and take up terminal i. */
static int switch_to(struct ns_local *l, size_t i, struct ns_buf *err)
{
	struct ns_local_term *lt = &l->v[i];
	const char *what;

	if (l->active == i)
		return 0;
	if (l->active != SIZE_MAX &&
	    place_save(l->procfd, &l->v[l->active].place, &what) < 0)
		goto fail;
	if (lt->place.ns >= 0) {
		if (place_enter(&lt->place, &what) < 0)
			goto fail;
		place_close(&lt->place);
	} else if (l->active != SIZE_MAX && place_enter(&l->home, &what) < 0) {
		goto fail;
	}
	l->active = i;
	return 0;
fail:
	ns_buf_addf(err, "cannot switch to terminal '%s': %s: %s",
		    lt->name[0] ? lt->name : "#", what, strerror(errno));
	return -1;
}

static void forget(struct ns_local *l, size_t i)
{
	struct ns_local_term *lt = &l->v[i];

	while (lt->t.depth)
		place_close(&lt->t.outer[--lt->t.depth].place);
	close_handles(lt->t.handles, lt->t.nhandles);
	free(lt->t.outer);
	place_close(&lt->place);
	*lt = l->v[--l->n];
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
	ns_term_run_step(t, &l->sc->steps[i], out);
	if (!t->closing)
		return 0;
	if (t->depth)
		return pop(t, err);
	/* the terminal's first shell ended: the process goes home, so that
	 * nothing of the terminal holds its namespace any more */
	forget(l, k);
	l->active = SIZE_MAX;
	if (place_enter(&l->home, &what) < 0) {
		ns_buf_addf(err, "cannot leave a closed terminal: %s: %s", what, strerror(errno));
		return -1;
	}
	return 0;
}

void ns_local_free(struct ns_local *l)
{
	while (l->n)
		forget(l, l->n - 1);
	free(l->v);
	place_close(&l->home);
}
