/*
 * op_funcscan.c — table functions in FROM (PLAN_FUNCTION_SCAN): every
 * TableFuncKind (generate_series, unnest, regexp_matches,
 * regexp_split_to_table, string_to_table, the json ones,
 * generate_subscripts) through the generators of srf.c.
 *
 * The arguments are evaluated once, when the scan is started (their outer
 * references bound for a lateral or subplan rerun); then the source asks
 * the generator for up to VEC_CAPACITY rows per batch, written straight
 * into its output vectors (strings into a per-batch scratch arena). WITH
 * ORDINALITY adds an int8 counter column.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"

typedef struct FuncScanState {
    bool started, done;
    ExecSrf *srf;
    int64_t ordinal;
    MemArena *scratch;
    Batch *out;
} FuncScanState;

static void fs_start(ExecOp *op, FuncScanState *st)
{
    const PlanNode *n = op->node;
    Value *v = MEM_NEW_ARRAY(op->q->arena, Value, n->nfunc_args > 0 ? n->nfunc_args : 1);
    for (int i = 0; i < n->nfunc_args; i++)
        exec__eval_const(op->q, n->func_args[i], &v[i]);
    st->started = true;
    if (n->func_kind == TABLEFUNC_GENERATE_SERIES && (n->nfunc_args < 2 || n->nfunc_args > 3))
        err_raise(ERRCODE_INTERNAL_ERROR, "generate_series with %d arguments", n->nfunc_args);
    exec__srf_start(st->srf, v);
}

static bool fs_next(ExecOp *op, Batch **out)
{
    FuncScanState *st = op->state;
    if (!st->started)
        fs_start(op, st);
    if (st->done)
        return false;
    mem_arena_reset(st->scratch);
    Batch *b = st->out;
    for (int c = 0; c < b->ncols; c++) {
        b->cols[c].validity = NULL;
        b->cols[c].is_const = false;
    }
    uint32_t k = exec__srf_fill(st->srf, b->cols, 0, VEC_CAPACITY, st->scratch);
    if (k < VEC_CAPACITY)
        st->done = true;
    if (op->node->ordinality) {
        int64_t *o = b->cols[b->ncols - 1].data;
        for (uint32_t i = 0; i < k; i++)
            o[i] = ++st->ordinal;
    }
    b->count = k;
    b->sel = NULL;
    *out = b;
    return k > 0;
}

ExecOp *exec__op_function_scan(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(FuncScanState));
    FuncScanState *st = op->state;
    int want = n->ncols - (n->ordinality ? 1 : 0);
    if (want < 1)
        err_raise(ERRCODE_INTERNAL_ERROR, "table function with %d output columns", n->ncols);
    SqlType *at = MEM_NEW_ARRAY(q->arena, SqlType, n->nfunc_args > 0 ? n->nfunc_args : 1);
    for (int i = 0; i < n->nfunc_args; i++)
        at[i] = n->func_args[i]->type;
    st->srf = exec__srf_new(q, n->func_kind, n->nfunc_args, at, want, n->col_types);
    st->scratch = exec__scratch_create(q);
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->next = fs_next;
    return op;
}
