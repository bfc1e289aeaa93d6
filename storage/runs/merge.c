/*
 * merge.c — the batched k-way merge over sorted sources (see run.h and
 * RUNS.md "The batched merge").
 *
 * Sources hand over blocks of keys in columnar form (MergeKeys); no call per
 * entry crosses an interface. Entries are staged in batches in key order
 * (key ascending, version descending, source index), in one of three ways:
 *   - concatenation, when the sources' key ranges don't overlap: no
 *     comparison at all, clean blocks passed through whole;
 *   - one integer key column: "streaming" of the leading source's stretch
 *     below every other head, else "window rounds" that collect every entry
 *     below the smallest window end and radix-sort them;
 *   - other keys: a loser tree, with the winner streaming while it stays
 *     ahead of its challenger.
 * Staged entries carry a "new key" flag; resolution keeps, per key, the
 * first entry visible to the snapshot (tombstones hide the key), or in
 * compaction mode every version a live snapshot may need.
 *
 * Scans of sources whose version ranges don't overlap (the normal LSM case;
 * plan_recency) order equal keys by source recency instead: no version is
 * read, and for one integer key the "direct" path skips staging and
 * resolution — the first entry of each key in (key, rank) order is the
 * answer, so stretches go straight to the output as spans of consecutive
 * rows (gathered with one copy each). A source holding most entries is
 * merged against the others pre-merged into a buffer ("split"), so its long
 * stretches cost one bounded count each; randomly interleaved sources go
 * through branch-free window rounds (window_fill), not head scans. Those
 * paths are in merge_direct.c; the state both files share in merge_int.h.
 *
 * Memory: everything in the arena given to merge_create.
 */
#define STRATA_RUNS_INTERNAL
#include "common/error.h"
#include "storage/runs/merge_int.h"

unsigned run__merge_off;

/* ---------------------------------------------------------------- cursors */

static void setup_block(Merge *m, Cursor *c)
{
    if (!m->fast)
        return;
    PhysType p = m->key_types[0];
    if (p == PHYS_I64) {
        c->k64 = c->blk.keys[0];
        return;
    }
    if (c->conv_cap < c->blk.count) {
        c->conv_cap = c->blk.count;
        c->conv = mem_alloc(m->arena, (size_t)c->conv_cap * 8);
    }
    for (uint32_t i = 0; i < c->blk.count; i++)
        c->conv[i] = p == PHYS_I32 ? ((const int32_t *)c->blk.keys[0])[i]
                                   : ((const int16_t *)c->blk.keys[0])[i];
    c->k64 = c->conv;
}

/* Keep the last staged key when its block is about to go away. */
static void save_last(Merge *m, int ci)
{
    if (m->fast || !m->have_last || m->last_saved || m->last_cur != ci)
        return;
    Cursor *c = &m->cur[ci];
    for (int k = 0; k < m->nkeys; k++) {
        run__elem_to_value(m->key_types[k], c->blk.keys[k], m->last_pos, &m->last_key[k]);
        if (m->key_types[k] == PHYS_STR)
            m->last_key[k].u.str.ptr = mem_strndup(m->arena, m->last_key[k].u.str.ptr,
                                                   m->last_key[k].u.str.len);
    }
    m->last_saved = true;
}

void merge__fetch_block(Merge *m, int ci)
{
    Cursor *c = &m->cur[ci];
    if (c->done) /* exhausted, or invisible to the snapshot (plan_recency) */
        return;
    save_last(m, ci);
    c->started = true;
    c->pos = 0;
    c->blk.distinct = false; /* sources that don't know the hint leave it */
    if (!c->src->ops->next_keys(c->src->ctx, &c->blk)) {
        c->done = true;
        m->hk[ci] = INT64_MAX;
        m->hr[ci] = UINT32_MAX;
        return;
    }
    ERR_ASSERT(c->blk.count > 0);
    setup_block(m, c);
    if (m->fast)
        m->hk[ci] = c->k64[0];
}

static inline void advance(Merge *m, int ci)
{
    Cursor *c = &m->cur[ci];
    if (++c->pos == c->blk.count) {
        if (m->concat)
            c->started = false; /* fetch lazily: the next block may be clean */
        else
            merge__fetch_block(m, ci);
    } else if (m->fast)
        m->hk[ci] = c->k64[c->pos];
}

static int cmp_keys(const Merge *m, const Cursor *x, const Cursor *y)
{
    for (int k = 0; k < m->nkeys; k++) {
        int r = run__cmp_elem(m->key_types[k], x->blk.keys[k], x->pos, y->blk.keys[k], y->pos);
        if (r)
            return r;
    }
    return 0;
}

/* Entry of cursor a before entry of cursor b? (done cursors sort last) */
static bool less_slow(const Merge *m, int a, int b)
{
    const Cursor *x = &m->cur[a], *y = &m->cur[b];
    if (x->done || y->done)
        return !x->done;
    if (!m->fast) {
        int r = cmp_keys(m, x, y);
        if (r)
            return r < 0;
    }
    if (m->recency)
        return x->rank < y->rank;
    uint64_t va = x->blk.versions[x->pos], vb = y->blk.versions[y->pos];
    if (va != vb)
        return va > vb;
    return a < b;
}

/* The fast path compares the cached head keys and falls back to the full
 * comparison only on equal keys (versions, exhausted cursors). */
static inline bool less(const Merge *m, int a, int b)
{
    if (m->fast) {
        int64_t ka = m->hk[a], kb = m->hk[b];
        if (ka != kb)
            return ka < kb;
    }
    return less_slow(m, a, b);
}

/* ---------------------------------------------------------------- loser tree */

static int build(Merge *m, int node)
{
    if (node >= m->K)
        return node - m->K;
    int l = build(m, 2 * node), r = build(m, 2 * node + 1);
    if (less(m, l, r)) {
        m->tree[node] = r;
        return l;
    }
    m->tree[node] = l;
    return r;
}

static void replay(Merge *m, int w)
{
    if (m->fast) {
        const int64_t *hk = m->hk;
        for (int node = (w + m->K) >> 1; node >= 1; node >>= 1) {
            int t = m->tree[node];
            bool swap = hk[t] < hk[w] || (hk[t] == hk[w] && less_slow(m, t, w));
            m->tree[node] = swap ? w : t;
            w = swap ? t : w;
        }
        m->tree[0] = w;
        return;
    }
    for (int node = (w + m->K) >> 1; node >= 1; node >>= 1) {
        if (less(m, m->tree[node], w)) {
            int t = m->tree[node];
            m->tree[node] = w;
            w = t;
        }
    }
    m->tree[0] = w;
}

/* The best entry other than the winner w's: the best loser on w's path. */
static int challenger(const Merge *m, int w)
{
    int c = -1;
    for (int node = (w + m->K) >> 1; node >= 1; node >>= 1) {
        int l = m->tree[node];
        if (c < 0 || less(m, l, c))
            c = l;
    }
    return c;
}

/* ---------------------------------------------------------------- staging */

static inline bool is_new_key(Merge *m, const Cursor *c, int ci)
{
    bool fresh;
    if (m->fast) {
        int64_t k = c->k64[c->pos];
        fresh = !m->have_last || k != m->last64;
        m->last64 = k;
    } else if (!m->have_last) {
        fresh = true;
    } else if (m->last_saved) {
        fresh = false;
        for (int k = 0; k < m->nkeys && !fresh; k++)
            fresh = run__cmp_elem_value(m->key_types[k], c->blk.keys[k], c->pos, &m->last_key[k]) != 0;
    } else {
        const Cursor *l = &m->cur[m->last_cur];
        fresh = false;
        for (int k = 0; k < m->nkeys && !fresh; k++)
            fresh = run__cmp_elem(m->key_types[k], c->blk.keys[k], c->pos, l->blk.keys[k],
                                  m->last_pos) != 0;
    }
    m->have_last = true;
    m->last_saved = false;
    m->last_cur = ci;
    m->last_pos = c->pos;
    return fresh;
}

static inline void emit(Merge *m, int ci, uint32_t n)
{
    Cursor *c = &m->cur[ci];
    m->s_src[n] = (uint16_t)ci;
    m->s_row[n] = c->blk.rows ? c->blk.rows[c->pos] : c->blk.first_row + c->pos;
    m->s_ver[n] = c->blk.versions ? c->blk.versions[c->pos] : 0; /* recency: all visible */
    m->s_del[n] = c->blk.deleted ? c->blk.deleted[c->pos] : false;
    m->s_new[n] = is_new_key(m, c, ci);
}

/* Concatenation: copy entries of the current source straight through. */
static uint32_t stage_concat(Merge *m, uint32_t max)
{
    uint32_t n = 0;
    while (n < max && m->concat_at < m->n) {
        int ci = m->order[m->concat_at];
        Cursor *c = &m->cur[ci];
        if (!c->started)
            merge__fetch_block(m, ci);
        if (c->done) {
            m->concat_at++;
            continue;
        }
        uint32_t take = c->blk.count - c->pos;
        if (take > max - n)
            take = max - n;
        if (m->fast && !c->blk.rows) {
            const int64_t *k = c->k64;
            const uint64_t *ver = c->blk.versions;
            const bool *del = c->blk.deleted;
            int64_t last = m->last64;
            bool have = m->have_last;
            for (uint32_t i = 0; i < take; i++) {
                uint32_t p = c->pos + i;
                m->s_src[n + i] = (uint16_t)ci;
                m->s_row[n + i] = c->blk.first_row + p;
                m->s_ver[n + i] = ver ? ver[p] : 0;
                m->s_del[n + i] = del ? del[p] : false;
                m->s_new[n + i] = !have || k[p] != last;
                last = k[p];
                have = true;
            }
            m->last64 = last;
            m->have_last = have;
            n += take;
            c->pos += take - 1;
            advance(m, ci);
        } else {
            for (uint32_t i = 0; i < take; i++) {
                emit(m, ci, n++);
                advance(m, ci);
            }
        }
    }
    if (m->concat_at >= m->n)
        m->finished = true;
    return n;
}

static uint32_t stage_tree(Merge *m, uint32_t max)
{
    if (!m->built) {
        for (int i = 0; i < m->n; i++)
            merge__fetch_block(m, i);
        m->tree[0] = build(m, 1);
        m->built = true;
    }
    uint32_t n = 0;
    int prev = -1;
    while (n < max) {
        int w = m->tree[0];
        if (m->cur[w].done) {
            m->finished = true;
            break;
        }
        emit(m, w, n++);
        advance(m, w);
        if (w == prev && n < max && !m->cur[w].done) {
            /* the same source won twice: likely a run; stream it while it
             * stays ahead of the best other entry, one comparison each */
            int c = challenger(m, w);
            while (c < 0 || less(m, w, c)) {
                emit(m, w, n++);
                advance(m, w);
                if (n == max || m->cur[w].done)
                    break;
            }
        }
        replay(m, w);
        prev = w;
    }
    return n;
}

/* ---------------------------------------------------------------- window sort */

/* Emit the single smallest entry (linear scan): the fallback when a window
 * round can't make progress. Returns entries staged (0 or 1). */
static uint32_t step_min(Merge *m, uint32_t n)
{
    int best = -1;
    for (int i = 0; i < m->n; i++)
        if (!m->cur[i].done && (best < 0 || less(m, i, best)))
            best = i;
    if (best < 0) {
        m->finished = true;
        return 0;
    }
    emit(m, best, n);
    advance(m, best);
    return 1;
}

/* Stable LSD radix sort of count (key, idx) pairs by key (keys < 2^bits),
 * 8 bits a pass; the result is in m->w_key / m->w_idx. */
void merge__radix_sort(Merge *m, uint32_t count, int bits)
{
    uint64_t *k = m->w_key, *k2 = m->w_key2;
    uint16_t *x = m->w_idx, *x2 = m->w_idx2;
    if (bits > 8 && bits <= 12) {
        /* dense windows (a round's keys span ~count values): one counting
         * pass over 2^bits buckets instead of two 8-bit passes */
        uint32_t hist[(1u << 12) + 1];
        uint32_t nb = 1u << bits;
        memset(hist, 0, sizeof(uint32_t) * (nb + 1));
        for (uint32_t i = 0; i < count; i++)
            hist[k[i] + 1]++;
        for (uint32_t b = 0; b < nb; b++)
            hist[b + 1] += hist[b];
        for (uint32_t i = 0; i < count; i++) {
            uint32_t at = hist[k[i]]++;
            k2[at] = k[i];
            x2[at] = x[i];
        }
        memcpy(m->w_key, k2, sizeof(uint64_t) * count);
        memcpy(m->w_idx, x2, sizeof(uint16_t) * count);
        return;
    }
    for (int shift = 0; shift < bits; shift += 8) {
        uint32_t hist[257] = {0};
        for (uint32_t i = 0; i < count; i++)
            hist[((k[i] >> shift) & 255) + 1]++;
        for (int b = 0; b < 256; b++)
            hist[b + 1] += hist[b];
        for (uint32_t i = 0; i < count; i++) {
            uint32_t at = hist[(k[i] >> shift) & 255]++;
            k2[at] = k[i];
            x2[at] = x[i];
        }
        uint64_t *tk = k; k = k2; k2 = tk;
        uint16_t *tx = x; x = x2; x2 = tx;
    }
    if (k != m->w_key) {
        memcpy(m->w_key, k, sizeof(uint64_t) * count);
        memcpy(m->w_idx, x, sizeof(uint16_t) * count);
    }
}

/* Equal keys from different cursors: order them by version (newest first),
 * then cursor (insertion sort: such groups are tiny). */
void merge__order_ties(Merge *m, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++) {
        if (m->w_key[i] != m->w_key[i - 1])
            continue;
        for (uint32_t j = i; j > 0 && m->w_key[j] == m->w_key[j - 1]; j--) {
            uint16_t a = m->w_idx[j - 1], b = m->w_idx[j];
            const Cursor *ca = &m->cur[m->w_src[a]], *cb = &m->cur[m->w_src[b]];
            if (m->recency) {
                if (ca->rank <= cb->rank) /* one cursor's versions keep their order */
                    break;
                m->w_idx[j - 1] = b;
                m->w_idx[j] = a;
                continue;
            }
            uint64_t va = ca->blk.versions[m->w_pos[a]], vb = cb->blk.versions[m->w_pos[b]];
            if (va > vb || (va == vb && m->w_src[a] < m->w_src[b]))
                break;
            m->w_idx[j - 1] = b;
            m->w_idx[j] = a;
        }
    }
}

/* Streaming: when the cursor with the smallest head has a long stretch of
 * keys below every other cursor's head (a big old run between sparse newer
 * ones), copy that stretch straight to staging: no sort, no comparison per
 * entry beyond the binary search for its end. Returns 0 when the stretch is
 * shorter than STREAM_MIN (the window round is cheaper then). */
#define STREAM_MIN 8u
static uint32_t stage_stream(Merge *m, uint32_t max, uint32_t min_len)
{
    int w = -1;
    int64_t b2 = INT64_MAX; /* smallest head among the others */
    for (int i = 0; i < m->n; i++) {
        if (m->cur[i].done)
            continue;
        if (w < 0 || m->hk[i] < m->hk[w]) {
            if (w >= 0 && m->hk[w] < b2)
                b2 = m->hk[w];
            w = i;
        } else if (m->hk[i] < b2) {
            b2 = m->hk[i];
        }
    }
    Cursor *c = &m->cur[w];
    uint32_t avail = c->blk.count - c->pos;
    uint32_t lim = c->pos + (avail < max ? avail : max);
    /* first position with key >= b2: gallop (stretches are often short),
     * then binary search the last step */
    uint32_t a = c->pos, b = c->pos;
    if (c->k64[a] < b2) {
        uint32_t step = 1;
        b = a + 1;
        while (b < lim && c->k64[b] < b2) {
            a = b;
            step *= 2;
            b = a + step;
        }
        b = b < lim ? b : lim;
        a++;
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (c->k64[mid] < b2)
                a = mid + 1;
            else
                b = mid;
        }
    }
    /* remember how long stretches are: streaming pays when they are long */
    m->stretch_avg = (m->stretch_avg * 7 + (a - c->pos) * 16) / 8;
    if (a - c->pos < min_len || a == c->pos)
        return 0;
    uint32_t n = a - c->pos;
    const int64_t *restrict k = c->k64 + c->pos;
    uint64_t first = c->blk.first_row + c->pos;
    for (uint32_t i = 0; i < n; i++) {
        m->s_src[i] = (uint16_t)w;
        m->s_row[i] = c->blk.rows ? c->blk.rows[c->pos + i] : first + i;
    }
    if (c->blk.versions)
        memcpy(m->s_ver, c->blk.versions + c->pos, (size_t)n * 8);
    else
        memset(m->s_ver, 0, (size_t)n * 8); /* recency: all visible */
    if (c->blk.deleted)
        memcpy(m->s_del, c->blk.deleted + c->pos, n);
    else
        memset(m->s_del, 0, n);
    m->s_new[0] = !m->have_last || k[0] != m->last64;
    for (uint32_t i = 1; i < n; i++)
        m->s_new[i] = k[i] != k[i - 1];
    m->last64 = k[n - 1];
    m->have_last = true;
    c->pos += n - 1;
    advance(m, w);
    return n;
}

/* Stage the n sorted window entries (keys relative to lo). */
static void emit_window(Merge *m, uint32_t n, int64_t lo)
{
    const uint16_t *restrict widx = m->w_idx, *restrict wsrc = m->w_src;
    const uint32_t *restrict wpos = m->w_pos;
    const uint64_t *restrict wkey = m->w_key;
    uint16_t *restrict ssrc = m->s_src;
    uint64_t *restrict srow = m->s_row, *restrict sver = m->s_ver;
    bool *restrict sdel = m->s_del, *restrict snew = m->s_new;
    uint64_t last = (uint64_t)m->last64 - (uint64_t)lo;
    bool have = m->have_last;
    for (uint32_t t = 0; t < n; t++) {
        uint16_t e = widx[t], src = wsrc[e];
        const MergeKeys *b = &m->cur[src].blk;
        uint32_t p = wpos[e];
        ssrc[t] = src;
        srow[t] = b->rows ? b->rows[p] : b->first_row + p;
        sver[t] = b->versions ? b->versions[p] : 0;
        sdel[t] = b->deleted ? b->deleted[p] : false;
        snew[t] = !have || wkey[t] != last;
        last = wkey[t];
        have = true;
    }
    m->last64 = (int64_t)(last + (uint64_t)lo);
    m->have_last = have;
}

/* Collect every entry with key < B from each cursor's window of W entries
 * (keys relative to lo) into m->w_*; sets *contributors to the number of
 * cursors that gave some. */
static uint32_t collect_window(Merge *m, uint32_t W, int64_t B, int64_t lo, int *contributors)
{
    uint32_t n = 0;
    for (int i = 0; i < m->n; i++) {
        Cursor *c = &m->cur[i];
        m->w_take[i] = 0;
        if (c->done || m->hk[i] >= B)
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
        *contributors += take > 0;
        for (uint32_t j = 0; j < take; j++, n++) {
            m->w_key[n] = (uint64_t)c->k64[c->pos + j] - (uint64_t)lo;
            m->w_idx[n] = (uint16_t)n;
            m->w_src[n] = (uint16_t)i;
            m->w_pos[n] = c->pos + j;
        }
    }
    return n;
}

/* One round of the batched merge for one integer key: every cursor offers a
 * window of up to max/active entries; B = the smallest window-end key; all
 * entries with key < B (complete for each such key: every cursor's window
 * reaches B) are collected, radix-sorted on (key - smallest head) and
 * staged. No comparison tree, no branch per entry on which cursor wins. */
static uint32_t stage_window(Merge *m, uint32_t max)
{
    if (!m->built) {
        for (int i = 0; i < m->n; i++)
            merge__fetch_block(m, i);
        m->built = true;
    }
    int active = 0;
    int64_t lo = INT64_MAX;
    for (int i = 0; i < m->n; i++)
        if (!m->cur[i].done) {
            active++;
            lo = m->hk[i] < lo ? m->hk[i] : lo;
        }
    if (active == 0) {
        m->finished = true;
        return 0;
    }
    if (max < (uint32_t)active)
        return step_min(m, 0);
    /* sources that take turns in long stretches: stream even short ones
     * (a tie at the heads takes one linear step); else window rounds */
    bool streaming = m->stretch_avg >= 3 * 16;
    uint32_t streamed = stage_stream(m, max, streaming ? 1 : STREAM_MIN);
    if (streamed)
        return streamed;
    if (streaming)
        return step_min(m, 0);
    uint32_t W = max / (uint32_t)active;
    int64_t B = INT64_MAX;
    for (int i = 0; i < m->n; i++) {
        const Cursor *c = &m->cur[i];
        if (c->done)
            continue;
        uint32_t w = c->blk.count - c->pos < W ? c->blk.count - c->pos : W;
        int64_t e = c->k64[c->pos + w - 1];
        B = e < B ? e : B;
    }
    int contributors = 0;
    uint32_t n = collect_window(m, W, B, lo, &contributors);
    if (n == 0)
        return step_min(m, 0);
    if (contributors > 1) {
        uint64_t range = (uint64_t)B - (uint64_t)lo - 1;
        merge__radix_sort(m, n, range == 0 ? 0 : 64 - __builtin_clzll(range));
        merge__order_ties(m, n);
    }
    emit_window(m, n, lo);
    for (int i = 0; i < m->n; i++) {
        if (m->w_take[i] == 0)
            continue;
        Cursor *c = &m->cur[i];
        c->pos += m->w_take[i] - 1;
        advance(m, i);
    }
    return n;
}

/* ---------------------------------------------------------------- resolution */

/* Resolution for a plain snapshot: per key, the first version <= snapshot,
 * unless it is a tombstone. Branch-free appends. */
static uint32_t resolve_snapshot(Merge *m, uint32_t n, uint32_t out)
{
    const uint16_t *restrict ssrc = m->s_src;
    const uint64_t *restrict srow = m->s_row, *restrict sver = m->s_ver;
    const bool *restrict sdel = m->s_del, *restrict snew = m->s_new;
    uint16_t *restrict osrc = m->o_src;
    uint64_t *restrict orow = m->o_row, *restrict over = m->o_ver;
    bool *restrict odel = m->o_del;
    uint64_t snap = m->opts.snapshot;
    bool resolved = m->resolved;
    for (uint32_t i = 0; i < n; i++) {
        resolved = resolved && !snew[i];
        bool take = !resolved && sver[i] <= snap;
        resolved = resolved || take;
        osrc[out] = ssrc[i];
        orow[out] = srow[i];
        over[out] = sver[i];
        odel[out] = false;
        out += take && !sdel[i];
    }
    m->resolved = resolved;
    return out;
}

static uint32_t resolve(Merge *m, uint32_t n, uint32_t out)
{
    const MergeOptions *o = &m->opts;
    if (m->all) { /* the shadow build: every entry, in merge order */
        memcpy(m->o_src + out, m->s_src, sizeof(uint16_t) * n);
        memcpy(m->o_row + out, m->s_row, sizeof(uint64_t) * n);
        memcpy(m->o_ver + out, m->s_ver, sizeof(uint64_t) * n);
        memcpy(m->o_del + out, m->s_del, n);
        memcpy(m->o_new + out, m->s_new, n);
        return out + n;
    }
    if (o->visible && !o->compact)
        o->visible(o->visible_ctx, m->s_ver, n, m->s_vis);
    else
        for (uint32_t i = 0; i < n; i++)
            m->s_vis[i] = true;
    if (!o->compact && !o->visible)
        return resolve_snapshot(m, n, out);
    for (uint32_t i = 0; i < n; i++) {
        if (m->s_new[i]) {
            m->resolved = false;
            m->drop_rest = false;
        }
        bool keep;
        if (o->compact) {
            if (m->drop_rest)
                continue;
            keep = true;
            if (m->s_ver[i] <= o->snapshot) {
                m->drop_rest = true;
                keep = !(m->s_del[i] && o->drop_tombstones);
            }
        } else {
            if (m->resolved || !m->s_vis[i] || m->s_ver[i] > o->snapshot)
                continue;
            m->resolved = true;
            keep = !m->s_del[i];
        }
        if (!keep)
            continue;
        m->o_src[out] = m->s_src[i];
        m->o_row[out] = m->s_row[i];
        m->o_ver[out] = m->s_ver[i];
        m->o_del[out] = m->s_del[i];
        out++;
    }
    return out;
}

/* Concatenation, the common clean case: a range of one block with distinct
 * keys (also distinct from the last key seen), all visible, no tombstones,
 * goes straight to the output without staging or resolution. Returns the
 * entries emitted (0: not clean, use the general path). */
static uint32_t concat_direct(Merge *m, uint32_t out, uint32_t max)
{
    if (!m->fast || m->all || m->opts.compact || m->opts.visible || m->concat_at >= m->n)
        return 0;
    int ci = m->order[m->concat_at];
    Cursor *c = &m->cur[ci];
    if (!c->started)
        merge__fetch_block(m, ci);
    if (c->done || c->blk.rows)
        return 0;
    uint32_t take = c->blk.count - c->pos;
    if (take > max - out)
        take = max - out;
    const int64_t *restrict k = c->k64 + c->pos;
    const uint64_t *restrict v = c->blk.versions ? c->blk.versions + c->pos : NULL;
    const uint8_t *restrict d =
        c->blk.deleted ? (const uint8_t *)(c->blk.deleted + c->pos) : NULL;
    if (m->have_last && k[0] == m->last64)
        return 0;
    uint64_t vmax = 0; /* no versions: recency, all visible */
    unsigned dany = 0, dup = 0;
    for (uint32_t i = 0; v && i < take; i++)
        vmax = v[i] > vmax ? v[i] : vmax;
    for (uint32_t i = 0; d && i < take; i++)
        dany |= d[i];
    for (uint32_t i = 1; i < take; i++)
        dup |= k[i] == k[i - 1];
    if (vmax > m->opts.snapshot || dany || dup)
        return 0;
    uint64_t row = c->blk.first_row + c->pos;
    uint16_t *restrict os = m->o_src + out;
    uint64_t *restrict orow = m->o_row + out;
    fill_src(os, (uint16_t)ci, take);
    fill_rows(orow, row, take);
    if (v)
        memcpy(m->o_ver + out, v, (size_t)take * 8);
    else
        memset(m->o_ver + out, 0, (size_t)take * 8);
    memset(m->o_del + out, 0, take);
    m->last64 = k[take - 1];
    m->have_last = true;
    m->last_saved = false;
    m->last_cur = ci;
    m->last_pos = c->pos + take - 1;
    m->resolved = true;
    c->pos += take - 1;
    advance(m, ci);
    return take;
}

/* Concatenation with skip_versions: pass clean blocks through (rows only,
 * keys never decoded; with gather_only as pieces, no position per row, in
 * a batch of pieces only). Returns the entries emitted, 0 when the current
 * source's next block is not clean or the batch can take no more pieces. */
static uint32_t concat_clean(Merge *m, uint32_t out, uint32_t max)
{
    if (!m->opts.skip_versions || m->opts.compact || m->opts.visible || m->concat_at >= m->n)
        return 0;
    int ci = m->order[m->concat_at];
    Cursor *c = &m->cur[ci];
    if (c->clean_left == 0) {
        if (c->started || c->done || !c->src->ops->next_clean)
            return 0;
        c->clean_left = c->src->ops->next_clean(c->src->ctx, m->opts.snapshot, &c->clean_row);
        if (c->clean_left == 0)
            return 0;
        /* sources don't overlap and blocks never split a key: the block's
         * keys are all new */
        m->have_last = false;
        m->last_saved = false;
    }
    uint32_t take = c->clean_left < max - out ? c->clean_left : max - out;
    if (m->pieces_ok && (out == 0 || m->piece_batch)) {
        /* gather_only: a piece, no position per row */
        if (!merge__piece_add(m, ci, c->clean_row, take, 0, out))
            return 0;
        m->piece_batch = true;
    } else {
        fill_src(m->o_src + out, (uint16_t)ci, take);
        fill_rows(m->o_row + out, c->clean_row, take);
    }
    c->clean_row += take;
    c->clean_left -= take;
    m->resolved = true;
    return take;
}

bool merge_next(Merge *m, MergeBatch *out)
{
    uint32_t count = 0, max = m->opts.batch_max;
    m->span_batch = false;
    m->piece_batch = false;
    m->sh_npieces = 0;
    m->sh_skip_used = 0;
    if (m->shadow) {
        while (count == 0 && !m->finished) /* a batch may be all hidden rows */
            count = merge__shadow_fill(m, max);
        bool pos = !m->opts.gather_only;
        *out = (MergeBatch){count, pos ? m->o_src : NULL, pos ? m->o_row : NULL, NULL, NULL};
        return count > 0;
    }
    if (m->direct && !m->finished && merge__direct_fill(m, max, &count)) {
        *out = (MergeBatch){count, m->o_src, m->o_row, NULL, NULL};
        return count > 0;
    }
    while (count < max && !m->finished) {
        if (m->concat) {
            uint32_t k = concat_clean(m, count, max);
            if (k == 0 && m->piece_batch)
                break; /* a batch is all pieces or all positions */
            if (k == 0)
                k = concat_direct(m, count, max);
            if (k > 0) {
                count += k;
                continue;
            }
        }
        if (!m->concat && m->fast && count > 0 && max - count < max / 4)
            break; /* a window round over a sliver would be mostly overhead */
        uint32_t n = m->concat ? stage_concat(m, max - count)
                     : m->fast  ? stage_window(m, max - count)
                                : stage_tree(m, max - count);
        count = resolve(m, n, count);
    }
    bool pos = !m->piece_batch;
    *out = (MergeBatch){count, pos ? m->o_src : NULL, pos ? m->o_row : NULL,
                        m->opts.skip_versions ? NULL : m->o_ver,
                        m->opts.skip_versions ? NULL : m->o_del};
    return count > 0;
}

bool merge_is_concat(const Merge *m) { return m->concat; }

unsigned run__merge_plan(const Merge *m)
{
    return (m->recency ? RUN_MERGE_PLAN_RECENCY : 0u) | (m->direct ? RUN_MERGE_PLAN_DIRECT : 0u) |
           (m->big >= 0 ? RUN_MERGE_PLAN_SPLIT : 0u) | (m->concat ? RUN_MERGE_PLAN_CONCAT : 0u) |
           (m->shadow ? RUN_MERGE_PLAN_SHADOW : 0u);
}

/* Gather the batch's spans (m->d_spans, sources in m->d_src): grouped by
 * source, one gather_spans call per (source, column), one copy per span. */
static void gather_by_spans(Merge *m, int ncols, const int *cols, Vector *out,
                            MemArena *str_arena)
{
    uint32_t ns = m->nspans;
    memset(m->g_count, 0, sizeof(uint32_t) * ((size_t)m->n + 1));
    for (uint32_t j = 0; j < ns; j++)
        m->g_count[m->d_src[j] + 1]++;
    for (int s = 0; s < m->n; s++)
        m->g_count[s + 1] += m->g_count[s];
    uint32_t *fill = m->g_fill;
    memcpy(fill, m->g_count, sizeof(uint32_t) * (size_t)m->n);
    for (uint32_t j = 0; j < ns; j++)
        m->g_spans[fill[m->d_src[j]]++] = m->d_spans[j];
    for (int j = 0; j < ncols; j++) {
        out[j].is_const = false;
        vec_set_all_valid(&out[j]);
        for (int s = 0; s < m->n; s++) {
            uint32_t from = m->g_count[s], cnt = m->g_count[s + 1] - from;
            if (cnt)
                m->cur[s].src->ops->gather_spans(m->cur[s].src->ctx, cols[j], m->g_spans + from,
                                                 cnt, &out[j], str_arena);
        }
    }
}

/* Find the spans of a staged batch (branch-free: boundaries may be random).
 * Returns false when they are short (interleaved sources: the per-entry
 * gather is cheaper then). */
static bool find_spans(Merge *m, const MergeBatch *b)
{
    const uint16_t *restrict src = b->src;
    const uint64_t *restrict row = b->row;
    uint16_t *restrict start = m->g_start;
    uint32_t ns = 1;
    start[0] = 0;
    for (uint32_t i = 1; i < b->count; i++) {
        start[ns] = (uint16_t)i;
        ns += src[i] != src[i - 1] || row[i] != row[i - 1] + 1;
    }
    if (ns * 4 > b->count)
        return false;
    start[ns] = (uint16_t)b->count;
    for (uint32_t j = 0; j < ns; j++) {
        m->d_spans[j] = (MergeSpan){row[start[j]], start[j], (uint16_t)(start[j + 1] - start[j])};
        m->d_src[j] = src[start[j]];
    }
    m->nspans = ns;
    return true;
}

void merge_gather(Merge *m, const MergeBatch *b, int ncols, const int *cols, Vector *out,
                  MemArena *str_arena)
{
    if (b->count == 0)
        return;
    if (m->piece_batch) {
        merge__pieces_gather(m, ncols, cols, out, str_arena);
        return;
    }
    if (m->concat && b->src[0] == b->src[b->count - 1]) {
        /* concatenation emits sources in turn: the batch is one source's */
        Cursor *c = &m->cur[b->src[0]];
        for (int j = 0; j < ncols; j++) {
            out[j].is_const = false;
            vec_set_all_valid(&out[j]);
            c->src->ops->gather(c->src->ctx, cols[j], b->row, m->g_iota, b->count, &out[j], str_arena);
        }
        return;
    }
    if (m->spans_ok && !(run__merge_off & RUN_MERGE_OFF_SPANS) &&
        (m->span_batch || (m->stretch_avg >= 3 * 16 && find_spans(m, b)))) {
        gather_by_spans(m, ncols, cols, out, str_arena);
        return;
    }
    /* group the batch's entries by source, keeping their order */
    memset(m->g_count, 0, sizeof(uint32_t) * ((size_t)m->n + 1));
    for (uint32_t i = 0; i < b->count; i++)
        m->g_count[b->src[i] + 1]++;
    for (int s = 0; s < m->n; s++)
        m->g_count[s + 1] += m->g_count[s];
    uint32_t *fill = m->g_fill;
    memcpy(fill, m->g_count, sizeof(uint32_t) * (size_t)m->n);
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t at = fill[b->src[i]]++;
        m->g_rows[at] = b->row[i];
        m->g_idx[at] = (uint16_t)i;
    }
    for (int j = 0; j < ncols; j++) {
        out[j].is_const = false;
        vec_set_all_valid(&out[j]);
        for (int s = 0; s < m->n; s++) {
            uint32_t from = m->g_count[s], cnt = m->g_count[s + 1] - from;
            if (cnt)
                m->cur[s].src->ops->gather(m->cur[s].src->ctx, cols[j], m->g_rows + from,
                                           m->g_idx + from, cnt, &out[j], str_arena);
        }
    }
}

/* ---------------------------------------------------------------- create */

static int cmp_bound(const Merge *m, const Value *a, const Value *b)
{
    for (int k = 0; k < m->nkeys; k++) {
        int r = run__cmp_values(m->key_types[k], &a[k], &b[k]);
        if (r)
            return r;
    }
    return 0;
}

/* Concatenate when every source has bounds and, sorted by min key, each
 * ends before the next begins. */
static bool plan_concat(Merge *m)
{
    for (int i = 0; i < m->n; i++) {
        m->order[i] = i;
        if (!m->cur[i].src->min_key || !m->cur[i].src->max_key)
            return false;
    }
    for (int i = 1; i < m->n; i++) /* insertion sort: n is small */
        for (int j = i; j > 0 && cmp_bound(m, m->cur[m->order[j]].src->min_key,
                                           m->cur[m->order[j - 1]].src->min_key) < 0; j--) {
            int t = m->order[j];
            m->order[j] = m->order[j - 1];
            m->order[j - 1] = t;
        }
    for (int i = 1; i < m->n; i++)
        if (cmp_bound(m, m->cur[m->order[i - 1]].src->max_key, m->cur[m->order[i]].src->min_key) >= 0)
            return false;
    return true;
}


Merge *merge_create(MergeSource *const *sources, int nsources, int nkeys,
                    const PhysType *key_types, const MergeOptions *opts, MemArena *arena)
{
    ERR_ASSERT(nsources >= 0 && nsources <= UINT16_MAX && nkeys >= 1 && nkeys <= RUN_KEYS_MAX);
    Merge *m = MEM_NEW(arena, Merge);
    m->arena = arena;
    m->n = nsources;
    m->K = 1;
    while (m->K < nsources)
        m->K <<= 1;
    m->cur = MEM_NEW_ARRAY(arena, Cursor, m->K);
    for (int i = 0; i < m->K; i++) {
        m->cur[i].src = i < nsources ? sources[i] : NULL;
        m->cur[i].done = i >= nsources;
        m->cur[i].started = i >= nsources;
    }
    m->tree = MEM_NEW_ARRAY(arena, int, m->K);
    m->hk = MEM_NEW_ARRAY(arena, int64_t, m->K);
    m->hr = MEM_NEW_ARRAY(arena, uint32_t, m->K);
    for (int i = nsources; i < m->K; i++)
        m->hk[i] = INT64_MAX;
    m->order = MEM_NEW_ARRAY(arena, int, nsources + 1);
    m->live = MEM_NEW_ARRAY(arena, int, nsources + 1);
    m->nkeys = nkeys;
    memcpy(m->key_types, key_types, sizeof(PhysType) * (size_t)nkeys);
    m->fast = nkeys == 1 && (key_types[0] == PHYS_I64 || key_types[0] == PHYS_I32 ||
                             key_types[0] == PHYS_I16);
    m->opts = *opts;
    if (m->opts.batch_max == 0 || m->opts.batch_max > VEC_CAPACITY)
        m->opts.batch_max = VEC_CAPACITY;
    uint32_t cap = m->opts.batch_max;
    m->s_src = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->s_row = MEM_NEW_ARRAY(arena, uint64_t, cap);
    m->s_ver = MEM_NEW_ARRAY(arena, uint64_t, cap);
    m->s_del = MEM_NEW_ARRAY(arena, bool, cap);
    m->s_new = MEM_NEW_ARRAY(arena, bool, cap);
    m->s_vis = MEM_NEW_ARRAY(arena, bool, cap);
    m->o_src = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->o_row = MEM_NEW_ARRAY(arena, uint64_t, cap + MERGE_SEG);
    m->o_ver = MEM_NEW_ARRAY(arena, uint64_t, cap);
    m->o_del = MEM_NEW_ARRAY(arena, bool, cap);
    m->g_count = MEM_NEW_ARRAY(arena, uint32_t, nsources + 1);
    m->g_fill = MEM_NEW_ARRAY(arena, uint32_t, nsources + 1);
    m->g_rows = MEM_NEW_ARRAY(arena, uint64_t, cap);
    m->g_idx = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->g_iota = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->w_key = MEM_NEW_ARRAY(arena, uint64_t, cap);
    m->w_key2 = MEM_NEW_ARRAY(arena, uint64_t, cap);
    m->w_idx = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->w_idx2 = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->w_src = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->w_pos = MEM_NEW_ARRAY(arena, uint32_t, cap);
    m->w_take = MEM_NEW_ARRAY(arena, uint32_t, m->K);
    for (uint32_t i = 0; i < cap; i++)
        m->g_iota[i] = (uint16_t)i;
    m->g_start = MEM_NEW_ARRAY(arena, uint16_t, cap + 1);
    m->g_spans = MEM_NEW_ARRAY(arena, MergeSpan, cap);
    m->d_spans = MEM_NEW_ARRAY(arena, MergeSpan, cap);
    m->d_src = MEM_NEW_ARRAY(arena, uint16_t, cap);
    m->spans_ok = true;
    for (int i = 0; i < nsources; i++)
        m->spans_ok = m->spans_ok && sources[i]->ops->gather_spans;
    m->concat = plan_concat(m);
    m->big = -1;
    merge__plan_shadow(m);
    if (!m->shadow)
        merge__plan_recency(m);
    m->pieces_ok = m->concat && m->opts.gather_only && m->opts.skip_versions && !m->opts.compact &&
                   !m->opts.visible;
    for (int i = 0; m->pieces_ok && i < nsources; i++)
        m->pieces_ok = sources[i]->ops->gather_skip != NULL;
    if (m->pieces_ok)
        merge__pieces_init(m);
    m->finished = nsources == 0;
    return m;
}
