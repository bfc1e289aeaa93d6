/*
 * arena.h — memory arenas: every allocation has a lifetime.
 *
 * An arena hands out memory by bumping a pointer through large blocks and
 * frees everything at once (reset or destroy). Lifetimes nest as in
 * PostgreSQL's memory contexts: server → session → message → query → batch.
 * Nothing in the executor frees single objects.
 *
 * Out of memory raises 53200 (out_of_memory) through err_raise(), so callers
 * never check for NULL. Each arena may carry a byte limit (0 = none); going
 * past it also raises 53200, for that query only.
 *
 * Arenas are not thread-safe: one owner thread at a time.
 */
#ifndef STRATA_COMMON_ARENA_H
#define STRATA_COMMON_ARENA_H

#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>

typedef struct MemArena MemArena;

/* Create an arena; name is for diagnostics (static string). */
MemArena *mem_arena_create(const char *name);
/* Free every block of the arena and the arena itself. NULL is a no-op. */
void mem_arena_destroy(MemArena *arena);
/* Free everything allocated so far but keep the first block for reuse. */
void mem_arena_reset(MemArena *arena);
/* Raise 53200 when the arena's blocks would exceed limit_bytes (0 = none). */
void mem_arena_set_limit(MemArena *arena, size_t limit_bytes);
/* Bytes of blocks currently held by the arena. */
size_t mem_arena_bytes(const MemArena *arena);

/* size bytes, 16-byte aligned, uninitialised. size 0 returns a valid pointer. */
void *mem_alloc(MemArena *arena, size_t size);
/* size bytes, 16-byte aligned, zeroed. */
void *mem_calloc(MemArena *arena, size_t count, size_t size);
/* Grow an allocation made from this arena (old bytes copied; old not freed).
 * The latest small allocation, and a big one (1 MB+, a block of its own)
 * within its block's reserved address space, grow in place: old comes back. */
void *mem_realloc(MemArena *arena, void *old, size_t old_size, size_t new_size);
char *mem_strdup(MemArena *arena, const char *s);
/* Copy len bytes and add a NUL. */
char *mem_strndup(MemArena *arena, const char *s, size_t len);
char *mem_printf(MemArena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *mem_vprintf(MemArena *arena, const char *fmt, va_list ap);

/*
 * The process-wide cache of released big blocks (arena_cache.c). Blocks of
 * 1 MB and more that arenas release (reset, destroy) stay mapped, their
 * pages already touched, for the next arena that needs one: a query does not
 * pay a page fault per 4 KB for memory the previous query used. The cache's
 * resident bytes stay within a budget (default 1/8 of physical memory, at
 * most 4 GB; the environment variable STRATA_ARENA_CACHE_MB, read once,
 * overrides it, 0 = no cache); past the budget, or after idle_ms without any
 * block taken or given (default 10 s), blocks go back to the OS. Under
 * AddressSanitizer cached blocks are poisoned, so a use after reset/destroy
 * is still reported. All three functions are thread-safe.
 */
typedef struct MemCacheStats {
    size_t cached_bytes;         /* resident bytes the cache holds now */
    size_t cached_blocks;        /* blocks it holds now */
    size_t budget_bytes;         /* its budget */
    uint64_t hits;               /* blocks handed out from the cache */
    uint64_t maps;               /* blocks mapped fresh (mmap) */
    uint64_t unmaps;             /* blocks given back to the OS (munmap) */
} MemCacheStats;

/* Set the budget (0 = cache nothing, and release what is cached now) and the
 * idle time after which everything cached is released (0 = default). */
void mem_cache_configure(size_t budget_bytes, unsigned idle_ms);
/* Give every cached block back to the OS now. */
void mem_cache_trim(void);
/* A snapshot of the cache's counters. */
void mem_cache_stats(MemCacheStats *out);

#define MEM_NEW(arena, T) ((T *)mem_calloc((arena), 1, sizeof(T)))
#define MEM_NEW_ARRAY(arena, T, n) ((T *)mem_calloc((arena), (n), sizeof(T)))

#endif
