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
 *
 * The table's summary of its final groups (one run of n groups at a scan's
 * start, then n - 1 empty summaries): reused by the next scans (counted as
 * Agg.run), and each way it could go stale — a deletion committed after it
 * was made, the reader's own deletion, an older REPEATABLE READ snapshot
 * that sees fewer rows, TRUNCATE, ADD COLUMN, a rollback's loose zone maps,
 * appends and deletions committing while readers run on another thread.
 * Skipping any one of its checks (the seq, the writer, the visible rows,
 * ndead or zone_loose in its walk) fails one of these tests.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
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
    int run;          /* of which by the table's summary (a run of more than one group) */
    int follow;       /* the run's empty followers still expected */
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

/* One summary: a group's (rows 2048 when zone maps were asked), a run's at
 * the scan's start (rows a multiple of 2048), or one of the run's empty
 * followers (a->follow of them left). */
static void agg_group(Agg *a, uint32_t rows, const StoreColSummary *sum, bool zone)
{
    a->summarised++;
    if (a->follow > 0) {
        a->follow--;
        cr_assert(rows == 0 && (!zone || (sum->null_count == 0 && !sum->has_value)),
                  "a run's follower that is not empty");
        return;
    }
    if (rows > 2048) {
        cr_assert(a->summarised == 1 && rows % 2048 == 0, "a run of %u rows", rows);
        a->follow = (int)(rows / 2048) - 1;
        a->run = (int)(rows / 2048);
    }
    a->rows += rows;
    if (!zone)
        return;
    cr_assert(rows >= 2048 && rows % 2048 == 0, "a zone summary of a partial group");
    if (sum->has_value) {
        agg_value(a, sum->min);
        agg_value(a, sum->max);
        a->nonnull += (int64_t)rows - sum->null_count - 2;
    }
}

/* count(*), count(v), min(v), max(v) of column col through summaries (zone asked or not). */
__attribute__((noinline)) static Agg agg_summary_col(StoreTable *t, StoreTxn *x, int col, bool zone)
{
    int cols[1] = {col};
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
        if (k == STORE_SUMMARY_ROWS)
            agg_batch(&a, &b);
        else
            agg_group(&a, rows, &sums[0], zone);
    }
    cr_assert_eq(a.follow, 0, "a run's followers missing");
    store_scan_end(s);
    return a;
}

static Agg agg_summary(StoreTable *t, StoreTxn *x, bool zone)
{
    return agg_summary_col(t, x, 0, zone);
}

__attribute__((noinline)) static Agg agg_rows_col(StoreTable *t, StoreTxn *x, int col)
{
    int cols[1] = {col};
    Agg a = {0};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 1, cols, 0, NULL, arena));
    Batch b = {0};
    while (store_scan_next(s, &b))
        agg_batch(&a, &b);
    store_scan_end(s);
    return a;
}

static Agg agg_rows(StoreTable *t, StoreTxn *x)
{
    return agg_rows_col(t, x, 0);
}

/* Both ways as x sees t; the summaries must have told at least min_summarised
 * groups. Returns the zone-map summary's aggregate (its run, Agg.run). */
static Agg check(StoreTable *t, StoreTxn *x, int64_t rows, int64_t max, int min_summarised)
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
    return z;
}

/* Append v = first .. first + n - 1 (times mul), NULL where the row number % 11 == 3,
 * batches from arena a (one thread's). done is volatile: NO_ERROR's setjmp is inside the
 * loop (-Wclobbered at -O3). */
static void append_in(MemArena *a, StoreTable *t, StoreTxn *x, int64_t first, int64_t n,
                      int64_t mul)
{
    SqlType types[1] = {SQLTYPE(TYPE_INT8)};
    for (volatile int64_t done = 0; done < n; done += 1000) {
        Batch *b = batch_create(a, 1, types);
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

static void append(StoreTable *t, StoreTxn *x, int64_t first, int64_t n, int64_t mul)
{
    append_in(arena, t, x, first, n, mul);
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
    /* A writer of its own delta (storage/delta.c): its rows and deletion
     * are its own only; the table's groups summarised as before. */
    StoreTxn *d = store_txn_begin();
    append(t, d, 5000, 3000, 1000000);
    NO_ERROR(store_row_delete(t, d, 20, NULL));
    check(t, NULL, 5000, 4999, 1);
    check(t, d, 7999, 7999000000, 1);
    store_txn_rollback(d);
    check(t, NULL, 5000, 4999, 2);
    /* A writer holding the table's write lock: rows into the table. */
    StoreTxn *w = store_txn_begin();
    NO_ERROR(store_table_lock_write(t, w));
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
    NO_ERROR(store_table_lock_write(t, w));  /* rows into the table, not a delta */
    append(t, w, 5000, 2000, -1000000);    /* into group 2 and 3: min far below */
    store_txn_rollback(w);
    check(t, NULL, 5000, 4999, 2);
    w = store_txn_begin();
    NO_ERROR(store_table_lock_write(t, w));
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

/* ---- the table's summary of its final groups ---- */

/* A committed table of `groups` full groups (v = 0 .. rows - 1, NULLs) and
 * 100 more rows; its summary made by a first check. */
static StoreTable *make_summarised(const char *name, int groups)
{
    StoreColumnDef cols[1] = {{"v", SQLTYPE(TYPE_INT8), false, NULL}};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, 1, cols, 0, NULL));
    StoreTxn *x = store_txn_begin();
    append(t, x, 0, (int64_t)groups * 2048 + 100, 1);
    store_txn_commit(x);
    int64_t n = (int64_t)groups * 2048 + 100;
    check(t, NULL, n, n - 1, groups);
    return t;
}

Test(scansum, table_summary_reused)
{
    StoreTable *t = make_summarised("t", 10);
    Agg z = check(t, NULL, 10 * 2048 + 100, 10 * 2048 + 99, 10);
    cr_assert_eq(z.run, 10, "the table's summary was not used (run %d)", z.run);
    cr_assert_eq(z.summarised, 10);        /* the run's groups counted one by one */
    Agg c = agg_summary(t, NULL, false);
    cr_assert_eq(c.run, 10);               /* count(*) from the same summary */
    cr_assert_eq(c.summarised, 11);        /* and the partial group from its count */
    StoreTxn *r = store_txn_begin();
    z = check(t, r, 10 * 2048 + 100, 10 * 2048 + 99, 10);
    cr_assert_eq(z.run, 10);
    store_txn_commit(r);
}

Test(scansum, committed_deletion_after_summary)
{
    StoreTable *t = make_summarised("t", 10);
    StoreTxn *r = store_txn_begin();       /* READ COMMITTED: each statement sees commits */
    StoreTxn *w = store_txn_begin();
    NO_ERROR(store_row_delete(t, w, 3 * 2048 + 5, NULL));
    /* uncommitted: the row is still everyone else's, the summary still good */
    Agg z = check(t, NULL, 10 * 2048 + 100, 10 * 2048 + 99, 10);
    cr_assert_eq(z.run, 10);
    store_txn_commit(w);
    /* committed after the summary was made: a newer snapshot must not take it */
    z = check(t, NULL, 10 * 2048 + 99, 10 * 2048 + 99, 9);
    cr_assert_eq(z.run, 3, "run %d: the walk went past a deletion", z.run);
    check(t, r, 10 * 2048 + 99, 10 * 2048 + 99, 9);
    store_txn_commit(r);
    /* the max row of a group in the run, then the table's max */
    w = store_txn_begin();
    NO_ERROR(store_row_delete(t, w, 2047, NULL));
    NO_ERROR(store_row_delete(t, w, 10 * 2048 + 99, NULL));
    store_txn_commit(w);
    z = check(t, NULL, 10 * 2048 + 97, 10 * 2048 + 98, 8);
    cr_assert_eq(z.run, 0);
}

Test(scansum, own_deletion_not_from_summary)
{
    StoreTable *t = make_summarised("t", 10);
    StoreTxn *w = store_txn_begin();
    NO_ERROR(store_row_delete(t, w, 9 * 2048 + 2047, NULL));  /* max of the last full group */
    /* no commit since the summary: only its writer check keeps w off it */
    Agg z = check(t, w, 10 * 2048 + 99, 10 * 2048 + 99, 9);
    cr_assert_eq(z.run, 0);
    store_txn_rollback(w);
    z = check(t, NULL, 10 * 2048 + 100, 10 * 2048 + 99, 10);
    cr_assert_eq(z.run, 10);
}

Test(scansum, older_snapshot_sees_fewer_rows)
{
    StoreTable *t = make_summarised("t", 4);
    StoreTxn *r = store_txn_begin();
    store_txn_set_isolation(r, STORE_REPEATABLE_READ);
    Agg z = check(t, r, 4 * 2048 + 100, 4 * 2048 + 99, 4);
    cr_assert_eq(z.run, 4);
    StoreTxn *w = store_txn_begin();
    append(t, w, 4 * 2048 + 100, 6 * 2048, 1);   /* groups 4 .. 9 full */
    store_txn_commit(w);
    z = check(t, NULL, 10 * 2048 + 100, 10 * 2048 + 99, 10);
    cr_assert_eq(z.run, 10);
    /* r's snapshot is older than the summary but sees 4 groups, not 10 */
    z = check(t, r, 4 * 2048 + 100, 4 * 2048 + 99, 4);
    cr_assert_eq(z.run, 0);
    store_txn_commit(r);
    /* an older snapshot and a deletion it must still see */
    r = store_txn_begin();
    store_txn_set_isolation(r, STORE_REPEATABLE_READ);
    check(t, r, 10 * 2048 + 100, 10 * 2048 + 99, 10);
    w = store_txn_begin();
    NO_ERROR(store_row_delete(t, w, 2 * 2048 + 1, NULL));
    store_txn_commit(w);
    z = check(t, NULL, 10 * 2048 + 99, 10 * 2048 + 99, 9);
    cr_assert_eq(z.run, 2);
    z = check(t, r, 10 * 2048 + 100, 10 * 2048 + 99, 9);
    cr_assert_eq(z.run, 2);
    store_txn_commit(r);
}

Test(scansum, loose_group_ends_the_run)
{
    StoreTable *t = make_summarised("t", 3);   /* group 3 partial (100 rows) */
    StoreTxn *w = store_txn_begin();
    NO_ERROR(store_table_lock_write(t, w));  /* into the table itself, not a delta */
    append(t, w, 3 * 2048 + 100, 2048, 1000000);  /* into groups 3 and 4 */
    store_txn_rollback(w);
    w = store_txn_begin();
    append(t, w, 3 * 2048 + 100, 5 * 2048, 1);    /* groups 3 .. 7 full, 3 and 4 loose */
    store_txn_commit(w);
    Agg z = check(t, NULL, 8 * 2048 + 100, 8 * 2048 + 99, 6);
    cr_assert_eq(z.run, 3, "run %d: the walk went past a loose group", z.run);
}

Test(scansum, truncate_after_summary)
{
    StoreTable *t = make_summarised("t", 4);
    StoreTxn *w = store_txn_begin();
    NO_ERROR(store_table_truncate(t, w));
    append(t, w, 0, 6 * 2048, 5);            /* more full groups than before, other values */
    store_txn_commit(w);
    Agg z = check(t, NULL, 6 * 2048, (6 * 2048 - 1) * 5, 6);
    cr_assert_eq(z.run, 6);
}

Test(scansum, added_column_gets_its_slot)
{
    StoreTable *t = make_summarised("t", 5);
    StoreColumnDef def = {"w", SQLTYPE(TYPE_INT8), false, NULL};
    Value fill = {.is_null = false};
    fill.u.i64 = 42;
    StoreTxn *a = store_txn_begin();
    NO_ERROR(store_table_add_column(t, a, &def, &fill));
    store_txn_commit(a);
    Agg r = agg_rows_col(t, NULL, 1), z = agg_summary_col(t, NULL, 1, true);
    cr_assert(r.rows == 5 * 2048 + 100 && r.nonnull == r.rows && r.min == 42 && r.max == 42);
    cr_assert(z.rows == r.rows && z.nonnull == r.nonnull && z.min == 42 && z.max == 42);
    cr_assert_eq(z.run, 5);
    /* both columns' slots now, at the same extent */
    z = agg_summary_col(t, NULL, 0, true);
    cr_assert(z.run == 5 && z.max == 5 * 2048 + 99);
    z = agg_summary_col(t, NULL, 1, true);
    cr_assert(z.run == 5 && z.max == 42);
}

/* ---- concurrent writer ---- */

typedef struct Writer {
    StoreTable *t;
    MemArena *arena;  /* the writer thread's (the fixture's is the readers') */
    atomic_bool stop;
    atomic_int rounds;
} Writer;

/* Appends a group's worth of rows per round, commits, deletes a row now
 * and then (committed or rolled back), rolls back an append now and then. */
static void writer_round(Writer *wr, int round, int64_t *next)
{
    StoreTxn *w = store_txn_begin();
    if (round % 5 == 3) {
        append_in(wr->arena, wr->t, w, *next, 700, -1000);
        store_txn_rollback(w);
    } else if (round % 3 == 1) {
        /* past the first 2 groups: every reader's run has those at least */
        uint64_t base = 2 * 2048;
        store_row_delete(wr->t, w, base + (uint64_t)(round * 997) % (uint64_t)(*next - base), NULL);
        if (round % 2)
            store_txn_rollback(w);
        else
            store_txn_commit(w);
    } else {
        append_in(wr->arena, wr->t, w, *next, 2048, 1);
        store_txn_commit(w);
        *next += 2048;
    }
}

/* The rounds, each inside its own error trap (none expected). */
static void *writer_main(void *arg)
{
    Writer *wr = arg;
    volatile int64_t next = 10 * 2048 + 100;
    for (volatile int round = 0; !atomic_load(&wr->stop) && round < 400; round++) {
        ErrJmp jmp;
        if (!ERR_TRY(jmp))
            return (void *)1;
        int64_t n = next;
        writer_round(wr, round, &n);
        next = n;
        err_pop(&jmp);
        mem_arena_reset(wr->arena);
        atomic_fetch_add(&wr->rounds, 1);
    }
    return NULL;
}

Test(scansum, readers_under_concurrent_writer)
{
    StoreTable *t = make_summarised("t", 10);
    Writer wr = {.t = t, .arena = mem_arena_create("writer")};
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, writer_main, &wr), 0);
    int runs = 0;
    /* At least 300 reads and until the writer has done a few rounds (on a
     * busy machine its thread may start late). */
    for (int i = 0; (i < 300 || atomic_load(&wr.rounds) < 5) && atomic_load(&wr.rounds) < 400 &&
                    i < 200000; i++) {
        StoreTxn *r = store_txn_begin();
        store_txn_set_isolation(r, i % 2 ? STORE_REPEATABLE_READ : STORE_READ_COMMITTED);
        store_txn_statement_begin(r);
        Agg a = agg_rows(t, r), z = agg_summary(t, r, true), c = agg_summary(t, r, false);
        cr_assert(z.rows == a.rows && z.nonnull == a.nonnull && z.min == a.min && z.max == a.max,
                  "round %d: summary (%lld %lld %lld %lld) vs rows (%lld %lld %lld %lld)", i,
                  (long long)z.rows, (long long)z.nonnull, (long long)z.min, (long long)z.max,
                  (long long)a.rows, (long long)a.nonnull, (long long)a.min, (long long)a.max);
        cr_assert_eq(c.rows, a.rows);
        runs += z.run >= 2;
        store_txn_commit(r);
    }
    atomic_store(&wr.stop, true);
    void *res = NULL;
    pthread_join(th, &res);
    mem_arena_destroy(wr.arena);
    cr_assert_null(res, "the writer raised");
    cr_assert_gt(runs, 0, "no reader took the table's summary");
    cr_assert_gt(atomic_load(&wr.rounds), 0);
}
