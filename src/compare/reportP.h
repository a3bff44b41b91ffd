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

/* runs.c: the Method's "Runs" items (lab or hand runs, fresh or reused volume and database,
 * per label); report_all_fresh: every counted run a lab run on a volume formatted for it
 * with a database it created. */
void report_runs(struct doc *d, const struct compare *c);
bool report_all_fresh(const struct compare *c);
/* noise.c: the statistics paragraph of a blocked comparison (runs: "3", "5 to 7"); the
 * "Noise and precision" items (why an adaptive lab stopped, where the noise is, extreme
 * cells, advice). */
void report_blocked_para(struct doc *d, const struct compare *c, const char *runs);
void report_noise(struct doc *d, const struct compare *c, const struct report_opts *o);

/* setup.c: the Setup section (facts equal for every run as a list, differing ones by label). */
void report_setup(struct doc *d, const struct compare *c);
/* setup.c: the Method section (workload, durations, comparability, order, statistics). */
void report_method(struct doc *d, const struct compare *c, const struct report_opts *o);

#endif
