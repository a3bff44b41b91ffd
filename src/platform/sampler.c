// SPDX-License-Identifier: MIT
/* sampler.c: this machine's CPU and memory use sampled once a second, both systems: the
 * arithmetic here, the readers per system (sampler_linux.c, sampler_win32.c). */
#include "platform/samplerP.h"

#include <string.h>

#include "os/os.h"

void sampler_start(struct sampler *h)
{
	uint64_t used;

	memset(h, 0, sizeof(*h));
	sampler_read_cpu(h->prev);
	sampler_read_mem(&h->mem_total, &used);
}

double sampler_tick(struct sampler *h)
{
	uint64_t v[5], total, used, mt;
	double busy, d;

	if (sampler_read_cpu(v))
		return 0;
	total = v[0] - h->prev[0];
	if (!total)
		return 0;
	d = (double)total;
	/* busy = not idle and not waiting for I/O (no iowait on Windows: 0) */
	busy = 100.0 * (double)(total - (v[1] - h->prev[1]) - (v[4] - h->prev[4])) / d;
	h->sum_cpu += busy;
	if (busy > h->max_cpu)
		h->max_cpu = busy;
	h->sum_user += 100.0 * (double)(v[2] - h->prev[2]) / d;
	h->sum_sys += 100.0 * (double)(v[3] - h->prev[3]) / d;
	h->sum_iowait += 100.0 * (double)(v[4] - h->prev[4]) / d;
	h->n++;
	memcpy(h->prev, v, sizeof(v));
	sampler_read_mem(&mt, &used);
	h->mem_sum += used;
	h->mem_n++;
	if (used > h->mem_max)
		h->mem_max = used;
	return busy;
}

void sampler_finish(const struct sampler *h, struct host_result *out)
{
	memset(out, 0, sizeof(*out));
	if (h->n) {
		out->cpu_pct_avg = h->sum_cpu / h->n;
		out->cpu_pct_max = h->max_cpu;
		out->cpu_user_pct = h->sum_user / h->n;
		out->cpu_sys_pct = h->sum_sys / h->n;
		out->cpu_iowait_pct = h->sum_iowait / h->n;
	}
	out->mem_total = h->mem_total;
	out->mem_used_avg = h->mem_n ? h->mem_sum / h->mem_n : 0;
	out->mem_used_max = h->mem_max;
	out->fslab_rss_max = sampler_peak_rss();
	out->ncpus = os_ncpus();
}
