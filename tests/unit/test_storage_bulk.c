/*
 * test_storage_bulk.c — bulk loads that write run files directly
 * (storage/bulk.c): a load past STORE_BULK_RUN_ROWS rows lands in a run
 * file (fsync'd before COMMIT) attached by one WAL_BULK_RUN record, served
 * cold at once; smaller loads go to the WAL as INSERT records; ROLLBACK,
 * ROLLBACK TO and a crash before COMMIT leave no file and no row; a crash
 * after COMMIT replays the attach; 23505 / 23502 are raised as for INSERT;
 * records after the load (an UPDATE of a loaded row) replay after it.
 *
 * "Crash" is store_close + store_open without a checkpoint.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "bulk"
#include "storage_fixture.h"

TestSuite(bulk, .init = storage_setup, .fini = storage_teardown, .timeout = 120);

/* w(id bigint primary key, a integer, d double precision, s text not null,
 * c bigint): a = id % 1000, d = id / 4.0, s = "s<id>", c NULL when id % 7 == 0. */
static StoreTable *make_w(void)
{
    StoreColumnDef cols[] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},   {"a", SQLTYPE(TYPE_INT4), false, NULL},
        {"d", SQLTYPE(TYPE_FLOAT8), false, NULL},  {"s", SQLTYPE(TYPE_TEXT), true, NULL},
        {"c", SQLTYPE(TYPE_INT8), false, NULL},
    };
    int pk[] = {0};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "w", 5, cols, 1, pk));
    return t;
}

static Batch *w_batch(int64_t first, uint32_t n)
{
    SqlType types[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_FLOAT8),
                       SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(arena, 5, types);
    for (uint32_t i = 0; i < n; i++) {
        int64_t id = first + i;
        Value v = {.is_null = false};
        v.u.i64 = id;
        vec_set_value(&b->cols[0], i, &v);
        v.u.i32 = (int32_t)(id % 1000);
        vec_set_value(&b->cols[1], i, &v);
        v.u.f64 = (double)id / 4.0;
        vec_set_value(&b->cols[2], i, &v);
        char *s = mem_printf(arena, "s%lld", (long long)id);
        v.u.str = (StrRef){s, (uint32_t)strlen(s)};
        vec_set_value(&b->cols[3], i, &v);
        if (id % 7 == 0) {
            vec_set_null(&b->cols[4], i);
        } else {
            v.u.i64 = id * 3;
            vec_set_value(&b->cols[4], i, &v);
        }
    }
    b->count = n;
    return b;
}

__attribute__((noinline)) static void bulk_ok(StoreTable *t, StoreTxn *x, Batch *b)
{
    NO_ERROR(store_table_bulk_load(t, x, b));
}

/* COPY-like: ids [first, first + n) in batches of 2048 (the last partial). */
static void bulk_in(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n)
{
    for (uint32_t done = 0; done < n; done += 2048) {
        uint32_t k = n - done < 2048 ? n - done : 2048;
        bulk_ok(t, x, w_batch(first + (int64_t)done, k));
        mem_arena_reset(arena);
    }
}

/* Every visible row checked against its id; returns the count, *ids the sum of ids. */
static uint64_t check_all(StoreTable *t, StoreTxn *x, int64_t *ids)
{
    int cols[] = {0, 1, 2, 3, 4};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 5, cols, 0, NULL, arena));
    Batch b = {0};
    uint64_t n = 0;
    int64_t sum = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t i = 0; i < b.count; i++) {
            int64_t id = ((int64_t *)b.cols[0].data)[i];
            sum += id;
            cr_assert_eq(((int32_t *)b.cols[1].data)[i], (int32_t)(id % 1000), "a of %lld",
                         (long long)id);
            cr_assert_eq(((double *)b.cols[2].data)[i], (double)id / 4.0);
            char want[32];
            snprintf(want, sizeof want, "s%lld", (long long)id);
            StrRef r = ((StrRef *)b.cols[3].data)[i];
            cr_assert(r.len == strlen(want) && memcmp(r.ptr, want, r.len) == 0);
            bool null_c = !vec_is_valid(&b.cols[4], i);
            cr_assert_eq(null_c, id % 7 == 0, "c of %lld", (long long)id);
            if (!null_c)
                cr_assert_eq(((int64_t *)b.cols[4].data)[i], id * 3);
        }
        n += b.count;
    }
    store_scan_end(s);
    if (ids)
        *ids = sum;
    return n;
}

static int64_t idsum(int64_t first, int64_t n) { return n * first + n * (n - 1) / 2; }

/* Bulk run files (gen >= 2^62) in checkpoint/, .tmp included. */
static int count_bulk_files(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/checkpoint", dir);
    DIR *d = opendir(path);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        unsigned long long g = 0;
        n += sscanf(e->d_name, "%llu.", &g) == 1 && g >= (1ull << 62);
    }
    closedir(d);
    return n;
}

static long wal_bytes(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/wal/%llu.wal", dir,
             (unsigned long long)store__checkpoint_gen());
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    return (long)st.st_size;
}

static StoreTable *reopen(void)
{
    restart();
    StoreTable *t = store_table_lookup("public", "w");
    cr_assert_not_null(t);
    return t;
}

#define BIG 200704  /* 98 store groups: 3 run groups of 64K + 4096 rows */

/* The rows go to a run file, the WAL gets one small record, fixed-width
 * non-key columns are cold right after COMMIT; a crash replays the attach;
 * a checkpoint keeps the run without rewriting it. */
Test(bulk, big_load_writes_a_run_not_the_wal)
{
    StoreTable *t = make_w();
    long wal0 = wal_bytes();
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 1, BIG);
    cr_assert_eq(count_bulk_files(), 1, "the run is written while loading");
    store_txn_commit(x);
    long wal = wal_bytes() - wal0;
    cr_assert_lt(wal, 4096, "WAL bytes of the load: %ld", wal);
    cr_assert_eq(t->run_cur->nspans, 1);
    cr_assert_null(store__group(t, 0)->chunks[1].data, "a is served from the run");
    cr_assert_null(store__group(t, 96)->chunks[2].data, "d is served from the run");
    cr_assert_not_null(store__group(t, 0)->chunks[0].data, "the key stays in memory");
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), BIG);
    cr_assert_eq(ids, idsum(1, BIG));
    EXPECT_ERROR("23505", store_table_append(t, NULL, w_batch(BIG, 1)));
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), BIG);
    cr_assert_eq(ids, idsum(1, BIG));
    cr_assert_eq(t->run_cur->nspans, 1);
    cr_assert_eq(count_bulk_files(), 1);
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_bulk_files(), 1, "the checkpoint refers to the bulk run");
    /* A second load at the end of the table's runs; it ends mid-group. */
    x = store_txn_begin();
    bulk_in(t, x, BIG + 1, 70000);
    store_txn_commit(x);
    cr_assert_eq(count_bulk_files(), 2);
    cr_assert_eq(t->run_cur->nspans, 2);
    NO_ERROR(store_table_append(t, NULL, w_batch(BIG + 70001, 10)));
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), BIG + 70010);
    cr_assert_eq(ids, idsum(1, BIG + 70010));
    NO_ERROR(store_checkpoint());
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), BIG + 70010);
    cr_assert_eq(ids, idsum(1, BIG + 70010));
}

/* Below the threshold: INSERT records, no file. */
Test(bulk, small_load_goes_to_the_wal)
{
    StoreTable *t = make_w();
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 1, 5000);
    store_txn_commit(x);
    cr_assert_eq(count_bulk_files(), 0);
    cr_assert_gt(wal_bytes(), 5000 * 20);
    t = reopen();
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 5000);
    cr_assert_eq(ids, idsum(1, 5000));
}

/* ROLLBACK, ROLLBACK TO, a crash before COMMIT (file open or sealed):
 * no file, no row. */
Test(bulk, rollback_and_crash_before_commit_leave_nothing)
{
    StoreTable *t = make_w();
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 1, 100000);
    store_txn_rollback(x);
    cr_assert_eq(count_bulk_files(), 0);
    cr_assert_eq(check_all(t, NULL, NULL), 0);

    x = store_txn_begin();
    int sp = store_txn_savepoint(x);
    bulk_in(t, x, 1, 100000);
    store_txn_rollback_to(x, sp);
    cr_assert_eq(count_bulk_files(), 0);
    cr_assert_eq(check_all(t, x, NULL), 0);
    bulk_in(t, x, 1, 71680);  /* loaded again in the same transaction */
    (void)store_txn_savepoint(x);  /* seals: the file is complete */
    bulk_in(t, x, 71681, 2048);    /* not at the runs' end: through the WAL */
    store_txn_commit(x);
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 73728);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 73728);
    cr_assert_eq(ids, idsum(1, 73728));
    cr_assert_eq(count_bulk_files(), 1);

    NO_ERROR(store_checkpoint());
    x = store_txn_begin();  /* open writer at the crash */
    bulk_in(t, x, 100001, 100000);
    cr_assert_eq(count_bulk_files(), 2);
    /* What a crash leaves (store_close removes an open load's file): a
     * finished run and a .tmp that no committed record names. */
    char path[600];
    FILE *f;
    snprintf(path, sizeof path, "%s/checkpoint/%llu.%u.run", dir, (1ull << 62) + 5,
             store_table_oid(t));
    cr_assert_not_null(f = fopen(path, "w"));
    fclose(f);
    snprintf(path, sizeof path, "%s/checkpoint/%llu.%u.run.tmp", dir, (1ull << 62) + 6,
             store_table_oid(t));
    cr_assert_not_null(f = fopen(path, "w"));
    fclose(f);
    t = reopen();
    cr_assert_eq(count_bulk_files(), 1, "unattached bulk runs are removed by recovery");
    cr_assert_eq(check_all(t, NULL, &ids), 73728);
    x = store_txn_begin();  /* sealed, not committed */
    bulk_in(t, x, 100001, 100000);
    (void)store_txn_savepoint(x);
    t = reopen();
    cr_assert_eq(count_bulk_files(), 1);
    cr_assert_eq(check_all(t, NULL, &ids), 73728);
    cr_assert_eq(ids, idsum(1, 73728));
}

/* 23505 and 23502 in the middle of a big load; the transaction rolls back. */
Test(bulk, errors_as_for_insert)
{
    StoreTable *t = make_w();
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 1, 80000);
    EXPECT_ERROR("23505", store_table_bulk_load(t, x, w_batch(79990, 100)));
    store_txn_rollback(x);
    cr_assert_eq(count_bulk_files(), 0);
    x = store_txn_begin();
    bulk_in(t, x, 1, 80000);
    Batch *b = w_batch(80001, 10);
    vec_set_null(&b->cols[3], 4);
    EXPECT_ERROR("23502", store_table_bulk_load(t, x, b));
    store_txn_rollback(x);
    cr_assert_eq(count_bulk_files(), 0);
    cr_assert_eq(check_all(t, NULL, NULL), 0);
}

/* An UPDATE and a DELETE of loaded rows in the loading transaction: their
 * records follow the attach record, so they replay. */
Test(bulk, changes_after_the_load_replay)
{
    StoreTable *t = make_w();
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 1, 90000);
    Value k = {.is_null = false};
    k.u.i64 = 10;
    uint64_t r = 0, nw;
    cr_assert(store_table_lookup_key(t, x, &k, &r));
    cr_assert_eq(store_row_delete(t, x, r, &nw), STORE_WRITE_OK);
    k.u.i64 = 20;
    cr_assert(store_table_lookup_key(t, x, &k, &r));
    cr_assert_eq(store_row_update(t, x, r, w_batch(90001, 1), 0, &nw), STORE_WRITE_OK);
    store_txn_commit(x);
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 89999);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 89999);
    cr_assert_eq(ids, idsum(1, 90000) - 10 - 20 + 90001);
    NO_ERROR(store_checkpoint());
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 89999);
    cr_assert_eq(ids, idsum(1, 90000) - 10 - 20 + 90001);
}

/* TRUNCATE releases a bulk run: the file stays while the WAL may replay
 * its record (a crash then recovers), and goes with the next checkpoint;
 * a load followed by a TRUNCATE of its table in the same transaction is
 * never installed, replays, and its file goes the same way. */
Test(bulk, truncate_releases_bulk_runs)
{
    store__checkpointer_stop();  /* the checkpoint the TRUNCATE asks for would race the checks */
    StoreTable *t = make_w();
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 1, 100000);
    store_txn_commit(x);
    NO_ERROR(store_table_truncate(t, NULL));
    cr_assert_eq(count_bulk_files(), 1, "kept: the WAL still names it");
    NO_ERROR(store_table_append(t, NULL, w_batch(5, 3)));
    t = reopen();
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 3);
    cr_assert_eq(ids, 5 + 6 + 7);
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_bulk_files(), 0, "removed once no WAL record names it");

    store_table_drop("public", "w");
    t = make_w();
    x = store_txn_begin();
    bulk_in(t, x, 1, 100000);
    NO_ERROR(store_table_truncate(t, x));
    bulk_in(t, x, 1, 70000);  /* the truncating transaction's own rows: through the WAL */
    store_txn_commit(x);
    cr_assert_eq(t->run_cur->nspans, 0);
    cr_assert_eq(check_all(t, NULL, &ids), 70000);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 70000);
    cr_assert_eq(ids, idsum(1, 70000));
    NO_ERROR(store_checkpoint());
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_bulk_files(), 0);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 70000);
}

/* SIGKILL during loads: a child process loads 71,680-row loads (35 groups: each starts where the runs end) (a bulk
 * run each, with a CHECKPOINT every third) and reports each COMMIT on a
 * pipe; it is killed at a random moment. Recovery must hold every
 * acknowledged load (the one in flight at most in addition), every value
 * right, and no bulk file that no table holds. */
#define LOAD 71680

static void child_loads(int fd, int64_t first_load)
{
    NO_ERROR(store_open(dir));
    StoreTable *t = store_table_lookup("public", "w");
    for (int64_t k = first_load;; k++) {
        StoreTxn *x = store_txn_begin();
        bulk_in(t, x, k * LOAD + 1, LOAD);
        store_txn_commit(x);
        if (write(fd, &k, sizeof k) != sizeof k)
            _exit(1);
        if (k % 3 == 2)
            NO_ERROR(store_checkpoint());
    }
}

Test(bulk, sigkill_during_loads_recovers)
{
    StoreTable *t = make_w();
    (void)t;
    int64_t loads = 0;
    srand(4242);
    for (int round = 0; round < 4; round++) {
        store_close();
        int p[2];
        cr_assert_eq(pipe(p), 0);
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (pid == 0) {
            close(p[0]);
            child_loads(p[1], loads);
            _exit(0);
        }
        close(p[1]);
        usleep((useconds_t)(300000 + rand() % 900000));
        kill(pid, SIGKILL);
        int64_t k, acked = loads;
        while (read(p[0], &k, sizeof k) == sizeof k)
            acked = k + 1;
        close(p[0]);
        waitpid(pid, NULL, 0);
        open_store();
        t = store_table_lookup("public", "w");
        int64_t ids;
        uint64_t n = check_all(t, NULL, &ids);
        cr_assert(n == (uint64_t)acked * LOAD || n == (uint64_t)(acked + 1) * LOAD,
                  "round %d: %llu rows, %lld loads acknowledged", round, (unsigned long long)n,
                  (long long)acked);
        loads = (int64_t)n / LOAD;
        cr_assert_eq(ids, idsum(1, loads * LOAD));
        cr_assert_leq(count_bulk_files(), (int)loads, "no file beyond the committed loads");
    }
    cr_assert_gt(loads, 0, "some load committed");
}
