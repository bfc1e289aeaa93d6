/*
 * colstore.c — growable column stores and the per-type vector helpers that
 * operators share: copy, gather, flatten, hash and compare keys.
 *
 * Why one file: aggregation, hash join, sort, nested loop and distinct all
 * keep rows beyond a batch and all need the same few per-type loops. Each
 * helper switches on the physical type once per call (once per batch) and
 * then runs a plain loop; strings are copied into the query arena in one
 * allocation per batch, never per row.
 *
 * Hashing and equality follow PostgreSQL's equality: numeric compares by
 * value (1.0 = 1.00), char(n) ignores trailing blanks, floats treat -0 = 0
 * and NaN = NaN, NULL hashes to a fixed value (grouping puts NULLs together).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"
#include "common/numeric.h"
#include "common/typio.h"

#define HASH_NULL UINT64_C(0x9e3779b97f4a7c15)

void exec__col_init(ExecColumn *c, SqlType type, MemArena *arena, uint32_t cap)
{
    memset(c, 0, sizeof *c);
    c->type = type;
    c->phys = type_phys(type);
    c->elem = (uint32_t)phys_size(c->phys);
    cap = (cap + 63) & ~UINT32_C(63);   /* whole validity words */
    if (cap < 64)
        cap = 64;
    c->cap = cap;
    c->data = mem_alloc(arena, (size_t)cap * c->elem);
    c->validity = mem_calloc(arena, cap / 64, sizeof(uint64_t));
}

void exec__col_reserve(ExecColumn *c, MemArena *arena, uint32_t n)
{
    if ((uint64_t)c->count + n <= c->cap)
        return;
    uint64_t cap = c->cap;
    while (cap < (uint64_t)c->count + n)
        cap *= 2;
    if (cap > UINT32_MAX / 2)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many rows kept by one operator");
    c->data = mem_realloc(arena, c->data, (size_t)c->cap * c->elem, (size_t)cap * c->elem);
    uint64_t *v = mem_calloc(arena, (size_t)(cap / 64), sizeof(uint64_t));
    memcpy(v, c->validity, (size_t)(c->cap / 64) * sizeof(uint64_t));
    c->validity = v;
    c->cap = (uint32_t)cap;
}

static bool is_bpchar(SqlType t) { return t.oid == TYPE_BPCHAR; }
static bool is_numeric(SqlType t) { return t.oid == TYPE_NUMERIC; }

/* Copy the string bytes of the given rows into one arena block. */
static void copy_strings(StrRef *dst, const StrRef *src, const uint64_t *vb, uint32_t m,
                         const uint16_t *rows, uint32_t n, MemArena *arena)
{
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += exec__bit(vb, rows[i] & m) ? src[rows[i] & m].len : 0;
    char *buf = mem_alloc(arena, total);
    for (uint32_t i = 0; i < n; i++) {
        StrRef s = src[rows[i] & m];
        if (!exec__bit(vb, rows[i] & m))
            s.len = 0;
        if (s.len)
            memcpy(buf, s.ptr, s.len);
        dst[i].ptr = buf;
        dst[i].len = s.len;
        buf += s.len;
    }
}

void exec__col_append(ExecColumn *c, MemArena *arena, const Vector *v, const uint16_t *rows, uint32_t n)
{
    exec__col_reserve(c, arena, n);
    uint32_t m = exec__mask(v);
    const uint64_t *vb = exec__validity(v);
    uint32_t base = c->count;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = rows[i] & m;
        uint64_t valid = exec__bit(vb, row);
        uint32_t at = base + i;
        c->validity[at >> 6] |= valid << (at & 63);
        c->has_null |= !valid;
    }
    switch (c->elem) {
    case 1: { const uint8_t *s = v->data; uint8_t *d = c->data + base;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[rows[i] & m]; } break; }
    case 2: { const int16_t *s = v->data; int16_t *d = (int16_t *)c->data + base;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[rows[i] & m]; } break; }
    case 4: { const int32_t *s = v->data; int32_t *d = (int32_t *)c->data + base;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[rows[i] & m]; } break; }
    case 8: { const int64_t *s = v->data; int64_t *d = (int64_t *)c->data + base;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[rows[i] & m]; } break; }
    default:
        ERR_ASSERT(c->phys == PHYS_STR);
        copy_strings((StrRef *)c->data + base, v->data, vb, m, rows, n, arena);
        break;
    }
    c->count += n;
}

void exec__col_gather(const ExecColumn *c, const uint32_t *idx, uint32_t n, Vector *out)
{
    out->is_const = false;
    out->validity = NULL;
    if (c->has_null) {
        out->validity = out->validity_buf;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t m = UINT64_C(1) << (i & 63);
            uint64_t valid = exec__bit(c->validity, idx[i]);
            out->validity_buf[i >> 6] = (out->validity_buf[i >> 6] & ~m) | (valid << (i & 63));
        }
    }
    switch (c->elem) {
    case 1: { const uint8_t *s = c->data; uint8_t *d = out->data;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[idx[i]]; } break; }
    case 2: { const int16_t *s = (const int16_t *)c->data; int16_t *d = out->data;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[idx[i]]; } break; }
    case 4: { const int32_t *s = (const int32_t *)c->data; int32_t *d = out->data;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[idx[i]]; } break; }
    case 8: { const int64_t *s = (const int64_t *)c->data; int64_t *d = out->data;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[idx[i]]; } break; }
    default: { const StrRef *s = (const StrRef *)c->data; StrRef *d = out->data;
        for (uint32_t i = 0; i < n; i++) { d[i] = s[idx[i]]; } break; }
    }
}

void exec__col_view(const ExecColumn *c, uint32_t start, Vector *out)
{
    ERR_ASSERT((start & 63) == 0);
    out->type = c->type;
    out->phys = c->phys;
    out->is_const = false;
    out->data = c->data + (size_t)start * c->elem;
    out->validity = c->has_null ? c->validity + start / 64 : NULL;
    out->validity_buf = NULL;
}

void exec__vec_copy_rows(const Vector *src, const uint16_t *srows, Vector *dst, const uint16_t *drows, uint32_t n)
{
    uint32_t m = exec__mask(src);
    const uint64_t *vb = exec__validity(src);
    bool need_bits = src->validity != NULL || dst->validity != NULL;
    if (need_bits && dst->validity == NULL) {
        memset(dst->validity_buf, 0xFF, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
        dst->validity = dst->validity_buf;
    }
    if (need_bits) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t d = drows[i];
            uint64_t bit = UINT64_C(1) << (d & 63);
            uint64_t valid = exec__bit(vb, srows[i] & m);
            dst->validity[d >> 6] = (dst->validity[d >> 6] & ~bit) | (valid << (d & 63));
        }
    }
    switch (phys_size(src->phys)) {
    case 1: { const uint8_t *s = src->data; uint8_t *d = dst->data;
        for (uint32_t i = 0; i < n; i++) { d[drows[i]] = s[srows[i] & m]; } break; }
    case 2: { const int16_t *s = src->data; int16_t *d = dst->data;
        for (uint32_t i = 0; i < n; i++) { d[drows[i]] = s[srows[i] & m]; } break; }
    case 4: { const int32_t *s = src->data; int32_t *d = dst->data;
        for (uint32_t i = 0; i < n; i++) { d[drows[i]] = s[srows[i] & m]; } break; }
    case 8: { const int64_t *s = src->data; int64_t *d = dst->data;
        for (uint32_t i = 0; i < n; i++) { d[drows[i]] = s[srows[i] & m]; } break; }
    default: { const StrRef *s = src->data; StrRef *d = dst->data;
        for (uint32_t i = 0; i < n; i++) { d[drows[i]] = s[srows[i] & m]; } break; }
    }
}

void exec__vec_flatten(const Vector *src, const uint16_t *sel, uint32_t count, Vector *dst)
{
    const uint16_t *rows = sel ? sel : exec__identity_sel;
    dst->is_const = false;
    dst->validity = NULL;
    exec__vec_copy_rows(src, rows, dst, rows, count);
}

/* ---------- hashing ---------- */

static inline uint64_t hash_combine(uint64_t h, uint64_t v, bool first)
{
    return first ? v : hash_u64(h * UINT64_C(0x9e3779b97f4a7c15) ^ v);
}

static inline uint64_t hash_double(double d)
{
    if (d == 0.0)
        d = 0.0;              /* -0 = 0 */
    if (isnan(d))
        return UINT64_C(0x7ff8000000000000);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return hash_u64(bits);
}

static inline uint32_t bpchar_len(StrRef s)
{
    uint32_t len = s.len;
    while (len > 0 && s.ptr[len - 1] == ' ')
        len--;
    return len;
}

static inline uint64_t hash_str(SqlType t, StrRef s)
{
    if (exec__str_needs_typecmp(t)) {
        Value v = {.is_null = false, .u.str = s};
        return type_hash_value(t, &v);
    }
    if (is_numeric(t))
        return numeric_hash(s);
    if (is_bpchar(t))
        return hash_bytes(s.ptr, bpchar_len(s), 0);
    return hash_bytes(s.ptr, s.len, 0);
}

/* Integer keys: one typed loop per (type, first) with no validity test and
 * no selection in the dense case, so the multiplies of consecutive rows
 * overlap; before, a per-row type switch and bit test around them made
 * hashing a third of ClickBench Q4's profile. Same values as the general
 * loop below (exec__hash_stored must agree). */
#define HASH_INT_LOOP(T)                                                           \
    {                                                                              \
        const T *d = v->data;                                                      \
        if (first) {                                                               \
            for (uint32_t i = 0; i < count; i++)                                   \
                hashes[i] = hash_u64((uint64_t)d[sel ? sel[i] : i]);               \
        } else {                                                                   \
            for (uint32_t i = 0; i < count; i++)                                   \
                hashes[i] = hash_combine(hashes[i], hash_u64((uint64_t)d[sel ? sel[i] : i]), false); \
        }                                                                          \
        return;                                                                    \
    }

/* Strings compared byte for byte (text, varchar, bytea, ...: not numeric,
 * bpchar or the types with their own comparison): the type tests hoisted
 * out of the per-row loops of hashing and equality (ClickBench Q5's
 * count(DISTINCT SearchPhrase) spent a fifth of its time in them). */
static inline bool str_plain(SqlType t)
{
    return !exec__str_needs_typecmp(t) && !is_numeric(t) && !is_bpchar(t);
}

static void hash_plain_strings(const Vector *v, const uint16_t *sel, uint32_t count, uint64_t *hashes,
                               bool first)
{
    const StrRef *d = v->data;
    const uint64_t *vb = exec__validity(v);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t row = sel ? sel[i] : i;
        uint64_t h = exec__bit(vb, row) ? hash_bytes(d[row].ptr, d[row].len, 0) : HASH_NULL;
        hashes[i] = hash_combine(hashes[i], h, first);
    }
}

void exec__hash_vector(const Vector *v, const uint16_t *sel, uint32_t count, uint64_t *hashes, bool first)
{
    uint32_t m = exec__mask(v);
    const uint64_t *vb = exec__validity(v);
    if (vb == NULL && m != 0) {
        switch (v->phys) {
        case PHYS_I16: HASH_INT_LOOP(int16_t)
        case PHYS_I32: HASH_INT_LOOP(int32_t)
        case PHYS_I64: HASH_INT_LOOP(int64_t)
        default: break;
        }
    }
    if (v->phys == PHYS_STR && m != 0 && str_plain(v->type)) {
        hash_plain_strings(v, sel, count, hashes, first);
        return;
    }
    const uint16_t *s = sel ? sel : exec__identity_sel;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t row = s[i] & m;
        uint64_t h;
        switch (v->phys) {
        case PHYS_BOOL: h = hash_u64(((const uint8_t *)v->data)[row]); break;
        case PHYS_I16: h = hash_u64((uint64_t)((const int16_t *)v->data)[row]); break;
        case PHYS_I32: h = hash_u64((uint64_t)((const int32_t *)v->data)[row]); break;
        case PHYS_I64: h = hash_u64((uint64_t)((const int64_t *)v->data)[row]); break;
        case PHYS_F32: h = hash_double(((const float *)v->data)[row]); break;
        case PHYS_F64: h = hash_double(((const double *)v->data)[row]); break;
        default:
            h = exec__bit(vb, row) ? hash_str(v->type, ((const StrRef *)v->data)[row]) : 0;
            break;
        }
        if (!exec__bit(vb, row))
            h = HASH_NULL;
        hashes[i] = hash_combine(hashes[i], h, first);
    }
}

uint64_t exec__hash_stored(const ExecColumn *c, uint32_t i, uint64_t hprev, bool first)
{
    uint64_t h;
    if (!exec__col_valid(c, i)) {
        h = HASH_NULL;
    } else {
        switch (c->phys) {
        case PHYS_BOOL: h = hash_u64(c->data[i]); break;
        case PHYS_I16: h = hash_u64((uint64_t)((const int16_t *)c->data)[i]); break;
        case PHYS_I32: h = hash_u64((uint64_t)((const int32_t *)c->data)[i]); break;
        case PHYS_I64: h = hash_u64((uint64_t)((const int64_t *)c->data)[i]); break;
        case PHYS_F32: h = hash_double(((const float *)c->data)[i]); break;
        case PHYS_F64: h = hash_double(((const double *)c->data)[i]); break;
        default: h = hash_str(c->type, ((const StrRef *)c->data)[i]); break;
        }
    }
    return hash_combine(hprev, h, first);
}

/* ---------- equality against stored keys ---------- */

static inline bool str_eq(SqlType t, StrRef a, StrRef b)
{
    if (exec__str_needs_typecmp(t)) {
        Value x = {.is_null = false, .u.str = a}, y = {.is_null = false, .u.str = b};
        return type_compare(t, &x, &y) == 0;
    }
    if (is_numeric(t))
        return numeric_cmp(a, b) == 0;
    uint32_t la = a.len, lb = b.len;
    if (is_bpchar(t)) {
        la = bpchar_len(a);
        lb = bpchar_len(b);
    }
    return la == lb && (la == 0 || memcmp(a.ptr, b.ptr, la) == 0);
}

static inline bool dbl_eq(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

void exec__eq_column(const Vector *v, const uint16_t *rows, const ExecColumn *c, const uint32_t *idx,
                     uint32_t n, bool nulls_equal, uint8_t *eq)
{
    uint32_t m = exec__mask(v);
    const uint64_t *vb = exec__validity(v);
    switch (v->phys) {
#define EQ_LOOP(CT, EXPR)                                                         \
    { const CT *a = v->data; const CT *b = (const CT *)c->data;                   \
      for (uint32_t i = 0; i < n; i++) { CT x = a[rows[i] & m], y = b[idx[i]];    \
          eq[i] &= (uint8_t)(EXPR); } break; }
    case PHYS_BOOL: EQ_LOOP(uint8_t, x == y)
    case PHYS_I16: EQ_LOOP(int16_t, x == y)
    case PHYS_I32: EQ_LOOP(int32_t, x == y)
    case PHYS_I64: EQ_LOOP(int64_t, x == y)
    case PHYS_F32: EQ_LOOP(float, dbl_eq(x, y))
    case PHYS_F64: EQ_LOOP(double, dbl_eq(x, y))
    case PHYS_STR: {
        const StrRef *a = v->data, *b = (const StrRef *)c->data;
        if (str_plain(v->type)) {
            for (uint32_t i = 0; i < n; i++) {
                if (!eq[i] || !exec__bit(vb, rows[i] & m) || !exec__col_valid(c, idx[i]))
                    continue;
                StrRef x = a[rows[i] & m], y = b[idx[i]];
                eq[i] = x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
            }
            break;
        }
        for (uint32_t i = 0; i < n; i++)
            if (eq[i] && exec__bit(vb, rows[i] & m) && exec__col_valid(c, idx[i]))
                eq[i] = str_eq(v->type, a[rows[i] & m], b[idx[i]]);
        break;
    }
#undef EQ_LOOP
    }
    if (v->validity == NULL && !c->has_null)
        return;
    for (uint32_t i = 0; i < n; i++) {
        bool va = exec__bit(vb, rows[i] & m), vc = exec__col_valid(c, idx[i]);
        /* both NULL: equal only when grouping; one NULL: never equal */
        bool both_null = !va && !vc;
        eq[i] = (uint8_t)((va && vc && eq[i]) || (both_null && nulls_equal));
    }
}

void exec__vec_const_null(Vector *v, SqlType type, MemArena *arena)
{
    vec_init(v, type, arena);
    v->is_const = true;
    memset(v->data, 0, phys_size(v->phys));
    memset(v->validity_buf, 0, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
    v->validity = v->validity_buf;
}

void exec__col_get(const ExecColumn *c, uint32_t i, Value *out)
{
    out->is_null = !exec__col_valid(c, i);
    if (out->is_null)
        return;
    switch (c->phys) {
    case PHYS_BOOL: out->u.b = c->data[i] != 0; break;
    case PHYS_I16: out->u.i16 = ((const int16_t *)c->data)[i]; break;
    case PHYS_I32: out->u.i32 = ((const int32_t *)c->data)[i]; break;
    case PHYS_I64: out->u.i64 = ((const int64_t *)c->data)[i]; break;
    case PHYS_F32: out->u.f32 = ((const float *)c->data)[i]; break;
    case PHYS_F64: out->u.f64 = ((const double *)c->data)[i]; break;
    case PHYS_STR: out->u.str = ((const StrRef *)c->data)[i]; break;
    }
}

/* This column's differences for rows [from, to) (to - from <= VEC_CAPACITY) into t[i - from]. */
static void adjacent_chunk(const ExecColumn *c, uint32_t from, uint32_t to, uint8_t *t)
{
#define ADJ_LOOP(CT, NE)                                                          \
    { const CT *d = (const CT *)c->data;                                          \
      for (uint32_t i = from; i < to; i++) { CT x = d[i - 1], y = d[i];           \
          t[i - from] = (uint8_t)(NE); } break; }
    switch (c->phys) {
    case PHYS_BOOL: ADJ_LOOP(uint8_t, x != y)
    case PHYS_I16: ADJ_LOOP(int16_t, x != y)
    case PHYS_I32: ADJ_LOOP(int32_t, x != y)
    case PHYS_I64: ADJ_LOOP(int64_t, x != y)
    case PHYS_F32: ADJ_LOOP(float, !dbl_eq(x, y))
    case PHYS_F64: ADJ_LOOP(double, !dbl_eq(x, y))
    case PHYS_STR: {
        const StrRef *d = (const StrRef *)c->data;
        for (uint32_t i = from; i < to; i++)
            t[i - from] = exec__col_valid(c, i) && exec__col_valid(c, i - 1) && !str_eq(c->type, d[i - 1], d[i]);
        break;
    }
    }
#undef ADJ_LOOP
    if (!c->has_null)
        return;
    for (uint32_t i = from; i < to; i++) {
        bool a = exec__col_valid(c, i - 1), b = exec__col_valid(c, i);
        t[i - from] = (uint8_t)((a && b) ? t[i - from] : a != b);   /* NULLs equal each other */
    }
}

void exec__col_adjacent_diff(const ExecColumn *c, uint32_t from, uint32_t to, uint8_t *diff)
{
    uint8_t t[VEC_CAPACITY];
    if (from == 0)
        from = 1;
    for (uint32_t lo = from; lo < to; lo += VEC_CAPACITY) {
        uint32_t hi = to - lo < VEC_CAPACITY ? to : lo + VEC_CAPACITY;
        adjacent_chunk(c, lo, hi, t);
        for (uint32_t i = lo; i < hi; i++)
            diff[i] |= t[i - lo];
    }
}

void exec__col_compact(ExecColumn *c, const uint32_t *idx, uint32_t n)
{
    bool has_null = false;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = idx[j];
        ERR_ASSERT(i >= j);
        memcpy(c->data + (size_t)j * c->elem, c->data + (size_t)i * c->elem, c->elem);
        uint64_t valid = exec__bit(c->validity, i);
        uint64_t m = UINT64_C(1) << (j & 63);
        c->validity[j >> 6] = (c->validity[j >> 6] & ~m) | (valid << (j & 63));
        has_null |= !valid;
    }
    /* clear the bits past the new end so later appends OR into zeros */
    for (uint32_t j = n; j < c->count; j++)
        c->validity[j >> 6] &= ~(UINT64_C(1) << (j & 63));
    c->count = n;
    c->has_null = has_null;
}
