// SPDX-License-Identifier: MIT
/* summary.c: the human summary of one `fslab run` (stdout, after the result is written). */
#include <stdio.h>
#include <string.h>

#include "os/os.h"
#include "run/runP.h"
#include "lib/units.h"

static void print_class(FILE *f, const char *name, const struct class_result *c)
{
	fprintf(f, "  %-18s %10.1f %9.2f %8.1f %8.3f %8.3f %9.3f %7llu\n", name, c->iops, c->mbps,
		c->avg_bytes / 1024, c->lat_us.mean / 1e3, c->lat_us.p99 / 1e3, c->lat_us.max / 1e3,
		(unsigned long long)c->errors);
}

/* --threads auto: every step of the tuner and the count it chose. */
static void print_tuning(const struct fslab_result *r, FILE *f)
{
	const struct tuning *tu = &r->tuning;

	if (!tu->present)
		return;
	fprintf(f, "Tuning (--threads auto): %u thread(s) measured, %s; %zu step(s) in %.0f s\n",
		tu->threads, tu->reason ? tu->reason : "interrupted", tu->nsteps, tu->seconds);
	fprintf(f, "  %7s %6s %7s %10s %9s %9s %8s  %s\n", "threads", "stable", "seconds",
		"trans IOPS", "read ms", "log ms", "stalls/s", "verdict");
	for (size_t i = 0; i < tu->nsteps; i++) {
		const struct tune_step *st = &tu->steps[i];

		fprintf(f, "  %7u %6s %7.0f %10.1f %9.3f %9.3f %8.2f  %s%s%s\n", st->threads,
			st->stable ? "yes" : "NO", st->seconds, st->iops, st->db_read_ms,
			st->log_write_ms, st->stalls_per_s, st->pass ? "PASS" : "FAIL",
			st->why ? ": " : "", st->why ? st->why : "");
	}
}

void run_print_summary(struct run_state *s, FILE *f)
{
	const struct fslab_result *r = &s->res;
	const struct run_config *o = &r->config;
	static const char *const names[CLS_NR] = {
		"Database reads", "Database writes", "Log writes", "BDM reads",
	};
	bool all = s->wl->flags & WL_TRANSACTIONS; /* every class of its model, even idle */
	char a[32], b[32], w[64];

	fprintf(f, "\nfslab run '%s': %s, %u threads%s", r->label, o->workload, o->threads,
		r->tuning.present ? " (--threads auto)" : "");
	s->wl->describe(o, f);
	run_warmup_text(r, w, sizeof(w));
	fprintf(f, ", %s measured (warm-up %s), seed %llu, %s%s\n",
		fmt_duration(a, sizeof(a), (uint64_t)(r->duration_s * 1e9)), w,
		(unsigned long long)o->seed, o->engine,
		s->rc.direct ? ", " OS_DIRECT_NAME : ", BUFFERED");
	for (size_t i = 0; i < s->ndb_vols + s->nlog_vols; i++) {
		const struct volume *v = i < s->ndb_vols ? &s->rc.db_vols[i]
							 : &s->rc.log_vols[i - s->ndb_vols];

		fprintf(f, "  %-3s %s: %s on %s (%s)\n", v->role, v->dir, v->fsname, v->source,
			v->options);
	}
	if (r->aborted)
		fprintf(f, "\n*** ABORTED: %s; the figures cover what was measured ***\n",
			r->abort_reason ? r->abort_reason : "interrupted");
	if (r->init.created)
		fprintf(f, "Initialisation: %u file(s) created, %s at %.0f MB/s; %u reused\n",
			r->init.created, fmt_size(a, sizeof(a), r->init.bytes_written), r->init.mbps,
			r->init.reused);
	else if (r->init.reused)
		fprintf(f, "Initialisation: %u existing file(s) reused, none written\n", r->init.reused);
	fprintf(f, "\n");
	if (s->wl->summary)
		s->wl->summary(r, f);
	fprintf(f, "  %-18s %10s %9s %8s %8s %8s %9s %7s\n", "", "IOPS", "MB/s", "avg KiB",
		"avg ms", "p99 ms", "max ms", "errors");
	for (int c = 0; c < CLS_NR; c++)
		if (r->classes[c].ops || r->classes[c].errors || all)
			print_class(f, names[c], &r->classes[c]);
	for (size_t i = 0; i < r->ndevices; i++) {
		const struct device_result *d = &r->devices[i];

		fprintf(f, "Device %s (%s): read %.1f MB/s, write %.1f MB/s, util %.0f %%, write "
			"amplification %.2f%s\n", d->name, d->role, d->read_bytes / 1e6 / r->duration_s,
			d->write_bytes / 1e6 / r->duration_s, d->util_pct, d->write_amplification,
			d->cache_served_reads ? ", READS SERVED BY A CACHE" : "");
	}
	fprintf(f, "Host: CPU %.0f %% average (max %.0f %%, iowait %.0f %%), memory used %s of %s\n",
		r->host.cpu_pct_avg, r->host.cpu_pct_max, r->host.cpu_iowait_pct,
		fmt_size(a, sizeof(a), r->host.mem_used_avg), fmt_size(b, sizeof(b), r->host.mem_total));
	if (r->checksum.ran)
		fprintf(f, "Checksum pass: %llu pages, %llu bad, %.0f MB/s%s%s\n",
			(unsigned long long)r->checksum.pages, (unsigned long long)r->checksum.bad_pages,
			r->checksum.mbps, r->checksum.first_bad ? "; first: " : "",
			r->checksum.first_bad ? r->checksum.first_bad : "");
	run_print_steady(r, f);
	print_tuning(r, f);
	for (size_t i = 0; i < json_array_size(r->notes); i++)
		fprintf(f, "Note: %s\n", json_string_value(json_array_get(r->notes, i)));
	if (r->verdict.present) {
		fprintf(f, "\nVerdict: %s\n", r->verdict.pass ? "PASS" : "FAIL");
		for (size_t i = 0; i < r->verdict.nchecks; i++) {
			const struct verdict_check *c = &r->verdict.checks[i];
			bool count = !strcmp(c->unit, "count");

			/* error counts only when they fail; the per-I/O tail when asked for */
			if (count && c->pass && !strstr(c->name, "_io_tail"))
				continue;
			fprintf(f, "  %-4s %-8s %-22s %9.*f %-5s (limit %g%s%s)%s%s\n",
				c->pass ? "ok" : "FAIL", c->scope, c->name,
				count ? 0 : !strcmp(c->unit, "IOPS") ? 1 : 3, c->value,
				count ? "" : c->unit, c->limit, count ? "" : " ", count ? "" : c->unit,
				c->note ? "  " : "", c->note ? c->note : "");
		}
	}
}
