/* SPDX-License-Identifier: MIT */
/* run.h: pieces of `fslab run` other modules use. */
#ifndef FSLAB_RUN_H
#define FSLAB_RUN_H

#include <stdbool.h>

/*
 * How a progress line of `fslab run --progress-fd FD` begins: one JSON object per line,
 * {"fslab_progress": 1, "phase", "elapsed_s", "total_s", "iops", "tps"}.  With FD 1 the lines
 * share stdout with the run's other output; a reader (the lab's step runner) takes the lines
 * that begin with this and logs the rest.
 */
#define RUN_PROGRESS_TAG "{\"fslab_progress\": 1, "

/*
 * What an entry of a --db or --log directory is to `fslab run --fresh` (src/run/fresh.c):
 * RUN_FILE_FSLAB: fslab made it and --fresh deletes it: a database fslab-*.edb whose header
 * page is fslab's (any size, complete or not), a log directory fslab-*-logs holding nothing but
 * log files (E00*.log), a scratch file of a killed probe or selftest (.fslab-selftest.*,
 * .fslab-odirect-probe.*, .fslab-unbuffered-probe.*, fslab-probe-*.tmp);
 * RUN_FILE_SYSTEM: the filesystem's own entries at a volume's root, left alone and not counted
 * (lost+found, System Volume Information, $RECYCLE.BIN);
 * RUN_FILE_FOREIGN: everything else, never touched; --fresh refuses a directory with any
 * unless --allow-foreign-files.
 */
enum run_file_kind { RUN_FILE_FSLAB, RUN_FILE_SYSTEM, RUN_FILE_FOREIGN };
/*
 * run_dir_scan - call fn for every entry of dir (not "." and ".."), with its kind and whether
 * it is a directory.  0 or -errno (dir cannot be read).
 */
int run_dir_scan(const char *dir,
		 void (*fn)(void *ctx, const char *name, enum run_file_kind kind, bool is_dir),
		 void *ctx);

/*
 * The note of a --fresh run on volumes fslab prep did not make (a lab's cells on volumes the
 * user prepared): the report shows it with the label's results.
 */
#define RUN_NOTE_USER_VOLUMES \
	"volumes prepared by the user, not reformatted between repeats (the volume ages from " \
	"round to round): the run deleted and re-created its databases and logs (--fresh)"

#endif
