/* SPDX-License-Identifier: MIT */
/*
 * selftest.h: `fslab selftest`: on the user's own machine and volume, whether the assumptions
 * fslab's numbers rest on hold (unbuffered reads reach the device, write-through writes are on
 * it when they return, unaligned unbuffered I/O is refused, clock and timer resolution, device
 * counters, filesystem and cluster size, ReFS integrity streams, free space), one line each
 * with PASS, FAIL, UNKNOWN or N/A and the measured fact; a JSON record ("fslab-selftest/1")
 * that `fslab run --selftest FILE` embeds and compare shows in its Setup (docs/WINDOWS.md,
 * "First run on Windows").  The same code on Linux and Windows: it calls the platform layer
 * (os/os.h) and volume.h only.
 */
#ifndef FSLAB_SELFTEST_H
#define FSLAB_SELFTEST_H

#include <jansson.h>
#include <stddef.h>

#include "platform/volume.h"

#define SELFTEST_SCHEMA "fslab-selftest/1"

/*
 * selftest_attach - the record at path for a run on the volumes vols[0..n) (database and log):
 * made on this host, without --buffered, and covering every one of these volumes (the same
 * source device and mount point).  0 and *out (a new reference), or -FSLAB_EINPUT with one
 * line naming the problem and the fix.
 */
int selftest_attach(const char *path, const struct volume *const *vols, size_t n, json_t **out)
	__attribute__((warn_unused_result));
/* For compare's Setup: "PASS (8 checks passed, 1 n/a; 2026-12-03T10:00:00Z)", or "FAIL:
 * write_through; UNKNOWN: timer (2026-...)"; "none recorded" for NULL.  Heap. */
char *selftest_fact(json_t *record);
/* A note for the result when a check did not pass (heap), or NULL when all passed. */
char *selftest_note(json_t *record, const char *path);

#endif
