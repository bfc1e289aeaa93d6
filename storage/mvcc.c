/*
 * mvcc.c — row versions, snapshots, the undo log, and the row-level
 * operations built on them: DELETE and UPDATE by locator, point lookups by
 * primary key, ANALYZE. (TRUNCATE is in truncate.c, bulk loads in bulk.c.)
 *
 * Every row has three stamps in its row group (storage_int.h): xmin (commit
 * sequence of its inserter), xmax (0, a running deleter's mark, or the
 * deleter's commit sequence) and next (its successor version after an
 * UPDATE). A snapshot is a commit sequence S: a row is visible when its
 * xmin <= S (or it is the transaction's own uncommitted row) and its xmax
 * is 0, another running transaction's mark, or a sequence > S. Because
 * one transaction at a time appends to a table (its write lock, txn.c;
 * plain writers append their deltas at commit, delta.c) and commits stamp
 * in sequence order, the committed rows of a table have non-decreasing
 * xmin: the rows visible by xmin form a prefix found by binary search.
 *
 * Write conflicts: a writer claims a row by a compare-and-swap of its xmax
 * (store__row_claim); a row another transaction holds makes it wait for
 * that transaction's end (a writer, or a commit not yet published), as
 * PostgreSQL's row locks. A deletion committed after the
 * writer's snapshot is a concurrent update: REPEATABLE READ raises 40001,
 * READ COMMITTED follows the `next` links to the newest version and hands
 * it back (STORE_WRITE_MOVED) for the executor to re-check, as PostgreSQL's
 * EvalPlanQual; a deleted row without successor is STORE_WRITE_GONE.
 *
 * The undo log records what a transaction changed, in order; rollback (or a
 * rollback to a savepoint) undoes entries newest first, commit walks it to
 * stamp xmin/xmax with the commit sequence and to finish DDL.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"

/* ---- snapshots ---- */

void store__txn_take_snapshot(StoreTxn *x)
{
    /* Dekker with store__vacuum_horizon: flag first (seq_cst), then read
     * visible_seq; a horizon that sees the flag clear either saw our
     * snapshot or read visible_seq before we will. */
    atomic_store(&x->snap_busy, true);
    uint64_t s = atomic_load(&store_g.visible_seq);
    __atomic_store_n(&x->snapshot, s, __ATOMIC_RELAXED);
    __atomic_store_n(&x->has_snapshot, true, __ATOMIC_RELAXED);
    atomic_store(&x->snap_busy, false);
}

uint64_t store__txn_snapshot(StoreTxn *x)
{
    if (!x)
        return atomic_load(&store_g.visible_seq);
    if (!x->has_snapshot)
        store__txn_take_snapshot(x);
    return x->snapshot;
}

void store_txn_statement_begin(StoreTxn *x)
{
    if (!x)
        return;
    x->stmt_started = true;
    if (x->iso == STORE_READ_COMMITTED || !x->has_snapshot)
        store__txn_take_snapshot(x);
}

void store_txn_set_isolation(StoreTxn *x, StoreIsolation iso)
{
    if (x->stmt_started || x->has_snapshot)
        err_raise(ERRCODE_ACTIVE_SQL_TRANSACTION,
                  "SET TRANSACTION ISOLATION LEVEL must be called before any query");
    x->iso = iso;
}

StoreIsolation store_txn_isolation(const StoreTxn *x) { return x->iso; }
void store_txn_set_synchronous_commit(StoreTxn *x, bool on)
{
    x->sync_commit = on;
    x->sync_forced = true;
}
uint64_t store_txn_id(const StoreTxn *x) { return x->id; }
bool store_txn_has_writes(const StoreTxn *x)
{
    return x->nundo > 0 || x->wal_len > 0 || x->wal_spilled > 0 || x->ncat_undo > 0;
}

static inline uint64_t row_xmin(const StoreTable *t, uint64_t r)
{
    return store__group(t, r / STORE_GROUP_ROWS)->xmin[r % STORE_GROUP_ROWS];
}

uint64_t store__visible_prefix(const StoreTable *t, uint64_t committed, uint64_t snap)
{
    if (committed == 0 || row_xmin(t, committed - 1) <= snap)
        return committed;
    uint64_t lo = 0, hi = committed;  /* first row with xmin > snap in [lo, hi] */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (row_xmin(t, mid) <= snap)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- undo log ---- */

void store__undo_push(StoreTxn *x, StoreUndo u)
{
    if (x->nundo == x->cap_undo) {
        int cap = x->cap_undo ? x->cap_undo * 2 : 16;
        StoreUndo *arr = realloc(x->undo, (size_t)cap * sizeof *arr);
        if (!arr)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        x->undo = arr;
        x->cap_undo = cap;
    }
    x->undo[x->nundo++] = u;
}

static void undo_insert(StoreTable *t, const StoreUndo *u)
{
    if (t->data_freed)
        return;
    if (t->npkey > 0) {
        pthread_rwlock_wrlock(&t->pk_lock);
        store__pk_remove_rows(t, u->from, u->to);
        pthread_rwlock_unlock(&t->pk_lock);
    }
    /* The rows' values stay in the groups' zone maps (scan_summary.c). */
    for (uint64_t g = u->from / STORE_GROUP_ROWS; g * STORE_GROUP_ROWS < u->to; g++)
        atomic_store(&store__group(t, g)->zone_loose, 1);
    atomic_store_explicit(&t->nrows, u->from, memory_order_release);
    store__heap_reset(&t->heap, u->heap_mark);
}

static void undo_delete(StoreTable *t, uint64_t row)
{
    if (t->data_freed)
        return;
    StoreRowGroup *g = store__group(t, row / STORE_GROUP_ROWS);
    /* next first: once xmax is 0 a checkpoint may freeze the group, and its
     * stamps are then the shared read-only ones (vacuum.c). */
    atomic_store(&g->next[row % STORE_GROUP_ROWS], 0);
    atomic_store(&g->xmax[row % STORE_GROUP_ROWS], 0);
    atomic_fetch_sub(&g->ndead, 1);
    if (t->npkey > 0) {
        pthread_rwlock_wrlock(&t->pk_lock);
        store__pk_reinsert_row(t, row);
        pthread_rwlock_unlock(&t->pk_lock);
    }
}

void store__undo_rollback(StoreTxn *x, int keep)
{
    for (int i = x->nundo - 1; i >= keep; i--) {
        StoreUndo *u = &x->undo[i];
        switch (u->kind) {
        case UNDO_INSERT: undo_insert(u->table, u); break;
        case UNDO_DELETE: undo_delete(u->table, u->from); break;
        case UNDO_CREATE_TABLE: store__table_undo_create(u->table); break;
        case UNDO_DROP_TABLE: store__table_undo_drop(u->table); break;
        case UNDO_CREATE_SCHEMA: store__schema_undo((int)u->from, false); break;
        case UNDO_DROP_SCHEMA: store__schema_undo((int)u->from, true); break;
        case UNDO_ADD_PKEY: store__undo_add_pkey(u->table); break;
        case UNDO_ADD_COLUMN: store__undo_add_column(u->table, (int)u->from); break;
        case UNDO_TRUNCATE: store__undo_truncate(u->table, u); break;
        }
    }
    x->nundo = keep;
}

void store__undo_commit(StoreTxn *x, uint64_t seq)
{
    for (int i = 0; i < x->nundo; i++) {
        StoreUndo *u = &x->undo[i];
        StoreTable *t = u->table;
        if (t && t->is_shadow)
            continue;  /* a delta's private rows: they went to the table (delta.c) */
        if (u->kind == UNDO_INSERT && !t->data_freed)
            for (uint64_t r = u->from; r < u->to; r++)
                store__group(t, r / STORE_GROUP_ROWS)->xmin[r % STORE_GROUP_ROWS] = seq;
    }
    /* Publish the rows: `committed` covers them only now that xmin is set.
     * A commit that passed its write lock on ends at the rows it had then:
     * the next writer's rows follow (txn.c "Commit handoff"). */
    for (int i = 0; i < x->nrefs; i++) {
        const StoreTxnRef *r = &x->refs[i];
        StoreTable *t = r->table;
        if (!r->writing || t->data_freed)
            continue;
        uint64_t n = r->handed_off ? r->end_row : atomic_load_explicit(&t->nrows, memory_order_relaxed);
        atomic_store_explicit(&t->committed, n, memory_order_release);
    }
    /* Deletions last: a writer that meets one committed follows `next` to
     * the new version and reads it (store__row_claim, then the executor's
     * store_row_fetch), which must by then be below `committed`. Until
     * then the mark reads as a running deleter's, which makes it wait. */
    for (int i = 0; i < x->nundo; i++) {
        StoreUndo *u = &x->undo[i];
        StoreTable *t = u->table;
        if (u->kind == UNDO_DELETE && t && !t->is_shadow && !t->data_freed)
            atomic_store(store__xmax_of(t, u->from), seq);
    }
    for (int i = 0; i < x->nundo; i++) {
        StoreUndo *u = &x->undo[i];
        switch (u->kind) {
        case UNDO_CREATE_TABLE: store__table_commit_create(u->table, seq); break;
        case UNDO_DROP_TABLE: store__table_commit_drop(u->table, seq); break;
        case UNDO_CREATE_SCHEMA: store__schema_commit((int)u->from, false); break;
        case UNDO_DROP_SCHEMA: store__schema_commit((int)u->from, true); break;
        case UNDO_ADD_PKEY: store__commit_add_pkey(u->table); break;
        case UNDO_ADD_COLUMN: store__commit_add_column(u->table); break;
        case UNDO_TRUNCATE: store__truncate_undo_free(u); break;  /* txn.c swaps after */
        default: break;
        }
    }
    x->nundo = 0;
}

/* ---- savepoints ---- */

int store_txn_savepoint(StoreTxn *x)
{
    if (x->nsaves == x->cap_saves) {
        int cap = x->cap_saves ? x->cap_saves * 2 : 8;
        StoreSavepointMark *arr = realloc(x->saves, (size_t)cap * sizeof *arr);
        if (!arr)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        x->saves = arr;
        x->cap_saves = cap;
    }
    x->saves[x->nsaves++] = (StoreSavepointMark){x->nundo, store__wal_pos(x)};
    return x->nsaves;
}

void store_txn_release(StoreTxn *x, int level)
{
    ERR_ASSERT(level >= 1 && level <= x->nsaves);
    store__txn_refs_release(x, level);   /* txn.c: its locks pass to the level below */
    x->nsaves = level - 1;
}

void store_txn_rollback_to(StoreTxn *x, int level)
{
    ERR_ASSERT(level >= 1 && level <= x->nsaves);
    StoreSavepointMark m = x->saves[level - 1];
    store__undo_rollback(x, m.nundo);
    store__wal_cut(x, m.wal_len);
    store__delta_rollback_to(x, m.wal_len);  /* a flush since: undone, the delta x's again */
    store__txn_refs_rollback_to(x, level);   /* txn.c: locks taken after it end */
    x->nsaves = level;
}

/* ---- deletes and updates ---- */

static void check_rowid(const StoreTable *t, StoreTxn *x, uint64_t row)
{
    uint64_t limit = __atomic_load_n(&t->writer, __ATOMIC_RELAXED) == x
                         ? atomic_load(&t->nrows) : atomic_load(&t->committed);
    if (row >= limit)
        err_raise(ERRCODE_INTERNAL_ERROR, "row locator %llu out of range for \"%s\"",
                  (unsigned long long)row, t->name);
}

static _Noreturn void raise_serialization(void)
{
    err_raise(ERRCODE_T_R_SERIALIZATION_FAILURE,
              "could not serialize access due to concurrent update");
}

/* Claim row for x: compare-and-swap its xmax from 0 to x's mark. A row
 * another transaction holds (its mark: a writer not yet committed, or a
 * commit not yet published) waits for that transaction's end, then is
 * looked at again; a deletion committed after x's snapshot is a concurrent
 * update: REPEATABLE READ raises 40001, READ COMMITTED follows `next` to
 * the newest version and hands it back unclaimed (MOVED) for the executor
 * to re-check, as PostgreSQL's EvalPlanQual; deleted without successor:
 * GONE. The caller has reserved an undo slot (nothing below allocates). */
StoreWriteResult store__row_claim(StoreTable *t, StoreTxn *x, uint64_t row, uint64_t *newest)
{
    uint64_t self = STORE_XMAX_MARK | x->id;
    uint64_t snap = store__txn_snapshot(x);
    for (;;) {
        StoreRowGroup *g = store__group(t, row / STORE_GROUP_ROWS);
        uint64_t xm = atomic_load(store__xmax_of(t, row));
        if (xm == 0) {
            /* The CAS, against a checkpoint freezing the group (vacuum.c). */
            xm = store__group_claim(t, row / STORE_GROUP_ROWS, (uint32_t)(row % STORE_GROUP_ROWS), self);
            if (xm != 0)
                continue;  /* someone claimed it meanwhile: look again */
            atomic_fetch_add(&g->ndead, 1);
            if (newest)
                *newest = row;
            return STORE_WRITE_OK;
        }
        if (xm == self)
            return STORE_WRITE_GONE;  /* already deleted/updated by this transaction */
        if (xm & STORE_XMAX_MARK) {
            store__txn_wait_mark(x, xm);
            continue;
        }
        if (xm <= snap)
            return STORE_WRITE_GONE;  /* deleted before our snapshot: not ours to see */
        if (x->iso == STORE_REPEATABLE_READ)
            raise_serialization();
        uint64_t nx = atomic_load(&store__group(t, row / STORE_GROUP_ROWS)->next[row % STORE_GROUP_ROWS]);
        if (nx == 0)
            return STORE_WRITE_GONE;
        row = nx - 1;
        if (newest)
            *newest = row;
        if (atomic_load(store__xmax_of(t, row)) == 0)
            return STORE_WRITE_MOVED;
    }
}

/* Replay: row deleted by x with successor next (+1 encoded; 0 none). */
void store__replay_delete(StoreTable *t, StoreTxn *x, uint64_t row, uint64_t next_plus1)
{
    store__undo_push(x, (StoreUndo){.kind = UNDO_DELETE, .table = t, .from = row});
    StoreRowGroup *g = store__group(t, row / STORE_GROUP_ROWS);
    if (store__group_frozen(g))
        store__group_thaw(t, row / STORE_GROUP_ROWS);  /* recovery freezes after replay; to be safe */
    atomic_store(&g->next[row % STORE_GROUP_ROWS], next_plus1);
    atomic_fetch_add(&g->ndead, 1);
    atomic_store(&g->xmax[row % STORE_GROUP_ROWS], STORE_XMAX_MARK | x->id);
}

/* Claim row for x with an undo entry (the slot reserved first, so that a
 * claimed row always has its entry: a rollback must only clear its own). */
static StoreWriteResult claim_logged(StoreTable *t, StoreTxn *x, uint64_t row, uint64_t *newest,
                                     bool deferred)
{
    StoreUndo u = {.kind = UNDO_DELETE, .table = t, .from = row, .deferred = deferred};
    store__undo_push(x, u);  /* reserves the slot (may raise) */
    x->nundo--;
    uint64_t claimed = row;
    StoreWriteResult r = store__row_claim(t, x, row, &claimed);
    if (newest)
        *newest = claimed;
    if (r == STORE_WRITE_OK)
        x->undo[x->nundo++] = u;
    return r;
}

StoreWriteResult store__row_claim_logged(StoreTable *t, StoreTxn *x, uint64_t row,
                                         uint64_t *newest, bool deferred)
{
    return claim_logged(t, x, row, newest, deferred);
}

/* Whether x writes t through its delta (delta.c): not holding t's lock. */
static bool via_delta(const StoreTable *t, const StoreTxn *x, uint64_t rowid)
{
    return (rowid & STORE_DELTA_ROW) || store__delta_mode(t, x);
}

/* x holds t's write lock (a shadow: x's own). */
static void write_direct(StoreTable *t, StoreTxn *x)
{
    if (!t->is_shadow)
        store__txn_acquire_write_dml(x, t);
}

StoreWriteResult store_row_delete(StoreTable *t, StoreTxn *x, uint64_t rowid, uint64_t *newest)
{
    ERR_ASSERT(x != NULL);
    if (via_delta(t, x, rowid) && !t->is_shadow)
        return store__delta_delete(t, x, rowid, newest);
    write_direct(t, x);
    check_rowid(t, x, rowid);
    StoreWriteResult r = claim_logged(t, x, rowid, newest, false);
    if (r == STORE_WRITE_OK)
        store__wal_delete(x, t, rowid, 0);
    return r;
}

StoreWriteResult store_row_update(StoreTable *t, StoreTxn *x, uint64_t rowid, const Batch *values,
                                  uint32_t row, uint64_t *newest)
{
    ERR_ASSERT(x != NULL);
    if (via_delta(t, x, rowid) && !t->is_shadow)
        return store__delta_update(t, x, rowid, values, row, newest);
    write_direct(t, x);
    check_rowid(t, x, rowid);
    int save = x->nundo;
    StoreWriteResult r = claim_logged(t, x, rowid, newest, false);
    if (r != STORE_WRITE_OK)
        return r;
    /* Deleted first so the new version may keep the primary key. */
    uint64_t base = atomic_load(&t->nrows);
    atomic_store(&store__group(t, rowid / STORE_GROUP_ROWS)->next[rowid % STORE_GROUP_ROWS], base + 1);
    uint16_t sel = (uint16_t)row;
    Batch one = {.count = 1, .sel = &sel, .ncols = values->ncols, .cols = values->cols};
    uint64_t wal_save = store__wal_pos(x);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__wal_delete(x, t, rowid, base + 1);
        store__append_locked(t, x, &one);
        err_pop(&jmp);
    } else {
        store__undo_rollback(x, save);  /* the deletion too */
        store__wal_cut(x, wal_save);
        err_rethrow();
    }
    return STORE_WRITE_OK;
}

/* ---- row fetch ----
 * A fetched row's strings must outlive the fetch: a cold chunk's decoded
 * strings are pinned only while the fetch runs, and a hot chunk's heap
 * block may be released by the next checkpoint (table.c). So they are
 * copied into an arena per output batch of the transaction: a fetch into
 * the same batch overwrites its row 0, so that batch's arena is reset
 * first (bounded memory for EvalPlanQual and ON CONFLICT loops); past
 * STORE_FETCH_SLOTS batches the copies go to one arena kept to the end. */
#define STORE_FETCH_SLOTS 8
typedef struct StoreFetchArenas {
    const Batch *out[STORE_FETCH_SLOTS];
    MemArena *arena[STORE_FETCH_SLOTS];
    int n;
    MemArena *rest;
} StoreFetchArenas;

static void fetch_arenas_destroy(void *p)
{
    StoreFetchArenas *f = p;
    if (!f)
        return;
    for (int i = 0; i < f->n; i++)
        mem_arena_destroy(f->arena[i]);
    mem_arena_destroy(f->rest);
    free(f);
}

/* Fetches without a transaction: per thread, freed when it exits. */
static pthread_key_t fetch_key;
static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;
static void fetch_key_init(void) { (void)pthread_key_create(&fetch_key, fetch_arenas_destroy); }

void store__fetch_free(StoreTxn *x)
{
    fetch_arenas_destroy(x->fetch);
    x->fetch = NULL;
}

/* The arena for the strings of a fetch into out (may raise 53200). */
static MemArena *fetch_arena(StoreTxn *x, const Batch *out)
{
    StoreFetchArenas *f;
    if (x) {
        if (!x->fetch)
            x->fetch = store__calloc(1, sizeof *x->fetch);
        f = x->fetch;
    } else {
        pthread_once(&fetch_once, fetch_key_init);
        f = pthread_getspecific(fetch_key);
        if (!f) {
            f = store__calloc(1, sizeof *f);
            if (pthread_setspecific(fetch_key, f) != 0) {
                free(f);
                err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
            }
        }
    }
    for (int i = 0; i < f->n; i++)
        if (f->out[i] == out) {
            mem_arena_reset(f->arena[i]);
            return f->arena[i];
        }
    if (f->n < STORE_FETCH_SLOTS) {
        f->arena[f->n] = mem_arena_create("row fetch");
        f->out[f->n] = out;
        return f->arena[f->n++];
    }
    if (!f->rest)
        f->rest = mem_arena_create("row fetch");
    return f->rest;
}

/* Point out's string column v (row 0) at a copy in arena. */
static void fetch_copy_string(Vector *v, MemArena *arena)
{
    StrRef *s = v->data;
    if (s->len == 0) {
        *s = (StrRef){"", 0};
        return;
    }
    char *p = mem_alloc(arena, s->len);
    memcpy(p, s->ptr, s->len);
    s->ptr = p;
}

/* Copy row rowid's columns into out (cold chunks through ref, cold.c;
 * strings into x's arena for out, taken at the first string). */
static void fetch_values(StoreTable *t, StoreTxn *x, StoreRunRef **ref, StoreColdCache *cc,
                         uint64_t rowid, int ncols, const int *cols, Batch *out)
{
    MemArena *arena = NULL;
    const StoreRowGroup *g = store__group(t, rowid / STORE_GROUP_ROWS);
    uint64_t start = rowid - rowid % STORE_GROUP_ROWS;
    uint32_t off = (uint32_t)(rowid % STORE_GROUP_ROWS);
    for (int i = 0; i < ncols; i++) {
        Vector *v = &out->cols[i];
        if (cols[i] == STORE_COL_ROWID) {
            ((int64_t *)v->data)[0] = (int64_t)rowid;
            v->validity = NULL;
            continue;
        }
        const StoreChunk *ch = &g->chunks[cols[i]];
        const char *src = store__chunk_values(t, ref, cc, ch, cols[i], start);
        memcpy(v->data, src + (size_t)off * t->width[cols[i]], t->width[cols[i]]);
        bool valid = (__atomic_load_n(&ch->validity[off >> 6], __ATOMIC_RELAXED) >> (off & 63)) & 1;
        v->validity = NULL;
        if (!valid)
            vec_set_null(v, 0);
        else if (t->phys[cols[i]] == PHYS_STR)
            fetch_copy_string(v, arena ? arena : (arena = fetch_arena(x, out)));
    }
    out->count = 1;
    out->sel = NULL;
}

static bool fetch_row(StoreTable *t, StoreTxn *x, uint64_t rowid, int ncols, const int *cols,
                      Batch *out);

bool store_row_fetch(StoreTable *t, StoreTxn *x, uint64_t rowid, int ncols, const int *cols,
                     Batch *out)
{
    if (rowid & STORE_DELTA_ROW) {
        if (!x || !store__delta_has(x, t))
            return false;
        StoreTable *shadow;
        rowid = store__delta_locate(t, x, rowid, &shadow);
        if (rowid == UINT64_MAX)
            return false;
        if (shadow) {
            if (!store_row_fetch(shadow, x, rowid, ncols, cols, out))
                return false;
            for (int i = 0; i < ncols; i++)
                if (cols[i] == STORE_COL_ROWID)
                    ((int64_t *)out->cols[i].data)[0] |= (int64_t)STORE_DELTA_ROW;
            return true;
        }
    }
    return fetch_row(t, x, rowid, ncols, cols, out);
}

static bool fetch_row(StoreTable *t, StoreTxn *x, uint64_t rowid, int ncols, const int *cols,
                      Batch *out)
{
    uint64_t limit = x && __atomic_load_n(&t->writer, __ATOMIC_RELAXED) == x
                         ? atomic_load(&t->nrows) : atomic_load(&t->committed);
    if (t->data_freed || rowid >= limit)
        return false;
    StoreRunRef *ref = store__run_acquire(t);  /* before reading chunk pointers */
    StoreColdCache cc = {.group = UINT32_MAX};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        fetch_values(t, x, &ref, &cc, rowid, ncols, cols, out);
        err_pop(&jmp);
    } else {
        store__cold_cache_free(&cc);
        store__run_release(t, ref);
        err_rethrow();
    }
    store__cold_cache_free(&cc);
    store__run_release(t, ref);
    return true;
}

/* Whether snapshot snap of x sees row r's creation. */
static bool row_created_visible(const StoreTable *t, StoreTxn *x, uint64_t snap, uint64_t r)
{
    if (r >= atomic_load(&t->committed))  /* x's own, or a committing one's */
        return r >= store__txn_own_first(t, x) && r < atomic_load(&t->nrows);
    return row_xmin(t, r) <= snap;
}

/* Whether row r is visible to x (snapshot snap). */
static bool row_visible(const StoreTable *t, StoreTxn *x, uint64_t snap, uint64_t r)
{
    if (!row_created_visible(t, x, snap, r))
        return false;
    return store__xmax_visible(atomic_load(store__xmax_of(t, r)), snap,
                               x ? STORE_XMAX_MARK | x->id : 0);
}

void store__rows_unseen(StoreTable *t, StoreTxn *x, const uint64_t *rows, uint32_t n, bool *unseen)
{
    StoreRunRef *ref = store__run_acquire(t);  /* row headers: see store_table_lookup_key */
    uint64_t snap = store__txn_snapshot(x);
    for (uint32_t i = 0; i < n; i++)
        unseen[i] = !(rows[i] & STORE_DELTA_ROW) && !row_visible(t, x, snap, rows[i]);
    store__run_release(t, ref);
}

/* An older version of key that snapshot snap sees, below the key's newest
 * row *row (rare: a concurrent update committed after the snapshot): a
 * search of the table, newest rows first, stamps before keys; key columns
 * of cold groups read from the runs. Such a version was deleted after the
 * snapshot (one key has one live row), so groups nobody deleted from
 * (ndead 0, frozen ones among them) and live rows are passed over. */
static bool older_version(StoreTable *t, StoreTxn *x, uint64_t snap, StoreRunRef **ref,
                          const Value *key, uint64_t *row)
{
    StoreColdCache cc = {.group = UINT32_MAX};
    volatile bool ok = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        uint64_t n = atomic_load(&t->committed);
        for (uint64_t i = *row < n ? *row : n; i-- > 0 && !ok;) {
            const StoreRowGroup *g = store__group(t, i / STORE_GROUP_ROWS);
            if (atomic_load_explicit(&((StoreRowGroup *)g)->ndead, memory_order_acquire) == 0) {
                i -= i % STORE_GROUP_ROWS;
                continue;
            }
            if (atomic_load(store__xmax_of(t, i)) == 0 || !row_visible(t, x, snap, i))
                continue;
            uint64_t start = i - i % STORE_GROUP_ROWS;
            bool match = true;
            for (int k = 0; k < t->npkey && match; k++) {
                int col = t->pkey[k];
                const char *v = store__chunk_values(t, ref, &cc, &g->chunks[col], col, start);
                match = store__pk_value_equal(t, col, v + (i - start) * t->width[col], &key[k].u);
            }
            if (match) {
                *row = i;
                ok = true;
            }
        }
        err_pop(&jmp);
    } else {
        store__cold_cache_free(&cc);
        err_rethrow();
    }
    store__cold_cache_free(&cc);
    return ok;
}

bool store_table_lookup_key(StoreTable *t, StoreTxn *x, const Value *key, uint64_t *rowid)
{
    if (t->npkey == 0)
        err_raise(ERRCODE_INTERNAL_ERROR, "table \"%s\" has no primary key", t->name);
    for (int k = 0; k < t->npkey; k++)
        if (key[k].is_null)
            return false;
    store__txn_scan_register(x, t);
    uint64_t snap = store__txn_snapshot(x);
    /* The transaction's own newest version first (delta.c). */
    StoreTable *shadow = store__delta_shadow(x, t);
    if (shadow) {
        uint64_t r = 0;
        pthread_rwlock_rdlock(&shadow->pk_lock);
        bool found = store__pk_find(shadow, key, &r);
        pthread_rwlock_unlock(&shadow->pk_lock);
        if (found && row_visible(shadow, x, snap, r)) {
            store__txn_scan_unregister(x, x->gen, t);
            *rowid = r | STORE_DELTA_ROW;
            return true;
        }
    }
    /* Held while row headers are read: VACUUM retires them onto refs (vacuum.c). */
    StoreRunRef *ref = store__run_acquire(t);
    uint64_t r = 0;
    pthread_rwlock_rdlock(&t->pk_lock);
    bool found = store__pk_find(t, key, &r);
    pthread_rwlock_unlock(&t->pk_lock);
    bool ok = found && row_visible(t, x, snap, r);
    /* An older version can be visible only when the newest one's creation
     * is not: a key's next version is inserted after the deletion of the
     * previous one committed (an inserter waits for its deleter), so a
     * visible creation means every older version's deletion is visible. A
     * deleted key thus costs no search. */
    if (!ok && found && !row_created_visible(t, x, snap, r))
        ok = older_version(t, x, snap, &ref, key, &r);
    store__run_release(t, ref);
    store__txn_scan_unregister(x, x ? x->gen : 0, t);
    if (ok)
        *rowid = r;
    return ok;
}

__attribute__((noinline)) static void truncate_own_txn(StoreTable *t)
{
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__truncate(t, x);
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_txn_commit(x);
}

void store_table_truncate(StoreTable *t, StoreTxn *x)
{
    /* A new table generation at commit (truncate.c). */
    if (x)
        store__truncate(t, x);
    else
        truncate_own_txn(t);
}

