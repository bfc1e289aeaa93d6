/*
 * op_limit.c — LIMIT/OFFSET: skips offset rows, passes limit rows, and then
 * tells its pipeline to stop pulling the source (a LIMIT 10 over a huge
 * scan reads one batch, not the table).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"

typedef struct LimitState {
    int64_t offset_left;
    int64_t limit_left;    /* -1 = no limit */
    uint16_t *sel;
    Batch out;
} LimitState;

static ExecOpResult limit_execute(ExecOp *op, Batch *in, Batch **out)
{
    LimitState *st = op->state;
    uint32_t n = in->count;
    uint32_t skip = st->offset_left < (int64_t)n ? (uint32_t)st->offset_left : n;
    st->offset_left -= skip;
    uint32_t take = n - skip;
    if (st->limit_left >= 0) {
        if ((int64_t)take > st->limit_left)
            take = (uint32_t)st->limit_left;
        st->limit_left -= take;
        if (st->limit_left == 0)
            op->pipe->stop = true;
    }
    if (skip == 0 && take == n) {
        *out = in;
        return EXEC_NEED_INPUT;
    }
    for (uint32_t i = 0; i < take; i++)
        st->sel[i] = (uint16_t)batch_row(in, skip + i);
    st->out.ncols = in->ncols;
    st->out.cols = in->cols;
    st->out.sel = st->sel;
    st->out.count = take;
    *out = &st->out;
    return EXEC_NEED_INPUT;
}

int64_t exec__limit_total(const ExecOp *op)
{
    const LimitState *st = op->state;
    if (st->limit_left < 0 || st->offset_left > INT64_MAX - st->limit_left)
        return -1;
    return st->offset_left + st->limit_left;
}

ExecOp *exec__op_limit(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(LimitState));
    LimitState *st = op->state;
    st->limit_left = -1;
    int64_t v;
    if (n->offset && exec__eval_int8(q, n->offset, &v)) {
        if (v < 0)
            err_raise(ERRCODE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, "OFFSET must not be negative");
        st->offset_left = v;
    }
    if (n->limit && exec__eval_int8(q, n->limit, &v)) {
        if (v < 0)
            err_raise(ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, "LIMIT must not be negative");
        st->limit_left = v;
    }
    st->sel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
    op->execute = limit_execute;
    return op;
}
