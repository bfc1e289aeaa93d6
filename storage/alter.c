/*
 * alter.c — ALTER TABLE ... ADD PRIMARY KEY and ADD COLUMN, transactional.
 *
 * Both take the table's write lock (no other writer until the transaction
 * ends), log a WAL record (none for a temporary table, wal.c) and leave an
 * undo entry.
 *
 * ADD PRIMARY KEY checks the live rows (23502 when a key column holds a
 * NULL, 23505 "could not create unique index" on a duplicate), builds the
 * hash index and marks the key columns NOT NULL; rollback drops the index
 * and restores the flags.
 *
 * ADD COLUMN never moves what concurrent readers use: a table's column
 * arrays and every row group's chunk descriptors have room for
 * STORE_ADD_COLUMN_ROOM more columns from the start; the new column's
 * chunk data is allocated per existing group and filled with the given
 * value (NULL when none) for the rows already there. Until commit the
 * column exists only for the altering transaction (store_table_ncols
 * answers ncols_committed to everyone else); rollback frees it again.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/error.h"

/* ---- ADD PRIMARY KEY ---- */

static void check_key_nulls(const StoreTable *t, int npkey, const int *pkey)
{
    uint64_t n = atomic_load(&t->nrows);
    for (uint64_t r = 0; r < n; r++) {
        if (atomic_load(store__xmax_of(t, r)) != 0)
            continue;
        const StoreRowGroup *g = store__group(t, r / STORE_GROUP_ROWS);
        uint32_t o = (uint32_t)(r % STORE_GROUP_ROWS);
        for (int k = 0; k < npkey; k++) {
            const StoreChunk *ch = &g->chunks[pkey[k]];
            if (!((__atomic_load_n(&ch->validity[o >> 6], __ATOMIC_RELAXED) >> (o & 63)) & 1)) {
                ErrorData *e = err_begin(ERRCODE_NOT_NULL_VIOLATION);
                err_message(e, "column \"%s\" of relation \"%s\" contains null values",
                            t->cols[pkey[k]].name, t->name);
                err_throw();
            }
        }
    }
}

/* Index build under pk_lock; on error the table has no key again. */
__attribute__((noinline)) static void pk_install(StoreTable *t, int npkey, const int *pkey)
{
    pthread_rwlock_wrlock(&t->pk_lock);
    for (int k = 0; k < npkey; k++)
        t->pkey[k] = pkey[k];
    __atomic_store_n(&t->npkey, npkey, __ATOMIC_RELEASE);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__pk_build(t);
        err_pop(&jmp);
    } else {
        __atomic_store_n(&t->npkey, 0, __ATOMIC_RELEASE);
        store__pk_free(&t->pk);
        pthread_rwlock_unlock(&t->pk_lock);
        err_rethrow();
    }
    pthread_rwlock_unlock(&t->pk_lock);
}

void store_table_add_pkey(StoreTable *t, StoreTxn *x, int npkey, const int *pkey)
{
    ERR_ASSERT(x != NULL && npkey > 0);
    store__txn_wait_alter(x, t);   /* ACCESS EXCLUSIVE to the end of x, as PostgreSQL */
    if (t->npkey > 0)
        err_raise(ERRCODE_INVALID_TABLE_DEFINITION,
                  "multiple primary keys for table \"%s\" are not allowed", t->name);
    for (int i = 0; i < npkey; i++) {
        ERR_ASSERT(pkey[i] >= 0 && pkey[i] < t->ncols);
        for (int j = 0; j < i; j++)
            if (pkey[i] == pkey[j])
                err_raise(ERRCODE_DUPLICATE_COLUMN,
                          "column \"%s\" appears twice in primary key constraint",
                          t->cols[pkey[i]].name);
    }
    check_key_nulls(t, npkey, pkey);
    bool *prev = store__calloc((size_t)t->ncols, sizeof *prev);
    store__undo_push(x, (StoreUndo){.kind = UNDO_ADD_PKEY, .table = t});
    x->nundo--;
    /* Key columns stay in memory (the index reads them): reload cold ones
     * first, with checkpoints' freezes held off (cold.c). */
    pthread_mutex_lock(&t->freeze_mu);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__run_thaw(t, npkey, pkey);
        pk_install(t, npkey, pkey);
        err_pop(&jmp);
    } else {
        pthread_mutex_unlock(&t->freeze_mu);
        free(prev);
        err_rethrow();
    }
    pthread_mutex_unlock(&t->freeze_mu);
    for (int c = 0; c < t->ncols; c++)
        prev[c] = t->cols[c].not_null;
    for (int k = 0; k < npkey; k++)
        t->cols[pkey[k]].not_null = true;
    t->pk_prev_not_null = prev;
    store__undo_push(x, (StoreUndo){.kind = UNDO_ADD_PKEY, .table = t});
    if (!store_g.replaying && !t->temp) {   /* temporary tables are never logged (wal.c) */
        uint32_t buf[2 + 1600];
        buf[0] = t->oid;
        buf[1] = (uint32_t)npkey;
        for (int k = 0; k < npkey; k++)
            buf[2 + k] = (uint32_t)pkey[k];
        store__wal_add(x, WAL_ADD_PKEY, buf, sizeof(uint32_t) * (size_t)(2 + npkey));
    }
    store__catalog_epoch_bump();   /* plans of t re-plan (store_catalog_epoch) */
}

void store__undo_add_pkey(StoreTable *t)
{
    store__catalog_epoch_bump();
    if (t->data_freed)
        return;
    pthread_rwlock_wrlock(&t->pk_lock);
    __atomic_store_n(&t->npkey, 0, __ATOMIC_RELEASE);
    store__pk_free(&t->pk);
    pthread_rwlock_unlock(&t->pk_lock);
    for (int c = 0; t->pk_prev_not_null && c < t->ncols; c++)
        t->cols[c].not_null = t->pk_prev_not_null[c];
    free(t->pk_prev_not_null);
    t->pk_prev_not_null = NULL;
}

void store__commit_add_pkey(StoreTable *t)
{
    free(t->pk_prev_not_null);
    t->pk_prev_not_null = NULL;
    store__catalog_epoch_bump();
}

/* ---- ADD COLUMN ---- */

/* Fill column c of rows [0, n) of group g with v (strings point at one heap copy). */
static void fill_chunk(StoreTable *t, StoreChunk *ch, int c, uint32_t n, const Value *v,
                       StrRef str)
{
    /* Validity: all NULL or all valid already (alloc_column). */
    atomic_init(&ch->zone.min_bits, 0);
    atomic_init(&ch->zone.max_bits, 0);
    atomic_init(&ch->zone.has_value, false);
    atomic_init(&ch->zone.has_nan, false);
    atomic_init(&ch->zone.null_count, 0);
    if (!v || v->is_null) {
        atomic_store(&ch->zone.null_count, n ? n : 1);  /* an upper bound stays correct */
        if (n == 0)
            atomic_store(&ch->zone.null_count, 0);
        return;
    }
    size_t w = t->width[c];
    for (uint32_t i = 0; i < n; i++) {
        if (t->phys[c] == PHYS_STR)
            ((StrRef *)ch->data)[i] = str;
        else
            memcpy((char *)ch->data + i * w, &v->u, w);
    }
    /* Rows past n (appended later) set their own bits; a NULL count of 0
     * with no min/max recorded is a valid, merely unhelpful, zone map. */
    if (t->phys[c] != PHYS_STR && t->phys[c] != PHYS_F32 && t->phys[c] != PHYS_F64 && n > 0) {
        int64_t x = 0;
        switch (t->phys[c]) {
        case PHYS_BOOL: x = v->u.b; break;
        case PHYS_I16: x = v->u.i16; break;
        case PHYS_I32: x = v->u.i32; break;
        case PHYS_I64: x = v->u.i64; break;
        default: break;
        }
        atomic_store(&ch->zone.min_bits, (uint64_t)x);
        atomic_store(&ch->zone.max_bits, (uint64_t)x);
        atomic_store(&ch->zone.has_value, true);
    } else if (n > 0) {
        atomic_store(&ch->zone.has_nan, true);  /* floats/strings: no range: never excluded */
        atomic_store(&ch->zone.min_bits, 0);
        atomic_store(&ch->zone.has_value, false);
    }
}

/* Allocate column c's chunk in every existing group (all or nothing): its
 * values, and its validity — the shared all-valid bitmap, or with a NULL
 * fill one of its own, all NULL. */
static void alloc_column(StoreTable *t, int c, bool null_fill)
{
    size_t bytes = t->width[c] * STORE_GROUP_ROWS;
    for (uint64_t g = 0; g < t->ngroups; g++) {
        StoreChunk *ch = &store__group(t, g)->chunks[c];
        void *p = store__chunk_alloc(t, c);
        uint64_t *v = null_fill ? calloc(VEC_VALIDITY_WORDS, sizeof *v) : (uint64_t *)store_all_valid;
        if (!p || !v) {
            store__chunk_free(p);
            if (null_fill)
                free(v);
            for (uint64_t k = 0; k < g; k++) {
                StoreChunk *done = &store__group(t, k)->chunks[c];
                store__chunk_free(done->data);
                done->data = NULL;
                store__chunk_validity_free(done);
            }
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        }
        memset(p, 0, bytes);
        ch->data = p;
        ch->validity = v;
    }
}

void store_table_add_column(StoreTable *t, StoreTxn *x, const StoreColumnDef *col,
                            const Value *fill)
{
    ERR_ASSERT(x != NULL);
    store__txn_wait_alter(x, t);   /* ACCESS EXCLUSIVE to the end of x, as PostgreSQL */
    if (store_table_column_index(t, col->name) >= 0)
        err_raise(ERRCODE_DUPLICATE_COLUMN, "column \"%s\" of relation \"%s\" already exists",
                  col->name, t->name);
    if (t->ncols >= t->cap_cols)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                  "table \"%s\" cannot take more columns without a rewrite", t->name);
    if (col->not_null && (!fill || fill->is_null) && atomic_load(&t->nrows) > 0)
        err_raise(ERRCODE_NOT_NULL_VIOLATION, "column \"%s\" of relation \"%s\" contains null values",
                  col->name, t->name);
    int c = t->ncols;
    store__undo_push(x, (StoreUndo){.kind = UNDO_ADD_COLUMN, .table = t, .from = (uint64_t)c});
    x->nundo--;
    StoreColumnDef def = *col;
    def.name = store__strdup(col->name);
    def.default_text = NULL;
    StrRef str = {"", 0};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (col->default_text)
            def.default_text = store__strdup(col->default_text);
        t->phys[c] = type_phys(col->type);
        t->width[c] = phys_size(t->phys[c]);
        if (fill && !fill->is_null && t->phys[c] == PHYS_STR && fill->u.str.len)
            str = (StrRef){store__heap_copy(&t->heap, fill->u.str.ptr, fill->u.str.len),
                           fill->u.str.len};
        alloc_column(t, c, !fill || fill->is_null);
        err_pop(&jmp);
    } else {
        free((char *)def.name);
        free((char *)def.default_text);
        err_rethrow();
    }
    uint64_t n = atomic_load(&t->nrows);
    for (uint64_t g = 0; g < t->ngroups; g++) {
        uint64_t rows = n > g * STORE_GROUP_ROWS ? n - g * STORE_GROUP_ROWS : 0;
        fill_chunk(t, &store__group(t, g)->chunks[c], c,
                   rows > STORE_GROUP_ROWS ? STORE_GROUP_ROWS : (uint32_t)rows, fill, str);
    }
    t->cols[c] = def;
    t->alter_txn = x;
    __atomic_store_n(&t->ncols, c + 1, __ATOMIC_RELEASE);
    store__undo_push(x, (StoreUndo){.kind = UNDO_ADD_COLUMN, .table = t, .from = (uint64_t)c});
    store__wal_add_column(x, t, c, fill);
    store__catalog_epoch_bump();
}

void store__undo_add_column(StoreTable *t, int old_ncols)
{
    store__catalog_epoch_bump();
    if (t->data_freed)
        return;
    int c = old_ncols;
    __atomic_store_n(&t->ncols, c, __ATOMIC_RELEASE);
    for (uint64_t g = 0; g < t->ngroups; g++) {
        StoreRowGroup *grp = store__group(t, g);
        if (grp->ncols_inline <= c) {
            store__chunk_free(grp->chunks[c].data);
            grp->chunks[c].data = NULL;
        }
        store__chunk_validity_free(&grp->chunks[c]);
    }
    free((char *)t->cols[c].name);
    free((char *)t->cols[c].default_text);
    memset(&t->cols[c], 0, sizeof t->cols[c]);
    t->alter_txn = NULL;  /* the fill string stays in the heap until an older mark resets it */
}

void store__commit_add_column(StoreTable *t)
{
    t->ncols_committed = t->ncols;
    t->alter_txn = NULL;
    store__catalog_epoch_bump();
}
