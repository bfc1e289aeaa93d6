/*
 * funcs_cmp.c — the comparison operators = <> < <= > >= of every type,
 * producing PHYS_BOOL vectors: integers (with PostgreSQL's cross-type
 * int2/int4/int8 forms), floats (float4/float8 and cross forms, NaN equal
 * to itself and above every number, as PostgreSQL sorts it), bool, date,
 * timestamp, timestamptz, time, date vs timestamp, numeric, text (bytewise:
 * the C collation), bpchar (trailing spaces ignored) and interval (by span).
 *
 * One X-macro list names each comparable type pair with its six pg_proc
 * OIDs; it expands into six kernels per pair and into the FuncDesc table.
 * Fixed-width types use the vectorised KERNEL_BINARY template; numeric,
 * strings and date-vs-timestamp compare row by row through a 3-way
 * comparison (a direct call, never an indirect one).
 */
#include <string.h>
#include "common/json.h"
#include "common/numeric.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

/* ---------- fixed-width: OP(r, a, b, bad) ---------- */

/* Integers, bools, dates, timestamps: C's usual conversions make the
 * cross-type integer comparisons exact (both sides widen to the larger). */
#define PLAIN_EQ(r, a, b, bad) ((void)(bad), r = (uint8_t)((a) == (b)))
#define PLAIN_NE(r, a, b, bad) ((void)(bad), r = (uint8_t)((a) != (b)))
#define PLAIN_LT(r, a, b, bad) ((void)(bad), r = (uint8_t)((a) < (b)))
#define PLAIN_LE(r, a, b, bad) ((void)(bad), r = (uint8_t)((a) <= (b)))
#define PLAIN_GT(r, a, b, bad) ((void)(bad), r = (uint8_t)((a) > (b)))
#define PLAIN_GE(r, a, b, bad) ((void)(bad), r = (uint8_t)((a) >= (b)))

/* Floats as PostgreSQL's float8_cmp_internal: NaN = NaN, NaN > non-NaN.
 * Both sides go through double so float4-vs-float8 compares exactly. */
#define FNAN(x) ((x) != (x))
#define FLT_EQ(r, a, b, bad)                                                        \
    do { double x_ = (a), y_ = (b); (void)(bad);                                    \
         r = (uint8_t)((FNAN(x_) & FNAN(y_)) | (x_ == y_)); } while (0)
#define FLT_NE(r, a, b, bad)                                                        \
    do { double x_ = (a), y_ = (b); (void)(bad);                                    \
         r = (uint8_t)!((FNAN(x_) & FNAN(y_)) | (x_ == y_)); } while (0)
#define FLT_LT(r, a, b, bad)                                                        \
    do { double x_ = (a), y_ = (b); (void)(bad);                                    \
         r = (uint8_t)((FNAN(x_) == 0) & (FNAN(y_) | (x_ < y_))); } while (0)
#define FLT_LE(r, a, b, bad)                                                        \
    do { double x_ = (a), y_ = (b); (void)(bad);                                    \
         r = (uint8_t)(FNAN(y_) | (x_ <= y_)); } while (0)
#define FLT_GT(r, a, b, bad)                                                        \
    do { double x_ = (a), y_ = (b); (void)(bad);                                    \
         r = (uint8_t)((FNAN(y_) == 0) & (FNAN(x_) | (x_ > y_))); } while (0)
#define FLT_GE(r, a, b, bad)                                                        \
    do { double x_ = (a), y_ = (b); (void)(bad);                                    \
         r = (uint8_t)(FNAN(x_) | (x_ >= y_)); } while (0)

/* X(name, LT, RT, lo, ro, FAMILY, eq, ne, lt, le, gt, ge) */
#define CMP_FIXED(X)                                                                           \
    X(int2, int16_t, int16_t, TYPE_INT2, TYPE_INT2, PLAIN, 63, 145, 64, 148, 146, 151)        \
    X(int4, int32_t, int32_t, TYPE_INT4, TYPE_INT4, PLAIN, 65, 144, 66, 149, 147, 150)        \
    X(int8, int64_t, int64_t, TYPE_INT8, TYPE_INT8, PLAIN, 467, 468, 469, 471, 470, 472)      \
    X(int24, int16_t, int32_t, TYPE_INT2, TYPE_INT4, PLAIN, 158, 164, 160, 166, 162, 168)     \
    X(int42, int32_t, int16_t, TYPE_INT4, TYPE_INT2, PLAIN, 159, 165, 161, 167, 163, 169)     \
    X(int28, int16_t, int64_t, TYPE_INT2, TYPE_INT8, PLAIN, 1850, 1851, 1852, 1854, 1853, 1855) \
    X(int82, int64_t, int16_t, TYPE_INT8, TYPE_INT2, PLAIN, 1856, 1857, 1858, 1860, 1859, 1861) \
    X(int48, int32_t, int64_t, TYPE_INT4, TYPE_INT8, PLAIN, 852, 853, 854, 856, 855, 857)     \
    X(int84, int64_t, int32_t, TYPE_INT8, TYPE_INT4, PLAIN, 474, 475, 476, 478, 477, 479)     \
    X(boolean, uint8_t, uint8_t, TYPE_BOOL, TYPE_BOOL, PLAIN, 60, 84, 56, 1691, 57, 1692)        \
    X(date, int32_t, int32_t, TYPE_DATE, TYPE_DATE, PLAIN, 1086, 1091, 1087, 1088, 1089, 1090) \
    X(timestamp, int64_t, int64_t, TYPE_TIMESTAMP, TYPE_TIMESTAMP, PLAIN, 2052, 2053, 2054, 2055, 2057, 2056) \
    X(timestamptz, int64_t, int64_t, TYPE_TIMESTAMPTZ, TYPE_TIMESTAMPTZ, PLAIN, 1152, 1153, 1154, 1155, 1157, 1156) \
    X(time, int64_t, int64_t, TYPE_TIME, TYPE_TIME, PLAIN, 1145, 1106, 1102, 1103, 1104, 1105) \
    X(float4, float, float, TYPE_FLOAT4, TYPE_FLOAT4, FLT, 287, 288, 289, 290, 291, 292)      \
    X(float8, double, double, TYPE_FLOAT8, TYPE_FLOAT8, FLT, 293, 294, 295, 296, 297, 298)    \
    X(float48, float, double, TYPE_FLOAT4, TYPE_FLOAT8, FLT, 299, 300, 301, 302, 303, 304)    \
    X(float84, double, float, TYPE_FLOAT8, TYPE_FLOAT4, FLT, 305, 306, 307, 308, 309, 310)

#define X_KERNELS(name, LT, RT, lo, ro, FAM, o_eq, o_ne, o_lt, o_le, o_gt, o_ge)            \
    KERNEL_BINARY(k_##name##eq, LT, RT, uint8_t, FAM##_EQ, KERNEL_NO_RAISE)      \
    KERNEL_BINARY(k_##name##ne, LT, RT, uint8_t, FAM##_NE, KERNEL_NO_RAISE)      \
    KERNEL_BINARY(k_##name##lt, LT, RT, uint8_t, FAM##_LT, KERNEL_NO_RAISE)      \
    KERNEL_BINARY(k_##name##le, LT, RT, uint8_t, FAM##_LE, KERNEL_NO_RAISE)      \
    KERNEL_BINARY(k_##name##gt, LT, RT, uint8_t, FAM##_GT, KERNEL_NO_RAISE)      \
    KERNEL_BINARY(k_##name##ge, LT, RT, uint8_t, FAM##_GE, KERNEL_NO_RAISE)
CMP_FIXED(X_KERNELS)
#undef X_KERNELS

/* ---------- 3-way comparisons for the rest ---------- */

/* text: bytewise (C collation), shorter prefix sorts first; bytea's byteacmp
 * is the same order. */
static inline int cmp_text(StrRef a, StrRef b)
{
    uint32_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0) return c < 0 ? -1 : 1;
    return (a.len > b.len) - (a.len < b.len);
}

/* bpchar: as bpcharcmp, trailing spaces are not significant. */
static inline StrRef bpchar_trim(StrRef s)
{
    while (s.len > 0 && s.ptr[s.len - 1] == ' ') s.len--;
    return s;
}
static inline int cmp_bpchar(StrRef a, StrRef b) { return cmp_text(bpchar_trim(a), bpchar_trim(b)); }

/* date vs timestamp as PostgreSQL's date2timestamp_no_overflow: dates too
 * far for a timestamp still compare correctly (128-bit microseconds). */
static inline int128_t date_as_ts128(int32_t d)
{
    if (d == DATE_NOBEGIN) return (int128_t)TS_NOBEGIN;
    if (d == DATE_NOEND) return (int128_t)TS_NOEND;
    return (int128_t)d * USECS_PER_DAY;
}
static inline int cmp_date_ts(int32_t d, int64_t ts)
{
    int128_t x = date_as_ts128(d), y = ts;
    return (x > y) - (x < y);
}
static inline int cmp_ts_date(int64_t ts, int32_t d) { return -cmp_date_ts(d, ts); }

/* interval: by its span, months counting 30 days (PostgreSQL's
 * interval_cmp_value), so '1 month' = '30 days' and '1 day' = '24 hours'. */
static inline int cmp_interval(StrRef a, StrRef b)
{
    Interval x = interval_get(a), y = interval_get(b);
    int128_t sx = ((int128_t)x.months * 30 + x.days) * USECS_PER_DAY + x.micros;
    int128_t sy = ((int128_t)y.months * 30 + y.days) * USECS_PER_DAY + y.micros;
    return (sx > sy) - (sx < sy);
}

/* jsonb: PostgreSQL's jsonb btree order (common/json.h), so {"a":1.0} = {"a":1}. */
static inline int cmp_jsonb(StrRef a, StrRef b)
{
    int c = jsonb_compare(a, b);
    return (c > 0) - (c < 0);
}

/* X(name, LT, RT, lo, ro, cmpfn, eq, ne, lt, le, gt, ge) */
#define CMP_ROWS(X)                                                                              \
    X(numeric, StrRef, StrRef, TYPE_NUMERIC, TYPE_NUMERIC, numeric_cmp, 1718, 1719, 1722, 1723, 1720, 1721) \
    X(text, StrRef, StrRef, TYPE_TEXT, TYPE_TEXT, cmp_text, 67, 157, 740, 741, 742, 743)         \
    X(bpchar, StrRef, StrRef, TYPE_BPCHAR, TYPE_BPCHAR, cmp_bpchar, 1048, 1053, 1049, 1050, 1051, 1052) \
    X(date_ts, int32_t, int64_t, TYPE_DATE, TYPE_TIMESTAMP, cmp_date_ts, 2340, 2343, 2338, 2339, 2341, 2342) \
    X(ts_date, int64_t, int32_t, TYPE_TIMESTAMP, TYPE_DATE, cmp_ts_date, 2366, 2369, 2364, 2365, 2367, 2368) \
    X(interval, StrRef, StrRef, TYPE_INTERVAL, TYPE_INTERVAL, cmp_interval, 1162, 1163, 1164, 1165, 1167, 1166) \
    X(jsonb, StrRef, StrRef, TYPE_JSONB, TYPE_JSONB, cmp_jsonb, 3240, 3241, 3242, 3244, 3243, 3245) \
    X(bytea, StrRef, StrRef, TYPE_BYTEA, TYPE_BYTEA, cmp_text, 1955, 1956, 1957, 1958, 1959, 1960)

#define X_KERNELS(name, LT, RT, lo, ro, fn, o_eq, o_ne, o_lt, o_le, o_gt, o_ge)                              \
    KERNEL_ROWS_BINARY(k_##name##eq, LT, RT, uint8_t, r[row] = (uint8_t)(fn(a[ia], b[ib]) == 0)) \
    KERNEL_ROWS_BINARY(k_##name##ne, LT, RT, uint8_t, r[row] = (uint8_t)(fn(a[ia], b[ib]) != 0)) \
    KERNEL_ROWS_BINARY(k_##name##lt, LT, RT, uint8_t, r[row] = (uint8_t)(fn(a[ia], b[ib]) < 0))  \
    KERNEL_ROWS_BINARY(k_##name##le, LT, RT, uint8_t, r[row] = (uint8_t)(fn(a[ia], b[ib]) <= 0)) \
    KERNEL_ROWS_BINARY(k_##name##gt, LT, RT, uint8_t, r[row] = (uint8_t)(fn(a[ia], b[ib]) > 0))  \
    KERNEL_ROWS_BINARY(k_##name##ge, LT, RT, uint8_t, r[row] = (uint8_t)(fn(a[ia], b[ib]) >= 0))
CMP_ROWS(X_KERNELS)
#undef X_KERNELS

/* ---------- the table ---------- */

#define CMP_ENTRY(sym, name, suffix, lo, ro, id) \
    {(sym), 2, {(lo), (ro), 0, 0}, TYPE_BOOL, FUNC_STRICT, k_##name##suffix, (id)},
#define X_ENTRIES(name, LT, RT, lo, ro, fam, o_eq, o_ne, o_lt, o_le, o_gt, o_ge)         \
    CMP_ENTRY("=", name, eq, lo, ro, o_eq) CMP_ENTRY("<>", name, ne, lo, ro, o_ne)       \
    CMP_ENTRY("<", name, lt, lo, ro, o_lt) CMP_ENTRY("<=", name, le, lo, ro, o_le)       \
    CMP_ENTRY(">", name, gt, lo, ro, o_gt) CMP_ENTRY(">=", name, ge, lo, ro, o_ge)

const FuncDesc exec__funcs_cmp[] = {
    CMP_FIXED(X_ENTRIES)
    CMP_ROWS(X_ENTRIES)
};
const int exec__funcs_cmp_count = (int)(sizeof exec__funcs_cmp / sizeof exec__funcs_cmp[0]);
