// SPDX-License-Identifier: MIT
/*
 * jetstress_cache.c: the Jetstress workload's page-ID cache (ESE's database cache without the
 * data): which pages are cached, dirty, being read or written, CLOCK eviction and the dirty
 * queue the lazy writer drains oldest first.  Every function runs with db->mu held.
 */
#include <stdlib.h>

#include "lib/base.h"
#include "jetstressP.h"
#include "lib/random.h"

static uint32_t bucket_of(const struct js_db *db, uint64_t pgno)
{
	return (uint32_t)(mix64(pgno) % db->nbuckets);
}

uint32_t js_cache_lookup(struct js_db *db, uint64_t pgno)
{
	for (uint32_t i = db->buckets[bucket_of(db, pgno)]; i != NONE; i = db->slots[i].next)
		if (db->slots[i].pgno == pgno)
			return i;
	return NONE;
}

static void cache_unlink(struct js_db *db, uint32_t s)
{
	uint32_t *pp = &db->buckets[bucket_of(db, db->slots[s].pgno)];

	while (*pp != s)
		pp = &db->slots[*pp].next;
	*pp = db->slots[s].next;
}

/* A free or evictable slot (CLOCK, skipping dirty and busy ones), or NONE when every slot
 * is dirty or busy: the caller waits for the writer. */
uint32_t js_cache_victim(struct js_db *db)
{
	if (db->nused < db->nslots)
		return db->nused++;
	for (uint32_t n = 0; n < 2 * db->nslots; n++) {
		uint32_t s = db->hand;
		struct slot *sl = &db->slots[s];

		/* no division per step: the scan is a chain of them (7 % of a 32-session
		 * load's CPU time was this loop, perf) */
		if (++db->hand == db->nslots)
			db->hand = 0;
		if (sl->flags & (SLOT_DIRTY | SLOT_WRITING | SLOT_READING))
			continue;
		if (sl->flags & SLOT_REF) {
			sl->flags &= ~SLOT_REF;
			continue;
		}
		cache_unlink(db, s);
		return s;
	}
	return NONE;
}

void js_cache_insert(struct js_db *db, uint32_t s, uint64_t pgno, uint32_t flags)
{
	uint32_t b = bucket_of(db, pgno);

	db->slots[s] = (struct slot){ .pgno = pgno, .next = db->buckets[b], .flags = flags };
	db->buckets[b] = s;
}

void js_dirtyq_push(struct js_db *db, uint32_t s)
{
	db->dirtyq[(db->dq_head + db->dq_n++) % db->nslots] = s;
}

void js_dirtyq_unpop(struct js_db *db, uint32_t s)
{
	db->dq_head = (db->dq_head + db->nslots - 1) % db->nslots;
	db->dirtyq[db->dq_head] = s;
	db->dq_n++;
}

uint32_t js_dirtyq_pop(struct js_db *db)
{
	uint32_t s = db->dirtyq[db->dq_head];

	db->dq_head = (db->dq_head + 1) % db->nslots;
	db->dq_n--;
	return s;
}

void js_mark_dirty(struct js_db *db, uint32_t s)
{
	struct slot *sl = &db->slots[s];

	if (!(sl->flags & SLOT_DIRTY)) {
		sl->flags |= SLOT_DIRTY;
		/* a slot being written goes back on the queue when its write completes */
		if (!(sl->flags & SLOT_WRITING))
			js_dirtyq_push(db, s);
		pthread_cond_signal(&db->cv_dirty);
	}
}

void js_cache_setup(struct js_db *db, uint64_t cache_size)
{
	db->nslots = js_cache_slots(cache_size, db->npages, db->sessions, db->wdepth);
	db->nbuckets = db->nslots * 2 + 1;
	db->slots = xcalloc(db->nslots, sizeof(*db->slots));
	db->buckets = xmalloc(db->nbuckets * sizeof(*db->buckets));
	for (uint32_t i = 0; i < db->nbuckets; i++)
		db->buckets[i] = NONE;
	db->dirtyq = xcalloc(db->nslots, sizeof(*db->dirtyq));
}

void js_cache_hold(struct js_db *db, uint64_t depth)
{
	uint32_t avail = MAX(db->nslots / 50, db->sessions * JS_CACHE_PAGES_PER_SESSION);

	db->ckpt_depth = depth;
	db->dirty_max = db->nslots > avail ? db->nslots - avail : 1;
}
