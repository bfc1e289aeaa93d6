/*
 * catalog_tables.c — pg_catalog and information_schema relations in FROM:
 * a name that resolves to one of the executor's virtual catalog tables
 * (executor/catalog.h) becomes a derived range entry whose subtree is one
 * PLAN_CATALOG_SCAN producing all of the table's columns. Everything above
 * it (WHERE, joins, ORDER BY, regex operators) is planned as for any other
 * FROM item.
 *
 * Also the reg* casts psql writes ('16386'::pg_catalog.regclass,
 * conrelid::regclass): a literal name is resolved to the OID at plan time
 * (regclassin's lookup, with its errors and the literal's position) and
 * becomes a regclass / regtype / regproc / regprocedure / regnamespace /
 * regrole constant, which prints as the name (executor/catalog_reg.c); a
 * column is cast with the ordinary casts (funcs_oidtypes.c). regclass also
 * names primary-key indexes; regprocedure's errors carry no position.
 *
 * Resolution order, as PostgreSQL's with pg_catalog implicitly first in
 * search_path: `pg_catalog.x` and `information_schema.x` look only at the
 * catalog tables; an unqualified `x` is a pg_catalog table when one has
 * that name, before any user table of search_path.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/catalog_int.h"

#include <stdlib.h>
#include <string.h>
#include "executor/catalog.h"
#include "executor/funcs.h"
#include "storage/storage.h"

RangeEntry *plan__catalog_rte(Binder *b, const RangeVar *rv)
{
    const char *schema = rv->schemaname;
    if (schema && strcmp(schema, "pg_catalog") != 0 && strcmp(schema, "information_schema") != 0)
        return NULL;
    const ExecCatTable *t = exec_catalog_table(schema, rv->relname);
    if (!t)
        return NULL;
    PlanNode *n = plan__new_node(b->arena, PLAN_CATALOG_SCAN, t->ncols);
    n->catalog_id = t->id;
    n->col_names = MEM_NEW_ARRAY(b->arena, const char *, t->ncols);
    for (int i = 0; i < t->ncols; i++) {
        n->col_types[i] = t->coltypes[i];
        n->col_names[i] = t->colnames[i];
    }
    n->est_rows = 100;
    n->alias = t->name;
    const char *refname = rv->alias ? rv->alias : rv->relname;
    RangeEntry *r = plan__add_derived_rte(b, refname, true, n, n->col_names, rv->colaliases,
                                          rv->node.location);
    r->schema = t->schema;
    r->relname = t->name;
    r->has_alias = rv->alias != NULL;
    return r;
}

Expr *plan__catalog_tableoid(Binder *b, const RangeEntry *r, int location)
{
    Value v = {.is_null = false};
    if (r->table)
        v.u.i32 = (int32_t)store_table_oid(r->table);
    else if (r->derived && r->derived->kind == PLAN_CATALOG_SCAN)
        v.u.i32 = (int32_t)exec_catalog_table_at(r->derived->catalog_id)->oid;
    else
        return NULL;
    return plan__make_const(b->arena, SQLTYPE(TYPE_OID), v, location);
}

/* ---------- ::regclass, ::regtype, ::regnamespace, ::regrole, ::regproc ---------- */

/* One identifier of a qualified name as regclassin reads it: quoted parts
 * keep their case, unquoted ones are folded to lower case. Advances *p. */
static char *name_part(Binder *b, const char **p)
{
    const char *s = *p;
    size_t len = strlen(s);
    char *out = mem_alloc(b->arena, len + 1);
    size_t n = 0;
    if (*s == '"') {
        for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
            if (*s == '"')
                s++;
            out[n++] = *s;
        }
        if (*s == '"')
            s++;
    } else {
        for (; *s && *s != '.'; s++)
            out[n++] = (*s >= 'A' && *s <= 'Z') ? (char)(*s - 'A' + 'a') : *s;
    }
    out[n] = 0;
    if (*s == '.')
        s++;
    *p = s;
    return out;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* A table or view by (optionally qualified) name, first match on
 * search_path; 42P01 as plan__lookup_table when none. */
static StoreTable *relation_lookup(Binder *b, const char *schema, const char *name, int loc)
{
    const char *schemas[16];
    int n = schema ? 1 : plan__search_schemas(b, schemas, 16);
    if (schema)
        schemas[0] = schema;
    for (int i = 0; i < n; i++) {
        StoreTable *t = store_schema_exists(schemas[i]) ? store_relation_lookup(schemas[i], name) : NULL;
        if (t)
            return t;
    }
    return plan__lookup_table(b, schema, name, loc, false);   /* raises */
}

/* The OID a reg* literal names (PostgreSQL's regclassin & co at plan time). */
static uint32_t reg_lookup(Binder *b, const char *kind, const char *text, int loc)
{
    if (all_digits(text))
        return (uint32_t)strtoul(text, NULL, 10);
    if (strcmp(text, "-") == 0)
        return 0;
    if (strcmp(kind, "regtype") == 0) {
        const char *tn = strncmp(text, "pg_catalog.", 11) == 0 ? text + 11 : text;
        uint32_t oid = type_lookup_name(tn);
        if (!oid)
            plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, loc, "type \"%s\" does not exist", text);
        return oid;
    }
    const char *p = text;
    char *first = name_part(b, &p);
    char *second = *p ? name_part(b, &p) : NULL;
    const char *schema = second ? first : NULL, *name = second ? second : first;
    if (strcmp(kind, "regclass") == 0) {
        const ExecCatTable *c = (!schema || strcmp(schema, "pg_catalog") == 0 ||
                                 strcmp(schema, "information_schema") == 0)
                                    ? exec_catalog_table(schema, name) : NULL;
        if (c)
            return c->oid;
        uint32_t index = exec_catalog_index_lookup(schema, name);   /* primary-key indexes */
        if (index && !(schema ? store_relation_lookup(schema, name) : NULL))
            return index;
        return store_table_oid(relation_lookup(b, schema, name, loc));
    }
    if (strcmp(kind, "regnamespace") == 0) {
        if (!store_schema_exists(name) && strcmp(name, "information_schema") != 0)
            plan__error_at(b, ERRCODE_INVALID_SCHEMA_NAME, loc, "schema \"%s\" does not exist", name);
        return exec_catalog_schema_oid(name);
    }
    if (strcmp(kind, "regrole") == 0) {
        StoreRoleAttrs a;
        if (!store_role_get_attrs(name, &a, NULL, 0) && strcmp(name, "pg_database_owner") != 0)
            plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, loc, "role \"%s\" does not exist", name);
        return exec_catalog_role_oid(name);
    }
    if (strcmp(kind, "regprocedure") == 0)   /* its errors carry no position */
        return exec_catalog_regprocedure_in(text);
    for (int i = 0, n = exec_func_count(); i < n; i++)   /* regproc, regprocedure */
        if (strcmp(exec_func_at(i)->name, name) == 0)
            return exec_func_at(i)->oid;
    if (strcmp(name, "array_in") == 0)    /* pg_type.typinput of arrays (JDBC's is_array test) */
        return 750;
    if (strcmp(name, "array_out") == 0)
        return 751;
    plan__error_at(b, ERRCODE_UNDEFINED_FUNCTION, loc, "function \"%s\" does not exist", name);
}

Expr *plan__catalog_regcast(Binder *b, const TypeCast *tc)
{
    static const struct { const char *name; uint32_t type; } kinds[] = {
        {"regclass", TYPE_REGCLASS}, {"regtype", TYPE_REGTYPE}, {"regproc", TYPE_REGPROC},
        {"regprocedure", TYPE_REGPROCEDURE}, {"regnamespace", TYPE_REGNAMESPACE}, {"regrole", TYPE_REGROLE}};
    const TypeName *tn = tc->type_name;
    const char *kind = NULL;
    uint32_t type = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !kind; i++)
        if (strcmp(tn->name, kinds[i].name) == 0 && tn->array_bounds == 0) {
            kind = kinds[i].name;
            type = kinds[i].type;
        }
    if (!kind)
        return NULL;
    Expr *arg = plan__bind_expr(b, tc->arg);
    if (arg->kind == EXPR_CONST && arg->type.oid == TYPE_UNKNOWN) {
        Value v = {.is_null = arg->value.is_null};
        if (!v.is_null) {
            const char *text = mem_strndup(b->arena, arg->value.u.str.ptr, arg->value.u.str.len);
            v.u.i32 = (int32_t)reg_lookup(b, kind, text, arg->location);
        }
        return plan__make_const(b->arena, SQLTYPE(type), v, tc->node.location);
    }
    Expr *r = plan__coerce(b, arg, SQLTYPE(type), CAST_EXPLICIT);
    if (!r)
        plan__error_at(b, ERRCODE_CANNOT_COERCE, tc->node.location, "cannot cast type %s to %s",
                       plan__type_name(b, SQLTYPE(arg->type.oid)), kind);
    return r;
}
