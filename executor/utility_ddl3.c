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
 * Also: isolation levels (BEGIN ISOLATION LEVEL, SET TRANSACTION →
 * store_txn_set_isolation), CREATE/DROP SCHEMA, CREATE/ALTER/DROP ROLE
 * (passwords stored as verifiers) and CREATE/DROP DATABASE.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "common/guc.h"
#include "common/password.h"
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
    if (op == 'v' || op == 'b')
        exec_prevent_in_block(s, "VACUUM");
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

/* DROP SCHEMA of an existing schema with its sequences: without CASCADE a
 * free-standing sequence is a dependent object (2BP01, PostgreSQL's detail
 * and hint; owned ones go with their tables); with CASCADE every sequence
 * of the schema is dropped once the schema is. */
static void drop_schema(const char *name, bool cascade)
{
    uint32_t oids[32];
    int n = store_seq_in_schema(name, true, oids, 32);
    if (!cascade && n > 0) {
        char detail[ERR_DETAIL_MAX];
        size_t len = 0;
        for (int k = 0; k < n && k < 32 && len < sizeof detail; k++) {
            StoreSeqInfo in;
            if (store_seq_info(oids[k], &in))
                len += (size_t)snprintf(detail + len, sizeof detail - len, "%ssequence %s.%s depends on schema %s",
                                        len ? "\n" : "", in.schema, in.name, name);
        }
        ErrorData *e = err_begin(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST);
        err_message(e, "cannot drop schema %s because other objects depend on it", name);
        err_detail(e, "%s", detail);
        err_hint(e, "Use DROP ... CASCADE to drop the dependent objects too.");
        err_throw();
    }
    store_schema_drop(name, cascade);
    while ((n = store_seq_in_schema(name, false, oids, 32)) > 0)
        for (int k = 0; k < n && k < 32; k++)
            store_seq_drop(oids[k]);
}

/* CREATE SCHEMA / DROP SCHEMA: every named schema is checked before any
 * is dropped, so that a missing one drops nothing (as PostgreSQL). */
static void schema_ddl(ExecSession *s, const UtilityStmt *u)
{
    if (u->ddl3_op == 'c') {
        if (u->missing_ok && store_schema_exists(u->ddl3_name)) {
            err_notice(ERR_SEV_NOTICE, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists, skipping",
                       u->ddl3_name);
            return;
        }
        store_schema_create(u->ddl3_name, s->user);
        return;
    }
    for (int i = 0; i < list_len(u->ddl3_names); i++) {
        const char *name = list_nth(u->ddl3_names, i);
        if (!store_schema_exists(name) && !u->missing_ok)
            err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", name);
    }
    for (int i = 0; i < list_len(u->ddl3_names); i++) {
        const char *name = list_nth(u->ddl3_names, i);
        if (store_schema_exists(name))
            drop_schema(name, u->ddl3_cascade);
        else
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "schema \"%s\" does not exist, skipping",
                       name);
    }
}

/* Whether the session's user may create/alter/drop roles (superuser or
 * CREATEROLE); *super tells which. */
static bool may_manage_roles(const ExecSession *s, bool *super)
{
    StoreRoleAttrs a;
    if (!store_role_get_attrs(s->user, &a, NULL, 0))
        return *super = false;
    *super = a.superuser == 1;
    return *super || a.createrole == 1;
}

static void drop_roles(ExecSession *s, const UtilityStmt *u)
{
    for (int i = 0; i < list_len(u->ddl3_names); i++) {
        const char *name = list_nth(u->ddl3_names, i);
        if (strcmp(name, s->user) == 0)
            err_raise(ERRCODE_OBJECT_IN_USE, "current user cannot be dropped");
        if (!u->missing_ok && !store_role_get_attrs(name, &(StoreRoleAttrs){0}, NULL, 0))
            err_raise(ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
    }
    for (int i = 0; i < list_len(u->ddl3_names); i++) {
        const char *name = list_nth(u->ddl3_names, i);
        if (store_role_get_attrs(name, &(StoreRoleAttrs){0}, NULL, 0))
            store_role_drop(name);
        else
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "role \"%s\" does not exist, skipping", name);
    }
}

/* CREATE / ALTER / DROP ROLE through the storage API; a PASSWORD is
 * stored as a verifier made with the session's password_encryption. */
static void role_ddl(ExecSession *s, const UtilityStmt *u)
{
    bool super;
    if (!may_manage_roles(s, &super))
        err_raise(ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to %s role",
                  u->ddl3_op == 'c' ? "create" : u->ddl3_op == 'a' ? "alter" : "drop");
    if (u->ddl3_op == 'd') {
        drop_roles(s, u);
        return;
    }
    if (u->ddl3_role.superuser != -1 && !super)
        err_raise(ERRCODE_INSUFFICIENT_PRIVILEGE, "must be superuser to %s",
                  u->ddl3_op == 'c' ? "create superusers" : "change superuser attribute");
    char verifier[PASSWORD_VERIFIER_MAX] = "";
    StoreRoleAttrs a = {.superuser = u->ddl3_role.superuser, .login = u->ddl3_role.login,
                        .createdb = u->ddl3_role.createdb, .createrole = u->ddl3_role.createrole};
    const char *pw = u->ddl3_role.password;
    if (u->ddl3_role.has_password) {
        if (pw && *pw == '\0')
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION,
                       "empty string is not a valid password, clearing password");
        else if (pw)
            password_make_verifier(u->ddl3_name, pw, guc_show(s->guc, "password_encryption"), verifier,
                                   sizeof verifier);
        a.verifier = verifier;
    }
    if (u->ddl3_op == 'c')
        store_role_create_ex(u->ddl3_name, &a);
    else
        store_role_alter(u->ddl3_name, &a);
}

/* CREATE / DROP DATABASE: not transactional, so refused in a block. */
static void database_ddl(ExecSession *s, const UtilityStmt *u)
{
    const char *what = u->ddl3_op == 'c' ? "CREATE DATABASE" : "DROP DATABASE";
    exec_prevent_in_block(s, what);
    StoreRoleAttrs a;
    if (!store_role_get_attrs(s->user, &a, NULL, 0) || (a.superuser != 1 && a.createdb != 1))
        err_raise(ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to %s database",
                  u->ddl3_op == 'c' ? "create" : "drop");
    if (u->ddl3_op == 'c') {
        store_database_create(u->ddl3_name, s->user);
        return;
    }
    if (u->missing_ok && store_database_oid(u->ddl3_name) == 0) {
        err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "database \"%s\" does not exist, skipping",
                   u->ddl3_name);
        return;
    }
    store_database_drop(u->ddl3_name);
}

void exec__utility_ddl3(ExecSession *s, const UtilityStmt *u, MemArena *arena)
{
    if (u->kind == UTIL_DATABASE) {
        database_ddl(s, u);
        return;
    }
    if (u->kind == UTIL_ROLE) {
        role_ddl(s, u);
        return;
    }
    if (u->kind == UTIL_SCHEMA) {
        schema_ddl(s, u);
        return;
    }
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

/* ---- isolation levels: BEGIN ISOLATION LEVEL x, SET TRANSACTION ---- */

bool exec__ddl3_no_snapshot(const Plan *plan)
{
    if (plan->kind != PLAN_STMT_UTILITY || plan->utility == NULL)
        return false;
    UtilityKind k = plan->utility->kind;
    return k == UTIL_BEGIN || k == UTIL_SET || k == UTIL_RESET || k == UTIL_SHOW;
}

/* transaction_isolation takes value (already validated by guc_set) in the
 * session's transaction; the setting is undone when the transaction ends. */
static void apply_isolation(ExecSession *s, const char *value)
{
    StoreIsolation iso = strcmp(value, "repeatable read") == 0 || strcmp(value, "serializable") == 0
                             ? STORE_REPEATABLE_READ : STORE_READ_COMMITTED;
    exec__txn_ensure(s);
    if (store_txn_isolation(s->txn) != iso)
        store_txn_set_isolation(s->txn, iso);   /* 25001 after the first query */
}

static void set_isolation_guc(ExecSession *s, const char *value)
{
    exec__guc_remember(s, "transaction_isolation", true);
    if (value)
        guc_set(s->guc, "transaction_isolation", value);
    else
        guc_reset(s->guc, "transaction_isolation");
}

void exec__ddl3_begin(ExecSession *s, const UtilityStmt *u)
{
    if (u->ddl3_name == NULL)
        return;
    set_isolation_guc(s, u->ddl3_name);
    apply_isolation(s, guc_show(s->guc, "transaction_isolation"));
}

bool exec__ddl3_set_isolation(ExecSession *s, const UtilityStmt *u)
{
    const char *canon = u->name ? guc_canonical_name(u->name) : NULL;
    if (canon == NULL || strcmp(canon, "transaction_isolation") != 0)
        return false;
    if (!s->in_block && u->ddl3_op == 't')
        err_notice(ERR_SEV_WARNING, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
                   "SET TRANSACTION can only be used in transaction blocks");
    set_isolation_guc(s, u->value);
    apply_isolation(s, guc_show(s->guc, "transaction_isolation"));
    return true;
}
