// SPDX-License-Identifier: MIT
/*
 * result_shape.c: two optional objects of fslab-result/1, each left out of files without it:
 * "fidelity" (the load's shape against Jetstress's ratios, src/result/fidelity.h) and "recovery" (the
 * recovery workload's replay, timed per log file).  result_fields.c's table names them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "result/resultP.h"

#define F(s, k, t, m, ...) { .key = k, .type = t, .off = offsetof(s, m), __VA_ARGS__ }

/* {"value", "band": [lo, hi], "in_band", "off_pct"} */
json_t *rf_fidelity_write(const void *p)
{
	const struct fidelity *f = p;
	json_t *o;

	if (!f->present)
		return NULL;
	o = json_object();
	for (int k = 0; k < FID_NR; k++) {
		const struct fid_value *v = &f->r[k];

		json_object_set_new(o, fid_keys[k],
				    json_pack("{s:o, s:[f, f], s:b, s:o}", "value", jnum(v->value),
					      "band", fid_band[k][0], fid_band[k][1],
					      "in_band", v->in_band, "off_pct", jnum(v->off_pct)));
	}
	json_object_set_new(o, "log_busy_pct", jnum(f->log_busy_pct));
	json_object_set_new(o, "commits_per_log_write", jnum(f->commits_per_write));
	json_object_set_new(o, "why", jstr(f->why));
	return o;
}

void rf_fidelity_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false);
	struct fidelity *f = p;

	if (!o)
		return;
	for (int k = 0; k < FID_NR; k++) {
		json_t *v = rd_obj(rd, o, fid_keys[k], true);

		if (!v)
			return;
		f->r[k].value = rd_num(rd, v, "value", NAN);
		f->r[k].in_band = rd_bool(rd, v, "in_band");
		f->r[k].off_pct = rd_num(rd, v, "off_pct", NAN);
	}
	f->log_busy_pct = rd_num(rd, o, "log_busy_pct", NAN);
	f->commits_per_write = rd_num(rd, o, "commits_per_log_write", NAN);
	f->why = rd_str(rd, o, "why");
	f->present = true;
}

static const struct rfield recovery_log_fields[] = {
	F(struct recovery_log, "db", RF_STR, db),
	F(struct recovery_log, "gen", RF_U64, gen),
	F(struct recovery_log, "seconds", RF_REAL, seconds),
	F(struct recovery_log, "records", RF_U64, records),
	F(struct recovery_log, "whole", RF_BOOL, whole),
	F(struct recovery_log, "applied", RF_U64, applied),
	F(struct recovery_log, "pages_read", RF_U64, pages_read),
	F(struct recovery_log, "pages_written", RF_U64, pages_written),
	{ NULL },
};

static const struct rfield recovery_fields[] = {
	F(struct recovery_result, "interrupted", RF_BOOL, interrupted),
	F(struct recovery_result, "logs_asked", RF_UINT, logs_asked),
	F(struct recovery_result, "load_seconds", RF_REAL, load_seconds),
	F(struct recovery_result, "seconds", RF_REAL, seconds),
	F(struct recovery_result, "logs", RF_U64, logs),
	F(struct recovery_result, "records", RF_U64, records),
	F(struct recovery_result, "applied", RF_U64, applied),
	F(struct recovery_result, "pages_read", RF_U64, pages_read),
	F(struct recovery_result, "pages_written", RF_U64, pages_written),
	F(struct recovery_result, "pages_behind_log", RF_U64, pages_behind_log),
	F(struct recovery_result, "pages_redone", RF_U64, pages_redone),
	F(struct recovery_result, "log_bytes", RF_U64, log_bytes),
	F(struct recovery_result, "mismatches", RF_U64, mismatches),
	F(struct recovery_result, "bad_pages", RF_U64, bad_pages),
	F(struct recovery_result, "first_problem", RF_STR, first_problem),
	F(struct recovery_result, "per_log_mean_s", RF_REAL, per_log_mean),
	F(struct recovery_result, "per_log_sd_s", RF_REAL, per_log_sd),
	F(struct recovery_result, "per_log_min_s", RF_REAL, per_log_min),
	F(struct recovery_result, "per_log_p50_s", RF_REAL, per_log_p50),
	F(struct recovery_result, "per_log_p95_s", RF_REAL, per_log_p95),
	F(struct recovery_result, "per_log_max_s", RF_REAL, per_log_max),
	F(struct recovery_result, "per_log", RF_ARRAY, log,
	  .off_n = offsetof(struct recovery_result, nlog), .sub = recovery_log_fields,
	  .elem_size = sizeof(struct recovery_log)),
	{ NULL },
};

_Static_assert(offsetof(struct recovery_result, present) == 0, "present first");

json_t *rf_recovery_write(const void *p)
{
	const struct recovery_result *r = p;

	return r->present ? rf_to_json(recovery_fields, r) : NULL;
}

/* the most log files one replay names in a file fslab reads (a day of a fast log) */
#define FILE_LOGS_MAX 1000000

void rf_recovery_read(struct rd *rd, json_t *parent, const char *key, void *p)
{
	json_t *o = rd_obj(rd, parent, key, false), *a;
	struct recovery_result *r = p;

	if (!o)
		return;
	a = json_object_get(o, "per_log");
	if (a && json_is_array(a) && json_array_size(a) > FILE_LOGS_MAX) {
		rd_fail(rd, "\"%s\" names %zu log files, more than any replay does; the file was "
			"edited or damaged", key, json_array_size(a));
		return;
	}
	rf_from_json(rd, o, recovery_fields, r, key);
	r->present = true;
}

void recovery_result_release(struct recovery_result *r)
{
	for (size_t i = 0; i < r->nlog; i++)
		free(r->log[i].db);
	free(r->log);
	free(r->first_problem);
	memset(r, 0, sizeof(*r));
}
