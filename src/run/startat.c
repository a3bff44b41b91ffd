// SPDX-License-Identifier: MIT
/* startat.c: fslab run --start-at TIME: checked against the clock, the absolute wait after
 * initialisation, and the start times in the result (docs/HOSTS.md "Starting together"). */
#include <stdio.h>
#include <stdlib.h>

#include "run/run.h"
#include "run/runP.h"
#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/units.h"
#include "lib/utctime.h"

/*
 * A start more than a day ahead is a mistyped date (2062 for 2026), not a plan: the run
 * would hold its directories locked meanwhile.  A later start is at(1)'s or a timer's job.
 */
#define START_AT_MAX_AHEAD_NS (24LL * 3600 * (int64_t)NSEC_PER_SEC)

int run_start_at_check(struct run_state *s)
{
	int64_t t, now = os_wall_ns();
	char when[40], cur[40];

	if (utc_parse(s->res.config.start_at, &t))
		return input_error("--start-at '%s': %s", s->res.config.start_at, run_options[RO_START_AT].fix);
	utc_format(when, sizeof(when), t);
	utc_format(cur, sizeof(cur), now);
	if (t <= now)
		return input_error("--start-at %s: that time has passed (the clock says %s UTC); "
				   "give a time ahead, after the databases can be initialised",
				   when, cur);
	if (t - now > START_AT_MAX_AHEAD_NS)
		return input_error("--start-at %s is %.1f h ahead (the clock says %s UTC), more than "
				   "the 24 h fslab waits; check the date, or start fslab run later "
				   "with at(1) or a timer", when, (t - now) / 3.6e12, cur);
	s->start_at_ns = t;
	return 0;
}

void run_wait_start(struct run_state *s)
{
	int64_t t = s->start_at_ns, now = os_wall_ns(), first = now;
	char when[40];

	utc_format(when, sizeof(when), t);
	if (now >= t) {
		/* the databases took longer than the caller allowed: start now, and say by how
		 * much in the result (the lab's merge shows each host's start) */
		s->start_late_ns = now - t;
		fslab_warn("initialisation ended %.3f s after --start-at %s: starting the load now",
			   s->start_late_ns / 1e9, when);
		return;
	}
	fslab_info("initialised; waiting until %s UTC (%.1f s) to start the load", when,
		   (t - now) / 1e9);
	while (!run_stop_flag) {
		now = os_wall_ns();
		if (now >= t)
			break;
		/* the lab's live line and the terminal's: one a second while waiting */
		run_progress(s, "waiting", (now - first) / 1e9, (t - first) / 1e9, NULL);
		/* the last step is absolute to t itself (CLOCK_REALTIME on Linux) */
		os_sleep_until_wall_ns(MIN(t, now + (int64_t)NSEC_PER_SEC));
	}
}

void run_start_fields(struct run_state *s)
{
	struct fslab_result *r = &s->res;
	const struct engine *e = &s->rc.eng;
	char buf[40];

	if (s->start_at_ns)
		r->start_at = xstrdup(utc_format(buf, sizeof(buf), s->start_at_ns));
	if (!s->load_wall_ns)
		return;
	r->load_started_at = xstrdup(utc_format(buf, sizeof(buf), s->load_wall_ns));
	/* from the monotonic clock's interval: a wall clock stepped during the warm-up does not
	 * move the measurement's start */
	if (e->t_measure >= e->t_start && e->t_measure)
		r->measure_started_at = xstrdup(utc_format(buf, sizeof(buf), s->load_wall_ns +
						   (int64_t)(e->t_measure - e->t_start)));
	if (s->start_late_ns)
		result_add_note(r, "the load started %.3f s after --start-at %s: initialisation "
				"took longer than the time allowed for it, so this host did not start "
				"with the others", s->start_late_ns / 1e9, r->start_at);
}
