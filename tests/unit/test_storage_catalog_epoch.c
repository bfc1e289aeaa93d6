/*
 * test_storage_catalog_epoch.c — store_catalog_epoch (storage/catalog_txn.c),
 * by which cached plans learn that DDL happened: it moves at the DDL itself
 * (so the transaction that made it re-plans at once) and again at the
 * transaction's commit, rollback or ROLLBACK TO — for tables, views,
 * columns, primary keys, schemas and sequences — and it does not move for
 * what plans do not depend on: inserts, nextval, ANALYZE (that is
 * store_stats_epoch), roles.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include "common/error.h"
#include "common/types.h"
#include "common/vector.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "catepoch"
#include "storage_fixture.h"

TestSuite(catalog_epoch, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

/* Run stmt; the epoch must have moved (moved = true) or not. */
#define EPOCH_AFTER(moved, stmt)                                                               \
    do {                                                                                       \
        uint64_t e0_ = store_catalog_epoch();                                                  \
        stmt;                                                                                  \
        uint64_t e1_ = store_catalog_epoch();                                                  \
        cr_assert((moved) ? e1_ > e0_ : e1_ == e0_, "%s: epoch %llu -> %llu", #stmt,           \
                  (unsigned long long)e0_, (unsigned long long)e1_);                            \
    } while (0)

static StoreTable *make_table(const char *schema, const char *name)
{
    StoreColumnDef cols[] = {{"a", SQLTYPE(TYPE_INT4), false, NULL}};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create(schema, name, 1, cols, 0, NULL));
    return t;
}

static void insert_one(StoreTable *t, StoreTxn *x, int32_t v)
{
    SqlType types[] = {SQLTYPE(TYPE_INT4)};
    Batch *b = batch_create(arena, 1, types);
    Value val = {.is_null = false};
    val.u.i32 = v;
    vec_set_value(&b->cols[0], 0, &val);
    b->count = 1;
    NO_ERROR(store_table_append(t, x, b));
}

Test(catalog_epoch, tables_move_it_at_ddl_and_at_commit_or_rollback)
{
    StoreTable *t = NULL;
    EPOCH_AFTER(true, t = make_table("public", "t"));   /* own transaction, committed */
    StoreTxn *x = store_txn_begin();
    StoreColumnDef b = {"b", SQLTYPE(TYPE_INT4), false, NULL};
    EPOCH_AFTER(true, NO_ERROR(store_table_add_column(t, x, &b, NULL)));
    cr_assert_eq(store_table_ncols(t), 2);
    EPOCH_AFTER(true, store_txn_rollback(x));
    cr_assert_eq(store_table_ncols(t), 1);

    x = store_txn_begin();
    int key[] = {0};
    EPOCH_AFTER(true, NO_ERROR(store_table_add_pkey(t, x, 1, key)));
    EPOCH_AFTER(true, store_txn_commit(x));
    cr_assert_eq(store_table_npkey(t), 1);

    x = store_txn_begin();
    EPOCH_AFTER(true, NO_ERROR(store_table_drop("public", "t")));
    EPOCH_AFTER(true, store_txn_rollback(x));
    cr_assert_not_null(store_table_lookup("public", "t"));
    x = store_txn_begin();
    EPOCH_AFTER(true, NO_ERROR(store_table_drop("public", "t")));
    EPOCH_AFTER(true, store_txn_commit(x));
    cr_assert_null(store_table_lookup("public", "t"));
}

Test(catalog_epoch, savepoints_views_schemas_sequences)
{
    StoreTxn *x = store_txn_begin();
    int sp = store_txn_savepoint(x);
    StoreTable *t = NULL;
    EPOCH_AFTER(true, t = make_table("public", "u"));
    EPOCH_AFTER(true, store_txn_rollback_to(x, sp));   /* the CREATE undone */
    cr_assert_null(store_table_lookup("public", "u"));
    store_txn_commit(x);
    (void)t;

    StoreColumnDef one = {"one", SQLTYPE(TYPE_INT4), false, NULL};
    EPOCH_AFTER(true, NO_ERROR(store_view_create("public", "v", 1, &one, "SELECT 1 AS one")));
    EPOCH_AFTER(true, NO_ERROR(store_view_drop("public", "v")));

    EPOCH_AFTER(true, NO_ERROR(store_schema_create("s", "postgres")));
    x = store_txn_begin();
    EPOCH_AFTER(true, NO_ERROR(store_schema_drop("s", false)));
    EPOCH_AFTER(true, store_txn_rollback(x));
    cr_assert(store_schema_exists("s"));

    StoreSeqDef d = {.type_oid = TYPE_INT8, .start = 1, .increment = 1, .min_value = 1,
                     .max_value = INT64_MAX, .cache = 1};
    uint32_t oid = 0;
    EPOCH_AFTER(true, NO_ERROR(oid = store_seq_create("public", "q", &d)));
    int64_t v = 0;
    EPOCH_AFTER(false, NO_ERROR(store_seq_nextval(oid, 1, &v)));   /* not DDL */
    x = store_txn_begin();
    EPOCH_AFTER(true, NO_ERROR(store_seq_drop(oid)));
    EPOCH_AFTER(true, store_txn_rollback(x));
    cr_assert_neq(store_seq_lookup("public", "q"), 0);
}

Test(catalog_epoch, rows_statistics_and_roles_leave_it)
{
    StoreTable *t = make_table("public", "w");
    StoreTxn *x = store_txn_begin();
    EPOCH_AFTER(false, insert_one(t, x, 1));
    EPOCH_AFTER(false, store_txn_commit(x));
    x = store_txn_begin();
    EPOCH_AFTER(false, insert_one(t, x, 2));
    EPOCH_AFTER(false, store_txn_rollback(x));
    uint64_t stats = store_stats_epoch();
    EPOCH_AFTER(false, NO_ERROR(store_table_analyze(t, NULL)));
    cr_assert_gt(store_stats_epoch(), stats);
    EPOCH_AFTER(false, NO_ERROR(store_role_create("r1", false, "")));
}
