/* SPDX-License-Identifier: MIT */
/* reportP.h: private interfaces between the renderers of src/compare/ (report, words, setup,
 * export), as libmount's mountP.h. */
#ifndef FSLAB_REPORTP_H
#define FSLAB_REPORTP_H

#include "compare/report.h"

/* words.c: one cell "mean ± half" (or text, "-"), heap. */
char *report_cell_text(const struct cmp_row *row, size_t g);
/* words.c: one delta "+590 ± 57 (+11.9 %)", heap. */
char *report_delta_text(const struct cmp_row *row, size_t g);
/* words.c: the significance column: "better (Holm-adjusted p = 0.002)", "within one run: not
 * tested", "n/a (why)", heap. */
char *report_sig_text(const struct cmp_row *row, size_t g);
/* words.c: "repeats", "batch means", "single value", "text", "none". */
const char *report_cell_method(enum cell_kind k);
/* words.c: "yes", "no", "within one run", "n/a". */
const char *report_sig_name(enum cmp_sig s);

/* report.c: the largest (and in *min the smallest) number of runs of a label that counts. */
size_t report_max_runs(const struct compare *c, size_t *min);
/* report.c: the statistics method in one paragraph. */
void report_method_para(struct doc *d, const struct compare *c);

/* hosts.c: the Hosts section (cluster results of fslab merge: each label's hosts, their
 * IOPS, latencies, starts and verdicts); nothing when no result is a cluster result. */
void report_hosts(struct doc *d, const struct compare *c, int level);

/* setup.c: the Setup section (facts equal for every run as a list, differing ones by label). */
void report_setup(struct doc *d, const struct compare *c);
/* setup.c: the Method section (workload, durations, comparability, order, statistics). */
void report_method(struct doc *d, const struct compare *c, const struct report_opts *o);

#endif
