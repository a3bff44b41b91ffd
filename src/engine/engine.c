// SPDX-License-Identifier: MIT
/* engine.c: measurement core: phases, per-thread statistics, sampling and merging. */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/os.h"

const char *const timeline_columns[TIMELINE_NCOLS] = {
	"t_s",
	"db_read_ops", "db_read_bytes", "db_read_lat_mean_us", "db_read_lat_max_us",
	"db_write_ops", "db_write_bytes", "db_write_lat_mean_us", "db_write_lat_max_us",
	"log_write_ops", "log_write_bytes", "log_write_lat_mean_us", "log_write_lat_max_us",
	"bdm_read_ops", "bdm_read_bytes", "bdm_read_lat_mean_us", "bdm_read_lat_max_us",
	"transactions", "cpu_pct",
};

void engine_init(struct engine *e)
{
	memset(e, 0, sizeof(*e));
	pthread_mutex_init(&e->lock, NULL);
	for (int c = 0; c < CLS_NR; c++)
		e->breach_ns[c] = 100 * NSEC_PER_MSEC; /* Jetstress strict maximum */
	e->phase = PH_INIT;
}

void engine_release(struct engine *e)
{
	for (size_t i = 0; i < e->nstats; i++)
		free(e->stats[i]);
	free(e->stats);
	pthread_mutex_destroy(&e->lock);
	memset(e, 0, sizeof(*e));
}

struct thread_stats *engine_stats_new(struct engine *e, int instance)
{
	struct thread_stats *ts;

	pthread_mutex_lock(&e->lock);
	for (size_t i = 0; i < e->nstats; i++) {
		ts = e->stats[i];
		if (ts->retired && ts->instance == instance) {
			ts->retired = false;
			pthread_mutex_unlock(&e->lock);
			return ts;
		}
	}
	pthread_mutex_unlock(&e->lock);
	ts = xcalloc(1, sizeof(*ts));
	ts->instance = instance;
	for (int c = 0; c < CLS_NR; c++)
		hist_init(&ts->cls[c].hist);
	pthread_mutex_lock(&e->lock);
	e->stats = xrealloc(e->stats, (e->nstats + 1) * sizeof(*e->stats));
	e->stats[e->nstats++] = ts;
	pthread_mutex_unlock(&e->lock);
	return ts;
}

void engine_stats_retire(struct engine *e)
{
	pthread_mutex_lock(&e->lock);
	for (size_t i = 0; i < e->nstats; i++)
		e->stats[i]->retired = true;
	pthread_mutex_unlock(&e->lock);
}

void engine_set_phase(struct engine *e, int phase)
{
	if (phase == PH_MEASURE)
		e->t_measure = now_ns();
	if (phase == PH_WARMUP)
		e->t_start = now_ns();
	__atomic_store_n(&e->phase, phase, __ATOMIC_RELEASE);
}

void engine_sample(struct engine *e, uint64_t sec, struct engine_sample *prev, double *row)
{
	struct engine_sample cur = { 0 };
	uint64_t max[CLS_NR] = { 0 };

	pthread_mutex_lock(&e->lock);
	for (size_t i = 0; i < e->nstats; i++) {
		struct thread_stats *ts = e->stats[i];

		for (int c = 0; c < CLS_NR; c++) {
			struct cls_stats *cs = &ts->cls[c];
			struct max_slot *s = &cs->slots[sec & 3];

			cur.ops[c] += LOAD(&cs->ops);
			cur.bytes[c] += LOAD(&cs->bytes);
			cur.lat_sum[c] += LOAD(&cs->lat_sum_ns);
			if (__atomic_load_n(&s->tag, __ATOMIC_ACQUIRE) == sec + 1) {
				uint64_t m = LOAD(&s->max);

				if (m > max[c])
					max[c] = m;
			}
		}
		cur.transactions += LOAD(&ts->transactions);
	}
	pthread_mutex_unlock(&e->lock);

	row[0] = (double)(sec + 1);
	for (int c = 0; c < CLS_NR; c++) {
		uint64_t ops = cur.ops[c] - prev->ops[c];
		double *r = &row[1 + 4 * c];

		r[0] = (double)ops;
		r[1] = (double)(cur.bytes[c] - prev->bytes[c]);
		r[2] = ops ? (double)(cur.lat_sum[c] - prev->lat_sum[c]) / ops / 1e3 : 0;
		r[3] = max[c] / 1e3;
	}
	row[TL_TRANSACTIONS] = (double)(cur.transactions - prev->transactions);
	*prev = cur;
}

void engine_sample_instance(struct engine *e, int instance, struct engine_sample *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&e->lock);
	for (size_t i = 0; i < e->nstats; i++) {
		struct thread_stats *ts = e->stats[i];

		if (instance >= 0 && ts->instance != instance)
			continue;
		for (int c = 0; c < CLS_NR; c++) {
			out->ops[c] += LOAD(&ts->cls[c].ops);
			out->bytes[c] += LOAD(&ts->cls[c].bytes);
			out->lat_sum[c] += LOAD(&ts->cls[c].lat_sum_ns);
		}
		out->transactions += LOAD(&ts->transactions);
	}
	pthread_mutex_unlock(&e->lock);
}

void engine_sample_warm(struct engine *e, struct engine_sample *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&e->lock);
	for (size_t i = 0; i < e->nstats; i++) {
		struct thread_stats *ts = e->stats[i];

		for (int c = 0; c < CLS_NR; c++) {
			out->ops[c] += LOAD(&ts->warm_ops[c]);
			out->bytes[c] += LOAD(&ts->warm_bytes[c]);
			out->lat_sum[c] += LOAD(&ts->warm_lat_ns[c]);
		}
		out->stalls += LOAD(&ts->warm_stalls);
	}
	pthread_mutex_unlock(&e->lock);
}

void engine_collect(struct engine *e, int instance, double seconds, struct class_result *cls,
		    struct collect_extra *x)
{
	memset(x, 0, sizeof(*x));
	for (int c = 0; c < CLS_NR; c++) {
		memset(&cls[c], 0, sizeof(cls[c]));
		cls[c].hist = xmalloc(sizeof(struct hist));
		hist_init(cls[c].hist);
	}
	for (size_t i = 0; i < e->nstats; i++) {
		struct thread_stats *ts = e->stats[i];

		if (instance >= 0 && ts->instance != instance)
			continue;
		for (int c = 0; c < CLS_NR; c++) {
			cls[c].ops += ts->cls[c].ops;
			cls[c].bytes += ts->cls[c].bytes;
			cls[c].errors += ts->cls[c].errors;
			cls[c].ios_above_max_limit += ts->cls[c].breaches;
			if (ts->cls[c].max_bytes > cls[c].max_bytes)
				cls[c].max_bytes = ts->cls[c].max_bytes;
			if (ts->cls[c].min_bytes &&
			    (!cls[c].min_bytes || ts->cls[c].min_bytes < cls[c].min_bytes))
				cls[c].min_bytes = ts->cls[c].min_bytes;
			hist_merge(cls[c].hist, &ts->cls[c].hist);
		}
		x->transactions += ts->transactions;
		x->checksum_errors += ts->checksum_errors;
		x->page_fault_stalls += ts->page_fault_stalls;
		x->other_write_bytes[0] += ts->other_write_bytes[0];
		x->other_write_bytes[1] += ts->other_write_bytes[1];
	}
	for (int c = 0; c < CLS_NR; c++)
		class_result_finish(&cls[c], seconds);
}
