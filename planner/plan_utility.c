/*
 * plan_utility.c — statements that are not queries become UtilityStmt
 * plans: CREATE TABLE (types with typmods, NOT NULL, DEFAULT, PRIMARY
 * KEY), DROP TABLE, BEGIN/START TRANSACTION/COMMIT/ROLLBACK,
 * SET/RESET/SHOW, ALTER ROLE ... PASSWORD. The executor carries them out;
 * the planner resolves names and validates what PostgreSQL validates
 * before execution (types, duplicate columns, defaults' types, keys).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <ctype.h>
#include <string.h>
#include "common/guc.h"
#include "common/strbuf.h"
#include "storage/storage.h"

static Plan *utility_plan(Binder *b, UtilityKind kind, const char *command, UtilityStmt **out)
{
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, command);
    UtilityStmt *u = MEM_NEW(b->arena, UtilityStmt);
    u->kind = kind;
    p->utility = u;
    *out = u;
    return p;
}

/* DEFAULT must be assignable to the column (PostgreSQL's cookDefault). */
static void check_default(Binder *b, const ColumnSpec *col, const Constraint *c)
{
    b->agg_forbidden = "DEFAULT expressions";
    b->no_fold = true;
    Expr *e = plan__bind_expr(b, c->raw_expr);
    b->agg_forbidden = NULL;
    if (plan__expr_has_vars(e))
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, c->raw_expr->location,
                       "cannot use column reference in DEFAULT expression");
    /* an unknown literal is converted now (22P02 at CREATE, as PostgreSQL);
     * anything else is only checked for an assignment cast */
    bool ok = e->type.oid == TYPE_UNKNOWN ? plan__coerce(b, e, col->type, CAST_ASSIGNMENT) != NULL
                                          : plan__can_coerce(e->type.oid, col->type.oid, CAST_ASSIGNMENT);
    b->no_fold = false;
    if (!ok)
        plan__error_hint(b, ERRCODE_DATATYPE_MISMATCH, -1,
                         "You will need to rewrite or cast the expression.",
                         "column \"%s\" is of type %s but default expression is of type %s", col->name,
                         plan__type_name(b, col->type), plan__type_name(b, SQLTYPE(e->type.oid)));
}

static void set_pkey(Binder *b, UtilityStmt *u, const char *table, int *idx, int n, int location)
{
    if (u->npkey > 0)
        plan__error_at(b, ERRCODE_INVALID_TABLE_DEFINITION, location,
                       "multiple primary keys for table \"%s\" are not allowed", table);
    u->npkey = n;
    u->pkey_columns = idx;
    for (int i = 0; i < n; i++)
        u->columns[idx[i]].not_null = true;
}

static void column_constraints(Binder *b, UtilityStmt *u, int ci, const ColumnDef *cd)
{
    ColumnSpec *col = &u->columns[ci];
    for (int k = 0; k < list_len(cd->constraints); k++) {
        const Constraint *c = list_nth(cd->constraints, k);
        switch (c->contype) {
        case CONSTR_NOTNULL: col->not_null = true; break;
        case CONSTR_NULL: col->not_null = false; break;
        case CONSTR_DEFAULT:
            check_default(b, col, c);
            col->default_text = c->expr_text;
            break;
        case CONSTR_PRIMARY: {
            int *idx = MEM_NEW_ARRAY(b->arena, int, 1);
            idx[0] = ci;
            set_pkey(b, u, u->table_name, idx, 1, c->node.location);
            break;
        }
        default:
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, c->node.location,
                           "%s constraints are not supported yet",
                           c->contype == CONSTR_UNIQUE ? "UNIQUE" : "CHECK");
        }
    }
}

static void table_constraint(Binder *b, UtilityStmt *u, const Constraint *c)
{
    if (c->contype != CONSTR_PRIMARY)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, c->node.location,
                       "%s constraints are not supported yet",
                       c->contype == CONSTR_UNIQUE ? "UNIQUE" : "CHECK");
    int n = list_len(c->keys);
    int *idx = MEM_NEW_ARRAY(b->arena, int, n + 1);
    for (int i = 0; i < n; i++) {
        const char *name = list_nth(c->keys, i);
        idx[i] = -1;
        for (int k = 0; k < u->ncolumns; k++)
            if (strcmp(u->columns[k].name, name) == 0)
                idx[i] = k;
        if (idx[i] < 0)
            plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, c->node.location,
                           "column \"%s\" named in key does not exist", name);
        for (int k = 0; k < i; k++)
            if (idx[k] == idx[i])
                plan__error_at(b, ERRCODE_DUPLICATE_COLUMN, c->node.location,
                               "column \"%s\" appears twice in primary key constraint", name);
    }
    set_pkey(b, u, u->table_name, idx, n, c->node.location);
}

static Plan *plan_create(Binder *b, const CreateStmt *s)
{
    UtilityStmt *u;
    Plan *p = utility_plan(b, UTIL_CREATE_TABLE, "CREATE TABLE", &u);
    u->schema_name = plan__creation_schema_p(b, s->relation->schemaname, s->relation->relpersistence,
                                             s->relation->node.location);
    /* After the schema: CREATE TABLE pg_temp.t ... ON COMMIT is temporary too. */
    if (s->oncommit != 0 && !store_schema_is_temp(u->schema_name))
        err_raise(ERRCODE_INVALID_TABLE_DEFINITION, "ON COMMIT can only be used on temporary tables");
    u->on_commit = s->oncommit == 1 ? 0 : s->oncommit;
    u->table_name = s->relation->relname;
    u->if_not_exists = s->if_not_exists;
    int n = 0;
    for (int i = 0; i < list_len(s->table_elts); i++)
        n += IS_A(list_nth(s->table_elts, i), ColumnDef);
    u->columns = MEM_NEW_ARRAY(b->arena, ColumnSpec, n + 1);
    for (int i = 0; i < list_len(s->table_elts); i++) {
        const ColumnDef *cd = list_nth(s->table_elts, i);
        if (!IS_A(cd, ColumnDef))
            continue;
        for (int k = 0; k < u->ncolumns; k++)
            if (strcmp(u->columns[k].name, cd->colname) == 0)
                err_raise(ERRCODE_DUPLICATE_COLUMN, "column \"%s\" specified more than once", cd->colname);
        ColumnSpec *col = &u->columns[u->ncolumns++];
        col->name = cd->colname;
        col->type = plan__resolve_type_name(b, cd->type_name);
    }
    for (int i = 0, ci = 0; i < list_len(s->table_elts); i++) {
        const Node *el = list_nth(s->table_elts, i);
        if (IS_A(el, ColumnDef))
            column_constraints(b, u, ci++, (const ColumnDef *)el);
    }
    for (int i = 0; i < list_len(s->table_elts); i++) {
        const Node *el = list_nth(s->table_elts, i);
        if (IS_A(el, Constraint))
            table_constraint(b, u, (const Constraint *)el);
    }
    return p;
}

static Plan *plan_drop(Binder *b, const DropStmt *s)
{
    if (s->remove_type == OBJECT_VIEW)
        return plan__drop_view(b, s);
    if (s->remove_type == OBJECT_SCHEMA)
        return plan__plan_ddl3(b, NULL, &s->node);
    if (s->remove_type != OBJECT_TABLE)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, s->node.location, "this DROP is not supported yet");
    for (int i = 0; i < list_len(s->objects); i++) {
        const RangeVar *rv = list_nth(s->objects, i);
        if (!plan__lookup_table(b, rv->schemaname, rv->relname, -1, true) && plan__is_view(b, rv))
            plan__error_hint(b, ERRCODE_WRONG_OBJECT_TYPE, -1, "Use DROP VIEW to remove a view.",
                             "\"%s\" is not a table", rv->relname);
    }
    UtilityStmt *u;
    Plan *p = utility_plan(b, UTIL_DROP_TABLE, "DROP TABLE", &u);
    u->missing_ok = s->missing_ok;
    if (s->cascade)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "DROP TABLE ... CASCADE is not supported yet");
    for (int i = 0; i < list_len(s->objects); i++) {
        const RangeVar *rv = list_nth(s->objects, i);
        if (rv->schemaname && !store_schema_exists(rv->schemaname) && !s->missing_ok)
            err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", rv->schemaname);
        StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, true);
        const char *name;
        if (t)
            name = mem_printf(b->arena, "%s.%s", store_table_schema(t), store_table_name(t));
        else if (!s->missing_ok)
            plan__error_at(b, ERRCODE_UNDEFINED_TABLE, -1, "table \"%s\" does not exist", rv->relname);
        else
            name = rv->schemaname ? mem_printf(b->arena, "%s.%s", rv->schemaname, rv->relname) : rv->relname;
        u->drop_tables = list_append(b->arena, u->drop_tables, (void *)name);
        if (i == 0) {
            u->schema_name = t ? store_table_schema(t) : rv->schemaname;
            u->table_name = rv->relname;
        }
    }
    return p;
}

static Plan *plan_transaction(Binder *b, const RawStmt *raw, const TransactionStmt *s)
{
    UtilityStmt *u;
    switch (s->kind) {
    case TRANS_STMT_BEGIN: {
        const char *q = b->ctx->query_text ? b->ctx->query_text + raw->stmt_location : "";
        while (isspace((unsigned char)*q))
            q++;
        bool start = strncasecmp(q, "start", 5) == 0;
        Plan *p = utility_plan(b, UTIL_BEGIN, start ? "START TRANSACTION" : "BEGIN", &u);
        plan__ddl3_txn_modes(s->modes, u);
        return p;
    }
    case TRANS_STMT_COMMIT:
        return utility_plan(b, UTIL_COMMIT, "COMMIT", &u);
    case TRANS_STMT_ROLLBACK:
        return utility_plan(b, UTIL_ROLLBACK, "ROLLBACK", &u);
    }
    ERR_ASSERT(!"unknown transaction statement");
    return NULL;
}

static bool plain_identifier(const char *s)
{
    if (!*s || !(islower((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' || *s == '$'))
            return false;
    return true;
}

/* PostgreSQL's flatten_set_variable_args: values joined by ", "; list
 * elements of search_path quoted as identifiers when they need it. */
static const char *flatten_args(Binder *b, const char *name, const List *args)
{
    StrBuf sb;
    strbuf_init(&sb);
    bool quote_list = strcmp(name, "search_path") == 0;
    for (int i = 0; i < list_len(args); i++) {
        const A_Const *c = list_nth(args, i);
        if (i > 0)
            strbuf_append_str(&sb, ", ");
        const char *v = c->kind == CONST_STRING ? c->sval
                        : c->kind == CONST_BOOL ? (c->bval ? "true" : "false")
                        : c->kind == CONST_NULL ? "null" : c->text;
        if (!v)
            v = "";
        if (quote_list && !plain_identifier(v)) {
            strbuf_append_char(&sb, '"');
            for (const char *q = v; *q; q++) {
                if (*q == '"')
                    strbuf_append_char(&sb, '"');
                strbuf_append_char(&sb, *q);
            }
            strbuf_append_char(&sb, '"');
        } else {
            strbuf_append_str(&sb, v);
        }
    }
    const char *out = mem_strndup(b->arena, sb.data ? sb.data : "", sb.len);
    strbuf_free(&sb);
    return out;
}

static Plan *plan_set(Binder *b, const VariableSetStmt *s)
{
    UtilityStmt *u;
    Plan *p;
    if (s->kind == VAR_RESET || s->kind == VAR_RESET_ALL) {
        p = utility_plan(b, UTIL_RESET, "RESET", &u);
        u->name = s->kind == VAR_RESET ? s->name : NULL;
        return p;
    }
    p = utility_plan(b, UTIL_SET, "SET", &u);
    u->name = s->name;
    u->is_local = s->is_local;
    u->value = s->kind == VAR_SET_DEFAULT ? NULL : flatten_args(b, s->name, s->args);
    if (s->modes)
        u->ddl3_op = 't';   /* SET TRANSACTION (executor/utility_ddl3.c) */
    return p;
}

static void text_col(Binder *b, Plan *p, int i, const char *name)
{
    p->cols[i].name = name;
    p->cols[i].type = SQLTYPE(TYPE_TEXT);
    (void)b;
}

static Plan *plan_show(Binder *b, const VariableShowStmt *s)
{
    UtilityStmt *u;
    Plan *p = utility_plan(b, UTIL_SHOW, "SHOW", &u);
    u->name = s->name;
    if (strcmp(s->name, "all") == 0) {
        p->ncols = 3;
        p->cols = MEM_NEW_ARRAY(b->arena, ResultColumn, 3);
        text_col(b, p, 0, "name");
        text_col(b, p, 1, "setting");
        text_col(b, p, 2, "description");
        return p;
    }
    const char *canon = guc_canonical_name(s->name);
    if (!canon)
        err_raise(ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", s->name);
    p->ncols = 1;
    p->cols = MEM_NEW_ARRAY(b->arena, ResultColumn, 1);
    text_col(b, p, 0, canon);
    return p;
}

static Plan *plan_alter_role(Binder *b, const AlterRoleStmt *s)
{
    if (!s->has_password || list_len(s->options) > 1)
        return plan__plan_ddl3(b, NULL, &s->node);   /* other options: plan_ddl3.c */
    if (!s->has_password)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, s->node.location,
                       "ALTER ROLE options other than PASSWORD are not supported yet");
    UtilityStmt *u;
    Plan *p = utility_plan(b, UTIL_ALTER_ROLE, "ALTER ROLE", &u);
    u->role_name = s->role;
    u->password = s->password;
    return p;
}

Plan *plan__plan_utility(Binder *b, const RawStmt *raw, const Node *stmt)
{
    switch (stmt->tag) {
    case T_CreateStmt: {   /* sequences: serial / identity columns */
        PlanSeqStmt *sq;
        const CreateStmt *cs = plan__seq_rewrite_create(b, (const CreateStmt *)stmt, &sq);
        return plan__seq_wrap(b, plan_create(b, cs), sq);
    }
    case T_CreateSeqStmt: case T_AlterSeqStmt: case T_DiscardStmt:   /* sequences */
        return plan__plan_sequence(b, stmt);
    case T_DropStmt:
        if (((const DropStmt *)stmt)->remove_type == OBJECT_SEQUENCE)   /* sequences */
            return plan__plan_sequence(b, stmt);
        return plan_drop(b, (const DropStmt *)stmt);
    case T_TransactionStmt: return plan_transaction(b, raw, (const TransactionStmt *)stmt);
    case T_VariableSetStmt: return plan_set(b, (const VariableSetStmt *)stmt);
    case T_VariableShowStmt: return plan_show(b, (const VariableShowStmt *)stmt);
    case T_AlterRoleStmt: return plan_alter_role(b, (const AlterRoleStmt *)stmt);
    case T_ViewStmt: return plan__create_view(b, raw, (const ViewStmt *)stmt);
    case T_CreateTableAsStmt: return plan__plan_ctas(b, (const CreateTableAsStmt *)stmt);
    case T_TruncateStmt:   /* sequences: RESTART IDENTITY */
        return plan__seq_truncate(b, (const TruncateStmt *)stmt, plan__plan_ddl3(b, raw, stmt));
    case T_VacuumStmt: case T_CheckPointStmt: case T_SavepointStmt: case T_AlterTableStmt:
    case T_CreateSchemaStmt: case T_CreateRoleStmt: case T_DropRoleStmt: case T_CreatedbStmt: case T_DropdbStmt:
        return plan__plan_ddl3(b, raw, stmt);
    default:
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, stmt->location,
                       "this statement is not supported yet");
    }
}
