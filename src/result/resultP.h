/* SPDX-License-Identifier: MIT */
/*
 * resultP.h: the field table of fslab-result/1, shared by its writer (result_write.c), its
 * reader (result_read.c) and the table itself (result_fields.c).  Not used elsewhere.
 */
#ifndef FSLAB_RESULTP_H
#define FSLAB_RESULTP_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "result/result.h"

/* The reader's state: the file named in messages, the first error (later ones are dropped). */
struct rd {
	const char *what;
	int err;
};

enum rf_type {
	RF_U64,    /* uint64_t, a non-negative JSON integer */
	RF_UINT,   /* unsigned int, likewise */
	RF_INT,    /* int, likewise */
	RF_REAL,   /* double; written null when not finite, read null as NaN (RF_NAN0: 0) */
	RF_STR,    /* char *, owned; NULL is null */
	RF_BOOL,   /* bool */
	RF_STRV,   /* char ** with its count at off_n (size_t): an array of strings */
	RF_OBJ,    /* a struct at off, an object of the fields sub */
	RF_ARRAY,  /* a pointer at off to count (off_n, size_t) structs of elem_size: an array of
		      objects of the fields sub (an empty array reads as none) */
	RF_CUSTOM, /* write() and read() do it */
};

enum {
	RF_REQUIRED = 1 << 0, /* RF_OBJ, RF_STR: missing (or null) is an error */
	RF_NAN0 = 1 << 1,     /* RF_REAL: null or missing reads as 0 */
	/* left out of the file when absent (present() false, a NULL string, an empty array):
	 * fields older files never had, so that they are still written byte-identical */
	RF_OMIT = 1 << 2,
};

struct rfield {
	const char *key;
	enum rf_type type;
	unsigned int flags;
	size_t off, off_n;
	const struct rfield *sub;       /* RF_OBJ, RF_ARRAY */
	size_t elem_size;               /* RF_ARRAY */
	/* writer: the value is written as null when present(struct) is false (NULL: always) */
	bool (*present)(const void *base);
	/* RF_CUSTOM: the JSON of the field at p (new reference; NULL: the key is left out) */
	json_t *(*write)(const void *p);
	/* RF_CUSTOM: read key of object o (it may be missing) into the field at p */
	void (*read)(struct rd *rd, json_t *o, const char *key, void *p);
};

/*
 * result_steady.c: "steady_state" (struct steady_state), "warmup" and a precondition's "load"
 * (struct steady_stage), "precondition" (struct precondition_result): RF_CUSTOM writers (NULL
 * when absent) and readers; the fields of one "fio_steadystate" entry.
 */
json_t *rf_steady_write(const void *p);
void rf_steady_read(struct rd *rd, json_t *o, const char *key, void *p);
json_t *rf_stage_write(const void *p);
void rf_stage_read(struct rd *rd, json_t *o, const char *key, void *p);
json_t *rf_precondition_write(const void *p);
void rf_precondition_read(struct rd *rd, json_t *o, const char *key, void *p);
extern const struct rfield rf_fio_ss_fields[];
/* result_lab.c: "lab" (struct lab_provenance), left out for a hand run. */
json_t *rf_lab_write(const void *p);
void rf_lab_read(struct rd *rd, json_t *o, const char *key, void *p);
/* result_tune.c: "tuning" (struct tuning, --threads auto), left out when absent. */
json_t *rf_tuning_write(const void *p);
void rf_tuning_read(struct rd *rd, json_t *o, const char *key, void *p);

/* result_shape.c: "fidelity" (struct fidelity) and "recovery" (struct recovery_result),
 * RF_CUSTOM writers (NULL when absent) and readers. */
json_t *rf_fidelity_write(const void *p);
void rf_fidelity_read(struct rd *rd, json_t *o, const char *key, void *p);
json_t *rf_recovery_write(const void *p);
void rf_recovery_read(struct rd *rd, json_t *o, const char *key, void *p);

/* The whole result, in the order it is written; ends with { NULL }. */
extern const struct rfield result_fields[];

/* The object of the fields f of the struct at base (new reference). */
json_t *rf_to_json(const struct rfield *f, const void *base);
/* The fields f of object o into the struct at base; parent names o in messages (NULL: the
 * top level). */
void rf_from_json(struct rd *rd, json_t *o, const struct rfield *f, void *base,
		  const char *parent);

/* writer helpers (result_write.c): a number or null; a string or null; strings. */
json_t *jnum(double v);
json_t *jstr(const char *s);
json_t *strv_to_json(char *const *v, size_t n);

/* reader helpers (result_read.c), each failing rd with a message naming the key */
int rd_fail(struct rd *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
double rd_num(struct rd *rd, json_t *o, const char *key, double dflt);
double rd_num0(struct rd *rd, json_t *o, const char *key);
uint64_t rd_u64(struct rd *rd, json_t *o, const char *key);
/* rd_fail() when a timeline of nrows rows is beyond TIMELINE_MAX_ROWS; else 0. */
int rd_timeline_limit(struct rd *rd, size_t nrows);
/* Timeline row i (a JSON array of t->ncols numbers or nulls) appended to t (spilled to a
 * temporary file at TIMELINE_MEM_ROWS); row is scratch room for ncols.  0 or rd's error. */
int rd_timeline_row(struct rd *rd, struct timeline *t, json_t *v, size_t i, double *row);
/* After the last row: 0, or rd's error; an error when a spilled timeline could not be
 * written (its temporary file system full: -EIO, said in one line). */
int rd_timeline_end(struct rd *rd, struct timeline *t);
/* rd_u64() at most max (the field's width: unsigned int, int), else an error. */
uint64_t rd_u64_max(struct rd *rd, json_t *o, const char *key, uint64_t max);
bool rd_bool(struct rd *rd, json_t *o, const char *key);
char *rd_str(struct rd *rd, json_t *o, const char *key);
char **rd_strv(struct rd *rd, json_t *o, const char *key, size_t *n);
json_t *rd_obj(struct rd *rd, json_t *o, const char *key, bool required);

#endif
