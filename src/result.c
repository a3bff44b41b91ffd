// SPDX-License-Identifier: MIT
/* result.c: fslab-result/1 JSON (jansson): build, write atomically, read back and validate. */
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

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

void result_release(struct fslab_result *r)
{
	free(r->schema);
	free(r->label);
	free(r->fslab_version);
	free(r->started_at);
	free(r->ended_at);
	free(r->abort_reason);
	free(r->config.workload);
	free(r->config.engine);
	free(r->config.thresholds);
	free(r->config.target_iops_origin);
	strv_free(r->config.db_dirs, r->config.ndb_dirs);
	strv_free(r->config.log_dirs, r->config.nlog_dirs);
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
	for (size_t i = 0; i < r->ndevices; i++) {
		free(r->devices[i].role);
		free(r->devices[i].name);
		free(r->devices[i].model);
	}
	free(r->devices);
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
	memset(r, 0, sizeof(*r));
}

void class_result_finish(struct class_result *c, double seconds)
{
	const struct hist *h = c->hist;

	c->iops = seconds > 0 ? (double)c->ops / seconds : 0;
	c->mbps = seconds > 0 ? (double)c->bytes / seconds / 1e6 : 0;
	c->avg_bytes = c->ops ? (double)c->bytes / (double)c->ops : 0;
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

int timeline_row(const struct timeline *t, size_t i, double *row)
{
	size_t sz = sizeof(double) * t->ncols;

	if (i >= t->nrows)
		return -ERANGE;
	if (!t->spill) {
		memcpy(row, t->data + i * t->ncols, sz);
		return 0;
	}
	if (fseeko(t->spill, (off_t)(i * sz), SEEK_SET) || fread(row, sz, 1, t->spill) != 1)
		return -EIO;
	return 0;
}

void timeline_add_row(struct timeline *t, const double *row)
{
	if (t->spill) {
		/* a failed write loses the row: the file system of TMPDIR is full */
		fseeko(t->spill, 0, SEEK_END);
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

/* ---- writing ---- */

/* JSON has no NaN or infinity: write them as null. */
static json_t *jnum(double v)
{
	if (!isfinite(v))
		return json_null();
	return json_real(v);
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strv_to_json(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *hist_to_json(const struct hist *h)
{
	json_t *b = json_array();

	for (unsigned int i = 0; i < HIST_NR; i++)
		if (h->buckets[i])
			json_array_append_new(b, json_pack("[iI]", (int)i, (json_int_t)h->buckets[i]));
	return json_pack("{s:i, s:i, s:s, s:I, s:I, s:I, s:f, s:f, s:o}",
			 "bits", HIST_BITS, "groups", HIST_GROUPS, "unit", "ns",
			 "n", (json_int_t)h->n, "min", (json_int_t)(h->n ? h->min : 0),
			 "max", (json_int_t)h->max, "mean", hist_mean(h), "m2", hist_m2(h),
			 "buckets", b);
}

static json_t *class_to_json(const struct class_result *c, bool with_hist)
{
	const struct lat_summary *l = &c->lat_us;
	json_t *o;

	o = json_pack("{s:I, s:I, s:o, s:o, s:o, s:I}",
		      "ops", (json_int_t)c->ops, "bytes", (json_int_t)c->bytes,
		      "iops", jnum(c->iops), "mbps", jnum(c->mbps), "avg_bytes", jnum(c->avg_bytes),
		      "errors", (json_int_t)c->errors);
	json_object_set_new(o, "lat_us",
			    json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
				      "min", jnum(l->min), "mean", jnum(l->mean), "max", jnum(l->max),
				      "stddev", jnum(l->stddev), "p50", jnum(l->p50),
				      "p90", jnum(l->p90), "p99", jnum(l->p99),
				      "p99_9", jnum(l->p99_9), "p99_99", jnum(l->p99_99)));
	json_object_set_new(o, "min_bytes", json_integer((json_int_t)c->min_bytes));
	json_object_set_new(o, "max_bytes", json_integer((json_int_t)c->max_bytes));
	json_object_set_new(o, "ios_above_max_limit",
			    json_integer((json_int_t)c->ios_above_max_limit));
	if (with_hist && c->hist)
		json_object_set_new(o, "hist", hist_to_json(c->hist));
	return o;
}

static json_t *classes_to_json(const struct class_result *cls, bool with_hist)
{
	json_t *o = json_object();

	for (int i = 0; i < CLS_NR; i++)
		json_object_set_new(o, io_class_names[i], class_to_json(&cls[i], with_hist));
	return o;
}

/* The verdict's settings into the config object o (null where they do not apply). */
static void config_verdict_to_json(json_t *o, const struct run_config *cf)
{
	bool mb = cf->mailboxes > 0;

	json_object_set_new(o, "sample_interval_s",
			    cf->sample_interval_s > 0 ? jnum(cf->sample_interval_s) : json_null());
	json_object_set_new(o, "thresholds", jstr(cf->thresholds));
	json_object_set_new(o, "max_latency_errors", cf->thresholds
			    ? json_integer(cf->max_latency_errors) : json_null());
	json_object_set_new(o, "strict_io_tail", json_boolean(cf->strict_io_tail));
	json_object_set_new(o, "target_iops",
			    cf->target_iops > 0 ? jnum(cf->target_iops) : json_null());
	json_object_set_new(o, "target_iops_origin", jstr(cf->target_iops_origin));
	json_object_set_new(o, "mailboxes", mb ? json_integer(cf->mailboxes) : json_null());
	json_object_set_new(o, "iops_per_mailbox", mb ? jnum(cf->iops_per_mailbox) : json_null());
}

static json_t *latency_samples_to_json(const struct latency_samples *ls)
{
	json_t *scopes;

	if (!ls->present)
		return json_null();
	scopes = json_array();
	for (size_t i = 0; i < ls->nscopes; i++) {
		const struct latency_series *s = &ls->scopes[i];
		json_t *o = json_pack("{s:o}", "scope", jstr(s->scope));

		for (int k = 0; k < LS_NR; k++) {
			json_t *a = json_array();

			for (size_t j = 0; j < s->n[k]; j++)
				json_array_append_new(a, jnum(s->avg_ms[k][j]));
			json_object_set_new(o, lat_series_keys[k], a);
		}
		json_array_append_new(scopes, o);
	}
	return json_pack("{s:o, s:I, s:b, s:o}", "interval_s", jnum(ls->interval_s),
			 "intervals", (json_int_t)ls->intervals, "partial", ls->partial,
			 "scopes", scopes);
}

json_t *result_to_json(const struct fslab_result *r)
{
	const struct run_config *cf = &r->config;
	json_t *root, *a, *rows;

	root = json_object();
	json_object_set_new(root, "schema", json_string(RESULT_SCHEMA));
	json_object_set_new(root, "label", jstr(r->label));
	json_object_set_new(root, "fslab_version", jstr(r->fslab_version));
	json_object_set_new(root, "started_at", jstr(r->started_at));
	json_object_set_new(root, "ended_at", jstr(r->ended_at));
	json_object_set_new(root, "duration_s", jnum(r->duration_s));
	json_object_set_new(root, "aborted", json_boolean(r->aborted));
	json_object_set_new(root, "abort_reason", jstr(r->abort_reason));

	json_object_set_new(root, "config",
		json_pack("{s:o, s:o, s:i, s:i, s:i, s:I, s:I, s:I, s:o, s:o, s:I, s:i, s:o, s:o, s:o}",
			  "workload", jstr(cf->workload), "engine", jstr(cf->engine),
			  "threads", (int)cf->threads, "databases", (int)cf->databases,
			  "iodepth", (int)cf->iodepth, "db_size", (json_int_t)cf->db_size,
			  "bs", (json_int_t)cf->bs, "cache_size", (json_int_t)cf->cache_size,
			  "duration_s", jnum(cf->duration_s), "warmup_s", jnum(cf->warmup_s),
			  "seed", (json_int_t)cf->seed, "compressibility", (int)cf->compressibility,
			  "bdm_mbps", jnum(cf->bdm_mbps),
			  "db_dirs", strv_to_json(cf->db_dirs, cf->ndb_dirs),
			  "log_dirs", strv_to_json(cf->log_dirs, cf->nlog_dirs)));
	config_verdict_to_json(json_object_get(root, "config"), cf);
	json_object_set(root, "environment", r->environment ? r->environment : json_object());
	if (!r->environment)
		json_decref(json_object_get(root, "environment"));

	json_object_set_new(root, "classes", classes_to_json(r->classes, true));
	json_object_set_new(root, "transactional_iops", jnum(r->transactional_iops));
	json_object_set_new(root, "transactions_per_s", jnum(r->transactions_per_s));
	json_object_set_new(root, "transactions", json_integer((json_int_t)r->transactions));
	json_object_set_new(root, "db_page_fault_stalls",
			    json_integer((json_int_t)r->db_page_fault_stalls));

	a = json_array();
	for (size_t i = 0; i < r->ninstances; i++) {
		const struct instance_result *in = &r->instances[i];

		json_array_append_new(a,
			json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:b, s:o}",
				  "name", jstr(in->name), "db_file", jstr(in->db_file),
				  "log_dir", jstr(in->log_dir), "log_rolls", (json_int_t)in->log_rolls,
				  "log_nonsequential", (json_int_t)in->log_nonsequential,
				  "db_page_fault_stalls", (json_int_t)in->db_page_fault_stalls,
				  "pass", in->pass, "classes", classes_to_json(in->classes, false)));
	}
	json_object_set_new(root, "instances", a);

	a = json_array();
	for (size_t i = 0; i < r->ndevices; i++) {
		const struct device_result *d = &r->devices[i];

		json_array_append_new(a,
			json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:b}",
				  "role", jstr(d->role), "name", jstr(d->name), "model", jstr(d->model),
				  "read_ios", (json_int_t)d->read_ios,
				  "read_bytes", (json_int_t)d->read_bytes,
				  "write_ios", (json_int_t)d->write_ios,
				  "write_bytes", (json_int_t)d->write_bytes,
				  "discard_ios", (json_int_t)d->discard_ios,
				  "io_ticks_ms", (json_int_t)d->io_ticks_ms,
				  "util_pct", jnum(d->util_pct),
				  "write_amplification", jnum(d->write_amplification),
				  "read_ratio", jnum(d->read_ratio),
				  "cache_served_reads", d->cache_served_reads));
	}
	json_object_set_new(root, "devices", a);

	json_object_set_new(root, "host",
		json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:i}",
			  "cpu_pct_avg", jnum(r->host.cpu_pct_avg),
			  "cpu_pct_max", jnum(r->host.cpu_pct_max),
			  "cpu_user_pct", jnum(r->host.cpu_user_pct),
			  "cpu_sys_pct", jnum(r->host.cpu_sys_pct),
			  "cpu_iowait_pct", jnum(r->host.cpu_iowait_pct),
			  "mem_total", (json_int_t)r->host.mem_total,
			  "mem_used_avg", (json_int_t)r->host.mem_used_avg,
			  "mem_used_max", (json_int_t)r->host.mem_used_max,
			  "fslab_rss_max", (json_int_t)r->host.fslab_rss_max,
			  "ncpus", r->host.ncpus));

	json_object_set_new(root, "init",
		json_pack("{s:I, s:o, s:o, s:i, s:i}",
			  "bytes_written", (json_int_t)r->init.bytes_written,
			  "seconds", jnum(r->init.seconds), "mbps", jnum(r->init.mbps),
			  "reused", (int)r->init.reused, "created", (int)r->init.created));

	rows = json_array();
	{
		double *v = xcalloc(r->timeline.ncols + 1, sizeof(double));

		for (size_t i = 0; i < r->timeline.nrows; i++) {
			json_t *row = json_array();

			if (timeline_row(&r->timeline, i, v))
				break;
			for (size_t c = 0; c < r->timeline.ncols; c++)
				json_array_append_new(row, jnum(v[c]));
			json_array_append_new(rows, row);
		}
		free(v);
	}
	json_object_set_new(root, "timeline",
			    json_pack("{s:o, s:o}", "columns",
				      strv_to_json(r->timeline.cols, r->timeline.ncols), "rows", rows));

	json_object_set_new(root, "latency_samples", latency_samples_to_json(&r->latency_samples));

	a = json_array();
	for (size_t i = 0; i < r->verdict.nchecks; i++) {
		const struct verdict_check *c = &r->verdict.checks[i];

		json_array_append_new(a,
			json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
				  "scope", jstr(c->scope), "name", jstr(c->name),
				  "value", jnum(c->value), "limit", jnum(c->limit),
				  "unit", jstr(c->unit), "rule", jstr(c->rule), "pass", c->pass,
				  "note", jstr(c->note)));
	}
	if (r->verdict.present)
		json_object_set_new(root, "verdict",
				    json_pack("{s:b, s:o}", "pass", r->verdict.pass, "checks", a));
	else {
		json_decref(a);
		json_object_set_new(root, "verdict", json_null());
	}

	json_object_set_new(root, "checksum",
		json_pack("{s:b, s:I, s:I, s:I, s:o, s:o, s:o}",
			  "ran", r->checksum.ran, "pages", (json_int_t)r->checksum.pages,
			  "bad_pages", (json_int_t)r->checksum.bad_pages,
			  "bytes", (json_int_t)r->checksum.bytes,
			  "seconds", jnum(r->checksum.seconds), "mbps", jnum(r->checksum.mbps),
			  "first_bad", jstr(r->checksum.first_bad)));
	json_object_set(root, "notes", r->notes ? r->notes : json_array());
	if (!r->notes)
		json_decref(json_object_get(root, "notes"));
	return root;
}

/* One number as JSON text (JSON has no NaN/infinity: null), as jansson would print it. */
static void put_num(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == (double)(int64_t)v && fabs(v) < 1e15)
		fprintf(f, "%lld.0", (long long)v);
	else
		fprintf(f, "%.10g", v);
}

/*
 * The result is built as a jansson tree except the timeline's rows, which are streamed from
 * wherever they are (memory or the spill file): a two-hour or two-day run keeps constant
 * memory, no tree of a million numbers.
 */
int result_write(const struct fslab_result *r, const char *path)
{
	const struct timeline *t = &r->timeline;
	struct timeline empty = { .ncols = t->ncols, .cols = t->cols };
	struct fslab_result shallow = *r;
	struct atomic_file af;
	double *row;
	json_t *root;
	char *s;
	int ret;

	shallow.timeline = empty; /* no rows: they are streamed below */
	root = result_to_json(&shallow);
	json_object_del(root, "timeline");
	s = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (!s)
		return -ENOMEM;
	ret = atomic_open(&af, path);
	if (ret) {
		free(s);
		return ret;
	}
	/* everything but the closing brace, then the timeline, then the brace */
	fwrite(s, 1, strlen(s) - 1, af.f);
	free(s);
	fputs(",\n \"timeline\": {\n  \"columns\": [", af.f);
	for (size_t c = 0; c < t->ncols; c++) {
		json_t *name = json_string(t->cols[c]);
		char *q = json_dumps(name, JSON_ENCODE_ANY);

		fprintf(af.f, "%s%s", c ? ", " : "", q ? q : "\"?\"");
		free(q);
		json_decref(name);
	}
	fputs("],\n  \"rows\": [", af.f);
	row = xcalloc(t->ncols + 1, sizeof(double));
	for (size_t i = 0; i < t->nrows && !ret; i++) {
		ret = timeline_row(t, i, row);
		fputs(i ? ",\n   [" : "\n   [", af.f);
		for (size_t c = 0; c < t->ncols && !ret; c++) {
			if (c)
				fputs(", ", af.f);
			put_num(af.f, row[c]);
		}
		fputc(']', af.f);
	}
	free(row);
	fputs("\n  ]\n }\n}\n", af.f);
	if (ret) {
		atomic_abort(&af);
		return ret;
	}
	return atomic_commit(&af);
}

/* ---- reading ---- */

struct rd {
	const char *what;
	int err;
};

static int rd_fail(struct rd *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rd_fail(struct rd *rd, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (rd->err)
		return rd->err;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rd->err = input_error("%s: %s", rd->what, buf);
	return rd->err;
}

/* Number at key (int or real; null = NaN); missing = dflt; wrong type = error. */
static double rd_num(struct rd *rd, json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return dflt;
	if (json_is_null(v))
		return NAN;
	if (!json_is_number(v)) {
		rd_fail(rd, "\"%s\" must be a number; regenerate the file with 'fslab run'", key);
		return dflt;
	}
	return json_number_value(v);
}

static uint64_t rd_u64(struct rd *rd, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		rd_fail(rd, "\"%s\" must be a non-negative integer; regenerate the file with 'fslab run'",
			key);
		return 0;
	}
	return (uint64_t)json_integer_value(v);
}

static bool rd_bool(struct rd *rd, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return false;
	if (!json_is_boolean(v)) {
		rd_fail(rd, "\"%s\" must be true or false", key);
		return false;
	}
	return json_is_true(v);
}

/* Copy of the string at key, or NULL when missing/null. */
static char *rd_str(struct rd *rd, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		rd_fail(rd, "\"%s\" must be a string", key);
		return NULL;
	}
	return xstrdup(json_string_value(v));
}

static char **rd_strv(struct rd *rd, json_t *o, const char *key, size_t *n)
{
	json_t *a = json_object_get(o, key), *v;
	char **out;
	size_t i;

	*n = 0;
	if (!a || json_is_null(a))
		return NULL;
	if (!json_is_array(a)) {
		rd_fail(rd, "\"%s\" must be an array of strings", key);
		return NULL;
	}
	out = xcalloc(json_array_size(a) + 1, sizeof(char *));
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			rd_fail(rd, "\"%s\" must be an array of strings", key);
			break;
		}
		out[(*n)++] = xstrdup(json_string_value(v));
	}
	return out;
}

static json_t *rd_obj(struct rd *rd, json_t *o, const char *key, bool required)
{
	json_t *v = json_object_get(o, key);

	if ((!v || json_is_null(v)) && !required)
		return NULL;
	if (!json_is_object(v)) {
		rd_fail(rd, "\"%s\" is %s; expected an object (is this a complete fslab result?)", key,
			v ? "not an object" : "missing");
		return NULL;
	}
	return v;
}

static struct hist *rd_hist(struct rd *rd, json_t *o)
{
	json_t *b, *pair;
	struct hist *h;
	size_t i;

	if (!o)
		return NULL;
	if (rd_u64(rd, o, "bits") != HIST_BITS || rd_u64(rd, o, "groups") != HIST_GROUPS) {
		rd_fail(rd, "histogram layout is not bits=%d groups=%d", HIST_BITS, HIST_GROUPS);
		return NULL;
	}
	h = xmalloc(sizeof(*h));
	hist_init(h);
	h->n = rd_u64(rd, o, "n");
	h->min = h->n ? rd_u64(rd, o, "min") : UINT64_MAX;
	h->max = rd_u64(rd, o, "max");
	/* rebuild the sums from mean and m2 (exact enough for reporting) */
	{
		long double mean = rd_num(rd, o, "mean", 0), m2 = rd_num(rd, o, "m2", 0);

		h->sum = (unsigned __int128)(mean * h->n + 0.5L);
		h->sumsq = (unsigned __int128)(m2 + mean * mean * h->n + 0.5L);
	}
	b = json_object_get(o, "buckets");
	json_array_foreach(b, i, pair) {
		json_int_t idx = json_integer_value(json_array_get(pair, 0));
		json_int_t cnt = json_integer_value(json_array_get(pair, 1));

		if (!json_is_array(pair) || idx < 0 || idx >= HIST_NR || cnt < 0) {
			rd_fail(rd, "histogram bucket %zu is malformed", i);
			free(h);
			return NULL;
		}
		h->buckets[idx] = (uint64_t)cnt;
	}
	return h;
}

static void rd_class(struct rd *rd, json_t *o, struct class_result *c)
{
	json_t *l;

	if (!o)
		return;
	c->ops = rd_u64(rd, o, "ops");
	c->bytes = rd_u64(rd, o, "bytes");
	c->errors = rd_u64(rd, o, "errors");
	c->min_bytes = rd_u64(rd, o, "min_bytes");
	c->max_bytes = rd_u64(rd, o, "max_bytes");
	c->ios_above_max_limit = rd_u64(rd, o, "ios_above_max_limit");
	c->iops = rd_num(rd, o, "iops", 0);
	c->mbps = rd_num(rd, o, "mbps", 0);
	c->avg_bytes = rd_num(rd, o, "avg_bytes", 0);
	l = rd_obj(rd, o, "lat_us", false);
	if (l) {
		c->lat_us.min = rd_num(rd, l, "min", 0);
		c->lat_us.mean = rd_num(rd, l, "mean", 0);
		c->lat_us.max = rd_num(rd, l, "max", 0);
		c->lat_us.stddev = rd_num(rd, l, "stddev", 0);
		c->lat_us.p50 = rd_num(rd, l, "p50", 0);
		c->lat_us.p90 = rd_num(rd, l, "p90", 0);
		c->lat_us.p99 = rd_num(rd, l, "p99", 0);
		c->lat_us.p99_9 = rd_num(rd, l, "p99_9", 0);
		c->lat_us.p99_99 = rd_num(rd, l, "p99_99", 0);
	}
	c->hist = rd_hist(rd, rd_obj(rd, o, "hist", false));
}

static void rd_classes(struct rd *rd, json_t *o, struct class_result *cls, bool required)
{
	if (!o)
		return;
	for (int i = 0; i < CLS_NR; i++) {
		json_t *c = rd_obj(rd, o, io_class_names[i], required);

		rd_class(rd, c, &cls[i]);
	}
}

/* A number that may be null or missing (0 then). */
static double rd_num0(struct rd *rd, json_t *o, const char *key)
{
	double v = rd_num(rd, o, key, 0);

	return isnan(v) ? 0 : v;
}

/* The verdict's settings in config (missing in older files: left zero/NULL). */
static void rd_config_verdict(struct rd *rd, json_t *o, struct run_config *cf)
{
	cf->sample_interval_s = rd_num0(rd, o, "sample_interval_s");
	cf->thresholds = rd_str(rd, o, "thresholds");
	cf->max_latency_errors = (unsigned int)rd_u64(rd, o, "max_latency_errors");
	cf->strict_io_tail = rd_bool(rd, o, "strict_io_tail");
	cf->target_iops = rd_num0(rd, o, "target_iops");
	cf->target_iops_origin = rd_str(rd, o, "target_iops_origin");
	cf->mailboxes = (unsigned int)rd_u64(rd, o, "mailboxes");
	cf->iops_per_mailbox = rd_num0(rd, o, "iops_per_mailbox");
}

/* "latency_samples" (null or missing in older files: not present). */
static void rd_latency_samples(struct rd *rd, json_t *o, struct latency_samples *ls)
{
	json_t *a, *v;
	size_t i;

	if (!o)
		return;
	a = json_object_get(o, "scopes");
	if (!json_is_array(a)) {
		rd_fail(rd, "\"latency_samples\" has no \"scopes\" array; regenerate the file with "
			"'fslab run'");
		return;
	}
	ls->present = true;
	ls->interval_s = rd_num0(rd, o, "interval_s");
	ls->intervals = rd_u64(rd, o, "intervals");
	ls->partial = rd_bool(rd, o, "partial");
	ls->scopes = xcalloc(json_array_size(a) + 1, sizeof(*ls->scopes));
	json_array_foreach(a, i, v) {
		struct latency_series *s = &ls->scopes[ls->nscopes++];

		if (!json_is_object(v)) {
			rd_fail(rd, "latency_samples scope %zu is not an object", i);
			return;
		}
		s->scope = rd_str(rd, v, "scope");
		for (int k = 0; k < LS_NR; k++) {
			json_t *arr = json_object_get(v, lat_series_keys[k]), *x;
			size_t j;

			if (!arr || json_is_null(arr))
				continue;
			if (!json_is_array(arr)) {
				rd_fail(rd, "latency_samples \"%s\" must be an array of numbers",
					lat_series_keys[k]);
				return;
			}
			s->avg_ms[k] = xcalloc(json_array_size(arr) + 1, sizeof(double));
			json_array_foreach(arr, j, x) {
				if (!json_is_number(x)) {
					rd_fail(rd, "latency_samples \"%s\" must be an array of numbers",
						lat_series_keys[k]);
					return;
				}
				s->avg_ms[k][s->n[k]++] = json_number_value(x);
			}
		}
	}
}

int result_from_json(json_t *root, const char *what, struct fslab_result *r)
{
	struct rd rd = { .what = what };
	struct run_config *cf = &r->config;
	json_t *o, *a, *v;
	size_t i;

	result_init(r);
	if (!json_is_object(root))
		return rd_fail(&rd, "not an fslab result (top level is not a JSON object)");
	o = json_object_get(root, "schema");
	if (!json_is_string(o))
		return rd_fail(&rd, "not an fslab result (no \"schema\" key); give files written by "
			       "'fslab run'");
	if (strcmp(json_string_value(o), RESULT_SCHEMA))
		return rd_fail(&rd, "unknown schema version \"%s\" (this fslab reads \"%s\"); use the "
			       "fslab version that wrote it", json_string_value(o), RESULT_SCHEMA);
	r->schema = xstrdup(json_string_value(o));
	r->label = rd_str(&rd, root, "label");
	if (!r->label && !rd.err)
		return rd_fail(&rd, "no \"label\"; give files written by 'fslab run'");
	r->fslab_version = rd_str(&rd, root, "fslab_version");
	r->started_at = rd_str(&rd, root, "started_at");
	r->ended_at = rd_str(&rd, root, "ended_at");
	r->duration_s = rd_num(&rd, root, "duration_s", 0);
	r->aborted = rd_bool(&rd, root, "aborted");
	r->abort_reason = rd_str(&rd, root, "abort_reason");

	o = rd_obj(&rd, root, "config", true);
	if (o) {
		cf->workload = rd_str(&rd, o, "workload");
		cf->engine = rd_str(&rd, o, "engine");
		cf->threads = rd_u64(&rd, o, "threads");
		cf->databases = rd_u64(&rd, o, "databases");
		cf->iodepth = rd_u64(&rd, o, "iodepth");
		cf->db_size = rd_u64(&rd, o, "db_size");
		cf->bs = rd_u64(&rd, o, "bs");
		cf->cache_size = rd_u64(&rd, o, "cache_size");
		cf->duration_s = rd_num(&rd, o, "duration_s", 0);
		cf->warmup_s = rd_num(&rd, o, "warmup_s", 0);
		cf->seed = rd_u64(&rd, o, "seed");
		cf->compressibility = rd_u64(&rd, o, "compressibility");
		cf->bdm_mbps = rd_num(&rd, o, "bdm_mbps", 0);
		cf->db_dirs = rd_strv(&rd, o, "db_dirs", &cf->ndb_dirs);
		cf->log_dirs = rd_strv(&rd, o, "log_dirs", &cf->nlog_dirs);
		rd_config_verdict(&rd, o, cf);
		if (!cf->workload && !rd.err)
			rd_fail(&rd, "\"config\" has no \"workload\"");
	}
	o = rd_obj(&rd, root, "environment", false);
	r->environment = o ? json_incref(o) : json_object();

	rd_classes(&rd, rd_obj(&rd, root, "classes", true), r->classes, true);
	r->transactional_iops = rd_num(&rd, root, "transactional_iops", 0);
	r->transactions_per_s = rd_num(&rd, root, "transactions_per_s", 0);
	r->transactions = rd_u64(&rd, root, "transactions");
	r->db_page_fault_stalls = rd_u64(&rd, root, "db_page_fault_stalls");

	a = json_object_get(root, "instances");
	if (json_is_array(a) && json_array_size(a)) {
		r->instances = xcalloc(json_array_size(a), sizeof(*r->instances));
		json_array_foreach(a, i, v) {
			struct instance_result *in = &r->instances[r->ninstances++];

			in->name = rd_str(&rd, v, "name");
			in->db_file = rd_str(&rd, v, "db_file");
			in->log_dir = rd_str(&rd, v, "log_dir");
			in->log_rolls = rd_u64(&rd, v, "log_rolls");
			in->log_nonsequential = rd_u64(&rd, v, "log_nonsequential");
			in->db_page_fault_stalls = rd_u64(&rd, v, "db_page_fault_stalls");
			in->pass = rd_bool(&rd, v, "pass");
			rd_classes(&rd, rd_obj(&rd, v, "classes", false), in->classes, false);
		}
	}

	a = json_object_get(root, "devices");
	if (json_is_array(a) && json_array_size(a)) {
		r->devices = xcalloc(json_array_size(a), sizeof(*r->devices));
		json_array_foreach(a, i, v) {
			struct device_result *d = &r->devices[r->ndevices++];

			d->role = rd_str(&rd, v, "role");
			d->name = rd_str(&rd, v, "name");
			d->model = rd_str(&rd, v, "model");
			d->read_ios = rd_u64(&rd, v, "read_ios");
			d->read_bytes = rd_u64(&rd, v, "read_bytes");
			d->write_ios = rd_u64(&rd, v, "write_ios");
			d->write_bytes = rd_u64(&rd, v, "write_bytes");
			d->discard_ios = rd_u64(&rd, v, "discard_ios");
			d->io_ticks_ms = rd_u64(&rd, v, "io_ticks_ms");
			d->util_pct = rd_num(&rd, v, "util_pct", 0);
			d->write_amplification = rd_num(&rd, v, "write_amplification", 0);
			d->read_ratio = rd_num(&rd, v, "read_ratio", 0);
			d->cache_served_reads = rd_bool(&rd, v, "cache_served_reads");
		}
	}

	o = rd_obj(&rd, root, "host", false);
	if (o) {
		r->host.cpu_pct_avg = rd_num(&rd, o, "cpu_pct_avg", 0);
		r->host.cpu_pct_max = rd_num(&rd, o, "cpu_pct_max", 0);
		r->host.cpu_user_pct = rd_num(&rd, o, "cpu_user_pct", 0);
		r->host.cpu_sys_pct = rd_num(&rd, o, "cpu_sys_pct", 0);
		r->host.cpu_iowait_pct = rd_num(&rd, o, "cpu_iowait_pct", 0);
		r->host.mem_total = rd_u64(&rd, o, "mem_total");
		r->host.mem_used_avg = rd_u64(&rd, o, "mem_used_avg");
		r->host.mem_used_max = rd_u64(&rd, o, "mem_used_max");
		r->host.fslab_rss_max = rd_u64(&rd, o, "fslab_rss_max");
		r->host.ncpus = (int)rd_u64(&rd, o, "ncpus");
	}
	o = rd_obj(&rd, root, "init", false);
	if (o) {
		r->init.bytes_written = rd_u64(&rd, o, "bytes_written");
		r->init.seconds = rd_num(&rd, o, "seconds", 0);
		r->init.mbps = rd_num(&rd, o, "mbps", 0);
		r->init.reused = rd_u64(&rd, o, "reused");
		r->init.created = rd_u64(&rd, o, "created");
	}

	o = rd_obj(&rd, root, "timeline", false);
	if (o) {
		json_t *cols = json_object_get(o, "columns"), *rows = json_object_get(o, "rows");
		size_t nc = json_array_size(cols);
		const char **names = xcalloc(nc + 1, sizeof(char *));
		double *row = xcalloc(nc + 1, sizeof(double));

		json_array_foreach(cols, i, v)
			names[i] = json_is_string(v) ? json_string_value(v) : "?";
		timeline_init(&r->timeline, names, nc);
		json_array_foreach(rows, i, v) {
			json_t *x;
			size_t c;

			if (!json_is_array(v) || json_array_size(v) != nc) {
				rd_fail(&rd, "timeline row %zu has %zu values, expected %zu", i,
					json_array_size(v), nc);
				break;
			}
			json_array_foreach(v, c, x)
				row[c] = json_is_number(x) ? json_number_value(x) : NAN;
			timeline_add_row(&r->timeline, row);
		}
		free(names);
		free(row);
	}

	rd_latency_samples(&rd, rd_obj(&rd, root, "latency_samples", false), &r->latency_samples);

	o = rd_obj(&rd, root, "verdict", false);
	if (o) {
		r->verdict.present = true;
		r->verdict.pass = rd_bool(&rd, o, "pass");
		a = json_object_get(o, "checks");
		json_array_foreach(a, i, v) {
			char *scope = rd_str(&rd, v, "scope"), *name = rd_str(&rd, v, "name");
			char *unit = rd_str(&rd, v, "unit"), *note = rd_str(&rd, v, "note");
			char *rule = rd_str(&rd, v, "rule");

			verdict_add_rule(&r->verdict, scope ? scope : "overall", name ? name : "?",
					 rd_num(&rd, v, "value", 0), rd_num(&rd, v, "limit", 0),
					 unit ? unit : "", rule, rd_bool(&rd, v, "pass"), note);
			free(scope);
			free(name);
			free(unit);
			free(rule);
			free(note);
		}
	}
	o = rd_obj(&rd, root, "checksum", false);
	if (o) {
		r->checksum.ran = rd_bool(&rd, o, "ran");
		r->checksum.pages = rd_u64(&rd, o, "pages");
		r->checksum.bad_pages = rd_u64(&rd, o, "bad_pages");
		r->checksum.bytes = rd_u64(&rd, o, "bytes");
		r->checksum.seconds = rd_num(&rd, o, "seconds", 0);
		r->checksum.mbps = rd_num(&rd, o, "mbps", 0);
		r->checksum.first_bad = rd_str(&rd, o, "first_bad");
	}
	a = json_object_get(root, "notes");
	if (json_is_array(a)) {
		json_decref(r->notes);
		r->notes = json_incref(a);
	}
	return rd.err;
}

int result_read(const char *path, struct fslab_result *r)
{
	json_error_t jerr;
	json_t *root;
	int ret;

	root = json_load_file(path, 0, &jerr);
	if (!root) {
		result_init(r);
		if (jerr.line < 0 || strstr(jerr.text, "unable to open"))
			return input_error("%s: cannot read the result file (%s); check the path",
					   path, jerr.text);
		return input_error("%s: not valid JSON at line %d column %d (%s); the file is "
				   "truncated or not an fslab result, re-run 'fslab run'",
				   path, jerr.line, jerr.column, jerr.text);
	}
	ret = result_from_json(root, path, r);
	json_decref(root);
	return ret;
}
