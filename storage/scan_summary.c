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
 * The table's summary (StoreTableSummary, storage_int.h). Telling 4,883
 * groups one by one reads each one's header and zone map: two cache and
 * TLB misses per group on a fresh connection's first statement (0.3 ms of
 * ClickBench's Q6). So the first call of a summary scan first tries the
 * table's summary of its *final* groups [0, n): full, below `committed`
 * (their zone maps never change again: only rows >= committed are written
 * or rolled back), ndead 0 and not zone_loose when read — a walk that
 * read store_g.visible_seq == seq before reading them. Why a scan with
 * snapshot S <= seq may take them as one run:
 *  - rows: it checks n * 2048 <= its visible prefix (xmin <= S);
 *  - deletions: one committed at or before S <= seq set its mark (ndead)
 *    before its commit was published, hence before the walk read
 *    visible_seq, hence before the walk read ndead (acquire): the walk saw
 *    it and stopped there. Later ones commit after S: invisible to the
 *    scan. Its own (uncommitted) deletions need t's write lock, which it
 *    then still holds: a writer never takes the summary;
 *  - TRUNCATE (a new generation swapped in at commit), ADD COLUMN, a
 *    rollback's zone_loose, VACUUM's dead groups: all need a commit after
 *    seq (S > seq: walk again), touch only groups the walk excluded, or
 *    (a snapshot older than a TRUNCATE) leave the scan no visible row of
 *    the new generation.
 * A scan with S > seq walks again and replaces the summary (any commit
 * anywhere since moves visible_seq: on a busy server that is today's walk
 * plus a copy; a per-table count of deletions bumped in mark_deleted would
 * let it extend the summary instead). Slots hold the merged zone maps of
 * up to 8 asked columns; a walk for another column at the same seq and
 * extent adds its slot. The run is handed out as one summary of n * 2048
 * rows followed by n - 1 empty ones (rows 0, no values) so that callers
 * counting summaries (EXPLAIN ANALYZE's "row groups from metadata") count
 * groups.
 *
 * The summary never touches column data, so cold (checkpointed) columns
 * are not decoded for summarised groups.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <sched.h>
#include "common/error.h"

static bool phys_has_int_zone(PhysType p)
{
    return p == PHYS_BOOL || p == PHYS_I16 || p == PHYS_I32 || p == PHYS_I64;
}

/* One column's zone map in group g, when consistent (a NULL count no
 * larger than the group, a value unless all are NULL): never trust others. */
static bool zone_read(const StoreRowGroup *g, int col, StoreColSummary *c)
{
    const StoreZone *z = &g->chunks[col].zone;
    c->null_count = atomic_load_explicit(&z->null_count, memory_order_relaxed);
    c->has_value = atomic_load_explicit(&z->has_value, memory_order_relaxed);
    c->min = (int64_t)atomic_load_explicit(&z->min_bits, memory_order_relaxed);
    c->max = (int64_t)atomic_load_explicit(&z->max_bits, memory_order_relaxed);
    return c->null_count <= STORE_GROUP_ROWS && c->has_value != (c->null_count == STORE_GROUP_ROWS);
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
        if (col == STORE_COL_ROWID || !phys_has_int_zone(s->table->phys[col]) ||
            !zone_read(g, col, &sums[i]))
            return false;
    }
    return true;
}

/* ---- the table's summary of its final groups ---- */

/* At most this many groups in one run: its rows fit *rows (uint32_t). */
#define SUMMARY_MAX_GROUPS ((uint64_t)INT32_MAX / STORE_GROUP_ROWS)

static void summary_lock(StoreTable *t)
{
    while (atomic_exchange_explicit(&t->summary_lock, 1, memory_order_acquire))
        while (atomic_load_explicit(&t->summary_lock, memory_order_relaxed))
            sched_yield();  /* held for a copy of StoreTableSummary only */
}

static void summary_unlock(StoreTable *t)
{
    atomic_store_explicit(&t->summary_lock, 0, memory_order_release);
}

static const StoreSummarySlot *summary_slot(const StoreTableSummary *m, int col)
{
    for (int k = 0; k < m->nslots; k++)
        if (m->slots[k].col == col)
            return &m->slots[k];
    return NULL;
}

static void slot_merge(StoreSummarySlot *a, const StoreColSummary *c)
{
    a->null_count += c->null_count;
    if (!c->has_value)
        return;
    if (!a->has_value || c->min < a->min)
        a->min = c->min;
    if (!a->has_value || c->max > a->max)
        a->max = c->max;
    a->has_value = true;
}

/* Walk t's groups from 0 while final (storage_int.h StoreTableSummary),
 * merging the zone maps of table columns cols[0..n) into acc; returns the
 * number of final groups. Reads metadata only; never raises. */
static uint64_t summary_walk(StoreTable *t, const int *cols, int n, StoreSummarySlot *acc)
{
    uint64_t limit = atomic_load_explicit(&t->committed, memory_order_acquire) / STORE_GROUP_ROWS;
    if (limit > SUMMARY_MAX_GROUPS)
        limit = SUMMARY_MAX_GROUPS;
    for (int k = 0; k < n; k++)
        acc[k] = (StoreSummarySlot){.col = cols[k]};
    uint64_t g = 0;
    for (; g < limit; g++) {
        StoreRowGroup *grp = store__group(t, g);
        if (atomic_load_explicit(&grp->ndead, memory_order_acquire) != 0 ||
            atomic_load_explicit(&grp->zone_loose, memory_order_relaxed))
            break;
        StoreColSummary c[STORE_SUMMARY_SLOTS];
        int k = 0;
        while (k < n && zone_read(grp, cols[k], &c[k]))
            k++;
        if (k < n)
            break;  /* inconsistent: never trust it */
        for (k = 0; k < n; k++)
            slot_merge(&acc[k], &c[k]);
    }
    return g;
}

/* Install a walk's result: the same extent at the same seq gains its
 * columns' slots; a newer walk replaces the summary; an older one is dropped. */
static void summary_publish(StoreTable *t, uint64_t seq, uint64_t ngroups,
                            const StoreSummarySlot *acc, int n)
{
    summary_lock(t);
    StoreTableSummary *m = &t->summary;
    if (!m->built || m->seq != seq || m->ngroups != ngroups) {
        if (m->built && seq < m->seq) {
            summary_unlock(t);
            return;
        }
        *m = (StoreTableSummary){.built = true, .seq = seq, .ngroups = ngroups};
    }
    for (int k = 0; k < n; k++) {
        if (summary_slot(m, acc[k].col))
            continue;
        if (m->nslots < STORE_SUMMARY_SLOTS)
            m->slots[m->nslots++] = acc[k];
        else
            m->slots[m->evict++ % STORE_SUMMARY_SLOTS] = acc[k];
    }
    summary_unlock(t);
}

/* Whether scan s may take m's run: see the file comment. */
static bool summary_fits(const StoreTableSummary *m, const StoreScan *s, const int *cols, int n)
{
    if (!m->built || m->ngroups == 0 || s->snapshot > m->seq ||
        m->ngroups * STORE_GROUP_ROWS > s->visible)
        return false;
    for (int k = 0; k < n; k++)
        if (!summary_slot(m, cols[k]))
            return false;
    return true;
}

/* The table columns whose zone maps the scan asks for (distinct), or -1
 * when one cannot be summarised or there are more than the slots. */
static int summary_cols(const StoreScan *s, const bool *zone_cols, int *cols)
{
    int n = 0;
    for (int i = 0; i < s->ncols; i++) {
        if (!zone_cols[i])
            continue;
        int col = s->cols[i];
        if (col == STORE_COL_ROWID || !phys_has_int_zone(s->table->phys[col]))
            return -1;
        int k = 0;
        while (k < n && cols[k] != col)
            k++;
        if (k == n) {
            if (n == STORE_SUMMARY_SLOTS)
                return -1;
            cols[n++] = col;
        }
    }
    return n;
}

/* First call of a summary scan: the table's run of final groups as one
 * summary (walking them first when its summary is stale for this scan or
 * lacks a column), or false to go group by group. */
static bool summary_take(StoreScan *s, const bool *zone_cols, uint32_t *rows,
                         StoreColSummary *sums)
{
    StoreTable *t = s->table;
    s->sum_tried = true;
    int cols[STORE_SUMMARY_SLOTS];
    int n = summary_cols(s, zone_cols, cols);
    if (n < 0 || s->morsels || s->clone || s->next_row != 0 || s->visible < STORE_GROUP_ROWS ||
        store__txn_own_first(t, s->txn) != UINT64_MAX || store__delta_has(s->txn, t))
        return false;  /* a writer may have deleted rows itself (or claimed them: delta.c) */
    StoreTableSummary m;
    summary_lock(t);
    m = t->summary;
    summary_unlock(t);
    if (!summary_fits(&m, s, cols, n)) {
        bool fresh = m.built && s->snapshot <= m.seq;
        for (int k = 0; fresh && k < n; k++)
            fresh = summary_slot(&m, cols[k]) != NULL;
        if (fresh)
            return false;  /* up to date, but not for this snapshot's rows */
        StoreSummarySlot acc[STORE_SUMMARY_SLOTS];
        uint64_t seq = atomic_load(&store_g.visible_seq);  /* before any ndead */
        uint64_t ngroups = summary_walk(t, cols, n, acc);
        summary_publish(t, seq, ngroups, acc, n);
        m = (StoreTableSummary){.built = true, .seq = seq, .ngroups = ngroups, .nslots = n};
        for (int k = 0; k < n; k++)
            m.slots[k] = acc[k];
        if (!summary_fits(&m, s, cols, n))
            return false;
    }
    for (int i = 0; i < s->ncols; i++) {
        if (!zone_cols[i])
            continue;
        const StoreSummarySlot *a = summary_slot(&m, s->cols[i]);
        sums[i] = (StoreColSummary){.null_count = (uint32_t)a->null_count,
                                    .has_value = a->has_value, .min = a->min, .max = a->max};
    }
    *rows = (uint32_t)(m.ngroups * STORE_GROUP_ROWS);
    s->next_row = m.ngroups * STORE_GROUP_ROWS;
    s->sum_follow = m.ngroups - 1;
    return true;
}

StoreSummaryKind store_scan_next_summary(StoreScan *s, const bool *zone_cols, uint32_t *rows,
                                         StoreColSummary *sums, Batch *out)
{
    ERR_ASSERT(s->nfilters == 0);
    if (s->sum_follow > 0) {
        /* The run's other groups: told already, counted one by one. */
        s->sum_follow--;
        *rows = 0;
        for (int i = 0; i < s->ncols; i++)
            if (zone_cols[i])
                sums[i] = (StoreColSummary){0};
        return STORE_SUMMARY_GROUP;
    }
    bool any_zone = false;
    for (int i = 0; i < s->ncols; i++)
        any_zone |= zone_cols[i];
    if (s->ended)
        return STORE_SUMMARY_END;
    if (s->txn && s->txn->gen != s->txn_gen)
        err_raise(ERRCODE_INTERNAL_ERROR, "scan of \"%s\" used after its transaction ended",
                  s->table->name);
    if (!s->sum_tried && summary_take(s, zone_cols, rows, sums))
        return STORE_SUMMARY_GROUP;
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
