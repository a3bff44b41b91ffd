// SPDX-License-Identifier: MIT
/*
 * hosts_argv.c: the argv of what the lab runs on a host (hosts.h), pure and on both systems
 * (the step runner builds every step's argv with it): the host's directories, the ssh options
 * every command gets, `fslab ARGS` quoted for the host's shell (argv_quote.c), or the lab's
 * own binary for ssh = local.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/argv_quote.h"
#include "lab/hosts.h"
#include "lab/system.h"
#include "lib/base.h"

char *hosts_workdir(const struct lab_host *h, const char *lab_id)
{
	if (h->workdir)
		return xstrdup(h->workdir);
	return xasprintf("%s-%s%c%s", lab_host_sys(h)->workdir, lab_id, lab_host_sys(h)->sep,
			 h->name);
}

char *hosts_remote_path(const struct lab_host *h, const char *lab_id, const char *rel)
{
	char *wd = hosts_workdir(h, lab_id), sep = lab_host_sys(h)->sep;
	size_t n = strlen(wd);
	char *out = xasprintf("%s%s%s", wd, n && (wd[n - 1] == '/' || wd[n - 1] == '\\') ? "" :
			      (char[2]){ sep, 0 }, rel);

	for (char *p = out + strlen(wd); *p; p++)
		if (*p == '/' || *p == '\\')
			*p = sep;
	free(wd);
	return out;
}

/* ---- ssh ---- */

/* The options every ssh of the lab has: the user's config, never a password prompt,
 * keepalives that notice a dead host within 10 s, the connection's socket. */
void hosts_ssh_base(const struct lab_hosts *cfg, const char *ctl_dir, struct strvec *out)
{
	strvec_push(out, "ssh");
	if (cfg->ssh_config)
		strvec_pushl(out, "-F", cfg->ssh_config, NULL);
	strvec_pushl(out, "-o", "BatchMode=yes", NULL);
	strvec_push(out, "-o");
	strvec_pushf(out, "ServerAliveInterval=%d", HOSTS_ALIVE_INTERVAL);
	strvec_push(out, "-o");
	strvec_pushf(out, "ServerAliveCountMax=%d", HOSTS_ALIVE_COUNT);
	strvec_push(out, "-o");
	strvec_pushf(out, "ConnectTimeout=%d", HOSTS_CONNECT_TIMEOUT);
	if (ctl_dir) {
		strvec_push(out, "-o");
		strvec_pushf(out, "ControlPath=%s/%%C", ctl_dir);
	}
}

void hosts_ssh_argv(const struct lab_hosts *cfg, const struct lab_host *h, const char *ctl_dir,
		    const char *remote_cmd, struct strvec *out)
{
	hosts_ssh_base(cfg, ctl_dir, out);
	/* a step uses the host's connection when it is there and never becomes one itself (a
	 * connection in a step's process would end with it) */
	strvec_pushl(out, "-o", "ControlMaster=no", "-T", "--", h->ssh, remote_cmd, NULL);
}

int hosts_remote_command(const struct lab_host *h, const char *const *args, struct strbuf *out,
			 const char **why)
{
	struct strvec v = STRVEC_INIT;
	int ret = 0;

	strvec_push(&v, lab_host_fslab(h));
	strvec_pushv(&v, args);
	ret = lab_host_sys(h)->remote_command(out, v.v, why);
	strvec_clear(&v);
	return ret;
}

int hosts_step_argv(const struct hosts_session *s, size_t i, const char *const *args,
		    struct strvec *out, const char **why)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct strbuf cmd = STRBUF_INIT;
	int ret;

	if (lab_host_local(h)) {
		strvec_push(out, s->self);
		strvec_pushv(out, args);
		return 0;
	}
	ret = hosts_remote_command(h, args, &cmd, why);
	if (!ret)
		hosts_ssh_argv(s->cfg, h, s->ctl_dir, cmd.buf, out);
	strbuf_release(&cmd);
	return ret;
}
