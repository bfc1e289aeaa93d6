/*
 * plan_ddl3.c — utility statements of issue 3 that the planner only has to
 * resolve names for: TRUNCATE, VACUUM, ANALYZE and CHECKPOINT, plus
 * SAVEPOINT / RELEASE / ROLLBACK TO, and ALTER TABLE ADD COLUMN / ADD
 * PRIMARY KEY (column DEFAULTs bound here). Each becomes a PLAN_STMT_UTILITY plan
 * (UTIL_TRUNCATE / UTIL_MAINTENANCE with the resolved tables, UTIL_SAVEPOINT
 * with the name, UTIL_ALTER_TABLE with PlanAlterCmds); executor/utility_ddl3.c runs them through the storage
 * API. Name resolution follows search_path (plan__lookup_table), so
 * `TRUNCATE nosuch` is 42P01 (without a position, as PostgreSQL).
 * Catalog statements too: CREATE/DROP SCHEMA (UTIL_SCHEMA), CREATE/ALTER/
 * DROP ROLE|USER (UTIL_ROLE, options into UtilityStmt.ddl3_role), CREATE/
 * DROP DATABASE (UTIL_DATABASE), and the isolation level of BEGIN's modes.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "common/error.h"
#include "storage/storage.h"

static Plan *ddl3_plan(Binder *b, UtilityKind kind, const char *command, UtilityStmt **out)
{
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, command);
    UtilityStmt *u = MEM_NEW(b->arena, UtilityStmt);
    u->kind = kind;
    p->utility = u;
    *out = u;
    return p;
}

static StoreTable *resolve(Binder *b, const RangeVar *rv)
{
    return plan__lookup_table(b, rv->schemaname, rv->relname, -1, false);   /* PostgreSQL gives no position */
}

static Plan *plan_truncate(Binder *b, const TruncateStmt *s)
{
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_TRUNCATE, "TRUNCATE TABLE", &u);
    for (int i = 0; i < list_len(s->relations); i++)
        u->ddl3_tables = list_append(b->arena, u->ddl3_tables, resolve(b, list_nth(s->relations, i)));
    return p;
}

static Plan *plan_vacuum(Binder *b, const VacuumStmt *s)
{
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_MAINTENANCE, s->is_vacuumcmd ? "VACUUM" : "ANALYZE", &u);
    u->ddl3_op = s->is_vacuumcmd ? 'v' : 'a';
    for (int i = 0; i < list_len(s->options); i++) {
        const DefElem *d = list_nth(s->options, i);
        if (strcmp(d->defname, "analyze") == 0 && s->is_vacuumcmd)
            u->ddl3_op = 'b';   /* VACUUM ANALYZE: both */
    }
    for (int i = 0; i < list_len(s->rels); i++) {
        const VacuumRelation *vr = list_nth(s->rels, i);
        StoreTable *t = resolve(b, vr->relation);
        for (int k = 0; k < list_len(vr->va_cols); k++) {
            const char *col = list_nth(vr->va_cols, k);
            if (store_table_column_index(t, col) < 0)
                err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", col,
                          store_table_name(t));
        }
        u->ddl3_tables = list_append(b->arena, u->ddl3_tables, t);
    }
    return p;
}

/* DEFAULT of an added column, bound and assigned to its type (no columns). */
static Expr *bind_default(Binder *b, const Constraint *c, const ColumnSpec *col)
{
    Binder sub;
    plan__binder_init(&sub, b->ctx);
    sub.agg_forbidden = "DEFAULT expressions";
    Expr *e = plan__bind_expr(&sub, c->raw_expr);
    if (plan__expr_has_vars(e))
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cannot use column reference in DEFAULT expression");
    Expr *r = plan__coerce(&sub, e, col->type, CAST_ASSIGNMENT);
    if (!r)
        plan__error_hint(&sub, ERRCODE_DATATYPE_MISMATCH, e->location,
                         "You will need to rewrite or cast the expression.",
                         "column \"%s\" is of type %s but default expression is of type %s", col->name,
                         plan__type_name(&sub, col->type), plan__type_name(&sub, SQLTYPE(e->type.oid)));
    return plan__remap(&sub, r, NULL, 0);
}

static void add_column(Binder *b, const AlterTableCmd *cmd, PlanAlterCmd *pc)
{
    const ColumnDef *cd = (const ColumnDef *)cmd->def;
    pc->op = 'c';
    pc->if_not_exists = cmd->missing_ok;
    pc->column.name = cd->colname;
    pc->column.type = plan__resolve_type_name(b, cd->type_name);
    for (int i = 0; i < list_len(cd->constraints); i++) {
        const Constraint *c = list_nth(cd->constraints, i);
        if (c->contype == CONSTR_NOTNULL)
            pc->column.not_null = true;
        else if (c->contype == CONSTR_DEFAULT) {
            pc->column.default_text = c->expr_text;
            pc->fill = bind_default(b, c, &pc->column);
        } else if (c->contype != CONSTR_NULL)
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "this ADD COLUMN constraint is not supported yet");
    }
}

static void add_pkey(Binder *b, StoreTable *t, const Constraint *c, PlanAlterCmd *pc)
{
    pc->op = 'p';
    pc->npkey = list_len(c->keys);
    pc->pkey = MEM_NEW_ARRAY(b->arena, int, pc->npkey + 1);
    for (int i = 0; i < pc->npkey; i++) {
        const char *name = list_nth(c->keys, i);
        int j = store_table_column_index(t, name);
        if (j < 0)
            err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", name,
                      store_table_name(t));
        for (int k = 0; k < i; k++)
            if (pc->pkey[k] == j)
                err_raise(ERRCODE_DUPLICATE_COLUMN, "column \"%s\" appears twice in primary key constraint",
                          name);
        pc->pkey[i] = j;
    }
}

static Plan *plan_alter(Binder *b, const AlterTableStmt *s)
{
    if (s->objtype != OBJECT_TABLE)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, s->node.location, "this statement is not supported yet");
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_ALTER_TABLE, "ALTER TABLE", &u);
    const RangeVar *rv = s->relation;
    StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, -1, s->missing_ok);
    if (t == NULL) {
        err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "relation \"%s\" does not exist, skipping",
                   rv->relname);
        return p;
    }
    u->ddl3_tables = list_append(b->arena, NULL, t);
    for (int i = 0; i < list_len(s->cmds); i++) {
        const AlterTableCmd *cmd = list_nth(s->cmds, i);
        PlanAlterCmd *pc = MEM_NEW(b->arena, PlanAlterCmd);
        const Constraint *c = (const Constraint *)cmd->def;
        if (cmd->subtype == AT_AddColumn && IS_A(cmd->def, ColumnDef))
            add_column(b, cmd, pc);
        else if (cmd->subtype == AT_AddConstraint && IS_A(cmd->def, Constraint) && c->contype == CONSTR_PRIMARY)
            add_pkey(b, t, c, pc);
        else
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, cmd->node.location,
                           "this ALTER TABLE form is not supported yet");
        u->ddl3_cmds = list_append(b->arena, u->ddl3_cmds, pc);
    }
    return p;
}

/* CREATE SCHEMA [IF NOT EXISTS] x (no AUTHORIZATION, no schema elements). */
static Plan *plan_create_schema(Binder *b, const CreateSchemaStmt *s)
{
    if (s->schemaname == NULL || s->authrole != NULL || s->schema_elts != NULL)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, s->node.location,
                       "CREATE SCHEMA with AUTHORIZATION or schema elements is not supported yet");
    if (strncmp(s->schemaname, "pg_", 3) == 0) {
        ErrorData *e = err_begin(ERRCODE_RESERVED_NAME);
        err_message(e, "unacceptable schema name \"%s\"", s->schemaname);
        err_detail(e, "The prefix \"pg_\" is reserved for system schemas.");
        err_throw();
    }
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_SCHEMA, "CREATE SCHEMA", &u);
    u->ddl3_op = 'c';
    u->ddl3_name = s->schemaname;
    u->missing_ok = s->if_not_exists;
    return p;
}

/* DROP SCHEMA [IF EXISTS] a, b [CASCADE | RESTRICT]. */
static Plan *plan_drop_schema(Binder *b, const DropStmt *s)
{
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_SCHEMA, "DROP SCHEMA", &u);
    u->ddl3_op = 'd';
    u->missing_ok = s->missing_ok;
    u->ddl3_cascade = s->cascade;
    for (int i = 0; i < list_len(s->objects); i++) {
        const String *name = list_nth(s->objects, i);
        u->ddl3_names = list_append(b->arena, u->ddl3_names, (void *)name->sval);
    }
    return p;
}

/* One role option (PostgreSQL's DefElem names) into u->ddl3_role; a
 * repeated option is 42601, as PostgreSQL. */
static void role_option(Binder *b, const DefElem *d, UtilityStmt *u)
{
    static const char *const names[] = {"superuser", "canlogin", "createdb", "createrole"};
    int *fields[] = {&u->ddl3_role.superuser, &u->ddl3_role.login, &u->ddl3_role.createdb,
                     &u->ddl3_role.createrole};
    const A_Const *c = (const A_Const *)d->arg;
    if (strcmp(d->defname, "password") == 0) {
        if (u->ddl3_role.has_password)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, d->node.location, "conflicting or redundant options");
        u->ddl3_role.has_password = true;
        u->ddl3_role.password = c && IS_A(c, A_Const) && c->kind == CONST_STRING ? c->sval : NULL;
        return;
    }
    for (int i = 0; i < 4; i++) {
        if (strcmp(d->defname, names[i]) != 0)
            continue;
        if (*fields[i] != -1)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, d->node.location, "conflicting or redundant options");
        *fields[i] = c && IS_A(c, A_Const) && c->kind == CONST_BOOL ? c->bval : 1;
        return;
    }
    plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, d->node.location, "role option \"%s\" is not supported yet",
                   d->defname);
}

/* CREATE ROLE|USER / ALTER ROLE|USER name [WITH] options. CREATE USER
 * implies LOGIN unless NOLOGIN is given. */
static Plan *plan_role(Binder *b, char op, const char *name, const List *options, bool is_user)
{
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_ROLE, op == 'c' ? "CREATE ROLE" : "ALTER ROLE", &u);
    u->ddl3_op = op;
    u->ddl3_name = name;
    u->ddl3_role.superuser = u->ddl3_role.login = u->ddl3_role.createdb = u->ddl3_role.createrole = -1;
    for (int i = 0; i < list_len(options); i++)
        role_option(b, list_nth(options, i), u);
    if (is_user && u->ddl3_role.login == -1)
        u->ddl3_role.login = 1;
    if (op == 'c' && strncmp(name, "pg_", 3) == 0) {
        ErrorData *e = err_begin(ERRCODE_RESERVED_NAME);
        err_message(e, "role name \"%s\" is reserved", name);
        err_detail(e, "Role names starting with \"pg_\" are reserved.");
        err_throw();
    }
    return p;
}

void plan__ddl3_txn_modes(const List *modes, UtilityStmt *u)
{
    for (int i = 0; i < list_len(modes); i++) {
        const DefElem *d = list_nth(modes, i);
        const A_Const *c = (const A_Const *)d->arg;
        if (strcmp(d->defname, "transaction_isolation") == 0 && c && IS_A(c, A_Const) && c->kind == CONST_STRING)
            u->ddl3_name = c->sval;
    }
}

Plan *plan__plan_ddl3(Binder *b, const RawStmt *raw, const Node *stmt)
{
    (void)raw;
    UtilityStmt *u;
    switch (stmt->tag) {
    case T_TruncateStmt: return plan_truncate(b, (const TruncateStmt *)stmt);
    case T_VacuumStmt: return plan_vacuum(b, (const VacuumStmt *)stmt);
    case T_AlterTableStmt: return plan_alter(b, (const AlterTableStmt *)stmt);
    case T_SavepointStmt: {
        const SavepointStmt *sp = (const SavepointStmt *)stmt;
        static const char *const tags[] = {"SAVEPOINT", "RELEASE", "ROLLBACK"};
        Plan *p = ddl3_plan(b, UTIL_SAVEPOINT, tags[sp->kind], &u);
        u->ddl3_op = sp->kind == SAVEPOINT_DEFINE ? 's' : sp->kind == SAVEPOINT_RELEASE ? 'r' : 'b';
        u->ddl3_name = sp->savepoint_name;
        return p;
    }
    case T_CreateSchemaStmt: return plan_create_schema(b, (const CreateSchemaStmt *)stmt);
    case T_DropStmt: return plan_drop_schema(b, (const DropStmt *)stmt);
    case T_CreateRoleStmt: {
        const CreateRoleStmt *cr = (const CreateRoleStmt *)stmt;
        return plan_role(b, 'c', cr->role, cr->options, cr->stmt_type == ROLESTMT_USER);
    }
    case T_AlterRoleStmt: {
        const AlterRoleStmt *ar = (const AlterRoleStmt *)stmt;
        return plan_role(b, 'a', ar->role, ar->options, false);
    }
    case T_CreatedbStmt: case T_DropdbStmt: {
        bool create = stmt->tag == T_CreatedbStmt;
        const CreatedbStmt *cd = (const CreatedbStmt *)stmt;
        const DropdbStmt *dd = (const DropdbStmt *)stmt;
        if (create ? cd->options != NULL : dd->options != NULL)
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, stmt->location,
                           "%s options are not supported yet", create ? "CREATE DATABASE" : "DROP DATABASE");
        Plan *p = ddl3_plan(b, UTIL_DATABASE, create ? "CREATE DATABASE" : "DROP DATABASE", &u);
        u->ddl3_op = create ? 'c' : 'd';
        u->ddl3_name = create ? cd->dbname : dd->dbname;
        u->missing_ok = !create && dd->missing_ok;
        return p;
    }
    case T_DropRoleStmt: {
        const DropRoleStmt *dr = (const DropRoleStmt *)stmt;
        Plan *p = ddl3_plan(b, UTIL_ROLE, "DROP ROLE", &u);
        u->ddl3_op = 'd';
        u->ddl3_names = dr->roles;
        u->missing_ok = dr->missing_ok;
        return p;
    }
    case T_CheckPointStmt: {
        Plan *p = ddl3_plan(b, UTIL_MAINTENANCE, "CHECKPOINT", &u);
        u->ddl3_op = 'c';
        return p;
    }
    default:
        return NULL;
    }
}
