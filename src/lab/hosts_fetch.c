// SPDX-License-Identifier: MIT
/*
 * hosts_fetch.c: a result back from a host (hosts.h hosts_fetch()): `fslab cat-result` over
 * the host's kept connection, its stream checked (size, sha256) as it arrives and written
 * atomically, or nothing written.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/hosts.h"
#include "lab/hostsP.h"
#include "os/os.h"
#include "remote/remote.h"
#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"

/* ---- results back ---- */

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/*
 * The receiving side of fslab cat-result, fed the stream in pieces as they arrive (from a
 * pipe, from ssh's output): "fslab-cat-result/1 SIZE\n", SIZE bytes (into an atomic file,
 * hashed), "\nsha256 HEX\n", then nothing.  The first problem stops it; nothing is written
 * unless the whole stream was right.
 */
enum rx_state { RX_HEADER, RX_BODY, RX_SEP, RX_TRAILER, RX_END, RX_FAILED };

struct result_rx {
	enum rx_state state;
	const char *path;
	uint64_t max, size, left;
	struct strbuf line, *err;
	struct atomic_file af;
	bool open;
	struct sha256 h;
	int ret;
};

static void rx_fail(struct result_rx *rx, int ret)
{
	if (rx->open)
		atomic_abort(&rx->af);
	rx->open = false;
	rx->ret = ret;
	rx->state = RX_FAILED;
}

static void rx_header(struct result_rx *rx)
{
	const char *num = rx->line.buf + strlen(REMOTE_CAT_SCHEMA) + 1;
	int ret;

	if (strncmp(rx->line.buf, REMOTE_CAT_SCHEMA " ", strlen(REMOTE_CAT_SCHEMA) + 1) ||
	    !all_digits(num)) {
		strbuf_addf(rx->err, "no '%s SIZE' line came first (is fslab there this build?)",
			    REMOTE_CAT_SCHEMA);
		rx_fail(rx, -EPROTO);
		return;
	}
	errno = 0;
	rx->size = strtoull(num, NULL, 10);
	if (errno || rx->size > rx->max) {
		strbuf_addf(rx->err, "it announced %s bytes, more than the %llu a result may have",
			    num, (unsigned long long)rx->max);
		rx_fail(rx, -EFBIG);
		return;
	}
	ret = atomic_open(&rx->af, rx->path);
	if (ret) {
		strbuf_addf(rx->err, "cannot create %s (%s)", rx->path,
			    ret == -FSLAB_EINPUT ? "not a regular file" : strerror(-ret));
		rx_fail(rx, ret);
		return;
	}
	rx->open = true;
	sha256_init(&rx->h);
	rx->left = rx->size;
	rx->state = rx->left ? RX_BODY : RX_SEP;
}

static void rx_feed(struct result_rx *rx, const char *buf, size_t len)
{
	while (len && rx->state != RX_FAILED) {
		switch (rx->state) {
		case RX_HEADER:
		case RX_TRAILER:
			if (*buf != '\n') {
				if (rx->line.len >= 128) {
					if (rx->state == RX_HEADER)
						strbuf_addf(rx->err, "no '%s SIZE' line came first (is "
							    "fslab there this build?)", REMOTE_CAT_SCHEMA);
					else
						strbuf_addf(rx->err, "no 'sha256 HEX' line after the "
							    "%llu bytes", (unsigned long long)rx->size);
					rx_fail(rx, -EPROTO);
					break;
				}
				strbuf_addch(&rx->line, *buf);
			} else if (rx->state == RX_HEADER) {
				rx_header(rx);
				strbuf_reset(&rx->line);
			} else {
				rx->state = RX_END;
			}
			buf++;
			len--;
			break;
		case RX_BODY: {
			size_t n = (size_t)MIN((uint64_t)len, rx->left);

			sha256_update(&rx->h, buf, n);
			if (fwrite(buf, 1, n, rx->af.f) != n) {
				strbuf_addf(rx->err, "cannot write %s", rx->path);
				rx_fail(rx, -EIO);
				break;
			}
			rx->left -= n;
			buf += n;
			len -= n;
			if (!rx->left)
				rx->state = RX_SEP;
			break;
		}
		case RX_SEP:
			if (*buf != '\n') {
				strbuf_addf(rx->err, "no 'sha256 HEX' line after the %llu bytes",
					    (unsigned long long)rx->size);
				rx_fail(rx, -EPROTO);
				break;
			}
			rx->state = RX_TRAILER;
			buf++;
			len--;
			break;
		case RX_END:
			strbuf_addf(rx->err, "more bytes followed the sha256 line");
			rx_fail(rx, -EPROTO);
			break;
		case RX_FAILED:
			break;
		}
	}
}

static void rx_on_output(void *ctx, const char *buf, size_t len)
{
	rx_feed(ctx, buf, len);
}

/* The end of the stream: 0 with the file in place and its hash in hex, or -errno. */
static int rx_finish(struct result_rx *rx, char hex[SHA256_HEX_LEN + 1])
{
	uint8_t d[SHA256_LEN];
	const char *sent = rx->line.buf + 7;
	int ret;

	switch (rx->state) {
	case RX_FAILED:
		return rx->ret;
	case RX_HEADER:
		strbuf_addf(rx->err, "no '%s SIZE' line came first (is fslab there this build?)",
			    REMOTE_CAT_SCHEMA);
		return -EPROTO;
	case RX_BODY:
		strbuf_addf(rx->err, "the stream ended after %llu of %llu bytes",
			    (unsigned long long)(rx->size - rx->left), (unsigned long long)rx->size);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	case RX_SEP:
	case RX_TRAILER:
		strbuf_addf(rx->err, "no 'sha256 HEX' line after the %llu bytes",
			    (unsigned long long)rx->size);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	case RX_END:
		break;
	}
	sha256_final(&rx->h, d);
	sha256_to_hex(d, hex);
	if (strncmp(rx->line.buf, "sha256 ", 7) || !sha256_hex_valid(sent)) {
		strbuf_addf(rx->err, "no 'sha256 HEX' line after the %llu bytes",
			    (unsigned long long)rx->size);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	}
	if (strcmp(sent, hex)) {
		strbuf_addf(rx->err, "the sha256 of the bytes received (%s) is not the one sent (%s)",
			    hex, sent);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	}
	rx->open = false;
	ret = atomic_commit(&rx->af);
	if (ret)
		strbuf_addf(rx->err, "cannot write %s (%s)", rx->path,
			    ret == -FSLAB_EINPUT ? "not a regular file" : strerror(-ret));
	return ret;
}

static void rx_init(struct result_rx *rx, const char *local_path, uint64_t max_bytes,
		    struct strbuf *err)
{
	memset(rx, 0, sizeof(*rx));
	rx->path = local_path;
	rx->max = max_bytes;
	rx->err = err;
	strbuf_init(&rx->line, 0);
}

static void rx_release(struct result_rx *rx)
{
	if (rx->open)
		atomic_abort(&rx->af);
	rx->open = false;
	strbuf_release(&rx->line);
}

int hosts_receive_result(int fd, const char *local_path, uint64_t max_bytes,
			 char hex[SHA256_HEX_LEN + 1], struct strbuf *err)
{
	struct result_rx rx;
	char buf[1 << 14];
	int ret = 0;

	rx_init(&rx, local_path, max_bytes, err);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		if (n <= 0)
			break;
		rx_feed(&rx, buf, (size_t)n);
	}
	if (!ret)
		ret = rx_finish(&rx, hex);
	rx_release(&rx);
	return ret;
}

/* A fetch's problem: into msg when the caller keeps it, else on stderr. */
static void fetch_msg(struct strbuf *msg, const char *fmt, ...) __printf(2, 3);
static void fetch_msg(struct strbuf *msg, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (msg)
		strbuf_addbuf(msg, &sb);
	else
		fslab_err("%s", sb.buf);
	strbuf_release(&sb);
}

int hosts_fetch(struct hosts_session *s, size_t i, const char *remote_path,
		const char *local_path, uint64_t max_bytes, char hex[SHA256_HEX_LEN + 1],
		struct strbuf *msg)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct strvec argv = STRVEC_INIT;
	struct strbuf why_rx = STRBUF_INIT;
	struct result_rx rx;
	const char *why = NULL;
	struct hrun r;
	int ret, st;

	ret = hosts_step_argv(s, i, (const char *[]){ "cat-result", remote_path, NULL }, &argv, &why);
	if (ret) {
		fetch_msg(msg, "host %s: cannot fetch %s: %s", h->name, remote_path, why);
		strvec_clear(&argv);
		return ret;
	}
	ret = hrun_start(&r, argv.v, false, 0);
	strvec_clear(&argv);
	if (ret) {
		fetch_msg(msg, "host %s: cannot start ssh (%s)", h->name, strerror(-ret));
		return ret;
	}
	rx_init(&rx, local_path, max_bytes, &why_rx);
	r.on_out = rx_on_output;
	r.ctx = &rx;
	/* a result is a few MB at most; keepalives end a dead connection sooner */
	st = hrun_wait(&r, now_ns() + 600 * NSEC_PER_SEC);
	if (st == HOSTS_SSH_FAILED && !hosts_connected(s, i)) {
		/* a lost host, whatever the stream held when it went (nothing is kept): never a
		 * torn stream blamed on the fslab there */
		fetch_msg(msg, "host %s: the ssh connection ended while %s was fetched (no answer "
			  "to keepalives within %d s: host down or network cut)", h->name,
			  remote_path, HOSTS_ALIVE_INTERVAL * (HOSTS_ALIVE_COUNT + 1));
		ret = -ENOTCONN;
		goto out;
	}
	ret = rx_finish(&rx, hex);
	if (!ret && st) {
		ret = st < 0 ? st : -EPROTO;
		os_unlink(local_path);
	}
	if (ret) {
		char *t = hosts_tail_text(r.err.buf, 300);

		/* nothing came and the command failed: its own words, not a guess at the build */
		if (rx.state == RX_HEADER && !rx.line.len && st) {
			strbuf_reset(&why_rx);
			strbuf_addf(&why_rx, "fslab cat-result %s %d", st < 0 ? "failed:" : "exited",
				    st);
		}
		fetch_msg(msg, "host %s: cannot fetch %s: %s%s%s", h->name, remote_path,
			  why_rx.len ? why_rx.buf : "fslab cat-result failed", *t ? ": " : "", t);
		free(t);
	}
out:
	rx_release(&rx);
	hrun_free(&r);
	strbuf_release(&why_rx);
	return ret;
}
