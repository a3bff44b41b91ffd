/* SPDX-License-Identifier: MIT */
/* sampler.h: this machine's CPU and memory use from /proc, sampled once a second, and its
 * environment. */
#ifndef FSLAB_SAMPLER_H
#define FSLAB_SAMPLER_H

#include <jansson.h>
#include <stdint.h>

#include "result/result.h"

struct sampler {
	uint64_t prev[5]; /* total, idle, user+nice, system+irq+softirq, iowait (jiffies) */
	double sum_cpu, max_cpu, sum_user, sum_sys, sum_iowait;
	unsigned int n;
	uint64_t mem_sum, mem_max, mem_total;
	unsigned int mem_n;
};

/* Take the starting point. */
void sampler_start(struct sampler *h);
/* Sample now; returns CPU busy % (all CPUs = 100) since the previous sample. */
double sampler_tick(struct sampler *h);
/* Averages, maxima, peak RSS of this process into out. */
void sampler_finish(const struct sampler *h, struct host_result *out);

/* Environment without volumes: hostname, kernel, os, cpu_model, ncpus, mem_total, version. */
json_t *sampler_environment(void);

#endif
