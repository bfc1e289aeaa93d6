/*
 * test_storage.c — unit tests of storage/: catalog, appends and scans,
 * zone maps, constraints, transactions, concurrency, the data directory
 * lock and roles persistence.
 *
 * Criterion runs every test in its own process, so each test opens a fresh
 * store on its own temporary data directory.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "common/numeric.h"
#include "common/vector.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "storage"
#include "storage_fixture.h"

TestSuite(storage, .init = storage_setup, .fini = storage_teardown, .timeout = 60);



/* t(id bigint primary key, name text, qty integer) */
static StoreTable *make_items(const char *name)
{
    StoreColumnDef cols[] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"name", SQLTYPE(TYPE_TEXT), false, NULL},
        {"qty", SQLTYPE(TYPE_INT4), false, "0"},
    };
    int pk[] = {0};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, 3, cols, 1, pk));
    return t;
}

/* A batch of rows id = first..first+n-1, name "item<id>", qty = id % 7 or
 * NULL when id % 10 == 0. */
static Batch *items_batch_in(MemArena *ar, int64_t first, uint32_t n)
{
    SqlType types[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_INT4)};
    Batch *b = batch_create(ar, 3, types);
    for (uint32_t i = 0; i < n; i++) {
        int64_t id = first + i;
        Value v = {.is_null = false};
        v.u.i64 = id;
        vec_set_value(&b->cols[0], i, &v);
        char *s = mem_printf(ar, "item%lld", (long long)id);
        v.u.str = (StrRef){s, (uint32_t)strlen(s)};
        vec_set_value(&b->cols[1], i, &v);
        if (id % 10 == 0) {
            vec_set_null(&b->cols[2], i);
        } else {
            v.u.i32 = (int32_t)(id % 7);
            vec_set_value(&b->cols[2], i, &v);
        }
    }
    b->count = n;
    return b;
}

static Batch *items_batch(int64_t first, uint32_t n)
{
    return items_batch_in(arena, first, n);
}

/* Append rows first..first+n-1 in txn, failing the test on an error. */
static void append_ok(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n)
{
    NO_ERROR(store_table_append(t, x, items_batch(first, n)));
}

static void append_committed(StoreTable *t, int64_t first, uint32_t n)
{
    StoreTxn *x = store_txn_begin();
    for (uint32_t done = 0; done < n;) {
        uint32_t k = n - done < 1000 ? n - done : 1000;
        append_ok(t, x, first + done, k);
        done += k;
    }
    store_txn_commit(x);
}

/* Count rows and sum column 0 (bigint) of a scan over cols {0}. */
static uint64_t scan_count(StoreTable *t, StoreTxn *x, int64_t *sum)
{
    int cols[] = {0};
    StoreScan *s = store_scan_begin(t, x, 1, cols, 0, NULL, arena);
    Batch out = {0};
    uint64_t n = 0;
    int64_t total = 0;
    while (store_scan_next(s, &out)) {
        const int64_t *d = out.cols[0].data;
        for (uint32_t i = 0; i < out.count; i++)
            total += d[i];
        n += out.count;
    }
    store_scan_end(s);
    if (sum)
        *sum = total;
    return n;
}

/* ---- catalog ---- */

Test(storage, catalog_create_lookup_drop)
{
    cr_assert(store_schema_exists("public"));
    cr_assert(store_schema_exists("pg_catalog"));
    cr_assert_not(store_schema_exists("nope"));
    StoreTable *a = make_items("a");
    StoreTable *b = make_items("b");
    cr_assert_geq(store_table_oid(a), 16384);
    cr_assert_eq(store_table_oid(b), store_table_oid(a) + 1);
    cr_assert_eq(store_table_lookup("public", "a"), a);
    cr_assert_eq(store_table_lookup_oid(store_table_oid(b)), b);
    cr_assert_null(store_table_lookup("public", "A"));
    cr_assert_null(store_table_lookup("pg_catalog", "a"));
    cr_assert_str_eq(store_table_name(a), "a");
    cr_assert_str_eq(store_table_schema(a), "public");
    cr_assert_eq(store_table_ncols(a), 3);
    cr_assert_eq(store_table_column_index(a, "qty"), 2);
    cr_assert_eq(store_table_column_index(a, "zzz"), -1);
    cr_assert_str_eq(store_table_column(a, 2)->default_text, "0");
    cr_assert(store_table_column(a, 0)->not_null, "PRIMARY KEY implies NOT NULL");
    cr_assert_not(store_table_column(a, 1)->not_null);
    cr_assert_eq(store_table_npkey(a), 1);
    cr_assert_eq(store_table_pkey(a)[0], 0);

    StoreColumnDef dup[] = {{"x", SQLTYPE(TYPE_INT4), false, NULL}, {"x", SQLTYPE(TYPE_TEXT), false, NULL}};
    EXPECT_ERROR_MSG("42701", "column \"x\" specified more than once",
                 store_table_create("public", "d", 2, dup, 0, NULL));
    EXPECT_ERROR_MSG("42P07", "relation \"a\" already exists",
                 store_table_create("public", "a", 1, dup, 0, NULL));
    EXPECT_ERROR_MSG("3F000", "schema \"nope\" does not exist",
                 store_table_create("nope", "d", 1, dup, 0, NULL));

    NO_ERROR(store_table_drop("public", "a"));
    cr_assert_null(store_table_lookup("public", "a"));
    cr_assert(store_table_is_dropped(a));
    cr_assert_str_eq(store_table_name(a), "a", "a dropped table's header stays readable");
    EXPECT_ERROR_MSG("42P01", "table \"a\" does not exist", store_table_drop("public", "a"));
    /* A stale pointer to a dropped table gets an error, not freed memory. */
    int cols[] = {0};
    EXPECT_ERROR_MSG("42P01", "relation \"a\" does not exist",
                 store_scan_begin(a, NULL, 1, cols, 0, NULL, arena));
    StoreTable *a2 = make_items("a");
    cr_assert_gt(store_table_oid(a2), store_table_oid(b));
}

/* ---- appends and scans ---- */

Test(storage, append_scan_multichunk_nulls_strings)
{
    StoreTable *t = make_items("t");
    append_committed(t, 0, 5000);
    cr_assert_eq(store_table_row_count(t, NULL), 5000);

    int cols[] = {2, 1, 0};  /* any order, any subset */
    StoreScan *s = store_scan_begin(t, NULL, 3, cols, 0, NULL, arena);
    Batch out = {0};
    int64_t next = 0;
    int batches = 0;
    while (store_scan_next(s, &out)) {
        cr_assert_eq(out.ncols, 3);
        cr_assert_null(out.sel);
        cr_assert_eq(out.count, batches < 2 ? 2048u : 5000u - 4096u);
        const int32_t *qty = out.cols[0].data;
        const StrRef *name = out.cols[1].data;
        const int64_t *id = out.cols[2].data;
        cr_assert_eq(out.cols[1].type.oid, TYPE_TEXT);
        for (uint32_t i = 0; i < out.count; i++, next++) {
            cr_assert_eq(id[i], next);
            char expect[32];
            snprintf(expect, sizeof expect, "item%lld", (long long)next);
            cr_assert_eq(name[i].len, strlen(expect));
            cr_assert(memcmp(name[i].ptr, expect, name[i].len) == 0);
            cr_assert(vec_is_valid(&out.cols[1], i));
            if (next % 10 == 0) {
                cr_assert_not(vec_is_valid(&out.cols[0], i), "row %lld qty should be NULL", (long long)next);
            } else {
                cr_assert(vec_is_valid(&out.cols[0], i));
                cr_assert_eq(qty[i], next % 7);
            }
        }
        batches++;
    }
    store_scan_end(s);
    cr_assert_eq(batches, 3);
    cr_assert_eq(next, 5000);
}

Test(storage, strings_are_copied_and_selection_respected)
{
    StoreTable *t = make_items("t");
    Batch *b = items_batch(0, 10);
    uint16_t sel[] = {1, 3, 5};
    b->sel = sel;
    b->count = 3;
    NO_ERROR(store_table_append(t, NULL, b));  /* no txn: committed at once */
    /* Overwrite the source strings: the table must own copies. */
    for (int i = 0; i < 10; i++)
        memset((char *)((StrRef *)b->cols[1].data)[i].ptr, 'X', 5);
    int cols[] = {0, 1};
    StoreScan *s = store_scan_begin(t, NULL, 2, cols, 0, NULL, arena);
    Batch out = {0};
    cr_assert(store_scan_next(s, &out));
    cr_assert_eq(out.count, 3);
    const int64_t *id = out.cols[0].data;
    const StrRef *name = out.cols[1].data;
    cr_assert_eq(id[0], 1);
    cr_assert_eq(id[2], 5);
    cr_assert(name[1].len == 5 && memcmp(name[1].ptr, "item3", 5) == 0);
    cr_assert_not(store_scan_next(s, &out));
    store_scan_end(s);
}

/* ---- zone maps ---- */

static uint64_t scan_filtered(StoreTable *t, int col, StoreCmp cmp, Value v, uint64_t *skipped)
{
    int cols[] = {col};
    StoreZoneFilter f = {0, cmp, v};
    StoreScan *s = store_scan_begin(t, NULL, 1, cols, 1, &f, arena);
    Batch out = {0};
    uint64_t rows = 0;
    while (store_scan_next(s, &out))
        rows += out.count;
    *skipped = store_scan_groups_skipped(s);
    store_scan_end(s);
    return rows;
}

Test(storage, zone_maps_skip_chunks)
{
    StoreTable *t = make_items("t");
    append_committed(t, 0, 10000);  /* groups: [0,2048) [2048,4096) ... [8192,10000) */
    Value v = {.is_null = false};
    uint64_t skipped;

    v.u.i64 = 8000;
    cr_assert_eq(scan_filtered(t, 0, STORE_GT, v, &skipped), 2048 + 1808);
    cr_assert_eq(skipped, 3);
    v.u.i64 = 5000;
    cr_assert_eq(scan_filtered(t, 0, STORE_EQ, v, &skipped), 2048);
    cr_assert_eq(skipped, 4);
    v.u.i64 = 2048;
    cr_assert_eq(scan_filtered(t, 0, STORE_LT, v, &skipped), 2048);
    cr_assert_eq(skipped, 4);
    cr_assert_eq(scan_filtered(t, 0, STORE_LE, v, &skipped), 4096);
    cr_assert_eq(skipped, 3);
    v.u.i64 = 8191;
    cr_assert_eq(scan_filtered(t, 0, STORE_GE, v, &skipped), 2048 + 1808);
    cr_assert_eq(skipped, 3);
    v.u.i64 = -1;
    cr_assert_eq(scan_filtered(t, 0, STORE_LT, v, &skipped), 0);
    cr_assert_eq(skipped, 5);
    /* qty (integer) holds 0..6 and NULLs in every group. */
    v.u.i32 = 7;
    cr_assert_eq(scan_filtered(t, 2, STORE_GE, v, &skipped), 0);
    cr_assert_eq(skipped, 5);
    cr_assert_eq(scan_filtered(t, 2, STORE_IS_NULL, v, &skipped), 10000);
    cr_assert_eq(skipped, 0);
    /* id has no NULLs: IS NULL skips everything. Strings: never skipped. */
    cr_assert_eq(scan_filtered(t, 0, STORE_IS_NULL, v, &skipped), 0);
    cr_assert_eq(skipped, 5);
    v.u.str = (StrRef){"zzz", 3};
    cr_assert_eq(scan_filtered(t, 1, STORE_EQ, v, &skipped), 10000);
    cr_assert_eq(skipped, 0);
}

Test(storage, zone_maps_floats_and_nan)
{
    StoreColumnDef cols[] = {{"f", SQLTYPE(TYPE_FLOAT8), false, NULL}};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "f", 1, cols, 0, NULL));
    SqlType ty = SQLTYPE(TYPE_FLOAT8);
    Batch *b = batch_create(arena, 1, &ty);
    for (int i = 0; i < 2048; i++)
        ((double *)b->cols[0].data)[i] = i * 0.5;           /* group 0: 0 .. 1023.5 */
    b->count = 2048;
    NO_ERROR(store_table_append(t, NULL, b));
    for (int i = 0; i < 2048; i++)
        ((double *)b->cols[0].data)[i] = i == 7 ? (double)NAN : -1.0 - i;  /* group 1: NaN and negatives */
    NO_ERROR(store_table_append(t, NULL, b));
    Value v = {.is_null = false};
    uint64_t skipped;
    v.u.f64 = 2000.0;
    cr_assert_eq(scan_filtered(t, 0, STORE_GT, v, &skipped), 2048, "NaN > 2000: group 1 stays");
    cr_assert_eq(skipped, 1);
    cr_assert_eq(scan_filtered(t, 0, STORE_EQ, v, &skipped), 0);
    cr_assert_eq(skipped, 2);
    v.u.f64 = -0.5;
    cr_assert_eq(scan_filtered(t, 0, STORE_LT, v, &skipped), 2048);
    cr_assert_eq(skipped, 1);
    v.u.f64 = NAN;
    cr_assert_eq(scan_filtered(t, 0, STORE_EQ, v, &skipped), 4096);
    cr_assert_eq(skipped, 0);
}

/* ---- constraints ---- */

Test(storage, not_null_violation)
{
    StoreColumnDef cols[] = {
        {"a", SQLTYPE(TYPE_INT4), false, NULL},
        {"b", SQLTYPE(TYPE_INT4), true, NULL},
        {"c", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "t", 3, cols, 0, NULL));
    SqlType types[] = {SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(arena, 3, types);
    Value v = {.is_null = false};
    for (int i = 0; i < 3; i++) {
        v.u.i32 = i + 1;
        vec_set_value(&b->cols[0], (uint32_t)i, &v);
        vec_set_value(&b->cols[1], (uint32_t)i, &v);
        v.u.str = (StrRef){"abc", 3};
        vec_set_value(&b->cols[2], (uint32_t)i, &v);
    }
    vec_set_null(&b->cols[1], 1);
    vec_set_null(&b->cols[2], 1);
    b->count = 3;
    StoreTxn *x = store_txn_begin();
    EXPECT_ERROR_MSG("23502", "null value in column \"b\" of relation \"t\" violates not-null constraint",
                 store_table_append(t, x, b));
    cr_assert_str_eq(last_err.detail, "Failing row contains (2, null, null).");
    cr_assert_str_eq(last_err.column_name, "b");
    cr_assert_str_eq(last_err.table_name, "t");
    cr_assert_eq(store_table_row_count(t, x), 0, "a failing batch appends nothing");
    store_txn_rollback(x);
    /* Long values are cut at 64 bytes in the detail, as PostgreSQL does. */
    char longs[100];
    memset(longs, 'y', sizeof longs);
    v.u.str = (StrRef){longs, 100};
    vec_set_value(&b->cols[2], 1, &v);
    EXPECT_ERROR_MSG("23502", "null value in column \"b\" of relation \"t\" violates not-null constraint",
                 store_table_append(t, NULL, b));
    cr_assert_str_eq(last_err.detail, "Failing row contains (2, null, "
                     "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...).");
    cr_assert_eq(store_table_row_count(t, NULL), 0);
}

Test(storage, primary_key_violations)
{
    StoreTable *t = make_items("items");
    append_committed(t, 1, 100);
    Batch *b = items_batch(100, 1);
    EXPECT_ERROR_MSG("23505", "duplicate key value violates unique constraint \"items_pkey\"",
                 store_table_append(t, NULL, b));
    cr_assert_str_eq(last_err.detail, "Key (id)=(100) already exists.");
    cr_assert_str_eq(last_err.constraint_name, "items_pkey");

    /* Duplicate inside one batch: rows 500, 501, 500. */
    b = items_batch(500, 3);
    ((int64_t *)b->cols[0].data)[2] = 500;
    EXPECT_ERROR_MSG("23505", "duplicate key value violates unique constraint \"items_pkey\"",
                 store_table_append(t, NULL, b));
    cr_assert_str_eq(last_err.detail, "Key (id)=(500) already exists.");
    /* The failed batch left no key behind. */
    NO_ERROR(store_table_append(t, NULL, items_batch(500, 2)));
    cr_assert_eq(store_table_row_count(t, NULL), 102);

    /* The first failing row decides: a duplicate before a NULL key... */
    b = items_batch(1, 2);
    vec_set_null(&b->cols[0], 1);
    EXPECT_ERROR_MSG("23505", "duplicate key value violates unique constraint \"items_pkey\"",
                 store_table_append(t, NULL, b));
    /* ...a NULL key before a duplicate. */
    b = items_batch(1000, 2);
    vec_set_null(&b->cols[0], 0);
    ((int64_t *)b->cols[0].data)[1] = 1;
    EXPECT_ERROR_MSG("23502", "null value in column \"id\" of relation \"items\" violates not-null constraint",
                 store_table_append(t, NULL, b));
    cr_assert_str_eq(last_err.detail, "Failing row contains (null, item1000, null).");
    cr_assert_eq(store_table_row_count(t, NULL), 102);
}

Test(storage, composite_text_key)
{
    StoreColumnDef cols[] = {
        {"k", SQLTYPE(TYPE_TEXT), false, NULL},
        {"Part", SQLTYPE(TYPE_INT2), false, NULL},
    };
    int pk[] = {1, 0};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "c", 2, cols, 2, pk));
    SqlType types[] = {SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_INT2)};
    Batch *b = batch_create(arena, 2, types);
    for (int i = 0; i < 4; i++) {
        Value v = {.is_null = false};
        v.u.str = (StrRef){i % 2 ? "x" : "y", 1};
        vec_set_value(&b->cols[0], (uint32_t)i, &v);
        v.u.i16 = (int16_t)(i / 2);
        vec_set_value(&b->cols[1], (uint32_t)i, &v);
    }
    b->count = 4;  /* (y,0) (x,0) (y,1) (x,1): all distinct */
    NO_ERROR(store_table_append(t, NULL, b));
    b->count = 2;
    EXPECT_ERROR_MSG("23505", "duplicate key value violates unique constraint \"c_pkey\"",
                 store_table_append(t, NULL, b));
    cr_assert_str_eq(last_err.detail, "Key (\"Part\", k)=(0, y) already exists.");
}

static StrRef numeric_text(const char *text)
{
    StrRef r = {0};
    NO_ERROR(r = numeric_in(text, strlen(text), -1, arena));
    return r;
}

Test(storage, numeric_and_float_keys_compare_by_value)
{
    StoreColumnDef cols[] = {{"n", SQLTYPE(TYPE_NUMERIC), false, NULL},
                             {"x", SQLTYPE(TYPE_FLOAT8), false, NULL}};
    int pk_n[] = {0}, pk_x[] = {1};
    StoreTable *tn = NULL, *tx = NULL;
    NO_ERROR(tn = store_table_create("public", "tn", 2, cols, 1, pk_n));
    NO_ERROR(tx = store_table_create("public", "tx", 2, cols, 1, pk_x));
    SqlType types[] = {SQLTYPE(TYPE_NUMERIC), SQLTYPE(TYPE_FLOAT8)};
    Batch *b = batch_create(arena, 2, types);
    const char *nums[] = {"1.0", "2", "1.00"};
    const double xs[] = {0.0, NAN, -0.0};
    for (uint32_t i = 0; i < 3; i++) {
        Value v = {.is_null = false};
        v.u.str = numeric_text(nums[i]);
        vec_set_value(&b->cols[0], i, &v);
        v.u.f64 = xs[i];
        vec_set_value(&b->cols[1], i, &v);
    }
    b->count = 3;
    EXPECT_ERROR_MSG("23505", "duplicate key value violates unique constraint \"tn_pkey\"",
                 store_table_append(tn, NULL, b));
    cr_assert_str_eq(last_err.detail, "Key (n)=(1.00) already exists.");
    EXPECT_ERROR_MSG("23505", "duplicate key value violates unique constraint \"tx_pkey\"",
                 store_table_append(tx, NULL, b));
    cr_assert_str_eq(last_err.detail, "Key (x)=(-0) already exists.");
    b->count = 2;
    NO_ERROR(store_table_append(tx, NULL, b));
    ((double *)b->cols[1].data)[0] = NAN;
    b->count = 1;
    EXPECT_ERROR_MSG("23505", "duplicate key value violates unique constraint \"tx_pkey\"",
                 store_table_append(tx, NULL, b));
    cr_assert_str_eq(last_err.detail, "Key (x)=(NaN) already exists.");
}

/* ---- transactions ---- */

Test(storage, visibility_commit_rollback)
{
    StoreTable *t = make_items("t");
    append_committed(t, 0, 10);
    StoreTxn *w = store_txn_begin();
    StoreTxn *r = store_txn_begin();
    append_ok(t, w, 10, 2000);
    append_ok(t, w, 2010, 1000);
    cr_assert_eq(scan_count(t, w, NULL), 3010, "a writer sees its own rows");
    cr_assert_eq(scan_count(t, r, NULL), 10, "others see the committed rows only");
    cr_assert_eq(scan_count(t, NULL, NULL), 10);
    cr_assert_eq(store_table_row_count(t, w), 3010);
    cr_assert_eq(store_table_row_count(t, r), 10);
    store_txn_rollback(w);
    cr_assert_eq(scan_count(t, r, NULL), 10);
    /* Rolled-back keys are gone from the index: the same ids insert again. */
    w = store_txn_begin();
    NO_ERROR(store_table_append(t, w, items_batch(10, 5)));
    store_txn_commit(w);
    int64_t sum;
    cr_assert_eq(scan_count(t, r, &sum), 15, "a new scan sees the new commit");
    cr_assert_eq(sum, 14 * 15 / 2);
    /* Strings written after a rollback are intact. */
    int cols[] = {1};
    StoreScan *s = store_scan_begin(t, r, 1, cols, 0, NULL, arena);
    Batch out = {0};
    cr_assert(store_scan_next(s, &out));
    const StrRef *name = out.cols[0].data;
    cr_assert(name[14].len == 6 && memcmp(name[14].ptr, "item14", 6) == 0);
    store_scan_end(s);
    store_txn_commit(r);
}

Test(storage, scan_snapshot_is_fixed_at_begin)
{
    StoreTable *t = make_items("t");
    append_committed(t, 0, 100);
    int cols[] = {0};
    StoreScan *s = store_scan_begin(t, NULL, 1, cols, 0, NULL, arena);
    append_committed(t, 100, 100);
    Batch out = {0};
    cr_assert(store_scan_next(s, &out));
    cr_assert_eq(out.count, 100);
    store_scan_end(s);
    cr_assert_eq(scan_count(t, NULL, NULL), 200);
}

typedef struct WaitArg {
    StoreTable *t;
    StoreTable *t2;
    _Atomic int stage;
    char sqlstate[6];
    MemArena *arena;  /* the thread's own: arenas have one owner */
    int64_t key;      /* second_writer's */
} WaitArg;

static void *second_writer(void *p)
{
    WaitArg *a = p;
    StoreTxn *x = store_txn_begin();
    Batch *b = items_batch_in(a->arena, a->key, 1);
    atomic_store(&a->stage, 1);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_table_append(a->t, x, b);  /* a key the first writer has: waits for it */
        err_pop(&jmp);
        atomic_store(&a->stage, 2);
        store_txn_commit(x);
    } else {
        snprintf(a->sqlstate, sizeof a->sqlstate, "%s", err_current()->sqlstate);
        store_txn_rollback(x);
        atomic_store(&a->stage, 3);
    }
    return NULL;
}

Test(storage, second_writer_of_a_key_waits_for_commit)
{
    StoreTable *t = make_items("t");
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_append(t, x, items_batch(0, 10)));
    /* Another key: no wait (row-level writes, delta.c). */
    WaitArg o = {.t = t, .key = 1000, .arena = mem_arena_create("writer")};
    pthread_t th;
    pthread_create(&th, NULL, second_writer, &o);
    pthread_join(th, NULL);
    cr_assert_eq(atomic_load(&o.stage), 2, "a writer of other keys goes on (%s)", o.sqlstate);
    /* A key x inserted: waits for x, then finds it taken. */
    WaitArg a = {.t = t, .key = 5, .arena = mem_arena_create("writer")};
    pthread_create(&th, NULL, second_writer, &a);
    while (atomic_load(&a.stage) < 1)
        usleep(1000);
    usleep(200 * 1000);
    cr_assert_eq(atomic_load(&a.stage), 1, "the second writer of key 5 must wait");
    cr_assert_eq(scan_count(t, NULL, NULL), 1, "readers never block and see nothing uncommitted");
    store_txn_commit(x);
    pthread_join(th, NULL);
    cr_assert_eq(atomic_load(&a.stage), 3);
    cr_assert_str_eq(a.sqlstate, "23505");
    cr_assert_eq(scan_count(t, NULL, NULL), 11);
    mem_arena_destroy(a.arena);
    mem_arena_destroy(o.arena);
}

static void *crossing_writer(void *p)
{
    WaitArg *a = p;
    StoreTxn *x = store_txn_begin();
    Batch *b1 = items_batch_in(a->arena, 0, 1);
    Batch *b2 = items_batch_in(a->arena, 0, 1);  /* the key the main thread has in t */
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_table_append(a->t2, x, b1);
        atomic_store(&a->stage, 1);
        while (atomic_load(&a->stage) < 2)
            usleep(1000);
        store_table_append(a->t, x, b2);
        err_pop(&jmp);
        atomic_store(&a->stage, 4);
        store_txn_commit(x);
    } else {
        snprintf(a->sqlstate, sizeof a->sqlstate, "%s", err_current()->sqlstate);
        store_txn_rollback(x);
        atomic_store(&a->stage, 3);
    }
    return NULL;
}

Test(storage, deadlock_detected)
{
    StoreTable *t1 = make_items("t1");
    StoreTable *t2 = make_items("t2");
    WaitArg a = {.t = t1, .t2 = t2, .arena = mem_arena_create("writer")};
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_append(t1, x, items_batch(0, 1)));
    pthread_t th;
    pthread_create(&th, NULL, crossing_writer, &a);
    while (atomic_load(&a.stage) < 1)
        usleep(1000);
    atomic_store(&a.stage, 2);  /* the thread now waits for key 0 of t1 (ours) */
    usleep(100 * 1000);
    /* We wait for key 0 of t2 (theirs): one of the two must get 40P01. */
    ErrJmp jmp;
    volatile bool we_failed = false;
    if (ERR_TRY(jmp)) {
        store_table_append(t2, x, items_batch(0, 1));
        err_pop(&jmp);
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "40P01");
        cr_assert_str_eq(err_current()->message, "deadlock detected");
        we_failed = true;
    }
    if (we_failed)
        store_txn_rollback(x);
    else
        store_txn_commit(x);
    pthread_join(th, NULL);
    if (!we_failed)
        cr_assert_str_eq(a.sqlstate, "40P01");
    cr_assert(we_failed != (atomic_load(&a.stage) == 3));
    mem_arena_destroy(a.arena);
}

/* ---- concurrency ---- */

typedef struct RaceArg {
    StoreTable *t;
    _Atomic bool done;
    _Atomic uint64_t scans;
    _Atomic bool bad;
} RaceArg;

static void *race_reader(void *p)
{
    RaceArg *a = p;
    MemArena *ar = mem_arena_create("reader");
    uint64_t last = 0;
    ErrJmp jmp;
    if (!ERR_TRY(jmp)) {
        a->bad = true;
        mem_arena_destroy(ar);
        return NULL;
    }
    while (!atomic_load(&a->done)) {
        StoreTxn *x = store_txn_begin();
        int cols[] = {0, 1, 2};
        StoreScan *s = store_scan_begin(a->t, x, 3, cols, 0, NULL, ar);
        Batch out = {0};
        int64_t expect = 0;
        while (store_scan_next(s, &out)) {
            const int64_t *id = out.cols[0].data;
            const StrRef *name = out.cols[1].data;
            for (uint32_t i = 0; i < out.count; i++, expect++) {
                char buf[32];
                int len = snprintf(buf, sizeof buf, "item%lld", (long long)expect);
                bool null_ok = vec_is_valid(&out.cols[2], i) == (expect % 10 != 0);
                if (id[i] != expect || name[i].len != (uint32_t)len ||
                    memcmp(name[i].ptr, buf, (size_t)len) != 0 || !null_ok)
                    a->bad = true;
            }
        }
        store_scan_end(s);
        store_txn_commit(x);
        if ((uint64_t)expect < last || expect % 100 != 0)
            a->bad = true;  /* counts only grow, by whole transactions */
        last = (uint64_t)expect;
        atomic_fetch_add(&a->scans, 1);
        mem_arena_reset(ar);
    }
    err_pop(&jmp);
    mem_arena_destroy(ar);
    return NULL;
}

Test(storage, concurrent_readers_and_writer)
{
    RaceArg a = {.t = make_items("t")};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, race_reader, &a);
    for (int i = 0; i < 300; i++) {
        StoreTxn *x = store_txn_begin();
        append_ok(a.t, x, i * 100, 100);
        if (i % 3 == 2) {  /* some transactions roll back and are redone */
            store_txn_rollback(x);
            x = store_txn_begin();
            append_ok(a.t, x, i * 100, 100);
        }
        store_txn_commit(x);
        mem_arena_reset(arena);
    }
    atomic_store(&a.done, true);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    cr_assert_not(a.bad, "a reader saw an inconsistent table");
    cr_assert_gt(atomic_load(&a.scans), 0);
    int64_t sum;
    cr_assert_eq(scan_count(a.t, NULL, &sum), 30000);
    cr_assert_eq(sum, (int64_t)29999 * 30000 / 2);
}

typedef struct DropArg {
    _Atomic int stage;
} DropArg;

static void *dropper(void *p)
{
    DropArg *a = p;
    atomic_store(&a->stage, 1);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_table_drop("public", "t");
        err_pop(&jmp);
    }
    atomic_store(&a->stage, 2);
    return NULL;
}

Test(storage, drop_waits_for_scans)
{
    StoreTable *t = make_items("t");
    append_committed(t, 0, 3000);
    StoreTxn *x = store_txn_begin();
    int cols[] = {0};
    StoreScan *s = store_scan_begin(t, x, 1, cols, 0, NULL, arena);
    /* An append's own short transaction must not make DROP forget ours. */
    StoreTable *other = make_items("other");
    NO_ERROR(store_table_append(other, NULL, items_batch(0, 5)));
    EXPECT_ERROR_MSG("55006", "cannot DROP TABLE \"t\" because it is being used by active queries in this session",
                 store_table_drop("public", "t"));
    DropArg a = {0};
    pthread_t th;
    pthread_create(&th, NULL, dropper, &a);
    while (atomic_load(&a.stage) < 1)
        usleep(1000);
    usleep(150 * 1000);
    cr_assert_eq(atomic_load(&a.stage), 1, "DROP must wait for the open scan");
    Batch out = {0};
    uint64_t n = 0;
    while (store_scan_next(s, &out))
        n += out.count;
    cr_assert_eq(n, 3000, "the scan reads valid memory to its end");
    store_scan_end(s);
    usleep(150 * 1000);
    cr_assert_eq(atomic_load(&a.stage), 1, "DROP waits for the reader's transaction, not its scan");
    store_txn_commit(x);
    pthread_join(th, NULL);
    cr_assert_eq(atomic_load(&a.stage), 2);
    cr_assert_null(store_table_lookup("public", "t"));
}

typedef struct ScanThenWrite {
    StoreTable *scanned, *written;
    MemArena *arena;
    _Atomic int stage;
    char sqlstate[6];
} ScanThenWrite;

static void *scan_then_write(void *p)
{
    ScanThenWrite *a = p;
    StoreTxn *y = store_txn_begin();
    Batch *b = items_batch_in(a->arena, 0, 1);  /* the key the main thread has in t1 */
    int cols[] = {0};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        StoreScan *s = store_scan_begin(a->scanned, y, 1, cols, 0, NULL, a->arena);
        atomic_store(&a->stage, 1);
        store_table_append(a->written, y, b);  /* waits for the main thread's key */
        store_scan_end(s);
        err_pop(&jmp);
        atomic_store(&a->stage, 2);
        store_txn_commit(y);
    } else {
        snprintf(a->sqlstate, sizeof a->sqlstate, "%s", err_current()->sqlstate);
        store_txn_rollback(y);
        atomic_store(&a->stage, 3);
    }
    return NULL;
}

Test(storage, drop_deadlock_detected)
{
    StoreTable *t1 = make_items("t1");
    StoreTable *t2 = make_items("t2");
    StoreTxn *x = store_txn_begin();
    append_ok(t1, x, 0, 1);
    ScanThenWrite a = {.scanned = t2, .written = t1, .arena = mem_arena_create("scanner")};
    pthread_t th;
    pthread_create(&th, NULL, scan_then_write, &a);
    while (atomic_load(&a.stage) < 1)
        usleep(1000);
    usleep(100 * 1000);  /* it now waits for t1, which we write */
    /* DROP t2 waits for their scan while they wait for us: whichever of the
     * two closes the cycle gets 40P01 (normally we do, they wait already). */
    ErrJmp jmp;
    volatile bool we_failed = false;
    if (ERR_TRY(jmp)) {
        store_table_drop("public", "t2");
        err_pop(&jmp);
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "40P01");
        cr_assert_str_eq(err_current()->message, "deadlock detected");
        we_failed = true;
    }
    if (we_failed) {
        cr_assert_not_null(store_table_lookup("public", "t2"), "a failed DROP leaves the table");
        store_txn_rollback(x);
        pthread_join(th, NULL);
        cr_assert_eq(atomic_load(&a.stage), 2);
        NO_ERROR(store_table_drop("public", "t2"));
    } else {
        pthread_join(th, NULL);
        cr_assert_eq(atomic_load(&a.stage), 3);
        cr_assert_str_eq(a.sqlstate, "40P01");
        store_txn_rollback(x);
    }
    cr_assert_null(store_table_lookup("public", "t2"));
    mem_arena_destroy(a.arena);
}

Test(storage, drop_own_written_table)
{
    StoreTable *t = make_items("t");
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_append(t, x, items_batch(0, 10)));
    NO_ERROR(store_table_drop("public", "t"));  /* our own write lock does not block us */
    EXPECT_ERROR_MSG("42P01", "relation \"t\" does not exist", store_table_append(t, x, items_batch(20, 1)));
    store_txn_commit(x);
    cr_assert_null(store_table_lookup("public", "t"));
}

/* ---- data directory ---- */

Test(storage, data_directory_lock)
{
    struct stat st;
    char path[512];
    snprintf(path, sizeof path, "%s/strata.pid", dir);
    cr_assert_eq(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/STRATA_VERSION", dir);
    cr_assert_eq(stat(path, &st), 0);

    /* Another process holds the directory: our open must stop. */
    store_close();
    int up[2], down[2];
    cr_assert_eq(pipe(up), 0);
    cr_assert_eq(pipe(down), 0);
    pid_t pid = fork();
    if (pid == 0) {
        ErrJmp jmp;
        char c = 'x';
        if (ERR_TRY(jmp)) {
            store_open(dir);
            err_pop(&jmp);
            c = 'k';
        }
        if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) < 0)
            _exit(2);
        _exit(0);  /* exits holding the lock: the kernel releases it */
    }
    char c = 0;
    cr_assert_eq(read(up[0], &c, 1), 1);
    cr_assert_eq(c, 'k');
    EXPECT_ERROR_MSG("F0001", "lock file \"strata.pid\" already exists", store_open(dir));
    cr_assert_eq(last_err.severity, ERR_SEV_FATAL);
    char hint[1024];
    snprintf(hint, sizeof hint, "Is another server (PID %ld) running in data directory \"%s\"?",
             (long)pid, dir);
    cr_assert_str_eq(last_err.hint, hint);
    cr_assert_eq(write(down[1], "q", 1), 1);
    waitpid(pid, NULL, 0);

    /* The other process died without cleaning up: its lock went with it. */
    open_store();
    cr_assert_not_null(make_items("after"));
}

Test(storage, format_version_mismatch)
{
    store_close();
    char path[512];
    snprintf(path, sizeof path, "%s/STRATA_VERSION", dir);
    FILE *f = fopen(path, "w");
    fputs("99\n", f);
    fclose(f);
    EXPECT_ERROR_MSG("55000", "database files are incompatible with server", store_open(dir));
    cr_assert_str_eq(last_err.detail, "The data directory was initialized by Strata storage format "
                     "version 99, which is not compatible with this version 3.");
    /* The failed open released the lock: with the right version it opens. */
    f = fopen(path, "w");
    fputs("1\n", f);
    fclose(f);
    open_store();
}

Test(storage, creates_missing_directory_0700)
{
    store_close();
    char sub[512];
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "/a/b");
    open_store();
    struct stat st;
    cr_assert_eq(stat(sub, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0700);
    *strstr(dir, "/a/b") = '\0';
}

/* ---- roles ---- */

Test(storage, roles_persist)
{
    bool super = false;
    char verifier[256];
    cr_assert(store_role_get("postgres", &super, verifier, sizeof verifier));
    cr_assert(super);
    cr_assert_str_eq(verifier, "");
    cr_assert_not(store_role_get("alice", &super, verifier, sizeof verifier));
    EXPECT_ERROR_MSG("42704", "role \"alice\" does not exist", store_role_set_password("alice", "md5abc"));

    const char *scram = "SCRAM-SHA-256$4096:c2FsdA==$c3RvcmVk:c2VydmVy";
    NO_ERROR(store_role_set_password("postgres", scram));
    NO_ERROR(store_role_create("alice", false, "md5" "0123456789abcdef0123456789abcdef"));
    NO_ERROR(store_role_create("we\tird\\name", false, ""));
    EXPECT_ERROR_MSG("42710", "role \"alice\" already exists", store_role_create("alice", true, ""));

    store_close();
    open_store();
    cr_assert(store_role_get("postgres", &super, verifier, sizeof verifier));
    cr_assert_str_eq(verifier, scram);
    cr_assert(store_role_get("alice", &super, verifier, sizeof verifier));
    cr_assert_not(super);
    cr_assert_str_eq(verifier, "md50123456789abcdef0123456789abcdef");
    cr_assert(store_role_get("we\tird\\name", &super, verifier, sizeof verifier));
    NO_ERROR(store_role_set_password("postgres", ""));
    store_close();
    open_store();
    cr_assert(store_role_get("postgres", &super, verifier, sizeof verifier));
    cr_assert_str_eq(verifier, "");
    char path[512];
    struct stat st;
    /* roles (their verifiers) live in the WAL and checkpoints: owner-only files */
    snprintf(path, sizeof path, "%s/wal/1.wal", dir);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    NO_ERROR(store_checkpoint());
    snprintf(path, sizeof path, "%s/checkpoint/2.ckpt", dir);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    store_close();
    open_store();
    cr_assert(store_role_get("alice", &super, verifier, sizeof verifier));
}
