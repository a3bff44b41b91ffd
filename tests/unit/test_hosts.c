// SPDX-License-Identifier: MIT
/*
 * test_hosts.c: the lab's hosts without a network: [host NAME] sections and their refusals
 * (file:line), the ssh argv (BatchMode, keepalives, the connection's socket, never
 * StrictHostKeyChecking), the remote command for each system, directories on the hosts, the
 * clock sample kept, and the receiving side of fslab cat-result against torn, oversized,
 * forged and trailing streams (nothing written for any of them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "lab/hosts.h"
#include "lab/labcfg.h"
#include "lib/sha256.h"

static char dir[] = "/tmp/fslab-test-hosts.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);

	(void)state;
	free(cmd);
	return rc;
}

static const char base[] = "[workload]\nduration = 10s\ndb_size = 64M\n[fs ext4]\n";
static const char base_win[] = "[workload]\nduration = 10s\ndb_size = 64M\n[fs ntfs]\n[fs refs]\n";

/* Load config text; the errors printed (stderr) go to a file we read back into *errors. */
static int load(const char *text, struct lab_cfg *c, char **errors)
{
	char *path = xasprintf("%s/c.ini", dir), *errp = xasprintf("%s/err", dir);
	int ret, saved = dup(2);
	FILE *f = fopen(errp, "w");

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	fflush(stderr);
	dup2(fileno(f), 2);
	ret = lab_cfg_load(c, path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(f);
	assert_int_equal(read_file(errp, errors, NULL), 0);
	free(path);
	free(errp);
	return ret;
}

static void test_config(void **state)
{
	char *text = xasprintf("[lab]\nclock_limit = 250ms\nssh_config = /dev/null\n"
			       "[devices]\nimage_dir = /var/tmp/img\ndb_size = 2G\n"
			       "[host node1]\nssh = root@10.0.0.11\n"
			       "[host node2]\nssh = node2\nfslab = /opt/fslab/fslab\n"
			       "image_dir = /srv/img\ndb_size = 3G\nworkdir = /srv/fslab\n"
			       "[host me]\nssh = local\n%s", base);
	/* Windows hosts: a lab of their own (their preps make ntfs and refs) */
	char *wtext = xasprintf("[host win1]\nssh = admin@winbox\nos = windows\n"
				"fslab = C:\\Program Files\\fslab\\fslab.exe\ndb_dev = 1\n"
				"log_dev = 2\n%s", base_win);
	struct lab_cfg c;
	char *errors;
	const struct lab_host *h;

	(void)state;
	assert_int_equal(load(text, &c, &errors), 0);
	assert_string_equal(errors, "");
	assert_int_equal(c.hosts.n, 3);
	assert_true(c.hosts.clock_limit_s == 0.25);
	assert_string_equal(c.hosts.ssh_config, "/dev/null");
	h = &c.hosts.v[0];
	assert_string_equal(h->name, "node1");
	assert_string_equal(lab_host_fslab(h), "fslab");
	assert_string_equal(lab_host_image_dir(h, &c), "/var/tmp/img");
	assert_true(lab_host_db_image_size(h, &c) == 2 * GiB);
	h = &c.hosts.v[1];
	assert_string_equal(lab_host_image_dir(h, &c), "/srv/img");
	assert_true(lab_host_db_image_size(h, &c) == 3 * GiB);
	assert_string_equal(lab_host_fslab(h), "/opt/fslab/fslab");
	assert_true(lab_host_local(&c.hosts.v[2]));
	assert_false(lab_host_local(&c.hosts.v[0]));
	assert_ptr_equal(c.sys, lab_system_find("linux"));
	lab_cfg_release(&c);
	free(errors);
	free(text);
	assert_int_equal(load(wtext, &c, &errors), 0);
	assert_string_equal(errors, "");
	h = &c.hosts.v[0];
	assert_ptr_equal(h->sys, lab_system_find("windows"));
	assert_null(lab_host_image_dir(h, &c));
	assert_string_equal(lab_host_db_dev(h, &c), "1");
	/* the steps' system is the hosts': [fs refs] is Windows prep's */
	assert_ptr_equal(c.sys, lab_system_find("windows"));
	lab_cfg_release(&c);
	free(errors);
	free(wtext);
}

/* Each bad host config is refused with file:line and the fix. */
static void test_config_refusals(void **state)
{
	static const struct {
		const char *text, *want;
	} t[] = {
		{ "[host a b]\nssh = x\n", "[host a b]" },
		{ "[host node1]\nssh = -oProxyCommand=touch_x\n", "give the ssh destination" },
		{ "[host node1]\nssh = a b\n", "give the ssh destination" },
		{ "[host node1]\nssh = x\nos = solaris\n", "give linux or windows" },
		{ "[host node1]\nssh = x\nport = 22\n", "unknown key 'port' in [host node1]" },
		{ "[host node1]\nos = linux\n", "no ssh key" },
		{ "[host node1]\nssh = x\ndb_size = 1M\n", "at least 64M" },
		{ "[host w]\nssh = w\nos = windows\nimage_dir = /x\n", "takes no image_dir" },
		{ "[host w]\nssh = w\nos = windows\ndb_dev = /dev/sdb\nlog_dev = 2\n",
		  "disk numbers" },
		{ "[host w]\nssh = w\nos = windows\nfslab = C:\\a&b\\fslab.exe\ndb_dev = 1\n"
		  "log_dev = 2\n", "may not hold" },
		{ "[host w]\nssh = local\nos = windows\ndb_dev = 1\nlog_dev = 2\n", "not Windows" },
		{ "[host n]\nssh = n\nworkdir = relative/dir\n", "absolute path" },
		{ "[host n]\nssh = n\ndb_dev = /dev/sdb\n", "missing device" },
		{ "[host n]\nssh = n\ndb_dev = /dev/sdb\nlog_dev = /dev/sdb\n", "the same device" },
		{ "[host a]\nssh = same\nimage_dir = /i\n[host b]\nssh = same\nimage_dir = /i\n",
		  "are one machine" },
		/* one workdir on one machine: one mount root, one result file for both */
		{ "[host a]\nssh = local\nworkdir = /w\nimage_dir = /i\n[host b]\nssh = local\n"
		  "workdir = /w/\nimage_dir = /j\n", "the same workdir = /w/" },
		{ "[lab]\nclock_limit = soon\n[host n]\nssh = n\nimage_dir = /i\n", "clock_limit = 'soon'" },
		{ "[lab]\nclock_limit = 120\n[host n]\nssh = n\nimage_dir = /i\n", "at most 60" },
		{ "[lab]\nssh_config = /nonexistent/ssh_config\n[host n]\nssh = n\nimage_dir = /i\n",
		  "cannot read it" },
		{ "[host n]\nssh = n\nimage_dir = /i\ndb_dev = /dev/sdb\nlog_dev = /dev/sdc\n",
		  "either image_dir or db_dev" },
		/* one system for all the hosts of a lab */
		{ "[host n]\nssh = n\nimage_dir = /i\n[host w]\nssh = w\nos = windows\n"
		  "db_dev = 1\nlog_dev = 2\n", "Linux and Windows hosts in one lab" },
		/* each host preps its own devices: no volumes prepared by the user */
		{ "[host n]\nssh = n\nimage_dir = /i\n[fs mine]\ndb_dir = /srv/db\n"
		  "log_dir = /srv/log\n", "db_dir/log_dir (volumes you prepared) in a lab with" },
		/* Windows hosts: their preps' filesystems, no raw baseline */
		{ "[host w]\nssh = w\nos = windows\ndb_dev = 1\nlog_dev = 2\n",
		  "Windows prep formats ntfs or refs" },
		{ "[lab]\nraw_baseline = yes\n[host w]\nssh = w\nos = windows\ndb_dev = 1\n"
		  "log_dev = 2\n[fs ntfs]\n", "a lab of Windows hosts" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *text = xasprintf("%s%s", t[i].text, base), *errors;
		struct lab_cfg c;

		assert_int_equal(load(text, &c, &errors), -FSLAB_EINPUT);
		if (!strstr(errors, t[i].want) || !strstr(errors, "/c.ini:"))
			fail_msg("config %zu: wanted '%s' with file:line, got: %s", i, t[i].want, errors);
		lab_cfg_release(&c);
		free(errors);
		free(text);
	}
}

/* A steady-state stage ends on each host at its own time: refused with hosts. */
static void test_config_steady_refused(void **state)
{
	static const char *const t[][2] = {
		{ "warmup = steady\n", ":5: warmup = steady in a lab with [host] sections" },
		{ "precondition = 2\n", ":5: precondition in a lab with [host] sections" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *text = xasprintf("[host n]\nssh = n\nimage_dir = /i\n[workload]\n%s"
				       "duration = 10s\ndb_size = 64M\n[fs ext4]\n", t[i][0]), *errors;
		struct lab_cfg c;

		assert_int_equal(load(text, &c, &errors), -FSLAB_EINPUT);
		if (!strstr(errors, t[i][1]))
			fail_msg("wanted '%s', got: %s", t[i][1], errors);
		lab_cfg_release(&c);
		free(errors);
		free(text);
	}
}

static bool has(const struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static void test_ssh_argv(void **state)
{
	struct lab_host lin = { .name = (char *)"node1", .ssh = (char *)"root@10.0.0.11" };
	struct lab_host win = { .name = (char *)"w", .ssh = (char *)"admin@win", .sys = lab_system_find("windows"),
				.fslab = (char *)"C:\\fslab\\fslab.exe" };
	struct lab_host me = { .name = (char *)"me", .ssh = (char *)"local" };
	struct lab_host all[] = { lin, win, me };
	struct lab_hosts cfg = { .n = 3, .v = all, .ssh_config = (char *)"/etc/lab/ssh_config" };
	struct hosts_session s = { .cfg = &cfg, .self = "/usr/local/bin/fslab",
				   .ctl_dir = (char *)"/tmp/fslab-ssh.abc" };
	const char *args[] = { "run", "--label=x $(y)", "--db=/mnt/a b", NULL };
	struct strvec v = STRVEC_INIT;
	const char *why = NULL;

	(void)state;
	assert_int_equal(hosts_step_argv(&s, 0, args, &v, &why), 0);
	assert_string_equal(v.v[0], "ssh");
	assert_string_equal(v.v[1], "-F");
	assert_string_equal(v.v[2], "/etc/lab/ssh_config");
	assert_true(has(&v, "BatchMode=yes"));
	assert_true(has(&v, "ServerAliveInterval=2"));
	assert_true(has(&v, "ServerAliveCountMax=3"));
	assert_true(has(&v, "ConnectTimeout=10"));
	assert_true(has(&v, "ControlPath=/tmp/fslab-ssh.abc/%C"));
	assert_true(has(&v, "ControlMaster=no"));
	assert_true(has(&v, "-T"));
	for (size_t i = 0; i < v.nr; i++)
		assert_null(strstr(v.v[i], "StrictHostKeyChecking"));
	/* the destination after "--", then one command string */
	assert_string_equal(v.v[v.nr - 3], "--");
	assert_string_equal(v.v[v.nr - 2], "root@10.0.0.11");
	assert_string_equal(v.v[v.nr - 1], "exec fslab run '--label=x $(y)' '--db=/mnt/a b'");
	strvec_clear(&v);
	assert_int_equal(hosts_step_argv(&s, 1, args, &v, &why), 0);
	assert_string_equal(v.v[v.nr - 1], "\"C:\\fslab\\fslab.exe\" ^\"run^\" "
			    "^\"--label=x $^(y^)^\" ^\"--db=/mnt/a b^\"");
	strvec_clear(&v);
	/* a local host: the lab's own binary, no ssh */
	assert_int_equal(hosts_step_argv(&s, 2, args, &v, &why), 0);
	assert_int_equal(v.nr, 4);
	assert_string_equal(v.v[0], "/usr/local/bin/fslab");
	assert_string_equal(v.v[2], "--label=x $(y)");
	strvec_clear(&v);
	/* a line break cannot reach cmd.exe: refused, not sent cut */
	assert_int_equal(hosts_step_argv(&s, 1, (const char *[]){ "run", "--label=a\nb", NULL }, &v,
					 &why), -EINVAL);
	assert_non_null(strstr(why, "line break"));
	strvec_clear(&v);
}

static void test_paths(void **state)
{
	struct lab_host lin = { .name = (char *)"node1", .ssh = (char *)"n" };
	struct lab_host win = { .name = (char *)"w", .ssh = (char *)"w", .sys = lab_system_find("windows") };
	struct lab_host own = { .name = (char *)"o", .ssh = (char *)"o", .workdir = (char *)"/srv/x/" };
	char *id1 = hosts_lab_id("/var/lab-a"), *id2 = hosts_lab_id("/var/lab-b");
	char *id3 = hosts_lab_id("/var/lab-a"), *p;

	(void)state;
	assert_int_equal(strlen(id1), 12);
	assert_string_equal(id1, id3);
	assert_string_not_equal(id1, id2);
	p = hosts_remote_path(&lin, "0123456789ab", "results/xfs-8t-r1.json");
	assert_string_equal(p, "/var/tmp/fslab-lab-0123456789ab/node1/results/xfs-8t-r1.json");
	free(p);
	p = hosts_remote_path(&win, "0123456789ab", "results/xfs-8t-r1.json");
	assert_string_equal(p, "C:\\fslab-lab-0123456789ab\\w\\results\\xfs-8t-r1.json");
	free(p);
	p = hosts_remote_path(&own, "0123456789ab", "mnt");
	assert_string_equal(p, "/srv/x/mnt");
	free(p);
	free(id1);
	free(id2);
	free(id3);
}

static void test_clock_best(void **state)
{
	/* the first sample (the program's start) is slow and left out even if it were fast */
	const struct clock_sample v[] = {
		{ .asked_ns = 1000000000, .rtt_ns = 100, .remote_ns = 5 },
		{ .asked_ns = 2000000000, .rtt_ns = 4000000, .remote_ns = 2003000000 },
		{ .asked_ns = 3000000000, .rtt_ns = 1000000, .remote_ns = 3000500000 },
		{ .asked_ns = 4000000000, .rtt_ns = 2000000, .remote_ns = 4001500000 },
	};
	double off, rtt;

	(void)state;
	assert_int_equal(hosts_clock_best(v, 4, &off, &rtt), 0);
	/* sample 2: the host read 3000500000 at 3000000000 + 500000 (half way): offset 0 */
	assert_true(fabs(off) < 1e-12);
	assert_true(fabs(rtt - 0.001) < 1e-12);
	assert_int_equal(hosts_clock_best(v + 2, 1, &off, &rtt), 0);
	assert_int_equal(hosts_clock_best(v, 0, &off, &rtt), -EINVAL);
	/* an answer no clock gives (a host's -1e20, strtoll's saturated values) is refused
	 * before any subtraction: the clang UBSan build of this suite traps an overflow */
	{
		const int64_t wild[] = { INT64_MIN, -1, HOSTS_CLOCK_MAX_NS + 1, INT64_MAX };

		for (size_t i = 0; i < ARRAY_SIZE(wild); i++) {
			struct clock_sample w[] = {
				{ .asked_ns = 1000000000, .rtt_ns = 100, .remote_ns = 5 },
				{ .asked_ns = 1796306700000000000, .rtt_ns = 1000000, .remote_ns = wild[i] },
			};

			assert_int_equal(hosts_clock_best(w, 2, &off, &rtt), -EPROTO);
		}
	}
}

/* A stream as fslab cat-result writes it (or damaged) through a pipe into the receiver. */
static int receive(const void *stream, size_t len, uint64_t max, char *hex, char **err)
{
	struct strbuf e = STRBUF_INIT;
	char *local = xasprintf("%s/got.json", dir);
	int fd[2], ret;
	pid_t pid;

	unlink(local);
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	if (!pid) {
		close(fd[0]);
		if (write(fd[1], stream, len) != (ssize_t)len)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	ret = hosts_receive_result(fd[0], local, max, hex, &e);
	close(fd[0]);
	waitpid(pid, NULL, 0);
	if (ret)
		assert_int_not_equal(access(local, F_OK), 0); /* nothing written */
	*err = strbuf_detach(&e, NULL);
	free(local);
	return ret;
}

static void test_receive(void **state)
{
	const char data[] = "{\"schema\": \"fslab-result/1\"}\n";
	char hex[SHA256_HEX_LEN + 1], good[SHA256_HEX_LEN + 1], *err, *s, *got, *local;
	size_t n = sizeof(data) - 1;

	(void)state;
	sha256_hex(data, n, good);
	s = xasprintf("fslab-cat-result/1 %zu\n%s\nsha256 %s\n", n, data, good);
	assert_int_equal(receive(s, strlen(s), 1 << 20, hex, &err), 0);
	assert_string_equal(hex, good);
	local = xasprintf("%s/got.json", dir);
	assert_int_equal(read_file(local, &got, NULL), 0);
	assert_string_equal(got, data);
	free(got);
	free(local);
	free(err);
	free(s);
	{
		char forged[SHA256_HEX_LEN + 1];
		const struct {
			char *stream;
			const char *want;
		} bad[] = {
			{ xasprintf("fslab-cat-result/1 %zu\n%.10s", n, data), "ended after 10 of" },
			{ xasprintf("fslab-cat-result/1 99999999999\n"), "more than the" },
			{ xasprintf("fslab-cat-result/2 %zu\n%s\nsha256 %s\n", n, data, good),
			  "SIZE' line came first" },
			{ xasprintf("hello\n"), "SIZE' line came first" },
			{ xasprintf("fslab-cat-result/1 -5\n"), "SIZE' line came first" },
			{ xasprintf("fslab-cat-result/1 %zu\n%s\nsha256 %s\n", n, data,
				    (memset(forged, 'a', SHA256_HEX_LEN), forged[SHA256_HEX_LEN] = 0,
				     forged)), "is not the one sent" },
			{ xasprintf("fslab-cat-result/1 %zu\n%s\nsha256 %s\nmore", n, data, good),
			  "more bytes followed" },
			{ xasprintf("fslab-cat-result/1 %zu\n%s", n, data), "no 'sha256 HEX' line" },
			{ xasprintf("fslab-cat-result/1 %zu\n%sXsha256 %s\n", n, data, good),
			  "no 'sha256 HEX' line" },
			{ xasprintf("%s", ""), "SIZE' line came first" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			assert_int_not_equal(receive(bad[i].stream, strlen(bad[i].stream), 1 << 20, hex,
						     &err), 0);
			if (!strstr(err, bad[i].want))
				fail_msg("stream %zu: wanted '%s', got '%s'", i, bad[i].want, err);
			free(err);
			free(bad[i].stream);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_refusals),
		cmocka_unit_test(test_config_steady_refused),
		cmocka_unit_test(test_ssh_argv),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_clock_best),
		cmocka_unit_test(test_receive),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
