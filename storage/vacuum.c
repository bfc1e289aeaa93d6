/*
 * vacuum.c — VACUUM: reclaiming the versions nobody can see any more.
 *
 * Row numbers are locators (scans hand them to UPDATE/DELETE, WAL records
 * and checkpoint runs name rows by them), so VACUUM never renumbers: a dead
 * version keeps its row number and loses its cost instead.
 *  - The horizon (store__vacuum_horizon) is the oldest snapshot a running
 *    transaction holds or a later one can take. A version whose deletion
 *    committed at or before it is "dead": no snapshot sees it, no scan can
 *    return its locator, no UPDATE chain reaches it (a writer follows `next`
 *    only from versions deleted after its own snapshot).
 *  - Disk: every checkpoint run writes dead rows' values blanked (NULL, or
 *    zero / empty for NOT NULL columns; primary-key columns kept, the pk
 *    index still names such rows), which the run's encodings shrink to
 *    almost nothing. VACUUM makes the next checkpoint rewrite all of the
 *    table's rows as one run (a compaction), so old runs' dead values go too.
 *  - Memory: a row group (2048 rows) whose rows are all dead gets a fresh
 *    header whose MVCC stamps point at shared constant arrays (xmin 0,
 *    xmax 1 = "deleted before every snapshot", next 0): 24 B per row go.
 *    xmin 0 keeps store__visible_prefix's binary search right: every row
 *    before a dead one has xmin <= its real xmin <= horizon <= any live or
 *    future snapshot. Chunk descriptors and data pointers move to the new
 *    header unchanged (cold data stays in the run, keys and strings where
 *    they were). The old header is freed once every reader that may have
 *    loaded it has released its run ref (cold.c's retire mechanism; point
 *    lookups hold a ref for that reason).
 * Recovery releases the dead groups of every table (no snapshot exists).
 *
 * Frozen stamps. A whole group every row of which committed at or before
 * the horizon and is live and was never updated (xmax 0, next 0) needs no
 * stamps of its own: its header's stamp pointers move to one shared
 * all-zero array (xmin 0, like a released group's, keeps
 * store__visible_prefix right) and the pages of its own stamps go back to
 * the OS (MADV_DONTNEED: they read as zeros until written). At 24 B per
 * row that is most of what a table holds in memory once its columns are
 * cold. Groups are frozen at the end of recovery (store__freeze_stamps) and
 * after each checkpoint (store__freeze_stamps_live), under freeze_mu. The
 * header never moves, so a reader that loaded the old pointers reads zeros
 * (xmax, next) or the old xmin values, all of which any snapshot sees the
 * same way. A writer of such a row — store__row_claim, TRUNCATE — first
 * thaws the group (store__group_thaw, under freeze_mu): the pointers come
 * back to its own stamps, which read as zeros.
 *
 * Claims race the freeze. Readers must never see the shared zeros while a
 * row of the group is claimed (a key check would take a held key for a
 * free one), so the freezer publishes them only when no claim exists and
 * none is under way: a claimer raises the group's `claiming` count, reads
 * `freezing`, CASes through the pointer it then loads and lowers the count
 * (store__group_claim); the freezer raises `freezing`, reads `claiming`,
 * checks the stamps and only then moves the pointers. One of
 * the two sees the other (seq_cst); a claimer that sees a freeze under way
 * waits for freeze_mu and looks again.
 * TRUNCATE, which marks rows without claiming them, sets t->trunc_txn and
 * then thaws every group, each under freeze_mu; the freezer checks
 * trunc_txn under freeze_mu for each group.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "common/error.h"

/* The shared stamps of released groups (read only). */
static const uint64_t dead_xmin[STORE_GROUP_ROWS];
static uint64_t dead_xmax[STORE_GROUP_ROWS];
static const uint64_t dead_next[STORE_GROUP_ROWS];
static pthread_once_t dead_once = PTHREAD_ONCE_INIT;
/* The shared stamps of frozen groups: xmin, xmax and next all zero (read
 * only: writers thaw the group first; a stray write faults). */
static const uint64_t frozen_stamps[STORE_GROUP_ROWS];

static void dead_init(void)
{
    for (int i = 0; i < STORE_GROUP_ROWS; i++)
        dead_xmax[i] = 1;  /* commit sequence 1: at or below every snapshot of a table with a delete */
}

bool store__group_vacuumed(const StoreRowGroup *g)
{
    return g->xmin == dead_xmin;
}

uint64_t store__vacuum_horizon(void)
{
    store__lock();
    uint64_t h = atomic_load(&store_g.visible_seq);
    for (StoreTxn *x = store_g.live_txns; x; x = x->next_live) {
        while (atomic_load(&x->snap_busy))
            sched_yield();  /* a few instructions (store__txn_take_snapshot) */
        if (__atomic_load_n(&x->has_snapshot, __ATOMIC_RELAXED)) {
            uint64_t s = __atomic_load_n(&x->snapshot, __ATOMIC_RELAXED);
            if (s < h)
                h = s;
        }
    }
    store__unlock();
    return h;
}

/* Whether every row of group g (all committed) is dead at h. */
static bool group_all_dead(const StoreRowGroup *g, uint64_t h)
{
    for (uint32_t i = 0; i < STORE_GROUP_ROWS; i++)
        if (!store__xmax_dead(atomic_load_explicit(&g->xmax[i], memory_order_relaxed), h))
            return false;
    return true;
}

/* A copy of g's header and chunk descriptors with the shared dead stamps. */
static StoreRowGroup *dead_header(const StoreTable *t, const StoreRowGroup *g)
{
    size_t size = sizeof(StoreRowGroup) + (size_t)t->cap_cols * sizeof(StoreChunk);
    char *mem = aligned_alloc(64, (size + 63) & ~(size_t)63);
    if (!mem)
        return NULL;
    StoreRowGroup *n = (StoreRowGroup *)mem;
    n->chunks = (StoreChunk *)(mem + sizeof(StoreRowGroup));
    memcpy(n->chunks, g->chunks, (size_t)t->cap_cols * sizeof(StoreChunk));
    n->ncols_inline = g->ncols_inline;
    n->xmin = (uint64_t *)dead_xmin;
    n->xmax = (_Atomic uint64_t *)dead_xmax;
    n->next = (_Atomic uint64_t *)dead_next;
    atomic_init(&n->ndead, STORE_GROUP_ROWS);
    atomic_init(&n->claiming, 0);
    atomic_init(&n->freezing, false);
    return n;
}

uint64_t store__vacuum_groups(StoreTable *t, uint64_t horizon)
{
    pthread_once(&dead_once, dead_init);
    if (horizon == 0 || !t->dir)
        return 0;
    uint64_t ngroups = atomic_load(&t->committed) / STORE_GROUP_ROWS;
    void **old = NULL;
    size_t n = 0, cap = 0;
    pthread_mutex_lock(&t->freeze_mu);  /* freezes and thaws walk the headers */
    for (uint64_t g = 0; g < ngroups; g++) {
        StoreRowGroup *grp = store__group(t, g);
        if (store__group_vacuumed(grp) || !group_all_dead(grp, horizon))
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            void **p = realloc(old, ncap * sizeof *p);
            if (!p)
                break;
            old = p;
            cap = ncap;
        }
        StoreRowGroup *dead = dead_header(t, grp);
        if (!dead)
            break;
        StoreRowGroup **seg = t->dir[g / STORE_DIR_SEG];
        __atomic_store_n(&seg[g % STORE_DIR_SEG], dead, __ATOMIC_RELEASE);
        old[n++] = grp;
    }
    pthread_mutex_unlock(&t->freeze_mu);
    if (n)
        store__run_retire(t, old, n);
    else
        free(old);
    return n;
}

/* Release t's dead groups with t's write lock held by an internal
 * transaction (writers, ALTER and DROP wait meanwhile). */
static void vacuum_table_memory(StoreTable *t)
{
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__txn_acquire_write(x, t);
        /* Checkpoints out: they are the other publisher of t's run refs
         * (store__run_retire publishes a copy). Nothing below raises. */
        store__checkpoint_exclude(true);
        /* A scan without a transaction has an untracked snapshot: leave the
         * table for the next VACUUM. */
        store__lock();
        bool others = t->nscans_notxn > 0;
        bool gone = t->dropped || t->data_freed;
        store__unlock();
        if (!others && !gone)
            store__vacuum_groups(t, store__vacuum_horizon());
        store__checkpoint_exclude(false);
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_txn_commit(x);
}

static void request_full(StoreTable *t, void *arg)
{
    (void)arg;
    atomic_store(&t->vacuum_full, true);
}

typedef struct VacList {
    StoreTable **v;
    size_t n, cap;
} VacList;

static void collect(StoreTable *t, void *arg)
{
    VacList *l = arg;
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 16;
        StoreTable **p = realloc(l->v, ncap * sizeof *p);
        if (!p)
            return;  /* fewer tables vacuumed; nothing else changes */
        l->v = p;
        l->cap = ncap;
    }
    l->v[l->n++] = t;
}

void store_vacuum(StoreTable *t)
{
    if (t)
        request_full(t, NULL);
    else
        store__table_visit(request_full, NULL);
    store_checkpoint();  /* compacts the asked tables, blanking dead rows; trims the WAL */
    if (t) {
        vacuum_table_memory(t);
        store__run_trim();
        return;
    }
    VacList l = {0};
    store__table_visit(collect, &l);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (size_t i = 0; i < l.n; i++)
            vacuum_table_memory(l.v[i]);
        err_pop(&jmp);
    } else {
        free(l.v);
        err_rethrow();
    }
    free(l.v);
    store__run_trim();
}

/* ---- frozen stamps ---- */

static bool stamps_frozen(const _Atomic uint64_t *xmax)
{
    return xmax == (const _Atomic uint64_t *)frozen_stamps;
}

bool store__group_frozen(const StoreRowGroup *g)
{
    return stamps_frozen(__atomic_load_n(&g->xmax, __ATOMIC_ACQUIRE));
}

/* The group's own stamps: xmin, xmax, next after its header and chunk
 * descriptors, in the same allocation (table.c's group_alloc). */
static uint64_t *own_stamps(const StoreTable *t, const StoreRowGroup *g)
{
    size_t header = sizeof(StoreRowGroup) + (size_t)t->cap_cols * sizeof(StoreChunk);
    return (uint64_t *)((char *)g + ((header + 63) & ~(size_t)63));
}

/* Point g's stamps at own (its own region) or at the shared zeros, xmax
 * last (only with no claim under way: see store__group_claim). */
static void stamps_point(StoreRowGroup *g, uint64_t *own)
{
    uint64_t *x = own ? own : (uint64_t *)frozen_stamps;
    uint64_t *m = own ? own + STORE_GROUP_ROWS : (uint64_t *)frozen_stamps;
    uint64_t *n = own ? own + 2 * STORE_GROUP_ROWS : (uint64_t *)frozen_stamps;
    __atomic_store_n(&g->xmin, x, __ATOMIC_SEQ_CST);
    __atomic_store_n(&g->next, (_Atomic uint64_t *)n, __ATOMIC_SEQ_CST);
    __atomic_store_n(&g->xmax, (_Atomic uint64_t *)m, __ATOMIC_SEQ_CST);
}

/* The whole pages within [from, to) back to the OS: they read as zeros
 * until written again. For a group's own stamps (own, own + 3 * 2048):
 * xmax lies in whole pages only (the middle 16 KB of 48), so it is all
 * zero afterwards; xmin's first and next's last page may keep their old
 * values (see below). */
static void drop_pages(const uint64_t *from, const uint64_t *to)
{
    uintptr_t a = ((uintptr_t)from + 4095) & ~(uintptr_t)4095;
    uintptr_t b = (uintptr_t)to & ~(uintptr_t)4095;
    if (b > a)
        madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Whether every row of the stamps at own is live and was never updated. */
static bool stamps_all_live(const uint64_t *own)
{
    const _Atomic uint64_t *xmax = (const _Atomic uint64_t *)(own + STORE_GROUP_ROWS);
    const _Atomic uint64_t *next = (const _Atomic uint64_t *)(own + 2 * STORE_GROUP_ROWS);
    for (uint32_t i = 0; i < STORE_GROUP_ROWS; i++)
        if (atomic_load_explicit(&xmax[i], memory_order_relaxed) != 0 ||
            atomic_load_explicit(&next[i], memory_order_relaxed) != 0)
            return false;
    return true;
}

/* xmin alone to the shared zeros and its whole pages back to the OS: a
 * group every row of which committed at or before the horizon but some of
 * which were deleted or updated keeps its xmax and next. Nothing writes
 * the xmin of a group wholly below `committed` (commit stamping writes the
 * committing rows', TRUNCATE the padding after the last row), so no claim
 * protocol is needed; a reader that loaded the old pointer reads the old
 * values or zeros, all at or below the horizon. 16 KB of the 48. */
static void freeze_xmin(StoreRowGroup *g, uint64_t *own)
{
    __atomic_store_n(&g->xmin, (uint64_t *)frozen_stamps, __ATOMIC_SEQ_CST);
    drop_pages(own, own + STORE_GROUP_ROWS);
}

/* Freeze group gno of t if every row committed at or before horizon and is
 * live and never updated; its xmin alone when only the first holds.
 * Caller holds freeze_mu. */
static bool freeze_group(StoreTable *t, uint64_t gno, uint64_t horizon)
{
    StoreRowGroup *g = store__group(t, gno);
    if (store__group_vacuumed(g) || store__group_frozen(g))
        return false;
    uint64_t *own = own_stamps(t, g);
    bool xmin_frozen = g->xmin == frozen_stamps;
    ERR_ASSERT(xmin_frozen || g->xmin == own);
    for (uint32_t i = 0; i < STORE_GROUP_ROWS && !xmin_frozen; i++)
        if (own[i] > horizon)
            return false;
    if (!stamps_all_live(own)) {
        if (!xmin_frozen)
            freeze_xmin(g, own);
        return false;
    }
    /* Dekker with store__group_claim: we raise `freezing` then read
     * `claiming`, a claimer raises `claiming` then reads `freezing`; one of
     * the two sees the other. A claim that finished before is in the
     * stamps, checked again below. */
    atomic_store(&g->freezing, true);
    atomic_thread_fence(memory_order_seq_cst);
    bool clear = atomic_load(&g->claiming) == 0 && stamps_all_live(own);
    if (clear) {
        stamps_point(g, NULL);
        drop_pages(own, own + 3 * STORE_GROUP_ROWS);
    }
    atomic_store(&g->freezing, false);
    return clear;
}

uint64_t store__freeze_stamps(StoreTable *t)
{
    if (!t->dir || t->temp || t->is_shadow)
        return 0;
    return store__freeze_stamps_live(t, atomic_load(&t->committed),
                                     atomic_load(&store_g.visible_seq));
}

uint64_t store__freeze_stamps_live(StoreTable *t, uint64_t rows, uint64_t horizon)
{
    if (t->temp || t->is_shadow)
        return 0;
    uint64_t n = 0;
    for (uint64_t g = 0; g < rows / STORE_GROUP_ROWS; g++) {
        pthread_mutex_lock(&t->freeze_mu);
        bool stop = t->data_freed || __atomic_load_n(&t->trunc_txn, __ATOMIC_ACQUIRE);
        if (!stop)
            n += freeze_group(t, g, horizon);
        pthread_mutex_unlock(&t->freeze_mu);
        if (stop)
            break;
    }
    return n;
}

void store__group_thaw(StoreTable *t, uint64_t gno)
{
    pthread_mutex_lock(&t->freeze_mu);
    StoreRowGroup *g = store__group(t, gno);
    /* Nothing wrote the own stamps since the freeze dropped their pages (a
     * claim never CASes a frozen group's): they read as zeros. */
    if (store__group_frozen(g))
        stamps_point(g, own_stamps(t, g));
    pthread_mutex_unlock(&t->freeze_mu);
}

uint64_t store__group_claim(StoreTable *t, uint64_t gno, uint32_t i, uint64_t self)
{
    StoreRowGroup *g = store__group(t, gno);
    for (;;) {
        atomic_fetch_add(&g->claiming, 1);
        atomic_thread_fence(memory_order_seq_cst);
        if (atomic_load(&g->freezing)) {
            atomic_fetch_sub(&g->claiming, 1);
            pthread_mutex_lock(&t->freeze_mu);  /* the freezer holds it: wait it out */
            pthread_mutex_unlock(&t->freeze_mu);
            continue;
        }
        _Atomic uint64_t *xmax = __atomic_load_n(&g->xmax, __ATOMIC_ACQUIRE);
        if (stamps_frozen(xmax)) {
            atomic_fetch_sub(&g->claiming, 1);
            store__group_thaw(t, gno);
            continue;
        }
        uint64_t xm = 0;
        atomic_compare_exchange_strong(&xmax[i], &xm, self);
        atomic_fetch_sub(&g->claiming, 1);
        return xm;
    }
}
