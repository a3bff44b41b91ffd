// SPDX-License-Identifier: MIT
/*
 * jetstress_checksum.c: the Jetstress checksum pass after the load: every page of every
 * database read sequentially and verified (Jetstress's "database checksum" step).
 */
#include <stdlib.h>

#include "jetstressP.h"

/* Read every page of every database sequentially and verify it (Jetstress's checksum step). */
void js_checksum_pass(struct run_ctx *rc)
{
	struct js *js = js_of(rc);
	struct checksum_result *cs = &rc->res->checksum;
	const unsigned int depth = 4, chunk_pages = 32;
	const size_t chunk = (size_t)chunk_pages * DB_PAGE_SIZE;
	void *bufs = xmalloc_aligned(chunk * depth);
	uint64_t t0 = now_ns();
	struct io_ctx ctx;

	if (io_ctx_init(&ctx, rc->o->engine, depth)) {
		free(bufs);
		return;
	}
	fslab_info("checksum pass: reading every page of %u database(s)", js->ndbs);
	cs->ran = true;
	for (unsigned int d = 0; d < js->ndbs && cs->ran; d++) {
		struct js_db *db = &js->dbs[d];
		struct io_u ios[4], *fr[4], *done[4];
		unsigned int nfree = depth;
		uint64_t next = 1;

		for (unsigned int i = 0; i < depth; i++) {
			ios[i] = (struct io_u){ .fd = db->fd, .op = IO_READ,
						.buf = (char *)bufs + i * chunk };
			fr[i] = &ios[i];
		}
		while (next < db->npages || nfree < depth) {
			int k;

			if (*rc->stop) {
				cs->ran = false;
			}
			while (cs->ran && nfree && next < db->npages) {
				struct io_u *io = fr[--nfree];
				uint64_t n = MIN((uint64_t)chunk_pages, db->npages - next);

				io->off = db->base + next * DB_PAGE_SIZE;
				io->len = (uint32_t)(n * DB_PAGE_SIZE);
				next += n;
				if (io_submit(&ctx, &io, 1)) {
					fr[nfree++] = io;
					cs->ran = false;
				}
			}
			if (nfree == depth)
				break;
			k = io_reap(&ctx, done, 1, depth);
			if (k < 0)
				break;
			for (int i = 0; i < k; i++) {
				struct io_u *io = done[i];
				uint64_t first = (io->off - db->base) / DB_PAGE_SIZE;
				uint64_t n = io->len / DB_PAGE_SIZE;

				if (io->res != (int)io->len) {
					cs->bad_pages += n;
					if (!cs->first_bad)
						cs->first_bad = xasprintf("%s pages %llu-%llu: read error",
							db->name, (unsigned long long)first,
							(unsigned long long)(first + n - 1));
				} else {
					for (uint64_t p = 0; p < n; p++) {
						const char *why = db_verify_page((char *)io->buf +
							p * DB_PAGE_SIZE, db->info.dbid, first + p);

						if (!why)
							continue;
						cs->bad_pages++;
						if (!cs->first_bad)
							cs->first_bad = xasprintf("%s page %llu: %s", db->name,
								(unsigned long long)(first + p), why);
					}
				}
				cs->pages += n;
				cs->bytes += io->len;
				fr[nfree++] = io;
			}
		}
	}
	cs->seconds = (now_ns() - t0) / 1e9;
	cs->mbps = cs->seconds > 0 ? cs->bytes / cs->seconds / 1e6 : 0;
	io_ctx_release(&ctx);
	free(bufs);
}
