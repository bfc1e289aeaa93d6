/*
 * utility_ddl3.c — running the issue 3 utility plans planned by
 * planner/plan_ddl3.c: TRUNCATE (transactional, through
 * store_table_truncate), VACUUM (store_vacuum: compaction), ANALYZE
 * (store_table_analyze) and CHECKPOINT (store_checkpoint), with
 * PostgreSQL's restrictions (VACUUM outside a transaction block,
 * CHECKPOINT for superusers only); and savepoints: the session keeps a
 * stack of names aligned with the storage transaction's savepoint levels
 * (name i = level i + 1). An error in a block that has savepoints leaves
 * the storage transaction open (exec_session_abort) so that ROLLBACK TO
 * can undo the failed work and resume the block. ALTER TABLE ADD COLUMN /
 * ADD PRIMARY KEY go to store_table_add_column / store_table_add_pkey.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
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

void exec__savepoints_reset(ExecSession *s)
{
    for (int i = 0; i < s->nsp; i++)
        free(s->sp_names[i]);
    s->nsp = 0;
}

/* Index of the newest savepoint called name; raises 3B001 when none. */
static int find_savepoint(const ExecSession *s, const char *name)
{
    for (int i = s->nsp - 1; i >= 0; i--)
        if (strcmp(s->sp_names[i], name) == 0)
            return i;
    err_raise(ERRCODE_S_E_INVALID_SPECIFICATION, "savepoint \"%s\" does not exist", name);
}

static void savepoint_define(ExecSession *s, const char *name)
{
    if (s->nsp == s->sp_cap) {
        int cap = s->sp_cap ? s->sp_cap * 2 : 8;
        char **n = realloc(s->sp_names, sizeof *n * (size_t)cap);
        if (n == NULL)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        s->sp_names = n;
        s->sp_cap = cap;
    }
    char *copy = strdup(name);
    if (copy == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    int level = store_txn_savepoint(s->txn);
    ERR_ASSERT(level == s->nsp + 1);
    s->sp_names[s->nsp++] = copy;
}

static void savepoint(ExecSession *s, const UtilityStmt *u)
{
    static const char *const what[] = {"SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT"};
    int k = u->ddl3_op == 's' ? 0 : u->ddl3_op == 'r' ? 1 : 2;
    if (!s->in_block)
        err_raise(ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "%s can only be used in transaction blocks", what[k]);
    if (k == 0) {
        savepoint_define(s, u->ddl3_name);
        return;
    }
    int i = find_savepoint(s, u->ddl3_name);
    if (k == 1) {
        store_txn_release(s->txn, i + 1);
        for (int j = i; j < s->nsp; j++)
            free(s->sp_names[j]);
        s->nsp = i;
        return;
    }
    store_txn_rollback_to(s->txn, i + 1);
    for (int j = i + 1; j < s->nsp; j++)
        free(s->sp_names[j]);
    s->nsp = i + 1;
    s->failed = false;
}

/* ALTER TABLE: each subcommand through the storage API, in the session's
 * transaction. An added column's DEFAULT is evaluated once for the rows
 * already there. */
static void alter_table(ExecSession *s, const UtilityStmt *u, MemArena *arena)
{
    if (u->ddl3_tables == NULL)
        return;   /* IF EXISTS, absent */
    StoreTable *t = list_nth(u->ddl3_tables, 0);
    for (int i = 0; i < list_len(u->ddl3_cmds); i++) {
        const PlanAlterCmd *c = list_nth(u->ddl3_cmds, i);
        if (c->op == 'p') {
            store_table_add_pkey(t, s->txn, c->npkey, c->pkey);
            continue;
        }
        if (store_table_column_index(t, c->column.name) >= 0 && c->if_not_exists) {
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION,
                       "column \"%s\" of relation \"%s\" already exists, skipping", c->column.name,
                       store_table_name(t));
            continue;
        }
        Value fill = {.is_null = true};
        if (c->fill)
            exec_eval_scalar(c->fill, NULL, 0, arena, &fill);
        if (fill.is_null && c->column.not_null && store_table_row_count(t, s->txn) > 0)
            err_raise(ERRCODE_NOT_NULL_VIOLATION, "column \"%s\" of relation \"%s\" contains null values",
                      c->column.name, store_table_name(t));
        StoreColumnDef def = {.name = c->column.name, .type = c->column.type,
                              .not_null = c->column.not_null, .default_text = c->column.default_text};
        store_table_add_column(t, s->txn, &def, fill.is_null ? NULL : &fill);
    }
}

void exec__utility_ddl3(ExecSession *s, const UtilityStmt *u, MemArena *arena)
{
    if (u->kind == UTIL_ALTER_TABLE) {
        alter_table(s, u, arena);
        return;
    }
    if (u->kind == UTIL_TRUNCATE)
        truncate_tables(s, u);
    else if (u->kind == UTIL_SAVEPOINT)
        savepoint(s, u);
    else
        maintenance(s, u);
}
