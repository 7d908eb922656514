// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bump allocation from 2 MiB-aligned anonymous mappings (see arena.h for why).
 * A request larger than a chunk gets a mapping of its own.
 *
 * Under AddressSanitizer every request is its own calloc() instead, so that an
 * overrun of one block into the next is caught: ASan does not see inside mmap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "latscope/arena.h"
#include "latscope/base.h"

#define ARENA_MALLOC LAT_ASAN

#define ARENA_CHUNK LAT_BIGMAP_UNIT
#define ARENA_ALIGN 64

struct lat_arena_chunk {
	struct lat_arena_chunk *next;
	void *map;			/* what munmap() gets back */
	size_t maplen;
};

void *lat_bigmap(size_t len, void **map, size_t *maplen)
{
	uintptr_t start;
	char *m;

	if (len > SIZE_MAX - 2 * ARENA_CHUNK)
		return NULL;
	len = (len + ARENA_CHUNK - 1) & ~(ARENA_CHUNK - 1);
	*maplen = len + ARENA_CHUNK;
	if (ARENA_MALLOC) {
		/* the same usable length, so callers' capacities are the same */
		*map = calloc(1, len);
		return *map;
	}
	m = mmap(NULL, *maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	*map = m;
	start = ((uintptr_t)m + ARENA_CHUNK - 1) & ~(uintptr_t)(ARENA_CHUNK - 1);
#ifdef MADV_HUGEPAGE
	/* advice only: without huge pages the memory is the same, just slower to fault */
	(void)madvise((void *)start, len, MADV_HUGEPAGE);
#endif
	return (void *)start;
}

void lat_bigmap_free(void *map, size_t maplen)
{
	if (map && ARENA_MALLOC)
		free(map);
	else if (map)
		munmap(map, maplen);
}

/* A zeroed chunk of at least @len bytes (a multiple of ARENA_CHUNK), 2 MiB-aligned. */
static struct lat_arena_chunk *chunk_new(struct lat_arena *a, size_t len)
{
	void *map;
	size_t maplen;
	struct lat_arena_chunk *c = lat_bigmap(len, &map, &maplen);

	if (!c)
		return NULL;
	/* the chunk's header is its first bytes */
	c->map = map;
	c->maplen = maplen;
	c->next = a->chunks;
	a->chunks = c;
	a->mapped += maplen;
	return c;
}

void *lat_arena_alloc(struct lat_arena *a, size_t size)
{
	size_t hdr = (sizeof(struct lat_arena_chunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	char *p;

	if (!size)
		size = 1;
	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (ARENA_MALLOC) {
		struct lat_arena_chunk *c = aligned_alloc(ARENA_ALIGN, hdr + size);

		if (!c)
			return NULL;
		memset(c, 0, hdr + size);
		c->map = c;
		c->maplen = hdr + size;
		c->next = a->chunks;
		a->chunks = c;
		a->mapped += hdr + size;
		return (char *)c + hdr;
	}
	if (size > ARENA_CHUNK - hdr) {
		/* its own mapping; the current chunk goes on serving small requests */
		size_t len = (hdr + size + ARENA_CHUNK - 1) & ~(ARENA_CHUNK - 1);
		struct lat_arena_chunk *c = chunk_new(a, len);

		return c ? (char *)c + hdr : NULL;
	}
	if (size > a->left) {
		struct lat_arena_chunk *c = chunk_new(a, ARENA_CHUNK);

		if (!c)
			return NULL;
		a->cur = (char *)c + hdr;
		a->left = ARENA_CHUNK - hdr;
	}
	p = a->cur;
	a->cur += size;
	a->left -= size;
	return p;
}

void lat_arena_release(struct lat_arena *a)
{
	struct lat_arena_chunk *c = a->chunks;

	while (c) {
		struct lat_arena_chunk *next = c->next;

		lat_bigmap_free(c->map, c->maplen);
		c = next;
	}
	a->chunks = NULL;
	a->cur = NULL;
	a->left = 0;
	a->mapped = 0;
}

int lat_arena_mapped_in_chunks(void)
{
	return !ARENA_MALLOC;
}
