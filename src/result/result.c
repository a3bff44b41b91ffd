// SPDX-License-Identifier: MIT
/* result.c: the result of one run in memory: classes, timeline, notes, verdict checks (the JSON
 * is result_write.c and result_read.c). */
#include "result/result.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"

const char *const io_class_names[CLS_NR] = {
	[CLS_DB_READ] = "db_read",
	[CLS_DB_WRITE] = "db_write",
	[CLS_LOG_WRITE] = "log_write",
	[CLS_BDM_READ] = "bdm_read",
};

const int lat_series_cls[LS_NR] = {
	[LS_DB_READ] = CLS_DB_READ,
	[LS_LOG_WRITE] = CLS_LOG_WRITE,
};
const char *const lat_series_keys[LS_NR] = {
	[LS_DB_READ] = "db_read_avg_ms",
	[LS_LOG_WRITE] = "log_write_avg_ms",
};

const char *const steady_verdict_names[] = {
	[STEADY_UNKNOWN] = NULL,
	[STEADY_ATTAINED] = "attained",
	[STEADY_NOT_ATTAINED] = "not attained",
	[STEADY_TOO_SHORT] = "too short",
	[STEADY_NO_DATA] = "no data",
};

int steady_verdict_from_name(const char *name)
{
	for (int i = STEADY_ATTAINED; i <= STEADY_NO_DATA; i++)
		if (name && !strcmp(name, steady_verdict_names[i]))
			return i;
	return -1;
}

void steady_metric_release(struct steady_metric *m)
{
	free(m->means);
	memset(m, 0, sizeof(*m));
}

static void steady_release(struct fslab_result *r)
{
	steady_metric_release(&r->steady.iops);
	steady_metric_release(&r->steady.db_read_lat);
	steady_metric_release(&r->warmup.iops);
	steady_metric_release(&r->warmup.db_read_lat);
	steady_metric_release(&r->precondition.load.iops);
	steady_metric_release(&r->precondition.load.db_read_lat);
	for (size_t i = 0; i < r->nfio_ss; i++) {
		free(r->fio_ss[i].job);
		free(r->fio_ss[i].ss);
		free(r->fio_ss[i].criterion);
	}
	free(r->fio_ss);
}

int io_class_from_name(const char *name)
{
	for (int i = 0; i < CLS_NR; i++)
		if (!strcmp(name, io_class_names[i]))
			return i;
	return -1;
}

void latency_series_release(struct latency_series *s)
{
	free(s->scope);
	for (int k = 0; k < LS_NR; k++)
		free(s->avg_ms[k]);
	memset(s, 0, sizeof(*s));
}

const struct latency_series *latency_samples_find(const struct latency_samples *ls,
						  const char *scope)
{
	for (size_t i = 0; i < ls->nscopes; i++)
		if (ls->scopes[i].scope && !strcmp(ls->scopes[i].scope, scope))
			return &ls->scopes[i];
	return NULL;
}

void result_init(struct fslab_result *r)
{
	memset(r, 0, sizeof(*r));
	r->notes = json_array();
}

static void class_release(struct class_result *c)
{
	free(c->hist);
	c->hist = NULL;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void run_config_release(struct run_config *c)
{
	free(c->workload);
	free(c->engine);
	free(c->thresholds);
	free(c->target_iops_origin);
	free(c->label);
	free(c->output);
	free(c->selftest);
	free(c->lab_id);
	free(c->lab_cell);
	free(c->start_at);
	strv_free(c->db_dirs, c->ndb_dirs);
	strv_free(c->log_dirs, c->nlog_dirs);
	memset(c, 0, sizeof(*c));
}

static void devices_free(struct device_result *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].role);
		free(d[i].name);
		free(d[i].model);
	}
	free(d);
}

void host_member_release(struct host_member *h)
{
	free(h->name);
	free(h->status);
	free(h->reason);
	free(h->file);
	free(h->sha256);
	free(h->hostname);
	free(h->start_at);
	free(h->load_started_at);
	free(h->measure_started_at);
	free(h->verdict);
	for (int c = 0; c < CLS_NR; c++)
		class_release(&h->classes[c]);
	devices_free(h->devices, h->ndevices);
	memset(h, 0, sizeof(*h));
}

void result_release(struct fslab_result *r)
{
	free(r->schema);
	free(r->label);
	free(r->fslab_version);
	free(r->started_at);
	free(r->ended_at);
	free(r->start_at);
	free(r->load_started_at);
	free(r->measure_started_at);
	free(r->abort_reason);
	run_config_release(&r->config);
	json_decref(r->environment);
	for (int i = 0; i < CLS_NR; i++)
		class_release(&r->classes[i]);
	for (size_t i = 0; i < r->ninstances; i++) {
		struct instance_result *in = &r->instances[i];

		free(in->name);
		free(in->db_file);
		free(in->log_dir);
		for (int c = 0; c < CLS_NR; c++)
			class_release(&in->classes[c]);
	}
	free(r->instances);
	devices_free(r->devices, r->ndevices);
	for (size_t i = 0; i < r->nhosts; i++)
		host_member_release(&r->hosts[i]);
	free(r->hosts);
	steady_release(r);
	tuning_release(&r->tuning);
	fidelity_release(&r->fidelity);
	recovery_result_release(&r->recovery);
	free(r->cluster.timeline);
	timeline_release(&r->timeline);
	for (size_t i = 0; i < r->latency_samples.nscopes; i++)
		latency_series_release(&r->latency_samples.scopes[i]);
	free(r->latency_samples.scopes);
	for (size_t i = 0; i < r->verdict.nchecks; i++) {
		struct verdict_check *c = &r->verdict.checks[i];

		free(c->scope);
		free(c->name);
		free(c->unit);
		free(c->rule);
		free(c->note);
	}
	free(r->verdict.checks);
	free(r->checksum.first_bad);
	json_decref(r->notes);
	free(r->lab.id);
	free(r->lab.cell);
	free(r->src.tool);
	free(r->src.version);
	free(r->src.format);
	free(r->src.file);
	free(r->src.host);
	memset(r, 0, sizeof(*r));
}

void class_result_finish(struct class_result *c, double seconds)
{
	c->iops = seconds > 0 ? (double)c->ops / seconds : 0;
	c->mbps = seconds > 0 ? (double)c->bytes / seconds / 1e6 : 0;
	c->avg_bytes = c->ops ? (double)c->bytes / (double)c->ops : 0;
	class_result_latency(c);
}

void class_result_latency(struct class_result *c)
{
	const struct hist *h = c->hist;

	memset(&c->lat_us, 0, sizeof(c->lat_us));
	if (!h || !h->n)
		return;
	c->lat_us.min = h->min / 1e3;
	c->lat_us.max = h->max / 1e3;
	c->lat_us.mean = hist_mean(h) / 1e3;
	c->lat_us.stddev = hist_stddev(h) / 1e3;
	c->lat_us.p50 = hist_percentile(h, 50) / 1e3;
	c->lat_us.p90 = hist_percentile(h, 90) / 1e3;
	c->lat_us.p99 = hist_percentile(h, 99) / 1e3;
	c->lat_us.p99_9 = hist_percentile(h, 99.9) / 1e3;
	c->lat_us.p99_99 = hist_percentile(h, 99.99) / 1e3;
}

void timeline_init(struct timeline *t, const char *const *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->cols = xcalloc(ncols, sizeof(char *));
	for (size_t i = 0; i < ncols; i++)
		t->cols[i] = xstrdup(cols[i]);
}

int timeline_spill(struct timeline *t)
{
	FILE *f = tmpfile();

	if (!f)
		return -errno;
	if (t->nrows && fwrite(t->data, sizeof(double) * t->ncols, t->nrows, f) != t->nrows) {
		fclose(f);
		return -EIO;
	}
	free(t->data);
	t->data = NULL;
	t->cap = 0;
	t->spill = f;
	return 0;
}

/* len bytes at off of a spill file, the position left at its end for the next row added. */
static int spill_read(FILE *f, off_t off, void *buf, size_t len)
{
	bool ok = !fseeko(f, off, SEEK_SET) && fread(buf, 1, len, f) == len;

	if (fseeko(f, 0, SEEK_END) || !ok)
		return -EIO;
	return 0;
}

int timeline_row(const struct timeline *t, size_t i, double *row)
{
	size_t sz = sizeof(double) * t->ncols;

	if (i >= t->nrows)
		return -ERANGE;
	if (!t->spill) {
		memcpy(row, t->data + i * t->ncols, sz);
		return 0;
	}
	return spill_read(t->spill, (off_t)(i * sz), row, sz);
}

int timeline_rows(const struct timeline *t, size_t first, size_t n, double *rows)
{
	size_t sz = sizeof(double) * t->ncols;

	if (first > t->nrows || n > t->nrows - first)
		return -ERANGE;
	if (!n || !sz)
		return 0;
	if (!t->spill) {
		memcpy(rows, t->data + first * t->ncols, n * sz);
		return 0;
	}
	return spill_read(t->spill, (off_t)(first * sz), rows, sz * n);
}

void timeline_add_row(struct timeline *t, const double *row)
{
	if (t->spill) {
		/* a failed write loses the row (the temporary file system is full): nrows says
		 * so.  Reads leave the position at the end (a seek would flush every row) */
		if (fwrite(row, sizeof(double) * t->ncols, 1, t->spill) == 1)
			t->nrows++;
		return;
	}
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->data = xrealloc(t->data, t->cap * t->ncols * sizeof(double));
	}
	memcpy(t->data + t->nrows * t->ncols, row, t->ncols * sizeof(double));
	t->nrows++;
}

int timeline_col(const struct timeline *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return (int)i;
	return -1;
}

void timeline_release(struct timeline *t)
{
	strv_free(t->cols, t->ncols);
	free(t->data);
	if (t->spill)
		fclose(t->spill);
	memset(t, 0, sizeof(*t));
}

void result_add_note(struct fslab_result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	if (!r->notes)
		r->notes = json_array();
	json_array_append_new(r->notes, json_string(s));
	free(s);
}

void verdict_add(struct verdict *v, const char *scope, const char *name, double value,
		 double limit, const char *unit, bool pass, const char *note)
{
	verdict_add_rule(v, scope, name, value, limit, unit, NULL, pass, note);
}

void verdict_add_rule(struct verdict *v, const char *scope, const char *name, double value,
		      double limit, const char *unit, const char *rule, bool pass,
		      const char *note)
{
	struct verdict_check *c;

	v->checks = xrealloc(v->checks, (v->nchecks + 1) * sizeof(*v->checks));
	c = &v->checks[v->nchecks++];
	c->scope = xstrdup(scope);
	c->name = xstrdup(name);
	c->value = value;
	c->limit = limit;
	c->unit = xstrdup(unit);
	c->rule = rule ? xstrdup(rule) : NULL;
	c->pass = pass;
	c->note = note ? xstrdup(note) : NULL;
	v->present = true;
}
