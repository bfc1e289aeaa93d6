/*
 * scan.c — reading a table's chosen columns, one row group per batch.
 *
 * A scan fixes what it sees when it begins: its transaction's snapshot
 * (mvcc.c) gives the prefix of committed rows whose xmin it covers, plus,
 * for the table's own writer, the rows it wrote itself. Each
 * store_scan_next hands out the next row group that the zone maps cannot
 * exclude. A group with no deleted row and no row outside the snapshot is
 * handed out zero copy: the vectors point at the chunk arrays (the validity
 * bitmap of a group that holds uncommitted rows is copied with atomic
 * loads: a writer may be setting bits in the same words). Otherwise the
 * visible rows (xmax test) are gathered into the scan's own buffers.
 * STORE_COL_ROWID columns get the rows' numbers (locators).
 *
 * Cold chunks (data freed after a checkpoint, cold.c) are read through
 * store__chunk_values: the scan holds a reference to the table's runs from
 * begin to end and keeps one decoded run group (64K rows) per column; the
 * batch's vectors point at a 2048-row slice of it, so the batches the
 * executor sees are the same either way. Validity, zone maps and stamps are
 * always in memory.
 *
 * Zone maps are hints: a group is skipped only when no row in it can
 * satisfy a filter; the caller still evaluates its predicates on every row.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"

/* The scan's own buffers: gathered rows, vectors, validity copies. */
static void scan_buffers(StoreScan *s, MemArena *arena)
{
    int ncols = s->ncols;
    s->gather = MEM_NEW_ARRAY(arena, void *, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) {
        size_t width = s->cols[i] == STORE_COL_ROWID ? sizeof(int64_t) : s->table->width[s->cols[i]];
        s->gather[i] = mem_alloc(arena, width * STORE_GROUP_ROWS);
    }
    s->vecs = MEM_NEW_ARRAY(arena, Vector, ncols ? ncols : 1);
    s->validity_copy = mem_alloc(arena, sizeof(uint64_t) * VEC_VALIDITY_WORDS * (size_t)(ncols ? ncols : 1));
}

static StoreScan *scan_begin(StoreTable *t, StoreTxn *txn, int ncols, const int *cols,
                             int nfilters, const StoreZoneFilter *filters, MemArena *arena,
                             bool private_scan);

StoreScan *store_scan_begin(StoreTable *t, StoreTxn *txn, int ncols, const int *cols,
                            int nfilters, const StoreZoneFilter *filters, MemArena *arena)
{
    StoreScan *s = scan_begin(t, txn, ncols, cols, nfilters, filters, arena, false);
    /* The transaction's rows not yet in the table (delta.c): read after
     * the table's, as many as there are now. */
    StoreTable *shadow = store__delta_shadow(txn, t);
    if (shadow && atomic_load(&shadow->nrows) > 0) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            s->delta = scan_begin(shadow, txn, ncols, cols, nfilters, filters, arena, true);
            err_pop(&jmp);
        } else {
            store_scan_end(s);
            err_rethrow();
        }
    }
    return s;
}

StoreScan *store__scan_begin_private(StoreTable *shadow, StoreTxn *x, int ncols, const int *cols,
                                     MemArena *arena)
{
    return scan_begin(shadow, x, ncols, cols, 0, NULL, arena, true);
}

static StoreScan *scan_begin(StoreTable *t, StoreTxn *txn, int ncols, const int *cols,
                             int nfilters, const StoreZoneFilter *filters, MemArena *arena,
                             bool private_scan)
{
    ERR_ASSERT(ncols >= 0 && nfilters >= 0);
    if (txn && txn->bulk && !private_scan)
        store__bulk_before_read(txn, t);  /* groups its COPY let go: served by their runs */
    StoreScan *s = MEM_NEW(arena, StoreScan);
    s->private_scan = private_scan;
    s->table = t;
    s->txn = txn;
    s->ncols = ncols;
    s->rowid_col = -1;
    s->cols = MEM_NEW_ARRAY(arena, int, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) {
        ERR_ASSERT(cols[i] == STORE_COL_ROWID || (cols[i] >= 0 && cols[i] < t->ncols));
        s->cols[i] = cols[i];
        if (cols[i] == STORE_COL_ROWID)
            s->rowid_col = i;
    }
    scan_buffers(s, arena);
    s->nfilters = 0;
    s->filters = MEM_NEW_ARRAY(arena, StoreZoneFilter, nfilters ? nfilters : 1);
    for (int i = 0; i < nfilters; i++) {
        ERR_ASSERT(filters[i].column >= 0 && filters[i].column < ncols);
        if (cols[filters[i].column] != STORE_COL_ROWID)
            s->filters[s->nfilters++] = filters[i];
    }

    /* Register before reading the counts: DROP TABLE then waits for us. */
    if (!private_scan)
        store__txn_scan_register(txn, t);
    s->txn_gen = txn ? txn->gen : 0;
    if (txn && txn->iso == STORE_READ_COMMITTED && !txn->stmt_started && !private_scan) {
        /* No statement boundary known: each scan is a statement (skeleton behaviour). */
        store__txn_take_snapshot(txn);
    }
    s->snapshot = store__txn_snapshot(txn);
    s->cold.group = UINT32_MAX;
    s->ref = store__run_acquire(t);  /* before any chunk pointer is read (cold.c) */
    s->self_mark = txn ? STORE_XMAX_MARK | txn->id : 0;
    s->committed = atomic_load_explicit(&t->committed, memory_order_acquire);
    s->visible = store__visible_prefix(t, s->committed, s->snapshot);
    s->own_to = s->own_from = s->committed;
    uint64_t own_first = store__txn_own_first(t, txn);
    if (own_first != UINT64_MAX) {
        /* Rows between `committed` and the writer's first are a committing
         * predecessor's (txn.c "Commit handoff"): not visible. */
        s->own_from = own_first;
        s->own_to = atomic_load_explicit(&t->nrows, memory_order_acquire);
    }
    return s;
}

/* Whether the zone map of one chunk proves that no row satisfies f. */
static bool zone_excludes_int(const StoreZone *z, StoreCmp cmp, int64_t x)
{
    int64_t lo = (int64_t)atomic_load_explicit(&z->min_bits, memory_order_relaxed);
    int64_t hi = (int64_t)atomic_load_explicit(&z->max_bits, memory_order_relaxed);
    switch (cmp) {
    case STORE_EQ: return x < lo || x > hi;
    case STORE_LT: return lo >= x;
    case STORE_LE: return lo > x;
    case STORE_GT: return hi <= x;
    case STORE_GE: return hi < x;
    case STORE_IS_NULL: return false;
    }
    return false;
}

static bool zone_excludes_float(const StoreZone *z, StoreCmp cmp, double x)
{
    if (isnan(x))
        return false;
    /* NaN is greater than every number in PostgreSQL: it may satisfy > and >=. */
    bool nan_matches = (cmp == STORE_GT || cmp == STORE_GE) &&
                       atomic_load_explicit(&z->has_nan, memory_order_relaxed);
    if (nan_matches)
        return false;
    if (!atomic_load_explicit(&z->has_value, memory_order_relaxed))
        return true;
    uint64_t lb = atomic_load_explicit(&z->min_bits, memory_order_relaxed);
    uint64_t hb = atomic_load_explicit(&z->max_bits, memory_order_relaxed);
    double lo, hi;
    memcpy(&lo, &lb, sizeof lo);
    memcpy(&hi, &hb, sizeof hi);
    switch (cmp) {
    case STORE_EQ: return x < lo || x > hi;
    case STORE_LT: return lo >= x;
    case STORE_LE: return lo > x;
    case STORE_GT: return hi <= x;
    case STORE_GE: return hi < x;
    case STORE_IS_NULL: return false;
    }
    return false;
}

static bool zone_excludes(const StoreChunk *ch, PhysType phys, const StoreZoneFilter *f)
{
    const StoreZone *z = &ch->zone;
    if (f->cmp == STORE_IS_NULL)
        return atomic_load_explicit(&z->null_count, memory_order_relaxed) == 0;
    if (f->value.is_null || phys == PHYS_STR)
        return false;  /* no min/max for strings yet */
    if (phys == PHYS_F32 || phys == PHYS_F64)
        return zone_excludes_float(z, f->cmp, phys == PHYS_F32 ? f->value.u.f32 : f->value.u.f64);
    if (!atomic_load_explicit(&z->has_value, memory_order_relaxed))
        return true;  /* only NULLs: no comparison is true */
    int64_t x = 0;
    switch (phys) {
    case PHYS_BOOL: x = f->value.u.b; break;
    case PHYS_I16: x = f->value.u.i16; break;
    case PHYS_I32: x = f->value.u.i32; break;
    case PHYS_I64: x = f->value.u.i64; break;
    default: break;
    }
    return zone_excludes_int(z, f->cmp, x);
}

static bool group_excluded(const StoreScan *s, const StoreRowGroup *g)
{
    for (int i = 0; i < s->nfilters; i++) {
        int col = s->cols[s->filters[i].column];
        if (zone_excludes(&g->chunks[col], s->table->phys[col], &s->filters[i]))
            return true;
    }
    return false;
}

/* Point out's vectors at group g's chunks (rows [start, start + n)). */
static void scan_fill(StoreScan *s, const StoreRowGroup *g, uint64_t start, uint32_t n, Batch *out)
{
    StoreTable *t = s->table;
    bool all_committed = start + STORE_GROUP_ROWS <= s->committed;
    for (int i = 0; i < s->ncols; i++) {
        int col = s->cols[i];
        Vector *v = &out->cols[i];
        v->is_const = false;
        if (col == STORE_COL_ROWID) {
            v->type = SQLTYPE(TYPE_INT8);
            v->phys = PHYS_I64;
            int64_t *ids = s->gather[i];
            for (uint32_t k = 0; k < n; k++)
                ids[k] = (int64_t)(start + k);
            v->data = ids;
            v->validity = NULL;
            continue;
        }
        const StoreChunk *ch = &g->chunks[col];
        v->type = t->cols[col].type;
        v->phys = t->phys[col];
        v->data = (void *)store__chunk_values(s->table, &s->ref, &s->cold, ch, col, start);
        if (atomic_load_explicit(&ch->zone.null_count, memory_order_relaxed) == 0) {
            v->validity = NULL;
        } else if (all_committed) {
            v->validity = (uint64_t *)ch->validity;  /* frozen: no writer touches it again */
        } else {
            uint64_t *copy = s->validity_copy + (size_t)i * VEC_VALIDITY_WORDS;
            for (uint32_t w = 0; w < (n + 63) / 64; w++)
                copy[w] = __atomic_load_n(&ch->validity[w], __ATOMIC_RELAXED);
            v->validity = copy;
        }
    }
    out->count = n;
    out->sel = NULL;
}

/* Copy the rows at offsets idx[0..n) of group g (first row start) into the
 * scan's buffers. */
static void scan_gather(StoreScan *s, const StoreRowGroup *g, uint64_t start, const uint16_t *idx,
                        uint32_t n, Batch *out)
{
    StoreTable *t = s->table;
    for (int i = 0; i < s->ncols; i++) {
        int col = s->cols[i];
        Vector *v = &out->cols[i];
        v->is_const = false;
        v->data = s->gather[i];
        v->validity = NULL;
        if (col == STORE_COL_ROWID) {
            v->type = SQLTYPE(TYPE_INT8);
            v->phys = PHYS_I64;
            int64_t *ids = s->gather[i];
            for (uint32_t k = 0; k < n; k++)
                ids[k] = (int64_t)(start + idx[k]);
            continue;
        }
        const StoreChunk *ch = &g->chunks[col];
        v->type = t->cols[col].type;
        v->phys = t->phys[col];
        size_t w = t->width[col];
        char *dst = s->gather[i];
        const char *src = store__chunk_values(s->table, &s->ref, &s->cold, ch, col, start);
        for (uint32_t k = 0; k < n; k++)
            memcpy(dst + k * w, src + (size_t)idx[k] * w, w);
        if (atomic_load_explicit(&ch->zone.null_count, memory_order_relaxed) == 0)
            continue;
        uint64_t *bits = s->validity_copy + (size_t)i * VEC_VALIDITY_WORDS;
        memset(bits, 0, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t o = idx[k];
            if ((__atomic_load_n(&ch->validity[o >> 6], __ATOMIC_RELAXED) >> (o & 63)) & 1)
                bits[k >> 6] |= UINT64_C(1) << (k & 63);
        }
        v->validity = bits;
    }
    out->count = n;
    out->sel = NULL;
}

/* Offsets of group g's rows in [lo, hi) visible to the scan, appended to idx. */
static uint32_t visible_rows(const StoreScan *s, const StoreRowGroup *g, uint64_t start,
                             uint64_t lo, uint64_t hi, uint16_t *idx, uint32_t n)
{
    for (uint64_t r = lo; r < hi; r++) {
        uint32_t o = (uint32_t)(r - start);
        if (store__xmax_visible(atomic_load_explicit(&g->xmax[o], memory_order_relaxed),
                                s->snapshot, s->self_mark))
            idx[n++] = (uint16_t)o;
    }
    return n;
}

/* Start loading the descriptors the next calls will wait for: the header of
 * the group after next, and the chunk descriptors (data pointer, zone map)
 * of the scan's columns in the next group. Over a wide table every group's
 * header and chunks are their own cache lines and pages: without this, a hot
 * filtered count over ClickBench's 105 columns spent ~55% of its time on
 * those two loads per batch (perf, issue 7). gend < end: rows past gend are
 * in allocated groups. */
static inline void prefetch_next(const StoreScan *s, uint64_t gend, uint64_t end)
{
    if (gend + STORE_GROUP_ROWS < end)
        __builtin_prefetch(store__group(s->table, gend / STORE_GROUP_ROWS + 1));
    if (gend >= end)
        return;
    const StoreRowGroup *n = store__group(s->table, gend / STORE_GROUP_ROWS);
    for (int i = 0; i < s->ncols; i++) {
        if (s->cols[i] == STORE_COL_ROWID)
            continue;
        const StoreChunk *ch = &n->chunks[s->cols[i]];
        __builtin_prefetch(&ch->data);
        __builtin_prefetch(&ch->zone);
        /* The next group's first lines of values too (its descriptor was
         * prefetched a batch ago, so the pointer is cached): each chunk is
         * its own allocation, and the hardware prefetcher would otherwise
         * start every 2048-value chunk with misses. */
        const char *data = (const char *)__atomic_load_n(&ch->data, __ATOMIC_RELAXED);
        if (data)
            for (int line = 0; line < 8; line++)
                __builtin_prefetch(data + 64 * line);
    }
}

static inline uint64_t scan_end(const StoreScan *s)
{
    return s->own_to > s->own_from ? s->own_to : s->visible;
}

/* The next morsel of a shared scan into [next_row, range_end); false when
 * every morsel was handed out. Morsels start at multiples of
 * STORE_MORSEL_ROWS, so a row group never spans two of them. */
static bool morsel_take(StoreScan *s)
{
    StoreMorsels *m = s->morsels;
    uint64_t start = atomic_fetch_add_explicit(&m->next, STORE_MORSEL_ROWS, memory_order_relaxed);
    if (start >= m->end)
        return false;
    s->next_row = start;
    s->range_end = start + STORE_MORSEL_ROWS < m->end ? start + STORE_MORSEL_ROWS : m->end;
    return true;
}

void store_scan_share(StoreScan *s, MemArena *arena)
{
    ERR_ASSERT(s->morsels == NULL && s->next_row == 0 && !s->clone);
    StoreMorsels *m = MEM_NEW(arena, StoreMorsels);
    atomic_store_explicit(&m->next, 0, memory_order_relaxed);
    m->end = scan_end(s);
    s->morsels = m;
    s->range_end = 0;
}

StoreScan *store_scan_clone(const StoreScan *orig, MemArena *arena, bool shared)
{
    ERR_ASSERT(!shared || orig->morsels != NULL);
    StoreScan *s = MEM_NEW(arena, StoreScan);
    *s = *orig;
    if (!shared)
        s->morsels = NULL;   /* every row from the first, on its own */
    s->clone = true;
    s->delta = NULL;   /* the original reads the delta's rows, once */
    s->groups_skipped = 0;
    s->next_row = s->range_end = 0;
    s->cold = (StoreColdCache){.group = UINT32_MAX};
    scan_buffers(s, arena);
    s->ref = store__run_ref_dup(orig->ref);
    return s;
}

static uint64_t table_rows_left(const StoreScan *s);

uint64_t store_scan_rows_left(const StoreScan *s)
{
    return table_rows_left(s) + (s->delta ? table_rows_left(s->delta) : 0);
}

static uint64_t table_rows_left(const StoreScan *s)
{
    uint64_t end = scan_end(s);
    if (s->ended || s->next_row >= end)
        return 0;
    if (s->nfilters == 0)
        return end - s->next_row;
    /* Only the groups the zone maps let through: a filter on the clustering
     * key (ClickBench's CounterID = 62) leaves a few hundred of 5,000. */
    uint64_t rows = 0;
    for (uint64_t start = s->next_row - s->next_row % STORE_GROUP_ROWS; start < end; start += STORE_GROUP_ROWS) {
        const StoreRowGroup *g = store__group(s->table, start / STORE_GROUP_ROWS);
        if (!group_excluded(s, g))
            rows += end - start < STORE_GROUP_ROWS ? end - start : STORE_GROUP_ROWS;
    }
    return rows;
}

bool store_scan_next(StoreScan *s, Batch *out)
{
    if (s->ended)
        return false;
    if (s->txn && s->txn->gen != s->txn_gen)
        err_raise(ERRCODE_INTERNAL_ERROR, "scan of \"%s\" used after its transaction ended",
                  s->table->name);
    if (!out->cols) {
        out->cols = s->vecs;
        out->ncols = s->ncols;
    }
    ERR_ASSERT(out->ncols == s->ncols);
    store__cold_cache_settle(&s->cold);   /* the previous batch is done with */
    uint64_t end = scan_end(s);
    for (;;) {
        if (s->next_row >= (s->morsels ? s->range_end : end) && !(s->morsels && morsel_take(s)))
            break;
        uint64_t start = s->next_row - s->next_row % STORE_GROUP_ROWS;
        uint64_t gend = start + STORE_GROUP_ROWS < end ? start + STORE_GROUP_ROWS : end;
        s->next_row = gend;
        const StoreRowGroup *g = store__group(s->table, start / STORE_GROUP_ROWS);
        if (s->nfilters && group_excluded(s, g)) {
            s->groups_skipped++;
            continue;
        }
        /* Rows of the group in [0, visible) and in [own_from, own_to). */
        uint64_t hi1 = s->visible < gend ? (s->visible > start ? s->visible : start) : gend;
        uint64_t lo2 = s->own_from > start ? s->own_from : start;
        uint64_t hi2 = s->own_to < gend ? s->own_to : gend;
        bool dead = atomic_load_explicit(&((StoreRowGroup *)g)->ndead, memory_order_acquire) != 0;
        bool contiguous = lo2 >= hi2 || (hi1 == lo2);
        if (!dead && contiguous) {
            uint64_t stop = lo2 < hi2 ? hi2 : hi1;
            if (stop == start)
                continue;
            prefetch_next(s, gend, end);
            scan_fill(s, g, start, (uint32_t)(stop - start), out);
            return true;
        }
        uint16_t idx[STORE_GROUP_ROWS];
        uint32_t n = visible_rows(s, g, start, start, hi1, idx, 0);
        if (lo2 < hi2)
            n = visible_rows(s, g, start, lo2, hi2, idx, n);
        if (n == 0)
            continue;
        prefetch_next(s, gend, end);
        scan_gather(s, g, start, idx, n, out);
        return true;
    }
    if (s->delta && store_scan_next(s->delta, out)) {
        if (s->rowid_col >= 0) {
            /* Locators of delta rows are tagged (delta.c); the ids are in
             * the delta scan's own buffer. */
            int64_t *ids = out->cols[s->rowid_col].data;
            for (uint32_t i = 0; i < out->count; i++)
                ids[i] |= (int64_t)STORE_DELTA_ROW;
        }
        return true;
    }
    out->count = 0;
    out->sel = NULL;
    return false;
}
void store_scan_end(StoreScan *s)
{
    if (!s || s->ended)
        return;
    s->ended = true;
    store_scan_end(s->delta);
    store__cold_cache_free(&s->cold);
    store__run_release(s->table, s->ref);
    s->ref = NULL;
    if (!s->clone && !s->private_scan)
        store__txn_scan_unregister(s->txn, s->txn_gen, s->table);
}

uint64_t store_scan_groups_skipped(const StoreScan *s)
{
    return s->groups_skipped;
}
