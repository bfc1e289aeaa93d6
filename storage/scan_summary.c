/*
 * scan_summary.c — a scan's row groups told by their metadata instead of
 * their rows, where that is exact (issue 7: count(*), count(x), min(x),
 * max(x) with no WHERE and no GROUP BY).
 *
 * A group that store_scan_next would hand out zero copy (no row ever
 * deleted in it, every row inside the scan's snapshot or the scan's own
 * transaction's) has exactly `stop - start` visible rows: that is its
 * count(*), and nothing needs to be read. Its zone maps (table.c) are
 * widened by every value appended to it, so for a *full* group they are
 * the exact min, max and NULL count of its 2048 rows — unless rows once
 * appended to it were rolled back (their values stay in the zone map and
 * later rows take their places): undo marks such groups `zone_loose`
 * (mvcc.c), and they, partial groups (rows may still be appended past the
 * scan's end, widening the zone map under us) and groups with deleted or
 * invisible rows are handed out as rows instead. ADD COLUMN sets the new
 * column's zone maps to the filled value exactly (alter.c); UPDATE is a
 * deletion plus an append and VACUUM keeps the deleted count, so neither
 * makes a zone map claim rows that are not there.
 *
 * The summary never touches column data, so cold (checkpointed) columns
 * are not decoded for summarised groups.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include "common/error.h"

static bool phys_has_int_zone(PhysType p)
{
    return p == PHYS_BOOL || p == PHYS_I16 || p == PHYS_I32 || p == PHYS_I64;
}

/* Fill sums for the asked columns of group g; false when one cannot be told. */
static bool group_zones(const StoreScan *s, const StoreRowGroup *g, const bool *zone_cols,
                        StoreColSummary *sums)
{
    if (atomic_load_explicit(&((StoreRowGroup *)g)->zone_loose, memory_order_relaxed))
        return false;
    for (int i = 0; i < s->ncols; i++) {
        if (!zone_cols[i])
            continue;
        int col = s->cols[i];
        if (col == STORE_COL_ROWID || !phys_has_int_zone(s->table->phys[col]))
            return false;
        const StoreZone *z = &g->chunks[col].zone;
        StoreColSummary *c = &sums[i];
        c->null_count = atomic_load_explicit(&z->null_count, memory_order_relaxed);
        c->has_value = atomic_load_explicit(&z->has_value, memory_order_relaxed);
        c->min = (int64_t)atomic_load_explicit(&z->min_bits, memory_order_relaxed);
        c->max = (int64_t)atomic_load_explicit(&z->max_bits, memory_order_relaxed);
        if (c->null_count > STORE_GROUP_ROWS || c->has_value == (c->null_count == STORE_GROUP_ROWS))
            return false;  /* inconsistent: never trust it */
    }
    return true;
}

StoreSummaryKind store_scan_next_summary(StoreScan *s, const bool *zone_cols, uint32_t *rows,
                                         StoreColSummary *sums, Batch *out)
{
    ERR_ASSERT(s->nfilters == 0);
    bool any_zone = false;
    for (int i = 0; i < s->ncols; i++)
        any_zone |= zone_cols[i];
    if (s->ended)
        return STORE_SUMMARY_END;
    if (s->txn && s->txn->gen != s->txn_gen)
        err_raise(ERRCODE_INTERNAL_ERROR, "scan of \"%s\" used after its transaction ended",
                  s->table->name);
    /* The group bounds exactly as store_scan_next computes them. */
    uint64_t end = s->own_to > s->own_from ? s->own_to : s->visible;
    while (s->next_row < end) {
        uint64_t start = s->next_row - s->next_row % STORE_GROUP_ROWS;
        uint64_t gend = start + STORE_GROUP_ROWS < end ? start + STORE_GROUP_ROWS : end;
        const StoreRowGroup *g = store__group(s->table, start / STORE_GROUP_ROWS);
        uint64_t hi1 = s->visible < gend ? (s->visible > start ? s->visible : start) : gend;
        uint64_t lo2 = s->own_from > start ? s->own_from : start;
        uint64_t hi2 = s->own_to < gend ? s->own_to : gend;
        bool dead = atomic_load_explicit(&((StoreRowGroup *)g)->ndead, memory_order_acquire) != 0;
        bool contiguous = lo2 >= hi2 || hi1 == lo2;
        if (dead || !contiguous)
            break;  /* invisible rows inside: read them */
        uint64_t stop = lo2 < hi2 ? hi2 : hi1;
        if (stop == start) {
            s->next_row = gend;
            continue;
        }
        if (any_zone && (stop - start != STORE_GROUP_ROWS || !group_zones(s, g, zone_cols, sums)))
            break;
        s->next_row = gend;
        *rows = (uint32_t)(stop - start);
        return STORE_SUMMARY_GROUP;
    }
    return store_scan_next(s, out) ? STORE_SUMMARY_ROWS : STORE_SUMMARY_END;
}
