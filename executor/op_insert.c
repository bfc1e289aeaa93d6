/*
 * op_insert.c — the INSERT sink: appends each batch to the target table
 * through storage (the planner already cast every column to the table's
 * types and filled defaults). Constant vectors are flattened first, since
 * storage reads plain vectors.
 *
 * When the statement also reads the target (INSERT INTO t SELECT ... FROM
 * t) rows are buffered and appended at finalize, so the scan never sees
 * the statement's own rows (PostgreSQL's command-id visibility).
 *
 * RETURNING (the node's ncols > 0): always buffered; after finalize the
 * operator is the source of the rows it appended, chunk by chunk.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"

typedef struct InsertState {
    StoreTable *target;
    bool buffered;
    int ncols;
    uint64_t count;
    Batch *flat;         /* flattening buffer */
    ExecColumn *buf;     /* buffered mode */
    uint32_t *idx;
    uint32_t emitted;    /* RETURNING: rows of buf already output */
} InsertState;

static void insert_append(ExecOp *op, Batch *in)
{
    InsertState *st = op->state;
    Batch *b = in;
    bool any_const = false;
    for (int c = 0; c < in->ncols; c++)
        any_const |= in->cols[c].is_const;
    if (any_const) {
        for (int c = 0; c < in->ncols; c++)
            exec__vec_flatten(&in->cols[c], in->sel, in->count, &st->flat->cols[c]);
        st->flat->sel = in->sel;
        st->flat->count = in->count;
        b = st->flat;
    }
    store_table_append(st->target, op->q->txn, b);
    st->count += in->count;
}

static void insert_sink(ExecOp *op, Batch *in)
{
    InsertState *st = op->state;
    if (!st->buffered) {
        insert_append(op, in);
        return;
    }
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    for (int c = 0; c < in->ncols; c++)
        exec__col_append(&st->buf[c], op->q->arena, &in->cols[c], rows, in->count);
}

static void insert_finalize(ExecOp *op)
{
    InsertState *st = op->state;
    if (!st->buffered)
        return;
    int ncols = st->ncols;
    uint32_t total = ncols > 0 ? st->buf[0].count : 0;
    for (uint32_t pos = 0; pos < total; pos += VEC_CAPACITY) {
        err_check_interrupts();
        uint32_t n = total - pos < VEC_CAPACITY ? total - pos : VEC_CAPACITY;
        for (int c = 0; c < ncols; c++)
            exec__col_view(&st->buf[c], pos, &st->flat->cols[c]);
        st->flat->sel = NULL;
        st->flat->count = n;
        store_table_append(st->target, op->q->txn, st->flat);
        st->count += n;
    }
}

/* RETURNING: the appended rows, a chunk of buf at a time. */
static bool insert_next(ExecOp *op, Batch **out)
{
    InsertState *st = op->state;
    uint32_t total = st->ncols > 0 ? st->buf[0].count : 0;
    if (st->emitted >= total)
        return false;
    uint32_t n = total - st->emitted < VEC_CAPACITY ? total - st->emitted : VEC_CAPACITY;
    for (int c = 0; c < st->ncols; c++)
        exec__col_view(&st->buf[c], st->emitted, &st->flat->cols[c]);
    st->flat->sel = NULL;
    st->flat->count = n;
    st->emitted += n;
    *out = st->flat;
    return true;
}

uint64_t exec__insert_count(const ExecOp *op)
{
    return ((const InsertState *)op->state)->count;
}

ExecOp *exec__op_insert(ExecQuery *q, const PlanNode *n, bool buffered)
{
    ExecOp *op = exec__op_new(q, n, sizeof(InsertState));
    InsertState *st = op->state;
    st->target = n->target;
    st->buffered = buffered;
    const PlanNode *child = n->left;
    st->ncols = child->ncols;
    st->flat = exec__batch_new(q, child->ncols, child->col_types);
    if (buffered) {
        st->buf = MEM_NEW_ARRAY(q->arena, ExecColumn, child->ncols > 0 ? child->ncols : 1);
        for (int c = 0; c < child->ncols; c++)
            exec__col_init(&st->buf[c], child->col_types[c], q->arena, 1024);
    }
    op->sink = insert_sink;
    op->finalize = insert_finalize;
    if (n->ncols > 0)
        op->next = insert_next;
    return op;
}
