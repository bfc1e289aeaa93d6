/*
 * op_project.c — the projection operator: one expression program per
 * output column. Column references pass through by pointer (zero copy);
 * computed columns come from the programs' preallocated vectors. The
 * selection vector passes through unchanged.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

typedef struct ProjectState {
    ExprProg **progs;
    MemArena *scratch;
    Batch out;
} ProjectState;

static ExecOpResult project_execute(ExecOp *op, Batch *in, Batch **out)
{
    ProjectState *st = op->state;
    mem_arena_reset(st->scratch);
    for (int c = 0; c < st->out.ncols; c++)
        st->out.cols[c] = *exec__expr_eval(st->progs[c], in, in->sel, in->count);
    st->out.sel = in->sel;
    st->out.count = in->count;
    *out = &st->out;
    return EXEC_NEED_INPUT;
}

ExecOp *exec__op_project(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(ProjectState));
    ProjectState *st = op->state;
    st->scratch = exec__scratch_create(q);
    st->progs = MEM_NEW_ARRAY(q->arena, ExprProg *, n->ncols > 0 ? n->ncols : 1);
    for (int c = 0; c < n->ncols; c++)
        st->progs[c] = exec__expr_compile(q, n->exprs[c], st->scratch);
    st->out.ncols = n->ncols;
    st->out.cols = MEM_NEW_ARRAY(q->arena, Vector, n->ncols > 0 ? n->ncols : 1);
    op->execute = project_execute;
    return op;
}
