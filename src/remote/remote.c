// SPDX-License-Identifier: MIT
/*
 * remote.c: what the lab's controller runs on each of its hosts over ssh (both systems, so
 * a Windows host needs nothing but fslab.exe): fslab hello (version, git hash, system and the
 * arguments as received: the quoting probe), fslab clock (the wall clock once per line read:
 * the offset measurement), fslab cat-result (a result file with its size and sha256).
 * docs/HOSTS.md "What runs on a host".
 */
#include <errno.h>
#include <stddef.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "cmds.h"
#include "os/files.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "os/os.h"
#include "remote/remote.h"
#include "lib/sha256.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#define HOST_OS "windows"
#else
#include <unistd.h>
#define HOST_OS "linux"
#endif

static void host_name(char *buf, size_t len)
{
#ifdef _WIN32
	DWORD n = (DWORD)len;

	if (!GetComputerNameExA(ComputerNameDnsHostname, buf, &n))
		snprintf(buf, len, "?");
#else
	if (gethostname(buf, len - 1))
		snprintf(buf, len, "?");
	buf[len - 1] = 0;
#endif
}

/* The commands' tables (opt.h): hello and cat-result take words, not options (--help only
 * alone: the lab's probe words are never just that). */
static void hello_head(FILE *f)
{
	fprintf(f, "usage: fslab hello [WORD...]\n\nPrint one JSON line for the lab's controller "
		"(over ssh): schema %s, fslab version and git hash, system, hostname, the wall "
		"clock in ns since 1970, and the WORDs as received (the controller's quoting "
		"probe: every word must come back unchanged).\n\n", REMOTE_HELLO_SCHEMA);
}

static const struct opt_def hello_opts[] = {
	{ .name = "help", .help = "this text (alone: among other WORDs it is one of them)" },
	{ .name = NULL },
};

static const struct opt_pos words_pos[] = {
	{ .name = "WORD", .arg = OPT_WORD, .flags = OPT_REPEAT },
	{ NULL },
};

const struct opt_cmd hello_opt_cmd = {
	.name = "hello",
	.opts = hello_opts,
	.pos = words_pos,
	.head_fn = hello_head,
	.col = 11,
	.width = 92,
	.flags = OPTC_WORDS,
};

struct clock_args {
	bool once;
};

static const struct opt_def clock_opts[] = {
	{ .name = "once", .help = "one answer, without reading", .store = OPT_TRUE,
	  .off = offsetof(struct clock_args, once) },
	{ .name = NULL },
};

const struct opt_cmd clock_opt_cmd = {
	.name = "clock",
	.opts = clock_opts,
	.head = "usage: fslab clock [--once]\n\nAnswer each line read on standard input with the "
		"wall clock in ns since 1970, one line each, at once: the lab's controller times "
		"the round trips over ssh and takes the host's clock offset from the shortest.\n\n",
	.col = 11,
	.width = 92,
	.no_args = "fslab clock [--once] answers each line of its input with the wall clock in ns "
		   "since 1970",
};

static void cat_result_head(FILE *f)
{
	fprintf(f, "usage: fslab cat-result FILE\n\nPrint a result file for the lab's controller "
		"(over ssh): a line '%s SIZE', the SIZE bytes of the file, then a line "
		"'sha256 HEX'.\n\n", REMOTE_CAT_SCHEMA);
}

static const struct opt_def cat_result_opts[] = {
	{ .name = "help", .help = "this text" },
	{ .name = NULL },
};

static const struct opt_pos file_pos[] = {
	{ .name = "FILE", .arg = OPT_FILE },
	{ NULL },
};

const struct opt_cmd cat_result_opt_cmd = {
	.name = "cat-result",
	.opts = cat_result_opts,
	.pos = file_pos,
	.head_fn = cat_result_head,
	.col = 11,
	.width = 92,
	.flags = OPTC_WORDS,
};

int cmd_hello(int argc, char **argv)
{
	json_t *o, *words;
	char host[256], wall[32];
	char *s;
	int first;

	if (opt_parse(&hello_opt_cmd, NULL, argc, argv, &first))
		return FSLAB_EXIT_OK; /* --help */
	words = json_array();

	for (int i = first; i < argc; i++) {
		json_t *w = json_string(argv[i]);

		/* a word that is not UTF-8 cannot be echoed as JSON: null says it came changed */
		json_array_append_new(words, w ? w : json_null());
	}
	host_name(host, sizeof(host));
	snprintf(wall, sizeof(wall), "%lld", (long long)os_wall_ns());
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "schema", REMOTE_HELLO_SCHEMA,
		      "version", fslab_version, "git", fslab_git, "os", HOST_OS, "hostname", host,
		      "wall_ns", wall, "argv", words);
	s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!s) {
		fslab_err("hello: cannot encode the answer");
		return FSLAB_EXIT_FAIL;
	}
	printf("%s\n", s);
	free(s);
	return fflush(stdout) ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
}

int cmd_clock(int argc, char **argv)
{
	struct clock_args a = { false };
	char line[256];
	int first, ret = opt_parse(&clock_opt_cmd, &a, argc, argv, &first);

	if (ret)
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	if (a.once) {
		printf("%lld\n", (long long)os_wall_ns());
		return fflush(stdout) ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
	}
	/* read, then the clock at once: what the controller times is one round trip; a line
	 * longer than the buffer is answered once, at its end */
	while (fgets(line, sizeof(line), stdin)) {
		if (!strchr(line, '\n') && !feof(stdin))
			continue;
		printf("%lld\n", (long long)os_wall_ns());
		if (fflush(stdout))
			return FSLAB_EXIT_FAIL;
	}
	return FSLAB_EXIT_OK;
}

int cmd_cat_result(int argc, char **argv)
{
	char hex[SHA256_HEX_LEN + 1], *buf = NULL;
	size_t len = 0;
	int kind, ret, first;

	if (opt_parse(&cat_result_opt_cmd, NULL, argc, argv, &first))
		return FSLAB_EXIT_OK; /* --help */
	if (argc != 2) {
		opt_usage(&cat_result_opt_cmd, stderr);
		return FSLAB_EXIT_USAGE;
	}
	ret = os_stat(argv[1], &kind, NULL);
	if (!ret && kind != OS_KIND_FILE)
		ret = -EISDIR;
	if (!ret)
		ret = read_file(argv[1], &buf, &len);
	if (ret) {
		fslab_err("cat-result: cannot read %s (%s)", argv[1], strerror(-ret));
		return ret == -ENOENT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
	}
#ifdef _WIN32
	/* the bytes as they are: no \n -> \r\n */
	_setmode(_fileno(stdout), _O_BINARY);
#endif
	sha256_hex(buf, len, hex);
	printf("%s %zu\n", REMOTE_CAT_SCHEMA, len);
	fwrite(buf, 1, len, stdout);
	printf("\nsha256 %s\n", hex);
	free(buf);
	if (fflush(stdout) || ferror(stdout)) {
		fslab_err("cat-result: cannot write %s to the output (%s)", argv[1], strerror(errno));
		return FSLAB_EXIT_FAIL;
	}
	return FSLAB_EXIT_OK;
}
