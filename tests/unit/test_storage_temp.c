/*
 * test_storage_temp.c — temporary schemas in the store (storage/database.c,
 * catalog.c, recovery.c; storage/README.md "Temporary schemas"): the
 * session's pg_temp_N taken at its first use and "pg_temp" naming it,
 * another thread (session) neither finding nor creating in it, the drop at
 * the session's end (the number free again), DISCARD TEMP undone by a
 * rollback, and no temporary table — in a checkpoint or only in the WAL —
 * surviving a restart while permanent rows do, twice in a row.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "common/vector.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "temp"
#include "storage_fixture.h"

TestSuite(temp, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

/* CREATE TABLE schema.name (a int4); may raise. */
static StoreTable *create_raw(const char *schema, const char *name)
{
    StoreColumnDef cols[] = {{"a", SQLTYPE(TYPE_INT4), false, NULL}};
    return store_table_create(schema, name, 1, cols, 0, NULL);
}

static StoreTable *create_int_table(const char *schema, const char *name)
{
    StoreTable *t = NULL;
    NO_ERROR(t = create_raw(schema, name));
    return t;
}

/* Append n rows (a = 1..n) in a transaction of their own. */
static void append_rows(StoreTable *t, uint32_t n)
{
    SqlType types[] = {SQLTYPE(TYPE_INT4)};
    Batch *b = batch_create(arena, 1, types);
    for (uint32_t i = 0; i < n; i++) {
        Value v = {.is_null = false};
        v.u.i32 = (int32_t)i + 1;
        vec_set_value(&b->cols[0], i, &v);
    }
    b->count = n;
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_append(t, x, b));
    store_txn_commit(x);
}

static uint64_t rows_of(StoreTable *t)
{
    StoreTxn *x = store_txn_begin();
    uint64_t n = store_table_row_count(t, x);
    store_txn_commit(x);
    return n;
}

Test(temp, names_and_alias)
{
    cr_assert(store_schema_is_temp("pg_temp"));
    cr_assert(store_schema_is_temp("pg_temp_12"));
    cr_assert_not(store_schema_is_temp("pg_temp_"));
    cr_assert_not(store_schema_is_temp("pg_temp_1x"));
    cr_assert_not(store_schema_is_temp("public"));
    cr_assert_null(store_session_temp_schema(false));
    StoreTable *t = create_int_table("pg_temp", "tt");
    const char *own = store_session_temp_schema(false);
    cr_assert_not_null(own);
    cr_assert_str_eq(own, "pg_temp_1");
    cr_assert_str_eq(store_table_schema(t), own);
    cr_assert_eq(store_table_lookup("pg_temp", "tt"), t);
    cr_assert_eq(store_table_lookup(own, "tt"), t);
    cr_assert_null(store_table_lookup("public", "tt"));
    cr_assert(store_schema_exists(own));
    cr_assert_not(store_schema_exists("pg_temp_2"));
    EXPECT_ERROR_MSG("42P16", "cannot create relations in temporary schemas of other sessions",
                     create_raw("pg_temp_2", "x"));
}

/* Another session (thread): its own number, "pg_temp" is its own, and it
 * cannot create in the first session's schema; "" when all held (no
 * Criterion assertion off the test's thread). */
static void *other_session(void *arg)
{
    const char *first = arg;
    static char result[160];
    result[0] = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (store_table_lookup("pg_temp", "tt") != NULL)
            snprintf(result, sizeof result, "found the other session's table");
        StoreTable *t = create_raw("pg_temp", "tt");
        if (strcmp(store_table_schema(t), first) == 0)
            snprintf(result, sizeof result, "same schema %s", first);
        err_pop(&jmp);
    } else {
        snprintf(result, sizeof result, "raised %.100s", err_current()->message);
        err_clear();
    }
    if (result[0])
        return result;
    if (ERR_TRY(jmp)) {
        create_raw(first, "other");
        err_pop(&jmp);
        snprintf(result, sizeof result, "created in %s", first);
    } else {
        if (strcmp(err_current()->sqlstate, "42P16") != 0)
            snprintf(result, sizeof result, "raised %s", err_current()->sqlstate);
        err_clear();
    }
    if (result[0])
        return result;
    if (ERR_TRY(jmp)) {
        store_session_temp_end();
        err_pop(&jmp);
    } else {
        snprintf(result, sizeof result, "session end raised %.100s", err_current()->message);
        err_clear();
    }
    return result;
}

Test(temp, sessions_apart)
{
    StoreTable *t = create_int_table("pg_temp", "tt");
    append_rows(t, 3);
    pthread_t th;
    void *res = NULL;
    cr_assert_eq(pthread_create(&th, NULL, other_session, (void *)store_session_temp_schema(false)), 0);
    pthread_join(th, &res);
    cr_assert_str_eq((const char *)res, "");
    cr_assert_eq(store_table_lookup("pg_temp", "tt"), t);
    cr_assert_eq(rows_of(t), 3);
}

Test(temp, session_end_and_discard)
{
    StoreTable *t = create_int_table("pg_temp", "gone");
    uint32_t oid = store_table_oid(t);
    append_rows(t, 2);
    /* DISCARD TEMP in a transaction that rolls back: the table is back. */
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_session_temp_drop());
    cr_assert_null(store_table_lookup("pg_temp", "gone"));
    store_txn_rollback(x);
    cr_assert_eq(store_table_lookup_oid(oid), t);
    NO_ERROR(store_session_temp_end());
    cr_assert_null(store_table_lookup_oid(oid));
    cr_assert_null(store_session_temp_schema(false));
    cr_assert_not(store_schema_exists("pg_temp_1"));   /* the number is free again */
    create_int_table("pg_temp", "again");
    cr_assert_str_eq(store_session_temp_schema(false), "pg_temp_1");
}

Test(temp, gone_after_restart)
{
    StoreTable *perm = create_int_table("public", "kept");
    append_rows(perm, 4);
    StoreTable *t1 = create_int_table("pg_temp", "in_ckpt");
    append_rows(t1, 5);
    uint32_t oid1 = store_table_oid(t1);
    NO_ERROR(store_checkpoint());
    StoreTable *t2 = create_int_table("pg_temp", "in_wal");
    append_rows(t2, 6);
    uint32_t oid2 = store_table_oid(t2);
    restart();   /* the session never ended: recovery must drop them */
    cr_assert_null(store_table_lookup_oid(oid1));
    cr_assert_null(store_table_lookup_oid(oid2));
    cr_assert_null(store_table_lookup("pg_temp_1", "in_ckpt"));
    perm = store_table_lookup("public", "kept");
    cr_assert_not_null(perm);
    cr_assert_eq(rows_of(perm), 4);
    restart();   /* the drops recovery logged replay */
    cr_assert_null(store_table_lookup_oid(oid1));
    cr_assert_null(store_table_lookup_oid(oid2));
    perm = store_table_lookup("public", "kept");
    cr_assert_not_null(perm);
    cr_assert_eq(rows_of(perm), 4);
    StoreTable *t3 = create_int_table("pg_temp", "in_wal");   /* a fresh one of the name */
    cr_assert_eq(rows_of(t3), 0);
}
