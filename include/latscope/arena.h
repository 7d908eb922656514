/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bump allocator for an analysis' working state, freed all at once.
 *
 * Its memory comes in 2 MiB-aligned chunks the kernel is asked to back with
 * transparent huge pages (madvise MADV_HUGEPAGE; where the kernel says no, it
 * is ordinary memory).  On a VM a page fault costs ~10 us: the wakeup
 * analysis touched ~3,500 pages of rings, histograms and task records on a
 * 537k-event trace, a third of its run time, against a handful of huge pages.
 */
#ifndef LATSCOPE_ARENA_H
#define LATSCOPE_ARENA_H

#include <stddef.h>

struct lat_arena_chunk;

struct lat_arena {
	struct lat_arena_chunk *chunks;
	char *cur;			/* the free part of the newest chunk */
	size_t left;
	size_t mapped;			/* bytes mapped in all, for tests and limits */
};

/* @size zeroed bytes, 64-byte aligned, or NULL; lives until lat_arena_release(). */
void *lat_arena_alloc(struct lat_arena *a, size_t size);
/* 0 when built with AddressSanitizer: then every request is a calloc() of its own. */
int lat_arena_mapped_in_chunks(void);
/* Unmaps everything; the arena is empty and usable again. */
void lat_arena_release(struct lat_arena *a);

/*
 * A zeroed, 2 MiB-aligned mapping of at least @len bytes with huge pages
 * advised, for a big buffer that is reused rather than freed; NULL on failure.
 * *map and *maplen are what lat_bigmap_free() needs.
 */
#define LAT_BIGMAP_UNIT ((size_t)2 << 20)	/* lengths are rounded up to this */
void *lat_bigmap(size_t len, void **map, size_t *maplen);
void lat_bigmap_free(void *map, size_t maplen);

#endif
