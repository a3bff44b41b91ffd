/* SPDX-License-Identifier: MIT */
/*
 * argv_quote.h: an argv as one command string, the one place fslab quotes for another
 * program's parser: a POSIX login shell (Linux hosts over ssh), a Windows command line as the
 * C runtime and CommandLineToArgvW split it (CreateProcessW in src/os/win32.c, commands the
 * Windows lab prints), and that line once more for cmd.exe (fslab.exe behind Windows'
 * OpenSSH, whose default shell is cmd.exe).  Pure string work, built on both systems.
 * docs/HOSTS.md "What is sent" shows the remote forms.
 */
#ifndef FSLAB_ARGV_QUOTE_H
#define FSLAB_ARGV_QUOTE_H

#include <stdbool.h>

#include "lib/strbuf.h"

/*
 * Windows' cmd.exe takes command lines of up to 8191 characters; OpenSSH for Windows adds
 * '"C:\Windows\System32\cmd.exe" /c "' and '"' around the command.
 */
#define ARGV_QUOTE_CMD_MAX (8191 - 64)

/* argv_quote_sh - the words of argv, each quoted for a POSIX shell (strbuf_add_sq), separated
 * by spaces, appended to out.  Any bytes but NUL go through, newlines included. */
void argv_quote_sh(struct strbuf *out, const char *const *argv);

/*
 * argv_quote_win_arg - one argument as the C runtime and CommandLineToArgvW read it back
 * (appended to out): in double quotes when always or when it needs them (empty, whitespace,
 * a quote), a '"' inside as \", backslashes doubled where a quote follows them (the closing
 * one included); anything else as it is.
 */
void argv_quote_win_arg(struct strbuf *out, const char *arg, bool always);

/*
 * argv_quote_win - argv as a whole Windows command line (CreateProcessW): argv[0], the
 * program, follows its own rule (the C runtime reads it up to the next quote or blank, with
 * no escapes): in quotes when it has a blank; a quote in it cannot be carried (-EINVAL).
 * The other arguments by argv_quote_win_arg(), quoted where needed.  0 or -EINVAL.
 */
int argv_quote_win(struct strbuf *out, const char *const *argv);

/*
 * argv_quote_cmd - argv as a command line for cmd.exe /c running a program: argv[0] (the
 * program's path) in plain double quotes, every other argument quoted by
 * argv_quote_win_arg() (always in quotes) and then each cmd.exe metacharacter of it -
 * ( ) % ! ^ " < > & | - escaped with a caret, so cmd.exe sees no quote, no variable and no
 * operator in it and hands the program the arguments as they were.  Returns 0, or -EINVAL
 * with *why set when an argument cannot be carried: a line break or another control
 * character (cmd.exe ends a command at a line break), a path for argv[0] with a quote or a
 * cmd.exe metacharacter, or a line longer than ARGV_QUOTE_CMD_MAX.  Assumes cmd.exe's
 * default of delayed expansion off.
 */
int argv_quote_cmd(struct strbuf *out, const char *const *argv, const char **why);

#endif
