// SPDX-License-Identifier: MIT
/*
 * steady_run.c: steady state in `fslab run` (src/engine/steady.h): --precondition's two stages (the
 * database files written over, then the load until the rule holds), a steady warm-up, and
 * the rule on the measured timeline.  Nothing here is measured; each stage is recorded.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "run/runP.h"
#include "engine/steady.h"
#include "lib/units.h"
#include "workloads/dbfile.h"

/* ---- stage 1 of --precondition: the database files written over ---- */

/* Bytes the devices wrote between two snapshots (run_snapshot_devices()). */
static uint64_t devices_written(const struct devstat *a, const struct devstat *b)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < MAX_DEVS; i++)
		if (b[i].wr_sect >= a[i].wr_sect)
			sum += (b[i].wr_sect - a[i].wr_sect) * 512;
	return sum;
}

int run_precondition_files(struct run_state *s)
{
	const struct run_config *c = &s->res.config;
	struct precondition_result *pc = &s->res.precondition;
	struct devstat *before, *after;
	uint64_t t0 = now_ns();
	char sz[32];
	int ret = 0;

	if (!c->precondition)
		return 0;
	before = xcalloc(MAX_DEVS, sizeof(*before));
	after = xcalloc(MAX_DEVS, sizeof(*after));
	run_snapshot_devices(s, before);
	pc->present = true;
	pc->passes = c->precondition;
	for (size_t i = 0; i < s->rc.nfiles && !ret && !run_stop_flag; i++) {
		const struct wl_file *f = &s->rc.files[i];
		struct db_place pl = { .path = f->path, .d = f->d, .name = f->name, .base = f->base,
				       .raw = f->raw, .id = f->id };
		struct db_info info = { .npages = f->npages, .dbid = f->dbid, .seed = f->seed,
					.compressibility = f->compressibility };
		struct db_create_stats st;

		fslab_info("%s: preconditioning: writing it over %u time(s), sequentially", f->path,
			   c->precondition);
		ret = db_overwrite(&pl, &info, c->precondition, s->rc.direct, c->engine,
				   &run_stop_flag, &st);
		pc->bytes_written += st.bytes;
		if (ret && ret != -EINTR)
			fslab_err("%s: preconditioning failed: %s", f->path, strerror(-ret));
		if (!ret)
			pc->files++;
	}
	run_snapshot_devices(s, after);
	pc->seconds = (now_ns() - t0) / 1e9;
	pc->device_bytes_written = devices_written(before, after);
	if (!ret)
		fslab_info("preconditioning: %s written over %u file(s) in %.1f s",
			   fmt_size(sz, sizeof(sz), pc->bytes_written), pc->files, pc->seconds);
	free(before);
	free(after);
	return ret == -EINTR ? 0 : ret;
}

/* ---- the load until the rule holds ---- */

bool run_warm_second(struct run_state *s, uint64_t next, struct engine_sample *cur)
{
	/* woken early by a signal we ignore: sleep again */
	while (!run_stop_flag && now_ns() < next)
		sleep_until_ns(next);
	if (run_stop_flag)
		return false;
	sampler_tick(&s->host);
	engine_sample_warm(&s->rc.eng, cur);
	return true;
}

/*
 * The second's counters (warm-up completions since prev, secs ago) into the tracks and a
 * progress row.  IOPS are the I/Os over the time that really passed: a tick that came late
 * (the machine was busy) is not a dip followed by a peak.
 */
static bool stage_second(struct steady_track *ti, struct steady_track *tl,
			 const struct engine_sample *prev, const struct engine_sample *cur,
			 double secs, double *row)
{
	double rd = (double)(cur->ops[CLS_DB_READ] - prev->ops[CLS_DB_READ]);
	double wr = (double)(cur->ops[CLS_DB_WRITE] - prev->ops[CLS_DB_WRITE]);
	double lat = (double)(cur->lat_sum[CLS_DB_READ] - prev->lat_sum[CLS_DB_READ]) / 1e6;
	bool iops = steady_track_second(ti, rd + wr, secs);
	bool rlat = steady_track_second(tl, lat, rd);

	row[1 + 4 * CLS_DB_READ] = rd;
	row[1 + 4 * CLS_DB_WRITE] = wr;
	row[1 + 4 * CLS_LOG_WRITE] =
		(double)(cur->ops[CLS_LOG_WRITE] - prev->ops[CLS_LOG_WRITE]);
	/* both series' windows hold now; a load without reads is judged by its IOPS */
	return iops && (rlat || !tl->data);
}

void run_until_steady(struct run_state *s, const char *phase, double total,
		      struct steady_stage *out)
{
	const struct run_config *c = &s->res.config;
	struct engine *e = &s->rc.eng;
	struct engine_sample first, prev, cur;
	struct steady_track ti, tl;
	struct steady_rule r;
	double row[TIMELINE_NCOLS] = { 0 };
	uint64_t t0 = now_ns(), cap = run_config_ns(c->steady_cap_s), next, last = t0, now;

	steady_rule_of(c, &r);
	steady_track_init(&ti, &r);
	steady_track_init(&tl, &r);
	engine_sample_warm(e, &first);
	prev = first;
	*out = (struct steady_stage){ .present = true, .cap_s = c->steady_cap_s };
	for (next = t0 + NSEC_PER_SEC; run_warm_second(s, next, &cur); next += NSEC_PER_SEC) {
		now = now_ns();
		out->attained = stage_second(&ti, &tl, &prev, &cur, (now - last) / 1e9, row);
		prev = cur;
		last = now;
		run_progress(s, phase, (now_ns() - e->t_start) / 1e9, total, row);
		if (out->attained || next - t0 >= cap)
			break;
	}
	out->seconds = (now_ns() - t0) / 1e9;
	out->bytes_read = (prev.bytes[CLS_DB_READ] - first.bytes[CLS_DB_READ]) +
			  (prev.bytes[CLS_BDM_READ] - first.bytes[CLS_BDM_READ]);
	out->bytes_written = (prev.bytes[CLS_DB_WRITE] - first.bytes[CLS_DB_WRITE]) +
			     (prev.bytes[CLS_LOG_WRITE] - first.bytes[CLS_LOG_WRITE]);
	steady_track_result(&ti, &out->iops);
	steady_track_result(&tl, &out->db_read_lat);
	steady_track_release(&ti);
	steady_track_release(&tl);
	if (!run_stop_flag && !out->attained)
		result_add_note(&s->res, "%s: no steady state within %.0f s (--steady-cap): the "
				"load went on as it was", strcmp(phase, "warm-up") ? "preconditioning"
				: "the steady warm-up", out->seconds);
}

void run_precondition_load(struct run_state *s, double total)
{
	if (s->res.config.precondition && !run_stop_flag)
		run_until_steady(s, "precondition", total, &s->res.precondition.load);
}

void run_steady_warmup(struct run_state *s, double total)
{
	if (s->res.config.warmup_steady && !run_stop_flag)
		run_until_steady(s, "warm-up", total, &s->res.warmup);
}

double run_steady_stages_max_s(const struct run_config *c)
{
	return (c->precondition ? c->steady_cap_s : 0) + (c->warmup_steady ? c->steady_cap_s : 0);
}

/* ---- the rule on the measured timeline ---- */

void run_steady_finish(struct run_state *s)
{
	struct fslab_result *r = &s->res;
	struct steady_rule rule;

	/* a load judged by throughput, or read once, has no transactional IOPS to follow */
	if (s->wl->flags & (WL_THROUGHPUT | WL_FINITE))
		return;
	steady_rule_of(&r->config, &rule);
	if (steady_from_timeline(&r->timeline, &rule, &r->steady))
		fslab_warn("cannot read the timeline back: the result says nothing of steady state");
}

/* ---- the summary's lines ---- */

void run_warmup_text(const struct fslab_result *r, char *buf, size_t len)
{
	const struct steady_stage *w = &r->warmup;

	if (w->present)
		snprintf(buf, len, "until steady: %.0f s, %s", w->seconds,
			 w->attained ? "attained" : "NOT attained by the cap");
	else
		fmt_duration(buf, len, run_config_ns(r->config.warmup_s));
}

void run_print_steady(const struct fslab_result *r, FILE *f)
{
	const struct precondition_result *pc = &r->precondition;
	const struct steady_state *st = &r->steady;
	char a[32], b[32], *t1, *t2;

	if (pc->present) {
		fprintf(f, "Preconditioning: %u file(s) written over %u time(s) sequentially, %s "
			"(the devices wrote %s) in %.1f s", pc->files, pc->passes,
			fmt_size(a, sizeof(a), pc->bytes_written),
			fmt_size(b, sizeof(b), pc->device_bytes_written), pc->seconds);
		if (pc->load.present)
			fprintf(f, "; then the load until steady: %s after %.0f s",
				pc->load.attained ? "attained" : "NOT attained", pc->load.seconds);
		fputc('\n', f);
	}
	if (!st->present)
		return;
	t1 = steady_metric_text(&st->iops, st, "", 0);
	t2 = steady_metric_text(&st->db_read_lat, st, " ms", 3);
	fprintf(f, "Steady state (SNIA PTS rule: %u x %g s, range <= %g %%, excursion <= %g %%):\n"
		"  transactional IOPS: %s\n  database read latency: %s\n", st->window,
		st->interval_s, st->range_limit_pct, st->excursion_limit_pct, t1, t2);
	free(t1);
	free(t2);
}
