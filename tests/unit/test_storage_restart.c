/*
 * test_storage_restart.c — fast restarts (storage/recovery_load.c and the
 * deferred primary-key index of storage/pkindex.c).
 *
 * Recovery builds whole row groups of a checkpoint run directly as cold
 * groups (key columns in memory, no array for the others, string columns
 * without NULLs not even decoded) and leaves the pk index to be built at
 * its first use. These tests check that what recovery builds is what the
 * live write path had built — every group's validity bitmap and zone map
 * (NULL count, min/max, NaN) identical, every value read back right — and
 * that the deferred index behaves as the eager one did: built by the first
 * point lookup or write (also when several sessions race to it), never by
 * a scan, correct after WAL replay of inserts/deletes/updates past the
 * checkpoint, after TRUNCATE, and for a key added by ADD PRIMARY KEY over
 * a deleted duplicate (where the old recovery, newest row wins, let a
 * duplicate in). Includes storage_int.h to look at zone maps and the index.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "restart"
#include "storage_fixture.h"

TestSuite(restart, .init = storage_setup, .fini = storage_teardown, .timeout = 180);

/* r(k bigint, name text, a integer, f double precision, s text, t text not
 * null, d smallint not null, c bigint not null), primary key (k, name).
 * Row k: name "n<k%3>", a = k % 1000 (NULL when k % 7 == 3), f = k / 8.0
 * (NaN when k % 13 == 0, -0 when k == 17), s = "s<k>" (NULL when
 * k % 5 == 1), t = "t<k>", d = k % 100 (+ bump), c = 42 below k = 100000
 * (one value in the first run group: filled from its zone map), else k. */
#define NCOLS 8
static const int PKEY[2] = {0, 1};

/* Calls that may raise, each in a frame of its own (ERR_TRY's setjmp
 * would otherwise make the caller's locals unsafe to keep). */
__attribute__((noinline)) static void append_ok(StoreTable *t, StoreTxn *x, const Batch *b)
{
    NO_ERROR(store_table_append(t, x, b));
}

__attribute__((noinline)) static void append_dup(StoreTable *t, StoreTxn *x, const Batch *b)
{
    EXPECT_ERROR("23505", store_table_append(t, x, b));
}

__attribute__((noinline)) static void checkpoint_ok(void)
{
    NO_ERROR(store_checkpoint());
}

__attribute__((noinline)) static bool lookup_key_ok(StoreTable *t, StoreTxn *x, const Value *key,
                                                    uint64_t *row)
{
    bool found = false;
    NO_ERROR(found = store_table_lookup_key(t, x, key, row));
    return found;
}

__attribute__((noinline)) static StoreWriteResult delete_ok(StoreTable *t, StoreTxn *x,
                                                            uint64_t row)
{
    StoreWriteResult w = STORE_WRITE_GONE;
    NO_ERROR(w = store_row_delete(t, x, row, NULL));
    return w;
}

static StoreTable *make_r(const char *name)
{
    StoreColumnDef cols[NCOLS] = {
        {"k", SQLTYPE(TYPE_INT8), false, NULL},   {"name", SQLTYPE(TYPE_TEXT), false, NULL},
        {"a", SQLTYPE(TYPE_INT4), false, NULL},   {"f", SQLTYPE(TYPE_FLOAT8), false, NULL},
        {"s", SQLTYPE(TYPE_TEXT), false, NULL},   {"t", SQLTYPE(TYPE_TEXT), true, NULL},
        {"d", SQLTYPE(TYPE_INT2), true, NULL},    {"c", SQLTYPE(TYPE_INT8), true, NULL},
    };
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, NCOLS, cols, 2, PKEY));
    return t;
}

static StrRef str_of(const char *fmt, int64_t k)
{
    char *s = mem_printf(arena, fmt, (long long)k);
    return (StrRef){s, (uint32_t)strlen(s)};
}

static void fill_row(Batch *b, uint32_t r, int64_t k, int bump)
{
    Value v = {.is_null = false};
    v.u.i64 = k;
    vec_set_value(&b->cols[0], r, &v);
    v.u.str = str_of("n%lld", k % 3);
    vec_set_value(&b->cols[1], r, &v);
    if (k % 7 == 3) {
        vec_set_null(&b->cols[2], r);
    } else {
        v.u.i32 = (int32_t)(k % 1000);
        vec_set_value(&b->cols[2], r, &v);
    }
    v.u.f64 = k % 13 == 0 ? NAN : k == 17 ? -0.0 : (double)k / 8.0;
    vec_set_value(&b->cols[3], r, &v);
    if (k % 5 == 1) {
        vec_set_null(&b->cols[4], r);
    } else {
        v.u.str = str_of("s%lld", k);
        vec_set_value(&b->cols[4], r, &v);
    }
    v.u.str = str_of("t%lld", k);
    vec_set_value(&b->cols[5], r, &v);
    v.u.i16 = (int16_t)(k % 100 + bump);
    vec_set_value(&b->cols[6], r, &v);
    v.u.i64 = k < 100000 ? 42 : k;
    vec_set_value(&b->cols[7], r, &v);
}

static Batch *r_batch(int64_t first, uint32_t n, int bump)
{
    SqlType types[NCOLS] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_INT4),
                            SQLTYPE(TYPE_FLOAT8), SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_TEXT),
                            SQLTYPE(TYPE_INT2), SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(arena, NCOLS, types);
    for (uint32_t r = 0; r < n; r++)
        fill_row(b, r, first + r, bump);
    b->count = n;
    return b;
}

/* Keys [first, first + n) in one transaction. */
static void load_r(StoreTable *t, int64_t first, uint32_t n)
{
    StoreTxn *x = store_txn_begin();
    for (uint32_t done = 0; done < n; done += 2000) {
        uint32_t m = n - done < 2000 ? n - done : 2000;
        append_ok(t, x, r_batch(first + done, m, 0));
        mem_arena_reset(arena);
    }
    store_txn_commit(x);
}

static void key_of(int64_t k, Value *key)
{
    key[0] = (Value){.is_null = false};
    key[0].u.i64 = k;
    key[1] = (Value){.is_null = false};
    key[1].u.str = str_of("n%lld", k % 3);
}

static bool lookup(StoreTable *t, StoreTxn *x, int64_t k, uint64_t *row)
{
    Value key[2];
    key_of(k, key);
    return lookup_key_ok(t, x, key, row);
}

/* Delete key k (committed, own transaction). */
static void delete_key(StoreTable *t, int64_t k)
{
    uint64_t row = 0;
    cr_assert(lookup(t, NULL, k, &row), "key %lld to delete", (long long)k);
    StoreTxn *x = store_txn_begin();
    cr_assert_eq(delete_ok(t, x, row), STORE_WRITE_OK);
    store_txn_commit(x);
}

/* Update key k's row: d gets bump (a new version at the end). */
static void bump_key(StoreTable *t, int64_t k, int bump)
{
    uint64_t row = 0, newest = 0;
    cr_assert(lookup(t, NULL, k, &row), "key %lld to update", (long long)k);
    StoreTxn *x = store_txn_begin();
    StoreWriteResult w = STORE_WRITE_GONE;
    NO_ERROR(w = store_row_update(t, x, row, r_batch(k, 1, bump), 0, &newest));
    cr_assert_eq(w, STORE_WRITE_OK);
    store_txn_commit(x);
}

static void insert_keys(StoreTable *t, int64_t first, uint32_t n)
{
    StoreTxn *x = store_txn_begin();
    append_ok(t, x, r_batch(first, n, 0));
    store_txn_commit(x);
}

static void insert_dup(StoreTable *t, int64_t k)
{
    StoreTxn *x = store_txn_begin();
    append_dup(t, x, r_batch(k, 1, 0));
    store_txn_rollback(x);
}

/* Check the visible row of key k: d = k % 100 + bump, the rest by formula. */
static void check_key(StoreTable *t, int64_t k, int bump)
{
    uint64_t row = 0;
    cr_assert(lookup(t, NULL, k, &row), "key %lld", (long long)k);
    SqlType types[NCOLS] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_INT4),
                            SQLTYPE(TYPE_FLOAT8), SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_TEXT),
                            SQLTYPE(TYPE_INT2), SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(arena, NCOLS, types);
    int cols[NCOLS] = {0, 1, 2, 3, 4, 5, 6, 7};
    bool ok = false;
    NO_ERROR(ok = store_row_fetch(t, NULL, row, NCOLS, cols, b));
    cr_assert(ok);
    cr_assert_eq(((const int64_t *)b->cols[0].data)[0], k);
    cr_assert_eq(((const int16_t *)b->cols[6].data)[0], (int16_t)(k % 100 + bump),
                 "d of key %lld", (long long)k);
    cr_assert_eq(vec_is_valid(&b->cols[4], 0), k % 5 != 1, "s NULL of key %lld", (long long)k);
}

/* ---- zone maps: what recovery builds equals what appends built ---- */

typedef struct ZoneCopy {
    uint32_t ndead;           /* the group's deleted rows */
    uint32_t null_count;
    bool has_value, has_nan;
    uint64_t min_bits, max_bits;
    uint64_t validity[VEC_VALIDITY_WORDS];
} ZoneCopy;

static ZoneCopy *zones_copy(const StoreTable *t, uint64_t *ngroups)
{
    *ngroups = t->ngroups;
    ZoneCopy *z = calloc((size_t)t->ngroups * NCOLS, sizeof *z);
    cr_assert_not_null(z);
    for (uint64_t g = 0; g < t->ngroups; g++) {
        const StoreRowGroup *grp = store__group(t, g);
        for (int c = 0; c < NCOLS; c++) {
            const StoreChunk *ch = &grp->chunks[c];
            ZoneCopy *o = &z[g * NCOLS + (uint64_t)c];
            o->null_count = atomic_load(&((StoreChunk *)ch)->zone.null_count);
            o->has_value = atomic_load(&((StoreChunk *)ch)->zone.has_value);
            o->has_nan = atomic_load(&((StoreChunk *)ch)->zone.has_nan);
            o->min_bits = atomic_load(&((StoreChunk *)ch)->zone.min_bits);
            o->max_bits = atomic_load(&((StoreChunk *)ch)->zone.max_bits);
            memcpy(o->validity, ch->validity, sizeof o->validity);
            o->ndead = atomic_load(&((StoreRowGroup *)grp)->ndead);
        }
    }
    return z;
}

/* Rows [0, rows): validity bits past the last row are not compared, nor
 * groups with deleted rows (a checkpoint writes a dead row's non-key
 * values as NULL, "VACUUM" in storage/README.md: recovery, old or new,
 * reads those). Returns the groups compared. */
static uint64_t zones_equal(const ZoneCopy *a, const ZoneCopy *b, uint64_t ngroups, uint64_t rows)
{
    uint64_t compared = 0;
    for (uint64_t g = 0; g < ngroups; g++) {
        if (a[g * NCOLS].ndead)
            continue;
        compared++;
        uint64_t in_group = rows - g * STORE_GROUP_ROWS;
        if (in_group > STORE_GROUP_ROWS)
            in_group = STORE_GROUP_ROWS;
        for (int c = 0; c < NCOLS; c++) {
            const ZoneCopy *x = &a[g * NCOLS + (uint64_t)c], *y = &b[g * NCOLS + (uint64_t)c];
            cr_assert_eq(x->null_count, y->null_count, "null count group %llu col %d",
                         (unsigned long long)g, c);
            cr_assert_eq(x->has_value, y->has_value, "has_value group %llu col %d",
                         (unsigned long long)g, c);
            cr_assert_eq(x->has_nan, y->has_nan, "has_nan group %llu col %d",
                         (unsigned long long)g, c);
            if (x->has_value) {
                cr_assert_eq(x->min_bits, y->min_bits, "min group %llu col %d",
                             (unsigned long long)g, c);
                cr_assert_eq(x->max_bits, y->max_bits, "max group %llu col %d",
                             (unsigned long long)g, c);
            }
            for (uint64_t i = 0; i < in_group; i++)
                cr_assert_eq(x->validity[i / 64] >> (i % 64) & 1, y->validity[i / 64] >> (i % 64) & 1,
                             "validity group %llu col %d row %llu", (unsigned long long)g, c,
                             (unsigned long long)i);
        }
    }
    return compared;
}

/* Scan every column; every visible row right; returns rows and sum of k. */
static uint64_t scan_check(StoreTable *t, int64_t *sum)
{
    int cols[NCOLS] = {0, 1, 2, 3, 4, 5, 6, 7};
    StoreTxn *x = store_txn_begin();
    StoreScan *s = store_scan_begin(t, x, NCOLS, cols, 0, NULL, arena);
    Batch b = {0};
    uint64_t n = 0;
    *sum = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t r = 0; r < b.count; r++) {
            int64_t k = ((const int64_t *)b.cols[0].data)[r];
            cr_assert_eq(vec_is_valid(&b.cols[2], r), k % 7 != 3, "a NULL of %lld", (long long)k);
            if (k % 7 != 3)
                cr_assert_eq(((const int32_t *)b.cols[2].data)[r], (int32_t)(k % 1000));
            double f = ((const double *)b.cols[3].data)[r];
            cr_assert(k % 13 == 0 ? isnan(f) : f == (double)k / 8.0 || k == 17, "f of %lld",
                      (long long)k);
            cr_assert_eq(vec_is_valid(&b.cols[4], r), k % 5 != 1, "s NULL of %lld", (long long)k);
            char want[32];
            if (k % 5 != 1) {
                StrRef sv = ((const StrRef *)b.cols[4].data)[r];
                snprintf(want, sizeof want, "s%lld", (long long)k);
                cr_assert(sv.len == strlen(want) && memcmp(sv.ptr, want, sv.len) == 0);
            }
            StrRef tv = ((const StrRef *)b.cols[5].data)[r];
            snprintf(want, sizeof want, "t%lld", (long long)k);
            cr_assert(tv.len == strlen(want) && memcmp(tv.ptr, want, tv.len) == 0);
            cr_assert_eq(((const int64_t *)b.cols[7].data)[r], k < 100000 ? 42 : k);
            StrRef nv = ((const StrRef *)b.cols[1].data)[r];
            snprintf(want, sizeof want, "n%lld", (long long)(k % 3));
            cr_assert(nv.len == strlen(want) && memcmp(nv.ptr, want, nv.len) == 0);
            *sum += k;
        }
        n += b.count;
    }
    store_scan_end(s);
    store_txn_commit(x);
    return n;
}

#define NROWS 151234u  /* 2 whole run groups of 64K, then a run group ending mid store group */

/* Validity bitmaps: a chunk without a NULL shares the read-only all-valid
 * one (chunk_slab.c); one with a NULL has its own. Columns a and s have a
 * NULL in every group, t and c none. */
static void check_validity_shared(const StoreTable *t, uint64_t rows)
{
    for (uint64_t g = 0; g < rows / STORE_GROUP_ROWS; g++) {
        const StoreRowGroup *grp = store__group(t, g);
        cr_assert(store__validity_shared(&grp->chunks[5]), "group %llu: t shares", (unsigned long long)g);
        cr_assert(store__validity_shared(&grp->chunks[7]), "group %llu: c shares", (unsigned long long)g);
        cr_assert(!store__validity_shared(&grp->chunks[2]), "group %llu: a owns", (unsigned long long)g);
        cr_assert(!store__validity_shared(&grp->chunks[4]), "group %llu: s owns", (unsigned long long)g);
    }
}

Test(restart, cold_groups_equal_what_appends_built)
{
    StoreTable *t = make_r("r");
    load_r(t, 0, NROWS);
    check_validity_shared(t, NROWS);
    /* Deleted rows (their values blanked in the run) only in the second run
     * group: the first one's column c holds one value. */
    for (int64_t k = 70000; k < 100000; k += 997)
        delete_key(t, k);
    bump_key(t, 70005, 7);
    checkpoint_ok();
    uint64_t rows = atomic_load(&t->nrows), ngroups = 0;
    ZoneCopy *before = zones_copy(t, &ngroups);
    restart();
    t = store_table_lookup("public", "r");
    cr_assert_not_null(t);
    cr_assert_eq(atomic_load(&t->nrows), rows);
    uint64_t ng2 = 0;
    ZoneCopy *after = zones_copy(t, &ng2);
    cr_assert_eq(ng2, ngroups);
    cr_assert_geq(zones_equal(before, after, ngroups, rows), 50);
    free(before);
    free(after);
    check_validity_shared(t, rows);
    /* Whole groups are cold from the start, keys too: their keys are in
     * the checkpoint's key runs (keyruns.c). */
    cr_assert_eq(t->pk.runs_end, rows);
    for (uint64_t g = 0; g < rows / STORE_GROUP_ROWS; g++) {
        const StoreRowGroup *grp = store__group(t, g);
        for (int c = 0; c < NCOLS; c++)
            cr_assert_null(grp->chunks[c].data, "group %llu column %d", (unsigned long long)g, c);
    }
    /* The index waits for its first use: a scan does not build it. The
     * checkpoint's rows are in its key runs (keyruns.c), none in the hash. */
    cr_assert(atomic_load(&t->pk.pending));
    cr_assert_eq(t->pk.count, 0);
    cr_assert_eq(t->pk.runs_end, rows);
    int64_t sum = 0;
    uint64_t n = scan_check(t, &sum);
    uint64_t ndel = 0;
    int64_t want = (int64_t)NROWS * (NROWS - 1) / 2;
    for (int64_t k = 70000; k < 100000; k += 997) {
        ndel++;
        want -= k;
    }
    cr_assert_eq(n, NROWS - ndel);
    cr_assert_eq(sum, want);
    cr_assert(atomic_load(&t->pk.pending));
    /* First point lookup builds it. */
    uint64_t row = 0;
    cr_assert(lookup(t, NULL, 1, &row));
    cr_assert_not(atomic_load(&t->pk.pending));
    cr_assert_eq(t->pk.count, 0, "the keys are in the checkpoint's key runs");
    cr_assert_not(lookup(t, NULL, 70997, &row));
    check_key(t, 70005, 7);
    check_key(t, 150001, 0);
    insert_dup(t, 42);
    insert_dup(t, NROWS - 1);
    insert_keys(t, 70997, 1);  /* its row was deleted: the key may come back */
    check_key(t, 70997, 0);
}

/* ---- several sessions reach the unbuilt index at once ---- */

static StoreTable *conc_table;
static pthread_barrier_t conc_start;

/* A lookup on a thread of its own: an error counts as not found. */
__attribute__((noinline)) static bool conc_lookup(const Value *key, uint64_t *row)
{
    volatile bool found = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        found = store_table_lookup_key(conc_table, NULL, key, row);
        err_pop(&jmp);
    } else {
        err_clear();
    }
    return found;
}

static void *conc_lookups(void *arg)
{
    int64_t from = (int64_t)(intptr_t)arg;
    MemArena *a = mem_arena_create("restart conc");
    pthread_barrier_wait(&conc_start);
    long missing = 0;
    for (int64_t k = from; k < from + 3000; k++) {
        Value key[2];
        key[0] = (Value){.is_null = false};
        key[0].u.i64 = k;
        char *s = mem_printf(a, "n%lld", (long long)(k % 3));
        key[1] = (Value){.is_null = false};
        key[1].u.str = (StrRef){s, (uint32_t)strlen(s)};
        uint64_t row = 0;
        if (!conc_lookup(key, &row) || row != (uint64_t)k)
            missing++;
    }
    mem_arena_destroy(a);
    return (void *)missing;
}

Test(restart, first_lookups_race_to_build_the_index)
{
    StoreTable *t = make_r("c");
    load_r(t, 0, 140000);
    checkpoint_ok();
    for (int round = 0; round < 3; round++) {
        restart();
        conc_table = store_table_lookup("public", "c");
        cr_assert(atomic_load(&conc_table->pk.pending));
        enum { NT = 4 };
        pthread_t th[NT];
        pthread_barrier_init(&conc_start, NULL, NT);
        for (int i = 0; i < NT; i++)
            pthread_create(&th[i], NULL, conc_lookups, (void *)(intptr_t)(i * 30000 + round));
        for (int i = 0; i < NT; i++) {
            void *missing = NULL;
            pthread_join(th[i], &missing);
            cr_assert_null(missing, "thread %d: %ld keys not found", i, (long)(intptr_t)missing);
        }
        pthread_barrier_destroy(&conc_start);
        cr_assert(!atomic_load(&conc_table->pk.pending));
        cr_assert_eq(conc_table->pk.count, 0, "every key is in the key runs");
        cr_assert_eq(conc_table->pk.runs_end, 140000);
    }
}

/* ---- WAL replay past the checkpoint ---- */

Test(restart, wal_after_checkpoint_replays_into_the_deferred_index)
{
    StoreTable *t = make_r("w");
    load_r(t, 0, 70000);
    checkpoint_ok();
    insert_keys(t, 70000, 2000);
    insert_keys(t, 72000, 2000);
    for (int64_t k = 100; k < 70000; k += 500)
        delete_key(t, k);            /* 140 keys */
    for (int64_t k = 100; k < 10000; k += 500)
        insert_keys(t, k, 1);        /* 20 of them back */
    for (int64_t k = 7; k < 74000; k += 1000)
        bump_key(t, k, 3);
    restart();                       /* no checkpoint: all of the above from the WAL */
    t = store_table_lookup("public", "w");
    cr_assert(atomic_load(&t->pk.pending));
    for (int round = 0; round < 2; round++) {
        uint64_t row = 0;
        for (int64_t k = 100; k < 70000; k += 500)
            cr_assert_eq(lookup(t, NULL, k, &row), k < 10000, "key %lld", (long long)k);
        for (int64_t k = 7; k < 74000; k += 1000)
            check_key(t, k, 3);
        check_key(t, 73999, 0);
        check_key(t, 600, 0);
        /* The hash holds the keys of rows since the checkpoint (the rest is
         * in its key runs): round 0, keys 70000..73999, the 20 inserted
         * again and the 70 other updated ones; round 1, none. */
        cr_assert_eq(t->pk.count, round == 0 ? 4090 : 0);
        insert_dup(t, 71234);
        insert_dup(t, 100);
        insert_dup(t, 7);
        if (round == 0) {
            insert_keys(t, 10100, 1);  /* deleted above, not back yet */
            delete_key(t, 10100);
            checkpoint_ok();
            restart();
            t = store_table_lookup("public", "w");
            cr_assert(atomic_load(&t->pk.pending));
        }
    }
}

/* ---- ADD PRIMARY KEY over a deleted duplicate ---- */

/* p(id integer, v text), no key: (1, 'old') live and (1, 'new') deleted,
 * then ADD PRIMARY KEY (id): the live row holds the key. Recovery used to
 * let the newest row (the deleted one) take the key, so a second id 1
 * went in after a restart. */
__attribute__((noinline)) static void add_pkey_ok(StoreTable *t)
{
    StoreTxn *x = store_txn_begin();
    int pk = 0;
    NO_ERROR(store_table_add_pkey(t, x, 1, &pk));
    store_txn_commit(x);
}

static StoreTable *make_p_with_dead_dup(void)
{
    StoreColumnDef cols[2] = {{"id", SQLTYPE(TYPE_INT4), false, NULL},
                              {"v", SQLTYPE(TYPE_TEXT), false, NULL}};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "p", 2, cols, 0, NULL));
    SqlType types[2] = {SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(arena, 2, types);
    for (uint32_t r = 0; r < 3; r++) {
        Value v = {.is_null = false};
        v.u.i32 = r == 2 ? 2 : 1;
        vec_set_value(&b->cols[0], r, &v);
        v.u.str = r == 0 ? (StrRef){"old", 3} : (StrRef){"new", 3};
        vec_set_value(&b->cols[1], r, &v);
    }
    b->count = 3;
    StoreTxn *x = store_txn_begin();
    append_ok(t, x, b);
    store_txn_commit(x);
    x = store_txn_begin();
    cr_assert_eq(delete_ok(t, x, 1), STORE_WRITE_OK);
    store_txn_commit(x);
    add_pkey_ok(t);
    return t;
}

static void check_p(void)
{
    StoreTable *t = store_table_lookup("public", "p");
    cr_assert_not_null(t);
    Value key = {.is_null = false};
    key.u.i32 = 1;
    uint64_t row = 9;
    cr_assert(lookup_key_ok(t, NULL, &key, &row));
    cr_assert_eq(row, 0, "id 1 is the live row 0, got %llu", (unsigned long long)row);
    SqlType types[2] = {SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(arena, 2, types);
    Value v = {.is_null = false};
    v.u.i32 = 1;
    vec_set_value(&b->cols[0], 0, &v);
    v.u.str = (StrRef){"dup", 3};
    vec_set_value(&b->cols[1], 0, &v);
    b->count = 1;
    StoreTxn *x = store_txn_begin();
    append_dup(t, x, b);
    store_txn_rollback(x);
}

Test(restart, add_primary_key_over_deleted_duplicate_replayed_from_wal)
{
    make_p_with_dead_dup();
    check_p();
    restart();
    check_p();
}

Test(restart, add_primary_key_over_deleted_duplicate_from_checkpoint)
{
    make_p_with_dead_dup();
    checkpoint_ok();
    restart();
    check_p();
    restart();
    checkpoint_ok();
    restart();
    check_p();
}

/* ---- TRUNCATE before the index was ever built ---- */

__attribute__((noinline)) static void truncate_ok(StoreTable *t, StoreTxn *x)
{
    NO_ERROR(store_table_truncate(t, x));
}

Test(restart, truncate_before_first_use)
{
    StoreTable *t = make_r("u");
    load_r(t, 0, 9000);
    checkpoint_ok();
    restart();
    t = store_table_lookup("public", "u");
    cr_assert(atomic_load(&t->pk.pending));
    StoreTxn *x = store_txn_begin();
    truncate_ok(t, x);
    append_ok(t, x, r_batch(5, 100, 1));  /* keys the old rows had */
    store_txn_commit(x);
    uint64_t row = 0;
    cr_assert_not(lookup(t, NULL, 4, &row));
    cr_assert_not(lookup(t, NULL, 105, &row));
    check_key(t, 5, 1);
    check_key(t, 104, 1);
    insert_dup(t, 50);
    restart();
    t = store_table_lookup("public", "u");
    check_key(t, 50, 1);
    cr_assert_not(lookup(t, NULL, 4, &row));
    insert_dup(t, 50);
    insert_keys(t, 4, 1);
    check_key(t, 4, 0);
}
