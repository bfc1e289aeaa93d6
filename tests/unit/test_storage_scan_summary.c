/*
 * test_storage_scan_summary.c — store_scan_next_summary (storage/scan_summary.c)
 * against the rows themselves, under concurrent transactions.
 *
 * Each check aggregates a bigint column twice as one transaction sees it:
 * through summaries (count, NULL count, min, max of summarised groups, rows
 * of the others) and through store_scan_next over every row. They must
 * agree, and the summary path must really have summarised groups (so a
 * summary that always fell back to rows could not pass). Cases: another
 * transaction's uncommitted appends and deletions, the transaction's own
 * appends and deletions, a REPEATABLE READ snapshot while a writer commits,
 * rows rolled back (whole transaction and to a savepoint) whose values
 * stayed in the zone maps, cold (checkpointed) groups.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include "common/error.h"
#include "common/vector.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "scansum"
#include "storage_fixture.h"

TestSuite(scansum, .init = storage_setup, .fini = storage_teardown, .timeout = 120);

typedef struct Agg {
    int64_t rows, nonnull, min, max;
    int summarised;   /* groups told by their summary */
} Agg;

static void agg_value(Agg *a, int64_t x)
{
    if (a->nonnull == 0 || x < a->min)
        a->min = x;
    if (a->nonnull == 0 || x > a->max)
        a->max = x;
    a->nonnull++;
}

static void agg_batch(Agg *a, const Batch *b)
{
    const int64_t *d = b->cols[0].data;
    for (uint32_t r = 0; r < b->count; r++) {
        a->rows++;
        if (vec_is_valid(&b->cols[0], r))
            agg_value(a, d[r]);
    }
}

/* count(*), count(v), min(v), max(v) through summaries (zone asked or not). */
__attribute__((noinline)) static Agg agg_summary(StoreTable *t, StoreTxn *x, bool zone)
{
    int cols[1] = {0};
    bool zone_cols[1] = {zone};
    StoreColSummary sums[1];
    Agg a = {0};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 1, cols, 0, NULL, arena));
    Batch b = {0};
    for (;;) {
        uint32_t rows = 0;
        StoreSummaryKind k = STORE_SUMMARY_END;
        NO_ERROR(k = store_scan_next_summary(s, zone_cols, &rows, sums, &b));
        if (k == STORE_SUMMARY_END)
            break;
        if (k == STORE_SUMMARY_ROWS) {
            agg_batch(&a, &b);
            continue;
        }
        a.summarised++;
        a.rows += rows;
        if (!zone)
            continue;
        cr_assert_eq(rows, 2048, "a zone summary of a partial group");
        if (sums[0].has_value) {
            agg_value(&a, sums[0].min);
            agg_value(&a, sums[0].max);
            a.nonnull += (int64_t)rows - sums[0].null_count - 2;
        }
    }
    store_scan_end(s);
    return a;
}

__attribute__((noinline)) static Agg agg_rows(StoreTable *t, StoreTxn *x)
{
    int cols[1] = {0};
    Agg a = {0};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 1, cols, 0, NULL, arena));
    Batch b = {0};
    while (store_scan_next(s, &b))
        agg_batch(&a, &b);
    store_scan_end(s);
    return a;
}

/* Both ways as x sees t; the summaries must have told at least min_summarised groups. */
static void check(StoreTable *t, StoreTxn *x, int64_t rows, int64_t max, int min_summarised)
{
    if (x)
        store_txn_statement_begin(x);
    Agg r = agg_rows(t, x), z = agg_summary(t, x, true), c = agg_summary(t, x, false);
    cr_assert_eq(r.rows, rows, "rows %lld, expected %lld", (long long)r.rows, (long long)rows);
    cr_assert_eq(r.max, max, "max %lld, expected %lld", (long long)r.max, (long long)max);
    cr_assert(z.rows == r.rows && z.nonnull == r.nonnull && z.min == r.min && z.max == r.max,
              "summary (%lld %lld %lld %lld) vs rows (%lld %lld %lld %lld)", (long long)z.rows,
              (long long)z.nonnull, (long long)z.min, (long long)z.max, (long long)r.rows,
              (long long)r.nonnull, (long long)r.min, (long long)r.max);
    cr_assert_eq(c.rows, r.rows);
    cr_assert_geq(z.summarised, min_summarised, "only %d groups summarised", z.summarised);
    cr_assert_geq(c.summarised, z.summarised);
}

/* Append v = first .. first + n - 1 (times mul), NULL where the row number % 11 == 3.
 * done is volatile: NO_ERROR's setjmp is inside the loop (-Wclobbered at -O3). */
static void append(StoreTable *t, StoreTxn *x, int64_t first, int64_t n, int64_t mul)
{
    SqlType types[1] = {SQLTYPE(TYPE_INT8)};
    for (volatile int64_t done = 0; done < n; done += 1000) {
        Batch *b = batch_create(arena, 1, types);
        uint32_t k = n - done < 1000 ? (uint32_t)(n - done) : 1000;
        for (uint32_t r = 0; r < k; r++) {
            int64_t i = first + done + r;
            Value v = {.is_null = false};
            v.u.i64 = i * mul;
            if (i % 11 == 3)
                vec_set_null(&b->cols[0], r);
            else
                vec_set_value(&b->cols[0], r, &v);
        }
        b->count = k;
        NO_ERROR(store_table_append(t, x, b));
    }
}

static StoreTable *make_table(void)
{
    StoreColumnDef cols[1] = {{"v", SQLTYPE(TYPE_INT8), false, NULL}};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "t", 1, cols, 0, NULL));
    StoreTxn *x = store_txn_begin();
    append(t, x, 0, 5000, 1);   /* groups 0, 1 full; group 2 partial */
    store_txn_commit(x);
    return t;
}

Test(scansum, concurrent_writer_and_own_rows)
{
    StoreTable *t = make_table();
    check(t, NULL, 5000, 4999, 2);
    StoreTxn *w = store_txn_begin();
    append(t, w, 5000, 3000, 1000000);     /* fills group 2 with big values, uncommitted */
    NO_ERROR(store_row_delete(t, w, 10, NULL));
    StoreTxn *r = store_txn_begin();
    check(t, r, 5000, 4999, 1);             /* neither the rows nor the deletion (group 0 read) */
    check(t, NULL, 5000, 4999, 1);
    check(t, w, 7999, 7999000000, 2);       /* own rows; group 0 has a deletion: read */
    store_txn_commit(w);
    check(t, r, 7999, 7999000000, 2);       /* READ COMMITTED: the next statement sees it */
    store_txn_commit(r);
}

Test(scansum, repeatable_read_snapshot)
{
    StoreTable *t = make_table();
    StoreTxn *r = store_txn_begin();
    store_txn_set_isolation(r, STORE_REPEATABLE_READ);
    check(t, r, 5000, 4999, 2);
    StoreTxn *w = store_txn_begin();
    append(t, w, 5000, 5000, 7);
    store_txn_commit(w);
    check(t, r, 5000, 4999, 2);             /* still the first statement's snapshot */
    check(t, NULL, 10000, 9999 * 7, 4);
    store_txn_commit(r);
}

Test(scansum, rolled_back_rows_leave_zone_maps_wide)
{
    StoreTable *t = make_table();
    StoreTxn *w = store_txn_begin();
    append(t, w, 5000, 2000, -1000000);    /* into group 2 and 3: min far below */
    store_txn_rollback(w);
    check(t, NULL, 5000, 4999, 2);
    w = store_txn_begin();
    append(t, w, 5000, 1144, 1);            /* group 2 full again, from small values */
    int level = store_txn_savepoint(w);
    append(t, w, 6144, 3000, 1000000);      /* groups 3, 4: max far above */
    store_txn_rollback_to(w, level);
    append(t, w, 6144, 2048, 1);            /* group 3 full */
    check(t, w, 8192, 8191, 2);
    store_txn_commit(w);
    check(t, NULL, 8192, 8191, 2);
    /* the loose groups (2, 3) are read, not summarised; groups 0 and 1 are */
    Agg z = agg_summary(t, NULL, true);
    cr_assert_eq(z.summarised, 2);
}

Test(scansum, cold_groups_and_deletions)
{
    StoreTable *t = make_table();
    StoreTxn *w = store_txn_begin();
    append(t, w, 5000, 20000, 3);
    store_txn_commit(w);
    NO_ERROR(store_checkpoint());
    check(t, NULL, 25000, 24999 * 3, 12);
    w = store_txn_begin();
    NO_ERROR(store_row_delete(t, w, 24999, NULL));   /* the max, in the last (partial) group */
    NO_ERROR(store_row_delete(t, w, 4100, NULL));
    store_txn_commit(w);
    check(t, NULL, 24998, 24998 * 3, 11);
    restart();
    t = store_table_lookup("public", "t");
    cr_assert_not_null(t);
    check(t, NULL, 24998, 24998 * 3, 11);
    /* deletions recorded by a checkpoint (TABLE_DELS), VACUUM, recovery from them */
    w = store_txn_begin();
    NO_ERROR(store_row_delete(t, w, 24998, NULL));
    NO_ERROR(store_row_delete(t, w, 9000, NULL));    /* group 4 */
    store_txn_commit(w);
    NO_ERROR(store_vacuum(t));
    NO_ERROR(store_checkpoint());
    check(t, NULL, 24996, 24997 * 3, 10);
    restart();
    t = store_table_lookup("public", "t");
    cr_assert_not_null(t);
    check(t, NULL, 24996, 24997 * 3, 10);
}
