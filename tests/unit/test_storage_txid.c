/*
 * test_storage_txid.c — transaction ids never go backwards (storage/control.c):
 * after a clean restart, after SIGKILL with and without a checkpoint (also
 * when the last transactions wrote nothing, so no WAL record holds their
 * ids), across the reservation of a new block, from concurrent threads;
 * MVCC (uncommitted marks, snapshots, recovery's stamps) with ids far from
 * 1; a `control` file written before the xid line existed.
 *
 * "Restart" is store_close + store_open (store_close resets the in-process
 * counter, so the next open starts from the file as a new process would);
 * "SIGKILL" runs the transactions in a forked child that kills itself.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "txid"
#include "storage_fixture.h"

TestSuite(txid, .init = storage_setup, .fini = storage_teardown, .timeout = 120);

#include "storage_acct.h"

/* The id of a new, read-only transaction (begun and committed). */
static uint64_t next_id(void)
{
    StoreTxn *x = store_txn_begin();
    uint64_t id = store_txn_id(x);
    store_txn_commit(x);
    return id;
}

/* Rows visible to x and the sum of their bal. */
static uint64_t count_sum(StoreTable *t, StoreTxn *x, int64_t *sum)
{
    int cols[] = {1};
    StoreScan *s = store_scan_begin(t, x, 1, cols, 0, NULL, arena);
    Batch b = {0};
    uint64_t n = 0;
    int64_t total = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t i = 0; i < b.count; i++)
            total += ((int64_t *)b.cols[0].data)[i];
        n += b.count;
    }
    store_scan_end(s);
    *sum = total;
    return n;
}

static void write_control(const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/control", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* The xid floor in `control` (0 when the line is missing). */
static uint64_t control_xid(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/control", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    unsigned long long gen = 0, xid = 0;
    int ok = fscanf(f, "strata control 1\ngen %llu\nxid %llu", &gen, &xid);
    fclose(f);
    cr_assert_geq(ok, 1);
    return ok == 2 ? xid : 0;
}

Test(txid, clean_restart_continues_past_the_last_id)
{
    StoreTable *t = make_acct("acct");
    StoreTxn *x = store_txn_begin();
    append_ok(t, x, acct_batch(1, 100, 5));
    store_txn_commit(x);
    uint64_t last = 0;
    for (int i = 0; i < 1000; i++)
        last = next_id();
    restart();
    cr_assert_eq(control_xid() > last, true, "control names a floor past %llu",
                 (unsigned long long)last);
    uint64_t first = next_id();
    cr_assert_gt(first, last, "after restart %llu, before %llu", (unsigned long long)first,
                 (unsigned long long)last);
    /* A clean stop writes the exact floor: the restart continues within
     * the replayed transactions' few ids, not a whole block later. */
    cr_assert_lt(first, last + 100, "after restart %llu, before %llu", (unsigned long long)first,
                 (unsigned long long)last);
    /* Twice more, with a checkpoint in between. */
    NO_ERROR(store_checkpoint());
    last = next_id();
    restart();
    cr_assert_gt(next_id(), last);
    restart();
    cr_assert_gt(next_id(), last);
}

/* In a child: open, `work` transactions (every 5th inserts a row; the last
 * `ro_tail` write nothing), a checkpoint first when asked; the ids go up
 * the pipe; then SIGKILL. */
static void child_run(int fd, int work, int ro_tail, bool checkpoint)
{
    NO_ERROR(store_open(dir));
    StoreTable *t = store_table_lookup("public", "acct");
    if (checkpoint)
        NO_ERROR(store_checkpoint());
    for (int i = 0; i < work + ro_tail; i++) {
        StoreTxn *x = store_txn_begin();
        uint64_t id = store_txn_id(x);
        if (i < work && i % 5 == 0)
            append_ok(t, x, acct_batch(1000000 + i, 1, 1));
        store_txn_commit(x);
        mem_arena_reset(arena);
        if (write(fd, &id, sizeof id) != sizeof id)
            _exit(1);
    }
    kill(getpid(), SIGKILL);
    _exit(2);
}

/* The largest id the killed child reported. */
static uint64_t run_killed_child(int work, int ro_tail, bool checkpoint)
{
    store_close();
    int p[2];
    cr_assert_eq(pipe(p), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(p[0]);
        child_run(p[1], work, ro_tail, checkpoint);
    }
    close(p[1]);
    uint64_t id, last = 0, n = 0;
    while (read(p[0], &id, sizeof id) == sizeof id) {
        cr_assert_gt(id, last, "ids increase within a run");
        last = id;
        n++;
    }
    close(p[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child was killed");
    cr_assert_eq(n, (uint64_t)(work + ro_tail));
    open_store();
    return last;
}

Test(txid, sigkill_without_checkpoint)
{
    StoreTable *t = make_acct("acct");
    (void)t;
    uint64_t before = next_id();
    /* 40,000 ids: past the first reserved block (32,768), read-only last. */
    uint64_t last = run_killed_child(1000, 39000, false);
    cr_assert_gt(last, before);
    uint64_t after = next_id();
    cr_assert_gt(after, last, "after SIGKILL %llu, before %llu", (unsigned long long)after,
                 (unsigned long long)last);
    int64_t sum;
    t = store_table_lookup("public", "acct");
    cr_assert_eq(count_sum(t, NULL, &sum), 200, "every 5th of 1000 committed a row");
    /* Again, the child's transactions all read-only: nothing in the WAL. */
    last = run_killed_child(0, 50, false);
    after = next_id();
    cr_assert_gt(after, last, "after SIGKILL %llu, before %llu", (unsigned long long)after,
                 (unsigned long long)last);
}

Test(txid, sigkill_after_checkpoint)
{
    StoreTable *t = make_acct("acct");
    StoreTxn *x = store_txn_begin();
    append_ok(t, x, acct_batch(1, 10, 5));
    store_txn_commit(x);
    uint64_t last = run_killed_child(500, 500, true);
    cr_assert_geq(control_xid(), last, "the checkpoint wrote the floor");
    uint64_t after = next_id();
    cr_assert_gt(after, last, "after SIGKILL %llu, before %llu", (unsigned long long)after,
                 (unsigned long long)last);
    int64_t sum;
    t = store_table_lookup("public", "acct");
    cr_assert_eq(count_sum(t, NULL, &sum), 110);
    cr_assert_eq(sum, 10 * 5 + 100);
}

/* `control` as written before the xid line: accepted, ids start past the
 * replayed transactions. */
Test(txid, old_control_file_without_xid)
{
    StoreTable *t = make_acct("acct");
    StoreTxn *x = store_txn_begin();
    append_ok(t, x, acct_batch(1, 10, 5));
    store_txn_commit(x);
    store_close();
    write_control("strata control 1\ngen 1\n");
    open_store();
    t = store_table_lookup("public", "acct");
    int64_t sum;
    cr_assert_eq(count_sum(t, NULL, &sum), 10);
    uint64_t id = next_id();
    cr_assert_gt(id, 0);
    cr_assert_gt(control_xid(), id, "the first block is reserved at once");
}

/* Ids near 2^40 (a long-lived database): uncommitted inserts and deletes
 * stay invisible to others, REPEATABLE READ snapshots hold, a crash drops
 * the uncommitted work and recovery stamps the committed rows right. */
Test(txid, mvcc_with_large_ids)
{
    StoreTable *t = make_acct("acct");
    StoreTxn *x = store_txn_begin();
    append_ok(t, x, acct_batch(1, 2000, 2));
    append_ok(t, x, acct_batch(2001, 1000, 2));
    store_txn_commit(x);
    store_close();
    uint64_t base = UINT64_C(1) << 40;
    char text[128];
    snprintf(text, sizeof text, "strata control 1\ngen 1\nxid %llu\n", (unsigned long long)base);
    write_control(text);
    open_store();
    t = store_table_lookup("public", "acct");
    cr_assert_geq(next_id(), base);

    StoreTxn *rr = store_txn_begin();
    store_txn_set_isolation(rr, STORE_REPEATABLE_READ);
    store_txn_statement_begin(rr);
    int64_t sum;
    cr_assert_eq(count_sum(t, rr, &sum), 3000);

    StoreTxn *w = store_txn_begin();
    cr_assert_geq(store_txn_id(w), base);
    append_ok(t, w, acct_batch(5001, 100, 7));
    Value k = {.is_null = false};
    k.u.i64 = 10;
    uint64_t row = 0, nw;
    cr_assert(store_table_lookup_key(t, w, &k, &row));
    cr_assert_eq(store_row_delete(t, w, row, &nw), STORE_WRITE_OK);
    cr_assert_eq(count_sum(t, w, &sum), 3099, "the writer sees its own work");
    cr_assert_eq(count_sum(t, NULL, &sum), 3000, "others do not");
    cr_assert_eq(sum, 6000);
    store_txn_commit(w);
    cr_assert_eq(count_sum(t, NULL, &sum), 3099);
    cr_assert_eq(sum, 6000 - 2 + 700);
    cr_assert_eq(count_sum(t, rr, &sum), 3000, "the older snapshot");
    cr_assert_eq(sum, 6000);
    store_txn_commit(rr);

    x = store_txn_begin();  /* never committed */
    append_ok(t, x, acct_batch(9001, 5, 1));
    k.u.i64 = 11;
    cr_assert(store_table_lookup_key(t, x, &k, &row));
    cr_assert_eq(store_row_delete(t, x, row, &nw), STORE_WRITE_OK);
    uint64_t last = store_txn_id(x);
    restart();
    t = store_table_lookup("public", "acct");
    cr_assert_gt(next_id(), last);
    cr_assert_eq(count_sum(t, NULL, &sum), 3099);
    cr_assert_eq(sum, 6000 - 2 + 700);
    rr = store_txn_begin();
    store_txn_set_isolation(rr, STORE_REPEATABLE_READ);
    store_txn_statement_begin(rr);
    cr_assert_eq(count_sum(t, rr, &sum), 3099);
    w = store_txn_begin();
    k.u.i64 = 12;
    cr_assert(store_table_lookup_key(t, w, &k, &row));
    cr_assert_eq(store_row_delete(t, w, row, &nw), STORE_WRITE_OK);
    store_txn_commit(w);
    cr_assert_eq(count_sum(t, rr, &sum), 3099, "a snapshot after the restart holds");
    cr_assert_eq(count_sum(t, NULL, &sum), 3098);
    store_txn_commit(rr);
    NO_ERROR(store_checkpoint());
    restart();
    t = store_table_lookup("public", "acct");
    cr_assert_eq(count_sum(t, NULL, &sum), 3098);
    cr_assert_eq(sum, 6000 - 4 + 700);
    cr_assert_gt(next_id(), last);
}

/* Four threads begin 20,000 transactions each, crossing blocks: every id
 * unique, and each below the durable limit when handed out. */
#define THREADS 4
#define PER_THREAD 20000
static uint64_t ids[THREADS][PER_THREAD];
static _Atomic int over_limit;

static void *begin_many(void *arg)
{
    uint64_t *out = arg;
    for (int i = 0; i < PER_THREAD; i++) {
        StoreTxn *x = store_txn_begin();
        out[i] = store_txn_id(x);
        if (out[i] >= store__txn_id_limit())
            over_limit++;
        store_txn_commit(x);
    }
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

Test(txid, concurrent_begins_unique_and_covered)
{
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        cr_assert_eq(pthread_create(&th[i], NULL, begin_many, ids[i]), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    cr_assert_eq(over_limit, 0, "an id was handed out past the durable limit");
    uint64_t *all = &ids[0][0];
    qsort(all, THREADS * PER_THREAD, sizeof *all, cmp_u64);
    for (int i = 1; i < THREADS * PER_THREAD; i++)
        cr_assert_neq(all[i], all[i - 1], "id %llu twice", (unsigned long long)all[i]);
    cr_assert_gt(control_xid(), all[THREADS * PER_THREAD - 1]);
    uint64_t last = all[THREADS * PER_THREAD - 1];
    restart();
    cr_assert_gt(next_id(), last);
}
