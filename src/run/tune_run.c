// SPDX-License-Identifier: MIT
/*
 * tune_run.c: --threads auto in `fslab run` (src/engine/tune.h): the load run at one thread count
 * after another, each step fed a tick a second until it is judged, the load stopped and
 * started again at the next count between steps; then at the count chosen, which the warm-up
 * and the measurement run at.  Nothing here is measured; every step is recorded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "run/runP.h"
#include "engine/tune.h"
#include "lib/units.h"

/* The run's tuning rule: its tune_* settings and the verdict's limits (its threshold set). */
static void rule_of(const struct run_state *s, struct tune_rule *r)
{
	const struct run_config *c = &s->res.config;
	const struct js_thresholds *th = s->th ? s->th : js_thresholds_find("strict");

	tune_rule_default(r);
	r->window = c->tune_window;
	r->interval_s = (unsigned int)(c->tune_interval_s + 0.5);
	r->slope_pct = c->tune_slope_pct;
	r->judge_s = c->tune_judge_s;
	r->step_cap_s = c->tune_step_cap_s;
	r->cap_s = c->tune_cap_s;
	r->min_threads = c->threads; /* the fewest: cli.c started it there */
	r->max_threads = c->tune_max_threads;
	r->db_read_avg_ms = th->avg_ms[LS_DB_READ];
	r->log_write_avg_ms = th->avg_ms[LS_LOG_WRITE];
	r->db_read_max_ms = th->max_ms[LS_DB_READ];
	r->log_write_max_ms = th->max_ms[LS_LOG_WRITE];
	r->max_latency_errors = c->max_latency_errors;
	r->sample_interval_s = (unsigned int)(c->sample_interval_s + 0.5);
	r->stalls_per_s = JS_STALLS_PER_S;
}

/*
 * The load stopped and started again at threads (the phase back to warm-up, its start time
 * kept for the progress line).  0, or -errno with the run stopped as a failed one.
 */
static int restart_at(struct run_state *s, unsigned int threads, bool final)
{
	struct run_ctx *rc = &s->rc;
	struct engine *e = &rc->eng;
	uint64_t t0 = e->t_start;
	int ret;

	engine_set_phase(e, PH_STOP);
	s->wl->stop(rc);
	engine_stats_retire(e);
	s->res.config.threads = threads;
	ret = s->wl->set_threads(rc, final);
	if (!ret) {
		engine_set_phase(e, PH_WARMUP);
		e->t_start = t0;
		ret = s->wl->start(rc);
	}
	if (ret)
		run_fail(rc, "--threads auto: cannot start the load again at %u threads: %s", threads,
			 strerror(-ret));
	return ret;
}

/* The tick since prev (secs ago) from the warm-up counters now (cur). */
static void tick_of(const struct engine_sample *prev, const struct engine_sample *cur,
		    double secs, struct tune_tick *k)
{
	*k = (struct tune_tick){
		.secs = secs,
		.db_reads = cur->ops[CLS_DB_READ] - prev->ops[CLS_DB_READ],
		.db_writes = cur->ops[CLS_DB_WRITE] - prev->ops[CLS_DB_WRITE],
		.log_writes = cur->ops[CLS_LOG_WRITE] - prev->ops[CLS_LOG_WRITE],
		.stalls = cur->stalls - prev->stalls,
		.db_read_lat_ms = (double)(cur->lat_sum[CLS_DB_READ] - prev->lat_sum[CLS_DB_READ]) / 1e6,
		.log_write_lat_ms =
			(double)(cur->lat_sum[CLS_LOG_WRITE] - prev->lat_sum[CLS_LOG_WRITE]) / 1e6,
	};
}

/* One step at the load's current count, a tick a second until it is judged, into *out. */
static void run_step(struct run_state *s, const struct tune_rule *r, double total,
		     struct tune_step *out)
{
	struct engine *e = &s->rc.eng;
	struct engine_sample prev, cur;
	struct tune_track t;
	struct tune_tick k;
	double row[TIMELINE_NCOLS] = { 0 };
	uint64_t last = now_ns(), next, now;

	tune_track_init(&t, r, s->res.config.threads);
	engine_sample_warm(e, &prev);
	for (next = last + NSEC_PER_SEC; run_warm_second(s, next, &cur); next += NSEC_PER_SEC) {
		now = now_ns();
		/* the I/Os over the time that really passed: a late tick is not a dip and a peak */
		tick_of(&prev, &cur, (double)(now - last) / 1e9, &k);
		prev = cur;
		last = now;
		row[1 + 4 * CLS_DB_READ] = (double)k.db_reads / k.secs;
		row[1 + 4 * CLS_DB_WRITE] = (double)k.db_writes / k.secs;
		row[1 + 4 * CLS_LOG_WRITE] = (double)k.log_writes / k.secs;
		run_progress(s, "tune", (double)(now - e->t_start) / 1e9, total, row);
		if (tune_track_tick(&t, &k) == TUNE_DONE)
			break;
	}
	tune_track_take(&t, out);
	tune_track_release(&t);
}

/* "8 threads: stable after 34 s, 1,234 IOPS, reads 12.31 ms, log writes 2.05 ms, 0.00
 * stalls/s: PASS" (or why it failed). */
static void say_step(const struct tune_step *st)
{
	fslab_info("tuning: %u thread(s): %s %.0f s, %.0f transactional IOPS, database reads "
		   "%.2f ms, log writes %.2f ms, %.2f stalls/s: %s%s%s", st->threads,
		   st->stable ? "stable after" : "NOT stable within", st->settle_s, st->iops,
		   st->db_read_ms, st->log_write_ms, st->stalls_per_s, st->pass ? "PASS" : "FAIL",
		   st->why ? ": " : "", st->why ? st->why : "");
}

double run_tune_max_s(const struct run_config *c)
{
	/* the search starts no step after its cap; the step then running may take its own */
	return c->threads_auto ? c->tune_cap_s + c->tune_step_cap_s : 0;
}

void run_tune(struct run_state *s, double total)
{
	struct run_config *c = &s->res.config;
	struct tuning *tu = &s->res.tuning;
	struct tune_rule r;
	struct tune_search se;
	uint64_t t0 = now_ns();
	unsigned int threads;

	if (!c->threads_auto || run_stop_flag)
		return;
	rule_of(s, &r);
	tune_search_init(&se, r.min_threads, r.max_threads);
	tu->present = true;
	for (threads = tune_search_first(&se); threads && !run_stop_flag;) {
		struct tune_step st;

		if (threads != c->threads && restart_at(s, threads, false))
			break;
		run_step(s, &r, total, &st);
		if (run_stop_flag) { /* an interrupted step is not judged */
			free(st.why);
			break;
		}
		say_step(&st);
		tu->steps = xrealloc(tu->steps, (tu->nsteps + 1) * sizeof(*tu->steps));
		tu->steps[tu->nsteps++] = st;
		threads = tune_search_next(&se, threads, st.pass);
		if (threads && (double)(now_ns() - t0) / 1e9 >= r.cap_s)
			tu->timed_out = true;
		if (tu->timed_out)
			break;
	}
	tu->seconds = (double)(now_ns() - t0) / 1e9;
	tu->threads = tune_search_choice(&se, tu->timed_out, &tu->reason);
	if (run_stop_flag)
		return;
	fslab_info("tuning: %u thread(s) chosen after %zu step(s) in %.0f s (%s)", tu->threads,
		   tu->nsteps, tu->seconds, tu->reason);
	if (tu->timed_out)
		result_add_note(&s->res, "--threads auto: the search's time cap (%g s) ended it "
				"before it closed in: %s", c->tune_cap_s, tu->reason);
	/* the measurement's load starts afresh at the count chosen, as a run given it would */
	restart_at(s, tu->threads, true);
}
