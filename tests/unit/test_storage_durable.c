/*
 * test_storage_durable.c — unit tests of the durable store (issue 3): WAL,
 * recovery and checkpoints, torn tails and corruption (XX001), MVCC
 * snapshots and write conflicts (40001, EvalPlanQual-style MOVED), UPDATE
 * and DELETE by locator, savepoints, transactional DDL, databases and
 * schemas, roles, group commit, point lookups and ANALYZE.
 *
 * Each test runs in its own process (Criterion) on a fresh data directory;
 * "restart" is store_close + store_open on the same directory.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#include "storage/storage.h"

/* Internal counters of storage/wal.c (not in storage.h: tests only). */
uint64_t store__wal_fsyncs(void);
uint64_t store__wal_commits(void);

#define STORAGE_FIXTURE_TAG "durable"
#include "storage_fixture.h"

TestSuite(durable, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

#include "storage_acct.h"

static void load(StoreTable *t, int64_t first, uint32_t n, int64_t bal)
{
    StoreTxn *x = store_txn_begin();
    for (uint32_t done = 0; done < n; done += 1000) {
        uint32_t k = n - done < 1000 ? n - done : 1000;
        append_ok(t, x, acct_batch(first + done, k, bal));
    }
    store_txn_commit(x);
}

/* Visible rows and sum of bal as seen by x (NULL: latest committed). */
static uint64_t count_sum(StoreTable *t, StoreTxn *x, int64_t *sum)
{
    int cols[] = {1, 2, 0};
    StoreScan *s = store_scan_begin(t, x, 3, cols, 0, NULL, arena);
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

static uint64_t rowid_of(StoreTable *t, StoreTxn *x, int64_t id)
{
    Value k = {.is_null = false};
    k.u.i64 = id;
    uint64_t r = 0;
    bool found = false;
    NO_ERROR(found = store_table_lookup_key(t, x, &k, &r));
    cr_assert(found, "key %lld not found", (long long)id);
    return r;
}

static int64_t bal_of(StoreTable *t, StoreTxn *x, uint64_t rowid)
{
    SqlType ty[] = {SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(arena, 1, ty);
    int cols[] = {1};
    cr_assert(store_row_fetch(t, x, rowid, 1, cols, b));
    return ((int64_t *)b->cols[0].data)[0];
}

/* Update row `rowid` (key id) to bal; returns the result. */
static StoreWriteResult set_bal(StoreTable *t, StoreTxn *x, uint64_t rowid, int64_t id,
                                int64_t bal, uint64_t *newest)
{
    Batch *b = acct_batch(id, 1, bal);
    return store_row_update(t, x, rowid, b, 0, newest);
}

/* ---- durability ---- */

Test(durable, restart_keeps_committed_rows_only)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 5000, 10);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_append(t, x, acct_batch(9000, 10, 1)));
    store_txn_rollback(x);
    x = store_txn_begin();
    uint64_t nw;
    cr_assert_eq(store_row_delete(t, x, rowid_of(t, x, 7), &nw), STORE_WRITE_OK);
    cr_assert_eq(set_bal(t, x, rowid_of(t, x, 8), 8, 1000, &nw), STORE_WRITE_OK);
    store_txn_commit(x);
    x = store_txn_begin();  /* left open: never committed */
    NO_ERROR(store_table_append(t, x, acct_batch(20000, 5, 1)));
    (void)x;
    restart();
    t = store_table_lookup("public", "acct");
    cr_assert_not_null(t);
    int64_t sum;
    cr_assert_eq(count_sum(t, NULL, &sum), 4999);
    cr_assert_eq(sum, 4998 * 10 + 1000);
    cr_assert_eq(bal_of(t, NULL, rowid_of(t, NULL, 8)), 1000);
    Value k = {.is_null = false};
    k.u.i64 = 7;
    uint64_t r;
    cr_assert_not(store_table_lookup_key(t, NULL, &k, &r));
    /* The key of a deleted row can be inserted again. */
    NO_ERROR(store_table_append(t, NULL, acct_batch(7, 1, 70)));
    EXPECT_ERROR("23505", store_table_append(t, NULL, acct_batch(8, 1, 1)));
}

Test(durable, checkpoint_trims_wal_and_recovers)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 3000, 5);
    NO_ERROR(store_checkpoint());
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/wal/1.wal", dir);
    cr_assert_neq(stat(path, &st), 0, "the old WAL is removed");
    snprintf(path, sizeof path, "%s/wal/2.wal", dir);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_size, 0);
    load(t, 5001, 100, 7);
    StoreTxn *x = store_txn_begin();
    uint64_t nw;
    cr_assert_eq(store_row_delete(t, x, rowid_of(t, x, 3), &nw), STORE_WRITE_OK);
    store_txn_commit(x);
    NO_ERROR(store_checkpoint());
    load(t, 6001, 10, 1);
    restart();
    t = store_table_lookup("public", "acct");
    int64_t sum;
    cr_assert_eq(count_sum(t, NULL, &sum), 3109);
    cr_assert_eq(sum, 2999 * 5 + 100 * 7 + 10);
    restart();  /* recovery itself leaves a valid directory */
    t = store_table_lookup("public", "acct");
    cr_assert_eq(count_sum(t, NULL, NULL), 3109);
}

Test(durable, torn_tail_is_truncated)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 100, 1);
    store_close();
    char path[512];
    snprintf(path, sizeof path, "%s/wal/1.wal", dir);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    off_t good = st.st_size;
    /* A record cut short by a crash: a header announcing more than is there. */
    int fd = open(path, O_WRONLY | O_APPEND);
    uint8_t junk[40] = {0};
    uint32_t len = 1000, nlen = ~len;
    memcpy(junk + 4, &len, 4);
    memcpy(junk + 8, &nlen, 4);
    junk[12] = 3;
    cr_assert_eq(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
    close(fd);
    open_store();
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_size, good, "torn tail truncated");
    t = store_table_lookup("public", "acct");
    cr_assert_eq(count_sum(t, NULL, NULL), 100);
    load(t, 101, 1, 1);
    restart();
    cr_assert_eq(count_sum(store_table_lookup("public", "acct"), NULL, NULL), 101);
}

static void flip_byte(const char *path, off_t at)
{
    int fd = open(path, O_RDWR);
    cr_assert(fd >= 0);
    uint8_t c;
    cr_assert_eq(pread(fd, &c, 1, at), 1);
    c ^= 0x40;
    cr_assert_eq(pwrite(fd, &c, 1, at), 1);
    close(fd);
}

Test(durable, flipped_wal_byte_is_xx001)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 100, 1);
    load(t, 101, 100, 1);
    store_close();
    char path[512];
    snprintf(path, sizeof path, "%s/wal/1.wal", dir);
    flip_byte(path, 200);  /* inside the first transaction's rows */
    EXPECT_ERROR("XX001", store_open(dir));
    cr_assert(strstr(last_err.message, path) != NULL, "message names the file: %s", last_err.message);
    flip_byte(path, 200);
    open_store();
    cr_assert_eq(count_sum(store_table_lookup("public", "acct"), NULL, NULL), 200);
}

Test(durable, flipped_checkpoint_byte_is_xx001)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 3000, 1);
    uint32_t oid = store_table_oid(t);
    NO_ERROR(store_checkpoint());
    store_close();
    char path[512], run[512];
    snprintf(path, sizeof path, "%s/checkpoint/2.ckpt", dir);
    snprintf(run, sizeof run, "%s/checkpoint/2.%u.run", dir, oid);
    flip_byte(path, 20);
    EXPECT_ERROR("XX001", store_open(dir));
    cr_assert(strstr(last_err.message, path) != NULL, "message names the file: %s", last_err.message);
    flip_byte(path, 20);
    struct stat st;
    cr_assert_eq(stat(run, &st), 0);
    off_t at = st.st_size - 300;  /* the table's rows (the bloom filter comes first) */
    flip_byte(run, at);
    EXPECT_ERROR("XX001", store_open(dir));
    cr_assert(strstr(last_err.message, run) != NULL, "message names the run: %s", last_err.message);
    flip_byte(run, at);
    /* inside the first row group's bloom filter (header 16 bytes, block head
     * 16, k 4, then the filter bits): found when the run is opened */
    flip_byte(run, 100);
    EXPECT_ERROR("XX001", store_open(dir));
    cr_assert(strstr(last_err.message, run) != NULL, "message names the run: %s", last_err.message);
    flip_byte(run, 100);
    open_store();
    cr_assert_eq(count_sum(store_table_lookup("public", "acct"), NULL, NULL), 3000);
}

/* ---- MVCC ---- */

Test(durable, snapshots_per_statement_and_per_transaction)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 10, 100);
    StoreTxn *rc = store_txn_begin();
    StoreTxn *rr = store_txn_begin();
    NO_ERROR(store_txn_set_isolation(rr, STORE_REPEATABLE_READ));
    store_txn_statement_begin(rc);
    store_txn_statement_begin(rr);
    int64_t s1, s2;
    count_sum(t, rr, &s1);
    cr_assert_eq(s1, 1000);
    StoreTxn *w = store_txn_begin();
    uint64_t nw;
    cr_assert_eq(set_bal(t, w, rowid_of(t, w, 1), 1, 50, &nw), STORE_WRITE_OK);
    NO_ERROR(store_table_append(t, w, acct_batch(11, 1, 7)));
    /* Uncommitted: nobody else sees it; the writer does. */
    count_sum(t, rc, &s2);
    cr_assert_eq(s2, 1000);
    cr_assert_eq(count_sum(t, w, &s2), 11);
    cr_assert_eq(s2, 1000 - 50 + 7);
    store_txn_commit(w);
    store_txn_statement_begin(rc);
    store_txn_statement_begin(rr);
    cr_assert_eq(count_sum(t, rc, &s2), 11);
    cr_assert_eq(s2, 957);
    cr_assert_eq(count_sum(t, rr, &s1), 10);
    cr_assert_eq(s1, 1000, "REPEATABLE READ keeps its snapshot");
    EXPECT_ERROR("25001", store_txn_set_isolation(rr, STORE_READ_COMMITTED));
    store_txn_commit(rc);
    store_txn_commit(rr);
}

typedef struct Writer {
    StoreTable *t;
    StoreIsolation iso;
    _Atomic int stage;
    StoreWriteResult result;
    uint64_t newest;
    char sqlstate[6];
    int64_t seen_bal;
} Writer;

static void *second_writer(void *p)
{
    Writer *w = p;
    StoreTxn *x = store_txn_begin();
    store_txn_set_isolation(x, w->iso);
    store_txn_statement_begin(x);
    uint64_t r = rowid_of(w->t, x, 1);  /* the snapshot: before the first writer commits */
    atomic_store(&w->stage, 1);
    while (atomic_load(&w->stage) < 2)
        usleep(1000);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        w->result = set_bal(w->t, x, r, 1, 1, &w->newest);  /* waits for the first writer */
        if (w->result == STORE_WRITE_MOVED) {
            w->seen_bal = bal_of(w->t, x, w->newest);
            w->result = set_bal(w->t, x, w->newest, 1, w->seen_bal + 1, &w->newest);
        }
        err_pop(&jmp);
        store_txn_commit(x);
    } else {
        snprintf(w->sqlstate, sizeof w->sqlstate, "%s", err_current()->sqlstate);
        err_clear();
        store_txn_rollback(x);
    }
    atomic_store(&w->stage, 3);
    return NULL;
}

static void two_writers(StoreIsolation iso, Writer *w)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 3, 100);
    *w = (Writer){.t = t, .iso = iso};
    pthread_t th;
    pthread_create(&th, NULL, second_writer, w);
    while (atomic_load(&w->stage) < 1)
        usleep(1000);
    StoreTxn *x = store_txn_begin();
    store_txn_set_isolation(x, iso);
    store_txn_statement_begin(x);
    uint64_t nw;
    cr_assert_eq(set_bal(t, x, rowid_of(t, x, 1), 1, 500, &nw), STORE_WRITE_OK);
    atomic_store(&w->stage, 2);
    usleep(100 * 1000);
    cr_assert_eq(atomic_load(&w->stage), 2, "the second writer waits for the first");
    store_txn_commit(x);
    pthread_join(th, NULL);
}

Test(durable, repeatable_read_write_conflict_is_40001)
{
    Writer w;
    two_writers(STORE_REPEATABLE_READ, &w);
    cr_assert_str_eq(w.sqlstate, "40001");
    cr_assert_eq(bal_of(w.t, NULL, rowid_of(w.t, NULL, 1)), 500);
}

Test(durable, read_committed_update_follows_newest_version)
{
    Writer w;
    two_writers(STORE_READ_COMMITTED, &w);
    cr_assert_str_eq(w.sqlstate, "");
    cr_assert_eq(w.seen_bal, 500, "re-read the committed newest version");
    cr_assert_eq(w.result, STORE_WRITE_OK);
    cr_assert_eq(bal_of(w.t, NULL, rowid_of(w.t, NULL, 1)), 501);
    int64_t sum;
    cr_assert_eq(count_sum(w.t, NULL, &sum), 3);
    cr_assert_eq(sum, 701);
}

Test(durable, delete_twice_and_rowid_column)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 3000, 1);
    StoreTxn *x = store_txn_begin();
    int cols[] = {STORE_COL_ROWID, 0};
    StoreScan *s = store_scan_begin(t, x, 2, cols, 0, NULL, arena);
    Batch b = {0};
    uint64_t n = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t i = 0; i < b.count; i++) {
            int64_t id = ((int64_t *)b.cols[1].data)[i];
            if (id % 2 == 0) {
                uint64_t nw;
                cr_assert_eq(store_row_delete(t, x, (uint64_t)((int64_t *)b.cols[0].data)[i], &nw),
                             STORE_WRITE_OK);
                n++;
            }
        }
    }
    store_scan_end(s);
    cr_assert_eq(n, 1500);
    uint64_t nw;
    cr_assert_eq(store_row_delete(t, x, rowid_of(t, NULL, 2), &nw), STORE_WRITE_GONE);
    cr_assert_eq(count_sum(t, x, NULL), 1500);
    cr_assert_eq(count_sum(t, NULL, NULL), 3000, "others still see every row");
    store_txn_commit(x);
    cr_assert_eq(count_sum(t, NULL, NULL), 1500);
    NO_ERROR(store_table_truncate(t, NULL));
    cr_assert_eq(count_sum(t, NULL, NULL), 0);
    restart();
    cr_assert_eq(count_sum(store_table_lookup("public", "acct"), NULL, NULL), 0);
}

Test(durable, savepoints_undo_inserts_and_deletes)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 10, 1);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_append(t, x, acct_batch(11, 5, 1)));
    int sp = store_txn_savepoint(x);
    uint64_t nw;
    cr_assert_eq(store_row_delete(t, x, rowid_of(t, x, 1), &nw), STORE_WRITE_OK);
    cr_assert_eq(set_bal(t, x, rowid_of(t, x, 2), 2, 99, &nw), STORE_WRITE_OK);
    NO_ERROR(store_table_append(t, x, acct_batch(20, 5, 1)));
    cr_assert_eq(count_sum(t, x, NULL), 19);
    store_txn_rollback_to(x, sp);
    int64_t sum;
    cr_assert_eq(count_sum(t, x, &sum), 15);
    cr_assert_eq(sum, 15);
    cr_assert_eq(bal_of(t, x, rowid_of(t, x, 2)), 1);
    /* The savepoint stays after ROLLBACK TO; keys restored. */
    EXPECT_ERROR("23505", store_table_append(t, x, acct_batch(1, 1, 1)));
    store_txn_rollback_to(x, sp);
    NO_ERROR(store_table_append(t, x, acct_batch(30, 1, 1)));
    store_txn_release(x, sp);
    store_txn_commit(x);
    restart();
    t = store_table_lookup("public", "acct");
    cr_assert_eq(count_sum(t, NULL, &sum), 16);
    cr_assert_eq(sum, 16);
}

/* ---- transactional DDL, databases, schemas, roles ---- */

Test(durable, ddl_rolls_back)
{
    StoreTable *keep = make_acct("keep");
    load(keep, 1, 5, 1);
    StoreTxn *x = store_txn_begin();
    StoreTable *t = make_acct("fresh");
    NO_ERROR(store_table_append(t, x, acct_batch(1, 3, 1)));
    NO_ERROR(store_table_drop("public", "keep"));
    cr_assert_null(store_table_lookup("public", "keep"));
    store_txn_rollback(x);
    cr_assert_null(store_table_lookup("public", "fresh"));
    keep = store_table_lookup("public", "keep");
    cr_assert_not_null(keep);
    cr_assert_eq(count_sum(keep, NULL, NULL), 5);
    x = store_txn_begin();
    NO_ERROR(store_table_drop("public", "keep"));
    store_txn_commit(x);
    cr_assert_null(store_table_lookup("public", "keep"));
    restart();
    cr_assert_null(store_table_lookup("public", "keep"));
    cr_assert_null(store_table_lookup("public", "fresh"));
}

/* Views are catalog entries: durable (WAL, checkpoint, crash), transactional,
 * in the tables' namespace, and never returned by store_table_lookup. */
Test(durable, views_survive_restart_and_roll_back)
{
    StoreColumnDef cols[2] = {{.name = "a", .type = SQLTYPE(TYPE_INT4)},
                              {.name = "b", .type = SQLTYPE(TYPE_TEXT)}};
    NO_ERROR(store_view_create("public", "v", 2, cols, "SELECT 1 AS a, 'x' AS b"));
    cr_assert_null(store_table_lookup("public", "v"));
    EXPECT_ERROR("42P07", store_table_create("public", "v", 2, cols, 0, NULL));
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_view_create("public", "gone", 2, cols, "SELECT 2, 'y'"));
    NO_ERROR(store_view_drop("public", "v"));
    cr_assert_null(store_view_lookup("public", "v"));
    store_txn_rollback(x);
    cr_assert_null(store_view_lookup("public", "gone"));
    restart();
    StoreTable *v = store_view_lookup("public", "v");
    cr_assert_not_null(v);
    cr_assert_str_eq(store_view_sql(v), "SELECT 1 AS a, 'x' AS b");
    cr_assert_eq(store_table_ncols(v), 2);
    cr_assert_str_eq(store_table_column(v, 1)->name, "b");
    NO_ERROR(store_checkpoint());
    restart();
    cr_assert_not_null(store_view_lookup("public", "v"));
    NO_ERROR(store_view_drop("public", "v"));
    restart();
    cr_assert_null(store_view_lookup("public", "v"));
    EXPECT_ERROR("42P01", store_view_drop("public", "v"));
}

Test(durable, databases_and_schemas_survive_restart)
{
    uint32_t oid = 0;
    NO_ERROR(oid = store_database_create("shop", "postgres"));
    cr_assert_eq(store_database_oid("shop"), oid);
    EXPECT_ERROR("42P04", store_database_create("shop", NULL));
    EXPECT_ERROR("3D000", store_session_set_database("nope"));
    NO_ERROR(store_session_set_database("shop"));
    cr_assert_str_eq(store_session_database(), "shop");
    NO_ERROR(store_schema_create("sales", "postgres"));
    EXPECT_ERROR("42P06", store_schema_create("sales", NULL));
    StoreColumnDef cols[] = {{"a", SQLTYPE(TYPE_INT4), false, NULL}};
    NO_ERROR(store_table_create("sales", "orders", 1, cols, 0, NULL));
    cr_assert_null(store_table_lookup("public", "orders"));
    EXPECT_ERROR("2BP01", store_schema_drop("sales", false));
    EXPECT_ERROR("55006", store_database_drop("shop"));
    store_session_set_database(NULL);
    cr_assert_null(store_table_lookup("sales", "orders"), "other database");
    NO_ERROR(store_checkpoint());
    NO_ERROR(store_database_create("tmpdb", NULL));
    restart();
    cr_assert_neq(store_database_oid("shop"), 0);
    cr_assert_neq(store_database_oid("tmpdb"), 0);
    NO_ERROR(store_session_set_database("shop"));
    cr_assert(store_schema_exists("sales"));
    cr_assert_not_null(store_table_lookup("sales", "orders"));
    NO_ERROR(store_schema_drop("sales", true));
    cr_assert_not(store_schema_exists("sales"));
    store_session_set_database(NULL);
    NO_ERROR(store_database_drop("tmpdb"));
    EXPECT_ERROR("3D000", store_database_drop("tmpdb"));
    restart();
    cr_assert_eq(store_database_oid("tmpdb"), 0);
    NO_ERROR(store_session_set_database("shop"));
    cr_assert_not(store_schema_exists("sales"));
    store_session_set_database(NULL);
}

Test(durable, roles_attributes_survive_restart)
{
    StoreRoleAttrs a = {.superuser = -1, .login = 1, .createdb = 1, .createrole = -1,
                        .verifier = "SCRAM-SHA-256$4096:abc$def:ghi"};
    NO_ERROR(store_role_create_ex("alice", &a));
    EXPECT_ERROR("42710", store_role_create_ex("alice", &a));
    StoreRoleAttrs ch = {.superuser = 1, .login = 0, .createdb = -1, .createrole = -1};
    NO_ERROR(store_role_alter("alice", &ch));
    NO_ERROR(store_role_create_ex("bob", &(StoreRoleAttrs){-1, -1, -1, -1, NULL}));
    restart();
    StoreRoleAttrs got;
    char v[256];
    cr_assert(store_role_get_attrs("alice", &got, v, sizeof v));
    cr_assert_eq(got.superuser, 1);
    cr_assert_eq(got.login, 0);
    cr_assert_eq(got.createdb, 1);
    cr_assert_str_eq(v, "SCRAM-SHA-256$4096:abc$def:ghi");
    cr_assert(store_role_get_attrs("bob", &got, NULL, 0));
    cr_assert_eq(got.login, 0, "CREATE ROLE defaults to NOLOGIN");
    NO_ERROR(store_role_drop("bob"));
    EXPECT_ERROR("42704", store_role_drop("bob"));
    EXPECT_ERROR("55006", store_role_drop("postgres"));
    restart();
    cr_assert_not(store_role_get_attrs("bob", &got, NULL, 0));
}

/* ---- group commit ---- */

typedef struct Committer {
    StoreTable *t;
    int id;
} Committer;

static void *committer(void *p)
{
    Committer *c = p;
    MemArena *a = mem_arena_create("committer");
    SqlType types[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(a, 3, types);
    for (int i = 0; i < 50; i++) {
        Value v = {.is_null = false};
        v.u.i64 = c->id * 1000 + i;
        vec_set_value(&b->cols[0], 0, &v);
        vec_set_value(&b->cols[1], 0, &v);
        vec_set_null(&b->cols[2], 0);
        b->count = 1;
        StoreTxn *x = store_txn_begin();
        store_table_append(c->t, x, b);
        store_txn_commit(x);
    }
    mem_arena_destroy(a);
    return NULL;
}

Test(durable, concurrent_commits_share_fsyncs)
{
    StoreColumnDef cols[] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"bal", SQLTYPE(TYPE_INT8), false, NULL},
        {"note", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    StoreTable *t[8];
    for (int i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", i);
        NO_ERROR(t[i] = store_table_create("public", name, 3, cols, 0, NULL));
    }
    uint64_t f0 = store__wal_fsyncs(), c0 = store__wal_commits();
    pthread_t th[8];
    Committer c[8];
    for (int i = 0; i < 8; i++) {
        c[i] = (Committer){t[i], i};
        pthread_create(&th[i], NULL, committer, &c[i]);
    }
    for (int i = 0; i < 8; i++)
        pthread_join(th[i], NULL);
    uint64_t fsyncs = store__wal_fsyncs() - f0, commits = store__wal_commits() - c0;
    cr_assert_eq(commits, 400);
    cr_assert_lt(fsyncs, commits, "group commit: %llu fsyncs for %llu commits",
                 (unsigned long long)fsyncs, (unsigned long long)commits);
    restart();
    for (int i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", i);
        int cols2[] = {0};
        StoreScan *s = store_scan_begin(store_table_lookup("public", name), NULL, 1, cols2, 0,
                                        NULL, arena);
        Batch b = {0};
        uint64_t n = 0;
        while (store_scan_next(s, &b))
            n += b.count;
        store_scan_end(s);
        cr_assert_eq(n, 50);
    }
}

/* ---- statistics ---- */

Test(durable, analyze_gathers_statistics)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 1000, 3);
    StoreColumnStats st;
    uint64_t rows;
    cr_assert_not(store_table_stats(t, 0, &st, &rows));
    NO_ERROR(store_table_analyze(t, NULL));
    cr_assert(store_table_stats(t, 0, &st, &rows));
    cr_assert_eq(rows, 1000);
    cr_assert(st.has_minmax);
    cr_assert_eq(st.min.u.i64, 1);
    cr_assert_eq(st.max.u.i64, 1000);
    cr_assert(st.n_distinct < -0.95 && st.n_distinct > -1.05, "unique column: %f", st.n_distinct);
    cr_assert(store_table_stats(t, 1, &st, &rows));
    cr_assert(st.n_distinct > 0.5 && st.n_distinct < 1.5, "one value: %f", st.n_distinct);
    cr_assert(store_table_stats(t, 2, &st, &rows));
    cr_assert(st.null_frac > 0.19 && st.null_frac < 0.21);
}

/* ---- ALTER TABLE ---- */

__attribute__((noinline)) static StoreTable *make_plain(const StoreColumnDef *cols)
{
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "acct", 3, cols, 0, NULL));
    return t;
}

Test(durable, add_primary_key_checks_and_rolls_back)
{
    StoreColumnDef cols[] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"bal", SQLTYPE(TYPE_INT8), false, NULL},
        {"note", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    StoreTable *t = make_plain(cols);
    load(t, 1, 10, 1);
    load(t, 5, 1, 1);  /* a duplicate id 5 */
    int pk[] = {0}, note[] = {2};
    StoreTxn *const x = store_txn_begin();
    EXPECT_ERROR("23505", store_table_add_pkey(t, x, 1, pk));
    cr_assert_str_eq(last_err.message, "could not create unique index \"acct_pkey\"");
    cr_assert_str_eq(last_err.detail, "Key (id)=(5) is duplicated.");
    EXPECT_ERROR("23502", store_table_add_pkey(t, x, 1, note));
    cr_assert_str_eq(last_err.message, "column \"note\" of relation \"acct\" contains null values");
    uint64_t nw;
    cr_assert_eq(store_row_delete(t, x, 14 - 4 + 0, &nw), STORE_WRITE_OK);  /* the second 5 (row 10) */
    NO_ERROR(store_table_add_pkey(t, x, 1, pk));
    cr_assert_eq(store_table_npkey(t), 1);
    EXPECT_ERROR("42P16", store_table_add_pkey(t, x, 1, pk));
    store_txn_rollback(x);
    cr_assert_eq(store_table_npkey(t), 0);
    cr_assert_not(store_table_column(t, 0)->not_null);
    StoreTxn *const x2 = store_txn_begin();
    cr_assert_eq(store_row_delete(t, x2, 10, &nw), STORE_WRITE_OK);
    NO_ERROR(store_table_add_pkey(t, x2, 1, pk));
    store_txn_commit(x2);
    EXPECT_ERROR("23505", store_table_append(t, NULL, acct_batch(3, 1, 1)));
    restart();
    t = store_table_lookup("public", "acct");
    cr_assert_eq(store_table_npkey(t), 1);
    cr_assert(store_table_column(t, 0)->not_null);
    EXPECT_ERROR("23505", store_table_append(t, NULL, acct_batch(3, 1, 1)));
    cr_assert_eq(bal_of(t, NULL, rowid_of(t, NULL, 5)), 1);
}

Test(durable, add_column_fills_and_is_transactional)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 3000, 2);
    StoreColumnDef extra = {"flag", SQLTYPE(TYPE_INT4), false, "7"};
    Value seven = {.is_null = false};
    seven.u.i32 = 7;
    StoreTxn *const x = store_txn_begin();
    NO_ERROR(store_table_add_column(t, x, &extra, &seven));
    cr_assert_eq(store_table_ncols(t), 4);
    store_txn_rollback(x);
    cr_assert_eq(store_table_ncols(t), 3);
    StoreColumnDef tag = {"tag", SQLTYPE(TYPE_TEXT), false, NULL};
    Value hello = {.is_null = false};
    hello.u.str = (StrRef){"hello", 5};
    StoreTxn *const x2 = store_txn_begin();
    NO_ERROR(store_table_add_column(t, x2, &extra, &seven));
    NO_ERROR(store_table_add_column(t, x2, &tag, &hello));
    EXPECT_ERROR("42701", store_table_add_column(t, x2, &tag, NULL));
    store_txn_commit(x2);
    cr_assert_eq(store_table_ncols(t), 5);
    NO_ERROR(store_checkpoint());
    StoreColumnDef note2 = {"n2", SQLTYPE(TYPE_INT8), false, NULL};
    StoreTxn *const x3 = store_txn_begin();
    NO_ERROR(store_table_add_column(t, x3, &note2, NULL));
    store_txn_commit(x3);
    restart();
    t = store_table_lookup("public", "acct");
    cr_assert_eq(store_table_ncols(t), 6);
    int cols[] = {3, 4, 5};
    StoreScan *s = store_scan_begin(t, NULL, 3, cols, 0, NULL, arena);
    Batch b = {0};
    uint64_t n = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t i = 0; i < b.count; i++) {
            cr_assert_eq(((int32_t *)b.cols[0].data)[i], 7);
            StrRef r = ((StrRef *)b.cols[1].data)[i];
            cr_assert(r.len == 5 && memcmp(r.ptr, "hello", 5) == 0);
            cr_assert_not(vec_is_valid(&b.cols[2], i));
        }
        n += b.count;
    }
    store_scan_end(s);
    cr_assert_eq(n, 3000);
}

Test(durable, versions_survive_checkpoint_and_replay)
{
    StoreTable *t = make_acct("acct");
    load(t, 0, 64, 1000);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 300; i++) {
            StoreTxn *x = store_txn_begin();
            int64_t id = (i * 7 + round) % 64;
            uint64_t nw;
            uint64_t r = rowid_of(t, x, id);
            cr_assert_eq(set_bal(t, x, r, id, bal_of(t, x, r) + 1, &nw), STORE_WRITE_OK);
            store_txn_commit(x);
            if (i == 150)
                NO_ERROR(store_checkpoint());
        }
        restart();
        t = store_table_lookup("public", "acct");
        int64_t sum;
        cr_assert_eq(count_sum(t, NULL, &sum), 64);
        cr_assert_eq(sum, 64000 + 300 * (round + 1));
        for (int64_t id = 0; id < 64; id++)
            rowid_of(t, NULL, id);
    }
}

Test(durable, checkpoint_during_uncommitted_ddl)
{
    StoreColumnDef cols[] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"bal", SQLTYPE(TYPE_INT8), false, NULL},
        {"note", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    StoreTable *t = make_plain(cols);
    load(t, 1, 100, 1);
    StoreTxn *const x = store_txn_begin();
    int pk[] = {0};
    NO_ERROR(store_table_add_pkey(t, x, 1, pk));
    StoreColumnDef extra = {"flag", SQLTYPE(TYPE_INT4), false, NULL};
    NO_ERROR(store_table_add_column(t, x, &extra, NULL));
    StoreTable *fresh = make_acct("fresh");
    NO_ERROR(store_table_append(fresh, x, acct_batch(1, 2, 1)));
    NO_ERROR(store_checkpoint());  /* none of x's work is in it */
    store_txn_commit(x);
    restart();
    t = store_table_lookup("public", "acct");
    cr_assert_eq(store_table_npkey(t), 1);
    cr_assert_eq(store_table_ncols(t), 4);
    cr_assert_eq(count_sum(store_table_lookup("public", "fresh"), NULL, NULL), 2);
    NO_ERROR(store_checkpoint());
    restart();
    cr_assert_eq(store_table_npkey(store_table_lookup("public", "acct")), 1);
}

Test(durable, synchronous_commit_off_skips_the_flush_wait)
{
    StoreTable *t = make_acct("acct");
    uint64_t f0 = store__wal_fsyncs();
    for (int i = 0; i < 20; i++) {
        StoreTxn *x = store_txn_begin();
        store_txn_set_synchronous_commit(x, false);
        NO_ERROR(store_table_append(t, x, acct_batch(i, 1, 1)));
        store_txn_commit(x);
    }
    cr_assert_eq(store__wal_fsyncs(), f0, "no fsync for asynchronous commits");
    load(t, 100, 1, 1);  /* a synchronous commit flushes everything before it */
    cr_assert_eq(store__wal_fsyncs(), f0 + 1);
    restart();
    cr_assert_eq(count_sum(store_table_lookup("public", "acct"), NULL, NULL), 21);
}

Test(durable, failed_checkpoint_after_wal_switch_recovers)
{
    StoreTable *t = make_acct("acct");
    load(t, 1, 100, 1);
    NO_ERROR(store_checkpoint());  /* generation 2 */
    load(t, 101, 10, 1);           /* into wal/2.wal */
    char path[512];
    snprintf(path, sizeof path, "%s/checkpoint/3.ckpt.tmp", dir);
    cr_assert_eq(mkdir(path, 0700), 0);  /* the next checkpoint cannot write its file */
    EXPECT_ERROR("58030", store_checkpoint());
    load(t, 201, 5, 1);            /* commits go on, into wal/3.wal */
    snprintf(path, sizeof path, "%s/wal/3.wal", dir);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_gt(st.st_size, 0);
    restart();                     /* control still names 2: replays wal/2 then wal/3 */
    t = store_table_lookup("public", "acct");
    cr_assert_eq(count_sum(t, NULL, NULL), 115);
    snprintf(path, sizeof path, "%s/checkpoint/3.ckpt.tmp", dir);
    cr_assert_eq(rmdir(path), 0);
    NO_ERROR(store_checkpoint());  /* generation 4 */
    snprintf(path, sizeof path, "%s/wal/3.wal", dir);
    cr_assert_neq(stat(path, &st), 0, "older generations removed");
    load(t, 301, 1, 1);
    restart();
    cr_assert_eq(count_sum(store_table_lookup("public", "acct"), NULL, NULL), 116);
}
