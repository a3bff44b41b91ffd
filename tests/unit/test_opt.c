// SPDX-License-Identifier: MIT
/* test_opt.c: the option parser every subcommand uses (src/lib/opt.h), on a table of its own:
 * each kind of option and how it is given, the errors, repeated options, `--`, --help and the
 * text it makes, the completion's dump; then every command's real table against the --help
 * it makes (each option it takes is there, each option named there is taken) and the lab
 * config keys its options name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "cmds.h"
#include "fsprep/prep.h"
#include "lab/labcfg.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* ---- a table of every kind ---- */

struct t_args {
	bool flag, other;
	const char *text;
	struct strvec list;
	int calls;
	char last[64];
};

enum { T_NUM, T_FAIL };

static int t_set(void *ctx, const struct opt_def *o, const char *arg)
{
	struct t_args *a = ctx;

	if (o->id == T_FAIL)
		return input_error("--fail '%s': refused by set()", arg);
	a->calls++;
	snprintf(a->last, sizeof(a->last), "%s", arg);
	return 0;
}

static const char *t_choices(void)
{
	return "alpha, beta (the second) or gamma";
}

static void t_help_fn(struct strbuf *sb)
{
	strbuf_addstr(sb, "made when asked\nsecond line");
}

#define TA(f) .off = offsetof(struct t_args, f)

static const struct opt_def t_opts[] = {
	{ .name = "flag", .short_name = 'f', .help = "a flag", .store = OPT_TRUE, TA(flag) },
	{ .name = "other", .short_name = 'g', .help = "another flag", .store = OPT_TRUE,
	  TA(other) },
	{ .name = "text", .arg = OPT_FILE, .metavar = "FILE",
	  .help = "a value kept as given, the last one counts, and a text long enough to be "
		  "wrapped at the width of this command",
	  .store = OPT_STR, TA(text) },
	{ .name = "list", .arg = OPT_DIR, .metavar = "DIR", .help = "each one kept",
	  .flags = OPT_REPEAT, .store = OPT_STR, TA(list) },
	{ .name = "number", .short_name = 'n', .arg = OPT_WORD, .metavar = "N",
	  .help = "handed to set()", .def = "7", .id = T_NUM },
	{ .name = "choice", .arg = OPT_CHOICE, .metavar = "C", .choices = t_choices,
	  .help = "one of %C; default %D", .def = "alpha", .group = "\nA group:\n", .id = T_NUM },
	{ .name = "fail", .arg = OPT_WORD, .metavar = "X", .help_fn = t_help_fn, .id = T_FAIL },
	{ .name = "joined-a", .arg = OPT_WORD, .flags = OPT_JOIN, .id = T_NUM },
	{ .name = "joined-b", .arg = OPT_WORD, .help = "both of them", .id = T_NUM },
	{ .name = "secret", .help = "not shown", .flags = OPT_HIDDEN, .store = OPT_TRUE,
	  TA(other) },
	{ .name = NULL },
};

static const struct opt_pos t_pos[] = {
	{ .name = "FILE", .arg = OPT_FILE, .flags = OPT_REPEAT },
	{ NULL },
};

static const struct opt_cmd t_cmd = {
	.name = "test",
	.opts = t_opts,
	.pos = t_pos,
	.set = t_set,
	.head = "usage: fslab test [--flag] FILE...\n\n",
	.tail = "Exit status: 0.\n",
	.col = 18,
	.width = 60,
};

static const struct opt_cmd t_nopos = {
	.name = "nopos",
	.opts = t_opts,
	.set = t_set,
	.sibling = &t_cmd,
};

static const struct opt_def s_opts[] = {
	{ .name = "only-here", .help = "x", .store = OPT_TRUE, TA(flag) },
	{ .name = NULL },
};

static const struct opt_cmd t_sib = {
	.name = "sib",
	.opts = s_opts,
	.sibling = &t_cmd,
};

static const struct opt_cmd t_words = {
	.name = "words",
	.opts = (const struct opt_def[]){ { .name = "help", .help = "this text" }, { NULL } },
	.pos = t_pos,
	.col = 10,
	.flags = OPTC_WORDS,
};

/* a --help that names an option the table does not have */
static const struct opt_cmd t_badhelp = {
	.name = "badhelp",
	.opts = t_opts,
	.head = "usage: fslab badhelp [--flag] [--nope]\n",
};

static char err[4096], out[8192];

/* opt_parse() of cmd on the words (NULL-terminated) into a, stderr into err[] and stdout into
 * out[]; *first the first positional argument (its index), argv reordered into av. */
static int parse(const struct opt_cmd *cmd, struct t_args *a, char **av, int *first, ...)
{
	char epath[] = "/tmp/fslab-opt-err.XXXXXX", opath[] = "/tmp/fslab-opt-out.XXXXXX";
	int efd = mkstemp(epath), ofd = mkstemp(opath), se = dup(2), so = dup(1), argc = 0, ret;
	va_list ap;
	ssize_t n;

	va_start(ap, first);
	for (const char *w; (w = va_arg(ap, const char *));)
		av[argc++] = (char *)w;
	va_end(ap);
	av[argc] = NULL;
	memset(a, 0, sizeof(*a));
	strvec_init(&a->list);
	fflush(stderr);
	fflush(stdout);
	dup2(efd, 2);
	dup2(ofd, 1);
	ret = opt_parse(cmd, a, argc, av, first);
	fflush(stderr);
	fflush(stdout);
	dup2(se, 2);
	dup2(so, 1);
	close(se);
	close(so);
	n = pread(efd, err, sizeof(err) - 1, 0);
	err[n > 0 ? n : 0] = 0;
	n = pread(ofd, out, sizeof(out) - 1, 0);
	out[n > 0 ? n : 0] = 0;
	close(efd);
	close(ofd);
	unlink(epath);
	unlink(opath);
	return ret;
}

static void test_kinds(void **state)
{
	struct t_args a;
	char *av[32];
	int first;

	(void)state;
	/* every form getopt_long takes: separate value, =value, a unique prefix, short,
	 * bundled shorts, a short with its value attached, arguments among the options */
	assert_int_equal(parse(&t_cmd, &a, av, &first, "test", "f1", "--text", "a", "--flag",
			       "--list=d1", "f2", "--li", "d2", "-gn5", "--numb=6", "--text=b",
			       NULL), 0);
	assert_true(a.flag);
	assert_true(a.other);
	assert_string_equal(a.text, "b");            /* the last one counts */
	assert_int_equal(a.list.nr, 2);              /* a repeated one keeps each */
	assert_string_equal(a.list.v[0], "d1");
	assert_string_equal(a.list.v[1], "d2");
	assert_int_equal(a.calls, 2);
	assert_string_equal(a.last, "6");
	assert_int_equal(first, 10);                 /* the arguments last, in their order */
	assert_string_equal(av[first], "f1");
	assert_string_equal(av[first + 1], "f2");
	assert_string_equal(err, "");
	strvec_clear(&a.list);

	/* -- ends the options: what follows is an argument, whatever it looks like */
	assert_int_equal(parse(&t_cmd, &a, av, &first, "test", "-f", "--", "--text", "-g",
			       NULL), 0);
	assert_true(a.flag);
	assert_false(a.other);
	assert_null(a.text);
	assert_int_equal(first, 3);
	assert_string_equal(av[first], "--text");
	assert_string_equal(av[first + 1], "-g");

	/* a hidden option is taken */
	assert_int_equal(parse(&t_cmd, &a, av, &first, "test", "--secret", NULL), 0);
	assert_true(a.other);
}

/* opt_named(): an option by its flag among arguments not parsed yet, named in full */
static void test_named(void **state)
{
	static const struct {
		const char *argv[4];
		const char *found;
	} cases[] = {
		{ { "test", "--text", "x", "--list=d" }, "list" },
		{ { "test", "a", "--list", "d" }, "list" },
		{ { "test", "--li", "d" }, NULL },
		{ { "test", "--", "--list", "d" }, NULL },
		{ { "test", "--listing" }, NULL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *av[5] = { 0 };
		int argc = 0;
		const struct opt_def *o;

		while (argc < 4 && cases[i].argv[argc]) {
			av[argc] = (char *)cases[i].argv[argc];
			argc++;
		}
		o = opt_named(&t_cmd, OPT_REPEAT, argc, av);
		if (cases[i].found)
			assert_string_equal(o ? o->name : "(none)", cases[i].found);
		else
			assert_null(o);
	}
}

/* Each refused command line: -FSLAB_EINPUT, one error line, what it says. */
static void test_errors(void **state)
{
	static const struct {
		const struct opt_cmd *cmd;
		const char *argv[4];
		const char *says;
	} bad[] = {
		{ &t_cmd, { "--frob" }, "unknown option '--frob'; see 'fslab test --help'" },
		{ &t_cmd, { "-x" }, "unknown option '-x'; see 'fslab test --help'" },
		{ &t_cmd, { "--text" }, "--text needs a value; see 'fslab test --help'" },
		{ &t_cmd, { "-n" }, "-n needs a value; see 'fslab test --help'" },
		{ &t_cmd, { "--flag=yes" }, "--flag takes no value ('--flag=yes')" },
		{ &t_cmd, { "--joined" }, "option '--joined' is ambiguous (--joined-a, --joined-b)" },
		{ &t_cmd, { "--fail", "v", "--frob" }, "--fail 'v': refused by set()" },
		{ &t_nopos, { "word" }, "unexpected argument 'word'; options start with --, see "
					"'fslab nopos --help'" },
		{ &t_sib, { "--tex=a" }, "sib: --text is an option of 'fslab test'; see 'fslab sib "
					 "--help'" },
	};
	struct t_args a;
	char *av[8];
	int first;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *const *w = bad[i].argv;
		int ret = parse(bad[i].cmd, &a, av, &first, bad[i].cmd->name, w[0], w[1], w[2], NULL);

		if (ret != -FSLAB_EINPUT || !strstr(err, bad[i].says) ||
		    strchr(err, '\n') != err + strlen(err) - 1) {
			fprintf(stderr, "%s %s: %d, '%s' (want '%s')\n", bad[i].cmd->name, w[0], ret,
				err, bad[i].says);
			fail();
		}
	}
}

static void test_help(void **state)
{
	static const char want[] =
		"usage: fslab test [--flag] FILE...\n"
		"\n"
		"  -f, --flag      a flag\n"
		"  -g, --other     another flag\n"
		"  --text FILE     a value kept as given, the last one\n"
		"                  counts, and a text long enough to be\n"
		"                  wrapped at the width of this command\n"
		"  --list DIR      each one kept\n"
		"  -n, --number N  handed to set(); default 7\n"
		"\n"
		"A group:\n"
		"  --choice C      one of alpha, beta (the second) or gamma;\n"
		"                  default alpha\n"
		"  --fail X        made when asked\n"
		"                  second line\n"
		"  --joined-a, --joined-b: both of them\n"
		"Exit status: 0.\n";
	struct t_args a;
	char *av[8];
	int first;

	(void)state;
	/* --help and -h print it on stdout, anywhere among the options */
	assert_int_equal(parse(&t_cmd, &a, av, &first, "test", "--flag", "--help", NULL), 1);
	assert_string_equal(out, want);
	assert_string_equal(err, "");
	assert_int_equal(parse(&t_cmd, &a, av, &first, "test", "-h", NULL), 1);
	assert_string_equal(out, want);
	/* words: --help alone, else every argument is a word */
	assert_int_equal(parse(&t_words, &a, av, &first, "words", "--help", NULL), 1);
	assert_string_equal(out, "  --help  this text\n");
	assert_int_equal(parse(&t_words, &a, av, &first, "words", "--help", "-x", NULL), 0);
	assert_int_equal(first, 1);
	assert_string_equal(out, "");
}

static void test_dump(void **state)
{
	static const char want[] =
		"opt test --flag -\n"
		"opt test --other -\n"
		"opt test --text file\n"
		"opt test --list dir\n"
		"opt test --number word\n"
		"opt test --choice =alpha beta gamma\n"
		"opt test --fail word\n"
		"opt test --joined-a word\n"
		"opt test --joined-b word\n"
		"pos test 1... file\n";
	struct strbuf sb = STRBUF_INIT;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	opt_dump(&t_cmd, f);
	fclose(f);
	assert_string_equal(text, want);
	free(text);
	opt_list_words(&sb, "ext4, xfs, ntfs (ntfs-3g), ntfs3 (the in-kernel driver) and btrfs");
	assert_string_equal(sb.buf, "ext4 xfs ntfs ntfs3 btrfs");
	strbuf_release(&sb);
}

/* ---- every command's table against its --help ---- */

/* The long options of cmd's --help: in its usage lines, and those an option line starts
 * with ("  -h, --help", "  --a, --b: text"), one "--name\n" each into sb. */
static void help_names(const struct opt_cmd *cmd, struct strbuf *sb)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool usage = false;

	opt_usage(cmd, f);
	fclose(f);
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		size_t end = strlen(l);

		usage = !strncmp(l, "usage: ", 7) || (usage && l[0] == ' ' && l[1] == ' ' &&
						      l[2] == ' ');
		if (!usage && strncmp(l, "  -", 3))
			continue;
		/* an option line's names end at its text: two blanks, or ": " after joined ones */
		if (!usage) {
			char *gap = strstr(l + 2, "  "), *colon = strstr(l, ": ");

			end = gap ? (size_t)(gap - l) : end;
			end = colon && (size_t)(colon - l) < end ? (size_t)(colon - l) : end;
		}
		for (char *p = strstr(l, "--"); p && (size_t)(p - l) < end; p = strstr(p + 2, "--")) {
			size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");

			if (n && (p == l || !strchr("abcdefghijklmnopqrstuvwxyz", p[-1])))
				strbuf_addf(sb, "--%.*s\n", (int)n, p + 2);
		}
	}
	free(text);
}

static bool listed(const char *names, const char *name)
{
	char want[80];

	snprintf(want, sizeof(want), "\n--%s\n", name);
	return strstr(names, want) != NULL;
}

/* Is --name taken by cmd (its table or the one it takes too), -h/--help by every command? */
static bool taken(const struct opt_cmd *cmd, const char *name)
{
	return !strcmp(name, "help") || opt_find(cmd, name) ||
	       (cmd->also && opt_find(cmd->also, name));
}

/* cmd's --help names each option it takes and takes each it names: the problems counted. */
static int check_cmd(const struct opt_cmd *cmd)
{
	struct strbuf names = STRBUF_INIT;
	int bad = 0;

	if (cmd->flags & OPTC_WORDS)
		return 0;
	strbuf_addch(&names, '\n');
	help_names(cmd, &names);
	for (const struct opt_def *o = opt_table(cmd); o->name; o++)
		if (!(o->flags & OPT_HIDDEN) && !listed(names.buf, o->name)) {
			fprintf(stderr, "fslab %s takes --%s, its --help does not name it\n",
				cmd->name, o->name);
			bad++;
		}
	for (char *p = names.buf + 1; *p; p = strchr(p, '\n') + 1) {
		char name[80];

		snprintf(name, sizeof(name), "%.*s", (int)(strchr(p, '\n') - p - 2), p + 2);
		if (!taken(cmd, name)) {
			fprintf(stderr, "fslab %s --help names --%s, which it does not take\n",
				cmd->name, name);
			bad++;
		}
	}
	strbuf_release(&names);
	return bad;
}

static void test_every_command(void **state)
{
	const struct fslab_cmd *c;
	int bad = 0, n = 0;

	(void)state;
	for (size_t i = 0; (c = fslab_cmd_at(i)); i++) {
		if (!fslab_cmd_opts(c))
			continue;
		bad += check_cmd(fslab_cmd_opts(c));
		n++;
	}
	/* both systems' prep and teardown (the one bare prep picks is among the commands) */
	for (int k = 0; k < PREP_BE_NR; k++) {
		const struct prep_backend *be = prep_backend((enum prep_be)k);

		if (be && be->prep_opts)
			bad += check_cmd(be->prep_opts) + check_cmd(be->teardown_opts);
	}
	assert_true(n >= 12);
	assert_int_equal(bad, 0);
	/* and the check sees a difference (it says so on stderr) */
	assert_int_equal(check_cmd(&t_cmd), 0);
	assert_int_equal(check_cmd(&t_badhelp), 1);
}

/* A lab config key an option names ("devices.db_dev"), known to the lab config's reader. */
static bool known_key(const char *key, const struct lab_system *os)
{
	char path[] = "/tmp/fslab-opt-cfg.XXXXXX", epath[] = "/tmp/fslab-opt-err.XXXXXX";
	int fd = mkstemp(path), efd = mkstemp(epath), se = dup(2);
	const char *dot = strchr(key, '.');
	FILE *f = fdopen(fd, "w");
	struct lab_cfg cfg;
	ssize_t n;
	int ret;

	fprintf(f, "[%.*s%s]\n%s = 1\n", (int)(dot - key), key,
		!strncmp(key, "fs.", 3) ? " ext4" : "", dot + 1);
	fclose(f);
	fflush(stderr);
	dup2(efd, 2);
	/* the config is incomplete: only what it says of the key counts */
	ret = lab_cfg_load_for(&cfg, path, os);
	(void)ret;
	lab_cfg_release(&cfg);
	fflush(stderr);
	dup2(se, 2);
	close(se);
	n = pread(efd, err, sizeof(err) - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(efd);
	unlink(path);
	unlink(epath);
	return !strstr(err, "unknown key") && !strstr(err, "unknown section");
}

static void test_config_keys(void **state)
{
	const struct fslab_cmd *c;
	int keys = 0;

	(void)state;
	assert_false(known_key("devices.no_such_key", lab_system_find("linux")));
	for (size_t i = 0; (c = fslab_cmd_at(i)); i++)
		for (const struct opt_def *o = c->opts ? opt_table(c->opts) : NULL; o && o->name; o++)
			if (o->ini && strncmp(o->ini, "workload.", 9)) {
				assert_true(known_key(o->ini, lab_system_find("linux")));
				keys++;
			}
	for (int k = 0; k < PREP_BE_NR; k++) {
		const struct prep_backend *be = prep_backend((enum prep_be)k);

		for (const struct opt_def *o = be && be->prep_opts ? opt_table(be->prep_opts) : NULL;
		     o && o->name; o++)
			if (o->ini) {
				if (!known_key(o->ini, be->sys == PREP_WINDOWS ? lab_system_find("windows")
									: lab_system_find("linux")))
					fprintf(stderr, "--%s: [%s] unknown: %s", o->name, o->ini, err);
				assert_true(known_key(o->ini, be->sys == PREP_WINDOWS ? lab_system_find("windows")
										 : lab_system_find("linux")));
				keys++;
			}
	}
	assert_true(keys >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_every_command),
		cmocka_unit_test(test_config_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
