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


/* path as it will be once it exists: the real path of its longest existing part (links
 * resolved), then the rest as written; heap (path itself when nothing resolves). */
static char *future_path(const char *path)
{
	char *anc = lab_existing_ancestor(path), *real = os_realpath(anc), *out;
	size_t n = strlen(anc);
	const char *rest = strncmp(path, anc, n) ? path : path + n;

	while (*rest == '/' || *rest == '\\')
		rest++;
	if (!real)
		out = xstrdup(path);
	else if (!*rest)
		out = xstrdup(real);
	else
		out = xasprintf("%s%s%s", real, strchr("/\\", real[strlen(real) - 1]) ? "" : "/",
				rest);
	free(anc);
	free(real);
	return out;
}

/* Is a the directory d or inside it (both as future_path() gives them)? */
static bool within(const char *a, const char *d)
{
	size_t n = strlen(d);

	while (n > 1 && (d[n - 1] == '/' || d[n - 1] == '\\'))
		n--;
	return !strncmp(a, d, n) && (!a[n] || a[n] == '/' || a[n] == '\\' ||
				     d[n - 1] == '/' || d[n - 1] == '\\');
}

/*
 * The lab's output apart from the directories a prepared label's cells empty (run --fresh
 * deletes fslab's files there and refuses anything else): inside one, every cell would find
 * the lab's own results and logs and fail.
 */
static void output_apart(struct lab *L, struct problems *p)
{
	const struct lab_cfg *c = &L->cfg;
	char *out = future_path(L->out);

	for (int i = 0; i < c->nfs; i++) {
		const struct lab_fs *f = &c->fs[i];

		for (size_t k = 0; f->prepared && k < f->db_dirs.nr + f->log_dirs.nr; k++) {
			bool db = k < f->db_dirs.nr;
			const char *d = db ? f->db_dirs.v[k] : f->log_dirs.v[k - f->db_dirs.nr];
			char *fd = future_path(d);

			if (within(out, fd))
				lab_problem(p, "%s:%d: --output %s is inside [fs %s] %s = %s, which each "
					    "cell empties of all but its databases and logs: every cell "
					    "would find the lab's own files there and fail; give an output "
					    "directory outside it", c->path,
					    db ? f->db_dir_line : f->log_dir_line, L->out, f->name,
					    db ? "db_dir" : "log_dir", d);
			free(fd);
		}
	}
	free(out);
}


int lab_preflight(struct lab *L)
{
	struct lab_cfg *c = &L->cfg;
	struct problems p = { 0 };

	/* what the lab's own preps need: Linux devices and tools, or Windows disks; with
	 * [host] sections each host checks its own (cluster.c: prep --dry-run there) */
	if (lab_cfg_has_prepped(c) && !c->hosts.n)
		lab_preflight_system(L, &p);
	/* the labels on volumes the user prepared (never with [host] sections), and the
	 * output kept out of their directories */
	lab_preflight_prepared(L, &p);
	output_apart(L, &p);
	if (workload_flags(c->wl.workload) & WL_THREAD_PER_DB) {
		for (int i = 0; i < c->nthreads; i++)
			if (c->threads[i] && c->threads[i] < c->wl.databases)
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
	if (!os_have_program("gnuplot"))
		fslab_warn("preflight: gnuplot is missing: the report will have tables but no charts; "
			   "install the Debian package gnuplot-nox%s",
			   L->target.sys->gnuplot);
	if (p.n) {
		fslab_err("preflight found %u problem(s); nothing was changed", p.n);
		return -FSLAB_EINPUT;
	}
	return 0;
}
