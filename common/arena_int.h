/*
 * arena_int.h — internal to common/arena.c and common/arena_cache.c: the
 * block header every arena block starts with, and the process-wide cache of
 * mapped blocks that arena.c takes big blocks from and gives them back to.
 * Nothing outside those two files may include it.
 */
#ifndef STRATA_COMMON_ARENA_INT_H
#define STRATA_COMMON_ARENA_INT_H

#ifndef STRATA_ARENA_INTERNAL
#error "common/arena_int.h is internal to common/arena*.c; include common/arena.h"
#endif

#include <stddef.h>
#include <stdint.h>

/* ARENA_ASAN: built with AddressSanitizer (clang's and gcc's spellings). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(ARENA_ASAN)
#define ARENA_ASAN 1
#endif

/*
 * Every block starts with this header. A block of ARENA_MAP_MIN bytes or
 * more is an mmap'd region of `reserved` bytes (a multiple of the page size)
 * of which the arena uses the first `size`; smaller ones come from malloc
 * (reserved = 0). A block holding one big allocation only carries a tag
 * (arena.c's arena_big_tag) so that mem_realloc can grow it in place.
 */
typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t size;                 /* bytes in use, header included */
    size_t reserved;             /* mapped bytes (0: malloc'd) */
    size_t resident;             /* high-water of size: the mapping's touched prefix */
    uintptr_t tag;               /* nonzero: a dedicated big block of one arena */
} ArenaBlock;

/* Blocks from this size up are mapped and cached rather than malloc'd
 * (below it, glibc's heap already reuses freed memory without faults). */
#define ARENA_MAP_MIN ((size_t)1 << 20)

/*
 * A mapped block of at least len bytes (len a multiple of the page size),
 * preferably with want >= len bytes of address space (room to grow in
 * place), from the cache when it holds one, else from mmap. Returns the
 * block with reserved and resident set (other fields are the caller's), or
 * NULL when the address space is exhausted. Thread-safe.
 */
ArenaBlock *mem__block_map(size_t len, size_t want);

/* Grow mapped block b's address space in place to len bytes by taking the
 * cached region that starts right where b ends (the rest of a region b was
 * cut from, typically). 1 when b->reserved >= len now; the new part stays
 * poisoned under ASan. Thread-safe. */
int mem__block_extend(ArenaBlock *b, size_t len);

/* Give a block from mem__block_map back: into the cache while it stays
 * within its budget, else to the OS. Thread-safe. */
void mem__block_unmap(ArenaBlock *b);

/* Under AddressSanitizer: mark bytes unusable / usable again (no-ops
 * otherwise). Cached blocks and the unused tail of a mapped block are
 * poisoned, so a use after release is reported as in a malloc'd block. */
void mem__poison(void *p, size_t len);
void mem__unpoison(void *p, size_t len);

#endif
