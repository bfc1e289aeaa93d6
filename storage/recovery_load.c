/*
 * recovery_load.c — recovery's load of a table's rows from a checkpoint run
 * (TABLE_RUN / TABLE_RUNS records, recovery.c), the bulk of a restart.
 *
 * What a restart must rebuild in memory for rows held by a run: MVCC
 * stamps, validity bitmaps, zone maps and the key columns; the other
 * columns are served from the run (cold chunks, cold.c). The first version
 * appended every row through the live write path — every column decoded,
 * copied into freshly allocated arrays, the pk index updated row by row,
 * then the non-key arrays freed again ("cold" right away): 15–25 s for
 * ClickBench's 10M-row `hits`. Now, per run group (64K rows) of an aligned
 * run whose rows fill whole store groups:
 *   - the store groups are allocated with arrays for the key columns only
 *     (store__cold_groups_begin);
 *   - the columns whose values are needed are decoded — key columns (kept),
 *     fixed-width ones (their zone maps) unless the run group's own zone
 *     map says they hold one value, string columns only when the group
 *     has NULLs (validity; a string column without NULLs is not read at
 *     all, its zone map has nothing but the NULL count) — by this thread
 *     and a helper thread taking columns from a shared counter, each
 *     filling its column of every store group right after decoding it,
 *     while it is in cache (store__cold_groups_column);
 *   - this thread publishes the groups (store__cold_groups_end) and replays
 *     the run's deleted flags.
 * The pk index is not built: store__cold_groups_end and every index change
 * while replaying defer it to its first use (pkindex.c). Rows outside whole
 * store groups (a table's last partial group, an unaligned run) take the
 * old path: a batch append, then store__run_freeze_now.
 *
 * Checks: every block that is decoded is checked (CRC32C, run_chunk_read);
 * blocks of string columns that are not decoded are checked when a query
 * first decodes them (XX001 naming the file, as for any cold chunk).
 *
 * Threads: the helper only decodes into its own arena and fills distinct
 * columns of groups not yet published; it never touches the table
 * otherwise. Its errors are caught and re-raised by the loading thread,
 * which always waits for the helper to finish a run group before it goes
 * on or unwinds. No helper (pthread_create failed): one thread does it all.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "storage/runs/run.h"

/* One run group's decoding, shared by the loading thread and the helper. */
typedef struct LoadJob {
    StoreTable *t;
    RunReader *r;
    const char *path;
    uint32_t group;
    uint32_t count;          /* rows in the run group */
    int ntodo;
    const int *todo;         /* columns to decode: table columns, nc = row numbers, nc + 2 = deleted */
    RunChunk *ch;            /* by column, nc + 3 */
    StoreColdGroups *cg;
    atomic_int next;         /* next index into todo */
} LoadJob;

typedef struct LoadHelper {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cond;     /* a job was posted / finished, or stop */
    LoadJob *job;
    uint64_t posted, done;
    bool stop;
    bool failed;             /* err holds the helper's error of the last job */
    ErrorData err;
    MemArena *arena;         /* the helper's decoded chunks, reset by the loader */
} LoadHelper;

/* Decode columns of j until none is left, filling the cold groups. */
static void job_work(LoadJob *j, MemArena *arena)
{
    int nc = j->t->ncols;
    for (;;) {
        int i = atomic_fetch_add(&j->next, 1);
        if (i >= j->ntodo)
            return;
        int col = j->todo[i];
        RunChunk *c = &j->ch[col];
        run_chunk_read(j->r, j->group, col, arena, c);
        if (c->count != j->count || (col < nc && c->phys != j->t->phys[col]))
            err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" does not match table \"%s\"",
                      j->path, j->t->name);
        if (col < nc)
            store__cold_groups_column(j->t, j->cg, col, c);
    }
}

/* job_work under a handler of this thread's own; false on error (a copy
 * in *err; the other thread stops taking columns too). */
static bool job_work_caught(LoadJob *j, MemArena *arena, ErrorData *err)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        job_work(j, arena);
        err_pop(&jmp);
        return true;
    }
    *err = *err_current();
    err_clear();
    atomic_store(&j->next, INT_MAX / 2);
    return false;
}

static void *helper_main(void *arg)
{
    LoadHelper *h = arg;
    pthread_mutex_lock(&h->mu);
    for (;;) {
        while (h->done == h->posted && !h->stop)
            pthread_cond_wait(&h->cond, &h->mu);
        if (h->stop)
            break;
        LoadJob *j = h->job;
        pthread_mutex_unlock(&h->mu);
        ErrorData err;
        bool ok = job_work_caught(j, h->arena, &err);
        pthread_mutex_lock(&h->mu);
        if (!ok) {
            h->err = err;
            h->failed = true;
        }
        h->done++;
        pthread_cond_broadcast(&h->cond);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

static LoadHelper *helper_start(void)
{
    LoadHelper *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cond, NULL);
    h->arena = mem_arena_create("recovery helper");
    if (pthread_create(&h->thread, NULL, helper_main, h) != 0) {
        mem_arena_destroy(h->arena);
        pthread_cond_destroy(&h->cond);
        pthread_mutex_destroy(&h->mu);
        free(h);
        return NULL;
    }
    return h;
}

static void helper_stop(LoadHelper *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    h->stop = true;
    pthread_cond_broadcast(&h->cond);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->thread, NULL);
    mem_arena_destroy(h->arena);
    pthread_cond_destroy(&h->cond);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

/* Run j on this thread and the helper; returns once both are done with it
 * (raises the first error of either). */
static void job_run(LoadHelper *h, LoadJob *j, MemArena *arena)
{
    if (h) {
        pthread_mutex_lock(&h->mu);
        h->job = j;
        h->posted++;
        pthread_cond_broadcast(&h->cond);
        pthread_mutex_unlock(&h->mu);
    }
    ErrorData mine;
    bool ok = job_work_caught(j, arena, &mine);
    bool failed = false;
    ErrorData theirs;
    if (h) {
        pthread_mutex_lock(&h->mu);
        while (h->done != h->posted)
            pthread_cond_wait(&h->cond, &h->mu);
        failed = h->failed;
        if (failed)
            theirs = h->err;
        h->failed = false;
        pthread_mutex_unlock(&h->mu);
    }
    if (!ok)
        err_throw_saved(&mine);
    if (failed)
        err_throw_saved(&theirs);
}

typedef struct Loader {
    StoreTable *t;
    StoreTxn *x;
    RunReader *r;
    const char *path;
    uint64_t first, end;
    MemArena *a;       /* this thread's decoded chunks, per run group */
    LoadHelper *h;
    Batch *b;          /* the batch path */
    RunChunk *ch;      /* nc + 3 */
    int *todo;         /* nc + 2 */
} Loader;

static void check_rownos(const Loader *ld, const RunChunk *rowno, uint64_t base, uint64_t n)
{
    const int64_t *v = rowno->values;
    for (uint64_t off = 0; off < n; off += VEC_CAPACITY)
        if ((uint64_t)v[off] != base + off)
            err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\": row %lld out of order", ld->path,
                      (long long)v[off]);
}

static void replay_deletes(Loader *ld, const RunChunk *deleted, uint64_t base, uint64_t n)
{
    const bool *del = deleted->values;
    for (uint64_t i = 0; i < n; i++)
        if (del[i])
            store__replay_delete(ld->t, ld->x, base + i, 0);
}

/* An integer zone-map bound as zone maps in memory keep it. */
static int64_t zone_int(PhysType phys, const Value *v)
{
    switch (phys) {
    case PHYS_BOOL: return v->u.b;
    case PHYS_I16: return v->u.i16;
    case PHYS_I32: return v->u.i32;
    default: return v->u.i64;
    }
}

/* Fill non-key column col of the cold groups from run group g's zone map
 * alone when that says enough: a string column without NULLs (its zone
 * map in memory is just the NULL count), an integer column holding one
 * value and no NULL (min = max: 15 of `hits`' 78 fixed-width columns).
 * The footer holding the zone maps was checked when the run was opened.
 * False: the column must be decoded. */
static bool column_known(Loader *ld, StoreColdGroups *cg, uint32_t g, int col)
{
    StoreTable *t = ld->t;
    PhysType p = t->phys[col];
    if (store__col_is_key(t, col) || p == PHYS_F32 || p == PHYS_F64)
        return false;
    RunZone z;
    run_group_zone(ld->r, g, col, &z);
    if (z.null_count != 0)
        return false;
    if (p == PHYS_STR) {
        store__cold_groups_column(t, cg, col, NULL);
        return true;
    }
    if (!z.has_minmax || zone_int(p, &z.min) != zone_int(p, &z.max))
        return false;
    store__cold_groups_const(t, cg, col, zone_int(p, &z.min));
    return true;
}

/* Run group g's first `take` rows as whole store groups (see the top). */
static void load_group_cold(Loader *ld, uint32_t g, uint64_t take)
{
    StoreTable *t = ld->t;
    int nc = t->ncols;
    LoadJob j = {.t = t, .r = ld->r, .path = ld->path, .group = g,
                 .count = run_group_rows(ld->r, g), .todo = ld->todo, .ch = ld->ch};
    ld->todo[j.ntodo++] = nc;      /* row numbers */
    ld->todo[j.ntodo++] = nc + 2;  /* deleted flags; never the versions */
    StoreColdGroups cg = {0};
    store__cold_groups_begin(t, &cg, (uint32_t)(take / STORE_GROUP_ROWS));
    j.cg = &cg;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (int col = 0; col < nc; col++)
            if (!column_known(ld, &cg, g, col))
                ld->todo[j.ntodo++] = col;
        job_run(ld->h, &j, ld->a);
        check_rownos(ld, &ld->ch[nc], cg.base, take);
        store__cold_groups_end(t, ld->x, &cg);
        err_pop(&jmp);
    } else {
        store__cold_groups_abort(t, &cg);
        err_rethrow();
    }
    replay_deletes(ld, &ld->ch[nc + 2], cg.base, take);
}

/* Run group g's rows through the write path, a batch at a time (every
 * column decoded; non-key arrays freed by the caller's freeze). */
static void load_group_batches(Loader *ld, uint32_t g)
{
    StoreTable *t = ld->t;
    int nc = t->ncols;
    for (int col = 0; col < nc + 3; col++)
        if (col != nc + 1)  /* not the versions */
            run_chunk_read(ld->r, g, col, ld->a, &ld->ch[col]);
    uint32_t count = ld->ch[nc].count;
    for (int col = 0; col < nc; col++)
        if (ld->ch[col].count != count || ld->ch[col].phys != t->phys[col])
            err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" does not match table \"%s\"",
                      ld->path, t->name);
    for (uint32_t off = 0; off < count; off += VEC_CAPACITY) {
        uint64_t base = atomic_load(&t->nrows);
        if (base >= ld->end)
            break;
        uint32_t n = count - off < VEC_CAPACITY ? count - off : VEC_CAPACITY;
        if (n > ld->end - base)
            n = (uint32_t)(ld->end - base);
        if ((uint64_t)((const int64_t *)ld->ch[nc].values)[off] != base)
            err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\": row %lld out of order", ld->path,
                      (long long)((const int64_t *)ld->ch[nc].values)[off]);
        for (int col = 0; col < nc; col++)
            run_chunk_to_vector(&ld->ch[col], off, n, &ld->b->cols[col]);
        ld->b->count = n;
        store__append_locked(t, ld->x, ld->b);
        const bool *del = (const bool *)ld->ch[nc + 2].values + off;
        for (uint32_t i = 0; i < n; i++)
            if (del[i])
                store__replay_delete(t, ld->x, base + i, 0);
    }
}

/* Decoded chunks are dead once their run group is loaded, but an arena is
 * reset only past LOAD_ARENA_BYTES: a reset keeps just its first block and
 * the next run group's chunks (64 KB – 512 KB each) would come from fresh
 * malloc'd blocks, whose pages the kernel zero-fills on every touch (a
 * helper thread's malloc arena gives them back on free). Growing past a
 * few run groups, blocks reach 1 MB+ and go through common/arena_cache.c,
 * pages kept. Measured on the 10M-row `hits` restart: clear_page_erms
 * 15 % of the profile with a reset per run group. */
#define LOAD_ARENA_BYTES ((size_t)64 << 20)
static void arena_trim(MemArena *a)
{
    if (mem_arena_bytes(a) > LOAD_ARENA_BYTES)
        mem_arena_reset(a);
}

static void load_groups(Loader *ld, bool aligned)
{
    StoreTable *t = ld->t;
    for (uint32_t g = 0; g < run_group_count(ld->r) && atomic_load(&t->nrows) < ld->end; g++) {
        uint64_t base0 = atomic_load(&t->nrows);
        uint64_t rows = run_group_rows(ld->r, g);
        uint64_t take = ld->end - base0 < rows ? ld->end - base0 : rows;
        if (aligned && base0 % STORE_GROUP_ROWS == 0 && take % STORE_GROUP_ROWS == 0 &&
            t->ngroups == base0 / STORE_GROUP_ROWS)
            load_group_cold(ld, g, take);
        else
            load_group_batches(ld, g);
        arena_trim(ld->a);
        if (ld->h)
            arena_trim(ld->h->arena);  /* idle: job_run waited for it */
        uint64_t from = base0 - base0 % STORE_GROUP_ROWS;
        store__run_freeze_now(t, from > ld->first ? from : ld->first, atomic_load(&t->nrows),
                              t->ncols);
    }
}

void store__recovery_load_run(StoreTable *t, StoreTxn *x, const StoreRun *run, const char *path,
                              uint64_t first, uint64_t end, MemArena *a)
{
    int nc = t->ncols;
    if (run_schema(run->reader)->ncols != nc + 1)
        err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" does not match table \"%s\"", path,
                  t->name);
    Loader ld = {.t = t, .x = x, .r = run->reader, .path = path, .first = first, .end = end};
    ld.b = MEM_NEW(a, Batch);
    ld.b->ncols = nc;
    ld.b->cols = MEM_NEW_ARRAY(a, Vector, nc ? nc : 1);
    for (int col = 0; col < nc; col++)
        vec_init(&ld.b->cols[col], t->cols[col].type, a);
    ld.ch = MEM_NEW_ARRAY(a, RunChunk, nc + 3);
    ld.todo = MEM_NEW_ARRAY(a, int, nc + 2);
    ld.a = mem_arena_create("checkpoint run");
    ld.h = helper_start();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        load_groups(&ld, run->aligned);
        err_pop(&jmp);
    } else {
        helper_stop(ld.h);
        mem_arena_destroy(ld.a);
        err_rethrow();
    }
    helper_stop(ld.h);
    mem_arena_destroy(ld.a);
    if (atomic_load(&t->nrows) != end)
        err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" holds %llu rows, expected %llu", path,
                  (unsigned long long)(atomic_load(&t->nrows) - first),
                  (unsigned long long)(end - first));
}
