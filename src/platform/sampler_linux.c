// SPDX-License-Identifier: MIT
/* sampler_linux.c: the sampler's readers on Linux (/proc/stat, /proc/meminfo, VmHWM) and the
 * environment (uname, /proc/cpuinfo, /etc/os-release). */
#include "platform/samplerP.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/base.h"

/* v: total, idle, user+nice, system+irq+softirq, iowait (jiffies) from /proc/stat. */
int sampler_read_cpu(uint64_t v[5])
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
void sampler_read_mem(uint64_t *total, uint64_t *used)
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

/* VmHWM of /proc/self/status, bytes. */
uint64_t sampler_peak_rss(void)
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
	sampler_read_mem(&total, &used);
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
