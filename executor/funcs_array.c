/*
 * funcs_array.c — array subscripts and slices, PostgreSQL's array functions
 * (array_length, array_lower, array_upper, array_ndims, array_dims,
 * cardinality, array_position(s), array_remove, array_replace,
 * array_append, array_prepend, array_cat, array_to_string,
 * string_to_array), the || operators (anyarray || anyarray for every array
 * type, anyarray || anyelement and anyelement || anyarray for non-string
 * elements: see ARRAY_ELEM_CONCAT), comparison and containment operators,
 * and the kernels of casts between array types and to/from text.
 *
 * PostgreSQL declares these over anyarray/anyelement; the registry has no
 * polymorphic types, so each is listed once per array type (ARRAY_TYPES)
 * with the same generic kernel, which reads elements through array_view /
 * array_get and writes results typed by ctx->result_type. Subscripts are
 * the functions "[]" (array, int4) and "[:]" (array, int4 lower, int4
 * upper) that the planner builds for a[i] and a[i:j] (an omitted bound is
 * INT32_MIN / INT32_MAX), and "[][]" / "[:][:]" with int4[] arguments for
 * several subscripts; those names cannot be written as calls.
 * Semantics as PostgreSQL: a subscript out of range or NULL gives NULL;
 * slices are clamped to the array's bounds and renumbered from 1, empty
 * when nothing is left; a subscript count other than the array's number
 * of dimensions gives NULL (an empty array for a slice with too many).
 * Arrays have 0..6 dimensions (common/array.h); elements are walked in
 * storage (row-major) order.
 *
 * Row loops with direct calls; results are built in the batch arena. The
 * array casts convert all elements of a batch with one call of the element
 * cast's kernel per VEC_CAPACITY elements.
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

/* ---------- a[i], a[i:j], a[i][j], a[i:j][k:l] ---------- */

static void k_subscript(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        int64_t i = (int64_t)i4_at(args, 1, row) - av.lbound;
        Value x = {.is_null = true};
        if (av.ndim == 1 && i >= 0 && i < av.nelems)   /* wrong subscript count: NULL */
            array_get(&av, (uint32_t)i, &x);
        vec_set_value(result, row, &x);
    }
}

/* Flat index of subscripts sub[0..ndim) in av, or -1 when out of range. */
static int64_t flat_index(const ArrayView *av, const int32_t *sub)
{
    int64_t k = 0;
    for (int d = 0; d < av->ndim; d++) {
        int64_t i = (int64_t)sub[d] - av->lbs[d];
        if (i < 0 || i >= av->dims[d])
            return -1;
        k = k * av->dims[d] + i;
    }
    return k;
}

/* a[s1][s2]...: "[][]" (array, int4[] of subscripts); NULL when the count
 * differs from the array's dimensions or a subscript is NULL/out of range. */
static void k_subscript_md(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row)), sv = array_view(blob_at(args, 1, row));
        Value x = {.is_null = true};
        int32_t sub[ARRAY_MAX_DIMS];
        bool ok = av.ndim > 0 && sv.nelems == (uint32_t)av.ndim && sv.nulls == NULL;
        for (int d = 0; ok && d < av.ndim; d++)
            memcpy(&sub[d], sv.data + 4 * (size_t)d, 4);
        int64_t k = ok ? flat_index(&av, sub) : -1;
        if (k >= 0)
            array_get(&av, (uint32_t)k, &x);
        vec_set_value(result, row, &x);
    }
}

/* The slice lo[d]..hi[d] of each of the first nsub dimensions (the others
 * whole) as PostgreSQL's array_get_slice: bounds clamped to the array,
 * result renumbered from 1, empty when a range is empty or nsub > ndim. */
static StrRef slice_one(SqlType et, const ArrayView *av, int nsub, const int64_t *lo_in,
                        const int64_t *hi_in, ElemBuf *eb)
{
    int32_t dims[ARRAY_MAX_DIMS], lbs[ARRAY_MAX_DIMS], idx[ARRAY_MAX_DIMS];
    int64_t lo[ARRAY_MAX_DIMS];
    uint64_t n = 1;
    eb->n = 0;
    if (av->ndim == 0 || nsub > av->ndim)
        return array_build(et, 1, 0, NULL, eb->arena);
    for (int d = 0; d < av->ndim; d++) {
        int64_t l = d < nsub ? lo_in[d] : av->lbs[d], h = d < nsub ? hi_in[d] : (int64_t)av->lbs[d] + av->dims[d] - 1;
        if (l < av->lbs[d]) l = av->lbs[d];
        if (h > (int64_t)av->lbs[d] + av->dims[d] - 1) h = (int64_t)av->lbs[d] + av->dims[d] - 1;
        if (h < l)
            return array_build(et, 1, 0, NULL, eb->arena);
        lo[d] = l - av->lbs[d];
        dims[d] = (int32_t)(h - l + 1);
        lbs[d] = 1;
        idx[d] = 0;
        n *= (uint64_t)dims[d];
    }
    for (uint64_t k = 0; k < n; k++) {
        int64_t flat = 0;
        Value x;
        for (int d = 0; d < av->ndim; d++)
            flat = flat * av->dims[d] + lo[d] + idx[d];
        array_get(av, (uint32_t)flat, &x);
        eb_push(eb, &x);
        for (int d = av->ndim - 1; d >= 0 && ++idx[d] == dims[d]; d--)
            idx[d] = 0;
    }
    return array_build_md(et, av->ndim, dims, lbs, eb->n, eb->v, eb->arena);
}

static void k_slice(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    ElemBuf eb = {NULL, 0, 0, ctx->arena};
    SqlType et = elem_type_of(ctx->result_type);
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        int64_t lo = i4_at(args, 1, row), hi = i4_at(args, 2, row);
        ((StrRef *)result->data)[row] = slice_one(et, &av, 1, &lo, &hi, &eb);
    }
}

/* a[l1:u1][l2:u2]...: "[:][:]" (array, int4[] lower, int4[] upper); the
 * planner writes a plain subscript i of a slice as 1:i, an omitted bound
 * as INT32_MIN / INT32_MAX. A NULL bound gives NULL, as PostgreSQL. */
static void k_slice_md(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    ElemBuf eb = {NULL, 0, 0, ctx->arena};
    SqlType et = elem_type_of(ctx->result_type);
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        ArrayView lv = array_view(blob_at(args, 1, row)), uv = array_view(blob_at(args, 2, row));
        int64_t lo[ARRAY_MAX_DIMS], hi[ARRAY_MAX_DIMS];
        int nsub = (int)lv.nelems;
        if (lv.nulls || uv.nulls || nsub > ARRAY_MAX_DIMS || uv.nelems != lv.nelems) {
            vec_set_null(result, row);
            continue;
        }
        for (int d = 0; d < nsub; d++) {
            int32_t l, h;
            memcpy(&l, lv.data + 4 * (size_t)d, 4);
            memcpy(&h, uv.data + 4 * (size_t)d, 4);
            lo[d] = l;
            hi[d] = h;
        }
        ((StrRef *)result->data)[row] = slice_one(et, &av, nsub, lo, hi, &eb);
    }
}

/* ---------- dimensions ---------- */

/* which: 'l' array_length, 'o' array_lower, 'u' array_upper */
static void dim_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, char which)
{
    int32_t *r = result->data;
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        int32_t d = i4_at(args, 1, row) - 1;
        if (d < 0 || d >= av.ndim) {
            vec_set_null(result, row);
            continue;
        }
        r[row] = which == 'l' ? av.dims[d]
               : which == 'o' ? av.lbs[d] : (int32_t)(av.lbs[d] + (int64_t)av.dims[d] - 1);
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
        int nd = array_view(blob_at(args, 0, row)).ndim;
        if (nd == 0)
            vec_set_null(result, row);
        else
            r[row] = nd;
    }
}

static void k_dims(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        if (av.ndim == 0) {
            vec_set_null(result, row);
            continue;
        }
        char *buf = mem_alloc(ctx->arena, 26 * ARRAY_MAX_DIMS);
        int n = 0;
        for (int d = 0; d < av.ndim; d++)
            n += snprintf(buf + n, 26, "[%d:%lld]", av.lbs[d], (long long)av.lbs[d] + av.dims[d] - 1);
        ((StrRef *)result->data)[row] = (StrRef){buf, (uint32_t)n};
    }
}

/* ---------- searching and editing (IS NOT DISTINCT FROM element equality) ---------- */

/* One chunk of non-NULL elements through the element cast's kernel; the
 * results go back to their slots of out (strings stay in the batch arena
 * until array_build copies them). */
static void cast_chunk(const CastDesc *ec, FuncCallCtx *ectx, Vector *const *eargs, Vector *conv,
                       const uint32_t *slot, Value *out)
{
    eargs[0]->is_const = false;
    eargs[0]->validity = NULL;
    conv->is_const = false;
    conv->validity = NULL;
    ec->kernel(ectx, eargs, conv);
    for (uint32_t i = 0; i < ectx->count; i++)
        vec_get_value(conv, i, &out[slot[i]]);
    ectx->count = 0;
}

/* PostgreSQL's 0A000 for searching/removing in an array of 2+ dimensions. */
static void refuse_multidim(const ArrayView *av, const char *what)
{
    if (av->ndim > 1)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "%s in multidimensional arrays is not supported", what);
}

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
        refuse_multidim(&av, "searching for elements");
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
        refuse_multidim(&av, "searching for elements");
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
        if (!replace && av.ndim > 1)
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED,
                      "removing elements from multidimensional arrays is not supported");
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
        if (av.ndim > 1)   /* array_replace keeps the shape */
            ((StrRef *)result->data)[row] = array_build_md(et, av.ndim, av.dims, av.lbs, eb.n, eb.v, ctx->arena);
        else
            ((StrRef *)result->data)[row] = array_build(et, eb.n ? lb : 1, eb.n, eb.v, ctx->arena);
    }
}
static void k_remove(const FuncCallCtx *c, Vector *const *a, Vector *r) { edit_kernel(c, a, r, false); }
static void k_replace(const FuncCallCtx *c, Vector *const *a, Vector *r) { edit_kernel(c, a, r, true); }

/* array_cat when either side has 2+ dimensions (PostgreSQL's array_cat):
 * equal ndim concatenates along the first dimension (the others must
 * match); ndim differing by one adds the smaller as one more slice;
 * otherwise 2202E. Returns false for two arrays of at most one dimension
 * (the caller's 1-D path). */
static bool cat_multidim(SqlType et, const Vector *v1, const Vector *v2, uint32_t row, Vector *result,
                         ElemBuf *eb)
{
    StrRef blob1 = ((const StrRef *)v1->data)[v1->is_const ? 0 : row];
    StrRef blob2 = ((const StrRef *)v2->data)[v2->is_const ? 0 : row];
    ArrayView a = array_view(blob1), b = array_view(blob2);
    if (a.ndim <= 1 && b.ndim <= 1)
        return false;
    if (a.ndim == 0 || b.ndim == 0) {   /* an empty side: the other array as it is */
        ((StrRef *)result->data)[row] = a.ndim == 0 ? blob2 : blob1;
        return true;
    }
    int32_t dims[ARRAY_MAX_DIMS], lbs[ARRAY_MAX_DIMS];
    const ArrayView *big = a.ndim >= b.ndim ? &a : &b, *small = big == &a ? &b : &a;
    int off = a.ndim == b.ndim ? 1 : 0;   /* where small's dims line up with big's */
    if (a.ndim != b.ndim && a.ndim != b.ndim + 1 && a.ndim + 1 != b.ndim) {
        ErrorData *e = err_begin(ERRCODE_ARRAY_SUBSCRIPT_ERROR);
        err_message(e, "cannot concatenate incompatible arrays");
        err_detail(e, "Arrays of %d and %d dimensions are not compatible for concatenation.", a.ndim, b.ndim);
        err_throw();
    }
    memcpy(dims, big->dims, sizeof dims);
    memcpy(lbs, big->lbs, sizeof lbs);
    if (a.ndim == b.ndim) {
        dims[0] = a.dims[0] + b.dims[0];
        lbs[0] = a.lbs[0];
    } else {
        dims[0] += 1;
        off = 1;
    }
    for (int d = a.ndim == b.ndim ? 1 : 0; d < small->ndim; d++) {
        int bd = a.ndim == b.ndim ? d : d + off;
        if (small->dims[d] != big->dims[bd] || small->lbs[d] != big->lbs[bd]) {
            ErrorData *e = err_begin(ERRCODE_ARRAY_SUBSCRIPT_ERROR);
            err_message(e, "cannot concatenate incompatible arrays");
            err_detail(e, a.ndim == b.ndim ? "Arrays with differing element dimensions are not compatible for concatenation."
                                           : "Arrays with differing dimensions are not compatible for concatenation.");
            err_throw();
        }
    }
    eb->n = 0;
    for (int side = 0; side < 2; side++) {
        const ArrayView *v = side == 0 ? &a : &b;
        for (uint32_t k = 0; k < v->nelems; k++) {
            Value x;
            array_get(v, k, &x);
            eb_push(eb, &x);
        }
    }
    ((StrRef *)result->data)[row] = array_build_md(et, big->ndim, dims, lbs, eb->n, eb->v, eb->arena);
    return true;
}

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
        if (how == 'c' && (null1 || null2)) {   /* the other array, unchanged */
            const Vector *v = null1 ? arr2 : arr1;
            ((StrRef *)result->data)[row] = ((const StrRef *)v->data)[v->is_const ? 0 : row];
            continue;
        }
        if (how == 'c' && cat_multidim(et, arr1, arr2, row, result, &eb))
            continue;
        if (!null1) {
            ArrayView av = array_view(((const StrRef *)arr1->data)[arr1->is_const ? 0 : row]);
            if (how != 'c' && av.ndim > 1)
                err_raise(ERRCODE_DATA_EXCEPTION, "argument must be empty or one-dimensional array");
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

/* ---------- casts between array types ---------- */

/*
 * CAST(a AS u[]) for a of type t[]: the element cast t -> u applied to the
 * flattened non-NULL elements of the whole batch, VEC_CAPACITY at a time,
 * through the element cast's own kernel (one indirect call per chunk, none
 * per row or element); then each array is rebuilt with its shape and its
 * NULL elements. Element errors (22003, 22P02, 22001) are the element
 * kernel's. The element cast is looked up once per batch.
 */
static void array_cast_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool is_explicit)
{
    SqlType src = elem_type_of(args[0]->type), dst = elem_type_of(ctx->result_type);
    const CastDesc *ec = is_explicit ? exec_cast_lookup_explicit(src.oid, dst.oid)
                                     : exec_cast_lookup(src.oid, dst.oid);
    if (!ec)
        err_raise(ERRCODE_CANNOT_COERCE, "cannot cast type %s[] to %s[]", type_info(src.oid)->sql_name,
                  type_info(dst.oid)->sql_name);
    uint64_t total = 0;
    FOR_ROWS(ctx, result, row) total += array_view(blob_at(args, 0, row)).nelems;
    Value *out = mem_alloc(ctx->arena, sizeof(Value) * (total ? total : 1));
    Vector in, conv;
    vec_init(&in, src, ctx->arena);
    vec_init(&conv, dst, ctx->arena);
    FuncCallCtx ectx = {.sel = NULL, .count = 0, .arena = ctx->arena, .result_type = dst};
    Vector *eargs[1] = {&in};
    uint32_t *slot = mem_alloc(ctx->arena, sizeof(uint32_t) * VEC_CAPACITY);
    uint64_t pos = 0;
    FOR_ROWS(ctx, result, row) {   /* gather, converting each full chunk */
        ArrayView av = array_view(blob_at(args, 0, row));
        for (uint32_t k = 0; k < av.nelems; k++, pos++) {
            array_get(&av, k, &out[pos]);
            if (out[pos].is_null)
                continue;
            vec_set_value(&in, ectx.count, &out[pos]);
            slot[ectx.count++] = (uint32_t)pos;
            if (ectx.count == VEC_CAPACITY)
                cast_chunk(ec, &ectx, eargs, &conv, slot, out);
        }
    }
    if (ectx.count)
        cast_chunk(ec, &ectx, eargs, &conv, slot, out);
    pos = 0;
    FOR_ROWS(ctx, result, row) {
        ArrayView av = array_view(blob_at(args, 0, row));
        ((StrRef *)result->data)[row] = array_build_md(dst, av.ndim, av.dims, av.lbs, av.nelems, out + pos, ctx->arena);
        pos += av.nelems;
    }
}
static void k_array_cast(const FuncCallCtx *c, Vector *const *a, Vector *r) { array_cast_kernel(c, a, r, false); }
static void k_array_cast_explicit(const FuncCallCtx *c, Vector *const *a, Vector *r) { array_cast_kernel(c, a, r, true); }

FuncKernel exec_array_cast_kernel(bool is_explicit)
{
    return is_explicit ? k_array_cast_explicit : k_array_cast;
}

/* CAST(array AS text/varchar/bpchar) and back: PostgreSQL's I/O
 * conversion casts (array_out / array_in of the target's element type). */
static void k_array_to_text(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    StrBuf sb;
    strbuf_init(&sb);
    FOR_ROWS(ctx, result, row) {
        sb.len = 0;
        array_out(blob_at(args, 0, row), NULL, &sb);
        char *out = mem_alloc(ctx->arena, sb.len ? sb.len : 1);
        memcpy(out, sb.data, sb.len);
        ((StrRef *)result->data)[row] = (StrRef){out, (uint32_t)sb.len};
    }
    strbuf_free(&sb);
}

static void k_text_to_array(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    FOR_ROWS(ctx, result, row) {
        StrRef s = blob_at(args, 0, row);
        ((StrRef *)result->data)[row] = array_in(ctx->result_type, s.ptr, s.len, ctx->arena);
    }
}

FuncKernel exec_array_io_cast_kernel(bool to_text)
{
    return to_text ? k_array_to_text : k_text_to_array;
}

/* ---------- comparisons (btarraycmp order, common/array.h) ---------- */

/* op: '=' '!' (<>) '<' 'l' (<=) '>' 'g' (>=) */
static void cmp_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, char op)
{
    uint8_t *r = result->data;
    FOR_ROWS(ctx, result, row) {
        int c = array_compare(blob_at(args, 0, row), blob_at(args, 1, row));
        r[row] = op == '=' ? c == 0 : op == '!' ? c != 0 : op == '<' ? c < 0
               : op == 'l' ? c <= 0 : op == '>' ? c > 0 : c >= 0;
    }
}
static void k_eq(const FuncCallCtx *c, Vector *const *a, Vector *r) { cmp_kernel(c, a, r, '='); }
static void k_ne(const FuncCallCtx *c, Vector *const *a, Vector *r) { cmp_kernel(c, a, r, '!'); }
static void k_lt(const FuncCallCtx *c, Vector *const *a, Vector *r) { cmp_kernel(c, a, r, '<'); }
static void k_le(const FuncCallCtx *c, Vector *const *a, Vector *r) { cmp_kernel(c, a, r, 'l'); }
static void k_gt(const FuncCallCtx *c, Vector *const *a, Vector *r) { cmp_kernel(c, a, r, '>'); }
static void k_ge(const FuncCallCtx *c, Vector *const *a, Vector *r) { cmp_kernel(c, a, r, 'g'); }

/* ---------- @> <@ && (PostgreSQL's array_contain_compare) ---------- */

/* Every non-NULL element of b equals some element of a (shapes ignored);
 * a NULL element of b never matches. any: some element of b does. */
static bool contains(const ArrayView *a, const ArrayView *b, SqlType et, bool any)
{
    for (uint32_t j = 0; j < b->nelems; j++) {
        Value y;
        bool found = false;
        array_get(b, j, &y);
        for (uint32_t i = 0; !y.is_null && !found && i < a->nelems; i++) {
            Value x;
            array_get(a, i, &x);
            found = !x.is_null && type_compare(et, &x, &y) == 0;
        }
        if (found && any)
            return true;
        if (!found && !any)
            return false;
    }
    return !any;
}

/* op: 'c' a @> b, 'd' a <@ b, 'o' a && b */
static void contain_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, char op)
{
    uint8_t *r = result->data;
    SqlType et = elem_type_of(args[0]->type);
    FOR_ROWS(ctx, result, row) {
        ArrayView a = array_view(blob_at(args, 0, row)), b = array_view(blob_at(args, 1, row));
        r[row] = op == 'c' ? contains(&a, &b, et, false) : op == 'd' ? contains(&b, &a, et, false)
                                                         : contains(&a, &b, et, true);
    }
}
static void k_contains(const FuncCallCtx *c, Vector *const *a, Vector *r) { contain_kernel(c, a, r, 'c'); }
static void k_contained(const FuncCallCtx *c, Vector *const *a, Vector *r) { contain_kernel(c, a, r, 'd'); }
static void k_overlap(const FuncCallCtx *c, Vector *const *a, Vector *r) { contain_kernel(c, a, r, 'o'); }

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
    {"[][]", 2, {A, TYPE_INT4_ARRAY, 0, 0}, E, S, k_subscript_md, 0}, \
    {"[:][:]", 3, {A, TYPE_INT4_ARRAY, TYPE_INT4_ARRAY, 0}, A, S, k_slice_md, 0}, \
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

/* Ordering and containment operators for every array type; = and <> where
 * executor/funcs_catalog.c does not already list them (int2[], int4[],
 * text[]). OIDs are PostgreSQL's anyarray operators'. */
#define ARRAY_ORDER_OPS(A, E) \
    {"<", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_lt, 1072}, {"<=", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_le, 1074}, \
    {">", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_gt, 1073}, {">=", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_ge, 1075}, \
    {"@>", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_contains, 2751}, {"<@", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_contained, 2752}, \
    {"&&", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_overlap, 2750},
#define ARRAY_EQ_OPS(A, E) \
    {"=", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_eq, 1070}, {"<>", 2, {A, A, 0, 0}, TYPE_BOOL, S, k_ne, 1071},
#define ARRAY_EQ_TYPES(X) \
    X(TYPE_BOOL_ARRAY, TYPE_BOOL) X(TYPE_INT8_ARRAY, TYPE_INT8) X(TYPE_FLOAT4_ARRAY, TYPE_FLOAT4) \
    X(TYPE_FLOAT8_ARRAY, TYPE_FLOAT8) X(TYPE_NUMERIC_ARRAY, TYPE_NUMERIC) X(TYPE_VARCHAR_ARRAY, TYPE_VARCHAR) \
    X(TYPE_BPCHAR_ARRAY, TYPE_BPCHAR) X(TYPE_DATE_ARRAY, TYPE_DATE) X(TYPE_TIME_ARRAY, TYPE_TIME) \
    X(TYPE_TIMESTAMP_ARRAY, TYPE_TIMESTAMP) X(TYPE_TIMESTAMPTZ_ARRAY, TYPE_TIMESTAMPTZ) \
    X(TYPE_INTERVAL_ARRAY, TYPE_INTERVAL) X(TYPE_UUID_ARRAY, TYPE_UUID) X(TYPE_JSONB_ARRAY, TYPE_JSONB) \
    X(TYPE_BYTEA_ARRAY, TYPE_BYTEA) X(TYPE_NAME_ARRAY, TYPE_NAME) X(TYPE_OID_ARRAY, TYPE_OID) \
    X(TYPE_CHAR_ARRAY, TYPE_CHAR)

const FuncDesc exec__funcs_array[] = {
    ARRAY_TYPES(ARRAY_FUNCS)
    ARRAY_EQ_TYPES(ARRAY_ORDER_OPS)
    ARRAY_ORDER_OPS(TYPE_INT2_ARRAY, 0) ARRAY_ORDER_OPS(TYPE_INT4_ARRAY, 0) ARRAY_ORDER_OPS(TYPE_TEXT_ARRAY, 0)
    ARRAY_EQ_TYPES(ARRAY_EQ_OPS)
    ARRAY_NONSTRING_TYPES(ARRAY_ELEM_CONCAT)
    {"string_to_array", 2, {TX, TX, 0, 0}, TYPE_TEXT_ARRAY, 0, k_from_string2, 394},
    {"string_to_array", 3, {TX, TX, TX, 0}, TYPE_TEXT_ARRAY, 0, k_from_string3, 376},
};
const int exec__funcs_array_count = (int)(sizeof exec__funcs_array / sizeof exec__funcs_array[0]);
