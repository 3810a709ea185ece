/* reporter.h - the report formats of a run (human, TAP, JUnit, JSON).
 *
 * The runner hands each scenario's result to the reporter in the order of
 * the scenario list, whatever order they finished in (with -j), so every
 * format reads the same for any -j. */
#ifndef NS_REPORTER_H
#define NS_REPORTER_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "base/util.h"
#include "run/backend.h"
#include "run/result.h"
#include "run/verdict.h"

struct ns_drawing;

struct ns_tally {
	unsigned passed, failed, skipped, xfailed, xpassed;
};

/* What each format keeps between its calls. begin sets its own part. */
struct ns_report_state {
	struct ns_human_state {    /* the progress line "[n/N] FILE" */
		bool shown;        /* on the screen now, the cursor at its end */
		bool any;          /* drawn at least once */
		size_t index;      /* the scenario it names */
		const char *path;
	} human;
	struct ns_tap_state {
		size_t reported;   /* test lines written */
	} tap;
	struct ns_junit_state {
		struct ns_buf cases; /* the <testcase> elements so far */
		struct timespec start;
		char timestamp[32];
	} junit;
	struct ns_json_state {
		size_t written;    /* scenario objects written */
	} json;
	struct ns_html_state {
		struct ns_buf rows;     /* the summary table's rows */
		struct ns_buf sections; /* a <section> per failing scenario */
	} html;
};

/* A scenario a stopped run has no result for. */
struct ns_not_run {
	const struct ns_scenario *sc;
	bool running;              /* it was running, and was stopped */
};

struct ns_report_ctx {
	FILE *out;
	size_t total;              /* scenarios in the run */
	bool verbose;              /* human: the whole transcript */
	bool color;                /* human: ANSI colour */
	bool progress;             /* human: "[n/N] name" while running */
	const char *kernel;        /* uname -r */
	const char *devices;       /* the run's --devices */
	const char *backend;       /* what ran the scenarios: "kernel" */
	const char *shard;         /* "K/N" of --shard, or NULL: the whole run */
	bool rootless;             /* sandboxes in a user namespace of their own */
	const char *hostname;
	const char *version;       /* nstest's version, or NULL */
	/* Set before end when a signal stopped the run: its name
	 * ("SIGINT"), and the scenarios without a result, in list order.
	 * NULL: the run ended by itself (or -x cut it short). */
	const char *interrupted;
	const struct ns_not_run *not_run;
	size_t nnot_run;
	struct ns_report_state state; /* the reporter's own */
	/* html: a failing scenario drawn (report/picture.h: a second run,
	 * its output and its graphs), heap, freed with ns_drawing_free(); NULL
	 * for none. May itself be NULL. */
	struct ns_drawing *(*pictures)(void *arg, const struct ns_scenario *sc);
	void *pictures_arg;
};

struct ns_reporter {
	const char *name;
	/* Called first; sets up c->state for the others. */
	void (*begin)(struct ns_report_ctx *c);
	/* A scenario is starting (index is 0-based); may be NULL. */
	void (*started)(struct ns_report_ctx *c, size_t index,
			const struct ns_scenario *sc);
	void (*scenario)(struct ns_report_ctx *c, size_t index,
			 const struct ns_result *r);
	/* Called last; frees what begin set up. */
	void (*end)(struct ns_report_ctx *c, const struct ns_tally *t);
};

extern const struct ns_reporter ns_reporter_human;
extern const struct ns_reporter ns_reporter_tap;
extern const struct ns_reporter ns_reporter_ktap;
extern const struct ns_reporter ns_reporter_junit;
extern const struct ns_reporter ns_reporter_json;
extern const struct ns_reporter ns_reporter_html;

/* The reporter called name, or NULL. */
const struct ns_reporter *ns_reporter_find(const char *name);
/* Append the name of every format, ", " between them. */
void ns_reporter_names(struct ns_buf *out);

void ns_tally_add(struct ns_tally *t, enum ns_status s);
/* "N passed, N failed, N skipped" alone on its line (", N xfailed, N
 * xpassed" after it when either is non-zero). */
void ns_tally_print(FILE *f, const struct ns_tally *t);

#endif
