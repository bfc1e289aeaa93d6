/*
 * op_setop.c — INTERSECT / EXCEPT [ALL] (and UNION [ALL], which the planner
 * normally emits as APPEND under DISTINCT): both inputs sink into one hash
 * table of distinct rows (grouptab.c, NULLs equal) with a count per side;
 * once both are in, every row is emitted as many times as the operation
 * says: INTERSECT 1 if m > 0 and n > 0, INTERSECT ALL min(m, n), EXCEPT 1 if
 * m > 0 and n == 0, EXCEPT ALL max(m - n, 0), UNION 1, UNION ALL m + n.
 *
 * Pipelines: the left child's pipeline sinks into this operator, the right
 * child's into a small adapter operator that shares its state; the operator
 * is then the source of its parent's pipeline. Output rows are gathered
 * from the table's key columns, a batch at a time, in first-seen order.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

typedef struct SetOpState {
    SetOpKind kind;
    bool all;
    int ncols;
    ExecGroupTable gt;
    int64_t *cnt[2];
    uint32_t cap;
    uint32_t *group_of;
    Vector **keys;
    /* output */
    uint32_t pos;
    int64_t rep_left;        /* copies of group pos still to emit */
    uint32_t *idx;
    Batch *out;
} SetOpState;

static void setop_add(ExecOp *op, Batch *in, int side)
{
    SetOpState *st = op->state;
    MemArena *a = op->q->arena;
    for (int c = 0; c < st->ncols; c++)
        st->keys[c] = &in->cols[c];
    exec__gt_lookup(&st->gt, st->keys, in->sel, in->count, st->group_of);
    if (st->gt.ngroups > st->cap) {
        uint32_t cap = st->cap;
        while (cap < st->gt.ngroups)
            cap *= 2;
        for (int s = 0; s < 2; s++) {
            int64_t *nc = mem_calloc(a, cap, sizeof(int64_t));
            memcpy(nc, st->cnt[s], st->cap * sizeof(int64_t));
            st->cnt[s] = nc;
        }
        st->cap = cap;
    }
    int64_t *restrict cnt = st->cnt[side];
    for (uint32_t i = 0; i < in->count; i++)
        cnt[st->group_of[i]]++;
}

static void setop_sink_left(ExecOp *op, Batch *in) { setop_add(op, in, 0); }
static void setop_sink_right(ExecOp *op, Batch *in) { setop_add(op, in, 1); }

static int64_t copies(const SetOpState *st, int64_t m, int64_t n)
{
    switch (st->kind) {
    case SETOP_INTERSECT: return st->all ? (m < n ? m : n) : (m > 0 && n > 0);
    case SETOP_EXCEPT: return st->all ? (m > n ? m - n : 0) : (m > 0 && n == 0);
    case SETOP_UNION: return st->all ? m + n : (m + n > 0);
    }
    return 0;
}

static bool setop_next(ExecOp *op, Batch **out)
{
    SetOpState *st = op->state;
    uint32_t k = 0;
    while (k < VEC_CAPACITY && st->pos < st->gt.ngroups) {
        if ((st->pos & 0xFFFF) == 0)
            err_check_interrupts();
        if (st->rep_left < 0)
            st->rep_left = copies(st, st->cnt[0][st->pos], st->cnt[1][st->pos]);
        while (st->rep_left > 0 && k < VEC_CAPACITY) {
            st->idx[k++] = st->pos;
            st->rep_left--;
        }
        if (st->rep_left == 0) {
            st->pos++;
            st->rep_left = -1;
        }
    }
    if (k == 0)
        return false;
    for (int c = 0; c < st->ncols; c++)
        exec__col_gather(&st->gt.keys[c], st->idx, k, &st->out->cols[c]);
    st->out->count = k;
    st->out->sel = NULL;
    *out = st->out;
    return true;
}

ExecOp *exec__op_setop(ExecQuery *q, const PlanNode *n)
{
    if (n->ncols < 1)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "set operation without columns is not supported");
    ExecOp *op = exec__op_new(q, n, sizeof(SetOpState));
    SetOpState *st = op->state;
    st->kind = n->setop;
    st->all = n->setop_all;
    st->ncols = n->ncols;
    exec__gt_init(&st->gt, q->arena, n->ncols, n->col_types);
    st->cap = 1024;
    st->cnt[0] = mem_calloc(q->arena, st->cap, sizeof(int64_t));
    st->cnt[1] = mem_calloc(q->arena, st->cap, sizeof(int64_t));
    st->group_of = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
    st->keys = MEM_NEW_ARRAY(q->arena, Vector *, n->ncols);
    st->idx = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
    st->rep_left = -1;
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->sink = setop_sink_left;
    op->next = setop_next;
    return op;
}

ExecOp *exec__op_setop_right(ExecQuery *q, ExecOp *setop)
{
    ExecOp *op = MEM_NEW(q->arena, ExecOp);
    op->q = q;
    op->node = setop->node;
    op->state = setop->state;
    op->sink = setop_sink_right;
    return op;
}
