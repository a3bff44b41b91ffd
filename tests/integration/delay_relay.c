// SPDX-License-Identifier: MIT
/*
 * delay_relay.c: an ssh ProxyCommand for the host test rig (hosts-lib.sh): relays its
 * stdin/stdout to HOST:PORT with every byte held MS milliseconds in each direction, the
 * latency of a long link, for kernels without sch_netem (tc netem is used where there is).
 *	usage: delay_relay MS HOST PORT
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct chunk {
	struct chunk *next;
	uint64_t due;
	size_t len, off;
	char data[];
};

struct line {
	struct chunk *head, *tail;
	int from, to;
	int eof; /* the source ended: pass it on once the line is empty */
};

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void push(struct line *l, const char *buf, size_t n, uint64_t due)
{
	struct chunk *c = malloc(sizeof(*c) + n);

	if (!c)
		exit(1);
	c->next = NULL;
	c->due = due;
	c->len = n;
	c->off = 0;
	memcpy(c->data, buf, n);
	if (l->tail)
		l->tail->next = c;
	else
		l->head = c;
	l->tail = c;
}

/* write what is due; -1 when the destination is gone */
static int flush(struct line *l, uint64_t t)
{
	while (l->head && l->head->due <= t) {
		struct chunk *c = l->head;
		ssize_t w = write(l->to, c->data + c->off, c->len - c->off);

		if (w < 0)
			return errno == EINTR ? 0 : -1;
		c->off += (size_t)w;
		if (c->off < c->len)
			return 0;
		l->head = c->next;
		if (!l->head)
			l->tail = NULL;
		free(c);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai;
	struct line up = { .from = 0 }, down = { .to = 1 };
	uint64_t delay;
	int s;

	if (argc != 4) {
		fprintf(stderr, "usage: delay_relay MS HOST PORT\n");
		return 2;
	}
	delay = strtoull(argv[1], NULL, 10) * 1000000ULL;
	if (getaddrinfo(argv[2], argv[3], &hints, &ai)) {
		fprintf(stderr, "delay_relay: cannot resolve %s\n", argv[2]);
		return 1;
	}
	s = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	if (s < 0 || connect(s, ai->ai_addr, ai->ai_addrlen)) {
		fprintf(stderr, "delay_relay: cannot connect to %s:%s: %s\n", argv[2], argv[3],
			strerror(errno));
		return 1;
	}
	freeaddrinfo(ai);
	up.to = s;
	down.from = s;
	for (;;) {
		struct pollfd p[2];
		uint64_t t = now(), next = UINT64_MAX;
		int n = 0, timeout;
		char buf[65536];

		if (flush(&up, t) || flush(&down, t))
			return 0;
		if (up.eof == 1 && !up.head) {
			shutdown(s, SHUT_WR);
			up.eof = 2;
		}
		if (down.eof && !down.head)
			return 0;
		if (up.head)
			next = up.head->due;
		if (down.head && down.head->due < next)
			next = down.head->due;
		timeout = next == UINT64_MAX ? -1 : (int)((next - t) / 1000000 + 1);
		if (!up.eof)
			p[n++] = (struct pollfd){ .fd = up.from, .events = POLLIN };
		if (!down.eof)
			p[n++] = (struct pollfd){ .fd = down.from, .events = POLLIN };
		if (poll(p, (nfds_t)n, timeout) < 0 && errno != EINTR)
			return 1;
		for (int i = 0; i < n; i++) {
			struct line *l = p[i].fd == up.from ? &up : &down;
			ssize_t r;

			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(l->from, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				l->eof = 1;
			else
				push(l, buf, (size_t)r, now() + delay);
		}
	}
}
