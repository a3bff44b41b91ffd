// SPDX-License-Identifier: MIT
/* setup.c: what the result files say about the experiment: setup facts from their
 * environment, the run order, the Method section. */
#include "compare/reportP.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "selftest/selftest.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/units.h"
#include "workloads/workload.h"

/* ---- setup facts ---- */

static json_t *jpath(json_t *o, const char *path)
{
	char *copy = xstrdup(path), *save = NULL;

	for (char *k = strtok_r(copy, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_object_get(o, k);
	free(copy);
	return o;
}

static char *jtext(json_t *o, const char *path)
{
	json_t *v = jpath(o, path);

	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%g", json_real_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "yes" : "no");
	return NULL;
}

static json_t *volume(const struct fslab_result *r, const char *role)
{
	json_t *vols = json_object_get(r->environment, "volumes"), *v;
	size_t i;

	json_array_foreach(vols, i, v)
		if (json_is_string(json_object_get(v, "role")) &&
		    !strcmp(json_string_value(json_object_get(v, "role")), role))
			return v;
	return NULL;
}

static char *or_dash(char *s)
{
	return s ? s : xstrdup("-");
}

/* Discarded before mkfs: prep's answer, or for new images allocated before the run why
 * there was nothing to discard. */
static char *discard_fact(json_t *env)
{
	char *blocks = jtext(env, "prep.volumes.db.image_blocks");
	char *out;

	if (blocks && strcmp(blocks, "sparse"))
		out = xasprintf("no: new images with their blocks %s before the run (mkfs told not to "
				"discard them either)", !strcmp(blocks, "written") ? "allocated" :
				blocks);
	else
		out = or_dash(jtext(env, "prep.volumes.db.discarded"));
	free(blocks);
	return out;
}

static char *device_fact(const struct fslab_result *r, const char *role)
{
	json_t *v = volume(r, role), *rot = json_object_get(v, "rotational");
	const struct device_result *dev = compare_device(r, role);
	char *src = jtext(v, "source"), *model = jtext(v, "device_model");
	char *ls = jtext(v, "logical_sector"), *ps = jtext(v, "physical_sector"), *out;
	/* the result's own text, whole */
	char *sectors = ls ? xasprintf(", %s/%s-byte sectors", ls, ps ? ps : "?") : xstrdup("");

	if (!model && dev && dev->model)
		model = xstrdup(dev->model);
	if (!src && !model)
		out = xstrdup("-");
	else
		out = xasprintf("%s, %s%s%s", src ? src : "?",
				model && *model ? model : "model unknown",
				!json_is_boolean(rot) ? "" : json_is_true(rot) ? ", rotational"
									  : ", non-rotational",
				sectors);
	free(sectors);
	free(src);
	free(model);
	free(ls);
	free(ps);
	return out;
}

static char *mkfs_fact(const struct fslab_result *r, const char *role)
{
	char *path = xasprintf("prep.volumes.%s.mkfs.command", role);
	char *s = jtext(r->environment, path);

	free(path);
	return s ? s : xstrdup("not formatted by fslab prep");
}

static char *alignment_fact(const struct fslab_result *r)
{
	json_t *t = jpath(r->environment, "prep.volumes.db.topology");
	char *ps = jtext(t, "partition_start"), *off = jtext(t, "alignment_offset");
	char *opt = jtext(t, "opt_io"), *out;
	json_t *al = json_object_get(t, "aligned");

	if (!t)
		return xstrdup("-");
	out = xasprintf("partition start sector %s, alignment offset %s, optimal I/O %s: %s",
			ps ? ps : "?", off ? off : "?", opt ? opt : "?",
			json_is_true(al) ? "aligned" : "NOT aligned");
	free(ps);
	free(off);
	free(opt);
	return out;
}

static char *blocks_fact(const struct fslab_result *r)
{
	json_t *v = jpath(r->environment, "prep.volumes.db.verified");
	char *bs = jtext(v, "block_size"), *cs = jtext(v, "cluster_size"), *out;

	if (!bs)
		bs = jtext(volume(r, "db"), "block_size");
	if (!bs)
		out = xstrdup("-");
	else if (!cs)
		out = xasprintf("%s B block", bs);
	else
		out = xasprintf("%s B block, %s B cluster", bs, cs);
	free(bs);
	free(cs);
	return out;
}

static char *direct_fact(const struct fslab_result *r)
{
	json_t *db = json_object_get(volume(r, "db"), "o_direct");
	json_t *log = json_object_get(volume(r, "log"), "o_direct");

	if (!db && !log)
		return xstrdup("-");
	if (json_is_true(db) && json_is_true(log))
		return xstrdup("yes, database and log");
	return xasprintf("database %s, log %s", json_is_true(db) ? "yes" : "REFUSED (buffered)",
			 json_is_true(log) ? "yes" : "REFUSED (buffered)");
}

static char *cache_fix_fact(const struct fslab_result *r)
{
	json_t *fix = jpath(r->environment, "prep.ntfs_cache_fix");
	char *m = jtext(fix, "method"), *out;
	json_t *lim = json_object_get(fix, "limit_bytes");
	char sz[32];

	if (!fix || json_is_null(fix))
		return xstrdup("none");
	out = xasprintf("%s, %s limit", m ? m : "?",
			json_is_integer(lim) ? fmt_size(sz, sizeof(sz), json_integer_value(lim))
					     : "?");
	free(m);
	return out;
}

static char *mem_fact(const struct fslab_result *r)
{
	json_t *v = json_object_get(r->environment, "mem_total");
	char sz[32];

	return json_is_integer(v) ? xstrdup(fmt_size(sz, sizeof(sz), json_integer_value(v)))
				  : xstrdup("-");
}

static char *cpu_fact(const struct fslab_result *r)
{
	char *m = jtext(r->environment, "cpu_model"), *n = jtext(r->environment, "ncpus"), *out;

	out = xasprintf("%s, %s CPUs", m ? m : "?", n ? n : "?");
	free(m);
	free(n);
	return out;
}

static char *fs_fact(const struct fslab_result *r)
{
	char *db = jtext(volume(r, "db"), "fstype"), *log = jtext(volume(r, "log"), "fstype");
	char *out;

	if (db && log && strcmp(db, log))
		out = xasprintf("%s (database), %s (log)", db, log);
	else
		out = xstrdup(compare_result_fs(r));
	free(db);
	free(log);
	return out;
}

static char *engine_fact(const struct fslab_result *r)
{
	char *e = jtext(r->environment, "engine");

	return e ? e : xstrdup(r->config.engine ? r->config.engine : "-");
}

static char *version_fact(const struct fslab_result *r)
{
	char *v = jtext(r->environment, "fslab_version"), *g = jtext(r->environment, "fslab_git");
	char *out = xasprintf("%s (%s)", v ? v : r->fslab_version ? r->fslab_version : "?",
			      g ? g : "?");

	free(v);
	free(g);
	return out;
}

enum fact {
	F_HOST, F_OS, F_KERNEL, F_CPU, F_MEM, F_FSLAB, F_ENGINE, F_DIRECT, F_DBDEV, F_LOGDEV, F_FS,
	F_MKFS_DB, F_MKFS_LOG, F_MKFS_VER, F_BLOCKS, F_ALIGN, F_MOUNT_DB, F_MOUNT_LOG, F_DISCARD,
	F_CACHEFIX, F_DROPPED, F_SELFTEST, F_NR,
};

static const char *const fact_names[F_NR] = {
	"Host", "OS", "Kernel", "CPU", "Memory", "fslab", "I/O engine", "O_DIRECT",
	"Database device", "Log device", "Filesystem", "mkfs, database volume", "mkfs, log volume",
	"mkfs version", "Block / cluster size", "Alignment, database volume",
	"Mount options, database volume", "Mount options, log volume", "Discarded before mkfs",
	"NTFS cache fix", "Page cache dropped before the run", "Self-test (fslab selftest)",
};

static char *fact(const struct fslab_result *r, enum fact f)
{
	json_t *env = r->environment;

	switch (f) {
	case F_HOST: return or_dash(jtext(env, "hostname"));
	case F_OS: return or_dash(jtext(env, "os"));
	case F_KERNEL: return or_dash(jtext(env, "kernel"));
	case F_CPU: return cpu_fact(r);
	case F_MEM: return mem_fact(r);
	case F_FSLAB: return version_fact(r);
	case F_ENGINE: return engine_fact(r);
	case F_DIRECT: return direct_fact(r);
	case F_DBDEV: return device_fact(r, "db");
	case F_LOGDEV: return device_fact(r, "log");
	case F_FS: return fs_fact(r);
	case F_MKFS_DB: return mkfs_fact(r, "db");
	case F_MKFS_LOG: return mkfs_fact(r, "log");
	case F_MKFS_VER: return or_dash(jtext(env, "prep.volumes.db.mkfs.tool_version"));
	case F_BLOCKS: return blocks_fact(r);
	case F_ALIGN: return alignment_fact(r);
	case F_MOUNT_DB: return or_dash(jtext(volume(r, "db"), "mount_options"));
	case F_MOUNT_LOG: return or_dash(jtext(volume(r, "log"), "mount_options"));
	case F_DISCARD: return discard_fact(env);
	case F_CACHEFIX: return cache_fix_fact(r);
	case F_DROPPED: return or_dash(jtext(env, "caches_dropped"));
	case F_SELFTEST: return selftest_fact(json_object_get(env, "selftest"));
	default: return xstrdup("-");
	}
}

/* Facts equal for every label go into one list, the others into a table by label. */
void report_setup(struct doc *d, const struct compare *c)
{
	struct doc_table *t = doc_table_new(1 + c->ngroups, false);
	char **v = xcalloc(c->ngroups, sizeof(char *));
	bool any = false;

	doc_table_set(t, 0, 0, "Setup");
	for (size_t g = 0; g < c->ngroups; g++)
		doc_table_set(t, 0, 1 + g, "%s", c->groups[g].label);
	doc_para(d, "Common to all runs:");
	for (int f = 0; f < F_NR; f++) {
		bool same = true, selftest = false;

		/* the self-test row only where a result carries one (fslab run --selftest) */
		for (size_t i = 0; f == F_SELFTEST && i < c->nresults; i++)
			selftest |= json_is_object(json_object_get(c->results[i].environment,
								   "selftest"));
		if (f == F_SELFTEST && !selftest)
			continue;

		for (size_t g = 0; g < c->ngroups; g++) {
			v[g] = fact(&c->results[c->groups[g].runs[0]], f);
			same &= !strcmp(v[g], v[0]);
		}
		if (same) {
			doc_item(d, "%s: %s", fact_names[f], v[0]);
		} else {
			size_t r = doc_table_row(t);

			doc_table_set(t, r, 0, "%s", fact_names[f]);
			for (size_t g = 0; g < c->ngroups; g++)
				doc_table_set(t, r, 1 + g, "%s", v[g]);
			any = true;
		}
		for (size_t g = 0; g < c->ngroups; g++)
			free(v[g]);
	}
	if (any) {
		doc_para(d, "Per label (from the first run of each):");
		doc_table_split(d, t, 4);
	}
	doc_table_free(t);
	free(v);
	report_notes(d, c); /* aggregated per label; each run's own under Per-run detail */
}

/* One run in start-time order. */
struct order_run {
	const char *at;
	size_t ri, g, rank; /* result, group, its k-th run of the group (1-based) */
};

static int cmp_order(const void *a, const void *b)
{
	const struct order_run *x = a, *y = b;
	int r = strcmp(x->at, y->at);

	return r ? r : (x->ri > y->ri) - (x->ri < y->ri);
}

/*
 * The order the runs were made in, from their start times: interleaved when every label's k-th
 * run started before any label's (k+1)-th.  Heap text, or NULL when the results do not tell
 * (a start time missing, or all equal).
 */
char *report_run_order(const struct compare *c, bool *interleaved)
{
	struct order_run *v = xcalloc(c->nresults, sizeof(*v));
	size_t n = 0, *seen = xcalloc(c->ngroups, sizeof(size_t)), rounds = 0;
	struct strbuf runs = STRBUF_INIT;
	char *out = NULL;

	*interleaved = true;
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].aborted)
			continue;
		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			size_t ri = c->groups[g].runs[i];

			if (!c->results[ri].started_at)
				goto unknown;
			v[n++] = (struct order_run){ .at = c->results[ri].started_at, .ri = ri, .g = g };
		}
	}
	if (n < 2 || !strcmp(v[0].at, v[n - 1].at))
		goto unknown;
	for (size_t i = 1; i < n; i++)
		if (!strcmp(v[i].at, v[0].at))
			goto unknown; /* a second run at the first's time: not a real order */
	qsort(v, n, sizeof(*v), cmp_order);
	for (size_t i = 0; i < n; i++) {
		v[i].rank = ++seen[v[i].g];
		if (i && v[i].rank < v[i - 1].rank)
			*interleaved = false;
		rounds = MAX(rounds, v[i].rank);
	}
	for (size_t i = 0; i < n; i++) {
		bool new_round = *interleaved && i && v[i].rank != v[i - 1].rank;

		strbuf_addf(&runs, "%s%s", !i ? "" : new_round ? " | " : ", ",
			    c->groups[v[i].g].label);
	}
	if (*interleaved && rounds > 1)
		out = xasprintf("interleaved in %zu rounds, every label's k-th run before any "
				"label's next (%s)", rounds, runs.buf);
	else if (*interleaved)
		out = xasprintf("one run per label (%s)", runs.buf);
	else
		out = xasprintf("NOT interleaved (%s): runs of a label partly back to back, so drift "
				"of a shared machine during the experiment can fall on some labels more "
				"than on others; the lab's default order (shuffled rounds) avoids that",
				runs.buf);
	strbuf_release(&runs);
	goto done;
unknown:
	*interleaved = false;
	out = NULL;
done:
	free(v);
	free(seen);
	return out;
}

/*
 * What the results share and what they do not, from the option table's marks (comparable.c):
 * with --allow-mismatch, each load-shaping option they differ in, per label (the lines above
 * are the baseline's); per label the options it does not record while others do.
 */
static void comparability(struct doc *d, const struct compare *c)
{
	char *opts = compare_load_options(c);
	struct strvec v = STRVEC_INIT;

	if (c->warnings.nr)
		doc_item(d, "Comparability: the results DIFFER in what a comparison needs equal and "
			 "were compared only because of --allow-mismatch (see the warnings below); "
			 "the lines above give the baseline's (%s) settings",
			 c->groups[c->baseline].label);
	else
		doc_item(d, "Comparability: every result agrees in every option that shapes the load "
			 "(%s) and in the tool and its version; they differ only in what describes "
			 "the run (label, output, directories) and, %s", opts, c->tuned ?
			 "between runs, in the thread count each run's tuner chose (--threads auto: "
			 "the capacity of each is compared, whatever its count)" :
			 "between labels, in the thread count");
	free(opts);
	compare_method_differences(c, &v);
	for (size_t i = 0; i < v.nr; i++)
		doc_item(d, "Differs between labels: %s", v.v[i]);
	strvec_clear(&v);
	compare_method_unrecorded(c, &v);
	for (size_t i = 0; i < v.nr; i++)
		doc_item(d, "Not recorded by %s, so not compared", v.v[i]);
	strvec_clear(&v);
}

/* The labels' thread counts, each once: "4, 8, 12" (heap). */
static char *thread_counts(const struct compare *c)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t g = 0; g < c->ngroups; g++) {
		bool dup = false;

		for (size_t h = 0; h < g; h++)
			dup |= c->groups[h].threads == c->groups[g].threads;
		if (dup)
			continue;
		strbuf_add_sep(&sb, ", ");
		strbuf_addf(&sb, "%u", c->groups[g].threads);
	}
	return strbuf_detach(&sb, NULL);
}

/* How the baseline's configuration cf (its workload's flags) is judged. */
static void verdict_item(struct doc *d, const struct run_config *cf, unsigned int flags)
{
	if (flags & WL_REPLAY) {
		doc_item(d, "Verdict (fslab's rule for soft recovery; Jetstress publishes none): every "
			 "log file replayed, no page whose time contradicts a record (a lost write), "
			 "every page read sound during the replay and in the checksum pass after it, "
			 "no I/O error; the time per log file is compared, not judged");
	} else if (!(flags & WL_VERDICT)) {
		doc_item(d, "Verdict: none (the %s workload is not judged)", cf->workload);
	} else if (cf->thresholds) {
		bool lenient = !strcmp(cf->thresholds, "lenient");

		doc_item(d, "Verdict (as Jetstress judges it): %s thresholds, database reads average "
			 "<= 20 ms and log writes average <= 10 ms over the measurement; maxima <= %d ms "
			 "judged on %g s sample averages per database, %u breaching sample(s) "
			 "tolerated; database page-fault stalls <= 1/s; no I/O or checksum error%s%s",
			 cf->thresholds, lenient ? 200 : 100, cf->sample_interval_s,
			 cf->max_latency_errors, cf->strict_io_tail ?
			 "; per-I/O tail checks added (--strict-io-tail)" :
			 "; the per-I/O tail (I/Os above the maximum, p99.9, max) is information, not "
			 "part of the verdict", cf->target_iops > 0 ? "; a target IOPS check (see "
			 "Sizing)" : "");
	} else {
		doc_item(d, "Verdict: as recorded by the fslab version that made the results (no "
			 "sample-based settings recorded)");
	}
}

void report_method(struct doc *d, const struct compare *c, const struct report_opts *o)
{
	const struct run_config *cf = &c->results[c->groups[c->baseline].runs[0]].config;
	unsigned int flags = workload_flags(cf->workload);
	char db[32], cache[32], bs[32], *threads = thread_counts(c);

	if (compare_any_tuned(c))
		doc_item(d, "Workload: %s, threads chosen in each run by its tuner (--threads auto; "
			 "see Capacity)%s, I/O depth %u", cf->workload, c->tuned ? "" :
			 " for some labels", cf->iodepth);
	else
		doc_item(d, "Workload: %s, %s threads%s, I/O depth %u", cf->workload, threads,
			 c->nsweeps ? " (a thread sweep)" : "", cf->iodepth);
	if (!(flags & WL_DATABASES))
		doc_item(d, "Data file: %s per database directory, %s blocks", fmt_size(db, sizeof(db),
			 cf->db_size), fmt_size(bs, sizeof(bs), cf->bs));
	else if (flags & WL_THROUGHPUT)
		doc_item(d, "Databases: %u of %s each, read in %s reads", cf->databases,
			 fmt_size(db, sizeof(db), cf->db_size), fmt_size(bs, sizeof(bs), cf->bs));
	else
		doc_item(d, "Databases: %u of %s each, %s pages, database cache %s per database",
			 cf->databases, fmt_size(db, sizeof(db), cf->db_size),
			 fmt_size(bs, sizeof(bs), cf->bs),
			 fmt_size(cache, sizeof(cache), cf->cache_size));
	if (flags & WL_REPLAY)
		doc_item(d, "Duration: the load until each database had left %u log files (not "
			 "measured), an unclean stop, then the replay of those logs, measured whole "
			 "and per log file, no warm-up", cf->recovery_logs);
	else if (flags & WL_FINITE)
		doc_item(d, "Duration: until every database was read once (the measurement ends with "
			 "the load; --duration %g s is only its limit), no warm-up", cf->duration_s);
	else if (cf->warmup_steady)
		doc_item(d, "Duration: %g s measured after a warm-up until steady state%s",
			 cf->duration_s, cf->duration_s < 7200 ? " (shorter than Jetstress's 2-hour "
			 "performance test)" : "");
	else
		doc_item(d, "Duration: %g s measured after a %g s warm-up%s", cf->duration_s,
			 cf->warmup_s, cf->duration_s < 7200 ? " (shorter than Jetstress's 2-hour "
			 "performance test: short cells show how filesystems differ under this load, "
			 "they do not qualify a volume)" : "");
	report_method_steady(d, c);
	report_method_tuning(d, c);
	doc_item(d, "Seed %llu, data compressibility %u %%, background database maintenance %s",
		 (unsigned long long)cf->seed, cf->compressibility,
		 cf->bdm_mbps > 0 ? "on" : "off");
	if (cf->bdm_mbps > 0)
		doc_item(d, "BDM throttle: %g MB/s per database", cf->bdm_mbps);
	comparability(d, c);
	free(threads);
	verdict_item(d, cf, flags);
	{
		bool il;
		char *order = report_run_order(c, &il);

		if (o && o->order_note)
			doc_item(d, "Order: %s; start times: %s", o->order_note,
				 order ? order : "not recorded");
		else
			doc_item(d, "Order (from the results' start times): %s",
				 order ? order : "not recorded in the results");
		free(order);
	}
	report_runs(d, c); /* what happened, per label, from the results */
	report_method_para(d, c);
}
