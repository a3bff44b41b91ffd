// SPDX-License-Identifier: MIT
/* run.c: `fslab run`: options, checks, initialisation, the timed load, result and summary. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "engine.h"
#include "fsprep/prep.h"
#include "host.h"
#include "io/ioengine.h"
#include "result.h"
#include "run.h"
#include "util.h"
#include "volume.h"
#include "workloads/verdict.h"
#include "workloads/workload.h"

static volatile int stop_flag;
static volatile int stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	stop_flag = RUN_STOP_SIGNAL;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: fslab run --db DIR [--db DIR2 ...] --log DIR [--log DIR2 ...] [options]\n"
"\n"
"Drive a seeded, Jetstress-like Exchange database load (or a simple calibration pattern)\n"
"against the database and log directories for a fixed time and write one result file.\n"
"\n"
"  --db DIR              database directory (repeat for several volumes; databases are\n"
"                        spread over them round-robin)\n"
"  --log DIR             log directory (repeat likewise; not needed by simple workloads)\n"
"                        A block device instead of directories (--db DEV --log DEV) runs\n"
"                        the same load on the raw devices: the baseline without a\n"
"                        filesystem.  It overwrites them: refused when mounted or in use,\n"
"                        and when they carry a signature unless --force.\n"
"  --force               let a raw-device run overwrite devices with a signature\n"
"  --workload W          jetstress (default), randread, randwrite, randrw, seqwrite\n"
"  --threads N           sessions (jetstress) or jobs (simple workloads); default 8\n"
"  --databases N         database instances, each with its own log stream; default 1\n"
"  --db-size SIZE        size of each database (simple workloads: of the data file);\n"
"                        default 4G; human units: 512M, 4G, 1T\n"
"  --duration TIME       measured time; default 2h; 90s, 15m, 2h, 1h30m\n"
"  --warmup TIME         load before measuring; default 5%% of --duration, at most 60s\n"
"  --seed N              seed of every random choice; default 1\n"
"  --label NAME          label in the result (compare groups by it); default: the\n"
"                        filesystem type of the first --db directory\n"
"  --output FILE         result file; default ./fslab-LABEL-YYYYmmdd-HHMMSS.json\n"
"  --bs SIZE             block size of simple workloads; default 32k\n"
"  --iodepth N           I/Os in flight per thread, simple workloads; default 1\n"
"  --rwmixread PCT       reads in randrw; default 50\n"
"  --engine E            io_uring (default) or psync\n"
"  --cache SIZE          jetstress page-ID cache per database; default 1%% of --db-size,\n"
"                        at most 256M (ESE's cache is small against the database)\n"
"  --bdm-rate MBPS       background maintenance reads per database, MB/s; default 1, 0 off\n"
"  --compressibility PCT share of zeros in every 4 KiB written; default 0 (incompressible)\n"
"  --buffered            no O_DIRECT (reads may then come from the page cache)\n"
"  --no-checksum-pass    skip reading every page after the load\n"
"  --no-drop-caches      do not drop the page cache before the load (default: drop, as root)\n"
"  --quiet               no progress or informational messages\n"
"\n"
"Verdict (jetstress; exit status 3 when it fails):\n"
"  --thresholds SET      strict (default): database reads average <= 20 ms, log writes\n"
"                        <= 10 ms, maximum 100 ms; lenient (Jetstress's stress runs):\n"
"                        maximum 200 ms\n"
"  --sample-interval T   latency sampling interval; default 15s (Jetstress's LogInterval),\n"
"                        1s to 1h in whole seconds.  The maximum checks judge the average\n"
"                        latency of each interval, per database and overall; a measurement\n"
"                        shorter than one interval is one partial sample\n"
"  --max-latency-errors N  samples tolerated above the maximum; default 6 (Jetstress's\n"
"                        MaximumLatencyErrors)\n"
"  --strict-io-tail      also fail when more than N single I/Os exceed the maximum (the\n"
"                        per-I/O tail; always recorded, not judged by default)\n"
"  --target-iops N       also require at least N transactional IOPS (database reads +\n"
"                        writes per second)\n"
"  --mailboxes M --iops-per-mailbox F\n"
"                        the same with target M x F (from an Exchange sizing); not\n"
"                        together with --target-iops\n"
"  Database page fault stalls (a session waiting for a free cache page because the lazy\n"
"  writer is behind) fail the verdict above 1 per second on average.\n"
"\n"
"Exit status: 0 ok, 1 failure or interrupted (the result is still written, marked\n"
"aborted), 2 bad input (nothing created), 3 completed but the verdict is FAIL.\n");
}

enum {
	OPT_DB = 1000, OPT_LOG, OPT_THREADS, OPT_DATABASES, OPT_DBSIZE, OPT_DURATION, OPT_WARMUP,
	OPT_SEED, OPT_LABEL, OPT_WORKLOAD, OPT_BS, OPT_IODEPTH, OPT_OUTPUT, OPT_ENGINE,
	OPT_CACHE, OPT_BDM, OPT_COMPRESS, OPT_BUFFERED, OPT_NOCHECK, OPT_RWMIX, OPT_NODROP,
	OPT_QUIET, OPT_PROGRESS_FD, OPT_NOVERIFY, OPT_FORCE, OPT_SAMPLE_INTERVAL, OPT_THRESHOLDS,
	OPT_MAX_LAT_ERRORS, OPT_STRICT_TAIL, OPT_TARGET_IOPS, OPT_MAILBOXES, OPT_IOPS_PER_MBX,
};

static const struct option long_opts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "databases", required_argument, NULL, OPT_DATABASES },
	{ "db-size", required_argument, NULL, OPT_DBSIZE },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "workload", required_argument, NULL, OPT_WORKLOAD },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "iodepth", required_argument, NULL, OPT_IODEPTH },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "bdm-rate", required_argument, NULL, OPT_BDM },
	{ "compressibility", required_argument, NULL, OPT_COMPRESS },
	{ "rwmixread", required_argument, NULL, OPT_RWMIX },
	{ "buffered", no_argument, NULL, OPT_BUFFERED },
	{ "no-checksum-pass", no_argument, NULL, OPT_NOCHECK },
	{ "no-verify", no_argument, NULL, OPT_NOVERIFY },
	{ "no-drop-caches", no_argument, NULL, OPT_NODROP },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "progress-fd", required_argument, NULL, OPT_PROGRESS_FD },
	{ "sample-interval", required_argument, NULL, OPT_SAMPLE_INTERVAL },
	{ "thresholds", required_argument, NULL, OPT_THRESHOLDS },
	{ "max-latency-errors", required_argument, NULL, OPT_MAX_LAT_ERRORS },
	{ "strict-io-tail", no_argument, NULL, OPT_STRICT_TAIL },
	{ "target-iops", required_argument, NULL, OPT_TARGET_IOPS },
	{ "mailboxes", required_argument, NULL, OPT_MAILBOXES },
	{ "iops-per-mailbox", required_argument, NULL, OPT_IOPS_PER_MBX },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define MAX_THREADS 256
#define MAX_DATABASES 64
#define MAX_IODEPTH 1024
#define MAX_DURATION_NS (30ULL * 86400 * NSEC_PER_SEC)
#define MAX_SAMPLE_INTERVAL_S 3600
#define MAX_MAILBOXES 10000000
#define MAX_IOPS_PER_MAILBOX 100.0

/* Verdict options (jetstress); written to the result's config, which the workload reads. */
struct verdict_cfg {
	unsigned int interval_s;
	const struct js_thresholds *th;
	unsigned int max_latency_errors;
	bool strict_io_tail;
	double target_iops, iops_per_mailbox;
	unsigned int mailboxes;
	const char *first; /* the first verdict option given ("--thresholds"), or NULL */
};

/* Latency samples per instance and overall while the load runs (jetstress). */
struct samplers {
	size_t n;                     /* instances + 1; the last one is "overall" */
	struct lat_sampler *ls;
	struct engine_sample *prev;   /* cumulative counters at the previous second */
};

struct run_state {
	struct run_opts o;
	bool drop_caches, quiet, warmup_set, force, raw;
	int progress_fd;
	char *label_buf, *output_buf;
	const struct workload_ops *wl;
	struct run_ctx rc;
	struct fslab_result res;
	struct host_sampler host;
	size_t ndb_vols, nlog_vols;
	struct devstat *dev_before, *dev_after;
	bool caches_dropped;
	struct verdict_cfg vc;
	struct samplers smp;
};

static void add_dir(char ***v, size_t *n, const char *d)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(char *));
	(*v)[(*n)++] = xstrdup(d);
	(*v)[*n] = NULL;
}

static int bad_value(const char *opt, const char *val, const char *fix)
{
	return input_error("--%s '%s': %s", opt, val, fix);
}

/* A positive real number in (0, max], or -EINVAL. */
static int parse_positive(const char *arg, double max, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(d) || !(d > 0) || d > max)
		return -EINVAL;
	*out = d;
	return 0;
}

/* The verdict options after parsing: forms that contradict each other are refused. */
static int check_verdict_args(struct run_state *s)
{
	struct verdict_cfg *vc = &s->vc;

	if (vc->first && strcmp(s->o.workload, "jetstress"))
		return input_error("%s: only the jetstress workload has a verdict; drop it or use "
				   "--workload jetstress", vc->first);
	if (vc->target_iops > 0 && (vc->mailboxes || vc->iops_per_mailbox > 0))
		return input_error("--target-iops and --mailboxes/--iops-per-mailbox both set a "
				   "target; give either --target-iops N or --mailboxes M "
				   "--iops-per-mailbox F");
	if (vc->mailboxes && !(vc->iops_per_mailbox > 0))
		return input_error("--mailboxes %u needs --iops-per-mailbox F (transactional IOPS "
				   "per mailbox from your Exchange sizing, e.g. 0.06): the target is "
				   "M x F; or give --target-iops N", vc->mailboxes);
	if (vc->iops_per_mailbox > 0 && !vc->mailboxes)
		return input_error("--iops-per-mailbox %g needs --mailboxes M: the target is M x F; "
				   "or give --target-iops N", vc->iops_per_mailbox);
	if (vc->mailboxes)
		vc->target_iops = js_target_from_mailboxes(vc->mailboxes, vc->iops_per_mailbox);
	return 0;
}

static int parse_args(struct run_state *s, int argc, char **argv)
{
	struct run_opts *o = &s->o;
	struct verdict_cfg *vc = &s->vc;
	uint64_t v;
	int c;

	o->workload = "jetstress";
	o->engine = "io_uring";
	o->threads = 8;
	o->databases = 1;
	o->db_size = 4 * GiB;
	o->duration_ns = 2 * 3600 * NSEC_PER_SEC;
	o->seed = 1;
	o->bs = 32 * KiB;
	o->iodepth = 1;
	o->rwmixread = 50;
	o->bdm_mbps = 1.0;
	o->direct = true;
	o->checksum_pass = true;
	o->verify_reads = true;
	s->drop_caches = geteuid() == 0;
	s->progress_fd = -1;
	vc->interval_s = JS_SAMPLE_INTERVAL_S;
	vc->th = js_thresholds_find("strict");
	vc->max_latency_errors = JS_MAX_LATENCY_ERRORS;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_DB:
			add_dir(&o->db_dirs, &o->ndb_dirs, optarg);
			break;
		case OPT_LOG:
			add_dir(&o->log_dirs, &o->nlog_dirs, optarg);
			break;
		case OPT_THREADS:
			if (parse_u64(optarg, 1, MAX_THREADS, &v))
				return bad_value("threads", optarg, "give 1 to 256 (Jetstress itself "
						 "rarely needs more than a few dozen; add --databases instead)");
			o->threads = (unsigned int)v;
			break;
		case OPT_DATABASES:
			if (parse_u64(optarg, 1, MAX_DATABASES, &v))
				return bad_value("databases", optarg, "give 1 to 64");
			o->databases = (unsigned int)v;
			break;
		case OPT_DBSIZE:
			if (parse_size(optarg, &o->db_size) || !o->db_size)
				return bad_value("db-size", optarg, "give a size such as 512M, 4G or 1T");
			break;
		case OPT_DURATION:
			if (parse_duration(optarg, &o->duration_ns) || o->duration_ns < NSEC_PER_SEC ||
			    o->duration_ns > MAX_DURATION_NS)
				return bad_value("duration", optarg, "give a time of at least 1s and at "
						 "most 30d, such as 90s, 15m or 2h");
			break;
		case OPT_WARMUP:
			if (parse_duration(optarg, &o->warmup_ns) || o->warmup_ns > MAX_DURATION_NS)
				return bad_value("warmup", optarg, "give a time such as 0, 30s or 5m");
			s->warmup_set = true;
			break;
		case OPT_SEED:
			if (parse_u64(optarg, 0, INT64_MAX, &o->seed))
				return bad_value("seed", optarg, "give a whole number (0 to 2^63-1)");
			break;
		case OPT_LABEL:
			o->label = optarg;
			break;
		case OPT_WORKLOAD:
			o->workload = optarg;
			break;
		case OPT_BS:
			if (parse_size(optarg, &o->bs) || !o->bs)
				return bad_value("bs", optarg, "give a block size such as 4k or 32k");
			break;
		case OPT_IODEPTH:
			if (parse_u64(optarg, 1, MAX_IODEPTH, &v))
				return bad_value("iodepth", optarg, "give 1 to 1024");
			o->iodepth = (unsigned int)v;
			break;
		case OPT_OUTPUT:
			o->output = optarg;
			break;
		case OPT_ENGINE:
			o->engine = optarg;
			break;
		case OPT_CACHE:
			if (parse_size(optarg, &o->cache_size))
				return bad_value("cache", optarg, "give a size such as 64M");
			break;
		case OPT_BDM: {
			char *end;

			errno = 0;
			o->bdm_mbps = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o->bdm_mbps >= 0) || o->bdm_mbps > 10000)
				return bad_value("bdm-rate", optarg, "give MB/s per database, e.g. 1 or 0.5; "
						 "0 turns BDM off");
			break;
		}
		case OPT_COMPRESS:
			if (parse_u64(optarg, 0, 100, &v))
				return bad_value("compressibility", optarg, "give a percentage, 0 to 100");
			o->compressibility = (unsigned int)v;
			break;
		case OPT_RWMIX:
			if (parse_u64(optarg, 0, 100, &v))
				return bad_value("rwmixread", optarg, "give a percentage, 0 to 100");
			o->rwmixread = (unsigned int)v;
			break;
		case OPT_BUFFERED:
			o->direct = false;
			break;
		case OPT_NOCHECK:
			o->checksum_pass = false;
			break;
		case OPT_NOVERIFY:
			o->verify_reads = false;
			break;
		case OPT_NODROP:
			s->drop_caches = false;
			break;
		case OPT_QUIET:
			s->quiet = true;
			break;
		case OPT_FORCE:
			s->force = true;
			break;
		case OPT_PROGRESS_FD:
			if (parse_u64(optarg, 0, 1 << 20, &v))
				return bad_value("progress-fd", optarg, "give an open file descriptor");
			s->progress_fd = (int)v;
			break;
		case OPT_SAMPLE_INTERVAL:
			if (parse_duration(optarg, &v) || v % NSEC_PER_SEC || v < NSEC_PER_SEC ||
			    v > MAX_SAMPLE_INTERVAL_S * NSEC_PER_SEC)
				return bad_value("sample-interval", optarg, "give whole seconds from 1s "
						 "to 1h, such as 15s (Jetstress's LogInterval) or 1m");
			vc->interval_s = (unsigned int)(v / NSEC_PER_SEC);
			vc->first = vc->first ? vc->first : "--sample-interval";
			break;
		case OPT_THRESHOLDS:
			vc->th = js_thresholds_find(optarg);
			if (!vc->th)
				return bad_value("thresholds", optarg, "choose " JS_THRESHOLD_NAMES);
			vc->first = vc->first ? vc->first : "--thresholds";
			break;
		case OPT_MAX_LAT_ERRORS:
			if (parse_u64(optarg, 0, 1000000, &v))
				return bad_value("max-latency-errors", optarg, "give the number of "
						 "samples tolerated above the maximum, 0 or more "
						 "(Jetstress: 6)");
			vc->max_latency_errors = (unsigned int)v;
			vc->first = vc->first ? vc->first : "--max-latency-errors";
			break;
		case OPT_STRICT_TAIL:
			vc->strict_io_tail = true;
			vc->first = vc->first ? vc->first : "--strict-io-tail";
			break;
		case OPT_TARGET_IOPS:
			if (parse_positive(optarg, 1e9, &vc->target_iops))
				return bad_value("target-iops", optarg, "give the transactional IOPS to "
						 "reach, a positive number such as 1500");
			vc->first = vc->first ? vc->first : "--target-iops";
			break;
		case OPT_MAILBOXES:
			if (parse_u64(optarg, 1, MAX_MAILBOXES, &v))
				return bad_value("mailboxes", optarg, "give the number of mailboxes, "
						 "1 to 10000000");
			vc->mailboxes = (unsigned int)v;
			vc->first = vc->first ? vc->first : "--mailboxes";
			break;
		case OPT_IOPS_PER_MBX:
			if (parse_positive(optarg, MAX_IOPS_PER_MAILBOX, &vc->iops_per_mailbox))
				return bad_value("iops-per-mailbox", optarg, "give transactional IOPS per "
						 "mailbox, a positive number such as 0.06 (at most 100)");
			vc->first = vc->first ? vc->first : "--iops-per-mailbox";
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			if (optopt && optopt < OPT_DB)
				return input_error("unknown option '-%c'; see 'fslab run --help'", optopt);
			if (optopt)
				return input_error("%s needs a value; see 'fslab run --help'",
						   argv[optind - 1]);
			return input_error("unknown option '%s'; see 'fslab run --help'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return input_error("unexpected argument '%s'; options start with --, see "
				   "'fslab run --help'", argv[optind]);
	s->wl = workload_find(o->workload);
	if (!s->wl)
		return input_error("--workload '%s' is unknown; choose one of %s", o->workload,
				   workload_names());
	if (!ioengine_find(o->engine))
		return input_error("--engine '%s' is unknown; choose io_uring or psync", o->engine);
	if (check_verdict_args(s))
		return -FSLAB_EINPUT;
	if (!o->ndb_dirs)
		return input_error("no --db directory given; name the database directory with "
				   "--db DIR");
	if (s->wl->needs_log && !o->nlog_dirs)
		return input_error("no --log directory given; the %s workload needs one (--log DIR), "
				   "ideally on a separate volume", o->workload);
	if (o->label) {
		size_t n = strlen(o->label);

		if (!n || n > 64 || strspn(o->label, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789._+-") != n)
			return bad_value("label", o->label, "use 1-64 letters, digits, '.', '_', '+' "
					 "or '-' (it names files in reports)");
	}
	if (!s->warmup_set)
		o->warmup_ns = MIN(o->duration_ns / 20, 60 * NSEC_PER_SEC);
	if (!o->cache_size)
		o->cache_size = MIN(o->db_size / 100, 256 * MiB);
	return 0;
}

/* Directories exist, are directories, are writable (or all are block devices: raw); the
 * output's directory too. */
static int check_dirs(struct run_state *s)
{
	const struct run_opts *o = &s->o;
	size_t nblk = 0;

	for (int pass = 0; pass < 2; pass++) {
		char **v = pass ? o->log_dirs : o->db_dirs;
		size_t n = pass ? o->nlog_dirs : o->ndb_dirs;
		const char *opt = pass ? "--log" : "--db";

		for (size_t i = 0; i < n; i++) {
			struct stat st;

			if (stat(v[i], &st))
				return input_error("%s %s: %s; create it, or mount the volume under test "
						   "there (fslab prep does both)", opt, v[i], strerror(errno));
			if (S_ISBLK(st.st_mode)) {
				nblk++;
				continue;
			}
			if (!S_ISDIR(st.st_mode))
				return input_error("%s %s: not a directory; give the directory on the "
						   "volume under test", opt, v[i]);
			if (access(v[i], W_OK | X_OK))
				return input_error("%s %s: not writable (%s); run as a user who may write "
						   "there, or fix its permissions", opt, v[i], strerror(errno));
		}
	}
	if (nblk && nblk != o->ndb_dirs + o->nlog_dirs)
		return input_error("give directories for every --db and --log, or block devices for "
				   "all of them (a raw-device baseline), not a mix");
	s->raw = nblk > 0;
	if (o->output) {
		char *copy = xstrdup(o->output), *slash = strrchr(copy, '/');
		const char *dir = slash ? (slash == copy ? "/" : (*slash = 0, copy)) : ".";
		struct stat st;
		int ret = 0;

		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			ret = input_error("--output %s: directory %s does not exist; create it first",
					  o->output, dir);
		else if (access(dir, W_OK | X_OK))
			ret = input_error("--output %s: directory %s is not writable", o->output, dir);
		else if (stat(o->output, &st) == 0 && S_ISDIR(st.st_mode))
			ret = input_error("--output %s is a directory; give a file name such as "
					  "%s/result.json", o->output, o->output);
		free(copy);
		if (ret)
			return ret;
	}
	return 0;
}

static int probe_volumes(struct run_state *s)
{
	struct run_opts *o = &s->o;
	struct run_ctx *rc = &s->rc;
	bool user_buffered = !o->direct;

	rc->db_vols = xcalloc(o->ndb_dirs, sizeof(struct volume));
	rc->log_vols = xcalloc(o->nlog_dirs + 1, sizeof(struct volume));
	for (int pass = 0; pass < 2; pass++) {
		struct volume *vv = pass ? rc->log_vols : rc->db_vols;
		char **dirs = pass ? o->log_dirs : o->db_dirs;
		size_t n = pass ? o->nlog_dirs : o->ndb_dirs;

		for (size_t i = 0; i < n; i++) {
			struct volume *v = &vv[i];
			int ret;

			for (size_t j = 0; s->raw && j < i; j++)
				if (!strcmp(dirs[j], dirs[i]))
					return input_error("%s is given twice: a raw device holds one "
							   "%s region", dirs[i], pass ? "log" : "database");
			ret = s->raw ? volume_probe_raw(v, pass ? "log" : "db", dirs[i], s->force)
				     : volume_probe(v, pass ? "log" : "db", dirs[i]);
			if (pass)
				s->nlog_vols++;
			else
				s->ndb_vols++;
			if (ret == -FSLAB_EINPUT)
				return ret;
			if (ret)
				return input_error("%s: cannot find its filesystem (%s)", dirs[i],
						   strerror(-ret));
		}
	}
	for (size_t i = 0; s->raw && i < s->ndb_vols; i++)
		for (size_t j = 0; j < s->nlog_vols; j++)
			if (rc->db_vols[i].bdev == rc->log_vols[j].bdev)
				return input_error("%s is both a --db and a --log device; give separate "
						   "devices", rc->db_vols[i].dir);
	rc->direct = o->direct;
	if (user_buffered)
		result_add_note(&s->res, "--buffered: no O_DIRECT, read latencies may reflect the "
				"page cache, not the device");
	return 0;
}

/*
 * Does every filesystem accept O_DIRECT?  Probed with a small file created and removed in
 * each directory, so only after all input checks passed.  A refusal is said loudly, recorded
 * in the result, and the whole run goes buffered (the same mode for every volume).
 */
static void probe_odirect(struct run_state *s)
{
	struct run_ctx *rc = &s->rc;

	if (!s->o.direct)
		return;
	for (size_t i = 0; i < s->ndb_vols + s->nlog_vols; i++) {
		struct volume *v = i < s->ndb_vols ? &rc->db_vols[i] : &rc->log_vols[i - s->ndb_vols];

		volume_probe_odirect(v);
		if (v->o_direct != 0)
			continue;
		fslab_warn("*** %s (%s on %s) REFUSES O_DIRECT: running with buffered I/O, reads "
			   "may come from the page cache and flatter this filesystem ***", v->dir,
			   v->fsname, v->source);
		result_add_note(&s->res, "O_DIRECT refused by %s on %s (%s): buffered I/O used for "
				"the whole run, O_DSYNC writes", v->fsname, v->dir, v->source);
		s->o.direct = false;
	}
	rc->direct = s->o.direct;
}

/* io_uring may be disabled (sysctl kernel.io_uring_disabled, seccomp): fall back to psync. */
static void pick_engine(struct run_state *s)
{
	struct io_ctx ctx;
	int ret;

	if (strcmp(s->o.engine, "io_uring"))
		return;
	ret = io_ctx_init(&ctx, "io_uring", 4);
	if (!ret) {
		io_ctx_release(&ctx);
		return;
	}
	fslab_warn("io_uring is not available here (%s): falling back to psync", strerror(-ret));
	result_add_note(&s->res, "io_uring unavailable (%s): psync back end used", strerror(-ret));
	s->o.engine = "psync";
}

static json_t *environment(struct run_state *s)
{
	json_t *env = host_environment(), *vols = json_array();
	json_t *prep = NULL;

	for (size_t i = 0; i < s->ndb_vols; i++)
		json_array_append_new(vols, volume_to_json(&s->rc.db_vols[i]));
	for (size_t i = 0; i < s->nlog_vols; i++)
		json_array_append_new(vols, volume_to_json(&s->rc.log_vols[i]));
	json_object_set_new(env, "engine", json_string(s->o.engine));
	json_object_set_new(env, "volumes", vols);
	for (size_t i = 0; i < s->ndb_vols && !prep; i++)
		prep = run_find_prep(s->rc.db_vols[i].dir);
	json_object_set_new(env, "prep", prep ? prep : json_null());
	json_object_set_new(env, "direct_io", json_boolean(s->o.direct));
	json_object_set_new(env, "caches_dropped", json_boolean(s->caches_dropped));
	return env;
}

static void drop_caches(struct run_state *s)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	s->caches_dropped = write(fd, "3\n", 2) == 2;
	close(fd);
}

/* ---- device counters ---- */

struct dev_group {
	const struct volume *v;
	bool db, log;
};

/* Unique block devices under the db and log volumes (db and log may share one). */
static size_t dev_groups(struct run_state *s, struct dev_group *g, size_t max)
{
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++) {
		const struct volume *vv = pass ? s->rc.log_vols : s->rc.db_vols;
		size_t nv = pass ? s->nlog_vols : s->ndb_vols;

		for (size_t i = 0; i < nv; i++) {
			const struct volume *v = &vv[i];
			size_t j;

			if (!v->stat_path)
				continue;
			for (j = 0; j < n; j++)
				if (g[j].v->bdev == v->bdev)
					break;
			if (j == n) {
				if (n == max)
					continue;
				g[n++] = (struct dev_group){ .v = v };
			}
			if (pass)
				g[j].log = true;
			else
				g[j].db = true;
		}
	}
	return n;
}

#define MAX_DEVS 32

static void snapshot_devices(struct run_state *s, struct devstat *out)
{
	struct dev_group g[MAX_DEVS];
	size_t n = dev_groups(s, g, MAX_DEVS);

	for (size_t i = 0; i < n; i++)
		if (devstat_read(g[i].v->stat_path, &out[i]))
			memset(&out[i], 0, sizeof(out[i]));
}

static void device_results(struct run_state *s, const struct collect_extra *x)
{
	struct fslab_result *r = &s->res;
	struct dev_group g[MAX_DEVS];
	size_t n = dev_groups(s, g, MAX_DEVS);
	double secs = r->duration_s;

	r->devices = xcalloc(n + 1, sizeof(*r->devices));
	for (size_t i = 0; i < n; i++) {
		struct device_result *d = &r->devices[r->ndevices++];
		const struct devstat *a = &s->dev_before[i], *b = &s->dev_after[i];
		uint64_t wl_w = 0, wl_r = 0;

		d->role = xstrdup(g[i].db && g[i].log ? "db+log" : g[i].db ? "db" : "log");
		d->name = xstrdup(g[i].v->devname);
		d->model = xstrdup(g[i].v->model);
		d->read_ios = b->rd_ios - a->rd_ios;
		d->read_bytes = (b->rd_sect - a->rd_sect) * 512;
		d->write_ios = b->wr_ios - a->wr_ios;
		d->write_bytes = (b->wr_sect - a->wr_sect) * 512;
		d->discard_ios = b->discard_ios - a->discard_ios;
		d->io_ticks_ms = b->io_ticks - a->io_ticks;
		d->util_pct = secs > 0 ? MIN(100.0, d->io_ticks_ms / 10.0 / secs) : 0;
		if (g[i].db) {
			wl_w += r->classes[CLS_DB_WRITE].bytes + x->other_write_bytes[0];
			wl_r += r->classes[CLS_DB_READ].bytes + r->classes[CLS_BDM_READ].bytes;
		}
		if (g[i].log)
			wl_w += r->classes[CLS_LOG_WRITE].bytes + x->other_write_bytes[1];
		d->write_amplification = wl_w ? (double)d->write_bytes / (double)wl_w : 0;
		d->read_ratio = wl_r ? (double)d->read_bytes / (double)wl_r : 0;
		d->cache_served_reads = wl_r >= MiB && d->read_ratio < 0.5;
		if (d->cache_served_reads)
			result_add_note(r, "%s (%s): the device read only %.0f %% of the bytes the "
					"workload read: a cache served the reads, read latencies do not "
					"reflect the device", d->name, d->role, d->read_ratio * 100);
	}
}

/* ---- progress ---- */

static void progress(struct run_state *s, const char *phase, double elapsed, double total,
		     const double *row)
{
	double iops = 0, rd = 0, wr = 0, lg = 0, tps = 0;
	char e[32], t[32], eta[32];

	if (row) {
		rd = row[1 + 4 * CLS_DB_READ];
		wr = row[1 + 4 * CLS_DB_WRITE];
		lg = row[1 + 4 * CLS_LOG_WRITE];
		iops = rd + wr;
		tps = row[TL_TRANSACTIONS];
	}
	if (s->progress_fd >= 0)
		dprintf(s->progress_fd, "{\"phase\": \"%s\", \"elapsed_s\": %.1f, \"total_s\": %.1f, "
			"\"iops\": %.0f, \"tps\": %.0f}\n", phase, elapsed, total, iops, tps);
	if (s->quiet || !isatty(STDERR_FILENO))
		return;
	fmt_hms(e, sizeof(e), elapsed);
	fmt_hms(t, sizeof(t), total);
	fmt_hms(eta, sizeof(eta), total - elapsed);
	fprintf(stderr, "\r%s %-7s %s / %s  ETA %s  %6.0f IOPS (db r %.0f w %.0f)  log %.0f/s  "
		"tps %.0f\033[K", s->res.label, phase, e, t, eta, iops, rd, wr, lg, tps);
	fflush(stderr);
}

static void progress_end(struct run_state *s)
{
	if (!s->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
}

/* ---- latency samples ---- */

/* One sampler per database instance and one overall (jetstress only: the verdict's). */
static void samplers_init(struct run_state *s)
{
	struct samplers *m = &s->smp;

	if (strcmp(s->o.workload, "jetstress"))
		return;
	m->n = s->o.databases + 1;
	m->ls = xcalloc(m->n, sizeof(*m->ls));
	m->prev = xcalloc(m->n, sizeof(*m->prev));
	for (size_t i = 0; i < m->n; i++)
		lat_sampler_init(&m->ls[i], s->vc.interval_s);
}

/* Once a second of the measurement: each instance's (and all threads') second into its
 * sampler. */
static void samplers_tick(struct run_state *s)
{
	struct samplers *m = &s->smp;

	for (size_t i = 0; i < m->n; i++) {
		struct engine_sample cur;
		uint64_t ops[LS_NR], lat[LS_NR];

		engine_sample_instance(&s->rc.eng, i + 1 < m->n ? (int)i : -1, &cur);
		for (int k = 0; k < LS_NR; k++) {
			int c = lat_series_cls[k];

			ops[k] = cur.ops[c] - m->prev[i].ops[c];
			lat[k] = cur.lat_sum[c] - m->prev[i].lat_sum[c];
		}
		lat_sampler_add(&m->ls[i], ops, lat);
		m->prev[i] = cur;
	}
}

/* The samples into the result: "db1".. (the instance names of workloads/jetstress.c), then
 * "overall". */
static void samplers_finish(struct run_state *s)
{
	struct samplers *m = &s->smp;
	struct latency_samples *out = &s->res.latency_samples;

	if (!m->n)
		return;
	out->scopes = xcalloc(m->n, sizeof(*out->scopes));
	for (size_t i = 0; i < m->n; i++) {
		char name[32];

		if (i + 1 < m->n)
			snprintf(name, sizeof(name), "db%zu", i + 1);
		else
			snprintf(name, sizeof(name), "overall");
		lat_sampler_finish(&m->ls[i], name, &out->scopes[out->nscopes++]);
	}
	out->present = true;
	out->interval_s = s->vc.interval_s;
	out->partial = m->ls[m->n - 1].partial;
	out->intervals = out->partial ? 1 : m->ls[m->n - 1].intervals;
	if (out->partial)
		result_add_note(&s->res, "the measurement (%.0f s) was shorter than one latency "
				"sample interval (%u s): the maximum-latency checks judge one partial "
				"sample, the whole measurement", (double)m->ls[m->n - 1].seconds,
				s->vc.interval_s);
}

static void samplers_free(struct samplers *m)
{
	for (size_t i = 0; i < m->n; i++)
		lat_sampler_release(&m->ls[i]);
	free(m->ls);
	free(m->prev);
	memset(m, 0, sizeof(*m));
}

/* ---- the timed load ---- */

static void load(struct run_state *s)
{
	struct run_ctx *rc = &s->rc;
	struct engine *e = &rc->eng;
	struct engine_sample prev = { 0 };
	uint64_t warm = s->o.warmup_ns, dur = s->o.duration_ns, t0, next;
	double total = (double)(warm + dur) / 1e9, row[TIMELINE_NCOLS];
	uint64_t sec = 0;

	timeline_init(&s->res.timeline, timeline_columns, TIMELINE_NCOLS);
	/* rows go to a temporary file: memory stays flat however long the run */
	if (timeline_spill(&s->res.timeline))
		fslab_warn("no temporary file for the timeline (%s): keeping it in memory",
			   getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	host_sampler_start(&s->host);
	engine_set_phase(e, PH_WARMUP);
	t0 = e->t_start;
	if (s->wl->start(rc)) {
		*rc->stop = RUN_STOP_FAILED;
		return;
	}
	/* warm-up: the load runs, nothing is recorded */
	for (next = t0 + NSEC_PER_SEC; !stop_flag && now_ns() < t0 + warm;
	     next += NSEC_PER_SEC) {
		sleep_until_ns(MIN(next, t0 + warm));
		host_sampler_tick(&s->host);
		progress(s, "warm-up", (now_ns() - t0) / 1e9, total, NULL);
	}
	if (stop_flag)
		return;
	snapshot_devices(s, s->dev_before);
	host_sampler_start(&s->host);
	samplers_init(s);
	engine_set_phase(e, PH_MEASURE);
	for (next = e->t_measure + NSEC_PER_SEC; ; next += NSEC_PER_SEC) {
		sleep_until_ns(next);
		while (!stop_flag && now_ns() < next) /* woken early by a signal we ignore */
			sleep_until_ns(next);
		if (stop_flag)
			break;
		engine_sample(e, sec, &prev, row);
		samplers_tick(s);
		row[TL_CPU] = host_sampler_tick(&s->host);
		timeline_add_row(&s->res.timeline, row);
		sec++;
		progress(s, "measure", (now_ns() - t0) / 1e9, total, row);
		if (sec * NSEC_PER_SEC >= dur)
			break;
	}
}

static void fill_config(struct run_state *s)
{
	const struct run_opts *o = &s->o;
	struct run_config *c = &s->res.config;

	c->workload = xstrdup(o->workload);
	c->engine = xstrdup(o->engine);
	c->threads = o->threads;
	c->databases = strcmp(o->workload, "jetstress") ? 0 : o->databases;
	c->iodepth = o->iodepth;
	c->db_size = o->db_size;
	c->bs = strcmp(o->workload, "jetstress") ? o->bs : 32 * KiB;
	c->cache_size = o->cache_size;
	c->duration_s = o->duration_ns / 1e9;
	c->warmup_s = o->warmup_ns / 1e9;
	c->seed = o->seed;
	c->compressibility = o->compressibility;
	c->bdm_mbps = strcmp(o->workload, "jetstress") ? 0 : o->bdm_mbps;
	c->db_dirs = xcalloc(o->ndb_dirs + 1, sizeof(char *));
	for (size_t i = 0; i < o->ndb_dirs; i++)
		c->db_dirs[c->ndb_dirs++] = xstrdup(s->rc.db_vols[i].dir);
	c->log_dirs = xcalloc(o->nlog_dirs + 1, sizeof(char *));
	for (size_t i = 0; i < o->nlog_dirs; i++)
		c->log_dirs[c->nlog_dirs++] = xstrdup(s->rc.log_vols[i].dir);
	if (strcmp(o->workload, "jetstress"))
		return; /* no verdict */
	c->sample_interval_s = s->vc.interval_s;
	c->thresholds = xstrdup(s->vc.th->name);
	c->max_latency_errors = s->vc.max_latency_errors;
	c->strict_io_tail = s->vc.strict_io_tail;
	c->target_iops = s->vc.target_iops;
	if (s->vc.target_iops > 0)
		c->target_iops_origin = xstrdup(s->vc.mailboxes ? "mailboxes" : "target-iops");
	c->mailboxes = s->vc.mailboxes;
	c->iops_per_mailbox = s->vc.mailboxes ? s->vc.iops_per_mailbox : 0;
}

static void print_class(FILE *f, const char *name, const struct class_result *c)
{
	fprintf(f, "  %-18s %10.1f %9.2f %8.1f %8.3f %8.3f %9.3f %7llu\n", name, c->iops, c->mbps,
		c->avg_bytes / 1024, c->lat_us.mean / 1e3, c->lat_us.p99 / 1e3, c->lat_us.max / 1e3,
		(unsigned long long)c->errors);
}

static void print_summary(struct run_state *s, FILE *f)
{
	const struct fslab_result *r = &s->res;
	const struct run_opts *o = &s->o;
	static const char *const names[CLS_NR] = {
		"Database reads", "Database writes", "Log writes", "BDM reads",
	};
	bool js = !strcmp(o->workload, "jetstress");
	char a[32], b[32];

	fprintf(f, "\nfslab run '%s': %s, %u threads", r->label, o->workload, o->threads);
	if (js)
		fprintf(f, ", %u database(s) x %s", o->databases, fmt_size(a, sizeof(a), o->db_size));
	else
		fprintf(f, ", bs %s, iodepth %u, file %s", fmt_size(a, sizeof(a), o->bs), o->iodepth,
			fmt_size(b, sizeof(b), o->db_size));
	fprintf(f, ", %s measured (warm-up %s), seed %llu, %s%s\n",
		fmt_duration(a, sizeof(a), (uint64_t)(r->duration_s * 1e9)),
		fmt_duration(b, sizeof(b), o->warmup_ns), (unsigned long long)o->seed, o->engine,
		o->direct ? ", O_DIRECT" : ", BUFFERED");
	for (size_t i = 0; i < s->ndb_vols + s->nlog_vols; i++) {
		const struct volume *v = i < s->ndb_vols ? &s->rc.db_vols[i]
							 : &s->rc.log_vols[i - s->ndb_vols];

		fprintf(f, "  %-3s %s: %s on %s (%s)\n", v->role, v->dir, v->fsname, v->source,
			v->options);
	}
	if (r->aborted)
		fprintf(f, "\n*** ABORTED: %s; the figures cover what was measured ***\n",
			r->abort_reason ? r->abort_reason : "interrupted");
	if (r->init.created)
		fprintf(f, "Initialisation: %u file(s) created, %s at %.0f MB/s; %u reused\n",
			r->init.created, fmt_size(a, sizeof(a), r->init.bytes_written), r->init.mbps,
			r->init.reused);
	else if (r->init.reused)
		fprintf(f, "Initialisation: %u existing file(s) reused, none written\n", r->init.reused);
	fprintf(f, "\n");
	if (js)
		fprintf(f, "Achieved transactional I/O per second: %.1f   (transactions/s %.1f)\n\n",
			r->transactional_iops, r->transactions_per_s);
	fprintf(f, "  %-18s %10s %9s %8s %8s %8s %9s %7s\n", "", "IOPS", "MB/s", "avg KiB",
		"avg ms", "p99 ms", "max ms", "errors");
	for (int c = 0; c < CLS_NR; c++)
		if (r->classes[c].ops || r->classes[c].errors || js)
			print_class(f, names[c], &r->classes[c]);
	for (size_t i = 0; i < r->ndevices; i++) {
		const struct device_result *d = &r->devices[i];

		fprintf(f, "Device %s (%s): read %.1f MB/s, write %.1f MB/s, util %.0f %%, write "
			"amplification %.2f%s\n", d->name, d->role, d->read_bytes / 1e6 / r->duration_s,
			d->write_bytes / 1e6 / r->duration_s, d->util_pct, d->write_amplification,
			d->cache_served_reads ? ", READS SERVED BY A CACHE" : "");
	}
	fprintf(f, "Host: CPU %.0f %% average (max %.0f %%, iowait %.0f %%), memory used %s of %s\n",
		r->host.cpu_pct_avg, r->host.cpu_pct_max, r->host.cpu_iowait_pct,
		fmt_size(a, sizeof(a), r->host.mem_used_avg), fmt_size(b, sizeof(b), r->host.mem_total));
	if (r->checksum.ran)
		fprintf(f, "Checksum pass: %llu pages, %llu bad, %.0f MB/s%s%s\n",
			(unsigned long long)r->checksum.pages, (unsigned long long)r->checksum.bad_pages,
			r->checksum.mbps, r->checksum.first_bad ? "; first: " : "",
			r->checksum.first_bad ? r->checksum.first_bad : "");
	for (size_t i = 0; i < json_array_size(r->notes); i++)
		fprintf(f, "Note: %s\n", json_string_value(json_array_get(r->notes, i)));
	if (r->verdict.present) {
		fprintf(f, "\nVerdict: %s\n", r->verdict.pass ? "PASS" : "FAIL");
		for (size_t i = 0; i < r->verdict.nchecks; i++) {
			const struct verdict_check *c = &r->verdict.checks[i];
			bool count = !strcmp(c->unit, "count");

			/* error counts only when they fail; the per-I/O tail when asked for */
			if (count && c->pass && !strstr(c->name, "_io_tail"))
				continue;
			fprintf(f, "  %-4s %-8s %-22s %9.*f %-5s (limit %g%s%s)%s%s\n",
				c->pass ? "ok" : "FAIL", c->scope, c->name,
				count ? 0 : !strcmp(c->unit, "IOPS") ? 1 : 3, c->value,
				count ? "" : c->unit, c->limit, count ? "" : " ", count ? "" : c->unit,
				c->note ? "  " : "", c->note ? c->note : "");
		}
	}
}

static char *default_output(const char *label)
{
	char ts[32];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	return xasprintf("fslab-%s-%s.json", label, ts);
}

static void free_state(struct run_state *s)
{
	for (size_t i = 0; i < s->o.ndb_dirs; i++)
		free(s->o.db_dirs[i]);
	free(s->o.db_dirs);
	for (size_t i = 0; i < s->o.nlog_dirs; i++)
		free(s->o.log_dirs[i]);
	free(s->o.log_dirs);
	for (size_t i = 0; i < s->ndb_vols; i++)
		volume_release(&s->rc.db_vols[i]);
	for (size_t i = 0; i < s->nlog_vols; i++)
		volume_release(&s->rc.log_vols[i]);
	free(s->rc.db_vols);
	free(s->rc.log_vols);
	free(s->dev_before);
	free(s->dev_after);
	free(s->label_buf);
	free(s->output_buf);
	samplers_free(&s->smp);
	engine_release(&s->rc.eng);
	result_release(&s->res);
}

int cmd_run(int argc, char **argv)
{
	struct run_state *s = xcalloc(1, sizeof(*s));
	struct run_ctx *rc = &s->rc;
	struct fslab_result *r = &s->res;
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct collect_extra x;
	char ts[32];
	int ret, status = FSLAB_EXIT_FAIL;

	result_init(r);
	engine_init(&rc->eng);
	ret = parse_args(s, argc, argv);
	if (ret) {
		status = ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
		goto out;
	}
	fslab_set_quiet(s->quiet);
	/* I/Os above the threshold set's maximum are counted per class (information; the
	 * database classes without a limit of their own use the database read maximum) */
	for (int c = 0; c < CLS_NR; c++)
		rc->eng.breach_ns[c] = (uint64_t)(s->vc.th->max_ms[c == CLS_LOG_WRITE ? LS_LOG_WRITE
									: LS_DB_READ] *
					       NSEC_PER_MSEC);
	ret = check_dirs(s);
	if (!ret)
		ret = probe_volumes(s);
	if (ret) {
		status = FSLAB_EXIT_USAGE;
		goto out;
	}
	if (!s->o.label)
		s->o.label = s->label_buf = strcmp(s->o.workload, "jetstress")
			? xasprintf("%s-%s", rc->db_vols[0].fsname, s->o.workload)
			: xstrdup(rc->db_vols[0].fsname);
	if (!s->o.output)
		s->o.output = s->output_buf = default_output(s->o.label);
	pick_engine(s);
	rc->o = &s->o;
	rc->res = r;
	rc->stop = &stop_flag;
	ret = s->wl->check(rc);
	if (ret) {
		status = ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
		goto out_wl;
	}
	probe_odirect(s);

	/* from here on, an interruption still produces a result marked aborted */
	stop_flag = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	r->label = xstrdup(s->o.label);
	r->fslab_version = xasprintf("%s (%s)", FSLAB_VERSION, FSLAB_GIT);
	r->started_at = xstrdup(iso8601_now(ts, sizeof(ts)));
	s->dev_before = xcalloc(MAX_DEVS, sizeof(struct devstat));
	s->dev_after = xcalloc(MAX_DEVS, sizeof(struct devstat));

	ret = s->wl->prepare(rc);
	if (!ret && !stop_flag) {
		if (s->drop_caches)
			drop_caches(s);
		load(s);
		engine_set_phase(&rc->eng, PH_STOP);
		if (rc->eng.t_measure)
			r->duration_s = (now_ns() - rc->eng.t_measure) / 1e9;
		snapshot_devices(s, s->dev_after);
		s->wl->stop(rc);
	}
	progress_end(s);
	for (size_t i = 0; i < s->ndb_vols; i++)
		if (volume_statfs(&rc->db_vols[i]))
			rc->db_vols[i].fs_free = 0;
	r->ended_at = xstrdup(iso8601_now(ts, sizeof(ts)));
	fill_config(s);
	if (rc->eng.t_measure)
		samplers_finish(s);
	r->environment = environment(s);
	engine_collect(&rc->eng, -1, r->duration_s, r->classes, &x);
	r->transactional_iops = r->classes[CLS_DB_READ].iops + r->classes[CLS_DB_WRITE].iops;
	r->transactions = x.transactions;
	r->transactions_per_s = r->duration_s > 0 ? x.transactions / r->duration_s : 0;
	host_sampler_finish(&s->host, &r->host);
	if (rc->eng.t_measure)
		device_results(s, &x);
	if (ret || stop_flag || !rc->eng.t_measure) {
		r->aborted = true;
		r->abort_reason = stop_flag == RUN_STOP_SIGNAL
			? xasprintf("interrupted by %s", stop_signal == SIGTERM ? "SIGTERM" : "SIGINT")
			: xstrdup(ret ? "failed during initialisation" : "an I/O thread failed");
	}
	if (!ret && rc->eng.t_measure)
		s->wl->finish(rc);
	ret = result_write(r, s->o.output);
	if (ret) {
		fslab_err("cannot write the result to %s: %s", s->o.output, strerror(-ret));
		status = FSLAB_EXIT_FAIL;
	} else {
		if (!s->quiet)
			print_summary(s, stdout);
		printf("\nResult: %s\n", s->o.output);
		status = r->aborted ? FSLAB_EXIT_FAIL
				    : (r->verdict.present && !r->verdict.pass ? FSLAB_EXIT_VERDICT
									       : FSLAB_EXIT_OK);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out_wl:
	s->wl->cleanup(rc);
out:
	free_state(s);
	free(s);
	return status;
}

json_t *run_find_prep(const char *dir)
{
	return prep_json_for_dir(dir);
}
