/*
 * funcs_json.c — json and jsonb operators and functions: navigation
 * (-> ->> #> #>>, json[b]_extract_path[_text]), existence and containment
 * (? ?| ?& @> <@), edits (|| - #- jsonb_set jsonb_insert jsonb_strip_nulls),
 * json[b]_typeof, json[b]_array_length, jsonb_pretty, json_strip_nulls, and
 * the builders to_json[b] and json[b]_build_array/object over "any".
 *
 * Navigation walks the stored text (common/json.h: no tree, results are
 * slices of the document). Edits parse the jsonb document into a tree in
 * the batch arena, change it, and print the canonical text again — jsonb is
 * rarely edited in analytic queries, so correct and simple wins here.
 * Semantics and error texts are PostgreSQL 15's jsonfuncs.c (setPath,
 * JsonbDeepContains, IteratorConcat).
 *
 * Kernels are row loops with direct calls. Strict kernels skip rows the
 * caller marked NULL; results not found (a missing key) are SQL NULL.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/json.h"
#include "common/numeric.h"
#include "common/typio.h"
#include "executor/funcs.h"
#include "executor/kernels_text.h"

#define JS TYPE_JSON
#define JB TYPE_JSONB
#define TX TYPE_TEXT
#define TA TYPE_TEXT_ARRAY
#define I4 TYPE_INT4
#define BO TYPE_BOOL
#define ANY FUNC_ARG_ANY

static inline StrRef str_at(const Vector *v, uint32_t row)
{
    return ((const StrRef *)v->data)[v->is_const ? 0 : row];
}
static inline int32_t i32_at(const Vector *v, uint32_t row)
{
    return ((const int32_t *)v->data)[v->is_const ? 0 : row];
}
static inline StrRef *res_str(Vector *r) { return (StrRef *)r->data; }

/* The elements of a text[] value: *n of them in a new array, nulls[i] set
 * for NULL elements. */
static StrRef *text_array(StrRef blob, MemArena *arena, int *n, bool **nulls)
{
    ArrayView a = array_view(blob);
    StrRef *out = mem_alloc(arena, sizeof(StrRef) * (a.nelems + 1));
    bool *nl = mem_alloc(arena, a.nelems + 1);
    for (uint32_t i = 0; i < a.nelems; i++) {
        Value v;
        nl[i] = array_is_null(&a, i);
        if (!nl[i]) array_get(&a, i, &v), out[i] = v.u.str;
        else out[i] = (StrRef){"", 0};
    }
    *n = (int)a.nelems;
    *nulls = nl;
    return out;
}

static bool any_null(const bool *nulls, int n)
{
    for (int i = 0; i < n; i++) if (nulls[i]) return true;
    return false;
}

/* ---------- navigation: -> ->> #> #>> and extract_path ---------- */

/* Set r[row] from a found value: as json(b) (text = false) or as ->> text. */
static void nav_result(const FuncCallCtx *ctx, Vector *result, uint32_t row, bool found, StrRef v,
                       bool text)
{
    bool is_null = false;
    if (found && text) v = json_value_text(v, ctx->arena, &is_null);
    if (!found || is_null) vec_set_null(result, row);
    else res_str(result)[row] = v;
}

static void field_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool text)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef key = str_at(args[1], row), v;
        bool found = json_object_field(str_at(args[0], row), key.ptr, key.len, &v);
        nav_result(ctx, result, row, found, v, text);
    }
}
static void k_field(const FuncCallCtx *c, Vector *const *a, Vector *r) { field_kernel(c, a, r, false); }
static void k_field_text(const FuncCallCtx *c, Vector *const *a, Vector *r) { field_kernel(c, a, r, true); }

/* jsonb stores a top-level scalar as a one-element array, so jsonb's
 * -> 0 and -> -1 of a scalar find it (json's do not). */
static void elem_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool text,
                        bool jsonb)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef v, d = str_at(args[0], row);
        int32_t idx = i32_at(args[1], row);
        JsonKind k = jsonb ? json_kind(d) : JSON_ARRAY;
        bool found = k == JSON_ARRAY || k == JSON_OBJECT ? json_array_element(d, idx, &v)
                     : (idx == 0 || idx == -1);
        if (k != JSON_ARRAY && k != JSON_OBJECT) v = d;
        nav_result(ctx, result, row, found, v, text);
    }
}
static void k_elem(const FuncCallCtx *c, Vector *const *a, Vector *r) { elem_kernel(c, a, r, false, false); }
static void k_elem_text(const FuncCallCtx *c, Vector *const *a, Vector *r) { elem_kernel(c, a, r, true, false); }
static void k_elem_b(const FuncCallCtx *c, Vector *const *a, Vector *r) { elem_kernel(c, a, r, false, true); }
static void k_elem_text_b(const FuncCallCtx *c, Vector *const *a, Vector *r) { elem_kernel(c, a, r, true, true); }

/* #> / #>>: a NULL path element gives NULL, as PostgreSQL's get_path_all. */
static void path_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool text)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        int n;
        bool *nulls;
        StrRef *path = text_array(str_at(args[1], row), ctx->arena, &n, &nulls), v = {"", 0};
        bool found = !any_null(nulls, n) && json_extract_path(str_at(args[0], row), path, n, &v);
        nav_result(ctx, result, row, found, v, text);
    }
}
static void k_path(const FuncCallCtx *c, Vector *const *a, Vector *r) { path_kernel(c, a, r, false); }
static void k_path_text(const FuncCallCtx *c, Vector *const *a, Vector *r) { path_kernel(c, a, r, true); }

/* json[b]_extract_path[_text](doc, VARIADIC text): one instance per arity;
 * not strict in the path elements (a NULL one gives NULL). */
static void extract_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int n,
                           bool text)
{
    StrRef path[FUNC_MAX_ARGS * 4];
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        bool ok = vec_is_valid(args[0], row);
        for (int k = 1; k < n && ok; k++) {
            ok = vec_is_valid(args[k], row);
            if (ok) path[k - 1] = str_at(args[k], row);
        }
        StrRef v = {"", 0};
        bool found = ok && json_extract_path(str_at(args[0], row), path, n - 1, &v);
        nav_result(ctx, result, row, found, v, text);
    }
}

/* ---------- typeof, array_length, pretty ---------- */

static void k_typeof(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        const char *nm = json_kind_name(json_kind(str_at(args[0], row)));
        res_str(result)[row] = (StrRef){nm, (uint32_t)strlen(nm)};
    }
}

static void k_array_length(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int32_t *r = result->data;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef d = str_at(args[0], row);
        JsonKind k = json_kind(d);
        if (k == JSON_OBJECT)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot get array length of a non-array");
        if (k != JSON_ARRAY)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot get array length of a scalar");
        r[row] = (int32_t)json_length(d);
    }
}

static void k_pretty(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row)
        res_str(result)[row] = jsonb_tree_pretty(json_tree(str_at(args[0], row), ctx->arena), ctx->arena);
}

/* ---------- existence: ? ?| ?& ---------- */

/* PostgreSQL's jsonb_exists: a top-level key, or a string element of an
 * array (a scalar counts as a one-element array). */
static bool exists_one(StrRef doc, StrRef key, MemArena *arena)
{
    JsonKind k = json_kind(doc);
    StrRef v, ek;
    if (k == JSON_OBJECT) return json_object_field(doc, key.ptr, key.len, &v);
    if (k == JSON_STRING) {
        bool isn;
        v = json_value_text(doc, arena, &isn);
        return v.len == key.len && memcmp(v.ptr, key.ptr, key.len) == 0;
    }
    if (k != JSON_ARRAY) return false;
    size_t pos = 0;
    while (json_next(doc, &pos, &ek, &v)) {
        if (json_kind(v) != JSON_STRING) continue;
        bool isn;
        StrRef s = json_value_text(v, arena, &isn);
        if (s.len == key.len && memcmp(s.ptr, key.ptr, key.len) == 0) return true;
    }
    return false;
}

static void k_exists(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    bool *r = result->data;
    TXT_FOR_ACTIVE_VALID(ctx, result, row)
        r[row] = exists_one(str_at(args[0], row), str_at(args[1], row), ctx->arena);
}

/* ?| (any) and ?& (all); NULL keys are ignored, as PostgreSQL's. */
static void exists_array_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool all)
{
    bool *r = result->data;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        int n;
        bool *nulls;
        StrRef *keys = text_array(str_at(args[1], row), ctx->arena, &n, &nulls);
        bool acc = all;
        for (int k = 0; k < n && acc == all; k++) {
            if (nulls[k]) continue;
            acc = exists_one(str_at(args[0], row), keys[k], ctx->arena);
        }
        r[row] = acc;
    }
}
static void k_exists_any(const FuncCallCtx *c, Vector *const *a, Vector *r) { exists_array_kernel(c, a, r, false); }
static void k_exists_all(const FuncCallCtx *c, Vector *const *a, Vector *r) { exists_array_kernel(c, a, r, true); }

/* ---------- containment: @> <@ ---------- */

static bool scalar_eq(const JsonNode *a, const JsonNode *b, MemArena *arena)
{
    if (a->kind != b->kind) return false;
    if (a->kind == JSON_NUMBER)
        return numeric_cmp(numeric_in(a->text.ptr, a->text.len, -1, arena),
                           numeric_in(b->text.ptr, b->text.len, -1, arena)) == 0;
    return a->text.len == b->text.len && memcmp(a->text.ptr, b->text.ptr, a->text.len) == 0;
}

static bool is_container(const JsonNode *n) { return n->kind == JSON_ARRAY || n->kind == JSON_OBJECT; }

/* JsonbDeepContains for two containers of the same kind. */
static bool deep_contains(const JsonNode *a, const JsonNode *b, MemArena *arena)
{
    if (a->kind != b->kind) return false;
    if (!is_container(a)) return scalar_eq(a, b, arena);
    for (uint32_t j = 0; j < b->n; j++) {
        const JsonNode *bv = b->items[j];
        bool found = false;
        for (uint32_t i = 0; i < a->n && !found; i++) {
            const JsonNode *av = a->items[i];
            if (a->kind == JSON_OBJECT &&
                (a->keys[i].len != b->keys[j].len ||
                 memcmp(a->keys[i].ptr, b->keys[j].ptr, a->keys[i].len) != 0))
                continue;
            if (is_container(bv)) found = av->kind == bv->kind && deep_contains(av, bv, arena);
            else found = scalar_eq(av, bv, arena);
            if (a->kind == JSON_OBJECT) break;  /* keys are unique in jsonb */
        }
        if (!found) return false;
    }
    return true;
}

/* A top-level scalar is a one-element "raw scalar" array: an array may
 * contain it, it contains no array. */
static bool jsonb_contains_top(StrRef da, StrRef db, MemArena *arena)
{
    JsonNode *a = json_tree(da, arena), *b = json_tree(db, arena);
    bool ra = !is_container(a), rb = !is_container(b);
    if (ra && !rb) return false;
    if (a->kind == JSON_ARRAY && rb) {
        for (uint32_t i = 0; i < a->n; i++)
            if (scalar_eq(a->items[i], b, arena)) return true;
        return false;
    }
    return deep_contains(a, b, arena);
}

static void contain_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool flip)
{
    bool *r = result->data;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef x = str_at(args[0], row), y = str_at(args[1], row);
        r[row] = flip ? jsonb_contains_top(y, x, ctx->arena) : jsonb_contains_top(x, y, ctx->arena);
    }
}
static void k_contains(const FuncCallCtx *c, Vector *const *a, Vector *r) { contain_kernel(c, a, r, false); }
static void k_contained(const FuncCallCtx *c, Vector *const *a, Vector *r) { contain_kernel(c, a, r, true); }

/* ---------- tree helpers for the edits ---------- */

static JsonNode *node_new(MemArena *arena, JsonKind k, uint32_t cap)
{
    JsonNode *n = mem_alloc(arena, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = k;
    if (cap) {
        n->items = mem_alloc(arena, sizeof(JsonNode *) * cap);
        if (k == JSON_OBJECT) n->keys = mem_alloc(arena, sizeof(StrRef) * cap);
    }
    return n;
}

/* A copy of container n with room for `extra` more members. */
static JsonNode *node_copy(MemArena *arena, const JsonNode *n, uint32_t extra)
{
    JsonNode *c = node_new(arena, n->kind, n->n + extra);
    c->text = n->text;
    c->n = n->n;
    if (n->n) memcpy(c->items, n->items, sizeof(JsonNode *) * n->n);
    if (n->keys && n->n) memcpy(c->keys, n->keys, sizeof(StrRef) * n->n);
    return c;
}

static void node_push(JsonNode *n, StrRef key, JsonNode *v)
{
    if (n->keys) n->keys[n->n] = key;
    n->items[n->n++] = v;
}

static bool str_eq(StrRef a, StrRef b) { return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0; }

static int object_find(const JsonNode *n, StrRef key)
{
    for (uint32_t i = 0; i < n->n; i++)
        if (str_eq(n->keys[i], key)) return (int)i;
    return -1;
}

/* ---------- || ---------- */

/* IteratorConcat: objects merge (right wins), arrays concatenate, an array
 * and a non-array append or prepend it, anything else becomes a pair. */
static StrRef concat_one(StrRef x, StrRef y, MemArena *arena)
{
    JsonNode *a = json_tree(x, arena), *b = json_tree(y, arena);
    if (a->kind == JSON_OBJECT && b->kind == JSON_OBJECT) {
        JsonNode *c = node_copy(arena, a, b->n);
        for (uint32_t i = 0; i < b->n; i++) node_push(c, b->keys[i], b->items[i]);
        return jsonb_tree_text(c, arena);   /* printing keeps the last duplicate */
    }
    JsonNode *la = a, *lb = b;
    if (a->kind != JSON_ARRAY) la = node_new(arena, JSON_ARRAY, 1), node_push(la, (StrRef){0}, a);
    if (b->kind != JSON_ARRAY) lb = node_new(arena, JSON_ARRAY, 1), node_push(lb, (StrRef){0}, b);
    JsonNode *c = node_copy(arena, la, lb->n);
    for (uint32_t i = 0; i < lb->n; i++) node_push(c, (StrRef){0}, lb->items[i]);
    return jsonb_tree_text(c, arena);
}

static void k_concat(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row)
        res_str(result)[row] = concat_one(str_at(args[0], row), str_at(args[1], row), ctx->arena);
}

/* ---------- - (text, int, text[]) ---------- */

/* Remove object keys / array string elements that are in keys[0..n). */
static StrRef delete_keys(StrRef doc, const StrRef *keys, const bool *nulls, int n, MemArena *arena)
{
    JsonNode *a = json_tree(doc, arena);
    if (!is_container(a)) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot delete from scalar");
    if (a->n == 0 || n == 0) return doc;
    JsonNode *c = node_new(arena, a->kind, a->n);
    for (uint32_t i = 0; i < a->n; i++) {
        bool drop = false;
        for (int k = 0; k < n && !drop; k++) {
            if (nulls && nulls[k]) continue;
            if (a->kind == JSON_OBJECT) drop = str_eq(a->keys[i], keys[k]);
            else drop = a->items[i]->kind == JSON_STRING && str_eq(a->items[i]->text, keys[k]);
        }
        if (!drop) node_push(c, a->keys ? a->keys[i] : (StrRef){0}, a->items[i]);
    }
    return jsonb_tree_text(c, arena);
}

static void k_delete_text(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef key = str_at(args[1], row);
        res_str(result)[row] = delete_keys(str_at(args[0], row), &key, NULL, 1, ctx->arena);
    }
}

static void k_delete_array(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        int n;
        bool *nulls;
        StrRef *keys = text_array(str_at(args[1], row), ctx->arena, &n, &nulls);
        res_str(result)[row] = delete_keys(str_at(args[0], row), keys, nulls, n, ctx->arena);
    }
}

static StrRef delete_index(StrRef doc, int32_t idx, MemArena *arena)
{
    JsonNode *a = json_tree(doc, arena);
    if (!is_container(a)) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot delete from scalar");
    if (a->kind == JSON_OBJECT)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot delete from object using integer index");
    if (a->n == 0) return doc;
    int64_t at = idx < 0 ? (int64_t)a->n + idx : idx;
    if (at < 0 || at >= a->n) return doc;
    JsonNode *c = node_new(arena, JSON_ARRAY, a->n);
    for (uint32_t i = 0; i < a->n; i++)
        if (i != (uint32_t)at) node_push(c, (StrRef){0}, a->items[i]);
    return jsonb_tree_text(c, arena);
}

static void k_delete_int(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row)
        res_str(result)[row] = delete_index(str_at(args[0], row), i32_at(args[1], row), ctx->arena);
}

/* ---------- setPath: jsonb_set, jsonb_insert, #- ---------- */

enum { P_REPLACE = 1, P_CREATE = 2, P_BEFORE = 4, P_AFTER = 8, P_DELETE = 16 };
#define P_CREATE_OR_INSERT (P_CREATE | P_BEFORE | P_AFTER)

typedef struct PathOp {
    const StrRef *path;
    const bool *nulls;
    int len;
    JsonNode *newval;
    int op;
    MemArena *arena;
} PathOp;

static JsonNode *set_path(const PathOp *p, JsonNode *n, int level);

static JsonNode *set_path_object(const PathOp *p, JsonNode *n, int level)
{
    bool last = level == p->len - 1;
    JsonNode *c = node_copy(p->arena, n, 1);
    int at = object_find(n, p->path[level]);
    if (at < 0) {
        if (last && (p->op & P_CREATE_OR_INSERT)) node_push(c, p->path[level], p->newval);
        return c;
    }
    if (!last) {
        c->items[at] = set_path(p, n->items[at], level + 1);
        return c;
    }
    if (p->op & (P_BEFORE | P_AFTER)) {
        ErrorData *e = err_begin(ERRCODE_INVALID_PARAMETER_VALUE);
        err_message(e, "cannot replace existing key");
        err_hint(e, "Try using the function jsonb_set to replace key value.");
        err_throw();
    }
    if (p->op & P_DELETE) {
        c->n = 0;
        for (uint32_t i = 0; i < n->n; i++)
            if ((int)i != at) node_push(c, n->keys[i], n->items[i]);
    } else {
        c->items[at] = p->newval;
    }
    return c;
}

/* The path element as an array index (22P02 when it is not an integer). */
static int64_t path_index(const PathOp *p, int level)
{
    StrRef s = p->path[level];
    char *txt = mem_strndup(p->arena, s.ptr, s.len), *bad;
    errno = 0;
    long long v = strtoll(txt, &bad, 10);
    if (bad == txt || *bad != '\0' || errno != 0 || v > INT_MAX || v < INT_MIN)
        err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION,
                  "path element at position %d is not an integer: \"%s\"", level + 1, txt);
    return v;
}

static JsonNode *set_path_array(const PathOp *p, JsonNode *n, int level)
{
    bool last = level == p->len - 1;
    int64_t nel = n->n, idx = path_index(p, level);
    if (idx < 0) idx = -idx > nel ? INT_MIN : nel + idx;
    if (idx > 0 && idx > nel) idx = nel;
    JsonNode *c = node_new(p->arena, JSON_ARRAY, n->n + 1);
    bool done = false;
    StrRef nokey = {0};
    if ((idx == INT_MIN || nel == 0) && last && (p->op & P_CREATE_OR_INSERT)) {
        node_push(c, nokey, p->newval);
        done = true;
    }
    for (int64_t i = 0; i < nel; i++) {
        JsonNode *e = n->items[i];
        if (i == idx && last) {
            if (p->op & (P_BEFORE | P_CREATE)) node_push(c, nokey, p->newval);
            if (p->op & (P_BEFORE | P_AFTER)) node_push(c, nokey, e);
            if (p->op & (P_AFTER | P_REPLACE)) node_push(c, nokey, p->newval);
            done = true;
        } else {
            node_push(c, nokey, i == idx ? set_path(p, e, level + 1) : e);
        }
        if ((p->op & P_CREATE_OR_INSERT) && !done && last && i == nel - 1)
            node_push(c, nokey, p->newval);
    }
    return c;
}

static JsonNode *set_path(const PathOp *p, JsonNode *n, int level)
{
    if (!is_container(n)) return n;   /* deeper than a scalar: unchanged */
    if (p->nulls[level])
        err_raise(ERRCODE_NULL_VALUE_NOT_ALLOWED, "path element at position %d is null", level + 1);
    return n->kind == JSON_OBJECT ? set_path_object(p, n, level) : set_path_array(p, n, level);
}

/* args: doc, path, [new value], [bool]; op chosen by the caller. */
static StrRef path_edit(const FuncCallCtx *ctx, Vector *const *args, uint32_t row, int op)
{
    StrRef doc = str_at(args[0], row);
    JsonNode *root = json_tree(doc, ctx->arena);
    if (!is_container(root))
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE,
                  op & P_DELETE ? "cannot delete path in scalar" : "cannot set path in scalar");
    int n;
    bool *nulls;
    StrRef *path = text_array(str_at(args[1], row), ctx->arena, &n, &nulls);
    if (n == 0) return doc;
    PathOp p = {path, nulls, n, NULL, op, ctx->arena};
    if (!(op & P_DELETE)) p.newval = json_tree(str_at(args[2], row), ctx->arena);
    return jsonb_tree_text(set_path(&p, root, 0), ctx->arena);
}

static void set_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int nargs)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        bool create = nargs < 4 || ((const bool *)args[3]->data)[args[3]->is_const ? 0 : row];
        res_str(result)[row] = path_edit(ctx, args, row, create ? P_CREATE : P_REPLACE);
    }
}
static void k_set3(const FuncCallCtx *c, Vector *const *a, Vector *r) { set_kernel(c, a, r, 3); }
static void k_set4(const FuncCallCtx *c, Vector *const *a, Vector *r) { set_kernel(c, a, r, 4); }

static void insert_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int nargs)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        bool after = nargs == 4 && ((const bool *)args[3]->data)[args[3]->is_const ? 0 : row];
        res_str(result)[row] = path_edit(ctx, args, row, after ? P_AFTER : P_BEFORE);
    }
}
static void k_insert3(const FuncCallCtx *c, Vector *const *a, Vector *r) { insert_kernel(c, a, r, 3); }
static void k_insert4(const FuncCallCtx *c, Vector *const *a, Vector *r) { insert_kernel(c, a, r, 4); }

static void k_delete_path(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row) res_str(result)[row] = path_edit(ctx, args, row, P_DELETE);
}

/* ---------- strip_nulls ---------- */

static JsonNode *strip_nulls(JsonNode *n, MemArena *arena)
{
    if (!is_container(n)) return n;
    JsonNode *c = node_new(arena, n->kind, n->n);
    for (uint32_t i = 0; i < n->n; i++) {
        if (n->kind == JSON_OBJECT && n->items[i]->kind == JSON_NULL) continue;
        node_push(c, n->keys ? n->keys[i] : (StrRef){0}, strip_nulls(n->items[i], arena));
    }
    return c;
}

static void k_jsonb_strip_nulls(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_FOR_ACTIVE_VALID(ctx, result, row)
        res_str(result)[row] = jsonb_tree_text(strip_nulls(json_tree(str_at(args[0], row), ctx->arena),
                                                           ctx->arena), ctx->arena);
}

/* json_strip_nulls keeps the json's member order and duplicates and prints
 * without spaces, as PostgreSQL's token-by-token rewrite. */
static void json_compact(StrRef doc, TextOut *out, MemArena *arena)
{
    JsonKind k = json_kind(doc);
    if (k != JSON_ARRAY && k != JSON_OBJECT) {
        size_t b = 0, e = doc.len;
        while (b < e && strchr(" \t\n\r", doc.ptr[b])) b++;
        while (e > b && strchr(" \t\n\r", doc.ptr[e - 1])) e--;
        text_out_append(out, doc.ptr + b, e - b);
        return;
    }
    text_out_char(out, k == JSON_OBJECT ? '{' : '[');
    size_t pos = 0;
    bool first = true;
    StrRef key, v;
    while (json_next(doc, &pos, &key, &v)) {
        if (k == JSON_OBJECT && json_kind(v) == JSON_NULL) continue;
        if (!first) text_out_char(out, ',');
        first = false;
        if (k == JSON_OBJECT) text_out_append(out, key.ptr, key.len), text_out_char(out, ':');
        json_compact(v, out, arena);
    }
    text_out_char(out, k == JSON_OBJECT ? '}' : ']');
}

static void k_json_strip_nulls(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        json_compact(str_at(args[0], row), &out, ctx->arena);
        res_str(result)[row] = text_out_finish(&out);
    }
}

/* ---------- builders over "any": to_json[b], json[b]_build_* ---------- */

/* Append the JSON form of args[k] at row (null for SQL NULL) to sb. */
static void append_arg(StrBuf *sb, const Vector *v, uint32_t row)
{
    Value val;
    if (!vec_is_valid(v, row)) {
        strbuf_append(sb, "null", 4);
        return;
    }
    vec_get_value(v, row, &val);
    json_append_value(v->type, &val, sb);
}

/* The text of sb as a result: json as built, jsonb through jsonb_in. */
static StrRef sb_result(StrBuf *sb, bool jsonb, MemArena *arena)
{
    if (jsonb) return jsonb_in(sb->data, sb->len, arena);
    return (StrRef){mem_strndup(arena, sb->data, sb->len), (uint32_t)sb->len};
}

static void to_json_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool jsonb)
{
    StrBuf sb;
    strbuf_init(&sb);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        TXT_FOR_ACTIVE_VALID(ctx, result, row) {
            strbuf_reset(&sb);
            append_arg(&sb, args[0], row);
            res_str(result)[row] = sb_result(&sb, jsonb, ctx->arena);
        }
        err_pop(&jmp);
    } else {
        strbuf_free(&sb);
        err_rethrow();
    }
    strbuf_free(&sb);
}
static void k_to_json(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_json_kernel(c, a, r, false); }
static void k_to_jsonb(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_json_kernel(c, a, r, true); }

static void build_array_row(StrBuf *sb, Vector *const *args, int n, uint32_t row)
{
    strbuf_append_char(sb, '[');
    for (int k = 0; k < n; k++) {
        if (k) strbuf_append(sb, ", ", 2);
        append_arg(sb, args[k], row);
    }
    strbuf_append_char(sb, ']');
}

/* Object keys: scalars only, never NULL (PostgreSQL's json_build_object). */
static void build_key(StrBuf *sb, const Vector *v, uint32_t row, int argno)
{
    uint32_t t = v->type.oid;
    if (!vec_is_valid(v, row)) {
        ErrorData *e = err_begin(ERRCODE_INVALID_PARAMETER_VALUE);
        err_message(e, "argument %d cannot be null", argno);
        err_hint(e, "Object keys should be text.");
        err_throw();
    }
    if (type_is_array(t) || t == TYPE_JSON || t == TYPE_JSONB)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE,
                  "key value must be scalar, not array, composite, or json");
    Value val;
    vec_get_value(v, row, &val);
    json_append_key(v->type, &val, sb);
}

static void build_object_row(StrBuf *sb, Vector *const *args, int n, uint32_t row, bool jsonb)
{
    strbuf_append_char(sb, '{');
    for (int k = 0; k + 1 < n; k += 2) {
        if (k) strbuf_append(sb, ", ", 2);
        build_key(sb, args[k], row, k + 1);
        strbuf_append(sb, jsonb ? ": " : " : ", jsonb ? 2 : 3);
        append_arg(sb, args[k + 1], row);
    }
    strbuf_append_char(sb, '}');
}

static void build_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int n,
                         bool object, bool jsonb)
{
    if (object && n % 2 != 0) {
        ErrorData *e = err_begin(ERRCODE_INVALID_PARAMETER_VALUE);
        err_message(e, "argument list must have even number of elements");
        err_hint(e, "The arguments of %s() must consist of alternating keys and values.",
                 jsonb ? "jsonb_build_object" : "json_build_object");
        err_throw();
    }
    StrBuf sb;
    strbuf_init(&sb);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (uint32_t i = 0; i < ctx->count; i++) {
            uint32_t row = ctx->sel ? ctx->sel[i] : i;
            strbuf_reset(&sb);
            if (object) build_object_row(&sb, args, n, row, jsonb);
            else build_array_row(&sb, args, n, row);
            res_str(result)[row] = sb_result(&sb, jsonb, ctx->arena);
        }
        err_pop(&jmp);
    } else {
        strbuf_free(&sb);
        err_rethrow();
    }
    strbuf_free(&sb);
}

static void empty_kernel(const FuncCallCtx *ctx, Vector *result, const char *text)
{
    for (uint32_t i = 0; i < ctx->count; i++)
        res_str(result)[ctx->sel ? ctx->sel[i] : i] = (StrRef){text, 2};
}
static void k_empty_array(const FuncCallCtx *c, Vector *const *a, Vector *r) { (void)a; empty_kernel(c, r, "[]"); }
static void k_empty_object(const FuncCallCtx *c, Vector *const *a, Vector *r) { (void)a; empty_kernel(c, r, "{}"); }

/* ---------- variadic instances (see funcs_text.c) ---------- */

#define JARITIES(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
    X(14) X(15) X(16)
#define X_KERNELS(N)                                                                         \
    static void k_jba_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)                \
    { build_kernel(c, a, r, N, false, false); }                                             \
    static void k_jbba_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)               \
    { build_kernel(c, a, r, N, false, true); }                                              \
    static void k_jbo_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)                \
    { build_kernel(c, a, r, N, true, false); }                                              \
    static void k_jbbo_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)               \
    { build_kernel(c, a, r, N, true, true); }                                               \
    static void k_jep_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)                \
    { extract_kernel(c, a, r, N, false); }                                                  \
    static void k_jept_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)               \
    { extract_kernel(c, a, r, N, true); }
JARITIES(X_KERNELS)
#undef X_KERNELS

#define VD(nm, a0, a1, ret, kern, id) {(nm), ((a1) ? 2 : 1), {(a0), (a1), 0, 0}, (ret), FUNC_VARIADIC, (kern), (id)}
#define X_INST(N)                                                                            \
    [N] = {VD("json_build_array", ANY, 0, JS, k_jba_##N, 3198),                             \
           VD("jsonb_build_array", ANY, 0, JB, k_jbba_##N, 3271),                           \
           VD("json_build_object", ANY, 0, JS, k_jbo_##N, 3200),                            \
           VD("jsonb_build_object", ANY, 0, JB, k_jbbo_##N, 3273),                          \
           VD("json_extract_path", JS, TX, JS, k_jep_##N, 3951),                            \
           VD("jsonb_extract_path", JB, TX, JB, k_jep_##N, 3217),                           \
           VD("json_extract_path_text", JS, TX, TX, k_jept_##N, 3953),                      \
           VD("jsonb_extract_path_text", JB, TX, TX, k_jept_##N, 3940)},
#define JSON_VARIADICS 8
static const FuncDesc json_inst[FUNC_MAX_ARGS * 4 + 1][JSON_VARIADICS] = {JARITIES(X_INST)};

const FuncDesc *exec__json_variadic_instance(const FuncDesc *f, int nargs)
{
    if (nargs < 1 || nargs > FUNC_MAX_ARGS * 4) return NULL;
    for (int k = 0; k < JSON_VARIADICS; k++)
        if (json_inst[nargs][k].oid == f->oid && json_inst[nargs][k].kernel)
            return &json_inst[nargs][k];
    return NULL;
}

/* ---------- the table ---------- */

#define J2(nm, a0, a1, ret, kern, id) {(nm), 2, {(a0), (a1), 0, 0}, (ret), FUNC_STRICT, (kern), (id)}
#define J1(nm, a0, ret, kern, id) {(nm), 1, {(a0), 0, 0, 0}, (ret), FUNC_STRICT, (kern), (id)}

const FuncDesc exec__funcs_json[] = {
    J2("->", JS, TX, JS, k_field, 3947), J2("->", JS, I4, JS, k_elem, 3949),
    J2("->", JB, TX, JB, k_field, 3478), J2("->", JB, I4, JB, k_elem_b, 3215),
    J2("->>", JS, TX, TX, k_field_text, 3948), J2("->>", JS, I4, TX, k_elem_text, 3950),
    J2("->>", JB, TX, TX, k_field_text, 3214), J2("->>", JB, I4, TX, k_elem_text_b, 3216),
    J2("json_object_field", JS, TX, JS, k_field, 3947),
    J2("json_object_field_text", JS, TX, TX, k_field_text, 3948),
    J2("jsonb_object_field", JB, TX, JB, k_field, 3478),
    J2("jsonb_object_field_text", JB, TX, TX, k_field_text, 3214),
    J2("json_array_element", JS, I4, JS, k_elem, 3949),
    J2("json_array_element_text", JS, I4, TX, k_elem_text, 3950),
    J2("jsonb_array_element", JB, I4, JB, k_elem_b, 3215),
    J2("jsonb_array_element_text", JB, I4, TX, k_elem_text_b, 3216),
    J2("#>", JS, TA, JS, k_path, 3951), J2("#>", JB, TA, JB, k_path, 3217),
    J2("#>>", JS, TA, TX, k_path_text, 3953), J2("#>>", JB, TA, TX, k_path_text, 3940),
    J2("?", JB, TX, BO, k_exists, 4047), J2("jsonb_exists", JB, TX, BO, k_exists, 4047),
    J2("?|", JB, TA, BO, k_exists_any, 4048), J2("jsonb_exists_any", JB, TA, BO, k_exists_any, 4048),
    J2("?&", JB, TA, BO, k_exists_all, 4049), J2("jsonb_exists_all", JB, TA, BO, k_exists_all, 4049),
    J2("@>", JB, JB, BO, k_contains, 4046), J2("jsonb_contains", JB, JB, BO, k_contains, 4046),
    J2("<@", JB, JB, BO, k_contained, 4050), J2("jsonb_contained", JB, JB, BO, k_contained, 4050),
    J2("||", JB, JB, JB, k_concat, 3301), J2("jsonb_concat", JB, JB, JB, k_concat, 3301),
    J2("-", JB, TX, JB, k_delete_text, 3302), J2("-", JB, I4, JB, k_delete_int, 3303),
    J2("-", JB, TA, JB, k_delete_array, 3343),
    J2("jsonb_delete", JB, TX, JB, k_delete_text, 3302), J2("jsonb_delete", JB, I4, JB, k_delete_int, 3303),
    J2("#-", JB, TA, JB, k_delete_path, 3304), J2("jsonb_delete_path", JB, TA, JB, k_delete_path, 3304),
    {"jsonb_set", 3, {JB, TA, JB, 0}, JB, FUNC_STRICT, k_set3, 3305},
    {"jsonb_set", 4, {JB, TA, JB, BO}, JB, FUNC_STRICT, k_set4, 3305},
    {"jsonb_insert", 3, {JB, TA, JB, 0}, JB, FUNC_STRICT, k_insert3, 3579},
    {"jsonb_insert", 4, {JB, TA, JB, BO}, JB, FUNC_STRICT, k_insert4, 3579},
    J1("jsonb_strip_nulls", JB, JB, k_jsonb_strip_nulls, 3262),
    J1("json_strip_nulls", JS, JS, k_json_strip_nulls, 3261),
    J1("jsonb_pretty", JB, TX, k_pretty, 3306),
    J1("json_typeof", JS, TX, k_typeof, 3968), J1("jsonb_typeof", JB, TX, k_typeof, 3210),
    J1("json_array_length", JS, I4, k_array_length, 3956),
    J1("jsonb_array_length", JB, I4, k_array_length, 3207),
    J1("to_json", FUNC_ARG_ANYELEMENT, JS, k_to_json, 3176),
    J1("to_jsonb", FUNC_ARG_ANYELEMENT, JB, k_to_jsonb, 3787),
    {"json_build_array", 0, {0}, JS, 0, k_empty_array, 3199},
    {"jsonb_build_array", 0, {0}, JB, 0, k_empty_array, 3272},
    {"json_build_object", 0, {0}, JS, 0, k_empty_object, 3201},
    {"jsonb_build_object", 0, {0}, JB, 0, k_empty_object, 3274},
    VD("json_build_array", ANY, 0, JS, k_jba_1, 3198),
    VD("jsonb_build_array", ANY, 0, JB, k_jbba_1, 3271),
    VD("json_build_object", ANY, 0, JS, k_jbo_1, 3200),
    VD("jsonb_build_object", ANY, 0, JB, k_jbbo_1, 3273),
    VD("json_extract_path", JS, TX, JS, k_jep_2, 3951),
    VD("jsonb_extract_path", JB, TX, JB, k_jep_2, 3217),
    VD("json_extract_path_text", JS, TX, TX, k_jept_2, 3953),
    VD("jsonb_extract_path_text", JB, TX, TX, k_jept_2, 3940),
};
const int exec__funcs_json_count = (int)(sizeof exec__funcs_json / sizeof exec__funcs_json[0]);
