/* SPDX-License-Identifier: MIT */
/* host.h: host CPU and memory use from /proc, sampled once a second, and the environment. */
#ifndef FSLAB_HOST_H
#define FSLAB_HOST_H

#include <jansson.h>
#include <stdint.h>

#include "result.h"

struct host_sampler {
	uint64_t prev[5]; /* total, idle, user+nice, system+irq+softirq, iowait (jiffies) */
	double sum_cpu, max_cpu, sum_user, sum_sys, sum_iowait;
	unsigned int n;
	uint64_t mem_sum, mem_max, mem_total;
	unsigned int mem_n;
};

/* Take the starting point. */
void host_sampler_start(struct host_sampler *h);
/* Sample now; returns CPU busy % (all CPUs = 100) since the previous sample. */
double host_sampler_tick(struct host_sampler *h);
/* Averages, maxima, peak RSS of this process into out. */
void host_sampler_finish(const struct host_sampler *h, struct host_result *out);

/* Environment without volumes: hostname, kernel, os, cpu_model, ncpus, mem_total, version. */
json_t *host_environment(void);

#endif
