/*
 * agg_merge.c — the hash aggregate's parallel side (parallel.c drives it):
 * which aggregations may run on several threads, folding a worker's groups
 * and states into the leader's, and the hooks of partitioned aggregation
 * (each thread owning the groups whose key hash falls in its partition).
 *
 * Split from op_agg.c, which keeps the single-threaded operator these
 * functions reach into (AggState, agg_int.h); the code is as it was there.
 * Nothing here runs per input row: merging walks the workers' groups a
 * window of VEC_CAPACITY at a time, once at the end of the pipeline.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/agg_int.h"

#include "common/error.h"
#include "common/numeric.h"

/* ---------- parallel aggregation: merging worker states (parallel.c) ----------
 *
 * Each worker thread aggregates its morsels into an aggregate operator of
 * its own; at the end the leader folds every worker's groups into its own
 * table, a window of up to VEC_CAPACITY groups at a time: the worker's key
 * columns as zero-copy views go through the vectorised lookup, which gives
 * each worker group its group here, then the states combine (counts and
 * integer sums add, min/max compare, numeric sums add). DISTINCT aggregates
 * re-insert the worker's (group, value) pairs through this slot's own set,
 * so a value both saw counts once. Float sums (whose result depends on the
 * order of additions: PostgreSQL's is the scan's), registry aggregates and
 * ORDER BY inside a call are not merged: such plans run on one thread.
 */

bool exec__agg_parallel_ok(const PlanNode *n)
{
    for (int a = 0; a < n->naggs; a++) {
        const AggCall *c = &n->aggs[a];
        if (c->agg->impl != NULL || c->norder > 0)
            return false;
        if ((c->agg->kind == AGG_SUM || c->agg->kind == AGG_AVG) && c->arg != NULL) {
            PhysType p = type_phys(c->arg->type);
            if (p == PHYS_F32 || p == PHYS_F64)
                return false;
        }
    }
    return true;
}

#define MM_COMBINE(CT, LESS)                                                        \
    {                                                                               \
        CT *dst = (CT *)d->mm;                                                      \
        const CT *src = (const CT *)w->mm;                                          \
        for (uint32_t i = 0; i < n; i++) {                                          \
            uint32_t g = pos + i, t = map[g];                                       \
            if (w->cnt[g] == 0)                                                     \
                continue;                                                           \
            if (d->cnt[t] == 0 || (is_min ? LESS(src[g], dst[t]) : LESS(dst[t], src[g]))) \
                dst[t] = src[g];                                                    \
            d->cnt[t] += w->cnt[g];                                                 \
        }                                                                           \
    }

static void minmax_combine(AggSlot *d, const AggSlot *w, MemArena *qa, uint32_t pos, uint32_t n,
                           const uint32_t *map)
{
    bool is_min = d->kind == AGG_MIN;
    switch (d->arg_phys) {
    case PHYS_BOOL: MM_COMBINE(uint8_t, PLAIN_LESS) break;
    case PHYS_I16: MM_COMBINE(int16_t, PLAIN_LESS) break;
    case PHYS_I32: MM_COMBINE(int32_t, PLAIN_LESS) break;
    case PHYS_I64: MM_COMBINE(int64_t, PLAIN_LESS) break;
    case PHYS_F32: MM_COMBINE(float, flt_less) break;
    case PHYS_F64: MM_COMBINE(double, flt_less) break;
    case PHYS_STR:
        for (uint32_t i = 0; i < n; i++) {
            uint32_t g = pos + i, t = map[g];
            if (w->cnt[g] == 0)
                continue;
            int c = d->cnt[t] ? exec__agg_str_cmp(d->arg_type, buf_get(w, g), buf_get(d, t)) : 0;
            if (d->cnt[t] == 0 || (is_min ? c < 0 : c > 0))
                buf_store(d, qa, t, buf_get(w, g));
            d->cnt[t] += w->cnt[g];
        }
        break;
    }
}

/* Fold worker groups [pos, pos + n) of w into d (map: worker group → ours). */
static void slot_combine(AggSlot *d, const AggSlot *w, MemArena *qa, uint32_t pos, uint32_t n,
                         const uint32_t *map)
{
    switch (d->sk) {
    case AS_COUNT:
        for (uint32_t i = 0; i < n; i++)
            d->cnt[map[pos + i]] += w->cnt[pos + i];
        break;
    case AS_SUM_I64:
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = map[pos + i];
            d->i64[t] = (int64_t)((uint64_t)d->i64[t] + (uint64_t)w->i64[pos + i]);   /* int8 wraps as serially */
            d->cnt[t] += w->cnt[pos + i];
        }
        break;
    case AS_SUM_I128:
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = map[pos + i];
            d->i128[t] += w->i128[pos + i];
            d->cnt[t] += w->cnt[pos + i];
        }
        break;
    case AS_NUMERIC:
        for (uint32_t i = 0; i < n; i++) {
            uint32_t g = pos + i, t = map[g];
            if (w->cnt[g] == 0)
                continue;
            StrRef x = d->cnt[t] ? numeric_add(buf_get(d, t), buf_get(w, g), d->scratch) : buf_get(w, g);
            buf_store(d, qa, t, x);
            d->cnt[t] += w->cnt[g];
        }
        break;
    case AS_MINMAX:
        minmax_combine(d, w, qa, pos, n, map);
        break;
    default:
        ERR_ASSERT(false);   /* exec__agg_parallel_ok keeps these on one thread */
    }
}

/* DISTINCT: the worker's (group, value) pairs through our own set. */
static void distinct_combine(AggSlot *d, const AggSlot *w, MemArena *qa, const uint32_t *map, uint32_t *grp)
{
    const ExecGroupTable *ws = w->dset;
    Vector val;
    for (uint32_t pos = 0; pos < ws->ngroups; pos += VEC_CAPACITY) {
        err_check_interrupts();
        uint32_t n = ws->ngroups - pos < VEC_CAPACITY ? ws->ngroups - pos : VEC_CAPACITY;
        const int64_t *wg = (const int64_t *)ws->keys[0].data + pos;
        for (uint32_t i = 0; i < n; i++)
            grp[i] = ws->nkeys == 1 ? map[0] : map[wg[i]];   /* one group: values alone */
        exec__col_view(&ws->keys[ws->nkeys - 1], pos, &val);
        mem_arena_reset(d->scratch);
        exec__agg_slot_apply(d, qa, &val, NULL, exec__identity_sel, grp, n);
    }
}

void exec__agg_merge(ExecOp *into, ExecOp *from, bool disjoint)
{
    AggState *d = into->state, *w = from->state;
    MemArena *qa = into->q->arena, *wa = from->q->arena;
    bool grouped = d->ngroups_keys > 0 || d->ngsets > 0;
    uint32_t nw = grouped ? w->gt.ngroups : 1;
    uint32_t *map = mem_calloc(wa, nw ? nw : 1, sizeof(uint32_t));   /* ungrouped: group 0 → 0 */
    if (grouped) {
        exec__gt_reserve(&d->gt, nw);
        int nk = d->gt.nkeys;
        Vector *views = MEM_NEW_ARRAY(wa, Vector, nk);
        Vector **keys = MEM_NEW_ARRAY(wa, Vector *, nk);
        for (uint32_t pos = 0; pos < nw; pos += VEC_CAPACITY) {
            err_check_interrupts();
            uint32_t n = nw - pos < VEC_CAPACITY ? nw - pos : VEC_CAPACITY;
            for (int k = 0; k < nk; k++) {
                exec__col_view(&w->gt.keys[k], pos, &views[k]);
                keys[k] = &views[k];
            }
            exec__gt_lookup(&d->gt, keys, NULL, n, map + pos);
        }
    }
    uint32_t ngroups = grouped ? d->gt.ngroups : 1;
    for (int a = 0; a < d->naggs; a++) {
        if (d->share[a] >= 0)
            continue;
        AggSlot *s = &d->aggs[a];
        exec__agg_slot_reserve(s, qa, ngroups);
        if (s->dset && !disjoint) {
            distinct_combine(s, &w->aggs[a], qa, map, d->grp);
            continue;
        }
        for (uint32_t pos = 0; pos < nw; pos += VEC_CAPACITY) {
            mem_arena_reset(s->scratch);
            slot_combine(s, &w->aggs[a], qa, pos, nw - pos < VEC_CAPACITY ? nw - pos : VEC_CAPACITY, map);
        }
    }
}

uint64_t exec__agg_groups(const ExecOp *op)
{
    const AggState *st = op->state;
    uint64_t n = st->ngroups_keys > 0 || st->ngsets > 0 ? st->gt.ngroups : 1;
    for (int a = 0; a < st->naggs; a++)
        if (st->aggs[a].dset)
            n += st->aggs[a].dset->ngroups;
    return n;
}

void exec__agg_presize(ExecOp *op, uint64_t groups)
{
    AggState *st = op->state;
    if (st->ngroups_keys == 0 || st->ngsets > 0 || groups <= st->gt.ngroups)
        return;
    exec__gt_reserve(&st->gt, (uint32_t)(groups - st->gt.ngroups));
    for (int a = 0; a < st->naggs; a++)
        if (st->share[a] < 0)
            exec__agg_slot_reserve(&st->aggs[a], op->q->arena, (uint32_t)groups);
}

uint64_t exec__agg_key_groups(const ExecOp *op)
{
    const AggState *st = op->state;
    return st->ngroups_keys > 0 || st->ngsets > 0 ? st->gt.ngroups : 1;
}

bool exec__agg_partitionable(const PlanNode *n)
{
    return n->ngroups > 0 && n->ngsets == 0;
}

/* Whether two DISTINCT arguments are the same expression (the planner
 * builds each call's own tree: compare columns by index, else by tree). */
static bool same_arg(const Expr *a, const Expr *b)
{
    if (a == b)
        return true;
    if (a == NULL || b == NULL || a->kind != b->kind || a->type.oid != b->type.oid || a->nargs != b->nargs)
        return false;
    if (a->kind == EXPR_COLUMN)
        return a->index == b->index;
    if (a->kind != EXPR_FUNC && a->kind != EXPR_CAST)
        return false;
    if (a->func != b->func || a->cast != b->cast)
        return false;
    for (int i = 0; i < a->nargs; i++)
        if (!same_arg(a->args[i], b->args[i]))
            return false;
    return true;
}

const Expr *exec__agg_distinct_key(const PlanNode *n)
{
    if (n->ngsets > 0)
        return NULL;
    const Expr *key = NULL;
    for (int a = 0; a < n->naggs; a++) {
        const AggCall *c = &n->aggs[a];
        if (!c->distinct)
            continue;
        if (c->arg == NULL || c->nargs > 1 || (key != NULL && !same_arg(key, c->arg)))
            return NULL;
        key = c->arg;
    }
    return key;
}

void exec__agg_prehashed(ExecOp *op, Vector **keys, const uint64_t *hashes)
{
    AggState *st = op->state;
    ERR_ASSERT(st->ngsets == 0);
    st->pre_keys = st->ngroups_keys > 0 ? keys : NULL;
    st->pre_hash = hashes;
}

void exec__agg_set_parts(ExecOp *op, ExecOp **parts, int nparts, void (*release)(void *ctx), void *ctx)
{
    AggState *st = op->state;
    st->parts = parts;
    st->nparts = nparts;
    st->cur_part = 0;
    st->release = release;
    st->release_ctx = ctx;
}
