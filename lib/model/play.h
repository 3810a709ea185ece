/* play.h - playing a scenario on the model, step by step: the engine of
 * the model backend (backend_model.c), whose explain() also hands out the
 * causes the model records (`nstest show`, `graph`). */
#ifndef NS_MODEL_PLAY_H
#define NS_MODEL_PLAY_H

#include "model/model.h"
#include "run/result.h"
#include "scenario/scenario.h"

struct m_play;

/* Start playing sc with these quirks (1 << enum m_quirk); with trace,
 * causes are kept for m_play_causes(). */
struct m_play *m_play_new(const struct ns_scenario *sc, unsigned quirks,
			  enum m_break broken, bool trace);
/* Leave out what only the judge reads (struct ns_run_opts, no_alive):
 * each step's alive numbers, and whether a lone `cat
 * /proc/self/mountinfo` showed the whole table (view.complete stays 0:
 * such a step is played without the shared pipeline). */
void m_play_no_alive(struct m_play *p);
/* Render every table a step prints anew: without it, a lone `cat
 * /proc/self/mountinfo` right after another one that saw the same
 * namespace from the same root, no other step between, prints that one's
 * text again, and a table made of the same entries as one of the last
 * few printed takes its text (m_render_text); the reference
 * tests/unit/test_fuzz_fast.c holds both to. */
void m_play_fresh_tables(struct m_play *p);
/* Carry out step i (steps in order) into *out (ns_step_out owns output). */
void m_play_step(struct m_play *p, size_t i, struct ns_step_out *out);
/* Why the mounts the last step made or removed are there or gone, a line
 * each (trace only): appended to out. */
void m_play_causes(struct m_play *p, struct ns_buf *out);
void m_play_free(struct m_play *p);

#endif
