/*
 * typcmp.c — type_compare and type_hash_value: one ordering and one hash
 * per SQL type, as PostgreSQL's btree/hash operator classes define them,
 * for the slow paths of sort, hash join and aggregation (constants,
 * arrays of values, the types without typed kernels: interval, uuid,
 * arrays, json/jsonb).
 *
 * The rule that binds the two: values that compare equal hash equal
 * (numeric 1.5 / 1.50, interval '1 month' / '30 days', float 0 / -0,
 * char(n) with / without trailing spaces).
 */
#include <math.h>
#include <string.h>

#include "common/array.h"
#include "common/json.h"
#include "common/numeric.h"
#include "common/typio.h"
#include "common/types.h"

#define TYPCMP_SEED UINT64_C(0x5172617461)

static int typcmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* float8/float4 btree order: NaN above everything, NaN = NaN, -0 = 0. */
static int typcmp_f64(double a, double b)
{
    if (isnan(a))
        return isnan(b) ? 0 : 1;
    if (isnan(b))
        return -1;
    return a < b ? -1 : a > b;
}

/* Bytewise (C collation); on a common prefix the shorter sorts first. */
static int typcmp_bytes(StrRef a, StrRef b)
{
    uint32_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return a.len < b.len ? -1 : a.len > b.len;
}

/* bpchar ignores trailing spaces when comparing and hashing. */
static StrRef typcmp_bpchar_trim(StrRef s)
{
    while (s.len > 0 && s.ptr[s.len - 1] == ' ')
        s.len--;
    return s;
}

/* PostgreSQL's interval_cmp_value: months as 30 days, days as 24 hours. */
static int128_t typcmp_interval_span(StrRef s)
{
    Interval iv = interval_get(s);
    return ((int128_t)iv.months * 30 + iv.days) * USECS_PER_DAY + iv.micros;
}

int type_compare(SqlType t, const Value *a, const Value *b)
{
    switch (t.oid) {
    case TYPE_BOOL: return (int)a->u.b - (int)b->u.b;
    case TYPE_INT2: return typcmp_i64(a->u.i16, b->u.i16);
    case TYPE_INT4:
    case TYPE_DATE: return typcmp_i64(a->u.i32, b->u.i32);
    case TYPE_OID: case TYPE_REGCLASS: case TYPE_REGTYPE: case TYPE_REGPROC:
    case TYPE_REGNAMESPACE: case TYPE_REGPROCEDURE:
    case TYPE_REGROLE:
        return typcmp_i64((uint32_t)a->u.i32, (uint32_t)b->u.i32);
    case TYPE_INT8: case TYPE_XID8:
    case TYPE_TIMESTAMP:
    case TYPE_TIMESTAMPTZ:
    case TYPE_TIME: return typcmp_i64(a->u.i64, b->u.i64);
    case TYPE_FLOAT4: return typcmp_f64(a->u.f32, b->u.f32);
    case TYPE_FLOAT8: return typcmp_f64(a->u.f64, b->u.f64);
    case TYPE_NUMERIC: return numeric_cmp(a->u.str, b->u.str);
    case TYPE_BPCHAR:
        return typcmp_bytes(typcmp_bpchar_trim(a->u.str), typcmp_bpchar_trim(b->u.str));
    case TYPE_INTERVAL: {
        int128_t x = typcmp_interval_span(a->u.str), y = typcmp_interval_span(b->u.str);
        return x < y ? -1 : x > y;
    }
    case TYPE_JSONB: return jsonb_compare(a->u.str, b->u.str);
    default:
        if (type_is_array(t.oid))
            return array_compare(a->u.str, b->u.str);
        /* text, varchar, name, bytea, uuid, json, jsonb, unknown */
        return typcmp_bytes(a->u.str, b->u.str);
    }
}

static uint64_t typcmp_hash_f64(double d)
{
    uint64_t bits;
    if (d == 0.0)
        d = 0.0; /* -0 hashes as 0 */
    if (isnan(d))
        d = NAN;
    memcpy(&bits, &d, sizeof bits);
    return hash_u64(bits);
}

uint64_t type_hash_value(SqlType t, const Value *v)
{
    switch (t.oid) {
    case TYPE_BOOL: return hash_u64(v->u.b ? 1 : 0);
    case TYPE_INT2: return hash_u64((uint64_t)(int64_t)v->u.i16);
    case TYPE_INT4:
    case TYPE_DATE: return hash_u64((uint64_t)(int64_t)v->u.i32);
    case TYPE_OID: case TYPE_REGCLASS: case TYPE_REGTYPE: case TYPE_REGPROC:
    case TYPE_REGNAMESPACE: case TYPE_REGPROCEDURE:
    case TYPE_REGROLE:
        return hash_u64((uint32_t)v->u.i32);
    case TYPE_INT8: case TYPE_XID8:
    case TYPE_TIMESTAMP:
    case TYPE_TIMESTAMPTZ:
    case TYPE_TIME: return hash_u64((uint64_t)v->u.i64);
    case TYPE_FLOAT4: return typcmp_hash_f64(v->u.f32);
    case TYPE_FLOAT8: return typcmp_hash_f64(v->u.f64);
    case TYPE_NUMERIC: return numeric_hash(v->u.str);
    case TYPE_BPCHAR: {
        StrRef s = typcmp_bpchar_trim(v->u.str);
        return hash_bytes(s.ptr, s.len, TYPCMP_SEED);
    }
    case TYPE_INTERVAL: {
        int128_t span = typcmp_interval_span(v->u.str);
        return hash_u64((uint64_t)span ^ hash_u64((uint64_t)(span >> 64)));
    }
    case TYPE_JSONB: return jsonb_hash(v->u.str);
    default:
        if (type_is_array(t.oid))
            return array_hash(v->u.str);
        return hash_bytes(v->u.str.ptr, v->u.str.len, TYPCMP_SEED);
    }
}

void type_hash_vector(const Vector *v, const uint16_t *sel, uint32_t count, bool combine,
                      uint64_t *hashes)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t row = sel ? sel[i] : i;
        Value val;
        uint64_t h;
        vec_get_value(v, row, &val);
        h = val.is_null ? UINT64_C(0x9e3779b97f4a7c15) : type_hash_value(v->type, &val);
        hashes[i] = combine ? hash_u64(hashes[i] * UINT64_C(31) + h) : h;
    }
}
