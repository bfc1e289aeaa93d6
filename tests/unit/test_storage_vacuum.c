/*
 * test_storage_vacuum.c — VACUUM reclaims dead versions (storage/vacuum.c).
 *
 * Deletes 90% of a table, VACUUMs, and checks that the run files shrank,
 * that row groups holding only dead rows gave their MVCC stamps back, and
 * that every query result is unchanged — after a restart too, for a
 * REPEATABLE READ transaction whose snapshot still sees the deleted rows
 * (VACUUM must keep them for it), while other threads scan concurrently,
 * and for primary-key lookups and re-inserts of deleted keys.
 * Includes storage_int.h to look at row group headers.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "vacuum"
#include "storage_fixture.h"

__attribute__((noinline)) static void checkpoint_ok(void) { NO_ERROR(store_checkpoint()); }
__attribute__((noinline)) static void vacuum_ok(StoreTable *t) { NO_ERROR(store_vacuum(t)); }

TestSuite(vacuum, .init = storage_setup, .fini = storage_teardown, .timeout = 180);

/* v(id bigint, a bigint, f double, s text): row k: a = 3k + 1 (NULL when
 * k % 7 == 3), f = k / 4.0, s = "s<k>". */
#define NCOLS 4
#define ROWS 200000
static StoreTable *make_table(const char *name, int npkey)
{
    StoreColumnDef cols[NCOLS] = {
        {"id", SQLTYPE(TYPE_INT8), npkey > 0, NULL},
        {"a", SQLTYPE(TYPE_INT8), false, NULL},
        {"f", SQLTYPE(TYPE_FLOAT8), true, NULL},
        {"s", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    int pk = 0;
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, NCOLS, cols, npkey, npkey ? &pk : NULL));
    return t;
}

static Batch *make_batch(int64_t first, uint32_t n)
{
    SqlType types[NCOLS] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_FLOAT8),
                            SQLTYPE(TYPE_TEXT)};
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
        char *s = mem_printf(arena, "s%lld", (long long)k);
        v.u.str = (StrRef){s, (uint32_t)strlen(s)};
        vec_set_value(&b->cols[3], r, &v);
    }
    b->count = n;
    return b;
}

__attribute__((noinline)) static void append_ok(StoreTable *t, StoreTxn *x, Batch *b)
{
    NO_ERROR(store_table_append(t, x, b));
}

static void load(StoreTable *t, int64_t first, uint32_t n)
{
    StoreTxn *x = store_txn_begin();
    for (uint32_t done = 0; done < n; done += 2000) {
        uint32_t k = n - done < 2000 ? n - done : 2000;
        append_ok(t, x, make_batch(first + done, k));
        mem_arena_reset(arena);
    }
    store_txn_commit(x);
}

/* The 90% deleted: ids below 170000, and every third id above. */
static bool is_deleted(int64_t k) { return k < 170000 || k % 3 == 0; }

__attribute__((noinline)) static StoreWriteResult delete_one(StoreTable *t, StoreTxn *x, int64_t k)
{
    uint64_t newest = 0;
    StoreWriteResult r = STORE_WRITE_GONE;
    NO_ERROR(r = store_row_delete(t, x, (uint64_t)k, &newest));
    return r;
}

/* Delete them by locator (row number == id: appended in order, no key). */
static void delete_90(StoreTable *t)
{
    StoreTxn *x = store_txn_begin();
    store_txn_statement_begin(x);
    for (int64_t k = 0; k < ROWS; k++) {
        if (!is_deleted(k))
            continue;
        cr_assert_eq(delete_one(t, x, k), STORE_WRITE_OK, "delete of row %lld", (long long)k);
    }
    store_txn_commit(x);
}

/* Check one row against the formula (raises nothing: asserts). */
static void check_row(const Batch *b, uint32_t r)
{
    int64_t k = ((const int64_t *)b->cols[0].data)[r];
    bool a_null = !vec_is_valid(&b->cols[1], r);
    cr_assert_eq(a_null, k % 7 == 3, "a NULL of row %lld", (long long)k);
    if (!a_null)
        cr_assert_eq(((const int64_t *)b->cols[1].data)[r], 3 * k + 1, "a of row %lld", (long long)k);
    cr_assert(vec_is_valid(&b->cols[2], r) && ((const double *)b->cols[2].data)[r] == (double)k / 4.0,
              "f of row %lld", (long long)k);
    char want[32];
    snprintf(want, sizeof want, "s%lld", (long long)k);
    StrRef s = ((const StrRef *)b->cols[3].data)[r];
    cr_assert(s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0, "s of row %lld",
              (long long)k);
}

__attribute__((noinline)) static void scan_rows(StoreScan *s, uint64_t *n, int64_t *sum)
{
    Batch b = {0};
    while (store_scan_next(s, &b)) {
        for (uint32_t r = 0; r < b.count; r++) {
            check_row(&b, r);
            *sum += ((const int64_t *)b.cols[0].data)[r];
        }
        *n += b.count;
    }
}

/* Rows seen and the sum of their ids; every value checked. */
static uint64_t scan_check(StoreTable *t, StoreTxn *x, MemArena *a, int64_t *id_sum)
{
    int cols[NCOLS] = {0, 1, 2, 3};
    StoreScan *s = store_scan_begin(t, x, NCOLS, cols, 0, NULL, a);
    uint64_t n = 0;
    int64_t sum = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        scan_rows(s, &n, &sum);
        err_pop(&jmp);
    } else {
        store_scan_end(s);
        err_rethrow();
    }
    store_scan_end(s);
    *id_sum = sum;
    return n;
}

static void expected(bool after_delete, uint64_t *n, int64_t *sum)
{
    *n = 0;
    *sum = 0;
    for (int64_t k = 0; k < ROWS; k++)
        if (!after_delete || !is_deleted(k)) {
            (*n)++;
            *sum += k;
        }
}

__attribute__((noinline)) static uint64_t scan_ok(StoreTable *t, StoreTxn *x, int64_t *sum)
{
    uint64_t n = 0;
    NO_ERROR(n = scan_check(t, x, arena, sum));
    return n;
}

static void check_table(StoreTable *t, StoreTxn *x, bool after_delete)
{
    uint64_t want_n, n;
    int64_t want_sum, sum = 0;
    expected(after_delete, &want_n, &want_sum);
    n = scan_ok(t, x, &sum);
    cr_assert_eq(n, want_n, "rows %llu, expected %llu", (unsigned long long)n,
                 (unsigned long long)want_n);
    cr_assert_eq(sum, want_sum);
    mem_arena_reset(arena);
}

static uint64_t vacuumed_groups(StoreTable *t)
{
    uint64_t n = 0, groups = atomic_load(&t->committed) / STORE_GROUP_ROWS;
    for (uint64_t g = 0; g < groups; g++)
        n += store__group_vacuumed(store__group(t, g));
    return n;
}

/* Bytes of checkpoint/<gen>.<oid>.run files of table oid. */
static uint64_t run_bytes(uint32_t oid)
{
    char path[512], suffix[32];
    snprintf(path, sizeof path, "%s/checkpoint", dir);
    snprintf(suffix, sizeof suffix, ".%u.run", oid);
    DIR *d = opendir(path);
    cr_assert_not_null(d);
    uint64_t bytes = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len < sl || strcmp(e->d_name + len - sl, suffix) != 0)
            continue;
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        struct stat st;
        if (stat(full, &st) == 0)
            bytes += (uint64_t)st.st_size;
    }
    closedir(d);
    return bytes;
}

/* Groups wholly below id 170000 (2048 rows each) hold dead rows only. */
#define DEAD_GROUPS (170000 / STORE_GROUP_ROWS)

Test(vacuum, delete_90_percent_then_vacuum_shrinks_run_and_memory)
{
    StoreTable *t = make_table("v", 0);
    load(t, 0, ROWS);
    checkpoint_ok();
    uint64_t before = run_bytes(t->oid);
    cr_assert_gt(before, 0);
    delete_90(t);
    check_table(t, NULL, true);
    checkpoint_ok();  /* no rewrite: the deletions are a TABLE_DELS record */
    cr_assert_eq(run_bytes(t->oid), before);
    cr_assert_eq(vacuumed_groups(t), 0);

    vacuum_ok(t);
    uint64_t after = run_bytes(t->oid);
    cr_assert_lt(after * 3, before, "run %llu bytes after VACUUM, %llu before",
                 (unsigned long long)after, (unsigned long long)before);
    cr_assert_eq(vacuumed_groups(t), DEAD_GROUPS);
    check_table(t, NULL, true);
    /* Another VACUUM finds nothing new and changes no result. */
    vacuum_ok(NULL);
    cr_assert_eq(vacuumed_groups(t), DEAD_GROUPS);
    check_table(t, NULL, true);

    restart();
    t = store_table_lookup("public", "v");
    cr_assert_not_null(t);
    cr_assert_eq(vacuumed_groups(t), DEAD_GROUPS, "recovery releases dead groups too");
    check_table(t, NULL, true);
    cr_assert_lt(run_bytes(t->oid) * 3, before);
    /* New rows after the dead ones, a checkpoint, another restart. */
    load(t, ROWS, 5000);
    checkpoint_ok();
    restart();
    t = store_table_lookup("public", "v");
    int64_t sum = 0;
    uint64_t n = scan_ok(t, NULL, &sum);
    uint64_t want_n;
    int64_t want_sum;
    expected(true, &want_n, &want_sum);
    cr_assert_eq(n, want_n + 5000);
    cr_assert_eq(sum, want_sum + (int64_t)5000 * ROWS + 5000 * 4999 / 2);
}

Test(vacuum, an_older_snapshot_keeps_its_rows)
{
    StoreTable *t = make_table("v", 0);
    load(t, 0, ROWS);
    checkpoint_ok();
    StoreTxn *rr = store_txn_begin();
    store_txn_set_isolation(rr, STORE_REPEATABLE_READ);
    store_txn_statement_begin(rr);  /* snapshot before the delete */
    delete_90(t);
    vacuum_ok(t);
    cr_assert_eq(vacuumed_groups(t), 0, "a live snapshot sees the deleted rows");
    check_table(t, rr, false);  /* every deleted row, values read from the rewritten run */
    check_table(t, NULL, true);
    store_txn_commit(rr);
    vacuum_ok(t);
    cr_assert_eq(vacuumed_groups(t), DEAD_GROUPS);
    check_table(t, NULL, true);
}

static StoreTable *conc_table;
static atomic_bool conc_stop;
static atomic_int conc_scans;
static atomic_int conc_bad;

/* READ COMMITTED scans (a fresh snapshot each) while VACUUM runs: each sees
 * either every row (before the delete committed) or the survivors. */
static void *conc_reader(void *arg)
{
    (void)arg;
    MemArena *a = mem_arena_create("reader");
    uint64_t full_n, del_n;
    int64_t full_sum, del_sum;
    expected(false, &full_n, &full_sum);
    expected(true, &del_n, &del_sum);
    while (!atomic_load(&conc_stop)) {
        StoreTxn *x = store_txn_begin();
        store_txn_statement_begin(x);
        int cols[NCOLS] = {0, 1, 2, 3};
        StoreScan *s = store_scan_begin(conc_table, x, NCOLS, cols, 0, NULL, a);
        uint64_t n = 0;
        int64_t sum = 0;
        Batch b = {0};
        while (store_scan_next(s, &b)) {
            for (uint32_t r = 0; r < b.count; r++) {
                int64_t k = ((const int64_t *)b.cols[0].data)[r];
                bool a_ok = k % 7 == 3 ? !vec_is_valid(&b.cols[1], r)
                                       : ((const int64_t *)b.cols[1].data)[r] == 3 * k + 1;
                if (!a_ok || ((const double *)b.cols[2].data)[r] != (double)k / 4.0)
                    atomic_fetch_add(&conc_bad, 1);
                sum += k;
            }
            n += b.count;
        }
        store_scan_end(s);
        store_txn_commit(x);
        if (!((n == full_n && sum == full_sum) || (n == del_n && sum == del_sum)))
            atomic_fetch_add(&conc_bad, 1);
        atomic_fetch_add(&conc_scans, 1);
        mem_arena_reset(a);
    }
    mem_arena_destroy(a);
    return NULL;
}

Test(vacuum, concurrent_scans_see_unchanged_results)
{
    conc_table = make_table("v", 0);
    load(conc_table, 0, ROWS);
    checkpoint_ok();
    atomic_store(&conc_stop, false);
    atomic_store(&conc_scans, 0);
    atomic_store(&conc_bad, 0);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, conc_reader, NULL);
    delete_90(conc_table);
    for (int round = 0; round < 3; round++) {
        vacuum_ok(conc_table);
        int seen = atomic_load(&conc_scans);
        while (atomic_load(&conc_scans) < seen + 2)
            sched_yield();
    }
    atomic_store(&conc_stop, true);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    cr_assert_eq(atomic_load(&conc_bad), 0, "a scan saw wrong rows");
    cr_assert_gt(atomic_load(&conc_scans), 0);
    /* Released at the latest once no reader held an old snapshot. */
    vacuum_ok(conc_table);
    cr_assert_eq(vacuumed_groups(conc_table), DEAD_GROUPS);
    check_table(conc_table, NULL, true);
}

__attribute__((noinline)) static bool append_raises_23505(StoreTable *t, Batch *b)
{
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    volatile bool raised = false;
    if (ERR_TRY(jmp)) {
        store_table_append(t, x, b);
        err_pop(&jmp);
    } else {
        raised = strcmp(err_current()->sqlstate, "23505") == 0;
        err_clear();
    }
    store_txn_rollback(x);
    return raised;
}

__attribute__((noinline)) static bool lookup_ok(StoreTable *t, StoreTxn *x, Value *key, uint64_t *row)
{
    bool found = false;
    NO_ERROR(found = store_table_lookup_key(t, x, key, row));
    return found;
}

static bool lookup(StoreTable *t, int64_t k, uint64_t *row)
{
    Value key = {.is_null = false};
    key.u.i64 = k;
    StoreTxn *x = store_txn_begin();
    store_txn_statement_begin(x);
    bool found = lookup_ok(t, x, &key, row);
    store_txn_commit(x);
    return found;
}

Test(vacuum, primary_key_lookups_and_reinserts_after_vacuum)
{
    StoreTable *t = make_table("k", 1);
    load(t, 0, ROWS);
    checkpoint_ok();
    delete_90(t);
    vacuum_ok(t);
    cr_assert_eq(vacuumed_groups(t), DEAD_GROUPS);
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t k = 0; k < ROWS; k += 997) {
            uint64_t row = 0;
            bool found = lookup(t, k, &row);
            cr_assert_eq(found, !is_deleted(k), "key %lld (pass %d)", (long long)k, pass);
            if (found)
                cr_assert_eq(row, (uint64_t)k);
        }
        if (pass == 0) {
            restart();
            t = store_table_lookup("public", "k");
        }
    }
    /* Deleted keys can come back; live ones are still unique. */
    load(t, 1000, 2000);
    uint64_t row = 0;
    cr_assert(lookup(t, 1500, &row));
    cr_assert_eq(row, (uint64_t)ROWS + 500);
    cr_assert(append_raises_23505(t, make_batch(170002, 1)), "duplicate of a live key");
    mem_arena_reset(arena);
    vacuum_ok(t);
    restart();
    t = store_table_lookup("public", "k");
    cr_assert(lookup(t, 1500, &row));
    cr_assert_eq(row, (uint64_t)ROWS + 500);
    cr_assert(!lookup(t, 1, &row));
}

/* ---- frozen stamps (vacuum.c): after a restart, groups of live,
 * never-updated rows share one stamp array; a writer thaws its group. */

static uint64_t frozen_groups(StoreTable *t)
{
    uint64_t n = 0, groups = atomic_load(&t->committed) / STORE_GROUP_ROWS;
    for (uint64_t g = 0; g < groups; g++)
        n += store__group_frozen(store__group(t, g));
    return n;
}

/* Groups whose xmin alone is frozen (their deleted or updated rows keep
 * xmax and next): xmin at the shared zeros that frozen groups point to. */
static uint64_t xmin_frozen_groups(StoreTable *t)
{
    uint64_t n = 0, groups = atomic_load(&t->committed) / STORE_GROUP_ROWS;
    const uint64_t *shared = NULL;
    for (uint64_t g = 0; g < groups && !shared; g++)
        if (store__group_frozen(store__group(t, g)))
            shared = store__group(t, g)->xmin;
    cr_assert_not_null(shared, "a frozen group to compare with");
    for (uint64_t g = 0; g < groups; g++)
        n += !store__group_frozen(store__group(t, g)) && store__group(t, g)->xmin == shared;
    return n;
}

__attribute__((noinline)) static StoreWriteResult update_one(StoreTable *t, StoreTxn *x, int64_t k,
                                                            int64_t as)
{
    uint64_t newest = 0;
    StoreWriteResult r = STORE_WRITE_GONE;
    NO_ERROR(r = store_row_update(t, x, (uint64_t)k, make_batch(as, 1), 0, &newest));
    return r;
}

__attribute__((noinline)) static void truncate_ok(StoreTable *t, StoreTxn *x)
{
    NO_ERROR(store_table_truncate(t, x));
}

/* Rows seen by a fresh snapshot, and the sum of their ids. */
static uint64_t count_now(StoreTable *t, int64_t *sum)
{
    StoreTxn *x = store_txn_begin();
    store_txn_statement_begin(x);
    uint64_t n = scan_ok(t, x, sum);
    store_txn_commit(x);
    mem_arena_reset(arena);
    return n;
}

Test(vacuum, frozen_stamps_thaw_for_writers)
{
    const uint64_t whole = ROWS / STORE_GROUP_ROWS;  /* 97 groups and a partial one */
    const int64_t total = (int64_t)ROWS * (ROWS - 1) / 2;
    StoreTable *t = make_table("z", 0);
    load(t, 0, ROWS);
    StoreTxn *x = store_txn_begin();
    store_txn_statement_begin(x);
    cr_assert_eq(delete_one(t, x, 5 * STORE_GROUP_ROWS + 7), STORE_WRITE_OK);
    store_txn_commit(x);
    /* A snapshot older than the last rows keeps their groups' stamps. */
    StoreTxn *old = store_txn_begin();
    store_txn_set_isolation(old, STORE_REPEATABLE_READ);
    store_txn_statement_begin(old);
    load(t, ROWS, 4 * STORE_GROUP_ROWS);
    checkpoint_ok();
    cr_assert_eq(frozen_groups(t), whole - 1, "all but the deleted row's and the newer rows'");
    store_txn_commit(old);
    x = store_txn_begin();  /* the rows loaded after `old` go again: back to ROWS rows */
    store_txn_statement_begin(x);
    for (int64_t k = ROWS; k < ROWS + 4 * STORE_GROUP_ROWS; k++)
        cr_assert_eq(delete_one(t, x, k), STORE_WRITE_OK);
    store_txn_commit(x);
    checkpoint_ok();
    cr_assert_eq(frozen_groups(t), whole - 1, "a checkpoint freezes the settled groups");
    uint64_t deleted_groups = atomic_load(&t->committed) / STORE_GROUP_ROWS - (whole - 1);
    cr_assert_eq(xmin_frozen_groups(t), deleted_groups, "the others' xmin alone");
    cr_assert(!store__group_frozen(store__group(t, 5)) &&
              store__group(t, 5)->xmin == store__group(t, 0)->xmin, "group 5: xmin only");
    restart();
    t = store_table_lookup("public", "z");
    cr_assert_eq(frozen_groups(t), whole - 1, "and recovery does again");
    cr_assert(xmin_frozen_groups(t) >= 1 && !store__group_frozen(store__group(t, 5)) &&
                  store__group(t, 5)->xmin == store__group(t, 0)->xmin,
              "group 5's xmin alone (the wholly deleted ones are released)");
    int64_t sum = 0;
    cr_assert_eq(count_now(t, &sum), ROWS - 1);
    cr_assert_eq(sum, total - (5 * STORE_GROUP_ROWS + 7));

    /* A snapshot taken before a delete in a frozen group keeps the row. */
    StoreTxn *rr = store_txn_begin();
    store_txn_set_isolation(rr, STORE_REPEATABLE_READ);
    store_txn_statement_begin(rr);
    x = store_txn_begin();
    store_txn_statement_begin(x);
    cr_assert_eq(delete_one(t, x, 10), STORE_WRITE_OK);
    cr_assert_eq(delete_one(t, x, 10), STORE_WRITE_GONE, "claimed in the thawed group");
    cr_assert_eq(update_one(t, x, STORE_GROUP_ROWS + 3, 1000000), STORE_WRITE_OK);
    store_txn_commit(x);
    cr_assert_eq(frozen_groups(t), whole - 3);
    cr_assert_eq(scan_ok(t, rr, &sum), ROWS - 1, "the snapshot before the writes");
    cr_assert_eq(sum, total - (5 * STORE_GROUP_ROWS + 7));
    mem_arena_reset(arena);
    store_txn_commit(rr);
    int64_t want = total - (5 * STORE_GROUP_ROWS + 7) - 10 - (STORE_GROUP_ROWS + 3) + 1000000;
    cr_assert_eq(count_now(t, &sum), ROWS - 2);
    cr_assert_eq(sum, want);

    /* A rolled back delete leaves the group thawed, the row live. */
    x = store_txn_begin();
    store_txn_statement_begin(x);
    cr_assert_eq(delete_one(t, x, 2 * STORE_GROUP_ROWS), STORE_WRITE_OK);
    store_txn_rollback(x);
    cr_assert_eq(frozen_groups(t), whole - 4);
    cr_assert_eq(count_now(t, &sum), ROWS - 2);
    cr_assert_eq(sum, want);

    /* TRUNCATE thaws every group; its rollback gives every row back. */
    x = store_txn_begin();
    truncate_ok(t, x);
    store_txn_rollback(x);
    cr_assert_eq(frozen_groups(t), 0);
    cr_assert_eq(count_now(t, &sum), ROWS - 2);
    cr_assert_eq(sum, want);

    /* A checkpoint freezes the untouched groups again, a restart too. */
    checkpoint_ok();
    cr_assert_eq(frozen_groups(t), whole - 3, "groups 0, 1 and 5 hold deleted rows");
    cr_assert(store__group(t, 0)->xmin == store__group(t, 3)->xmin &&
              store__group(t, 1)->xmin == store__group(t, 3)->xmin, "their xmin alone frozen");
    restart();
    t = store_table_lookup("public", "z");
    cr_assert_eq(frozen_groups(t), whole - 3);
    cr_assert_eq(count_now(t, &sum), ROWS - 2);
    cr_assert_eq(sum, want);
    x = store_txn_begin();
    truncate_ok(t, x);
    store_txn_commit(x);
    cr_assert_eq(count_now(t, &sum), 0);
    restart();
    t = store_table_lookup("public", "z");
    cr_assert_eq(count_now(t, &sum), 0);
}

/* Claims race checkpoints that freeze: threads increment counters by
 * key (READ COMMITTED: lookup, fetch, update; most roll back, so their
 * groups stay freezable and freeze again) while another thread checkpoints
 * in a loop. A claim lost to a freeze would show as the claimed row
 * without the claimer's mark, or as two increments of one counter
 * committed from the same version (the total would fall short). */
#define CTR_ROWS (64 * STORE_GROUP_ROWS)
#define CTR_THREADS 3
#define CTR_OPS 3000
static StoreTable *ctr_table;
static atomic_int ctr_stop, ctr_committed, ctr_errors, ctr_checkpoints, ctr_unmarked;

static Batch *ctr_batch(MemArena *a, int64_t id, int64_t v)
{
    SqlType types[2] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(a, 2, types);
    ((int64_t *)b->cols[0].data)[0] = id;
    ((int64_t *)b->cols[1].data)[0] = v;
    b->count = 1;
    return b;
}

/* One increment of counter k in its own transaction; true when committed. */
static bool ctr_increment(MemArena *a, int64_t k, bool commit)
{
    StoreTxn *x = store_txn_begin();
    volatile bool done = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (;;) {
            store_txn_statement_begin(x);
            Value key = {.is_null = false};
            key.u.i64 = k;
            uint64_t row = 0, newest = 0;
            if (!store_table_lookup_key(ctr_table, x, &key, &row))
                err_raise(ERRCODE_INTERNAL_ERROR, "counter %lld is gone", (long long)k);
            SqlType types[2] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
            Batch *cur = batch_create(a, 2, types);
            int cols[2] = {0, 1};
            if (!store_row_fetch(ctr_table, x, row, 2, cols, cur))
                continue;  /* updated since the lookup: again */
            int64_t v = ((const int64_t *)cur->cols[1].data)[0];
            StoreWriteResult r = store_row_update(ctr_table, x, row, ctr_batch(a, k, v + 1), 0, &newest);
            if (r == STORE_WRITE_OK) {
                sched_yield();  /* a checkpoint may run meanwhile */
                if (atomic_load(store__xmax_of(ctr_table, newest)) != (STORE_XMAX_MARK | store_txn_id(x)))
                    atomic_fetch_add(&ctr_unmarked, 1);
                done = true;
                break;
            }
            mem_arena_reset(a);  /* MOVED or GONE: a newer version committed; again */
        }
        err_pop(&jmp);
    } else {
        fprintf(stderr, "increment of %lld: %s\n", (long long)k, err_current()->message);
        err_clear();
        atomic_fetch_add(&ctr_errors, 1);
        store_txn_rollback(x);
        return false;
    }
    if (done && commit) {
        store_txn_commit(x);
        return true;
    }
    store_txn_rollback(x);
    return false;
}

static void *ctr_writer(void *arg)
{
    uint64_t seed = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15u + 1;
    MemArena *a = mem_arena_create("ctr writer");
    /* CTR_OPS increments, and on until a few checkpoints ran meanwhile. */
    for (int i = 0; i < CTR_OPS || atomic_load(&ctr_checkpoints) < 5; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        int64_t k = (int64_t)(seed % CTR_ROWS);
        if (ctr_increment(a, k, ((seed >> 40) & 63) == 0))
            atomic_fetch_add(&ctr_committed, 1);
        mem_arena_reset(a);
    }
    mem_arena_destroy(a);
    return NULL;
}

static void *ctr_checkpointer(void *arg)
{
    (void)arg;
    while (!atomic_load(&ctr_stop)) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            store_checkpoint();
            err_pop(&jmp);
            atomic_fetch_add(&ctr_checkpoints, 1);
        } else {
            fprintf(stderr, "checkpoint: %s\n", err_current()->message);
            err_clear();
            atomic_fetch_add(&ctr_errors, 1);
        }
    }
    return NULL;
}

/* Every counter is there once and their sum is the committed increments. */
static void ctr_check(int round)
{
    int cols[2] = {0, 1};
    StoreTxn *r = store_txn_begin();
    store_txn_statement_begin(r);
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(ctr_table, r, 2, cols, 0, NULL, arena));
    uint64_t n = 0;
    int64_t sum = 0;
    Batch b = {0};
    while (store_scan_next(s, &b)) {
        for (uint32_t i = 0; i < b.count; i++)
            sum += ((const int64_t *)b.cols[1].data)[b.sel ? b.sel[i] : i];
        n += b.count;
    }
    store_scan_end(s);
    store_txn_commit(r);
    mem_arena_reset(arena);
    cr_assert_eq(n, CTR_ROWS, "round %d", round);
    cr_assert_eq(sum, atomic_load(&ctr_committed), "round %d: every committed increment", round);
}

Test(vacuum, claims_race_freezing_checkpoints)
{
    StoreColumnDef cols[2] = {{"id", SQLTYPE(TYPE_INT8), true, NULL}, {"v", SQLTYPE(TYPE_INT8), true, NULL}};
    int pk = 0;
    NO_ERROR(ctr_table = store_table_create("public", "ctr", 2, cols, 1, &pk));
    StoreTxn *x = store_txn_begin();
    SqlType types[2] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
    for (int64_t first = 0; first < CTR_ROWS; first += VEC_CAPACITY) {
        Batch *b = batch_create(arena, 2, types);
        for (uint32_t r = 0; r < VEC_CAPACITY; r++) {
            ((int64_t *)b->cols[0].data)[r] = first + r;
            ((int64_t *)b->cols[1].data)[r] = 0;
        }
        b->count = VEC_CAPACITY;
        append_ok(ctr_table, x, b);
        mem_arena_reset(arena);
    }
    store_txn_commit(x);
    checkpoint_ok();
    cr_assert_eq(frozen_groups(ctr_table), CTR_ROWS / STORE_GROUP_ROWS);
    pthread_t w[CTR_THREADS], c;
    pthread_create(&c, NULL, ctr_checkpointer, NULL);
    for (int i = 0; i < CTR_THREADS; i++)
        pthread_create(&w[i], NULL, ctr_writer, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < CTR_THREADS; i++)
        pthread_join(w[i], NULL);
    atomic_store(&ctr_stop, 1);
    pthread_join(c, NULL);
    cr_assert_eq(atomic_load(&ctr_unmarked), 0, "a claimed row lost its mark (%d errors)",
                 atomic_load(&ctr_errors));
    cr_assert_eq(atomic_load(&ctr_errors), 0);
    cr_assert_geq(atomic_load(&ctr_checkpoints), 5, "checkpoints ran meanwhile");
    for (int round = 0; round < 2; round++) {
        ctr_check(round);
        restart();
        ctr_table = store_table_lookup("public", "ctr");
    }
}

/* Not VACUUM, the other half of "big transactions cost memory": a
 * transaction's WAL records past STORE_WAL_SPILL_BYTES move to an unnamed
 * file, a ROLLBACK TO cuts back into it, COMMIT copies it to the log. */
__attribute__((noinline)) static void load_in(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n)
{
    for (uint32_t done = 0; done < n; done += 2000) {
        uint32_t k = n - done < 2000 ? n - done : 2000;
        append_ok(t, x, make_batch(first + done, k));
        mem_arena_reset(arena);
    }
}

Test(vacuum, big_transaction_wal_spills_and_replays)
{
    StoreTable *t = make_table("w", 0);
    StoreTxn *x = store_txn_begin();
    load_in(t, x, 0, 100000);
    cr_assert_eq(x->wal_spilled, 0);
    int level = store_txn_savepoint(x);
    load_in(t, x, 100000, 600000);
    cr_assert_gt(x->wal_spilled, 0, "spilled nothing (%zu bytes in memory)", x->wal_len);
    cr_assert_leq(x->wal_len, STORE_WAL_SPILL_BYTES + (1u << 20));
    uint64_t before = x->wal_spilled;
    store_txn_rollback_to(x, level);  /* back inside the spilled records */
    cr_assert_lt(x->wal_spilled, before);
    load_in(t, x, 100000, 50000);
    store_txn_commit(x);
    cr_assert_eq(x->wal_spill_fd, 0);
    uint64_t n = 0;
    int64_t sum = 0;
    for (int round = 0; round < 2; round++) {
        n = scan_ok(t, NULL, &sum);
        cr_assert_eq(n, 150000);
        cr_assert_eq(sum, (int64_t)150000 * 149999 / 2);
        restart();  /* replays the WAL: the spilled records were copied in order */
        t = store_table_lookup("public", "w");
        cr_assert_not_null(t);
    }
}
