/*
 * test_storage_truncate.c — TRUNCATE as a new table generation swapped in
 * at commit (storage/truncate.c): the rows, the pk index, the string heap
 * and the runs of the old generation go; ROLLBACK and ROLLBACK TO bring
 * them back; other transactions' scans wait for the truncating one; a
 * crash after the commit comes back with the new generation (later rows
 * present), one before it with the old rows; checkpoints taken while a
 * TRUNCATE is pending hold the old rows.
 *
 * "Crash" is store_close + store_open without a checkpoint (storage_fixture.h):
 * an open transaction is lost, the WAL is replayed.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "truncate"
#include "storage_fixture.h"

TestSuite(truncate, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

#include "storage_acct.h"

static void append_in(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n, int64_t bal)
{
    for (uint32_t done = 0; done < n; done += 1000) {
        uint32_t k = n - done < 1000 ? n - done : 1000;
        append_ok(t, x, acct_batch(first + (int64_t)done, k, bal));
        mem_arena_reset(arena);
    }
}

static void load(StoreTable *t, int64_t first, uint32_t n, int64_t bal)
{
    StoreTxn *x = store_txn_begin();
    append_in(t, x, first, n, bal);
    store_txn_commit(x);
}

/* Visible rows and sum of bal as x sees them (NULL: latest committed);
 * checks every note against its id. */
static uint64_t count_sum(StoreTable *t, StoreTxn *x, int64_t *sum)
{
    int cols[] = {1, 2, 0};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 3, cols, 0, NULL, arena));
    Batch b = {0};
    uint64_t n = 0;
    int64_t total = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t i = 0; i < b.count; i++) {
            total += ((int64_t *)b.cols[0].data)[i];
            int64_t id = ((int64_t *)b.cols[2].data)[i];
            bool null_note = !vec_is_valid(&b.cols[1], i);
            cr_assert_eq(null_note, id % 5 == 0, "note of %lld", (long long)id);
            if (!null_note) {
                char want[32];
                snprintf(want, sizeof want, "n%lld", (long long)id);
                StrRef r = ((StrRef *)b.cols[1].data)[i];
                cr_assert(r.len == strlen(want) && memcmp(r.ptr, want, r.len) == 0);
            }
        }
        n += b.count;
    }
    store_scan_end(s);
    if (sum)
        *sum = total;
    return n;
}

static bool has_key(StoreTable *t, StoreTxn *x, int64_t id, uint64_t *row)
{
    Value k = {.is_null = false};
    k.u.i64 = id;
    uint64_t r = 0;
    bool found = false;
    NO_ERROR(found = store_table_lookup_key(t, x, &k, &r));
    if (row)
        *row = r;
    return found;
}

static int count_runs(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/checkpoint", dir);
    DIR *d = opendir(path);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strstr(e->d_name, ".run") != NULL && strstr(e->d_name, ".tmp") == NULL;
    closedir(d);
    return n;
}

static StoreTable *reopen(void)
{
    restart();
    StoreTable *t = store_table_lookup("public", "acct");
    cr_assert_not_null(t);
    return t;
}

/* Old rows partly in a run (cold), partly in memory; TRUNCATE, new rows
 * reusing old keys, COMMIT: only the new rows, numbered from 0; a crash
 * brings back exactly that, later inserts too; the next checkpoint
 * removes the old generation's run file. */
Test(truncate, commit_swaps_generation_and_replays)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 5000, 10);
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_runs(), 1);
    load(t, 5001, 3000, 10);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    cr_assert_eq(count_sum(t, x, NULL), 0, "the truncating transaction sees no row");
    append_in(t, x, 1, 100, 3);
    int64_t sum;
    cr_assert_eq(count_sum(t, x, &sum), 100);
    store_txn_commit(x);
    cr_assert_eq(atomic_load(&t->committed), 100, "the new generation holds only the new rows");
    cr_assert_eq(t->ngroups, 1);
    cr_assert_eq(t->run_cur->nspans, 0);
    uint64_t r;
    cr_assert(has_key(t, NULL, 1, &r));
    cr_assert_eq(r, 0, "rows renumbered from 0");
    cr_assert_not(has_key(t, NULL, 200, NULL));
    cr_assert_eq(count_sum(t, NULL, &sum), 100);
    cr_assert_eq(sum, 300);
    load(t, 101, 50, 1);  /* after the TRUNCATE's commit */
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, &sum), 150);
    cr_assert_eq(sum, 350);
    cr_assert(has_key(t, NULL, 150, &r));
    cr_assert_eq(r, 149);
    EXPECT_ERROR("23505", store_table_append(t, NULL, acct_batch(7, 1, 1)));
    NO_ERROR(store_table_append(t, NULL, acct_batch(4000, 1, 1)));
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_runs(), 1, "the old generation's run is gone");
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, &sum), 151);
    cr_assert_eq(sum, 351);
}

/* A crash before COMMIT: every row back (no checkpoint, and after a
 * checkpoint taken while the TRUNCATE was pending). */
Test(truncate, crash_before_commit_keeps_rows)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 3000, 10);
    NO_ERROR(store_checkpoint());
    load(t, 3001, 1000, 10);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 1, 10, 1);
    t = reopen();
    int64_t sum;
    cr_assert_eq(count_sum(t, NULL, &sum), 4000);
    cr_assert_eq(sum, 40000);
    x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 1, 10, 1);
    NO_ERROR(store_checkpoint());  /* holds the committed (old) rows */
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, &sum), 4000);
    cr_assert_eq(sum, 40000);
    /* The same with a COMMIT after that checkpoint: replay truncates. */
    x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 1, 10, 1);
    NO_ERROR(store_checkpoint());
    store_txn_commit(x);
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, &sum), 10);
    cr_assert_eq(sum, 10);
}

/* ROLLBACK and ROLLBACK TO a savepoint before the TRUNCATE restore every
 * row and key (a row deleted before the savepoint stays deleted); two
 * TRUNCATEs in one transaction; one after a savepoint kept. */
Test(truncate, rollback_and_savepoints_restore_rows)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 3000, 10);
    NO_ERROR(store_checkpoint());
    load(t, 3001, 1001, 10);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 1, 10, 1);
    store_txn_rollback(x);
    int64_t sum;
    cr_assert_eq(count_sum(t, NULL, &sum), 4001);
    cr_assert(has_key(t, NULL, 1, NULL));

    x = store_txn_begin();
    uint64_t r, nw;
    cr_assert(has_key(t, x, 7, &r));
    cr_assert_eq(store_row_delete(t, x, r, &nw), STORE_WRITE_OK);
    int sp = store_txn_savepoint(x);
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 1, 20, 1);
    int sp2 = store_txn_savepoint(x);
    NO_ERROR(store_table_truncate(t, x));  /* a second one */
    append_in(t, x, 1, 5, 2);
    cr_assert_eq(count_sum(t, x, &sum), 5);
    store_txn_rollback_to(x, sp2);
    cr_assert_eq(count_sum(t, x, &sum), 20);
    cr_assert_eq(sum, 20);
    store_txn_rollback_to(x, sp);
    cr_assert_eq(count_sum(t, x, &sum), 4000, "row 7 stays deleted");
    cr_assert_eq(sum, 40000);
    cr_assert(has_key(t, x, 1, NULL));
    cr_assert_not(has_key(t, x, 7, NULL));
    EXPECT_ERROR("23505", store_table_append(t, x, acct_batch(8, 1, 1)));
    store_txn_commit(x);
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, &sum), 4000);

    /* TRUNCATE after a savepoint that is released; commit. */
    x = store_txn_begin();
    int sp3 = store_txn_savepoint(x);
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 10, 3000, 2);
    store_txn_release(x, sp3);
    store_txn_commit(x);
    cr_assert_eq(count_sum(t, NULL, &sum), 3000);
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, &sum), 3000);
    cr_assert_eq(sum, 6000);
}

/* CREATE TABLE, load and TRUNCATE in one transaction, then a crash. */
Test(truncate, table_created_in_same_transaction)
{
    StoreTxn *x = store_txn_begin();
    StoreTable *t = make_acct("acct");
    append_in(t, x, 1, 2500, 1);
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 1, 2100, 4);
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 5, 3, 5);
    store_txn_commit(x);
    int64_t sum;
    cr_assert_eq(count_sum(t, NULL, &sum), 3);
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, &sum), 3);
    cr_assert_eq(sum, 15);
    NO_ERROR(store_table_truncate(t, NULL));  /* its own transaction */
    cr_assert_eq(count_sum(t, NULL, NULL), 0);
    t = reopen();
    cr_assert_eq(count_sum(t, NULL, NULL), 0);
    load(t, 1, 10, 1);
    cr_assert_eq(count_sum(t, NULL, NULL), 10);
}

/* Another transaction's scan that begins while a TRUNCATE is pending
 * waits for its end, then sees the new generation. */
static StoreTable *shared_t;
static atomic_int scan_state;  /* 1 = started, 2 = done */
static uint64_t scan_rows;

static void *scanner(void *arg)
{
    (void)arg;
    StoreTxn *y = store_txn_begin();
    atomic_store(&scan_state, 1);
    int cols[] = {0};
    MemArena *a = mem_arena_create("scanner");
    StoreScan *s = store_scan_begin(shared_t, y, 1, cols, 0, NULL, a);
    Batch b = {0};
    uint64_t n = 0;
    while (store_scan_next(s, &b))
        n += b.count;
    store_scan_end(s);
    store_txn_commit(y);
    mem_arena_destroy(a);
    scan_rows = n;
    atomic_store(&scan_state, 2);
    return NULL;
}

Test(truncate, other_scans_wait_for_the_truncating_transaction)
{
    StoreTable *t = make_acct("acct");
    shared_t = t;
    load(t, 1, 3000, 1);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    append_in(t, x, 1, 7, 1);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, scanner, NULL), 0);
    while (atomic_load(&scan_state) == 0)
        usleep(1000);
    usleep(300 * 1000);
    cr_assert_eq(atomic_load(&scan_state), 1, "the scan waits");
    store_txn_commit(x);
    pthread_join(th, NULL);
    cr_assert_eq(scan_rows, 7);
}
