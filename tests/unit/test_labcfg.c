// SPDX-License-Identifier: MIT
/* test_labcfg.c: lab configs: defaults, thread lists, order, A/A, run passthrough keys, and
 * every bad config named file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "lab/labcfg.h"

#ifdef FSLAB_NO_INIH
/* only test_no_inih runs in such a build (main() below) */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-const-variable"
#endif

static char path[64];
static char errors[8192];
/* the system the configs are checked for (lab_cfg_load_for) */
static const struct lab_system *load_os; /* NULL: Linux */

static int load_n(const char *text, size_t len, struct lab_cfg *cfg);

/* Load text as a config; stderr (the error lines) lands in errors[]. */
static int load(const char *text, struct lab_cfg *cfg)
{
	return load_n(text, strlen(text), cfg);
}

/* The same for text with NUL bytes in it. */
static int load_n(const char *text, size_t len, struct lab_cfg *cfg)
{
	char errpath[] = "/tmp/fslab-labcfg-err.XXXXXX";
	int fd = mkstemp(errpath), saved = dup(2), ret;
	FILE *f;
	ssize_t n;

	strcpy(path, "/tmp/fslab-labcfg.XXXXXX");
	f = fdopen(mkstemp(path), "w");
	fwrite(text, 1, len, f);
	fclose(f);
	fflush(stderr);
	dup2(fd, 2);
	ret = lab_cfg_load_for(cfg, path, load_os ? load_os : lab_system_find("linux"));
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, errors, sizeof(errors) - 1);
	errors[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(errpath);
	unlink(path);
	return ret;
}

/* errors contains "PATH:LINE: ...needle..." */
static void assert_error_at(int line, const char *needle)
{
	char want[128];

	snprintf(want, sizeof(want), "%s:%d: ", path, line);
	if (!strstr(errors, want) || !strstr(errors, needle)) {
		fprintf(stderr, "expected %s...%s in:\n%s", want, needle, errors);
		fail();
	}
}

static const char good[] =
	"; a comment\n"
	"[lab]\n"
	"title = A vs B\n"
	"repeats = 2\n"
	"\n"
	"[devices]\n"
	"image_dir = /var/tmp/x   ; inline comment\n"
	"\n"
	"[workload]\n"
	"threads = 4, 8,12\n"
	"db_size = 1G\n"
	"duration = 90s\n"
	"\n"
	"[fs ext4]\n"
	"\n"
	"[fs xfs-big]\n"
	"fs = xfs\n"
	"mkfs_opts = -i size=512\n";

static void test_good(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load(good, &c), 0);
	assert_string_equal(c.title, "A vs B");
	assert_int_equal(c.repeats, 2);
	assert_string_equal(c.image_dir, "/var/tmp/x");
	assert_int_equal(c.nthreads, 3);
	assert_int_equal(c.threads[0], 4);
	assert_int_equal(c.threads[2], 12);
	assert_int_equal(c.wl.db_size, GiB);
	assert_true(c.wl.duration_s == 90);
	assert_int_equal(c.wl.seed, 1);
	assert_string_equal(c.wl.workload, "jetstress");
	assert_int_equal(c.nfs, 2);
	assert_string_equal(c.fs[0].name, "ext4");
	assert_string_equal(c.fs[0].fs, "ext4");
	assert_string_equal(c.fs[1].name, "xfs-big");
	assert_string_equal(c.fs[1].fs, "xfs");
	assert_string_equal(c.fs[1].mkfs_opts, "-i size=512");
	assert_int_equal(lab_cfg_ncells(&c), 2 * 3 * 2);
	/* image sizes default to what the databases need */
	assert_true(c.db_image_size >= GiB + GiB / 10);
	lab_cfg_release(&c);
}

/* threads = auto: one cell per label and round, its count the tuner's (0), its keys taken */
static void test_threads_auto(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[lab]\nrepeats = 3\n[devices]\nimage_dir = /x\n[workload]\n"
			      "threads = Auto\ntune_window = 5\ntune_cap = 20m\n[fs ext4]\n[fs xfs]\n",
			      &c), 0);
	assert_int_equal(c.nthreads, 1);
	assert_int_equal(c.threads[0], 0);
	assert_true(c.wl.threads_auto);
	assert_int_equal(c.wl.tune_window, 5);
	assert_true(c.wl.tune_cap_s == 1200);
	assert_int_equal(lab_cfg_ncells(&c), 2 * 3);
	lab_cfg_release(&c);
}

static void test_default_duration(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[devices]\nimage_dir=/x\n[workload]\ndb_size=64M\n[fs btrfs]\n", &c), 0);
	assert_true(c.wl.duration_s == 7200); /* two hours, as Jetstress */
	assert_int_equal(c.nthreads, 1);
	assert_int_equal(c.threads[0], 8);
	/* shuffled rounds unless told otherwise; seed from the clock; no A/A; nothing passed */
	assert_int_equal(c.order, LAB_ORDER_SHUFFLED);
	assert_false(c.order_seed_set);
	assert_false(c.aa_check);
	assert_false(run_params_given(&c.run, RO_SAMPLE_INTERVAL));
	assert_false(run_params_given(&c.run, RO_THRESHOLDS));
	assert_false(run_params_given(&c.run, RO_MAX_LATENCY_ERRORS));
	assert_false(run_params_given(&c.run, RO_TARGET_IOPS));
	assert_false(run_params_given(&c.run, RO_MAILBOXES));
	assert_false(run_params_given(&c.run, RO_IOPS_PER_MAILBOX));
	assert_false(c.wl.strict_io_tail);
	lab_cfg_release(&c);
}

/* An adaptive lab: precision, budget, the round bounds and their defaults; what is refused. */
static void test_adaptive_keys(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[lab]\nprecision = 12.5 %\nbudget = 1h30m\nmin_rounds = 4\n"
			      "max_rounds = 9\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", &c), 0);
	assert_true(c.precision == 12.5);
	assert_int_equal(c.budget_ns, 5400 * NSEC_PER_SEC);
	assert_int_equal(c.min_rounds, 4);
	assert_int_equal(c.max_rounds, 9);
	assert_int_equal(c.repeats, 9); /* the cells of every round it may run */
	assert_int_equal(lab_cfg_ncells(&c), 9);
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nprecision = 10%\n[devices]\nimage_dir=/x\n[workload]\n"
			      "[fs ext4]\n[fs xfs]\n", &c), 0);
	assert_true(c.precision == 10);
	assert_int_equal(c.budget_ns, 0);
	assert_int_equal(c.min_rounds, LAB_MIN_ROUNDS_DEFAULT);
	assert_int_equal(c.max_rounds, LAB_MAX_ROUNDS_DEFAULT);
	assert_int_equal(lab_cfg_ncells(&c), 2 * LAB_MAX_ROUNDS_DEFAULT);
	lab_cfg_release(&c);
	/* a fixed lab: none of it */
	assert_int_equal(load(good, &c), 0);
	assert_true(c.precision == 0);
	lab_cfg_release(&c);

	assert_int_equal(load("[lab]\nprecision = 0%\n[devices]\nimage_dir=/x\n[workload]\n"
			      "[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "precision = '0%'");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nprecision = 1001%\n[devices]\nimage_dir=/x\n[workload]\n"
			      "[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "at most 1000%");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nrepeats = 3\nprecision = 10%\n[devices]\nimage_dir=/x\n"
			      "[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(3, "either repeats");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nmax_rounds = 5\n[devices]\nimage_dir=/x\n[workload]\n"
			      "[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "add precision");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nprecision = 10%\nmin_rounds = 1\n[devices]\nimage_dir=/x\n"
			      "[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(3, "give 2 to 100 rounds");
	lab_cfg_release(&c);
}

/* A lab that stops when decided, its margin, the qualification runs; what is refused. */
static void test_decided_keys(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[lab]\nstop = decided\nequivalence = 5%\nqualify = 2h\n"
			      "[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n[fs xfs]\n", &c), 0);
	assert_true(c.adaptive);
	assert_int_equal(c.stop, LAB_STOP_DECIDED);
	assert_true(c.equivalence == 5);
	assert_true(c.precision == 0); /* not needed to decide */
	assert_int_equal(c.qualify_ns, 7200 * NSEC_PER_SEC);
	assert_int_equal(c.repeats, LAB_MAX_ROUNDS_DEFAULT);
	lab_cfg_release(&c);
	/* a fixed lab may name its margin and qualify too; none: no margin */
	assert_int_equal(load("[lab]\nrepeats = 3\nequivalence = none\nqualify = 10s\n"
			      "[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", &c), 0);
	assert_false(c.adaptive);
	assert_true(c.equivalence < 0);
	lab_cfg_release(&c);
	/* the shipped configs that decide */
	assert_int_equal(lab_cfg_load_for(&c, "configs/demo.ini", lab_system_find("linux")), 0);
	assert_int_equal(c.stop, LAB_STOP_DECIDED);
	assert_true(c.equivalence == 5);
	lab_cfg_release(&c);
	assert_int_equal(lab_cfg_load_for(&c, "configs/jetstress-2h.ini", lab_system_find("linux")), 0);
	assert_int_equal(c.stop, LAB_STOP_DECIDED);
	assert_int_equal(c.qualify_ns, 7200 * NSEC_PER_SEC);
	assert_int_equal(c.budget_ns, 24 * 3600 * NSEC_PER_SEC);
	assert_true(c.wl.duration_s < 7200); /* the rounds' cells are not the two hours */
	lab_cfg_release(&c);

	assert_int_equal(load("[lab]\nstop = soon\n[devices]\nimage_dir=/x\n[workload]\n"
			      "[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "stop = 'soon': give decided");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nstop = decided\nrepeats = 3\n[devices]\nimage_dir=/x\n"
			      "[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(3, "either repeats");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nstop = decided\nequivalence = none\n[devices]\n"
			      "image_dir=/x\n[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(3, "needs an equivalence margin");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nequivalence = 0%\nrepeats = 2\n[devices]\nimage_dir=/x\n"
			      "[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "equivalence = '0%'");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nequivalence = 101%\nrepeats = 2\n[devices]\n"
			      "image_dir=/x\n[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "at most 100%");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nqualify = 0s\nrepeats = 2\n[devices]\nimage_dir=/x\n"
			      "[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "qualify = '0s'");
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\nstop = precision\n[devices]\nimage_dir=/x\n[workload]\n"
			      "[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(2, "add precision");
	lab_cfg_release(&c);
}

static void test_order_aa_run_keys(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[lab]\norder = interleaved\norder_seed = 12345\naa_check = yes\n"
			      "repeats = 3\n[devices]\nimage_dir=/x\n[workload]\nthreads = 2,4\n"
			      "sample_interval = 5s\nthresholds = lenient\nmax_latency_errors = 0\n"
			      "mailboxes = 500\niops_per_mailbox = 0.06\nstrict_io_tail = yes\n"
			      "[fs ext4]\n[fs xfs]\n", &c), 0);
	assert_int_equal(c.order, LAB_ORDER_INTERLEAVED);
	assert_true(c.order_seed_set);
	assert_int_equal(c.order_seed, 12345);
	assert_true(c.aa_check);
	assert_true(c.wl.sample_interval_s == 5);
	assert_string_equal(c.wl.thresholds, "lenient");
	assert_true(run_params_given(&c.run, RO_MAX_LATENCY_ERRORS));
	assert_int_equal(c.wl.max_latency_errors, 0);
	assert_int_equal(c.wl.mailboxes, 500);
	assert_string_equal(c.run.text[RO_IOPS_PER_MAILBOX], "0.06");
	assert_true(c.wl.strict_io_tail);
	/* (ext4, xfs, ext4-aa) x 2 thread counts x 3 repeats */
	assert_int_equal(lab_cfg_ncells(&c), 3 * 2 * 3);
	assert_int_equal(lab_cfg_baseline_fs(&c), 0);
	lab_cfg_release(&c);

	assert_int_equal(load("[lab]\norder = sequential\ntarget_iops = 1\n", &c), -FSLAB_EINPUT);
	lab_cfg_release(&c);
	assert_int_equal(load("[lab]\norder = sequential\n[devices]\nimage_dir=/x\n[workload]\n"
			      "target_iops = 900\n[fs ext4]\n", &c), 0);
	assert_int_equal(c.order, LAB_ORDER_SEQUENTIAL);
	assert_string_equal(c.run.text[RO_TARGET_IOPS], "900");
	lab_cfg_release(&c);
}

/* Which [fs] the A/A check repeats: baseline by name, by sweep label, raw, else the first. */
static void test_baseline_fs(void **state)
{
	static const struct {
		const char *lab;
		int want;
	} cases[] = {
		{ "", 0 },
		{ "baseline = xfs\n", 1 },
		{ "baseline = xfs-8t\n", 1 },
		{ "baseline = xfs-big-4t\n", 2 },
		{ "baseline = raw\nraw_baseline = yes\n", -1 },
		{ "baseline = raw-4t\nraw_baseline = yes\n", -1 },
		{ "raw_baseline = yes\n", 0 },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char text[512];
		struct lab_cfg c;

		snprintf(text, sizeof(text), "[lab]\naa_check = yes\n%s[devices]\nimage_dir=/x\n"
			 "[workload]\nthreads = 4,8\n[fs ext4]\n[fs xfs]\n[fs xfs-big]\nfs = xfs\n",
			 cases[i].lab);
		assert_int_equal(load(text, &c), 0);
		assert_int_equal(lab_cfg_baseline_fs(&c), cases[i].want);
		lab_cfg_release(&c);
	}
}

static void test_bad(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *needle;
	} cases[] = {
		/* unknown key */
		{ "[devices]\nimage_dir=/x\n[workload]\nthreds = 4\n[fs ext4]\n", 4, "unknown key 'threds'" },
		{ "[lab]\ncolour = red\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "unknown key 'colour'" },
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\nblocksize = 4k\n", 5, "unknown key 'blocksize'" },
		/* unknown section */
		{ "[devices]\nimage_dir=/x\n[workload]\n[filesystem ext4]\n[fs ext4]\n", 4, "unknown section" },
		/* missing device */
		{ "[lab]\n[devices]\n\n[workload]\n[fs ext4]\n", 2, "missing device" },
		{ "[devices]\ndb_dev = /dev/sdb\n[workload]\n[fs ext4]\n", 1, "missing device" },
		/* duration 0 */
		{ "[devices]\nimage_dir=/x\n[workload]\nduration = 0\n[fs ext4]\n", 4, "duration = '0'" },
		/* thread list with 0 */
		{ "[devices]\nimage_dir=/x\n[workload]\nthreads = 4,0,12\n[fs ext4]\n", 4, "0 is not a valid thread count" },
		{ "[devices]\nimage_dir=/x\n[workload]\nthreads = 4,,8\n[fs ext4]\n", 4, "threads" },
		/* threads = auto stands alone; the tuner's keys only with it */
		{ "[devices]\nimage_dir=/x\n[workload]\nthreads = 4, auto\n[fs ext4]\n", 4,
		  "auto stands alone" },
		{ "[devices]\nimage_dir=/x\n[workload]\ntune_window = 5\n[fs ext4]\n", 4,
		  "tune_window: only threads = auto tunes" },
		/* other bad values */
		{ "[devices]\nimage_dir=/x\n[workload]\ndb_size = lots\n[fs ext4]\n", 4, "db_size = 'lots'" },
		{ "[devices]\nimage_dir=/x\n[workload]\nname = oltp\n[fs ext4]\n", 4, "unknown workload" },
		{ "[lab]\nrepeats = 0\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "repeats" },
		{ "[devices]\nimage_dir=/x\nforce = maybe\n[workload]\n[fs ext4]\n", 3, "yes or no" },
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs zfs]\n", 4, "unknown filesystem 'zfs'" },
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs refs]\n", 4, "ReFS can only be formatted by "
		  "Windows; run ReFS cells with fslab.exe lab on Windows" },
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs a/b]\n", 4, "give the filesystem a name" },
		/* the section name is the label: compare's rule (label_problem) */
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs .]\n", 4, "starting with a letter" },
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs ..]\n", 4, "give the filesystem a name" },
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs -]\n", 4, "give the filesystem a name" },
		{ "[devices]\nimage_dir=/x\n[workload]\n[fs .hidden]\nfs = ext4\n", 4, "give the filesystem a name" },
		{ "threads = 4\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 1, "outside any section" },
		{ "[devices]\nimage_dir=/x\n[workload]\nthis line has no equals sign\n[fs ext4]\n", 4, "cannot parse" },
		{ "[devices]\nimage_dir=/x\ndb_dev=/dev/sdb\nlog_dev=/dev/sdc\n[workload]\n[fs ext4]\n", 2, "not both" },
		{ "[devices]\ndb_dev=/dev/sdb\nlog_dev=/dev/sdb\n[workload]\n[fs ext4]\n", 3, "same device" },
		/* order and A/A check */
		{ "[lab]\norder = random\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "order = 'random'" },
		{ "[lab]\norder =\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "give shuffled" },
		{ "[lab]\n\norder = Interleaved\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 3, "order = 'Interleaved'" },
		{ "[lab]\norder_seed = -1\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "order_seed = '-1'" },
		{ "[lab]\norder_seed = 9007199254740992\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "order_seed" },
		{ "[lab]\norder_seed = soon\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "whole number" },
		{ "[lab]\naa_check = maybe\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "aa_check = 'maybe': give yes or no" },
		{ "[lab]\naa_check = 2\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "aa_check" },
		{ "[lab]\naa_check = yes\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n[fs ext4-aa]\nfs = ext4\n", 7, "label of the A/A copy of ext4" },
		/* keys passed to fslab run */
		{ "[devices]\nimage_dir=/x\n[workload]\nsample_interval = 0\n[fs ext4]\n", 4, "sample_interval = '0'" },
		{ "[devices]\nimage_dir=/x\n[workload]\nsample_interval = 2h\n[fs ext4]\n", 4, "1s to 1h" },
		{ "[devices]\nimage_dir=/x\n[workload]\nsample_interval = 1500ms\n[fs ext4]\n", 4, "whole seconds" },
		{ "[devices]\nimage_dir=/x\n[workload]\nthresholds = loose\n[fs ext4]\n", 4, "strict or lenient" },
		{ "[devices]\nimage_dir=/x\n[workload]\nmax_latency_errors = 1000001\n[fs ext4]\n", 4, "max_latency_errors" },
		{ "[devices]\nimage_dir=/x\n[workload]\nmax_latency_errors = few\n[fs ext4]\n", 4, "0 to 1000000" },
		{ "[devices]\nimage_dir=/x\n[workload]\ntarget_iops = 0\n[fs ext4]\n", 4, "target_iops = '0'" },
		{ "[devices]\nimage_dir=/x\n[workload]\nmailboxes = 0\niops_per_mailbox = 0.1\n[fs ext4]\n", 4, "mailboxes = '0'" },
		{ "[devices]\nimage_dir=/x\n[workload]\nmailboxes = 10\niops_per_mailbox = -1\n[fs ext4]\n", 5, "iops_per_mailbox = '-1'" },
		{ "[devices]\nimage_dir=/x\n[workload]\nmailboxes = 10\niops_per_mailbox = x\n[fs ext4]\n", 5, "positive number" },
		{ "[devices]\nimage_dir=/x\n[workload]\nmailboxes = 10\n[fs ext4]\n", 4, "without iops_per_mailbox" },
		{ "[devices]\nimage_dir=/x\n[workload]\n\niops_per_mailbox = 0.1\n[fs ext4]\n", 5, "without mailboxes" },
		{ "[devices]\nimage_dir=/x\n[workload]\ntarget_iops = 100\nmailboxes = 10\niops_per_mailbox = 0.1\n[fs ext4]\n", 6, "not both" },
		{ "[devices]\nimage_dir=/x\n[workload]\nstrict_io_tail = sure\n[fs ext4]\n", 4, "strict_io_tail = 'sure'" },
		{ "[devices]\nimage_dir=/x\n[workload]\ntarget_iops = lots\n[fs ext4]\n", 4, "positive number" },
		{ "[devices]\nimage_dir=/x\n[workload]\nmailboxes = 10\niops_per_mailbox = 101\n[fs ext4]\n", 5, "up to 100" },
		/* the verdict keys need the jetstress workload: the first of them is named */
		{ "[devices]\nimage_dir=/x\n[workload]\nname = randread\nthresholds = strict\n"
		  "sample_interval = 5s\n[fs ext4]\n", 5, "thresholds: only the jetstress workload" },
		{ "[devices]\nimage_dir=/x\n[workload]\nstrict_io_tail = no\nname = seqwrite\n[fs ext4]\n", 4, "verdict" },
		{ "[lab]\nsample_interval = 5s\n[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", 2, "unknown key 'sample_interval' in [lab]" },
		/* sizes that would wrap the image size check (issue 12) */
		{ "[devices]\nimage_dir=/x\ndb_size = 3G\n[workload]\ndatabases = 64\ndb_size = 262144T\n[fs ext4]\n", 6, "16M to 1024T" },
		{ "[devices]\nimage_dir=/x\ndb_size = 3G\n[workload]\ndatabases = 64\ndb_size = 1024T\n[fs ext4]\n", 1, "cannot hold 64 database(s)" },
		{ "[devices]\nimage_dir=/x\n[workload]\ndb_size = 1G\ncache = 2G\n[fs ext4]\n", 5, "cache is larger than each database" },
		/* no filesystem at all: reported at the end of the file */
		{ "[devices]\nimage_dir=/x\n[workload]\n", 3, "no [fs NAME] section" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct lab_cfg c;

#ifdef _WIN32
		/* Linux's filesystem names are Linux prep's (fsprep/), not in fslab.exe */
		if (strstr(cases[i].needle, "unknown filesystem"))
			continue;
#endif
		assert_int_equal(load(cases[i].text, &c), -FSLAB_EINPUT);
		assert_error_at(cases[i].line, cases[i].needle);
		lab_cfg_release(&c);
	}
}

static void test_all_errors_listed(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[devices]\nimage_dir=/x\n[workload]\nduration = 0\nthreads = 0\n"
			      "bogus = 1\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(4, "duration");
	assert_error_at(5, "threads");
	assert_error_at(6, "bogus");
	lab_cfg_release(&c);
}

/* errors does not contain needle */
static void assert_no_error(const char *needle)
{
	if (strstr(errors, needle)) {
		fprintf(stderr, "unexpected %s in:\n%s", needle, errors);
		fail();
	}
}

static const char minimal[] = "[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n";

/*
 * Lines longer than inih's 200-byte default buffer are parsed whole up to 4096 characters and
 * refused beyond, with their line: the tail of a cut line was parsed as a line of its own, so a
 * comment ending in "force = yes" set force.
 */
static void test_long_lines(void **state)
{
	char *text = malloc(16384), *t;
	struct lab_cfg c;

	(void)state;
	/* a 3000-character title, then a bad key whose line number must be right */
	t = text + sprintf(text, "[lab]\ntitle = ");
	memset(t, 'T', 3000);
	t += 3000;
	sprintf(t, "\n%sbogus = 1\n", minimal);
	assert_int_equal(load(text, &c), -FSLAB_EINPUT);
	assert_int_equal(strlen(c.title), 3000);
	assert_error_at(7, "unknown key 'bogus'");
	lab_cfg_release(&c);

	/* a 5000-character comment ending in force = yes: refused, force stays off */
	t = text + sprintf(text, "[devices]\nimage_dir=/x\n; ");
	memset(t, 'x', 5000);
	t += 5000;
	sprintf(t, " force = yes\n[workload]\nthreads = 0\n[fs ext4]\n");
	assert_int_equal(load(text, &c), -FSLAB_EINPUT);
	assert_error_at(3, "more than the 4096 a line may have");
	assert_error_at(5, "threads = '0'");
	assert_false(c.force);
	assert_no_error("force");
	lab_cfg_release(&c);

	/* 4096 characters exactly (with CRLF) are one line */
	t = text + sprintf(text, "%s[lab]\ntitle = ", minimal);
	memset(t, 'T', 4096 - 8);
	t += 4096 - 8;
	sprintf(t, "\r\n");
	assert_int_equal(load(text, &c), 0);
	assert_int_equal(strlen(c.title), 4096 - 8);
	lab_cfg_release(&c);
	free(text);
}

/* NUL and control characters are refused with file:line; the section they hide is not lost
 * silently, nor are its keys given to the section before. */
static void test_control_chars(void **state)
{
	static const char nul[] = "[devices]\nimage_dir=/x\n[workload]\nduration = 1\0h\n[fs ext4]\n";
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[devices]\nimage_dir=/x\n[workload]\n\x01[fs xfs]\n[fs ext4]\n",
			      &c), -FSLAB_EINPUT);
	assert_error_at(4, "control character (byte 0x01) in column 1");
	lab_cfg_release(&c);

	assert_int_equal(load_n(nul, sizeof(nul) - 1, &c), -FSLAB_EINPUT);
	assert_error_at(4, "NUL (byte 0x00) in column 13");
	lab_cfg_release(&c);

	assert_int_equal(load("[devices]\nimage_dir=/x\x1b[2J\n[workload]\n[fs ext4]\n", &c),
			 -FSLAB_EINPUT);
	assert_error_at(2, "byte 0x1b");
	lab_cfg_release(&c);

	/* tab and CRLF are fine */
	assert_int_equal(load("[devices]\r\nimage_dir =\t/x\r\n[workload]\r\n[fs ext4]\r\n", &c), 0);
	assert_string_equal(c.image_dir, "/x");
	lab_cfg_release(&c);
}

/* A UTF-8 BOM (as Windows editors write) before the first section */
static void test_bom(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("\xef\xbb\xbf[fs ext4]\nfs = xfs\n[devices]\nimage_dir=/x\n"
			      "[workload]\n", &c), 0);
	assert_int_equal(c.nfs, 1);
	assert_string_equal(c.fs[0].fs, "xfs");
	lab_cfg_release(&c);
	assert_int_equal(load("\xef\xbb\xbf[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\n", &c), 0);
	assert_int_equal(c.devices_line, 1);
	lab_cfg_release(&c);
}

/* A header without ']' is named at its line; its keys go nowhere (not into [devices]) */
static void test_missing_bracket(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[devices]\nimage_dir=/x\n[workload]\n[fs xfs\nfs = btrfs\n"
			      "[fs ext4]\nthreds = 1\n", &c), -FSLAB_EINPUT);
	assert_error_at(4, "without ']'");
	assert_error_at(7, "unknown key 'threds'");
	assert_no_error("in [devices]");
	assert_no_error("in [workload]");
	lab_cfg_release(&c);
	assert_int_equal(load("[devices\nimage_dir=/x\n[workload]\n[fs ext4]\n", &c), -FSLAB_EINPUT);
	assert_error_at(1, "without ']'");
	assert_no_error("outside any section");
	lab_cfg_release(&c);
}

/* An empty file (or only comments) is one error naming the file, not "FILE:0:" */
static void test_empty(void **state)
{
	static const char *const texts[] = { "", "\n\n", "; nothing here\n# nor here\n" };
	struct lab_cfg c;
	char want[128];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		assert_int_equal(load(texts[i], &c), -FSLAB_EINPUT);
		snprintf(want, sizeof(want), "%s: the lab config is empty", path);
		assert_non_null(strstr(errors, want));
		assert_no_error(":0:");
		assert_int_equal(strchr(errors, '\n') - errors + 1, (long)strlen(errors));
		lab_cfg_release(&c);
	}
}

static void test_missing_file(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(lab_cfg_load(&c, "/nonexistent/lab.ini"), -FSLAB_EINPUT);
	lab_cfg_release(&c);
}

/* Labels on volumes the user prepared, mixed with a prepped one (issue 18 item 1). */
static void test_prepared(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[devices]\nimage_dir=/x\n[workload]\ndb_size=64M\n"
			      "[fs san]\ndb_dir = /mnt/lun1/db\ndb_dir = /mnt/lun2/db, with comma\n"
			      "log_dir = /mnt/lun3/log\nallow_foreign_files = yes\n"
			      "[fs cloud]\nfs = xfs\ndb_dir=/d\nlog_dir=/l\n[fs ext4]\n", &c), 0);
	assert_int_equal(c.nfs, 3);
	assert_true(c.fs[0].prepared);
	assert_int_equal(c.fs[0].db_dirs.nr, 2);
	assert_string_equal(c.fs[0].db_dirs.v[1], "/mnt/lun2/db, with comma");
	assert_int_equal(c.fs[0].log_dirs.nr, 1);
	assert_true(c.fs[0].allow_foreign_files);
	assert_string_equal(c.fs[0].fs, "prepared"); /* no claim made */
	assert_false(c.fs[0].fs_given);
	assert_true(c.fs[1].prepared);
	assert_string_equal(c.fs[1].fs, "xfs");
	assert_true(c.fs[1].fs_given);
	assert_false(c.fs[2].prepared);
	assert_true(lab_cfg_has_prepped(&c));
	lab_cfg_release(&c);
	/* every label prepared: no [devices] needed, nothing to prep; any filesystem name */
	assert_int_equal(load("[workload]\ndb_size=64M\n[fs zfs]\ndb_dir=/d\nlog_dir=/l\n", &c), 0);
	assert_false(lab_cfg_has_prepped(&c));
	lab_cfg_release(&c);
	/* a workload without a log needs no log_dir */
	assert_int_equal(load("[workload]\nname = randread\n[fs a]\ndb_dir=/d\n", &c), 0);
	lab_cfg_release(&c);
}

static void expect_bad(const char *text, int line, const char *needle)
{
	struct lab_cfg c;

	if (load(text, &c) != -FSLAB_EINPUT)
		fail_msg("accepted: %s", text);
	if (line)
		assert_error_at(line, needle);
	else if (!strstr(errors, needle))
		fail_msg("expected %s in:\n%s", needle, errors);
	lab_cfg_release(&c);
}

static void test_prepared_bad(void **state)
{
	(void)state;
	expect_bad("[workload]\n[fs a]\nlog_dir = /l\n", 3, "log_dir without db_dir");
	expect_bad("[workload]\n[fs a]\ndb_dir = /d\n", 3, "db_dir without log_dir");
	expect_bad("[workload]\n[fs a]\ndb_dir = /d\nlog_dir = /l\nmkfs_opts = -m 0\n", 5,
		   "does not format or mount volumes you prepared");
	expect_bad("[workload]\n[fs a]\ndb_dir = /d\nlog_dir = /l\ncluster = 64K\n", 5,
		   "cluster with db_dir/log_dir");
	expect_bad("[workload]\n[fs a]\ndb_dir =\nlog_dir = /l\n", 3, "db_dir is empty");
	expect_bad("[workload]\n[fs a]\ndb_dir = /d\nlog_dir = /l\nallow_foreign_files = some\n",
		   5, "allow_foreign_files = 'some'");
	expect_bad("[devices]\nimage_dir=/x\n[workload]\n[fs ext4]\nallow_foreign_files = yes\n",
		   4, "allow_foreign_files goes with db_dir/log_dir");
	/* a prepped label among prepared ones still needs [devices] */
	expect_bad("[workload]\n[fs a]\ndb_dir=/d\nlog_dir=/l\n[fs ext4]\n", 0,
		   "no [devices] section");
	expect_bad("[workload]\n[fs a]\ndb_dir = C:\\x\\db\nlog_dir = /l\n", 3, "is a Windows folder");
	/* Windows disks are refused on Linux, named */
	expect_bad("[devices]\ndb_disk = 1\nlog_disk = 2\n[workload]\n[fs ext4]\n", 2,
		   "fslab.exe lab on Windows");
}

/*
 * Inline comments: "; x" or "# x" after a blank ends a value (inih's rule), so a value that
 * holds " #" or " ;" is written in double quotes; one where a comment would cut it without a
 * blank after the '#' ("/srv/lun #2/fslab" measured /srv/lun) is refused, naming the fix.
 */
static void test_inline_comments(void **state)
{
	struct lab_cfg c;

	(void)state;
	assert_int_equal(load("[lab]\ntitle = \"LUN #2 ; and #3\"   ; a comment\n"
			      "[workload]\ndb_size=64M\n"
			      "[fs san]\ndb_dir = \"/srv/lun #2/fslab\"\nlog_dir = /srv/log;x # log\n",
			      &c), 0);
	assert_string_equal(c.title, "LUN #2 ; and #3");
	assert_string_equal(c.fs[0].db_dirs.v[0], "/srv/lun #2/fslab");
	assert_string_equal(c.fs[0].log_dirs.v[0], "/srv/log;x");
	lab_cfg_release(&c);
	/* an empty value in quotes, a comment of '#' characters, a bare ';' */
	assert_int_equal(load("[lab]\ntitle = \"\" ## none\n[workload]\ndb_size=64M\n"
			      "[fs a]\ndb_dir=/d\nlog_dir=/l ;\n", &c), 0);
	assert_string_equal(c.fs[0].log_dirs.v[0], "/l");
	lab_cfg_release(&c);
	expect_bad("[workload]\n[fs san]\ndb_dir = /srv/lun #2/fslab\nlog_dir = /l\n", 3,
		   "'#2/fslab' reads as a comment");
	assert_non_null(strstr(errors, "put the value in double quotes"));
	expect_bad("[workload]\n[fs san]\ndb_dir = /d ;old\nlog_dir = /l\n", 3,
		   "';old' reads as a comment");
	expect_bad("[lab]\ntitle = \"unclosed\n[workload]\n[fs a]\n", 2, "closing '\"' is missing");
	expect_bad("[lab]\ntitle = \"a\" b\n[workload]\n[fs a]\n", 2, "'b' follows the quoted value");
	expect_bad("[lab]\ntitle = \"a\";b\n[workload]\n[fs a]\n", 2, "';b' follows the quoted value");
}

/* The rules for steps that run on Windows (fslab.exe lab): disks, ntfs and refs. */
static void test_windows(void **state)
{
	struct lab_cfg c;

	(void)state;
	load_os = lab_system_find("windows");
	assert_int_equal(load("[devices]\ndb_disk = 1\nlog_disk = 2\nforce = yes\n"
			      "disk_info = C:\\saved\\disks.json\n[workload]\ndb_size=64M\n"
			      "[fs ntfs]\ncluster = 64K\n[fs refs]\n"
			      "[fs d]\ndb_dir = D:\\fslab\\db\nlog_dir = L:\\fslab\\log\n", &c), 0);
	assert_ptr_equal(c.sys, lab_system_find("windows"));
	assert_int_equal(c.db_disk, 1);
	assert_int_equal(c.log_disk, 2);
	assert_true(c.force);
	assert_string_equal(c.disk_info, "C:\\saved\\disks.json");
	assert_string_equal(c.fs[0].fs, "ntfs");
	assert_string_equal(c.fs[1].fs, "refs");
	assert_string_equal(c.fs[2].db_dirs.v[0], "D:\\fslab\\db");
	lab_cfg_release(&c);
	/* directories only: no disks needed */
	assert_int_equal(load("[workload]\n[fs c]\ndb_dir=C:\\x\\db\nlog_dir=C:\\x\\log\n", &c), 0);
	lab_cfg_release(&c);
	expect_bad("[devices]\nimage_dir = /x\n[workload]\n[fs ntfs]\n", 2, "are Linux's");
	expect_bad("[devices]\ndb_dev = /dev/sdb\nlog_dev=/dev/sdc\n[workload]\n[fs ntfs]\n", 2,
		   "db_disk and log_disk");
	expect_bad("[devices]\ndb_disk = 1\nlog_disk = 2\n[workload]\n[fs ext4]\n", 5,
		   "Windows prep formats ntfs or refs");
	expect_bad("[devices]\ndb_disk = 1\nlog_disk = 2\n[workload]\n[fs ntfs]\nmkfs_opts = -Q\n",
		   6, "takes only cluster");
	expect_bad("[devices]\ndb_disk = 3\nlog_disk = 3\n[workload]\n[fs ntfs]\n", 3,
		   "same disk");
	expect_bad("[devices]\ndb_disk = 3\n[workload]\n[fs ntfs]\n", 1, "give db_disk and log_disk");
	expect_bad("[devices]\ndb_disk = -1\nlog_disk = 2\n[workload]\n[fs ntfs]\n", 2,
		   "disk number as Get-Disk lists it");
	expect_bad("[lab]\nraw_baseline = yes\n[devices]\ndb_disk=1\nlog_disk=2\n[workload]\n"
		   "[fs ntfs]\n", 0, "raw-device baseline runs on Linux");
	load_os = lab_system_find("linux");
}

/* The shipped Windows configs (run from the top of the repository, as tests/run.sh and
 * tests/wine.sh do): they parse for Windows, and Linux names fslab.exe for the disk lab. */
static void test_shipped_windows_configs(void **state)
{
	struct lab_cfg c;

	(void)state;
	load_os = lab_system_find("windows");
	assert_int_equal(lab_cfg_load_for(&c, "configs/ntfs-vs-refs.ini", lab_system_find("windows")), 0);
	assert_int_equal(c.db_disk, 1);
	assert_int_equal(c.log_disk, 2);
	assert_int_equal(c.repeats, 3);
	assert_true(c.aa_check);
	assert_true(c.wl.duration_s == 7200);
	assert_int_equal(c.nfs, 2);
	assert_string_equal(c.fs[1].fs, "refs");
	assert_string_equal(c.fs[0].cluster, "64K");
	assert_string_equal(c.fs[1].cluster, "64K");
	assert_true(lab_cfg_has_prepped(&c));
	lab_cfg_release(&c);
	assert_int_equal(lab_cfg_load_for(&c, "configs/windows-demo.ini", lab_system_find("windows")), 0);
	assert_false(lab_cfg_has_prepped(&c)); /* formats nothing */
	assert_true(c.fs[0].prepared && c.fs[1].prepared);
	assert_true(c.aa_check);
	lab_cfg_release(&c);
	load_os = lab_system_find("linux");
#ifndef _WIN32
	fflush(stderr);
	assert_int_equal(lab_cfg_load_for(&c, "configs/ntfs-vs-refs.ini", lab_system_find("linux")),
			 -FSLAB_EINPUT);
	lab_cfg_release(&c);
#endif
}

#ifndef _WIN32
/* lab_cfg_load(path) with stderr in errors[] (the file is not ours: not written, not removed). */
static int load_path(const char *p, struct lab_cfg *cfg)
{
	char errpath[] = "/tmp/fslab-labcfg-err.XXXXXX";
	int fd = mkstemp(errpath), saved = dup(2), ret;
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	ret = lab_cfg_load(cfg, p);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, errors, sizeof(errors) - 1, 0);
	errors[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(errpath);
	return ret;
}

/*
 * A config that is not a regular file is refused before it is read: /dev/urandom printed
 * errors forever, a FIFO blocked the open.  A regular file of garbage names its first 20
 * errors and counts the rest; one larger than any config is refused unread.
 */
static void test_not_a_config(void **state)
{
	char dir[] = "/tmp/fslab-labcfg.XXXXXX", *fifo, *text;
	struct lab_cfg c;
	size_t lines = 0;

	(void)state;
	assert_int_equal(load_path("/dev/urandom", &c), -FSLAB_EINPUT);
	assert_non_null(strstr(errors, "/dev/urandom: not a regular file (a character device)"));
	assert_int_equal(strchr(errors, '\n') - errors + 1, (long)strlen(errors)); /* one line */
	lab_cfg_release(&c);
	assert_non_null(mkdtemp(dir));
	fifo = xasprintf("%s/lab.ini", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(load_path(fifo, &c), -FSLAB_EINPUT); /* no writer: it would block */
	assert_non_null(strstr(errors, "not a regular file (a FIFO)"));
	lab_cfg_release(&c);
	unlink(fifo);
	free(fifo);
	rmdir(dir);

	text = xcalloc(100, 16);
	for (int i = 0; i < 100; i++)
		strcat(text, "binary \001 junk\n");
	assert_int_equal(load(text, &c), -FSLAB_EINPUT);
	for (const char *p = errors; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 21); /* 20 named, then "... and N more errors" */
	assert_error_at(20, "");
	assert_no_error(":21: ");
	/* the 100 lines' errors and the missing sections' beyond the first 20, counted */
	{
		const char *more = strstr(errors, "... and ");
		int n = 0;

		assert_non_null(more);
		assert_int_equal(sscanf(more, "... and %d more errors", &n), 1);
		assert_true(n >= 80 && n <= 90);
	}
	lab_cfg_release(&c);
	free(text);

	text = xmalloc(2 << 20);
	memset(text, ';', 2 << 20);
	text[(2 << 20) - 1] = 0;
	assert_int_equal(load(text, &c), -FSLAB_EINPUT);
	assert_non_null(strstr(errors, "more than a lab config may have"));
	lab_cfg_release(&c);
	free(text);
}
#endif

#ifdef FSLAB_NO_INIH
/* An fslab.exe built without inih (scripts/win-sysroot.sh found no source): the lab refuses
 * every config with the way to get it, exit 2, nothing parsed. */
static void test_no_inih(void **state)
{
	struct lab_cfg cfg;

	(void)state;
	assert_int_equal(load(good, &cfg), -FSLAB_EINPUT);
	assert_non_null(strstr(errors, "built without inih"));
	assert_non_null(strstr(errors, "FSLAB_INIH_SRC"));
	lab_cfg_release(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_inih),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_threads_auto),
		cmocka_unit_test(test_default_duration),
		cmocka_unit_test(test_order_aa_run_keys),
		cmocka_unit_test(test_adaptive_keys),
		cmocka_unit_test(test_decided_keys),
		cmocka_unit_test(test_baseline_fs),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_all_errors_listed),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_control_chars),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_missing_bracket),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_prepared),
		cmocka_unit_test(test_prepared_bad),
		cmocka_unit_test(test_inline_comments),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_shipped_windows_configs),
#ifndef _WIN32
		cmocka_unit_test(test_not_a_config),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
