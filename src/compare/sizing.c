// SPDX-License-Identifier: MIT
/* sizing.c: achieved transactional IOPS -> Exchange mailboxes supported per message profile. */
#include "compare/sizing.h"

#include <math.h>

void sizing_opts_default(struct sizing_opts *o)
{
	o->iops_per_message = SIZING_IOPS_PER_MESSAGE;
	o->overhead_pct = SIZING_OVERHEAD_PCT;
	o->nprofiles = 10;
	for (size_t i = 0; i < o->nprofiles; i++)
		o->profiles[i] = 50 * (i + 1);
}

double sizing_iops_per_mailbox(const struct sizing_opts *o, uint64_t messages)
{
	return (double)messages * o->iops_per_message * (1 + o->overhead_pct / 100);
}

uint64_t sizing_mailboxes(const struct sizing_opts *o, uint64_t messages, double iops)
{
	double per = sizing_iops_per_mailbox(o, messages), q;

	if (!(iops > 0) || !(per > 0))
		return 0;
	/* a hair of tolerance so 1206 / 0.1206 is 10000, not 9999 */
	q = floor(iops / per * (1 + 1e-12));
	/* a double that does not fit (1e308 IOPS from a hostile file) would be undefined as an
	 * integer: saturate instead (compare refuses such files; sizing_mailboxes stays total) */
	return q < 0x1p64 ? (uint64_t)q : UINT64_MAX;
}
