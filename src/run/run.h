/* SPDX-License-Identifier: MIT */
/* run.h: pieces of `fslab run` other modules use. */
#ifndef FSLAB_RUN_H
#define FSLAB_RUN_H

#include <stdbool.h>
#include <stdint.h>

/*
 * How a progress line of `fslab run --progress-fd FD` begins: one JSON object per line,
 * {"fslab_progress": 1, "phase", "elapsed_s", "total_s", "iops", "tps"}.  With FD 1 the lines
 * share stdout with the run's other output; a reader (the lab's step runner) takes the lines
 * that begin with this and logs the rest.
 */
#define RUN_PROGRESS_TAG "{\"fslab_progress\": 1, "

/*
 * What an entry of a --db or --log directory is to `fslab run --fresh` (src/run/fresh.c), told
 * by what fslab wrote in it, never by its name alone (names only pick the candidates), and
 * never following a link:
 * RUN_FILE_FSLAB: fslab made it and --fresh deletes it: a database fslab-*.edb whose header
 * page is fslab's and names this file (any size, complete or not), a log folder fslab-*-logs
 * that is fslab's (jetstress.h: its marker, fslab's log files and nothing else), a scratch
 * file of a killed probe or selftest whose header is fslab's (scratch.h);
 * RUN_FILE_SYSTEM: the filesystem's own entries at a volume's root, left alone and not counted
 * (lost+found, System Volume Information, $RECYCLE.BIN);
 * RUN_FILE_FOREIGN: everything else (a link, whatever its name or target, included), never
 * touched; --fresh refuses a directory with any unless --allow-foreign-files.
 */
enum run_file_kind { RUN_FILE_FSLAB, RUN_FILE_SYSTEM, RUN_FILE_FOREIGN };
/* One entry, as run_dir_scan() hands it over. */
struct run_entry {
	const char *name;
	enum run_file_kind kind;
	bool is_dir;          /* a real directory (a link to one is not) */
	uint64_t allocated;   /* bytes allocated to it when it is one of fslab's files */
};
struct os_dirh;
/*
 * run_dir_scan - call fn for every entry of the directory d (not "." and ".."), classified
 * through d (os.h: nothing looked up by path).  0 or -errno (d cannot be read).
 */
int run_dir_scan(struct os_dirh *d, void (*fn)(void *ctx, const struct run_entry *e), void *ctx);

/*
 * The note of a --fresh run on volumes fslab prep did not make (a lab's cells on volumes the
 * user prepared): the report shows it with the label's results.
 */
#define RUN_NOTE_USER_VOLUMES \
	"volumes prepared by the user, not reformatted between repeats (the volume ages from " \
	"round to round): the run deleted and re-created its databases and logs (--fresh)"

#endif
