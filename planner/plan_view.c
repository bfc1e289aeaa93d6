/*
 * plan_view.c — views: CREATE [OR REPLACE] VIEW, DROP VIEW, and their
 * expansion in FROM.
 *
 * A view is a catalog entry of the store (storage/catalog.c: a relation
 * with column names and types, no rows, and the SQL text of its query), so
 * views are durable, per database, and their DDL is transactional like
 * CREATE/DROP TABLE. The planner checks CREATE/DROP VIEW and hands the
 * change to the executor as UTIL_VIEW (executor/utility_view.c). A reference
 * to a view in FROM parses its text again and plans it as a subquery with
 * the view's column names (PostgreSQL rewrites views the same way).
 * A view whose query names a temporary relation (the session's pg_temp_N,
 * seen as store_temp_lookups growing while the query is planned) is
 * temporary itself, as PostgreSQL makes it: NOTICE `view "v" will be a
 * temporary view`, and 42P16 when a permanent schema was named.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "parser/parser.h"
#include "storage/storage.h"

typedef struct ViewDef {
    const char *schema;
    const char *name;
    const char *sql;
    int ncols;
    const char **colnames;
    SqlType *types;
} ViewDef;

/* The view schema.name as the calling transaction sees it (in arena), or NULL. */
static ViewDef *view_find(MemArena *a, const char *schema, const char *name)
{
    StoreTable *t = store_view_lookup(schema, name);
    if (!t)
        return NULL;
    ViewDef *v = MEM_NEW(a, ViewDef);
    v->schema = mem_strdup(a, schema);
    v->name = mem_strdup(a, name);
    v->sql = mem_strdup(a, store_view_sql(t));
    v->ncols = store_table_ncols(t);
    v->colnames = MEM_NEW_ARRAY(a, const char *, v->ncols + 1);
    v->types = MEM_NEW_ARRAY(a, SqlType, v->ncols + 1);
    for (int i = 0; i < v->ncols; i++) {
        const StoreColumnDef *c = store_table_column(t, i);
        v->colnames[i] = mem_strdup(a, c->name);
        v->types[i] = c->type;
    }
    return v;
}

/* The view a RangeVar names, or NULL (a table of that name comes first in
 * the same schema of search_path). */
static ViewDef *lookup(Binder *b, const RangeVar *rv)
{
    if (rv->schemaname)
        return view_find(b->arena, rv->schemaname, rv->relname);
    const char *schemas[16];
    int n = plan__search_schemas(b, schemas, 16);
    for (int i = 0; i < n; i++) {
        if (store_table_lookup(schemas[i], rv->relname))
            return NULL;
        ViewDef *v = view_find(b->arena, schemas[i], rv->relname);
        if (v)
            return v;
    }
    return NULL;
}

PlanNode *plan__expand_view(Binder *b, const RangeVar *rv, const char ***names)
{
    ViewDef *v = lookup(b, rv);
    if (!v)
        return plan__seq_expand(b, rv, names);   /* sequences: SELECT * FROM seq */
    List *stmts = parse_sql(b->arena, v->sql);
    const RawStmt *raw = list_nth(stmts, 0);
    Binder child;
    plan__child_binder(&child, b, false);
    child.query_text = NULL;   /* positions would point into the view's text */
    child.ctes = NULL;
    SelectResult r = plan__plan_select(&child, (const SelectStmt *)raw->stmt);
    plan__child_done(b, &child);
    if (r.ncols < v->ncols)
        plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, rv->node.location,
                       "view \"%s\" no longer matches its definition", v->name);
    const char **nm = MEM_NEW_ARRAY(b->arena, const char *, r.ncols + 1);
    for (int i = 0; i < r.ncols; i++)
        nm[i] = i < v->ncols ? v->colnames[i] : r.cols[i].name;
    *names = nm;
    return r.root;
}

/* The text of the view's query: from its first token to the statement's end. */
static char *query_text(Binder *b, const RawStmt *raw, const ViewStmt *vs)
{
    const char *text = b->ctx->query_text;
    int start = ((const Node *)vs->query)->location;
    if (!text || start < 0)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, vs->node.location, "CREATE VIEW needs the query text");
    size_t end = raw->stmt_len > 0 ? (size_t)(raw->stmt_location + raw->stmt_len) : strlen(text);
    while (end > (size_t)start && (text[end - 1] == ';' || text[end - 1] == ' ' || text[end - 1] == '\n'))
        end--;
    return mem_strndup(b->arena, text + start, end - (size_t)start);
}

static void check_replace(Binder *b, const ViewDef *old, const SelectResult *r, const char **names)
{
    if (r->ncols < old->ncols)
        plan__error_at(b, ERRCODE_INVALID_TABLE_DEFINITION, -1, "cannot drop columns from view");
    for (int i = 0; i < old->ncols; i++) {
        if (strcmp(old->colnames[i], names[i]) != 0)
            plan__error_hint(b, ERRCODE_INVALID_TABLE_DEFINITION, -1,
                             "Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.",
                             "cannot change name of view column \"%s\" to \"%s\"", old->colnames[i], names[i]);
        if (old->types[i].oid != r->cols[i].type.oid)
            plan__error_at(b, ERRCODE_INVALID_TABLE_DEFINITION, -1,
                           "cannot change data type of view column \"%s\" from %s to %s", names[i],
                           plan__type_name(b, old->types[i]), plan__type_name(b, r->cols[i].type));
    }
}

/* The schema of the view: a query that names a temporary relation makes
 * it temporary, with PostgreSQL's NOTICE (DefineView), unless TEMP said so
 * already; a schema given must then be the session's temporary one. */
static const char *view_schema(Binder *b, const ViewStmt *vs, bool uses_temp)
{
    char persistence = vs->view->relpersistence;
    if (persistence != 't' && uses_temp) {
        err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "view \"%s\" will be a temporary view",
                   vs->view->relname);
        persistence = 't';
    }
    return plan__creation_schema_p(b, vs->view->schemaname, persistence, -1);
}

Plan *plan__create_view(Binder *b, const RawStmt *raw, const ViewStmt *vs)
{
    char *sql = query_text(b, raw, vs);
    /* The query first, as PostgreSQL: its errors come before the view's. */
    uint64_t temp_lookups = store_temp_lookups();
    Binder child;
    plan__child_binder(&child, b, false);
    SelectResult r = plan__plan_select(&child, (const SelectStmt *)vs->query);
    plan__child_done(b, &child);
    const char *schema = view_schema(b, vs, store_temp_lookups() != temp_lookups);
    const char *name = vs->view->relname;
    if (store_table_lookup(schema, name))
        err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
    ViewDef *old = view_find(b->arena, schema, name);
    if (old && !vs->replace)
        err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
    int nal = list_len(vs->aliases);
    if (nal > r.ncols)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, -1, "CREATE VIEW specifies more column names than columns");
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, r.ncols + 1);
    for (int i = 0; i < r.ncols; i++) {
        names[i] = i < nal ? list_nth(vs->aliases, i) : r.cols[i].name;
        for (int k = 0; k < i; k++)
            if (strcmp(names[k], names[i]) == 0)
                err_raise(ERRCODE_DUPLICATE_COLUMN, "column \"%s\" specified more than once", names[i]);
        if (r.cols[i].type.oid == TYPE_UNKNOWN)
            r.cols[i].type = SQLTYPE(TYPE_TEXT);
    }
    if (old)
        check_replace(b, old, &r, names);
    if (b->nparams > 0)
        err_raise(ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $1");
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "CREATE VIEW");
    UtilityStmt *u = p->utility = MEM_NEW(b->arena, UtilityStmt);
    u->kind = UTIL_VIEW;
    u->ddl3_op = old ? 'r' : 'c';
    u->schema_name = schema;
    u->table_name = name;
    u->view_sql = sql;
    u->ncolumns = r.ncols;
    u->columns = MEM_NEW_ARRAY(b->arena, ColumnSpec, r.ncols + 1);
    for (int i = 0; i < r.ncols; i++) {
        u->columns[i].name = names[i];
        u->columns[i].type = r.cols[i].type;
    }
    return p;
}

Plan *plan__drop_view(Binder *b, const DropStmt *s)
{
    int n = list_len(s->objects);
    ViewDef **found = MEM_NEW_ARRAY(b->arena, ViewDef *, n + 1);
    for (int i = 0; i < n; i++) {   /* check them all before dropping any */
        const RangeVar *rv = list_nth(s->objects, i);
        found[i] = lookup(b, rv);
        if (!found[i] && !s->missing_ok)
            err_raise(ERRCODE_UNDEFINED_TABLE, "view \"%s\" does not exist", rv->relname);
    }
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "DROP VIEW");
    UtilityStmt *u = p->utility = MEM_NEW(b->arena, UtilityStmt);
    u->kind = UTIL_VIEW;
    u->ddl3_op = 'd';
    u->missing_ok = s->missing_ok;
    for (int i = 0; i < n; i++) {   /* a missing one (IF EXISTS): schema NULL, for the NOTICE */
        const RangeVar *rv = list_nth(s->objects, i);
        u->view_drops = list_append(b->arena, u->view_drops, found[i] ? (void *)found[i]->schema : NULL);
        u->view_drops = list_append(b->arena, u->view_drops, found[i] ? (void *)found[i]->name : (void *)rv->relname);
    }
    return p;
}

bool plan__is_view(Binder *b, const RangeVar *rv)
{
    return lookup(b, rv) != NULL;
}
