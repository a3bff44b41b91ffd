/* SPDX-License-Identifier: MIT */
/* hosts_procP.h: the processes of the hosts module (hosts_proc.c), for hosts.c only. */
#ifndef FSLAB_HOSTS_PROCP_H
#define FSLAB_HOSTS_PROCP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "strbuf.h"

struct hproc {
	pid_t pid;
	int in, out, err; /* our ends of its pipes, -1 when none */
};

enum {
	HPROC_STDIN = 1 << 0,  /* a pipe to its stdin (else /dev/null) */
	HPROC_STDOUT = 1 << 1, /* a pipe from its stdout (else /dev/null) */
};

/* Start argv (PATH searched, no shell) with the pipes of flags; its stderr to a pipe, or to
 * stderr_path (truncated) when given.  It dies with the lab (PR_SET_PDEATHSIG).  0 or -errno. */
int hproc_spawn(struct hproc *p, const char *const *argv, unsigned int flags,
		const char *stderr_path);
/* Close its stdin, read stdout and stderr to their end (cap bytes kept each), wait: its exit
 * status (128 + signal), or -ETIMEDOUT (killed) at deadline_ns (monotonic; 0: none). */
int hproc_collect(struct hproc *p, struct strbuf *out, struct strbuf *err, size_t cap,
		  uint64_t deadline_ns);
/* Wait for it (killed at deadline_ns): its exit status, or -ETIMEDOUT. */
int hproc_wait(struct hproc *p, uint64_t deadline_ns);
/* One line from fd (without "\n" or "\r\n"; at most cap bytes): 0, -ETIMEDOUT, -EPIPE at
 * the end, -EPROTO for a longer line. */
int hproc_read_line(int fd, struct strbuf *line, size_t cap, uint64_t deadline_ns);
void hproc_kill(struct hproc *p);
void hproc_close(struct hproc *p);

#endif
