/*
 * catalog_reg.c — the names behind regclass, regtype, regproc and
 * regnamespace values: the typio hooks (common/typio.h) that print a reg*
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

static bool reg_out(uint32_t typoid, uint32_t oid, StrBuf *out)
{
    switch (typoid) {
    case TYPE_REGCLASS: return regclass_out(oid, out);
    case TYPE_REGNAMESPACE: return regnamespace_out(oid, out);
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
    if (schema && !store_schema_exists(schema))
        err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
    err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", text);
}

static uint32_t reg_in(uint32_t typoid, const char *s, size_t len)
{
    char text[256], first[128], second[128];
    snprintf(text, sizeof text, "%.*s", (int)(len < 255 ? len : 255), s);
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
