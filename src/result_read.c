// SPDX-License-Identifier: MIT
/* result_read.c: fslab-result/1 in: a result file read back and validated, every problem
 * named with the file and key. */
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

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
