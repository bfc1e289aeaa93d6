/*
 * arena.c — block-chained bump allocator (memory contexts without free()).
 *
 * An arena is a chain of malloc'd blocks. Small requests bump a pointer
 * through the current block; when it is full a new block twice the size of
 * the previous one (8 KB .. 8 MB) becomes current. A request larger than a
 * quarter of the block size gets a block of its own, linked behind the
 * current one, so it does not waste the current block's free space.
 *
 * The MemArena header lives at the start of the first block, which reset
 * keeps: a per-batch or per-message arena that is reset each time costs no
 * malloc in steady state.
 *
 * Every pointer returned is 16-byte aligned (SIMD loads, int128, long double).
 */
#include "common/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define ARENA_ALIGN 16
#define ARENA_FIRST_BLOCK (8 * 1024)
#define ARENA_MAX_BLOCK (8 * 1024 * 1024)
#define ARENA_ALIGN_UP(x) (((x) + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1))

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t size;                 /* whole block including this header */
} ArenaBlock;

struct MemArena {
    const char *name;
    ArenaBlock *blocks;          /* current block first; the first block last */
    char *ptr;                   /* bump pointer in the current block */
    char *end;                   /* end of the current block */
    char *last_alloc;            /* start of the latest small allocation (in-place realloc) */
    size_t bytes;                /* sum of block sizes held */
    size_t limit;                /* 0 = none */
    size_t next_size;            /* size of the next regular block */
    ArenaBlock *first;           /* block holding this header; kept by reset */
};

#define ARENA_BLOCK_HDR ARENA_ALIGN_UP(sizeof(ArenaBlock))
#define ARENA_HDR ARENA_ALIGN_UP(sizeof(MemArena))

static _Noreturn void arena_oom(const MemArena *arena, size_t size)
{
    ErrorData *e = err_begin(ERRCODE_OUT_OF_MEMORY);
    err_message(e, "out of memory");
    err_detail(e, "Failed on request of size %zu in memory context \"%s\".", size,
               arena ? arena->name : "");
    err_throw();
}

MemArena *mem_arena_create(const char *name)
{
    ArenaBlock *block = malloc(ARENA_FIRST_BLOCK);
    MemArena *arena;
    if (block == NULL)
        arena_oom(NULL, ARENA_FIRST_BLOCK);
    block->next = NULL;
    block->size = ARENA_FIRST_BLOCK;
    arena = (MemArena *)((char *)block + ARENA_BLOCK_HDR);
    memset(arena, 0, sizeof *arena);
    arena->name = name ? name : "";
    arena->blocks = block;
    arena->first = block;
    arena->ptr = (char *)block + ARENA_BLOCK_HDR + ARENA_HDR;
    arena->end = (char *)block + ARENA_FIRST_BLOCK;
    arena->bytes = ARENA_FIRST_BLOCK;
    arena->next_size = ARENA_FIRST_BLOCK * 2;
    return arena;
}

/* Free every block except the first (which holds the header). */
static void arena_free_blocks(MemArena *arena)
{
    ArenaBlock *b = arena->blocks;
    while (b != NULL) {
        ArenaBlock *next = b->next;
        if (b != arena->first)
            free(b);
        b = next;
    }
}

void mem_arena_destroy(MemArena *arena)
{
    ArenaBlock *first;
    if (arena == NULL)
        return;
    first = arena->first;
    arena_free_blocks(arena);
    free(first);
}

void mem_arena_reset(MemArena *arena)
{
    ArenaBlock *first = arena->first;
    arena_free_blocks(arena);
    first->next = NULL;
    arena->blocks = first;
    arena->ptr = (char *)first + ARENA_BLOCK_HDR + ARENA_HDR;
    arena->end = (char *)first + first->size;
    arena->last_alloc = NULL;
    arena->bytes = first->size;
    arena->next_size = ARENA_FIRST_BLOCK * 2;
}

void mem_arena_set_limit(MemArena *arena, size_t limit_bytes)
{
    arena->limit = limit_bytes;
}

size_t mem_arena_bytes(const MemArena *arena)
{
    return arena->bytes;
}

/* malloc a block of block_size bytes, honouring the limit. */
static ArenaBlock *arena_new_block(MemArena *arena, size_t block_size, size_t request)
{
    ArenaBlock *b;
    if (arena->limit != 0 && arena->bytes + block_size > arena->limit)
        arena_oom(arena, request);
    b = malloc(block_size);
    if (b == NULL)
        arena_oom(arena, request);
    b->size = block_size;
    arena->bytes += block_size;
    return b;
}

/* Slow path: the current block cannot hold size bytes. */
static void *arena_alloc_slow(MemArena *arena, size_t size)
{
    size_t block_size;
    ArenaBlock *b;
    if (size > SIZE_MAX / 2 - ARENA_BLOCK_HDR)
        arena_oom(arena, size);
    if (size > arena->next_size / 4) {
        /* Big request: its own block, behind the current one. */
        b = arena_new_block(arena, ARENA_BLOCK_HDR + size, size);
        b->next = arena->blocks->next;
        arena->blocks->next = b;
        return (char *)b + ARENA_BLOCK_HDR;
    }
    block_size = arena->next_size;
    if (arena->next_size < ARENA_MAX_BLOCK)
        arena->next_size *= 2;
    b = arena_new_block(arena, block_size, size);
    b->next = arena->blocks;
    arena->blocks = b;
    arena->ptr = (char *)b + ARENA_BLOCK_HDR;
    arena->end = (char *)b + block_size;
    arena->last_alloc = arena->ptr;
    arena->ptr += size;
    return arena->last_alloc;
}

void *mem_alloc(MemArena *arena, size_t size)
{
    size_t rounded = ARENA_ALIGN_UP(size);
    if (rounded < size)
        arena_oom(arena, size);
    if (rounded <= (size_t)(arena->end - arena->ptr)) {
        arena->last_alloc = arena->ptr;
        arena->ptr += rounded;
        return arena->last_alloc;
    }
    return arena_alloc_slow(arena, rounded);
}

void *mem_calloc(MemArena *arena, size_t count, size_t size)
{
    void *p;
    if (size != 0 && count > SIZE_MAX / size)
        arena_oom(arena, SIZE_MAX);
    p = mem_alloc(arena, count * size);
    memset(p, 0, count * size);
    return p;
}

void *mem_realloc(MemArena *arena, void *old, size_t old_size, size_t new_size)
{
    void *p;
    if (old == NULL)
        return mem_alloc(arena, new_size);
    if (new_size <= old_size)
        return old;
    /* The latest small allocation can grow in place. */
    if ((char *)old == arena->last_alloc) {
        size_t rounded = ARENA_ALIGN_UP(new_size);
        if (rounded >= new_size && rounded <= (size_t)(arena->end - arena->last_alloc)) {
            arena->ptr = arena->last_alloc + rounded;
            return old;
        }
    }
    p = mem_alloc(arena, new_size);
    memcpy(p, old, old_size);
    return p;
}

char *mem_strdup(MemArena *arena, const char *s)
{
    return mem_strndup(arena, s, strlen(s));
}

char *mem_strndup(MemArena *arena, const char *s, size_t len)
{
    char *p = mem_alloc(arena, len + 1);
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *mem_vprintf(MemArena *arena, const char *fmt, va_list ap)
{
    char small[256];
    va_list ap2;
    int n;
    char *p;
    va_copy(ap2, ap);
    n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        err_raise(ERRCODE_INTERNAL_ERROR, "could not format string");
    p = mem_alloc(arena, (size_t)n + 1);
    if ((size_t)n < sizeof small)
        memcpy(p, small, (size_t)n + 1);
    else
        vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *mem_printf(MemArena *arena, const char *fmt, ...)
{
    va_list ap;
    char *p;
    va_start(ap, fmt);
    p = mem_vprintf(arena, fmt, ap);
    va_end(ap);
    return p;
}
