// SPDX-License-Identifier: MIT
/*
 * export_fio.c: the load of `fslab run` as a fio job file.
 *
 * Simple workloads exactly as fslab drives them (and as make bench runs fio against it): per
 * --db directory one job with numjobs = the threads fslab puts there, a data file of --db-size
 * whose first 32 KiB are left alone (offset=32k), uniform offsets with replacement
 * (norandommap), every completion reaped and resubmitted at once (iodepth_batch_*), O_DIRECT
 * unless --buffered, seqwrite threads in regions of their own (offset_increment).  fio writes
 * its own file (fslab-fio.dat), never fslab's database or data files.
 *
 * jetstress is approximated per database: db<N> 32 KiB random reads and writes at fslab's
 * read:write ratio with write-through (O_DSYNC), numjobs = its sessions; log<N> sequential
 * write-through appends of the measured size, throttled to the measured rate when known;
 * bdm<N> 256 KiB sequential reads throttled to --bdm-rate.  Job names say the class, so
 * fslab compare reads the result back into database, log and BDM rows (import_fio.c).
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
	if (!strcmp(o->workload, "jetstress"))
		fprintf(f, "# jetstress approximated: %.1f %% database reads (%s), %llu-byte log "
			"writes%s; no transactions, no cache, no log rolls, no checksum pass\n",
			x->js.read_pct, x->js.from ? x->js.from : "fslab's default shape",
			(unsigned long long)x->js.log_bytes,
			x->js.log_iops > 0 ? " at the measured rate" : ", not throttled");
	fprintf(f, "\n[global]\nioengine=%s\ndirect=%d\ntime_based\nruntime=%llu\n", o->engine,
		o->buffered ? 0 : 1, (unsigned long long)(run_config_ns(o->duration_s) / NSEC_PER_SEC));
	fprintf(f, "ramp_time=%llums\nrandseed=%llu\nlat_percentiles=1\n",
		(unsigned long long)(run_config_ns(o->warmup_s) / NSEC_PER_MSEC), (unsigned long long)o->seed);
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

static int simple(const struct export_ctx *x, FILE *f)
{
	const struct run_config *o = x->o;
	const char *rw = !strcmp(o->workload, "seqwrite") ? "write" : o->workload;
	uint64_t data = o->db_size - 32 * KiB;

	for (size_t i = 0; i < o->ndb_dirs; i++) {
		unsigned int nj = export_threads_of(o, i);
		char *file = path_in(o->db_dirs[i], "fslab-fio.dat");

		if (!nj) {
			free(file);
			continue;
		}
		fprintf(f, "\n[%s-%zu]\nfilename=%s\nrw=%s\nbs=%llu\niodepth=%u\nnumjobs=%u\n",
			o->workload, i + 1, file, rw, (unsigned long long)o->bs, o->iodepth, nj);
		fprintf(f, "iodepth_batch_submit=%u\niodepth_batch_complete_max=%u\n", o->iodepth,
			o->iodepth);
		if (!strcmp(o->workload, "randrw"))
			fprintf(f, "rwmixread=%u\n", o->rwmixread);
		if (!strcmp(o->workload, "seqwrite")) {
			/* each thread its own region, as fslab's seqwrite threads */
			uint64_t region = data / o->bs / (nj ? nj : 1) * o->bs;

			fprintf(f, "offset=32k\nsize=%llu\noffset_increment=%llu\n",
				(unsigned long long)region, (unsigned long long)region);
		} else {
			fprintf(f, "offset=32k\nsize=%llu\nnorandommap\n", (unsigned long long)data);
		}
		free(file);
	}
	return 0;
}

static int jetstress(const struct export_ctx *x, FILE *f)
{
	const struct run_config *o = x->o;

	for (unsigned int k = 0; k < o->databases; k++) {
		const char *dd = o->db_dirs[k % o->ndb_dirs], *ld = o->log_dirs[k % o->nlog_dirs];
		char name[32], *db, *log;

		snprintf(name, sizeof(name), "fslab-fio-db%u.dat", k + 1);
		db = path_in(dd, name);
		snprintf(name, sizeof(name), "fslab-fio-log%u.dat", k + 1);
		log = path_in(ld, name);
		fprintf(f, "\n# database %u: its sessions' page reads and writes\n", k + 1);
		fprintf(f, "[fslab-db%u]\nfilename=%s\nsize=%llu\nrw=randrw\nrwmixread=%.0f\n"
			"bs=32k\niodepth=1\nnumjobs=%u\nsync=dsync\nnorandommap\n", k + 1, db,
			(unsigned long long)o->db_size, x->js.read_pct, export_threads_of(o, k));
		fprintf(f, "\n# its log stream: sequential write-through appends\n");
		fprintf(f, "[fslab-log%u]\nfilename=%s\nsize=%llu\nrw=write\nbs=%llu\niodepth=1\n"
			"sync=dsync\n", k + 1, log, 64ULL * MiB, (unsigned long long)x->js.log_bytes);
		if (x->js.log_iops > 0)
			fprintf(f, "rate_iops=%.0f\n", x->js.log_iops < 1 ? 1 : x->js.log_iops);
		if (o->bdm_mbps > 0) {
			fprintf(f, "\n# background database maintenance: throttled sequential reads\n");
			fprintf(f, "[fslab-bdm%u]\nfilename=%s\nsize=%llu\nrw=read\nbs=256k\n"
				"iodepth=1\nrate=%.0f\n", k + 1, db, (unsigned long long)o->db_size,
				o->bdm_mbps * 1e6);
		}
		free(db);
		free(log);
	}
	return 0;
}

static int fio_write(const struct export_ctx *x, FILE *f, FILE *lines)
{
	(void)lines;
	header(x, f);
	return !strcmp(x->o->workload, "jetstress") ? jetstress(x, f) : simple(x, f);
}

const struct exporter export_fio = {
	.name = "fio",
	.what = "fio job file",
	.write = fio_write,
};
