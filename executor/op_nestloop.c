/*
 * op_nestloop.c — nested loop join of every kind (joins without equality
 * keys, CROSS JOIN, LATERAL): the inner (right) side is a pipeline sinking
 * into this operator, which keeps its rows; the left side streams through.
 *
 * Two output shapes, chosen once per query:
 *  - large inner side (≥ VEC_CAPACITY / 2 rows) and every lateral join:
 *    one left row against a window of up to VEC_CAPACITY inner rows; the
 *    left columns are constant vectors pointing at that row and the inner
 *    columns are zero-copy views of the stored columns, so a cross join
 *    costs no copying at all;
 *  - small inner side: pairs of (left row, inner row) gathered until a
 *    batch is full.
 * The join condition is applied as a selection; the rows it keeps mark
 * their left row (lmatched, per left batch) and inner row (rmatched bitmap,
 * FULL/RIGHT). LEFT/FULL emit a left batch's unmatched rows null-extended
 * after its last pair batch; FULL/RIGHT emit the unmatched inner rows at
 * flush, after the probe side ended. SEMI/ANTI/ANTI_NULL/MARK consume a
 * left batch whole (a row stops at its first match in the window shape)
 * and output the input under a selection (or plus the mark column); for
 * the null-aware kinds a condition that is NULL means "might match".
 *
 * LATERAL (nlateral > 0): the right subtree is not a pipeline of this plan
 * run: for each left row the lateral arguments are bound and the subtree is
 * re-run (subrun.c: rebuilt, never re-planned) into the inner store, which
 * the row is then joined against. Every output batch goes back through the
 * pipeline loop, which checks for cancel each time.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

typedef struct NestLoopState {
    ExecJoinKind kind;
    bool null_aware, window_shape;
    int lcols, rcols;
    ExecRowSet inner;
    uint32_t nright;
    uint32_t li, rpos;        /* position in the current left batch / inner rows */
    bool started, left_tail;
    uint16_t *pair_l;
    uint32_t *pair_r;
    ExprProg *cond;
    MemArena *scratch;
    uint16_t *sel;
    uint8_t *lmatched;        /* by row index: 1 match, 2 might match (null-aware) */
    uint64_t *rmatched;
    uint32_t flush_pos;
    Batch *pairs, *xleft, *xright;
    Batch semi_out;
    Vector *mark_cols;
    uint16_t *semi_sel;
    /* lateral */
    ExecSubRun *sub;
    ExprProg **largs;
    Vector **largv;
    Value *outer;
    uint32_t lat_row;         /* left position whose inner rows are loaded, +1 */
    MemArena *lscratch;
} NestLoopState;

static uint64_t exec_no_valid[VEC_VALIDITY_WORDS];

static void nl_sink(ExecOp *op, Batch *in)
{
    NestLoopState *st = op->state;
    exec__rowset_append(&st->inner, op->q->arena, in);
    st->nright = st->inner.nrows;
}

static void nl_finalize(ExecOp *op)
{
    NestLoopState *st = op->state;
    if (st->kind == EXEC_JOIN_RIGHT || st->kind == EXEC_JOIN_FULL)
        st->rmatched = mem_calloc(op->q->arena, (size_t)st->nright / 64 + 1, sizeof(uint64_t));
    st->window_shape = st->nright >= VEC_CAPACITY / 2;
}

/* One left row (as constants) against inner rows [rpos, rpos + n). */
static void nl_window(NestLoopState *st, const Batch *in, Batch *out)
{
    uint32_t row = batch_row(in, st->li);
    for (int c = 0; c < st->lcols; c++) {
        const Vector *src = &in->cols[c];
        Vector *d = &out->cols[c];
        uint32_t r = row & exec__mask(src);
        d->type = src->type;
        d->phys = src->phys;
        d->is_const = true;
        d->data = (uint8_t *)src->data + (size_t)r * phys_size(src->phys);
        d->validity = vec_is_valid(src, r) ? NULL : exec_no_valid;
    }
    uint32_t n = st->nright - st->rpos < VEC_CAPACITY ? st->nright - st->rpos : VEC_CAPACITY;
    for (int c = 0; c < st->rcols; c++)
        exec__col_view(&st->inner.cols[c], st->rpos, &out->cols[st->lcols + c]);
    for (uint32_t j = 0; j < n; j++) {
        st->pair_l[j] = (uint16_t)row;
        st->pair_r[j] = st->rpos + j;
    }
    out->count = n;
    out->sel = NULL;
    st->rpos += n;
    if (st->rpos >= st->nright) {
        st->rpos = 0;
        st->li++;
    }
}

/* Pairs (left row, inner row) gathered until a batch is full. */
static void nl_pairs(NestLoopState *st, const Batch *in, Batch *out)
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
    exec__join_gather(in, st->pair_l, st->inner.cols, st->rcols, st->pair_r, np, out);
}

/* LATERAL: load the inner rows of left position li (re-running the subtree). */
static void nl_lateral_load(ExecOp *op, NestLoopState *st, const Batch *in)
{
    if (st->lat_row == st->li + 1)
        return;
    if (st->li == 0 && st->lat_row == 0) {
        mem_arena_reset(st->lscratch);
        for (int k = 0; k < op->node->nlateral; k++)
            st->largv[k] = exec__expr_eval(st->largs[k], in, in->sel, in->count);
    }
    uint32_t row = batch_row(in, st->li);
    for (int k = 0; k < op->node->nlateral; k++)
        vec_get_value(st->largv[k], row & exec__mask(st->largv[k]), &st->outer[k]);
    exec__rowset_clear(&st->inner);
    exec__sub_start(st->sub, st->outer, op->node->nlateral);
    Batch *b;
    while (exec__sub_next(st->sub, &b))
        exec__rowset_append(&st->inner, op->q->arena, b);
    st->nright = st->inner.nrows;
    st->lat_row = st->li + 1;
}

/* Next chunk of pairs into st->pairs; false when the left batch is done. */
static bool nl_chunk(ExecOp *op, NestLoopState *st, const Batch *in)
{
    st->pairs->count = 0;
    if (st->li >= in->count)
        return false;
    if (st->sub) {
        nl_lateral_load(op, st, in);
        if (st->nright == 0) {
            st->li++;
            st->rpos = 0;
            return true;
        }
    } else if (st->nright == 0) {
        st->li = in->count;
        return true;
    }
    if (st->window_shape)
        nl_window(st, in, st->pairs);
    else
        nl_pairs(st, in, st->pairs);
    return true;
}

/* Apply the condition to the pairs and mark matches; null-aware kinds also
 * mark rows whose condition is NULL. */
static void nl_condition(NestLoopState *st)
{
    Batch *p = st->pairs;
    if (p->count == 0)
        return;
    if (st->null_aware && st->cond) {
        mem_arena_reset(st->scratch);
        Vector *pred = exec__expr_eval(st->cond, p, p->sel, p->count);
        const uint8_t *d = pred->data;
        uint32_t m = exec__mask(pred);
        const uint64_t *vb = exec__validity(pred);
        for (uint32_t j = 0; j < p->count; j++) {
            uint32_t r = j & m;
            uint8_t v = (uint8_t)exec__bit(vb, r) ? (d[r] ? 1 : 0) : 2;
            uint8_t *lm = &st->lmatched[st->pair_l[j]];
            if (v == 1 || (v == 2 && *lm == 0))
                *lm = v;
        }
        return;
    }
    exec__join_residual(st->cond, st->scratch, st->sel, p);
    for (uint32_t i = 0; i < p->count; i++) {
        uint32_t j = batch_row(p, i);
        st->lmatched[st->pair_l[j]] = 1;
        if (st->rmatched) {
            uint32_t r = st->pair_r[j];
            st->rmatched[r >> 6] |= UINT64_C(1) << (r & 63);
        }
    }
}

static void nl_begin(NestLoopState *st, const Batch *in)
{
    for (uint32_t i = 0; i < in->count; i++)
        st->lmatched[batch_row(in, i)] = 0;
    st->li = 0;
    st->rpos = 0;
    st->lat_row = 0;
    st->started = true;
    st->left_tail = false;
}

/* The unmatched rows of the left batch, right columns NULL. */
static Batch *nl_left_tail(NestLoopState *st, const Batch *in)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < in->count; i++) {
        uint32_t row = batch_row(in, i);
        st->sel[k] = (uint16_t)row;
        k += st->lmatched[row] == 0;
    }
    Batch *x = st->xleft;
    for (int c = 0; c < st->lcols; c++) {
        Vector *d = &x->cols[c];
        d->is_const = false;
        d->validity = NULL;
        exec__vec_copy_rows(&in->cols[c], st->sel, d, exec__identity_sel, k);
    }
    x->count = k;
    x->sel = NULL;
    return x;
}

/* Semi/anti/mark: the whole left batch, then one output. */
static Batch *nl_left_only(ExecOp *op, NestLoopState *st, Batch *in)
{
    while (nl_chunk(op, st, in)) {
        err_check_interrupts();
        nl_condition(st);
        if (st->window_shape || st->sub) {
            uint32_t row = st->pair_l[0];
            if (st->pairs->count > 0 && st->lmatched[row] == 1 && st->rpos != 0) {
                st->rpos = 0;      /* first match found: skip the rest of this row's inner rows */
                st->li++;
            }
        }
    }
    return exec__join_left_output(st->kind, st->lmatched, in, &st->semi_out, st->mark_cols,
                                  st->semi_sel);
}

static ExecOpResult nl_execute(ExecOp *op, Batch *in, Batch **out)
{
    NestLoopState *st = op->state;
    *out = NULL;
    if (in->count == 0)
        return EXEC_NEED_INPUT;
    if (!st->started)
        nl_begin(st, in);
    if (exec__join_left_only(st->kind)) {
        *out = nl_left_only(op, st, in);
        st->started = false;
        return EXEC_NEED_INPUT;
    }
    bool left_outer = st->kind == EXEC_JOIN_LEFT || st->kind == EXEC_JOIN_FULL;
    if (st->left_tail) {
        *out = nl_left_tail(st, in);
        st->started = false;
        return EXEC_NEED_INPUT;
    }
    if (st->nright == 0 && st->sub == NULL && !left_outer) {
        st->started = false;
        return EXEC_NEED_INPUT;
    }
    nl_chunk(op, st, in);
    nl_condition(st);
    *out = st->pairs;
    if (st->li < in->count)
        return EXEC_HAVE_MORE;
    if (left_outer) {
        st->left_tail = true;
        return EXEC_HAVE_MORE;
    }
    st->started = false;
    return EXEC_NEED_INPUT;
}

/* FULL/RIGHT: the inner rows no left row matched, left columns NULL. */
static bool nl_flush(ExecOp *op, Batch **out)
{
    NestLoopState *st = op->state;
    if (st->rmatched == NULL)
        return false;
    while (st->flush_pos < st->nright) {
        err_check_interrupts();
        uint32_t k = 0;
        while (st->flush_pos < st->nright && k < VEC_CAPACITY) {
            uint32_t r = st->flush_pos++;
            st->pair_r[k] = r;
            k += (uint32_t)((st->rmatched[r >> 6] >> (r & 63)) & 1) ^ 1;
        }
        if (k == 0)
            continue;
        for (int c = 0; c < st->rcols; c++)
            exec__col_gather(&st->inner.cols[c], st->pair_r, k, &st->xright->cols[st->lcols + c]);
        st->xright->count = k;
        st->xright->sel = NULL;
        *out = st->xright;
        return true;
    }
    return false;
}

static Batch *null_side(ExecQuery *q, const PlanNode *n, int from, int to)
{
    int w = n->left->ncols + n->right->ncols;
    SqlType *types = MEM_NEW_ARRAY(q->arena, SqlType, w + 1);
    memcpy(types, n->left->col_types, sizeof(SqlType) * (size_t)n->left->ncols);
    memcpy(types + n->left->ncols, n->right->col_types, sizeof(SqlType) * (size_t)n->right->ncols);
    Batch *b = exec__batch_new(q, w, types);
    for (int c = from; c < to; c++)
        exec__vec_const_null(&b->cols[c], types[c], q->arena);
    return b;
}

static void nl_lateral_init(ExecQuery *q, NestLoopState *st, const PlanNode *n)
{
    st->lscratch = exec__scratch_create(q);
    st->sub = exec__sub_new(q, n->right, true);
    st->largs = MEM_NEW_ARRAY(q->arena, ExprProg *, n->nlateral);
    st->largv = MEM_NEW_ARRAY(q->arena, Vector *, n->nlateral);
    st->outer = MEM_NEW_ARRAY(q->arena, Value, n->nlateral);
    for (int k = 0; k < n->nlateral; k++)
        st->largs[k] = exec__expr_compile(q, n->lateral_args[k], st->lscratch);
    st->window_shape = true;
    if (st->kind == EXEC_JOIN_RIGHT || st->kind == EXEC_JOIN_FULL)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "RIGHT or FULL JOIN with LATERAL is not supported");
}

ExecOp *exec__op_nested_loop(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(NestLoopState));
    NestLoopState *st = op->state;
    MemArena *a = q->arena;
    st->kind = exec__join_kind(n);
    st->null_aware = st->kind == EXEC_JOIN_ANTI_NA || (st->kind == EXEC_JOIN_MARK && n->mark_null_aware);
    st->lcols = n->left->ncols;
    st->rcols = n->right->ncols;
    exec__rowset_init(&st->inner, n->right, a);
    st->pair_l = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->pair_r = mem_alloc(a, VEC_CAPACITY * sizeof(uint32_t));
    st->sel = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->semi_sel = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->lmatched = mem_calloc(a, VEC_CAPACITY, 1);
    st->scratch = exec__scratch_create(q);
    if (n->join_filter)
        st->cond = exec__expr_compile(q, n->join_filter, st->scratch);
    int w = st->lcols + st->rcols;
    st->pairs = null_side(q, n, w, w);
    st->xleft = null_side(q, n, st->lcols, w);
    st->xright = null_side(q, n, 0, st->lcols);
    st->mark_cols = MEM_NEW_ARRAY(a, Vector, st->lcols + 1);
    vec_init(&st->mark_cols[st->lcols], SQLTYPE(TYPE_BOOL), a);
    if (n->nlateral > 0)
        nl_lateral_init(q, st, n);
    else {
        op->sink = nl_sink;
        op->finalize = nl_finalize;
    }
    op->execute = nl_execute;
    op->flush = nl_flush;
    return op;
}
