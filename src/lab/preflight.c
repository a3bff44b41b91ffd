// SPDX-License-Identifier: MIT
/* preflight.c: what `fslab lab` checks before it changes anything (the system's part:
 * preflight_prep.c on Linux, preflight_win32.c on Windows; volumes the user prepared:
 * prepared.c; threads, output); every problem is reported, with file:line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"
#include "workloads/workload.h"

/* The nearest existing ancestor of path (for checks before it exists). */
char *lab_existing_ancestor(const char *path)
{
	char *p = xstrdup(path);

	while (os_stat(p, NULL, NULL)) {
		char *a = strrchr(p, '/'), *b = strrchr(p, '\\'), *slash = a > b ? a : b;

		if (!slash || slash == p) {
			free(p);
			return xstrdup(slash == p ? "/" : ".");
		}
		*slash = 0;
	}
	return p;
}

void lab_problem(struct problems *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fslab_err("preflight: %s", buf);
	p->n++;
}

int lab_preflight(struct lab *L)
{
	struct lab_cfg *c = &L->cfg;
	struct problems p = { 0 };

	/* what the lab's own preps need: Linux devices and tools, or Windows disks; with
	 * [host] sections each host checks its own (cluster.c: prep --dry-run there) */
	if (lab_cfg_has_prepped(c) && !c->hosts.n)
		lab_preflight_system(L, &p);
	/* the labels on volumes the user prepared */
	lab_preflight_prepared(L, &p);
	if (workload_flags(c->wl.workload) & WL_THREAD_PER_DB) {
		for (int i = 0; i < c->nthreads; i++)
			if (c->threads[i] < c->wl.databases)
				lab_problem(&p, "%s:%d: threads %llu is less than databases %u: each "
					    "database needs a session thread", c->path, c->workload_line,
					    (unsigned long long)c->threads[i],
					    (unsigned int)c->wl.databases);
	}
	{
		char *anc = lab_existing_ancestor(L->out);

		if (os_dir_writable(anc))
			lab_problem(&p, "--output %s: %s is not writable", L->out, anc);
		free(anc);
	}
	if (!have_program("gnuplot"))
		fslab_warn("preflight: gnuplot is missing: the report will have tables but no charts; "
			   "install the Debian package gnuplot-nox%s",
			   L->target.os == LAB_OS_WINDOWS ? " where you compare (or gnuplot for "
			   "Windows in PATH)" : "");
	if (p.n) {
		fslab_err("preflight found %u problem(s); nothing was changed", p.n);
		return -FSLAB_EINPUT;
	}
	return 0;
}
