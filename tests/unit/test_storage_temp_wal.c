/*
 * test_storage_temp_wal.c — temporary tables are never logged nor
 * checkpointed (storage/wal.c, recovery.c, bulk.c; storage/README.md
 * "Temporary schemas"), as PostgreSQL never WAL-logs temporary relations:
 * CREATE, INSERT, UPDATE, DELETE, TRUNCATE, ADD COLUMN, ADD PRIMARY KEY,
 * DROP and a bulk load (COPY) of one add nothing to the log but the
 * transactions' COMMIT records, a checkpoint writes no run for one, a bulk
 * load writes no run file, while rollback, savepoints and the restart that
 * drops them (with the sequences they own, which are logged) still work.
 * The first test prints the WAL bytes of the same work on a permanent and
 * on a temporary table (figure in storage/README.md).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "tempwal"
#include "storage_fixture.h"

TestSuite(tempwal, .init = storage_setup, .fini = storage_teardown, .timeout = 120);

/* One COMMIT record: header + u64 sequence. */
#define COMMIT_BYTES (STORE_WAL_HEADER + 8)
#define BIG 200704   /* past STORE_BULK_RUN_ROWS: a permanent table's load writes a run */

/* schema.w (id bigint primary key, a integer, s text); may raise. */
static StoreTable *make_w(const char *schema)
{
    StoreColumnDef cols[] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"a", SQLTYPE(TYPE_INT4), false, NULL},
        {"s", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    int pk[] = {0};
    return store_table_create(schema, "w", 3, cols, 1, pk);
}

/* Rows id = first .. first + n - 1: a = id % 1000, s = "s<id>". */
static Batch *w_batch(int64_t first, uint32_t n)
{
    SqlType types[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(arena, 3, types);
    for (uint32_t i = 0; i < n; i++) {
        int64_t id = first + i;
        Value v = {.is_null = false};
        v.u.i64 = id;
        vec_set_value(&b->cols[0], i, &v);
        v.u.i32 = (int32_t)(id % 1000);
        vec_set_value(&b->cols[1], i, &v);
        char *s = mem_printf(arena, "s%lld", (long long)id);
        v.u.str = (StrRef){s, (uint32_t)strlen(s)};
        vec_set_value(&b->cols[2], i, &v);
    }
    b->count = n;
    return b;
}

__attribute__((noinline)) static void put_ok(StoreTable *t, StoreTxn *x, Batch *b, bool bulk)
{
    if (bulk)
        NO_ERROR(store_table_bulk_load(t, x, b));
    else
        NO_ERROR(store_table_append(t, x, b));
}

/* Ids [first, first + n) in batches of 2048, appended (INSERT) or bulk loaded (COPY). */
static void fill(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n, bool bulk)
{
    for (uint32_t done = 0; done < n; done += 2048) {
        uint32_t k = n - done < 2048 ? n - done : 2048;
        put_ok(t, x, w_batch(first + (int64_t)done, k), bulk);
        mem_arena_reset(arena);
    }
}

__attribute__((noinline)) static void truncate_ok(StoreTable *t, StoreTxn *x)
{
    NO_ERROR(store_table_truncate(t, x));
}

/* Visible rows (each checked against its id); *ids gets the sum of ids. */
static uint64_t check_all(StoreTable *t, StoreTxn *x, int64_t *ids)
{
    int cols[] = {0, 1, 2};
    StoreScan *s = NULL;
    NO_ERROR(s = store_scan_begin(t, x, 3, cols, 0, NULL, arena));
    Batch b = {0};
    uint64_t n = 0;
    int64_t sum = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t i = 0; i < b.count; i++) {
            int64_t id = ((int64_t *)b.cols[0].data)[i];
            sum += id;
            cr_assert_eq(((int32_t *)b.cols[1].data)[i], (int32_t)(id % 1000));
            char want[32];
            snprintf(want, sizeof want, "s%lld", (long long)id);
            StrRef r = ((StrRef *)b.cols[2].data)[i];
            cr_assert(r.len == strlen(want) && memcmp(r.ptr, want, r.len) == 0);
        }
        n += b.count;
    }
    store_scan_end(s);
    if (ids)
        *ids = sum;
    return n;
}

static int64_t idsum(int64_t first, int64_t n) { return n * first + n * (n - 1) / 2; }

/* Files in checkpoint/ whose name ends in ".<oid>.run" (or .run.tmp). */
static int run_files_of(uint32_t oid)
{
    char path[512], suffix[32];
    snprintf(path, sizeof path, "%s/checkpoint", dir);
    snprintf(suffix, sizeof suffix, ".%u.run", oid);
    DIR *d = opendir(path);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strstr(e->d_name, suffix) != NULL;
    closedir(d);
    return n;
}

/* Delete id k, update id u to id u + shift (in x); both must be found. */
static void delete_and_update(StoreTable *t, StoreTxn *x, int64_t k, int64_t u, int64_t shift)
{
    Value key = {.is_null = false};
    uint64_t r = 0, nw;
    key.u.i64 = k;
    cr_assert(store_table_lookup_key(t, x, &key, &r));
    cr_assert_eq(store_row_delete(t, x, r, &nw), STORE_WRITE_OK);
    key.u.i64 = u;
    cr_assert(store_table_lookup_key(t, x, &key, &r));
    cr_assert_eq(store_row_update(t, x, r, w_batch(u + shift, 1), 0, &nw), STORE_WRITE_OK);
}

/* The same DDL and DML on schema.w, each step a transaction: the WAL
 * bytes they wrote. */
static uint64_t work_wal_bytes(const char *schema, int *commits)
{
    uint64_t w0 = store__wal_size();
    StoreTable *t = NULL;
    NO_ERROR(t = make_w(schema));
    StoreTxn *x = store_txn_begin();
    fill(t, x, 1, BIG, false);                           /* INSERT of 200,704 rows */
    store_txn_commit(x);
    x = store_txn_begin();
    delete_and_update(t, x, 10, 20, BIG);                 /* DELETE, UPDATE */
    StoreColumnDef c = {"extra", SQLTYPE(TYPE_INT8), false, NULL};
    Value fill_v = {.is_null = false};
    fill_v.u.i64 = 7;
    NO_ERROR(store_table_add_column(t, x, &c, &fill_v));  /* ADD COLUMN ... DEFAULT 7 */
    store_txn_commit(x);
    x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));                 /* TRUNCATE */
    store_txn_commit(x);
    NO_ERROR(store_table_drop(schema, "w"));              /* DROP */
    *commits = 5;   /* CREATE and DROP commit on their own */
    return store__wal_size() - w0;
}

Test(tempwal, temp_work_writes_commit_records_only)
{
    int nperm = 0, ntemp = 0;
    uint64_t f0 = store__wal_fsyncs();
    uint64_t perm = work_wal_bytes("public", &nperm);
    uint64_t f1 = store__wal_fsyncs();
    uint64_t temp = work_wal_bytes("pg_temp", &ntemp);
    uint64_t f2 = store__wal_fsyncs();
    fprintf(stderr, "WAL bytes for 200,704-row INSERT + DELETE + UPDATE + ADD COLUMN + TRUNCATE + "
                    "DROP, %d commits: permanent %llu (%llu fsyncs), temporary %llu (%llu fsyncs)\n",
            ntemp, (unsigned long long)perm, (unsigned long long)(f1 - f0),
            (unsigned long long)temp, (unsigned long long)(f2 - f1));
    cr_assert_gt(perm, (uint64_t)BIG * 8, "the permanent table's rows are logged");
    cr_assert_leq(temp, (uint64_t)ntemp * COMMIT_BYTES, "temporary: %llu bytes",
                  (unsigned long long)temp);
    /* A commit that logged nothing but itself waits for no flush (the
     * checkpointer's WAL writer may still flush the records meanwhile). */
    cr_assert_lt(f2 - f1, (uint64_t)ntemp, "temporary: %llu fsyncs for %d commits",
                 (unsigned long long)(f2 - f1), ntemp);
}

/* ADD PRIMARY KEY, a second INSERT and ON COMMIT-style DELETE ROWS on a
 * table created inside the transaction: nothing logged either. */
Test(tempwal, add_primary_key_and_create_in_transaction)
{
    uint64_t w0 = store__wal_size();
    StoreTxn *x = store_txn_begin();
    StoreColumnDef cols[] = {{"k", SQLTYPE(TYPE_INT4), false, NULL}};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("pg_temp", "pk", 1, cols, 0, NULL));
    SqlType types[] = {SQLTYPE(TYPE_INT4)};
    Batch *b = batch_create(arena, 1, types);
    for (uint32_t i = 0; i < 100; i++) {
        Value v = {.is_null = false};
        v.u.i32 = (int32_t)i;
        vec_set_value(&b->cols[0], i, &v);
    }
    b->count = 100;
    NO_ERROR(store_table_append(t, x, b));
    int key[] = {0};
    NO_ERROR(store_table_add_pkey(t, x, 1, key));
    EXPECT_ERROR("23505", store_table_append(t, x, b));
    store_txn_commit(x);   /* the failed append was undone by the store: x still commits */
    cr_assert_eq(store_table_row_count(t, NULL), 100);
    x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    store_txn_commit(x);
    cr_assert_eq(store_table_row_count(t, NULL), 0);
    cr_assert_leq(store__wal_size() - w0, 2 * COMMIT_BYTES);
}

/* COPY into a temporary table: the rows stay in memory (no run file, even
 * past the bulk threshold and as an unread load), nothing is logged, and a
 * checkpoint writes no run for it; a permanent table's load does get its
 * run file (the threshold is reached). */
Test(tempwal, bulk_load_stays_in_memory)
{
    StoreTable *t = NULL;
    NO_ERROR(t = make_w("pg_temp"));
    uint32_t oid = store_table_oid(t);
    uint64_t w0 = store__wal_size();
    StoreTxn *x = store_txn_begin();
    store_txn_bulk_unread(x);
    fill(t, x, 1, BIG, true);
    store_txn_bulk_end(x);
    cr_assert_eq(run_files_of(oid), 0, "no run file while loading");
    int64_t ids;
    cr_assert_eq(check_all(t, x, &ids), BIG);
    store_txn_commit(x);
    cr_assert_leq(store__wal_size() - w0, COMMIT_BYTES);
    cr_assert_eq(check_all(t, NULL, &ids), BIG);
    cr_assert_eq(ids, idsum(1, BIG));
    NO_ERROR(store_checkpoint());
    cr_assert_eq(run_files_of(oid), 0, "no checkpoint run");
    cr_assert_eq(check_all(t, NULL, &ids), BIG, "still all in memory after the checkpoint");
    cr_assert_eq(ids, idsum(1, BIG));
    /* Sanity: the same load into a permanent table writes its run. */
    StoreTable *p = NULL;
    NO_ERROR(p = make_w("public"));
    x = store_txn_begin();
    fill(p, x, 1, BIG, true);
    store_txn_commit(x);
    cr_assert_eq(run_files_of(store_table_oid(p)), 1);
}

/* A checkpoint writes the permanent table's rows and none of the
 * temporary one's, which stays readable and writable; the restart drops
 * it, the permanent rows come back. */
Test(tempwal, checkpoint_skips_temp_rows)
{
    StoreTable *p = NULL, *t = NULL;
    NO_ERROR(p = make_w("public"));
    NO_ERROR(t = make_w("pg_temp"));
    uint32_t poid = store_table_oid(p), toid = store_table_oid(t);
    StoreTxn *x = store_txn_begin();
    fill(p, x, 1, 5000, false);
    fill(t, x, 1, 5000, false);
    store_txn_commit(x);
    NO_ERROR(store_checkpoint());
    cr_assert_eq(run_files_of(poid), 1);
    cr_assert_eq(run_files_of(toid), 0);
    x = store_txn_begin();
    fill(t, x, 5001, 3000, false);
    delete_and_update(t, x, 1, 2, 10000);
    store_txn_commit(x);
    NO_ERROR(store_checkpoint());
    cr_assert_eq(run_files_of(toid), 0);
    int64_t ids;
    cr_assert_eq(check_all(t, NULL, &ids), 7999);
    cr_assert_eq(ids, idsum(1, 8000) - 1 - 2 + 10002);
    restart();
    cr_assert_null(store_table_lookup_oid(toid));
    p = store_table_lookup("public", "w");
    cr_assert_not_null(p);
    cr_assert_eq(check_all(p, NULL, &ids), 5000);
    cr_assert_eq(ids, idsum(1, 5000));
}

/* Unlogged does not mean untransactional: ROLLBACK, ROLLBACK TO of an
 * INSERT, a DELETE, a TRUNCATE and an ADD COLUMN, in memory only. */
Test(tempwal, rollback_and_savepoints)
{
    StoreTable *t = NULL;
    NO_ERROR(t = make_w("pg_temp"));
    uint64_t w0 = store__wal_size();
    StoreTxn *x = store_txn_begin();
    fill(t, x, 1, 3000, false);
    store_txn_rollback(x);
    cr_assert_eq(check_all(t, NULL, NULL), 0);
    x = store_txn_begin();
    fill(t, x, 1, 1000, false);
    int sp = store_txn_savepoint(x);
    fill(t, x, 1001, 500, false);
    delete_and_update(t, x, 5, 6, 5000);
    truncate_ok(t, x);
    cr_assert_eq(check_all(t, x, NULL), 0);
    store_txn_rollback_to(x, sp);
    int64_t ids;
    cr_assert_eq(check_all(t, x, &ids), 1000);
    cr_assert_eq(ids, idsum(1, 1000));
    sp = store_txn_savepoint(x);
    StoreColumnDef c = {"extra", SQLTYPE(TYPE_INT8), false, NULL};
    NO_ERROR(store_table_add_column(t, x, &c, NULL));
    cr_assert_eq(store_table_ncols(t), 4);
    store_txn_rollback_to(x, sp);
    cr_assert_eq(store_table_ncols(t), 3);
    delete_and_update(t, x, 7, 8, 5000);
    store_txn_commit(x);
    cr_assert_eq(check_all(t, NULL, &ids), 999);
    cr_assert_eq(ids, idsum(1, 1000) - 7 - 8 + 5008);
    cr_assert_leq(store__wal_size() - w0, COMMIT_BYTES, "only the one COMMIT record");
}

/* After a crash nothing of a temporary table exists, nor the sequences
 * of its schema (logged, unlike the table): owned or not. */
Test(tempwal, restart_drops_tables_and_their_sequences)
{
    StoreTable *t = NULL;
    NO_ERROR(t = make_w("pg_temp"));
    uint32_t toid = store_table_oid(t);
    const char *own = store_session_temp_schema(false);
    cr_assert_not_null(own);
    char schema[64];
    snprintf(schema, sizeof schema, "%s", own);
    StoreSeqDef d = {.type_oid = TYPE_INT8, .start = 1, .increment = 1, .min_value = 1,
                     .max_value = INT64_MAX, .cache = 1, .owner_table = toid, .owner_col = 0};
    uint32_t owned = 0, loose = 0, perm = 0;
    NO_ERROR(owned = store_seq_create(schema, "w_id_seq", &d));
    d.owner_table = 0;
    NO_ERROR(loose = store_seq_create(schema, "loose", &d));
    NO_ERROR(perm = store_seq_create("public", "kept", &d));
    int64_t v;
    NO_ERROR(store_seq_nextval(owned, 1, &v));
    fill(t, NULL, 1, 100, false);
    restart();
    cr_assert_null(store_table_lookup_oid(toid));
    cr_assert_eq(store_seq_lookup(schema, "w_id_seq"), 0);
    cr_assert_eq(store_seq_lookup(schema, "loose"), 0, "sequence %u", loose);
    cr_assert_eq(store_seq_lookup("public", "kept"), perm);
    restart();   /* the drops recovery logged replay */
    cr_assert_eq(store_seq_lookup(schema, "loose"), 0);
    cr_assert_eq(store_seq_lookup("public", "kept"), perm);
    NO_ERROR(t = make_w("pg_temp"));   /* a fresh one of the name */
    cr_assert_eq(check_all(t, NULL, NULL), 0);
}
