/* progress.c - see progress.h. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

double progress_interval(void)
{
	const char *v = getenv("NSTEST_PROGRESS_INTERVAL");
	char *end;
	double d;

	if (!v || !*v)
		return PROGRESS_INTERVAL_DEFAULT;
	d = strtod(v, &end);
	if (*end || d < 0 || d > 3600)
		return PROGRESS_INTERVAL_DEFAULT;
	return d;
}

void progress_init(struct progress *p, bool on, bool tty, const char *phase,
		   const char *unit, size_t total)
{
	memset(p, 0, sizeof(*p));
	p->on = on;
	p->tty = tty;
	p->phase = phase;
	p->unit = unit;
	p->total = total;
	p->interval = progress_interval();
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
}

double progress_elapsed(const struct progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return since(&p->start, &now);
}

/* "1:05" on a terminal, "65 s" in a log. */
static void duration(char *buf, size_t n, double s, bool clock_form)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (clock_form)
		snprintf(buf, n, "%lu:%02lu", t / 60, t % 60);
	else if (t >= 60)
		snprintf(buf, n, "%lu min %lu s", t / 60, t % 60);
	else
		snprintf(buf, n, "%lu s", t);
}

/* Seconds left, or -1 when there is nothing to tell from yet. */
static double remaining(const struct progress *p, double elapsed)
{
	if (p->limit_s > 0)
		return p->limit_s > elapsed ? p->limit_s - elapsed : 0;
	if (!p->total || !p->done || p->done >= p->total)
		return -1;
	return elapsed / (double)p->done * (double)(p->total - (p->done < p->total ? p->done : p->total));
}

static size_t term_columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) < 0)
		return 0;
	return ws.ws_col;
}

static void draw(struct progress *p, double elapsed)
{
	char line[512], el[32], left[32] = "";
	double r = remaining(p, elapsed);
	size_t cols = term_columns(), len;
	int n;

	duration(el, sizeof(el), elapsed, true);
	if (r >= 0) {
		char t[24];

		duration(t, sizeof(t), r, true);
		snprintf(left, sizeof(left), ", ~%s left", t);
	}
	if (p->total)
		n = snprintf(line, sizeof(line), "[%zu/%zu] %s elapsed%s%s%s%s%s",
			     p->what && p->done < p->total ? p->done + 1 : p->done, p->total, el, left, *p->extra ? ", " : "", p->extra, p->what ? "  " : "",
			     p->what ? p->what : "");
	else
		n = snprintf(line, sizeof(line), "%s: %zu %s, %s elapsed%s%s%s", p->phase, p->done,
			     p->unit, el, left, *p->extra ? ", " : "", p->extra);
	len = n < 0 ? 0 : (size_t)n >= sizeof(line) ? sizeof(line) - 1 : (size_t)n;
	/* never wider than the terminal: a wrapped line could not be erased */
	if (cols && len >= cols)
		len = cols - 1;
	fprintf(stderr, "\r\033[K%.*s", (int)len, line);
	fflush(stderr);
	p->shown = true;
}

static void plain(struct progress *p, double elapsed)
{
	char el[32], left[48] = "", t[32];
	double r = remaining(p, elapsed);

	duration(el, sizeof(el), elapsed, false);
	if (r >= 0) {
		duration(t, sizeof(t), r, false);
		snprintf(left, sizeof(left), ", about %s left", t);
	}
	if (p->total)
		fprintf(stderr, "nstest %s: %zu of %zu %s done%s%s, %s elapsed%s%s%s%s\n", p->phase,
			p->done, p->total, p->unit, *p->extra ? ", " : "", p->extra, el, left,
			p->what ? " (running " : "", p->what ? p->what : "", p->what ? ")" : "");
	else
		fprintf(stderr, "nstest %s: %zu %s%s%s, %s elapsed%s\n", p->phase, p->done, p->unit,
			*p->extra ? ", " : "", p->extra, el, left);
	fflush(stderr);
	p->any_line = true;
}

static void show(struct progress *p, bool changed)
{
	struct timespec now;
	double dt;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	dt = since(&p->last, &now);
	if (p->tty) {
		/* redrawn at a change, and once a second for the clock */
		if (!changed && dt < 1.0 && p->shown)
			return;
		p->last = now;
		draw(p, since(&p->start, &now));
		return;
	}
	/* interval 0: a line at every change, not at every tick */
	if (p->interval <= 0 ? !changed : dt < p->interval)
		return;
	p->last = now;
	plain(p, since(&p->start, &now));
}

void progress_update(struct progress *p, size_t done, const char *what)
{
	bool changed = done != p->done || what != p->what || !p->updated;

	p->done = done;
	p->what = what;
	p->updated = true;
	show(p, changed);
}

void progress_tick(struct progress *p)
{
	show(p, false);
}

void progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}
