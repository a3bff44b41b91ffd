// SPDX-License-Identifier: MIT
/*
 * result_fields.c: fslab-result/1 as one table of fields (key, type, where in struct fslab_result,
 * required or not) that both the writer and the reader walk, and the few fields with a shape of
 * their own (histograms, classes, timeline, latency samples, verdict, environment, notes).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "result/resultP.h"
#include "lib/units.h"

#define F(s, k, t, m, ...) { .key = k, .type = t, .off = offsetof(s, m), __VA_ARGS__ }

/* ---- fields with a shape of their own ---- */

static json_t *schema_write(const void *p)
{
	(void)p;
	return json_string(RESULT_SCHEMA);
}

/* checked by result_from_json() before anything else */
static void schema_read(struct rd *rd, json_t *o, const char *key, void *p)
{
	(void)rd, (void)o, (void)key, (void)p;
}

static json_t *hist_write(const void *p)
{
	const struct hist *h = *(struct hist *const *)p;
	json_t *b;

	if (!h)
		return NULL;
	b = json_array();
	for (unsigned int i = 0; i < HIST_NR; i++)
		if (h->buckets[i])
			json_array_append_new(b, json_pack("[iI]", (int)i, (json_int_t)h->buckets[i]));
	return json_pack("{s:i, s:i, s:s, s:I, s:I, s:I, s:f, s:f, s:o}",
			 "bits", HIST_BITS, "groups", HIST_GROUPS, "unit", "ns",
			 "n", (json_int_t)h->n, "min", (json_int_t)(h->n ? h->min : 0),
			 "max", (json_int_t)h->max, "mean", hist_mean(h), "m2", hist_m2(h),
			 "buckets", b);
}

static void hist_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false), *b, *pair;
	struct hist *h;
	size_t i;

	if (!o)
		return;
	if (rd_u64(rd, o, "bits") != HIST_BITS || rd_u64(rd, o, "groups") != HIST_GROUPS) {
		rd_fail(rd, "histogram layout is not bits=%d groups=%d", HIST_BITS, HIST_GROUPS);
		return;
	}
	/* its values are nanoseconds: another unit would scale every latency read from it */
	b = json_object_get(o, "unit");
	if (b && !(json_is_string(b) && !strcmp(json_string_value(b), "ns"))) {
		rd_fail(rd, "histogram \"unit\" is %s%s%s, not \"ns\" (the only unit fslab writes); "
			"the file was edited or damaged: re-run it", json_is_string(b) ? "\"" : "",
			json_is_string(b) ? json_string_value(b) : "not a string",
			json_is_string(b) ? "\"" : "");
		return;
	}
	h = xmalloc(sizeof(*h));
	hist_init(h);
	h->n = rd_u64(rd, o, "n");
	h->min = h->n ? rd_u64(rd, o, "min") : UINT64_MAX;
	h->max = rd_u64(rd, o, "max");
	/* rebuild the sums from mean and m2 (exact enough for reporting) */
	{
		long double mean = rd_num(rd, o, "mean", 0), m2 = rd_num(rd, o, "m2", 0);
		long double sum = mean * h->n + 0.5L, sumsq = m2 + mean * mean * h->n + 0.5L;

		/* a damaged or hostile file: the conversion of a value outside 0..2^127 is undefined */
		if (!(mean >= 0 && m2 >= 0 && sum < 0x1p127L && sumsq < 0x1p127L)) {
			rd_fail(rd, "histogram mean or m2 out of range (the file was edited or damaged: re-run it)");
			free(h);
			return;
		}
		h->sum = (unsigned __int128)sum;
		h->sumsq = (unsigned __int128)sumsq;
	}
	b = json_object_get(o, "buckets");
	if (b && !json_is_array(b)) {
		rd_fail(rd, "histogram \"buckets\" must be an array of [index, count] pairs");
		free(h);
		return;
	}
	json_array_foreach(b, i, pair) {
		json_t *ji = json_array_get(pair, 0), *jc = json_array_get(pair, 1);
		json_int_t idx = json_integer_value(ji), cnt = json_integer_value(jc);

		/* integers only: 1.5 or "7" would otherwise read as 0 (json_integer_value) */
		if (json_array_size(pair) != 2 || !json_is_integer(ji) || !json_is_integer(jc) ||
		    idx < 0 || idx >= HIST_NR || cnt < 0) {
			rd_fail(rd, "histogram bucket %zu is malformed (not an [index, count] pair of "
				"integers, index 0..%d)", i, HIST_NR - 1);
			free(h);
			return;
		}
		h->buckets[idx] = (uint64_t)cnt;
	}
	*(struct hist **)p = h;
}

static const struct rfield lat_fields[] = {
	F(struct lat_summary, "min", RF_REAL, min),
	F(struct lat_summary, "mean", RF_REAL, mean),
	F(struct lat_summary, "max", RF_REAL, max),
	F(struct lat_summary, "stddev", RF_REAL, stddev),
	F(struct lat_summary, "p50", RF_REAL, p50),
	F(struct lat_summary, "p90", RF_REAL, p90),
	F(struct lat_summary, "p99", RF_REAL, p99),
	F(struct lat_summary, "p99_9", RF_REAL, p99_9),
	F(struct lat_summary, "p99_99", RF_REAL, p99_99),
	{ NULL },
};

/* One class; the overall classes carry their histogram, an instance's do not. */
#define CLASS_FIELDS \
	F(struct class_result, "ops", RF_U64, ops), \
	F(struct class_result, "bytes", RF_U64, bytes), \
	F(struct class_result, "iops", RF_REAL, iops), \
	F(struct class_result, "mbps", RF_REAL, mbps), \
	F(struct class_result, "avg_bytes", RF_REAL, avg_bytes), \
	F(struct class_result, "errors", RF_U64, errors), \
	F(struct class_result, "lat_us", RF_OBJ, lat_us, .sub = lat_fields), \
	F(struct class_result, "min_bytes", RF_U64, min_bytes), \
	F(struct class_result, "max_bytes", RF_U64, max_bytes), \
	F(struct class_result, "ios_above_max_limit", RF_U64, ios_above_max_limit)

static const struct rfield class_fields[] = {
	CLASS_FIELDS,
	F(struct class_result, "hist", RF_CUSTOM, hist, .write = hist_write, .read = hist_read),
	{ NULL },
};

static const struct rfield class_fields_nohist[] = {
	CLASS_FIELDS,
	{ NULL },
};

/* "classes": one object per class, keyed by io_class_names[] */
static json_t *classes_write_f(const struct rfield *f, const struct class_result *cls)
{
	json_t *o = json_object();

	for (int i = 0; i < CLS_NR; i++)
		json_object_set_new(o, io_class_names[i], rf_to_json(f, &cls[i]));
	return o;
}

static void classes_read_f(struct rd *rd, json_t *parent, const char *key, void *p,
			   const struct rfield *f, bool required)
{
	json_t *o = rd_obj(rd, parent, key, required);
	struct class_result *cls = p;

	for (int i = 0; o && i < CLS_NR; i++) {
		json_t *c = rd_obj(rd, o, io_class_names[i], required);

		if (c)
			rf_from_json(rd, c, f, &cls[i], io_class_names[i]);
	}
}

static json_t *classes_write(const void *p)
{
	return classes_write_f(class_fields, p);
}

static void classes_read(struct rd *rd, json_t *o, const char *key, void *p)
{
	classes_read_f(rd, o, key, p, class_fields, true);
}

static json_t *inst_classes_write(const void *p)
{
	return classes_write_f(class_fields_nohist, p);
}

static void inst_classes_read(struct rd *rd, json_t *o, const char *key, void *p)
{
	classes_read_f(rd, o, key, p, class_fields_nohist, false);
}

/* "environment" and "notes": JSON kept as it is */
static json_t *env_write(const void *p)
{
	json_t *e = *(json_t *const *)p;

	return e ? json_incref(e) : json_object();
}

static void env_read(struct rd *rd, json_t *o, const char *key, void *p)
{
	json_t *e = rd_obj(rd, o, key, false);

	*(json_t **)p = e ? json_incref(e) : json_object();
}

static json_t *notes_write(const void *p)
{
	json_t *n = *(json_t *const *)p;

	return n ? json_incref(n) : json_array();
}

static void notes_read(struct rd *rd, json_t *o, const char *key, void *p)
{
	json_t *a = json_object_get(o, key);

	(void)rd;
	if (json_is_array(a)) {
		json_decref(*(json_t **)p);
		*(json_t **)p = json_incref(a);
	}
}

/* "timeline": column names and rows of numbers (result_write() streams the rows instead) */
static json_t *timeline_write(const void *p)
{
	const struct timeline *t = p;
	double *v = xcalloc(t->ncols + 1, sizeof(double));
	json_t *rows = json_array();

	for (size_t i = 0; i < t->nrows; i++) {
		json_t *row = json_array();

		if (timeline_row(t, i, v)) {
			json_decref(row);
			break;
		}
		for (size_t c = 0; c < t->ncols; c++)
			json_array_append_new(row, jnum(v[c]));
		json_array_append_new(rows, row);
	}
	free(v);
	return json_pack("{s:o, s:o}", "columns", strv_to_json(t->cols, t->ncols), "rows", rows);
}

int rd_timeline_limit(struct rd *rd, size_t nrows)
{
	if (nrows <= TIMELINE_MAX_ROWS)
		return 0;
	return rd_fail(rd, "a timeline of %zu rows, more than fslab reads (at most %u: 48 days at "
		       "one row per second, fslab run measures 30 days at most); the file was "
		       "edited or damaged", nrows, TIMELINE_MAX_ROWS);
}

int rd_timeline_row(struct rd *rd, struct timeline *t, json_t *v, size_t i, double *row)
{
	json_t *x;
	size_t c, n;

	if (!json_is_array(v) || json_array_size(v) != t->ncols)
		return rd_fail(rd, "timeline row %zu has %zu values, expected %zu", i,
			       json_array_size(v), t->ncols);
	json_array_foreach(v, c, x) {
		if (!json_is_number(x) && !json_is_null(x))
			return rd_fail(rd, "timeline row %zu, column %zu is not a number", i, c);
		row[c] = json_is_number(x) ? json_number_value(x) : NAN;
	}
	n = t->nrows;
	timeline_add_row(t, row);
	if (t->nrows == n) /* spilled, and the write failed: never a row lost without a word */
		return rd_timeline_end(rd, t);
	/* a long timeline goes to a temporary file (kept in memory when that fails) */
	if (t->nrows == TIMELINE_MEM_ROWS && !t->spill) {
		int e = timeline_spill(t);

		if (e)
			fslab_warn("%s: cannot keep its long timeline in a temporary file (%s); "
				   "reading it into memory", rd->what, strerror(-e));
	}
	return 0;
}

int rd_timeline_end(struct rd *rd, struct timeline *t)
{
	if (rd->err || !t->spill || (!ferror(t->spill) && !fflush(t->spill)))
		return rd->err;
	/* not bad input: exit 1, not 2 */
	fslab_err("%s: cannot keep its long timeline in a temporary file (%s); free space in "
		  "the temporary directory (/tmp)", rd->what, strerror(errno ? errno : EIO));
	return rd->err = -EIO;
}

static void timeline_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false), *cols, *rows, *v;
	struct timeline *t = p;
	const char **names;
	double *row;
	size_t nc, i;

	if (!o)
		return;
	cols = json_object_get(o, "columns");
	rows = json_object_get(o, "rows");
	nc = json_array_size(cols);
	if (nc > TIMELINE_MAX_COLS) {
		rd_fail(rd, "a timeline of %zu columns, more than fslab reads (at most %d); the "
			"file was edited or damaged", nc, TIMELINE_MAX_COLS);
		return;
	}
	if (rd_timeline_limit(rd, json_array_size(rows)))
		return;
	names = xcalloc(nc + 1, sizeof(char *));
	row = xcalloc(nc + 1, sizeof(double));
	json_array_foreach(cols, i, v)
		names[i] = json_is_string(v) ? json_string_value(v) : "?";
	timeline_init(t, names, nc);
	json_array_foreach(rows, i, v)
		if (rd_timeline_row(rd, t, v, i, row))
			break;
	rd_timeline_end(rd, t);
	free(names);
	free(row);
}

/* "latency_samples": null unless present; per scope one array of averages per series */
static json_t *samples_write(const void *p)
{
	const struct latency_samples *ls = p;
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

static void samples_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false), *a, *v;
	struct latency_samples *ls = p;
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

static const struct rfield check_fields[] = {
	F(struct verdict_check, "scope", RF_STR, scope),
	F(struct verdict_check, "name", RF_STR, name),
	F(struct verdict_check, "value", RF_REAL, value),
	F(struct verdict_check, "limit", RF_REAL, limit),
	F(struct verdict_check, "unit", RF_STR, unit),
	F(struct verdict_check, "rule", RF_STR, rule),
	F(struct verdict_check, "pass", RF_BOOL, pass),
	F(struct verdict_check, "note", RF_STR, note),
	{ NULL },
};

/* "verdict": null unless present */
static json_t *verdict_write(const void *p)
{
	const struct verdict *v = p;
	json_t *a;

	if (!v->present)
		return json_null();
	a = json_array();
	for (size_t i = 0; i < v->nchecks; i++)
		json_array_append_new(a, rf_to_json(check_fields, &v->checks[i]));
	return json_pack("{s:b, s:o}", "pass", v->pass, "checks", a);
}

static void verdict_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false), *a, *v;
	struct verdict *vd = p;
	size_t i;

	if (!o)
		return;
	vd->present = true;
	vd->pass = rd_bool(rd, o, "pass");
	a = json_object_get(o, "checks");
	json_array_foreach(a, i, v) {
		struct verdict_check c = { 0 };

		rf_from_json(rd, v, check_fields, &c, "checks");
		/* the defaults of a check without them */
		verdict_add_rule(vd, c.scope ? c.scope : "overall", c.name ? c.name : "?", c.value,
				 c.limit, c.unit ? c.unit : "", c.rule, c.pass, c.note);
		free(c.scope);
		free(c.name);
		free(c.unit);
		free(c.rule);
		free(c.note);
	}
}

/* ---- the tables ---- */

/* config's verdict settings are null where they do not apply */
static bool has_interval(const void *b)
{
	return ((const struct run_config *)b)->sample_interval_s > 0;
}

static bool has_thresholds(const void *b)
{
	return ((const struct run_config *)b)->thresholds != NULL;
}

static bool has_target(const void *b)
{
	return ((const struct run_config *)b)->target_iops > 0;
}

static bool has_mailboxes(const void *b)
{
	return ((const struct run_config *)b)->mailboxes > 0;
}

#define C(k, t, m, ...) F(struct run_config, k, t, m, __VA_ARGS__)
static const struct rfield config_fields[] = {
	C("workload", RF_STR, workload, .flags = RF_REQUIRED),
	C("engine", RF_STR, engine),
	C("threads", RF_UINT, threads),
	C("databases", RF_UINT, databases),
	C("iodepth", RF_UINT, iodepth),
	C("rwmixread", RF_UINT, rwmixread),
	C("db_size", RF_U64, db_size),
	C("bs", RF_U64, bs),
	C("cache_size", RF_U64, cache_size),
	C("duration_s", RF_REAL, duration_s),
	C("warmup_s", RF_REAL, warmup_s),
	C("seed", RF_U64, seed),
	C("compressibility", RF_UINT, compressibility),
	C("bdm_mbps", RF_REAL, bdm_mbps),
	C("buffered", RF_BOOL, buffered),
	C("no_verify", RF_BOOL, no_verify),
	C("no_checksum_pass", RF_BOOL, no_checksum_pass),
	C("no_drop_caches", RF_BOOL, no_drop_caches),
	C("db_dirs", RF_STRV, db_dirs, .off_n = offsetof(struct run_config, ndb_dirs)),
	C("log_dirs", RF_STRV, log_dirs, .off_n = offsetof(struct run_config, nlog_dirs)),
	/* how the verdict judged: missing in older files, read as zero / NULL */
	C("sample_interval_s", RF_REAL, sample_interval_s, .flags = RF_NAN0,
	  .present = has_interval),
	C("thresholds", RF_STR, thresholds),
	C("max_latency_errors", RF_UINT, max_latency_errors, .present = has_thresholds),
	C("strict_io_tail", RF_BOOL, strict_io_tail),
	C("target_iops", RF_REAL, target_iops, .flags = RF_NAN0, .present = has_target),
	C("target_iops_origin", RF_STR, target_iops_origin),
	C("mailboxes", RF_UINT, mailboxes, .present = has_mailboxes),
	C("iops_per_mailbox", RF_REAL, iops_per_mailbox, .flags = RF_NAN0,
	  .present = has_mailboxes),
	/* steady state: missing in older files (not recorded) */
	C("warmup_steady", RF_BOOL, warmup_steady),
	C("steady_cap_s", RF_REAL, steady_cap_s, .flags = RF_NAN0),
	C("steady_window", RF_UINT, steady_window),
	C("steady_interval_s", RF_REAL, steady_interval_s, .flags = RF_NAN0),
	C("steady_range_pct", RF_REAL, steady_range_pct, .flags = RF_NAN0),
	C("steady_excursion_pct", RF_REAL, steady_excursion_pct, .flags = RF_NAN0),
	C("precondition", RF_UINT, precondition),
	/* --threads auto: missing in older files and runs at a fixed count (not recorded) */
	C("threads_auto", RF_BOOL, threads_auto),
	C("tune_window", RF_UINT, tune_window),
	C("tune_interval_s", RF_REAL, tune_interval_s, .flags = RF_NAN0),
	C("tune_slope_pct", RF_REAL, tune_slope_pct, .flags = RF_NAN0),
	C("tune_judge_s", RF_REAL, tune_judge_s, .flags = RF_NAN0),
	C("tune_step_cap_s", RF_REAL, tune_step_cap_s, .flags = RF_NAN0),
	C("tune_cap_s", RF_REAL, tune_cap_s, .flags = RF_NAN0),
	C("tune_max_threads", RF_UINT, tune_max_threads),
	C("recovery_logs", RF_UINT, recovery_logs), /* the recovery workload's */
	{ NULL },
};
#undef C

/* The n/a bit of the config field at off, or 0 when off is not one of the file's. */
static uint64_t na_bit(size_t off)
{
	for (size_t i = 0; config_fields[i].key; i++)
		if (config_fields[i].off == off)
			return UINT64_C(1) << i;
	return 0;
}

void run_config_set_na(struct run_config *c, size_t off)
{
	c->na |= na_bit(off);
}

void run_config_clear_na(struct run_config *c, size_t off)
{
	c->na &= ~na_bit(off);
}

const char *run_config_key(size_t off)
{
	for (size_t i = 0; config_fields[i].key; i++)
		if (config_fields[i].off == off)
			return config_fields[i].key;
	return NULL;
}

bool run_config_has(const struct run_config *c, size_t off)
{
	return !(c->na & na_bit(off));
}

/* "config": the fields, those not recorded left out (and an absent key read as such) */
static json_t *config_write(const void *p)
{
	const struct run_config *c = p;
	json_t *o = rf_to_json(config_fields, c);

	for (size_t i = 0; config_fields[i].key; i++)
		if (c->na & (UINT64_C(1) << i))
			json_object_del(o, config_fields[i].key);
	return o;
}

static void config_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, true);
	struct run_config *c = p;

	if (!o)
		return;
	rf_from_json(rd, o, config_fields, c, key);
	for (size_t i = 0; config_fields[i].key; i++)
		if (!json_object_get(o, config_fields[i].key))
			c->na |= UINT64_C(1) << i;
}

#define I(k, t, m, ...) F(struct instance_result, k, t, m, __VA_ARGS__)
static const struct rfield instance_fields[] = {
	I("name", RF_STR, name),
	I("db_file", RF_STR, db_file),
	I("log_dir", RF_STR, log_dir),
	I("log_rolls", RF_U64, log_rolls),
	I("log_nonsequential", RF_U64, log_nonsequential),
	I("db_page_fault_stalls", RF_U64, db_page_fault_stalls),
	I("pass", RF_BOOL, pass),
	I("classes", RF_CUSTOM, classes, .write = inst_classes_write, .read = inst_classes_read),
	{ NULL },
};
#undef I

#define D(k, t, m) F(struct device_result, k, t, m)
static const struct rfield device_fields[] = {
	D("role", RF_STR, role),
	D("name", RF_STR, name),
	D("model", RF_STR, model),
	D("read_ios", RF_U64, read_ios),
	D("read_bytes", RF_U64, read_bytes),
	D("write_ios", RF_U64, write_ios),
	D("write_bytes", RF_U64, write_bytes),
	D("discard_ios", RF_U64, discard_ios),
	D("io_ticks_ms", RF_U64, io_ticks_ms),
	D("util_pct", RF_REAL, util_pct),
	D("write_amplification", RF_REAL, write_amplification),
	D("read_ratio", RF_REAL, read_ratio),
	D("cache_served_reads", RF_BOOL, cache_served_reads),
	{ NULL },
};
#undef D

#define H(k, t, m) F(struct host_result, k, t, m)
static const struct rfield host_fields[] = {
	H("cpu_pct_avg", RF_REAL, cpu_pct_avg),
	H("cpu_pct_max", RF_REAL, cpu_pct_max),
	H("cpu_user_pct", RF_REAL, cpu_user_pct),
	H("cpu_sys_pct", RF_REAL, cpu_sys_pct),
	H("cpu_iowait_pct", RF_REAL, cpu_iowait_pct),
	H("mem_total", RF_U64, mem_total),
	H("mem_used_avg", RF_U64, mem_used_avg),
	H("mem_used_max", RF_U64, mem_used_max),
	H("fslab_rss_max", RF_U64, fslab_rss_max),
	H("ncpus", RF_INT, ncpus),
	{ NULL },
};
#undef H

/* A cluster result's members (fslab merge): each host's result in brief */
#define M(k, t, m, ...) F(struct host_member, k, t, m, __VA_ARGS__)
static const struct rfield member_fields[] = {
	M("name", RF_STR, name),
	M("status", RF_STR, status),
	M("reason", RF_STR, reason),
	M("file", RF_STR, file),
	M("sha256", RF_STR, sha256),
	M("hostname", RF_STR, hostname),
	M("clock_offset_s", RF_REAL, clock_offset_s),
	M("clock_rtt_s", RF_REAL, clock_rtt_s),
	M("start_at", RF_STR, start_at),
	M("load_started_at", RF_STR, load_started_at),
	M("measure_started_at", RF_STR, measure_started_at),
	M("start_delay_s", RF_REAL, start_delay_s),
	M("start_offset_s", RF_REAL, start_offset_s),
	M("duration_s", RF_REAL, duration_s),
	M("transactional_iops", RF_REAL, transactional_iops),
	M("verdict", RF_STR, verdict),
	M("classes", RF_CUSTOM, classes, .write = inst_classes_write, .read = inst_classes_read),
	M("devices", RF_ARRAY, devices, .off_n = offsetof(struct host_member, ndevices),
	  .sub = device_fields, .elem_size = sizeof(struct device_result)),
	{ NULL },
};
#undef M

static const struct rfield cluster_fields[] = {
	F(struct cluster_info, "hosts", RF_UINT, hosts),
	F(struct cluster_info, "complete", RF_UINT, complete),
	F(struct cluster_info, "partial", RF_BOOL, partial),
	F(struct cluster_info, "start_spread_s", RF_REAL, start_spread_s),
	F(struct cluster_info, "clock_spread_s", RF_REAL, clock_spread_s),
	F(struct cluster_info, "clock_limit_s", RF_REAL, clock_limit_s),
	F(struct cluster_info, "timeline", RF_STR, timeline),
	{ NULL },
};

/* "cluster": only in cluster results (left out of a host's own result) */
static json_t *cluster_write(const void *p)
{
	const struct cluster_info *ci = p;

	return ci->present ? rf_to_json(cluster_fields, ci) : NULL;
}

static void cluster_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false);
	struct cluster_info *ci = p;

	if (!o)
		return;
	rf_from_json(rd, o, cluster_fields, ci, key);
	ci->present = true;
}

static const struct rfield init_fields[] = {
	F(struct init_result, "bytes_written", RF_U64, bytes_written),
	F(struct init_result, "seconds", RF_REAL, seconds),
	F(struct init_result, "mbps", RF_REAL, mbps),
	F(struct init_result, "reused", RF_UINT, reused),
	F(struct init_result, "created", RF_UINT, created),
	{ NULL },
};

static const struct rfield checksum_fields[] = {
	F(struct checksum_result, "ran", RF_BOOL, ran),
	F(struct checksum_result, "pages", RF_U64, pages),
	F(struct checksum_result, "bad_pages", RF_U64, bad_pages),
	F(struct checksum_result, "bytes", RF_U64, bytes),
	F(struct checksum_result, "seconds", RF_REAL, seconds),
	F(struct checksum_result, "mbps", RF_REAL, mbps),
	F(struct checksum_result, "first_bad", RF_STR, first_bad),
	{ NULL },
};

#define R(k, t, m, ...) F(struct fslab_result, k, t, m, __VA_ARGS__)
const struct rfield result_fields[] = {
	R("schema", RF_CUSTOM, schema, .write = schema_write, .read = schema_read),
	R("label", RF_STR, label, .flags = RF_REQUIRED),
	R("fslab_version", RF_STR, fslab_version),
	R("started_at", RF_STR, started_at),
	R("ended_at", RF_STR, ended_at),
	R("start_at", RF_STR, start_at, .flags = RF_OMIT),
	R("load_started_at", RF_STR, load_started_at, .flags = RF_OMIT),
	R("measure_started_at", RF_STR, measure_started_at, .flags = RF_OMIT),
	R("duration_s", RF_REAL, duration_s),
	R("aborted", RF_BOOL, aborted),
	R("abort_reason", RF_STR, abort_reason),
	R("lab", RF_CUSTOM, lab, .write = rf_lab_write, .read = rf_lab_read),
	R("config", RF_CUSTOM, config, .write = config_write, .read = config_read),
	R("environment", RF_CUSTOM, environment, .write = env_write, .read = env_read),
	R("classes", RF_CUSTOM, classes, .write = classes_write, .read = classes_read),
	R("transactional_iops", RF_REAL, transactional_iops),
	R("transactions_per_s", RF_REAL, transactions_per_s),
	R("transactions", RF_U64, transactions),
	R("db_page_fault_stalls", RF_U64, db_page_fault_stalls),
	R("instances", RF_ARRAY, instances, .off_n = offsetof(struct fslab_result, ninstances),
	  .sub = instance_fields, .elem_size = sizeof(struct instance_result)),
	R("devices", RF_ARRAY, devices, .off_n = offsetof(struct fslab_result, ndevices),
	  .sub = device_fields, .elem_size = sizeof(struct device_result)),
	R("host", RF_OBJ, host, .sub = host_fields),
	R("init", RF_OBJ, init, .sub = init_fields),
	R("timeline", RF_CUSTOM, timeline, .write = timeline_write, .read = timeline_read),
	R("latency_samples", RF_CUSTOM, latency_samples, .write = samples_write,
	  .read = samples_read),
	R("verdict", RF_CUSTOM, verdict, .write = verdict_write, .read = verdict_read),
	R("fidelity", RF_CUSTOM, fidelity, .write = rf_fidelity_write, .read = rf_fidelity_read),
	R("checksum", RF_OBJ, checksum, .sub = checksum_fields),
	R("recovery", RF_CUSTOM, recovery, .write = rf_recovery_write, .read = rf_recovery_read),
	R("notes", RF_CUSTOM, notes, .write = notes_write, .read = notes_read),
	R("cluster", RF_CUSTOM, cluster, .write = cluster_write, .read = cluster_read),
	R("hosts", RF_ARRAY, hosts, .flags = RF_OMIT, .off_n = offsetof(struct fslab_result, nhosts),
	  .sub = member_fields, .elem_size = sizeof(struct host_member)),
	R("steady_state", RF_CUSTOM, steady, .write = rf_steady_write, .read = rf_steady_read),
	R("warmup", RF_CUSTOM, warmup, .write = rf_stage_write, .read = rf_stage_read),
	R("precondition", RF_CUSTOM, precondition, .write = rf_precondition_write,
	  .read = rf_precondition_read),
	R("tuning", RF_CUSTOM, tuning, .write = rf_tuning_write, .read = rf_tuning_read),
	R("fio_steadystate", RF_ARRAY, fio_ss, .flags = RF_OMIT,
	  .off_n = offsetof(struct fslab_result, nfio_ss), .sub = rf_fio_ss_fields,
	  .elem_size = sizeof(struct fio_steadystate)),
	{ NULL },
};
#undef R
