/*
 * filter_kernels.c — `column op constant` over an integer-like column, and
 * `text = ''` / `text <> ''`, straight to a selection vector (issue 7), for
 * scan filters that are (or start with) one such comparison (ClickBench's
 * `AdvEngineID <> 0`, `UserID = k`, `SearchPhrase <> ''`).
 *
 * The general path evaluates the comparison kernel into a boolean vector,
 * then turns it into a selection (exec__select_true) one row at a time —
 * 2048 stores per batch whatever the selectivity. Here each 64 rows are
 * compared into 64 bytes (a plain loop the vectoriser takes), packed into
 * a 64-bit mask eight bytes at a time by one multiplication, ANDed with
 * the validity word (a NULL never passes a comparison), and only the set
 * bits are written out: work proportional to the rows that pass.
 *
 * Vectorisation (gcc 12 -O3 -fopt-info-vec-optimized): the compare loop of
 * all 18 instances reports "loop vectorized using 32 byte vectors" in the
 * avx2 clone; the default (SSE2) clone vectorises the int16 and int32 ones
 * with 16 byte vectors (SSE2 has no 64-bit compare).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/error.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(STRATA_NO_TARGET_CLONES)
#define FILTER_KERNEL __attribute__((target_clones("default", "avx2")))
#else
#define FILTER_KERNEL __attribute__((noinline))
#endif

/* Bytes b[0..8) each 0 or 1 → bits 0..7 (every partial product lands on
 * its own bit, so nothing carries into the top byte). */
/* Append the row numbers base + i of the set bits i of one 64-row word
 * to sel[k..]; returns the new k. A full word (every row passes, common
 * for `x <> 0`) is 64 consecutive numbers written by a loop the compiler
 * vectorises, instead of 64 trips through the bit loop. */
static inline uint32_t fk_emit(uint16_t *restrict sel, uint32_t k, uint32_t base, uint64_t bits)
{
    if (bits == ~UINT64_C(0)) {
        for (uint32_t q = 0; q < 64; q++)
            sel[k + q] = (uint16_t)(base + q);
        return k + 64;
    }
    while (bits) {
        sel[k++] = (uint16_t)(base + (uint32_t)__builtin_ctzll(bits));
        bits &= bits - 1;
    }
    return k;
}

static inline uint64_t pack8(const uint8_t *b)
{
    uint64_t x;
    memcpy(&x, b, 8);
    return (x * UINT64_C(0x0102040810204080)) >> 56;
}

#define FK_DEFINE(NAME, T, OP)                                                                  \
    static FILTER_KERNEL uint32_t NAME(const T *restrict d, T c, uint32_t n,                     \
                                       const uint64_t *restrict vb, uint16_t *restrict sel)      \
    {                                                                                            \
        uint32_t k = 0;                                                                          \
        uint8_t t[64];                                                                           \
        for (uint32_t base = 0; base < n; base += 64) {                                          \
            uint32_t m = n - base < 64 ? n - base : 64;                                          \
            uint64_t bits = 0;                                                                   \
            if (m == 64) {                                                                       \
                const T *restrict p = d + base;                                                  \
                for (uint32_t j = 0; j < 64; j++)                                                \
                    t[j] = (uint8_t)(p[j] OP c);                                                 \
                for (uint32_t q = 0; q < 8; q++)                                                 \
                    bits |= pack8(t + 8 * q) << (8 * q);                                         \
            } else {                                                                             \
                for (uint32_t j = 0; j < m; j++)                                                 \
                    bits |= (uint64_t)(d[base + j] OP c) << j;                                   \
            }                                                                                    \
            if (vb)                                                                              \
                bits &= vb[base / 64];                                                           \
            k = fk_emit(sel, k, base, bits);                                                     \
        }                                                                                        \
        return k;                                                                                \
    }

#define FK_TYPE(SUFFIX, T)                      \
    FK_DEFINE(fk_eq_##SUFFIX, T, ==)            \
    FK_DEFINE(fk_ne_##SUFFIX, T, !=)            \
    FK_DEFINE(fk_lt_##SUFFIX, T, <)             \
    FK_DEFINE(fk_le_##SUFFIX, T, <=)            \
    FK_DEFINE(fk_gt_##SUFFIX, T, >)             \
    FK_DEFINE(fk_ge_##SUFFIX, T, >=)

FK_TYPE(i16, int16_t)
FK_TYPE(i32, int32_t)
FK_TYPE(i64, int64_t)

#if defined(__x86_64__) && defined(__GNUC__) && !defined(STRATA_NO_TARGET_CLONES)
#include <immintrin.h>
/*
 * AVX2 versions with explicit compares and movemask: the auto-vectorised
 * byte array + multiply pack above spends most of its time narrowing lanes
 * to bytes. A microbenchmark (2048 rows, gcc 12 -O3, 3 runs on the shared
 * machine) gave int16 `=`: 197–537 ns per batch auto-vectorised, 50–63 ns
 * here; int64: 364–689 vs 231–496 ns. Three base comparisons per type
 * (=, >, <); <>, <=, >= invert the mask (inv = all ones), before the
 * validity word is applied. The last partial 64-row word is scalar.
 */
/* Two passes: the compare masks of the whole batch into words[] first,
 * then the row numbers — unless every row passed (`x <> 0` nearly always
 * does), when the caller needs no selection at all and none is written
 * (count(*) WHERE x <> 0 over 50M in-memory rows: 2.3× → see
 * executor/README.md "Figures"). */
#define FK_AVX2_DEFINE(NAME, T, STEP, MASK, SCALAR)                                           \
    static __attribute__((target("avx2"))) uint32_t NAME(const T *restrict d, T c, uint32_t n, \
                                                         const uint64_t *restrict vb,         \
                                                         uint16_t *restrict sel, uint64_t inv) \
    {                                                                                          \
        uint64_t words[VEC_CAPACITY / 64], all = ~UINT64_C(0);                                 \
        uint32_t full = n & ~63u, nw = (n + 63) / 64;                                          \
        for (uint32_t base = 0; base < full; base += 64) {                                     \
            uint64_t bits = 0;                                                                 \
            const T *p = d + base;                                                             \
            for (uint32_t j = 0; j < 64; j += STEP)                                            \
                bits |= (uint64_t)(MASK) << j;                                                 \
            bits ^= inv;                                                                       \
            if (vb)                                                                            \
                bits &= vb[base / 64];                                                         \
            words[base / 64] = bits;                                                           \
            all &= bits;                                                                       \
        }                                                                                      \
        if (full < n) {                                                                        \
            uint64_t bits = 0, live = (UINT64_C(1) << (n - full)) - 1;                         \
            for (uint32_t j = 0; j < n - full; j++) {                                          \
                T x = d[full + j];                                                             \
                bits |= (uint64_t)(SCALAR) << j;                                               \
            }                                                                                  \
            bits ^= inv & live;                                                                \
            if (vb)                                                                            \
                bits &= vb[full / 64];                                                         \
            words[full / 64] = bits;                                                           \
            all &= bits | ~live;                                                               \
        }                                                                                      \
        if (all == ~UINT64_C(0))                                                               \
            return n;                                                                          \
        uint32_t k = 0;                                                                        \
        for (uint32_t w = 0; w < nw; w++)                                                      \
            k = fk_emit(sel, k, w * 64, words[w]);                                             \
        return k;                                                                              \
    }

#define LD(OFF) _mm256_loadu_si256((const __m256i *)(p + j + (OFF)))
#define M64(V) (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(V))
#define M32(V) (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(V))
/* two vectors of 16 int16 lanes → 32 mask bits, in row order */
#define M16(A, B) (uint32_t)_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(A, B), 0xd8))
#define CV64 _mm256_set1_epi64x(c)
#define CV32 _mm256_set1_epi32(c)
#define CV16 _mm256_set1_epi16(c)

FK_AVX2_DEFINE(fx_eq_i64, int64_t, 4, M64(_mm256_cmpeq_epi64(LD(0), CV64)), x == c)
FK_AVX2_DEFINE(fx_gt_i64, int64_t, 4, M64(_mm256_cmpgt_epi64(LD(0), CV64)), x > c)
FK_AVX2_DEFINE(fx_lt_i64, int64_t, 4, M64(_mm256_cmpgt_epi64(CV64, LD(0))), x < c)
FK_AVX2_DEFINE(fx_eq_i32, int32_t, 8, M32(_mm256_cmpeq_epi32(LD(0), CV32)), x == c)
FK_AVX2_DEFINE(fx_gt_i32, int32_t, 8, M32(_mm256_cmpgt_epi32(LD(0), CV32)), x > c)
FK_AVX2_DEFINE(fx_lt_i32, int32_t, 8, M32(_mm256_cmpgt_epi32(CV32, LD(0))), x < c)
FK_AVX2_DEFINE(fx_eq_i16, int16_t, 32, M16(_mm256_cmpeq_epi16(LD(0), CV16), _mm256_cmpeq_epi16(LD(16), CV16)), x == c)
FK_AVX2_DEFINE(fx_gt_i16, int16_t, 32, M16(_mm256_cmpgt_epi16(LD(0), CV16), _mm256_cmpgt_epi16(LD(16), CV16)), x > c)
FK_AVX2_DEFINE(fx_lt_i16, int16_t, 32, M16(_mm256_cmpgt_epi16(CV16, LD(0)), _mm256_cmpgt_epi16(CV16, LD(16))), x < c)

#define FX_DISPATCH(SUFFIX, T)                                                        \
    {                                                                                 \
        const T *d = v->data;                                                         \
        T c = (T)f->value;                                                            \
        switch (f->op) {                                                              \
        case EXEC_CMP_EQ: return fx_eq_##SUFFIX(d, c, n, vb, sel, 0);                 \
        case EXEC_CMP_NE: return fx_eq_##SUFFIX(d, c, n, vb, sel, ~UINT64_C(0));      \
        case EXEC_CMP_GT: return fx_gt_##SUFFIX(d, c, n, vb, sel, 0);                 \
        case EXEC_CMP_LE: return fx_gt_##SUFFIX(d, c, n, vb, sel, ~UINT64_C(0));      \
        case EXEC_CMP_LT: return fx_lt_##SUFFIX(d, c, n, vb, sel, 0);                 \
        case EXEC_CMP_GE: return fx_lt_##SUFFIX(d, c, n, vb, sel, ~UINT64_C(0));      \
        }                                                                             \
        break;                                                                        \
    }

static uint32_t fx_select(const ExecCmpFilter *f, const Vector *v, uint32_t n, const uint64_t *vb,
                          uint16_t *sel)
{
    switch (f->phys) {
    case PHYS_I16: FX_DISPATCH(i16, int16_t)
    case PHYS_I32: FX_DISPATCH(i32, int32_t)
    case PHYS_I64: FX_DISPATCH(i64, int64_t)
    default: break;
    }
    ERR_ASSERT(false);
    return 0;
}
#define FK_HAVE_AVX2() __builtin_cpu_supports("avx2")
#else
#define FK_HAVE_AVX2() 0
#define fx_select(f, v, n, vb, sel) 0
#endif

bool exec__cmp_filter_portable;

/*
 * EXPLAIN ANALYZE (issue 7). A target_clones function is resolved once by
 * an ifunc that picks the avx2 clone when the CPU has AVX2 — the same
 * question asked here once at startup, so the "Kernels:" line names the
 * clone that really runs (never a hard-coded name).
 */
uint64_t exec__kern_clone;

/* Also: STRATA_PORTABLE_FILTERS=1 in the server's environment turns the
 * explicit AVX2 filter kernels off (on/off measurements; the EXPLAIN
 * ANALYZE test checks that the Kernels line then names the other path). */
__attribute__((constructor)) static void kern_clone_init(void)
{
    const char *env = getenv("STRATA_PORTABLE_FILTERS");
    if (env != NULL && strcmp(env, "1") == 0)
        exec__cmp_filter_portable = true;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(STRATA_NO_TARGET_CLONES)
    __builtin_cpu_init();
    exec__kern_clone = __builtin_cpu_supports("avx2") ? PLAN_KERN(PLAN_KERN_CLONE_AVX2)
                                                      : PLAN_KERN(PLAN_KERN_CLONE_DEFAULT);
#endif
}

uint64_t exec__cmp_filter_kernels(const ExecCmpFilter *f)
{
    static const PlanKernel ops[] = {PLAN_KERN_CMP_EQ, PLAN_KERN_CMP_NE, PLAN_KERN_CMP_LT,
                                     PLAN_KERN_CMP_LE, PLAN_KERN_CMP_GT, PLAN_KERN_CMP_GE};
    uint64_t k = PLAN_KERN(ops[f->op]);
    switch (f->phys) {
    case PHYS_STR: return k | PLAN_KERN(PLAN_KERN_FILTER_LENGTH) | PLAN_KERN(PLAN_KERN_CMP_TEXT);
    case PHYS_I16: k |= PLAN_KERN(PLAN_KERN_CMP_I16); break;
    case PHYS_I32: k |= PLAN_KERN(PLAN_KERN_CMP_I32); break;
    default: k |= PLAN_KERN(PLAN_KERN_CMP_I64); break;
    }
    /* the dispatch of exec__cmp_filter_select below */
    if (!exec__cmp_filter_portable && FK_HAVE_AVX2())
        return k | PLAN_KERN(PLAN_KERN_FILTER_AVX2);
    return k | PLAN_KERN(PLAN_KERN_FILTER_PACKED) | exec__kern_clone;
}

/* `text = ''` / `text <> ''` (inv = all ones): a length test per row, the
 * StrRefs' 16-byte stride read once, no string compared. */
static uint32_t fk_str_empty(const StrRef *restrict d, uint32_t n, const uint64_t *restrict vb,
                             uint16_t *restrict sel, uint64_t inv)
{
    uint32_t k = 0;
    for (uint32_t base = 0; base < n; base += 64) {
        uint32_t m = n - base < 64 ? n - base : 64;
        uint64_t bits = 0;
        for (uint32_t j = 0; j < m; j++)
            bits |= (uint64_t)(d[base + j].len == 0) << j;
        bits ^= m == 64 ? inv : inv & ((UINT64_C(1) << m) - 1);
        if (vb)
            bits &= vb[base / 64];
        k = fk_emit(sel, k, base, bits);
    }
    return k;
}

#define FK_DISPATCH(SUFFIX, T)                                                        \
    {                                                                                 \
        const T *d = v->data;                                                         \
        T c = (T)f->value;                                                            \
        switch (f->op) {                                                              \
        case EXEC_CMP_EQ: return fk_eq_##SUFFIX(d, c, n, vb, sel);                    \
        case EXEC_CMP_NE: return fk_ne_##SUFFIX(d, c, n, vb, sel);                    \
        case EXEC_CMP_LT: return fk_lt_##SUFFIX(d, c, n, vb, sel);                    \
        case EXEC_CMP_LE: return fk_le_##SUFFIX(d, c, n, vb, sel);                    \
        case EXEC_CMP_GT: return fk_gt_##SUFFIX(d, c, n, vb, sel);                    \
        case EXEC_CMP_GE: return fk_ge_##SUFFIX(d, c, n, vb, sel);                    \
        }                                                                             \
        break;                                                                        \
    }

uint32_t exec__cmp_filter_select(const ExecCmpFilter *f, const Batch *b, uint16_t *sel)
{
    const Vector *v = &b->cols[f->column];
    uint32_t n = b->count;
    ERR_ASSERT(b->sel == NULL && !v->is_const && v->phys == f->phys);
    const uint64_t *vb = v->validity;
    if (f->phys == PHYS_STR)
        return fk_str_empty(v->data, n, vb, sel, f->op == EXEC_CMP_NE ? ~UINT64_C(0) : 0);
    if (!exec__cmp_filter_portable && FK_HAVE_AVX2())
        return fx_select(f, v, n, vb, sel);
    switch (f->phys) {
    case PHYS_I16: FK_DISPATCH(i16, int16_t)
    case PHYS_I32: FK_DISPATCH(i32, int32_t)
    case PHYS_I64: FK_DISPATCH(i64, int64_t)
    default: break;
    }
    ERR_ASSERT(false);
    return 0;
}

/* The types whose comparison operators (same type on both sides, or any two
 * of int2/int4/int8) compare the stored integers. */
static bool int_compared(uint32_t oid)
{
    return oid == TYPE_INT2 || oid == TYPE_INT4 || oid == TYPE_INT8;
}

static bool same_compared(uint32_t oid)
{
    return oid == TYPE_DATE || oid == TYPE_TIMESTAMP || oid == TYPE_TIMESTAMPTZ || oid == TYPE_TIME;
}

static bool text_like(uint32_t oid)
{
    return oid == TYPE_TEXT || oid == TYPE_VARCHAR;   /* not bpchar: '' = '  ' there */
}

bool exec__cmp_filter_init(SqlType col_type, ExecCmpOp op, SqlType const_type, const Value *v,
                           int column, ExecCmpFilter *f)
{
    if (v->is_null)
        return false;
    if (text_like(col_type.oid) && text_like(const_type.oid)) {
        /* text equality is bytewise (deterministic collations only): = '' is len == 0 */
        if ((op != EXEC_CMP_EQ && op != EXEC_CMP_NE) || v->u.str.len != 0)
            return false;
        *f = (ExecCmpFilter){.column = column, .op = op, .phys = PHYS_STR, .value = 0};
        return true;
    }
    bool ints = int_compared(col_type.oid) && int_compared(const_type.oid);
    if (!ints && !(same_compared(col_type.oid) && col_type.oid == const_type.oid))
        return false;
    PhysType cp = type_phys(col_type), kp = type_phys(const_type);
    int64_t x;
    switch (kp) {
    case PHYS_I16: x = v->u.i16; break;
    case PHYS_I32: x = v->u.i32; break;
    case PHYS_I64: x = v->u.i64; break;
    default: return false;
    }
    /* a constant outside the column's range: leave it to the general path */
    int64_t lo = cp == PHYS_I16 ? INT16_MIN : cp == PHYS_I32 ? INT32_MIN : INT64_MIN;
    int64_t hi = cp == PHYS_I16 ? INT16_MAX : cp == PHYS_I32 ? INT32_MAX : INT64_MAX;
    if ((cp != PHYS_I16 && cp != PHYS_I32 && cp != PHYS_I64) || x < lo || x > hi)
        return false;
    *f = (ExecCmpFilter){.column = column, .op = op, .phys = cp, .value = x};
    return true;
}
