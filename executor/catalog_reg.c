/*
 * catalog_reg.c — the names behind regclass, regtype, regproc,
 * regprocedure, regnamespace and regrole values: the typio hooks (common/typio.h) that print a reg*
 * OID as its object's name and read a name back as the OID, at run time
 * ('t'::text::regclass, a regclass column's output). Literals in SQL are
 * resolved by the planner (planner/catalog_tables.c), with positions.
 *
 * Names come from the same sources as the pg_catalog tables: the store
 * (tables, sequences, schemas), the catalog's own relations, the type
 * table and the function registry. regclassout qualifies a name with its
 * schema when the relation is not visible through search_path, as
 * PostgreSQL's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "common/typio.h"
#include "executor/catalog.h"
#include "executor/funcs.h"
#include "storage/storage.h"

/* PostgreSQL's quote_identifier for names in reg* output. */
static void append_ident(StrBuf *out, const char *s)
{
    bool plain = (*s >= 'a' && *s <= 'z') || *s == '_';
    for (const char *p = s; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain) {
        strbuf_append(out, s, strlen(s));
        return;
    }
    strbuf_append_char(out, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            strbuf_append_char(out, '"');
        strbuf_append_char(out, *p);
    }
    strbuf_append_char(out, '"');
}

static void append_rel(StrBuf *out, const char *schema, const char *name, bool visible)
{
    if (!visible) {
        append_ident(out, schema);
        strbuf_append_char(out, '.');
    }
    append_ident(out, name);
}

static bool regclass_index_out(uint32_t oid, StrBuf *out);

static bool regclass_out(uint32_t oid, StrBuf *out)
{
    StoreTable *t = store_table_lookup_oid(oid & 0x0FFFFFFFu);
    if (t && (oid & 0xF0000000u) == 0) {
        const char *schema = store_table_schema(t), *name = store_table_name(t);
        append_rel(out, schema, name,
                   exec_catalog_schema_visible(schema) &&
                       store_relation_lookup(schema, name) == t);
        return true;
    }
    if ((oid & 0xF0000000u) == EXEC_CAT_INDEX_OID(0) && regclass_index_out(oid, out))
        return true;
    StoreSeqInfo seq;
    if ((oid & 0xF0000000u) == 0 && store_seq_info(oid, &seq)) {
        append_rel(out, seq.schema, seq.name,
                   exec_catalog_schema_visible(seq.schema) && store_seq_lookup(seq.schema, seq.name) == oid);
        return true;
    }
    for (int id = 0; exec_catalog_table_at(id); id++) {
        const ExecCatTable *c = exec_catalog_table_at(id);
        if (c->oid == oid) {
            append_rel(out, c->schema, c->name, exec_catalog_schema_visible(c->schema));
            return true;
        }
    }
    return false;
}

/* A primary-key index (EXEC_CAT_INDEX_OID of its table): the index's name. */
static bool regclass_index_out(uint32_t oid, StrBuf *out)
{
    StoreTable *t = store_table_lookup_oid(oid & 0x0FFFFFFFu);
    if (!t || store_table_npkey(t) == 0)
        return false;
    MemArena *arena = mem_arena_create("regclass");
    StoreRelInfo *rels;
    int n = store_catalog_tables(arena, &rels);
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        if (rels[i].oid == store_table_oid(t) && rels[i].pkey_name) {
            append_rel(out, rels[i].schema, rels[i].pkey_name, exec_catalog_schema_visible(rels[i].schema));
            found = true;
        }
    mem_arena_destroy(arena);
    return found;
}

uint32_t exec_catalog_index_lookup(const char *schema, const char *name)
{
    const char *path[16];
    int np = schema ? 1 : exec_catalog_path_schemas(path, 16, false);
    if (schema)
        path[0] = schema;
    MemArena *arena = mem_arena_create("regclass");
    StoreRelInfo *rels;
    int n = store_catalog_tables(arena, &rels);
    uint32_t oid = 0;
    for (int p = 0; p < np && !oid; p++)
        for (int i = 0; i < n && !oid; i++)
            if (rels[i].pkey_name && strcmp(rels[i].pkey_name, name) == 0 &&
                strcmp(rels[i].schema, path[p]) == 0)
                oid = EXEC_CAT_INDEX_OID(rels[i].oid);
    mem_arena_destroy(arena);
    return oid;
}

static bool regnamespace_out(uint32_t oid, StrBuf *out)
{
    static const char *const builtin[] = {"pg_catalog", "public", "information_schema", "pg_toast"};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (exec_catalog_schema_oid(builtin[i]) == oid) {
            append_ident(out, builtin[i]);
            return true;
        }
    MemArena *arena = mem_arena_create("regnamespace");
    StoreSchemaInfo *s;
    int n = store_catalog_schemas(arena, &s);
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        if (exec_catalog_schema_oid(s[i].name) == oid) {
            append_ident(out, s[i].name);
            found = true;
        }
    mem_arena_destroy(arena);
    return found;
}

static bool regrole_out(uint32_t oid, StrBuf *out)
{
    if (oid == EXEC_CAT_ROLE_DATABASE_OWNER) {
        append_ident(out, "pg_database_owner");
        return true;
    }
    for (int i = 0; store_role_at(i); i++)
        if (exec_catalog_role_oid(store_role_at(i)) == oid) {
            append_ident(out, store_role_at(i));
            return true;
        }
    return false;
}

/* regprocedureout: name(argument types) in format_type's spelling. */
static bool regprocedure_out(uint32_t oid, StrBuf *out)
{
    for (int i = 0, n = exec_func_count(); i < n; i++) {
        const FuncDesc *f = exec_func_at(i);
        if (f->oid != oid)
            continue;
        append_ident(out, f->name);
        strbuf_append_char(out, '(');
        for (int k = 0; k < f->nargs && k < FUNC_MAX_DECLARED_ARGS; k++) {
            char buf[128];
            const char *tn = f->argtypes[k] == FUNC_ARG_ANY ? "\"any\""
                             : f->argtypes[k] == FUNC_ARG_ANYELEMENT ? "anyelement"
                             : type_format(SQLTYPE(f->argtypes[k]), buf, sizeof buf);
            if (k > 0)
                strbuf_append_char(out, ',');
            strbuf_append(out, tn, strlen(tn));
        }
        strbuf_append_char(out, ')');
        return true;
    }
    return false;
}

static bool reg_out(uint32_t typoid, uint32_t oid, StrBuf *out)
{
    switch (typoid) {
    case TYPE_REGCLASS: return regclass_out(oid, out);
    case TYPE_REGNAMESPACE: return regnamespace_out(oid, out);
    case TYPE_REGROLE: return regrole_out(oid, out);
    case TYPE_REGPROCEDURE: return regprocedure_out(oid, out);
    case TYPE_REGTYPE: {
        char buf[256];
        if (!type_info(oid))
            return false;
        const char *s = type_format(SQLTYPE(oid), buf, sizeof buf);
        strbuf_append(out, s, strlen(s));
        return true;
    }
    default:   /* regproc: the function's name */
        for (int i = 0, n = exec_func_count(); i < n; i++)
            if (exec_func_at(i)->oid == oid) {
                append_ident(out, exec_func_at(i)->name);
                return true;
            }
        return false;
    }
}

/* One identifier of a possibly qualified name: quoted keeps case, else
 * lower-cased (regclassin's stringToQualifiedNameList). Advances *p. */
static void name_part(const char **p, const char *end, char *out, size_t out_size)
{
    const char *s = *p;
    size_t n = 0;
    if (s < end && *s == '"') {
        for (s++; s < end && !(*s == '"' && (s + 1 >= end || s[1] != '"')); s++) {
            if (*s == '"')
                s++;
            if (n + 1 < out_size)
                out[n++] = *s;
        }
        if (s < end)
            s++;
    } else {
        for (; s < end && *s != '.'; s++)
            if (n + 1 < out_size)
                out[n++] = (*s >= 'A' && *s <= 'Z') ? (char)(*s - 'A' + 'a') : *s;
    }
    out[n] = 0;
    if (s < end && *s == '.')
        s++;
    *p = s;
}

static uint32_t regclass_in(const char *schema, const char *name, const char *text)
{
    if (!schema || strcmp(schema, "pg_catalog") == 0 || strcmp(schema, "information_schema") == 0) {
        const ExecCatTable *c = exec_catalog_table(schema, name);
        if (c)
            return c->oid;
    }
    const char *path[16];
    int n = schema ? 1 : exec_catalog_path_schemas(path, 16, false);
    if (schema)
        path[0] = schema;
    for (int i = 0; i < n; i++) {
        StoreTable *t = store_relation_lookup(path[i], name);
        if (t)
            return store_table_oid(t);
        uint32_t seq = store_seq_lookup(path[i], name);
        if (seq)
            return seq;
    }
    uint32_t index = exec_catalog_index_lookup(schema, name);
    if (index)
        return index;
    if (schema && !store_schema_exists(schema))
        err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
    err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", text);
}

/* Trim ASCII blanks from both ends of [s, e) into out. */
static void trimmed(const char *s, const char *e, char *out, size_t out_size)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\n'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
        e--;
    snprintf(out, out_size, "%.*s", (int)(e - s), s);
}

uint32_t exec_catalog_regprocedure_in(const char *text)
{
    const char *lp = strchr(text, '('), *end = text + strlen(text);
    if (!lp)
        err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "expected a left parenthesis");
    const char *rp = end;
    while (rp > lp + 1 && rp[-1] != ')')
        rp--;
    if (rp[-1] != ')')
        err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "expected a right parenthesis");
    char name[128], part[128], first[128], second[128];
    trimmed(text, lp, name, sizeof name);
    const char *p = name, *nend = name + strlen(name);
    name_part(&p, nend, first, sizeof first);
    bool qualified = p < nend;
    if (qualified)
        name_part(&p, nend, second, sizeof second);
    const char *fname = qualified ? second : first;
    uint32_t types[FUNC_MAX_DECLARED_ARGS];
    int nargs = 0;
    trimmed(lp + 1, rp - 1, part, sizeof part);
    for (const char *a = lp + 1; part[0] && a < rp;) {
        const char *c = a;
        while (c < rp - 1 && *c != ',')
            c++;
        char tn[128];
        trimmed(a, c, tn, sizeof tn);
        const char *bare = strncmp(tn, "pg_catalog.", 11) == 0 ? tn + 11 : tn;
        uint32_t t = type_lookup_name(bare);
        if (!t)
            err_raise(ERRCODE_UNDEFINED_OBJECT, "type \"%s\" does not exist", tn);
        if (nargs < FUNC_MAX_DECLARED_ARGS)
            types[nargs] = t;
        nargs++;
        a = c + 1;
    }
    for (int i = 0, n = exec_func_count(); i < n; i++) {
        const FuncDesc *f = exec_func_at(i);
        if (strcmp(f->name, fname) != 0 || f->nargs != nargs || nargs > FUNC_MAX_DECLARED_ARGS)
            continue;
        bool same = true;
        for (int k = 0; k < nargs; k++)
            same &= f->argtypes[k] == types[k];
        if (same)
            return f->oid;
    }
    err_raise(ERRCODE_UNDEFINED_FUNCTION, "function \"%s\" does not exist", text);
}

uint32_t exec_catalog_regrole_in(const char *name)
{
    StoreRoleAttrs a;
    if (strcmp(name, "pg_database_owner") != 0 && !store_role_get_attrs(name, &a, NULL, 0))
        err_raise(ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
    return exec_catalog_role_oid(name);
}

static uint32_t reg_in(uint32_t typoid, const char *s, size_t len)
{
    char text[256], first[128], second[128];
    snprintf(text, sizeof text, "%.*s", (int)(len < 255 ? len : 255), s);
    if (strcmp(text, "-") == 0)
        return 0;
    if (typoid == TYPE_REGPROCEDURE) {
        bool digits = text[0] != 0;
        for (const char *d = text; *d; d++)
            digits &= *d >= '0' && *d <= '9';
        return digits ? (uint32_t)strtoul(text, NULL, 10) : exec_catalog_regprocedure_in(text);
    }
    if (typoid == TYPE_REGTYPE) {
        const char *tn = strncmp(text, "pg_catalog.", 11) == 0 ? text + 11 : text;
        uint32_t oid = type_lookup_name(tn);
        if (!oid)
            err_raise(ERRCODE_UNDEFINED_OBJECT, "type \"%s\" does not exist", text);
        return oid;
    }
    const char *p = text, *end = text + strlen(text);
    name_part(&p, end, first, sizeof first);
    bool qualified = p < end;
    if (qualified)
        name_part(&p, end, second, sizeof second);
    const char *schema = qualified ? first : NULL, *name = qualified ? second : first;
    if (typoid == TYPE_REGCLASS)
        return regclass_in(schema, name, text);
    if (typoid == TYPE_REGROLE)
        return exec_catalog_regrole_in(name);
    if (typoid == TYPE_REGNAMESPACE) {
        if (!store_schema_exists(name) && strcmp(name, "information_schema") != 0 &&
            strcmp(name, "pg_catalog") != 0)
            err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", name);
        return exec_catalog_schema_oid(name);
    }
    for (int i = 0, n = exec_func_count(); i < n; i++)
        if (strcmp(exec_func_at(i)->name, name) == 0)
            return exec_func_at(i)->oid;
    err_raise(ERRCODE_UNDEFINED_FUNCTION, "function \"%s\" does not exist", text);
}

static const TypioRegHooks reg_hooks = {reg_out, reg_in};

void exec_catalog_reg_install(void)
{
    typio_set_reg_hooks(&reg_hooks);
}
