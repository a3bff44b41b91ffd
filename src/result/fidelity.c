// SPDX-License-Identifier: MIT
/* fidelity.c: a Jetstress-like load's three ratios against Jetstress's bands, and why not. */
#include "result/fidelity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

const char *const fid_keys[FID_NR] = {
	[FID_DB_LOG] = "db_log", [FID_READ_WRITE] = "read_write", [FID_LOG_KIB] = "log_write_kib",
};
const char *const fid_words[FID_NR] = {
	[FID_DB_LOG] = "database:log transfers", [FID_READ_WRITE] = "database reads:writes",
	[FID_LOG_KIB] = "log write size",
};
const double fid_band[FID_NR][2] = {
	[FID_DB_LOG] = { 8, 12 }, [FID_READ_WRITE] = { 1.5, 2 }, [FID_LOG_KIB] = { 6, 8 },
};

/* rate or count of a class, whichever the result has */
static double amount(const struct class_result *c)
{
	return c->iops > 0 ? c->iops : (double)c->ops;
}

static void judge(struct fid_value *v, enum fid_ratio k)
{
	double lo = fid_band[k][0], hi = fid_band[k][1];

	v->in_band = isfinite(v->value) && v->value >= lo && v->value <= hi;
	v->off_pct = !isfinite(v->value) || v->in_band ? 0
		: v->value > hi ? (v->value / hi - 1) * 100 : (v->value / lo - 1) * 100;
}

void fidelity_compute(struct fidelity *f, const struct class_result cls[CLS_NR])
{
	double rd = amount(&cls[CLS_DB_READ]), wr = amount(&cls[CLS_DB_WRITE]);
	double lg = amount(&cls[CLS_LOG_WRITE]);

	free(f->why);
	*f = (struct fidelity){ .log_busy_pct = NAN, .commits_per_write = NAN };
	if (!(rd + wr > 0) || !(lg > 0))
		return;
	f->present = true;
	f->r[FID_DB_LOG].value = (rd + wr) / lg;
	f->r[FID_READ_WRITE].value = wr > 0 ? rd / wr : NAN;
	f->r[FID_LOG_KIB].value = cls[CLS_LOG_WRITE].avg_bytes > 0
		? cls[CLS_LOG_WRITE].avg_bytes / 1024 : NAN;
	for (int k = 0; k < FID_NR; k++)
		judge(&f->r[k], (enum fid_ratio)k);
}

char *fid_value_text(char *buf, size_t len, enum fid_ratio k, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (k == FID_DB_LOG)
		snprintf(buf, len, "%.1f:1", v);
	else if (k == FID_READ_WRITE)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.1f KiB", v);
	return buf;
}

const char *fid_band_text(enum fid_ratio k)
{
	static const char *const t[FID_NR] = { "8-12:1", "1.5-2", "6-8 KiB" };

	return t[k];
}

char *fid_off_text(char *buf, size_t len, const struct fid_value *v)
{
	if (v->in_band || !isfinite(v->value))
		snprintf(buf, len, "in band");
	else
		snprintf(buf, len, "%.0f %% %s", fabs(v->off_pct), v->off_pct > 0 ? "above"
											: "below");
	return buf;
}

/* The log stream explains db:log above and log writes above their bands. */
static bool log_grouped(const struct fidelity *f)
{
	return f->log_busy_pct >= FID_BUSY_PCT || f->commits_per_write >= FID_GROUPED;
}

void fidelity_explain(struct fidelity *f)
{
	struct strbuf sb = STRBUF_INIT;
	bool grouped = log_grouped(f), said_log = false;

	free(f->why);
	f->why = NULL;
	if (!f->present)
		return;
	for (int k = 0; k < FID_NR; k++) {
		const struct fid_value *v = &f->r[k];
		char a[32], b[32];

		if (v->in_band || !isfinite(v->value))
			continue;
		strbuf_add_sep(&sb, "; ");
		strbuf_addf(&sb, "%s %s is %s Jetstress's %s", fid_words[k],
			    fid_value_text(a, sizeof(a), (enum fid_ratio)k, v->value),
			    fid_off_text(b, sizeof(b), v), fid_band_text((enum fid_ratio)k));
		if (grouped && v->off_pct > 0 && (k == FID_DB_LOG || k == FID_LOG_KIB)) {
			if (said_log) {
				strbuf_addstr(&sb, " (the same cause)");
				continue;
			}
			said_log = true;
			strbuf_addstr(&sb, ": ");
			if (isfinite(f->log_busy_pct))
				strbuf_addf(&sb, "the log stream was busy %.0f %% of the time%s",
					    f->log_busy_pct, isfinite(f->commits_per_write) ? " and " : "");
			if (isfinite(f->commits_per_write))
				strbuf_addf(&sb, "each log write carried %.1f durable commits",
					    f->commits_per_write);
			strbuf_addstr(&sb, "; ESE writes one log I/O at a time per database, so "
				      "once commits come faster than the log volume writes, they "
				      "share writes (group commit) and the log writes fewer, larger "
				      "I/Os (Jetstress 2010's own thread table shows it: log writes "
				      "level off at 500/s while database transfers keep growing); "
				      "more databases (a log stream each) or a faster log volume "
				      "keep the shape");
		} else {
			strbuf_addstr(&sb, " (cause not identified)");
		}
	}
	f->why = strbuf_detach_or_null(&sb);
}

void fidelity_release(struct fidelity *f)
{
	free(f->why);
	*f = (struct fidelity){ 0 };
}
