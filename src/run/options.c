// SPDX-License-Identifier: MIT
/* options.c: the option table of `fslab run` and everything derived from it: parsing of
 * argv and of config values, --help, the lab's argv (options.h). */
#include "run/options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/base.h"
#include "io/ioengine.h"
#include "lib/msg.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "engine/steady.h"
#include "engine/tune.h"
#include "lib/utctime.h"
#include "workloads/jetstress.h"
#include "workloads/verdict.h"
#include "workloads/workload.h"

/*
 * Largest database (--db-size, the lab's db_size): 1 PiB.  A decision: far beyond any Exchange
 * database (Microsoft recommends at most 2 TB), and small enough that 64 databases plus their
 * logs add up without wrapping a 64-bit byte count.
 */
#define FSLAB_MAX_DB_SIZE (1024 * TiB)

#define STR_(x) #x
#define STR(x) STR_(x)
#define OFF(f) .off = offsetof(struct run_config, f), .size = sizeof(((struct run_config *)0)->f)
#define NO_OFF ((size_t)-1)
#define MAX_DURATION_NS (30ULL * 86400 * NSEC_PER_SEC)

static bool valid_workload(const char *v)
{
	return workload_find(v) != NULL;
}

static bool valid_engine(const char *v)
{
	return ioengine_find(v) != NULL;
}

static bool valid_thresholds(const char *v)
{
	return js_thresholds_find(v) != NULL;
}

/* a lab's id and a cell's id land in reports: plain text, the label rule */
static bool valid_plain(const char *v)
{
	return !label_problem(v);
}

static bool valid_start_at(const char *v)
{
	int64_t ns;

	return !utc_parse(v, &ns);
}

static const char *threshold_names(void)
{
	return JS_THRESHOLD_NAMES;
}

const struct run_option run_options[RO_NR] = {
	[RO_DB] = {
		.name = "db", .type = ROT_DIRS, .flags = ROF_LAB,
		.cmp = ROC_RUN,
		OFF(db_dirs), .off_n = offsetof(struct run_config, ndb_dirs), .metavar = "DIR",
		.help = "database directory (repeat for several volumes; databases are "
			"spread over them round-robin)",
	},
	[RO_LOG] = {
		.name = "log", .type = ROT_DIRS, .flags = ROF_LAB,
		.cmp = ROC_RUN,
		OFF(log_dirs), .off_n = offsetof(struct run_config, nlog_dirs), .metavar = "DIR",
		.help = "log directory (repeat likewise; not needed by simple workloads and "
			"backup)\n"
			"A block device instead of directories (--db DEV --log DEV) runs "
			"the same load on the raw devices: the baseline without a "
			"filesystem. It overwrites them: refused when mounted or in use, "
			"and when they carry a signature unless --force.",
	},
	[RO_FORCE] = {
		.name = "force", .type = ROT_FLAG, .flags = ROF_LAB, OFF(force),
		.cmp = ROC_RUN,
		.help = "let a raw-device run overwrite devices with a signature",
	},
	[RO_WORKLOAD] = {
		.name = "workload", .ini = "name", .type = ROT_CHOICE, OFF(workload),
		.cmp = ROC_LOAD,
		.def = "jetstress", .valid = valid_workload, .choices = workload_names,
		.metavar = "W", .help = "the load model: %C",
		.fix = "unknown workload; choose one of ",
	},
	[RO_THREADS] = {
		.name = "threads", .ini = "threads", .type = ROT_UINT, .flags = ROF_SWEEP | ROF_AUTO,
		.cmp = ROC_SWEEP, .off_n = offsetof(struct run_config, threads_auto),
		OFF(threads), .def = "8", .lo = 1, .hi = 256, .metavar = "N|auto",
		.help = "sessions (jetstress), jobs (simple workloads) or databases read at once "
			"(backup); auto (jetstress): the largest count whose load passes the "
			"verdict's limits, found by the tuner (below), then measured",
		.fix = "give 1 to 256 (Jetstress itself rarely needs more than a few dozen; add "
		       "--databases instead), or auto",
	},
	[RO_DATABASES] = {
		.name = "databases", .ini = "databases", .type = ROT_UINT, OFF(databases),
		.cmp = ROC_LOAD,
		.def = "1", .lo = 1, .hi = 64, .metavar = "N",
		.help = "database instances, each with its own log stream",
		.fix = "give 1 to 64",
	},
	/* ESE pages are 32 KiB; 512 of them at least (the simple workloads' data file alike) */
	[RO_DB_SIZE] = {
		.name = "db-size", .ini = "db_size", .type = ROT_SIZE, OFF(db_size),
		.cmp = ROC_LOAD,
		.def = "4G", .lo = 16 * MiB, .hi = FSLAB_MAX_DB_SIZE, .align = 32 * KiB,
		.metavar = "SIZE",
		.help = "size of each database (simple workloads: of the data file); default "
			"%D; a multiple of 32 KiB from 16M to 1024T; human units: 512M, 4G, 1T",
		.fix = "a multiple of 32 KiB, at least 16M and at most 1024T (16M to 1024T, 1 PiB): "
		       "give a size such as 512M, 4G or 1T",
	},
	[RO_DURATION] = {
		.name = "duration", .ini = "duration", .type = ROT_TIME, OFF(duration_s),
		.cmp = ROC_LOAD,
		.def = "2h", .lo = NSEC_PER_SEC, .hi = MAX_DURATION_NS, .metavar = "TIME",
		.help = "measured time, 1s to 30d: 90s, 15m, 2h, 1h30m; default %D (Jetstress's "
			"customary two hours)",
		.fix = "give a time of at least 1s and at most 30d, such as 90s, 15m or 2h",
	},
	[RO_WARMUP] = {
		.name = "warmup", .ini = "warmup", .type = ROT_TIME, OFF(warmup_s),
		.flags = ROF_STEADY, .off_n = offsetof(struct run_config, warmup_steady),
		.cmp = ROC_LOAD,
		.lo = 0, .hi = MAX_DURATION_NS, .metavar = "TIME|steady",
		.def_help = "5% of --duration, at most 60s",
		.help = "load before measuring; steady: until the steady-state rule holds "
			"(below), at most --steady-cap",
		.fix = "give a time such as 0, 30s or 5m, or steady",
	},
	[RO_SEED] = {
		.name = "seed", .ini = "seed", .type = ROT_UINT, OFF(seed), .def = "1",
		.cmp = ROC_LOAD,
		.lo = 0, .hi = INT64_MAX, .metavar = "N",
		.help = "seed of every random choice",
		.fix = "give a whole number (0 to 2^63-1)",
	},
	[RO_LABEL] = {
		/* compare's label rule (label_problem), checked by cli.c: it does not echo control
		 * characters */
		.name = "label", .type = ROT_STR, .flags = ROF_LAB, OFF(label),
		.cmp = ROC_RUN,
		.metavar = "NAME",
		.def_help = "the filesystem type of the first --db directory",
		.help = "label in the result (compare groups by it)",
	},
	[RO_OUTPUT] = {
		.name = "output", .type = ROT_STR, .flags = ROF_LAB, OFF(output),
		.cmp = ROC_RUN,
		.metavar = "FILE", .def_help = "./fslab-LABEL-YYYYmmdd-HHMMSS.json",
		.help = "result file",
	},
	[RO_BS] = {
		.name = "bs", .ini = "bs", .type = ROT_SIZE, OFF(bs), .def = "32k",
		.cmp = ROC_LOAD,
		.lo = 1, .hi = UINT64_MAX, .metavar = "SIZE",
		.help = "block size of simple workloads",
		.fix = "give a block size such as 4k or 32k",
	},
	[RO_IODEPTH] = {
		.name = "iodepth", .ini = "iodepth", .type = ROT_UINT, OFF(iodepth),
		.cmp = ROC_LOAD,
		.def = "1", .lo = 1, .hi = 1024, .metavar = "N",
		.help = "I/Os in flight per thread, simple workloads and backup (8 there unless "
			"given)",
		.fix = "give 1 to 1024",
	},
	[RO_RWMIXREAD] = {
		.name = "rwmixread", .ini = "rwmixread", .type = ROT_UINT, OFF(rwmixread),
		.cmp = ROC_LOAD,
		.def = "50", .lo = 0, .hi = 100, .metavar = "PCT",
		.help = "reads in randrw, per cent",
		.fix = "give a percentage, 0 to 100",
	},
	[RO_ENGINE] = {
		.name = "engine", .ini = "engine", .type = ROT_CHOICE, OFF(engine),
		.cmp = ROC_LOAD,
		.def = IOENGINE_DEFAULT, .valid = valid_engine, .choices = ioengine_names,
		.metavar = "E", .help = "I/O back end: %C",
		.fix = "unknown I/O back end; choose ",
	},
	[RO_CACHE] = {
		.name = "cache", .ini = "cache", .type = ROT_SIZE, OFF(cache_size),
		.cmp = ROC_LOAD,
		.lo = 0, .hi = UINT64_MAX, .metavar = "SIZE",
		.def_help = "1% of --db-size, at least 32M, at most 256M and an eighth of "
			    "--db-size (docs/DESIGN.md)",
		.help = "jetstress page-ID cache per database",
		.fix = "give a size such as 64M",
	},
	[RO_BDM_RATE] = {
		.name = "bdm-rate", .ini = "bdm_rate", .type = ROT_REAL, OFF(bdm_mbps),
		.cmp = ROC_LOAD,
		.def = "1", .rlo = 0, .rhi = 10000, .metavar = "MBPS",
		.help = "background maintenance reads per database, MB/s (0 off)",
		.fix = "give MB/s per database, e.g. 1 or 0.5; 0 turns BDM off",
	},
	[RO_COMPRESSIBILITY] = {
		.name = "compressibility", .ini = "compressibility", .type = ROT_UINT,
		.cmp = ROC_LOAD,
		OFF(compressibility), .def = "0", .lo = 0, .hi = 100, .metavar = "PCT",
		.help = "share of zeros in every 4 KiB written; default %D (incompressible)",
		.fix = "give a percentage, 0 to 100",
	},
	[RO_BUFFERED] = {
		.name = "buffered", .ini = "buffered", .type = ROT_FLAG, OFF(buffered),
		.cmp = ROC_LOAD,
		.help = "no O_DIRECT (reads may then come from the page cache)",
	},
	[RO_NO_CHECKSUM_PASS] = {
		.name = "no-checksum-pass", .ini = "no_checksum_pass", .type = ROT_FLAG,
		.cmp = ROC_LOAD,
		OFF(no_checksum_pass),
		.help = "skip reading every page after the load",
	},
	[RO_NO_VERIFY] = {
		.name = "no-verify", .ini = "no_verify", .type = ROT_FLAG, OFF(no_verify),
		.cmp = ROC_LOAD,
		.help = "do not check the pages read during the load (their checksum and page "
			"number); the checksum pass still runs",
	},
	[RO_NO_DROP_CACHES] = {
		.name = "no-drop-caches", .ini = "no_drop_caches", .type = ROT_FLAG,
		.cmp = ROC_LOAD,
		OFF(no_drop_caches),
		.help = "do not drop the page cache before the load (default: drop, as root)",
	},
	[RO_QUIET] = {
		.name = "quiet", .type = ROT_FLAG, .flags = ROF_LAB, OFF(quiet),
		.cmp = ROC_RUN,
		.help = "no progress or informational messages",
	},
	[RO_PROGRESS_FD] = {
		.name = "progress-fd", .type = ROT_UINT, .flags = ROF_LAB, OFF(progress_fd),
		.cmp = ROC_RUN,
		.lo = 0, .hi = 1 << 20, .metavar = "FD",
		.help = "one JSON progress line per second ({\"fslab_progress\": 1, ...}) to "
			"this open file descriptor; 1 is stdout, mixed with the summary "
			"(fslab lab reads them there)",
		.fix = "give an open file descriptor",
	},
	[RO_SELFTEST] = {
		.name = "selftest", .type = ROT_STR, .flags = ROF_LAB, OFF(selftest), .cmp = ROC_RUN,
		.metavar = "FILE",
		.help = "record this fslab selftest --json FILE in the result (it must cover the "
			"--db and --log volumes, made on this host); compare shows it in the "
			"Setup",
	},
	/* provenance: fslab lab sets these for each cell (docs/DESIGN.md, "fslab lab") */
	[RO_LAB_ID] = {
		.name = "lab-id", .type = ROT_STR, .flags = ROF_LAB, OFF(lab_id), .cmp = ROC_RUN,
		.valid = valid_plain, .metavar = "ID",
		.help = "the lab this run is a cell of (fslab lab sets the --lab-* options; "
			"compare analyses one lab's rounds as blocks)",
		.fix = "give the lab's id: 1-64 letters, digits, '.', '_', '+' or '-'",
	},
	[RO_LAB_CELL] = {
		.name = "lab-cell", .type = ROT_STR, .flags = ROF_LAB, OFF(lab_cell), .cmp = ROC_RUN,
		.valid = valid_plain, .metavar = "ID", .help = "its cell (\"xfs-8t-r3\")",
		.fix = "give the cell's id: 1-64 letters, digits, '.', '_', '+' or '-'",
	},
	[RO_LAB_ROUND] = {
		.name = "lab-round", .type = ROT_UINT, .flags = ROF_LAB, OFF(lab_round), .cmp = ROC_RUN,
		.lo = 1, .hi = 1000000, .metavar = "N", .help = "its round, from 1",
		.fix = "give the round, a whole number from 1",
	},
	[RO_LAB_POSITION] = {
		.name = "lab-position", .type = ROT_UINT, .flags = ROF_LAB,
		OFF(lab_position), .cmp = ROC_RUN, .lo = 1, .hi = 100000000, .metavar = "N",
		.help = "its place in the lab's run order, from 1",
		.fix = "give the position, a whole number from 1",
	},
	[RO_LAB_FRESH_VOLUME] = {
		.name = "lab-fresh-volume", .type = ROT_FLAG, .flags = ROF_LAB,
		OFF(lab_fresh_volume), .cmp = ROC_RUN,
		.help = "the lab formatted the volumes for this run alone",
	},
	[RO_FRESH] = {
		.name = "fresh", .type = ROT_FLAG, .flags = ROF_LAB, OFF(fresh), .cmp = ROC_RUN,
		.help = "delete the databases and logs fslab made in the --db and --log "
			"directories and create them afresh (a lab's cell on volumes you "
			"prepared); a directory holding anything else is refused, unless "
			"--allow-foreign-files",
	},
	[RO_ALLOW_FOREIGN_FILES] = {
		.name = "allow-foreign-files", .type = ROT_FLAG, .flags = ROF_LAB,
		OFF(allow_foreign_files), .cmp = ROC_RUN,
		.help = "with --fresh: run in directories that also hold files fslab did not "
			"make (left untouched)",
	},
	[RO_STOP_ON_STDIN_EOF] = {
		.name = "stop-on-stdin-eof", .type = ROT_FLAG, .flags = ROF_LAB,
		OFF(stop_on_stdin_eof), .cmp = ROC_RUN,
		.help = "the end of standard input stops the run as Ctrl-C does (fslab lab "
			"stops its steps so, also over ssh and on Windows)",
	},
	/*
	 * Describes the run (when its load began), not what it measures: not a comparability
	 * key.  Set by the lab per cell (fslab lab's [host] sections);
	 * cli.c refuses a time that has passed or is more than a day ahead.
	 */
	[RO_START_AT] = {
		.name = "start-at", .type = ROT_STR, .flags = ROF_LAB, OFF(start_at), .cmp = ROC_RUN,
		.valid = valid_start_at, .metavar = "TIME",
		.help = "initialise the databases, then wait until TIME (UTC: "
			"2026-12-03T14:05:00Z, 2026-12-03T14:05:00.25Z, or seconds since 1970) "
			"and start the load (warm-up, then measurement): runs on several hosts "
			"given one TIME start together. Refused when TIME has passed or is more "
			"than 24h ahead; a load that starts late (initialisation took longer) says "
			"so in a note",
		.fix = "give a UTC time with its zone, such as 2026-12-03T14:05:00Z or "
		       "2026-12-03T14:05:00.5Z, or seconds since 1970 such as $(($(date +%s) + 60))",
	},
	[RO_SAMPLE_INTERVAL] = {
		.group = "\nVerdict (jetstress; exit status 3 when it fails):\n",
		.name = "sample-interval", .ini = "sample_interval", .type = ROT_TIME,
		.cmp = ROC_LOAD,
		.flags = ROF_VERDICT | ROF_WHOLE_S, OFF(sample_interval_s),
		.def = STR(JS_SAMPLE_INTERVAL_S) "s", .lo = NSEC_PER_SEC, .hi = 3600 * NSEC_PER_SEC,
		.metavar = "T",
		.help = "latency sampling interval; default %D (Jetstress's LogInterval), "
			"1s to 1h in whole seconds. The maximum checks judge the average "
			"latency of each interval, per database and overall; a measurement "
			"shorter than one interval is one partial sample",
		.fix = "give whole seconds from 1s to 1h, such as 15s (Jetstress's LogInterval) "
		       "or 1m",
	},
	[RO_THRESHOLDS] = {
		.name = "thresholds", .ini = "thresholds", .type = ROT_CHOICE, .flags = ROF_VERDICT,
		.cmp = ROC_LOAD,
		OFF(thresholds), .def = "strict", .valid = valid_thresholds,
		.choices = threshold_names, .metavar = "SET",
		.help = "%C; default %D: database reads average <= 20 ms, "
			"log writes <= 10 ms, maximum 100 ms; lenient (Jetstress's stress "
			"runs): maximum 200 ms",
		.fix = "choose ",
	},
	[RO_MAX_LATENCY_ERRORS] = {
		.name = "max-latency-errors", .ini = "max_latency_errors", .type = ROT_UINT,
		.cmp = ROC_LOAD,
		.flags = ROF_VERDICT, OFF(max_latency_errors),
		.def = STR(JS_MAX_LATENCY_ERRORS), .lo = 0, .hi = 1000000, .metavar = "N",
		.help = "samples tolerated above the maximum; default %D (Jetstress's "
			"MaximumLatencyErrors)",
		.fix = "give the number of samples tolerated above the maximum, 0 to 1000000 "
		       "(Jetstress: " STR(JS_MAX_LATENCY_ERRORS) ")",
	},
	[RO_STRICT_IO_TAIL] = {
		.name = "strict-io-tail", .ini = "strict_io_tail", .type = ROT_FLAG,
		.cmp = ROC_LOAD,
		.flags = ROF_VERDICT, OFF(strict_io_tail),
		.help = "also fail when more than N single I/Os exceed the maximum (the "
			"per-I/O tail; always recorded, not judged by default)",
	},
	[RO_TARGET_IOPS] = {
		.name = "target-iops", .ini = "target_iops", .type = ROT_REAL,
		.cmp = ROC_LOAD,
		.flags = ROF_VERDICT | ROF_EXCL_MIN, OFF(target_iops), .rlo = 0, .rhi = 1e9,
		.metavar = "N",
		.help = "also require at least N transactional IOPS (database reads + "
			"writes per second)",
		.fix = "give the transactional IOPS to reach, a positive number such as 1500",
	},
	[RO_MAILBOXES] = {
		.name = "mailboxes", .ini = "mailboxes", .type = ROT_UINT, .flags = ROF_VERDICT,
		.cmp = ROC_LOAD,
		OFF(mailboxes), .lo = 1, .hi = 10000000, .metavar = "M",
		.help = "with --iops-per-mailbox F: the target M x F (from an Exchange "
			"sizing); not together with --target-iops",
		.fix = "give the number of mailboxes, 1 to 10000000",
	},
	[RO_IOPS_PER_MAILBOX] = {
		.name = "iops-per-mailbox", .ini = "iops_per_mailbox", .type = ROT_REAL,
		.cmp = ROC_LOAD,
		.flags = ROF_VERDICT | ROF_EXCL_MIN, OFF(iops_per_mailbox), .rlo = 0,
		.rhi = 100, .metavar = "F",
		.help = "transactional IOPS per mailbox (with --mailboxes)",
		.fix = "give transactional IOPS per mailbox, a positive number up to 100, such as "
		       "0.06",
	},
/*
 * Steady state: the SNIA PTS rule (src/engine/steady.h) judges every result's timeline, a steady
 * warm-up and a precondition's second stage.  It shapes how a result is judged (and, with
 * --warmup steady or --precondition, where the measurement starts): ROC_LOAD.
 */
#define STEADY_HELP_PCT "in % of the window's mean"
	[RO_STEADY_WINDOW] = {
		.group = "\nSteady state (SNIA PTS: the range of W interval means within 20 % of their "
			 "mean,\nthe least-squares line's excursion across them within 10 %): every "
			 "result says\nwhether and from when it held, for transactional IOPS and "
			 "database read latency.\n",
		.name = "steady-window", .ini = "steady_window", .type = ROT_UINT,
		.cmp = ROC_LOAD, OFF(steady_window), .def = STR(STEADY_WINDOW),
		.lo = 2, .hi = STEADY_WINDOW_MAX, .metavar = "W",
		.help = "intervals in the steady-state window; default %D (SNIA PTS: five "
			"rounds); 2 to " STR(STEADY_WINDOW_MAX),
		.fix = "give 2 to " STR(STEADY_WINDOW_MAX) " intervals (SNIA PTS: 5)",
	},
	[RO_STEADY_INTERVAL] = {
		.name = "steady-interval", .ini = "steady_interval", .type = ROT_TIME,
		.flags = ROF_WHOLE_S, .cmp = ROC_LOAD, OFF(steady_interval_s),
		.def = STR(STEADY_INTERVAL_S) "s", .lo = NSEC_PER_SEC, .hi = 3600 * NSEC_PER_SEC,
		.metavar = "T",
		.help = "one interval's mean is one point of the window; default %D (SNIA's "
			"one-minute rounds), 1s to 1h in whole seconds",
		.fix = "give whole seconds from 1s to 1h, such as 60s (SNIA's rounds) or 10s",
	},
	[RO_STEADY_RANGE] = {
		.name = "steady-range", .ini = "steady_range", .type = ROT_REAL,
		.flags = ROF_EXCL_MIN, .cmp = ROC_LOAD, OFF(steady_range_pct), .def = "20",
		.rlo = 0, .rhi = 100, .metavar = "PCT",
		.help = "the largest range (max - min) of the window's means, " STEADY_HELP_PCT,
		.fix = "give a percentage above 0 and at most 100 (SNIA PTS: 20)",
	},
	[RO_STEADY_EXCURSION] = {
		.name = "steady-excursion", .ini = "steady_excursion", .type = ROT_REAL,
		.flags = ROF_EXCL_MIN, .cmp = ROC_LOAD, OFF(steady_excursion_pct), .def = "10",
		.rlo = 0, .rhi = 100, .metavar = "PCT",
		.help = "the largest excursion of the least-squares line across the window, "
			STEADY_HELP_PCT,
		.fix = "give a percentage above 0 and at most 100 (SNIA PTS: 10)",
	},
	[RO_STEADY_CAP] = {
		.name = "steady-cap", .ini = "steady_cap", .type = ROT_TIME, .cmp = ROC_LOAD,
		OFF(steady_cap_s), .lo = NSEC_PER_SEC, .hi = MAX_DURATION_NS, .metavar = "TIME",
		.def_help = STR(STEADY_MAX_ROUNDS) " intervals (SNIA PTS: at most "
			    STR(STEADY_MAX_ROUNDS) " rounds)",
		.help = "the longest a load runs waiting for steady state (--warmup steady, "
			"--precondition's second stage); the result says whether it held",
		.fix = "give a time such as 10m or 1h, at least the window (steady-window x "
		       "steady-interval)",
	},
	[RO_PRECONDITION] = {
		.name = "precondition", .ini = "precondition", .type = ROT_UINT, .cmp = ROC_LOAD,
		OFF(precondition), .def = "0", .lo = 0, .hi = 100, .metavar = "N",
		.help = "before the warm-up, SNIA PTS's two stages, neither measured: every "
			"database file written over N times sequentially, then the load until "
			"steady state (at most --steady-cap); both recorded. 0: none",
		.fix = "give how many times to write the database files over, 0 to 100 (SNIA "
		       "PTS: 2)",
	},
/*
 * --threads auto (src/engine/tune.h): how the tuner judges a step and how far it searches.  They
 * shape which count is measured: ROC_LOAD.  Recorded only by a tuned run.
 */
	[RO_TUNE_WINDOW] = {
		.group = "\nAutomatic tuning (--threads auto, jetstress: Jetstress's tuner): from "
			 "the fewest threads,\ndoubling while a step passes, then bisecting; a "
			 "step is judged once its database read\nlatency is stable, against the "
			 "verdict's limits; then the measurement at the count chosen.\n",
		.name = "tune-window", .ini = "tune_window", .type = ROT_UINT, .flags = ROF_TUNE,
		.cmp = ROC_LOAD, OFF(tune_window), .def = STR(TUNE_WINDOW), .lo = 2,
		.hi = TUNE_WINDOW_MAX, .metavar = "W",
		.help = "samples in the slope test a step's database read latency must pass "
			"before the step is judged; default %D (Jetstress: 30), 2 to "
			STR(TUNE_WINDOW_MAX),
		.fix = "give 2 to " STR(TUNE_WINDOW_MAX) " samples (Jetstress: 30)",
	},
	[RO_TUNE_INTERVAL] = {
		.name = "tune-interval", .ini = "tune_interval", .type = ROT_TIME,
		.flags = ROF_TUNE | ROF_WHOLE_S, .cmp = ROC_LOAD, OFF(tune_interval_s),
		.def = STR(TUNE_INTERVAL_S) "s", .lo = NSEC_PER_SEC, .hi = 600 * NSEC_PER_SEC,
		.metavar = "T", .help = "one sample of the slope test; default %D, whole seconds",
		.fix = "give whole seconds from 1s to 10m, such as 1s or 5s",
	},
	[RO_TUNE_SLOPE] = {
		.name = "tune-slope", .ini = "tune_slope", .type = ROT_REAL,
		.flags = ROF_TUNE | ROF_EXCL_MIN, .cmp = ROC_LOAD, OFF(tune_slope_pct), .def = "10",
		.rlo = 0, .rhi = 1000, .metavar = "PCT",
		.help = "stable: the least-squares line of the window's latency samples moves by at "
			"most PCT % of their mean across the window",
		.fix = "give a percentage above 0 and at most 1000, such as 10",
	},
	[RO_TUNE_JUDGE] = {
		.name = "tune-judge", .ini = "tune_judge", .type = ROT_TIME,
		.flags = ROF_TUNE | ROF_WHOLE_S, .cmp = ROC_LOAD, OFF(tune_judge_s),
		.def = STR(TUNE_JUDGE_S) "s", .lo = NSEC_PER_SEC, .hi = MAX_DURATION_NS,
		.metavar = "TIME",
		.help = "how long a stable step is measured and held to the verdict's limits "
			"(averages, samples above the maximum, stalls); default %D (Jetstress: "
			"120 samples)",
		.fix = "give whole seconds of at least 1s, such as 30s or 2m",
	},
	[RO_TUNE_STEP_CAP] = {
		.name = "tune-step-cap", .ini = "tune_step_cap", .type = ROT_TIME, .flags = ROF_TUNE,
		.cmp = ROC_LOAD, OFF(tune_step_cap_s), .def = STR(TUNE_STEP_CAP_S) "s",
		.lo = NSEC_PER_SEC, .hi = MAX_DURATION_NS, .metavar = "TIME",
		.help = "a step's longest time: one whose latency is not stable by then fails; "
			"default %D (Jetstress: 10 minutes)",
		.fix = "give a time such as 2m or 10m, at least the window and the judgement",
	},
	[RO_TUNE_CAP] = {
		.name = "tune-cap", .ini = "tune_cap", .type = ROT_TIME, .flags = ROF_TUNE,
		.cmp = ROC_LOAD, OFF(tune_cap_s), .def = STR(TUNE_CAP_S) "s", .lo = NSEC_PER_SEC,
		.hi = MAX_DURATION_NS, .metavar = "TIME",
		.help = "the search's longest time: no step starts after it, and the largest count "
			"that passed so far is measured; default %D (Jetstress: one hour)",
		.fix = "give a time such as 30m or 1h",
	},
	[RO_TUNE_MAX_THREADS] = {
		.name = "tune-max-threads", .ini = "tune_max_threads", .type = ROT_UINT,
		.flags = ROF_TUNE, .cmp = ROC_LOAD, OFF(tune_max_threads),
		.def = STR(TUNE_MAX_THREADS), .lo = 1, .hi = 256, .metavar = "N",
		.help = "the most threads the tuner tries; default %D",
		.fix = "give 1 to 256",
	},
	[RO_RECOVERY_LOGS] = {
		.name = "recovery-logs", .ini = "recovery_logs", .type = ROT_UINT, .cmp = ROC_LOAD,
		OFF(recovery_logs), .lo = 1, .hi = 100000, .metavar = "N",
		.def_help = STR(JS_RECOVERY_LOGS),
		.help = "the recovery workload: log files its load leaves per database before "
			"the unclean stop; their replay is timed per log file",
		.fix = "give how many log files (1 MiB each) to replay per database, 1 to 100000",
	},
};

_Static_assert(RO_NR <= 64, "run_params.given holds one bit per option");

const struct run_option *run_option_find(const char *name)
{
	for (size_t i = 0; i < RO_NR; i++)
		if (!strcmp(run_options[i].name, name))
			return &run_options[i];
	return NULL;
}

const struct run_option *run_option_by_ini(const char *key)
{
	for (size_t i = 0; i < RO_NR; i++)
		if (run_options[i].ini && !strcmp(run_options[i].ini, key))
			return &run_options[i];
	return NULL;
}

const char *run_option_ini_keys(void)
{
	static struct strbuf keys = STRBUF_INIT;

	if (!keys.len)
		for (size_t i = 0; i < RO_NR; i++)
			if (run_options[i].ini)
				strbuf_addf(&keys, "%s%s", keys.len ? ", " : "", run_options[i].ini);
	return keys.buf;
}

bool run_parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return true;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return true;
		}
	}
	return false;
}

static void *field(struct run_params *p, size_t off)
{
	return (char *)p->c + off;
}

void run_params_init(struct run_params *p, struct run_config *c)
{
	memset(p, 0, sizeof(*p));
	p->c = c;
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		const char *fix;

		/* the table's own defaults pass its checks (tests/unit/test_options.c) */
		if (o->def && run_option_parse(p, o, o->def, &fix))
			abort();
	}
	p->given = 0;
	p->first_verdict = -1;
	for (size_t i = 0; i < RO_NR; i++) {
		free(p->text[i]);
		p->text[i] = NULL;
	}
}

void run_params_release(struct run_params *p)
{
	for (size_t i = 0; i < RO_NR; i++)
		free(p->text[i]);
	free(p->fix);
	memset(p, 0, sizeof(*p));
}

static int parse_real(const struct run_option *o, const char *v, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(d) || d < o->rlo || d > o->rhi ||
	    ((o->flags & ROF_EXCL_MIN) && d <= o->rlo))
		return -EINVAL;
	*out = d;
	return 0;
}

/* A value of a numeric type (ROT_UINT, ROT_SIZE, ROT_TIME) into field f: 0 or -EINVAL. */
static int parse_number(struct run_params *p, const struct run_option *o, const char *v, void *f)
{
	uint64_t u = 0;

	switch (o->type) {
	case ROT_UINT:
		if ((o->flags & ROF_AUTO) && !strcasecmp(v, "auto")) {
			*(bool *)field(p, o->off_n) = true;
			u = 0;
		} else if (parse_u64(v, o->lo, o->hi, &u)) {
			return -EINVAL;
		} else if (o->flags & ROF_AUTO) {
			*(bool *)field(p, o->off_n) = false;
		}
		if (o->size == sizeof(unsigned int))
			*(unsigned int *)f = (unsigned int)u;
		else
			*(uint64_t *)f = u;
		return 0;
	case ROT_SIZE:
		if (parse_size(v, &u) || u < o->lo || u > o->hi || (o->align && u % o->align))
			return -EINVAL;
		*(uint64_t *)f = u;
		return 0;
	case ROT_TIME:
		if ((o->flags & ROF_STEADY) && !strcasecmp(v, "steady")) {
			*(bool *)field(p, o->off_n) = true;
			*(double *)f = 0;
			return 0;
		}
		if (parse_duration(v, &u) || u < o->lo || u > o->hi ||
		    ((o->flags & ROF_WHOLE_S) && u % NSEC_PER_SEC))
			return -EINVAL;
		*(double *)f = (double)u / NSEC_PER_SEC;
		if (o->flags & ROF_STEADY)
			*(bool *)field(p, o->off_n) = false;
		return 0;
	default:
		return -EINVAL;
	}
}

int run_option_parse(struct run_params *p, const struct run_option *o, const char *v,
		     const char **fix)
{
	size_t id = (size_t)(o - run_options);
	void *f = field(p, o->off);
	double d = 0;
	bool b = true;

	*fix = o->fix;
	switch (o->type) {
	case ROT_DIRS: {
		char ***vv = f;
		size_t *n = field(p, o->off_n);

		*vv = xrealloc(*vv, (*n + 2) * sizeof(char *));
		(*vv)[(*n)++] = xstrdup(v);
		(*vv)[*n] = NULL;
		break;
	}
	case ROT_STR:
	case ROT_CHOICE:
		if (o->valid && !o->valid(v)) {
			if (o->choices) {
				free(p->fix);
				p->fix = xasprintf("%s%s", o->fix, o->choices());
				*fix = p->fix;
			}
			return -EINVAL;
		}
		free(*(char **)f);
		*(char **)f = xstrdup(v);
		break;
	case ROT_UINT:
	case ROT_SIZE:
	case ROT_TIME:
		if (parse_number(p, o, v, f))
			return -EINVAL;
		break;
	case ROT_REAL:
		if (parse_real(o, v, &d))
			return -EINVAL;
		*(double *)f = d;
		break;
	case ROT_FLAG:
		if (v && !run_parse_bool(v, &b)) {
			*fix = "give yes or no";
			return -EINVAL;
		}
		*(bool *)f = b;
		break;
	}
	if (o->type != ROT_DIRS) {
		free(p->text[id]);
		p->text[id] = v ? xstrdup(v) : NULL;
	}
	p->given |= UINT64_C(1) << id;
	if ((o->flags & ROF_VERDICT) && p->first_verdict < 0)
		p->first_verdict = (int)id;
	return 0;
}
