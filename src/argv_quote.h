/* SPDX-License-Identifier: MIT */
/*
 * argv_quote.h: an argv as the one command string ssh sends to another host, quoted so that
 * every argument arrives as data: for a POSIX login shell (Linux hosts), and for cmd.exe +
 * the C runtime's command line parsing (fslab.exe behind Windows' OpenSSH, whose default
 * shell is cmd.exe).  docs/HOSTS.md "What is sent" shows both.
 *
 * The Windows quoter here is named apart from any CommandLineToArgvW quoter of the platform
 * layer (src/os, for processes fslab.exe starts itself): this one is for a command line that
 * passes cmd.exe first; the two may share the argument quoting (argv_quote_win_arg()).
 */
#ifndef FSLAB_ARGV_QUOTE_H
#define FSLAB_ARGV_QUOTE_H

#include "strbuf.h"

/*
 * Windows' cmd.exe takes command lines of up to 8191 characters; OpenSSH for Windows adds
 * '"C:\Windows\System32\cmd.exe" /c "' and '"' around the command.
 */
#define ARGV_QUOTE_CMD_MAX (8191 - 64)

/* argv_quote_sh - the words of argv, each quoted for a POSIX shell (strbuf_add_sq), separated
 * by spaces, appended to out.  Any bytes but NUL go through, newlines included. */
void argv_quote_sh(struct strbuf *out, const char *const *argv);

/* argv_quote_win_arg - one argument as the C runtime and CommandLineToArgvW read it back:
 * in double quotes, a '"' as \", backslashes doubled where a '"' follows them. */
void argv_quote_win_arg(struct strbuf *out, const char *arg);

/*
 * argv_quote_cmd - argv as a command line for cmd.exe /c running a program: argv[0] (the
 * program's path) in plain double quotes, every other argument quoted by
 * argv_quote_win_arg() and then each cmd.exe metacharacter of it - ( ) % ! ^ " < > & | -
 * escaped with a caret, so cmd.exe sees no quote, no variable and no operator in it and
 * hands the program the arguments as they were.  Returns 0, or -EINVAL with *why set when an
 * argument cannot be carried: a line break or another control character (cmd.exe ends a
 * command at a line break), a path for argv[0] with a quote or a cmd.exe metacharacter, or a
 * line longer than ARGV_QUOTE_CMD_MAX.  Assumes cmd.exe's default of delayed expansion off.
 */
int argv_quote_cmd(struct strbuf *out, const char *const *argv, const char **why);

#endif
