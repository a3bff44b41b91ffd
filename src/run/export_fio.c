// SPDX-License-Identifier: MIT
/*
 * export_fio.c: the load of `fslab run` as a fio job file: the workload's jobs (its export
 * hook, workloads/workload.h) in fio's terms.
 *
 * A simple workload's pattern exactly as fslab drives it (and as make bench runs fio against
 * it): per --db directory one job with numjobs = the threads fslab puts there, a data file of
 * --db-size whose first 32 KiB are left alone (offset=32k), uniform offsets with replacement
 * (norandommap), every completion reaped and resubmitted at once (iodepth_batch_*), O_DIRECT
 * unless --buffered, seqwrite threads in regions of their own (offset_increment).  fio writes
 * its own files (fslab-fio*.dat), never fslab's database or data files.
 *
 * Approximated jobs (jetstress's, backup's) are named fslab-<class><n> (fslab-db1,
 * fslab-log1, fslab-bdm1), so fslab compare reads the result back into database, log and BDM
 * rows (import_fio.c): random write-through page I/O, write-through appends, sequential
 * reads, each maybe throttled.
 */
#include <stdio.h>
#include <string.h>

#include "run/export.h"
#include "util.h"

static void header(const struct export_ctx *x, FILE *f)
{
	const struct run_config *o = x->o;

	fprintf(f, "# fslab %s: fio job file written by\n#   %s\n", FSLAB_VERSION, x->cmdline);
	fprintf(f, "# run: fio THIS-FILE --output-format=json+ --output=RESULT.json\n");
	fprintf(f, "# then: fslab compare RESULT.json FSLAB-RESULT.json --allow-mismatch "
		"(docs/INTEROP.md)\n");
	if (x->x.approx)
		fprintf(f, "# %s\n", x->x.approx);
	/* a load that ends on its own: one pass over each file, --duration its limit */
	fprintf(f, "\n[global]\nioengine=%s\ndirect=%d\n%sruntime=%llu\n", o->engine,
		o->buffered ? 0 : 1, x->x.once ? "" : "time_based\n",
		(unsigned long long)(run_config_ns(o->duration_s) / NSEC_PER_SEC));
	fprintf(f, "ramp_time=%llums\nrandseed=%llu\nlat_percentiles=1\n",
		(unsigned long long)(run_config_ns(o->warmup_s) / NSEC_PER_MSEC),
		(unsigned long long)o->seed);
	/* fslab does not drop the file's cached pages per job */
	fprintf(f, "invalidate=0\n");
	if (o->compressibility)
		fprintf(f, "buffer_compress_percentage=%u\nbuffer_compress_chunk=4k\n",
			o->compressibility);
}

/* dir + "/" + name (the directory as given). */
static char *path_in(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

/* A simple workload's pattern exactly: every completion reaped and resubmitted at once. */
static void pattern(const struct wl_job *j, const char *file, FILE *f)
{
	const char *rw = j->region ? "write" : j->read_pct >= 100 ? "randread"
		       : j->read_pct <= 0 ? "randwrite" : "randrw";

	fprintf(f, "\n[%s]\nfilename=%s\nrw=%s\nbs=%llu\niodepth=%u\nnumjobs=%u\n", j->name,
		file, rw, (unsigned long long)j->bs, j->iodepth, j->threads);
	fprintf(f, "iodepth_batch_submit=%u\niodepth_batch_complete_max=%u\n", j->iodepth,
		j->iodepth);
	if (!strcmp(rw, "randrw"))
		fprintf(f, "rwmixread=%.0f\n", j->read_pct);
	if (j->region)
		/* each thread its own region, as fslab's seqwrite threads */
		fprintf(f, "offset=%lluk\nsize=%llu\noffset_increment=%llu\n",
			(unsigned long long)(j->offset / KiB), (unsigned long long)j->region,
			(unsigned long long)j->region);
	else
		fprintf(f, "offset=%lluk\nsize=%llu\nnorandommap\n",
			(unsigned long long)(j->offset / KiB),
			(unsigned long long)(j->size - j->offset));
}

/* An approximated job, named fslab-<class><n> (import_fio.c reads the class back). */
static void approximated(const struct wl_job *j, const char *file, FILE *f)
{
	if (j->comment[0])
		fprintf(f, "\n# %s", j->comment);
	fprintf(f, "\n[fslab-%s]\nfilename=%s\nsize=%llu\n", j->name, file,
		(unsigned long long)j->size);
	switch (j->kind) {
	case WJ_PAGES:
		fprintf(f, "rw=randrw\nrwmixread=%.0f\nbs=%lluk\niodepth=%u\nnumjobs=%u\n"
			"sync=dsync\nnorandommap\n", j->read_pct, (unsigned long long)(j->bs / KiB),
			j->iodepth, j->threads);
		break;
	case WJ_APPEND:
		fprintf(f, "rw=write\nbs=%llu\niodepth=%u\nsync=dsync\n",
			(unsigned long long)j->bs, j->iodepth);
		if (j->rate_iops > 0)
			fprintf(f, "rate_iops=%.0f\n", j->rate_iops < 1 ? 1 : j->rate_iops);
		break;
	default:
		fprintf(f, "rw=read\nbs=%lluk\niodepth=%u\n", (unsigned long long)(j->bs / KiB),
			j->iodepth);
		if (j->threads > 1)
			fprintf(f, "numjobs=%u\n", j->threads);
		if (j->rate > 0)
			fprintf(f, "rate=%.0f\n", j->rate);
		break;
	}
}

static int fio_write(const struct export_ctx *x, FILE *f, FILE *lines)
{
	(void)lines;
	header(x, f);
	for (size_t i = 0; i < x->x.njobs; i++) {
		const struct wl_job *j = &x->x.jobs[i];
		char name[48], *file;

		snprintf(name, sizeof(name), "fslab-fio%s.dat", j->file);
		file = path_in(j->dir, name);
		if (j->kind == WJ_PATTERN)
			pattern(j, file, f);
		else
			approximated(j, file, f);
		free(file);
	}
	return 0;
}

const struct exporter export_fio = {
	.name = "fio",
	.what = "fio job file",
	.write = fio_write,
};
