/* SPDX-License-Identifier: MIT */
/*
 * sequential.h: group-sequential boundaries for a lab that looks at its tests after every
 * round and stops once every claim is decided ([lab] stop = decided).  Looking at p-values
 * again and again inflates false claims unless the design pays for the looks: Lan and
 * DeMets's alpha spending (1983) with the O'Brien-Fleming-type function spends almost
 * nothing on the early looks and keeps nearly the whole level for the last one.
 * docs/COMPARE.md, "Deciding".
 */
#ifndef FSLAB_SEQUENTIAL_H
#define FSLAB_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * seq_spend_obf - the level spent by information fraction t (0..1) of a one-sided test of
 * total level a: 2 (1 - Phi(z(1 - a/2) / sqrt(t))) (Lan-DeMets, O'Brien-Fleming type; the
 * function of gsDesign's sfLDOF and of ldbounds): 0 at t = 0, a at t = 1.
 */
double seq_spend_obf(double a, double t);

/*
 * seq_bounds - the critical values z[0..k) of k looks at information levels info[0..k)
 * (increasing, any scale: rounds here) whose cumulative probabilities of crossing under the
 * null are spent[0..k) (non-decreasing).  sides 1: the look rejects when Z_j >= z_j; sides 2:
 * when |Z_j| >= z_j (spent counts both sides).  The statistics have the canonical joint
 * distribution (independent increments: cov(Z_i, Z_j) = sqrt(I_i / I_j)); the crossing
 * probabilities are integrated exactly on a grid (Armitage, McPherson and Rowe 1969; Jennison
 * and Turnbull 2000, ch. 19).  A look that spends nothing gets INFINITY.  0, or -EINVAL.
 */
int seq_bounds(const double *info, const double *spent, size_t k, int sides, double *z);

/*
 * A lab that stops when decided: it looks after every whole round from min_rounds on; the
 * information of a look after r rounds is r, its fraction r / max_rounds (the planned
 * maximum).  The look after `rounds` rounds is the one decided on; final: it is the lab's
 * last (the budget or max_rounds ends it, which the lab knows before it looks: it depends on
 * time, never on the data), and spends whatever is left.
 */
struct seq_plan {
	unsigned int min_rounds, max_rounds;
	unsigned int rounds;
	bool final;
};

/*
 * seq_nominal - the nominal p-value level at which the look `p->rounds` rejects, for a test
 * of total level a: sides 2, a two-sided test (a/2 spent per side); sides 1, a one-sided test
 * at a (each of TOST's two).  Memoised (a lab's looks and a simulation of many labs ask the
 * same few).  NAN when the plan is not one (rounds outside min_rounds..max_rounds).
 */
double seq_nominal(const struct seq_plan *p, double a, int sides);

#endif
