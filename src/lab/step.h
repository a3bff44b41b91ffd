/* SPDX-License-Identifier: MIT */
/*
 * step.h: the step runner, the one seam between the lab and the processes that do its work
 * (docs/DESIGN.md "Step runner").  A step is `fslab ARGS` (prep, run, teardown, compare) run
 * as a child process somewhere; a *target* says where and builds the argv that runs it there:
 * this machine (the lab's own binary: /proc/self/exe, GetModuleFileNameW), or a [host NAME]
 * of the lab reached over OpenSSH (`ssh -F FILE -o BatchMode=yes ... -- DEST 'exec fslab
 * ARGS'`, its kept connection, docs/HOSTS.md), or with ssh = local this machine again.
 * Everything between the lab and a step travels over the child's three standard streams,
 * because only they survive ssh and exist on both systems:
 *   stdout  the step's output, and its progress lines (RUN_PROGRESS_TAG: run/run.h), which
 *           go to the caller's progress callback; every other line goes to the step's log;
 *   stderr  messages, into the log;
 *   stdin   held open by the lab for a stoppable step (the runner adds --stop-on-stdin-eof):
 *           closing it is the graceful stop (a Ctrl-C, over ssh too: a closed ssh client
 *           closes the remote stdin); otherwise the null device.
 * The hard stop is a kill of the local child (and what it started: its process group, its
 * job object), never a forwarded signal (which neither ssh nor Windows carries): for a host,
 * the local ssh, whose session then closes (the remote run reads the end of its stdin, or
 * gets SIGHUP/SIGPIPE, and stops).
 * lab.c, cell.c and steps.c never know what kind of target runs their steps.
 */
#ifndef FSLAB_LAB_STEP_H
#define FSLAB_LAB_STEP_H

#include <stdbool.h>
#include <stdio.h>

#include "lab/labcfg.h"
#include "lab/system.h"
#include "lib/strvec.h"

struct hosts_session;

/* Where steps run. */
struct step_target {
	char *name;   /* for messages: "this machine", or the host's NAME */
	const struct lab_system *sys; /* what the steps run on: which prep, which paths */
	char *fslab;  /* the fslab binary there: for this machine, this very binary */
	/* a [host NAME] of the lab: its session (the kept connections, lab/hosts.h) and index,
	 * whose hosts_step_argv() is the argv; NULL: this machine, no ssh */
	const struct hosts_session *hosts;
	size_t host;
};

/* This machine, running this binary.  0 or -errno (its path cannot be told). */
int step_target_local(struct step_target *t);
/* Host i of session s (ssh, or ssh = local: this binary).  s must outlive t. */
void step_target_host(struct step_target *t, const struct hosts_session *s, size_t i);
void step_target_release(struct step_target *t);
/*
 * step_argv - the argv that runs `fslab ARGS` on t, appended to out.  This machine: the
 * binary's full path, then ARGS unchanged (no shell, so nothing needs quoting).  A host:
 * ssh with the lab's options over its kept connection and `fslab ARGS` as one command quoted
 * for its shell (a POSIX shell, or cmd.exe for os = windows).  With stoppable, ARGS gets
 * --stop-on-stdin-eof (the child then treats the end of its stdin as its stop request; ssh
 * -T passes the end of its own stdin on).  0, or -EINVAL with *why when an argument cannot
 * be carried (a line break for cmd.exe).
 */
int step_argv(const struct step_target *t, const struct strvec *args, bool stoppable,
	      struct strvec *out, const char **why);

/* What becomes of a step's output. */
struct step_io {
	FILE *log;  /* every line but progress lines, appended as it arrives ("\r\n" as "\n") */
	/* a progress line (JSON, one object, no newline); NULL: progress lines are logged */
	void (*progress)(void *ctx, const char *line);
	void *ctx;
};

enum {
	/* the lab may stop it: stdin is a pipe, closed by step_stop() */
	STEP_STOPPABLE = 1 << 0,
	/* the lab may kill it (step_kill()), and it dies with the lab (PR_SET_PDEATHSIG, a job
	 * object): steps whose half-done work a later teardown can undo.  Without it a step
	 * finishes on its own even when the lab is gone (Windows prep: PowerShell half-way
	 * through formatting a disk leaves nothing a teardown could find) */
	STEP_KILLABLE = 1 << 1,
};

struct step;
/* Start `fslab ARGS` on t.  0 or -errno (nothing started; -EINVAL: an argument t cannot
 * carry, see step_argv()). */
int step_start(const struct step_target *t, const struct strvec *args, unsigned int flags,
	       const struct step_io *io, struct step **out) __attribute__((warn_unused_result));
/*
 * step_poll - wait up to timeout_ms for output or the end of the step (a stop request to
 * the lab cuts the wait short).  1 when it ended, with *status its exit status (137 when
 * killed); 0 while it runs; -errno.
 */
int step_poll(struct step *s, int timeout_ms, int *status);
/* The graceful stop (STEP_STOPPABLE): its stdin closed.  Once; later calls do nothing. */
void step_stop(struct step *s);
/* The hard stop (STEP_KILLABLE only; otherwise nothing). */
void step_kill(struct step *s);
/* Release s; a step still running is killed when killable, else waited for. */
void step_free(struct step *s);

#endif
