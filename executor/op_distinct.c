/*
 * op_distinct.c — SELECT DISTINCT as a streaming operator: a group table
 * over all columns; a row passes when it creates a new group.
 *
 * Why streaming rather than a breaker: the first occurrence of each row can
 * be emitted at once, which keeps input order (a Sort below stays sorted)
 * and lets a LIMIT above stop the scan early. Memory: the table of distinct
 * rows, in the query arena.
 *
 * DISTINCT ON (keys): the same with the table over the key columns only —
 * the first row of each key combination in input order passes; the planner
 * sorts the input by the keys (then the rest of ORDER BY) first, so that is
 * PostgreSQL's "first row of each group". (A sorted input would allow a
 * constant-memory adjacent comparison; the hash set also works unsorted.)
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>

typedef struct DistinctState {
    ExecGroupTable gt;
    uint32_t *group_of;
    uint8_t *is_new;
    int nkeys;
    const int *keycols;     /* DISTINCT ON: the key columns; NULL = all */
    Vector **keys;
    uint16_t *sel;
    Batch out;
} DistinctState;

static ExecOpResult distinct_execute(ExecOp *op, Batch *in, Batch **out)
{
    DistinctState *st = op->state;
    for (int c = 0; c < st->nkeys; c++)
        st->keys[c] = &in->cols[st->keycols ? st->keycols[c] : c];
    uint32_t nnew = exec__gt_lookup(&st->gt, st->keys, in->sel, in->count, st->group_of);
    memset(st->is_new, 0, in->count);
    for (uint32_t j = 0; j < nnew; j++)
        st->is_new[st->gt.newpos[j]] = 1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < in->count; i++) {
        st->sel[k] = (uint16_t)batch_row(in, i);
        k += st->is_new[i];
    }
    st->out.ncols = in->ncols;
    st->out.cols = in->cols;
    st->out.sel = st->sel;
    st->out.count = k;
    *out = &st->out;
    return EXEC_NEED_INPUT;
}

ExecOp *exec__op_distinct(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(DistinctState));
    DistinctState *st = op->state;
    st->nkeys = n->ndistinct_on > 0 ? n->ndistinct_on : n->ncols;
    st->keycols = n->ndistinct_on > 0 ? n->distinct_on : NULL;
    SqlType *types = MEM_NEW_ARRAY(q->arena, SqlType, st->nkeys > 0 ? st->nkeys : 1);
    for (int k = 0; k < st->nkeys; k++)
        types[k] = n->col_types[st->keycols ? st->keycols[k] : k];
    exec__gt_init_sized(&st->gt, q->arena, st->nkeys, types, n->est_rows);
    st->group_of = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
    st->is_new = mem_alloc(q->arena, VEC_CAPACITY);
    st->keys = MEM_NEW_ARRAY(q->arena, Vector *, st->nkeys > 0 ? st->nkeys : 1);
    st->sel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
    op->execute = distinct_execute;
    return op;
}
