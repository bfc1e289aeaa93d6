/*
 * chunk_cache.c — the process-wide cache of decoded run chunks.
 *
 * Cold chunks (cold.c) are served from run files: reading one value means
 * decoding its whole 64K-row chunk (checksum, LZ4/ZSTD, unpacking). Without
 * a shared cache every scan and every point lookup decoded again what the
 * previous one had just decoded: a pgbench `SELECT abalance ... WHERE aid =
 * $1` spent half its time in run__decode, and a hot ClickBench query paid
 * the decode of every column it touched on every run. This cache plays the
 * part of PostgreSQL's shared buffers for decoded data.
 *
 * Entries are keyed by (run, group, column) and hold the decoded chunk in an
 * arena of their own. A reader pins the entries it is reading (the values
 * stay put while pinned) and unpins them when it moves to another group or
 * ends. When the bytes held pass the budget, unpinned entries are evicted
 * least recently used first; pinned ones are skipped, so the budget can be
 * exceeded by what readers hold at once (a few chunks per scan).
 *
 * A run's entries are dropped when the run is closed (cold.c), so a freed
 * run's address never names stale entries. Readers of a run hold a reference
 * to it, so nothing is pinned then.
 *
 * Concurrency: one mutex over the table and the LRU list, never held while
 * decoding. Two readers missing the same chunk at once may both decode it;
 * the second insert finds the first and frees its copy.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/error.h"
#include "storage/runs/run.h"

#define CHUNK_CACHE_BUCKETS 16384u   /* power of two; ~8K entries of 256 KB at 2 GB */

struct StoreChunkEntry {
    const StoreRun *run;
    uint32_t group;
    int col;
    RunChunk chunk;
    MemArena *arena;          /* holds chunk.values */
    size_t bytes;
    int pins;
    StoreChunkEntry *hash_next;
    StoreChunkEntry *lru_prev, *lru_next;   /* lru_prev towards the most recent */
};

static struct {
    pthread_mutex_t mu;
    StoreChunkEntry *buckets[CHUNK_CACHE_BUCKETS];
    StoreChunkEntry *lru_head, *lru_tail;   /* head = most recently used */
    size_t used, budget;      /* budget SIZE_MAX: not set yet (the default at first use) */
    uint64_t hits, misses;
} cache = {.mu = PTHREAD_MUTEX_INITIALIZER, .budget = SIZE_MAX};

/* Default budget: an eighth of the machine's memory, at most 4 GB. */
static size_t default_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t total = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)1 << 32;
    size_t b = total / 8;
    return b > ((size_t)4 << 30) ? (size_t)4 << 30 : b;
}

/* 0 keeps nothing once unpinned: every read decodes (and checks) again. */
void store__chunk_cache_set_budget(size_t bytes)
{
    pthread_mutex_lock(&cache.mu);
    cache.budget = bytes;
    pthread_mutex_unlock(&cache.mu);
}

static uint32_t bucket_of(const StoreRun *run, uint32_t group, int col)
{
    uint64_t h = (uint64_t)(uintptr_t)run * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)group << 16 | (uint32_t)col) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return (uint32_t)h & (CHUNK_CACHE_BUCKETS - 1);
}

static StoreChunkEntry *find(const StoreRun *run, uint32_t group, int col)
{
    for (StoreChunkEntry *e = cache.buckets[bucket_of(run, group, col)]; e; e = e->hash_next)
        if (e->run == run && e->group == group && e->col == col)
            return e;
    return NULL;
}

static void lru_unlink(StoreChunkEntry *e)
{
    if (e->lru_prev)
        e->lru_prev->lru_next = e->lru_next;
    else
        cache.lru_head = e->lru_next;
    if (e->lru_next)
        e->lru_next->lru_prev = e->lru_prev;
    else
        cache.lru_tail = e->lru_prev;
    e->lru_prev = e->lru_next = NULL;
}

static void lru_push_head(StoreChunkEntry *e)
{
    e->lru_prev = NULL;
    e->lru_next = cache.lru_head;
    if (cache.lru_head)
        cache.lru_head->lru_prev = e;
    cache.lru_head = e;
    if (!cache.lru_tail)
        cache.lru_tail = e;
}

/* Unhook e from the table and the list (caller holds mu; e unpinned). */
static void remove_entry(StoreChunkEntry *e)
{
    StoreChunkEntry **p = &cache.buckets[bucket_of(e->run, e->group, e->col)];
    while (*p != e)
        p = &(*p)->hash_next;
    *p = e->hash_next;
    lru_unlink(e);
    cache.used -= e->bytes;
}

/* Unlink unpinned entries, oldest first, until the budget holds; they are
 * chained through hash_next into *freed for freeing outside the lock. */
static void evict(StoreChunkEntry **freed)
{
    StoreChunkEntry *e = cache.lru_tail;
    while (cache.used > cache.budget && e) {
        StoreChunkEntry *prev = e->lru_prev;
        if (e->pins == 0) {
            remove_entry(e);
            e->hash_next = *freed;
            *freed = e;
        }
        e = prev;
    }
}

static void free_entries(StoreChunkEntry *list)
{
    while (list) {
        StoreChunkEntry *next = list->hash_next;
        mem_arena_destroy(list->arena);
        free(list);
        list = next;
    }
}

/* Decode the chunk into an entry of its own (no lock held). */
static StoreChunkEntry *decode(const StoreRun *run, uint32_t group, int col)
{
    StoreChunkEntry *e = store__calloc(1, sizeof *e);
    e->run = run;
    e->group = group;
    e->col = col;
    e->arena = mem_arena_create("chunk cache");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        run_chunk_read(run->reader, group, col, e->arena, &e->chunk);
        err_pop(&jmp);
    } else {
        mem_arena_destroy(e->arena);
        free(e);
        err_rethrow();
    }
    e->bytes = mem_arena_bytes(e->arena) + sizeof *e;
    return e;
}

const RunChunk *store__chunk_cache_get(const StoreRun *run, uint32_t group, int col,
                                       StoreChunkEntry **pin)
{
    pthread_mutex_lock(&cache.mu);
    if (cache.budget == SIZE_MAX)
        cache.budget = default_budget();
    StoreChunkEntry *e = find(run, group, col);
    if (e) {
        e->pins++;
        cache.hits++;
        lru_unlink(e);
        lru_push_head(e);
        pthread_mutex_unlock(&cache.mu);
        *pin = e;
        return &e->chunk;
    }
    cache.misses++;
    pthread_mutex_unlock(&cache.mu);

    StoreChunkEntry *fresh = decode(run, group, col);
    StoreChunkEntry *freed = NULL;
    pthread_mutex_lock(&cache.mu);
    e = find(run, group, col);
    if (e) {
        /* Another reader decoded it meanwhile: use theirs. */
        fresh->hash_next = freed;
        freed = fresh;
        lru_unlink(e);
    } else {
        e = fresh;
        uint32_t b = bucket_of(run, group, col);
        e->hash_next = cache.buckets[b];
        cache.buckets[b] = e;
        cache.used += e->bytes;
    }
    e->pins++;
    lru_push_head(e);
    evict(&freed);
    pthread_mutex_unlock(&cache.mu);
    free_entries(freed);
    *pin = e;
    return &e->chunk;
}

void store__chunk_cache_unpin(StoreChunkEntry *e)
{
    if (!e)
        return;
    StoreChunkEntry *freed = NULL;
    pthread_mutex_lock(&cache.mu);
    ERR_ASSERT(e->pins > 0);
    e->pins--;
    if (cache.used > cache.budget)
        evict(&freed);
    pthread_mutex_unlock(&cache.mu);
    free_entries(freed);
}

void store__chunk_cache_drop_run(const StoreRun *run)
{
    StoreChunkEntry *freed = NULL;
    pthread_mutex_lock(&cache.mu);
    for (StoreChunkEntry *e = cache.lru_head; e;) {
        StoreChunkEntry *next = e->lru_next;
        if (e->run == run) {
            ERR_ASSERT(e->pins == 0);
            remove_entry(e);
            e->hash_next = freed;
            freed = e;
        }
        e = next;
    }
    pthread_mutex_unlock(&cache.mu);
    free_entries(freed);
}

void store__chunk_cache_stats(size_t *used, size_t *budget, uint64_t *hits, uint64_t *misses)
{
    pthread_mutex_lock(&cache.mu);
    *used = cache.used;
    *budget = cache.budget == SIZE_MAX ? default_budget() : cache.budget;
    *hits = cache.hits;
    *misses = cache.misses;
    pthread_mutex_unlock(&cache.mu);
}
