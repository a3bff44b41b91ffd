// SPDX-License-Identifier: MIT
/*
 * result_steady.c: the steady-state parts of fslab-result/1 (src/engine/steady.h): "steady_state",
 * a steady "warmup", "precondition" and an imported fio result's "fio_steadystate"; each is
 * left out of files without it.  result_fields.c's table names them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "result/resultP.h"

#define F(s, k, t, m, ...) { .key = k, .type = t, .off = offsetof(s, m), __VA_ARGS__ }

static const struct rfield metric_fields[] = {
	F(struct steady_metric, "from_s", RF_REAL, from_s),
	F(struct steady_metric, "to_s", RF_REAL, to_s),
	F(struct steady_metric, "holds_at_end", RF_BOOL, holds_at_end),
	F(struct steady_metric, "mean", RF_REAL, mean),
	F(struct steady_metric, "min", RF_REAL, min),
	F(struct steady_metric, "max", RF_REAL, max),
	F(struct steady_metric, "range_pct", RF_REAL, range_pct),
	F(struct steady_metric, "slope_per_interval", RF_REAL, slope),
	F(struct steady_metric, "excursion_pct", RF_REAL, excursion_pct),
	{ NULL },
};

/* one series' verdict: {"state", the window, its figures, "means"}; left out when unknown */
static json_t *metric_write(const void *p)
{
	const struct steady_metric *m = p;
	json_t *o, *a;

	if (m->state <= STEADY_UNKNOWN || m->state > STEADY_NO_DATA)
		return NULL;
	o = json_pack("{s:s}", "state", steady_verdict_names[m->state]);
	json_object_update(o, a = rf_to_json(metric_fields, m));
	json_decref(a);
	a = json_array();
	for (size_t i = 0; i < m->n; i++)
		json_array_append_new(a, jnum(m->means[i]));
	json_object_set_new(o, "means", a);
	return o;
}

/* the most interval means a window holds in a file fslab reads */
#define FILE_WINDOW_MAX 1000

static void metric_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false), *a, *v;
	struct steady_metric *m = p;
	char *state;
	size_t i;

	if (!o)
		return;
	state = rd_str(rd, o, "state");
	m->state = steady_verdict_from_name(state);
	free(state);
	if (m->state < 0) {
		m->state = STEADY_UNKNOWN;
		rd_fail(rd, "\"%s\" has no known \"state\" (attained, not attained, too short, "
			"no data); the file was edited or damaged: re-run it", key);
		return;
	}
	rf_from_json(rd, o, metric_fields, m, key);
	a = json_object_get(o, "means");
	if (!a || json_is_null(a))
		return;
	if (!json_is_array(a) || json_array_size(a) > FILE_WINDOW_MAX) {
		rd_fail(rd, "\"%s\" \"means\" must be an array of at most %d numbers", key,
			FILE_WINDOW_MAX);
		return;
	}
	m->means = xcalloc(json_array_size(a) + 1, sizeof(double));
	json_array_foreach(a, i, v) {
		if (!json_is_number(v) && !json_is_null(v)) {
			rd_fail(rd, "\"%s\" \"means\" must be an array of numbers", key);
			return;
		}
		m->means[m->n++] = json_is_null(v) ? NAN : json_number_value(v);
	}
}

/*
 * An optional object: the struct at p begins with its bool present (checked below); written
 * from the fields f when present, read (and present set) when the key is there.
 */
static json_t *present_write(const void *p, const struct rfield *f)
{
	return *(const bool *)p ? rf_to_json(f, p) : NULL;
}

static void present_read(struct rd *rd, json_t *parent, const char *key, void *p,
			 const struct rfield *f)
{
	json_t *o = rd_obj(rd, parent, key, false);

	if (!o)
		return;
	rf_from_json(rd, o, f, p, key);
	*(bool *)p = true;
}

_Static_assert(offsetof(struct steady_state, present) == 0, "present first");
_Static_assert(offsetof(struct steady_stage, present) == 0, "present first");
_Static_assert(offsetof(struct precondition_result, present) == 0, "present first");

static const struct rfield steady_fields[] = {
	F(struct steady_state, "window", RF_UINT, window),
	F(struct steady_state, "interval_s", RF_REAL, interval_s),
	F(struct steady_state, "range_limit_pct", RF_REAL, range_limit_pct),
	F(struct steady_state, "excursion_limit_pct", RF_REAL, excursion_limit_pct),
	F(struct steady_state, "transactional_iops", RF_CUSTOM, iops, .write = metric_write,
	  .read = metric_read),
	F(struct steady_state, "db_read_latency_ms", RF_CUSTOM, db_read_lat,
	  .write = metric_write, .read = metric_read),
	{ NULL },
};

json_t *rf_steady_write(const void *p)
{
	return present_write(p, steady_fields);
}

void rf_steady_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	present_read(rd, parent, key, p, steady_fields);
}

static const struct rfield stage_fields[] = {
	F(struct steady_stage, "attained", RF_BOOL, attained),
	F(struct steady_stage, "seconds", RF_REAL, seconds),
	F(struct steady_stage, "cap_s", RF_REAL, cap_s),
	F(struct steady_stage, "bytes_read", RF_U64, bytes_read),
	F(struct steady_stage, "bytes_written", RF_U64, bytes_written),
	F(struct steady_stage, "transactional_iops", RF_CUSTOM, iops, .write = metric_write,
	  .read = metric_read),
	F(struct steady_stage, "db_read_latency_ms", RF_CUSTOM, db_read_lat,
	  .write = metric_write, .read = metric_read),
	{ NULL },
};

/* "warmup" (a steady warm-up's record), a precondition's "load": left out when absent */
json_t *rf_stage_write(const void *p)
{
	json_t *o = present_write(p, stage_fields);

	if (o)
		json_object_set_new(o, "until", json_string("steady"));
	return o;
}

void rf_stage_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	present_read(rd, parent, key, p, stage_fields);
}

static const struct rfield precondition_fields[] = {
	F(struct precondition_result, "passes", RF_UINT, passes),
	F(struct precondition_result, "files", RF_UINT, files),
	F(struct precondition_result, "bytes_written", RF_U64, bytes_written),
	F(struct precondition_result, "seconds", RF_REAL, seconds),
	F(struct precondition_result, "device_bytes_written", RF_U64, device_bytes_written),
	F(struct precondition_result, "load", RF_CUSTOM, load, .write = rf_stage_write,
	  .read = rf_stage_read),
	{ NULL },
};

json_t *rf_precondition_write(const void *p)
{
	return present_write(p, precondition_fields);
}

void rf_precondition_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	present_read(rd, parent, key, p, precondition_fields);
}

/* "fio_steadystate": an imported fio result's jobs' own steady-state objects */
const struct rfield rf_fio_ss_fields[] = {
	F(struct fio_steadystate, "job", RF_STR, job),
	F(struct fio_steadystate, "ss", RF_STR, ss),
	F(struct fio_steadystate, "duration_s", RF_REAL, duration_s),
	F(struct fio_steadystate, "attained", RF_BOOL, attained),
	F(struct fio_steadystate, "criterion", RF_STR, criterion),
	F(struct fio_steadystate, "max_deviation", RF_REAL, max_deviation),
	F(struct fio_steadystate, "slope", RF_REAL, slope),
	F(struct fio_steadystate, "iops_mean", RF_REAL, iops_mean),
	F(struct fio_steadystate, "bw_mean", RF_REAL, bw_mean),
	{ NULL },
};
