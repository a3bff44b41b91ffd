/* SPDX-License-Identifier: MIT */
/* run.h: pieces of `fslab run` other modules use. */
#ifndef FSLAB_RUN_H
#define FSLAB_RUN_H

#include <jansson.h>

/* prep.json of the prepared volume holding dir (new reference), or NULL. */
json_t *run_find_prep(const char *dir);

#endif
