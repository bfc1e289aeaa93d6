/*
 * funcs_array.c — array subscripts and slices, and PostgreSQL's array
 * functions over one-dimensional arrays: array_length, array_lower,
 * array_upper, array_ndims, array_dims, cardinality, array_position(s),
 * array_remove, array_replace, array_append, array_prepend, array_cat,
 * array_to_string, string_to_array; the || operators (anyarray ||
 * anyarray for every array type, anyarray || anyelement and anyelement ||
 * anyarray for non-string elements: see ARRAY_ELEM_CONCAT).
 *
 * PostgreSQL declares these over anyarray/anyelement; the registry has no
 * polymorphic types, so each is listed once per array type (ARRAY_TYPES)
 * with the same generic kernel, which reads elements through array_view /
 * array_get and writes results typed by ctx->result_type. Subscripts are
 * the functions "[]" (array, int4) and "[:]" (array, int4 lower, int4
 * upper) that the planner builds for a[i] and a[i:j] (an omitted bound is
 * INT32_MIN / INT32_MAX); those names cannot be written as calls.
 * Semantics as PostgreSQL: a subscript out of range or NULL gives NULL;
 * slices are clamped to the array's bounds and renumbered from 1, empty
 * when nothing is left; dimensions other than 1 give NULL.
 *
 * Row loops with direct calls; results are built in the batch arena.
 */
#define STRATA_EXECUTOR_INTERNAL
#include <stdio.h>
#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "common/types.h"
#include "executor/exec_int.h"
#include "executor/funcs.h"
#include "executor/kernels_text.h"

/* Active rows whose result is valid (strict functions). */
#define FOR_ROWS(ctx, result, row) TXT_FOR_ACTIVE_VALID(ctx, result, row)
/* Every active row (non-strict functions handle NULLs themselves). */
#define FOR_ALL(ctx, row) \
    for (uint32_t i_ = 0, row = 0; i_ < (ctx)->count && ((row = (ctx)->sel ? (ctx)->sel[i_] : i_), 1); i_++)

static inline StrRef blob_at(Vector *const *a, int k, uint32_t row)
{
    return ((const StrRef *)a[k]->data)[a[k]->is_const ? 0 : row];
}
static inline int32_t i4_at(Vector *const *a, int k, uint32_t row)
{
    return ((const int32_t *)a[k]->data)[a[k]->is_const ? 0 : row];
}

/* A growable element buffer for building result arrays (batch arena). */
typedef struct ElemBuf {
    Value *v;
    uint32_t n, cap;
    MemArena *arena;
} ElemBuf;

static void eb_push(ElemBuf *b, const Value *x)
{
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 16;
        Value *v = mem_alloc(b->arena, sizeof(Value) * cap);
        if (b->n)
            memcpy(v, b->v, sizeof(Value) * b->n);
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = *x;
}

static SqlType elem_type_of(SqlType array_type)
{
    return SQLTYPE(type_element_of(array_type.oid));
}

/* ---------- a[i], a[i:j] ---------- */

static void k_subscript(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        int64_t i = (int64_t)i4_at(args, 1, row) - av.lbound;
        Value x = {.is_null = true};
        if (i >= 0 && i < av.nelems)
            array_get(&av, (uint32_t)i, &x);
        vec_set_value(result, row, &x);
    }
}

static void k_slice(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    ElemBuf eb = {NULL, 0, 0, ctx->arena};
    SqlType et = elem_type_of(ctx->result_type);
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        int64_t lo = i4_at(args, 1, row), hi = i4_at(args, 2, row);
        int64_t ub = (int64_t)av.lbound + av.nelems - 1;
        if (lo < av.lbound) lo = av.lbound;
        if (hi > ub) hi = ub;
        eb.n = 0;
        for (int64_t k = lo; k <= hi; k++) {
            Value x;
            array_get(&av, (uint32_t)(k - av.lbound), &x);
            eb_push(&eb, &x);
        }
        ((StrRef *)result->data)[row] = array_build(et, 1, eb.n, eb.v, ctx->arena);
    }
}

/* ---------- dimensions ---------- */

/* which: 'l' array_length, 'o' array_lower, 'u' array_upper */
static void dim_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, char which)
{
    int32_t *r = result->data;
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        if (i4_at(args, 1, row) != 1 || av.nelems == 0) {
            vec_set_null(result, row);
            continue;
        }
        r[row] = which == 'l' ? (int32_t)av.nelems
               : which == 'o' ? av.lbound : (int32_t)(av.lbound + (int64_t)av.nelems - 1);
    }
}
static void k_length(const FuncCallCtx *c, Vector *const *a, Vector *r) { dim_kernel(c, a, r, 'l'); }
static void k_lower(const FuncCallCtx *c, Vector *const *a, Vector *r) { dim_kernel(c, a, r, 'o'); }
static void k_upper(const FuncCallCtx *c, Vector *const *a, Vector *r) { dim_kernel(c, a, r, 'u'); }

static void k_cardinality(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int32_t *r = result->data;
    FOR_ROWS(ctx, result, row) r[row] = (int32_t)array_view(blob_at(args, 0, row)).nelems;
}

static void k_ndims(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int32_t *r = result->data;
    FOR_ROWS(ctx, result, row) {
        if (array_view(blob_at(args, 0, row)).nelems == 0)
            vec_set_null(result, row);
        else
            r[row] = 1;
    }
}

static void k_dims(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        if (av.nelems == 0) {
            vec_set_null(result, row);
            continue;
        }
        char *buf = mem_alloc(ctx->arena, 32);
        int n = snprintf(buf, 32, "[%d:%lld]", av.lbound, (long long)av.lbound + av.nelems - 1);
        ((StrRef *)result->data)[row] = (StrRef){buf, (uint32_t)n};
    }
}

/* ---------- searching and editing (IS NOT DISTINCT FROM element equality) ---------- */

static bool elem_equal(SqlType et, const Value *a, const Value *b)
{
    if (a->is_null || b->is_null)
        return a->is_null && b->is_null;
    return type_compare(et, a, b) == 0;
}

/* array_position(a, x[, start]); not strict in x (NULL finds a NULL). */
static void position_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool has_start)
{
    int32_t *r = result->data;
    SqlType et = SQLTYPE(type_element_of(args[0]->type.oid));
    FOR_ALL(ctx, row) {
        if (!vec_is_valid(args[0], row) || (has_start && !vec_is_valid(args[2], row))) {
            vec_set_null(result, row);
            continue;
        }
        ArrayView av = array_view(blob_at(args, 0, row));
        Value x, e;
        vec_get_value(args[1], row, &x);
        int64_t from = has_start ? (int64_t)i4_at(args, 2, row) - av.lbound : 0;
        if (from < 0) from = 0;
        bool found = false;
        for (uint32_t k = (uint32_t)from; k < av.nelems && from < av.nelems; k++) {
            array_get(&av, k, &e);
            if (elem_equal(et, &e, &x)) {
                r[row] = (int32_t)(k + av.lbound);
                found = true;
                break;
            }
        }
        if (!found)
            vec_set_null(result, row);
    }
}
static void k_position2(const FuncCallCtx *c, Vector *const *a, Vector *r) { position_kernel(c, a, r, false); }
static void k_position3(const FuncCallCtx *c, Vector *const *a, Vector *r) { position_kernel(c, a, r, true); }

static void k_positions(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    ElemBuf eb = {NULL, 0, 0, ctx->arena};
    SqlType et = SQLTYPE(type_element_of(args[0]->type.oid));
    FOR_ALL(ctx, row) {
        if (!vec_is_valid(args[0], row)) {
            vec_set_null(result, row);
            continue;
        }
        ArrayView av = array_view(blob_at(args, 0, row));
        Value x, e;
        vec_get_value(args[1], row, &x);
        eb.n = 0;
        for (uint32_t k = 0; k < av.nelems; k++) {
            array_get(&av, k, &e);
            if (elem_equal(et, &e, &x)) {
                Value p = {.is_null = false};
                p.u.i32 = (int32_t)(k + av.lbound);
                eb_push(&eb, &p);
            }
        }
        ((StrRef *)result->data)[row] = array_build(SQLTYPE(TYPE_INT4), 1, eb.n, eb.v, ctx->arena);
    }
}

/* array_remove(a, x) / array_replace(a, x, y): not strict in x, y. */
static void edit_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool replace)
{
    ElemBuf eb = {NULL, 0, 0, ctx->arena};
    SqlType et = elem_type_of(ctx->result_type);
    FOR_ALL(ctx, row) {
        if (!vec_is_valid(args[0], row)) {
            vec_set_null(result, row);
            continue;
        }
        ArrayView av = array_view(blob_at(args, 0, row));
        Value x, y, e;
        vec_get_value(args[1], row, &x);
        if (replace)
            vec_get_value(args[2], row, &y);
        eb.n = 0;
        for (uint32_t k = 0; k < av.nelems; k++) {
            array_get(&av, k, &e);
            bool eq = elem_equal(et, &e, &x);
            if (!eq)
                eb_push(&eb, &e);
            else if (replace)
                eb_push(&eb, &y);
        }
        int32_t lb = replace || eb.n == av.nelems ? av.lbound : 1;
        ((StrRef *)result->data)[row] = array_build(et, eb.n ? lb : 1, eb.n, eb.v, ctx->arena);
    }
}
static void k_remove(const FuncCallCtx *c, Vector *const *a, Vector *r) { edit_kernel(c, a, r, false); }
static void k_replace(const FuncCallCtx *c, Vector *const *a, Vector *r) { edit_kernel(c, a, r, true); }

/* array_append(a, x), array_prepend(x, a), array_cat(a, b): not strict; a
 * NULL array counts as empty (array_cat of two NULLs is NULL). */
static void concat_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, char how)
{
    ElemBuf eb = {NULL, 0, 0, ctx->arena};
    SqlType et = elem_type_of(ctx->result_type);
    FOR_ALL(ctx, row) {
        const Vector *arr1 = how == 'p' ? args[1] : args[0];
        const Vector *arr2 = how == 'c' ? args[1] : NULL;
        bool null1 = !vec_is_valid(arr1, row), null2 = arr2 == NULL || !vec_is_valid(arr2, row);
        if (how == 'c' && null1 && null2) {
            vec_set_null(result, row);
            continue;
        }
        eb.n = 0;
        int32_t lb = 1;
        Value x, e;
        if (how == 'p') {
            vec_get_value(args[0], row, &x);
            eb_push(&eb, &x);
        }
        if (!null1) {
            ArrayView av = array_view(((const StrRef *)arr1->data)[arr1->is_const ? 0 : row]);
            if (how != 'p' && av.nelems)
                lb = av.lbound;
            if (how == 'p' && av.nelems)
                lb = av.lbound;   /* PostgreSQL keeps the input's lower bound */
            for (uint32_t k = 0; k < av.nelems; k++) {
                array_get(&av, k, &e);
                eb_push(&eb, &e);
            }
        }
        if (how == 'c' && !null2) {
            ArrayView av = array_view(((const StrRef *)arr2->data)[arr2->is_const ? 0 : row]);
            if (null1 || eb.n == 0)
                lb = av.nelems ? av.lbound : 1;
            for (uint32_t k = 0; k < av.nelems; k++) {
                array_get(&av, k, &e);
                eb_push(&eb, &e);
            }
        }
        if (how == 'a') {
            vec_get_value(args[1], row, &x);
            eb_push(&eb, &x);
        }
        ((StrRef *)result->data)[row] = array_build(et, eb.n ? lb : 1, eb.n, eb.v, ctx->arena);
    }
}
static void k_append(const FuncCallCtx *c, Vector *const *a, Vector *r) { concat_kernel(c, a, r, 'a'); }
static void k_prepend(const FuncCallCtx *c, Vector *const *a, Vector *r) { concat_kernel(c, a, r, 'p'); }
static void k_cat(const FuncCallCtx *c, Vector *const *a, Vector *r) { concat_kernel(c, a, r, 'c'); }

/* ---------- array_to_string / string_to_array ---------- */

static void to_string_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool has_null)
{
    SqlType et = SQLTYPE(type_element_of(args[0]->type.oid));
    StrBuf sb;
    strbuf_init(&sb);
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        StrRef d = blob_at(args, 1, row);
        StrRef ns = has_null ? blob_at(args, 2, row) : (StrRef){NULL, 0};
        sb.len = 0;
        bool first = true;
        for (uint32_t k = 0; k < av.nelems; k++) {
            Value e;
            array_get(&av, k, &e);
            if (e.is_null && !has_null)
                continue;
            if (!first)
                strbuf_append(&sb, d.ptr, d.len);
            first = false;
            if (e.is_null)
                strbuf_append(&sb, ns.ptr, ns.len);
            else
                type_output(et, &e, NULL, &sb);
        }
        char *out = mem_alloc(ctx->arena, sb.len ? sb.len : 1);
        if (sb.len)
            memcpy(out, sb.data, sb.len);
        ((StrRef *)result->data)[row] = (StrRef){out, (uint32_t)sb.len};
    }
    strbuf_free(&sb);
}
static void k_to_string2(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_string_kernel(c, a, r, false); }
static void k_to_string3(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_string_kernel(c, a, r, true); }

/* string_to_array(s, delim[, null_str]): PostgreSQL's rules (a NULL
 * delimiter splits into characters, an empty one keeps the string whole,
 * an empty string gives an empty array; a NULL string gives NULL). */
static void from_string_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool has_null)
{
    ElemBuf eb = {NULL, 0, 0, ctx->arena};
    FOR_ALL(ctx, row) {
        if (!vec_is_valid(args[0], row)) {
            vec_set_null(result, row);
            continue;
        }
        StrRef s = blob_at(args, 0, row);
        bool dnull = !vec_is_valid(args[1], row);
        StrRef d = dnull ? (StrRef){NULL, 0} : blob_at(args, 1, row);
        bool has_ns = has_null && vec_is_valid(args[2], row);
        StrRef ns = has_ns ? blob_at(args, 2, row) : (StrRef){NULL, 0};
        eb.n = 0;
        uint32_t from = 0;
        while (s.len > 0) {
            uint32_t end = s.len, next = s.len + 1;
            if (dnull) {
                end = from + txt_char_at(s, from);
                next = end;
            } else if (d.len > 0) {
                for (uint32_t k = from; k + d.len <= s.len; k++)
                    if (memcmp(s.ptr + k, d.ptr, d.len) == 0) {
                        end = k;
                        next = k + d.len;
                        break;
                    }
            }
            Value x = {.is_null = false};
            x.u.str = (StrRef){s.ptr + from, end - from};
            if (has_ns && x.u.str.len == ns.len && memcmp(x.u.str.ptr, ns.ptr, ns.len) == 0)
                x.is_null = true;
            eb_push(&eb, &x);
            if (next > s.len || (dnull && next == s.len))
                break;
            from = next;
        }
        ((StrRef *)result->data)[row] = array_build(SQLTYPE(TYPE_TEXT), 1, eb.n, eb.v, ctx->arena);
    }
}
static void k_from_string2(const FuncCallCtx *c, Vector *const *a, Vector *r) { from_string_kernel(c, a, r, false); }
static void k_from_string3(const FuncCallCtx *c, Vector *const *a, Vector *r) { from_string_kernel(c, a, r, true); }

/* ---------- the table ---------- */

#define ARRAY_TYPES(X) \
    X(TYPE_BOOL_ARRAY, TYPE_BOOL) X(TYPE_INT2_ARRAY, TYPE_INT2) X(TYPE_INT4_ARRAY, TYPE_INT4) \
    X(TYPE_INT8_ARRAY, TYPE_INT8) X(TYPE_FLOAT4_ARRAY, TYPE_FLOAT4) X(TYPE_FLOAT8_ARRAY, TYPE_FLOAT8) \
    X(TYPE_NUMERIC_ARRAY, TYPE_NUMERIC) X(TYPE_TEXT_ARRAY, TYPE_TEXT) X(TYPE_VARCHAR_ARRAY, TYPE_VARCHAR) \
    X(TYPE_BPCHAR_ARRAY, TYPE_BPCHAR) X(TYPE_DATE_ARRAY, TYPE_DATE) X(TYPE_TIME_ARRAY, TYPE_TIME) \
    X(TYPE_TIMESTAMP_ARRAY, TYPE_TIMESTAMP) X(TYPE_TIMESTAMPTZ_ARRAY, TYPE_TIMESTAMPTZ) \
    X(TYPE_INTERVAL_ARRAY, TYPE_INTERVAL) X(TYPE_UUID_ARRAY, TYPE_UUID) X(TYPE_JSONB_ARRAY, TYPE_JSONB) \
    X(TYPE_JSON_ARRAY, TYPE_JSON) X(TYPE_BYTEA_ARRAY, TYPE_BYTEA) X(TYPE_NAME_ARRAY, TYPE_NAME) \
    X(TYPE_OID_ARRAY, TYPE_OID) X(TYPE_CHAR_ARRAY, TYPE_CHAR)

#define S FUNC_STRICT
#define I4 TYPE_INT4
#define TX TYPE_TEXT
#define ARRAY_FUNCS(A, E) \
    {"[]", 2, {A, I4, 0, 0}, E, S, k_subscript, 0}, \
    {"[:]", 3, {A, I4, I4, 0}, A, S, k_slice, 0}, \
    {"array_length", 2, {A, I4, 0, 0}, I4, S, k_length, 2176}, \
    {"array_lower", 2, {A, I4, 0, 0}, I4, S, k_lower, 2091}, \
    {"array_upper", 2, {A, I4, 0, 0}, I4, S, k_upper, 2092}, \
    {"array_ndims", 1, {A, 0, 0, 0}, I4, S, k_ndims, 748}, \
    {"array_dims", 1, {A, 0, 0, 0}, TX, S, k_dims, 747}, \
    {"cardinality", 1, {A, 0, 0, 0}, I4, S, k_cardinality, 3179}, \
    {"array_position", 2, {A, E, 0, 0}, I4, 0, k_position2, 3277}, \
    {"array_position", 3, {A, E, I4, 0}, I4, 0, k_position3, 3278}, \
    {"array_positions", 2, {A, E, 0, 0}, TYPE_INT4_ARRAY, 0, k_positions, 3279}, \
    {"array_remove", 2, {A, E, 0, 0}, A, 0, k_remove, 3167}, \
    {"array_replace", 3, {A, E, E, 0}, A, 0, k_replace, 3168}, \
    {"array_append", 2, {A, E, 0, 0}, A, 0, k_append, 378}, \
    {"array_prepend", 2, {E, A, 0, 0}, A, 0, k_prepend, 379}, \
    {"array_cat", 2, {A, A, 0, 0}, A, 0, k_cat, 383}, \
    {"||", 2, {A, A, 0, 0}, A, 0, k_cat, 383}, \
    {"array_to_string", 2, {A, TX, 0, 0}, TX, S, k_to_string2, 395}, \
    {"array_to_string", 3, {A, TX, TX, 0}, TX, S, k_to_string3, 384},

/*
 * anyarray || anyelement and anyelement || anyarray. Not for string
 * elements: the registry lists polymorphic operators per type, so
 * text || text[] would count as an exact match for `textcol || 'x'` (the
 * literal read as an array) where PostgreSQL, for which a polymorphic
 * argument never matches exactly, picks text || text.
 */
#define ARRAY_ELEM_CONCAT(A, E) \
    {"||", 2, {A, E, 0, 0}, A, 0, k_append, 378}, \
    {"||", 2, {E, A, 0, 0}, A, 0, k_prepend, 379},
#define ARRAY_NONSTRING_TYPES(X) \
    X(TYPE_BOOL_ARRAY, TYPE_BOOL) X(TYPE_INT2_ARRAY, TYPE_INT2) X(TYPE_INT4_ARRAY, TYPE_INT4) \
    X(TYPE_INT8_ARRAY, TYPE_INT8) X(TYPE_FLOAT4_ARRAY, TYPE_FLOAT4) X(TYPE_FLOAT8_ARRAY, TYPE_FLOAT8) \
    X(TYPE_NUMERIC_ARRAY, TYPE_NUMERIC) X(TYPE_DATE_ARRAY, TYPE_DATE) X(TYPE_TIME_ARRAY, TYPE_TIME) \
    X(TYPE_TIMESTAMP_ARRAY, TYPE_TIMESTAMP) X(TYPE_TIMESTAMPTZ_ARRAY, TYPE_TIMESTAMPTZ) \
    X(TYPE_INTERVAL_ARRAY, TYPE_INTERVAL) X(TYPE_UUID_ARRAY, TYPE_UUID) X(TYPE_JSONB_ARRAY, TYPE_JSONB) \
    X(TYPE_JSON_ARRAY, TYPE_JSON) X(TYPE_BYTEA_ARRAY, TYPE_BYTEA) X(TYPE_OID_ARRAY, TYPE_OID)

const FuncDesc exec__funcs_array[] = {
    ARRAY_TYPES(ARRAY_FUNCS)
    ARRAY_NONSTRING_TYPES(ARRAY_ELEM_CONCAT)
    {"string_to_array", 2, {TX, TX, 0, 0}, TYPE_TEXT_ARRAY, 0, k_from_string2, 394},
    {"string_to_array", 3, {TX, TX, TX, 0}, TYPE_TEXT_ARRAY, 0, k_from_string3, 376},
};
const int exec__funcs_array_count = (int)(sizeof exec__funcs_array / sizeof exec__funcs_array[0]);
