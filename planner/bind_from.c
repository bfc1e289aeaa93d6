/*
 * bind_from.c — the range table: FROM items resolved against the catalog
 * (schema-qualified or through search_path), and column references
 * resolved against the FROM items in scope (PostgreSQL's parse_relation.c).
 *
 * Scope: Binder.visible marks the range entries an expression may see.
 * The whole FROM clause is visible to WHERE and the select list; a JOIN's
 * ON condition sees only the two sides of that join.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/catalog_int.h"

#include <string.h>
#include "common/guc.h"
#include "storage/storage.h"

#define MAX_RTES 64

/* The session user for "$user" in search_path, or NULL. */
static const char *session_user(Binder *b)
{
    if (!b->ctx->guc)
        return NULL;
    const char *volatile user = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        user = guc_show(b->ctx->guc, "session_authorization");
        err_pop(&jmp);
    }
    return user;
}

static int add_temp_schema(const char **out, int n, int max);
static int search_schemas(Binder *b, const char **out, int max);

/*
 * The schemas of search_path that exist, in order ("$user" becomes the
 * session user's name when such a schema exists). Returns the count.
 */
int plan__search_schemas(Binder *b, const char **out, int max)
{
    return add_temp_schema(out, search_schemas(b, out, max), max);
}

/* search_path's own schemas (without the implicit temporary one). */
static int search_schemas(Binder *b, const char **out, int max)
{
    const char *path = b->ctx->guc ? guc_search_path(b->ctx->guc) : NULL;
    if (!path)
        path = "\"$user\", public";
    int n = 0;
    const char *p = path;
    while (*p && n < max) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        char name[256];
        size_t len = 0;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;
                if (len < sizeof name - 1)
                    name[len++] = *p;
            }
            if (*p == '"')
                p++;
        } else {
            for (; *p && *p != ',' && *p != ' '; p++)
                if (len < sizeof name - 1)
                    name[len++] = *p;
        }
        name[len] = 0;
        const char *schema = name;
        if (strcmp(name, "$user") == 0) {
            schema = session_user(b);
            if (!schema)
                continue;
        }
        if (store_schema_is_temp(schema)) {   /* pg_temp: the session's own only */
            const char *own = store_session_temp_schema(false);
            if (!own || (strcmp(schema, "pg_temp") != 0 && strcmp(schema, own) != 0))
                continue;
            schema = own;
        }
        if (store_schema_exists(schema))
            out[n++] = mem_strdup(b->arena, schema);
    }
    return n;
}

/* PostgreSQL searches the session's temporary schema first for relations
 * when search_path does not name it (pg_temp) itself. */
static int add_temp_schema(const char **out, int n, int max)
{
    const char *own = store_session_temp_schema(false);
    if (!own || max <= 0)
        return n;
    for (int i = 0; i < n; i++)
        if (strcmp(out[i], own) == 0)
            return n;
    if (n == max)
        n--;
    memmove(out + 1, out, sizeof *out * (size_t)n);
    out[0] = own;
    return n + 1;
}

StoreTable *plan__lookup_table(Binder *b, const char *schema, const char *name, int location,
                               bool missing_ok)
{
    if (schema) {
        StoreTable *t = store_schema_exists(schema) ? store_table_lookup(schema, name) : NULL;
        if (!t && !missing_ok)
            plan__error_at(b, ERRCODE_UNDEFINED_TABLE, location, "relation \"%s.%s\" does not exist",
                           schema, name);
        const char *own = store_session_temp_schema(false);
        if (t && store_schema_is_temp(store_table_schema(t)) &&
            (!own || strcmp(own, store_table_schema(t)) != 0))
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cannot access temporary tables of other sessions");
        return t;
    }
    const char *schemas[16];
    int n = plan__search_schemas(b, schemas, 16);
    for (int i = 0; i < n; i++) {
        StoreTable *t = store_table_lookup(schemas[i], name);
        if (t)
            return t;
    }
    if (!missing_ok)
        plan__error_at(b, ERRCODE_UNDEFINED_TABLE, location, "relation \"%s\" does not exist", name);
    return NULL;
}

const char *plan__creation_schema_p(Binder *b, const char *schema, char persistence, int location)
{
    if (persistence != 't' && !(schema && store_schema_is_temp(schema)))
        return plan__creation_schema(b, schema);
    /* CREATE TEMP: the session's temporary schema (taken now when it has
     * none yet); a schema given must be it (RangeVarAdjustRelationPersistence). */
    const char *own = store_session_temp_schema(false);
    if (schema && !store_schema_is_temp(schema))
        plan__error_at(b, ERRCODE_INVALID_TABLE_DEFINITION, location,
                       "cannot create temporary relation in non-temporary schema");
    if (schema && strcmp(schema, "pg_temp") != 0 && (!own || strcmp(schema, own) != 0) &&
        !store_schema_exists(schema))
        plan__error_at(b, ERRCODE_INVALID_SCHEMA_NAME, location, "schema \"%s\" does not exist", schema);
    if (schema && strcmp(schema, "pg_temp") != 0 && (!own || strcmp(schema, own) != 0))
        plan__error_at(b, ERRCODE_INVALID_TABLE_DEFINITION, location,
                       "cannot create relations in temporary schemas of other sessions");
    return mem_strdup(b->arena, store_session_temp_schema(true));
}

const char *plan__creation_schema(Binder *b, const char *schema)
{
    if (schema && store_schema_is_temp(schema))   /* CREATE TABLE pg_temp.t: a temporary table */
        return plan__creation_schema_p(b, schema, 't', -1);
    if (schema) {
        if (!store_schema_exists(schema))
            err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
        return schema;
    }
    const char *schemas[16];   /* the first schema search_path names (never the implicit pg_temp) */
    if (search_schemas(b, schemas, 16) == 0)
        err_raise(ERRCODE_INVALID_SCHEMA_NAME, "no schema has been selected to create in");
    return schemas[0];
}

RangeEntry *plan__add_rte(Binder *b, const RangeVar *rv)
{
    const char *refname = rv->alias ? rv->alias : rv->relname;
    for (int i = 0; i < b->nrtes; i++)
        if (strcmp(b->rtes[i]->refname, refname) == 0)
            err_raise(ERRCODE_DUPLICATE_ALIAS, "table name \"%s\" specified more than once", refname);
    if (b->nrtes >= MAX_RTES)
        plan__error_at(b, ERRCODE_PROGRAM_LIMIT_EXCEEDED, rv->node.location,
                       "too many FROM-clause entries (at most %d)", MAX_RTES);
    RangeEntry *cat = plan__catalog_rte(b, rv);   /* pg_catalog / information_schema (issue 6) */
    if (cat)
        return cat;
    StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, false);
    RangeEntry *r = MEM_NEW(b->arena, RangeEntry);
    r->refname = refname;
    r->has_alias = rv->alias != NULL;
    r->schema = store_table_schema(t);
    r->relname = store_table_name(t);
    r->table = t;
    r->location = rv->node.location;
    r->ncols = store_table_ncols(t);
    r->colnames = MEM_NEW_ARRAY(b->arena, const char *, r->ncols);
    r->coltypes = MEM_NEW_ARRAY(b->arena, SqlType, r->ncols);
    r->used = MEM_NEW_ARRAY(b->arena, bool, r->ncols);
    if (list_len(rv->colaliases) > r->ncols)
        plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, rv->node.location,
                       "table \"%s\" has %d columns available but %d columns specified", refname,
                       r->ncols, list_len(rv->colaliases));
    for (int i = 0; i < r->ncols; i++) {
        const StoreColumnDef *cd = store_table_column(t, i);
        r->colnames[i] = i < list_len(rv->colaliases) ? list_nth(rv->colaliases, i) : cd->name;
        r->coltypes[i] = cd->type;
    }
    r->var_base = b->nvars;
    b->nvars += r->ncols;
    if (!b->rtes)
        b->rtes = MEM_NEW_ARRAY(b->arena, RangeEntry *, MAX_RTES);
    if (!b->visible)
        b->visible = MEM_NEW_ARRAY(b->arena, bool, MAX_RTES);
    b->rtes[b->nrtes] = r;
    b->visible[b->nrtes] = true;
    b->nrtes++;
    return r;
}

static int column_index(const RangeEntry *r, const char *name)
{
    for (int i = 0; i < r->ncols; i++)
        if (strcmp(r->colnames[i], name) == 0)
            return i;
    return -1;
}

static Expr *make_var(Binder *b, RangeEntry *r, int col, int location)
{
    r->used[col] = true;
    Expr *e = plan__make_expr(b->arena, EXPR_COLUMN, r->coltypes[col], location, 0);
    e->index = r->var_base + col;
    e->name = r->colnames[col];
    return e;
}

/* The range entry a qualifier names (t or s.t), visible or not. */
static int find_rte(const Binder *b, const char *schema, const char *name, bool *visible)
{
    for (int i = 0; i < b->nrtes; i++) {
        const RangeEntry *r = b->rtes[i];
        if (strcmp(r->refname, name) != 0)
            continue;
        if (schema && (r->has_alias || strcmp(r->schema, schema) != 0))
            continue;
        *visible = b->visible[i];
        return i;
    }
    return -1;
}

static RangeEntry *qualified_rte(Binder *b, const char *schema, const char *name, int location)
{
    bool visible = false;
    int i = find_rte(b, schema, name, &visible);
    if (i >= 0 && visible)
        return b->rtes[i];
    if (i >= 0)
        plan__error_hint(b, ERRCODE_UNDEFINED_TABLE, location,
                         mem_printf(b->arena, "There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", name),
                         "invalid reference to FROM-clause entry for table \"%s\"", name);
    for (int k = 0; k < b->nrtes; k++)
        if (b->visible[k] && b->rtes[k]->has_alias && strcmp(b->rtes[k]->relname, name) == 0)
            plan__error_hint(b, ERRCODE_UNDEFINED_TABLE, location,
                             mem_printf(b->arena, "Perhaps you meant to reference the table alias \"%s\".", b->rtes[k]->refname),
                             "invalid reference to FROM-clause entry for table \"%s\"", name);
    plan__error_at(b, ERRCODE_UNDEFINED_TABLE, location, "missing FROM-clause entry for table \"%s\"",
                   name);
}

/* Unqualified name in the FROM tree nodes in scope: the FromCol, NULL when
 * none; *count gets the number of matches (> 1: ambiguous). */
static const FromCol *scope_lookup(const Binder *b, const char *name, int *count)
{
    const FromCol *found = NULL;
    *count = 0;
    for (int s = 0; s < b->nscope; s++) {
        const FromNode *f = b->scope[s];
        for (int i = 0; i < f->ncols; i++) {
            if (strcmp(f->cols[i].name, name) != 0)
                continue;
            if (!found)
                found = &f->cols[i];
            (*count)++;
        }
    }
    return found;
}

static Expr *from_col_expr(Binder *b, const FromCol *c, int location)
{
    if (c->merged) {
        Expr *e = plan__copy_expr(b->arena, c->merged);
        e->location = location;
        return e;
    }
    return make_var(b, b->rtes[c->rte], c->col, location);
}

/* Whether the reference resolves in b itself (no errors raised). */
static bool resolves_here(const Binder *b, const ColumnRef *cr)
{
    int n = list_len(cr->fields);
    if (n == 1) {
        const char *name = list_nth(cr->fields, 0);
        int count = 0;
        if (b->nscope > 0) {
            scope_lookup(b, name, &count);
            return count > 0;
        }
        for (int i = 0; i < b->nrtes; i++)
            if (b->visible[i] && column_index(b->rtes[i], name) >= 0)
                return true;
        return false;
    }
    bool visible = false;
    const char *schema = n == 3 ? list_nth(cr->fields, 0) : NULL;
    int i = find_rte(b, schema, list_nth(cr->fields, n - 2), &visible);
    return i >= 0 && visible;
}

/*
 * A reference to an enclosing query's column from a subquery: bound in the
 * ancestor that has it, then passed down one level at a time as a
 * correlation slot (Binder.outer_args) read by EXPR_OUTER_REF.
 */
static Expr *outer_ref(Binder *b, const ColumnRef *cr)
{
    if (!b->parent || !b->allow_outer || cr->star || list_len(cr->fields) > 3)
        return NULL;
    Binder *p = b->parent;
    Expr *pe = NULL;
    if (!b->outer_skip_parent && resolves_here(p, cr))
        pe = plan__bind_column_ref(p, cr);
    else
        pe = outer_ref(p, cr);
    if (!pe && b->outer_skip_parent && list_len(cr->fields) > 1 && resolves_here(p, cr)) {
        /* a non-LATERAL FROM item naming a sibling FROM item */
        const char *rel = list_nth(cr->fields, list_len(cr->fields) - 2);
        plan__error_hint(b, ERRCODE_UNDEFINED_TABLE, cr->node.location,
                         mem_printf(b->arena, "There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", rel),
                         "invalid reference to FROM-clause entry for table \"%s\"", rel);
    }
    if (!pe)
        return NULL;
    int slot = -1;
    for (int i = 0; i < b->nouter && slot < 0; i++)
        if (plan__expr_equal(b->outer_args[i], pe))
            slot = i;
    if (slot < 0) {
        b->outer_args = mem_realloc(b->arena, b->outer_args, sizeof(Expr *) * (size_t)b->nouter,
                                    sizeof(Expr *) * (size_t)(b->nouter + 1));
        slot = b->nouter++;
        b->outer_args[slot] = pe;
    }
    Expr *e = plan__make_expr(b->arena, EXPR_OUTER_REF, pe->type, cr->node.location, 0);
    e->index = slot;
    e->name = pe->name;
    return e;
}

static Expr *unqualified_column(Binder *b, const char *name, int location)
{
    if (b->nscope > 0) {
        int count = 0;
        const FromCol *c = scope_lookup(b, name, &count);
        if (count > 1)
            plan__error_at(b, ERRCODE_AMBIGUOUS_COLUMN, location,
                           "column reference \"%s\" is ambiguous", name);
        if (c)
            return from_col_expr(b, c, location);
    } else {
        RangeEntry *found = NULL;
        int col = -1;
        for (int i = 0; i < b->nrtes; i++) {
            if (!b->visible[i])
                continue;
            int c = column_index(b->rtes[i], name);
            if (c < 0)
                continue;
            if (found)
                plan__error_at(b, ERRCODE_AMBIGUOUS_COLUMN, location,
                               "column reference \"%s\" is ambiguous", name);
            found = b->rtes[i];
            col = c;
        }
        if (found)
            return make_var(b, found, col, location);
    }
    bool visible = false;
    if (find_rte(b, NULL, name, &visible) >= 0 && visible)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, location,
                       "whole-row reference to table \"%s\" is not supported yet", name);
    plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, location, "column \"%s\" does not exist", name);
}

Expr *plan__bind_column_ref(Binder *b, const ColumnRef *cr)
{
    int n = list_len(cr->fields);
    int loc = cr->node.location;
    if (cr->star)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, loc, "row expansion via \"*\" is not supported here");
    if (!resolves_here(b, cr)) {
        Expr *o = outer_ref(b, cr);
        if (o)
            return o;
    }
    if (n == 1)
        return unqualified_column(b, list_nth(cr->fields, 0), loc);
    if (n > 3)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc,
                       "cross-database references are not implemented: %s.%s.%s",
                       (const char *)list_nth(cr->fields, 0), (const char *)list_nth(cr->fields, 1),
                       (const char *)list_nth(cr->fields, 2));
    const char *schema = n == 3 ? list_nth(cr->fields, 0) : NULL;
    const char *rel = list_nth(cr->fields, n - 2);
    const char *col = list_nth(cr->fields, n - 1);
    RangeEntry *r = qualified_rte(b, schema, rel, loc);
    int c = column_index(r, col);
    Expr *sys = c < 0 && strcmp(col, "tableoid") == 0 ? plan__catalog_tableoid(b, r, loc) : NULL;
    if (sys)   /* the system column tableoid (psql's \dL and \dd read it) */
        return sys;
    if (c < 0)
        plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, loc, "column %s.%s does not exist", rel, col);
    return make_var(b, r, c, loc);
}

List *plan__expand_star(Binder *b, const ColumnRef *cr)
{
    int n = list_len(cr->fields);
    int loc = cr->node.location;
    List *out = NULL;
    if (n == 0 && b->nscope > 0) {
        for (int s = 0; s < b->nscope; s++)
            for (int i = 0; i < b->scope[s]->ncols; i++)
                out = list_append(b->arena, out, from_col_expr(b, &b->scope[s]->cols[i], loc));
        return out;
    }
    if (n == 0) {
        bool any = false;
        for (int i = 0; i < b->nrtes; i++) {
            if (!b->visible[i])
                continue;
            any = true;
            for (int c = 0; c < b->rtes[i]->ncols; c++)
                out = list_append(b->arena, out, make_var(b, b->rtes[i], c, loc));
        }
        if (!any)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, loc, "SELECT * with no tables specified is not valid");
        return out;
    }
    if (n > 2)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, "cross-database references are not implemented");
    RangeEntry *r = qualified_rte(b, n == 2 ? list_nth(cr->fields, 0) : NULL,
                                  list_nth(cr->fields, n - 1), loc);
    for (int c = 0; c < r->ncols; c++)
        out = list_append(b->arena, out, make_var(b, r, c, loc));
    return out;
}
