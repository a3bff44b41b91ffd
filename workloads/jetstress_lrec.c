// SPDX-License-Identifier: MIT
/*
 * jetstress_lrec.c: the Jetstress workload's log records (their format: jetstress.h): sealing,
 * parsing and verifying one, scanning a log file's records, and ESE's redo rule.
 */
#include <string.h>

#include "lib/crc32c.h"
#include "jetstress.h"

const char *const js_redo_names[] = {
	[JS_REDO_SKIP] = "skip", [JS_REDO_APPLY] = "apply",
	[JS_REDO_TOO_OLD] = "page time too old", [JS_REDO_TOO_NEW] = "page time too new",
};

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The CRC of a record of len bytes at p, seeded with the database id (a record of another
 * database's log does not verify). */
static uint32_t lrec_crc(const unsigned char *p, uint32_t len, uint64_t dbid)
{
	return ~crc32c(~(uint32_t)(dbid ^ dbid >> 32), p + 4, len - 4);
}

void js_lrec_seal(void *rec, const struct js_lrec *r, uint64_t dbid)
{
	unsigned char *p = rec;

	put32(p + 4, JS_LREC_MAGIC);
	put32(p + 8, r->len);
	p[12] = r->type;
	p[13] = r->flags;
	p[14] = (unsigned char)r->session;
	p[15] = (unsigned char)(r->session >> 8);
	put64(p + 16, r->lsn);
	put64(p + 24, r->pgno);
	put64(p + 32, r->before);
	put64(p + 40, r->after);
	p[48] = r->txn;
	memset(p + 49, 0, JS_LREC_HDR - 49);
	put32(p, lrec_crc(p, r->len, dbid));
}

const char *js_lrec_parse(const void *buf, size_t avail, uint64_t lsn, uint64_t dbid,
			  struct js_lrec *r)
{
	const unsigned char *p = buf;
	uint32_t len;

	if (avail < JS_LREC_HDR || get32(p + 4) == 0)
		return "no record";
	if (get32(p + 4) != JS_LREC_MAGIC)
		return "bad magic";
	len = get32(p + 8);
	if (len < JS_LREC_HDR || len > avail)
		return "bad length";
	if (get32(p) != lrec_crc(p, len, dbid))
		return "crc mismatch";
	*r = (struct js_lrec){ .len = len, .type = p[12], .flags = p[13],
			       .session = (uint16_t)(p[14] | p[15] << 8), .lsn = get64(p + 16),
			       .pgno = get64(p + 24), .before = get64(p + 32),
			       .after = get64(p + 40), .txn = p[48] };
	if (r->lsn != lsn)
		return "wrong lsn";
	if (r->type != JS_LR_UPDATE && r->type != JS_LR_FILL)
		return "unknown type";
	if (r->type == JS_LR_UPDATE && !(r->after > r->before))
		return "page times out of order";
	return NULL;
}

int js_log_scan(const void *data, size_t len, uint64_t file_base, uint64_t dbid,
		int (*fn)(const struct js_lrec *r, void *ctx), void *ctx, uint64_t *end,
		const char **why)
{
	const unsigned char *p = data;
	size_t off = 0;

	if (why)
		*why = NULL;
	for (;;) {
		struct js_lrec r;
		const char *bad;
		int ret;

		*end = file_base + off;
		if (len - off < JS_LREC_HDR)
			return 1; /* the rest of the file holds no record */
		bad = js_lrec_parse(p + off, len - off, file_base + off, dbid, &r);
		if (bad) {
			if (why)
				*why = bad;
			return 0;
		}
		if (r.type == JS_LR_FILL) {
			*end = file_base + off + r.len;
			if (off + r.len == len)
				return 1;
			if (why)
				*why = "fill short of the end";
			return 0;
		}
		ret = fn ? fn(&r, ctx) : 0;
		off += r.len;
		if (ret) {
			*end = file_base + off;
			return ret;
		}
	}
}

enum js_redo js_redo_check(uint64_t page, uint64_t before, uint64_t after)
{
	if (page >= after)
		return JS_REDO_SKIP;
	if (page == before)
		return JS_REDO_APPLY;
	return page < before ? JS_REDO_TOO_OLD : JS_REDO_TOO_NEW;
}
