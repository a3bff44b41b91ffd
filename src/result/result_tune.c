// SPDX-License-Identifier: MIT
/*
 * result_tune.c: the tuner's record in fslab-result/1 (src/engine/tune.h): "tuning", every step of
 * --threads auto and the count it chose; left out of files without it (result_fields.c's
 * table names it); the config's settings of the tuner, recorded only by a tuned run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "result/resultP.h"

#define F(s, k, t, m, ...) { .key = k, .type = t, .off = offsetof(s, m), __VA_ARGS__ }

static const struct rfield step_fields[] = {
	F(struct tune_step, "threads", RF_UINT, threads),
	F(struct tune_step, "seconds", RF_REAL, seconds),
	F(struct tune_step, "settle_s", RF_REAL, settle_s),
	F(struct tune_step, "stable", RF_BOOL, stable),
	F(struct tune_step, "pass", RF_BOOL, pass),
	F(struct tune_step, "transactional_iops", RF_REAL, iops),
	F(struct tune_step, "db_read_avg_ms", RF_REAL, db_read_ms),
	F(struct tune_step, "log_write_avg_ms", RF_REAL, log_write_ms),
	F(struct tune_step, "stalls_per_s", RF_REAL, stalls_per_s),
	F(struct tune_step, "samples", RF_UINT, samples),
	F(struct tune_step, "samples_above_max", RF_UINT, above),
	F(struct tune_step, "excursion_pct", RF_REAL, excursion_pct),
	F(struct tune_step, "why", RF_STR, why),
	{ NULL },
};

static const struct rfield tuning_fields[] = {
	F(struct tuning, "threads", RF_UINT, threads),
	F(struct tuning, "reason", RF_STR, reason),
	F(struct tuning, "seconds", RF_REAL, seconds),
	F(struct tuning, "timed_out", RF_BOOL, timed_out),
	F(struct tuning, "steps", RF_ARRAY, steps, .off_n = offsetof(struct tuning, nsteps),
	  .sub = step_fields, .elem_size = sizeof(struct tune_step)),
	{ NULL },
};

_Static_assert(offsetof(struct tuning, present) == 0, "present first");

/* the most steps a file may hold: doubling to 256 threads and bisecting is under 20 */
#define FILE_STEPS_MAX 1000

void run_config_set_untuned(struct run_config *c)
{
	static const size_t offs[] = {
		offsetof(struct run_config, threads_auto),
		offsetof(struct run_config, tune_window),
		offsetof(struct run_config, tune_interval_s),
		offsetof(struct run_config, tune_slope_pct),
		offsetof(struct run_config, tune_judge_s),
		offsetof(struct run_config, tune_step_cap_s),
		offsetof(struct run_config, tune_cap_s),
		offsetof(struct run_config, tune_max_threads),
	};

	for (size_t i = 0; i < ARRAY_SIZE(offs); i++)
		run_config_set_na(c, offs[i]);
}

bool run_config_tuned(const struct run_config *c)
{
	return c->threads_auto && run_config_has(c, offsetof(struct run_config, threads_auto));
}

json_t *rf_tuning_write(const void *p)
{
	const struct tuning *t = p;

	return t->present ? rf_to_json(tuning_fields, t) : NULL;
}

void rf_tuning_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false), *steps;
	struct tuning *t = p;

	if (!o)
		return;
	steps = json_object_get(o, "steps");
	if (!json_is_array(steps) || json_array_size(steps) > FILE_STEPS_MAX) {
		rd_fail(rd, "\"%s\" \"steps\" must be an array of at most %d steps; the file was "
			"edited or damaged: re-run it", key, FILE_STEPS_MAX);
		return;
	}
	rf_from_json(rd, o, tuning_fields, t, key);
	t->present = true;
}

void tuning_release(struct tuning *t)
{
	for (size_t i = 0; i < t->nsteps; i++)
		free(t->steps[i].why);
	free(t->steps);
	free(t->reason);
	memset(t, 0, sizeof(*t));
}
