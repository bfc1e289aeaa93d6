/*
 * funcs_agg.c — the generic aggregates (AggImpl, executor/funcs.h):
 * bool_and / every / bool_or, bit_and / bit_or, the variance family
 * (var_pop, var_samp, variance, stddev_pop, stddev_samp, stddev) for
 * float4/float8 (→ float8, PostgreSQL's Youngs-Cramer float8_accum) and
 * int2/int4/int8/numeric (→ numeric, exact sums and PostgreSQL's
 * numeric_stddev_internal), the two-variable float8 statistics (corr,
 * covar_pop, covar_samp, regr_slope, regr_intercept, regr_count,
 * regr_avgx/avgy, regr_sxx/syy/sxy, regr_r2: float8_regr_accum),
 * string_agg(text, text), array_agg (every scalar type → its array,
 * NULL elements kept), and the ordered-set aggregates
 * percentile_cont(float8), percentile_disc and mode over fixed-width
 * types and text.
 *
 * Each aggregate is a fixed-size per-group state (zero bytes = initial)
 * plus update/final functions; update loops over one batch's (row, group)
 * pairs with direct code, so there is one indirect call per batch, never
 * per row. Memory: string_agg text and ordered-set value lists grow
 * geometrically in the state arena (AggImpl's `arena`); numeric
 * intermediates go to `scratch` and the per-group sums are copied into
 * per-group buffers only when their size grows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/json.h"
#include "common/typio.h"
#include "common/numeric.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

#define AGG_FOR(n) for (uint32_t i = 0; i < (n); i++)
#define STATE(T) T *st = (T *)(states + (size_t)grp[i] * sizeof(T))

static inline bool arg_valid(const Vector *v, uint32_t row) { return vec_is_valid(v, row); }
static inline uint32_t arg_row(const Vector *v, uint32_t row) { return v->is_const ? 0 : row; }

/* Grow a per-state array of elem-byte items to hold one more. */
static void *grow_array(MemArena *arena, void *p, uint32_t *cap, uint32_t count, size_t elem)
{
    if (count < *cap) return p;
    uint32_t ncap = *cap ? *cap * 2 : 16;
    void *np = mem_alloc(arena, elem * ncap);
    if (count) memcpy(np, p, elem * count);
    *cap = ncap;
    return np;
}

/* ---------- bool_and / bool_or / every ---------- */

typedef struct BoolState { uint8_t has, val; } BoolState;

static void bool_update(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                        const Vector *arg, bool is_and)
{
    const uint8_t *d = arg->data;
    AGG_FOR(n) {
        uint32_t row = rows[i];
        if (!arg_valid(arg, row)) continue;
        STATE(BoolState);
        uint8_t v = d[arg_row(arg, row)];
        st->val = st->has ? (uint8_t)(is_and ? (st->val & v) : (st->val | v)) : v;
        st->has = 1;
    }
}
static void upd_bool_and(uint8_t *s, const uint32_t *g, const uint16_t *r, uint32_t n, const Vector *a,
                         const Vector *b, MemArena *ar, MemArena *sc)
{
    (void)b, (void)ar, (void)sc;
    bool_update(s, g, r, n, a, true);
}
static void upd_bool_or(uint8_t *s, const uint32_t *g, const uint16_t *r, uint32_t n, const Vector *a,
                        const Vector *b, MemArena *ar, MemArena *sc)
{
    (void)b, (void)ar, (void)sc;
    bool_update(s, g, r, n, a, false);
}
static void fin_bool(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena)
{
    (void)arena;
    const BoolState *st = (const BoolState *)state;
    if (!st->has) vec_set_null(out, row);
    else ((uint8_t *)out->data)[row] = st->val;
}
static const AggImpl impl_bool_and = {sizeof(BoolState), upd_bool_and, fin_bool};
static const AggImpl impl_bool_or = {sizeof(BoolState), upd_bool_or, fin_bool};

/* ---------- bit_and / bit_or (int2, int4, int8) ---------- */

typedef struct BitState { int64_t val; uint8_t has; } BitState;

static int64_t int_at(const Vector *v, uint32_t row)
{
    switch (v->phys) {
    case PHYS_I16: return ((const int16_t *)v->data)[row];
    case PHYS_I32: return ((const int32_t *)v->data)[row];
    default: return ((const int64_t *)v->data)[row];
    }
}

static void bit_update(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                       const Vector *arg, bool is_and)
{
    AGG_FOR(n) {
        uint32_t row = rows[i];
        if (!arg_valid(arg, row)) continue;
        STATE(BitState);
        int64_t v = int_at(arg, arg_row(arg, row));
        st->val = st->has ? (is_and ? (st->val & v) : (st->val | v)) : v;
        st->has = 1;
    }
}
static void upd_bit_and(uint8_t *s, const uint32_t *g, const uint16_t *r, uint32_t n, const Vector *a,
                        const Vector *b, MemArena *ar, MemArena *sc)
{
    (void)b, (void)ar, (void)sc;
    bit_update(s, g, r, n, a, true);
}
static void upd_bit_or(uint8_t *s, const uint32_t *g, const uint16_t *r, uint32_t n, const Vector *a,
                       const Vector *b, MemArena *ar, MemArena *sc)
{
    (void)b, (void)ar, (void)sc;
    bit_update(s, g, r, n, a, false);
}
static void fin_bit(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena)
{
    (void)arena;
    const BitState *st = (const BitState *)state;
    if (!st->has) {
        vec_set_null(out, row);
        return;
    }
    switch (out->phys) {
    case PHYS_I16: ((int16_t *)out->data)[row] = (int16_t)st->val; break;
    case PHYS_I32: ((int32_t *)out->data)[row] = (int32_t)st->val; break;
    default: ((int64_t *)out->data)[row] = st->val; break;
    }
}
static const AggImpl impl_bit_and = {sizeof(BitState), upd_bit_and, fin_bit};
static const AggImpl impl_bit_or = {sizeof(BitState), upd_bit_or, fin_bit};

/* ---------- variance family over floats: float8_accum ---------- */

typedef struct FAccState { double n, sx, sxx; } FAccState;

static _Noreturn void float_overflow(void)
{
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
}

static inline void float8_accum(FAccState *st, double x)
{
    double n_old = st->n, sx_old = st->sx;
    st->n += 1.0;
    st->sx += x;
    if (n_old > 0.0) {
        double tmp = x * st->n - st->sx;
        st->sxx += tmp * tmp / (st->n * n_old);
        if (isinf(st->sx) || isinf(st->sxx)) {
            if (!isinf(sx_old) && !isinf(x)) float_overflow();
            st->sxx = NAN;
        }
    } else if (isnan(x) || isinf(x)) {
        st->sxx = NAN;
    }
}

static void upd_float_accum(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                            const Vector *arg, const Vector *arg2, MemArena *ar, MemArena *sc)
{
    (void)arg2, (void)ar, (void)sc;
    bool f4 = arg->phys == PHYS_F32;
    AGG_FOR(n) {
        uint32_t row = rows[i];
        if (!arg_valid(arg, row)) continue;
        STATE(FAccState);
        uint32_t r = arg_row(arg, row);
        float8_accum(st, f4 ? (double)((const float *)arg->data)[r] : ((const double *)arg->data)[r]);
    }
}

enum { VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP };

static void fin_float_var(const uint8_t *state, Vector *out, uint32_t row, int which)
{
    const FAccState *st = (const FAccState *)state;
    bool samp = which == VAR_SAMP || which == STDDEV_SAMP;
    if (st->n == 0.0 || (samp && st->n <= 1.0)) {
        vec_set_null(out, row);
        return;
    }
    double v = st->sxx / (samp ? st->n - 1.0 : st->n);
    ((double *)out->data)[row] = (which == STDDEV_POP || which == STDDEV_SAMP) ? sqrt(v) : v;
}
#define FIN_FLOAT(name, which)                                                          \
    static void name(const uint8_t *s, Vector *o, uint32_t r, MemArena *a) { (void)a; fin_float_var(s, o, r, which); }
FIN_FLOAT(fin_fvar_pop, VAR_POP)
FIN_FLOAT(fin_fvar_samp, VAR_SAMP)
FIN_FLOAT(fin_fstddev_pop, STDDEV_POP)
FIN_FLOAT(fin_fstddev_samp, STDDEV_SAMP)
static const AggImpl impl_fvar_pop = {sizeof(FAccState), upd_float_accum, fin_fvar_pop};
static const AggImpl impl_fvar_samp = {sizeof(FAccState), upd_float_accum, fin_fvar_samp};
static const AggImpl impl_fstddev_pop = {sizeof(FAccState), upd_float_accum, fin_fstddev_pop};
static const AggImpl impl_fstddev_samp = {sizeof(FAccState), upd_float_accum, fin_fstddev_samp};

/* ---------- variance family over integers and numeric (→ numeric) ---------- */

/*
 * int2/int4: exact int128 sums of x and x² (|x²| < 2^31·2^31, so 2^64 rows
 * cannot overflow). int8/numeric: numeric sums held in per-group buffers
 * (a numeric_add result in scratch is copied into the group's buffer,
 * which grows geometrically).
 */
typedef struct NAccState {
    int64_t n;
    int128_t sx, sxx;         /* int2/int4 */
    char *bx, *bxx;           /* int8/numeric: packed numerics */
    uint32_t lx, lxx, cx, cxx;
} NAccState;

static void buf_set(MemArena *arena, char **buf, uint32_t *len, uint32_t *cap, StrRef v)
{
    if (v.len > *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 32;
        while (ncap < v.len) ncap *= 2;
        *buf = mem_alloc(arena, ncap);
        *cap = ncap;
    }
    memcpy(*buf, v.ptr, v.len);
    *len = v.len;
}

static void upd_num_accum(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                          const Vector *arg, const Vector *arg2, MemArena *arena, MemArena *scratch)
{
    (void)arg2;
    bool small = arg->phys == PHYS_I16 || arg->phys == PHYS_I32;
    AGG_FOR(n) {
        uint32_t row = rows[i];
        if (!arg_valid(arg, row)) continue;
        STATE(NAccState);
        uint32_t r = arg_row(arg, row);
        st->n++;
        if (small) {
            int64_t x = int_at(arg, r);
            st->sx += x;
            st->sxx += (int128_t)x * x;
            continue;
        }
        StrRef x = arg->phys == PHYS_I64 ? numeric_from_int64(((const int64_t *)arg->data)[r], scratch)
                                         : ((const StrRef *)arg->data)[r];
        StrRef sx = st->bx ? numeric_add((StrRef){st->bx, st->lx}, x, scratch) : x;
        StrRef x2 = numeric_mul(x, x, scratch);
        StrRef sxx = st->bxx ? numeric_add((StrRef){st->bxx, st->lxx}, x2, scratch) : x2;
        buf_set(arena, &st->bx, &st->lx, &st->cx, sx);
        buf_set(arena, &st->bxx, &st->lxx, &st->cxx, sxx);
    }
}

/* PostgreSQL's numeric_stddev_internal. */
static void fin_num_var(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena, int which)
{
    const NAccState *st = (const NAccState *)state;
    bool samp = which == VAR_SAMP || which == STDDEV_SAMP;
    if (st->n == 0 || (samp && st->n <= 1)) {
        vec_set_null(out, row);
        return;
    }
    StrRef sx, sxx;
    if (st->bx) {
        sx = (StrRef){st->bx, st->lx}, sxx = (StrRef){st->bxx, st->lxx};
    } else {
        sx = numeric_from_int128(st->sx, 0, arena), sxx = numeric_from_int128(st->sxx, 0, arena);
    }
    if (numeric_is_nan(sx)) {
        ((StrRef *)out->data)[row] = sx;
        return;
    }
    StrRef vn = numeric_from_int64(st->n, arena);
    StrRef num = numeric_sub(numeric_mul(vn, sxx, arena), numeric_mul(sx, sx, arena), arena);
    StrRef zero = numeric_from_int64(0, arena), res;
    if (numeric_cmp(num, zero) <= 0) {
        res = zero;
    } else {
        StrRef den = numeric_from_int64(st->n, arena);
        den = numeric_mul(den, numeric_from_int64(samp ? st->n - 1 : st->n, arena), arena);
        res = numeric_div(num, den, arena);
        if (which == STDDEV_POP || which == STDDEV_SAMP)
            res = exec__numeric_sqrt(res, numeric_dscale(res), arena);
    }
    ((StrRef *)out->data)[row] = res;
}
#define FIN_NUM(name, which)                                                            \
    static void name(const uint8_t *s, Vector *o, uint32_t r, MemArena *a) { fin_num_var(s, o, r, a, which); }
FIN_NUM(fin_nvar_pop, VAR_POP)
FIN_NUM(fin_nvar_samp, VAR_SAMP)
FIN_NUM(fin_nstddev_pop, STDDEV_POP)
FIN_NUM(fin_nstddev_samp, STDDEV_SAMP)
static const AggImpl impl_nvar_pop = {sizeof(NAccState), upd_num_accum, fin_nvar_pop};
static const AggImpl impl_nvar_samp = {sizeof(NAccState), upd_num_accum, fin_nvar_samp};
static const AggImpl impl_nstddev_pop = {sizeof(NAccState), upd_num_accum, fin_nstddev_pop};
static const AggImpl impl_nstddev_samp = {sizeof(NAccState), upd_num_accum, fin_nstddev_samp};

/* ---------- two-variable statistics: float8_regr_accum (arg = Y, arg2 = X) ---------- */

typedef struct RegrState { double n, sx, sxx, sy, syy, sxy; } RegrState;

static void regr_accum(RegrState *st, double y, double x)
{
    double n_old = st->n;
    RegrState old = *st;
    st->n += 1.0;
    st->sx += x;
    st->sy += y;
    if (n_old > 0.0) {
        double tx = x * st->n - st->sx, ty = y * st->n - st->sy, scale = 1.0 / (st->n * n_old);
        st->sxx += tx * tx * scale;
        st->syy += ty * ty * scale;
        st->sxy += tx * ty * scale;
        if (isinf(st->sx) || isinf(st->sxx) || isinf(st->sy) || isinf(st->syy) || isinf(st->sxy)) {
            if (((isinf(st->sx) || isinf(st->sxx)) && !isinf(old.sx) && !isinf(x)) ||
                ((isinf(st->sy) || isinf(st->syy)) && !isinf(old.sy) && !isinf(y)) ||
                (isinf(st->sxy) && !isinf(old.sx) && !isinf(x) && !isinf(old.sy) && !isinf(y)))
                float_overflow();
            if (isinf(st->sxx)) st->sxx = NAN;
            if (isinf(st->syy)) st->syy = NAN;
            if (isinf(st->sxy)) st->sxy = NAN;
        }
    } else {
        if (isnan(x) || isinf(x)) st->sxx = st->sxy = NAN;
        if (isnan(y) || isinf(y)) st->syy = st->sxy = NAN;
    }
}

static void upd_regr(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                     const Vector *arg, const Vector *arg2, MemArena *ar, MemArena *sc)
{
    (void)ar, (void)sc;
    const double *y = arg->data, *x = arg2->data;
    AGG_FOR(n) {
        uint32_t row = rows[i];
        if (!arg_valid(arg, row) || !arg_valid(arg2, row)) continue;
        STATE(RegrState);
        regr_accum(st, y[arg_row(arg, row)], x[arg_row(arg2, row)]);
    }
}

enum { R_COVAR_POP, R_COVAR_SAMP, R_CORR, R_SLOPE, R_INTERCEPT, R_AVGX, R_AVGY, R_SXX, R_SYY,
       R_SXY, R_R2, R_COUNT };

/* PostgreSQL's float8_covar_pop ... float8_regr_r2; returns false for NULL. */
static bool regr_result(const RegrState *s, int which, double *r)
{
    if (which == R_COUNT) return *r = s->n, true;
    if (s->n < 1.0 || (which == R_COVAR_SAMP && s->n < 2.0)) return false;
    switch (which) {
    case R_COVAR_POP: *r = s->sxy / s->n; return true;
    case R_COVAR_SAMP: *r = s->sxy / (s->n - 1.0); return true;
    case R_CORR:
        if (s->sxx == 0 || s->syy == 0) return false;
        *r = s->sxy / sqrt(s->sxx * s->syy);
        return true;
    case R_SLOPE:
        if (s->sxx == 0) return false;
        *r = s->sxy / s->sxx;
        return true;
    case R_INTERCEPT:
        if (s->sxx == 0) return false;
        *r = (s->sy - s->sx * s->sxy / s->sxx) / s->n;
        return true;
    case R_AVGX: *r = s->sx / s->n; return true;
    case R_AVGY: *r = s->sy / s->n; return true;
    case R_SXX: *r = s->sxx; return true;
    case R_SYY: *r = s->syy; return true;
    case R_SXY: *r = s->sxy; return true;
    case R_R2:
        if (s->sxx == 0) return false;
        if (s->syy == 0) return *r = 1.0, true;
        *r = (s->sxy * s->sxy) / (s->sxx * s->syy);
        return true;
    default: return false;
    }
}

static void fin_regr(const uint8_t *state, Vector *out, uint32_t row, int which)
{
    double r;
    if (!regr_result((const RegrState *)state, which, &r)) vec_set_null(out, row);
    else if (which == R_COUNT) ((int64_t *)out->data)[row] = (int64_t)r;
    else ((double *)out->data)[row] = r;
}
#define REGR_IMPL(lower, which)                                                         \
    static void fin_##lower(const uint8_t *s, Vector *o, uint32_t r, MemArena *a) { (void)a; fin_regr(s, o, r, which); } \
    static const AggImpl impl_##lower = {sizeof(RegrState), upd_regr, fin_##lower};
REGR_IMPL(covar_pop, R_COVAR_POP)
REGR_IMPL(covar_samp, R_COVAR_SAMP)
REGR_IMPL(corr, R_CORR)
REGR_IMPL(regr_slope, R_SLOPE)
REGR_IMPL(regr_intercept, R_INTERCEPT)
REGR_IMPL(regr_avgx, R_AVGX)
REGR_IMPL(regr_avgy, R_AVGY)
REGR_IMPL(regr_sxx, R_SXX)
REGR_IMPL(regr_syy, R_SYY)
REGR_IMPL(regr_sxy, R_SXY)
REGR_IMPL(regr_r2, R_R2)
REGR_IMPL(regr_count, R_COUNT)

/* ---------- string_agg(text, text) ---------- */

typedef struct StrAggState {
    char *buf;
    uint32_t len, cap;
    uint32_t skip;   /* bytes of the first delimiter (PostgreSQL's cursor) */
    uint8_t has;
} StrAggState;

static void stragg_append(MemArena *arena, StrAggState *st, StrRef s)
{
    if ((uint64_t)st->len + s.len > 0x3fffffffu)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "out of memory");
    if (st->len + s.len > st->cap) {
        uint32_t ncap = st->cap ? st->cap * 2 : 64;
        while (ncap < st->len + s.len) ncap *= 2;
        char *nb = mem_alloc(arena, ncap);
        if (st->len) memcpy(nb, st->buf, st->len);
        st->buf = nb, st->cap = ncap;
    }
    if (s.len) memcpy(st->buf + st->len, s.ptr, s.len);
    st->len += s.len;
}

/* NULL values are skipped; a NULL delimiter counts as empty. */
static void upd_string_agg(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                           const Vector *arg, const Vector *arg2, MemArena *arena, MemArena *sc)
{
    (void)sc;
    const StrRef *v = arg->data, *d = arg2->data;
    AGG_FOR(n) {
        uint32_t row = rows[i];
        if (!arg_valid(arg, row)) continue;
        STATE(StrAggState);
        if (arg_valid(arg2, row)) {
            StrRef delim = d[arg_row(arg2, row)];
            if (!st->has) st->skip = delim.len;
            stragg_append(arena, st, delim);
        }
        stragg_append(arena, st, v[arg_row(arg, row)]);
        st->has = 1;
    }
}

static void fin_string_agg(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena)
{
    (void)arena;
    const StrAggState *st = (const StrAggState *)state;
    if (!st->has) vec_set_null(out, row);
    else ((StrRef *)out->data)[row] = (StrRef){st->buf + st->skip, st->len - st->skip};
}
static const AggImpl impl_string_agg = {sizeof(StrAggState), upd_string_agg, fin_string_agg};

/* ---------- json_agg, jsonb_agg, json_object_agg, jsonb_object_agg ---------- */

/*
 * The state is string_agg's buffer holding the JSON text built so far:
 * "[v1, v2" or "{ "k" : v" (json's spacing; jsonb's canonical form is made
 * by jsonb_in in the final function). NULL values are kept (as null);
 * values of any type go through json_append_value (common/json.h).
 */
static void jagg_value(MemArena *arena, StrAggState *st, StrBuf *sb, const Vector *v, uint32_t row)
{
    strbuf_reset(sb);
    if (!arg_valid(v, row)) {
        strbuf_append(sb, "null", 4);
    } else {
        Value val;
        vec_get_value(v, row, &val);
        json_append_value(v->type, &val, sb);
    }
    stragg_append(arena, st, (StrRef){sb->data, (uint32_t)sb->len});
}

static void upd_json_agg(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                         const Vector *arg, const Vector *arg2, MemArena *arena, MemArena *sc)
{
    (void)sc, (void)arg2;
    StrBuf sb;
    strbuf_init(&sb);
    AGG_FOR(n) {
        STATE(StrAggState);
        stragg_append(arena, st, st->has ? (StrRef){", ", 2} : (StrRef){"[", 1});
        st->has = 1;
        jagg_value(arena, st, &sb, arg, rows[i]);
    }
    strbuf_free(&sb);
}

/* Keys: NULL → 22023 "field name must not be null"; their text output,
 * escaped. (Key types are scalars by the table below.) */
static void upd_json_object_agg(uint8_t *states, const uint32_t *grp, const uint16_t *rows,
                                uint32_t n, const Vector *arg, const Vector *arg2,
                                MemArena *arena, MemArena *sc)
{
    (void)sc;
    AGG_FOR(n)
        if (!arg_valid(arg, rows[i]))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "field name must not be null");
    StrBuf sb;
    strbuf_init(&sb);
    AGG_FOR(n) {
        STATE(StrAggState);
        Value kv;
        vec_get_value(arg, rows[i], &kv);
        strbuf_reset(&sb);
        strbuf_append_str(&sb, st->has ? ", " : "{ ");
        json_append_key(arg->type, &kv, &sb);
        strbuf_append(&sb, " : ", 3);
        stragg_append(arena, st, (StrRef){sb.data, (uint32_t)sb.len});
        st->has = 1;
        jagg_value(arena, st, &sb, arg2, rows[i]);
    }
    strbuf_free(&sb);
}

static void jagg_final(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena,
                       const char *close, bool jsonb)
{
    const StrAggState *st = (const StrAggState *)state;
    if (!st->has) {
        vec_set_null(out, row);
        return;
    }
    size_t cl = strlen(close);
    char *buf = mem_alloc(arena, st->len + cl + 1);
    memcpy(buf, st->buf, st->len);
    memcpy(buf + st->len, close, cl + 1);
    StrRef r = {buf, (uint32_t)(st->len + cl)};
    ((StrRef *)out->data)[row] = jsonb ? jsonb_in(r.ptr, r.len, arena) : r;
}
static void fin_json_agg(const uint8_t *s, Vector *o, uint32_t r, MemArena *a) { jagg_final(s, o, r, a, "]", false); }
static void fin_jsonb_agg(const uint8_t *s, Vector *o, uint32_t r, MemArena *a) { jagg_final(s, o, r, a, "]", true); }
static void fin_json_oagg(const uint8_t *s, Vector *o, uint32_t r, MemArena *a) { jagg_final(s, o, r, a, " }", false); }
static void fin_jsonb_oagg(const uint8_t *s, Vector *o, uint32_t r, MemArena *a) { jagg_final(s, o, r, a, " }", true); }
static const AggImpl impl_json_agg = {sizeof(StrAggState), upd_json_agg, fin_json_agg};
static const AggImpl impl_jsonb_agg = {sizeof(StrAggState), upd_json_agg, fin_jsonb_agg};
static const AggImpl impl_json_object_agg = {sizeof(StrAggState), upd_json_object_agg, fin_json_oagg};
static const AggImpl impl_jsonb_object_agg = {sizeof(StrAggState), upd_json_object_agg, fin_jsonb_oagg};

/* ---------- ordered-set: percentile_cont, percentile_disc, mode ---------- */

/* Values are kept as 8-byte slots: integers/dates/timestamps widened to
 * int64, floats as double, text/numeric as StrRef copies. */
typedef union OsVal { int64_t i; double f; StrRef s; } OsVal;

typedef struct OsState {
    OsVal *vals;
    uint32_t count, cap;
    double fraction;
    uint8_t has_fraction, fraction_null;
    PhysType phys;
    uint32_t type;
} OsState;

static void upd_ordered(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                        const Vector *arg, const Vector *arg2, MemArena *arena, MemArena *sc)
{
    (void)sc;
    AGG_FOR(n) {
        uint32_t row = rows[i];
        STATE(OsState);
        if (arg2 && !st->has_fraction) {
            st->has_fraction = 1;
            st->fraction_null = !arg_valid(arg2, row);
            if (!st->fraction_null) st->fraction = ((const double *)arg2->data)[arg_row(arg2, row)];
        }
        if (!arg_valid(arg, row)) continue;
        st->phys = arg->phys;
        st->type = arg->type.oid;
        st->vals = grow_array(arena, st->vals, &st->cap, st->count, sizeof(OsVal));
        uint32_t r = arg_row(arg, row);
        OsVal v;
        switch (arg->phys) {
        case PHYS_F32: v.f = ((const float *)arg->data)[r]; break;
        case PHYS_F64: v.f = ((const double *)arg->data)[r]; break;
        case PHYS_STR: {
            StrRef s = ((const StrRef *)arg->data)[r];
            char *copy = mem_alloc(arena, s.len + 1);
            if (s.len) memcpy(copy, s.ptr, s.len);
            v.s = (StrRef){copy, s.len};
            break;
        }
        case PHYS_BOOL: v.i = ((const uint8_t *)arg->data)[r]; break;
        default: v.i = int_at(arg, r); break;
        }
        st->vals[st->count++] = v;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = ((const OsVal *)a)->i, y = ((const OsVal *)b)->i;
    return (x > y) - (x < y);
}
static int cmp_f64(const void *a, const void *b)   /* NaN last, as PostgreSQL sorts */
{
    double x = ((const OsVal *)a)->f, y = ((const OsVal *)b)->f;
    if (isnan(x)) return isnan(y) ? 0 : 1;
    if (isnan(y)) return -1;
    return (x > y) - (x < y);
}
static int cmp_text(const void *a, const void *b)
{
    StrRef x = ((const OsVal *)a)->s, y = ((const OsVal *)b)->s;
    int c = memcmp(x.ptr, y.ptr, x.len < y.len ? x.len : y.len);
    return c ? c : (x.len > y.len) - (x.len < y.len);
}
static int cmp_numeric(const void *a, const void *b)
{
    return numeric_cmp(((const OsVal *)a)->s, ((const OsVal *)b)->s);
}

static int (*os_cmp(const OsState *st))(const void *, const void *)
{
    if (st->phys == PHYS_F32 || st->phys == PHYS_F64) return cmp_f64;
    if (st->phys == PHYS_STR) return st->type == TYPE_NUMERIC ? cmp_numeric : cmp_text;
    return cmp_i64;
}

static bool os_prepare(const uint8_t *state, Vector *out, uint32_t row, bool check_fraction)
{
    OsState *st = (OsState *)state;   /* final may sort the group's own list */
    if (st->count == 0 || (check_fraction && st->fraction_null)) {
        vec_set_null(out, row);
        return false;
    }
    if (check_fraction && (st->fraction < 0 || st->fraction > 1 || isnan(st->fraction)))
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "percentile value %g is not between 0 and 1",
                  st->fraction);
    qsort(st->vals, st->count, sizeof(OsVal), os_cmp(st));
    return true;
}

static void os_store(Vector *out, uint32_t row, OsVal v)
{
    switch (out->phys) {
    case PHYS_BOOL: ((uint8_t *)out->data)[row] = (uint8_t)v.i; break;
    case PHYS_I16: ((int16_t *)out->data)[row] = (int16_t)v.i; break;
    case PHYS_I32: ((int32_t *)out->data)[row] = (int32_t)v.i; break;
    case PHYS_I64: ((int64_t *)out->data)[row] = v.i; break;
    case PHYS_F32: ((float *)out->data)[row] = (float)v.f; break;
    case PHYS_F64: ((double *)out->data)[row] = v.f; break;
    case PHYS_STR: ((StrRef *)out->data)[row] = v.s; break;
    }
}

static void fin_percentile_cont(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena)
{
    (void)arena;
    if (!os_prepare(state, out, row, true)) return;
    const OsState *st = (const OsState *)state;
    double pos = st->fraction * (st->count - 1);
    uint32_t lo = (uint32_t)floor(pos), hi = (uint32_t)ceil(pos);
    double first = st->vals[lo].f, second = st->vals[hi].f;
    ((double *)out->data)[row] = lo == hi ? first : first + (second - first) * (pos - lo);
}

static void fin_percentile_disc(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena)
{
    (void)arena;
    if (!os_prepare(state, out, row, true)) return;
    const OsState *st = (const OsState *)state;
    int64_t rownum = (int64_t)ceil(st->fraction * st->count);
    os_store(out, row, st->vals[rownum > 1 ? rownum - 1 : 0]);
}

/* The most frequent value; among ties the first in sort order. */
static void fin_mode(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena)
{
    (void)arena;
    if (!os_prepare(state, out, row, false)) return;
    const OsState *st = (const OsState *)state;
    int (*cmp)(const void *, const void *) = os_cmp(st);
    uint32_t best = 0, best_n = 0;
    for (uint32_t k = 0; k < st->count;) {
        uint32_t j = k + 1;
        while (j < st->count && cmp(&st->vals[k], &st->vals[j]) == 0) j++;
        if (j - k > best_n) best = k, best_n = j - k;
        k = j;
    }
    os_store(out, row, st->vals[best]);
}
static const AggImpl impl_percentile_cont = {sizeof(OsState), upd_ordered, fin_percentile_cont};
static const AggImpl impl_percentile_disc = {sizeof(OsState), upd_ordered, fin_percentile_disc};
static const AggImpl impl_mode = {sizeof(OsState), upd_ordered, fin_mode};

/* ---------- array_agg(x) → x[] (NULL elements kept, as PostgreSQL) ---------- */

typedef struct ArrAggState {
    Value *vals;
    uint32_t count, cap;
    SqlType elem;
} ArrAggState;

static void upd_array_agg(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                          const Vector *arg, const Vector *arg2, MemArena *arena, MemArena *sc)
{
    (void)arg2, (void)sc;
    AGG_FOR(n) {
        uint32_t row = rows[i];
        STATE(ArrAggState);
        st->elem = arg->type;
        st->vals = grow_array(arena, st->vals, &st->cap, st->count, sizeof(Value));
        Value v;
        vec_get_value(arg, arg_row(arg, row), &v);
        if (!v.is_null && arg->phys == PHYS_STR) {   /* the batch's bytes don't outlive it */
            char *copy = mem_alloc(arena, v.u.str.len + 1);
            if (v.u.str.len) memcpy(copy, v.u.str.ptr, v.u.str.len);
            v.u.str.ptr = copy;
        }
        st->vals[st->count++] = v;
    }
}

static void fin_array_agg(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena)
{
    const ArrAggState *st = (const ArrAggState *)state;
    if (st->count == 0) {
        vec_set_null(out, row);
        return;
    }
    ((StrRef *)out->data)[row] = array_build(st->elem, 1, st->count, st->vals, arena);
}
static const AggImpl impl_array_agg = {sizeof(ArrAggState), upd_array_agg, fin_array_agg};

/* ---------- the table ---------- */

#define G1(nm, t, ret, im) {.name = (nm), .kind = AGG_GENERIC, .argtype = (t), .rettype = (ret), .impl = &(im)}
#define G2(nm, t, t2, ret, im) \
    {.name = (nm), .kind = AGG_GENERIC, .argtype = (t), .rettype = (ret), .argtype2 = (t2), .impl = &(im)}
#define OS(nm, t, t2, ret, im)                                                                \
    {.name = (nm), .kind = AGG_GENERIC, .argtype = (t), .rettype = (ret), .argtype2 = (t2), \
     .impl = &(im), .ordered_set = true}
#define VAR_FAMILY(t, ret, pop, samp, sdpop, sdsamp)                                          \
    G1("var_pop", t, ret, pop), G1("var_samp", t, ret, samp), G1("variance", t, ret, samp),    \
    G1("stddev_pop", t, ret, sdpop), G1("stddev_samp", t, ret, sdsamp), G1("stddev", t, ret, sdsamp),
#define FLOAT_VARS(t) VAR_FAMILY(t, TYPE_FLOAT8, impl_fvar_pop, impl_fvar_samp, impl_fstddev_pop, impl_fstddev_samp)
#define NUM_VARS(t) VAR_FAMILY(t, TYPE_NUMERIC, impl_nvar_pop, impl_nvar_samp, impl_nstddev_pop, impl_nstddev_samp)
#define F8 TYPE_FLOAT8
#define REGR(nm, ret) G2(#nm, F8, F8, ret, impl_##nm),
#define OS_DISC_MODE(t) OS("percentile_disc", t, F8, t, impl_percentile_disc), OS("mode", t, TYPE_INVALID, t, impl_mode),

const AggDesc exec__aggs_generic[] = {
    G1("bool_and", TYPE_BOOL, TYPE_BOOL, impl_bool_and),
    G1("every", TYPE_BOOL, TYPE_BOOL, impl_bool_and),
    G1("bool_or", TYPE_BOOL, TYPE_BOOL, impl_bool_or),
    G1("bit_and", TYPE_INT2, TYPE_INT2, impl_bit_and), G1("bit_or", TYPE_INT2, TYPE_INT2, impl_bit_or),
    G1("bit_and", TYPE_INT4, TYPE_INT4, impl_bit_and), G1("bit_or", TYPE_INT4, TYPE_INT4, impl_bit_or),
    G1("bit_and", TYPE_INT8, TYPE_INT8, impl_bit_and), G1("bit_or", TYPE_INT8, TYPE_INT8, impl_bit_or),
    FLOAT_VARS(TYPE_FLOAT4) FLOAT_VARS(TYPE_FLOAT8)
    NUM_VARS(TYPE_INT2) NUM_VARS(TYPE_INT4) NUM_VARS(TYPE_INT8) NUM_VARS(TYPE_NUMERIC)
    REGR(covar_pop, F8) REGR(covar_samp, F8) REGR(corr, F8) REGR(regr_slope, F8)
    REGR(regr_intercept, F8) REGR(regr_avgx, F8) REGR(regr_avgy, F8) REGR(regr_sxx, F8)
    REGR(regr_syy, F8) REGR(regr_sxy, F8) REGR(regr_r2, F8) REGR(regr_count, TYPE_INT8)
    G2("string_agg", TYPE_TEXT, TYPE_TEXT, TYPE_TEXT, impl_string_agg),
    OS("percentile_cont", F8, F8, F8, impl_percentile_cont),
    OS_DISC_MODE(TYPE_INT2) OS_DISC_MODE(TYPE_INT4) OS_DISC_MODE(TYPE_INT8)
    OS_DISC_MODE(TYPE_FLOAT4) OS_DISC_MODE(TYPE_FLOAT8) OS_DISC_MODE(TYPE_NUMERIC)
    OS_DISC_MODE(TYPE_TEXT) OS_DISC_MODE(TYPE_DATE) OS_DISC_MODE(TYPE_TIMESTAMP)
    OS_DISC_MODE(TYPE_BOOL)
#define ARRAY_AGG(t, at) G1("array_agg", t, at, impl_array_agg),
    ARRAY_AGG(TYPE_BOOL, TYPE_BOOL_ARRAY) ARRAY_AGG(TYPE_BYTEA, TYPE_BYTEA_ARRAY)
    ARRAY_AGG(TYPE_INT2, TYPE_INT2_ARRAY) ARRAY_AGG(TYPE_INT4, TYPE_INT4_ARRAY)
    ARRAY_AGG(TYPE_INT8, TYPE_INT8_ARRAY) ARRAY_AGG(TYPE_TEXT, TYPE_TEXT_ARRAY)
    ARRAY_AGG(TYPE_BPCHAR, TYPE_BPCHAR_ARRAY) ARRAY_AGG(TYPE_VARCHAR, TYPE_VARCHAR_ARRAY)
    ARRAY_AGG(TYPE_FLOAT4, TYPE_FLOAT4_ARRAY) ARRAY_AGG(TYPE_FLOAT8, TYPE_FLOAT8_ARRAY)
    ARRAY_AGG(TYPE_NUMERIC, TYPE_NUMERIC_ARRAY) ARRAY_AGG(TYPE_DATE, TYPE_DATE_ARRAY)
    ARRAY_AGG(TYPE_TIME, TYPE_TIME_ARRAY) ARRAY_AGG(TYPE_TIMESTAMP, TYPE_TIMESTAMP_ARRAY)
    ARRAY_AGG(TYPE_TIMESTAMPTZ, TYPE_TIMESTAMPTZ_ARRAY) ARRAY_AGG(TYPE_INTERVAL, TYPE_INTERVAL_ARRAY)
    ARRAY_AGG(TYPE_UUID, TYPE_UUID_ARRAY) ARRAY_AGG(TYPE_JSON, TYPE_JSON_ARRAY)
    ARRAY_AGG(TYPE_JSONB, TYPE_JSONB_ARRAY)
    /* json_agg(anyelement), json_object_agg("any", "any"): one entry per
     * value type; object keys of the scalar key types below. */
#define JSON_AGG_VALUE_TYPES(X, a) X(a, TYPE_BOOL) X(a, TYPE_INT2) X(a, TYPE_INT4) X(a, TYPE_INT8)     \
    X(a, TYPE_FLOAT4) X(a, TYPE_FLOAT8) X(a, TYPE_NUMERIC) X(a, TYPE_TEXT) X(a, TYPE_VARCHAR)       \
    X(a, TYPE_BPCHAR) X(a, TYPE_DATE) X(a, TYPE_TIME) X(a, TYPE_TIMESTAMP) X(a, TYPE_TIMESTAMPTZ)   \
    X(a, TYPE_INTERVAL) X(a, TYPE_UUID) X(a, TYPE_JSON) X(a, TYPE_JSONB) X(a, TYPE_BYTEA)           \
    X(a, TYPE_INT4_ARRAY) X(a, TYPE_INT8_ARRAY) X(a, TYPE_TEXT_ARRAY) X(a, TYPE_FLOAT8_ARRAY)      \
    X(a, TYPE_NUMERIC_ARRAY)
#define JAGG(unused, t) G1("json_agg", t, TYPE_JSON, impl_json_agg), G1("jsonb_agg", t, TYPE_JSONB, impl_jsonb_agg),
#define JOAGG(k, t) G2("json_object_agg", k, t, TYPE_JSON, impl_json_object_agg), \
    G2("jsonb_object_agg", k, t, TYPE_JSONB, impl_jsonb_object_agg),
    JSON_AGG_VALUE_TYPES(JAGG, 0)
    JSON_AGG_VALUE_TYPES(JOAGG, TYPE_TEXT) JSON_AGG_VALUE_TYPES(JOAGG, TYPE_VARCHAR)
    JSON_AGG_VALUE_TYPES(JOAGG, TYPE_INT4) JSON_AGG_VALUE_TYPES(JOAGG, TYPE_INT8)
};
const int exec__aggs_generic_count = (int)(sizeof exec__aggs_generic / sizeof exec__aggs_generic[0]);
