// SPDX-License-Identifier: MIT
/* cli.c: the options of `fslab run` into its state: the table's values (run/options.c) in the
 * run's config (the result's, result.h), how they go together, the defaults derived from
 * other options. */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "run/options.h"
#include "run/provenance.h"
#include "run/runP.h"
#include "engine/steady.h"
#include "lib/units.h"
#include "workloads/jetstress.h"

/* The verdict options after parsing: forms that contradict each other are refused. */
static int check_verdict_args(struct run_state *s)
{
	struct run_config *c = s->p.c;
	const char *first = s->p.first_verdict >= 0 ? run_options[s->p.first_verdict].name : NULL;

	if (first && !(s->wl->flags & WL_VERDICT))
		return input_error("--%s: only the %s workload has a verdict; drop it or use "
				   "--workload %s", first, workload_names_with(WL_VERDICT),
				   workload_names_with(WL_VERDICT));
	if (run_params_given(&s->p, RO_RECOVERY_LOGS) && !(s->wl->flags & WL_REPLAY))
		return input_error("--recovery-logs: only the %s workload replays log files; drop it "
				   "or use --workload %s", workload_names_with(WL_REPLAY),
				   workload_names_with(WL_REPLAY));
	if (c->target_iops > 0 && (c->mailboxes || c->iops_per_mailbox > 0))
		return input_error("--target-iops and --mailboxes/--iops-per-mailbox both set a "
				   "target; give either --target-iops N or --mailboxes M "
				   "--iops-per-mailbox F");
	if (c->mailboxes && !(c->iops_per_mailbox > 0))
		return input_error("--mailboxes %u needs --iops-per-mailbox F (transactional IOPS "
				   "per mailbox from your Exchange sizing, e.g. 0.06): the target is "
				   "M x F; or give --target-iops N", c->mailboxes);
	if (c->iops_per_mailbox > 0 && !c->mailboxes)
		return input_error("--iops-per-mailbox %g needs --mailboxes M: the target is M x F; "
				   "or give --target-iops N", c->iops_per_mailbox);
	if (c->mailboxes)
		c->target_iops = js_target_from_mailboxes(c->mailboxes, c->iops_per_mailbox);
	if (c->target_iops > 0)
		c->target_iops_origin = xstrdup(c->mailboxes ? "mailboxes" : "target-iops");
	return 0;
}

/*
 * The steady-state options after parsing: the cap's default (SNIA's 25 rounds), a cap that
 * can hold a window, and what a steady stage cannot go with.
 */
static int check_steady_args(struct run_state *s)
{
	struct run_config *c = s->p.c;
	struct steady_rule r;
	bool stage = c->warmup_steady || c->precondition;
	const char *what = c->warmup_steady ? "--warmup steady" : "--precondition";

	steady_rule_of(c, &r);
	if (!run_params_given(&s->p, RO_STEADY_CAP))
		c->steady_cap_s = (double)STEADY_MAX_ROUNDS * r.interval_s;
	/* without a steady stage the cap decides nothing: not recorded, never compared */
	if (!stage)
		run_config_set_na(c, offsetof(struct run_config, steady_cap_s));
	if (stage && c->steady_cap_s < steady_rule_span_s(&r))
		return input_error("--steady-cap %gs is shorter than one steady-state window (%u x "
				   "%us = %gs): the rule could never hold; give a longer --steady-cap "
				   "or a shorter window", c->steady_cap_s, r.window, r.interval_s,
				   steady_rule_span_s(&r));
	if (stage && (s->wl->flags & WL_FINITE))
		return input_error("%s: the %s workload reads everything once, measured from its "
				   "first page; drop %s", what, c->workload, what);
	/* each host would end its stage at its own time and measure at another */
	if (stage && c->start_at)
		return input_error("%s with --start-at: a steady-state stage ends at its own time "
				   "on each host, so the hosts would not measure together; give a "
				   "fixed --warmup (and precondition the volumes beforehand)", what);
	return 0;
}

/*
 * --threads auto: what can be tuned, the caps a step can be judged within, the count it
 * starts at (the fewest); without it none of the tuner's settings is recorded.
 */
static int check_tune_args(struct run_state *s)
{
	struct run_config *c = s->p.c;
	unsigned int min = (s->wl->flags & WL_THREAD_PER_DB) ? MAX(c->databases, 1u) : 1;
	double step_min = c->tune_window * c->tune_interval_s + c->tune_judge_s;

	if (!c->threads_auto) {
		for (size_t i = 0; i < RO_NR; i++)
			if ((run_options[i].flags & ROF_TUNE) && run_params_given(&s->p, i))
				return input_error("--%s: only --threads auto tunes; give --threads "
						   "auto or drop it", run_options[i].name);
		run_config_set_untuned(c);
		return 0;
	}
	/* the tuner holds each step to the verdict's limits and changes the load's threads */
	if (!(s->wl->flags & WL_VERDICT) || !s->wl->set_threads)
		return input_error("--threads auto: only the %s workload can be tuned (its steps are "
				   "held to the verdict's limits); give a thread count",
				   workload_names_with(WL_VERDICT));
	if (c->start_at)
		return input_error("--threads auto with --start-at: each host would tune to its own "
				   "count and end its search at its own time; tune one host, then give "
				   "the count it chose (--threads N) to all");
	if (c->tune_max_threads < min)
		return input_error("--tune-max-threads %u is less than the fewest threads this load "
				   "can run (%u: one per database); raise it", c->tune_max_threads,
				   min);
	if (c->tune_step_cap_s < step_min)
		return input_error("--tune-step-cap %gs cannot hold one step: its window (%u x %gs) "
				   "and its judgement (%gs) take %gs; give a longer --tune-step-cap or "
				   "a shorter --tune-window or --tune-judge", c->tune_step_cap_s,
				   c->tune_window, c->tune_interval_s, c->tune_judge_s, step_min);
	c->threads = min;
	return 0;
}

/*
 * What the config records of options that do not apply: the workload's own (its config
 * hook), then what its flags rule out (no verdict, no databases).
 */
static void normalise(struct run_state *s)
{
	struct run_config *c = &s->res.config;
	struct wl_given given = {
		.iodepth = !!(s->p.given & (UINT64_C(1) << RO_IODEPTH)),
	};

	s->wl->config(c, &given);
	if (!(s->wl->flags & WL_DATABASES))
		c->databases = 0;
	if (!(s->wl->flags & WL_REPLAY))
		run_config_set_na(c, offsetof(struct run_config, recovery_logs));
	if (!(s->wl->flags & WL_VERDICT)) {
		c->sample_interval_s = 0;
		free(c->thresholds);
		c->thresholds = NULL;
		c->max_latency_errors = 0;
		c->strict_io_tail = false;
	}
}

int run_parse_args(struct run_state *s, int argc, char **argv)
{
	int ret;

	run_params_init(&s->p, &s->res.config);
	ret = run_params_parse_argv(&s->p, argc, argv);
	return ret ? ret : run_check_args(s);
}

int run_check_args(struct run_state *s)
{
	struct run_params *p = &s->p;
	struct run_config *c = &s->res.config;

	s->drop_caches = os_is_admin() && !c->no_drop_caches;
	s->progress_fd = run_params_given(p, RO_PROGRESS_FD) ? (int)c->progress_fd : -1;
	/* I/Os above the threshold set's maximum are counted for every workload (information) */
	s->th = js_thresholds_find(c->thresholds);

	s->wl = workload_find(c->workload);
	if (check_verdict_args(s) || run_lab_check(p))
		return -FSLAB_EINPUT;
	if (!c->ndb_dirs)
		return input_error("no --db directory given; name the database directory with "
				   "--db DIR");
	if ((s->wl->flags & WL_LOG) && !c->nlog_dirs)
		return input_error("no --log directory given; the %s workload needs one (--log DIR), "
				   "ideally on a separate volume", c->workload);
	if (c->label && label_problem(c->label)) {
		bool shown = strnlen(c->label, 65) <= 64 &&
			     strspn(c->label, " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~") == strlen(c->label);

		/* the same rule as compare's (util.c), which refuses results with other labels */
		return input_error("--label '%s': %s; use 1-64 letters, digits, '.', '_', '+' or '-', "
				   "starting with a letter or a digit (it names files in reports)",
				   shown ? c->label : "(not shown: too long or control characters)",
				   label_problem(c->label));
	}
	/* said rather than silently ignored (the config records the size the workload uses) */
	if ((s->wl->flags & WL_PAGES) && run_params_given(p, RO_BS))
		fslab_warn("--bs %s does not apply to the %s workload: its I/O is in its own "
			   "sizes of 32 KiB database pages", p->text[RO_BS], c->workload);
	if (!run_params_given(p, RO_WARMUP))
		c->warmup_s = (double)MIN(run_config_ns(c->duration_s) / 20, 60 * NSEC_PER_SEC) /
			      NSEC_PER_SEC;
	/*
	 * A cache as large as the database turns every read into a hit after the warm-up: the
	 * read:write mix is no longer Exchange's (measured: 1.65 -> 0.92).  Refused rather than
	 * clamped, so that the result always records the cache the user asked for.
	 */
	if (c->cache_size > c->db_size)
		return input_error("--cache %s is larger than each database (--db-size %s); ESE's "
				   "cache is a small fraction of the database (fslab run --help gives the "
				   "default): give a smaller --cache or leave it out",
				   fmt_size((char[32]){ 0 }, 32, c->cache_size),
				   fmt_size((char[32]){ 0 }, 32, c->db_size));
	normalise(s);
	if (check_steady_args(s) || check_tune_args(s))
		return -FSLAB_EINPUT;
	return c->start_at ? run_start_at_check(s) : 0;
}
