/*
 * truncate.c — TRUNCATE: a new, empty table generation swapped in at commit.
 *
 * TRUNCATE takes the table exclusively, as PostgreSQL's ACCESS EXCLUSIVE
 * lock: the write lock, a wait for every other transaction's scans (as
 * DROP TABLE), and t->trunc_txn, which makes other transactions' new
 * scans wait until it ends (txn.c). Until COMMIT the old rows stay where
 * they are, hidden from the truncating transaction by its xmax mark (so a
 * ROLLBACK, or ROLLBACK TO a savepoint before it, just clears the marks),
 * and the row count is padded to the next group boundary T (the padding
 * rows are marked too): rows the transaction appends afterwards start a
 * fresh row group, and their strings a fresh heap block.
 *
 * At COMMIT (txn.c calls prepare before the WAL commit, swap after it),
 * with checkpoints kept out (a checkpoint reads the table's rows in place)
 * and no scan left: the groups from T on move to a new directory as groups
 * 0, 1, ... (their `next` links renumbered), the pk index keeps only their
 * keys (renumbered), the heap keeps only the blocks from the fresh one on,
 * the table's runs are released (cold.c: the old generation's cold data
 * is freed; the files are removed by the next checkpoint, asked for now,
 * since the current checkpoint still names them), and the old groups,
 * heap blocks and index go. The table is then exactly a table to which the
 * transaction's post-TRUNCATE rows were appended and committed.
 *
 * Durability: one WAL_TRUNCATE record (u32 oid) in the transaction's
 * records; replay runs the same code (store__truncate at the record, the
 * swap at the COMMIT), so row numbers after it come out identical. A crash
 * before COMMIT loses the record with the transaction: the rows are back.
 * A temporary table's TRUNCATE writes no record (wal.c); the rest is the
 * same, in memory.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/error.h"

/* What an UNDO_TRUNCATE entry restores. */
typedef struct TruncUndo {
    uint64_t *marked;          /* rows of [0, from) this TRUNCATE marked deleted */
    bool applied;              /* the marks and the padding are in place */
    StoreTxn *txn;
    uint64_t prev_row;         /* t->trunc_row / trunc_block before (a second TRUNCATE) */
    StoreHeapBlock *prev_block;
} TruncUndo;

static void trunc_fields_restore(StoreTable *t, const TruncUndo *tu)
{
    store__lock();
    t->trunc_row = tu->prev_row;
    t->trunc_block = tu->prev_block;
    t->trunc_txn = tu->prev_block ? tu->txn : NULL;
    pthread_cond_broadcast(&store_g.cond);
    store__unlock();
}

/* Mark rows [0, n) deleted by x where live (bits in tu->marked) and the
 * padding rows [n, padded). Never raises. */
static void truncate_mark(StoreTable *t, StoreTxn *x, TruncUndo *tu, uint64_t n, uint64_t padded)
{
    uint64_t mark = STORE_XMAX_MARK | x->id;
    for (uint64_t start = 0; start < padded; start += STORE_GROUP_ROWS) {
        StoreRowGroup *g = store__group(t, start / STORE_GROUP_ROWS);
        uint32_t added = 0;
        for (uint32_t i = 0; i < STORE_GROUP_ROWS && start + i < padded; i++) {
            uint64_t r = start + i;
            if (r >= n) {
                /* Padding: never appended (or rolled back); stale stamps go. */
                g->xmin[i] = 0;
                atomic_store(&g->next[i], 0);
                atomic_store(&g->xmax[i], mark);
                added++;
            } else if (atomic_load(&g->xmax[i]) == 0) {
                atomic_store(&g->xmax[i], mark);
                tu->marked[r / 64] |= UINT64_C(1) << (r % 64);
                added++;
            }
        }
        if (added)
            atomic_fetch_add(&g->ndead, added);
    }
}

void store__truncate(StoreTable *t, StoreTxn *x)
{
    store__bulk_truncated(x, t);  /* its loads of t: logged, never installed */
    store__txn_wait_truncate(x, t);
    /* The marks below write every row's stamps: frozen groups get theirs
     * back first (vacuum.c). t->trunc_txn is set now, so no checkpoint
     * freezes a group again meanwhile. */
    for (uint64_t g = 0; g < t->ngroups; g++)
        if (store__group_frozen(store__group(t, g)))
            store__group_thaw(t, g);
    TruncUndo *tu = calloc(1, sizeof *tu);
    store__lock();
    if (tu) {
        tu->txn = x;
        tu->prev_row = t->trunc_row;
        tu->prev_block = t->trunc_block;
    }
    store__unlock();
    uint64_t n = atomic_load(&t->nrows);
    uint64_t padded = (n + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS * STORE_GROUP_ROWS;
    if (tu)
        tu->marked = calloc(n / 64 + 1, sizeof(uint64_t));
    if (!tu || !tu->marked) {
        if (tu) {
            trunc_fields_restore(t, tu);
            free(tu);
        } else {
            store__lock();
            t->trunc_txn = t->trunc_block ? x : NULL;
            store__unlock();
        }
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    StoreUndo u = {.kind = UNDO_TRUNCATE, .table = t, .from = n, .to = padded,
                   .heap_mark = store__heap_mark(&t->heap), .aux = tu};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__undo_push(x, u);
        err_pop(&jmp);
    } else {
        trunc_fields_restore(t, tu);
        free(tu->marked);
        free(tu);
        err_rethrow();
    }
    /* From here the undo entry restores whatever happened. */
    store__heap_new_block(&t->heap);
    truncate_mark(t, x, tu, n, padded);
    tu->applied = true;
    atomic_store_explicit(&t->nrows, padded, memory_order_release);
    store__lock();
    t->trunc_row = padded;
    t->trunc_block = t->heap.head;
    store__unlock();
    if (!t->temp)   /* temporary tables are never logged (wal.c) */
        store__wal_add(x, WAL_TRUNCATE, &t->oid, 4);
}

void store__truncate_undo_free(StoreUndo *u)
{
    TruncUndo *tu = u->aux;
    if (tu)
        free(tu->marked);
    free(tu);
    u->aux = NULL;
}

void store__undo_truncate(StoreTable *t, StoreUndo *u)
{
    TruncUndo *tu = u->aux;
    if (tu->applied && !t->data_freed) {
        /* Later appends are undone already: nrows == u->to. */
        for (uint64_t r = u->from; r < u->to; r++) {
            StoreRowGroup *g = store__group(t, r / STORE_GROUP_ROWS);
            atomic_store(&g->xmax[r % STORE_GROUP_ROWS], 0);
            atomic_fetch_sub(&g->ndead, 1);
        }
        atomic_store_explicit(&t->nrows, u->from, memory_order_release);
        if (t->npkey > 0)
            pthread_rwlock_wrlock(&t->pk_lock);
        for (uint64_t r = 0; r < u->from; r++) {
            if (!(tu->marked[r / 64] >> (r % 64) & 1))
                continue;
            StoreRowGroup *g = store__group(t, r / STORE_GROUP_ROWS);
            atomic_store(&g->xmax[r % STORE_GROUP_ROWS], 0);
            atomic_fetch_sub(&g->ndead, 1);
            if (t->npkey > 0)
                store__pk_reinsert_row(t, r);
        }
        if (t->npkey > 0)
            pthread_rwlock_unlock(&t->pk_lock);
    }
    if (!t->data_freed)
        store__heap_reset(&t->heap, u->heap_mark);
    trunc_fields_restore(t, tu);
    store__truncate_undo_free(u);
}

/* ---- commit: the swap ---- */

typedef struct TruncTable {
    StoreTable *t;
    StoreRowGroup ***dir;   /* the new generation's directory */
    StorePkEntry *slots;    /* its pk index (same capacity) */
    StoreRunRef *ref;       /* its run ref (no run) */
} TruncTable;

struct StoreTruncSwap {
    int n;
    TruncTable tabs[];
};

static void trunc_table_free(TruncTable *tt)
{
    if (tt->dir)
        for (int s = 0; s < STORE_DIR_TOP && tt->dir[s]; s++)
            free(tt->dir[s]);
    free(tt->dir);
    free(tt->slots);
    free(tt->ref);
}

static int truncated_tables(StoreTxn *x, StoreTable **out)
{
    int n = 0;
    for (int i = 0; i < x->nundo; i++) {
        StoreTable *t = x->undo[i].table;
        if (x->undo[i].kind != UNDO_TRUNCATE || t->data_freed ||
            __atomic_load_n(&t->drop_txn, __ATOMIC_RELAXED) == x)
            continue;
        bool seen = false;
        for (int k = 0; k < n && !seen; k++)
            seen = out && out[k] == t;
        if (!out) {
            n++;  /* an upper bound */
        } else if (!seen) {
            out[n++] = t;
        }
    }
    return n;
}

/* Allocate t's new directory, index and ref (may raise). */
static void trunc_table_alloc(TruncTable *tt)
{
    StoreTable *t = tt->t;
    uint64_t g0 = t->trunc_row / STORE_GROUP_ROWS;
    uint64_t ng = t->ngroups > g0 ? t->ngroups - g0 : 0;
    tt->dir = store__calloc(STORE_DIR_TOP, sizeof *tt->dir);
    for (uint64_t s = 0; s < (ng + STORE_DIR_SEG - 1) / STORE_DIR_SEG; s++)
        tt->dir[s] = store__calloc(STORE_DIR_SEG, sizeof **tt->dir);
    if (t->pk.cap)
        tt->slots = store__calloc(t->pk.cap, sizeof *tt->slots);
    tt->ref = store__calloc(1, sizeof *tt->ref);
    tt->ref->refs = 1;
}

StoreTruncSwap *store__truncate_prepare(StoreTxn *x, bool *excluded)
{
    int max = truncated_tables(x, NULL);
    if (!max)
        return NULL;
    StoreTruncSwap *sw = store__calloc(1, sizeof *sw + (size_t)max * sizeof(TruncTable));
    StoreTable **ts = calloc((size_t)max, sizeof *ts);
    if (!ts) {
        free(sw);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    sw->n = truncated_tables(x, ts);
    for (int i = 0; i < sw->n; i++)
        sw->tabs[i].t = ts[i];
    free(ts);
    /* Checkpoints read tables in place: none runs from here to the swap. */
    if (!*excluded) {
        store__checkpoint_exclude(true);
        *excluded = true;
    }
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (int i = 0; i < sw->n; i++) {
            store__txn_wait_notxn_scans(sw->tabs[i].t);
            trunc_table_alloc(&sw->tabs[i]);
        }
        err_pop(&jmp);
    } else {
        store__truncate_abort(sw);
        store__checkpoint_exclude(false);
        *excluded = false;
        err_rethrow();
    }
    return sw;
}

void store__truncate_abort(StoreTruncSwap *sw)
{
    if (!sw)
        return;
    for (int i = 0; i < sw->n; i++)
        trunc_table_free(&sw->tabs[i]);
    free(sw);
}

/* The pk entries of rows >= from, renumbered, into slots (same capacity). */
static void pk_rebase(StoreTable *t, StorePkEntry *slots, uint64_t from)
{
    StorePkIndex *pk = &t->pk;
    uint64_t mask = pk->cap - 1, count = 0;
    for (uint64_t i = 0; i < pk->cap; i++) {
        uint64_t row = pk->slots[i].row;
        if (!row || row - 1 < from)
            continue;
        uint64_t j = pk->slots[i].hash & mask;
        while (slots[j].row)
            j = (j + 1) & mask;
        slots[j] = (StorePkEntry){pk->slots[i].hash, row - from};
        count++;
    }
    free(pk->slots);
    pk->slots = slots;
    pk->count = count;
}

/* Groups [g0, ngroups) become groups 0.. of the new directory. */
static void groups_move(StoreTable *t, StoreRowGroup ***dir, uint64_t from)
{
    uint64_t g0 = from / STORE_GROUP_ROWS;
    for (uint64_t g = g0; g < t->ngroups; g++) {
        StoreRowGroup *grp = t->dir[g / STORE_DIR_SEG][g % STORE_DIR_SEG];
        for (uint32_t i = 0; i < STORE_GROUP_ROWS; i++) {
            uint64_t nx = atomic_load(&grp->next[i]);
            if (nx > from)  /* successors are later rows of the new generation */
                atomic_store(&grp->next[i], nx - from);
        }
        uint64_t ng = g - g0;
        dir[ng / STORE_DIR_SEG][ng % STORE_DIR_SEG] = grp;
    }
    store__groups_free(t, 0, g0 < t->ngroups ? g0 : t->ngroups);
    for (int s = 0; s < STORE_DIR_TOP && t->dir[s]; s++)
        free(t->dir[s]);
    free(t->dir);
    t->ngroups = t->ngroups > g0 ? t->ngroups - g0 : 0;
}

static bool swap_table(TruncTable *tt)
{
    StoreTable *t = tt->t;
    uint64_t from = t->trunc_row;
    uint64_t rows = atomic_load(&t->nrows) - from;
    if (t->npkey > 0 || t->pk.cap)
        pthread_rwlock_wrlock(&t->pk_lock);
    groups_move(t, tt->dir, from);
    if (t->pk.cap) {
        pk_rebase(t, tt->slots, from);
        tt->slots = NULL;
    }
    store__keys_drop(&t->pk);  /* the old generation's keys (keyruns.c) */
    if (t->npkey > 0 || t->pk.cap)
        pthread_rwlock_unlock(&t->pk_lock);
    store__heap_cut(&t->heap, t->trunc_block, from);  /* older key and value blocks go */
    store__lock();
    bool had_runs = t->run_cur && t->run_cur->nspans > 0;
    store__unlock();
    store__run_free_all(t);  /* nobody holds a ref: old cold data and runs go */
    store__lock();
    t->run_cur = tt->ref;
    tt->ref = NULL;
    __atomic_store_n(&t->dir, tt->dir, __ATOMIC_RELEASE);
    tt->dir = NULL;
    atomic_store(&t->nrows, rows);
    atomic_store(&t->committed, rows);
    atomic_store(&t->vacuum_full, false);
    t->trunc_txn = NULL;
    t->trunc_row = 0;
    t->trunc_block = NULL;
    pthread_cond_broadcast(&store_g.cond);
    store__unlock();
    return had_runs;
}

void store__truncate_swap(StoreTruncSwap *sw)
{
    if (!sw)
        return;
    bool had_runs = false;
    for (int i = 0; i < sw->n; i++)
        had_runs |= swap_table(&sw->tabs[i]);
    for (int i = 0; i < sw->n; i++)
        trunc_table_free(&sw->tabs[i]);
    free(sw);
    store__run_trim();
    /* The current checkpoint still names the old runs: the next one will
     * not, and removes the files. */
    if (had_runs)
        store__checkpoint_request_async();
}
