// SPDX-License-Identifier: MIT
/* cli.c: the options of `fslab run`: usage text, getopt, defaults and the checks of values. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/ioengine.h"
#include "run/runP.h"
#include "util.h"

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

int run_parse_args(struct run_state *s, int argc, char **argv)
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
			if (o->db_size > FSLAB_MAX_DB_SIZE)
				return bad_value("db-size", optarg, "at most 1024T (1 PiB) per database; "
						 "give a size such as 512M, 4G or 1T");
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
	if (o->label && label_problem(o->label)) {
		bool shown = strnlen(o->label, 65) <= 64 &&
			     strspn(o->label, " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~") == strlen(o->label);

		/* the same rule as compare's (util.c), which refuses results with other labels */
		return input_error("--label '%s': %s; use 1-64 letters, digits, '.', '_', '+' or '-', "
				   "starting with a letter or a digit (it names files in reports)",
				   shown ? o->label : "(not shown: too long or control characters)",
				   label_problem(o->label));
	}
	if (!s->warmup_set)
		o->warmup_ns = MIN(o->duration_ns / 20, 60 * NSEC_PER_SEC);
	/*
	 * A cache as large as the database turns every read into a hit after the warm-up: the
	 * read:write mix is no longer Exchange's (measured: 1.65 -> 0.92).  Refused rather than
	 * clamped, so that the result always records the cache the user asked for.
	 */
	if (o->cache_size > o->db_size)
		return input_error("--cache %s is larger than each database (--db-size %s); ESE's "
				   "cache is a small fraction of the database (the default is 1 %%, "
				   "at most 256M): give a smaller --cache or leave it out",
				   fmt_size((char[32]){ 0 }, 32, o->cache_size),
				   fmt_size((char[32]){ 0 }, 32, o->db_size));
	if (!o->cache_size)
		o->cache_size = MIN(o->db_size / 100, 256 * MiB);
	return 0;
}
