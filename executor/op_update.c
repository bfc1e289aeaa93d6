/*
 * op_update.c — the UPDATE and DELETE sinks (PLAN_UPDATE, PLAN_DELETE).
 *
 * The child (planner/plan_update.c) yields column 0 = the row locator of
 * the target row version and, for UPDATE, columns 1..n = the new row in
 * table order and types. Rows are collected batch by batch into growable
 * columns and applied at finalize, chunk by chunk, through
 * store_row_update / store_row_delete: the scan below must not meet the
 * statement's own new versions (PostgreSQL's command-id visibility) and a
 * row matched twice is changed once (the second call returns GONE).
 *
 * Concurrency: GONE (deleted by a concurrent committed transaction, or
 * already changed by this statement) skips the row. MOVED (READ COMMITTED,
 * the row was updated concurrently) would need the WHERE clause and SET
 * expressions re-evaluated on the newest version (EvalPlanQual), which the
 * executor cannot do yet: it raises 40001 instead. REPEATABLE READ gets
 * 40001 from storage itself.
 *
 * RETURNING (the node's ncols > 0): finalize records which rows were
 * changed; the operator is then the source of columns 1..n of those rows
 * (the new rows of UPDATE, the old rows of DELETE), a chunk at a time.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"

typedef struct ModifyState {
    StoreTable *target;
    bool is_update;
    int ncols;           /* child columns: locator + new row */
    uint64_t count;
    ExecColumn *buf;
    Batch *view;         /* chunk views of buf */
    Batch values;        /* view->cols[1..]: the new rows */
    bool returning;
    uint8_t *changed;    /* RETURNING: per buffered row, 1 = written */
    uint32_t emitted;    /* RETURNING: buffered rows already output */
    uint16_t *sel;       /* RETURNING: changed rows of the current chunk */
} ModifyState;

static void modify_sink(ExecOp *op, Batch *in)
{
    ModifyState *st = op->state;
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    for (int c = 0; c < in->ncols; c++)
        exec__col_append(&st->buf[c], op->q->arena, &in->cols[c], rows, in->count);
}

static _Noreturn void moved(void)
{
    err_raise(ERRCODE_T_R_SERIALIZATION_FAILURE, "could not serialize access due to concurrent update");
}

/* Apply rows [0, n) of the current chunk view (starting at buffered row pos). */
static void apply_chunk(ExecOp *op, ModifyState *st, uint32_t pos, uint32_t n)
{
    const int64_t *ids = (const int64_t *)st->view->cols[0].data;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t newest = 0;
        StoreWriteResult r = st->is_update
            ? store_row_update(st->target, op->q->txn, (uint64_t)ids[i], &st->values, i, &newest)
            : store_row_delete(st->target, op->q->txn, (uint64_t)ids[i], &newest);
        if (r == STORE_WRITE_MOVED)
            moved();
        if (r == STORE_WRITE_OK)
            st->count++;
        if (st->changed)
            st->changed[pos + i] = r == STORE_WRITE_OK;
    }
}

static void modify_finalize(ExecOp *op)
{
    ModifyState *st = op->state;
    uint32_t total = st->buf[0].count;
    if (st->returning)
        st->changed = MEM_NEW_ARRAY(op->q->arena, uint8_t, total + 1);
    for (uint32_t pos = 0; pos < total; pos += VEC_CAPACITY) {
        err_check_interrupts();
        uint32_t n = total - pos < VEC_CAPACITY ? total - pos : VEC_CAPACITY;
        for (int c = 0; c < st->ncols; c++)
            exec__col_view(&st->buf[c], pos, &st->view->cols[c]);
        st->view->sel = NULL;
        st->view->count = n;
        st->values.count = n;
        apply_chunk(op, st, pos, n);
    }
}

/* RETURNING: the changed rows' columns 1..n, a chunk of the buffer at a time. */
static bool modify_next(ExecOp *op, Batch **out)
{
    ModifyState *st = op->state;
    uint32_t total = st->buf[0].count;
    while (st->emitted < total) {
        uint32_t pos = st->emitted;
        uint32_t n = total - pos < VEC_CAPACITY ? total - pos : VEC_CAPACITY;
        st->emitted += n;
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            st->sel[k] = (uint16_t)i;
            k += st->changed[pos + i];
        }
        if (k == 0)
            continue;
        for (int c = 0; c < st->ncols; c++)
            exec__col_view(&st->buf[c], pos, &st->view->cols[c]);
        st->values.sel = k == n ? NULL : st->sel;
        st->values.count = k;
        *out = &st->values;
        return true;
    }
    return false;
}

uint64_t exec__modify_count(const ExecOp *op)
{
    return ((const ModifyState *)op->state)->count;
}

ExecOp *exec__op_modify(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(ModifyState));
    ModifyState *st = op->state;
    const PlanNode *child = n->left;
    ERR_ASSERT(child->ncols >= 1);
    st->target = n->target;
    st->is_update = n->kind == PLAN_UPDATE;
    st->ncols = child->ncols;
    st->view = exec__batch_new(q, child->ncols, child->col_types);
    st->values.ncols = child->ncols - 1;
    st->values.cols = st->view->cols + 1;
    st->values.sel = NULL;
    st->buf = MEM_NEW_ARRAY(q->arena, ExecColumn, child->ncols);
    for (int c = 0; c < child->ncols; c++)
        exec__col_init(&st->buf[c], child->col_types[c], q->arena, 1024);
    op->sink = modify_sink;
    op->finalize = modify_finalize;
    if (n->ncols > 0) {
        st->returning = true;
        st->sel = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
        op->next = modify_next;
    }
    return op;
}
