/*
 * op_filter.c — the filter operator: evaluates the predicate over the
 * batch's active rows and narrows the selection vector (no data moves).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

typedef struct FilterState {
    ExprProg *pred;
    MemArena *scratch;
    uint16_t *sel;
    Batch out;
} FilterState;

static ExecOpResult filter_execute(ExecOp *op, Batch *in, Batch **out)
{
    FilterState *st = op->state;
    mem_arena_reset(st->scratch);
    Vector *p = exec__expr_eval(st->pred, in, in->sel, in->count);
    st->out.ncols = in->ncols;
    st->out.cols = in->cols;
    st->out.count = exec__select_true(p, in->sel, in->count, st->sel);
    st->out.sel = st->sel;
    *out = &st->out;
    return EXEC_NEED_INPUT;
}

ExecOp *exec__op_filter(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(FilterState));
    FilterState *st = op->state;
    st->scratch = exec__scratch_create(q);
    st->pred = exec__expr_compile(q, n->predicate, st->scratch);
    st->sel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
    op->execute = filter_execute;
    return op;
}
