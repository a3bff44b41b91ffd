// SPDX-License-Identifier: MIT
/*
 * jetstress_config.c: what the jetstress workload records, says and exports outside the run:
 * its config (defaults, what does not apply), its summary lines, its load as jobs for fio and
 * DiskSpd (an approximation, docs/INTEROP.md).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/base.h"
#include "jetstressP.h"
#include "lib/units.h"

/*
 * Without --from: fslab's jetstress shape as measured here (docs/INTEROP.md): reads 60 % of
 * database I/Os, 8 KiB log writes, log rate left to the tool.
 */
#define JS_DEFAULT_READ_PCT 60.0
#define JS_DEFAULT_LOG_BYTES (8 * 1024)

void js_config(struct run_config *c, const struct wl_given *given)
{
	(void)given;
	/* ESE's page; a session waits for each page it reads or writes */
	c->bs = DB_PAGE_SIZE;
	c->iodepth = 1;
	/* the transaction mix decides the read share, not --rwmixread */
	run_config_set_na(c, offsetof(struct run_config, rwmixread));
	/* ESE's cache is small against a Jetstress database (js_cache_default: the sizing and
	 * its sources, docs/DESIGN.md "Database cache and lazy writer") */
	if (!c->cache_size)
		c->cache_size = js_cache_default(c->db_size);
}

void js_describe(const struct run_config *c, FILE *f)
{
	char a[32];

	fprintf(f, ", %u database(s) x %s", c->databases, fmt_size(a, sizeof(a), c->db_size));
}

void js_summary(const struct fslab_result *r, FILE *f)
{
	fprintf(f, "Achieved transactional I/O per second: %.1f   (transactions/s %.1f)\n",
		r->transactional_iops, r->transactions_per_s);
	js_summary_shape(&r->fidelity, f);
	fputc('\n', f);
}

void js_summary_shape(const struct fidelity *fd, FILE *f)
{
	if (!fd->present)
		return;
	fprintf(f, "Load shape (Jetstress's bands):");
	for (int k = 0; k < FID_NR; k++) {
		char v[32];

		fprintf(f, "%s %s %s (%s)%s", k ? "," : "", fid_words[k],
			fid_value_text(v, sizeof(v), (enum fid_ratio)k, fd->r[k].value),
			fid_band_text((enum fid_ratio)k), fd->r[k].in_band ? "" : " OUT");
	}
	fputc('\n', f);
	if (fd->why)
		fprintf(f, "  %s\n", fd->why);
}

/*
 * Per database: its sessions' 32 KiB random reads and writes at the shape's read share,
 * write-through; its log stream's write-through appends of the shape's size (at its rate when
 * measured); its BDM reader's 256 KiB sequential reads at --bdm-rate.
 */
int js_export(const struct run_config *c, const struct wl_shape *sh, struct wl_export *x)
{
	double read_pct = sh->from ? sh->read_pct : JS_DEFAULT_READ_PCT;
	uint64_t log_bytes = sh->from ? sh->log_bytes : JS_DEFAULT_LOG_BYTES;
	double log_iops = sh->from ? sh->log_iops : 0;

	x->approx = xasprintf("jetstress approximated: %.1f %% database reads (%s), %llu-byte log "
			      "writes%s; no transactions, no cache, no log rolls, no checksum pass",
			      read_pct, sh->from ? sh->from : "fslab's default shape",
			      (unsigned long long)log_bytes,
			      log_iops > 0 ? " at the measured rate" : ", not throttled");
	for (unsigned int k = 0; k < c->databases; k++) {
		const char *dd = c->db_dirs[k % c->ndb_dirs], *ld = c->log_dirs[k % c->nlog_dirs];
		struct wl_job *j;

		j = wl_export_add(x, WJ_PAGES, dd, "db%u", k + 1);
		snprintf(j->comment, sizeof(j->comment),
			 "database %u: its sessions' page reads and writes", k + 1);
		snprintf(j->file, sizeof(j->file), "-db%u", k + 1);
		j->size = c->db_size;
		j->bs = DB_PAGE_SIZE;
		j->read_pct = read_pct;
		j->threads = wl_threads_of(c->threads, c->databases, k);
		j->iodepth = 1;

		j = wl_export_add(x, WJ_APPEND, ld, "log%u", k + 1);
		snprintf(j->comment, sizeof(j->comment),
			 "its log stream: sequential write-through appends");
		snprintf(j->file, sizeof(j->file), "-log%u", k + 1);
		j->size = 64 * MiB;
		j->bs = log_bytes;
		j->threads = j->iodepth = 1;
		j->rate_iops = log_iops;

		if (!(c->bdm_mbps > 0))
			continue;
		j = wl_export_add(x, WJ_SEQREAD, dd, "bdm%u", k + 1);
		snprintf(j->comment, sizeof(j->comment),
			 "background database maintenance: throttled sequential reads");
		snprintf(j->file, sizeof(j->file), "-db%u", k + 1);
		j->size = c->db_size;
		j->bs = JS_BDM_IO;
		j->threads = j->iodepth = 1;
		j->rate = c->bdm_mbps * 1e6;
	}
	return 0;
}
