/* progress.h - how far a long piece of work has come, on stderr.
 *
 * On a terminal: one live line, redrawn in place, "[k/N] 0:12 elapsed,
 * ~0:40 left  WHAT". Off a terminal (a CI log, a file): a plain line
 * "nstest PHASE: k of N ..., 12 s elapsed, about 40 s left (WHAT)" at most
 * every interval, and at least every interval while the caller ticks: 10
 * seconds, or NSTEST_PROGRESS_INTERVAL seconds (0: a line at every
 * change; nstest(1), ENVIRONMENT). Nothing is ever written to stdout. */
#ifndef NS_PROGRESS_H
#define NS_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define PROGRESS_INTERVAL_DEFAULT 10.0

struct progress {
	bool on;              /* anything to show at all */
	bool tty;             /* stderr is a terminal: the live line */
	bool shown;           /* the live line is on the screen */
	const char *phase;    /* "run", "fuzz" */
	const char *unit;     /* "scenarios" */
	double interval;      /* off a terminal: seconds between lines */
	struct timespec start, last;
	bool any_line;        /* a plain line was printed */
	bool updated;         /* progress_update was called */
	size_t done, total;   /* total 0: unknown */
	double limit_s;       /* > 0: the work ends after this many seconds */
	const char *what;     /* what runs now, or NULL */
	char extra[96];       /* said after k of N ("1 failed") */
};

/* Seconds between plain lines: NSTEST_PROGRESS_INTERVAL when it is a
 * number of seconds (0 to 3600), else the default. */
double progress_interval(void);
/* on: whether to show progress at all (the caller knows whether the
 * report is the progress already); tty: whether stderr is a terminal. */
void progress_init(struct progress *p, bool on, bool tty, const char *phase,
		   const char *unit, size_t total);
/* The state now; the live line is redrawn, a plain line printed when the
 * interval has passed since the last one. */
void progress_update(struct progress *p, size_t done, const char *what);
/* Time passed and nothing else changed. */
void progress_tick(struct progress *p);
/* Take the live line off the screen before the report prints. */
void progress_clear(struct progress *p);
/* Seconds since progress_init. */
double progress_elapsed(const struct progress *p);

#endif
