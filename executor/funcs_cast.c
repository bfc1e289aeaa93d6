/*
 * funcs_cast.c — the cast table (PostgreSQL's pg_cast plus its automatic
 * I/O conversion casts) and the cast kernels.
 *
 * Contexts follow PostgreSQL 15: int2→int4→int8 implicit and back by
 * assignment; integers → float/numeric implicit; float → int and
 * float → numeric by assignment (rint, range checked); numeric → int by
 * assignment (half away from zero), numeric → float implicit; date →
 * timestamp implicit, timestamp → date assignment; date/timestamp →
 * timestamptz implicit and timestamptz → timestamp/date/time assignment
 * (through the session time zone); time ↔ interval; json ↔ jsonb
 * assignment (I/O conversion); bool ↔ int4 explicit;
 * every type → text/varchar/bpchar by assignment through its output
 * function (bool gives "true"/"false", as PostgreSQL's text(bool));
 * text/varchar/bpchar → other types explicit through the input function;
 * text ↔ varchar ↔ bpchar implicit (bpchar loses its trailing spaces);
 * unknown (untyped literals) → anything implicit through the input function.
 * Same-type entries varchar→varchar, bpchar→bpchar, numeric→numeric are the
 * typmod (length/precision) coercions.
 *
 * Every kernel applies ctx->result_type's typmod, so a cast to varchar(n)
 * or numeric(p,s) needs no separate coercion step. varchar(n)/char(n):
 * the explicit form (exec__casts_explicit, what exec_cast_lookup_explicit
 * returns) truncates, the implicit/assignment form raises 22001.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "common/datetime.h"
#include "common/interval.h"
#include "common/tz.h"
#include "common/error.h"
#include "common/numeric.h"
#include "common/typio.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

/* ---------- fixed-width numeric casts (vectorised template) ---------- */

static _Noreturn void raise_i16(unsigned bits)
{
    (void)bits;
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range");
}
static _Noreturn void raise_i32(unsigned bits)
{
    (void)bits;
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
}
static _Noreturn void raise_i64(unsigned bits)
{
    (void)bits;
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
}
static _Noreturn void raise_float(unsigned bits)
{
    if (bits & KBAD_UNDERFLOW)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
}

#define CONVERT(T, r, a, bad) ((void)(bad), r = (T)(a))
#define TO_F4(r, a, bad) CONVERT(float, r, a, bad)
#define TO_F8(r, a, bad) CONVERT(double, r, a, bad)
#define TO_I16(r, a, bad) CONVERT(int16_t, r, a, bad)
#define TO_I32(r, a, bad) CONVERT(int32_t, r, a, bad)
#define TO_I64(r, a, bad) CONVERT(int64_t, r, a, bad)
#define TO_BOOL(r, a, bad) ((void)(bad), r = (uint8_t)((a) != 0))
/* Narrowing integers: overflow when the value doesn't round-trip. */
#define NARROW(T, r, a, bad) \
    do { int64_t x_ = (a); r = (T)x_; bad |= (unsigned)(x_ != (int64_t)(T)x_); } while (0)
#define NARROW_I16(r, a, bad) NARROW(int16_t, r, a, bad)
#define NARROW_I32(r, a, bad) NARROW(int32_t, r, a, bad)
/* float → int as PostgreSQL's float8_int4: rint, then NaN or outside
 * [MIN, -MIN) is out of range; the conversion itself only for values in
 * range (out-of-range float → int conversion is undefined in C). */
#define FLOAT_TO_INT(T, FT, RINT, MINV, r, a, bad)                                   \
    do {                                                                             \
        FT x_ = RINT(a);                                                             \
        unsigned ok_ = (unsigned)((x_ >= (FT)(MINV)) & (x_ < -(FT)(MINV)));          \
        r = ok_ ? (T)x_ : (T)0;                                                      \
        bad |= !ok_;                                                                 \
    } while (0)
#define F8_TO_I16(r, a, bad) FLOAT_TO_INT(int16_t, double, rint, INT16_MIN, r, a, bad)
#define F8_TO_I32(r, a, bad) FLOAT_TO_INT(int32_t, double, rint, INT32_MIN, r, a, bad)
#define F8_TO_I64(r, a, bad) FLOAT_TO_INT(int64_t, double, rint, INT64_MIN, r, a, bad)
#define F4_TO_I16(r, a, bad) FLOAT_TO_INT(int16_t, float, rintf, INT16_MIN, r, a, bad)
#define F4_TO_I32(r, a, bad) FLOAT_TO_INT(int32_t, float, rintf, INT32_MIN, r, a, bad)
#define F4_TO_I64(r, a, bad) FLOAT_TO_INT(int64_t, float, rintf, INT64_MIN, r, a, bad)
/* float8 → float4 as float8_float4. */
#define F8_TO_F4(r, a, bad)                                                          \
    do {                                                                             \
        double x_ = (a); float f_ = (float)x_; r = f_;                               \
        bad |= (unsigned)(__builtin_isinf(f_) && !__builtin_isinf(x_)) * KBAD_OVERFLOW | \
               (unsigned)((f_ == 0.0f) & (x_ != 0.0)) * KBAD_UNDERFLOW;              \
    } while (0)

/* X(name, AT, RES, OP, RAISE) */
#define CAST_FIXED(X)                                      \
    X(i2_i4, int16_t, int32_t, TO_I32, KERNEL_NO_RAISE)    \
    X(i2_i8, int16_t, int64_t, TO_I64, KERNEL_NO_RAISE)    \
    X(i4_i8, int32_t, int64_t, TO_I64, KERNEL_NO_RAISE)    \
    X(i4_i2, int32_t, int16_t, NARROW_I16, raise_i16)      \
    X(i8_i2, int64_t, int16_t, NARROW_I16, raise_i16)      \
    X(i8_i4, int64_t, int32_t, NARROW_I32, raise_i32)      \
    X(i2_f4, int16_t, float, TO_F4, KERNEL_NO_RAISE)       \
    X(i4_f4, int32_t, float, TO_F4, KERNEL_NO_RAISE)       \
    X(i8_f4, int64_t, float, TO_F4, KERNEL_NO_RAISE)       \
    X(i2_f8, int16_t, double, TO_F8, KERNEL_NO_RAISE)      \
    X(i4_f8, int32_t, double, TO_F8, KERNEL_NO_RAISE)      \
    X(i8_f8, int64_t, double, TO_F8, KERNEL_NO_RAISE)      \
    X(f4_f8, float, double, TO_F8, KERNEL_NO_RAISE)        \
    X(f8_f4, double, float, F8_TO_F4, raise_float)         \
    X(f4_i2, float, int16_t, F4_TO_I16, raise_i16)         \
    X(f4_i4, float, int32_t, F4_TO_I32, raise_i32)         \
    X(f4_i8, float, int64_t, F4_TO_I64, raise_i64)         \
    X(f8_i2, double, int16_t, F8_TO_I16, raise_i16)        \
    X(f8_i4, double, int32_t, F8_TO_I32, raise_i32)        \
    X(f8_i8, double, int64_t, F8_TO_I64, raise_i64)        \
    X(bool_i4, uint8_t, int32_t, TO_I32, KERNEL_NO_RAISE)  \
    X(i4_bool, int32_t, uint8_t, TO_BOOL, KERNEL_NO_RAISE)

#define X_KERNEL(name, AT, RES, OP, RAISE) KERNEL_UNARY(k_##name, AT, RES, OP, RAISE)
CAST_FIXED(X_KERNEL)
#undef X_KERNEL

/* ---------- numeric (row at a time), with the target typmod ---------- */

static inline StrRef numeric_typmod(const FuncCallCtx *ctx, StrRef v)
{
    if (ctx->result_type.typmod < 0) return v;
    return numeric_apply_typmod(v, ctx->result_type.typmod, ctx->arena);
}

/* float4 → numeric as PostgreSQL's float4_numeric: FLT_DIG significant digits. */
static StrRef numeric_from_float4(float v, MemArena *arena)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.*g", 6, (double)v);
    if (isnan(v)) n = snprintf(buf, sizeof buf, "NaN");
    return numeric_in(buf, (size_t)n, -1, arena);
}

/* numeric → float4: through float8, overflow checked as float4in would. */
static float numeric_to_float4(StrRef v, MemArena *arena)
{
    double d = numeric_to_double(v);
    float f = (float)d;
    if ((isinf(f) && !isinf(d)) || (f == 0.0f && d != 0.0)) {
        uint32_t len;
        char *txt = numeric_format_arena(v, arena, &len);
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "\"%s\" is out of range for type real", txt);
    }
    return f;
}

KERNEL_ROWS_UNARY(k_i2_num, int16_t, StrRef, r[row] = numeric_typmod(ctx, numeric_from_int64(a[ia], arena)))
KERNEL_ROWS_UNARY(k_i4_num, int32_t, StrRef, r[row] = numeric_typmod(ctx, numeric_from_int64(a[ia], arena)))
KERNEL_ROWS_UNARY(k_i8_num, int64_t, StrRef, r[row] = numeric_typmod(ctx, numeric_from_int64(a[ia], arena)))
KERNEL_ROWS_UNARY(k_f4_num, float, StrRef, r[row] = numeric_typmod(ctx, numeric_from_float4(a[ia], arena)))
KERNEL_ROWS_UNARY(k_f8_num, double, StrRef, r[row] = numeric_typmod(ctx, numeric_from_double(a[ia], arena)))
KERNEL_ROWS_UNARY(k_num_num, StrRef, StrRef, r[row] = numeric_typmod(ctx, a[ia]))
KERNEL_ROWS_UNARY(k_num_i2, StrRef, int16_t, r[row] = numeric_to_int16(a[ia]))
KERNEL_ROWS_UNARY(k_num_i4, StrRef, int32_t, r[row] = numeric_to_int32(a[ia]))
KERNEL_ROWS_UNARY(k_num_i8, StrRef, int64_t, r[row] = numeric_to_int64(a[ia]))
KERNEL_ROWS_UNARY(k_num_f4, StrRef, float, r[row] = numeric_to_float4(a[ia], arena))
KERNEL_ROWS_UNARY(k_num_f8, StrRef, double, r[row] = numeric_to_double(a[ia]))

/* ---------- date ↔ timestamp ---------- */

static inline int64_t date_to_ts(int32_t d)
{
    if (d == DATE_NOBEGIN) return TS_NOBEGIN;
    if (d == DATE_NOEND) return TS_NOEND;
    return timestamp_from_date(d);
}
static inline int32_t ts_to_date(int64_t ts)
{
    if (ts == TS_NOBEGIN) return DATE_NOBEGIN;
    if (ts == TS_NOEND) return DATE_NOEND;
    return date_from_timestamp(ts);
}
KERNEL_ROWS_UNARY(k_date_ts, int32_t, int64_t, r[row] = date_to_ts(a[ia]))
KERNEL_ROWS_UNARY(k_ts_date, int64_t, int32_t, r[row] = ts_to_date(a[ia]))

/* ---------- to and from strings ---------- */

/* Apply the string target's typmod (varchar(n)/char(n)) to every active
 * non-NULL row of result. */
static void str_finish(const FuncCallCtx *ctx, Vector *result, bool is_explicit)
{
    SqlType t = ctx->result_type;
    if (t.typmod < 0 || (t.oid != TYPE_VARCHAR && t.oid != TYPE_BPCHAR)) return;
    StrRef *r = (StrRef *)result->data;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        r[row] = typio_char_typmod(t, r[row].ptr, r[row].len, is_explicit, ctx->arena);
    }
}

/* Any non-string type → text/varchar/bpchar through its output function. */
static void cast_out(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool is_explicit)
{
    const Vector *src = args[0];
    StrRef *r = (StrRef *)result->data;
    StrRef *tmp = mem_alloc(ctx->arena, sizeof(StrRef) * (ctx->count ? ctx->count : 1));
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    type_output_vector(src, ctx->sel, ctx->count, &opt, ctx->arena, tmp);
    bool is_bool = src->type.oid == TYPE_BOOL;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        StrRef s = tmp[i];
        if (s.ptr == NULL) continue;
        /* text(bool) spells booleans out, unlike boolout's t/f */
        if (is_bool) s = s.ptr[0] == 't' ? (StrRef){"true", 4} : (StrRef){"false", 5};
        r[row] = s;
    }
    str_finish(ctx, result, is_explicit);
}

/* Between string types: bpchar sources lose trailing spaces (rtrim1),
 * text/varchar/unknown pass through; then the target typmod. */
static void cast_str(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool is_explicit)
{
    const StrRef *a = (const StrRef *)args[0]->data;
    StrRef *r = (StrRef *)result->data;
    uint32_t am = args[0]->is_const ? 0 : UINT32_MAX;
    bool trim = args[0]->type.oid == TYPE_BPCHAR && ctx->result_type.oid != TYPE_BPCHAR;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        StrRef s = a[row & am];
        if (trim)
            while (s.len > 0 && s.ptr[s.len - 1] == ' ') s.len--;
        r[row] = s;
    }
    str_finish(ctx, result, is_explicit);
}

/* String (or unknown literal) → any type through its input function. */
static void cast_in(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const StrRef *a = (const StrRef *)args[0]->data;
    uint32_t am = args[0]->is_const ? 0 : UINT32_MAX;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        StrRef s = a[row & am];
        Value v;
        type_input(ctx->result_type, s.ptr ? s.ptr : "", s.len, ctx->arena, &v);
        vec_set_value(result, row, &v);
    }
}

static void k_out(const FuncCallCtx *c, Vector *const *a, Vector *r) { cast_out(c, a, r, false); }
static void k_out_x(const FuncCallCtx *c, Vector *const *a, Vector *r) { cast_out(c, a, r, true); }
static void k_str(const FuncCallCtx *c, Vector *const *a, Vector *r) { cast_str(c, a, r, false); }
static void k_str_x(const FuncCallCtx *c, Vector *const *a, Vector *r) { cast_str(c, a, r, true); }
static void k_in(const FuncCallCtx *c, Vector *const *a, Vector *r) { cast_in(c, a, r); }

/* ---------- timestamptz, time, interval, json/jsonb ---------- */

/* Local wall-clock timestamp → timestamptz in the session zone (infinities kept). */
static int64_t local_to_tz(int64_t ts)
{
    if (ts == TS_NOBEGIN || ts == TS_NOEND) return ts;
    return timestamp_local_to_tz(ts, tz_session_zone());
}
static int64_t tz_to_local(int64_t ts)
{
    if (ts == TS_NOBEGIN || ts == TS_NOEND) return ts;
    return timestamptz_to_local(ts, tz_session_zone());
}
static int64_t date_to_tz(int32_t d)
{
    if (d == DATE_NOBEGIN) return TS_NOBEGIN;
    if (d == DATE_NOEND) return TS_NOEND;
    return local_to_tz(timestamp_from_date(d));
}
/* time of day of a (local) timestamp, in microseconds */
static int64_t ts_time_of_day(int64_t ts)
{
    int64_t t = ts % USECS_PER_DAY;
    return t < 0 ? t + USECS_PER_DAY : t;
}
static int64_t tz_time_of_day(int64_t ts) { return ts_time_of_day(tz_to_local(ts)); }
static int32_t tz_to_date(int64_t ts) { return ts_to_date(tz_to_local(ts)); }

KERNEL_ROWS_UNARY(k_date_tz, int32_t, int64_t, r[row] = date_to_tz(a[ia]))
KERNEL_ROWS_UNARY(k_ts_tz, int64_t, int64_t, r[row] = local_to_tz(a[ia]))
KERNEL_ROWS_UNARY(k_tz_ts, int64_t, int64_t, r[row] = tz_to_local(a[ia]))
KERNEL_ROWS_UNARY(k_tz_date, int64_t, int32_t, r[row] = tz_to_date(a[ia]))
KERNEL_ROWS_UNARY(k_ts_time, int64_t, int64_t, r[row] = ts_time_of_day(a[ia]))
KERNEL_ROWS_UNARY(k_tz_time, int64_t, int64_t, r[row] = tz_time_of_day(a[ia]))

/* time → interval (micros only); interval → time (its time part modulo a day). */
static StrRef time_to_interval(int64_t t, MemArena *arena)
{
    return interval_make((Interval){t, 0, 0}, arena);
}
static int64_t interval_to_time(StrRef iv)
{
    int64_t t = interval_get(iv).micros % USECS_PER_DAY;
    return t < 0 ? t + USECS_PER_DAY : t;
}
KERNEL_ROWS_UNARY(k_time_interval, int64_t, StrRef, r[row] = time_to_interval(a[ia], arena))
KERNEL_ROWS_UNARY(k_interval_time, StrRef, int64_t, r[row] = interval_to_time(a[ia]))

/* I/O conversion between two non-string types (json ↔ jsonb): the
 * source's output function, then the target's input function. */
static void k_io(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    StrRef *tmp = mem_alloc(ctx->arena, sizeof(StrRef) * (ctx->count ? ctx->count : 1));
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    type_output_vector(args[0], ctx->sel, ctx->count, &opt, ctx->arena, tmp);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row) || tmp[i].ptr == NULL) continue;
        Value v;
        type_input(ctx->result_type, tmp[i].ptr, tmp[i].len, ctx->arena, &v);
        vec_set_value(result, row, &v);
    }
}

/* ---------- the table: X(source, target, context, kernel, explicit kernel) ---------- */

#define CAST_SAME(X, s, t, c, k) X(s, t, c, k, k)
#define CAST_TO_STRINGS(X, s) \
    X(s, TYPE_TEXT, 'a', k_out, k_out_x) X(s, TYPE_VARCHAR, 'a', k_out, k_out_x) \
    X(s, TYPE_BPCHAR, 'a', k_out, k_out_x)
#define CAST_FROM_STRING(X, s)                                                     \
    X(s, TYPE_BOOL, 'e', k_in, k_in) X(s, TYPE_INT2, 'e', k_in, k_in)             \
    X(s, TYPE_INT4, 'e', k_in, k_in) X(s, TYPE_INT8, 'e', k_in, k_in)             \
    X(s, TYPE_FLOAT4, 'e', k_in, k_in) X(s, TYPE_FLOAT8, 'e', k_in, k_in)         \
    X(s, TYPE_NUMERIC, 'e', k_in, k_in) X(s, TYPE_DATE, 'e', k_in, k_in)          \
    X(s, TYPE_TIMESTAMP, 'e', k_in, k_in) X(s, TYPE_TIMESTAMPTZ, 'e', k_in, k_in)    \
    X(s, TYPE_TIME, 'e', k_in, k_in) X(s, TYPE_INTERVAL, 'e', k_in, k_in)           \
    X(s, TYPE_UUID, 'e', k_in, k_in) X(s, TYPE_JSON, 'e', k_in, k_in)               \
    X(s, TYPE_JSONB, 'e', k_in, k_in) X(s, TYPE_BYTEA, 'e', k_in, k_in)

#define CAST_LIST(X)                                                                          \
    CAST_SAME(X, TYPE_INT2, TYPE_INT4, 'i', k_i2_i4) CAST_SAME(X, TYPE_INT2, TYPE_INT8, 'i', k_i2_i8) \
    CAST_SAME(X, TYPE_INT4, TYPE_INT8, 'i', k_i4_i8) CAST_SAME(X, TYPE_INT4, TYPE_INT2, 'a', k_i4_i2) \
    CAST_SAME(X, TYPE_INT8, TYPE_INT2, 'a', k_i8_i2) CAST_SAME(X, TYPE_INT8, TYPE_INT4, 'a', k_i8_i4) \
    CAST_SAME(X, TYPE_INT2, TYPE_FLOAT4, 'i', k_i2_f4) CAST_SAME(X, TYPE_INT4, TYPE_FLOAT4, 'i', k_i4_f4) \
    CAST_SAME(X, TYPE_INT8, TYPE_FLOAT4, 'i', k_i8_f4) CAST_SAME(X, TYPE_INT2, TYPE_FLOAT8, 'i', k_i2_f8) \
    CAST_SAME(X, TYPE_INT4, TYPE_FLOAT8, 'i', k_i4_f8) CAST_SAME(X, TYPE_INT8, TYPE_FLOAT8, 'i', k_i8_f8) \
    CAST_SAME(X, TYPE_INT2, TYPE_NUMERIC, 'i', k_i2_num) CAST_SAME(X, TYPE_INT4, TYPE_NUMERIC, 'i', k_i4_num) \
    CAST_SAME(X, TYPE_INT8, TYPE_NUMERIC, 'i', k_i8_num)                                     \
    CAST_SAME(X, TYPE_FLOAT4, TYPE_FLOAT8, 'i', k_f4_f8) CAST_SAME(X, TYPE_FLOAT8, TYPE_FLOAT4, 'a', k_f8_f4) \
    CAST_SAME(X, TYPE_FLOAT4, TYPE_INT2, 'a', k_f4_i2) CAST_SAME(X, TYPE_FLOAT4, TYPE_INT4, 'a', k_f4_i4) \
    CAST_SAME(X, TYPE_FLOAT4, TYPE_INT8, 'a', k_f4_i8) CAST_SAME(X, TYPE_FLOAT8, TYPE_INT2, 'a', k_f8_i2) \
    CAST_SAME(X, TYPE_FLOAT8, TYPE_INT4, 'a', k_f8_i4) CAST_SAME(X, TYPE_FLOAT8, TYPE_INT8, 'a', k_f8_i8) \
    CAST_SAME(X, TYPE_FLOAT4, TYPE_NUMERIC, 'a', k_f4_num) CAST_SAME(X, TYPE_FLOAT8, TYPE_NUMERIC, 'a', k_f8_num) \
    CAST_SAME(X, TYPE_NUMERIC, TYPE_INT2, 'a', k_num_i2) CAST_SAME(X, TYPE_NUMERIC, TYPE_INT4, 'a', k_num_i4) \
    CAST_SAME(X, TYPE_NUMERIC, TYPE_INT8, 'a', k_num_i8) CAST_SAME(X, TYPE_NUMERIC, TYPE_FLOAT4, 'i', k_num_f4) \
    CAST_SAME(X, TYPE_NUMERIC, TYPE_FLOAT8, 'i', k_num_f8) CAST_SAME(X, TYPE_NUMERIC, TYPE_NUMERIC, 'i', k_num_num) \
    CAST_SAME(X, TYPE_BOOL, TYPE_INT4, 'e', k_bool_i4) CAST_SAME(X, TYPE_INT4, TYPE_BOOL, 'e', k_i4_bool) \
    CAST_SAME(X, TYPE_DATE, TYPE_TIMESTAMP, 'i', k_date_ts) CAST_SAME(X, TYPE_TIMESTAMP, TYPE_DATE, 'a', k_ts_date) \
    CAST_TO_STRINGS(X, TYPE_BOOL) CAST_TO_STRINGS(X, TYPE_INT2) CAST_TO_STRINGS(X, TYPE_INT4)   \
    CAST_TO_STRINGS(X, TYPE_INT8) CAST_TO_STRINGS(X, TYPE_FLOAT4) CAST_TO_STRINGS(X, TYPE_FLOAT8) \
    CAST_TO_STRINGS(X, TYPE_NUMERIC) CAST_TO_STRINGS(X, TYPE_DATE) CAST_TO_STRINGS(X, TYPE_TIMESTAMP) \
    CAST_TO_STRINGS(X, TYPE_TIMESTAMPTZ) CAST_TO_STRINGS(X, TYPE_TIME) CAST_TO_STRINGS(X, TYPE_INTERVAL) \
    CAST_TO_STRINGS(X, TYPE_UUID) CAST_TO_STRINGS(X, TYPE_JSON) CAST_TO_STRINGS(X, TYPE_JSONB)  \
    CAST_TO_STRINGS(X, TYPE_BYTEA)                                                            \
    CAST_SAME(X, TYPE_DATE, TYPE_TIMESTAMPTZ, 'i', k_date_tz) CAST_SAME(X, TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ, 'i', k_ts_tz) \
    CAST_SAME(X, TYPE_TIMESTAMPTZ, TYPE_TIMESTAMP, 'a', k_tz_ts) CAST_SAME(X, TYPE_TIMESTAMPTZ, TYPE_DATE, 'a', k_tz_date) \
    CAST_SAME(X, TYPE_TIMESTAMP, TYPE_TIME, 'a', k_ts_time) CAST_SAME(X, TYPE_TIMESTAMPTZ, TYPE_TIME, 'a', k_tz_time) \
    CAST_SAME(X, TYPE_TIME, TYPE_INTERVAL, 'i', k_time_interval) CAST_SAME(X, TYPE_INTERVAL, TYPE_TIME, 'a', k_interval_time) \
    CAST_SAME(X, TYPE_JSON, TYPE_JSONB, 'a', k_io) CAST_SAME(X, TYPE_JSONB, TYPE_JSON, 'a', k_io) \
    CAST_FROM_STRING(X, TYPE_TEXT) CAST_FROM_STRING(X, TYPE_VARCHAR) CAST_FROM_STRING(X, TYPE_BPCHAR) \
    X(TYPE_TEXT, TYPE_VARCHAR, 'i', k_str, k_str_x) X(TYPE_TEXT, TYPE_BPCHAR, 'i', k_str, k_str_x) \
    X(TYPE_VARCHAR, TYPE_TEXT, 'i', k_str, k_str_x) X(TYPE_VARCHAR, TYPE_BPCHAR, 'i', k_str, k_str_x) \
    X(TYPE_BPCHAR, TYPE_TEXT, 'i', k_str, k_str_x) X(TYPE_BPCHAR, TYPE_VARCHAR, 'i', k_str, k_str_x) \
    X(TYPE_VARCHAR, TYPE_VARCHAR, 'i', k_str, k_str_x) X(TYPE_BPCHAR, TYPE_BPCHAR, 'i', k_str, k_str_x) \
    X(TYPE_UNKNOWN, TYPE_TEXT, 'i', k_str, k_str_x) X(TYPE_UNKNOWN, TYPE_VARCHAR, 'i', k_str, k_str_x) \
    X(TYPE_UNKNOWN, TYPE_BPCHAR, 'i', k_str, k_str_x)                                         \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_BOOL, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_INT2, 'i', k_in) \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_INT4, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_INT8, 'i', k_in) \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_FLOAT4, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_FLOAT8, 'i', k_in) \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_NUMERIC, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_DATE, 'i', k_in) \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_TIMESTAMP, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_TIMESTAMPTZ, 'i', k_in) \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_TIME, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_INTERVAL, 'i', k_in) \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_UUID, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_JSON, 'i', k_in) \
    CAST_SAME(X, TYPE_UNKNOWN, TYPE_JSONB, 'i', k_in) CAST_SAME(X, TYPE_UNKNOWN, TYPE_BYTEA, 'i', k_in)

const CastDesc exec__casts[] = {
#define X_ENTRY(s, t, c, k, kx) {(s), (t), (c), k},
    CAST_LIST(X_ENTRY)
#undef X_ENTRY
};
const CastDesc exec__casts_explicit[] = {
#define X_ENTRY(s, t, c, k, kx) {(s), (t), (c), kx},
    CAST_LIST(X_ENTRY)
#undef X_ENTRY
};
const int exec__casts_count = (int)(sizeof exec__casts / sizeof exec__casts[0]);
