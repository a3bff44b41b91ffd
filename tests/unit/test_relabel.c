// SPDX-License-Identifier: MIT
/*
 * test_relabel.c: the false-claim rate and the power of the adaptive lab on real noise.
 *
 * tests/fixtures/noise-pool.csv and noise-pool-quiet.csv hold real cells of one filesystem
 * recorded on the shared development machine, loaded by other work and quiet (their headers
 * say how); every test runs on each.  Each simulated lab relabels them at random
 * within rounds: its rounds are the pool's rounds in a random order, and in each round two
 * of that round's cells, drawn at random, become A (the baseline) and B.  The lab then does
 * what `fslab lab` does with [lab] precision: from min_rounds on, after every whole round,
 * compare's own analysis (compare_build_results(): the blocked model, Holm over the claims,
 * the MDEs) and the stop rule (compare_precision(): widths only); it stops when the widest
 * claim MDE is at most the target, or at the pool's last round.  Then:
 *   - as recorded (no difference exists): any significant claim of B is a false claim; the
 *     rate must be at most 5 %;
 *   - with a true effect injected into B (B 10 % faster: transactional IOPS and throughput
 *     x 1.10, latencies / 1.10): among the labs whose stop rule said the target was met,
 *     B's transactional IOPS claim must be significant (and "better") at least 80 % of the
 *     time.
 * Rates are printed with their Wilson 95 % intervals.  Pure computation, a few seconds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compare.h"
#include "compare/precision.h"
#include "compare/sequential.h"
#include "lib/random.h"

#define NSIM 1000
#define MIN_ROUNDS 3
#define MAX_CELLS 512

struct cell {
	unsigned int round, position;
	double iops, db_read_ms, log_write_ms, mbps;
};

static struct cell pool[MAX_CELLS];
static size_t npool;
static unsigned int nrounds;

static char *fx(const char *name)
{
	const char *top = getenv("FSLAB_TOP");

	return xasprintf("%s/tests/fixtures/%s", top ? top : ".", name);
}

static void load_pool(const char *name)
{
	char *path = fx(name), line[512];
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	npool = nrounds = 0;
	while (fgets(line, sizeof(line), f)) {
		struct cell *c = &pool[npool];
		char label[64];

		if (line[0] == '#' || !strncmp(line, "round,", 6))
			continue;
		assert_true(npool < MAX_CELLS);
		assert_int_equal(sscanf(line, "%u,%u,%63[^,],%lf,%lf,%lf,%lf", &c->round,
					&c->position, label, &c->iops, &c->db_read_ms,
					&c->log_write_ms, &c->mbps), 7);
		nrounds = MAX(nrounds, c->round);
		npool++;
	}
	fclose(f);
	free(path);
}

/* One result as `fslab run` would have written it, with what compare reads for the claims. */
static void make_result(struct fslab_result *r, const char *label, const struct cell *c,
			unsigned int round, unsigned int position, double effect)
{
	result_init(r);
	r->label = xstrdup(label);
	r->fslab_version = xstrdup("sim");
	r->config.workload = xstrdup("jetstress");
	r->config.threads = 4;
	r->config.databases = 1;
	r->config.duration_s = 12;
	r->config.db_size = 256 * MiB;
	r->duration_s = 12;
	r->lab.id = xstrdup("sim");
	r->lab.round = round;
	r->lab.position = position;
	r->lab.volume_formatted = r->lab.database_created = true;
	r->transactional_iops = c->iops * effect;
	r->classes[CLS_DB_READ].ops = 1;
	r->classes[CLS_DB_READ].iops = c->iops * effect;
	r->classes[CLS_DB_READ].lat_us.mean = c->db_read_ms * 1000 / effect;
	r->classes[CLS_DB_READ].mbps = c->mbps * effect;
	r->classes[CLS_LOG_WRITE].ops = 1;
	r->classes[CLS_LOG_WRITE].iops = 1;
	r->classes[CLS_LOG_WRITE].lat_us.mean = c->log_write_ms * 1000 / effect;
	for (int k = 0; k < CLS_NR; k++)
		r->classes[k].lat_us.max = r->classes[k].lat_us.p99 = r->classes[k].lat_us.p99_9 = 1;
}

struct outcome {
	bool met;           /* the stop rule said the target was met */
	unsigned int rounds; /* rounds run */
	double mde;          /* the widest claim MDE at the stop */
	bool any_claim;      /* some headline claim of B significant */
	bool iops_better;    /* B's transactional IOPS claim significant and better */
};

/* One simulated adaptive A/B lab over the pool in rounds[] order, cells pick[r][0..1]. */
static void one_lab(const size_t (*pick)[2], double target,
		    double effect, unsigned int max_rounds, struct outcome *out)
{
	struct fslab_result res[2 * 64];
	struct compare_opts o = { .baseline = "A", .claims_only = true }; /* as the lab looks */

	memset(out, 0, sizeof(*out));
	for (unsigned int r = MIN_ROUNDS; r <= max_rounds; r++) {
		struct precision_check pc;
		struct compare c;
		size_t n = 0;

		for (unsigned int k = 0; k < r; k++) {
			make_result(&res[n++], "A", &pool[pick[k][0]], k + 1, 2 * k + 1, 1);
			make_result(&res[n++], "B", &pool[pick[k][1]], k + 1, 2 * k + 2, effect);
		}
		assert_int_equal(compare_build_results(&c, res, n, &o), 0);
		assert_true(c.blocked);
		assert_int_equal(c.nclaims, COMPARE_NHEADLINE);
		out->rounds = r;
		out->mde = compare_precision(&c, &pc) ? NAN : pc.worst_pct;
		out->met = isfinite(out->mde) && out->mde <= target;
		if (out->met || r == max_rounds) {
			for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
				const struct cmp_delta *d = &compare_row(&c, compare_headline[k])->deltas[1];

				out->any_claim |= d->sig == SIG_YES;
				if (!strcmp(compare_headline[k], "trans_iops"))
					out->iops_better = d->sig == SIG_YES && d->better > 0;
			}
			compare_release(&c);
			return;
		}
		compare_release(&c);
	}
}

/* Wilson score interval of k successes in n at 95 %. */
static void wilson(size_t k, size_t n, double *lo, double *hi)
{
	double z = 1.959964, p = n ? (double)k / n : 0, d = 1 + z * z / n;
	double c = (p + z * z / (2.0 * n)) / d;
	double h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;

	*lo = n ? c - h : 0;
	*hi = n ? c + h : 1;
}

struct sim {
	double target, effect;
	size_t labs, met, false_claims, detected;
	double rounds_sum, mde_sum;
};

static void simulate(struct sim *s, uint64_t seed)
{
	static unsigned int order[64];
	static size_t pick[64][2];
	struct rng rng;

	rng_seed(&rng, seed);
	for (size_t i = 0; i < NSIM; i++) {
		struct outcome out;

		/* the pool's rounds in a random order; in each, two of its cells as A and B */
		for (unsigned int r = 0; r < nrounds; r++)
			order[r] = r + 1;
		for (unsigned int r = nrounds; r > 1; r--) {
			unsigned int j = (unsigned int)rng_below(&rng, r), t = order[r - 1];

			order[r - 1] = order[j];
			order[j] = t;
		}
		for (unsigned int r = 0; r < nrounds; r++) {
			size_t idx[16], m = 0;

			for (size_t k = 0; k < npool && m < ARRAY_SIZE(idx); k++)
				if (pool[k].round == order[r])
					idx[m++] = k;
			assert_true(m >= 2);
			pick[r][0] = idx[rng_below(&rng, m)];
			do
				pick[r][1] = idx[rng_below(&rng, m)];
			while (pick[r][1] == pick[r][0]);
		}
		one_lab((const size_t (*)[2])pick, s->target, s->effect, nrounds, &out);
		s->labs++;
		s->rounds_sum += out.rounds;
		s->mde_sum += isfinite(out.mde) ? out.mde : 0;
		s->false_claims += s->effect == 1 && out.any_claim;
		if (out.met) {
			s->met++;
			s->detected += out.iops_better;
		}
	}
}

static void check_pool(const char *file)
{
	load_pool(file);
	print_message("pool %s: %zu cells in %u rounds\n", file, npool, nrounds);
	assert_true(npool >= 40);
	assert_true(nrounds >= 8);
}

/* No difference exists: how often does the adaptive lab claim one? */
static void false_claims(const char *file)
{
	static const double targets[] = { 10, 20, 30 };

	load_pool(file);
	for (size_t t = 0; t < ARRAY_SIZE(targets); t++) {
		struct sim s = { .target = targets[t], .effect = 1 };
		double lo, hi;

		simulate(&s, 17 + t);
		wilson(s.false_claims, s.labs, &lo, &hi);
		print_message("A/A relabelled, precision %g %%: %zu labs, stopped on precision in %zu, "
			      "%.1f rounds on average; false claims %zu = %.1f %% [%.1f %%, %.1f %%]\n",
			      s.target, s.labs, s.met, s.rounds_sum / s.labs, s.false_claims,
			      100.0 * s.false_claims / s.labs, 100 * lo, 100 * hi);
		assert_true(s.false_claims <= s.labs / 20); /* at most 5 % */
	}
}

/* A true effect of the size of the target: detected when the stop rule says it can be. */
static void power(const char *file)
{
	static const double targets[] = { 10, 20, 30 };
	size_t judged = 0;

	load_pool(file);
	for (size_t t = 0; t < ARRAY_SIZE(targets); t++) {
		struct sim s = { .target = targets[t], .effect = 1 + targets[t] / 100 };
		double lo, hi;

		simulate(&s, 1017 + t);
		wilson(s.detected, s.met, &lo, &hi);
		print_message("B %g %% faster, precision %g %%: %zu labs, the stop rule said the target "
			      "was met in %zu (%.1f rounds on average over all labs); detected in %zu "
			      "of those = %.1f %% [%.1f %%, %.1f %%]\n", targets[t], s.target, s.labs,
			      s.met, s.rounds_sum / s.labs, s.detected,
			      s.met ? 100.0 * s.detected / s.met : NAN, 100 * lo, 100 * hi);
		if (s.met < 50)
			continue; /* too few labs reached this target on this pool to judge */
		judged++;
		assert_true(s.detected * 5 >= s.met * 4); /* at least 80 % */
	}
	assert_true(judged >= 1);
}

/*
 * Labs that stop when decided ([lab] stop = decided): three labels per round as the demo has
 * them (A the baseline, B, and A's A/A copy A-aa), each a random cell of the pool's round, a
 * true effect planted into B (IOPS and throughput x e, latencies / e).  From MIN_ROUNDS on,
 * after every round, compare's own analysis with the lab's looks (the group-sequential
 * boundary; the look after the pool's last round is final and spends what is left), stopping
 * when every claim of B is decided.  Per lab: B's outcomes and whether the A/A alarm rang.
 */
#define NLABELS 3

struct decided {
	double margin, effect;
	bool naive;         /* every look at the fixed 5 %: what the boundary pays for */
	size_t labs, false_diff, false_eq, wrong_sign, aa_alarm;
	size_t lead[OUT_UNDECIDED + 1]; /* the outcome of B's transactional IOPS claim */
	size_t lead_right;  /* different in the planted direction, or equivalent when inside */
	double rounds_sum;
};

/* The true ratio of B to A in a headline metric under the planted effect. */
static double true_ratio(const char *id, double effect)
{
	return strstr(id, "lat") ? 1 / effect : effect;
}

static void score(struct decided *s, const struct compare *c)
{
	bool fd = false, fe = false, ws = false;

	for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
		const struct cmp_delta *d = &compare_row(c, compare_headline[k])->deltas[1];
		double r = true_ratio(compare_headline[k], s->effect);
		bool inside = r > 1 - s->margin / 100 && r < 1 + s->margin / 100;
		bool sig = d->outcome == OUT_DIFFERENT || d->outcome == OUT_NEGLIGIBLE;

		fd |= sig && r == 1;                       /* a difference where there is none */
		ws |= sig && r != 1 && (d->pct > 0) != (r > 1); /* one, the wrong way round */
		fe |= (d->outcome == OUT_EQUIVALENT || d->outcome == OUT_NEGLIGIBLE) && !inside;
		if (!strcmp(compare_headline[k], "trans_iops")) {
			s->lead[d->outcome]++;
			s->lead_right += inside ? d->outcome == OUT_EQUIVALENT ||
						  (r != 1 && d->outcome == OUT_NEGLIGIBLE)
						: d->outcome == OUT_DIFFERENT && (d->pct > 0) == (r > 1);
		}
	}
	s->false_diff += fd;
	s->false_eq += fe;
	s->wrong_sign += ws;
	s->aa_alarm += c->aa_alarm >= 0;
}

static void one_decided_lab(const size_t (*pick)[NLABELS], struct decided *s)
{
	static const char *const labels[NLABELS] = { "A", "B", "A-aa" };
	struct fslab_result res[NLABELS * 64];

	for (unsigned int r = MIN_ROUNDS; r <= nrounds; r++) {
		struct seq_plan plan = { MIN_ROUNDS, nrounds, r, r == nrounds };
		struct compare_opts o = { .baseline = "A", .claims_only = true,
					  .equivalence_pct = s->margin,
					  .seq = s->naive ? NULL : &plan };
		struct decided_check dc;
		struct compare c;
		size_t n = 0;

		for (unsigned int k = 0; k < r; k++)
			for (size_t l = 0; l < NLABELS; l++)
				make_result(&res[n++], labels[l], &pool[pick[k][l]], k + 1,
					    NLABELS * k + (unsigned int)l + 1, l == 1 ? s->effect : 1);
		assert_int_equal(compare_build_results(&c, res, n, &o), 0);
		assert_true(c.blocked);
		assert_int_equal(compare_decided(&c, &dc, false), 0);
		assert_int_equal(dc.claims, COMPARE_NHEADLINE);
		if (dc.decided == dc.claims || r == nrounds) {
			score(s, &c);
			s->rounds_sum += r;
			compare_release(&c);
			return;
		}
		compare_release(&c);
	}
}

static void simulate_decided(struct decided *s, size_t nlabs, uint64_t seed)
{
	static unsigned int order[64];
	static size_t pick[64][NLABELS];
	struct rng rng;

	rng_seed(&rng, seed);
	for (size_t i = 0; i < nlabs; i++) {
		for (unsigned int r = 0; r < nrounds; r++)
			order[r] = r + 1;
		for (unsigned int r = nrounds; r > 1; r--) {
			unsigned int j = (unsigned int)rng_below(&rng, r), t = order[r - 1];

			order[r - 1] = order[j];
			order[j] = t;
		}
		for (unsigned int r = 0; r < nrounds; r++) {
			size_t idx[16], m = 0;

			for (size_t k = 0; k < npool && m < ARRAY_SIZE(idx); k++)
				if (pool[k].round == order[r])
					idx[m++] = k;
			assert_true(m >= NLABELS);
			/* NLABELS distinct cells of the round, in random order */
			for (size_t l = 0; l < NLABELS; l++) {
				size_t j = l + (size_t)rng_below(&rng, m - l), t = idx[l];

				idx[l] = idx[j];
				idx[j] = t;
				pick[r][l] = idx[l];
			}
		}
		one_decided_lab((const size_t (*)[NLABELS])pick, s);
		s->labs++;
	}
}

/* Labs per setting: a few hundred keep the test to about a minute; FSLAB_RELABEL_LABS sets
 * more, and adds the labs without a boundary (docs/COMPARE.md's figures: 2000). */
static size_t decided_labs(void)
{
	const char *e = getenv("FSLAB_RELABEL_LABS");
	long n = e ? strtol(e, NULL, 10) : 0;

	return n >= 50 && n <= 100000 ? (size_t)n : 300;
}

static void print_decided(const char *file, const struct decided *s)
{
	double lo[4], hi[4];
	size_t n = s->labs;

	wilson(s->false_diff, n, &lo[0], &hi[0]);
	wilson(s->false_eq, n, &lo[1], &hi[1]);
	wilson(s->aa_alarm, n, &lo[2], &hi[2]);
	wilson(s->lead_right, n, &lo[3], &hi[3]);
	print_message("%s, margin %g %%, B %+.0f %%%s: %zu labs, %.1f rounds; false different %.1f %% "
		      "[%.1f, %.1f], false equivalent %.1f %% [%.1f, %.1f], wrong sign %zu; "
		      "IOPS claim different %zu, equivalent %zu, negligible %zu, undecided %zu, "
		      "right %.1f %% [%.1f, %.1f]; A/A alarm %.1f %% [%.1f, %.1f]\n", file,
		      s->margin, (s->effect - 1) * 100, s->naive ? " (no boundary)" : "", n,
		      s->rounds_sum / n, 100.0 * s->false_diff / n, 100 * lo[0], 100 * hi[0],
		      100.0 * s->false_eq / n, 100 * lo[1], 100 * hi[1], s->wrong_sign,
		      s->lead[OUT_DIFFERENT], s->lead[OUT_EQUIVALENT], s->lead[OUT_NEGLIGIBLE],
		      s->lead[OUT_UNDECIDED], 100.0 * s->lead_right / n, 100 * lo[3], 100 * hi[3],
		      100.0 * s->aa_alarm / n, 100 * lo[2], 100 * hi[2]);
}

/*
 * The decided stop on real noise: with the boundary, false "different" (effect 0) and false
 * "equivalent" (an effect at or beyond the margin) each at most 5 %; the A/A alarm as often
 * as the report says a clean lab raises it (COMPARE_AA_CHANCE).  Without the boundary (every
 * look at 5 %) printed beside, for what the boundary pays for.
 */
static void decided(const char *file)
{
	static const struct {
		double margin, effect;
	} set[] = {
		{ 5, 0 }, { 5, 3 }, { 5, -3 }, { 5, 5 }, { 5, -5 }, { 5, 8 }, { 5, -8 },
		{ 5, 15 }, { 5, -15 }, { 10, 0 }, { 10, 5 }, { 10, -5 }, { 10, 10 }, { 10, -10 },
		{ 10, 15 }, { 10, -15 },
	};
	size_t nlabs = decided_labs(), aa = 0, aa_labs = 0;

	load_pool(file);
	for (size_t i = 0; i < ARRAY_SIZE(set); i++) {
		struct decided s = { .margin = set[i].margin, .effect = 1 + set[i].effect / 100 };

		simulate_decided(&s, nlabs, 2017 + i);
		print_decided(file, &s);
		assert_true(s.false_diff * 20 <= s.labs);  /* at most 5 % */
		assert_true(s.false_eq * 20 <= s.labs);
		aa += s.aa_alarm;
		aa_labs += s.labs;
		if (getenv("FSLAB_RELABEL_LABS") &&
		    (set[i].effect == 0 || fabs(set[i].effect) == set[i].margin)) {
			struct decided naive = s;

			memset(&naive, 0, sizeof(naive));
			naive.margin = s.margin;
			naive.effect = s.effect;
			naive.naive = true;
			simulate_decided(&naive, nlabs, 2017 + i);
			print_decided(file, &naive);
		}
	}
	print_message("%s: the A/A alarm over all %zu labs: %.1f %% (the report says %s)\n", file,
		      aa_labs, 100.0 * aa / aa_labs, COMPARE_AA_CHANCE);
	assert_true(100.0 * aa / aa_labs >= COMPARE_AA_CHANCE_LO);
	assert_true(100.0 * aa / aa_labs <= COMPARE_AA_CHANCE_HI);
}

/* Every test on each pool, under its own name. */
#define POOL_TESTS(tag, file)								\
	static void test_pool_##tag(void **state) { (void)state; check_pool(file); }	\
	static void test_false_claims_##tag(void **state)				\
	{ (void)state; false_claims(file); }						\
	static void test_power_##tag(void **state) { (void)state; power(file); }	\
	static void test_decided_##tag(void **state) { (void)state; decided(file); }
POOL_TESTS(loaded, "noise-pool.csv")
POOL_TESTS(quiet, "noise-pool-quiet.csv")

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_loaded),
		cmocka_unit_test(test_false_claims_loaded),
		cmocka_unit_test(test_power_loaded),
		cmocka_unit_test(test_decided_loaded),
		cmocka_unit_test(test_pool_quiet),
		cmocka_unit_test(test_false_claims_quiet),
		cmocka_unit_test(test_power_quiet),
		cmocka_unit_test(test_decided_quiet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
