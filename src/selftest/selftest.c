// SPDX-License-Identifier: MIT
/*
 * selftest.c: `fslab selftest --dir DIR [--dir DIR...] [--json FILE]`: the checks of
 * selftest.h, measured on the user's volume with a scratch file of its own (removed on every
 * exit, Ctrl-C included), through the platform layer: the same code on Linux (O_DIRECT,
 * O_DSYNC, /sys/block/DEV/stat) and Windows (FILE_FLAG_NO_BUFFERING, FILE_FLAG_WRITE_THROUGH,
 * IOCTL_DISK_PERFORMANCE).  A check says PASS only on evidence: where a counter cannot be read
 * or other I/O on the device could explain what was measured, it says UNKNOWN.
 */
#include "selftest/selftest.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "cmds.h"
#include "os/files.h"
#include "platform/sampler.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "os/os.h"
#include "lib/random.h"
#include "os/scratch.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/units.h"

enum st { ST_PASS, ST_FAIL, ST_UNKNOWN, ST_NA, ST_NR };
static const char *const st_names[ST_NR] = { "PASS", "FAIL", "UNKNOWN", "N/A" };

/*
 * Limits of PASS, and why.  Latencies of flash are tens of microseconds: the clock must tick in
 * at most 1 us to time them.  fslab's throttles and samplers (BDM rate, lazy writer, 1 s
 * samples) sleep to absolute times in milliseconds: a median overshoot above 2 ms (Windows'
 * default 15.6 ms tick) makes them coarse.  Unbuffered reads must make the device read at least
 * 95 % of the bytes (all of them, less rounding of the counters; more is fine: other I/O).
 */
#define CLOCK_MAX_NS 1000
#define TIMER_MAX_NS (2 * NSEC_PER_MSEC)
#define READ_MIN_SHARE 0.95
#define CHUNK (1u << 20)      /* bytes per read or write of the file */
#define WT_BYTES (64u << 10)  /* bytes per write of the write-through check */
#define WT_WRITES 64
#define QUIET_NS (300 * NSEC_PER_MSEC) /* window in which other I/O on the device is measured */

struct st_opts {
	struct strvec dirs;   /* --dir, as given */
	const char *json;
	uint64_t size, need;
	bool buffered, need_given;
};

struct st_ctx {
	const struct st_opts *o;
	json_t *checks;   /* array of {id, dir, status, fact, measured} */
	unsigned int count[ST_NR];
};

static volatile int stop_why;

static void on_stop(int why)
{
	stop_why = why;
}

static void add(struct st_ctx *c, const char *id, const char *dir, enum st st, json_t *measured,
		const char *fmt, ...) __printf(6, 7);

static void add(struct st_ctx *c, const char *id, const char *dir, enum st st, json_t *measured,
		const char *fmt, ...)
{
	struct strbuf fact = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&fact, fmt, ap);
	va_end(ap);
	c->count[st]++;
	printf("%-7s  %-19s  %s\n", st_names[st], id, fact.buf);
	fflush(stdout);
	json_array_append_new(c->checks, json_pack("{s:s, s:o, s:s, s:s, s:o}", "id", id,
						   "dir", dir ? json_string(dir) : json_null(),
						   "status", st_names[st], "fact", fact.buf,
						   "measured", measured ? measured : json_object()));
	strbuf_release(&fact);
}

static char *size_text(uint64_t b)
{
	char buf[32];

	return xstrdup(fmt_size(buf, sizeof(buf), b));
}

/* ---- host checks ---- */

static void check_clock(struct st_ctx *c)
{
	uint64_t t0 = now_ns(), prev = t0, step = UINT64_MAX, calls = 0;
	unsigned int ticks = 0;

	/* the smallest step between two readings that differ: the tick (or the cost of a call,
	 * when that is larger: either way what a latency is timed in) */
	while (ticks < 2000 && prev - t0 < 200 * NSEC_PER_MSEC) {
		uint64_t t = now_ns();

		calls++;
		if (t != prev) {
			step = MIN(step, t - prev);
			ticks++;
			prev = t;
		}
	}
	add(c, "clock", NULL, step <= CLOCK_MAX_NS ? ST_PASS : ST_FAIL,
	    json_pack("{s:I, s:I}", "step_ns", (json_int_t)step, "calls", (json_int_t)calls),
	    "the monotonic clock steps in %llu ns (%s); latencies are timed in it%s",
#ifdef _WIN32
	    (unsigned long long)step, "QueryPerformanceCounter",
#else
	    (unsigned long long)step, "CLOCK_MONOTONIC",
#endif
	    step <= CLOCK_MAX_NS ? "" : ": too coarse for flash latencies (at most 1 us needed)");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void check_timer(struct st_ctx *c)
{
	uint64_t late[21];
	size_t n = ARRAY_SIZE(late);

	for (size_t i = 0; i < n; i++) {
		uint64_t t = now_ns() + NSEC_PER_MSEC;

		while (sleep_until_ns(t) == -EINTR && !stop_why)
			;
		late[i] = now_ns() - t;
	}
	qsort(late, n, sizeof(late[0]), cmp_u64);
	add(c, "timer", NULL, late[n / 2] <= TIMER_MAX_NS ? ST_PASS : ST_FAIL,
	    json_pack("{s:I, s:I, s:I}", "median_late_ns", (json_int_t)late[n / 2], "max_late_ns",
		      (json_int_t)late[n - 1], "sleeps", (json_int_t)n),
	    "%zu sleeps of 1 ms to an absolute time woke %.3f ms late (median), %.3f ms at most%s",
	    n, late[n / 2] / 1e6, late[n - 1] / 1e6,
	    late[n / 2] <= TIMER_MAX_NS ? "" : ": throttles and 1 s samples run coarse (at most 2 ms "
	    "needed)");
}

/* ---- volume checks ---- */

static bool under_wine(void)
{
	json_t *env = sampler_environment();
	bool wine = json_is_string(json_object_get(env, "wine"));

	json_decref(env);
	return wine;
}

static void check_filesystem(struct st_ctx *c, const struct volume *v, bool wine)
{
	char *bs = size_text(v->block_size);

	if (wine)
		add(c, "filesystem", v->dir, ST_UNKNOWN, json_pack("{s:s, s:I}", "fstype", v->fsname,
		    "block_size", (json_int_t)v->block_size),
		    "Wine reports %s with %s clusters, but it calls every filesystem NTFS (or "
		    "unknown): the real one cannot be told", v->fsname, bs);
	else if (!v->fsname || !*v->fsname || !strcmp(v->fsname, "unknown"))
		add(c, "filesystem", v->dir, ST_UNKNOWN, NULL, "the filesystem type could not be read");
	else
		add(c, "filesystem", v->dir, ST_PASS, json_pack("{s:s, s:I, s:s, s:s}", "fstype",
		    v->fsname, "block_size", (json_int_t)v->block_size, "source", v->source ? v->source
		    : "", "mountpoint", v->mountpoint ? v->mountpoint : ""),
		    "%s with %s %s, on %s mounted at %s", v->fsname, bs,
#ifdef _WIN32
		    "clusters",
#else
		    "blocks",
#endif
		    v->source && *v->source ? v->source : "no device", v->mountpoint);
	free(bs);
}

/* GetVolumeInformation's FILE_SUPPORTS_INTEGRITY_STREAMS (winnt.h): the filesystem says it
 * has them, whatever its name. */
#define WIN_FS_INTEGRITY_STREAMS 0x04000000

static void check_integrity(struct st_ctx *c, const struct volume *v, bool wine)
{
	json_t *on = json_object_get(v->extra, "integrity_streams");

#ifndef _WIN32
	add(c, "integrity_streams", v->dir, ST_NA, NULL, "a ReFS feature; ReFS exists only on Windows");
	(void)on;
	(void)wine;
#else
	if (wine)
		add(c, "integrity_streams", v->dir, ST_UNKNOWN, NULL, "Wine cannot tell NTFS from ReFS");
	else if (!(json_integer_value(json_object_get(v->extra, "fs_flags")) &
		   WIN_FS_INTEGRITY_STREAMS))
		add(c, "integrity_streams", v->dir, ST_NA, NULL, "%s: the filesystem has no integrity "
		    "streams (a ReFS feature)", v->fsname);
	else if (!json_is_boolean(on))
		add(c, "integrity_streams", v->dir, ST_UNKNOWN, NULL, "FSCTL_GET_INTEGRITY_INFORMATION "
		    "did not answer for %s", v->dir);
	else if (json_is_true(on))
		add(c, "integrity_streams", v->dir, ST_FAIL, json_pack("{s:b}", "on", 1),
		    "ON for new files in %s: every write is checksummed and allocated anew, which "
		    "Exchange on ReFS does not do (it runs with integrity streams off); turn them off "
		    "(Set-FileIntegrity %s -Enable $false, or format with -SetIntegrityStreams $false, "
		    "as fslab prep does)", v->dir, v->dir);
	else
		add(c, "integrity_streams", v->dir, ST_PASS, json_pack("{s:b}", "on", 0),
		    "off for new files in %s (FSCTL_GET_INTEGRITY_INFORMATION)", v->dir);
#endif
}

static void check_free(struct st_ctx *c, const struct volume *v)
{
	char *av = size_text(v->fs_avail), *sz = size_text(v->fs_size), *need = size_text(c->o->need);
	bool ok = v->fs_avail >= c->o->need;

	add(c, "free_space", v->dir, ok ? ST_PASS : ST_FAIL,
	    json_pack("{s:I, s:I, s:I}", "available", (json_int_t)v->fs_avail, "size",
		      (json_int_t)v->fs_size, "need", (json_int_t)c->o->need),
	    "%s available of %s; %s needed%s", av, sz, need,
	    ok ? "" : ": free space, or give the size the run needs with --need");
	free(av);
	free(sz);
	free(need);
}

/* The device's counters as bytes read and written (devstat counts 512-byte sectors). */
struct bytes_rw {
	uint64_t rd, wr;
};

static int counters(const struct volume *v, struct bytes_rw *b)
{
	struct devstat d;
	int ret;

	if (!v->stat_path)
		return -ENODEV;
	ret = devstat_read(v->stat_path, &d);
	if (!ret) {
		b->rd = d.rd_sect * 512;
		b->wr = d.wr_sect * 512;
	}
	return ret;
}

static bool check_counters(struct st_ctx *c, const struct volume *v)
{
	struct bytes_rw b;
	int ret = counters(v, &b);

	if (!ret) {
		add(c, "device_counters", v->dir, ST_PASS, json_pack("{s:s, s:s}", "device",
		    v->devname ? v->devname : "", "counters", v->stat_path),
		    "%s readable (%s)", v->stat_path,
#ifdef _WIN32
		    "IOCTL_DISK_PERFORMANCE");
#else
		    "the block layer's statistics");
#endif
		return true;
	}
	add(c, "device_counters", v->dir, ST_FAIL, NULL, "%s: write amplification and cache-served "
	    "reads cannot be measured", !v->stat_path ?
#ifdef _WIN32
	    "IOCTL_DISK_PERFORMANCE does not answer for this volume"
#else
	    "not on a block device (tmpfs, a network or FUSE filesystem?)"
#endif
	    : strerror(-ret));
	return false;
}

static double share(uint64_t got, uint64_t want)
{
	return want ? (double)got / (double)want : 0;
}

/* Fill buf with bytes no compression or deduplication below the filesystem can shrink. */
static void fill(struct rng *r, void *buf, size_t len)
{
	uint64_t *p = buf;

	for (size_t i = 0; i < len / 8; i++)
		p[i] = rng_next(r);
}

/* Read (or write) len bytes of the test file's data (after its scratch header) in CHUNK
 * pieces; 0 or -errno (-EIO on a short transfer that makes no progress, -EINTR on Ctrl-C). */
static int pass(struct os_file *f, void *buf, uint64_t len, bool write, struct rng *r)
{
	for (uint64_t off = 0; off < len;) {
		size_t n = (size_t)MIN((uint64_t)CHUNK, len - off);
		ssize_t got;

		if (stop_why)
			return -EINTR;
		if (write)
			fill(r, buf, n);
		got = write ? os_pwrite(f, buf, n, SCRATCH_HDR + off)
			    : os_pread(f, buf, n, SCRATCH_HDR + off);
		if (got < 0)
			return (int)got;
		if (!got)
			return -EIO;
		off += (uint64_t)got;
	}
	return 0;
}

static const char *flags_name(bool buffered)
{
	return buffered ? "opened buffered (--buffered)" :
#ifdef _WIN32
	       "opened FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH";
#else
	       "opened O_DIRECT | O_DSYNC";
#endif
}

/* Reads: the whole file twice; each pass must make the device read it. */
static void check_reads(struct st_ctx *c, const struct volume *v, struct os_file *f, void *buf,
			const struct bytes_rw *noise_rate)
{
	uint64_t size = c->o->size, got[2], secs_ns[2];
	double noise[2];
	struct bytes_rw a, b;
	char *sz = size_text(size), *g0, *g1;
	enum st st;

	for (int k = 0; k < 2; k++) {
		uint64_t t = now_ns();
		int ret;

		if (counters(v, &a))
			goto unreadable;
		ret = pass(f, buf, size, false, NULL);
		secs_ns[k] = now_ns() - t;
		if (ret == -EINTR) { /* Ctrl-C: the command ends without a record */
			free(sz);
			return;
		}
		if (ret) {
			add(c, "unbuffered_reads", v->dir, ST_UNKNOWN, NULL, "reading the %s test file "
			    "failed: %s", sz, strerror(-ret));
			free(sz);
			return;
		}
		if (counters(v, &b))
			goto unreadable;
		got[k] = b.rd - a.rd;
		noise[k] = noise_rate->rd * (secs_ns[k] / 1e9);
	}
	g0 = size_text(got[0]);
	g1 = size_text(got[1]);
	if (share(got[0], size) < READ_MIN_SHARE || share(got[1], size) < READ_MIN_SHARE)
		st = ST_FAIL;
	else if (share(got[0] - MIN((uint64_t)noise[0], got[0]), size) < READ_MIN_SHARE ||
		 share(got[1] - MIN((uint64_t)noise[1], got[1]), size) < READ_MIN_SHARE)
		st = ST_UNKNOWN; /* other I/O on the device could have made up the difference */
	else
		st = ST_PASS;
	add(c, "unbuffered_reads", v->dir, st,
	    json_pack("{s:I, s:I, s:I, s:f, s:f, s:f}", "bytes", (json_int_t)size, "device_read_1",
		      (json_int_t)got[0], "device_read_2", (json_int_t)got[1], "seconds_1",
		      secs_ns[0] / 1e9, "seconds_2", secs_ns[1] / 1e9, "other_read_bytes_per_s",
		      (double)noise_rate->rd),
	    "%s read (%s): the device read %s (%.0f %%); read again: %s (%.0f %%)%s", sz,
	    flags_name(c->o->buffered), g0, 100 * share(got[0], size), g1, 100 * share(got[1], size),
	    st == ST_PASS ? "" : st == ST_FAIL ? ": reads were served from memory, not the device"
	    : ": but the device was busy with other reads: run it on an idle volume");
	free(g0);
	free(g1);
	free(sz);
	return;
unreadable:
	add(c, "unbuffered_reads", v->dir, ST_UNKNOWN, NULL, "the device counters could not be "
	    "read: whether reads reach the device cannot be told");
	free(sz);
}

/* Write-through: each write must be on the device (its counter grown by the write) when it
 * returns. */
static void check_write_through(struct st_ctx *c, const struct volume *v, struct os_file *f,
				void *buf, const struct bytes_rw *noise_rate, struct rng *r)
{
	unsigned int n = (unsigned int)MIN((uint64_t)WT_WRITES, c->o->size / WT_BYTES), counted = 0;
	uint64_t t0 = now_ns(), secs_ns;
	struct bytes_rw a, b;
	double noise;
	enum st st;

	for (unsigned int i = 0; i < n; i++) {
		ssize_t got;

		if (stop_why)
			return;
		if (counters(v, &a))
			goto unreadable;
		fill(r, buf, WT_BYTES);
		got = os_pwrite(f, buf, WT_BYTES, SCRATCH_HDR + (uint64_t)i * WT_BYTES);
		if (got != (ssize_t)WT_BYTES) {
			add(c, "write_through", v->dir, ST_UNKNOWN, NULL, "a %u KiB write failed: %s",
			    WT_BYTES >> 10, got < 0 ? strerror((int)-got) : "short write");
			return;
		}
		if (counters(v, &b))
			goto unreadable;
		counted += b.wr - a.wr >= WT_BYTES;
	}
	secs_ns = now_ns() - t0;
	noise = noise_rate->wr * (secs_ns / 1e9);
	if (counted < n)
		st = ST_FAIL;
	else if (noise >= 0.5 * n * (double)WT_BYTES)
		st = ST_UNKNOWN; /* others wrote as much as the check did */
	else
		st = ST_PASS;
	add(c, "write_through", v->dir, st,
	    json_pack("{s:I, s:I, s:I, s:f, s:f}", "writes", (json_int_t)n, "bytes_each",
		      (json_int_t)WT_BYTES, "counted_on_return", (json_int_t)counted, "seconds",
		      secs_ns / 1e9, "other_write_bytes_per_s", (double)noise_rate->wr),
	    "%u of %u writes of %u KiB (%s) were counted by the device when they returned%s",
	    counted, n, WT_BYTES >> 10, flags_name(c->o->buffered),
	    st == ST_PASS ? "" : st == ST_FAIL ? ": writes return before they reach the device, "
	    "so write latencies measure a cache" : ": but the device was busy with other writes: "
	    "run it on an idle volume");
	return;
unreadable:
	add(c, "write_through", v->dir, ST_UNKNOWN, NULL, "the device counters could not be read: "
	    "whether writes reach the device before they return cannot be told");
}

/* Unaligned unbuffered I/O must be refused by the system (EINVAL), not by fslab. */
static void check_unaligned(struct st_ctx *c, const struct volume *v, struct os_file *f,
			    void *buf)
{
	unsigned int sector = os_file_sector(f);
	ssize_t len1 = os_pread(f, buf, 1, 0), off1 = os_pread(f, buf, sector, 1);
	bool refused = len1 < 0 && off1 < 0, einval = len1 == -EINVAL && off1 == -EINVAL;

	add(c, "unaligned_refused", v->dir, !refused ? ST_FAIL : einval ? ST_PASS : ST_UNKNOWN,
	    json_pack("{s:I, s:I, s:I}", "sector", (json_int_t)sector, "read_1_byte_at_0",
		      (json_int_t)len1, "read_sector_at_1", (json_int_t)off1),
	    "a 1-byte read at offset 0: %s; a %u-byte read at offset 1: %s%s",
	    len1 < 0 ? strerror((int)-len1) : "ACCEPTED", sector,
	    off1 < 0 ? strerror((int)-off1) : "ACCEPTED",
	    !refused ? ": the system does not apply unbuffered I/O's rules, so it does not do "
	    "unbuffered I/O" : einval ? " (refused as unbuffered I/O must be)"
	    : ": refused, but not as misaligned (EINVAL)");
}

/*
 * The checks that need I/O: one scratch file (scratch.h: created exclusively in the directory
 * the volume opened, never through a link, its header saying it is fslab's), removed on every
 * path.
 */
static int io_checks(struct st_ctx *c, const struct volume *v, bool have_counters)
{
	char *path = xasprintf("%s/.fslab-selftest.%lu", v->dir, os_pid());
	const char *name = strrchr(path, '/') + 1;
	unsigned int flags = 0;
	struct bytes_rw noise = { 0, 0 }, a, b;
	struct os_file *f = NULL;
	struct rng r;
	void *buf = NULL;
	int ret;

	if (!c->o->buffered)
		flags |= OS_DIRECT | OS_WRITE_THROUGH;
	if (v->fs_avail < c->o->size + c->o->size / 4) {
		add(c, "unbuffered_reads", v->dir, ST_UNKNOWN, NULL, "no room for the test file");
		add(c, "write_through", v->dir, ST_UNKNOWN, NULL, "no room for the test file");
		add(c, "unaligned_refused", v->dir, ST_UNKNOWN, NULL, "no room for the test file");
		free(path);
		return 0;
	}
	ret = scratch_create(v->dh, name, flags, &f);
	if (ret) {
		bool refused = ret == -EINVAL && !c->o->buffered;

		add(c, "unbuffered_reads", v->dir, refused ? ST_FAIL : ST_UNKNOWN, NULL,
		    "a test file %s was refused: %s%s", flags_name(c->o->buffered),
		    strerror(-ret), refused ? ": the filesystem cannot do unbuffered I/O"
		    : ret == -EEXIST ? " (a file or link of its name was there: someone else "
		    "writes this directory; nothing was written through it)" : "");
		add(c, "write_through", v->dir, ST_UNKNOWN, NULL, "no test file: %s", strerror(-ret));
		add(c, "unaligned_refused", v->dir, ST_UNKNOWN, NULL, "no test file: %s",
		    strerror(-ret));
		free(path);
		return 0;
	}
	buf = xmalloc_aligned(CHUNK);
	rng_seed(&r, os_pid());
	ret = pass(f, buf, c->o->size, true, &r);
	if (!ret)
		ret = os_file_datasync(f);
	if (ret) {
		fslab_err("cannot write the %llu-byte test file %s: %s; check the directory and its "
			  "free space", (unsigned long long)c->o->size, path, strerror(-ret));
		goto out;
	}
	/* what else the device reads and writes meanwhile: not fslab's I/O */
	if (have_counters && !counters(v, &a)) {
		uint64_t t0 = now_ns();

		while (sleep_until_ns(t0 + QUIET_NS) == -EINTR && !stop_why)
			;
		if (!counters(v, &b)) {
			double s = (now_ns() - t0) / 1e9;

			noise.rd = (uint64_t)((b.rd - a.rd) / s);
			noise.wr = (uint64_t)((b.wr - a.wr) / s);
		}
	}
	check_reads(c, v, f, buf, &noise);
	if (!stop_why)
		check_write_through(c, v, f, buf, &noise, &r);
	if (!stop_why)
		check_unaligned(c, v, f, buf);
	ret = stop_why ? -EINTR : 0;
out:
	free_aligned(buf);
	os_close(f);
	(void)os_dirh_unlink(v->dh, name);
	free(path);
	return ret;
}

static int check_dir(struct st_ctx *c, const char *dir, bool wine, json_t *vols)
{
	struct volume v;
	bool have_counters;
	int ret = volume_probe(&v, "db", dir);

	if (ret) {
		fslab_err("cannot tell what %s lives on: %s", dir, strerror(-ret));
		volume_release(&v);
		return ret;
	}
	printf("\n%s: %s on %s%s%s\n", v.dir, v.fsname, v.source ? v.source : "?",
	       v.model && *v.model ? ", " : "", v.model ? v.model : "");
	json_array_append_new(vols, volume_to_json(&v));
	check_filesystem(c, &v, wine);
	check_integrity(c, &v, wine);
	check_free(c, &v);
	have_counters = check_counters(c, &v);
	ret = io_checks(c, &v, have_counters);
	volume_release(&v);
	return ret;
}

/* ---- the command ---- */

static const char selftest_head[] =
	"usage: fslab selftest --dir DIR [--dir DIR...] [--json FILE] [--size SIZE] [--need SIZE]\n"
	"                      [--buffered]\n"
	"\n"
	"Checks on this machine and on the volumes of DIR what fslab's numbers rest on, one line\n"
	"each: PASS, FAIL, UNKNOWN (could not be measured) or N/A, with what was measured:\n"
	"  clock, timer           clock steps <= 1 us; 1 ms sleeps wake <= 2 ms late (median)\n"
	"  filesystem             the type and cluster (block) size as the system reports them\n"
	"  integrity_streams      ReFS integrity streams off (Windows; N/A elsewhere)\n"
	"  free_space             at least --need available\n"
	"  device_counters        the device's I/O counters readable\n"
	"  unbuffered_reads       reading a test file unbuffered, twice: the device reads it both\n"
	"                         times (a second read served from memory fails)\n"
	"  write_through          each write-through write counted by the device when it returns\n"
	"  unaligned_refused      unaligned unbuffered reads refused by the system (EINVAL)\n"
	"A test file DIR/.fslab-selftest.PID of --size bytes is created (never through a link,\n"
	"never over an existing file), written and removed; nothing else in DIR is touched.\n"
	"Run it on an idle volume: other I/O on the device makes the I/O checks UNKNOWN.  fslab run\n"
	"--selftest FILE records the JSON record in the result; compare shows it in its Setup.\n"
	"\n";

enum { SO_SIZE, SO_NEED };

static int selftest_set(void *ctx, const struct opt_def *d, const char *arg)
{
	struct st_opts *o = ctx;

	if (d->id == SO_SIZE) {
		if (parse_size(arg, &o->size) || o->size < MiB || o->size > GiB || o->size % MiB)
			return input_error("--size %s: give 1M to 1G in whole MiB, e.g. 16M", arg);
		return 0;
	}
	if (parse_size(arg, &o->need))
		return input_error("--need %s: give a size such as 20G", arg);
	o->need_given = true;
	return 0;
}

static const struct opt_def selftest_opts[] = {
	{ .name = "dir", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "a directory on the volume to check (repeat for the log volume)",
	  .flags = OPT_REPEAT, .store = OPT_STR, .off = offsetof(struct st_opts, dirs) },
	{ .name = "json", .arg = OPT_FILE, .metavar = "FILE",
	  .help = "write the record (" SELFTEST_SCHEMA ") to FILE, atomically", .store = OPT_STR,
	  .off = offsetof(struct st_opts, json) },
	{ .name = "size", .arg = OPT_WORD, .metavar = "SIZE",
	  .help = "test file size, 1M to 1G, a multiple of 1M (default 16M)", .id = SO_SIZE },
	{ .name = "need", .arg = OPT_WORD, .metavar = "SIZE",
	  .help = "free space the runs need, e.g. databases + logs (default: --size)",
	  .id = SO_NEED },
	{ .name = "buffered",
	  .help = "open the test file without unbuffered and write-through flags: shows the I/O "
		  "checks failing, as they must when the flags are not honoured",
	  .store = OPT_TRUE, .off = offsetof(struct st_opts, buffered) },
	{ .name = NULL },
};

const struct opt_cmd selftest_opt_cmd = {
	.name = "selftest",
	.opts = selftest_opts,
	.set = selftest_set,
	.head = selftest_head,
	.tail = "\n"
	"Exit status: 0 no check failed (UNKNOWN is not a failure), 3 a check failed, 2 bad input,\n"
	"1 the test could not run (or Ctrl-C).\n",
	.no_args = "name directories with --dir",
	.col = 16,
	.width = 90,
};

/* The directories and the record's directory exist and may be written: before any check. */
static int check_opts(const struct st_opts *o)
{
	if (!o->dirs.nr)
		return input_error("selftest: no --dir; name a directory on the volume to check, "
				   "e.g. --dir /mnt/db (the --db directory of your runs)");
	for (size_t i = 0; i < o->dirs.nr; i++) {
		if (!os_is_dir(o->dirs.v[i]))
			return input_error("--dir %s: not a directory; give an existing directory on "
					   "the volume to check", o->dirs.v[i]);
		if (os_dir_can_create(o->dirs.v[i]))
			return input_error("--dir %s: cannot create a file there (read-only or no "
					   "permission); give a directory this user can write",
					   o->dirs.v[i]);
	}
	return o->json ? output_check(o->json, "--json") : 0;
}

static int parse(int argc, char **argv, struct st_opts *o)
{
	int first, ret;

	o->size = 16 * MiB;
	ret = opt_parse(&selftest_opt_cmd, o, argc, argv, &first);
	if (ret)
		return ret;
	if (!o->need_given)
		o->need = o->size;
	return check_opts(o);
}

int cmd_selftest(int argc, char **argv)
{
	struct st_opts o = { .dirs = STRVEC_INIT };
	struct st_ctx c = { .o = &o };
	json_t *rec, *vols, *host;
	bool wine;
	char ts[32];
	int ret, status;

	ret = parse(argc, argv, &o);
	if (ret) {
		strvec_clear(&o.dirs);
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	}
	host = sampler_environment();
	wine = under_wine();
	c.checks = json_array();
	vols = json_array();
	stop_why = 0;
	os_stop_handler_set(on_stop);
	printf("fslab selftest on %s%s%s\n", json_string_value(json_object_get(host, "hostname")),
	       wine ? ", under Wine " : "", wine ? json_string_value(json_object_get(host, "wine"))
						 : "");
	check_clock(&c);
	check_timer(&c);
	ret = 0;
	for (size_t i = 0; i < o.dirs.nr && !ret && !stop_why; i++)
		ret = check_dir(&c, o.dirs.v[i], wine, vols);
	os_stop_handler_clear();
	if (stop_why || ret) {
		if (stop_why)
			fslab_err("selftest interrupted by %s; its test files are removed, no record "
				  "written", os_stop_name(stop_why));
		status = FSLAB_EXIT_FAIL;
		goto out;
	}
	printf("\nselftest: %u PASS, %u FAIL, %u UNKNOWN, %u N/A\n", c.count[ST_PASS],
	       c.count[ST_FAIL], c.count[ST_UNKNOWN], c.count[ST_NA]);
	status = c.count[ST_FAIL] ? FSLAB_EXIT_VERDICT : FSLAB_EXIT_OK;
	if (o.json) {
		char *text;

		rec = json_pack("{s:s, s:s+++, s:s, s:O, s:b, s:I, s:I, s:o, s:o, s:{s:i, s:i, s:i, s:i}}",
				"schema", SELFTEST_SCHEMA, "fslab_version",
				fslab_version, " (", fslab_git, ")", "at", iso8601_now(ts, sizeof(ts)),
				"host", host, "buffered", o.buffered, "size", (json_int_t)o.size,
				"need", (json_int_t)o.need, "volumes", vols, "checks", c.checks,
				"summary", "PASS", c.count[ST_PASS], "FAIL", c.count[ST_FAIL],
				"UNKNOWN", c.count[ST_UNKNOWN], "N/A", c.count[ST_NA]);
		vols = c.checks = NULL;
		text = json_dumps(rec, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(rec);
		ret = write_file_atomic(o.json, text, strlen(text));
		free(text);
		if (ret == -FSLAB_EINPUT) {
			status = FSLAB_EXIT_USAGE;
		} else if (ret) {
			fslab_err("cannot write %s: %s", o.json, strerror(-ret));
			status = FSLAB_EXIT_FAIL;
		} else {
			printf("Record: %s (fslab run --selftest %s records it in the result)\n", o.json,
			       o.json);
		}
	}
out:
	json_decref(c.checks);
	json_decref(vols);
	json_decref(host);
	strvec_clear(&o.dirs);
	return status;
}
