/*
 * cold.c — cold chunks: table data served from the table's checkpoint runs.
 *
 * A checkpoint writes table rows [first, rows) as a run whose row i is
 * table row first + i (recovery.c, ckpt_run: incremental, only the rows
 * appended since the table's last run, or all rows when compacting). A
 * table's runs are spans [first, end) contiguous from row 0 (StoreRunRef).
 * Once the checkpoint is complete (`control` names it), the data arrays of
 * the non-key columns of every row group fully covered by the new run are
 * freed: StoreChunk.data == NULL means "read it from the run". For string
 * columns the array is of StrRefs; their bytes live in the table heap's
 * value chain (table.c), whose blocks are released too once every row
 * group whose strings they hold is cold (store__heap_release_frozen),
 * retired with the arrays. MVCC stamps, validity bitmaps, zone maps and key
 * columns of rows whose keys are not in key runs yet (the pk hash reads
 * them; keyruns.c; key strings' bytes stay in the key chain) stay in
 * memory, so visibility, zone-map skipping and writes are unchanged; only value reads go through store__chunk_values, which
 * decodes one run group (64K rows) per column into the reader's cache and
 * hands out a 2048-row slice of it (strings: StrRefs into the decoded
 * chunk, valid while the cache entry is pinned, i.e. until the reader
 * moves to another run group or ends).
 *
 * Lifetimes. Readers that may load chunk data pointers (scans, row
 * fetches, checkpoints, thaws) hold a StoreRunRef of the table taken before
 * they read any pointer. A freeze (store__run_install) is two swaps:
 *   1. publish ref R1 naming the runs kept plus the new one; runs no longer
 *      named are flagged unlink_at_close (a finished checkpoint superseded
 *      them);
 *   2. detach the covered data pointers (NULL, release stores), publish
 *      ref R2 (same runs) and retire the detached arrays onto R1.
 * Retired arrays (and heap blocks) are freed once R1 and every older ref
 * are released: any reader that could have loaded one of the pointers, or
 * a StrRef into a block, holds such a ref. A
 * reader that finds NULL data through a ref that does not cover the group
 * (it began before step 1) moves to the current ref, which does, and keeps
 * the old ref and its pinned chunks until its next batch
 * (store__cold_cache_settle): other columns of the batch it is filling may
 * have been read in memory just before the freeze retired their arrays.
 * Rows a bulk load in a block let go before its COMMIT are served the same
 * way through t->bulk_ref, a ref on the loading transaction's sealed runs
 * that is never published as t's current one (bulk.c; switch_refs).
 * A run is closed by the release of the last span naming it, and its file
 * unlinked then when flagged. DROP TABLE frees a table's data only when no
 * scan uses it (txn.c); its runs are closed then, and the files removed by
 * the next checkpoint (recovery needs them until `control` moves on), which
 * the drop asks the background checkpointer for at once.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "common/error.h"
#include "storage/runs/run.h"

static StoreRun *live_runs;  /* under store_g.lock */

/* What a release leaves to free once store_g.lock is dropped. */
typedef struct Garbage {
    StoreRetired *retired;
    StoreRun *runs;  /* linked through next_live (out of the live list) */
    StoreRunRef *ref;
} Garbage;

void store__run_init(StoreTable *t)
{
    StoreRunRef *r = store__calloc(1, sizeof *r);
    r->refs = 1;
    t->run_cur = r;
}

static void retired_splice(StoreRetired **into, StoreRetired *list)
{
    while (list) {
        StoreRetired *next = list->next;
        list->next = *into;
        *into = list;
        list = next;
    }
}

static void live_remove(StoreRun *run)
{
    for (StoreRun **p = &live_runs; *p; p = &(*p)->next_live)
        if (*p == run) {
            *p = run->next_live;
            return;
        }
}

/* One span fewer names run (store_g.lock held): the last one closes it. */
static void run_unref_locked(StoreRun *run, Garbage *gb)
{
    if (--run->refs > 0)
        return;
    live_remove(run);
    run->next_live = gb->runs;
    gb->runs = run;
}

/* Drop one count of r (store_g.lock held); what dies goes to gb. */
static void ref_drop_locked(StoreRunRef *r, Garbage *gb)
{
    if (--r->refs > 0)
        return;
    if (r->older)
        r->older->newer = r->newer;
    if (r->newer)
        r->newer->older = r->older;
    /* Retired data waits for every older ref too (they may hold pointers). */
    retired_splice(r->older ? &r->older->retired : &gb->retired, r->retired);
    r->retired = NULL;
    for (int i = 0; i < r->nspans; i++)
        run_unref_locked(r->spans[i].run, gb);
    gb->ref = r;
}

static void run_destroy(StoreRun *run)
{
    store__chunk_cache_drop_run(run);
    if (run->unlink_at_close) {
        char *path = strdup(run_path(run->reader));
        run_close(run->reader);
        if (path)
            unlink(path);
        free(path);
    } else {
        run_close(run->reader);
    }
    free(run);
}

static void garbage_free(Garbage *gb)
{
    bool freed = gb->retired != NULL;
    while (gb->retired) {
        StoreRetired *next = gb->retired->next;
        for (size_t i = 0; i < gb->retired->n; i++)
            store__chunk_free(gb->retired->ptrs[i]);  /* chunks and heap blocks */
        free(gb->retired->ptrs);
        free(gb->retired);
        gb->retired = next;
    }
    while (gb->runs) {
        StoreRun *next = gb->runs->next_live;
        run_destroy(gb->runs);
        gb->runs = next;
    }
    if (gb->ref)
        free(gb->ref->spans);
    free(gb->ref);
    *gb = (Garbage){0};
#ifdef __GLIBC__
    if (freed)
        malloc_trim(0);  /* 16 KB arrays sit between live headers: give the pages back */
#else
    (void)freed;
#endif
}

StoreRunRef *store__run_acquire(StoreTable *t)
{
    store__lock();
    StoreRunRef *r = t->run_cur;
    if (r)
        r->refs++;
    store__unlock();
    return r;
}

StoreRunRef *store__run_ref_dup(StoreRunRef *r)
{
    if (!r)
        return NULL;
    store__lock();
    r->refs++;
    store__unlock();
    return r;
}

void store__run_release(StoreTable *t, StoreRunRef *r)
{
    (void)t;
    if (!r)
        return;
    Garbage gb = {0};
    store__lock();
    ref_drop_locked(r, &gb);
    store__unlock();
    garbage_free(&gb);
}

/* Let go of the shared-cache entries of the group cc holds. */
static void cache_unpin(StoreColdCache *cc)
{
    if (!cc->pins)
        return;
    for (int c = 0; c < cc->ncols; c++)
        if (cc->pins[c]) {
            store__chunk_cache_unpin(cc->pins[c]);
            cc->pins[c] = NULL;
        }
}

/* Append p to a stale list (grown by doubling); raises 53200. */
static void stale_push(void ***list, int *n, int *cap, void *p)
{
    if (*n == *cap) {
        int ncap = *cap ? 2 * *cap : 4;
        void **grown = realloc(*list, sizeof(void *) * (size_t)ncap);
        if (!grown)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        *list = grown;
        *cap = ncap;
    }
    (*list)[(*n)++] = p;
}

/* Keep r (may be NULL) until the next settle instead of releasing it. */
static void stale_keep_ref(StoreColdCache *cc, StoreRunRef *r)
{
    if (r)
        stale_push((void ***)&cc->stale_refs, &cc->nstale_refs, &cc->stale_refs_cap, r);
}

/* Move cc's pins to the stale list (their entries stay pinned). */
static void stale_keep_pins(StoreColdCache *cc)
{
    if (!cc->pins)
        return;
    for (int c = 0; c < cc->ncols; c++)
        if (cc->pins[c]) {
            stale_push((void ***)&cc->stale_pins, &cc->nstale_pins, &cc->stale_pins_cap,
                       cc->pins[c]);
            cc->pins[c] = NULL;
        }
}

void store__cold_cache_settle(StoreColdCache *cc)
{
    for (int i = 0; i < cc->nstale_pins; i++)
        store__chunk_cache_unpin(cc->stale_pins[i]);
    cc->nstale_pins = 0;
    for (int i = 0; i < cc->nstale_refs; i++)   /* after the unpins: a release may close a run */
        store__run_release(NULL, cc->stale_refs[i]);
    cc->nstale_refs = 0;
}

void store__cold_cache_free(StoreColdCache *cc)
{
    cache_unpin(cc);
    store__cold_cache_settle(cc);
    store__run_release(NULL, cc->pend);  /* after the unpin: it may close the run */
    mem_arena_destroy(cc->arena);
    free(cc->stale_refs);
    free(cc->stale_pins);
    *cc = (StoreColdCache){.group = UINT32_MAX, .private_decode = cc->private_decode};
}

/* The run serving column col of the store group at row start through r,
 * NULL when r has none. */
static const StoreRun *ref_covers(const StoreRunRef *r, int col, uint64_t start)
{
    if (!r)
        return NULL;
    for (int i = 0; i < r->nspans; i++) {
        const StoreRunSpan *sp = &r->spans[i];
        if (start < sp->first || start + STORE_GROUP_ROWS > sp->end)
            continue;
        const StoreRun *run = sp->run;
        bool ok = run->aligned && col < run->ncols_run &&
                  start + STORE_GROUP_ROWS - run->first_row <= run->nrows;
        return ok ? run : NULL;
    }
    return NULL;
}

/* Decode nothing yet: point the cache at the run group holding row start. */
static void cache_load(StoreColdCache *cc, const StoreRun *run, uint64_t start)
{
    RunReader *rd = run->reader;
    uint64_t rel = start - run->first_row;
    uint32_t lo = 0, hi = run_group_count(rd);
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (run_group_first_row(rd, mid) <= rel)
            lo = mid;
        else
            hi = mid;
    }
    cache_unpin(cc);
    if (!cc->arena)
        cc->arena = mem_arena_create("cold chunks");
    else
        mem_arena_reset(cc->arena);
    cc->run = run;
    cc->group = lo;
    cc->first_row = run->first_row + run_group_first_row(rd, lo);
    cc->end_row = cc->first_row + run_group_rows(rd, lo);
    cc->ncols = run->ncols_run;
    cc->vals = mem_calloc(cc->arena, (size_t)(cc->ncols ? cc->ncols : 1), sizeof *cc->vals);
    cc->pins = mem_calloc(cc->arena, (size_t)(cc->ncols ? cc->ncols : 1), sizeof *cc->pins);
}

/* The run serving a group that neither the reader's ref nor its pending
 * ref covers: the current runs (the reader began before a freeze), else
 * the writer's uncommitted bulk runs (t->bulk_ref: only its transaction
 * reads rows past the committed ones; other readers between a load's
 * COMMIT and its install, which publishes the run before clearing
 * bulk_ref — hence the second round). */
static const StoreRun *switch_refs(StoreTable *t, StoreRunRef **ref, StoreColdCache *cc,
                                   int col, uint64_t start)
{
    /* The batch being filled may already point into what the old ref and
     * pins keep alive: other columns of this group read in memory before a
     * freeze retired their arrays onto the old ref (or an older one), or
     * decoded through the old pins. They are released at the next settle,
     * not here (a release here freed arrays still being read). */
    stale_keep_pins(cc);
    stale_keep_ref(cc, *ref);
    *ref = NULL;
    cc->run = NULL;
    cc->group = UINT32_MAX;
    for (int round = 0; round < 2; round++) {
        StoreRunRef *cur = store__run_acquire(t);
        store__run_release(t, *ref);   /* round 2: round 1's, nothing read through it */
        *ref = cur;
        const StoreRun *run = ref_covers(cur, col, start);
        if (run)
            return run;
        store__lock();
        StoreRunRef *p = t->bulk_ref;
        if (p)
            p->refs++;
        store__unlock();
        stale_keep_ref(cc, cc->pend);
        cc->pend = p;
        run = ref_covers(p, col, start);
        if (run)
            return run;
    }
    err_raise(ERRCODE_INTERNAL_ERROR, "cold rows %llu.. of \"%s\" are in no run",
              (unsigned long long)start, t->name);
}

const void *store__chunk_values(StoreTable *t, StoreRunRef **ref, StoreColdCache *cc,
                                const StoreChunk *ch, int col, uint64_t start)
{
    void *d = __atomic_load_n(&((StoreChunk *)ch)->data, __ATOMIC_ACQUIRE);
    if (d)
        return d;
    const StoreRun *run = ref_covers(*ref, col, start);
    if (!run)
        run = ref_covers(cc->pend, col, start);
    if (!run)
        run = switch_refs(t, ref, cc, col, start);
    if (cc->run != run || cc->group == UINT32_MAX || start < cc->first_row ||
        start + STORE_GROUP_ROWS > cc->end_row)
        cache_load(cc, run, start);
    if (start + STORE_GROUP_ROWS > cc->end_row)
        err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" does not match table \"%s\"",
                  run_path(run->reader), t->name);
    if (!cc->vals[col]) {
        RunChunk c;
        if (cc->private_decode)
            run_chunk_read(run->reader, cc->group, col, cc->arena, &c);
        else
            c = *store__chunk_cache_get(run, cc->group, col, &cc->pins[col]);
        if (c.phys != t->phys[col] || (uint64_t)c.count != cc->end_row - cc->first_row)
            err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" does not match table \"%s\"",
                      run_path(run->reader), t->name);
        cc->vals[col] = c.values;
    }
    return (const char *)cc->vals[col] + (size_t)(start - cc->first_row) * t->width[col];
}

/* Whether column c of group g may be freed once in a run: every column
 * but the key while the hash may read it (store__col_held). Caller holds
 * freeze_mu. */
static bool col_freezable(const StoreTable *t, int c, uint64_t g)
{
    return !store__col_held(t, c, g);
}

/* Open path as a StoreRun (refs 0) holding table rows from `first`. */
static StoreRun *run_new(const char *path, uint64_t gen, uint32_t oid, uint64_t first, int ncols)
{
    RunReader *rd = run_open(path);
    StoreRun *run = calloc(1, sizeof *run);
    if (!run) {
        run_close(rd);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    run->reader = rd;
    run->gen = gen;
    run->oid = oid;
    run->first_row = first;
    run->ncols_run = ncols;
    RunInfo info;
    run_info(rd, &info);
    run->nrows = info.nrows;
    /* Serve rows from it only when every group but the last is a whole
     * number of store groups (checkpoint runs: 64K = 32 x 2048). */
    bool aligned = first % STORE_GROUP_ROWS == 0 && run_schema(rd)->ncols == ncols + 1;
    uint32_t ng = run_group_count(rd);
    for (uint32_t g = 0; aligned && g + 1 < ng; g++)
        aligned = run_group_rows(rd, g) % STORE_GROUP_ROWS == 0;
    run->aligned = aligned;
    return run;
}

/* A new ref (refs 0) on cur's spans before `first`, plus {run, first, end}. */
static StoreRunRef *ref_new(const StoreRunRef *cur, StoreRun *run, uint64_t first, uint64_t end)
{
    StoreRunRef *r = calloc(1, sizeof *r);
    StoreRunSpan *sp = malloc(sizeof *sp * (size_t)((cur ? cur->nspans : 0) + 1));
    if (!r || !sp) {
        free(r);
        free(sp);
        return NULL;
    }
    r->spans = sp;
    for (int i = 0; cur && i < cur->nspans; i++) {
        if (cur->spans[i].first >= first)
            break;
        sp[r->nspans] = cur->spans[i];
        if (sp[r->nspans].end > first)
            sp[r->nspans].end = first;
        r->nspans++;
    }
    sp[r->nspans++] = (StoreRunSpan){run, first, end};
    return r;
}

/* Make r t's current ref (store_g.lock taken inside); supersede: runs of
 * the old ref that r does not name are removed by their last reader. */
static void ref_publish(StoreTable *t, StoreRunRef *r, bool supersede)
{
    Garbage gb = {0};
    store__lock();
    StoreRunRef *old = t->run_cur;
    r->refs = 1;
    for (int i = 0; i < r->nspans; i++)
        if (r->spans[i].run->refs++ == 0) {
            r->spans[i].run->next_live = live_runs;
            live_runs = r->spans[i].run;
        }
    r->older = old;
    if (old)
        old->newer = r;
    t->run_cur = r;
    if (old) {
        for (int i = 0; supersede && i < old->nspans; i++) {
            bool kept = false;
            for (int k = 0; k < r->nspans && !kept; k++)
                kept = r->spans[k].run == old->spans[i].run;
            if (!kept)
                old->spans[i].run->unlink_at_close = true;
        }
        ref_drop_locked(old, &gb);
    }
    store__unlock();
    garbage_free(&gb);
}

void store__run_attach(StoreTable *t, const char *path, uint64_t gen, uint64_t first,
                       uint64_t end)
{
    StoreRun *run = run_new(path, gen, t->oid, first, t->ncols);
    StoreRunRef *r = ref_new(t->run_cur, run, first, end);  /* recovery: nobody else */
    if (!r) {
        run_close(run->reader);
        free(run);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    ref_publish(t, r, false);
}

StoreRunRef *store__run_pending_ref(StoreTable *t, StoreRunRef *prev, const char *path,
                                    uint64_t gen, uint64_t first, uint64_t end, int ncols)
{
    StoreRun *run = run_new(path, gen, t->oid, first, ncols);
    StoreRunRef *r = ref_new(prev, run, first, end);  /* prev: the caller's, unchanging */
    if (!r) {
        run_close(run->reader);
        free(run);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    store__lock();
    r->refs = 1;
    for (int i = 0; i < r->nspans; i++)
        if (r->spans[i].run->refs++ == 0) {
            r->spans[i].run->next_live = live_runs;
            live_runs = r->spans[i].run;
        }
    store__unlock();
    return r;
}

void store__run_release_locked(StoreRunRef *r)
{
    if (!r)
        return;
    Garbage gb = {0};
    ref_drop_locked(r, &gb);
    garbage_free(&gb);  /* takes no store_g.lock */
}

void store__run_pending_set(StoreTable *t, StoreRunRef *r)
{
    Garbage gb = {0};
    store__lock();
    StoreRunRef *old = t->bulk_ref;
    t->bulk_ref = r;
    if (old)
        ref_drop_locked(old, &gb);  /* not in the older/newer chain: nothing retired on it */
    store__unlock();
    garbage_free(&gb);
}

/* Detach the freezable arrays of groups inside [first, rows) into ret,
 * then the string heap blocks no chunk points into any more (cap: room in
 * ret->ptrs, grown for the blocks). */
static void freeze_groups(StoreTable *t, uint64_t first, uint64_t rows, int ncols,
                          StoreRetired *ret, size_t *cap)
{
    pthread_mutex_lock(&t->freeze_mu);
    for (uint64_t g = first / STORE_GROUP_ROWS; g < rows / STORE_GROUP_ROWS; g++) {
        StoreRowGroup *grp = store__group(t, g);
        for (int c = 0; c < ncols; c++) {
            void *d = grp->chunks[c].data;
            if (!d || !col_freezable(t, c, g))
                continue;
            ret->ptrs[ret->n++] = d;
            __atomic_store_n(&grp->chunks[c].data, NULL, __ATOMIC_RELEASE);
        }
    }
    store__heap_release_frozen(t, ncols, &ret->ptrs, &ret->n, cap);
    pthread_mutex_unlock(&t->freeze_mu);
}

/* store__run_install; supersede: runs left out of the new ref are removed
 * by their last reader (a checkpoint's; a bulk load's install keeps them:
 * the current checkpoint may still name them). */
static void run_install(StoreTable *t, const char *path, uint64_t gen, uint64_t first,
                        uint64_t rows, int ncols, bool supersede)
{
    StoreRun *run = run_new(path, gen, t->oid, first, ncols);
    uint64_t ngroups = rows / STORE_GROUP_ROWS - first / STORE_GROUP_ROWS;
    StoreRetired *ret = calloc(1, sizeof *ret);
    void **ptrs = malloc(sizeof(void *) * (size_t)(ngroups * (uint64_t)ncols + 1));
    /* The runs change only here and in recovery (checkpoints are serialized). */
    StoreRunRef *cur = store__run_acquire(t);
    StoreRunRef *r1 = ref_new(cur, run, first, rows), *r2 = ref_new(cur, run, first, rows);
    store__run_release(t, cur);
    if (!cur || !ret || !ptrs || !r1 || !r2) {  /* !cur: the table's data is gone */
        free(ret);
        free(ptrs);
        if (r1)
            free(r1->spans);
        if (r2)
            free(r2->spans);
        free(r1);
        free(r2);
        run_close(run->reader);
        free(run);
        if (!cur)
            return;
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    ret->ptrs = ptrs;
    size_t cap = (size_t)(ngroups * (uint64_t)ncols + 1);
    ref_publish(t, r1, supersede);
    if (run->aligned && run->nrows >= rows - first)
        freeze_groups(t, first, rows, ncols, ret, &cap);
    /* Readers that began before the NULLs hold r1 or older: retire onto r1. */
    store__lock();
    r1->retired = ret;
    r1->refs++;
    store__unlock();
    ref_publish(t, r2, false);
    store__run_release(t, r1);
}

struct RunSchema store__table_run_schema(const StoreTable *t, int ncols, MemArena *arena)
{
    SqlType *types = MEM_NEW_ARRAY(arena, SqlType, ncols + 1);
    for (int k = 0; k < ncols; k++)
        types[k] = t->cols[k].type;
    types[ncols] = SQLTYPE(TYPE_INT8);
    int *key = MEM_NEW(arena, int);
    *key = ncols;
    return (RunSchema){.ncols = ncols + 1, .types = types, .nkeys = 1, .key_cols = key};
}

void store__run_install(StoreTable *t, const char *path, uint64_t gen, uint64_t first,
                        uint64_t rows, int ncols)
{
    run_install(t, path, gen, first, rows, ncols, true);
}

void store__run_install_bulk(StoreTable *t, const char *path, uint64_t gen, uint64_t first,
                             uint64_t rows, int ncols)
{
    run_install(t, path, gen, first, rows, ncols, false);
}

void store__run_retire(StoreTable *t, void **ptrs, size_t n)
{
    StoreRunRef *cur = store__run_acquire(t);
    StoreRetired *ret = calloc(1, sizeof *ret);
    StoreRunRef *copy = NULL;
    if (cur && ret && cur->nspans) {
        const StoreRunSpan *last = &cur->spans[cur->nspans - 1];
        copy = ref_new(cur, last->run, last->first, last->end);
    }
    if (!cur || !ret || (cur->nspans && !copy)) {
        /* No memory for the bookkeeping: keep the old headers (a leak of
         * headers only, never a use after free). */
        free(ret);
        free(ptrs);
        store__run_release(t, cur);
        return;
    }
    ret->ptrs = ptrs;
    ret->n = n;
    /* Readers that loaded an old header hold cur or an older ref. */
    if (copy)
        ref_publish(t, copy, false);
    store__lock();
    ret->next = cur->retired;
    cur->retired = ret;
    store__unlock();
    store__run_release(t, cur);
}

void store__run_trim(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

void store__run_freeze_now(StoreTable *t, uint64_t from, uint64_t to, int ncols)
{
    uint64_t g0 = (from + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS;
    bool any = false;
    for (uint64_t g = g0; g < to / STORE_GROUP_ROWS; g++) {
        StoreRowGroup *grp = store__group(t, g);
        for (int c = 0; c < ncols; c++)
            if (grp->chunks[c].data && col_freezable(t, c, g) &&
                ref_covers(t->run_cur, c, g * STORE_GROUP_ROWS)) {
                store__chunk_free(grp->chunks[c].data);
                grp->chunks[c].data = NULL;
                any |= t->phys[c] == PHYS_STR;
            }
    }
    if (!any)
        return;
    /* Recovery: no reader exists, so string blocks go at once. */
    void **ptrs = NULL;
    size_t n = 0, cap = 0;
    pthread_mutex_lock(&t->freeze_mu);
    store__heap_release_frozen(t, ncols, &ptrs, &n, &cap);
    pthread_mutex_unlock(&t->freeze_mu);
    for (size_t i = 0; i < n; i++)
        free(ptrs[i]);
    free(ptrs);
}

void store__run_freeze_keys(StoreTable *t, uint64_t from, uint64_t to)
{
    StoreRunRef *cur = store__run_acquire(t);
    if (!cur)
        return;  /* the table's data is gone */
    void **ptrs = NULL;
    size_t n = 0, cap = 0;
    pthread_mutex_lock(&t->freeze_mu);
    for (uint64_t g = from / STORE_GROUP_ROWS; g < to / STORE_GROUP_ROWS; g++) {
        StoreRowGroup *grp = store__group(t, g);
        for (int k = 0; k < t->npkey; k++) {
            int c = t->pkey[k];
            void *d = grp->chunks[c].data;
            if (!d || !col_freezable(t, c, g) || !ref_covers(cur, c, g * STORE_GROUP_ROWS))
                continue;
            if (n == cap) {
                size_t ncap = cap ? cap * 2 : 256;
                void **p = realloc(ptrs, ncap * sizeof *p);
                if (!p)
                    goto out;  /* the rest stay in memory, as before */
                ptrs = p;
                cap = ncap;
            }
            ptrs[n++] = d;
            __atomic_store_n(&grp->chunks[c].data, NULL, __ATOMIC_RELEASE);
        }
    }
out:
    pthread_mutex_unlock(&t->freeze_mu);
    store__run_release(t, cur);
    /* Readers that loaded an array hold cur or an older ref: retired onto
     * it, the arrays outlive them. */
    if (n)
        store__run_retire(t, ptrs, n);
    else
        free(ptrs);
}

/* n bytes of t's key chain; frees `owned` when that raises. */
__attribute__((noinline)) static char *heap_alloc_or_free(StoreTable *t, size_t n, void *owned)
{
    char *p = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        p = store__heap_alloc(&t->heap, n);
        err_pop(&jmp);
    } else {
        free(owned);
        err_rethrow();
    }
    return p;
}

/* Strings of a thawed key chunk into dst (freed on error): copied into the
 * heap's key chain (the decoded ones live in the chunk cache only while
 * pinned). */
static void thaw_strings(StoreTable *t, const StoreChunk *ch, StrRef *dst, const StrRef *src)
{
    size_t total = 0;
    for (uint32_t i = 0; i < STORE_GROUP_ROWS; i++)
        total += src[i].len;
    char *p = heap_alloc_or_free(t, total, dst);
    for (uint32_t i = 0; i < STORE_GROUP_ROWS; i++) {
        bool valid = (__atomic_load_n(&ch->validity[i >> 6], __ATOMIC_RELAXED) >> (i & 63)) & 1;
        if (!valid) {
            dst[i] = (StrRef){"", 0};
            continue;
        }
        if (src[i].len)
            memcpy(p, src[i].ptr, src[i].len);
        dst[i] = (StrRef){p, src[i].len};
        p += src[i].len;
    }
}

/* Column c of group g back in memory when cold. */
static void thaw_chunk(StoreTable *t, StoreRunRef **ref, StoreColdCache *cc, uint64_t g, int c)
{
    StoreChunk *ch = &store__group(t, g)->chunks[c];
    if (ch->data)
        return;
    size_t bytes = t->width[c] * STORE_GROUP_ROWS;
    const void *src = store__chunk_values(t, ref, cc, ch, c, g * STORE_GROUP_ROWS);
    void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    if (t->phys[c] != PHYS_STR)
        memcpy(p, src, bytes);
    else
        thaw_strings(t, ch, p, src);
    __atomic_store_n(&ch->data, p, __ATOMIC_RELEASE);
}

static void thaw_all(StoreTable *t, StoreRunRef **ref, StoreColdCache *cc, int n, const int *cols)
{
    uint64_t ngroups = t->ngroups;
    for (uint64_t g = 0; g < ngroups; g++)
        for (int k = 0; k < n; k++)
            thaw_chunk(t, ref, cc, g, cols[k]);
}

void store__run_thaw_rows(StoreTable *t, uint64_t from, uint64_t to)
{
    StoreRunRef *ref = store__run_acquire(t);
    StoreColdCache cc = {.group = UINT32_MAX};
    pthread_mutex_lock(&t->freeze_mu);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (uint64_t g = (from + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS;
             g < to / STORE_GROUP_ROWS; g++)
            for (int c = 0; c < t->ncols; c++)
                thaw_chunk(t, &ref, &cc, g, c);
        err_pop(&jmp);
    } else {
        pthread_mutex_unlock(&t->freeze_mu);
        store__cold_cache_free(&cc);
        store__run_release(t, ref);
        err_rethrow();
    }
    pthread_mutex_unlock(&t->freeze_mu);
    store__cold_cache_free(&cc);
    store__run_release(t, ref);
}

void store__run_thaw(StoreTable *t, int n, const int *cols)
{
    /* A string column becoming a key keeps its strings where they are in
     * the hot groups: value blocks of rows so far must stay (table.c). */
    for (int k = 0; k < n; k++)
        if (t->phys[cols[k]] == PHYS_STR) {
            pthread_mutex_lock(&t->heap.mu);
            t->heap.vals_pin_rows = atomic_load(&t->nrows);
            pthread_mutex_unlock(&t->heap.mu);
        }
    StoreRunRef *ref = store__run_acquire(t);
    StoreColdCache cc = {.group = UINT32_MAX};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        thaw_all(t, &ref, &cc, n, cols);
        err_pop(&jmp);
    } else {
        store__cold_cache_free(&cc);
        store__run_release(t, ref);
        err_rethrow();
    }
    store__cold_cache_free(&cc);
    store__run_release(t, ref);
}

void store__run_free_all(StoreTable *t)
{
    Garbage all = {0};
    store__lock();
    StoreRunRef *r = t->run_cur;
    t->run_cur = NULL;
    /* A dropped table's runs are still named by the current checkpoint
     * (recovery replays it before the DROP): the next checkpoint, asked for
     * now, no longer names them and removes the files. */
    bool ask = t->dropped && r && r->nspans > 0;
    StoreRunRef *pend = t->bulk_ref;  /* nobody loads into freed data any more */
    t->bulk_ref = NULL;
    if (pend && --pend->refs == 0) {
        for (int i = 0; i < pend->nspans; i++)
            run_unref_locked(pend->spans[i].run, &all);
        free(pend->spans);
        free(pend);
    }
    while (r) {
        StoreRunRef *older = r->older;
        retired_splice(&all.retired, r->retired);
        for (int i = 0; i < r->nspans; i++)
            run_unref_locked(r->spans[i].run, &all);
        free(r->spans);
        free(r);
        r = older;
    }
    store__unlock();
    garbage_free(&all);
    if (ask)
        store__checkpoint_request_async();
}

bool store__run_is_live(uint64_t gen, uint32_t oid)
{
    store__lock();
    bool live = false;
    for (StoreRun *r = live_runs; r && !live; r = r->next_live)
        live = r->gen == gen && r->oid == oid;
    store__unlock();
    return live;
}
