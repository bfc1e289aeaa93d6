/*
 * plan_ctas.c — CREATE [TEMP] TABLE name [(cols)] [ON COMMIT ...] AS query
 * [WITH [NO] DATA],
 * CREATE TABLE IF NOT EXISTS ... AS, and SELECT ... INTO name (which
 * PostgreSQL turns into CREATE TABLE AS).
 *
 * The query is planned as a SELECT of its own (a PLAN_STMT_QUERY kept in
 * UtilityStmt.ctas_plan, its parameters shared with the statement); the
 * table's columns are its result columns, named as PostgreSQL names them
 * (the target names, "?column?" included) unless the column list renames
 * the first ones, typed with the result types (typmods kept; an unknown
 * literal is text). The executor (UTIL_CREATE_TABLE_AS, executor/utility.c)
 * creates the table and inserts the rows in the statement's transaction;
 * the command tag is "SELECT n" (PostgreSQL 15), or "CREATE TABLE AS" when
 * no rows were asked for (WITH NO DATA) or IF NOT EXISTS found the table.
 *
 * Not supported: CREATE MATERIALIZED VIEW, CREATE TABLE ... AS EXECUTE,
 * storage parameters (WITH (...)); UNLOGGED makes an ordinary table. TEMP
 * makes a temporary one (the session's pg_temp_N), with ON COMMIT as
 * CREATE TEMP TABLE's (executor/temp.c).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "storage/storage.h"

static _Noreturn void unsupported(Binder *b, int location, const char *what)
{
    plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, location, "%s is not supported yet", what);
}

/* The table's columns from the query's result columns and the column list. */
static void ctas_columns(Binder *b, UtilityStmt *u, const Plan *q, const IntoClause *into)
{
    int nnames = list_len(into->col_names);
    if (nnames > q->ncols)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, -1, "too many column names were specified");
    u->ncolumns = q->ncols;
    u->columns = MEM_NEW_ARRAY(b->arena, ColumnSpec, q->ncols + 1);
    for (int i = 0; i < q->ncols; i++) {
        ColumnSpec *c = &u->columns[i];
        c->name = i < nnames ? (const char *)list_nth(into->col_names, i) : q->cols[i].name;
        c->type = q->cols[i].type;
        if (c->type.oid == TYPE_UNKNOWN)
            c->type = SQLTYPE(TYPE_TEXT);
        for (int k = 0; k < i; k++)
            if (strcmp(u->columns[k].name, c->name) == 0)
                plan__error_at(b, ERRCODE_DUPLICATE_COLUMN, -1, "column \"%s\" specified more than once",
                               c->name);
    }
}

static Plan *plan_ctas(Binder *b, const IntoClause *into, const SelectStmt *query, bool if_not_exists)
{
    if (into->options)
        unsupported(b, into->node.location, "CREATE TABLE AS with storage parameters");
    Plan *q = plan__new_plan(b, PLAN_STMT_QUERY, "SELECT");
    SelectResult r = plan__plan_select(b, query);
    q->root = r.root;
    q->ncols = r.ncols;
    q->cols = r.cols;
    plan__finish_params(b, q);

    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "SELECT");
    UtilityStmt *u = MEM_NEW(b->arena, UtilityStmt);
    u->kind = UTIL_CREATE_TABLE_AS;
    u->schema_name = plan__creation_schema_p(b, into->rel->schemaname, into->rel->relpersistence, -1);
    /* Unlike CREATE TABLE's (plan_utility.c), on the TEMP keyword alone:
     * PostgreSQL's DefineRelation checks it before it makes a relation in
     * pg_temp temporary, and CREATE TABLE AS has no transformCreateStmt to
     * do that first (so CREATE TABLE pg_temp.t ON COMMIT ... AS is 42P16). */
    if (into->oncommit != 0 && into->rel->relpersistence != 't')
        err_raise(ERRCODE_INVALID_TABLE_DEFINITION, "ON COMMIT can only be used on temporary tables");
    u->on_commit = into->oncommit == 1 ? 0 : into->oncommit;   /* executor/temp.c */
    u->table_name = into->rel->relname;
    u->if_not_exists = if_not_exists;
    u->ctas_plan = q;
    u->ctas_skip_data = into->skip_data;
    ctas_columns(b, u, q, into);
    p->utility = u;
    return p;
}

Plan *plan__plan_ctas(Binder *b, const CreateTableAsStmt *s)
{
    if (s->objtype == OBJECT_MATVIEW)
        unsupported(b, s->node.location, "CREATE MATERIALIZED VIEW");
    if (!s->query || !IS_A(s->query, SelectStmt))
        unsupported(b, s->node.location, "CREATE TABLE AS EXECUTE");
    return plan_ctas(b, s->into, (const SelectStmt *)s->query, s->if_not_exists);
}

const IntoClause *plan__select_into(const SelectStmt *s)
{
    while (s && s->op != SELECT_SETOP_NONE && !s->into_clause)
        s = s->larg;   /* SELECT ... INTO t UNION ...: the grammar puts it on the first leaf */
    return s ? s->into_clause : NULL;
}

/* A copy of s without its INTO (copying the set operations' first leaves). */
static SelectStmt *without_into(Binder *b, const SelectStmt *s)
{
    SelectStmt *q = MEM_NEW(b->arena, SelectStmt);
    *q = *s;
    if (q->into_clause)
        q->into_clause = NULL;
    else if (q->op != SELECT_SETOP_NONE)
        q->larg = without_into(b, s->larg);
    return q;
}

Plan *plan__plan_select_into(Binder *b, const SelectStmt *s)
{
    return plan_ctas(b, plan__select_into(s), without_into(b, s), false);
}
