/*
 * op_hashjoin.c — hash join of every kind (inner, left, right, full, semi,
 * anti, null-aware anti): the build side (right child) is a pipeline that
 * sinks into this operator; the probe side (left child) streams through it.
 *
 * Build: right rows are kept in column stores (all right columns plus the
 * evaluated keys) with their hash; finalize links rows into bucket chains
 * (heads/next arrays sized once, power of two, about two buckets per row).
 * Chains are built back to front so each lists rows in input order. Rows
 * with a NULL key never match: inner/left/semi/anti joins drop them at
 * once, right/full joins keep them unlinked (they come out null-extended),
 * a null-aware anti join only remembers that one existed.
 *
 * Probe, per left batch (inner/left/right/full): evaluate the keys and hash
 * them once; walk the chains collecting up to VEC_CAPACITY candidate pairs
 * (left row, build row) with equal hashes, compare the keys column by
 * column over all pairs at once, gather the matching pairs into the output
 * (left columns then right columns) and apply the residual (the rest of the
 * ON condition) as a selection. Pairs that survive mark their left row
 * (lmatched, per batch) and their build row (rmatched bitmap, right/full).
 * When the pairs fill a batch the operator returns HAVE_MORE and resumes;
 * after the last pair batch a left/full join emits the batch's unmatched
 * left rows with NULL right columns; once the probe pipeline's source is
 * exhausted, flush emits the unmatched build rows of a right/full join
 * with NULL left columns.
 *
 * Semi/anti probing stops at the first match: rounds of "one candidate per
 * still-unmatched left row" (the next hash-equal entry of its chain), each
 * round verified column-wise (and by the residual), until every row matched
 * or ran out of chain. The output is the input batch under a selection.
 * Null-aware anti (NOT IN): an empty build side passes every row; a NULL
 * build key excludes every row; a NULL probe key excludes its row.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

typedef struct HashJoinState {
    ExecJoinKind kind;
    int lcols, rcols, nkeys;
    /* build side */
    ExprProg **rkeys;
    ExecColumn *rstore, *rkeystore;
    uint64_t *rhash;
    uint32_t nbuild, hash_cap;
    uint32_t *heads, *next, mask;
    uint64_t *rmatched;       /* right/full: build rows matched at least once */
    bool keep_null_keys;      /* right/full: rows with NULL keys stored, unlinked */
    bool build_null_key;      /* null-aware anti: some build key was NULL */
    uint64_t build_rows;      /* every build row seen, NULL keys included */
    uint16_t *keep;
    uint64_t *tmp_hash;
    MemArena *bscratch;
    /* probe side */
    ExprProg **lkeys;
    Vector **lkeyvec;
    uint64_t *lhash;
    uint8_t *lnull;
    uint8_t *lmatched;        /* by row index of the current left batch */
    bool started, left_tail;
    uint32_t pos, chain;
    uint16_t *pair_l, *pair_i;
    uint32_t *pair_r;
    uint32_t *cur;            /* semi/anti: next chain entry per position (+1) */
    uint16_t *act, *act2;
    uint8_t *eq;
    MemArena *pscratch, *rscratch;
    ExprProg *residual;
    uint16_t *sel;
    Batch *pairs;             /* joined pairs (left then right columns) */
    Batch *xleft;             /* unmatched left rows, right columns NULL */
    Batch *xright;            /* unmatched build rows, left columns NULL */
    Batch semi_out;
    Vector *mark_cols;        /* semi/anti/mark output: the input's vectors (+ the mark) */
    uint16_t *semi_sel;
    bool null_aware;          /* ANTI_NULL, MARK with mark_null_aware */
    uint32_t flush_pos;
    uint64_t *kern, kern_spare; /* EXPLAIN ANALYZE (plan.h PlanKernel) */
} HashJoinState;

ExecJoinKind exec__join_kind(const PlanNode *n)
{
    switch (n->join_type) {
    case PJOIN_INNER: return EXEC_JOIN_INNER;
    case PJOIN_LEFT: return EXEC_JOIN_LEFT;
    case PJOIN_RIGHT: return EXEC_JOIN_RIGHT;
    case PJOIN_FULL: return EXEC_JOIN_FULL;
    case PJOIN_SEMI: return EXEC_JOIN_SEMI;
    case PJOIN_ANTI: return EXEC_JOIN_ANTI;
    case PJOIN_ANTI_NULL: return EXEC_JOIN_ANTI_NA;
    case PJOIN_MARK: return EXEC_JOIN_MARK;
    }
    err_raise(ERRCODE_INTERNAL_ERROR, "unrecognized join type %d", (int)n->join_type);
}

/* Rows of `rows` whose key vectors are all non-NULL (ok = 1) into keep;
 * returns the count. With keep_all every row is kept. */
static uint32_t nonnull_rows(Vector *const *keys, int nkeys, const uint16_t *rows, uint32_t n, uint16_t *keep,
                             bool keep_all, bool *saw_null)
{
    uint32_t k = 0;
    uint32_t nulls = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ok = 1;
        for (int j = 0; j < nkeys; j++)
            ok &= (uint32_t)exec__bit(exec__validity(keys[j]), rows[i] & exec__mask(keys[j]));
        keep[k] = rows[i];
        k += ok | keep_all;
        nulls += ok ^ 1;
    }
    *saw_null |= nulls > 0;
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
    st->build_rows += in->count;
    uint32_t n = nonnull_rows(keys, st->nkeys, rows, in->count, st->keep, st->keep_null_keys,
                              &st->build_null_key);
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

static bool build_key_null(const HashJoinState *st, uint32_t i)
{
    for (int k = 0; k < st->nkeys; k++)
        if (!exec__col_valid(&st->rkeystore[k], i))
            return true;
    return false;
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
        if ((i & 0xFFFF) == 0)
            err_check_interrupts();
        if (st->keep_null_keys && build_key_null(st, i)) {
            st->next[i] = 0;
            continue;
        }
        uint32_t b = (uint32_t)st->rhash[i] & st->mask;
        st->next[i] = st->heads[b];
        st->heads[b] = i + 1;
    }
    if (st->kind == EXEC_JOIN_RIGHT || st->kind == EXEC_JOIN_FULL)
        st->rmatched = mem_calloc(op->q->arena, (size_t)st->nbuild / 64 + 1, sizeof(uint64_t));
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
    for (uint32_t i = 0; i < in->count; i++)
        st->lmatched[batch_row(in, i)] = 0;
    st->pos = 0;
    st->chain = in->count && !st->lnull[0] ? st->heads[st->lhash[0] & st->mask] : 0;
    st->started = true;
    st->left_tail = false;
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

/* Keep the candidate pairs whose keys are equal; returns how many. */
static uint32_t hj_verify(HashJoinState *st, uint32_t np)
{
    memset(st->eq, 1, np);
    for (int k = 0; k < st->nkeys; k++)
        exec__eq_column(st->lkeyvec[k], st->pair_l, &st->rkeystore[k], st->pair_r, np, false, st->eq);
    uint32_t m = 0;
    for (uint32_t i = 0; i < np; i++) {
        st->pair_l[m] = st->pair_l[i];
        st->pair_i[m] = st->pair_i[i];
        st->pair_r[m] = st->pair_r[i];
        m += st->eq[i];
    }
    return m;
}

/* Mark the left and build rows of the pairs that survived in out. */
static void hj_mark(HashJoinState *st, const Batch *out)
{
    for (uint32_t i = 0; i < out->count; i++) {
        uint32_t j = batch_row(out, i);
        st->lmatched[st->pair_l[j]] = 1;
        if (st->rmatched) {
            uint32_t r = st->pair_r[j];
            st->rmatched[r >> 6] |= UINT64_C(1) << (r & 63);
        }
    }
}

/* The unmatched rows of the left batch, right columns NULL. */
static Batch *hj_left_tail(HashJoinState *st, const Batch *in)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < in->count; i++) {
        uint32_t row = batch_row(in, i);
        st->sel[k] = (uint16_t)row;
        k += st->lmatched[row] ^ 1;
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

/* Semi/anti: find which left rows have a match, stopping at the first. */
static void hj_semi_probe(HashJoinState *st, const Batch *in)
{
    uint32_t nact = 0;
    for (uint32_t i = 0; i < in->count; i++) {
        st->cur[i] = st->lnull[i] ? 0 : st->heads[st->lhash[i] & st->mask];
        st->act[nact] = (uint16_t)i;
        nact += st->cur[i] != 0;
    }
    while (nact > 0) {
        err_check_interrupts();   /* long chains of duplicates: one round per entry */
        uint32_t np = 0;
        for (uint32_t t = 0; t < nact; t++) {
            uint32_t i = st->act[t], e = st->cur[i];
            while (e && st->rhash[e - 1] != st->lhash[i])
                e = st->next[e - 1];
            st->cur[i] = e ? st->next[e - 1] : 0;
            st->pair_l[np] = (uint16_t)batch_row(in, i);
            st->pair_i[np] = (uint16_t)i;
            st->pair_r[np] = e - 1;
            np += e != 0;
        }
        uint32_t m = hj_verify(st, np);
        if (st->residual) {
            exec__join_gather(in, st->pair_l, st->rstore, st->rcols, st->pair_r, m, st->pairs);
            exec__join_residual(st->residual, st->rscratch, st->sel, st->pairs);
            hj_mark(st, st->pairs);
        } else {
            for (uint32_t j = 0; j < m; j++)
                st->lmatched[st->pair_l[j]] = 1;
        }
        uint32_t n2 = 0;
        for (uint32_t t = 0; t < nact; t++) {
            uint32_t i = st->act[t];
            st->act2[n2] = (uint16_t)i;
            n2 += (st->cur[i] != 0) & (st->lmatched[batch_row(in, i)] ^ 1);
        }
        uint16_t *tmp = st->act;
        st->act = st->act2;
        st->act2 = tmp;
        nact = n2;
    }
}

/*
 * Null-aware "might match" (NOT IN, IN under OR): for the unmatched left
 * rows that have a NULL key, or all unmatched rows when some build key is
 * NULL, compare against every build row with "equal or NULL on either
 * side" per key (and the residual true). A rare path, but still batch at a
 * time: one left row against up to VEC_CAPACITY build rows per round.
 */
static void hj_might_match(HashJoinState *st, const Batch *in)
{
    *st->kern |= PLAN_KERN(PLAN_KERN_HJ_NULL_CHECK);
    for (uint32_t i = 0; i < in->count; i++) {
        uint32_t row = batch_row(in, i);
        if (st->lmatched[row] || (!st->lnull[i] && !st->build_null_key))
            continue;
        for (uint32_t r0 = 0; r0 < st->nbuild && !st->lmatched[row]; r0 += VEC_CAPACITY) {
            err_check_interrupts();
            uint32_t n = st->nbuild - r0 < VEC_CAPACITY ? st->nbuild - r0 : VEC_CAPACITY;
            for (uint32_t j = 0; j < n; j++) {
                st->pair_l[j] = (uint16_t)row;
                st->pair_r[j] = r0 + j;
            }
            memset(st->eq, 1, n);
            for (int k = 0; k < st->nkeys; k++) {
                const Vector *lv = st->lkeyvec[k];
                uint8_t *tmp = st->eq + VEC_CAPACITY;
                memset(tmp, 1, n);
                exec__eq_column(lv, st->pair_l, &st->rkeystore[k], st->pair_r, n, false, tmp);
                bool lnull = !exec__bit(exec__validity(lv), row & exec__mask(lv));
                for (uint32_t j = 0; j < n; j++)
                    st->eq[j] &= tmp[j] | lnull | !exec__col_valid(&st->rkeystore[k], st->pair_r[j]);
            }
            uint32_t m = 0;
            for (uint32_t j = 0; j < n; j++) {
                st->pair_r[m] = st->pair_r[j];
                m += st->eq[j];
            }
            if (st->residual && m > 0) {
                exec__join_gather(in, st->pair_l, st->rstore, st->rcols, st->pair_r, m, st->pairs);
                exec__join_residual(st->residual, st->rscratch, st->sel, st->pairs);
                m = st->pairs->count;
            }
            st->lmatched[row] = m > 0 ? 2 : 0;
        }
    }
}

/* Semi/anti/mark output of a left batch from lmatched (by row index: 0 no
 * match, 1 match, 2 might match — null-aware), shared by hash and nested-loop
 * joins. out/cols/sel are the operator's buffers (cols: in->ncols + 1). */
Batch *exec__join_left_output(ExecJoinKind kind, const uint8_t *lmatched, Batch *in, Batch *o,
                              Vector *cols, uint16_t *sel)
{
    o->ncols = in->ncols;
    o->cols = cols;
    memcpy(o->cols, in->cols, sizeof(Vector) * (size_t)in->ncols);
    if (kind == EXEC_JOIN_MARK) {
        Vector *mk = &cols[in->ncols];
        uint8_t *d = mk->data;
        mk->is_const = false;
        mk->validity = NULL;
        for (uint32_t i = 0; i < in->count; i++) {
            uint32_t row = batch_row(in, i);
            d[row] = lmatched[row] == 1;
            if (lmatched[row] == 2)
                vec_set_null(mk, row);
        }
        o->ncols = in->ncols + 1;
        o->sel = in->sel;
        o->count = in->count;
        return o;
    }
    uint8_t want = kind == EXEC_JOIN_SEMI;
    uint32_t k = 0;
    for (uint32_t i = 0; i < in->count; i++) {
        uint32_t row = batch_row(in, i);
        sel[k] = (uint16_t)row;
        k += (lmatched[row] != 0) == want;
    }
    o->sel = sel;
    o->count = k;
    return o;
}

static ExecOpResult hj_semi_execute(HashJoinState *st, Batch *in, Batch **out)
{
    if (st->nbuild == 0 && st->kind != EXEC_JOIN_MARK && st->kind != EXEC_JOIN_SEMI) {
        *out = in;                   /* nothing to match: every row passes */
        return EXEC_NEED_INPUT;
    }
    hj_start(st, in);
    st->started = false;
    hj_semi_probe(st, in);
    if (st->null_aware)
        hj_might_match(st, in);
    *out = exec__join_left_output(st->kind, st->lmatched, in, &st->semi_out, st->mark_cols,
                                  st->semi_sel);
    return EXEC_NEED_INPUT;
}

static ExecOpResult hj_execute(ExecOp *op, Batch *in, Batch **out)
{
    HashJoinState *st = op->state;
    if (in->count == 0) {
        *out = NULL;
        return EXEC_NEED_INPUT;
    }
    if (exec__join_left_only(st->kind)) {
        if (st->nbuild == 0 && st->kind == EXEC_JOIN_SEMI) {
            op->pipe->stop = true;   /* an empty build side matches nothing */
            *out = NULL;
            return EXEC_NEED_INPUT;
        }
        return hj_semi_execute(st, in, out);
    }
    bool left_outer = st->kind == EXEC_JOIN_LEFT || st->kind == EXEC_JOIN_FULL;
    if (st->nbuild == 0 && !left_outer) {
        op->pipe->stop = true;       /* an empty build side matches nothing */
        *out = NULL;
        return EXEC_NEED_INPUT;
    }
    if (!st->started)
        hj_start(st, in);
    if (st->left_tail) {
        *out = hj_left_tail(st, in);
        st->started = false;
        return EXEC_NEED_INPUT;
    }
    uint32_t np = hj_collect(st, in);
    uint32_t m = hj_verify(st, np);
    exec__join_gather(in, st->pair_l, st->rstore, st->rcols, st->pair_r, m, st->pairs);
    exec__join_residual(st->residual, st->rscratch, st->sel, st->pairs);
    if (left_outer || st->rmatched)
        hj_mark(st, st->pairs);
    *out = st->pairs;
    if (st->pos < in->count)
        return EXEC_HAVE_MORE;
    if (left_outer) {
        st->left_tail = true;
        return EXEC_HAVE_MORE;
    }
    st->started = false;
    return EXEC_NEED_INPUT;
}

/* Right/full: the build rows no probe row matched, left columns NULL. */
static bool hj_flush(ExecOp *op, Batch **out)
{
    HashJoinState *st = op->state;
    if (st->rmatched == NULL)
        return false;
    while (st->flush_pos < st->nbuild) {
        err_check_interrupts();
        uint32_t k = 0;
        while (st->flush_pos < st->nbuild && k < VEC_CAPACITY) {
            uint32_t r = st->flush_pos++;
            st->pair_r[k] = r;
            k += (uint32_t)((st->rmatched[r >> 6] >> (r & 63)) & 1) ^ 1;
        }
        if (k == 0)
            continue;
        Batch *x = st->xright;
        for (int c = 0; c < st->rcols; c++)
            exec__col_gather(&st->rstore[c], st->pair_r, k, &x->cols[st->lcols + c]);
        x->count = k;
        x->sel = NULL;
        *out = x;
        return true;
    }
    return false;
}

/* Batches whose columns on one side are constant NULLs. */
static Batch *null_side_batch(ExecQuery *q, const PlanNode *n, int from, int to)
{
    SqlType *types = MEM_NEW_ARRAY(q->arena, SqlType, n->left->ncols + n->right->ncols + 1);
    memcpy(types, n->left->col_types, sizeof(SqlType) * (size_t)n->left->ncols);
    memcpy(types + n->left->ncols, n->right->col_types, sizeof(SqlType) * (size_t)n->right->ncols);
    Batch *b = exec__batch_new(q, n->left->ncols + n->right->ncols, types);
    for (int c = from; c < to; c++)
        exec__vec_const_null(&b->cols[c], types[c], q->arena);
    return b;
}

static void hj_alloc_buffers(HashJoinState *st, ExecQuery *q, const PlanNode *n, uint32_t cap)
{
    MemArena *a = q->arena;
    st->hash_cap = cap;
    st->rhash = mem_alloc(a, st->hash_cap * sizeof(uint64_t));
    st->keep = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->tmp_hash = mem_alloc(a, VEC_CAPACITY * sizeof(uint64_t));
    st->lhash = mem_alloc(a, VEC_CAPACITY * sizeof(uint64_t));
    st->lnull = mem_alloc(a, VEC_CAPACITY);
    st->lmatched = mem_calloc(a, VEC_CAPACITY, 1);
    st->pair_l = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->pair_i = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->pair_r = mem_alloc(a, VEC_CAPACITY * sizeof(uint32_t));
    st->cur = mem_alloc(a, VEC_CAPACITY * sizeof(uint32_t));
    st->act = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->act2 = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->eq = mem_alloc(a, 2 * VEC_CAPACITY);
    st->sel = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->semi_sel = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    int w = n->left->ncols + n->right->ncols;
    st->mark_cols = MEM_NEW_ARRAY(a, Vector, n->left->ncols + 1);
    vec_init(&st->mark_cols[n->left->ncols], SQLTYPE(TYPE_BOOL), a);
    st->pairs = null_side_batch(q, n, w, w);
    st->xleft = null_side_batch(q, n, st->lcols, w);
    st->xright = null_side_batch(q, n, 0, st->lcols);
}

ExecOp *exec__op_hash_join(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(HashJoinState));
    HashJoinState *st = op->state;
    MemArena *a = q->arena;
    st->kind = exec__join_kind(n);
    st->lcols = n->left->ncols;
    st->rcols = n->right->ncols;
    st->nkeys = n->nkeys;
    st->null_aware = st->kind == EXEC_JOIN_ANTI_NA || (st->kind == EXEC_JOIN_MARK && n->mark_null_aware);
    st->keep_null_keys = st->kind == EXEC_JOIN_RIGHT || st->kind == EXEC_JOIN_FULL || st->null_aware;
    if (n->nkeys < 1 || n->nkeys > 16)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "hash join with %d keys is not supported", n->nkeys);
    st->bscratch = exec__scratch_create(q);
    st->pscratch = exec__scratch_create(q);
    st->rscratch = exec__scratch_create(q);
    st->rkeys = MEM_NEW_ARRAY(a, ExprProg *, n->nkeys);
    st->lkeys = MEM_NEW_ARRAY(a, ExprProg *, n->nkeys);
    st->lkeyvec = MEM_NEW_ARRAY(a, Vector *, n->nkeys);
    st->rkeystore = MEM_NEW_ARRAY(a, ExecColumn, n->nkeys);
    /* build-side stores pre-sized from the planner's estimate (bounded) */
    uint32_t cap = exec__presize(n->right->est_rows, st->rcols + n->nkeys + 1);
    for (int k = 0; k < n->nkeys; k++) {
        st->rkeys[k] = exec__expr_compile(q, n->right_keys[k], st->bscratch);
        st->lkeys[k] = exec__expr_compile(q, n->left_keys[k], st->pscratch);
        exec__col_init(&st->rkeystore[k], n->right_keys[k]->type, a, cap);
    }
    st->rstore = MEM_NEW_ARRAY(a, ExecColumn, st->rcols > 0 ? st->rcols : 1);
    for (int c = 0; c < st->rcols; c++)
        exec__col_init(&st->rstore[c], n->right->col_types[c], a, cap);
    hj_alloc_buffers(st, q, n, cap);
    if (n->join_filter)
        st->residual = exec__expr_compile(q, n->join_filter, st->rscratch);
    st->kern = exec__kern_word(op, &st->kern_spare);
    *st->kern |= PLAN_KERN(exec__join_left_only(st->kind) ? PLAN_KERN_HJ_FIRST_MATCH : PLAN_KERN_HJ_CHAINS);
    op->sink = hj_build_sink;
    op->finalize = hj_build_finalize;
    op->execute = hj_execute;
    op->flush = hj_flush;
    return op;
}
