/*
 * test_storage_locks.c — lock_timeout and savepoint-scoped table locks at
 * the store's interface (storage/txn.c; the server-level behaviour, checked
 * against PostgreSQL 15, is tests/protocol/test_lock_waits.c).
 *
 * Two transactions on one thread: A holds a lock, B asks for it with
 * lock_timeout set, so a wait that should not happen ends in 55P03 instead
 * of hanging the test (A cannot end while B waits on the same thread).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <time.h>
#include "common/error.h"
#include "common/guc.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "locks"
#include "storage_fixture.h"

TestSuite(locks, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

#include "storage_acct.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A transaction whose session set lock_timeout = ms. */
static StoreTxn *begin_with_timeout(GucSet *g, int ms)
{
    char v[32];
    snprintf(v, sizeof v, "%d", ms);
    NO_ERROR(guc_set(g, "lock_timeout", v));
    StoreTxn *x = store_txn_begin();
    store_txn_set_settings(x, g);
    return x;
}

static uint64_t count_rows(StoreTable *t, StoreTxn *x)
{
    int cols[] = {0};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 1, cols, 0, NULL, arena));
    Batch b = {0};
    uint64_t n = 0;
    while (store_scan_next(s, &b))
        n += b.count;
    store_scan_end(s);
    return n;
}

Test(locks, lock_timeout_ends_a_write_lock_wait)
{
    StoreTable *t = make_acct("lk");
    GucSet *g = guc_session_create();
    StoreTxn *a = store_txn_begin();
    append_ok(t, a, acct_batch(1, 10, 0));
    StoreTxn *b = begin_with_timeout(g, 150);
    double t0 = now_s();
    /* Key 5, which a inserted: b waits for a (storage/delta.c). */
    EXPECT_ERROR_MSG("55P03", "canceling statement due to lock timeout",
                     store_table_append(t, b, acct_batch(5, 1, 0)));
    double secs = now_s() - t0;
    cr_assert(secs >= 0.13 && secs < 2.0, "waited %.3f s", secs);
    cr_assert_null(b->waiting_on);
    store_txn_rollback(b);
    store_txn_commit(a);
    /* Nothing held now: the same request goes through at once. */
    b = begin_with_timeout(g, 150);
    append_ok(t, b, acct_batch(100, 1, 0));
    store_txn_commit(b);
    cr_assert_eq(count_rows(t, NULL), 11);
    guc_session_destroy(g);
}

Test(locks, lock_timeout_ends_exclusive_and_transaction_waits)
{
    StoreTable *t = make_acct("lx");
    GucSet *g = guc_session_create();
    StoreTxn *a = store_txn_begin();
    cr_assert_eq(count_rows(t, a), 0);   /* A's lock on lx, to its end */
    StoreTxn *b = begin_with_timeout(g, 100);
    EXPECT_ERROR("55P03", store__truncate(t, b));
    store__lock();
    cr_assert(t->excl_txn == NULL && !t->dropping, "the timed out TRUNCATE left the queue");
    store__unlock();
    EXPECT_ERROR("55P03", store__txn_wait_txn(b, a, a->id));   /* roles, sequences, CREATE */
    store_txn_rollback(b);
    /* lock_timeout 0: no timeout — a wait for a transaction already ended returns. */
    b = begin_with_timeout(g, 0);
    uint64_t a_id = a->id;
    store_txn_commit(a);
    NO_ERROR(store__txn_wait_txn(b, a, a_id));
    store_txn_rollback(b);
    guc_session_destroy(g);
}

Test(locks, rollback_to_releases_references_made_after_the_savepoint)
{
    StoreTable *t = make_acct("ls");
    StoreTxn *a = store_txn_begin();
    int level = store_txn_savepoint(a);
    cr_assert_eq(count_rows(t, a), 0);
    cr_assert_eq(a->nrefs, 1);
    store_txn_rollback_to(a, level);
    cr_assert_eq(a->nrefs, 0);
    /* B (the thread's newest transaction: DROP's) drops at once. */
    GucSet *g = guc_session_create();
    StoreTxn *b = begin_with_timeout(g, 150);
    NO_ERROR(store_table_drop("public", "ls"));
    store_txn_commit(b);
    store_txn_rollback(a);
    guc_session_destroy(g);
}

Test(locks, release_hands_references_to_the_enclosing_level)
{
    StoreTable *t = make_acct("lr");
    StoreTxn *a = store_txn_begin();
    int l1 = store_txn_savepoint(a);
    cr_assert_eq(count_rows(t, a), 0);
    store_txn_release(a, l1);
    int l1b = store_txn_savepoint(a);   /* the same level number again */
    store_txn_rollback_to(a, l1b);
    cr_assert_eq(a->nrefs, 1, "the reference belongs to the transaction now");
    GucSet *g = guc_session_create();
    StoreTxn *b = begin_with_timeout(g, 100);
    EXPECT_ERROR("55P03", store_table_drop("public", "lr"));
    store_txn_rollback(b);
    /* Nested: released into s1, rolled back with s1. */
    int s1 = store_txn_savepoint(a);
    int s2 = store_txn_savepoint(a);
    StoreTable *t2 = make_acct("lr2");
    cr_assert_eq(count_rows(t2, a), 0);
    store_txn_release(a, s2);
    store_txn_rollback_to(a, s1);
    cr_assert_eq(a->nrefs, 1, "lr2's reference went with s1");
    store_txn_commit(a);
    guc_session_destroy(g);
}

Test(locks, rollback_to_ends_write_and_exclusive_locks_taken_after_it)
{
    StoreTable *t = make_acct("lw");
    StoreTxn *a = store_txn_begin();
    cr_assert_eq(count_rows(t, a), 0);   /* read before the savepoint */
    int level = store_txn_savepoint(a);
    append_ok(t, a, acct_batch(1, 5, 0));
    NO_ERROR(store_table_truncate(t, a));
    store__lock();
    cr_assert(t->writer == a && t->excl_txn == a);
    store__unlock();
    store_txn_rollback_to(a, level);
    store__lock();
    cr_assert(t->writer == NULL && t->excl_txn == NULL && t->trunc_txn == NULL);
    store__unlock();
    cr_assert_eq(a->nrefs, 1);
    cr_assert(!a->refs[0].writing, "the read lock stays, the write lock went");
    /* B reads and writes at once; its DROP would wait for A's read lock. */
    GucSet *g = guc_session_create();
    StoreTxn *b = begin_with_timeout(g, 100);
    cr_assert_eq(count_rows(t, b), 0);
    append_ok(t, b, acct_batch(10, 2, 0));
    EXPECT_ERROR("55P03", store_table_drop("public", "lw"));
    store_txn_rollback(b);
    /* A writes again: it takes the write lock anew. */
    append_ok(t, a, acct_batch(20, 3, 0));
    store_txn_commit(a);
    cr_assert_eq(count_rows(t, NULL), 3);
    guc_session_destroy(g);
}
