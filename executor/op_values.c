/*
 * op_values.c — the VALUES source: constant rows (SELECT without FROM,
 * INSERT ... VALUES), evaluated once at init into column stores and then
 * handed out in batches of up to VEC_CAPACITY rows as zero-copy views.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"

typedef struct ValuesState {
    ExecColumn *cols;
    uint32_t nrows, pos;
    Batch *batch;
} ValuesState;

static bool values_next(ExecOp *op, Batch **out)
{
    ValuesState *st = op->state;
    if (st->pos >= st->nrows)
        return false;
    uint32_t n = st->nrows - st->pos;
    if (n > VEC_CAPACITY)
        n = VEC_CAPACITY;
    for (int c = 0; c < st->batch->ncols; c++)
        exec__col_view(&st->cols[c], st->pos, &st->batch->cols[c]);
    st->batch->count = n;
    st->batch->sel = NULL;
    st->pos += n;
    *out = st->batch;
    return true;
}

ExecOp *exec__op_values(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(ValuesState));
    ValuesState *st = op->state;
    st->nrows = (uint32_t)n->nrows;
    st->cols = MEM_NEW_ARRAY(q->arena, ExecColumn, n->ncols > 0 ? n->ncols : 1);
    st->batch = MEM_NEW(q->arena, Batch);
    st->batch->ncols = n->ncols;
    st->batch->cols = MEM_NEW_ARRAY(q->arena, Vector, n->ncols > 0 ? n->ncols : 1);
    static const uint16_t row0[1] = {0};
    for (int c = 0; c < n->ncols; c++) {
        exec__col_init(&st->cols[c], n->col_types[c], q->arena, st->nrows);
        Vector one;
        vec_init(&one, n->col_types[c], q->arena);
        for (uint32_t r = 0; r < st->nrows; r++) {
            Value v;
            /* In this run's context: outer references (a LATERAL side
             * without FROM) and subplans see the run's state; nested runs
             * and scratch close with the run. */
            exec__eval_const(q, n->rows[r][c], &v);
            one.validity = NULL;
            if (v.is_null)
                vec_set_null(&one, 0);
            else
                vec_set_value(&one, 0, &v);
            exec__col_append(&st->cols[c], q->arena, &one, row0, 1);
        }
    }
    op->next = values_next;
    return op;
}
