/* SPDX-License-Identifier: MIT */
/* samplerP.h: what the sampler (sampler.c) reads from each system: sampler_linux.c and
 * sampler_win32.c give these, and sampler_environment(). */
#ifndef FSLAB_SAMPLERP_H
#define FSLAB_SAMPLERP_H

#include <stdint.h>

#include "platform/sampler.h"

/* v: total, idle, user, system, iowait CPU time since boot (all CPUs, in the system's unit;
 * iowait 0 where the system has none).  0, or -1 when it cannot be read. */
int sampler_read_cpu(uint64_t v[5]);
/* Physical memory: total, and in use (total - available), bytes; 0 and 0 when unknown. */
void sampler_read_mem(uint64_t *total, uint64_t *used);
/* This process's peak resident memory, bytes (0 when unknown). */
uint64_t sampler_peak_rss(void);

#endif
