// SPDX-License-Identifier: MIT
/* cli.c: the options of `fslab run` into its state: the table's values (run/options.c), how
 * they go together, the defaults derived from other options. */
#include <string.h>
#include <unistd.h>

#include "run/options.h"
#include "run/runP.h"
#include "util.h"

/* The verdict options after parsing: forms that contradict each other are refused. */
static int check_verdict_args(struct run_state *s)
{
	struct verdict_cfg *vc = &s->vc;

	if (vc->first && strcmp(s->o.workload, "jetstress"))
		return input_error("--%s: only the jetstress workload has a verdict; drop it or use "
				   "--workload jetstress", vc->first);
	if (vc->target_iops > 0 && (vc->mailboxes || vc->iops_per_mailbox > 0))
		return input_error("--target-iops and --mailboxes/--iops-per-mailbox both set a "
				   "target; give either --target-iops N or --mailboxes M "
				   "--iops-per-mailbox F");
	if (vc->mailboxes && !(vc->iops_per_mailbox > 0))
		return input_error("--mailboxes %u needs --iops-per-mailbox F (transactional IOPS "
				   "per mailbox from your Exchange sizing, e.g. 0.06): the target is "
				   "M x F; or give --target-iops N", vc->mailboxes);
	if (vc->iops_per_mailbox > 0 && !vc->mailboxes)
		return input_error("--iops-per-mailbox %g needs --mailboxes M: the target is M x F; "
				   "or give --target-iops N", vc->iops_per_mailbox);
	if (vc->mailboxes)
		vc->target_iops = js_target_from_mailboxes(vc->mailboxes, vc->iops_per_mailbox);
	return 0;
}

int run_parse_args(struct run_state *s, int argc, char **argv)
{
	struct run_params *p = &s->p;
	struct run_opts *o = &s->o;
	struct verdict_cfg *vc = &s->vc;
	int ret;

	run_params_init(p);
	ret = run_params_parse_argv(p, argc, argv);
	if (ret)
		return ret;
	/* the values stay p's; o and vc borrow them */
	o->workload = p->workload;
	o->engine = p->engine;
	o->label = p->label;
	o->output = p->output;
	o->db_dirs = p->db_dirs;
	o->ndb_dirs = p->ndb_dirs;
	o->log_dirs = p->log_dirs;
	o->nlog_dirs = p->nlog_dirs;
	o->threads = (unsigned int)p->threads;
	o->databases = (unsigned int)p->databases;
	o->iodepth = (unsigned int)p->iodepth;
	o->compressibility = (unsigned int)p->compressibility;
	o->rwmixread = (unsigned int)p->rwmixread;
	o->db_size = p->db_size;
	o->bs = p->bs;
	o->cache_size = p->cache_size;
	o->seed = p->seed;
	o->duration_ns = p->duration_ns;
	o->warmup_ns = p->warmup_ns;
	o->bdm_mbps = p->bdm_mbps;
	o->direct = !p->buffered;
	o->checksum_pass = !p->no_checksum_pass;
	o->verify_reads = !p->no_verify;
	s->drop_caches = os_is_admin() && !p->no_drop_caches;
	s->quiet = p->quiet;
	s->force = p->force;
	s->progress_fd = run_params_given(p, RO_PROGRESS_FD) ? (int)p->progress_fd : -1;
	vc->interval_s = (unsigned int)(p->sample_interval_ns / NSEC_PER_SEC);
	vc->th = js_thresholds_find(p->thresholds);
	vc->max_latency_errors = (unsigned int)p->max_latency_errors;
	vc->strict_io_tail = p->strict_io_tail;
	vc->target_iops = p->target_iops;
	vc->mailboxes = (unsigned int)p->mailboxes;
	vc->iops_per_mailbox = p->iops_per_mailbox;
	vc->first = p->first_verdict >= 0 ? run_options[p->first_verdict].name : NULL;

	s->wl = workload_find(o->workload);
	if (check_verdict_args(s))
		return -FSLAB_EINPUT;
	if (!o->ndb_dirs)
		return input_error("no --db directory given; name the database directory with "
				   "--db DIR");
	if (s->wl->needs_log && !o->nlog_dirs)
		return input_error("no --log directory given; the %s workload needs one (--log DIR), "
				   "ideally on a separate volume", o->workload);
	if (o->label && label_problem(o->label)) {
		bool shown = strnlen(o->label, 65) <= 64 &&
			     strspn(o->label, " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~") == strlen(o->label);

		/* the same rule as compare's (util.c), which refuses results with other labels */
		return input_error("--label '%s': %s; use 1-64 letters, digits, '.', '_', '+' or '-', "
				   "starting with a letter or a digit (it names files in reports)",
				   shown ? o->label : "(not shown: too long or control characters)",
				   label_problem(o->label));
	}
	if (!run_params_given(p, RO_WARMUP))
		o->warmup_ns = MIN(o->duration_ns / 20, 60 * NSEC_PER_SEC);
	/*
	 * A cache as large as the database turns every read into a hit after the warm-up: the
	 * read:write mix is no longer Exchange's (measured: 1.65 -> 0.92).  Refused rather than
	 * clamped, so that the result always records the cache the user asked for.
	 */
	if (o->cache_size > o->db_size)
		return input_error("--cache %s is larger than each database (--db-size %s); ESE's "
				   "cache is a small fraction of the database (the default is 1 %%, "
				   "at most 256M): give a smaller --cache or leave it out",
				   fmt_size((char[32]){ 0 }, 32, o->cache_size),
				   fmt_size((char[32]){ 0 }, 32, o->db_size));
	if (!o->cache_size)
		o->cache_size = MIN(o->db_size / 100, 256 * MiB);
	return p->start_at ? run_start_at_check(s) : 0;
}
