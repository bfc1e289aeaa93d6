/*
 * srf.c — the set-returning functions' row generators, shared by table
 * functions in FROM (op_funcscan.c: started once per scan) and by
 * set-returning functions in a select list (op_projectset.c: started once
 * per input row).
 *
 * A generator is started with one tuple of argument values and then asked
 * for up to N rows at a time, written straight into output vectors at a
 * given position, so a consumer can interleave several generators in
 * lockstep inside one output batch. Lazy generators (generate_series,
 * unnest, generate_subscripts) compute values as they are written; the
 * others (regexp_matches, regexp_split_to_table, string_to_table, the json
 * ones) find every piece's offsets at start into buffers owned by the
 * generator (grown geometrically, reused by the next start: no allocation
 * per row once they are big enough) and then emit slices of the argument
 * — strings never copied, except json text values that need unescaping and
 * regexp_matches' arrays, built in the caller's per-batch arena.
 *
 * Errors are PostgreSQL's: 22023 "step size cannot equal zero", "cannot
 * extract elements from an object", "cannot call jsonb_each on a
 * non-object", ...
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/interval.h"
#include "common/json.h"
#include "common/numeric.h"
#include "executor/kernels_text.h"

struct ExecSrf {
    ExecQuery *q;
    TableFuncKind kind;
    int nargs, ncols;
    SqlType *arg_types;
    const SqlType *col_types;
    bool done;
    /* generate_series */
    SqlType type;
    int128_t cur, stop, step;
    StrRef ncur, nstop, nstep, one, zero;
    char *nbuf;                 /* numeric: the next value, kept across batches */
    uint32_t nbuf_cap;
    Interval istep;
    bool desc;
    /* unnest */
    ArrayView *arrays;
    uint32_t maxlen, pos;
    /* pieces of a string / json document, found at start */
    StrRef src;
    ExecRegexMatches m;
    StrRef *keys, *vals;
    uint8_t *vnull;
    uint32_t npieces, cap;
    bool is_jsonb;
    /* generate_subscripts */
    int64_t sub_lo, sub_hi;
    bool reverse;
};

ExecSrf *exec__srf_new(ExecQuery *q, TableFuncKind kind, int nargs, const SqlType *arg_types, int ncols,
                       const SqlType *col_types)
{
    ExecSrf *s = MEM_NEW(q->arena, ExecSrf);
    s->q = q;
    s->kind = kind;
    s->nargs = nargs;
    s->ncols = ncols;
    s->arg_types = MEM_NEW_ARRAY(q->arena, SqlType, nargs > 0 ? nargs : 1);
    if (nargs > 0)
        memcpy(s->arg_types, arg_types, sizeof(SqlType) * (size_t)nargs);
    s->col_types = col_types;
    s->arrays = MEM_NEW_ARRAY(q->arena, ArrayView, nargs > 0 ? nargs : 1);
    s->is_jsonb = nargs > 0 && arg_types[0].oid == TYPE_JSONB;
    s->done = true;
    return s;
}

/* ---------- generate_series ---------- */

static void series_start(ExecSrf *s, const Value *v)
{
    int nargs = s->nargs;
    s->type = s->arg_types[0];
    switch (s->type.oid) {
    case TYPE_INT4: case TYPE_INT8: {
        bool i4 = s->type.oid == TYPE_INT4;
        s->cur = i4 ? v[0].u.i32 : v[0].u.i64;
        s->stop = i4 ? v[1].u.i32 : v[1].u.i64;
        s->step = nargs > 2 ? (i4 ? v[2].u.i32 : v[2].u.i64) : 1;
        if (s->step == 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        s->desc = s->step < 0;
        break;
    }
    case TYPE_NUMERIC: {
        MemArena *a = s->q->arena;
        if (!s->one.ptr) {   /* once per generator, not per row */
            s->one = numeric_from_int64(1, a);
            s->zero = numeric_from_int64(0, a);
        }
        s->nstep = s->one;
        s->ncur = v[0].u.str;
        s->nstop = v[1].u.str;
        if (nargs > 2)
            s->nstep = v[2].u.str;
        if (numeric_is_nan(s->ncur))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "start value cannot be NaN");
        if (numeric_is_nan(s->nstop))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "stop value cannot be NaN");
        if (numeric_is_nan(s->nstep))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot be NaN");
        int sgn = numeric_cmp(s->nstep, s->zero);
        if (sgn == 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        s->desc = sgn < 0;
        break;
    }
    case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: {
        if (nargs < 3)
            err_raise(ERRCODE_INTERNAL_ERROR, "generate_series over timestamps needs a step");
        s->cur = v[0].u.i64;
        s->stop = v[1].u.i64;
        s->istep = interval_get(v[2].u.str);
        int128_t span = ((int128_t)s->istep.months * 30 + s->istep.days) * USECS_PER_DAY + s->istep.micros;
        if (span == 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        s->desc = span < 0;
        break;
    }
    default:
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "generate_series over type %u is not supported", s->type.oid);
    }
}

static bool in_range(const ExecSrf *s, int128_t x)
{
    return s->desc ? x >= s->stop : x <= s->stop;
}

static uint32_t series_fill(ExecSrf *s, Vector *v, uint32_t at, uint32_t max, MemArena *out)
{
    uint32_t k = 0;
    switch (s->type.oid) {
    case TYPE_INT4: case TYPE_INT8: {
        bool i4 = s->type.oid == TYPE_INT4;
        int128_t lo = i4 ? INT32_MIN : INT64_MIN, hi = i4 ? INT32_MAX : INT64_MAX;
        for (; k < max && !s->done && in_range(s, s->cur); k++) {
            if (i4)
                ((int32_t *)v->data)[at + k] = (int32_t)s->cur;
            else
                ((int64_t *)v->data)[at + k] = (int64_t)s->cur;
            s->cur += s->step;
            if (s->cur < lo || s->cur > hi)
                s->done = true;        /* the next value would overflow: the series ends */
        }
        break;
    }
    case TYPE_NUMERIC:
        if (s->ncur.ptr == s->nbuf && s->ncur.len > 0) {
            /* the carried-over value goes out in this batch: give it batch
             * memory, since nbuf is overwritten at the end of this call */
            char *c = mem_alloc(out, s->ncur.len);
            memcpy(c, s->ncur.ptr, s->ncur.len);
            s->ncur.ptr = c;
        }
        for (; k < max; k++) {
            int c = numeric_cmp(s->ncur, s->nstop);
            if (s->desc ? c < 0 : c > 0)
                break;
            ((StrRef *)v->data)[at + k] = s->ncur;
            s->ncur = numeric_add(s->ncur, s->nstep, out);
        }
        if (k == max) {   /* the next value outlives this batch's arena */
            if (s->ncur.len > s->nbuf_cap) {
                s->nbuf_cap = s->ncur.len * 2;
                s->nbuf = mem_alloc(s->q->arena, s->nbuf_cap);
            }
            memcpy(s->nbuf, s->ncur.ptr, s->ncur.len);
            s->ncur.ptr = s->nbuf;
        }
        break;
    default: {
        bool tz = s->type.oid == TYPE_TIMESTAMPTZ;
        for (; k < max && in_range(s, s->cur); k++) {
            ((int64_t *)v->data)[at + k] = (int64_t)s->cur;
            s->cur = tz ? timestamptz_add_interval((int64_t)s->cur, s->istep)
                        : timestamp_add_interval((int64_t)s->cur, s->istep);
        }
        break;
    }
    }
    return k;
}

/* ---------- unnest / generate_subscripts ---------- */

static void unnest_start(ExecSrf *s, const Value *v)
{
    s->maxlen = 0;
    for (int i = 0; i < s->nargs; i++) {
        if (v[i].is_null) {
            s->arrays[i].nelems = 0;     /* a NULL array counts as empty */
            continue;
        }
        s->arrays[i] = array_view(v[i].u.str);
        if (s->arrays[i].nelems > s->maxlen)
            s->maxlen = s->arrays[i].nelems;
    }
}

static uint32_t unnest_fill(ExecSrf *s, Vector *cols, uint32_t at, uint32_t max)
{
    uint32_t k = s->maxlen - s->pos < max ? s->maxlen - s->pos : max;
    for (int a = 0; a < s->nargs; a++) {
        Vector *v = &cols[a];
        const ArrayView *av = &s->arrays[a];
        for (uint32_t i = 0; i < k; i++) {
            Value x = {.is_null = true};
            if (s->pos + i < av->nelems)
                array_get(av, s->pos + i, &x);
            vec_set_value(v, at + i, &x);
        }
    }
    s->pos += k;
    return k;
}

/* generate_subscripts(array, dim[, reverse]): the subscripts of dimension
 * dim (1..ndim), lower to upper or the reverse. */
static void subscripts_start(ExecSrf *s, const Value *v)
{
    ArrayView av = array_view(v[0].u.str);
    int32_t d = v[1].u.i32 - 1;
    s->reverse = s->nargs > 2 && v[2].u.b;
    if (d < 0 || d >= av.ndim) {
        s->done = true;
        return;
    }
    s->sub_lo = av.lbs[d];
    s->sub_hi = (int64_t)av.lbs[d] + av.dims[d] - 1;
}

static uint32_t subscripts_fill(ExecSrf *s, Vector *v, uint32_t at, uint32_t max)
{
    uint32_t k = 0;
    int32_t *d = v->data;
    for (; k < max && s->sub_lo <= s->sub_hi; k++)
        d[at + k] = (int32_t)(s->reverse ? s->sub_hi-- : s->sub_lo++);
    return k;
}

/* ---------- pieces: regexp_split, string_to_table, json ---------- */

static void piece_reserve(ExecSrf *s, uint32_t n)
{
    if (n <= s->cap)
        return;
    uint32_t cap = s->cap ? s->cap : 64;
    while (cap < n)
        cap *= 2;
    MemArena *a = s->q->arena;
    StrRef *k = MEM_NEW_ARRAY(a, StrRef, cap), *v = MEM_NEW_ARRAY(a, StrRef, cap);
    uint8_t *z = MEM_NEW_ARRAY(a, uint8_t, cap);
    if (s->npieces) {
        memcpy(k, s->keys, sizeof(StrRef) * s->npieces);
        memcpy(v, s->vals, sizeof(StrRef) * s->npieces);
        memcpy(z, s->vnull, s->npieces);
    }
    s->keys = k, s->vals = v, s->vnull = z, s->cap = cap;
}

static void piece_add(ExecSrf *s, StrRef key, StrRef val, bool is_null)
{
    piece_reserve(s, s->npieces + 1);
    s->keys[s->npieces] = key;
    s->vals[s->npieces] = val;
    s->vnull[s->npieces++] = is_null;
}

static void split_start(ExecSrf *s, const Value *v)
{
    StrRef str = v[0].u.str, flags = {"", 0};
    if (s->nargs > 2)
        flags = v[2].u.str;
    exec__regex_all(&s->m, str, v[1].u.str, flags, true, "regexp_split_to_table", s->q->arena);
    uint32_t from = 0;
    for (uint32_t i = 0; i < s->m.n; i++) {
        uint32_t so = s->m.offs[2 * i], eo = s->m.offs[2 * i + 1];
        piece_add(s, (StrRef){NULL, 0}, (StrRef){str.ptr + from, so - from}, false);
        from = eo;
    }
    piece_add(s, (StrRef){NULL, 0}, (StrRef){str.ptr + from, str.len - from}, false);
}

static void matches_start(ExecSrf *s, const Value *v)
{
    StrRef flags = {"", 0};
    if (s->nargs > 2)
        flags = v[2].u.str;
    s->src = v[0].u.str;
    exec__regex_all(&s->m, s->src, v[1].u.str, flags, false, "regexp_matches", s->q->arena);
    s->npieces = s->m.n;
}

/* string_to_table(str, delim[, null_str]): PostgreSQL's rules — a NULL
 * string gives no rows, an empty one none either; a NULL delimiter splits
 * into characters, an empty one yields the whole string; pieces equal to
 * null_str are NULL. */
static void string_pieces_start(ExecSrf *s, const Value *v)
{
    if (v[0].is_null || v[0].u.str.len == 0)
        return;
    StrRef str = v[0].u.str;
    bool has_null = s->nargs > 2 && !v[2].is_null;
    StrRef nul = has_null ? v[2].u.str : (StrRef){NULL, 0};
    uint32_t from = 0;
    for (;;) {
        uint32_t end = str.len, next = str.len + 1;
        if (v[1].is_null) {
            end = from + txt_char_at(str, from);
            next = end;
        } else if (v[1].u.str.len > 0) {
            StrRef d = v[1].u.str;
            for (uint32_t k = from; k + d.len <= str.len; k++)
                if (memcmp(str.ptr + k, d.ptr, d.len) == 0) {
                    end = k;
                    next = k + d.len;
                    break;
                }
        }
        StrRef piece = {str.ptr + from, end - from};
        bool isn = has_null && piece.len == nul.len && memcmp(piece.ptr, nul.ptr, nul.len) == 0;
        piece_add(s, (StrRef){NULL, 0}, piece, isn);
        if (next > str.len || (v[1].is_null && next == str.len))
            break;
        from = next;
    }
}

static const char *kind_article(JsonKind k)
{
    return k == JSON_OBJECT ? "an object" : k == JSON_ARRAY ? "an array" : "a scalar";
}

static void json_start(ExecSrf *s, const Value *v)
{
    StrRef doc = v[0].u.str;
    JsonKind k = json_kind(doc);
    const char *jb = s->is_jsonb ? "jsonb" : "json";
    switch (s->kind) {
    case TABLEFUNC_JSON_ELEMENTS: case TABLEFUNC_JSON_ELEMENTS_TEXT:
        if (k != JSON_ARRAY) {
            if (s->is_jsonb)
                err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot extract elements from %s",
                          k == JSON_OBJECT ? "an object" : "a scalar");
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot call %s on %s",
                      s->kind == TABLEFUNC_JSON_ELEMENTS ? "json_array_elements" : "json_array_elements_text",
                      k == JSON_OBJECT ? "a non-array" : "a scalar");
        }
        break;
    case TABLEFUNC_JSON_EACH: case TABLEFUNC_JSON_EACH_TEXT:
        if (k != JSON_OBJECT) {
            if (s->is_jsonb)
                err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot call %s_each%s on a non-object", jb,
                          s->kind == TABLEFUNC_JSON_EACH_TEXT ? "_text" : "");
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot deconstruct %s",
                      k == JSON_ARRAY ? "an array as an object" : "a scalar");
        }
        break;
    default:   /* object keys */
        if (k != JSON_OBJECT)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "cannot call %s_object_keys on %s", jb, kind_article(k));
        break;
    }
    size_t pos = 0;
    StrRef key, val;
    while (json_next(doc, &pos, &key, &val))
        piece_add(s, key, val, false);
}

/* A JSON string's (or value's) ->> text; JSON null → SQL NULL. */
static void json_text_out(Vector *v, uint32_t row, StrRef raw, MemArena *out)
{
    bool is_null = false;
    StrRef t = json_value_text(raw, out, &is_null);
    if (is_null)
        vec_set_null(v, row);
    else
        ((StrRef *)v->data)[row] = t;
}

static uint32_t pieces_fill(ExecSrf *s, Vector *cols, uint32_t at, uint32_t max, MemArena *out)
{
    uint32_t k = s->npieces - s->pos < max ? s->npieces - s->pos : max;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t p = s->pos + i, row = at + i;
        switch (s->kind) {
        case TABLEFUNC_REGEXP_MATCHES: {
            Value vals[64];
            Value *el = s->m.width <= 64 ? vals : mem_alloc(out, sizeof(Value) * s->m.width);
            const uint32_t *o = s->m.offs + (size_t)p * s->m.width * 2;
            for (uint32_t g = 0; g < s->m.width; g++) {
                el[g].is_null = o[2 * g] == UINT32_MAX;
                if (!el[g].is_null)
                    el[g].u.str = (StrRef){s->src.ptr + o[2 * g], o[2 * g + 1] - o[2 * g]};
            }
            ((StrRef *)cols[0].data)[row] = array_build(SQLTYPE(TYPE_TEXT), 1, s->m.width, el, out);
            break;
        }
        case TABLEFUNC_JSON_ELEMENTS_TEXT: case TABLEFUNC_JSON_OBJECT_KEYS:
            json_text_out(&cols[0], row, s->kind == TABLEFUNC_JSON_OBJECT_KEYS ? s->keys[p] : s->vals[p], out);
            break;
        case TABLEFUNC_JSON_EACH: case TABLEFUNC_JSON_EACH_TEXT:
            json_text_out(&cols[0], row, s->keys[p], out);
            if (s->ncols < 2)
                break;
            if (s->kind == TABLEFUNC_JSON_EACH_TEXT)
                json_text_out(&cols[1], row, s->vals[p], out);
            else
                ((StrRef *)cols[1].data)[row] = s->vals[p];
            break;
        default:   /* split pieces, json elements */
            if (s->vnull[p])
                vec_set_null(&cols[0], row);
            else
                ((StrRef *)cols[0].data)[row] = s->vals[p];
            break;
        }
    }
    s->pos += k;
    return k;
}

/* ---------- dispatch ---------- */

void exec__srf_start(ExecSrf *s, const Value *v)
{
    s->done = false;
    s->pos = 0;
    s->npieces = 0;
    bool strict = s->kind != TABLEFUNC_UNNEST && s->kind != TABLEFUNC_STRING_TO_TABLE;
    for (int i = 0; i < s->nargs && strict; i++)
        if (v[i].is_null) {
            s->done = true;
            return;
        }
    switch (s->kind) {
    case TABLEFUNC_GENERATE_SERIES: series_start(s, v); break;
    case TABLEFUNC_UNNEST: unnest_start(s, v); break;
    case TABLEFUNC_GENERATE_SUBSCRIPTS: subscripts_start(s, v); break;
    case TABLEFUNC_REGEXP_SPLIT: split_start(s, v); break;
    case TABLEFUNC_REGEXP_MATCHES: matches_start(s, v); break;
    case TABLEFUNC_STRING_TO_TABLE: string_pieces_start(s, v); break;
    case TABLEFUNC_JSON_ELEMENTS: case TABLEFUNC_JSON_ELEMENTS_TEXT: case TABLEFUNC_JSON_EACH:
    case TABLEFUNC_JSON_EACH_TEXT: case TABLEFUNC_JSON_OBJECT_KEYS:
        json_start(s, v);
        break;
    }
}

uint32_t exec__srf_fill(ExecSrf *s, Vector *cols, uint32_t at, uint32_t max, MemArena *out)
{
    if (s->done || max == 0)
        return 0;
    uint32_t k;
    switch (s->kind) {
    case TABLEFUNC_GENERATE_SERIES: k = series_fill(s, &cols[0], at, max, out); break;
    case TABLEFUNC_UNNEST: k = unnest_fill(s, cols, at, max); break;
    case TABLEFUNC_GENERATE_SUBSCRIPTS: k = subscripts_fill(s, &cols[0], at, max); break;
    default: k = pieces_fill(s, cols, at, max, out); break;
    }
    if (k < max)
        s->done = true;
    return k;
}
