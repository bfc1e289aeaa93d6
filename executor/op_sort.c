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
    Batch *out;
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
 * many are kept, select the topn best (quickselect under the total order)
 * and compact the stores to them, in input order so that ties still break
 * by input position. Memory stays O(topn + batch) for fixed-width columns
 * (the bytes of dropped strings stay in the arena); work is amortised O(1)
 * per row.
 */
static void sort_prune(SortState *st, MemArena *arena)
{
    mem_arena_reset(arena);
    uint32_t n = st->nrows, k = (uint32_t)st->topn;
    uint32_t *a = mem_alloc(arena, (size_t)n * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    select_first_k(st, a, n, k);
    /* a[0..k) are the kept rows: mark them, then list them in input order */
    uint8_t *keep = mem_calloc(arena, n, 1);
    for (uint32_t i = 0; i < k; i++)
        keep[a[i]] = 1;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        a[m] = i;
        m += keep[i];
    }
    for (int c = 0; c < st->ncols; c++)
        exec__col_compact(&st->cols[c], a, m);
    st->nrows = m;
}

static void sort_sink(ExecOp *op, Batch *in)
{
    SortState *st = op->state;
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    for (int c = 0; c < st->ncols; c++)
        exec__col_append(&st->cols[c], op->q->arena, &in->cols[c], rows, in->count);
    if ((uint64_t)st->nrows + in->count > UINT32_MAX / 2)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many rows to sort");
    st->nrows += in->count;
    if (st->topn > 0 && st->topn <= UINT32_MAX / 8 && st->nrows >= 2 * (uint64_t)st->topn + VEC_CAPACITY)
        sort_prune(st, st->prune_arena);
}

static void sort_finalize(ExecOp *op)
{
    SortState *st = op->state;
    sort_perm(st, op->q->arena);
    st->pos = 0;
}

static bool sort_next(ExecOp *op, Batch **out)
{
    SortState *st = op->state;
    if (st->pos >= st->nrows)
        return false;
    uint32_t n = st->nrows - st->pos;
    if (n > VEC_CAPACITY)
        n = VEC_CAPACITY;
    for (int c = 0; c < st->ncols; c++)
        exec__col_gather(&st->cols[c], st->perm + st->pos, n, &st->out->cols[c]);
    st->out->count = n;
    st->out->sel = NULL;
    st->pos += n;
    *out = st->out;
    return true;
}

ExecOp *exec__op_sort(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(SortState));
    SortState *st = op->state;
    st->ncols = n->ncols;
    st->cols = MEM_NEW_ARRAY(q->arena, ExecColumn, n->ncols > 0 ? n->ncols : 1);
    for (int c = 0; c < n->ncols; c++)
        exec__col_init(&st->cols[c], n->col_types[c], q->arena, 1024);
    st->topn = n->sort_topn > 0 ? n->sort_topn : -1;
    st->prune_arena = exec__scratch_create(q);
    st->nkeys = n->nsort;
    st->keys = n->sort_keys;
    for (int k = 0; k < n->nsort; k++)
        ERR_ASSERT(n->sort_keys[k].column >= 0 && n->sort_keys[k].column < n->ncols);
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->sink = sort_sink;
    op->finalize = sort_finalize;
    op->next = sort_next;
    return op;
}

uint32_t *exec__sort_columns(ExecColumn *cols, int ncols, const SortKey *keys, int nkeys, uint32_t nrows,
                             MemArena *arena)
{
    SortState st = {.topn = -1, .ncols = ncols, .cols = cols, .nkeys = nkeys, .keys = keys, .nrows = nrows};
    sort_perm(&st, arena);
    return st.perm;
}
