// SPDX-License-Identifier: MIT
/*
 * labcheck.c: the lab config's checks after the whole file was read (labcfgP.h
 * lab_cfg_check()): sections that must be there, the rules of the system the steps run on
 * (its devices: system.h), volumes the user prepared, hosts, adaptive labs, workload keys
 * that go together.  Every problem names file:line.
 */
#include <stdlib.h>
#include <string.h>

#include "fsprep/prep.h"
#include "lab/labcfgP.h"
#include "lib/base.h"
#include "workloads/workload.h"

/* The other system whose drive-letter path d is, when the steps run on sys, a system without
 * drive letters (there it would become a strange relative directory name); else NULL. */
static const struct lab_system *drive_system(const struct lab_system *sys, const char *d)
{
	if (sys->flags & SYS_DRIVES)
		return NULL;
	for (size_t i = 0; lab_systems[i]; i++)
		if ((lab_systems[i]->flags & SYS_DRIVES) && lab_systems[i]->absolute(d))
			return lab_systems[i];
	return NULL;
}

/* An [fs] section on volumes the user prepared (db_dir, log_dir). */
static void check_prepared(struct parse *p, struct lab_fs *f)
{

	if (!f->db_dirs.nr)
		lab_perr(p, f->log_dir_line, "[fs %s]: log_dir without db_dir: give the database "
		     "directory too (db_dir = ..., a line per directory)", f->name);
	if (!f->log_dirs.nr && (workload_flags(p->cfg->wl.workload) & WL_LOG))
		lab_perr(p, f->db_dir_line, "[fs %s]: db_dir without log_dir: the %s workload writes a "
		     "log; give log_dir = ..., ideally on a volume of its own", f->name,
		     p->cfg->wl.workload);
	/* a Windows folder in a config read for Linux steps would become a strange relative
	 * directory name here: say which fslab it is for */
	for (size_t k = 0; k < f->db_dirs.nr + f->log_dirs.nr; k++) {
		const char *d = k < f->db_dirs.nr ? f->db_dirs.v[k] : f->log_dirs.v[k - f->db_dirs.nr];
		const struct lab_system *s = drive_system(p->cfg->sys, d);

		if (s) {
			lab_perr(p, k < f->db_dirs.nr ? f->db_dir_line : f->log_dir_line, "[fs %s]: %s is "
			     "a %s folder: run this lab with %s lab on %s, or give a directory of this "
			     "machine", f->name, d, s->title, s->fslab, s->title);
			break;
		}
	}
	if (f->mkfs_opts || f->mount_opts || f->cluster)
		lab_perr(p, f->format_line, "[fs %s]: %s with db_dir/log_dir: the lab does not format "
		     "or mount volumes you prepared; drop it (or drop db_dir/log_dir and let the "
		     "lab prep the devices)", f->name, f->mkfs_opts ? "mkfs_opts" : f->mount_opts
		     ? "mount_opts" : "cluster");
	/* fs = NAME says what the volumes hold (the preflight checks it); else no claim */
	if (!f->fs)
		f->fs = xstrdup("prepared");
}

/* A problem found by a check of another file (hosts, systems): at its line, else here. */
static void host_problem(void *ctx, int line, const char *text)
{
	struct parse *p = ctx;

	lab_perr(p, line ? line : p->line, "%s", text);
}

/* An [fs] section the lab preps, for the system the steps run on: one its prep makes. */
static void check_prepped_fs(struct parse *p, struct lab_fs *f)
{
	const struct fs_desc *d;

	if (f->allow_foreign_files)
		lab_perr(p, f->line, "[fs %s]: allow_foreign_files goes with db_dir/log_dir (volumes you "
		     "prepared); the lab's own volumes hold nothing else: drop it", f->name);
	if (!f->fs)
		f->fs = xstrdup(f->name);
	d = fs_find(f->fs);
	/* one its prep makes, with the options its prep takes: the system's rules */
	p->cfg->sys->check_fs(f, d, host_problem, p);
}

/*
 * An adaptive lab: precision decides the rounds (repeats would contradict it), budget and the
 * round bounds only mean something with it, and only rounds can be looked at between.
 */
static void check_adaptive(struct parse *p)
{
	struct lab_cfg *c = p->cfg;
	const int line = MAX(c->budget_line, MAX(c->min_rounds_line, c->max_rounds_line));

	const int what = c->stop == LAB_STOP_DECIDED ? c->stop_line : c->precision_line;

	if (!c->precision_line && c->stop != LAB_STOP_DECIDED) {
		lab_perr(p, MAX(line, c->stop_line), "budget, min_rounds, max_rounds and stop belong to "
		     "an adaptive lab: add precision = 10%% (say) or stop = decided, or use repeats "
		     "for a fixed number of rounds");
		return;
	}
	c->adaptive = true;
	if (c->repeats_line)
		lab_perr(p, MAX(c->repeats_line, what), "give either repeats (a fixed number of rounds) "
		     "or %s, not both", c->stop == LAB_STOP_DECIDED ? "stop = decided (rounds until "
		     "every claim is decided)" : "precision (rounds until every claim is that "
		     "precise)");
	if (c->order == LAB_ORDER_SEQUENTIAL)
		lab_perr(p, what, "%s needs rounds to look at: order = shuffled (the default) or "
		     "interleaved, not sequential", c->stop == LAB_STOP_DECIDED ? "stop = decided" :
		     "precision");
	if (c->stop == LAB_STOP_DECIDED && c->equivalence < 0)
		lab_perr(p, c->equivalence_line, "stop = decided needs an equivalence margin to decide "
		     "that labels are equivalent: give equivalence = 5%% (say), or stop = precision");
	if (!c->min_rounds)
		c->min_rounds = LAB_MIN_ROUNDS_DEFAULT;
	if (!c->max_rounds)
		c->max_rounds = MAX(LAB_MAX_ROUNDS_DEFAULT, c->min_rounds);
	if (c->min_rounds > c->max_rounds)
		lab_perr(p, MAX(c->min_rounds_line, c->max_rounds_line), "min_rounds %u is more than "
		     "max_rounds %u; give min_rounds <= max_rounds", c->min_rounds, c->max_rounds);
	c->repeats = c->max_rounds; /* the cells of every round it may run */
}


/*
 * A lab with [host] sections runs its steps on the hosts: their system decides which [fs]
 * the preps make (ntfs, refs on Windows).  One system for all: a cell is one filesystem
 * prepared the same way on every host, and Linux and Windows preps make different ones.
 */
static void check_hosts_system(struct parse *p)
{
	struct lab_cfg *c = p->cfg;
	const struct lab_system *other = NULL; /* a system not the default's */
	size_t nother = 0;

	for (size_t i = 0; i < c->hosts.n; i++)
		if (lab_host_sys(&c->hosts.v[i]) != lab_systems[0]) {
			other = other ? other : lab_host_sys(&c->hosts.v[i]);
			nother++;
		}
	if (nother && nother < c->hosts.n)
		lab_perr(p, c->hosts.v[0].line, "[host] sections of %s and %s hosts in one lab: a cell "
		     "is one filesystem prepared the same way on every host, which %s and %s preps "
		     "cannot be; give os = %s to all or none (a lab each)", lab_systems[0]->title,
		     other->title, lab_systems[0]->title, other->title, other->name);
	c->sys = nother == c->hosts.n ? other : lab_systems[0];
	if (other && !(other->flags & SYS_RAW) && c->raw_baseline)
		lab_perr(p, p->line, "raw_baseline: the raw-device baseline runs on Linux block devices; "
		     "set raw_baseline = no for a lab of %s hosts", other->title);
}

/* Sections, filesystems, devices, hosts and the workload keys a lab of hosts refuses. */
static void check_sections(struct parse *p)
{
	struct lab_cfg *c = p->cfg;

	if (!c->nfs)
		lab_perr(p, p->line, "no [fs NAME] section: name at least one filesystem, e.g. [fs ext4]");
	if (c->hosts.n)
		check_hosts_system(p);
	for (int i = 0; i < c->nfs; i++) {
		struct lab_fs *f = &c->fs[i];

		if (f->prepared && c->hosts.n)
			lab_perr(p, f->db_dir_line ? f->db_dir_line : f->log_dir_line, "[fs %s]: db_dir/"
			     "log_dir (volumes you prepared) in a lab with [host] sections: each host "
			     "preps its own devices for every cell; drop db_dir/log_dir, or run such "
			     "labels on each host with its own lab", f->name);
		else if (f->prepared)
			check_prepared(p, f);
		else
			check_prepped_fs(p, f);
	}
	if (c->hosts.n)
		lab_hosts_check(&c->hosts, c, host_problem, p); /* each host's devices */
	else
		c->sys->check_devices(c, p->seen_devices, host_problem, p);
	if (!p->seen_workload)
		lab_perr(p, p->line, "no [workload] section: give at least duration and db_size");
	/* the hosts start together (--start-at); a steady-state stage ends on each at its own
	 * time, so they would not measure together */
	if (c->hosts.n && (c->wl.warmup_steady || c->wl.precondition))
		lab_perr(p, c->wl.warmup_steady ? c->wl_line[RO_WARMUP] : c->wl_line[RO_PRECONDITION],
		     "%s in a lab with [host] sections: a steady-state stage ends at its own time on "
		     "each host, so the hosts would not measure together; give a fixed warmup",
		     c->wl.warmup_steady ? "warmup = steady" : "precondition");
	for (size_t i = 0; i < RO_NR && !c->wl.threads_auto; i++)
		if ((run_options[i].flags & ROF_TUNE) && c->wl_line[i])
			lab_perr(p, c->wl_line[i], "%s: only threads = auto tunes; give threads = auto "
			     "or drop it", run_options[i].ini);
	/* each host would choose its own count and end its search at its own time */
	if (c->hosts.n && c->wl.threads_auto)
		lab_perr(p, c->wl_line[RO_THREADS], "threads = auto in a lab with [host] sections: each "
		     "host would tune to its own count and the hosts would not measure together; "
		     "tune one host with fslab run --threads auto, then give the count it chose");
}

/* Keys that go together: baseline, cache, mailboxes, verdict keys, the A/A label, the
 * adaptive keys, image sizes. */
static void check_keys(struct parse *p)
{
	struct lab_cfg *c = p->cfg;

	if (c->baseline && !lab_fs_section(p, c->baseline) &&
	    !(c->raw_baseline && !strncmp(c->baseline, "raw", 3))) {
		bool label_ok = false;

		/* a sweep's labels are NAME-Nt */
		for (int i = 0; i < c->nfs && !label_ok; i++)
			label_ok = !strncmp(c->baseline, c->fs[i].name, strlen(c->fs[i].name));
		if (!label_ok)
			lab_perr(p, p->line, "baseline = '%s' names no [fs ...] section", c->baseline);
	}
	if (c->wl.cache_size > c->wl.db_size)
		lab_perr(p, c->wl_line[RO_CACHE], "cache is larger than each database (db_size); ESE's "
		     "cache is a small fraction of the database (fslab run --help gives the "
		     "default): give a smaller cache or leave it out");
	if (c->wl_line[RO_MAILBOXES] && !c->wl_line[RO_IOPS_PER_MAILBOX])
		lab_perr(p, c->wl_line[RO_MAILBOXES], "mailboxes without iops_per_mailbox: give both (the "
		     "target is their product) or neither");
	else if (c->wl_line[RO_IOPS_PER_MAILBOX] && !c->wl_line[RO_MAILBOXES])
		lab_perr(p, c->wl_line[RO_IOPS_PER_MAILBOX], "iops_per_mailbox without mailboxes: give both (the "
		     "target is their product) or neither");
	if (c->wl_line[RO_TARGET_IOPS] && (c->wl_line[RO_MAILBOXES] ||
					    c->wl_line[RO_IOPS_PER_MAILBOX]))
		lab_perr(p, MAX(c->wl_line[RO_TARGET_IOPS], MAX(c->wl_line[RO_MAILBOXES],
							  c->wl_line[RO_IOPS_PER_MAILBOX])),
		     "give either target_iops or mailboxes with iops_per_mailbox, not both");
	if (c->run.first_verdict >= 0 && !(workload_flags(c->wl.workload) & WL_VERDICT))
		lab_perr(p, c->wl_line[c->run.first_verdict], "%s: only the %s workload has a "
		     "verdict; drop it or set name = %s", run_options[c->run.first_verdict].ini,
		     workload_names_with(WL_VERDICT), workload_names_with(WL_VERDICT));
	if (c->aa_check && c->nfs) {
		int b = lab_cfg_baseline_fs(c);
		const char *name = b < 0 ? "raw" : c->fs[b].name;

		for (int i = 0; i < c->nfs; i++)
			if (strlen(c->fs[i].name) == strlen(name) + 3 &&
			    !strncmp(c->fs[i].name, name, strlen(name)) &&
			    !strcmp(c->fs[i].name + strlen(name), "-aa"))
				lab_perr(p, c->fs[i].line, "[fs %s]: with aa_check = yes, %s is the label of "
				     "the A/A copy of %s; rename this section or set aa_check = no",
				     c->fs[i].name, c->fs[i].name, name);
	}
	if (c->precision_line || c->budget_line || c->min_rounds_line || c->max_rounds_line ||
	    c->stop_line)
		check_adaptive(p);
	if (c->image_dir && c->db_image_size &&
	    c->db_image_size < sat_add(sat_mul(c->wl.databases, c->wl.db_size), 64 * MiB))
		lab_perr(p, c->devices_line, "[devices] db_size %llu MiB cannot hold %u database(s) of "
		     "%llu MiB plus filesystem overhead; raise it to at least %llu MiB",
		     (unsigned long long)(c->db_image_size / MiB), (unsigned int)c->wl.databases,
		     (unsigned long long)(c->wl.db_size / MiB),
		     (unsigned long long)(sat_add(sat_mul(c->wl.databases, c->wl.db_size) / 10 * 11,
					      256 * MiB) / MiB));
}

void lab_cfg_check(struct parse *p)
{
	check_sections(p);
	check_keys(p);
}
