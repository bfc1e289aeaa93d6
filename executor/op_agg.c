/*
 * op_agg.c — hash aggregation: a pipeline sink that groups its input and,
 * once finalised, the source of the next pipeline.
 *
 * Per input batch: evaluate the grouping expressions, find or create each
 * row's group in the group table (grouptab.c, vectorised lookup), then run
 * one update loop per aggregate over (row, group) pairs. The loop is
 * chosen once per batch by the aggregate's state kind and argument type:
 *
 *   count(*) / count(x)          int64 counter
 *   sum(int2/int4)               int64 sum + count  → int8
 *   sum(int8), avg(int2/4/8)     exact int128 sum + count → numeric
 *   sum(float4)                  float4 sum; sum/avg(float8), avg(float4): float8
 *   sum/avg(numeric)             per-group numeric buffer (numeric_add)
 *   min/max                      per-group value (strings copied into a
 *                                per-group buffer grown geometrically)
 *
 * NULL arguments are skipped branch-free where the state is arithmetic
 * (add `x & -valid`). With DISTINCT, each aggregate keeps a set of
 * (group, value) pairs (another group table) and only first occurrences
 * reach the update loop. With no GROUP BY there is exactly one group, so
 * no input still yields one row (count 0, other aggregates NULL).
 *
 * The update loops scatter into per-group arrays (state[group[i]] += x),
 * which GCC does not vectorise (it reports "not vectorized: not suitable
 * for scatter store" with -fopt-info-vec-missed). Without GROUP BY the
 * state lives in registers for a batch instead (the "one group" kernels,
 * vectorised, with AVX2 clones: agg_onegroup.c), and sum(int2 + int4
 * constant) is folded to sum + constant * count (sum_add_const). State
 * arrays grow geometrically with the number of groups; nothing is
 * allocated per row except numeric sums, whose intermediate results go to
 * the batch scratch arena.
 *
 * Files: this one is the operator (states, grouped update loops, sink,
 * results, init); agg_onegroup.c the no-GROUP-BY paths (register kernels,
 * row-group summaries); agg_merge.c the parallel side (merging worker
 * states, partitioned aggregation); agg_int.h the structures they share.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/agg_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"
#include "common/numeric.h"

/* ---------- state arrays ---------- */

static void *grow(MemArena *a, void *p, size_t elem, uint32_t old_cap, uint32_t cap)
{
    if (p == NULL)
        return NULL;
    uint8_t *np = mem_realloc(a, p, elem * old_cap, elem * cap);
    memset(np + elem * old_cap, 0, elem * (cap - old_cap));
    return np;
}

static void slot_alloc(AggSlot *s, MemArena *a, uint32_t cap)
{
    s->cnt = mem_calloc(a, cap, sizeof(int64_t));
    if (s->impl)
        s->gstate = mem_calloc(a, cap, s->impl->state_size ? s->impl->state_size : 1);
    switch (s->sk) {
    case AS_SUM_I64: s->i64 = mem_calloc(a, cap, sizeof(int64_t)); break;
    case AS_SUM_I128: s->i128 = mem_calloc(a, cap, sizeof(int128_t)); break;
    case AS_SUM_F32: s->f32 = mem_calloc(a, cap, sizeof(float)); break;
    case AS_SUM_F64: s->f64 = mem_calloc(a, cap, sizeof(double)); break;
    case AS_MINMAX: s->mm = mem_calloc(a, cap, s->elem); break;
    default: break;
    }
    if (s->sk == AS_NUMERIC || (s->sk == AS_MINMAX && s->arg_phys == PHYS_STR)) {
        s->buf = mem_calloc(a, cap, sizeof(char *));
        s->buf_len = mem_calloc(a, cap, sizeof(uint32_t));
        s->buf_cap = mem_calloc(a, cap, sizeof(uint32_t));
    }
}

void exec__agg_slot_reserve(AggSlot *s, MemArena *a, uint32_t ngroups)
{
    if (ngroups <= s->cap)
        return;
    uint32_t cap = s->cap;
    while (cap < ngroups)
        cap *= 2;
    {
        s->cnt = grow(a, s->cnt, sizeof(int64_t), s->cap, cap);
        if (s->impl)
            s->gstate = grow(a, s->gstate, s->impl->state_size ? s->impl->state_size : 1, s->cap, cap);
        s->i64 = grow(a, s->i64, sizeof(int64_t), s->cap, cap);
        s->i128 = grow(a, s->i128, sizeof(int128_t), s->cap, cap);
        s->f32 = grow(a, s->f32, sizeof(float), s->cap, cap);
        s->f64 = grow(a, s->f64, sizeof(double), s->cap, cap);
        s->mm = grow(a, s->mm, s->elem, s->cap, cap);
        s->buf = grow(a, s->buf, sizeof(char *), s->cap, cap);
        s->buf_len = grow(a, s->buf_len, sizeof(uint32_t), s->cap, cap);
        s->buf_cap = grow(a, s->buf_cap, sizeof(uint32_t), s->cap, cap);
    }
    s->cap = cap;
}

/* ---------- update loops ---------- */

static void upd_count(AggSlot *s, const Vector *v, const uint16_t *rows, const uint32_t *grp, uint32_t n)
{
    int64_t *restrict cnt = s->cnt;
    if (v == NULL || (v->validity == NULL)) {
        for (uint32_t i = 0; i < n; i++)
            cnt[grp[i]]++;
        return;
    }
    const uint64_t *vb = v->validity;
    uint32_t m = exec__mask(v);
    for (uint32_t i = 0; i < n; i++)
        cnt[grp[i]] += (int64_t)exec__bit(vb, rows[i] & m);
}

#define SUM_INT_LOOP(ACC, CT, AT)                                                  \
    {                                                                              \
        const CT *d = v->data;                                                     \
        for (uint32_t i = 0; i < n; i++) {                                         \
            uint32_t r = rows[i] & m;                                              \
            int64_t ok = (int64_t)exec__bit(vb, r);                                \
            ACC[grp[i]] += (AT)d[r] & -(AT)ok;                                     \
            cnt[grp[i]] += ok;                                                     \
        }                                                                          \
    }

static void upd_sum_int(AggSlot *s, const Vector *v, const uint16_t *rows, const uint32_t *grp, uint32_t n)
{
    const uint64_t *vb = exec__validity(v);
    uint32_t m = exec__mask(v);
    int64_t *restrict cnt = s->cnt;
    if (s->sk == AS_SUM_I64) {
        int64_t *restrict acc = s->i64;
        switch (s->arg_phys) {
        case PHYS_I16: SUM_INT_LOOP(acc, int16_t, int64_t) break;
        case PHYS_I32: SUM_INT_LOOP(acc, int32_t, int64_t) break;
        default: SUM_INT_LOOP(acc, int64_t, int64_t) break;
        }
    } else {
        int128_t *restrict acc = s->i128;
        switch (s->arg_phys) {
        case PHYS_I16: SUM_INT_LOOP(acc, int16_t, int128_t) break;
        case PHYS_I32: SUM_INT_LOOP(acc, int32_t, int128_t) break;
        default: SUM_INT_LOOP(acc, int64_t, int128_t) break;
        }
    }
}

#define SUM_FLT_LOOP(ACC, CT, AT)                                                  \
    {                                                                              \
        const CT *d = v->data;                                                     \
        for (uint32_t i = 0; i < n; i++) {                                         \
            uint32_t r = rows[i] & m;                                              \
            bool ok = exec__bit(vb, r);                                            \
            ACC[grp[i]] += ok ? (AT)d[r] : (AT)0;                                  \
            cnt[grp[i]] += ok;                                                     \
        }                                                                          \
    }

static void upd_sum_flt(AggSlot *s, const Vector *v, const uint16_t *rows, const uint32_t *grp, uint32_t n)
{
    const uint64_t *vb = exec__validity(v);
    uint32_t m = exec__mask(v);
    int64_t *restrict cnt = s->cnt;
    if (s->sk == AS_SUM_F32) {
        float *restrict acc = s->f32;
        SUM_FLT_LOOP(acc, float, float)
    } else if (s->arg_phys == PHYS_F32) {
        double *restrict acc = s->f64;
        SUM_FLT_LOOP(acc, float, double)
    } else {
        double *restrict acc = s->f64;
        SUM_FLT_LOOP(acc, double, double)
    }
}

static void upd_numeric(AggSlot *s, MemArena *qa, MemArena *scratch, const Vector *v, const uint16_t *rows,
                        const uint32_t *grp, uint32_t n)
{
    const uint64_t *vb = exec__validity(v);
    uint32_t m = exec__mask(v);
    const StrRef *d = v->data;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = rows[i] & m, g = grp[i];
        if (!exec__bit(vb, r))
            continue;
        StrRef x = s->cnt[g] ? numeric_add(buf_get(s, g), d[r], scratch) : d[r];
        buf_store(s, qa, g, x);
        s->cnt[g]++;
    }
}


int exec__agg_str_cmp(SqlType t, StrRef a, StrRef b)
{
    if (exec__str_needs_typecmp(t)) {
        Value x = {.is_null = false, .u.str = a}, y = {.is_null = false, .u.str = b};
        return type_compare(t, &x, &y);
    }
    if (t.oid == TYPE_NUMERIC)
        return numeric_cmp(a, b);
    if (t.oid == TYPE_BPCHAR) {
        while (a.len && a.ptr[a.len - 1] == ' ') a.len--;
        while (b.len && b.ptr[b.len - 1] == ' ') b.len--;
    }
    uint32_t l = a.len < b.len ? a.len : b.len;
    int c = l ? memcmp(a.ptr, b.ptr, l) : 0;
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

#define MM_LOOP(CT, LESS)                                                           \
    {                                                                               \
        const CT *d = v->data;                                                      \
        CT *acc = (CT *)s->mm;                                                      \
        for (uint32_t i = 0; i < n; i++) {                                          \
            uint32_t r = rows[i] & m, g = grp[i];                                   \
            if (!exec__bit(vb, r))                                                  \
                continue;                                                           \
            CT x = d[r];                                                            \
            if (s->cnt[g] == 0 || (is_min ? LESS(x, acc[g]) : LESS(acc[g], x)))    \
                acc[g] = x;                                                         \
            s->cnt[g]++;                                                            \
        }                                                                           \
    }
static void upd_minmax(AggSlot *s, MemArena *qa, const Vector *v, const uint16_t *rows, const uint32_t *grp,
                       uint32_t n)
{
    const uint64_t *vb = exec__validity(v);
    uint32_t m = exec__mask(v);
    bool is_min = s->kind == AGG_MIN;
    switch (s->arg_phys) {
    case PHYS_BOOL: MM_LOOP(uint8_t, PLAIN_LESS) break;
    case PHYS_I16: MM_LOOP(int16_t, PLAIN_LESS) break;
    case PHYS_I32: MM_LOOP(int32_t, PLAIN_LESS) break;
    case PHYS_I64: MM_LOOP(int64_t, PLAIN_LESS) break;
    case PHYS_F32: MM_LOOP(float, flt_less) break;
    case PHYS_F64: MM_LOOP(double, flt_less) break;
    case PHYS_STR: {
        const StrRef *d = v->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = rows[i] & m, g = grp[i];
            if (!exec__bit(vb, r))
                continue;
            int c = s->cnt[g] ? exec__agg_str_cmp(s->arg_type, d[r], buf_get(s, g)) : 0;
            if (s->cnt[g] == 0 || (is_min ? c < 0 : c > 0))
                buf_store(s, qa, g, d[r]);
            s->cnt[g]++;
        }
        break;
    }
    }
}

/* DISTINCT: keep only the first (group, value) occurrences. With one
 * group the set holds the values alone (no group column to fill, hash
 * and compare: ClickBench Q4's count(DISTINCT UserID)). */
static uint32_t distinct_filter(AggSlot *s, const Vector *v, const uint16_t **rows, const uint32_t **grp, uint32_t n)
{
    Vector *keys[2] = {&s->gvec, (Vector *)v};
    if (s->dset->nkeys == 1) {
        keys[0] = (Vector *)v;
    } else {
        int64_t *g = s->gvec.data;
        for (uint32_t i = 0; i < n; i++)
            g[(*rows)[i]] = (int64_t)(*grp)[i];
    }
    uint32_t nnew = exec__gt_lookup(s->dset, keys, *rows, n, s->dgroup);
    for (uint32_t j = 0; j < nnew; j++) {
        uint32_t i = s->dset->newpos[j];
        s->drows[j] = (*rows)[i];
        s->dgrp[j] = (*grp)[i];
    }
    *rows = s->drows;
    *grp = s->dgrp;
    return nnew;
}

/* FILTER: keep the (row, group) pairs whose filter is true. */
static uint32_t filter_rows(AggSlot *s, const Batch *in, const uint16_t **rows, const uint32_t **grp, uint32_t n)
{
    Vector *f = exec__expr_eval(s->filter, in, in->sel, in->count);
    const uint8_t *d = f->data;
    uint32_t m = exec__mask(f);
    const uint64_t *vb = exec__validity(f);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = (*rows)[i];
        s->frows[k] = (uint16_t)r;
        s->fgrp[k] = (*grp)[i];
        k += (uint32_t)(exec__bit(vb, r & m) & (d[r & m] != 0));
    }
    *rows = s->frows;
    *grp = s->fgrp;
    return k;
}

/* Fold (row, group) pairs of argument vectors into the states. */
void exec__agg_slot_apply(AggSlot *s, MemArena *qa, const Vector *v, const Vector *v2, const uint16_t *rows,
                          const uint32_t *grp, uint32_t n)
{
    if (s->dset)
        n = distinct_filter(s, v, &rows, &grp, n);
    switch (s->sk) {
    case AS_COUNT: upd_count(s, v, rows, grp, n); break;
    case AS_SUM_I64: case AS_SUM_I128: upd_sum_int(s, v, rows, grp, n); break;
    case AS_SUM_F32: case AS_SUM_F64: upd_sum_flt(s, v, rows, grp, n); break;
    case AS_NUMERIC: upd_numeric(s, qa, s->scratch, v, rows, grp, n); break;
    case AS_MINMAX: upd_minmax(s, qa, v, rows, grp, n); break;
    case AS_GENERIC:
        if (n > 0)
            s->impl->update(s->gstate, grp, rows, n, v, v2, qa, s->scratch);
        break;
    }
}

/* ORDER BY inside the call: keep (group, args, order keys) for the end. */
static void ordered_buffer(AggSlot *s, MemArena *qa, const Batch *in, const Vector *v, const Vector *v2,
                           const uint16_t *rows, const uint32_t *grp, uint32_t n)
{
    int64_t *g = s->ogrp.data;
    for (uint32_t i = 0; i < n; i++)
        g[rows[i]] = grp[i];
    s->ogrp.validity = NULL;
    s->ogrp.is_const = false;
    exec__col_append(&s->obuf[0], qa, &s->ogrp, rows, n);
    if (v)
        exec__col_append(&s->obuf[1], qa, v, rows, n);
    if (v2)
        exec__col_append(&s->obuf[2], qa, v2, rows, n);
    for (int k = 0; k < s->norder; k++) {
        const Vector *o = exec__expr_eval(s->ord[k], in, in->sel, in->count);
        exec__col_append(&s->obuf[3 + k], qa, o, rows, n);
    }
}

void exec__agg_slot_update(AggSlot *s, MemArena *qa, const Batch *in, const uint32_t *grp, bool one_group)
{
    const Vector *v = s->arg ? exec__expr_eval(s->arg, in, in->sel, in->count) : NULL;
    const Vector *v2 = s->arg2 ? exec__expr_eval(s->arg2, in, in->sel, in->count) : NULL;
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    uint32_t n = in->count;
    if (one_group && s->filter == NULL && s->norder == 0) {
        if (v == NULL && s->sk == AS_COUNT) {   /* count(*) */
            *s->kern |= PLAN_KERN(PLAN_KERN_AGG_COUNT_STAR);
            s->cnt[grp[0]] += n;
            return;
        }
        if (grp[0] == 0 && exec__agg_update_single(s, v, in))
            return;
    }
    *s->kern |= s->kbits;
    if (s->filter)
        n = filter_rows(s, in, &rows, &grp, n);
    if (s->norder > 0) {
        ordered_buffer(s, qa, in, v, v2, rows, grp, n);
        return;
    }
    exec__agg_slot_apply(s, qa, v, v2, rows, grp, n);
}

/* End of input for an ORDER BY aggregate: sort the buffered rows by
 * (group, order keys) — stable, so equal keys keep input order — and fold
 * them in that order, a batch at a time. */
void exec__agg_slot_finish(AggSlot *s, MemArena *qa)
{
    if (s->norder == 0 || s->obuf[0].count == 0)
        return;
    uint32_t nrows = s->obuf[0].count;
    uint32_t *perm = exec__sort_columns(s->obuf, s->nobuf, s->okeys, s->norder + 1, nrows, qa);
    Vector va, vb;
    vec_init(&va, s->obuf[1].type, qa);
    vec_init(&vb, s->obuf[2].type, qa);
    uint32_t *grp = mem_alloc(qa, VEC_CAPACITY * sizeof(uint32_t));
    for (uint32_t pos = 0; pos < nrows; pos += VEC_CAPACITY) {
        err_check_interrupts();
        uint32_t n = nrows - pos < VEC_CAPACITY ? nrows - pos : VEC_CAPACITY;
        const int64_t *g = (const int64_t *)s->obuf[0].data;
        for (uint32_t i = 0; i < n; i++)
            grp[i] = (uint32_t)g[perm[pos + i]];
        if (s->arg)
            exec__col_gather(&s->obuf[1], perm + pos, n, &va);
        if (s->arg2)
            exec__col_gather(&s->obuf[2], perm + pos, n, &vb);
        mem_arena_reset(s->scratch);
        exec__agg_slot_apply(s, qa, s->arg ? &va : NULL, s->arg2 ? &vb : NULL, exec__identity_sel, grp, n);
    }
}

static void agg_update_all(AggState *st, MemArena *qa, const Batch *in, bool one_group)
{
    for (int a = 0; a < st->naggs; a++) {
        if (st->share[a] >= 0)
            continue;   /* its state is another slot's */
        exec__agg_slot_reserve(&st->aggs[a], qa, st->ngroups_keys > 0 || st->ngsets > 0 ? st->gt.ngroups : 1);
        AggSlot *s = &st->aggs[a];
        if (one_group && st->pre_hash && s->dset && s->filter == NULL && s->norder == 0)
            s->dset->prehash = st->pre_hash;   /* its argument is the partition key */
        exec__agg_slot_update(s, qa, in, st->grp, one_group);
    }
}

static void agg_sink(ExecOp *op, Batch *in)
{
    AggState *st = op->state;
    MemArena *qa = op->q->arena;
    mem_arena_reset(st->scratch);
    if (st->ngroups_keys == 0 && st->ngsets == 0) {
        agg_update_all(st, qa, in, true);
        return;
    }
    for (int k = 0; k < st->ngroups_keys; k++)
        st->keyvec[k] = st->pre_keys ? st->pre_keys[k] : exec__expr_eval(st->keys[k], in, in->sel, in->count);
    if (st->ngsets == 0) {
        st->gt.prehash = st->pre_hash;
        exec__gt_lookup(&st->gt, st->keyvec, in->sel, in->count, st->grp);
        agg_update_all(st, qa, in, false);
        return;
    }
    /* grouping sets: one lookup per set, keys outside the set NULL, the set index as last key */
    for (int i = 0; i < st->ngsets; i++) {
        for (int k = 0; k < st->ngroups_keys; k++)
            st->setkeys[k] = (st->gsets[i] >> k) & 1 ? st->keyvec[k] : &st->nullkeys[k];
        st->setkeys[st->ngroups_keys] = &st->setids[i];
        exec__gt_lookup(&st->gt, st->setkeys, in->sel, in->count, st->grp);
        agg_update_all(st, qa, in, false);
    }
}

/* ---------- results ---------- */

static void set_null(Vector *v, uint32_t row)
{
    vec_set_null(v, row);
}

void exec__agg_slot_result(AggSlot *s, uint32_t g, Vector *out, uint32_t row, MemArena *a)
{
    if (s->sk == AS_GENERIC) {
        s->impl->final(s->gstate + (size_t)g * (s->impl->state_size ? s->impl->state_size : 1), out, row, a);
        return;
    }
    int64_t c = s->cnt[g];
    if (s->sk != AS_COUNT && c == 0) {
        set_null(out, row);
        return;
    }
    Value v = {.is_null = false};
    bool avg = s->kind == AGG_AVG;
    switch (s->sk) {
    case AS_COUNT: v.u.i64 = c; break;
    case AS_SUM_I64: v.u.i64 = (int64_t)((uint64_t)s->i64[g] + (uint64_t)s->sum_add * (uint64_t)c); break;
    case AS_SUM_I128:
        v.u.str = avg ? numeric_avg_int128(s->i128[g], c, a) : numeric_from_int128(s->i128[g], 0, a);
        break;
    case AS_SUM_F32: v.u.f32 = s->f32[g]; break;
    case AS_SUM_F64: v.u.f64 = avg ? s->f64[g] / (double)c : s->f64[g]; break;
    case AS_NUMERIC: v.u.str = avg ? numeric_div_int64(buf_get(s, g), c, a) : buf_get(s, g); break;
    case AS_MINMAX:
        switch (s->arg_phys) {
        case PHYS_BOOL: v.u.b = s->mm[g] != 0; break;
        case PHYS_I16: v.u.i16 = ((int16_t *)s->mm)[g]; break;
        case PHYS_I32: v.u.i32 = ((int32_t *)s->mm)[g]; break;
        case PHYS_I64: v.u.i64 = ((int64_t *)s->mm)[g]; break;
        case PHYS_F32: v.u.f32 = ((float *)s->mm)[g]; break;
        case PHYS_F64: v.u.f64 = ((double *)s->mm)[g]; break;
        case PHYS_STR: v.u.str = buf_get(s, g); break;
        }
        break;
    case AS_GENERIC: break;   /* handled above */
    }
    vec_set_value(out, row, &v);
}

static void agg_finalize(ExecOp *op)
{
    AggState *st = op->state;
    if (st->parts) {
        for (int i = 0; i < st->nparts; i++)
            st->parts[i]->finalize(st->parts[i]);
        st->cur_part = 0;
        return;
    }
    for (int a = 0; a < st->naggs; a++)
        exec__agg_slot_finish(&st->aggs[a], op->q->arena);
    for (int a = 0; a < st->naggs; a++) {
        if (st->share[a] < 0)
            continue;
        AggSlot *s = &st->aggs[a];
        const AggSlot *p = &st->aggs[st->share[a]];   /* its arrays are final now */
        s->cnt = p->cnt;
        s->i64 = p->i64;
        s->i128 = p->i128;
        s->cap = p->cap;
    }
    st->ngroups_out = st->ngroups_keys > 0 || st->ngsets > 0 ? st->gt.ngroups : 1;
    st->pos = 0;
}

static bool agg_next(ExecOp *op, Batch **out)
{
    AggState *st = op->state;
    for (; st->parts && st->cur_part < st->nparts; st->cur_part++)
        if (st->parts[st->cur_part]->next(st->parts[st->cur_part], out))
            return true;
    if (st->parts)
        return false;
    if (st->pos >= st->ngroups_out)
        return false;
    err_check_interrupts();
    mem_arena_reset(st->out_scratch);
    uint32_t n = st->ngroups_out - st->pos;
    if (n > VEC_CAPACITY)
        n = VEC_CAPACITY;
    Batch *b = st->out;
    for (int k = 0; k < st->ngroups_keys; k++)
        exec__col_view(&st->gt.keys[k], st->pos, &b->cols[k]);
    if (st->ngsets > 0)
        exec__col_view(&st->gt.keys[st->ngroups_keys], st->pos, &b->cols[st->ngroups_keys + st->naggs]);
    for (int a = 0; a < st->naggs; a++) {
        Vector *v = &b->cols[st->ngroups_keys + a];
        v->validity = NULL;
        v->is_const = false;
        for (uint32_t i = 0; i < n; i++)
            exec__agg_slot_result(&st->aggs[a], st->pos + i, v, i, st->out_scratch);
    }
    b->count = n;
    b->sel = NULL;
    st->pos += n;
    *out = b;
    return true;
}

/* ---------- init ---------- */

static AggStateKind state_kind(const AggCall *c, PhysType p)
{
    if (c->agg->impl != NULL)
        return AS_GENERIC;
    switch (c->agg->kind) {
    case AGG_COUNT_STAR: case AGG_COUNT: return AS_COUNT;
    case AGG_MIN: case AGG_MAX: return AS_MINMAX;
    case AGG_SUM: case AGG_AVG:
        switch (p) {
        case PHYS_I16: case PHYS_I32:
            return c->agg->kind == AGG_SUM ? AS_SUM_I64 : AS_SUM_I128;
        case PHYS_I64: return AS_SUM_I128;
        case PHYS_F32: return c->agg->kind == AGG_SUM ? AS_SUM_F32 : AS_SUM_F64;
        case PHYS_F64: return AS_SUM_F64;
        case PHYS_STR:
            if (c->arg->type.oid == TYPE_NUMERIC)
                return AS_NUMERIC;
            break;
        default: break;
        }
        break;
    }
    err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "aggregate %s is not supported for this argument type",
              c->agg->name);
}

/*
 * sum(e + c) and sum(c + e) with e int2 and c a non-NULL int4 constant
 * (PostgreSQL's int24pl / int42pl, result int4, summed into int8): every
 * row's e + c is exact in int4 when |c| <= INT32_MAX - 32768 (no 22003 can
 * be lost), so the sum equals sum(e) + c * count(e) — exactly, even where
 * the int8 sum wraps, since both sides are the same sum modulo 2^64. Only
 * e is evaluated and summed; the result adds c * count (NULL rows of e are
 * NULL rows of e + c, so the counts agree). ClickBench Q29 is 90 such sums
 * of one smallint column; ClickHouse does the same rewrite
 * (optimize_arithmetic_operations_in_aggregate_functions). Returns the
 * expression to aggregate (c->arg itself when the shape does not apply).
 */
static const Expr *sum_add_const(const AggCall *c, int64_t *add)
{
    const Expr *a = c->arg;
    *add = 0;
    if (c->agg->kind != AGG_SUM || c->agg->impl != NULL || c->distinct || c->norder > 0 || a->kind != EXPR_FUNC ||
        a->nargs != 2 || a->func == NULL || (a->func->oid != 178 && a->func->oid != 179))
        return a;
    int ci = a->func->oid == 178 ? 1 : 0;   /* int24pl(int2, int4) / int42pl(int4, int2) */
    const Expr *k = a->args[ci], *e = a->args[1 - ci];
    if (strcmp(a->func->name, "+") != 0 || a->func->rettype != TYPE_INT4 || k->kind != EXPR_CONST || k->value.is_null || k->type.oid != TYPE_INT4 || e->type.oid != TYPE_INT2 ||
        k->value.u.i32 > INT32_MAX - 32768 || k->value.u.i32 < INT32_MIN + 32768)
        return a;
    *add = k->value.u.i32;
    return e;
}

/* Whether slots s and t accumulate the same state: an integer sum (or avg)
 * of the same input column, nothing per call (FILTER, DISTINCT, ORDER BY)
 * — sum(x), sum(x + 1), avg(x) differ only in how the result is read
 * (sum_add, kind). ClickBench's Q29 has 90 of them over one column. */
static bool same_sum_state(const AggSlot *s, const AggSlot *t)
{
    if (s->sk != t->sk || (s->sk != AS_SUM_I64 && s->sk != AS_SUM_I128) || s->arg_phys != t->arg_phys)
        return false;
    if (s->filter || t->filter || s->norder || t->norder || s->dset || t->dset || s->impl || t->impl ||
        s->arg2 || t->arg2 || !s->arg || !t->arg)
        return false;
    int64_t ignore;
    const Expr *a = sum_add_const(s->call, &ignore), *b = sum_add_const(t->call, &ignore);
    return a->kind == EXPR_COLUMN && b->kind == EXPR_COLUMN && a->index == b->index &&
           a->type.oid == b->type.oid;
}

/* Slots that accumulate another's state read it at the end instead of
 * updating their own (the first such slot keeps it). */
static void share_states(AggState *st)
{
    for (int a = 0; a < st->naggs; a++) {
        st->share[a] = -1;
        for (int b = 0; b < a && st->share[a] < 0; b++)
            if (st->share[b] < 0 && same_sum_state(&st->aggs[a], &st->aggs[b]))
                st->share[a] = b;
    }
}

static void slot_order_init(ExecQuery *q, AggSlot *s, const AggCall *c)
{
    s->norder = c->norder;
    s->ord = MEM_NEW_ARRAY(q->arena, ExprProg *, c->norder);
    s->nobuf = 3 + c->norder;
    s->obuf = MEM_NEW_ARRAY(q->arena, ExecColumn, s->nobuf);
    exec__col_init(&s->obuf[0], SQLTYPE(TYPE_INT8), q->arena, 1024);
    exec__col_init(&s->obuf[1], c->arg ? c->arg->type : SQLTYPE(TYPE_INT4), q->arena, c->arg ? 1024 : 64);
    const Expr *a2 = c->agg->ordered_set ? c->direct_arg : (c->nargs > 1 ? c->args[1] : NULL);
    exec__col_init(&s->obuf[2], a2 ? a2->type : SQLTYPE(TYPE_INT4), q->arena, a2 ? 1024 : 64);
    s->okeys = MEM_NEW_ARRAY(q->arena, SortKey, c->norder + 1);
    s->okeys[0] = (SortKey){.column = 0};
    for (int k = 0; k < c->norder; k++) {
        const SortKey *o = &c->order[k];
        s->ord[k] = exec__expr_compile(q, c->order_exprs[o->column], s->scratch);
        exec__col_init(&s->obuf[3 + k], c->order_exprs[o->column]->type, q->arena, 1024);
        s->okeys[1 + k] = (SortKey){.column = 3 + k, .descending = o->descending, .nulls_first = o->nulls_first};
    }
    vec_init(&s->ogrp, SQLTYPE(TYPE_INT8), q->arena);
}

void exec__agg_slot_init(ExecQuery *q, AggSlot *s, const AggCall *c, MemArena *scratch, uint32_t cap)
{
    memset(s, 0, sizeof *s);
    s->call = c;
    s->kind = c->agg->kind;
    s->scratch = scratch;
    s->cap = cap;
    if (c->arg) {
        const Expr *arg = sum_add_const(c, &s->sum_add);
        s->arg_type = arg->type;
        s->arg_phys = type_phys(arg->type);
        s->arg = exec__expr_compile(q, arg, scratch);
    }
    s->elem = (uint32_t)phys_size(s->arg_phys);
    s->impl = c->agg->impl;
    s->sk = state_kind(c, s->arg_phys);
    const Expr *a2 = c->agg->ordered_set ? c->direct_arg : (c->nargs > 1 ? c->args[1] : NULL);
    if (a2)
        s->arg2 = exec__expr_compile(q, a2, scratch);
    slot_alloc(s, q->arena, cap);
    if (c->norder > 0)
        slot_order_init(q, s, c);
    if (c->filter) {
        s->filter = exec__expr_compile(q, c->filter, scratch);
        s->frows = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
        s->fgrp = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
    }
    if (c->distinct && c->arg) {
        SqlType types[2] = {SQLTYPE(TYPE_INT8), c->arg->type};
        s->dset = MEM_NEW(q->arena, ExecGroupTable);
        if (cap == 1)   /* one group: the values alone */
            exec__gt_init(s->dset, q->arena, 1, types + 1);
        else
            exec__gt_init(s->dset, q->arena, 2, types);
        vec_init(&s->gvec, SQLTYPE(TYPE_INT8), q->arena);
        s->dgroup = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
        s->drows = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
        s->dgrp = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
    }
    s->kern = &s->kern_spare;   /* exec__op_agg points it at the node's counters */
    s->kbits = PLAN_KERN(s->impl ? PLAN_KERN_AGG_GENERIC : PLAN_KERN_AGG_SCATTER) |
               (s->dset ? PLAN_KERN(PLAN_KERN_AGG_DISTINCT) : 0) | (s->filter ? PLAN_KERN(PLAN_KERN_AGG_FILTER) : 0) |
               (s->norder ? PLAN_KERN(PLAN_KERN_AGG_ORDERED) : 0);
}

void exec__agg_slot_clear(AggSlot *s, uint32_t g)
{
    s->cnt[g] = 0;
    if (s->gstate)
        memset(s->gstate + (size_t)g * (s->impl->state_size ? s->impl->state_size : 1), 0,
               s->impl->state_size ? s->impl->state_size : 1);
    if (s->i64) s->i64[g] = 0;
    if (s->i128) s->i128[g] = 0;
    if (s->f32) s->f32[g] = 0;
    if (s->f64) s->f64[g] = 0;
    if (s->buf_len) s->buf_len[g] = 0;
}

/* Grouping sets: constant vectors, and the groups of key-less sets made
 * up front (GROUP BY () yields one row even without input). */
static void gsets_init(ExecQuery *q, AggState *st, const PlanNode *n, SqlType *types)
{
    st->ngsets = n->ngsets;
    st->gsets = n->gsets;
    st->nullkeys = MEM_NEW_ARRAY(q->arena, Vector, n->ngroups + 1);
    st->setids = MEM_NEW_ARRAY(q->arena, Vector, n->ngsets);
    st->setkeys = MEM_NEW_ARRAY(q->arena, Vector *, n->ngroups + 1);
    for (int k = 0; k < n->ngroups; k++)
        exec__vec_const_null(&st->nullkeys[k], types[k], q->arena);
    for (int i = 0; i < n->ngsets; i++) {
        Value v = {.is_null = false, .u.i32 = i};
        vec_init(&st->setids[i], SQLTYPE(TYPE_INT4), q->arena);
        vec_set_value(&st->setids[i], 0, &v);
        st->setids[i].is_const = true;
    }
    for (int i = 0; i < n->ngsets; i++) {
        if (st->gsets[i] != 0)
            continue;
        for (int k = 0; k < n->ngroups; k++)
            st->setkeys[k] = &st->nullkeys[k];
        st->setkeys[n->ngroups] = &st->setids[i];
        exec__gt_lookup(&st->gt, st->setkeys, NULL, 1, st->grp);
    }
}

static void agg_close(ExecOp *op)
{
    AggState *st = op->state;
    if (st->release) {
        void (*fn)(void *) = st->release;
        st->release = NULL;
        fn(st->release_ctx);
    }
}

/* EXPLAIN ANALYZE: the slots write into the node's word; the shape's bits. */
static void agg_kern_init(const ExecOp *op, AggState *st, const PlanNode *n)
{
    st->kern = exec__kern_word(op, &st->kern_spare);
    uint64_t k = 0;
    for (int a = 0; a < st->naggs; a++) {
        st->aggs[a].kern = st->kern;
        k |= st->share[a] >= 0 ? PLAN_KERN(PLAN_KERN_AGG_SHARED) : 0;
        k |= st->aggs[a].sum_add != 0 ? PLAN_KERN(PLAN_KERN_AGG_ADD_CONST) : 0;
    }
    bool str = false;
    for (int i = 0; i < n->ngroups; i++)
        str |= type_phys(n->group_exprs[i]->type) == PHYS_STR;
    k |= PLAN_KERN(n->ngsets > 0 ? PLAN_KERN_AGG_GSETS
                   : n->ngroups == 0 ? PLAN_KERN_AGG_ONE_GROUP
                   : str ? PLAN_KERN_AGG_HASH_STR : PLAN_KERN_AGG_HASH_FIXED);
    *st->kern |= k;
}

ExecOp *exec__op_agg(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(AggState));
    AggState *st = op->state;
    st->scratch = exec__scratch_create(q);
    st->out_scratch = exec__scratch_create(q);
    st->ngroups_keys = n->ngroups;
    st->naggs = n->naggs;
    if (n->ngsets > 0 && n->ngroups > 63)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "grouping sets over %d keys are not supported", n->ngroups);
    st->grp = mem_calloc(q->arena, VEC_CAPACITY, sizeof(uint32_t)); /* all 0: the single group */
    if (n->ngroups > 0 || n->ngsets > 0) {
        st->keys = MEM_NEW_ARRAY(q->arena, ExprProg *, n->ngroups + 1);
        st->keyvec = MEM_NEW_ARRAY(q->arena, Vector *, n->ngroups + 1);
        SqlType *types = MEM_NEW_ARRAY(q->arena, SqlType, n->ngroups + 1);
        for (int k = 0; k < n->ngroups; k++) {
            st->keys[k] = exec__expr_compile(q, n->group_exprs[k], st->scratch);
            types[k] = n->group_exprs[k]->type;
        }
        types[n->ngroups] = SQLTYPE(TYPE_INT4);   /* grouping sets: the set index */
        exec__gt_init_sized(&st->gt, q->arena, n->ngroups + (n->ngsets > 0), types, n->est_rows);
        if (n->ngsets > 0)
            gsets_init(q, st, n, types);
    }
    st->aggs = MEM_NEW_ARRAY(q->arena, AggSlot, n->naggs > 0 ? n->naggs : 1);
    for (int a = 0; a < n->naggs; a++)
        exec__agg_slot_init(q, &st->aggs[a], &n->aggs[a], st->scratch, n->ngroups > 0 || n->ngsets > 0 ? 1024 : 1);
    st->share = MEM_NEW_ARRAY(q->arena, int, n->naggs > 0 ? n->naggs : 1);
    share_states(st);
    agg_kern_init(op, st, n);
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->sink = agg_sink;
    op->finalize = agg_finalize;
    op->next = agg_next;
    op->close = agg_close;
    return op;
}

size_t exec__agg_slot_size(void)
{
    return sizeof(AggSlot);
}

bool exec__agg_slot_order_free(const AggSlot *s)
{
    return s->norder == 0 && s->dset == NULL &&
           (s->sk == AS_COUNT || s->sk == AS_SUM_I64 || s->sk == AS_SUM_I128 || s->sk == AS_NUMERIC ||
            s->sk == AS_MINMAX);
}
