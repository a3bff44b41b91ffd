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

/* words.c, for the answer: the lead metric's row (transactional IOPS, or a throughput
 * workload's database read MB/s); a percentage's size for prose ("12", "4.5", in buf); the
 * p-value that decided ("Holm-adjusted p = 0.002"); the test ("blocked t-test"); a difference
 * in % with its 95 % interval ("-8.6 % [-19 %, +3.0 %]", heap); the evidence ("3 runs each in
 * 3 rounds", heap). */
const struct cmp_row *report_lead_row(const struct compare *c);
/* words.c: a p-value as text ("p = 0.003", "p < 0.001") with the digits it takes for the
 * number to stand on the same side of STATS_ALPHA as the word beside it ("p = 0.04999", never
 * "p = 0.050" for a significant one; "p < 0.05" when six decimals do not tell), in buf. */
const char *report_p_text(char *buf, size_t len, double p);
const char *report_pct_size(char *buf, size_t len, double pct);
const char *report_p_words(char *buf, size_t len, const struct cmp_delta *d);
const char *report_test_name(const struct cmp_delta *d);
/* words.c: the equivalence test that decided ("TOST Holm-adjusted p = 0.004"); a signed
 * percentage for intervals ("+3.0", "-19"). */
const char *report_p_eq_words(char *buf, size_t len, const struct cmp_delta *d);
const char *report_signed_pct(char *buf, size_t len, double pct);
/* words.c: "; about 9 more rounds would decide it if the estimate and the noise stayed as they
 * are" for an undecided delta, "" otherwise. */
const char *report_more_text(char *buf, size_t len, const struct cmp_delta *d);
char *report_interval_text(const struct cmp_delta *d);
char *report_runs_text(const struct compare *c, size_t g, size_t base);

/* steady.c: the Method's lines on a steady warm-up, preconditioning and the steady-state
 * rule, where the results have them; one line per label on its steady state (beside the
 * verdicts). */
void report_method_steady(struct doc *d, const struct compare *c);
void report_steady_lines(struct doc *d, const struct compare *c);

/* capacity.c: the Capacity section of tuned labels (their capacity with its interval, what
 * the tuner's choice rests on, its steps per count); the Method's line on the tuner. */
void report_capacity(struct doc *d, const struct compare *c);
void report_method_tuning(struct doc *d, const struct compare *c);

/* answer.c: the answer first (one line per label against its base, the A/A check, sweeps,
 * why an adaptive lab stopped); the key table; the verdicts, one line per label; the volume
 * view from the device counters; (notes.c) the notes of the results aggregated per label;
 * the per-run detail, folded. */
void report_answer(struct doc *d, const struct compare *c, const struct report_opts *o);
void report_key_table(struct doc *d, const struct compare *c);
bool report_has_verdicts(const struct compare *c);
void report_verdict_lines(struct doc *d, const struct compare *c);
/* shape.c: the bands, then a line per label: its ratios, how far out of band and why. */
void report_shape_lines(struct doc *d, const struct compare *c);
/* qualify.c: each qualification run's verdict, one line each, and what it is; the answer's
 * line and the summary's sentence on them (nothing when there are none). */
void report_qualification(struct doc *d, const struct compare *c);
void report_qualification_line(struct doc *d, const struct compare *c);
void report_qualification_sentence(const struct compare *c, struct strvec *out);
bool report_has_volumes(const struct compare *c);
void report_volumes(struct doc *d, const struct compare *c);
void report_notes(struct doc *d, const struct compare *c);
/* notes.c: the notes of a result: its own and those of its prep record (borrowed). */
void report_result_notes(const struct fslab_result *r, json_t *out[2]);
void report_run_detail(struct doc *d, const struct compare *c);

/* runs.c: the Method's "Runs" items (lab or hand runs, fresh or reused volume and database,
 * per label); report_all_fresh: every counted run a lab run on a volume formatted for it
 * with a database it created. */
void report_runs(struct doc *d, const struct compare *c);
bool report_all_fresh(const struct compare *c);
/* noise.c: the statistics method in one paragraph (the results table's and the Method's:
 * repeats, batch means or a blocked comparison); the "Noise and precision" items (why an
 * adaptive lab stopped, where the noise is, extreme cells, advice). */
void report_method_para(struct doc *d, const struct compare *c);
void report_noise(struct doc *d, const struct compare *c, const struct report_opts *o);
/* hosts.c: the Hosts section (cluster results of fslab merge: each label's hosts, their
 * IOPS, latencies, starts and verdicts); nothing when no result is a cluster result. */
void report_hosts(struct doc *d, const struct compare *c, int level);

/* setup.c: the Setup section (facts equal for every run as a list, differing ones by label). */
void report_setup(struct doc *d, const struct compare *c);
/* setup.c: the Method section (workload, durations, comparability, order, statistics). */
void report_method(struct doc *d, const struct compare *c, const struct report_opts *o);

#endif
