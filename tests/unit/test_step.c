// SPDX-License-Identifier: MIT
/*
 * test_step.c: the lab's step runner (src/lab/step.h), on Linux and under Wine: the argv a
 * target builds for `fslab ARGS` (this machine: its own binary, the arguments unchanged, the
 * stop flag added for stoppable steps); a real step whose stdout mixes progress lines with
 * text, in pieces, with CRLF and a last line without a newline: the progress lines reach the
 * callback and nothing else, everything else lands in the log, stderr too; a stoppable step
 * ends when the runner closes its stdin; a killable one is killed.  A [host NAME] target: the
 * exact ssh argv and remote command (a POSIX shell's, cmd.exe's for os = windows: the golden
 * Windows command line), ssh = local running this binary through the same seam.  The "fslab"
 * started is this test binary (step_child below), so the test needs nothing installed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lab/hosts.h"
#include "lab/step.h"
#include "os/os.h"
#include "run/run.h"
#include "lib/strbuf.h"

static char *self;

static void test_local_argv(void **state)
{
	struct step_target t;
	struct strvec args = STRVEC_INIT, argv = STRVEC_INIT;

	(void)state;
	assert_int_equal(step_target_local(&t), 0);
	assert_ptr_equal(t.sys, lab_system_here());
	assert_string_equal(t.fslab, self); /* this very binary */
	strvec_pushl(&args, "run", "--db=/a dir/with 'quotes' and \"more\"", "--label=x y", "",
		     NULL);
	assert_int_equal(step_argv(&t, &args, false, &argv, NULL), 0);
	/* no shell in between: every argument as it is */
	assert_int_equal(argv.nr, 5);
	assert_string_equal(argv.v[0], self);
	for (size_t i = 0; i < args.nr; i++)
		assert_string_equal(argv.v[i + 1], args.v[i]);
	strvec_clear(&argv);
	assert_int_equal(step_argv(&t, &args, true, &argv, NULL), 0);
	assert_int_equal(argv.nr, 6);
	assert_string_equal(argv.v[5], "--stop-on-stdin-eof");
	strvec_clear(&argv);
	strvec_clear(&args);
	step_target_release(&t);
}

struct seen {
	struct strbuf progress;
	unsigned int n;
};

static void on_progress(void *ctx, const char *line)
{
	struct seen *s = ctx;

	strbuf_addf(&s->progress, "%s\n", line);
	s->n++;
}

static struct step_target target(void)
{
	struct step_target t;

	assert_int_equal(step_target_local(&t), 0);
	return t;
}

/* Run `self ARGS` as a step to its end; its status. */
static int run_step(struct step_target *t, const char *mode, unsigned int flags, FILE *log,
		    struct seen *seen, bool stop_at_once)
{
	struct step_io io = { .log = log, .progress = on_progress, .ctx = seen };
	struct strvec args = STRVEC_INIT;
	struct step *s;
	uint64_t end = now_ns() + 30 * NSEC_PER_SEC;
	int st = -1, r;

	strvec_pushl(&args, "--step-child", mode, NULL);
	assert_int_equal(step_start(t, &args, flags, &io, &s), 0);
	strvec_clear(&args);
	if (stop_at_once)
		step_stop(s);
	while ((r = step_poll(s, 200, &st)) == 0 && now_ns() < end)
		;
	assert_int_equal(r, 1);
	step_free(s);
	return st;
}

static char *log_text(FILE *f)
{
	long n;
	char *buf;

	fflush(f);
	n = ftell(f);
	buf = xcalloc((size_t)n + 1, 1);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	return buf;
}

static void test_output_split(void **state)
{
	struct step_target t = target();
	struct seen seen = { STRBUF_INIT, 0 };
	FILE *log = tmpfile();
	char *text;

	(void)state;
	assert_non_null(log);
	assert_int_equal(run_step(&t, "talk", STEP_KILLABLE, log, &seen, false), 4);
	assert_int_equal(seen.n, 2);
	assert_string_equal(seen.progress.buf,
			    RUN_PROGRESS_TAG "\"phase\": \"load\", \"elapsed_s\": 1.0}\n"
			    RUN_PROGRESS_TAG "\"phase\": \"load\", \"elapsed_s\": 2.0}\n");
	text = log_text(log);
	/* stdout's text, in order (stderr's lines may come between: two pipes), CRLF as LF;
	 * stderr's lines; the last line completed */
	{
		char *a = strstr(text, "creating the database\n");
		char *b = strstr(text, "summary line one\n"), *c = strstr(text, "Result: x.json\n");

		assert_true(a && b && c && a < b && b < c);
	}
	assert_non_null(strstr(text, "fslab: a message on stderr\n"));
	assert_non_null(strstr(text, "no newline at the end\n"));
	assert_null(strstr(text, "fslab_progress"));
	assert_null(strchr(text, '\r'));
	free(text);
	fclose(log);
	strbuf_release(&seen.progress);
	step_target_release(&t);
}

/* A stoppable step: the runner closes its stdin, the child sees its stop request. */
static void test_stop(void **state)
{
	struct step_target t = target();
	struct seen seen = { STRBUF_INIT, 0 };
	FILE *log = tmpfile();
	char *text;

	(void)state;
	assert_int_equal(run_step(&t, "wait", STEP_STOPPABLE | STEP_KILLABLE, log, &seen, true),
			 3);
	text = log_text(log);
	assert_non_null(strstr(text, "stopped by the end of standard input"));
	free(text);
	fclose(log);
	strbuf_release(&seen.progress);
	step_target_release(&t);
}

/* A killable step dies at step_kill(); one that is not killable is not touched by it. */
static void test_kill(void **state)
{
	struct step_target t = target();
	struct step_io io = { 0 };
	struct strvec args = STRVEC_INIT;
	struct step *s;
	int st = -1, r;
	uint64_t end = now_ns() + 30 * NSEC_PER_SEC;

	(void)state;
	strvec_pushl(&args, "--step-child", "sleep", NULL);
	assert_int_equal(step_start(&t, &args, STEP_KILLABLE, &io, &s), 0);
	step_kill(s);
	while ((r = step_poll(s, 200, &st)) == 0 && now_ns() < end)
		;
	assert_int_equal(r, 1);
	assert_int_equal(st, OS_PROC_KILLED);
	step_free(s);
	/* not killable: step_kill() leaves it; it ends by itself (2 s) */
	assert_int_equal(step_start(&t, &args, 0, &io, &s), 0);
	step_kill(s);
	end = now_ns() + 30 * NSEC_PER_SEC;
	while ((r = step_poll(s, 200, &st)) == 0 && now_ns() < end)
		;
	assert_int_equal(r, 1);
	assert_int_equal(st, 0);
	step_free(s);
	strvec_clear(&args);
	step_target_release(&t);
}

/* The hosts of a session: a Linux host over ssh, a Windows one, ssh = local. */
static struct lab_host host_v[3];
static struct lab_hosts host_cfg;
static struct hosts_session host_session;

static void hosts_init(void)
{
	host_v[0] = (struct lab_host){ .name = (char *)"node1", .ssh = (char *)"root@10.0.0.11",
				       .fslab = (char *)"/usr/local/bin/fslab" };
	host_v[1] = (struct lab_host){ .name = (char *)"win1", .ssh = (char *)"administrator@win1",
				       .sys = lab_system_find("windows"),
				       .fslab = (char *)"C:\\Program Files\\fslab\\fslab.exe" };
	host_v[2] = (struct lab_host){ .name = (char *)"me", .ssh = (char *)"local" };
	host_cfg = (struct lab_hosts){ .n = 3, .v = host_v, .ssh_config = (char *)"/etc/lab/ssh cfg" };
	host_session = (struct hosts_session){ .cfg = &host_cfg, .self = self,
					       .ctl_dir = (char *)"/tmp/fslab-ssh.Ab12Cd" };
}

static void test_host_argv(void **state)
{
	struct step_target t;
	struct strvec args = STRVEC_INIT, argv = STRVEC_INIT;
	const char *why = NULL;
	/* exactly what goes to each host */
	static const char *const ssh_words[] = {
		"ssh", "-F", "/etc/lab/ssh cfg", "-o", "BatchMode=yes", "-o", "ServerAliveInterval=2",
		"-o", "ServerAliveCountMax=3", "-o", "ConnectTimeout=10", "-o",
		"ControlPath=/tmp/fslab-ssh.Ab12Cd/%C", "-o", "ControlMaster=no", "-T", "--",
	};

	(void)state;
	hosts_init();
	strvec_pushl(&args, "run", "--label=it's $(x) `y`; z", "--output=C:\\r 50%\\", NULL);
	step_target_host(&t, &host_session, 0);
	assert_string_equal(t.name, "node1");
	assert_ptr_equal(t.sys, lab_system_find("linux"));
	assert_int_equal(step_argv(&t, &args, true, &argv, &why), 0);
	assert_int_equal(argv.nr, ARRAY_SIZE(ssh_words) + 2);
	for (size_t i = 0; i < ARRAY_SIZE(ssh_words); i++)
		assert_string_equal(argv.v[i], ssh_words[i]);
	assert_string_equal(argv.v[argv.nr - 2], "root@10.0.0.11");
	/* the stop flag inside the remote command, each word quoted for the POSIX shell */
	assert_string_equal(argv.v[argv.nr - 1], "exec /usr/local/bin/fslab run "
			    "'--label=it'\\''s $(x) `y`; z' '--output=C:\\r 50%\\' --stop-on-stdin-eof");
	strvec_clear(&argv);
	step_target_release(&t);

	/* os = windows: the golden cmd.exe line (docs/HOSTS.md "What is sent") */
	step_target_host(&t, &host_session, 1);
	assert_ptr_equal(t.sys, lab_system_find("windows"));
	assert_int_equal(step_argv(&t, &args, true, &argv, &why), 0);
	assert_string_equal(argv.v[argv.nr - 2], "administrator@win1");
	assert_string_equal(argv.v[argv.nr - 1],
			    "\"C:\\Program Files\\fslab\\fslab.exe\" ^\"run^\" "
			    "^\"--label=it's $^(x^) `y`; z^\" ^\"--output=C:\\r 50^%\\\\^\" "
			    "^\"--stop-on-stdin-eof^\"");
	strvec_clear(&argv);
	/* a line break cannot reach cmd.exe: refused, nothing started */
	strvec_push(&args, "--title=a\nb");
	assert_int_equal(step_argv(&t, &args, false, &argv, &why), -EINVAL);
	assert_non_null(strstr(why, "line break"));
	{
		struct step_io io = { 0 };
		struct step *s = NULL;

		assert_int_equal(step_start(&t, &args, 0, &io, &s), -EINVAL);
		assert_null(s);
	}
	strvec_clear(&argv);
	step_target_release(&t);

	/* ssh = local: this binary, no ssh, no shell */
	step_target_host(&t, &host_session, 2);
	assert_int_equal(step_argv(&t, &args, false, &argv, &why), 0);
	assert_int_equal(argv.nr, args.nr + 1);
	assert_string_equal(argv.v[0], self);
	assert_string_equal(argv.v[2], "--label=it's $(x) `y`; z");
	strvec_clear(&argv);
	strvec_clear(&args);
	step_target_release(&t);
}

/* A host with ssh = local runs its steps through the same seam: stopped by its stdin. */
static void test_host_local_step(void **state)
{
	struct step_target t;
	struct seen seen = { STRBUF_INIT, 0 };
	FILE *log = tmpfile();
	char *text;

	(void)state;
	hosts_init();
	step_target_host(&t, &host_session, 2);
	assert_int_equal(run_step(&t, "wait", STEP_STOPPABLE | STEP_KILLABLE, log, &seen, true),
			 3);
	text = log_text(log);
	assert_non_null(strstr(text, "stopped by the end of standard input"));
	free(text);
	fclose(log);
	strbuf_release(&seen.progress);
	step_target_release(&t);
}

/* ---- the child ---- */

static volatile int stop_why;

static void on_stop(int why)
{
	if (!stop_why)
		stop_why = why;
}

static int step_child(const char *mode, bool stop_flag)
{
	if (!strcmp(mode, "talk")) {
		/* text and progress lines mixed, written in pieces, CRLF on one line */
		fputs("creating the database\n", stdout);
		fputs(RUN_PROGRESS_TAG "\"phase\": \"load\", ", stdout);
		fflush(stdout);
		sleep_until_ns(now_ns() + 50 * NSEC_PER_MSEC);
		fputs("\"elapsed_s\": 1.0}\n", stdout);
		fflush(stdout);
		fputs("fslab: a message on stderr\n", stderr);
		fputs(RUN_PROGRESS_TAG "\"phase\": \"load\", \"elapsed_s\": 2.0}\r\n", stdout);
		fputs("summary line one\r\nResult: x.json\n", stdout);
		fputs("no newline at the end", stdout);
		return 4;
	}
	if (!strcmp(mode, "wait")) {
		uint64_t end = now_ns() + 20 * NSEC_PER_SEC;

		if (!stop_flag)
			return 9; /* the runner did not add --stop-on-stdin-eof */
		os_stop_handler_set(on_stop);
		if (os_stop_on_stdin_eof())
			return 2;
		while (!stop_why && now_ns() < end)
			sleep_until_ns(now_ns() + 200 * NSEC_PER_MSEC);
		printf("stopped by %s\n", stop_why ? os_stop_name(stop_why) : "nothing");
		return stop_why == OS_STOP_EOF ? 3 : 4;
	}
	if (!strcmp(mode, "sleep")) {
		sleep_until_ns(now_ns() + 2 * NSEC_PER_SEC);
		return 0;
	}
	return 99;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local_argv),
		cmocka_unit_test(test_output_split),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_kill),
		cmocka_unit_test(test_host_argv),
		cmocka_unit_test(test_host_local_step),
	};
	int ret;

	if (argc >= 3 && !strcmp(argv[1], "--step-child"))
		return step_child(argv[2], argc >= 4 && !strcmp(argv[3], "--stop-on-stdin-eof"));
	self = os_exe_path();
	if (!self)
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	free(self);
	return ret;
}
