/*
 * storage_acct.h — the acct table the durable-store unit tests share:
 * acct(id bigint primary key, bal bigint, note text), its row batches and a
 * checked append. Include after storage_fixture.h (uses its arena and
 * NO_ERROR).
 */
#ifndef STRATA_TESTS_STORAGE_ACCT_H
#define STRATA_TESTS_STORAGE_ACCT_H

#include <string.h>

/* acct(id bigint primary key, bal bigint, note text) */
static StoreTable *make_acct(const char *name)
{
    StoreColumnDef cols[] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"bal", SQLTYPE(TYPE_INT8), false, NULL},
        {"note", SQLTYPE(TYPE_TEXT), false, NULL},
    };
    int pk[] = {0};
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, 3, cols, 1, pk));
    return t;
}

/* Rows id = first.., bal = bal, note "n<id>" (NULL when id % 5 == 0). */
static Batch *acct_batch(int64_t first, uint32_t n, int64_t bal)
{
    SqlType types[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(arena, 3, types);
    for (uint32_t i = 0; i < n; i++) {
        Value v = {.is_null = false};
        v.u.i64 = first + i;
        vec_set_value(&b->cols[0], i, &v);
        v.u.i64 = bal;
        vec_set_value(&b->cols[1], i, &v);
        if ((first + i) % 5 == 0) {
            vec_set_null(&b->cols[2], i);
        } else {
            char *s = mem_printf(arena, "n%lld", (long long)(first + i));
            v.u.str = (StrRef){s, (uint32_t)strlen(s)};
            vec_set_value(&b->cols[2], i, &v);
        }
    }
    b->count = n;
    return b;
}

__attribute__((noinline)) static void append_ok(StoreTable *t, StoreTxn *x, Batch *b)
{
    NO_ERROR(store_table_append(t, x, b));
}

#endif
