/*
 * test_storage_plandeps.c — plan dependencies (storage/plandeps.c): a plan
 * that found relation a is changed after DDL or ANALYZE of a, and after a
 * is dropped (and created again) — and unchanged after DDL and ANALYZE of
 * other tables, which move store_catalog_epoch / store_stats_epoch all the
 * same, after a rolled-back DDL of a, and after a table of a's name was
 * created in a schema searched before a's (as PostgreSQL's plan cache).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include "common/error.h"
#include "common/types.h"
#include "common/vector.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "plandeps"
#include "storage_fixture.h"

TestSuite(plandeps, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

static StoreTable *make_table(const char *schema, const char *name)
{
    StoreColumnDef cols[] = {{"a", SQLTYPE(TYPE_INT4), false, NULL}};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create(schema, name, 1, cols, 0, NULL));
    return t;
}

/* One row: v in the first column (int4), NULL in the others. */
static void insert_one(StoreTable *t, StoreTxn *x, int32_t v)
{
    int n = store_table_ncols(t);
    SqlType types[8];
    for (int i = 0; i < n && i < 8; i++)
        types[i] = store_table_column(t, i)->type;
    Batch *b = batch_create(arena, n, types);
    Value val = {.is_null = false};
    val.u.i32 = v;
    vec_set_value(&b->cols[0], 0, &val);
    for (int i = 1; i < n; i++)
        vec_set_null(&b->cols[i], 0);
    b->count = 1;
    NO_ERROR(store_table_append(t, x, b));
}

/* What planning "SELECT * FROM name" with search_path "s, public" asks. */
static StoreDeps *plan_of(const char *name)
{
    store_deps_begin();
    if (!(store_schema_exists("s") && store_table_lookup("s", name)))
        store_table_lookup("public", name);
    return store_deps_end(arena);
}

Test(plandeps, other_tables_ddl_and_analyze_leave_it)
{
    StoreTable *a = make_table("public", "a");
    StoreTable *b = make_table("public", "b");
    StoreDeps *d = plan_of("a");
    cr_assert_eq(store_deps_count(d), 1);
    uint64_t epoch = store_catalog_epoch(), stats = store_stats_epoch();
    StoreTxn *x = store_txn_begin();
    StoreColumnDef c = {"c", SQLTYPE(TYPE_INT4), false, NULL};
    NO_ERROR(store_table_add_column(b, x, &c, NULL));
    cr_assert_not(store_deps_changed(d), "uncommitted ADD COLUMN of b");
    store_txn_commit(x);
    make_table("public", "other");
    NO_ERROR(store_table_drop("public", "other"));
    x = store_txn_begin();
    insert_one(b, x, 1);
    store_txn_commit(x);
    NO_ERROR(store_table_analyze(b, NULL));
    cr_assert_gt(store_catalog_epoch(), epoch);
    cr_assert_gt(store_stats_epoch(), stats);
    cr_assert_not(store_deps_changed(d), "DDL / ANALYZE of other tables");
    (void)a;
}

Test(plandeps, own_ddl_and_analyze_change_it)
{
    StoreTable *a = make_table("public", "a");
    StoreDeps *d = plan_of("a");
    uint64_t v = store_relation_version(store_table_oid(a));
    cr_assert_neq(v, 0);
    StoreTxn *x = store_txn_begin();
    StoreColumnDef c = {"c", SQLTYPE(TYPE_TEXT), false, NULL};
    NO_ERROR(store_table_add_column(a, x, &c, NULL));
    cr_assert(store_deps_changed(d), "own uncommitted ADD COLUMN");
    store_txn_rollback(x);
    cr_assert_not(store_deps_changed(d), "rolled back: the same state again");
    cr_assert_eq(store_relation_version(store_table_oid(a)), v);
    x = store_txn_begin();
    NO_ERROR(store_table_add_column(a, x, &c, NULL));
    store_txn_commit(x);
    cr_assert(store_deps_changed(d), "committed ADD COLUMN");

    d = plan_of("a");
    x = store_txn_begin();
    int key[] = {0};
    NO_ERROR(store_table_add_pkey(a, x, 1, key));
    store_txn_commit(x);
    cr_assert(store_deps_changed(d), "ADD PRIMARY KEY");

    d = plan_of("a");
    x = store_txn_begin();
    insert_one(a, x, 7);
    store_txn_commit(x);
    cr_assert_not(store_deps_changed(d), "rows are not the plan's");
    NO_ERROR(store_table_analyze(a, NULL));
    cr_assert(store_deps_changed(d), "ANALYZE of a");
}

Test(plandeps, dropped_names_change_it_shadowing_does_not)
{
    StoreTable *a = make_table("public", "a");
    StoreDeps *d = plan_of("a");
    uint32_t oid = store_table_oid(a);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_drop("public", "a"));
    cr_assert(store_deps_changed(d), "dropped in this transaction");
    store_txn_rollback(x);
    cr_assert_not(store_deps_changed(d), "the DROP rolled back");
    NO_ERROR(store_table_drop("public", "a"));
    cr_assert(store_deps_changed(d), "dropped");
    make_table("public", "a");   /* the same shape, another OID */
    cr_assert(store_deps_changed(d), "dropped and created again");
    cr_assert_eq(store_relation_version(oid), 0);

    /* PostgreSQL's PREPARE: a table created later in a schema earlier in
     * search_path is no change of the plan's relations */
    NO_ERROR(store_schema_create("s", "postgres"));
    d = plan_of("a");   /* asks s.a (none), then public.a */
    cr_assert_eq(store_deps_count(d), 1);
    make_table("s", "a");
    cr_assert_not(store_deps_changed(d), "s.a is no relation of the plan");
    d = plan_of("a");
    cr_assert_eq(store_deps_count(d), 1);
    NO_ERROR(store_table_drop("public", "a"));
    cr_assert_not(store_deps_changed(d), "public.a is no relation of this one");
}

Test(plandeps, views_nesting_and_errors)
{
    StoreColumnDef one = {"one", SQLTYPE(TYPE_INT4), false, NULL};
    NO_ERROR(store_view_create("public", "v", 1, &one, "SELECT 1 AS one"));
    store_deps_begin();
    store_deps_begin();   /* nested: one record */
    cr_assert_not_null(store_view_lookup("public", "v"));
    cr_assert_null(store_deps_end(arena));
    StoreDeps *d = store_deps_end(arena);
    cr_assert_eq(store_deps_count(d), 1);
    cr_assert_not(store_deps_changed(d));
    NO_ERROR(store_view_drop("public", "v"));
    NO_ERROR(store_view_create("public", "v", 1, &one, "SELECT 2 AS one"));
    cr_assert(store_deps_changed(d), "view made again");
    cr_assert(store_deps_changed(NULL));

    store_deps_begin();   /* planning failed: nothing recorded any more */
    store_deps_abort();
    store_deps_begin();
    StoreDeps *e = store_deps_end(arena);
    cr_assert_eq(store_deps_count(e), 0);
    cr_assert_not(store_deps_changed(e));
    store_table_lookup("public", "v");   /* not recording: no effect */
    cr_assert_eq(store_deps_count(e), 0);
}

Test(plandeps, too_many_relations_is_always_changed)
{
    char name[16];
    for (int i = 0; i < 130; i++) {
        snprintf(name, sizeof name, "t%d", i);
        make_table("public", name);
    }
    store_deps_begin();
    for (int i = 0; i < 130; i++) {
        snprintf(name, sizeof name, "t%d", i);
        cr_assert_not_null(store_table_lookup("public", name));
    }
    StoreDeps *d = store_deps_end(arena);
    cr_assert(store_deps_changed(d), "past the recorder's room: re-planned at any change");
    store_deps_begin();
    store_table_lookup("public", "t0");
    d = store_deps_end(arena);
    cr_assert_not(store_deps_changed(d), "the next plan records again");
}
