/*
 * op_sort.c — ORDER BY: a pipeline sink that keeps every input row in
 * column stores, sorts a permutation at finalize, and then emits batches
 * gathered in sorted order.
 *
 * Ordering follows PostgreSQL: NULLS LAST for ASC and FIRST for DESC unless
 * written; text (and varchar) compared bytewise then by length (the C
 * locale), char(n) ignoring trailing blanks, numeric by value, floats with
 * NaN above every number. The sort is a merge sort (insertion sort on runs
 * of 16, then bottom-up merges) under the keys with ties broken by input
 * position, so rows equal on every key keep their input order, which
 * matches PostgreSQL wherever ORDER BY is total.
 *
 * Under a LIMIT (ORDER BY ... LIMIT k) only the first offset + k rows are
 * needed: a quickselect puts them first and only they are sorted, with ties
 * broken by input position so the result equals the full stable sort's.
 * While rows arrive the stores are pruned to the best k, and each batch is
 * compared with the worst kept row first so that rows that cannot make the
 * cut are never stored (issue 7). With late materialisation (plan.h,
 * PLAN_SORT nlate) the stores hold only keys, computed columns and a row
 * locator; the other table columns are fetched for the emitted rows.
 *
 * The comparison switches on the key's physical type per comparison (a
 * branch, not an indirect call); cancel is checked every 2048 rows of the
 * run sort and every 65536 rows merged.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"
#include "common/numeric.h"

typedef struct SortState {
    int64_t topn;             /* LIMIT above: only the first topn rows are needed, -1 = all */
    int ncols;
    ExecColumn *cols;
    int nkeys;
    const SortKey *keys;
    uint32_t nrows, pos;
    uint32_t *perm;
    MemArena *prune_arena;    /* top-N pruning work arrays (reset per prune) */
    int64_t bound;            /* top-N: stored index of the worst kept row after a prune, -1 = none */
    int8_t *order;            /* top-N filter: per batch row, its order against the bound row */
    uint16_t *tied, *pass;    /* top-N filter: rows still tied / rows that enter */
    const PlanNode *late;     /* late materialisation (plan.h PLAN_SORT nlate), NULL = none */
    Batch *fetch;             /* one fetched row of the late columns */
    MemArena *late_arena;     /* fetched strings of the current output batch */
    StoreTxn *txn;
    Batch *out;
    uint64_t *kern, kern_spare; /* EXPLAIN ANALYZE (plan.h PlanKernel): bits ORed per batch */
} SortState;

static int cmp_str(SqlType t, StrRef a, StrRef b)
{
    if (exec__str_needs_typecmp(t)) {
        Value x = {.is_null = false, .u.str = a}, y = {.is_null = false, .u.str = b};
        int r = type_compare(t, &x, &y);
        return (r > 0) - (r < 0);
    }
    if (t.oid == TYPE_NUMERIC)
        return numeric_cmp(a, b);
    if (t.oid == TYPE_BPCHAR) {
        while (a.len && a.ptr[a.len - 1] == ' ') a.len--;
        while (b.len && b.ptr[b.len - 1] == ' ') b.len--;
    }
    uint32_t l = a.len < b.len ? a.len : b.len;
    int c = l ? memcmp(a.ptr, b.ptr, l) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return (a.len > b.len) - (a.len < b.len);
}

static inline int cmp_dbl(double a, double b)
{
    bool na = isnan(a), nb = isnan(b);
    if (na || nb)
        return (int)na - (int)nb;
    return (a > b) - (a < b);
}

#define CMP(x, y) (((x) > (y)) - ((x) < (y)))

static inline int cmp_rows(const SortState *st, uint32_t a, uint32_t b)
{
    for (int k = 0; k < st->nkeys; k++) {
        const SortKey *key = &st->keys[k];
        const ExecColumn *c = &st->cols[key->column];
        bool va = exec__col_valid(c, a), vb = exec__col_valid(c, b);
        if (!va || !vb) {
            if (va == vb)
                continue;
            int r = va ? 1 : -1;   /* NULL first */
            return key->nulls_first ? r : -r;
        }
        int r;
        switch (c->phys) {
        case PHYS_BOOL: r = CMP(c->data[a], c->data[b]); break;
        case PHYS_I16: r = CMP(((const int16_t *)c->data)[a], ((const int16_t *)c->data)[b]); break;
        case PHYS_I32: r = CMP(((const int32_t *)c->data)[a], ((const int32_t *)c->data)[b]); break;
        case PHYS_I64: r = CMP(((const int64_t *)c->data)[a], ((const int64_t *)c->data)[b]); break;
        case PHYS_F32: r = cmp_dbl(((const float *)c->data)[a], ((const float *)c->data)[b]); break;
        case PHYS_F64: r = cmp_dbl(((const double *)c->data)[a], ((const double *)c->data)[b]); break;
        default: r = cmp_str(c->type, ((const StrRef *)c->data)[a], ((const StrRef *)c->data)[b]); break;
        }
        if (r)
            return key->descending ? -r : r;
    }
    return 0;
}

/* Stable order made total: ties broken by input position. */
static inline int cmp_total(const SortState *st, uint32_t a, uint32_t b)
{
    int r = cmp_rows(st, a, b);
    return r ? r : (a > b) - (a < b);
}

static void insertion_sort(const SortState *st, uint32_t *p, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = p[i], j = i;
        while (j > 0 && cmp_total(st, p[j - 1], x) > 0) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = x;
    }
}

static void merge(const SortState *st, const uint32_t *src, uint32_t *dst, uint32_t lo, uint32_t mid, uint32_t hi)
{
    uint32_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if ((k & 0xFFFF) == 0)
            err_check_interrupts();   /* a final merge of 10^8 rows takes seconds */
        dst[k++] = cmp_total(st, src[j], src[i]) < 0 ? src[j++] : src[i++];
    }
    while (i < mid)
        dst[k++] = src[i++];
    while (j < hi)
        dst[k++] = src[j++];
}

static void select_first_k(const SortState *st, uint32_t *p, uint32_t n, uint32_t k);

static void sort_perm(SortState *st, MemArena *arena)
{
    uint32_t n = st->nrows;
    uint32_t *a = mem_alloc(arena, (size_t)n * sizeof(uint32_t) + 1);
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    if (st->topn >= 0 && (uint64_t)st->topn < n) {
        if (st->topn > 0)
            select_first_k(st, a, n, (uint32_t)st->topn);
        n = (uint32_t)st->topn;
        st->nrows = n;      /* rows past the top n are never emitted */
    }
    const uint32_t run = 16;
    for (uint32_t lo = 0; lo < n; lo += run) {
        if ((lo & (VEC_CAPACITY - 1)) == 0)
            err_check_interrupts();
        insertion_sort(st, a + lo, n - lo < run ? n - lo : run);
    }
    uint32_t *b = mem_alloc(arena, (size_t)n * sizeof(uint32_t) + 1);
    for (uint64_t w = run; w < n; w *= 2) {
        for (uint64_t lo = 0; lo < n; lo += 2 * w) {
            err_check_interrupts();
            uint32_t mid = (uint32_t)(lo + w < n ? lo + w : n);
            uint32_t hi = (uint32_t)(lo + 2 * w < n ? lo + 2 * w : n);
            merge(st, a, b, (uint32_t)lo, mid, hi);
        }
        uint32_t *t = a;
        a = b;
        b = t;
    }
    st->perm = a;
}

static inline void swap_u32(uint32_t *p, uint32_t i, uint32_t j)
{
    uint32_t t = p[i];
    p[i] = p[j];
    p[j] = t;
}

/*
 * Top-N (ORDER BY ... LIMIT k): quickselect under the total order so that
 * p[0..k) hold the k first rows of the stable sort, in some order; the
 * caller then sorts only those. Median-of-three pivots; cancel checked
 * every 65536 comparisons.
 */
static void select_first_k(const SortState *st, uint32_t *p, uint32_t n, uint32_t k)
{
    uint32_t lo = 0, hi = n;
    uint64_t work = 0;
    while (hi - lo > 16) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_total(st, p[mid], p[lo]) < 0) swap_u32(p, mid, lo);
        if (cmp_total(st, p[hi - 1], p[lo]) < 0) swap_u32(p, hi - 1, lo);
        if (cmp_total(st, p[hi - 1], p[mid]) < 0) swap_u32(p, hi - 1, mid);
        swap_u32(p, mid, hi - 1);            /* pivot (the median) at the end */
        uint32_t pivot = p[hi - 1], store = lo;
        for (uint32_t i = lo; i < hi - 1; i++) {
            if ((++work & 0xFFFF) == 0)
                err_check_interrupts();
            if (cmp_total(st, p[i], pivot) < 0)
                swap_u32(p, i, store++);
        }
        swap_u32(p, store, hi - 1);
        if (k <= store)
            hi = store;
        else if (k == store + 1)
            return;
        else
            lo = store + 1;
    }
    /* the boundary k lies in a short unpartitioned range: order it */
    insertion_sort(st, p + lo, hi - lo);
}

void exec__sort_set_topn(ExecOp *op, int64_t topn)
{
    ((SortState *)op->state)->topn = topn;
}

/*
 * Bounded top-N: when a LIMIT needs only the first topn rows and twice as
 * many are kept (or topn have arrived and no bound is known yet), select the
 * topn best (quickselect under the total order) and compact the stores to
 * them, in input order so that ties still break by input position. Memory
 * stays O(topn + batch) for fixed-width columns (the bytes of dropped
 * strings stay in the arena); work is amortised O(1) per row. The worst
 * kept row becomes the bound of the batch filter below.
 */
static void sort_prune(SortState *st, MemArena *arena)
{
    mem_arena_reset(arena);
    uint32_t n = st->nrows, k = (uint32_t)st->topn;
    uint32_t *a = mem_alloc(arena, (size_t)n * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    select_first_k(st, a, n, k);
    uint32_t worst = a[0];
    for (uint32_t i = 1; i < k; i++)
        if (cmp_total(st, a[i], worst) > 0)
            worst = a[i];
    /* a[0..k) are the kept rows: mark them, then list them in input order */
    uint8_t *keep = mem_calloc(arena, n, 1);
    for (uint32_t i = 0; i < k; i++)
        keep[a[i]] = 1;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == worst)
            st->bound = m;
        a[m] = i;
        m += keep[i];
    }
    for (int c = 0; c < st->ncols; c++)
        exec__col_compact(&st->cols[c], a, m);
    st->nrows = m;
}

/*
 * Top-N batch filter (issue 7). Once a prune has kept the best topn rows, a
 * later row can enter the result only if it sorts strictly before the
 * bound (the worst kept row): on equal keys it loses the tie on input
 * position. Each key is compared with the bound's value in one typed loop
 * over the rows still tied after the keys before it; only the rows that
 * sort before the bound are appended, so for ORDER BY t LIMIT 10 over
 * millions of rows the other columns (strings copied, say) are touched for
 * a handful of rows. The comparisons are cmp_rows' for the same types.
 */
#define BOUND_LOOP(T, CMPF)                                                        \
    do {                                                                           \
        const T *x = (const T *)v->data;                                           \
        T t = ((const T *)c->data)[b];                                             \
        if (dense) {                      /* the common case: no NULLs, flat */    \
            for (uint32_t j = 0; j < n; j++)                                       \
                st->order[rows[j]] = (int8_t)(sgn * CMPF(x[rows[j]], t));          \
            break;                                                                 \
        }                                                                          \
        for (uint32_t j = 0; j < n; j++) {                                         \
            uint16_t r = rows[j];                                                  \
            uint32_t xr = r & mask;                                                \
            st->order[r] = (int8_t)(vec_is_valid(v, xr) ? sgn * CMPF(x[xr], t) : null_r); \
        }                                                                          \
    } while (0)

/* order[rows[j]] = the row's order against the bound on key `key`. */
static void bound_key(SortState *st, const SortKey *key, const Vector *v, const uint16_t *rows, uint32_t n)
{
    const ExecColumn *c = &st->cols[key->column];
    uint32_t b = (uint32_t)st->bound, mask = v->is_const ? 0 : 0xFFFF;
    int sgn = key->descending ? -1 : 1;
    int null_r = key->nulls_first ? -1 : 1;      /* a NULL row against a valid bound */
    bool dense = !v->is_const && v->validity == NULL;
    if (!exec__col_valid(c, b)) {                  /* NULL bound: NULL rows tie */
        for (uint32_t j = 0; j < n; j++)
            st->order[rows[j]] = (int8_t)(vec_is_valid(v, rows[j] & mask) ? -null_r : 0);
        return;
    }
    switch (c->phys) {
    case PHYS_BOOL: BOUND_LOOP(uint8_t, CMP); break;
    case PHYS_I16: BOUND_LOOP(int16_t, CMP); break;
    case PHYS_I32: BOUND_LOOP(int32_t, CMP); break;
    case PHYS_I64: BOUND_LOOP(int64_t, CMP); break;
    case PHYS_F32: BOUND_LOOP(float, cmp_dbl); break;
    case PHYS_F64: BOUND_LOOP(double, cmp_dbl); break;
    default: {
        const StrRef *x = (const StrRef *)v->data;
        StrRef t = ((const StrRef *)c->data)[b];
        for (uint32_t j = 0; j < n; j++) {
            uint16_t r = rows[j];
            uint32_t xr = r & mask;
            st->order[r] = (int8_t)(vec_is_valid(v, xr) ? sgn * cmp_str(c->type, x[xr], t) : null_r);
        }
        break;
    }
    }
}

/* One key of a fixed-width type, no NULLs in the batch nor at the bound:
 * rows pass when strictly before the bound (`sel[m] = r; m += pred;`). */
#define PASS_LOOP(T)                                                               \
    do {                                                                           \
        const T *x = (const T *)v->data;                                           \
        T t = ((const T *)c->data)[b];                                             \
        if (desc)                                                                  \
            for (uint32_t j = 0; j < n; j++) {                                     \
                st->pass[m] = rows[j];                                             \
                m += x[rows[j]] > t;                                               \
            }                                                                      \
        else                                                                       \
            for (uint32_t j = 0; j < n; j++) {                                     \
                st->pass[m] = rows[j];                                             \
                m += x[rows[j]] < t;                                               \
            }                                                                      \
    } while (0)

/* The single-key fast path of bound_filter; -1 when it does not apply. */
static int64_t bound_filter_one(SortState *st, const Vector *v, const uint16_t *rows, uint32_t n)
{
    const ExecColumn *c = &st->cols[st->keys[0].column];
    uint32_t b = (uint32_t)st->bound, m = 0;
    bool desc = st->keys[0].descending;
    if (st->nkeys != 1 || v->is_const || v->validity || !exec__col_valid(c, b))
        return -1;
    switch (c->phys) {
    case PHYS_I16: PASS_LOOP(int16_t); break;
    case PHYS_I32: PASS_LOOP(int32_t); break;
    case PHYS_I64: PASS_LOOP(int64_t); break;
    default: return -1;   /* floats: NaN ordering; strings: cmp_str */
    }
    return m;
}

/* The active rows of `in` that sort before the bound, in input order, into
 * st->pass; returns their count. */
static uint32_t bound_filter(SortState *st, const Batch *in, const uint16_t *rows)
{
    int64_t one = bound_filter_one(st, &in->cols[st->keys[0].column], rows, in->count);
    *st->kern |= PLAN_KERN(one >= 0 ? PLAN_KERN_SORT_BOUND_ONE : PLAN_KERN_SORT_BOUND);
    if (one >= 0)
        return (uint32_t)one;
    const uint16_t *tied = rows;
    uint32_t ntied = in->count;
    for (int k = 0; k < st->nkeys && ntied > 0; k++) {
        const SortKey *key = &st->keys[k];
        bound_key(st, key, &in->cols[key->column], tied, ntied);
        uint32_t m = 0;
        for (uint32_t j = 0; j < ntied; j++) {   /* branch-free: keep the still tied */
            st->tied[m] = tied[j];
            m += st->order[tied[j]] == 0;
        }
        tied = st->tied;
        ntied = m;
    }
    for (uint32_t j = 0; j < ntied; j++)          /* equal on every key: later, so worse */
        st->order[tied[j]] = 1;
    uint32_t m = 0;
    for (uint32_t j = 0; j < in->count; j++) {
        st->pass[m] = rows[j];
        m += st->order[rows[j]] < 0;
    }
    return m;
}

static void sort_sink(ExecOp *op, Batch *in)
{
    SortState *st = op->state;
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    uint32_t count = in->count;
    if (st->bound >= 0 && count > 0) {
        count = bound_filter(st, in, rows);
        rows = st->pass;
    }
    for (int c = 0; c < st->ncols; c++)
        exec__col_append(&st->cols[c], op->q->arena, &in->cols[c], rows, count);
    if ((uint64_t)st->nrows + count > UINT32_MAX / 2)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many rows to sort");
    st->nrows += count;
    if (st->topn > 0 && st->topn <= UINT32_MAX / 8 &&
        (st->nrows >= 2 * (uint64_t)st->topn + VEC_CAPACITY || (st->bound < 0 && st->nrows >= (uint64_t)st->topn)))
        sort_prune(st, st->prune_arena);
}

static void sort_finalize(ExecOp *op)
{
    SortState *st = op->state;
    *st->kern |= PLAN_KERN(st->topn >= 0 ? PLAN_KERN_SORT_TOPN : PLAN_KERN_SORT_FULL);
    sort_perm(st, op->q->arena);
    st->pos = 0;
}

/*
 * Late materialisation (planner/plan_late.c): output column i of rows
 * perm[0..n) is fetched by locator when late_map[i] < 0. A fetch reuses
 * its string buffers at the next call, so strings are copied into
 * late_arena, reset per output batch.
 */
static void sort_fetch_late(SortState *st, const uint32_t *perm, uint32_t n)
{
    const PlanNode *pn = st->late;
    const int64_t *rowid = (const int64_t *)st->cols[pn->late_rowid].data;
    mem_arena_reset(st->late_arena);
    for (int i = 0; i < pn->ncols; i++)
        if (pn->late_map[i] < 0) {
            st->out->cols[i].validity = NULL;
            st->out->cols[i].is_const = false;
        }
    for (uint32_t j = 0; j < n; j++) {
        if (!store_row_fetch(pn->late_table, st->txn, (uint64_t)rowid[perm[j]], pn->nlate, pn->late_cols,
                             st->fetch))
            err_raise(ERRCODE_INTERNAL_ERROR, "could not fetch row %lld for a sort", (long long)rowid[perm[j]]);
        uint16_t src = 0, dst = (uint16_t)j;
        for (int i = 0; i < pn->ncols; i++) {
            if (pn->late_map[i] >= 0)
                continue;
            Vector *f = &st->fetch->cols[-1 - pn->late_map[i]];
            Vector *o = &st->out->cols[i];
            exec__vec_copy_rows(f, &src, o, &dst, 1);
            if (o->phys == PHYS_STR && vec_is_valid(f, 0)) {
                StrRef *r = &((StrRef *)o->data)[j];
                char *p = mem_alloc(st->late_arena, r->len + 1);
                if (r->len)
                    memcpy(p, r->ptr, r->len);
                r->ptr = p;
            }
        }
    }
}

static bool sort_next(ExecOp *op, Batch **out)
{
    SortState *st = op->state;
    if (st->pos >= st->nrows)
        return false;
    uint32_t n = st->nrows - st->pos;
    if (n > VEC_CAPACITY)
        n = VEC_CAPACITY;
    if (st->late) {
        for (int c = 0; c < st->late->ncols; c++)
            if (st->late->late_map[c] >= 0)
                exec__col_gather(&st->cols[st->late->late_map[c]], st->perm + st->pos, n, &st->out->cols[c]);
        sort_fetch_late(st, st->perm + st->pos, n);
    } else {
        for (int c = 0; c < st->ncols; c++)
            exec__col_gather(&st->cols[c], st->perm + st->pos, n, &st->out->cols[c]);
    }
    st->out->count = n;
    st->out->sel = NULL;
    st->pos += n;
    *out = st->out;
    return true;
}

/* Late materialisation: the stores hold the child's columns; the fetch
 * batch the late ones (types from the output columns they become). */
static void sort_init_late(ExecQuery *q, const PlanNode *n, SortState *st)
{
    SqlType *types = MEM_NEW_ARRAY(q->arena, SqlType, n->nlate);
    for (int i = 0; i < n->ncols; i++)
        if (n->late_map[i] < 0)
            types[-1 - n->late_map[i]] = n->col_types[i];
    st->late = n;
    st->fetch = exec__batch_new(q, n->nlate, types);
    st->late_arena = exec__scratch_create(q);
    st->txn = q->txn;
}

ExecOp *exec__op_sort(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(SortState));
    SortState *st = op->state;
    const PlanNode *in = n->nlate > 0 ? n->left : n;   /* the stored columns: the input's */
    st->ncols = in->ncols;
    st->cols = MEM_NEW_ARRAY(q->arena, ExecColumn, in->ncols > 0 ? in->ncols : 1);
    for (int c = 0; c < in->ncols; c++)
        exec__col_init(&st->cols[c], in->col_types[c], q->arena, 1024);
    if (n->nlate > 0)
        sort_init_late(q, n, st);
    st->topn = n->sort_topn > 0 ? n->sort_topn : -1;
    st->prune_arena = exec__scratch_create(q);
    st->bound = -1;
    st->order = mem_alloc(q->arena, VEC_CAPACITY);   /* topn may also be set at run time */
    st->tied = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    st->pass = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    st->nkeys = n->nsort;
    st->keys = n->sort_keys;
    for (int k = 0; k < n->nsort; k++)
        ERR_ASSERT(n->sort_keys[k].column >= 0 && n->sort_keys[k].column < in->ncols);
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    st->kern = exec__kern_word(op, &st->kern_spare);
    *st->kern |= st->late ? PLAN_KERN(PLAN_KERN_SORT_LATE) : 0;
    op->sink = sort_sink;
    op->finalize = sort_finalize;
    op->next = sort_next;
    return op;
}

uint32_t *exec__sort_columns(ExecColumn *cols, int ncols, const SortKey *keys, int nkeys, uint32_t nrows,
                             MemArena *arena)
{
    SortState st = {.topn = -1, .bound = -1, .ncols = ncols, .cols = cols, .nkeys = nkeys, .keys = keys, .nrows = nrows};
    sort_perm(&st, arena);
    return st.perm;
}

/* ---------- parallel pipelines (parallel.c) ---------- */

ExecOp *exec__op_sort_worker(ExecQuery *wq, const ExecOp *leader)
{
    ExecOp *op = exec__op_sort(wq, leader->node);
    ((SortState *)op->state)->topn = ((const SortState *)leader->state)->topn;   /* set at run time by LIMIT */
    return op;
}

/* The worker's rows — under a LIMIT only its best offset + limit — go
 * through our sink like any input batch (top-N pruning included); their
 * strings are copied into our stores before the worker's arena goes. */
void exec__sort_merge(ExecOp *into, ExecOp *from)
{
    SortState *w = from->state;
    if (w->nrows == 0)
        return;
    sort_perm(w, from->q->arena);
    const PlanNode *n = from->node;
    const PlanNode *in = n->nlate > 0 ? n->left : n;
    Batch *b = exec__batch_new(from->q, in->ncols, in->col_types);
    for (uint32_t pos = 0; pos < w->nrows; pos += VEC_CAPACITY) {
        err_check_interrupts();
        uint32_t k = w->nrows - pos < VEC_CAPACITY ? w->nrows - pos : VEC_CAPACITY;
        for (int c = 0; c < w->ncols; c++)
            exec__col_gather(&w->cols[c], w->perm + pos, k, &b->cols[c]);
        b->count = k;
        b->sel = NULL;
        sort_sink(into, b);
    }
}
