/*
 * scan.c — reading a table's chosen columns, one row group per batch.
 *
 * A scan fixes what it sees when it begins: the committed row count, or,
 * for the table's own writer, every row it wrote (READ COMMITTED's
 * statement snapshot, in this append-only edition). Each store_scan_next
 * hands out the next row group that the zone maps cannot exclude, zero
 * copy: the vectors point at the chunk arrays. The one exception is the
 * validity bitmap of a group that holds uncommitted rows: another writer
 * may be setting bits in the same words, so those words are copied (with
 * atomic loads) into the scan's buffer.
 *
 * Zone maps are hints: a group is skipped only when no row in it can
 * satisfy a filter; the caller still evaluates its predicates on every row.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"

StoreScan *store_scan_begin(StoreTable *t, StoreTxn *txn, int ncols, const int *cols,
                            int nfilters, const StoreZoneFilter *filters, MemArena *arena)
{
    ERR_ASSERT(ncols >= 0 && nfilters >= 0);
    StoreScan *s = MEM_NEW(arena, StoreScan);
    s->table = t;
    s->txn = txn;
    s->ncols = ncols;
    s->cols = MEM_NEW_ARRAY(arena, int, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) {
        ERR_ASSERT(cols[i] >= 0 && cols[i] < t->ncols);
        s->cols[i] = cols[i];
    }
    s->nfilters = nfilters;
    s->filters = MEM_NEW_ARRAY(arena, StoreZoneFilter, nfilters ? nfilters : 1);
    for (int i = 0; i < nfilters; i++) {
        ERR_ASSERT(filters[i].column >= 0 && filters[i].column < ncols);
        s->filters[i] = filters[i];
    }
    s->vecs = MEM_NEW_ARRAY(arena, Vector, ncols ? ncols : 1);
    s->validity_copy = mem_alloc(arena, sizeof(uint64_t) * VEC_VALIDITY_WORDS * (size_t)(ncols ? ncols : 1));

    /* Register before reading the counts: DROP TABLE then waits for us. */
    store__txn_scan_register(txn, t);
    s->txn_gen = txn ? txn->gen : 0;
    s->committed = atomic_load_explicit(&t->committed, memory_order_acquire);
    if (txn && __atomic_load_n(&t->writer, __ATOMIC_RELAXED) == txn)
        s->visible = atomic_load_explicit(&t->nrows, memory_order_acquire);
    else
        s->visible = s->committed;
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
    const StoreTable *t = s->table;
    bool all_committed = start + STORE_GROUP_ROWS <= s->committed;
    for (int i = 0; i < s->ncols; i++) {
        int col = s->cols[i];
        const StoreChunk *ch = &g->chunks[col];
        Vector *v = &out->cols[i];
        v->type = t->cols[col].type;
        v->phys = t->phys[col];
        v->is_const = false;
        v->data = ch->data;
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
    while (s->next_row < s->visible) {
        uint64_t start = s->next_row;
        uint64_t left = s->visible - start;
        uint32_t n = left < STORE_GROUP_ROWS ? (uint32_t)left : STORE_GROUP_ROWS;
        s->next_row += n;
        const StoreRowGroup *g = store__group(s->table, start / STORE_GROUP_ROWS);
        if (s->nfilters && group_excluded(s, g)) {
            s->groups_skipped++;
            continue;
        }
        scan_fill(s, g, start, n, out);
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
    store__txn_scan_unregister(s->txn, s->txn_gen, s->table);
}

uint64_t store_scan_groups_skipped(const StoreScan *s)
{
    return s->groups_skipped;
}
