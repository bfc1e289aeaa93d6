/*
 * utility_ddl3.c — running the issue 3 utility plans planned by
 * planner/plan_ddl3.c: TRUNCATE (transactional, through
 * store_table_truncate), VACUUM (store_vacuum: compaction), ANALYZE
 * (store_table_analyze) and CHECKPOINT (store_checkpoint), with
 * PostgreSQL's restrictions (VACUUM outside a transaction block,
 * CHECKPOINT for superusers only).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdbool.h>
#include "common/error.h"
#include "planner/plan.h"
#include "storage/storage.h"

static void truncate_tables(ExecSession *s, const UtilityStmt *u)
{
    for (int i = 0; i < list_len(u->ddl3_tables); i++) {
        StoreTable *t = list_nth(u->ddl3_tables, i);
        if (store_table_is_dropped(t))
            err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", store_table_name(t));
        store_table_truncate(t, s->txn);
    }
}

static void maintenance(ExecSession *s, const UtilityStmt *u)
{
    char op = u->ddl3_op;
    if (op == 'c') {
        bool super = false;
        char verifier[8];
        if (!store_role_get(s->user, &super, verifier, sizeof verifier) || !super)
            err_raise(ERRCODE_INSUFFICIENT_PRIVILEGE, "must be superuser to do CHECKPOINT");
        store_checkpoint();
        return;
    }
    if ((op == 'v' || op == 'b') && s->in_block)
        err_raise(ERRCODE_ACTIVE_SQL_TRANSACTION, "VACUUM cannot run inside a transaction block");
    int n = list_len(u->ddl3_tables);
    if ((op == 'a' || op == 'b') && n == 0)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "ANALYZE without a table list is not supported yet");
    if ((op == 'v' || op == 'b') && n == 0)
        store_vacuum(NULL);
    for (int i = 0; i < n; i++) {
        StoreTable *t = list_nth(u->ddl3_tables, i);
        if (op == 'v' || op == 'b')
            store_vacuum(t);
        if (op == 'a' || op == 'b')
            store_table_analyze(t, s->txn);
    }
}

void exec__utility_ddl3(ExecSession *s, const UtilityStmt *u)
{
    if (u->kind == UTIL_TRUNCATE)
        truncate_tables(s, u);
    else
        maintenance(s, u);
}
