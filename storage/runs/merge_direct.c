/*
 * merge_direct.c — the merge's scan paths for sources whose version ranges
 * don't overlap (RUNS.md "The batched merge", "Recency"): equal keys ordered
 * by source recency, no versions read, and for one integer key the direct
 * path — stretches straight to the output as spans, the split of a big
 * source against the small ones pre-merged, branch-free window rounds for
 * interleaved sources. The staged paths and resolution are in merge.c.
 */
#define STRATA_RUNS_INTERNAL
#include "common/error.h"
#include "storage/runs/merge_int.h"

/* ---------------------------------------------------------------- direct (recency) */

/* With recency (plan_recency) every remaining source is wholly visible and
 * equal keys are ordered by source rank, so the first entry of each key in
 * (key, rank) order decides it: no versions, no staging, no resolution pass.
 * A source's stretch below every other head goes straight to the sink:
 * positions filled as (source, first row + i) when the stretch has no key
 * twice and no tombstone, entry by entry (branch-free) otherwise. */

/* Position the cursor at entry `at` of its block (fetch the next block at
 * the end). */
static inline void cursor_seek(Merge *m, int ci, uint32_t at)
{
    Cursor *c = &m->cur[ci];
    c->pos = at;
    if (at == c->blk.count)
        merge__fetch_block(m, ci);
    else
        m->hk[ci] = c->k64[at];
}

/* Is key k before the bound (b2, incl): k < b2, or k == b2 when the cursor's
 * rank beats the rank at b2. */
static inline bool before_bound(int64_t k, int64_t b2, bool incl)
{
    return k < b2 || (incl && k == b2);
}

/* First position in [c->pos, lim) not before the bound. c->pos itself is
 * before it. The first 16 entries are counted branch-free (sorted, so the
 * count is the end): the usual stretch (a big run between sparse updates)
 * is a few to a few dozen entries, where a gallop + binary search takes a
 * data-dependent branch per step; longer ones then gallop. */
static uint32_t stretch_end(const Cursor *c, uint32_t lim, int64_t b2, bool incl)
{
    const int64_t *k = c->k64;
    if (incl && b2 == INT64_MAX)
        return lim;
    int64_t bound = b2 + incl; /* before: k < bound */
    uint32_t a = c->pos + 1;
    uint32_t w = lim - a < 16 ? lim - a : 16, cnt = 0;
    for (uint32_t i = 0; i < w; i++)
        cnt += k[a + i] < bound;
    a += cnt;
    if (cnt < w || a == lim)
        return a;
    uint32_t b = a, step = 1; /* k[a - 1] is before */
    while (b < lim && k[b] < bound) {
        a = b + 1;
        step *= 2;
        b = a + step;
    }
    b = b < lim ? b : lim;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (k[mid] < bound)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

/* Append the span (src, rows row.., output at.., len) to the batch's spans,
 * extending the last one when it continues it. */
static inline void span_push(Merge *m, uint16_t src, uint64_t row, uint32_t at, uint32_t len)
{
    uint32_t ns = m->nspans;
    MergeSpan *l = &m->d_spans[ns - (ns > 0)];
    if (ns > 0 && m->d_src[ns - 1] == src && l->row + l->len == row && l->out_at + l->len == at) {
        l->len = (uint16_t)(l->len + len);
        return;
    }
    m->d_spans[ns] = (MergeSpan){row, (uint16_t)at, (uint16_t)len};
    m->d_src[ns] = src;
    m->nspans = ns + 1;
}

/* Record output entries [from, to) as spans of consecutive rows of one
 * source, for gather_spans. */
static void spans_add(Merge *m, uint32_t from, uint32_t to)
{
    const uint16_t *src = m->o_src;
    const uint64_t *row = m->o_row;
    for (uint32_t i = from; i < to;) {
        uint32_t j = i + 1;
        while (j < to && src[j] == src[i] && row[j] == row[j - 1] + 1)
            j++;
        span_push(m, src[i], row[i], i, j - i);
        i = j;
    }
}

/* Put entries [c->pos, end) of cursor ci into sink s at out; returns the new
 * out. The caller guarantees room for end - c->pos entries. */
static uint32_t sink_stretch(Merge *m, int ci, uint32_t end, Sink *s, uint32_t out)
{
    uint32_t out0 = out;
    const Cursor *c = &m->cur[ci];
    const int64_t *k = c->k64;
    const bool *d = c->blk.deleted;
    uint32_t p = c->pos;
    while (s->have && p < end && k[p] == s->last) /* shadowed by the entry already seen */
        p++;
    if (p == end)
        return out;
    unsigned bad = 0;
    for (uint32_t i = p + 1; !c->blk.distinct && i < end; i++)
        bad |= k[i] == k[i - 1];
    for (uint32_t i = p; d && !s->del && i < end; i++)
        bad |= d[i];
    uint32_t n = end - p;
    uint64_t first = c->blk.first_row;
    if (!bad) {
        uint16_t *restrict os = s->src + out;
        uint64_t *restrict orow = s->row + out;
        fill_src(os, (uint16_t)ci, n);
        if (c->blk.rows)
            memcpy(orow, c->blk.rows + p, (size_t)n * 8);
        else
            fill_rows(orow, first + p, n);
        if (s == &m->out)
            span_push(m, (uint16_t)ci, orow[0], out, n);
        if (s->key)
            memcpy(s->key + out, k + p, (size_t)n * 8);
        if (s->del) {
            if (d)
                memcpy(s->del + out, d + p, n);
            else
                memset(s->del + out, 0, n);
        }
        s->last = k[end - 1];
        s->have = true;
        return out + n;
    }
    int64_t last = s->last;
    bool have = s->have;
    for (uint32_t i = p; i < end; i++) {
        bool dl = d ? d[i] : false;
        bool take = (!have || k[i] != last) && (s->del || !dl);
        last = k[i];
        have = true;
        s->src[out] = (uint16_t)ci;
        s->row[out] = c->blk.rows ? c->blk.rows[i] : first + i;
        if (s->key) {
            s->key[out] = k[i];
            s->del[out] = dl;
        }
        out += take;
    }
    s->last = last;
    s->have = true;
    if (s == &m->out)
        spans_add(m, out0, out);
    return out;
}

/* Put the entry at the cursor into sink s at out (a stretch of one). */
static inline uint32_t sink_one(Merge *m, int ci, Sink *s, uint32_t out)
{
    const Cursor *c = &m->cur[ci];
    uint32_t p = c->pos;
    int64_t k = c->k64[p];
    bool dl = c->blk.deleted ? c->blk.deleted[p] : false;
    bool take = (!s->have || k != s->last) && (s->del || !dl);
    uint64_t row = c->blk.rows ? c->blk.rows[p] : c->blk.first_row + p;
    s->src[out] = (uint16_t)ci;
    s->row[out] = row;
    if (s->key) {
        s->key[out] = k;
        s->del[out] = dl;
    }
    if (take && s == &m->out)
        span_push(m, (uint16_t)ci, row, out, 1);
    s->last = k;
    s->have = true;
    return out + take;
}

/* Merge the cursors set[0..ns) into sink s from out up to max entries:
 * repeatedly the best head (key, rank) streams its stretch before the second
 * best. Sets *exhausted when every cursor of the set is done. */
static uint32_t nway_fill(Merge *m, const int *set, int ns, Sink *s, uint32_t out, uint32_t max,
                          bool *exhausted, uint32_t steps)
{
    *exhausted = ns == 0;
    if (ns == 0)
        return out;
    const int64_t *hk = m->hk;
    const uint32_t *hr = m->hr;
    while (out < max && steps-- > 0) {
        /* best and second best (key, rank); done cursors are (INT64_MAX, UINT32_MAX) */
        int w = set[0];
        int64_t bk = hk[w], b2 = INT64_MAX;
        uint32_t br = hr[w], b2r = UINT32_MAX;
        for (int j = 1; j < ns; j++) { /* branch-free: the winner is random when interleaved */
            int ci = set[j];
            int64_t k = hk[ci];
            uint32_t r = hr[ci];
            bool lt = (k < bk) | ((k == bk) & (r < br));
            bool lt2 = (k < b2) | ((k == b2) & (r < b2r));
            b2 = lt ? bk : lt2 ? k : b2;
            b2r = lt ? br : lt2 ? r : b2r;
            bk = lt ? k : bk;
            br = lt ? r : br;
            w = lt ? ci : w;
        }
        if (br == UINT32_MAX) {
            *exhausted = true;
            break;
        }
        Cursor *c = &m->cur[w];
        uint32_t p = c->pos;
        if (p + 1 == c->blk.count || out + 1 == max || !before_bound(c->k64[p + 1], b2, br < b2r)) {
            out = sink_one(m, w, s, out); /* interleaved sources: mostly single entries */
            m->stretch_avg = (m->stretch_avg * 7 + 16) / 8;
            cursor_seek(m, w, p + 1);
            continue;
        }
        uint32_t avail = c->blk.count - c->pos, room = max - out;
        uint32_t end = stretch_end(c, c->pos + (avail < room ? avail : room), b2, br < b2r);
        m->stretch_avg = (m->stretch_avg * 7 + (end - c->pos) * 16) / 8;
        out = sink_stretch(m, w, end, s, out);
        cursor_seek(m, w, end);
    }
    return out;
}

/* Sink the n sorted window entries (keys relative to lo) at out: the first
 * of each key (for the output, unless a tombstone). Returns the new out. */
static uint32_t window_emit(Merge *m, uint32_t n, int64_t lo, Sink *s, uint32_t out)
{
    uint32_t changes = 0;
    int64_t last = s->last;
    bool have = s->have, keep_del = s->del != NULL;
    uint16_t prev = m->w_src[m->w_idx[0]];
    for (uint32_t t = 0; t < n; t++) {
        uint16_t e = m->w_idx[t], src = m->w_src[e];
        const MergeKeys *b = &m->cur[src].blk;
        uint32_t p = m->w_pos[e];
        int64_t k = (int64_t)(m->w_key[t] + (uint64_t)lo);
        bool dl = b->deleted ? b->deleted[p] : false;
        changes += src != prev;
        prev = src;
        s->src[out] = src;
        s->row[out] = b->rows ? b->rows[p] : b->first_row + p;
        if (keep_del) {
            s->key[out] = k;
            s->del[out] = dl;
        }
        out += (!have || k != last) && (keep_del || !dl);
        last = k;
        have = true;
    }
    s->last = last;
    s->have = have;
    m->stretch_avg = n * 16 / (changes + 1); /* the stretch length a head scan would see */
    return out;
}

/* A window round over the cursors set[0..ns) into sink s (as stage_window):
 * each offers up to room/active entries, B = the smallest window-end key,
 * every entry with key < B is collected, radix-sorted and tie-ordered by
 * rank, and kept when first of its key (and, for the output, not a
 * tombstone). Branch-free per entry, where a head scan per entry
 * mispredicts on randomly interleaved sources. Returns false, doing
 * nothing, when no entry is below B (ties at the heads: the caller takes a
 * head-scan step). */
static bool window_fill(Merge *m, const int *set, int ns, Sink *s, uint32_t *outp, uint32_t room)
{
    int active = 0;
    for (int j = 0; j < ns; j++)
        active += !m->cur[set[j]].done;
    if (active == 0 || room < (uint32_t)active)
        return false;
    uint32_t W = room / (uint32_t)active;
    int64_t lo = INT64_MAX, B = INT64_MAX;
    for (int j = 0; j < ns; j++) {
        const Cursor *c = &m->cur[set[j]];
        if (c->done)
            continue;
        uint32_t w = c->blk.count - c->pos < W ? c->blk.count - c->pos : W;
        int64_t e = c->k64[c->pos + w - 1];
        B = e < B ? e : B;
        lo = c->k64[c->pos] < lo ? c->k64[c->pos] : lo;
    }
    uint32_t n = 0;
    for (int j = 0; j < ns; j++) {
        int i = set[j];
        Cursor *c = &m->cur[i];
        m->w_take[i] = 0;
        if (c->done || c->k64[c->pos] >= B)
            continue;
        uint32_t a = c->pos, b = c->pos + (c->blk.count - c->pos < W ? c->blk.count - c->pos : W);
        while (a < b) { /* first position with key >= B */
            uint32_t mid = a + (b - a) / 2;
            if (c->k64[mid] < B)
                a = mid + 1;
            else
                b = mid;
        }
        uint32_t take = a - c->pos;
        m->w_take[i] = take;
        for (uint32_t t = 0; t < take; t++, n++) {
            m->w_key[n] = (uint64_t)c->k64[c->pos + t] - (uint64_t)lo;
            m->w_idx[n] = (uint16_t)n;
            m->w_src[n] = (uint16_t)i;
            m->w_pos[n] = c->pos + t;
        }
    }
    if (n == 0)
        return false;
    uint64_t range = (uint64_t)B - (uint64_t)lo - 1;
    merge__radix_sort(m, n, range == 0 ? 0 : 64 - __builtin_clzll(range));
    merge__order_ties(m, n);
    *outp = window_emit(m, n, lo, s, *outp);
    for (int j = 0; j < ns; j++) {
        int i = set[j];
        if (m->w_take[i])
            cursor_seek(m, i, m->cur[i].pos + m->w_take[i]);
    }
    return true;
}

static bool nway_all_done(const Merge *m, const int *set, int ns)
{
    for (int j = 0; j < ns; j++)
        if (!m->cur[set[j]].done)
            return false;
    return true;
}

/* Entries of the pre-merge buffer before (kb, rb) go to the output. */
static uint32_t split_pre(Merge *m, int64_t kb, uint32_t rb, uint32_t out, uint32_t max)
{
    Sink *s = &m->out;
    uint32_t i = m->p_pos, out0 = out;
    int64_t last = s->last;
    bool have = s->have;
    while (i < m->p_count && out < max) {
        int64_t k = m->pre.key[i];
        uint16_t src = m->pre.src[i];
        if (!(k < kb || (k == kb && m->cur[src].rank < rb)))
            break;
        s->src[out] = src;
        s->row[out] = m->pre.row[i];
        out += (!have || k != last) && !m->pre.del[i];
        last = k;
        have = true;
        i++;
    }
    s->last = last;
    s->have = have;
    spans_add(m, out0, out);
    m->p_pos = i;
    return out;
}

/* Split: the big source streams against the small ones, which are
 * pre-merged (first entry per key, tombstones kept) into a buffer of p_cap
 * entries at a time: in the usual LSM shape (a big old run, a few small
 * newer ones) the big source's long stretches then cost one gallop each,
 * not a scan of every head. */
static uint32_t split_fill(Merge *m, uint32_t out, uint32_t max)
{
    Cursor *B = &m->cur[m->big];
    while (out < max) {
        while (m->p_pos == m->p_count && !m->p_done) { /* a round may keep nothing new */
            bool ex;
            uint32_t got = 0;
            if (m->stretch_avg < 3 * 16 && !(run__merge_off & RUN_MERGE_OFF_PREWIN) &&
                window_fill(m, m->small, m->nsmall, &m->pre, &got, m->opts.batch_max)) {
                m->p_count = got;
                m->p_pos = 0;
            } else {
                m->p_count = nway_fill(m, m->small, m->nsmall, &m->pre, 0, m->p_cap, &ex,
                                       UINT32_MAX);
                m->p_pos = 0;
                m->p_done = m->p_count == 0;
            }
        }
        bool pe = m->p_pos == m->p_count;
        if (B->done && pe) {
            m->finished = true;
            break;
        }
        int64_t kp = pe ? INT64_MAX : m->pre.key[m->p_pos];
        uint32_t rp = pe ? UINT32_MAX : m->cur[m->pre.src[m->p_pos]].rank;
        int64_t kb = m->hk[m->big]; /* (INT64_MAX, UINT32_MAX) when done */
        uint32_t rb = m->hr[m->big];
        if (!B->done && (kb < kp || (kb == kp && rb < rp))) {
            uint32_t avail = B->blk.count - B->pos, room = max - out;
            uint32_t end = stretch_end(B, B->pos + (avail < room ? avail : room), kp, rb < rp);
            out = sink_stretch(m, m->big, end, &m->out, out);
            cursor_seek(m, m->big, end);
        } else {
            out = split_pre(m, kb, rb, out, max);
        }
    }
    return out;
}

/* One batch by the direct path. Without a split it pays only while
 * stretches are long (on average 3 or more, as measured by both paths): with
 * randomly interleaved sources a scan of every head per entry costs twice a
 * window round, so the batch is left to the staged path (returns false). The
 * two paths hand over "the last key seen, already decided". */
bool merge__direct_fill(Merge *m, uint32_t max, uint32_t *count)
{
    m->nspans = 0;
    if (!m->built) {
        for (int i = 0; i < m->n; i++)
            merge__fetch_block(m, i);
        m->built = true;
        m->stretch_avg = 3 * 16;
    }
    if (m->big >= 0) {
        *count = split_fill(m, 0, max);
        m->span_batch = true;
        return true;
    }
    /* stretches of 3 or more (as measured by both): head scans with spans
     * recorded; else window rounds straight to the output, gathered per
     * entry (spans would be ~1 long) */
    uint32_t out = 0;
    bool ex = false;
    m->span_batch = true;
    while (out < max && !ex) {
        if (m->stretch_avg >= 3 * 16 || (run__merge_off & RUN_MERGE_OFF_PREWIN)) {
            out = nway_fill(m, m->live, m->nlive, &m->out, out, max, &ex, UINT32_MAX);
            continue;
        }
        if (out > 0 && max - out < max / 4)
            break; /* a window round over a sliver would be mostly overhead */
        m->span_batch = false;
        if (!window_fill(m, m->live, m->nlive, &m->out, &out, max - out))
            out = nway_fill(m, m->live, m->nlive, &m->out, out, max, &ex, 1);
        ex = ex || nway_all_done(m, m->live, m->nlive);
    }
    m->finished = ex;
    *count = out;
    return true;
}

/* Recency: when every source's version range is known, each source is
 * wholly visible or wholly invisible to the snapshot, and the visible ones'
 * ranges pairwise don't overlap, "version descending" between sources is
 * "newer source first": rank the visible sources by version (0 = newest),
 * drop the invisible ones, and tell the sources not to decode versions.
 * Only for scans (skip_versions; a visibility hook or compaction needs the
 * versions). Then, for one integer key, the direct path (and, when one
 * source holds at least twice the entries of all the others together, the
 * split into that source against the others pre-merged). */
void merge__plan_recency(Merge *m)
{
    const MergeOptions *o = &m->opts;
    if ((run__merge_off & RUN_MERGE_OFF_RECENCY) || !o->skip_versions || o->compact || o->visible)
        return;
    int nv = 0;
    for (int i = 0; i < m->n; i++) {
        const MergeSource *s = m->cur[i].src;
        if (!s->versions_known || s->min_version > s->max_version)
            return;
        if (s->min_version <= o->snapshot && s->max_version > o->snapshot)
            return; /* partly visible: needs per-entry versions */
        if (s->max_version <= o->snapshot)
            m->live[nv++] = i;
    }
    for (int i = 1; i < nv; i++) /* newest first (insertion sort: few sources) */
        for (int j = i; j > 0 && m->cur[m->live[j]].src->min_version >
                                  m->cur[m->live[j - 1]].src->min_version; j--) {
            int t = m->live[j];
            m->live[j] = m->live[j - 1];
            m->live[j - 1] = t;
        }
    for (int i = 1; i < nv; i++)
        if (m->cur[m->live[i - 1]].src->min_version <= m->cur[m->live[i]].src->max_version)
            return; /* overlapping version ranges */
    m->recency = true;
    m->nlive = nv;
    uint64_t total = 0;
    for (int i = 0; i < m->n; i++) {
        Cursor *c = &m->cur[i];
        c->done = c->started = c->src->max_version > o->snapshot; /* invisible: never read */
        if (c->done)
            m->hk[i] = INT64_MAX;
        else if (c->src->ops->keys_only)
            c->src->ops->keys_only(c->src->ctx);
        total += c->done ? 0 : c->src->entries;
    }
    for (int i = 0; i < m->K; i++)
        m->hr[i] = UINT32_MAX;
    for (int r = 0; r < nv; r++) {
        m->cur[m->live[r]].rank = (uint32_t)r;
        m->hr[m->live[r]] = (uint32_t)r;
    }
    m->direct = m->fast && !m->concat && !(run__merge_off & RUN_MERGE_OFF_DIRECT);
    if (!m->direct)
        return;
    m->out = (Sink){m->o_src, m->o_row, NULL, NULL, 0, false};
    if (nv < 3 || (run__merge_off & RUN_MERGE_OFF_SPLIT))
        return;
    for (int r = 0; r < nv; r++) {
        const MergeSource *s = m->cur[m->live[r]].src;
        if (s->entries == 0)
            return; /* unknown sizes */
        if (s->entries >= 2 * (total - s->entries))
            m->big = m->live[r];
    }
    if (m->big < 0)
        return;
    m->small = MEM_NEW_ARRAY(m->arena, int, nv);
    for (int r = 0; r < nv; r++)
        if (m->live[r] != m->big)
            m->small[m->nsmall++] = m->live[r];
    m->p_cap = 4 * VEC_CAPACITY;
    m->pre = (Sink){MEM_NEW_ARRAY(m->arena, uint16_t, m->p_cap),
                    MEM_NEW_ARRAY(m->arena, uint64_t, m->p_cap),
                    MEM_NEW_ARRAY(m->arena, int64_t, m->p_cap),
                    MEM_NEW_ARRAY(m->arena, bool, m->p_cap), 0, false};
}
