/*
 * op_scan.c — the scan source: batches of a table's chosen columns from
 * storage, with the plan's scan_filter applied as a selection vector.
 *
 * Simple conjuncts of the filter (`col op const`, `col IS NULL`; the
 * constant may be a parameter or an outer reference of a re-run) are also
 * handed to storage as StoreZoneFilter hints so it can skip whole chunks;
 * they are hints only, the filter still runs on every row returned.
 * When those conjuncts fix every primary-key column (`aid = $1`, pgbench's
 * statements), the scan is a point lookup instead: the key index gives
 * the version visible to the snapshot, its columns are fetched into a
 * one-row batch, and the whole filter runs on it as on any batch.
 * Vectors may point into storage memory (zero copy) until the next batch.
 * A filter that is `column op constant` over integers or dates (or text
 * against ''), or an AND starting with one, runs that comparison as a fused
 * kernel straight into the selection (filter_kernels.c) and the other
 * conjuncts on the rows left.
 *
 * In summary mode (an aggregate right above, no filter: count(*), count(x),
 * min(x), max(x); agg_onegroup.c decides) the row groups storage can describe
 * exactly from their metadata (storage/scan_summary.c) are folded into the
 * aggregate directly and never read; the others come out as batches.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

#define SCAN_MAX_ZONE 16

typedef struct ScanState {
    StoreScan *scan;
    Batch *batch;
    ExprProg *filter;
    MemArena *scratch;
    uint16_t *sel;
    const PlanNode *node;
    StoreTxn *txn;
    Value *key;          /* point lookup: the primary key's values; NULL = scan */
    bool key_done;       /* the point lookup has produced its batch */
    bool cmp;            /* the filter is, or starts with, `column op constant`: cmpf (filter_kernels.c) */
    ExecCmpFilter cmpf;
    ExprProg *rest;      /* the filter's other conjuncts when it is cmpf AND ...; NULL = none */
    /* summary mode (exec__scan_set_summary): groups folded without rows */
    ExecSummaryFold fold;
    void *fold_ctx;
    bool *zone_cols;
    StoreColSummary *sums;
    /* EXPLAIN ANALYZE (plan.h PlanKernel): bits ORed per batch into *kern */
    uint64_t *kern, kern_spare;
    uint64_t kbits;      /* the fused filter's bits (variant, type, operator) */
    PlanNodeStats *ps;   /* the node's counters, NULL = not measuring (asked once) */
    uint64_t skipped;    /* zone-map skips already added to ps */
} ScanState;

static bool cmp_from_name(const char *name, StoreCmp *out)
{
    static const struct { const char *name; StoreCmp cmp; } ops[] = {
        {"=", STORE_EQ}, {"<", STORE_LT}, {"<=", STORE_LE}, {">", STORE_GT}, {">=", STORE_GE},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(name, ops[i].name) == 0) {
            *out = ops[i].cmp;
            return true;
        }
    }
    return false;
}

static StoreCmp cmp_flip(StoreCmp c)
{
    switch (c) {
    case STORE_LT: return STORE_GT;
    case STORE_LE: return STORE_GE;
    case STORE_GT: return STORE_LT;
    case STORE_GE: return STORE_LE;
    default: return c;
    }
}

/* The value of a constant, a parameter or an outer reference of this run
 * (a correlated subquery's scan is rebuilt per outer value, so its
 * `col = outer` conjuncts can skip chunks too). */
static bool known_value(const ExecQuery *q, const Expr *e, Value *v)
{
    switch (e->kind) {
    case EXPR_CONST: *v = e->value; return true;
    case EXPR_PARAM:
        if (e->index < 0 || e->index >= q->nparams)
            return false;
        *v = q->params[e->index];
        return true;
    case EXPR_OUTER_REF:
        if (e->index < 0 || e->index >= q->nouter)
            return false;
        *v = q->outer[e->index];
        return true;
    default: return false;
    }
}

static bool is_known(const Expr *e)
{
    return e->kind == EXPR_CONST || e->kind == EXPR_PARAM || e->kind == EXPR_OUTER_REF;
}

/* Collect `col op const` conjuncts whose constant has the column's type. */
static void zone_collect(const ExecQuery *q, const PlanNode *n, const Expr *e, StoreZoneFilter *out, int *nf)
{
    if (*nf >= SCAN_MAX_ZONE)
        return;
    if (e->kind == EXPR_AND) {
        for (int i = 0; i < e->nargs; i++)
            zone_collect(q, n, e->args[i], out, nf);
        return;
    }
    if (e->kind == EXPR_IS_NULL && e->args[0]->kind == EXPR_COLUMN) {
        out[*nf] = (StoreZoneFilter){.column = e->args[0]->index, .cmp = STORE_IS_NULL};
        out[*nf].value.is_null = true;
        (*nf)++;
        return;
    }
    StoreCmp cmp;
    if (e->kind != EXPR_FUNC || e->nargs != 2 || e->func == NULL || !cmp_from_name(e->func->name, &cmp))
        return;
    const Expr *a = e->args[0], *b = e->args[1];
    if (is_known(a) && b->kind == EXPR_COLUMN) {
        const Expr *t = a;
        a = b;
        b = t;
        cmp = cmp_flip(cmp);
    }
    Value v;
    if (a->kind != EXPR_COLUMN || !known_value(q, b, &v) || v.is_null)
        return;
    if (a->index < 0 || a->index >= n->ncols || n->col_types[a->index].oid != b->type.oid)
        return;
    out[*nf] = (StoreZoneFilter){.column = a->index, .cmp = cmp, .value = v};
    (*nf)++;
}

/* Whether e is one `column op known value` the fused kernels take
 * (filter_kernels.c); fills f. */
static bool cmp_filter_match(const ExecQuery *q, const PlanNode *n, const Expr *e, ExecCmpFilter *f)
{
    static const struct { const char *name; ExecCmpOp op, flip; } ops[] = {
        {"=", EXEC_CMP_EQ, EXEC_CMP_EQ}, {"<>", EXEC_CMP_NE, EXEC_CMP_NE},
        {"<", EXEC_CMP_LT, EXEC_CMP_GT}, {"<=", EXEC_CMP_LE, EXEC_CMP_GE},
        {">", EXEC_CMP_GT, EXEC_CMP_LT}, {">=", EXEC_CMP_GE, EXEC_CMP_LE},
    };
    if (e->kind != EXPR_FUNC || e->nargs != 2 || e->func == NULL)
        return false;
    const Expr *a = e->args[0], *b = e->args[1];
    bool flipped = is_known(a) && b->kind == EXPR_COLUMN;
    if (flipped) {
        const Expr *t = a;
        a = b;
        b = t;
    }
    Value v;
    if (a->kind != EXPR_COLUMN || a->index < 0 || a->index >= n->ncols || !known_value(q, b, &v))
        return false;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(e->func->name, ops[i].name) == 0)
            return exec__cmp_filter_init(n->col_types[a->index], flipped ? ops[i].flip : ops[i].op,
                                         b->type, &v, a->index, f);
    }
    return false;
}

/* The point lookup's only batch: the visible version of the key, if any. */
static bool lookup_next(ScanState *st)
{
    if (st->key_done)
        return false;
    st->key_done = true;
    const PlanNode *n = st->node;
    uint64_t rowid;
    *st->kern |= PLAN_KERN(PLAN_KERN_SCAN_LOOKUP);
    if (!store_table_lookup_key(n->table, st->txn, st->key, &rowid))
        return false;
    return store_row_fetch(n->table, st->txn, rowid, n->ncols, n->scan_cols, st->batch);
}

/* Summary mode: fold every group storage can describe exactly, hand out
 * the others' rows (the aggregate above reads them as usual). */
static bool summary_next(ExecOp *op, ScanState *st, Batch **out)
{
    ExecShared *sh = op->q->shared;
    int id = op->node->node_id;
    PlanNodeStats *ps = sh && sh->stats && id >= 0 && id < sh->nstats ? &sh->stats[id] : NULL;
    for (;;) {
        err_check_interrupts();
        st->batch->sel = NULL;
        uint32_t rows = 0;
        switch (store_scan_next_summary(st->scan, st->zone_cols, &rows, st->sums, st->batch)) {
        case STORE_SUMMARY_END:
            return false;
        case STORE_SUMMARY_ROWS:
            st->batch->sel = NULL;
            *out = st->batch;
            return true;
        case STORE_SUMMARY_GROUP:
            st->fold(st->fold_ctx, rows, st->sums);
            *st->kern |= PLAN_KERN(PLAN_KERN_SCAN_SUMMARY);
            if (ps) {
                ps->rows += rows;   /* EXPLAIN ANALYZE: the rows the group stands for */
                ps->groups_summarised++;
            }
            break;
        }
    }
}

bool exec__scan_set_summary(ExecOp *op, const bool *zone_cols, ExecSummaryFold fold, void *ctx)
{
    ScanState *st = op->state;
    if (st->scan == NULL || st->filter != NULL)
        return false;
    int ncols = st->node->ncols;
    st->zone_cols = mem_alloc(op->q->arena, sizeof(bool) * (size_t)(ncols ? ncols : 1));
    st->sums = mem_calloc(op->q->arena, (size_t)(ncols ? ncols : 1), sizeof(StoreColSummary));
    for (int i = 0; i < ncols; i++)
        st->zone_cols[i] = zone_cols[i];
    st->fold = fold;
    st->fold_ctx = ctx;
    return true;
}

/* EXPLAIN ANALYZE: the row groups the zone maps skipped since last asked. */
static void note_skipped(ScanState *st)
{
    if (st->ps && st->scan) {
        uint64_t n = store_scan_groups_skipped(st->scan);
        st->ps->groups_skipped += n - st->skipped;
        st->skipped = n;
    }
}

static bool scan_next(ExecOp *op, Batch **out)
{
    ScanState *st = op->state;
    if (st->fold)
        return summary_next(op, st, out);
    for (;;) {
        err_check_interrupts();
        st->batch->sel = NULL;
        if (!(st->key ? lookup_next(st) : store_scan_next(st->scan, st->batch))) {
            note_skipped(st);
            return false;
        }
        st->batch->sel = NULL;
        if (st->filter == NULL || st->batch->count == 0)
            break;
        uint32_t n = st->batch->count, k;
        const Vector *cv = st->cmp ? &st->batch->cols[st->cmpf.column] : NULL;
        if (cv && !cv->is_const && cv->phys == st->cmpf.phys) {
            *st->kern |= st->kbits;
            k = exec__cmp_filter_select(&st->cmpf, st->batch, st->sel);
            if (st->rest && k > 0) {   /* the other conjuncts on the rows left, as AND does */
                const uint16_t *in = k == n ? NULL : st->sel;   /* all passed: sel unwritten */
                mem_arena_reset(st->scratch);
                Vector *pred = exec__expr_eval(st->rest, st->batch, in, k);
                k = exec__select_true(pred, in, k, st->sel);   /* in place: k <= i */
            }
        } else {
            *st->kern |= PLAN_KERN(PLAN_KERN_FILTER_EXPR);
            mem_arena_reset(st->scratch);
            Vector *pred = exec__expr_eval(st->filter, st->batch, NULL, n);
            k = exec__select_true(pred, NULL, n, st->sel);
        }
        if (k == 0)
            continue;
        if (k < n) {
            st->batch->sel = st->sel;
            st->batch->count = k;
        } else {
            *st->kern |= PLAN_KERN(PLAN_KERN_FILTER_ALLPASS);
        }
        break;
    }
    note_skipped(st);
    *out = st->batch;
    return true;
}

static void scan_close(ExecOp *op)
{
    ScanState *st = op->state;
    if (st->scan) {
        StoreScan *s = st->scan;
        st->scan = NULL;
        store_scan_end(s);
    }
}

/* The primary key's values when the zone conjuncts fix every key column
 * with `=`; NULL otherwise (then the table is scanned). */
static Value *lookup_key(ExecQuery *q, const PlanNode *n, const StoreZoneFilter *zf, int nf)
{
    int npk = store_table_npkey(n->table);
    const int *pk = store_table_pkey(n->table);
    if (npk == 0 || npk > nf)
        return NULL;
    Value *key = mem_alloc(q->arena, sizeof(Value) * (size_t)npk);
    for (int k = 0; k < npk; k++) {
        int i = 0;
        while (i < nf && !(zf[i].cmp == STORE_EQ && n->scan_cols[zf[i].column] == pk[k]))
            i++;
        if (i == nf)
            return NULL;
        key[k] = zf[i].value;
    }
    return key;
}

/* A scan operator with its filter compiled; zf gets the zone conjuncts. */
static ExecOp *scan_op_new(ExecQuery *q, const PlanNode *n, StoreZoneFilter *zf, int *nfp)
{
    ExecOp *op = exec__op_new(q, n, sizeof(ScanState));
    ScanState *st = op->state;
    st->batch = exec__batch_new(q, n->ncols, n->col_types);
    int nf = 0;
    if (n->scan_filter) {
        st->scratch = exec__scratch_create(q);
        st->filter = exec__expr_compile(q, n->scan_filter, st->scratch);
        st->sel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
        zone_collect(q, n, n->scan_filter, zf, &nf);
        st->cmp = cmp_filter_match(q, n, n->scan_filter, &st->cmpf);
        const Expr *f = n->scan_filter;
        if (!st->cmp && f->kind == EXPR_AND && f->nargs >= 2 && cmp_filter_match(q, n, f->args[0], &st->cmpf)) {
            Expr *r = f->args[1];
            if (f->nargs > 2) {   /* AND of the remaining conjuncts, in their order */
                r = MEM_NEW(q->arena, Expr);
                *r = *f;
                r->args = f->args + 1;
                r->nargs = f->nargs - 1;
            }
            st->rest = exec__expr_compile(q, r, st->scratch);
            st->cmp = true;
        }
        if (st->cmp)
            st->kbits = exec__cmp_filter_kernels(&st->cmpf) | (st->rest ? PLAN_KERN(PLAN_KERN_FILTER_REST) : 0);
    }
    st->kern = exec__kern_word(op, &st->kern_spare);
    st->ps = n->scan_filter ? exec__op_stats(op) : NULL;   /* zone maps need a filter */
    st->node = n;
    st->txn = q->txn;
    op->next = scan_next;
    op->close = scan_close;
    *nfp = nf;
    return op;
}

ExecOp *exec__op_scan(ExecQuery *q, const PlanNode *n)
{
    StoreZoneFilter zf[SCAN_MAX_ZONE];
    int nf;
    ExecOp *op = scan_op_new(q, n, zf, &nf);
    ScanState *st = op->state;
    st->key = nf ? lookup_key(q, n, zf, nf) : NULL;
    if (!st->key)
        st->scan = store_scan_begin(n->table, q->txn, n->ncols, n->scan_cols, nf, nf ? zf : NULL, q->arena);
    return op;
}

/* ---------- parallel scans (parallel.c) ---------- */

uint64_t exec__scan_parallel_rows(const ExecOp *op)
{
    const ScanState *st = op->state;
    if (st->scan == NULL || st->fold != NULL || st->key != NULL)
        return 0;
    return store_scan_rows_left(st->scan);
}

void exec__scan_share(ExecOp *op)
{
    ScanState *st = op->state;
    store_scan_share(st->scan, op->q->arena);
}

ExecOp *exec__op_scan_clone(ExecQuery *wq, const ExecOp *orig, bool shared)
{
    StoreZoneFilter zf[SCAN_MAX_ZONE];
    int nf;
    ExecOp *op = scan_op_new(wq, orig->node, zf, &nf);
    ScanState *st = op->state;
    st->scan = store_scan_clone(((const ScanState *)orig->state)->scan, wq->arena, shared);
    return op;
}
