/*
 * funcs_catalog.c — the system-information and catalog functions that
 * psql's backslash commands and the drivers' start-up queries call:
 * pg_get_userbyid, format_type, pg_table_is_visible, pg_get_expr,
 * pg_get_constraintdef, pg_get_indexdef, obj_description & co,
 * pg_encoding_to_char, has_*_privilege, current_schema(s),
 * current_database, current_user / session_user, pg_backend_pid,
 * current_setting / set_config, pg_is_in_recovery, relation sizes,
 * pg_my_temp_schema / pg_is_other_temp_schema,
 * pg_size_pretty, txid_current / pg_current_xact_id (and _if_assigned).
 *
 * They answer from the same sources as the pg_catalog virtual tables
 * (executor/catalog.h, storage/catalog_list.c) and the calling thread's
 * session (exec_catalog_session), so an OID read from pg_class means the
 * same thing here. All are FUNC_STABLE (never folded at plan time: the
 * catalog may change between PREPARE and EXECUTE). The kernels loop over
 * the batch's active rows and look things up per row: these functions
 * serve catalog queries of a few hundred rows, never a data path.
 */
#define STRATA_EXECUTOR_INTERNAL
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "common/array.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/guc.h"
#include "common/strbuf.h"
#include "executor/catalog.h"
#include "executor/exec_int.h"
#include "executor/executor.h"
#include "executor/funcs.h"
#include "storage/storage.h"

#define ROW(ctx, i) ((ctx)->sel ? (ctx)->sel[i] : (i))

static Value arg_at(Vector *const *args, int k, uint32_t row)
{
    Value v;
    vec_get_value(args[k], row, &v);
    return v;
}

static void put_text(const FuncCallCtx *ctx, Vector *res, uint32_t row, const char *s)
{
    if (!s) {
        vec_set_null(res, row);
        return;
    }
    size_t n = strlen(s);
    char *p = mem_alloc(ctx->arena, n + 1);
    memcpy(p, s, n + 1);
    Value v = {.is_null = false, .u.str = {p, (uint32_t)n}};
    vec_set_value(res, row, &v);
}

static const char *cstr(const FuncCallCtx *ctx, StrRef s)
{
    return mem_strndup(ctx->arena, s.ptr, s.len);
}

static const char *sb_dup(const FuncCallCtx *ctx, const StrBuf *sb)
{
    return mem_strndup(ctx->arena, sb->data ? sb->data : "", sb->len);
}

static GucSet *session_guc(void)
{
    ExecSession *s = exec_catalog_session();
    return s ? exec_session_guc(s) : NULL;
}

/* ---------- names of roles, relations ---------- */

static const char *role_name(uint32_t oid)
{
    if (oid == EXEC_CAT_ROLE_DATABASE_OWNER)
        return "pg_database_owner";
    for (int i = 0;; i++) {
        const char *n = store_role_at(i);
        if (!n)
            return NULL;
        if (exec_catalog_role_oid(n) == oid)
            return n;
    }
}

static void k_pg_get_userbyid(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        if (v.is_null) {
            vec_set_null(res, row);
            continue;
        }
        const char *n = role_name((uint32_t)v.u.i32);
        put_text(ctx, res, row, n ? n : mem_printf(ctx->arena, "unknown (OID=%u)", (uint32_t)v.u.i32));
    }
}

static void k_format_type(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value t = arg_at(args, 0, row), m = arg_at(args, 1, row);
        if (t.is_null) {
            vec_set_null(res, row);
            continue;
        }
        if (!type_info((uint32_t)t.u.i32)) {
            put_text(ctx, res, row, "???");
            continue;
        }
        char buf[256];
        SqlType st = {(uint32_t)t.u.i32, m.is_null ? TYPMOD_NONE : m.u.i32};
        put_text(ctx, res, row, type_format(st, buf, sizeof buf));
    }
}

/* The schemas of search_path that pg_table_is_visible accepts: pg_catalog
 * (implicitly first) and each listed one ("$user" = the session user). */
static bool schema_in_path(const char *schema)
{
    if (strcmp(schema, "pg_catalog") == 0)
        return true;
    if (store_schema_is_temp(schema)) {   /* the session's own is always searched; others never */
        const char *own = store_session_temp_schema(false);
        return own && strcmp(schema, own) == 0;
    }
    GucSet *g = session_guc();
    const char *path = g ? guc_search_path(g) : NULL;
    if (!path)
        path = "\"$user\", public";
    ExecSession *s = exec_catalog_session();
    const char *user = s ? exec_session_user(s) : "postgres";
    const char *p = path;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        char name[256];
        size_t len = 0;
        bool quoted = *p == '"';
        if (quoted)
            p++;
        while (*p && (quoted ? *p != '"' : (*p != ',' && *p != ' '))) {
            if (len < sizeof name - 1)
                name[len++] = *p;
            p++;
        }
        if (quoted && *p == '"')
            p++;
        name[len] = 0;
        if (len == 0)
            continue;
        const char *n = strcmp(name, "$user") == 0 ? user : name;
        if (strcmp(n, schema) == 0)
            return true;
    }
    return false;
}

/* The store table of a pg_class OID (a table, or its primary-key index /
 * constraint OID), NULL when none. */
static StoreTable *table_of(uint32_t oid, bool *is_index)
{
    *is_index = (oid & 0xF0000000u) == EXEC_CAT_INDEX_OID(0);
    if ((oid & 0xF0000000u) != 0)
        oid &= 0x0FFFFFFFu;
    return store_table_lookup_oid(oid);
}

static int path_schemas(const char **out, int max, bool implicit, bool with_temp);

/* The relation that name finds through search_path (a temporary table
 * hides a permanent one of its name), NULL when none. */
static StoreTable *first_in_path(const char *name)
{
    const char *path[16];
    int n = path_schemas(path, 16, false, true);
    for (int i = 0; i < n; i++) {
        StoreTable *t = store_relation_lookup(path[i], name);
        if (t)
            return t;
    }
    return NULL;
}

static void k_pg_table_is_visible(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        if (v.is_null) {
            vec_set_null(res, row);
            continue;
        }
        bool idx;
        StoreTable *t = table_of((uint32_t)v.u.i32, &idx);
        StoreSeqInfo seq;
        Value out = {.is_null = false};
        if (t) {
            const char *schema = store_table_schema(t);
            out.u.b = schema_in_path(schema) && (idx || first_in_path(store_table_name(t)) == t);
        } else if (store_seq_info((uint32_t)v.u.i32, &seq)) {
            out.u.b = schema_in_path(seq.schema) &&
                      store_seq_lookup(seq.schema, seq.name) == (uint32_t)v.u.i32;
        } else {
            out.u.b = false;   /* the catalog's own relations: visible through their schema */
            for (int id = 0; exec_catalog_table_at(id); id++)
                if (exec_catalog_table_at(id)->oid == (uint32_t)v.u.i32)
                    out.u.b = schema_in_path(exec_catalog_table_at(id)->schema);
        }
        vec_set_value(res, row, &out);
    }
}

static void k_type_is_visible(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        Value out = {.is_null = v.is_null, .u.b = !v.is_null && type_info((uint32_t)v.u.i32) != NULL};
        vec_set_value(res, row, &out);
    }
}

static void k_true(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    Value out = {.is_null = false, .u.b = true};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

static void k_false(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    Value out = {.is_null = false, .u.b = false};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

static void k_null(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_null(res, ROW(ctx, i));
}

/* pg_get_expr(expr_text, relid [, pretty]): Strata keeps expressions as
 * their SQL text, which is what it returns. */
static void k_first_text(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        vec_set_value(res, row, &v);
    }
}

/* ---------- constraint and index definitions ---------- */

/* An identifier as PostgreSQL's quote_identifier prints it. */
static void append_ident(StrBuf *sb, const char *s)
{
    bool plain = (*s >= 'a' && *s <= 'z') || *s == '_';
    for (const char *p = s; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain) {
        strbuf_append_str(sb, s);
        return;
    }
    strbuf_append_char(sb, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            strbuf_append_char(sb, '"');
        strbuf_append_char(sb, *p);
    }
    strbuf_append_char(sb, '"');
}

static void append_key_list(StrBuf *sb, StoreTable *t)
{
    strbuf_append_str(sb, "(");
    const int *pk = store_table_pkey(t);
    for (int k = 0; k < store_table_npkey(t); k++) {
        if (k > 0)
            strbuf_append_str(sb, ", ");
        append_ident(sb, store_table_column(t, pk[k])->name);
    }
    strbuf_append_str(sb, ")");
}

static const char *pkey_name(const FuncCallCtx *ctx, uint32_t table_oid)
{
    StoreRelInfo *rels;
    int n = store_catalog_tables(ctx->arena, &rels);
    for (int i = 0; i < n; i++)
        if (rels[i].oid == table_oid && rels[i].pkey_name)
            return rels[i].pkey_name;
    return "?";
}

/* index: pg_get_indexdef's text, schema-qualified unless pretty and the
 * table is visible (ruleutils' PRETTYFLAG_SCHEMA); else the constraint's. */
static const char *key_def(const FuncCallCtx *ctx, uint32_t oid, bool index, bool pretty)
{
    bool idx;
    StoreTable *t = table_of(oid, &idx);
    if (!t || store_table_npkey(t) == 0 || (oid & 0xF0000000u) == 0)
        return NULL;
    StrBuf sb;
    strbuf_init(&sb);
    if (index) {
        strbuf_append_str(&sb, "CREATE UNIQUE INDEX ");
        append_ident(&sb, pkey_name(ctx, store_table_oid(t)));
        strbuf_append_str(&sb, " ON ");
        if (!pretty || !schema_in_path(store_table_schema(t))) {
            append_ident(&sb, store_table_schema(t));
            strbuf_append_str(&sb, ".");
        }
        append_ident(&sb, store_table_name(t));
        strbuf_append_str(&sb, " USING btree ");
    } else {
        strbuf_append_str(&sb, "PRIMARY KEY ");
    }
    append_key_list(&sb, t);
    const char *out = sb_dup(ctx, &sb);
    strbuf_free(&sb);
    return out;
}

static void k_key_def(const FuncCallCtx *ctx, Vector *const *args, Vector *res, bool index, int pretty_arg)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        bool pretty = pretty_arg >= 0 && arg_at(args, pretty_arg, row).u.b;
        put_text(ctx, res, row, v.is_null ? NULL : key_def(ctx, (uint32_t)v.u.i32, index, pretty));
    }
}

static void k_constraintdef(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_key_def(ctx, args, res, false, -1);
}

static void k_indexdef(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_key_def(ctx, args, res, true, -1);
}

/* pg_get_indexdef(index, column, pretty): column 0 is the whole
 * definition; column k > 0 only the k-th key column's name, quoted as
 * needed ('' past the last one or below 0), as PostgreSQL's. */
static void k_indexdef3(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_key_def(ctx, args, res, true, 2);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row), col = arg_at(args, 1, row);
        bool idx;
        StoreTable *t = v.is_null || col.u.i32 == 0 ? NULL : table_of((uint32_t)v.u.i32, &idx);
        if (!t || store_table_npkey(t) == 0 || ((uint32_t)v.u.i32 & 0xF0000000u) == 0)
            continue;
        if (col.u.i32 < 0 || col.u.i32 > store_table_npkey(t)) {
            put_text(ctx, res, row, "");
            continue;
        }
        StrBuf sb;
        strbuf_init(&sb);
        append_ident(&sb, store_table_column(t, store_table_pkey(t)[col.u.i32 - 1])->name);
        put_text(ctx, res, row, sb_dup(ctx, &sb));
        strbuf_free(&sb);
    }
}

/* ---------- functions ---------- */

static const FuncDesc *func_by_oid(uint32_t oid)
{
    for (int i = 0, n = exec_func_count(); i < n; i++)
        if (exec_func_at(i)->oid == oid)
            return exec_func_at(i);
    return NULL;
}

static void k_function_result(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        const FuncDesc *f = v.is_null ? NULL : func_by_oid((uint32_t)v.u.i32);
        char buf[128];
        put_text(ctx, res, row, f ? type_format(SQLTYPE(f->rettype), buf, sizeof buf) : NULL);
    }
}

static void k_function_arguments(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        const FuncDesc *f = v.is_null ? NULL : func_by_oid((uint32_t)v.u.i32);
        if (!f) {
            vec_set_null(res, row);
            continue;
        }
        StrBuf sb;
        strbuf_init(&sb);
        for (int k = 0; k < f->nargs && k < (int)(sizeof f->argtypes / sizeof f->argtypes[0]); k++) {
            char buf[128];
            if (k > 0)
                strbuf_append_str(&sb, ", ");
            strbuf_append_str(&sb, type_format(SQLTYPE(f->argtypes[k]), buf, sizeof buf));
        }
        put_text(ctx, res, row, sb_dup(ctx, &sb));
        strbuf_free(&sb);
    }
}

static void fill_text(const FuncCallCtx *ctx, Vector *res, const char *s);

/* ---------- descriptions ---------- */

/* obj_description(oid, catalog) / shobj_description: the built-in objects'
 * descriptions (COMMENT ON is not supported, so no others exist). */
static void k_obj_description(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value o = arg_at(args, 0, row), c = arg_at(args, 1, row);
        const ExecCatTable *cat = NULL;
        if (!o.is_null && !c.is_null) {
            const char *name = cstr(ctx, c.u.str);
            cat = exec_catalog_table("pg_catalog", name);
        }
        put_text(ctx, res, row, cat ? exec_catalog_description((uint32_t)o.u.i32, cat->oid) : NULL);
    }
}

static void k_empty_text(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    fill_text(ctx, res, "");
}

/* ---------- encodings, sizes ---------- */

static void k_encoding_to_char(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        put_text(ctx, res, row, v.u.i32 == 6 ? "UTF8" : v.u.i32 == 0 ? "SQL_ASCII" : "");
    }
}

/* Relation sizes shaped like PostgreSQL's, from the committed row count:
 * heap pages of (24-byte header + 4-byte line pointer + column widths,
 * variable-width ones counted at 16 bytes) per row; the TOAST table's
 * empty index (one 8 kB page) when a column is unbounded variable-width
 * (PostgreSQL's needs_toast_table); a primary key's btree = its metapage
 * plus its leaf pages. Exact for empty tables, an estimate otherwise
 * (Strata stores columns, not heap pages). */
typedef enum SizeKind { SIZE_MAIN, SIZE_TABLE, SIZE_TOTAL, SIZE_INDEXES } SizeKind;

static int64_t pages_bytes(uint64_t rows, uint64_t row_bytes)
{
    if (rows == 0)
        return 0;
    uint64_t per_page = 8160 / row_bytes ? 8160 / row_bytes : 1;
    return (int64_t)((rows + per_page - 1) / per_page * 8192);
}

static uint64_t col_width(SqlType t)
{
    const TypeInfo *ti = type_info(t.oid);
    return ti && ti->typlen > 0 ? (uint64_t)ti->typlen : 16;
}

static bool needs_toast(StoreTable *t)
{
    for (int k = 0; k < store_table_ncols(t); k++) {
        SqlType ty = store_table_column(t, k)->type;
        const TypeInfo *ti = type_info(ty.oid);
        bool bounded = (ty.oid == TYPE_VARCHAR || ty.oid == TYPE_BPCHAR || ty.oid == TYPE_NUMERIC) &&
                       ty.typmod >= 4;
        if (ti && ti->typlen < 0 && !bounded)
            return true;
    }
    return false;
}

static int64_t index_bytes(StoreTable *t, uint64_t rows)
{
    if (store_table_npkey(t) == 0)
        return 0;
    uint64_t w = 16;
    for (int k = 0; k < store_table_npkey(t); k++)
        w += col_width(store_table_column(t, store_table_pkey(t)[k])->type);
    return 8192 + pages_bytes(rows, w);
}

static int64_t relation_bytes(StoreTable *t, bool is_index, SizeKind kind)
{
    uint64_t rows = store_table_row_count(t, NULL);
    if (is_index)
        return kind == SIZE_INDEXES ? 0 : index_bytes(t, rows);
    uint64_t w = 28;
    for (int k = 0; k < store_table_ncols(t); k++)
        w += col_width(store_table_column(t, k)->type);
    int64_t main = pages_bytes(rows, w), toast = needs_toast(t) ? 8192 : 0;
    switch (kind) {
    case SIZE_MAIN: return main;
    case SIZE_TABLE: return main + toast;
    case SIZE_TOTAL: return main + toast + index_bytes(t, rows);
    case SIZE_INDEXES: return index_bytes(t, rows);
    }
    return main;
}

static void k_size(const FuncCallCtx *ctx, Vector *const *args, Vector *res, SizeKind kind)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        bool idx = false;
        StoreTable *t = v.is_null ? NULL : table_of((uint32_t)v.u.i32, &idx);
        if (!t && !v.is_null && (uint32_t)v.u.i32 >= 16384) {
            vec_set_null(res, row);   /* PostgreSQL: NULL for a relation that does not exist */
            continue;
        }
        Value out = {.is_null = v.is_null, .u.i64 = t ? relation_bytes(t, idx, kind) : 0};
        vec_set_value(res, row, &out);
    }
}

static void k_relation_size(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_size(ctx, args, res, SIZE_MAIN);
}

static void k_table_size(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_size(ctx, args, res, SIZE_TABLE);
}

static void k_total_size(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_size(ctx, args, res, SIZE_TOTAL);
}

static void k_indexes_size(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_size(ctx, args, res, SIZE_INDEXES);
}

static void k_database_size(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    StoreRelInfo *rels;
    int n = store_catalog_tables(ctx->arena, &rels);
    int64_t total = 7 * 1024 * 1024;   /* PostgreSQL's empty database, about */
    for (int k = 0; k < n; k++) {
        StoreTable *t = store_table_lookup_oid(rels[k].oid);
        if (t)
            total += relation_bytes(t, false, SIZE_TOTAL);
    }
    (void)args;
    Value out = {.is_null = false, .u.i64 = total};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

/* PostgreSQL's pg_size_pretty(bigint): halve-rounded units below 10240. */
static const char *size_pretty(const FuncCallCtx *ctx, int64_t size)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    int64_t limit = 10 * 1024, limit2 = limit * 2 - 1;
    int64_t abs = size < 0 ? -size : size;
    if (abs < limit)
        return mem_printf(ctx->arena, "%lld bytes", (long long)size);
    size /= 512;   /* keep one extra bit for rounding */
    for (int u = 1; u < 6; u++) {
        abs = size < 0 ? -size : size;
        if (abs < limit2 || u == 5) {
            int64_t r = size < 0 ? -((-size + 1) / 2) : (size + 1) / 2;
            return mem_printf(ctx->arena, "%lld %s", (long long)r, units[u]);
        }
        size /= 1024;
    }
    return "";
}

static void k_size_pretty(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        put_text(ctx, res, row, v.is_null ? NULL : size_pretty(ctx, v.u.i64));
    }
}

/* pg_get_viewdef(view [, pretty]): the view's query as written (Strata
 * keeps its text, not a tree PostgreSQL would deparse), with PostgreSQL's
 * trailing semicolon; NULL for anything that is not a view. */
static void k_get_viewdef(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        StoreTable *t = v.is_null ? NULL : store_table_lookup_oid((uint32_t)v.u.i32);
        const char *sql = t ? store_view_sql(t) : NULL;
        if (!sql) {
            vec_set_null(res, row);
            continue;
        }
        size_t n = strlen(sql);
        char *p = mem_alloc(ctx->arena, n + 2);
        memcpy(p, sql, n);
        p[n] = ';';
        p[n + 1] = '\0';
        put_text(ctx, res, row, p);
    }
}

/* ---------- session information ---------- */

static void fill_text(const FuncCallCtx *ctx, Vector *res, const char *s)
{
    for (uint32_t i = 0; i < ctx->count; i++)
        put_text(ctx, res, ROW(ctx, i), s);
}

static void k_current_user(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    ExecSession *s = exec_catalog_session();
    fill_text(ctx, res, s ? exec_session_user(s) : "postgres");
}

static void k_current_database(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    ExecSession *s = exec_catalog_session();
    fill_text(ctx, res, s ? exec_session_database(s) : store_session_database());
}

/* The existing schemas of search_path, pg_catalog first when implicit;
 * with_temp: the session's temporary schema before everything when
 * search_path does not name it (pg_temp) itself, as PostgreSQL searches
 * relations. */
static int path_schemas(const char **out, int max, bool implicit, bool with_temp)
{
    int n = 0;
    const char *own = store_session_temp_schema(false);
    bool temp_listed = false;
    if (implicit)
        out[n++] = "pg_catalog";
    GucSet *g = session_guc();
    const char *path = g ? guc_search_path(g) : "\"$user\", public";
    ExecSession *sess = exec_catalog_session();
    const char *user = sess ? exec_session_user(sess) : "postgres";
    static _Thread_local char names[16][256];
    const char *p = path ? path : "";
    while (*p && n < max && n < 16) {
        while (*p == ' ' || *p == ',')
            p++;
        size_t len = 0;
        bool quoted = *p == '"';
        if (quoted)
            p++;
        char *name = names[n];
        while (*p && (quoted ? *p != '"' : (*p != ',' && *p != ' '))) {
            if (len < 255)
                name[len++] = *p;
            p++;
        }
        if (quoted && *p == '"')
            p++;
        name[len] = 0;
        if (len == 0)
            continue;
        const char *sch = strcmp(name, "$user") == 0 ? user : name;
        if (strcmp(sch, "pg_catalog") == 0 && implicit)
            continue;
        if (store_schema_is_temp(sch)) {   /* pg_temp: the session's own only */
            if (!own || (strcmp(sch, "pg_temp") != 0 && strcmp(sch, own) != 0))
                continue;
            sch = own;
            temp_listed = true;
        }
        if (store_schema_exists(sch))
            out[n++] = sch;
    }
    if (with_temp && own && !temp_listed && max > 0) {
        if (n == max)
            n--;
        memmove(out + 1, out, sizeof *out * (size_t)n);
        out[0] = own;
        n++;
    }
    return n;
}

int exec_catalog_path_schemas(const char **out, int max, bool implicit)
{
    return path_schemas(out, max, implicit, true);
}

bool exec_catalog_schema_visible(const char *schema) { return schema_in_path(schema); }

/* pg_sleep(seconds): void; negative or NaN sleeps not at all, as PostgreSQL's. */
static void k_pg_sleep(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        if (v.is_null)
            continue;
        if (v.u.f64 > 0) {
            double secs = v.u.f64 > 1e9 ? 1e9 : v.u.f64;
            struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
            while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
        }
        ((StrRef *)res->data)[row] = (StrRef){"", 0};
    }
}

static void k_current_schema(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    const char *s[16];
    int n = path_schemas(s, 16, false, false);
    fill_text(ctx, res, n > 0 ? s[0] : NULL);
}

static void k_current_schemas(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value imp = arg_at(args, 0, row);
        const char *s[16];
        int n = path_schemas(s, 16, imp.u.b, imp.u.b);
        Value elems[16];
        for (int k = 0; k < n; k++) {
            elems[k] = (Value){.is_null = false};
            elems[k].u.str = (StrRef){mem_strdup(ctx->arena, s[k]), (uint32_t)strlen(s[k])};
        }
        Value out = {.is_null = false};
        out.u.str = array_build(SQLTYPE(TYPE_TEXT), 1, (uint32_t)n, elems, ctx->arena);
        vec_set_value(res, row, &out);
    }
}

static void k_backend_pid(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    Value out = {.is_null = false, .u.i32 = exec_catalog_backend_pid()};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

/* ---------- temporary schemas ---------- */

/* pg_my_temp_schema(): the OID of the session's pg_temp_N (as pg_namespace
 * shows it), 0 until its first temporary relation took one. */
static void k_my_temp_schema(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    const char *own = store_session_temp_schema(false);
    Value out = {.is_null = false, .u.i32 = (int32_t)(own ? exec_catalog_schema_oid(own) : 0)};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

/* pg_is_other_temp_schema(oid): whether oid is another live session's
 * temporary schema (PostgreSQL's isOtherTempNamespace; false for the
 * session's own, for other schemas and for no schema at all). */
static void k_is_other_temp_schema(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    const char *own = store_session_temp_schema(false);
    StoreSchemaInfo *sch;
    int n = store_catalog_schemas(ctx->arena, &sch);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value v = arg_at(args, 0, row);
        if (v.is_null) {
            vec_set_null(res, row);
            continue;
        }
        Value out = {.is_null = false, .u.b = false};
        for (int k = 0; k < n && !out.u.b; k++)
            out.u.b = store_schema_is_temp(sch[k].name) && (!own || strcmp(sch[k].name, own) != 0) &&
                      exec_catalog_schema_oid(sch[k].name) == (uint32_t)v.u.i32;
        vec_set_value(res, row, &out);
    }
}

/* ---------- transaction ids (txid_current & co) ---------- */

/* The id txid_current() handed out last on this thread: with
 * store_txn_has_writes, what makes a transaction's id "assigned" for
 * txid_current_if_assigned (PostgreSQL assigns an xid at the first write
 * or txid_current call). Ids are unique per begin, so a stale value never
 * matches a later transaction. */
static _Thread_local uint64_t xid_handed_out;

static StoreTxn *session_txn(void)
{
    ExecSession *s = exec_catalog_session();
    return s ? s->txn : NULL;
}

/* txid_current() / pg_current_xact_id(): the storage transaction's id,
 * the same for every call in one transaction. */
static void k_txid_current(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    StoreTxn *txn = session_txn();
    if (!txn)
        err_raise(ERRCODE_INTERNAL_ERROR, "no transaction is open");
    xid_handed_out = store_txn_id(txn);
    Value out = {.is_null = false, .u.i64 = (int64_t)xid_handed_out};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

/* txid_current_if_assigned(): NULL until the transaction wrote something
 * or called txid_current(). */
static void k_txid_if_assigned(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    StoreTxn *txn = session_txn();
    bool assigned = txn && (store_txn_has_writes(txn) || xid_handed_out == store_txn_id(txn));
    Value out = {.is_null = !assigned, .u.i64 = assigned ? (int64_t)store_txn_id(txn) : 0};
    for (uint32_t i = 0; i < ctx->count; i++) {
        if (assigned)
            vec_set_value(res, ROW(ctx, i), &out);
        else
            vec_set_null(res, ROW(ctx, i));
    }
}

static int64_t start_time;   /* set by the first session (process start, about) */

static void k_postmaster_start_time(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    int64_t t = __atomic_load_n(&start_time, __ATOMIC_RELAXED);
    if (t == 0) {
        int64_t zero = 0, now = timestamp_now();
        __atomic_compare_exchange_n(&start_time, &zero, now, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        t = __atomic_load_n(&start_time, __ATOMIC_RELAXED);
    }
    Value out = {.is_null = false, .u.i64 = t};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

static void k_server_port(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    (void)args;
    GucSet *g = session_guc();
    Value out = {.is_null = false, .u.i32 = g ? guc_get_int(g, "port") : 5432};
    for (uint32_t i = 0; i < ctx->count; i++)
        vec_set_value(res, ROW(ctx, i), &out);
}

/* guc_show, NULL instead of 42704 for an unknown name. */
static const char *show_missing_ok(GucSet *g, const char *name)
{
    const char *volatile val = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        val = guc_show(g, name);
        err_pop(&jmp);
    }
    return val;
}

/* current_setting(name [, missing_ok]): 42704 for an unknown name unless
 * missing_ok, then NULL. */
static void k_current_setting(const FuncCallCtx *ctx, Vector *const *args, Vector *res, bool two)
{
    GucSet *g = session_guc();
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value n = arg_at(args, 0, row);
        Value m = two ? arg_at(args, 1, row) : (Value){.is_null = true};
        if (n.is_null) {
            vec_set_null(res, row);
            continue;
        }
        const char *name = cstr(ctx, n.u.str);
        bool missing_ok = two && !m.is_null && m.u.b;
        put_text(ctx, res, row, missing_ok ? show_missing_ok(g, name) : guc_show(g, name));
    }
}

static void k_current_setting1(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_current_setting(ctx, args, res, false);
}

static void k_current_setting2(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_current_setting(ctx, args, res, true);
}

/* set_config(name, value, is_local): as SET (is_local is taken as a
 * session-wide SET: Strata's SET LOCAL bookkeeping lives in the session). */
static void k_set_config(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    GucSet *g = session_guc();
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value n = arg_at(args, 0, row), v = arg_at(args, 1, row);
        if (n.is_null)
            err_raise(ERRCODE_NULL_VALUE_NOT_ALLOWED, "SET requires parameter name");
        const char *name = cstr(ctx, n.u.str);
        if (g) {
            if (v.is_null)
                guc_reset(g, name);
            else
                guc_set(g, name, cstr(ctx, v.u.str));
        }
        put_text(ctx, res, row, g ? guc_show(g, name) : NULL);
    }
}

/* ---------- array equality (psql: polroles <> '{0}') ---------- */

/* Arrays compare element-wise (type_compare: PostgreSQL's array btree
 * order), so = and <> hold for the array types the catalog uses. */
static void k_array_cmp(const FuncCallCtx *ctx, Vector *const *args, Vector *res, bool eq)
{
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ROW(ctx, i);
        Value a = arg_at(args, 0, row), b = arg_at(args, 1, row);
        if (a.is_null || b.is_null) {
            vec_set_null(res, row);
            continue;
        }
        bool same = array_compare(a.u.str, b.u.str) == 0;
        Value out = {.is_null = false, .u.b = eq ? same : !same};
        vec_set_value(res, row, &out);
    }
}

static void k_array_eq(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_array_cmp(ctx, args, res, true);
}

static void k_array_ne(const FuncCallCtx *ctx, Vector *const *args, Vector *res)
{
    k_array_cmp(ctx, args, res, false);
}

#define T_TEXT TYPE_TEXT
#define T_I4 TYPE_INT4
#define T_OID TYPE_OID   /* oid / regclass arguments: integers and reg* cast implicitly */
#define STABLE FUNC_STABLE
#define STRICT_STABLE (FUNC_STRICT | FUNC_STABLE)
#define CAT_OID_BASE 910000u   /* Strata's ids for functions PostgreSQL has under other OIDs */

const FuncDesc exec__funcs_catalog[] = {
    {"pg_get_userbyid", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_pg_get_userbyid, 1642},
    {"format_type", 2, {T_OID, T_I4}, TYPE_TEXT, STABLE, k_format_type, 1081},
    {"pg_table_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_pg_table_is_visible, 2079},
    {"pg_type_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_type_is_visible, 2080},
    {"pg_function_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_true, 2081},
    {"pg_operator_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_true, 2082},
    {"pg_opclass_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_true, 2083},
    {"pg_conversion_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_true, 2093},
    {"pg_opfamily_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_true, 3829},
    {"pg_collation_is_visible", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_true, 3815},
    {"pg_get_expr", 2, {T_TEXT, T_OID}, TYPE_TEXT, STRICT_STABLE, k_first_text, 1716},
    {"pg_get_expr", 3, {T_TEXT, T_OID, TYPE_BOOL}, TYPE_TEXT, STRICT_STABLE, k_first_text, 2509},
    {"pg_get_constraintdef", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_constraintdef, 1387},
    {"pg_get_constraintdef", 2, {T_OID, TYPE_BOOL}, TYPE_TEXT, STRICT_STABLE, k_constraintdef, 2508},
    {"pg_get_indexdef", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_indexdef, 1643},
    {"pg_get_indexdef", 3, {T_OID, T_I4, TYPE_BOOL}, TYPE_TEXT, STRICT_STABLE, k_indexdef3, 2507},
    {"pg_get_viewdef", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_get_viewdef, 1641},
    {"pg_get_viewdef", 2, {T_OID, TYPE_BOOL}, TYPE_TEXT, STRICT_STABLE, k_get_viewdef, 2506},
    {"pg_get_triggerdef", 2, {T_OID, TYPE_BOOL}, TYPE_TEXT, STRICT_STABLE, k_null, 2730},
    {"pg_get_statisticsobjdef_columns", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_null, 6174},
    {"pg_get_function_result", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_function_result, 2165},
    {"pg_get_function_arguments", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_function_arguments, 2162},
    {"pg_get_function_identity_arguments", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_function_arguments, 2232},
    {"pg_relation_is_publishable", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_false, 6121},
    {"obj_description", 1, {T_OID}, TYPE_TEXT, STABLE, k_null, 1348},
    {"obj_description", 2, {T_OID, T_TEXT}, TYPE_TEXT, STABLE, k_obj_description, 1215},
    {"col_description", 2, {T_OID, T_I4}, TYPE_TEXT, STABLE, k_null, 1216},
    {"shobj_description", 2, {T_OID, T_TEXT}, TYPE_TEXT, STABLE, k_obj_description, 1993},
    {"pg_tablespace_location", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_empty_text, 3778},
    {"pg_encoding_to_char", 1, {T_OID}, TYPE_TEXT, STRICT_STABLE, k_encoding_to_char, 1597},
    {"has_table_privilege", 2, {T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 1927},
    {"has_table_privilege", 2, {T_OID, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 1924},
    {"has_table_privilege", 3, {T_TEXT, T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 1922},
    {"has_schema_privilege", 2, {T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 2273},
    {"has_schema_privilege", 3, {T_TEXT, T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 2268},
    {"has_database_privilege", 2, {T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 2255},
    {"has_database_privilege", 3, {T_TEXT, T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 2250},
    {"pg_has_role", 2, {T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 2710},
    {"pg_has_role", 3, {T_TEXT, T_TEXT, T_TEXT}, TYPE_BOOL, STRICT_STABLE, k_true, 2705},
    {"current_user", 0, {0}, TYPE_TEXT, STABLE, k_current_user, 745},
    {"session_user", 0, {0}, TYPE_TEXT, STABLE, k_current_user, 746},
    {"current_role", 0, {0}, TYPE_TEXT, STABLE, k_current_user, CAT_OID_BASE + 4},
    {"current_database", 0, {0}, TYPE_TEXT, STABLE, k_current_database, 861},
    {"current_catalog", 0, {0}, TYPE_TEXT, STABLE, k_current_database, CAT_OID_BASE + 5},
    {"current_schema", 0, {0}, TYPE_TEXT, STABLE, k_current_schema, 1402},
    {"current_schemas", 1, {TYPE_BOOL}, TYPE_TEXT_ARRAY, STRICT_STABLE, k_current_schemas, 1403},
    {"pg_backend_pid", 0, {0}, TYPE_INT4, STABLE, k_backend_pid, 2026},
    {"pg_my_temp_schema", 0, {0}, TYPE_OID, STRICT_STABLE, k_my_temp_schema, 2854},
    {"pg_is_other_temp_schema", 1, {T_OID}, TYPE_BOOL, STRICT_STABLE, k_is_other_temp_schema, 2855},
    {"pg_postmaster_start_time", 0, {0}, TYPE_TIMESTAMPTZ, STABLE, k_postmaster_start_time, 2560},
    {"inet_server_addr", 0, {0}, TYPE_TEXT, STABLE, k_null, 2198},
    {"inet_server_port", 0, {0}, TYPE_INT4, STABLE, k_server_port, 2199},
    {"current_setting", 1, {T_TEXT}, TYPE_TEXT, STRICT_STABLE, k_current_setting1, 2077},
    {"current_setting", 2, {T_TEXT, TYPE_BOOL}, TYPE_TEXT, STRICT_STABLE, k_current_setting2, 3294},
    {"set_config", 3, {T_TEXT, T_TEXT, TYPE_BOOL}, TYPE_TEXT, FUNC_VOLATILE, k_set_config, 2078},
    {"pg_is_in_recovery", 0, {0}, TYPE_BOOL, STABLE, k_false, 3810},
    {"pg_relation_size", 1, {T_OID}, TYPE_INT8, STRICT_STABLE, k_relation_size, 2325},
    {"pg_table_size", 1, {T_OID}, TYPE_INT8, STRICT_STABLE, k_table_size, 2997},
    {"pg_total_relation_size", 1, {T_OID}, TYPE_INT8, STRICT_STABLE, k_total_size, 2286},
    {"pg_indexes_size", 1, {T_OID}, TYPE_INT8, STRICT_STABLE, k_indexes_size, 2998},
    {"pg_database_size", 1, {T_TEXT}, TYPE_INT8, STRICT_STABLE, k_database_size, 2168},
    {"=", 2, {TYPE_INT4_ARRAY, TYPE_INT4_ARRAY}, TYPE_BOOL, FUNC_STRICT, k_array_eq, 1070},
    {"<>", 2, {TYPE_INT4_ARRAY, TYPE_INT4_ARRAY}, TYPE_BOOL, FUNC_STRICT, k_array_ne, 1071},
    {"=", 2, {TYPE_INT2_ARRAY, TYPE_INT2_ARRAY}, TYPE_BOOL, FUNC_STRICT, k_array_eq, CAT_OID_BASE + 6},
    {"<>", 2, {TYPE_INT2_ARRAY, TYPE_INT2_ARRAY}, TYPE_BOOL, FUNC_STRICT, k_array_ne, CAT_OID_BASE + 7},
    {"=", 2, {TYPE_TEXT_ARRAY, TYPE_TEXT_ARRAY}, TYPE_BOOL, FUNC_STRICT, k_array_eq, CAT_OID_BASE + 8},
    {"<>", 2, {TYPE_TEXT_ARRAY, TYPE_TEXT_ARRAY}, TYPE_BOOL, FUNC_STRICT, k_array_ne, CAT_OID_BASE + 9},
    {"pg_sleep", 1, {TYPE_FLOAT8}, TYPE_VOID, FUNC_STRICT | FUNC_VOLATILE, k_pg_sleep, 2626},
    {"pg_size_pretty", 1, {TYPE_INT8}, TYPE_TEXT, STRICT_STABLE, k_size_pretty, 2288},
    {"txid_current", 0, {0}, TYPE_INT8, STABLE, k_txid_current, 2943},
    {"txid_current_if_assigned", 0, {0}, TYPE_INT8, STABLE, k_txid_if_assigned, 3348},
    {"pg_current_xact_id", 0, {0}, TYPE_XID8, STABLE, k_txid_current, 5059},
    {"pg_current_xact_id_if_assigned", 0, {0}, TYPE_XID8, STABLE, k_txid_if_assigned, 5060},
};
const int exec__funcs_catalog_count = (int)(sizeof exec__funcs_catalog / sizeof exec__funcs_catalog[0]);
