/*
 * test_storage_runs_read.c — cold chunks: table data served from the
 * checkpoint run (storage/cold.c).
 *
 * After a checkpoint the non-key columns of covered row groups (fixed-width
 * and strings) leave memory and are read back from the run; these tests check that every
 * value comes back exactly (scans, zone-map skipping, row fetch), across
 * restarts, after UPDATE/DELETE of cold rows, ADD PRIMARY KEY / ADD COLUMN
 * on cold columns, while scans run concurrently with checkpoints, that a
 * damaged run block is XX001 naming the file (never wrong data), and that
 * run files go away once superseded or dropped and no scan holds them.
 * Includes storage_int.h to look at chunk pointers (NULL = cold).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "runsread"
#include "storage_fixture.h"

TestSuite(runsread, .init = storage_setup, .fini = storage_teardown, .timeout = 120);

/* w(id bigint, a bigint, f double, i integer, s text): no primary key.
 * Row k: id = k, a = 3k + 1 (NULL when k % 7 == 3), f = k / 4.0,
 * i = k % 1000 (NULL when k % 11 == 5), s = "s<k>". */
#define NCOLS 5
static StoreTable *make_wide(const char *name)
{
    StoreColumnDef cols[NCOLS] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"a", SQLTYPE(TYPE_INT8), false, NULL},
        {"f", SQLTYPE(TYPE_FLOAT8), false, NULL},
        {"i", SQLTYPE(TYPE_INT4), false, NULL},
        {"s", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, NCOLS, cols, 0, NULL));
    return t;
}

static Batch *wide_batch(int64_t first, uint32_t n)
{
    SqlType types[NCOLS] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_FLOAT8),
                            SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(arena, NCOLS, types);
    for (uint32_t r = 0; r < n; r++) {
        int64_t k = first + r;
        Value v = {.is_null = false};
        v.u.i64 = k;
        vec_set_value(&b->cols[0], r, &v);
        if (k % 7 == 3) {
            vec_set_null(&b->cols[1], r);
        } else {
            v.u.i64 = 3 * k + 1;
            vec_set_value(&b->cols[1], r, &v);
        }
        v.u.f64 = (double)k / 4.0;
        vec_set_value(&b->cols[2], r, &v);
        if (k % 11 == 5) {
            vec_set_null(&b->cols[3], r);
        } else {
            v.u.i32 = (int32_t)(k % 1000);
            vec_set_value(&b->cols[3], r, &v);
        }
        char *s = mem_printf(arena, "s%lld", (long long)k);
        v.u.str = (StrRef){s, (uint32_t)strlen(s)};
        vec_set_value(&b->cols[4], r, &v);
    }
    b->count = n;
    return b;
}

__attribute__((noinline)) static void append_ok(StoreTable *t, StoreTxn *x, Batch *b)
{
    NO_ERROR(store_table_append(t, x, b));
}

__attribute__((noinline)) static void checkpoint_ok(void)
{
    NO_ERROR(store_checkpoint());
}

static void load_wide(StoreTable *t, int64_t first, uint32_t n)
{
    StoreTxn *x = store_txn_begin();
    for (uint32_t done = 0; done < n; done += 2000) {
        uint32_t k = n - done < 2000 ? n - done : 2000;
        append_ok(t, x, wide_batch(first + done, k));
        mem_arena_reset(arena);
    }
    store_txn_commit(x);
}

/* Check one row of a batch whose columns are (id, a, f, i, s) against the
 * formula; id may have been changed by an update (bump added to a). */
static void check_row(const Batch *b, uint32_t r, int64_t bump_every, int64_t bump)
{
    int64_t k = ((const int64_t *)b->cols[0].data)[r];
    int64_t add = bump_every && k % bump_every == 0 ? bump : 0;
    bool a_null = !vec_is_valid(&b->cols[1], r);
    cr_assert_eq(a_null, k % 7 == 3 && add == 0, "a NULL of row %lld", (long long)k);
    if (!a_null)
        cr_assert_eq(((const int64_t *)b->cols[1].data)[r], (k % 7 == 3 ? 0 : 3 * k + 1) + add,
                     "a of row %lld", (long long)k);
    cr_assert(((const double *)b->cols[2].data)[r] == (double)k / 4.0, "f of row %lld", (long long)k);
    bool i_null = !vec_is_valid(&b->cols[3], r);
    cr_assert_eq(i_null, k % 11 == 5, "i NULL of row %lld", (long long)k);
    if (!i_null)
        cr_assert_eq(((const int32_t *)b->cols[3].data)[r], (int32_t)(k % 1000));
    char want[32];
    snprintf(want, sizeof want, "s%lld", (long long)k);
    StrRef s = ((const StrRef *)b->cols[4].data)[r];
    cr_assert(s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0, "s of row %lld",
              (long long)k);
}

__attribute__((noinline)) static void scan_rows(StoreScan *s, int64_t bump_every, int64_t bump,
                                                uint64_t *n, int64_t *sum)
{
    Batch b = {0};
    while (store_scan_next(s, &b)) {
        for (uint32_t r = 0; r < b.count; r++) {
            check_row(&b, r, bump_every, bump);
            *sum += ((const int64_t *)b.cols[0].data)[r];
        }
        *n += b.count;
    }
}

/* Scan every column; check each row; returns rows seen and sum of id. */
static uint64_t scan_check(StoreTable *t, StoreTxn *x, int64_t bump_every, int64_t bump,
                           int64_t *id_sum)
{
    int cols[NCOLS] = {0, 1, 2, 3, 4};
    StoreScan *s = store_scan_begin(t, x, NCOLS, cols, 0, NULL, arena);
    uint64_t n = 0;
    int64_t sum = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        scan_rows(s, bump_every, bump, &n, &sum);
        err_pop(&jmp);
    } else {
        store_scan_end(s);
        err_rethrow();
    }
    store_scan_end(s);
    if (id_sum)
        *id_sum = sum;
    return n;
}

/* Chunks of column col with data NULL (cold). */
static uint64_t cold_chunks(StoreTable *t, int col)
{
    uint64_t n = 0, groups = (atomic_load(&t->committed) + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS;
    for (uint64_t g = 0; g < groups; g++)
        n += __atomic_load_n(&store__group(t, g)->chunks[col].data, __ATOMIC_ACQUIRE) == NULL;
    return n;
}

static int64_t tri(int64_t n) { return n * (n - 1) / 2; }

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

#define ROWS 150000  /* 73 full row groups, 3 run groups */

Test(runsread, cold_chunks_read_back_after_checkpoint_and_restart)
{
    StoreTable *t = make_wide("w");
    load_wide(t, 0, ROWS);
    cr_assert_eq(cold_chunks(t, 1), 0);
    checkpoint_ok();
    uint64_t full = ROWS / STORE_GROUP_ROWS;
    cr_assert_eq(cold_chunks(t, 0), full, "id cold in %llu groups", (unsigned long long)cold_chunks(t, 0));
    cr_assert_eq(cold_chunks(t, 1), full);
    cr_assert_eq(cold_chunks(t, 3), full);
    cr_assert_eq(cold_chunks(t, 4), full, "strings go cold too");
    int64_t sum = 0;
    cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), ROWS);
    cr_assert_eq(sum, tri(ROWS));

    /* Zone maps still skip cold groups: id >= ROWS - 100 needs one group. */
    int cols[] = {0, 1};
    StoreZoneFilter f = {.column = 0, .cmp = STORE_GE, .value = {.is_null = false, .u.i64 = ROWS - 100}};
    StoreScan *s = store_scan_begin(t, NULL, 2, cols, 1, &f, arena);
    Batch b = {0};
    uint64_t seen = 0;
    while (store_scan_next(s, &b))
        seen += b.count;
    cr_assert_eq(store_scan_groups_skipped(s), ROWS / STORE_GROUP_ROWS);
    cr_assert_lt(seen, 2 * STORE_GROUP_ROWS);
    store_scan_end(s);

    /* Row fetch of cold rows. */
    SqlType ty[NCOLS] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_FLOAT8),
                         SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    int all[NCOLS] = {0, 1, 2, 3, 4};
    for (uint64_t r = 0; r < ROWS; r += 9973) {
        Batch *one = batch_create(arena, NCOLS, ty);
        cr_assert(store_row_fetch(t, NULL, r, NCOLS, all, one));
        cr_assert_eq(((int64_t *)one->cols[0].data)[0], (int64_t)r);
        check_row(one, 0, 0, 0);
    }

    restart();
    t = store_table_lookup("public", "w");
    cr_assert_eq(cold_chunks(t, 1), full, "recovery loads the run cold");
    cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), ROWS);
    cr_assert_eq(sum, tri(ROWS));
}

/* UPDATE every 10th cold row (a += 1000000), DELETE every 13th. */
static void update_delete_cold(StoreTable *t, int64_t *deleted_ids, int64_t *ndeleted)
{
    int cols[] = {STORE_COL_ROWID, 0, 1, 2, 3, 4};
    StoreTxn *x = store_txn_begin();
    store_txn_statement_begin(x);
    StoreScan *s = store_scan_begin(t, x, 6, cols, 0, NULL, arena);
    Batch b = {0};
    uint64_t upd[ROWS / 10 + 1], nupd = 0;
    int64_t upd_id[ROWS / 10 + 1];
    int64_t del[ROWS / 13 + 1];
    uint64_t delrow[ROWS / 13 + 1], ndel = 0;
    while (store_scan_next(s, &b))
        for (uint32_t r = 0; r < b.count; r++) {
            int64_t k = ((int64_t *)b.cols[1].data)[r];
            uint64_t rowid = (uint64_t)((int64_t *)b.cols[0].data)[r];
            if (k % 13 == 0) {
                del[ndel] = k;
                delrow[ndel++] = rowid;
            } else if (k % 10 == 0) {
                upd_id[nupd] = k;
                upd[nupd++] = rowid;
            }
        }
    store_scan_end(s);
    SqlType ty[NCOLS] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_FLOAT8),
                         SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    int all[NCOLS] = {0, 1, 2, 3, 4};
    for (uint64_t i = 0; i < nupd; i++) {
        /* Re-read the row (cold) every 100th time; else rebuild it. */
        Batch *one = wide_batch((int64_t)upd_id[i], 1);
        if (i % 100 == 0) {
            one = batch_create(arena, NCOLS, ty);
            cr_assert(store_row_fetch(t, x, upd[i], NCOLS, all, one));
            check_row(one, 0, 0, 0);
        }
        int64_t k = ((int64_t *)one->cols[0].data)[0];
        cr_assert_eq(k, upd_id[i]);
        Value v = {.is_null = false};
        v.u.i64 = (k % 7 == 3 ? 0 : 3 * k + 1) + 1000000;
        vec_set_value(&one->cols[1], 0, &v);
        uint64_t nw;
        cr_assert_eq(store_row_update(t, x, upd[i], one, 0, &nw), STORE_WRITE_OK);
        if (i % 512 == 0)
            mem_arena_reset(arena);
    }
    for (uint64_t i = 0; i < ndel; i++) {
        uint64_t nw;
        cr_assert_eq(store_row_delete(t, x, delrow[i], &nw), STORE_WRITE_OK);
    }
    store_txn_commit(x);
    mem_arena_reset(arena);
    int64_t dsum = 0;
    for (uint64_t i = 0; i < ndel; i++)
        dsum += del[i];
    *deleted_ids = dsum;
    *ndeleted = (int64_t)ndel;
}

Test(runsread, update_delete_of_cold_rows_survive_checkpoint_and_restart)
{
    StoreTable *t = make_wide("w");
    load_wide(t, 0, ROWS);
    checkpoint_ok();
    int64_t dsum, ndel;
    update_delete_cold(t, &dsum, &ndel);
    int64_t sum;
    uint64_t want_rows = ROWS - (uint64_t)ndel;
    cr_assert_eq(scan_check(t, NULL, 10, 1000000, &sum), want_rows);
    cr_assert_eq(sum, tri(ROWS) - dsum);
    restart();  /* checkpoint run + WAL of the updates */
    t = store_table_lookup("public", "w");
    cr_assert_eq(scan_check(t, NULL, 10, 1000000, &sum), want_rows);
    cr_assert_eq(sum, tri(ROWS) - dsum);
    checkpoint_ok();  /* rewrites cold groups from the previous run */
    cr_assert_gt(cold_chunks(t, 1), 0);
    restart();
    t = store_table_lookup("public", "w");
    cr_assert_eq(scan_check(t, NULL, 10, 1000000, &sum), want_rows);
    cr_assert_eq(sum, tri(ROWS) - dsum);
}

__attribute__((noinline)) static void lookup_is(StoreTable *t, int64_t k, uint64_t want)
{
    Value key = {.is_null = false, .u.i64 = k};
    uint64_t r = UINT64_MAX;
    bool found = false;
    NO_ERROR(found = store_table_lookup_key(t, NULL, &key, &r));
    cr_assert(found && r == want, "key %lld", (long long)k);
}

Test(runsread, add_primary_key_and_add_column_on_cold_columns)
{
    StoreTable *t = make_wide("w");
    load_wide(t, 0, ROWS);
    checkpoint_ok();
    cr_assert_gt(cold_chunks(t, 0), 0);
    StoreTxn *x = store_txn_begin();
    int pk[] = {0};
    NO_ERROR(store_table_add_pkey(t, x, 1, pk));
    cr_assert_eq(cold_chunks(t, 0), 0, "key column thawed");
    StoreColumnDef c = {"extra", SQLTYPE(TYPE_INT8), false, NULL};
    Value fill = {.is_null = false, .u.i64 = 42};
    NO_ERROR(store_table_add_column(t, x, &c, &fill));
    store_txn_commit(x);
    for (int64_t k = 0; k < ROWS; k += 7919)
        lookup_is(t, k, (uint64_t)k);
    restart();  /* the WAL's ADD PRIMARY KEY replayed over cold columns */
    t = store_table_lookup("public", "w");
    cr_assert_eq(cold_chunks(t, 0), 0, "key column thawed by the replay");
    cr_assert_gt(cold_chunks(t, 1), 0);
    for (int64_t k = 3; k < ROWS; k += 7919)
        lookup_is(t, k, (uint64_t)k);
    checkpoint_ok();
    /* The checkpoint puts the keys in a key run (storage/keyruns.c): the
     * key column goes cold as the others. */
    cr_assert_eq(cold_chunks(t, 0), cold_chunks(t, 1), "the key column goes cold with its keys in runs");
    cr_assert_gt(cold_chunks(t, 5), 0, "the added column goes cold too");
    restart();
    t = store_table_lookup("public", "w");
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), ROWS);
    int cols[] = {5, 0};
    StoreScan *s = store_scan_begin(t, NULL, 2, cols, 0, NULL, arena);
    Batch b = {0};
    uint64_t n = 0;
    while (store_scan_next(s, &b))
        for (uint32_t r = 0; r < b.count; r++, n++)
            cr_assert_eq(((int64_t *)b.cols[0].data)[r], 42);
    store_scan_end(s);
    cr_assert_eq(n, ROWS);
    lookup_is(t, ROWS - 1, ROWS - 1);
}

/* 1 when a full checked scan raises XX001 naming path, 0 when it returns
 * every row right; anything else fails the test. */
__attribute__((noinline)) static int scan_or_xx001(StoreTable *t, const char *path)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        int64_t sum;
        cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), ROWS);
        cr_assert_eq(sum, tri(ROWS));
        err_pop(&jmp);
        return 0;
    }
    const ErrorData *e = err_current();
    cr_assert_str_eq(e->sqlstate, "XX001", "%s", e->message);
    cr_assert(strstr(e->message, path) != NULL, "%s", e->message);
    err_clear();
    return 1;
}

/* Flip bytes of the run while the store serves it: each scan either raises
 * XX001 naming the file or returns exactly the right rows. */
Test(runsread, damaged_run_block_is_xx001_never_wrong_data)
{
    store__chunk_cache_set_budget(0);  /* every scan reads the file again */
    StoreTable *t = make_wide("w");
    load_wide(t, 0, ROWS);
    checkpoint_ok();
    char path[512];
    snprintf(path, sizeof path, "%s/checkpoint/%llu.%u.run", dir,
             (unsigned long long)t->run_cur->spans[0].run->gen, t->oid);
    int fd = open(path, O_RDWR);
    cr_assert_geq(fd, 0, "%s", path);
    struct stat st;
    cr_assert_eq(fstat(fd, &st), 0);
    int errors = 0;
    for (int i = 1; i < 40; i++) {
        off_t off = st.st_size / 40 * i;
        unsigned char c, flipped;
        cr_assert_eq(pread(fd, &c, 1, off), 1);
        flipped = c ^ 0x5a;
        cr_assert_eq(pwrite(fd, &flipped, 1, off), 1);
        errors += scan_or_xx001(t, path);
        mem_arena_reset(arena);
        cr_assert_eq(pwrite(fd, &c, 1, off), 1);
    }
    close(fd);
    cr_assert_geq(errors, 5, "only %d flips detected", errors);
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), ROWS);
}

/* Readers scan (and check every value) while the main thread appends and
 * checkpoints: freezes and run swaps under their feet. */
static StoreTable *conc_table;
static atomic_bool conc_stop;
static atomic_int conc_scans;

static void *conc_reader(void *arg)
{
    (void)arg;
    MemArena *a = mem_arena_create("reader");
    int cols[NCOLS] = {0, 1, 2, 3, 4};
    while (!atomic_load(&conc_stop)) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            StoreScan *s = store_scan_begin(conc_table, NULL, NCOLS, cols, 0, NULL, a);
            Batch b = {0};
            uint64_t n = 0;
            while (store_scan_next(s, &b)) {
                for (uint32_t r = 0; r < b.count; r++) {
                    int64_t k = ((int64_t *)b.cols[0].data)[r];
                    if (k != (int64_t)(n + r) || ((double *)b.cols[2].data)[r] != (double)k / 4.0 ||
                        (vec_is_valid(&b.cols[1], r) &&
                         ((int64_t *)b.cols[1].data)[r] != 3 * k + 1)) {
                        fprintf(stderr, "wrong row %lld at %llu\n", (long long)k,
                                (unsigned long long)(n + r));
                        abort();
                    }
                }
                n += b.count;
            }
            store_scan_end(s);
            err_pop(&jmp);
        } else {
            fprintf(stderr, "reader: %s\n", err_current()->message);
            abort();
        }
        mem_arena_reset(a);
        atomic_fetch_add(&conc_scans, 1);
    }
    mem_arena_destroy(a);
    return NULL;
}

Test(runsread, scans_during_checkpoints_are_safe)
{
    conc_table = make_wide("w");
    load_wide(conc_table, 0, 40000);
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, conc_reader, NULL);
    for (int round = 0; round < 6; round++) {
        load_wide(conc_table, 40000 + round * 20000, 20000);
        checkpoint_ok();
    }
    atomic_store(&conc_stop, true);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    cr_assert_gt(atomic_load(&conc_scans), 0);
    cr_assert_gt(cold_chunks(conc_table, 1), 0);
    int64_t sum;
    cr_assert_eq(scan_check(conc_table, NULL, 0, 0, &sum), 160000);
    cr_assert_eq(count_runs(), conc_table->run_cur->nspans, "only the table's runs remain");
    cr_assert_eq(conc_table->run_cur->nspans, 6, "one incremental run per checkpoint");
}

static void *drop_w(void *arg)
{
    (void)arg;
    store_table_drop("public", "w");  /* waits for the other transaction's scan */
    return NULL;
}

Test(runsread, run_files_go_when_superseded_or_dropped_and_unused)
{
    StoreTable *t = make_wide("w");
    load_wide(t, 0, 10000);
    checkpoint_ok();
    cr_assert_eq(count_runs(), 1);
    load_wide(t, 10000, 10000);
    checkpoint_ok();
    cr_assert_eq(count_runs(), 2, "incremental: the first run stays");
    checkpoint_ok();
    cr_assert_eq(count_runs(), 2, "no new rows: nothing written");
    /* ADD COLUMN makes the next checkpoint rewrite all rows as one run; a
     * scan holding the old runs keeps their files until it ends. */
    StoreTxn *x = store_txn_begin();
    StoreColumnDef c = {"extra", SQLTYPE(TYPE_INT4), false, NULL};
    NO_ERROR(store_table_add_column(t, x, &c, NULL));
    store_txn_commit(x);
    int cols[] = {1};
    MemArena *sa = mem_arena_create("scan");
    StoreScan *s = store_scan_begin(t, NULL, 1, cols, 0, NULL, sa);
    checkpoint_ok();
    cr_assert_eq(t->run_cur->nspans, 1);
    cr_assert_eq(count_runs(), 3, "the scan still holds the old runs");
    Batch b = {0};
    uint64_t n = 0;
    while (store_scan_next(s, &b))
        n += b.count;
    cr_assert_eq(n, 20000);
    store_scan_end(s);
    mem_arena_destroy(sa);
    cr_assert_eq(count_runs(), 1, "the last user removed the superseded runs");
    /* DROP TABLE: recovery from the current checkpoint still needs the file
     * (it replays the table's run before the DROP); the drop asks for a
     * checkpoint, which removes it once no scan uses the table. */
    sa = mem_arena_create("scan");
    StoreTxn *rx = store_txn_begin();
    s = store_scan_begin(t, rx, 1, cols, 0, NULL, sa);
    pthread_t dropper;
    pthread_create(&dropper, NULL, drop_w, NULL);
    usleep(300 * 1000);
    cr_assert_eq(count_runs(), 1, "the scan still uses the table");
    store_scan_end(s);
    store_txn_commit(rx);
    mem_arena_destroy(sa);
    pthread_join(dropper, NULL);
    for (int i = 0; i < 100 && count_runs() > 0; i++)
        usleep(50 * 1000);
    cr_assert_eq(count_runs(), 0, "the background checkpoint removed the dropped run");
    restart();
    cr_assert_null(store_table_lookup("public", "w"));
}

/* DROP TABLE, then a crash before any checkpoint: recovery replays the
 * checkpoint (the run is there) and the DROP. */
Test(runsread, drop_before_checkpoint_recovers)
{
    StoreTable *t = make_wide("w");
    load_wide(t, 0, 10000);
    checkpoint_ok();
    store__checkpointer_stop();  /* no background checkpoint: a crash right after the drop */
    store_table_drop("public", "w");
    cr_assert_eq(count_runs(), 1, "the current checkpoint still names the run");
    restart();
    cr_assert_null(store_table_lookup("public", "w"));
    t = make_wide("w");
    load_wide(t, 0, 5000);
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), 5000);
}

/* Checkpoints that append a run each, with deletions and updates of rows
 * held by older runs in between: every restart sees exactly the committed
 * state; past STORE_RUNS_MAX runs a checkpoint compacts them into one. */
Test(runsread, incremental_runs_deletions_and_compaction)
{
    StoreTable *t = make_wide("w");
    int64_t next = 0, dsum = 0, live = 0, maxruns = 0;
    bool compacted = false;
    for (int round = 0; round < 11; round++) {
        uint32_t add = 7000 + (uint32_t)round * 1500;  /* not multiples of 2048 */
        load_wide(t, next, add);
        next += add;
        live += add;
        /* Delete every row id % 97 == round (all runs so far). */
        StoreTxn *x = store_txn_begin();
        int cols[] = {STORE_COL_ROWID, 0};
        StoreScan *s = store_scan_begin(t, x, 2, cols, 0, NULL, arena);
        Batch b = {0};
        uint64_t rows[4096];
        int64_t ids[4096];
        int nd = 0;
        while (store_scan_next(s, &b))
            for (uint32_t r = 0; r < b.count && nd < 4096; r++) {
                int64_t k = ((int64_t *)b.cols[1].data)[r];
                if (k % 97 == round) {
                    ids[nd] = k;
                    rows[nd++] = (uint64_t)((int64_t *)b.cols[0].data)[r];
                }
            }
        store_scan_end(s);
        for (int i = 0; i < nd; i++) {
            uint64_t nw;
            cr_assert_eq(store_row_delete(t, x, rows[i], &nw), STORE_WRITE_OK);
            dsum += ids[i];
        }
        live -= nd;
        store_txn_commit(x);
        mem_arena_reset(arena);
        checkpoint_ok();
        int ns = t->run_cur->nspans;
        compacted |= ns < maxruns;
        maxruns = ns > maxruns ? ns : maxruns;
        cr_assert_leq(ns, 8);
        cr_assert_eq(count_runs(), ns);
        if (round % 3 == 2) {
            restart();
            t = store_table_lookup("public", "w");
            cr_assert_eq(t->run_cur->nspans, ns);
        }
        int64_t sum;
        cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), (uint64_t)live, "round %d", round);
        cr_assert_eq(sum, tri(next) - dsum, "round %d", round);
        cr_assert_gt(cold_chunks(t, 1), (uint64_t)next / STORE_GROUP_ROWS - 2);
    }
    cr_assert(compacted, "runs were compacted (max %lld)", (long long)maxruns);
    restart();
    t = store_table_lookup("public", "w");
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, 0, 0, &sum), (uint64_t)live);
    cr_assert_eq(sum, tri(next) - dsum);
}
