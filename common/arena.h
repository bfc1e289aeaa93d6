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
/* Grow an allocation made from this arena (old bytes copied; old not freed). */
void *mem_realloc(MemArena *arena, void *old, size_t old_size, size_t new_size);
char *mem_strdup(MemArena *arena, const char *s);
/* Copy len bytes and add a NUL. */
char *mem_strndup(MemArena *arena, const char *s, size_t len);
char *mem_printf(MemArena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *mem_vprintf(MemArena *arena, const char *fmt, va_list ap);

#define MEM_NEW(arena, T) ((T *)mem_calloc((arena), 1, sizeof(T)))
#define MEM_NEW_ARRAY(arena, T, n) ((T *)mem_calloc((arena), (n), sizeof(T)))

#endif
