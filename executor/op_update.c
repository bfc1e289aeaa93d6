/*
 * op_update.c — the UPDATE and DELETE sinks (PLAN_UPDATE, PLAN_DELETE).
 *
 * The child (planner/plan_update.c) yields column 0 = the row locator of
 * the target row version and, for UPDATE, columns 1..n = the new row in
 * table order and types (with RETURNING: DELETE's old row; then, for
 * UPDATE ... FROM / DELETE ... USING, the FROM tables' columns). Rows are collected batch by batch into growable
 * columns and applied at finalize, chunk by chunk, through
 * store_row_update / store_row_delete: the scan below must not meet the
 * statement's own new versions (PostgreSQL's command-id visibility) and a
 * row matched twice is changed once (the second call returns GONE).
 *
 * Concurrency (READ COMMITTED): GONE (deleted by a concurrent committed
 * transaction, or already changed by this statement) skips the row. MOVED
 * (updated by a concurrent transaction that committed after our snapshot)
 * gives the newest version's locator; such locators are collected and,
 * after the chunks, re-checked a round at a time — PostgreSQL's
 * EvalPlanQual done batch-wise: the newest versions are read
 * (store_row_fetch) into the worktable of the node's re-check tree
 * (plan.h, PLAN_UPDATE `right`), the tree re-evaluates the WHERE clause
 * and the SET expressions over them in batches (the rows that no longer
 * match drop out), and the survivors are applied like any other row. A
 * row that moved again meanwhile goes to the next round (chains of moves);
 * a deleted one comes back GONE and is skipped. REPEATABLE READ gets 40001
 * from storage itself.
 *
 * RETURNING (the node's ncols > 0): finalize records which rows were
 * changed; the operator is then the source of columns 1.. of those rows
 * (the new rows of UPDATE, the old rows of DELETE, then FROM columns), a
 * chunk at a time; re-checked rows that were written are appended to the
 * buffer first.
 *
 * Joins (UPDATE ... FROM, DELETE ... USING, WHERE IN/EXISTS): a target row
 * joined to several rows arrives several times; the first write wins and
 * the others return GONE, so it is changed once with an arbitrary match,
 * as in PostgreSQL. The re-check tree of a join re-runs the join for the
 * newest versions (PostgreSQL re-uses the source rows it first joined; the
 * result differs only when a source row changed meanwhile).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

typedef struct ModifyState {
    StoreTable *target;
    bool is_update;
    int ncols;           /* child columns: locator + new row */
    uint64_t count;
    ExecColumn *buf;
    Batch *view;         /* chunk views of buf */
    Batch values;        /* view->cols[1..]: the new rows (table columns) */
    Batch out;           /* RETURNING: view->cols[1..] (the row, then FROM columns) */
    bool returning;
    uint8_t *changed;    /* RETURNING: per buffered row, 1 = written */
    uint32_t changed_cap;
    uint32_t emitted;    /* RETURNING: buffered rows already output */
    uint16_t *sel;       /* RETURNING: changed rows of the current chunk */
    /* EvalPlanQual (READ COMMITTED re-check of MOVED rows) */
    const PlanNode *recheck;  /* the node's `right`, NULL = none */
    const PlanNode *leaf;     /* its PLAN_WORKTABLE_SCAN */
    uint64_t *moved;          /* newest locators awaiting the next round */
    uint32_t nmoved, moved_cap;
    ExecRowSet wt;            /* the round's re-fetched versions */
    Batch *fetch;             /* one row of the leaf's columns */
    ExecSubRun *sub;
} ModifyState;

static void modify_sink(ExecOp *op, Batch *in)
{
    ModifyState *st = op->state;
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    for (int c = 0; c < in->ncols; c++)
        exec__col_append(&st->buf[c], op->q->arena, &in->cols[c], rows, in->count);
}

static _Noreturn void moved_unsupported(void)
{
    err_raise(ERRCODE_T_R_SERIALIZATION_FAILURE, "could not serialize access due to concurrent update");
}

/* Queue a MOVED row's newest locator for the next re-check round. */
static void moved_push(ExecOp *op, ModifyState *st, uint64_t newest)
{
    if (!st->recheck)
        moved_unsupported();
    if (st->nmoved == st->moved_cap) {
        uint32_t cap = st->moved_cap ? st->moved_cap * 2 : 64;
        st->moved = mem_realloc(op->q->arena, st->moved, sizeof(uint64_t) * st->moved_cap,
                                sizeof(uint64_t) * cap);
        st->moved_cap = cap;
    }
    st->moved[st->nmoved++] = newest;
}

/* Write the active row `row` of values over version id. */
static StoreWriteResult write_row(ExecOp *op, ModifyState *st, uint64_t id, const Batch *values, uint32_t row)
{
    uint64_t newest = 0;
    StoreWriteResult r = st->is_update
        ? store_row_update(st->target, op->q->txn, id, values, row, &newest)
        : store_row_delete(st->target, op->q->txn, id, &newest);
    if (r == STORE_WRITE_MOVED)
        moved_push(op, st, newest);
    if (r == STORE_WRITE_OK)
        st->count++;
    return r;
}

/* Apply rows [0, n) of the current chunk view (starting at buffered row pos). */
static void apply_chunk(ExecOp *op, ModifyState *st, uint32_t pos, uint32_t n)
{
    const int64_t *ids = (const int64_t *)st->view->cols[0].data;
    for (uint32_t i = 0; i < n; i++) {
        StoreWriteResult r = write_row(op, st, (uint64_t)ids[i], &st->values, i);
        if (st->changed)
            st->changed[pos + i] = r == STORE_WRITE_OK;
    }
}

/* RETURNING: append rows sel[0..k) of a re-check batch as written rows. */
static void keep_rechecked(ExecOp *op, ModifyState *st, Batch *b, const uint16_t *sel, uint32_t k)
{
    uint32_t total = st->buf[0].count;
    for (int c = 0; c < st->ncols; c++)
        exec__col_append(&st->buf[c], op->q->arena, &b->cols[c], sel, k);
    if (total + k + 1 > st->changed_cap) {
        uint32_t cap = (total + k + 1) * 2;
        st->changed = mem_realloc(op->q->arena, st->changed, st->changed_cap, cap);
        st->changed_cap = cap;
    }
    memset(st->changed + total, 1, k);
}

/* Read the newest versions of this round's MOVED rows into the worktable. */
static void recheck_fetch(ExecOp *op, ModifyState *st)
{
    exec__rowset_clear(&st->wt);
    for (uint32_t i = 0; i < st->nmoved; i++) {
        if (!store_row_fetch(st->target, op->q->txn, st->moved[i], st->leaf->ncols, st->leaf->scan_cols,
                             st->fetch))
            continue;   /* names no row: nothing to change */
        exec__rowset_append(&st->wt, op->q->arena, st->fetch);
    }
    st->nmoved = 0;
}

/* One EvalPlanQual round: re-evaluate the re-check tree over the newest
 * versions and apply the rows that still qualify; rows that moved again
 * are queued for the next round. */
static void recheck_round(ExecOp *op, ModifyState *st)
{
    recheck_fetch(op, st);
    if (st->wt.nrows == 0)
        return;
    ExecShared *sh = op->q->shared;
    sh->worktables[st->leaf->worktable_id] = &st->wt;
    if (!st->sub)
        st->sub = exec__sub_new(op->q, st->recheck, true);
    exec__sub_start(st->sub, op->q->outer, op->q->nouter);
    Batch *b;
    while (exec__sub_next(st->sub, &b)) {
        Batch values = {b->count, b->sel, st->values.ncols, b->cols + 1};
        const int64_t *ids = (const int64_t *)b->cols[0].data;
        uint32_t k = 0;
        for (uint32_t i = 0; i < b->count; i++) {
            uint32_t row = batch_row(b, i);
            st->sel[k] = (uint16_t)row;
            k += write_row(op, st, (uint64_t)ids[row], &values, row) == STORE_WRITE_OK;
        }
        if (st->returning && k > 0)
            keep_rechecked(op, st, b, st->sel, k);
    }
    sh->worktables[st->leaf->worktable_id] = NULL;
}

static void modify_finalize(ExecOp *op)
{
    ModifyState *st = op->state;
    uint32_t total = st->buf[0].count;
    if (st->returning) {
        st->changed_cap = total + 1;
        st->changed = MEM_NEW_ARRAY(op->q->arena, uint8_t, st->changed_cap);
    }
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
    while (st->nmoved > 0) {   /* each round's rows were changed by a later commit */
        err_check_interrupts();
        recheck_round(op, st);
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
        st->out.sel = k == n ? NULL : st->sel;
        st->out.count = k;
        *out = &st->out;
        return true;
    }
    return false;
}

uint64_t exec__modify_count(const ExecOp *op)
{
    return ((const ModifyState *)op->state)->count;
}

/* The re-check tree's leaf: the worktable scan that names a table. */
static const PlanNode *recheck_leaf(const PlanNode *n)
{
    if (!n)
        return NULL;
    if (n->kind == PLAN_WORKTABLE_SCAN && n->table)
        return n;
    const PlanNode *l = recheck_leaf(n->left);
    return l ? l : recheck_leaf(n->right);
}

/* Prepare the EvalPlanQual state. */
static void recheck_init(ExecQuery *q, ModifyState *st, const PlanNode *tree)
{
    const PlanNode *leaf = recheck_leaf(tree);
    ERR_ASSERT(leaf != NULL);
    st->recheck = tree;
    st->leaf = leaf;
    exec__rowset_init(&st->wt, leaf, q->arena);
    st->fetch = exec__batch_new(q, leaf->ncols, leaf->col_types);
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
    st->values.ncols = st->is_update ? store_table_ncols(n->target) : 0;
    st->values.cols = st->view->cols + 1;
    st->values.sel = NULL;
    st->out.ncols = child->ncols - 1;   /* RETURNING: the row, then FROM columns */
    st->out.cols = st->view->cols + 1;
    st->buf = MEM_NEW_ARRAY(q->arena, ExecColumn, child->ncols);
    for (int c = 0; c < child->ncols; c++)
        exec__col_init(&st->buf[c], child->col_types[c], q->arena, 1024);
    op->sink = modify_sink;
    op->finalize = modify_finalize;
    st->sel = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    if (n->ncols > 0) {
        st->returning = true;
        op->next = modify_next;
    }
    if (n->right && q->shared)
        recheck_init(q, st, n->right);
    return op;
}
