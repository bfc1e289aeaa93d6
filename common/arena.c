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
 * Blocks of ARENA_MAP_MIN (1 MB) and more are not malloc'd: they are mapped
 * regions from the process-wide block cache (arena_cache.c), and reset or
 * destroy gives them back to it, pages still touched, for the next query.
 * A big request's own block reserves more address space than it uses (8x,
 * at least 64 MB; untouched pages cost nothing), so mem_realloc of such an
 * allocation — the geometric growth of a hash table or column store — grows
 * in place: no copy, no abandoned old block, no page faults for the old part.
 *
 * Every pointer returned is 16-byte aligned (SIMD loads, int128, long double).
 */
#define STRATA_ARENA_INTERNAL
#include "common/arena.h"
#include "common/arena_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define ARENA_ALIGN 16
#define ARENA_FIRST_BLOCK (8 * 1024)
#define ARENA_MAX_BLOCK (8 * 1024 * 1024)
#define ARENA_ALIGN_UP(x) (((x) + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1))
#define ARENA_PAGE ((size_t)4096)
#define ARENA_PAGE_UP(x) (((x) + (ARENA_PAGE - 1)) & ~(ARENA_PAGE - 1))
/* Address space reserved for a big request's own block: room to double
 * three times in place. Under ASan less (its shadow of a poisoned tail is
 * written, 1/8 of the tail), yet enough to exercise growth in place. */
#ifdef ARENA_ASAN
#define ARENA_GROW_FACTOR 4
#define ARENA_GROW_MIN ((size_t)0)
#else
#define ARENA_GROW_FACTOR 8
#define ARENA_GROW_MIN ((size_t)64 << 20)
#endif

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
    memset(block, 0, sizeof *block);
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

/* A block goes back where it came from: the block cache or malloc. */
static void arena_block_free(ArenaBlock *b)
{
    if (b->reserved != 0) {
        if (b->resident < b->size)
            b->resident = b->size;
        mem__block_unmap(b);
    } else {
        free(b);
    }
}

/* Free every block except the first (which holds the header). */
static void arena_free_blocks(MemArena *arena)
{
    ArenaBlock *b = arena->blocks;
    while (b != NULL) {
        ArenaBlock *next = b->next;
        if (b != arena->first)
            arena_block_free(b);
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

/* A block of block_size bytes, honouring the limit: mapped (with want bytes
 * of address space when it can) from ARENA_MAP_MIN up, else malloc'd. */
static ArenaBlock *arena_new_block(MemArena *arena, size_t block_size, size_t request, size_t want)
{
    ArenaBlock *b = NULL;
    if (arena->limit != 0 && arena->bytes + block_size > arena->limit)
        arena_oom(arena, request);
    if (block_size >= ARENA_MAP_MIN)
        b = mem__block_map(ARENA_PAGE_UP(block_size), ARENA_PAGE_UP(want));
    if (b != NULL) {
        /* The unused tail stays poisoned under ASan, like malloc's redzone. */
        mem__poison((char *)b + block_size, b->reserved - block_size);
    } else {
        b = malloc(block_size);
        if (b == NULL)
            arena_oom(arena, request);
        b->reserved = 0;
        b->resident = 0;
    }
    b->size = block_size;
    b->tag = 0;
    arena->bytes += block_size;
    return b;
}

/* The tag of a big request's own block: says "block b holds one allocation
 * of arena". The bytes before an ordinary allocation could hold it only by
 * accident, and then b is no block of the chain: mem_realloc checks both. */
static uintptr_t arena_big_tag(const MemArena *arena, const ArenaBlock *b)
{
    return ((uintptr_t)arena ^ (uintptr_t)b ^ (uintptr_t)0x5a17a0b16b10c4edULL) | 1;
}

/* Address space to reserve for a big request's own block of len bytes. */
static size_t arena_grow_room(size_t len)
{
    if (len > SIZE_MAX / (2 * ARENA_GROW_FACTOR))
        return len;
    return len * ARENA_GROW_FACTOR > ARENA_GROW_MIN ? len * ARENA_GROW_FACTOR : ARENA_GROW_MIN;
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
        b = arena_new_block(arena, ARENA_BLOCK_HDR + size, size,
                            arena_grow_room(ARENA_BLOCK_HDR + size));
        if (b->reserved != 0)
            b->tag = arena_big_tag(arena, b);
        b->next = arena->blocks->next;
        arena->blocks->next = b;
        return (char *)b + ARENA_BLOCK_HDR;
    }
    block_size = arena->next_size;
    if (arena->next_size < ARENA_MAX_BLOCK)
        arena->next_size *= 2;
    b = arena_new_block(arena, block_size, size, block_size);
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

/* Is b one of the arena's blocks? Walks the chain (a few hundred blocks at
 * most for a big query: only reached for a tagged big block's growth). */
static int arena_has_block(const MemArena *arena, const ArenaBlock *b)
{
    for (const ArenaBlock *x = arena->blocks; x != NULL; x = x->next)
        if (x == b)
            return 1;
    return 0;
}

/* Grow the allocation old, when it is a big request's own mapped block with
 * room for new_size, in place; 0 when it is not or has no room. */
static int arena_grow_big(MemArena *arena, void *old, size_t new_size)
{
    ArenaBlock *b = (ArenaBlock *)(void *)((char *)old - ARENA_BLOCK_HDR);
    size_t need;
    if (b->tag != arena_big_tag(arena, b) || !arena_has_block(arena, b))
        return 0;
    if (new_size > SIZE_MAX / 2)
        return 0;
    need = ARENA_BLOCK_HDR + ARENA_ALIGN_UP(new_size);
    if (need <= b->size)
        return 1;
    if (arena->limit != 0 && arena->bytes + (need - b->size) > arena->limit)
        arena_oom(arena, new_size);
    if (need > b->reserved && !mem__block_extend(b, ARENA_PAGE_UP(need)))
        return 0;
    mem__unpoison((char *)b + b->size, need - b->size);
    arena->bytes += need - b->size;
    b->size = need;
    return 1;
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
    /* So can a big request's own block, within its reserved address space. */
    if (((uintptr_t)old & (ARENA_PAGE - 1)) == ARENA_BLOCK_HDR && arena_grow_big(arena, old, new_size))
        return old;
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
