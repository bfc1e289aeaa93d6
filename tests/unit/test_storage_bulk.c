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
#include <pthread.h>
#include <stdatomic.h>
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
    bulk_in(t, x, 1, 70000);  /* the new generation's first run (TRUNCATE + COPY below) */
    store_txn_commit(x);
    cr_assert_eq(t->run_cur->nspans, 1);
    cr_assert_eq(check_all(t, NULL, &ids), 70000);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 70000);
    cr_assert_eq(ids, idsum(1, 70000));
    NO_ERROR(store_checkpoint());
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_bulk_files(), 1, "only the truncated load's file went");
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 70000);
}

/* SIGKILL during loads: a child process runs loads of `size` rows (a bulk
 * run each, with a CHECKPOINT every third) and reports each COMMIT on a
 * pipe; it is killed at a random moment. Recovery must hold every
 * acknowledged load (the one in flight at most in addition), every value
 * right, and no bulk file that no table holds. 71,680 rows = 35 groups:
 * each load starts where the runs end; 70,001 rows: each starts mid-group,
 * its run rewriting the previous one's last partial group. */
#define LOAD 71680

/* Children load each block as two COPYs with a read of the first in
 * between (their groups left memory), instead of one load. */
static bool child_in_block;

static void copy_in_block(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n);

static void child_loads(int fd, int64_t first_load, int64_t size)
{
    NO_ERROR(store_open(dir));
    StoreTable *t = store_table_lookup("public", "w");
    for (int64_t k = first_load;; k++) {
        StoreTxn *x = store_txn_begin();
        if (child_in_block) {
            int64_t half = size / 2, ids;
            copy_in_block(t, x, k * size + 1, (uint32_t)half);
            if (check_all(t, x, &ids) != (uint64_t)(k * size + half) ||
                ids != idsum(1, k * size + half))
                _exit(3);  /* the parent fails the test */
            copy_in_block(t, x, k * size + half + 1, (uint32_t)(size - half));
        } else {
            bulk_in(t, x, k * size + 1, (uint32_t)size);
        }
        store_txn_commit(x);
        if (write(fd, &k, sizeof k) != sizeof k)
            _exit(1);
        if (k % 3 == 2)
            NO_ERROR(store_checkpoint());
    }
}

static void sigkill_rounds(int64_t size, unsigned seed)
{
    StoreTable *t = make_w();
    (void)t;
    int64_t loads = 0;
    srand(seed);
    for (int round = 0; round < 4; round++) {
        store_close();
        int p[2];
        cr_assert_eq(pipe(p), 0);
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (pid == 0) {
            close(p[0]);
            child_loads(p[1], loads, size);
            _exit(0);
        }
        close(p[1]);
        int64_t k, acked = loads;
        /* The first round waits for one COMMIT (a slow ASan build may
         * otherwise never see one), then kills at a random moment. */
        if (round == 0 && read(p[0], &k, sizeof k) == sizeof k)
            acked = k + 1;
        usleep((useconds_t)(300000 + rand() % 900000));
        kill(pid, SIGKILL);
        while (read(p[0], &k, sizeof k) == sizeof k)
            acked = k + 1;
        close(p[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        cr_assert(WIFSIGNALED(status), "round %d: the child ended by itself (status %d)", round,
                  status);
        open_store();
        t = store_table_lookup("public", "w");
        int64_t ids;
        uint64_t n = check_all(t, NULL, &ids);
        cr_assert(n == (uint64_t)(acked * size) || n == (uint64_t)((acked + 1) * size),
                  "round %d: %llu rows, %lld loads acknowledged", round, (unsigned long long)n,
                  (long long)acked);
        loads = (int64_t)n / size;
        cr_assert_eq(ids, idsum(1, loads * size));
        cr_assert_leq(count_bulk_files(), (int)loads * (child_in_block ? 2 : 1),
                      "no file beyond the committed loads");
    }
    cr_assert_gt(loads, 0, "some load committed");
}

Test(bulk, sigkill_during_loads_recovers)
{
    sigkill_rounds(LOAD, 4242);
}

Test(bulk, sigkill_during_unaligned_loads_recovers)
{
    sigkill_rounds(70001, 4243);
}

/* The same with each load two COPYs in one block, read in between. */
Test(bulk, sigkill_during_loads_in_blocks_recovers)
{
    child_in_block = true;
    sigkill_rounds(140003, 4244);
}

/* ---- loads into a table whose rows end mid-group (run_first < first) ---- */

/* Checkpoint run files (gen < 2^62) in checkpoint/. */
static int count_ckpt_runs(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/checkpoint", dir);
    DIR *d = opendir(path);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        unsigned long long g = 0;
        unsigned oid = 0;
        char rest[16] = "";
        n += sscanf(e->d_name, "%llu.%u.%15s", &g, &oid, rest) == 3 && g < (1ull << 62) &&
             strcmp(rest, "run") == 0;
    }
    closedir(d);
    return n;
}

__attribute__((noinline)) static void append_w(StoreTable *t, StoreTxn *x, Batch *b)
{
    NO_ERROR(store_table_append(t, x, b));
}

/* Committed rows through the WAL (INSERT), ids [first, first + n). */
static void insert_in(StoreTable *t, int64_t first, uint32_t n)
{
    StoreTxn *x = store_txn_begin();
    for (uint32_t done = 0; done < n; done += 2048) {
        uint32_t k = n - done < 2048 ? n - done : 2048;
        append_w(t, x, w_batch(first + (int64_t)done, k));
        mem_arena_reset(arena);
    }
    store_txn_commit(x);
}

static void delete_id(StoreTable *t, StoreTxn *x, int64_t id)
{
    Value k = {.is_null = false};
    k.u.i64 = id;
    uint64_t r = 0, nw;
    cr_assert(store_table_lookup_key(t, x, &k, &r), "key %lld", (long long)id);
    cr_assert_eq(store_row_delete(t, x, r, &nw), STORE_WRITE_OK);
}

/* The table's span list as "first-end,first-end". */
static const char *spans_of(StoreTable *t)
{
    static char buf[512];
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->run_cur->nspans && len < sizeof buf - 48; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%llu-%llu", i ? "," : "",
                                (unsigned long long)t->run_cur->spans[i].first,
                                (unsigned long long)t->run_cur->spans[i].end);
    return buf;
}

#define PRE 1000

/* 1000 rows by INSERT, then a 200K-row load: one run from row 0 (the
 * partial group rewritten into it), a WAL of a few dozen bytes, every
 * group cold, the same after a crash and after a checkpoint. */
Test(bulk, unaligned_load_starts_at_the_group_boundary)
{
    StoreTable *t = make_w();
    insert_in(t, 1, PRE);
    long wal0 = wal_bytes();
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, PRE + 1, BIG);
    cr_assert_eq(count_bulk_files(), 1, "the run is written while loading");
    store_txn_commit(x);
    long wal = wal_bytes() - wal0;
    cr_assert_lt(wal, 200, "WAL bytes of the load: %ld", wal);
    cr_assert_str_eq(spans_of(t), "0-201704");
    cr_assert_null(store__group(t, 0)->chunks[1].data, "the old partial group is cold");
    cr_assert_null(store__group(t, 97)->chunks[2].data);
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG);
    cr_assert_eq(ids, idsum(1, PRE + BIG));
    EXPECT_ERROR("23505", store_table_append(t, NULL, w_batch(500, 1)));
    t = reopen();  /* a crash: no checkpoint */
    cr_assert_str_eq(spans_of(t), "0-201704");
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG);
    cr_assert_eq(ids, idsum(1, PRE + BIG));
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_bulk_files(), 1);
    cr_assert_eq(count_ckpt_runs(), 0, "the checkpoint refers to the bulk run only");
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG);
    cr_assert_eq(ids, idsum(1, PRE + BIG));
    /* And again onto the bulk run's own partial end, then rows after it. */
    x = store_txn_begin();
    bulk_in(t, x, PRE + BIG + 1, 70000);
    store_txn_commit(x);
    cr_assert_str_eq(spans_of(t), "0-200704,200704-271704");
    NO_ERROR(store_table_append(t, NULL, w_batch(PRE + BIG + 70001, 5)));
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG + 70005);
    cr_assert_eq(ids, idsum(1, PRE + BIG + 70005));
    NO_ERROR(store_checkpoint());
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG + 70005);
    cr_assert_eq(ids, idsum(1, PRE + BIG + 70005));
}

/* The table's last run (a checkpoint's, of its partial group only) is
 * replaced by the load's: its file stays while the checkpoint names it
 * (a crash replays checkpoint + load), the next checkpoint removes it. */
Test(bulk, load_replaces_a_checkpoint_run_of_the_partial_group)
{
    StoreTable *t = make_w();
    insert_in(t, 1, 5000);
    NO_ERROR(store_checkpoint());
    insert_in(t, 5001, 100);
    NO_ERROR(store_checkpoint());  /* an incremental run of rows [4096, 5100) */
    cr_assert_str_eq(spans_of(t), "0-4096,4096-5100");
    cr_assert_eq(count_ckpt_runs(), 2);
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 5101, 100000);
    store_txn_commit(x);
    cr_assert_str_eq(spans_of(t), "0-4096,4096-105100");
    cr_assert_eq(count_ckpt_runs(), 2, "the replaced run stays for the current checkpoint");
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 105100);
    t = reopen();
    cr_assert_str_eq(spans_of(t), "0-4096,4096-105100");
    cr_assert_eq(check_all(t, NULL, &ids), 105100);
    cr_assert_eq(ids, idsum(1, 105100));
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_ckpt_runs(), 1, "the replaced run is gone");
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 105100);
    cr_assert_eq(ids, idsum(1, 105100));
}

/* Deletions in the rewritten rows: one committed before the load (the run
 * holds the row undeleted; the stamp in memory, then TABLE_DELS, keep it
 * deleted), one after it, and an UPDATE of one after it. */
Test(bulk, deletes_in_the_partial_group_before_and_after)
{
    StoreTable *t = make_w();
    insert_in(t, 1, PRE);
    StoreTxn *x = store_txn_begin();
    delete_id(t, x, 500);
    store_txn_commit(x);
    x = store_txn_begin();
    bulk_in(t, x, PRE + 1, 100000);
    store_txn_commit(x);
    cr_assert_str_eq(spans_of(t), "0-101000");
    x = store_txn_begin();
    delete_id(t, x, 600);
    Value k = {.is_null = false};
    k.u.i64 = 700;
    uint64_t r = 0, nw;
    cr_assert(store_table_lookup_key(t, x, &k, &r));
    cr_assert_eq(store_row_update(t, x, r, w_batch(PRE + 100001, 1), 0, &nw), STORE_WRITE_OK);
    store_txn_commit(x);
    int64_t ids, want = idsum(1, PRE + 100001) - 500 - 600 - 700;
    cr_assert_eq(check_all(t, NULL, &ids), PRE + 100000 - 2);
    cr_assert_eq(ids, want);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + 100000 - 2);
    cr_assert_eq(ids, want);
    NO_ERROR(store_checkpoint());
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + 100000 - 2);
    cr_assert_eq(ids, want);
    NO_ERROR(store_checkpoint());
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + 100000 - 2);
    cr_assert_eq(ids, want);
}

/* ROLLBACK of a load that rewrote the partial group: no file, the group
 * stays in memory and in the table's runs as before. */
Test(bulk, unaligned_load_rollback)
{
    StoreTable *t = make_w();
    insert_in(t, 1, 5000);
    NO_ERROR(store_checkpoint());
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 5001, 100000);
    cr_assert_eq(count_bulk_files(), 1);
    store_txn_rollback(x);
    cr_assert_eq(count_bulk_files(), 0);
    cr_assert_str_eq(spans_of(t), "0-5000");
    cr_assert_not_null(store__group(t, 2)->chunks[1].data, "the partial group is still hot");
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 5000);
    cr_assert_eq(ids, idsum(1, 5000));
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 5000);
    insert_in(t, 5001, 10);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 5010);
    cr_assert_eq(ids, idsum(1, 5010));
}

/* A checkpoint during the load writes the committed rows [0, 5000) and
 * makes groups 0 and 1 cold before the load's writer reads them: it reads
 * them back from that run. At COMMIT the load's run replaces the
 * checkpoint's; a crash recovers from that checkpoint plus the load. */
Test(bulk, checkpoint_during_the_load)
{
    StoreTable *t = make_w();
    insert_in(t, 1, 5000);
    StoreTxn *x = store_txn_begin();
    bulk_in(t, x, 5001, 20000);  /* below the threshold: no writer yet */
    cr_assert_eq(count_bulk_files(), 0);
    NO_ERROR(store_checkpoint());
    cr_assert_str_eq(spans_of(t), "0-5000");
    cr_assert_null(store__group(t, 1)->chunks[1].data, "group 1 went cold");
    bulk_in(t, x, 25001, 80000);
    cr_assert_eq(count_bulk_files(), 1);
    store_txn_commit(x);
    cr_assert_str_eq(spans_of(t), "0-105000");
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 105000);
    cr_assert_eq(ids, idsum(1, 105000));
    t = reopen();
    cr_assert_str_eq(spans_of(t), "0-105000");
    cr_assert_eq(check_all(t, NULL, &ids), 105000);
    cr_assert_eq(ids, idsum(1, 105000));
    NO_ERROR(store_checkpoint());
    cr_assert_eq(count_ckpt_runs(), 0);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 105000);
    cr_assert_eq(ids, idsum(1, 105000));
}

__attribute__((noinline)) static void truncate_ok(StoreTable *t, StoreTxn *x)
{
    NO_ERROR(store_table_truncate(t, x));
}

__attribute__((noinline)) static void checkpoint_ok(void)
{
    NO_ERROR(store_checkpoint());
}

/* TRUNCATE and a load in one transaction: the load's run is the new
 * generation's first (rows numbered from 0 after the swap), written once,
 * the WAL small; ROLLBACK and ROLLBACK TO leave the old rows; a crash
 * replays TRUNCATE + load and attaches the run at the replayed COMMIT;
 * a checkpoint refers to it; rows appended later follow it. */
Test(bulk, truncate_and_load_in_one_transaction)
{
    store__checkpointer_stop();  /* the checkpoint the TRUNCATE asks for would race the checks */
    StoreTable *t = make_w();
    insert_in(t, 1, 5000);
    checkpoint_ok();
    StoreTxn *x = store_txn_begin();
    truncate_ok(t, x);
    bulk_in(t, x, 1, 100000);
    store_txn_rollback(x);
    cr_assert_eq(count_bulk_files(), 0);
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 5000);
    cr_assert_eq(ids, idsum(1, 5000));

    x = store_txn_begin();
    int sp = store_txn_savepoint(x);
    truncate_ok(t, x);
    bulk_in(t, x, 1, 100000);
    store_txn_rollback_to(x, sp);
    cr_assert_eq(count_bulk_files(), 0);
    cr_assert_eq(check_all(t, x, &ids), 5000);
    long wal0 = wal_bytes();
    truncate_ok(t, x);
    bulk_in(t, x, 7, 100000);
    store_txn_commit(x);
    cr_assert_lt(wal_bytes() - wal0, 200, "WAL bytes: %ld", wal_bytes() - wal0);
    cr_assert_eq(count_bulk_files(), 1);
    cr_assert_str_eq(spans_of(t), "0-100000");
    cr_assert_null(store__group(t, 0)->chunks[1].data, "cold at COMMIT");
    cr_assert_eq(check_all(t, NULL, &ids), 100000);
    cr_assert_eq(ids, idsum(7, 100000));
    t = reopen();  /* a crash: TRUNCATE, the load, the swap replayed */
    cr_assert_str_eq(spans_of(t), "0-100000");
    cr_assert_eq(check_all(t, NULL, &ids), 100000);
    cr_assert_eq(ids, idsum(7, 100000));
    append_w(t, NULL, w_batch(100007, 3));
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 100003);
    cr_assert_eq(ids, idsum(7, 100003));
    checkpoint_ok();
    cr_assert_eq(count_ckpt_runs(), 1, "the old generation's run is gone");
    cr_assert_eq(count_bulk_files(), 1);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 100003);
    cr_assert_eq(ids, idsum(7, 100003));
    /* Once more onto the loaded generation's partial end. */
    x = store_txn_begin();
    bulk_in(t, x, 100010, 70000);
    store_txn_commit(x);
    cr_assert_str_eq(spans_of(t), "0-98304,98304-170003");
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 170003);
    cr_assert_eq(ids, idsum(7, 100003) + idsum(100010, 70000));
}

/* ---- COPY inside a block (session "copyblock") ----
 * A COPY marks its load unread while it runs (store_txn_bulk_unread) and
 * seals it when it ends (store_txn_bulk_end): its whole groups leave
 * memory as the run is written, and the transaction's later statements
 * read them from the sealed, uncommitted run (t->bulk_ref). */

static void copy_in_block(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n)
{
    store_txn_bulk_unread(x);
    bulk_in(t, x, first, n);
    NO_ERROR(store_txn_bulk_end(x));
}

/* The whole groups of rows [from, to) hold no non-key data in memory: the
 * rows really left (the key column stays for the pk index). */
static void assert_left_memory(StoreTable *t, uint64_t from, uint64_t to)
{
    uint64_t g0 = (from + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS, g1 = to / STORE_GROUP_ROWS;
    cr_assert_gt(g1, g0);
    for (uint64_t g = g0; g < g1; g++) {
        const StoreRowGroup *grp = store__group(t, g);
        for (int c = 1; c < 5; c++)
            cr_assert_null(grp->chunks[c].data, "group %llu column %d in memory",
                           (unsigned long long)g, c);
        cr_assert_not_null(grp->chunks[0].data, "the key stays");
    }
}

/* Row `id`'s columns a and s through store_row_fetch in x. */
static void fetch_check(StoreTable *t, StoreTxn *x, int64_t id)
{
    Value k = {.is_null = false};
    k.u.i64 = id;
    uint64_t r = 0;
    cr_assert(store_table_lookup_key(t, x, &k, &r), "key %lld", (long long)id);
    SqlType types[] = {SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    Batch *out = batch_create(arena, 2, types);
    int cols[] = {1, 3};
    cr_assert(store_row_fetch(t, x, r, 2, cols, out));
    cr_assert_eq(((int32_t *)out->cols[0].data)[0], (int32_t)(id % 1000));
    char want[32];
    snprintf(want, sizeof want, "s%lld", (long long)id);
    StrRef s = ((StrRef *)out->cols[1].data)[0];
    cr_assert(s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0);
}

/* 1000 committed rows, then BEGIN; COPY; reads, DELETE, UPDATE, fetches;
 * a second COPY chained after the first; a CHECKPOINT meanwhile; others
 * (READ COMMITTED and a REPEATABLE READ snapshot) never see the rows
 * before COMMIT; one span per load after it; crash replay, checkpoint. */
Test(bulk, copy_in_block_leaves_memory_and_reads_its_rows)
{
    StoreTable *t = make_w();
    insert_in(t, 1, PRE);
    long wal0 = wal_bytes();
    StoreTxn *y = store_txn_begin();
    store_txn_set_isolation(y, STORE_REPEATABLE_READ);
    int64_t ids;
    cr_assert_eq(check_all(t, y, &ids), PRE);
    StoreTxn *x = store_txn_begin();
    copy_in_block(t, x, PRE + 1, BIG);
    assert_left_memory(t, PRE, PRE + BIG);
    cr_assert_not_null(t->bulk_ref);
    cr_assert_eq(count_bulk_files(), 1);
    cr_assert_eq(check_all(t, x, &ids), PRE + BIG);
    cr_assert_eq(ids, idsum(1, PRE + BIG));
    cr_assert_eq(check_all(t, NULL, &ids), PRE, "others see the committed rows only");
    cr_assert_eq(check_all(t, y, &ids), PRE);
    fetch_check(t, x, 7);
    fetch_check(t, x, 150001);
    delete_id(t, x, 5000);
    Value k = {.is_null = false};
    k.u.i64 = 150000;
    uint64_t r = 0, nw;
    cr_assert(store_table_lookup_key(t, x, &k, &r));
    cr_assert_eq(store_row_update(t, x, r, w_batch(PRE + BIG + 1, 1), 0, &nw), STORE_WRITE_OK);
    int64_t want = idsum(1, PRE + BIG + 1) - 5000 - 150000;
    cr_assert_eq(check_all(t, x, &ids), PRE + BIG - 1);
    cr_assert_eq(ids, want);
    /* A second COPY: its run follows the first one's (rows 1000.. of the
     * first one's last group, then the UPDATE's row, rewritten). */
    copy_in_block(t, x, PRE + BIG + 2, 70000);
    assert_left_memory(t, PRE + BIG + 1, PRE + BIG + 1 + 70000);
    want += idsum(PRE + BIG + 2, 70000);
    checkpoint_ok();  /* writes the committed rows only */
    cr_assert_eq(check_all(t, x, &ids), PRE + BIG - 1 + 70000);
    cr_assert_eq(ids, want);
    cr_assert_eq(check_all(t, NULL, NULL), PRE);
    store_txn_commit(x);
    cr_assert_null(t->bulk_ref);
    cr_assert_lt(wal_bytes() - wal0, 4096, "the rows are not in the WAL");
    cr_assert_str_eq(spans_of(t), "0-200704,200704-271705");
    cr_assert_eq(check_all(t, y, &ids), PRE, "REPEATABLE READ: still the old snapshot");
    store_txn_commit(y);
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG - 1 + 70000);
    cr_assert_eq(ids, want);
    t = reopen();
    cr_assert_str_eq(spans_of(t), "0-200704,200704-271705");
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG - 1 + 70000);
    cr_assert_eq(ids, want);
    checkpoint_ok();
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + BIG - 1 + 70000);
    cr_assert_eq(ids, want);
    cr_assert_eq(count_bulk_files(), 2);
}

/* ROLLBACK TO a savepoint before the second COPY removes it (file and
 * groups) and keeps the first readable; a COPY again after it; ROLLBACK
 * of a block removes everything and the freed groups are allocated anew;
 * a crash before COMMIT leaves nothing, after it everything. */
Test(bulk, copy_in_block_rollbacks_and_crashes)
{
    StoreTable *t = make_w();
    StoreTxn *x = store_txn_begin();
    copy_in_block(t, x, 1, 100000);
    int sp = store_txn_savepoint(x);
    copy_in_block(t, x, 100001, 100000);
    assert_left_memory(t, 100000, 200000);
    cr_assert_eq(count_bulk_files(), 2);
    int64_t ids;
    cr_assert_eq(check_all(t, x, &ids), 200000);
    store_txn_rollback_to(x, sp);
    cr_assert_eq(count_bulk_files(), 1, "the second load's file went");
    cr_assert_eq(check_all(t, x, &ids), 100000);
    cr_assert_eq(ids, idsum(1, 100000));
    copy_in_block(t, x, 100001, 70000);  /* its run follows the first one's */
    cr_assert_eq(check_all(t, x, &ids), 170000);
    store_txn_commit(x);
    cr_assert_eq(check_all(t, NULL, &ids), 170000);
    cr_assert_eq(ids, idsum(1, 170000));
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 170000);
    cr_assert_eq(ids, idsum(1, 170000));
    cr_assert_eq(count_bulk_files(), 2);

    x = store_txn_begin();
    copy_in_block(t, x, 170001, 100000);
    append_w(t, x, w_batch(270001, 10));
    cr_assert_eq(check_all(t, x, &ids), 270010);
    store_txn_rollback(x);
    cr_assert_null(t->bulk_ref);
    cr_assert_eq(count_bulk_files(), 2);
    cr_assert_eq(check_all(t, NULL, &ids), 170000);
    x = store_txn_begin();
    copy_in_block(t, x, 170001, 100000);  /* into the groups the rollback freed */
    cr_assert_eq(check_all(t, x, &ids), 270000);
    t = reopen();  /* a crash before COMMIT: sealed, uncommitted */
    cr_assert_eq(count_bulk_files(), 2);
    cr_assert_eq(check_all(t, NULL, &ids), 170000);
    cr_assert_eq(ids, idsum(1, 170000));
    x = store_txn_begin();
    copy_in_block(t, x, 170001, 100000);
    store_txn_commit(x);
    t = reopen();  /* and after it */
    cr_assert_eq(check_all(t, NULL, &ids), 270000);
    cr_assert_eq(ids, idsum(1, 270000));
}

/* Rows of the transaction before the COPY (INSERT then COPY; TRUNCATE,
 * INSERT, COPY, COPY): the loads still write runs, rewriting those rows,
 * and their groups leave memory; WAL small, crash replay, checkpoint. */
Test(bulk, copy_in_block_after_own_rows)
{
    store__checkpointer_stop();  /* the checkpoint the TRUNCATE asks for would race the checks */
    StoreTable *t = make_w();
    insert_in(t, 1, PRE);
    long wal0 = wal_bytes();
    StoreTxn *x = store_txn_begin();
    for (int64_t id = PRE + 1; id <= PRE + 500; id += 100)
        append_w(t, x, w_batch(id, 100));
    copy_in_block(t, x, PRE + 501, BIG);
    assert_left_memory(t, PRE + 500, PRE + 500 + BIG);
    int64_t ids;
    cr_assert_eq(check_all(t, x, &ids), PRE + 500 + BIG);
    store_txn_commit(x);
    cr_assert_lt(wal_bytes() - wal0, 64 * 1024, "500 rows in the WAL, not %d", BIG);
    cr_assert_str_eq(spans_of(t), "0-202204");
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), PRE + 500 + BIG);
    cr_assert_eq(ids, idsum(1, PRE + 500 + BIG));

    checkpoint_ok();
    x = store_txn_begin();
    truncate_ok(t, x);
    uint64_t T = t->trunc_row;
    append_w(t, x, w_batch(1, 100));
    copy_in_block(t, x, 101, 100000);
    assert_left_memory(t, T + 100, T + 100100);
    copy_in_block(t, x, 100101, 70000);
    cr_assert_eq(check_all(t, x, &ids), 170100);
    cr_assert_eq(ids, idsum(1, 170100));
    store_txn_commit(x);
    cr_assert_str_eq(spans_of(t), "0-98304,98304-170100");
    cr_assert_eq(check_all(t, NULL, &ids), 170100);
    cr_assert_eq(ids, idsum(1, 170100));
    t = reopen();
    cr_assert_str_eq(spans_of(t), "0-98304,98304-170100");
    cr_assert_eq(check_all(t, NULL, &ids), 170100);
    cr_assert_eq(ids, idsum(1, 170100));
    checkpoint_ok();
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 170100);
    cr_assert_eq(ids, idsum(1, 170100));
}

/* Sum of the column added after the load (6th, bigint) over visible rows. */
static int64_t sum_extra(StoreTable *t, StoreTxn *x)
{
    int cols[] = {5};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 1, cols, 0, NULL, arena));
    Batch b = {0};
    int64_t sum = 0;
    while (store_scan_next(s, &b))
        for (uint32_t i = 0; i < b.count; i++)
            sum += ((int64_t *)b.cols[0].data)[i];
    store_scan_end(s);
    return sum;
}

/* ADD COLUMN after the COPY in its block: the run (without the column)
 * still joins the table at COMMIT and serves the load's columns, the new
 * one stays in memory; the same after a crash and a checkpoint. A COPY
 * whose rows stay below the threshold stays open for the next one. */
Test(bulk, copy_in_block_then_add_column)
{
    StoreTable *t = make_w();
    StoreTxn *x = store_txn_begin();
    copy_in_block(t, x, 1, 40000);
    cr_assert_eq(count_bulk_files(), 0, "below the threshold: still open, in memory");
    copy_in_block(t, x, 40001, 60000);  /* the same load, now past it */
    cr_assert_eq(count_bulk_files(), 1);
    assert_left_memory(t, 0, 100000);
    StoreColumnDef c = {"extra", SQLTYPE(TYPE_INT8), false, NULL};
    Value fill = {.is_null = false, .u.i64 = 3};
    NO_ERROR(store_table_add_column(t, x, &c, &fill));
    int64_t ids;
    cr_assert_eq(check_all(t, x, &ids), 100000);
    cr_assert_eq(sum_extra(t, x), 300000);
    store_txn_commit(x);
    cr_assert_str_eq(spans_of(t), "0-100000");
    cr_assert_eq(check_all(t, NULL, &ids), 100000);
    cr_assert_eq(ids, idsum(1, 100000));
    cr_assert_eq(sum_extra(t, NULL), 300000);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 100000);
    cr_assert_eq(ids, idsum(1, 100000));
    cr_assert_eq(sum_extra(t, NULL), 300000);
    checkpoint_ok();
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), 100000);
    cr_assert_eq(sum_extra(t, NULL), 300000);
}

/* ---- concurrent readers and checkpoints ---- */

static _Atomic bool conc_stop;
static _Atomic int conc_bad, conc_saw_new;
static uint64_t conc_final;

/* Count and sum of ids of the rows y sees, -1 when a row's a is wrong. */
static uint64_t conc_scan(StoreTable *t, StoreTxn *y, MemArena *a, int64_t *ids)
{
    int cols[] = {0, 1};
    StoreScan *s = store_scan_begin(t, y, 2, cols, 0, NULL, a);
    Batch b = {0};
    uint64_t n = 0;
    int64_t sum = 0;
    while (store_scan_next(s, &b))
        for (uint32_t i = 0; i < b.count; i++) {
            uint32_t r = b.sel ? b.sel[i] : i;
            int64_t id = ((int64_t *)b.cols[0].data)[r];
            if (((int32_t *)b.cols[1].data)[r] != (int32_t)(id % 1000))
                atomic_fetch_add(&conc_bad, 1);
            sum += id;
            n++;
        }
    store_scan_end(s);
    *ids = sum;
    return n;
}

/* Another thread: CHECKPOINTs, VACUUMs and REPEATABLE READ transactions
 * that scan twice; each sees the committed rows (PRE) or all of them. */
static void *conc_main(void *arg)
{
    StoreTable *t = arg;
    MemArena *a = mem_arena_create("conc");
    for (int k = 0; !atomic_load(&conc_stop); k++) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            if (k % 3 == 0)
                store_checkpoint();
            else if (k % 3 == 1)
                store_vacuum(t);  /* waits for the block's write lock */
            StoreTxn *y = store_txn_begin();
            store_txn_set_isolation(y, STORE_REPEATABLE_READ);
            int64_t s1, s2;
            uint64_t n1 = conc_scan(t, y, a, &s1);
            uint64_t n2 = conc_scan(t, y, a, &s2);
            store_txn_commit(y);
            bool old = n1 == PRE && s1 == idsum(1, PRE);
            bool all = n1 == conc_final && s1 == idsum(1, (int64_t)conc_final);
            if ((!old && !all) || n1 != n2 || s1 != s2)
                atomic_fetch_add(&conc_bad, 1);
            if (all)
                atomic_store(&conc_saw_new, 1);
            err_pop(&jmp);
        } else {
            atomic_fetch_add(&conc_bad, 1);
            err_clear();
        }
        mem_arena_reset(a);
    }
    mem_arena_destroy(a);
    return NULL;
}

/* A block with two COPYs and reads while another thread checkpoints,
 * vacuums and reads under REPEATABLE READ; then the rows after a restart. */
Test(bulk, copy_in_block_with_concurrent_checkpoints_and_readers)
{
    StoreTable *t = make_w();
    insert_in(t, 1, PRE);
    conc_final = PRE + BIG + 70000;
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, conc_main, t), 0);
    StoreTxn *x = store_txn_begin();
    copy_in_block(t, x, PRE + 1, BIG);
    int64_t ids;
    for (int i = 0; i < 3; i++)
        cr_assert_eq(check_all(t, x, &ids), PRE + BIG);
    copy_in_block(t, x, PRE + BIG + 1, 70000);
    cr_assert_eq(check_all(t, x, &ids), conc_final);
    /* What an install that failed would do: the groups come back from
     * the uncommitted runs (bulk.c bulk_thaw); the COMMIT freezes them. */
    cr_assert_null(store__group(t, 50)->chunks[3].data);
    NO_ERROR(store__run_thaw_rows(t, PRE, PRE + BIG));
    cr_assert_not_null(store__group(t, 50)->chunks[3].data);
    cr_assert_eq(check_all(t, x, &ids), conc_final);
    store_txn_commit(x);
    cr_assert_null(store__group(t, 50)->chunks[3].data, "frozen by the install");
    for (int i = 0; i < 500 && !atomic_load(&conc_saw_new); i++)
        usleep(10000);
    atomic_store(&conc_stop, true);
    pthread_join(th, NULL);
    cr_assert_eq(atomic_load(&conc_bad), 0, "the other thread saw a wrong state");
    cr_assert(atomic_load(&conc_saw_new), "the other thread saw the COMMIT");
    cr_assert_eq(check_all(t, NULL, &ids), conc_final);
    t = reopen();
    cr_assert_eq(check_all(t, NULL, &ids), conc_final);
    cr_assert_eq(ids, idsum(1, (int64_t)conc_final));
}
