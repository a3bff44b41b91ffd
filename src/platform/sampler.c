// SPDX-License-Identifier: MIT
/* sampler.c: /proc/stat and /proc/meminfo sampling; host description for the environment. */
#include "platform/sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/base.h"

static int read_cpu(uint64_t v[5])
{
	unsigned long long u, ni, sy, id, io, irq, sirq, st;
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &ni, &sy, &id, &io, &irq,
		   &sirq, &st);
	fclose(f);
	if (n < 8)
		return -1;
	v[0] = u + ni + sy + id + io + irq + sirq + st;
	v[1] = id;
	v[2] = u + ni;
	v[3] = sy + irq + sirq;
	v[4] = io;
	return 0;
}

/* MemTotal and MemTotal - MemAvailable, bytes. */
static void read_mem(uint64_t *total, uint64_t *used)
{
	unsigned long long t = 0, a = 0, v;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "re");

	*total = *used = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &v) == 1)
			t = v;
		else if (sscanf(line, "MemAvailable: %llu kB", &v) == 1)
			a = v;
	}
	fclose(f);
	*total = t * 1024;
	*used = (t - a) * 1024;
}

void sampler_start(struct sampler *h)
{
	uint64_t used;

	memset(h, 0, sizeof(*h));
	read_cpu(h->prev);
	read_mem(&h->mem_total, &used);
}

double sampler_tick(struct sampler *h)
{
	uint64_t v[5], total, used, mt;
	double busy, d;

	if (read_cpu(v))
		return 0;
	total = v[0] - h->prev[0];
	if (!total)
		return 0;
	d = (double)total;
	/* busy = not idle and not waiting for I/O */
	busy = 100.0 * (double)(total - (v[1] - h->prev[1]) - (v[4] - h->prev[4])) / d;
	h->sum_cpu += busy;
	if (busy > h->max_cpu)
		h->max_cpu = busy;
	h->sum_user += 100.0 * (double)(v[2] - h->prev[2]) / d;
	h->sum_sys += 100.0 * (double)(v[3] - h->prev[3]) / d;
	h->sum_iowait += 100.0 * (double)(v[4] - h->prev[4]) / d;
	h->n++;
	memcpy(h->prev, v, sizeof(v));
	read_mem(&mt, &used);
	h->mem_sum += used;
	h->mem_n++;
	if (used > h->mem_max)
		h->mem_max = used;
	return busy;
}

static uint64_t vm_hwm(void)
{
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %llu kB", &v) == 1)
			break;
	fclose(f);
	return v * 1024;
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
	out->fslab_rss_max = vm_hwm();
	out->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* Value of "key" in a "key: value" or key="value" file, first match. */
static char *kv_lookup(const char *path, const char *key, char sep)
{
	char line[512], *out = NULL;
	size_t kl = strlen(key);
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	while (!out && fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, key, kl))
			continue;
		p = strchr(line + kl, sep);
		if (!p)
			continue;
		p++;
		while (*p == ' ' || *p == '\t' || *p == '"')
			p++;
		p[strcspn(p, "\"\n")] = 0;
		out = xstrdup(p);
	}
	fclose(f);
	return out;
}

json_t *sampler_environment(void)
{
	char host[256] = "";
	struct utsname u;
	uint64_t total, used;
	char *cpu = kv_lookup("/proc/cpuinfo", "model name", ':');
	char *os = kv_lookup("/etc/os-release", "PRETTY_NAME", '=');
	json_t *o;

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	read_mem(&total, &used);
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:I, s:s, s:s}",
		      "hostname", host, "kernel", u.release, "kernel_version", u.version,
		      "os", os ? os : "", "cpu_model", cpu ? cpu : "",
		      "ncpus", (int)sysconf(_SC_NPROCESSORS_ONLN), "mem_total", (json_int_t)total,
		      "fslab_version", fslab_version, "fslab_git", fslab_git);
	json_object_set_new(o, "fslab_git_describe", json_string(fslab_git_describe));
	json_object_set_new(o, "platform", json_string("linux"));
	free(cpu);
	free(os);
	return o;
}
