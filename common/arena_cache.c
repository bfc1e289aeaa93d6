/*
 * arena_cache.c — a process-wide cache of released big arena blocks, so that
 * a query reuses the pages the previous query touched instead of faulting in
 * fresh ones.
 *
 * Why: every query builds its hash tables and column stores in a fresh query
 * arena. Before this cache the blocks came from malloc, which maps anything
 * past its mmap threshold anew and unmaps it on free, so each query paid one
 * page fault (plus the kernel zeroing the page) per 4 KB it touched:
 * ClickBench Q32 at 10M rows took ~630,000 minor faults per run and spent
 * ~46 % of its server CPU in the kernel (common/README.md has the figures).
 *
 * How: blocks of ARENA_MAP_MIN bytes or more are mmap'd here. A released
 * block keeps its mapping and goes into a small table (ARENA_CACHE_SLOTS
 * entries) of regions: base, reserved length, resident prefix (the bytes an
 * arena ever used, i.e. pages that will not fault again). A request takes the
 * region that covers most of it with resident pages (ties: the smallest such,
 * so big regions stay for big requests), and a region far larger than the
 * request is split: the remainder stays cached as a region of its own (any
 * sub-range of a mapping can later be unmapped on its own). Regions are never
 * merged; small leftovers age out like everything else.
 *
 * Bounds: the resident bytes held stay within the budget (oldest regions
 * unmapped first), the table holds at most ARENA_CACHE_SLOTS regions, and a
 * trimmer thread (started with the first release) unmaps everything after
 * idle_ms without a take or a give, so an idle server returns to its base
 * footprint. The lock is held per block taken or given, never per allocation
 * (arenas bump-allocate inside their blocks without it), and munmap runs
 * outside it.
 *
 * Transparent huge pages: with STRATA_ARENA_HUGEPAGES=1, regions of 2 MB and
 * more are madvise(MADV_HUGEPAGE)'d (the machine's THP mode is "madvise"), so
 * a fresh region faults once per 2 MB rather than once per 4 KB; off by
 * default since their synchronous zeroing and compaction slowed the first
 * queries after a restart 4x (huge_pages_wanted).
 */
#define STRATA_ARENA_INTERNAL
#include "common/arena_int.h"
#include "common/arena.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define ARENA_CACHE_SLOTS 256
#define ARENA_HUGE ((size_t)2 << 20)           /* x86-64 PMD: one THP */
#define ARENA_CACHE_MAX_DEFAULT ((size_t)4 << 30)
#define ARENA_IDLE_MS_DEFAULT 10000u

typedef struct CacheRegion {
    char *base;
    size_t reserved;             /* mapped bytes */
    size_t resident;             /* touched prefix, <= reserved */
    uint64_t seq;                /* release order: lower = older */
} CacheRegion;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;         /* trimmer: configuration changed */
    CacheRegion region[ARENA_CACHE_SLOTS];
    int nregions;
    size_t resident;             /* sum of region[].resident */
    size_t budget;
    bool budget_set;
    unsigned idle_ms;
    bool trimmer_started;
    uint64_t seq;
    int64_t last_use_ms;         /* CLOCK_MONOTONIC of the last take or give */
    uint64_t hits, maps, unmaps;
} g_cache = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .idle_ms = ARENA_IDLE_MS_DEFAULT,
};

void mem__poison(void *p, size_t len)
{
#ifdef ARENA_ASAN
    __asan_poison_memory_region(p, len);
#else
    (void)p;
    (void)len;
#endif
}

void mem__unpoison(void *p, size_t len)
{
#ifdef ARENA_ASAN
    __asan_unpoison_memory_region(p, len);
#else
    (void)p;
    (void)len;
#endif
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The default budget, once: STRATA_ARENA_CACHE_MB, else 1/8 of RAM capped
 * at 4 GB. Lock held. */
static void cache_init_budget(void)
{
    const char *env = getenv("STRATA_ARENA_CACHE_MB");
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (g_cache.budget_set)
        return;
    g_cache.budget_set = true;
    if (env != NULL && *env != '\0') {
        g_cache.budget = (size_t)strtoull(env, NULL, 10) << 20;
        return;
    }
    g_cache.budget = (pages > 0 && page > 0) ? (size_t)pages * (size_t)page / 8 : 0;
    if (g_cache.budget > ARENA_CACHE_MAX_DEFAULT)
        g_cache.budget = ARENA_CACHE_MAX_DEFAULT;
}

/* Unmap regions collected outside the lock. */
static void cache_release(CacheRegion *victims, int n)
{
    for (int i = 0; i < n; i++) {
        mem__unpoison(victims[i].base, victims[i].reserved);
        munmap(victims[i].base, victims[i].reserved);
    }
}

/* Remove region i from the table. Lock held. */
static CacheRegion cache_take(int i)
{
    CacheRegion r = g_cache.region[i];
    g_cache.region[i] = g_cache.region[--g_cache.nregions];
    g_cache.resident -= r.resident;
    return r;
}

/* Index of the oldest region. Lock held, nregions > 0. */
static int cache_oldest(void)
{
    int best = 0;
    for (int i = 1; i < g_cache.nregions; i++)
        if (g_cache.region[i].seq < g_cache.region[best].seq)
            best = i;
    return best;
}

/* The region serving len bytes best: most of len resident, then the
 * smallest. -1 when none is large enough. Lock held. */
static int cache_pick(size_t len)
{
    int best = -1;
    size_t best_cover = 0, best_resident = 0;
    for (int i = 0; i < g_cache.nregions; i++) {
        const CacheRegion *r = &g_cache.region[i];
        size_t cover = r->resident < len ? r->resident : len;
        if (r->reserved < len)
            continue;
        if (best < 0 || cover > best_cover || (cover == best_cover && r->resident < best_resident)) {
            best = i;
            best_cover = cover;
            best_resident = r->resident;
        }
    }
    return best;
}

static size_t huge_up(size_t n)
{
    return n > SIZE_MAX - ARENA_HUGE ? SIZE_MAX : (n + ARENA_HUGE - 1) & ~(ARENA_HUGE - 1);
}

/* Cut region r after len bytes when it holds more resident pages than that
 * (a long-lived arena must not pin them), else after want bytes (untouched
 * address space costs nothing: room to grow in place). The rest goes back
 * into the table, where a growing block can take it again
 * (mem__block_extend). Lock held. */
static void cache_split(CacheRegion *r, size_t len, size_t want)
{
    size_t cut = huge_up(r->resident > len ? len : want);
    CacheRegion rest;
    if (cut == SIZE_MAX || r->reserved < cut + ARENA_HUGE || g_cache.nregions == ARENA_CACHE_SLOTS)
        return;
    rest.base = r->base + cut;
    rest.reserved = r->reserved - cut;
    rest.resident = r->resident > cut ? r->resident - cut : 0;
    rest.seq = r->seq;
    r->reserved = cut;
    r->resident -= rest.resident;
    g_cache.region[g_cache.nregions++] = rest;
    g_cache.resident += rest.resident;
}

static ArenaBlock *block_from_region(const CacheRegion *r)
{
    ArenaBlock *b = (ArenaBlock *)(void *)r->base;
    mem__unpoison(r->base, r->reserved);
    b->reserved = r->reserved;
    b->resident = r->resident;
    return b;
}

/* Huge pages only when STRATA_ARENA_HUGEPAGES=1: on this machine (THP
 * "madvise", defrag "madvise") a fresh huge page is zeroed and often
 * compacted synchronously at its first touch, which made the first queries
 * after a restart 4x slower — ClickBench Q22's first try after a restart
 * and cache drop 5.3 s with them, 1.3 s without; once the cache holds a
 * query's blocks they are faulted already either way. */
static bool huge_pages_wanted(void)
{
    static int wanted = -1;   /* read once; threads racing to set it agree */
    int w = __atomic_load_n(&wanted, __ATOMIC_RELAXED);
    if (w < 0) {
        const char *e = getenv("STRATA_ARENA_HUGEPAGES");
        w = e != NULL && strcmp(e, "1") == 0;
        __atomic_store_n(&wanted, w, __ATOMIC_RELAXED);
    }
    return w == 1;
}

/* mmap a fresh region of want bytes, or of len when want cannot be had. */
static ArenaBlock *block_map_fresh(size_t len, size_t want)
{
    void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    ArenaBlock *b;
    if (p == MAP_FAILED && want > len) {
        want = len;
        p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (want >= ARENA_HUGE && huge_pages_wanted())
        madvise(p, want, MADV_HUGEPAGE);
#endif
    b = p;
    b->reserved = want;
    b->resident = 0;
    return b;
}

ArenaBlock *mem__block_map(size_t len, size_t want)
{
    CacheRegion r;
    int i;
    if (want < len)
        want = len;
    pthread_mutex_lock(&g_cache.lock);
    g_cache.last_use_ms = now_ms();
    i = cache_pick(len);
    if (i >= 0) {
        r = cache_take(i);
        cache_split(&r, len, want);
        g_cache.hits++;
        pthread_mutex_unlock(&g_cache.lock);
        return block_from_region(&r);
    }
    g_cache.maps++;
    pthread_mutex_unlock(&g_cache.lock);
    return block_map_fresh(len, want);
}

int mem__block_extend(ArenaBlock *b, size_t len)
{
    char *end = (char *)b + b->reserved;
    int i;
    CacheRegion r;
    if (len <= b->reserved)
        return 1;
    pthread_mutex_lock(&g_cache.lock);
    for (i = 0; i < g_cache.nregions; i++)
        if (g_cache.region[i].base == end)
            break;
    if (i == g_cache.nregions || b->reserved + g_cache.region[i].reserved < len) {
        pthread_mutex_unlock(&g_cache.lock);
        return 0;
    }
    g_cache.last_use_ms = now_ms();
    r = cache_take(i);
    cache_split(&r, len - b->reserved, len - b->reserved);
    g_cache.hits++;
    pthread_mutex_unlock(&g_cache.lock);
    /* The taken pages count as resident: an overestimate when b's own
     * prefix was not all touched, which only makes the budget stricter. */
    if (r.resident > 0)
        b->resident = b->reserved + r.resident;
    b->reserved += r.reserved;
    return 1;
}

/* Body of the trimmer thread: releases everything after idle_ms unused. */
static void *cache_trimmer(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&g_cache.lock);
    for (;;) {
        CacheRegion victims[ARENA_CACHE_SLOTS];
        int n = 0;
        int64_t idle = now_ms() - g_cache.last_use_ms;
        unsigned step_ms = g_cache.idle_ms / 4 + 1;
        struct timespec until;
        if (g_cache.nregions > 0 && idle >= (int64_t)g_cache.idle_ms) {
            while (g_cache.nregions > 0)
                victims[n++] = cache_take(g_cache.nregions - 1);
            g_cache.unmaps += (uint64_t)n;
            pthread_mutex_unlock(&g_cache.lock);
            cache_release(victims, n);
            pthread_mutex_lock(&g_cache.lock);
            continue;
        }
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += step_ms / 1000;
        until.tv_nsec += (long)(step_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g_cache.wake, &g_cache.lock, &until);
    }
    return NULL;
}

/* Start the trimmer with every signal blocked (signals belong to the
 * session threads). Lock held. */
static void cache_start_trimmer(void)
{
    pthread_t t;
    pthread_attr_t attr;
    sigset_t all, old;
    g_cache.trimmer_started = true;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    if (pthread_create(&t, &attr, cache_trimmer, NULL) != 0)
        g_cache.budget = 0;      /* nothing would ever trim: cache nothing */
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Evict (oldest first) until within budget and a slot is free for one more
 * region. Lock held; victims collected for cache_release. */
static int cache_evict(CacheRegion *victims, size_t extra)
{
    int n = 0;
    while (g_cache.nregions > 0 &&
           (g_cache.resident + extra > g_cache.budget || g_cache.nregions == ARENA_CACHE_SLOTS))
        victims[n++] = cache_take(cache_oldest());
    g_cache.unmaps += (uint64_t)n;
    return n;
}

void mem__block_unmap(ArenaBlock *b)
{
    CacheRegion victims[ARENA_CACHE_SLOTS + 1];
    CacheRegion r = { (char *)b, b->reserved, b->resident, 0 };
    int n;
    if (r.resident > r.reserved)
        r.resident = r.reserved;
    pthread_mutex_lock(&g_cache.lock);
    cache_init_budget();
    g_cache.last_use_ms = now_ms();
    if (!g_cache.trimmer_started && g_cache.budget > 0)
        cache_start_trimmer();
    if (g_cache.budget == 0 || r.resident > g_cache.budget) {
        victims[0] = r;          /* would never fit: straight back to the OS */
        n = 1;
        g_cache.unmaps++;
    } else {
        n = cache_evict(victims, r.resident);
        r.seq = ++g_cache.seq;
        mem__poison(r.base, r.reserved);
        g_cache.region[g_cache.nregions++] = r;
        g_cache.resident += r.resident;
    }
    pthread_mutex_unlock(&g_cache.lock);
    cache_release(victims, n);
}

void mem_cache_configure(size_t budget_bytes, unsigned idle_ms)
{
    CacheRegion victims[ARENA_CACHE_SLOTS];
    int n;
    pthread_mutex_lock(&g_cache.lock);
    g_cache.budget_set = true;
    g_cache.budget = budget_bytes;
    g_cache.idle_ms = idle_ms ? idle_ms : ARENA_IDLE_MS_DEFAULT;
    n = cache_evict(victims, 0);
    pthread_cond_broadcast(&g_cache.wake);
    pthread_mutex_unlock(&g_cache.lock);
    cache_release(victims, n);
}

void mem_cache_trim(void)
{
    CacheRegion victims[ARENA_CACHE_SLOTS];
    int n = 0;
    pthread_mutex_lock(&g_cache.lock);
    while (g_cache.nregions > 0)
        victims[n++] = cache_take(g_cache.nregions - 1);
    g_cache.unmaps += (uint64_t)n;
    pthread_mutex_unlock(&g_cache.lock);
    cache_release(victims, n);
}

void mem_cache_stats(MemCacheStats *out)
{
    pthread_mutex_lock(&g_cache.lock);
    cache_init_budget();
    out->cached_bytes = g_cache.resident;
    out->cached_blocks = (size_t)g_cache.nregions;
    out->budget_bytes = g_cache.budget;
    out->hits = g_cache.hits;
    out->maps = g_cache.maps;
    out->unmaps = g_cache.unmaps;
    pthread_mutex_unlock(&g_cache.lock);
}
