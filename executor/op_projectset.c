/*
 * op_projectset.c — set-returning functions in a select list
 * (PLAN_PROJECT_SET, PostgreSQL 10+'s ProjectSet).
 *
 * Per input batch, every SRF's arguments and every plain column are
 * evaluated once, vectorised, over the whole batch. Then each active input
 * row starts its SRFs (srf.c generators) with that row's argument values
 * and asks each for as many rows as fit in the output batch: the SRFs
 * advance in lockstep, the row's output is as long as its longest SRF,
 * shorter ones are padded with NULL, plain columns repeat the row's value.
 * A row continues in the next output batch when the batch fills
 * (EXEC_HAVE_MORE: the pipeline calls again with the same input), so an
 * input row may expand into any number of rows without buffering. Nothing
 * is re-planned or recompiled per row; the per-row work is the generator's
 * start (one call per SRF) and its fill.
 *
 * Memory: argument results live in scratch_in (reset per input batch, so
 * string arguments stay valid while a row is expanded across output
 * batches); strings the generators build (regexp_matches arrays, unescaped
 * json text) go to scratch_out, reset per output batch.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"

typedef struct PsCol {
    bool is_srf;
    ExprProg *prog;          /* plain column */
    Vector *val;             /* its result for the current input batch */
    ExecSrf *srf;            /* SRF column */
    int nargs;
    ExprProg **arg_progs;
    Vector **arg_vals;
    Value *args;             /* one row's argument values */
} PsCol;

typedef struct ProjectSetState {
    int ncols;
    PsCol *cols;
    MemArena *scratch_in, *scratch_out;
    Batch *out;
    bool in_active;          /* an input batch is being expanded */
    uint32_t ipos;           /* position among its active rows */
    bool row_open;           /* the SRFs of row ipos have been started */
    uint32_t *got;           /* per column: rows the SRF wrote in this chunk */
} ProjectSetState;

static void ps_eval_input(ProjectSetState *st, Batch *in)
{
    mem_arena_reset(st->scratch_in);
    for (int c = 0; c < st->ncols; c++) {
        PsCol *pc = &st->cols[c];
        if (!pc->is_srf) {
            pc->val = exec__expr_eval(pc->prog, in, in->sel, in->count);
            continue;
        }
        for (int a = 0; a < pc->nargs; a++)
            pc->arg_vals[a] = exec__expr_eval(pc->arg_progs[a], in, in->sel, in->count);
    }
    st->in_active = true;
    st->ipos = 0;
    st->row_open = false;
}

/* Expand input row `row` into output rows [n, n + room); returns how many
 * were written and whether the row is finished. */
static uint32_t ps_expand_row(ProjectSetState *st, uint32_t row, uint32_t n, uint32_t room, bool *finished)
{
    if (!st->row_open) {
        for (int c = 0; c < st->ncols; c++) {
            PsCol *pc = &st->cols[c];
            if (!pc->is_srf)
                continue;
            for (int a = 0; a < pc->nargs; a++)
                vec_get_value(pc->arg_vals[a], row, &pc->args[a]);
            exec__srf_start(pc->srf, pc->args);
        }
        st->row_open = true;
    }
    uint32_t most = 0;
    bool done = true;
    for (int c = 0; c < st->ncols; c++) {
        PsCol *pc = &st->cols[c];
        if (!pc->is_srf)
            continue;
        st->got[c] = exec__srf_fill(pc->srf, &st->out->cols[c], n, room, st->scratch_out);
        if (st->got[c] == room)
            done = false;
        if (st->got[c] > most)
            most = st->got[c];
    }
    for (int c = 0; c < st->ncols; c++) {
        PsCol *pc = &st->cols[c];
        Vector *o = &st->out->cols[c];
        if (pc->is_srf) {
            for (uint32_t i = st->got[c]; i < most; i++)
                vec_set_null(o, n + i);    /* a shorter SRF: NULL padding */
            continue;
        }
        Value v;
        vec_get_value(pc->val, row, &v);
        for (uint32_t i = 0; i < most; i++)
            vec_set_value(o, n + i, &v);
    }
    *finished = done;
    return most;
}

static ExecOpResult ps_execute(ExecOp *op, Batch *in, Batch **out)
{
    ProjectSetState *st = op->state;
    if (!st->in_active)
        ps_eval_input(st, in);
    mem_arena_reset(st->scratch_out);
    Batch *b = st->out;
    for (int c = 0; c < b->ncols; c++) {
        b->cols[c].validity = NULL;
        b->cols[c].is_const = false;
    }
    uint32_t n = 0;
    while (st->ipos < in->count && n < VEC_CAPACITY) {
        bool finished;
        n += ps_expand_row(st, batch_row(in, st->ipos), n, VEC_CAPACITY - n, &finished);
        if (finished) {
            st->row_open = false;
            st->ipos++;
        }
    }
    b->count = n;
    b->sel = NULL;
    *out = b;
    if (st->ipos < in->count)
        return EXEC_HAVE_MORE;
    st->in_active = false;
    return EXEC_NEED_INPUT;
}

ExecOp *exec__op_project_set(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(ProjectSetState));
    ProjectSetState *st = op->state;
    st->ncols = n->ncols;
    st->scratch_in = exec__scratch_create(q);
    st->scratch_out = exec__scratch_create(q);
    st->cols = MEM_NEW_ARRAY(q->arena, PsCol, n->ncols > 0 ? n->ncols : 1);
    st->got = MEM_NEW_ARRAY(q->arena, uint32_t, n->ncols > 0 ? n->ncols : 1);
    for (int c = 0; c < n->ncols; c++) {
        const Expr *e = n->exprs[c];
        PsCol *pc = &st->cols[c];
        if (e->kind != EXPR_SRF) {
            pc->prog = exec__expr_compile(q, e, st->scratch_in);
            continue;
        }
        pc->is_srf = true;
        pc->nargs = e->nargs;
        int na = e->nargs > 0 ? e->nargs : 1;
        pc->arg_progs = MEM_NEW_ARRAY(q->arena, ExprProg *, na);
        pc->arg_vals = MEM_NEW_ARRAY(q->arena, Vector *, na);
        pc->args = MEM_NEW_ARRAY(q->arena, Value, na);
        SqlType *at = MEM_NEW_ARRAY(q->arena, SqlType, na);
        for (int a = 0; a < e->nargs; a++) {
            pc->arg_progs[a] = exec__expr_compile(q, e->args[a], st->scratch_in);
            at[a] = e->args[a]->type;
        }
        pc->srf = exec__srf_new(q, (TableFuncKind)e->index, e->nargs, at, 1, &n->col_types[c]);
    }
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->execute = ps_execute;
    return op;
}
