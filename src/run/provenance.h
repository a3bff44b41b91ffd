/* SPDX-License-Identifier: MIT */
/* provenance.h: where a run stood in a lab (--lab-*), into its result's "lab". */
#ifndef FSLAB_RUN_PROVENANCE_H
#define FSLAB_RUN_PROVENANCE_H

#include "result/result.h"
#include "run/options.h"

/* run_lab_check - the --lab-* options come together (id, cell, round and position) or not at
 * all.  0 or -FSLAB_EINPUT (one line printed). */
int run_lab_check(const struct run_params *p) __attribute__((warn_unused_result));
/* run_lab_fill - r->lab from c (nothing for a hand run) and r->init (database created). */
void run_lab_fill(const struct run_config *c, struct fslab_result *r);

#endif
