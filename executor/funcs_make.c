/*
 * funcs_make.c — the date/time constructors with more arguments than the
 * kernel templates take: make_time, make_timestamp, make_timestamptz (with
 * and without a zone), make_interval (0 to 7 arguments, as PostgreSQL's
 * defaults allow), and setseed (funcs_math.c owns random()'s state).
 *
 * Semantics and messages are PostgreSQL 15's (timestamp.c
 * make_timestamp_internal, float_time_overflows, make_interval,
 * parse_sane_timezone). Kernels are row loops over the active, non-NULL
 * rows with direct calls.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "common/datetime.h"
#include "common/error.h"
#include "common/interval.h"
#include "common/types.h"
#include "common/tz.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

#define I4 TYPE_INT4
#define F8 TYPE_FLOAT8
#define TX TYPE_TEXT

/* Earliest and latest valid timestamps (PostgreSQL's MIN_TIMESTAMP and END_TIMESTAMP). */
#define TS_MIN_VALID INT64_C(-211813488000000000)
#define TS_END_VALID INT64_C(9223371331200000000)

static inline int32_t i4(Vector *const *a, int k, uint32_t row)
{
    return ((const int32_t *)a[k]->data)[a[k]->is_const ? 0 : row];
}
static inline double f8(Vector *const *a, int k, uint32_t row)
{
    return ((const double *)a[k]->data)[a[k]->is_const ? 0 : row];
}

#define FOR_VALID(ctx, result, row)                                                   \
    for (uint32_t i_ = 0, row = 0; i_ < (ctx)->count; i_++)                           \
        if ((row = (ctx)->sel ? (ctx)->sel[i_] : i_), kernel_row_valid((result), row))

/* float_time_overflows: hour 0..24, min 0..59, sec 0..60, total ≤ 24:00:00. */
static bool time_overflows(int hour, int min, double sec)
{
    if (hour < 0 || hour > 24 || min < 0 || min >= 60 || isnan(sec)) return true;
    sec = rint(sec * 1e6);
    if (sec < 0 || sec > 60e6) return true;
    return ((int64_t)(hour * 60 + min) * 60) * 1000000 + (int64_t)sec > USECS_PER_DAY;
}

static int64_t time_of(int hour, int min, double sec)
{
    return ((int64_t)(hour * 60 + min) * 60) * 1000000 + (int64_t)rint(sec * 1e6);
}

static void k_make_time(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int64_t *r = result->data;
    FOR_VALID(ctx, result, row) {
        int h = i4(args, 0, row), m = i4(args, 1, row);
        double s = f8(args, 2, row);
        if (time_overflows(h, m, s))
            err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "time field value out of range: %d:%02d:%02g", h, m, s);
        r[row] = time_of(h, m, s);
    }
}

/* make_timestamp_internal: negative years are BC, no year zero. */
static int64_t make_ts(int y, int mo, int d, int h, int mi, double s)
{
    int year = y < 0 ? y + 1 : y;
    if (y == 0 || !date_ymd_valid(year, mo, d))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date field value out of range: %d-%02d-%02d", y, mo, d);
    bool julian_ok = (year > -4713 || (year == -4713 && mo >= 11)) &&
                     (year < 5874898 || (year == 5874898 && mo < 6));
    if (!julian_ok)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range: %d-%02d-%02d", y, mo, d);
    int64_t date = date_from_ymd(year, mo, d);
    if (time_overflows(h, mi, s))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "time field value out of range: %d:%02d:%02g", h, mi, s);
    int64_t time = time_of(h, mi, s), result;
    bool bad = __builtin_mul_overflow(date, USECS_PER_DAY, &result) ||
               __builtin_add_overflow(result, time, &result) ||
               (result < 0 && date > 0) || (result > 0 && date < -1) ||
               result < TS_MIN_VALID || result >= TS_END_VALID;
    if (bad)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: %d-%02d-%02d %d:%02d:%02g",
                  y, mo, d, h, mi, s);
    return result;
}

static int64_t make_ts_args(Vector *const *args, uint32_t row)
{
    return make_ts(i4(args, 0, row), i4(args, 1, row), i4(args, 2, row), i4(args, 3, row),
                   i4(args, 4, row), f8(args, 5, row));
}

static void k_make_timestamp(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int64_t *r = result->data;
    FOR_VALID(ctx, result, row) r[row] = make_ts_args(args, row);
}

static void k_make_timestamptz(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int64_t *r = result->data;
    FOR_VALID(ctx, result, row) r[row] = timestamp_local_to_tz(make_ts_args(args, row), tz_session_zone());
}

/* DecodeTimezone: [+-]h[h][[:]mm[[:]ss]] → seconds east; false if malformed. */
static bool numeric_zone(const char *s, int32_t *east)
{
    int sign = *s == '-' ? -1 : 1, hr = 0, mn = 0, sc = 0, nd = 0;
    if (*s != '+' && *s != '-') return false;
    const char *p = s + 1;
    while (isdigit((unsigned char)*p)) hr = hr * 10 + (*p++ - '0'), nd++;
    if (nd == 0 || nd > 6) return false;
    if (*p == ':') {
        p++;
        if (!isdigit((unsigned char)p[0])) return false;
        while (isdigit((unsigned char)*p)) mn = mn * 10 + (*p++ - '0');
        if (*p == ':') {
            p++;
            while (isdigit((unsigned char)*p)) sc = sc * 10 + (*p++ - '0');
        }
    } else if (nd > 2) {                 /* hhmm or hhmmss */
        int v = hr;
        if (nd <= 4) hr = v / 100, mn = v % 100;
        else hr = v / 10000, mn = v / 100 % 100, sc = v % 100;
    }
    if (*p != '\0' || hr > 15 || mn > 59 || sc > 59) return false;
    *east = sign * (hr * 3600 + mn * 60 + sc);
    return true;
}

/* parse_sane_timezone + the conversion: the instant the wall clock ts
 * denotes in zone. */
static int64_t at_zone(int64_t ts, StrRef zone, MemArena *arena)
{
    char *z = mem_strndup(arena, zone.ptr ? zone.ptr : "", zone.len);
    if (isdigit((unsigned char)z[0])) {
        ErrorData *e = err_begin(ERRCODE_INVALID_PARAMETER_VALUE);
        err_message(e, "invalid input syntax for type %s: \"%s\"", "numeric time zone", z);
        err_hint(e, "Numeric time zones must have \"-\" or \"+\" as first character.");
        err_throw();
    }
    int32_t east;
    if (numeric_zone(z, &east)) return ts - (int64_t)east * 1000000;
    const TzZone *tz = tz_load(z);
    if (tz == NULL) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "time zone \"%s\" not recognized", z);
    return timestamp_local_to_tz(ts, tz);
}

static void k_make_timestamptz_zone(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int64_t *r = result->data;
    FOR_VALID(ctx, result, row) {
        StrRef zone = ((const StrRef *)args[6]->data)[args[6]->is_const ? 0 : row];
        r[row] = at_zone(make_ts_args(args, row), zone, ctx->arena);
    }
}

/* make_interval(years, months, weeks, days, hours, mins, secs): missing
 * trailing arguments are 0. PostgreSQL 15 checks only secs for range
 * (the integer products wrap there; computed here in unsigned arithmetic
 * to wrap the same way without undefined behaviour). */
static void make_interval_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int n)
{
    StrRef *r = result->data;
    FOR_VALID(ctx, result, row) {
        int32_t v[6] = {0};
        for (int k = 0; k < n && k < 6; k++) v[k] = i4(args, k, row);
        double secs = n == 7 ? f8(args, 6, row) : 0.0;
        if (isinf(secs) || isnan(secs))
            err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
        secs = rint(secs * 1e6);
        if (!(secs >= -9223372036854775808.0 && secs < 9223372036854775808.0))
            err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
        Interval iv;
        iv.months = (int32_t)((uint32_t)v[0] * 12u + (uint32_t)v[1]);
        iv.days = (int32_t)((uint32_t)v[2] * 7u + (uint32_t)v[3]);
        iv.micros = (int64_t)((uint64_t)(int64_t)v[4] * UINT64_C(3600000000) +
                              (uint64_t)(int64_t)v[5] * UINT64_C(60000000) + (uint64_t)(int64_t)secs);
        r[row] = interval_make(iv, ctx->arena);
    }
}
#define MI_KERNEL(N) \
    static void k_make_interval_##N(const FuncCallCtx *c, Vector *const *a, Vector *r) \
    { make_interval_kernel(c, a, r, N); }
MI_KERNEL(0) MI_KERNEL(1) MI_KERNEL(2) MI_KERNEL(3) MI_KERNEL(4) MI_KERNEL(5) MI_KERNEL(6) MI_KERNEL(7)

/* ---------- the table ---------- */

#define S FUNC_STRICT
#define IVT TYPE_INTERVAL
const FuncDesc exec__funcs_make[] = {
    {"make_time", 3, {I4, I4, F8}, TYPE_TIME, S, k_make_time, 3847},
    {"make_timestamp", 6, {I4, I4, I4, I4, I4, F8}, TYPE_TIMESTAMP, S, k_make_timestamp, 3461},
    {"make_timestamptz", 6, {I4, I4, I4, I4, I4, F8}, TYPE_TIMESTAMPTZ, S | FUNC_STABLE,
     k_make_timestamptz, 3462},
    {"make_timestamptz", 7, {I4, I4, I4, I4, I4, F8, TX}, TYPE_TIMESTAMPTZ, S | FUNC_STABLE,
     k_make_timestamptz_zone, 3463},
    {"make_interval", 0, {0}, IVT, S, k_make_interval_0, 3464},
    {"make_interval", 1, {I4}, IVT, S, k_make_interval_1, 3464},
    {"make_interval", 2, {I4, I4}, IVT, S, k_make_interval_2, 3464},
    {"make_interval", 3, {I4, I4, I4}, IVT, S, k_make_interval_3, 3464},
    {"make_interval", 4, {I4, I4, I4, I4}, IVT, S, k_make_interval_4, 3464},
    {"make_interval", 5, {I4, I4, I4, I4, I4}, IVT, S, k_make_interval_5, 3464},
    {"make_interval", 6, {I4, I4, I4, I4, I4, I4}, IVT, S, k_make_interval_6, 3464},
    {"make_interval", 7, {I4, I4, I4, I4, I4, I4, F8}, IVT, S, k_make_interval_7, 3464},
};
const int exec__funcs_make_count = (int)(sizeof exec__funcs_make / sizeof exec__funcs_make[0]);
