/*
 * op_union.c — sources that read other subtrees through nested runs
 * (subrun.c): APPEND (UNION ALL), CTE scans, recursive union and its
 * worktable scans.
 *
 *  - APPEND pulls its children one after the other, batch by batch; each
 *    child is a nested run started when it is reached (so a LIMIT above
 *    that is satisfied early never starts the later children).
 *  - CTE scan: the WITH query (cte_plan) runs at most once per portal run,
 *    on the first read by any scan of that cte_id, into a row set in the
 *    portal's query arena (ExecShared.ctes); every scan then hands out
 *    zero-copy views of it from the start.
 *  - Recursive union: runs the non-recursive term (emitting its rows and
 *    collecting them as the worktable), then re-runs the recursive term —
 *    rebuilt per iteration, its WORKTABLE_SCANs reading the previous
 *    iteration's rows — until an iteration produces no row. For UNION (not
 *    ALL) a hash set of every row emitted so far drops duplicates (NULLs
 *    equal). There is no iteration cap: like PostgreSQL, a recursion that
 *    never ends runs until the statement is cancelled (statement_timeout
 *    or a cancel request; cancel is checked per batch and per iteration).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

/* ---------- APPEND ---------- */

typedef struct AppendState {
    int n, cur;
    ExecSubRun **subs;
} AppendState;

static bool append_next(ExecOp *op, Batch **out)
{
    AppendState *st = op->state;
    while (st->cur < st->n) {
        if (exec__sub_next(st->subs[st->cur], out))
            return true;
        st->cur++;
    }
    return false;
}

ExecOp *exec__op_append(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(AppendState));
    AppendState *st = op->state;
    st->n = n->nchildren;
    st->subs = MEM_NEW_ARRAY(q->arena, ExecSubRun *, n->nchildren > 0 ? n->nchildren : 1);
    for (int i = 0; i < n->nchildren; i++)
        st->subs[i] = exec__sub_new(q, n->children[i], false);
    op->next = append_next;
    return op;
}

/* ---------- CTE scan ---------- */

typedef struct CteScanState {
    ExecRowSet *rs;
    uint32_t pos;
    Batch *out;
} CteScanState;

static void cte_materialise(ExecOp *op, const PlanNode *n)
{
    ExecShared *sh = op->q->shared;
    ExecRowSet *rs = &sh->ctes[n->cte_id];
    ExecQuery *mq = sh->main;
    exec__rowset_init(rs, n->cte_plan, sh->arena);
    ExecSubRun *sub = exec__sub_new(mq, n->cte_plan, false);
    Batch *b;
    while (exec__sub_next(sub, &b))
        exec__rowset_append(rs, sh->arena, b);
    rs->done = true;
}

static bool cte_next(ExecOp *op, Batch **out)
{
    CteScanState *st = op->state;
    if (st->rs == NULL) {
        ExecShared *sh = op->q->shared;
        int id = op->node->cte_id;
        if (sh == NULL || id < 0 || id >= sh->nctes)
            err_raise(ERRCODE_INTERNAL_ERROR, "CTE %d is not part of the plan", id);
        if (!sh->ctes[id].done) {
            if (sh->ctes[id].cols != NULL)
                err_raise(ERRCODE_INTERNAL_ERROR, "CTE %d refers to itself", id);
            cte_materialise(op, op->node);
        }
        st->rs = &sh->ctes[id];
    }
    if (st->pos >= st->rs->nrows)
        return false;
    exec__rowset_view(st->rs, st->pos, st->out);
    st->pos += st->out->count;
    *out = st->out;
    return true;
}

ExecOp *exec__op_cte_scan(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(CteScanState));
    CteScanState *st = op->state;
    st->out = MEM_NEW(q->arena, Batch);
    st->out->ncols = n->ncols;
    st->out->cols = MEM_NEW_ARRAY(q->arena, Vector, n->ncols > 0 ? n->ncols : 1);
    op->next = cte_next;
    return op;
}

/* ---------- worktable scan ---------- */

static bool worktable_next(ExecOp *op, Batch **out)
{
    CteScanState *st = op->state;
    ExecShared *sh = op->q->shared;
    int id = op->node->worktable_id;
    if (sh == NULL || id < 0 || id >= sh->nworktables || sh->worktables[id] == NULL)
        err_raise(ERRCODE_INTERNAL_ERROR, "worktable %d read outside its recursive union", id);
    const ExecRowSet *rs = sh->worktables[id];
    if (st->pos >= rs->nrows)
        return false;
    exec__rowset_view(rs, st->pos, st->out);
    st->pos += st->out->count;
    *out = st->out;
    return true;
}

ExecOp *exec__op_worktable_scan(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_cte_scan(q, n);
    op->next = worktable_next;
    return op;
}

/* ---------- recursive union ---------- */

typedef struct RecUnionState {
    ExecSubRun *left, *right;
    bool in_right;
    ExecRowSet sets[2];
    int work;                 /* index of the rowset the scans read */
    ExecGroupTable *seen;     /* UNION: every row emitted so far */
    Vector **keys;
    uint32_t *group_of;
    uint16_t *sel;
    Batch out;
} RecUnionState;

/* Drop rows already emitted (UNION), keep the rest as the next worktable. */
static Batch *ru_accept(ExecOp *op, RecUnionState *st, Batch *b)
{
    if (st->seen) {
        for (int c = 0; c < b->ncols; c++)
            st->keys[c] = &b->cols[c];
        uint32_t nnew = exec__gt_lookup(st->seen, st->keys, b->sel, b->count, st->group_of);
        for (uint32_t j = 0; j < nnew; j++)
            st->sel[j] = (uint16_t)batch_row(b, st->seen->newpos[j]);
        st->out.ncols = b->ncols;
        st->out.cols = b->cols;
        st->out.sel = st->sel;
        st->out.count = nnew;
        b = &st->out;
    }
    exec__rowset_append(&st->sets[st->work ^ 1], op->q->arena, b);
    return b;
}

/* Start an iteration of the recursive term over the rows just produced;
 * false when there were none. */
static bool ru_iterate(ExecOp *op, RecUnionState *st)
{
    err_check_interrupts();
    st->work ^= 1;
    exec__rowset_clear(&st->sets[st->work ^ 1]);
    ExecRowSet *wt = &st->sets[st->work];
    if (wt->nrows == 0)
        return false;
    op->q->shared->worktables[op->node->worktable_id] = wt;
    exec__sub_start(st->right, op->q->outer, op->q->nouter);
    st->in_right = true;
    return true;
}

static bool ru_next(ExecOp *op, Batch **out)
{
    RecUnionState *st = op->state;
    Batch *b;
    for (;;) {
        ExecSubRun *src = st->in_right ? st->right : st->left;
        if (exec__sub_next(src, &b)) {
            b = ru_accept(op, st, b);
            if (b->count == 0)
                continue;
            *out = b;
            return true;
        }
        if (!ru_iterate(op, st))
            return false;
    }
}

ExecOp *exec__op_recursive_union(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(RecUnionState));
    RecUnionState *st = op->state;
    ExecShared *sh = q->shared;
    if (sh == NULL || n->worktable_id < 0 || n->worktable_id >= sh->nworktables)
        err_raise(ERRCODE_INTERNAL_ERROR, "recursive union without a worktable");
    st->left = exec__sub_new(q, n->left, false);
    st->right = exec__sub_new(q, n->right, true);
    exec__rowset_init(&st->sets[0], n, q->arena);
    exec__rowset_init(&st->sets[1], n, q->arena);
    st->work = 1;            /* the left term's rows go to sets[0] */
    if (!n->setop_all && n->ncols > 0) {
        st->seen = MEM_NEW(q->arena, ExecGroupTable);
        exec__gt_init(st->seen, q->arena, n->ncols, n->col_types);
        st->keys = MEM_NEW_ARRAY(q->arena, Vector *, n->ncols);
        st->group_of = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
        st->sel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
    }
    op->next = ru_next;
    return op;
}
