/* SPDX-License-Identifier: MIT */
/* sizing.h: achieved transactional IOPS -> Exchange mailboxes supported per message profile. */
#ifndef FSLAB_SIZING_H
#define FSLAB_SIZING_H

#include <stddef.h>
#include <stdint.h>

/*
 * Exchange 2013+ sizing: database IOPS per mailbox = messages sent+received per day x 0.00067
 * (150 messages/day = 0.101 IOPS per mailbox).  Source: Microsoft, "Exchange 2013 storage
 * sizing" / Exchange 2013 Server Role Requirements Calculator (IOPS profile table).  A planning
 * estimate for a mailbox server, not a measurement.
 */
#define SIZING_IOPS_PER_MESSAGE 0.00067
#define SIZING_OVERHEAD_PCT 20.0
#define SIZING_SOURCE "Microsoft Exchange 2013 Server Role Requirements Calculator / " \
	"\"Exchange 2013 storage sizing\": 150 messages/day = 0.101 IOPS per mailbox, " \
	"0.00067 IOPS per message/day"
#define SIZING_MAX_PROFILES 32

struct sizing_opts {
	double iops_per_message; /* IOPS per message/day per mailbox */
	double overhead_pct;     /* head room added to each mailbox's IOPS, % */
	size_t nprofiles;
	uint64_t profiles[SIZING_MAX_PROFILES]; /* messages per day per mailbox */
};

/* sizing_opts_default - 0.00067, 20 %, profiles 50, 100, ... 500 messages/day. */
void sizing_opts_default(struct sizing_opts *o);
/* sizing_iops_per_mailbox - messages x factor x (1 + overhead). */
double sizing_iops_per_mailbox(const struct sizing_opts *o, uint64_t messages);
/* sizing_mailboxes - whole mailboxes that iops supports at that profile (0 for iops <= 0). */
uint64_t sizing_mailboxes(const struct sizing_opts *o, uint64_t messages, double iops);

#endif
