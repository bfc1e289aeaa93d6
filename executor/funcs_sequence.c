/*
 * funcs_sequence.c — nextval, currval, lastval, setval (2 and 3 arguments)
 * over storage/sequence.c, with PostgreSQL 15's errors.
 *
 * PostgreSQL's argument is a regclass; Strata has no regclass type, so the
 * functions take text and resolve it as regclassin does: a possibly
 * qualified name, unquoted parts folded to lower case, an unqualified name
 * looked up through the session's search_path (exec__seq_set_session, set
 * when a session starts a transaction). All are FUNC_VOLATILE (never
 * folded). A batch whose argument is constant (the usual
 * nextval('t_id_seq') of a DEFAULT) resolves the name once and takes all
 * its values with one call (one lock, at most one WAL write); otherwise
 * rows are resolved one by one.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "common/guc.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "storage/storage.h"

#define SEQ_NAME_MAX 64

static _Thread_local GucSet *tl_guc;
static _Thread_local char tl_user[SEQ_NAME_MAX];

void exec__seq_set_session(GucSet *guc, const char *user)
{
    tl_guc = guc;
    snprintf(tl_user, sizeof tl_user, "%s", user ? user : "");
}

/* One part of a qualified name: "..." keeps case (doubled quotes), else
 * lower-cased. Returns the position after it, NULL when malformed. */
static const char *name_part(const char *p, char *out)
{
    size_t n = 0;
    if (*p == '"') {
        for (p++;; p++) {
            if (*p == '\0')
                return NULL;
            if (*p == '"') {
                if (p[1] != '"')
                    break;
                p++;
            }
            if (n + 1 < SEQ_NAME_MAX)
                out[n++] = *p;
        }
        p++;
    } else {
        while (*p && *p != '.') {
            if (n + 1 < SEQ_NAME_MAX)
                out[n++] = (char)tolower((unsigned char)*p);
            p++;
        }
    }
    out[n] = '\0';
    return n > 0 ? p : NULL;
}

/* search_path's i-th existing schema into out; false past the end. The
 * session's temporary schema comes first unless search_path names pg_temp
 * itself (PostgreSQL's implicit pg_temp for relations). */
static bool path_schema(int idx, char *out)
{
    const char *sp = tl_guc ? guc_search_path(tl_guc) : "\"$user\", public";
    const char *own = store_session_temp_schema(false);
    if (own && !(sp && strstr(sp, "pg_temp"))) {
        if (idx == 0) {
            snprintf(out, SEQ_NAME_MAX, "%s", own);
            return true;
        }
        idx--;
    }
    int seen = 0;
    while (sp && *sp) {
        while (*sp == ' ' || *sp == ',')
            sp++;
        const char *end = strchr(sp, ',');
        size_t len = end ? (size_t)(end - sp) : strlen(sp);
        while (len > 0 && sp[len - 1] == ' ')
            len--;
        const char *p = sp;
        if (len >= 2 && p[0] == '"' && p[len - 1] == '"') {
            p++;
            len -= 2;
        }
        if (len > 0 && len < SEQ_NAME_MAX) {
            snprintf(out, SEQ_NAME_MAX, "%.*s", (int)len, p);
            if (strcmp(out, "$user") == 0)
                snprintf(out, SEQ_NAME_MAX, "%s", tl_user);
            if (store_schema_is_temp(out))   /* pg_temp: the session's own only */
                snprintf(out, SEQ_NAME_MAX, "%s",
                         own && (strcmp(out, "pg_temp") == 0 || strcmp(out, own) == 0) ? own : "");
            if (out[0] && store_schema_exists(out) && seen++ == idx)
                return true;
        }
        if (!end)
            break;
        sp = end + 1;
    }
    return false;
}

/* The sequence named by text (PostgreSQL's regclass input + the checks of
 * nextval & co.): 42P01 relation "x" does not exist, 42809 "x" is not a
 * sequence, 42602 invalid name syntax. */
static uint32_t seq_resolve(StrRef text)
{
    char buf[3 * SEQ_NAME_MAX + 8], part[3][SEQ_NAME_MAX];
    if (text.len >= sizeof buf)
        err_raise(ERRCODE_NAME_TOO_LONG, "identifier too long");
    memcpy(buf, text.ptr, text.len);
    buf[text.len] = '\0';
    int nparts = 0;
    const char *p = buf;
    for (;;) {
        if (nparts == 3 || !(p = name_part(p, part[nparts])))
            err_raise(ERRCODE_INVALID_NAME, "invalid name syntax");
        nparts++;
        if (*p == '\0')
            break;
        if (*p++ != '.')
            err_raise(ERRCODE_INVALID_NAME, "invalid name syntax");
    }
    const char *name = part[nparts - 1];
    char schema[SEQ_NAME_MAX];
    if (nparts >= 2) {
        const char *own = store_session_temp_schema(false);   /* pg_temp.s: the session's own */
        snprintf(schema, sizeof schema, "%s",
                 own && strcmp(part[nparts - 2], "pg_temp") == 0 ? own : part[nparts - 2]);
        if (!store_schema_exists(schema))
            err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
        uint32_t oid = store_seq_lookup(schema, name);
        if (oid)
            return oid;
        if (store_table_lookup(schema, name))
            err_raise(ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
        err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist", schema, name);
    }
    for (int i = 0; path_schema(i, schema); i++) {
        uint32_t oid = store_seq_lookup(schema, name);
        if (oid)
            return oid;
        if (store_table_lookup(schema, name))
            err_raise(ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
    }
    err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
}

/* Sequence schema.name (schema NULL: through search_path) for sequence
 * DDL: its OID, or 0 (*is_table set when a table has that name). */
uint32_t exec__seq_find(const char *schema, const char *name, bool *is_table);
uint32_t exec__seq_find(const char *schema, const char *name, bool *is_table)
{
    *is_table = false;
    if (schema) {
        uint32_t oid = store_schema_exists(schema) ? store_seq_lookup(schema, name) : 0;
        *is_table = !oid && store_schema_exists(schema) && store_table_lookup(schema, name);
        return oid;
    }
    char sch[SEQ_NAME_MAX];
    for (int i = 0; path_schema(i, sch); i++) {
        uint32_t oid = store_seq_lookup(sch, name);
        if (oid)
            return oid;
        if (store_table_lookup(sch, name)) {
            *is_table = true;
            return 0;
        }
    }
    return 0;
}

static uint32_t row_of(const FuncCallCtx *ctx, uint32_t i) { return ctx->sel ? ctx->sel[i] : i; }

/* Active rows whose arguments are all valid, into rows; returns how many. */
static uint32_t valid_rows(const FuncCallCtx *ctx, Vector *const *args, int nargs, uint16_t *rows)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t r = row_of(ctx, i);
        bool ok = true;
        for (int a = 0; a < nargs; a++)
            ok &= vec_is_valid(args[a], r);
        rows[n] = (uint16_t)r;
        n += ok;
    }
    return n;
}

static StrRef text_at(const Vector *v, uint32_t row)
{
    return ((const StrRef *)v->data)[v->is_const ? 0 : row];
}

static void k_nextval(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    uint16_t rows[VEC_CAPACITY];
    int64_t vals[VEC_CAPACITY];
    uint32_t n = valid_rows(ctx, args, 1, rows);
    int64_t *out = (int64_t *)result->data;
    if (n == 0)
        return;
    if (args[0]->is_const) {
        store_seq_nextval(seq_resolve(text_at(args[0], 0)), n, vals);
        for (uint32_t i = 0; i < n; i++)
            out[rows[i]] = vals[i];
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        store_seq_nextval(seq_resolve(text_at(args[0], rows[i])), 1, &out[rows[i]]);
}

static void k_currval(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    uint16_t rows[VEC_CAPACITY];
    uint32_t n = valid_rows(ctx, args, 1, rows);
    int64_t *out = (int64_t *)result->data;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t oid = seq_resolve(text_at(args[0], rows[i]));
        if (!store_seq_currval(oid, &out[rows[i]])) {
            StoreSeqInfo in;
            store_seq_info(oid, &in);
            err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                      "currval of sequence \"%s\" is not yet defined in this session", in.name);
        }
    }
}

static void k_lastval(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    (void)args;
    uint32_t oid;
    int64_t v;
    if (!store_seq_lastval(&oid, &v))
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "lastval is not yet defined in this session");
    StoreSeqInfo in;
    if (!store_seq_info(oid, &in))
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "lastval is not yet defined in this session");
    int64_t *out = (int64_t *)result->data;
    for (uint32_t i = 0; i < ctx->count; i++)
        out[row_of(ctx, i)] = v;
}

static void setval_rows(const FuncCallCtx *ctx, Vector *const *args, int nargs, Vector *result)
{
    uint16_t rows[VEC_CAPACITY];
    uint32_t n = valid_rows(ctx, args, nargs, rows);
    int64_t *out = (int64_t *)result->data;
    const int64_t *v = (const int64_t *)args[1]->data;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = rows[i];
        int64_t value = v[args[1]->is_const ? 0 : r];
        bool called = true;
        if (nargs == 3)
            called = ((const bool *)args[2]->data)[args[2]->is_const ? 0 : r];
        store_seq_setval(seq_resolve(text_at(args[0], r)), value, called);
        out[r] = value;
    }
}

static void k_setval2(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    setval_rows(ctx, args, 2, result);
}

static void k_setval3(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    setval_rows(ctx, args, 3, result);
}

/* strata_sequence_state(seq, field): 1 last_value, 2 log_cnt, 3 is_called
 * (1/0): the row `SELECT * FROM seq` shows (planner/plan_sequence.c). */
static void k_state(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    uint16_t rows[VEC_CAPACITY];
    uint32_t n = valid_rows(ctx, args, 2, rows);
    int64_t *out = (int64_t *)result->data;
    const int32_t *field = (const int32_t *)args[1]->data;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = rows[i];
        StoreSeqInfo in;
        if (!store_seq_info(seq_resolve(text_at(args[0], r)), &in))
            err_raise(ERRCODE_UNDEFINED_TABLE, "relation does not exist");
        int32_t f = field[args[1]->is_const ? 0 : r];
        out[r] = f == 1 ? in.last_value : f == 2 ? in.log_cnt : in.is_called;
    }
}

/* An identifier as quote_ident writes it (keywords aside). */
static size_t put_ident(char *out, const char *id)
{
    bool plain = (*id >= 'a' && *id <= 'z') || *id == '_';
    for (const char *p = id; *p; p++)
        plain &= (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    size_t n = 0;
    if (plain) {
        n = strlen(id);
        memcpy(out, id, n);
        return n;
    }
    out[n++] = '"';
    for (const char *p = id; *p; p++) {
        if (*p == '"')
            out[n++] = '"';
        out[n++] = *p;
    }
    out[n++] = '"';
    return n;
}

/* The table named by text (regclass rules): 42P01 when absent. */
static StoreTable *table_resolve(StrRef text)
{
    char buf[3 * SEQ_NAME_MAX + 8], part[3][SEQ_NAME_MAX], schema[SEQ_NAME_MAX];
    if (text.len >= sizeof buf)
        err_raise(ERRCODE_NAME_TOO_LONG, "identifier too long");
    memcpy(buf, text.ptr, text.len);
    buf[text.len] = '\0';
    int nparts = 0;
    for (const char *p = buf;;) {
        if (nparts == 3 || !(p = name_part(p, part[nparts])))
            err_raise(ERRCODE_INVALID_NAME, "invalid name syntax");
        nparts++;
        if (*p == '\0')
            break;
        if (*p++ != '.')
            err_raise(ERRCODE_INVALID_NAME, "invalid name syntax");
    }
    const char *name = part[nparts - 1];
    StoreTable *t = NULL;
    if (nparts >= 2) {
        t = store_table_lookup(part[nparts - 2], name);
        if (!t)
            err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist", part[nparts - 2], name);
        return t;
    }
    for (int i = 0; !t && path_schema(i, schema); i++)
        t = store_table_lookup(schema, name);
    if (!t)
        err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
    return t;
}

/* pg_get_serial_sequence(table, column): "schema.seq" of the column's owned
 * sequence (serial, identity, OWNED BY), NULL when none. The column name is
 * taken literally, as PostgreSQL's. */
static void k_serial_sequence(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    uint16_t rows[VEC_CAPACITY];
    uint32_t n = valid_rows(ctx, args, 2, rows);
    StrRef *out = (StrRef *)result->data;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = rows[i];
        StoreTable *t = table_resolve(text_at(args[0], r));
        StrRef col = text_at(args[1], r);
        char cname[SEQ_NAME_MAX];
        snprintf(cname, sizeof cname, "%.*s", (int)col.len, col.ptr);
        int ci = store_table_column_index(t, cname);
        if (ci < 0)
            err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", cname,
                      store_table_name(t));
        uint32_t oids[32];
        int k = store_seq_owned_by(store_table_oid(t), oids, 32);
        StoreSeqInfo in;
        bool found = false;
        for (int j = 0; j < k && j < 32 && !found; j++)
            found = store_seq_info(oids[j], &in) && in.def.owner_col == ci;
        if (!found) {
            vec_set_null(result, r);
            continue;
        }
        char *s = mem_alloc(ctx->arena, 4 * SEQ_NAME_MAX + 8);
        size_t len = put_ident(s, in.schema);
        s[len++] = '.';
        len += put_ident(s + len, in.name);
        out[r] = (StrRef){s, (uint32_t)len};
    }
}

#define SEQ_FN(name, n, a0, a1, a2, k, oid) \
    {name, n, {a0, a1, a2, 0}, TYPE_INT8, FUNC_STRICT | FUNC_VOLATILE, k, oid}

const FuncDesc exec__funcs_sequence[] = {
    SEQ_FN("nextval", 1, TYPE_TEXT, 0, 0, k_nextval, 1574),
    SEQ_FN("currval", 1, TYPE_TEXT, 0, 0, k_currval, 1575),
    SEQ_FN("lastval", 0, 0, 0, 0, k_lastval, 2559),
    SEQ_FN("setval", 2, TYPE_TEXT, TYPE_INT8, 0, k_setval2, 1576),
    SEQ_FN("setval", 3, TYPE_TEXT, TYPE_INT8, TYPE_BOOL, k_setval3, 1765),
    SEQ_FN("strata_sequence_state", 2, TYPE_TEXT, TYPE_INT4, 0, k_state, 900100),
    {"pg_get_serial_sequence", 2, {TYPE_TEXT, TYPE_TEXT, 0, 0}, TYPE_TEXT, FUNC_STRICT | FUNC_STABLE,
     k_serial_sequence, 1716},
};
const int exec__funcs_sequence_count = (int)(sizeof exec__funcs_sequence / sizeof exec__funcs_sequence[0]);
