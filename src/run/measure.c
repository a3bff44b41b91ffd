// SPDX-License-Identifier: MIT
/* measure.c: the timed load of `fslab run`: warm-up, once-a-second sampling (timeline,
 * latency samples, progress), device counters before and after. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "run/run.h"
#include "run/runP.h"
#include "lib/units.h"

/* ---- device counters ---- */

struct dev_group {
	const struct volume *v;
	bool db, log;
};

/* Unique block devices under the db and log volumes (db and log may share one). */
static size_t dev_groups(struct run_state *s, struct dev_group *g, size_t max)
{
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++) {
		const struct volume *vv = pass ? s->rc.log_vols : s->rc.db_vols;
		size_t nv = pass ? s->nlog_vols : s->ndb_vols;

		for (size_t i = 0; i < nv; i++) {
			const struct volume *v = &vv[i];
			size_t j;

			if (!v->stat_path)
				continue;
			for (j = 0; j < n; j++)
				if (g[j].v->bdev == v->bdev)
					break;
			if (j == n) {
				if (n == max)
					continue;
				g[n++] = (struct dev_group){ .v = v };
			}
			if (pass)
				g[j].log = true;
			else
				g[j].db = true;
		}
	}
	return n;
}


void run_snapshot_devices(struct run_state *s, struct devstat *out)
{
	struct dev_group g[MAX_DEVS];
	size_t n = dev_groups(s, g, MAX_DEVS);

	for (size_t i = 0; i < n; i++)
		if (devstat_read(g[i].v->stat_path, &out[i]))
			memset(&out[i], 0, sizeof(out[i]));
}

void run_device_results(struct run_state *s, const struct collect_extra *x)
{
	struct fslab_result *r = &s->res;
	struct dev_group g[MAX_DEVS];
	size_t n = dev_groups(s, g, MAX_DEVS);
	double secs = r->duration_s;

	r->devices = xcalloc(n + 1, sizeof(*r->devices));
	for (size_t i = 0; i < n; i++) {
		struct device_result *d = &r->devices[r->ndevices++];
		const struct devstat *a = &s->dev_before[i], *b = &s->dev_after[i];
		uint64_t wl_w = 0, wl_r = 0;

		d->role = xstrdup(g[i].db && g[i].log ? "db+log" : g[i].db ? "db" : "log");
		d->name = xstrdup(g[i].v->devname);
		d->model = xstrdup(g[i].v->model);
		d->read_ios = b->rd_ios - a->rd_ios;
		d->read_bytes = (b->rd_sect - a->rd_sect) * 512;
		d->write_ios = b->wr_ios - a->wr_ios;
		d->write_bytes = (b->wr_sect - a->wr_sect) * 512;
		d->discard_ios = b->discard_ios - a->discard_ios;
		d->io_ticks_ms = b->io_ticks - a->io_ticks;
		d->util_pct = secs > 0 ? MIN(100.0, d->io_ticks_ms / 10.0 / secs) : 0;
		if (g[i].db) {
			wl_w += r->classes[CLS_DB_WRITE].bytes + x->other_write_bytes[0];
			wl_r += r->classes[CLS_DB_READ].bytes + r->classes[CLS_BDM_READ].bytes;
		}
		if (g[i].log)
			wl_w += r->classes[CLS_LOG_WRITE].bytes + x->other_write_bytes[1];
		d->write_amplification = wl_w ? (double)d->write_bytes / (double)wl_w : 0;
		d->read_ratio = wl_r ? (double)d->read_bytes / (double)wl_r : 0;
		d->cache_served_reads = wl_r >= MiB && d->read_ratio < 0.5;
		if (d->cache_served_reads)
			result_add_note(r, "%s (%s): the device read only %.0f %% of the bytes the "
					"workload read: a cache served the reads, read latencies do not "
					"reflect the device", d->name, d->role, d->read_ratio * 100);
	}
}

/* ---- progress ---- */

void run_progress(struct run_state *s, const char *phase, double elapsed, double total,
		  const double *row)
{
	double iops = 0, rd = 0, wr = 0, lg = 0, tps = 0;
	char e[32], t[32], eta[32];

	if (row) {
		rd = row[1 + 4 * CLS_DB_READ];
		wr = row[1 + 4 * CLS_DB_WRITE];
		lg = row[1 + 4 * CLS_LOG_WRITE];
		iops = rd + wr;
		tps = row[TL_TRANSACTIONS];
	}
	/*
	 * The tag lets a reader pick these lines out of a stream that carries other text: on
	 * stdout (fd 1, the lab's channel, which alone survives ssh and exists on Windows) they
	 * go through stdio, in order with the summary, each line whole and flushed.
	 */
	if (s->progress_fd == 1) {
		printf(RUN_PROGRESS_TAG "\"phase\": \"%s\", \"elapsed_s\": %.1f, \"total_s\": %.1f, "
		       "\"iops\": %.0f, \"tps\": %.0f}\n", phase, elapsed, total, iops, tps);
		fflush(stdout);
	} else if (s->progress_fd >= 0) {
		os_fdprintf(s->progress_fd, RUN_PROGRESS_TAG "\"phase\": \"%s\", \"elapsed_s\": %.1f, "
			    "\"total_s\": %.1f, \"iops\": %.0f, \"tps\": %.0f}\n", phase, elapsed,
			    total, iops, tps);
	}
	if (s->res.config.quiet || !os_stderr_tty())
		return;
	fmt_hms(e, sizeof(e), elapsed);
	fmt_hms(t, sizeof(t), total);
	fmt_hms(eta, sizeof(eta), total - elapsed);
	fprintf(stderr, "\r%s %-7s %s / %s  ETA %s  %6.0f IOPS (db r %.0f w %.0f)  log %.0f/s  "
		"tps %.0f\033[K", s->res.label, phase, e, t, eta, iops, rd, wr, lg, tps);
	fflush(stderr);
}

void run_progress_end(struct run_state *s)
{
	if (!s->res.config.quiet && os_stderr_tty())
		fprintf(stderr, "\r\033[K");
}

/* ---- latency samples ---- */

/* One sampler per database instance and one overall (the verdict's: WL_VERDICT only). */
static void samplers_init(struct run_state *s)
{
	const struct run_config *c = &s->res.config;
	struct samplers *m = &s->smp;

	if (!(s->wl->flags & WL_VERDICT))
		return;
	m->n = c->databases + 1;
	m->ls = xcalloc(m->n, sizeof(*m->ls));
	m->prev = xcalloc(m->n, sizeof(*m->prev));
	for (size_t i = 0; i < m->n; i++)
		lat_sampler_init(&m->ls[i], (unsigned int)c->sample_interval_s);
}

/* Once a second of the measurement: each instance's (and all threads') second into its
 * sampler. */
static void samplers_tick(struct run_state *s)
{
	struct samplers *m = &s->smp;

	for (size_t i = 0; i < m->n; i++) {
		struct engine_sample cur;
		uint64_t ops[LS_NR], lat[LS_NR];

		engine_sample_instance(&s->rc.eng, i + 1 < m->n ? (int)i : -1, &cur);
		for (int k = 0; k < LS_NR; k++) {
			int c = lat_series_cls[k];

			ops[k] = cur.ops[c] - m->prev[i].ops[c];
			lat[k] = cur.lat_sum[c] - m->prev[i].lat_sum[c];
		}
		lat_sampler_add(&m->ls[i], ops, lat);
		m->prev[i] = cur;
	}
}

/* The samples into the result: "db1".. (the instance names of workloads/jetstress.c), then
 * "overall". */
void run_samplers_finish(struct run_state *s)
{
	struct samplers *m = &s->smp;
	struct latency_samples *out = &s->res.latency_samples;

	if (!m->n)
		return;
	out->scopes = xcalloc(m->n, sizeof(*out->scopes));
	for (size_t i = 0; i < m->n; i++) {
		char name[32];

		if (i + 1 < m->n)
			snprintf(name, sizeof(name), "db%zu", i + 1);
		else
			snprintf(name, sizeof(name), "overall");
		lat_sampler_finish(&m->ls[i], name, &out->scopes[out->nscopes++]);
	}
	out->present = true;
	out->interval_s = s->res.config.sample_interval_s;
	out->partial = m->ls[m->n - 1].partial;
	out->intervals = out->partial ? 1 : m->ls[m->n - 1].intervals;
	if (out->partial)
		result_add_note(&s->res, "the measurement (%.0f s) was shorter than one latency "
				"sample interval (%u s): the maximum-latency checks judge one partial "
				"sample, the whole measurement", (double)m->ls[m->n - 1].seconds,
				(unsigned int)s->res.config.sample_interval_s);
}

void run_samplers_free(struct samplers *m)
{
	for (size_t i = 0; i < m->n; i++)
		lat_sampler_release(&m->ls[i]);
	free(m->ls);
	free(m->prev);
	memset(m, 0, sizeof(*m));
}

/* ---- the timed load ---- */

/* The load ended on its own (a WL_FINITE workload read everything). */
static bool load_done(struct run_state *s)
{
	return __atomic_load_n(&s->rc.done_ns, __ATOMIC_ACQUIRE) != 0;
}

/*
 * Until the end of the second at next: true when the measurement ends first (stopped, or a
 * finite load done: looked at every 10 ms, so its end is not rounded up to a second).
 */
static bool wait_second(struct run_state *s, uint64_t next)
{
	bool finite = s->wl->flags & WL_FINITE;
	uint64_t now;

	/* woken early by a signal we ignore: sleep again */
	while (!run_stop_flag && !(finite && load_done(s)) && (now = now_ns()) < next)
		sleep_until_ns(finite ? MIN(next, now + 10 * NSEC_PER_MSEC) : next);
	return run_stop_flag || (finite && load_done(s));
}

void run_load(struct run_state *s)
{
	struct run_ctx *rc = &s->rc;
	struct engine *e = &rc->eng;
	struct engine_sample prev = { 0 };
	uint64_t warm = run_config_ns(s->res.config.warmup_s);
	uint64_t dur = run_config_ns(s->res.config.duration_s), t0, w0, next;
	double total = (double)(warm + dur) / 1e9 + run_steady_stages_max_s(&s->res.config) +
		       run_tune_max_s(&s->res.config);
	double row[TIMELINE_NCOLS];
	uint64_t sec = 0;

	timeline_init(&s->res.timeline, timeline_columns, TIMELINE_NCOLS);
	/* rows go to a temporary file: memory stays flat however long the run */
	if (timeline_spill(&s->res.timeline))
		fslab_warn("no temporary file for the timeline (%s): keeping it in memory",
			   getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	sampler_start(&s->host);
	s->load_wall_ns = os_wall_ns(); /* the result's load_started_at (startat.c) */
	engine_set_phase(e, PH_WARMUP);
	t0 = e->t_start;
	if (s->wl->start(rc)) {
		*rc->stop = RUN_STOP_FAILED;
		return;
	}
	/* a precondition's load, the tuner, a steady warm-up (steady_run.c, tune_run.c) */
	run_precondition_load(s, total);
	run_tune(s, total);
	run_steady_warmup(s, total);
	/* warm-up: the load runs, nothing is recorded */
	w0 = now_ns();
	for (next = w0 + NSEC_PER_SEC; !run_stop_flag && now_ns() < w0 + warm;
	     next += NSEC_PER_SEC) {
		sleep_until_ns(MIN(next, w0 + warm));
		sampler_tick(&s->host);
		run_progress(s, "warm-up", (now_ns() - t0) / 1e9, total, NULL);
	}
	if (run_stop_flag)
		return;
	run_snapshot_devices(s, s->dev_before);
	sampler_start(&s->host);
	samplers_init(s);
	engine_set_phase(e, PH_MEASURE);
	for (next = e->t_measure + NSEC_PER_SEC; ; next += NSEC_PER_SEC) {
		if (wait_second(s, next))
			break;
		engine_sample(e, sec, &prev, row);
		samplers_tick(s);
		row[TL_CPU] = sampler_tick(&s->host);
		timeline_add_row(&s->res.timeline, row);
		sec++;
		run_progress(s, "measure", (now_ns() - t0) / 1e9, total, row);
		if (sec * NSEC_PER_SEC >= dur)
			break;
	}
}
