/*
 * plan_view.c — views: CREATE [OR REPLACE] VIEW, DROP VIEW, and their
 * expansion in FROM.
 *
 * storage/ has no catalog entry for views yet, so views live in a
 * planner-side registry: one process-wide list (mutex-protected) of
 * (schema, name, column names, column types, SQL text of the query). A
 * reference to a view in FROM parses its text again and plans it as a
 * subquery with the view's column names (PostgreSQL rewrites views the same
 * way). Limits until storage keeps views: the registry is neither
 * persistent (a restart forgets views) nor transactional (CREATE/DROP VIEW
 * take effect when the statement is planned, and a ROLLBACK does not undo
 * them), and it is shared by all databases of the server.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "parser/parser.h"
#include "storage/storage.h"

typedef struct ViewDef {
    char *schema;
    char *name;
    char *sql;
    int ncols;
    char **colnames;
    SqlType *types;
    struct ViewDef *next;
} ViewDef;

static pthread_mutex_t views_lock = PTHREAD_MUTEX_INITIALIZER;
static ViewDef *views;

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    return d;
}

static void view_free(ViewDef *v)
{
    for (int i = 0; i < v->ncols; i++)
        free(v->colnames[i]);
    free(v->colnames);
    free(v->types);
    free(v->schema);
    free(v->name);
    free(v->sql);
    free(v);
}

/* Copy of the view (in arena) or NULL; caller holds no lock afterwards. */
static ViewDef *view_find(MemArena *a, const char *schema, const char *name)
{
    ViewDef *copy = NULL;
    pthread_mutex_lock(&views_lock);
    for (ViewDef *v = views; v; v = v->next) {
        if (strcmp(v->schema, schema) != 0 || strcmp(v->name, name) != 0)
            continue;
        copy = MEM_NEW(a, ViewDef);
        copy->schema = mem_strdup(a, v->schema);
        copy->name = mem_strdup(a, v->name);
        copy->sql = mem_strdup(a, v->sql);
        copy->ncols = v->ncols;
        copy->colnames = MEM_NEW_ARRAY(a, char *, v->ncols + 1);
        copy->types = MEM_NEW_ARRAY(a, SqlType, v->ncols + 1);
        for (int i = 0; i < v->ncols; i++) {
            copy->colnames[i] = mem_strdup(a, v->colnames[i]);
            copy->types[i] = v->types[i];
        }
        break;
    }
    pthread_mutex_unlock(&views_lock);
    return copy;
}

static bool view_remove(const char *schema, const char *name)
{
    bool found = false;
    pthread_mutex_lock(&views_lock);
    for (ViewDef **p = &views; *p; p = &(*p)->next) {
        if (strcmp((*p)->schema, schema) == 0 && strcmp((*p)->name, name) == 0) {
            ViewDef *v = *p;
            *p = v->next;
            view_free(v);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&views_lock);
    return found;
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

static void store_view(const char *schema, const char *name, const char *sql, const SelectResult *r,
                       const char **names)
{
    ViewDef *v = calloc(1, sizeof *v);
    if (!v)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    v->schema = xstrdup(schema);
    v->name = xstrdup(name);
    v->sql = xstrdup(sql);
    v->ncols = r->ncols;
    v->colnames = calloc((size_t)r->ncols + 1, sizeof(char *));
    v->types = calloc((size_t)r->ncols + 1, sizeof(SqlType));
    if (!v->colnames || !v->types)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    for (int i = 0; i < r->ncols; i++) {
        v->colnames[i] = xstrdup(names[i]);
        v->types[i] = r->cols[i].type;
    }
    view_remove(schema, name);
    pthread_mutex_lock(&views_lock);
    v->next = views;
    views = v;
    pthread_mutex_unlock(&views_lock);
}

Plan *plan__create_view(Binder *b, const RawStmt *raw, const ViewStmt *vs)
{
    const char *schema = plan__creation_schema(b, vs->view->schemaname);
    const char *name = vs->view->relname;
    if (store_table_lookup(schema, name))
        err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
    ViewDef *old = view_find(b->arena, schema, name);
    if (old && !vs->replace)
        err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
    char *sql = query_text(b, raw, vs);
    Binder child;
    plan__child_binder(&child, b, false);
    SelectResult r = plan__plan_select(&child, (const SelectStmt *)vs->query);
    plan__child_done(b, &child);
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
    store_view(schema, name, sql, &r, names);
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "CREATE VIEW");
    p->utility = MEM_NEW(b->arena, UtilityStmt);
    p->utility->kind = UTIL_NOOP;
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
    for (int i = 0; i < n; i++)
        if (found[i])
            view_remove(found[i]->schema, found[i]->name);
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "DROP VIEW");
    p->utility = MEM_NEW(b->arena, UtilityStmt);
    p->utility->kind = UTIL_NOOP;
    return p;
}

bool plan__is_view(Binder *b, const RangeVar *rv)
{
    return lookup(b, rv) != NULL;
}
