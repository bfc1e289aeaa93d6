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
 * Frozen stamps. After recovery every row is committed and seen by every
 * snapshot to come, so a group whose rows are all live and were never
 * updated (xmax 0, next 0) needs no stamps of its own: its header points
 * at one shared all-zero array (xmin 0, like a vacuumed group's, keeps
 * store__visible_prefix right). At 24 B per row that is most of what a
 * restarted table holds in memory once its columns are cold. A writer that
 * claims such a row (store__row_claim) or a TRUNCATE first thaws the group
 * (store__group_thaw, under freeze_mu): a fresh header with zeroed stamps
 * replaces the frozen one, which stays allocated until the table is freed,
 * since a reader may have loaded it (reading zeros from it is what it would
 * have read a moment earlier). Groups are frozen only at the end of
 * recovery: with no writer, no claim can race the swap.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"

/* The shared stamps of released groups (read only). */
static const uint64_t dead_xmin[STORE_GROUP_ROWS];
static uint64_t dead_xmax[STORE_GROUP_ROWS];
static const uint64_t dead_next[STORE_GROUP_ROWS];
static pthread_once_t dead_once = PTHREAD_ONCE_INIT;
/* The shared stamps of frozen groups: xmin, xmax and next all zero (read
 * only: writers thaw the group first). */
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

bool store__group_frozen(const StoreRowGroup *g)
{
    return g->xmax == (_Atomic uint64_t *)frozen_stamps;
}

/* Whether every row of committed group g is live and was never updated. */
static bool group_all_live(const StoreRowGroup *g)
{
    for (uint32_t i = 0; i < STORE_GROUP_ROWS; i++)
        if (atomic_load_explicit(&g->xmax[i], memory_order_relaxed) != 0 ||
            atomic_load_explicit(&g->next[i], memory_order_relaxed) != 0)
            return false;
    return true;
}

/* A copy of g's header and chunk descriptors; with stamps of its own
 * (zeroed, in the same allocation, as table.c's groups) or the frozen ones. */
static StoreRowGroup *header_copy(const StoreTable *t, const StoreRowGroup *g, bool own_stamps)
{
    size_t header = sizeof(StoreRowGroup) + (size_t)t->cap_cols * sizeof(StoreChunk);
    header = (header + 63) & ~(size_t)63;
    size_t stamps = own_stamps ? 3 * sizeof(uint64_t) * STORE_GROUP_ROWS : 0;
    char *mem = aligned_alloc(64, header + stamps);
    if (!mem)
        return NULL;
    memset(mem, 0, header + stamps);
    StoreRowGroup *n = (StoreRowGroup *)mem;
    n->chunks = (StoreChunk *)(mem + sizeof(StoreRowGroup));
    memcpy(n->chunks, g->chunks, (size_t)t->cap_cols * sizeof(StoreChunk));
    n->ncols_inline = g->ncols_inline;
    atomic_init(&n->ndead, 0);
    atomic_init(&n->zone_loose, atomic_load(&g->zone_loose));
    if (own_stamps) {
        n->xmin = (uint64_t *)(mem + header);
        n->xmax = (_Atomic uint64_t *)(mem + header + sizeof(uint64_t) * STORE_GROUP_ROWS);
        n->next = (_Atomic uint64_t *)(mem + header + 2 * sizeof(uint64_t) * STORE_GROUP_ROWS);
    } else {
        n->xmin = (uint64_t *)frozen_stamps;
        n->xmax = (_Atomic uint64_t *)frozen_stamps;
        n->next = (_Atomic uint64_t *)frozen_stamps;
    }
    return n;
}

static void dir_set(StoreTable *t, uint64_t gno, StoreRowGroup *g)
{
    StoreRowGroup **seg = t->dir[gno / STORE_DIR_SEG];
    __atomic_store_n(&seg[gno % STORE_DIR_SEG], g, __ATOMIC_RELEASE);
}

uint64_t store__freeze_stamps(StoreTable *t)
{
    if (!t->dir || t->temp || t->is_shadow)
        return 0;
    uint64_t ngroups = atomic_load(&t->committed) / STORE_GROUP_ROWS, n = 0;
    pthread_mutex_lock(&t->freeze_mu);
    for (uint64_t g = 0; g < ngroups; g++) {
        StoreRowGroup *grp = store__group(t, g);
        if (store__group_vacuumed(grp) || store__group_frozen(grp) || !group_all_live(grp))
            continue;
        StoreRowGroup *frozen = header_copy(t, grp, false);
        if (!frozen)
            break;  /* the rest keep their stamps */
        dir_set(t, g, frozen);
        free(grp);  /* recovery: nobody holds it (the chunk arrays moved to the copy) */
        n++;
    }
    pthread_mutex_unlock(&t->freeze_mu);
    return n;
}

StoreRowGroup *store__group_thaw(StoreTable *t, uint64_t gno)
{
    pthread_mutex_lock(&t->freeze_mu);
    StoreRowGroup *g = store__group(t, gno);
    if (!store__group_frozen(g)) {
        pthread_mutex_unlock(&t->freeze_mu);
        return g;  /* another writer thawed it first */
    }
    if (t->nstamps_thawed == t->cap_stamps_thawed) {
        size_t cap = t->cap_stamps_thawed ? 2 * t->cap_stamps_thawed : 64;
        void **p = realloc(t->stamps_thawed, cap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&t->freeze_mu);
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        }
        t->stamps_thawed = p;
        t->cap_stamps_thawed = cap;
    }
    StoreRowGroup *n = header_copy(t, g, true);
    if (!n) {
        pthread_mutex_unlock(&t->freeze_mu);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    t->stamps_thawed[t->nstamps_thawed++] = g;
    dir_set(t, gno, n);
    pthread_mutex_unlock(&t->freeze_mu);
    return n;
}

void store__stamps_thawed_free(StoreTable *t)
{
    for (size_t i = 0; i < t->nstamps_thawed; i++)
        free(t->stamps_thawed[i]);
    free(t->stamps_thawed);
    t->stamps_thawed = NULL;
    t->nstamps_thawed = t->cap_stamps_thawed = 0;
}
