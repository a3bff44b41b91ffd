// SPDX-License-Identifier: MIT
/* result_write.c: fslab-result/1 out: the result as JSON (jansson), written atomically. */
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

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
