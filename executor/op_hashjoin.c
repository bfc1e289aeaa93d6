/*
 * op_hashjoin.c — inner hash join: the build side (right child) is a
 * pipeline that sinks into this operator; the probe side (left child)
 * streams through it.
 *
 * Build: every right row with no NULL key is kept in column stores (all
 * right columns plus the evaluated keys) with its hash; finalize links rows
 * into bucket chains (heads/next arrays sized once, power of two, about two
 * buckets per row). Chains are built back to front so each lists rows in
 * input order.
 *
 * Probe, per left batch: evaluate the keys and hash them once; then walk
 * the chains collecting up to VEC_CAPACITY candidate pairs (left row, build
 * row) with equal hashes, compare the keys column by column over all pairs
 * at once, gather the matching pairs into the output vectors (left columns
 * then right columns), and apply the residual filter as a selection. When
 * the pairs fill a batch before the left batch is exhausted, the operator
 * returns HAVE_MORE and resumes where it stopped.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

typedef struct HashJoinState {
    int lcols, rcols, nkeys;
    /* build side */
    ExprProg **rkeys;
    ExecColumn *rstore, *rkeystore;
    uint64_t *rhash;
    uint32_t nbuild, hash_cap;
    uint32_t *heads, *next, mask;
    uint16_t *keep;
    uint64_t *tmp_hash;
    MemArena *bscratch;
    /* probe side */
    ExprProg **lkeys;
    Vector **lkeyvec;
    uint64_t *lhash;
    uint8_t *lnull;
    bool started;
    uint32_t pos, chain;
    uint16_t *pair_l;
    uint32_t *pair_r;
    uint8_t *eq;
    MemArena *pscratch, *rscratch;
    ExprProg *residual;
    uint16_t *sel;
    Batch *out;
} HashJoinState;

/* Rows of `rows` whose key vectors are all non-NULL, into keep; returns count. */
static uint32_t nonnull_rows(Vector *const *keys, int nkeys, const uint16_t *rows, uint32_t n, uint16_t *keep)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ok = 1;
        for (int j = 0; j < nkeys; j++)
            ok &= (uint32_t)exec__bit(exec__validity(keys[j]), rows[i] & exec__mask(keys[j]));
        keep[k] = rows[i];
        k += ok;
    }
    return k;
}

static void hj_build_sink(ExecOp *op, Batch *in)
{
    HashJoinState *st = op->state;
    MemArena *a = op->q->arena;
    mem_arena_reset(st->bscratch);
    Vector *keys[16];
    for (int k = 0; k < st->nkeys; k++)
        keys[k] = exec__expr_eval(st->rkeys[k], in, in->sel, in->count);
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    uint32_t n = nonnull_rows(keys, st->nkeys, rows, in->count, st->keep);
    if (n == 0)
        return;
    for (int c = 0; c < st->rcols; c++)
        exec__col_append(&st->rstore[c], a, &in->cols[c], st->keep, n);
    for (int k = 0; k < st->nkeys; k++) {
        exec__col_append(&st->rkeystore[k], a, keys[k], st->keep, n);
        exec__hash_vector(keys[k], st->keep, n, st->tmp_hash, k == 0);
    }
    if (st->nbuild + n > st->hash_cap) {
        uint32_t cap = st->hash_cap * 2;
        while (cap < st->nbuild + n)
            cap *= 2;
        st->rhash = mem_realloc(a, st->rhash, st->hash_cap * sizeof(uint64_t), cap * sizeof(uint64_t));
        st->hash_cap = cap;
    }
    memcpy(st->rhash + st->nbuild, st->tmp_hash, n * sizeof(uint64_t));
    st->nbuild += n;
}

static void hj_build_finalize(ExecOp *op)
{
    HashJoinState *st = op->state;
    uint64_t nb = 1024;
    while (nb < (uint64_t)st->nbuild * 2)
        nb *= 2;
    st->mask = (uint32_t)nb - 1;
    st->heads = mem_calloc(op->q->arena, (size_t)nb, sizeof(uint32_t));
    st->next = mem_alloc(op->q->arena, (size_t)st->nbuild * sizeof(uint32_t) + 1);
    for (uint32_t i = st->nbuild; i-- > 0;) {
        uint32_t b = (uint32_t)st->rhash[i] & st->mask;
        st->next[i] = st->heads[b];
        st->heads[b] = i + 1;
    }
}

static void hj_start(HashJoinState *st, Batch *in)
{
    mem_arena_reset(st->pscratch);
    for (int k = 0; k < st->nkeys; k++) {
        st->lkeyvec[k] = exec__expr_eval(st->lkeys[k], in, in->sel, in->count);
        exec__hash_vector(st->lkeyvec[k], in->sel, in->count, st->lhash, k == 0);
    }
    memset(st->lnull, 0, in->count);
    for (int k = 0; k < st->nkeys; k++) {
        const Vector *v = st->lkeyvec[k];
        if (v->validity == NULL)
            continue;
        for (uint32_t i = 0; i < in->count; i++)
            st->lnull[i] |= (uint8_t)!exec__bit(v->validity, batch_row(in, i) & exec__mask(v));
    }
    st->pos = 0;
    st->chain = in->count && !st->lnull[0] ? st->heads[st->lhash[0] & st->mask] : 0;
    st->started = true;
}

/* Collect candidate pairs with equal hashes; returns how many. */
static uint32_t hj_collect(HashJoinState *st, const Batch *in)
{
    uint32_t np = 0;
    while (st->pos < in->count && np < VEC_CAPACITY) {
        if (st->chain == 0) {
            if (++st->pos < in->count)
                st->chain = st->lnull[st->pos] ? 0 : st->heads[st->lhash[st->pos] & st->mask];
            continue;
        }
        uint32_t e = st->chain - 1;
        st->pair_l[np] = (uint16_t)batch_row(in, st->pos);
        st->pair_r[np] = e;
        np += st->rhash[e] == st->lhash[st->pos];
        st->chain = st->next[e];
    }
    return np;
}

/* Output = left columns of pair_l rows then right columns of pair_r rows. */
void exec__join_gather(const Batch *in, const uint16_t *pair_l, const ExecColumn *rstore, int rcols,
                       const uint32_t *pair_r, uint32_t n, Batch *out)
{
    for (int c = 0; c < in->ncols; c++) {
        Vector *d = &out->cols[c];
        d->is_const = false;
        d->validity = NULL;
        exec__vec_copy_rows(&in->cols[c], pair_l, d, exec__identity_sel, n);
    }
    for (int c = 0; c < rcols; c++)
        exec__col_gather(&rstore[c], pair_r, n, &out->cols[in->ncols + c]);
    out->count = n;
    out->sel = NULL;
}

/* Apply a residual/join condition to out as a selection. */
void exec__join_residual(ExprProg *p, MemArena *scratch, uint16_t *sel, Batch *out)
{
    if (p == NULL || out->count == 0)
        return;
    mem_arena_reset(scratch);
    Vector *pred = exec__expr_eval(p, out, out->sel, out->count);
    out->count = exec__select_true(pred, out->sel, out->count, sel);
    out->sel = sel;
}

static ExecOpResult hj_execute(ExecOp *op, Batch *in, Batch **out)
{
    HashJoinState *st = op->state;
    *out = st->out;
    st->out->count = 0;
    if (st->nbuild == 0) {
        op->pipe->stop = true;   /* an empty build side matches nothing: stop the probe scan */
        return EXEC_NEED_INPUT;
    }
    if (in->count == 0)
        return EXEC_NEED_INPUT;
    if (!st->started)
        hj_start(st, in);
    uint32_t np = hj_collect(st, in);
    memset(st->eq, 1, np);
    for (int k = 0; k < st->nkeys; k++)
        exec__eq_column(st->lkeyvec[k], st->pair_l, &st->rkeystore[k], st->pair_r, np, false, st->eq);
    uint32_t m = 0;
    for (uint32_t i = 0; i < np; i++) {
        st->pair_l[m] = st->pair_l[i];
        st->pair_r[m] = st->pair_r[i];
        m += st->eq[i];
    }
    exec__join_gather(in, st->pair_l, st->rstore, st->rcols, st->pair_r, m, st->out);
    exec__join_residual(st->residual, st->rscratch, st->sel, st->out);
    if (st->pos < in->count)
        return EXEC_HAVE_MORE;
    st->started = false;
    return EXEC_NEED_INPUT;
}

ExecOp *exec__op_hash_join(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(HashJoinState));
    HashJoinState *st = op->state;
    MemArena *a = q->arena;
    st->lcols = n->left->ncols;
    st->rcols = n->right->ncols;
    st->nkeys = n->nkeys;
    if (n->nkeys < 1 || n->nkeys > 16)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "hash join with %d keys is not supported", n->nkeys);
    st->bscratch = exec__scratch_create(q);
    st->pscratch = exec__scratch_create(q);
    st->rscratch = exec__scratch_create(q);
    st->rkeys = MEM_NEW_ARRAY(a, ExprProg *, n->nkeys);
    st->lkeys = MEM_NEW_ARRAY(a, ExprProg *, n->nkeys);
    st->lkeyvec = MEM_NEW_ARRAY(a, Vector *, n->nkeys);
    st->rkeystore = MEM_NEW_ARRAY(a, ExecColumn, n->nkeys);
    for (int k = 0; k < n->nkeys; k++) {
        st->rkeys[k] = exec__expr_compile(q, n->right_keys[k], st->bscratch);
        st->lkeys[k] = exec__expr_compile(q, n->left_keys[k], st->pscratch);
        exec__col_init(&st->rkeystore[k], n->right_keys[k]->type, a, 1024);
    }
    st->rstore = MEM_NEW_ARRAY(a, ExecColumn, st->rcols > 0 ? st->rcols : 1);
    for (int c = 0; c < st->rcols; c++)
        exec__col_init(&st->rstore[c], n->right->col_types[c], a, 1024);
    st->hash_cap = 1024;
    st->rhash = mem_alloc(a, st->hash_cap * sizeof(uint64_t));
    st->keep = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->tmp_hash = mem_alloc(a, VEC_CAPACITY * sizeof(uint64_t));
    st->lhash = mem_alloc(a, VEC_CAPACITY * sizeof(uint64_t));
    st->lnull = mem_alloc(a, VEC_CAPACITY);
    st->pair_l = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->pair_r = mem_alloc(a, VEC_CAPACITY * sizeof(uint32_t));
    st->eq = mem_alloc(a, VEC_CAPACITY);
    st->sel = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    if (n->join_filter)
        st->residual = exec__expr_compile(q, n->join_filter, st->rscratch);
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->sink = hj_build_sink;
    op->finalize = hj_build_finalize;
    op->execute = hj_execute;
    return op;
}
