/* SPDX-License-Identifier: MIT */
/*
 * import.h: what compare and sizing read: fslab's own result files and other tools' output
 * (fio JSON, DiskSpd XML and text, Jetstress HTML), each turned into a struct fslab_result with its
 * provenance.  One importer per format (src/compare/import_<format>.c) behind one table in
 * import.c: a new format is one file and one word there.  docs/INTEROP.md maps the fields.
 */
#ifndef FSLAB_IMPORT_H
#define FSLAB_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "result/result.h"

/* What one file gave: one result or several (fio client/server: one per host + all). */
struct import_list {
	size_t n, alloc;        /* results, and room for them */
	struct fslab_result *r; /* n results, each result_init()ed */
	char **suffix;          /* per result: label suffix ("127.0.0.1-8765"), or NULL */
};

struct importer {
	const char *tool;   /* provenance tool: "fslab", "fio", "diskspd", "jetstress" */
	const char *name;   /* the format in a list of them: "fio JSON", "DiskSpd XML" */
	const char *format; /* for messages: "fio JSON (--output-format=json or json+)" */
	/* Does the (NUL-terminated) text look like this format?  Cheap, no full parse. */
	bool (*sniff)(const char *buf, size_t len);
	/*
	 * Parse buf (NUL-terminated, len bytes) from file into results appended to out (with
	 * import_add()).  0, or -FSLAB_EINPUT after one line naming file and the problem.
	 */
	int (*parse)(const char *buf, size_t len, const char *file, struct import_list *out);
};

/* The importers, one per src/compare/import_<format>.c: listed once, in import.c's table. */

/*
 * Most results one file gives (fio client_stats hosts, DiskSpd TimeSpans), and most database
 * instances one Jetstress report has: far beyond a real run (a fio client/server
 * run of a thousand hosts, Exchange's 100 databases per server), small enough that a hostile
 * file cannot make compare's tables, charts and memory grow without end.  Beyond: refused
 * (exit 2), the message naming the count and the limit.
 */
#define IMPORT_MAX_RESULTS 10000
#define IMPORT_MAX_INSTANCES 10000

/* Largest file read (bytes): a DiskSpd XML of a long -D run stays far below. */
#define IMPORT_MAX_BYTES (256u << 20)

/*
 * import_file - read path with the importer its content names; label the results: label
 * when given (--label FILE=NAME), else an fslab result's own label, else the file name
 * without directory, extension and a trailing repeat number ("ntfs-2.xml" -> "ntfs"); a
 * result with a suffix gets "LABEL-SUFFIX".  0, or -FSLAB_EINPUT (message printed).
 * import_list_release() out in every case.
 */
int import_file(const char *path, const char *label, struct import_list *out)
	__attribute__((warn_unused_result));
/* The same from memory (the fuzz targets); buf NUL-terminated at len. */
int import_buffer(const char *buf, size_t len, const char *file, const char *label,
		  struct import_list *out) __attribute__((warn_unused_result));
void import_list_release(struct import_list *l);

/* import_formats how: */
#define IMPORT_OWN    (1U << 0) /* fslab's own results too, first */
#define IMPORT_FORMAT (1U << 1) /* each as its .format ("fio JSON (--output-format=json or
				 * json+)") instead of its .name */
/*
 * import_formats - the formats compare reads, for help texts and messages: the other tools'
 * in table order (fslab's own first with IMPORT_OWN), joined by @sep, with @last before the
 * last one ("fio JSON, DiskSpd XML, DiskSpd text or Jetstress HTML").  Heap.
 */
char *import_formats(unsigned int how, const char *sep, const char *last);

/* The label a file name gives ("dir/ntfs-r2.xml" -> "ntfs"), heap; NULL when nothing is left. */
char *import_label_from_file(const char *file);

/* ---- for the importers ---- */

/* A new result at the end of l, result_init()ed with every measured value n/a (NAN), no
 * config field recorded (import_recorded() says which the tool gives) and the provenance set
 * (strings copied; version, format and host may be NULL).  suffix may be NULL. */
struct fslab_result *import_add(struct import_list *l, const char *suffix, const char *tool,
				const char *version, const char *format, const char *file,
				const char *host);
/* The tool records config field f of r (what it does not record is never compared: it
 * cannot be known, the Method says so). */
#define import_recorded(r, f) run_config_clear_na(&(r)->config, offsetof(struct run_config, f))
/* A class's latency summary all n/a. */
void import_lat_na(struct class_result *c);
/* After the classes are filled: transactional IOPS (db reads + writes), the environment
 * object (hostname, source) and, when unset, workload "unknown". */
void import_finish(struct fslab_result *r);

#endif
