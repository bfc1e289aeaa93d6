/*
 * funcs_datetime.c — date/time operators and functions over common/'s
 * timestamp, timestamptz, time and interval: timestamp/timestamptz/date ±
 * interval, timestamp − timestamp, interval arithmetic (+ − unary − * /),
 * time ± interval, time − time, date + time; justify_days/hours/interval,
 * make_date, date_trunc (timestamp, timestamptz [, zone], interval),
 * date_bin, extract (→ numeric, as PostgreSQL ≥ 14) and date_part
 * (→ float8) for timestamp, timestamptz, date and interval, age,
 * clock_timestamp, timezone (AT TIME ZONE), isfinite, to_timestamp(float8)
 * and to_char(timestamp | timestamptz | interval, template).
 *
 * timestamptz values are UTC microseconds; field-wise functions
 * (date_trunc, extract, age) work on the session zone's wall clock
 * (common/tz.h) as PostgreSQL's do. Field names are PostgreSQL's units
 * and their abbreviations/plurals (DecodeUnits); unknown ones raise 22023
 * `unit "x" not recognized for type ...`, known but unsupported ones 0A000
 * `unit "x" not supported for type ...`. Kernels are row loops with direct
 * calls; intervals are 16-byte blobs cut from the batch arena.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/datetime.h"
#include "common/error.h"
#include "common/interval.h"
#include "common/numeric.h"
#include "common/types.h"
#include "common/tz.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"
#include "executor/kernels_text.h"

#define IV(s) interval_get(s)
#define MKIV(iv) interval_make((iv), arena)

static bool ts_finite(int64_t t) { return t != TS_NOBEGIN && t != TS_NOEND; }
static int64_t tz_local(int64_t t) { return ts_finite(t) ? timestamptz_to_local(t, tz_session_zone()) : t; }
static int64_t local_tz(int64_t t) { return ts_finite(t) ? timestamp_local_to_tz(t, tz_session_zone()) : t; }

/* ---------- operators ---------- */

static int64_t date_ts(int32_t d)
{
    if (d == DATE_NOBEGIN) return TS_NOBEGIN;
    if (d == DATE_NOEND) return TS_NOEND;
    return timestamp_from_date(d);
}

static int64_t ts_mi_iv(int64_t t, StrRef iv) { return timestamp_add_interval(t, interval_neg(IV(iv))); }
static int64_t tz_mi_iv(int64_t t, StrRef iv) { return timestamptz_add_interval(t, interval_neg(IV(iv))); }

static StrRef ts_diff(int64_t a, int64_t b, MemArena *arena)
{
    if (!ts_finite(a) || !ts_finite(b))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "cannot subtract infinite timestamps");
    return MKIV(timestamp_diff(a, b));
}

static int64_t time_wrap(int64_t t)
{
    t %= USECS_PER_DAY;
    return t < 0 ? t + USECS_PER_DAY : t;
}

KERNEL_ROWS_BINARY(k_ts_pl_iv, int64_t, StrRef, int64_t, r[row] = timestamp_add_interval(a[ia], IV(b[ib])))
KERNEL_ROWS_BINARY(k_iv_pl_ts, StrRef, int64_t, int64_t, r[row] = timestamp_add_interval(b[ib], IV(a[ia])))
KERNEL_ROWS_BINARY(k_ts_mi_iv, int64_t, StrRef, int64_t, r[row] = ts_mi_iv(a[ia], b[ib]))
KERNEL_ROWS_BINARY(k_tz_pl_iv, int64_t, StrRef, int64_t, r[row] = timestamptz_add_interval(a[ia], IV(b[ib])))
KERNEL_ROWS_BINARY(k_iv_pl_tz, StrRef, int64_t, int64_t, r[row] = timestamptz_add_interval(b[ib], IV(a[ia])))
KERNEL_ROWS_BINARY(k_tz_mi_iv, int64_t, StrRef, int64_t, r[row] = tz_mi_iv(a[ia], b[ib]))
KERNEL_ROWS_BINARY(k_date_pl_iv, int32_t, StrRef, int64_t, r[row] = timestamp_add_interval(date_ts(a[ia]), IV(b[ib])))
KERNEL_ROWS_BINARY(k_iv_pl_date, StrRef, int32_t, int64_t, r[row] = timestamp_add_interval(date_ts(b[ib]), IV(a[ia])))
KERNEL_ROWS_BINARY(k_date_mi_iv, int32_t, StrRef, int64_t, r[row] = ts_mi_iv(date_ts(a[ia]), b[ib]))
KERNEL_ROWS_BINARY(k_ts_mi, int64_t, int64_t, StrRef, r[row] = ts_diff(a[ia], b[ib], arena))
KERNEL_ROWS_BINARY(k_iv_pl, StrRef, StrRef, StrRef, r[row] = MKIV(interval_add(IV(a[ia]), IV(b[ib]))))
KERNEL_ROWS_BINARY(k_iv_mi, StrRef, StrRef, StrRef, r[row] = MKIV(interval_sub(IV(a[ia]), IV(b[ib]))))
KERNEL_ROWS_UNARY(k_iv_um, StrRef, StrRef, r[row] = MKIV(interval_neg(IV(a[ia]))))
KERNEL_ROWS_BINARY(k_iv_mul, StrRef, double, StrRef, r[row] = MKIV(interval_mul(IV(a[ia]), b[ib])))
KERNEL_ROWS_BINARY(k_mul_iv, double, StrRef, StrRef, r[row] = MKIV(interval_mul(IV(b[ib]), a[ia])))
KERNEL_ROWS_BINARY(k_iv_div, StrRef, double, StrRef, r[row] = MKIV(interval_div(IV(a[ia]), b[ib])))
KERNEL_ROWS_BINARY(k_time_mi, int64_t, int64_t, StrRef, r[row] = MKIV(((Interval){a[ia] - b[ib], 0, 0})))
KERNEL_ROWS_BINARY(k_time_pl_iv, int64_t, StrRef, int64_t, r[row] = time_wrap(a[ia] + IV(b[ib]).micros % USECS_PER_DAY))
KERNEL_ROWS_BINARY(k_time_mi_iv, int64_t, StrRef, int64_t, r[row] = time_wrap(a[ia] - IV(b[ib]).micros % USECS_PER_DAY))
KERNEL_ROWS_BINARY(k_date_pl_time, int32_t, int64_t, int64_t, r[row] = ts_finite(date_ts(a[ia])) ? date_ts(a[ia]) + b[ib] : date_ts(a[ia]))

KERNEL_ROWS_UNARY(k_justify_days, StrRef, StrRef, r[row] = MKIV(interval_justify_days(IV(a[ia]))))
KERNEL_ROWS_UNARY(k_justify_hours, StrRef, StrRef, r[row] = MKIV(interval_justify_hours(IV(a[ia]))))
KERNEL_ROWS_UNARY(k_justify_interval, StrRef, StrRef, r[row] = MKIV(interval_justify(IV(a[ia]))))

/* ---------- make_date ---------- */

static int32_t make_date_one(int32_t y, int32_t m, int32_t d)
{
    int year = y < 0 ? y + 1 : y;   /* negative years are BC: -1 = 1 BC = astronomical 0 */
    if (y == 0 || !date_ymd_valid(year, m, d))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date field value out of range: %d-%02d-%02d", y, m, d);
    return date_from_ymd(year, m, d);
}

static void k_make_date(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const int32_t *y = args[0]->data, *m = args[1]->data, *d = args[2]->data;
    uint32_t ym = args[0]->is_const ? 0 : UINT32_MAX, mm = args[1]->is_const ? 0 : UINT32_MAX;
    uint32_t dm = args[2]->is_const ? 0 : UINT32_MAX;
    int32_t *r = result->data;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        r[row] = make_date_one(y[row & ym], m[row & mm], d[row & dm]);
    }
}

/* ---------- units ---------- */

typedef enum Unit {
    U_NONE, U_MICRO, U_MILLI, U_SECOND, U_MINUTE, U_HOUR, U_DAY, U_WEEK, U_MONTH, U_QUARTER,
    U_YEAR, U_DECADE, U_CENTURY, U_MILLENNIUM, U_EPOCH, U_DOW, U_ISODOW, U_DOY, U_ISOYEAR,
    U_JULIAN, U_TZ, U_TZ_HOUR, U_TZ_MINUTE,
} Unit;

static const struct { const char *name; Unit unit; } unit_names[] = {
    {"microsecond", U_MICRO}, {"microseconds", U_MICRO}, {"us", U_MICRO}, {"usec", U_MICRO},
    {"usecs", U_MICRO}, {"useconds", U_MICRO}, {"millisecond", U_MILLI}, {"milliseconds", U_MILLI},
    {"ms", U_MILLI}, {"msec", U_MILLI}, {"msecs", U_MILLI}, {"mseconds", U_MILLI},
    {"second", U_SECOND}, {"seconds", U_SECOND}, {"s", U_SECOND}, {"sec", U_SECOND},
    {"secs", U_SECOND}, {"minute", U_MINUTE}, {"minutes", U_MINUTE}, {"m", U_MINUTE},
    {"min", U_MINUTE}, {"mins", U_MINUTE}, {"hour", U_HOUR}, {"hours", U_HOUR}, {"h", U_HOUR},
    {"hr", U_HOUR}, {"hrs", U_HOUR}, {"day", U_DAY}, {"days", U_DAY}, {"d", U_DAY},
    {"week", U_WEEK}, {"weeks", U_WEEK}, {"w", U_WEEK}, {"month", U_MONTH}, {"months", U_MONTH},
    {"mon", U_MONTH}, {"mons", U_MONTH}, {"quarter", U_QUARTER}, {"qtr", U_QUARTER},
    {"year", U_YEAR}, {"years", U_YEAR}, {"y", U_YEAR}, {"yr", U_YEAR}, {"yrs", U_YEAR},
    {"decade", U_DECADE}, {"decades", U_DECADE}, {"dec", U_DECADE}, {"century", U_CENTURY},
    {"centuries", U_CENTURY}, {"c", U_CENTURY}, {"cent", U_CENTURY}, {"millennium", U_MILLENNIUM},
    {"millennia", U_MILLENNIUM}, {"millenniums", U_MILLENNIUM}, {"mil", U_MILLENNIUM},
    {"mils", U_MILLENNIUM}, {"epoch", U_EPOCH}, {"dow", U_DOW}, {"isodow", U_ISODOW},
    {"doy", U_DOY}, {"isoyear", U_ISOYEAR}, {"julian", U_JULIAN}, {"j", U_JULIAN},
    {"timezone", U_TZ}, {"timezone_h", U_TZ_HOUR}, {"timezone_m", U_TZ_MINUTE},
};

static Unit unit_lookup(StrRef s, char *lowered, size_t cap)
{
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    for (size_t k = 0; k < n; k++) lowered[k] = (char)tolower((unsigned char)s.ptr[k]);
    lowered[n] = 0;
    if (s.len >= cap) return U_NONE;
    for (size_t k = 0; k < sizeof unit_names / sizeof unit_names[0]; k++)
        if (strcmp(unit_names[k].name, lowered) == 0) return unit_names[k].unit;
    return U_NONE;
}

static _Noreturn void unit_error(const char *name, bool known, const char *type)
{
    if (known)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "unit \"%s\" not supported for type %s", name, type);
    err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "unit \"%s\" not recognized for type %s", name, type);
}

/* Broken-down local timestamp. */
typedef struct Tm {
    int year, mon, mday;     /* astronomical year (0 = 1 BC) */
    int64_t tod;             /* microseconds into the day */
    int32_t days;            /* days since 2000-01-01 */
} Tm;

static Tm ts_split(int64_t ts)
{
    Tm tm;
    int64_t days = ts / USECS_PER_DAY, tod = ts % USECS_PER_DAY;
    if (tod < 0) tod += USECS_PER_DAY, days--;
    tm.days = (int32_t)days;
    tm.tod = tod;
    date_to_ymd(tm.days, &tm.year, &tm.mon, &tm.mday);
    return tm;
}

/* ISO weekday 1 (Monday) .. 7; 2000-01-01 was a Saturday. */
static int iso_dow(int32_t days)
{
    int d = (int)(((int64_t)days + 5) % 7);
    if (d < 0) d += 7;
    return d + 1;
}

/* ISO 8601 year and week of a date. */
static void iso_week(int32_t days, int *isoyear, int *week)
{
    int32_t thursday = days - iso_dow(days) + 4;   /* the week's Thursday decides the year */
    int y, m, d;
    date_to_ymd(thursday, &y, &m, &d);
    int32_t jan1 = date_from_ymd(y, 1, 1);
    *isoyear = y;
    *week = (thursday - jan1) / 7 + 1;
}

/* ---------- date_trunc ---------- */

static int64_t trunc_local(Unit u, int64_t ts, const char *name, const char *type)
{
    if (!ts_finite(ts)) return ts;
    Tm tm = ts_split(ts);
    int y = tm.year, m = tm.mon, d = tm.mday;
    int64_t tod = tm.tod;
    switch (u) {
    case U_MILLENNIUM: y = y > 0 ? ((y + 999) / 1000) * 1000 - 999 : -((999 - (y - 1)) / 1000) * 1000 + 1; m = d = 1; tod = 0; break;
    case U_CENTURY: y = y > 0 ? ((y + 99) / 100) * 100 - 99 : -((99 - (y - 1)) / 100) * 100 + 1; m = d = 1; tod = 0; break;
    case U_DECADE: y = y > 0 ? (y / 10) * 10 : -((8 - (y - 1)) / 10) * 10; m = d = 1; tod = 0; break;
    case U_YEAR: m = d = 1; tod = 0; break;
    case U_QUARTER: m = 3 * ((m - 1) / 3) + 1; d = 1; tod = 0; break;
    case U_MONTH: d = 1; tod = 0; break;
    case U_WEEK: return ((int64_t)(tm.days - (iso_dow(tm.days) - 1))) * USECS_PER_DAY;
    case U_DAY: tod = 0; break;
    case U_HOUR: tod -= tod % USECS_PER_HOUR; break;
    case U_MINUTE: tod -= tod % (60 * USECS_PER_SEC); break;
    case U_SECOND: tod -= tod % USECS_PER_SEC; break;
    case U_MILLI: tod -= tod % 1000; break;
    case U_MICRO: break;
    default: unit_error(name, u != U_NONE, type);
    }
    return (int64_t)date_from_ymd(y, m, d) * USECS_PER_DAY + tod;
}

static void date_trunc_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool tz)
{
    const StrRef *f = args[0]->data;
    const int64_t *t = args[1]->data;
    uint32_t fm = args[0]->is_const ? 0 : UINT32_MAX, tm = args[1]->is_const ? 0 : UINT32_MAX;
    int64_t *r = result->data;
    const char *type = tz ? "timestamp with time zone" : "timestamp without time zone";
    char name[64];
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        Unit u = unit_lookup(f[row & fm], name, sizeof name);
        int64_t v = t[row & tm];
        r[row] = tz ? local_tz(trunc_local(u, tz_local(v), name, type)) : trunc_local(u, v, name, type);
    }
}
static void k_date_trunc_ts(const FuncCallCtx *c, Vector *const *a, Vector *r) { date_trunc_kernel(c, a, r, false); }
static void k_date_trunc_tz(const FuncCallCtx *c, Vector *const *a, Vector *r) { date_trunc_kernel(c, a, r, true); }

/* date_trunc(unit, interval): PostgreSQL's interval_trunc on the
 * (years, months, days, time) fields; week is not supported. */
static Interval trunc_interval(Unit u, Interval iv, const char *name)
{
    int64_t t = iv.micros;
    int32_t years = iv.months / 12, mons = iv.months % 12;
    switch (u) {
    case U_MILLENNIUM: years = years / 1000 * 1000; mons = 0; iv.days = 0; t = 0; break;
    case U_CENTURY: years = years / 100 * 100; mons = 0; iv.days = 0; t = 0; break;
    case U_DECADE: years = years / 10 * 10; mons = 0; iv.days = 0; t = 0; break;
    case U_YEAR: mons = 0; iv.days = 0; t = 0; break;
    case U_QUARTER: mons = 3 * (mons / 3); iv.days = 0; t = 0; break;
    case U_MONTH: iv.days = 0; t = 0; break;
    case U_DAY: t = 0; break;
    case U_HOUR: t -= t % USECS_PER_HOUR; break;
    case U_MINUTE: t -= t % (60 * USECS_PER_SEC); break;
    case U_SECOND: t -= t % USECS_PER_SEC; break;
    case U_MILLI: t -= t % 1000; break;
    case U_MICRO: break;
    case U_WEEK: {
        ErrorData *e = err_begin(ERRCODE_FEATURE_NOT_SUPPORTED);
        err_message(e, "unit \"%s\" not supported for type interval", name);
        err_detail(e, "Months usually have fractional weeks.");
        err_throw();
    }
    default: unit_error(name, u != U_NONE, "interval");
    }
    return (Interval){t, iv.days, years * 12 + mons};
}

static void k_date_trunc_iv(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const StrRef *f = args[0]->data, *v = args[1]->data;
    uint32_t fm = args[0]->is_const ? 0 : UINT32_MAX, vm = args[1]->is_const ? 0 : UINT32_MAX;
    StrRef *r = result->data;
    char name[64];
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        Unit u = unit_lookup(f[row & fm], name, sizeof name);
        r[row] = interval_make(trunc_interval(u, IV(v[row & vm]), name), ctx->arena);
    }
}

/* date_bin(stride, source, origin): origin + floor((source - origin) / stride) * stride. */
static int64_t date_bin_one(StrRef stride_s, int64_t src, int64_t origin)
{
    Interval st = IV(stride_s);
    if (!ts_finite(src)) return src;
    if (!ts_finite(origin))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "origin out of range");
    if (st.months != 0)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED,
                  "timestamps cannot be binned into intervals containing months or years");
    int64_t stride;
    if (__builtin_mul_overflow((int64_t)st.days, USECS_PER_DAY, &stride) ||
        __builtin_add_overflow(stride, st.micros, &stride))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
    if (stride <= 0) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "stride must be greater than zero");
    int64_t diff;
    if (__builtin_sub_overflow(src, origin, &diff))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
    int64_t rem = diff % stride, delta = diff - rem;
    if (rem < 0) delta -= stride;   /* floor, as PostgreSQL 15 */
    int64_t res;
    if (__builtin_add_overflow(origin, delta, &res))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    return res;
}

static void k_date_bin(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const StrRef *st = args[0]->data;
    const int64_t *src = args[1]->data, *org = args[2]->data;
    uint32_t am = args[0]->is_const ? 0 : UINT32_MAX, bm = args[1]->is_const ? 0 : UINT32_MAX;
    uint32_t cm = args[2]->is_const ? 0 : UINT32_MAX;
    int64_t *r = result->data;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        r[row] = date_bin_one(st[row & am], src[row & bm], org[row & cm]);
    }
}

/* ---------- extract / date_part ---------- */

/* A field's value as an exact decimal: v * 10^-scale. */
typedef struct Field { int128_t v; int scale; bool null; bool inf; int sign; } Field;

static Field fint(int64_t v) { return (Field){v, 0, false, false, 0}; }

static Field extract_local(Unit u, int64_t ts, bool is_tz, int64_t utc, const char *name, const char *type)
{
    if (!ts_finite(ts)) {
        /* PostgreSQL: epoch/julian/year-like units give ±Infinity, others NULL */
        int sign = ts == TS_NOEND ? 1 : -1;
        if (u == U_EPOCH || u == U_JULIAN || u == U_YEAR || u == U_DECADE || u == U_CENTURY ||
            u == U_MILLENNIUM || u == U_ISOYEAR)
            return (Field){0, 0, false, true, sign};
        if (u == U_NONE) unit_error(name, false, type);
        return (Field){0, 0, true, false, 0};
    }
    if (u == U_MICRO || u == U_MILLI || u == U_SECOND || u == U_MINUTE || u == U_HOUR) {
        /* time-of-day units: no calendar arithmetic (GROUP BY extract(minute …)) */
        int64_t tod = ts % USECS_PER_DAY;
        if (tod < 0) tod += USECS_PER_DAY;
        int64_t us = tod % (60 * USECS_PER_SEC);
        switch (u) {
        case U_MICRO: return fint(us);
        case U_MILLI: return (Field){us, 3, false, false, 0};
        case U_SECOND: return (Field){us, 6, false, false, 0};
        case U_MINUTE: return fint(tod / (60 * USECS_PER_SEC) % 60);
        default: return fint(tod / USECS_PER_HOUR);
        }
    }
    Tm tm = ts_split(ts);
    int64_t sec_us = tm.tod % (60 * USECS_PER_SEC);
    int y = tm.year > 0 ? tm.year : tm.year - 1;   /* BC years count from -1 */
    switch (u) {
    case U_MICRO: return fint(sec_us);
    case U_MILLI: return (Field){sec_us, 3, false, false, 0};
    case U_SECOND: return (Field){sec_us, 6, false, false, 0};
    case U_MINUTE: return fint(tm.tod / (60 * USECS_PER_SEC) % 60);
    case U_HOUR: return fint(tm.tod / USECS_PER_HOUR);
    case U_DAY: return fint(tm.mday);
    case U_MONTH: return fint(tm.mon);
    case U_QUARTER: return fint((tm.mon - 1) / 3 + 1);
    case U_YEAR: return fint(y);
    case U_DECADE: return fint(tm.year >= 0 ? tm.year / 10 : -((8 - (tm.year - 1)) / 10));
    case U_CENTURY: return fint(tm.year > 0 ? (tm.year + 99) / 100 : -((99 - (tm.year - 1)) / 100));
    case U_MILLENNIUM: return fint(tm.year > 0 ? (tm.year + 999) / 1000 : -((999 - (tm.year - 1)) / 1000));
    case U_DOW: return fint(iso_dow(tm.days) % 7);
    case U_ISODOW: return fint(iso_dow(tm.days));
    case U_DOY: return fint(tm.days - date_from_ymd(tm.year, 1, 1) + 1);
    case U_WEEK: case U_ISOYEAR: {
        int iy, wk;
        iso_week(tm.days, &iy, &wk);
        return fint(u == U_WEEK ? wk : (iy > 0 ? iy : iy - 1));
    }
    case U_EPOCH: {
        int64_t base = is_tz ? utc : ts;   /* seconds since 1970-01-01 00:00 UTC */
        return (Field){(int128_t)base + (int128_t)10957 * USECS_PER_DAY, 6, false, false, 0};
    }
    case U_JULIAN: /* days since 4714-11-24 BC plus the day's fraction */
        return (Field){((int128_t)tm.days + 2451545) * USECS_PER_DAY + tm.tod, 0, false, false, 2};
    case U_TZ: case U_TZ_HOUR: case U_TZ_MINUTE: {
        if (!is_tz) unit_error(name, true, type);
        int32_t off = timestamptz_offset(utc, tz_session_zone());
        return fint(u == U_TZ ? off : u == U_TZ_HOUR ? off / 3600 : (off / 60) % 60);
    }
    default: unit_error(name, false, type);
    }
}

/* The exact decimal as numeric (julian: divided by USECS_PER_DAY, as
 * PostgreSQL's numeric julian with its scale). */
static StrRef field_numeric(Field f, MemArena *arena)
{
    if (f.inf) return numeric_in(f.sign > 0 ? "Infinity" : "-Infinity", f.sign > 0 ? 8 : 9, TYPMOD_NONE, arena);
    if (f.sign == 2) {   /* julian day + the day's fraction (PostgreSQL's numeric scales) */
        StrRef frac = numeric_div(numeric_from_int64((int64_t)(f.v % USECS_PER_DAY), arena),
                                  numeric_from_int64(USECS_PER_DAY, arena), arena);
        return numeric_add(numeric_from_int64((int64_t)(f.v / USECS_PER_DAY), arena), frac, arena);
    }
    return numeric_from_int128(f.v, f.scale, arena);
}

static double field_double(Field f)
{
    if (f.inf) return f.sign > 0 ? INFINITY : -INFINITY;
    if (f.sign == 2)
        return (double)(int64_t)(f.v / USECS_PER_DAY) + (double)(int64_t)(f.v % USECS_PER_DAY) / (double)USECS_PER_DAY;
    double p = f.scale == 0 ? 1 : f.scale == 3 ? 1e3 : 1e6;
    return (double)f.v / p;
}

/* Interval fields (PostgreSQL's interval_part_common). */
static Field extract_interval(Unit u, StrRef ivs, const char *name)
{
    Interval iv = IV(ivs);
    int64_t t = iv.micros;
    int64_t sec_us = t % (60 * USECS_PER_SEC);
    switch (u) {
    case U_MICRO: return fint(sec_us);
    case U_MILLI: return (Field){sec_us, 3, false, false, 0};
    case U_SECOND: return (Field){sec_us, 6, false, false, 0};
    case U_MINUTE: return fint(t / (60 * USECS_PER_SEC) % 60);
    case U_HOUR: return fint(t / USECS_PER_HOUR);
    case U_DAY: return fint(iv.days);
    case U_MONTH: return fint(iv.months % 12);
    case U_QUARTER: return fint((iv.months % 12) / 3 + 1);
    case U_YEAR: return fint(iv.months / 12);
    case U_DECADE: return fint(iv.months / 120);
    case U_CENTURY: return fint(iv.months / 1200);
    case U_MILLENNIUM: return fint(iv.months / 12000);
    case U_EPOCH: {
        /* years count 365.25 days, months 30 days */
        int128_t secs_us = (int128_t)(iv.months / 12) * 36525 * (USECS_PER_DAY / 100) +
                           (int128_t)(iv.months % 12) * 30 * USECS_PER_DAY +
                           (int128_t)iv.days * USECS_PER_DAY + t;
        return (Field){secs_us, 6, false, false, 0};
    }
    default: unit_error(name, u != U_NONE, "interval");
    }
}

/* Date fields (PostgreSQL's extract_date): time-of-day units are errors. */
static Field extract_date(Unit u, int32_t d, const char *name)
{
    if (u == U_MICRO || u == U_MILLI || u == U_SECOND || u == U_MINUTE || u == U_HOUR ||
        u == U_TZ || u == U_TZ_HOUR || u == U_TZ_MINUTE)
        unit_error(name, true, "date");
    if (d == DATE_NOBEGIN || d == DATE_NOEND) return extract_local(u, date_ts(d), false, 0, name, "date");
    if (u == U_EPOCH) return fint((int64_t)(d + 10957) * 86400);
    if (u == U_JULIAN) return fint((int64_t)d + 2451545);
    return extract_local(u, date_ts(d), false, 0, name, "date");
}

typedef enum { SRC_TS, SRC_TZ, SRC_DATE, SRC_IV } Src;

/* Numerics of the small whole fields (minute, hour, day, month, dow ...)
 * made once per batch and shared by the rows that have them. */
#define EXTRACT_SMALL 64

static StrRef field_numeric_cached(Field f, StrRef *small, MemArena *arena)
{
    if (f.inf || f.sign == 2 || f.scale != 0 || f.v < 0 || f.v >= EXTRACT_SMALL)
        return field_numeric(f, arena);
    StrRef *c = &small[(int)f.v];
    if (c->ptr == NULL)
        *c = field_numeric(f, arena);
    return *c;
}

static void extract_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, Src src,
                           bool numeric)
{
    const StrRef *f = args[0]->data;
    uint32_t fm = args[0]->is_const ? 0 : UINT32_MAX, xm = args[1]->is_const ? 0 : UINT32_MAX;
    char name[64];
    StrRef small[EXTRACT_SMALL] = {{0}};
    Unit const_unit = U_NONE;
    bool have_unit = false;   /* a constant unit is looked up at its first row, once */
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        Unit u;
        if (fm == 0 && have_unit) {
            u = const_unit;
        } else {
            u = unit_lookup(f[row & fm], name, sizeof name);
            const_unit = u;
            have_unit = fm == 0;
        }
        uint32_t x = row & xm;
        Field v;
        switch (src) {
        case SRC_TS: v = extract_local(u, ((const int64_t *)args[1]->data)[x], false, 0, name, "timestamp without time zone"); break;
        case SRC_TZ: {
            int64_t utc = ((const int64_t *)args[1]->data)[x];
            v = extract_local(u, tz_local(utc), true, utc, name, "timestamp with time zone");
            break;
        }
        case SRC_DATE: v = extract_date(u, ((const int32_t *)args[1]->data)[x], name); break;
        default: v = extract_interval(u, ((const StrRef *)args[1]->data)[x], name); break;
        }
        if (v.null) vec_set_null(result, row);
        else if (numeric) ((StrRef *)result->data)[row] = field_numeric_cached(v, small, ctx->arena);
        else ((double *)result->data)[row] = field_double(v);
    }
}
#define EXTRACT_K(name, src, num) \
    static void name(const FuncCallCtx *c, Vector *const *a, Vector *r) { extract_kernel(c, a, r, src, num); }
EXTRACT_K(k_extract_ts, SRC_TS, true)
EXTRACT_K(k_extract_tz, SRC_TZ, true)
EXTRACT_K(k_extract_date, SRC_DATE, true)
EXTRACT_K(k_extract_iv, SRC_IV, true)
EXTRACT_K(k_part_ts, SRC_TS, false)
EXTRACT_K(k_part_tz, SRC_TZ, false)
EXTRACT_K(k_part_iv, SRC_IV, false)

/* date_part(text, date) is date_part(text, date::timestamp) in PostgreSQL. */
static void k_part_date(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    Vector ts = *args[1];
    int64_t *buf = mem_alloc(ctx->arena, sizeof(int64_t) * VEC_CAPACITY);
    const int32_t *d = args[1]->data;
    uint32_t n = args[1]->is_const ? 1 : VEC_CAPACITY;
    for (uint32_t i = 0; i < n; i++) buf[i] = 0;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        uint32_t x = args[1]->is_const ? 0 : row;
        if (vec_is_valid(args[1], x)) buf[x] = date_ts(d[x]);
    }
    ts.data = buf;
    ts.type = SQLTYPE(TYPE_TIMESTAMP);
    ts.phys = PHYS_I64;
    Vector *a2[2] = {args[0], &ts};
    extract_kernel(ctx, a2, result, SRC_TS, false);
}

/* ---------- age, clock_timestamp ---------- */

/* PostgreSQL's timestamp_age: field-wise difference, borrowing from the
 * next larger field (days borrow the length of the earlier month). */
static StrRef age_local(int64_t a, int64_t b, MemArena *arena)
{
    if (!ts_finite(a) || !ts_finite(b))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "cannot subtract infinite timestamps");
    Tm x = ts_split(a), y = ts_split(b);
    int64_t tod = x.tod - y.tod;
    int mday = x.mday - y.mday, mon = x.mon - y.mon, year = x.year - y.year;
    bool neg = a < b;
    /* flip so that we always borrow forward, then negate (as PostgreSQL) */
    if (neg) tod = -tod, mday = -mday, mon = -mon, year = -year;
    while (tod < 0) tod += USECS_PER_DAY, mday--;
    while (mday < 0) {
        const Tm *early = neg ? &x : &y;
        int pm = early->mon, py = early->year;
        static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        int len = mdays[pm - 1] + (pm == 2 && ((py % 4 == 0 && py % 100 != 0) || py % 400 == 0));
        mday += len;
        mon--;
    }
    while (mon < 0) mon += 12, year--;
    Interval iv = {tod, mday, year * 12 + mon};
    if (neg) iv = interval_neg(iv);
    return MKIV(iv);
}

KERNEL_ROWS_BINARY(k_age_ts, int64_t, int64_t, StrRef, r[row] = age_local(a[ia], b[ib], arena))
KERNEL_ROWS_BINARY(k_age_tz, int64_t, int64_t, StrRef, r[row] = age_local(tz_local(a[ia]), tz_local(b[ib]), arena))

/* age(ts): from midnight of the current date (the transaction's, session zone). */
static int64_t today_midnight(void)
{
    return (int64_t)date_from_timestamp(tz_local(timestamp_now())) * USECS_PER_DAY;
}
KERNEL_ROWS_UNARY(k_age1, int64_t, StrRef, r[row] = age_local(today_midnight(), a[ia], arena))

static void k_clock_timestamp(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    (void)args;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now = ((int64_t)ts.tv_sec - INT64_C(946684800)) * USECS_PER_SEC + ts.tv_nsec / 1000;
    int64_t *r = result->data;
    for (uint32_t i = 0; i < ctx->count; i++) r[ctx->sel ? ctx->sel[i] : i] = now;
}

/* ---------- AT TIME ZONE (timezone), isfinite, to_timestamp ---------- */

static const TzZone *zone_named(StrRef name, MemArena *arena)
{
    char *z = mem_strndup(arena, name.ptr ? name.ptr : "", name.len);
    const TzZone *tz = tz_load(z);
    if (tz == NULL) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "time zone \"%s\" not recognized", z);
    return tz;
}

/* timezone(zone, timestamptz) → the wall clock there; timezone(zone,
 * timestamp) → the instant that wall clock denotes there. A constant zone
 * is looked up once per batch. */
static void timezone_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool from_tz)
{
    const StrRef *zn = args[0]->data;
    const int64_t *t = args[1]->data;
    uint32_t zm = args[0]->is_const ? 0 : UINT32_MAX, tm = args[1]->is_const ? 0 : UINT32_MAX;
    int64_t *r = result->data;
    const TzZone *fixed = NULL;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        const TzZone *z = fixed ? fixed : zone_named(zn[row & zm], ctx->arena);
        if (zm == 0) fixed = z;
        int64_t v = t[row & tm];
        if (!ts_finite(v)) r[row] = v;
        else r[row] = from_tz ? timestamptz_to_local(v, z) : timestamp_local_to_tz(v, z);
    }
}
static void k_timezone_tz(const FuncCallCtx *c, Vector *const *a, Vector *r) { timezone_kernel(c, a, r, true); }
static void k_timezone_ts(const FuncCallCtx *c, Vector *const *a, Vector *r) { timezone_kernel(c, a, r, false); }

/* date_trunc(unit, timestamptz, zone): truncate on that zone's wall clock. */
static void k_date_trunc_tz3(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const StrRef *f = args[0]->data, *zn = args[2]->data;
    const int64_t *t = args[1]->data;
    uint32_t fm = args[0]->is_const ? 0 : UINT32_MAX, tm = args[1]->is_const ? 0 : UINT32_MAX;
    uint32_t zm = args[2]->is_const ? 0 : UINT32_MAX;
    int64_t *r = result->data;
    char name[64];
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        Unit u = unit_lookup(f[row & fm], name, sizeof name);
        const TzZone *z = zone_named(zn[row & zm], ctx->arena);
        int64_t v = t[row & tm];
        if (!ts_finite(v)) {
            r[row] = v;
            continue;
        }
        int64_t local = trunc_local(u, timestamptz_to_local(v, z), name, "timestamp with time zone");
        r[row] = timestamp_local_to_tz(local, z);
    }
}

static bool iv_finite(StrRef s) { (void)s; return true; }
KERNEL_ROWS_UNARY(k_isfinite_date, int32_t, uint8_t, r[row] = (uint8_t)(a[ia] != DATE_NOBEGIN && a[ia] != DATE_NOEND))
KERNEL_ROWS_UNARY(k_isfinite_ts, int64_t, uint8_t, r[row] = (uint8_t)ts_finite(a[ia]))
KERNEL_ROWS_UNARY(k_isfinite_iv, StrRef, uint8_t, r[row] = (uint8_t)iv_finite(a[ia]))

/* to_timestamp(seconds since the Unix epoch), PostgreSQL's float8_timestamptz. */
static int64_t to_timestamp_one(double secs)
{
    if (isnan(secs)) err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp cannot be NaN");
    if (isinf(secs)) return secs < 0 ? TS_NOBEGIN : TS_NOEND;
    /* valid range: 4714-11-24 BC .. 294277-01-01 (PostgreSQL's MIN/END_TIMESTAMP) */
    if (secs < -210866803200.0 || secs >= 9224318016000.0)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%g\"", secs);
    double us = rint((secs - 946684800.0) * 1e6);
    return (int64_t)us;
}
KERNEL_ROWS_UNARY(k_to_timestamp, double, int64_t, r[row] = to_timestamp_one(a[ia]))

/* ---------- to_char(timestamp | timestamptz, template) ---------- */

/* The broken-down time to_char formats. */
typedef struct TcTm {
    Tm tm;
    bool has_tz;
    int32_t tzoff;            /* seconds east */
    const char *tzabbr;
    bool is_interval;         /* to_char(interval): fields from iv_* below */
    int iv_year, iv_mon, iv_mday, iv_hour, iv_min, iv_sec, iv_fsec;
} TcTm;

typedef enum TcKey {
    TC_HH24, TC_HH12, TC_HH, TC_MI, TC_SSSSS, TC_SSSS, TC_SS, TC_MS, TC_US, TC_AM, TC_PM, TC_A_M,
    TC_P_M, TC_YCOMMA, TC_YYYY, TC_YYY, TC_YY, TC_Y, TC_IYYY, TC_MONTH, TC_MON, TC_MM, TC_DAY,
    TC_DY, TC_DDD, TC_DD, TC_D, TC_ID, TC_IW, TC_WW, TC_W, TC_Q, TC_CC, TC_J, TC_TZH, TC_TZM,
    TC_TZ, TC_OF, TC_BC, TC_AD, TC_B_C, TC_A_D, TC_FF1, TC_FF2, TC_FF3, TC_FF4, TC_FF5, TC_FF6,
    TC_RM, TC_IDDD, TC_IYY, TC_IY, TC_I, TC_FX,
} TcKey;

/* case: 0 = as written upper (MONTH), 1 = capitalised (Month), 2 = lower (month) */
static const struct { const char *s; TcKey k; int cs; } tc_keys[] = {
    {"A.D.", TC_A_D, 0}, {"A.M.", TC_A_M, 0}, {"AD", TC_AD, 0}, {"AM", TC_AM, 0},
    {"B.C.", TC_B_C, 0}, {"BC", TC_BC, 0}, {"CC", TC_CC, 0}, {"DAY", TC_DAY, 0},
    {"DDD", TC_DDD, 0}, {"DD", TC_DD, 0}, {"DY", TC_DY, 0}, {"Day", TC_DAY, 1}, {"Dy", TC_DY, 1},
    {"D", TC_D, 0}, {"FF1", TC_FF1, 0}, {"FF2", TC_FF2, 0}, {"FF3", TC_FF3, 0}, {"FF4", TC_FF4, 0},
    {"FF5", TC_FF5, 0}, {"FF6", TC_FF6, 0}, {"FX", TC_FX, 0}, {"HH24", TC_HH24, 0}, {"HH12", TC_HH12, 0}, {"HH", TC_HH, 0},
    {"IDDD", TC_IDDD, 0}, {"ID", TC_ID, 0}, {"IW", TC_IW, 0}, {"IYYY", TC_IYYY, 0},
    {"IYY", TC_IYY, 0}, {"IY", TC_IY, 0}, {"I", TC_I, 0}, {"J", TC_J, 0}, {"MI", TC_MI, 0},
    {"MM", TC_MM, 0}, {"MONTH", TC_MONTH, 0}, {"MON", TC_MON, 0}, {"MS", TC_MS, 0},
    {"Month", TC_MONTH, 1}, {"Mon", TC_MON, 1}, {"OF", TC_OF, 0}, {"P.M.", TC_P_M, 0},
    {"PM", TC_PM, 0}, {"Q", TC_Q, 0}, {"RM", TC_RM, 0}, {"SSSSS", TC_SSSSS, 0}, {"SSSS", TC_SSSS, 0},
    {"SS", TC_SS, 0}, {"TZH", TC_TZH, 0}, {"TZM", TC_TZM, 0}, {"TZ", TC_TZ, 0}, {"US", TC_US, 0},
    {"WW", TC_WW, 0}, {"W", TC_W, 0}, {"Y,YYY", TC_YCOMMA, 0}, {"YYYY", TC_YYYY, 0},
    {"YYY", TC_YYY, 0}, {"YY", TC_YY, 0}, {"Y", TC_Y, 0},
    {"a.d.", TC_A_D, 2}, {"a.m.", TC_A_M, 2}, {"ad", TC_AD, 2}, {"am", TC_AM, 2},
    {"b.c.", TC_B_C, 2}, {"bc", TC_BC, 2}, {"cc", TC_CC, 2}, {"day", TC_DAY, 2},
    {"ddd", TC_DDD, 2}, {"dd", TC_DD, 2}, {"dy", TC_DY, 2}, {"d", TC_D, 2},
    {"ff1", TC_FF1, 2}, {"ff2", TC_FF2, 2}, {"ff3", TC_FF3, 2}, {"ff4", TC_FF4, 2},
    {"ff5", TC_FF5, 2}, {"ff6", TC_FF6, 2}, {"fx", TC_FX, 2},
    {"hh24", TC_HH24, 2}, {"hh12", TC_HH12, 2}, {"hh", TC_HH, 2}, {"iddd", TC_IDDD, 2}, {"id", TC_ID, 2},
    {"iw", TC_IW, 2}, {"iyyy", TC_IYYY, 2}, {"iyy", TC_IYY, 2}, {"iy", TC_IY, 2}, {"i", TC_I, 2}, {"j", TC_J, 2}, {"mi", TC_MI, 2}, {"mm", TC_MM, 2},
    {"month", TC_MONTH, 2}, {"mon", TC_MON, 2}, {"ms", TC_MS, 2}, {"p.m.", TC_P_M, 2},
    {"pm", TC_PM, 2}, {"q", TC_Q, 2}, {"rm", TC_RM, 2}, {"sssss", TC_SSSSS, 2}, {"ssss", TC_SSSS, 2},
    {"ss", TC_SS, 2}, {"tz", TC_TZ, 2}, {"us", TC_US, 2}, {"ww", TC_WW, 2}, {"w", TC_W, 2},
    {"y,yyy", TC_YCOMMA, 2}, {"yyyy", TC_YYYY, 2}, {"yyy", TC_YYY, 2}, {"yy", TC_YY, 2},
    {"y", TC_Y, 2},
};

static const char *const month_names[] = {"January", "February", "March", "April", "May", "June", "July",
                                          "August", "September", "October", "November", "December"};
static const char *const day_names[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                        "Saturday"};

/* A name in the pattern's case, 3 letters when abbrev, padded to 9 unless fm. */
static int tc_name(char *out, const char *name, int cs, bool abbrev, bool fm)
{
    int n = 0;
    for (const char *c = name; *c && (!abbrev || n < 3); c++, n++) {
        char ch = *c;
        if (cs == 0) ch = (char)toupper((unsigned char)ch);
        else if (cs == 2 || n > 0) ch = (char)tolower((unsigned char)ch);
        out[n] = ch;
    }
    if (!abbrev && !fm)
        while (n < 9) out[n++] = ' ';
    return n;
}

/* RM/rm: the month in roman numerals, left-aligned in 4 unless fm. */
static int tc_roman_month(char *out, int mon, int cs, bool fm)
{
    static const char *const rm[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};
    if (mon < 1 || mon > 12) return 0;
    int n = sprintf(out, "%-*s", fm ? 0 : 4, rm[mon - 1]);
    if (cs == 2)
        for (int i = 0; i < n; i++) out[i] = (char)tolower((unsigned char)out[i]);
    return n;
}

static const char *ordinal(int64_t v, bool upper)
{
    v = v < 0 ? -v : v;   /* PostgreSQL looks at the last digits of the text */
    int64_t last = v % 10, tens = v % 100;
    const char *s = (tens >= 11 && tens <= 13) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
    if (!upper) return s;
    return s[0] == 's' ? "ST" : s[0] == 'n' ? "ND" : s[0] == 'r' ? "RD" : "TH";
}

/* One template element; returns its text length in out (a 64-byte buffer);
 * *num is set for numeric elements (for TH). */
static int tc_element(const TcTm *t, TcKey k, int cs, bool fm, char *out, int64_t *num)
{
    const Tm *tm = &t->tm;
    int hour = (int)(tm->tod / USECS_PER_HOUR), min = (int)(tm->tod / (60 * USECS_PER_SEC) % 60);
    int sec = (int)(tm->tod / USECS_PER_SEC % 60), us = (int)(tm->tod % USECS_PER_SEC);
    int dyear = tm->year > 0 ? tm->year : 1 - tm->year;   /* BC years shown positive */
    int64_t v;
    int width = 2;
    bool upper = cs != 2;
    switch (k) {
    case TC_HH24: v = hour; break;
    case TC_HH12: case TC_HH: v = hour % 12 == 0 ? 12 : hour % 12; break;
    case TC_MI: v = min; break;
    case TC_SS: v = sec; break;
    case TC_SSSS: case TC_SSSSS: v = tm->tod / USECS_PER_SEC; width = 0; break;
    case TC_MS: v = us / 1000; width = 3; break;
    case TC_US: v = us; width = 6; break;
    case TC_AM: case TC_PM: return sprintf(out, "%s", hour >= 12 ? (upper ? "PM" : "pm") : (upper ? "AM" : "am"));
    case TC_A_M: case TC_P_M: return sprintf(out, "%s", hour >= 12 ? (upper ? "P.M." : "p.m.") : (upper ? "A.M." : "a.m."));
    case TC_BC: case TC_AD: return sprintf(out, "%s", tm->year <= 0 ? (upper ? "BC" : "bc") : (upper ? "AD" : "ad"));
    case TC_B_C: case TC_A_D: return sprintf(out, "%s", tm->year <= 0 ? (upper ? "B.C." : "b.c.") : (upper ? "A.D." : "a.d."));
    case TC_YCOMMA: *num = dyear; return sprintf(out, "%d,%03d", dyear / 1000, dyear % 1000);
    case TC_YYYY: v = dyear; width = 4; break;
    case TC_YYY: v = dyear % 1000; width = 3; break;
    case TC_YY: v = dyear % 100; width = 2; break;
    case TC_Y: v = dyear % 10; width = 1; break;
    case TC_IYYY: {
        int iy, wk;
        iso_week(tm->days, &iy, &wk);
        v = iy > 0 ? iy : 1 - iy;
        width = 4;
        break;
    }
    case TC_FF1: case TC_FF2: case TC_FF3: case TC_FF4: case TC_FF5: case TC_FF6: {
        static const int div[] = {100000, 10000, 1000, 100, 10, 1};
        int nd = (int)(k - TC_FF1) + 1;
        v = us / div[nd - 1];
        width = nd;
        break;
    }
    case TC_RM: return tc_roman_month(out, tm->mon, cs, fm);
    case TC_FX: return 0;
    case TC_IDDD: case TC_IYY: case TC_IY: case TC_I: {
        int iy, wk;
        iso_week(tm->days, &iy, &wk);
        int64_t ay = iy > 0 ? iy : 1 - iy;
        if (k == TC_IDDD) v = (int64_t)(wk - 1) * 7 + iso_dow(tm->days), width = 3;
        else if (k == TC_IYY) v = ay % 1000, width = 3;
        else if (k == TC_IY) v = ay % 100, width = 2;
        else v = ay % 10, width = 1;
        break;
    }
    case TC_MONTH: case TC_MON: return tc_name(out, month_names[tm->mon - 1], cs, k == TC_MON, fm);
    case TC_DAY: case TC_DY: return tc_name(out, day_names[iso_dow(tm->days) % 7], cs, k == TC_DY, fm);
    case TC_MM: v = tm->mon; break;
    case TC_DD: v = tm->mday; break;
    case TC_DDD: v = tm->days - date_from_ymd(tm->year, 1, 1) + 1; width = 3; break;
    case TC_D: v = iso_dow(tm->days) % 7 + 1; width = 1; break;
    case TC_ID: v = iso_dow(tm->days); width = 1; break;
    case TC_IW: {
        int iy, wk;
        iso_week(tm->days, &iy, &wk);
        v = wk;
        break;
    }
    case TC_WW: v = (tm->days - date_from_ymd(tm->year, 1, 1)) / 7 + 1; break;
    case TC_W: v = (tm->mday - 1) / 7 + 1; width = 1; break;
    case TC_Q: v = (tm->mon - 1) / 3 + 1; width = 1; break;
    case TC_CC:
        v = tm->year > 0 ? (tm->year - 1) / 100 + 1 : tm->year / 100 - 1;
        width = v < 0 ? 3 : 2;   /* PostgreSQL: "-01" */
        break;
    case TC_J: v = (int64_t)tm->days + 2451545; width = 0; break;
    case TC_TZ:
        if (!t->has_tz) return 0;
        return tc_name(out, t->tzabbr ? t->tzabbr : "", cs == 2 ? 2 : 0, false, true);
    case TC_TZH: *num = 0; return sprintf(out, "%c%02d", t->tzoff < 0 ? '-' : '+', abs(t->tzoff) / 3600);
    case TC_TZM: *num = 0; return sprintf(out, "%02d", abs(t->tzoff) / 60 % 60);
    case TC_OF: {
        int a = abs(t->tzoff);
        int n = sprintf(out, "%c%02d", t->tzoff < 0 ? '-' : '+', a / 3600);
        if (a % 3600) n += sprintf(out + n, ":%02d", a / 60 % 60);
        return n;
    }
    default: return 0;
    }
    *num = v;
    return sprintf(out, "%0*lld", fm ? 0 : width, (long long)v);
}

/* PostgreSQL's date2j for any (even out-of-range) fields, as to_char of
 * an interval feeds it (J, WW, IW of '14 months 40 days'). */
static int64_t pg_date2j(int64_t y, int64_t m, int64_t d)
{
    if (m > 2) m += 1, y += 4800;
    else m += 13, y += 4799;
    int64_t century = y / 100;
    return y * 365 - 32167 + y / 4 - century + century / 4 + 7834 * m / 256 + d;
}

static int pg_j2day(int64_t j)
{
    j = (j + 1) % 7;
    return (int)(j < 0 ? j + 7 : j);
}

/* date2isoweek / date2isoyear over pg_date2j. */
static int pg_isoweek(int64_t y, int m, int d, int64_t *isoyear)
{
    int64_t dayn = pg_date2j(y, m, d), day4 = pg_date2j(y, 1, 4), day0 = pg_j2day(day4 - 1);
    *isoyear = y;
    if (dayn < day4 - day0) {
        day4 = pg_date2j(y - 1, 1, 4), day0 = pg_j2day(day4 - 1);
        (*isoyear)--;
    }
    int64_t w = (dayn - (day4 - day0)) / 7 + 1;
    if (w >= 52) {
        int64_t d4 = pg_date2j(*isoyear + 1, 1, 4), d0 = pg_j2day(d4 - 1);
        if (dayn >= d4 - d0) w = (dayn - (d4 - d0)) / 7 + 1, (*isoyear)++;
    }
    return (int)w;
}

static _Noreturn void tc_interval_invalid(void)
{
    ErrorData *e = err_begin(ERRCODE_INVALID_DATETIME_FORMAT);
    err_message(e, "invalid format specification for an interval value");
    err_hint(e, "Intervals are not tied to specific calendar dates.");
    err_throw();
}

/* tc_element for an interval (PostgreSQL's DCH_to_char with is_interval):
 * hours beyond 24 and negative fields print as they are, widths grow by
 * one for a minus sign, calendar names and zones are errors. */
static int tc_element_iv(const TcTm *t, TcKey k, int cs, bool fm, char *out, int64_t *num)
{
    int hour = t->iv_hour, y = t->iv_year;
    int64_t v, yday = ((int64_t)y * 12 + t->iv_mon) * 30 + t->iv_mday, iy;
    int width = 2;
    bool upper = cs != 2, neg_wide = true;
    switch (k) {
    case TC_HH24: v = hour; break;
    case TC_HH12: case TC_HH: v = hour % 12 == 0 ? 12 : hour % 12; break;
    case TC_MI: v = t->iv_min; break;
    case TC_SS: v = t->iv_sec; break;
    case TC_SSSS: case TC_SSSSS: v = (int64_t)hour * 3600 + t->iv_min * 60 + t->iv_sec; width = 0; break;
    case TC_MS: *num = t->iv_fsec / 1000; return sprintf(out, "%03d", t->iv_fsec / 1000);
    case TC_US: *num = t->iv_fsec; return sprintf(out, "%06d", t->iv_fsec);
    case TC_AM: case TC_PM: return sprintf(out, "%s", hour % 24 >= 12 ? (upper ? "PM" : "pm") : (upper ? "AM" : "am"));
    case TC_A_M: case TC_P_M: return sprintf(out, "%s", hour % 24 >= 12 ? (upper ? "P.M." : "p.m.") : (upper ? "A.M." : "a.m."));
    case TC_YCOMMA: *num = y; return sprintf(out, "%d,%03d", y / 1000, y - y / 1000 * 1000);
    case TC_YYYY: v = y; width = 4; break;
    case TC_YYY: v = y % 1000; width = 3; break;
    case TC_YY: v = y % 100; width = 2; break;
    case TC_Y: *num = y % 10; return sprintf(out, "%1d", y % 10);
    case TC_IYYY: pg_isoweek(y, t->iv_mon, t->iv_mday, &iy); v = iy; width = 4; break;
    case TC_MM: v = t->iv_mon; break;
    case TC_DD: v = t->iv_mday; neg_wide = false; break;
    case TC_DDD: v = yday; width = 3; neg_wide = false; break;
    case TC_IW: v = pg_isoweek(y, t->iv_mon, t->iv_mday, &iy); neg_wide = false; break;
    case TC_WW: v = (yday - 1) / 7 + 1; neg_wide = false; break;
    case TC_W: v = (t->iv_mday - 1) / 7 + 1; width = 0; break;
    case TC_Q:
        if (t->iv_mon == 0) return 0;
        v = (t->iv_mon - 1) / 3 + 1;
        width = 0;
        break;
    case TC_CC: v = y / 100; if (v > 99 || v < -99) width = 0; break;
    case TC_RM: return tc_roman_month(out, t->iv_mon, cs, fm);
    case TC_FX: return 0;
    case TC_IDDD: {   /* date2isoyearday: days since isoweek2j(isoyear, 1) */
        pg_isoweek(y, t->iv_mon, t->iv_mday, &iy);
        int64_t d4 = pg_date2j(iy, 1, 4);
        v = pg_date2j(y, t->iv_mon, t->iv_mday) - (d4 - pg_j2day(d4 - 1)) + 1;
        width = 3;
        neg_wide = false;
        break;
    }
    case TC_IYY: case TC_IY: case TC_I:
        pg_isoweek(y, t->iv_mon, t->iv_mday, &iy);
        width = k == TC_IYY ? 3 : k == TC_IY ? 2 : 1;
        v = k == TC_IYY ? iy % 1000 : k == TC_IY ? iy % 100 : iy % 10;
        break;
    case TC_FF1: case TC_FF2: case TC_FF3: case TC_FF4: case TC_FF5: case TC_FF6: {
        static const int div[] = {100000, 10000, 1000, 100, 10, 1};
        int nd = (int)(k - TC_FF1) + 1;
        *num = t->iv_fsec / div[nd - 1];
        return sprintf(out, "%0*d", nd, t->iv_fsec / div[nd - 1]);
    }
    case TC_J: v = pg_date2j(y, t->iv_mon, t->iv_mday); width = 0; break;
    default: tc_interval_invalid();
    }
    *num = v;
    return sprintf(out, "%0*lld", fm ? 0 : width + (neg_wide && v < 0), (long long)v);
}

static StrRef to_char_one(TextOut *o, const TcTm *t, StrRef fmt)
{
    const char *p = fmt.ptr, *end = fmt.ptr + fmt.len;
    while (p < end) {
        bool fm = false;   /* FM, or TM (C locale: English names without padding) */
        if (end - p >= 2 && (memcmp(p, "FM", 2) == 0 || memcmp(p, "fm", 2) == 0 ||
                             memcmp(p, "TM", 2) == 0 || memcmp(p, "tm", 2) == 0)) {
            bool tm_mode = p[0] == 'T' || p[0] == 't';
            fm = true, p += 2;
            if (tm_mode) {   /* TM unpads names only */
                TcKey tk = TC_FX;
                for (size_t q = 0; q < sizeof tc_keys / sizeof tc_keys[0]; q++) {
                    size_t l = strlen(tc_keys[q].s);
                    if ((size_t)(end - p) >= l && memcmp(p, tc_keys[q].s, l) == 0) {
                        tk = tc_keys[q].k;
                        break;
                    }
                }
                fm = tk == TC_MONTH || tk == TC_MON || tk == TC_DAY || tk == TC_DY;
            }
        }
        size_t k;
        size_t nkeys = sizeof tc_keys / sizeof tc_keys[0];
        for (k = 0; k < nkeys; k++) {
            size_t l = strlen(tc_keys[k].s);
            if ((size_t)(end - p) >= l && memcmp(p, tc_keys[k].s, l) == 0) break;
        }
        if (k == nkeys) {
            if (fm) continue;   /* FM before a non-pattern: PostgreSQL drops it */
            if (*p == '"') {   /* quoted literal text; \" inside is a quote */
                for (p++; p < end && *p != '"'; p++) {
                    if (*p == '\\' && p + 1 < end) p++;
                    text_out_char(o, *p);
                }
                if (p < end) p++;
                continue;
            }
            if (*p == '\\' && p + 1 < end && p[1] == '"') p++;
            text_out_char(o, *p++);
            continue;
        }
        p += strlen(tc_keys[k].s);
        char buf[64];
        int64_t num = INT64_MIN;   /* not a number: TH stays literal text */
        int n = t->is_interval ? tc_element_iv(t, tc_keys[k].k, tc_keys[k].cs, fm, buf, &num)
                               : tc_element(t, tc_keys[k].k, tc_keys[k].cs, fm, buf, &num);
        text_out_append(o, buf, (size_t)n);
        if (end - p >= 2 && num != INT64_MIN && (memcmp(p, "TH", 2) == 0 || memcmp(p, "th", 2) == 0)) {
            text_out_append(o, ordinal(num, p[0] == 'T'), 2);
            p += 2;
        } else if (end - p >= 2 && (memcmp(p, "SP", 2) == 0 || memcmp(p, "sp", 2) == 0)) {
            p += 2;   /* spell mode: accepted and ignored, as PostgreSQL */
        }
    }
    return text_out_finish(o);
}

static void to_char_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool tz)
{
    const int64_t *t = args[0]->data;
    const StrRef *f = args[1]->data;
    uint32_t tm = args[0]->is_const ? 0 : UINT32_MAX, fm = args[1]->is_const ? 0 : UINT32_MAX;
    StrRef *r = result->data;
    TextOut o;
    text_out_init(&o, ctx->arena, 0);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        int64_t v = t[row & tm];
        if (!ts_finite(v)) {   /* PostgreSQL: to_char of an infinite timestamp is NULL */
            vec_set_null(result, row);
            continue;
        }
        TcTm x = {.has_tz = tz};
        if (tz) {
            const TzZone *z = tz_session_zone();
            int64_t secs = v / USECS_PER_SEC - (v % USECS_PER_SEC < 0) + INT64_C(946684800);
            x.tzoff = tz_offset_at(z, secs, NULL, &x.tzabbr);
            v += (int64_t)x.tzoff * USECS_PER_SEC;
        }
        x.tm = ts_split(v);
        r[row] = to_char_one(&o, &x, f[row & fm]);
    }
}
static void k_to_char_ts(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_char_kernel(c, a, r, false); }

/* to_char(interval, template): interval2tm's fields (years = months / 12,
 * hours not wrapped at 24). */
static void k_to_char_iv(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const StrRef *iv = args[0]->data, *f = args[1]->data;
    uint32_t im = args[0]->is_const ? 0 : UINT32_MAX, fm = args[1]->is_const ? 0 : UINT32_MAX;
    StrRef *r = result->data;
    TextOut o;
    text_out_init(&o, ctx->arena, 0);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row)) continue;
        Interval v = IV(iv[row & im]);
        int64_t us = v.micros;
        TcTm x = {.is_interval = true};
        x.iv_year = v.months / 12, x.iv_mon = v.months % 12, x.iv_mday = v.days;
        x.iv_hour = (int)(us / USECS_PER_HOUR), us -= (int64_t)x.iv_hour * USECS_PER_HOUR;
        x.iv_min = (int)(us / 60000000), us -= (int64_t)x.iv_min * 60000000;
        x.iv_sec = (int)(us / 1000000), x.iv_fsec = (int)(us - (int64_t)x.iv_sec * 1000000);
        r[row] = to_char_one(&o, &x, f[row & fm]);
    }
}
static void k_to_char_tz(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_char_kernel(c, a, r, true); }

/* ---------- the table ---------- */

#define D1(nm, a0, ret, kern, id) {(nm), 1, {(a0), 0, 0, 0}, (ret), FUNC_STRICT, (kern), (id)}
#define D2(nm, a0, a1, ret, kern, id) {(nm), 2, {(a0), (a1), 0, 0}, (ret), FUNC_STRICT, (kern), (id)}
#define TS TYPE_TIMESTAMP
#define TZ TYPE_TIMESTAMPTZ
#define IVT TYPE_INTERVAL
#define DT TYPE_DATE
#define TM TYPE_TIME
#define F8 TYPE_FLOAT8
#define TX TYPE_TEXT

const FuncDesc exec__funcs_datetime[] = {
    D2("+", TS, IVT, TS, k_ts_pl_iv, 2032), D2("+", IVT, TS, TS, k_iv_pl_ts, 2548),
    D2("-", TS, IVT, TS, k_ts_mi_iv, 2033),
    D2("+", TZ, IVT, TZ, k_tz_pl_iv, 1189), D2("+", IVT, TZ, TZ, k_iv_pl_tz, 2549),
    D2("-", TZ, IVT, TZ, k_tz_mi_iv, 1190),
    D2("+", DT, IVT, TS, k_date_pl_iv, 2071), D2("+", IVT, DT, TS, k_iv_pl_date, 2546),
    D2("-", DT, IVT, TS, k_date_mi_iv, 2072),
    D2("-", TS, TS, IVT, k_ts_mi, 2031), D2("-", TZ, TZ, IVT, k_ts_mi, 1188),
    D2("+", IVT, IVT, IVT, k_iv_pl, 1169), D2("-", IVT, IVT, IVT, k_iv_mi, 1170),
    D1("-", IVT, IVT, k_iv_um, 1168),
    D2("*", IVT, F8, IVT, k_iv_mul, 1618), D2("*", F8, IVT, IVT, k_mul_iv, 1624),
    D2("/", IVT, F8, IVT, k_iv_div, 1326),
    D2("-", TM, TM, IVT, k_time_mi, 1690), D2("+", TM, IVT, TM, k_time_pl_iv, 1747),
    D2("-", TM, IVT, TM, k_time_mi_iv, 1748), D2("+", DT, TM, TS, k_date_pl_time, 1272),
    D1("justify_days", IVT, IVT, k_justify_days, 1295),
    D1("justify_hours", IVT, IVT, k_justify_hours, 1175),
    D1("justify_interval", IVT, IVT, k_justify_interval, 2711),
    {"make_date", 3, {TYPE_INT4, TYPE_INT4, TYPE_INT4, 0}, DT, FUNC_STRICT, k_make_date, 3846},
    D2("date_trunc", TX, TS, TS, k_date_trunc_ts, 2020),
    {"date_trunc", 2, {TX, TZ, 0, 0}, TZ, FUNC_STRICT | FUNC_STABLE, k_date_trunc_tz, 1217},
    D2("extract", TX, TS, TYPE_NUMERIC, k_extract_ts, 6202),
    {"extract", 2, {TX, TZ, 0, 0}, TYPE_NUMERIC, FUNC_STRICT | FUNC_STABLE, k_extract_tz, 6203},
    D2("extract", TX, DT, TYPE_NUMERIC, k_extract_date, 6199),
    D2("extract", TX, IVT, TYPE_NUMERIC, k_extract_iv, 6204),
    D2("date_part", TX, TS, F8, k_part_ts, 2021),
    {"date_part", 2, {TX, TZ, 0, 0}, F8, FUNC_STRICT | FUNC_STABLE, k_part_tz, 1171},
    D2("date_part", TX, DT, F8, k_part_date, 1384),
    D2("date_part", TX, IVT, F8, k_part_iv, 1172),
    D2("age", TS, TS, IVT, k_age_ts, 2058),
    {"age", 2, {TZ, TZ, 0, 0}, IVT, FUNC_STRICT | FUNC_STABLE, k_age_tz, 1199},
    {"age", 1, {TS, 0, 0, 0}, IVT, FUNC_STRICT | FUNC_STABLE, k_age1, 2059},
    {"clock_timestamp", 0, {0, 0, 0, 0}, TZ, FUNC_VOLATILE, k_clock_timestamp, 2649},
    D2("timezone", TX, TZ, TS, k_timezone_tz, 1159),
    D2("timezone", TX, TS, TZ, k_timezone_ts, 2069),
    {"date_trunc", 3, {TX, TZ, TX, 0}, TZ, FUNC_STRICT | FUNC_STABLE, k_date_trunc_tz3, 1284},
    D1("isfinite", DT, TYPE_BOOL, k_isfinite_date, 1373),
    D1("isfinite", TS, TYPE_BOOL, k_isfinite_ts, 2048),
    D1("isfinite", TZ, TYPE_BOOL, k_isfinite_ts, 1389),
    D1("isfinite", IVT, TYPE_BOOL, k_isfinite_iv, 1390),
    D1("to_timestamp", F8, TZ, k_to_timestamp, 1158),
    D2("to_char", TS, TX, TX, k_to_char_ts, 2049),
    D2("to_char", TYPE_INTERVAL, TX, TX, k_to_char_iv, 1768),
    D2("date_trunc", TX, IVT, IVT, k_date_trunc_iv, 1218),
    {"date_bin", 3, {IVT, TS, TS, 0}, TS, FUNC_STRICT, k_date_bin, 6177},
    {"date_bin", 3, {IVT, TZ, TZ, 0}, TZ, FUNC_STRICT, k_date_bin, 6178},
    {"to_char", 2, {TZ, TX, 0, 0}, TX, FUNC_STRICT | FUNC_STABLE, k_to_char_tz, 1770},
};
const int exec__funcs_datetime_count = (int)(sizeof exec__funcs_datetime / sizeof exec__funcs_datetime[0]);
