/* SPDX-License-Identifier: MIT */
/* hostsP.h: what the files of the hosts module share (hosts.c, hosts_run.c, hosts_fetch.c). */
#ifndef FSLAB_LAB_HOSTSP_H
#define FSLAB_LAB_HOSTSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"

struct os_proc;

/*
 * One process the hosts module starts itself (a connection, hello, the clock, a fetch, a
 * control command), through the same os_proc_* calls as the lab's steps: no shell, its own
 * process group, dying with the lab.  Its stdout is kept in out (up to cap bytes) or handed
 * to on_out as it arrives; its stderr kept in err (up to 64 KiB, for messages).
 */
struct hrun {
	struct os_proc *p;
	struct strbuf out, err;
	size_t cap;
	void (*on_out)(void *ctx, const char *buf, size_t len);
	void *ctx;
	bool done;
	int status;
};

int hrun_start(struct hrun *r, const char *const *argv, bool stdin_pipe, size_t cap);
/* Wait up to timeout_ms: 1 when it ended (r->status), 0 while it runs, -errno. */
int hrun_poll(struct hrun *r, int timeout_ms);
/* Its end (stdin closed first): the exit status, or -ETIMEDOUT (killed) at deadline_ns. */
int hrun_wait(struct hrun *r, uint64_t deadline_ns);
/* A line of its stdout (without "\n" or "\r\n", at most cap bytes) into line, what follows
 * it kept: 0, -ETIMEDOUT at deadline_ns, -EPIPE at its end, -EPROTO for a longer line. */
int hrun_read_line(struct hrun *r, struct strbuf *line, size_t cap, uint64_t deadline_ns);
void hrun_free(struct hrun *r);
/* Run argv to its end (killed at deadline_ns): its exit status or -errno; stdout and stderr
 * kept in out and err when given (up to cap bytes of stdout). */
int hrun(const char *const *argv, struct strbuf *out, struct strbuf *err, size_t cap,
	 uint64_t deadline_ns);
/* The last lines of text, one line, at most max bytes, for a message (heap). */
char *hosts_tail_text(const char *text, size_t max);

#endif
