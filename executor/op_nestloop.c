/*
 * op_nestloop.c — inner nested loop join (joins without equality keys,
 * CROSS JOIN): the inner (right) side is a pipeline sinking into this
 * operator, which keeps its rows; the left side streams through.
 *
 * Two output shapes, chosen per left batch:
 *  - large inner side (≥ VEC_CAPACITY / 2 rows): one left row against a
 *    window of up to VEC_CAPACITY inner rows; the left columns are constant
 *    vectors pointing at that row and the inner columns are zero-copy views
 *    of the stored columns, so a cross join costs no copying at all;
 *  - small inner side: pairs of (left row, inner row) gathered until a
 *    batch is full.
 * The join condition is applied as a selection. Every output batch goes
 * back through the pipeline loop, which checks for cancel each time, so a
 * huge cross join stops within a batch of the request.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"

typedef struct NestLoopState {
    int lcols, rcols;
    ExecColumn *rstore;
    uint32_t nright;
    uint32_t li, rpos;        /* position in the current left batch / inner rows */
    uint16_t *pair_l;
    uint32_t *pair_r;
    ExprProg *cond;
    MemArena *scratch;
    uint16_t *sel;
    Batch *out;
} NestLoopState;

static uint64_t exec_no_valid[VEC_VALIDITY_WORDS];

static void nl_sink(ExecOp *op, Batch *in)
{
    NestLoopState *st = op->state;
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    for (int c = 0; c < st->rcols; c++)
        exec__col_append(&st->rstore[c], op->q->arena, &in->cols[c], rows, in->count);
    if ((uint64_t)st->nright + in->count > UINT32_MAX / 2)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many rows in the inner side of a join");
    st->nright += in->count;
}

/* One left row (as constants) against inner rows [rpos, rpos + n). */
static void nl_window(NestLoopState *st, const Batch *in)
{
    uint32_t row = batch_row(in, st->li);
    for (int c = 0; c < st->lcols; c++) {
        const Vector *src = &in->cols[c];
        Vector *d = &st->out->cols[c];
        uint32_t r = row & exec__mask(src);
        d->type = src->type;
        d->phys = src->phys;
        d->is_const = true;
        d->data = (uint8_t *)src->data + (size_t)r * phys_size(src->phys);
        d->validity = vec_is_valid(src, r) ? NULL : exec_no_valid;
    }
    uint32_t n = st->nright - st->rpos < VEC_CAPACITY ? st->nright - st->rpos : VEC_CAPACITY;
    for (int c = 0; c < st->rcols; c++)
        exec__col_view(&st->rstore[c], st->rpos, &st->out->cols[st->lcols + c]);
    st->out->count = n;
    st->out->sel = NULL;
    st->rpos += n;
    if (st->rpos >= st->nright) {
        st->rpos = 0;
        st->li++;
    }
}

/* Pairs (left row, inner row) gathered until a batch is full. */
static void nl_pairs(NestLoopState *st, const Batch *in)
{
    uint32_t np = 0;
    while (st->li < in->count && np < VEC_CAPACITY) {
        uint16_t row = (uint16_t)batch_row(in, st->li);
        while (st->rpos < st->nright && np < VEC_CAPACITY) {
            st->pair_l[np] = row;
            st->pair_r[np++] = st->rpos++;
        }
        if (st->rpos >= st->nright) {
            st->rpos = 0;
            st->li++;
        }
    }
    exec__join_gather(in, st->pair_l, st->rstore, st->rcols, st->pair_r, np, st->out);
}

static ExecOpResult nl_execute(ExecOp *op, Batch *in, Batch **out)
{
    NestLoopState *st = op->state;
    *out = st->out;
    st->out->count = 0;
    if (st->nright == 0 || in->count == 0)
        return EXEC_NEED_INPUT;
    /* nright is fixed once the inner pipeline finished, so one query uses
     * one shape only (the window shape repoints the left output vectors) */
    if (st->nright >= VEC_CAPACITY / 2)
        nl_window(st, in);
    else
        nl_pairs(st, in);
    exec__join_residual(st->cond, st->scratch, st->sel, st->out);
    if (st->li < in->count)
        return EXEC_HAVE_MORE;
    st->li = 0;
    st->rpos = 0;
    return EXEC_NEED_INPUT;
}

ExecOp *exec__op_nested_loop(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(NestLoopState));
    NestLoopState *st = op->state;
    st->lcols = n->left->ncols;
    st->rcols = n->right->ncols;
    st->rstore = MEM_NEW_ARRAY(q->arena, ExecColumn, st->rcols > 0 ? st->rcols : 1);
    for (int c = 0; c < st->rcols; c++)
        exec__col_init(&st->rstore[c], n->right->col_types[c], q->arena, 1024);
    st->pair_l = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
    st->pair_r = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
    st->sel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
    st->scratch = exec__scratch_create(q);
    if (n->join_filter)
        st->cond = exec__expr_compile(q, n->join_filter, st->scratch);
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->sink = nl_sink;
    op->execute = nl_execute;
    return op;
}
