/*
 * test_storage_handoff.c — commit handoff (storage/txn.c "Commit handoff"):
 * once a commit's WAL record is written, its write locks pass on while it
 * waits for the flush; the next writer appends after its rows, does not
 * see them, and waits for their publication only where it meets their
 * marks (UPDATE/DELETE of a row the commit changed, INSERT of a key it
 * deleted) — and bulk/ON CONFLICT/VACUUM writers wait for it up front.
 * Also: the session's synchronous_commit decides whether a commit waits
 * for the WAL flush.
 *
 * The "committing" transaction c is stopped between its record and its
 * publication by calling store__txn_handoff(c, seq) by hand with the
 * sequence its commit will get; store_txn_commit(c) then finishes it. A
 * second transaction waits on another thread, or — on the same thread —
 * with lock_timeout set, so a wait shows as 55P03 instead of a hang.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "common/guc.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "handoff"
#include "storage_fixture.h"

TestSuite(handoff, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

#include "storage_acct.h"

static StoreTxn *begin_with_timeout(GucSet *g, int ms)
{
    char v[32];
    snprintf(v, sizeof v, "%d", ms);
    NO_ERROR(guc_set(g, "lock_timeout", v));
    StoreTxn *x = store_txn_begin();
    store_txn_set_settings(x, g);
    store_txn_statement_begin(x);
    return x;
}

/* Sum of bal and number of rows visible to x (x NULL: a fresh snapshot),
 * and whether id `want` is among them with balance *bal_of_want. */
typedef struct Seen {
    uint64_t rows;
    int64_t sum;
    bool found;
    int64_t bal;
} Seen;

static Seen scan_acct(StoreTable *t, StoreTxn *x, int64_t want)
{
    int cols[] = {0, 1};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 2, cols, 0, NULL, arena));
    Batch b = {0};
    Seen seen = {0};
    while (store_scan_next(s, &b))
        for (uint32_t i = 0; i < b.count; i++) {
            int64_t id = ((const int64_t *)b.cols[0].data)[i];
            int64_t bal = ((const int64_t *)b.cols[1].data)[i];
            seen.rows++;
            seen.sum += bal;
            if (id == want) {
                seen.found = true;
                seen.bal = bal;
            }
        }
    store_scan_end(s);
    return seen;
}

static uint64_t locate(StoreTable *t, StoreTxn *x, int64_t id)
{
    Value key = {.is_null = false};
    key.u.i64 = id;
    uint64_t row = UINT64_MAX;
    bool found = false;
    NO_ERROR(found = store_table_lookup_key(t, x, &key, &row));
    cr_assert(found, "id %lld not found", (long long)id);
    return row;
}

/* acct rows 1..10 with balance 100, committed. */
static StoreTable *ten_accounts(void)
{
    StoreTable *t = make_acct("ho");
    StoreTxn *a = store_txn_begin();
    append_ok(t, a, acct_batch(1, 10, 100));
    store_txn_commit(a);
    return t;
}

/* c: id 1 gets balance 111, id 2 deleted, id 11 inserted; its commit
 * passes t's lock on and stops before the flush. */
static StoreTxn *committing(StoreTable *t)
{
    StoreTxn *c = store_txn_begin();
    store_txn_statement_begin(c);
    uint64_t r1 = locate(t, c, 1), newest = 0;
    StoreWriteResult w = STORE_WRITE_GONE;
    NO_ERROR(w = store_row_update(t, c, r1, acct_batch(1, 1, 111), 0, &newest));
    cr_assert_eq(w, STORE_WRITE_OK);
    NO_ERROR(w = store_row_delete(t, c, locate(t, c, 2), &newest));
    cr_assert_eq(w, STORE_WRITE_OK);
    append_ok(t, c, acct_batch(11, 1, 100));
    store__delta_flush_all(c);  /* as its commit does first (delta.c) */
    store__txn_handoff(c, atomic_load(&store_g.visible_seq) + 1);
    cr_assert_null(t->writer, "the lock passed on");
    return c;
}

Test(handoff, next_writer_appends_at_once_and_does_not_see_the_committing_rows)
{
    StoreTable *t = ten_accounts();
    StoreTxn *c = committing(t);
    GucSet *g = guc_session_create();
    StoreTxn *b = begin_with_timeout(g, 100);   /* a wait would be 55P03 */
    append_ok(t, b, acct_batch(100, 1, 5));
    Seen s = scan_acct(t, b, 11);
    cr_assert_eq(s.rows, 11, "ids 1..10 as before c, and b's own 100: %llu",
                 (unsigned long long)s.rows);
    cr_assert_eq(s.sum, 1005);
    cr_assert(!s.found, "c's new row is not b's");
    /* b's own row through the index too: in its delta (delta.c) */
    cr_assert(locate(t, b, 100) & STORE_DELTA_ROW);
    store_txn_commit(c);
    /* Publication stopped at c's rows: b's stays unpublished. */
    s = scan_acct(t, NULL, 100);
    cr_assert(!s.found);
    cr_assert_eq(s.rows, 10);
    cr_assert_eq(s.sum, 111 + 8 * 100 + 100);   /* ids 1, 3..10, 11 */
    store_txn_commit(b);
    s = scan_acct(t, NULL, 100);
    cr_assert(s.found && s.rows == 11 && s.sum == 1011 + 5);
    /* Replayed in commit order, every row lands where it was. */
    uint64_t before = atomic_load(&t->committed);
    restart();
    t = store_table_lookup("public", "ho");
    cr_assert_not_null(t);
    cr_assert_eq(atomic_load(&t->committed), before);
    s = scan_acct(t, NULL, 1);
    cr_assert(s.found && s.bal == 111 && s.rows == 11 && s.sum == 1011 + 5);
    guc_session_destroy(g);
}

Test(handoff, a_rollback_behind_a_committing_one_keeps_its_rows)
{
    StoreTable *t = ten_accounts();
    StoreTxn *c = committing(t);
    GucSet *g = guc_session_create();
    StoreTxn *b = begin_with_timeout(g, 100);
    append_ok(t, b, acct_batch(100, 3, 5));
    store_txn_rollback(b);
    store_txn_commit(c);
    Seen s = scan_acct(t, NULL, 11);
    cr_assert(s.found && s.rows == 10 && s.sum == 1011, "rows %llu sum %lld",
              (unsigned long long)s.rows, (long long)s.sum);
    guc_session_destroy(g);
}

Test(handoff, meeting_the_committing_marks_waits_with_lock_timeout)
{
    StoreTable *t = ten_accounts();
    uint64_t r1 = locate(t, NULL, 1), r2 = locate(t, NULL, 2), r3 = locate(t, NULL, 3);
    StoreTxn *c = committing(t);
    GucSet *g = guc_session_create();
    uint64_t newest = 0;
    /* UPDATE of the row c updated, DELETE of the row c deleted, INSERT of
     * the key c deleted: each waits for c's publication (here: past
     * lock_timeout, as c cannot finish on this thread meanwhile). */
    StoreTxn *b = begin_with_timeout(g, 50);
    EXPECT_ERROR("55P03", store_row_update(t, b, r1, acct_batch(1, 1, 7), 0, &newest));
    store_txn_rollback(b);
    b = begin_with_timeout(g, 50);
    EXPECT_ERROR("55P03", store_row_delete(t, b, r2, &newest));
    store_txn_rollback(b);
    b = begin_with_timeout(g, 50);
    EXPECT_ERROR("55P03", store_table_append(t, b, acct_batch(2, 1, 7)));
    store_txn_rollback(b);
    /* ON CONFLICT's insert of the key c deleted waits for c; of a key c
     * inserted, for c's publication (it reads the conflicting row). */
    StoreConflicts *cf = malloc(sizeof *cf);
    b = begin_with_timeout(g, 50);
    EXPECT_ERROR("55P03", store_table_insert_or_conflict(t, b, acct_batch(2, 1, 7), cf));
    store_txn_rollback(b);
    b = begin_with_timeout(g, 50);
    EXPECT_ERROR("55P03", store_table_insert_or_conflict(t, b, acct_batch(11, 1, 7), cf));
    store_txn_rollback(b);
    free(cf);
    /* Rows c did not touch, a key c inserted: no wait. */
    b = begin_with_timeout(g, 50);
    StoreWriteResult w = STORE_WRITE_GONE;
    NO_ERROR(w = store_row_update(t, b, r3, acct_batch(3, 1, 7), 0, &newest));
    cr_assert_eq(w, STORE_WRITE_OK);
    EXPECT_ERROR("23505", store_table_append(t, b, acct_batch(11, 1, 7)));
    store_txn_rollback(b);
    b = begin_with_timeout(g, 50);  /* its snapshot from before c's publication */
    store_txn_commit(c);
    /* Published: the same requests go through, READ COMMITTED following
     * c's new version. */
    NO_ERROR(w = store_row_update(t, b, r1, acct_batch(1, 1, 7), 0, &newest));
    cr_assert_eq(w, STORE_WRITE_MOVED);
    cr_assert_eq(newest, locate(t, NULL, 1));
    NO_ERROR(w = store_row_delete(t, b, r2, &newest));
    cr_assert_eq(w, STORE_WRITE_GONE);
    append_ok(t, b, acct_batch(2, 1, 7));
    store_txn_commit(b);
    guc_session_destroy(g);
}

/* ---- the wait ends when the committing transaction publishes ---- */

typedef struct Waiter {
    StoreTable *t;
    uint64_t row;
    atomic_int phase;          /* 1: started, 2: done */
    StoreWriteResult result;
    uint64_t newest;
    bool raised;
} Waiter;

static void *update_row(void *arg)
{
    Waiter *w = arg;
    StoreTxn *b = store_txn_begin();
    store_txn_statement_begin(b);
    atomic_store(&w->phase, 1);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        SqlType types[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT)};
        MemArena *a = mem_arena_create("waiter");
        Batch *v = batch_create(a, 3, types);
        Value x = {.is_null = false};
        x.u.i64 = 1;
        vec_set_value(&v->cols[0], 0, &x);
        x.u.i64 = 7;
        vec_set_value(&v->cols[1], 0, &x);
        vec_set_null(&v->cols[2], 0);
        v->count = 1;
        w->result = store_row_update(w->t, b, w->row, v, 0, &w->newest);
        err_pop(&jmp);
        mem_arena_destroy(a);
    } else {
        w->raised = true;
        err_clear();
    }
    store_txn_rollback(b);
    atomic_store(&w->phase, 2);
    return NULL;
}

Test(handoff, a_waiting_update_goes_on_once_the_commit_is_published)
{
    StoreTable *t = ten_accounts();
    Waiter w = {.t = t, .row = locate(t, NULL, 1)};
    StoreTxn *c = committing(t);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, update_row, &w), 0);
    while (atomic_load(&w.phase) == 0)
        usleep(1000);
    usleep(150 * 1000);
    cr_assert_eq(atomic_load(&w.phase), 1, "the update waits for c");
    store_txn_commit(c);
    pthread_join(th, NULL);
    cr_assert(!w.raised);
    cr_assert_eq(w.result, STORE_WRITE_MOVED);
    cr_assert_eq(w.newest, locate(t, NULL, 1));
}

/* ---- synchronous_commit ---- */

static void commit_one(StoreTable *t, GucSet *g, int64_t id)
{
    StoreTxn *x = store_txn_begin();
    store_txn_set_settings(x, g);
    append_ok(t, x, acct_batch(id, 1, 0));
    store_txn_commit(x);
}

Test(handoff, the_sessions_synchronous_commit_decides_the_flush)
{
    StoreTable *t = make_acct("sc");
    GucSet *g = guc_session_create();
    uint64_t f0 = store__wal_fsyncs();
    commit_one(t, g, 1);
    cr_assert_eq(store__wal_fsyncs(), f0 + 1, "on (the default): flushed");
    NO_ERROR(guc_set(g, "synchronous_commit", "off"));
    uint64_t f1 = store__wal_fsyncs();
    commit_one(t, g, 2);
    commit_one(t, g, 3);
    uint64_t f2 = store__wal_fsyncs();
    cr_assert_leq(f2, f1 + 1, "off: not flushed per commit (%llu fsyncs for 2)",
                  (unsigned long long)(f2 - f1));
    /* ...but the checkpointer's WAL writer flushes within a few hundred ms. */
    for (int i = 0; i < 100 && store__wal_fsyncs() == f2 && f2 == f1; i++)
        usleep(20 * 1000);
    cr_assert_gt(store__wal_fsyncs(), f1);
    NO_ERROR(guc_set(g, "synchronous_commit", "local"));
    uint64_t f3 = store__wal_fsyncs();
    commit_one(t, g, 4);
    cr_assert_eq(store__wal_fsyncs(), f3 + 1, "local: flushed");
    guc_session_destroy(g);
}
