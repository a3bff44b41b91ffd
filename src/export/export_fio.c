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
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "export/export.h"

/*
 * fio reads a job file with fgets() of 8 KiB (OPT_LEN_MAX, fio's parse.h): the rest of a longer
 * line would be read as a line of its own, an option.  Comment lines are cut below that.
 */
#define FIO_LINE_MAX 4000

static void header(const struct export_ctx *x, FILE *f)
{
	const struct run_config *o = x->o;
	const char *p = x->cmdline;

	/* the command line (control characters already escaped by export.c), folded */
	fprintf(f, "# fslab %s: fio job file written by\n", FSLAB_VERSION);
	do {
		size_t n = strlen(p);

		if (n > FIO_LINE_MAX) {
			n = FIO_LINE_MAX;
			while (n && ((unsigned char)p[n] & 0xc0) == 0x80)
				n--; /* not inside a UTF-8 sequence */
		}
		fprintf(f, "#   %.*s\n", (int)n, p);
		p += n;
	} while (*p);
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

/*
 * A directory fio's job file parser would read as something else (fio's init.c and parse.c):
 * it reads line by line (a newline or any control character would end the value and start
 * an option of its own: exec_prerun=...), cuts a line at ';' or '#' (comments; no escape
 * exists), strips blanks at both ends, substitutes ${VAR} and $keywords, and a line beyond
 * its 8 KiB buffer is split.  Such a directory is refused (exit 2), as --to diskspd refuses
 * shell characters; ':' (fio's separator of several files) is escaped instead (path_in()).
 */
static int bad_path(const char *p)
{
	const char *why = NULL;
	size_t n = strlen(p);

	for (const char *c = p; *c && !why; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			why = "a control character (a newline would start an option of its own)";
	if (!why && strpbrk(p, ";#"))
		why = "';' or '#' (fio reads the rest of the line as a comment)";
	if (!why && strchr(p, '$'))
		why = "'$' (fio substitutes ${VAR} and $keywords)";
	if (!why && n && (isspace((unsigned char)p[0]) || isspace((unsigned char)p[n - 1])))
		why = "a blank at its start or end (fio strips them)";
	if (!why && n > FIO_LINE_MAX)
		why = "more than 4000 bytes (fio reads a job file in lines of 8 KiB)";
	if (!why)
		return 0;
	{
		char *shown = str_escape(p);
		int ret = input_error("%.200s: a directory with %s cannot be written into a fio job "
				      "file; use a path without it", shown, why);

		free(shown);
		return ret;
	}
}

/* dir + "/" + name (the directory as given), ':' escaped as fio's filename= wants ("\:"). */
static char *path_in(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p = xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	char *out = xmalloc(2 * strlen(p) + 1), *o = out;

	for (const char *c = p; *c; c++) {
		if (*c == ':')
			*o++ = '\\';
		*o++ = *c;
	}
	*o = 0;
	free(p);
	return out;
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
	const struct run_config *o = x->o;
	int ret = 0;

	(void)lines;
	for (size_t i = 0; i < o->ndb_dirs && !ret; i++)
		ret = bad_path(o->db_dirs[i]);
	for (size_t i = 0; i < o->nlog_dirs && !ret; i++)
		ret = bad_path(o->log_dirs[i]);
	for (size_t i = 0; i < x->x.njobs && !ret; i++)
		ret = x->x.jobs[i].dir ? bad_path(x->x.jobs[i].dir) : 0;
	if (ret)
		return ret;
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
