/*
 * agg_onegroup.c — aggregation without GROUP BY: the paths that fold rows
 * into the one group without the group table or the scatter loops of
 * op_agg.c.
 *
 * Two of them, both chosen per batch (or per row group) and falling back
 * to op_agg.c's general loop when they do not apply: register-resident
 * kernels over a batch's argument vector (exec__agg_update_single, called
 * by exec__agg_slot_update; sums, counts, min/max), and folding a row
 * group's summary from storage — its row count and zone maps — instead of
 * its rows (exec__agg_summary_link; count/min/max). Split from op_agg.c to
 * keep that file the operator itself; the code is as it was there. The
 * kernels are out of line on purpose (AGG_KERNEL, below), so the one call
 * per batch into this file costs what the calls into the kernels already
 * cost.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/agg_int.h"

#include "common/error.h"

/* Kernels called once per batch; see "one group" below for why out of
 * line. On x86-64 each is also built for AVX2 and the loader picks the
 * clone once per process (as KERNEL_DISPATCH in kernels_template.h):
 * SSE2 has no sign extension of int32 to int64 lanes (pmovsxdq is
 * SSE4.1), which left single_sum_i32 at 48% of Q29's profile. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(STRATA_NO_TARGET_CLONES)
#define AGG_KERNEL __attribute__((target_clones("default", "avx2")))   /* never inlined (ifunc) */
#else
#define AGG_KERNEL __attribute__((noinline))
#endif

/*
 * Exact sum of int64 values in registers, for the one-group case (no GROUP
 * BY): x = hi * 2^32 + lo with lo = x mod 2^32 and hi taken as a logical
 * shift corrected by the count of negative values, so three plain uint64
 * accumulators hold the exact int128 sum of up to 2^31 rows. Only logical
 * shifts, masks and adds: both the dense loop and the selection-vector
 * loop vectorise with SSE2 (gcc 12 -O3 -fopt-info-vec: "loop vectorized
 * using 16 byte vectors"; the selected rows are loaded one by one, then
 * added two per instruction), and the sums stay in registers instead of a
 * store per row.
 *
 * EXPLAIN ANALYZE: the split loops set sum_i64_split (the caller reads and
 * clears it per batch). A flag, not a parameter: a pointer kept live
 * through the loops cost 35 more instructions per call (register spills;
 * callgrind, bench_agg at 2M rows).
 */
static _Thread_local bool sum_i64_split;

static AGG_KERNEL int128_t sum_i64_exact(const int64_t *restrict d, const uint16_t *restrict rows, uint32_t n,
                              const uint64_t *vb, int64_t *count)
{
    uint64_t lo = 0, hi = 0, neg = 0, cnt = 0;
    if (vb == NULL && rows == NULL) {
        /* Common case first: every value in [-2^51, 2^51), so n <= 2^12 of
         * them sum exactly in an int64. t = x + 2^51 is below 2^52 exactly
         * then, and so is the OR of all t: one add, one add and one OR per
         * value (half the split loop's work), checked once at the end. */
        const uint64_t bias = UINT64_C(1) << 51;
        uint64_t tsum = 0, tor = 0;
        if (n <= 4096) {
            for (uint32_t i = 0; i < n; i++) {
                uint64_t t = (uint64_t)d[i] + bias;
                tsum += t;
                tor |= t;
            }
            if (tor >> 52 == 0) {
                *count = n;
                return (int128_t)(int64_t)(tsum - bias * n);
            }
        }
        for (uint32_t i = 0; i < n; i++) {
            uint64_t x = (uint64_t)d[i];
            lo += x & 0xFFFFFFFFu;
            hi += x >> 32;
            neg += x >> 63;
        }
        cnt = n;
    } else if (vb == NULL) {
        for (uint32_t i = 0; i < n; i++) {
            uint64_t x = (uint64_t)d[rows[i]];
            lo += x & 0xFFFFFFFFu;
            hi += x >> 32;
            neg += x >> 63;
        }
        cnt = n;
    } else {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = rows ? rows[i] : i;
            uint64_t ok = (vb[r >> 6] >> (r & 63)) & 1;
            uint64_t x = (uint64_t)d[r] & (0 - ok);
            lo += x & 0xFFFFFFFFu;
            hi += x >> 32;
            neg += x >> 63;
            cnt += ok;
        }
    }
    *count = (int64_t)cnt;
    sum_i64_split = true;
    int128_t h = (int128_t)hi - ((int128_t)neg << 32);
    return h * ((int128_t)1 << 32) + (int128_t)lo;
}

/* ---------- one group (no GROUP BY): register-resident kernels ----------
 *
 * Without GROUP BY every row folds into group 0, and the scatter loops
 * of op_agg.c become `acc[0] += x` with a store and a reload per row: a chain
 * through memory (store-to-load forwarding, ~5 cycles a row) that made
 * upd_sum_int 82% of ClickBench Q29's profile. These kernels keep the
 * state in registers for the whole batch and merge it once. Dense input
 * without NULLs is a plain counted loop; with a validity bitmap, words of
 * 64 valid rows take the same loop and other words a masked one; input
 * under a selection loads through it. Integer sums and min/max vectorise
 * (gcc 12 -O3 -fopt-info-vec: "loop vectorized using 16 byte vectors" for
 * each dense and masked loop of SINGLE_INT, and for the dense min/max
 * loops); float sums keep PostgreSQL's order of additions (row order), so
 * they stay scalar but lose the memory round trip.
 *
 * AGG_KERNEL keeps each kernel out of line: inlined into
 * exec__agg_slot_update, gcc 12 vectorised none of these loops (the
 * caller's stores through the slot may alias the data, it reported
 * "vectorized 0 loops in function"); out of line, with its restrict
 * parameters, each one does. One call per batch costs nothing.
 */

/* Valid (non-NULL) rows among `rows` (NULL = dense 0..n). */
static AGG_KERNEL int64_t single_count(const uint16_t *restrict rows, uint32_t n, const uint64_t *restrict vb)
{
    if (vb == NULL)
        return n;
    int64_t c = 0;
    if (rows == NULL) {
        uint32_t w = 0;
        for (; (w + 1) * 64 <= n; w++)
            c += __builtin_popcountll(vb[w]);
        if (w * 64 < n)
            c += __builtin_popcountll(vb[w] & ((UINT64_C(1) << (n - w * 64)) - 1));
        return c;
    }
    for (uint32_t i = 0; i < n; i++)
        c += (int64_t)exec__bit(vb, rows[i]);
    return c;
}

/* Sum of the valid values of a batch of int16/int32 in an accumulator AT
 * that cannot overflow over VEC_CAPACITY = 2048 rows: int32 for int16
 * (|sum| <= 2^11 * 2^15 = 2^26; 16 lanes a vector, where an int64 sum
 * spent its time widening: 4 vpmovsxdq per 16 values, 63% of Q29), int64
 * for int32; *cnt gets how many. */
#define SINGLE_SUM_INT(NAME, CT, AT)                                                          \
    static AGG_KERNEL int64_t NAME(const CT *restrict d, const uint16_t *restrict rows, uint32_t n,   \
                        const uint64_t *restrict vb, int64_t *cnt)                         \
    {                                                                                      \
        AT acc = 0;                                                                        \
        if (rows == NULL && vb == NULL) {                                                  \
            for (uint32_t i = 0; i < n; i++)                                               \
                acc += d[i];                                                               \
        } else if (rows == NULL) {                                                         \
            for (uint32_t lo = 0; lo < n; lo += 64) {                                      \
                uint32_t cnt64 = n - lo < 64 ? n - lo : 64;                                \
                uint64_t bits = vb[lo >> 6];                                               \
                if (cnt64 == 64 && bits == UINT64_MAX) {                                   \
                    for (uint32_t i = lo; i < lo + 64; i++)                                \
                        acc += d[i];                                                       \
                } else {                                                                   \
                    for (uint32_t i = 0; i < cnt64; i++)                                   \
                        acc += (AT)d[lo + i] & -(AT)((bits >> i) & 1);                     \
                }                                                                          \
            }                                                                              \
        } else if (vb == NULL) {                                                           \
            for (uint32_t i = 0; i < n; i++)                                               \
                acc += d[rows[i]];                                                         \
        } else {                                                                           \
            for (uint32_t i = 0; i < n; i++) {                                             \
                uint32_t r = rows[i];                                                      \
                acc += (AT)d[r] & -(AT)exec__bit(vb, r);                                   \
            }                                                                              \
        }                                                                                  \
        *cnt = single_count(rows, n, vb);                                                  \
        return (int64_t)acc;                                                               \
    }
_Static_assert(VEC_CAPACITY <= 65536, "int16 batch sums must fit int32");
SINGLE_SUM_INT(single_sum_i16, int16_t, int32_t)
SINGLE_SUM_INT(single_sum_i32, int32_t, int64_t)

/* min or max of the valid values of an integer batch; *cnt gets how many
 * (the result means nothing when it is 0). MIN_ selects the direction at
 * compile time so each loop is a plain vectorisable reduction. */
#define SINGLE_MINMAX(NAME, CT, INIT, BETTER)                                             \
    static AGG_KERNEL CT NAME(const CT *restrict d, const uint16_t *restrict rows, uint32_t n,        \
                   const uint64_t *restrict vb, int64_t *cnt)                              \
    {                                                                                      \
        CT best = INIT;                                                                    \
        if (rows == NULL && vb == NULL) {                                                  \
            for (uint32_t i = 0; i < n; i++)                                               \
                best = BETTER(d[i], best) ? d[i] : best;                                   \
        } else {                                                                           \
            for (uint32_t i = 0; i < n; i++) {                                             \
                uint32_t r = rows ? rows[i] : i;                                           \
                CT x = d[r];                                                               \
                bool take = (vb == NULL || exec__bit(vb, r)) && BETTER(x, best);           \
                best = take ? x : best;                                                    \
            }                                                                              \
        }                                                                                  \
        *cnt = single_count(rows, n, vb);                                                  \
        return best;                                                                       \
    }
#define LT_(a, b) ((a) < (b))
#define GT_(a, b) ((a) > (b))
SINGLE_MINMAX(single_min_i16, int16_t, INT16_MAX, LT_)
SINGLE_MINMAX(single_max_i16, int16_t, INT16_MIN, GT_)
SINGLE_MINMAX(single_min_i32, int32_t, INT32_MAX, LT_)
SINGLE_MINMAX(single_max_i32, int32_t, INT32_MIN, GT_)
SINGLE_MINMAX(single_min_i64, int64_t, INT64_MAX, LT_)
SINGLE_MINMAX(single_max_i64, int64_t, INT64_MIN, GT_)

/* Float sums in row order, accumulator in a register (same additions in
 * the same order as the grouped loop, so the same bits). */
#define SINGLE_SUM_FLT(NAME, CT, AT)                                                      \
    static AGG_KERNEL AT NAME(const CT *restrict d, const uint16_t *restrict rows, uint32_t n,        \
                   const uint64_t *restrict vb, AT acc)                                    \
    {                                                                                      \
        for (uint32_t i = 0; i < n; i++) {                                                 \
            uint32_t r = rows ? rows[i] : i;                                               \
            if (vb == NULL || exec__bit(vb, r))                                            \
                acc += (AT)d[r];                                                           \
        }                                                                                  \
        return acc;                                                                        \
    }
SINGLE_SUM_FLT(single_sum_f32, float, float)
SINGLE_SUM_FLT(single_sum_f32d, float, double)
SINGLE_SUM_FLT(single_sum_f64, double, double)

/* Merge a batch's min/max into group 0 (cnt = valid values in the batch). */
#define MM_MERGE(CT, X, C)                                                                \
    {                                                                                      \
        CT *acc_ = (CT *)s->mm;                                                            \
        if ((C) > 0 && (s->cnt[0] == 0 || (is_min ? (X) < acc_[0] : (X) > acc_[0])))       \
            acc_[0] = (X);                                                                 \
        s->cnt[0] += (C);                                                                  \
    }

static bool single_minmax(AggSlot *s, const Vector *v, const uint16_t *rows, uint32_t n, const uint64_t *vb)
{
    bool is_min = s->kind == AGG_MIN;
    int64_t c;
    switch (s->arg_phys) {
    case PHYS_I16: {
        int16_t x = is_min ? single_min_i16(v->data, rows, n, vb, &c) : single_max_i16(v->data, rows, n, vb, &c);
        MM_MERGE(int16_t, x, c)
        return true;
    }
    case PHYS_I32: {
        int32_t x = is_min ? single_min_i32(v->data, rows, n, vb, &c) : single_max_i32(v->data, rows, n, vb, &c);
        MM_MERGE(int32_t, x, c)
        return true;
    }
    case PHYS_I64: {
        int64_t x = is_min ? single_min_i64(v->data, rows, n, vb, &c) : single_max_i64(v->data, rows, n, vb, &c);
        MM_MERGE(int64_t, x, c)
        return true;
    }
    default: return false;
    }
}

static bool single_sum(AggSlot *s, const Vector *v, const uint16_t *rows, uint32_t n, const uint64_t *vb)
{
    int64_t c = 0, sum;
    switch (s->sk) {
    case AS_SUM_I64: case AS_SUM_I128:
        if (s->arg_phys == PHYS_I16)
            sum = single_sum_i16(v->data, rows, n, vb, &c);
        else if (s->arg_phys == PHYS_I32)
            sum = single_sum_i32(v->data, rows, n, vb, &c);
        else if (s->sk == AS_SUM_I128 && s->arg_phys == PHYS_I64) {
            s->i128[0] += sum_i64_exact(v->data, rows, n, vb, &c);
            *s->kern |= PLAN_KERN(sum_i64_split ? PLAN_KERN_AGG_SUM64_EXACT : PLAN_KERN_AGG_SUM64_FAST);
            sum_i64_split = false;
            s->cnt[0] += c;
            return true;
        } else
            return false;
        if (s->sk == AS_SUM_I64)   /* int8 result: wraps like the grouped loop */
            s->i64[0] = (int64_t)((uint64_t)s->i64[0] + (uint64_t)sum);
        else
            s->i128[0] += sum;
        s->cnt[0] += c;
        return true;
    case AS_SUM_F32:
        s->f32[0] = single_sum_f32(v->data, rows, n, vb, s->f32[0]);
        break;
    case AS_SUM_F64:
        s->f64[0] = s->arg_phys == PHYS_F32 ? single_sum_f32d(v->data, rows, n, vb, s->f64[0])
                                            : single_sum_f64(v->data, rows, n, vb, s->f64[0]);
        break;
    default: return false;
    }
    s->cnt[0] += single_count(rows, n, vb);
    return true;
}

/* One group, flat argument, no DISTINCT: the register-resident paths.
 * False when the slot needs the general loop. */
bool exec__agg_update_single(AggSlot *s, const Vector *v, const Batch *in)
{
    if (s->dset || v == NULL || v->is_const)
        return false;
    const uint16_t *rows = in->sel;
    uint32_t n = in->count;
    const uint64_t *vb = v->validity;
    switch (s->sk) {
    case AS_COUNT:
        *s->kern |= PLAN_KERN(PLAN_KERN_AGG_REG_COUNT) | exec__kern_clone;
        s->cnt[0] += single_count(rows, n, vb);
        return true;
    case AS_SUM_I64: case AS_SUM_I128: case AS_SUM_F32: case AS_SUM_F64:
        if (!single_sum(s, v, rows, n, vb))
            return false;
        /* int8: sum_i64_exact has said which of its paths ran */
        *s->kern |= (s->sk == AS_SUM_F32 || s->sk == AS_SUM_F64 ? PLAN_KERN(PLAN_KERN_AGG_REG_FSUM)
                     : s->arg_phys == PHYS_I64 ? 0 : PLAN_KERN(PLAN_KERN_AGG_REG_SUM)) | exec__kern_clone;
        return true;
    case AS_MINMAX:
        if (!single_minmax(s, v, rows, n, vb))
            return false;
        *s->kern |= PLAN_KERN(PLAN_KERN_AGG_REG_MINMAX) | exec__kern_clone;
        return true;
    default:
        return false;
    }
}

/* ---------- aggregates from row-group metadata (issue 7) ---------- */

/* Types whose min/max order (PostgreSQL's) is the order of the integers
 * they are stored as, so a zone map's int64 bounds are their min/max. */
static bool zone_orders_like_pg(SqlType t)
{
    switch (t.oid) {
    case TYPE_INT2: case TYPE_INT4: case TYPE_INT8: case TYPE_DATE: case TYPE_TIME:
    case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
        return true;
    default:
        return false;
    }
}

static bool phys_int(PhysType p)
{
    return p == PHYS_BOOL || p == PHYS_I16 || p == PHYS_I32 || p == PHYS_I64;
}

/* Fold one row group's summary (rows visible, zone maps of the arguments'
 * columns; storage/scan_summary.c) into the single group's states. */
static void agg_fold_summary(void *ctx, uint32_t rows, const StoreColSummary *sums)
{
    AggState *st = ctx;
    *st->kern |= PLAN_KERN(PLAN_KERN_AGG_METADATA);
    for (int a = 0; a < st->naggs; a++) {
        AggSlot *s = &st->aggs[a];
        if (s->arg == NULL) {   /* count(*) */
            s->cnt[0] += rows;
            continue;
        }
        const StoreColSummary *c = &sums[s->zone_col];
        int64_t valid = (int64_t)rows - (int64_t)c->null_count;
        if (s->sk == AS_COUNT) {
            s->cnt[0] += valid;
            continue;
        }
        bool is_min = s->kind == AGG_MIN;
        int64_t x = is_min ? c->min : c->max;
        if (!c->has_value || valid <= 0)
            continue;
        switch (s->arg_phys) {
        case PHYS_I16: MM_MERGE(int16_t, (int16_t)x, valid) break;
        case PHYS_I32: MM_MERGE(int32_t, (int32_t)x, valid) break;
        case PHYS_I64: MM_MERGE(int64_t, x, valid) break;
        default: ERR_ASSERT(false);
        }
    }
}

void exec__agg_summary_link(ExecOp *op, ExecOp *scan)
{
    AggState *st = op->state;
    if (st->ngroups_keys > 0 || st->ngsets > 0 || st->naggs == 0 || scan->node->kind != PLAN_SCAN)
        return;
    int ncols = scan->node->ncols;
    bool *zone = mem_calloc(op->q->arena, (size_t)(ncols ? ncols : 1), sizeof(bool));
    for (int a = 0; a < st->naggs; a++) {
        AggSlot *s = &st->aggs[a];
        const AggCall *c = s->call;
        if (s->filter || s->norder > 0 || s->dset || s->impl || s->sum_add != 0 || c->nargs > 1)
            return;
        AggKind k = c->agg->kind;
        if (k == AGG_COUNT_STAR && s->arg == NULL)
            continue;
        const Expr *e = c->arg;
        if (e == NULL || e->kind != EXPR_COLUMN || e->index < 0 || e->index >= ncols ||
            !phys_int(type_phys(e->type)) || type_phys(e->type) != s->arg_phys)
            return;
        if (!(k == AGG_COUNT && s->sk == AS_COUNT) &&
            !((k == AGG_MIN || k == AGG_MAX) && s->sk == AS_MINMAX && s->arg_phys != PHYS_BOOL &&
              zone_orders_like_pg(e->type)))
            return;
        s->zone_col = e->index;
        zone[e->index] = true;
    }
    exec__scan_set_summary(scan, zone, agg_fold_summary, st);
}
