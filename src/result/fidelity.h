/* SPDX-License-Identifier: MIT */
/*
 * fidelity.h: the shape of a Jetstress-like load against Jetstress's own ratios, and why a
 * ratio left its band.  The bands are Jetstress's tuning goals ("Jetstress: Tuning process
 * adjusts the operation mix to achieve normal ratios of read/writes", Microsoft's Jetstress
 * team blog, hmlee, 2005): database disk reads:writes 3:2 to 2:1, database to log disk
 * transfers 8:1 to 12:1, log bytes per write 6 to 8 K.  Pure: no I/O.
 */
#ifndef FSLAB_FIDELITY_H
#define FSLAB_FIDELITY_H

#include <stdbool.h>
#include <stddef.h>

#include "result/classes.h"

enum fid_ratio {
	FID_DB_LOG,     /* database transfers (reads + writes) per log write */
	FID_READ_WRITE, /* database reads per database write */
	FID_LOG_KIB,    /* log bytes per log write, KiB */
	FID_NR,
};
/* "db_log", "read_write", "log_write_kib": the result's keys */
extern const char *const fid_keys[FID_NR];
/* "database:log transfers", "database reads:writes", "log write size" */
extern const char *const fid_words[FID_NR];
/* Jetstress's bands: [8, 12], [1.5, 2], [6, 8] */
extern const double fid_band[FID_NR][2];

struct fid_value {
	double value;  /* NaN: not measured (a class without I/O) */
	bool in_band;
	double off_pct; /* outside the band: signed % of the nearer bound (+20: 20 % above the
			   top); 0 inside */
};

struct fidelity {
	bool present;
	struct fid_value r[FID_NR];
	/* what explains a ratio out of its band (NaN: not recorded, an older or imported result):
	 * the busiest database's log stream's share of the time with a write in flight, and its
	 * durable commits per log write */
	double log_busy_pct, commits_per_write;
	char *why; /* owned: why the ratios outside their bands are, or NULL (all in band) */
};

/*
 * fidelity_compute - the three ratios of a load from its classes (rates or counts, the same
 * ratio) into f (present; log_busy_pct, commits_per_write NaN, why NULL).  f->present stays
 * false when the load has no database and log I/O to take a shape from.
 */
void fidelity_compute(struct fidelity *f, const struct class_result cls[CLS_NR]);

/*
 * fidelity_explain - f->why from what it found: a log stream busy at least FID_BUSY_PCT
 * of the time, or at least FID_GROUPED durable commits per log write, explains a database:log
 * ratio above its band and log writes above theirs (group commit: ESE writes one log I/O at a
 * time per database); others are named without a cause.  NULL when every ratio is in band.
 */
#define FID_BUSY_PCT 60.0
#define FID_GROUPED 1.2
void fidelity_explain(struct fidelity *f);

/* "14.4:1" / "1.65" / "9.6 KiB" into buf. */
char *fid_value_text(char *buf, size_t len, enum fid_ratio k, double v);
/* "8-12:1", "1.5-2", "6-8 KiB" */
const char *fid_band_text(enum fid_ratio k);
/* "20 % above" / "35 % below" into buf ("in band" inside). */
char *fid_off_text(char *buf, size_t len, const struct fid_value *v);

void fidelity_release(struct fidelity *f);

#endif
