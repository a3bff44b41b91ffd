/* SPDX-License-Identifier: MIT */
/*
 * hosts.h: the lab's hosts: the [host NAME] sections of a lab config (hostcfg.c) and what
 * the lab does with them over OpenSSH (hosts.c): the ssh argv of a step, one reused
 * connection per host, the preflight (reachable in BatchMode, the same fslab everywhere,
 * arguments arriving as data), clock offsets, start times, fetching results with their
 * sha256.  docs/HOSTS.md is the user's side of it.
 *
 * What the lab's cell loop calls (src/lab/cluster.c; the step runner, step.h, spawns what
 * hosts_step_argv() gives for a host's target, as it spawns `fslab ARGS` on this machine):
 *	hosts_session_init()                 once, before the first cell
 *	hosts_preflight()                    connect, hello, clocks: refuse before any cell
 *	hosts_remote_path()                  each host's mount root and result path
 *	hosts_step_argv(prep/run/teardown)   one per host and step, all hosts at once
 *	hosts_start_times()                  the --start-at of each host's run
 *	hosts_fetch()                        each host's result, sha256 checked
 *	merge_results()                      (src/merge) the cell's cluster result
 *	hosts_session_end()                  after the last cell (and on every exit)
 */
#ifndef FSLAB_LAB_HOSTS_H
#define FSLAB_LAB_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/system.h"
#include "lib/sha256.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

struct lab_cfg;

/* Clock disagreement the lab accepts by default ([lab] clock_limit): docs/HOSTS.md "Clocks". */
#define HOSTS_CLOCK_LIMIT_S 0.5
/* Hosts a lab takes (one connection, one process per step each). */
#define HOSTS_MAX 256
/* Keepalives: a dead host or link is noticed after ServerAliveInterval x (CountMax + 1)
 * seconds of silence at most: 2 x 4 = 8 s, under the 10 s the lab promises. */
#define HOSTS_ALIVE_INTERVAL 2
#define HOSTS_ALIVE_COUNT 3
#define HOSTS_CONNECT_TIMEOUT 10
/* ssh's own exit status: the connection failed, or ended (then hosts_connected() says
 * whether the host can still be reached) */
#define HOSTS_SSH_FAILED 255

/* One [host NAME] section. */
struct lab_host {
	char *name;       /* NAME: 1-32 characters of the label rule (it names result files) */
	char *ssh;        /* ssh destination as written (~/.ssh/config aliases work), or
			     "local": this machine, the lab's own binary, no ssh (lab_host_local()) */
	char *fslab;      /* the fslab binary there; NULL: "fslab" (Linux), "fslab.exe" (Windows) */
	/* os = NAME: its system (system.h), linux or windows (fslab.exe behind Windows'
	 * OpenSSH); NULL: the default, lab_systems[0] (lab_host_sys()) */
	const struct lab_system *sys;
	char *workdir;    /* where the host keeps its mount root and results; NULL: the default
			     (hosts_workdir()) */
	/* [devices] keys of this host, NULL / 0 when the [devices] section's apply */
	char *image_dir, *db_dev, *log_dev;
	uint64_t db_image_size, log_image_size;
	int line;         /* of the section header */
};

struct lab_hosts {
	size_t n;
	struct lab_host *v;
	char *ssh_config;      /* [lab] ssh_config: passed as -F FILE to every ssh */
	double clock_limit_s;  /* [lab] clock_limit, seconds */
	int ssh_config_line, clock_limit_line;
};

/* ---- the config (hostcfg.c): pure, used by labcfg.c's parser ---- */

void lab_hosts_init(struct lab_hosts *h);
void lab_hosts_release(struct lab_hosts *h);
/*
 * lab_hosts_section - a [host NAME] header at line: the host added (or found again).
 * lab_hosts_key - key = value in [host NAME].
 * lab_hosts_lab_key - a [lab] key of the hosts' (ssh_config, clock_limit): 1 when key is
 * one of them, 0 when it is not (the caller's then).
 * Each returns 0 (or 1) or -EINVAL with what to fix in err.
 */
int lab_hosts_section(struct lab_hosts *h, const char *name, int line, struct strbuf *err);
int lab_hosts_key(struct lab_hosts *h, const char *name, const char *key, const char *value,
		  struct strbuf *err);
int lab_hosts_lab_key(struct lab_hosts *h, const char *key, const char *value, int line,
		      struct strbuf *err);
/* Keys of [host NAME], for messages. */
extern const char *const lab_host_keys;
/*
 * lab_hosts_check - after the whole file: each host complete (ssh given; devices whole with
 * the [devices] section's: image_dir, or db_dev and log_dev; a Windows host's are disk
 * numbers), problem(ctx, line, text) called for each problem.  Returns their number.
 */
unsigned int lab_hosts_check(const struct lab_hosts *h, const struct lab_cfg *c,
			     void (*problem)(void *ctx, int line, const char *text), void *ctx);
/* Host h's system: os = NAME, else the first of lab_systems[]. */
const struct lab_system *lab_host_sys(const struct lab_host *h);
/* ssh = local: this machine itself. */
bool lab_host_local(const struct lab_host *h);
/* The fslab binary there: fslab = PATH, else "fslab" or "fslab.exe". */
const char *lab_host_fslab(const struct lab_host *h);
/* What a host's prep uses: its own [devices] key, else the [devices] section's. */
const char *lab_host_image_dir(const struct lab_host *h, const struct lab_cfg *c);
const char *lab_host_db_dev(const struct lab_host *h, const struct lab_cfg *c);
const char *lab_host_log_dev(const struct lab_host *h, const struct lab_cfg *c);
uint64_t lab_host_db_image_size(const struct lab_host *h, const struct lab_cfg *c);
uint64_t lab_host_log_image_size(const struct lab_host *h, const struct lab_cfg *c);

/* ---- a lab's hosts at work: argv (hosts_argv.c, both systems), the rest (hosts.c) ---- */

/* What the preflight found out about a host. */
struct host_state {
	bool reached;          /* connected (or local) */
	bool hello;            /* answered fslab hello with the arguments unchanged */
	char *version, *git, *os, *hostname; /* its fslab hello */
	bool clock;            /* offset measured */
	double offset_s;       /* its clock minus the controller's */
	double rtt_s;          /* round trip of the best sample */
	unsigned int samples;
	char *problem;         /* the first problem found, or NULL */
};

struct hosts_session {
	const struct lab_hosts *cfg;
	const char *self;      /* this fslab binary (local hosts run it) */
	char *ctl_dir;         /* private directory of the ssh connection sockets */
	char *lab_id;          /* 12 hex digits naming the lab on its hosts (hosts_lab_id()) */
	struct host_state *st; /* one per host */
};

/*
 * hosts_lab_id - the lab's name on its hosts: the first 12 hex digits of the sha256 of
 * "<this machine's hostname>:<the output directory, absolute>", so that two labs (or two lab
 * machines) never share a host's directories, and a --resume finds them again.  Heap.
 */
char *hosts_lab_id(const char *out_dir);
/*
 * hosts_workdir - where host h keeps the lab's mount root (WORKDIR/mnt) and results
 * (WORKDIR/results): its workdir, else /var/tmp/fslab-lab-<ID>/<NAME> (Linux) or
 * C:\fslab-lab-<ID>\<NAME> (Windows).  Heap.
 */
char *hosts_workdir(const struct lab_host *h, const char *lab_id);
/* hosts_remote_path - WORKDIR + rel ('/'-separated) in the host's own syntax.  Heap. */
char *hosts_remote_path(const struct lab_host *h, const char *lab_id, const char *rel);

/* hosts_ssh_base - "ssh" and the options every ssh of the lab gets (-F, BatchMode, the
 * keepalives, ConnectTimeout, ControlPath in ctl_dir when given), appended to out. */
void hosts_ssh_base(const struct lab_hosts *cfg, const char *ctl_dir, struct strvec *out);
/*
 * hosts_ssh_argv - the ssh argv that runs remote_cmd (already quoted for the host's shell)
 * on host h: ssh [-F ssh_config] -o BatchMode=yes -o ServerAliveInterval=2
 * -o ServerAliveCountMax=3 -o ConnectTimeout=10 -o ControlMaster=no
 * -o ControlPath=CTL_DIR/%C -T -- DESTINATION REMOTE_CMD.  Host keys are checked as the
 * user's ssh configuration says (StrictHostKeyChecking is never set).  Pure: for tests.
 */
void hosts_ssh_argv(const struct lab_hosts *cfg, const struct lab_host *h, const char *ctl_dir,
		    const char *remote_cmd, struct strvec *out);
/*
 * hosts_remote_command - `fslab ARGS` as the command string for host h's shell: "exec
 * 'fslab' 'run' ..." for a POSIX shell, the cmd.exe line of argv_quote_cmd() for Windows.
 * 0, or -EINVAL with *why (an argument a Windows command line cannot carry).
 */
int hosts_remote_command(const struct lab_host *h, const char *const *args, struct strbuf *out,
			 const char **why);

/* hosts_session_init - a session for cfg: the private socket directory (mode 0700).  0 or
 * -errno after a message.  hosts_session_end() in every case (also after a failure). */
int hosts_session_init(struct hosts_session *s, const struct lab_hosts *cfg, const char *self,
		       const char *out_dir);
/* Close every connection (ssh -O exit) and remove the socket directory. */
void hosts_session_end(struct hosts_session *s);

/*
 * hosts_step_argv - the argv that runs `fslab ARGS` on host i: the ssh argv of
 * hosts_ssh_argv() over the session's connection, or for a local host the lab's own binary.
 * What the step runner spawns.  0, or -EINVAL with *why.
 */
int hosts_step_argv(const struct hosts_session *s, size_t i, const char *const *args,
		    struct strvec *out, const char **why);

/*
 * hosts_preflight - before any cell: every host connected (the reused connection: ssh -o
 * ControlMaster=yes -N -f, BatchMode, ConnectTimeout), `fslab hello` with probe words that must come back unchanged
 * (quoting and the remote shell), the same fslab version and git hash as this one, the clock
 * offset (samples round trips, the shortest kept) within clock_limit.  Every problem is
 * printed, naming the host and the fix.  0, or -FSLAB_EINPUT.
 */
int hosts_preflight(struct hosts_session *s, unsigned int samples);
/* The steps of the preflight, one host each (0 or -errno, st[i].problem set): */
int hosts_connect(struct hosts_session *s, size_t i);
int hosts_hello(struct hosts_session *s, size_t i);
int hosts_clock(struct hosts_session *s, size_t i, unsigned int samples);
/* Is host i's kept connection there (ssh -O check; a local host always is)? */
bool hosts_connected(const struct hosts_session *s, size_t i);

/* One clock sample: the controller's wall clock when it asked and the round trip (monotonic)
 * until the answer, and the host's wall clock in its answer. */
struct clock_sample {
	int64_t asked_ns, rtt_ns, remote_ns;
};
/* The latest time a host's clock may answer: 2200-01-01 UTC in ns since 1970 (utctime.h's
 * range; 64 bits hold the differences of such times). */
#define HOSTS_CLOCK_MAX_NS 7258118400000000000LL
/*
 * hosts_clock_best - the offset (remote - the controller's clock at the middle of the round
 * trip) of the sample with the shortest round trip, the first sample left out when there are
 * others (it includes the remote program's start).  -EINVAL without samples, -EPROTO when an
 * answer is not a time (before 1970 or after HOSTS_CLOCK_MAX_NS), before any arithmetic.
 */
int hosts_clock_best(const struct clock_sample *v, size_t n, double *offset_s, double *rtt_s);

/*
 * hosts_start_times - one start for every host's run: now + ahead_ns on the controller's
 * clock (*t_ns), as each host's own clock will read it (+ its offset), as --start-at text
 * (utctime.h) into starts (heap strings, one per host, caller frees).
 */
void hosts_start_times(const struct hosts_session *s, int64_t ahead_ns, int64_t *t_ns,
		       char **starts);

/*
 * hosts_fetch - host i's result file remote_path (fslab cat-result over the connection)
 * into local_path (written atomically), its sha256 (of the bytes received, equal to the one
 * the host sent) into hex.  Bytes beyond max_bytes, a torn stream or a hash that differs
 * fail it (nothing written).  0, or -errno after a message naming the host: on stderr, or
 * into msg when given; -ENOTCONN when the connection to the host ended meanwhile (the host
 * is lost: down, or its network cut), whatever the stream held by then.
 */
int hosts_fetch(struct hosts_session *s, size_t i, const char *remote_path,
		const char *local_path, uint64_t max_bytes, char hex[SHA256_HEX_LEN + 1],
		struct strbuf *msg);
/* The receiving side of fslab cat-result, from fd: 0, or -EPROTO/-EFBIG/-errno with the
 * reason in err (what hosts_fetch() checks; pure for tests). */
int hosts_receive_result(int fd, const char *local_path, uint64_t max_bytes,
			 char hex[SHA256_HEX_LEN + 1], struct strbuf *err);

#endif
