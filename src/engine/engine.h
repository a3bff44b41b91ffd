/* SPDX-License-Identifier: MIT */
/* engine.h: measurement core shared by all workloads: phases, per-thread statistics, merge. */
#ifndef FSLAB_ENGINE_H
#define FSLAB_ENGINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/hist.h"
#include "result/classes.h"

enum phase {
	PH_INIT,    /* creating/validating files: nothing is measured */
	PH_WARMUP,  /* load runs, nothing is measured */
	PH_MEASURE, /* every completion is recorded */
	PH_STOP,    /* threads finish what is in flight and leave */
};

/* Per-second maximum latency, kept in a small ring so the sampler needs no locking. */
struct max_slot {
	uint64_t tag; /* second index + 1; 0 = empty */
	uint64_t max; /* ns */
};

/*
 * One class's counters for one thread.  Written only by the owning thread (relaxed stores so
 * the once-a-second sampler can read them without tearing); merged after the threads joined.
 */
struct cls_stats {
	uint64_t ops, bytes, errors, lat_sum_ns;
	uint64_t breaches; /* completions slower than engine.breach_ns[class] */
	uint64_t min_bytes, max_bytes; /* smallest and largest transfer */
	struct max_slot slots[4];
	struct hist hist;
};

struct thread_stats {
	int instance; /* database instance this thread works for, -1 for none */
	struct cls_stats cls[CLS_NR];
	uint64_t transactions;
	uint64_t checksum_errors;
	uint64_t page_fault_stalls;    /* waits for a free database cache page (jetstress) */
	uint64_t other_write_bytes[2]; /* written outside the classes (log spare files), [db, log] */
	uint64_t cur_sec, sec_end_ns;  /* second of the measurement the last completion fell in */
	/* completions during PH_WARMUP (a steady warm-up judges the load by them), per class;
	 * page-fault stalls then (the tuner of --threads auto judges its steps by them) */
	uint64_t warm_ops[CLS_NR], warm_bytes[CLS_NR], warm_lat_ns[CLS_NR];
	uint64_t warm_stalls;
	bool retired; /* its thread was joined: engine_stats_new() may hand it out again */
};

struct engine {
	int phase;          /* enum phase, accessed atomically */
	uint64_t t_start;   /* load started (ns, monotonic) */
	uint64_t t_measure; /* measurement started */
	/* latency above which a completion counts in ios_above_max_limit, per class: the
	 * threshold set's maximum (strict: 100 ms); run.c sets it before the load */
	uint64_t breach_ns[CLS_NR];
	pthread_mutex_t lock;
	struct thread_stats **stats;
	size_t nstats;
};

void engine_init(struct engine *e);
void engine_release(struct engine *e);
/*
 * New zeroed statistics for one thread, owned by the engine.  Thread-safe.  A load started
 * again (the tuner of --threads auto, between its steps) gets the statistics of its joined
 * threads back, instance for instance, counters kept: engine_stats_retire() first.
 */
struct thread_stats *engine_stats_new(struct engine *e, int instance);
/* Every thread's statistics may be handed out again: their threads were joined. */
void engine_stats_retire(struct engine *e);

static inline int engine_phase(const struct engine *e)
{
	return __atomic_load_n(&e->phase, __ATOMIC_ACQUIRE);
}

static inline bool engine_running(const struct engine *e)
{
	return engine_phase(e) != PH_STOP;
}

/* Switch phase; PH_MEASURE also sets t_measure = now. */
void engine_set_phase(struct engine *e, int phase);

#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)

/*
 * engine_account - record one completed I/O of class cls (hot path, owning thread only).
 * Only completions during PH_MEASURE count; errors count in every phase.
 */
static inline void engine_account(struct engine *e, struct thread_stats *ts, int cls,
				  uint64_t bytes, uint64_t start_ns, uint64_t end_ns, bool error)
{
	struct cls_stats *c = &ts->cls[cls];
	uint64_t lat, sec;
	struct max_slot *s;

	/* an error fails the run whenever it happens (warm-up included) */
	if (error) {
		STORE(&c->errors, c->errors + 1);
		return;
	}
	if (engine_phase(e) != PH_MEASURE || end_ns < e->t_measure) {
		if (engine_phase(e) == PH_WARMUP) {
			STORE(&ts->warm_ops[cls], ts->warm_ops[cls] + 1);
			STORE(&ts->warm_bytes[cls], ts->warm_bytes[cls] + bytes);
			STORE(&ts->warm_lat_ns[cls], ts->warm_lat_ns[cls] + (end_ns - start_ns));
		}
		return;
	}
	lat = end_ns - start_ns;
	STORE(&c->ops, c->ops + 1);
	STORE(&c->bytes, c->bytes + bytes);
	STORE(&c->lat_sum_ns, c->lat_sum_ns + lat);
	if (lat > e->breach_ns[cls])
		c->breaches++;
	if (bytes > c->max_bytes)
		c->max_bytes = bytes;
	if (bytes < c->min_bytes || !c->min_bytes)
		c->min_bytes = bytes;
	hist_add(&c->hist, lat);
	if (end_ns >= ts->sec_end_ns) { /* once a second: no division per I/O */
		ts->cur_sec = (end_ns - e->t_measure) / 1000000000ULL;
		ts->sec_end_ns = e->t_measure + (ts->cur_sec + 1) * 1000000000ULL;
	}
	sec = ts->cur_sec;
	s = &c->slots[sec & 3];
	if (LOAD(&s->tag) != sec + 1) {
		STORE(&s->max, lat);
		__atomic_store_n(&s->tag, sec + 1, __ATOMIC_RELEASE);
	} else if (lat > s->max) {
		STORE(&s->max, lat);
	}
}

/* Count one finished transaction (only during PH_MEASURE). */
static inline void engine_transaction(struct engine *e, struct thread_stats *ts)
{
	if (engine_phase(e) == PH_MEASURE)
		STORE(&ts->transactions, ts->transactions + 1);
}

/*
 * engine_page_fault_stall - a session of ts had to wait for a free database cache page (only
 * during PH_MEASURE; owning thread only).
 */
static inline void engine_page_fault_stall(struct engine *e, struct thread_stats *ts)
{
	if (engine_phase(e) == PH_MEASURE)
		STORE(&ts->page_fault_stalls, ts->page_fault_stalls + 1);
	else if (engine_phase(e) == PH_WARMUP)
		STORE(&ts->warm_stalls, ts->warm_stalls + 1);
}

/*
 * Timeline sampling: engine_sample() reads every thread's cumulative counters now and, for
 * second sec of the measurement, fills the class columns of row (see timeline_columns()),
 * using prev (engine_sample_init()ed) to form differences.
 */
struct engine_sample {
	uint64_t ops[CLS_NR], bytes[CLS_NR], lat_sum[CLS_NR], transactions;
	uint64_t stalls; /* engine_sample_warm() only: page-fault stalls during PH_WARMUP */
};
void engine_sample(struct engine *e, uint64_t sec, struct engine_sample *prev, double *row);
/*
 * engine_sample_instance - cumulative counters now (ops, bytes, latency sums per class,
 * transactions) of the threads of one database instance (-1: all threads) into *out.  The
 * caller forms differences between calls (latency samples per instance).
 */
void engine_sample_instance(struct engine *e, int instance, struct engine_sample *out);
/*
 * engine_sample_warm - the cumulative counters of the completions during PH_WARMUP (ops,
 * bytes, latency sums per class, page-fault stalls; no transactions) of all threads, into
 * *out.
 */
void engine_sample_warm(struct engine *e, struct engine_sample *out);
/* Column names of a timeline row: t_s, 4 per class, transactions, cpu_pct. */
extern const char *const timeline_columns[];
#define TIMELINE_NCOLS (1 + 4 * CLS_NR + 2)
#define TL_TRANSACTIONS (1 + 4 * CLS_NR)
#define TL_CPU (2 + 4 * CLS_NR)

/*
 * engine_collect - merge the statistics of every thread whose instance matches (instance -1:
 * all threads) into cls[] (histograms allocated, caller frees via result_release) for seconds
 * of measurement; cls[c].ios_above_max_limit counts completions above e->breach_ns[c].  Also
 * returns transactions, checksum errors and page-fault stalls.
 */
struct collect_extra {
	uint64_t transactions, checksum_errors, page_fault_stalls;
	uint64_t other_write_bytes[2];
};
void engine_collect(struct engine *e, int instance, double seconds, struct class_result *cls,
		    struct collect_extra *x);

#endif
