/*
 * delta.c — transaction-private deltas: row-level write concurrency.
 *
 * A table's rows past `committed` belong to one writer at a time (the
 * holder of its write lock, txn.c), so writers of one table used to run
 * one after the other, each from its first write to its commit. Here a
 * transaction that writes a table without holding its write lock (plain
 * INSERT, UPDATE, DELETE) works on its own:
 *
 *  - new rows (INSERTs, UPDATEs' new versions) go to its delta: a private
 *    shadow table with the table's columns and key (no WAL, in no catalog,
 *    written by its transaction alone, through the same append, pk index
 *    and scan code as any table). Its scans read the delta's rows after
 *    the table's (scan.c); their locators carry STORE_DELTA_ROW;
 *  - rows it deletes (and UPDATEs' old versions) are claimed in the table
 *    with a compare-and-swap of their xmax (mvcc.c store__row_claim): a
 *    second writer of the row waits for the first transaction's end, as
 *    PostgreSQL's row locks;
 *  - a new key is checked, under the table's pk_lock, against the table's
 *    index (a live row: 23505; a row another transaction deleted or holds:
 *    wait for it) and the other open deltas' indexes (a key another one
 *    inserted: wait for its transaction), then goes to its own delta;
 *  - at commit (store__delta_flush_all) it takes each table's write lock,
 *    appends the delta's live rows to the table (their WAL records written
 *    now, with the row numbers they get), links the claimed rows to their
 *    new versions and logs their deletion; the commit record follows and
 *    the write lock passes on at once (txn.c "Commit handoff"). So a write
 *    lock is held for the length of an append, not of a transaction, and
 *    `committed` still grows as a prefix in commit order: checkpoints,
 *    recovery and scans of other transactions are unchanged.
 *
 * A statement that needs the write lock itself (COPY's bulk load, ON
 * CONFLICT, TRUNCATE, ALTER TABLE, DROP) flushes the delta first; the
 * transaction then writes the table directly, holding its lock, as before.
 * Locators handed out before a flush stay valid: the delta keeps where
 * each of its rows went (store__delta_locate).
 *
 * Shadows are reused: at the transaction's end a small one is emptied and
 * kept on its table (pk_lock), so a single-row transaction allocates
 * nothing here.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"

struct StoreDelta {
    StoreTable *table;
    StoreTable *shadow;
    StoreTxn *owner;
    uint64_t owner_id;
    bool flushed;
    uint64_t flush_pos;       /* flushed: x's WAL position before its records */
    uint64_t *moved;          /* flushed: table row of each shadow row (UINT64_MAX: none) */
    uint64_t nmoved;
    StoreDelta *next_in_txn;
    StoreDelta *next_in_table;  /* t->deltas, under t->pk_lock */
};

/* Rows a delta takes before its transaction takes the table's write lock
 * (store_table_lock_write): a bulk load's rows are then written once. */
#define STORE_DELTA_ESCALATE_ROWS (64u * 1024)

#define SHADOW_POOL_MAX 8
#define SHADOW_POOL_ROWS (4 * STORE_GROUP_ROWS)  /* bigger shadows are freed, not kept */

static StoreDelta *delta_find(const StoreTxn *x, const StoreTable *t)
{
    for (StoreDelta *d = x ? x->deltas : NULL; d; d = d->next_in_txn)
        if (d->table == t)
            return d;
    return NULL;
}

bool store__delta_mode(const StoreTable *t, const StoreTxn *x)
{
    /* Temporary tables: one session writes them, no one waits. */
    return x && !t->is_shadow && !t->temp && __atomic_load_n(&t->writer, __ATOMIC_RELAXED) != x;
}

bool store__delta_has(const StoreTxn *x, const StoreTable *t) { return delta_find(x, t) != NULL; }

StoreTable *store__delta_shadow(const StoreTxn *x, const StoreTable *t)
{
    StoreDelta *d = delta_find(x, t);
    return d && !d->flushed ? d->shadow : NULL;
}

/* ---- shadows ---- */

static StoreTable *shadow_new(StoreTable *t)
{
    StoreTable *s = store__table_new(0, t->schema, t->name, t->ncols, t->cols, t->npkey, t->pkey);
    snprintf(s->pkey_name, sizeof s->pkey_name, "%s", t->pkey_name);
    s->is_shadow = true;
    s->temp = true;  /* never logged (wal.c) */
    return s;
}

/* An emptied shadow back to its table's pool, or freed. Under t->pk_lock. */
static void shadow_put(StoreTable *t, StoreTable *s)
{
    uint64_t n = atomic_load_explicit(&s->nrows, memory_order_relaxed);
    if (t->nshadow_pool >= SHADOW_POOL_MAX || n > SHADOW_POOL_ROWS || s->ncols != t->ncols) {
        store__table_free(s);
        return;
    }
    /* Rows [0, n) may carry the owner's marks and links; the next owner's
     * appends expect clean stamps (as rows a rollback gave back). */
    for (uint64_t g = 0; g * STORE_GROUP_ROWS < n; g++) {
        StoreRowGroup *grp = store__group(s, g);
        uint64_t m = n - g * STORE_GROUP_ROWS < STORE_GROUP_ROWS ? n - g * STORE_GROUP_ROWS
                                                                 : STORE_GROUP_ROWS;
        memset((void *)grp->xmax, 0, m * sizeof(uint64_t));
        memset((void *)grp->next, 0, m * sizeof(uint64_t));
        atomic_store(&grp->ndead, 0);
    }
    if (s->npkey > 0)
        store__pk_remove_rows(s, 0, n);
    atomic_store(&s->nrows, 0);
    store__heap_reset(&s->heap, (StoreHeapMark){0});
    s->writer = NULL;
    s->next_all = t->shadow_pool;
    t->shadow_pool = s;
    t->nshadow_pool++;
}

void store__delta_pool_free(StoreTable *t)
{
    while (t->shadow_pool) {
        StoreTable *s = t->shadow_pool;
        t->shadow_pool = s->next_all;
        store__table_free(s);
    }
    t->nshadow_pool = 0;
}

/* An idle shadow of t from its pool, or a new one. */
static StoreTable *shadow_take(StoreTable *t)
{
    pthread_rwlock_wrlock(&t->pk_lock);
    StoreTable *s = t->shadow_pool;
    if (s && s->ncols == t->ncols) {
        t->shadow_pool = s->next_all;
        t->nshadow_pool--;
        s->next_all = NULL;
    } else {
        s = NULL;
    }
    pthread_rwlock_unlock(&t->pk_lock);
    return s ? s : shadow_new(t);
}

/* The delta record for shadow s (freed again if the allocation fails). */
__attribute__((noinline)) static StoreDelta *delta_alloc(StoreTable *s)
{
    StoreDelta *d = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        d = store__calloc(1, sizeof *d);
        err_pop(&jmp);
    } else {
        store__table_free(s);
        err_rethrow();
    }
    return d;
}

/* x's delta of t, made on first use — and anew after a flush whose write
 * lock a ROLLBACK TO gave back (the flushed one stays to the end: undo
 * entries name its shadow). */
static StoreDelta *delta_get(StoreTable *t, StoreTxn *x)
{
    StoreDelta *d = delta_find(x, t);
    if (d && !d->flushed)
        return d;
    /* x now holds t as any user does (DROP and ALTER wait for it). */
    store__txn_scan_register(x, t);
    store__txn_scan_unregister(x, x->gen, t);
    StoreTable *s = shadow_take(t);
    d = delta_alloc(s);
    s->writer = x;       /* its rows are x's own rows (scan.c, mvcc.c) */
    s->writer_first = 0;
    *d = (StoreDelta){.table = t, .shadow = s, .owner = x, .owner_id = x->id,
                      .next_in_txn = x->deltas};
    x->deltas = d;
    pthread_rwlock_wrlock(&t->pk_lock);
    d->next_in_table = t->deltas;
    t->deltas = d;
    pthread_rwlock_unlock(&t->pk_lock);
    return d;
}

static void delta_unlink_table(StoreDelta *d)
{
    StoreTable *t = d->table;
    for (StoreDelta **p = &t->deltas; *p; p = &(*p)->next_in_table)
        if (*p == d) {
            *p = d->next_in_table;
            break;
        }
}

/* ---- keys ---- */

/* Whose row r of t is, for an inserter of its key: 0 = the key is free
 * (the row is deleted, committed, or by x itself), 1 = taken (23505),
 * else the mark of the transaction to wait for. */
static uint64_t key_owner(const StoreTable *t, const StoreTxn *x, uint64_t r)
{
    uint64_t self = STORE_XMAX_MARK | x->id;
    uint64_t xm = atomic_load(store__xmax_of(t, r));
    if (xm == self || (xm != 0 && !(xm & STORE_XMAX_MARK)))
        return 0;
    if (xm & STORE_XMAX_MARK)
        return xm;  /* held by another transaction: its outcome decides */
    /* Live. A row past `committed` is a committing one's (decided: taken)
     * or the current writer's, not decided yet: wait for it. */
    StoreTxn *w = __atomic_load_n(&t->writer, __ATOMIC_RELAXED);
    if (w && w != x && r >= t->writer_first && r >= atomic_load(&t->committed))
        return STORE_XMAX_MARK | w->id;
    return 1;
}

/* The mark of another transaction whose open delta holds the key of b's
 * row i, live (0: none). Under t->pk_lock. */
static uint64_t delta_key_owner(StoreTable *t, const StoreTxn *x, const Batch *b, uint32_t i)
{
    for (StoreDelta *d = t->deltas; d; d = d->next_in_table) {
        if (d->owner == x || d->flushed)
            continue;
        uint64_t r;
        pthread_rwlock_rdlock(&d->shadow->pk_lock);
        bool found = store__pk_find_batch_row(d->shadow, b, i, &r) &&
                     atomic_load(store__xmax_of(d->shadow, r)) == 0;
        pthread_rwlock_unlock(&d->shadow->pk_lock);
        if (found)
            return STORE_XMAX_MARK | d->owner_id;
    }
    return 0;
}

/* The first conflict of batch b's keys with t and the other open deltas:
 * *wait_mark set (a transaction to wait for) or *dup the row that is a
 * duplicate; false when none. Under t->pk_lock (write). */
static bool key_conflict(StoreTable *t, StoreTxn *x, const Batch *b, uint64_t *wait_mark,
                         int64_t *dup)
{
    for (uint32_t i = 0; i < b->count; i++) {
        bool null_value = false;
        for (int c = 0; c < t->ncols; c++)
            null_value |= t->cols[c].not_null && !vec_is_valid(&b->cols[c], batch_row(b, i));
        if (null_value)
            return false;  /* the append raises 23502 for this row, before any later key */
        uint64_t r;
        if (store__pk_find_batch_row(t, b, i, &r)) {
            uint64_t o = key_owner(t, x, r);
            if (o == 1) {
                *dup = i;
                return true;
            }
            if (o) {
                *wait_mark = o;
                return true;
            }
        }
        if ((*wait_mark = delta_key_owner(t, x, b, i)) != 0)
            return true;
    }
    return false;
}

uint64_t store__delta_pending_key(StoreTable *t, const StoreTxn *x, const Batch *b, uint32_t limit)
{
    for (uint32_t i = 0; i < limit; i++) {
        uint64_t mark = delta_key_owner(t, x, b, i);
        if (mark)
            return mark;
    }
    return 0;
}

/* ---- writes ---- */

/* Under t->pk_lock: b's keys checked, then appended to the shadow
 * (*base); false with *wait_mark or *dup set on a conflict. */
__attribute__((noinline)) static bool append_checked(StoreTable *t, StoreTxn *x, StoreTable *shadow,
                                                     const Batch *b, uint64_t *base,
                                                     uint64_t *wait_mark, int64_t *dup)
{
    pthread_rwlock_wrlock(&t->pk_lock);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (!key_conflict(t, x, b, wait_mark, dup))
            *base = store__append_nowal(shadow, x, b);  /* own duplicates: 23505 */
        err_pop(&jmp);
    } else {
        pthread_rwlock_unlock(&t->pk_lock);
        err_rethrow();
    }
    pthread_rwlock_unlock(&t->pk_lock);
    return *wait_mark == 0 && *dup < 0;
}

/* Append b to x's delta of t; returns the first shadow row. */
static uint64_t delta_append(StoreTable *t, StoreTxn *x, const Batch *b)
{
    StoreDelta *d = delta_get(t, x);
    if (t->npkey == 0)
        return store__append_nowal(d->shadow, x, b);
    for (;;) {
        uint64_t base = 0, wait_mark = 0;
        int64_t dup = -1;
        if (append_checked(t, x, d->shadow, b, &base, &wait_mark, &dup))
            return base;
        if (dup >= 0)
            store__pk_raise_duplicate_batch_row(t, b, (uint32_t)dup);
        store__txn_wait_mark(x, wait_mark);
    }
}

void store__delta_insert(StoreTable *t, StoreTxn *x, const Batch *b)
{
    StoreDelta *d = delta_find(x, t);
    if (d && !d->flushed && atomic_load(&d->shadow->nrows) >= STORE_DELTA_ESCALATE_ROWS) {
        /* A bulk INSERT: copying its rows again at commit would double
         * its cost; it takes the table's write lock instead. */
        store_table_lock_write(t, x);
        store__append_locked(t, x, b);
        return;
    }
    (void)delta_append(t, x, b);
}

/* ---- INSERT ... ON CONFLICT ---- */

/* Whether a part of the key of b's row i is NULL (its append raises 23502). */
static bool key_has_null(const StoreTable *t, const Batch *b, uint32_t i)
{
    for (int k = 0; k < t->npkey; k++)
        if (!vec_is_valid(&b->cols[t->pkey[k]], batch_row(b, i)))
            return true;
    return false;
}

/* The live row of x's delta shadow with the key of b's row i. */
static bool own_key_row(StoreTable *shadow, const Batch *b, uint32_t i, uint64_t *r)
{
    pthread_rwlock_rdlock(&shadow->pk_lock);
    bool found = store__pk_find_batch_row(shadow, b, i, r) && atomic_load(store__xmax_of(shadow, *r)) == 0;
    pthread_rwlock_unlock(&shadow->pk_lock);
    return found;
}

/* Sort b's rows for an upsert, under t->pk_lock: a live row of another,
 * committed transaction holds the key (a conflict: its batch row and that
 * row go to cf), or nobody does (kept, in b's order). Returns the mark of
 * a transaction that holds a key and must end first (then nothing is
 * sorted), else 0. */
static uint64_t upsert_sort(StoreTable *t, StoreTxn *x, const Batch *b, StoreConflicts *cf,
                            uint16_t *keep, uint32_t *nkeep)
{
    StoreTable *own = store__delta_shadow(x, t);
    cf->count = 0;
    *nkeep = 0;
    for (uint32_t i = 0; i < b->count; i++) {
        uint64_t r, mark;
        if (!key_has_null(t, b, i)) {
            if (own && own_key_row(own, b, i, &r)) {
                cf->rows[cf->count] = (uint16_t)batch_row(b, i);
                cf->ids[cf->count++] = r | STORE_DELTA_ROW;
                continue;
            }
            if (store__pk_find_batch_row(t, b, i, &r)) {
                uint64_t o = key_owner(t, x, r);
                if (o == 1) {
                    cf->rows[cf->count] = (uint16_t)batch_row(b, i);
                    cf->ids[cf->count++] = r;
                    continue;
                }
                if (o)
                    return o;
            }
            if ((mark = delta_key_owner(t, x, b, i)) != 0)
                return mark;
        }
        keep[(*nkeep)++] = (uint16_t)batch_row(b, i);
    }
    return 0;
}

/* Sort b's rows (upsert_sort) and append the kept ones. In delta mode they
 * go to x's delta in the same (exclusive) hold of t->pk_lock, so no other
 * transaction adds one of their keys between. When x holds t's write lock
 * (or t is temporary) no other transaction appends to t, so they go
 * through the ordinary append after the sort (other deltas' keys are
 * checked again there). */
static uint64_t upsert_append(StoreTable *t, StoreTxn *x, const Batch *b, StoreConflicts *cf,
                              uint16_t *keep)
{
    StoreTable *shadow = store__delta_mode(t, x) ? delta_get(t, x)->shadow : NULL;
    uint32_t nkeep = 0;
    uint64_t mark = 0;
    if (shadow)
        pthread_rwlock_wrlock(&t->pk_lock);
    else
        pthread_rwlock_rdlock(&t->pk_lock);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        mark = upsert_sort(t, x, b, cf, keep, &nkeep);
        if (shadow && !mark && nkeep > 0)
            (void)store__append_nowal(shadow, x, &(Batch){nkeep, keep, b->ncols, b->cols});
        err_pop(&jmp);
    } else {
        pthread_rwlock_unlock(&t->pk_lock);
        err_rethrow();
    }
    pthread_rwlock_unlock(&t->pk_lock);
    if (!shadow && !mark && nkeep > 0)
        store_table_append(t, x, &(Batch){nkeep, keep, b->ncols, b->cols});
    return mark;
}

void store_table_insert_or_conflict(StoreTable *t, StoreTxn *x, const Batch *b, StoreConflicts *cf)
{
    cf->count = 0;
    if (b->count == 0)
        return;
    if (t->npkey == 0)
        err_raise(ERRCODE_INTERNAL_ERROR, "table \"%s\" has no primary key", t->name);
    ERR_ASSERT(x && b->count <= VEC_CAPACITY);
    StoreDelta *d = delta_find(x, t);
    if (d && !d->flushed && atomic_load(&d->shadow->nrows) >= STORE_DELTA_ESCALATE_ROWS)
        store_table_lock_write(t, x);  /* a bulk upsert, as store__delta_insert */
    uint16_t keep[VEC_CAPACITY];
    for (;;) {
        uint64_t mark = upsert_append(t, x, b, cf, keep);
        if (!mark)
            break;
        store__txn_wait_mark(x, mark);  /* its end decides: retry */
    }
    /* A conflicting row of a commit not yet published is below `committed`
     * once it is: the caller reads it. */
    uint64_t committed = atomic_load(&t->committed);
    for (uint32_t i = 0; i < cf->count; i++)
        if (!(cf->ids[i] & STORE_DELTA_ROW) && cf->ids[i] >= committed &&
            cf->ids[i] < store__txn_own_first(t, x)) {
            store__txn_wait_published(x, t);
            break;
        }
    store__rows_unseen(t, x, cf->ids, cf->count, cf->unseen);
}

void store_table_lock_write(StoreTable *t, StoreTxn *x)
{
    store__txn_acquire_write(x, t);  /* flushes x's delta of t into it */
}

uint64_t store__delta_locate(StoreTable *t, const StoreTxn *x, uint64_t rowid, StoreTable **shadow)
{
    *shadow = NULL;
    if (!(rowid & STORE_DELTA_ROW))
        return rowid;
    uint64_t r = rowid & ~STORE_DELTA_ROW;
    StoreDelta *d = delta_find(x, t);
    if (!d)
        err_raise(ERRCODE_INTERNAL_ERROR, "row locator %llu out of range for \"%s\"",
                  (unsigned long long)rowid, t->name);
    if (!d->flushed) {
        *shadow = d->shadow;
        return r;
    }
    if (r >= d->nmoved || d->moved[r] == UINT64_MAX)
        return UINT64_MAX;  /* deleted before the flush */
    return d->moved[r];
}

StoreWriteResult store__delta_delete(StoreTable *t, StoreTxn *x, uint64_t rowid, uint64_t *newest)
{
    StoreTable *s;
    uint64_t r = store__delta_locate(t, x, rowid, &s);
    if (s) {
        /* Its own delta row: a tombstone there (the shadow's writer is x). */
        return store_row_delete(s, x, r, newest) == STORE_WRITE_OK ? STORE_WRITE_OK
                                                                   : STORE_WRITE_GONE;
    }
    if (r == UINT64_MAX)
        return STORE_WRITE_GONE;
    if (!store__delta_mode(t, x))
        return store_row_delete(t, x, r, newest);  /* flushed: x holds the lock */
    StoreDelta *d = delta_get(t, x);  /* the commit's flush logs the deletion */
    StoreWriteResult w = store__row_claim_logged(t, x, r, newest, true);
    if (w == STORE_WRITE_OK)
        x->undo[x->nundo - 1].aux = d;
    return w;
}

StoreWriteResult store__delta_update(StoreTable *t, StoreTxn *x, uint64_t rowid,
                                     const Batch *values, uint32_t row, uint64_t *newest)
{
    StoreTable *s;
    uint64_t r = store__delta_locate(t, x, rowid, &s);
    if (r == UINT64_MAX)
        return STORE_WRITE_GONE;
    if (!s && !store__delta_mode(t, x))
        return store_row_update(t, x, r, values, row, newest);
    uint16_t sel = (uint16_t)row;
    Batch one = {.count = 1, .sel = &sel, .ncols = values->ncols, .cols = values->cols};
    int save = x->nundo;
    StoreWriteResult w;
    if (s) {
        /* An own delta row: its tombstone, then the new version (keys
         * checked against everyone by delta_append). */
        w = store_row_delete(s, x, r, newest);
        if (w != STORE_WRITE_OK)
            return STORE_WRITE_GONE;
    } else {
        StoreDelta *d = delta_get(t, x);
        w = store__row_claim_logged(t, x, r, newest, true);
        if (w != STORE_WRITE_OK)
            return w;
        x->undo[save].aux = d;
    }
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        uint64_t nr = delta_append(t, x, &one);
        if (s)
            atomic_store(&store__group(s, r / STORE_GROUP_ROWS)->next[r % STORE_GROUP_ROWS], nr + 1);
        else
            x->undo[save].to = nr + 1;  /* the new version, linked at the flush */
        err_pop(&jmp);
    } else {
        store__undo_rollback(x, save);  /* the deletion too */
        err_rethrow();
    }
    return STORE_WRITE_OK;
}

/* ---- flush ---- */

/* Append the delta's live rows to t, a batch per shadow group, recording
 * where each went. */
static void flush_rows(StoreTable *t, StoreTxn *x, StoreDelta *d)
{
    StoreTable *s = d->shadow;
    uint64_t n = atomic_load(&s->nrows);
    d->moved = store__malloc((n ? n : 1) * sizeof *d->moved);
    for (uint64_t i = 0; i < n; i++)
        d->moved[i] = UINT64_MAX;
    d->nmoved = n;
    int ncols = t->ncols;
    int *cols = store__malloc(sizeof(int) * (size_t)(ncols + 1));
    for (int c = 0; c < ncols; c++)
        cols[c] = c;
    cols[ncols] = STORE_COL_ROWID;
    MemArena *arena = mem_arena_create("delta flush");
    StoreScan *scan = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        scan = store__scan_begin_private(s, x, ncols + 1, cols, arena);
        Batch b = {0};
        while (store_scan_next(scan, &b)) {
            Batch rows = {.count = b.count, .sel = b.sel, .ncols = ncols, .cols = b.cols};
            uint64_t base = atomic_load_explicit(&t->nrows, memory_order_relaxed);
            store__append_locked(t, x, &rows);
            const int64_t *ids = b.cols[ncols].data;
            for (uint32_t i = 0; i < b.count; i++)
                d->moved[ids[batch_row(&b, i)]] = base + i;
        }
        store_scan_end(scan);
        err_pop(&jmp);
    } else {
        store_scan_end(scan);
        mem_arena_destroy(arena);
        free(cols);
        err_rethrow();
    }
    mem_arena_destroy(arena);
    free(cols);
}

/* The claimed rows of t: their successors' table rows, and their records. */
static void flush_deletes(StoreTable *t, StoreTxn *x, StoreDelta *d)
{
    for (int i = 0; i < x->nundo; i++) {
        StoreUndo *u = &x->undo[i];
        if (u->kind != UNDO_DELETE || u->table != t || !u->deferred)
            continue;
        uint64_t next = 0;
        if (u->to) {
            /* The successor may have been updated again inside the delta:
             * the newest live one went to the table. */
            uint64_t r = u->to - 1;
            StoreTable *s = d->shadow;
            while (d->moved[r] == UINT64_MAX) {
                uint64_t nx = atomic_load(&store__group(s, r / STORE_GROUP_ROWS)->next[r % STORE_GROUP_ROWS]);
                if (nx == 0)
                    break;
                r = nx - 1;
            }
            next = d->moved[r] == UINT64_MAX ? 0 : d->moved[r] + 1;
        }
        atomic_store(&store__group(t, u->from / STORE_GROUP_ROWS)->next[u->from % STORE_GROUP_ROWS], next);
        store__wal_delete(x, t, u->from, next);
        u->deferred = false;
    }
}

void store__delta_flush(StoreTable *t, StoreTxn *x)
{
    StoreDelta *d = delta_find(x, t);
    if (!d || d->flushed)
        return;
    ERR_ASSERT(__atomic_load_n(&t->writer, __ATOMIC_RELAXED) == x);
    d->flush_pos = store__wal_pos(x);
    flush_rows(t, x, d);
    flush_deletes(t, x, d);
    pthread_rwlock_wrlock(&t->pk_lock);
    d->flushed = true;
    delta_unlink_table(d);
    pthread_rwlock_unlock(&t->pk_lock);
}

void store__delta_flush_all(StoreTxn *x)
{
    /* Tables in OID order: two commits that flush the same tables take
     * their write locks in the same order (no deadlock between them). */
    for (;;) {
        StoreDelta *next = NULL;
        for (StoreDelta *d = x->deltas; d; d = d->next_in_txn)
            if (!d->flushed && (!next || d->table->oid < next->table->oid))
                next = d;
        if (!next)
            return;
        store__txn_acquire_write_dml(x, next->table);
        store__delta_flush(next->table, x);
    }
}

void store__delta_rollback_to(StoreTxn *x, uint64_t wal_pos)
{
    for (StoreDelta *d = x->deltas; d; d = d->next_in_txn) {
        if (!d->flushed || d->flush_pos < wal_pos)
            continue;
        /* The flush's rows and records are gone with the savepoint (and
         * its write lock with them): the delta is x's again, its claimed
         * rows unlinked and unlogged until the next flush. */
        for (int i = 0; i < x->nundo; i++) {
            StoreUndo *u = &x->undo[i];
            if (u->kind == UNDO_DELETE && u->aux == d) {
                u->deferred = true;
                atomic_store(&store__group(d->table, u->from / STORE_GROUP_ROWS)->next[u->from % STORE_GROUP_ROWS], 0);
            }
        }
        free(d->moved);
        d->moved = NULL;
        d->nmoved = 0;
        d->flushed = false;
        pthread_rwlock_wrlock(&d->table->pk_lock);
        d->next_in_table = d->table->deltas;
        d->table->deltas = d;
        pthread_rwlock_unlock(&d->table->pk_lock);
    }
}

void store__delta_discard(StoreTxn *x)
{
    while (x->deltas) {
        StoreDelta *d = x->deltas;
        x->deltas = d->next_in_txn;
        store__table_free(d->shadow);
        free(d->moved);
        free(d);
    }
}

void store__delta_end(StoreTxn *x)
{
    while (x->deltas) {
        StoreDelta *d = x->deltas;
        x->deltas = d->next_in_txn;
        StoreTable *t = d->table;
        pthread_rwlock_wrlock(&t->pk_lock);
        if (!d->flushed)
            delta_unlink_table(d);
        if (t->data_freed || t->dropped)
            store__table_free(d->shadow);
        else
            shadow_put(t, d->shadow);
        pthread_rwlock_unlock(&t->pk_lock);
        free(d->moved);
        free(d);
    }
}
