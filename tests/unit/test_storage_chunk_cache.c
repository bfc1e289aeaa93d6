/*
 * test_storage_chunk_cache.c — the shared cache of decoded run chunks
 * (storage/chunk_cache.c) as cold chunk readers use it (storage/cold.c).
 *
 * Checks that a second scan of checkpointed rows is served from the cache
 * (hits, no new misses) with every value right, that a budget too small for
 * anything still gives right answers and holds nothing once readers are
 * done, that point fetches share the entries scans made, and that a run's
 * entries go when the run is closed (DROP TABLE), so a later run at the same
 * address can never see them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "chunkcache"
#include "storage_fixture.h"

TestSuite(chunkcache, .init = storage_setup, .fini = storage_teardown, .timeout = 120);

#define ROWS 150000   /* 3 run groups of 64K rows */

/* t(id bigint, v bigint): v = 7 * id + 1, NULL when id % 13 == 4. */
static StoreTable *make_table(const char *name)
{
    StoreColumnDef cols[2] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"v", SQLTYPE(TYPE_INT8), false, NULL},
    };
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, 2, cols, 0, NULL));
    return t;
}

__attribute__((noinline)) static void load(StoreTable *t)
{
    SqlType types[2] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
    StoreTxn *x = store_txn_begin();
    for (int64_t first = 0; first < ROWS; first += 2000) {
        Batch *b = batch_create(arena, 2, types);
        uint32_t n = ROWS - first < 2000 ? (uint32_t)(ROWS - first) : 2000;
        for (uint32_t r = 0; r < n; r++) {
            int64_t k = first + r;
            Value v = {.is_null = false};
            v.u.i64 = k;
            vec_set_value(&b->cols[0], r, &v);
            if (k % 13 == 4) {
                vec_set_null(&b->cols[1], r);
            } else {
                v.u.i64 = 7 * k + 1;
                vec_set_value(&b->cols[1], r, &v);
            }
        }
        b->count = n;
        NO_ERROR(store_table_append(t, x, b));
        mem_arena_reset(arena);
    }
    store_txn_commit(x);
    NO_ERROR(store_checkpoint());
}

/* Scan (id, v), check every row; returns the rows seen. */
__attribute__((noinline)) static uint64_t scan_check(StoreTable *t)
{
    int cols[2] = {0, 1};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, NULL, 2, cols, 0, NULL, arena));
    Batch b = {0};
    uint64_t n = 0;
    bool ok = true;
    while (store_scan_next(s, &b)) {
        for (uint32_t r = 0; r < b.count; r++) {
            int64_t k = ((const int64_t *)b.cols[0].data)[r];
            bool null = !vec_is_valid(&b.cols[1], r);
            ok &= null == (k % 13 == 4);
            ok &= null || ((const int64_t *)b.cols[1].data)[r] == 7 * k + 1;
        }
        n += b.count;
    }
    store_scan_end(s);
    cr_assert(ok, "a value read through the chunk cache is wrong");
    return n;
}

static void stats(size_t *used, uint64_t *hits, uint64_t *misses)
{
    size_t budget;
    store__chunk_cache_stats(used, &budget, hits, misses);
}

Test(chunkcache, second_scan_is_served_from_the_cache)
{
    store__chunk_cache_set_budget((size_t)256 << 20);
    StoreTable *t = make_table("c1");
    load(t);
    size_t used0;
    uint64_t h0, m0, h1, m1, h2, m2;
    stats(&used0, &h0, &m0);
    cr_assert_eq(scan_check(t), ROWS);
    size_t used1;
    stats(&used1, &h1, &m1);
    cr_assert_gt(m1, m0, "the first scan decodes");
    cr_assert_gt(used1, used0);
    cr_assert_eq(scan_check(t), ROWS);
    size_t used2;
    stats(&used2, &h2, &m2);
    cr_assert_eq(m2, m1, "the second scan decodes nothing (%llu new misses)",
                 (unsigned long long)(m2 - m1));
    cr_assert_geq(h2 - h1, m1 - m0, "every chunk the first scan decoded is a hit now");
    cr_assert_eq(used2, used1);
}

Test(chunkcache, point_fetch_uses_the_entries_of_a_scan)
{
    store__chunk_cache_set_budget((size_t)256 << 20);
    StoreTable *t = make_table("c2");
    load(t);
    cr_assert_eq(scan_check(t), ROWS);
    size_t used;
    uint64_t h1, m1, h2, m2;
    stats(&used, &h1, &m1);
    SqlType types[1] = {SQLTYPE(TYPE_INT8)};
    Batch *out = batch_create(arena, 1, types);
    int col = 1;
    for (uint64_t row = 5; row < ROWS; row += 9973) {
        bool found = false;
        NO_ERROR(found = store_row_fetch(t, NULL, row, 1, &col, out));
        cr_assert(found);
        if (row % 13 == 4)
            cr_assert_not(vec_is_valid(&out->cols[0], 0));
        else
            cr_assert_eq(((const int64_t *)out->cols[0].data)[0], 7 * (int64_t)row + 1);
    }
    stats(&used, &h2, &m2);
    cr_assert_eq(m2, m1, "fetches found the scan's chunks");
    cr_assert_gt(h2, h1);
}

Test(chunkcache, tiny_budget_gives_right_answers_and_keeps_nothing)
{
    store__chunk_cache_set_budget(1);
    StoreTable *t = make_table("c3");
    load(t);
    cr_assert_eq(scan_check(t), ROWS);
    cr_assert_eq(scan_check(t), ROWS);
    size_t used;
    uint64_t h, m;
    stats(&used, &h, &m);
    cr_assert_eq(used, 0, "unpinned entries over the budget are evicted (%zu bytes kept)", used);
    store__chunk_cache_set_budget((size_t)256 << 20);
}

Test(chunkcache, dropped_table_leaves_no_entries)
{
    store__chunk_cache_set_budget((size_t)256 << 20);
    StoreTable *t = make_table("c4");
    load(t);
    cr_assert_eq(scan_check(t), ROWS);
    size_t used;
    uint64_t h, m;
    stats(&used, &h, &m);
    cr_assert_gt(used, 0);
    NO_ERROR(store_table_drop("public", "c4"));
    NO_ERROR(store_checkpoint());
    stats(&used, &h, &m);
    cr_assert_eq(used, 0, "the dropped table's runs were closed with their entries");
    StoreTable *t2 = make_table("c5");
    load(t2);
    cr_assert_eq(scan_check(t2), ROWS);
}
