/* SPDX-License-Identifier: MIT */
/*
 * import_diskspd_textP.h: what the two halves of the DiskSpd text importer share: the text as
 * lines and what its sections say (import_diskspd_text_read.c reads them line by line;
 * import_diskspd_text.c turns each timespan into a result).
 */
#ifndef FSLAB_IMPORT_DISKSPD_TEXTP_H
#define FSLAB_IMPORT_DISKSPD_TEXTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"

/* The text as lines (pointing into one copy of it). */
struct dt_lines {
	char **l;
	size_t n;
};

/* The first target of one timespan in "Input parameters". */
struct dt_params {
	double duration, warmup;
	uint64_t seed, bs;
	bool bs_exact;
	unsigned int qd, random_pct, targets;
	int write_pct;  /* -1 unknown */
	int random;     /* 1 random, 0 sequential, 2 mixed, -1 unknown */
};

/* One IO section (Total, Read or Write) of a timespan. */
struct dt_section {
	bool present;
	size_t rows;
	uint64_t sum_bytes, sum_ios, bytes, ios;
	double mibps, iops, avglat, latsd; /* of the total line; NAN when not printed / N/A */
	bool has_lat;
	uint64_t file_size;                /* first row's target size, 0 when not exact */
	unsigned int *threads;             /* thread numbers of the rows */
};

/* The total latency chart: per direction (0 read, 1 write) min, p50, p90, p99, p99.9, p99.99,
 * max in ms, NAN for N/A. */
struct dt_chart {
	bool present;
	double v[2][7];
};

/* The whole text and what its sections before the timespans say. */
struct dt_text {
	const char *file;
	struct dt_lines ls;
	char *cmdline, *host, *start;
	unsigned int cpu_count;          /* 2.2: System information's "cpu count" */
	struct dt_params *params;        /* per timespan of Input parameters */
	size_t nparams;
	const char *version;             /* of the layout (layout_version()), or NULL */
};

/* ---- lines and fields (import_diskspd_text_read.c) ---- */

/* buf split at '\n' (a '\r' before it dropped) into a copy (returned, heap) the lines of ls
 * point into (ls->l heap). */
char *dt_split_lines(const char *buf, size_t len, struct dt_lines *ls);
/* s past its leading blanks */
const char *dt_skip_ws(const char *s);
/* Does line (leading blanks skipped) start with prefix? */
bool dt_starts(const char *line, const char *prefix);
/* Is line, without leading and trailing blanks, exactly s? */
bool dt_is_line(const char *line, const char *s);
/* The value after "key:" on a line starting with key (blanks trimmed), into v (whole, however
 * long); false if the line is not that key's. */
bool dt_value_of(const char *line, const char *key, struct strbuf *v);
/* A whole unsigned decimal (blanks around allowed); false for anything else. */
bool dt_num_u64(const char *s, uint64_t *out);
/* A finite decimal, optionally followed by suffix (e.g. "%", "s"); false for anything else. */
bool dt_num_d(const char *s, const char *suffix, double *out);
/* Split line at '|' into at most max trimmed fields (the line is modified); max + 1 when
 * there are more. */
size_t dt_fields(char *line, char **f, size_t max);

/* ---- the sections (import_diskspd_text_read.c) ---- */

/* The one message of a text that was cut or edited: line (0-based) and what is wrong;
 * -FSLAB_EINPUT. */
int dt_damaged(const struct dt_text *t, size_t line, const char *what);
/* Input parameters from line i: the timespans and the first target of each (the load it
 * describes); returns the line that ends them. */
size_t dt_read_params(struct dt_text *t, size_t i);
/* System information (its title at line i): computer name, start time, cpu count; returns the
 * line that ends it. */
size_t dt_read_system(struct dt_text *t, size_t i);
/* One IO section starting at its title line i, of a timespan of secs seconds; *next is the
 * line after its total line.  0 or -FSLAB_EINPUT. */
int dt_read_section(struct dt_text *t, size_t i, const char *title, double secs,
		    struct dt_section *s, size_t *next);
/* The latency chart whose title is line i.  0 or -FSLAB_EINPUT. */
int dt_read_chart(struct dt_text *t, size_t i, struct dt_chart *ch);
/* Do a section's total rates fit its counts over secs? */
bool dt_rates_fit(const struct dt_section *s, double secs);

#endif
